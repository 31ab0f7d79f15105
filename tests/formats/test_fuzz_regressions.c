/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Replay what fuzzing found (tests/FUZZING.md): every file in
 * tests/data/fuzz/<harness>/ goes through the harness that found it, the
 * same function libFuzzer drives (tests/fuzz/fuzz_<harness>.c), here
 * built with the rest of the tests and without libFuzzer.  A crash or a
 * broken invariant (an abort) fails the test; built with SAN=1, so does
 * any report of ASan or UBSan, and a leak.  The fixtures of tests/data go
 * through the read-project-prune-write harness too, so that its
 * invariants hold on real profiles.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../fuzz/fuzzutil.h"
#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LEAK_CHECK()	cr_assert(__lsan_do_recoverable_leak_check() == 0, \
			    "leaks (see the LeakSanitizer report)")
#else
#define LEAK_CHECK()	do { } while (0)
#endif

#define REGRESSIONS	"tests/data/fuzz/"

typedef int	harness_fn(const uint8_t *, size_t);

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Run every regular file of dir through fn, in name order; returns how
 * many there were.  A missing dir has none. */
static size_t
replay_dir(const char *dir, harness_fn *fn)
{
	struct dirent *e;
	struct stat sb;
	DIR *d;
	char **names = NULL, path[4096];
	size_t n = 0, cap = 0, i, len;
	char *data;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			names = realloc(names, cap * sizeof(*names));
			cr_assert(names != NULL);
		}
		names[n] = strdup(e->d_name);
		cr_assert(names[n] != NULL);
		n++;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		free(names[i]);
		if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
			continue;
		data = slurp(path, &len);
		cr_assert(data != NULL, "cannot read %s", path);
		cr_log_info("replaying %s", path);
		fn((const uint8_t *)data, len);
		free(data);
	}
	free(names);
	return n;
}

#define REGRESSION(name)						\
Test(fuzz_regressions, name, .timeout = 120)				\
{									\
	replay_dir(REGRESSIONS #name, fuzz_##name);			\
	LEAK_CHECK();							\
}

REGRESSION(pgcl)
REGRESSION(dump)
REGRESSION(ghcprof)
REGRESSION(ghcjson)
REGRESSION(folded)
REGRESSION(json)
REGRESSION(gzip)
REGRESSION(roundtrip)

/* The regression files are there and each directory names a harness. */
Test(fuzz_regressions, layout)
{
	static const char *const known[] = { "pgcl", "dump", "ghcprof",
	    "ghcjson", "folded", "json", "gzip", "roundtrip" };
	struct dirent *e;
	DIR *d;
	size_t i, dirs = 0;

	d = opendir(REGRESSIONS);
	cr_assert(d != NULL, "no " REGRESSIONS);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
			if (strcmp(e->d_name, known[i]) == 0)
				break;
		cr_expect(i < sizeof(known) / sizeof(known[0]),
		    REGRESSIONS "%s: no harness of that name", e->d_name);
		dirs++;
	}
	closedir(d);
	cr_assert(dirs > 0, "no regression files in " REGRESSIONS);
}

/* Every fixture, as the roundtrip and gzip harnesses see it. */
Test(fuzz_regressions, fixtures, .timeout = 300)
{
	static const char *const dirs[] = { "ghc", "ghcjson", "paper", "pgcl",
	    "stacks", "dump", "dot", "tools" };
	char dir[256];
	size_t i, n = 0;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(dir, sizeof(dir), "tests/data/%s", dirs[i]);
		n += replay_dir(dir, fuzz_roundtrip);
		replay_dir(dir, fuzz_gzip);
	}
	cr_assert(n >= 40, "only %zu fixtures replayed", n);
	LEAK_CHECK();
}

/*
 * Found while fixing the speedscope writer's overflowing total: its
 * samples dropped the top of every stack instead of the synthetic root
 * of a folded file.  Each sample must be the stack's frames, root first.
 */
Test(fuzz_regressions, speedscope_stacks)
{
	struct run r;

	run(&r, "printf 'a;b 10\\na 20\\na;b;c 50\\n' | "
	    "ccs-convert -t speedscope -");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"frames\":[{\"name\":\"(root)\"},"
	    "{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}]") != NULL,
	    "%s", r.out);
	cr_assert(strstr(r.out, "\"samples\":[[1],[1,2],[1,2,3]],"
	    "\"weights\":[20,10,50]") != NULL, "%s", r.out);
	run_free(&r);
	/*
	 * A total past 2^63 - 1: the reader refuses it (no sum may wrap),
	 * naming the line.
	 */
	run(&r, "ccs-convert -t speedscope %s",
	    REGRESSIONS "roundtrip/total-overflows");
	cr_assert_eq(r.status, 1, "%s", r.out);
	cr_assert(strstr(r.err, "total-overflows:2: 64-bit overflow summing "
	    "'samples' at cost centre 'b'") != NULL, "%s", r.err);
	run_free(&r);
}
