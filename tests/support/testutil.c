/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Test helpers; see testutil.h.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/hooks.h>

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#define TMPDIR_ENV	"CCS_TEST_TMPDIR"

/* The directory PRE_ALL made, when make check did not give one. */
static char	*own_tmpdir;

/*
 * The hooks run in the runner process, before the first test and after
 * the last, so the workers it starts inherit the environment set here.
 * TMPDIR too: what the tools and scripts the tests start make goes there.
 */
ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
	const char *dir = getenv(TMPDIR_ENV);

	(void)set;
	if (dir == NULL || *dir == '\0') {
		own_tmpdir = strdup("/tmp/ccstest-XXXXXX");
		if (own_tmpdir == NULL || mkdtemp(own_tmpdir) == NULL) {
			perror("run-tests: temporary directory");
			exit(2);
		}
		dir = own_tmpdir;
		setenv(TMPDIR_ENV, dir, 1);
	}
	setenv("TMPDIR", dir, 1);
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
	(void)stats;
	if (own_tmpdir != NULL && rmdir(own_tmpdir) == -1)
		fprintf(stderr, "run-tests: %s: cannot remove: %s\n",
		    own_tmpdir, strerror(errno));
	free(own_tmpdir);
	own_tmpdir = NULL;
}

const char *
test_tmpdir(void)
{
	const char *dir = getenv(TMPDIR_ENV);

	cr_assert(dir != NULL && *dir != '\0', TMPDIR_ENV " is not set");
	return dir;
}

char *
slurp(const char *path, size_t *lenp)
{
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap + 1);
			cr_assert(buf != NULL);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

char *
write_temp(const void *data, size_t len, const char *suffix)
{
	char *path;
	int fd;
	size_t slen = suffix ? strlen(suffix) : 0;

	cr_assert(asprintf(&path, "%s/ccstest-XXXXXX%s", test_tmpdir(),
	    suffix ? suffix : "") > 0);
	fd = mkstemps(path, (int)slen);
	cr_assert(fd >= 0, "mkstemps: %s", strerror(errno));
	cr_assert(write(fd, data, len) == (ssize_t)len);
	close(fd);
	return path;
}

char *
make_temp_dir(void)
{
	char *path;

	cr_assert(asprintf(&path, "%s/ccstest-XXXXXX", test_tmpdir()) > 0);
	cr_assert(mkdtemp(path) != NULL, "mkdtemp: %s", strerror(errno));
	return path;
}

static int
remove_one(const char *path, const struct stat *st, int type,
    struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

void
remove_temp(const char *path)
{
	/* Depth first, not following links: a directory after its files. */
	cr_assert(nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0,
	    "removing %s: %s", path, strerror(errno));
}

void
expect_output(const char *has, const char *lacks, const char *fmt, ...)
{
	struct run r;
	char *cmd;
	va_list ap;

	va_start(ap, fmt);
	cr_assert(vasprintf(&cmd, fmt, ap) > 0);
	va_end(ap);
	run(&r, "%s", cmd);
	cr_expect_eq(r.status, 0, "%s: %s", cmd, r.err);
	cr_expect(strstr(r.out, has) != NULL, "%s: no '%s' in:\n%s", cmd,
	    has, r.out);
	cr_expect(lacks == NULL || strstr(r.out, lacks) == NULL,
	    "%s: '%s' in:\n%s", cmd, lacks, r.out);
	run_free(&r);
	free(cmd);
}

void
run(struct run *r, const char *fmt, ...)
{
	char *cmd, *full, *outp, *errp;
	const char *bin = getenv("CCS_BIN");
	va_list ap;
	int fo, fe, st;

	va_start(ap, fmt);
	cr_assert(vasprintf(&cmd, fmt, ap) > 0);
	va_end(ap);
	cr_assert(asprintf(&outp, "%s/ccsrun-out-XXXXXX", test_tmpdir()) > 0);
	cr_assert(asprintf(&errp, "%s/ccsrun-err-XXXXXX", test_tmpdir()) > 0);
	fo = mkstemp(outp);
	fe = mkstemp(errp);
	cr_assert(fo >= 0 && fe >= 0);
	close(fo);
	close(fe);
	cr_assert(asprintf(&full, "PATH='%s':\"$PATH\"; export PATH; ( %s ) >%s 2>%s",
	    bin ? bin : "build/bin", cmd, outp, errp) > 0);
	st = system(full);
	cr_assert(st != -1, "cannot run: %s", cmd);
	if (WIFEXITED(st))
		r->status = WEXITSTATUS(st);
	else
		r->status = 128 + WTERMSIG(st);
	r->out = slurp(outp, &r->outlen);
	r->err = slurp(errp, &r->errlen);
	cr_assert(r->out && r->err);
	unlink(outp);
	unlink(errp);
	free(outp);
	free(errp);
	free(cmd);
	free(full);
}

void
run_in_temp(struct run *r, const char *fmt, ...)
{
	char *dir = make_temp_dir(), *cmd;
	va_list ap;

	va_start(ap, fmt);
	cr_assert(vasprintf(&cmd, fmt, ap) > 0);
	va_end(ap);
	run(r, "T='%s'; R=\"$PWD\"; %s", dir, cmd);
	free(cmd);
	remove_temp(dir);
	free(dir);
}

void
run_free(struct run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

struct pdb *
load_tree(const char *path)
{
	struct pdb *db = pdb_new();
	int rc;

	cr_assert(db != NULL);
	rc = pdb_read_tree(db, path, NULL, NULL, NULL);
	cr_assert(rc == PDB_OK, "reading %s: %s", path, pdb_errmsg(db));
	return db;
}

static unsigned
rnd(unsigned long *state, unsigned n)
{
	*state = *state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((*state >> 33) % n);
}

struct pdb *
random_recursive_profile(unsigned long seed, unsigned ncc, unsigned nnodes)
{
	struct pdb *db = pdb_new();
	uint32_t mod, cc, n, parent;
	unsigned long st = seed;
	unsigned i;
	int64_t v;
	char name[16];

	cr_assert(db != NULL && ncc >= 2);
	cr_assert(pdb_module_add(db, "M", &mod) == PDB_OK);
	for (i = 0; i < ncc; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		cr_assert(pdb_cc_add(db, name, mod, "", 0, i, &cc) == PDB_OK);
	}
	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, NULL) == 0);
	cr_assert(pdb_metric_add(db, "calls", "calls", PDB_COUNT, 0, NULL) == 0);
	cr_assert(pdb_root_new(db, 0, &n) == PDB_OK);
	for (i = 1; i < nnodes; i++) {
		/* Prefer recent nodes as parents, for depth. */
		parent = i > 8 && rnd(&st, 3) ? i - 1 - rnd(&st, 8) :
		    rnd(&st, i);
		cr_assert(pdb_node_append(db, parent, 1 + rnd(&st, ncc - 1),
		    &n) == PDB_OK);
		v = rnd(&st, 4) == 0 ? 0 : (int64_t)rnd(&st, 1000) -
		    (rnd(&st, 10) == 0 ? 2000 : 0);
		cr_assert(pdb_node_set_value(db, n, 0, v) == PDB_OK);
		cr_assert(pdb_node_set_value(db, n, 1, rnd(&st, 5)) == PDB_OK);
	}
	return db;
}

void
enc_bytes(struct enc *e, const void *p, size_t n)
{
	if (e->len + n > e->cap) {
		e->cap = (e->len + n) * 2 + 64;
		cr_assert((e->b = realloc(e->b, e->cap)) != NULL);
	}
	memcpy(e->b + e->len, p, n);
	e->len += n;
}

void
enc_byte(struct enc *e, unsigned c)
{
	unsigned char x = (unsigned char)c;

	enc_bytes(e, &x, 1);
}

void
enc_varint(struct enc *e, uint64_t v)
{
	do {
		enc_byte(e, (v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v != 0);
}

void
enc_svarint(struct enc *e, int64_t v)
{
	enc_varint(e, ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0));
}

void
enc_u32(struct enc *e, uint32_t v)
{
	unsigned char b[4] = { v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff,
	    v >> 24 };

	enc_bytes(e, b, 4);
}

void
enc_str(struct enc *e, const char *s)
{
	enc_varint(e, strlen(s));
	enc_bytes(e, s, strlen(s));
}
