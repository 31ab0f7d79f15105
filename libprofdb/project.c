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
	uint32_t *image = NULL, n, p, root;
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
	    (vals = pdbi_malloc((nm + 1) * sizeof(*vals))) == NULL) {
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		goto out;
	}
	if ((rc = pdb_root_new(out, db->nodes[0].cc, &root)) != PDB_OK)
		goto fail_out;
	image[0] = root;
	pdb_node_add_values(out, root, pdb_node_values(db, 0));
	for (n = pdb_walk_next(db, 0, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL)) {
		uint32_t cc = db->nodes[n].cc;
		const int64_t *v = pdb_node_values(db, n);

		p = image[db->nodes[n].parent];
		if (mask[cc]) {
			if ((rc = pdb_push(out, p, cc, &image[n])) != PDB_OK)
				goto fail_out;
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
	if (rc != PDB_OK) {
		pdb_free(out);
		return NULL;
	}
	return out;
}
