/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Fuzz the folded-stacks reader (formats/fmt_folded.c), format forced.
 */
#include <stddef.h>
#include <stdint.h>

#include "formats_int.h"
#include "fuzzutil.h"

int
fuzz_folded(const uint8_t *data, size_t size)
{
	fuzz_read(&pdb_fmt_folded, data, size, 0, NULL);
	return 0;
}

FUZZ_MAIN(fuzz_folded)
