/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs2callgrind: a profile as a callgrind file, for KCacheGrind and
 * callgrind_annotate.  The writer is formats/fmt_callgrind.c; this tool
 * gives it the profile and passes --context on.
 *
 * With nothing selected or pruned, a format whose tree is its stream
 * (pgcl, dump, GHC) goes to the writer as it is read, in memory of the
 * functions and calls alone; folded stacks, which merge, are built into
 * a tree when the format is known, as selection and pruning need too,
 * and the tree is replayed to the writer.  Both give the same file.
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
    TOOL_COMMON_HELP("first event, and metric of --min-pct");

/* tool_read_events()'s check of the schema. */
static int
metric_ok(struct tool_common *c, const struct pdb *db, const char *path)
{
	(void)path;
	return tool_metric_is_event(c, db);
}

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
	struct pdb_callgrind *w = NULL;
	struct tool_common c;
	struct pdb *db;
	const char *path;
	FILE *out;
	int built, ch, rc;

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

	c.opts.metric = c.metric;
	c.opts.writer_opts = &cg;
	if (tool_streams(&c)) {
		db = tool_pdb_new();
		if ((w = pdb_callgrind_new(&c.opts)) == NULL) {
			tool_warnx("out of memory");
			return TOOL_ERR;
		}
		built = tool_read_events(&c, db, path, pdb_callgrind_sink(w),
		    metric_ok);
		tool_no_stacks(db, built, pdb_callgrind_nodes(w), path);
	} else {
		db = tool_load(&c, path, NULL);
		if (!metric_ok(&c, db, path)) {
			pdb_free(db);
			tool_common_free(&c);
			return TOOL_ERR;
		}
	}
	if ((out = tool_output_open(&c, 0)) == NULL)
		rc = TOOL_ERR;
	else if ((w != NULL ? pdb_callgrind_finish(w, out) :
	    pdb_write(db, out, &pdb_fmt_callgrind, &c.opts)) != PDB_OK)
		rc = tool_output_abort(&c, out, db, NULL);
	else
		rc = tool_output_close(&c, out) == 0 ? TOOL_OK : TOOL_ERR;
	pdb_callgrind_free(w);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
