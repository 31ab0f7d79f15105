/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The fuzz harnesses (tests/fuzz/fuzz_<name>.c, see tests/FUZZING.md).
 * Each harness is a function fuzz_<name>(data, size) that feeds the bytes
 * through one path of the library and aborts when an invariant breaks.
 * "make fuzz" links each with libFuzzer (clang, FUZZ_LIBFUZZER defined,
 * which makes FUZZ_MAIN define LLVMFuzzerTestOneInput); "make check"
 * links them all into run-tests, where test_fuzz_regressions.c replays
 * tests/data/fuzz/<name>/ through the very same functions.
 *
 * The readers take a path, so the bytes go to a memfd and the reader
 * opens /proc/self/fd/N: the library itself is fuzzed unchanged.
 */
#ifndef FUZZUTIL_H
#define FUZZUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "formats.h"
#include "pdb.h"

/* A path whose contents are the bytes given; slot 0 or 1 (two files may be
 * needed at once).  Aborts when no memfd can be made. */
const char	*fuzz_path(int slot, const uint8_t *data, size_t size);

/* A new handle with a warning handler that formats and drops warnings. */
struct pdb	*fuzz_db(void);

/* FNV-1a of the bytes, the seed of every choice a harness makes. */
uint64_t	 fuzz_hash(const uint8_t *data, size_t size);

/*
 * Read data with format fmt (NULL: probe) every way a tool does: as a
 * tree, streamed to the flat analysis, and streamed to a sink that stops
 * early.  Checks the reader's contracts.  When tree is not NULL and the
 * read succeeds, *tree gets the handle (free with pdb_free()).
 */
void		 fuzz_read(const struct pdb_format *fmt, const uint8_t *data,
		    size_t size, unsigned flags, struct pdb **tree);

/*
 * What the tools do with a profile, with choices drawn from seed:
 * project on a selection, prune, analyse, write every writable format
 * (lossless ones read back and written again, byte-identical).
 */
void		 fuzz_exercise(struct pdb *db, uint64_t seed);

/* Whether a and b read alike: both failed (NULL), or the same tree,
 * node for node, with the same names, metrics and metadata. */
int		 fuzz_same_tree(struct pdb *a, struct pdb *b);

/* An invariant broke: print it and abort (libFuzzer saves the input). */
void		 fuzz_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

/* The harnesses. */
int		 fuzz_pgcl(const uint8_t *, size_t);
int		 fuzz_dump(const uint8_t *, size_t);
int		 fuzz_ghcprof(const uint8_t *, size_t);
int		 fuzz_ghcjson(const uint8_t *, size_t);
int		 fuzz_folded(const uint8_t *, size_t);
int		 fuzz_json(const uint8_t *, size_t);
int		 fuzz_gzip(const uint8_t *, size_t);
int		 fuzz_roundtrip(const uint8_t *, size_t);

#ifdef FUZZ_LIBFUZZER
#define FUZZ_MAIN(fn)							\
int LLVMFuzzerTestOneInput(const uint8_t *, size_t);			\
int									\
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)		\
{									\
	return fn(data, size);						\
}
#else
#define FUZZ_MAIN(fn)
#endif

#endif /* FUZZUTIL_H */
