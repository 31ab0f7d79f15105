/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Flat (COST) and inherited (INHERITED_COST) profiles of Morgan & Jarvis
 * section 2.3, as a streaming sink: O(cost centres + depth) memory,
 * O(1) work per event and metric.
 *
 * Flat: each node's own cost goes to the selected cost centre nearest the
 * top of its stack, kept per path entry.  Inherited: a stack's cost goes
 * once to every selected cost centre on it.  Summing that over stacks is
 * the same as crediting, at the exit of the outermost occurrence of each
 * cost centre on the current path, the inclusive cost of that subtree;
 * inner occurrences (recursion that a profiler did not compress) add
 * nothing, which is exactly "once each".
 *
 * Readers of the binary formats hand over nodes in batches (f_nodes()),
 * which is the hot path of ccs-flat: one loop per batch instead of two
 * calls per node, specialised for the usual metric counts and for the
 * case where nothing is de-selected.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

struct frame {
	uint32_t	 cc;
	uint32_t	 nearest;	/* selected cost centre nearest the top */
};

/*
 * Per cost centre, one record of REC(nm, ninh) int64_t: its nm flat
 * costs, then the inherited ones of the first ninh metrics (the others
 * are asked for their flat costs only, PDB_FLAT_SELF), so that an enter
 * and the exit after it touch one cache line rather than two arrays.
 * Records are 64-byte aligned and padded to 16 or a multiple of 32
 * bytes so that they never straddle lines.  How often each cost centre
 * is on the current path is an array of its own (onpath), small enough
 * to stay in the nearest cache: records of a few thousand cost centres
 * do not.
 */
#define REC(nm, ninh)	((nm) + (ninh) <= 2 ? (size_t)2 : \
			    ((size_t)(nm) + (ninh) + 3) & ~(size_t)3)
#define SELF		0
#define INH(nm)		((size_t)(nm))

struct pdb_flat {
	const struct pdb_sel *sel;
	struct pdb_sink	 sink;
	pdb_flat_want_fn *want;		/* NULL: every metric */
	void		*want_arg;
	/*
	 * The metrics computed: nm of the schema's nschema, the k-th
	 * being schema metric col[k]; slot[m] is schema metric m's k, or
	 * -1 when it is not computed.  The first ninh are inherited too.
	 * Everything below is per k.
	 */
	unsigned	 nm, ninh, nschema;
	unsigned	*col;
	int		*slot;
	enum pdb_kind	*kinds;
	int		 all;		/* nothing is de-selected */
	uint32_t	 root_cc;

	/* Per cost centre, grown as new ones appear in the stream. */
	size_t		 ncc, capcc;
	int64_t		*cs;		/* ncc records, aligned in csmem */
	void		*csmem;
	signed char	*selected;	/* -1 unknown */
	unsigned char	*seen;
	uint32_t	*onpath;

	/* The current path. */
	struct frame	*path;
	int64_t		*acc;		/* depth * ninh totals at each enter */
	size_t		 depth, cappath;

	int64_t		*total;
	uint64_t	*range;		/* per metric: pdbi_sum_add()'s sums */
	uint64_t	 nodes;

	/* For batches: per metric, what a de-selected node keeps (all
	 * bits of a cost, none of a count); the range before a run; a run's
	 * sums and the OR of its values when nm is not a usual one. */
	uint64_t	*keep;
	uint64_t	*range0;
	int64_t		*sum;
	uint64_t	*mag;
	int64_t		*own;
};

/*
 * Nodes of a batch are taken in runs of at most 2^RUN_BITS, whose
 * values are added without checks; then their sums are checked at once
 * (check_run()).
 */
#define RUN_BITS	10
/* Metric counts up to this keep a run's sums in locals. */
#define NM_LOCAL	8

static int
reserve_cc(struct pdb_flat *f, struct pdb *db, uint32_t cc)
{
	size_t old = f->ncc, need = (size_t)cc + 1, rec = REC(f->nm, f->ninh);
	size_t cap, i;
	void *mem, *p;
	int64_t *cs;

	if (need <= f->ncc)
		return PDB_OK;
	if (need > f->capcc) {
		cap = f->capcc ? f->capcc : 64;
		while (cap < need)
			cap *= 2;
		if ((mem = pdbi_malloc(cap * rec * sizeof(int64_t) + 64)) ==
		    NULL)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		cs = (int64_t *)(((uintptr_t)mem + 63) & ~(uintptr_t)63);
		if (old > 0)
			memcpy(cs, f->cs, old * rec * sizeof(int64_t));
		free(f->csmem);
		f->csmem = mem;
		f->cs = cs;
		if ((p = pdbi_realloc(f->selected, cap)) == NULL)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		f->selected = p;
		if ((p = pdbi_realloc(f->seen, cap)) == NULL)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		f->seen = p;
		if ((p = pdbi_realloc(f->onpath, cap * sizeof(*f->onpath))) ==
		    NULL)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		f->onpath = p;
		f->capcc = cap;
	}
	memset(f->cs + old * rec, 0, (need - old) * rec * sizeof(int64_t));
	for (i = old; i < need; i++) {
		f->selected[i] = f->all ? 1 : -1;
		f->seen[i] = 0;
		f->onpath[i] = 0;
	}
	f->ncc = need;
	return PDB_OK;
}

static int	is_selected(struct pdb_flat *, struct pdb *, uint32_t)
    __attribute__((noinline));

static int
is_selected(struct pdb_flat *f, struct pdb *db, uint32_t cc)
{
	if (f->selected[cc] < 0)
		f->selected[cc] = (signed char)(cc == f->root_cc ||
		    pdb_sel_match(f->sel, db, cc));
	return f->selected[cc];
}

/* Free what a profile read made, and leave f as pdb_flat_new() did. */
static void
flat_clear(struct pdb_flat *f)
{
	struct pdb_flat keep = *f;

	free(f->kinds);
	free(f->csmem);
	free(f->selected);
	free(f->seen);
	free(f->onpath);
	free(f->path);
	free(f->acc);
	free(f->total);
	free(f->range);
	free(f->keep);
	free(f->range0);
	free(f->sum);
	free(f->mag);
	free(f->own);
	free(f->col);
	free(f->slot);
	memset(f, 0, sizeof(*f));
	f->sel = keep.sel;
	f->sink = keep.sink;
	f->want = keep.want;
	f->want_arg = keep.want_arg;
}

/*
 * A profile starts: what an earlier one left is dropped, so that a flat
 * profile can take one profile after another, each counted alone.
 */
static int
f_begin(void *arg, struct pdb *db)
{
	struct pdb_flat *f = arg;
	unsigned m, k;
	int pass;

	flat_clear(f);
	f->nschema = pdb_metric_count(db);
	f->col = pdbi_malloc((f->nschema + 1) * sizeof(*f->col));
	f->slot = pdbi_malloc((f->nschema + 1) * sizeof(*f->slot));
	if (f->col == NULL || f->slot == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	/*
	 * Each metric asked about once, the answer kept in slot; then
	 * those inherited too are numbered first, those asked for flat
	 * only after them.
	 */
	for (m = 0; m < f->nschema; m++)
		f->slot[m] = f->want == NULL ? 1 : f->want(f->want_arg, db, m);
	f->nm = 0;
	for (pass = 1; pass <= PDB_FLAT_SELF; pass++) {
		for (m = 0; m < f->nschema; m++)
			if (f->slot[m] != 0 && (f->slot[m] == PDB_FLAT_SELF) ==
			    (pass == PDB_FLAT_SELF))
				f->col[f->nm++] = m;
		if (pass == 1)
			f->ninh = f->nm;
	}
	for (m = 0; m < f->nschema; m++)
		f->slot[m] = -1;
	for (k = 0; k < f->nm; k++)
		f->slot[f->col[k]] = (int)k;
	f->kinds = pdbi_malloc((f->nm + 1) * sizeof(*f->kinds));
	f->total = pdbi_calloc(f->nm + 1, sizeof(*f->total));
	f->range = pdbi_calloc(2 * f->nm + 1, sizeof(*f->range));
	f->keep = pdbi_malloc((f->nm + 1) * sizeof(*f->keep));
	f->range0 = pdbi_malloc((2 * f->nm + 1) * sizeof(*f->range0));
	f->sum = pdbi_malloc((f->nm + 1) * sizeof(*f->sum));
	f->mag = pdbi_malloc((f->nm + 1) * sizeof(*f->mag));
	f->own = pdbi_malloc((f->nm + 1) * sizeof(*f->own));
	if (f->kinds == NULL || f->total == NULL || f->range == NULL ||
	    f->keep == NULL || f->range0 == NULL || f->sum == NULL ||
	    f->mag == NULL || f->own == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	for (m = 0; m < f->nm; m++) {
		f->kinds[m] = pdb_metric(db, f->col[m])->kind;
		f->keep[m] = f->kinds[m] == PDB_COUNT ? 0 : UINT64_MAX;
	}
	/* Nothing to look up per node when nothing is de-selected. */
	f->all = pdb_sel_is_trivial(f->sel);
	return PDB_OK;
}

/* Make room for path entries up to depth and for cost centres below
 * ncc (kept out of line: f_enter() and run() are the hot path). */
static int	f_room(struct pdb_flat *, struct pdb *, size_t, size_t)
    __attribute__((noinline));

static int
f_room(struct pdb_flat *f, struct pdb *db, size_t ncc, size_t depth)
{
	size_t cap;
	void *np;

	if (ncc > f->ncc && reserve_cc(f, db, (uint32_t)(ncc - 1)) != PDB_OK)
		return PDB_ENOMEM;
	if (depth <= f->cappath)
		return PDB_OK;
	cap = f->cappath ? f->cappath * 2 : 64;
	while (cap < depth)
		cap *= 2;
	if ((np = pdbi_realloc(f->path, cap * sizeof(*f->path))) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	f->path = np;
	if ((np = pdbi_realloc(f->acc, (cap * f->ninh + 1) *
	    sizeof(*f->acc))) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	f->acc = np;
	f->cappath = cap;
	return PDB_OK;
}

/*
 * One node, for readers that give them one at a time.  Its values are
 * checked (pdb_int.h, "Overflow") before they are added, so the error
 * names the first metric that overflows.
 */
static int
f_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *values)
{
	struct pdb_flat *f = arg;
	struct frame *fr;
	int64_t *acc, *self, v;
	unsigned m, nm;
	int sel;

	if (f->kinds == NULL && f_begin(f, db) != PDB_OK)
		return PDB_ENOMEM;
	if (cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "cost centre %u out of range",
		    (unsigned)cc);
	if ((cc >= f->ncc || f->depth >= f->cappath) &&
	    f_room(f, db, (size_t)cc + 1, f->depth + 1) != PDB_OK)
		return PDB_ENOMEM;
	if (f->depth == 0 && f->nodes == 0)
		f->root_cc = cc;
	nm = f->nm;
	/* NOLINTNEXTLINE(bugprone-signed-char-misuse,cert-str34-c): -1/0/1 */
	if ((sel = f->selected[cc]) < 0)
		sel = is_selected(f, db, cc);
	fr = &f->path[f->depth];
	fr->cc = cc;
	fr->nearest = sel || f->depth == 0 ? cc : fr[-1].nearest;
	acc = f->acc + f->depth * f->ninh;
	self = f->cs + fr->nearest * REC(nm, f->ninh) + SELF;
	for (m = 0; m < nm; m++) {
		/* A de-selected cost centre's counts are dropped. */
		v = values == NULL || (!sel && f->kinds[m] == PDB_COUNT) ? 0 :
		    values[f->col[m]];
		if (pdbi_sum_add(&f->range[2 * (size_t)m], v))
			return pdbi_overflow(db, f->col[m], cc);
		if (m < f->ninh)
			acc[m] = f->total[m];
		self[m] = (int64_t)((uint64_t)self[m] + (uint64_t)v);
		f->total[m] = (int64_t)((uint64_t)f->total[m] + (uint64_t)v);
	}
	f->seen[cc] = 1;
	f->onpath[cc]++;
	f->depth++;
	f->nodes++;
	return PDB_OK;
}

static int
f_exit(void *arg, struct pdb *db)
{
	struct pdb_flat *f = arg;
	int64_t *acc, *rec;
	unsigned m, nm = f->nm, ninh = f->ninh;
	uint32_t cc;

	if (f->depth == 0)
		return pdb_seterr(db, PDB_EINVAL, "exit without enter");
	f->depth--;
	cc = f->path[f->depth].cc;
	acc = f->acc + f->depth * ninh;
	rec = f->cs + cc * REC(nm, ninh);
	/* A subtree is a run of the pre-order: its cost is how much the
	 * total grew since its enter. */
	if (--f->onpath[cc] == 0 && f->selected[cc] == 1)
		for (m = 0; m < ninh; m++)
			rec[INH(nm) + m] = (int64_t)((uint64_t)rec[INH(nm) + m] +
			    (uint64_t)f->total[m] - (uint64_t)acc[m]);
	return PDB_OK;
}

/* Nothing is left to do at the end; here for a program that drives the
 * sink itself and calls every event (pdb.h). */
static int
f_end(void *arg, struct pdb *db)
{
	(void)arg;
	(void)db;
	return PDB_OK;
}

/* Node i's value of metric m as the sink counted it. */
static inline int64_t
kept(const struct pdb_flat *f, const struct pdb_batch *b, size_t i,
    unsigned m)
{
	uint64_t v = (uint64_t)b->values[i * b->stride + f->col[m]];

	return (int64_t)(f->selected[b->cc[i]] == 1 ? v : v & f->keep[m]);
}

/*
 * The exact check, value by value from the sums before the run
 * [lo, hi), for when the quick one in check_run() cannot tell: the first
 * value that overflows is the error.
 */
static int	check_slow(struct pdb_flat *, struct pdb *,
    const struct pdb_batch *, size_t, size_t, size_t *)
    __attribute__((noinline));

static int
check_slow(struct pdb_flat *f, struct pdb *db, const struct pdb_batch *b,
    size_t lo, size_t hi, size_t *done)
{
	unsigned m, nm = f->nm;
	size_t i;

	memcpy(f->range, f->range0, 2 * (size_t)nm * sizeof(*f->range));
	for (i = lo; i < hi; i++)
		for (m = 0; m < nm; m++)
			if (pdbi_sum_add(&f->range[2 * (size_t)m],
			    kept(f, b, i, m))) {
				*done = i;
				return pdbi_overflow(db, f->col[m], b->cc[i]);
			}
	return PDB_OK;
}

/*
 * Add a run's sums to the totals and to the sums of pdbi_sum_add(),
 * which the run did not keep value by value.  When a metric's values
 * are all non-negative and small (their OR, mag, below 2^(63 -
 * RUN_BITS)), their sum is exactly the sum of the positive ones.
 * Otherwise the negative ones are summed apart, which is exact while
 * their magnitudes are as small.  Anything else, or a sum out of range,
 * takes the exact check.
 */
static int
check_run(struct pdb_flat *f, struct pdb *db, const struct pdb_batch *b,
    size_t lo, size_t hi, size_t *done, const int64_t *sum,
    const uint64_t *mag)
{
	const uint64_t small = (uint64_t)1 << (63 - RUN_BITS);
	uint64_t pos, neg, mg, s, x, *r;
	unsigned m, nm = f->nm;
	size_t i;
	int slow = 0;

	memcpy(f->range0, f->range, 2 * (size_t)nm * sizeof(*f->range));
	for (m = 0; m < nm; m++) {
		f->total[m] = (int64_t)((uint64_t)f->total[m] +
		    (uint64_t)sum[m]);
		r = &f->range[2 * (size_t)m];
		pos = (uint64_t)sum[m];
		neg = 0;
		if (mag[m] >= small) {
			mg = 0;
			for (i = lo; i < hi; i++) {
				x = (uint64_t)kept(f, b, i, m);
				s = 0 - (x >> 63);	/* all ones if negative */
				neg -= x & s;
				mg |= x ^ s;
			}
			pos += neg;
			slow |= mg >= small;
		}
		if (pos > (uint64_t)INT64_MAX - r[0] ||
		    neg > (uint64_t)INT64_MAX + 1 - r[1])
			slow = 1;
		r[0] += pos;
		r[1] += neg;
	}
	return slow ? check_slow(f, db, b, lo, hi, done) : PDB_OK;
}

/*
 * The nodes [lo, hi) of b, at most 2^RUN_BITS of them: f_enter() and
 * f_exit() in one loop, for a constant nm (so that the loops over the
 * metrics unroll and the run's sums stay in registers) and with all set
 * when nothing is de-selected (no lookups).  Values are added
 * unchecked; check_run() checks them after.  Everything is in locals:
 * the compiler must otherwise assume that a byte store (seen) changes f.
 */
static inline __attribute__((always_inline)) int
run(struct pdb_flat *f, struct pdb *db, const struct pdb_batch *b,
    size_t lo, size_t hi, size_t *done, const unsigned nm,
    const unsigned ninh, const int all)
{
	const uint32_t *restrict ccs = b->cc;
	const int64_t *restrict vals = b->values, *v;
	const size_t *restrict exits = b->exits;
	/* In locals, like everything here: see above. */
	unsigned lcol[NM_LOCAL];
	const unsigned *col;
	const size_t stride = b->stride, rec = REC(nm, ninh);
	const uint64_t *restrict keep = f->keep;
	struct frame *path = f->path;
	int64_t *accs = f->acc, *cs = f->cs, *acc, *r;
	int64_t lsum[NM_LOCAL], *sum = nm <= NM_LOCAL ? lsum : f->sum;
	uint64_t lmag[NM_LOCAL], *mag = nm <= NM_LOCAL ? lmag : f->mag;
	int64_t lown[NM_LOCAL], *own = nm <= NM_LOCAL ? lown : f->own;
	uint64_t x, credit, mask = UINT64_MAX;
	unsigned char *seen = f->seen;
	uint32_t *onpath = f->onpath;
	signed char *selected = f->selected;
	size_t depth = f->depth, i, e;
	size_t upto = hi;
	uint32_t cc, nearest, on;
	unsigned m;
	int sel, leaf, rc = PDB_OK, rc2;

	/* sum is the running total, less f->total after the loop. */
#pragma GCC unroll 8
	for (m = 0; m < nm; m++) {
		sum[m] = f->total[m];
		mag[m] = 0;
		if (nm <= NM_LOCAL)
			lcol[m] = f->col[m];
	}
	col = nm <= NM_LOCAL ? lcol : f->col;
	for (i = lo; i < hi; i++) {
		cc = ccs[i];
		nearest = cc;
		if (!all) {
			if (depth == 0 && f->nodes + (i - lo) == 0)
				f->root_cc = cc;
			/* NOLINTNEXTLINE(bugprone-signed-char-misuse,cert-str34-c) */
			if ((sel = selected[cc]) < 0)
				sel = is_selected(f, db, cc);
			if (!sel && depth > 0)
				nearest = path[depth - 1].nearest;
			mask = sel ? UINT64_MAX : 0;
			path[depth].nearest = nearest;
		}
		path[depth].cc = cc;
		v = vals + i * stride;
		acc = accs + depth * ninh;
		r = cs + nearest * rec + SELF;
#pragma GCC unroll 8
		for (m = 0; m < nm; m++) {
			x = (uint64_t)v[col[m]];
			if (!all)
				x &= mask | keep[m];
			own[m] = (int64_t)x;
			r[m] = (int64_t)((uint64_t)r[m] + x);
			mag[m] |= x;
		}
		seen[cc] = 1;
		/*
		 * Enter, and for a leaf exit at once, its own costs its
		 * inclusive, without a branch on which it is: nearly half
		 * the nodes are leaves, in no order a predictor could learn.
		 */
#pragma GCC unroll 8
		for (m = 0; m < nm; m++) {
			/* The total at the enter: see f_exit(). */
			if (m < ninh)
				acc[m] = sum[m];
			sum[m] = (int64_t)((uint64_t)sum[m] + (uint64_t)own[m]);
		}
		e = exits[i];
		leaf = e != 0;
		on = onpath[cc];
		onpath[cc] = on + !leaf;
		credit = 0 - (uint64_t)(leaf && on == 0 &&
		    (all || selected[cc] == 1));
		r = cs + cc * rec;
#pragma GCC unroll 8
		for (m = 0; m < ninh; m++)
			r[INH(nm) + m] = (int64_t)((uint64_t)r[INH(nm) + m] +
			    ((uint64_t)own[m] & credit));
		depth += !leaf;
		for (e -= leaf; e > 0; e--) {
			if (depth == 0) {
				rc = pdb_seterr(db, PDB_EINVAL,
				    "exit without enter");
				upto = i + 1;
				break;
			}
			depth--;
			cc = path[depth].cc;
			/*
			 * Credit the outermost occurrence without a branch:
			 * which exits are is no pattern either.
			 */
			on = --onpath[cc];
			credit = 0 - (uint64_t)(on == 0 &&
			    (all || selected[cc] == 1));
			acc = accs + depth * ninh;
			r = cs + cc * rec;
#pragma GCC unroll 8
			for (m = 0; m < ninh; m++)
				r[INH(nm) + m] = (int64_t)(
				    (uint64_t)r[INH(nm) + m] +
				    (((uint64_t)sum[m] - (uint64_t)acc[m]) &
				    credit));
		}
		if (rc != PDB_OK)
			break;
	}
	f->depth = depth;
	f->nodes += upto - lo;
#pragma GCC unroll 8
	for (m = 0; m < nm; m++)
		sum[m] = (int64_t)((uint64_t)sum[m] - (uint64_t)f->total[m]);
	/* An overflow before the failing node is the first error. */
	if ((rc2 = check_run(f, db, b, lo, upto, done, sum, mag)) != PDB_OK)
		return rc2;
	if (rc != PDB_OK)
		*done = i;
	return rc;
}

static int
f_nodes(void *arg, struct pdb *db, const struct pdb_batch *b, size_t *done)
{
	struct pdb_flat *f = arg;
	size_t lo, hi;
	int rc = PDB_OK;

	if (f->kinds == NULL && f_begin(f, db) != PDB_OK) {
		*done = 0;
		return PDB_ENOMEM;
	}
	/*
	 * Room for every cost centre of the handle, which has those of the
	 * batch, and for the batch all one path: run() checks no node.
	 */
	if (f_room(f, db, pdb_cc_count(db), f->depth + b->n) != PDB_OK) {
		*done = 0;
		return PDB_ENOMEM;
	}
	for (lo = 0; lo < b->n && rc == PDB_OK; lo = hi) {
		hi = b->n - lo > (1u << RUN_BITS) ? lo + (1u << RUN_BITS) :
		    b->n;
		/*
		 * Unrolled for the usual schemas (folded, GHC, Clean) and
		 * for the reports of one metric, alone or with the flat
		 * entries (ccs-flat).
		 */
		if (!f->all)
			rc = run(f, db, b, lo, hi, done, f->nm, f->ninh, 0);
		else if (f->nm == 1 && f->ninh == 1)
			rc = run(f, db, b, lo, hi, done, 1, 1, 1);
		else if (f->nm == 2 && f->ninh == 1)
			rc = run(f, db, b, lo, hi, done, 2, 1, 1);
		else if (f->nm == 3 && f->ninh == 3)
			rc = run(f, db, b, lo, hi, done, 3, 3, 1);
		else if (f->nm == 6 && f->ninh == 6)
			rc = run(f, db, b, lo, hi, done, 6, 6, 1);
		else
			rc = run(f, db, b, lo, hi, done, f->nm, f->ninh, 1);
	}
	return rc;
}

/* The readers need decode only the metrics computed. */
static uint64_t
f_columns(void *arg, const struct pdb *db)
{
	const struct pdb_flat *f = arg;
	uint64_t want = 0;
	unsigned k;

	(void)db;
	if (f->col == NULL)
		return UINT64_MAX;
	for (k = 0; k < f->nm; k++)
		if (f->col[k] < 64)
			want |= (uint64_t)1 << f->col[k];
	return want;
}

struct pdb_flat *
pdb_flat_new(const struct pdb_sel *sel)
{
	struct pdb_flat *f;

	if ((f = pdbi_calloc(1, sizeof(*f))) == NULL)
		return NULL;
	f->sel = sel;
	f->sink.begin = f_begin;
	f->sink.enter = f_enter;
	f->sink.exit = f_exit;
	f->sink.end = f_end;
	f->sink.nodes = f_nodes;
	f->sink.columns = f_columns;
	f->sink.arg = f;
	return f;
}

void
pdb_flat_free(struct pdb_flat *f)
{
	if (f == NULL)
		return;
	flat_clear(f);
	free(f);
}

const struct pdb_sink *
pdb_flat_sink(struct pdb_flat *f)
{
	return &f->sink;
}

uint32_t
pdb_flat_cc_count(const struct pdb_flat *f)
{
	return (uint32_t)f->ncc;
}

int
pdb_flat_seen(const struct pdb_flat *f, uint32_t cc)
{
	return cc < f->ncc && f->seen[cc];
}

int
pdb_flat_selected(const struct pdb_flat *f, uint32_t cc)
{
	return cc < f->ncc && f->selected[cc] == 1;
}

void
pdb_flat_want(struct pdb_flat *f, pdb_flat_want_fn *want, void *arg)
{
	f->want = want;
	f->want_arg = arg;
}

/* Schema metric m's index among those computed, or -1. */
static int
slot_of(const struct pdb_flat *f, unsigned m)
{
	return f->slot != NULL && m < f->nschema ? f->slot[m] : -1;
}

int64_t
pdb_flat_self(const struct pdb_flat *f, uint32_t cc, unsigned m)
{
	int k = slot_of(f, m);

	return cc < f->ncc && k >= 0 ?
	    f->cs[cc * REC(f->nm, f->ninh) + SELF + (unsigned)k] : 0;
}

int64_t
pdb_flat_inherited(const struct pdb_flat *f, uint32_t cc, unsigned m)
{
	int k = slot_of(f, m);

	return cc < f->ncc && k >= 0 && (unsigned)k < f->ninh ?
	    f->cs[cc * REC(f->nm, f->ninh) + INH(f->nm) + (unsigned)k] : 0;
}

int64_t
pdb_flat_total(const struct pdb_flat *f, unsigned m)
{
	int k = slot_of(f, m);

	return k >= 0 ? f->total[k] : 0;
}

uint64_t
pdb_flat_nodes(const struct pdb_flat *f)
{
	return f->nodes;
}
