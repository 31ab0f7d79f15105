/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-convert, run as a built binary: the common tool checks, output
 * format choice, folded round trips, pipes, and the refusal to write
 * binary output to a terminal (tested under script(1), which gives the
 * command a pseudo-terminal).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "toolcheck.h"

#define PAPER		"tests/data/paper/"
#define FIG7		PAPER "fig7.folded"

/* Sort the lines of s in place order-insensitively: returns a new string. */
static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *
sorted_lines(const char *s)
{
	char *copy = strdup(s), *p, **lines = NULL, *out;
	size_t n = 0, cap = 0, i, len = strlen(s) + 1;

	cr_assert(copy != NULL);
	for (p = strtok(copy, "\n"); p != NULL; p = strtok(NULL, "\n")) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			lines = realloc(lines, cap * sizeof(*lines));
			cr_assert(lines != NULL);
		}
		lines[n++] = p;
	}
	qsort(lines, n, sizeof(*lines), cmp_str);
	out = calloc(1, len + 1);
	cr_assert(out != NULL);
	for (i = 0; i < n; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
	}
	free(lines);
	free(copy);
	return out;
}

/* ---- what every tool has ---- */

Test(ccs_convert, help)
{
	check_help("ccs-convert");
}

Test(ccs_convert, version)
{
	check_version("ccs-convert", CCSTOOLS_VERSION_LINE("ccs-convert"));
}

Test(ccs_convert, bad_usage)
{
	check_bad_usage("ccs-convert", "--no-such-option -t folded " FIG7);
	check_bad_usage("ccs-convert", "-t folded " FIG7 " " FIG7);
	/* No output format: neither -t nor an -o extension. */
	check_bad_usage("ccs-convert", FIG7);
	check_bad_usage("ccs-convert", "-o out.unknown " FIG7);
	/* A pgcl version for another format would change nothing. */
	check_usage_says("ccs-convert", "--pgcl-version 1 -t json " FIG7,
	    "ccs-convert: --pgcl-version: the output is json, not pgcl");
	check_usage_says("ccs-convert", "--pgcl-version 2 -o x.folded " FIG7,
	    "ccs-convert: --pgcl-version: the output is folded, not pgcl");
}

Test(ccs_convert, bad_format_arguments)
{
	check_bad_arg("ccs-convert -t nosuch " FIG7,
	    "ccs-convert: -t: unknown format 'nosuch' (see --list-formats)\n");
	check_bad_arg("ccs-convert -t ghc-prof " FIG7,
	    "ccs-convert: -t: format 'ghc-prof' cannot be written\n");
	check_bad_arg("ccs-convert -t pgcl --pgcl-version 3 " FIG7,
	    "ccs-convert: --pgcl-version: '3': out of range (1 to 2)\n");
}

Test(ccs_convert, missing_file)
{
	check_missing_file("ccs-convert -t folded", "ccs-convert");
}

/* ---- conversions ---- */

/* folded -> folded keeps every stack of a compressed file; a second pass
 * changes nothing. */
Test(ccs_convert, folded_round_trip)
{
	struct run a, b;
	char *tmp = write_temp("", 0, ".folded"), *want, *got, *orig;

	run(&a, "ccs-convert -t folded -o %s " FIG7, tmp);
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_expect_str_empty(a.out);
	cr_expect_str_empty(a.err);
	run(&b, "ccs-convert -t folded %s", tmp);
	cr_assert_eq(b.status, 0, "%s", b.err);
	got = slurp(tmp, NULL);
	orig = slurp(FIG7, NULL);
	cr_assert(got != NULL && orig != NULL);
	cr_expect_str_eq(b.out, got, "folded -> folded is not idempotent");
	want = sorted_lines(orig);
	free(orig);
	orig = sorted_lines(got);
	cr_expect_str_eq(orig, want, "the stacks of fig7 changed");
	free(want);
	free(orig);
	free(got);
	unlink(tmp);
	free(tmp);
	run_free(&a);
	run_free(&b);
}

/* Reading folded stacks compresses with Push: <a,b,a> is <b,a>. */
Test(ccs_convert, folded_compresses)
{
	struct run r;
	char *got, *want, *orig;

	run(&r, "ccs-convert -t folded " PAPER "s2.4-uncompressed.folded");
	cr_assert_eq(r.status, 0, "%s", r.err);
	orig = slurp(PAPER "s2.4-compressed.folded", NULL);
	cr_assert(orig != NULL);
	got = sorted_lines(r.out);
	want = sorted_lines(orig);
	cr_expect_str_eq(got, want);
	free(got);
	free(want);
	free(orig);
	run_free(&r);
}

/* Equal stacks are merged and their counts added. */
Test(ccs_convert, folded_merges)
{
	struct run r;

	run(&r, "printf 'a;b 2\\na 1\\na;b 3\\n' | ccs-convert -t folded -");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "a 1\na;b 5\n");
	run_free(&r);
}

/* folded -> dump -> folded equals folded -> folded; -o picks the format
 * from its extension. */
Test(ccs_convert, through_dump)
{
	struct run a, b, c;
	char *dump = write_temp("", 0, ".ccsdump");

	run(&a, "ccs-convert -t folded " FIG7);
	run(&b, "ccs-convert -o %s " FIG7 " && ccs-convert -t folded %s", dump,
	    dump);
	run(&c, "ccs-convert -t dump " FIG7 " | ccs-convert -t folded -");
	cr_assert_eq(b.status, 0, "%s", b.err);
	cr_expect_str_eq(b.out, a.out);
	cr_expect_str_eq(c.out, a.out);
	cr_expect_str_empty(c.err);
	unlink(dump);
	free(dump);
	run_free(&a);
	run_free(&b);
	run_free(&c);
}

/* The metric of single-metric output follows -m. */
Test(ccs_convert, metric_option)
{
	struct run r;

	run(&r, "ccs-convert -t folded -m samples " PAPER "s2.3-theta.folded");
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	run(&r, "ccs-convert -t folded -m nosuch " FIG7);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-convert: -m: no metric 'nosuch' in this "
	    "profile; it has: samples\n");
	run_free(&r);
}

Test(ccs_convert, stdin_and_gzip)
{
	struct run a, b, c;

	run(&a, "ccs-convert -t folded " FIG7);
	run(&b, "ccs-convert -t folded < " FIG7);
	run(&c, "gzip -c " FIG7 " | ccs-convert -t folded -");
	cr_assert_eq(a.status, 0);
	cr_expect_str_eq(b.out, a.out);
	cr_expect_eq(c.status, 0, "%s", c.err);
	cr_expect_str_eq(c.out, a.out);
	run_free(&a);
	run_free(&b);
	run_free(&c);
}

Test(ccs_convert, not_a_profile)
{
	struct run r;

	run(&r, "ccs-convert -t folded Makefile");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-convert: Makefile: not a profile in any "
	    "known format (see ccs-formats(5))\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
}

Test(ccs_convert, unwritable_output)
{
	struct run r;

	run(&r, "ccs-convert -t folded -o /nonexistent-dir/x.folded " FIG7);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-convert: /nonexistent-dir/x.folded: "
	    "No such file or directory\n");
	run_free(&r);
	if (access("/dev/full", W_OK) == 0) {
		run(&r, "ccs-convert -t folded " FIG7 " > /dev/full");
		cr_expect_eq(r.status, 1);
		cr_expect_str_eq(r.err, "ccs-convert: <stdout>: No space left "
		    "on device\n");
		run_free(&r);
	}
}

/* ---- binary output and terminals ---- */

static int
have_script(void)
{
	struct run r;
	int ok;

	run(&r, "script -qec true /dev/null");
	ok = r.status == 0;
	run_free(&r);
	return ok;
}

Test(ccs_convert, binary_refused_on_terminal)
{
	struct run r;

	if (!have_script())
		cr_skip_test("script(1) cannot give a pseudo-terminal here");
	run(&r, "script -qec 'ccs-convert -t pgcl " FIG7 "' /dev/null");
	cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.out);
	cr_expect(strstr(r.out, "ccs-convert: refusing to write binary output "
	    "to a terminal") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "prof") == NULL, "pgcl bytes on the tty");
	run_free(&r);
	run(&r, "script -qec 'ccs-convert -t dump " FIG7 "' /dev/null");
	cr_expect_eq(r.status, 1, "exit %d: %s", r.status, r.out);
	run_free(&r);
	/* Text is fine on a terminal; -F forces binary. */
	run(&r, "script -qec 'ccs-convert -t folded " FIG7 "' /dev/null");
	cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.out);
	cr_expect(strstr(r.out, "Main_rev 1181") != NULL, "%s", r.out);
	run_free(&r);
	run(&r, "script -qec 'ccs-convert -F -t dump " FIG7 "' /dev/null");
	cr_expect_eq(r.status, 0, "exit %d: %s", r.status, r.out);
	cr_expect(strstr(r.out, "CCSDUMP") != NULL);
	run_free(&r);
}

/*
 * Folded stacks' samples are pgcl's ticks: written as ticks, not
 * dropped to leave a file of zeros, so that a pgcl profile written as
 * folded stacks and back keeps its ticks.
 */
Test(ccs_convert, folded_samples_are_pgcl_ticks)
{
	struct run r;

	run(&r, "ccs-convert -q -t pgcl " FIG7 " | ccs-flat --tsv -m ticks "
	    "| cut -f 1,2,4,5 | sort > \"$CCS_TEST_TMPDIR\"/a && ccs-flat "
	    "--tsv " FIG7 " | cut -f 1,2,4,5 | sort > \"$CCS_TEST_TMPDIR\"/b && "
	    "diff \"$CCS_TEST_TMPDIR\"/a \"$CCS_TEST_TMPDIR\"/b | grep -v "
	    "root | grep '^[<>]'; rm \"$CCS_TEST_TMPDIR\"/a "
	    "\"$CCS_TEST_TMPDIR\"/b");
	cr_expect_str_empty(r.out, "ticks differ from samples:\n%s", r.out);
	run_free(&r);
	run(&r, "ccs-convert -t folded %s 2>/dev/null | ccs-convert -q -t "
	    "pgcl | ccs-flat -m ticks -n 5 | tail -5; ccs-flat -m ticks "
	    "-n 5 %s | tail -5", fixture("pgcl", "synthetic-400.pgcl"),
	    fixture("pgcl", "synthetic-400.pgcl"));
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strlen(r.out) > 20 && memcmp(r.out, r.out + strlen(r.out) / 2,
	    strlen(r.out) / 2) == 0, "%s", r.out);
	run_free(&r);
}

/* Binary output into a pipe or a file is not refused. */
Test(ccs_convert, binary_to_pipe_and_file)
{
	struct run r;
	char *out = write_temp("", 0, ".pgcl"), *data;
	size_t len;

	run(&r, "ccs-convert -t pgcl " FIG7 " | od -c | head -1");
	cr_expect_eq(r.status, 0);
	cr_expect(strncmp(r.out, "0000000   p   r   o   f 002",
	    strlen("0000000   p   r   o   f 002")) == 0, "%s", r.out);
	cr_expect_str_eq(r.err, "ccs-convert: warning: pgcl has no metric "
	    "'samples': written as ticks\n");
	run_free(&r);
	run(&r, "ccs-convert -q -o %s " FIG7, out);
	cr_expect_eq(r.status, 0, "%s", r.err);
	data = slurp(out, &len);
	cr_assert(data != NULL);
	cr_expect(len > 16 && memcmp(data, "prof\2\0\0\0", 8) == 0);
	free(data);
	unlink(out);
	free(out);
	run_free(&r);
}

/* -s and -d select before converting, as ccs-select does. */
Test(ccs_convert, selects_as_ccs_select)
{
	struct run r;

	run(&r, "a=$(ccs-convert -t folded -d 'Main.*' tests/data/ghc/mj.prof) "
	    "&& b=$(ccs-select -t folded -d 'Main.*' tests/data/ghc/mj.prof) "
	    "&& c=$(ccs-convert -t folded tests/data/ghc/mj.prof) && "
	    "test \"$a\" = \"$b\" && test \"$a\" != \"$c\"");
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
}

/* The longest extension decides: .speedscope.json is speedscope; in
 * either case. */
Test(ccs_convert, speedscope_extension)
{
	struct run r;

	run_in_temp(&r, "ccs-convert -o \"$T\"/p.speedscope.json "
	    "tests/data/ghc/mj.prof && "
	    "grep -q '\"\\$schema\":\"https://www.speedscope.app' "
	    "\"$T\"/p.speedscope.json && ccs-convert -o \"$T\"/p.json "
	    "tests/data/ghc/mj.prof && grep -q '\"format\":\"ccstools-profile\"' "
	    "\"$T\"/p.json && ccs-convert -o \"$T\"/P.Speedscope.JSON "
	    "tests/data/ghc/mj.prof && "
	    "grep -q '\"\\$schema\":\"https://www.speedscope.app' "
	    "\"$T\"/P.Speedscope.JSON && ccs-convert -o \"$T\"/p.DUMP "
	    "tests/data/ghc/mj.prof && ccs-flat -f dump \"$T\"/p.DUMP");
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
}

/* --format, as every page spells -f, for every tool that reads. */
Test(ccs_convert, format_long_option_everywhere)
{
	static const char *const tools[] = { "ccs-flat", "ccs-hot",
	    "ccs-stacks", "ccs-tree", "ccs-select -t json", "ccs-prune -t json",
	    "ccs-convert -t json", "ccs-callers main", "ccs2dot", "ccs2html",
	    "ccs2callgrind" };
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		run(&r, "%s --format ghc-prof tests/data/ghc/mj.prof > /dev/null",
		    tools[i]);
		cr_expect_eq(r.status, 0, "%s: %s", tools[i], r.err);
		run_free(&r);
	}
}

/*
 * A folded frame is a module and a label: cost centres that differ only
 * in their source (GHC's -fprof-auto-calls) read back as one, and the
 * writer says so, as the pgcl writer says what it drops.
 */
Test(ccs_convert, folded_says_when_names_are_shared)
{
	static const char calls[] = "tests/data/ghc/calls.P.prof";
	struct run r;

	run(&r, "ccs-convert -t folded %s 2>&1 >/dev/null", calls);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.out, "ccs-convert: warning: folded stacks name a "
	    "cost centre by module and label only: 6 names, such as "
	    "'Main.insert', each stand for more than one cost centre, and "
	    "those read back as one\n");
	run_free(&r);
	run(&r, "ccs-convert -s insert -t folded %s 2>&1 >/dev/null", calls);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.out, "ccs-convert: warning: folded stacks name a "
	    "cost centre by module and label only: 'Main.insert' stands for "
	    "more than one cost centre, and they read back as one\n");
	run_free(&r);
	run(&r, "ccs-convert -t folded tests/data/ghc/mj.P.prof 2>&1 "
	    ">/dev/null");
	cr_expect_eq(r.status, 0);
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/*
 * Figures rebuilt from a -p report's rounded percentages are marked
 * approximate; a format with no mark for it says they lose it, as it
 * says what else it drops.  -P's raw figures are exact: no word.
 */
Test(ccs_convert, approximate_figures_said_where_the_mark_is_lost)
{
	static const char *const to[] = { "folded", "pgcl" };
	struct run r;
	size_t i;

	for (i = 0; i < 2; i++) {
		run(&r, "ccs-convert -t %s tests/data/ghc/mj.prof "
		    ">/dev/null", to[i]);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_expect(strstr(r.err, "cannot mark ticks as approximate: "
		    "they come from rounded percentages") != NULL, "%s: %s",
		    to[i], r.err);
		run_free(&r);
		run(&r, "ccs-convert -t %s tests/data/ghc/mj.P.prof "
		    ">/dev/null", to[i]);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_expect(strstr(r.err, "approximate") == NULL, "%s: %s",
		    to[i], r.err);
		run_free(&r);
	}
	/* The dump keeps the mark. */
	run(&r, "ccs-convert -t dump tests/data/ghc/mj.prof | ccs-flat | "
	    "sed -n 2p");
	cr_expect_str_eq(r.out, "metric:  ticks (ticks), approximate: from "
	    "rounded percentages, total 38\n", "%s", r.err);
	cr_expect_str_empty(r.err);
	run_free(&r);
}

/*
 * A folded frame does not mark where its module ends: the writer says
 * when a cost centre reads back with another module, counting them and
 * naming the first by name, and is quiet when all read back as written.
 */
Test(ccs_convert, folded_says_which_modules_move)
{
	static const char doc[] = "{\"format\":\"ccstools-profile\","
	    "\"version\":1,\"metadata\":{},\"metrics\":[{\"name\":\"ticks\","
	    "\"unit\":\"ticks\",\"kind\":\"cost\"}],"
	    "\"modules\":[\"Main\",\"hello\",\"\"],\"cost_centres\":["
	    "{\"label\":\"main\",\"module\":0,\"src\":\"\",\"id\":1},"
	    "{\"label\":\"Start\",\"module\":1,\"src\":\"\",\"id\":2},"
	    "{\"label\":\"Parser.run\",\"module\":0,\"src\":\"\",\"id\":3},"
	    "{\"label\":\"ok\",\"module\":2,\"src\":\"\",\"id\":4}],"
	    "\"nodes\":[[0,3,1],[1,0,2],[2,0,3],[3,0,4]]}";
	char *in = write_temp(doc, sizeof(doc) - 1, ".json");
	struct run r;

	run(&r, "ccs-convert -t folded %s", in);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "Main.main 1\nMain.main;hello.Start 2\n"
	    "Main.main;Main.Parser.run 3\nMain.main;ok 4\n");
	cr_expect_str_eq(r.err, "ccs-convert: warning: folded stacks do not "
	    "mark where a module ends: 2 cost centres, such as "
	    "'Main.Parser.run' (module 'Main'), read back with another "
	    "module\n");
	run_free(&r);
	/* What it says is what happens. */
	run(&r, "ccs-convert -t folded %s 2>/dev/null | ccs-flat --tsv | "
	    "cut -f 1,2 | LC_ALL=C sort", in);
	cr_expect_str_eq(r.out, "\thello.Start\n\tok\nMain\tmain\n"
	    "Main.Parser\trun\nmodule\tcost_centre\n", "%s", r.err);
	run_free(&r);
	unlink(in);
	free(in);
}
