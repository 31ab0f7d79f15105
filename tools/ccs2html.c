/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs2html: one self-contained HTML file to explore a profile in a
 * browser: the stack tree, the flat and inherited table, selection,
 * thresholds, search, hot paths, callers and a flame graph.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "fmt_html.h"

/*
 * A page of more stacks opens slowly, if at all: ten million take a
 * browser some 8 s and 2.5 GB, and a page of some 20 million more than
 * a browser will hold (BENCHMARKS.md).
 */
#define MAX_STACKS_DEFAULT	10000000

static const char usage[] =
    "ccs2html [-q] [-m metric] [-s pat]... [-d pat]... [--min-ticks N] "
    "[--min-pct P] [--max-stacks N] [--exclude pat]... [-f format] "
    "[-o file] [file]";

static const char helptext[] =
    "Write an interactive HTML viewer for a profile (one file, no network).\n\n"
    TOOL_PRUNE_HELP
    "                         (here 10000000 by default; 0 keeps every stack)\n"
    TOOL_COMMON_HELP("metric shown first, and metric of --min-pct");

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		TOOL_PRUNE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	struct pdb_html_opts hopts = { NULL };
	struct pdb *db;
	const char *path;
	char note[256];
	int ch, rc;

	tool_init(argv[0], &c);
	c.max_stacks = MAX_STACKS_DEFAULT;
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_SHORTOPTS, longopts,
	    NULL)) != -1) {
		if (tool_common_option(&c, ch, optarg, usage, helptext))
			continue;
		tool_usage(usage);
	}
	argc -= optind;
	argv += optind;
	path = tool_one_input(argc, argv, usage);
	c.outformat = &pdb_fmt_html;
	tool_format_ready(c.outformat);

	db = tool_load(&c, path, NULL);
	if (c.max_stacks_from > 0) {
		/* Pruned to fit: say so here and on the page. */
		const struct pdb_metric *mt = pdb_metric(db,
		    (unsigned)c.max_stacks_metric);

		snprintf(note, sizeof(note), "%" PRIu32 " of %" PRIu64
		    " stacks kept; those whose inclusive %.40s are below %"
		    PRId64 " are pruned, as ccs-prune does (--max-stacks)",
		    pdb_node_count(db), c.max_stacks_from, mt->name,
		    c.max_stacks_min);
		tool_warnx("%s: %s", tool_input_name(path), note);
		hopts.note = note;
	}
	/* A page of a profile that names no program is named after its
	 * file, so that pages open side by side can be told apart. */
	if (strcmp(path, "-") != 0) {
		const char *slash = strrchr(path, '/');

		hopts.name = slash != NULL ? slash + 1 : path;
	}
	c.opts.writer_opts = &hopts;
	rc = tool_write_profile(&c, db);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
