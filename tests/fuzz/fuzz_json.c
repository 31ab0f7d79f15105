/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Fuzz our JSON reader (formats/fmt_json.c), format forced.  A small
 * document is read whole by Jansson; the same with white space after it,
 * enough to pass JSON_STREAM_MIN, is read as it comes (its tables by
 * Jansson, its nodes by yajl) when its tables come first, and otherwise
 * whole again: both ways must read the same tree, or both fail.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats_int.h"
#include "fuzzutil.h"
#include "pdb.h"

#define PAD	((size_t)40000)

int
fuzz_json(const uint8_t *data, size_t size)
{
	struct pdb *whole, *streamed;
	uint8_t *padded;

	fuzz_read(&pdb_fmt_json, data, size, 0, &whole);
	if (size > (1u << 20)) {
		pdb_free(whole);
		return 0;
	}
	if ((padded = malloc(size + PAD)) == NULL)
		fuzz_fail("out of memory");
	memcpy(padded, data, size);
	memset(padded + size, ' ', PAD);
	fuzz_read(&pdb_fmt_json, padded, size + PAD, 0, &streamed);
	if ((whole == NULL) != (streamed == NULL))
		fuzz_fail("read whole, the document %s; with white space "
		    "after it, it %s", whole ? "read" : "failed",
		    streamed ? "read" : "failed");
	if (!fuzz_same_tree(whole, streamed))
		fuzz_fail("read whole and as it comes, the trees differ");
	pdb_free(whole);
	pdb_free(streamed);
	free(padded);
	return 0;
}

FUZZ_MAIN(fuzz_json)
