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
#include <string.h>

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

struct stream {
	struct tool_common	*c;
	const struct pdb_format	*fmt;
	struct pdb_callgrind	*cg;
	struct pdb_builder	*b;	/* a tree to build first */
	struct pdb_sink		 sink;
	int			 refused;	/* -m said why */
};

/* -m names a cost metric of db; else says why not. */
static int
metric_ok(struct tool_common *c, const struct pdb *db)
{
	int m;

	if (c->metric == NULL)
		return 1;
	if ((m = tool_metric(c, db)) < 0)
		return 0;
	if (pdb_metric(db, (unsigned)m)->kind != PDB_COST) {
		tool_warnx("-m: '%s' is a count, not a cost: callgrind "
		    "events are the cost metrics", c->metric);
		return 0;
	}
	return 1;
}

/* The format is known: the rest of the events go to the writer, or to
 * a builder. */
static int
s_begin(void *arg, struct pdb *db)
{
	struct stream *s = arg;
	const struct pdb_sink *next;

	if (!metric_ok(s->c, db)) {
		s->refused = 1;
		return PDB_ESTOP;
	}
	if (s->fmt == NULL)
		return pdb_seterr(db, PDB_EINVAL, "format unknown when the "
		    "reader began");
	if (s->fmt->build == PDB_BUILD_RAW)
		next = pdb_callgrind_sink(s->cg);
	else {
		if ((s->b = pdb_builder_new(db, s->fmt->build)) == NULL)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		next = pdb_builder_sink(s->b);
	}
	s->sink = *next;
	return next->begin != NULL ? next->begin(next->arg, db) : 0;
}

/* Read path into the writer cg, through a tree if need be; exits on
 * error. */
static void
load(struct tool_common *c, struct pdb *db, const char *path,
    struct pdb_callgrind *cg)
{
	struct stream s;
	uint64_t nodes;
	int built, rc;

	memset(&s, 0, sizeof(s));
	s.c = c;
	s.cg = cg;
	s.sink.begin = s_begin;
	s.sink.arg = &s;
	rc = pdb_read_stream(db, path, c->informat, &c->opts, &s.sink, &s.fmt);
	built = s.b != NULL;
	if (built) {
		pdb_builder_free(s.b);
		if (rc == PDB_OK && pdb_node_count(db) > 0)
			rc = pdb_replay(db, pdb_callgrind_sink(cg));
	}
	if (s.refused)
		exit(TOOL_ERR);
	if (rc != PDB_OK) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	nodes = built ? pdb_node_count(db) : pdb_callgrind_nodes(cg);
	if (nodes == 0) {
		tool_warnx("%s: no stacks in profile", strcmp(path, "-") == 0 ?
		    "<stdin>" : path);
		exit(TOOL_ERR);
	}
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
	struct pdb_callgrind *w;
	struct tool_common c;
	struct pdb *db;
	const char *path;
	FILE *out;
	int ch, rc;

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
	if (pdb_sel_is_trivial(c.sel) && c.nmins == 0 && c.min_pct < 0 &&
	    c.nexcludes == 0) {
		db = tool_pdb_new();
		if ((w = pdb_callgrind_new(&c.opts)) == NULL) {
			tool_warnx("out of memory");
			return TOOL_ERR;
		}
		load(&c, db, path, w);
		if ((out = tool_output_open(&c, 0)) == NULL)
			rc = TOOL_ERR;
		else if (pdb_callgrind_finish(w, out) != PDB_OK)
			rc = tool_output_abort(&c, out, db, NULL);
		else
			rc = tool_output_close(&c, out) == 0 ? TOOL_OK :
			    TOOL_ERR;
		pdb_callgrind_free(w);
	} else {
		db = tool_load(&c, path, NULL);
		if (!metric_ok(&c, db))
			rc = TOOL_ERR;
		else {
			c.outformat = &pdb_fmt_callgrind;
			rc = tool_write_profile(&c, db);
		}
	}
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
