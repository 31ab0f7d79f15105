/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The input layer read in place (pdb_in_map()): a plain file is mapped
 * from wherever the reader is, gives the same bytes in the same chunks
 * as read(2) would, gives back the pages read, and a gzip file or a pipe
 * stays as it was.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "formats.h"
#include "pdb.h"
#include "testutil.h"

#define SIZE	((size_t)11 * 1024 * 1024 + 12345)

static unsigned char *
content(void)
{
	unsigned char *d;
	uint64_t s = 99;
	size_t i;

	cr_assert((d = malloc(SIZE)) != NULL);
	for (i = 0; i < SIZE; i++) {
		s = s * 6364136223846793005ULL + 1442695040888963407ULL;
		d[i] = (unsigned char)(s >> 56);
	}
	return d;
}

/*
 * Read all of path: a few bytes the usual way, then mapped if map, in
 * steps of odd sizes; each step's bytes must be the file's.  The first
 * fill reads a head only (64 KiB), which mapping would throw away; the
 * fills after it, unmapped, the full buffer: 128 KiB, which grows only
 * to hold what is asked for (the steps, up to 300007 bytes, need 512 KiB
 * of it, never the file's 11 MiB), or 1 MiB for a gzip stream.
 */
static void
read_all(const char *path, int map, int want_mapped,
    const unsigned char *d, size_t maxcap)
{
	struct pdb *db = pdb_new();
	struct pdb_input *in;
	size_t step = 1, at = 0, maxdropped = 0;
	long got;

	cr_assert((in = pdb_in_open(db, path)) != NULL);
	cr_assert(pdb_in_fill(in, 100) >= 100);
	cr_assert_leq(in->len, (size_t)64 * 1024, "first fill: %zu bytes",
	    in->len);
	in->pos += 37;
	at = 37;
	if (map)
		cr_assert_eq(pdb_in_map(in) == 0, want_mapped);
	cr_assert_eq(in->mapped, want_mapped);
	cr_assert_eq(pdb_in_offset(in), 37, "the offset is kept");
	for (;;) {
		step = step * 7 % 300007 + 1;
		if ((got = pdb_in_fill(in, step)) < 0)
			cr_assert_fail("read error at %zu", at);
		if (got == 0)
			break;
		if ((size_t)got > step)
			got = (long)step;
		cr_assert(memcmp(in->buf + in->pos, d + at, (size_t)got) == 0,
		    "bytes at %zu differ", at);
		in->pos += (size_t)got;
		at += (size_t)got;
		if (in->mapped && in->dropped > maxdropped)
			maxdropped = in->dropped;
	}
	cr_assert_eq(at, SIZE);
	cr_assert(in->eof);
	if (!want_mapped) {
		cr_assert_geq(in->cap, (size_t)128 * 1024, "buffer: %zu",
		    in->cap);
		cr_assert_leq(in->cap, maxcap, "buffer: %zu", in->cap);
	}
	if (want_mapped)
		cr_assert(maxdropped >= SIZE - 5 * 1024 * 1024,
		    "pages read are given back: %zu", maxdropped);
	pdb_in_close(in);
	pdb_free(db);
}

Test(input, mapped_reads_the_same_bytes)
{
	unsigned char *d = content();
	char *path = write_temp(d, SIZE, NULL);

	read_all(path, 1, 1, d, 0);
	read_all(path, 0, 0, d, (size_t)512 * 1024);
	unlink(path);
	free(path);
	free(d);
}

Test(input, gzip_and_pipes_are_not_mapped)
{
	unsigned char *d = content();
	char *path, *cmd;
	gzFile gz;

	path = write_temp("", 0, ".gz");
	cr_assert((gz = gzopen(path, "wb1")) != NULL);
	cr_assert_eq(gzwrite(gz, d, (unsigned)SIZE), (int)SIZE);
	cr_assert(gzclose(gz) == Z_OK);
	read_all(path, 1, 0, d, (size_t)1024 * 1024);
	unlink(path);
	free(path);

	/* Standard input from a pipe. */
	path = write_temp(d, SIZE, NULL);
	cr_assert((cmd = malloc(strlen(path) + 5)) != NULL);
	snprintf(cmd, strlen(path) + 5, "cat %s", path);
	{
		FILE *p = popen(cmd, "r");
		int saved = dup(STDIN_FILENO);

		cr_assert(p != NULL && saved >= 0);
		cr_assert(dup2(fileno(p), STDIN_FILENO) >= 0);
		read_all("-", 1, 0, d, (size_t)512 * 1024);
		cr_assert(dup2(saved, STDIN_FILENO) >= 0);
		close(saved);
		pclose(p);
	}
	unlink(path);
	free(path);
	free(cmd);
	free(d);
}
