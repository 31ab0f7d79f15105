/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Events to tree (the builder sink) and tree to events (replay).
 */
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX512_CHECKS	1
#endif

#include "pdb_int.h"

/*
 * In PDB_BUILD_PUSH mode, Push must look for cc on the stack it pushes
 * onto, a walk as long as the stack: quadratic for a deep stack of
 * distinct cost centres.  But a compressed stack holds exactly the cost
 * centres pushed to make it (compression moves one, never drops one),
 * so knowing the cost centres entered on the current path (above the
 * root, which Push never compresses) tells when cc cannot be on the
 * stack; then Push is just the child, found or made.  The builder keeps
 * for each cost centre the level of its first entry on the path, which
 * still holds it while it is on the path (on_path()): leaving levels
 * costs nothing, where a count of entries for each cost centre took a
 * loop over the levels left, whose number no branch predictor learns.
 * And when cc is on
 * the stack, no child of it has cc (the child's stack would have it
 * twice), so Push goes straight to its walk (pdbi_push_moved()).
 *
 * With a selection (pdb_builder_select()), events in PDB_BUILD_RAW mode
 * are a tree in pre-order, so they are projected as they come, the way
 * pdb_project_new() walks a tree: a node's image is its parent's image
 * with the node's cost centre pushed on top when that is selected, and
 * the parent's image otherwise.  Only the projection is ever in memory.
 * Events of the other modes merge into stacks made earlier, and the
 * projection must follow the merged tree's order, so that tree is built
 * first and projected at the end event.
 */
struct pdb_builder {
	struct pdb	*db;
	enum pdb_build	 mode;
	int		 project;	/* pdb_builder_select() was called */
	int		 checked;	/* values are checked for overflow */
	const struct pdb_sel *sel;
	unsigned char	*mask;		/* per cost centre: selected */
	size_t		 nmask;
	uint32_t	*path;		/* the image of each open level */
	uint32_t	*ccpath;	/* the cost centre each level entered,
					   for first, or PDB_NONE */
	size_t		 depth, cap, capcc;
	uint32_t	*first;		/* per cost centre: its first level on
					   ccpath[1..], while it holds it */
	size_t		 nfirst;
	int64_t		*vals;		/* a node's values without counts */
	uint32_t	*image;		/* per row of a projected run: its
					   image */
	unsigned char	*keep;		/* per row: its counts are kept */
	size_t		 capimage, capkeep;
	uint64_t	*range;		/* per metric: pdbi_sum_add()'s sums */
	uint64_t	*runsums;	/* 16: a run's sums
					   (run_checks_avx512()) */
	struct pdb_sink	 sink;
};

static int	 b_enter(void *, struct pdb *, uint32_t, const int64_t *);
static int	 b_exit(void *, struct pdb *);
static int	 enter(struct pdb_builder *, uint32_t, const int64_t *);

/*
 * Whether cost centre cc, which has a slot in first, has been entered
 * on the path of the given depth above the root: the level of its first
 * entry still holds it.  A level left is above the depth, or taken by
 * another entry.  While cc is on the path, its first level stays on it,
 * so no entry of cc below it changes first.  One branch, not three: it
 * is no pattern.
 */
static inline int
on_path_at(const uint32_t *first, const uint32_t *ccpath, size_t depth,
    uint32_t cc)
{
	uint32_t l = first[cc];

	return (l - 1 < depth - 1) & (ccpath[l] == cc);
}

static int
on_path(const struct pdb_builder *b, uint32_t cc)
{
	return cc < b->nfirst && on_path_at(b->first, b->ccpath, b->depth,
	    cc);
}

/*
 * Room in mask (whether each is selected) and first for every cost
 * centre so far: they grow with the cost centres.
 */
static int
ccs_ready(struct pdb_builder *b)
{
	struct pdb *db = b->db;
	unsigned char *mask;
	size_t i, old = b->nfirst;

	if (b->nmask < db->nccs) {
		if ((mask = pdbi_realloc(b->mask, db->nccs)) == NULL)
			return PDB_ENOMEM;
		for (i = b->nmask; i < db->nccs; i++)
			mask[i] = (unsigned char)pdb_sel_match(b->sel, db,
			    (uint32_t)i);
		b->mask = mask;
		b->nmask = db->nccs;
	}
	if (old < db->nccs) {
		if (pdbi_grow(&b->first, &b->nfirst, db->nccs,
		    sizeof(*b->first)))
			return PDB_ENOMEM;
		/* Level 0, the root's: on no path above the root. */
		memset(b->first + old, 0, (b->nfirst - old) *
		    sizeof(*b->first));
	}
	return PDB_OK;
}

/* Whether cc is selected. */
static int
selected(struct pdb_builder *b, uint32_t cc, int *sel)
{
	if (cc >= b->nmask && ccs_ready(b) != PDB_OK)
		return PDB_ENOMEM;
	*sel = b->mask[cc];
	return PDB_OK;
}

/*
 * Check the values streamed for overflow of their sums (pdb_int.h).  A
 * value adds at most INT64_MAX to the positive sum, at most INT64_MAX,
 * which cannot wrap; and at most 2^63 to the negative one, at most 2^63,
 * which wraps to 0 exactly when both are 2^63: so the negative sum is out
 * of range when, less one, it is above INT64_MAX, 0 included.
 */
static int
check(struct pdb_builder *b, uint32_t cc, const int64_t *values)
{
	struct pdb *db = b->db;
	unsigned m, nm = db->nmetrics;
	uint64_t *r, bad = 0;
	int64_t v;

	if (b->range == NULL && (b->range = pdbi_calloc(2 * (size_t)nm + 1,
	    sizeof(*b->range))) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	/* The top bit of bad tells that a sum left the range. */
	for (m = 0, r = b->range; m < nm; m++, r += 2)
		if ((v = values[m]) >= 0)
			bad |= r[0] += (uint64_t)v;
		else
			bad |= (r[1] += 0 - (uint64_t)v) - 1;
	bad >>= 63;
	if (bad == 0)
		return PDB_OK;
	/* Which metric: the same tests (a metric's negative sum only moved
	 * if its value is negative). */
	for (m = 0, r = b->range; m < nm; m++, r += 2)
		if (r[0] > INT64_MAX ||
		    (values[m] < 0 && r[1] - 1 > (uint64_t)INT64_MAX))
			return pdbi_overflow(db, m, cc);
	return PDB_OK;
}

/* Add a node's values to n, its counts too when its cc is selected. */
static int
add(struct pdb_builder *b, uint32_t n, const int64_t *values, int sel)
{
	struct pdb *db = b->db;
	unsigned m, nm = db->nmetrics;

	if (!sel) {
		if (b->vals == NULL && (b->vals = pdbi_malloc(((size_t)nm +
		    1) * sizeof(*b->vals))) == NULL)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		for (m = 0; m < nm; m++)
			b->vals[m] = db->metrics[m].kind == PDB_COUNT ? 0 :
			    values[m];
		values = b->vals;
	}
	if (pdbi_values_add(db, n, values) != PDB_OK)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	return PDB_OK;
}

/*
 * The events name the handle the reader fills, which for a replay is
 * not the one built: the builder only ever works on its own.  The common
 * case, a node of a raw tree, goes first.
 */
static int
b_enter(void *arg, struct pdb *unused, uint32_t cc, const int64_t *values)
{
	struct pdb_builder *b = arg;
	uint32_t n;
	int rc;

	(void)unused;
	if (b->depth == 0 || b->mode != PDB_BUILD_RAW || b->project)
		return enter(b, cc, values);
	if (pdbi_grow(&b->path, &b->cap, b->depth + 1, sizeof(*b->path)) ||
	    pdbi_grow(&b->ccpath, &b->capcc, b->depth + 1, sizeof(*b->ccpath)))
		return pdb_seterr(b->db, PDB_ENOMEM, "out of memory");
	if (values != NULL && b->checked && (rc = check(b, cc, values)) !=
	    PDB_OK)
		return rc;
	if ((rc = pdbi_node_new(b->db, b->path[b->depth - 1], cc, values,
	    &n)) != PDB_OK)
		return rc;
	b->ccpath[b->depth] = PDB_NONE;
	b->path[b->depth++] = n;
	return PDB_OK;
}

static int
enter(struct pdb_builder *b, uint32_t cc, const int64_t *values)
{
	struct pdb *db = b->db;
	uint32_t n = 0, counted = PDB_NONE;
	int rc, sel = 1, on = 0;

	if (cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "cost centre %u out of range",
		    (unsigned)cc);
	if (b->depth == 0) {
		if (db->nnodes == 0)
			rc = pdb_root_new(db, cc, &n);
		else if (b->mode != PDB_BUILD_RAW && db->nodes[0].cc == cc) {
			n = 0;
			rc = PDB_OK;
		} else
			rc = pdb_seterr(db, PDB_EFORMAT,
			    "profile has more than one root");
	} else if (b->project && b->mode == PDB_BUILD_RAW) {
		if (selected(b, cc, &sel) != PDB_OK)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		if (!sel) {
			n = b->path[b->depth - 1];
			rc = PDB_OK;
		} else if (!(on = on_path(b, cc)))
			rc = pdb_child_get(db, b->path[b->depth - 1], cc, &n);
		else
			rc = pdbi_push_moved(db, b->path[b->depth - 1], cc, &n);
		counted = sel ? cc : PDB_NONE;
	} else if (b->mode == PDB_BUILD_MERGE)
		rc = pdb_child_get(db, b->path[b->depth - 1], cc, &n);
	else {
		rc = (on = on_path(b, cc)) ? pdbi_push_moved(db,
		    b->path[b->depth - 1], cc, &n) : pdb_child_get(db,
		    b->path[b->depth - 1], cc, &n);
		counted = cc;
	}
	if (rc != PDB_OK)
		return rc;
	if (pdbi_grow(&b->path, &b->cap, b->depth + 1, sizeof(*b->path)) ||
	    pdbi_grow(&b->ccpath, &b->capcc, b->depth + 1, sizeof(*b->ccpath)))
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	if (counted != PDB_NONE && !on) {
		if (cc >= b->nfirst && ccs_ready(b) != PDB_OK)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		b->first[cc] = (uint32_t)b->depth;
	}
	b->ccpath[b->depth] = counted;
	b->path[b->depth++] = n;
	if (values == NULL)
		return PDB_OK;
	if (b->checked && (rc = check(b, cc, values)) != PDB_OK)
		return rc;
	return add(b, n, values, sel);
}

/* Nodes lo to hi of a batch, one event at a time. */
static int
one_by_one(struct pdb_builder *b, const struct pdb_batch *bt, size_t lo,
    size_t hi, size_t *done)
{
	return pdb_batch_each(b->db, bt, lo, hi, done, b_enter, b_exit, b);
}

/*
 * The nodes of a raw tree from lo on that a batch can take in one go:
 * below the root, each cost centre known, no more exits than levels.
 * Returns the end of the run and makes room for its levels.
 */
static size_t
run_end(struct pdb_builder *b, const struct pdb_batch *bt, size_t lo,
    size_t hi)
{
	struct pdb *db = b->db;
	size_t i, depth = b->depth, maxd = depth;

	if (hi - lo > UINT32_MAX - 2 - (size_t)db->nnodes)
		hi = lo + (UINT32_MAX - 2 - db->nnodes);
	for (i = lo; i < hi; i++) {
		if (depth == 0 || bt->cc[i] >= db->nccs ||
		    bt->exits[i] > depth + 1)
			break;
		depth = depth + 1 - bt->exits[i];
		maxd = depth + bt->exits[i] > maxd ? depth + bt->exits[i] :
		    maxd;
	}
	if (pdbi_grow(&b->path, &b->cap, maxd + 1, sizeof(*b->path)) ||
	    pdbi_grow(&b->ccpath, &b->capcc, maxd + 1, sizeof(*b->ccpath)))
		return lo;
	return i;
}

#ifdef HAVE_AVX512_CHECKS
/*
 * run_checks() a node at a time, its values in the lanes of a 512-bit
 * register (AVX-512F), for up to 8 metrics: the sums of the run's
 * positive values and of its negative ones' magnitudes, and whether
 * every magnitude is below 2^55.  Then no sum of the run (256 nodes at
 * most) wraps, and as the sums only grow, the check of each sum at the
 * run's end is the check of every sum on the way.  Returns 1 or 0 as
 * run_checks(), or -1, with nothing changed, for the exact loop.
 */
static __attribute__((target("avx512f"))) int
run_checks_avx512(struct pdb_builder *b, const struct pdb_batch *bt,
    size_t lo, size_t hi, unsigned nm)
{
	const __mmask8 k = (__mmask8)((1u << nm) - 1);
	const __m512i zero = _mm512_setzero_si512();
	__m512i v, pos = zero, neg = zero, mag = zero;
	uint64_t *p, *n, r0, r1, bad = 0;
	__mmask8 lt;
	unsigned m;
	size_t i;

	/*
	 * The sums go to memory of the heap: in an array on the stack,
	 * which the compiler aligns for the store, ASan's stack for use
	 * after return had the store fault.
	 */
	if (hi - lo > 256 || (b->runsums == NULL &&
	    (b->runsums = pdbi_malloc(16 * sizeof(*b->runsums))) == NULL))
		return -1;
	p = b->runsums;
	n = b->runsums + 8;
	for (i = lo; i < hi; i++) {
		v = _mm512_maskz_loadu_epi64(k, bt->values + i * bt->stride);
		lt = _mm512_cmplt_epi64_mask(v, zero);
		pos = _mm512_mask_add_epi64(pos, (__mmask8)~lt, pos, v);
		neg = _mm512_mask_sub_epi64(neg, lt, neg, v);
		mag = _mm512_or_si512(mag, _mm512_abs_epi64(v));
	}
	/* Bits 55 to 63; INT64_MIN's magnitude is itself, the top bit. */
	if (_mm512_test_epi64_mask(mag, _mm512_set1_epi64(
	    -((long long)1 << 55))) != 0)
		return -1;
	_mm512_storeu_si512(p, pos);
	_mm512_storeu_si512(n, neg);
	for (m = 0; m < nm; m++) {
		r0 = b->range[(size_t)2 * m] + p[m];
		r1 = b->range[(size_t)2 * m + 1] + n[m];
		bad |= r0 | (n[m] != 0 ? r1 - 1 : 0);
	}
	if (bad >> 63)
		return 0;
	for (m = 0; m < nm; m++) {
		b->range[(size_t)2 * m] += p[m];
		b->range[(size_t)2 * m + 1] += n[m];
	}
	return 1;
}
#endif

/*
 * Whether the values of nodes lo to hi keep the sums in range (check()),
 * which are left as they were when not.
 */
static int
run_checks(struct pdb_builder *b, const struct pdb_batch *bt, size_t lo,
    size_t hi)
{
	unsigned m, nm = b->db->nmetrics;
	uint64_t r0, r1, bad = 0;
	const int64_t *v;
	size_t i;
#ifdef HAVE_AVX512_CHECKS
	int rc;
#endif

	if (b->range == NULL && (b->range = pdbi_calloc(2 * (size_t)nm + 1,
	    sizeof(*b->range))) == NULL)
		return 0;
#ifdef HAVE_AVX512_CHECKS
	if (nm <= 8 && pdb_cpu_avx512f() &&
	    (rc = run_checks_avx512(b, bt, lo, hi, nm)) >= 0)
		return rc;
#endif
	for (m = 0; m < nm; m++) {
		r0 = b->range[2 * m];
		r1 = b->range[2 * m + 1];
		for (i = lo, v = bt->values + lo * bt->stride + m; i < hi;
		    i++, v += bt->stride)
			if (*v >= 0)
				bad |= r0 += (uint64_t)*v;
			else
				bad |= (r1 += 0 - (uint64_t)*v) - 1;
		if (bad >> 63)
			break;
		b->range[2 * m] = r0;
		b->range[2 * m + 1] = r1;
	}
	if (m == nm)
		return 1;
	while (m-- > 0) {
		for (i = lo, v = bt->values + lo * bt->stride + m; i < hi;
		    i++, v += bt->stride)
			if (*v >= 0)
				b->range[2 * m] -= (uint64_t)*v;
			else
				b->range[2 * m + 1] -= 0 - (uint64_t)*v;
	}
	return 0;
}

/*
 * The values of rows lo to hi, added to their images, a metric at a
 * time (pdbi_values_add_col()): the counts of a row only where its cost
 * centre is selected.
 */
static int
add_images(struct pdb_builder *b, const struct pdb_batch *bt, size_t lo,
    size_t hi)
{
	struct pdb *db = b->db;
	unsigned m;

	for (m = 0; m < db->nmetrics; m++)
		if (pdbi_values_add_col(db, m, hi - lo, b->image, bt->values +
		    lo * bt->stride + m, bt->stride,
		    db->metrics[m].kind == PDB_COUNT ? b->keep : NULL) !=
		    PDB_OK)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	return PDB_OK;
}

/*
 * Nodes lo to hi of a raw tree projected (pdb_builder_select()), as
 * enter() and b_exit() would take them one at a time, but with the
 * checks that run_end() made once for the run.  The images are found or
 * made first, the new ones and the replays' chains zeroed together at
 * the end (pdbi_values_defer()), and then the values are added to them
 * a metric at a time (add_images()): the type of a column is looked at
 * once a run, where enter() looks at each column's type for each node,
 * and a new node's values cost no call.
 */
static int
project_run(struct pdb_builder *b, const struct pdb_batch *bt, size_t lo,
    size_t hi, size_t *done)
{
	struct pdb *db = b->db;
	const unsigned char *mask;
	uint32_t *path = b->path, *ccpath = b->ccpath, *first, *image, cc,
	    s, n;
	unsigned char *keep;
	size_t depth = b->depth, i;
	int rc = PDB_OK;

	if (ccs_ready(b) != PDB_OK ||
	    pdbi_grow(&b->image, &b->capimage, hi - lo, sizeof(*b->image)) ||
	    pdbi_grow(&b->keep, &b->capkeep, hi - lo, sizeof(*b->keep)))
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	mask = b->mask;
	first = b->first;
	image = b->image - lo;
	keep = b->keep - lo;
	pdbi_values_defer(db);
	for (i = lo; i < hi; i++) {
		cc = bt->cc[i];
		s = path[depth - 1];
		n = s;
		if (!mask[cc])
			;
		else if (on_path_at(first, ccpath, depth, cc))
			rc = pdbi_push_moved(db, s, cc, &n);
		else {
			first[cc] = (uint32_t)depth;
			if ((rc = pdbi_child_find(db, s, cc, &n)) == PDB_OK &&
			    n == PDB_NONE)
				rc = pdbi_child_new(db, s, cc, NULL, &n);
		}
		if (rc != PDB_OK)
			break;
		image[i] = n;
		keep[i] = mask[cc];
		ccpath[depth] = mask[cc] ? cc : PDB_NONE;
		path[depth++] = n;
		depth -= bt->exits[i];
	}
	b->depth = depth;
	*done = i;
	pdbi_values_zero(db);
	if (add_images(b, bt, lo, i) != PDB_OK)
		return PDB_ENOMEM;
	return rc;
}

/*
 * A batch (struct pdb_batch).  The nodes of a raw tree are made a run at
 * a time: the values a column at a time (pdbi_values_put_rows()), then
 * the links; or projected (project_run()).  Anything else (the root, an
 * error to report at its node) goes one event at a time.
 */
static int
b_nodes(void *arg, struct pdb *unused, const struct pdb_batch *bt,
    size_t *done)
{
	struct pdb_builder *b = arg;
	struct pdb *db = b->db;
	size_t lo, hi, i, k;
	uint32_t id;
	int rc;

	(void)unused;
	if (b->mode != PDB_BUILD_RAW)
		return one_by_one(b, bt, 0, bt->n, done);
	for (lo = 0; lo < bt->n; lo = hi) {
		*done = lo;
		if ((hi = run_end(b, bt, lo, bt->n)) == lo) {
			if ((rc = one_by_one(b, bt, lo, lo + 1, done)) != PDB_OK)
				return rc;
			hi = lo + 1;
			continue;
		}
		if (b->checked && !run_checks(b, bt, lo, hi))
			return one_by_one(b, bt, lo, hi, done);
		if (b->project) {
			if ((rc = project_run(b, bt, lo, hi, done)) != PDB_OK)
				return rc;
			continue;
		}
		k = hi - lo;
		if ((rc = pdbi_nodes_reserve(db, k)) != PDB_OK)
			return rc;
		if (pdbi_values_put_rows(db, db->nnodes, k, bt->values +
		    lo * bt->stride, bt->stride) != PDB_OK)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		for (i = lo, id = db->nnodes; i < hi; i++, id++) {
			pdbi_node_link(db, id, b->path[b->depth - 1], bt->cc[i]);
			b->ccpath[b->depth] = PDB_NONE;
			b->path[b->depth++] = id;
			b->depth -= bt->exits[i];
		}
		db->nnodes = id;
	}
	return PDB_OK;
}

/* Nothing to do before the first node; here for a program that drives
 * the sink itself and calls every event (pdb.h). */
static int
b_begin(void *arg, struct pdb *db)
{
	(void)arg;
	(void)db;
	return PDB_OK;
}

static int
b_exit(void *arg, struct pdb *unused)
{
	struct pdb_builder *b = arg;

	(void)unused;
	if (b->depth == 0)
		return pdb_seterr(b->db, PDB_EINVAL, "exit without enter");
	b->depth--;
	return PDB_OK;
}

/* The index is for building: drop it.  Project what was built if the
 * events could not be projected as they came. */
static int
b_end(void *arg, struct pdb *unused)
{
	struct pdb_builder *b = arg;
	struct pdb *db = b->db, *t;

	(void)unused;
	if (b->project && b->mode != PDB_BUILD_RAW && db->nnodes > 0) {
		if ((t = pdb_project_new(db, b->sel)) == NULL)
			return pdb_errcode(db);
		pdbi_tree_swap(db, t);
		pdb_free(t);
	}
	pdbi_index_free(db);
	return PDB_OK;
}

struct pdb_builder *
pdb_builder_new(struct pdb *db, enum pdb_build mode)
{
	struct pdb_builder *b;

	if ((b = pdbi_calloc(1, sizeof(*b))) == NULL)
		return NULL;
	b->db = db;
	b->mode = mode;
	b->checked = 1;
	b->sink.begin = b_begin;
	b->sink.enter = b_enter;
	b->sink.exit = b_exit;
	b->sink.end = b_end;
	b->sink.nodes = b_nodes;
	b->sink.arg = b;
	return b;
}

void
pdb_builder_free(struct pdb_builder *b)
{
	if (b == NULL)
		return;
	free(b->mask);
	free(b->path);
	free(b->ccpath);
	free(b->first);
	free(b->vals);
	free(b->image);
	free(b->keep);
	free(b->range);
	free(b->runsums);
	free(b);
}

void
pdb_builder_set_mode(struct pdb_builder *b, enum pdb_build mode)
{
	b->mode = mode;
}

void
pdb_builder_select(struct pdb_builder *b, const struct pdb_sel *sel)
{
	b->project = 1;
	b->sel = sel;
}

void
pdbi_builder_unchecked(struct pdb_builder *b)
{
	b->checked = 0;
}

const struct pdb_sink *
pdb_builder_sink(struct pdb_builder *b)
{
	return &b->sink;
}

int
pdb_replay(struct pdb *db, const struct pdb_sink *sink)
{
	uint32_t n, depth = 0, nd;
	int rc;

	if (sink->begin && (rc = sink->begin(sink->arg, db)) != 0)
		return rc;
	for (n = pdb_walk_first(db, &depth); n != PDB_NONE; n = nd) {
		uint32_t before = depth;

		if ((rc = sink->enter(sink->arg, db, db->nodes[n].cc,
		    pdb_node_values(db, n))) != 0)
			return rc;
		nd = pdb_walk_next(db, n, &depth);
		/* Close n unless the walk went down into its children. */
		if (nd == PDB_NONE || depth <= before) {
			uint32_t closes = nd == PDB_NONE ? before + 1 :
			    before - depth + 1;

			while (closes-- > 0)
				if ((rc = sink->exit(sink->arg, db)) != 0)
					return rc;
		}
	}
	if (sink->end && (rc = sink->end(sink->arg, db)) != 0)
		return rc;
	return PDB_OK;
}
