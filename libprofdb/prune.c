/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Pruning, done so that nothing is lost: a removed subtree's cost folds
 * into the parent that stays, and the report says how much.  Count
 * metrics cannot fold (they count entries of the removed cost centres)
 * and are reported as dropped instead.
 *
 * It is done in place, with a bit a node besides the tree, in passes
 * over the node array in the order of the numbers, which cost a few
 * times less than walks.  The nodes are numbered in pre-order first, as
 * the result's are.  A node's number is above its parent's, so a pass
 * from the last node to the first sees a node after all its subtree,
 * and can add what it has into its parent; the links of the nodes are
 * made again from their parents at the end, so meanwhile a node's two
 * link fields are 64 bits of scratch for such sums.  One pass a
 * threshold finds the nodes whose inclusive values fail it; one marks
 * the nodes removed (failing or excluded, or below one that is); then,
 * a cost column at a time, the values of removed nodes are summed into
 * the nearest node kept above them.  The column passes run twice, the
 * first time only to find the type the sums need, so that nothing can
 * fail once values change.  Last, the nodes kept move down over the
 * removed ones.
 *
 * A column whose sums need a wider type is widened for every node only
 * when it must be.  The sums are mostly few and near the root, and the
 * nodes kept mostly a small part of the tree, whose wider column then
 * fits where the narrow one was: such a column is folded and compacted
 * at once, the sums kept in the scratch meanwhile, without widening all
 * of it (4 bytes a node more, for the words of a pgcl profile).  The
 * values that escaped their columns (pdb_int.h) come back into them
 * first: the passes read elements as values.
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

struct pruner {
	struct pdb	*db;
	uint64_t	*bits;		/* bit n: node n fails, then is removed */
	unsigned	*cost;		/* the cost columns that fold */
	unsigned	 ncost, ndry;	/* first the ndry a sum may not fit */
	int64_t		*lo, *hi;	/* per dry column: what the sums need */
	enum pdbi_type	*to;		/* per dry column: the type they need */
	unsigned char	*packed;	/* per metric: compacted by fold */
	uint32_t	 nkept;
};

static int	 bit(const uint64_t *, uint32_t);
static int64_t	 scratch(const struct pdbi_node *);
static void	 scratch_set(struct pdbi_node *, int64_t);
static void	 scratch_add(struct pdbi_node *, int64_t);
static int64_t	 take(struct pdbi_node *);
static int	 preordered(struct pdb *);
static void	 fails(struct pruner *, unsigned, int64_t);
static uint64_t	 mark(struct pruner *, const unsigned char *);
static void	 fold(struct pruner *, unsigned, int);
static int64_t	 fold_packed(struct pruner *, unsigned);
static void	 compact(struct pruner *, int64_t *);
static int64_t	 squeeze(struct pdbi_col *, const uint64_t *, uint32_t);

static int
bit(const uint64_t *b, uint32_t n)
{
	return b[n / 64] >> (n % 64) & 1;
}

/* A node's scratch: its links, which pdbi_relink() makes again. */
static int64_t
scratch(const struct pdbi_node *nd)
{
	return (int64_t)((uint64_t)nd->next << 32 | nd->last_child);
}

static void
scratch_set(struct pdbi_node *nd, int64_t v)
{
	nd->last_child = (uint32_t)v;
	nd->next = (uint32_t)((uint64_t)v >> 32);
}

/* Sums wrap, as the values of a profile read cannot (pdb_int.h). */
static void
scratch_add(struct pdbi_node *nd, int64_t v)
{
	scratch_set(nd, (int64_t)((uint64_t)scratch(nd) + (uint64_t)v));
}

/*
 * The passes that sum go from the last node to the first.  Each takes
 * a node's scratch once, when its subtree has added into it, and leaves
 * it zero for the next pass.
 */
static int64_t
take(struct pdbi_node *nd)
{
	int64_t v = scratch(nd);

	scratch_set(nd, 0);
	return v;
}

/*
 * Whether the nodes are numbered in pre-order, which they mostly are,
 * without a walk.  Children are listed in the order of their numbers
 * (pdb_int.h), so they are when every subtree is the range of numbers
 * from its root on for as many as it has nodes, or, the same, when
 * every node's range lies in its parent's, after the parent.  The sizes
 * go in the scratch, which is left zero if so.
 */
static int
preordered(struct pdb *db)
{
	struct pdbi_node *nodes = db->nodes;
	uint32_t n, par;

	for (n = 0; n < db->nnodes; n++)
		scratch_set(&nodes[n], 1);
	for (n = db->nnodes; n-- > 1;) {
		if ((par = nodes[n].parent) >= n)
			return 0;
		scratch_add(&nodes[par], scratch(&nodes[n]));
	}
	/* From the last too: the parent's size is still there. */
	for (n = db->nnodes; n-- > 1;) {
		par = nodes[n].parent;
		if (n + take(&nodes[n]) > par + scratch(&nodes[par]))
			return 0;
	}
	scratch_set(&nodes[0], 0);
	return 1;
}

/* Mark the nodes whose inclusive value of metric m is below min. */
static void
fails(struct pruner *p, unsigned m, int64_t min)
{
	struct pdbi_node *nodes = p->db->nodes;
	struct pdbi_col *c = &p->db->cols[m];
	uint32_t n;
	int64_t v;

	for (n = p->db->nnodes; n-- > 1;) {
		v = (int64_t)((uint64_t)take(&nodes[n]) +
		    (uint64_t)pdbi_elem_get(c->v, c->type, n));
		p->bits[n / 64] |= (uint64_t)(v < min) << (n % 64);
		scratch_add(&nodes[nodes[n].parent], v);
	}
	scratch_set(&nodes[0], 0);
}

/*
 * Turn the bits into "removed": failing, excluded, or below a node
 * removed (whose bit, numbered before, is final).  The root stays.
 * Returns the number of subtrees removed.  Without branches on the
 * bits, which follow the tree.
 */
static uint64_t
mark(struct pruner *p, const unsigned char *excl)
{
	struct pdb *db = p->db;
	uint64_t removed = 0, cut, up, *w;
	uint32_t n;

	p->nkept = 1;
	p->bits[0] &= ~(uint64_t)1;
	for (n = 1; n < db->nnodes; n++) {
		w = &p->bits[n / 64];
		cut = *w >> (n % 64) & 1;
		if (excl != NULL)
			cut |= excl[db->nodes[n].cc] != 0;
		up = (uint64_t)bit(p->bits, db->nodes[n].parent);
		removed += cut & ~up;
		p->nkept += (uint32_t)(1 - (cut | up));
		*w = (*w & ~((uint64_t)1 << (n % 64))) | (cut | up) << (n % 64);
	}
	return removed;
}

/*
 * Cost column cost[j]: the removed nodes add their values with their
 * subtrees' into their parents', so that a node kept has its value with
 * all that folds into it.  Apply stores that; without, note what it
 * needs.  Without branches on the bits: a node kept adds zero, and a
 * removed one stores its own value.
 */
static void
fold(struct pruner *p, unsigned j, int apply)
{
	struct pdbi_node *nodes = p->db->nodes;
	struct pdbi_col *c = &p->db->cols[p->cost[j]];
	int64_t v, x, *lo = &p->lo[j], *hi = &p->hi[j];
	uint64_t out;
	uint32_t n = p->db->nnodes;

	do {
		n--;
		x = pdbi_elem_get(c->v, c->type, n);
		v = (int64_t)((uint64_t)take(&nodes[n]) + (uint64_t)x);
		out = (uint64_t)bit(p->bits, n);
		/* The root, last, is kept. */
		if (n > 0)
			scratch_add(&nodes[nodes[n].parent],
			    (int64_t)((uint64_t)v & (0 - out)));
		if (apply)
			pdbi_elem_put(c->v, c->size, n, out ? x : v);
		else {
			v = out ? 0 : v;
			*lo = v < *lo ? v : *lo;
			*hi = v > *hi ? v : *hi;
		}
	} while (n > 0);
}

/*
 * Cost column cost[j] folded as fold() does, and compacted at once to
 * the nodes kept, in type to[j]: the kept nodes' sums wait in their
 * scratch, which a removed node's never take, then go to their new
 * places.  The column has room for them (see pdb_prune()).  Returns the
 * sum of the values removed, as squeeze() would.
 */
static int64_t
fold_packed(struct pruner *p, unsigned j)
{
	struct pdb *db = p->db;
	struct pdbi_node *nodes = db->nodes;
	struct pdbi_col *c = &db->cols[p->cost[j]];
	unsigned size = pdbi_type_size(p->to[j]);
	uint64_t gone = 0, out;
	uint32_t n = db->nnodes, k = 0;
	int64_t v, x;

	do {
		n--;
		x = pdbi_elem_get(c->v, c->type, n);
		v = (int64_t)((uint64_t)take(&nodes[n]) + (uint64_t)x);
		out = (uint64_t)bit(p->bits, n);
		gone += (uint64_t)x & (0 - out);
		if (out)
			scratch_add(&nodes[nodes[n].parent], v);
		else
			scratch_set(&nodes[n], v);
	} while (n > 0);
	for (n = 0; n < db->nnodes; n++)
		if (!bit(p->bits, n))
			pdbi_elem_put(c->v, size, k++, take(&nodes[n]));
	pdbi_col_set_type(c, p->to[j]);
	return (int64_t)gone;
}

/*
 * Move the nodes kept down over the removed ones, keeping their order,
 * and sum per metric the values removed.  A kept node's new number is
 * left in the last_child of its old place, which no other node's move
 * writes, for its children, which come after it.
 */
static void
compact(struct pruner *p, int64_t *gone)
{
	struct pdb *db = p->db;
	struct pdbi_node *nodes = db->nodes;
	uint32_t n, k = 1, cc, par;
	unsigned m;

	/* Without branches on the bits: a removed node is written over. */
	nodes[0].last_child = 0;
	for (n = 1; n < db->nnodes; n++) {
		cc = nodes[n].cc;
		par = nodes[nodes[n].parent].last_child;
		nodes[n].last_child = k;
		nodes[k].cc = cc;
		nodes[k].parent = par;
		k += (uint32_t)(1 - bit(p->bits, n));
	}
	for (m = 0; m < db->nmetrics; m++)
		if (!p->packed[m])
			gone[m] = squeeze(&db->cols[m], p->bits, db->nnodes);
	db->nnodes = k;
}

/*
 * Column c without the elements of the nodes removed, whose sum it
 * returns.  Without branches on the bits, which follow the tree: each
 * element is stored, and the next kept one overwrites a removed one.
 */
static inline int64_t
squeeze_as(unsigned char *v, enum pdbi_type t, unsigned size,
    const uint64_t *bits, uint32_t nn)
{
	uint64_t sum = 0, out;
	uint32_t n, k = 0;
	int64_t x;

	for (n = 0; n < nn; n++) {
		x = pdbi_elem_get(v, t, n);
		out = bits[n / 64] >> (n % 64) & 1;
		pdbi_elem_put(v, size, k, x);
		k += (uint32_t)(1 - out);
		sum += (uint64_t)x & (0 - out);
	}
	return (int64_t)sum;
}

/* squeeze_as() made for each type, which is then a constant. */
static int64_t
squeeze(struct pdbi_col *c, const uint64_t *bits, uint32_t nn)
{
	switch (c->type) {
	case PDBI_U8:
		return squeeze_as(c->v, PDBI_U8, 1, bits, nn);
	case PDBI_S8:
		return squeeze_as(c->v, PDBI_S8, 1, bits, nn);
	case PDBI_U16:
		return squeeze_as(c->v, PDBI_U16, 2, bits, nn);
	case PDBI_S16:
		return squeeze_as(c->v, PDBI_S16, 2, bits, nn);
	case PDBI_U32:
		return squeeze_as(c->v, PDBI_U32, 4, bits, nn);
	case PDBI_S32:
		return squeeze_as(c->v, PDBI_S32, 4, bits, nn);
	case PDBI_S64:
		return squeeze_as(c->v, PDBI_S64, 8, bits, nn);
	default:
		return 0;
	}
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

/*
 * Which cost centres the exclude patterns match, by cost-centre index,
 * or NULL for memory.  They are de-selections, whose names select.c
 * finds in a hash table, where a glob a pattern for each cost centre
 * made 8,000 names on 100,000 cost centres take seconds; but a
 * selection keeps the root's cost centre, which an exclusion names too.
 */
static unsigned char *
excluded_mask(const struct pdb *db, const char *const *exclude,
    size_t nexclude)
{
	struct pdb_sel *sel;
	unsigned char *excl;
	uint32_t cc, root = db->nodes[0].cc;
	size_t i;

	if ((sel = pdb_sel_new()) == NULL)
		return NULL;
	for (i = 0; i < nexclude; i++)
		if (pdb_sel_add(sel, 0, exclude[i]) != PDB_OK) {
			pdb_sel_free(sel);
			return NULL;
		}
	if ((excl = pdbi_calloc((size_t)db->nccs + 1, 1)) != NULL) {
		for (cc = 0; cc < db->nccs; cc++)
			excl[cc] = (unsigned char)!pdb_sel_match(sel, db, cc);
		excl[root] = 0;
		for (i = 0; i < nexclude && !excl[root]; i++)
			excl[root] = (unsigned char)pdb_cc_glob(db, root,
			    exclude[i]);
	}
	pdb_sel_free(sel);
	return excl;
}

int
pdb_prune(struct pdb *db, const struct pdb_threshold *th, size_t nth,
    const char *const *exclude, size_t nexclude, struct pdb_prune_report *rep)
{
	struct pruner p;
	unsigned char *excl = NULL;
	int64_t *folded = NULL, *dropped = NULL;
	uint64_t removed;
	uint32_t maxdepth, n;
	unsigned j, m, nm = db->nmetrics;
	size_t i, cap, cap0;
	int rc = PDB_ENOMEM;

	if (rep != NULL)
		memset(rep, 0, sizeof(*rep));
	if (db->nnodes == 0)
		return pdb_seterr(db, PDB_EINVAL, "empty profile");
	if ((nth > 0 && th == NULL) || (nexclude > 0 && exclude == NULL))
		return pdb_seterr(db, PDB_EINVAL, "pdb_prune: NULL array");
	for (i = 0; i < nexclude; i++)
		if (exclude[i] == NULL)
			return pdb_seterr(db, PDB_EINVAL,
			    "pdb_prune: NULL pattern");
	memset(&p, 0, sizeof(p));
	p.db = db;
	if ((p.bits = pdbi_calloc((size_t)db->nnodes / 64 + 1,
	    sizeof(*p.bits))) == NULL ||
	    (p.cost = pdbi_calloc(nm + 1, sizeof(*p.cost))) == NULL ||
	    (p.lo = pdbi_calloc(nm + 1, sizeof(*p.lo))) == NULL ||
	    (p.hi = pdbi_calloc(nm + 1, sizeof(*p.hi))) == NULL ||
	    (p.to = pdbi_calloc(nm + 1, sizeof(*p.to))) == NULL ||
	    (p.packed = pdbi_calloc(nm + 1, 1)) == NULL ||
	    (folded = pdbi_calloc(nm + 1, sizeof(*folded))) == NULL ||
	    (dropped = pdbi_calloc(nm + 1, sizeof(*dropped))) == NULL)
		goto out;
	if (nexclude > 0 &&
	    (excl = excluded_mask(db, exclude, nexclude)) == NULL)
		goto out;
	/* The passes read the columns' elements as values. */
	if (pdbi_cols_unescape(db) != PDB_OK)
		goto out;
	if (!preordered(db)) {
		pdbi_relink(db);
		if (pdbi_preorder(db, &maxdepth) != PDB_OK)
			goto out;
		/* As preordered() leaves it. */
		for (n = 0; n < db->nnodes; n++)
			scratch_set(&db->nodes[n], 0);
	}
	/* From here the links are scratch: pdbi_relink() at the end. */
	for (i = 0; i < nth; i++) {
		/* Thresholds on metrics the profile lacks never cut. */
		if (th[i].metric >= nm)
			continue;
		fails(&p, th[i].metric, th[i].min);
	}
	removed = mark(&p, excl);
	/*
	 * The cost columns that fold, first those that a sum may not fit:
	 * a column of 64 bits holds any.  Widen what the sums need, unless
	 * the nodes kept fit in the column at the wider type, then fold:
	 * nothing fails after.
	 */
	for (m = 0; m < nm; m++)
		if (db->metrics[m].kind == PDB_COST && db->cols[m].size > 0 &&
		    db->cols[m].type != PDBI_S64)
			p.cost[p.ncost++] = m;
	p.ndry = p.ncost;
	for (m = 0; m < nm; m++)
		if (db->metrics[m].kind == PDB_COST &&
		    db->cols[m].type == PDBI_S64)
			p.cost[p.ncost++] = m;
	for (j = 0; j < p.ndry; j++) {
		m = p.cost[j];
		fold(&p, j, 0);
		p.to[j] = pdbi_col_type_for(&db->cols[m], p.lo[j], p.hi[j]);
		if (p.to[j] != db->cols[m].type && (size_t)p.nkept *
		    pdbi_type_size(p.to[j]) <= db->capvals * db->cols[m].size) {
			p.packed[m] = 1;
			continue;
		}
		if ((!pdbi_fits(&db->cols[m], p.lo[j]) &&
		    pdbi_col_widen(db, m, p.lo[j]) != PDB_OK) ||
		    (!pdbi_fits(&db->cols[m], p.hi[j]) &&
		    pdbi_col_widen(db, m, p.hi[j]) != PDB_OK)) {
			pdbi_relink(db);
			goto out;
		}
	}
	/*
	 * A packed column's room, at the wider type, is for fewer elements;
	 * the room every column has is the least of them, each counted from
	 * the room all had (cap0), as the test above counted it.
	 */
	cap0 = db->capvals;
	for (j = 0; j < p.ncost; j++) {
		m = p.cost[j];
		if (!p.packed[m]) {
			fold(&p, j, 1);
			continue;
		}
		cap = cap0 * db->cols[m].size / pdbi_type_size(p.to[j]);
		dropped[m] = fold_packed(&p, j);
		db->capvals = cap < db->capvals ? cap : db->capvals;
	}
	compact(&p, dropped);
	pdbi_relink(db);
	pdbi_index_free(db);
	for (m = 0; m < nm; m++)
		if (db->metrics[m].kind == PDB_COST) {
			folded[m] = dropped[m];
			dropped[m] = 0;
		}
	if (rep != NULL) {
		rep->nodes_removed = removed;
		rep->folded = folded;
		rep->dropped = dropped;
		folded = dropped = NULL;
	}
	rc = PDB_OK;
out:
	if (rc != PDB_OK)
		pdb_seterr(db, rc, "out of memory");
	free(excl);
	free(p.bits);
	free(p.cost);
	free(p.lo);
	free(p.hi);
	free(p.to);
	free(p.packed);
	free(folded);
	free(dropped);
	return rc;
}

struct pdb *
pdb_prune_new(struct pdb *db, const struct pdb_threshold *th, size_t nth,
    const char *const *exclude, size_t nexclude, struct pdb_prune_report *rep)
{
	struct pdb *out;
	int rc;

	if (rep != NULL)
		memset(rep, 0, sizeof(*rep));
	if (db->nnodes == 0) {
		pdb_seterr(db, PDB_EINVAL, "empty profile");
		return NULL;
	}
	if ((out = pdb_clone_empty(db)) == NULL) {
		pdb_seterr(db, PDB_ENOMEM, "out of memory");
		return NULL;
	}
	if ((rc = pdbi_tree_copy(out, db)) != PDB_OK) {
		pdb_seterr(db, rc, "out of memory");
		pdb_free(out);
		return NULL;
	}
	if ((rc = pdb_prune(out, th, nth, exclude, nexclude, rep)) != PDB_OK) {
		pdb_seterr(db, rc, "%s", pdb_errmsg(out));
		pdb_free(out);
		return NULL;
	}
	return out;
}
