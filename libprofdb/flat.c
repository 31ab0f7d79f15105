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
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

struct frame {
	uint32_t	 cc;
	uint32_t	 nearest;	/* selected cost centre nearest the top */
};

struct pdb_flat {
	const struct pdb_sel *sel;
	struct pdb_sink	 sink;
	unsigned	 nm;
	enum pdb_kind	*kinds;
	int		 has_count;	/* some metric is a count */
	uint32_t	 root_cc;

	/* Per cost centre, grown as new ones appear in the stream. */
	size_t		 ncc, capcc;
	int64_t		*self, *inh;	/* ncc * nm */
	uint32_t	*onpath;
	signed char	*selected;	/* -1 unknown */
	unsigned char	*seen;

	/* The current path. */
	struct frame	*path;
	int64_t		*acc;		/* depth * nm inclusive sums */
	size_t		 depth, cappath, capacc;

	int64_t		*total;
	uint64_t	*range;		/* per metric: pdbi_sum_add()'s sums */
	uint64_t	 nodes;
};

static int
reserve_cc(struct pdb_flat *f, struct pdb *db, uint32_t cc)
{
	size_t old = f->ncc, need = (size_t)cc + 1, nm = f->nm, cap, i;

	if (need <= f->ncc)
		return PDB_OK;
	if (need > f->capcc) {
		cap = f->capcc ? f->capcc : 64;
		while (cap < need)
			cap *= 2;
#define GROW(p, n) do {							\
		void *np_ = pdbi_realloc((p), (n));			\
		if (np_ == NULL)					\
			return pdb_seterr(db, PDB_ENOMEM, "out of memory"); \
		(p) = np_;						\
	} while (0)
		GROW(f->self, cap * nm * sizeof(int64_t) + 1);
		GROW(f->inh, cap * nm * sizeof(int64_t) + 1);
		GROW(f->onpath, cap * sizeof(uint32_t));
		GROW(f->selected, cap);
		GROW(f->seen, cap);
#undef GROW
		f->capcc = cap;
	}
	memset(f->self + old * nm, 0, (need - old) * nm * sizeof(int64_t));
	memset(f->inh + old * nm, 0, (need - old) * nm * sizeof(int64_t));
	for (i = old; i < need; i++) {
		f->onpath[i] = 0;
		f->selected[i] = -1;
		f->seen[i] = 0;
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

static int
f_begin(void *arg, struct pdb *db)
{
	struct pdb_flat *f = arg;
	unsigned m;

	f->nm = pdb_metric_count(db);
	free(f->kinds);
	free(f->total);
	free(f->range);
	f->kinds = pdbi_malloc((f->nm + 1) * sizeof(*f->kinds));
	f->total = pdbi_calloc(f->nm + 1, sizeof(*f->total));
	f->range = pdbi_calloc(2 * f->nm + 1, sizeof(*f->range));
	if (f->kinds == NULL || f->total == NULL || f->range == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	f->has_count = 0;
	for (m = 0; m < f->nm; m++)
		if ((f->kinds[m] = pdb_metric(db, m)->kind) == PDB_COUNT)
			f->has_count = 1;
	/* The path's sums have nm entries a level: size them anew. */
	free(f->path);
	free(f->acc);
	f->path = NULL;
	f->acc = NULL;
	f->cappath = f->capacc = 0;
	return PDB_OK;
}

/* Make room for one more path entry and for cost centre cc (kept out
 * of line: f_enter() is the hot path). */
static int	f_grow(struct pdb_flat *, struct pdb *, uint32_t)
    __attribute__((noinline));

static int
f_grow(struct pdb_flat *f, struct pdb *db, uint32_t cc)
{
	size_t cap;
	void *np;

	if (reserve_cc(f, db, cc) != PDB_OK)
		return PDB_ENOMEM;
	if (f->depth < f->cappath)
		return PDB_OK;
	cap = f->cappath ? f->cappath * 2 : 64;
	if ((np = pdbi_realloc(f->path, cap * sizeof(*f->path))) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	f->path = np;
	if ((np = pdbi_realloc(f->acc, (cap * f->nm + 1) *
	    sizeof(*f->acc))) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	f->acc = np;
	f->cappath = cap;
	return PDB_OK;
}

/* Report the metric that overflowed (kept out of line). */
static int	overflow(const struct pdb_flat *, struct pdb *, uint32_t,
    const int64_t *) __attribute__((noinline, cold));

static int
overflow(const struct pdb_flat *f, struct pdb *db, uint32_t cc,
    const int64_t *values)
{
	uint64_t r[2];
	unsigned m;

	/* A failed pdbi_sum_add() left its sums as they were. */
	for (m = 0; m + 1 < f->nm; m++) {
		r[0] = f->range[2 * (size_t)m];
		r[1] = f->range[2 * (size_t)m + 1];
		if (pdbi_sum_add(r, values[m]))
			break;
	}
	return pdbi_overflow(db, m, cc);
}

/* A node's values into its path entry, its flat cost and the totals;
 * inlined with a constant nm, the loop unrolls. */
static inline __attribute__((always_inline)) unsigned
add_values(unsigned nm, const int64_t *restrict values, int64_t *restrict acc,
    int64_t *restrict self, int64_t *restrict total, uint64_t *restrict range)
{
	unsigned m, bad = 0;
	int64_t v;

	for (m = 0; m < nm; m++) {
		v = values[m];
		acc[m] = v;
		self[m] = (int64_t)((uint64_t)self[m] + (uint64_t)v);
		total[m] = (int64_t)((uint64_t)total[m] + (uint64_t)v);
		bad |= pdbi_sum_add(&range[2 * (size_t)m], v);
	}
	return bad;
}

/* acc into inh (the inherited cost) and into up (the parent's sums). */
static inline __attribute__((always_inline)) void
add_up(unsigned nm, const int64_t *restrict acc, int64_t *restrict inh,
    int64_t *restrict up)
{
	unsigned m;

	if (inh != NULL)
		for (m = 0; m < nm; m++)
			inh[m] = (int64_t)((uint64_t)inh[m] + (uint64_t)acc[m]);
	if (up != NULL)
		for (m = 0; m < nm; m++)
			up[m] = (int64_t)((uint64_t)up[m] + (uint64_t)acc[m]);
}

/*
 * The hot path of every streaming analysis: keep it to array lookups and
 * one loop over the metrics.
 */
static int
f_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *values)
{
	struct pdb_flat *f = arg;
	struct frame *fr;
	int64_t *restrict acc, *restrict self, *restrict total, v;
	uint64_t *restrict range;
	unsigned m, nm, bad = 0;
	int sel;

	if (f->kinds == NULL && f_begin(f, db) != PDB_OK)
		return PDB_ENOMEM;
	if ((cc >= f->ncc || f->depth >= f->cappath) &&
	    f_grow(f, db, cc) != PDB_OK)
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
	acc = f->acc + f->depth * nm;
	self = f->self + (size_t)fr->nearest * nm;
	total = f->total;
	range = f->range;
	if (values == NULL)
		memset(acc, 0, nm * sizeof(*acc));
	else if (sel || !f->has_count) {
		/* Unrolled for the usual schemas: folded, GHC, Clean. */
		switch (nm) {
		case 1:
			bad = add_values(1, values, acc, self, total, range);
			break;
		case 3:
			bad = add_values(3, values, acc, self, total, range);
			break;
		case 6:
			bad = add_values(6, values, acc, self, total, range);
			break;
		default:
			bad = add_values(nm, values, acc, self, total, range);
			break;
		}
	} else {
		/* A de-selected cost centre's counts are dropped. */
		for (m = 0; m < nm; m++) {
			v = f->kinds[m] == PDB_COUNT ? 0 : values[m];
			acc[m] = v;
			self[m] = (int64_t)((uint64_t)self[m] + (uint64_t)v);
			total[m] = (int64_t)((uint64_t)total[m] + (uint64_t)v);
			bad |= pdbi_sum_add(&range[2 * (size_t)m], v);
		}
	}
	/* No sum can wrap while the magnitudes fit (pdb_int.h). */
	if (bad)
		return overflow(f, db, cc, values);
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
	const struct frame *fr;
	int64_t *acc, *up, *inh;
	unsigned nm = f->nm;
	uint32_t cc;

	if (f->depth == 0)
		return pdb_seterr(db, PDB_EINVAL, "exit without enter");
	f->depth--;
	fr = &f->path[f->depth];
	cc = fr->cc;
	acc = f->acc + f->depth * nm;
	inh = --f->onpath[cc] == 0 && f->selected[cc] == 1 ?
	    f->inh + (size_t)cc * nm : NULL;
	up = f->depth > 0 ? acc - nm : NULL;
	switch (nm) {
	case 1:
		add_up(1, acc, inh, up);
		break;
	case 3:
		add_up(3, acc, inh, up);
		break;
	case 6:
		add_up(6, acc, inh, up);
		break;
	default:
		add_up(nm, acc, inh, up);
		break;
	}
	return PDB_OK;
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
	f->sink.arg = f;
	return f;
}

void
pdb_flat_free(struct pdb_flat *f)
{
	if (f == NULL)
		return;
	free(f->kinds);
	free(f->self);
	free(f->inh);
	free(f->onpath);
	free(f->selected);
	free(f->seen);
	free(f->path);
	free(f->acc);
	free(f->total);
	free(f->range);
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

int64_t
pdb_flat_self(const struct pdb_flat *f, uint32_t cc, unsigned m)
{
	return cc < f->ncc && m < f->nm ? f->self[(size_t)cc * f->nm + m] : 0;
}

int64_t
pdb_flat_inherited(const struct pdb_flat *f, uint32_t cc, unsigned m)
{
	return cc < f->ncc && m < f->nm ? f->inh[(size_t)cc * f->nm + m] : 0;
}

int64_t
pdb_flat_total(const struct pdb_flat *f, unsigned m)
{
	return m < f->nm ? f->total[m] : 0;
}

uint64_t
pdb_flat_nodes(const struct pdb_flat *f)
{
	return f->nodes;
}
