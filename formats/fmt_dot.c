/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Graphviz call graph (DOT, or SVG/PNG/PDF through gvc)
 */
#include "formats.h"

const struct pdb_format pdb_fmt_dot = {
	.abi = PDB_FORMAT_ABI,
	.name = "dot",
	.desc = "Graphviz call graph (DOT, or SVG/PNG/PDF through gvc)",
	.exts = ".dot,.gv,.svg,.png,.pdf",
	.flags = PDB_FMT_WRITE,
	.build = PDB_BUILD_RAW,
};
