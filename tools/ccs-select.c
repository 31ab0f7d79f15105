/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-select: the profile as if only the selected cost centres had been
 * cost centres (Morgan & Jarvis 2.3, case 2), written as a profile for
 * the next tool in the pipe.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static const char usage[] =
    "ccs-select [-Fq] [-s pat]... [-d pat]... [--select-file file] "
    "[--deselect-file file] [-f format] [-m metric] [-t format] [-o file] "
    "[file]";

static const char helptext[] =
    "Project a profile on the selected cost centres: the costs of the\n"
    "others move to the nearest selected cost centre below them.\n\n"
    "  -t, --to FORMAT        output format (default: dump)\n"
    "  -F, --force            write binary output even to a terminal\n"
    TOOL_COMMON_HELP("metric of folded, dot output; first in others");

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		{ "to", required_argument, NULL, 't' },
		{ "force", no_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	struct pdb *db;
	const char *path;
	int ch, rc;

	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_SHORTOPTS "Ft:",
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
		default:
			tool_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	path = tool_one_input(argc, argv, usage);
	tool_format_ready(tool_output_format(&c));

	db = tool_load(&c, path, NULL);
	rc = tool_write_profile(&c, db);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
