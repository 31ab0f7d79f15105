/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The callgrind writer on small profiles built in memory: the exact
 * output for recursion (a;b;a;c) and a recursive root, names made
 * unique and safe, events, context names, call counts, errors.  The
 * figures callgrind_annotate reads back from real profiles are checked
 * in tests/tools/test_ccs2callgrind.c.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_callgrind.h"
#include "formats_int.h"
#include "testutil.h"

/*
 * A profile from folded-like lines "main;a;b 5", kept as written (a
 * cost centre may repeat on a path).  Frames are labels of module "M";
 * with entries set, the stack's count goes to an "entries" metric too.
 */
static struct pdb *
tree(const char *spec, int entries)
{
	struct pdb *db = pdb_new();
	char *copy = strdup(spec), *line, *save = NULL, *frame, *fsave;
	unsigned mt, me;
	uint32_t node, cc;

	cr_assert(db != NULL && copy != NULL);
	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &mt) == 0);
	if (entries)
		cr_assert(pdb_metric_add(db, "entries", "calls", PDB_COUNT, 0,
		    &me) == 0);
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char *sp = strrchr(line, ' ');
		long long n;

		cr_assert(sp != NULL);
		*sp = '\0';
		n = atoll(sp + 1);
		node = PDB_NONE;
		for (frame = strtok_r(line, ";", &fsave); frame != NULL;
		    frame = strtok_r(NULL, ";", &fsave)) {
			cr_assert(pdb_cc_intern(db, frame, "M", "", 0, &cc) == 0);
			if (node == PDB_NONE) {
				if (pdb_node_count(db) == 0)
					cr_assert(pdb_root_new(db, cc, &node) == 0);
				else
					node = 0;
			} else
				cr_assert(pdb_child_get(db, node, cc, &node) == 0);
		}
		cr_assert(pdb_node_set_value(db, node, mt,
		    pdb_node_value(db, node, mt) + n) == PDB_OK);
		if (entries)
			cr_assert(pdb_node_set_value(db, node, me,
			    pdb_node_value(db, node, me) + 1) == PDB_OK);
	}
	free(copy);
	return db;
}

/* db written as callgrind with the given options; malloc'd text. */
static char *
write_cg(struct pdb *db, unsigned context, const char *metric, int *rc)
{
	struct pdb_callgrind_opts co = { .context = context };
	struct pdb_opts opts = { .metric = metric, .writer_opts = &co };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cr_assert(f != NULL);
	*rc = pdb_write(db, f, &pdb_fmt_callgrind, &opts);
	fclose(f);
	return buf;
}

/*
 * a;b;a;c: the call into the inner a carries nothing, so a's calls in sum
 * to 11 = inherited(a), not 21; b and c get 11 and 10; main, called by
 * nobody, gets self 2 + 11 = 13.
 */
Test(callgrind, recursion_exact)
{
	struct pdb *db = tree("main;a;b;a;c 10\nmain;a;b 1\nmain 2", 0);
	char *out;
	int rc;

	out = write_cg(db, 0, NULL, &rc);
	cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
	cr_expect_str_eq(out, "# callgrind format\n"
	    "version: 1\n"
	    "creator: ccstools " PDB_VERSION_STRING "\n"
	    "\n"
	    "positions: line\n"
	    "event: ticks : ticks (ticks)\n"
	    "events: ticks\n"
	    "summary: 13\n"
	    "\n"
	    "fl=(1) M\n"
	    "fn=(1) M.main\n"
	    "0 2\n"
	    "cfl=(1)\n"
	    "cfn=(2) M.a\n"
	    "calls=1 0\n"
	    "0 11\n"
	    "\n"
	    "fn=(2)\n"
	    "0 0\n"
	    "cfl=(1)\n"
	    "cfn=(3) M.b\n"
	    "calls=1 0\n"
	    "0 11\n"
	    "cfl=(1)\n"
	    "cfn=(4) M.c\n"
	    "calls=1 0\n"
	    "0 10\n"
	    "\n"
	    "fn=(3)\n"
	    "0 1\n"
	    "cfl=(1)\n"
	    "cfn=(2)\n"
	    "calls=1 0\n"
	    "0 0\n"
	    "\n"
	    "fn=(4)\n"
	    "0 10\n"
	    "\n"
	    "totals: 13\n");
	free(out);
	pdb_free(db);
}

/*
 * Self-recursion a;a (an uncompressed path) and a recursive root: the
 * root's function is called from below, so "(below main)" calls it once
 * with the total, and the calls into the later occurrences carry 0.
 */
Test(callgrind, recursive_root)
{
	struct pdb *db = tree("main;a;a 4\nmain;a;main 3\nmain 1", 0);
	char *out;
	int rc;

	out = write_cg(db, 0, NULL, &rc);
	cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
	cr_expect_str_eq(out, "# callgrind format\n"
	    "version: 1\n"
	    "creator: ccstools " PDB_VERSION_STRING "\n"
	    "\n"
	    "positions: line\n"
	    "event: ticks : ticks (ticks)\n"
	    "events: ticks\n"
	    "summary: 8\n"
	    "\n"
	    "fl=(1) M\n"
	    "fn=(3) (below main)\n"
	    "0 0\n"
	    "cfl=(1)\n"
	    "cfn=(1) M.main\n"
	    "calls=1 0\n"
	    "0 8\n"
	    "\n"
	    "fn=(1)\n"
	    "0 4\n"
	    "cfl=(1)\n"
	    "cfn=(2) M.a\n"
	    "calls=1 0\n"
	    "0 7\n"
	    "\n"
	    "fn=(2)\n"
	    "0 4\n"
	    "cfl=(1)\n"
	    "cfn=(1)\n"
	    "calls=1 0\n"
	    "0 0\n"
	    "cfl=(1)\n"
	    "cfn=(2)\n"
	    "calls=1 0\n"
	    "0 0\n"
	    "\n"
	    "totals: 8\n");
	free(out);
	/* With a context the root's function never recurs. */
	out = write_cg(db, 1, NULL, &rc);
	cr_assert_eq(rc, PDB_OK);
	cr_expect(strstr(out, "(below main)") == NULL, "%s", out);
	cr_expect(strstr(out, "fn=(1) M.main\n") != NULL, "%s", out);
	cr_expect(strstr(out, "cfn=(4) M.main'M.a\n") != NULL, "%s", out);
	cr_expect(strstr(out, "cfn=(3) M.a'M.a\n") != NULL, "%s", out);
	free(out);
	pdb_free(db);
}

/* Context names are callgrind's: "fn'caller1'caller2", nearest first. */
Test(callgrind, context_names)
{
	struct pdb *db = tree("main;x;y;z 1\nmain;y;z 2", 0);
	char *out;
	int rc;

	out = write_cg(db, 2, NULL, &rc);
	cr_assert_eq(rc, PDB_OK);
	cr_expect(strstr(out, "fn=(1) M.main\n") != NULL, "%s", out);
	cr_expect(strstr(out, "cfn=(2) M.x'M.main\n") != NULL, "%s", out);
	cr_expect(strstr(out, "cfn=(3) M.y'M.x'M.main\n") != NULL, "%s", out);
	cr_expect(strstr(out, "cfn=(4) M.z'M.y'M.x\n") != NULL, "%s", out);
	cr_expect(strstr(out, "cfn=(5) M.y'M.main\n") != NULL, "%s", out);
	cr_expect(strstr(out, "cfn=(6) M.z'M.y'M.main\n") != NULL, "%s", out);
	free(out);
	out = write_cg(db, 1, NULL, &rc);
	cr_assert_eq(rc, PDB_OK);
	/* z'y occurs twice, under x and under main: one function, 3 ticks. */
	cr_expect(strstr(out, "cfn=(4) M.z'M.y\ncalls=1 0\n0 1\n") != NULL,
	    "%s", out);
	cr_expect(strstr(out, "cfn=(4)\ncalls=1 0\n0 2\n") != NULL, "%s", out);
	cr_expect(strstr(out, "fn=(4)\n0 3\n") != NULL, "%s", out);
	free(out);
	pdb_free(db);
}

/* calls= is the callee's entries, summed, and never below 1. */
Test(callgrind, call_counts)
{
	struct pdb *db = tree("main;a 1\nmain;b;a 1\nmain;c;a 1", 1);
	char *out;
	int rc;

	/* Node 1 is main;a: 7 entries; main;b gets 0. */
	pdb_node_set_value(db, 1, 1, 7);
	pdb_node_set_value(db, 2, 1, 0);
	out = write_cg(db, 0, NULL, &rc);
	cr_assert_eq(rc, PDB_OK);
	cr_expect(strstr(out, "cfn=(2) M.a\ncalls=7 0\n") != NULL, "%s", out);
	cr_expect(strstr(out, "cfn=(3) M.b\ncalls=1 0\n") != NULL, "%s", out);
	/* The entries metric is a count, not an event. */
	cr_expect(strstr(out, "events: ticks\n") != NULL, "%s", out);
	free(out);
	/* Merged: b;a and c;a are two calls of a, from different callers. */
	out = write_cg(db, 1, NULL, &rc);
	cr_assert_eq(rc, PDB_OK);
	cr_expect(strstr(out, "calls=7 0\n") != NULL, "%s", out);
	free(out);
	pdb_free(db);
}

/*
 * Cost centres that share a name stay apart: "#2" for the second of a
 * module+label; names are kept on one line; empty ones become "???".
 */
Test(callgrind, names_unique_and_safe)
{
	struct pdb *db = pdb_new();
	uint32_t mm, mo, root, c1, c2, c3, c4, c5, n;
	unsigned m;
	char *out;
	int rc;

	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m) == 0);
	cr_assert(pdb_module_add(db, "Main", &mm) == 0);
	cr_assert(pdb_module_add(db, "Other", &mo) == 0);
	cr_assert(pdb_cc_add(db, "main", mm, "Main.hs:3:1-20", 0, 1, &root) == 0);
	cr_assert(pdb_cc_add(db, "CAF", mm, "<entire-module>", 0, 2, &c1) == 0);
	cr_assert(pdb_cc_add(db, "CAF", mm, "<entire-module>", 0, 3, &c2) == 0);
	cr_assert(pdb_cc_add(db, "CAF", mo, "", 0, 4, &c3) == 0);
	cr_assert(pdb_cc_add(db, "bad\nname", mm, "Main.hs:(9,1)-(10,2)", 0,
	    5, &c4) == 0);
	cr_assert(pdb_module_add(db, "", &mo) == 0);
	cr_assert(pdb_cc_add(db, "", mo, "", 0, 6, &c5) == 0);
	cr_assert(pdb_root_new(db, root, &n) == 0);
	cr_assert(pdb_node_append(db, 0, c1, &n) == 0);
	cr_assert(pdb_node_append(db, 0, c2, &n) == 0);
	cr_assert(pdb_node_append(db, 0, c3, &n) == 0);
	cr_assert(pdb_node_append(db, 0, c4, &n) == 0);
	cr_assert(pdb_node_append(db, 0, c5, &n) == 0);
	out = write_cg(db, 0, NULL, &rc);
	cr_assert_eq(rc, PDB_OK);
	/* Files: the src's file, for the CAF too; the module; "???". */
	cr_expect(strstr(out, "fl=(1) Main.hs\nfn=(1) Main.main\n3 0\n") !=
	    NULL, "%s", out);
	cr_expect(strstr(out, "cfl=(1)\ncfn=(2) Main.CAF\ncalls=1 0\n3 0\n") !=
	    NULL, "%s", out);
	cr_expect(strstr(out, "cfn=(3) Main.CAF#2\n") != NULL, "%s", out);
	cr_expect(strstr(out, "cfl=(2) Other\ncfn=(4) Other.CAF\n") != NULL,
	    "%s", out);
	cr_expect(strstr(out, "cfn=(5) Main.bad?name\ncalls=1 9\n") != NULL,
	    "%s", out);
	cr_expect(strstr(out, "cfl=(3) ???\ncfn=(6) ???\n") != NULL, "%s", out);
	free(out);
	pdb_free(db);
}

/*
 * A location that is a bare file name is the cost centre's file, line 0,
 * whichever file the other cost centres of its module have.
 */
Test(callgrind, bare_file_location)
{
	struct pdb *db = pdb_new();
	uint32_t mm, root, c1, c2, n;
	unsigned m;
	char *out;
	int rc;

	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m) == 0);
	cr_assert(pdb_module_add(db, "Main", &mm) == 0);
	cr_assert(pdb_cc_add(db, "main", mm, "Main.hs:3:1-20", 0, 1, &root) == 0);
	cr_assert(pdb_cc_add(db, "f", mm, "Lib.icl", 0, 2, &c1) == 0);
	cr_assert(pdb_cc_add(db, "CAF", mm, "<entire-module>", 0, 3, &c2) == 0);
	cr_assert(pdb_root_new(db, root, &n) == 0);
	cr_assert(pdb_node_append(db, 0, c1, &n) == 0);
	cr_assert(pdb_node_append(db, 0, c2, &n) == 0);
	out = write_cg(db, 0, NULL, &rc);
	cr_assert_eq(rc, PDB_OK);
	cr_expect(strstr(out, "cfl=(2) Lib.icl\ncfn=(2) Main.f\ncalls=1 0\n")
	    != NULL, "%s", out);
	cr_expect(strstr(out, "cfl=(1)\ncfn=(3) Main.CAF\n") != NULL, "%s",
	    out);
	free(out);
	pdb_free(db);
}

/*
 * A number made up to tell two names apart never takes a real name: of
 * M.f, M.f and a real M.f#2, the second M.f is M.f#3, also in the
 * functions of a context.
 */
Test(callgrind, made_up_names_skip_real_ones)
{
	struct pdb *db = pdb_new();
	uint32_t mm, root, f1, f2, f3, n;
	unsigned m, context;
	char *out;
	int rc;

	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m) == 0);
	cr_assert(pdb_module_add(db, "M", &mm) == 0);
	cr_assert(pdb_cc_add(db, "main", mm, "", 0, 1, &root) == 0);
	cr_assert(pdb_cc_add(db, "f", mm, "", 0, 2, &f1) == 0);
	cr_assert(pdb_cc_add(db, "f", mm, "", 0, 3, &f2) == 0);
	cr_assert(pdb_cc_add(db, "f#2", mm, "", 0, 4, &f3) == 0);
	cr_assert(pdb_root_new(db, root, &n) == 0);
	cr_assert(pdb_node_append(db, 0, f1, &n) == 0);
	cr_assert(pdb_node_append(db, 0, f2, &n) == 0);
	cr_assert(pdb_node_append(db, 0, f3, &n) == 0);
	for (context = 0; context < 2; context++) {
		out = write_cg(db, context, NULL, &rc);
		cr_assert_eq(rc, PDB_OK);
		cr_expect(strstr(out, context ? "cfn=(2) M.f'M.main\n" :
		    "cfn=(2) M.f\n") != NULL, "%s", out);
		cr_expect(strstr(out, context ? "cfn=(3) M.f#3'M.main\n" :
		    "cfn=(3) M.f#3\n") != NULL, "%s", out);
		cr_expect(strstr(out, context ? "cfn=(4) M.f#2'M.main\n" :
		    "cfn=(4) M.f#2\n") != NULL, "%s", out);
		free(out);
	}
	pdb_free(db);
}

/* Every cost metric is an event, -m's first, names made KCacheGrind's. */
Test(callgrind, events)
{
	struct pdb *db = pdb_new();
	uint32_t cc, n;
	unsigned m;
	char *out;
	int rc;

	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m) == 0);
	cr_assert(pdb_metric_add(db, "entries", "calls", PDB_COUNT, 0, &m) == 0);
	cr_assert(pdb_metric_add(db, "alloc bytes", "bytes", PDB_COST,
	    PDB_METRIC_APPROX, &m) == 0);
	cr_assert(pdb_metric_add(db, "2nd", "words", PDB_COST, 0, &m) == 0);
	cr_assert(pdb_metric_add(db, "alloc_bytes", "bytes", PDB_COST, 0,
	    &m) == 0);
	cr_assert(pdb_cc_intern(db, "main", "Main", "", 0, &cc) == 0);
	cr_assert(pdb_root_new(db, cc, &n) == 0);
	pdb_node_set_value(db, n, 0, 1);
	pdb_node_set_value(db, n, 2, 2);
	pdb_node_set_value(db, n, 3, -3);
	pdb_node_set_value(db, n, 4, 4);
	cr_assert(pdb_meta_set(db, "command", "prog +RTS -p") == 0);
	cr_assert(pdb_meta_set(db, "date", "today\nand tomorrow") == 0);
	out = write_cg(db, 0, NULL, &rc);
	cr_assert_eq(rc, PDB_OK);
	cr_expect(strstr(out, "cmd: prog +RTS -p\ndesc: date: today and "
	    "tomorrow\n") != NULL, "%s", out);
	cr_expect(strstr(out, "event: alloc_bytes : alloc bytes (bytes, "
	    "approximate)\n") != NULL, "%s", out);
	cr_expect(strstr(out, "events: ticks alloc_bytes _2nd alloc_bytes_2\n"
	    "summary: 1 2 -3 4\n") != NULL, "%s", out);
	free(out);
	out = write_cg(db, 0, "2nd", &rc);
	cr_assert_eq(rc, PDB_OK);
	cr_expect(strstr(out, "events: _2nd ticks alloc_bytes alloc_bytes_2\n"
	    "summary: -3 1 2 4\n") != NULL, "%s", out);
	cr_expect(strstr(out, "fn=(1) Main.main\n0 -3 1 2 4\n") != NULL, "%s",
	    out);
	free(out);
	out = write_cg(db, 0, "entries", &rc);
	cr_expect_eq(rc, PDB_EINVAL);
	cr_expect(strstr(pdb_errmsg(db), "'entries'") != NULL, "%s",
	    pdb_errmsg(db));
	free(out);
	out = write_cg(db, 0, "nosuch", &rc);
	cr_expect_eq(rc, PDB_EINVAL);
	free(out);
	out = write_cg(db, PDB_CALLGRIND_MAX_CONTEXT + 1, NULL, &rc);
	cr_expect_eq(rc, PDB_EINVAL);
	free(out);
	pdb_free(db);
}

Test(callgrind, no_cost_metric)
{
	struct pdb *db = pdb_new();
	uint32_t cc, n;
	unsigned m;
	char *out;
	int rc;

	cr_assert(pdb_metric_add(db, "entries", "calls", PDB_COUNT, 0, &m) == 0);
	cr_assert(pdb_cc_intern(db, "main", "Main", "", 0, &cc) == 0);
	cr_assert(pdb_root_new(db, cc, &n) == 0);
	out = write_cg(db, 0, NULL, &rc);
	cr_expect_eq(rc, PDB_EUNSUPP);
	cr_expect(strstr(pdb_errmsg(db), "no cost metric") != NULL);
	free(out);
	pdb_free(db);
}

/*
 * A deep chain (1,000,000 nodes, two cost centres alternating) is written
 * without recursion, and its calls in sum to inherited costs: in
 * f;g;f;g;... the first g gets the whole inclusive cost, the root f is
 * called by "(below main)".
 */
Test(callgrind, deep_chain, .timeout = 60)
{
	struct pdb *db = pdb_new();
	uint32_t f, g, n, i;
	unsigned m;
	char *out;
	int rc;

	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m) == 0);
	cr_assert(pdb_cc_intern(db, "f", "M", "", 0, &f) == 0);
	cr_assert(pdb_cc_intern(db, "g", "M", "", 0, &g) == 0);
	cr_assert(pdb_root_new(db, f, &n) == 0);
	for (i = 1; i < 1000000; i++) {
		cr_assert(pdb_node_append(db, n, i % 2 ? g : f, &n) == 0);
		pdb_node_set_value(db, n, 0, 1);
	}
	out = write_cg(db, 0, NULL, &rc);
	cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
	cr_expect(strstr(out, "summary: 999999\n") != NULL);
	cr_expect(strstr(out, "fl=(1) M\nfn=(3) (below main)\n0 0\ncfl=(1)\n"
	    "cfn=(1) M.f\ncalls=1 0\n0 999999\n") != NULL, "%.600s", out);
	cr_expect(strstr(out, "fn=(1)\n0 499999\ncfl=(1)\ncfn=(2) M.g\n"
	    "calls=500000 0\n0 999999\n\nfn=(2)\n0 500000\ncfl=(1)\n"
	    "cfn=(1)\ncalls=499999 0\n0 0\n\ntotals: 999999\n") != NULL,
	    "%.600s", out);
	free(out);
	pdb_free(db);
}

/* ---- the writer as a sink ---- */

/*
 * Feed the nodes of db's tree to sink with the handle h, which has db's
 * cost centres and no tree: one event at a time, or as one batch.
 */
static int
feed(const struct pdb *db, struct pdb *h, const struct pdb_sink *sink,
    int batch)
{
	uint32_t nn = pdb_node_count(db), n, depth = 0, i = 0;
	unsigned nm = pdb_metric_count(db);
	uint32_t *cc = calloc(nn + 1, sizeof(*cc));
	int64_t *values = calloc((size_t)nn * nm + 1, sizeof(*values));
	size_t *exits = calloc(nn + 1, sizeof(*exits)), k, done;
	uint32_t *depths = calloc(nn + 1, sizeof(*depths));
	struct pdb_batch b;
	int rc;

	cr_assert(cc != NULL && values != NULL && exits != NULL &&
	    depths != NULL);
	for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth), i++) {
		cc[i] = pdb_node_cc(db, n);
		depths[i] = depth;
		memcpy(values + (size_t)i * nm, pdb_node_values(db, n),
		    nm * sizeof(*values));
	}
	for (i = 0; i < nn; i++)
		exits[i] = i + 1 < nn ? depths[i] + 1 - depths[i + 1] :
		    depths[i] + 1;
	if ((rc = sink->begin(sink->arg, h)) != PDB_OK)
		goto out;
	if (batch) {
		b.n = nn;
		b.cc = cc;
		b.values = values;
		b.stride = nm;
		b.exits = exits;
		rc = sink->nodes(sink->arg, h, &b, &done);
		goto out;
	}
	for (i = 0; i < nn; i++) {
		if ((rc = sink->enter(sink->arg, h, cc[i], values +
		    (size_t)i * nm)) != PDB_OK)
			goto out;
		for (k = 0; k < exits[i]; k++)
			if ((rc = sink->exit(sink->arg, h)) != PDB_OK)
				goto out;
	}
out:
	free(cc);
	free(values);
	free(exits);
	free(depths);
	return rc;
}

/* The events of db's tree through the streaming writer; malloc'd text. */
static char *
stream_cg(const struct pdb *db, unsigned context, int batch, int *rc)
{
	struct pdb_callgrind_opts co = { .context = context };
	struct pdb_opts opts = { .writer_opts = &co };
	struct pdb *h = pdb_clone_empty(db);
	struct pdb_callgrind *w = pdb_callgrind_new(&opts);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	cr_assert(h != NULL && w != NULL);
	*rc = feed(db, h, pdb_callgrind_sink(w), batch);
	cr_assert_eq(*rc, PDB_OK, "%s", pdb_errmsg(h));
	cr_assert_eq(pdb_callgrind_nodes(w), pdb_node_count(db));
	cr_assert((f = open_memstream(&buf, &len)) != NULL);
	*rc = pdb_callgrind_finish(w, f);
	fclose(f);
	cr_assert_eq(*rc, PDB_OK, "%s", pdb_errmsg(h));
	/* The writer kept no tree on the handle. */
	cr_assert_eq(pdb_node_count(h), 0);
	pdb_callgrind_free(w);
	pdb_free(h);
	return buf;
}

/*
 * Events alone, one by one and in a batch, give the file the tree gives:
 * recursion, a recursive root, call counts, context.
 */
Test(callgrind, stream_without_tree)
{
	static const struct {
		const char	*spec;
		int		 entries;
	} cases[] = {
		{ "main;a;b;a;c 10\nmain;a;b 1\nmain 2", 0 },
		{ "main;a;a 4\nmain;a;main 3\nmain 1", 1 },
		{ "main;f;g;f;g;h 5\nmain;g;f 2\nmain;h;h;h 7\nmain;f 1", 1 },
	};
	size_t i;
	unsigned context;
	int batch, rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pdb *db = tree(cases[i].spec, cases[i].entries);

		for (context = 0; context <= 2; context++) {
			char *want = write_cg(db, context, NULL, &rc);

			cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
			for (batch = 0; batch <= 1; batch++) {
				char *got = stream_cg(db, context, batch, &rc);

				cr_expect_str_eq(got, want, "case %zu, context "
				    "%u, batch %d", i, context, batch);
				free(got);
			}
			free(want);
		}
		pdb_free(db);
	}
}

/* The stream's errors are the tree builder's, and an empty stream
 * writes nothing. */
Test(callgrind, stream_errors)
{
	struct pdb *db = pdb_new();
	struct pdb_callgrind *w;
	const struct pdb_sink *s;
	uint32_t a, b;
	unsigned m;
	int64_t big = INT64_MAX, one = 1;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m) == 0);
	cr_assert(pdb_cc_intern(db, "a", "M", "", 0, &a) == 0);
	cr_assert(pdb_cc_intern(db, "b", "M", "", 0, &b) == 0);

	/* A second root. */
	cr_assert((w = pdb_callgrind_new(NULL)) != NULL);
	s = pdb_callgrind_sink(w);
	cr_assert_eq(s->begin(s->arg, db), PDB_OK);
	cr_assert_eq(s->enter(s->arg, db, a, &one), PDB_OK);
	cr_assert_eq(s->exit(s->arg, db), PDB_OK);
	cr_expect_eq(s->enter(s->arg, db, b, &one), PDB_EFORMAT);
	cr_expect_str_eq(pdb_errmsg(db), "profile has more than one root");
	/* More exits than enters. */
	cr_expect_eq(s->exit(s->arg, db), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "exit without enter");
	/* A cost centre the handle does not have. */
	cr_expect_eq(s->enter(s->arg, db, b + 1, &one), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "cost centre 2 out of range");
	pdb_callgrind_free(w);

	/* Sums beyond 64 bits, as the builder reports them. */
	cr_assert((w = pdb_callgrind_new(NULL)) != NULL);
	s = pdb_callgrind_sink(w);
	cr_assert_eq(s->begin(s->arg, db), PDB_OK);
	cr_assert_eq(s->enter(s->arg, db, a, &big), PDB_OK);
	cr_expect_eq(s->enter(s->arg, db, b, &one), PDB_EFORMAT);
	cr_expect_str_eq(pdb_errmsg(db), "64-bit overflow summing 'ticks' at "
	    "cost centre 'M.b'");
	pdb_callgrind_free(w);

	/* No events: nothing to write, and nothing written. */
	cr_assert((w = pdb_callgrind_new(NULL)) != NULL);
	s = pdb_callgrind_sink(w);
	cr_assert_eq(s->begin(s->arg, db), PDB_OK);
	cr_assert((f = open_memstream(&buf, &len)) != NULL);
	cr_expect_eq(pdb_callgrind_finish(w, f), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "nothing to write: empty profile");
	fclose(f);
	cr_expect_eq(len, 0);
	free(buf);
	pdb_callgrind_free(w);
	pdb_free(db);
}
