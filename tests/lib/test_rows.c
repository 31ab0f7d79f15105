/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The batch walk for writers, pdb_rows_next(): the same nodes in the
 * same order as pdb_walk_next(), with the cost centres, values and
 * child counts the node-by-node calls give, for trees whose nodes are
 * numbered in pre-order, mostly or not at all, wide, deep, and with a
 * single node.  pdb_rows_take() gives the same rows from a tree it takes
 * apart, and leaves its handle with none.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "formats_int.h"
#include "pdb_int.h"

/* The shapes of tree(): parents anywhere, a chain, or mostly the node
 * made just before (a tree made mostly in pre-order, as a projection
 * makes it, where the first child is usually the next node). */
enum shape { RANDOM, CHAIN, MOSTLY_PREORDER };

static struct pdb *
tree(uint32_t nnodes, unsigned long seed, enum shape shape)
{
	struct pdb *db = pdb_new();
	uint32_t mod, cc[5], n, i, p;

	cr_assert(db != NULL);
	cr_assert(pdb_module_add(db, "M", &mod) == PDB_OK);
	for (i = 0; i < 5; i++)
		cr_assert(pdb_cc_add(db, i == 0 ? "a" : i == 1 ? "b" : i == 2 ?
		    "c" : i == 3 ? "d" : "e", mod, "", 0, 0, &cc[i]) == PDB_OK);
	cr_assert(pdb_metric_add(db, "t", "", PDB_COST, 0, NULL) == PDB_OK);
	cr_assert(pdb_metric_add(db, "w", "", PDB_COST, 0, NULL) == PDB_OK);
	cr_assert(pdb_root_new(db, cc[0], &n) == PDB_OK);
	for (i = 1; i < nnodes; i++) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		/* Parents anywhere: the numbers are not in pre-order. */
		p = shape == CHAIN || (shape == MOSTLY_PREORDER &&
		    (seed >> 30) % 3 != 0) ? i - 1 : (uint32_t)(seed >> 33) % i;
		cr_assert(pdb_node_append(db, p, cc[(seed >> 20) % 5], &n) ==
		    PDB_OK);
		cr_assert(pdb_node_set_value(db, n, 0, (int64_t)(seed >> 40) %
		    300) == PDB_OK);
		cr_assert(pdb_node_set_value(db, n, 1, i % 50 == 0 ?
		    -((int64_t)1 << 40) : (int64_t)(i % 7)) == PDB_OK);
	}
	return db;
}

static void
same_as_walk(struct pdb *db)
{
	struct pdb_rows r;
	uint32_t n = pdb_walk_first(db, NULL);
	size_t i, total = 0;
	unsigned m;

	cr_assert(pdb_rows_init(db, &r) == PDB_OK);
	while (pdb_rows_next(db, &r) > 0) {
		cr_assert_leq(r.n, PDB_ROWS_MAX);
		for (i = 0; i < r.n; i++, total++) {
			cr_assert_eq(r.node[i], n, "row %zu", total);
			cr_assert_eq(r.cc[i], pdb_node_cc(db, n));
			cr_assert_eq(r.nkids[i], pdb_node_child_count(db, n),
			    "node %u", n);
			for (m = 0; m < pdb_metric_count(db); m++)
				cr_assert_eq(r.values[i * pdb_metric_count(db) +
				    m], pdb_node_value(db, n, m));
			n = pdb_walk_next(db, n, NULL);
		}
	}
	cr_assert_eq(n, PDB_NONE);
	cr_assert_eq(total, pdb_node_count(db));
	cr_assert_eq(pdb_rows_next(db, &r), 0, "the end stays the end");
	pdb_rows_free(&r);
}

/* The rows of r, started on db, are twin's walk: twin is db's tree, or
 * the same tree made the same way. */
static void
rows_are_walk(struct pdb *db, struct pdb_rows *r, struct pdb *twin)
{
	uint32_t n = pdb_walk_first(twin, NULL);
	size_t i, total = 0;
	unsigned m, nm = pdb_metric_count(twin);

	while (pdb_rows_next(db, r) > 0) {
		cr_assert_leq(r->n, PDB_ROWS_MAX);
		for (i = 0; i < r->n; i++, total++) {
			cr_assert_eq(r->node[i], n, "row %zu", total);
			cr_assert_eq(r->cc[i], pdb_node_cc(twin, n));
			cr_assert_eq(r->nkids[i], pdb_node_child_count(twin, n),
			    "node %u", n);
			for (m = 0; m < nm; m++)
				cr_assert_eq(r->values[i * nm + m],
				    pdb_node_value(twin, n, m), "node %u", n);
			n = pdb_walk_next(twin, n, NULL);
		}
	}
	cr_assert_eq(n, PDB_NONE);
	cr_assert_eq(total, pdb_node_count(twin));
	cr_assert_eq(pdb_rows_next(db, r), 0, "the end stays the end");
}

/* pdb_rows_take() on db against the walk of twin, the same tree made
 * the same way. */
static void
taken_same_as_walk(struct pdb *db, struct pdb *twin)
{
	struct pdb_rows r;
	uint32_t n;

	cr_assert_eq(pdb_node_count(db), pdb_node_count(twin));
	cr_assert(pdb_rows_take(db, &r) == PDB_OK);
	cr_assert_eq(pdb_node_count(db), 0, "the tree is taken");
	cr_assert_eq(pdb_metric_count(db), pdb_metric_count(twin),
	    "the schema stays");
	rows_are_walk(db, &r, twin);
	pdb_rows_free(&r);
	/* The handle is whole: a new tree can be made in it. */
	cr_assert(pdb_root_new(db, pdb_node_cc(twin, 0), &n) == PDB_OK);
	cr_assert(pdb_node_set_value(db, n, 0, 5) == PDB_OK);
	cr_assert_eq(pdb_node_value(db, n, 0), 5);
	cr_assert_eq(pdb_node_value(db, n, 1), 0);
}

Test(rows, taken_trees)
{
	static const enum shape shapes[] = { RANDOM, CHAIN, MOSTLY_PREORDER };
	struct pdb *db, *twin;
	unsigned long seed;
	uint32_t maxdepth;
	size_t k;

	for (k = 0; k < 3; k++)
		for (seed = 1; seed <= 3; seed++) {
			db = tree(2000 * (uint32_t)seed, seed, shapes[k]);
			twin = tree(2000 * (uint32_t)seed, seed, shapes[k]);
			taken_same_as_walk(db, twin);
			pdb_free(db);
			pdb_free(twin);
		}
	/* Numbered in pre-order already: no node moves. */
	db = tree(3000, 5, RANDOM);
	twin = tree(3000, 5, RANDOM);
	cr_assert(pdbi_preorder(db, &maxdepth) == PDB_OK);
	cr_assert(pdbi_preorder(twin, &maxdepth) == PDB_OK);
	taken_same_as_walk(db, twin);
	pdb_free(db);
	pdb_free(twin);
	db = tree(1, 3, RANDOM);
	twin = tree(1, 3, RANDOM);
	taken_same_as_walk(db, twin);
	pdb_free(db);
	pdb_free(twin);
}

/*
 * With each allocation of pdb_rows_take() failing in turn: PDB_ENOMEM
 * with the handle whole, or the same rows, from the tree taken or, when
 * the handle for it could not be made, walked over the links in place.
 * Nothing leaks.
 */
Test(rows, taken_without_memory)
{
	struct pdb *db, *twin = tree(3000, 4, MOSTLY_PREORDER);
	struct pdb_rows r;
	unsigned long k;
	int fired, rc;

	for (k = 1;; k++) {
		db = tree(3000, 4, MOSTLY_PREORDER);
		failalloc_track_begin();
		failalloc_arm(k);
		rc = pdb_rows_take(db, &r);
		fired = failalloc_fired();
		failalloc_arm(0);
		if (rc != PDB_OK) {
			cr_assert(fired);
			cr_assert_eq(rc, PDB_ENOMEM);
			cr_assert_eq(pdb_node_count(db), pdb_node_count(twin));
		} else {
			/* Taken unless the handle for it failed. */
			cr_assert_eq(pdb_node_count(db) == 0, !fired,
			    "allocation %lu", k);
			rows_are_walk(db, &r, twin);
			pdb_rows_free(&r);
		}
		pdb_free(db);
		cr_assert_eq(failalloc_track_end(), 0, "allocation %lu", k);
		if (!fired)
			break;
	}
	cr_assert_gt(k, 2, "pdb_rows_take() allocates");
	pdb_free(twin);
}

/* Format f's bytes for db written with opts flags. */
static char *
written(struct pdb *db, const struct pdb_format *f, unsigned flags,
    size_t *len)
{
	struct pdb_opts opts;
	char *buf = NULL;
	FILE *out;

	memset(&opts, 0, sizeof(opts));
	opts.flags = flags;
	cr_assert((out = open_memstream(&buf, len)) != NULL);
	cr_assert_eq(pdb_write(db, out, f, &opts), PDB_OK, "%s: %s", f->name,
	    pdb_errmsg(db));
	cr_assert_eq(fclose(out), 0);
	return buf;
}

/*
 * The writers that take the tree (PDB_OPT_TAKE) write the same bytes as
 * without it, for trees in pre-order or not, and leave the handle with
 * no tree but its schema.
 */
Test(rows, writers_taking_the_tree_write_the_same)
{
	static const enum shape shapes[] = { RANDOM, MOSTLY_PREORDER, CHAIN };
	const struct pdb_format *fmts[] = { &pdb_fmt_ccsdump, &pdb_fmt_pgcl };
	struct pdb *db, *twin;
	size_t k, j, alen, blen;
	char *a, *b;

	for (k = 0; k < 3; k++)
		for (j = 0; j < 2; j++) {
			db = tree(5000, 11 + k, shapes[k]);
			twin = tree(5000, 11 + k, shapes[k]);
			pdb_set_warn_handler(db, NULL, NULL);
			pdb_set_warn_handler(twin, NULL, NULL);
			a = written(twin, fmts[j], 0, &alen);
			b = written(db, fmts[j], PDB_OPT_TAKE, &blen);
			cr_assert_eq(blen, alen, "%s", fmts[j]->name);
			cr_assert(memcmp(a, b, alen) == 0, "%s", fmts[j]->name);
			cr_assert_eq(pdb_node_count(db), 0, "the tree is taken");
			cr_assert_eq(pdb_node_count(twin), 5000);
			cr_assert_eq(pdb_metric_count(db), 2);
			free(a);
			free(b);
			pdb_free(db);
			pdb_free(twin);
		}
}

Test(rows, random_trees)
{
	unsigned long seed;
	struct pdb *db;

	for (seed = 1; seed <= 4; seed++) {
		db = tree(3000 * (uint32_t)seed, seed, RANDOM);
		same_as_walk(db);
		pdb_free(db);
	}
}

Test(rows, deep_chain)
{
	struct pdb *db = tree(5000, 9, CHAIN);

	same_as_walk(db);
	pdb_free(db);
}

Test(rows, mostly_preorder)
{
	unsigned long seed;
	struct pdb *db;

	for (seed = 1; seed <= 4; seed++) {
		db = tree(4000, seed, MOSTLY_PREORDER);
		same_as_walk(db);
		pdb_free(db);
	}
}

Test(rows, root_alone_and_empty)
{
	struct pdb *db = tree(1, 3, RANDOM), *empty = pdb_new();
	struct pdb_rows r;

	same_as_walk(db);
	cr_assert(pdb_rows_init(empty, &r) == PDB_OK);
	cr_assert_eq(pdb_rows_next(empty, &r), 0);
	pdb_rows_free(&r);
	pdb_free(db);
	pdb_free(empty);
}
