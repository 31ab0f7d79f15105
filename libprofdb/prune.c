/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Pruning, done so that nothing is lost: a removed subtree's cost folds
 * into the parent that stays, and the report says how much.  Count
 * metrics cannot fold (they count entries of the removed cost centres)
 * and are reported as dropped instead.
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

static int
fails(const int64_t *inc, unsigned nm, const struct pdb_threshold *th,
    size_t nth)
{
	size_t i;

	for (i = 0; i < nth; i++)
		if (th[i].metric < nm && inc[th[i].metric] < th[i].min)
			return 1;
	return 0;
}

void
pdb_prune_report_free(struct pdb_prune_report *rep)
{
	if (rep == NULL)
		return;
	free(rep->folded);
	free(rep->dropped);
	rep->folded = rep->dropped = NULL;
}

struct pdb *
pdb_prune_new(struct pdb *db, const struct pdb_threshold *th, size_t nth,
    const char *const *exclude, size_t nexclude, struct pdb_prune_report *rep)
{
	uint32_t *image = NULL, n, depth, root;
	int64_t *inc = NULL, *vals = NULL, *folded = NULL, *dropped = NULL;
	struct pdb *out = NULL;
	unsigned m, nm = db->nmetrics;
	uint64_t removed = 0;
	int rc = PDB_ENOMEM;
	size_t i;

	if (rep != NULL)
		memset(rep, 0, sizeof(*rep));
	if (db->nnodes == 0) {
		pdb_seterr(db, PDB_EINVAL, "empty profile");
		return NULL;
	}
	if ((out = pdb_clone_empty(db)) == NULL ||
	    (image = pdbi_malloc(db->nnodes * sizeof(*image))) == NULL ||
	    (inc = pdb_inclusive_new(db)) == NULL ||
	    (vals = pdbi_calloc(nm + 1, sizeof(*vals))) == NULL ||
	    (folded = pdbi_calloc(nm + 1, sizeof(*folded))) == NULL ||
	    (dropped = pdbi_calloc(nm + 1, sizeof(*dropped))) == NULL)
		goto fail;
	if ((rc = pdb_root_new(out, db->nodes[0].cc, &root)) != PDB_OK)
		goto fail;
	image[0] = root;
	pdb_node_add_values(out, root, pdb_node_values(db, 0));
	/*
	 * Walk in pre-order.  A removed node maps to PDB_NONE and adds its
	 * whole subtree (its inclusive cost) to its parent's image; nodes
	 * below a removed one are skipped.
	 */
	for (n = pdb_walk_next(db, 0, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth)) {
		uint32_t p = image[db->nodes[n].parent], cc = db->nodes[n].cc;
		const int64_t *ni = inc + (size_t)n * nm;
		int cut;

		if (p == PDB_NONE) {
			image[n] = PDB_NONE;
			continue;
		}
		cut = fails(ni, nm, th, nth);
		for (i = 0; i < nexclude && !cut; i++)
			cut = pdb_cc_glob(db, cc, exclude[i]);
		if (!cut) {
			if ((rc = pdbi_node_new(out, p, cc, &image[n])) != 0)
				goto fail;
			pdb_node_add_values(out, image[n],
			    pdb_node_values(db, n));
			continue;
		}
		image[n] = PDB_NONE;
		removed++;
		for (m = 0; m < nm; m++) {
			if (db->metrics[m].kind == PDB_COUNT) {
				vals[m] = 0;
				dropped[m] += ni[m];
			} else {
				vals[m] = ni[m];
				folded[m] += ni[m];
			}
		}
		pdb_node_add_values(out, p, vals);
	}
	free(image);
	free(inc);
	free(vals);
	if (rep != NULL) {
		rep->nodes_removed = removed;
		rep->folded = folded;
		rep->dropped = dropped;
	} else {
		free(folded);
		free(dropped);
	}
	return out;
fail:
	if (rc == PDB_ENOMEM)
		pdb_seterr(db, PDB_ENOMEM, "out of memory");
	else
		pdb_seterr(db, rc, "%s", pdb_errmsg(out));
	pdb_free(out);
	free(image);
	free(inc);
	free(vals);
	free(folded);
	free(dropped);
	return NULL;
}
