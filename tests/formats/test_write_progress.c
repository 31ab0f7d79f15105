/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * opts.write_progress: the writers that walk the tree in rows (the dump,
 * pgcl) tell, as they pass on each buffer, how many of the tree's nodes
 * they have written, up to all of them, and what they write is the same
 * as without it.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats_int.h"
#include "testutil.h"

struct seen {
	size_t		 calls;
	uint64_t	 last, total;
	int		 backwards, total_changed;
};

static void
count(void *arg, uint64_t nodes, uint64_t total)
{
	struct seen *s = arg;

	if (s->calls > 0 && (nodes < s->last))
		s->backwards = 1;
	if (s->calls > 0 && total != s->total)
		s->total_changed = 1;
	s->calls++;
	s->last = nodes;
	s->total = total;
}

/* db written as fmt with opts, into a malloc'd buffer. */
static char *
written(struct pdb *db, const struct pdb_format *fmt,
    const struct pdb_opts *opts, size_t *len)
{
	char *p = NULL;
	FILE *f = open_memstream(&p, len);

	cr_assert(f != NULL);
	cr_assert_eq(pdb_write(db, f, fmt, opts), PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_assert_eq(fclose(f), 0);
	return p;
}

static void
check_writer(const struct pdb_format *fmt)
{
	struct pdb_opts opts;
	struct seen s;
	struct run r;
	struct pdb *db;
	char *path = write_temp("", 0, ".dump"), *with, *without;
	size_t n_with, n_without;
	uint32_t nodes;

	/* Some 20 buffers of output. */
	run(&r, "ccs-gen -q -t dump --size 1M -o %s", path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	db = load_tree(path);
	nodes = pdb_node_count(db);
	without = written(db, fmt, NULL, &n_without);

	memset(&opts, 0, sizeof(opts));
	memset(&s, 0, sizeof(s));
	opts.write_progress = count;
	opts.progress_arg = &s;
	with = written(db, fmt, &opts, &n_with);

	cr_expect_gt(s.calls, 5, "%s: %zu calls for %zu bytes", fmt->name,
	    s.calls, n_with);
	cr_expect_eq(s.total, nodes, "%s: total %llu, %u nodes", fmt->name,
	    (unsigned long long)s.total, nodes);
	cr_expect_not(s.total_changed, "%s", fmt->name);
	cr_expect_not(s.backwards, "%s", fmt->name);
	cr_expect_leq(s.last, s.total, "%s", fmt->name);
	/* Told before the last buffer: most of the tree, not all of it
	 * necessarily, but more than the first buffers. */
	cr_expect_gt(s.last, s.total / 2, "%s: last %llu of %llu", fmt->name,
	    (unsigned long long)s.last, (unsigned long long)s.total);
	cr_expect(n_with == n_without && memcmp(with, without, n_with) == 0,
	    "%s: the output differs with write_progress", fmt->name);

	free(with);
	free(without);
	pdb_free(db);
	unlink(path);
	free(path);
}

Test(write_progress, dump)
{
	check_writer(&pdb_fmt_ccsdump);
}

Test(write_progress, pgcl)
{
	check_writer(&pdb_fmt_pgcl);
}
