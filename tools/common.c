/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Helpers shared by the tools; see common.h.
 */
#define _GNU_SOURCE		/* fopencookie(3), for the writing progress bar */
#include <sys/stat.h>
#include <sys/time.h>

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

const char *tool_progname = "ccs";

/*
 * stdio's buffers for output: glibc sizes a buffer it allocates by the
 * file's block size, whatever setvbuf(3) asks, so the buffers are ours.
 * One for standard output, one for -o FILE (a tool has one output at a
 * time, as out_tmp below says), one for the stream that counts the
 * bytes for a progress bar.
 */
#define OUT_BUFSIZE	((size_t)64 * 1024)
static char	stdout_buf[OUT_BUFSIZE], file_buf[OUT_BUFSIZE],
		wrap_buf[OUT_BUFSIZE];

/*
 * The temporary file that -o FILE is written to, renamed to FILE only
 * when everything went well.  Until then an exit or a fatal signal
 * removes it, so that a failed or interrupted run leaves an earlier FILE
 * as it was.  The signal handler may only look at these.
 */
static char			 out_tmp[PATH_MAX];
static volatile sig_atomic_t	 out_tmp_live;

static FILE	*progress_wrap(const struct tool_common *, FILE *);
static FILE	*progress_unwrap(FILE *);

static void
warn_handler(void *arg, const char *msg)
{
	(void)arg;
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
		if ((c->sel = pdb_sel_new()) == NULL) {
			fprintf(stderr, "%s: out of memory\n", tool_progname);
			exit(TOOL_ERR);
		}
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
	c->mins = NULL;
	c->excludes = NULL;
	c->nmins = c->nexcludes = 0;
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
	if (*s == '\0' || *end != '\0' || errno == ERANGE) {
		tool_warnx("%s: '%s': invalid number", opt, s);
		exit(TOOL_USAGE);
	}
	if (v < min || v > max) {
		tool_warnx("%s: '%s': out of range (%lld to %lld)", opt, s, min,
		    max);
		exit(TOOL_USAGE);
	}
	return v;
}

/* Add every pattern of file path (one per line, '#' comments). */
static void
add_pattern_file(struct tool_common *c, int select, const char *path)
{
	char *line = NULL, *p, *e;
	size_t cap = 0;
	FILE *f;

	if ((f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r")) == NULL) {
		tool_warnx("%s: %s", path, strerror(errno));
		exit(TOOL_ERR);
	}
	while (getline(&line, &cap, f) != -1) {
		for (p = line; *p == ' ' || *p == '\t'; p++)
			;
		e = p + strlen(p);
		while (e > p && (e[-1] == '\n' || e[-1] == '\r' ||
		    e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		if (*p == '\0' || *p == '#')
			continue;
		if (pdb_sel_add(c->sel, select, p) != PDB_OK) {
			tool_warnx("out of memory");
			exit(TOOL_ERR);
		}
	}
	if (ferror(f)) {
		tool_warnx("%s: %s", path, strerror(errno));
		exit(TOOL_ERR);
	}
	free(line);
	if (f != stdin)
		fclose(f);
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

static double
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
		name = strndup(arg, (size_t)(eq - arg));
		num = eq + 1;
	} else
		name = strdup(ch == OPT_MIN_TICKS ? "ticks" : "words");
	c->mins = realloc(c->mins, (c->nmins + 1) * sizeof(*c->mins));
	if (name == NULL || c->mins == NULL) {
		tool_warnx("out of memory");
		exit(TOOL_ERR);
	}
	c->mins[c->nmins].metric = name;
	c->mins[c->nmins].min = tool_strtonum(opt, num, LLONG_MIN, LLONG_MAX);
	c->nmins++;
}

int
tool_common_option(struct tool_common *c, int ch, const char *arg,
    const char *usage, const char *helptext)
{
	switch (ch) {
	case 'd':
	case 's':
		if (pdb_sel_add(c->sel, ch == 's', arg) != PDB_OK) {
			tool_warnx("out of memory");
			exit(TOOL_ERR);
		}
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
		c->outpath = strcmp(arg, "-") == 0 ? NULL : arg;
		return 1;
	case 'q':
		c->quiet = 1;
		return 1;
	case OPT_COMPENSATE:
		c->opts.flags |= PDB_OPT_COMPENSATE;
		return 1;
	case OPT_DESELECT_FILE:
		add_pattern_file(c, 0, arg);
		return 1;
	case OPT_LIST_FORMATS:
		list_formats();
	case OPT_SELECT_FILE:
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
		return 1;
	case OPT_EXCLUDE:
		c->excludes = realloc(c->excludes,
		    (c->nexcludes + 1) * sizeof(*c->excludes));
		if (c->excludes == NULL) {
			tool_warnx("out of memory");
			exit(TOOL_ERR);
		}
		c->excludes[c->nexcludes++] = arg;
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

	if ((db = pdb_new()) == NULL) {
		tool_warnx("out of memory");
		exit(TOOL_ERR);
	}
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
	if (argc > 1)
		tool_usage(usage);
	return argc == 1 ? argv[0] : "-";
}

const char *
tool_output_name(const struct tool_common *c)
{
	return c->outpath ? c->outpath : "<stdout>";
}

static void
out_tmp_remove(void)
{
	if (out_tmp_live) {
		out_tmp_live = 0;
		unlink(out_tmp);
	}
}

static void
out_tmp_signal(int sig)
{
	int save = errno;

	if (out_tmp_live)
		unlink(out_tmp);
	out_tmp_live = 0;
	errno = save;
	/* Die of the signal, as if it had not been caught. */
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * Open a temporary file next to path (same directory, so rename(2) can
 * replace path atomically), with the permissions path has, or would get
 * from open(2) and the umask when new.  Returns NULL with errno set.
 */
static FILE *
out_tmp_open(const char *path, const struct stat *old)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGXFSZ };
	static int registered;
	const char *slash = strrchr(path, '/');
	struct sigaction sa;
	sigset_t block, saved;
	mode_t mode, mask;
	size_t i;
	FILE *f;
	int fd, n, save;

	if (slash == NULL)
		n = snprintf(out_tmp, sizeof(out_tmp), ".%s.XXXXXX", path);
	else
		n = snprintf(out_tmp, sizeof(out_tmp), "%.*s/.%s.XXXXXX",
		    (int)(slash - path), path, slash + 1);
	if (n < 0 || (size_t)n >= sizeof(out_tmp)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	if (!registered) {
		registered = 1;
		atexit(out_tmp_remove);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = out_tmp_signal;
		sigemptyset(&sa.sa_mask);
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
			struct sigaction cur;

			/* Keep a signal ignored by whoever started us. */
			if (sigaction(sigs[i], NULL, &cur) == 0 &&
			    cur.sa_handler == SIG_IGN)
				continue;
			sigaction(sigs[i], &sa, NULL);
		}
	}
	/* The handler must never see a half-made name. */
	sigemptyset(&block);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&block, sigs[i]);
	sigprocmask(SIG_BLOCK, &block, &saved);
	if ((fd = mkstemp(out_tmp)) >= 0)
		out_tmp_live = 1;
	save = errno;
	sigprocmask(SIG_SETMASK, &saved, NULL);
	if (fd < 0) {
		errno = save;
		return NULL;
	}
	if (old != NULL)
		mode = old->st_mode & 07777;
	else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(fd, mode) != 0 || (f = fdopen(fd, "wb")) == NULL) {
		save = errno;
		close(fd);
		out_tmp_remove();
		errno = save;
		return NULL;
	}
	return f;
}

FILE *
tool_output_open(const struct tool_common *c, int binary)
{
	struct stat st;
	FILE *f;
	int exists;

	if (c->outpath == NULL) {
		if (binary && !c->force && isatty(STDOUT_FILENO)) {
			tool_warnx("refusing to write binary output to a "
			    "terminal (use -o FILE or a pipe)");
			return NULL;
		}
		return progress_wrap(c, stdout);
	}
	/*
	 * A regular file (or a new one) is written through a temporary
	 * file; anything else (/dev/null, /dev/full, a FIFO, a terminal)
	 * cannot be replaced by rename(2) and is written directly.
	 */
	exists = stat(c->outpath, &st) == 0;
	if (exists && !S_ISREG(st.st_mode))
		f = fopen(c->outpath, "wb");
	else
		f = out_tmp_open(c->outpath, exists ? &st : NULL);
	if (f == NULL) {
		tool_warnx("%s: %s", c->outpath, strerror(errno));
		return NULL;
	}
	setvbuf(f, file_buf, _IOFBF, sizeof(file_buf));
	return progress_wrap(c, f);
}

int
tool_output_close(const struct tool_common *c, FILE *f)
{
	int err = 0;

	if (f == NULL)
		return -1;
	f = progress_unwrap(f);
	/*
	 * errno is not cleared first: when a write failed earlier, stdio
	 * dropped the buffer and errno still says why.
	 */
	if (fflush(f) != 0 || ferror(f))
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && err == 0)
		err = errno ? errno : EIO;
	if (err == 0 && f != stdout && out_tmp_live) {
		if (rename(out_tmp, c->outpath) == 0)
			out_tmp_live = 0;
		else
			err = errno;
	}
	if (f != stdout)
		out_tmp_remove();
	if (err == EPIPE)
		return -1;	/* the reader went away: nothing to say */
	if (err) {
		tool_warnx("%s: %s", tool_output_name(c), strerror(err));
		return -1;
	}
	return 0;
}

int
tool_output_abort(const struct tool_common *c, FILE *f, const struct pdb *db,
    const char *inpath)
{
	int err = errno;

	f = progress_unwrap(f);
	if (pdb_errcode(db) == PDB_EIO && f != NULL && ferror(f)) {
		if (err != EPIPE)
			tool_warnx("%s: %s", tool_output_name(c),
			    strerror(err ? err : EIO));
	} else if (inpath != NULL)
		tool_warnx("%s: %s", tool_input_name(inpath),
		    pdb_errmsg(db));
	else
		tool_warnx("%s: %s", tool_output_name(c), pdb_errmsg(db));
	if (f != NULL && f != stdout)
		fclose(f);
	out_tmp_remove();
	return TOOL_ERR;
}

/*
 * Write n bytes.  A report is mostly short fields and padding, a dozen a
 * row: fwrite(3) spends some 290 instructions on each, putc_unlocked(3)
 * a handful a byte, so a short field goes out byte by byte and a long
 * one by fwrite()'s copy.  (stdio takes no lock in a program of one
 * thread.)  ccs-tree builds its lines whole instead (t->line), as its
 * rows are made in one place; these helpers serve every other report.
 */
static void
put_bytes(FILE *out, const char *p, size_t n)
{
	if (n > 64) {
		fwrite(p, 1, n, out);
		return;
	}
	while (n-- > 0)
		putc_unlocked(*p++, out);
}

/*
 * Write (out != NULL) or measure s as tool_put_text() does; returns the
 * columns.
 */
static int
put_text(FILE *out, const char *s, int tsv)
{
	const unsigned char *p = (const unsigned char *)s, *run = p, *end;
	uint32_t c;
	char esc[16];
	size_t n;
	int w = 0;

	/* Printable ASCII, nearly every name, goes out as it is: one
	 * column a byte.  Reports print thousands of names. */
	for (end = p; *end >= 0x20 && *end < 0x7f && !(tsv && *end == '\\');
	    end++)
		;
	if (*end == '\0') {
		if (out != NULL)
			put_bytes(out, (const char *)p, (size_t)(end - p));
		return (int)(end - p);
	}
	end += strlen((const char *)end);

	/* Bytes that stay as they are go out a run at a time. */
	while (*p != '\0') {
		n = pdb_utf8_seq(p, (size_t)(end - p), &c);
		esc[0] = '\0';
		if (n == 0 && tsv) {
			/* Data: other bytes stay as they are. */
			n = 1;
			c = 0xa0;
		}
		if (n == 0)
			snprintf(esc, sizeof(esc), "\\x%02X", *p);
		else if (c == '\n')
			snprintf(esc, sizeof(esc), "\\n");
		else if (c == '\t')
			snprintf(esc, sizeof(esc), "\\t");
		else if (c == '\r')
			snprintf(esc, sizeof(esc), "\\r");
		else if (c < 0x20 || c == 0x7f)
			snprintf(esc, sizeof(esc), "\\x%02X", (unsigned)c);
		else if (c >= 0x80 && c <= 0x9f && !tsv)
			snprintf(esc, sizeof(esc), "\\u%04X", (unsigned)c);
		else if (c == '\\' && tsv)
			snprintf(esc, sizeof(esc), "\\\\");
		if (esc[0] != '\0') {
			if (out != NULL) {
				fwrite(run, 1, (size_t)(p - run), out);
				fputs(esc, out);
			}
			w += (int)strlen(esc);
			p += n ? n : 1;
			run = p;
		} else {
			w++;
			p += n;
		}
	}
	if (out != NULL && p > run)
		fwrite(run, 1, (size_t)(p - run), out);
	return w;
}

int
tool_put_text(FILE *out, const char *s, int tsv)
{
	return put_text(out, s, tsv);
}

int
tool_text_width(const char *s)
{
	return put_text(NULL, s, 0);
}

/*
 * x * 10 is exact in a long double whose significand has at least 57
 * bits (x86's 64, or a quad's), and rintl() then rounds it half to
 * even, as printf() does in the default rounding mode.  (nearbyintl()
 * would save and restore the floating-point state to keep the inexact
 * flag clear, a cost in every call; nothing here reads that flag.)
 */
int
tool_fmt_tenths(char *buf, size_t len, double x)
{
	char digits[32], *p = digits;
	int64_t u;
	long double t;
	size_t n;

	if (LDBL_MANT_DIG < 57 || !(fabs(x) < 1e15))
		return 0;
	t = rintl((long double)x * 10.0L);
	u = (int64_t)(t < 0 ? -t : t);
	/* The sign is x's, as for printf(): -0.04 is "-0.0". */
	if (signbit(x))
		*p++ = '-';
	p = pdb_put_decimal(p, u / 10);
	*p++ = '.';
	*p++ = (char)('0' + u % 10);
	n = (size_t)(p - digits);
	if (n >= len)
		return 0;
	memcpy(buf, digits, n);
	buf[n] = '\0';
	return 1;
}

const char *
tool_fmt_int(char *buf, size_t len, int64_t v)
{
	char digits[24];
	size_t n = (size_t)(pdb_put_decimal(digits, v) - digits);

	if (n >= len)
		n = len - 1;
	memcpy(buf, digits, n);
	buf[n] = '\0';
	return buf;
}

/* n spaces. */
static void
put_spaces(FILE *out, int n)
{
	for (; n > 0; n--)
		putc_unlocked(' ', out);
}

void
tool_put_right(FILE *out, const char *s, int w)
{
	size_t n = strlen(s);

	put_spaces(out, w - (int)n);
	put_bytes(out, s, n);
}

void
tool_put_left(FILE *out, const char *s, int w)
{
	put_spaces(out, w - tool_put_text(out, s, 0));
}

/* The percentage, printed by the thousand in a report: printf() would
 * be most of the report's time. */
const char *
tool_fmt_pct(char *buf, size_t len, int64_t part, int64_t total)
{
	double x = total == 0 ? 0.0 : 100.0 * (double)part / (double)total;

	if (!tool_fmt_tenths(buf, len, x))
		snprintf(buf, len, "%.1f", x);
	return buf;
}

/*
 * Reading through a selecting builder (pdb_builder_select()), which
 * projects the events as they come when the format's tree is the file's
 * (PDB_BUILD_RAW): the tree as read never exists.  Like pdb_read_tree(),
 * give the builder the format's mode once it is known, which is when the
 * reader begins: pdb_read_stream() has set *used by then.
 */
struct loader {
	struct pdb_builder	*b;
	const struct pdb_format	*fmt;
	struct pdb_sink		 sink;
};

static int
load_begin(void *arg, struct pdb *db)
{
	struct loader *l = arg;
	const struct pdb_sink *bs = pdb_builder_sink(l->b);

	if (l->fmt == NULL)
		return pdb_seterr(db, PDB_EINVAL, "format unknown when the "
		    "reader began");
	pdb_builder_set_mode(l->b, l->fmt->build);
	/* The rest of the events go straight to the builder. */
	l->sink = *bs;
	return bs->begin != NULL ? bs->begin(bs->arg, db) : 0;
}

int
tool_read_projected(struct tool_common *c, struct pdb *db, const char *path,
    const struct pdb_sel *sel)
{
	struct loader l;
	int rc;

	memset(&l, 0, sizeof(l));
	if ((l.b = pdb_builder_new(db, PDB_BUILD_RAW)) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	pdb_builder_select(l.b, sel);
	l.fmt = c->informat;
	l.sink.begin = load_begin;
	l.sink.arg = &l;
	rc = pdb_read_stream(db, path, c->informat, &c->opts, &l.sink, &l.fmt);
	pdb_builder_free(l.b);
	if (rc == PDB_OK && pdb_node_count(db) == 0)
		rc = pdb_seterr(db, PDB_EFORMAT, "%s: no stacks in profile",
		    tool_input_name(path));
	return rc;
}

int
tool_streams(const struct tool_common *c)
{
	return pdb_sel_is_trivial(c->sel) && c->nmins == 0 &&
	    c->min_pct < 0 && c->nexcludes == 0;
}

/* tool_read_events(): the reader's sink until the format is known. */
struct events {
	struct tool_common	*c;
	const char		*path;
	const struct pdb_format	*fmt;
	const struct pdb_sink	*to;
	int			(*check)(struct tool_common *,
				    const struct pdb *, const char *);
	struct pdb_builder	*b;	/* a tree to build first */
	struct pdb_sink		 sink;	/* what the reader calls */
	int			 refused;
};

static int
events_begin(void *arg, struct pdb *db)
{
	struct events *e = arg;
	const struct pdb_sink *next = e->to;

	if (e->check != NULL && !e->check(e->c, db, e->path)) {
		e->refused = 1;
		return PDB_ESTOP;
	}
	if (e->fmt == NULL)
		return pdb_seterr(db, PDB_EINVAL, "format unknown when the "
		    "reader began");
	if (e->fmt->build != PDB_BUILD_RAW) {
		if ((e->b = pdb_builder_new(db, e->fmt->build)) == NULL)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		next = pdb_builder_sink(e->b);
	}
	/* The rest of the events go straight to next. */
	e->sink = *next;
	return next->begin != NULL ? next->begin(next->arg, db) : 0;
}

int
tool_read_events(struct tool_common *c, struct pdb *db, const char *path,
    const struct pdb_sink *sink, int (*check)(struct tool_common *,
    const struct pdb *, const char *))
{
	struct events e;
	int built, rc;

	memset(&e, 0, sizeof(e));
	e.c = c;
	e.path = path;
	e.to = sink;
	e.check = check;
	e.sink.begin = events_begin;
	e.sink.arg = &e;
	rc = pdb_read_stream(db, path, c->informat, &c->opts, &e.sink, &e.fmt);
	built = e.b != NULL;
	if (built) {
		pdb_builder_free(e.b);
		if (rc == PDB_OK && pdb_node_count(db) > 0)
			rc = pdb_replay(db, sink);
	}
	if (e.refused || rc == PDB_ESTOP)
		exit(TOOL_ERR);
	if (rc != PDB_OK) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	return built;
}

void
tool_no_stacks(const struct pdb *db, int built, uint64_t nodes,
    const char *path)
{
	if ((built ? pdb_node_count(db) : nodes) > 0)
		return;
	tool_warnx("%s: no stacks in profile", tool_input_name(path));
	exit(TOOL_ERR);
}

/* The total of metric m: the root's inclusive value. */
static int64_t
total(const struct pdb *db, unsigned m)
{
	uint64_t t = 0;
	uint32_t n;

	for (n = 0; n < pdb_node_count(db); n++)
		t += (uint64_t)pdb_node_value(db, n, m);
	return (int64_t)t;
}

struct pdb *
tool_load(struct tool_common *c, const char *path,
    struct pdb_prune_report *rep)
{
	struct pdb_threshold *th;
	struct pdb *db = tool_pdb_new();
	size_t i, nth = 0;
	double x;
	int m, rc;

	if (rep != NULL)
		memset(rep, 0, sizeof(*rep));
	rc = pdb_sel_is_trivial(c->sel) ? pdb_read_tree(db, path, c->informat,
	    &c->opts, NULL) : tool_read_projected(c, db, path, c->sel);
	if (rc != PDB_OK) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	if (c->metric != NULL && tool_metric(c, db) < 0)
		exit(TOOL_ERR);
	if (c->nmins == 0 && c->min_pct < 0 && c->nexcludes == 0)
		return db;
	if ((th = calloc(c->nmins + 1, sizeof(*th))) == NULL) {
		tool_warnx("out of memory");
		exit(TOOL_ERR);
	}
	for (i = 0; i < c->nmins; i++) {
		if ((m = pdb_metric_find(db, c->mins[i].metric)) < 0) {
			tool_warnx("no metric '%s' in this profile to prune by",
			    c->mins[i].metric);
			exit(TOOL_ERR);
		}
		th[nth].metric = (unsigned)m;
		th[nth++].min = c->mins[i].min;
	}
	if (c->min_pct >= 0 && (m = tool_metric(c, db)) >= 0) {
		th[nth].metric = (unsigned)m;
		/* Round up: a stack must reach P% to stay. */
		x = (double)total(db, (unsigned)m) * c->min_pct / 100.0;
		th[nth].min = (int64_t)x;
		if ((double)th[nth].min < x)
			th[nth].min++;
		nth++;
	}
	if (pdb_prune(db, th, nth, c->excludes, c->nexcludes, rep) != PDB_OK) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	free(th);
	return db;
}

const struct pdb_format *
tool_output_format(const struct tool_common *c)
{
	const struct pdb_format *f = c->outformat;

	if (f == NULL && c->outpath != NULL)
		f = pdb_format_guess(c->outpath);
	return f != NULL ? f : &pdb_fmt_ccsdump;
}

void
tool_format_ready(const struct pdb_format *f)
{
	struct pdb *db = tool_pdb_new();

	if (pdb_format_ready(f, db) != PDB_OK) {
		tool_pdberr(db);
		pdb_free(db);
		exit(TOOL_ERR);
	}
	pdb_free(db);
}

int
tool_write_profile(struct tool_common *c, struct pdb *db)
{
	const struct pdb_format *f = tool_output_format(c);
	FILE *out;

	c->opts.metric = c->metric;
	c->opts.flags |= PDB_OPT_TAKE;
	if ((out = tool_output_open(c, f->flags & PDB_FMT_BINARY)) == NULL)
		return TOOL_ERR;
	if (pdb_write(db, out, f, &c->opts) != PDB_OK)
		return tool_output_abort(c, out, db, NULL);
	return tool_output_close(c, out) == 0 ? TOOL_OK : TOOL_ERR;
}

/* ---- progress ---- */

static struct {
	int		 decided, on;	/* stderr is a terminal, no -q */
	double		 delay;		/* seconds before the bar shows */
	double		 t0, last;	/* phase start, last drawn */
	int		 shown;		/* the bar is on the screen */
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
	prog.shown = 1;
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
	if (prog.shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		prog.shown = 0;
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

/* When a bar may show, write through a stream that counts the bytes. */
static FILE *
progress_wrap(const struct tool_common *c, FILE *f)
{
	cookie_io_functions_t io = { NULL, wrap_write, NULL, wrap_close };
	FILE *w;

	/* Not over text shown on the same terminal. */
	if (!progress_on(c) || prog.wrapper != NULL ||
	    (f == stdout && isatty(STDOUT_FILENO)) ||
	    (w = fopencookie(NULL, "w", io)) == NULL)
		return f;
	setvbuf(w, wrap_buf, _IOFBF, sizeof(wrap_buf));
	prog.wrapper = w;
	prog.inner = f;
	prog.written = 0;
	return w;
}

/* The stream under the wrapper, everything passed on to it. */
static FILE *
progress_unwrap(FILE *f)
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
