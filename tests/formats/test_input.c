/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The input layer read in place (pdb_in_map()): a plain file is mapped
 * from wherever the reader is, gives the same bytes in the same chunks
 * as read(2) would, gives back the pages read, and a gzip file or a pipe
 * stays as it was.  Gzip members read one after the other, and anything
 * else after the last is refused, from a file and from a pipe.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "formats_int.h"
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

/* ---- gzip members ---- */

/* A gzip member of n bytes of d at level, added to e. */
static void
member(struct enc *e, const unsigned char *d, size_t n, int level)
{
	unsigned char *out;
	z_stream z;
	uLong cap;

	memset(&z, 0, sizeof(z));
	cr_assert(deflateInit2(&z, level, Z_DEFLATED, 16 + MAX_WBITS, 8,
	    Z_DEFAULT_STRATEGY) == Z_OK);
	cap = deflateBound(&z, (uLong)n);
	cr_assert((out = malloc(cap)) != NULL);
	z.next_in = (unsigned char *)(uintptr_t)d;
	z.avail_in = (uInt)n;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	cr_assert(deflate(&z, Z_FINISH) == Z_STREAM_END);
	enc_bytes(e, out, z.total_out);
	deflateEnd(&z);
	free(out);
}

/*
 * Stored members (level 0: 23 bytes of frame around the data) of the
 * bytes of d from *at on, up to offset end of e exactly.
 */
static void
members_to(struct enc *e, const unsigned char *d, size_t *at, size_t end)
{
	size_t n, left, was;

	cr_assert(end >= e->len + 24);
	while (e->len < end) {
		/* At most 1000 bytes, leaving room for one more member. */
		left = end - e->len;
		if (left - 23 <= 1000)
			n = left - 23;
		else if (left - 23 - 24 < 1000)
			n = left - 23 - 24;
		else
			n = 1000;
		was = e->len;
		member(e, d + *at, n, 0);
		cr_assert_eq(e->len - was, n + 23, "stored member of %zu: %zu",
		    n, e->len - was);
		*at += n;
	}
	cr_assert_eq(e->len, end);
}

/*
 * Offsets in the compressed file where one read(2) ends and the next
 * begins: the first read takes FIRSTSIZE bytes, the next ones fill the
 * inflater's buffer (ZBUFSIZE, or FIRSTSIZE if longer), in either build
 * (input.c).
 */
static const size_t edges[] = { 100, 356, 612, 65536, 131072 };
#define NEDGES	(sizeof(edges) / sizeof(edges[0]))

/*
 * Read all of path with pdb_in_slurp(): the bytes, or NULL with the
 * error in *msg (malloc'd) and *rc.
 */
static char *
slurp_input(const char *path, size_t *len, int *rc, char **msg)
{
	struct pdb *db = pdb_new();
	struct pdb_input *in;
	char *data = NULL;

	cr_assert(db != NULL);
	*rc = PDB_OK;
	*msg = NULL;
	cr_assert((in = pdb_in_open(db, path)) != NULL);
	if (pdb_in_slurp(in, db, &data, len) != 0) {
		data = NULL;
		*rc = pdb_errcode(db);
		cr_assert((*msg = strdup(pdb_errmsg(db))) != NULL);
	}
	pdb_in_close(in);
	pdb_free(db);
	return data;
}

/* slurp_input() of standard input, a pipe from cat(1) of path. */
static char *
slurp_pipe(const char *path, size_t *len, int *rc, char **msg)
{
	char cmd[4200];
	char *data;
	FILE *p;
	int saved = dup(STDIN_FILENO);

	snprintf(cmd, sizeof(cmd), "cat '%s'", path);
	cr_assert((p = popen(cmd, "r")) != NULL && saved >= 0);
	cr_assert(dup2(fileno(p), STDIN_FILENO) >= 0);
	data = slurp_input("-", len, rc, msg);
	cr_assert(dup2(saved, STDIN_FILENO) >= 0);
	close(saved);
	pclose(p);
	return data;
}

Test(input, gzip_members_read_as_their_concatenation)
{
	unsigned char *d = content();
	struct enc e = { 0 };
	char *path, *data, *msg;
	size_t i, k, n, len, cut;
	int rc, pipe;

	/* Members at different levels, one of them empty. */
	cut = SIZE / 3;
	member(&e, d, cut, 1);
	member(&e, d + cut, 0, 9);
	member(&e, d + cut, 1000, 6);
	member(&e, d + cut + 1000, SIZE - cut - 1000, 1);
	path = write_temp(e.b, e.len, ".gz");
	read_all(path, 1, 0, d, (size_t)1024 * 1024);
	unlink(path);
	free(path);
	free(e.b);

	/* A member's magic number across the edge of two reads, or near. */
	for (i = 0; i < NEDGES; i++) {
		for (k = 0; k < 4; k++) {
			memset(&e, 0, sizeof(e));
			n = 0;
			members_to(&e, d, &n, edges[i] + k - 2);
			member(&e, d + n, 3000, 6);
			n += 3000;
			path = write_temp(e.b, e.len, ".gz");
			for (pipe = 0; pipe < 2; pipe++) {
				data = pipe ? slurp_pipe(path, &len, &rc,
				    &msg) : slurp_input(path, &len, &rc, &msg);
				cr_assert(data != NULL, "member at %zu: %s",
				    edges[i] + k - 2, msg);
				cr_assert_eq(len, n);
				cr_assert(memcmp(data, d, n) == 0);
				free(data);
			}
			unlink(path);
			free(path);
			free(e.b);
		}
	}
	free(d);
}

/*
 * The gzip file e, whose bytes from at on follow the last member, is
 * refused with at, read as a file and from a pipe.
 */
static void
refused(struct enc *e, size_t at)
{
	char *path, *data, *msg, want[4300];
	size_t len;
	int rc, pipe;

	path = write_temp(e->b, e->len, ".gz");
	for (pipe = 0; pipe < 2; pipe++) {
		data = pipe ? slurp_pipe(path, &len, &rc, &msg) :
		    slurp_input(path, &len, &rc, &msg);
		cr_assert(data == NULL, "bytes after a member at %zu: read",
		    at);
		snprintf(want, sizeof(want), "%s: compressed byte %zu: "
		    "trailing bytes after the gzip data",
		    pipe ? "<stdin>" : path, at);
		cr_assert_eq(rc, PDB_EFORMAT, "%s", msg);
		cr_assert_str_eq(msg, want);
		free(msg);
	}
	unlink(path);
	free(path);
	free(e->b);
}

/*
 * What follows the last member and is not a member is refused, from a
 * file or a pipe, with the offset in the compressed file where it
 * starts: bytes that are not the magic number, zeros, the magic
 * number's first byte and then another, after a member that ends at
 * the edge of a read or near it, or after two members.
 */
Test(input, gzip_trailing_bytes_are_refused)
{
	static const struct {
		const char	*bytes;
		size_t		 len;
	} tails[] = {
		{ "junk\n", 5 },
		{ "\n", 1 },
		{ "\0", 1 },
		{ "\0\0\0\0\0\0\0\0", 8 },
		{ "\x1f" "X", 2 },
		{ "\x8b\x1f\x8b", 3 },
	};
	unsigned char *d = content();
	struct enc e;
	size_t i, t, k, n, at;

	for (t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
		for (i = 0; i < NEDGES; i++) {
			for (k = 0; k < 3; k++) {
				memset(&e, 0, sizeof(e));
				n = 0;
				members_to(&e, d, &n, edges[i] + k - 1);
				enc_bytes(&e, tails[t].bytes, tails[t].len);
				refused(&e, edges[i] + k - 1);
			}
		}
		memset(&e, 0, sizeof(e));
		member(&e, d, 10000, 6);
		member(&e, d + 10000, 2000, 6);
		at = e.len;
		enc_bytes(&e, tails[t].bytes, tails[t].len);
		enc_bytes(&e, d, 100000);
		refused(&e, at);
	}
	free(d);
}

/*
 * Bytes inflated before damage are given first, and the damage is
 * named where they end, as gzread() did: read one byte at a time, a
 * reader gets all of a good member of 300000 bytes, more than one fill
 * inflates, and every byte of a member cut after it that zlib can
 * inflate, then the error with the count.
 */
Test(input, gzip_damage_after_the_bytes_before_it)
{
	unsigned char *d = content();
	struct enc one = { 0 }, two = { 0 }, e = { 0 };
	struct pdb *db = pdb_new();
	struct pdb_input *in;
	char *path, want[4300];
	uint64_t got = 0;
	size_t cut;
	int c;

	member(&one, d, 300000, 6);
	member(&two, d + 300000, 3000, 6);
	cut = two.len / 2;
	enc_bytes(&e, one.b, one.len);
	enc_bytes(&e, two.b, cut);
	path = write_temp(e.b, e.len, ".gz");
	cr_assert((in = pdb_in_open(db, path)) != NULL);
	while ((c = pdb_in_getc(in)) >= 0) {
		cr_assert_eq((unsigned char)c, d[got], "byte %llu",
		    (unsigned long long)got);
		got++;
	}
	cr_assert(got > 300000, "only %llu bytes before the damage",
	    (unsigned long long)got);
	cr_assert_neq(in->err, 0);
	pdb_in_seterr(in, db);
	snprintf(want, sizeof(want), "%s: byte %llu: unexpected end of file",
	    path, (unsigned long long)got);
	cr_expect_str_eq(pdb_errmsg(db), want);
	pdb_in_close(in);
	pdb_free(db);
	unlink(path);
	free(path);
	free(e.b);
	free(one.b);
	free(two.b);
	free(d);
}

/*
 * Damage that inflates, as in a stored block, shows only in the CRC at
 * the member's end, which the reader of a big file has not reached when
 * it fails on the bytes the damage made.  Then the damage is said first,
 * the reader's error after it; without damage, the reader's error alone.
 */
Test(input, gzip_damage_said_before_the_error_it_made)
{
	size_t n = 200000 * 12, len = 0, i;
	char *text = malloc(n), *path, want[1024];
	struct enc gz = { 0 };
	struct pdb *db;
	unsigned char *x;
	int pass;

	cr_assert(text != NULL);
	for (i = 0; i < 200000; i++)
		len += (size_t)snprintf(text + len, n - len, "main;f %zu\n",
		    i % 10 + 10);
	for (pass = 0; pass < 2; pass++) {
		/* Line 2, "main;f 11", says "main;f 1x". */
		if (pass == 1)
			text[18] = 'x';
		memset(&gz, 0, sizeof(gz));
		member(&gz, (const unsigned char *)text, len, 0);
		if (pass == 0) {
			cr_assert((x = memchr(gz.b + 10, '\n', gz.len)) != NULL);
			cr_assert_eq(x[9], '1');
			x[9] = 'x';
		}
		path = write_temp(gz.b, gz.len, ".gz");
		db = pdb_new();
		cr_assert_eq(pdb_read_tree(db, path, &pdb_fmt_folded, NULL,
		    NULL), PDB_EFORMAT);
		if (pass == 0)
			snprintf(want, sizeof(want), "%s: byte %zu: incorrect "
			    "data check; before it: %s:2: '1x' is not an "
			    "integer count", path, len, path);
		else
			snprintf(want, sizeof(want), "%s:2: '1x' is not an "
			    "integer count", path);
		cr_expect_str_eq(pdb_errmsg(db), want);
		pdb_free(db);
		unlink(path);
		free(path);
		free(gz.b);
	}
	free(text);
}

/*
 * A good member and then one cut anywhere, down to its first byte, is
 * a damaged stream, cut short.  (Where: the test above.)
 */
Test(input, gzip_member_cut_after_another)
{
	unsigned char *d = content();
	struct enc one = { 0 }, two = { 0 }, e;
	char *path, *data, *msg, want[4300];
	size_t cut, len;
	int rc;

	member(&one, d, 5000, 6);
	member(&two, d + 5000, 3000, 6);
	for (cut = 1; cut < two.len; cut++) {
		memset(&e, 0, sizeof(e));
		enc_bytes(&e, one.b, one.len);
		enc_bytes(&e, two.b, cut);
		path = write_temp(e.b, e.len, ".gz");
		data = slurp_input(path, &len, &rc, &msg);
		cr_assert(data == NULL, "second member cut at %zu: read", cut);
		cr_assert_eq(rc, PDB_EFORMAT, "cut at %zu: %s", cut, msg);
		snprintf(want, sizeof(want), "%s: byte ", path);
		cr_assert(strncmp(msg, want, strlen(want)) == 0 &&
		    strstr(msg, ": unexpected end of file") != NULL,
		    "cut at %zu: %s", cut, msg);
		free(msg);
		unlink(path);
		free(path);
		free(e.b);
	}
	free(one.b);
	free(two.b);
	free(d);
}

/*
 * A line is at most 64 MiB, exactly, however much was buffered when
 * its end was found: the first line of a file, found in one fill of a
 * mapped or a plain read, is no exception.
 */
Test(input, longest_line, .timeout = 60)
{
	const size_t most = (size_t)64 << 20;
	char *text = malloc(most + 3), *path, *line, want[4300];
	struct pdb *db = pdb_new();
	struct pdb_input *in;
	size_t len, extra;

	cr_assert(text != NULL && db != NULL);
	for (extra = 0; extra <= 1; extra++) {
		memset(text, 'a', most + extra);
		memcpy(text + most + extra, "\nb", 2);
		path = write_temp(text, most + extra + 2, ".txt");
		cr_assert((in = pdb_in_open(db, path)) != NULL);
		if (extra == 0) {
			cr_expect_eq(pdb_in_line(in, db, &line, &len), 1, "%s",
			    pdb_errmsg(db));
			cr_expect_eq(len, most);
			cr_expect_eq(pdb_in_line(in, db, &line, &len), 1);
			cr_expect_str_eq(line, "b");
		} else {
			cr_expect_eq(pdb_in_line(in, db, &line, &len), -1);
			snprintf(want, sizeof(want), "%s:1: line too long",
			    path);
			cr_expect_str_eq(pdb_errmsg(db), want);
		}
		pdb_in_close(in);
		unlink(path);
		free(path);
	}
	pdb_free(db);
	free(text);
}

/* How many bytes zlib inflates from the n bytes of gzip at b. */
static uint64_t
inflated_len(const unsigned char *b, size_t n)
{
	unsigned char out[65536];
	uint64_t total = 0;
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	cr_assert(inflateInit2(&z, 16 + MAX_WBITS) == Z_OK);
	z.next_in = (unsigned char *)(uintptr_t)b;
	z.avail_in = (uInt)n;
	do {
		z.next_out = out;
		z.avail_out = sizeof(out);
		rc = inflate(&z, Z_NO_FLUSH);
		total += sizeof(out) - z.avail_out;
	} while (rc == Z_OK && z.avail_out == 0);
	inflateEnd(&z);
	return total;
}

/*
 * A JSON document under 32 KiB is read whole before it is parsed, so
 * when its gzip stream breaks off, the reader is still at byte 0: the
 * damage is placed where the bytes inflated end, as for the formats
 * read as they come.  GHC's JSON, and ours written from it.
 */
Test(input, gzip_cut_in_a_small_json_says_where)
{
	const struct pdb_format *fmts[] = { &pdb_fmt_ghcjson, &pdb_fmt_json };
	struct pdb_opts o;
	struct pdb *db;
	struct enc gz;
	char *text, *path, want[4300];
	size_t len, cut, k;
	FILE *f;
	int rc;

	memset(&o, 0, sizeof(o));
	for (k = 0; k < 2; k++) {
		if (k == 0) {
			cr_assert((f = fopen("tests/data/ghc/mj.json",
			    "rb")) != NULL);
			cr_assert((text = malloc(65536)) != NULL);
			len = fread(text, 1, 65536, f);
			fclose(f);
		} else {
			cr_assert((db = pdb_new()) != NULL);
			cr_assert_eq(pdb_read_tree(db, "tests/data/ghc/mj.json",
			    NULL, NULL, NULL), 0, "%s", pdb_errmsg(db));
			cr_assert((f = open_memstream(&text, &len)) != NULL);
			cr_assert_eq(pdb_write(db, f, fmts[k], &o), 0, "%s",
			    pdb_errmsg(db));
			cr_assert_eq(fclose(f), 0);
			pdb_free(db);
		}
		cr_assert(len > 4096 && len < 32768, "%zu bytes", len);
		memset(&gz, 0, sizeof(gz));
		member(&gz, (unsigned char *)text, len, 6);
		cut = gz.len / 2;
		path = write_temp(gz.b, cut, ".gz");
		cr_assert((db = pdb_new()) != NULL);
		rc = pdb_read_tree(db, path, fmts[k], NULL, NULL);
		cr_expect_eq(rc, PDB_EFORMAT, "%s", pdb_errmsg(db));
		snprintf(want, sizeof(want), "%s: byte %llu: unexpected end of "
		    "file", path, (unsigned long long)inflated_len(gz.b, cut));
		cr_expect_str_eq(pdb_errmsg(db), want, "%s", fmts[k]->name);
		pdb_free(db);
		unlink(path);
		free(path);
		free(gz.b);
		free(text);
	}
}
