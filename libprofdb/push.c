/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Push, as in Morgan & Jarvis section 2.4.2, over the stack table of
 * pdb_int.h.  Pushing cost centre cc onto stack s:
 *
 *  1. if s's index table has cc, return the stack found (case 1);
 *  2. otherwise follow the back pointers from s, remembering each stack
 *     passed on a conventional stack, until cc or the root is found;
 *  3. not found: make a new stack cc above s (case 2);
 *  4. found at stack p: from p's parent, replay the remembered cost
 *     centres, finding or making each intermediate stack, then push cc on
 *     top (case 3, all three subcases), and memoise the result in s's
 *     index table.
 */
#include <stdlib.h>

#include "pdb_int.h"

static uint64_t
index_key(uint32_t stack, uint32_t cc)
{
	return (uint64_t)stack << 32 | cc;
}

/* Enter nodes appended raw since the last Push into the index. */
static int
index_sync(struct pdb *db)
{
	uint32_t n, p;

	for (n = db->indexed; n < db->nnodes; n++) {
		p = db->nodes[n].parent;
		if (p == PDB_NONE)
			continue;
		if (pdbi_map_put(&db->index, index_key(p, db->nodes[n].cc), n))
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	}
	db->indexed = db->nnodes;
	return PDB_OK;
}

/* The stack "cc on top of s", found in the index or made as a child. */
static int
child_of(struct pdb *db, uint32_t s, uint32_t cc, uint32_t *out)
{
	int rc;

	if (pdbi_map_get(&db->index, index_key(s, cc), out))
		return PDB_OK;
	if ((rc = pdbi_node_new(db, s, cc, out)) != PDB_OK)
		return rc;
	if (pdbi_map_put(&db->index, index_key(s, cc), *out))
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	db->indexed = db->nnodes;
	return PDB_OK;
}

int
pdb_child_get(struct pdb *db, uint32_t parent, uint32_t cc, uint32_t *out)
{
	int rc;

	if (parent >= db->nnodes || cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "pdb_child_get: bad argument");
	if (db->indexed < db->nnodes && (rc = index_sync(db)) != PDB_OK)
		return rc;
	return child_of(db, parent, cc, out);
}

int
pdb_push(struct pdb *db, uint32_t s, uint32_t cc, uint32_t *out)
{
	uint32_t *path = NULL, n, t;
	size_t npath = 0, cap = 0;
	int rc;

	if (s >= db->nnodes || cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "pdb_push: bad argument");
	if (db->indexed < db->nnodes && (rc = index_sync(db)) != PDB_OK)
		return rc;
	/* Case 1: pushed before. */
	if (pdbi_map_get(&db->index, index_key(s, cc), out))
		return PDB_OK;
	/* Walk back to find an earlier occurrence; the root is fixed. */
	for (n = s; n != 0 && db->nodes[n].cc != cc; n = db->nodes[n].parent) {
		if (pdbi_grow(&path, &cap, npath + 1, sizeof(*path)) != PDB_OK) {
			free(path);
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		}
		path[npath++] = db->nodes[n].cc;
	}
	if (n == 0) {
		/* Case 2: cc is not on s. */
		free(path);
		return child_of(db, s, cc, out);
	}
	/* Case 3: drop the occurrence at n and rebuild above its parent. */
	t = db->nodes[n].parent;
	rc = PDB_OK;
	while (npath > 0 && rc == PDB_OK)
		rc = child_of(db, t, path[--npath], &t);
	free(path);
	if (rc == PDB_OK)
		rc = child_of(db, t, cc, &t);
	if (rc != PDB_OK)
		return rc;
	if (pdbi_map_put(&db->index, index_key(s, cc), t))
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	*out = t;
	return PDB_OK;
}
