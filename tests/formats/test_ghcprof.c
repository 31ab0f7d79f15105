/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Tests of the GHC text profile reader (formats/fmt_ghcprof.c).
 *
 * The real profiles in tests/data/ghc/ were written by GHC 9.0.2 (+RTS
 * -p, -P, -pa, and -N2 with an empty and non-ASCII labels).  The tests
 * parse their trees again here, in a few lines that know only those files'
 * shape, and check the reader node by node: structure, names, the raw -P
 * ticks and bytes, inherited values against GHC's own inherited columns,
 * the values derived from percentages without -P, and ccs-flat's
 * inherited column against the tree.
 *
 * The old-*.prof fixtures are written by hand in older layouts, after
 * the RTS's own format strings: old-ghc68.prof as GHC 6.8 printed it
 * (ticks of 20 ms, no processor count, no SRC), old-ghc710.P.prof as GHC
 * 7.10's Profiling.c does (no SRC, "no." as %6ld straight after the padded
 * module, so long modules and 6-digit ids run together, GHC #8811),
 * old-ghc82-N4.prof as ProfilerReport.c does since 8.2 (SRC with spaces,
 * CAF:name labels, a non-ASCII label, a label with a space, entries wider
 * than their column).
 *
 * spread.prof is GHC 9.0.2's +RTS -p report of spread-Main.hs (ghc -O0
 * -prof -rtsopts -o spread spread-Main.hs; ./spread +RTS -p): one hot
 * spot and some 300 small stacks whose %alloc GHC rounds to 0.0, so that
 * the lines' %alloc add up to 89.6%.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats_int.h"
#include "pdb.h"
#include "testutil.h"

#define DATA	"tests/data/ghc/"

/* ---- an independent reading of the corpus files ---- */

struct gline {
	int		 depth;		/* -1 for an empty label */
	char		 label[96], module[96], src[96];
	long long	 entries, ticks, bytes;
	int		 tenths[4];	/* %time %alloc, inherited ones */
};

struct gfile {
	struct gline	*l;
	size_t		 n;
	long long	 total_ticks, total_alloc;
	int		 raw;
};

/*
 * The tree lines of a GHC 9 profile whose labels, modules and SRCs are
 * single words (the corpus files): the last 6 or 8 words are numbers,
 * the words before them label (absent when empty), module and SRC.
 */
static void
gfile_read(const char *path, struct gfile *g)
{
	char *text, *line, *save, *w[32], *tok, *p;
	size_t nw, i, cap = 0, ntrail;
	int intree = 0, a, b;

	memset(g, 0, sizeof(*g));
	cr_assert((text = slurp(path, NULL)) != NULL, "cannot read %s", path);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if ((p = strstr(line, "ticks @")) != NULL)
			g->total_ticks = strtoll(strchr(line, '(') + 1, NULL,
			    10);
		if (strstr(line, "total alloc") != NULL) {
			for (p = strchr(line, '=') + 1; *p == ' '; p++)
				;
			for (; (*p >= '0' && *p <= '9') || *p == ','; p++)
				if (*p != ',')
					g->total_alloc = g->total_alloc * 10 +
					    (*p - '0');
		}
		if (!intree) {
			if (strncmp(line, "COST CENTRE", 11) == 0 &&
			    strstr(line, "no.") != NULL) {
				intree = 1;
				g->raw = strstr(line, "ticks") != NULL;
			}
			continue;
		}
		if (g->n == cap) {
			cap = cap ? 2 * cap : 64;
			g->l = realloc(g->l, cap * sizeof(*g->l));
			cr_assert(g->l != NULL);
		}
		struct gline *gl = &g->l[g->n++];
		memset(gl, 0, sizeof(*gl));
		for (i = 0; line[i] == ' '; i++)
			;
		gl->depth = (int)i;
		nw = 0;
		for (tok = strtok(line, " "); tok != NULL && nw < 32;
		    tok = strtok(NULL, " "))
			w[nw++] = tok;
		ntrail = g->raw ? 8 : 6;
		cr_assert(nw == ntrail + 3 || nw == ntrail + 2,
		    "%s: unexpected line shape", path);
		i = 0;
		if (nw == ntrail + 3)
			snprintf(gl->label, sizeof(gl->label), "%s", w[i++]);
		else
			gl->depth = -1;
		snprintf(gl->module, sizeof(gl->module), "%s", w[i++]);
		snprintf(gl->src, sizeof(gl->src), "%s", w[i++]);
		i++;	/* no. */
		gl->entries = strtoll(w[i++], NULL, 10);
		for (a = 0; a < 4; a++) {
			cr_assert(sscanf(w[i++], "%d.%d", &b,
			    &gl->tenths[a]) == 2);
			gl->tenths[a] += 10 * b;
		}
		if (g->raw) {
			gl->ticks = strtoll(w[i++], NULL, 10);
			gl->bytes = strtoll(w[i++], NULL, 10);
		} else {
			/* round(percent * total / 100), in integers */
			gl->ticks = (2LL * gl->tenths[0] * g->total_ticks +
			    1000) / 2000;
			gl->bytes = (2LL * gl->tenths[1] * g->total_alloc +
			    1000) / 2000;
		}
	}
	free(text);
	cr_assert(g->n > 0, "%s: no tree", path);
}

/* Inherited ticks (m 0) or bytes (m 1) of line i: its subtree's sum. */
static long long
gfile_inherited(const struct gfile *g, size_t i, int m)
{
	long long s = m ? g->l[i].bytes : g->l[i].ticks;
	size_t j;

	for (j = i + 1; j < g->n && g->l[j].depth > g->l[i].depth; j++)
		s += m ? g->l[j].bytes : g->l[j].ticks;
	return s;
}

/* ---- helpers ---- */

static char warnings[8192];

static void
collect_warning(void *arg, const char *msg)
{
	(void)arg;
	strncat(warnings, msg, sizeof(warnings) - strlen(warnings) - 2);
	strcat(warnings, "\n");
}

/* Read path as ghc-prof into a fresh handle; returns the read's code. */
static int
read_ghc(const char *path, struct pdb **dbp)
{
	struct pdb *db = pdb_new();

	cr_assert(db != NULL);
	warnings[0] = '\0';
	pdb_set_warn_handler(db, collect_warning, NULL);
	*dbp = db;
	return pdb_read_tree(db, path, &pdb_fmt_ghcprof, NULL, NULL);
}

/* Read len bytes of data as a file; returns the code, message in msg. */
static int
read_bytes(const void *data, size_t len, char *msg, size_t msglen,
    struct pdb **dbp)
{
	char *path = write_temp(data, len, ".prof");
	struct pdb *db;
	int rc;

	rc = read_ghc(path, &db);
	snprintf(msg, msglen, "%s", rc == PDB_OK ? "" : pdb_errmsg(db));
	if (rc != PDB_OK)
		cr_assert(strncmp(msg, path, strlen(path)) == 0,
		    "message does not name the file: %s", msg);
	unlink(path);
	free(path);
	if (dbp != NULL)
		*dbp = db;
	else
		pdb_free(db);
	return rc;
}

/* The message of reading text (NUL-terminated); fails if it reads. */
static void
expect_error(const char *text, const char *want)
{
	char msg[1024];
	int rc;

	rc = read_bytes(text, strlen(text), msg, sizeof(msg), NULL);
	cr_expect_neq(rc, PDB_OK, "read although '%s' was expected", want);
	cr_expect(strstr(msg, want) != NULL, "message '%s' lacks '%s'", msg,
	    want);
}

/* Reading the first len bytes of text is a format error saying want. */
static void
expect_format_error(const char *text, size_t len, const char *want)
{
	char msg[1024];

	cr_expect_eq(read_bytes(text, len, msg, sizeof(msg), NULL),
	    PDB_EFORMAT, "read");
	cr_expect(strstr(msg, want) != NULL, "%s", msg);
}

/* Replace the first occurrence of from in text with to (a new string). */
static char *
replace(const char *text, const char *from, const char *to)
{
	const char *p = strstr(text, from);
	size_t n;
	char *out;

	cr_assert(p != NULL, "fixture lacks '%s'", from);
	n = strlen(text) - strlen(from) + strlen(to) + 1;
	cr_assert((out = malloc(n)) != NULL);
	snprintf(out, n, "%.*s%s%s", (int)(p - text), text, to,
	    p + strlen(from));
	return out;
}

static uint32_t
find_cc(const struct pdb *db, const char *label, const char *module)
{
	uint32_t i;

	for (i = 0; i < pdb_cc_count(db); i++)
		if (strcmp(pdb_cc_label(db, i), label) == 0 &&
		    strcmp(pdb_cc_module(db, i), module) == 0)
			return i;
	cr_assert_fail("no cost centre %s.%s", module, label);
	return PDB_NONE;
}

/* The first node (pre-order) whose cost centre has this label. */
static uint32_t
find_node(const struct pdb *db, const char *label)
{
	uint32_t n;

	for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL))
		if (strcmp(pdb_cc_label(db, pdb_node_cc(db, n)), label) == 0)
			return n;
	cr_assert_fail("no node labelled '%s'", label);
	return PDB_NONE;
}

static unsigned
metric(const struct pdb *db, const char *name)
{
	int m = pdb_metric_find(db, name);

	cr_assert(m >= 0, "no metric %s", name);
	return (unsigned)m;
}

static void
expect_meta(const struct pdb *db, const char *key, const char *want)
{
	const char *v = pdb_meta_get(db, key);

	if (want == NULL) {
		cr_expect_null(v, "%s = '%s', expected none", key, v);
		return;
	}
	cr_expect(v != NULL && strcmp(v, want) == 0, "%s = '%s', expected '%s'",
	    key, v ? v : "(none)", want);
}

/* Undo ccs-flat's TSV escapes in place. */
static void
tsv_unescape(char *s)
{
	char *d = s;

	for (; *s != '\0'; s++) {
		if (*s == '\\' && s[1] != '\0') {
			s++;
			*d++ = *s == 't' ? '\t' : *s == 'n' ? '\n' :
			    *s == 'r' ? '\r' : *s;
		} else
			*d++ = *s;
	}
	*d = '\0';
}

/* ---- the real profiles, node by node ---- */

struct case_P {
	char	 file[48];
};

static struct case_P raw_cases[] = {
	{ DATA "mj.P.prof" },
	{ DATA "clausify.P.prof" },
	{ DATA "demo.P.prof" },
	{ DATA "demo.pa.prof" },
};

ParameterizedTestParameters(ghcprof, raw_profiles)
{
	return cr_make_param_array(struct case_P, raw_cases,
	    sizeof(raw_cases) / sizeof(raw_cases[0]));
}

ParameterizedTestParameters(ghcprof, raw_flat_tool)
{
	return cr_make_param_array(struct case_P, raw_cases,
	    sizeof(raw_cases) / sizeof(raw_cases[0]));
}

/*
 * -P and -pa: every node's own ticks, bytes and entries are the file's,
 * every node's inclusive ticks and bytes (pdb_inclusive_new) equal the
 * subtree sums computed here, and agree with GHC's printed inherited
 * percentages within their rounding.
 */
ParameterizedTest(struct case_P *c, ghcprof, raw_profiles)
{
	struct gfile g;
	struct pdb *db;
	const int64_t *v;
	int64_t *inc;
	unsigned mt, ma, me, nm;
	uint32_t n, depth, i;
	struct pdb_cc cc;
	double pct;

	gfile_read(c->file, &g);
	cr_assert(g.raw);
	db = load_tree(c->file);
	cr_assert_eq(pdb_node_count(db), g.n, "%s: %u nodes, %zu lines",
	    c->file, pdb_node_count(db), g.n);
	mt = metric(db, "ticks");
	ma = metric(db, "alloc");
	me = metric(db, "entries");
	nm = pdb_metric_count(db);
	cr_assert_eq(nm, 3);
	cr_expect_eq(pdb_metric(db, mt)->kind, PDB_COST);
	cr_expect_eq(pdb_metric(db, ma)->kind, PDB_COST);
	cr_expect_eq(pdb_metric(db, me)->kind, PDB_COUNT);
	cr_expect_str_eq(pdb_metric(db, ma)->unit, "bytes");
	cr_expect_eq(pdb_metric(db, mt)->flags & PDB_METRIC_APPROX, 0);
	cr_expect_eq(pdb_metric(db, ma)->flags & PDB_METRIC_APPROX, 0);
	expect_meta(db, "approximate", NULL);
	expect_meta(db, "source_format", "ghc-prof");
	cr_assert((inc = pdb_inclusive_new(db)) != NULL);
	for (n = pdb_walk_first(db, &depth), i = 0; n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth), i++) {
		const struct gline *l = &g.l[i];

		pdb_cc(db, pdb_node_cc(db, n), &cc);
		cr_expect_eq((int)depth, l->depth, "%s line %u depth", c->file,
		    i);
		cr_expect_str_eq(cc.label, l->label);
		cr_expect_str_eq(cc.module, l->module);
		cr_expect_str_eq(cc.src, l->src);
		v = pdb_node_values(db, n);
		cr_expect_eq(v[mt], l->ticks, "%s: %s ticks", c->file,
		    l->label);
		cr_expect_eq(v[ma], l->bytes, "%s: %s bytes", c->file,
		    l->label);
		cr_expect_eq(v[me], l->entries);
		cr_expect_eq(inc[(size_t)n * nm + mt],
		    gfile_inherited(&g, i, 0),
		    "%s: %s (node %u) inherited ticks", c->file, l->label, n);
		cr_expect_eq(inc[(size_t)n * nm + ma],
		    gfile_inherited(&g, i, 1),
		    "%s: %s (node %u) inherited bytes", c->file, l->label, n);
		/* GHC's own inherited columns, rounded to 0.1% */
		pct = 100.0 * (double)inc[(size_t)n * nm + ma] /
		    (double)g.total_alloc;
		cr_expect(fabs(pct - l->tenths[3] / 10.0) <= 0.1 + 1e-9,
		    "%s: %s inherited %%alloc %.3f, GHC says %.1f", c->file,
		    l->label, pct, l->tenths[3] / 10.0);
		pct = 100.0 * (double)inc[(size_t)n * nm + mt] /
		    (double)g.total_ticks;
		cr_expect(fabs(pct - l->tenths[2] / 10.0) <= 0.1 + 1e-9,
		    "%s: %s inherited %%time %.3f, GHC says %.1f", c->file,
		    l->label, pct, l->tenths[2] / 10.0);
	}
	cr_expect_eq(inc[0 * nm + mt], g.total_ticks);
	cr_expect_eq(inc[0 * nm + ma], g.total_alloc);
	free(inc);
	free(g.l);
	pdb_free(db);
}

/*
 * ccs-flat's self and inherited columns for -m ticks and -m alloc: self is
 * the sum of the cost centre's own values, inherited the sum of the
 * inherited values of its outermost occurrences in GHC's tree.
 */
ParameterizedTest(struct case_P *c, ghcprof, raw_flat_tool)
{
	static const char *const metrics[2] = { "ticks", "alloc" };
	struct gfile g;
	struct run r;
	char *line, *save, *f[6];
	size_t i, j, rows, ncc;
	long long self, inh;
	int m, k, outer;

	gfile_read(c->file, &g);
	/* distinct cost centres */
	for (ncc = 0, i = 0; i < g.n; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(g.l[i].label, g.l[j].label) == 0 &&
			    strcmp(g.l[i].module, g.l[j].module) == 0 &&
			    strcmp(g.l[i].src, g.l[j].src) == 0)
				break;
		ncc += j == i;
	}
	for (m = 0; m < 2; m++) {
		run(&r, "ccs-flat --tsv -m %s %s", metrics[m], c->file);
		cr_assert_eq(r.status, 0, "ccs-flat: %s", r.err);
		rows = 0;
		for (line = strtok_r(r.out, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save)) {
			if (strncmp(line, "module\t", 7) == 0)
				continue;
			for (k = 0; k < 6; k++)
				f[k] = strsep(&line, "\t");
			cr_assert(f[4] != NULL, "short row");
			for (k = 0; k < 3; k++)
				tsv_unescape(f[k]);
			self = inh = 0;
			for (i = 0; i < g.n; i++) {
				const struct gline *l = &g.l[i];
				size_t a;
				int d;

				if (strcmp(l->module, f[0]) != 0 ||
				    strcmp(l->label, f[1]) != 0 ||
				    strcmp(l->src, f[2]) != 0)
					continue;
				self += m ? l->bytes : l->ticks;
				/* outermost: no ancestor is the same */
				outer = 1;
				for (a = i, d = l->depth; a-- > 0 && d > 0;) {
					if (g.l[a].depth != d - 1)
						continue;
					d--;
					if (strcmp(g.l[a].module, f[0]) == 0 &&
					    strcmp(g.l[a].label, f[1]) == 0 &&
					    strcmp(g.l[a].src, f[2]) == 0)
						outer = 0;
				}
				if (outer)
					inh += gfile_inherited(&g, i, m);
			}
			cr_expect_eq(strtoll(f[3], NULL, 10), self,
			    "%s -m %s: %s.%s self", c->file, metrics[m], f[0],
			    f[1]);
			cr_expect_eq(strtoll(f[4], NULL, 10), inh,
			    "%s -m %s: %s.%s inherited", c->file, metrics[m],
			    f[0], f[1]);
			rows++;
		}
		cr_expect_eq(rows, ncc, "%s: %zu rows for %zu cost centres",
		    c->file, rows, ncc);
		run_free(&r);
	}
	free(g.l);
}

struct case_p {
	char	 file[48];
	char	 twin[48];	/* the -P run of the same program, or "" */
};

ParameterizedTestParameters(ghcprof, pct_profiles)
{
	static struct case_p cases[] = {
		{ DATA "mj.prof", DATA "mj.P.prof" },
		{ DATA "clausify.prof", DATA "clausify.P.prof" },
		{ DATA "demo.prof", DATA "demo.P.prof" },
		{ DATA "quirks-N2.prof", "" },
	};

	return cr_make_param_array(struct case_p, cases,
	    sizeof(cases) / sizeof(cases[0]));
}

/*
 * -p: ticks and bytes are round(percent x total / 100) and marked
 * approximate; entries are exact.
 */
ParameterizedTest(struct case_p *c, ghcprof, pct_profiles)
{
	struct gfile g;
	struct pdb *db;
	const int64_t *v;
	unsigned mt, ma, me;
	uint32_t n, i;

	gfile_read(c->file, &g);
	cr_assert(!g.raw);
	cr_assert_eq(read_ghc(c->file, &db), PDB_OK, "%s", pdb_errmsg(db));
	cr_assert_eq(pdb_node_count(db), g.n);
	mt = metric(db, "ticks");
	ma = metric(db, "alloc");
	me = metric(db, "entries");
	cr_expect_neq(pdb_metric(db, mt)->flags & PDB_METRIC_APPROX, 0);
	cr_expect_neq(pdb_metric(db, ma)->flags & PDB_METRIC_APPROX, 0);
	cr_expect_eq(pdb_metric(db, me)->flags & PDB_METRIC_APPROX, 0);
	expect_meta(db, "approximate", "yes");
	for (n = pdb_walk_first(db, NULL), i = 0; n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL), i++) {
		v = pdb_node_values(db, n);
		cr_expect_str_eq(pdb_cc_module(db, pdb_node_cc(db, n)),
		    g.l[i].module);
		cr_expect_eq(v[mt], g.l[i].ticks, "%s line %u", c->file, i);
		cr_expect_eq(v[ma], g.l[i].bytes, "%s line %u", c->file, i);
		cr_expect_eq(v[me], g.l[i].entries);
	}
	free(g.l);
	if (c->twin[0] != '\0') {
		/* The same program's -P run has the same call tree shape. */
		struct pdb *tw = load_tree(c->twin);
		uint32_t a, b;

		for (a = pdb_walk_first(db, NULL), b = pdb_walk_first(tw, NULL);
		    a != PDB_NONE && b != PDB_NONE; a = pdb_walk_next(db, a,
		    NULL), b = pdb_walk_next(tw, b, NULL))
			if (pdb_node_value(db, a, me) !=
			    pdb_node_value(tw, b, me) ||
			    strcmp(pdb_cc_label(db, pdb_node_cc(db, a)),
			    pdb_cc_label(tw, pdb_node_cc(tw, b))) != 0)
				break;
		cr_expect(a == PDB_NONE && b == PDB_NONE,
		    "%s and %s differ in shape", c->file, c->twin);
		pdb_free(tw);
	}
	pdb_free(db);
}

/* ---- specific files ---- */

Test(ghcprof, metadata_mj_P)
{
	struct pdb *db = load_tree(DATA "mj.P.prof");

	expect_meta(db, "program", "mj");
	expect_meta(db, "command", "mj +RTS -P -RTS");
	expect_meta(db, "date", "Sun Nov 22 04:04 2026");
	expect_meta(db, "total_time", "0.05");
	expect_meta(db, "total_ticks", "47");
	expect_meta(db, "tick_interval_us", "1000");
	expect_meta(db, "processors", "1");
	expect_meta(db, "total_alloc", "210573856");
	expect_meta(db, "source_format", "ghc-prof");
	expect_meta(db, "approximate", NULL);
	pdb_free(db);
}

Test(ghcprof, cost_centres_are_shared_and_cafs_flagged)
{
	struct pdb *db = load_tree(DATA "mj.P.prof");
	struct pdb_cc cc;
	uint32_t rev, n, occ = 0, i;

	/* rev occurs 6 times in the tree but is one cost centre */
	rev = find_cc(db, "rev", "Main");
	for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL)) {
		if (strcmp(pdb_cc_label(db, pdb_node_cc(db, n)), "rev") == 0) {
			cr_expect_eq(pdb_node_cc(db, n), rev);
			occ++;
		}
	}
	cr_expect_eq(occ, 6);
	for (i = 0; i < pdb_cc_count(db); i++) {
		pdb_cc(db, i, &cc);
		cr_expect_eq((cc.flags & PDB_CC_CAF) != 0,
		    strcmp(cc.label, "CAF") == 0, "%s.%s flags %#x", cc.module,
		    cc.label, (unsigned)cc.flags);
		cr_expect_eq(cc.profile_id, -1);
	}
	/* 19 distinct (label, module, SRC): 6 CAFs, MAIN, 12 in Main */
	cr_expect_eq(pdb_cc_count(db), 19);
	pdb_free(db);
}

Test(ghcprof, quirks_empty_and_non_ascii_labels)
{
	struct pdb *db;
	struct pdb_cc cc;
	uint32_t n, p, mains = 0, c, abc, lam;
	unsigned mt;

	cr_assert_eq(read_ghc(DATA "quirks-N2.prof", &db), PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_expect_eq(pdb_node_count(db), 16);
	expect_meta(db, "program", "e");
	expect_meta(db, "command", "e +RTS -N2 -p -RTS");
	expect_meta(db, "processors", "2");
	expect_meta(db, "total_ticks", "419");
	expect_meta(db, "total_alloc", "1147343288");
	expect_meta(db, "total_time", "0.21");
	expect_meta(db, "approximate", "yes");
	mt = metric(db, "ticks");

	/* {-# SCC "" #-} inside work: depth 4, under work */
	n = find_node(db, "");
	pdb_cc(db, pdb_node_cc(db, n), &cc);
	cr_expect_str_eq(cc.module, "Main");
	cr_expect_str_eq(cc.src, "E.hs:5:25-34");
	cr_expect_eq(pdb_node_depth(db, n), 4);
	p = pdb_node_parent(db, n);
	cr_expect_str_eq(pdb_cc_label(db, pdb_node_cc(db, p)), "work");
	cr_expect_eq(pdb_node_value(db, n, mt), 418);	/* 99.8% of 419 */
	cr_expect(strstr(warnings, "quirks-N2.prof:29: empty cost-centre "
	    "label") != NULL, "warnings: %s", warnings);

	/* non-ASCII labels, byte for byte */
	abc = find_node(db, "\xce\xb1\xce\xb2\xce\xb3");	/* αβγ */
	lam = find_node(db, "\xce\xbb-label");			/* λ-label */
	cr_expect_eq(pdb_node_depth(db, abc), 2);
	cr_expect_eq(pdb_node_parent(db, lam), abc);
	cr_expect_str_eq(pdb_cc_module(db, pdb_node_cc(db, lam)), "Main");
	cr_expect_str_eq(pdb_node_first_child(db, lam) == PDB_NONE ? "leaf" :
	    "inner", "leaf");

	/* main: twice in the tree, one cost centre */
	c = find_cc(db, "main", "Main");
	for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL))
		if (strcmp(pdb_cc_label(db, pdb_node_cc(db, n)), "main") == 0) {
			cr_expect_eq(pdb_node_cc(db, n), c);
			mains++;
		}
	cr_expect_eq(mains, 2);
	pdb_free(db);
}

/*
 * An empty label's depth comes from the inherited costs: a costly one
 * goes where there is room for it, here beside f under main, not under f
 * (f's 40% are all its own); a free one goes under the line above.
 */
Test(ghcprof, empty_label_depth_inferred)
{
	static const char head[] =
	    "\tMon Jan  5 00:00 2026 Time and Allocation Profiling Report  "
	    "(Final)\n\n\t   t +RTS -p -RTS\n\n"
	    "\ttotal time  =        0.10 secs   (100 ticks @ 1000 us, 1 "
	    "processor)\n"
	    "\ttotal alloc =       1,000 bytes  (excludes profiling "
	    "overheads)\n\n"
	    "COST CENTRE MODULE SRC no. entries  %time %alloc   %time %alloc\n"
	    "\n"
	    "MAIN        MAIN   b   1   0    0.0    0.0   100.0  100.0\n"
	    " main       Main   m   2   1    0.0    0.0   100.0  100.0\n"
	    "  f         Main   f   3   1   40.0   40.0    40.0   40.0\n";
	char text[2048], msg[256];
	struct pdb *db;
	uint32_t n;

	snprintf(text, sizeof(text), "%s%s", head,
	    "            Main   e   4   1   60.0   60.0    60.0   60.0\n");
	cr_assert_eq(read_bytes(text, strlen(text), msg, sizeof(msg), &db),
	    PDB_OK, "%s", msg);
	n = find_node(db, "");
	cr_expect_str_eq(pdb_cc_label(db, pdb_node_cc(db, pdb_node_parent(db,
	    n))), "main");
	cr_expect_eq(pdb_node_value(db, n, 0), 60);
	cr_expect_eq(pdb_node_value(db, n, 1), 600);
	pdb_free(db);

	snprintf(text, sizeof(text), "%s%s%s", head,
	    "            Main   z   5   1    0.0    0.0     0.0    0.0\n",
	    "  g         Main   g   6   1   60.0   60.0    60.0   60.0\n");
	cr_assert_eq(read_bytes(text, strlen(text), msg, sizeof(msg), &db),
	    PDB_OK, "%s", msg);
	n = find_node(db, "");
	cr_expect_str_eq(pdb_cc_label(db, pdb_node_cc(db, pdb_node_parent(db,
	    n))), "f");
	cr_expect_str_eq(pdb_cc_label(db, pdb_node_cc(db, pdb_node_parent(db,
	    find_node(db, "g")))), "main");
	cr_expect(strstr(warnings, ":13: empty cost-centre label: depth 3 "
	    "inferred") != NULL, "warnings: %s", warnings);
	pdb_free(db);
}

Test(ghcprof, old_ghc710_glued_module_and_id)
{
	struct pdb *db;
	struct pdb_cc cc;
	const int64_t *v;
	int64_t *inc;
	uint32_t n;
	unsigned mt, ma, me, nm;

	cr_assert_eq(read_ghc(DATA "old-ghc710.P.prof", &db), PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_expect_eq(warnings[0], '\0', "warnings: %s", warnings);
	cr_expect_eq(pdb_node_count(db), 12);
	mt = metric(db, "ticks");
	ma = metric(db, "alloc");
	me = metric(db, "entries");
	nm = pdb_metric_count(db);
	expect_meta(db, "program", "parser");
	expect_meta(db, "command", "parser +RTS -P -RTS input.txt");
	expect_meta(db, "total_ticks", "31");
	expect_meta(db, "processors", "1");
	expect_meta(db, "approximate", NULL);

	/* "Text.Parser.Combinators104233": module and no. run together */
	n = find_node(db, "many");
	cr_expect_str_eq(pdb_cc_module(db, pdb_node_cc(db, n)),
	    "Text.Parser.Combinators");
	v = pdb_node_values(db, n);
	cr_expect_eq(v[mt], 12);
	cr_expect_eq(v[ma], 6000000);
	cr_expect_eq(v[me], 5000);
	n = find_node(db, "many.go");
	cr_expect_str_eq(pdb_cc_module(db, pdb_node_cc(db, n)),
	    "Text.Parser.Combinators");
	cr_expect_eq(pdb_node_value(db, n, me), 245000);
	cr_expect_eq(pdb_node_depth(db, n), 5);
	n = find_node(db, "satisfy");
	cr_expect_str_eq(pdb_cc_module(db, pdb_node_cc(db, n)),
	    "Text.Parser.Char");
	cr_expect_str_eq(pdb_cc_label(db, pdb_node_cc(db, pdb_node_parent(db,
	    n))), "many");
	/* no SRC column: empty */
	pdb_cc(db, pdb_node_cc(db, n), &cc);
	cr_expect_str_eq(cc.src, "");
	inc = pdb_inclusive_new(db);
	cr_assert(inc != NULL);
	cr_expect_eq(inc[mt], 31);
	cr_expect_eq(inc[ma], 13080232);
	n = find_node(db, "parseFile");
	cr_expect_eq(inc[(size_t)n * nm + ma], 12000000);	/* 91.7% */
	free(inc);
	pdb_free(db);
}

Test(ghcprof, old_ghc82_src_with_spaces_wide_numbers)
{
	struct pdb *db;
	struct pdb_cc cc;
	uint32_t n, c;
	unsigned mt, ma, me;

	cr_assert_eq(read_ghc(DATA "old-ghc82-N4.prof", &db), PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_expect_eq(pdb_node_count(db), 12);
	mt = metric(db, "ticks");
	ma = metric(db, "alloc");
	me = metric(db, "entries");
	expect_meta(db, "processors", "4");
	expect_meta(db, "program", "app");
	expect_meta(db, "command", "app +RTS -N4 -p -RTS --size 30");
	expect_meta(db, "total_alloc", "3746679534");
	expect_meta(db, "date", "Mon Jan  8 09:30 2018");
	expect_meta(db, "approximate", "yes");

	c = find_cc(db, "CAF:main1", "Main");
	pdb_cc(db, c, &cc);
	cr_expect_str_eq(cc.src, "<no location info>");
	cr_expect_neq(cc.flags & PDB_CC_CAF, 0);
	pdb_cc(db, find_cc(db, "main", "Main"), &cc);
	cr_expect_eq(cc.flags & PDB_CC_CAF, 0);
	cr_expect_str_eq(cc.src, "app/Main.hs:(10,1)-(14,30)");

	/* entries wider than %11; 71.3% of 9848 ticks is 7021.6 */
	n = find_node(db, "step");
	cr_expect_eq(pdb_node_value(db, n, me), 123456789012LL);
	cr_expect_eq(pdb_node_value(db, n, mt), 7022);
	cr_expect_eq(pdb_node_value(db, n, ma), 813029459);	/* 21.7% */
	n = find_node(db, "step.go");
	cr_expect_eq(pdb_node_value(db, n, me), 98765432101LL);

	/* a label with a space, a non-ASCII label */
	n = find_node(db, "parse chunk");
	pdb_cc(db, pdb_node_cc(db, n), &cc);
	cr_expect_str_eq(cc.module, "Lib");
	cr_expect_str_eq(cc.src, "src/Lib.hs:44:15-52");
	cr_expect_eq(pdb_node_depth(db, n), 4);
	n = find_node(db, "\xcf\x83\xcf\x8d\xce\xbd\xce\xbf\xce\xbb\xce\xbf");
	cr_expect_str_eq(pdb_cc_module(db, pdb_node_cc(db, n)), "Lib");
	cr_expect_eq(pdb_node_depth(db, n), 4);
	pdb_free(db);
}

Test(ghcprof, old_ghc68_milliseconds_no_processors)
{
	struct pdb *db;
	uint32_t n;
	unsigned mt, ma;

	cr_assert_eq(read_ghc(DATA "old-ghc68.prof", &db), PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_expect_eq(pdb_node_count(db), 5);
	mt = metric(db, "ticks");
	ma = metric(db, "alloc");
	expect_meta(db, "tick_interval_us", "20000");
	expect_meta(db, "total_ticks", "20");
	expect_meta(db, "total_time", "0.40");
	expect_meta(db, "processors", NULL);
	expect_meta(db, "command", "sieve +RTS -p -RTS 20000");
	n = find_node(db, "sieve");
	cr_expect_eq(pdb_node_value(db, n, mt), 17);
	cr_expect_eq(pdb_node_value(db, n, ma), 37496523);	/* 90.9% */
	cr_expect_eq(pdb_node_depth(db, n), 3);
	cr_expect_str_eq(pdb_cc_module(db, pdb_node_cc(db,
	    pdb_node_parent(db, find_node(db, "CAF")))), "MAIN");
	pdb_free(db);
}

/* ---- probing ---- */

Test(ghcprof, probe)
{
	static const char *const mine[] = { "mj.prof", "mj.P.prof",
	    "clausify.prof", "clausify.P.prof", "demo.prof", "demo.P.prof",
	    "demo.pa.prof", "quirks-N2.prof", "old-ghc68.prof",
	    "old-ghc710.P.prof", "old-ghc82-N4.prof", "spread.prof" };
	static const char *const json[] = { "mj.json", "clausify.json",
	    "demo.json" };
	static const unsigned char bin[] = { 0x01, 0x00, 0x00, 0x00, 'C', 'O',
	    'S', 'T', ' ', 'C', 'E', 'N', 'T', 'R', 'E' };
	const char *folded = "MAIN;main;f 12\nMAIN;main;g 3\n";
	const char *headless = "COST CENTRE MODULE SRC no. entries %time "
	    "%alloc %time %alloc\n\nMAIN MAIN <built-in> 1 0 0.0 0.0 0.0 0.0\n";
	char path[128], *text;
	size_t i, len;

	for (i = 0; i < sizeof(mine) / sizeof(mine[0]); i++) {
		snprintf(path, sizeof(path), DATA "%s", mine[i]);
		text = slurp(path, &len);
		cr_assert(text != NULL);
		cr_expect_eq(pdb_fmt_ghcprof.probe((unsigned char *)text,
		    len < 4096 ? len : 4096), 90, "%s", path);
		cr_expect_eq(pdb_format_probe((unsigned char *)text,
		    len < 4096 ? len : 4096), &pdb_fmt_ghcprof, "%s", path);
		free(text);
	}
	for (i = 0; i < sizeof(json) / sizeof(json[0]); i++) {
		snprintf(path, sizeof(path), DATA "%s", json[i]);
		text = slurp(path, &len);
		cr_assert(text != NULL);
		cr_expect_eq(pdb_fmt_ghcprof.probe((unsigned char *)text,
		    len < 4096 ? len : 4096), 0, "%s", path);
		free(text);
	}
	cr_expect_eq(pdb_fmt_ghcprof.probe((const unsigned char *)folded,
	    strlen(folded)), 0);
	cr_expect_eq(pdb_fmt_ghcprof.probe(bin, sizeof(bin)), 0);
	cr_expect_eq(pdb_fmt_ghcprof.probe((const unsigned char *)"", 0), 0);
	cr_expect_eq(pdb_fmt_ghcprof.probe((const unsigned char *)headless,
	    strlen(headless)), 70);
}

/*
 * A report cut off in its title line, before the title itself, is still
 * a GHC report, and a broken one: never a folded stack "Sun Nov" of 22
 * samples.
 */
Test(ghcprof, cut_in_the_title_line)
{
	char *text, *path;
	size_t len, n;
	struct run r;

	text = slurp(DATA "mj.prof", &len);
	cr_assert(text != NULL && len > 60);
	for (n = 9; n <= 60; n++) {
		cr_expect_eq(pdb_format_probe((unsigned char *)text, n),
		    &pdb_fmt_ghcprof, "cut at %zu", n);
		path = write_temp(text, n, ".prof");
		run(&r, "ccs-flat %s", path);
		cr_expect_eq(r.status, 1, "cut at %zu: %s", n, r.out);
		cr_expect(strstr(r.err, path) != NULL, "cut at %zu: %s", n,
		    r.err);
		run_free(&r);
		unlink(path);
		free(path);
	}
	free(text);
	/* Not a weekday, or no tab: no date, no claim. */
	cr_expect_eq(pdb_fmt_ghcprof.probe((const unsigned char *)
	    "\tSun Nox 22 04:04 2026", 22), 0);
	cr_expect_eq(pdb_fmt_ghcprof.probe((const unsigned char *)
	    "Sun Nov 22 04:04 2026", 21), 0);
}

/* Forced onto JSON, the reader says what is missing. */
Test(ghcprof, json_forced)
{
	struct pdb *db;

	cr_expect_neq(read_ghc(DATA "mj.json", &db), PDB_OK);
	cr_expect(strstr(pdb_errmsg(db), "mj.json: no cost-centre tree found")
	    != NULL, "%s", pdb_errmsg(db));
	pdb_free(db);
}

/* ---- streaming ---- */

static int
stop_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *values)
{
	int *count = arg;

	(void)db;
	(void)cc;
	(void)values;
	return ++*count == 3 ? PDB_ESTOP : 0;
}

Test(ghcprof, sink_can_stop)
{
	struct pdb *db = pdb_new();
	int count = 0, rc;
	struct pdb_sink sink = { .enter = stop_enter, .arg = &count };

	rc = pdb_read_stream(db, DATA "clausify.prof", NULL, NULL, &sink, NULL);
	cr_expect_eq(rc, PDB_ESTOP);
	cr_expect_eq(count, 3);
	pdb_free(db);
}

/* ---- bad input ---- */

/*
 * mj.P.prof cut anywhere before its last byte is an error: in the
 * header ("no cost-centre tree found"), mid-line (the numbers are
 * missing) or at a line boundary (ticks and bytes fall short of the
 * header's totals).
 */
Test(ghcprof, truncated_raw_everywhere)
{
	char *text, msg[1024];
	size_t len, cut;
	int rc, truncated = 0;

	text = slurp(DATA "mj.P.prof", &len);
	cr_assert(text != NULL && len > 100);
	for (cut = 0; cut < len - 1; cut++) {
		rc = read_bytes(text, cut, msg, sizeof(msg), NULL);
		cr_expect_neq(rc, PDB_OK, "cut at %zu read", cut);
		truncated += strstr(msg, "truncated") != NULL;
	}
	cr_expect_gt(truncated, 30);
	cr_expect_eq(read_bytes(text, len - 1, msg, sizeof(msg), NULL), PDB_OK,
	    "without the final newline: %s", msg);
	free(text);
}

/*
 * mj.prof cut anywhere: an error, or a tree that is a prefix of the
 * whole one (same cost centres, same parents, in the same order).
 */
Test(ghcprof, truncated_pct_prefix_or_error)
{
	struct pdb *full, *db;
	char *text, msg[1024];
	size_t len, cut, i;
	uint32_t n;
	int rc, ok = 0;

	full = load_tree(DATA "mj.prof");
	text = slurp(DATA "mj.prof", &len);
	cr_assert(text != NULL);
	for (cut = 0; cut < len; cut++) {
		rc = read_bytes(text, cut, msg, sizeof(msg), &db);
		if (rc != PDB_OK) {
			cr_expect(rc == PDB_EFORMAT, "cut %zu: %s", cut, msg);
			pdb_free(db);
			continue;
		}
		ok++;
		/* Cut inside a line, only after its last number: GHC prints
		 * every percentage with a decimal, so "97." or "9" is an
		 * error, not a smaller number. */
		for (i = cut; i > 0 && text[i - 1] == ' '; i--)
			;
		if (i > 0 && text[i - 1] != '\n')
			cr_expect(text[cut] == '\n', "cut %zu, inside '%.*s', "
			    "read", cut, (int)strcspn(text + cut, "\n"),
			    text + cut);
		cr_expect_leq(pdb_node_count(db), pdb_node_count(full));
		for (n = 0; n < pdb_node_count(db); n++) {
			cr_expect_str_eq(pdb_cc_label(db, pdb_node_cc(db, n)),
			    pdb_cc_label(full, pdb_node_cc(full, n)));
			cr_expect_str_eq(pdb_cc_module(db,
			    pdb_node_cc(db, n)), pdb_cc_module(full,
			    pdb_node_cc(full, n)));
			cr_expect_eq(pdb_node_parent(db, n),
			    pdb_node_parent(full, n));
		}
		pdb_free(db);
	}
	cr_expect_gt(ok, 0);
	pdb_free(full);
	free(text);
}

/*
 * The flat table lists cost centres from column 0, as the totals are
 * written: one called "total time" or "total allocs" is a cost centre,
 * not a second total.
 */
Test(ghcprof, cost_centres_called_total_time)
{
	static const char text[] =
	    "\tSun Nov 22 04:04 2026 Time and Allocation Profiling Report  "
	    "(Final)\n\n\t   t +RTS -p -RTS\n\n"
	    "\ttotal time  =        0.01 secs   (10 ticks @ 1000 us, 1 "
	    "processor)\n"
	    "\ttotal alloc =       1,000 bytes  (excludes profiling "
	    "overheads)\n\n"
	    "COST CENTRE   MODULE SRC       %time %alloc\n\n"
	    "total allocs  Main   T.hs:1:1   60.0   70.0\n"
	    "total time    Main   T.hs:2:1   40.0   30.0\n\n\n"
	    "                                                   individual"
	    "      inherited\n"
	    "COST CENTRE     MODULE SRC        no.     entries  %time %alloc"
	    "   %time %alloc\n\n"
	    "MAIN            MAIN   <built-in>   1           0    0.0    0.0"
	    "   100.0  100.0\n"
	    " total allocs   Main   T.hs:1:1     2           1   60.0   70.0"
	    "    60.0   70.0\n"
	    " total time     Main   T.hs:2:1     3           1   40.0   30.0"
	    "    40.0   30.0\n";
	struct pdb *db;
	char msg[1024];

	cr_assert_eq(read_bytes(text, sizeof(text) - 1, msg, sizeof(msg),
	    &db), PDB_OK, "%s", msg);
	cr_assert_eq(pdb_node_count(db), 3);
	cr_expect_eq(pdb_node_value(db, find_node(db, "total allocs"),
	    metric(db, "ticks")), 6);
	cr_expect_eq(pdb_node_value(db, find_node(db, "total time"),
	    metric(db, "alloc")), 300);
	expect_meta(db, "program", "t");
	pdb_free(db);
}

/*
 * The program is what comes before the RTS options, spaces and all, as
 * GHC's JSON names it; without RTS options on the command line, the
 * first word.
 */
Test(ghcprof, program_name_with_spaces)
{
	static const char *const cmd[][2] = {
		{ "my prog +RTS -P -RTS arg one", "my prog" },
		{ "my prog +RTS -P", "my prog" },
		{ "a +RTSx b +RTS -p -RTS", "a +RTSx b" },
		{ "prog arg one", "prog" },
	};
	char text[2048], msg[1024];
	struct pdb *db;
	size_t i;

	for (i = 0; i < sizeof(cmd) / sizeof(cmd[0]); i++) {
		snprintf(text, sizeof(text), "\tSun Nov 22 04:04 2026 Time and "
		    "Allocation Profiling Report  (Final)\n\n\t   %s\n\n"
		    "\ttotal time  =        0.01 secs   (10 ticks @ 1000 us, 1 "
		    "processor)\n"
		    "\ttotal alloc =       1,000 bytes  (excludes profiling "
		    "overheads)\n\n"
		    "                                         individual"
		    "      inherited\n"
		    "COST CENTRE MODULE SRC        no.     entries  %%time %%alloc"
		    "   %%time %%alloc\n\n"
		    "MAIN        MAIN   <built-in>   1           0  100.0  100.0"
		    "   100.0  100.0\n", cmd[i][0]);
		cr_assert_eq(read_bytes(text, strlen(text), msg, sizeof(msg),
		    &db), PDB_OK, "%s: %s", cmd[i][0], msg);
		expect_meta(db, "program", cmd[i][1]);
		expect_meta(db, "command", cmd[i][0]);
		pdb_free(db);
	}
}

/* Cut just before the line that carries 97.9% of the time. */
Test(ghcprof, truncated_detected_by_percentages)
{
	char *text, *p, msg[1024];
	size_t len;

	text = slurp(DATA "mj.prof", &len);
	cr_assert(text != NULL);
	p = strstr(text, "    rev      Main                  "
	    "Main.hs:(18,1)-(19,28) 267");
	cr_assert(p != NULL);
	cr_expect_neq(read_bytes(text, (size_t)(p - text), msg, sizeof(msg),
	    NULL), PDB_OK);
	cr_expect(strstr(msg, ":37: truncated: the stack on line 37 inherits "
	    "%time 94.7 but its lines account for 0.0") != NULL, "%s", msg);
	free(text);
}

Test(ghcprof, truncated_tool)
{
	char *text, *path;
	size_t len;
	struct run r;

	text = slurp(DATA "clausify.P.prof", &len);
	cr_assert(text != NULL);
	path = write_temp(text, len / 2, ".prof");
	run(&r, "ccs-flat %s", path);
	cr_expect_eq(r.status, 1);
	cr_expect(strncmp(r.err, "ccs-flat: ", 10) == 0 &&
	    strstr(r.err, path) != NULL, "stderr: %s", r.err);
	run_free(&r);
	/* at a line boundary: the sums tell */
	len = (size_t)(strstr(text, "    disin ") - text);
	unlink(path);
	free(path);
	path = write_temp(text, len, ".prof");
	run(&r, "ccs-flat %s", path);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "truncated or edited: the tree's ticks add up "
	    "to 2, the header says 209") != NULL, "stderr: %s", r.err);
	run_free(&r);
	unlink(path);
	free(path);
	free(text);
}

/*
 * Without -P the values are rounded percentages of the header's totals.
 * In spread.prof most stacks cost under 0.05% of the allocation: the
 * lines' %alloc add up to 89.6%, the bytes derived from them fall 10%
 * short of the header's total, and every share computed from them is off
 * (hot, 77.8% on its line and in GHC's own table, is 86.8% of them).  The
 * read succeeds, with a warning; the other fixtures, whose percentages add
 * up to 100% within GHC's rounding, get none.
 */
Test(ghcprof, rounded_percentages_far_from_100)
{
	static const char *const quiet[] = { "mj.prof", "clausify.prof",
	    "demo.prof", "quirks-N2.prof", "old-ghc68.prof",
	    "old-ghc82-N4.prof", "mj.P.prof", "demo.pa.prof" };
	char path[128];
	struct pdb *db;
	int64_t *inc;
	unsigned ma;
	size_t i;
	struct run r;

	cr_assert_eq(read_ghc(DATA "spread.prof", &db), PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_expect(strstr(warnings, "spread.prof: the tree's rounded %alloc "
	    "add up to 89.6%, not 100%: the bytes derived from them are far "
	    "off") != NULL, "warnings: %s", warnings);
	cr_expect(strstr(warnings, "%time") == NULL, "warnings: %s",
	    warnings);
	ma = metric(db, "alloc");
	inc = pdb_inclusive_new(db);
	cr_assert(inc != NULL);
	/* the root's bytes: 89.6% of the header's 69,085,368 */
	cr_expect(inc[ma] > 69085368 / 1000 * 895 &&
	    inc[ma] < 69085368 / 1000 * 897, "%lld", (long long)inc[ma]);
	free(inc);
	pdb_free(db);

	for (i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++) {
		snprintf(path, sizeof(path), DATA "%s", quiet[i]);
		cr_assert_eq(read_ghc(path, &db), PDB_OK, "%s: %s", path,
		    pdb_errmsg(db));
		cr_expect(strstr(warnings, "not 100%") == NULL, "%s: %s",
		    path, warnings);
		pdb_free(db);
	}

	run(&r, "ccs-flat -m alloc " DATA "spread.prof");
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.err, "ccs-flat: warning: " DATA "spread.prof: "
	    "the tree's rounded %alloc add up to 89.6%") != NULL,
	    "stderr: %s", r.err);
	run_free(&r);
}

/*
 * mj.prof with one label blanked, as GHC prints an empty label: the
 * indentation and the label become spaces up to the MODULE column.
 */
static char *
mj_with_empty_label(const char *indented_label)
{
	char from[64], to[64], *text, *out;

	text = slurp(DATA "mj.prof", NULL);
	cr_assert(text != NULL);
	snprintf(from, sizeof(from), "\n%s ", indented_label);
	snprintf(to, sizeof(to), "\n%*s ", (int)strlen(indented_label), "");
	out = replace(text, from, to);
	free(text);
	return out;
}

/* The length of text up to the line that starts with prefix. */
static size_t
upto_line(const char *text, const char *prefix)
{
	char want[64];
	const char *p;

	snprintf(want, sizeof(want), "\n%s", prefix);
	cr_assert((p = strstr(text, want)) != NULL, "no line '%s'", prefix);
	return (size_t)(p + 1 - text);
}

/* Complete, mj.prof with an empty label reads as with the label. */
Test(ghcprof, empty_label_complete)
{
	struct pdb *full, *db;
	char *text, msg[1024];
	uint32_t n;

	full = load_tree(DATA "mj.prof");
	text = mj_with_empty_label("   b");
	cr_assert_eq(read_bytes(text, strlen(text), msg, sizeof(msg), &db),
	    PDB_OK, "%s", msg);
	cr_expect(strstr(warnings, ":19: empty cost-centre label: depth 3 "
	    "inferred") != NULL, "warnings: %s", warnings);
	cr_expect_eq(pdb_node_count(db), pdb_node_count(full));
	for (n = 0; n < pdb_node_count(db) && n < pdb_node_count(full); n++) {
		cr_expect_eq(pdb_node_parent(db, n), pdb_node_parent(full, n));
		cr_expect_eq(pdb_node_value(db, n, 0),
		    pdb_node_value(full, n, 0));
	}
	pdb_free(db);
	pdb_free(full);
	free(text);
}

/*
 * Cut after line 35, before the 94.7% under h: the empty label on line
 * 19 may belong under any stack open above it, so it counts for each,
 * and the CAF on line 17 is still 92.1% short.
 */
Test(ghcprof, truncated_after_empty_label)
{
	char *text, *path;
	size_t len;
	struct run r;

	text = mj_with_empty_label("   b");
	len = upto_line(text, "  h          Main");
	expect_format_error(text, len, ":35: truncated: the stack on line 17 "
	    "inherits %time 100.0 but its lines account for 7.9");

	path = write_temp(text, len, ".prof");
	run(&r, "ccs-flat %s", path);
	cr_expect_eq(r.status, 1);
	cr_expect(strncmp(r.err, "ccs-flat: ", 10) == 0 &&
	    strstr(r.err, path) != NULL &&
	    strstr(r.err, ":35: truncated") != NULL, "stderr: %s", r.err);
	run_free(&r);
	unlink(path);
	free(path);
	free(text);
}

/*
 * Cut right after an empty label that inherits 94.7%: its children may
 * be any of the lines after it, and there are none.
 */
Test(ghcprof, truncated_under_empty_label)
{
	char *text;
	size_t len;

	text = mj_with_empty_label("   j");
	len = upto_line(text, "    rev      Main");
	expect_format_error(text, len, ":37: truncated: the stack on line 37 "
	    "inherits %time 94.7 but its lines account for 0.0");
	free(text);
}

/*
 * Rounding at its limit.  main costs 0.794%, 0.049% its own and 0.149%
 * each of the five empty labels below it: GHC prints 0.8, 0.0 and 0.1,
 * and the lines below fall 0.3 short, as far as seven figures rounded
 * to 0.1 can.  That reads; without the last line, 0.4 short, is cut.
 */
Test(ghcprof, empty_labels_rounding)
{
	static const char text[] =
	    "\tMon Jan  5 00:00 2026 Time and Allocation Profiling Report  "
	    "(Final)\n\n\t   t +RTS -p -RTS\n\n"
	    "\ttotal time  =      100.00 secs   (100000 ticks @ 1000 us, 1 "
	    "processor)\n"
	    "\ttotal alloc =     100,000 bytes  (excludes profiling "
	    "overheads)\n\n"
	    "COST CENTRE MODULE SRC no. entries  %time %alloc   %time %alloc\n"
	    "\n"
	    "MAIN        MAIN   b   1   0   99.2   99.2   100.0  100.0\n"
	    " main       Main   m   2   1    0.0    0.0     0.8    0.8\n"
	    "            Main   e   3   1    0.1    0.1     0.1    0.1\n"
	    "            Main   e   4   1    0.1    0.1     0.1    0.1\n"
	    "            Main   e   5   1    0.1    0.1     0.1    0.1\n"
	    "            Main   e   6   1    0.1    0.1     0.1    0.1\n"
	    "            Main   e   7   1    0.1    0.1     0.1    0.1\n";
	char msg[1024];
	struct pdb *db;
	size_t len;

	cr_assert_eq(read_bytes(text, sizeof(text) - 1, msg, sizeof(msg),
	    &db), PDB_OK, "%s", msg);
	cr_expect_eq(pdb_node_count(db), 7);
	pdb_free(db);

	len = upto_line(text, "            Main   e   7");
	expect_format_error(text, len, ":15: truncated: the stack on line 11 "
	    "inherits %time 0.8 but its lines account for 0.4");
}

Test(ghcprof, empty_and_headless)
{
	char *text, *p;

	expect_error("", "no cost-centre tree found");
	expect_error("\tnothing here\n", "no cost-centre tree found");
	text = slurp(DATA "mj.P.prof", NULL);
	cr_assert(text != NULL);
	/* header and column header only */
	p = strstr(text, "MAIN         MAIN ");
	cr_assert(p != NULL);
	*p = '\0';
	expect_error(text, "truncated: no cost centres after the tree's "
	    "column header");
	free(text);
}

Test(ghcprof, bad_lines)
{
	char *text, *bad;

	text = slurp(DATA "mj.P.prof", NULL);
	cr_assert(text != NULL);

	bad = replace(text, "   b         Main", "     b       Main");
	expect_error(bad, ":19: indentation jumps from 2 to 5");
	free(bad);

	bad = replace(text, "   b         Main                  "
	    "Main.hs:7:1-20         251           1    0.0    0.0     0.0    "
	    "2.7      0     12352", "   this line is not a cost centre");
	expect_error(bad, ":19: not a cost-centre line: expected a name, a "
	    "module and 8 numbers");
	free(bad);

	bad = replace(text, "\n\nMAIN         MAIN", "\n\n garbage\nMAIN  "
	    "       MAIN");
	expect_error(bad, ":16: not a cost-centre line");
	free(bad);

	bad = replace(text, "267        6612", "267 99999999999999999999");
	expect_error(bad, ":38: number too large: '99999999999999999999'");
	free(bad);

	bad = replace(text, "203623440", "9223372036854775807");
	free(text);
	text = replace(bad, "  79272", "9223372036854775807");
	expect_error(text, ":36: 64-bit overflow summing 'alloc' at cost "
	    "centre 'Main.h'");
	free(bad);
	free(text);
	text = slurp(DATA "mj.P.prof", NULL);

	bad = replace(text, "Main.hs:5:1-18         250",
	    "Main.hs:5:1-18         25x");
	expect_error(bad, ":18: no number in the 'no.' column: '25x'");
	free(bad);

	bad = replace(text, "97.9   96.7    97.9", "97.9   96.7    9x.9");
	expect_error(bad, ":38: bad number '9x.9'");
	free(bad);

	bad = replace(text, "MAIN         MAIN                  <built-in>",
	    " MAIN        MAIN                  <built-in>");
	expect_error(bad, ":16: the tree's first line is indented by 1");
	free(bad);

	bad = replace(text, "9264\n", "9264\nMAIN         MAIN           "
	    "       <built-in>             999           0    0.0    0.0     "
	    "0.0    0.0      0         0\n");
	expect_error(bad, ":45: a second root 'MAIN' (the tree has one, on "
	    "line 16)");
	free(bad);

	bad = replace(text, "  main       Main                  "
	    "Main.hs:3:1-23 ", "  main                                 "
	    "           ");
	expect_error(bad, ":35: no module name");
	free(bad);

	/* the module deleted: SRC moves into the MODULE column */
	bad = replace(text, "  main       Main                  "
	    "Main.hs:3:1-23         248", "  main       Main.hs:3:1-23      "
	    "                          248");
	expect_error(bad, ":35: no source location in the SRC column");
	free(bad);
	free(text);

	/* -p without the totals it needs */
	text = slurp(DATA "mj.prof", NULL);
	cr_assert(text != NULL);
	bad = replace(text, "\ttotal time", "\tsome time");
	expect_error(bad, "cannot turn percentages into ticks and bytes");
	free(bad);
	bad = replace(text, "(38 ticks @", "(38 ticks at");
	expect_error(bad, ":5: cannot read the 'total time' line");
	free(bad);
	free(text);
}

Test(ghcprof, invalid_utf8_labels_kept)
{
	char *text, *bad, msg[256];
	struct pdb *db;
	uint32_t n;

	text = slurp(DATA "mj.P.prof", NULL);
	cr_assert(text != NULL);
	/* three characters in three bytes: the MODULE column still matches */
	bad = replace(text, "      rev    Main", "      \xff\xfe\xc3    Main");
	cr_assert_eq(read_bytes(bad, strlen(bad), msg, sizeof(msg), &db),
	    PDB_OK, "%s", msg);
	n = find_node(db, "\xff\xfe\xc3");
	cr_expect_str_eq(pdb_cc_module(db, pdb_node_cc(db, n)), "Main");
	cr_expect_eq(pdb_node_depth(db, n), 6);
	pdb_free(db);
	free(bad);
	/* three continuation bytes count as no characters: found by bytes */
	bad = replace(text, "      rev    Main", "      \x80\x80\x80    Main");
	cr_assert_eq(read_bytes(bad, strlen(bad), msg, sizeof(msg), &db),
	    PDB_OK, "%s", msg);
	n = find_node(db, "\x80\x80\x80");
	cr_expect_str_eq(pdb_cc_module(db, pdb_node_cc(db, n)), "Main");
	cr_expect_eq(pdb_node_depth(db, n), 6);
	pdb_free(db);
	free(bad);
	free(text);
}

/*
 * A report padded in bytes, not characters: a label of k characters of
 * three bytes each takes 2k bytes more than its columns.  At k = 11 the
 * SRC token then starts at the MODULE column counted in characters, and
 * was taken for the module.
 */
Test(ghcprof, byte_padded_multibyte_labels)
{
	static const char head[] = "\tSat Nov 28 04:25 2026 Time and "
	    "Allocation Profiling Report  (Final)\n\n\t   C +RTS -p -RTS\n\n"
	    "\ttotal time  =        0.18 secs   (180 ticks @ 1000 us, 1 "
	    "processor)\n\ttotal alloc = 577,272,920 bytes  (excludes "
	    "profiling overheads)\n\nCOST CENTRE                         "
	    "MODULE                SRC             no.     entries  %time "
	    "%alloc   %time %alloc\n\nMAIN                                "
	    "MAIN                  <built-in>        1           0    0.0    "
	    "0.0   100.0  100.0\n CAF                                Main    "
	    "              <entire-module>   2           0    0.0    0.0   "
	    "100.0  100.0\n";
	char text[1024], label[64], msg[256];
	struct pdb_cc info;
	struct pdb *db;
	uint32_t n, cc;
	int k, i, len;

	for (k = 1; k <= 11; k++) {
		for (i = 0, label[0] = '\0'; i < k; i++)
			strcat(label, "\xe6\x97\xa5");	/* U+65E5 */
		/* The label's bytes end one blank before byte 36. */
		len = snprintf(text, sizeof(text), "%s  %-*s Main                  "
		    "C.hs:3:33-42      3        3000  100.0  100.0   100.0  "
		    "100.0\n", head, 33, label);
		cr_assert(len > 0 && (size_t)len < sizeof(text));
		cr_assert_eq(read_bytes(text, (size_t)len, msg, sizeof(msg),
		    &db), PDB_OK, "%d characters: %s", k, msg);
		n = find_node(db, label);
		cc = pdb_node_cc(db, n);
		cr_expect_str_eq(pdb_cc_module(db, cc), "Main", "%d", k);
		pdb_cc(db, cc, &info);
		cr_expect_str_eq(info.src, "C.hs:3:33-42", "%d", k);
		cr_expect_eq(pdb_node_depth(db, n), 2, "%d", k);
		pdb_free(db);
	}
}

Test(ghcprof, crlf)
{
	struct pdb *a, *b;
	char *text, *crlf, *d, msg[256];
	const char *s;
	size_t len;
	uint32_t n;

	text = slurp(DATA "mj.P.prof", &len);
	cr_assert(text != NULL);
	crlf = malloc(2 * len + 1);
	cr_assert(crlf != NULL);
	for (s = text, d = crlf; *s != '\0'; s++) {
		if (*s == '\n')
			*d++ = '\r';
		*d++ = *s;
	}
	cr_assert_eq(read_bytes(crlf, (size_t)(d - crlf), msg, sizeof(msg), &b),
	    PDB_OK, "%s", msg);
	a = load_tree(DATA "mj.P.prof");
	cr_assert_eq(pdb_node_count(a), pdb_node_count(b));
	for (n = 0; n < pdb_node_count(a); n++) {
		cr_expect_str_eq(pdb_cc_fullname(b, pdb_node_cc(b, n)),
		    pdb_cc_fullname(a, pdb_node_cc(a, n)));
		cr_expect_arr_eq(pdb_node_values(a, n), pdb_node_values(b, n),
		    3 * sizeof(int64_t));
	}
	expect_meta(b, "command", "mj +RTS -P -RTS");
	pdb_free(a);
	pdb_free(b);
	free(text);
	free(crlf);
}

/* ---- deep trees ---- */

/*
 * A -P profile that is one path of depth levels, laid out as GHC would:
 * the label column is as wide as the deepest line, so the file grows as
 * depth squared and depth stays in the thousands here.
 */
static char *
deep_profile(size_t depth, size_t *lenp)
{
	size_t w = depth + 8, i, len = 0, cap;
	char *s;
	int n;

	cap = 600 + depth * (w + 120);
	s = malloc(cap);
	cr_assert(s != NULL);
	n = snprintf(s, cap, "\tMon Jan  1 00:00 2026 Time and Allocation "
	    "Profiling Report  (Final)\n\n\t   deep +RTS -P -RTS\n\n"
	    "\ttotal time  =        0.01 secs   (%zu ticks @ 1000 us, 1 "
	    "processor)\n\ttotal alloc = %zu bytes  (excludes profiling "
	    "overheads)\n\n%-*s %-6s %-8s %-7s %11s  %5s %6s   %5s %6s  "
	    "%5s %9s\n\n", depth, 16 * depth, (int)w, "COST CENTRE", "MODULE",
	    "SRC", "no.", "entries", "%time", "%alloc", "%time", "%alloc",
	    "ticks", "bytes");
	len = (size_t)n;
	for (i = 0; i < depth; i++) {
		n = snprintf(s + len, cap - len, "%*sf%-*zu M      D.hs:1  "
		    "%7zu %11d  %5.1f  %5.1f   %5.1f  %5.1f  %5d %9d\n",
		    (int)i, "", (int)(w - i - 1), i, i + 1, 1, 0.0, 0.0, 0.0,
		    0.0, 1, 16);
		len += (size_t)n;
		cr_assert(len < cap);
	}
	*lenp = len;
	return s;
}

Test(ghcprof, deep_tree_in_memory)
{
	size_t depth = 4000, len;
	char *text = deep_profile(depth, &len), msg[256];
	struct pdb *db;
	int64_t *inc;
	uint32_t n, d, maxd = 0;

	cr_assert_eq(read_bytes(text, len, msg, sizeof(msg), &db), PDB_OK,
	    "%s", msg);
	cr_expect_eq(pdb_node_count(db), depth);
	for (n = pdb_walk_first(db, &d); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &d))
		if (d > maxd)
			maxd = d;
	cr_expect_eq(maxd, depth - 1);
	inc = pdb_inclusive_new(db);
	cr_assert(inc != NULL);
	cr_expect_eq(inc[0], (int64_t)depth);
	cr_expect_eq(inc[1], (int64_t)(16 * depth));
	free(inc);
	pdb_free(db);
	free(text);
}

Test(ghcprof, deep_tree_streamed_from_a_pipe)
{
	size_t depth = 6000, len;
	char *text = deep_profile(depth, &len), *path;
	struct run r;

	path = write_temp(text, len, ".prof");
	run(&r, "cat %s | ccs-flat --tsv -s f5999 -", path);
	cr_expect_eq(r.status, 0, "stderr: %s", r.err);
	cr_expect(strstr(r.out, "M\tf5999\tD.hs:1\t1\t1\t") != NULL,
	    "out: %.200s", r.out);
	/* the root is always selected: f0 keeps what f5999 does not */
	cr_expect(strstr(r.out, "M\tf0\tD.hs:1\t5999\t6000\t") != NULL,
	    "out: %.200s", r.out);
	run_free(&r);
	run(&r, "cat %s | ccs-flat --tsv -s f0 -", path);
	cr_expect(strstr(r.out, "M\tf0\tD.hs:1\t6000\t6000\t") != NULL,
	    "out: %.200s", r.out);
	run_free(&r);
	unlink(path);
	free(path);
	free(text);
}

/* ---- the tools on every profile ---- */

Test(ghcprof, tools_read_every_profile)
{
	static const char *const files[] = { "mj.prof", "mj.P.prof",
	    "clausify.prof", "clausify.P.prof", "demo.prof", "demo.P.prof",
	    "demo.pa.prof", "quirks-N2.prof", "old-ghc68.prof",
	    "old-ghc710.P.prof", "old-ghc82-N4.prof", "spread.prof" };
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		run(&r, "ccs-flat --tsv -m alloc " DATA "%s", files[i]);
		cr_expect_eq(r.status, 0, "%s: %s", files[i], r.err);
		cr_expect(strncmp(r.out, "module\tcost_centre\tsrc\tself\t"
		    "inherited", 37) == 0, "%s: %.80s", files[i], r.out);
		run_free(&r);
	}
}
