/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Allocation wrappers.  Every allocation in libprofdb goes through here so
 * that tests can make the n-th one fail (pdb_test_fail_alloc_at).
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

static unsigned long	alloc_count;
static unsigned long	alloc_fail_at;	/* 0: never fail */

/* Test hook: make the n-th allocation from now fail (0 disables). */
void	pdb_test_fail_alloc_at(unsigned long n);

void
pdb_test_fail_alloc_at(unsigned long n)
{
	alloc_count = 0;
	alloc_fail_at = n;
}

static int
should_fail(void)
{
	if (alloc_fail_at == 0)
		return 0;
	return ++alloc_count == alloc_fail_at;
}

void *
pdbi_malloc(size_t n)
{
	if (should_fail())
		return NULL;
	return malloc(n ? n : 1);
}

void *
pdbi_calloc(size_t n, size_t sz)
{
	if (should_fail())
		return NULL;
	return calloc(n ? n : 1, sz ? sz : 1);
}

void *
pdbi_realloc(void *p, size_t n)
{
	if (should_fail())
		return NULL;
	return realloc(p, n ? n : 1);
}

char *
pdbi_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d;

	if ((d = pdbi_malloc(n)) != NULL)
		memcpy(d, s, n);
	return d;
}

/*
 * Grow the array *pp of *cap elements of size sz so that it holds at least
 * need elements, doubling to keep appends amortised O(1).
 */
int
pdbi_grow_slow(void *pp, size_t *cap, size_t need, size_t sz)
{
	void **p = pp;
	size_t ncap;
	void *np;

	if (need <= *cap)
		return PDB_OK;
	ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return PDB_ENOMEM;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / sz)
		return PDB_ENOMEM;
	if ((np = pdbi_realloc(*p, ncap * sz)) == NULL)
		return PDB_ENOMEM;
	*p = np;
	*cap = ncap;
	return PDB_OK;
}

/* FNV-1a, then a final mix: fast and good enough for short names. */
uint64_t
pdbi_hash_bytes(const void *data, size_t len, uint64_t h)
{
	const unsigned char *p = data;
	size_t i;

	if (h == 0)
		h = 0xcbf29ce484222325ULL;
	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}
