/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * speedscope file format (sampled, one profile per metric)
 */
#include "formats.h"

const struct pdb_format pdb_fmt_speedscope = {
	.abi = PDB_FORMAT_ABI,
	.name = "speedscope",
	.desc = "speedscope file format (sampled, one profile per metric)",
	.exts = ".speedscope.json",
	.flags = PDB_FMT_WRITE,
	.build = PDB_BUILD_RAW,
};
