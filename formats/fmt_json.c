/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccstools JSON: the whole profile, ccs-formats(5)
 */
#include "formats.h"

const struct pdb_format pdb_fmt_json = {
	.abi = PDB_FORMAT_ABI,
	.name = "json",
	.desc = "ccstools JSON: the whole profile, ccs-formats(5)",
	.exts = ".json",
	.flags = PDB_FMT_READ | PDB_FMT_WRITE,
	.build = PDB_BUILD_RAW,
};
