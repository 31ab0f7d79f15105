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
 *     top (case 3, all three subcases), and memoise the result: in a
 *     cache of the last few (pdb_int.h), which spares a stack pushed
 *     onto many times over, as under a wide stack de-selected, the walk
 *     each time.
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

#define MEMO_BITS	12	/* 4096 entries, 48 KB */

static uint64_t
index_key(uint32_t stack, uint32_t cc)
{
	return (uint64_t)stack << 32 | cc;
}

static uint64_t
kid_hash(uint32_t parent, uint32_t cc)
{
	return pdbi_mix64(index_key(parent, cc));
}

/* The slot from the low bits of the hash, the tag from the high ones. */
static size_t
kid_slot(uint32_t parent, uint32_t cc, size_t cap)
{
	return (size_t)kid_hash(parent, cc) & (cap - 1);
}

static uint32_t
kid_tag(uint64_t h)
{
	return (uint32_t)(h >> 32);
}

/* The slot of the child of s with cost centre cc, or of the empty slot
 * where it would go. */
static size_t
kid_where(const struct pdb *db, uint32_t s, uint32_t cc)
{
	uint64_t h = kid_hash(s, cc);
	uint32_t tag = kid_tag(h), n;
	size_t i, mask = db->kidcap - 1;

	for (i = (size_t)h & mask; (n = db->kids[i].node) != PDB_NONE;
	    i = (i + 1) & mask)
		if (db->kids[i].tag == tag && db->nodes[n].parent == s &&
		    db->nodes[n].cc == cc)
			break;
	return i;
}

/* The child of wide stack s with cost centre cc, or PDB_NONE. */
static uint32_t
kid_find(const struct pdb *db, uint32_t s, uint32_t cc)
{
	return db->kids[kid_where(db, s, cc)].node;
}

/* Make room in kids for more entries. */
static int
kid_reserve(struct pdb *db, size_t more)
{
	struct pdbi_kid *t;
	uint32_t k;
	size_t i, j, cap;

	if ((db->nkids + more) * 4 <= db->kidcap * 3)
		return PDB_OK;
	for (cap = db->kidcap ? db->kidcap * 2 : 1024;
	    (db->nkids + more) * 4 > cap * 3; cap *= 2)
		if (cap > SIZE_MAX / 16)
			return PDB_ENOMEM;
	if ((t = pdbi_malloc(cap * sizeof(*t))) == NULL)
		return PDB_ENOMEM;
	for (i = 0; i < cap; i++)
		t[i].node = PDB_NONE;
	for (i = 0; i < db->kidcap; i++) {
		if ((k = db->kids[i].node) == PDB_NONE)
			continue;
		for (j = kid_slot(db->nodes[k].parent, db->nodes[k].cc, cap);
		    t[j].node != PDB_NONE; j = (j + 1) & (cap - 1))
			;
		t[j] = db->kids[i];
	}
	free(db->kids);
	db->kids = t;
	db->kidcap = cap;
	return PDB_OK;
}

/* Enter node n under its (parent, cc), where there is room, replacing an
 * earlier sibling of the same cost centre (a raw tree may have two). */
static void
kid_put(struct pdb *db, uint32_t n)
{
	uint32_t p = db->nodes[n].parent, cc = db->nodes[n].cc;
	size_t i = kid_where(db, p, cc);

	if (db->kids[i].node == PDB_NONE)
		db->nkids++;
	db->kids[i].node = n;
	db->kids[i].tag = kid_tag(kid_hash(p, cc));
}

/* Make s wide: its nkids children go into kids. */
static int
make_wide(struct pdb *db, uint32_t s, size_t nkids)
{
	size_t need = (size_t)s / 64 + 1, cap = db->nwide;
	uint32_t c, last = db->nodes[s].last_child;
	uint64_t *w;

	if (need > cap) {
		while (cap < need)
			cap = cap ? 2 * cap : 1024;
		if ((w = pdbi_realloc(db->wide, cap * sizeof(*w))) == NULL)
			return PDB_ENOMEM;
		memset(w + db->nwide, 0, (cap - db->nwide) * sizeof(*w));
		db->wide = w;
		db->nwide = cap;
	}
	if (kid_reserve(db, nkids) != PDB_OK)
		return PDB_ENOMEM;
	c = last;
	do {
		c = db->nodes[c].next;
		kid_put(db, c);
	} while (c != last);
	db->wide[s / 64] |= (uint64_t)1 << (s % 64);
	return PDB_OK;
}

/*
 * The last child of s with cost centre cc, or PDB_NONE, into *out: from
 * the child list while it is short, else from kids, making s wide when
 * the list turns out to be long.  Fails only for memory.
 */
int
pdbi_child_find(struct pdb *db, uint32_t s, uint32_t cc, uint32_t *out)
{
	const struct pdbi_node *nodes = db->nodes;
	uint32_t last = nodes[s].last_child, c = last, found = PDB_NONE;
	size_t k = 0;

	if (pdbi_is_wide(db, s)) {
		*out = kid_find(db, s, cc);
		return PDB_OK;
	}
	if (last != PDB_NONE)
		do {
			if (k++ == PDBI_SCAN) {
				k = pdb_node_child_count(db, s);
				if (make_wide(db, s, k) != PDB_OK)
					return pdb_seterr(db, PDB_ENOMEM,
					    "out of memory");
				*out = kid_find(db, s, cc);
				return PDB_OK;
			}
			c = nodes[c].next;
			if (nodes[c].cc == cc)
				found = c;
		} while (c != last);
	*out = found;
	return PDB_OK;
}

/* Make the stack "cc on top of s", which is no child of s yet, with
 * values vals (NULL: zeros). */
int
pdbi_child_new(struct pdb *db, uint32_t s, uint32_t cc, const int64_t *vals,
    uint32_t *out)
{
	int rc, wide;

	if ((wide = pdbi_is_wide(db, s)) && kid_reserve(db, 1) != PDB_OK)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	if ((rc = pdbi_node_new(db, s, cc, vals, out)) != PDB_OK)
		return rc;
	if (wide)
		kid_put(db, *out);
	return PDB_OK;
}

/* The stack "cc on top of s", found or made as a child. */
static int
child_of(struct pdb *db, uint32_t s, uint32_t cc, uint32_t *out)
{
	int rc;

	if ((rc = pdbi_child_find(db, s, cc, out)) != PDB_OK ||
	    *out != PDB_NONE)
		return rc;
	return pdbi_child_new(db, s, cc, NULL, out);
}

int
pdb_child_get(struct pdb *db, uint32_t parent, uint32_t cc, uint32_t *out)
{
	if (parent >= db->nnodes || cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "pdb_child_get: bad argument");
	return child_of(db, parent, cc, out);
}

void
pdbi_index_free(struct pdb *db)
{
	free(db->kids);
	free(db->wide);
	free(db->memo);
	free(db->pushpath);
	db->kids = NULL;
	db->wide = NULL;
	db->memo = NULL;
	db->pushpath = NULL;
	db->kidcap = db->nkids = db->nwide = db->pushcap = 0;
}

static struct pdbi_memo *
memo_slot(const struct pdb *db, uint32_t s, uint32_t cc)
{
	return &db->memo[kid_slot(s, cc, (size_t)1 << MEMO_BITS)];
}

/* Cases 2 and 3 of pdb_push(): cc is no child of s. */
int
pdbi_push_moved(struct pdb *db, uint32_t s, uint32_t cc, uint32_t *out)
{
	struct pdbi_memo *e;
	uint32_t n, t;
	size_t npath = 0, i;
	int rc;

	if (db->memo != NULL) {
		e = memo_slot(db, s, cc);
		if (e->s == s && e->cc == cc) {
			*out = e->t;
			return PDB_OK;
		}
	}
	/* Walk back to find an earlier occurrence; the root is fixed. */
	for (n = s; n != 0 && db->nodes[n].cc != cc; n = db->nodes[n].parent) {
		if (pdbi_grow(&db->pushpath, &db->pushcap, npath + 1,
		    sizeof(*db->pushpath)) != PDB_OK)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		db->pushpath[npath++] = db->nodes[n].cc;
	}
	/* Case 2: cc is not on s, and no child of s has it (case 1). */
	if (n == 0)
		return pdbi_child_new(db, s, cc, NULL, out);
	/* Case 3: drop the occurrence at n and rebuild above its parent. */
	t = db->nodes[n].parent;
	rc = PDB_OK;
	while (npath > 0 && rc == PDB_OK)
		rc = child_of(db, t, db->pushpath[--npath], &t);
	if (rc == PDB_OK)
		rc = child_of(db, t, cc, &t);
	if (rc != PDB_OK)
		return rc;
	*out = t;
	/* A cache: without memory, nothing is remembered. */
	if (db->memo == NULL &&
	    (db->memo = pdbi_malloc(sizeof(*db->memo) << MEMO_BITS)) != NULL)
		for (i = 0; i < (size_t)1 << MEMO_BITS; i++)
			db->memo[i].s = PDB_NONE;
	if (db->memo != NULL) {
		e = memo_slot(db, s, cc);
		e->s = s;
		e->cc = cc;
		e->t = t;
	}
	return PDB_OK;
}

int
pdb_push(struct pdb *db, uint32_t s, uint32_t cc, uint32_t *out)
{
	int rc;

	if (s >= db->nnodes || cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "pdb_push: bad argument");
	/* Case 1: pushed before. */
	if ((rc = pdbi_child_find(db, s, cc, out)) != PDB_OK ||
	    *out != PDB_NONE)
		return rc;
	return pdbi_push_moved(db, s, cc, out);
}
