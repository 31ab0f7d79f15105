/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Helpers shared by the tools (common.h): the start, messages, the
 * options every tool has, the metric asked for, the input operand.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "xmalloc.h"

const char *tool_progname = "ccs";

static char	stdout_buf[TOOL_OUT_BUFSIZE];

static void
warn_handler(void *arg, const char *msg)
{
	(void)arg;
	tool_progress_clear();
	fprintf(stderr, "%s: warning: %s\n", tool_progname, msg);
}

void
tool_init(const char *argv0, struct tool_common *c)
{
	const char *slash;

	/*
	 * A reader closing the pipe ("ccs-stacks big | head") ends the tool
	 * quietly, even when started with SIGPIPE ignored.
	 */
	signal(SIGPIPE, SIG_DFL);
	/*
	 * A file grown past the size limit (ulimit -f) is a write error,
	 * EFBIG, reported as any other, not a death without a word.
	 */
	signal(SIGXFSZ, SIG_IGN);
	/*
	 * Output to a pipe or a file in blocks of OUT_BUFSIZE, not stdio's
	 * 4 KB: a report or a text profile of 8 MB was 2000 write(2)s, and
	 * in a pipeline as many wake-ups of the reader.  A terminal keeps
	 * its line buffering.
	 */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, stdout_buf, _IOFBF, sizeof(stdout_buf));

	if (argv0 != NULL && *argv0 != '\0') {
		/*
		 * getopt(3) names the program by argv[0] in its messages:
		 * shorten argv[0] itself, in place, to the base name.
		 */
		if ((slash = strrchr(argv0, '/')) != NULL)
			memmove((char *)argv0, slash + 1, strlen(slash + 1) + 1);
		tool_progname = argv0;
	}
	if (c != NULL) {
		memset(c, 0, sizeof(*c));
		c->min_pct = -1;
		c->opts.progress = tool_progress_cb;
		c->opts.write_progress = tool_write_progress_cb;
		c->opts.progress_arg = c;
		if ((c->sel = pdb_sel_new()) == NULL)
			nomem();
	}
}

void
tool_common_free(struct tool_common *c)
{
	size_t i;

	pdb_sel_free(c->sel);
	c->sel = NULL;
	for (i = 0; i < c->nmins; i++)
		free(c->mins[i].metric);
	free(c->mins);
	free(c->excludes);
	free(c->pats);
	c->mins = NULL;
	c->excludes = NULL;
	c->pats = NULL;
	c->nmins = c->nexcludes = c->npats = 0;
}

void
tool_warnx(const char *fmt, ...)
{
	va_list ap;

	tool_progress_clear();
	fprintf(stderr, "%s: ", tool_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	putc('\n', stderr);
}

void
tool_pdberr(const struct pdb *db)
{
	tool_warnx("%s", pdb_errmsg(db));
}

_Noreturn void
tool_usage(const char *usage)
{
	fprintf(stderr, "usage: %s\n", usage);
	exit(TOOL_USAGE);
}

/* Close stdout and exit, 1 with "prog: <stdout>: reason" if writing failed. */
static _Noreturn void
stdout_exit(void)
{
	static const struct tool_common none;

	exit(tool_output_close(&none, stdout) == 0 ? TOOL_OK : TOOL_ERR);
}

static _Noreturn void
help(const char *usage, const char *text)
{
	printf("usage: %s\n\n%s", usage, text);
	stdout_exit();
}

static _Noreturn void
version(void)
{
	printf("%s (ccstools) %s\n", tool_progname, CCSTOOLS_VERSION);
	if (strcmp(pdb_version(), CCSTOOLS_VERSION) != 0)
		printf("libprofdb %s\n", pdb_version());
	stdout_exit();
}

static _Noreturn void
list_formats(void)
{
	const struct pdb_format *f;
	size_t i = 0;

	while ((f = pdb_format_next(&i)) != NULL)
		printf("%-10s %s%s  %s\n", f->name, f->read ? "r" : "-",
		    f->write ? "w" : "-", f->desc);
	stdout_exit();
}

long long
tool_strtonum(const char *opt, const char *s, long long min, long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	/* strtoll() skips leading blanks; a number here has none. */
	if (*s == '\0' || *end != '\0' || isspace((unsigned char)*s)) {
		tool_warnx("%s: '%s': invalid number", opt, s);
		exit(TOOL_USAGE);
	}
	if (errno == ERANGE || v < min || v > max) {
		tool_warnx("%s: '%s': out of range (%lld to %lld)", opt, s, min,
		    max);
		exit(TOOL_USAGE);
	}
	return v;
}

/* The longest line of a pattern file: far past any name. */
#define PATTERN_LINE_MAX	((size_t)16 << 20)

/* A pattern file read from standard input, which the profile then
 * cannot be read from. */
static int patterns_from_stdin;

/*
 * The next line of pattern file f into *line (its newline dropped), or
 * -1 at the end.  A line is held whole, so a file with no newline, as
 * /dev/zero, is stopped at a length no name needs, and a NUL byte,
 * where a pattern would end and the rest go unseen, at once.
 */
static ssize_t
pattern_line(FILE *f, const char *path, unsigned long lineno, char **line,
    size_t *cap)
{
	size_t n = 0;
	int ch;

	if (*line == NULL)
		*line = xreallocarray(NULL, *cap = 256, 1);
	while ((ch = getc(f)) != EOF && ch != '\n') {
		if (ch == '\0') {
			tool_warnx("%s:%lu: NUL byte in a pattern", path, lineno);
			exit(TOOL_ERR);
		}
		if (n + 1 >= PATTERN_LINE_MAX) {
			tool_warnx("%s:%lu: line too long", path, lineno);
			exit(TOOL_ERR);
		}
		if (n + 1 >= *cap)
			*line = xreallocarray(*line, *cap *= 2, 1);
		(*line)[n++] = (char)ch;
	}
	if (ch == EOF && n == 0)
		return -1;
	(*line)[n] = '\0';
	return (ssize_t)n;
}

/* Add every pattern of file path (one per line, '#' comments). */
static void
add_pattern_file(struct tool_common *c, int select, const char *path)
{
	char *line = NULL, *p, *e;
	size_t cap = 0;
	unsigned long lineno = 1;
	FILE *f;

	if (strcmp(path, "-") == 0)
		patterns_from_stdin = 1;
	if ((f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r")) == NULL) {
		tool_warnx("%s: %s", path, strerror(errno));
		exit(TOOL_ERR);
	}
	for (; pattern_line(f, path, lineno, &line, &cap) != -1; lineno++) {
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		e = p + strlen(p);
		while (e > p && (e[-1] == '\r' || e[-1] == ' ' ||
		    e[-1] == '\t'))
			*--e = '\0';
		if (*p == '\0' || *p == '#')
			continue;
		if (pdb_sel_add(c->sel, select, p) != PDB_OK)
			nomem();
	}
	if (ferror(f)) {
		tool_warnx("%s: %s", path, strerror(errno));
		exit(TOOL_ERR);
	}
	free(line);
	if (f != stdin)
		fclose(f);
}

void
tool_input_from(const char *path, const char *usage)
{
	if (patterns_from_stdin && strcmp(path, "-") == 0) {
		tool_warnx("standard input cannot hold both a pattern file "
		    "and the profile");
		tool_usage(usage);
	}
	tool_input_guard(path);
}

static const struct pdb_format *
format_arg(const char *opt, const char *name)
{
	const struct pdb_format *f;

	if ((f = pdb_format_find(name)) == NULL) {
		tool_warnx("%s: unknown format '%s' (see --list-formats)", opt,
		    name);
		exit(TOOL_USAGE);
	}
	return f;
}

double
tool_strtod(const char *opt, const char *s, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno == ERANGE || v != v) {
		tool_warnx("%s: '%s': invalid number", opt, s);
		exit(TOOL_USAGE);
	}
	if (v < min || v > max) {
		tool_warnx("%s: '%s': out of range (%g to %g)", opt, s, min, max);
		exit(TOOL_USAGE);
	}
	return v;
}

static void
add_min(struct tool_common *c, int ch, const char *arg)
{
	const char *opt = ch == OPT_MIN_TICKS ? "--min-ticks" :
	    ch == OPT_MIN_WORDS ? "--min-words" : "--min";
	char *name, *eq;
	const char *num = arg;

	if (ch == OPT_MIN) {
		if ((eq = strchr(arg, '=')) == NULL || eq == arg) {
			tool_warnx("--min: '%s': expected METRIC=N", arg);
			exit(TOOL_USAGE);
		}
		if ((name = strndup(arg, (size_t)(eq - arg))) == NULL)
			nomem();
		num = eq + 1;
	} else
		name = xstrdup(ch == OPT_MIN_TICKS ? "ticks" : "words");
	c->mins = xreallocarray(c->mins, c->nmins + 1, sizeof(*c->mins));
	c->mins[c->nmins].metric = name;
	c->mins[c->nmins].min = tool_strtonum(opt, num, LLONG_MIN, LLONG_MAX);
	c->nmins++;
}

/* An empty file name is a slip of the shell, not a file to open. */
static void
empty_name(const char *opt, const char *arg)
{
	if (*arg == '\0') {
		tool_warnx("%s: empty file name", opt);
		exit(TOOL_USAGE);
	}
}

int
tool_common_option(struct tool_common *c, int ch, const char *arg,
    const char *usage, const char *helptext)
{
	switch (ch) {
	case 'd':
	case 's':
		/* It would match no cost centre: a mistake, not a choice. */
		if (*arg == '\0') {
			tool_warnx("-%c: empty pattern", ch);
			exit(TOOL_USAGE);
		}
		if (pdb_sel_add(c->sel, ch == 's', arg) != PDB_OK)
			nomem();
		c->pats = xreallocarray(c->pats, c->npats + 1,
		    sizeof(*c->pats));
		c->pats[c->npats].pat = arg;
		c->pats[c->npats++].opt = ch == 's' ? "-s" : "-d";
		return 1;
	case 'f':
		c->informat = format_arg("-f", arg);
		if (c->informat->read == NULL) {
			tool_warnx("-f: format '%s' cannot be read", arg);
			exit(TOOL_USAGE);
		}
		return 1;
	case 'h':
	case OPT_HELP:
		help(usage, helptext);
	case 'm':
		c->metric = arg;
		return 1;
	case 'o':
		empty_name("-o", arg);
		c->outpath = strcmp(arg, "-") == 0 ? NULL : arg;
		/*
		 * Standard output is not written, so a closed pipe can
		 * only be stderr's, as in "... -o out 2>&1 | head -1":
		 * its warnings are lost then, not the output, from the
		 * first warning on, which may come before the file opens.
		 */
		signal(SIGPIPE, c->outpath != NULL &&
		    !tool_output_names_stdout(c->outpath) ? SIG_IGN : SIG_DFL);
		return 1;
	case 'q':
		c->quiet = 1;
		return 1;
	case OPT_COMPENSATE:
		c->opts.flags |= PDB_OPT_COMPENSATE;
		return 1;
	case OPT_DESELECT_FILE:
		empty_name("--deselect-file", arg);
		add_pattern_file(c, 0, arg);
		return 1;
	case OPT_LIST_FORMATS:
		list_formats();
	case OPT_SELECT_FILE:
		empty_name("--select-file", arg);
		add_pattern_file(c, 1, arg);
		return 1;
	case OPT_VERSION:
		version();
	case OPT_MIN_TICKS:
	case OPT_MIN_WORDS:
	case OPT_MIN:
		add_min(c, ch, arg);
		return 1;
	case OPT_MIN_PCT:
		c->min_pct = tool_strtod("--min-pct", arg, 0, 100);
		tool_pct_set(&c->pct, arg, c->min_pct);
		return 1;
	case OPT_EXCLUDE:
		if (*arg == '\0') {
			tool_warnx("--exclude: empty pattern");
			exit(TOOL_USAGE);
		}
		c->excludes = xreallocarray(c->excludes, c->nexcludes + 1,
		    sizeof(*c->excludes));
		c->excludes[c->nexcludes++] = arg;
		return 1;
	case OPT_MAX_STACKS:
		c->max_stacks = (uint64_t)tool_strtonum("--max-stacks", arg, 0,
		    UINT32_MAX);
		return 1;
	default:
		return 0;
	}
}

/* Parse -t FORMAT for tools that write. */
const struct pdb_format *
tool_outformat(const char *name)
{
	const struct pdb_format *f = format_arg("-t", name);

	if (f->write == NULL) {
		tool_warnx("-t: format '%s' cannot be written", name);
		exit(TOOL_USAGE);
	}
	return f;
}

struct pdb *
tool_pdb_new(void)
{
	struct pdb *db;

	if ((db = pdb_new()) == NULL)
		nomem();
	pdb_set_warn_handler(db, warn_handler, NULL);
	return db;
}

int
tool_metric_quiet(const struct tool_common *c, const struct pdb *db)
{
	if (c->metric == NULL)
		return pdb_metric_count(db) > 0 ? (int)pdb_metric_default(db) :
		    -1;
	return pdb_metric_find(db, c->metric);
}

int
tool_metric(const struct tool_common *c, const struct pdb *db)
{
	unsigned i;
	int m;

	if ((m = tool_metric_quiet(c, db)) >= 0 || c->metric == NULL)
		return m;
	fprintf(stderr, "%s: -m: no metric '%s' in this profile; it has:",
	    tool_progname, c->metric);
	for (i = 0; i < pdb_metric_count(db); i++)
		fprintf(stderr, " %s", pdb_metric(db, i)->name);
	putc('\n', stderr);
	return -1;
}

int
tool_metric_is_event(const struct tool_common *c, const struct pdb *db)
{
	int m;

	if (c->metric == NULL)
		return 1;
	if ((m = tool_metric(c, db)) < 0)
		return 0;
	if (pdb_metric(db, (unsigned)m)->kind != PDB_COST) {
		tool_warnx("-m: '%s' is a count, not a cost: callgrind "
		    "events are the cost metrics", c->metric);
		return 0;
	}
	return 1;
}

int
tool_metric_needed(const struct tool_common *c, const struct pdb *db,
    const char *path)
{
	int m;

	if ((m = tool_metric(c, db)) < 0 && c->metric == NULL)
		tool_warnx("%s: the profile has no metrics",
		    tool_input_name(path));
	return m;
}

const char *
tool_input_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

const char *
tool_one_input(int argc, char **argv, const char *usage)
{
	if (argc > 1) {
		tool_warnx("one input at most, not %d", argc);
		tool_usage(usage);
	}
	tool_input_from(argc == 1 ? argv[0] : "-", usage);
	return argc == 1 ? argv[0] : "-";
}
