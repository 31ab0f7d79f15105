/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Helpers shared by the ccs-* tools: messages, option parsing for the
 * options every tool has, opening inputs and outputs.  Only tools use
 * this; it may print and exit.
 *
 * Adding a tool:
 *  1. write tools/<tool>.c with the main() shape of ccs-flat.c;
 *  2. the Makefile picks up every tools/NAME.c by itself, and links it
 *     with these helpers (tools/lib/);
 *  3. write man/<tool>.1 with EXAMPLES and EXIT STATUS;
 *  4. add tests/tools/test_<tool>.c with help/version/usage/missing-file
 *     tests plus golden cases, and run the man page's examples there;
 *  5. list the tool in the README and in ccs.c's table.
 */
#ifndef TOOLS_COMMON_H
#define TOOLS_COMMON_H

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "formats_int.h"
#include "pdb.h"

#define CCSTOOLS_VERSION	"0.1.0"

/* Exit codes. */
#define TOOL_OK		0
#define TOOL_ERR	1
#define TOOL_USAGE	2

extern const char *tool_progname;

/* Long-option codes above any short option. */
enum {
	OPT_HELP = 1000,
	OPT_VERSION,
	OPT_SELECT_FILE,
	OPT_DESELECT_FILE,
	OPT_COMPENSATE,
	OPT_LIST_FORMATS,
	OPT_TSV,
	OPT_MIN_TICKS,
	OPT_MIN_WORDS,
	OPT_MIN,
	OPT_MIN_PCT,
	OPT_EXCLUDE,
	OPT_MAX_STACKS,
	OPT_TOOL_BASE = 1100		/* a tool's own long options start here */
};

/*
 * What every tool shares: input format, metric, selection, output.
 * Tools add TOOL_COMMON_SHORTOPTS to their getopt string and
 * TOOL_COMMON_LONGOPTS to their long options, and pass every option to
 * tool_common_option() first.
 */
struct tool_common {
	const struct pdb_format	*informat;	/* -f, or NULL to probe */
	const struct pdb_format	*outformat;	/* -t, or NULL */
	const char		*metric;	/* -m, or NULL for the default */
	const char		*outpath;	/* -o, or NULL for stdout */
	struct pdb_sel		*sel;		/* -s, -d, --select-file, ... */
	/* The patterns of -s and -d, for tool_unmatched(). */
	struct tool_pat {
		const char	*pat;
		const char	*opt;		/* "-s" or "-d" */
	}			*pats;
	size_t			 npats;
	struct pdb_opts		 opts;
	int			 force;		/* -F: binary to a terminal */
	int			 quiet;		/* -q */

	/* Pruning, for tools with TOOL_PRUNE_LONGOPTS. */
	struct tool_min {
		char		*metric;
		int64_t		 min;
	}			*mins;
	size_t			 nmins;
	double			 min_pct;	/* < 0: none */
	struct tool_pct {
		uint64_t	 num, den;	/* exactly num / den */
	}			 pct;		/* --min-pct */
	const char		**excludes;
	size_t			 nexcludes;
	uint64_t		 max_stacks;	/* --max-stacks; 0: none */
	/* When --max-stacks pruned: the stacks before, and the threshold
	 * it took on the metric. */
	uint64_t		 max_stacks_from;
	int64_t			 max_stacks_min;
	int			 max_stacks_metric;
};

#define TOOL_COMMON_SHORTOPTS	"d:f:hm:o:qs:"
#define TOOL_COMMON_LONGOPTS						\
	{ "help", no_argument, NULL, OPT_HELP },			\
	{ "version", no_argument, NULL, OPT_VERSION },			\
	{ "select-file", required_argument, NULL, OPT_SELECT_FILE },	\
	{ "deselect-file", required_argument, NULL, OPT_DESELECT_FILE }, \
	{ "compensate", no_argument, NULL, OPT_COMPENSATE },		\
	{ "list-formats", no_argument, NULL, OPT_LIST_FORMATS },	\
	{ "format", required_argument, NULL, 'f' },			\
	{ "metric", required_argument, NULL, 'm' },			\
	{ "select", required_argument, NULL, 's' },			\
	{ "deselect", required_argument, NULL, 'd' },			\
	{ "output", required_argument, NULL, 'o' },			\
	{ "quiet", no_argument, NULL, 'q' }

/* Pruning options: every tool that reads a tree takes them. */
#define TOOL_PRUNE_LONGOPTS						\
	{ "min-ticks", required_argument, NULL, OPT_MIN_TICKS },	\
	{ "min-words", required_argument, NULL, OPT_MIN_WORDS },	\
	{ "min", required_argument, NULL, OPT_MIN },			\
	{ "min-pct", required_argument, NULL, OPT_MIN_PCT },		\
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },		\
	{ "max-stacks", required_argument, NULL, OPT_MAX_STACKS }

#define TOOL_PRUNE_HELP							\
	"      --min-ticks N      prune stacks of fewer than N inclusive ticks\n" \
	"      --min-words N      prune stacks of fewer than N inclusive words\n" \
	"      --min METRIC=N     prune stacks below N of METRIC\n"	\
	"      --min-pct P        prune stacks below P% of the metric's total\n" \
	"      --exclude PAT      prune cost centres matching PAT, with callees\n" \
	"      --max-stacks N     then prune the cheapest stacks, leaving at most N\n"

/*
 * Help text for the common options, one line each, for tool_help();
 * metric says what -m does in this tool.
 */
#define TOOL_COMMON_HELP(metric)					\
	"  -f, --format FMT       input format (default: detected)\n"	\
	"  -m, --metric NAME      " metric "\n"				\
	"  -s, --select PAT       select cost centres matching glob PAT\n" \
	"  -d, --deselect PAT     de-select cost centres matching PAT\n"	\
	"      --select-file F    select the patterns listed in F\n"	\
	"      --deselect-file F  de-select the patterns listed in F\n"	\
	"      --compensate       subtract pgcl profiling overhead\n"	\
	"  -o, --output FILE      write to FILE instead of stdout\n"	\
	"  -q, --quiet            no progress messages\n"		\
	"      --list-formats     list the formats and exit\n"		\
	"  -h, --help             show this help and exit\n"		\
	"      --version          show the version and exit\n"

/* Set the program name from argv[0]; make stdout errors visible. */
void	tool_init(const char *argv0, struct tool_common *);
void	tool_common_free(struct tool_common *);
/*
 * Handle one of the common options.  Returns 1 if it was one, 0 if the
 * tool must handle ch itself.  Exits on --help (with usage and help text),
 * --version, --list-formats and on bad arguments.
 */
int	tool_common_option(struct tool_common *, int ch, const char *arg,
	    const char *usage, const char *help);

/* The writable format called name (for -t); exits 2 if there is none. */
const struct pdb_format *tool_outformat(const char *name);
/*
 * The format tool_write_profile() writes: -t, else the one the extension
 * of -o names, else the dump.
 */
const struct pdb_format *tool_output_format(const struct tool_common *);
/*
 * Exit 1, with the reason, when format f cannot be written here
 * (pdb_format_ready(): its library cannot be loaded).  Called before
 * the input is read, so that a large profile is not read for nothing.
 */
void	tool_format_ready(const struct pdb_format *f);

/* Print "usage: ..." to stderr and exit 2. */
_Noreturn void tool_usage(const char *usage);
/* Print "prog: msg" to stderr (printf-style). */
void	tool_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print the handle's error message as "prog: msg". */
void	tool_pdberr(const struct pdb *);
/* Parse a number in [min, max] for option opt; exits 2 with
 * "prog: -n: 'abc': invalid number" on failure. */
long long tool_strtonum(const char *opt, const char *s, long long min,
	    long long max);
/* The same for a real number in [min, max]. */
double	tool_strtod(const char *opt, const char *s, double min, double max);
/*
 * A percentage, read from s as strtod() read it into v, kept exactly
 * when written in decimal (tools/lib/pct.c).  tool_pct_ceil() is the
 * least integer that reaches p of total; tool_pct_reaches() whether v
 * is at least p of total (never, for a total of zero, unless p is 0).
 */
void	tool_pct_set(struct tool_pct *p, const char *s, double v);
int64_t	tool_pct_ceil(const struct tool_pct *p, int64_t total);
int	tool_pct_reaches(const struct tool_pct *p, int64_t v, int64_t total);

/* A new handle whose warnings print as "prog: warning: ...". */
struct pdb *tool_pdb_new(void);
/* Resolve -m (or the default) against db's schema; on an unknown name
 * print the known metrics and return -1. */
int	tool_metric(const struct tool_common *, const struct pdb *);
/* The same, silent: -1 for an unknown name or no metric. */
int	tool_metric_quiet(const struct tool_common *, const struct pdb *);
/* Whether -m, if given, names a cost metric of db, as the events of
 * callgrind output must be; else says why not. */
int	tool_metric_is_event(const struct tool_common *, const struct pdb *);
/* tool_metric() for a tool that needs a metric: also says that the
 * profile read from path ("-": stdin) has none. */
int	tool_metric_needed(const struct tool_common *, const struct pdb *,
	    const char *path);
/* The single input operand: 0 or 1 operands, "-" meaning stdin.  Exits 2
 * with usage when there are more. */
const char *tool_one_input(int argc, char **argv, const char *usage);
/* The input is path: exits 2 with usage when it is stdin and a pattern
 * file was read from there; then tool_input_guard(). */
void	tool_input_from(const char *path, const char *usage);
/* The input as messages name it: "<stdin>" for "-". */
const char *tool_input_name(const char *path);

/*
 * Open the output: -o FILE or stdout.  Binary output to a terminal is
 * refused (exit 1) unless forced.  Returns NULL after printing an error.
 */
FILE	*tool_output_open(const struct tool_common *, int binary);
/* Flush and close the output, reporting write errors as
 * "prog: <stdout>: reason".  Returns 0 or -1. */
int	tool_output_close(const struct tool_common *, FILE *);
/*
 * After pdb_write() failed on the output f: print the error, close f and
 * remove the temporary file of -o, leaving an earlier file untouched.  A
 * write error reads "prog: <stdout>: reason" (nothing for a closed pipe);
 * other errors name inpath, or the output when inpath is NULL.  Returns
 * TOOL_ERR.
 */
int	tool_output_abort(const struct tool_common *, FILE *f,
	    const struct pdb *db, const char *inpath);
/* Whether path is a link to what standard output is open on, as
 * /dev/stdout is: -o then writes standard output, not a file. */
int	tool_output_names_stdout(const char *path);
/* Name of the output for messages. */
const char *tool_output_name(const struct tool_common *);
/* Remove the temporary file of -o, from a signal handler. */
void	tool_output_signal_remove(void);
/*
 * A file that shrinks while the library has it mapped raises SIGBUS
 * where it is read: say so, naming path, remove -o's temporary file and
 * exit 1, rather than die of the signal.  tool_input_from() calls it.
 */
void	tool_input_guard(const char *path);

/*
 * Read path into a tree and apply, in this fixed order whatever the
 * order of the options: the selection (projection, when not trivial),
 * then pruning.  Prints the error and exits 1 on failure.  rep (may be
 * NULL) gets what pruning folded.
 */
struct pdb *tool_load(struct tool_common *, const char *path,
	    struct pdb_prune_report *rep);
/*
 * pdb_read_tree(), but building the projection of the tree on sel (NULL
 * selects all, so only compresses) as it reads: only the projection is
 * ever in memory when the format's tree is the file's (pgcl, the dump,
 * GHC).  Returns PDB_OK or the error, set on db.
 */
int	tool_read_projected(struct tool_common *, struct pdb *db,
	    const char *path, const struct pdb_sel *sel);
/*
 * Warn of each pattern of -s, -d and --exclude that matches no cost
 * centre of db, read from path.  Not those of pattern files, which may
 * well list other programs' names.
 */
void	tool_unmatched(const struct tool_common *, const struct pdb *db,
	    const char *path);
/*
 * For a tool whose output can be made from events: whether nothing is
 * selected or pruned, so that it may read the profile as a stream.
 */
int	tool_streams(const struct tool_common *);
/*
 * Read path as events into sink: a format whose tree is its stream
 * (pgcl, the dump, GHC: fmt->build is PDB_BUILD_RAW) goes to sink as it
 * is read; any other is built into db's tree first, then replayed into
 * sink.  check (may be NULL) is asked first, when the schema is known:
 * when it says no, it has said why.  A sink that stops the read
 * (PDB_ESTOP) has said why too.  Prints the error and exits 1 on
 * failure.  Returns whether db holds the tree; tool_no_stacks() then
 * tells whether the sink took any stack.
 */
int	tool_read_events(struct tool_common *, struct pdb *db,
	    const char *path, const struct pdb_sink *sink,
	    int (*check)(struct tool_common *, const struct pdb *,
	    const char *path));
/* Exit 1 with "path: no stacks in profile" when nodes is 0: the stacks
 * of db's tree if built, else those the sink took. */
void	tool_no_stacks(const struct pdb *db, int built, uint64_t nodes,
	    const char *path);
/* Write db as -t (default: the native dump) to the output; returns the
 * exit status.  The writer may take db's tree (PDB_OPT_TAKE): only
 * pdb_free() and the error are left to do with db. */
int	tool_write_profile(struct tool_common *, struct pdb *);

/*
 * Names from a profile may hold any byte.  tool_put_text() writes s so
 * that it stays on one line and sends no control sequence to a terminal:
 * newline, tab and carriage return as \n, \t and \r, other control
 * characters (C0, DEL and C1) and bytes that are not UTF-8 as \xNN (C1
 * as \u00NN).  For a TSV field (tsv set) a backslash is written as \\
 * too, so that fields unescape exactly, and only C0 and DEL are escaped:
 * other bytes are data.  It returns, and tool_text_width() tells
 * without writing, the number of columns that takes on a terminal: two
 * for a wide East Asian character, none for a combining mark, one for
 * any other code point written.
 */
int	tool_put_text(FILE *, const char *s, int tsv);
int	tool_text_width(const char *s);

/*
 * A report's numbers without printf(), which would be most of the time
 * of a report of thousands of rows: a percentage with one decimal
 * (exactly "%.1f"), an integer ("%" PRId64), and s right-aligned in w
 * columns ("%*s").
 */
const char *tool_fmt_pct(char *buf, size_t len, int64_t part, int64_t total);
/* "%.1f" of x into buf, but for an exact zero, which has no sign: the
 * -0.0 of dividing 0 by a negative total is "0.0". */
const char *tool_fmt_tenths(char *buf, size_t len, double x);
const char *tool_fmt_int(char *buf, size_t len, int64_t v);
void	tool_put_right(FILE *out, const char *s, int w);
/* Name s as tool_put_text() writes it, then spaces up to w columns. */
void	tool_put_left(FILE *out, const char *s, int w);

/*
 * A report line made whole and written at once: piece by piece, a line
 * of a report of thousands of rows was some twenty stdio calls, and they
 * were half the run (ccs-tree) or most of the report (ccs-flat).  The
 * pieces go into text (formats_int.h), which grows only until it holds
 * the longest line; the line is written by its length, never read as a
 * string.  The pieces as tool_put_left() and tool_put_right() write
 * them: a name that is not printable ASCII, which is rare, goes out
 * through tool_put_left(), after the line so far.
 */
struct tool_line {
	struct pdb_text	 text;
	FILE		*out;
};

static inline void
tool_line_add(struct tool_line *l, const char *s, size_t n)
{
	if (l->text.len + n < l->text.cap) {
		memcpy(l->text.p + l->text.len, s, n);
		l->text.len += n;
	} else
		pdb_text_add(&l->text, s, n);
}

static inline void
tool_line_spaces(struct tool_line *l, int n)
{
	if (n <= 0 || (l->text.len + (size_t)n >= l->text.cap &&
	    !pdb_text_room(&l->text, (size_t)n)))
		return;
	memset(l->text.p + l->text.len, ' ', (size_t)n);
	l->text.len += (size_t)n;
}

/* Name s, then blanks up to w columns; s right-aligned in w columns. */
void	tool_line_left(struct tool_line *, const char *s, int w);
void	tool_line_right(struct tool_line *, const char *s, int w);
/* Write the line and start the next; exits when it ran out of memory. */
void	tool_line_flush(struct tool_line *);
void	tool_line_free(struct tool_line *);

/*
 * Progress.  Reading or writing that takes longer than about a second
 * (CCS_PROGRESS_DELAY milliseconds, default 1000) shows a bar on stderr:
 * bytes done, rate and, when the size is known, how much is left and an
 * estimate of the time to go.  Only when stderr is a terminal and -q
 * was not given; the line is erased when the work ends or a message is
 * printed.  tool_init() arranges it for reading (c->opts.progress) and
 * tool_output_open() for writing; a tool that knows how much it will
 * write says so with tool_progress_total(), and the writers of the dump
 * and pgcl tell how many of the tree's nodes they have written
 * (c->opts.write_progress, tool_write_progress_cb()).
 */
void	tool_progress_cb(void *c, uint64_t done, uint64_t total, int finished);
void	tool_write_progress_cb(void *c, uint64_t nodes, uint64_t total);
void	tool_progress_total(uint64_t bytes);
/* Erase the bar, if one is shown; the second from a signal handler. */
void	tool_progress_clear(void);
void	tool_progress_signal_clear(void);
/* For tool_output_open() and _close(): when a bar may show, f wrapped in
 * a stream that counts the bytes; and the stream under the wrapper,
 * everything passed on to it. */
FILE	*tool_progress_wrap(const struct tool_common *, FILE *f);
FILE	*tool_progress_unwrap(FILE *f);

/*
 * stdio's buffers for output: glibc sizes a buffer it allocates by the
 * file's block size, whatever setvbuf(3) asks, so the buffers are ours.
 * One for standard output, one for -o FILE (a tool has one output at a
 * time: output.c's temporary file), one for the stream that counts the
 * bytes for a progress bar.
 */
#define TOOL_OUT_BUFSIZE	((size_t)64 * 1024)

#endif /* TOOLS_COMMON_H */
