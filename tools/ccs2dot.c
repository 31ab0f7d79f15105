/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs2dot: the call graph of a profile (Morgan & Jarvis section 3, Figs.
 * 8 and 10-13), or its stack tree, as Graphviz DOT or rendered directly
 * to SVG, PNG or PDF.  The graph is made in formats/fmt_dot.c; this file
 * parses options and reads the profile.
 *
 * The call graph without --hot or --top, and with nothing selected or
 * pruned, is drawn from the events of a format whose tree is its stream
 * (pgcl, the dump, GHC) as they are read, in memory of the cost centres
 * and arcs; folded stacks, which merge, are built into a tree when the
 * format is known, as every other drawing needs, and replayed.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common.h"
#include "fmt_dot.h"
#include "xmalloc.h"

enum {
	OPT_TREE = OPT_TOOL_BASE,
	OPT_HOT,
	OPT_HOT_ONLY,
	OPT_NONZERO,
	OPT_FOCUS,
	OPT_TOP,
	OPT_NODE_THRES,
	OPT_EDGE_THRES,
	OPT_NODECOUNT
};

static const char usage[] =
    "ccs2dot [-T format] [-m metric] [--tree] [--hot | --hot-only] "
    "[--nonzero] [--focus name]... [--top N] [--node-thres pct] "
    "[--edge-thres pct] [--nodecount N] [-s pat]... [-d pat]... "
    "[-f format] [-o file] [file]";

static const char helptext[] =
    "Draw the call graph of a profile: a node per cost centre, an arc per\n"
    "pair of cost centres adjacent on a stack, labelled with its cost and\n"
    "the number of stacks it occurs in.  Writes DOT unless -T or the -o\n"
    "file's extension asks for an image.\n\n"
    "  -T, --render FMT       dot (default), svg, png, pdf, ps, jpg, gif,\n"
    "                         xdot, json or plain, laid out by Graphviz\n"
    "      --tree             draw the stack tree: a node per stack\n"
    "      --hot              highlight the expensive arm\n"
    "      --hot-only         draw the expensive arm only\n"
    "      --nonzero          only stacks with a non-zero own cost\n"
    "      --focus NAME       only stacks through cost centres matching NAME\n"
    "      --top N            only the N most expensive stacks\n"
    "      --node-thres PCT   hide nodes below PCT% of the total (0.5)\n"
    "      --edge-thres PCT   hide arcs below PCT% of the total (0.1)\n"
    "      --nodecount N      draw at most N nodes, 0 for all (80)\n"
    TOOL_PRUNE_HELP
    TOOL_COMMON_HELP("metric to draw (default: ticks or samples)");

/* The metric drawn is there; else says why not. */
static int
metric_ok(struct tool_common *c, const struct pdb *db, const char *path)
{
	return tool_metric_needed(c, db, path) >= 0;
}

/* Output formats: the name, and whether it is binary. */
static const struct render {
	const char	*name;
	int		 binary;
} renders[] = {
	{ "dot", 0 }, { "gv", 0 }, { "svg", 0 }, { "png", 1 }, { "pdf", 1 },
	{ "ps", 0 }, { "jpg", 1 }, { "jpeg", 1 }, { "gif", 1 },
	{ "xdot", 0 }, { "json", 0 }, { "plain", 0 },
	{ NULL, 0 }
};

/* The renderer called name; in either case when it is an extension. */
static const struct render *
render_find(const char *name, int anycase)
{
	const struct render *r;

	for (r = renders; r->name != NULL; r++)
		if ((anycase ? strcasecmp(r->name, name) :
		    strcmp(r->name, name)) == 0)
			return r;
	return NULL;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		TOOL_PRUNE_LONGOPTS,
		{ "render", required_argument, NULL, 'T' },
		{ "tree", no_argument, NULL, OPT_TREE },
		{ "hot", no_argument, NULL, OPT_HOT },
		{ "hot-only", no_argument, NULL, OPT_HOT_ONLY },
		{ "nonzero", no_argument, NULL, OPT_NONZERO },
		{ "focus", required_argument, NULL, OPT_FOCUS },
		{ "top", required_argument, NULL, OPT_TOP },
		{ "node-thres", required_argument, NULL, OPT_NODE_THRES },
		{ "edge-thres", required_argument, NULL, OPT_EDGE_THRES },
		{ "nodecount", required_argument, NULL, OPT_NODECOUNT },
		{ NULL, 0, NULL, 0 }
	};
	struct pdb_dot_opts dopts = PDB_DOT_OPTS_DEFAULT;
	const struct render *render = NULL;
	struct tool_common c;
	const char **focus = NULL, *path, *ext;
	struct pdb *db;
	struct pdb_dot *w = NULL;
	size_t nfocus = 0;
	int built, ch, rc;
	FILE *out;

	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_SHORTOPTS "T:",
	    longopts, NULL)) != -1) {
		if (tool_common_option(&c, ch, optarg, usage, helptext))
			continue;
		switch (ch) {
		case 'T':
			if ((render = render_find(optarg, 0)) == NULL) {
				tool_warnx("-T: unknown output format '%s'",
				    optarg);
				tool_usage(usage);
			}
			break;
		case OPT_TREE:
			dopts.flags |= PDB_DOT_TREE;
			break;
		case OPT_HOT:
			dopts.flags |= PDB_DOT_HOT;
			break;
		case OPT_HOT_ONLY:
			dopts.flags |= PDB_DOT_HOT_ONLY;
			break;
		case OPT_NONZERO:
			dopts.flags |= PDB_DOT_NONZERO;
			break;
		case OPT_FOCUS:
			focus = xreallocarray(focus, nfocus + 1,
			    sizeof(*focus));
			focus[nfocus++] = optarg;
			break;
		case OPT_TOP:
			dopts.top = (size_t)tool_strtonum("--top", optarg, 1,
			    INT_MAX);
			break;
		case OPT_NODE_THRES:
			dopts.node_thres = tool_strtod("--node-thres",
			    optarg, 0, 100);
			break;
		case OPT_EDGE_THRES:
			dopts.edge_thres = tool_strtod("--edge-thres",
			    optarg, 0, 100);
			break;
		case OPT_NODECOUNT:
			dopts.nodecount = (size_t)tool_strtonum("--nodecount",
			    optarg, 0, INT_MAX);
			break;
		default:
			tool_usage(usage);
		}
	}
	if ((dopts.flags & PDB_DOT_HOT) && (dopts.flags & PDB_DOT_HOT_ONLY)) {
		tool_warnx("--hot and --hot-only cannot go together");
		tool_usage(usage);
	}
	argc -= optind;
	argv += optind;
	path = tool_one_input(argc, argv, usage);
	/* Without -T, the output file's extension decides; else DOT. */
	if (render == NULL && c.outpath != NULL &&
	    (ext = strrchr(c.outpath, '.')) != NULL &&
	    strchr(ext, '/') == NULL)
		render = render_find(ext + 1, 1);
	if (render == NULL)
		render = render_find("dot", 0);
	dopts.render = render->name;
	dopts.focus = focus;
	dopts.nfocus = nfocus;

	c.opts.metric = c.metric;
	c.opts.writer_opts = &dopts;
	tool_format_ready(&pdb_fmt_dot);
	if (pdb_dot_streams(&dopts) && tool_streams(&c)) {
		db = tool_pdb_new();
		if ((w = pdb_dot_new(&c.opts)) == NULL) {
			tool_warnx("out of memory");
			return TOOL_ERR;
		}
		built = tool_read_events(&c, db, path, pdb_dot_sink(w),
		    metric_ok);
		tool_no_stacks(db, built, pdb_dot_nodes(w), path);
	} else {
		db = tool_load(&c, path, NULL);
		if (!metric_ok(&c, db, path)) {
			free(focus);
			pdb_free(db);
			tool_common_free(&c);
			return TOOL_ERR;
		}
	}
	if ((out = tool_output_open(&c, render->binary)) == NULL)
		rc = TOOL_ERR;
	/* Write errors name the output, the others the input. */
	else if ((w != NULL ? pdb_dot_finish(w, out) :
	    pdb_write(db, out, &pdb_fmt_dot, &c.opts)) != PDB_OK)
		rc = tool_output_abort(&c, out, db, path);
	else
		rc = tool_output_close(&c, out) == 0 ? TOOL_OK : TOOL_ERR;
	pdb_dot_free(w);
	free(focus);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
