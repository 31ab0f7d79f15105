/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Helpers for the tests of the tools that chain through pipes
 * (ccs-select, ccs-prune, ccs-stacks, ccs-hot): run a command that must
 * succeed, compare the outputs of two command lines byte for byte or as
 * sets of lines, and compare ccs-flat tables up to what folded stacks
 * cannot carry.  Included by tests/tools/test_*.c only.
 */
#ifndef PIPECHECK_H
#define PIPECHECK_H

#include <criterion/criterion.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define PAPER		"tests/data/paper/"
#define THETA		PAPER "s2.3-theta.folded"
#define COMPRESSED	PAPER "s2.4-compressed.folded"
#define UNCOMPRESSED	PAPER "s2.4-uncompressed.folded"
#define FIG7		PAPER "fig7.folded"
#define PGCL		"tests/data/pgcl/synthetic-400.pgcl"
#define PGCL_DESEL	"tests/data/pgcl/synthetic-400.flat-ticks-deselect.tsv"
#define PGCL_HOT	"tests/data/pgcl/synthetic-400.hot-ticks.tsv"
#define GHC_P		"tests/data/ghc/mj.P.prof"
#define GHC_P2		"tests/data/ghc/clausify.P.prof"
#define GHC_P3		"tests/data/ghc/demo.P.prof"
#define GHC_JSON	"tests/data/ghc/demo.json"
#define ESCAPES		"tests/data/stacks/escapes.folded"

/* Run a command line that must exit 0 and print nothing on stderr. */
static inline void run_ok(struct run *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

static inline void
run_ok(struct run *r, const char *fmt, ...)
{
	va_list ap;
	char *cmd;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	cr_assert(n > 0 && (cmd = malloc((size_t)n + 1)) != NULL);
	va_start(ap, fmt);
	vsnprintf(cmd, (size_t)n + 1, fmt, ap);
	va_end(ap);
	run(r, "%s", cmd);
	cr_assert_eq(r->status, 0, "%s: exit %d: %s", cmd, r->status, r->err);
	cr_expect_str_empty(r->err, "%s: stderr: %s", cmd, r->err);
	free(cmd);
}

/* The output of a command that must succeed (malloc'd). */
static inline char *
output_of(const char *cmd)
{
	struct run r;

	run_ok(&r, "%s", cmd);
	free(r.err);
	return r.out;
}

/* Both command lines succeed and print the same bytes. */
static inline void
same_output(const char *a, const char *b)
{
	char *x = output_of(a), *y = output_of(b);

	cr_assert_str_eq(x, y, "outputs differ:\n  %s\n  %s", a, b);
	cr_assert(x[0] != '\0', "no output: %s", a);
	free(x);
	free(y);
}

/*
 * Both command lines succeed and print the same bytes, and the same
 * warnings: ccs-stacks warns of names that stand for more than one cost
 * centre, which some GHC profiles have.
 */
static inline void
same_output_and_warnings(const char *a, const char *b)
{
	struct run x, y;

	run(&x, "%s", a);
	run(&y, "%s", b);
	cr_assert_eq(x.status, 0, "%s: exit %d: %s", a, x.status, x.err);
	cr_assert_eq(y.status, 0, "%s: exit %d: %s", b, y.status, y.err);
	cr_assert_str_eq(x.out, y.out, "outputs differ:\n  %s\n  %s", a, b);
	cr_assert(x.out[0] != '\0', "no output: %s", a);
	cr_assert_str_eq(x.err, y.err, "warnings differ:\n  %s\n  %s", a, b);
	run_free(&x);
	run_free(&y);
}

static inline int
pipecheck_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The lines of s sorted (strcmp), with duplicates removed when uniq is
 * set, joined again: a canonical form of a set of lines.  Changes s.
 */
static inline char *
sorted_lines(char *s, int uniq)
{
	char **v = NULL, *p, *out;
	size_t n = 0, cap = 0, i, len = 0;

	for (p = strtok(s, "\n"); p != NULL; p = strtok(NULL, "\n")) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			cr_assert((v = realloc(v, cap * sizeof(*v))) != NULL);
		}
		v[n++] = p;
		len += strlen(p) + 1;
	}
	if (n > 0)
		qsort(v, n, sizeof(*v), pipecheck_cmp);
	cr_assert((out = malloc(len + 1)) != NULL);
	out[0] = '\0';
	for (p = out, i = 0; i < n; i++) {
		if (uniq && i > 0 && strcmp(v[i], v[i - 1]) == 0)
			continue;
		p += sprintf(p, "%s\n", v[i]);
	}
	free(v);
	return out;
}

/* Both succeed and print the same lines, in any order; uniq: as sets. */
static inline void
same_lines_uniq(const char *a, const char *b, int uniq)
{
	char *x = output_of(a), *y = output_of(b), *sx, *sy;

	sx = sorted_lines(x, uniq);
	sy = sorted_lines(y, uniq);
	cr_assert_str_eq(sx, sy, "lines differ:\n  %s\n  %s", a, b);
	cr_assert(sx[0] != '\0', "no output: %s", a);
	free(x);
	free(y);
	free(sx);
	free(sy);
}

/* Both succeed and print the same lines, in any order. */
static inline void
same_lines(const char *a, const char *b)
{
	same_lines_uniq(a, b, 0);
}

/*
 * A ccs-flat --tsv table reduced to what folded stacks carry: module,
 * cost centre, self and inherited, sorted, duplicates merged (two cost
 * centres of one name print the same row when both are zero), rows of
 * zero self and inherited left out unless keepzero.  Changes tsv.
 */
static inline char *
flat_core(char *tsv, int keepzero)
{
	char *line, *next, *f[6], *out, *p;
	size_t len = strlen(tsv) + 1;
	int i;

	cr_assert((out = malloc(len)) != NULL);
	p = out;
	*p = '\0';
	/* Skip the header. */
	line = strchr(tsv, '\n');
	for (line = line ? line + 1 : NULL; line != NULL && *line != '\0';
	    line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		f[0] = line;
		for (i = 1; i < 5; i++) {
			cr_assert((f[i] = strchr(f[i - 1], '\t')) != NULL,
			    "short row: %s", line);
			*f[i]++ = '\0';
		}
		if ((f[5] = strchr(f[4], '\t')) != NULL)
			*f[5] = '\0';		/* entries */
		if (!keepzero && strcmp(f[3], "0") == 0 &&
		    strcmp(f[4], "0") == 0)
			continue;
		p += sprintf(p, "%s\t%s\t%s\t%s\n", f[0], f[1], f[3], f[4]);
	}
	p = sorted_lines(out, 1);
	free(out);
	return p;
}

/* ccs-flat --tsv of two command lines agree on flat_core(). */
static inline void
same_flat_core(const char *a, const char *b, int keepzero)
{
	char *x = output_of(a), *y = output_of(b), *cx, *cy;

	cx = flat_core(x, keepzero);
	cy = flat_core(y, keepzero);
	cr_assert_str_eq(cx, cy, "flat profiles differ:\n  %s\n  %s", a, b);
	cr_assert(cx[0] != '\0', "no rows: %s", a);
	free(x);
	free(y);
	free(cx);
	free(cy);
}

#endif /* PIPECHECK_H */
