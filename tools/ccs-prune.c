/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-prune: Clean's --min-ticks, --min-words and --exclude, done so that
 * nothing is lost: a pruned subtree's cost folds into its parent.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static const char usage[] =
    "ccs-prune [-v] [-m metric] [--min-ticks N] [--min-words N] "
    "[--min metric=N] [--min-pct P] [--exclude pat]... [-f format] "
    "[-t format] [-o file] [file]";

static const char helptext[] =
    "Remove small or excluded stacks, folding their cost into the parent.\n\n"
    TOOL_PRUNE_HELP
    "  -v, --verbose          report on stderr how much was folded\n"
    "  -t, --to FORMAT        output format (default: dump)\n"
    "  -F, --force            write binary output even to a terminal\n"
    TOOL_COMMON_HELP("metric of --min-pct and of folded, dot output");

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		TOOL_PRUNE_LONGOPTS,
		{ "to", required_argument, NULL, 't' },
		{ "force", no_argument, NULL, 'F' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 }
	};
	struct pdb_prune_report rep;
	struct tool_common c;
	struct pdb *db;
	const char *path;
	unsigned m;
	int ch, rc, verbose = 0;

	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_SHORTOPTS "Ft:v",
	    longopts, NULL)) != -1) {
		if (tool_common_option(&c, ch, optarg, usage, helptext))
			continue;
		switch (ch) {
		case 'F':
			c.force = 1;
			break;
		case 't':
			c.outformat = tool_outformat(optarg);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			tool_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	path = tool_one_input(argc, argv, usage);
	tool_format_ready(tool_output_format(&c));

	db = tool_load(&c, path, &rep);
	if (verbose) {
		fprintf(stderr, "%s: %" PRIu64 " subtrees pruned\n",
		    tool_progname, rep.nodes_removed);
		if (c.max_stacks_from > 0)
			fprintf(stderr, "%s: --max-stacks: %" PRIu32 " of %"
			    PRIu64 " stacks kept, inclusive %s at least %"
			    PRId64 "\n", tool_progname, pdb_node_count(db),
			    c.max_stacks_from, pdb_metric(db, (unsigned)
			    c.max_stacks_metric)->name, c.max_stacks_min);
		for (m = 0; rep.folded != NULL && m < pdb_metric_count(db); m++) {
			if (pdb_metric(db, m)->kind == PDB_COUNT)
				fprintf(stderr, "%s: %s: %" PRId64 " %s dropped "
				    "(counts do not fold)\n", tool_progname,
				    pdb_metric(db, m)->name, rep.dropped[m],
				    pdb_metric(db, m)->unit);
			else
				fprintf(stderr, "%s: %s: %" PRId64 " %s folded "
				    "into parents\n", tool_progname,
				    pdb_metric(db, m)->name, rep.folded[m],
				    pdb_metric(db, m)->unit);
		}
	}
	rc = tool_write_profile(&c, db);
	pdb_prune_report_free(&rep);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
