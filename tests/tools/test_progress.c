/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The progress bar: on stderr when it is a terminal (script(1) gives the
 * tools a pseudo-terminal), for reading and for writing, never with -q,
 * never when stderr is a file or a pipe, and not for work shorter than
 * the delay.  CCS_PROGRESS_DELAY=0 makes the bar show at once.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "toolcheck.h"

static char	*in, *out1, *out2;

static void
setup(void)
{
	struct run r;

	in = write_temp("", 0, ".dump");
	out1 = write_temp("", 0, ".1");
	out2 = write_temp("", 0, ".2");
	run(&r, "ccs-gen -t dump --size 3M -o %s", in);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
}

static void
teardown(void)
{
	unlink(in);
	unlink(out1);
	unlink(out2);
	free(in);
	free(out1);
	free(out2);
}

TestSuite(progress, .init = setup, .fini = teardown);

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

/* What a command writes to its terminal, run under script(1). */
static char *
on_terminal(const char *cmd)
{
	struct run r;
	char *s;

	run(&r, "script -qec \"%s\" /dev/null", cmd);
	cr_assert_eq(r.status, 0, "%s: %s", cmd, r.out);
	s = strdup(r.out);
	run_free(&r);
	cr_assert(s != NULL);
	return s;
}

Test(progress, reading_shows_a_bar_on_a_terminal)
{
	char cmd[512], *s;

	if (!have_script())
		cr_skip_test("script(1) cannot give a pseudo-terminal here");
	snprintf(cmd, sizeof(cmd), "CCS_PROGRESS_DELAY=0 ccs-flat %s "
	    "> /dev/null", in);
	s = on_terminal(cmd);
	cr_expect(strstr(s, "ccs-flat: reading ") != NULL, "%s", s);
	/* The file's size is known: a bar of how much is done (the rate
	 * and the time left come once there is a rate to tell). */
	cr_expect(strstr(s, " of 3.0 MB [") != NULL, "%s", s);
	/* Erased at the end: the last thing written clears the line. */
	cr_expect(strlen(s) >= 4 && strcmp(s + strlen(s) - 4, "\r\033[K") == 0,
	    "the bar is not erased: %s", s);
	free(s);
}

/*
 * The tools that stream to a writer of their own, not through ccs-flat's
 * path (tool_read_events()), show the same bar, and write the same bytes
 * with it as without.
 */
Test(progress, streaming_writers_show_the_reading_bar)
{
	static const char *const cmds[] = { "ccs2callgrind", "ccs2dot",
	    "ccs-callers main" };
	char cmd[512], want[64], *s;
	struct run r;
	size_t i;

	if (!have_script())
		cr_skip_test("script(1) cannot give a pseudo-terminal here");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		snprintf(cmd, sizeof(cmd), "CCS_PROGRESS_DELAY=0 %s %s > %s",
		    cmds[i], in, out1);
		s = on_terminal(cmd);
		snprintf(want, sizeof(want), "%.*s: reading ",
		    (int)strcspn(cmds[i], " "), cmds[i]);
		cr_expect(strstr(s, want) != NULL, "%s: %s", cmds[i], s);
		cr_expect(strstr(s, " of 3.0 MB [") != NULL, "%s: %s", cmds[i],
		    s);
		free(s);
		run(&r, "%s %s > %s && cmp %s %s", cmds[i], in, out2, out1,
		    out2);
		cr_expect_eq(r.status, 0, "%s: the output differs with the "
		    "bar: %s", cmds[i], r.err);
		run_free(&r);
	}
}

Test(progress, writing_shows_a_bar_and_writes_the_same_bytes)
{
	char cmd[512], *s;
	struct run r;

	if (!have_script())
		cr_skip_test("script(1) cannot give a pseudo-terminal here");
	snprintf(cmd, sizeof(cmd), "CCS_PROGRESS_DELAY=0 ccs-convert -t "
	    "folded -o %s %s", out1, in);
	s = on_terminal(cmd);
	cr_expect(strstr(s, "ccs-convert: writing ") != NULL, "%s", s);
	free(s);
	run(&r, "ccs-convert -t folded -o %s %s && cmp %s %s", out2, in,
	    out1, out2);
	cr_expect_eq(r.status, 0, "the output differs with the bar: %s",
	    r.err);
	run_free(&r);
}

/* Whether s has a line "prog: writing N [####....] P%": a bar, where the
 * bytes to come are unknown. */
static int
has_writing_bar(const char *s, const char *prog)
{
	char want[64];
	const char *p = s, *b;
	size_t i;

	snprintf(want, sizeof(want), "%s: writing ", prog);
	while ((p = strstr(p, want)) != NULL) {
		p += strlen(want);
		b = strchr(p, '[');
		if (b == NULL || strchr(p, '\r') < b)
			continue;
		for (i = 1; i <= 20 && (b[i] == '#' || b[i] == '.'); i++)
			;
		if (i == 21 && b[21] == ']' && strchr(b, '%') != NULL)
			return 1;
	}
	return 0;
}

/* The dump and pgcl writers tell how much of the tree is written: the
 * bar and the time left show, and the bytes are the same. */
Test(progress, writing_a_tree_shows_how_much_is_left)
{
	static const char *const fmts[] = { "dump", "pgcl" };
	char cmd[512], *s;
	struct run r;
	size_t i;

	if (!have_script())
		cr_skip_test("script(1) cannot give a pseudo-terminal here");
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		snprintf(cmd, sizeof(cmd), "CCS_PROGRESS_DELAY=0 ccs-convert "
		    "-t %s -o %s %s", fmts[i], out1, in);
		s = on_terminal(cmd);
		cr_expect(has_writing_bar(s, "ccs-convert"), "%s: %s",
		    fmts[i], s);
		free(s);
		run(&r, "ccs-convert -q -t %s -o %s %s && cmp %s %s", fmts[i],
		    out2, in, out1, out2);
		cr_expect_eq(r.status, 0, "%s: the output differs with the "
		    "bar: %s", fmts[i], r.err);
		run_free(&r);
	}
}

Test(progress, quiet_and_short_work_show_nothing)
{
	char cmd[512], *s;

	if (!have_script())
		cr_skip_test("script(1) cannot give a pseudo-terminal here");
	snprintf(cmd, sizeof(cmd), "CCS_PROGRESS_DELAY=0 ccs-flat -q %s "
	    "> /dev/null", in);
	s = on_terminal(cmd);
	cr_expect_str_empty(s, "-q: %s", s);
	free(s);
	/* The default delay is a second: this takes less. */
	snprintf(cmd, sizeof(cmd), "ccs-flat %s > /dev/null", in);
	s = on_terminal(cmd);
	cr_expect_str_empty(s, "%s", s);
	free(s);
}

Test(progress, never_into_a_file_or_a_pipe)
{
	struct run r;

	run(&r, "CCS_PROGRESS_DELAY=0 ccs-flat %s > /dev/null", in);
	cr_expect_eq(r.status, 0);
	cr_expect_str_empty(r.err, "%s", r.err);
	run_free(&r);
	run(&r, "CCS_PROGRESS_DELAY=0 ccs-convert -t folded %s 2>&1 | "
	    "grep -c 'reading\\|writing'", in);
	cr_expect_str_eq(r.out, "0\n");
	run_free(&r);
}

/* What cmd writes to its terminal holds both a and b. */
static void
expect_shown(const char *cmd, const char *a, const char *b)
{
	char *s = on_terminal(cmd);

	cr_expect(strstr(s, a) != NULL && strstr(s, b) != NULL, "%s: %s",
	    cmd, s);
	free(s);
}

/*
 * Every other line on the terminal comes after the bar is erased: a
 * library warning in the middle of a read, ccs-gen -v's summary, and the
 * end of a tool that a reader closing its pipe kills.
 */
Test(progress, erased_before_anything_else)
{
	char cmd[1024];
	struct run r;

	if (!have_script())
		cr_skip_test("script(1) cannot give a pseudo-terminal here");
	/* A GHC report whose tree has more ticks than its header. */
	run(&r, "ccs-gen -q -t ghc-prof --size 3M -o %s && sed -i "
	    "'5s/(\\([0-9]*\\) ticks/(1 ticks/' %s", out2, out2);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	snprintf(cmd, sizeof(cmd), "CCS_PROGRESS_DELAY=0 ccs-flat -f ghc-prof "
	    "%s > /dev/null", out2);
	expect_shown(cmd, "ccs-flat: reading ", "\r\033[Kccs-flat: warning: ");
	snprintf(cmd, sizeof(cmd), "CCS_PROGRESS_DELAY=0 ccs-gen -t dump "
	    "--size 3M -v -o %s", out1);
	expect_shown(cmd, "ccs-gen: writing ", "\r\033[Kccs-gen: dump: ");
	snprintf(cmd, sizeof(cmd), "CCS_PROGRESS_DELAY=0 ccs-convert -t "
	    "folded %s | head -c 1000 > /dev/null; echo PROMPT", in);
	expect_shown(cmd, "ccs-convert: writing ", "\r\033[KPROMPT");
}

/* Output to a terminal, -o /dev/tty too, gets no bar over it. */
Test(progress, none_over_output_on_a_terminal)
{
	char cmd[512], *s;

	if (!have_script())
		cr_skip_test("script(1) cannot give a pseudo-terminal here");
	snprintf(cmd, sizeof(cmd), "CCS_PROGRESS_DELAY=0 ccs-stacks %s -o "
	    "/dev/tty", in);
	s = on_terminal(cmd);
	cr_expect(strstr(s, "ccs-stacks: writing") == NULL, "%.300s", s);
	cr_expect(strstr(s, ";") != NULL, "no stacks written: %.300s", s);
	free(s);
}
