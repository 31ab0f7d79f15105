/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-convert: read a profile in any readable format and write it in any
 * writable one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static const char usage[] =
    "ccs-convert [-Fq] [--compress] [-f format] [-m metric] [-s pattern] "
    "[-d pattern] [-t format] [-o file] [--pgcl-version N] [file]";

static const char helptext[] =
    "Convert a profile from one format to another.\n\n"
    "  -t, --to FORMAT        output format (default: from -o's extension)\n"
    "      --pgcl-version N   write pgcl version N (1 or 2; default: as\n"
    "                         read, else 2)\n"
    "  -F, --force            write binary output even to a terminal\n"
    "      --compress         compress stacks: no cost centre twice on one\n"
    "                         stack (Morgan & Jarvis 2.4)\n"
    TOOL_COMMON_HELP("metric of folded, dot output; first in others");

enum { OPT_PGCL_VERSION = OPT_TOOL_BASE, OPT_COMPRESS };

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		{ "to", required_argument, NULL, 't' },
		{ "force", no_argument, NULL, 'F' },
		{ "pgcl-version", required_argument, NULL, OPT_PGCL_VERSION },
		{ "compress", no_argument, NULL, OPT_COMPRESS },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	struct pdb *db;
	const char *path;
	int ch, rc, compress = 0;

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
		case OPT_COMPRESS:
			compress = 1;
			break;
		case OPT_PGCL_VERSION:
			c.opts.pgcl_version = (int)tool_strtonum("--pgcl-version",
			    optarg, 1, 2);
			break;
		default:
			tool_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	path = tool_one_input(argc, argv, usage);
	if (c.outformat == NULL && c.outpath != NULL)
		c.outformat = pdb_format_guess(c.outpath);
	if (c.outformat == NULL) {
		tool_warnx("no output format: give -t FORMAT");
		tool_usage(usage);
	}
	/* It would change nothing: say so rather than ignore it. */
	if (c.opts.pgcl_version != 0 &&
	    strcmp(c.outformat->name, "pgcl") != 0) {
		tool_warnx("--pgcl-version: the output is %s, not pgcl",
		    c.outformat->name);
		tool_usage(usage);
	}
	c.opts.metric = c.metric;
	tool_format_ready(c.outformat);

	db = tool_pdb_new();
	rc = TOOL_ERR;
	/* Compression is the projection on everything; -s and -d project
	 * as ccs-select does. */
	if ((compress || !pdb_sel_is_trivial(c.sel) ?
	    tool_read_projected(&c, db, path, c.sel) :
	    pdb_read_tree(db, path, c.informat, &c.opts, NULL)) != PDB_OK) {
		tool_pdberr(db);
		goto out;
	}
	tool_unmatched(&c, db, path);
	if (c.metric != NULL && (strcmp(c.outformat->name, "callgrind") == 0 ?
	    !tool_metric_is_event(&c, db) : tool_metric(&c, db) < 0))
		goto out;
	rc = tool_write_profile(&c, db);
out:
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
