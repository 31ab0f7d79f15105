/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Selection projection (DESIGN.md, "Projection"): each stack is mapped to
 * its selected members through Push.  A tree replayed is a stream in
 * pre-order, which a selecting builder projects as it comes (build.c).
 */
#include <stdlib.h>

#include "pdb_int.h"

struct pdb *
pdb_project_new(struct pdb *db, const struct pdb_sel *sel)
{
	struct pdb_builder *b = NULL;
	struct pdb *out;
	int rc;

	if (db->nnodes == 0) {
		pdb_seterr(db, PDB_EINVAL, "empty profile");
		return NULL;
	}
	if ((out = pdb_clone_empty(db)) == NULL ||
	    (b = pdb_builder_new(out, PDB_BUILD_RAW)) == NULL) {
		pdb_seterr(db, PDB_ENOMEM, "out of memory");
		pdb_free(out);
		return NULL;
	}
	pdb_builder_select(b, sel);
	/* The tree's values were checked when it was made. */
	pdbi_builder_unchecked(b);
	rc = pdb_replay(db, pdb_builder_sink(b));
	pdb_builder_free(b);
	if (rc != PDB_OK) {
		pdb_seterr(db, rc, "%s", pdb_errmsg(out));
		pdb_free(out);
		return NULL;
	}
	return out;
}
