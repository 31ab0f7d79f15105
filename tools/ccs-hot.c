/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-hot: where the cost is (Morgan & Jarvis section 3): the hot stack,
 * the expensive arm from the root, and the most expensive stacks.  On a
 * file whose tree is its stream (pgcl, dump, GHC) with nothing selected
 * or pruned, it streams, in memory that does not grow with the profile;
 * otherwise it builds the tree.
 */
#include <sys/stat.h>

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define ARM_INDENT	64	/* deepest indent of the expensive arm */

static const char usage[] =
    "ccs-hot [-m metric] [-n N] [--tsv] [-s pat]... [-d pat]... "
    "[-f format] [-o file] [file]";

static const char helptext[] =
    "Print the hot stack (largest own cost), the expensive arm (from the\n"
    "root, the child of largest inclusive cost each time) and, with -n, the\n"
    "N most expensive stacks.\n\n"
    "  -n, --top N            also list the N most expensive stacks\n"
    "      --tsv              tab-separated output\n"
    TOOL_PRUNE_HELP
    TOOL_COMMON_HELP;

/*
 * Write a name, escaped (tool_put_text()): on one line, without control
 * characters; in --tsv output backslashes are escaped too, and in stacks
 * ';' as folded files do, so every record stays one line and every frame
 * one field.
 */
static void
put_name(FILE *out, const char *s, int tsv, int in_stack)
{
	const char *semi;
	char *part;

	while (tsv && in_stack && (semi = strchr(s, ';')) != NULL) {
		if ((part = strndup(s, (size_t)(semi - s))) == NULL) {
			tool_warnx("out of memory");
			exit(TOOL_ERR);
		}
		tool_put_text(out, part, 1);
		fputs("\\;", out);
		free(part);
		s = semi + 1;
	}
	tool_put_text(out, s, tsv);
}

/* A stack, root first, and its own cost. */
struct stackv {
	uint32_t	*cc;
	size_t		 len;
	int64_t		 v;
};

/* What ccs-hot prints, however it was found. */
struct result {
	struct stackv	 hot;
	uint32_t	*armcc;		/* the expensive arm, root first */
	int64_t		*arminc;
	size_t		 narm;
	struct stackv	*top;		/* the costliest stacks */
	size_t		 ntop;
	int64_t		 total;
};

static _Noreturn void
nomem(void)
{
	tool_warnx("out of memory");
	exit(TOOL_ERR);
}

static void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n ? n : 1)) == NULL)
		nomem();
	return p;
}

/*
 * Print a stack, root first, separated by ';'.  A synthetic root is left
 * out, unless it is the whole stack.
 */
static void
put_path(FILE *out, const struct pdb *db, const struct stackv *st, int full,
    int tsv)
{
	size_t i;
	int first = 1;

	for (i = 0; i < st->len; i++) {
		if ((pdb_cc_flags(db, st->cc[i]) & PDB_CC_SYNTHETIC) &&
		    st->len > 1)
			continue;
		if (!first)
			putc(';', out);
		first = 0;
		put_name(out, full ? pdb_cc_fullname(db, st->cc[i]) :
		    pdb_cc_label(db, st->cc[i]), tsv, 1);
	}
}

/* The stack of node n of a tree, with its own value of m. */
static void
node_stack(const struct pdb *db, uint32_t n, unsigned m, struct stackv *st)
{
	uint32_t k;
	size_t d = 0;

	st->len = 0;
	for (k = n; k != PDB_NONE; k = pdb_node_parent(db, k))
		st->len++;
	st->cc = xmalloc(st->len * sizeof(*st->cc));
	for (k = n; k != PDB_NONE; k = pdb_node_parent(db, k))
		st->cc[st->len - ++d] = pdb_node_cc(db, k);
	st->v = pdb_node_values(db, n)[m];
}

/* From the tree: after a selection or pruning, or for formats whose
 * tree is built by merging stacks. */
static void
from_tree(const struct pdb *db, unsigned m, size_t ntop, struct result *res)
{
	uint32_t *arm, *top = NULL;
	int64_t *inc;
	size_t i, nm = pdb_metric_count(db);

	inc = pdb_inclusive_new(db);
	arm = malloc(((size_t)pdb_node_count(db) + 1) * sizeof(*arm));
	if (ntop > 0)
		top = malloc(ntop * sizeof(*top));
	if (inc == NULL || arm == NULL || (ntop > 0 && top == NULL))
		nomem();
	res->total = inc[m];
	node_stack(db, pdb_hot_stack(db, m), m, &res->hot);
	res->narm = pdb_expensive_arm(db, inc, m, arm,
	    (size_t)pdb_node_count(db) + 1);
	res->armcc = xmalloc(res->narm * sizeof(*res->armcc));
	res->arminc = xmalloc(res->narm * sizeof(*res->arminc));
	for (i = 0; i < res->narm; i++) {
		res->armcc[i] = pdb_node_cc(db, arm[i]);
		res->arminc[i] = inc[(size_t)arm[i] * nm + m];
	}
	res->ntop = ntop > 0 ? pdb_top_stacks(db, m, top, ntop) : 0;
	res->top = xmalloc((res->ntop + 1) * sizeof(*res->top));
	for (i = 0; i < res->ntop; i++)
		node_stack(db, top[i], m, &res->top[i]);
	free(inc);
	free(arm);
	free(top);
}

/*
 * Streaming, for a file whose tree is its stream (pgcl, dump, GHC): the
 * same answers in memory that does not grow with the profile.
 *
 *  - The hot stack: the first node of largest own cost.  While it is
 *    open its stack is the open path, copied only when it closes.
 *  - The expensive arm: at its exit a node's arm is the node and the arm
 *    of its child of largest inclusive cost (the first of equals), if
 *    that is positive.  Arms are shared lists, so an open node holds its
 *    best child's arm without copying it.
 *  - The costliest stacks: a heap of the n best, with their stacks.
 */
struct cell {
	uint32_t	 cc;
	uint32_t	 refs;
	int64_t		 inc;
	struct cell	*next;
};

struct level {
	uint32_t	 cc;
	int64_t		 inc;
	struct cell	*best;		/* the arm of the best child so far */
};

struct ranked {
	int64_t		 v;
	uint64_t	 rank;		/* pre-order */
	struct stackv	 st;
};

struct hot {
	struct pdb_sink	 sink;
	struct tool_common *c;
	int		 m;		/* -1: the metric was not found */
	struct level	*lv;
	size_t		 depth, cap;
	uint64_t	 rank;
	/* The hot stack: while pending, lv[0..hotdepth] is it. */
	int64_t		 hotv;
	int		 hashot, pending;
	size_t		 hotdepth;
	struct stackv	 hot;
	/* The arm of the root, at the end. */
	struct cell	*arm, *freecells;
	int64_t		 total;
	/* The heap of the costliest stacks: heap[0] the least of them. */
	struct ranked	*heap;
	size_t		 nheap, ntop;
};

static void
cell_release(struct hot *h, struct cell *c)
{
	struct cell *next;

	while (c != NULL && --c->refs == 0) {
		next = c->next;
		c->next = h->freecells;
		h->freecells = c;
		c = next;
	}
}

static struct cell *
cell_new(struct hot *h)
{
	struct cell *c;

	if ((c = h->freecells) != NULL)
		h->freecells = c->next;
	else
		c = xmalloc(sizeof(*c));
	return c;
}

static void
copy_path(const struct hot *h, size_t len, struct stackv *st)
{
	size_t i;

	st->cc = realloc(st->cc, (len ? len : 1) * sizeof(*st->cc));
	if (st->cc == NULL)
		nomem();
	for (i = 0; i < len; i++)
		st->cc[i] = h->lv[i].cc;
	st->len = len;
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

static int
h_begin(void *arg, struct pdb *db)
{
	struct hot *h = arg;

	if ((h->m = tool_metric(h->c, db)) < 0)
		return PDB_ESTOP;
	return 0;
}

/* Put the open path, of own value v, in the top list (kept out of
 * line: few nodes get there). */
static void	top_insert(struct hot *, int64_t) __attribute__((noinline));

static void
top_insert(struct hot *h, int64_t v)
{
	struct ranked r;

	r.v = v;
	r.rank = h->rank;
	if (h->nheap < h->ntop) {
		memset(&r.st, 0, sizeof(r.st));
		copy_path(h, h->depth, &r.st);
		h->heap[h->nheap++] = r;
		sift_up(h, h->nheap - 1);
	} else if (before(&r, &h->heap[0])) {
		r.st = h->heap[0].st;
		copy_path(h, h->depth, &r.st);
		h->heap[0] = r;
		sift_down(h, 0);
	}
}

/* A node's own value v of the metric: the hot stack, the top list. */
static inline void
enter(struct hot *h, uint32_t cc, int64_t v)
{
	struct level *l;

	if (h->depth == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 256;
		if ((h->lv = realloc(h->lv, h->cap * sizeof(*h->lv))) == NULL)
			nomem();
	}
	l = &h->lv[h->depth++];
	l->cc = cc;
	l->inc = v;
	l->best = NULL;
	if (!h->hashot || v > h->hotv) {
		h->hashot = h->pending = 1;
		h->hotv = v;
		h->hotdepth = h->depth - 1;
	}
	/* A later node beats the least of a full list only if larger. */
	if (h->ntop > 0 && v != 0 &&
	    (h->nheap < h->ntop || v > h->heap[0].v))
		top_insert(h, v);
	h->rank++;
}

/*
 * A node closes: its inclusive value goes to its parent, and its arm
 * (the node, then its best child's arm) becomes the parent's best so
 * far if it is better.  Only then is a cell made for it.
 */
static inline void
leave(struct hot *h)
{
	struct level *l, *p;
	struct cell *c;

	l = &h->lv[--h->depth];
	if (h->pending && h->depth == h->hotdepth) {
		copy_path(h, h->depth + 1, &h->hot);
		h->pending = 0;
	}
	p = h->depth > 0 ? l - 1 : NULL;
	if (p != NULL)
		p->inc = (int64_t)((uint64_t)p->inc + (uint64_t)l->inc);
	if (p == NULL || (l->inc > 0 && (p->best == NULL ||
	    l->inc > p->best->inc))) {
		c = cell_new(h);
		c->cc = l->cc;
		c->inc = l->inc;
		c->next = l->best;	/* the level's reference passes to c */
		c->refs = 1;
		if (p == NULL) {
			h->arm = c;
			h->total = l->inc;
			return;
		}
		cell_release(h, p->best);
		p->best = c;
	} else
		cell_release(h, l->best);
}

static int
h_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *values)
{
	struct hot *h = arg;

	(void)db;
	if (h->m < 0)
		return PDB_ESTOP;
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

/* Nodes in bulk from the readers of binary formats (pdb.h). */
static int
h_nodes(void *arg, struct pdb *db, const struct pdb_batch *b, size_t *done)
{
	struct hot *h = arg;
	const int64_t *v;
	size_t i, e;

	(void)db;
	*done = 0;
	if (h->m < 0)
		return PDB_ESTOP;
	for (i = 0, v = b->values + h->m; i < b->n; i++, v += b->stride) {
		enter(h, b->cc[i], *v);
		for (e = b->exits[i]; e > 0; e--)
			leave(h);
	}
	return 0;
}

static int
by_rank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return before(x, y) ? -1 : before(y, x);
}

static void
from_stream(struct tool_common *c, struct pdb *db, const char *path,
    size_t ntop, struct result *res)
{
	struct hot h;
	struct cell *k;
	size_t i;
	int rc;

	memset(&h, 0, sizeof(h));
	h.c = c;
	h.ntop = ntop;
	h.heap = xmalloc((ntop + 1) * sizeof(*h.heap));
	h.sink.begin = h_begin;
	h.sink.enter = h_enter;
	h.sink.exit = h_exit;
	h.sink.nodes = h_nodes;
	h.sink.arg = &h;
	rc = pdb_read_stream(db, path, c->informat, &c->opts, &h.sink, NULL);
	if (rc == PDB_ESTOP && h.m < 0)
		exit(TOOL_ERR);		/* tool_metric() said why */
	if (rc != PDB_OK) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	if (!h.hashot) {
		tool_warnx("%s: no stacks in profile", strcmp(path, "-") == 0 ?
		    "<stdin>" : path);
		exit(TOOL_ERR);
	}
	res->hot = h.hot;
	res->hot.v = h.hotv;
	res->total = h.total;
	for (res->narm = 0, k = h.arm; k != NULL; k = k->next)
		res->narm++;
	res->armcc = xmalloc(res->narm * sizeof(*res->armcc));
	res->arminc = xmalloc(res->narm * sizeof(*res->arminc));
	for (i = 0, k = h.arm; k != NULL; k = k->next, i++) {
		res->armcc[i] = k->cc;
		res->arminc[i] = k->inc;
	}
	qsort(h.heap, h.nheap, sizeof(*h.heap), by_rank);
	res->ntop = h.nheap;
	res->top = xmalloc((h.nheap + 1) * sizeof(*res->top));
	for (i = 0; i < h.nheap; i++) {
		res->top[i] = h.heap[i].st;
		res->top[i].v = h.heap[i].v;
	}
	cell_release(&h, h.arm);
	while ((k = h.freecells) != NULL) {
		h.freecells = k->next;
		free(k);
	}
	free(h.heap);
	free(h.lv);
}

/*
 * Whether path can be streamed: a file (not a pipe, which could be read
 * only once) in a format whose stream is the tree as built, with nothing
 * to select or prune.
 */
static int
can_stream(const struct tool_common *c, const char *path)
{
	const struct pdb_format *f = c->informat;
	struct pdb_input *in;
	struct stat st;
	struct pdb *db;
	long n;

	if (!pdb_sel_is_trivial(c->sel) || c->nmins > 0 || c->min_pct >= 0 ||
	    c->nexcludes > 0 || strcmp(path, "-") == 0 ||
	    stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	if (f == NULL) {
		if ((db = pdb_new()) == NULL)
			nomem();
		if ((in = pdb_in_open(db, path)) != NULL) {
			if ((n = pdb_in_fill(in, 4096)) > 0)
				f = pdb_format_probe(in->buf + in->pos,
				    (size_t)n);
			pdb_in_close(in);
		}
		pdb_free(db);
	}
	return f != NULL && f->build == PDB_BUILD_RAW;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		TOOL_PRUNE_LONGOPTS,
		{ "top", required_argument, NULL, 'n' },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	struct result res;
	struct pdb *db;
	const char *path;
	int64_t total, v;
	long long ntop = 0;
	size_t i, shown;
	char pct[32];
	int ch, rc, tsv = 0, m;
	FILE *out;

	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_SHORTOPTS "n:",
	    longopts, NULL)) != -1) {
		if (tool_common_option(&c, ch, optarg, usage, helptext))
			continue;
		switch (ch) {
		case 'n':
			ntop = tool_strtonum("-n", optarg, 0, INT_MAX);
			break;
		case OPT_TSV:
			tsv = 1;
			break;
		default:
			tool_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	path = tool_one_input(argc, argv, usage);

	memset(&res, 0, sizeof(res));
	if (can_stream(&c, path)) {
		db = tool_pdb_new();
		from_stream(&c, db, path, (size_t)ntop, &res);
		m = tool_metric(&c, db);
	} else {
		db = tool_load(&c, path, NULL);
		if ((m = tool_metric(&c, db)) < 0)
			return TOOL_ERR;
		from_tree(db, (unsigned)m, (size_t)ntop, &res);
	}
	total = res.total;
	if ((out = tool_output_open(&c, 0)) == NULL) {
		rc = TOOL_ERR;
		goto done;
	}

	v = res.hot.v;
	if (tsv) {
		fputs("stack\t", out);
		put_path(out, db, &res.hot, 0, 1);
		fprintf(out, "\t%" PRId64 "\n", v);
	} else {
		fprintf(out, "hot stack: %" PRId64 " ", v);
		tool_put_text(out, pdb_metric(db, (unsigned)m)->unit, 0);
		fprintf(out, ", %s%% of %" PRId64 "\n",
		    tool_fmt_pct(pct, sizeof(pct), v, total), total);
		fputs("  <", out);
		put_path(out, db, &res.hot, 1, 0);
		fputs(">\n\nexpensive arm (inclusive):\n", out);
	}
	for (i = 0, shown = 0; i < res.narm; i++) {
		uint32_t cc = res.armcc[i];

		if ((pdb_cc_flags(db, cc) & PDB_CC_SYNTHETIC) && res.narm > 1)
			continue;
		v = res.arminc[i];
		if (tsv) {
			fputs("arm\t", out);
			put_name(out, pdb_cc_label(db, cc), 1, 0);
			fprintf(out, "\t%" PRId64 "\n", v);
		} else {
			/* The indent stops growing: arms can be deep. */
			fprintf(out, "  %14" PRId64 " %6s%%  %*s", v,
			    tool_fmt_pct(pct, sizeof(pct), v, total),
			    (int)(shown < ARM_INDENT ? shown : ARM_INDENT), "");
			put_name(out, pdb_cc_fullname(db, cc), 0, 0);
			putc('\n', out);
		}
		shown++;
	}
	if (res.ntop > 0 && !tsv)
		fprintf(out, "\ntop %zu stacks (own cost):\n", res.ntop);
	for (i = 0; i < res.ntop; i++) {
		v = res.top[i].v;
		if (tsv)
			fprintf(out, "top\t%zu\t", i + 1);
		else
			fprintf(out, "  %3zu %14" PRId64 " %6s%%  ", i + 1, v,
			    tool_fmt_pct(pct, sizeof(pct), v, total));
		put_path(out, db, &res.top[i], !tsv, tsv);
		if (tsv)
			fprintf(out, "\t%" PRId64, v);
		putc('\n', out);
	}
	rc = tool_output_close(&c, out) == 0 ? TOOL_OK : TOOL_ERR;
done:
	free(res.hot.cc);
	for (i = 0; i < res.ntop; i++)
		free(res.top[i].cc);
	free(res.top);
	free(res.armcc);
	free(res.arminc);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
