/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Selection projection (DESIGN.md, "Projection"): each stack is mapped to
 * its selected members through Push.  One pre-order walk; a node's image
 * is its parent's image with the node's cost centre pushed on top when
 * that is selected, and the parent's image otherwise.
 */
#include <stdlib.h>

#include "pdb_int.h"

struct pdb *
pdb_project_new(struct pdb *db, const struct pdb_sel *sel)
{
	unsigned char *mask = NULL;
	uint32_t *image = NULL, *onpath = NULL, *ccat = NULL, n, p, root;
	uint32_t depth = 0, prev = 0;
	size_t capat = 0;
	int64_t *vals = NULL;
	struct pdb *out;
	unsigned m, nm = db->nmetrics;
	int rc = PDB_OK;

	if (db->nnodes == 0) {
		pdb_seterr(db, PDB_EINVAL, "empty profile");
		return NULL;
	}
	if ((out = pdb_clone_empty(db)) == NULL ||
	    (mask = pdb_sel_mask_new(sel, db)) == NULL ||
	    (image = pdbi_malloc(db->nnodes * sizeof(*image))) == NULL ||
	    (vals = pdbi_malloc((nm + 1) * sizeof(*vals))) == NULL ||
	    (onpath = pdbi_calloc((size_t)db->nccs + 1,
	    sizeof(*onpath))) == NULL) {
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = pdb_root_new(out, db->nodes[0].cc, &root)) != PDB_OK)
		goto fail_out;
	image[0] = root;
	pdb_node_add_values(out, root, pdb_node_values(db, 0));
	/*
	 * onpath[cc] counts the selected cost centres on the current path
	 * below the root, ccat[d] the one at depth d (or PDB_NONE): an image
	 * stack holds exactly those (compression moves a cost centre, never
	 * drops one), so when cc is not among them Push is just the child,
	 * without its walk down the stack (quadratic on deep stacks).
	 */
	for (n = pdb_walk_next(db, 0, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth)) {
		uint32_t cc = db->nodes[n].cc;
		const int64_t *v = pdb_node_values(db, n);

		while (prev >= depth && prev > 0) {
			if (ccat[prev] != PDB_NONE)
				onpath[ccat[prev]]--;
			prev--;
		}
		if (pdbi_grow(&ccat, &capat, (size_t)depth + 1,
		    sizeof(*ccat)) != PDB_OK) {
			rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
			goto out;
		}
		prev = depth;
		ccat[depth] = PDB_NONE;
		p = image[db->nodes[n].parent];
		if (mask[cc]) {
			if ((rc = onpath[cc] == 0 ? pdb_child_get(out, p, cc,
			    &image[n]) : pdb_push(out, p, cc, &image[n])) !=
			    PDB_OK)
				goto fail_out;
			onpath[cc]++;
			ccat[depth] = cc;
		} else
			image[n] = p;
		for (m = 0; m < nm; m++)
			vals[m] = db->metrics[m].kind == PDB_COUNT && !mask[cc] ?
			    0 : v[m];
		pdb_node_add_values(out, image[n], vals);
	}
	goto out;
fail_out:
	pdb_seterr(db, rc, "%s", pdb_errmsg(out));
out:
	free(mask);
	free(image);
	free(vals);
	free(onpath);
	free(ccat);
	if (rc != PDB_OK) {
		pdb_free(out);
		return NULL;
	}
	return out;
}
