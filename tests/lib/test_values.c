/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Node values, which the library stores as narrow as they allow and
 * widens as needed: every value reads back as it was set, whatever came
 * before or after it in its column, through the three accessors; sums
 * wrap as unsigned; a failed widening leaves the values as they were.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "pdb.h"

#define NM	3

static struct pdb *
chain(uint32_t nnodes)
{
	struct pdb *db = pdb_new();
	uint32_t mod, cc, n, i;

	cr_assert(db != NULL);
	cr_assert(pdb_module_add(db, "M", &mod) == PDB_OK);
	cr_assert(pdb_cc_add(db, "f", mod, "", 0, 0, &cc) == PDB_OK);
	for (i = 0; i < NM; i++)
		cr_assert(pdb_metric_add(db, i == 0 ? "a" : i == 1 ? "b" : "c",
		    "", i == 2 ? PDB_COUNT : PDB_COST, 0, NULL) == PDB_OK);
	cr_assert(pdb_root_new(db, cc, &n) == PDB_OK);
	for (i = 1; i < nnodes; i++)
		cr_assert(pdb_node_append(db, n, cc, &n) == PDB_OK);
	return db;
}

/* Values of every width and sign, in an order that widens step by step. */
static const int64_t steps[] = {
	0, 1, 255, 256, -1, 65535, -32768, 65536, 4294967295LL, -2147483648LL,
	4294967296LL, INT64_MAX, INT64_MIN, 7
};
#define NSTEPS	(sizeof(steps) / sizeof(steps[0]))

Test(values, read_back_as_set)
{
	struct pdb *db = chain(1000);
	uint32_t n;
	size_t i;
	unsigned m;
	const int64_t *v;

	for (i = 0; i < NSTEPS; i++)
		for (n = 0; n < 1000; n += 1 + (uint32_t)i)
			for (m = 0; m < NM; m++)
				cr_assert(pdb_node_set_value(db, n, m, m == 1 ?
				    steps[i] / -2 : steps[i]) == PDB_OK);
	for (n = 0; n < 1000; n++) {
		int64_t want = 0;

		/* The last step whose stride lands on n. */
		for (i = 0; i < NSTEPS; i++)
			if (n % (1 + i) == 0)
				want = steps[i];
		v = pdb_node_values(db, n);
		for (m = 0; m < NM; m++) {
			int64_t w = m == 1 ? want / -2 : want;

			cr_assert_eq(pdb_node_value(db, n, m), w, "node %u, "
			    "metric %u: %lld, not %lld", n, m,
			    (long long)pdb_node_value(db, n, m), (long long)w);
			cr_assert_eq(v[m], w);
		}
	}
	pdb_free(db);
}

/*
 * A sum past 64 bits is refused, as the builder refuses one from a file,
 * and leaves every value as it was; one just inside is taken.
 */
Test(values, sums_past_64_bits_refused)
{
	struct pdb *db = chain(2);
	int64_t up[NM] = { 0, 0, 1 }, down[NM] = { 0, -1, 0 },
	    late[NM] = { -5, 5, INT64_MAX },
	    fits[NM] = { -1, 1, INT64_MAX - 2 };

	cr_assert(pdb_node_set_value(db, 1, 0, INT64_MAX) == PDB_OK);
	cr_assert(pdb_node_set_value(db, 1, 1, INT64_MIN) == PDB_OK);
	cr_assert(pdb_node_set_value(db, 1, 2, 2) == PDB_OK);
	up[0] = 1;
	cr_expect_eq(pdb_node_add_values(db, 1, up), PDB_EINVAL);
	cr_expect(strstr(pdb_errmsg(db), "64-bit overflow") != NULL, "%s",
	    pdb_errmsg(db));
	cr_expect_eq(pdb_node_add_values(db, 1, down), PDB_EINVAL);
	/* The overflow in the last metric, after sums that fit. */
	cr_expect_eq(pdb_node_add_values(db, 1, late), PDB_EINVAL);
	cr_expect_eq(pdb_node_value(db, 1, 0), INT64_MAX);
	cr_expect_eq(pdb_node_value(db, 1, 1), INT64_MIN);
	cr_expect_eq(pdb_node_value(db, 1, 2), 2, "nothing added");
	cr_assert_eq(pdb_node_add_values(db, 1, fits), PDB_OK);
	cr_expect_eq(pdb_node_value(db, 1, 0), INT64_MAX - 1);
	cr_expect_eq(pdb_node_value(db, 1, 1), INT64_MIN + 1);
	cr_expect_eq(pdb_node_value(db, 1, 2), INT64_MAX);
	cr_expect_eq(pdb_node_value(db, 0, 0), 0);
	pdb_free(db);
}

/* Widening a column needs memory: without, nothing changes. */
Test(values, failed_widening_changes_nothing)
{
	struct pdb *db = chain(100000);
	int64_t add[NM] = { 5, 1000000, 3 };
	unsigned long k;
	unsigned m;
	int rc;

	cr_assert(pdb_node_set_value(db, 7, 0, 1) == PDB_OK);
	for (k = 1;; k++) {
		failalloc_arm(k);
		rc = pdb_node_add_values(db, 7, add);
		failalloc_arm(0);
		if (rc == PDB_OK)
			break;
		cr_assert_eq(rc, PDB_ENOMEM);
		cr_assert_str_eq(pdb_errmsg(db), "out of memory");
		cr_assert_eq(pdb_node_value(db, 7, 0), 1);
		for (m = 1; m < NM; m++)
			cr_assert_eq(pdb_node_value(db, 7, m), 0);
	}
	cr_assert_gt(k, 1);
	cr_expect_eq(pdb_node_value(db, 7, 0), 6);
	cr_expect_eq(pdb_node_value(db, 7, 1), 1000000);
	cr_expect_eq(pdb_node_value(db, 7, 2), 3);
	cr_expect_eq(pdb_node_value(db, 8, 1), 0);
	pdb_free(db);
}

/*
 * A few values too wide for their column escape it (pdb_int.h): they
 * read back, through every accessor and the batch walk, as sums change
 * them, when so many more come that the column widens after all, and
 * in a copy (pdb_prune_new() copies, then renumbers).
 */
#define NBIG	20000

static int64_t
big_value(uint32_t n, int round)
{
	if (n % 97 == 3)
		return (int64_t)1 << (33 + round) | n;
	if (n % 179 == 5)
		return -300 - (int64_t)n;
	return n % 200;
}

static void
check_all(struct pdb *db, const int64_t *want, const char *when)
{
	struct pdb_rows r;
	uint32_t n, seen = 0;
	size_t i;

	for (n = 0; n < NBIG; n++) {
		cr_assert_eq(pdb_node_value(db, n, 0), want[n], "%s: node %u: "
		    "%lld, not %lld", when, n,
		    (long long)pdb_node_value(db, n, 0), (long long)want[n]);
		cr_assert_eq(pdb_node_values(db, n)[0], want[n]);
	}
	cr_assert(pdb_rows_init(db, &r) == PDB_OK);
	while (pdb_rows_next(db, &r) > 0)
		for (i = 0; i < r.n; i++, seen++)
			cr_assert_eq(r.values[i * NM], want[r.node[i]],
			    "%s: rows, node %u", when, r.node[i]);
	pdb_rows_free(&r);
	cr_assert_eq(seen, NBIG);
}

Test(values, few_wide_values_escape)
{
	struct pdb *db = chain(NBIG), *copy;
	struct pdb_threshold th = { 0, 0 };
	int64_t *want = calloc(NBIG, sizeof(*want)), add[NM] = { 0 };
	uint32_t n;

	cr_assert(want != NULL);
	for (n = 0; n < NBIG; n++) {
		want[n] = big_value(n, 0);
		cr_assert(pdb_node_set_value(db, n, 0, want[n]) == PDB_OK);
	}
	check_all(db, want, "set");
	/* Sums: escaped values change, and a few more escape. */
	for (n = 0; n < NBIG; n += 7) {
		add[0] = n % 97 == 3 ? (int64_t)1 << 34 : 1;
		cr_assert(pdb_node_add_values(db, n, add) == PDB_OK);
		want[n] += add[0];
	}
	check_all(db, want, "added");
	copy = pdb_prune_new(db, &th, 1, NULL, 0, NULL);
	cr_assert(copy != NULL, "%s", pdb_errmsg(db));
	check_all(copy, want, "copied");
	pdb_free(copy);
	/* So many that the column widens, taking them back. */
	for (n = 0; n < NBIG; n += 2) {
		want[n] = big_value(n, 1) + ((int64_t)1 << 40);
		cr_assert(pdb_node_set_value(db, n, 0, want[n]) == PDB_OK);
	}
	check_all(db, want, "widened");
	free(want);
	pdb_free(db);
}

/*
 * Pruning folds several columns into a wider type where the nodes kept
 * fit in the room the narrow columns had; the room left for each is
 * counted from what all had, not from what the column before left: a
 * later widening then writes within its column (an overflow under
 * SAN=1 when three columns shrank the room three times).
 */
Test(values, room_after_pruning_packs_several_columns)
{
	struct pdb *db = pdb_new();
	const char *excluded[] = { "L" };
	uint32_t mod, r, k, l, ccs[3], n, j;
	unsigned m;

	cr_assert(db != NULL);
	cr_assert(pdb_module_add(db, "M", &mod) == PDB_OK);
	for (m = 0; m < 3; m++) {
		cr_assert(pdb_metric_add(db, m == 0 ? "a" : m == 1 ? "b" : "c",
		    "", PDB_COST, 0, NULL) == PDB_OK);
		cr_assert(pdb_cc_add(db, m == 0 ? "R" : m == 1 ? "K" : "L",
		    mod, "", 0, -1, &ccs[m]) == PDB_OK);
	}
	/* 200 + 200 folds to 400: each column from 8 to 16 bits. */
	cr_assert(pdb_root_new(db, ccs[0], &r) == PDB_OK);
	for (j = 0; j < 511; j++) {
		cr_assert(pdb_node_append(db, r, ccs[1], &k) == PDB_OK);
		cr_assert(pdb_node_append(db, k, ccs[2], &l) == PDB_OK);
		for (m = 0; m < 3; m++) {
			cr_assert(pdb_node_set_value(db, k, m, 200) == PDB_OK);
			cr_assert(pdb_node_set_value(db, l, m, 200) == PDB_OK);
		}
	}
	cr_assert(pdb_prune(db, NULL, 0, excluded, 1, NULL) == PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_assert_eq(pdb_node_count(db), 512);
	/* Past what escapes: the column widens to 64 bits. */
	for (n = 1; n < 512; n++)
		cr_assert(pdb_node_set_value(db, n, 0, ((int64_t)1 << 40) + n) ==
		    PDB_OK, "%s", pdb_errmsg(db));
	for (n = 1; n < 512; n++)
		for (m = 0; m < 3; m++)
			cr_assert_eq(pdb_node_value(db, n, m), m == 0 ?
			    ((int64_t)1 << 40) + n : 400, "node %u, metric %u",
			    n, m);
	pdb_free(db);
}

/* Escaping needs memory too: without, nothing changes. */
Test(values, failed_escape_changes_nothing)
{
	struct pdb *db = chain(100000);
	int64_t add[NM] = { 1000, 0, 0 };
	unsigned long k;
	int rc;

	cr_assert(pdb_node_set_value(db, 7, 0, 1) == PDB_OK);
	cr_assert(pdb_node_set_value(db, 8, 0, 2) == PDB_OK);
	for (k = 1;; k++) {
		failalloc_arm(k);
		rc = pdb_node_add_values(db, 7, add);
		failalloc_arm(0);
		if (rc == PDB_OK)
			break;
		cr_assert_eq(rc, PDB_ENOMEM);
		cr_assert_eq(pdb_node_value(db, 7, 0), 1);
	}
	cr_assert_gt(k, 1);
	cr_expect_eq(pdb_node_value(db, 7, 0), 1001);
	cr_expect_eq(pdb_node_value(db, 8, 0), 2);
	pdb_free(db);
}
