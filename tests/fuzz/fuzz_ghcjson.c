/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Fuzz the GHC JSON profile reader (formats/fmt_ghcjson.c), format
 * forced.
 */
#include <stddef.h>
#include <stdint.h>

#include "formats.h"
#include "fuzzutil.h"

int
fuzz_ghcjson(const uint8_t *data, size_t size)
{
	fuzz_read(&pdb_fmt_ghcjson, data, size, 0, NULL);
	return 0;
}

FUZZ_MAIN(fuzz_ghcjson)
