/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-tree, run as a built binary: the common tool checks; on every GHC
 * -P profile of the corpus, GHC's own individual and inherited columns
 * reproduced, read from the .prof file by a parser of this test's own;
 * the readable and TSV forms on the paper's Fig. 7; --depth and
 * --min-pct hiding subtrees with nothing lost (every shown stack's
 * inherited cost is its individual cost plus its shown children's and
 * the hidden lines'); the selection; a synthetic root; and a tree a
 * million levels deep.
 */
#include <criterion/criterion.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats_int.h"
#include "testutil.h"
#include "toolcheck.h"
#include "pipecheck.h"

#define MAXTOK	64

/* ---- what every tool has ---- */

Test(ccs_tree, help)
{
	check_help("ccs-tree");
}

Test(ccs_tree, version)
{
	check_version("ccs-tree", CCSTOOLS_VERSION_LINE("ccs-tree"));
}

Test(ccs_tree, bad_usage)
{
	check_bad_usage("ccs-tree", "--no-such-option " FIG7);
	check_bad_usage("ccs-tree", "-x " FIG7);
	check_bad_usage("ccs-tree", FIG7 " " THETA);
	check_bad_usage("ccs-tree", "--depth");
	check_bad_usage("ccs-tree", "--min-pct 101 " FIG7);
	check_bad_usage("ccs-tree", "--min-pct x " FIG7);
}

Test(ccs_tree, missing_file)
{
	check_missing_file("ccs-tree", "ccs-tree");
}

Test(ccs_tree, bad_arguments)
{
	struct run r;

	check_bad_arg("ccs-tree --depth x " FIG7,
	    "ccs-tree: --depth: 'x': invalid number\n");
	run(&r, "ccs-tree --depth -1 " FIG7);
	cr_expect_eq(r.status, 2);
	cr_expect(strncmp(r.err, "ccs-tree: --depth: '-1': out of range",
	    37) == 0, "%s", r.err);
	run_free(&r);
	run(&r, "ccs-tree -m nosuch " FIG7);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-tree: -m: no metric 'nosuch' in this "
	    "profile; it has: samples\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/* ---- a small reader of whitespace-separated lines ---- */

/* Split line (modified) at blanks; returns the number of tokens. */
static int
split_ws(char *line, char **tok)
{
	int n = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '\n' || n == MAXTOK)
			return n;
		tok[n++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		if (*p == '\0')
			return n;
		*p++ = '\0';
	}
}

/* Split line (modified) at tabs; returns the number of fields. */
static int
split_tab(char *line, char **tok)
{
	int n = 0;
	char *p = line;

	tok[n++] = p;
	for (; *p != '\0' && *p != '\n'; p++)
		if (*p == '\t' && n < MAXTOK) {
			*p = '\0';
			tok[n++] = p + 1;
		}
	*p = '\0';
	return n;
}

/* Undo ccs-tree's TSV escapes in place: \\t, \\n, \\r, \\\\. */
static void
unescape_tsv(char *s)
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

static int
indent_of(const char *line)
{
	int n = 0;

	while (line[n] == ' ')
		n++;
	return n;
}

/* The next line of *s, NUL-terminated in a malloc'd copy, or NULL. */
static char *
next_line(const char **s)
{
	const char *e;
	char *l;

	if (**s == '\0')
		return NULL;
	e = strchr(*s, '\n');
	if (e == NULL)
		e = *s + strlen(*s);
	l = strndup(*s, (size_t)(e - *s));
	cr_assert(l != NULL);
	*s = *e == '\n' ? e + 1 : e;
	return l;
}

/* ---- GHC's report, read independently ---- */

struct ghcrow {
	int		 depth;
	char		 label[128], module[128];
	long long	 entries, ticks, bytes;
	long long	 inhticks, inhbytes;	/* summed by the test */
	char		 pct[4][16];	/* %time %alloc, inherited %time %alloc */
};

struct ghcprof {
	struct ghcrow	*rows;
	size_t		 n;
	long long	 total_ticks, total_bytes;	/* from the header */
};

static long long
nocommas(const char *s)
{
	long long v = 0;

	for (; *s != '\0' && *s != ' '; s++)
		if (isdigit((unsigned char)*s))
			v = v * 10 + (*s - '0');
	return v;
}

/*
 * Read a GHC -P report: the header's totals, then the tree section, one
 * row per line, the depth from the indentation, the numbers peeled off
 * the end of the line (no., entries, four percentages, ticks, bytes).
 * Inherited ticks and bytes are summed here from the individual ones.
 */
static void
read_ghc(const char *path, struct ghcprof *g)
{
	char *text = slurp(path, NULL), *line, *tok[MAXTOK], *p;
	struct ghcrow *r;
	const char *s;
	size_t *last = NULL, *parent, cap = 0, i;
	int in = 0, n;

	cr_assert(text != NULL, "cannot read %s", path);
	memset(g, 0, sizeof(*g));
	g->rows = calloc(strlen(text) / 20 + 1, sizeof(*g->rows));
	cr_assert(g->rows != NULL);
	for (s = text; (line = next_line(&s)) != NULL; free(line)) {
		if ((p = strstr(line, "total time")) != NULL &&
		    (p = strchr(p, '(')) != NULL)
			cr_assert(sscanf(p, "(%lld ticks", &g->total_ticks) == 1);
		if ((p = strstr(line, "total alloc =")) != NULL) {
			for (p += 13; *p == ' '; p++)
				;
			g->total_bytes = nocommas(p);
		}
		if (!in) {
			in = strncmp(line, "COST CENTRE", 11) == 0 &&
			    strstr(line, " no.") != NULL &&
			    strstr(line, "entries") != NULL;
			if (in)
				cr_assert(strstr(line, "ticks") != NULL &&
				    strstr(line, "bytes") != NULL,
				    "%s is not a -P report", path);
			continue;
		}
		if (line[strspn(line, " ")] == '\0')
			continue;
		r = &g->rows[g->n];
		r->depth = indent_of(line);
		n = split_ws(line, tok);
		cr_assert(n >= 10, "%s: short line", path);
		snprintf(r->label, sizeof(r->label), "%s", tok[0]);
		snprintf(r->module, sizeof(r->module), "%s", tok[1]);
		r->entries = atoll(tok[n - 7]);
		for (i = 0; i < 4; i++)
			snprintf(r->pct[i], sizeof(r->pct[i]), "%s",
			    tok[n - 6 + (int)i]);
		r->ticks = r->inhticks = atoll(tok[n - 2]);
		r->bytes = r->inhbytes = atoll(tok[n - 1]);
		if ((size_t)r->depth + 1 > cap) {
			cap = (size_t)r->depth + 16;
			last = realloc(last, cap * sizeof(*last));
			cr_assert(last != NULL);
		}
		last[r->depth] = g->n;
		g->n++;
	}
	cr_assert(g->n > 0, "%s: no tree", path);
	cr_assert(g->total_ticks > 0 && g->total_bytes > 0);
	/* Sum each row into its parent, the last row one level up. */
	parent = calloc(g->n, sizeof(*parent));
	cr_assert(parent != NULL);
	for (i = 0; i < g->n; i++) {
		n = g->rows[i].depth;
		last[n] = i;
		parent[i] = n == 0 ? SIZE_MAX : last[n - 1];
	}
	for (i = g->n; i-- > 0;)
		if (parent[i] != SIZE_MAX) {
			g->rows[parent[i]].inhticks += g->rows[i].inhticks;
			g->rows[parent[i]].inhbytes += g->rows[i].inhbytes;
		}
	free(parent);
	free(last);
	free(text);
}

/*
 * ccs-tree reproduces GHC's columns.  ccs-tree divides by the tree's
 * total (the root's inherited cost), which on a -P report is the header's
 * "total time" ticks and "total alloc" bytes (checked below), and
 * computes 100 * x / total the way GHC's report does, as
 * (double)x / (double)total * 100.0 printed with "%.1f", so no last-digit
 * tolerance is needed: every percentage must match as a string.
 */
static void
check_ghc(const char *path)
{
	struct ghcprof g;
	struct ghcrow *w;
	struct run r, t1, t2;
	char *line, *tok[MAXTOK], want[128], *f1[MAXTOK], *f2[MAXTOK];
	char *l1, *l2;
	const char *s, *s1, *s2;
	size_t i = 0;
	int n, depth, in = 0;

	read_ghc(path, &g);
	cr_expect_eq(g.rows[0].inhticks, g.total_ticks,
	    "%s: the tree's ticks do not add up to the header's", path);
	cr_expect_eq(g.rows[0].inhbytes, g.total_bytes);

	run_ok(&r, "ccs-tree %s", path);
	snprintf(want, sizeof(want), "total:  %lld ticks, %lld bytes (alloc)",
	    g.total_ticks, g.total_bytes);
	cr_expect(has_line(r.out, want), "%s: no line '%s' in\n%s", path,
	    want, r.out);
	for (s = r.out; (line = next_line(&s)) != NULL; free(line)) {
		if (!in) {
			in = strncmp(line, "COST CENTRE", 11) == 0;
			continue;
		}
		if (*line == '\0')
			continue;
		cr_assert(i < g.n, "%s: more rows than GHC's", path);
		w = &g.rows[i];
		depth = indent_of(line);
		n = split_ws(line, tok);
		cr_assert(n >= 11, "%s: row %zu: short", path, i);
		cr_expect_eq(depth, w->depth, "%s: row %zu: depth", path, i);
		cr_expect_str_eq(tok[0], w->label, "%s: row %zu", path, i);
		cr_expect_str_eq(tok[1], w->module, "%s: row %zu", path, i);
		/* entries ticks %ticks alloc %alloc, then inherited. */
		cr_expect_eq(atoll(tok[n - 9]), w->entries, "%s: %s entries",
		    path, w->label);
		cr_expect_eq(atoll(tok[n - 8]), w->ticks, "%s: %s ticks", path,
		    w->label);
		cr_expect_str_eq(tok[n - 7], w->pct[0], "%s: row %zu %%time",
		    path, i);
		cr_expect_eq(atoll(tok[n - 6]), w->bytes, "%s: %s bytes", path,
		    w->label);
		cr_expect_str_eq(tok[n - 5], w->pct[1], "%s: row %zu %%alloc",
		    path, i);
		cr_expect_eq(atoll(tok[n - 4]), w->inhticks);
		cr_expect_str_eq(tok[n - 3], w->pct[2],
		    "%s: row %zu inherited %%time", path, i);
		cr_expect_eq(atoll(tok[n - 2]), w->inhbytes);
		cr_expect_str_eq(tok[n - 1], w->pct[3],
		    "%s: row %zu inherited %%alloc", path, i);
		i++;
	}
	cr_expect_eq(i, g.n, "%s: %zu rows, GHC has %zu", path, i, g.n);
	run_free(&r);

	/* The TSV form, one metric at a time: the same rows. */
	run_ok(&t1, "ccs-tree --tsv -m ticks %s", path);
	run_ok(&t2, "ccs-tree --tsv -m alloc %s", path);
	s1 = t1.out;
	s2 = t2.out;
	line = next_line(&s1);
	cr_expect_str_eq(line, "depth\tmodule\tcost_centre\tsrc\tentries\t"
	    "individual\tinherited");
	free(line);
	free(next_line(&s2));
	for (i = 0; i < g.n; i++) {
		l1 = next_line(&s1);
		l2 = next_line(&s2);
		w = &g.rows[i];
		cr_assert(l1 != NULL && l2 != NULL, "%s: TSV short", path);
		cr_assert_eq(split_tab(l1, f1), 7);
		cr_assert_eq(split_tab(l2, f2), 7);
		cr_expect_eq(atoi(f1[0]), w->depth);
		unescape_tsv(f1[1]);
		unescape_tsv(f1[2]);
		cr_expect_str_eq(f1[1], w->module);
		cr_expect_str_eq(f1[2], w->label);
		cr_expect_eq(atoll(f1[4]), w->entries);
		cr_expect_eq(atoll(f1[5]), w->ticks);
		cr_expect_eq(atoll(f1[6]), w->inhticks);
		cr_expect_eq(atoll(f2[5]), w->bytes);
		cr_expect_eq(atoll(f2[6]), w->inhbytes);
		cr_expect_str_eq(f1[3], f2[3]);
		free(l1);
		free(l2);
	}
	cr_expect_str_empty(s1, "%s: TSV has more rows", path);
	cr_expect_str_empty(s2);
	run_free(&t1);
	run_free(&t2);
	free(g.rows);
}

Test(ccs_tree, ghc_columns_mj)
{
	check_ghc(GHC_P);
}

Test(ccs_tree, ghc_columns_clausify)
{
	check_ghc(GHC_P2);
}

Test(ccs_tree, ghc_columns_demo)
{
	check_ghc(GHC_P3);
}

/* ---- the paper's Fig. 7 ---- */

Test(ccs_tree, fig7_readable)
{
	struct run r;

	run_ok(&r, "ccs-tree " FIG7);
	cr_expect_str_eq(r.out,
	    "total:  1237 samples\n"
	    "\n"
	    "                                   individual         inherited\n"
	    "COST CENTRE     MODULE  SRC  samples %samples  samples %samples\n"
	    "\n"
	    "Main_main                          0      0.0     1237    100.0\n"
	    " Main_a                            0      0.0     1237    100.0\n"
	    "  Main_c                           0      0.0     1188     96.0\n"
	    "   Main_f                          0      0.0     1188     96.0\n"
	    "    Main_h                         0      0.0     1181     95.5\n"
	    "     Main_j                        0      0.0     1181     95.5\n"
	    "      Main_rev                  1181     95.5     1181     95.5\n"
	    "    Main_i                         0      0.0        7      0.6\n"
	    "     Main_rev                      7      0.6        7      0.6\n"
	    "  Main_b                           0      0.0       49      4.0\n"
	    "   Main_e                          0      0.0       26      2.1\n"
	    "    Main_g                         0      0.0       26      2.1\n"
	    "     Main_j                        0      0.0       16      1.3\n"
	    "      Main_rev                    16      1.3       16      1.3\n"
	    "     Main_rev                     10      0.8       10      0.8\n"
	    "   Main_d                          0      0.0       23      1.9\n"
	    "    Main_g                         0      0.0       23      1.9\n"
	    "     Main_rev                     11      0.9       11      0.9\n"
	    "     Main_j                        0      0.0       12      1.0\n"
	    "      Main_rev                    12      1.0       12      1.0\n");
	run_free(&r);
}

/* De-selecting Main_rev: its cost moves to its callers (Main_j 1209). */
Test(ccs_tree, fig7_deselect)
{
	struct run r, s;

	run_ok(&r, "ccs-tree --tsv -d Main_rev " FIG7);
	cr_expect_str_eq(r.out,
	    "depth\tmodule\tcost_centre\tsrc\tentries\tindividual\tinherited\n"
	    "0\t\tMain_main\t\t\t0\t1237\n"
	    "1\t\tMain_a\t\t\t0\t1237\n"
	    "2\t\tMain_c\t\t\t0\t1188\n"
	    "3\t\tMain_f\t\t\t0\t1188\n"
	    "4\t\tMain_h\t\t\t0\t1181\n"
	    "5\t\tMain_j\t\t\t1181\t1181\n"
	    "4\t\tMain_i\t\t\t7\t7\n"
	    "2\t\tMain_b\t\t\t0\t49\n"
	    "3\t\tMain_e\t\t\t0\t26\n"
	    "4\t\tMain_g\t\t\t10\t26\n"
	    "5\t\tMain_j\t\t\t16\t16\n"
	    "3\t\tMain_d\t\t\t0\t23\n"
	    "4\t\tMain_g\t\t\t11\t23\n"
	    "5\t\tMain_j\t\t\t12\t12\n");
	/* The same as projecting first with ccs-select. */
	run_ok(&s, "ccs-select -d Main_rev " FIG7 " | ccs-tree --tsv");
	cr_expect_str_eq(s.out, r.out);
	run_free(&r);
	run_free(&s);
}

/* ---- hiding ---- */

Test(ccs_tree, depth_tsv)
{
	struct run r;

	run_ok(&r, "ccs-tree --tsv --depth 2 " GHC_P);
	cr_expect_str_eq(r.out,
	    "depth\tmodule\tcost_centre\tsrc\tentries\tindividual\tinherited\n"
	    "0\tMAIN\tMAIN\t<built-in>\t0\t0\t47\n"
	    "1\tMain\tCAF\t<entire-module>\t0\t0\t47\n"
	    "2\tMain\ta\tMain.hs:5:1-18\t1\t0\t1\n"
	    "3\t\t... 16 more stacks\t\t\t\t1\n"
	    "2\tMain\tmain\tMain.hs:3:1-23\t1\t0\t0\n"
	    "2\tMain\th\tMain.hs:13:1-20\t0\t0\t46\n"
	    "3\t\t... 2 more stacks\t\t\t\t46\n"
	    "1\tGHC.Conc.Signal\tCAF\t<entire-module>\t0\t0\t0\n"
	    "1\tGHC.IO.Encoding\tCAF\t<entire-module>\t0\t0\t0\n"
	    "1\tGHC.IO.Encoding.Iconv\tCAF\t<entire-module>\t0\t0\t0\n"
	    "1\tGHC.IO.Handle.FD\tCAF\t<entire-module>\t0\t0\t0\n"
	    "1\tGHC.IO.Handle.Text\tCAF\t<entire-module>\t0\t0\t0\n"
	    "1\tMain\tmain\tMain.hs:3:1-23\t0\t0\t0\n");
	run_free(&r);
	run_ok(&r, "ccs-tree --tsv --depth 0 " GHC_P);
	cr_expect_str_eq(r.out,
	    "depth\tmodule\tcost_centre\tsrc\tentries\tindividual\tinherited\n"
	    "0\tMAIN\tMAIN\t<built-in>\t0\t0\t47\n"
	    "1\t\t... 28 more stacks\t\t\t\t47\n");
	run_free(&r);
}

Test(ccs_tree, min_pct_readable)
{
	struct run r;

	run_ok(&r, "ccs-tree -m ticks --min-pct 50 " GHC_P);
	cr_expect_str_eq(r.out,
	    "program: mj\n"
	    "total:  47 ticks\n"
	    "\n"
	    "                                                        "
	    "         individual     inherited\n"
	    "COST CENTRE           MODULE  SRC                     en"
	    "tries  ticks %ticks  ticks %ticks\n"
	    "\n"
	    "MAIN                  MAIN    <built-in>                "
	    "    0      0    0.0     47  100.0\n"
	    " CAF                  Main    <entire-module>           "
	    "    0      0    0.0     47  100.0\n"
	    "  h                   Main    Main.hs:13:1-20           "
	    "    0      0    0.0     46   97.9\n"
	    "   j                  Main    Main.hs:16:1-41           "
	    "    1      0    0.0     46   97.9\n"
	    "    rev               Main    Main.hs:(18,1)-(19,28)    "
	    " 6612     46   97.9     46   97.9\n"
	    "  ... 18 more stacks                                    "
	    "                         1    2.1\n"
	    " ... 6 more stacks                                      "
	    "                         0    0.0\n");
	run_free(&r);
}

/*
 * Nothing disappears: in the TSV of any --depth and --min-pct, the
 * inherited cost of every shown stack is its individual cost plus the
 * inherited costs of the lines one level below it (its shown children
 * and the line for its hidden ones), the first line carries the total,
 * and the shown and hidden stacks together are all the stacks.
 */
static void
check_conserved(const char *opts, const char *path)
{
	struct run all, r;
	char *line, *f[MAXTOK];
	const char *s;
	long long *inh = NULL, *sum = NULL, *own = NULL, total = -1;
	long long shown = 0, hidden = 0, nall;
	size_t cap = 0;
	int d, depth = -1, nf;

	run_ok(&all, "ccs-tree --tsv %s", path);
	nall = count_lines(all.out) - 1;
	run_ok(&r, "ccs-tree --tsv %s %s", opts, path);
	s = r.out;
	free(next_line(&s));
	while ((line = next_line(&s)) != NULL) {
		nf = split_tab(line, f);
		cr_assert_eq(nf, 7, "%s %s: %d fields", opts, path, nf);
		d = atoi(f[0]);
		cr_assert(d <= depth + 1, "%s %s: level jumps", opts, path);
		if ((size_t)d + 2 > cap) {
			cap = (size_t)d + 64;
			inh = realloc(inh, cap * sizeof(*inh));
			sum = realloc(sum, cap * sizeof(*sum));
			own = realloc(own, cap * sizeof(*own));
			cr_assert(inh && sum && own);
		}
		/* Close the levels this line ends. */
		for (; depth >= d; depth--)
			cr_expect_eq(own[depth] + sum[depth + 1], inh[depth],
			    "%s %s: level %d does not add up", opts, path,
			    depth);
		if (d > 0)
			sum[d] += atoll(f[6]);
		if (strncmp(f[2], "... ", 4) == 0) {
			hidden += atoll(f[2] + 4);
			cr_expect_str_empty(f[5]);
		} else {
			shown++;
			if (total < 0)
				total = atoll(f[6]);
			inh[d] = atoll(f[6]);
			own[d] = atoll(f[5]);
			sum[d + 1] = 0;
			depth = d;
		}
		free(line);
	}
	for (; depth >= 0; depth--)
		cr_expect_eq(own[depth] + sum[depth + 1], inh[depth],
		    "%s %s: level %d does not add up", opts, path, depth);
	cr_expect_eq(shown + hidden, nall, "%s %s: %lld shown + %lld hidden "
	    "of %lld", opts, path, shown, hidden, nall);
	cr_expect_gt(total, 0);
	free(inh);
	free(sum);
	free(own);
	run_free(&all);
	run_free(&r);
}

Test(ccs_tree, hiding_conserves)
{
	static const char *const opts[] = {
		"", "--depth 0", "--depth 1", "--depth 3", "--depth 6",
		"--min-pct 0.5", "--min-pct 1", "--min-pct 5", "--min-pct 50",
		"--min-pct 100", "--depth 4 --min-pct 2", "-m alloc --min-pct 3",
	};
	static const char *const files[] = { GHC_P, GHC_P2, GHC_P3, PGCL,
	    FIG7 };
	size_t i, j;

	for (j = 0; j < sizeof(files) / sizeof(files[0]); j++)
		for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
			if (strstr(opts[i], "alloc") && j >= 3)
				continue;
			check_conserved(opts[i], files[j]);
		}
	check_conserved("-m words --min-pct 2 --depth 7", PGCL);
}

/* Without -m, --min-pct keeps a subtree significant in either metric. */
Test(ccs_tree, min_pct_either_metric)
{
	struct run r;

	/* Main.a has 2.1% of the ticks and 3.2% of the bytes. */
	run_ok(&r, "ccs-tree --min-pct 3 " GHC_P " | grep -c '^  a '");
	cr_expect_str_eq(r.out, "1\n");
	run_free(&r);
	run_ok(&r, "ccs-tree -m ticks --min-pct 3 " GHC_P
	    " | grep -c '^  a ' || true");
	cr_expect_str_eq(r.out, "0\n");
	run_free(&r);
}

/* The order of the options does not matter. */
Test(ccs_tree, option_order)
{
	struct run a, b;

	run_ok(&a, "ccs-tree --depth 3 --min-pct 1 -d disin -m alloc " GHC_P2);
	run_ok(&b, "ccs-tree -m alloc -d disin --min-pct 1 --depth 3 " GHC_P2);
	cr_expect_str_eq(a.out, b.out);
	run_free(&a);
	run_free(&b);
}

/* Standard input, -, a pipe and a dump give the same report. */
Test(ccs_tree, inputs)
{
	struct run a, b, c, d;

	run_ok(&a, "ccs-tree " GHC_P2);
	run_ok(&b, "ccs-tree < " GHC_P2);
	run_ok(&c, "cat " GHC_P2 " | ccs-tree -");
	run_ok(&d, "ccs-convert -t dump " GHC_P2 " | ccs-tree");
	cr_expect_str_eq(b.out, a.out);
	cr_expect_str_eq(c.out, a.out);
	cr_expect_str_eq(d.out, a.out);
	run_free(&a);
	run_free(&b);
	run_free(&c);
	run_free(&d);
}

/* A folded file with several roots: its synthetic root is not shown. */
Test(ccs_tree, synthetic_root)
{
	struct run r;

	run_ok(&r, "ccs-tree --tsv " COMPRESSED);
	cr_expect_str_eq(r.out,
	    "depth\tmodule\tcost_centre\tsrc\tentries\tindividual\tinherited\n"
	    "0\t\ta\t\t\t3\t10\n"
	    "1\t\tb\t\t\t7\t7\n"
	    "0\t\tb\t\t\t0\t1\n"
	    "1\t\ta\t\t\t1\t1\n");
	run_free(&r);
	/* Unless everything was de-selected onto it. */
	run_ok(&r, "ccs-tree --tsv -d '*' " COMPRESSED);
	cr_expect_str_eq(r.out,
	    "depth\tmodule\tcost_centre\tsrc\tentries\tindividual\tinherited\n"
	    "0\t\t(root)\t\t\t11\t11\n");
	run_free(&r);
}

/* ---- a tree a million levels deep ---- */

Test(ccs_tree, deep, .timeout = 60)
{
	struct pdb_opts o;
	struct pdb *db = pdb_new();
	struct run r;
	uint32_t mod, cc[2], n, k;
	unsigned m;
	int64_t v = 7;
	char *path = write_temp("", 0, ".ccsdump");
	FILE *f;

	cr_assert(db != NULL);
	memset(&o, 0, sizeof(o));
	cr_assert_eq(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m), 0);
	cr_assert_eq(pdb_module_add(db, "M", &mod), 0);
	cr_assert_eq(pdb_cc_add(db, "a", mod, "", 0, 1, &cc[0]), 0);
	cr_assert_eq(pdb_cc_add(db, "b", mod, "", 0, 2, &cc[1]), 0);
	cr_assert_eq(pdb_root_new(db, cc[0], &n), 0);
	for (k = 1; k < 1000000; k++)
		cr_assert_eq(pdb_node_append(db, n, cc[k & 1], &n), 0);
	pdb_node_add_values(db, n, &v);
	cr_assert((f = fopen(path, "wb")) != NULL);
	cr_assert_eq(pdb_write(db, f, &pdb_fmt_ccsdump, &o), 0, "%s",
	    pdb_errmsg(db));
	cr_assert_eq(fclose(f), 0);
	pdb_free(db);

	run_ok(&r, "ccs-tree --tsv %s | sed -n '2p;$p'", path);
	cr_expect_str_eq(r.out, "0\tM\ta\t\t\t0\t7\n999999\tM\tb\t\t\t7\t7\n");
	run_free(&r);
	run_ok(&r, "ccs-tree --depth 1 %s | tail -3", path);
	cr_expect_str_eq(r.out,
	    "a                         M                0    0.0      7  100.0\n"
	    " b                        M                0    0.0      7  100.0\n"
	    "  ... 999998 more stacks                                 7  100.0\n");
	run_free(&r);
	run_ok(&r, "ccs-tree --tsv --min-pct 50 %s | wc -l", path);
	cr_expect_str_eq(r.out, "1000001\n");
	run_free(&r);
	unlink(path);
	free(path);
}

/*
 * The name column stops growing at 100 columns: a stack 300 deep no
 * longer pads every other line to its width, and pushes only its own
 * columns right.
 */
Test(ccs_tree, name_column_bounded)
{
	char *in = write_temp("", 0, ".folded");
	struct run r;
	FILE *f;
	int i;

	cr_assert((f = fopen(in, "w")) != NULL);
	for (i = 0; i < 300; i++)
		fprintf(f, "%sx%d", i ? ";" : "", i);
	fprintf(f, " 5\nx0;short 1\n");
	cr_assert_eq(fclose(f), 0);
	/* Each line's length, and where its first number (the header's
	 * first "samples") starts. */
	run_ok(&r, "ccs-tree %s | awk '/COST CENTRE|^ short /"
	    " || index($0, \"x299 \") == 300"
	    " { print length($0), match($0, / [0-9]| samples/) }'", in);
	cr_expect_str_eq(r.out, "149 115\n352 324\n149 121\n", "%s", r.out);
	run_free(&r);
	unlink(in);
	free(in);
}

/*
 * Names that are not printable ASCII keep their place in the line: a
 * UTF-8 name counts a column a code point, a control character is
 * escaped, and the columns after them line up with the others.
 */
Test(ccs_tree, names_not_ascii_in_place)
{
	static const char folded[] =
	    "main;caf\xc3\xa9;b\x01x 5\n"
	    "main;plain 3\n";
	char *in = write_temp(folded, sizeof(folded) - 1, ".folded");
	struct run r;

	run(&r, "ccs-tree %s", in);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "\n"
	    "main                            0      0.0        8    100.0\n"
	    " caf\xc3\xa9" "                           0      0.0        5     "
	    "62.5\n"
	    "  b\\x01x                        5     62.5        5     62.5\n"
	    " plain                          3     37.5        3     37.5\n")
	    != NULL, "%s", r.out);
	run_free(&r);
	unlink(in);
	free(in);
}

/* Of a negative total, nothing is 0.0 per cent, not -0.0. */
Test(ccs_tree, zero_of_a_negative_total)
{
	static const char neg[] = "a;b 5\na;c -10\n";
	char *path = write_temp(neg, sizeof(neg) - 1, ".folded");
	struct run r;

	run_ok(&r, "ccs-tree %s | grep '^a '", path);
	cr_expect_str_eq(r.out,
	    "a                               0      0.0       -5    100.0\n");
	run_free(&r);
	unlink(path);
	free(path);
}

/* A profile with no metrics has no report to give, and says so, as
 * ccs-hot does. */
Test(ccs_tree, no_metrics)
{
	check_no_metrics("ccs-tree", "ccs-tree");
	check_no_metrics("ccs-tree --tsv", "ccs-tree");
}
