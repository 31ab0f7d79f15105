/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * pdb_callers_new() against sums taken stack by stack on seeded random
 * profiles whose paths repeat cost centres: the root of the callers tree
 * of cc has cc's inherited cost and cc's own counts, however deep the
 * recursion.
 */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "pdb.h"
#include "testutil.h"

#define NCC	8
#define NNODES	300

/* Whether cc is on the stack of n, n included. */
static int
on_stack(const struct pdb *db, uint32_t n, uint32_t cc)
{
	for (; n != PDB_NONE; n = pdb_node_parent(db, n))
		if (pdb_node_cc(db, n) == cc)
			return 1;
	return 0;
}

Test(callers, root_has_inherited_cost_and_own_counts)
{
	unsigned long seed;
	uint32_t cc, n;
	int64_t inh, own, *inc;
	struct pdb *db, *ct;
	int checked = 0, occurs;

	for (seed = 1; seed <= 40; seed++) {
		db = random_recursive_profile(seed, NCC, NNODES);
		for (cc = 1; cc < NCC; cc++) {
			inh = own = 0;
			occurs = 0;
			for (n = 0; n < pdb_node_count(db); n++) {
				occurs |= pdb_node_cc(db, n) == cc;
				if (on_stack(db, n, cc))
					inh += pdb_node_value(db, n, 0);
				if (pdb_node_cc(db, n) == cc)
					own += pdb_node_value(db, n, 1);
			}
			if ((ct = pdb_callers_new(db, cc)) == NULL) {
				cr_expect(!occurs, "seed %lu f%u: %s", seed,
				    (unsigned)cc, pdb_errmsg(db));
				continue;
			}
			cr_assert_not_null(inc = pdb_inclusive_new(ct));
			cr_expect_eq(pdb_node_cc(ct, 0), cc);
			cr_expect_eq(inc[0], inh, "seed %lu f%u: cost %lld, "
			    "inherited %lld", seed, (unsigned)cc,
			    (long long)inc[0], (long long)inh);
			cr_expect_eq(inc[1], own, "seed %lu f%u: calls %lld, "
			    "own %lld", seed, (unsigned)cc, (long long)inc[1],
			    (long long)own);
			free(inc);
			pdb_free(ct);
			checked++;
		}
		pdb_free(db);
	}
	cr_expect_gt(checked, 200, "only %d cost centres checked", checked);
}

/*
 * MAIN -> f -> g -> f -> f: one context (f <- MAIN), the inner f's entries
 * counted with the outer one's, its ticks once, inside the outer f's.
 */
Test(callers, recursion_counts_every_entry)
{
	struct pdb *db = pdb_new(), *ct;
	uint32_t mod, main_, f, g, n0, n1, n2, n3, n4, c;
	const int64_t *v;
	int64_t *inc;

	cr_assert(pdb_module_add(db, "M", &mod) == PDB_OK);
	cr_assert(pdb_cc_add(db, "MAIN", mod, "", 0, 0, &main_) == PDB_OK);
	cr_assert(pdb_cc_add(db, "f", mod, "", 0, 1, &f) == PDB_OK);
	cr_assert(pdb_cc_add(db, "g", mod, "", 0, 2, &g) == PDB_OK);
	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, NULL) == 0);
	cr_assert(pdb_metric_add(db, "calls", "calls", PDB_COUNT, 0, NULL) == 0);
	cr_assert(pdb_root_new(db, main_, &n0) == PDB_OK);
	cr_assert(pdb_node_append(db, n0, f, &n1) == PDB_OK);
	cr_assert(pdb_node_append(db, n1, g, &n2) == PDB_OK);
	cr_assert(pdb_node_append(db, n2, f, &n3) == PDB_OK);
	cr_assert(pdb_node_append(db, n3, f, &n4) == PDB_OK);
	pdb_node_set_value(db, n1, 0, 1), pdb_node_set_value(db, n1, 1, 2);
	pdb_node_set_value(db, n2, 0, 10), pdb_node_set_value(db, n2, 1, 4);
	pdb_node_set_value(db, n3, 0, 100), pdb_node_set_value(db, n3, 1, 8);
	pdb_node_set_value(db, n4, 0, 1000), pdb_node_set_value(db, n4, 1, 16);

	cr_assert_not_null(ct = pdb_callers_new(db, f), "%s", pdb_errmsg(db));
	cr_assert_eq(pdb_node_count(ct), 2, "%u nodes", pdb_node_count(ct));
	cr_expect_eq(pdb_node_cc(ct, 0), f);
	cr_assert_eq(pdb_node_child_count(ct, 0), 1);
	c = pdb_node_first_child(ct, 0);
	cr_expect_eq(pdb_node_cc(ct, c), main_);
	v = pdb_node_values(ct, c);
	cr_expect_eq(v[0], 1111, "ticks %lld", (long long)v[0]);
	cr_expect_eq(v[1], 26, "calls %lld", (long long)v[1]);
	cr_assert_not_null(inc = pdb_inclusive_new(ct));
	cr_expect_eq(inc[0], 1111);
	cr_expect_eq(inc[1], 26);
	free(inc);
	pdb_free(ct);
	pdb_free(db);
}

/* ---- the gatherer as a sink ---- */

/* Events passed on with another handle: one without the tree. */
struct redirect {
	const struct pdb_sink	*to;
	struct pdb		*h;
	struct pdb_sink		 sink;
};

static int
r_begin(void *arg, struct pdb *db)
{
	struct redirect *r = arg;

	(void)db;
	return r->to->begin(r->to->arg, r->h);
}

static int
r_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *v)
{
	struct redirect *r = arg;

	(void)db;
	return r->to->enter(r->to->arg, r->h, cc, v);
}

static int
r_exit(void *arg, struct pdb *db)
{
	struct redirect *r = arg;

	(void)db;
	return r->to->exit(r->to->arg, r->h);
}

/* The cost centres of a set, and how often the sink asked. */
struct set {
	uint32_t	 a, b;
	unsigned	 asked[64];
};

static int
in_set(void *arg, const struct pdb *db, uint32_t cc)
{
	struct set *s = arg;

	(void)db;
	cr_assert_lt(cc, 64);
	s->asked[cc]++;
	return cc == s->a || cc == s->b;
}

/* Whether a cost centre of s is on the stack of n, n included. */
static int
set_on_stack(const struct pdb *db, uint32_t n, const struct set *s)
{
	for (; n != PDB_NONE; n = pdb_node_parent(db, n))
		if (pdb_node_cc(db, n) == s->a || pdb_node_cc(db, n) == s->b)
			return 1;
	return 0;
}

/*
 * Two cost centres picked count as one: the tree's root has the cost of
 * every stack through either and the counts of both, only the outermost
 * of either opens a context, and each cost centre is asked about once.
 * From events alone, with a handle that has no tree, the tree of one
 * cost centre is pdb_callers_new()'s, node for node.
 */
Test(callers, stream_picks_several_as_one)
{
	unsigned long seed;
	uint32_t n, cc;
	int checked = 0;

	for (seed = 1; seed <= 30; seed++) {
		struct pdb *db = random_recursive_profile(seed, 8, 300);
		struct pdb *h = pdb_clone_empty(db), *ct, *want;
		struct set s = { .a = 2, .b = 5 };
		struct pdb_callers *cl;
		struct redirect r;
		int64_t inh = 0, own = 0, *inc;
		uint64_t outer = 0;

		cr_assert(h != NULL);
		for (n = 0; n < pdb_node_count(db); n++) {
			cc = pdb_node_cc(db, n);
			if (set_on_stack(db, n, &s))
				inh += pdb_node_value(db, n, 0);
			if (cc == s.a || cc == s.b) {
				own += pdb_node_value(db, n, 1);
				outer += !set_on_stack(db,
				    pdb_node_parent(db, n), &s);
			}
		}
		cr_assert_not_null(cl = pdb_callers_stream_new(in_set, &s));
		r.to = pdb_callers_sink(cl);
		r.h = h;
		memset(&r.sink, 0, sizeof(r.sink));
		r.sink.begin = r_begin;
		r.sink.enter = r_enter;
		r.sink.exit = r_exit;
		r.sink.arg = &r;
		cr_assert_eq(pdb_replay(db, &r.sink), PDB_OK, "%s",
		    pdb_errmsg(h));
		cr_expect_eq(pdb_callers_found(cl), outer);
		for (cc = 0; cc < 8; cc++)
			cr_expect_leq(s.asked[cc], 1, "f%u asked %u times",
			    (unsigned)cc, s.asked[cc]);
		cr_assert_eq(pdb_node_count(h), 0);
		if (outer == 0) {
			cr_expect_null(pdb_callers_tree(cl, h, s.a));
			pdb_callers_free(cl);
			pdb_free(h);
			pdb_free(db);
			continue;
		}
		cr_assert_not_null(ct = pdb_callers_tree(cl, h, s.a), "%s",
		    pdb_errmsg(h));
		cr_assert_not_null(inc = pdb_inclusive_new(ct));
		cr_expect_eq(pdb_node_cc(ct, 0), s.a);
		cr_expect_eq(inc[0], inh, "seed %lu: cost %lld, want %lld",
		    seed, (long long)inc[0], (long long)inh);
		cr_expect_eq(inc[1], own, "seed %lu: calls %lld, want %lld",
		    seed, (long long)inc[1], (long long)own);
		free(inc);
		pdb_free(ct);
		pdb_callers_free(cl);

		/* One cost centre, from events alone, as from the tree. */
		s.b = s.a;
		memset(s.asked, 0, sizeof(s.asked));
		cr_assert_not_null(cl = pdb_callers_stream_new(in_set, &s));
		r.to = pdb_callers_sink(cl);
		cr_assert_eq(pdb_replay(db, &r.sink), PDB_OK);
		cr_assert_not_null(ct = pdb_callers_tree(cl, h, s.a));
		cr_assert_not_null(want = pdb_callers_new(db, s.a));
		cr_assert_eq(pdb_node_count(ct), pdb_node_count(want));
		for (n = 0; n < pdb_node_count(ct); n++) {
			cr_expect_eq(pdb_node_cc(ct, n), pdb_node_cc(want, n));
			cr_expect_eq(pdb_node_parent(ct, n),
			    pdb_node_parent(want, n));
			cr_expect_eq(pdb_node_value(ct, n, 0),
			    pdb_node_value(want, n, 0));
			cr_expect_eq(pdb_node_value(ct, n, 1),
			    pdb_node_value(want, n, 1));
		}
		pdb_free(want);
		pdb_free(ct);
		pdb_callers_free(cl);
		pdb_free(h);
		pdb_free(db);
		checked++;
	}
	cr_expect_gt(checked, 20, "only %d profiles checked", checked);
}

static int
pick_f(void *arg, const struct pdb *db, uint32_t cc)
{
	(void)arg;
	return strcmp(pdb_cc_label(db, cc), "f") == 0;
}

/* A stream's errors are the tree builder's; a tree's sums wrap. */
Test(callers, stream_errors)
{
	struct pdb *db = pdb_new(), *ct;
	struct pdb_callers *cl;
	const struct pdb_sink *s;
	uint32_t mod, f, g, n;
	int64_t one[1] = { 1 }, big[1] = { INT64_MAX };

	cr_assert(pdb_module_add(db, "M", &mod) == PDB_OK);
	cr_assert(pdb_cc_add(db, "f", mod, "", 0, 0, &f) == PDB_OK);
	cr_assert(pdb_cc_add(db, "g", mod, "", 0, 1, &g) == PDB_OK);
	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, NULL) == 0);

	cr_assert_not_null(cl = pdb_callers_stream_new(pick_f, NULL));
	s = pdb_callers_sink(cl);
	cr_assert_eq(s->begin(s->arg, db), PDB_OK);
	cr_assert_eq(s->enter(s->arg, db, g, one), PDB_OK);
	cr_assert_eq(s->exit(s->arg, db), PDB_OK);
	cr_expect_eq(s->enter(s->arg, db, f, one), PDB_EFORMAT);
	cr_expect_str_eq(pdb_errmsg(db), "profile has more than one root");
	cr_expect_eq(s->exit(s->arg, db), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "exit without enter");
	cr_expect_eq(s->enter(s->arg, db, g + 1, one), PDB_EINVAL);
	cr_expect_str_eq(pdb_errmsg(db), "cost centre 2 out of range");
	/* g alone occurred: no tree. */
	cr_expect_null(pdb_callers_tree(cl, db, f));
	cr_expect_str_eq(pdb_errmsg(db), "cost centre 'M.f' never occurs");
	pdb_callers_free(cl);

	cr_assert_not_null(cl = pdb_callers_stream_new(pick_f, NULL));
	s = pdb_callers_sink(cl);
	cr_assert_eq(s->begin(s->arg, db), PDB_OK);
	cr_assert_eq(s->enter(s->arg, db, g, big), PDB_OK);
	cr_expect_eq(s->enter(s->arg, db, f, one), PDB_EFORMAT);
	cr_expect_str_eq(pdb_errmsg(db), "64-bit overflow summing 'ticks' at "
	    "cost centre 'M.f'");
	pdb_callers_free(cl);

	/* The same values set in a tree by hand wrap, as they always did. */
	cr_assert(pdb_root_new(db, g, &n) == PDB_OK);
	cr_assert(pdb_node_set_value(db, n, 0, INT64_MAX) == PDB_OK);
	cr_assert(pdb_node_append(db, n, f, &n) == PDB_OK);
	cr_assert(pdb_node_set_value(db, n, 0, 1) == PDB_OK);
	cr_assert_not_null(ct = pdb_callers_new(db, f), "%s", pdb_errmsg(db));
	cr_expect_eq(pdb_node_count(ct), 2);
	pdb_free(ct);
	pdb_free(db);
}
