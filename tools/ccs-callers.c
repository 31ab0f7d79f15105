/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-callers: the inverted call graph of one cost centre (a wish of the
 * Clean notes; "all call sites" to a Haskell programmer).  Every
 * outermost occurrence of the cost centre in the stack tree contributes
 * its calling context, read from the occurrence up to the root, and its
 * inclusive cost; pdb_callers_new() merges the contexts into a tree
 * rooted at the cost centre.  The report is that tree, indented, or with
 * --folded one line per context in the folded writer's form, callee
 * first: "name;caller;caller's caller;...;root VALUE".
 *
 * The name is found as an exact label or Module.label first, then as a
 * glob.  Several cost centres that share a label and a module (GHC's
 * local definitions of the same name, Clean's repeated module names) are
 * one function to the user and are merged; otherwise several matches are
 * an error that lists them.
 *
 * The contexts are gathered from events (pdb_callers_sink()): with
 * nothing selected or pruned, a format whose tree is its stream (pgcl,
 * the dump, GHC) goes to them as it is read, in memory of the path and
 * the contexts; otherwise the tree is built and replayed.  Which cost
 * centres the name picks is known only at the end, since a later one may
 * match exactly, so a name with glob characters gathers the contexts of
 * its exact matches and of its glob matches side by side.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "xmalloc.h"

static const char usage[] =
    "ccs-callers [-m metric] [--folded | --tsv] [-s pat]... [-d pat]... "
    "[-f format] [-o file] name [file]";

static const char helptext[] =
    "Print the calling contexts of the cost centre NAME merged into a tree\n"
    "rooted at it, with the cost of each context (inclusive of callees).\n\n"
    "      --folded           one 'name;caller;...;root VALUE' line per\n"
    "                         calling context\n"
    "      --tsv              tab-separated output with a header line\n"
    TOOL_PRUNE_HELP
    TOOL_COMMON_HELP("metric to report (default: ticks or samples)");

enum { OPT_FOLDED = OPT_TOOL_BASE };

#define LISTMAX	10	/* names listed in the "ambiguous" message */

static struct pdb *relabel(struct pdb *, const uint32_t *);
static void	 tsv_field(FILE *, const char *);
static int	 cmp_children(const void *, const void *);
static void	 report(FILE *, struct pdb *, unsigned, int, uint64_t,
		    int64_t);

/*
 * The cost centres a name picks, as they first occur: those whose label
 * or Module.label is the name, or (glob) those matching it as a glob.
 * Synthetic cost centres (made up by readers) are never picked.
 */
struct pick {
	const char		*name;
	int			 glob;
	uint32_t		*found;
	size_t			 nfound, cap;
	struct pdb_callers	*callers;
};

static int
pick_cc(void *arg, const struct pdb *db, uint32_t cc)
{
	struct pick *p = arg;

	if (pdb_cc_flags(db, cc) & PDB_CC_SYNTHETIC)
		return 0;
	if (p->glob ? !pdb_cc_glob(db, cc, p->name) :
	    strcmp(pdb_cc_label(db, cc), p->name) != 0 &&
	    strcmp(pdb_cc_fullname(db, cc), p->name) != 0)
		return 0;
	if (p->nfound == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 16;
		p->found = xreallocarray(p->found, p->cap, sizeof(*p->found));
	}
	p->found[p->nfound++] = cc;
	return 1;
}

static int
cmp_cc(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/*
 * The events go to the exact and the glob gatherers alike, and the total
 * of the metric shown and the root's cost centre are noted on the way.
 */
struct gather {
	struct tool_common	*c;
	const char		*path;	/* the input, "-" for stdin */
	struct pick		 pick[2];	/* exact, glob */
	unsigned		 npick;
	const struct pdb_sink	*to[2];
	struct pdb_sink		 sink;
	int			 m;	/* metric shown; -1: none yet */
	uint32_t		 root_cc;
	uint64_t		 nodes, total;
};

static int
g_begin(void *arg, struct pdb *db)
{
	struct gather *g = arg;
	unsigned i;
	int rc;

	if ((g->m = tool_metric_needed(g->c, db, g->path)) < 0)
		return PDB_ESTOP;	/* it said why */
	for (i = 0; i < g->npick; i++)
		if ((rc = g->to[i]->begin(g->to[i]->arg, db)) != 0)
			return rc;
	return 0;
}

static int
g_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *values)
{
	struct gather *g = arg;
	unsigned i;
	int rc;

	for (i = 0; i < g->npick; i++)
		if ((rc = g->to[i]->enter(g->to[i]->arg, db, cc, values)) != 0)
			return rc;
	if (g->nodes++ == 0)
		g->root_cc = cc;
	if (g->m >= 0 && values != NULL)
		g->total += (uint64_t)values[g->m];
	return 0;
}

static int
g_exit(void *arg, struct pdb *db)
{
	struct gather *g = arg;
	unsigned i;
	int rc;

	for (i = 0; i < g->npick; i++)
		if ((rc = g->to[i]->exit(g->to[i]->arg, db)) != 0)
			return rc;
	return 0;
}

static int
g_nodes(void *arg, struct pdb *db, const struct pdb_batch *b, size_t *done)
{
	struct gather *g = arg;
	unsigned i;
	size_t k;
	int rc;

	for (i = 0; i < g->npick; i++)
		if ((rc = g->to[i]->nodes(g->to[i]->arg, db, b, done)) != 0)
			return rc;
	if (b->n > 0 && g->nodes == 0)
		g->root_cc = b->cc[0];
	g->nodes += b->n;
	for (k = 0; g->m >= 0 && k < b->n; k++)
		g->total += (uint64_t)b->values[k * b->stride + (size_t)g->m];
	return 0;
}

/*
 * Gather the contexts of name from path: streamed, or from the tree of
 * the selection and pruning options.  Exits on error; returns db.
 */
static struct pdb *
gather(struct tool_common *c, const char *path, const char *name,
    struct gather *g)
{
	struct pdb *db;
	unsigned i;
	int built, rc;

	memset(g, 0, sizeof(*g));
	g->c = c;
	g->path = path;
	g->m = -1;
	g->npick = strpbrk(name, "*?[\\") != NULL ? 2 : 1;
	for (i = 0; i < g->npick; i++) {
		g->pick[i].name = name;
		g->pick[i].glob = (int)i;
		if ((g->pick[i].callers = pdb_callers_stream_new(pick_cc,
		    &g->pick[i])) == NULL)
			nomem();
		g->to[i] = pdb_callers_sink(g->pick[i].callers);
	}
	g->sink.begin = g_begin;
	g->sink.enter = g_enter;
	g->sink.exit = g_exit;
	g->sink.nodes = g_nodes;
	g->sink.arg = g;
	if (tool_streams(c)) {
		db = tool_pdb_new();
		built = tool_read_events(c, db, path, &g->sink, NULL);
		tool_no_stacks(db, built, g->nodes, path);
	} else {
		db = tool_load(c, path, NULL);
		if ((rc = pdb_replay(db, &g->sink)) == PDB_ESTOP)
			exit(TOOL_ERR);
		if (rc != PDB_OK) {
			tool_pdberr(db);
			exit(TOOL_ERR);
		}
	}
	return db;
}

/*
 * A copy of db's tree with every node's cost centre replaced by map[cc];
 * a node whose map is PDB_NONE is dropped and its own values go to its
 * parent (used for leaves only: its children would stay with it).
 */
static struct pdb *
relabel(struct pdb *db, const uint32_t *map)
{
	struct pdb *out;
	uint32_t *image, n, nn = pdb_node_count(db), cc;

	if ((out = pdb_clone_empty(db)) == NULL)
		nomem();
	image = xreallocarray(NULL, (size_t)nn + 1, sizeof(*image));
	for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL)) {
		cc = map[pdb_node_cc(db, n)];
		if (n == 0) {
			if (pdb_root_new(out, cc == PDB_NONE ?
			    pdb_node_cc(db, n) : cc, &image[n]) != PDB_OK)
				goto fail;
		} else if (cc == PDB_NONE)
			image[n] = image[pdb_node_parent(db, n)];
		else if (pdb_node_append(out, image[pdb_node_parent(db, n)], cc,
		    &image[n]) != PDB_OK)
			goto fail;
		if (pdb_node_add_values(out, image[n],
		    pdb_node_values(db, n)) != PDB_OK)
			goto fail;
	}
	free(image);
	return out;
fail:
	tool_pdberr(out);
	exit(TOOL_ERR);
}

/* Write s as a TSV field, escaped (tool_put_text()). */
static void
tsv_field(FILE *out, const char *s)
{
	tool_put_text(out, s, 1);
}

struct child {
	uint32_t	 node;
	int64_t		 value;
};

/* Costliest first; ties keep the order the contexts were found in. */
static int
cmp_children(const void *a, const void *b)
{
	const struct child *x = a, *y = b;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/*
 * The callers tree ct, in pre-order with each node's children costliest
 * first, as an indented table or as TSV.  An explicit stack of nodes
 * still to print replaces recursion.
 */
static void
report(FILE *out, struct pdb *ct, unsigned m, int tsv, uint64_t merged,
    int64_t all)
{
	const struct pdb_metric *metric = pdb_metric(ct, m);
	struct child *kids = NULL;
	int64_t *inc, total, v;
	uint32_t *todo, *depth, nn = pdb_node_count(ct), n, c;
	size_t ntodo = 0, nkids, capkids = 0, i;
	char pct[32];
	struct pdb_cc info;

	/* Inclusive values of m only: a parent's number is below its
	 * children's, so one pass from the last node adds them up. */
	inc = xreallocarray(NULL, (size_t)nn + 1, sizeof(*inc));
	for (n = 0; n < nn; n++)
		inc[n] = pdb_node_value(ct, n, m);
	for (n = nn; n-- > 1;)
		inc[pdb_node_parent(ct, n)] = (int64_t)(
		    (uint64_t)inc[pdb_node_parent(ct, n)] + (uint64_t)inc[n]);
	total = inc[0];
	todo = xreallocarray(NULL, (size_t)nn + 1, sizeof(*todo));
	depth = xreallocarray(NULL, (size_t)nn + 1, sizeof(*depth));
	if (tsv)
		fputs("depth\tmodule\tcost_centre\tsrc\tinclusive\n", out);
	else {
		/* A count metric is named: a profile may have several. */
		tool_put_text(out, pdb_cc_fullname(ct, pdb_node_cc(ct, 0)), 0);
		fprintf(out, ": %" PRId64 " %s%s, %s%% of the total %" PRId64
		    "%s\n", total,
		    metric->kind == PDB_COUNT ? metric->name : metric->unit,
		    metric->kind == PDB_COUNT ? "" : " inherited",
		    tool_fmt_pct(pct, sizeof(pct), total, all), all,
		    pdb_metric_qualifiers(ct, m));
		if (merged > 1)
			fprintf(out, "  (%" PRIu64 " cost centres of this name "
			    "merged)\n", merged);
		fprintf(out, "\ncalling contexts, each caller under its callee "
		    "(%s, %% of %" PRId64 "):\n", metric->name, total);
	}
	todo[ntodo++] = 0;
	depth[0] = 0;
	while (ntodo > 0) {
		n = todo[--ntodo];
		v = inc[n];
		pdb_cc(ct, pdb_node_cc(ct, n), &info);
		if (tsv) {
			fprintf(out, "%" PRIu32 "\t", depth[n]);
			tsv_field(out, info.module);
			putc('\t', out);
			tsv_field(out, info.label);
			putc('\t', out);
			/* Merged cost centres have a source each: none is
			 * the one of level 0. */
			tsv_field(out, n == 0 && merged > 1 ? "" : info.src);
			fprintf(out, "\t%" PRId64 "\n", v);
		} else {
			fprintf(out, "  %14" PRId64 " %6s%%  %*s", v,
			    tool_fmt_pct(pct, sizeof(pct), v, total),
			    (int)depth[n], "");
			tool_put_text(out, pdb_cc_fullname(ct,
			    pdb_node_cc(ct, n)), 0);
			putc('\n', out);
		}
		nkids = 0;
		for (c = pdb_node_first_child(ct, n); c != PDB_NONE;
		    c = pdb_node_next_sibling(ct, c)) {
			if (nkids == capkids) {
				capkids = capkids ? 2 * capkids : 64;
				kids = xreallocarray(kids, capkids,
				    sizeof(*kids));
			}
			kids[nkids].node = c;
			kids[nkids++].value = inc[c];
		}
		if (nkids > 1)
			qsort(kids, nkids, sizeof(*kids), cmp_children);
		for (i = nkids; i-- > 0;) {
			depth[kids[i].node] = depth[n] + 1;
			todo[ntodo++] = kids[i].node;
		}
	}
	free(kids);
	free(depth);
	free(todo);
	free(inc);
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		TOOL_PRUNE_LONGOPTS,
		{ "folded", no_argument, NULL, OPT_FOLDED },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	struct gather g;
	struct pick *p;
	struct pdb *db, *ct = NULL, *t;
	const char *name, *path, *file;
	uint32_t *found, *map = NULL, cc, i, ncc;
	size_t nfound;
	int ch, folded = 0, tsv = 0, m, rc;
	FILE *out;

	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_SHORTOPTS, longopts,
	    NULL)) != -1) {
		if (tool_common_option(&c, ch, optarg, usage, helptext))
			continue;
		switch (ch) {
		case OPT_FOLDED:
			folded = 1;
			break;
		case OPT_TSV:
			tsv = 1;
			break;
		default:
			tool_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	if (folded && tsv) {
		tool_warnx("--folded and --tsv cannot go together");
		tool_usage(usage);
	}
	if (argc < 1) {
		tool_warnx("no cost centre given");
		tool_usage(usage);
	}
	if (argc > 2) {
		tool_warnx("one input at most, not %d", argc - 1);
		tool_usage(usage);
	}
	name = argv[0];
	path = argc == 2 ? argv[1] : "-";
	tool_input_from(path, usage);
	file = tool_input_name(path);

	db = gather(&c, path, name, &g);
	rc = TOOL_ERR;
	m = g.m;

	/* The exact matches, or failing any, the glob's, by number. */
	p = &g.pick[g.pick[0].nfound == 0 && g.npick > 1];
	found = p->found;
	nfound = p->nfound;
	if (nfound == 0) {
		tool_warnx("%s: no cost centre '%s'", file, name);
		goto done;
	}
	qsort(found, nfound, sizeof(*found), cmp_cc);
	for (i = 1; i < nfound; i++)
		if (strcmp(pdb_cc_label(db, found[i]),
		    pdb_cc_label(db, found[0])) != 0 ||
		    strcmp(pdb_cc_module(db, found[i]),
		    pdb_cc_module(db, found[0])) != 0)
			break;
	if (i < nfound) {
		fprintf(stderr, "%s: %s: ambiguous: '%s' matches %zu cost "
		    "centres:", tool_progname, file, name, nfound);
		for (i = 0; i < nfound && i < LISTMAX; i++) {
			fputs(i > 0 ? ", " : " ", stderr);
			tool_put_text(stderr, pdb_cc_fullname(db, found[i]), 0);
		}
		fprintf(stderr, "%s\n", nfound > LISTMAX ? ", ..." : "");
		goto done;
	}

	/* Same-named cost centres were gathered as one, rooted at the
	 * first; a synthetic root is dropped from the contexts (it is the
	 * last caller of each). */
	if ((ct = pdb_callers_tree(p->callers, db, found[0])) == NULL) {
		tool_pdberr(db);
		goto done;
	}
	if (pdb_cc_flags(db, g.root_cc) & PDB_CC_SYNTHETIC) {
		ncc = pdb_cc_count(db);
		map = xreallocarray(NULL, ncc, sizeof(*map));
		for (cc = 0; cc < ncc; cc++)
			map[cc] = cc;
		map[g.root_cc] = PDB_NONE;
		t = relabel(ct, map);
		pdb_free(ct);
		ct = t;
	}

	if (folded) {
		c.outformat = &pdb_fmt_folded;
		rc = tool_write_profile(&c, ct);
		goto done;
	}
	if ((out = tool_output_open(&c, 0)) == NULL)
		goto done;
	report(out, ct, (unsigned)m, tsv, nfound, (int64_t)g.total);
	rc = tool_output_close(&c, out) == 0 ? TOOL_OK : TOOL_ERR;
done:
	free(map);
	for (i = 0; i < g.npick; i++) {
		free(g.pick[i].found);
		pdb_callers_free(g.pick[i].callers);
	}
	pdb_free(ct);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
