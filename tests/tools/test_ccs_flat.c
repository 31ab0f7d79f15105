/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-flat, run as a built binary: the common tool checks, the worked
 * examples of Morgan & Jarvis (DESIGN.md) on the folded stacks of
 * tests/data/paper/, selection semantics, output forms and inputs.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "toolcheck.h"

#define PAPER		"tests/data/paper/"
#define THETA		PAPER "s2.3-theta.folded"
#define FIG7		PAPER "fig7.folded"
#define ESCAPES		"tests/data/tools/escapes.folded"

struct expect {
	const char	*label;
	int64_t		 self, inh;
};

/* Run "ccs-flat --tsv args" and check every row of want, and the count. */
static void
check_rows(const char *args, const struct expect *want, int nwant)
{
	struct run r;
	int64_t self, inh;
	int i;

	run(&r, "ccs-flat --tsv %s", args);
	cr_assert_eq(r.status, 0, "ccs-flat --tsv %s: exit %d: %s", args,
	    r.status, r.err);
	cr_expect_str_empty(r.err);
	cr_expect(strncmp(r.out, "module\tcost_centre\tsrc\tself\tinherited",
	    37) == 0, "bad header: %s", r.out);
	for (i = 0; i < nwant; i++) {
		cr_expect(tsv_row(r.out, want[i].label, &self, &inh),
		    "ccs-flat %s: no row %s in\n%s", args, want[i].label,
		    r.out);
		cr_expect_eq(self, want[i].self, "ccs-flat %s: %s self %" PRId64
		    ", want %" PRId64, args, want[i].label, self, want[i].self);
		cr_expect_eq(inh, want[i].inh, "ccs-flat %s: %s inherited %"
		    PRId64 ", want %" PRId64, args, want[i].label, inh,
		    want[i].inh);
	}
	cr_expect_eq(count_lines(r.out), nwant + 1,
	    "ccs-flat %s: %d rows, want %d:\n%s", args, count_lines(r.out) - 1,
	    nwant, r.out);
	run_free(&r);
}

/* ---- what every tool has ---- */

Test(ccs_flat, help)
{
	check_help("ccs-flat");
}

Test(ccs_flat, version)
{
	check_version("ccs-flat", CCSTOOLS_VERSION_LINE("ccs-flat"));
}

Test(ccs_flat, bad_usage)
{
	check_bad_usage("ccs-flat", "--no-such-option " THETA);
	check_bad_usage("ccs-flat", "-x " THETA);
	check_bad_usage("ccs-flat", THETA " " FIG7);
	check_bad_usage("ccs-flat", "-n");
	check_usage_says("ccs-flat", THETA " " FIG7 " " FIG7,
	    "ccs-flat: one input at most, not 3");
}

Test(ccs_flat, missing_file)
{
	check_missing_file("ccs-flat", "ccs-flat");
	check_missing_file("ccs-flat --tsv -m ticks", "ccs-flat");
}

/* ---- Morgan & Jarvis 2.3 and 2.4 ---- */

Test(ccs_flat, theta)
{
	static const struct expect w[] = {
		{ "c", 60, 60 }, { "a", 20, 90 }, { "b", 10, 60 },
	};

	check_rows(THETA, w, 3);
}

Test(ccs_flat, theta_deselect_b)
{
	static const struct expect w[] = { { "c", 60, 60 }, { "a", 30, 90 } };

	check_rows("-d b " THETA, w, 2);
}

/*
 * The root is always selected (DESIGN.md).  Folded lines have no common
 * bottom, so their root is the reader's synthetic "(root)", the paper's
 * MAIN: what no selected cost centre takes stays there, and shows.
 */
Test(ccs_flat, theta_select_only_c)
{
	static const struct expect w[] = { { "c", 60, 60 }, { "(root)", 30, 90 } };

	check_rows("-s c " THETA, w, 2);
}

/* The root keeps what Main_j does not take. */
Test(ccs_flat, fig7_select_j_keeps_root)
{
	static const struct expect w[] = {
		{ "Main_j", 1209, 1209 }, { "(root)", 28, 1237 },
	};

	check_rows("-s Main_j " FIG7, w, 2);
}

Test(ccs_flat, s2_4_compressed)
{
	static const struct expect w[] = { { "b", 7, 8 }, { "a", 4, 11 } };

	check_rows(PAPER "s2.4-compressed.folded", w, 2);
}

Test(ccs_flat, s2_4_uncompressed)
{
	static const struct expect w[] = { { "b", 7, 8 }, { "a", 4, 11 } };

	check_rows(PAPER "s2.4-uncompressed.folded", w, 2);
}

/* Fig. 7's stacks give Fig. 9's inherited column. */
Test(ccs_flat, fig7_fig9)
{
	static const struct expect w[] = {
		{ "Main_rev", 1237, 1237 }, { "Main_main", 0, 1237 },
		{ "Main_a", 0, 1237 }, { "Main_j", 0, 1209 },
		{ "Main_c", 0, 1188 }, { "Main_f", 0, 1188 },
		{ "Main_h", 0, 1181 }, { "Main_b", 0, 49 }, { "Main_g", 0, 49 },
		{ "Main_e", 0, 26 }, { "Main_d", 0, 23 }, { "Main_i", 0, 7 },
	};

	check_rows(FIG7, w, 12);
}

Test(ccs_flat, fig7_deselect_rev)
{
	static const struct expect w[] = {
		{ "Main_j", 1209, 1209 }, { "Main_g", 21, 49 },
		{ "Main_i", 7, 7 }, { "Main_main", 0, 1237 },
		{ "Main_a", 0, 1237 }, { "Main_c", 0, 1188 },
		{ "Main_f", 0, 1188 }, { "Main_h", 0, 1181 },
		{ "Main_b", 0, 49 }, { "Main_e", 0, 26 }, { "Main_d", 0, 23 },
	};

	check_rows("-d Main_rev " FIG7, w, 11);
}

/*
 * Rows sorted by self, descending, then by module and label: the exact
 * output (the order the reference answers of synthetic-400 use).
 */
Test(ccs_flat, fig7_order)
{
	struct run r;

	/* Main_main is a frame like any other: the root is "(root)". */
	run(&r, "ccs-flat --tsv -d Main_rev -d Main_main " FIG7);
	cr_assert_eq(r.status, 0);
	cr_expect_str_eq(r.out,
	    "module\tcost_centre\tsrc\tself\tinherited\n"
	    "\tMain_j\t\t1209\t1209\n"
	    "\tMain_g\t\t21\t49\n"
	    "\tMain_i\t\t7\t7\n"
	    "\tMain_a\t\t0\t1237\n"
	    "\tMain_b\t\t0\t49\n"
	    "\tMain_c\t\t0\t1188\n"
	    "\tMain_d\t\t0\t23\n"
	    "\tMain_e\t\t0\t26\n"
	    "\tMain_f\t\t0\t1188\n"
	    "\tMain_h\t\t0\t1181\n");
	run_free(&r);
}

/*
 * Equal self costs go in name order, module then label, byte by byte:
 * labels alike in their first eight bytes, shorter ones, bytes above
 * 0x7f, and two modules of one name (which a ccstools JSON file may
 * have) ordered as one.
 */
Test(ccs_flat, equal_self_in_name_order)
{
	static const char dup_modules[] = "{\"format\":\"ccstools-profile\","
	    "\"version\":1,\"metadata\":{},\"metrics\":[{\"name\":\"samples\","
	    "\"unit\":\"samples\",\"kind\":\"cost\",\"approximate\":false}],"
	    "\"modules\":[\"\",\"B\",\"A\",\"B\"],\"cost_centres\":["
	    "{\"label\":\"(root)\",\"module\":0,\"src\":\"\",\"caf\":false,"
	    "\"synthetic\":true,\"id\":-1},"
	    "{\"label\":\"x\",\"module\":0,\"src\":\"\",\"caf\":false,"
	    "\"synthetic\":false,\"id\":-1},"
	    "{\"label\":\"b\",\"module\":1,\"src\":\"\",\"caf\":false,"
	    "\"synthetic\":false,\"id\":-1},"
	    "{\"label\":\"a\",\"module\":2,\"src\":\"\",\"caf\":false,"
	    "\"synthetic\":false,\"id\":-1},"
	    "{\"label\":\"a\",\"module\":3,\"src\":\"\",\"caf\":false,"
	    "\"synthetic\":false,\"id\":-1}],"
	    "\"nodes\":[[0,1,0],[1,3,0],[2,0,5],[3,0,5],[4,0,5]]}\n";
	struct run r;
	char *path;

	run(&r, "printf 'x;B.abcdefghZ 5\\nx;B.abcdefghA 5\\nx;A.zz 5\\n"
	    "x;B.ab 5\\nx;B.abc 5\\nx;B.\\303\\251t\\303\\251 5\\nx;B.Z 5\\n"
	    "x;AA.a 5\\nx;B.abcdefgh 5\\nx;A.zz;C.q 2\\n' | "
	    "ccs-flat --tsv -d x");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out,
	    "module\tcost_centre\tsrc\tself\tinherited\n"
	    "A\tzz\t\t5\t7\n"
	    "AA\ta\t\t5\t5\n"
	    "B\tZ\t\t5\t5\n"
	    "B\tab\t\t5\t5\n"
	    "B\tabc\t\t5\t5\n"
	    "B\tabcdefgh\t\t5\t5\n"
	    "B\tabcdefghA\t\t5\t5\n"
	    "B\tabcdefghZ\t\t5\t5\n"
	    "B\t\303\251t\303\251\t\t5\t5\n"
	    "C\tq\t\t2\t2\n");
	run_free(&r);

	path = write_temp(dup_modules, strlen(dup_modules), ".json");
	run(&r, "ccs-flat --tsv -d x %s", path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out,
	    "module\tcost_centre\tsrc\tself\tinherited\n"
	    "A\ta\t\t5\t5\n"
	    "B\ta\t\t5\t5\n"
	    "B\tb\t\t5\t5\n");
	run_free(&r);
	remove_temp(path);
	free(path);
}

/* The reference answers of synthetic-400 (an independent implementation). */
Test(ccs_flat, synthetic_400_reference)
{
	static const struct {
		const char	*args, *tsv;
	} cases[] = {
		{ "", "flat-ticks" },
		{ "-m words", "flat-words" },
		{ "-m strict_calls", "flat-strict_calls" },
		{ "-d 'Mod1.*' -d f14", "flat-ticks-deselect" },
		{ "-d f14 -d 'Mod1.*'", "flat-ticks-deselect" },
	};
	char name[128];
	struct run r;
	char *want;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(name, sizeof(name), "synthetic-400.%s.tsv",
		    cases[i].tsv);
		want = slurp(fixture("pgcl", name), NULL);
		cr_assert(want != NULL, "no %s", name);
		run(&r, "ccs-flat --tsv %s %s", cases[i].args,
		    fixture("pgcl", "synthetic-400.pgcl"));
		cr_expect_eq(r.status, 0, "%s", r.err);
		cr_expect_str_eq(r.out, want, "ccs-flat --tsv %s differs from "
		    "%s", cases[i].args, name);
		run_free(&r);
		free(want);
	}
}

/* ---- selection ---- */

/* Every order of the same -s and -d options gives the same output. */
Test(ccs_flat, option_order_never_matters)
{
	static const char *opts[] = {
		"-s 'Main_[a-h]'", "-d Main_c", "-s 'Main_[jm]*'",
		"-d 'Main_[bd]'",
	};
	struct run r, base, all;
	int perm[4], i, j, k, l, n = 0;

	run(&all, "ccs-flat --tsv " FIG7);
	run(&base, "ccs-flat --tsv %s %s %s %s " FIG7, opts[0], opts[1],
	    opts[2], opts[3]);
	cr_assert_eq(base.status, 0, "%s", base.err);
	cr_assert_str_neq(base.out, all.out, "the options changed nothing");
	for (i = 0; i < 4; i++)
		for (j = 0; j < 4; j++)
			for (k = 0; k < 4; k++)
				for (l = 0; l < 4; l++) {
					if (i == j || i == k || i == l ||
					    j == k || j == l || k == l)
						continue;
					perm[0] = i, perm[1] = j;
					perm[2] = k, perm[3] = l;
					run(&r, "ccs-flat --tsv %s " FIG7
					    " %s %s %s", opts[perm[0]],
					    opts[perm[1]], opts[perm[2]],
					    opts[perm[3]]);
					cr_expect_str_eq(r.out, base.out,
					    "order %d%d%d%d differs", i, j, k,
					    l);
					run_free(&r);
					n++;
				}
	cr_expect_eq(n, 24);
	run_free(&base);
	run_free(&all);
}

/* Selected: matching some -s (a..h, j, main), minus matching a -d (b, c,
 * d). */
Test(ccs_flat, select_minus_deselect)
{
	static const struct expect w[] = {
		{ "Main_j", 1209, 1209 }, { "Main_g", 21, 49 },
		{ "Main_f", 7, 1188 }, { "Main_main", 0, 1237 },
		{ "Main_a", 0, 1237 }, { "Main_h", 0, 1181 },
		{ "Main_e", 0, 26 },
	};

	check_rows("-s 'Main_[a-h]' -d Main_c -s 'Main_[jm]*' -d 'Main_[bd]' "
	    FIG7, w, 7);
}

/* A pattern matches the label or Module.label. */
Test(ccs_flat, glob_label_or_module_label)
{
	struct run a, b, c, d;

	run(&a, "ccs-flat --tsv -d 'g*' " ESCAPES);
	run(&b, "ccs-flat --tsv -d 'Main.g*' " ESCAPES);
	run(&c, "ccs-flat --tsv -d 'M*.g*' " ESCAPES);
	run(&d, "ccs-flat --tsv " ESCAPES);
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_expect_str_eq(a.out, b.out);
	cr_expect_str_eq(a.out, c.out);
	cr_expect_str_neq(a.out, d.out);
	cr_expect(strstr(a.out, "g\\\\h") == NULL, "g\\h still listed:\n%s",
	    a.out);
	run_free(&a);
	run_free(&b);
	run_free(&c);
	run_free(&d);
}

Test(ccs_flat, select_file)
{
	struct run a, b;
	static const char text[] = "# comment\n\nMain_rev\n  Main_j  \n";
	char *pats = write_temp(text, strlen(text), ".txt");

	run(&a, "ccs-flat --tsv --deselect-file %s " FIG7, pats);
	run(&b, "ccs-flat --tsv -d Main_j -d Main_rev " FIG7);
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_expect_str_eq(a.out, b.out);
	unlink(pats);
	free(pats);
	run_free(&a);
	run_free(&b);
	/* A NUL would end a pattern, and what follows it go unseen. */
	pats = write_temp("Main_rev\nMain_j\0Main_h\n", 23, ".txt");
	run(&a, "ccs-flat --deselect-file %s " FIG7, pats);
	cr_expect_eq(a.status, 1);
	cr_expect(strstr(a.err, ":2: NUL byte in a pattern\n") != NULL, "%s",
	    a.err);
	cr_expect_str_empty(a.out);
	unlink(pats);
	free(pats);
	run_free(&a);
}

/*
 * A pattern file that never ends a line is stopped: at its first NUL, as
 * /dev/zero is, or at 16 MiB of one line, in bounded memory, where the
 * whole line used to be read first.  Patterns from standard input leave
 * no profile to read there: a usage error, not "empty file".
 */
Test(ccs_flat, pattern_files_that_never_end_a_line, .timeout = 120)
{
	struct run r;

	/* The sanitizers reserve more address space than any limit. */
#if defined(__SANITIZE_ADDRESS__)
#define LIMIT	""
#else
#define LIMIT	"ulimit -v 262144 && "
#endif
	run(&r, "(" LIMIT "ccs-flat --select-file /dev/zero " FIG7 ")");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-flat: /dev/zero:1: NUL byte in a "
	    "pattern\n");
	run_free(&r);
	run(&r, "head -c 20000000 /dev/zero | tr '\\0' x | "
	    "(" LIMIT "ccs-flat --deselect-file - " FIG7 ")");
#undef LIMIT
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-flat: -:1: line too long\n");
	run_free(&r);
	/* A last line without a newline is a pattern all the same. */
	run(&r, "printf 'Main_rev\\nMain_j' | ccs-flat --tsv --deselect-file - "
	    FIG7 " | grep -c 'Main_rev\\|Main_j'");
	cr_expect_str_eq(r.out, "0\n", "%s", r.err);
	run_free(&r);
	run(&r, "cat " FIG7 " | ccs-flat --select-file - -");
	cr_expect_eq(r.status, 2);
	cr_expect(strncmp(r.err, "ccs-flat: standard input cannot hold both "
	    "a pattern file and the profile\nusage: ", 77) == 0, "%s",
	    r.err);
	run_free(&r);
	run(&r, "cat " FIG7 " | ccs-callers --select-file - Main_j");
	cr_expect_eq(r.status, 2, "%s", r.err);
	run_free(&r);
}

/* ---- output ---- */

/* Tabs, newlines, carriage returns and backslashes in names are escaped,
 * so every row has exactly five fields. */
Test(ccs_flat, tsv_escapes)
{
	struct run r;

	run(&r, "ccs-flat --tsv " ESCAPES);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out,
	    "module\tcost_centre\tsrc\tself\tinherited\n"
	    "Main\tg\\\\h\t\t5\t5\n"
	    "\tx;y\t\t4\t4\n"
	    "Main\tf\\nx\t\t3\t8\n"
	    "Main\tc\t\t2\t2\n"
	    "Main\tcr\\rz\t\t1\t1\n"
	    "Main\ta\\tb\t\t0\t2\n");
	run_free(&r);
}

Test(ccs_flat, top_n)
{
	struct run r;

	run(&r, "ccs-flat --tsv -n 2 " FIG7);
	cr_assert_eq(r.status, 0);
	cr_expect_str_eq(r.out, "module\tcost_centre\tsrc\tself\tinherited\n"
	    "\tMain_rev\t\t1237\t1237\n\tMain_a\t\t0\t1237\n");
	run_free(&r);
	run(&r, "ccs-flat --tsv -n 0 " FIG7);
	cr_expect_str_eq(r.out, "module\tcost_centre\tsrc\tself\tinherited\n");
	run_free(&r);
	run(&r, "ccs-flat --top 100 --tsv " FIG7);
	cr_expect_eq(count_lines(r.out), 13);
	run_free(&r);
	run(&r, "ccs-flat -n 3 " FIG7);
	cr_expect(strstr(r.out, "Main_a ") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "Main_j ") == NULL, "%s", r.out);
	run_free(&r);
	check_bad_arg("ccs-flat -n abc " FIG7,
	    "ccs-flat: -n: 'abc': invalid number\n");
	check_bad_arg("ccs-flat -n -1 " FIG7,
	    "ccs-flat: -n: '-1': out of range (0 to 9223372036854775807)\n");
	/* Past 64 bits is out of range too; a blank makes no number. */
	check_bad_arg("ccs-flat -n 99999999999999999999 " FIG7,
	    "ccs-flat: -n: '99999999999999999999': out of range (0 to "
	    "9223372036854775807)\n");
	check_bad_arg("ccs-flat -n ' 5' " FIG7,
	    "ccs-flat: -n: ' 5': invalid number\n");
}

/* The readable table: metric and total, one row per cost centre. */
Test(ccs_flat, table)
{
	struct run r;

	run(&r, "ccs-flat " THETA);
	cr_assert_eq(r.status, 0);
	cr_expect_str_empty(r.err);
	cr_expect(has_line(r.out, "metric:  samples (samples), total 90"),
	    "%s", r.out);
	cr_expect(has_line(r.out, "COST CENTRE"), "%s", r.out);
	cr_expect(strstr(r.out, "60   66.7") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "90  100.0") != NULL, "%s", r.out);
	cr_expect_eq(count_lines(r.out), 6, "%s", r.out);
	run_free(&r);
}

Test(ccs_flat, output_file)
{
	struct run a, b;
	char *out = write_temp("", 0, ".tsv");
	char *got;

	run(&a, "ccs-flat --tsv -o %s " FIG7, out);
	run(&b, "ccs-flat --tsv -o - " FIG7);
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_expect_str_empty(a.out);
	got = slurp(out, NULL);
	cr_assert(got != NULL);
	cr_expect_str_eq(got, b.out);
	unlink(out);
	free(out);
	free(got);
	run_free(&a);
	run_free(&b);
}

/* ---- metrics ---- */

Test(ccs_flat, unknown_metric)
{
	struct run r;

	run(&r, "ccs-flat -m nosuch " FIG7);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-flat: -m: no metric 'nosuch' in this "
	    "profile; it has: samples\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
	run(&r, "ccs-flat -m alloc %s", fixture("pgcl", "synthetic-400.pgcl"));
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-flat: -m: no metric 'alloc' in this "
	    "profile; it has: ticks words tail_returns strict_calls "
	    "lazy_calls curried_calls\n");
	run_free(&r);
}

Test(ccs_flat, default_metric_is_samples_or_ticks)
{
	struct run a, b;

	run(&a, "ccs-flat --tsv " FIG7);
	run(&b, "ccs-flat --tsv -m samples " FIG7);
	cr_expect_str_eq(a.out, b.out);
	run_free(&a);
	run_free(&b);
	run(&a, "ccs-flat --tsv %s", fixture("pgcl", "synthetic-400.pgcl"));
	run(&b, "ccs-flat --tsv -m ticks %s",
	    fixture("pgcl", "synthetic-400.pgcl"));
	cr_expect_eq(a.status, 0, "%s", a.err);
	cr_expect_str_eq(a.out, b.out);
	run_free(&a);
	run_free(&b);
}

/* A count metric stays with its cost centre and is dropped with it. */
Test(ccs_flat, count_metric_dropped_when_deselected)
{
	struct run a, b;
	const char *p = fixture("pgcl", "synthetic-400.pgcl");
	int64_t rs_a, ri_a, rs_b, ri_b, fs, fi;

	run(&a, "ccs-flat --tsv -m strict_calls %s", p);
	run(&b, "ccs-flat --tsv -m strict_calls -d f24 %s", p);
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_assert_eq(b.status, 0, "%s", b.err);
	cr_assert(tsv_row(a.out, "_start", &rs_a, &ri_a), "%s", a.out);
	cr_assert(tsv_row(b.out, "_start", &rs_b, &ri_b), "%s", b.out);
	cr_assert(tsv_row(a.out, "f24", &fs, &fi));
	cr_expect(fs > 0);
	cr_expect(!tsv_row(b.out, "f24", &fs, &fi), "f24 still listed");
	/* Not moved to the root: dropped. */
	cr_expect_eq(rs_b, rs_a, "the root's own calls changed");
	cr_expect_eq(ri_b, ri_a - fs, "root inherited %" PRId64 ", want %"
	    PRId64, ri_b, ri_a - fs);
	run_free(&a);
	run_free(&b);
}

/* ---- inputs ---- */

Test(ccs_flat, stdin_and_pipes)
{
	struct run a, b, c, d;

	run(&a, "ccs-flat --tsv " FIG7);
	run(&b, "ccs-flat --tsv - < " FIG7);
	run(&c, "ccs-flat --tsv < " FIG7);
	run(&d, "cat " FIG7 " | ccs-flat --tsv -");
	cr_assert_eq(a.status, 0);
	cr_expect_str_eq(b.out, a.out);
	cr_expect_str_eq(c.out, a.out);
	cr_expect_str_eq(d.out, a.out);
	cr_expect_str_empty(d.err);
	run_free(&a);
	run_free(&b);
	run_free(&c);
	run_free(&d);
}

Test(ccs_flat, gzip_input)
{
	struct run a, b, c;
	char *gz = write_temp("", 0, ".gz");

	run(&a, "gzip -c " FIG7 " > %s", gz);
	cr_assert_eq(a.status, 0, "gzip: %s", a.err);
	run_free(&a);
	run(&a, "ccs-flat --tsv " FIG7);
	run(&b, "ccs-flat --tsv %s", gz);
	run(&c, "cat %s | ccs-flat --tsv -d Main_rev -", gz);
	cr_assert_eq(b.status, 0, "%s", b.err);
	cr_expect_str_eq(b.out, a.out);
	cr_expect_eq(c.status, 0, "%s", c.err);
	cr_expect(strstr(c.out, "\tMain_j\t\t1209\t1209\n") != NULL, "%s",
	    c.out);
	unlink(gz);
	free(gz);
	run_free(&a);
	run_free(&b);
	run_free(&c);
}

/*
 * Gzip members one after the other read as the files joined; anything
 * else after the last member is refused with where it starts in the
 * compressed file, from a file or a pipe: what gzip -d reads with
 * "trailing garbage ignored" is a damaged file.
 */
Test(ccs_flat, gzip_members_and_trailing_bytes)
{
	struct run a, b;
	char want[256];
	size_t n;

	run(&a, "cat " FIG7 " " THETA " | ccs-flat --tsv");
	/* From the file and from a pipe: the same table twice. */
	run_in_temp(&b, "(gzip -c " FIG7 "; gzip -c " THETA ") > \"$T\"/x.gz "
	    "&& ccs-flat --tsv \"$T\"/x.gz > \"$T\"/f && cat \"$T\"/x.gz | "
	    "ccs-flat --tsv > \"$T\"/p && cmp \"$T\"/f \"$T\"/p && "
	    "cat \"$T\"/f");
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_expect_eq(b.status, 0, "%s", b.err);
	cr_expect_str_eq(b.out, a.out);
	run_free(&a);
	run_free(&b);

	run(&a, "gzip -c " FIG7 " | wc -c");
	cr_assert_eq(a.status, 0);
	n = (size_t)strtoul(a.out, NULL, 10);
	run_free(&a);
	run_in_temp(&a, "gzip -c " FIG7 " > \"$T\"/x.gz && echo junk >> "
	    "\"$T\"/x.gz && cd \"$T\" && ccs-flat x.gz");
	run(&b, "(gzip -c " FIG7 "; printf '\\0\\0') | ccs-flat -");
	cr_expect_eq(a.status, 1);
	cr_expect_eq(b.status, 1);
	cr_expect_str_empty(a.out);
	cr_expect_str_empty(b.out);
	snprintf(want, sizeof(want), "ccs-flat: x.gz: compressed byte %zu: "
	    "trailing bytes after the gzip data\n", n);
	cr_expect_str_eq(a.err, want);
	snprintf(want, sizeof(want), "ccs-flat: <stdin>: compressed byte %zu: "
	    "trailing bytes after the gzip data\n", n);
	cr_expect_str_eq(b.err, want);
	run_free(&a);
	run_free(&b);
}

Test(ccs_flat, forced_format)
{
	struct run a, b;

	run(&a, "ccs-flat --tsv -f folded " FIG7);
	run(&b, "ccs-flat --tsv " FIG7);
	cr_expect_eq(a.status, 0, "%s", a.err);
	cr_expect_str_eq(a.out, b.out);
	run_free(&a);
	run_free(&b);
	run(&a, "ccs-flat -f pgcl " FIG7);
	cr_expect_eq(a.status, 1);
	cr_expect(strncmp(a.err, "ccs-flat: " FIG7 ": ", 10 + strlen(FIG7) +
	    2) == 0, "%s", a.err);
	run_free(&a);
	check_bad_arg("ccs-flat -f nosuch " FIG7,
	    "ccs-flat: -f: unknown format 'nosuch' (see --list-formats)\n");
}

Test(ccs_flat, not_a_profile)
{
	struct run r;
	char *empty = write_temp("", 0, ".folded");

	run(&r, "ccs-flat Makefile");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-flat: Makefile: not a profile in any "
	    "known format (see ccs-formats(5))\n");
	run_free(&r);
	run(&r, "ccs-flat %s", empty);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, ": empty file\n") != NULL, "%s", r.err);
	run_free(&r);
	unlink(empty);
	free(empty);
}

/* The paper's examples give the same numbers from any format: through
 * the dump and pgcl writers and back. */
Test(ccs_flat, same_through_dump)
{
	struct run a, b;

	run(&a, "ccs-flat --tsv " FIG7);
	run(&b, "ccs-convert -t dump " FIG7 " | ccs-flat --tsv -");
	cr_expect_eq(b.status, 0, "%s", b.err);
	cr_expect_str_eq(b.out, a.out);
	run_free(&a);
	run_free(&b);
}

/*
 * --compensate applies to a Clean profile alone, which states its
 * overhead.  Any other input, a dump of one too, is read as it is, and a
 * warning says so: "ccs-select -d X p.pgcl | ccs-flat --compensate" must
 * not silently differ from "ccs-flat --compensate -d X p.pgcl".  A dump
 * of ticks compensated already needs no word, and pipes to the same
 * numbers.
 */
Test(ccs_flat, compensate_only_clean_profiles)
{
	struct run a, b;
	char *pgcl = write_temp("", 0, ".pgcl");

	run(&a, "ccs-gen -q -t pgcl -n 400 --seed 3 -o %s", pgcl);
	cr_assert_eq(a.status, 0, "%s", a.err);
	run_free(&a);

	run(&a, "ccs-flat --tsv --compensate -d 'Expr.*' %s", pgcl);
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_expect_str_empty(a.err);
	/* Compensated in ccs-select: nothing more to do, nothing to say. */
	run(&b, "ccs-select --compensate -d 'Expr.*' %s | "
	    "ccs-flat --tsv --compensate", pgcl);
	cr_expect_eq(b.status, 0, "%s", b.err);
	cr_expect_str_empty(b.err);
	cr_expect_str_eq(b.out, a.out);
	run_free(&b);
	/* Not compensated upstream: the numbers differ, and it is said. */
	run(&b, "ccs-select -d 'Expr.*' %s | ccs-flat --tsv --compensate",
	    pgcl);
	cr_expect_eq(b.status, 0, "%s", b.err);
	cr_expect_str_neq(b.out, a.out, "the overhead of the file is 0");
	cr_expect(strstr(b.err, "ccs-flat: warning: <stdin>: --compensate "
	    "applies to Clean profiles only; this is dump: not compensated")
	    != NULL, "%s", b.err);
	run_free(&b);
	run_free(&a);
	run(&a, "ccs-flat --compensate " FIG7);
	cr_expect_eq(a.status, 0, "%s", a.err);
	cr_expect(strstr(a.err, "this is folded: not compensated") != NULL,
	    "%s", a.err);
	run_free(&a);
	unlink(pgcl);
	free(pgcl);
}

/*
 * Only the metric shown is summed (ccs-flat(1)): a sum of another one
 * that passes 64 bits is no error, but it is when that metric is shown.
 */
Test(ccs_flat, overflow_only_in_the_metric_shown)
{
	static const char two[] = "{\"format\":\"ccstools-profile\","
	    "\"version\":1,\"metadata\":{},\"metrics\":[{\"name\":\"ticks\","
	    "\"unit\":\"ticks\",\"kind\":\"cost\"},{\"name\":\"alloc\","
	    "\"unit\":\"bytes\",\"kind\":\"cost\"}],\"modules\":[\"M\"],"
	    "\"cost_centres\":[{\"label\":\"a\",\"module\":0,\"src\":\"\","
	    "\"id\":1}],\"nodes\":[[0,2,0,0],[0,0,1,9223372036854775807],"
	    "[0,0,1,1]]}";
	struct run r;
	char *p = write_temp(two, sizeof(two) - 1, ".json");

	run(&r, "ccs-flat --tsv %s", p);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "\t2\t") != NULL, "%s", r.out);
	run_free(&r);
	run(&r, "ccs-flat -m alloc %s", p);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "64-bit overflow summing 'alloc'") != NULL,
	    "%s", r.err);
	run_free(&r);
	unlink(p);
	free(p);
}

/*
 * The table's columns, as printf("%14" PRId64 " %6s") would lay them out:
 * numbers wider than their column push the line right rather than run
 * into the one before, negative values and a negative zero percentage
 * keep their sign, and entries come in a column of their own.
 */
Test(ccs_flat, table_columns)
{
	static const char wide[] = "a;b 99999999999999999\n"
	    "a;c -999999999999\na 1\n";
	char *path = write_temp(wide, sizeof(wide) - 1, ".folded");
	struct run r;

	run(&r, "ccs-flat %s", path);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out,
	    "metric:  samples (samples), total 99999000000000001\n"
	    "\n"
	    "COST CENTRE  MODULE            SELF  %SELF       INHERITED   %INH\n"
	    "b                    99999999999999999  100.0  "
	    "99999999999999999  100.0\n"
	    "a                                 1    0.0  "
	    "99999000000000001  100.0\n"
	    "c                     -999999999999   -0.0   -999999999999   "
	    "-0.0\n");
	run_free(&r);
	run(&r, "ccs-flat -n 1 examples/mj.prof");
	cr_expect(strstr(r.out, "\nrev          Main                38  "
	    "100.0              38  100.0          8924\n") != NULL, "%s",
	    r.out);
	run_free(&r);
	unlink(path);
	free(path);
}

/*
 * calls.P.prof (GHC 9.0.2, -fprof-auto-calls: calls-Main.hs) has a cost
 * centre for every call site, six of them "insert" in Main: the table
 * then gives their sources, as GHC's own does, and only then.
 */
Test(ccs_flat, sources_when_names_repeat)
{
	struct run r;

	run(&r, "ccs-flat -n 3 tests/data/ghc/calls.P.prof");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out,
	    "program: p4\nmetric:  ticks (ticks), total 117\n\n"
	    "COST CENTRE  MODULE  SRC                         SELF  %SELF"
	    "       INHERITED   %INH       ENTRIES\n"
	    "insert       Main    Main.hs:12:23-32              27   23.1"
	    "              87   74.4             0\n"
	    "insert       Main    Main.hs:11:5-9                27   23.1"
	    "              27   23.1             0\n"
	    "insert       Main    Main.hs:11:19-28              19   16.2"
	    "              42   35.9             0\n");
	run_free(&r);
	/* Names that do not repeat among the rows shown need none. */
	run(&r, "ccs-flat -n 1 tests/data/ghc/calls.P.prof");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "\ninsert       Main  ") != NULL &&
	    strstr(r.out, "SRC") == NULL, "%s", r.out);
	run_free(&r);
	run(&r, "ccs-flat tests/data/ghc/mj.P.prof");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "COST CENTRE  MODULE ") != NULL &&
	    strstr(r.out, "SRC") == NULL, "%s", r.out);
	run_free(&r);
}

/* Of a negative total, nothing is 0.0 per cent, not -0.0. */
Test(ccs_flat, zero_of_a_negative_total)
{
	static const char neg[] = "a;b 5\na;c -10\n";
	char *path = write_temp(neg, sizeof(neg) - 1, ".folded");
	struct run r;

	run(&r, "ccs-flat %s | sed -n '$p' | sed -n 1p; ccs-flat %s | "
	    "grep '^a '", path, path);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out,
	    "c                               -10  200.0             -10  200.0\n"
	    "a                                 0    0.0              -5  100.0\n");
	run_free(&r);
	unlink(path);
	free(path);
}

/*
 * A name's columns are those it takes on a terminal: two for each wide
 * East Asian character, none for a combining accent, so that the
 * columns after it line up.
 */
Test(ccs_flat, wide_and_combining_characters_line_up)
{
	static const char folded[] = "main;\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e 5\n"
	    "main;abc 3\nmain;cafe\xcc\x81 2\n";
	char *path = write_temp(folded, sizeof(folded) - 1, ".folded");
	struct run r;

	run(&r, "ccs-flat %s", path);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out,
	    "metric:  samples (samples), total 10\n"
	    "\n"
	    "COST CENTRE  MODULE            SELF  %SELF       INHERITED   %INH\n"
	    "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e"
	    "                            5   50.0               5   50.0\n"
	    "abc                               3   30.0               3   30.0\n"
	    "cafe\xcc\x81"
	    "                              2   20.0               2   20.0\n"
	    "main                              0    0.0              10  100.0\n");
	run_free(&r);
	unlink(path);
	free(path);
}

/*
 * Standard input that starts past the beginning of its file, as after
 * a shell's "read" of a header line, is read from where it is: the
 * binary formats, which map a file, read such input instead.
 */
Test(ccs_flat, stdin_from_the_middle_of_a_file)
{
	static const char *const fmts[] = { "dump", "pgcl" };
	char *dir = make_temp_dir();
	struct run r, want;
	size_t i;

	for (i = 0; i < 2; i++) {
		run(&want, "ccs-gen -q -t %s -n 2000 -o %s/a && ccs-flat %s/a",
		    fmts[i], dir, dir);
		cr_assert_eq(want.status, 0, "%s", want.err);
		run(&r, "{ printf 'hdr\\n'; cat %s/a; } > %s/h && "
		    "{ dd bs=4 count=1 status=none of=/dev/null; ccs-flat -; } "
		    "< %s/h", dir, dir, dir);
		cr_expect_eq(r.status, 0, "%s: %s", fmts[i], r.err);
		cr_expect_str_eq(r.out, want.out, "%s", fmts[i]);
		run_free(&r);
		run_free(&want);
	}
	remove_temp(dir);
	free(dir);
}

/* A profile with no metrics has no report to give, and says so, as
 * ccs-hot does. */
Test(ccs_flat, no_metrics)
{
	check_no_metrics("ccs-flat", "ccs-flat");
	check_no_metrics("ccs-flat --tsv", "ccs-flat");
}

/* GHC's wrapper module ":Main" (its CAF, under -fprof-cafs) is a module
 * in a folded frame, as it was in the profile; a colon before anything
 * else is part of a bare label. */
Test(ccs_flat, folded_colon_main_module)
{
	struct run r;

	run(&r, "printf ':Main.CAF:main;Main.f 3\\n:x.y 1\\n' | "
	    "ccs-flat --tsv -");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "module\tcost_centre\tsrc\tself\tinherited\n"
	    "Main\tf\t\t3\t3\n\t:x.y\t\t1\t1\n:Main\tCAF:main\t\t0\t3\n");
	run_free(&r);
}

/*
 * A UTF-8 byte order mark, as Windows editors write, is no part of the
 * profile: each text format reads the same with it as without, from a
 * file and from a pipe, gzipped too.
 */
Test(ccs_flat, byte_order_mark_skipped)
{
	static const char *const files[] = {
		FIG7, ESCAPES, "tests/data/ghc/demo.prof",
		"tests/data/ghc/mj.P.prof", "tests/data/ghc/demo.json",
	};
	struct run want, r;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		run(&want, "ccs-flat --tsv %s", files[i]);
		cr_assert_eq(want.status, 0, "%s: %s", files[i], want.err);
		run(&r, "f=$(mktemp) && { printf '\\357\\273\\277'; cat %s; } "
		    ">\"$f\" && ccs-flat --tsv \"$f\" && "
		    "ccs-flat --tsv - <\"$f\" && gzip -c \"$f\" | ccs-flat "
		    "--tsv; st=$?; rm -f \"$f\"; exit $st", files[i]);
		cr_assert_eq(r.status, 0, "%s: %s", files[i], r.err);
		cr_expect_str_empty(r.err, "%s", files[i]);
		cr_expect(strlen(r.out) == 3 * strlen(want.out) &&
		    strncmp(r.out, want.out, strlen(want.out)) == 0 &&
		    strstr(r.out + strlen(want.out), want.out) ==
		    r.out + strlen(want.out), "%s: %s", files[i], r.out);
		run_free(&want);
		run_free(&r);
	}
	/* ccstools JSON, written here. */
	run(&want, "ccs-convert -t json %s | ccs-flat --tsv", FIG7);
	run(&r, "{ printf '\\357\\273\\277'; ccs-convert -t json %s; } | "
	    "ccs-flat --tsv", FIG7);
	cr_assert_eq(want.status, 0, "%s", want.err);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, want.out);
	run_free(&want);
	run_free(&r);
}
