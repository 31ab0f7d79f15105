/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-hot: where the cost is (Morgan & Jarvis section 3): the hot stack,
 * the expensive arm from the root, and the most expensive stacks.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

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
    TOOL_COMMON_HELP;

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
		if ((part = strndup(s, (size_t)(semi - s))) == NULL) {
			tool_warnx("out of memory");
			exit(TOOL_ERR);
		}
		tool_put_text(out, part, 1);
		fputs("\\;", out);
		free(part);
		s = semi + 1;
	}
	tool_put_text(out, s, tsv);
}

/*
 * Print the stack of node n, root first, separated by ';'.  A synthetic
 * root is left out, unless it is the whole stack.
 */
static void
put_stack(FILE *out, const struct pdb *db, uint32_t n, int full, int tsv)
{
	uint32_t *path = NULL, k, d = 0;
	size_t cap = 0;

	for (k = n; k != PDB_NONE; k = pdb_node_parent(db, k)) {
		if ((pdb_cc_flags(db, pdb_node_cc(db, k)) & PDB_CC_SYNTHETIC) &&
		    (k != n || pdb_node_parent(db, k) != PDB_NONE))
			continue;
		if (pdb_buf_reserve(&path, &cap, ((size_t)d + 1) * sizeof(*path))) {
			tool_warnx("out of memory");
			exit(TOOL_ERR);
		}
		path[d++] = pdb_node_cc(db, k);
	}
	while (d-- > 0) {
		put_name(out, full ? pdb_cc_fullname(db, path[d]) :
		    pdb_cc_label(db, path[d]), tsv, 1);
		if (d > 0)
			putc(';', out);
	}
	free(path);
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
	struct pdb *db;
	const char *path;
	uint32_t hot, *arm, *top = NULL;
	int64_t *inc, total, v;
	long long ntop = 0;
	size_t narm, nt = 0, i, shown;
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

	db = tool_load(&c, path, NULL);
	if ((m = tool_metric(&c, db)) < 0)
		return TOOL_ERR;
	inc = pdb_inclusive_new(db);
	arm = malloc(((size_t)pdb_node_count(db) + 1) * sizeof(*arm));
	if (ntop > 0)
		top = malloc((size_t)ntop * sizeof(*top));
	if (inc == NULL || arm == NULL || (ntop > 0 && top == NULL)) {
		tool_warnx("out of memory");
		return TOOL_ERR;
	}
	total = inc[m];
	hot = pdb_hot_stack(db, (unsigned)m);
	narm = pdb_expensive_arm(db, inc, (unsigned)m, arm,
	    (size_t)pdb_node_count(db) + 1);
	if (ntop > 0)
		nt = pdb_top_stacks(db, (unsigned)m, top, (size_t)ntop);
	if ((out = tool_output_open(&c, 0)) == NULL)
		return TOOL_ERR;

	v = pdb_node_values(db, hot)[m];
	if (tsv) {
		fputs("stack\t", out);
		put_stack(out, db, hot, 0, 1);
		fprintf(out, "\t%" PRId64 "\n", v);
	} else {
		fprintf(out, "hot stack: %" PRId64 " ", v);
		tool_put_text(out, pdb_metric(db, (unsigned)m)->unit, 0);
		fprintf(out, ", %s%% of %" PRId64 "\n",
		    tool_fmt_pct(pct, sizeof(pct), v, total), total);
		fputs("  <", out);
		put_stack(out, db, hot, 1, 0);
		fputs(">\n\nexpensive arm (inclusive):\n", out);
	}
	for (i = 0, shown = 0; i < narm; i++) {
		uint32_t n = arm[i], cc = pdb_node_cc(db, n);

		if ((pdb_cc_flags(db, cc) & PDB_CC_SYNTHETIC) && narm > 1)
			continue;
		v = inc[(size_t)n * pdb_metric_count(db) + (unsigned)m];
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
	if (nt > 0 && !tsv)
		fprintf(out, "\ntop %zu stacks (own cost):\n", nt);
	for (i = 0; i < nt; i++) {
		v = pdb_node_values(db, top[i])[m];
		if (tsv)
			fprintf(out, "top\t%zu\t", i + 1);
		else
			fprintf(out, "  %3zu %14" PRId64 " %6s%%  ", i + 1, v,
			    tool_fmt_pct(pct, sizeof(pct), v, total));
		put_stack(out, db, top[i], !tsv, tsv);
		if (tsv)
			fprintf(out, "\t%" PRId64, v);
		putc('\n', out);
	}
	rc = tool_output_close(&c, out) == 0 ? TOOL_OK : TOOL_ERR;
	free(inc);
	free(arm);
	free(top);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
