/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The tree in pre-order, a batch of rows at a time, for the writers
 * (pdb_rows_next() in pdb.h).  Node by node through the public calls, a
 * writer spent more time getting a node than writing it: a call for the
 * cost centre, one for the values, a switch on the column's type for
 * each value, one for the child count, which walked the list of the
 * children, a cache miss after the other.  Here the walk is one loop
 * over the links, the child lists of a batch are walked side by side,
 * and the values are read a column at a time, the type looked at once a
 * batch.  A writer whose handle is done with its tree takes it
 * (pdb_rows_take()), and then follows no link at all: the nodes are
 * numbered in pre-order first (take_number()), and read by place.
 */
#include <stdlib.h>

#include "pdb_int.h"

int
pdb_rows_init(const struct pdb *db, struct pdb_rows *r)
{
	r->n = 0;
	r->next = db->nnodes > 0 ? 0 : PDB_NONE;
	r->tree = NULL;
	r->numbered = 0;
	r->values = pdbi_malloc(((size_t)db->nmetrics + 1) * PDB_ROWS_MAX *
	    sizeof(*r->values));
	return r->values != NULL ? PDB_OK : PDB_ENOMEM;
}

/*
 * Number the nodes of a tree taken in pre-order, in its links, which
 * nothing follows again.  A parent's number is below its children's and
 * siblings are in the order of their numbers (pdb_int.h), so the sizes
 * of the subtrees add up from the last node to the first, and then, from
 * the first, each node takes the next free place in its parent's range.
 * Each loop reads the nodes in order, and its reads of parents do not
 * wait for each other, where the walk over the links waits for each
 * link.  A node's fields become:
 *
 *   last_child	its subtree's size, then the next free place in its
 *		range, and at last, by place, the node in that place;
 *   next	its child count;
 *   parent	its place.
 *
 * Returns whether every node kept its number (then no node is moved).
 */
static int
take_number(struct pdb *t)
{
	struct pdbi_node *nodes = t->nodes;
	uint32_t n, p, x, nn = t->nnodes;
	int same = 1;

	for (n = 0; n < nn; n++) {
		nodes[n].last_child = 1;
		nodes[n].next = 0;
	}
	for (n = nn; n-- > 1;) {
		p = nodes[n].parent;
		nodes[p].last_child += nodes[n].last_child;
		nodes[p].next++;
	}
	nodes[0].parent = 0;
	nodes[0].last_child = 1;
	for (n = 1; n < nn; n++) {
		p = nodes[n].parent;
		x = nodes[p].last_child;
		nodes[p].last_child = x + nodes[n].last_child;
		nodes[n].last_child = x + 1;
		nodes[n].parent = x;
		same &= x == n;
	}
	if (!same)
		for (n = 0; n < nn; n++)
			nodes[nodes[n].parent].last_child = n;
	return same;
}

int
pdb_rows_take(struct pdb *db, struct pdb_rows *r)
{
	int rc;

	if ((rc = pdb_rows_init(db, r)) != PDB_OK || db->nnodes == 0)
		return rc;
	/* Without memory for the handle, the walk over the links. */
	if ((r->tree = pdbi_tree_take(db)) == NULL)
		return PDB_OK;
	pdbi_index_free(r->tree);
	r->numbered = take_number(r->tree);
	return PDB_OK;
}

void
pdb_rows_free(struct pdb_rows *r)
{
	free(r->values);
	pdbi_tree_free(r->tree);
	r->values = NULL;
	r->tree = NULL;
}

/* Column c's values of the k nodes, into every nm-th of out. */
static void
gather(const struct pdb *db, unsigned m, const uint32_t *node, size_t k,
    int64_t *out, size_t nm)
{
	const struct pdbi_col *c = &db->cols[m];
	size_t i;

	/* The type made a constant in each loop. */
	switch (c->type) {
#define GATHER(t)							\
	case t:								\
		for (i = 0; i < k; i++)					\
			out[i * nm] = pdbi_elem_get(c->v, t, node[i]);	\
		break
	GATHER(PDBI_U8);
	GATHER(PDBI_S8);
	GATHER(PDBI_U16);
	GATHER(PDBI_S16);
	GATHER(PDBI_U32);
	GATHER(PDBI_S32);
	GATHER(PDBI_S64);
#undef GATHER
	default:
		for (i = 0; i < k; i++)
			out[i * nm] = 0;
		break;
	}
	if (c->nside == 0)
		return;
	for (i = 0; i < k; i++)
		if (out[i * nm] == c->esc)
			out[i * nm] = pdbi_side_get(db, node[i], m);
}

/*
 * Count the children of the rows, a step along every list not yet done
 * a round: the steps of a round, often cache misses (a node's children
 * are as far apart as their subtrees are big), wait for the memory
 * together instead of one after the other.  cur[a] is a child of row
 * row[a], counted, and last[a] its last.
 */
static void
count_kids(const struct pdbi_node *nodes, struct pdb_rows *r,
    uint32_t *cur, uint32_t *last, uint32_t *row, size_t na)
{
	size_t a, j;
	uint32_t c;

	while (na > 0) {
		for (a = j = 0; a < na; a++) {
			c = nodes[cur[a]].next;
			r->nkids[row[a]]++;
			if (c != last[a]) {
				cur[j] = c;
				last[j] = last[a];
				row[j++] = row[a];
			}
		}
		na = j;
	}
}

/* How far ahead of the row the walk of a taken tree asks for a node
 * moved, and its values. */
#define TAKEN_AHEAD	24

/* The rows of a taken tree (take_number()): r->next is a place. */
static size_t
rows_taken(struct pdb_rows *r)
{
	const struct pdb *t = r->tree;
	const struct pdbi_node *nodes = t->nodes;
	size_t i, k, left = t->nnodes - r->next;
	uint32_t n, f;
	unsigned m;

	k = left;
	if (k > PDB_ROWS_MAX)
		k = PDB_ROWS_MAX;
	for (i = 0; i < k; i++) {
		n = r->numbered ? r->next + (uint32_t)i :
		    nodes[r->next + i].last_child;
		/*
		 * A node moved is a cache miss, and so are its values:
		 * ask for them ahead, where the walk comes to it.
		 */
		if (!r->numbered && i + TAKEN_AHEAD < left) {
			f = nodes[r->next + i + TAKEN_AHEAD].last_child;
			if (f != nodes[r->next + i + TAKEN_AHEAD - 1].last_child +
			    1) {
				__builtin_prefetch(&nodes[f]);
				for (m = 0; m < t->nmetrics; m++)
					__builtin_prefetch(t->cols[m].v +
					    (size_t)f * t->cols[m].size);
			}
		}
		r->node[i] = n;
		r->cc[i] = nodes[n].cc;
		r->nkids[i] = nodes[n].next;
	}
	r->next += (uint32_t)k;
	r->n = k;
	for (m = 0; m < t->nmetrics; m++)
		gather(t, m, r->node, k, r->values + m, t->nmetrics);
	return k;
}

size_t
pdb_rows_next(const struct pdb *db, struct pdb_rows *r)
{
	const struct pdbi_node *nodes = db->nodes;
	uint32_t cur[PDB_ROWS_MAX], last[PDB_ROWS_MAX], row[PDB_ROWS_MAX];
	uint32_t n = r->next, p, l, nn = db->nnodes;
	size_t i, na = 0;
	unsigned m;

	if (r->tree != NULL)
		return rows_taken(r);
	for (i = 0; i < PDB_ROWS_MAX && n != PDB_NONE; i++) {
		r->node[i] = n;
		r->cc[i] = nodes[n].cc;
		r->nkids[i] = 0;
		/*
		 * The walk comes to the next sibling after this subtree,
		 * most often a small one: ask for it now, since a sibling
		 * made later than this subtree is a cache miss.
		 */
		__builtin_prefetch(&nodes[nodes[n].next]);
		/*
		 * Down to the first child, counted later.  Nodes are
		 * mostly made in pre-order and siblings are in the order
		 * of their numbers, so the first child is usually the next
		 * node, which is in the cache, where the last child's link
		 * to it is a miss.
		 */
		if ((l = nodes[n].last_child) != PDB_NONE) {
			n = n + 1 < nn && nodes[n + 1].parent == n ? n + 1 :
			    nodes[l].next;
			r->nkids[i] = 1;
			if (n != l) {
				cur[na] = n;
				last[na] = l;
				row[na++] = (uint32_t)i;
			}
			continue;
		}
		/* A leaf: the next sibling of the nearest with one. */
		while ((p = nodes[n].parent) != PDB_NONE &&
		    nodes[p].last_child == n)
			n = p;
		n = p == PDB_NONE ? PDB_NONE : nodes[n].next;
	}
	r->next = n;
	r->n = i;
	count_kids(nodes, r, cur, last, row, na);
	for (m = 0; m < db->nmetrics; m++)
		gather(db, m, r->node, i, r->values + m, db->nmetrics);
	return i;
}
