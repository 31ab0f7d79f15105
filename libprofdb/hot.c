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

/*
 * The arm, with node n's inclusive value at inc[n * stride]: its first
 * max nodes in arm, and its whole length returned, as snprintf(3) does,
 * so that a caller can tell an arm cut short.
 */
static size_t
arm_of(const struct pdb *db, const int64_t *inc, size_t stride,
    uint32_t *arm, size_t max)
{
	size_t len = 0;
	uint32_t n, c, best;

	if (db->nnodes == 0)
		return 0;
	n = 0;
	for (;;) {
		if (len < max)
			arm[len] = n;
		len++;
		best = PDB_NONE;
		for (c = pdbi_first_child(db, n); c != PDB_NONE;
		    c = pdbi_next_sibling(db, c))
			if (best == PDB_NONE ||
			    inc[(size_t)c * stride] > inc[(size_t)best * stride])
				best = c;
		if (best == PDB_NONE || inc[(size_t)best * stride] <= 0)
			break;
		n = best;
	}
	return len;
}

size_t
pdb_expensive_arm(const struct pdb *db, const int64_t *inc, unsigned m,
    uint32_t *arm, size_t max)
{
	if (m >= db->nmetrics)
		return 0;
	return arm_of(db, inc + m, db->nmetrics, arm, max);
}

size_t
pdb_expensive_arm_of(const struct pdb *db, const int64_t *inc, uint32_t *arm,
    size_t max)
{
	return arm_of(db, inc, 1, arm, max);
}

struct ranked {
	int64_t		 value;
	uint32_t	 rank;		/* position in pre-order */
	uint32_t	 node;
};

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

/* Whether a is a worse stack than b: less cost, or as much but later. */
static int
worse(const struct ranked *a, const struct ranked *b)
{
	return a->value < b->value || (a->value == b->value &&
	    a->rank > b->rank);
}

/* Restore the heap h of k below slot i: the worst stack on top. */
static void
sift_down(struct ranked *h, size_t k, size_t i)
{
	struct ranked t;
	size_t c;

	while ((c = 2 * i + 1) < k) {
		if (c + 1 < k && worse(&h[c + 1], &h[c]))
			c++;
		if (!worse(&h[c], &h[i]))
			break;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

/*
 * The best n in a heap of n with the worst of them on top, which a
 * better stack replaces: memory for n stacks, not for the tree.
 */
size_t
pdb_top_stacks(const struct pdb *db, unsigned m, uint32_t *top, size_t n)
{
	struct ranked *h, t, x;
	uint32_t node, rank = 0;
	size_t k = 0, i, j;
	int64_t v;

	if (m >= db->nmetrics || n == 0)
		return 0;
	if (n > db->nnodes)
		n = db->nnodes;
	if ((h = pdbi_malloc((n + 1) * sizeof(*h))) == NULL)
		return top_stacks_slowly(db, m, top, n);
	for (node = pdb_walk_first(db, NULL); node != PDB_NONE;
	    node = pdb_walk_next(db, node, NULL), rank++) {
		if ((v = pdbi_value(db, node, m)) == 0)
			continue;
		x.value = v;
		x.rank = rank;
		x.node = node;
		if (k < n) {
			/* Up from the new leaf while its parent is better. */
			for (i = k++; i > 0 && worse(&x, &h[(i - 1) / 2]);
			    i = (i - 1) / 2)
				h[i] = h[(i - 1) / 2];
			h[i] = x;
		} else if (v > h[0].value) {
			/* Ranks only grow: an equal value is no better. */
			h[0] = x;
			sift_down(h, k, 0);
		}
	}
	/* Worst to the end, one at a time: best first. */
	for (j = k; j > 1; j--) {
		t = h[0];
		h[0] = h[j - 1];
		h[j - 1] = t;
		sift_down(h, j - 1, 0);
	}
	for (i = 0; i < k; i++)
		top[i] = h[i].node;
	free(h);
	return k;
}
