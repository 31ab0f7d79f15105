/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Pruning, done so that nothing is lost: a removed subtree's cost folds
 * into the parent that stays, and the report says how much.  Count
 * metrics cannot fold (they count entries of the removed cost centres)
 * and are reported as dropped instead.
 *
 * It is done in place, with a bit a node besides the tree.  The nodes
 * are numbered in pre-order first, as the result's are, so that passes
 * in the order of the numbers are walks: a node's parent is among the
 * open levels of the nodes before it (path[]), and the levels below the
 * parent's are left.  One pass finds the nodes whose inclusive values
 * fail a threshold, with a running sum a level instead of an inclusive
 * array; one marks the nodes removed (failing or excluded, or below one
 * that is); then, a cost column at a time, the costs of removed nodes
 * are summed a level, for the nearest node kept, which gets them when
 * the pass leaves it.  The column passes run twice, the first time only
 * to widen the columns for the sums, so that nothing can fail once
 * values change.  Last, the nodes kept move down over the removed ones.
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

struct pruner {
	struct pdb	*db;
	uint64_t	*bits;		/* bit n: node n fails, then is removed */
	uint32_t	*path;		/* per level: the node on the path */
	uint32_t	*lev;		/* per level: that of the nearest node
					   kept, at or above it */
	int64_t		*acc;		/* per level: sums */
	int64_t		 lo, hi;	/* what the values of a column need */
};

static int	 bit(const uint64_t *, uint32_t);
static void	 fails(struct pruner *, const struct pdb_threshold *, size_t);
static void	 close_sums(struct pruner *, const struct pdb_threshold *,
		    size_t, uint32_t);
static uint64_t	 mark(struct pruner *, const unsigned char *);
static void	 fold(struct pruner *, unsigned, int);
static void	 settle(struct pruner *, unsigned, uint32_t, int64_t, int);
static void	 compact(struct pruner *);

static int
bit(const uint64_t *b, uint32_t n)
{
	return b[n / 64] >> (n % 64) & 1;
}

/* Mark the nodes whose inclusive value is below a threshold. */
static void
fails(struct pruner *p, const struct pdb_threshold *th, size_t nth)
{
	struct pdb *db = p->db;
	uint32_t n, d = 0;
	size_t t;

	p->path[0] = 0;
	for (t = 0; t < nth; t++)
		p->acc[t] = pdbi_value(db, 0, th[t].metric);
	for (n = 1; n < db->nnodes; n++) {
		for (; p->path[d] != db->nodes[n].parent; d--)
			close_sums(p, th, nth, d);
		p->path[++d] = n;
		for (t = 0; t < nth; t++)
			p->acc[d * nth + t] = pdbi_value(db, n, th[t].metric);
	}
	for (;; d--) {
		close_sums(p, th, nth, d);
		if (d == 0)
			break;
	}
}

/* The node at level d is left: its inclusive sums are complete. */
static void
close_sums(struct pruner *p, const struct pdb_threshold *th, size_t nth,
    uint32_t d)
{
	int64_t *acc = p->acc + (size_t)d * nth;
	int64_t *up = d > 0 ? acc - nth : NULL;	/* the parent's sums */
	uint32_t n = p->path[d];
	size_t t;

	for (t = 0; t < nth; t++) {
		if (acc[t] < th[t].min)
			p->bits[n / 64] |= (uint64_t)1 << (n % 64);
		if (up != NULL)
			up[t] = (int64_t)((uint64_t)up[t] + (uint64_t)acc[t]);
	}
}

/*
 * Turn the bits into "removed": failing, excluded, or below a node
 * removed (whose bit, numbered before, is final).  The root stays.
 * Returns the number of subtrees removed.
 */
static uint64_t
mark(struct pruner *p, const unsigned char *excl)
{
	struct pdb *db = p->db;
	uint64_t removed = 0;
	uint32_t n, par;
	int gone;

	p->bits[0] &= ~(uint64_t)1;
	for (n = 1; n < db->nnodes; n++) {
		par = db->nodes[n].parent;
		gone = bit(p->bits, n) ||
		    (excl != NULL && excl[db->nodes[n].cc]);
		if (bit(p->bits, par))
			gone = 1;
		else if (gone)
			removed++;
		if (gone)
			p->bits[n / 64] |= (uint64_t)1 << (n % 64);
		else
			p->bits[n / 64] &= ~((uint64_t)1 << (n % 64));
	}
	return removed;
}

/*
 * Column m: the values of the removed nodes are summed for the nearest
 * node kept above them, the one of level lev[d], and settle() gives
 * it the sum when the pass leaves it.
 */
static void
fold(struct pruner *p, unsigned m, int apply)
{
	struct pdb *db = p->db;
	uint32_t n, d = 0, k;

	p->path[0] = 0;
	p->lev[0] = 0;
	p->acc[0] = 0;
	for (n = 1; n < db->nnodes; n++) {
		for (; p->path[d] != db->nodes[n].parent; d--)
			if (p->lev[d] == d)
				settle(p, m, p->path[d], p->acc[d], apply);
		k = p->lev[d++];
		p->path[d] = n;
		if (bit(p->bits, n)) {
			p->lev[d] = k;
			p->acc[k] = (int64_t)((uint64_t)p->acc[k] +
			    (uint64_t)pdbi_value(db, n, m));
		} else {
			p->lev[d] = d;
			p->acc[d] = 0;
		}
	}
	for (;; d--) {
		if (p->lev[d] == d)
			settle(p, m, p->path[d], p->acc[d], apply);
		if (d == 0)
			break;
	}
}

/* Node n of column m gets sum; without apply, note what that needs. */
static void
settle(struct pruner *p, unsigned m, uint32_t n, int64_t sum, int apply)
{
	struct pdbi_col *c = &p->db->cols[m];
	int64_t v;

	if (sum == 0)
		return;
	v = (int64_t)((uint64_t)pdbi_value(p->db, n, m) + (uint64_t)sum);
	if (apply)
		pdbi_elem_put(c->v, c->size, n, v);
	else {
		p->lo = v < p->lo ? v : p->lo;
		p->hi = v > p->hi ? v : p->hi;
	}
}

/*
 * Move the nodes kept down over the removed ones, keeping their order.
 * A node's parent is on the path of nodes kept so far, where path[] and
 * lev[] keep their old and new numbers.
 */
static void
compact(struct pruner *p)
{
	struct pdb *db = p->db;
	uint32_t n, k = 0, d = 0, par, kept;
	unsigned m;

	for (n = 0; n < db->nnodes; n++) {
		if (bit(p->bits, n))
			continue;
		if ((par = db->nodes[n].parent) != PDB_NONE) {
			while (p->path[d] != par)
				d--;
			par = p->lev[d++];
		}
		p->path[d] = n;
		p->lev[d] = k;
		db->nodes[k] = db->nodes[n];
		db->nodes[k].parent = par;
		k++;
	}
	kept = k;
	for (m = 0; m < db->nmetrics; m++) {
		struct pdbi_col *c = &db->cols[m];

		for (n = 0, k = 0; c->size > 0 && n < db->nnodes; n++)
			if (!bit(p->bits, n))
				pdbi_elem_put(c->v, c->size, k++,
				    pdbi_elem_get(c->v, c->type, n));
	}
	db->nnodes = kept;
	pdbi_relink(db);
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

int
pdb_prune(struct pdb *db, const struct pdb_threshold *th, size_t nth,
    const char *const *exclude, size_t nexclude, struct pdb_prune_report *rep)
{
	struct pdb_threshold *use = NULL;
	struct pruner p;
	unsigned char *excl = NULL;
	int64_t *folded = NULL, *dropped = NULL, *sum;
	uint64_t removed;
	uint32_t maxdepth = 0, cc, n;
	unsigned m, nm = db->nmetrics;
	size_t i, levels, nuse = 0;
	int rc = PDB_ENOMEM;

	if (rep != NULL)
		memset(rep, 0, sizeof(*rep));
	if (db->nnodes == 0)
		return pdb_seterr(db, PDB_EINVAL, "empty profile");
	memset(&p, 0, sizeof(p));
	p.db = db;
	if (pdbi_preorder(db, &maxdepth) != PDB_OK)
		goto out;
	levels = (size_t)maxdepth + 1;
	if ((use = pdbi_calloc(nth + 1, sizeof(*use))) == NULL ||
	    (p.bits = pdbi_calloc((size_t)db->nnodes / 64 + 1,
	    sizeof(*p.bits))) == NULL ||
	    (p.path = pdbi_malloc(levels * sizeof(*p.path))) == NULL ||
	    (p.lev = pdbi_malloc(levels * sizeof(*p.lev))) == NULL ||
	    (p.acc = pdbi_malloc(levels * (nth + 1) * sizeof(*p.acc))) ==
	    NULL ||
	    (folded = pdbi_calloc(nm + 1, sizeof(*folded))) == NULL ||
	    (dropped = pdbi_calloc(nm + 1, sizeof(*dropped))) == NULL)
		goto out;
	/* Thresholds on metrics the profile lacks never cut. */
	for (i = 0; i < nth; i++)
		if (th[i].metric < nm)
			use[nuse++] = th[i];
	if (nexclude > 0) {
		if ((excl = pdbi_calloc((size_t)db->nccs + 1, 1)) == NULL)
			goto out;
		for (cc = 0; cc < db->nccs; cc++)
			for (i = 0; i < nexclude && !excl[cc]; i++)
				excl[cc] = (unsigned char)pdb_cc_glob(db, cc,
				    exclude[i]);
	}
	if (nuse > 0)
		fails(&p, use, nuse);
	removed = mark(&p, excl);
	/* Widen what the sums need, then fold: nothing fails after. */
	for (m = 0; m < nm; m++) {
		if (db->metrics[m].kind == PDB_COUNT || db->cols[m].size == 0)
			continue;
		p.lo = p.hi = 0;
		fold(&p, m, 0);
		if ((!pdbi_fits(&db->cols[m], p.lo) &&
		    pdbi_col_widen(db, m, p.lo) != PDB_OK) ||
		    (!pdbi_fits(&db->cols[m], p.hi) &&
		    pdbi_col_widen(db, m, p.hi) != PDB_OK))
			goto out;
	}
	for (m = 0; m < nm; m++) {
		if (db->cols[m].size == 0)
			continue;
		sum = db->metrics[m].kind == PDB_COUNT ? &dropped[m] :
		    &folded[m];
		for (n = 1; n < db->nnodes; n++)
			if (bit(p.bits, n))
				*sum = (int64_t)((uint64_t)*sum +
				    (uint64_t)pdbi_value(db, n, m));
		if (db->metrics[m].kind == PDB_COST)
			fold(&p, m, 1);
	}
	compact(&p);
	pdbi_index_free(db);
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
	free(use);
	free(excl);
	free(p.bits);
	free(p.path);
	free(p.lev);
	free(p.acc);
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
	if ((rc = pdbi_tree_copy(out, db)) != PDB_OK ||
	    (rc = pdb_prune(out, th, nth, exclude, nexclude, rep)) != PDB_OK) {
		pdb_seterr(db, rc, "out of memory");
		pdb_free(out);
		return NULL;
	}
	return out;
}
