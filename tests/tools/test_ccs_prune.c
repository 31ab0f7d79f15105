/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-prune, run as a built binary: the common tool checks, thresholds
 * on inclusive cost folding into the parent (Fig. 7 worked by hand), -v,
 * --min-pct, --exclude, conservation of the cost totals on the Clean
 * and GHC fixtures, counts dropped, nothing pruned at zero, the fixed
 * order of selection and pruning, and the pipeline of the issue.
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "toolcheck.h"
#include "pipecheck.h"

/* ---- what every tool has ---- */

Test(ccs_prune, help)
{
	check_help("ccs-prune");
}

Test(ccs_prune, version)
{
	check_version("ccs-prune", CCSTOOLS_VERSION_LINE("ccs-prune"));
}

Test(ccs_prune, bad_usage)
{
	check_bad_usage("ccs-prune", "--no-such-option " FIG7);
	check_bad_usage("ccs-prune", "-x " FIG7);
	check_bad_usage("ccs-prune", FIG7 " " THETA);
	check_bad_usage("ccs-prune", "--min-ticks");
	check_bad_usage("ccs-prune", "--tsv " FIG7);
}

Test(ccs_prune, missing_file)
{
	check_missing_file("ccs-prune --min-ticks 5", "ccs-prune");
}

/* Bad option arguments: exit 2 and exactly this message. */
static void
bad_argument(const char *args, const char *msg)
{
	struct run r;

	run(&r, "ccs-prune %s " FIG7, args);
	cr_expect_eq(r.status, 2, "ccs-prune %s: exit %d", args, r.status);
	cr_expect_str_eq(r.err, msg);
	cr_expect_str_empty(r.out);
	run_free(&r);
}

Test(ccs_prune, bad_arguments)
{
	bad_argument("--min-ticks abc",
	    "ccs-prune: --min-ticks: 'abc': invalid number\n");
	bad_argument("--min-words 5x",
	    "ccs-prune: --min-words: '5x': invalid number\n");
	bad_argument("--min ticks",
	    "ccs-prune: --min: 'ticks': expected METRIC=N\n");
	bad_argument("--min =5", "ccs-prune: --min: '=5': expected METRIC=N\n");
	bad_argument("--min-pct 101",
	    "ccs-prune: --min-pct: '101': out of range (0 to 100)\n");
	bad_argument("--min-pct -1",
	    "ccs-prune: --min-pct: '-1': out of range (0 to 100)\n");
	bad_argument("--min-pct x", "ccs-prune: --min-pct: 'x': invalid "
	    "number\n");
	bad_argument("--max-stacks -1",
	    "ccs-prune: --max-stacks: '-1': out of range (0 to 4294967295)\n");
	bad_argument("--max-stacks 10k",
	    "ccs-prune: --max-stacks: '10k': invalid number\n");
}

/* A threshold on a metric the profile lacks: exit 1. */
Test(ccs_prune, threshold_on_a_missing_metric)
{
	struct run r;

	run(&r, "ccs-prune --min-ticks 5 " FIG7);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-prune: no metric 'ticks' in this profile "
	    "to prune by\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
	run(&r, "ccs-prune --min nosuch=5 " PGCL);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-prune: no metric 'nosuch' in this profile "
	    "to prune by\n");
	run_free(&r);
}

/* ---- Fig. 7 by hand ---- */

/*
 * Fig. 7's tree, inclusive samples: main 1237, a 1237; a;c 1188, c;f
 * 1188, f;h;j;rev 1181, f;i;rev 7; a;b 49, b;e;g 26 (j;rev 16, rev 10),
 * b;d;g 23 (rev 11, j;rev 12).
 */
Test(ccs_prune, fig7_min_samples_and_verbose)
{
	struct run r;

	run_ok(&r, "ccs-prune --min samples=10 -t folded " FIG7);
	/* Only f;i (7) is below 10; f keeps its 7. */
	cr_expect_str_eq(r.out,
	    "Main_main;Main_a;Main_c;Main_f 7\n"
	    "Main_main;Main_a;Main_c;Main_f;Main_h;Main_j;Main_rev 1181\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g;Main_j;Main_rev 16\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g;Main_rev 10\n"
	    "Main_main;Main_a;Main_b;Main_d;Main_g;Main_rev 11\n"
	    "Main_main;Main_a;Main_b;Main_d;Main_g;Main_j;Main_rev 12\n");
	run_free(&r);
	run(&r, "ccs-prune -v --min samples=10 " FIG7 " >/dev/null");
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.err, "ccs-prune: 1 subtrees pruned\n"
	    "ccs-prune: samples: 7 samples folded into parents\n");
	run_free(&r);
	/* Without -v, nothing on stderr. */
	run_ok(&r, "ccs-prune --min samples=10 " FIG7 " >/dev/null");
	run_free(&r);
}

/* --min-pct 1 of 1237 is 12.37, rounded up: a stack needs 13. */
Test(ccs_prune, fig7_min_pct)
{
	struct run r;

	run_ok(&r, "ccs-prune --min-pct 1 -t folded " FIG7);
	cr_expect_str_eq(r.out,
	    "Main_main;Main_a;Main_c;Main_f 7\n"
	    "Main_main;Main_a;Main_c;Main_f;Main_h;Main_j;Main_rev 1181\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g 10\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g;Main_j;Main_rev 16\n"
	    "Main_main;Main_a;Main_b;Main_d;Main_g 23\n");
	run_free(&r);
	run(&r, "ccs-prune -v --min-pct 1 " FIG7 " >/dev/null");
	cr_expect_str_eq(r.err, "ccs-prune: 4 subtrees pruned\n"
	    "ccs-prune: samples: 40 samples folded into parents\n");
	run_free(&r);
	same_output("ccs-prune --min-pct 1 " FIG7 " | ccs-stacks --all",
	    "ccs-prune --min samples=13 " FIG7 " | ccs-stacks --all");
	/* 0.97% of 1237 is 11.9989: a stack needs 12. */
	same_output("ccs-prune --min-pct 0.97 " FIG7 " | ccs-stacks --all",
	    "ccs-prune --min samples=12 " FIG7 " | ccs-stacks --all");
	/* Relative to the total after the selection, which is the same. */
	same_output("ccs-prune --min-pct 1 -d Main_rev " FIG7 " | ccs-stacks",
	    "ccs-select -d Main_rev " FIG7 " | ccs-prune --min samples=13 | "
	    "ccs-stacks");
}

/*
 * The root's cost centre where it comes again above the root is
 * excluded by its name, by a glob and among many names alike, though a
 * selection keeps it wherever it is: the root itself stays.
 */
Test(ccs_prune, exclude_names_the_roots_cost_centre)
{
#define CC(l)	"{\"label\":\"" l "\",\"module\":0,\"src\":\"\"," \
		"\"caf\":false,\"synthetic\":false,\"id\":-1}"
	static const char json[] = "{\"format\":\"ccstools-profile\","
	    "\"version\":1,\"metadata\":{},\"metrics\":[{\"name\":\"ticks\","
	    "\"unit\":\"ticks\",\"kind\":\"cost\",\"approximate\":false}],"
	    "\"modules\":[\"M\"],\"cost_centres\":[" CC("MAIN") "," CC("a")
	    "," CC("b") "],\"nodes\":[[0,2,0],[1,1,0],[0,0,3],[2,0,1]]}";
#undef CC
	static const char *const how[] = {
		"--exclude MAIN", "--exclude 'M*N'",
		"--exclude x1 --exclude x2 --exclude x3 --exclude x4 "
		"--exclude x5 --exclude x6 --exclude x7 --exclude x8 "
		"--exclude x9 --exclude x10 --exclude x11 --exclude x12 "
		"--exclude x13 --exclude x14 --exclude x15 --exclude x16 "
		"--exclude M.MAIN",
	};
	char *in = write_temp(json, sizeof(json) - 1, ".json");
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(how) / sizeof(how[0]); i++) {
		run(&r, "ccs-prune -q %s -t folded %s 2>/dev/null", how[i], in);
		cr_expect_eq(r.status, 0, "%s", how[i]);
		cr_expect_str_eq(r.out, "M.MAIN;M.a 3\nM.MAIN;M.b 1\n", "%s",
		    how[i]);
		run_free(&r);
	}
	unlink(in);
	free(in);
}

Test(ccs_prune, fig7_exclude_removes_the_subtree)
{
	struct run r;

	/* b and all it called fold into a: 49. */
	run_ok(&r, "ccs-prune --exclude Main_b -t folded " FIG7);
	cr_expect_str_eq(r.out,
	    "Main_main;Main_a 49\n"
	    "Main_main;Main_a;Main_c;Main_f;Main_h;Main_j;Main_rev 1181\n"
	    "Main_main;Main_a;Main_c;Main_f;Main_i;Main_rev 7\n");
	run_free(&r);
	/* Every j goes, with the rev above it; unlike -d j. */
	run_ok(&r, "ccs-prune --exclude Main_j -t folded " FIG7);
	cr_expect_str_eq(r.out,
	    "Main_main;Main_a;Main_c;Main_f;Main_h 1181\n"
	    "Main_main;Main_a;Main_c;Main_f;Main_i;Main_rev 7\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g 16\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g;Main_rev 10\n"
	    "Main_main;Main_a;Main_b;Main_d;Main_g 12\n"
	    "Main_main;Main_a;Main_b;Main_d;Main_g;Main_rev 11\n");
	run_free(&r);
	run(&r, "ccs-prune -v --exclude Main_j " FIG7 " >/dev/null");
	cr_expect_str_eq(r.err, "ccs-prune: 3 subtrees pruned\n"
	    "ccs-prune: samples: 1209 samples folded into parents\n");
	run_free(&r);
	/* Globs, and several excludes: everything folds into a. */
	run_ok(&r, "ccs-prune --exclude 'Main_[b]' --exclude '*_c' -t folded "
	    FIG7);
	cr_expect_str_eq(r.out, "Main_main;Main_a 1237\n");
	run_free(&r);
	/* The root is never removed. */
	run_ok(&r, "ccs-prune --exclude '*' --min ticks=5000 -t folded "
	    GHC_P);
	cr_expect_str_eq(r.out, "MAIN.MAIN 47\n");
	run_free(&r);
	/* A folded file's root is the reader's: every frame can go. */
	run_ok(&r, "ccs-prune --exclude '*' " FIG7 " | ccs-flat --tsv");
	cr_expect_str_eq(r.out, "module\tcost_centre\tsrc\tself\tinherited\n"
	    "\t(root)\t\t1237\t1237\n");
	run_free(&r);
}

/* ---- conservation, counts, and nothing at zero ---- */

/* Inherited of the root, from ccs-flat --tsv of cmd, metric m. */
static int64_t
root_total(const char *cmd, const char *root, const char *m)
{
	char full[1024], *out;
	int64_t self, inh;

	snprintf(full, sizeof(full), "%s | ccs-flat --tsv -m %s", cmd, m);
	out = output_of(full);
	cr_assert(tsv_row(out, root, &self, &inh), "%s: no %s", full, root);
	free(out);
	return inh;
}

Test(ccs_prune, cost_totals_are_conserved)
{
	static const char *const prunes[] = {
		"--min-ticks 50",
		"--min-ticks 500 --min-words 1000",
		"--min-words 0",
		"--exclude 'Mod4.*' --exclude f15",
		"--min-pct 5 -m words",
		"--min-pct 2.5 --exclude 'Mod2.f*'",
		"--min tail_returns=3 -d 'Mod1.*'",
	};
	char cmd[256], cat[256];
	size_t i;

	snprintf(cat, sizeof(cat), "cat " PGCL);
	for (i = 0; i < sizeof(prunes) / sizeof(prunes[0]); i++) {
		snprintf(cmd, sizeof(cmd), "ccs-prune %s " PGCL, prunes[i]);
		cr_expect_eq(root_total(cmd, "_start", "ticks"),
		    root_total(cat, "_start", "ticks"), "%s: ticks", cmd);
		cr_expect_eq(root_total(cmd, "_start", "words"),
		    root_total(cat, "_start", "words"), "%s: words", cmd);
	}
	snprintf(cmd, sizeof(cmd), "ccs-prune --min-ticks 2 " GHC_P2);
	snprintf(cat, sizeof(cat), "cat " GHC_P2);
	cr_expect_eq(root_total(cmd, "MAIN", "ticks"),
	    root_total(cat, "MAIN", "ticks"));
	cr_expect_eq(root_total(cmd, "MAIN", "alloc"),
	    root_total(cat, "MAIN", "alloc"));
}

/* The amount of a metric in "-v" output, or -1. */
static int64_t
reported(const char *err, const char *metric)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "ccs-prune: %s: ", metric);
	if ((p = strstr(err, key)) == NULL)
		return -1;
	return strtoll(p + strlen(key), NULL, 10);
}

/*
 * The folded amount is the cost that moved: the pruned subtrees'
 * inclusive cost, which is what the surviving stacks gained.  Counts
 * are dropped, and -v says how many.
 */
Test(ccs_prune, verbose_reports_what_moved)
{
	struct run r;
	char *before, *after;
	int64_t gained = 0, v, self, inh, total;
	const char *line, *nl;

	run(&r, "ccs-prune -v --min-ticks 1 " GHC_P " > /dev/null");
	cr_assert_eq(r.status, 0);
	cr_expect(has_line(r.err, "ccs-prune: 9 subtrees pruned"), "%s", r.err);
	cr_expect_eq(reported(r.err, "ticks"), 0, "%s", r.err);
	cr_expect(has_line(r.err, "ccs-prune: entries: 1917 calls dropped "
	    "(counts do not fold)"), "%s", r.err);
	v = reported(r.err, "alloc");
	/* Stacks of zero ticks allocated: that moved to their parents. */
	before = output_of("ccs-stacks -m alloc " GHC_P);
	after = output_of("ccs-prune --min-ticks 1 " GHC_P " | ccs-stacks "
	    "-m alloc");
	/* Every surviving stack gained alloc; sum after minus before. */
	for (line = after; *line != '\0'; line = nl + 1) {
		char stack[1024], *sp, *hit;
		int64_t a, b = 0;

		nl = strchr(line, '\n');
		cr_assert(nl != NULL && (size_t)(nl - line) < sizeof(stack));
		memcpy(stack, line, (size_t)(nl - line));
		stack[nl - line] = '\0';
		sp = strrchr(stack, ' ');
		a = strtoll(sp + 1, NULL, 10);
		sp[1] = '\0';
		/* The same stack before, if it had a value. */
		for (hit = before; (hit = strstr(hit, stack)) != NULL; hit++)
			if (hit == before || hit[-1] == '\n') {
				b = strtoll(hit + strlen(stack), NULL, 10);
				break;
			}
		gained += a - b;
	}
	cr_expect_eq(gained, v, "stacks gained %" PRId64 ", -v said %" PRId64,
	    gained, v);
	cr_expect(v > 0);
	free(before);
	free(after);
	/* The entries total went down by what was dropped. */
	after = output_of("ccs-prune --min-ticks 1 " GHC_P " | ccs-flat --tsv "
	    "-m entries");
	cr_assert(tsv_row(after, "MAIN", &self, &inh));
	before = output_of("ccs-flat --tsv -m entries " GHC_P);
	cr_assert(tsv_row(before, "MAIN", &self, &total));
	cr_expect_eq(inh, total - 1917);
	free(before);
	free(after);
	run_free(&r);
}

Test(ccs_prune, nothing_pruned_at_zero)
{
	static const char *const files[] = { PGCL, GHC_P, GHC_P3, GHC_JSON };
	char a[256], b[256];
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(a, sizeof(a), "ccs-prune --min-ticks 0 %s | "
		    "ccs-stacks --all", files[i]);
		snprintf(b, sizeof(b), "ccs-stacks --all %s", files[i]);
		same_output_and_warnings(a, b);
		snprintf(a, sizeof(a), "ccs-prune --min-pct 0 %s | "
		    "ccs-convert -t dump | ccs-flat --tsv", files[i]);
		snprintf(b, sizeof(b), "ccs-flat --tsv %s", files[i]);
		same_output(a, b);
		run(&r, "ccs-prune -v --min-ticks 0 %s >/dev/null", files[i]);
		cr_expect(has_line(r.err, "ccs-prune: 0 subtrees pruned"), "%s",
		    r.err);
		cr_expect_eq(reported(r.err, "ticks"), 0);
		run_free(&r);
	}
	same_output("ccs-prune --min samples=0 -t folded " FIG7,
	    "ccs-stacks " FIG7);
}

/* Negative words: --min-words 0 prunes them, and still conserves. */
Test(ccs_prune, negative_values)
{
	struct run r;

	run(&r, "ccs-prune -v --min-words 0 " PGCL " >/dev/null");
	cr_expect_eq(r.status, 0);
	cr_expect(!has_line(r.err, "ccs-prune: 0 subtrees pruned"), "%s", r.err);
	cr_expect(reported(r.err, "words") < 0, "%s", r.err);
	run_free(&r);
	/*
	 * What stays has inclusive words of at least 0, and folding does
	 * not change a survivor's inclusive cost: a second pass prunes
	 * nothing.
	 */
	run(&r, "ccs-prune --min-words 0 " PGCL " | ccs-prune -v --min-words 0 "
	    ">/dev/null");
	cr_expect_eq(r.status, 0);
	cr_expect(has_line(r.err, "ccs-prune: 0 subtrees pruned"), "%s", r.err);
	run_free(&r);
	/* Some garbage collections went. */
	same_output("ccs-stacks --all " PGCL " | grep -c garbage_collector",
	    "echo 119");
	same_output("ccs-prune --min-words 0 " PGCL " | ccs-stacks --all | "
	    "grep -c garbage_collector", "echo 41");
}

/* ---- --max-stacks ---- */

/*
 * Run "ccs-prune -v --max-stacks n input then" (then: where the output
 * goes) into r, and expect it to succeed and -v to say "--max-stacks:
 * said".
 */
static void
run_max_stacks(struct run *r, const char *n, const char *input,
    const char *then, const char *said)
{
	char want[128];

	run(r, "ccs-prune -v --max-stacks %s %s %s", n, input, then);
	cr_expect_eq(r->status, 0, "%s", r->err);
	snprintf(want, sizeof(want), "ccs-prune: --max-stacks: %s", said);
	cr_expect(has_line(r->err, want), "%s: %s", n, r->err);
}

/*
 * Fig. 7 has 21 stacks with the reader's root.  Ranked by inclusive
 * samples: 1237 three times, 1188 twice, 1181 three times, b 49, e and
 * b;e;g 26, d and b;d;g 23, ...  The threshold is one above the first
 * value that does not fit: at most 9 or 10 keep the nine of 49 and more,
 * as the two of 26 would make 11; 11 and 12 keep those two as well.
 */
Test(ccs_prune, max_stacks_fig7)
{
	static const struct {
		const char *n, *kept;
	} cases[] = {
		{ "9", "9 of 21 stacks kept, inclusive samples at least 27" },
		{ "10", "9 of 21 stacks kept, inclusive samples at least 27" },
		{ "11", "11 of 21 stacks kept, inclusive samples at least 24" },
		{ "12", "11 of 21 stacks kept, inclusive samples at least 24" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_max_stacks(&r, cases[i].n, FIG7, ">/dev/null",
		    cases[i].kept);
		cr_expect_eq(reported(r.err, "samples"), 56, "%s", r.err);
		run_free(&r);
	}
	run_ok(&r, "ccs-prune --max-stacks 10 -t folded " FIG7);
	cr_expect_str_eq(r.out,
	    "Main_main;Main_a;Main_c;Main_f 7\n"
	    "Main_main;Main_a;Main_c;Main_f;Main_h;Main_j;Main_rev 1181\n"
	    "Main_main;Main_a;Main_b 49\n");
	run_free(&r);
	/* The threshold it takes is --min's. */
	same_output("ccs-prune --max-stacks 12 " FIG7 " | ccs-stacks --all",
	    "ccs-prune --min samples=24 " FIG7 " | ccs-stacks --all");
	/* Enough room, or 0: nothing pruned, and -v says no threshold. */
	run(&r, "ccs-prune -v --max-stacks 21 " FIG7 " >/dev/null");
	cr_expect(has_line(r.err, "ccs-prune: 0 subtrees pruned"), "%s", r.err);
	cr_expect(strstr(r.err, "--max-stacks") == NULL, "%s", r.err);
	run_free(&r);
	same_output("ccs-prune --max-stacks 0 " FIG7 " | ccs-stacks --all",
	    "ccs-stacks --all " FIG7);
	/* The root always stays. */
	run_ok(&r, "ccs-prune --max-stacks 1 " FIG7 " | ccs-stacks --all");
	cr_expect_str_eq(r.out, "(root) 1237\n");
	run_free(&r);
}

/*
 * The root always stays, and counts among the n.  Negative values: the
 * root's -80 is below any threshold, and still stays; a stack may go
 * with one it calls.  Values of INT64_MAX cannot be cut, and nothing
 * is said of a cut that removed nothing.
 */
Test(ccs_prune, max_stacks_negative_and_extreme)
{
	static const struct {
		const char *n, *line;
	} cases[] = {
		{ "1", "1 of 4 stacks kept, inclusive samples at least 11" },
		{ "2", "1 of 4 stacks kept, inclusive samples at least 11" },
		{ "3", "3 of 4 stacks kept, inclusive samples at least -99" },
	};
	char *in = write_temp("a 10\nb 10\nc -100\n", 17, ".folded");
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		run_max_stacks(&r, cases[i].n, in, "| ccs-stacks --all",
		    cases[i].line);
		cr_expect_eq(count_lines(r.out), i < 2 ? 1 : 3, "%s", r.out);
		run_free(&r);
	}
	unlink(in);
	free(in);
	/*
	 * A stack that costs more than its caller: a;b 20 under a -10.
	 * At 11, a goes and a;b with it, leaving the root and c: 2, where
	 * ranking a;b by its own 20 took 16 and left the root alone.
	 */
	in = write_temp("a -10\na;b 20\nc 15\n", 18, ".folded");
	run_max_stacks(&r, "2", in, "-t folded",
	    "2 of 4 stacks kept, inclusive samples at least 11");
	cr_expect_str_eq(r.out, "(root) 10\nc 15\n");
	run_free(&r);
	{
		char a[512], b[512];

		snprintf(a, sizeof(a), "ccs-prune --max-stacks 2 %s | "
		    "ccs-stacks --all", in);
		snprintf(b, sizeof(b), "ccs-prune --min samples=11 %s | "
		    "ccs-stacks --all", in);
		same_output(a, b);
	}
	unlink(in);
	free(in);
	/* No metric to rank by: said, and all kept. */
	run(&r, "printf '%%s' '{\"format\":\"ccstools-profile\",\"version\":1,"
	    "\"metadata\":{},\"metrics\":[],\"modules\":[\"M\"],"
	    "\"cost_centres\":[{\"label\":\"m\",\"module\":0,\"src\":\"\"},"
	    "{\"label\":\"a\",\"module\":0,\"src\":\"\"}],"
	    "\"nodes\":[[0,1],[1,0]]}' | ccs-prune --max-stacks 1 -t json");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out, "\"nodes\":[[0,1],[1,0]]") != NULL, "%s",
	    r.out);
	cr_expect_str_eq(r.err, "ccs-prune: warning: --max-stacks: the profile "
	    "has no metrics to rank its stacks by; all are kept\n");
	run_free(&r);
	run(&r, "printf 'a;b;c 9223372036854775807\\n' | ccs-prune -v "
	    "--max-stacks 1 -t folded");
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.out, "a;b;c 9223372036854775807\n");
	cr_expect(has_line(r.err, "ccs-prune: 0 subtrees pruned"), "%s", r.err);
	cr_expect(strstr(r.err, "--max-stacks") == NULL, "%s", r.err);
	run_free(&r);
}

/*
 * On a generated profile: at most n stay, the threshold is the least
 * that does (one less keeps more), after the other thresholds, and
 * every tool that prunes takes it from the tree.
 */
Test(ccs_prune, max_stacks_generated)
{
	static const unsigned long maxes[] = { 2, 100, 5000, 40000 };
	char *dir = make_temp_dir();
	struct run r;
	unsigned long kept, from;
	long long min;
	char a[512], b[512];
	const char *p;
	size_t i;

	run_ok(&r, "ccs-gen -q -t dump --size 600K --seed 5 -o %s/g.dump",
	    dir);
	run_free(&r);
	for (i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
		run(&r, "ccs-prune -v --max-stacks %lu %s/g.dump -o %s/p.dump",
		    maxes[i], dir, dir);
		cr_assert_eq(r.status, 0, "%s", r.err);
		p = strstr(r.err, "--max-stacks: ");
		cr_assert(p != NULL, "%s", r.err);
		cr_assert_eq(sscanf(p, "--max-stacks: %lu of %lu stacks kept, "
		    "inclusive ticks at least %lld", &kept, &from, &min), 3,
		    "%s", r.err);
		run_free(&r);
		cr_expect_leq(kept, maxes[i]);
		cr_expect_gt(from, maxes[i]);
		run_ok(&r, "ccs-stacks --all %s/p.dump | wc -l", dir);
		cr_expect_eq(strtoul(r.out, NULL, 10), kept);
		run_free(&r);
		run_ok(&r, "ccs-prune --min ticks=%lld %s/g.dump | "
		    "ccs-stacks --all | wc -l", min - 1, dir);
		cr_expect_gt(strtoul(r.out, NULL, 10), maxes[i],
		    "a threshold of %lld keeps no more", min - 1);
		run_free(&r);
		/* The tools that stream build the tree for it. */
		run_ok(&r, "ccs-stacks --all --max-stacks %lu %s/g.dump | "
		    "wc -l", maxes[i], dir);
		cr_expect_eq(strtoul(r.out, NULL, 10), kept);
		run_free(&r);
		snprintf(a, sizeof(a), "ccs-hot --max-stacks %lu %s/g.dump",
		    maxes[i], dir);
		snprintf(b, sizeof(b), "ccs-hot %s/p.dump", dir);
		same_output(a, b);
	}
	/* After the other thresholds: what they leave is ranked. */
	run(&r, "ccs-prune -v --min-ticks 3 --max-stacks 100000 %s/g.dump "
	    ">/dev/null", dir);
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.err, "--max-stacks") == NULL, "%s", r.err);
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

/* ---- order: selection first, then pruning, whatever the options ---- */

Test(ccs_prune, option_order_does_not_matter)
{
	static const char *const perms[] = {
		"-d 'Mod1.*' -s 'Mod*' --min-ticks 5 --exclude f20 --min-words "
		    "100",
		"--min-ticks 5 -d 'Mod1.*' --exclude f20 -s 'Mod*' --min-words "
		    "100",
		"--exclude f20 --min-words 100 --min-ticks 5 -s 'Mod*' -d "
		    "'Mod1.*'",
		"--min words=100 -s 'Mod*' --exclude f20 -d 'Mod1.*' --min "
		    "ticks=5",
	};
	char a[512], b[512];
	size_t i;

	for (i = 1; i < sizeof(perms) / sizeof(perms[0]); i++) {
		snprintf(a, sizeof(a), "ccs-prune %s " PGCL " | od -c",
		    perms[0]);
		snprintf(b, sizeof(b), "ccs-prune %s " PGCL " | od -c",
		    perms[i]);
		same_output(a, b);
	}
	/* And it is select, then prune. */
	same_output("ccs-prune " "--min-ticks 5 -d 'Mod1.*' " PGCL " | "
	    "ccs-stacks --all",
	    "ccs-select -d 'Mod1.*' " PGCL " | ccs-prune --min-ticks 5 | "
	    "ccs-stacks --all");
	/* The other order is another profile: a check that this can fail. */
	{
		char *x = output_of("ccs-select -d 'Mod1.*' " PGCL " | "
		    "ccs-prune --min-ticks 500 | ccs-stacks --all");
		char *y = output_of("ccs-prune --min-ticks 500 " PGCL " | "
		    "ccs-select -d 'Mod1.*' | ccs-stacks --all");

		cr_expect_str_neq(x, y);
		free(x);
		free(y);
	}
}

/* The pipeline of the issue and of the man pages. */
Test(ccs_prune, pipeline_select_prune_hot)
{
	struct run r;

	run_ok(&r, "ccs-select -d 'Mod1.*' " PGCL " | ccs-prune --min-ticks 5 "
	    "| ccs-hot");
	cr_expect(strncmp(r.out, "hot stack: 4190 ticks, 35.5% of 11788\n",
	    38) == 0, "%s", r.out);
	cr_expect(strstr(r.out, "Mod1.") == NULL, "%s", r.out);
	run_free(&r);
	same_output("ccs-select -d 'Mod1.*' " PGCL " | ccs-prune --min-ticks 5 "
	    "| ccs-hot --tsv -n 5", "ccs-hot --tsv -n 5 --min-ticks 5 -d "
	    "'Mod1.*' " PGCL);
	same_output("ccs-select -d 'Mod1.*' " PGCL " | ccs-prune --min-ticks 5 "
	    "| ccs-hot", "ccs-prune --min-ticks 5 -d 'Mod1.*' " PGCL " | "
	    "ccs-hot");
	/* GHC, as in the man pages. */
	run_ok(&r, "ccs-select -d 'GHC.*' " GHC_P2 " | ccs-prune "
	    "--min-ticks 5 | ccs-hot");
	cr_expect(strncmp(r.out, "hot stack: ", 11) == 0, "%s", r.out);
	run_free(&r);
}

/* Other output formats and files. */
Test(ccs_prune, output_forms)
{
	same_output("ccs-prune --min samples=13 " FIG7 " | ccs-stacks",
	    "ccs-prune --min samples=13 -t folded " FIG7);
	same_output("ccs-prune --min-ticks 50 -t pgcl " PGCL " | ccs-stacks",
	    "ccs-prune --min-ticks 50 " PGCL " | ccs-stacks");
	same_output("ccs-prune --min-ticks 50 -o - " PGCL " | ccs-stacks",
	    "ccs-prune --min-ticks 50 " PGCL " | ccs-stacks");
}
