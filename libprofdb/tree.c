/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The stack tree: a node array with parent and child links (the values
 * are in values.c).  Walks are iterative: trees from files can be a
 * million levels deep.
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pdb_int.h"

/*
 * Prefaulting.  A profile's nodes and values fill hundreds of MB in
 * order, and a page fault a 4 KB page was a fifth of ccs-select's time,
 * mostly the fault's own entry and exit.  MADV_POPULATE_WRITE (Linux
 * 5.14) maps a stretch of pages in one call; where it is missing, or
 * fails, the pages fault in as before.
 */
#define PREFAULT_NODES	65536	/* a stretch: 1 MB of nodes */
/*
 * A tree past SMALL_TREE nodes grows at once to room for BIG_START: its
 * arrays are then big enough for malloc() to map them, and each
 * doubling after is a move by mremap(2), where the doublings from the
 * small sizes were copies, each into new pages (a quarter of the page
 * faults of ccs-select on 1 MB).  Room not used is never touched.
 */
#define SMALL_TREE	4096
#define BIG_START	131072

static void
populate(void *base, size_t from, size_t to)
{
#ifdef MADV_POPULATE_WRITE
	static uintptr_t page;
	uintptr_t lo, hi;

	if (page == 0)
		page = (uintptr_t)sysconf(_SC_PAGESIZE);
	/* From the page the last stretch ended in, which it left out. */
	lo = ((uintptr_t)base + from) & ~(page - 1);
	hi = ((uintptr_t)base + to) & ~(page - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
	(void)base;
	(void)from;
	(void)to;
#endif
}

static void
prefault(struct pdb *db, size_t end)
{
	size_t from = db->faulted, to, size;
	unsigned m;

	if (from < db->nnodes)
		from = db->nnodes;
	/* A small tree is not given a whole stretch it may never use. */
	to = end + (end / 4 < PREFAULT_NODES ? end / 4 : PREFAULT_NODES);
	to = to < db->capnodes ? to : db->capnodes;
	to = to < db->capvals ? to : db->capvals;
	if (to <= from)
		return;
	populate(db->nodes, from * sizeof(*db->nodes), to * sizeof(*db->nodes));
	for (m = 0; m < db->nmetrics; m++)
		if ((size = db->cols[m].size) != 0)
			populate(db->cols[m].v, from * size, to * size);
	db->faulted = to;
}

int
pdbi_nodes_reserve_slow(struct pdb *db, size_t k)
{
	size_t need = (size_t)db->nnodes + k, room = need;

	if (k > (size_t)(UINT32_MAX - 1) - db->nnodes)
		return pdb_seterr(db, PDB_EFORMAT, "too many nodes");
	if (room > SMALL_TREE && room < BIG_START)
		room = BIG_START;
	if (pdbi_grow(&db->nodes, &db->capnodes, room, sizeof(*db->nodes)) !=
	    PDB_OK || pdbi_cols_reserve(db, room) != PDB_OK)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	if (need > db->faulted)
		prefault(db, need);
	return PDB_OK;
}

/*
 * Zero bytes from p on: most spans are a node's element, or a short
 * chain's, and a call to memset() for a few bytes costs more than the
 * stores, as do branches on the length, which has no pattern.  The
 * column's slack (PDBI_COL_SLACK) takes what the 64 bytes stored put
 * past its end.
 */
static inline void
zero_span(unsigned char *p, size_t bytes)
{
	static const unsigned char zero[PDBI_COL_SLACK];

	memcpy(p, zero, sizeof(zero));
	if (bytes > sizeof(zero))
		memset(p + sizeof(zero), 0, bytes - sizeof(zero));
}

/* The values of the k nodes from id, the newest, set to 0: no element
 * above them is in use. */
static void
zero_values(struct pdb *db, uint32_t id, size_t k)
{
	unsigned m;
	size_t size;

	if (db->unzeroed != PDB_NONE)
		return;
	for (m = 0; m < db->nmetrics; m++)
		if ((size = db->cols[m].size) != 0)
			zero_span(db->cols[m].v + (size_t)id * size, k * size);
}

void
pdbi_values_defer(struct pdb *db)
{
	db->unzeroed = db->nnodes;
}

void
pdbi_values_zero(struct pdb *db)
{
	uint32_t first = db->unzeroed;

	db->unzeroed = PDB_NONE;
	if (first < db->nnodes)
		zero_values(db, first, db->nnodes - first);
}

int
pdbi_node_new(struct pdb *db, uint32_t parent, uint32_t cc,
    const int64_t *vals, uint32_t *out)
{
	uint32_t id = db->nnodes;
	int rc;

	if (cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "cost centre %u out of range",
		    (unsigned)cc);
	if ((rc = pdbi_nodes_reserve(db, 1)) != PDB_OK)
		return rc;
	if (vals == NULL)
		zero_values(db, id, 1);
	else if (pdbi_values_put(db, id, vals) != PDB_OK)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	pdbi_node_link(db, id, parent, cc);
	db->nnodes++;
	*out = id;
	return PDB_OK;
}

int
pdbi_chain_new(struct pdb *db, uint32_t t, const uint32_t *ccs, size_t k,
    uint32_t *out)
{
	struct pdbi_node *nodes;
	uint32_t id;
	int rc;

	/* A wide stack's child goes in its table too: made as any child. */
	if (k > 0 && pdbi_is_wide(db, t) && (rc = pdbi_child_new(db, t,
	    ccs[--k], NULL, &t)) != PDB_OK)
		return rc;
	if (k == 0) {
		*out = t;
		return PDB_OK;
	}
	id = db->nnodes;
	if ((rc = pdbi_nodes_reserve(db, k)) != PDB_OK)
		return rc;
	zero_values(db, id, k);
	pdbi_node_link(db, id, t, ccs[--k]);
	t = id++;
	/* The others each the only child of the one before. */
	nodes = db->nodes;
	while (k-- > 0) {
		nodes[id].cc = ccs[k];
		nodes[id].parent = t;
		nodes[id].last_child = PDB_NONE;
		nodes[id].next = id;
		nodes[t].last_child = id;
		t = id++;
	}
	db->nnodes = id;
	*out = t;
	return PDB_OK;
}

void
pdbi_relink(struct pdb *db)
{
	struct pdbi_node *nodes = db->nodes, *p;
	uint32_t n;

	for (n = 0; n < db->nnodes; n++) {
		nodes[n].last_child = PDB_NONE;
		nodes[n].next = n;
	}
	for (n = 0; n < db->nnodes; n++) {
		if (nodes[n].parent == PDB_NONE)
			continue;
		p = &nodes[nodes[n].parent];
		if (p->last_child != PDB_NONE) {
			nodes[n].next = nodes[p->last_child].next;
			nodes[p->last_child].next = n;
		}
		p->last_child = n;
	}
}

/*
 * Move every node n to number to[n], a permutation, following its
 * cycles: the node carried goes where it belongs and picks up the one
 * there, until the cycle closes.  The bitmap done (zeroed) marks the
 * numbers filled.  The links are made again from the parents after.
 */
static void
permute(struct pdb *db, const uint32_t *to, uint64_t *done, int64_t *vals,
    int64_t *tmp)
{
	struct pdbi_node carry, t;
	uint32_t i, j;
	unsigned m, nm = db->nmetrics;

	for (i = 0; i < db->nnodes; i++)
		if (db->nodes[i].parent != PDB_NONE)
			db->nodes[i].parent = to[db->nodes[i].parent];
	for (i = 0; i < db->nnodes; i++) {
		if (done[i / 64] >> (i % 64) & 1)
			continue;
		carry = db->nodes[i];
		for (m = 0; m < nm; m++)
			vals[m] = pdbi_elem_get(db->cols[m].v, db->cols[m].type,
			    i);
		for (j = to[i];; j = to[j]) {
			done[j / 64] |= (uint64_t)1 << (j % 64);
			if (j == i)
				break;
			t = db->nodes[j];
			db->nodes[j] = carry;
			carry = t;
			for (m = 0; m < nm; m++) {
				tmp[m] = pdbi_elem_get(db->cols[m].v,
				    db->cols[m].type, j);
				pdbi_elem_put(db->cols[m].v, db->cols[m].size, j,
				    vals[m]);
				vals[m] = tmp[m];
			}
		}
		db->nodes[i] = carry;
		for (m = 0; m < nm; m++)
			pdbi_elem_put(db->cols[m].v, db->cols[m].size, i,
			    vals[m]);
	}
	pdbi_relink(db);
}

int
pdbi_preorder(struct pdb *db, uint32_t *maxdepth)
{
	uint32_t *to, n, k = 0, d = 0;
	uint64_t *done;
	int64_t *vals;
	int rc = PDB_OK, ordered = 1;

	*maxdepth = 0;
	/* The escapes are keyed by node number (pdb_int.h). */
	if (pdbi_cols_unescape(db) != PDB_OK)
		return PDB_ENOMEM;
	for (n = pdb_walk_first(db, &d); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &d)) {
		ordered &= n == k++;
		if (d > *maxdepth)
			*maxdepth = d;
	}
	if (ordered)
		return PDB_OK;
	to = pdbi_malloc(((size_t)db->nnodes + 1) * sizeof(*to));
	done = pdbi_calloc((size_t)db->nnodes / 64 + 1, sizeof(*done));
	vals = pdbi_malloc(2 * ((size_t)db->nmetrics + 1) * sizeof(*vals));
	if (to == NULL || done == NULL || vals == NULL)
		rc = PDB_ENOMEM;
	else {
		k = 0;
		for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
		    n = pdb_walk_next(db, n, NULL))
			to[n] = k++;
		permute(db, to, done, vals, vals + db->nmetrics + 1);
		/* The index names nodes by their old numbers. */
		pdbi_index_free(db);
	}
	free(to);
	free(done);
	free(vals);
	return rc;
}

int
pdbi_tree_copy(struct pdb *dst, const struct pdb *src)
{
	size_t nn = src->nnodes, size;
	unsigned m;
	void *p;

	if (pdbi_grow(&dst->nodes, &dst->capnodes, nn, sizeof(*dst->nodes)) ||
	    pdbi_cols_reserve(dst, nn) || pdbi_side_copy(dst, src))
		return pdb_seterr(dst, PDB_ENOMEM, "out of memory");
	for (m = 0; m < src->nmetrics; m++) {
		if ((size = src->cols[m].size) == 0)
			continue;
		if ((p = pdbi_realloc(dst->cols[m].v,
		    pdbi_col_bytes(dst->capvals, size))) == NULL)
			return pdb_seterr(dst, PDB_ENOMEM, "out of memory");
		dst->cols[m].v = p;
		dst->cols[m].type = src->cols[m].type;
		dst->cols[m].size = src->cols[m].size;
		dst->cols[m].lo = src->cols[m].lo;
		dst->cols[m].hi = src->cols[m].hi;
		dst->cols[m].esc = src->cols[m].esc;
		dst->cols[m].nside = src->cols[m].nside;
		memcpy(p, src->cols[m].v, nn * size);
	}
	if (nn > 0)
		memcpy(dst->nodes, src->nodes, nn * sizeof(*dst->nodes));
	dst->nnodes = src->nnodes;
	return PDB_OK;
}

void
pdbi_tree_swap(struct pdb *a, struct pdb *b)
{
	struct pdb t;

#define SWAP(f)	do { t.f = a->f; a->f = b->f; b->f = t.f; } while (0)
	SWAP(nodes);
	SWAP(nnodes);
	SWAP(capnodes);
	SWAP(cols);
	SWAP(capcols);
	SWAP(capvals);
	SWAP(faulted);
	SWAP(kids);
	SWAP(kidcap);
	SWAP(nkids);
	SWAP(kidlast);
	SWAP(wide);
	SWAP(nwide);
	SWAP(memo);
	SWAP(pushmemo);
	SWAP(pushmask);
	SWAP(pushcalls);
	SWAP(pushwalk);
	SWAP(walked);
	SWAP(dropmemo);
	SWAP(dropping);
	SWAP(pushpath);
	SWAP(pushcap);
	SWAP(side);
#undef SWAP
}

struct pdb *
pdbi_tree_take(struct pdb *db)
{
	struct pdb *t;
	unsigned m;

	if ((t = pdb_new()) == NULL || (t->cols = pdbi_calloc(
	    (size_t)db->nmetrics + 1, sizeof(*t->cols))) == NULL) {
		pdb_free(t);
		return NULL;
	}
	t->capcols = (size_t)db->nmetrics + 1;
	for (m = 0; m < db->nmetrics; m++)
		pdbi_col_init(&t->cols[m]);
	pdbi_tree_swap(db, t);
	t->nmetrics = db->nmetrics;
	return t;
}

void
pdbi_tree_free(struct pdb *t)
{
	unsigned m;

	if (t == NULL)
		return;
	/* Its columns, as it has no metrics for pdb_free(). */
	for (m = 0; m < t->nmetrics; m++)
		free(t->cols[m].v);
	t->nmetrics = 0;
	pdb_free(t);
}

int
pdb_root_new(struct pdb *db, uint32_t cc, uint32_t *out)
{
	if (db->nnodes != 0)
		return pdb_seterr(db, PDB_EINVAL, "the tree already has a root");
	return pdbi_node_new(db, PDB_NONE, cc, NULL, out);
}

int
pdb_node_append(struct pdb *db, uint32_t parent, uint32_t cc, uint32_t *out)
{
	if (parent >= db->nnodes)
		return pdb_seterr(db, PDB_EINVAL, "node %u out of range",
		    (unsigned)parent);
	/* The index of a wide parent would miss the new child. */
	if (pdbi_is_wide(db, parent))
		pdbi_index_free(db);
	return pdbi_node_new(db, parent, cc, NULL, out);
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
		/* Usually the next node, in the cache (see rows.c). */
		if (n + 1 < db->nnodes && nodes[n + 1].parent == n)
			return n + 1;
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

/*
 * Inclusive values from own ones, k a node at inc: from the last node to
 * the first, each added into its parent.  A node is made after its
 * parent and every renumbering keeps that (pdb_int.h), so a node's
 * children have all been added into it when it is added into its own
 * parent: no walk, and no order to keep.
 */
static void
sum_into_parents(const struct pdb *db, int64_t *inc, size_t k)
{
	int64_t *to;
	const int64_t *from;
	uint32_t n;
	size_t m;

	for (n = db->nnodes; n-- > 1;) {
		to = inc + (size_t)db->nodes[n].parent * k;
		from = inc + (size_t)n * k;
		for (m = 0; m < k; m++)
			to[m] = (int64_t)((uint64_t)to[m] + (uint64_t)from[m]);
	}
}

int64_t *
pdb_inclusive_new(const struct pdb *db)
{
	size_t nm = db->nmetrics, total = (size_t)db->nnodes * nm;
	int64_t *inc;
	uint32_t n;
	unsigned m;

	if ((inc = pdbi_malloc((total ? total : 1) * sizeof(*inc))) == NULL)
		return NULL;
	for (n = 0; n < db->nnodes; n++)
		for (m = 0; m < nm; m++)
			inc[(size_t)n * nm + m] = pdbi_value(db, n, m);
	sum_into_parents(db, inc, nm);
	return inc;
}

int64_t *
pdb_inclusive_of(const struct pdb *db, unsigned m)
{
	int64_t *inc;
	uint32_t n;

	if (m >= db->nmetrics || (inc = pdbi_malloc(((size_t)db->nnodes +
	    1) * sizeof(*inc))) == NULL)
		return NULL;
	for (n = 0; n < db->nnodes; n++)
		inc[n] = pdbi_value(db, n, m);
	sum_into_parents(db, inc, 1);
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
