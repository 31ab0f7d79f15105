/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The output: standard output, or -o FILE written into a temporary file
 * that replaces FILE only when everything went well; and a profile
 * written whole.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static char	file_buf[TOOL_OUT_BUFSIZE];

/*
 * The temporary file that -o FILE is written to, renamed to FILE only
 * when everything went well.  Until then an exit or a fatal signal
 * removes it, so that a failed or interrupted run leaves an earlier FILE
 * as it was.  The signal handler may only look at these.
 */
static char			 out_tmp[PATH_MAX];
static volatile sig_atomic_t	 out_tmp_live;
/* The signals that remove it. */
static const int		 out_sigs[] = { SIGHUP, SIGINT, SIGTERM };
#define NSIGS	(sizeof(out_sigs) / sizeof(out_sigs[0]))
/* The file the temporary one replaces: -o's, or the file its link names. */
static char			 out_target[PATH_MAX];
/* The target has other hard links: it is written over, not replaced. */
static int			 out_in_place;

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

/* Hold out_sigs until sigprocmask(SIG_SETMASK, saved, NULL). */
static void
out_sigs_hold(sigset_t *saved)
{
	sigset_t block;
	size_t i;

	sigemptyset(&block);
	for (i = 0; i < NSIGS; i++)
		sigaddset(&block, out_sigs[i]);
	sigprocmask(SIG_BLOCK, &block, saved);
}

void
tool_output_signal_remove(void)
{
	if (out_tmp_live)
		unlink(out_tmp);
	out_tmp_live = 0;
}

static void
out_tmp_signal(int sig)
{
	int save = errno;

	tool_output_signal_remove();
	tool_progress_signal_clear();
	errno = save;
	/* Die of the signal, as if it had not been caught. */
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * name in the directory of path (the current one when path has no '/'),
 * into buf of size bytes.  Returns 0, or -1 with errno ENAMETOOLONG.
 */
static int
beside(char *buf, size_t size, const char *path, const char *name)
{
	const char *slash = strrchr(path, '/');
	int n;

	if (slash == NULL)
		n = snprintf(buf, size, "%s", name);
	else
		n = snprintf(buf, size, "%.*s/%s", (int)(slash - path), path,
		    name);
	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/*
 * Open a temporary file next to path (same directory, so rename(2) can
 * replace path atomically), with the permissions path has, or would get
 * from open(2) and the umask when new.  Returns NULL with errno set.
 */
static FILE *
out_tmp_open(const char *path, const struct stat *old)
{
	static int registered;
	const char *slash = strrchr(path, '/');
	const char *base = slash != NULL ? slash + 1 : path, *tmpname;
	struct sigaction sa;
	sigset_t saved;
	mode_t mode, mask;
	size_t i;
	FILE *f;
	char name[PATH_MAX + 16];
	int fd, save;

	/* ".NAME.XXXXXX", unless that is longer than a name can be. */
	tmpname = strlen(base) + 8 <= NAME_MAX ? base : "ccs-out";
	snprintf(name, sizeof(name), ".%s.XXXXXX", tmpname);
	if (beside(out_tmp, sizeof(out_tmp), path, name) != 0)
		return NULL;
	if (!registered) {
		registered = 1;
		atexit(out_tmp_remove);
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = out_tmp_signal;
		sigemptyset(&sa.sa_mask);
		for (i = 0; i < NSIGS; i++) {
			struct sigaction cur;

			/* Keep a signal ignored by whoever started us. */
			if (sigaction(out_sigs[i], NULL, &cur) == 0 &&
			    cur.sa_handler == SIG_IGN)
				continue;
			sigaction(out_sigs[i], &sa, NULL);
		}
	}
	/* The handler must never see a half-made name. */
	out_sigs_hold(&saved);
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

/*
 * A file that may be written but not replaced, in a directory we cannot
 * write to: the temporary file goes in $TMPDIR, else /tmp, and is
 * copied over the file when done, as for a file with other links.
 * Returns NULL with errno set.
 */
static FILE *
out_tmp_elsewhere(const struct stat *old)
{
	const char *dir = getenv("TMPDIR"), *slash = strrchr(out_target, '/');
	char path[PATH_MAX];
	FILE *f;
	int n;

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	n = snprintf(path, sizeof(path), "%s/%s", dir, slash != NULL ?
	    slash + 1 : out_target);
	if (n < 0 || (size_t)n >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	if ((f = out_tmp_open(path, old)) != NULL)
		out_in_place = 1;
	return f;
}

/*
 * Whether path is a symbolic link to what standard output is open on, as
 * /dev/stdout, /dev/fd/1 and /proc/self/fd/1 are: opened anew, a file
 * appended to (>>) would be cut, and replaced it would lose the link.
 */
int
tool_output_names_stdout(const char *path)
{
	struct stat st, out;

	return lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
	    stat(path, &st) == 0 && fstat(STDOUT_FILENO, &out) == 0 &&
	    st.st_dev == out.st_dev && st.st_ino == out.st_ino;
}

/*
 * The file a symbolic link to no file yet names, in out_target: the link
 * followed, and any link it names, to the first name that is no link.
 * Returns NULL with errno set when there is none (a loop, a name too
 * long).
 */
static const char *
dangling_target(const char *path)
{
	char link[PATH_MAX], next[PATH_MAX];
	struct stat st;
	ssize_t n;
	int hops;

	if (strlen(path) >= sizeof(next)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	memcpy(next, path, strlen(path) + 1);
	for (hops = 0; hops < 40; hops++) {
		if (lstat(next, &st) != 0 || !S_ISLNK(st.st_mode)) {
			memcpy(out_target, next, strlen(next) + 1);
			return out_target;
		}
		if ((n = readlink(next, link, sizeof(link) - 1)) < 0)
			return NULL;
		if ((size_t)n == sizeof(link) - 1) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		link[n] = '\0';
		/* A relative link is relative to the directory it is in. */
		if (beside(out_target, sizeof(out_target), link[0] == '/' ?
		    "" : next, link) != 0)
			return NULL;
		memcpy(next, out_target, strlen(out_target) + 1);
	}
	errno = ELOOP;
	return NULL;
}

FILE *
tool_output_open(const struct tool_common *c, int binary)
{
	const char *target;
	struct stat st;
	FILE *f;
	int exists, err;

	if (c->outpath == NULL || tool_output_names_stdout(c->outpath)) {
		if (binary && !c->force && isatty(STDOUT_FILENO)) {
			tool_warnx("refusing to write binary output to a "
			    "terminal (use -o FILE or a pipe)");
			return NULL;
		}
		return tool_progress_wrap(c, stdout);
	}
	/*
	 * A regular file (or a new one) is written through a temporary
	 * file; anything else (/dev/null, /dev/full, a FIFO, a terminal)
	 * cannot be replaced by rename(2) and is written directly.  A
	 * symbolic link is followed, as a shell's > follows it: the file it
	 * names is replaced and the link stays.
	 */
	target = c->outpath;
	if (lstat(c->outpath, &st) == 0 && S_ISLNK(st.st_mode)) {
		target = realpath(c->outpath, out_target);
		/* A link to no file yet: make that file the same way. */
		if (target == NULL && errno == ENOENT)
			target = dangling_target(c->outpath);
	}
	exists = target != NULL && stat(target, &st) == 0;
	if (target == NULL)		/* a loop, a name too long */
		f = NULL;
	else if (exists && !S_ISREG(st.st_mode))
		f = fopen(target, "wb");
	else if (exists && access(target, W_OK) != 0)
		f = NULL;	/* refused, as > would refuse it */
	else if (target != out_target && strlen(target) >= sizeof(out_target)) {
		errno = ENAMETOOLONG;
		f = NULL;
	} else {
		if (target != out_target)
			memcpy(out_target, target, strlen(target) + 1);
		out_in_place = exists && st.st_nlink > 1;
		f = out_tmp_open(out_target, exists ? &st : NULL);
		if (f == NULL && exists && (errno == EACCES || errno == EPERM)) {
			/* Failing that too, the first error is the one. */
			err = errno;
			if ((f = out_tmp_elsewhere(&st)) == NULL)
				errno = err;
		}
	}
	if (f == NULL) {
		tool_warnx("%s: %s", c->outpath, strerror(errno));
		return NULL;
	}
	setvbuf(f, file_buf, _IOFBF, sizeof(file_buf));
	return tool_progress_wrap(c, f);
}

/*
 * Copy the finished temporary file over out_target, which keeps the
 * target's other links, as a shell's > keeps them.  Returns 0 or an
 * errno.
 */
static int
out_copy_over(void)
{
	char buf[65536];
	ssize_t n, w, off;
	int in, out, err = 0;

	if ((in = open(out_tmp, O_RDONLY)) < 0)
		return errno;
	if ((out = open(out_target, O_WRONLY | O_TRUNC)) < 0) {
		err = errno;
		close(in);
		return err;
	}
	while (err == 0 && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno != EINTR)
				err = errno;
			continue;
		}
		for (off = 0; err == 0 && off < n; off += w)
			if ((w = write(out, buf + off, (size_t)(n - off))) < 0) {
				w = 0;
				if (errno != EINTR)
					err = errno;
			}
	}
	if (close(out) != 0 && err == 0)
		err = errno;
	close(in);
	return err;
}

int
tool_output_close(const struct tool_common *c, FILE *f)
{
	int err = 0;

	if (f == NULL)
		return -1;
	f = tool_progress_unwrap(f);
	/*
	 * errno is not cleared first: when a write failed earlier, stdio
	 * dropped the buffer and errno still says why.
	 */
	if (fflush(f) != 0 || ferror(f))
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && err == 0)
		err = errno ? errno : EIO;
	if (err == 0 && f != stdout && out_tmp_live && out_in_place) {
		/*
		 * Once the target is cut, the temporary file is the only
		 * whole copy: a signal waits for the copy to end, and a
		 * failed copy leaves it, named in the message.
		 */
		sigset_t saved;

		out_sigs_hold(&saved);
		if ((err = out_copy_over()) == 0)
			out_tmp_remove();
		else
			out_tmp_live = 0;	/* kept */
		sigprocmask(SIG_SETMASK, &saved, NULL);
		if (err != 0) {
			tool_warnx("%s: %s; the output is in %s",
			    tool_output_name(c), strerror(err), out_tmp);
			return -1;
		}
	} else if (err == 0 && f != stdout && out_tmp_live) {
		if (rename(out_tmp, out_target) == 0)
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

	f = tool_progress_unwrap(f);
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
