/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-stacks: one folded line per stack with its own cost, the form that
 * FlameGraph, sort, grep and awk take, and that every ccs tool reads back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const char usage[] =
    "ccs-stacks [-m metric] [--all] [--sort] [-s pat]... [-d pat]... "
    "[-f format] [-o file] [file]";

static const char helptext[] =
    "Print each stack as 'root;...;top VALUE' (its own cost).\n\n"
    "  -a, --all              print stacks of zero cost too\n"
    "      --sort             most expensive stacks first\n"
    TOOL_PRUNE_HELP
    TOOL_COMMON_HELP("metric to print (default: ticks or samples)");

enum { OPT_SORT = OPT_TOOL_BASE };

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		TOOL_PRUNE_LONGOPTS,
		{ "all", no_argument, NULL, 'a' },
		{ "sort", no_argument, NULL, OPT_SORT },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	struct pdb *db;
	const char *path;
	int ch, rc, sort = 0;

	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_SHORTOPTS "a",
	    longopts, NULL)) != -1) {
		if (tool_common_option(&c, ch, optarg, usage, helptext))
			continue;
		switch (ch) {
		case 'a':
			c.opts.flags |= PDB_OPT_ALL;
			break;
		case OPT_SORT:
			sort = 1;
			break;
		default:
			tool_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	path = tool_one_input(argc, argv, usage);

	db = tool_load(&c, path, NULL);
	if (tool_metric_needed(&c, db, path) < 0) {
		pdb_free(db);
		tool_common_free(&c);
		return TOOL_ERR;
	}
	if (sort)
		c.opts.flags |= PDB_OPT_SORT;
	c.outformat = &pdb_fmt_folded;
	c.opts.flags |= PDB_OPT_AS_TEXT;
	rc = tool_write_profile(&c, db);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
