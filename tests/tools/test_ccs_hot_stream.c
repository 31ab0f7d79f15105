/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-hot streams: its answers, and its errors, are those of the tree,
 * read from a file, from standard input that is a file, and from a
 * pipe.  Folded stacks in tree order stream; a stack that comes twice
 * (two lines apart, a subtree split by a sibling, a cost centre that
 * compression moves) makes it read the tree instead.  The tree path is
 * forced by pruning that removes nothing.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "testutil.h"
#include "toolcheck.h"
#include "pipecheck.h"

/* Pruning that removes nothing: the tree path. */
#define TREE	"--max-stacks 4294967295"

/* The same output, and errors, on every path into ccs-hot. */
static void
stream_is_tree(const char *file, const char *opts)
{
	char a[1024], b[1024];

	snprintf(b, sizeof(b), "ccs-hot %s " TREE " %s", opts, file);
	snprintf(a, sizeof(a), "ccs-hot %s %s", opts, file);
	same_output(a, b);
	snprintf(a, sizeof(a), "ccs-hot %s < %s", opts, file);
	same_output(a, b);
	snprintf(a, sizeof(a), "cat %s | ccs-hot %s", file, opts);
	same_output(a, b);
	snprintf(a, sizeof(a), "cat %s | ccs-hot %s -", file, opts);
	same_output(a, b);
}

/* Write cmd's output to a new temporary file; returns its name. */
static char *
temp_of(const char *cmd, const char *suffix)
{
	struct run r;
	char *p;

	run_ok(&r, "%s", cmd);
	p = write_temp(r.out, r.outlen, suffix);
	run_free(&r);
	return p;
}

static void
temp_free(char *p)
{
	unlink(p);
	free(p);
}

/* Folded stacks in tree order, and sorted: the answers of the tree. */
Test(ccs_hot_stream, folded_in_tree_order)
{
	static const char *const src[] = {
		FIG7, THETA, COMPRESSED, UNCOMPRESSED, ESCAPES, PGCL, GHC_P,
		GHC_P2, GHC_JSON,
	};
	char cmd[512], *t, *s;
	size_t i;

	for (i = 0; i < sizeof(src) / sizeof(src[0]); i++) {
		snprintf(cmd, sizeof(cmd), "ccs-convert -t folded %s", src[i]);
		t = temp_of(cmd, ".folded");
		snprintf(cmd, sizeof(cmd), "LC_ALL=C sort %s", t);
		s = temp_of(cmd, ".folded");
		stream_is_tree(t, "--tsv -n 100");
		stream_is_tree(t, "-n 3");
		stream_is_tree(s, "--tsv -n 100");
		temp_free(t);
		temp_free(s);
	}
	t = temp_of("ccs-gen -q -t folded -n 5000 --seed 7 | "
	    "ccs-convert -t folded", ".folded");
	stream_is_tree(t, "--tsv -n 50");
	temp_free(t);
	/* As ccs-gen writes them: with mutual recursion, read as a tree. */
	t = temp_of("ccs-gen -q -t folded -n 5000 --seed 7", ".folded");
	stream_is_tree(t, "--tsv -n 50");
	temp_free(t);
}

/*
 * Stacks that come twice: the answers are the tree's, which merges
 * them; a stream that did not notice would split their costs.
 */
Test(ccs_hot_stream, a_stack_twice_is_read_as_a_tree)
{
	static const struct {
		const char	*in, *want;
	} cases[] = {
		/* The same stack on two lines apart. */
		{ "r;a 5\nr;b 3\nr;a 4\n",
		  "stack\tr;a\t9\narm\tr\t12\narm\ta\t9\n"
		  "top\t1\tr;a\t9\ntop\t2\tr;b\t3\n" },
		/* A subtree split by a sibling. */
		{ "r;a;x 2\nr;b 3\nr;a;y 2\n",
		  "stack\tr;b\t3\narm\tr\t7\narm\ta\t4\narm\tx\t2\n"
		  "top\t1\tr;b\t3\ntop\t2\tr;a;x\t2\ntop\t3\tr;a;y\t2\n" },
		/* A stack after the stacks it calls. */
		{ "a;b;c 3\na;b 5\n",
		  "stack\ta;b\t5\narm\ta\t8\narm\tb\t8\narm\tc\t3\n"
		  "top\t1\ta;b\t5\ntop\t2\ta;b;c\t3\n" },
		/* The same line twice. */
		{ "a;b 2\na;b 3\n",
		  "stack\ta;b\t5\narm\ta\t5\narm\tb\t5\ntop\t1\ta;b\t5\n" },
		/* Compression moves a below b: the stack b;a, twice. */
		{ "r;a;b;a 5\nr;b;a 3\n",
		  "stack\tr;b;a\t8\narm\tr\t8\narm\tb\t8\narm\ta\t8\n"
		  "top\t1\tr;b;a\t8\n" },
		/* f;f is f, so f;g comes twice. */
		{ "r;f 2\nr;f;f 4\nr;f;f;g 3\nr;f;g 1\n",
		  "stack\tr;f\t6\narm\tr\t10\narm\tf\t10\narm\tg\t4\n"
		  "top\t1\tr;f\t6\ntop\t2\tr;f;g\t4\n" },
		/* Streams: f;f is f, and nothing comes twice. */
		{ "r;f 2\nr;f;f 4\nr;f;f;g 3\n",
		  "stack\tr;f\t6\narm\tr\t9\narm\tf\t9\narm\tg\t3\n"
		  "top\t1\tr;f\t6\ntop\t2\tr;f;g\t3\n" },
		/* Ties: the first in pre-order, which the merge decides. */
		{ "r;a;x 4\nr;b 4\nr;a 4\n",
		  "stack\tr;a\t4\narm\tr\t12\narm\ta\t8\narm\tx\t4\n"
		  "top\t1\tr;a\t4\ntop\t2\tr;a;x\t4\ntop\t3\tr;b\t4\n" },
	};
	struct run r;
	char *p;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		p = write_temp(cases[i].in, strlen(cases[i].in), ".folded");
		run_ok(&r, "ccs-hot --tsv -n 9 %s", p);
		cr_expect_str_eq(r.out, cases[i].want, "%s", cases[i].in);
		run_free(&r);
		run_ok(&r, "ccs-hot --tsv -n 9 < %s", p);
		cr_expect_str_eq(r.out, cases[i].want, "< %s", cases[i].in);
		run_free(&r);
		run_ok(&r, "cat %s | ccs-hot --tsv -n 9", p);
		cr_expect_str_eq(r.out, cases[i].want, "| %s", cases[i].in);
		run_free(&r);
		stream_is_tree(p, "-n 9");
		temp_free(p);
	}
}

/* Standard input read again from where it started, not from byte 0. */
Test(ccs_hot_stream, stdin_read_again_from_its_start)
{
	static const char in[] = "r;a 100\nr;a 5\nr;b 3\nr;a 4\n";
	struct run r;
	char *p = write_temp(in, sizeof(in) - 1, ".folded");

	/* The first line is not ccs-hot's. */
	run_ok(&r, "{ head -c 8 >/dev/null; ccs-hot --tsv; } < %s", p);
	cr_expect_str_eq(r.out, "stack\tr;a\t9\narm\tr\t12\narm\ta\t9\n");
	run_free(&r);
	temp_free(p);
}

/* Formats whose tree is the file: the same from a file and a pipe. */
Test(ccs_hot_stream, raw_formats_from_pipes)
{
	static const char *const files[] = {
		PGCL, GHC_P, GHC_P2, GHC_P3, GHC_JSON,
		"tests/data/ghc/mj.prof", "tests/data/ghc/mj.json",
		"tests/data/ghc/clausify.json", "tests/data/ghc/demo.pa.prof",
		"tests/data/ghc/old-ghc68.prof",
		"tests/data/ghc/old-ghc82-N4.prof",
	};
	char *t;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		stream_is_tree(files[i], "--tsv -n 20");
		stream_is_tree(files[i], "-n 3");
	}
	t = temp_of("ccs-convert -t dump " PGCL, ".dump");
	stream_is_tree(t, "--tsv -n 20 -m words");
	temp_free(t);
	t = temp_of("ccs-convert -t json " GHC_P3, ".json");
	stream_is_tree(t, "--tsv -n 20 -m alloc");
	temp_free(t);
	t = temp_of("ccs-gen -q -t dump -n 20000 --seed 3", ".dump");
	stream_is_tree(t, "--tsv -n 20");
	temp_free(t);
}

/*
 * The errors of the tree, at the same place; from a pipe, naming
 * <stdin>.  in is written to a temporary file with suffix.
 */
static void
same_error(const void *in, size_t len, const char *suffix, const char *opts,
    const char *want)
{
	struct run a, b, c;
	char *p = write_temp(in, len, suffix);

	run(&a, "ccs-hot %s %s", opts, p);
	run(&b, "ccs-hot %s " TREE " %s", opts, p);
	run(&c, "cat %s | ccs-hot %s", p, opts);
	cr_expect_eq(a.status, 1, "%s: exit %d", want, a.status);
	cr_expect_eq(b.status, 1, "%s: tree: exit %d", want, b.status);
	cr_expect_eq(c.status, 1, "%s: pipe: exit %d", want, c.status);
	cr_expect_str_eq(a.err, b.err);
	cr_expect(strncmp(a.err, "ccs-hot: ", 9) == 0 &&
	    strncmp(a.err + 9, p, strlen(p)) == 0 &&
	    strstr(a.err, want) != NULL, "%s", a.err);
	cr_expect(strncmp(c.err, "ccs-hot: <stdin>", 16) == 0 &&
	    strstr(c.err, want) != NULL, "%s", c.err);
	cr_expect_str_empty(a.out);
	cr_expect_str_empty(c.out);
	run_free(&a);
	run_free(&b);
	run_free(&c);
	temp_free(p);
}

#define SAME_ERROR(in, suffix, opts, want) \
	same_error(in, sizeof(in) - 1, suffix, opts, want)

/* ---- a ccs-dump(5) file, as tests/formats/test_limits.c writes one ---- */

/* The head of a dump with metric ticks and ncc cost centres f0, f1, ...
 * of module M, up to its count of roots. */
static void
dump_head(struct enc *e, int ncc)
{
	char name[8];
	int i;

	enc_bytes(e, "\211CCSDUMP\r\n\032\n", 12);
	enc_varint(e, 1);
	enc_varint(e, 0);
	enc_varint(e, 1);
	enc_str(e, "ticks");
	enc_str(e, "ticks");
	enc_varint(e, 0);
	enc_varint(e, 0);
	enc_varint(e, 1);
	enc_str(e, "M");
	enc_varint(e, (uint64_t)ncc);
	for (i = 0; i < ncc; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		enc_str(e, name);
		enc_varint(e, 0);
		enc_str(e, "");
		enc_varint(e, 0);
		enc_svarint(e, -1);
	}
}

/* The end of a dump of nodes nodes, written to a temporary file. */
static char *
dump_end(struct enc *e, size_t nodes)
{
	unsigned char crc[4];
	char *p;
	uLong c;
	int i;

	enc_varint(e, nodes);
	c = crc32(0L, e->b, (uInt)e->len);
	for (i = 0; i < 4; i++)
		crc[i] = (unsigned char)(c >> (8 * i));
	enc_bytes(e, crc, 4);
	p = write_temp(e->b, e->len, ".dump");
	free(e->b);
	return p;
}

/* A dump with metric ticks and three cost centres, whose root has n
 * children of value 1 but children at and at + 1 of value v. */
static char *
dump_of(size_t n, size_t at, int64_t v)
{
	struct enc e = { 0 };
	size_t k;

	dump_head(&e, 3);
	enc_varint(&e, 1);
	enc_varint(&e, 0);
	enc_svarint(&e, 0);
	enc_varint(&e, n);
	for (k = 0; k < n; k++) {
		enc_varint(&e, 1 + k % 2);
		enc_svarint(&e, k == at || k == at + 1 ? v : 1);
		enc_varint(&e, 0);
	}
	return dump_end(&e, n + 1);
}

static uint32_t
lcg(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 16;
}

/* A random subtree at depth d: leaves and subtrees mixed under each
 * node, costing about as much, with zeros and negative values. */
static size_t
random_subtree(struct enc *e, uint32_t *seed, int d)
{
	size_t nodes = 1, nch, k;
	int64_t v;

	if (d == 0)
		nch = 4 + lcg(seed) % 5;
	else
		nch = d < 5 && lcg(seed) % 2 != 0 ? 1 + lcg(seed) % 3 : 0;
	if (lcg(seed) % 4 == 0)
		v = 0;
	else if (nch == 0)
		v = (int64_t)(lcg(seed) % 10) - 1;
	else
		v = (int64_t)(lcg(seed) % 3) - 1;
	enc_varint(e, d == 0 ? 0 : 1 + lcg(seed) % 11);
	enc_svarint(e, v);
	enc_varint(e, nch);
	for (k = 0; k < nch; k++)
		nodes += random_subtree(e, seed, d + 1);
	return nodes;
}

/*
 * Arms where leaves and subtrees take turns as the best child, ties,
 * zeros and negative costs, in a tree of random shape: the stream's
 * answers are the tree's.
 */
Test(ccs_hot_stream, random_trees)
{
	struct enc e;
	uint32_t seed;
	size_t nodes;
	char *p;

	for (seed = 1; seed <= 60; seed++) {
		memset(&e, 0, sizeof(e));
		dump_head(&e, 12);
		enc_varint(&e, 1);
		nodes = random_subtree(&e, &(uint32_t){ seed }, 0);
		p = dump_end(&e, nodes);
		stream_is_tree(p, seed % 2 ? "--tsv -n 30" : "--tsv");
		temp_free(p);
	}
}

/*
 * A dump whose root, of own value root, has the children of values v,
 * then PAD children of value 0: the reader hands nodes over in batches
 * only while a whole node is surely buffered, so without them these few
 * would all come one by one, and the batch loop would see none.
 */
#define PAD	200

static char *
dump_children(int64_t root, const int64_t *v, size_t n)
{
	struct enc e = { 0 };
	size_t k;

	dump_head(&e, 3);
	enc_varint(&e, 1);
	enc_varint(&e, 0);
	enc_svarint(&e, root);
	enc_varint(&e, n + PAD);
	for (k = 0; k < n + PAD; k++) {
		enc_varint(&e, 1 + k % 2);
		enc_svarint(&e, k < n ? v[k] : 0);
		enc_varint(&e, 0);
	}
	return dump_end(&e, n + PAD + 1);
}

/*
 * Own values at the ends of the range: a first node of INT64_MIN is the
 * hot stack until a larger one comes, a node of INT64_MAX stays the hot
 * stack, and the first of equals is the one listed first.  The stream
 * tests each node against one bar for the rare cases; these are where
 * that bar saturates.
 */
Test(ccs_hot_stream, extreme_values)
{
	static const int64_t a[] = { 0, 5, INT64_MAX - 10, 5, 0 };
	static const int64_t b[] = { INT64_MAX, 0, -3, 0 };
	static const int64_t c[] = { 0, 0 };
	struct run r;
	char *p;

	p = dump_children(INT64_MIN, a, 5);
	run_ok(&r, "ccs-hot --tsv -n 5 %s", p);
	cr_expect_str_eq(r.out,
	    "stack\tf0;f1\t9223372036854775797\n"
	    "arm\tf0\t-1\n"
	    "arm\tf1\t9223372036854775797\n"
	    "top\t1\tf0;f1\t9223372036854775797\n"
	    "top\t2\tf0;f2\t5\n"
	    "top\t3\tf0;f2\t5\n"
	    "top\t4\tf0\t-9223372036854775808\n");
	run_free(&r);
	stream_is_tree(p, "--tsv -n 2");
	stream_is_tree(p, "--tsv");
	temp_free(p);

	p = dump_children(0, b, 4);
	stream_is_tree(p, "--tsv -n 2");
	stream_is_tree(p, "--tsv -n 9");
	stream_is_tree(p, "--tsv");
	temp_free(p);

	/* Nothing but zeros, and a root of INT64_MIN over zeros alone. */
	p = dump_children(0, c, 2);
	stream_is_tree(p, "--tsv -n 2");
	temp_free(p);
	p = dump_children(INT64_MIN, c, 0);
	stream_is_tree(p, "--tsv -n 2");
	temp_free(p);
}

/*
 * Deeper than the levels first allocated, with the hottest stack, arm
 * and list entries at the bottom, in batches (the dump) and one at a
 * time (the folded input it is made from).
 */
/*
 * -n past the number of stacks lists every stack with a cost, streamed
 * or from the tree, and takes memory for those, not for the number
 * asked: the list grows as stacks come (past its first 64 here).
 */
Test(ccs_hot_stream, more_asked_than_there_are)
{
	char *d, *f, a[512], b[512];
	struct run r;
	size_t lines = 0, i;

	d = temp_of("ccs-gen -q -t dump -n 3000 --seed 5", ".dump");
	f = temp_of("ccs-gen -q -t folded -n 3000 --seed 5", ".folded");
	stream_is_tree(d, "--tsv -n 2000000000");
	stream_is_tree(f, "--tsv -n 2000000000");
	/* As many as there are: the same as asking for exactly those. */
	run_ok(&r, "ccs-hot --tsv -n 2000000000 %s", d);
	for (i = 0; i < r.outlen; i++)
		lines += r.out[i] == '\n';
	run_free(&r);
	cr_assert_gt(lines, 200, "%zu lines", lines);
	snprintf(a, sizeof(a), "ccs-hot --tsv -n 2000000000 %s", d);
	snprintf(b, sizeof(b), "ccs-hot --tsv -n 5000 %s", d);
	same_output(a, b);
	temp_free(d);
	temp_free(f);
}

Test(ccs_hot_stream, deep_stacks)
{
	char *text, *f, *d, cmd[512];
	/* Three lines of up to 1300 frames "fNNN;". */
	size_t cap = 3 * 1300 * 6 + 64, len = 0, k, j;

	cr_assert((text = malloc(cap)) != NULL);
	for (k = 0; k < 3; k++) {
		for (j = 0; j < 700 + 300 * k; j++)
			len += (size_t)snprintf(text + len, cap - len,
			    "%sf%zu", j ? ";" : "", j % (400 + k));
		len += (size_t)snprintf(text + len, cap - len, " %zu\n",
		    5 + k);
	}
	f = write_temp(text, len, ".folded");
	snprintf(cmd, sizeof(cmd), "ccs-convert -t dump %s", f);
	d = temp_of(cmd, ".dump");
	stream_is_tree(d, "-n 3");
	stream_is_tree(d, "--tsv -n 5");
	stream_is_tree(f, "-n 3");
	temp_free(d);
	temp_free(f);
	free(text);
}

/*
 * A deep comb whose leaves cost more and more (each the hot stack in
 * turn), or rise and fall: the stream keeps the hot stack in the open
 * path and copies its levels only as they are opened again, and its
 * answers are the tree's, as a dump and as folded stacks.
 */
Test(ccs_hot_stream, hot_stack_found_again_and_again)
{
	static const char *const vals[] = { "inc", "wave" };
	static const char *const to[] = { "dump", "folded" };
	char cmd[512], *f;
	size_t i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			snprintf(cmd, sizeof(cmd), "awk -v n=1500 -v vals=%s "
			    "-f tests/support/comb.awk | ccs-convert -q -f json "
			    "-t %s -", vals[i], to[j]);
			f = temp_of(cmd, j ? ".folded" : ".dump");
			stream_is_tree(f, "--tsv");
			stream_is_tree(f, "--tsv -n 40");
			temp_free(f);
		}
}

Test(ccs_hot_stream, bad_input_is_refused_as_the_tree_refuses_it)
{
	struct run a, b, c;
	char *p;
	/* The second of two values is the one that overflows, after
	 * 1500 ones in the later batch. */
	int64_t v[] = { INT64_MAX, INT64_MIN, INT64_MAX / 2 + 1,
	    INT64_MIN / 2 - 1 };
	size_t i;

	/* Folded, in tree order, then not; errors before and after. */
	SAME_ERROR("r;a 1\nr;a;b 2\nr;c x\n", ".folded", "",
	    ":3: 'x' is not an integer count");
	SAME_ERROR("r;a 1\nr;b 1\nr;a 1\nr;c\n", ".folded", "-n 2",
	    ":4: no count after the stack");
	SAME_ERROR("a;b 4611686018427387904\na;c 4611686018427387904\n",
	    ".folded", "", ":2: 64-bit overflow summing 'samples' at cost "
	    "centre 'c'");
	SAME_ERROR("a -9223372036854775808\nb -1\n", ".folded", "",
	    ":2: 64-bit overflow summing 'samples' at cost centre 'b'");
	/*
	 * A metric that is not shown overflows: the tree cannot hold it,
	 * the stream does not sum it (ccs-hot(1)); its answer is the
	 * tree's of the metric shown.
	 */
	{
		static const char two[] = "{\"format\":\"ccstools-profile\","
		    "\"version\":1,\"metadata\":{},\"metrics\":[{\"name\":"
		    "\"ticks\",\"unit\":\"ticks\",\"kind\":\"cost\"},"
		    "{\"name\":\"alloc\",\"unit\":\"bytes\",\"kind\":"
		    "\"cost\"}],\"modules\":[\"M\"],\"cost_centres\":["
		    "{\"label\":\"a\",\"module\":0,\"src\":\"\",\"id\":1}],"
		    "\"nodes\":[[0,2,0,0],[0,0,1,9223372036854775807],"
		    "[0,0,1,1]]}";
		char *d;

		p = write_temp(two, sizeof(two) - 1, ".json");
		d = write_temp("", 0, ".dump");
		run(&a, "ccs-convert -t dump -o %s %s", d, p);
		cr_assert_neq(a.status, 0, "the tree refuses it");
		cr_expect(strstr(a.err, "64-bit overflow summing 'alloc' at "
		    "cost centre 'M.a'") != NULL, "%s", a.err);
		run_free(&a);
		run(&a, "ccs-hot --tsv %s", p);
		cr_expect_eq(a.status, 0, "%s", a.err);
		cr_expect_str_eq(a.out, "stack\ta;a\t1\narm\ta\t2\n"
		    "arm\ta\t1\n");
		run_free(&a);
		temp_free(d);
		temp_free(p);
	}
	/* A dump, in bulk: in the first batch, then in a later one. */
	for (i = 0; i < 4; i++) {
		p = dump_of(i < 2 ? 2 : 2000, i < 2 ? 0 : 1500, v[i]);
		run(&a, "ccs-hot %s", p);
		run(&b, "ccs-hot " TREE " %s", p);
		run(&c, "cat %s | ccs-hot", p);
		cr_expect_eq(a.status, 1);
		cr_expect_eq(c.status, 1);
		cr_expect_str_eq(a.err, b.err);
		cr_expect(strstr(a.err, ": byte ") != NULL &&
		    strstr(a.err, "64-bit overflow summing 'ticks' at cost "
		    "centre 'M.f2'") != NULL, "%s", a.err);
		cr_expect(strncmp(c.err, "ccs-hot: <stdin>: byte ", 23) == 0,
		    "%s", c.err);
		run_free(&a);
		run_free(&b);
		run_free(&c);
		temp_free(p);
	}
}

/*
 * Memory that does not grow with the profile: a dump from a pipe and
 * folded stacks in tree order from a file, whose trees take several
 * times more.  Not under the sanitizers, whose memory is their own.
 */
Test(ccs_hot_stream, memory_does_not_grow)
{
	struct run r;
	char *t;
	long kb;

	if (getenv("ASAN_OPTIONS") != NULL ||
	    access("/usr/bin/time", X_OK) != 0)
		cr_skip_test("no /usr/bin/time, or under a sanitizer");
	run_ok(&r, "ccs-gen -q -t dump -n 1000000 --seed 2 | "
	    "/usr/bin/time -f %%M ccs-hot -n 5 2>&1 >/dev/null");
	kb = atol(r.out);
	cr_expect(kb > 0 && kb < 20000, "dump from a pipe: %ld KB", kb);
	run_free(&r);
	t = temp_of("awk 'BEGIN { for (i = 0; i < 100; i++) "
	    "for (j = 0; j < 100; j++) for (k = 0; k < 50; k++) "
	    "print \"r;a\" i \";b\" j \";c\" k, (i * j + k) % 97 + 1 }'",
	    ".folded");
	run_ok(&r, "/usr/bin/time -f %%M ccs-hot -n 5 %s 2>&1 >/dev/null",
	    t);
	kb = atol(r.out);
	cr_expect(kb > 0 && kb < 20000, "folded: %ld KB", kb);
	run_free(&r);
	temp_free(t);
}

/*
 * Two siblings of one cost centre, which a dump may hold (ccs-dump(5)):
 * the tools that rank or prune weigh each as a stack of its own, and a
 * selection, even of nothing, merges them.  The root f0 has children
 * f1 of 5, f2 of 8 and f1 again of 5.
 */
Test(ccs_hot_stream, sibling_twins_weighed_apart_unless_selected)
{
	struct enc e = { 0 };
	struct run r;
	char *p;

	dump_head(&e, 3);
	enc_varint(&e, 1);
	enc_varint(&e, 0);		/* the root */
	enc_svarint(&e, 0);
	enc_varint(&e, 3);
	enc_varint(&e, 1);		/* f1 */
	enc_svarint(&e, 5);
	enc_varint(&e, 0);
	enc_varint(&e, 2);		/* f2 */
	enc_svarint(&e, 8);
	enc_varint(&e, 0);
	enc_varint(&e, 1);		/* f1 again */
	enc_svarint(&e, 5);
	enc_varint(&e, 0);
	p = dump_end(&e, 4);
	run_ok(&r, "ccs-hot --tsv %s", p);
	cr_expect(strncmp(r.out, "stack\tf0;f2\t8\n", 14) == 0, "%s", r.out);
	run_free(&r);
	run_ok(&r, "ccs-hot --tsv -d nomatch %s 2>/dev/null", p);
	cr_expect(strncmp(r.out, "stack\tf0;f1\t10\n", 15) == 0, "%s",
	    r.out);
	run_free(&r);
	run_ok(&r, "ccs-prune --min-ticks 6 -t folded %s", p);
	cr_expect_str_eq(r.out, "M.f0 10\nM.f0;M.f2 8\n");
	run_free(&r);
	run_ok(&r, "ccs-prune -d nomatch --min-ticks 6 -t folded %s "
	    "2>/dev/null", p);
	cr_expect_str_eq(r.out, "M.f0;M.f1 10\nM.f0;M.f2 8\n");
	run_free(&r);
	temp_free(p);
}
