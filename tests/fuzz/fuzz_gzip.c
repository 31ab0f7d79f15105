/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Fuzz the input layer (formats/input.c) and the probes, reading as a
 * tool reads: format probed, gzip inflated transparently.  The bytes are
 * read as the file itself; the seeds are gzip files, so these are gzip
 * streams damaged in every way.  Then the bytes are gzip-compressed here
 * and read again: a valid stream of any content, which must read exactly
 * as the plain bytes do, also cut in two members; with a byte after it
 * that cannot begin a member, it must not read.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "formats.h"
#include "fuzzutil.h"
#include "pdb.h"

/* The bytes as a gzip stream at the given level; malloc'd. */
static unsigned char *
gzip_bytes(const uint8_t *data, size_t size, int level, size_t *len)
{
	unsigned char *out;
	z_stream z;
	uLong cap;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK)
		fuzz_fail("deflateInit2 failed");
	cap = deflateBound(&z, (uLong)size);
	if ((out = malloc(cap)) == NULL)
		fuzz_fail("out of memory");
	z.next_in = (unsigned char *)(uintptr_t)data;
	z.avail_in = (uInt)size;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		fuzz_fail("deflate failed");
	*len = z.total_out;
	deflateEnd(&z);
	return out;
}

/*
 * The bytes as two gzip members cut at a point drawn from seed, and
 * the first stream with a byte after it that is not 0x1f; both read
 * against plain.
 */
static void
members(const uint8_t *data, size_t size, uint64_t seed, struct pdb *plain,
    const unsigned char *z, size_t zlen)
{
	unsigned char *a, *b, *two;
	size_t alen, blen, cut = (size_t)(seed % (size + 1));
	struct pdb *db;

	a = gzip_bytes(data, cut, (int)(seed % 10), &alen);
	b = gzip_bytes(data + cut, size - cut, (int)(seed / 10 % 10), &blen);
	if ((two = malloc((alen + blen > zlen ? alen + blen : zlen) + 1)) ==
	    NULL)
		fuzz_fail("out of memory");
	memcpy(two, a, alen);
	memcpy(two + alen, b, blen);
	fuzz_read(NULL, two, alen + blen, 0, &db);
	if (!fuzz_same_tree(plain, db))
		fuzz_fail("cut into gzip members at %zu, the bytes read "
		    "differently", cut);
	pdb_free(db);
	memcpy(two, z, zlen);
	two[zlen] = size > 0 && data[0] != 0x1f ? data[0] : 0;
	fuzz_read(NULL, two, zlen + 1, 0, &db);
	if (db != NULL)
		fuzz_fail("a gzip stream with a byte 0x%02x after it read",
		    two[zlen]);
	free(a);
	free(b);
	free(two);
}

int
fuzz_gzip(const uint8_t *data, size_t size)
{
	struct pdb *plain, *gz;
	unsigned char *z;
	size_t zlen;
	uint64_t seed;

	/* A gzip file compressed again would read as its gzip bytes. */
	if ((size >= 2 && data[0] == 0x1f && data[1] == 0x8b) ||
	    size > (1u << 20)) {
		fuzz_read(NULL, data, size, 0, NULL);
		return 0;
	}
	seed = fuzz_hash(data, size);
	z = gzip_bytes(data, size, (int)(seed % 10), &zlen);
	fuzz_read(NULL, data, size, 0, &plain);
	fuzz_read(NULL, z, zlen, 0, &gz);
	if ((plain == NULL) != (gz == NULL))
		fuzz_fail("the plain bytes %s, the same gzip-compressed %s",
		    plain ? "read" : "fail", gz ? "read" : "fail");
	if (!fuzz_same_tree(plain, gz))
		fuzz_fail("plain and gzip-compressed bytes read differently");
	if (plain != NULL)
		members(data, size, seed >> 8, plain, z, zlen);
	pdb_free(plain);
	pdb_free(gz);
	free(z);
	return 0;
}

FUZZ_MAIN(fuzz_gzip)
