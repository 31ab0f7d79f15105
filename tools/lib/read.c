/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Reading a profile: as a tree, projected through a selection as it is
 * read, pruned, or as events for a tool's own sink.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "xmalloc.h"

/*
 * Reading through a selecting builder (pdb_builder_select()), which
 * projects the events as they come when the format's tree is the file's
 * (PDB_BUILD_RAW): the tree as read never exists.  Like pdb_read_tree(),
 * give the builder the format's mode once it is known, which is when the
 * reader begins: pdb_read_stream() has set *used by then.
 */
struct loader {
	struct pdb_builder	*b;
	const struct pdb_format	*fmt;
	struct pdb_sink		 sink;
};

static int
load_begin(void *arg, struct pdb *db)
{
	struct loader *l = arg;
	const struct pdb_sink *bs = pdb_builder_sink(l->b);

	if (l->fmt == NULL)
		return pdb_seterr(db, PDB_EINVAL, "format unknown when the "
		    "reader began");
	pdb_builder_set_mode(l->b, l->fmt->build);
	/* The rest of the events go straight to the builder. */
	l->sink = *bs;
	return bs->begin != NULL ? bs->begin(bs->arg, db) : 0;
}

int
tool_read_projected(struct tool_common *c, struct pdb *db, const char *path,
    const struct pdb_sel *sel)
{
	struct loader l;
	int rc;

	memset(&l, 0, sizeof(l));
	if ((l.b = pdb_builder_new(db, PDB_BUILD_RAW)) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	pdb_builder_select(l.b, sel);
	l.fmt = c->informat;
	l.sink.begin = load_begin;
	l.sink.arg = &l;
	rc = pdb_read_stream(db, path, c->informat, &c->opts, &l.sink, &l.fmt);
	pdb_builder_free(l.b);
	if (rc == PDB_OK && pdb_node_count(db) == 0)
		rc = pdb_seterr(db, PDB_EFORMAT, "%s: no stacks in profile",
		    tool_input_name(path));
	return rc;
}

/* Whether pattern pat matches a cost centre of db. */
static int
matches_any(const struct pdb *db, const char *pat)
{
	uint32_t cc;

	for (cc = 0; cc < pdb_cc_count(db); cc++)
		if (pdb_cc_glob(db, cc, pat))
			return 1;
	return 0;
}

/* Whether pat has no glob metacharacter: it matches only itself. */
static int
is_literal(const char *pat)
{
	return strpbrk(pat, "*?[\\") == NULL;
}

/*
 * The names given as patterns, sorted and each once, with whether some
 * cost centre has it as its label or full name: each cost centre looks
 * its two names up, where matches_any() took two fnmatch() calls a cost
 * centre for each pattern, and 4,000 names on 100,000 cost centres took
 * seconds.
 */
struct names {
	const char	**name;
	unsigned char	 *hit;
	size_t		  n;
};

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The index of s in x, or x->n. */
static size_t
names_find(const struct names *x, const char *s)
{
	const char **p = x->n > 0 ? bsearch(&s, x->name, x->n,
	    sizeof(*x->name), cmp_name) : NULL;

	return p != NULL ? (size_t)(p - x->name) : x->n;
}

static void
names_add(struct names *x, const char *pat)
{
	if (is_literal(pat))
		x->name[x->n++] = pat;
}

/* The literal patterns of c, marked where a cost centre of db has one. */
static void
names_make(struct names *x, const struct tool_common *c,
    const struct pdb *db)
{
	size_t i, k;
	uint32_t cc;

	x->name = xreallocarray(NULL, c->npats + c->nexcludes + 1,
	    sizeof(*x->name));
	x->n = 0;
	for (i = 0; i < c->npats; i++)
		names_add(x, c->pats[i].pat);
	for (i = 0; i < c->nexcludes; i++)
		names_add(x, c->excludes[i]);
	qsort(x->name, x->n, sizeof(*x->name), cmp_name);
	for (i = k = 0; i < x->n; i++)
		if (k == 0 || strcmp(x->name[k - 1], x->name[i]) != 0)
			x->name[k++] = x->name[i];
	x->n = k;
	x->hit = xreallocarray(NULL, x->n + 1, 1);
	memset(x->hit, 0, x->n + 1);
	for (cc = 0; x->n > 0 && cc < pdb_cc_count(db); cc++) {
		x->hit[names_find(x, pdb_cc_label(db, cc))] = 1;
		x->hit[names_find(x, pdb_cc_fullname(db, cc))] = 1;
	}
}

/* Whether pat matches a cost centre of db: a name looked up in x. */
static int
pattern_matches(const struct names *x, const struct pdb *db,
    const char *pat)
{
	return is_literal(pat) ? x->hit[names_find(x, pat)] :
	    matches_any(db, pat);
}

/* Whether pat, taken as text, is the label or the full name of a cost
 * centre of db. */
static int
names_one(const struct pdb *db, const char *pat)
{
	uint32_t cc;

	for (cc = 0; cc < pdb_cc_count(db); cc++)
		if (strcmp(pdb_cc_label(db, cc), pat) == 0 ||
		    strcmp(pdb_cc_fullname(db, cc), pat) == 0)
			return 1;
	return 0;
}

/*
 * A pattern that matches nothing.  When it is a name as it stands, such
 * as "render[it]", whose brackets a glob takes for a class, say how to
 * write the name: its *, ?, [ and \ escaped.
 */
static void
say_unmatched(const struct pdb *db, const char *path, const char *opt,
    const char *pat)
{
	char *lit;
	size_t i, n = 0;

	if (is_literal(pat) || !names_one(db, pat)) {
		tool_warnx("warning: %s: no cost centre matches %s '%s'",
		    tool_input_name(path), opt, pat);
		return;
	}
	lit = xmalloc(2 * strlen(pat) + 1);
	for (i = 0; pat[i] != '\0'; i++) {
		if (strchr("*?[\\", pat[i]) != NULL)
			lit[n++] = '\\';
		lit[n++] = pat[i];
	}
	lit[n] = '\0';
	tool_warnx("warning: %s: no cost centre matches %s '%s', a glob; "
	    "to match the cost centre of that name, write '%s'",
	    tool_input_name(path), opt, pat, lit);
	free(lit);
}

/* A typo, or another profiler's names, would change nothing silently. */
void
tool_unmatched(const struct tool_common *c, const struct pdb *db,
    const char *path)
{
	struct names x;
	size_t i;

	names_make(&x, c, db);
	for (i = 0; i < c->npats; i++)
		if (!pattern_matches(&x, db, c->pats[i].pat))
			say_unmatched(db, path, c->pats[i].opt,
			    c->pats[i].pat);
	for (i = 0; i < c->nexcludes; i++)
		if (!pattern_matches(&x, db, c->excludes[i]))
			say_unmatched(db, path, "--exclude", c->excludes[i]);
	free(x.name);
	free(x.hit);
}

int
tool_streams(const struct tool_common *c)
{
	return pdb_sel_is_trivial(c->sel) && c->nmins == 0 &&
	    c->min_pct < 0 && c->nexcludes == 0 && c->max_stacks == 0;
}

/* tool_read_events(): the reader's sink until the format is known. */
struct events {
	struct tool_common	*c;
	const char		*path;
	const struct pdb_format	*fmt;
	const struct pdb_sink	*to;
	int			(*check)(struct tool_common *,
				    const struct pdb *, const char *);
	struct pdb_builder	*b;	/* a tree to build first */
	struct pdb_sink		 sink;	/* what the reader calls */
	int			 refused;
};

static int
events_begin(void *arg, struct pdb *db)
{
	struct events *e = arg;
	const struct pdb_sink *next = e->to;

	if (e->check != NULL && !e->check(e->c, db, e->path)) {
		e->refused = 1;
		return PDB_ESTOP;
	}
	if (e->fmt == NULL)
		return pdb_seterr(db, PDB_EINVAL, "format unknown when the "
		    "reader began");
	if (e->fmt->build != PDB_BUILD_RAW) {
		if ((e->b = pdb_builder_new(db, e->fmt->build)) == NULL)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		next = pdb_builder_sink(e->b);
	}
	/* The rest of the events go straight to next. */
	e->sink = *next;
	return next->begin != NULL ? next->begin(next->arg, db) : 0;
}

int
tool_read_events(struct tool_common *c, struct pdb *db, const char *path,
    const struct pdb_sink *sink, int (*check)(struct tool_common *,
    const struct pdb *, const char *))
{
	struct events e;
	int built, rc;

	memset(&e, 0, sizeof(e));
	e.c = c;
	e.path = path;
	e.to = sink;
	e.check = check;
	e.sink.begin = events_begin;
	e.sink.arg = &e;
	rc = pdb_read_stream(db, path, c->informat, &c->opts, &e.sink, &e.fmt);
	built = e.b != NULL;
	if (built) {
		pdb_builder_free(e.b);
		if (rc == PDB_OK && pdb_node_count(db) > 0)
			rc = pdb_replay(db, sink);
	}
	if (e.refused || rc == PDB_ESTOP)
		exit(TOOL_ERR);
	if (rc != PDB_OK) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	return built;
}

void
tool_no_stacks(const struct pdb *db, int built, uint64_t nodes,
    const char *path)
{
	if ((built ? pdb_node_count(db) : nodes) > 0)
		return;
	tool_warnx("%s: no stacks in profile", tool_input_name(path));
	exit(TOOL_ERR);
}

/* The total of metric m: the root's inclusive value. */
static int64_t
total(const struct pdb *db, unsigned m)
{
	uint64_t t = 0;
	uint32_t n;

	for (n = 0; n < pdb_node_count(db); n++)
		t += (uint64_t)pdb_node_value(db, n, m);
	return (int64_t)t;
}

/*
 * The least threshold on metric m that leaves at most max of db's nodes,
 * which are more than max (max >= 1).  Pruning keeps a node when it and
 * every node between it and the root reach the threshold, that is when
 * the least inclusive value on its path does (with negative values a
 * node may cost more than its caller, and goes with it all the same).
 * The root always stays, so the threshold is one above the max-th
 * largest of those least values of the others, found a 16-bit digit at
 * a time (a radix select), without sorting or copying the values.
 * Values of INT64_MAX cannot be cut: then it keeps them all.
 */
static int64_t
max_stacks_threshold(const struct pdb *db, unsigned m, uint32_t max)
{
	int64_t *inc;
	uint64_t key, prefix = 0, mask = 0, above = 0, rank, *hist;
	uint32_t n, nn = pdb_node_count(db), root = pdb_walk_first(db, NULL);
	unsigned shift;
	size_t d;

	if ((inc = pdb_inclusive_of(db, m)) == NULL)
		nomem();
	/* Each node's least value on its path: a parent is numbered
	 * before its children, and has its own by then. */
	for (n = 0; n < nn; n++) {
		uint32_t p = pdb_node_parent(db, n);

		if (p != PDB_NONE && p != root && inc[p] < inc[n])
			inc[n] = inc[p];
	}
	hist = xcalloc((size_t)1 << 16, sizeof(*hist));
	/* Keys in the order of the values; of those that begin with
	 * prefix, the one ranked rank - above, the largest first. */
	rank = max;
	for (shift = 48;; shift -= 16) {
		memset(hist, 0, ((size_t)1 << 16) * sizeof(*hist));
		for (n = 0; n < nn; n++) {
			key = (uint64_t)inc[n] ^ (UINT64_C(1) << 63);
			if ((key & mask) == prefix && n != root)
				hist[key >> shift & 0xffff]++;
		}
		for (d = 0xffff; above + hist[d] < rank; d--)
			above += hist[d];
		prefix |= (uint64_t)d << shift;
		mask |= (uint64_t)0xffff << shift;
		if (shift == 0)
			break;
	}
	free(hist);
	free(inc);
	if (prefix != UINT64_MAX)
		prefix++;
	return (int64_t)(prefix ^ (UINT64_C(1) << 63));
}

/* Add the second report of pruning to the first. */
static void
report_add(struct pdb_prune_report *to, struct pdb_prune_report *more,
    unsigned nm)
{
	unsigned m;

	if (to->folded == NULL) {
		more->nodes_removed += to->nodes_removed;
		*to = *more;
		return;
	}
	to->nodes_removed += more->nodes_removed;
	for (m = 0; m < nm && more->folded != NULL; m++) {
		to->folded[m] += more->folded[m];
		to->dropped[m] += more->dropped[m];
	}
	pdb_prune_report_free(more);
}

/*
 * --max-stacks: prune further by the metric shown (-m, else the
 * default), to the least threshold that leaves at most max stacks.
 */
static void
prune_to_max(struct tool_common *c, struct pdb *db,
    struct pdb_prune_report *rep)
{
	struct pdb_prune_report more;
	struct pdb_threshold th;
	uint32_t from;
	int m;

	if (c->max_stacks == 0 || pdb_node_count(db) <= c->max_stacks)
		return;
	if ((m = tool_metric(c, db)) < 0) {
		if (c->metric == NULL)
			tool_warnx("warning: --max-stacks: the profile has no "
			    "metrics to rank its stacks by; all are kept");
		return;
	}
	from = pdb_node_count(db);
	th.metric = (unsigned)m;
	th.min = max_stacks_threshold(db, (unsigned)m, (uint32_t)c->max_stacks);
	memset(&more, 0, sizeof(more));
	if (pdb_prune(db, &th, 1, NULL, 0, rep != NULL ? &more : NULL) !=
	    PDB_OK) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	if (rep != NULL)
		report_add(rep, &more, pdb_metric_count(db));
	/* Only a cut is told of. */
	if (pdb_node_count(db) < from) {
		c->max_stacks_from = from;
		c->max_stacks_min = th.min;
		c->max_stacks_metric = m;
	}
}

struct pdb *
tool_load(struct tool_common *c, const char *path,
    struct pdb_prune_report *rep)
{
	struct pdb_threshold *th;
	struct pdb *db = tool_pdb_new();
	size_t i, nth = 0;
	int m, rc;

	if (rep != NULL)
		memset(rep, 0, sizeof(*rep));
	rc = pdb_sel_is_trivial(c->sel) ? pdb_read_tree(db, path, c->informat,
	    &c->opts, NULL) : tool_read_projected(c, db, path, c->sel);
	if (rc != PDB_OK) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	if (c->metric != NULL && tool_metric(c, db) < 0)
		exit(TOOL_ERR);
	tool_unmatched(c, db, path);
	if (c->nmins == 0 && c->min_pct < 0 && c->nexcludes == 0) {
		prune_to_max(c, db, rep);
		return db;
	}
	th = xcalloc(c->nmins + 1, sizeof(*th));
	for (i = 0; i < c->nmins; i++) {
		if ((m = pdb_metric_find(db, c->mins[i].metric)) < 0) {
			tool_warnx("no metric '%s' in this profile to prune by",
			    c->mins[i].metric);
			exit(TOOL_ERR);
		}
		th[nth].metric = (unsigned)m;
		th[nth++].min = c->mins[i].min;
	}
	if (c->min_pct >= 0 && (m = tool_metric(c, db)) >= 0) {
		th[nth].metric = (unsigned)m;
		/* Round up: a stack must reach P% to stay. */
		th[nth++].min = tool_pct_ceil(&c->pct, total(db, (unsigned)m));
	}
	if (pdb_prune(db, th, nth, c->excludes, c->nexcludes, rep) != PDB_OK) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	free(th);
	prune_to_max(c, db, rep);
	return db;
}
