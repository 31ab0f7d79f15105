/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-convert: read a profile in any readable format and write it in any
 * writable one.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static const char usage[] =
    "ccs-convert [-f format] -t format [-o file] [--pgcl-version N] [file]";

static const char helptext[] =
    "Convert a profile from one format to another.\n\n"
    "  -t, --to FORMAT        output format (default: from -o's extension)\n"
    "      --pgcl-version N   write pgcl version N (1 or 2; default 2)\n"
    "  -F, --force            write binary output even to a terminal\n"
    TOOL_COMMON_HELP;

enum { OPT_PGCL_VERSION = OPT_TOOL_BASE };

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		{ "to", required_argument, NULL, 't' },
		{ "force", no_argument, NULL, 'F' },
		{ "pgcl-version", required_argument, NULL, OPT_PGCL_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	struct pdb *db;
	const char *path;
	FILE *out;
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
	c.opts.metric = c.metric;

	db = tool_pdb_new();
	if (pdb_read_tree(db, path, c.informat, &c.opts, NULL) != PDB_OK) {
		tool_pdberr(db);
		return TOOL_ERR;
	}
	if (c.metric != NULL && tool_metric(&c, db) < 0)
		return TOOL_ERR;
	if ((out = tool_output_open(&c, c.outformat->flags & PDB_FMT_BINARY)) ==
	    NULL)
		return TOOL_ERR;
	rc = pdb_write(db, out, c.outformat, &c.opts);
	if (rc != PDB_OK) {
		tool_warnx("%s: %s", tool_output_name(&c), pdb_errmsg(db));
		if (out != stdout)
			fclose(out);
		return TOOL_ERR;
	}
	rc = tool_output_close(&c, out) == 0 ? TOOL_OK : TOOL_ERR;
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
