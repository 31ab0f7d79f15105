/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The stack tree: a node array with parent and child links, and the
 * per-node values.  Walks are iterative: trees from files can be a
 * million levels deep.
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

int
pdbi_node_new(struct pdb *db, uint32_t parent, uint32_t cc, uint32_t *out)
{
	struct pdbi_node *n;
	size_t nm = db->nmetrics;
	uint32_t id = db->nnodes;

	if (cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "cost centre %u out of range",
		    (unsigned)cc);
	if (id >= UINT32_MAX - 1)
		return pdb_seterr(db, PDB_EFORMAT, "too many nodes");
	if (pdbi_grow(&db->nodes, &db->capnodes, (size_t)id + 1,
	    sizeof(*db->nodes)) != PDB_OK ||
	    (nm > 0 && pdbi_grow(&db->values, &db->capvalues,
	    ((size_t)id + 1) * nm, sizeof(*db->values)) != PDB_OK))
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	n = &db->nodes[id];
	n->cc = cc;
	n->parent = parent;
	n->last_child = PDB_NONE;
	n->next = id;
	if (nm > 0)
		memset(db->values + (size_t)id * nm, 0, nm * sizeof(int64_t));
	if (parent != PDB_NONE) {
		struct pdbi_node *p = &db->nodes[parent];

		/* Into the circle after the last child, before the first. */
		if (p->last_child != PDB_NONE) {
			n->next = db->nodes[p->last_child].next;
			db->nodes[p->last_child].next = id;
		}
		p->last_child = id;
	}
	db->nnodes++;
	*out = id;
	return PDB_OK;
}

int
pdb_root_new(struct pdb *db, uint32_t cc, uint32_t *out)
{
	if (db->nnodes != 0)
		return pdb_seterr(db, PDB_EINVAL, "the tree already has a root");
	return pdbi_node_new(db, PDB_NONE, cc, out);
}

int
pdb_node_append(struct pdb *db, uint32_t parent, uint32_t cc, uint32_t *out)
{
	if (parent >= db->nnodes)
		return pdb_seterr(db, PDB_EINVAL, "node %u out of range",
		    (unsigned)parent);
	return pdbi_node_new(db, parent, cc, out);
}

uint32_t
pdb_node_count(const struct pdb *db)
{
	return db->nnodes;
}

uint32_t
pdb_node_cc(const struct pdb *db, uint32_t n)
{
	return db->nodes[n].cc;
}

uint32_t
pdb_node_parent(const struct pdb *db, uint32_t n)
{
	return db->nodes[n].parent;
}

uint32_t
pdb_node_first_child(const struct pdb *db, uint32_t n)
{
	return pdbi_first_child(db, n);
}

uint32_t
pdb_node_next_sibling(const struct pdb *db, uint32_t n)
{
	return pdbi_next_sibling(db, n);
}

uint32_t
pdb_node_child_count(const struct pdb *db, uint32_t n)
{
	uint32_t c, k = 0;

	if ((c = db->nodes[n].last_child) == PDB_NONE)
		return 0;
	do {
		k++;
		c = db->nodes[c].next;
	} while (c != db->nodes[n].last_child);
	return k;
}

uint32_t
pdb_node_depth(const struct pdb *db, uint32_t n)
{
	uint32_t d = 0;

	while ((n = db->nodes[n].parent) != PDB_NONE)
		d++;
	return d;
}

const int64_t *
pdb_node_values(const struct pdb *db, uint32_t n)
{
	return db->values + (size_t)n * db->nmetrics;
}

int64_t *
pdb_node_values_mut(struct pdb *db, uint32_t n)
{
	return db->values + (size_t)n * db->nmetrics;
}

int
pdbi_overflow(struct pdb *db, unsigned m, uint32_t cc)
{
	return pdb_seterr(db, PDB_EFORMAT, "64-bit overflow summing '%s' at "
	    "cost centre '%s'", m < db->nmetrics ? db->metrics[m].name : "?",
	    cc < db->nccs ? pdb_cc_fullname(db, cc) : "?");
}

void
pdb_node_add_values(struct pdb *db, uint32_t n, const int64_t *vals)
{
	int64_t *v = db->values + (size_t)n * db->nmetrics;
	unsigned m;

	/*
	 * Values from files were checked on the way in (pdbi_sum_add()),
	 * so these sums cannot overflow; a caller adding its own values
	 * gets them wrapped like the profilers' own unsigned counters.
	 */
	for (m = 0; m < db->nmetrics; m++)
		v[m] = (int64_t)((uint64_t)v[m] + (uint64_t)vals[m]);
}

uint32_t
pdb_walk_first(const struct pdb *db, uint32_t *depth)
{
	if (depth)
		*depth = 0;
	return db->nnodes > 0 ? 0 : PDB_NONE;
}

uint32_t
pdb_walk_next(const struct pdb *db, uint32_t n, uint32_t *depth)
{
	const struct pdbi_node *nodes = db->nodes;
	uint32_t p;

	if (nodes[n].last_child != PDB_NONE) {
		if (depth)
			(*depth)++;
		return nodes[nodes[n].last_child].next;
	}
	while ((p = nodes[n].parent) != PDB_NONE) {
		if (nodes[p].last_child != n)
			return nodes[n].next;
		n = p;
		if (depth)
			(*depth)--;
	}
	return PDB_NONE;
}

int64_t *
pdb_inclusive_new(const struct pdb *db)
{
	size_t nm = db->nmetrics, total = (size_t)db->nnodes * nm;
	uint32_t *order, n, k = 0, i;
	int64_t *inc;
	unsigned m;

	if ((inc = pdbi_malloc((total ? total : 1) * sizeof(*inc))) == NULL)
		return NULL;
	if (total)
		memcpy(inc, db->values, total * sizeof(*inc));
	if ((order = pdbi_malloc(((size_t)db->nnodes + 1) *
	    sizeof(*order))) == NULL) {
		free(inc);
		return NULL;
	}
	/* Pre-order, then add each node into its parent in reverse. */
	for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL))
		order[k++] = n;
	for (i = k; i-- > 1;) {
		uint32_t p = db->nodes[order[i]].parent;

		for (m = 0; m < nm; m++)
			inc[(size_t)p * nm + m] = (int64_t)(
			    (uint64_t)inc[(size_t)p * nm + m] +
			    (uint64_t)inc[(size_t)order[i] * nm + m]);
	}
	free(order);
	return inc;
}

struct pdb *
pdb_clone_empty(const struct pdb *src)
{
	struct pdb *db;
	size_t i;
	uint32_t mod, cc;

	if ((db = pdb_new()) == NULL)
		return NULL;
	db->warn = src->warn;
	db->warn_arg = src->warn_arg;
	for (i = 0; i < src->nmeta; i++)
		if (pdb_meta_set(db, src->meta[i].key, src->meta[i].value))
			goto fail;
	for (i = 0; i < src->nmetrics; i++)
		if (pdb_metric_add(db, src->metrics[i].name,
		    src->metrics[i].unit, src->metrics[i].kind,
		    src->metrics[i].flags, NULL))
			goto fail;
	for (i = 0; i < src->nmodules; i++)
		if (pdb_module_add(db, src->modules[i], &mod))
			goto fail;
	for (i = 0; i < src->nccs; i++) {
		const struct pdbi_ccrec *r = &src->ccs[i];

		if (pdb_cc_add(db, r->label, r->module, r->src, r->flags,
		    r->profile_id, &cc))
			goto fail;
	}
	return db;
fail:
	pdb_free(db);
	return NULL;
}
