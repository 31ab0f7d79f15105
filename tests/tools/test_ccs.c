/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs, the dispatcher: "ccs flat ..." is "ccs-flat ...", "ccs" alone
 * lists the commands.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "toolcheck.h"

#define FIG7		"tests/data/paper/fig7.folded"

Test(ccs, help)
{
	check_help("ccs");
}

Test(ccs, version)
{
	check_version("ccs", CCSTOOLS_VERSION_LINE("ccs"));
}

Test(ccs, bad_usage)
{
	struct run r;

	check_bad_usage("ccs", "nosuch");
	run(&r, "ccs nosuch " FIG7);
	cr_expect_eq(r.status, 2);
	cr_expect(has_line(r.err, "ccs: 'nosuch' is not a ccs command"), "%s",
	    r.err);
	run_free(&r);
}

Test(ccs, missing_file)
{
	check_missing_file("ccs flat", "ccs-flat");
	check_missing_file("ccs convert -t folded", "ccs-convert");
}

/* Alone, ccs lists the commands on stdout and succeeds. */
Test(ccs, lists_commands)
{
	struct run r, h;

	run(&r, "ccs");
	run(&h, "ccs --help");
	cr_expect_eq(r.status, 0);
	cr_expect_str_empty(r.err);
	cr_expect(has_line(r.out, "usage: ccs "), "%s", r.out);
	cr_expect(has_line(r.out, "  flat "), "%s", r.out);
	cr_expect(has_line(r.out, "  convert "), "%s", r.out);
	cr_expect_str_eq(r.out, h.out);
	run_free(&r);
	run_free(&h);
}

/* Every command listed runs the tool of that name. */
Test(ccs, every_listed_command_runs)
{
	struct run r, v;
	char *line, *save = NULL, name[64], want[128];
	int n = 0;

	run(&r, "ccs");
	cr_assert_eq(r.status, 0);
	line = strstr(r.out, "commands:\n");
	cr_assert(line != NULL, "%s", r.out);
	for (line = strtok_r(line, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "  ", 2) != 0 ||
		    sscanf(line, " %63s", name) != 1)
			continue;
		run(&v, "ccs %s --version", name);
		/* "2dot" is ccs2dot; the others are ccs-NAME. */
		snprintf(want, sizeof(want), "ccs%s%s (ccstools) 0.1.0\n",
		    name[0] == '2' ? "" : "-", name);
		cr_expect_eq(v.status, 0, "ccs %s --version: %s", name, v.err);
		cr_expect_str_eq(v.out, want);
		run_free(&v);
		n++;
	}
	cr_expect_geq(n, 2, "only %d commands listed", n);
	run_free(&r);
}

/* Output and exit status are those of the tool. */
Test(ccs, dispatches)
{
	struct run a, b;

	run(&a, "ccs flat --tsv -d Main_rev " FIG7);
	run(&b, "ccs-flat --tsv -d Main_rev " FIG7);
	cr_expect_eq(a.status, 0);
	cr_expect_str_eq(a.out, b.out);
	cr_expect_str_eq(a.err, b.err);
	run_free(&a);
	run_free(&b);
	run(&a, "ccs convert -t folded " FIG7);
	run(&b, "ccs-convert -t folded " FIG7);
	cr_expect_eq(a.status, 0);
	cr_expect_str_eq(a.out, b.out);
	run_free(&a);
	run_free(&b);
	run(&a, "ccs flat -x " FIG7);
	cr_expect_eq(a.status, 2);
	cr_expect(has_line(a.err, "usage: ccs-flat "), "%s", a.err);
	run_free(&a);
	run(&a, "cat " FIG7 " | ccs flat -n 1 --tsv -");
	cr_expect_eq(a.status, 0);
	cr_expect_str_eq(a.out, "module\tcost_centre\tsrc\tself\tinherited\n"
	    "\tMain_rev\t\t1237\t1237\n");
	run_free(&a);
}

/* The tools beside ccs are found without PATH. */
Test(ccs, finds_tools_beside_itself)
{
	struct run r;
	const char *bin = getenv("CCS_BIN");

	if (bin == NULL)
		bin = "build/bin";
	run(&r, "PATH=/usr/bin:/bin '%s/ccs' flat --version", bin);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "ccs-flat (ccstools) 0.1.0\n");
	run_free(&r);
}
