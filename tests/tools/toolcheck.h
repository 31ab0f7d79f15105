/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Checks every tool must pass (STYLE.md 9): --help, --version, a usage
 * error and a missing file; and small helpers for reading the tools'
 * tab-separated output.  Included by tests/tools/test_*.c only.
 */
#ifndef TOOLCHECK_H
#define TOOLCHECK_H

#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define CCSTOOLS_VERSION_LINE(tool)	tool " (ccstools) 0.1.0\n"

/* Whether some line of s starts with prefix. */
static inline int
has_line(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	while (s != NULL && *s != '\0') {
		if (strncmp(s, prefix, n) == 0)
			return 1;
		if ((s = strchr(s, '\n')) != NULL)
			s++;
	}
	return 0;
}

/* -h and --help: identical, to stdout, exit 0, nothing on stderr. */
static inline void
check_help(const char *tool)
{
	struct run a, b;
	char usage[128];

	run(&a, "%s -h", tool);
	run(&b, "%s --help", tool);
	cr_expect_eq(a.status, 0, "%s -h: exit %d", tool, a.status);
	cr_expect_eq(b.status, 0, "%s --help: exit %d", tool, b.status);
	cr_expect_str_empty(a.err, "%s -h wrote to stderr: %s", tool, a.err);
	cr_expect_str_empty(b.err, "%s --help wrote to stderr: %s", tool,
	    b.err);
	snprintf(usage, sizeof(usage), "usage: %s", tool);
	cr_expect(strncmp(a.out, usage, strlen(usage)) == 0,
	    "%s -h does not start with '%s': %s", tool, usage, a.out);
	cr_expect_str_eq(a.out, b.out, "%s: -h and --help differ", tool);
	run_free(&a);
	run_free(&b);
}

/* --version: "tool (ccstools) 0.1.0", exit 0. */
static inline void
check_version(const char *tool, const char *expect)
{
	struct run r;

	run(&r, "%s --version", tool);
	cr_expect_eq(r.status, 0);
	cr_expect_str_eq(r.out, expect);
	cr_expect_str_empty(r.err);
	run_free(&r);
}

/* A usage error: exit 2, a "usage: tool ..." line on stderr, no output. */
static inline void
check_bad_usage(const char *tool, const char *args)
{
	struct run r;
	char usage[128];

	run(&r, "%s %s", tool, args);
	snprintf(usage, sizeof(usage), "usage: %s ", tool);
	cr_expect_eq(r.status, 2, "%s %s: exit %d", tool, args, r.status);
	cr_expect(has_line(r.err, usage), "%s %s: no '%s' line on stderr: %s",
	    tool, args, usage, r.err);
	cr_expect_str_empty(r.out, "%s %s wrote to stdout: %s", tool, args,
	    r.out);
	run_free(&r);
}

/* A usage error that says line first, then the usage. */
static inline void
check_usage_says(const char *tool, const char *args, const char *line)
{
	struct run r;

	check_bad_usage(tool, args);
	run(&r, "%s %s", tool, args);
	cr_expect(strncmp(r.err, line, strlen(line)) == 0 &&
	    r.err[strlen(line)] == '\n', "%s %s: %s", tool, args, r.err);
	run_free(&r);
}

/* A bad option argument: exit 2 and exactly the message err. */
static inline void
check_bad_arg(const char *cmd, const char *err)
{
	struct run r;

	run(&r, "%s", cmd);
	cr_expect_eq(r.status, 2, "%s: exit %d", cmd, r.status);
	cr_expect_str_eq(r.err, err, "%s", cmd);
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/* The shell command line exits 1, with exactly expect on stderr and
 * nothing on stdout. */
static inline void
check_fails_with(const char *line, const char *expect)
{
	struct run r;

	run(&r, "%s", line);
	cr_expect_eq(r.status, 1, "%s: exit %d", line, r.status);
	cr_expect_str_eq(r.err, expect);
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/* "cmd nosuch": exit 1 and exactly "prog: nosuch: No such file ...". */
static inline void
check_missing_file(const char *cmd, const char *prog)
{
	char line[512], expect[256];

	snprintf(line, sizeof(line),
	    "cd \"$CCS_TEST_TMPDIR\" && %s nosuch-ccstools-file", cmd);
	snprintf(expect, sizeof(expect),
	    "%s: nosuch-ccstools-file: No such file or directory\n", prog);
	check_fails_with(line, expect);
}

/*
 * "cmd FILE" on a profile with no metrics (a ccstools JSON file, which
 * may have none): exit 1 and exactly "prog: FILE: the profile has no
 * metrics", and the same from a pipe, naming <stdin>.
 */
static inline void
check_no_metrics(const char *cmd, const char *prog)
{
	static const char json[] = "{\"format\":\"ccstools-profile\","
	    "\"version\":1,\"metadata\":{},\"metrics\":[],"
	    "\"modules\":[\"Main\"],\"cost_centres\":[{\"label\":"
	    "\"main\",\"module\":0,\"src\":\"\"}],\"nodes\":[[0,0]]}\n";
	char *path = write_temp(json, sizeof(json) - 1, ".json");
	char line[1024], expect[1024];

	snprintf(line, sizeof(line), "%s %s", cmd, path);
	snprintf(expect, sizeof(expect),
	    "%s: %s: the profile has no metrics\n", prog, path);
	check_fails_with(line, expect);
	snprintf(line, sizeof(line), "%s < %s", cmd, path);
	snprintf(expect, sizeof(expect),
	    "%s: <stdin>: the profile has no metrics\n", prog);
	check_fails_with(line, expect);
	remove_temp(path);
	free(path);
}

/*
 * Find the row of cost centre label (the cost_centre column) in the
 * --tsv output out; set *self and *inh.  Returns 0 when there is none.
 */
static inline int
tsv_row(const char *out, const char *label, int64_t *self, int64_t *inh)
{
	const char *line, *f;
	size_t n = strlen(label);

	for (line = out; line != NULL && *line != '\0';
	    line = (f = strchr(line, '\n')) ? f + 1 : NULL) {
		/* Skip to the second column. */
		if ((f = strchr(line, '\t')) == NULL)
			continue;
		f++;
		if (strncmp(f, label, n) != 0 || f[n] != '\t')
			continue;
		/* Past the label's tab and src, to the tab before self. */
		f = strchr(f + n + 1, '\t');
		if (f == NULL || sscanf(f, "\t%" SCNd64 "\t%" SCNd64, self,
		    inh) != 2)
			return 0;
		return 1;
	}
	return 0;
}

/* Number of lines in s. */
static inline int
count_lines(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		if (*s == '\n')
			n++;
	return n;
}

/*
 * The path of a corpus file: tests/data/<sub>/<name> if it is there,
 * else ../shared/corpus/<sub>/<name>.  Static storage.
 */
static inline const char *
fixture(const char *sub, const char *name)
{
	static char path[4][512];
	static int next;
	char *p = path[next++ % 4];
	FILE *f;

	snprintf(p, sizeof(path[0]), "tests/data/%s/%s", sub, name);
	if ((f = fopen(p, "rb")) != NULL) {
		fclose(f);
		return p;
	}
	snprintf(p, sizeof(path[0]), "../shared/corpus/%s/%s", sub, name);
	return p;
}

#endif /* TOOLCHECK_H */
