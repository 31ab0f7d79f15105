/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs2html: one self-contained HTML file to explore a profile in a
 * browser: the stack tree, the flat and inherited table, selection,
 * thresholds, search, hot paths, callers and a flame graph.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static const char usage[] =
    "ccs2html [-m metric] [-s pat]... [-d pat]... [--min-ticks N] "
    "[--exclude pat]... [-f format] [-o file] [file]";

static const char helptext[] =
    "Write an interactive HTML viewer for a profile (one file, no network).\n\n"
    TOOL_PRUNE_HELP
    TOOL_COMMON_HELP;

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		TOOL_PRUNE_LONGOPTS,
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	struct pdb *db;
	const char *path;
	int ch, rc;

	tool_init(argv[0], &c);
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
	rc = tool_write_profile(&c, db);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
