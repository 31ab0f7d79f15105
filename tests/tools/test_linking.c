/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Graphviz and libxml2 are loaded by the DOT and HTML writers when they
 * first write (formats/dynlib.c): every tool has every writer, none
 * loads those libraries to start, and a tool that cannot load them says
 * so, fails, and leaves no output, while its other formats still work.
 * Nor does a tool start with libraries it can do without.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dynlib.h"
#include "testutil.h"
#include "toolcheck.h"
#include "pipecheck.h"

static const char *const writers[] = { "ccs-convert", "ccs-select",
    "ccs-prune" };
static const char *const tools[] = { "ccs-convert", "ccs-select",
    "ccs-prune", "ccs-flat", "ccs-hot", "ccs-tree", "ccs-stacks",
    "ccs-callers", "ccs2callgrind", "ccs2dot", "ccs2html", "ccs-gen",
    "ccs" };

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

/*
 * ldd(1) names the shared libraries a program loads as it starts.  No
 * tool loads libm (its few math calls are instructions), and where the
 * build took zlib, Jansson and yajl from their archives (the Makefile's
 * STATIC_DEPS), none loads those either: each costs its start.
 */
Test(linking, no_tool_starts_with_libraries_it_does_not_need)
{
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		run_ok(&r, "ldd \"$(command -v %s)\"", tools[i]);
		cr_expect(strstr(r.out, "libc.so") != NULL, "%s: %s",
		    tools[i], r.out);
		cr_expect(strstr(r.out, "libgvc") == NULL &&
		    strstr(r.out, "libcgraph") == NULL &&
		    strstr(r.out, "libxml2") == NULL, "%s: %s", tools[i],
		    r.out);
#ifndef __SANITIZE_ADDRESS__	/* the sanitizers' runtimes load libm */
		cr_expect(strstr(r.out, "libm.so") == NULL, "%s: %s",
		    tools[i], r.out);
#endif
#ifdef CCS_STATIC_DEPS
		cr_expect(strstr(r.out, "libz.so") == NULL &&
		    strstr(r.out, "libjansson") == NULL &&
		    strstr(r.out, "libyajl") == NULL, "%s: %s", tools[i],
		    r.out);
#endif
		run_free(&r);
	}
}

/*
 * A directory first on LD_LIBRARY_PATH holding an empty file under the
 * soname of each library the writers load: dlopen(3) finds it first and
 * fails on it, as it would on a damaged or missing library.
 */
static char *
broken_libraries(void)
{
	static const char *const sonames[] = { PDB_SONAME_cgraph,
	    PDB_SONAME_gvc, PDB_SONAME_xml2 };
	char *dir = make_temp_dir(), path[512];
	FILE *f;
	size_t i;

	for (i = 0; i < sizeof(sonames) / sizeof(sonames[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sonames[i]);
		cr_assert((f = fopen(path, "w")) != NULL, "%s", path);
		fclose(f);
	}
	return dir;
}

/* cmd, run with the broken libraries, fails with "cannot load what"
 * and no file at out. */
static void
cannot_load(const char *dir, const char *cmd, const char *what,
    const char *out)
{
	char want[64];
	struct run r;
	FILE *f;

	snprintf(want, sizeof(want), ": cannot load %s: ", what);
	run(&r, "LD_LIBRARY_PATH='%s' %s", dir, cmd);
	cr_expect_eq(r.status, 1, "%s: status %d", cmd, r.status);
	cr_expect(strstr(r.err, want) != NULL && strstr(r.err, dir) != NULL,
	    "%s: %s", cmd, r.err);
	run_free(&r);
	f = fopen(out, "r");
	cr_expect(f == NULL, "%s: left %s", cmd, out);
	if (f != NULL) {
		fclose(f);
		remove(out);
	}
}

Test(linking, writers_that_cannot_load_their_library_fail_cleanly)
{
	char *dir = broken_libraries(), out[512], cmd[1024];
	struct run r;
	size_t i;

	snprintf(out, sizeof(out), "%s/out", dir);
	for (i = 0; i < sizeof(writers) / sizeof(writers[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s -t dot -o '%s' %s", writers[i],
		    out, FIG7);
		cannot_load(dir, cmd, "Graphviz", out);
		snprintf(cmd, sizeof(cmd), "%s -t html -o '%s' %s",
		    writers[i], out, FIG7);
		cannot_load(dir, cmd, "libxml2", out);
		/* The other writers need neither. */
		run_ok(&r, "LD_LIBRARY_PATH='%s' %s -t folded %s", dir,
		    writers[i], FIG7);
		cr_expect(strstr(r.out, "Main_main;Main_a;") != NULL, "%s: %s",
		    writers[i], r.out);
		run_free(&r);
	}
	snprintf(cmd, sizeof(cmd), "ccs2dot -o '%s' %s", out, FIG7);
	cannot_load(dir, cmd, "Graphviz", out);
	snprintf(cmd, sizeof(cmd), "ccs2dot --tree -T svg -o '%s' %s", out,
	    FIG7);
	cannot_load(dir, cmd, "Graphviz", out);
	snprintf(cmd, sizeof(cmd), "ccs2html -o '%s' %s", out, FIG7);
	cannot_load(dir, cmd, "libxml2", out);
	run_ok(&r, "LD_LIBRARY_PATH='%s' ccs-hot %s", dir, FIG7);
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

/* The libraries are loaded before the input is read: a tool that cannot
 * write its format says so, not what is wrong with the input. */
Test(linking, writers_fail_before_they_read)
{
	char *dir = broken_libraries(), out[512], cmd[1024];
	size_t i;

	snprintf(out, sizeof(out), "%s/out.html", dir);
	for (i = 0; i < sizeof(writers) / sizeof(writers[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s -t dot nosuch-profile",
		    writers[i]);
		cannot_load(dir, cmd, "Graphviz", out);
		/* The format named by the extension of -o. */
		snprintf(cmd, sizeof(cmd), "%s -o '%s' nosuch-profile",
		    writers[i], out);
		cannot_load(dir, cmd, "libxml2", out);
	}
	cannot_load(dir, "ccs2dot -T svg nosuch-profile", "Graphviz", out);
	cannot_load(dir, "ccs2html nosuch-profile", "libxml2", out);
	remove_temp(dir);
	free(dir);
}

/*
 * What nm says of the build's libraries (nm_args names them below the
 * directory of CCS_BIN's parent, as %s), in a temporary file to free:
 * nm on its own first, as a failure in a pipe would pass unseen.
 */
static char *
nm_of(const char *nm_args)
{
	const char *bin = getenv("CCS_BIN");
	char *syms = write_temp("", 0, ".txt"), cmd[8192];
	struct run r;
	int n;

	if (bin == NULL)
		bin = "build/bin";
	n = snprintf(cmd, sizeof(cmd), nm_args, bin, bin);
	cr_assert(n > 0 && (size_t)n < sizeof(cmd));
	run(&r, "%s > %s", cmd, syms);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	return syms;
}

/* A check's output is "N word" alone, N above least: every one of the N
 * names passed, and there were enough to mean something. */
static void
expect_all_passed(const struct run *r, const char *word, int least,
    const char *failed)
{
	size_t digits = strspn(r->out, "0123456789"), n = strlen(word);

	cr_assert_eq(r->status, 0, "%s", r->err);
	cr_expect(digits > 0 && r->out[digits] == ' ' &&
	    strncmp(r->out + digits + 1, word, n) == 0 &&
	    strcmp(r->out + digits + 1 + n, "\n") == 0 &&
	    atoi(r->out) > least, "%s:\n%s", failed, r->out);
}

/* libprofdb.so exports its API and nothing else: every symbol it defines
 * is declared in an installed header, so that no program can come to
 * depend on the library's insides (pdbi_*()) or the tests' hooks.  The
 * one exception is pdb_cpu_*(), which the format layer, a static archive,
 * calls in it: declared in formats_int.h, which is not installed. */
Test(linking, shared_library_exports_only_the_api)
{
	char *syms = nm_of("nm -D --defined-only '%s/../libprofdb.so'");
	struct run r;

	/* Declared: named as a function, followed by its parenthesis. */
	run(&r, "n=0; for s in $(awk '$2 == \"T\" { print $3 }' %s); do "
	    "n=$((n + 1)); case $s in pdb_cpu_*) h=formats/formats_int.h ;; "
	    "*) h='libprofdb/pdb.h formats/formats.h' ;; esac; "
	    "grep -qE \"[ *]$s\\(\" $h || echo \"$s\"; done; "
	    "echo \"$n exported\"", syms);
	expect_all_passed(&r, "exported", 50, "exported but not declared");
	run_free(&r);
	unlink(syms);
	free(syms);
}

/*
 * The archives a program links define no global name outside pdb_ and
 * pdbi_: a program with a function of its own called, say, ghcjson_real
 * or sym_agopen failed to link against libccsformats.a.
 */
Test(linking, archives_define_names_of_their_own_only)
{
	char *syms = nm_of("nm -g --defined-only '%s/../libccsformats.a' "
	    "'%s/../libprofdb.a'");
	struct run r;

	/* AddressSanitizer adds an __odr_asan.NAME beside each global. */
	run(&r, "awk 'NF == 3 { n++ } NF == 3 && "
	    "$3 !~ /^(pdbi?_|__odr_asan[.])/ { print $3 } "
	    "END { print n \" defined\" }' %s", syms);
	expect_all_passed(&r, "defined", 100, "names outside pdb_ and pdbi_");
	run_free(&r);
	unlink(syms);
	free(syms);
}
