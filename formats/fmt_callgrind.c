/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * callgrind format for KCacheGrind and callgrind_annotate
 */
#include "formats.h"

const struct pdb_format pdb_fmt_callgrind = {
	.abi = PDB_FORMAT_ABI,
	.name = "callgrind",
	.desc = "callgrind format for KCacheGrind and callgrind_annotate",
	.exts = ".callgrind,.out",
	.flags = PDB_FMT_WRITE,
	.build = PDB_BUILD_RAW,
};
