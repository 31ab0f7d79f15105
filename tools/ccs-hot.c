/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-hot: where the cost is (Morgan & Jarvis section 3): the hot stack,
 * the expensive arm from the root, and the most expensive stacks.  With
 * nothing selected or pruned it streams, in memory that does not grow
 * with the profile: any input in a format whose tree is its stream
 * (pgcl, dump, GHC), and folded stacks from a file when their stream is
 * in tree order (hot/stream.c); otherwise it builds the tree.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "hot/hot.h"
#include "xmalloc.h"

#define ARM_INDENT	64	/* deepest indent of the expensive arm */

static const char usage[] =
    "ccs-hot [-m metric] [-n N] [--tsv] [-s pat]... [-d pat]... "
    "[-f format] [-o file] [file]";

static const char helptext[] =
    "Print the hot stack (largest own cost), the expensive arm (from the\n"
    "root, the child of largest inclusive cost each time) and, with -n, the\n"
    "N most expensive stacks.\n\n"
    "  -n, --top N            also list the N most expensive stacks\n"
    "      --tsv              tab-separated output\n"
    TOOL_PRUNE_HELP
    TOOL_COMMON_HELP("metric to report (default: ticks or samples)");

/*
 * Write a name, escaped (tool_put_text()): on one line, without control
 * characters; in --tsv output backslashes are escaped too, and in stacks
 * ';' as folded files do, so every record stays one line and every frame
 * one field.
 */
static void
put_name(FILE *out, const char *s, int tsv, int in_stack)
{
	const char *semi;
	char *part;

	while (tsv && in_stack && (semi = strchr(s, ';')) != NULL) {
		if ((part = strndup(s, (size_t)(semi - s))) == NULL)
			nomem();
		tool_put_text(out, part, 1);
		fputs("\\;", out);
		free(part);
		s = semi + 1;
	}
	tool_put_text(out, s, tsv);
}

/*
 * Print a stack, root first, separated by ';'.  A synthetic root is left
 * out, unless it is the whole stack.
 */
static void
put_path(FILE *out, const struct pdb *db, const struct stackv *st, int full,
    int tsv)
{
	size_t i;
	int first = 1;

	for (i = 0; i < st->len; i++) {
		if ((pdb_cc_flags(db, st->cc[i]) & PDB_CC_SYNTHETIC) &&
		    st->len > 1)
			continue;
		if (!first)
			putc(';', out);
		first = 0;
		put_name(out, full ? pdb_cc_fullname(db, st->cc[i]) :
		    pdb_cc_label(db, st->cc[i]), tsv, 1);
	}
}

/* The stack of node n of a tree, with its own value of m. */
static void
node_stack(const struct pdb *db, uint32_t n, unsigned m, struct stackv *st)
{
	uint32_t k;
	size_t d = 0;

	st->len = 0;
	for (k = n; k != PDB_NONE; k = pdb_node_parent(db, k))
		st->len++;
	st->cc = xmalloc(st->len * sizeof(*st->cc));
	for (k = n; k != PDB_NONE; k = pdb_node_parent(db, k))
		st->cc[st->len - ++d] = pdb_node_cc(db, k);
	st->v = pdb_node_values(db, n)[m];
}

/*
 * From the tree: after a selection or pruning, or for formats whose
 * tree is built by merging stacks.  Beside the tree, 8 bytes a node for
 * the inclusive values of m; the arm and the list take memory for their
 * own lengths.
 */
static void
from_tree(const struct pdb *db, unsigned m, size_t ntop, struct result *res)
{
	uint32_t *arm, *top = NULL;
	int64_t *inc;
	size_t i;

	if (ntop > pdb_node_count(db))
		ntop = pdb_node_count(db);
	if ((inc = pdb_inclusive_of(db, m)) == NULL ||
	    (top = malloc((ntop > 0 ? ntop : 1) * sizeof(*top))) == NULL)
		nomem();
	res->total = inc[0];
	/*
	 * The hot stack is the first of the list when its cost is
	 * positive: one walk of the tree, not two.
	 */
	res->ntop = pdb_top_stacks(db, m, top, ntop > 0 ? ntop : 1);
	node_stack(db, res->ntop > 0 && pdb_node_value(db, top[0], m) > 0 ?
	    top[0] : pdb_hot_stack(db, m), m, &res->hot);
	if (ntop == 0)
		res->ntop = 0;
	/* Its length first, then the arm. */
	res->narm = pdb_expensive_arm_of(db, inc, NULL, 0);
	arm = xmalloc((res->narm + 1) * sizeof(*arm));
	(void)pdb_expensive_arm_of(db, inc, arm, res->narm);
	res->armcc = xmalloc(res->narm * sizeof(*res->armcc));
	res->arminc = xmalloc(res->narm * sizeof(*res->arminc));
	for (i = 0; i < res->narm; i++) {
		res->armcc[i] = pdb_node_cc(db, arm[i]);
		res->arminc[i] = inc[arm[i]];
	}
	free(inc);
	free(arm);
	res->top = xmalloc((res->ntop + 1) * sizeof(*res->top));
	for (i = 0; i < res->ntop; i++)
		node_stack(db, top[i], m, &res->top[i]);
	free(top);
}


int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		TOOL_PRUNE_LONGOPTS,
		{ "top", required_argument, NULL, 'n' },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	struct result res;
	struct pdb *db;
	const char *path;
	enum how how;
	int64_t total, v;
	long long ntop = 0;
	size_t i, shown;
	char pct[32];
	int ch, rc, tsv = 0, m;
	FILE *out;

	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_SHORTOPTS "n:",
	    longopts, NULL)) != -1) {
		if (tool_common_option(&c, ch, optarg, usage, helptext))
			continue;
		switch (ch) {
		case 'n':
			ntop = tool_strtonum("-n", optarg, 0, INT_MAX);
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
	path = tool_one_input(argc, argv, usage);

	memset(&res, 0, sizeof(res));
	how = AGAIN;
	db = NULL;
	/* Selection and pruning need the tree. */
	if (tool_streams(&c)) {
		db = tool_pdb_new();
		if ((how = hot_stream(&c, db, path, (size_t)ntop, &res)) ==
		    AGAIN) {
			pdb_free(db);
			db = NULL;
		}
	}
	if (db == NULL)
		db = tool_load(&c, path, NULL);
	if ((m = tool_metric_needed(&c, db, path)) < 0) {
		rc = TOOL_ERR;
		goto done;
	}
	if (how != STREAMED)
		from_tree(db, (unsigned)m, (size_t)ntop, &res);
	total = res.total;
	if ((out = tool_output_open(&c, 0)) == NULL) {
		rc = TOOL_ERR;
		goto done;
	}

	v = res.hot.v;
	if (tsv) {
		fputs("stack\t", out);
		put_path(out, db, &res.hot, 0, 1);
		fprintf(out, "\t%" PRId64 "\n", v);
	} else {
		fprintf(out, "hot stack: %" PRId64 " ", v);
		tool_put_text(out, pdb_metric(db, (unsigned)m)->unit, 0);
		/* As ccs-flat and ccs-callers say what the numbers are. */
		fprintf(out, ", %s%% of %" PRId64 "%s\n",
		    tool_fmt_pct(pct, sizeof(pct), v, total), total,
		    pdb_metric_qualifiers(db, (unsigned)m));
		fputs("  <", out);
		put_path(out, db, &res.hot, 1, 0);
		fputs(">\n\nexpensive arm (inclusive):\n", out);
	}
	for (i = 0, shown = 0; i < res.narm; i++) {
		uint32_t cc = res.armcc[i];

		if ((pdb_cc_flags(db, cc) & PDB_CC_SYNTHETIC) && res.narm > 1)
			continue;
		v = res.arminc[i];
		if (tsv) {
			fputs("arm\t", out);
			put_name(out, pdb_cc_label(db, cc), 1, 0);
			fprintf(out, "\t%" PRId64 "\n", v);
		} else {
			/* The indent stops growing: arms can be deep. */
			fprintf(out, "  %14" PRId64 " %6s%%  %*s", v,
			    tool_fmt_pct(pct, sizeof(pct), v, total),
			    (int)(shown < ARM_INDENT ? shown : ARM_INDENT), "");
			put_name(out, pdb_cc_fullname(db, cc), 0, 0);
			putc('\n', out);
		}
		shown++;
	}
	if (res.ntop > 0 && !tsv)
		fprintf(out, "\ntop %zu stacks (own cost):\n", res.ntop);
	for (i = 0; i < res.ntop; i++) {
		v = res.top[i].v;
		if (tsv)
			fprintf(out, "top\t%zu\t", i + 1);
		else
			fprintf(out, "  %3zu %14" PRId64 " %6s%%  ", i + 1, v,
			    tool_fmt_pct(pct, sizeof(pct), v, total));
		put_path(out, db, &res.top[i], !tsv, tsv);
		if (tsv)
			fprintf(out, "\t%" PRId64, v);
		putc('\n', out);
	}
	rc = tool_output_close(&c, out) == 0 ? TOOL_OK : TOOL_ERR;
done:
	free(res.hot.cc);
	for (i = 0; i < res.ntop; i++)
		free(res.top[i].cc);
	free(res.top);
	free(res.armcc);
	free(res.arminc);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
