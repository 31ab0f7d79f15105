/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs2dot, run as a built binary: the common tool checks, output that
 * cgraph and dot(1) read, the output format from -T or the -o extension
 * (checked by magic bytes), selection, pruning and metrics through
 * tool_load, its messages, and a million-node dump cut to --nodecount.
 * The graph itself is tested in tests/formats/test_dot.c.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cgraph.h>

#include "formats_int.h"
#include "pdb.h"
#include "testutil.h"
#include "toolcheck.h"

#define FIG7	"tests/data/paper/fig7.folded"
#define MJ	"tests/data/ghc/mj.P.prof"
#define PGCL	"tests/data/pgcl/synthetic-400.pgcl"

/* Run "ccs2dot args", which must succeed quietly, and parse its DOT. */
static Agraph_t *
dot_of(const char *args)
{
	struct run r;
	Agraph_t *g;

	run(&r, "ccs2dot %s", args);
	cr_assert_eq(r.status, 0, "ccs2dot %s: exit %d: %s", args, r.status,
	    r.err);
	cr_expect_str_empty(r.err, "ccs2dot %s: %s", args, r.err);
	g = agmemread(r.out);
	cr_assert(g != NULL, "ccs2dot %s: cgraph cannot read:\n%s", args,
	    r.out);
	run_free(&r);
	return g;
}

/* The label of the node whose label's first line is name, or NULL. */
static const char *
node_label(Agraph_t *g, const char *name)
{
	size_t len = strlen(name);
	Agnode_t *n;
	const char *l;

	for (n = agfstnode(g); n != NULL; n = agnxtnode(g, n)) {
		l = agget(n, "label");
		if (l != NULL && strncmp(l, name, len) == 0 &&
		    (l[len] == '\0' || strncmp(l + len, "\\n", 2) == 0))
			return l;
	}
	return NULL;
}

static int
starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int
ccnodes(Agraph_t *g)
{
	return agnnodes(g) - (agnode(g, "legend", 0) != NULL);
}

/* ---- what every tool has ---- */

Test(ccs2dot, help)
{
	check_help("ccs2dot");
}

Test(ccs2dot, version)
{
	check_version("ccs2dot", CCSTOOLS_VERSION_LINE("ccs2dot"));
}

Test(ccs2dot, bad_usage)
{
	check_bad_usage("ccs2dot", "--no-such-option " FIG7);
	check_bad_usage("ccs2dot", "-T nosuch " FIG7);
	check_bad_usage("ccs2dot", FIG7 " " FIG7);
	check_bad_usage("ccs2dot", "--hot --hot-only " FIG7);
}

/* A bad number is a usage error too: exit 2 and what was wrong. */
Test(ccs2dot, bad_numbers)
{
	static const struct {
		const char	*args, *err;
	} cases[] = {
		{ "--nodecount many", "ccs2dot: --nodecount: 'many': invalid "
		    "number\n" },
		{ "--node-thres 101", "ccs2dot: --node-thres: '101': out of "
		    "range (0 to 100)\n" },
		{ "--edge-thres x", "ccs2dot: --edge-thres: 'x': invalid "
		    "number\n" },
		{ "--top 0", "ccs2dot: --top: '0': out of range (1 to "
		    "2147483647)\n" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run(&r, "ccs2dot %s %s", cases[i].args, FIG7);
		cr_expect_eq(r.status, 2, "%s: exit %d", cases[i].args,
		    r.status);
		cr_expect_str_eq(r.err, cases[i].err);
		cr_expect_str_empty(r.out);
		run_free(&r);
	}
}

Test(ccs2dot, missing_file)
{
	check_missing_file("ccs2dot", "ccs2dot");
}

/* ---- output ---- */

Test(ccs2dot, fig7_parses_with_cgraph_and_dot)
{
	struct run r;
	Agraph_t *g = dot_of(FIG7);
	char *dir;

	cr_expect_eq(ccnodes(g), 12);
	cr_expect_eq(agnedges(g), 15);
	cr_expect_str_eq(node_label(g, "Main_j"),
	    "Main_j\\nself 0 (0.0%)\\ninherited 1,209 (97.7%)");
	agclose(g);

	dir = make_temp_dir();
	run(&r, "ccs2dot %s > %s/g.dot && dot -Tsvg %s/g.dot -o %s/g.svg && "
	    "ccs2dot --tree %s | dot -Tsvg > %s/t.svg", FIG7, dir, dir, dir,
	    FIG7, dir);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_empty(r.err);
	run_free(&r);
	/* Twelve cost centres and the legend; twenty stacks and it. */
	run(&r, "grep -c '<g id=\"node' %s/g.svg", dir);
	cr_expect_str_eq(r.out, "13\n");
	run_free(&r);
	run(&r, "grep -c '<g id=\"node' %s/t.svg", dir);
	cr_expect_str_eq(r.out, "21\n");
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

/* The format from -T, else from the extension of -o (in either case),
 * else DOT. */
Test(ccs2dot, output_format_by_option_and_extension)
{
	static const struct {
		const char	*args, *file, *magic;
		size_t		 len;
	} cases[] = {
		{ "-o %s/g.svg", "g.svg", "<?xml", 5 },
		{ "-o %s/G.SVG", "G.SVG", "<?xml", 5 },
		{ "-o %s/g.Png", "g.Png", "\x89PNG\r\n\x1a\n", 8 },
		{ "-o %s/g.png", "g.png", "\x89PNG\r\n\x1a\n", 8 },
		{ "-o %s/g.pdf", "g.pdf", "%PDF-", 5 },
		{ "-o %s/g.dot", "g.dot", "digraph callgraph {", 19 },
		{ "-o %s/g.gv", "g.gv", "digraph callgraph {", 19 },
		{ "-o %s/g.txt", "g.txt", "digraph callgraph {", 19 },
		{ "-T png -o %s/png.out", "png.out", "\x89PNG\r\n\x1a\n", 8 },
		{ "-T dot -o %s/dot.svg", "dot.svg", "digraph callgraph {", 19 },
		{ "--render pdf -o %s/x", "x", "%PDF-", 5 },
	};
	char *dir = make_temp_dir(), args[256], path[256], *data;
	struct run r;
	size_t i, len;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(args, sizeof(args), cases[i].args, dir);
		run(&r, "ccs2dot %s %s", args, FIG7);
		cr_expect_eq(r.status, 0, "%s: %s", args, r.err);
		cr_expect_str_empty(r.out, "%s", args);
		run_free(&r);
		snprintf(path, sizeof(path), "%s/%s", dir, cases[i].file);
		data = slurp(path, &len);
		cr_assert(data != NULL, "%s: no %s", args, path);
		cr_expect(len > cases[i].len && memcmp(data, cases[i].magic,
		    cases[i].len) == 0, "%s: bad magic", args);
		free(data);
	}
	/* To standard output. */
	run(&r, "ccs2dot -T svg %s", FIG7);
	cr_expect_eq(r.status, 0);
	cr_expect(strncmp(r.out, "<?xml", 5) == 0);
	cr_expect(strstr(r.out, ">Main_rev</text>") != NULL);
	run_free(&r);
	run(&r, "ccs2dot -T png %s", FIG7);
	cr_expect_eq(r.status, 0);
	cr_expect(r.outlen > 8 && memcmp(r.out, "\x89PNG\r\n\x1a\n", 8) == 0);
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

Test(ccs2dot, reads_stdin)
{
	struct run a, b;

	run(&a, "ccs2dot < %s", FIG7);
	run(&b, "cat %s | ccs2dot -", FIG7);
	cr_expect_eq(a.status, 0, "%s", a.err);
	cr_expect_eq(b.status, 0, "%s", b.err);
	cr_expect(strstr(a.out, "inherited 1,209 (97.7%)") != NULL);
	cr_expect_str_eq(a.out, b.out);
	run_free(&a);
	run_free(&b);
}

/* ---- options through tool_load ---- */

/* De-selecting Main_rev gives its costs to the callers (Fig. 9). */
Test(ccs2dot, deselect)
{
	Agraph_t *g = dot_of("-d Main_rev " FIG7);

	cr_expect_eq(ccnodes(g), 11);
	cr_expect(node_label(g, "Main_rev") == NULL);
	cr_expect_str_eq(node_label(g, "Main_j"),
	    "Main_j\\nself 1,209 (97.7%)\\ninherited 1,209 (97.7%)");
	cr_expect_str_eq(node_label(g, "Main_i"),
	    "Main_i\\nself 7 (0.6%)\\ninherited 7 (0.6%)");
	agclose(g);
}

/* Of a negative total, nothing is 0.0 per cent, not -0.0. */
Test(ccs2dot, zero_of_a_negative_total)
{
	static const char neg[] = "a;b 5\na;c -10\n";
	char *path = write_temp(neg, sizeof(neg) - 1, ".folded");
	char args[4096];
	Agraph_t *g;

	snprintf(args, sizeof(args), "%s", path);
	g = dot_of(args);
	cr_expect_str_eq(node_label(g, "a"),
	    "a\\nself 0 (0.0%)\\ninherited -5 (100.0%)");
	agclose(g);
	unlink(path);
	free(path);
}

/*
 * With --hot, fewer nodes than the arm has keep the arm whole from the
 * root: main, a, c, f, not j and rev, whose inherited cost is larger
 * than c's and f's.  In the tree, too.
 */
Test(ccs2dot, nodecount_keeps_the_arm_from_the_root)
{
	static const char *const args[] = { "--hot --nodecount 4 " FIG7,
	    "--tree --hot --nodecount 4 " FIG7 };
	static const char *const arm[] = { "Main_main", "Main_a", "Main_c",
	    "Main_f" };
	Agraph_t *g;
	size_t i, k;

	for (i = 0; i < 2; i++) {
		g = dot_of(args[i]);
		cr_expect_eq(ccnodes(g), 4, "%s", args[i]);
		for (k = 0; k < 4; k++)
			cr_expect(node_label(g, arm[k]) != NULL, "%s: no %s",
			    args[i], arm[k]);
		cr_expect(node_label(g, "Main_j") == NULL, "%s", args[i]);
		agclose(g);
	}
}

/* A count metric's arc says its name first, as its nodes do: a name
 * has no plural to give "1 entries". */
Test(ccs2dot, count_arcs_named_as_nodes)
{
	struct run r;

	run(&r, "ccs2dot -m entries --node-thres 0 --edge-thres 0 "
	    "tests/data/ghc/mj.P.prof");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "label=\" entries 1\\n 1 stack\"") != NULL,
	    "%s", r.out);
	cr_expect(strstr(r.out, " entries\\n") == NULL, "%s", r.out);
	run_free(&r);
}

/* Fig. 13: a few selected cost centres. */
Test(ccs2dot, select)
{
	Agraph_t *g = dot_of("-s 'Main_[abc]' " FIG7);

	cr_expect_eq(ccnodes(g), 3);
	cr_expect_eq(agnedges(g), 2);
	cr_expect_str_eq(node_label(g, "Main_a"),
	    "Main_a\\nself 0 (0.0%)\\ninherited 1,237 (100.0%)");
	cr_expect_str_eq(node_label(g, "Main_c"),
	    "Main_c\\nself 1,188 (96.0%)\\ninherited 1,188 (96.0%)");
	cr_expect_str_eq(node_label(g, "Main_b"),
	    "Main_b\\nself 49 (4.0%)\\ninherited 49 (4.0%)");
	agclose(g);
}

/* --exclude takes Main_b and all it called, charging Main_a. */
Test(ccs2dot, exclude)
{
	Agraph_t *g = dot_of("--exclude Main_b " FIG7);

	cr_expect_eq(ccnodes(g), 8);
	cr_expect(node_label(g, "Main_b") == NULL);
	cr_expect(node_label(g, "Main_g") == NULL);
	cr_expect_str_eq(node_label(g, "Main_a"),
	    "Main_a\\nself 49 (4.0%)\\ninherited 1,237 (100.0%)");
	/* Main_j is now only under Main_h. */
	cr_expect_str_eq(node_label(g, "Main_j"),
	    "Main_j\\nself 0 (0.0%)\\ninherited 1,181 (95.5%)");
	agclose(g);
}

Test(ccs2dot, metrics)
{
	struct run r;
	Agraph_t *g = dot_of("-m alloc " MJ);
	const char *l = node_label(g, "rev");

	cr_assert(l != NULL);
	cr_expect(starts(l, "rev\\nMain\\nself 210,303,480 (99.9%)\\n"), "%s",
	    l);
	cr_expect(strstr(agget(agnode(g, "legend", 0), "label"),
	    "metric: alloc, total 210,573,856 bytes") != NULL);
	agclose(g);

	run(&r, "ccs2dot -m nosuch %s", MJ);
	cr_expect_eq(r.status, 1);
	cr_expect(starts(r.err, "ccs2dot: -m: no metric 'nosuch'"), "%s",
	    r.err);
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/* The default thresholds on GHC's report hide the cost centres of no
 * cost, and the legend says so. */
Test(ccs2dot, legend_of_ghc_report)
{
	Agraph_t *g = dot_of(MJ);
	const char *l = agget(agnode(g, "legend", 0), "label");

	cr_expect_eq(ccnodes(g), 9);
	cr_expect(starts(l, "program: mj\\lmetric: ticks, total 47 ticks\\l"),
	    "%s", l);
	cr_expect(strstr(l, "10 cost centres hidden, 0.0% self cost") != NULL,
	    "%s", l);
	agclose(g);

	g = dot_of("--node-thres 0 --edge-thres 0 " MJ);
	cr_expect_eq(ccnodes(g), 19);
	agclose(g);
}

/*
 * The legend says what the numbers are, as ccs-hot does: ticks derived
 * from a GHC report's rounded percentages, ticks less the profiling
 * overhead; streamed (the plain graph) or from the tree (--hot).
 */
Test(ccs2dot, legend_says_approximate_and_compensated)
{
	static const char *const how[] = { "", "--hot " };
	static const char pgcl[] = "tests/data/pgcl/synthetic-400.pgcl";
	char args[256];
	Agraph_t *g;
	const char *l;
	size_t i;

	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		snprintf(args, sizeof(args), "%stests/data/ghc/mj.prof",
		    how[i]);
		g = dot_of(args);
		l = agget(agnode(g, "legend", 0), "label");
		cr_expect(starts(l, "program: mj\\lmetric: ticks "
		    "(approximate), total 38 ticks\\l"), "%s: %s", args, l);
		agclose(g);

		snprintf(args, sizeof(args), "%s--compensate %s", how[i],
		    pgcl);
		g = dot_of(args);
		l = agget(agnode(g, "legend", 0), "label");
		cr_expect(strstr(l, "metric: ticks (compensated for profiling "
		    "overhead), total 11,788 ticks\\l") != NULL, "%s: %s",
		    args, l);
		agclose(g);

		snprintf(args, sizeof(args), "%s-m words --compensate %s",
		    how[i], pgcl);
		g = dot_of(args);
		l = agget(agnode(g, "legend", 0), "label");
		cr_expect(strstr(l, "metric: words, total") != NULL, "%s: %s",
		    args, l);
		agclose(g);
	}
	g = dot_of(MJ);
	l = agget(agnode(g, "legend", 0), "label");
	cr_expect(strstr(l, "approximate") == NULL, "%s", l);
	agclose(g);
}

/*
 * Cost left on a made-up root (every frame of "a 2" de-selected) is no
 * call to draw: the legend says how much, in the graph and the tree,
 * streamed or not; a profile without such cost has no such line.
 */
Test(ccs2dot, legend_of_cost_on_the_made_up_root)
{
	static const char *const how[] = { "", "--tree",
	    "--max-stacks 4294967295", "--tree --max-stacks 4294967295" };
	struct run r;
	Agraph_t *g;
	const char *l;
	size_t i;

	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		run(&r, "printf 'a 2\\nb 3\\n' | ccs-select -d a | "
		    "ccs2dot %s", how[i]);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_assert((g = agmemread(r.out)) != NULL);
		l = agget(agnode(g, "legend", 0), "label");
		cr_expect(strstr(l, "\\l40.0% self cost on the made-up root, "
		    "not drawn\\l") != NULL, "%s: %s", how[i], l);
		agclose(g);
		run_free(&r);
	}
	g = dot_of(MJ);
	cr_expect(strstr(agget(agnode(g, "legend", 0), "label"), "made-up") ==
	    NULL);
	agclose(g);
}

Test(ccs2dot, focus_hot_tree_on_pgcl)
{
	Agraph_t *g;

	g = dot_of("--hot-only " PGCL);
	cr_expect_eq(ccnodes(g), 7);
	agclose(g);
	g = dot_of("--focus f20 --hot " PGCL);
	cr_expect(node_label(g, "f20") != NULL);
	cr_expect_leq(ccnodes(g), 80);
	agclose(g);
	g = dot_of("--tree --nonzero --nodecount 25 " PGCL);
	cr_expect_eq(ccnodes(g), 25);
	cr_expect_eq(agnedges(g), 24);
	agclose(g);
}

Test(ccs2dot, focus_without_match)
{
	struct run r;

	run(&r, "ccs2dot --focus zzz %s", FIG7);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs2dot: " FIG7 ": no cost centre matches "
	    "focus 'zzz'\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/*
 * Focus names given as literals are looked up, not globbed: the graph
 * is the one that globs matching the same cost centres draw (but for
 * the legend's lines that name the patterns), by label,
 * by module and label, for the root's cost centre, and with a name given
 * twice; streamed, and as a tree (--top).  A name or glob that matches
 * nothing is the error, the first in the order given.
 */
Test(ccs2dot, focus_names_as_their_globs)
{
	static const char *const how[] = { "", "--top 20 " };
	char *dir = make_temp_dir();
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		run(&r, "ccs2dot %s--focus f2 --focus f3 --focus f4 "
		    "--focus Mod1.f24 --focus f2 --focus _start %s > %s/a && "
		    "ccs2dot %s--focus 'f[234]' --focus 'Mod1.f2[4]' "
		    "--focus '_star[t]' %s > %s/b && "
		    "sed '/through /{N;d;}' %s/b > %s/b.l && "
		    "sed '/through /{N;d;}' %s/a | cmp - %s/b.l && "
		    "grep -c 'label=' %s/a", how[i], PGCL, dir, how[i], PGCL,
		    dir, dir, dir, dir, dir, dir);
		cr_expect_eq(r.status, 0, "%s%s%s", how[i], r.out, r.err);
		cr_expect_gt(atoi(r.out), 5, "%s", r.out);
		run_free(&r);
		run(&r, "ccs2dot %s--focus f20 --focus zzz --focus 'q*' "
		    "--focus aaa %s", how[i], PGCL);
		cr_expect_eq(r.status, 1);
		cr_expect(strstr(r.err, "no cost centre matches focus "
		    "'zzz'\n") != NULL, "%s%s", how[i], r.err);
		run_free(&r);
		run(&r, "ccs2dot %s--focus f20 --focus 'q*' --focus aaa %s",
		    how[i], PGCL);
		cr_expect_eq(r.status, 1);
		cr_expect(strstr(r.err, "no cost centre matches focus "
		    "'q*'\n") != NULL, "%s%s", how[i], r.err);
		run_free(&r);
	}
	remove_temp(dir);
	free(dir);
}

/* ---- size ---- */

/* A dump of a million nodes over 5000 cost centres; malloc'd path. */
static char *
million_dump(void)
{
	struct pdb *db = pdb_new();
	uint32_t mod, cc, n, i, p;
	unsigned m;
	char name[16], *path;
	int64_t v;
	FILE *f;

	srand(7);
	cr_assert(db != NULL);
	cr_assert_eq(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m), 0);
	cr_assert_eq(pdb_module_add(db, "Mod", &mod), 0);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		cr_assert_eq(pdb_cc_add(db, name, mod, "", 0, -1, &cc), 0);
	}
	cr_assert_eq(pdb_root_new(db, 0, &n), 0);
	for (i = 1; i < 1000000; i++) {
		p = rand() % 4 ? i - 1 - (uint32_t)rand() % (i < 8 ? i : 8) :
		    (uint32_t)rand() % i;
		cr_assert_eq(pdb_node_append(db, p,
		    1 + (uint32_t)rand() % 4999, &n), 0);
		v = rand() % 3 ? 0 : rand() % 1000;
		pdb_node_add_values(db, n, &v);
	}
	path = write_temp("", 0, ".dump");
	f = fopen(path, "wb");
	cr_assert(f != NULL);
	cr_assert_eq(pdb_write(db, f, &pdb_fmt_ccsdump, NULL), PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_assert(fclose(f) == 0);
	pdb_free(db);
	return path;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

Test(ccs2dot, million_nodes_capped, .timeout = 120)
{
	char *path = million_dump(), args[512];
	Agraph_t *g;
	double t;

	t = now();
	g = dot_of(path);
	t = now() - t;
	cr_expect_leq(ccnodes(g), 80, "%d nodes", ccnodes(g));
	cr_expect_gt(ccnodes(g), 10);
	cr_expect_lt(t, 15.0, "ccs2dot on 1e6 nodes took %.2f s", t);
	agclose(g);

	snprintf(args, sizeof(args), "--nodecount 10 --tree %s", path);
	g = dot_of(args);
	cr_expect_leq(ccnodes(g), 10, "%d nodes", ccnodes(g));
	agclose(g);

	snprintf(args, sizeof(args), "--nodecount 10 --node-thres 0 "
	    "--edge-thres 0 %s", path);
	g = dot_of(args);
	cr_expect_eq(ccnodes(g), 10, "%d nodes", ccnodes(g));
	agclose(g);
	unlink(path);
	free(path);
}

/*
 * The call graph without --hot or --top is drawn from the events of a
 * format whose tree is its stream as they are read; folded stacks,
 * selection and pruning build the tree first.  Both ways draw the same,
 * from a file and from a pipe: --exclude with a pattern that matches
 * nothing makes the tree.
 */
Test(ccs2dot, stream_and_tree_agree, .timeout = 120)
{
	static const char *const formats[] = { "pgcl", "dump", "ghc-prof",
	    "ghc-json", "folded", "json" };
	static const char *const opts[] = { "", "--nonzero",
	    "--focus 'E*'", "--nodecount 0 --node-thres 0 --edge-thres 0" };
	char *gen = write_temp("", 0, NULL), *a = write_temp("", 0, NULL),
	    *b = write_temp("", 0, NULL);
	struct run r;
	size_t i, k;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		run(&r, "ccs-gen -q -t %s -n 3000 --seed 5 -o %s", formats[i],
		    gen);
		cr_assert_eq(r.status, 0, "%s", r.err);
		run_free(&r);
		for (k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
			run(&r, "ccs2dot %s %s -o %s && "
			    "ccs2dot %s --exclude no-such-cc %s -o %s && "
			    "cmp %s %s && ccs2dot %s - <%s | cmp - %s && "
			    "grep -c -- '->' %s", opts[k], gen, a, opts[k], gen,
			    b, a, b, opts[k], gen, a, a);
			cr_expect_eq(r.status, 0, "%s %s: %s", formats[i],
			    opts[k], r.err);
			/* A real graph: it has arcs. */
			cr_expect_gt(atoi(r.out), 2, "%s %s: %s arcs",
			    formats[i], opts[k], r.out);
			run_free(&r);
		}
	}
	unlink(gen);
	unlink(a);
	unlink(b);
	free(gen);
	free(a);
	free(b);
}

Test(ccs2dot, no_metrics)
{
	check_no_metrics("ccs2dot", "ccs2dot");
}

/*
 * calls.P.prof (GHC 9.0.2, -fprof-auto-calls) has six cost centres
 * "insert" in Main, one a call site: their nodes' labels add the source
 * location, in the call graph and in the tree; names no other shares
 * leave it to the tooltip.
 */
Test(ccs2dot, shared_names_show_their_source)
{
	/* Six call sites, in the tree ten stacks. */
	static const char *const modes[] = { "", "--tree" };
	static const int want[] = { 6, 10 };
	struct run r;
	size_t i;

	for (i = 0; i < 2; i++) {
		run(&r, "ccs2dot %s tests/data/ghc/calls.P.prof | "
		    "grep -c 'label=\"insert\\\\nMain\\\\nMain.hs:1[12]:'",
		    modes[i]);
		cr_expect_eq(r.status, 0, "%s: %s", modes[i], r.err);
		cr_expect_eq(atoi(r.out), want[i], "%s: %s", modes[i], r.out);
		run_free(&r);
	}
	run(&r, "ccs2dot tests/data/ghc/calls.P.prof | "
	    "grep -c 'label=\"CAF\\\\nMain\\\\nself'");
	cr_expect_str_eq(r.out, "1\n", "CAF is the only one of its name");
	run_free(&r);
	/* mj's names are all its own: no label names a source. */
	run(&r, "ccs2dot tests/data/ghc/mj.P.prof");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "label=\"rev\\nMain\\nself") != NULL, "%s",
	    r.out);
	cr_expect(strstr(r.out, "\\nMain\\nMain.hs") == NULL, "%s", r.out);
	run_free(&r);
}

/*
 * A node's tooltip is its full name: an empty label is shown there as
 * in the node, "", for an empty tooltip is Graphviz's cue to repeat the
 * node's whole label, costs and all.
 */
Test(ccs2dot, empty_label_in_the_tooltip)
{
	struct run r;

	run_in_temp(&r, "printf 'MAIN;;x 5\\nMAIN;Lib. 2\\n' > $T/e.folded && "
	    "ccs2dot $T/e.folded | grep -o 'tooltip=[^]]*'");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "tooltip=MAIN\n"
	    "tooltip=\"\\\"\\\"\"\n"
	    "tooltip=\"Lib.\\\"\\\"\"\n"
	    "tooltip=x\n", "%s", r.out);
	run_free(&r);
}

/*
 * No arc runs into the legend.  It sits beside the root, taller than
 * it, and dot ran the arcs leaving the root under it (2.2 and 3.7
 * points from its box on these two); in a cluster of its own they go
 * around the cluster's margin of 8 points.
 */
Test(ccs2dot, arcs_keep_off_the_legend, .timeout = 60)
{
	static const char *const files[] = {
		"tests/data/dot/hostile.folded",
		"tests/data/pgcl/synthetic-400.pgcl",
	};
	/* Laid out here, and by dot from the DOT text. */
	static const char *const before[] = { "-T plain ", "" };
	static const char *const after[] = { "", " | dot -Tplain" };
	struct run r;
	size_t i, k;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		for (k = 0; k < 2; k++) {
			run(&r, "ccs2dot %s%s%s | awk -f "
			    "tests/support/legend_gap.awk", before[k], files[i],
			    after[k]);
			cr_assert_eq(r.status, 0, "%s%s: %s", files[i], after[k],
			    r.err);
			cr_expect_geq(atof(r.out), 7.5, "%s%s: an arc %s points "
			    "from the legend", files[i], after[k], r.out);
			run_free(&r);
		}
}
