/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The inverted call graph of one cost centre: its calling contexts, read
 * from the back pointers of each outermost occurrence and merged into a
 * tree rooted at the cost centre.  Inner occurrences (recursion left
 * uncompressed) are inside an outer one's inclusive cost already; their
 * own count metrics (entries) go to the outermost occurrence above them,
 * so that a context counts every entry made through it.
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

/* Add node n's count metrics, or its cost metrics, to vals. */
static void
sum_kind(const struct pdb *db, uint32_t n, enum pdb_kind kind, int64_t *vals)
{
	unsigned m;

	for (m = 0; m < db->nmetrics; m++)
		if (db->metrics[m].kind == kind)
			vals[m] = (int64_t)((uint64_t)vals[m] +
			    (uint64_t)pdbi_value(db, n, m));
}

struct pdb *
pdb_callers_new(struct pdb *db, uint32_t cc)
{
	uint32_t *stack = NULL, *occ = NULL, n, depth, k, t = PDB_NONE, root;
	uint32_t outer = PDB_NONE;
	size_t occcap = 0;
	int64_t *vals = NULL, *cost = NULL;
	size_t cap = 0, nm = db->nmetrics, found = 0;
	struct pdb *out = NULL;
	int rc = PDB_ENOMEM;

	if (db->nnodes == 0 || cc >= db->nccs) {
		pdb_seterr(db, PDB_EINVAL, "no such cost centre");
		return NULL;
	}
	if ((out = pdb_clone_empty(db)) == NULL ||
	    (vals = pdbi_calloc(nm + 1, sizeof(*vals))) == NULL ||
	    (cost = pdbi_calloc(nm + 1, sizeof(*cost))) == NULL)
		goto fail;
	if ((rc = pdb_root_new(out, cc, &root)) != PDB_OK)
		goto fail;
	/*
	 * stack[d] is the node at depth d of the current path.  The cost
	 * of the open outermost occurrence (at depth outer) sums the own
	 * costs of its subtree, which ends at the next node no deeper.
	 */
	for (n = pdb_walk_first(db, &depth);; n = pdb_walk_next(db, n,
	    &depth)) {
		if (outer != PDB_NONE && (n == PDB_NONE || depth <= outer)) {
			if ((rc = pdb_node_add_values(out, t, cost)) != PDB_OK)
				goto fail;
			memset(cost, 0, nm * sizeof(*cost));
			outer = PDB_NONE;
		}
		if (n == PDB_NONE)
			break;
		if (outer != PDB_NONE)
			sum_kind(db, n, PDB_COST, cost);
		if (pdbi_grow(&stack, &cap, (size_t)depth + 1, sizeof(*stack)) ||
		    pdbi_grow(&occ, &occcap, (size_t)depth + 1, sizeof(*occ))) {
			rc = PDB_ENOMEM;
			goto fail;
		}
		stack[depth] = n;
		/* occ[d]: occurrences of cc on the path down to depth d. */
		occ[depth] = (depth > 0 ? occ[depth - 1] : 0) +
		    (db->nodes[n].cc == cc);
		if (db->nodes[n].cc != cc)
			continue;
		memset(vals, 0, nm * sizeof(*vals));
		sum_kind(db, n, PDB_COUNT, vals);
		if (occ[depth] > 1) {
			/* Pre-order: t is still the outermost occurrence's. */
			if ((rc = pdb_node_add_values(out, t, vals)) != PDB_OK)
				goto fail;
			continue;
		}
		found++;
		t = root;
		for (k = depth; k-- > 0;)
			if ((rc = pdb_child_get(out, t, db->nodes[stack[k]].cc,
			    &t)) != PDB_OK)
				goto fail;
		if ((rc = pdb_node_add_values(out, t, vals)) != PDB_OK)
			goto fail;
		outer = depth;
		sum_kind(db, n, PDB_COST, cost);
	}
	free(occ);
	free(stack);
	free(vals);
	free(cost);
	if (found == 0) {
		pdb_seterr(db, PDB_EINVAL, "cost centre '%s' never occurs",
		    pdb_cc_fullname(db, cc));
		pdb_free(out);
		return NULL;
	}
	return out;
fail:
	if (rc == PDB_ENOMEM)
		pdb_seterr(db, PDB_ENOMEM, "out of memory");
	else
		pdb_seterr(db, rc, "%s", pdb_errmsg(out));
	pdb_free(out);
	free(occ);
	free(stack);
	free(vals);
	free(cost);
	return NULL;
}
