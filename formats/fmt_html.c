/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * self-contained interactive HTML viewer
 */
#include "formats.h"

const struct pdb_format pdb_fmt_html = {
	.abi = PDB_FORMAT_ABI,
	.name = "html",
	.desc = "self-contained interactive HTML viewer",
	.exts = ".html,.htm",
	.flags = PDB_FMT_WRITE,
	.build = PDB_BUILD_RAW,
};
