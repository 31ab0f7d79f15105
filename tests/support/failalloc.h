/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Allocation-failure injection for the tests, as sqlite does it: the
 * test binary is linked with -Wl,--wrap=malloc (and calloc, realloc,
 * strdup, strndup, free), so every allocation that libprofdb, the format
 * modules or the tests make themselves comes through failalloc.c, which
 * can make the n-th one fail.  Allocations inside other libraries
 * (libc's own, zlib, Jansson, libxml2, cgraph) are not counted, but for
 * Jansson's where a test gives it these functions
 * (json_set_alloc_funcs(malloc, free) in test_sweeps.c).
 */
#ifndef FAILALLOC_H
#define FAILALLOC_H

#include <stddef.h>

/*
 * Make the n-th allocation from now fail (just that one); 0 disarms,
 * keeping the count and whether it fired for the two functions below.
 */
void		 failalloc_arm(unsigned long n);
/*
 * Make every allocation of exactly n bytes fail, from now until
 * failalloc_size(0): memory that is never there for one table, say.
 * failalloc_fired() says whether one did.
 */
void		 failalloc_size(size_t n);
/* Allocations made since the last failalloc_arm(n > 0), while armed. */
unsigned long	 failalloc_count(void);
/* Whether the armed allocation has failed. */
int		 failalloc_fired(void);

/*
 * Leak checks that need no sanitizer: between failalloc_track_begin()
 * and failalloc_track_end(), every block allocated through the wrapped
 * functions is remembered until it is freed.  _end() returns how many
 * are still live, and stops tracking.
 */
void		 failalloc_track_begin(void);
size_t		 failalloc_track_end(void);
/* The largest single allocation asked for since failalloc_track_begin(). */
size_t		 failalloc_max_request(void);

#endif /* FAILALLOC_H */
