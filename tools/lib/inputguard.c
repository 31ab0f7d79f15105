/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The library maps a regular input file rather than copying it (input.c
 * in the format layer).  If the file shrinks meanwhile, as when the
 * program being profiled runs again and truncates it, reading a page
 * past the new end raises SIGBUS.  The tools catch it and fail as for
 * any bad input: a message naming the file, -o's temporary file
 * removed, exit 1.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

/* The message, made before the read: a handler may only write(2) it. */
static char	guard_msg[PATH_MAX + 128];
static size_t	guard_len;

static void
input_shrank(int sig)
{
	(void)sig;
	tool_progress_signal_clear();
	tool_output_signal_remove();
	(void)!write(STDERR_FILENO, guard_msg, guard_len);
	_exit(TOOL_ERR);
}

void
tool_input_guard(const char *path)
{
	static int installed;
	struct sigaction sa;
	int n;

	n = snprintf(guard_msg, sizeof(guard_msg),
	    "%s: %s: the file shrank while it was read\n", tool_progname,
	    tool_input_name(path));
	if (n < 0)
		guard_len = 0;
	else if ((size_t)n < sizeof(guard_msg))
		guard_len = (size_t)n;
	else {
		/* A name too long to give whole: the line still ends. */
		guard_len = sizeof(guard_msg) - 1;
		guard_msg[guard_len - 1] = '\n';
	}
	if (installed)
		return;
	installed = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = input_shrank;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}
