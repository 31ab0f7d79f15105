/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * What the fuzz harnesses share: bytes to a path, reading a profile every
 * way a tool does, and the downstream work (projection, pruning, the
 * analyses, every writer) with the invariants that must hold whatever the
 * input.  A broken invariant aborts, which libFuzzer reports as a crash
 * and Criterion as a signal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fmt_callgrind.h"
#include "fmt_dot.h"
#include "formats_int.h"
#include "fuzzutil.h"
#include "pdb.h"

#define PROBE_BYTES	4096

/* A sink that stops the reader at its n-th event with code rc. */
struct stopper {
	uint64_t	 events, at;
	int		 rc, stopped;
};

static int	 st_event(struct stopper *);
static int	 st_begin(void *, struct pdb *);
static int	 st_enter(void *, struct pdb *, uint32_t, const int64_t *);
static int	 st_exit(void *, struct pdb *);
static int	 st_end(void *, struct pdb *);
static uint64_t	 next(uint64_t *);
static void	 check_rc(struct pdb *, int, const char *);
static void	 check_tree(struct pdb *);
static void	 ignore_warning(void *, const char *);
static char	*write_mem(struct pdb *, const struct pdb_format *,
		    const struct pdb_opts *, size_t *, int *);
static void	 lossless(struct pdb *, const char *);
static void	 write_all(struct pdb *, uint64_t *);
static const char *pattern(struct pdb *, uint64_t *, char *, size_t);
static struct pdb_sel *make_sel(struct pdb *, uint64_t *);
static void	 check_projection(struct pdb *, struct pdb *,
		    const struct pdb_sel *);
static struct pdb *prune(struct pdb *, uint64_t *);

void
fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: invariant broken: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

const char *
fuzz_path(int slot, const uint8_t *data, size_t size)
{
	static int fds[2] = { -1, -1 };
	static char paths[2][32];
	ssize_t n;
	size_t off;

	if (fds[slot] < 0) {
		if ((fds[slot] = memfd_create("fuzz", MFD_CLOEXEC)) < 0)
			fuzz_fail("memfd_create: %s", strerror(errno));
		snprintf(paths[slot], sizeof(paths[slot]), "/proc/self/fd/%d",
		    fds[slot]);
	}
	if (ftruncate(fds[slot], 0) != 0)
		fuzz_fail("ftruncate: %s", strerror(errno));
	for (off = 0; off < size; off += (size_t)n)
		if ((n = pwrite(fds[slot], data + off, size - off,
		    (off_t)off)) <= 0)
			fuzz_fail("pwrite: %s", strerror(errno));
	return paths[slot];
}

static void
ignore_warning(void *arg, const char *msg)
{
	size_t *total = arg;

	/* Touch every byte, so that a bad message shows under ASan. */
	*total += strlen(msg);
	if (strchr(msg, '\n') != NULL || strchr(msg, '\033') != NULL)
		fuzz_fail("warning not on one line: %s", msg);
}

struct pdb *
fuzz_db(void)
{
	static size_t warned;
	struct pdb *db;

	if ((db = pdb_new()) == NULL)
		fuzz_fail("pdb_new: out of memory");
	pdb_set_warn_handler(db, ignore_warning, &warned);
	return db;
}

uint64_t
fuzz_hash(const uint8_t *data, size_t size)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < size; i++)
		h = (h ^ data[i]) * 0x100000001b3ull;
	return h;
}

/* splitmix64 */
static uint64_t
next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A failed call must say why, in one line. */
static void
check_rc(struct pdb *db, int rc, const char *what)
{
	const char *msg;

	if (rc == PDB_OK || rc == PDB_ESTOP)
		return;
	if (rc > 0 || rc < PDB_ESTOP)
		fuzz_fail("%s returned %d", what, rc);
	msg = pdb_errmsg(db);
	if (msg == NULL || *msg == '\0')
		fuzz_fail("%s failed (%d) without a message", what, rc);
	if (strchr(msg, '\n') != NULL || strchr(msg, '\033') != NULL)
		fuzz_fail("%s: message not on one line: %s", what, msg);
}

/* The tree is well formed: the walk sees every node once, every cost
 * centre and parent index is in range. */
static void
check_tree(struct pdb *db)
{
	uint32_t n, seen = 0, count = pdb_node_count(db);
	uint32_t ncc = pdb_cc_count(db), depth = 0, p;
	struct pdb_cc cc;

	for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth)) {
		if (n >= count || ++seen > count)
			fuzz_fail("walk: node %u of %u", n, count);
		if (pdb_node_cc(db, n) >= ncc)
			fuzz_fail("node %u: cost centre %u of %u", n,
			    pdb_node_cc(db, n), ncc);
		p = pdb_node_parent(db, n);
		if ((n == 0) != (p == PDB_NONE) || (p != PDB_NONE && p >= count))
			fuzz_fail("node %u: parent %u", n, p);
		if (pdb_node_depth(db, n) != depth)
			fuzz_fail("node %u: depth %u, walk says %u", n,
			    pdb_node_depth(db, n), depth);
	}
	if (seen != count)
		fuzz_fail("walk saw %u nodes of %u", seen, count);
	for (n = 0; n < ncc; n++) {
		pdb_cc(db, n, &cc);
		if (cc.label == NULL || cc.module == NULL || cc.src == NULL ||
		    cc.module_index >= pdb_module_count(db))
			fuzz_fail("cost centre %u is malformed", n);
		(void)strlen(pdb_cc_fullname(db, n));
	}
}

static int
st_event(struct stopper *s)
{
	if (s->stopped)
		fuzz_fail("an event came after the sink stopped the reader");
	if (s->events++ == s->at) {
		s->stopped = 1;
		return s->rc;
	}
	return 0;
}

static int
st_begin(void *arg, struct pdb *db)
{
	(void)db;
	return st_event(arg);
}

static int
st_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *v)
{
	(void)v;
	if (cc >= pdb_cc_count(db))
		fuzz_fail("enter: cost centre %u of %u", cc, pdb_cc_count(db));
	return st_event(arg);
}

static int
st_exit(void *arg, struct pdb *db)
{
	(void)db;
	return st_event(arg);
}

static int
st_end(void *arg, struct pdb *db)
{
	(void)db;
	return st_event(arg);
}

void
fuzz_read(const struct pdb_format *fmt, const uint8_t *data, size_t size,
    unsigned flags, struct pdb **tree)
{
	struct pdb_opts opts;
	struct pdb_sink sink;
	struct stopper st;
	struct pdb_flat *flat;
	struct pdb *db, *sdb;
	const char *path;
	int64_t *inc;
	uint64_t seed = fuzz_hash(data, size);
	unsigned m;
	int rc, src;

	if (tree != NULL)
		*tree = NULL;
	memset(&opts, 0, sizeof(opts));
	opts.flags = flags;
	if (fmt != NULL && fmt->probe != NULL)
		(void)fmt->probe(data, size < PROBE_BYTES ? size : PROBE_BYTES);
	path = fuzz_path(0, data, size);

	/* As a tree, as most tools read. */
	db = fuzz_db();
	rc = pdb_read_tree(db, path, fmt, &opts, NULL);
	check_rc(db, rc, "pdb_read_tree");
	if (rc == PDB_OK)
		check_tree(db);

	/* Streamed to the flat analysis, as ccs-flat reads. */
	sdb = fuzz_db();
	if ((flat = pdb_flat_new(NULL)) == NULL)
		fuzz_fail("pdb_flat_new: out of memory");
	src = pdb_read_stream(sdb, path, fmt, &opts, pdb_flat_sink(flat), NULL);
	check_rc(sdb, src, "pdb_read_stream");
	if (rc == PDB_OK && src != PDB_OK)
		fuzz_fail("read as a tree but not as a stream: %s",
		    pdb_errmsg(sdb));
	if (rc == PDB_OK) {
		/* What the stream carried is what the tree holds. */
		if ((inc = pdb_inclusive_new(db)) == NULL)
			fuzz_fail("pdb_inclusive_new: out of memory");
		if (pdb_metric_count(db) != pdb_metric_count(sdb))
			fuzz_fail("tree and stream differ in metrics");
		for (m = 0; m < pdb_metric_count(db); m++)
			if (inc[m] != pdb_flat_total(flat, m))
				fuzz_fail("metric %u: tree total %lld, stream "
				    "total %lld", m, (long long)inc[m],
				    (long long)pdb_flat_total(flat, m));
		free(inc);
	}
	pdb_free(sdb);

	/* Stopped by the sink at some event: the reader returns its code. */
	if (src == PDB_OK) {
		memset(&st, 0, sizeof(st));
		memset(&sink, 0, sizeof(sink));
		st.at = seed % (2 * pdb_flat_nodes(flat) + 2);
		st.rc = seed & 0x100 ? PDB_ESTOP : PDB_EIO;
		sink.begin = st_begin;
		sink.enter = st_enter;
		sink.exit = st_exit;
		sink.end = st_end;
		sink.arg = &st;
		sdb = fuzz_db();
		src = pdb_read_stream(sdb, path, fmt, &opts, &sink, NULL);
		if (st.stopped && src != st.rc)
			fuzz_fail("the sink stopped the reader with %d at event "
			    "%llu, the reader returned %d", st.rc,
			    (unsigned long long)st.at, src);
		if (!st.stopped && src != PDB_OK)
			fuzz_fail("read once, failed the second time: %s",
			    pdb_errmsg(sdb));
		pdb_free(sdb);
	}
	pdb_flat_free(flat);

	if (tree != NULL && rc == PDB_OK)
		*tree = db;
	else
		pdb_free(db);
}

/* Write db in fmt to memory; *rc gets pdb_write()'s code. */
static char *
write_mem(struct pdb *db, const struct pdb_format *fmt,
    const struct pdb_opts *opts, size_t *len, int *rc)
{
	char *buf = NULL;
	FILE *f;

	if ((f = open_memstream(&buf, len)) == NULL)
		fuzz_fail("open_memstream: %s", strerror(errno));
	*rc = pdb_write(db, f, fmt, opts);
	check_rc(db, *rc, fmt->name);
	if (fclose(f) != 0)
		fuzz_fail("fclose: %s", strerror(errno));
	return buf;
}

/* Written, read back and written again: the same bytes. */
static void
lossless(struct pdb *db, const char *name)
{
	const struct pdb_format *fmt = pdb_format_find(name);
	struct pdb_opts opts;
	struct pdb *back;
	char *a, *b;
	size_t alen, blen;
	int rc;

	memset(&opts, 0, sizeof(opts));
	a = write_mem(db, fmt, &opts, &alen, &rc);
	if (rc != PDB_OK)
		fuzz_fail("%s: cannot write what was read: %s", name,
		    pdb_errmsg(db));
	back = fuzz_db();
	if (pdb_read_tree(back, fuzz_path(1, (const uint8_t *)a, alen), fmt,
	    &opts, NULL) != PDB_OK)
		fuzz_fail("%s: cannot read what was written: %s", name,
		    pdb_errmsg(back));
	if (pdb_node_count(back) != pdb_node_count(db) ||
	    pdb_cc_count(back) != pdb_cc_count(db))
		fuzz_fail("%s: read back %u nodes and %u cost centres, "
		    "wrote %u and %u", name, pdb_node_count(back),
		    pdb_cc_count(back), pdb_node_count(db), pdb_cc_count(db));
	b = write_mem(back, fmt, &opts, &blen, &rc);
	if (rc != PDB_OK)
		fuzz_fail("%s: cannot write what was read back: %s", name,
		    pdb_errmsg(back));
	if (alen != blen || memcmp(a, b, alen) != 0)
		fuzz_fail("%s: written, read and written again: %zu bytes, "
		    "then %zu, differing", name, alen, blen);
	pdb_free(back);
	free(a);
	free(b);
}

/* Every writable format, with options drawn from rng. */
static void
write_all(struct pdb *db, uint64_t *rng)
{
	const struct pdb_format *f;
	struct pdb_callgrind_opts co;
	struct pdb_dot_opts dopt = PDB_DOT_OPTS_DEFAULT;
	struct pdb_opts opts;
	const char *focus[1];
	char pat[256];
	size_t len, i;
	char *buf;
	int rc;

	for (i = 0; (f = pdb_format_next(&i)) != NULL;) {
		if (f->write == NULL)
			continue;
		memset(&opts, 0, sizeof(opts));
		opts.flags = (unsigned)(next(rng) & (PDB_OPT_ALL | PDB_OPT_SORT));
		opts.pgcl_version = (int)(next(rng) % 3);
		if (pdb_metric_count(db) > 0 && next(rng) % 2)
			opts.metric = pdb_metric(db, (unsigned)(next(rng) %
			    pdb_metric_count(db)))->name;
		opts.command = "fuzz";
		if (f == &pdb_fmt_callgrind) {
			co.context = (unsigned)(next(rng) % 4);
			opts.writer_opts = &co;
		} else if (f == &pdb_fmt_dot) {
			/* DOT text only: a layout costs seconds. */
			dopt.flags = (unsigned)(next(rng) & 0x0f);
			dopt.node_thres = (double)(next(rng) % 3);
			dopt.edge_thres = (double)(next(rng) % 3) / 2;
			dopt.nodecount = (size_t)(next(rng) % 100);
			dopt.top = (size_t)(next(rng) % 4);
			dopt.nfocus = 0;
			if (next(rng) % 4 == 0) {
				focus[0] = pattern(db, rng, pat, sizeof(pat));
				dopt.focus = focus;
				dopt.nfocus = 1;
			}
			opts.writer_opts = &dopt;
		}
		buf = write_mem(db, f, &opts, &len, &rc);
		free(buf);
	}
}

/* A glob pattern that matches some cost centre of db, or a wild one. */
static const char *
pattern(struct pdb *db, uint64_t *rng, char *buf, size_t size)
{
	uint32_t ncc = pdb_cc_count(db), cc;
	const char *label;

	if (ncc == 0)
		return "*";
	cc = (uint32_t)(next(rng) % ncc);
	label = pdb_cc_label(db, cc);
	switch (next(rng) % 5) {
	case 0:
		snprintf(buf, size, "%s", label);
		break;
	case 1:
		snprintf(buf, size, "%s", pdb_cc_fullname(db, cc));
		break;
	case 2:
		snprintf(buf, size, "%.*s*", (int)(strlen(label) / 2), label);
		break;
	case 3:
		snprintf(buf, size, "%s.*", pdb_cc_module(db, cc));
		break;
	default:
		snprintf(buf, size, "*%s", label + strlen(label) / 2);
		break;
	}
	return buf;
}

static struct pdb_sel *
make_sel(struct pdb *db, uint64_t *rng)
{
	struct pdb_sel *sel;
	char pat[256];
	int i, n;

	if ((sel = pdb_sel_new()) == NULL)
		fuzz_fail("pdb_sel_new: out of memory");
	n = (int)(next(rng) % 4);
	for (i = 0; i < n; i++)
		if (pdb_sel_add(sel, next(rng) % 4 == 0,
		    pattern(db, rng, pat, sizeof(pat))) != PDB_OK)
			fuzz_fail("pdb_sel_add: out of memory");
	return sel;
}

/*
 * DESIGN.md: flat and inherited of the projection equal flat and
 * inherited with SELECTED on the original, and totals are conserved.
 */
static void
check_projection(struct pdb *db, struct pdb *proj, const struct pdb_sel *sel)
{
	struct pdb_flat *a, *b;
	uint32_t cc, ncc = pdb_cc_count(db);
	unsigned m, nm = pdb_metric_count(db);

	if (pdb_cc_count(proj) < ncc || pdb_metric_count(proj) != nm)
		fuzz_fail("projection lost cost centres or metrics");
	if ((a = pdb_flat_new(sel)) == NULL || (b = pdb_flat_new(NULL)) == NULL)
		fuzz_fail("pdb_flat_new: out of memory");
	if (pdb_replay(db, pdb_flat_sink(a)) != PDB_OK ||
	    pdb_replay(proj, pdb_flat_sink(b)) != PDB_OK)
		fuzz_fail("pdb_replay failed");
	for (m = 0; m < nm; m++)
		if (pdb_flat_total(a, m) != pdb_flat_total(b, m))
			fuzz_fail("metric %u: total %lld, projected %lld", m,
			    (long long)pdb_flat_total(a, m),
			    (long long)pdb_flat_total(b, m));
	for (cc = 0; cc < ncc; cc++) {
		if (!pdb_flat_seen(a, cc) || !pdb_flat_selected(a, cc))
			continue;
		for (m = 0; m < nm; m++) {
			if (pdb_flat_self(a, cc, m) != pdb_flat_self(b, cc, m))
				fuzz_fail("'%s' metric %u: flat %lld, "
				    "projected %lld", pdb_cc_fullname(db, cc),
				    m, (long long)pdb_flat_self(a, cc, m),
				    (long long)pdb_flat_self(b, cc, m));
			if (pdb_flat_inherited(a, cc, m) !=
			    pdb_flat_inherited(b, cc, m))
				fuzz_fail("'%s' metric %u: inherited %lld, "
				    "projected %lld", pdb_cc_fullname(db, cc),
				    m, (long long)pdb_flat_inherited(a, cc, m),
				    (long long)pdb_flat_inherited(b, cc, m));
		}
	}
	pdb_flat_free(a);
	pdb_flat_free(b);
}

/* Prune with thresholds and exclusions drawn from rng; cost metrics keep
 * their totals. */
static struct pdb *
prune(struct pdb *db, uint64_t *rng)
{
	struct pdb_threshold th[3];
	struct pdb_prune_report rep;
	const char *ex[2];
	char pats[2][256];
	struct pdb *t;
	int64_t *inc, *tinc;
	size_t i, nth = 0, nex = 0;
	unsigned m, nm = pdb_metric_count(db);
	uint64_t pct;

	if ((inc = pdb_inclusive_new(db)) == NULL)
		fuzz_fail("pdb_inclusive_new: out of memory");
	for (i = next(rng) % 3; nm > 0 && i > 0; i--) {
		th[nth].metric = (unsigned)(next(rng) % nm);
		pct = next(rng) % 101;
		th[nth].min = inc[th[nth].metric] > 0 ?
		    (int64_t)((uint64_t)inc[th[nth].metric] / 100 * pct) :
		    (int64_t)pct - 50;
		nth++;
	}
	for (i = next(rng) % 3; i > 0; i--) {
		ex[nex] = pattern(db, rng, pats[nex], sizeof(pats[nex]));
		nex++;
	}
	if ((t = pdb_prune_new(db, th, nth, ex, nex, &rep)) == NULL)
		fuzz_fail("pdb_prune_new: %s", pdb_errmsg(db));
	check_tree(t);
	if ((tinc = pdb_inclusive_new(t)) == NULL)
		fuzz_fail("pdb_inclusive_new: out of memory");
	for (m = 0; m < nm; m++)
		if (pdb_metric(db, m)->kind == PDB_COST && inc[m] != tinc[m])
			fuzz_fail("prune: metric %u: total %lld, then %lld", m,
			    (long long)inc[m], (long long)tinc[m]);
	free(inc);
	free(tinc);
	pdb_prune_report_free(&rep);
	return t;
}

void
fuzz_exercise(struct pdb *db, uint64_t seed)
{
	struct pdb_sel *sel;
	struct pdb *proj, *pruned, *callers;
	uint32_t arm[64], top[8];
	int64_t *inc;
	unsigned m;

	/* The analyses on the tree as read. */
	if ((inc = pdb_inclusive_new(db)) == NULL)
		fuzz_fail("pdb_inclusive_new: out of memory");
	m = pdb_metric_count(db) ? (unsigned)(next(&seed) %
	    pdb_metric_count(db)) : 0;
	if (pdb_metric_count(db) > 0) {
		(void)pdb_hot_stack(db, m);
		(void)pdb_expensive_arm(db, inc, m, arm, 64);
		(void)pdb_top_stacks(db, m, top, 8);
	}
	free(inc);
	if (pdb_cc_count(db) > 0) {
		callers = pdb_callers_new(db, (uint32_t)(next(&seed) %
		    pdb_cc_count(db)));
		if (callers != NULL)
			check_tree(callers);
		pdb_free(callers);
	}

	/* The lossless formats keep everything. */
	lossless(db, "dump");
	lossless(db, "json");
	write_all(db, &seed);

	/* ccs-select, then ccs-prune, then every writer. */
	sel = make_sel(db, &seed);
	if ((proj = pdb_project_new(db, sel)) == NULL)
		fuzz_fail("pdb_project_new: %s", pdb_errmsg(db));
	check_tree(proj);
	check_projection(db, proj, sel);
	pruned = prune(proj, &seed);
	write_all(pruned, &seed);
	pdb_free(pruned);
	pdb_free(proj);
	pdb_sel_free(sel);
}

/* Whether a and b have the same names, metrics and metadata. */
static int
same_tables(struct pdb *a, struct pdb *b)
{
	const struct pdb_metric *ma, *mb;
	const char *ka, *va, *kb, *vb;
	struct pdb_cc ca, cb;
	uint32_t c;
	unsigned m;
	size_t i;

	if (pdb_cc_count(a) != pdb_cc_count(b) ||
	    pdb_metric_count(a) != pdb_metric_count(b) ||
	    pdb_meta_count(a) != pdb_meta_count(b))
		return 0;
	for (c = 0; c < pdb_cc_count(a); c++) {
		pdb_cc(a, c, &ca);
		pdb_cc(b, c, &cb);
		if (strcmp(ca.label, cb.label) != 0 ||
		    strcmp(ca.module, cb.module) != 0 ||
		    strcmp(ca.src, cb.src) != 0 || ca.flags != cb.flags ||
		    ca.profile_id != cb.profile_id)
			return 0;
	}
	for (m = 0; m < pdb_metric_count(a); m++) {
		ma = pdb_metric(a, m);
		mb = pdb_metric(b, m);
		if (strcmp(ma->name, mb->name) != 0 ||
		    strcmp(ma->unit, mb->unit) != 0 || ma->kind != mb->kind ||
		    ma->flags != mb->flags)
			return 0;
	}
	for (i = 0; i < pdb_meta_count(a); i++) {
		pdb_meta_at(a, i, &ka, &va);
		pdb_meta_at(b, i, &kb, &vb);
		if (strcmp(ka, kb) != 0 || strcmp(va, vb) != 0)
			return 0;
	}
	return 1;
}

/* Whether a and b read alike: both failed, or the same tree, names,
 * metrics and metadata included. */
int
fuzz_same_tree(struct pdb *a, struct pdb *b)
{
	uint32_t n;
	unsigned m;

	if (a == NULL || b == NULL)
		return a == b;
	if (pdb_node_count(a) != pdb_node_count(b) || !same_tables(a, b))
		return 0;
	/* Read the same way, the trees are the same node for node. */
	for (n = 0; n < pdb_node_count(a); n++) {
		if (pdb_node_cc(a, n) != pdb_node_cc(b, n) ||
		    pdb_node_parent(a, n) != pdb_node_parent(b, n))
			return 0;
		for (m = 0; m < pdb_metric_count(a); m++)
			if (pdb_node_value(a, n, m) != pdb_node_value(b, n, m))
				return 0;
	}
	return 1;
}
