/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-stacks, run as a built binary: the common tool checks, the exact
 * lines of Fig. 7, --all, --sort (descending, ties in pre-order), -m,
 * escapes of ';', '\' and newlines read back, the output reading back to
 * the same stacks, and "ccs-stacks | ccs-flat" equal to "ccs-flat" on
 * every fixture, with and without --all.
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

/* Folded stacks with ties, a zero stack and a negative one. */
#define TIES	"printf 'r;b 5\\nr;c 7\\nr;d 5\\nr 7\\nr;e -3\\nr;z;y 1\\n'"

/* ---- what every tool has ---- */

Test(ccs_stacks, help)
{
	check_help("ccs-stacks");
}

Test(ccs_stacks, version)
{
	check_version("ccs-stacks", CCSTOOLS_VERSION_LINE("ccs-stacks"));
}

Test(ccs_stacks, bad_usage)
{
	check_bad_usage("ccs-stacks", "--no-such-option " FIG7);
	check_bad_usage("ccs-stacks", "-x " FIG7);
	check_bad_usage("ccs-stacks", FIG7 " " THETA);
	check_bad_usage("ccs-stacks", "-m");
	check_bad_usage("ccs-stacks", "--tsv " FIG7);
}

Test(ccs_stacks, missing_file)
{
	check_missing_file("ccs-stacks", "ccs-stacks");
}

Test(ccs_stacks, unknown_metric)
{
	struct run r;

	run(&r, "ccs-stacks -m nosuch " GHC_P);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-stacks: -m: no metric 'nosuch' in this "
	    "profile; it has: ticks alloc entries\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/* ---- the lines ---- */

Test(ccs_stacks, fig7_in_pre_order)
{
	struct run r;

	run_ok(&r, "ccs-stacks " FIG7);
	cr_expect_str_eq(r.out,
	    "Main_main;Main_a;Main_c;Main_f;Main_h;Main_j;Main_rev 1181\n"
	    "Main_main;Main_a;Main_c;Main_f;Main_i;Main_rev 7\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g;Main_j;Main_rev 16\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g;Main_rev 10\n"
	    "Main_main;Main_a;Main_b;Main_d;Main_g;Main_rev 11\n"
	    "Main_main;Main_a;Main_b;Main_d;Main_g;Main_j;Main_rev 12\n");
	run_free(&r);
}

Test(ccs_stacks, all_includes_zero_stacks)
{
	struct run r;

	run_ok(&r, "ccs-stacks --all " FIG7);
	cr_expect_eq(count_lines(r.out), 20, "%s", r.out);
	cr_expect(strncmp(r.out, "Main_main 0\nMain_main;Main_a 0\n"
	    "Main_main;Main_a;Main_c 0\n", 51) == 0, "%s", r.out);
	cr_expect(has_line(r.out, "Main_main;Main_a;Main_b;Main_d;Main_g 0\n"),
	    "%s", r.out);
	run_free(&r);
	same_output("ccs-stacks -a " FIG7, "ccs-stacks --all " FIG7);
	/* Several roots: the reader's common root is not printed. */
	run_ok(&r, "ccs-stacks --all " UNCOMPRESSED);
	cr_expect_str_eq(r.out, "a 3\na;b 7\nb 0\nb;a 1\n");
	run_free(&r);
	/* Every node of a GHC profile (29 tree lines), the zero ones too. */
	run_ok(&r, "ccs-stacks --all " GHC_P " | wc -l");
	cr_expect_str_eq(r.out, "29\n");
	run_free(&r);
	run_ok(&r, "ccs-stacks " GHC_P " | wc -l");
	cr_expect_str_eq(r.out, "2\n");
	run_free(&r);
}

Test(ccs_stacks, sort_descending_ties_in_pre_order)
{
	struct run r;

	run_ok(&r, TIES " | ccs-stacks");
	cr_expect_str_eq(r.out, "r 7\nr;b 5\nr;c 7\nr;d 5\nr;e -3\nr;z;y 1\n");
	run_free(&r);
	run_ok(&r, TIES " | ccs-stacks --sort");
	cr_expect_str_eq(r.out, "r 7\nr;c 7\nr;b 5\nr;d 5\nr;z;y 1\nr;e -3\n");
	run_free(&r);
	run_ok(&r, TIES " | ccs-stacks --sort --all");
	cr_expect_str_eq(r.out,
	    "r 7\nr;c 7\nr;b 5\nr;d 5\nr;z;y 1\nr;z 0\nr;e -3\n");
	run_free(&r);
	/* Pre-order is the order of first appearance: d before b now. */
	run_ok(&r, "printf 'r;d 5\\nr;b 5\\nr 5\\n' | ccs-stacks --sort");
	cr_expect_str_eq(r.out, "r 5\nr;d 5\nr;b 5\n");
	run_free(&r);
	/* On a real profile: the same lines, in order of value. */
	same_lines("ccs-stacks --sort " PGCL, "ccs-stacks " PGCL);
	run_ok(&r, "ccs-stacks --sort " PGCL " | awk 'NR > 1 && $NF > prev "
	    "{ print \"unsorted: \" $0 } { prev = $NF }'");
	cr_expect_str_empty(r.out);
	run_free(&r);
	run_ok(&r, "ccs-stacks --sort " PGCL " | head -1");
	cr_expect_str_eq(r.out, "System._start;Mod9.f13;Mod1.f15;Mod1.f6;"
	    "Mod1.f12;Mod1.f24;Mod9.f13;Mod4.f20;Mod1.f24 4164\n");
	run_free(&r);
}

Test(ccs_stacks, metric)
{
	struct run r;

	/* GHC's own "total alloc = 210,573,856 bytes". */
	run_ok(&r, "ccs-stacks -m alloc " GHC_P " | awk '{ s += $NF } END "
	    "{ print s }'");
	cr_expect_str_eq(r.out, "210573856\n");
	run_free(&r);
	same_output("ccs-flat --tsv -m alloc " GHC_P " | awk -F '\\t' "
	    "'$2 == \"MAIN\" { print $5 }'", "echo 210573856");
	/* Entries: rev's 8924 are spread over its stacks. */
	run_ok(&r, "ccs-stacks -m entries " GHC_P " | grep "
	    "'^MAIN.MAIN;Main.CAF;Main.h;Main.j;Main.rev 6612$'");
	run_free(&r);
	run_ok(&r, "ccs-stacks -m entries " GHC_P " | awk '/rev / { s += $NF }"
	    " END { print s }'");
	cr_expect_str_eq(r.out, "8924\n");
	run_free(&r);
	/* Negative words. */
	run_ok(&r, "ccs-stacks -m words " PGCL " | grep -c ' -[0-9]*$'");
	cr_expect(atoi(r.out) > 10, "%s", r.out);
	run_free(&r);
	/* Values add up to the total, words of Clean too. */
	run_ok(&r, "ccs-stacks -m words " PGCL " | awk '{ s += $NF } END "
	    "{ print s }'");
	{
		char *flat = output_of("ccs-flat --tsv -m words " PGCL);
		int64_t self, inh;

		cr_assert(tsv_row(flat, "_start", &self, &inh));
		cr_expect_eq(strtoll(r.out, NULL, 10), inh);
		free(flat);
	}
	run_free(&r);
}

/* ---- names ---- */

/* The fixture's names: "a;b", "back\slash", "new<NL>line", "x\;y"... */
Test(ccs_stacks, escapes_read_back)
{
	char *want = slurp(ESCAPES, NULL), *flat;
	struct run r;

	cr_assert(want != NULL);
	run_ok(&r, "ccs-stacks " ESCAPES);
	cr_expect_str_eq(r.out, want);
	run_free(&r);
	run_ok(&r, "ccs-stacks " ESCAPES " | ccs-stacks");
	cr_expect_str_eq(r.out, want);
	run_free(&r);
	run_ok(&r, "ccs-convert -t dump " ESCAPES " | ccs-stacks");
	cr_expect_str_eq(r.out, want);
	run_free(&r);
	free(want);
	/* The names themselves, as ccs-flat --tsv escapes them. */
	flat = output_of("ccs-flat --tsv " ESCAPES);
	cr_expect_str_eq(flat,
	    "module\tcost_centre\tsrc\tself\tinherited\n"
	    "Main\ta;b\t\t10\t17\n"
	    "Main\tback\\\\slash\t\t7\t7\n"
	    "Main\tnew\\nline\t\t3\t5\n"
	    "\tx\\\\;y\t\t2\t2\n"
	    "\ttail\\\\\t\t1\t1\n"
	    "Main\tmain\t\t1\t24\n"
	    "Main\tcr\\rret\t\t0\t1\n");
	free(flat);
	/* A de-selection by the real name, with its ';'. */
	run_ok(&r, "ccs-stacks -d 'a;b' " ESCAPES);
	cr_expect_str_eq(r.out,
	    "Main.main 11\n"
	    "Main.main;Main.back\\\\slash 7\n"
	    "Main.main;Main.new\\nline 3\n"
	    "Main.main;Main.new\\nline;x\\\\\\;y 2\n"
	    "Main.main;Main.cr\\rret;tail\\\\ 1\n");
	run_free(&r);
}

/*
 * A differential file has two counts on a line: the first would be
 * part of the last frame's name, which the reader warns of, once, from
 * the first stack.  A frame that does end in a blank and a number is
 * written with that blank escaped, and reads back without a word.
 */
Test(ccs_stacks, differential_lines)
{
	struct run r;

	run(&r, "printf 'a;b 5 7\\na;c 3 1\\n' | ccs-stacks");
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.err, "ccs-stacks: warning: <stdin>:1: two counts "
	    "at the end of the line, as in a differential file: the first is "
	    "read as part of the last frame's name\n");
	cr_expect_str_eq(r.out, "a;b\\ 5 7\na;c\\ 3 1\n");
	run_free(&r);
	run_ok(&r, "printf 'a;b 5 7\\n' | ccs-stacks 2>/dev/null | "
	    "ccs-stacks | ccs-stacks");
	cr_expect_str_eq(r.out, "a;b\\ 5 7\n");
	run_free(&r);
	run_ok(&r, "printf 'a;b\\\\ -5 7\\n' | ccs-convert -t json | "
	    "ccs-stacks");
	cr_expect_str_eq(r.out, "a;b\\ -5 7\n");
	run_free(&r);
	/* A name with a backslash before that blank: both are escaped. */
	run_ok(&r, "printf 'a;b\\\\\\\\\\\\ 5 3\\n' | ccs-stacks | ccs-stacks");
	cr_expect_str_eq(r.out, "a;b\\\\\\ 5 3\n");
	run_free(&r);
	/* Numbers elsewhere are no sign of it; a frame that ends so is
	 * escaped wherever it is, as the writer keeps one text a frame. */
	run_ok(&r, "printf 'a 5;b 7\\nx;y5 2\\nx;y-5 2\\n' | ccs-stacks");
	cr_expect_str_eq(r.out, "a\\ 5;b 7\nx;y5 2\nx;y-5 2\n");
	run_free(&r);
}

/* Reading folded stacks goes through Push: a repeat is compressed. */
Test(ccs_stacks, reading_compresses)
{
	struct run r;

	run_ok(&r, "printf 'Main.main 1\\nMain.main;Main.a\\\\;b 10\\n"
	    "Main.main;Main.a\\\\;b;Main.main 4\\n' | ccs-stacks");
	cr_expect_str_eq(r.out,
	    "Main.main 1\n"
	    "Main.main;Main.a\\;b 10\n"
	    "Main.a\\;b;Main.main 4\n");
	run_free(&r);
	run_ok(&r, "ccs-stacks " UNCOMPRESSED);
	cr_expect_str_eq(r.out, "a 3\na;b 7\nb;a 1\n");
	run_free(&r);
}

/*
 * Cost left on the synthetic root is the line "(root) N", which reads
 * back onto that root, not onto a stack above it; a real frame of that
 * name is another cost centre, written "\(root)".
 */
Test(ccs_stacks, root_cost_reads_back)
{
	struct run r;

	run_ok(&r, "printf 'a 2\\nb 3\\n' | ccs-select -d a -t folded");
	cr_expect_str_eq(r.out, "(root) 2\nb 3\n");
	run_free(&r);
	run_ok(&r, "printf 'a 2\\nb 3\\n' | ccs-select -d a -t folded | "
	    "ccs-stacks | ccs-convert -t dump | ccs-tree --tsv");
	cr_expect_str_eq(r.out,
	    "depth\tmodule\tcost_centre\tsrc\tentries\tindividual\tinherited\n"
	    "0\t\t(root)\t\t\t2\t5\n"
	    "1\t\tb\t\t\t3\t3\n");
	run_free(&r);
	run_ok(&r, "printf '\\\\(root);x 1\\n(root) 5\\n(root);y 2\\n' | "
	    "ccs-flat --tsv");
	cr_expect_str_eq(r.out,
	    "module\tcost_centre\tsrc\tself\tinherited\n"
	    "\t(root)\t\t5\t8\n"
	    "\ty\t\t2\t2\n"
	    "\tx\t\t1\t1\n"
	    "\t(root)\t\t0\t3\n");
	run_free(&r);
	/* Through the dump and back, and through folded again. */
	run_ok(&r, "printf '\\\\(root);x 1\\n(root) 5\\n(root);y 2\\n' | "
	    "ccs-convert -t dump | ccs-stacks | ccs-stacks");
	cr_expect_str_eq(r.out, "(root) 5\n\\(root);x 1\n\\(root);y 2\n");
	run_free(&r);
}

/*
 * A profile whose every stack costs zero in the metric written, as GHC's
 * report of a short run has no ticks, still reads back: an empty file is
 * no profile, so the root's line is written with 0.  A made-up root is
 * "(root) 0"; a real one is its frame.
 */
Test(ccs_stacks, all_zero_profile_reads_back)
{
	static const char zero_json[] =
	    "{\"format\":\"ccstools-profile\",\"version\":1,"
	    "\"metadata\":{},\"metrics\":[{\"name\":\"ticks\","
	    "\"unit\":\"ticks\",\"kind\":\"cost\",\"approximate\":false}],"
	    "\"modules\":[\"MAIN\",\"Main\"],\"cost_centres\":["
	    "{\"label\":\"MAIN\",\"module\":0,\"src\":\"\",\"caf\":false,"
	    "\"synthetic\":false,\"id\":1},"
	    "{\"label\":\"f\",\"module\":1,\"src\":\"\",\"caf\":false,"
	    "\"synthetic\":false,\"id\":2}],"
	    "\"nodes\":[[0,1,0],[1,0,0]]}\n";
	struct run r;
	char *json = write_temp(zero_json, strlen(zero_json), ".json");

	run_ok(&r, "printf 'a;b 0\\na 0\\n' | ccs-stacks");
	cr_expect_str_eq(r.out, "(root) 0\n");
	run_free(&r);
	run_ok(&r, "printf 'a;b 0\\n' | ccs-convert -t folded | ccs-flat --tsv");
	cr_expect_str_eq(r.out, "module\tcost_centre\tsrc\tself\tinherited\n");
	run_free(&r);
	run_ok(&r, "ccs-stacks %s", json);
	cr_expect_str_eq(r.out, "MAIN.MAIN 0\n");
	run_free(&r);
	run_ok(&r, "ccs-stacks %s | ccs-stacks --all", json);
	cr_expect_str_eq(r.out, "MAIN.MAIN 0\n");
	run_free(&r);
	/* Through a pipe: every stack ties at 0, so the hot stack is the
	 * first in pre-order, the reader's made-up root. */
	run_ok(&r, "ccs-select -d f -t folded %s | ccs-hot --tsv", json);
	cr_expect_str_eq(r.out, "stack\t(root)\t0\narm\t(root)\t0\n");
	run_free(&r);
	unlink(json);
	free(json);
}

/*
 * A frame with an empty name alone on its stack has an empty stack
 * text: the writer prints " 5", which must read back as that frame (as
 * ";a" reads as an empty frame below a), not fail as a line without a
 * count.
 */
Test(ccs_stacks, lone_empty_frame_reads_back)
{
	struct run r;

	run_ok(&r, "printf '; 5\\na 1\\n' | ccs-stacks");
	cr_expect_str_eq(r.out, " 5\na 1\n");
	run_free(&r);
	run_ok(&r, "printf '; 5\\na 1\\n' | ccs-stacks | ccs-stacks -f folded");
	cr_expect_str_eq(r.out, " 5\na 1\n");
	run_free(&r);
	run_ok(&r, "printf ' 5\\n\\t2\\n;b 3\\n' | ccs-flat -f folded --tsv");
	cr_expect_str_eq(r.out,
	    "module\tcost_centre\tsrc\tself\tinherited\n"
	    "\t\t\t7\t10\n"
	    "\tb\t\t3\t3\n");
	run_free(&r);
	/* No blank before the count is still no count. */
	run(&r, "printf 'a 1\\n7\\n' | ccs-stacks -f folded");
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, ":2: no count after the stack") != NULL,
	    "%s", r.err);
	run_free(&r);
}

/* ---- reading back ---- */

static const char *const fixtures[] = {
	PGCL, GHC_P, GHC_P2, GHC_P3, GHC_JSON, "tests/data/ghc/mj.json",
	"tests/data/ghc/demo.pa.prof", "tests/data/ghc/quirks-N2.prof", FIG7,
	THETA, COMPRESSED, UNCOMPRESSED, ESCAPES
};
#define NFIXTURES	(sizeof(fixtures) / sizeof(fixtures[0]))

/*
 * The output reads back to the same stacks.  Clean's stacks repeat cost
 * centres, which reading compresses: there, the stacks that come back
 * are those of the compressing projection, and come back unchanged.
 * With --all, two cost centres of one name (GHC's demo has two 'sz')
 * print two equal zero lines that read back as one: compare sets.
 */
Test(ccs_stacks, output_reads_back)
{
	char a[512], b[512];
	size_t i;

	for (i = 0; i < NFIXTURES; i++) {
		const char *f = fixtures[i], *opt;
		int k;

		for (k = 0; k < 2; k++) {
			opt = k ? "--all" : "";
			if (strcmp(f, PGCL) == 0) {
				snprintf(a, sizeof(a), "ccs-stacks %s %s "
				    "| ccs-stacks %s", opt, f, opt);
				snprintf(b, sizeof(b), "ccs-convert --compress "
				    "-t dump %s | ccs-stacks %s", f, opt);
				same_lines(a, b);
				snprintf(b, sizeof(b), "ccs-stacks %s %s | "
				    "ccs-stacks %s | ccs-stacks %s", opt, f,
				    opt, opt);
				same_output(a, b);
				continue;
			}
			snprintf(a, sizeof(a), "ccs-stacks %s %s 2>/dev/null"
			    " | ccs-stacks %s", opt, f, opt);
			snprintf(b, sizeof(b), "ccs-stacks %s %s 2>/dev/null",
			    opt, f);
			if (k)
				same_lines_uniq(a, b, 1);
			else
				same_output(a, b);
		}
	}
	/* Sorted output reads back too, as a set. */
	same_lines("ccs-stacks --sort " GHC_P3 " | ccs-stacks",
	    "ccs-stacks " GHC_P3);
}

/* ccs-stacks | ccs-flat is ccs-flat, on every fixture. */
Test(ccs_stacks, flat_of_the_stacks_is_the_flat_profile)
{
	char a[512], b[512];
	size_t i;

	for (i = 0; i < NFIXTURES; i++) {
		snprintf(a, sizeof(a), "ccs-stacks %s 2>/dev/null | ccs-flat "
		    "--tsv", fixtures[i]);
		snprintf(b, sizeof(b), "ccs-flat --tsv %s 2>/dev/null",
		    fixtures[i]);
		same_flat_core(a, b, 0);
		snprintf(a, sizeof(a), "ccs-stacks --all %s 2>/dev/null | "
		    "ccs-flat --tsv", fixtures[i]);
		same_flat_core(a, b, 1);
	}
	/* And for the other metrics of a GHC profile. */
	same_flat_core("ccs-stacks -m alloc " GHC_P2 " | ccs-flat --tsv",
	    "ccs-flat --tsv -m alloc " GHC_P2, 0);
	same_flat_core("ccs-stacks -m words " PGCL " | ccs-flat --tsv",
	    "ccs-flat --tsv -m words " PGCL, 0);
	/* And after a selection, on both sides. */
	same_flat_core("ccs-stacks -d 'Mod1.*' " PGCL " | ccs-flat --tsv",
	    "ccs-flat --tsv -d 'Mod1.*' " PGCL, 0);
}

/* ---- options ---- */

Test(ccs_stacks, selection_and_pruning)
{
	struct run r;

	/* After -d Main_rev, d;g;j has 12 < 13: it folds into d;g. */
	run_ok(&r, "ccs-stacks -d Main_rev --min samples=13 " FIG7);
	cr_expect_str_eq(r.out,
	    "Main_main;Main_a;Main_c;Main_f 7\n"
	    "Main_main;Main_a;Main_c;Main_f;Main_h;Main_j 1181\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g 10\n"
	    "Main_main;Main_a;Main_b;Main_e;Main_g;Main_j 16\n"
	    "Main_main;Main_a;Main_b;Main_d;Main_g 23\n");
	run_free(&r);
	same_output("ccs-stacks -d Main_rev --min samples=13 " FIG7,
	    "ccs-select -d Main_rev " FIG7 " | ccs-prune --min samples=13 | "
	    "ccs-stacks");
	same_output("ccs-stacks --exclude Main_b " FIG7,
	    "ccs-prune --exclude Main_b " FIG7 " | ccs-stacks");
}

Test(ccs_stacks, option_order_does_not_matter)
{
	static const char *const perms[] = {
		"--sort -s 'Mod*' -d 'Mod1.*' --min-ticks 5 --exclude f20 -a",
		"-a --exclude f20 --min-ticks 5 -d 'Mod1.*' -s 'Mod*' --sort",
		"--min-ticks 5 --sort -d 'Mod1.*' -a --exclude f20 -s 'Mod*'",
		"-d 'Mod1.*' --exclude f20 --all -s 'Mod*' --sort --min "
		    "ticks=5",
	};
	char a[512], b[512];
	size_t i;

	for (i = 1; i < sizeof(perms) / sizeof(perms[0]); i++) {
		snprintf(a, sizeof(a), "ccs-stacks %s " PGCL, perms[0]);
		snprintf(b, sizeof(b), "ccs-stacks %s " PGCL, perms[i]);
		same_output(a, b);
	}
	same_output("ccs-stacks -m alloc -d 'Main.C*' --min-pct 1 " GHC_P3,
	    "ccs-stacks --min-pct 1 -d 'Main.C*' -m alloc " GHC_P3);
}

Test(ccs_stacks, output_file_and_stdin)
{
	char *file = write_temp("", 0, ".txt"), *got, *want;
	struct run r;

	run_ok(&r, "ccs-stacks -o %s " FIG7, file);
	cr_expect_str_empty(r.out);
	run_free(&r);
	got = slurp(file, NULL);
	want = output_of("ccs-stacks " FIG7);
	cr_expect_str_eq(got, want);
	free(got);
	free(want);
	unlink(file);
	free(file);
	same_output("ccs-stacks - < " FIG7, "ccs-stacks " FIG7);
	same_output("cat " GHC_P " | ccs-stacks --all", "ccs-stacks --all "
	    GHC_P);
}

Test(ccs_stacks, no_metrics)
{
	check_no_metrics("ccs-stacks", "ccs-stacks");
}

/*
 * The format is detected from the first stack line as the reader reads
 * it: blanks after the count, a carriage return and a '+' are no reason
 * to refuse a file that -f folded reads.  A decimal count, which
 * flamegraph.pl reads, is refused at its line, not as "not a profile".
 */
Test(ccs_stacks, first_line_detected_as_read)
{
	struct run r;

	run_ok(&r, "printf 'a;b 5 \\na;c 2\\n' | ccs-stacks");
	cr_expect_str_eq(r.out, "a;b 5\na;c 2\n");
	run_free(&r);
	run_ok(&r, "printf 'a;b 5\\t \\r\\na;c 2\\r\\n' | ccs-stacks");
	cr_expect_str_eq(r.out, "a;b 5\na;c 2\n");
	run_free(&r);
	run_ok(&r, "printf '# perf\\n\\na;b +5\\n' | ccs-stacks");
	cr_expect_str_eq(r.out, "a;b 5\n");
	run_free(&r);
	check_fails_with("printf 'a;b 1.5\\na;c 2\\n' | ccs-stacks",
	    "ccs-stacks: <stdin>:1: '1.5' is not an integer count\n");
	check_fails_with("printf 'a;b 3.\\n' | ccs-stacks",
	    "ccs-stacks: <stdin>:1: '3.' is not an integer count\n");
	check_fails_with("printf 'a;b 0x10\\n' | ccs-stacks",
	    "ccs-stacks: <stdin>: not a profile in any known format "
	    "(see ccs-formats(5))\n");
}

/*
 * Stacks in pre-order are written from one text cut back at each stack
 * to its caller's: on a comb 3000 deep, whose leaves hang at every
 * level, the lines are those --sort builds each from its frames.
 */
Test(ccs_stacks, deep_lines_as_sorted_ones, .timeout = 60)
{
	struct run r;

	run_in_temp(&r, "awk -v n=3000 -v vals=wave -f "
	    "$R/tests/support/comb.awk > $T/c.json && "
	    "ccs-stacks $T/c.json > $T/a && ccs-stacks --sort $T/c.json | "
	    "sort > $T/b && sort $T/a | cmp - $T/b && wc -l < $T/a && "
	    "tail -n 1 $T/a | awk '{ print length($0), substr($0, 1, 15), "
	    "substr($0, length($0) - 12) }'");
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	/*
	 * The 3000 levels r0 to r12 in turn, of 1 each, and their leaves
	 * but the three of cost 0; the last leaf's line is the 3000 frames
	 * and "leaf 81", 9697 bytes.
	 */
	cr_expect_str_eq(r.out, "5997\n9697 r0;r1;r2;r3;r4; r8;r9;leaf 81\n",
	    "%s", r.out);
	run_free(&r);
}

/*
 * The warnings of folded output speak of the frames it writes: a cost
 * centre sharing its name with another only in a stack of zero cost,
 * which is not written, goes unsaid; with --all it is said.
 */
Test(ccs_stacks, warnings_of_written_frames_only)
{
	static const char prof[] =
	    "{\"format\":\"ccstools-profile\",\"version\":1,"
	    "\"metrics\":[{\"name\":\"samples\",\"unit\":\"samples\","
	    "\"kind\":\"cost\"}],\"modules\":[\"Main\"],\"cost_centres\":["
	    "{\"label\":\"main\",\"module\":0,\"src\":\"\"},"
	    "{\"label\":\"f\",\"module\":0,\"src\":\"A.hs:1\"},"
	    "{\"label\":\"f\",\"module\":0,\"src\":\"A.hs:2\"},"
	    "{\"label\":\"g\",\"module\":0,\"src\":\"\"}],"
	    "\"nodes\":[[0,2,0],[1,0,5],[3,1,2],[2,0,0]]}";
	static const char *const sorts[] = { "", "--sort" };
	struct run r;
	size_t i;

	for (i = 0; i < 2; i++) {
		run_in_temp(&r, "printf '%%s' '%s' > $T/p.json && "
		    "ccs-stacks %s $T/p.json > $T/o1 2> $T/e1 && "
		    "ccs-stacks %s -a $T/p.json > $T/o2 2> $T/e2 && "
		    "cat $T/o1 $T/e1 $T/o2 $T/e2", prof, sorts[i], sorts[i]);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_expect_str_eq(r.out, i == 0 ?
		    "Main.main;Main.f 5\nMain.main;Main.g 2\n"
		    "Main.main 0\nMain.main;Main.f 5\nMain.main;Main.g 2\n"
		    "Main.main;Main.g;Main.f 0\n"
		    "ccs-stacks: warning: folded stacks name a cost centre by "
		    "module and label only: 'Main.f' stands for more than one "
		    "cost centre, and they read back as one\n" :
		    "Main.main;Main.f 5\nMain.main;Main.g 2\n"
		    "Main.main;Main.f 5\nMain.main;Main.g 2\nMain.main 0\n"
		    "Main.main;Main.g;Main.f 0\n"
		    "ccs-stacks: warning: folded stacks name a cost centre by "
		    "module and label only: 'Main.f' stands for more than one "
		    "cost centre, and they read back as one\n",
		    "%s: %s", sorts[i], r.out);
		run_free(&r);
	}
}
