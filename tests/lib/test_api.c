/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The API as a program meets it, from libprofdb(3) and the headers: a
 * bad argument to a function that returns an int is PDB_EINVAL with a
 * message, never a write out of bounds or a call through NULL; the
 * sinks the library makes take every event, so that a program can
 * drive one with events of its own.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "pdb.h"

/* The paper's theta (section 2.3) by hand: MAIN, then a, b, c. */
static struct pdb *
theta_schema(uint32_t cc[4])
{
	struct pdb *db = pdb_new();
	uint32_t mod;

	cr_assert(db != NULL);
	cr_assert_eq(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, NULL),
	    PDB_OK);
	cr_assert_eq(pdb_metric_add(db, "entries", "calls", PDB_COUNT, 0,
	    NULL), PDB_OK);
	cr_assert_eq(pdb_module_add(db, "M", &mod), PDB_OK);
	cr_assert_eq(pdb_cc_add(db, "MAIN", mod, "", 0, -1, &cc[0]), PDB_OK);
	cr_assert_eq(pdb_cc_add(db, "a", mod, "", 0, -1, &cc[1]), PDB_OK);
	cr_assert_eq(pdb_cc_add(db, "b", mod, "", 0, -1, &cc[2]), PDB_OK);
	cr_assert_eq(pdb_cc_add(db, "c", mod, "", 0, -1, &cc[3]), PDB_OK);
	return db;
}

/*
 * {<b,a> 10, <a> 20, <c,a> 10, <c,b,a> 50} as events, every one through
 * the sink's own pointers, begin and end included, as a program with
 * no reader would send them.
 */
static void
drive(struct pdb *db, const struct pdb_sink *s, const uint32_t cc[4])
{
	int64_t v[2] = { 0, 1 };

	cr_assert(s->begin != NULL && s->enter != NULL && s->exit != NULL &&
	    s->end != NULL, "a sink of the library lacks an event");
	cr_assert_eq(s->begin(s->arg, db), PDB_OK);
	cr_assert_eq(s->enter(s->arg, db, cc[0], v), PDB_OK);
	v[0] = 20;
	cr_assert_eq(s->enter(s->arg, db, cc[1], v), PDB_OK);
	v[0] = 10;
	cr_assert_eq(s->enter(s->arg, db, cc[2], v), PDB_OK);
	cr_assert_eq(s->exit(s->arg, db), PDB_OK);
	cr_assert_eq(s->enter(s->arg, db, cc[3], v), PDB_OK);
	cr_assert_eq(s->exit(s->arg, db), PDB_OK);
	v[0] = 0;
	cr_assert_eq(s->enter(s->arg, db, cc[2], v), PDB_OK);
	v[0] = 50;
	cr_assert_eq(s->enter(s->arg, db, cc[3], v), PDB_OK);
	cr_assert_eq(s->exit(s->arg, db), PDB_OK);
	cr_assert_eq(s->exit(s->arg, db), PDB_OK);
	cr_assert_eq(s->exit(s->arg, db), PDB_OK);
	cr_assert_eq(s->exit(s->arg, db), PDB_OK);
	cr_assert_eq(s->end(s->arg, db), PDB_OK);
}

static int
pick_c(void *arg, const struct pdb *db, uint32_t cc)
{
	(void)arg;
	return strcmp(pdb_cc_label(db, cc), "c") == 0;
}

Test(api, library_sinks_take_every_event)
{
	struct pdb_builder *b;
	struct pdb_flat *flat;
	struct pdb_callers *cl;
	struct pdb *db, *t;
	uint32_t cc[4];
	int64_t *inc;

	db = theta_schema(cc);
	cr_assert((b = pdb_builder_new(db, PDB_BUILD_PUSH)) != NULL);
	drive(db, pdb_builder_sink(b), cc);
	pdb_builder_free(b);
	cr_expect_eq(pdb_node_count(db), 5);

	/* The tree built, replayed; and the events again, by hand. */
	cr_assert((flat = pdb_flat_new(NULL)) != NULL);
	cr_assert_eq(pdb_replay(db, pdb_flat_sink(flat)), PDB_OK);
	cr_expect_eq(pdb_flat_self(flat, cc[1], 0), 20);
	cr_expect_eq(pdb_flat_self(flat, cc[2], 0), 10);
	cr_expect_eq(pdb_flat_self(flat, cc[3], 0), 60);
	cr_expect_eq(pdb_flat_inherited(flat, cc[1], 0), 90);
	pdb_flat_free(flat);
	cr_assert((flat = pdb_flat_new(NULL)) != NULL);
	drive(db, pdb_flat_sink(flat), cc);
	cr_expect_eq(pdb_flat_self(flat, cc[3], 0), 60);
	cr_expect_eq(pdb_flat_inherited(flat, cc[2], 0), 60);
	pdb_flat_free(flat);

	cr_assert((cl = pdb_callers_stream_new(pick_c, NULL)) != NULL);
	drive(db, pdb_callers_sink(cl), cc);
	cr_expect_eq(pdb_callers_found(cl), 2);
	cr_assert((t = pdb_callers_tree(cl, db, cc[3])) != NULL, "%s",
	    pdb_errmsg(db));
	/* Rooted at c, whose inherited cost it carries. */
	cr_assert((inc = pdb_inclusive_of(t, 0)) != NULL);
	cr_expect_eq(pdb_node_cc(t, 0), cc[3]);
	cr_expect_eq(inc[0], 60);
	free(inc);
	pdb_free(t);
	pdb_callers_free(cl);
	pdb_free(db);
}

/* A bad node or metric is refused, and changes nothing. */
Test(api, node_values_refuse_bad_indices)
{
	int64_t v[2] = { 5, 6 };
	uint32_t cc[4], root, n;
	struct pdb *db;

	db = theta_schema(cc);
	cr_assert_eq(pdb_root_new(db, cc[0], &root), PDB_OK);
	cr_assert_eq(pdb_node_append(db, root, cc[1], &n), PDB_OK);
	cr_assert_eq(pdb_node_set_value(db, n, 0, 7), PDB_OK);

	cr_expect_eq(pdb_node_set_value(db, 2, 0, 1), PDB_EINVAL);
	cr_expect_eq(pdb_errcode(db), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "node 2 out of range");
	cr_expect_eq(pdb_node_set_value(db, PDB_NONE, 0, 1), PDB_EINVAL);
	cr_expect_eq(pdb_node_set_value(db, n, 2, 1), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "metric 2 out of range");
	cr_expect_eq(pdb_node_add_values(db, 2, v), PDB_EINVAL);
	cr_expect_eq(pdb_node_add_values(db, PDB_NONE, v), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "node 4294967295 out of range");

	cr_expect_eq(pdb_node_value(db, root, 0), 0);
	cr_expect_eq(pdb_node_value(db, n, 0), 7);
	cr_expect_eq(pdb_node_value(db, n, 1), 0);
	pdb_free(db);
}

/* A NULL name is an empty one, but for a metric's; NULL metadata and a
 * NULL pattern are refused. */
Test(api, null_names_are_empty)
{
	struct pdb *db = pdb_new();
	struct pdb_sel *sel;
	uint32_t mod, cc, again;

	cr_assert(db != NULL);
	cr_expect_eq(pdb_module_add(db, NULL, &mod), PDB_OK);
	cr_expect_str_eq(pdb_module_name(db, mod), "");
	cr_expect_eq(pdb_module_intern(db, NULL, &again), PDB_OK);
	cr_expect_eq(again, mod);
	cr_expect_eq(pdb_cc_add(db, NULL, mod, NULL, 0, -1, &cc), PDB_OK);
	cr_expect_str_eq(pdb_cc_label(db, cc), "");
	cr_expect_eq(pdb_cc_intern(db, NULL, NULL, NULL, 0, &again), PDB_OK);
	cr_expect_eq(again, cc);
	cr_expect_eq(pdb_cc_add(db, NULL, mod, NULL, 0x40, -1, &cc),
	    PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "cost centre '': unknown flags 0x40");
	cr_expect_eq(pdb_meta_set(db, "k", NULL), PDB_EINVAL);
	cr_expect_eq(pdb_meta_set(db, NULL, "v"), PDB_EINVAL);
	cr_expect(pdb_meta_get(db, "k") == NULL);
	pdb_meta_unset(db, NULL);
	/* A metric needs a name; its unit may be left out. */
	cr_expect_eq(pdb_metric_add(db, NULL, "u", PDB_COST, 0, NULL),
	    PDB_EINVAL);
	cr_expect_eq(pdb_metric_find(db, NULL), -1);
	cr_expect_eq(pdb_metric_add(db, "m", NULL, PDB_COST, 0, NULL),
	    PDB_OK);
	cr_expect_str_eq(pdb_metric(db, 0)->unit, "");
	cr_expect_eq(pdb_metric_find(db, NULL), -1);
	pdb_free(db);
	sel = pdb_sel_new();
	cr_assert(sel != NULL);
	cr_expect_eq(pdb_sel_add(sel, 1, NULL), PDB_EINVAL);
	cr_expect(pdb_sel_is_trivial(sel));
	pdb_sel_free(sel);
}

/* pdb_format_find() of a name it does not know is NULL: writing with
 * it, or asking whether it is ready, is PDB_EINVAL. */
Test(api, write_needs_a_format)
{
	uint32_t cc[4], root;
	struct pdb *db;
	FILE *f;

	db = theta_schema(cc);
	cr_assert_eq(pdb_root_new(db, cc[0], &root), PDB_OK);
	cr_assert((f = fopen("/dev/null", "w")) != NULL);
	cr_expect_eq(pdb_write(db, f, pdb_format_find("no-such-format"),
	    NULL), PDB_EINVAL);
	cr_expect_eq(pdb_errcode(db), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "no format to write");
	cr_expect_eq(pdb_format_ready(NULL, db), PDB_EINVAL);
	/* A format that is read only is not ready to write. */
	cr_expect_eq(pdb_format_ready(pdb_format_find("ghc-prof"), db),
	    PDB_EUNSUPP);
	cr_expect_str_eq(pdb_errmsg(db), "format 'ghc-prof' cannot be written");
	cr_expect_eq(pdb_write(db, f, pdb_format_find("dump"), NULL),
	    PDB_OK, "%s", pdb_errmsg(db));
	fclose(f);
	pdb_free(db);
}

/* The paper's theta as a tree, built from the events by hand. */
static struct pdb *
theta_tree(uint32_t cc[4])
{
	struct pdb *db = theta_schema(cc);
	struct pdb_builder *b;

	cr_assert((b = pdb_builder_new(db, PDB_BUILD_PUSH)) != NULL);
	drive(db, pdb_builder_sink(b), cc);
	pdb_builder_free(b);
	return db;
}

/*
 * A flat profile and a callers object take one profile after another,
 * each counted alone: a second replay used to count twice, and a
 * smaller profile after a larger one to keep the larger one's costs.
 */
Test(api, sinks_start_afresh_at_begin)
{
	struct pdb *db, *small, *t;
	struct pdb_callers *cl;
	struct pdb_flat *flat;
	uint32_t cc[4], mod, x, root, n;
	int64_t *inc;
	int pass;

	db = theta_tree(cc);
	cr_assert((flat = pdb_flat_new(NULL)) != NULL);
	for (pass = 0; pass < 2; pass++) {
		cr_assert_eq(pdb_replay(db, pdb_flat_sink(flat)), PDB_OK);
		cr_expect_eq(pdb_flat_self(flat, cc[1], 0), 20, "pass %d",
		    pass);
		cr_expect_eq(pdb_flat_self(flat, cc[3], 0), 60);
		cr_expect_eq(pdb_flat_inherited(flat, cc[1], 0), 90);
		cr_expect_eq(pdb_flat_total(flat, 0), 90);
		cr_expect_eq(pdb_flat_nodes(flat), 5);
	}
	small = pdb_new();
	cr_assert(small != NULL);
	cr_assert_eq(pdb_metric_add(small, "ticks", "ticks", PDB_COST, 0,
	    NULL), PDB_OK);
	cr_assert_eq(pdb_module_add(small, "S", &mod), PDB_OK);
	cr_assert_eq(pdb_cc_add(small, "ROOT", mod, "", 0, -1, &root),
	    PDB_OK);
	cr_assert_eq(pdb_cc_add(small, "x", mod, "", 0, -1, &x), PDB_OK);
	cr_assert_eq(pdb_root_new(small, root, &n), PDB_OK);
	cr_assert_eq(pdb_node_append(small, n, x, &n), PDB_OK);
	cr_assert_eq(pdb_node_set_value(small, n, 0, 5), PDB_OK);
	cr_assert_eq(pdb_replay(small, pdb_flat_sink(flat)), PDB_OK);
	cr_expect_eq(pdb_flat_cc_count(flat), 2);
	cr_expect_eq(pdb_flat_self(flat, x, 0), 5);
	cr_expect_eq(pdb_flat_self(flat, root, 0), 0);
	cr_expect_eq(pdb_flat_inherited(flat, root, 0), 5);
	cr_expect_eq(pdb_flat_total(flat, 0), 5);
	pdb_flat_free(flat);
	pdb_free(small);

	cr_assert((cl = pdb_callers_stream_new(pick_c, NULL)) != NULL);
	for (pass = 0; pass < 2; pass++) {
		cr_assert_eq(pdb_replay(db, pdb_callers_sink(cl)), PDB_OK,
		    "pass %d: %s", pass, pdb_errmsg(db));
		cr_expect_eq(pdb_callers_found(cl), 2);
	}
	cr_assert((t = pdb_callers_tree(cl, db, cc[3])) != NULL);
	cr_assert((inc = pdb_inclusive_of(t, 0)) != NULL);
	cr_expect_eq(inc[0], 60);
	/* c; a, MAIN under it; b, a, MAIN under it. */
	cr_expect_eq(pdb_node_count(t), 6);
	free(inc);
	pdb_free(t);
	pdb_callers_free(cl);
	pdb_free(db);
}

/* The flat sink refuses a cost centre the handle does not have, as the
 * builder and the callers sink do. */
Test(api, flat_sink_refuses_unknown_cost_centre)
{
	const struct pdb_sink *s;
	struct pdb_flat *flat;
	int64_t v[2] = { 1, 1 };
	uint32_t cc[4];
	struct pdb *db;

	db = theta_schema(cc);
	cr_assert((flat = pdb_flat_new(NULL)) != NULL);
	s = pdb_flat_sink(flat);
	cr_assert_eq(s->begin(s->arg, db), PDB_OK);
	cr_assert_eq(s->enter(s->arg, db, cc[0], v), PDB_OK);
	cr_expect_eq(s->enter(s->arg, db, 4, v), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "cost centre 4 out of range");
	cr_expect_eq(s->enter(s->arg, db, PDB_NONE, v), PDB_EINVAL);
	cr_expect_eq(pdb_flat_cc_count(flat), 1, "nothing made room for it");
	pdb_flat_free(flat);
	pdb_free(db);
}

/* A NULL among the patterns to exclude is refused, with its message. */
Test(api, prune_refuses_null_pattern)
{
	const char *excl[2] = { "M.b", NULL };
	uint32_t cc[4];
	struct pdb *db;

	db = theta_tree(cc);
	cr_expect_null(pdb_prune_new(db, NULL, 0, excl, 2, NULL));
	cr_expect_eq(pdb_errcode(db), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "pdb_prune: NULL pattern");
	cr_expect_eq(pdb_prune(db, NULL, 0, NULL, 1, NULL), PDB_EINVAL);
	cr_expect_eq(pdb_node_count(db), 5, "nothing pruned");
	pdb_free(db);
}

/*
 * PDB_OK from pdb_write() means the profile reached the file: what
 * stdio held back is flushed.  The dump and pgcl writers returned
 * PDB_OK on a full disk with the profile still in the buffer.
 */
Test(api, write_to_full_disk_fails)
{
	const struct pdb_format *f;
	uint32_t cc[4];
	struct pdb *db;
	size_t i = 0;
	FILE *full;
	int n = 0;

	db = theta_tree(cc);
	while ((f = pdb_format_next(&i)) != NULL) {
		if (f->write == NULL || pdb_format_ready(f, db) != PDB_OK)
			continue;
		cr_assert((full = fopen("/dev/full", "w")) != NULL);
		cr_expect_eq(pdb_write(db, full, f, NULL), PDB_EIO,
		    "%s: %s", f->name, pdb_errmsg(db));
		(void)fclose(full);
		n++;
	}
	cr_expect_geq(n, 8, "every writer tried");
	pdb_free(db);
}

static int
stop_at_third(void *arg, struct pdb *db, uint32_t cc, const int64_t *v)
{
	int *seen = arg;

	(void)db;
	(void)cc;
	(void)v;
	return ++*seen == 3 ? PDB_EINVAL : PDB_OK;
}

static int
no_exit_fails(void *arg, struct pdb *db)
{
	(void)arg;
	(void)db;
	return PDB_OK;
}

/* A sink of a program's own that stops without a message: the error
 * says so, and where, rather than "no error". */
Test(api, sink_stop_without_message_is_said)
{
	struct pdb_sink s = { 0 };
	struct pdb *db = pdb_new();
	int seen = 0;

	cr_assert(db != NULL);
	s.enter = stop_at_third;
	s.exit = no_exit_fails;
	s.arg = &seen;
	cr_expect_eq(pdb_read_stream(db, "tests/data/ghc/mj.P.prof", NULL,
	    NULL, &s, NULL), PDB_EINVAL);
	cr_expect(strncmp(pdb_errmsg(db), "tests/data/ghc/mj.P.prof:", 25) ==
	    0 && strstr(pdb_errmsg(db), "stopped by the sink") != NULL, "%s",
	    pdb_errmsg(db));
	pdb_free(db);

	/* An error the handle had before the read is not this one. */
	db = pdb_new();
	cr_assert(db != NULL);
	seen = 0;
	cr_expect_eq(pdb_format_ready(pdb_format_find("ghc-prof"), db),
	    PDB_EUNSUPP);
	cr_expect_eq(pdb_read_stream(db, "tests/data/ghc/mj.P.prof", NULL,
	    NULL, &s, NULL), PDB_EINVAL);
	cr_expect(strstr(pdb_errmsg(db), "stopped by the sink") != NULL &&
	    strstr(pdb_errmsg(db), "cannot be written") == NULL, "%s",
	    pdb_errmsg(db));
	pdb_free(db);
}

/* A reader adds to the handle, so a handle holding a profile is refused
 * and left as it was. */
Test(api, read_into_a_full_handle_refused)
{
	uint32_t cc[4];
	struct pdb *db;

	db = theta_tree(cc);
	cr_expect_eq(pdb_read_tree(db, "tests/data/ghc/mj.P.prof", NULL, NULL,
	    NULL), PDB_EINVAL);
	cr_expect(strstr(pdb_errmsg(db), "already holds a profile") != NULL,
	    "%s", pdb_errmsg(db));
	cr_expect_eq(pdb_cc_count(db), 4);
	cr_expect_eq(pdb_node_count(db), 5);
	cr_expect_eq(pdb_metric_count(db), 2);
	pdb_free(db);
}

/* The arm's whole length comes back, whatever max, as snprintf(3)'s. */
Test(api, expensive_arm_says_its_length)
{
	uint32_t cc[4], arm[4] = { 9, 9, 9, 9 };
	int64_t *inc;
	struct pdb *db;

	db = theta_tree(cc);
	cr_assert((inc = pdb_inclusive_of(db, 0)) != NULL);
	cr_expect_eq(pdb_expensive_arm_of(db, inc, NULL, 0), 4);
	cr_expect_eq(pdb_expensive_arm_of(db, inc, arm, 2), 4);
	cr_expect_eq(pdb_node_cc(db, arm[0]), cc[0]);
	cr_expect_eq(pdb_node_cc(db, arm[1]), cc[1]);
	cr_expect_eq(arm[2], 9, "nothing past max written");
	cr_expect_eq(pdb_expensive_arm_of(db, inc, arm, 4), 4);
	cr_expect_eq(pdb_node_cc(db, arm[2]), cc[2]);
	cr_expect_eq(pdb_node_cc(db, arm[3]), cc[3]);
	free(inc);
	pdb_free(db);
}

/* A metric is a cost or a count. */
Test(api, metric_kind_checked)
{
	struct pdb *db = pdb_new();

	cr_assert(db != NULL);
	cr_expect_eq(pdb_metric_add(db, "m", "u", (enum pdb_kind)7, 0, NULL),
	    PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "metric 'm': unknown kind 7");
	cr_expect_eq(pdb_metric_count(db), 0);
	pdb_free(db);
}
