/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Limits (issue 5): headers that claim 2^40 items, a tree 10^6 levels
 * deep, a node with 10^6 children, values whose sums pass 2^63.  Claims
 * that the file cannot hold are errors at their byte offset, found
 * without allocating by the claim; deep and wide trees go through every
 * reader, writer and tool without recursion or quadratic time; sums that
 * would overflow are reported, never wrapped.
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "failalloc.h"
#include "formats.h"
#include "pdb.h"
#include "testutil.h"

/* ---- a ccs-dump(5) encoder, independent of fmt_ccsdump.c ---- */

static void
put_magic(struct enc *e)
{
	enc_bytes(e, "\211CCSDUMP\r\n\032\n", 12);
	enc_varint(e, 1);
}

/* Header of a dump with one metric "ticks" and ncc cost centres "f<i>". */
static void
put_header(struct enc *e, uint32_t ncc)
{
	char name[32];
	uint32_t i;

	put_magic(e);
	enc_varint(e, 0);			/* metadata */
	enc_varint(e, 1);			/* metrics */
	enc_str(e, "ticks");
	enc_str(e, "ticks");
	enc_varint(e, 0);
	enc_varint(e, 0);
	enc_varint(e, 1);			/* modules */
	enc_str(e, "M");
	enc_varint(e, ncc);
	for (i = 0; i < ncc; i++) {
		snprintf(name, sizeof(name), "f%" PRIu32, i);
		enc_str(e, name);
		enc_varint(e, 0);
		enc_str(e, "");
		enc_varint(e, 0);
		enc_svarint(e, -1);
	}
}

static void
put_trailer(struct enc *e, uint64_t nodes)
{
	unsigned char crc[4];
	uLong c;

	enc_varint(e, nodes);
	c = crc32(0L, e->b, (uInt)e->len);
	crc[0] = c & 0xff;
	crc[1] = (c >> 8) & 0xff;
	crc[2] = (c >> 16) & 0xff;
	crc[3] = (c >> 24) & 0xff;
	enc_bytes(e, crc, 4);
}

static char *
enc_file(struct enc *e, const char *suffix)
{
	char *path = write_temp(e->b, e->len, suffix);

	free(e->b);
	memset(e, 0, sizeof(*e));
	return path;
}

/*
 * Read path: it must fail with PDB_EFORMAT and a message naming the
 * file, then want; no allocation may be near the size claimed.
 */
static void
read_fails(const char *path, const char *want)
{
	struct pdb *db = pdb_new();
	size_t live;
	int rc;

	cr_assert(db != NULL);
	failalloc_track_begin();
	rc = pdb_read_tree(db, path, NULL, NULL, NULL);
	cr_expect_eq(rc, PDB_EFORMAT, "%s: error %d: %s", path, rc,
	    pdb_errmsg(db));
	cr_expect(strncmp(pdb_errmsg(db), path, strlen(path)) == 0 &&
	    strstr(pdb_errmsg(db), want) != NULL, "%s: '%s', want '%s'",
	    path, pdb_errmsg(db), want);
	cr_expect(failalloc_max_request() < (size_t)1 << 27,
	    "%s: an allocation of %zu bytes", path, failalloc_max_request());
	pdb_free(db);
	live = failalloc_track_end();
	cr_expect_eq(live, 0, "%s: %zu blocks leaked", path, live);
	unlink((char *)path);
}

#define HUGE	((uint64_t)1 << 40)

Test(limits, dump_counts_of_2_to_the_40)
{
	struct enc e = { 0 };
	char *p;

	put_magic(&e);
	enc_varint(&e, HUGE);
	p = enc_file(&e, ".dump");
	read_fails(p, ": byte ");
	free(p);

	put_magic(&e);
	enc_varint(&e, 0);
	enc_varint(&e, HUGE);
	p = enc_file(&e, ".dump");
	read_fails(p, ": byte ");
	free(p);

	put_magic(&e);
	enc_varint(&e, 0);
	enc_varint(&e, 0);
	enc_varint(&e, HUGE);
	p = enc_file(&e, ".dump");
	read_fails(p, ": byte ");
	free(p);

	/* Cost centres. */
	put_header(&e, 0);
	e.len--;
	enc_varint(&e, HUGE);
	p = enc_file(&e, ".dump");
	read_fails(p, ": byte ");
	free(p);

	/* Children of the root. */
	put_header(&e, 1);
	enc_varint(&e, 1);
	enc_varint(&e, 0);
	enc_svarint(&e, 5);
	enc_varint(&e, HUGE);
	p = enc_file(&e, ".dump");
	read_fails(p, ": byte ");
	free(p);

	/* A string of 2^40 bytes. */
	put_magic(&e);
	enc_varint(&e, 1);
	enc_varint(&e, HUGE);
	enc_bytes(&e, "abc", 3);
	p = enc_file(&e, ".dump");
	read_fails(p, ": byte ");
	free(p);
}

static char *
pgcl_file(uint32_t version, uint32_t nmod, uint32_t ncc, int tree)
{
	struct enc e = { 0 };
	unsigned char u[4];
	uint32_t v[3] = { version, nmod, ncc };
	int i, k;

	enc_bytes(&e, "prof", 4);
	for (k = 0; k < 3; k++) {
		for (i = 0; i < 4; i++)
			u[i] = (v[k] >> (8 * i)) & 0xff;
		enc_bytes(&e, u, 4);
	}
	if (version == 2) {
		enc_varint(&e, 100);
		enc_varint(&e, 0);
	}
	if (tree) {
		enc_bytes(&e, "M", 2);
		enc_varint(&e, 1);
		enc_bytes(&e, "f", 2);
		/* The root: id, 7 fields, then 2^40 children. */
		enc_varint(&e, 1);
		for (k = 0; k < 7; k++)
			enc_varint(&e, 1);
		enc_varint(&e, HUGE);
	} else
		enc_bytes(&e, "M\0N", 4);
	return enc_file(&e, ".pgcl");
}

Test(limits, pgcl_counts_beyond_the_file)
{
	char *p;

	p = pgcl_file(2, UINT32_MAX, 5, 0);
	read_fails(p, ": byte ");
	free(p);
	p = pgcl_file(2, 2, UINT32_MAX, 0);
	read_fails(p, ": byte ");
	free(p);
	p = pgcl_file(1, 2, UINT32_MAX, 0);
	read_fails(p, ": byte ");
	free(p);
	p = pgcl_file(2, 1, 1, 1);
	read_fails(p, "child count");
	free(p);
}

Test(limits, json_counts_beyond_the_file)
{
	static const char doc[] = "{\"format\":\"ccstools-profile\","
	    "\"version\":1,\"metadata\":{},\"metrics\":[{\"name\":\"t\","
	    "\"unit\":\"t\",\"kind\":\"cost\"}],\"modules\":[\"M\"],"
	    "\"cost_centres\":[{\"label\":\"f\",\"module\":0,\"src\":\"\"}],"
	    "\"nodes\":[[0,1099511627776,1]]}";
	char *p = write_temp(doc, sizeof(doc) - 1, ".json");

	read_fails(p, "nodes[0]");
	free(p);
}

/* ---- 64-bit sums ---- */

/* Reading path as a tree and streaming it to a flat sink both fail. */
static void
overflows(const char *path, const char *where)
{
	struct pdb *db = pdb_new();
	struct pdb_flat *fl = pdb_flat_new(NULL);
	int rc;

	cr_assert(db != NULL && fl != NULL);
	rc = pdb_read_tree(db, path, NULL, NULL, NULL);
	cr_expect_eq(rc, PDB_EFORMAT, "%s: tree: error %d: %s", path, rc,
	    pdb_errmsg(db));
	cr_expect(strstr(pdb_errmsg(db), "64-bit overflow summing '") !=
	    NULL && strstr(pdb_errmsg(db), where) != NULL,
	    "%s: tree: '%s'", path, pdb_errmsg(db));
	pdb_free(db);
	cr_assert((db = pdb_new()) != NULL);
	rc = pdb_read_stream(db, path, NULL, NULL, pdb_flat_sink(fl), NULL);
	cr_expect_eq(rc, PDB_EFORMAT, "%s: flat: error %d: %s", path, rc,
	    pdb_errmsg(db));
	cr_expect(strstr(pdb_errmsg(db), "64-bit overflow summing '") !=
	    NULL && strstr(pdb_errmsg(db), where) != NULL,
	    "%s: flat: '%s'", path, pdb_errmsg(db));
	pdb_free(db);
	pdb_flat_free(fl);
}

/* A dump whose root has two children of value v each: it must not read. */
static void
overflowing_dump(int64_t v)
{
	struct enc e = { 0 };
	char *p, where[256];

	put_header(&e, 3);
	enc_varint(&e, 1);
	enc_varint(&e, 0);
	enc_svarint(&e, 0);
	enc_varint(&e, 2);
	enc_varint(&e, 1);
	enc_svarint(&e, v);
	enc_varint(&e, 0);
	enc_varint(&e, 2);
	enc_svarint(&e, v);
	enc_varint(&e, 0);
	put_trailer(&e, 3);
	p = enc_file(&e, ".dump");
	snprintf(where, sizeof(where), "%s: byte ", p);
	overflows(p, where);
	unlink(p);
	free(p);
}

Test(limits, sums_that_overflow_are_errors)
{
	static const char *const folded[] = {
		"a 9223372036854775807\nb 1\n",		/* root inclusive */
		"a 9223372036854775807\na 1\n",		/* one stack, twice */
		"a;b 4611686018427387904\na;c 4611686018427387904\n",
		"a -9223372036854775808\nb -1\n",
		/* The negative sum reaches 2^64, which is 0 modulo 2^64. */
		"a -9223372036854775808\nb -9223372036854775808\n",
		"a 9223372036854775807\nb -9223372036854775807\nc 5\n",
	};
	struct run r;
	char *p, where[256];
	size_t i;

	for (i = 0; i < sizeof(folded) / sizeof(folded[0]); i++) {
		p = write_temp(folded[i], strlen(folded[i]), ".folded");
		snprintf(where, sizeof(where), "%s:", p);
		overflows(p, where);
		run(&r, "ccs-flat %s", p);
		cr_expect_eq(r.status, 1, "%s", folded[i]);
		cr_expect(strstr(r.err, "64-bit overflow summing 'samples' at "
		    "cost centre '") != NULL, "%s: %s", folded[i], r.err);
		run_free(&r);
		run(&r, "ccs-convert -t json %s", p);
		cr_expect_eq(r.status, 1, "%s", folded[i]);
		cr_expect(strstr(r.err, "64-bit overflow") != NULL, "%s: %s",
		    folded[i], r.err);
		run_free(&r);
		unlink(p);
		free(p);
	}

	/* A dump: two children of the root whose sum passes 2^63, then
	 * whose negative sum reaches 2^64, 0 modulo 2^64. */
	overflowing_dump(INT64_MAX);
	overflowing_dump(INT64_MIN);
}

Test(limits, large_sums_that_fit_are_exact)
{
	static const char f[] =
	    "a 4611686018427387903\nb 4611686018427387903\nc 1\n"
	    "d -9223372036854775808\n";
	char *p = write_temp(f, sizeof(f) - 1, ".folded");
	struct run r;

	run(&r, "ccs-flat --tsv %s", p);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "\ta\t\t4611686018427387903\t"
	    "4611686018427387903\n") != NULL, "%s", r.out);
	run_free(&r);
	run(&r, "ccs-flat %s", p);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "total -1\n") != NULL, "%s", r.out);
	run_free(&r);
	run(&r, "ccs-hot %s", p);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "hot stack: 4611686018427387903 samples") !=
	    NULL, "%s", r.out);
	run_free(&r);
	unlink(p);
	free(p);
}

/* ---- deep and wide ---- */

#define MILLION		1000000

/* A folded file: one stack of n distinct frames, or n stacks root;c<i>. */
static char *
big_folded(int deep)
{
	char *path = write_temp("", 0, deep ? ".deep.folded" :
	    ".wide.folded");
	FILE *f = fopen(path, "w");
	int i;

	cr_assert(f != NULL);
	if (deep) {
		for (i = 0; i < MILLION; i++)
			fprintf(f, "%sf%d", i ? ";" : "", i);
		fprintf(f, " 7\n");
	} else
		for (i = 0; i < MILLION; i++)
			fprintf(f, "root;c%d %d\n", i, i % 3);
	cr_assert(fclose(f) == 0);
	return path;
}

/* The tools a big tree goes through, with what they must print. */
static const struct big_run {
	const char	*cmd;
	const char	*want;		/* in stdout */
} big_runs[] = {
	{ "ccs-flat --tsv %s | tail -1", "\t" },
	{ "ccs-stacks %s | tail -c 20", " " },
	{ "ccs-convert -t dump -o %s.dump %s && ccs-flat %s.dump | head -3",
	    "total" },
	{ "ccs-convert -t json %s | head -c 30", "{\"format\":" },
	{ "ccs-convert -t pgcl %s 2>/dev/null | ccs-flat -m ticks | head -2",
	    "metric" },
	{ "ccs-convert -t speedscope %s | head -c 20", "{" },
	{ "ccs-convert -t callgrind %s | head -1", "# callgrind format" },
	{ "ccs-select -d 'f5*' -d 'c5*' -t folded %s | tail -c 20", " " },
	{ "ccs-prune --min samples=1 -t folded %s | tail -c 20", " " },
	{ "ccs-tree --depth 3 %s | tail -1", " " },
	{ "ccs2dot %s | head -1", "digraph" },
	{ "ccs2html %s | head -c 15", "<!DOCTYPE html>" },
};

static void
big_tools(const char *path)
{
	struct run r;
	char cmd[1024];
	size_t i;

	for (i = 0; i < sizeof(big_runs) / sizeof(big_runs[0]); i++) {
		if (strstr(big_runs[i].cmd, ".dump"))
			snprintf(cmd, sizeof(cmd), big_runs[i].cmd, path, path,
			    path);
		else
			snprintf(cmd, sizeof(cmd), big_runs[i].cmd, path);
		run(&r, "set -e; %s", cmd);
		cr_expect_eq(r.status, 0, "%s: exit %d: %s", cmd, r.status,
		    r.err);
		cr_expect(strstr(r.out, big_runs[i].want) != NULL,
		    "%s: printed '%s'", cmd, r.out);
		run_free(&r);
	}
	snprintf(cmd, sizeof(cmd), "%s.dump", path);
	unlink(cmd);
}

Test(limits, a_million_levels_deep, .timeout = 600)
{
	char *p = big_folded(1);
	struct pdb *db = load_tree(p);
	uint32_t n, depth, maxdepth = 0;

	for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth))
		if (depth > maxdepth)
			maxdepth = depth;
	/* The synthetic root, then a million frames. */
	cr_expect_eq(maxdepth, MILLION, "depth %u", (unsigned)maxdepth);
	pdb_free(db);
	big_tools(p);
	unlink(p);
	free(p);
}

Test(limits, a_million_children, .timeout = 600)
{
	char *p = big_folded(0);
	struct pdb *db = load_tree(p);
	uint32_t root = pdb_node_first_child(db, 0);

	cr_expect_eq(pdb_node_child_count(db, root), MILLION);
	pdb_free(db);
	big_tools(p);
	unlink(p);
	free(p);
}

/*
 * A first stack of one frame longer than the 4096 bytes probed: no ';'
 * and no count in sight, yet text, so folded stacks claim it at the
 * lowest bid; a long line that opens as JSON does not.
 */
Test(limits, folded_first_frame_past_the_probe)
{
	static const size_t lens[] = { 4000, 4090, 4096, 5000, 100000 };
	char *frame, *text, *p;
	struct run r;
	size_t i, n;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		n = lens[i];
		cr_assert((frame = malloc(n + 1)) != NULL);
		memset(frame, 'x', n);
		frame[n] = '\0';
		cr_assert((text = malloc(n + 16)) != NULL);
		snprintf(text, n + 16, "%s 3\na;b 2\n", frame);
		p = write_temp(text, strlen(text), ".txt");
		run(&r, "ccs-flat --tsv '%s' | awk -F'\\t' "
		    "'length($2) == %zu && $4 == 3 && $5 == 3' | wc -l", p, n);
		cr_expect_eq(r.status, 0, "%zu bytes: exit %d: %s", n,
		    r.status, r.err);
		cr_expect_str_eq(r.out, "1\n", "%zu bytes", n);
		run_free(&r);
		unlink(p);
		free(p);
		/* Where the count is in the window, any text before it goes. */
		frame[0] = '{';
		if (n >= 4096)
			cr_expect_eq(pdb_format_probe((unsigned char *)frame,
			    4096) == pdb_format_find("folded"), 0,
			    "%zu bytes of JSON", n);
		free(text);
		free(frame);
	}
}

/*
 * GHC's JSON nests the tree: a reader either streams it or stops at a
 * depth limit with an error naming the file, never overflows its stack.
 */
Test(limits, deep_ghc_json, .timeout = 120)
{
	static const char head[] = "{\"program\":\"x\",\"cost_centres\":"
	    "[{\"id\":1,\"label\":\"f\",\"module\":\"M\",\"src_loc\":\"\","
	    "\"is_caf\":false}],\"profile\":";
	static const char node[] = "{\"id\":1,\"entries\":1,\"alloc\":0,"
	    "\"ticks\":1,\"children\":[";
	char *path = write_temp("", 0, ".json");
	FILE *f = fopen(path, "w");
	struct run r;
	int i, n = 100000;

	cr_assert(f != NULL);
	fputs(head, f);
	for (i = 0; i < n; i++)
		fputs(node, f);
	for (i = 0; i < n; i++)
		fputs("]}", f);
	fputs("}\n", f);
	cr_assert(fclose(f) == 0);
	run(&r, "ccs-flat %s", path);
	if (r.status == 0)
		cr_expect(strstr(r.out, "total 100000\n") != NULL, "%s", r.out);
	else {
		cr_expect_eq(r.status, 1, "%s", r.err);
		cr_expect(strncmp(r.err, "ccs-flat: ", 10) == 0 &&
		    strstr(r.err, path) != NULL, "%s", r.err);
	}
	run_free(&r);
	unlink(path);
	free(path);
}
