/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-select, run as a built binary: the common tool checks, the worked
 * examples of Morgan & Jarvis through the projection (including the walk
 * up the expensive arm of Fig. 7), the Clean expected answers, the
 * property that ccs-flat of the projection is ccs-flat with the
 * selection on every fixture and metric, select after select, dropped
 * counts, and independence of the option order.
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

Test(ccs_select, help)
{
	check_help("ccs-select");
}

Test(ccs_select, version)
{
	check_version("ccs-select", CCSTOOLS_VERSION_LINE("ccs-select"));
}

Test(ccs_select, bad_usage)
{
	check_bad_usage("ccs-select", "--no-such-option " THETA);
	check_bad_usage("ccs-select", "-x " THETA);
	check_bad_usage("ccs-select", THETA " " FIG7);
	check_bad_usage("ccs-select", "-d");
	check_bad_usage("ccs-select", "--min-ticks 5 " THETA);
}

Test(ccs_select, missing_file)
{
	check_missing_file("ccs-select -d x", "ccs-select");
}

Test(ccs_select, missing_pattern_file)
{
	struct run r;

	run(&r, "cd \"$CCS_TEST_TMPDIR\" && ccs-select --deselect-file "
	    "nosuch-ccstools-file x.folded");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-select: nosuch-ccstools-file: No such "
	    "file or directory\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
}

Test(ccs_select, unknown_output_format_is_a_usage_error)
{
	struct run r;

	run(&r, "ccs-select -t nosuch -d b " THETA);
	cr_expect_eq(r.status, 2);
	cr_expect(strstr(r.err, "'nosuch'") != NULL, "%s", r.err);
	cr_expect_str_empty(r.out);
	run_free(&r);
}

Test(ccs_select, unknown_metric)
{
	struct run r;

	run(&r, "ccs-select -m nosuch -d b " THETA);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "'nosuch'") != NULL &&
	    strstr(r.err, "samples") != NULL, "%s", r.err);
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/* ---- the worked examples of DESIGN.md ---- */

/* Check self and inherited of label in "cmd | ccs-flat --tsv". */
static void
expect_row(const char *out, const char *cmd, const char *label, int64_t self,
    int64_t inh)
{
	int64_t s, i;

	cr_assert(tsv_row(out, label, &s, &i), "%s: no row %s in\n%s", cmd,
	    label, out);
	cr_expect_eq(s, self, "%s: self of %s is %" PRId64 ", want %" PRId64,
	    cmd, label, s, self);
	cr_expect_eq(i, inh, "%s: inherited of %s is %" PRId64 ", want %"
	    PRId64, cmd, label, i, inh);
}

Test(ccs_select, theta_deselect_b)
{
	const char *cmd = "ccs-select -d b " THETA " | ccs-flat --tsv";
	char *out = output_of(cmd);

	/* b's 10 and 50 move to a and c: a=30 c=60; b is gone. */
	expect_row(out, cmd, "a", 30, 90);
	expect_row(out, cmd, "c", 60, 60);
	cr_expect(!tsv_row(out, "b", &(int64_t){ 0 }, &(int64_t){ 0 }),
	    "b still there:\n%s", out);
	cr_expect_eq(count_lines(out), 3, "%s", out);
	free(out);
}

Test(ccs_select, theta_no_selection_is_a_copy)
{
	char *out = output_of("ccs-select " THETA " | ccs-flat --tsv");

	expect_row(out, "theta", "a", 20, 90);
	expect_row(out, "theta", "b", 10, 60);
	expect_row(out, "theta", "c", 60, 60);
	free(out);
	same_output("ccs-select " THETA " | ccs-stacks --all",
	    "ccs-stacks --all " THETA);
}

Test(ccs_select, compressed_and_uncompressed_stacks)
{
	const char *files[] = { COMPRESSED, UNCOMPRESSED };
	char cmd[256], *out;
	int i;

	for (i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "ccs-convert --compress -t dump "
		    "%s | ccs-flat --tsv", files[i]);
		out = output_of(cmd);
		expect_row(out, cmd, "a", 4, 11);
		expect_row(out, cmd, "b", 7, 8);
		free(out);
		/* De-selecting b leaves a with everything. */
		snprintf(cmd, sizeof(cmd), "ccs-select -d b %s | "
		    "ccs-flat --tsv", files[i]);
		out = output_of(cmd);
		expect_row(out, cmd, "a", 11, 11);
		cr_expect_eq(count_lines(out), 2, "%s", out);
		free(out);
	}
}

/*
 * Fig. 7 and the walk up its expensive arm: de-select the top of the hot
 * stack, look at the flat profile, de-select the next one, and so on.
 * Each step through a pipe of ccs-select equals ccs-flat with all the
 * de-selections at once.
 */
Test(ccs_select, fig7_walk_up_the_expensive_arm)
{
	static const struct {
		const char	*label;
		int64_t		 self, inh;
	} top[] = {
		{ "Main_j", 1209, 1209 },	/* -d Main_rev */
		{ "Main_h", 1181, 1181 },	/* then -d Main_j */
		{ "Main_f", 1181, 1188 },	/* then -d Main_h */
		{ "Main_c", 1181, 1188 },	/* then -d Main_f */
		{ "Main_a", 1181, 1237 },	/* then -d Main_c */
	};
	static const char *walk[] = {
		"Main_rev", "Main_j", "Main_h", "Main_f", "Main_c"
	};
	char pipe[1024], flat[1024], *out;
	size_t i, k;

	for (i = 0; i < 5; i++) {
		snprintf(pipe, sizeof(pipe), "ccs-select -d %s " FIG7, walk[0]);
		snprintf(flat, sizeof(flat), "ccs-flat --tsv");
		for (k = 1; k <= i; k++)
			snprintf(pipe + strlen(pipe), sizeof(pipe) -
			    strlen(pipe), " | ccs-select -d %s", walk[k]);
		for (k = 0; k <= i; k++)
			snprintf(flat + strlen(flat), sizeof(flat) -
			    strlen(flat), " -d %s", walk[k]);
		snprintf(flat + strlen(flat), sizeof(flat) - strlen(flat),
		    " " FIG7);
		snprintf(pipe + strlen(pipe), sizeof(pipe) - strlen(pipe),
		    " | ccs-flat --tsv");
		out = output_of(pipe);
		expect_row(out, pipe, top[i].label, top[i].self, top[i].inh);
		/* The root's inherited cost is the total, every time. */
		expect_row(out, pipe, "Main_main", 0, 1237);
		free(out);
		same_output(pipe, flat);
	}
	/* The paper's numbers after rev and j: h 1181, g 49, i 7. */
	out = output_of("ccs-select -d Main_rev " FIG7 " | ccs-select "
	    "-d Main_j | ccs-flat --tsv");
	expect_row(out, "rev, j", "Main_g", 49, 49);
	expect_row(out, "rev, j", "Main_i", 7, 7);
	expect_row(out, "rev, j", "Main_c", 0, 1188);
	free(out);
	same_output("ccs-select -d Main_rev " FIG7 " | ccs-select -d Main_j | "
	    "ccs-flat --tsv", "ccs-flat --tsv -d Main_rev -d Main_j " FIG7);
}

Test(ccs_select, fig7_inherited_column_survives_a_null_projection)
{
	char *out = output_of("ccs-convert --compress -t dump " FIG7 " | "
	    "ccs-flat --tsv");

	expect_row(out, "fig7", "Main_j", 0, 1209);
	expect_row(out, "fig7", "Main_h", 0, 1181);
	expect_row(out, "fig7", "Main_c", 0, 1188);
	expect_row(out, "fig7", "Main_rev", 1237, 1237);
	free(out);
}

/* ---- the Clean expected answers ---- */

Test(ccs_select, synthetic_400_deselect)
{
	char *want = slurp(PGCL_DESEL, NULL), *a, *b;

	cr_assert(want != NULL);
	a = output_of("ccs-flat --tsv -d 'Mod1.*' -d f14 " PGCL);
	b = output_of("ccs-select -d 'Mod1.*' -d f14 " PGCL " | ccs-flat "
	    "--tsv");
	cr_expect_str_eq(a, want, "ccs-flat -d differs from %s", PGCL_DESEL);
	cr_expect_str_eq(b, want, "ccs-select | ccs-flat differs from %s",
	    PGCL_DESEL);
	free(a);
	free(b);
	/* One select at a time, through two pipes, is the same. */
	a = output_of("ccs-select -d f14 " PGCL " | ccs-select -d 'Mod1.*' | "
	    "ccs-flat --tsv");
	cr_expect_str_eq(a, want, "two ccs-selects differ from %s",
	    PGCL_DESEL);
	free(a);
	free(want);
}

/* ---- the projection property on every fixture and metric ---- */

static const char *const fixtures[] = {
	PGCL, GHC_P, GHC_P2, GHC_P3, GHC_JSON, "tests/data/ghc/mj.json",
	"tests/data/ghc/quirks-N2.prof", FIG7, THETA, UNCOMPRESSED
};

static const char *const selections[] = {
	"-d rev",
	"-d 'Mod1.*' -d f14",
	"-s 'Main.*' -s 'GHC.*' -s MAIN -s _start -s Main_main -s a "
	    "-d 'Main.C*'",
	"-s 'Mod2.*' -s 'Mod3.*' -s _start -s MAIN -s Main_main -s a -d f9",
	"-d Main_rev -d Main_j -s 'Main_*' -s a",
	"-d 'main*' -d CAF",
	"-d b -d '*c*'",
	"--deselect-file tests/data/stacks/deselect.pats",
	"-s 'Main_[a-c]' -s c -s 'Mod3.*'",
	"-d Main_main -d a -d MAIN -d _start",
};

/* The metrics of a profile, from the error of an unknown -m. */
static char *
metrics_of(const char *file)
{
	struct run r;
	char *p, *list;

	run(&r, "ccs-flat -m nosuch-metric %s", file);
	cr_assert_eq(r.status, 1);
	p = strstr(r.err, "it has:");
	cr_assert(p != NULL, "%s", r.err);
	cr_assert((list = strdup(p + 7)) != NULL);
	run_free(&r);
	return list;
}

Test(ccs_select, flat_of_projection_is_flat_with_selection)
{
	char a[1024], b[1024], *metrics, *m;
	size_t i, j;

	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		metrics = metrics_of(fixtures[i]);
		for (m = strtok(metrics, " \n"); m != NULL;
		    m = strtok(NULL, " \n")) {
			for (j = 0; j < sizeof(selections) /
			    sizeof(selections[0]); j++) {
				snprintf(a, sizeof(a), "ccs-select %s %s "
				    "2>/dev/null | ccs-flat --tsv -m %s",
				    selections[j], fixtures[i], m);
				snprintf(b, sizeof(b), "ccs-flat --tsv -m %s "
				    "%s %s 2>/dev/null", m, selections[j],
				    fixtures[i]);
				same_output(a, b);
			}
		}
		free(metrics);
	}
}

/* The sum of column col (4 self, 5 inherited) over rows of module mod. */
static int64_t
column_sum(const char *tsv, const char *mod, int col)
{
	const char *line, *f;
	int64_t sum = 0;
	int i;

	for (line = tsv; line != NULL && *line != '\0';
	    line = (f = strchr(line, '\n')) ? f + 1 : NULL) {
		if (strncmp(line, mod, strlen(mod)) != 0 ||
		    line[strlen(mod)] != '\t')
			continue;
		for (f = line, i = 1; i < col; i++)
			f = strchr(f, '\t') + 1;
		sum += strtoll(f, NULL, 10);
	}
	return sum;
}

/* Cost totals are conserved; counts of de-selected cost centres go. */
Test(ccs_select, counts_are_dropped_costs_move)
{
	static const char *const metrics[] = {
		"ticks", "words", "tail_returns", "strict_calls", "lazy_calls",
		"curried_calls"
	};
	char cmd[256], *before, *after, *out;
	int64_t s, i, bs, bi, as, ai;
	size_t m;

	/* GHC: rev was entered 8924 times; de-selected, nobody was. */
	out = output_of("ccs-select -d rev " GHC_P " | ccs-flat --tsv -m "
	    "entries");
	cr_expect(!tsv_row(out, "rev", &s, &i), "%s", out);
	expect_row(out, "entries", "j", 3, 3);
	expect_row(out, "entries", "MAIN", 0, 14);
	free(out);
	out = output_of("ccs-flat --tsv -m entries " GHC_P);
	expect_row(out, "entries", "MAIN", 0, 8924 + 14);
	free(out);
	out = output_of("ccs-select -d rev " GHC_P " | ccs-flat --tsv");
	expect_row(out, "ticks", "j", 46, 46);
	expect_row(out, "ticks", "MAIN", 0, 47);
	free(out);
	/*
	 * Clean: the inherited cost of the root is the total.  Cost metrics
	 * keep it; count metrics lose the counts of Mod1's cost centres.
	 */
	for (m = 0; m < sizeof(metrics) / sizeof(metrics[0]); m++) {
		snprintf(cmd, sizeof(cmd), "ccs-flat --tsv -m %s " PGCL,
		    metrics[m]);
		before = output_of(cmd);
		snprintf(cmd, sizeof(cmd), "ccs-select -d 'Mod1.*' " PGCL
		    " | ccs-flat --tsv -m %s", metrics[m]);
		after = output_of(cmd);
		cr_assert(tsv_row(before, "_start", &bs, &bi));
		cr_assert(tsv_row(after, "_start", &as, &ai));
		if (m < 2)
			cr_expect_eq(ai, bi, "%s: total %" PRId64 " became %"
			    PRId64, metrics[m], bi, ai);
		else
			cr_expect_eq(ai, bi - column_sum(before, "Mod1", 4),
			    "%s: total %" PRId64 " became %" PRId64
			    ", Mod1 had %" PRId64, metrics[m], bi, ai,
			    column_sum(before, "Mod1", 4));
		cr_expect_eq(column_sum(after, "Mod1", 4), 0);
		free(before);
		free(after);
	}
}

/* select after select is one select of the intersection. */
Test(ccs_select, select_after_select_is_the_intersection)
{
	same_output("ccs-select -d 'Mod1.*' " PGCL " | ccs-select -d f14 | "
	    "ccs-stacks --all", "ccs-select -d f14 -d 'Mod1.*' " PGCL " | "
	    "ccs-stacks --all");
	/* Two select lists: the intersection is Mod2, as a set of stacks. */
	same_lines("ccs-select -s 'Mod1.*' -s 'Mod2.*' " PGCL " | ccs-select "
	    "-s 'Mod2.*' -s 'Mod3.*' | ccs-stacks --all",
	    "ccs-select -s 'Mod2.*' " PGCL " | ccs-stacks --all");
	same_lines("ccs-select -s 'Main.*' " GHC_P2 " | ccs-select "
	    "-d 'Main.C*' | ccs-stacks --all -m alloc",
	    "ccs-select -s 'Main.*' -d 'Main.C*' " GHC_P2 " | ccs-stacks --all "
	    "-m alloc");
}

/* The output is compressed: no cost centre twice on a stack. */
Test(ccs_select, output_is_compressed)
{
	char *out = output_of("ccs-select -d 'Mod1.*' " PGCL " | ccs-stacks "
	    "--all");
	char *line, *next, *frame[256], *p;
	int n = 0, repeats = 0, nf, i, j;

	for (line = out; *line != '\0'; line = next) {
		cr_assert((next = strchr(line, '\n')) != NULL);
		*next++ = '\0';
		*strrchr(line, ' ') = '\0';
		for (nf = 0, p = strtok(line, ";"); p != NULL && nf < 256;
		    p = strtok(NULL, ";"))
			frame[nf++] = p;
		for (i = 0; i < nf; i++)
			for (j = i + 1; j < nf; j++)
				repeats += strcmp(frame[i], frame[j]) == 0;
		n++;
	}
	cr_expect_eq(repeats, 0, "%d repeated frames", repeats);
	cr_expect(n > 100, "%d stacks", n);
	free(out);
	/* The input does repeat cost centres on its stacks. */
	out = output_of("ccs-stacks --all " PGCL " | grep -c "
	    "'f13;.*f13'");
	cr_expect(atoi(out) > 10, "%s", out);
	free(out);
	/* And the flat profile is the one of the same selection. */
	same_output("ccs-select -d 'Mod1.*' " PGCL " | ccs-flat --tsv",
	    "ccs-flat --tsv -d 'Mod1.*' " PGCL);
}

/*
 * Names given as patterns are looked up, not matched as globs one cost
 * centre at a time: the warnings name exactly those that are no label
 * and no full name, with modules of one or more components, among names
 * a dot makes look like full names, a glob among them still matched as
 * one.
 */
Test(ccs_select, many_names_warned_as_one)
{
	/* Each name, and whether it is warned of. */
	static const struct {
		const char	*name;
		int		 unmatched;
	} names[] = {
		{ "f", 0 }, { "Main.f", 0 }, { "g", 0 }, { "Lib.X.g", 0 },
		{ "X.g", 1 }, { "h", 0 }, { "Lib.X.CAF", 0 }, { "CAF", 0 },
		{ "Other.CAF", 0 }, { "q", 0 }, { "nosuch", 1 },
		{ "Main.nosuch", 1 }, { "M3.w3", 0 }, { "w4", 0 },
		{ "M1.w4", 1 }, { "M4.w4", 0 }, { "Lib.g", 1 }, { "Lib", 1 },
		{ "X.CAF", 1 }, { "Main.", 1 }, { ".f", 1 }, { "Lib.X.", 1 },
		{ "M6.w6", 0 }, { "M6.w13", 0 }, { "M6.w13", 0 },
		{ "M?.w1*", 0 }, { "M?.x*", 1 },
	};
	char args[4096] = "", *data = NULL, *in, want[4096] = "";
	size_t i, len = 0, n = sizeof(names) / sizeof(names[0]);
	struct run r;
	FILE *f = open_memstream(&data, &len);

	cr_assert(f != NULL);
	fputs("MAIN;Main.f;Lib.X.g;h 3\nMAIN;Main.f;Lib.X.CAF 2\n"
	    "MAIN;Other.CAF;q 1\n", f);
	for (i = 0; i < 200; i++)
		fprintf(f, "MAIN;M%zu.w%zu 1\n", i % 7, i);
	fclose(f);
	in = write_temp(data, len, ".folded");
	free(data);
	for (i = 0; i < n; i++) {
		strcat(args, " -s '");
		strcat(args, names[i].name);
		strcat(args, "'");
	}
	run(&r, "ccs-select -t folded %s %s 2>&1 >/dev/null", args, in);
	for (i = 0; i < n; i++)
		if (names[i].unmatched)
			snprintf(want + strlen(want), sizeof(want) -
			    strlen(want), "ccs-select: warning: %s: no cost "
			    "centre matches -s '%s'\n", in, names[i].name);
	cr_expect_str_eq(r.out, want);
	run_free(&r);
	unlink(in);
	free(in);
}

/*
 * A pattern that matches nothing is a warning, not a silent no-op: a
 * typo, or a glob bracket in another profiler's names (async-profiler's
 * "_[j]"), for which it says how to write the name.  The projection is
 * made all the same: the null one.  Patterns from a file are not warned
 * of.
 */
Test(ccs_select, a_pattern_matching_nothing_is_said)
{
	char *dir = make_temp_dir();
	struct run r;

	run(&r, "ccs-select -t folded -d nosuch -s 'Main_*' " FIG7 " >%s/a",
	    dir);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.err, "ccs-select: warning: " FIG7 ": no cost centre "
	    "matches -d 'nosuch'\n");
	run_free(&r);
	run_ok(&r, "ccs-convert --compress -t folded " FIG7 " | cmp - %s/a",
	    dir);
	run_free(&r);
	run(&r, "printf 'frame_[j] 3\\n' | ccs-flat -s 'frame_[j]' --tsv");
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.err, "ccs-flat: warning: <stdin>: no cost centre "
	    "matches -s 'frame_[j]', a glob; to match the cost centre of that "
	    "name, write 'frame_\\[j]'\n");
	run_free(&r);
	/* What it says to write does match, and says nothing. */
	run(&r, "printf 'frame_[j] 3\\n' | ccs-flat -s 'frame_\\[j]' --tsv");
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.out, "module\tcost_centre\tsrc\tself\tinherited\n"
	    "\tframe_[j]\t\t3\t3\n");
	cr_expect_str_empty(r.err);
	run_free(&r);
	run(&r, "ccs-prune --exclude 'Main_z*' --exclude 'Main_r*' " FIG7
	    " >/dev/null");
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.err, "ccs-prune: warning: " FIG7 ": no cost centre "
	    "matches --exclude 'Main_z*'\n");
	run_free(&r);
	run(&r, "printf 'nosuch\\n' >%s/p && ccs-select --deselect-file %s/p "
	    FIG7 " >/dev/null", dir, dir);
	cr_expect_eq(r.status, 0);
	cr_expect_str_empty(r.err);
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

/* ---- the order of the options never matters ---- */

Test(ccs_select, option_order_does_not_matter)
{
	static const char *const perms[] = {
		"-s 'Mod1.*' -s 'Mod4.*' -d f15 -d 'Mod4.f2*'",
		"-d f15 -s 'Mod1.*' -d 'Mod4.f2*' -s 'Mod4.*'",
		"-d 'Mod4.f2*' -d f15 -s 'Mod4.*' -s 'Mod1.*'",
		"--select 'Mod4.*' --deselect f15 --select 'Mod1.*' "
		    "--deselect 'Mod4.f2*'",
		"--select-file tests/data/stacks/select.pats "
		    "--deselect-file tests/data/stacks/deselect2.pats",
		"--deselect-file tests/data/stacks/deselect2.pats "
		    "--select-file tests/data/stacks/select.pats",
	};
	char a[512], b[512];
	size_t i;

	for (i = 1; i < sizeof(perms) / sizeof(perms[0]); i++) {
		snprintf(a, sizeof(a), "ccs-select %s " PGCL " | od -c",
		    perms[0]);
		snprintf(b, sizeof(b), "ccs-select %s " PGCL " | od -c",
		    perms[i]);
		same_output(a, b);
	}
	same_output("ccs-select -d Main_rev -s 'Main_[a-j]' -t folded " FIG7,
	    "ccs-select -t folded -s 'Main_[a-j]' -d Main_rev " FIG7);
}

/* ---- output forms ---- */

/*
 * A chain 300 deep whose end has 600 callees, each calling a0 again:
 * Push walks the chain for each, until the walks have been long for a
 * window and the stacks walked are remembered with a0 dropped
 * (push.c).  The projection, by the definition: the chain, each callee
 * at its end, and each callee's call of a0 as a1;...;a299;c_i;a0.
 */
Test(ccs_select, fan_out_below_a_deep_chain)
{
	struct run r;

	run_in_temp(&r, "cd \"$T\" && awk -v d=300 -v w=600 -f "
	    "\"$R/tests/support/fanout.awk\" | ccs-select -q -d z "
	    "-t folded | sort > got && awk 'BEGIN { "
	    "for (k = 0; k < 300; k++) { p = p (k ? \";\" : \"\") \"a\" k; "
	    "print p \" 1\"; if (k) q = q (k > 1 ? \";\" : \"\") \"a\" k } "
	    "for (i = 0; i < 600; i++) { print p \";c\" i \" 1\"; "
	    "print q \";c\" i \";a0 1\" } }' | sort > want && "
	    "cmp got want && wc -l < got");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "1500\n");
	run_free(&r);
}

Test(ccs_select, folded_output_and_output_file)
{
	struct run r;
	char *file;

	same_output("ccs-select -d Main_rev -t folded " FIG7,
	    "ccs-select -d Main_rev " FIG7 " | ccs-stacks");
	run_ok(&r, "ccs-select -d Main_rev -t folded " FIG7);
	cr_expect_str_eq(r.out,
	    "Main_main;Main_a;Main_c;Main_f;Main_h;Main_j 1181\n"
	    "Main_main;Main_a;Main_c;Main_f;Main_i 7\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g 10\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g;Main_j 16\n"
	    "Main_main;Main_a;Main_b;Main_d;Main_g 11\n"
	    "Main_main;Main_a;Main_b;Main_d;Main_g;Main_j 12\n");
	run_free(&r);
	/* -o FILE with .folded chooses the format by the extension. */
	file = write_temp("", 0, ".folded");
	run_ok(&r, "ccs-select -d Main_rev -o %s " FIG7 " && ccs-stacks %s",
	    file, file);
	cr_expect(has_line(r.out, "Main_main;Main_a;Main_c;Main_f;Main_h;"
	    "Main_j 1181"), "%s", r.out);
	run_free(&r);
	unlink(file);
	free(file);
	/* -m chooses the metric of a one-metric output. */
	run_ok(&r, "ccs-select -d rev -t folded -m alloc " GHC_P " | head -1");
	cr_expect(strstr(r.out, "MAIN.MAIN") == r.out, "%s", r.out);
	run_free(&r);
}

/* Reading standard input: "-" and no operand. */
Test(ccs_select, reads_stdin)
{
	same_output("ccs-select -d b - < " THETA " | ccs-stacks",
	    "ccs-select -d b " THETA " | ccs-stacks");
	same_output("cat " THETA " | ccs-select -d b | ccs-stacks",
	    "ccs-select -d b " THETA " | ccs-stacks");
	/* The format is known only once read: the same projection. */
	same_output("cat " PGCL " | ccs-select -d 'Mod1.*' -t json",
	    "ccs-select -d 'Mod1.*' -t json " PGCL);
	same_output("cat " GHC_P2 " | ccs-select -s '*a*' -t json",
	    "ccs-select -f ghc-prof -s '*a*' -t json " GHC_P2);
}

/*
 * A folded file's root is the reader's: every real frame can be
 * selected or not, by ccs-flat, which streams, and by the tree tools
 * alike.
 */
Test(ccs_select, folded_root_is_selected_alike)
{
	same_output("ccs-select -s 'Main_[a-c]' " FIG7 " | ccs-flat --tsv",
	    "ccs-flat --tsv -s 'Main_[a-c]' " FIG7);
	same_output("ccs-select -d Main_main " FIG7 " | ccs-flat --tsv",
	    "ccs-flat --tsv -d Main_main " FIG7);
	same_output("ccs-select -s c " THETA " | ccs-flat --tsv",
	    "ccs-flat --tsv -s c " THETA);
}

/* An empty pattern matches no cost centre: refused, for every tool. */
Test(ccs_select, empty_patterns_refused)
{
	static const char *const cmds[] = { "ccs-select -s ''", "ccs-select -d ''",
	    "ccs-flat -s ''", "ccs-prune --exclude ''", "ccs-hot -d ''" };
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		run(&r, "%s tests/data/ghc/mj.prof", cmds[i]);
		cr_expect_eq(r.status, 2, "%s: exit %d", cmds[i], r.status);
		cr_expect(strstr(r.err, "empty pattern") != NULL, "%s: %s",
		    cmds[i], r.err);
		run_free(&r);
	}
}

/*
 * -m does not report a metric in the tools that write profiles: their
 * help says what it does there, as their pages do.
 */
Test(ccs_select, help_says_what_m_does)
{
	static const struct {
		const char *cmd, *line;
	} t[] = {
		{ "ccs-select", "metric of folded, dot output; first in "
		    "others" },
		{ "ccs-convert", "metric of folded, dot output; first in "
		    "others" },
		{ "ccs-prune", "metric of --min-pct and of folded, dot output" },
		{ "ccs-flat", "metric to report (default: ticks or samples)" },
	};
	char want[256];
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		run_ok(&r, "%s --help | grep -e '-m, --metric'", t[i].cmd);
		snprintf(want, sizeof(want), "  -m, --metric NAME      %s\n",
		    t[i].line);
		cr_expect_str_eq(r.out, want, "%s", t[i].cmd);
		run_free(&r);
	}
}
