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

static size_t
kid_slot(uint32_t parent, uint32_t cc, size_t cap)
{
	uint64_t h = index_key(parent, cc);

	h ^= h >> 31;
	h *= 0x9e3779b97f4a7c15ULL;
	h ^= h >> 29;
	return (size_t)h & (cap - 1);
}

/* The child of s with cost centre cc in the index, or PDB_NONE. */
static uint32_t
kid_find(const struct pdb *db, uint32_t s, uint32_t cc)
{
	size_t i, mask = db->kidcap - 1;
	uint32_t n;

	if (db->kidcap == 0)
		return PDB_NONE;
	for (i = kid_slot(s, cc, db->kidcap);
	    (n = db->kids[i]) != PDB_NONE; i = (i + 1) & mask)
		if (db->nodes[n].parent == s && db->nodes[n].cc == cc)
			return n;
	return PDB_NONE;
}

/* Enter node n under its (parent, cc), replacing an earlier sibling of
 * the same cost centre (a raw tree may have two). */
static int
kid_put(struct pdb *db, uint32_t n)
{
	uint32_t *t, k, p = db->nodes[n].parent, cc = db->nodes[n].cc;
	size_t i, j, cap, mask;

	if ((db->nkids + 1) * 4 > db->kidcap * 3) {
		cap = db->kidcap ? db->kidcap * 2 : 1024;
		if ((t = pdbi_malloc(cap * sizeof(*t))) == NULL)
			return PDB_ENOMEM;
		for (i = 0; i < cap; i++)
			t[i] = PDB_NONE;
		for (i = 0; i < db->kidcap; i++) {
			if ((k = db->kids[i]) == PDB_NONE)
				continue;
			for (j = kid_slot(db->nodes[k].parent, db->nodes[k].cc,
			    cap); t[j] != PDB_NONE; j = (j + 1) & (cap - 1))
				;
			t[j] = k;
		}
		free(db->kids);
		db->kids = t;
		db->kidcap = cap;
	}
	mask = db->kidcap - 1;
	for (i = kid_slot(p, cc, db->kidcap); (k = db->kids[i]) != PDB_NONE;
	    i = (i + 1) & mask)
		if (db->nodes[k].parent == p && db->nodes[k].cc == cc) {
			db->kids[i] = n;
			return PDB_OK;
		}
	db->kids[i] = n;
	db->nkids++;
	return PDB_OK;
}

/* Enter nodes appended raw since the last Push into the index. */
static int
index_sync(struct pdb *db)
{
	uint32_t n;

	for (n = db->indexed; n < db->nnodes; n++) {
		if (db->nodes[n].parent == PDB_NONE)
			continue;
		if (kid_put(db, n) != PDB_OK)
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

	if ((*out = kid_find(db, s, cc)) != PDB_NONE)
		return PDB_OK;
	if ((rc = pdbi_node_new(db, s, cc, out)) != PDB_OK)
		return rc;
	if (kid_put(db, *out) != PDB_OK)
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
	if ((*out = kid_find(db, s, cc)) != PDB_NONE ||
	    pdbi_map_get(&db->memo, index_key(s, cc), out))
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
	if (pdbi_map_put(&db->memo, index_key(s, cc), t))
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	*out = t;
	return PDB_OK;
}
