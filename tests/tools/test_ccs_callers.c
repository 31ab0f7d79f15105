/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-callers, run as a built binary: the common tool checks; the
 * callers of Main_rev in the paper's Fig. 7, worked out by hand from its
 * six stacks, in all three output forms; --folded read back by ccs-flat;
 * on the Clean profile, whose recursion repeats cost centres on a path,
 * the total of every cost centre equal to ccs-flat's inherited cost (cost
 * metrics) or own count (count metrics); name lookup (exact, glob,
 * ambiguous, merged, missing); selection before the analysis.
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats_int.h"
#include "testutil.h"
#include "toolcheck.h"
#include "pipecheck.h"

#define PGCL_TICKS	"tests/data/pgcl/synthetic-400.flat-ticks.tsv"
#define PGCL_WORDS	"tests/data/pgcl/synthetic-400.flat-words.tsv"

/* ---- what every tool has ---- */

Test(ccs_callers, help)
{
	check_help("ccs-callers");
}

Test(ccs_callers, version)
{
	check_version("ccs-callers", CCSTOOLS_VERSION_LINE("ccs-callers"));
}

Test(ccs_callers, bad_usage)
{
	check_bad_usage("ccs-callers", "");
	check_bad_usage("ccs-callers", "--no-such-option Main_rev " FIG7);
	check_bad_usage("ccs-callers", "-x Main_rev " FIG7);
	check_bad_usage("ccs-callers", "Main_rev " FIG7 " " THETA);
	check_bad_usage("ccs-callers", "--folded --tsv Main_rev " FIG7);
	check_bad_usage("ccs-callers", "Main_rev -m");
	/* Which operands are wrong, said before the usage. */
	check_usage_says("ccs-callers", "", "ccs-callers: no cost centre given");
	check_usage_says("ccs-callers", "Main_rev " FIG7 " " THETA,
	    "ccs-callers: one input at most, not 2");
}

Test(ccs_callers, missing_file)
{
	check_missing_file("ccs-callers Main_rev", "ccs-callers");
}

Test(ccs_callers, bad_metric)
{
	struct run r;

	run(&r, "ccs-callers -m nosuch Main_rev " FIG7);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-callers: -m: no metric 'nosuch' in this "
	    "profile; it has: samples\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/* ---- Fig. 7 ---- */

/*
 * The six stacks of Fig. 7, main first:
 *	main;a;c;f;h;j;rev 1181	main;a;c;f;i;rev 7
 *	main;a;b;e;g;j;rev 16	main;a;b;e;g;rev 10
 *	main;a;b;d;g;j;rev 12	main;a;b;d;g;rev 11
 * Main_rev is on top of all six: its total is 1237.  Through Main_j come
 * 1181 + 16 + 12 = 1209: 1181 from Main_h, 28 from Main_g (16 from
 * Main_e, 12 from Main_d).  Main_g calls it directly for 10 + 11 = 21
 * (11 from Main_d, 10 from Main_e); Main_i for 7.  Callers costliest
 * first, each chain down to Main_main.
 */
Test(ccs_callers, fig7_tsv)
{
	struct run r;

	run_ok(&r, "ccs-callers --tsv Main_rev " FIG7);
	cr_expect_str_eq(r.out,
	    "depth\tmodule\tcost_centre\tsrc\tinclusive\n"
	    "0\t\tMain_rev\t\t1237\n"
	    "1\t\tMain_j\t\t1209\n"
	    "2\t\tMain_h\t\t1181\n"
	    "3\t\tMain_f\t\t1181\n"
	    "4\t\tMain_c\t\t1181\n"
	    "5\t\tMain_a\t\t1181\n"
	    "6\t\tMain_main\t\t1181\n"
	    "2\t\tMain_g\t\t28\n"
	    "3\t\tMain_e\t\t16\n"
	    "4\t\tMain_b\t\t16\n"
	    "5\t\tMain_a\t\t16\n"
	    "6\t\tMain_main\t\t16\n"
	    "3\t\tMain_d\t\t12\n"
	    "4\t\tMain_b\t\t12\n"
	    "5\t\tMain_a\t\t12\n"
	    "6\t\tMain_main\t\t12\n"
	    "1\t\tMain_g\t\t21\n"
	    "2\t\tMain_d\t\t11\n"
	    "3\t\tMain_b\t\t11\n"
	    "4\t\tMain_a\t\t11\n"
	    "5\t\tMain_main\t\t11\n"
	    "2\t\tMain_e\t\t10\n"
	    "3\t\tMain_b\t\t10\n"
	    "4\t\tMain_a\t\t10\n"
	    "5\t\tMain_main\t\t10\n"
	    "1\t\tMain_i\t\t7\n"
	    "2\t\tMain_f\t\t7\n"
	    "3\t\tMain_c\t\t7\n"
	    "4\t\tMain_a\t\t7\n"
	    "5\t\tMain_main\t\t7\n");
	run_free(&r);
}

Test(ccs_callers, fig7_readable)
{
	struct run r;

	run_ok(&r, "ccs-callers Main_rev " FIG7 " | head -12");
	cr_expect_str_eq(r.out,
	    "Main_rev: 1237 samples inherited, 100.0% of the total 1237\n"
	    "\n"
	    "calling contexts, each caller under its callee "
	    "(samples, % of 1237):\n"
	    "            1237  100.0%  Main_rev\n"
	    "            1209   97.7%   Main_j\n"
	    "            1181   95.5%    Main_h\n"
	    "            1181   95.5%     Main_f\n"
	    "            1181   95.5%      Main_c\n"
	    "            1181   95.5%       Main_a\n"
	    "            1181   95.5%        Main_main\n"
	    "              28    2.3%    Main_g\n"
	    "              16    1.3%     Main_e\n");
	run_free(&r);
	/* Main_j's own callers: 1181 + 16 + 12 through h and g. */
	run_ok(&r, "ccs-callers Main_j " FIG7 " | sed -n '1p;4,5p;10p'");
	cr_expect_str_eq(r.out,
	    "Main_j: 1209 samples inherited, 97.7% of the total 1237\n"
	    "            1209  100.0%  Main_j\n"
	    "            1181   97.7%   Main_h\n"
	    "              28    2.3%   Main_g\n");
	run_free(&r);
}

/* Reverse the frames of each line of a folded file: "a;b;c 5" -> "c;b;a 5". */
static char *
reverse_frames(const char *text)
{
	char *out = calloc(strlen(text) + 2, 1), *w = out;
	const char *l = text, *e, *sp, *f, *p;

	cr_assert(out != NULL);
	for (; *l != '\0'; l = *e ? e + 1 : e) {
		e = strchr(l, '\n');
		if (e == NULL)
			e = l + strlen(l);
		sp = l;
		for (p = l; p < e; p++)
			if (*p == ' ')
				sp = p;
		/* Frames from the last to the first. */
		for (p = sp; p > l;) {
			for (f = p; f > l && f[-1] != ';'; f--)
				;
			memcpy(w, f, (size_t)(p - f));
			w += p - f;
			if (f > l)
				*w++ = ';';
			p = f > l ? f - 1 : l;
		}
		memcpy(w, sp, (size_t)(e - sp));
		w += e - sp;
		*w++ = '\n';
	}
	*w = '\0';
	return out;
}

/* Main_rev is on top of every stack: its contexts are the stacks, reversed. */
Test(ccs_callers, fig7_folded)
{
	struct run r;
	char *fig7 = slurp(FIG7, NULL), *want, *got, *sorted, *out;

	cr_assert(fig7 != NULL);
	want = reverse_frames(fig7);
	cr_expect(strstr(want, "Main_rev;Main_j;Main_h;Main_f;Main_c;Main_a;"
	    "Main_main 1181\n") != NULL, "%s", want);
	run_ok(&r, "ccs-callers --folded Main_rev " FIG7);
	cr_assert((out = strdup(r.out)) != NULL);
	got = sorted_lines(out, 0);
	free(out);
	sorted = sorted_lines(want, 0);
	cr_expect_str_eq(got, sorted);
	free(sorted);
	cr_expect_str_eq(r.out,
	    "Main_rev;Main_j;Main_h;Main_f;Main_c;Main_a;Main_main 1181\n"
	    "Main_rev;Main_j;Main_g;Main_e;Main_b;Main_a;Main_main 16\n"
	    "Main_rev;Main_j;Main_g;Main_d;Main_b;Main_a;Main_main 12\n"
	    "Main_rev;Main_i;Main_f;Main_c;Main_a;Main_main 7\n"
	    "Main_rev;Main_g;Main_e;Main_b;Main_a;Main_main 10\n"
	    "Main_rev;Main_g;Main_d;Main_b;Main_a;Main_main 11\n");
	free(got);
	free(want);
	free(fig7);
	run_free(&r);
}

/* Read back, the contexts give each caller the cost that went through it. */
Test(ccs_callers, fig7_folded_read_back)
{
	static const struct {
		const char	*label;
		int64_t		 inh;
	} want[] = {
		{ "Main_rev", 1237 }, { "Main_main", 1237 }, { "Main_a", 1237 },
		{ "Main_j", 1209 }, { "Main_c", 1188 }, { "Main_f", 1188 },
		{ "Main_h", 1181 }, { "Main_b", 49 }, { "Main_g", 49 },
		{ "Main_e", 26 }, { "Main_d", 23 }, { "Main_i", 7 },
	};
	struct run r;
	int64_t self, inh;
	size_t i;

	run_ok(&r, "ccs-callers --folded Main_rev " FIG7 " | ccs-flat --tsv");
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		cr_assert(tsv_row(r.out, want[i].label, &self, &inh), "%s",
		    want[i].label);
		cr_expect_eq(inh, want[i].inh, "%s: %" PRId64, want[i].label,
		    inh);
	}
	cr_expect_eq(count_lines(r.out), 13);
	run_free(&r);
}

/* De-selecting Main_j first: its 1209 go to Main_rev's direct callers. */
Test(ccs_callers, fig7_deselect)
{
	struct run r, s;

	run_ok(&r, "ccs-callers --tsv -d Main_j Main_rev " FIG7
	    " | awk -F '\\t' '$1 == 1'");
	cr_expect_str_eq(r.out,
	    "1\t\tMain_h\t\t1181\n"
	    "1\t\tMain_g\t\t49\n"
	    "1\t\tMain_i\t\t7\n");
	run_ok(&s, "ccs-select -d Main_j " FIG7 " | ccs-callers --tsv Main_rev"
	    " | awk -F '\\t' '$1 == 1'");
	cr_expect_str_eq(s.out, r.out);
	run_free(&r);
	run_free(&s);
	/* The callers of a de-selected cost centre: there are none. */
	run(&r, "ccs-callers -d Main_rev Main_rev " FIG7);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-callers: " FIG7 ": no cost centre "
	    "'Main_rev'\n");
	run_free(&r);
}

/* ---- the Clean profile: recursion on the paths ---- */

/* The expected inherited cost of label in a TSV of ccs-flat's. */
static int64_t
flat_inherited(const char *tsvpath, const char *label)
{
	char *text = slurp(tsvpath, NULL);
	int64_t self, inh;

	cr_assert(text != NULL, "cannot read %s", tsvpath);
	cr_assert(tsv_row(text, label, &self, &inh), "%s: no %s", tsvpath,
	    label);
	free(text);
	return inh;
}

/* The total ccs-callers prints for name, from its TSV. */
static int64_t
callers_total(const char *opts, const char *name, const char *path)
{
	struct run r;
	long long v = -1;
	const char *p;

	run_ok(&r, "ccs-callers --tsv %s '%s' %s", opts, name, path);
	p = strchr(r.out, '\n');
	cr_assert(p != NULL && strncmp(p + 1, "0\t", 2) == 0, "%s", r.out);
	p = strchr(p + 1, '\n');
	while (p > r.out && p[-1] != '\t')
		p--;
	v = atoll(p);
	run_free(&r);
	return v;
}

/*
 * f24 occurs more than once on some paths (the hot stack is
 * _start;f13;f15;f6;f12;f24;f13;f20;f24): summing every occurrence would
 * count the inner ones twice, so only the outermost count.
 */
Test(ccs_callers, pgcl_f24)
{
	struct pdb *db = load_tree(PGCL);
	int64_t *inc, naive = 0;
	uint32_t n, cc, f24 = PDB_NONE;
	int ticks = pdb_metric_find(db, "ticks");
	unsigned nm = pdb_metric_count(db);

	cr_assert(ticks >= 0);
	for (cc = 0; cc < pdb_cc_count(db); cc++)
		if (strcmp(pdb_cc_label(db, cc), "f24") == 0)
			f24 = cc;
	cr_assert(f24 != PDB_NONE);
	cr_assert((inc = pdb_inclusive_new(db)) != NULL);
	for (n = 0; n < pdb_node_count(db); n++)
		if (pdb_node_cc(db, n) == f24)
			naive += inc[(size_t)n * nm + (unsigned)ticks];
	free(inc);
	pdb_free(db);

	cr_expect_eq(flat_inherited(PGCL_TICKS, "f24"), 11138);
	cr_expect_eq(flat_inherited(PGCL_WORDS, "f24"), 179223);
	cr_expect_gt(naive, 11138, "no repeated f24 on a path: %" PRId64,
	    naive);
	cr_expect_eq(callers_total("", "f24", PGCL), 11138);
	cr_expect_eq(callers_total("-m ticks", "Mod1.f24", PGCL), 11138);
	cr_expect_eq(callers_total("-m words", "f24", PGCL), 179223);
}

/*
 * For every cost centre of the Clean profile and every metric, the total
 * is ccs-flat's inherited cost (cost metrics) or own count (count
 * metrics, whose entries at recursive occurrences count too).
 */
Test(ccs_callers, pgcl_every_cost_centre, .timeout = 120)
{
	static const struct {
		const char	*name;
		int		 count;
	} metrics[] = {
		{ "ticks", 0 }, { "words", 0 }, { "tail_returns", 1 },
		{ "strict_calls", 1 }, { "lazy_calls", 1 },
		{ "curried_calls", 1 },
	};
	struct run flat;
	char *line, *l, *e, opts[64], label[128];
	int64_t self, inh, got;
	size_t i;
	int rows;

	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		run_ok(&flat, "ccs-flat --tsv -m %s " PGCL, metrics[i].name);
		snprintf(opts, sizeof(opts), "-m %s", metrics[i].name);
		rows = 0;
		line = flat.out;
		for (l = strchr(line, '\n') + 1; *l != '\0'; l = e + 1) {
			e = strchr(l, '\n');
			cr_assert(sscanf(l, "%*[^\t]\t%127[^\t]\t\t%" SCNd64
			    "\t%" SCNd64, label, &self, &inh) == 3, "%.40s", l);
			if (strcmp(label, "_start") == 0)
				continue;
			got = callers_total(opts, label, PGCL);
			cr_expect_eq(got, metrics[i].count ? self : inh,
			    "%s %s: %" PRId64 ", ccs-flat %" PRId64 "/%" PRId64,
			    metrics[i].name, label, got, self, inh);
			rows++;
		}
		cr_expect_eq(rows, 39);
		run_free(&flat);
	}
}

/* The GHC profile: every metric, the same rule. */
Test(ccs_callers, ghc_totals)
{
	cr_expect_eq(callers_total("", "rev", GHC_P), 47);
	cr_expect_eq(callers_total("-m alloc", "rev", GHC_P), 210303480);
	cr_expect_eq(callers_total("-m entries", "rev", GHC_P), 8924);
	cr_expect_eq(callers_total("-m alloc", "g", GHC_P), 5600328);
	cr_expect_eq(callers_total("-m alloc", "g", GHC_P),
	    18424 + 838800 + 1677600 + 20264 + 1015080 + 2030160);
}

/* ---- finding the cost centre ---- */

Test(ccs_callers, no_such_name)
{
	struct run r;

	run(&r, "ccs-callers nosuch " FIG7);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-callers: " FIG7 ": no cost centre "
	    "'nosuch'\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
	run(&r, "ccs-callers nosuch < " FIG7);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-callers: <stdin>: no cost centre "
	    "'nosuch'\n");
	run_free(&r);
	/* The made-up root of a folded file is not a cost centre to ask for. */
	run(&r, "ccs-callers '(root)' " COMPRESSED);
	cr_expect_eq(r.status, 1);
	run_free(&r);
}

Test(ccs_callers, ambiguous)
{
	struct run r;

	run(&r, "ccs-callers CAF " GHC_P);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-callers: " GHC_P ": ambiguous: 'CAF' "
	    "matches 6 cost "
	    "centres: Main.CAF, GHC.Conc.Signal.CAF, GHC.IO.Encoding.CAF, "
	    "GHC.IO.Encoding.Iconv.CAF, GHC.IO.Handle.FD.CAF, "
	    "GHC.IO.Handle.Text.CAF\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
	/* Long lists are cut after ten names. */
	run(&r, "ccs-callers 'Main_*' " FIG7);
	cr_expect_eq(r.status, 1);
	cr_expect(strncmp(r.err, "ccs-callers: " FIG7 ": ambiguous: 'Main_*' "
	    "matches 12 cost centres: ", 58 + strlen(FIG7 ": ")) == 0, "%s",
	    r.err);
	cr_expect(strstr(r.err, ", ...\n") != NULL, "%s", r.err);
	run_free(&r);
	/* Names from the file reach the terminal escaped, as in reports. */
	run(&r, "printf 'M.\\033[2Jx;a 1\\n\\033[2Jx;b 2\\n' | "
	    "ccs-callers '*2Jx'");
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "centres: M.\\x1B[2Jx, \\x1B[2Jx\n") !=
	    NULL, "%s", r.err);
	cr_expect(strchr(r.err, '\033') == NULL, "%s", r.err);
	run_free(&r);
	/* Qualified with the module, one of them. */
	run_ok(&r, "ccs-callers --tsv GHC.IO.Encoding.CAF " GHC_P);
	cr_expect_str_eq(r.out, "depth\tmodule\tcost_centre\tsrc\tinclusive\n"
	    "0\tGHC.IO.Encoding\tCAF\t<entire-module>\t0\n"
	    "1\tMAIN\tMAIN\t<built-in>\t0\n");
	run_free(&r);
}

/* Exact names first, then globs. */
Test(ccs_callers, names)
{
	struct run a, b;

	run_ok(&a, "ccs-callers --folded Main_rev " FIG7);
	run_ok(&b, "ccs-callers --folded 'Main_r*' " FIG7);
	cr_expect_str_eq(b.out, a.out);
	run_free(&b);
	run_ok(&b, "ccs-callers --folded 'Main_re?' < " FIG7);
	cr_expect_str_eq(b.out, a.out);
	run_free(&a);
	run_free(&b);
	/* Module-qualified and bare label alike. */
	run_ok(&a, "ccs-callers -m alloc rev " GHC_P);
	run_ok(&b, "ccs-callers -m alloc Main.rev " GHC_P);
	cr_expect_str_eq(b.out, a.out);
	run_free(&a);
	run_free(&b);
	/* A label that is no valid glob is still found exactly. */
	run_ok(&a, "ccs-callers --tsv 'buildMap.\\' " GHC_P3 " | sed -n 2p");
	cr_expect_str_eq(a.out, "0\tMain\tbuildMap.\\\\\tMain.hs:30:30-47\t106\n");
	run_free(&a);
}

/*
 * GHC's demo has two cost centres Main.sz (two SCCs, two source spans),
 * siblings under main: one function to the user, merged.
 */
Test(ccs_callers, merged_ghc)
{
	struct run r;

	run_ok(&r, "ccs-callers -m alloc sz " GHC_P3);
	cr_expect_str_eq(r.out,
	    "Main.sz: 16 bytes inherited, 0.0% of the total 360117920\n"
	    "  (2 cost centres of this name merged)\n"
	    "\n"
	    "calling contexts, each caller under its callee (alloc, % of 16):\n"
	    "              16  100.0%  Main.sz\n"
	    "              16  100.0%   Main.main\n"
	    "              16  100.0%    Main.CAF\n"
	    "              16  100.0%     MAIN.MAIN\n");
	run_free(&r);
	/* In TSV, level 0 has no source: each sz has its own. */
	run_ok(&r, "ccs-callers --tsv -m alloc sz " GHC_P3 " | sed -n 2,3p");
	cr_expect_str_eq(r.out, "0\tMain\tsz\t\t16\n"
	    "1\tMain\tmain\tMain.hs:(33,1)-(38,34)\t16\n");
	run_free(&r);
}

/* Profile db written as a dump to a new temporary file, then freed;
 * returns the file's name. */
static char *
dump_of(struct pdb *db)
{
	struct pdb_opts o;
	char *path = write_temp("", 0, ".ccsdump");
	FILE *f;

	memset(&o, 0, sizeof(o));
	cr_assert((f = fopen(path, "wb")) != NULL);
	cr_assert_eq(pdb_write(db, f, &pdb_fmt_ccsdump, &o), 0, "%s",
	    pdb_errmsg(db));
	cr_assert_eq(fclose(f), 0);
	pdb_free(db);
	return path;
}

/*
 * Two cost centres M.go, one inside the other: only the outer occurrence
 * counts, as for one cost centre.
 *	R -> A -> go(x:1) 5 -> go(x:2) 3
 *	R -> B -> go(x:2) 7
 */
Test(ccs_callers, merged_nested)
{
	struct pdb *db = pdb_new();
	struct run r;
	uint32_t mod, r0, a, b, go1, go2, n, k;
	unsigned m;
	char *path;

	cr_assert(db != NULL);
	cr_assert_eq(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m), 0);
	cr_assert_eq(pdb_metric_add(db, "entries", "calls", PDB_COUNT, 0, &m),
	    0);
	cr_assert_eq(pdb_module_add(db, "M", &mod), 0);
	cr_assert_eq(pdb_cc_add(db, "R", mod, "", 0, 1, &r0), 0);
	cr_assert_eq(pdb_cc_add(db, "A", mod, "", 0, 2, &a), 0);
	cr_assert_eq(pdb_cc_add(db, "B", mod, "", 0, 3, &b), 0);
	cr_assert_eq(pdb_cc_add(db, "go", mod, "x:1", 0, 4, &go1), 0);
	cr_assert_eq(pdb_cc_add(db, "go", mod, "x:2", 0, 5, &go2), 0);
	cr_assert_eq(pdb_root_new(db, r0, &n), 0);
	cr_assert_eq(pdb_node_append(db, n, a, &k), 0);
	cr_assert_eq(pdb_node_append(db, k, go1, &k), 0);
	pdb_node_set_value(db, k, 0, 5);
	pdb_node_set_value(db, k, 1, 1);
	cr_assert_eq(pdb_node_append(db, k, go2, &k), 0);
	pdb_node_set_value(db, k, 0, 3);
	pdb_node_set_value(db, k, 1, 4);
	cr_assert_eq(pdb_node_append(db, n, b, &k), 0);
	cr_assert_eq(pdb_node_append(db, k, go2, &k), 0);
	pdb_node_set_value(db, k, 0, 7);
	pdb_node_set_value(db, k, 1, 2);
	path = dump_of(db);

	run_ok(&r, "ccs-callers --tsv go %s", path);
	cr_expect_str_eq(r.out, "depth\tmodule\tcost_centre\tsrc\tinclusive\n"
	    "0\tM\tgo\t\t15\n"
	    "1\tM\tA\t\t8\n"
	    "2\tM\tR\t\t8\n"
	    "1\tM\tB\t\t7\n"
	    "2\tM\tR\t\t7\n");
	run_free(&r);
	/* Entries: 1 + 4 through A, 2 through B. */
	run_ok(&r, "ccs-callers --folded -m entries M.go %s", path);
	cr_expect_str_eq(r.out, "M.go;M.A;M.R 5\nM.go;M.B;M.R 2\n");
	run_free(&r);
	unlink(path);
	free(path);
}

/*
 * Cost centres of one name side by side under a caller share their
 * context, which is read once; one at the same depth under another
 * caller has a context of its own.
 *	R -> A -> B -> go(x:1) 5, go(x:2) 7
 *	       -> D -> go(x:1) 2
 *	       -> go(x:2) 3
 */
Test(ccs_callers, merged_siblings)
{
	struct pdb *db = pdb_new();
	struct run r;
	uint32_t mod, r0, a, b, d, go1, go2, n, ka, kb, kd, k;
	unsigned m;
	char *path;

	cr_assert(db != NULL);
	cr_assert_eq(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m), 0);
	cr_assert_eq(pdb_module_add(db, "M", &mod), 0);
	cr_assert_eq(pdb_cc_add(db, "R", mod, "", 0, 1, &r0), 0);
	cr_assert_eq(pdb_cc_add(db, "A", mod, "", 0, 2, &a), 0);
	cr_assert_eq(pdb_cc_add(db, "B", mod, "", 0, 3, &b), 0);
	cr_assert_eq(pdb_cc_add(db, "D", mod, "", 0, 4, &d), 0);
	cr_assert_eq(pdb_cc_add(db, "go", mod, "x:1", 0, 5, &go1), 0);
	cr_assert_eq(pdb_cc_add(db, "go", mod, "x:2", 0, 6, &go2), 0);
	cr_assert_eq(pdb_root_new(db, r0, &n), 0);
	cr_assert_eq(pdb_node_append(db, n, a, &ka), 0);
	cr_assert_eq(pdb_node_append(db, ka, b, &kb), 0);
	cr_assert_eq(pdb_node_append(db, kb, go1, &k), 0);
	pdb_node_set_value(db, k, 0, 5);
	cr_assert_eq(pdb_node_append(db, kb, go2, &k), 0);
	pdb_node_set_value(db, k, 0, 7);
	cr_assert_eq(pdb_node_append(db, ka, d, &kd), 0);
	cr_assert_eq(pdb_node_append(db, kd, go1, &k), 0);
	pdb_node_set_value(db, k, 0, 2);
	cr_assert_eq(pdb_node_append(db, ka, go2, &k), 0);
	pdb_node_set_value(db, k, 0, 3);
	path = dump_of(db);

	run_ok(&r, "ccs-callers --tsv go %s", path);
	cr_expect_str_eq(r.out, "depth\tmodule\tcost_centre\tsrc\tinclusive\n"
	    "0\tM\tgo\t\t17\n"
	    "1\tM\tB\t\t12\n"
	    "2\tM\tA\t\t12\n"
	    "3\tM\tR\t\t12\n"
	    "1\tM\tA\t\t3\n"
	    "2\tM\tR\t\t3\n"
	    "1\tM\tD\t\t2\n"
	    "2\tM\tA\t\t2\n"
	    "3\tM\tR\t\t2\n");
	run_free(&r);
	unlink(path);
	free(path);
}

/* Output to a file with -o; the order of the options does not matter. */
Test(ccs_callers, output_and_order)
{
	struct run a, b;
	char *tmp = write_temp("", 0, ".txt"), *got;

	run_ok(&a, "ccs-callers -o %s -m alloc -d j rev " GHC_P, tmp);
	cr_expect_str_empty(a.out);
	run_ok(&b, "ccs-callers rev -d j -m alloc " GHC_P);
	got = slurp(tmp, NULL);
	cr_assert(got != NULL);
	cr_expect_str_eq(got, b.out);
	free(got);
	unlink(tmp);
	free(tmp);
	run_free(&a);
	run_free(&b);
}

/*
 * A format whose tree is its stream is gathered as it is read; folded
 * stacks, selection and pruning build the tree first.  Both ways give
 * the same report, and the same errors, from a file and from a pipe:
 * --exclude with a pattern that matches nothing makes the tree.  The
 * names: the costliest cost centres by name and Module.name, and as a
 * glob, which may pick several (ambiguous).
 */
Test(ccs_callers, stream_and_tree_agree, .timeout = 120)
{
	static const char *const formats[] = { "pgcl", "dump", "ghc-prof",
	    "ghc-json", "folded", "json" };
	static const char *const how[] = { "", "--folded", "--tsv", "",
	    "" };
	char *gen = write_temp("", 0, NULL), *out[3], names[5][256];
	struct run r;
	size_t i, k, j;
	int status[3], ok = 0;

	for (j = 0; j < 3; j++)
		out[j] = write_temp("", 0, NULL);
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		run(&r, "ccs-gen -q -t %s -n 3000 --seed 4 -o %s && "
		    "ccs-flat -n 3 --tsv %s | awk -F '\\t' 'NR > 1 "
		    "{ print $2; print $1 \".\" $2 }'", formats[i], gen, gen);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_assert_eq(sscanf(r.out, "%255s %*s %255s %255s", names[0],
		    names[1], names[2]), 3, "%s", r.out);
		run_free(&r);
		/* "Module.label" of the first, and a glob of 3 letters. */
		run(&r, "ccs-flat -n 1 --tsv %s | awk -F '\\t' 'NR > 1 "
		    "{ print $1 \".\" $2; print substr($2, 1, 3) \"*\" }'",
		    gen);
		cr_assert_eq(sscanf(r.out, "%255s %255s", names[3], names[4]),
		    2, "%s", r.out);
		run_free(&r);
		for (k = 0; k < 5; k++) {
			run(&r, "ccs-callers %s '%s' %s >%s 2>&1", how[k],
			    names[k], gen, out[0]);
			status[0] = r.status;
			run_free(&r);
			run(&r, "ccs-callers --max-stacks 4294967295 %s '%s' %s "
			    ">%s 2>&1", how[k], names[k], gen, out[1]);
			status[1] = r.status;
			run_free(&r);
			run(&r, "ccs-callers %s '%s' - <%s >%s 2>&1", how[k],
			    names[k], gen, out[2]);
			status[2] = r.status;
			run_free(&r);
			cr_expect(status[0] == status[1] &&
			    status[0] == status[2], "%s %s: exit %d, %d, %d",
			    formats[i], names[k], status[0], status[1],
			    status[2]);
			/* A message names the file, or <stdin>. */
			run(&r, "cmp %s %s && { [ %d != 0 ] || cmp %s %s; }",
			    out[0], out[1], status[0], out[0], out[2]);
			cr_expect_eq(r.status, 0, "%s %s: %s", formats[i],
			    names[k], r.out);
			run_free(&r);
			ok += status[0] == 0;
		}
	}
	/* The names taken from the profile were found. */
	cr_expect_geq(ok, 24, "only %d runs succeeded", ok);
	unlink(gen);
	free(gen);
	for (j = 0; j < 3; j++) {
		unlink(out[j]);
		free(out[j]);
	}
}

Test(ccs_callers, no_metrics)
{
	check_no_metrics("ccs-callers main", "ccs-callers");
}

Test(ccs_callers, folded_and_tsv_say_why)
{
	struct run r;

	run(&r, "ccs-callers --folded --tsv main tests/data/ghc/mj.prof");
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "--folded and --tsv cannot go together") !=
	    NULL, "%s", r.err);
	run_free(&r);
}

/* Ticks the pgcl reader took the profiling overhead from are said to be,
 * as ccs-flat says (a best effort, the Clean notes warn); other metrics
 * and uncompensated ticks are not. */
Test(ccs_callers, compensated_ticks_say_so)
{
	static const char pgcl[] = "tests/data/pgcl/synthetic-400.pgcl";

	expect_output("ticks inherited, 42.1% of the total 11788 (compensated "
	    "for profiling overhead)\n", NULL, "ccs-callers --compensate "
	    "Mod10.f11 %s", pgcl);
	expect_output("words", "compensated", "ccs-callers --compensate -m "
	    "words Mod10.f11 %s", pgcl);
	expect_output("ticks", "compensated", "ccs-callers Mod10.f11 %s", pgcl);
}

/* Contexts of zero cost are left out; when all are, the name's own line
 * with 0 keeps the output a profile that reads back. */
Test(ccs_callers, folded_all_zero_reads_back)
{
	struct run r;

	run_ok(&r, "printf 'main;a 0\\nmain;b 3\\nmain;a;c 2\\n' | "
	    "ccs-callers --folded a -");
	cr_expect_str_eq(r.out, "a;main 2\n");
	run_free(&r);
	run_ok(&r, "printf 'main;a 0\\nmain;b 3\\n' | ccs-callers --folded a - "
	    "| ccs-flat --tsv");
	cr_expect_str_eq(r.out, "module\tcost_centre\tsrc\tself\tinherited\n"
	    "\ta\t\t0\t0\n");
	run_free(&r);
}
