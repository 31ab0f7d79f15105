/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs2callgrind: a profile as a callgrind file, for KCacheGrind and
 * callgrind_annotate.  The writer is formats/fmt_callgrind.c; this tool
 * loads the profile (selection, then pruning) and passes --context on.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "fmt_callgrind.h"

enum {
	OPT_CONTEXT = OPT_TOOL_BASE
};

static const char usage[] =
    "ccs2callgrind [-m metric] [-s pat]... [-d pat]... [--exclude pat]... "
    "[--min-ticks N] [--min-words N] [--min metric=N] [--min-pct P] "
    "[--context N] [-f format] [-o file] [file]";

static const char helptext[] =
    "Write the profile in callgrind format, for KCacheGrind and\n"
    "callgrind_annotate: every cost metric is an event, each cost centre a\n"
    "function, calls carry inclusive costs.\n\n"
    "      --context N        split functions by their N nearest callers\n"
    TOOL_PRUNE_HELP
    TOOL_COMMON_HELP;

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		TOOL_PRUNE_LONGOPTS,
		{ "context", required_argument, NULL, OPT_CONTEXT },
		{ NULL, 0, NULL, 0 }
	};
	struct pdb_callgrind_opts cg = { 0 };
	struct tool_common c;
	struct pdb *db;
	const char *path;
	int ch, m, rc;

	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_SHORTOPTS,
	    longopts, NULL)) != -1) {
		if (tool_common_option(&c, ch, optarg, usage, helptext))
			continue;
		switch (ch) {
		case OPT_CONTEXT:
			cg.context = (unsigned)tool_strtonum("--context", optarg,
			    0, PDB_CALLGRIND_MAX_CONTEXT);
			break;
		default:
			tool_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	path = tool_one_input(argc, argv, usage);

	db = tool_load(&c, path, NULL);
	if (c.metric != NULL && (m = tool_metric(&c, db)) >= 0 &&
	    pdb_metric(db, (unsigned)m)->kind != PDB_COST) {
		tool_warnx("-m: '%s' is a count, not a cost: callgrind "
		    "events are the cost metrics", c.metric);
		rc = TOOL_ERR;
	} else {
		c.outformat = &pdb_fmt_callgrind;
		c.opts.writer_opts = &cg;
		rc = tool_write_profile(&c, db);
	}
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
