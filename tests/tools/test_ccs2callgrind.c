/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs2callgrind, checked through the reader people use: Debian's
 * callgrind_annotate parses every output without a warning; its program
 * totals and its per-function self costs equal ccs-flat's self column,
 * and with --inclusive=yes its figures equal ccs-flat's inherited column,
 * for every event, on every GHC, pgcl and paper fixture and on seeded
 * random profiles whose paths repeat cost centres (the root's too).
 * With --context 1 and 2 every split function's self and inclusive cost
 * equals what a brute force over all stacks gives (each stack counted
 * once per function on it), and no function exceeds 100 %.
 *
 * Functions are matched by name: "Module.label" as the writer makes it
 * safe, with its "#2" suffixes removed; cost centres that share a name
 * are compared as multisets, so the test does not depend on which of two
 * CAFs got "#2".
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats_int.h"
#include "testutil.h"
#include "toolcheck.h"

#define MAXEV	8
#define MAXCTX	2

/* ---- names ---- */

/* The writer's safe form of a name (fmt_callgrind.c, name_finish). */
static char *
canon_name(const char *s)
{
	size_t n = strlen(s), i;
	char *c;

	if (n == 0)
		return strdup("???");
	c = strdup(s);
	cr_assert(c != NULL);
	for (i = 0; i < n; i++)
		if ((unsigned char)c[i] < 0x20 || c[i] == 0x7f)
			c[i] = '?';
	for (i = 0; i < n && (c[i] == ' ' || c[i] == '\t'); i++)
		c[i] = '_';
	for (i = n; i > 0 && (c[i - 1] == ' ' || c[i - 1] == '\t'); i--)
		c[i - 1] = '_';
	return c;
}

/* A written name without its "#N" suffixes (before a "'" or the end). */
static char *
strip_suffixes(const char *s)
{
	char *c = malloc(strlen(s) + 1), *w = c;
	const char *p, *q;

	cr_assert(c != NULL);
	for (p = s; *p != '\0';) {
		if (*p == '#' && p[1] >= '0' && p[1] <= '9') {
			for (q = p + 1; *q >= '0' && *q <= '9'; q++)
				;
			if (*q == '\'' || *q == '\0') {
				p = q;
				continue;
			}
		}
		*w++ = *p++;
	}
	*w = '\0';
	return c;
}

/* ---- the callgrind file ---- */

struct cgfile {
	char		*ev[MAXEV];
	size_t		 nev;
	char		**fn;		/* by id - 1 */
	size_t		 nfn;
	int64_t		 summary[MAXEV], totals[MAXEV];
};

static size_t
parse_counts(const char *s, int64_t *v, size_t max)
{
	char *end;
	size_t n = 0;

	while (*s != '\0' && n < max) {
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		v[n++] = strtoll(s, &end, 10);
		cr_assert(end != s && (*end == ' ' || *end == '\0'),
		    "bad count in '%s'", s);
		s = end;
	}
	return n;
}

/*
 * Define or use "(id) name" / "(id)" of a compressed name table; returns
 * the id.  Ids must be defined once, before use.
 */
static size_t
name_ref(char ***tab, size_t *n, const char *val, int lineno)
{
	char *end;
	size_t id;

	cr_assert(val[0] == '(', "line %d: uncompressed name '%s'", lineno,
	    val);
	id = strtoul(val + 1, &end, 10);
	cr_assert(id > 0 && *end == ')', "line %d: bad id '%s'", lineno, val);
	if (end[1] == '\0') {
		cr_assert(id <= *n && (*tab)[id - 1] != NULL,
		    "line %d: id %zu used before it is defined", lineno, id);
		return id;
	}
	cr_assert(end[1] == ' ' && end[2] != '\0', "line %d: '%s'", lineno,
	    val);
	if (id > *n) {
		*tab = realloc(*tab, id * sizeof(**tab));
		cr_assert(*tab != NULL);
		memset(*tab + *n, 0, (id - *n) * sizeof(**tab));
		*n = id;
	}
	cr_assert((*tab)[id - 1] == NULL, "line %d: id %zu defined twice",
	    lineno, id);
	(*tab)[id - 1] = strdup(end + 2);
	return id;
}

/*
 * Read a callgrind file and check its form: the header, events before the
 * body, summary equal to totals, names compressed and defined once,
 * cfl= before every cfn=, a calls= count of at least 1 after every cfn=
 * and a cost line after every calls=.
 */
static void
read_cgfile(const char *path, struct cgfile *cg)
{
	char *text = slurp(path, NULL), *line, *save = NULL, *prev = "";
	char **files = NULL, *p;
	size_t nfiles = 0;
	int lineno = 0, body = 0, want_cost = 0, have_totals = 0;
	int64_t v[MAXEV + 1];

	cr_assert(text != NULL, "cannot read %s", path);
	memset(cg, 0, sizeof(*cg));
	cr_assert(strncmp(text, "# callgrind format\nversion: 1\n"
	    "creator: ccstools ", 48) == 0, "header: %.80s", text);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    prev = line, line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (want_cost) {
			cr_assert(line[0] >= '0' && line[0] <= '9',
			    "line %d: no cost line after calls=", lineno);
			want_cost = 0;
		}
		if (strncmp(line, "events: ", 8) == 0) {
			cr_assert(cg->nev == 0 && !body);
			for (p = strtok(line + 8, " "); p != NULL;
			    p = strtok(NULL, " ")) {
				cr_assert(cg->nev < MAXEV);
				cg->ev[cg->nev++] = strdup(p);
			}
		} else if (strncmp(line, "summary: ", 9) == 0) {
			cr_assert(cg->nev > 0 && !body);
			cr_assert_eq(parse_counts(line + 9, cg->summary,
			    MAXEV), cg->nev);
		} else if (strncmp(line, "totals: ", 8) == 0) {
			cr_assert_eq(parse_counts(line + 8, cg->totals,
			    MAXEV), cg->nev);
			have_totals = 1;
		} else if (strncmp(line, "fl=", 3) == 0 ||
		    strncmp(line, "cfl=", 4) == 0) {
			body = 1;
			name_ref(&files, &nfiles, strchr(line, '=') + 1, lineno);
		} else if (strncmp(line, "fn=", 3) == 0) {
			body = 1;
			name_ref(&cg->fn, &cg->nfn, line + 3, lineno);
		} else if (strncmp(line, "cfn=", 4) == 0) {
			cr_assert(strncmp(prev, "cfl=", 4) == 0,
			    "line %d: cfn= without cfl= before it", lineno);
			name_ref(&cg->fn, &cg->nfn, line + 4, lineno);
		} else if (strncmp(line, "calls=", 6) == 0) {
			cr_assert(strncmp(prev, "cfn=", 4) == 0,
			    "line %d: calls= not after cfn=", lineno);
			cr_assert(line[6] >= '1' && line[6] <= '9',
			    "line %d: call count below 1: %s", lineno, line);
			want_cost = 1;
		} else if (line[0] >= '0' && line[0] <= '9') {
			cr_assert(body, "line %d: cost line in the header",
			    lineno);
			cr_assert_eq(parse_counts(line, v, MAXEV + 1),
			    cg->nev + 1, "line %d: '%s'", lineno, line);
		}
	}
	cr_assert(cg->nev > 0, "no events line");
	cr_assert(have_totals && strncmp(prev, "totals: ", 8) == 0,
	    "totals: is not the last line");
	cr_assert_arr_eq(cg->summary, cg->totals, cg->nev * sizeof(int64_t));
	while (nfiles > 0)
		free(files[--nfiles]);
	free(files);
	free(text);
}

static void
cgfile_free(struct cgfile *cg)
{
	size_t i;

	for (i = 0; i < cg->nev; i++)
		free(cg->ev[i]);
	for (i = 0; i < cg->nfn; i++)
		free(cg->fn[i]);
	free(cg->fn);
}

/* ---- callgrind_annotate ---- */

struct afn {
	char		*key;		/* the function, suffixes removed */
	char		*full;		/* "file:function" as printed */
	int64_t		 self[MAXEV], incl[MAXEV];
};

struct ann {
	struct afn	*fn;
	size_t		 n;
	int64_t		 total[MAXEV];
};

/* Counts as callgrind_annotate prints them: "1,234", "-5" or ".". */
static const char *
annotate_counts(const char *s, size_t nev, int64_t *v)
{
	char buf[64];
	size_t e, k;

	for (e = 0; e < nev; e++) {
		while (*s == ' ')
			s++;
		for (k = 0; *s != ' ' && *s != '\0' && k + 1 < sizeof(buf); s++)
			if (*s != ',')
				buf[k++] = *s;
		buf[k] = '\0';
		cr_assert(k > 0, "missing count");
		v[e] = strcmp(buf, ".") == 0 ? 0 : strtoll(buf, NULL, 10);
	}
	while (*s == ' ')
		s++;
	return s;
}

/* Run callgrind_annotate on path; inclusive or self figures. */
static void
annotate_run(const char *path, const struct cgfile *cg, int inclusive,
    struct ann *a, int64_t *total)
{
	struct run r;
	char *line, *save = NULL;
	int64_t v[MAXEV];
	const char *name;
	int state = 0;
	size_t i;

	run(&r, "callgrind_annotate --auto=no --threshold=100 "
	    "--show-percs=no %s '%s'", inclusive ? "--inclusive=yes" : "",
	    path);
	cr_assert_eq(r.status, 0, "callgrind_annotate: %s", r.err);
	cr_assert_str_empty(r.err, "callgrind_annotate complains about %s",
	    path);
	for (line = strtok_r(r.out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(line);

		if (len > 15 && strcmp(line + len - 15, " PROGRAM TOTALS") == 0)
			annotate_counts(line, cg->nev, total);
		else if (len > 14 && strcmp(line + len - 14, " file:function") ==
		    0)
			state = 1;
		else if (state == 1 && line[0] == '-')
			state = 2;
		else if (state == 2 && line[0] == '-')
			break;
		else if (state == 2) {
			name = annotate_counts(line, cg->nev, v);
			for (i = 0; i < a->n; i++)
				if (strcmp(a->fn[i].full, name) == 0)
					break;
			if (i == a->n) {
				a->fn = realloc(a->fn, (a->n + 1) *
				    sizeof(*a->fn));
				cr_assert(a->fn != NULL);
				memset(&a->fn[i], 0, sizeof(a->fn[i]));
				a->fn[i].full = strdup(name);
				a->n++;
			}
			memcpy(inclusive ? a->fn[i].incl : a->fn[i].self, v,
			    cg->nev * sizeof(*v));
		}
	}
	cr_assert_eq(state, 2, "no function table in: %s", r.out);
	run_free(&r);
}

/*
 * Both runs of callgrind_annotate, functions matched to the file's
 * names: "file:fn" ends in ":" and fn (the longest that fits).
 */
static void
annotate(const char *path, const struct cgfile *cg, struct ann *a)
{
	int64_t t2[MAXEV];
	size_t i, j, best, bl, nl, fl;

	memset(a, 0, sizeof(*a));
	annotate_run(path, cg, 0, a, a->total);
	annotate_run(path, cg, 1, a, t2);
	cr_assert_arr_eq(a->total, t2, cg->nev * sizeof(int64_t));
	cr_assert_arr_eq(a->total, cg->summary, cg->nev * sizeof(int64_t));
	cr_assert_eq(a->n, cg->nfn, "callgrind_annotate shows %zu functions "
	    "of %zu", a->n, cg->nfn);
	for (i = 0; i < a->n; i++) {
		fl = strlen(a->fn[i].full);
		best = cg->nfn;
		bl = 0;
		for (j = 0; j < cg->nfn; j++) {
			nl = strlen(cg->fn[j]);
			if (nl + 1 <= fl && nl >= bl &&
			    strcmp(a->fn[i].full + fl - nl, cg->fn[j]) == 0 &&
			    a->fn[i].full[fl - nl - 1] == ':') {
				best = j;
				bl = nl;
			}
		}
		cr_assert(best < cg->nfn, "no function for '%s'",
		    a->fn[i].full);
		a->fn[i].key = strip_suffixes(cg->fn[best]);
	}
}

static void
ann_free(struct ann *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		free(a->fn[i].key);
		free(a->fn[i].full);
	}
	free(a->fn);
}

/* ---- comparing ---- */

struct row {
	char		*key;
	int64_t		 self, incl;
};

struct rows {
	struct row	*v;
	size_t		 n;
};

static void
rows_add(struct rows *r, const char *key, int64_t self, int64_t incl)
{
	r->v = realloc(r->v, (r->n + 1) * sizeof(*r->v));
	cr_assert(r->v != NULL);
	r->v[r->n].key = strdup(key);
	r->v[r->n].self = self;
	r->v[r->n].incl = incl;
	r->n++;
}

static int
row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c != 0)
		return c;
	if (x->self != y->self)
		return x->self < y->self ? -1 : 1;
	return (x->incl > y->incl) - (x->incl < y->incl);
}

static void
rows_free(struct rows *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i].key);
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

/* The same multiset of (function, self, inclusive). */
static void
rows_compare(struct rows *got, struct rows *want, const char *what)
{
	size_t i;

	qsort(got->v, got->n, sizeof(*got->v), row_cmp);
	qsort(want->v, want->n, sizeof(*want->v), row_cmp);
	for (i = 0; i < got->n && i < want->n; i++)
		cr_assert(row_cmp(&got->v[i], &want->v[i]) == 0,
		    "%s: callgrind_annotate has '%s' self %" PRId64
		    " inclusive %" PRId64 ", expected '%s' %" PRId64
		    " %" PRId64, what, got->v[i].key, got->v[i].self,
		    got->v[i].incl, want->v[i].key, want->v[i].self,
		    want->v[i].incl);
	cr_assert_eq(got->n, want->n, "%s: %zu functions, expected %zu",
	    what, got->n, want->n);
}

/* Undo ccs-flat's TSV escapes in place. */
static void
tsv_unescape(char *s)
{
	char *w = s;

	for (; *s != '\0'; s++) {
		if (*s == '\\' && s[1] != '\0') {
			s++;
			*w++ = *s == 't' ? '\t' : *s == 'n' ? '\n' :
			    *s == 'r' ? '\r' : *s;
		} else
			*w++ = *s;
	}
	*w = '\0';
}

/*
 * ccs-flat's self and inherited columns for event e, as rows keyed like
 * the writer's names.  sel is extra options (-s/-d) or "".
 */
static void
flat_rows(const char *path, const char *metric, const char *sel,
    struct rows *want)
{
	struct run r;
	char *line, *save = NULL, *f[6], *key, *c;
	int nf;

	run(&r, "ccs-flat --tsv -m '%s' %s '%s'", metric, sel, path);
	cr_assert_eq(r.status, 0, "ccs-flat: %s", r.err);
	line = strtok_r(r.out, "\n", &save);	/* header */
	cr_assert(line != NULL && strncmp(line, "module\tcost_centre\t", 19) ==
	    0);
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		for (nf = 0; nf < 6 && line != NULL; nf++)
			f[nf] = strsep(&line, "\t");
		cr_assert(nf >= 5);
		tsv_unescape(f[0]);
		tsv_unescape(f[1]);
		if (f[0][0] != '\0')
			cr_assert(asprintf(&key, "%s.%s", f[0], f[1]) > 0);
		else
			key = strdup(f[1]);
		c = canon_name(key);
		rows_add(want, c, strtoll(f[3], NULL, 10),
		    strtoll(f[4], NULL, 10));
		free(c);
		free(key);
	}
	run_free(&r);
}

/* ---- brute force over stacks ---- */

struct variant {
	uint32_t	 cc[MAXCTX + 1];
	unsigned	 len;
	uint32_t	 stamp;
	int64_t		 self[MAXEV], incl[MAXEV];
};

/*
 * For each function (a cost centre with its context nearest callers),
 * the own costs of the stacks whose top it is (self) and of the stacks on
 * which it occurs, once per stack (inclusive); keys as the writer names
 * them.  With no context and a root cost centre that recurs, the
 * writer's "(below main)" calls the root with the total.
 */
static void
brute_rows(struct pdb *db, unsigned context, const struct cgfile *cg,
    unsigned ev, struct rows *want)
{
	uint32_t nn = pdb_node_count(db), n, k, *path = NULL, d, i, j;
	struct variant *var = NULL, key;
	size_t nvar = 0, cap = 0, vi = 0;
	int recurs = 0, m;
	int64_t c, total = 0;
	char *name;

	m = pdb_metric_find(db, cg->ev[ev]);
	cr_assert(m >= 0, "event '%s' is no metric", cg->ev[ev]);
	path = malloc(((size_t)nn + 1) * sizeof(*path));
	cr_assert(path != NULL);
	for (n = 0; n < nn; n++) {
		c = pdb_node_value(db, n, m);
		total += c;
		for (d = 0, k = n; k != PDB_NONE; k = pdb_node_parent(db, k))
			path[d++] = k;
		/* path[d - 1] is the root, path[0] is n. */
		if (n != 0 && pdb_node_cc(db, n) == pdb_node_cc(db, 0))
			recurs = 1;
		for (i = d; i-- > 0;) {
			memset(&key, 0, sizeof(key));
			for (j = 0; j <= context && i + j < d; j++)
				key.cc[key.len++] = pdb_node_cc(db, path[i + j]);
			for (vi = 0; vi < nvar; vi++)
				if (var[vi].len == key.len && memcmp(var[vi].cc,
				    key.cc, key.len * sizeof(key.cc[0])) == 0)
					break;
			if (vi == nvar) {
				if (nvar == cap) {
					cap = cap ? 2 * cap : 64;
					var = realloc(var, cap * sizeof(*var));
					cr_assert(var != NULL);
				}
				var[nvar++] = key;
			}
			if (var[vi].stamp != n + 1) {
				var[vi].stamp = n + 1;
				var[vi].incl[0] += c;
			}
		}
		var[vi].self[0] += c;	/* vi is n's own function */
	}
	for (vi = 0; vi < nvar; vi++) {
		char *full = NULL, *part;
		size_t len = 0;
		FILE *f = open_memstream(&full, &len);

		for (j = 0; j < var[vi].len; j++) {
			part = canon_name(pdb_cc_fullname(db, var[vi].cc[j]));
			fprintf(f, "%s%s", j ? "'" : "", part);
			free(part);
		}
		fclose(f);
		rows_add(want, full, var[vi].self[0], var[vi].incl[0]);
		free(full);
	}
	if (context == 0 && recurs) {
		name = "(below main)";
		rows_add(want, name, 0, total);
	}
	free(var);
	free(path);
}

/* ---- the whole check ---- */

/*
 * ccs2callgrind [--context N] on path (whose tree is db); everything
 * callgrind_annotate reads back must agree with ccs-flat (no context) and
 * with the brute force.
 */
static void
check_profile(const char *path, struct pdb *db, unsigned context)
{
	struct rows got = { 0 }, want = { 0 };
	struct cgfile cg;
	struct ann a;
	struct run r;
	char *out = write_temp("", 0, NULL), what[600];
	int m, nonneg;
	size_t e, i;
	uint32_t n;

	run(&r, "ccs2callgrind --context %u -o %s '%s'", context, out, path);
	cr_assert_eq(r.status, 0, "ccs2callgrind %s: %s", path, r.err);
	cr_assert_str_empty(r.out);
	run_free(&r);
	read_cgfile(out, &cg);
	annotate(out, &cg, &a);
	for (e = 0; e < cg.nev; e++) {
		m = pdb_metric_find(db, cg.ev[e]);
		cr_assert(m >= 0);
		snprintf(what, sizeof(what), "%s --context %u, %s", path,
		    context, cg.ev[e]);
		/* Totals: the tree's, and the sum of the self costs. */
		{
			int64_t t = 0, s = 0;

			for (n = 0; n < pdb_node_count(db); n++)
				t += pdb_node_value(db, n, m);
			for (i = 0; i < a.n; i++)
				s += a.fn[i].self[e];
			cr_assert_eq(a.total[e], t, "%s: total %" PRId64
			    ", expected %" PRId64, what, a.total[e], t);
			cr_assert_eq(s, t, "%s: self costs sum to %" PRId64,
			    what, s);
		}
		/* No function exceeds 100 % of a metric that is never < 0. */
		nonneg = 1;
		for (n = 0; n < pdb_node_count(db); n++)
			if (pdb_node_value(db, n, m) < 0)
				nonneg = 0;
		for (i = 0; nonneg && i < a.n; i++)
			cr_assert(a.fn[i].incl[e] >= 0 && a.fn[i].incl[e] <=
			    a.total[e] && a.fn[i].self[e] >= 0,
			    "%s: %s has %" PRId64 " of %" PRId64, what,
			    a.fn[i].full, a.fn[i].incl[e], a.total[e]);

		/* Against the brute force. */
		for (i = 0; i < a.n; i++)
			rows_add(&got, a.fn[i].key, a.fn[i].self[e],
			    a.fn[i].incl[e]);
		brute_rows(db, context, &cg, (unsigned)e, &want);
		rows_compare(&got, &want, what);
		rows_free(&want);

		/* Against ccs-flat, leaving out the synthetic functions. */
		if (context == 0) {
			struct rows keep = { 0 };
			size_t j;

			flat_rows(path, cg.ev[e], "", &want);
			for (i = 0; i < got.n; i++) {
				for (j = 0; j < want.n; j++)
					if (strcmp(want.v[j].key,
					    got.v[i].key) == 0)
						break;
				if (j < want.n)
					rows_add(&keep, got.v[i].key,
					    got.v[i].self, got.v[i].incl);
				else
					cr_assert(got.v[i].incl == a.total[e] &&
					    (strcmp(got.v[i].key, "(root)") ==
					    0 || strcmp(got.v[i].key,
					    "(below main)") == 0),
					    "%s: '%s' is not in ccs-flat", what,
					    got.v[i].key);
			}
			rows_compare(&keep, &want, what);
			rows_free(&keep);
			rows_free(&want);
		}
		rows_free(&got);
	}
	ann_free(&a);
	cgfile_free(&cg);
	unlink(out);
	free(out);
}

/* ---- fixtures ---- */

static const struct {
	const char	*sub, *name;
} fixtures[] = {
	{ "ghc", "clausify.P.prof" }, { "ghc", "clausify.prof" },
	{ "ghc", "clausify.json" }, { "ghc", "demo.P.prof" },
	{ "ghc", "demo.pa.prof" }, { "ghc", "demo.prof" },
	{ "ghc", "demo.json" }, { "ghc", "mj.P.prof" }, { "ghc", "mj.prof" },
	{ "ghc", "mj.json" }, { "ghc", "quirks-N2.prof" },
	{ "ghc", "old-ghc68.prof" }, { "ghc", "old-ghc710.P.prof" },
	{ "ghc", "old-ghc82-N4.prof" },
	{ "pgcl", "synthetic-400.pgcl" },
	{ "paper", "fig7.folded" }, { "paper", "s2.3-theta.folded" },
	{ "paper", "s2.4-compressed.folded" },
	{ "paper", "s2.4-uncompressed.folded" },
};
#define NFIXTURES	(sizeof(fixtures) / sizeof(fixtures[0]))

/* Parameters are indices (pointers do not survive Criterion's exec):
 * fixture * 3 + context. */
static int fixture_cases[NFIXTURES * 3];

ParameterizedTestParameters(ccs2callgrind, fixture)
{
	size_t i;

	for (i = 0; i < NFIXTURES * 3; i++)
		fixture_cases[i] = (int)i;
	return cr_make_param_array(int, fixture_cases, NFIXTURES * 3);
}

ParameterizedTest(int *c, ccs2callgrind, fixture, .timeout = 120)
{
	const char *path = fixture(fixtures[*c / 3].sub,
	    fixtures[*c / 3].name);
	struct pdb *db;

	if (access(path, R_OK) != 0)
		cr_skip_test("no fixture %s", path);
	db = load_tree(path);
	check_profile(path, db, (unsigned)(*c % 3));
	pdb_free(db);
}

/* ---- random profiles ---- */

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * A seeded random tree of about 400 nodes, kept raw: paths repeat cost
 * centres (the root's too, in odd seeds), several cost centres share a
 * label and two share module and label.  Metrics: ticks, alloc (negative
 * now and then in seeds divisible by 3, like Clean's GC words) and
 * entries.  Written as a native dump.
 */
static struct pdb *
random_profile(unsigned seed, char **path)
{
	struct pdb *db = pdb_new();
	uint64_t s = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)seed * 7919);
	uint32_t mods[3], ccs[16], ncc = 0, n, parent, cc, i;
	unsigned mt, ma, me;
	char label[16], mname[16], src[32];
	int64_t v[3];
	FILE *f;

	cr_assert(db != NULL);
	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &mt) == 0);
	cr_assert(pdb_metric_add(db, "alloc", "bytes", PDB_COST, 0, &ma) == 0);
	cr_assert(pdb_metric_add(db, "entries", "calls", PDB_COUNT, 0,
	    &me) == 0);
	for (i = 0; i < 3; i++) {
		snprintf(mname, sizeof(mname), "M%u", i);
		cr_assert(pdb_module_add(db, mname, &mods[i]) == 0);
	}
	cr_assert(pdb_cc_add(db, "main", mods[0], "", 0, 1, &ccs[ncc++]) == 0);
	for (i = 0; i < 13; i++) {
		snprintf(label, sizeof(label), "f%u", i % 5);
		snprintf(src, sizeof(src), "F%u.hs:%u:1-9", i % 3, i + 1);
		cr_assert(pdb_cc_add(db, label, mods[i % 3], src, 0, i + 2,
		    &ccs[ncc++]) == 0);
	}
	/* Same module and label as f0 of M0, another src: two functions. */
	cr_assert(pdb_cc_add(db, "f0", mods[0], "F0.hs:99:1", 0, 20,
	    &ccs[ncc++]) == 0);
	cr_assert(pdb_root_new(db, ccs[0], &n) == 0);
	for (i = 1; i < 400; i++) {
		/* Mostly deep: a parent among the last few nodes. */
		parent = rnd(&s) % 4 == 0 ? (uint32_t)(rnd(&s) % i) :
		    i - 1 - (uint32_t)(rnd(&s) % (i < 6 ? i : 6));
		if (seed % 2 == 1 && rnd(&s) % 25 == 0)
			cc = ccs[0];
		else
			cc = ccs[1 + rnd(&s) % (ncc - 1)];
		cr_assert(pdb_node_append(db, parent, cc, &n) == 0);
		v[mt] = rnd(&s) % 3 == 0 ? 0 : (int64_t)(rnd(&s) % 50);
		v[ma] = (int64_t)(rnd(&s) % 1000);
		if (seed % 3 == 0 && rnd(&s) % 7 == 0)
			v[ma] = -v[ma];
		v[me] = (int64_t)(rnd(&s) % 4);
		cr_assert(pdb_node_add_values(db, n, v) == 0);
	}
	pdb_node_set_value(db, 0, mt, 3);
	*path = write_temp("", 0, NULL);
	cr_assert((f = fopen(*path, "wb")) != NULL);
	cr_assert(pdb_write(db, f, &pdb_fmt_ccsdump, NULL) == PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_assert(fclose(f) == 0);
	return db;
}

#define NSEEDS	12
static int random_cases[NSEEDS * 3];

ParameterizedTestParameters(ccs2callgrind, random)
{
	size_t i;

	for (i = 0; i < NSEEDS * 3; i++)
		random_cases[i] = (int)i;
	return cr_make_param_array(int, random_cases, NSEEDS * 3);
}

ParameterizedTest(int *c, ccs2callgrind, random, .timeout = 120)
{
	char *path;
	struct pdb *db = random_profile((unsigned)(*c / 3 + 1), &path);

	check_profile(path, db, (unsigned)(*c % 3));
	unlink(path);
	free(path);
	pdb_free(db);
}

/* The generator does make what the random test is for. */
Test(ccs2callgrind, random_profiles_repeat)
{
	char *path;
	struct pdb *db = random_profile(1, &path);
	uint32_t n, k, repeats = 0, root_repeats = 0;

	for (n = 1; n < pdb_node_count(db); n++) {
		if (pdb_node_cc(db, n) == pdb_node_cc(db, 0))
			root_repeats++;
		for (k = pdb_node_parent(db, n); k != PDB_NONE;
		    k = pdb_node_parent(db, k))
			if (pdb_node_cc(db, k) == pdb_node_cc(db, n)) {
				repeats++;
				break;
			}
	}
	cr_expect_gt(repeats, 50);
	cr_expect_gt(root_repeats, 0);
	unlink(path);
	free(path);
	pdb_free(db);
}

/* ---- the tool ---- */

Test(ccs2callgrind, help)
{
	check_help("ccs2callgrind");
}

Test(ccs2callgrind, version)
{
	check_version("ccs2callgrind", CCSTOOLS_VERSION_LINE("ccs2callgrind"));
}

Test(ccs2callgrind, bad_usage)
{
	check_bad_usage("ccs2callgrind", "--nosuch");
	check_bad_usage("ccs2callgrind", "a b");
	check_bad_arg("ccs2callgrind --context x",
	    "ccs2callgrind: --context: 'x': invalid number\n");
	check_bad_arg("ccs2callgrind --context 65",
	    "ccs2callgrind: --context: '65': out of range (0 to 64)\n");
}

Test(ccs2callgrind, missing_file)
{
	check_missing_file("ccs2callgrind", "ccs2callgrind");
}

Test(ccs2callgrind, count_metric_refused)
{
	struct run r;

	run(&r, "ccs2callgrind -m entries %s", fixture("ghc", "mj.P.prof"));
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs2callgrind: -m: 'entries' is a count, "
	    "not a cost: callgrind events are the cost metrics\n");
	cr_expect_str_empty(r.out);
	run_free(&r);	/* ccs-convert to callgrind says so as plainly, not as a fault
	 * of its output. */
	run(&r, "ccs-convert -t callgrind -m entries %s", fixture("ghc",
	    "mj.P.prof"));
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-convert: -m: 'entries' is a count, "
	    "not a cost: callgrind events are the cost metrics\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/* -m puts its metric first: the one KCacheGrind and the sort show. */
Test(ccs2callgrind, metric_first)
{
	struct run r;

	run(&r, "ccs2callgrind -m alloc %s", fixture("ghc", "mj.P.prof"));
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(has_line(r.out, "events: alloc ticks\n"), "%s", r.out);
	cr_expect(has_line(r.out, "summary: 210573856 47\n"), "%s", r.out);
	cr_expect(has_line(r.out, "cmd: mj +RTS -P -RTS\n"), "%s", r.out);
	run_free(&r);
}

/*
 * De-selection goes through the projection: callgrind_annotate's figures
 * equal ccs-flat -d's, from a file and from a pipe.
 */
Test(ccs2callgrind, deselect, .timeout = 60)
{
	const char *prof = fixture("ghc", "mj.P.prof");
	struct rows got = { 0 }, want = { 0 };
	struct cgfile cg;
	struct ann a;
	struct run r;
	size_t i, e;
	char *out = write_temp("", 0, NULL);

	run(&r, "ccs-select -d Main.rev -d 'GHC.*' %s | ccs2callgrind "
	    "-o %s && ccs2callgrind -d Main.rev -d 'GHC.*' %s | cmp - %s",
	    prof, out, prof, out);
	cr_assert_eq(r.status, 0, "%s", r.err);
	read_cgfile(out, &cg);
	annotate(out, &cg, &a);
	for (e = 0; e < cg.nev; e++) {
		for (i = 0; i < a.n; i++)
			rows_add(&got, a.fn[i].key, a.fn[i].self[e],
			    a.fn[i].incl[e]);
		flat_rows(prof, cg.ev[e], "-d Main.rev -d 'GHC.*'", &want);
		rows_compare(&got, &want, "mj.P.prof -d Main.rev");
		rows_free(&got);
		rows_free(&want);
	}
	/* Main.j inherits rev's 47 ticks as self now. */
	for (i = 0; i < a.n; i++)
		if (strcmp(a.fn[i].key, "Main.j") == 0)
			cr_expect_eq(a.fn[i].self[0], 46);
	unlink(out);
	free(out);
	ann_free(&a);
	cgfile_free(&cg);
	run_free(&r);
}

/* Pruning folds costs into parents: the totals stay. */
Test(ccs2callgrind, exclude_keeps_totals)
{
	struct run r;

	run(&r, "ccs2callgrind --exclude 'Main.j' --min-ticks 1 %s",
	    fixture("ghc", "mj.P.prof"));
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(has_line(r.out, "summary: 47 210573856\n"), "%s", r.out);
	cr_expect(strstr(r.out, " Main.j\n") == NULL, "%s", r.out);
	/* j's subtree folds into h, at Main.hs:13. */
	cr_expect(strstr(r.out, " Main.h\ncalls=1 13\n") != NULL, "%s",
	    r.out);
	cr_expect(strstr(r.out, "\n13 46 203702712\n") != NULL, "%s", r.out);
	run_free(&r);
}

/*
 * A format whose tree is its stream goes to the writer as it is read;
 * folded stacks, selection and pruning build the tree first.  Both ways
 * give the same file, from a file and from a pipe, with and without
 * context: --exclude with a pattern that matches nothing makes the tree.
 */
Test(ccs2callgrind, stream_and_tree_agree, .timeout = 120)
{
	static const char *const formats[] = { "pgcl", "dump", "ghc-prof",
	    "ghc-json", "folded", "json" };
	static const char *const contexts[] = { "", "--context 2" };
	char *gen = write_temp("", 0, NULL), *a = write_temp("", 0, NULL),
	    *b = write_temp("", 0, NULL);
	struct run r;
	size_t i, k;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		run(&r, "ccs-gen -q -t %s -n 3000 --seed %zu -o %s",
		    formats[i], i + 3, gen);
		cr_assert_eq(r.status, 0, "%s", r.err);
		run_free(&r);
		for (k = 0; k < sizeof(contexts) / sizeof(contexts[0]); k++) {
			run(&r, "ccs2callgrind %s %s -o %s && "
			    "ccs2callgrind %s --exclude no-such-cc %s -o %s && "
			    "cmp %s %s && ccs2callgrind %s - <%s | cmp - %s",
			    contexts[k], gen, a, contexts[k], gen, b, a, b,
			    contexts[k], gen, a);
			cr_expect_eq(r.status, 0, "%s %s: %s", formats[i],
			    contexts[k], r.err);
			run_free(&r);
		}
		/* The file is a real one: it has calls. */
		run(&r, "grep -c '^calls=' %s", a);
		cr_expect_gt(atoi(r.out), 100, "%s: %s", formats[i], r.out);
		run_free(&r);
	}
	unlink(gen);
	unlink(a);
	unlink(b);
	free(gen);
	free(a);
	free(b);
}
