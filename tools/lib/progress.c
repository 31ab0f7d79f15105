/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The progress bar on stderr (common.h, "Progress").
 */
#define _GNU_SOURCE		/* fopencookie(3), for the writing progress bar */
#include <sys/time.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static char	wrap_buf[TOOL_OUT_BUFSIZE];
/* The bar is on the screen (a signal handler reads it too). */
static volatile sig_atomic_t	bar_shown;
/* The signals that end a tool and would leave the bar on the screen. */
static const int	bar_sigs[] = { SIGHUP, SIGINT, SIGPIPE, SIGTERM };

static struct {
	int		 decided, on;	/* stderr is a terminal, no -q */
	double		 delay;		/* seconds before the bar shows */
	double		 t0, last;	/* phase start, last drawn */
	int		 writing;	/* the phase: reading or writing */
	uint64_t	 total;		/* expected output, for writing */
	/* Writing a tree: its nodes written so far, and in all. */
	uint64_t	 nodes, nodes_total;
	/* The output wrapper: the real stream and the bytes written. */
	FILE		*wrapper, *inner;
	uint64_t	 written;
} prog;

static double
now(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static int
progress_on(const struct tool_common *c)
{
	const char *d;

	if (!prog.decided) {
		prog.decided = 1;
		prog.on = c != NULL && !c->quiet && isatty(STDERR_FILENO);
		d = getenv("CCS_PROGRESS_DELAY");
		prog.delay = d != NULL && *d != '\0' ? atof(d) / 1000.0 : 1.0;
	}
	return prog.on;
}

/* "123.4 MB" */
static void
human(char *buf, size_t len, double v)
{
	static const char *const units[] = { "B", "kB", "MB", "GB", "TB" };
	int u = 0;

	while (v >= 1000 && u < 4) {
		v /= 1000;
		u++;
	}
	snprintf(buf, len, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
}

/* " [####....]  40%" for the fraction f. */
static void
draw_bar(double f)
{
	char bar[24];
	int i, n = (int)(20.0 * f);

	for (i = 0; i < 20; i++)
		bar[i] = i < n ? '#' : '.';
	bar[20] = '\0';
	fprintf(stderr, " [%s] %3d%%", bar, (int)(100.0 * f));
}

static void
draw_eta(double left)
{
	fprintf(stderr, " ETA %d:%02d", (int)left / 60, (int)left % 60);
}

void
tool_progress_signal_clear(void)
{
	if (bar_shown) {
		bar_shown = 0;
		(void)!write(STDERR_FILENO, "\r\033[K", 4);
	}
}

/* A signal ends the tool: erase the bar, then die of it. */
static void
bar_signal(int sig)
{
	int save = errno;

	tool_progress_signal_clear();
	errno = save;
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Erase the bar when a signal ends the tool, as a reader closing the
 * pipe (SIGPIPE) or ^C does: for the signals that would kill it
 * (SIG_DFL), once, when the bar first shows.  Those of -o's temporary
 * file (output.c) erase it themselves.
 */
static void
catch_signals(void)
{
	static int caught;
	struct sigaction sa, cur;
	size_t i;

	if (caught)
		return;
	caught = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = bar_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(bar_sigs) / sizeof(bar_sigs[0]); i++)
		if (sigaction(bar_sigs[i], NULL, &cur) == 0 &&
		    cur.sa_handler == SIG_DFL)
			sigaction(bar_sigs[i], &sa, NULL);
}

static void
draw(uint64_t done, uint64_t total, double t)
{
	char d[32], tt[32], r[32];
	double el = t - prog.t0, rate = el > 0.2 ? (double)done / el : 0, f;

	human(d, sizeof(d), (double)done);
	human(r, sizeof(r), rate);
	fprintf(stderr, "\r\033[K%s: %s %s", tool_progname,
	    prog.writing ? "writing" : "reading", d);
	if (total > 0 && done <= total) {
		human(tt, sizeof(tt), (double)total);
		fprintf(stderr, " of %s", tt);
		draw_bar((double)done / (double)total);
		if (rate > 0) {
			fprintf(stderr, " %s/s", r);
			draw_eta((double)(total - done) / rate);
		}
	} else if (prog.writing && prog.nodes_total > 0 &&
	    prog.nodes <= prog.nodes_total) {
		/* The bytes to come are unknown, the nodes are not: the
		 * time left is the time so far, scaled. */
		f = (double)prog.nodes / (double)prog.nodes_total;
		draw_bar(f);
		if (rate > 0) {
			fprintf(stderr, " %s/s", r);
			if (f > 0)
				draw_eta(el * (1 - f) / f);
		}
	} else if (rate > 0)
		fprintf(stderr, " %s/s", r);
	fflush(stderr);
	catch_signals();
	bar_shown = 1;
	prog.last = t;
}

static void
update(int writing, uint64_t done, uint64_t total)
{
	double t = now();

	if (prog.t0 == 0 || prog.writing != writing) {
		tool_progress_clear();
		prog.writing = writing;
		prog.t0 = t;
		prog.last = 0;
	}
	if (t - prog.t0 >= prog.delay && t - prog.last >= 0.1)
		draw(done, total, t);
}

void
tool_progress_clear(void)
{
	if (bar_shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		bar_shown = 0;
	}
}

void
tool_progress_cb(void *arg, uint64_t done, uint64_t total, int finished)
{
	if (!progress_on(arg))
		return;
	if (finished) {
		tool_progress_clear();
		prog.t0 = 0;
		return;
	}
	update(0, done, total);
}

void
tool_write_progress_cb(void *arg, uint64_t nodes, uint64_t total)
{
	(void)arg;
	/* The first news of the tree is drawn at the next write. */
	if (prog.nodes_total == 0)
		prog.last = 0;
	prog.nodes = nodes;
	prog.nodes_total = total;
}

void
tool_progress_total(uint64_t bytes)
{
	prog.total = bytes;
}

static ssize_t
wrap_write(void *cookie, const char *buf, size_t n)
{
	size_t k;

	(void)cookie;
	k = fwrite(buf, 1, n, prog.inner);
	prog.written += k;
	update(1, prog.written, prog.total);
	return k < n ? -1 : (ssize_t)n;
}

static int
wrap_close(void *cookie)
{
	(void)cookie;
	return 0;
}

FILE *
tool_progress_wrap(const struct tool_common *c, FILE *f)
{
	cookie_io_functions_t io = { NULL, wrap_write, NULL, wrap_close };
	FILE *w;

	/* Not over text shown on a terminal (stdout, or -o /dev/tty). */
	if (!progress_on(c) || prog.wrapper != NULL || isatty(fileno(f)) ||
	    (w = fopencookie(NULL, "w", io)) == NULL)
		return f;
	setvbuf(w, wrap_buf, _IOFBF, sizeof(wrap_buf));
	prog.wrapper = w;
	prog.inner = f;
	prog.written = 0;
	return w;
}

FILE *
tool_progress_unwrap(FILE *f)
{
	FILE *inner;

	if (f == NULL || f != prog.wrapper)
		return f;
	inner = prog.inner;
	fflush(f);
	fclose(f);
	prog.wrapper = prog.inner = NULL;
	tool_progress_clear();
	prog.t0 = 0;
	prog.nodes = prog.nodes_total = 0;
	return inner;
}
