/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The inverted call graph of a cost centre: its calling contexts, read
 * from the open path at each outermost occurrence and merged into a tree
 * rooted at the cost centre.  Inner occurrences (recursion left
 * uncompressed) are inside an outer one's inclusive cost already; their
 * own count metrics (entries) go to the outermost occurrence above them,
 * so that a context counts every entry made through it.
 *
 * It is a sink (pdb_callers_sink()), so that a profile whose tree is its
 * stream need never be a tree: memory is the path and the contexts.  The
 * cost centres it looks for are those a predicate picks, asked once for
 * each cost centre as it first comes, so that several cost centres (one
 * name for the user) count as one: only the outermost occurrence of any
 * of them opens a context.  The contexts are kept apart from any handle
 * and made a tree at the end, when every cost centre is known (GHC's
 * text report adds them as the stream goes).
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

/* A node of the inverted tree, by (parent, cost centre). */
struct slot {
	uint64_t	 key;		/* parent << 32 | cc */
	uint32_t	 node;		/* node + 1; 0 = empty */
};

struct pdb_callers {
	pdb_callers_match_fn *match;
	void		*arg;
	struct pdb_sink	 sink;
	enum pdb_kind	*kinds;		/* of each metric, from begin on */
	unsigned	 nm;
	int		 check;		/* values unchecked: a reader's */
	uint64_t	*range;		/* per metric: pdb_sums_add()'s sums */
	int64_t		*zeros;		/* the values of an event without */

	unsigned char	*picked;	/* by cost centre: 0 not asked yet,
					   1 not picked, 2 picked */
	size_t		 npicked, cappicked;

	/* The open path: cost centre, and occurrences of the picked ones
	 * down to each depth. */
	uint32_t	*pathcc, *occ;
	size_t		 cappath, capocc, depth;
	uint64_t	 nodes;
	uint32_t	 outer;		/* depth of the open outermost one */
	uint32_t	 t;		/* its context's node */
	size_t		 ctxdepth;	/* the last context made, for an
					   occurrence this deep, or SIZE_MAX */
	uint32_t	 ctx;		/* its node */
	int64_t		*cost;		/* the cost metrics of its subtree */
	uint64_t	 found;		/* outermost occurrences */

	/* The inverted tree: node 0 the root, each node after its parent. */
	uint32_t	*parent, *cc;
	int64_t		*vals;		/* nm a node */
	size_t		 capnodes, capcc, capvals;
	uint32_t	 n;
	struct slot	*slots;
	size_t		 capslots;	/* a power of two */
};

/* Add the values of kind kind to acc, wrapping. */
static void
add_kind(const struct pdb_callers *cl, int64_t *acc, const int64_t *v,
    enum pdb_kind kind)
{
	unsigned m;

	for (m = 0; m < cl->nm; m++)
		if (cl->kinds[m] == kind)
			acc[m] = (int64_t)((uint64_t)acc[m] + (uint64_t)v[m]);
}

/* A node of the inverted tree, with no values yet; PDB_NONE when out of
 * memory. */
static uint32_t
inv_node(struct pdb_callers *cl, uint32_t parent, uint32_t cc)
{
	uint32_t n = cl->n;

	if (pdbi_grow(&cl->parent, &cl->capnodes, (size_t)n + 1,
	    sizeof(*cl->parent)) || pdbi_grow(&cl->cc, &cl->capcc,
	    (size_t)n + 1, sizeof(*cl->cc)) || pdbi_grow(&cl->vals,
	    &cl->capvals, ((size_t)n + 1) * cl->nm + 1, sizeof(*cl->vals)))
		return PDB_NONE;
	cl->parent[n] = parent;
	cl->cc[n] = cc;
	memset(cl->vals + (size_t)n * cl->nm, 0, cl->nm * sizeof(*cl->vals));
	return cl->n++;
}

/* Double the table of children. */
static int
slots_grow(struct pdb_callers *cl)
{
	size_t ncap = cl->capslots ? cl->capslots * 2 : 256, i, j;
	struct slot *s;

	if ((s = pdbi_calloc(ncap, sizeof(*s))) == NULL)
		return -1;
	for (i = 0; i < cl->capslots; i++) {
		if (cl->slots[i].node == 0)
			continue;
		for (j = pdbi_mix64(cl->slots[i].key) & (ncap - 1);
		    s[j].node != 0; j = (j + 1) & (ncap - 1))
			;
		s[j] = cl->slots[i];
	}
	free(cl->slots);
	cl->slots = s;
	cl->capslots = ncap;
	return 0;
}

/* The child cc of node parent, made if new; PDB_NONE when out of
 * memory. */
static uint32_t
inv_child(struct pdb_callers *cl, uint32_t parent, uint32_t cc)
{
	uint64_t key = (uint64_t)parent << 32 | cc;
	size_t j, mask = cl->capslots - 1;
	uint32_t c;

	if (cl->capslots > 0)
		for (j = pdbi_mix64(key) & mask; cl->slots[j].node != 0;
		    j = (j + 1) & mask)
			if (cl->slots[j].key == key)
				return cl->slots[j].node - 1;
	if (((size_t)cl->n + 1) * 2 > cl->capslots) {
		if (slots_grow(cl) != 0)
			return PDB_NONE;
		mask = cl->capslots - 1;
	}
	if ((c = inv_node(cl, parent, cc)) == PDB_NONE)
		return PDB_NONE;
	for (j = pdbi_mix64(key) & mask; cl->slots[j].node != 0;
	    j = (j + 1) & mask)
		;
	cl->slots[j].key = key;
	cl->slots[j].node = c + 1;
	return c;
}

/* Whether cc is one of those looked for, asked once. */
static int
picked(struct pdb_callers *cl, struct pdb *db, uint32_t cc, int *is)
{
	size_t i;

	if (cc >= cl->npicked) {
		if (pdbi_grow(&cl->picked, &cl->cappicked, (size_t)cc + 1, 1))
			return PDB_ENOMEM;
		for (i = cl->npicked; i <= cc; i++)
			cl->picked[i] = 0;
		cl->npicked = (size_t)cc + 1;
	}
	if (cl->picked[cc] == 0)
		cl->picked[cc] = cl->match(cl->arg, db, cc) ? 2 : 1;
	*is = cl->picked[cc] == 2;
	return PDB_OK;
}

/* Free what a profile read made, and leave cl as pdb_callers_*_new()
 * did. */
static void
cl_clear(struct pdb_callers *cl)
{
	struct pdb_callers keep = *cl;

	free(cl->kinds);
	free(cl->range);
	free(cl->zeros);
	free(cl->cost);
	free(cl->picked);
	free(cl->pathcc);
	free(cl->occ);
	free(cl->parent);
	free(cl->cc);
	free(cl->vals);
	free(cl->slots);
	memset(cl, 0, sizeof(*cl));
	cl->match = keep.match;
	cl->arg = keep.arg;
	cl->sink = keep.sink;
	cl->check = keep.check;
	cl->outer = PDB_NONE;
	cl->ctxdepth = SIZE_MAX;
}

/*
 * A profile starts: what an earlier one left is dropped, so that one
 * object can take one profile after another, each counted alone.
 */
static int
cl_begin(void *arg, struct pdb *db)
{
	struct pdb_callers *cl = arg;
	unsigned m;

	cl_clear(cl);
	cl->nm = db->nmetrics;
	cl->kinds = pdbi_calloc((size_t)cl->nm + 1, sizeof(*cl->kinds));
	cl->range = pdbi_calloc(2 * (size_t)cl->nm + 1, sizeof(*cl->range));
	cl->zeros = pdbi_calloc((size_t)cl->nm + 1, sizeof(*cl->zeros));
	cl->cost = pdbi_calloc((size_t)cl->nm + 1, sizeof(*cl->cost));
	if (cl->kinds == NULL || cl->range == NULL || cl->zeros == NULL ||
	    cl->cost == NULL || inv_node(cl, PDB_NONE, PDB_NONE) == PDB_NONE)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	for (m = 0; m < cl->nm; m++)
		cl->kinds[m] = db->metrics[m].kind;
	return PDB_OK;
}

static int
cl_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *values)
{
	struct pdb_callers *cl = arg;
	size_t d = cl->depth, k;
	int is, rc;

	if (cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "cost centre %u out of range",
		    (unsigned)cc);
	if (d == 0 && cl->nodes > 0)
		return pdb_seterr(db, PDB_EFORMAT,
		    "profile has more than one root");
	if (values == NULL)
		values = cl->zeros;
	/* The sums the tree builder checks, so that streaming a file fails
	 * where building its tree would. */
	if (cl->check && (rc = pdb_sums_add(db, cl->range, cc, values)) !=
	    PDB_OK)
		return rc;
	if (picked(cl, db, cc, &is) != PDB_OK ||
	    pdbi_grow(&cl->pathcc, &cl->cappath, d + 1, sizeof(*cl->pathcc)) ||
	    pdbi_grow(&cl->occ, &cl->capocc, d + 1, sizeof(*cl->occ)))
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	cl->pathcc[d] = cc;
	cl->occ[d] = (d > 0 ? cl->occ[d - 1] : 0) + (uint32_t)is;
	/* The last context is of the levels above ctxdepth: gone if one
	 * of them is entered again. */
	if (d < cl->ctxdepth)
		cl->ctxdepth = SIZE_MAX;
	cl->depth++;
	cl->nodes++;
	if (cl->outer != PDB_NONE)
		add_kind(cl, cl->cost, values, PDB_COST);
	if (!is)
		return PDB_OK;
	if (cl->occ[d] == 1) {
		/*
		 * An outermost occurrence: its context, callers first.  One
		 * beside the last has the same (many cost centres of one
		 * name under one caller), and reading it again would take
		 * the whole path's depth each.
		 */
		cl->found++;
		if (d == cl->ctxdepth)
			cl->t = cl->ctx;
		else {
			cl->t = 0;
			for (k = d; k-- > 0;)
				if ((cl->t = inv_child(cl, cl->t,
				    cl->pathcc[k])) == PDB_NONE)
					return pdb_seterr(db, PDB_ENOMEM,
					    "out of memory");
			cl->ctxdepth = d;
			cl->ctx = cl->t;
		}
		cl->outer = (uint32_t)d;
		add_kind(cl, cl->cost, values, PDB_COST);
	}
	add_kind(cl, cl->vals + (size_t)cl->t * cl->nm, values, PDB_COUNT);
	return PDB_OK;
}

/* The outermost occurrence closes: its context gets its subtree's cost. */
static int
cl_exit(void *arg, struct pdb *db)
{
	struct pdb_callers *cl = arg;

	if (cl->depth == 0)
		return pdb_seterr(db, PDB_EINVAL, "exit without enter");
	if (--cl->depth == cl->outer) {
		add_kind(cl, cl->vals + (size_t)cl->t * cl->nm, cl->cost,
		    PDB_COST);
		memset(cl->cost, 0, cl->nm * sizeof(*cl->cost));
		cl->outer = PDB_NONE;
	}
	return PDB_OK;
}

/* Nothing is left to do at the end; here for a program that drives the
 * sink itself and calls every event (pdb.h). */
static int
cl_end(void *arg, struct pdb *db)
{
	(void)arg;
	(void)db;
	return PDB_OK;
}

/* A batch of nodes, without a call through the reader's sink each. */
static int
cl_nodes(void *arg, struct pdb *db, const struct pdb_batch *b, size_t *done)
{
	return pdb_batch_each(db, b, 0, b->n, done, cl_enter, cl_exit, arg);
}

struct pdb_callers *
pdb_callers_stream_new(pdb_callers_match_fn *match, void *arg)
{
	struct pdb_callers *cl;

	if ((cl = pdbi_calloc(1, sizeof(*cl))) == NULL)
		return NULL;
	cl->match = match;
	cl->arg = arg;
	cl->outer = PDB_NONE;
	cl->ctxdepth = SIZE_MAX;
	cl->check = 1;
	cl->sink.begin = cl_begin;
	cl->sink.enter = cl_enter;
	cl->sink.exit = cl_exit;
	cl->sink.end = cl_end;
	cl->sink.nodes = cl_nodes;
	cl->sink.arg = cl;
	return cl;
}

const struct pdb_sink *
pdb_callers_sink(struct pdb_callers *cl)
{
	return &cl->sink;
}

uint64_t
pdb_callers_found(const struct pdb_callers *cl)
{
	return cl->found;
}

struct pdb *
pdb_callers_tree(struct pdb_callers *cl, struct pdb *db, uint32_t cc)
{
	struct pdb *out;
	uint32_t n, x;

	if (cc >= db->nccs) {
		pdb_seterr(db, PDB_EINVAL, "no such cost centre");
		return NULL;
	}
	if (cl->found == 0) {
		pdb_seterr(db, PDB_EINVAL, "cost centre '%s' never occurs",
		    pdb_cc_fullname(db, cc));
		return NULL;
	}
	if ((out = pdb_clone_empty(db)) == NULL ||
	    pdb_root_new(out, cc, &x) != PDB_OK)
		goto fail;
	for (n = 0; n < cl->n; n++)
		if ((n > 0 && pdb_node_append(out, cl->parent[n], cl->cc[n],
		    &x) != PDB_OK) || pdb_node_add_values(out, n, cl->vals +
		    (size_t)n * cl->nm) != PDB_OK)
			goto fail;
	return out;
fail:
	pdb_free(out);
	pdb_seterr(db, PDB_ENOMEM, "out of memory");
	return NULL;
}

void
pdb_callers_free(struct pdb_callers *cl)
{
	if (cl == NULL)
		return;
	cl_clear(cl);
	free(cl);
}

static int
is_cc(void *arg, const struct pdb *db, uint32_t cc)
{
	(void)db;
	return cc == *(const uint32_t *)arg;
}

struct pdb *
pdb_callers_new(struct pdb *db, uint32_t cc)
{
	struct pdb_callers *cl;
	struct pdb *out = NULL;

	if (db->nnodes == 0 || cc >= db->nccs) {
		pdb_seterr(db, PDB_EINVAL, "no such cost centre");
		return NULL;
	}
	if ((cl = pdb_callers_stream_new(is_cc, &cc)) == NULL) {
		pdb_seterr(db, PDB_ENOMEM, "out of memory");
		return NULL;
	}
	/* A tree's values were checked as it was read, or are the caller's,
	 * whose sums wrap. */
	cl->check = 0;
	if (pdb_replay(db, &cl->sink) == PDB_OK)
		out = pdb_callers_tree(cl, db, cc);
	pdb_callers_free(cl);
	return out;
}
