/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-tree: the stack tree as an indented report, in the shape of the
 * cost-centre-stack section of GHC's .prof file: one line per stack, its
 * cost centre indented one space per level, with its entries and its
 * individual and inherited costs and percentages.  Children keep the
 * order of the tree, which for a GHC report is the file's own order.
 *
 * --depth and --min-pct hide subtrees from the report without changing
 * any figure: a hidden subtree's cost stays in its parent's inherited
 * columns, and a line after the parent's shown children says how many
 * stacks were hidden there and what they cost.  The walk follows parent,
 * child and sibling links, never the C stack, so any depth works.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "xmalloc.h"

static const char usage[] =
    "ccs-tree [-m metric] [--depth N] [--min-pct P] [--tsv] [-s pat]... "
    "[-d pat]... [-f format] [-o file] [file]";

static const char helptext[] =
    "Print the stack tree as an indented report like GHC's: entries,\n"
    "individual and inherited costs and percentages of each stack.\n\n"
    "      --depth N          hide stacks deeper than level N (the root is 0)\n"
    "      --min-pct P        hide subtrees below P% of the total\n"
    "      --tsv              tab-separated output with a header line\n"
    TOOL_COMMON_HELP("show this metric alone (default: ticks and alloc)");

enum { OPT_DEPTH = OPT_TOOL_BASE, OPT_HIDE_PCT };

#define MAXSHOW	2	/* metrics in the text report */
/*
 * The widest the name column grows.  Padding every line to the deepest
 * one made a profile with one stack 5,000 deep and 10,000 shallow ones
 * a report of 76 MB; a line past this width pushes its own columns
 * right instead.
 */
#define NAMEMAX	100
#define NUMLEN	32	/* a formatted number or percentage */

struct tree {
	struct pdb	*db;
	FILE		*out;
	int64_t		*inc[MAXSHOW];	/* inclusive, of each metric shown */
	uint64_t	*size;		/* nodes in each subtree */
	unsigned	 show[MAXSHOW];	/* metrics shown */
	unsigned	 nshow;
	int64_t		 total[MAXSHOW];
	int		 entries;	/* index of "entries", or -1 */
	long long	 maxdepth;	/* -1: no limit */
	double		 minpct;	/* 0: no limit */
	struct tool_pct	 pct;		/* minpct exactly */
	int		 tsv;
	int		 measure;	/* 1: first pass, widths only */

	/* Column widths, found by the first pass. */
	int		 wl, wm, ws, we;
	int		 wv[2][MAXSHOW];	/* [individual, inherited][metric] */
	int		 wp[2][MAXSHOW];	/* their percentages */

	/* Per level (level + 1): stacks hidden under the open node there. */
	uint64_t	*hcnt;
	int64_t		*hsum;		/* level * nshow + i */
	size_t		 hcap;		/* levels allocated */

	/* The line being made (tool_line_add()). */
	struct tool_line line;
};

static int	 width(const char *);
static void	 tsv_field(FILE *, const char *);
static void	 fmt_pct(char *, int64_t, int64_t);
static const char *pct_name(const struct pdb *, unsigned, char *, size_t);
static void	 choose_metrics(struct tree *, const struct tool_common *);
static void	 subtree_sizes(struct tree *);
static int	 shown(const struct tree *, uint32_t, long long);
static void	 level_reserve(struct tree *, long long);
static void	 note_hidden(struct tree *, uint32_t, long long);
static void	 widen(int *, int);
static void	 row(struct tree *, long long, uint32_t, uint64_t,
		    const int64_t *);
static void	 walk(struct tree *);
static void	 header(struct tree *);

/* Display width of a name as tool_put_left() writes it: its columns on a
 * terminal, where GHC counts code points, with control characters escaped
 * (tool_put_text()). */
static int
width(const char *s)
{
	return tool_text_width(s);
}

/* Write s as a TSV field, escaped (tool_put_text()). */
static void
tsv_field(FILE *out, const char *s)
{
	tool_put_text(out, s, 1);
}

/*
 * A percentage with one decimal, computed in the order GHC's report does
 * (x / total * 100.0, in double), so that the rounding is GHC's too.
 */
static void
fmt_pct(char *buf, int64_t x, int64_t total)
{
	tool_fmt_tenths(buf, NUMLEN, total == 0 ? 0.0 :
	    (double)x / (double)total * 100.0);
}

static const char *
pct_name(const struct pdb *db, unsigned m, char *buf, size_t len)
{
	snprintf(buf, len, "%%%s", pdb_metric(db, m)->name);
	return buf;
}

/*
 * With -m, that metric.  Without, the default metric and, as GHC's report
 * does, the allocation beside the time when the profile has both.
 */
static void
choose_metrics(struct tree *t, const struct tool_common *c)
{
	static const char *const second[] = { "alloc", "words", "bytes" };
	size_t i;
	int m;

	t->show[0] = (unsigned)tool_metric(c, t->db);
	t->nshow = 1;
	if (c->metric != NULL || t->tsv)
		return;
	for (i = 0; i < sizeof(second) / sizeof(second[0]); i++) {
		m = pdb_metric_find(t->db, second[i]);
		if (m >= 0 && (unsigned)m != t->show[0] &&
		    pdb_metric(t->db, (unsigned)m)->kind == PDB_COST) {
			t->show[t->nshow++] = (unsigned)m;
			break;
		}
	}
}

/* Nodes in each subtree: pre-order, then each node into its parent in
 * reverse. */
static void
subtree_sizes(struct tree *t)
{
	uint32_t nn = pdb_node_count(t->db), *order, n, k = 0, i;

	order = xreallocarray(NULL, (size_t)nn + 1, sizeof(*order));
	t->size = xreallocarray(NULL, (size_t)nn + 1, sizeof(*t->size));
	for (n = pdb_walk_first(t->db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(t->db, n, NULL)) {
		order[k++] = n;
		t->size[n] = 1;
	}
	for (i = k; i-- > 1;)
		t->size[pdb_node_parent(t->db, order[i])] += t->size[order[i]];
	free(order);
}

/* Whether node n, at report level lvl, is shown. */
static int
shown(const struct tree *t, uint32_t n, long long lvl)
{
	unsigned i;

	if (t->maxdepth >= 0 && lvl > t->maxdepth)
		return 0;
	if (t->minpct <= 0)
		return 1;
	for (i = 0; i < t->nshow; i++)
		if (tool_pct_reaches(&t->pct, t->inc[i][n], t->total[i]))
			return 1;
	return 0;
}

/* Make room for the hidden-stack counters of level lvl (>= -1). */
static void
level_reserve(struct tree *t, long long lvl)
{
	size_t need = (size_t)(lvl + 2);

	if (need <= t->hcap)
		return;
	need = need < 2 * t->hcap ? 2 * t->hcap : need + 16;
	t->hcnt = xreallocarray(t->hcnt, need, sizeof(*t->hcnt));
	t->hsum = xreallocarray(t->hsum, need * t->nshow, sizeof(*t->hsum));
	t->hcap = need;
}

/* Count the hidden children of node n (at level lvl) and what they cost. */
static void
note_hidden(struct tree *t, uint32_t n, long long lvl)
{
	size_t slot = (size_t)(lvl + 1);
	uint32_t c;
	unsigned i;

	level_reserve(t, lvl);
	t->hcnt[slot] = 0;
	for (i = 0; i < t->nshow; i++)
		t->hsum[slot * t->nshow + i] = 0;
	for (c = pdb_node_first_child(t->db, n); c != PDB_NONE;
	    c = pdb_node_next_sibling(t->db, c)) {
		if (shown(t, c, lvl + 1))
			continue;
		t->hcnt[slot] += t->size[c];
		for (i = 0; i < t->nshow; i++)
			t->hsum[slot * t->nshow + i] +=
			    t->inc[i][c];
	}
}

static void
widen(int *w, int v)
{
	if (v > *w)
		*w = v;
}

/*
 * One line of the report at level lvl: node n, or when n is PDB_NONE the
 * line for hidden stacks (their number and inclusive costs).
 */
static void
row(struct tree *t, long long lvl, uint32_t n, uint64_t nhidden,
    const int64_t *hidden)
{
	const struct pdb *db = t->db;
	struct pdb_cc info;
	const int64_t *own = NULL;
	const char *label, *module = "", *src = "";
	char lab[64], ent[NUMLEN] = "", v[2][MAXSHOW][NUMLEN],
	    p[2][MAXSHOW][NUMLEN];
	int64_t x;
	long long wl;
	unsigned i, k;

	if (n != PDB_NONE) {
		pdb_cc(db, pdb_node_cc(db, n), &info);
		label = info.label;
		module = info.module;
		src = info.src;
		own = pdb_node_values(db, n);
		if (t->entries >= 0)
			tool_fmt_int(ent, sizeof(ent), own[t->entries]);
	} else {
		snprintf(lab, sizeof(lab), "... %" PRIu64 " more stack%s",
		    nhidden, nhidden == 1 ? "" : "s");
		label = lab;
	}
	for (i = 0; i < t->nshow; i++) {
		for (k = 0; k < 2; k++) {
			if (n == PDB_NONE && k == 0) {
				v[k][i][0] = p[k][i][0] = '\0';
				continue;
			}
			x = n == PDB_NONE ? hidden[i] : k == 0 ?
			    own[t->show[i]] :
			    t->inc[i][n];
			tool_fmt_int(v[k][i], NUMLEN, x);
			fmt_pct(p[k][i], x, t->total[i]);
		}
	}

	if (t->measure) {
		wl = lvl + width(label);
		widen(&t->wl, wl < NAMEMAX ? (int)wl : NAMEMAX);
		widen(&t->wm, width(module));
		widen(&t->ws, width(src));
		widen(&t->we, (int)strlen(ent));
		for (i = 0; i < t->nshow; i++)
			for (k = 0; k < 2; k++) {
				widen(&t->wv[k][i], (int)strlen(v[k][i]));
				widen(&t->wp[k][i], (int)strlen(p[k][i]));
			}
		return;
	}
	if (t->tsv) {
		fprintf(t->out, "%lld\t", lvl);
		tsv_field(t->out, module);
		putc('\t', t->out);
		tsv_field(t->out, label);
		putc('\t', t->out);
		tsv_field(t->out, src);
		fprintf(t->out, "\t%s\t%s\t%s\n", ent, v[0][0], v[1][0]);
		return;
	}
	/* As fprintf() with "%*s" would, which is most of the time of a
	 * tree of millions of lines. */
	tool_line_spaces(&t->line, (int)lvl);
	tool_line_left(&t->line, label, t->wl - (int)lvl);
	tool_line_add(&t->line, "  ", 2);
	tool_line_left(&t->line, module, t->wm);
	tool_line_add(&t->line, "  ", 2);
	tool_line_left(&t->line, src, t->ws);
	if (t->entries >= 0) {
		tool_line_add(&t->line, "  ", 2);
		tool_line_right(&t->line, ent, t->we);
	}
	for (k = 0; k < 2; k++)
		for (i = 0; i < t->nshow; i++) {
			tool_line_add(&t->line, "  ", 2);
			tool_line_right(&t->line, v[k][i], t->wv[k][i]);
			tool_line_add(&t->line, " ", 1);
			tool_line_right(&t->line, p[k][i], t->wp[k][i]);
		}
	tool_line_add(&t->line, "\n", 1);
	tool_line_flush(&t->line);
}

/*
 * The report, in pre-order.  A synthetic root (the common root of a
 * folded file) is not shown unless it has a cost of its own: its
 * children are the top level.  After the
 * shown children of a node comes the line for its hidden ones, if any.
 */
static void
walk(struct tree *t)
{
	const struct pdb *db = t->db;
	uint32_t root = 0, n, c;
	long long lvl;
	size_t slot;
	unsigned i;

	lvl = 0;
	if (pdb_cc_flags(db, pdb_node_cc(db, root)) & PDB_CC_SYNTHETIC) {
		/* Unless cost was left on it (everything de-selected). */
		lvl = -1;
		for (i = 0; i < t->nshow; i++)
			if (pdb_node_value(db, root, t->show[i]) != 0)
				lvl = 0;
	}
	n = root;
	for (;;) {
		if (lvl >= 0)
			row(t, lvl, n, 0, NULL);
		note_hidden(t, n, lvl);
		for (c = pdb_node_first_child(db, n); c != PDB_NONE &&
		    !shown(t, c, lvl + 1); c = pdb_node_next_sibling(db, c))
			;
		if (c != PDB_NONE) {
			n = c;
			lvl++;
			continue;
		}
		/* Node n is done: close it and every ancestor it ends. */
		for (;;) {
			slot = (size_t)(lvl + 1);
			if (t->hcnt[slot] > 0)
				row(t, lvl + 1, PDB_NONE, t->hcnt[slot],
				    &t->hsum[slot * t->nshow]);
			if (n == root)
				return;
			for (c = pdb_node_next_sibling(db, n);
			    c != PDB_NONE && !shown(t, c, lvl);
			    c = pdb_node_next_sibling(db, c))
				;
			if (c != PDB_NONE) {
				n = c;
				break;
			}
			n = pdb_node_parent(db, n);
			lvl--;
		}
	}
}

static void
header(struct tree *t)
{
	const struct pdb *db = t->db;
	const char *prog = pdb_meta_get(db, "program");
	char name[64];
	int gw[2] = { 0, 0 }, lead, approx = 0, comp = 0;
	unsigned i, k;

	if (t->tsv) {
		fputs("depth\tmodule\tcost_centre\tsrc\tentries\tindividual\t"
		    "inherited\n", t->out);
		return;
	}
	if (prog != NULL) {
		fputs("program: ", t->out);
		tool_put_text(t->out, prog, 0);
		putc('\n', t->out);
	}
	fputs("total:  ", t->out);
	for (i = 0; i < t->nshow; i++) {
		const struct pdb_metric *m = pdb_metric(db, t->show[i]);

		fprintf(t->out, "%s%" PRId64 " ", i > 0 ? ", " : "",
		    t->total[i]);
		tool_put_text(t->out, m->unit, 0);
		if (strcmp(m->unit, m->name) != 0) {
			fputs(" (", t->out);
			tool_put_text(t->out, m->name, 0);
			putc(')', t->out);
		}
		if (m->flags & PDB_METRIC_APPROX)
			approx = 1;
		if (pdb_ticks_compensated(db, t->show[i]))
			comp = 1;
	}
	fprintf(t->out, "%s%s\n\n", approx ?
	    "; approximate: from rounded percentages" : "", comp ?
	    "; ticks compensated for profiling overhead" : "");

	/* The column headings decide the widths as much as the values. */
	for (i = 0; i < t->nshow; i++)
		for (k = 0; k < 2; k++) {
			widen(&t->wv[k][i], width(pdb_metric(db,
			    t->show[i])->name));
			widen(&t->wp[k][i], width(pct_name(db, t->show[i],
			    name, sizeof(name))));
			gw[k] += 2 + t->wv[k][i] + 1 + t->wp[k][i];
		}
	lead = t->wl + 2 + t->wm + 2 + t->ws +
	    (t->entries >= 0 ? 2 + t->we : 0);
	fprintf(t->out, "%*s%*s%*s\n", lead, "", gw[0], "individual", gw[1],
	    "inherited");
	tool_put_left(t->out, "COST CENTRE", t->wl);
	fputs("  ", t->out);
	tool_put_left(t->out, "MODULE", t->wm);
	fputs("  ", t->out);
	tool_put_left(t->out, "SRC", t->ws);
	if (t->entries >= 0)
		fprintf(t->out, "  %*s", t->we, "entries");
	for (k = 0; k < 2; k++)
		for (i = 0; i < t->nshow; i++)
			fprintf(t->out, "  %*s %*s", t->wv[k][i],
			    pdb_metric(db, t->show[i])->name, t->wp[k][i],
			    pct_name(db, t->show[i], name, sizeof(name)));
	fputs("\n\n", t->out);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		{ "depth", required_argument, NULL, OPT_DEPTH },
		{ "min-pct", required_argument, NULL, OPT_HIDE_PCT },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	struct tree t;
	const char *path;
	char *end;
	unsigned i;
	int ch, rc;

	memset(&t, 0, sizeof(t));
	t.maxdepth = -1;
	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_SHORTOPTS, longopts,
	    NULL)) != -1) {
		if (tool_common_option(&c, ch, optarg, usage, helptext))
			continue;
		switch (ch) {
		case OPT_DEPTH:
			t.maxdepth = tool_strtonum("--depth", optarg, 0,
			    LLONG_MAX);
			break;
		case OPT_HIDE_PCT:
			t.minpct = strtod(optarg, &end);
			if (*optarg == '\0' || *end != '\0' ||
			    !(t.minpct >= 0 && t.minpct <= 100)) {
				tool_warnx("--min-pct: '%s': invalid "
				    "percentage (0 to 100)", optarg);
				tool_usage(usage);
			}
			tool_pct_set(&t.pct, optarg, t.minpct);
			break;
		case OPT_TSV:
			t.tsv = 1;
			break;
		default:
			tool_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	path = tool_one_input(argc, argv, usage);

	t.db = tool_load(&c, path, NULL);
	rc = TOOL_ERR;
	if (tool_metric_needed(&c, t.db, path) < 0)
		goto done;
	if (pdb_node_count(t.db) == 0) {
		/* An empty profile: an empty report. */
		rc = TOOL_OK;
		goto done;
	}
	choose_metrics(&t, &c);
	t.entries = pdb_metric_find(t.db, "entries");
	/* Percentages are of the whole tree, the root's inherited cost. */
	for (i = 0; i < t.nshow; i++) {
		if ((t.inc[i] = pdb_inclusive_of(t.db, t.show[i])) == NULL) {
			tool_warnx("out of memory");
			goto done;
		}
		t.total[i] = t.inc[i][0];
	}
	subtree_sizes(&t);
	t.wl = width("COST CENTRE");
	t.wm = width("MODULE");
	t.ws = width("SRC");
	t.we = width("entries");

	if ((t.out = tool_output_open(&c, 0)) == NULL)
		goto done;
	t.line.out = t.out;
	if (!t.tsv) {
		t.measure = 1;
		walk(&t);
		t.measure = 0;
	}
	header(&t);
	walk(&t);
	rc = tool_output_close(&c, t.out) == 0 ? TOOL_OK : TOOL_ERR;
done:
	for (i = 0; i < t.nshow; i++)
		free(t.inc[i]);
	free(t.size);
	tool_line_free(&t.line);
	free(t.hcnt);
	free(t.hsum);
	pdb_free(t.db);
	tool_common_free(&c);
	return rc;
}
