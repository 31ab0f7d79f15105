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
