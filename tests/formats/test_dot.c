/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Tests of the Graphviz writer (formats/fmt_dot.c), through pdb_write():
 * the call graph of the paper's Fig. 7 against Figs. 8-12 (nodes, the
 * inherited column of Fig. 9, arcs with the number of stacks each occurs
 * in, counted by hand from Fig. 7's twenty stacks), the stack tree, the
 * expensive arm, focus and thresholds, arc counts and costs against a
 * brute-force count on random profiles whose stacks repeat cost centres,
 * cost centres sharing a label, names that try to break DOT or SVG, the
 * rendered formats, and a million-node profile cut to --nodecount.
 *
 * Every DOT text is read back with cgraph (agmemread); SVG is parsed with
 * libxml2.
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cgraph.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "fmt_dot.h"
#include "formats_int.h"
#include "pdb.h"
#include "testutil.h"

#define FIG7		"tests/data/paper/fig7.folded"
#define THETA		"tests/data/paper/s2.3-theta.folded"
#define MJ		"tests/data/ghc/mj.P.prof"
#define HOSTILE		"tests/data/dot/hostile.folded"

/* ---- helpers ---- */

/* Write db with the writer options o (NULL: none) and metric m. */
static char *
write_dot(struct pdb *db, const struct pdb_dot_opts *o, const char *m,
    size_t *lenp)
{
	struct pdb_opts opts = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	opts.metric = m;
	opts.writer_opts = o;
	f = open_memstream(&buf, &len);
	cr_assert(f != NULL);
	rc = pdb_write(db, f, &pdb_fmt_dot, &opts);
	cr_assert(fclose(f) == 0);
	cr_assert_eq(rc, PDB_OK, "pdb_write: %s", pdb_errmsg(db));
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

/* Read DOT text back with cgraph; fails the test if it does not parse. */
static Agraph_t *
parse_dot(const char *text)
{
	Agraph_t *g = agmemread(text);

	cr_assert(g != NULL, "cgraph cannot read:\n%s", text);
	return g;
}

/* Line k of a label value whose lines are separated by "\n" escapes. */
static const char *
label_line(const char *v, int k)
{
	static char buf[512];
	const char *e;
	size_t n;

	for (; k > 0; k--) {
		if ((v = strstr(v, "\\n")) == NULL)
			return "";
		v += 2;
	}
	e = strstr(v, "\\n");
	n = e ? (size_t)(e - v) : strlen(v);
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return buf;
}

/* The node whose label starts with line name; NULL if none. */
static Agnode_t *
node_named(Agraph_t *g, const char *name)
{
	Agnode_t *n, *found = NULL;

	for (n = agfstnode(g); n != NULL; n = agnxtnode(g, n)) {
		if (strcmp(agnameof(n), "legend") == 0)
			continue;
		if (strcmp(label_line(agget(n, "label"), 0), name) == 0) {
			cr_assert(found == NULL, "two nodes named %s", name);
			found = n;
		}
	}
	return found;
}

/* v as labels show it, its digits in groups of three; four calls may
 * share a printf. */
static const char *
grouped(int64_t v)
{
	static char ring[4][32];
	static int next;
	char *out = ring[next++ & 3], digits[24];
	int n = snprintf(digits, sizeof(digits), "%" PRId64, v), i, o = 0;

	for (i = 0; i < n; i++) {
		out[o++] = digits[i];
		if (digits[i] != '-' && i + 1 < n && (n - 1 - i) % 3 == 0)
			out[o++] = ',';
	}
	out[o] = '\0';
	return out;
}

/* s without the commas that group digits, for sscanf(). */
static const char *
ungrouped(const char *s)
{
	static char buf[1024];
	size_t n = 0;

	for (; *s != '\0' && n + 1 < sizeof(buf); s++)
		if (*s != ',')
			buf[n++] = *s;
	buf[n] = '\0';
	return buf;
}

static const char *
label(void *obj)
{
	static char buf[1024];
	const char *v = agget(obj, "label");
	size_t n = 0;

	if (v == NULL)
		return "";
	if (agobjkind(obj) != AGOUTEDGE && agobjkind(obj) != AGINEDGE)
		return v;
	/* An arc's lines, without the spaces that keep them off the arc
	 * (arc_label_padded checks those). */
	while (*v != '\0' && n + 1 < sizeof(buf)) {
		if (*v == ' ' && (n == 0 || (n >= 2 && buf[n - 2] == '\\' &&
		    buf[n - 1] == 'n'))) {
			v++;
			continue;
		}
		buf[n++] = *v++;
	}
	buf[n] = '\0';
	return buf;
}

/* Cost-centre nodes (the legend aside). */
static int
ccnodes(Agraph_t *g)
{
	return agnnodes(g) - (agnode(g, "legend", 0) != NULL);
}

static const char *
legend_text(Agraph_t *g)
{
	Agnode_t *n = agnode(g, "legend", 0);

	cr_assert(n != NULL, "no legend node");
	return label(n);
}

static struct pdb_dot_opts
all_opts(void)
{
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;

	o.node_thres = 0;
	o.edge_thres = 0;
	o.nodecount = 0;
	return o;
}

/* ---- the paper's Fig. 7 ---- */

/* Fig. 9: inherited ticks, and its %time column. */
static const struct {
	const char	*name;
	int64_t		 self, inh;
	const char	*pct;
} fig9[] = {
	{ "Main_main", 0, 1237, "100.0" },
	{ "Main_a", 0, 1237, "100.0" },
	{ "Main_b", 0, 49, "4.0" },
	{ "Main_c", 0, 1188, "96.0" },
	{ "Main_d", 0, 23, "1.9" },
	{ "Main_e", 0, 26, "2.1" },
	{ "Main_f", 0, 1188, "96.0" },
	{ "Main_g", 0, 49, "4.0" },
	{ "Main_h", 0, 1181, "95.5" },
	{ "Main_i", 0, 7, "0.6" },
	{ "Main_j", 0, 1209, "97.7" },
	{ "Main_rev", 1237, 1237, "100.0" },
};

/*
 * The arcs of Fig. 8, counted by hand over Fig. 7's twenty stacks (every
 * prefix of the six lines of fig7.folded is one of them): the arc from
 * Main_a to Main_c is in the stack <c,a,main> and in the six above it.
 * cost: the ticks of the stacks with the arc; nz: the number of those
 * stacks with non-zero ticks (Fig. 12).
 */
static const struct {
	const char	*from, *to;
	int		 stacks, nz;
	int64_t		 cost;
	const char	*pct;
} fig8[] = {
	{ "Main_main", "Main_a", 19, 6, 1237, "100.0" },
	{ "Main_a", "Main_c", 7, 2, 1188, "96.0" },
	{ "Main_a", "Main_b", 11, 4, 49, "4.0" },
	{ "Main_c", "Main_f", 6, 2, 1188, "96.0" },
	{ "Main_f", "Main_h", 3, 1, 1181, "95.5" },
	{ "Main_f", "Main_i", 2, 1, 7, "0.6" },
	{ "Main_h", "Main_j", 2, 1, 1181, "95.5" },
	{ "Main_j", "Main_rev", 3, 3, 1209, "97.7" },
	{ "Main_i", "Main_rev", 1, 1, 7, "0.6" },
	{ "Main_b", "Main_e", 5, 2, 26, "2.1" },
	{ "Main_b", "Main_d", 5, 2, 23, "1.9" },
	{ "Main_e", "Main_g", 4, 2, 26, "2.1" },
	{ "Main_d", "Main_g", 4, 2, 23, "1.9" },
	{ "Main_g", "Main_j", 4, 2, 28, "2.3" },
	{ "Main_g", "Main_rev", 2, 2, 21, "1.7" },
};

#define NFIG9	(int)(sizeof(fig9) / sizeof(fig9[0]))
#define NFIG8	(int)(sizeof(fig8) / sizeof(fig8[0]))

static void
check_fig8(Agraph_t *g, int nonzero)
{
	char want[128];
	Agnode_t *t, *h;
	Agedge_t *e;
	int i, n;

	cr_expect_eq(agnedges(g), NFIG8, "%d arcs, want %d", agnedges(g),
	    NFIG8);
	for (i = 0; i < NFIG8; i++) {
		t = node_named(g, fig8[i].from);
		h = node_named(g, fig8[i].to);
		cr_assert(t != NULL && h != NULL, "no node %s or %s",
		    fig8[i].from, fig8[i].to);
		e = agedge(g, t, h, NULL, 0);
		cr_assert(e != NULL, "no arc %s -> %s", fig8[i].from,
		    fig8[i].to);
		n = nonzero ? fig8[i].nz : fig8[i].stacks;
		snprintf(want, sizeof(want), "%s (%s%%)\\n%d stack%s",
		    grouped(fig8[i].cost), fig8[i].pct, n, n == 1 ? "" : "s");
		cr_expect_str_eq(label(e), want, "arc %s -> %s", fig8[i].from,
		    fig8[i].to);
	}
}

static void
check_fig9(Agraph_t *g)
{
	char want[256];
	Agnode_t *n;
	int i;

	cr_expect_eq(ccnodes(g), NFIG9, "%d nodes, want %d", ccnodes(g),
	    NFIG9);
	for (i = 0; i < NFIG9; i++) {
		n = node_named(g, fig9[i].name);
		cr_assert(n != NULL, "no node %s", fig9[i].name);
		snprintf(want, sizeof(want), "%s\\nself %s (%s%%)\\ninherited "
		    "%s (%s%%)", fig9[i].name, grouped(fig9[i].self),
		    fig9[i].self ? "100.0" : "0.0", grouped(fig9[i].inh),
		    fig9[i].pct);
		cr_expect_str_eq(label(n), want, "node %s", fig9[i].name);
	}
}

Test(dot, fig7_call_graph_is_fig8_and_fig10)
{
	struct pdb *db = load_tree(FIG7);
	char *text = write_dot(db, NULL, NULL, NULL);
	Agraph_t *g = parse_dot(text);

	cr_expect(agisdirected(g));
	check_fig9(g);
	check_fig8(g, 0);
	cr_expect(strstr(legend_text(g), "total 1,237 samples") != NULL,
	    "legend: %s", legend_text(g));
	cr_expect(strstr(legend_text(g), "graph of all 20 stacks") != NULL,
	    "legend: %s", legend_text(g));
	agclose(g);
	free(text);
	pdb_free(db);
}

/* Fig. 12: only the six stacks of non-zero cost count. */
Test(dot, fig7_nonzero_is_fig12)
{
	struct pdb *db = load_tree(FIG7);
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;
	char *text;
	Agraph_t *g;

	o.flags = PDB_DOT_NONZERO;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	check_fig9(g);
	check_fig8(g, 1);
	cr_expect(strstr(legend_text(g), "graph of 6 of 20 stacks, non-zero")
	    != NULL, "legend: %s", legend_text(g));
	agclose(g);
	free(text);
	pdb_free(db);
}

/* Fig. 11: the most expensive stack alone. */
Test(dot, fig7_top1_is_fig11)
{
	static const char *arm[] = { "Main_main", "Main_a", "Main_c",
	    "Main_f", "Main_h", "Main_j", "Main_rev" };
	struct pdb *db = load_tree(FIG7);
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;
	Agnode_t *t, *h;
	Agedge_t *e;
	char *text;
	Agraph_t *g;
	size_t i;

	o.top = 1;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	cr_expect_eq(ccnodes(g), 7);
	cr_expect_eq(agnedges(g), 6);
	for (i = 1; i < sizeof(arm) / sizeof(arm[0]); i++) {
		t = node_named(g, arm[i - 1]);
		h = node_named(g, arm[i]);
		cr_assert(t && h, "no %s or %s", arm[i - 1], arm[i]);
		e = agedge(g, t, h, NULL, 0);
		cr_assert(e != NULL, "no arc %s -> %s", arm[i - 1], arm[i]);
		cr_expect_str_eq(label(e), "1,181 (95.5%)\\n1 stack");
	}
	agclose(g);
	free(text);
	pdb_free(db);
}

/* The expensive arm: highlighted among all nodes, or alone. */
Test(dot, fig7_hot_and_hot_only)
{
	struct pdb *db = load_tree(FIG7);
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;
	const char *pe;
	Agnode_t *n;
	Agedge_t *e;
	char *text;
	Agraph_t *g;
	int hot = 0, hotarcs = 0;

	o.flags = PDB_DOT_HOT;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	cr_expect_eq(ccnodes(g), 12);
	for (n = agfstnode(g); n != NULL; n = agnxtnode(g, n)) {
		pe = agget(n, "peripheries");
		hot += pe != NULL && strcmp(pe, "2") == 0;
		for (e = agfstout(g, n); e != NULL; e = agnxtout(g, e))
			hotarcs += agget(e, "style") != NULL &&
			    strcmp(agget(e, "style"), "bold") == 0;
	}
	cr_expect_eq(hot, 7, "%d hot nodes, want 7", hot);
	cr_expect_eq(hotarcs, 6, "%d hot arcs, want 6", hotarcs);
	cr_expect(strstr(agget(node_named(g, "Main_h"), "peripheries"), "2"));
	cr_expect_str_neq(agget(node_named(g, "Main_g"), "peripheries"), "2");
	agclose(g);
	free(text);

	o.flags = PDB_DOT_HOT_ONLY;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	cr_expect_eq(ccnodes(g), 7);
	cr_expect_eq(agnedges(g), 6);
	cr_expect(node_named(g, "Main_b") == NULL);
	cr_expect(node_named(g, "Main_h") != NULL);
	/* The arm's arcs keep the counts of the whole graph. */
	cr_expect_str_eq(label(agedge(g, node_named(g, "Main_a"),
	    node_named(g, "Main_c"), NULL, 0)), "1,188 (96.0%)\\n7 stacks");
	agclose(g);
	free(text);
	pdb_free(db);
}

/* --focus: the stacks through Main_j, and only they count. */
Test(dot, fig7_focus)
{
	static const char *const focus[] = { "Main_j" };
	struct pdb *db = load_tree(FIG7);
	struct pdb_dot_opts o = all_opts();
	char *text;
	Agraph_t *g;

	o.focus = focus;
	o.nfocus = 1;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	cr_expect_eq(ccnodes(g), 11, "%d nodes", ccnodes(g));
	cr_expect(node_named(g, "Main_i") == NULL);
	cr_expect(agedge(g, node_named(g, "Main_g"),
	    node_named(g, "Main_rev"), NULL, 0) == NULL);
	cr_expect_str_eq(label(agedge(g, node_named(g, "Main_main"),
	    node_named(g, "Main_a"), NULL, 0)), "1,209 (97.7%)\\n6 stacks");
	cr_expect_str_eq(label(agedge(g, node_named(g, "Main_a"),
	    node_named(g, "Main_b"), NULL, 0)), "28 (2.3%)\\n4 stacks");
	cr_expect_str_eq(label(agedge(g, node_named(g, "Main_j"),
	    node_named(g, "Main_rev"), NULL, 0)), "1,209 (97.7%)\\n3 stacks");
	/* Node values stay those of the whole profile. */
	cr_expect(strstr(label(node_named(g, "Main_b")), "inherited 49 ") !=
	    NULL);
	agclose(g);
	free(text);
	pdb_free(db);
}

Test(dot, focus_without_match_is_an_error)
{
	static const char *const focus[] = { "nosuch*" };
	struct pdb *db = load_tree(FIG7);
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;
	struct pdb_opts opts = { 0 };
	FILE *f = tmpfile();

	o.focus = focus;
	o.nfocus = 1;
	opts.writer_opts = &o;
	cr_assert(f != NULL);
	cr_expect_eq(pdb_write(db, f, &pdb_fmt_dot, &opts), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db),
	    "no cost centre matches focus 'nosuch*'");
	fclose(f);
	pdb_free(db);
}

/* --tree: Fig. 7's twenty stacks as twenty nodes. */
Test(dot, fig7_tree)
{
	struct pdb *db = load_tree(FIG7);
	struct pdb_dot_opts o = all_opts();
	Agnode_t *n;
	char *text;
	Agraph_t *g;
	int revs = 0;

	o.flags = PDB_DOT_TREE;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	cr_expect_eq(ccnodes(g), 20);
	cr_expect_eq(agnedges(g), 19);
	for (n = agfstnode(g); n != NULL; n = agnxtnode(g, n))
		if (strcmp(label_line(label(n), 0), "Main_rev") == 0)
			revs++;
	cr_expect_eq(revs, 6, "%d Main_rev stacks, want 6", revs);
	cr_expect(strstr(text, "\"Main_h\\nself 0 (0.0%)\\ninclusive 1,181 "
	    "(95.5%)\"") != NULL, "%s", text);
	agclose(g);
	free(text);

	/* --nodecount 5 keeps the expensive top of the tree, ties going
	 * to the stack first in pre-order; all the own cost is hidden. */
	o.nodecount = 5;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	cr_expect_eq(ccnodes(g), 5);
	cr_expect_eq(agnedges(g), 4);
	cr_expect(strstr(legend_text(g), "15 stacks hidden, 100.0% self cost")
	    != NULL, "legend: %s", legend_text(g));
	agclose(g);
	free(text);
	pdb_free(db);
}

/* Thresholds and --nodecount, and the legend that sums what is hidden. */
Test(dot, thresholds_and_legend)
{
	struct pdb *db = load_tree(THETA);
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;
	char *text;
	Agraph_t *g;

	/* a=90 b=60 c=60 inherited; self a 20 b 10 c 60 (DESIGN.md). */
	o.nodecount = 2;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	cr_expect_eq(ccnodes(g), 2);
	cr_expect(node_named(g, "a") != NULL);
	cr_expect(strstr(legend_text(g), "1 cost centre hidden, ") != NULL,
	    "legend: %s", legend_text(g));
	agclose(g);
	free(text);

	o.nodecount = 80;
	o.node_thres = 70;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	cr_expect_eq(ccnodes(g), 1);
	cr_expect(strstr(legend_text(g), "2 cost centres hidden, 77.8% self "
	    "cost") != NULL, "legend: %s", legend_text(g));
	agclose(g);
	free(text);

	/* The edge threshold hides an arc, but never the only way into a
	 * drawn node. */
	o.node_thres = 0;
	o.edge_thres = 50;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	cr_expect_eq(ccnodes(g), 3);
	cr_expect(agedge(g, node_named(g, "a"), node_named(g, "b"), NULL, 0)
	    != NULL);
	cr_expect(agedge(g, node_named(g, "b"), node_named(g, "c"), NULL, 0)
	    != NULL);
	cr_expect(agedge(g, node_named(g, "a"), node_named(g, "c"), NULL, 0)
	    == NULL, "the arc a -> c (10 of 90) is below 50%%");
	cr_expect(strstr(legend_text(g), "1 arc hidden") != NULL, "legend: %s",
	    legend_text(g));
	agclose(g);
	free(text);
	pdb_free(db);
}

/* GHC's many CAFs: one label, several cost centres, several nodes. */
Test(dot, same_label_stays_two_nodes)
{
	struct pdb *db = pdb_new();
	uint32_t mmain, mghc, root, c1, c2, c3, n;
	int64_t v;
	unsigned m;
	Agnode_t *gn;
	char *text;
	Agraph_t *g;
	int cafs = 0;

	cr_assert(db != NULL);
	cr_assert_eq(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m), 0);
	cr_assert_eq(pdb_module_add(db, "MAIN", &mmain), 0);
	cr_assert_eq(pdb_cc_add(db, "MAIN", mmain, "", 0, 1, &root), 0);
	cr_assert_eq(pdb_module_add(db, "Main", &mmain), 0);
	cr_assert_eq(pdb_module_add(db, "GHC.IO", &mghc), 0);
	cr_assert_eq(pdb_cc_add(db, "CAF", mmain, "", PDB_CC_CAF, 2, &c1), 0);
	cr_assert_eq(pdb_cc_add(db, "CAF", mmain, "", PDB_CC_CAF, 3, &c2), 0);
	cr_assert_eq(pdb_cc_add(db, "CAF", mghc, "", PDB_CC_CAF, 4, &c3), 0);
	cr_assert_eq(pdb_root_new(db, root, &n), 0);
	cr_assert_eq(pdb_node_append(db, 0, c1, &n), 0);
	v = 5;
	pdb_node_add_values(db, n, &v);
	cr_assert_eq(pdb_node_append(db, 0, c2, &n), 0);
	v = 3;
	pdb_node_add_values(db, n, &v);
	cr_assert_eq(pdb_node_append(db, 0, c3, &n), 0);
	v = 2;
	pdb_node_add_values(db, n, &v);

	text = write_dot(db, NULL, NULL, NULL);
	g = parse_dot(text);
	cr_expect_eq(ccnodes(g), 4);
	cr_expect_eq(agnedges(g), 3);
	for (gn = agfstnode(g); gn != NULL; gn = agnxtnode(g, gn))
		cafs += strcmp(label_line(label(gn), 0), "CAF") == 0;
	cr_expect_eq(cafs, 3);
	cr_expect(strstr(text, "\"CAF\\nMain\\nself 5 (50.0%)") != NULL);
	cr_expect(strstr(text, "\"CAF\\nMain\\nself 3 (30.0%)") != NULL);
	cr_expect(strstr(text, "\"CAF\\nGHC.IO\\nself 2 (20.0%)") != NULL);
	agclose(g);
	free(text);
	pdb_free(db);
}

/* A count metric is not inherited: nodes show their own entries. */
Test(dot, count_metric)
{
	struct pdb *db = load_tree(MJ);
	char *text = write_dot(db, NULL, "entries", NULL);
	Agraph_t *g = parse_dot(text);
	Agnode_t *rev = node_named(g, "rev");

	cr_assert(rev != NULL);
	cr_expect(strncmp(label(rev), "rev\\nMain\\nentries 8,924 (", 26) == 0,
	    "%s", label(rev));
	cr_expect(strstr(label(rev), "inherited") == NULL);
	agclose(g);
	free(text);
	pdb_free(db);
}

/* ---- arcs against a brute-force count ---- */

#define RCC	7	/* cost centres f0..f5 and the root, r */

/* A profile of ticks over the RCC cost centres, with the root r alone,
 * and rand() seeded. */
static struct pdb *
rcc_root(unsigned seed)
{
	struct pdb *db = pdb_new();
	uint32_t mod, cc, n, i;
	unsigned m;
	char name[8];

	srand(seed);
	cr_assert(db != NULL);
	cr_assert_eq(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m), 0);
	cr_assert_eq(pdb_module_add(db, "", &mod), 0);
	for (i = 0; i < RCC; i++) {
		snprintf(name, sizeof(name), i == RCC - 1 ? "r" : "f%u", i);
		cr_assert_eq(pdb_cc_add(db, name, mod, "", 0, -1, &cc), 0);
	}
	cr_assert_eq(pdb_root_new(db, RCC - 1, &n), 0);
	return db;
}

/*
 * A random tree of nn nodes over RCC cost centres, built without
 * compression, so that a stack can repeat a cost centre and even an arc
 * (f1;f2;f1;f2).
 */
static struct pdb *
random_profile(unsigned seed, uint32_t nn)
{
	struct pdb *db = rcc_root(seed);
	uint32_t n, i, p;
	int64_t v;

	for (i = 1; i < nn; i++) {
		p = rand() % 3 ? i - 1 - (uint32_t)rand() % (i < 4 ? i : 4) :
		    (uint32_t)rand() % i;
		cr_assert_eq(pdb_node_append(db, p, (uint32_t)rand() % RCC,
		    &n), 0);
		v = rand() % 3 == 0 ? 0 : rand() % 10;
		pdb_node_add_values(db, n, &v);
	}
	return db;
}

struct brute {
	int64_t		 self[RCC], inh[RCC];
	int64_t		 acost[RCC][RCC];
	int		 astacks[RCC][RCC];
	int		 present[RCC];
};

/* Count every stack (or only the non-zero ones) by walking its path. */
static void
brute_force(struct pdb *db, int nonzero, struct brute *b)
{
	uint32_t n, k, path[4096];
	int seen[RCC], aseen[RCC][RCC];
	size_t d, i;
	int64_t v;

	memset(b, 0, sizeof(*b));
	for (n = 0; n < pdb_node_count(db); n++) {
		v = pdb_node_value(db, n, 0);
		b->self[pdb_node_cc(db, n)] += v;
		d = 0;
		for (k = n; k != PDB_NONE; k = pdb_node_parent(db, k)) {
			cr_assert(d < 4096);
			path[d++] = pdb_node_cc(db, k);
		}
		memset(seen, 0, sizeof(seen));
		memset(aseen, 0, sizeof(aseen));
		for (i = 0; i < d; i++) {
			if (!seen[path[i]])
				b->inh[path[i]] += v;
			seen[path[i]] = 1;
		}
		if (nonzero && v == 0)
			continue;
		for (i = 0; i < d; i++)
			b->present[path[i]] = 1;
		/* path[] runs from the top down: path[i + 1] calls path[i]. */
		for (i = 0; i + 1 < d; i++) {
			if (aseen[path[i + 1]][path[i]])
				continue;
			aseen[path[i + 1]][path[i]] = 1;
			b->astacks[path[i + 1]][path[i]]++;
			b->acost[path[i + 1]][path[i]] += v;
		}
	}
}

static uint32_t
cc_of(Agnode_t *n)
{
	unsigned u;

	cr_assert(sscanf(agnameof(n), "cc%u", &u) == 1, "node %s",
	    agnameof(n));
	cr_assert(u < RCC);
	return u;
}

static void
check_random(unsigned seed, int nonzero)
{
	struct pdb *db = random_profile(seed, 300);
	struct pdb_dot_opts o = all_opts();
	struct brute b;
	Agnode_t *n;
	Agedge_t *e;
	uint32_t f, t, cc;
	int64_t self, inh, cost;
	int nodes = 0, arcs = 0, wantarcs = 0, stacks;
	const char *l;
	char *text;
	Agraph_t *g;

	o.flags = nonzero ? PDB_DOT_NONZERO : 0;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	brute_force(db, nonzero, &b);
	for (n = agfstnode(g); n != NULL; n = agnxtnode(g, n)) {
		if (strcmp(agnameof(n), "legend") == 0)
			continue;
		cc = cc_of(n);
		nodes++;
		cr_expect(b.present[cc], "seed %u: node %u not on a stack",
		    seed, cc);
		l = ungrouped(label(n));
		cr_assert(sscanf(strstr(l, "self "), "self %" SCNd64, &self)
		    == 1, "%s", l);
		cr_assert(sscanf(strstr(l, "inherited "), "inherited %" SCNd64,
		    &inh) == 1, "%s", l);
		cr_expect_eq(self, b.self[cc], "seed %u: cc %u self", seed, cc);
		cr_expect_eq(inh, b.inh[cc], "seed %u: cc %u inherited", seed,
		    cc);
		for (e = agfstout(g, n); e != NULL; e = agnxtout(g, e)) {
			f = cc;
			t = cc_of(aghead(e));
			arcs++;
			cr_assert(sscanf(ungrouped(label(e)), "%" SCNd64, &cost)
			    == 1);
			cr_assert(sscanf(strstr(label(e), "\\n") + 2, "%d",
			    &stacks) == 1);
			cr_expect_eq(stacks, b.astacks[f][t],
			    "seed %u: arc %u->%u: %d stacks, want %d", seed, f,
			    t, stacks, b.astacks[f][t]);
			cr_expect_eq(cost, b.acost[f][t],
			    "seed %u: arc %u->%u: cost %" PRId64 ", want %"
			    PRId64, seed, f, t, cost, b.acost[f][t]);
			cr_expect_leq(cost, b.inh[t]);
			cr_expect_leq(cost, b.inh[f]);
		}
	}
	for (f = 0; f < RCC; f++) {
		nodes -= b.present[f];
		for (t = 0; t < RCC; t++)
			wantarcs += b.astacks[f][t] > 0;
	}
	cr_expect_eq(nodes, 0, "seed %u: node count off by %d", seed, nodes);
	cr_expect_eq(arcs, wantarcs, "seed %u: %d arcs, want %d", seed, arcs,
	    wantarcs);
	agclose(g);
	free(text);
	pdb_free(db);
}

Test(dot, random_arcs_match_brute_force)
{
	unsigned seed;

	for (seed = 1; seed <= 20; seed++) {
		check_random(seed, 0);
		check_random(seed, 1);
	}
}

/* ---- names that try to break things ---- */

struct texts {
	char		*s;
	size_t		 len, cap;
};

/* Collect the <text> elements under x (the SVG is only a few deep). */
static void
collect_texts(xmlNodePtr x, struct texts *t)
{
	xmlChar *s;

	for (; x != NULL; x = x->next) {
		if (x->type != XML_ELEMENT_NODE)
			continue;
		cr_expect(xmlStrcasecmp(x->name, BAD_CAST "script") != 0,
		    "a <script> element in the SVG");
		if (xmlStrcmp(x->name, BAD_CAST "text") == 0) {
			s = xmlNodeGetContent(x);
			cr_assert(pdb_buf_reserve(&t->s, &t->cap, t->len +
			    strlen((char *)s) + 2) == 0);
			t->len += (size_t)sprintf(t->s + t->len, "%s\n", s);
			xmlFree(s);
		} else
			collect_texts(x->children, t);
	}
}

/* Every <text> of an SVG document, each followed by '\n', after a '\n'. */
static char *
svg_texts(const char *svg, size_t len)
{
	xmlDocPtr doc = xmlReadMemory(svg, (int)len, "graph.svg", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOWARNING);
	struct texts t = { 0 };

	cr_assert(doc != NULL, "the SVG is not well-formed XML");
	cr_assert(pdb_buf_reserve(&t.s, &t.cap, 2) == 0);
	t.len = (size_t)sprintf(t.s, "\n");
	collect_texts(xmlDocGetRootElement(doc), &t);
	xmlFreeDoc(doc);
	return t.s;
}

/* The names of hostile.folded, as a reader must see them on the graph. */
static const char *const shown[] = {
	"a\"b", "back\\slash", "trail\\", "nl\\nx",
	"<script>alert(1)</script>", "{brace}|<port>", "&lt;amp&amp;",
	"caf\xc3\xa9\xe2\x86\x92\xe6\x97\xa5\xe6\x9c\xac", "\\N\\G\\l\\",
	"quote\\\"", "x;y\\ttab", "bad\\xFF\\xFE",
};

static void
check_shown(const char *texts, const char *how)
{
	char want[128];
	size_t i;

	for (i = 0; i < sizeof(shown) / sizeof(shown[0]); i++) {
		snprintf(want, sizeof(want), "\n%s\n", shown[i]);
		cr_expect(strstr(texts, want) != NULL, "%s: '%s' not shown in:"
		    "\n%s", how, shown[i], texts);
	}
}

Test(dot, hostile_names)
{
	struct pdb *db = load_tree(HOSTILE);
	struct pdb_dot_opts o = all_opts();
	struct run r;
	char *text, *svg, *texts, *path;
	size_t len;
	Agraph_t *g;

	/* DOT that cgraph and dot(1) read, with one node per name. */
	text = write_dot(db, &o, NULL, &len);
	g = parse_dot(text);
	cr_expect_eq(ccnodes(g), 13, "%d nodes", ccnodes(g));
	agclose(g);
	path = write_temp(text, len, ".dot");
	run(&r, "dot -Tsvg '%s' -o '%s.svg'", path, path);
	cr_expect_eq(r.status, 0, "dot -Tsvg: %s", r.err);
	run_free(&r);
	free(text);
	text = malloc(strlen(path) + 5);
	sprintf(text, "%s.svg", path);
	svg = slurp(text, &len);
	cr_assert(svg != NULL);
	texts = svg_texts(svg, len);
	check_shown(texts, "dot -Tsvg");
	unlink(text);
	unlink(path);
	free(texts);
	free(svg);
	free(text);
	free(path);

	/* The same through gvc. */
	o.render = "svg";
	svg = write_dot(db, &o, NULL, &len);
	texts = svg_texts(svg, len);
	check_shown(texts, "gvRender");
	free(texts);
	free(svg);
	pdb_free(db);
}

/* ---- rendering ---- */

Test(dot, render_magic)
{
	static const struct {
		const char	*fmt;
		const char	*magic;
		size_t		 len;
	} want[] = {
		{ "svg", "<?xml", 5 },
		{ "png", "\x89PNG\r\n\x1a\n", 8 },
		{ "pdf", "%PDF-", 5 },
		{ "dot", "digraph callgraph {", 19 },
	};
	struct pdb *db = load_tree(FIG7);
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;
	char *out;
	size_t i, len;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		o.render = want[i].fmt;
		out = write_dot(db, &o, NULL, &len);
		cr_expect_gt(len, 100, "%s: %zu bytes", want[i].fmt, len);
		cr_expect(len >= want[i].len && memcmp(out, want[i].magic,
		    want[i].len) == 0, "%s: bad magic", want[i].fmt);
		if (strcmp(want[i].fmt, "svg") == 0)
			cr_expect(strstr(out, ">Main_rev</text>") != NULL);
		free(out);
	}
	pdb_free(db);
}

Test(dot, render_unknown_format)
{
	struct pdb *db = load_tree(FIG7);
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;
	struct pdb_opts opts = { 0 };
	FILE *f = tmpfile();

	o.render = "nosuchformat";
	opts.writer_opts = &o;
	cr_assert(f != NULL);
	cr_expect_eq(pdb_write(db, f, &pdb_fmt_dot, &opts), PDB_EUNSUPP);
	cr_expect(strstr(pdb_errmsg(db), "graphviz cannot render "
	    "'nosuchformat'") != NULL, "%s", pdb_errmsg(db));
	fclose(f);
	pdb_free(db);
}

/* ---- size ---- */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A million nodes over 5000 cost centres, deep and bushy at once. */
static struct pdb *
million(void)
{
	struct pdb *db = pdb_new();
	uint32_t mod, cc, n, i, p;
	unsigned m;
	char name[16];
	int64_t v;

	srand(42);
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
	return db;
}

Test(dot, million_nodes_capped, .timeout = 120)
{
	struct pdb *db = million();
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;
	double t;
	char *text;
	Agraph_t *g;

	t = now();
	text = write_dot(db, NULL, NULL, NULL);
	t = now() - t;
	g = parse_dot(text);
	cr_expect_leq(ccnodes(g), PDB_DOT_NODECOUNT, "%d nodes", ccnodes(g));
	cr_expect_gt(ccnodes(g), 10);
	cr_expect(agnode(g, "legend", 0) != NULL);
	cr_expect(strstr(legend_text(g), "graph of all 1,000,000 stacks") !=
	    NULL, "%s", legend_text(g));
	cr_expect_lt(t, 10.0, "call graph of 1e6 nodes took %.2f s", t);
	agclose(g);
	free(text);

	o.flags = PDB_DOT_TREE;
	o.nodecount = 30;
	t = now();
	text = write_dot(db, &o, NULL, NULL);
	t = now() - t;
	g = parse_dot(text);
	cr_expect_leq(ccnodes(g), 30, "%d nodes", ccnodes(g));
	cr_expect_gt(ccnodes(g), 1);
	cr_expect_lt(t, 10.0, "tree of 1e6 nodes took %.2f s", t);
	agclose(g);
	free(text);

	/* Rendering stays quick because the graph is small. */
	o.flags = PDB_DOT_HOT;
	o.nodecount = PDB_DOT_NODECOUNT;
	o.render = "svg";
	t = now();
	text = write_dot(db, &o, NULL, NULL);
	t = now() - t;
	cr_expect(strncmp(text, "<?xml", 5) == 0);
	cr_expect_lt(t, 20.0, "SVG of 1e6 nodes took %.2f s", t);
	free(text);
	pdb_free(db);
}

/*
 * Numbers are read, not parsed: digits go in groups of three, a minus
 * sign outside them.  An arc's lines start with spaces that keep them
 * off the arc, more for a wider pen.
 */
Test(dot, numbers_grouped_and_arcs_padded)
{
	static const struct { const char *name; int64_t v; } kid[] = {
		{ "big", 1234567 }, { "neg", -1000 }, { "small", 999 },
	};
	struct pdb_dot_opts o = all_opts();
	struct pdb *db = pdb_new();
	uint32_t mod, cc, root, n;
	unsigned m, i;
	int64_t zero = 0;
	char *text;
	Agraph_t *g;
	const char *l;

	cr_assert(db != NULL);
	cr_assert_eq(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m), 0);
	cr_assert_eq(pdb_module_add(db, "M", &mod), 0);
	cr_assert_eq(pdb_cc_add(db, "main", mod, "", 0, -1, &cc), 0);
	cr_assert_eq(pdb_root_new(db, cc, &root), 0);
	pdb_node_add_values(db, root, &zero);
	for (i = 0; i < 3; i++) {
		cr_assert_eq(pdb_cc_add(db, kid[i].name, mod, "", 0, -1, &cc),
		    0);
		cr_assert_eq(pdb_node_append(db, root, cc, &n), 0);
		pdb_node_add_values(db, n, &kid[i].v);
	}
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	cr_expect(strstr(legend_text(g), "total 1,234,566 ticks") != NULL,
	    "%s", legend_text(g));
	cr_expect_str_eq(agget(node_named(g, "big"), "label"),
	    "big\\nM\\nself 1,234,567 (100.0%)\\ninherited 1,234,567 (100.0%)");
	cr_expect_str_eq(agget(node_named(g, "neg"), "label"),
	    "neg\\nM\\nself -1,000 (-0.1%)\\ninherited -1,000 (-0.1%)");
	l = agget(agedge(g, node_named(g, "main"), node_named(g, "big"),
	    NULL, 0), "label");
	cr_expect_str_eq(l, "  1,234,567 (100.0%)\\n  1 stack");
	l = agget(agedge(g, node_named(g, "main"), node_named(g, "small"),
	    NULL, 0), "label");
	cr_expect_str_eq(l, " 999 (0.1%)\\n 1 stack");
	cr_expect(strstr(legend_text(g), "graph of all 4 stacks\\l4 cost "
	    "centres, 3 arcs shown") != NULL, "%s", legend_text(g));
	agclose(g);
	free(text);
	pdb_free(db);
}

/* ---- no node drawn without its caller ---- */

/* Whether node n has an arc in from another node. */
static int
has_caller(Agraph_t *g, Agnode_t *n)
{
	Agedge_t *e;

	for (e = agfstin(g, n); e != NULL; e = agnxtin(g, e))
		if (agtail(e) != n)
			return 1;
	return 0;
}

/*
 * As random_profile(), but a cost centre calls only the next one or two
 * in turn (f5 calls f0 and f1), and the root only f0: most are far from
 * the root, and hidden callers are between.
 */
static struct pdb *
layered_profile(unsigned seed, uint32_t nn)
{
	struct pdb *db = rcc_root(seed);
	uint32_t cc, n, i, p, pcc;
	int64_t v;

	for (i = 1; i < nn; i++) {
		p = rand() % 4 ? i - 1 : (uint32_t)rand() % i;
		pcc = pdb_node_cc(db, p);
		cc = pcc == RCC - 1 ? 0 : (pcc + 1 + (uint32_t)rand() % 2) %
		    (RCC - 1);
		cr_assert_eq(pdb_node_append(db, p, cc, &n), 0);
		v = rand() % 3 == 0 ? 0 : rand() % 10;
		pdb_node_add_values(db, n, &v);
	}
	return db;
}

/*
 * However few nodes are kept, every drawn cost centre but the root is
 * joined to a caller: by its arc, or by a dashed arc through hidden
 * callers, labelled with the cost of an arc into it and how many it
 * passes.
 */
Test(dot, every_drawn_node_has_a_caller)
{
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;
	unsigned seed, root, dashed = 0, x;
	size_t count;
	struct brute b;
	Agnode_t *n;
	Agedge_t *e;
	int64_t cost;
	int hops, found, rootdrawn, roots = 0;
	struct pdb *db;
	char *text;
	Agraph_t *g;

	for (seed = 1; seed <= 150; seed++) {
		db = seed % 2 ? layered_profile(seed, 300) :
		    random_profile(seed, 300);
		brute_force(db, 0, &b);
		root = pdb_node_cc(db, 0);
		o.nodecount = 1 + seed % 4;
		text = write_dot(db, &o, NULL, NULL);
		g = parse_dot(text);
		rootdrawn = 0;
		for (n = agfstnode(g); n != NULL; n = agnxtnode(g, n))
			rootdrawn |= strcmp(agnameof(n), "legend") != 0 &&
			    cc_of(n) == root;
		roots += rootdrawn;
		for (n = agfstnode(g); n != NULL; n = agnxtnode(g, n)) {
			if (strcmp(agnameof(n), "legend") == 0 ||
			    cc_of(n) == root)
				continue;
			/* Without the root, a node may have no drawn
			 * cost centre above it (ties go by index). */
			if (rootdrawn)
				cr_expect(has_caller(g, n), "seed %u: %s "
				    "floats", seed, agnameof(n));
			for (e = agfstin(g, n); e != NULL; e = agnxtin(g, e)) {
				if (agget(e, "style") == NULL ||
				    strcmp(agget(e, "style"), "dashed") != 0)
					continue;
				dashed++;
				cr_assert(sscanf(ungrouped(label(e)), "%" SCNd64,
				    &cost) == 1);
				cr_assert(sscanf(strstr(label(e), "through ") +
				    8, "%d", &hops) == 1, "%s", label(e));
				cr_expect(hops >= 1);
				for (found = 0, x = 0; x < RCC; x++)
					found |= x != cc_of(n) &&
					    b.astacks[x][cc_of(n)] > 0 &&
					    b.acost[x][cc_of(n)] == cost;
				cr_expect(found, "seed %u: %s", seed, label(e));
			}
		}
		count = strstr(legend_text(g), "dashed arc") != NULL;
		cr_expect_eq(count, strstr(text, "style=dashed") != NULL,
		    "seed %u: %s", seed, legend_text(g));
		agclose(g);
		free(text);
		pdb_free(db);
	}
	/* Small node counts do make the case. */
	cr_expect(roots > 50 && dashed >= 5, "%d with the root, %u dashed "
	    "arcs", roots, dashed);

	/* mj: rev under CAF, through h and j. */
	db = load_tree(MJ);
	o.nodecount = 3;
	text = write_dot(db, &o, NULL, NULL);
	cr_expect(strstr(text, "label=\"  46 (97.9%)\\n  through 2 hidden\""
	    ) != NULL, "%s", text);
	cr_expect(strstr(text, "at most 3 nodes") != NULL, "%s", text);
	free(text);
	o.nodecount = 1;
	text = write_dot(db, &o, NULL, NULL);
	cr_expect(strstr(text, "at most 1 node\\l") != NULL, "%s", text);
	free(text);
	pdb_free(db);
}

/* How many nodes have a label starting with line name. */
static int
named(Agraph_t *g, const char *name)
{
	Agnode_t *n;
	int k = 0;

	for (n = agfstnode(g); n != NULL; n = agnxtnode(g, n))
		k += strcmp(agnameof(n), "legend") != 0 &&
		    strcmp(label_line(agget(n, "label"), 0), name) == 0;
	return k;
}

/*
 * A count is not inherited, but the way down to a much-entered stack
 * is drawn with it: the call graph picks cost centres by their inherited
 * count, the tree stacks by the largest count below them.  Both keep
 * the root, and each drawn node has its caller.
 */
Test(dot, counts_keep_the_way_from_the_root)
{
	static const char *const files[] = { MJ, "tests/data/ghc/clausify.prof" };
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;
	struct pdb *db;
	Agnode_t *n;
	Agraph_t *g;
	char *text;
	size_t i;
	int tree, nodes;

	for (i = 0; i < 2; i++)
		for (tree = 0; tree < 2; tree++) {
			db = load_tree(files[i]);
			o.flags = tree ? PDB_DOT_TREE : 0;
			text = write_dot(db, &o, "entries", NULL);
			g = parse_dot(text);
			nodes = 0;
			for (n = agfstnode(g); n != NULL;
			    n = agnxtnode(g, n)) {
				if (strcmp(agnameof(n), "legend") == 0)
					continue;
				nodes++;
				if (strcmp(label_line(label(n), 0), "MAIN") ==
				    0)
					cr_expect(agfstin(g, n) == NULL);
				else
					cr_expect(has_caller(g, n), "%s %s: %s",
					    files[i], tree ? "tree" : "graph",
					    label(n));
			}
			cr_expect(named(g, "MAIN") == 1, "%s", text);
			cr_expect(named(g, "rev") + named(g, "disin") > 0,
			    "%s", text);
			cr_expect(nodes >= 4, "%s: %d nodes", files[i], nodes);
			agclose(g);
			free(text);
			pdb_free(db);
		}
}

/* --tree --focus draws the matching stacks whatever they cost. */
Test(dot, tree_focus_drawn_whatever_the_thresholds)
{
	static const char *const focus[] = { "GHC.IO.Encoding.CAF" };
	struct pdb_dot_opts o = PDB_DOT_OPTS_DEFAULT;
	struct pdb *db = load_tree("tests/data/ghc/clausify.prof");
	char *text;
	Agraph_t *g;
	Agnode_t *n;

	o.flags = PDB_DOT_TREE;
	o.focus = focus;
	o.nfocus = 1;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	n = node_named(g, "CAF");
	cr_assert(n != NULL, "%s", text);
	cr_expect_str_eq(label_line(label(n), 1), "GHC.IO.Encoding");
	cr_expect(has_caller(g, n));
	agclose(g);
	free(text);
	pdb_free(db);
}

/* ---- colours that read ---- */

/* The WCAG 2 relative luminance of "#rrggbb", "white" or "black". */
static double
luminance(const char *c)
{
	unsigned v[3];
	double l[3];
	int i;

	if (strcmp(c, "white") == 0)
		return 1.0;
	if (strcmp(c, "black") == 0)
		return 0.0;
	cr_assert(sscanf(c, "#%2x%2x%2x", &v[0], &v[1], &v[2]) == 3, "%s", c);
	for (i = 0; i < 3; i++) {
		l[i] = v[i] / 255.0;
		l[i] = l[i] <= 0.03928 ? l[i] / 12.92 :
		    pow((l[i] + 0.055) / 1.055, 2.4);
	}
	return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
}

static double
contrast(const char *fg, const char *bg)
{
	double a = luminance(fg), b = luminance(bg);

	return a > b ? (a + 0.05) / (b + 0.05) : (b + 0.05) / (a + 0.05);
}

/*
 * Every node's text on its fill, and every arc's label on the white
 * page, keeps WCAG's 4.5:1 for small text over the whole heat scale:
 * white on the yellow middle had 1.6:1, yellow labels on white 1.5:1.
 */
Test(dot, text_contrasts_with_its_ground)
{
	struct pdb_dot_opts o = all_opts();
	struct pdb *db = random_profile(3, 4000);
	char *text;
	Agraph_t *g;
	Agnode_t *n;
	Agedge_t *e;
	int nodes = 0, arcs = 0;

	o.node_thres = o.edge_thres = 0;
	o.flags |= PDB_DOT_TREE;
	text = write_dot(db, &o, NULL, NULL);
	g = parse_dot(text);
	for (n = agfstnode(g); n != NULL; n = agnxtnode(g, n)) {
		if (strcmp(agnameof(n), "legend") == 0)
			continue;
		cr_expect(contrast(agget(n, "fontcolor"),
		    agget(n, "fillcolor")) >= 4.5, "%s on %s",
		    agget(n, "fontcolor"), agget(n, "fillcolor"));
		nodes++;
		for (e = agfstout(g, n); e != NULL; e = agnxtout(g, e)) {
			cr_expect(contrast(agget(e, "fontcolor"), "white") >=
			    4.5, "%s on white", agget(e, "fontcolor"));
			arcs++;
		}
	}
	/* Enough stacks to span the scale. */
	cr_expect(nodes > 100 && arcs > 100, "%d nodes, %d arcs", nodes, arcs);
	agclose(g);
	free(text);
	pdb_free(db);
}
