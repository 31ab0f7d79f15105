/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Examples are tests (STYLE.md 9, jq's man.test): every .Dl command line
 * in the EXAMPLES section of every section-1 page in man/ runs, in a scratch
 * directory holding fixtures under the names the examples use, and
 * succeeds, every stage of a pipeline too (but for SIGPIPE), and a
 * pipeline prints nothing on stderr.  The complete
 * program in libprofdb(3) is tests/data/examples/libprofdb-example.c:
 * the page must show exactly that file, and it must compile against the
 * built libraries and print what the page says.
 */
#include <criterion/criterion.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "toolcheck.h"

#define EXAMPLE_C	"tests/data/examples/libprofdb-example.c"

/* The fixtures: name in the scratch directory, and where it comes from. */
static const struct {
	const char	*name;
	const char	*sub, *file;	/* fixture(sub, file), or file */
} fixtures[] = {
	{ "prog.prof", NULL, "examples/mj.P.prof" },
	{ "prog.json", NULL, "examples/mj.json" },
	{ "prog.pgcl", "pgcl", "synthetic-400.pgcl" },
	{ "stacks.folded", NULL, "tests/data/paper/fig7.folded" },
};

/* Undo the roff escapes an example may use. */
static void
unescape(char *s)
{
	static const struct {
		const char	*esc, *text;
	} map[] = {
		{ "\\e", "\\" }, { "\\-", "-" }, { "\\&", "" },
		{ "\\(aq", "'" }, { "\\(dq", "\"" }, { "\\(ti", "~" },
		{ "\\(ha", "^" }, { "\\(ga", "`" },
	};
	char *r = s, *w = s;
	size_t i, n;

	while (*r != '\0') {
		for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
			n = strlen(map[i].esc);
			if (strncmp(r, map[i].esc, n) == 0)
				break;
		}
		if (i < sizeof(map) / sizeof(map[0])) {
			n = strlen(map[i].text);
			memcpy(w, map[i].text, n);
			w += n;
			r += strlen(map[i].esc);
		} else
			*w++ = *r++;
	}
	*w = '\0';
}

/*
 * The .Dl lines of the EXAMPLES section of page, unescaped, as a
 * malloc'd NULL-terminated array.
 */
static char **
examples(const char *page, size_t *np)
{
	char *text = slurp(page, NULL), *line, *save = NULL, **v = NULL;
	size_t n = 0;
	int in = 0;

	cr_assert(text != NULL, "cannot read %s", page);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, ".Sh ", 4) == 0) {
			in = strcmp(line, ".Sh EXAMPLES") == 0;
			continue;
		}
		if (!in || strncmp(line, ".Dl ", 4) != 0)
			continue;
		v = realloc(v, (n + 2) * sizeof(*v));
		cr_assert(v != NULL);
		v[n] = strdup(line + 4);
		cr_assert(v[n] != NULL);
		unescape(v[n]);
		v[++n] = NULL;
	}
	free(text);
	*np = n;
	return v;
}

static void
free_examples(char **v)
{
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/* A new scratch directory holding the fixtures; malloc'd path. */
static char *
scratch(void)
{
	char *dir = make_temp_dir();
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
		const char *src = fixtures[i].sub ?
		    fixture(fixtures[i].sub, fixtures[i].file) :
		    fixtures[i].file;

		run(&r, "cp '%s' '%s/%s'", src, dir, fixtures[i].name);
		cr_assert_eq(r.status, 0, "fixture %s: %s", src, r.err);
		run_free(&r);
	}
	run(&r, "gzip -c '%s/prog.pgcl' > '%s/prog.pgcl.gz'", dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	return dir;
}

/* Run every example of page; each in a fresh scratch directory. */
static void
run_page(const char *page)
{
	struct run r;
	char **ex, *dir, path[512];
	size_t n, i;
	FILE *f;

	ex = examples(page, &n);
	cr_expect_geq(n, 3, "%s: %zu examples, want at least 3", page, n);
	for (i = 0; i < n; i++) {
		dir = scratch();
		/*
		 * Through bash, for PIPESTATUS: every stage must succeed,
		 * except that one before the last may die of SIGPIPE when
		 * a later one, like head(1), stops reading.
		 */
		snprintf(path, sizeof(path), "%s/example.sh", dir);
		f = fopen(path, "w");
		cr_assert(f != NULL);
		fprintf(f, "%s\n%s", ex[i],
		    "st=(\"${PIPESTATUS[@]}\") n=${#st[@]}\n"
		    "for ((k = 0; k < n; k++)); do\n"
		    "\ts=${st[k]}\n"
		    "\tif ((s != 0 && (k == n - 1 || s != 141))); then\n"
		    "\t\techo \"stage $((k + 1)) exited $s\" >&2\n"
		    "\t\texit $s\n"
		    "\tfi\n"
		    "done\n");
		cr_assert(fclose(f) == 0);
		run(&r, "cd '%s' && bash example.sh", dir);
		cr_expect_eq(r.status, 0, "%s: '%s' exited %d:\n%s", page,
		    ex[i], r.status, r.err);
		if (strchr(ex[i], '|') != NULL)
			cr_expect_str_empty(r.err,
			    "%s: '%s' wrote to stderr:\n%s", page, ex[i],
			    r.err);
		cr_expect(strstr(r.err, "usage:") == NULL, "%s: '%s': %s",
		    page, ex[i], r.err);
		run_free(&r);
		remove_temp(dir);
		free(dir);
	}
	free_examples(ex);
}

/* Every page of section 1 has examples, and they all run. */
Test(man_examples, section1)
{
	glob_t g;
	size_t i;

	cr_assert_eq(glob("man/*.1", 0, NULL, &g), 0, "no man/*.1");
	cr_expect_geq(g.gl_pathc, 3);
	for (i = 0; i < g.gl_pathc; i++)
		run_page(g.gl_pathv[i]);
	globfree(&g);
}

/* The pages the foundation promises are there (the glob above would
 * silently run fewer). */
Test(man_examples, pages_exist)
{
	static const char *pages[] = {
		"man/ccs.1", "man/ccs-flat.1", "man/ccs-convert.1",
		"man/libprofdb.3", "man/ccs-formats.5",
	};
	size_t i;

	for (i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
		cr_expect(access(pages[i], R_OK) == 0, "%s is missing",
		    pages[i]);
}

/* The extraction itself: a page's examples, unescaped. */
Test(man_examples, extraction)
{
	char **ex;
	size_t n, i;
	int awk = 0;

	ex = examples("man/ccs-flat.1", &n);
	cr_assert_geq(n, 3);
	cr_expect_str_eq(ex[0], "ccs-flat prog.prof");
	for (i = 0; i < n; i++)
		if (strstr(ex[i], "awk -F '\\t'") != NULL)
			awk = 1;
	cr_expect(awk, "\\e not unescaped");
	free_examples(ex);
}

/* The program in libprofdb(3) is exactly EXAMPLE_C. */
Test(man_examples, libprofdb_page_shows_the_program)
{
	char *page = slurp("man/libprofdb.3", NULL), *want, *p, *end;

	cr_assert(page != NULL);
	want = slurp(EXAMPLE_C, NULL);
	cr_assert(want != NULL);
	p = strstr(page, "\n.Sh EXAMPLES\n");
	cr_assert(p != NULL);
	p = strstr(p, "\n.Bd -literal");
	cr_assert(p != NULL);
	p = strchr(p + 1, '\n') + 1;
	end = strstr(p, "\n.Ed\n");
	cr_assert(end != NULL);
	end[1] = '\0';
	unescape(p);
	cr_expect_str_eq(p, want, "man/libprofdb.3 and " EXAMPLE_C " differ");
	cr_expect(strstr(end + 2, "\nMain.rev 47 ticks\n") != NULL,
	    "the page does not show the program's output");
	free(page);
	free(want);
}

/* ... and it compiles warning-free against the built libraries and
 * prints the top cost centre. */
Test(man_examples, libprofdb_program_runs)
{
	char *dir = make_temp_dir(), lib[4096];
	const char *bin = getenv("CCS_BIN");
	const char *cc = getenv("CC");
	struct run r;

	/* The libraries are in the parent of the tools' directory. */
	snprintf(lib, sizeof(lib), "%s/..", bin ? bin : "build/bin");
	run(&r, "san=; if nm '%s/libprofdb.a' 2>/dev/null | grep -q __asan_; "
	    "then san='-fsanitize=address,undefined'; fi; "
	    "%s -std=c11 -Wall -Wextra -Wpedantic -Werror $san "
	    "-Ilibprofdb -Iformats -o %s/top " EXAMPLE_C " "
	    "'%s/libccsformats.a' '%s/libprofdb.a' "
	    "$(pkg-config --libs zlib jansson yajl) -lm -ldl",
	    lib, cc ? cc : "cc", dir, lib, lib);
	cr_assert_eq(r.status, 0, "compiling " EXAMPLE_C ":\n%s", r.err);
	cr_expect_str_empty(r.err);
	run_free(&r);

	run(&r, "%s/top examples/mj.P.prof", dir);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "Main.rev 47 ticks\n");
	run_free(&r);
	run(&r, "%s/top tests/data/paper/fig7.folded", dir);
	cr_expect_str_eq(r.out, "Main_rev 1237 samples\n");
	run_free(&r);
	run(&r, "gzip -c tests/data/paper/s2.3-theta.folded | %s/top -", dir);
	cr_expect_str_eq(r.out, "c 60 samples\n");
	run_free(&r);
	run(&r, "%s/top nosuch", dir);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "top: nosuch: No such file or directory\n");
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

/* The headers declare C functions to C++ too (extern "C"): the program
 * built as C++ links against the libraries and runs.  Skipped without
 * a C++ compiler. */
Test(man_examples, libprofdb_program_builds_as_cxx)
{
	char *dir = make_temp_dir(), lib[4096];
	const char *bin = getenv("CCS_BIN");
	const char *cxx = getenv("CXX");
	struct run r;

	snprintf(lib, sizeof(lib), "%s/..", bin ? bin : "build/bin");
	run(&r, "command -v '%s'", cxx ? cxx : "c++");
	if (r.status != 0) {
		run_free(&r);
		remove_temp(dir);
		free(dir);
		cr_skip_test("no C++ compiler");
	}
	run_free(&r);
	run(&r, "san=; if nm '%s/libprofdb.a' 2>/dev/null | grep -q __asan_; "
	    "then san='-fsanitize=address,undefined'; fi; "
	    "%s -Wall -Wextra -Werror $san -Ilibprofdb -Iformats "
	    "-o %s/top -x c++ " EXAMPLE_C " -x none "
	    "'%s/libccsformats.a' '%s/libprofdb.a' "
	    "$(pkg-config --libs zlib jansson yajl) -lm -ldl",
	    lib, cxx ? cxx : "c++", dir, lib, lib);
	cr_assert_eq(r.status, 0, "compiling " EXAMPLE_C " as C++:\n%s",
	    r.err);
	run_free(&r);
	run(&r, "%s/top examples/mj.P.prof", dir);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "Main.rev 47 ticks\n");
	run_free(&r);
	remove_temp(dir);
	free(dir);
}
