/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Hot paths (Morgan & Jarvis section 3): the hot stack, the expensive arm
 * and the most expensive stacks.  Ties always go to the node first in
 * pre-order, so answers do not depend on how a tree was stored.
 */
#include <stdlib.h>

#include "pdb_int.h"

uint32_t
pdb_hot_stack(const struct pdb *db, unsigned m)
{
	uint32_t n, best = PDB_NONE;
	int64_t v, bestv = 0;

	if (m >= db->nmetrics)
		return PDB_NONE;
	for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL)) {
		v = pdbi_value(db, n, m);
		if (best == PDB_NONE || v > bestv) {
			best = n;
			bestv = v;
		}
	}
	return best;
}

size_t
pdb_expensive_arm(const struct pdb *db, const int64_t *inc, unsigned m,
    uint32_t *arm, size_t max)
{
	size_t nm = db->nmetrics, len = 0;
	uint32_t n, c, best;

	if (db->nnodes == 0 || max == 0 || m >= nm)
		return 0;
	n = 0;
	arm[len++] = n;
	while (len < max) {
		best = PDB_NONE;
		for (c = pdbi_first_child(db, n); c != PDB_NONE;
		    c = pdbi_next_sibling(db, c))
			if (best == PDB_NONE ||
			    inc[(size_t)c * nm + m] > inc[(size_t)best * nm + m])
				best = c;
		if (best == PDB_NONE || inc[(size_t)best * nm + m] <= 0)
			break;
		arm[len++] = n = best;
	}
	return len;
}

struct ranked {
	int64_t		 value;
	uint32_t	 rank;		/* position in pre-order */
	uint32_t	 node;
};

static int
cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/*
 * pdb_top_stacks() without memory, for when there is none: the API has
 * no way to report the failure, so give the same answer, in n passes.
 */
static size_t
top_stacks_slowly(const struct pdb *db, unsigned m, uint32_t *top, size_t n)
{
	struct ranked last, best;
	uint32_t node, rank;
	size_t k;
	int64_t v;

	for (k = 0; k < n; k++) {
		best.node = PDB_NONE;
		best.value = 0;
		best.rank = 0;
		for (node = pdb_walk_first(db, NULL), rank = 0;
		    node != PDB_NONE;
		    node = pdb_walk_next(db, node, NULL), rank++) {
			v = pdbi_value(db, node, m);
			if (v == 0 || (k > 0 && (v > last.value ||
			    (v == last.value && rank <= last.rank))))
				continue;
			if (best.node == PDB_NONE || v > best.value) {
				best.value = v;
				best.rank = rank;
				best.node = node;
			}
		}
		if (best.node == PDB_NONE)
			break;
		top[k] = best.node;
		last = best;
	}
	return k;
}

size_t
pdb_top_stacks(const struct pdb *db, unsigned m, uint32_t *top, size_t n)
{
	struct ranked *r;
	uint32_t node, rank = 0;
	size_t k = 0, i;
	int64_t v;

	if (m >= db->nmetrics || n == 0)
		return 0;
	if ((r = pdbi_malloc(((size_t)db->nnodes + 1) * sizeof(*r))) == NULL)
		return top_stacks_slowly(db, m, top, n);
	for (node = pdb_walk_first(db, NULL); node != PDB_NONE;
	    node = pdb_walk_next(db, node, NULL), rank++) {
		v = pdbi_value(db, node, m);
		if (v == 0)
			continue;
		r[k].value = v;
		r[k].rank = rank;
		r[k].node = node;
		k++;
	}
	qsort(r, k, sizeof(*r), cmp_ranked);
	if (k > n)
		k = n;
	for (i = 0; i < k; i++)
		top[i] = r[i].node;
	free(r);
	return k;
}
