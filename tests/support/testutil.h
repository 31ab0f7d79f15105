/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Helpers for the Criterion tests: run a shell command line with the
 * built tools first on PATH and capture what it printed, read files,
 * load profiles through the format layer.
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "formats.h"
#include "pdb.h"

struct run {
	int	 status;	/* exit status, or 128+signal */
	char	*out;		/* stdout, NUL-terminated */
	size_t	 outlen;
	char	*err;		/* stderr, NUL-terminated */
	size_t	 errlen;
};

/*
 * Run a command line through /bin/sh with $CCS_BIN (the built tools) first
 * on PATH and the working directory at the top of the source tree.
 * printf-style.  Aborts the test when the command cannot be started.
 */
void	 run(struct run *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void	 run_free(struct run *);
/*
 * run() with a new empty temporary directory in the shell variable T,
 * removed afterwards; the working directory is still the source tree,
 * also in R.
 */
void	 run_in_temp(struct run *, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * The command line succeeds, and its standard output holds has, and
 * unless lacks is NULL, not lacks.
 */
void	 expect_output(const char *has, const char *lacks, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));

/* A file's contents, NUL-terminated (malloc'd), or NULL. */
char	*slurp(const char *path, size_t *len);

/*
 * Temporary files.  The tests make them all in one directory,
 * $CCS_TEST_TMPDIR (also $TMPDIR, for the tools and scripts they start),
 * and each test removes what it made before it ends.  make check gives a
 * new $(B)/test-tmp and fails when the tests leave anything in it; without
 * it, the runner makes a directory in /tmp and removes it at the end.
 * Shell commands given to run() name it "$CCS_TEST_TMPDIR".
 */
const char *test_tmpdir(void);
/* Write len bytes to a new temporary file; returns its malloc'd path. */
char	*write_temp(const void *data, size_t len, const char *suffix);
/* Make a new empty temporary directory; returns its malloc'd path. */
char	*make_temp_dir(void);
/* Remove path: a file, or a directory and everything in it. */
void	 remove_temp(const char *path);

/* Read path (format probed) into a new handle; fails the test on error. */
struct pdb *load_tree(const char *path);

/*
 * A seeded random tree whose paths repeat cost centres, as uncompressed
 * Clean profiles do: cost centres f0 (the root's) .. f<ncc-1> of module M,
 * metric 0 a cost (zeros and some negative values too), metric 1 a count.
 */
struct pdb *random_recursive_profile(unsigned long seed, unsigned ncc,
    unsigned nnodes);

/*
 * A growing byte buffer for encoding binary inputs (pgcl, the dump) in
 * the tests, written from the format documents rather than the readers.
 * Free b when done.
 */
struct enc {
	unsigned char	*b;
	size_t		 len, cap;
};

void	 enc_bytes(struct enc *, const void *, size_t);
void	 enc_byte(struct enc *, unsigned);
void	 enc_varint(struct enc *, uint64_t);	/* LEB128 */
void	 enc_svarint(struct enc *, int64_t);	/* zigzag, then LEB128 */
void	 enc_u32(struct enc *, uint32_t);	/* little-endian */
void	 enc_str(struct enc *, const char *);	/* length, then bytes */

#endif /* TESTUTIL_H */
