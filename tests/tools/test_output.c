/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Output is never half-written (issue 5): -o FILE goes through a
 * temporary file renamed on success, so a failed or interrupted run
 * leaves an earlier FILE as it was; write errors on stdout or -o read
 * "prog: <stdout>: No space left on device" and exit 1, for every tool;
 * a reader closing the pipe ends a tool quietly.
 */
#include <criterion/criterion.h>

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define GHC_PA		"tests/data/ghc/demo.pa.prof"
#define OLD		"an earlier file\n"

/* Every tool that writes, with the arguments to run it on GHC_PA. */
static const struct tool {
	const char	*name;
	const char	*args;
} tools[] = {
	{ "ccs-flat", "" },
	{ "ccs-flat", "--tsv" },
	{ "ccs-convert", "-t json" },
	{ "ccs-convert", "-t folded" },
	{ "ccs-convert", "-t pgcl" },
	{ "ccs-convert", "-t speedscope" },
	{ "ccs-convert", "-t dump -F" },
	{ "ccs-convert", "-t callgrind" },
	{ "ccs-select", "-d 'Main.*' -t json" },
	{ "ccs-prune", "--min-ticks 1 -t json" },
	{ "ccs-stacks", "" },
	{ "ccs-hot", "" },
	{ "ccs-tree", "" },
	{ "ccs-callers", "main" },
	{ "ccs2callgrind", "" },
	{ "ccs2dot", "" },
	{ "ccs2dot", "-T svg" },
	{ "ccs2dot", "-T png" },
	{ "ccs2html", "" },
};
#define NTOOLS	(sizeof(tools) / sizeof(tools[0]))

/* Whether the built tool exists (ccs-callers may still be on its way). */
static int
built(const char *name)
{
	const char *bin = getenv("CCS_BIN");
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", bin ? bin : "build/bin", name);
	if (access(path, X_OK) == 0)
		return 1;
	cr_log_warn("%s is not built: skipped", name);
	return 0;
}

/* The names in directory d, sorted, one a line (malloc'd). */
static char *
dir_list(const char *d)
{
	struct dirent **ents;
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	int n, i;

	cr_assert(f != NULL);
	n = scandir(d, &ents, NULL, alphasort);
	cr_assert(n >= 0, "scandir %s: %s", d, strerror(errno));
	for (i = 0; i < n; i++) {
		if (strcmp(ents[i]->d_name, ".") != 0 &&
		    strcmp(ents[i]->d_name, "..") != 0)
			fprintf(f, "%s\n", ents[i]->d_name);
		free(ents[i]);
	}
	free(ents);
	fclose(f);
	return s;
}

static void
put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert(f != NULL, "%s: %s", path, strerror(errno));
	fputs(text, f);
	cr_assert(fclose(f) == 0);
}

/* A folded profile whose stacks print to far more than a pipe holds. */
static char *
big_folded(void)
{
	char *buf, *p, *path;
	size_t n = 20000, i;

	cr_assert((buf = malloc(n * 64)) != NULL);
	for (p = buf, i = 0; i < n; i++)
		p += sprintf(p, "main;Mod.function_%zu;Mod.leaf_%zu %zu\n",
		    i, i % 7, i + 1);
	path = write_temp(buf, (size_t)(p - buf), ".folded");
	free(buf);
	return path;
}

/*
 * Whether err is want, after any warnings: converting to pgcl warns about
 * what pgcl cannot hold.
 */
static int
err_is(const char *err, const char *want)
{
	const char *nl;

	while ((nl = strchr(err, '\n')) != NULL &&
	    strstr(err, ": warning: ") != NULL && strstr(err, ": warning: ") < nl)
		err = nl + 1;
	return strcmp(err, want) == 0;
}

/* ---- -o FILE: temporary file and rename ---- */

Test(output, o_file_same_as_stdout_and_no_leftovers, .timeout = 300)
{
	struct run a, b;
	char *d, *got, *ls, want[8192];
	size_t i, len;

	for (i = 0; i < NTOOLS; i++) {
		const struct tool *t = &tools[i];

		if (!built(t->name))
			continue;
		d = make_temp_dir();
		run(&a, "%s %s %s", t->name, t->args, GHC_PA);
		run(&b, "%s %s -o %s/out %s", t->name, t->args, d, GHC_PA);
		cr_assert_eq(a.status, 0, "%s %s: exit %d: %s", t->name,
		    t->args, a.status, a.err);
		cr_assert_eq(b.status, 0, "%s %s -o: exit %d: %s", t->name,
		    t->args, b.status, b.err);
		cr_expect(err_is(b.err, ""), "%s %s -o: %s", t->name, t->args,
		    b.err);
		snprintf(want, sizeof(want), "%s/out", d);
		got = slurp(want, &len);
		cr_assert(got != NULL);
		cr_expect(len == a.outlen && memcmp(got, a.out, len) == 0,
		    "%s %s: -o FILE and stdout differ", t->name, t->args);
		ls = dir_list(d);
		cr_expect_str_eq(ls, "out\n", "%s %s -o: directory holds:\n%s",
		    t->name, t->args, ls);
		free(ls);
		free(got);
		run_free(&a);
		run_free(&b);
		remove_temp(d);
		free(d);
	}
}

Test(output, failed_run_leaves_earlier_file, .timeout = 120)
{
	struct run r;
	char *d, *got, *ls, path[4096];
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		const struct tool *t = &tools[i];

		if (!built(t->name))
			continue;
		d = make_temp_dir();
		snprintf(path, sizeof(path), "%s/out", d);
		put_file(path, OLD);
		/* A bad input: a truncated GHC profile. */
		run(&r, "head -c 700 %s > %s/bad.prof && %s %s -o %s %s/bad.prof",
		    GHC_PA, d, t->name, t->args, path, d);
		cr_expect_eq(r.status, 1, "%s %s: exit %d: %s", t->name,
		    t->args, r.status, r.err);
		cr_expect(strstr(r.err, "bad.prof:") != NULL,
		    "%s %s: no message naming the input: %s", t->name,
		    t->args, r.err);
		got = slurp(path, NULL);
		cr_expect_str_eq(got, OLD, "%s %s: earlier file changed",
		    t->name, t->args);
		ls = dir_list(d);
		cr_expect_str_eq(ls, "bad.prof\nout\n",
		    "%s %s: directory holds:\n%s", t->name, t->args, ls);
		free(ls);
		free(got);
		run_free(&r);
		remove_temp(d);
		free(d);
	}
}

/*
 * A write that fails half-way (the file-size limit, with SIGXFSZ
 * ignored: write(2) fails with EFBIG) and a run killed by a signal half-way
 * (SIGXFSZ at its default): either way the earlier file stays and no
 * temporary file is left behind.
 */
Test(output, interrupted_run_leaves_earlier_file, .timeout = 120)
{
	static const char *const tl[] = { "ccs2html", "ccs-convert -t json",
	    "ccs2dot -T svg", "ccs-stacks", "ccs-flat --tsv" };
	struct run r;
	char *d, *got, *ls, path[4096], *big = big_folded();
	size_t i;

	for (i = 0; i < sizeof(tl) / sizeof(tl[0]); i++) {
		d = make_temp_dir();
		snprintf(path, sizeof(path), "%s/out", d);
		put_file(path, OLD);
		run(&r, "trap '' XFSZ; ulimit -f 2; %s -o %s %s", tl[i], path,
		    big);
		cr_expect_eq(r.status, 1, "%s, EFBIG: exit %d: %s", tl[i],
		    r.status, r.err);
		cr_expect(strstr(r.err, "File too large") != NULL,
		    "%s, EFBIG: %s", tl[i], r.err);
		got = slurp(path, NULL);
		cr_expect_str_eq(got, OLD, "%s: earlier file changed", tl[i]);
		free(got);
		run_free(&r);

		/* SIGXFSZ not ignored by the caller: the same. */
		run(&r, "ulimit -f 2; %s -o %s %s; exit $?", tl[i], path, big);
		cr_expect(r.status == 1 && strstr(r.err, "File too large") !=
		    NULL, "%s, SIGXFSZ: exit %d: %s", tl[i], r.status, r.err);
		got = slurp(path, NULL);
		cr_expect_str_eq(got, OLD, "%s: earlier file changed", tl[i]);
		ls = dir_list(d);
		cr_expect_str_eq(ls, "out\n", "%s: directory holds:\n%s", tl[i],
		    ls);
		free(ls);
		free(got);
		run_free(&r);
		remove_temp(d);
		free(d);
	}
	unlink(big);
	free(big);
}

Test(output, permissions_of_new_and_replaced_files)
{
	struct run r;
	struct stat st;
	char *d, path[4096];

	d = make_temp_dir();
	snprintf(path, sizeof(path), "%s/new.json", d);
	run(&r, "umask 027; ccs-convert -t json -o %s %s", path, GHC_PA);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(stat(path, &st) == 0);
	cr_expect_eq(st.st_mode & 0777, 0640, "new file mode %o",
	    (unsigned)(st.st_mode & 0777));
	run_free(&r);
	cr_assert(chmod(path, 0604) == 0);
	run(&r, "umask 077; ccs-convert -t json -o %s %s", path, GHC_PA);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(stat(path, &st) == 0);
	cr_expect_eq(st.st_mode & 0777, 0604, "replaced file mode %o",
	    (unsigned)(st.st_mode & 0777));
	run_free(&r);
	remove_temp(d);
	free(d);
}

Test(output, o_into_missing_directory)
{
	struct run r;

	run(&r, "ccs-convert -t json -o /nonexistent-dir/x.json %s", GHC_PA);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-convert: /nonexistent-dir/x.json: No such "
	    "file or directory\n");
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/*
 * Every tool, when its output cannot be made: exit 1 with one message.
 * With SAN=1 this also checks that nothing leaks on the way out.
 */
Test(output, o_into_missing_directory_every_tool, .timeout = 300)
{
	struct run r;
	char want[256];
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		const struct tool *t = &tools[i];

		if (!built(t->name))
			continue;
		run(&r, "%s %s -o /nonexistent-dir/x %s", t->name, t->args,
		    GHC_PA);
		snprintf(want, sizeof(want), "%s: /nonexistent-dir/x: No such "
		    "file or directory\n", t->name);
		cr_expect_eq(r.status, 1, "%s %s -o /nonexistent-dir/x: exit %d",
		    t->name, t->args, r.status);
		cr_expect(err_is(r.err, want), "%s %s -o /nonexistent-dir/x: %s",
		    t->name, t->args, r.err);
		cr_expect_str_empty(r.out);
		run_free(&r);
	}
}

/*
 * An empty file name, as a shell makes of an unset variable, is a usage
 * error for every tool (ccs-gen too), and so are the pattern files'.
 */
Test(output, empty_file_names_refused, .timeout = 120)
{
	static const char *const more[] = {
	    "ccs-gen -n 10 -o ''", "ccs-select --select-file ''",
	    "ccs-flat --deselect-file ''" };
	struct run r;
	char want[256];
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		const struct tool *t = &tools[i];

		if (!built(t->name))
			continue;
		run(&r, "%s %s -o '' %s", t->name, t->args, GHC_PA);
		snprintf(want, sizeof(want), "%s: -o: empty file name\n",
		    t->name);
		cr_expect_eq(r.status, 2, "%s %s -o '': exit %d", t->name,
		    t->args, r.status);
		cr_expect_str_eq(r.err, want, "%s %s -o ''", t->name, t->args);
		cr_expect_str_empty(r.out);
		run_free(&r);
	}
	for (i = 0; i < sizeof(more) / sizeof(more[0]); i++) {
		run(&r, "%s %s", more[i], GHC_PA);
		cr_expect_eq(r.status, 2, "%s: exit %d", more[i], r.status);
		cr_expect(strstr(r.err, ": empty file name\n") != NULL, "%s: %s",
		    more[i], r.err);
		run_free(&r);
	}
}

/* Devices cannot be replaced by a rename: they are written directly. */
Test(output, o_dev_null_is_written_not_replaced)
{
	struct run r;
	struct stat st;

	run(&r, "ccs-convert -t json -o /dev/null %s", GHC_PA);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_empty(r.err);
	cr_assert(stat("/dev/null", &st) == 0);
	cr_expect(S_ISCHR(st.st_mode), "/dev/null is no longer a device");
	run_free(&r);
}

/*
 * -o through a symbolic link writes the file the link names, as a
 * shell's > does: the link stays a link, also when it is relative and
 * in another directory, and a link to no file yet makes that file.
 */
Test(output, o_through_a_symlink_writes_its_file)
{
	struct run r;

	run_in_temp(&r, "cd \"$T\" && mkdir sub && echo old > real.txt && "
	    "ln -s real.txt link.txt && ln -s ../real.txt sub/l2 && "
	    "ln -s new.txt dangling.txt && "
	    "ccs-flat -o link.txt \"$R\"/%s && test -L link.txt && "
	    "grep -q 'program: demo' real.txt && "
	    "ccs-convert -t folded -o sub/l2 \"$R\"/%s && test -L sub/l2 && "
	    "grep -q 'MAIN.MAIN;' real.txt && "
	    "ccs-flat -o dangling.txt \"$R\"/%s && test -L dangling.txt && "
	    "grep -q 'program: demo' new.txt && "
	    "test -z \"$(ls -A | grep '^\\.')\"", GHC_PA, GHC_PA, GHC_PA);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
}

/*
 * A link to no file yet is written through a temporary file too: a write
 * that fails half-way (the file-size limit) leaves no half-written file
 * where the link points, and no temporary file; links to links, and
 * absolute ones, are followed as well.
 */
Test(output, o_through_a_dangling_symlink_is_whole_or_nothing,
    .timeout = 120)
{
	struct run r;
	char *d, *ls, *big = big_folded();

	d = make_temp_dir();
	run(&r, "cd %s && ln -s new.txt dangling && "
	    "trap '' XFSZ; ulimit -f 2; ccs-stacks -o dangling %s", d, big);
	cr_expect_eq(r.status, 1, "EFBIG: exit %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, "File too large") != NULL, "%s", r.err);
	ls = dir_list(d);
	cr_expect_str_eq(ls, "dangling\n", "directory holds:\n%s", ls);
	free(ls);
	run_free(&r);
	run(&r, "cd %s && ln -s dangling l2 && ln -s \"$PWD\"/abs.txt l3 && "
	    "ccs-flat -o l2 %s && test -L dangling && test -L l2 && "
	    "grep -q '^metric:' new.txt && ccs-flat -o l3 %s && test -L l3 && "
	    "grep -q '^metric:' abs.txt", d, big, big);
	cr_expect_eq(r.status, 0, "%s", r.err);
	ls = dir_list(d);
	cr_expect_str_eq(ls, "abs.txt\ndangling\nl2\nl3\nnew.txt\n",
	    "directory holds:\n%s", ls);
	free(ls);
	run_free(&r);
	remove_temp(d);
	free(d);
	unlink(big);
	free(big);
}

/*
 * -o to a file with other hard links writes over it, as > does: the
 * names stay one file.  The output is still made whole first.
 */
Test(output, o_keeps_hard_links)
{
	struct run r;

	run_in_temp(&r, "cd \"$T\" && echo old > a && ln a b && "
	    "ccs-flat -o a \"$R\"/%s && "
	    "test \"$(stat -c %%i a)\" = \"$(stat -c %%i b)\" && "
	    "test \"$(stat -c %%h b)\" = 2 && grep -q 'program: demo' b && "
	    "ccs-flat \"$R\"/%s | cmp - b && "
	    "test -z \"$(ls -A | grep '^\\.')\"", GHC_PA, GHC_PA);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
}

/*
 * A file its user may not write is refused, as > refuses it, not
 * replaced because its directory may be written.  Root may write any
 * file, so the tool runs as nobody there.
 */
Test(output, o_read_only_file_refused)
{
	struct run r;

	run_in_temp(&r, "cd \"$T\" && echo old > ro && chmod 444 ro && "
	    "chmod 777 . && as= && if [ \"$(id -u)\" = 0 ]; then "
	    "as='setpriv --reuid=65534 --regid=65534 --clear-groups'; fi && "
	    "$as ccs-flat -o ro \"$R\"/%s; echo rc=$?; cat ro; ls -A",
	    GHC_PA);
	cr_expect_str_eq(r.out, "rc=1\nold\nro\n");
	cr_expect(strstr(r.err, "ro: Permission denied") != NULL, "%s", r.err);
	run_free(&r);
}

/*
 * A file that may be written in a directory that may not: > writes it,
 * and so does -o, through a temporary file in $TMPDIR copied over it
 * when done, which keeps the file whole until then.
 */
Test(output, o_writable_file_in_read_only_directory)
{
	struct run r;

	run_in_temp(&r, "cd \"$T\" && chmod 755 . && mkdir d tmp && "
	    "chmod 777 tmp && echo old > d/w && chmod 666 d/w && chmod 555 d "
	    "&& as= && if [ \"$(id -u)\" = 0 ]; then "
	    "as='setpriv --reuid=65534 --regid=65534 --clear-groups'; fi && "
	    "TMPDIR=\"$T/tmp\" $as ccs-flat -o d/w \"$R\"/%s; echo rc=$?; "
	    "grep -c 'program: demo' d/w; ls -A d tmp; "
	    "TMPDIR=\"$T/none\" $as ccs-flat -o d/w \"$R\"/%s; echo rc=$?; "
	    "grep -c 'program: demo' d/w; chmod 755 d", GHC_PA, GHC_PA);
	cr_expect_str_eq(r.out, "rc=0\n1\nd:\nw\n\ntmp:\nrc=1\n1\n", "%s",
	    r.err);
	/* With nowhere to write, the error is the first one's. */
	cr_expect(strstr(r.err, "d/w: Permission denied") != NULL, "%s", r.err);
	run_free(&r);
}

/*
 * -o /dev/fd/1 is standard output: appended to, not replaced.  So is
 * /dev/stdout, not tried here: as root, a version that replaced the
 * file a link names would replace that link in /dev.
 */
Test(output, o_dev_stdout_is_standard_output)
{
	struct run r;

	run_in_temp(&r, "cd \"$T\" && echo earlier > log && "
	    "ccs-flat -o /dev/fd/1 \"$R\"/%s >> log && "
	    "ccs-flat -o /proc/self/fd/1 \"$R\"/%s >> log && "
	    "test \"$(head -1 log)\" = earlier && "
	    "test $(grep -c 'program: demo' log) = 2", GHC_PA, GHC_PA);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
}

/* A name as long as a name can be: the temporary one is shorter. */
Test(output, o_longest_name)
{
	char name[256];
	struct run r;

	memset(name, 'n', 250);
	name[250] = '\0';
	run_in_temp(&r, "cd \"$T\" && ccs-flat -o %s \"$R\"/%s && test -s %s && "
	    "test $(ls -A | wc -l) = 1", name, GHC_PA, name);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
}

/* ---- write errors ---- */

Test(output, dev_full_on_stdout_and_o, .timeout = 300)
{
	struct run r;
	char want[256];
	size_t i;

	for (i = 0; i < NTOOLS; i++) {
		const struct tool *t = &tools[i];

		if (!built(t->name))
			continue;
		run(&r, "%s %s %s > /dev/full", t->name, t->args, GHC_PA);
		snprintf(want, sizeof(want),
		    "%s: <stdout>: No space left on device\n", t->name);
		cr_expect_eq(r.status, 1, "%s %s > /dev/full: exit %d",
		    t->name, t->args, r.status);
		cr_expect(err_is(r.err, want), "%s %s > /dev/full: %s", t->name,
		    t->args, r.err);
		run_free(&r);

		run(&r, "%s %s -o /dev/full %s", t->name, t->args, GHC_PA);
		snprintf(want, sizeof(want),
		    "%s: /dev/full: No space left on device\n", t->name);
		cr_expect_eq(r.status, 1, "%s %s -o /dev/full: exit %d",
		    t->name, t->args, r.status);
		cr_expect(err_is(r.err, want), "%s %s -o /dev/full: %s", t->name,
		    t->args, r.err);
		run_free(&r);
	}
}

Test(output, help_version_list_to_dev_full)
{
	static const char *const opts[] = { "--help", "--version",
	    "--list-formats" };
	struct run r;
	char want[256];
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		run(&r, "ccs-flat %s > /dev/full", opts[i]);
		snprintf(want, sizeof(want),
		    "ccs-flat: <stdout>: No space left on device\n");
		cr_expect_eq(r.status, 1, "ccs-flat %s: exit %d", opts[i],
		    r.status);
		cr_expect_str_eq(r.err, want, "ccs-flat %s", opts[i]);
		run_free(&r);
		run(&r, "ccs %s > /dev/full", i == 2 ? "" : opts[i]);
		cr_expect_eq(r.status, 1, "ccs %s: exit %d", opts[i], r.status);
		cr_expect_str_eq(r.err, "ccs: <stdout>: No space left on "
		    "device\n", "ccs %s", opts[i]);
		run_free(&r);
	}
}

/* ---- a closed pipe ---- */

Test(output, closed_pipe_ends_quietly, .timeout = 120)
{
	static const char *const tl[] = { "ccs-stacks", "ccs-flat",
	    "ccs-convert -t json", "ccs-tree", "ccs2html" };
	struct run r;
	char *big = big_folded(), *st;
	size_t i;
	int trap;

	for (trap = 0; trap < 2; trap++)
		for (i = 0; i < sizeof(tl) / sizeof(tl[0]); i++) {
			/* With SIGPIPE ignored by the caller, too. */
			run(&r, "%s { %s %s; echo $? >&2; } | head -c 10 "
			    ">/dev/null", trap ? "trap '' PIPE;" : "", tl[i],
			    big);
			st = r.err;
			cr_expect(strcmp(st, "141\n") == 0 ||
			    strcmp(st, "1\n") == 0 || strcmp(st, "0\n") == 0,
			    "%s | head%s: %s", tl[i],
			    trap ? " (SIGPIPE ignored)" : "", st);
			if (strcmp(st, "0\n") == 0)
				cr_log_warn("%s | head: finished before the "
				    "pipe closed", tl[i]);
			run_free(&r);
		}
	unlink(big);
	free(big);
}

/*
 * With -o, a closed pipe can only be stderr's: the warnings are lost,
 * not the output, and no temporary file is left.  The reader is gone
 * long before the warning comes.
 */
Test(output, closed_stderr_pipe_keeps_the_output, .timeout = 120)
{
	struct run r;
	char *big;

	run_in_temp(&r, "cd \"$T\" && ccs-convert -t pgcl \"$R\"/%s 2>/dev/null "
	    "> want && exec 3>&1 && { sleep 1; ccs-convert -t pgcl "
	    "\"$R\"/%s -o got 2>&1; echo rc=$? >&3; } | true; cmp want got "
	    "&& ls -A",
	    "tests/data/ghc/mj.prof", "tests/data/ghc/mj.prof");
	cr_expect_str_eq(r.out, "rc=0\ngot\nwant\n", "%s", r.err);
	run_free(&r);
	/* A warning before the output file is open (a pattern that
	 * matches nothing) loses nothing either. */
	run_in_temp(&r, "cd \"$T\" && ccs-flat -d nosuch \"$R\"/%s "
	    "2>/dev/null > want && exec 3>&1 && { sleep 1; ccs-flat -d "
	    "nosuch \"$R\"/%s -o got 2>&1; echo rc=$? >&3; } | true; cmp "
	    "want got && ls -A",
	    "tests/data/ghc/mj.prof", "tests/data/ghc/mj.prof");
	cr_expect_str_eq(r.out, "rc=0\ngot\nwant\n", "%s", r.err);
	run_free(&r);
	/* -o /dev/stdout is standard output: a closed pipe ends the tool
	 * quietly, as without -o. */
	big = big_folded();
	run(&r, "{ ccs-stacks -o /dev/stdout %s; echo $? >&2; } | head -c 1 "
	    ">/dev/null", big);
	cr_expect_str_eq(r.err, "141\n", "-o /dev/stdout into a closed pipe");
	run_free(&r);
	unlink(big);
	free(big);
}

/*
 * Past the file size limit (ulimit -f) a write fails with EFBIG, said
 * as any write error, with -o's temporary file removed; the tool used
 * to die of SIGXFSZ without a word.
 */
Test(output, file_size_limit_is_a_write_error, .timeout = 120)
{
	struct run r;

	run_in_temp(&r, "cd \"$T\" && (ulimit -f 8; ccs-gen -n 20000 -o big.dump; "
	    "echo rc=$?; ccs-gen -n 20000 > big2.dump; echo rc=$?); ls -A");
	cr_expect_str_eq(r.out, "rc=1\nrc=1\nbig2.dump\n", "%s", r.err);
	cr_expect(strstr(r.err, "ccs-gen: big.dump: File too large\n") !=
	    NULL, "%s", r.err);
	cr_expect(strstr(r.err, "ccs-gen: <stdout>: File too large\n") !=
	    NULL, "%s", r.err);
	run_free(&r);
}

/* ---- output in blocks ---- */

/*
 * The write(2)s a command made: a shell's /proc/PID/io counts those of
 * the children it has waited for (a shell of its own: run() may have
 * more than one).  -1 without /proc.
 */
static long
child_writes(const char *cmd)
{
	struct run r;
	const char *p;
	long n = -1;

	run(&r, "sh -c '%s && cat /proc/$$/io'", cmd);
	cr_assert_eq(r.status, 0, "%s: %s", cmd, r.err);
	if ((p = strstr(r.out, "syscw: ")) != NULL)
		n = strtol(p + 7, NULL, 10);
	run_free(&r);
	return n;
}

/*
 * Text goes out in blocks of 64 KB, to standard output and to -o FILE,
 * not in stdio's 4 KB: each write is a system call, and in a pipeline a
 * wake-up of the reader.  Some 800 KB of folded stacks: 13 write(2)s or
 * so, where 4 KB blocks were 195.
 */
Test(output, text_goes_out_in_big_blocks)
{
	char *big = big_folded(), *out, cmd[1024];
	static const char *const dest[] = { "> /dev/null", "-o %s" };
	struct stat st;
	long n;
	size_t i;

	out = write_temp("", 0, ".folded");
	for (i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "ccs-convert -t folded %s ", big);
		snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd),
		    dest[i], out);
		if ((n = child_writes(cmd)) < 0)
			cr_skip_test("no /proc/PID/io");
		cr_assert_eq(stat(big, &st), 0);
		cr_expect_lt(n, (long)st.st_size / (16 * 1024) + 8,
		    "%s: %ld writes for %lld bytes", cmd, n,
		    (long long)st.st_size);
	}
	unlink(out);
	free(out);
	unlink(big);
	free(big);
}

/* The shim that cuts a tool's input short (tests/shim/shrink-input.c). */
static void
shrink_shim(char *path, size_t size)
{
	const char *bin = getenv("CCS_BIN");

	snprintf(path, size, "%s/../shrink-input.so", bin ? bin : "build/bin");
	cr_assert(access(path, R_OK) == 0, "no %s (make check builds it)",
	    path);
}

/*
 * tool, run on in (in format fmt) with the shim cutting it as var says,
 * fails saying that in shrank, and leaves out, of text "old", and the
 * rest of dir as they were.
 */
static void
expect_shrank(const char *var, const char *shim, const char *tool,
    const char *fmt, const char *in, const char *out, const char *dir)
{
	struct run r;

	run(&r, "%s=%s LD_PRELOAD=%s ASAN_OPTIONS=\"$ASAN_OPTIONS:"
	    "verify_asan_link_order=0\" %s %s -o %s", var, in, shim, tool, in,
	    out);
	cr_expect_eq(r.status, 1, "%s on %s: exit %d: %s", tool, fmt,
	    r.status, r.err);
	cr_expect(strstr(r.err, ": the file shrank while it was read\n") !=
	    NULL && strstr(r.err, in) != NULL, "%s on %s: %s", tool, fmt,
	    r.err);
	run_free(&r);
	run(&r, "cat %s; ls -A %s", out, dir);
	cr_expect_str_eq(r.out, "old\nin.prof\nout\n", "%s on %s left: %s",
	    tool, fmt, r.out);
	run_free(&r);
}

/*
 * An input file cut short at a line while a tool reads it, not mapped
 * (the text formats, gzip): the rest reads as a shorter profile that
 * ends well, and folded stacks made one with exit 0.  It is the same
 * error as for a mapped file.  The shim cuts the file after the first
 * read.
 */
Test(output, input_shrinking_while_read, .timeout = 240)
{
	static const char *const tools[] = {
		"ccs-flat", "ccs-stacks", "ccs-select -d 'Alloc.*' -t dump",
	};
	static const char *const formats[] = {
		"folded", "ghc-prof", "ghc-json", "json", "folded.gz",
	};
	char *dir = make_temp_dir(), shim[4096], in[4096], out[4096],
	    fmt[32], *gz;
	struct run r;
	size_t i, j;

	shrink_shim(shim, sizeof(shim));
	snprintf(in, sizeof(in), "%s/in.prof", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	for (j = 0; j < sizeof(formats) / sizeof(formats[0]); j++)
		for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
			/* Compressed, past the 64 KB of the first read. */
			snprintf(fmt, sizeof(fmt), "%s", formats[j]);
			gz = strstr(fmt, ".gz");
			if (gz != NULL)
				*gz = '\0';
			run(&r, "ccs-gen -q -t %s --size %s -o %s.tmp && %s "
			    "%s.tmp > %s && rm %s.tmp && echo old > %s", fmt,
			    gz != NULL ? "4M" : "1M", in,
			    gz != NULL ? "gzip -c" : "cat", in, in, in, out);
			cr_assert_eq(r.status, 0, "%s", r.err);
			run_free(&r);
			expect_shrank("SHRINK_ON_READ", shim, tools[i],
			    formats[j], in, out, dir);
		}
	remove_temp(dir);
	free(dir);
}

/*
 * An input file cut short while a tool has it mapped (the profiled
 * program run again) is an error like any bad input: a message naming
 * the file, exit 1, and -o's earlier file left as it was; never a
 * SIGBUS.  The shim cuts the file to 4 KB as soon as the library maps
 * it.
 */
Test(output, input_shrinking_while_mapped, .timeout = 120)
{
	static const char *const tools[] = {
		"ccs-flat", "ccs-hot", "ccs-tree", "ccs-stacks",
		"ccs-convert -t folded", "ccs-select -d 'Alloc.*' -t dump",
		"ccs-prune --min-pct 1 -t dump", "ccs2callgrind",
		"ccs-callers main",
	};
	static const char *const formats[] = { "dump", "pgcl" };
	char *dir = make_temp_dir(), shim[4096], in[4096], out[4096];
	struct run r;
	size_t i, j;

	shrink_shim(shim, sizeof(shim));
	snprintf(in, sizeof(in), "%s/in.prof", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	for (j = 0; j < sizeof(formats) / sizeof(formats[0]); j++)
		for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
			run(&r, "ccs-gen -q -t %s --size 1M -o %s && "
			    "echo old > %s", formats[j], in, out);
			cr_assert_eq(r.status, 0, "%s", r.err);
			run_free(&r);
			expect_shrank("SHRINK_ON_MAP", shim, tools[i],
			    formats[j], in, out, dir);
		}
	remove_temp(dir);
	free(dir);
}
