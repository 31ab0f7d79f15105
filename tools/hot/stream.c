/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-hot's streaming path (hot.h).
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "hot.h"
#include "xmalloc.h"

/*
 * Streaming: the tree's answers in memory that does not grow with the
 * profile.
 *
 * In a format whose tree is its stream (pgcl, dump, GHC) each event is
 * a node:
 *  - The hot stack: the first node of largest own cost.
 *  - The expensive arm: at its exit a node's arm is the node and the arm
 *    of its child of largest inclusive cost (the first of equals), if
 *    that is positive.  Arms are linked lists, so an open node holds its
 *    best child's arm without copying it.
 *  - The costliest stacks: a heap of the n best, with their stacks.
 * The stacks of the hot stack and of the heap are the open path when
 * they are found, and are copied only as the levels holding them are
 * opened again (keep_save()): a new hot stack in every leaf of a deep
 * comb, or each node of it entering the heap, would otherwise copy the
 * path each time.
 * The sums of the metric shown are checked as the tree builder checks
 * them, so that its overflow is the tree path's error; the others are
 * not even decoded (h_columns()).
 *
 * Folded stacks are merged into their tree (through Push): a stack on
 * two lines, adjacent or not, is one node.  Their stream is the tree's
 * only when each stack's lines come together, as ccs-convert -t folded,
 * ccs-gen and sorted stackcollapse output write them.  Then a node is a
 * level opened once, whose own cost later lines may still add to (Push
 * makes "f;f" the stack "f"), so the hot stack and the list weigh it
 * when it closes, by its own cost and then its rank in pre-order.
 * Anything else would be a node seen twice: a cost centre coming again
 * as a child of a level that already had it, or pushed onto a stack
 * that holds it below the top (Push then moves it off the open path).
 * The first such event stops the stream, and the caller reads the file
 * again into a tree; a pipe, which cannot be read again, is built into
 * a tree from the start.  To see a child come again, each open level
 * keeps its children, one entry per cost centre, chained per cost centre
 * newest first: a chain's head is the deepest open level with that
 * child, since an open level that took it later lies below the others.
 */
/*
 * An arm is a list of cells, owned by one level or by the arm that goes
 * on from it.  Its first cell knows its last, so that a list is freed
 * at once, without a walk, onto the list of free cells.  Most arms end
 * in a leaf, which the last cell holds too, if leafinc is positive.
 */
struct cell {
	uint32_t	 cc;
	uint32_t	 leafcc;
	int64_t		 inc;
	int64_t		 leafinc;	/* in the last cell */
	struct cell	*next;
	struct cell	*tail;		/* in a list's first cell: its last */
};

/* Cells are allocated CELL_SLAB at a time, the slabs in a list. */
#define CELL_SLAB	4096

struct slab {
	struct slab	*prev;
	struct cell	 cells[CELL_SLAB];
};

/*
 * An open level.  Its best child's arm so far, if any, has inclusive
 * value bestinc > 0: the list best, or, while best is NULL, the lone
 * child bestcc.  Nearly half the nodes are leaves, whose arms are
 * themselves alone: they need no cell until they become part of a
 * longer arm, and the comparison with the best so far reads no cell.
 */
struct level {
	uint32_t	 cc;
	uint32_t	 bestcc;
	int64_t		 inc;
	int64_t		 bestinc;
	struct cell	*best;
};

/* What a level of a merged stream weighs when it closes. */
struct mlevel {
	int64_t		 own;
	uint64_t	 rank;		/* pre-order */
	size_t		 kids;		/* its children's entries start here */
};

/* A child of an open level, in the chain of its cost centre. */
struct kid {
	size_t		 prev;		/* the chain's next entry, or NONE */
	size_t		 parent;	/* the level whose child it is */
	uint32_t	 cc;
};

#define NONE	SIZE_MAX

struct ranked {
	int64_t		 v;
	uint64_t	 rank;		/* pre-order */
	size_t		 kept;		/* its stack */
};

/*
 * A stack kept from the open path: st.len levels, the first live of them
 * still in the open path's levels, the rest copied to st.cc.  Kept stacks
 * are listed newest first, and a newer one never has fewer levels live,
 * so that those a level opened again concerns are found first.
 */
struct kept {
	struct stackv	 st;
	size_t		 live, cap;
	size_t		 older, newer;	/* in the list, or NONE */
};

enum mode {
	M_RAW,		/* the stream is the tree */
	M_MERGED,	/* the stream is the tree while no node comes twice */
	M_BUILD		/* a pipe in a merged format: build the tree */
};

struct hot {
	struct pdb_sink	 sink;
	struct tool_common *c;
	const char	*path;		/* the input, "-" for stdin */
	const struct pdb_format *fmt;	/* the input's, once it begins */
	enum mode	 mode;
	int		 rereadable;	/* the input can be read again */
	int		 again;		/* a node came twice: read a tree */
	int		 push;		/* merged by Push: compressed stacks */
	int		 m;		/* -1: the metric was not found */
	struct pdb_builder *b;		/* M_BUILD */
	struct level	*lv;
	size_t		 depth, cap;
	int		 rootdone;	/* the root has closed */
	uint64_t	 rank;
	/* The sums of the metric shown, positive and negative values
	 * apart. */
	uint64_t	 range[2];
	/* The hot stack, kept[0]. */
	int64_t		 hotv;
	uint64_t	 hotrank;
	int		 hashot;
	/* The kept stacks: the hot stack, then those of the heap; the
	 * newest, and its live levels, the most any has. */
	struct kept	*kept;
	size_t		 nkept, newest, live;
	/* The arm of the root, at the end. */
	struct cell	*arm, *freecells;
	struct slab	*slab;		/* the newest slab */
	size_t		 slabused;	/* its cells given out */
	int64_t		 total;
	/* The heap of the costliest stacks: heap[0] the least of them;
	 * room for capheap, and for capheap + 1 kept stacks, grown up to
	 * ntop as stacks come. */
	struct ranked	*heap;
	size_t		 nheap, ntop, capheap;
	/* Merged streams: beside lv, and per event level and cost centre. */
	struct mlevel	*ml;
	size_t		 mlcap;
	unsigned char	*real;		/* the event opened a level */
	size_t		 edepth, ecap;
	struct kid	*kid;
	size_t		 nkid, kidcap;
	size_t		*head;		/* per cost centre: its newest kid */
	unsigned char	*onpath;	/* per cost centre: on a level above
					   the root */
	size_t		 ncc;
};

/* Free the list from c, all of it. */
static inline void
cell_release(struct hot *h, struct cell *c)
{
	if (c != NULL) {
		c->tail->next = h->freecells;
		h->freecells = c;
	}
}

/* Cells for cell_new(), a slab more. */
static void	cell_slab(struct hot *)	__attribute__((noinline));

static void
cell_slab(struct hot *h)
{
	struct slab *sl = xmalloc(sizeof(*sl));

	sl->prev = h->slab;
	h->slab = sl;
	h->slabused = 0;
}

static inline struct cell *
cell_new(struct hot *h)
{
	struct cell *c;

	if ((c = h->freecells) != NULL) {
		h->freecells = c->next;
		return c;
	}
	if (h->slab == NULL || h->slabused == CELL_SLAB)
		cell_slab(h);
	return &h->slab->cells[h->slabused++];
}

/*
 * The levels from depth on are to be opened again: the kept stacks that
 * have them live copy them first (kept out of line: it is rare).
 */
static void	keep_save(struct hot *, size_t)	__attribute__((noinline));

static void
keep_save(struct hot *h, size_t depth)
{
	struct kept *s;
	size_t k, i;

	for (k = h->newest; k != NONE && (s = &h->kept[k])->live > depth;
	    k = s->older) {
		for (i = depth; i < s->live; i++)
			s->st.cc[i] = h->lv[i].cc;
		s->live = depth;
	}
	h->live = depth;
}

/*
 * The open path's first len levels are kept stack k, now the newest.
 * Newer stacks of more live levels (a merged stream's, which weighs a
 * level when it closes) copy those first.
 */
static void	keep_set(struct hot *, size_t, size_t)
		    __attribute__((noinline));

static void
keep_set(struct hot *h, size_t k, size_t len)
{
	struct kept *s = &h->kept[k];

	if (h->live > len)
		keep_save(h, len);
	if (len > s->cap) {
		s->cap = len > 2 * s->cap ? len : 2 * s->cap;
		s->st.cc = xreallocarray(s->st.cc, s->cap, sizeof(*s->st.cc));
	}
	/* Out of the list, if in it. */
	if (s->newer != NONE)
		h->kept[s->newer].older = s->older;
	else if (h->newest == k)
		h->newest = s->older;
	if (s->older != NONE)
		h->kept[s->older].newer = s->newer;
	s->st.len = s->live = h->live = len;
	s->newer = NONE;
	s->older = h->newest;
	if (h->newest != NONE)
		h->kept[h->newest].newer = k;
	h->newest = k;
}

/* The hot stack is the open path's first len levels. */
static void
hot_set(struct hot *h, size_t len)
{
	keep_set(h, 0, len);
	h->hashot = 1;
}

/* Whether a comes before b in the top list: larger, or earlier. */
static int
before(const struct ranked *a, const struct ranked *b)
{
	return a->v != b->v ? a->v > b->v : a->rank < b->rank;
}

/* Restore the heap property (the least at the top) down from i. */
static void
sift_down(struct hot *h, size_t i)
{
	struct ranked t;
	size_t l, least;

	for (;;) {
		least = i;
		l = 2 * i + 1;
		if (l < h->nheap && before(&h->heap[least], &h->heap[l]))
			least = l;
		if (l + 1 < h->nheap && before(&h->heap[least], &h->heap[l + 1]))
			least = l + 1;
		if (least == i)
			return;
		t = h->heap[i];
		h->heap[i] = h->heap[least];
		h->heap[least] = t;
		i = least;
	}
}

static void
sift_up(struct hot *h, size_t i)
{
	struct ranked t;

	while (i > 0 && before(&h->heap[(i - 1) / 2], &h->heap[i])) {
		t = h->heap[i];
		h->heap[i] = h->heap[(i - 1) / 2];
		h->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static int	m_enter(void *, struct pdb *, uint32_t, const int64_t *);
static int	m_exit(void *, struct pdb *);

/*
 * The format is known: stream a raw tree; stream a merged one from an
 * input that can be read again if need be; build a tree from a pipe.
 */
static int
h_begin(void *arg, struct pdb *db)
{
	struct hot *h = arg;
	const struct pdb_sink *bs;

	if ((h->m = tool_metric_needed(h->c, db, h->path)) < 0)
		return PDB_ESTOP;
	if (h->fmt == NULL)
		return pdb_seterr(db, PDB_EINVAL, "format unknown when the "
		    "reader began");
	if (h->fmt->build == PDB_BUILD_RAW)
		return 0;
	if (h->rereadable) {
		h->mode = M_MERGED;
		h->push = h->fmt->build == PDB_BUILD_PUSH;
		h->sink.enter = m_enter;
		h->sink.exit = m_exit;
		h->sink.nodes = NULL;
		return 0;
	}
	h->mode = M_BUILD;
	if ((h->b = pdb_builder_new(db, h->fmt->build)) == NULL)
		nomem();
	/* The rest of the events go straight to the builder. */
	bs = pdb_builder_sink(h->b);
	h->sink = *bs;
	return bs->begin != NULL ? bs->begin(bs->arg, db) : 0;
}

/*
 * Add a node's value of the metric shown to its sums, as the tree
 * builder does: the positive and the negative values apart, each of
 * which must stay within 64 bits.  Only that metric, as in ccs-flat: the
 * readers do not even decode the others (h_columns()).  Returns 0, or
 * the builder's error.
 */
static int
sums_add(struct hot *h, struct pdb *db, uint32_t cc, const int64_t *values)
{
	uint64_t *r = h->range;
	int64_t v = values[h->m];

	if (v >= 0 ? (r[0] += (uint64_t)v) <= INT64_MAX :
	    (r[1] += 0 - (uint64_t)v) - 1 <= (uint64_t)INT64_MAX)
		return 0;
	return pdb_seterr(db, PDB_EFORMAT, "64-bit overflow summing '%s' at "
	    "cost centre '%s'", pdb_metric(db, (unsigned)h->m)->name,
	    pdb_cc_fullname(db, cc));
}

/* The readers need decode only the metric shown. */
static uint64_t
h_columns(void *arg, const struct pdb *db)
{
	const struct hot *h = arg;

	(void)db;
	return h->m >= 0 && h->m < 64 ? (uint64_t)1 << h->m : UINT64_MAX;
}

/* A kept stack, in no list. */
static void
kept_init(struct kept *s)
{
	memset(&s->st, 0, sizeof(s->st));
	s->live = s->cap = 0;
	s->older = s->newer = NONE;
}

/* Put the open path, of own value v and rank, in the top list (kept
 * out of line: few nodes get there). */
static void	top_insert(struct hot *, int64_t, uint64_t)
		    __attribute__((noinline));

static void
top_insert(struct hot *h, int64_t v, uint64_t rank)
{
	struct ranked r;

	r.v = v;
	r.rank = rank;
	if (h->nheap < h->ntop) {
		if (h->nheap == h->capheap) {
			h->capheap = h->capheap < h->ntop / 2 ?
			    2 * h->capheap : h->ntop;
			h->heap = xreallocarray(h->heap, h->capheap,
			    sizeof(*h->heap));
			h->kept = xreallocarray(h->kept, h->capheap + 1,
			    sizeof(*h->kept));
		}
		/* Its stack: the next of the kept, new. */
		r.kept = h->nkept++;
		kept_init(&h->kept[r.kept]);
		keep_set(h, r.kept, h->depth);
		h->heap[h->nheap++] = r;
		sift_up(h, h->nheap - 1);
	} else if (before(&r, &h->heap[0])) {
		r.kept = h->heap[0].kept;
		keep_set(h, r.kept, h->depth);
		h->heap[0] = r;
		sift_down(h, 0);
	}
}

/* A level for cost centre cc, of own value v, without children yet. */
static inline void
level_init(struct level *l, uint32_t cc, int64_t v)
{
	l->cc = cc;
	/* Never read while bestinc is 0, but run() updates it with masks,
	 * which read it: defined, so that valgrind need not see why. */
	l->bestcc = 0;
	l->inc = v;
	l->bestinc = 0;
	l->best = NULL;
}

/* Room for need levels. */
static void
levels_reserve(struct hot *h, size_t need)
{
	size_t cap = h->cap ? h->cap : 256;

	if (need <= h->cap)
		return;
	while (cap < need)
		cap *= 2;
	h->lv = xreallocarray(h->lv, cap, sizeof(*h->lv));
	h->cap = cap;
}

/* Open a level for cost centre cc, of own value v. */
static inline struct level *
open_level(struct hot *h, uint32_t cc, int64_t v)
{
	struct level *l;

	if (h->depth == h->cap)
		levels_reserve(h, h->depth + 1);
	if (h->depth < h->live)
		keep_save(h, h->depth);
	l = &h->lv[h->depth++];
	level_init(l, cc, v);
	return l;
}

/* A node's own value v of the metric: the hot stack, the top list. */
static inline void
enter(struct hot *h, uint32_t cc, int64_t v)
{
	open_level(h, cc, v);
	if (!h->hashot || v > h->hotv) {
		hot_set(h, h->depth);
		h->hotv = v;
	}
	/* A later node beats the least of a full list only if larger. */
	if (h->ntop > 0 && v != 0 &&
	    (h->nheap < h->ntop || v > h->heap[0].v))
		top_insert(h, v, h->rank);
	h->rank++;
}

/* The arm of closing level l: the level, then its best child's arm.  The
 * level's reference to its best passes to the arm; a lone leaf goes into
 * the cell. */
static inline struct cell *
arm_of(struct hot *h, const struct level *l)
{
	struct cell *c = cell_new(h);

	c->cc = l->cc;
	c->inc = l->inc;
	c->next = l->best;
	c->tail = l->best != NULL ? l->best->tail : c;
	c->leafcc = l->bestcc;
	c->leafinc = l->best != NULL ? 0 : l->bestinc;
	return c;
}

/*
 * Level l closes under its parent p (leave() but for the root): its
 * inclusive value goes to p, and its arm becomes p's best so far if it
 * is better (bestinc is 0 while p has none, and an arm is positive).
 * Cells are made only for an arm longer than one level.
 */
static inline void
close_level(struct hot *h, struct level *l, struct level *p)
{
	p->inc = (int64_t)((uint64_t)p->inc + (uint64_t)l->inc);
	if (l->inc > p->bestinc) {
		cell_release(h, p->best);
		p->best = l->bestinc > 0 ? arm_of(h, l) : NULL;
		p->bestcc = l->cc;
		p->bestinc = l->inc;
	} else
		cell_release(h, l->best);
}

static inline void
leave(struct hot *h)
{
	struct level *l;

	l = &h->lv[--h->depth];
	if (h->depth > 0) {
		close_level(h, l, l - 1);
		return;
	}
	h->arm = arm_of(h, l);
	h->total = l->inc;
	h->rootdone = 1;
}

/*
 * The least own value that may change the hot stack (of value hotv: the
 * root, which the caller enters, made one) or the list of the costliest
 * stacks: below it a node changes neither, and run() tests it once.
 * Every node is a candidate while the list is not full, since it then
 * takes any nonzero value.
 */
static inline int64_t
rare_bar(const struct hot *h, int64_t hotv)
{
	int64_t m = hotv;

	if (h->nheap < h->ntop)
		return INT64_MIN;
	if (h->ntop > 0 && h->heap[0].v < m)
		m = h->heap[0].v;
	return m == INT64_MAX ? m : m + 1;
}

/*
 * enter() and leave() for the nodes of a batch, with the state of the
 * walk in locals: through h, every store to a level or a cell would make
 * the compiler read it all again.  From node start, stops at the end of
 * the batch, or before a node at depth 0 (the root, or one after it),
 * which the caller takes.  Returns the node it stopped at, and in *fit
 * whether the sums of those it took (sums_add()) fit: if not, the
 * caller finds the node and fails.
 */
static size_t
run(struct hot *h, const struct pdb_batch *b, size_t start, int *fit)
{
	const uint32_t *restrict ccs = b->cc;
	const size_t *restrict exits = b->exits;
	const int64_t *v = b->values + start * b->stride + h->m;
	struct level *lv, *l, *p;
	size_t depth = h->depth, live = h->live, n = b->n;
	size_t i, e, leaf, stride = b->stride;
	int64_t hotv = h->hotv, x, least, bar;
	uint64_t rank = h->rank, r0 = h->range[0], r1 = h->range[1], bad = 0;
	uint64_t wm;
	int hashot = h->hashot, full;

	*fit = 1;
	if (depth == 0)
		return start;
	/* A level for every node of the batch: the loop never grows them. */
	levels_reserve(h, depth + (n - start));
	lv = h->lv;
	bar = rare_bar(h, hotv);
	for (i = start; i < n; i++, v += stride) {
		x = *v;
		if (x >= 0)
			bad |= r0 += (uint64_t)x;
		else
			bad |= (r1 += 0 - (uint64_t)x) - 1;
		if (__builtin_expect(depth < live, 0)) {
			keep_save(h, depth);
			live = depth;
		}
		level_init(&lv[depth++], ccs[i], x);
		if (__builtin_expect(x >= bar, 0)) {
			if (!hashot || x > hotv) {
				hot_set(h, depth);
				hashot = 1;
				live = depth;
				hotv = x;
			}
			/* Into the list if nonzero and the list is not
			 * full, or above its least. */
			full = h->nheap >= h->ntop;
			least = h->ntop == 0 ? INT64_MAX : full ?
			    h->heap[0].v : 0;
			if (x != 0 && (!full || x > least)) {
				h->depth = depth;
				top_insert(h, x, rank);
				live = h->live;
			}
			bar = rare_bar(h, hotv);
		}
		rank++;
		e = exits[i];
		if (depth >= 2) {
			/*
			 * Close the node if it is a leaf, under masks: a
			 * leaf or not is no pattern a branch predictor
			 * learns.  Its arm is itself alone, and it has no
			 * children's arms to release.
			 */
			leaf = e != 0;
			l = &lv[depth - 1];
			p = l - 1;
			wm = 0 - (uint64_t)(leaf & (x > p->bestinc));
			p->inc = (int64_t)((uint64_t)p->inc +
			    ((uint64_t)x & (0 - (uint64_t)leaf)));
			if (__builtin_expect((p->best != NULL) & (wm != 0), 0)) {
				cell_release(h, p->best);
				p->best = NULL;
			}
			p->bestcc ^= (p->bestcc ^ l->cc) & (uint32_t)wm;
			p->bestinc = (int64_t)((uint64_t)p->bestinc ^
			    (((uint64_t)p->bestinc ^ (uint64_t)x) & wm));
			depth -= leaf;
			e -= leaf;
		}
		for (; e > 0; e--) {
			/*
			 * leave(), but for the root's, which is left to it;
			 * the caller takes whatever follows the root.
			 */
			if (depth == 1) {
				h->depth = depth;
				leave(h);
				depth = h->depth;
				i++;
				goto out;
			}
			l = &lv[--depth];
			close_level(h, l, l - 1);
		}
	}
out:
	h->depth = depth;
	h->hotv = hotv;
	h->hashot = hashot;
	h->live = live;
	h->rank = rank;
	h->range[0] = r0;
	h->range[1] = r1;
	*fit = (bad >> 63) == 0;
	return i;
}

static int
more_roots(struct pdb *db)
{
	return pdb_seterr(db, PDB_EFORMAT, "profile has more than one root");
}

static int
h_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *values)
{
	struct hot *h = arg;
	int rc;

	if (h->m < 0)
		return PDB_ESTOP;
	if (h->depth == 0 && h->rootdone)
		return more_roots(db);
	if (values != NULL && (rc = sums_add(h, db, cc, values)) != 0)
		return rc;
	enter(h, cc, values != NULL ? values[h->m] : 0);
	return 0;
}

static int
h_exit(void *arg, struct pdb *db)
{
	(void)db;
	leave(arg);
	return 0;
}

/*
 * Nodes in bulk from the readers of binary formats (pdb.h).  When the
 * sums of the batch do not fit, the nodes are taken one at a time, to
 * say which.
 */
static int
h_nodes(void *arg, struct pdb *db, const struct pdb_batch *b, size_t *done)
{
	struct hot *h = arg;
	uint64_t r0, r1;
	size_t i = 0, j, e;
	int rc, fit;

	*done = 0;
	if (h->m < 0)
		return PDB_ESTOP;
	while (i < b->n) {
		r0 = h->range[0];
		r1 = h->range[1];
		if ((j = run(h, b, i, &fit)) > i && !fit) {
			/* Find the first node whose value does not fit. */
			h->range[0] = r0;
			h->range[1] = r1;
			for (*done = i; *done < j; ++*done)
				if ((rc = sums_add(h, db, b->cc[*done],
				    b->values + *done * b->stride)) != 0)
					return rc;
		}
		if ((i = j) == b->n)
			break;
		/* The root, or a second root. */
		*done = i;
		if ((rc = h_enter(h, db, b->cc[i],
		    b->values + i * b->stride)) != 0)
			return rc;
		for (e = b->exits[i]; e > 0; e--)
			leave(h);
		i++;
	}
	return 0;
}

/*
 * Merged streams.  A node comes twice: stop, for the caller to read the
 * input into a tree.
 */
static int
again(struct hot *h)
{
	h->again = 1;
	return PDB_ESTOP;
}

/* Room for cost centre cc in head and onpath. */
static void
cc_grow(struct hot *h, uint32_t cc)
{
	size_t n = h->ncc ? h->ncc : 256, i;

	while (n <= cc)
		n *= 2;
	if ((h->head = realloc(h->head, n * sizeof(*h->head))) == NULL ||
	    (h->onpath = realloc(h->onpath, n)) == NULL)
		nomem();
	for (i = h->ncc; i < n; i++)
		h->head[i] = NONE;
	memset(h->onpath + h->ncc, 0, n - h->ncc);
	h->ncc = n;
}

static int
m_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *values)
{
	struct hot *h = arg;
	struct kid *k;
	struct mlevel *ml;
	struct level *t;
	int64_t v = values != NULL ? values[h->m] : 0;
	int rc, real = 1;

	if (values != NULL && (rc = sums_add(h, db, cc, values)) != 0)
		return rc;
	if (cc >= h->ncc)
		cc_grow(h, cc);
	if (h->edepth == h->ecap) {
		h->ecap = h->ecap ? h->ecap * 2 : 256;
		if ((h->real = realloc(h->real, h->ecap)) == NULL)
			nomem();
	}
	if (h->depth == 0 && h->rootdone)
		return again(h);
	if (h->depth > 0 && h->push && h->onpath[cc]) {
		/* Pushing the top onto itself gives the same stack. */
		t = &h->lv[h->depth - 1];
		if (t->cc != cc)
			return again(h);
		t->inc = (int64_t)((uint64_t)t->inc + (uint64_t)v);
		ml = &h->ml[h->depth - 1];
		ml->own = (int64_t)((uint64_t)ml->own + (uint64_t)v);
		real = 0;
	} else {
		if (h->depth > 0) {
			if (h->head[cc] != NONE &&
			    h->kid[h->head[cc]].parent == h->depth - 1)
				return again(h);
			if (h->nkid == h->kidcap) {
				h->kidcap = h->kidcap ? h->kidcap * 2 : 256;
				if ((h->kid = realloc(h->kid, h->kidcap *
				    sizeof(*h->kid))) == NULL)
					nomem();
			}
			k = &h->kid[h->nkid];
			k->prev = h->head[cc];
			k->parent = h->depth - 1;
			k->cc = cc;
			h->head[cc] = h->nkid++;
			if (h->push)
				h->onpath[cc] = 1;
		}
		open_level(h, cc, v);
		if (h->mlcap < h->cap) {
			h->mlcap = h->cap;
			if ((h->ml = realloc(h->ml, h->mlcap *
			    sizeof(*h->ml))) == NULL)
				nomem();
		}
		ml = &h->ml[h->depth - 1];
		ml->own = v;
		ml->rank = h->rank++;
		ml->kids = h->nkid;
	}
	h->real[h->edepth++] = (unsigned char)real;
	return 0;
}

/* A level of a merged stream closes: weigh it, forget its children. */
static int
m_exit(void *arg, struct pdb *db)
{
	struct hot *h = arg;
	struct mlevel *ml;
	struct kid *k;
	struct ranked r;

	if (h->edepth == 0)
		return pdb_seterr(db, PDB_EINVAL, "exit without enter");
	if (!h->real[--h->edepth])
		return 0;
	ml = &h->ml[h->depth - 1];
	r.v = ml->own;
	r.rank = ml->rank;
	if (!h->hashot || r.v > h->hotv || (r.v == h->hotv &&
	    r.rank < h->hotrank)) {
		hot_set(h, h->depth);
		h->hotv = r.v;
		h->hotrank = r.rank;
	}
	if (h->ntop > 0 && r.v != 0 && (h->nheap < h->ntop ||
	    before(&r, &h->heap[0])))
		top_insert(h, r.v, r.rank);
	while (h->nkid > ml->kids) {
		k = &h->kid[--h->nkid];
		h->head[k->cc] = k->prev;
	}
	if (h->push && h->depth > 1)
		h->onpath[h->lv[h->depth - 1].cc] = 0;
	leave(h);
	return 0;
}

static int
by_rank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return before(x, y) ? -1 : before(y, x);
}

/*
 * Whether path can be read a second time, and for standard input where
 * it starts: a regular file.
 */
static int
rereadable(const char *path, off_t *start)
{
	struct stat st;

	if (strcmp(path, "-") != 0)
		return stat(path, &st) == 0 && S_ISREG(st.st_mode);
	if (fstat(STDIN_FILENO, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	return (*start = lseek(STDIN_FILENO, 0, SEEK_CUR)) >= 0;
}

static void
hot_free(struct hot *h)
{
	struct slab *sl;
	size_t i;

	while ((sl = h->slab) != NULL) {
		h->slab = sl->prev;
		free(sl);
	}
	for (i = 0; i < h->nkept; i++)
		free(h->kept[i].st.cc);
	free(h->kept);
	free(h->heap);
	free(h->lv);
	free(h->ml);
	free(h->real);
	free(h->kid);
	free(h->head);
	free(h->onpath);
	pdb_builder_free(h->b);
}

enum how
hot_stream(struct tool_common *c, struct pdb *db, const char *path,
    size_t ntop, struct result *res)
{
	struct hot h;
	struct cell *k;
	off_t start = 0;
	size_t i;
	int rc;

	memset(&h, 0, sizeof(h));
	h.c = c;
	h.path = path;
	h.ntop = ntop;
	h.rereadable = rereadable(path, &start);
	/* -n may ask for more stacks than there are: room as they come. */
	h.capheap = ntop < 64 ? ntop + 1 : 64;
	h.heap = xreallocarray(NULL, h.capheap, sizeof(*h.heap));
	h.kept = xreallocarray(NULL, h.capheap + 1, sizeof(*h.kept));
	h.nkept = 1;
	kept_init(&h.kept[0]);
	h.newest = NONE;
	h.sink.begin = h_begin;
	h.sink.enter = h_enter;
	h.sink.exit = h_exit;
	h.sink.nodes = h_nodes;
	h.sink.columns = h_columns;
	h.sink.arg = &h;
	rc = pdb_read_stream(db, path, c->informat, &c->opts, &h.sink, &h.fmt);
	if (h.again) {
		hot_free(&h);
		if (strcmp(path, "-") == 0 &&
		    lseek(STDIN_FILENO, start, SEEK_SET) != start) {
			tool_warnx("<stdin>: %s", strerror(errno));
			exit(TOOL_ERR);
		}
		return AGAIN;
	}
	if (rc == PDB_ESTOP && h.m < 0)
		exit(TOOL_ERR);		/* tool_metric_needed() said why */
	if (rc != PDB_OK) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	if (h.mode == M_BUILD) {
		hot_free(&h);
		tool_no_stacks(db, 1, 0, path);
		return BUILT;
	}
	tool_no_stacks(db, 0, (uint64_t)h.hashot, path);
	keep_save(&h, 0);
	res->hot = h.kept[0].st;
	res->hot.v = h.hotv;
	h.kept[0].st.cc = NULL;
	res->total = h.total;
	/* The cells, then the leaf the last one holds. */
	for (res->narm = 0, k = h.arm; k != NULL; k = k->next)
		res->narm++;
	res->narm += h.arm != NULL && h.arm->tail->leafinc > 0;
	res->armcc = xmalloc(res->narm * sizeof(*res->armcc));
	res->arminc = xmalloc(res->narm * sizeof(*res->arminc));
	for (i = 0, k = h.arm; k != NULL; k = k->next, i++) {
		res->armcc[i] = k->cc;
		res->arminc[i] = k->inc;
	}
	if (i < res->narm) {
		res->armcc[i] = h.arm->tail->leafcc;
		res->arminc[i] = h.arm->tail->leafinc;
	}
	qsort(h.heap, h.nheap, sizeof(*h.heap), by_rank);
	res->ntop = h.nheap;
	res->top = xmalloc((h.nheap + 1) * sizeof(*res->top));
	for (i = 0; i < h.nheap; i++) {
		res->top[i] = h.kept[h.heap[i].kept].st;
		res->top[i].v = h.heap[i].v;
		h.kept[h.heap[i].kept].st.cc = NULL;
	}
	hot_free(&h);
	return STREAMED;
}
