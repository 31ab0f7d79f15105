/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Fuzz the GHC JSON profile readers, format forced: the Jansson reader
 * (formats/fmt_ghcjson.c, files up to 1 MiB) and the yajl stream
 * (formats/ghcjson_stream.c, bigger files), here called on every input.
 * The two must agree (ghcjson_stream.c says so): both read or both fail,
 * and what they read is the same profile, byte for byte as a dump.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats_int.h"
#include "fuzzutil.h"
#include "ghcjson_stream.h"

static int
stream_read(struct pdb_input *in, struct pdb *db, const struct pdb_sink *sink,
    const struct pdb_opts *opts)
{
	(void)opts;
	return pdb_ghcjson_stream(in, db, sink);
}

/* The yajl reader whatever the size. */
static const struct pdb_format streamed = {
	.abi = PDB_FORMAT_ABI,
	.name = "ghc-json",
	.desc = "GHC JSON profile, always streamed",
	.flags = PDB_FMT_READ,
	.build = PDB_BUILD_RAW,
	.read = stream_read,
};

static char *
as_dump(struct pdb *db, size_t *len)
{
	char *buf = NULL;
	FILE *f;

	if ((f = open_memstream(&buf, len)) == NULL)
		fuzz_fail("open_memstream failed");
	if (pdb_write(db, f, &pdb_fmt_ccsdump, NULL) != PDB_OK)
		fuzz_fail("cannot write a dump: %s", pdb_errmsg(db));
	if (fclose(f) != 0)
		fuzz_fail("fclose failed");
	return buf;
}

int
fuzz_ghcjson(const uint8_t *data, size_t size)
{
	struct pdb *a, *b;
	char *da, *db;
	size_t la, lb;

	fuzz_read(&pdb_fmt_ghcjson, data, size, 0, &a);
	fuzz_read(&streamed, data, size, 0, &b);
	if ((a == NULL) != (b == NULL))
		fuzz_fail("Jansson %s, yajl %s", a ? "reads" : "fails",
		    b ? "reads" : "fails");
	if (a != NULL) {
		da = as_dump(a, &la);
		db = as_dump(b, &lb);
		if (la != lb || memcmp(da, db, la) != 0)
			fuzz_fail("Jansson and yajl read different profiles");
		free(da);
		free(db);
	}
	pdb_free(a);
	pdb_free(b);
	return 0;
}

FUZZ_MAIN(fuzz_ghcjson)
