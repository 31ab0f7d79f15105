/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Fuzz the Clean .pgcl reader (formats/fmt_pgcl.c), format forced so that
 * every input reaches it, with and without overhead compensation.
 */
#include <stddef.h>
#include <stdint.h>

#include "formats_int.h"
#include "fuzzutil.h"

int
fuzz_pgcl(const uint8_t *data, size_t size)
{
	fuzz_read(&pdb_fmt_pgcl, data, size, 0, NULL);
	fuzz_read(&pdb_fmt_pgcl, data, size, PDB_OPT_COMPENSATE, NULL);
	return 0;
}

FUZZ_MAIN(fuzz_pgcl)
