/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The writers that need Graphviz and libxml2 are in a program only if
 * it names them (formats/registry.c): the tools that write a format
 * named at run time have them all, and the tools that only read start
 * without loading those libraries.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "testutil.h"
#include "toolcheck.h"
#include "pipecheck.h"


static const char *const writers[] = { "ccs-convert", "ccs-select",
    "ccs-prune" };
static const char *const readers[] = { "ccs-flat", "ccs-hot", "ccs-tree",
    "ccs-stacks", "ccs-callers", "ccs2callgrind" };

Test(linking, tools_that_write_have_every_writer)
{
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(writers) / sizeof(writers[0]); i++) {
		run_ok(&r, "%s -t html %s", writers[i], FIG7);
		cr_expect(strstr(r.out, "<html") != NULL, "%s -t html: %.80s",
		    writers[i], r.out);
		run_free(&r);
		run_ok(&r, "%s -t dot %s", writers[i], FIG7);
		cr_expect(strncmp(r.out, "digraph", 7) == 0,
		    "%s -t dot: %.80s", writers[i], r.out);
		run_free(&r);
		run_ok(&r, "%s --list-formats", writers[i]);
		cr_expect(strstr(r.out, "\nhtml ") != NULL &&
		    strstr(r.out, "\ndot ") != NULL, "%s: %s", writers[i],
		    r.out);
		run_free(&r);
	}
}

/* ldd(1) names the shared libraries a program loads. */
static void
loads(const char *tool, int graphviz, int libxml2)
{
	struct run r;

	run_ok(&r, "ldd \"$(command -v %s)\"", tool);
	cr_expect_eq(strstr(r.out, "libgvc") != NULL, graphviz,
	    "%s: %s", tool, r.out);
	cr_expect_eq(strstr(r.out, "libxml2") != NULL, libxml2,
	    "%s: %s", tool, r.out);
	run_free(&r);
}

Test(linking, tools_that_read_start_without_graphviz_and_libxml2)
{
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		loads(readers[i], 0, 0);
		/* ccs-formats(5): the list is of the formats it has. */
		run_ok(&r, "%s --list-formats", readers[i]);
		cr_expect(strncmp(r.out, "dump ", 5) == 0 &&
		    strstr(r.out, "\npgcl ") != NULL &&
		    strstr(r.out, "\nhtml ") == NULL &&
		    strstr(r.out, "\ndot ") == NULL, "%s: %s", readers[i],
		    r.out);
		run_free(&r);
	}
	loads("ccs2dot", 1, 0);
	loads("ccs2html", 0, 1);
	loads("ccs-convert", 1, 1);
}
