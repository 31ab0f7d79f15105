/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Big blocks of the library ask for huge pages (alloc.c), and keep one
 * mapping each, so that growing them stays a remap, not a copy.
 */
#include <criterion/criterion.h>

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The library's own allocators (pdb_int.h). */
void	*pdbi_malloc(size_t);
void	*pdbi_realloc(void *, size_t);

/*
 * The mapping of /proc/self/smaps that holds address p: its bounds and
 * whether its VmFlags have "hg" (MADV_HUGEPAGE).  0 if none holds p.
 */
static int
mapping_of(const void *p, uintptr_t *lo, uintptr_t *hi, int *hg)
{
	uintptr_t a = (uintptr_t)p, s, e;
	char line[512];
	int in = 0, found = 0;
	FILE *f;

	cr_assert((f = fopen("/proc/self/smaps", "r")) != NULL);
	while (fgets(line, sizeof(line), f) != NULL) {
		/* A mapping's line starts "lo-hi ", its fields "Name:". */
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &s, &e) == 2) {
			in = s <= a && a < e;
			if (in) {
				*lo = s;
				*hi = e;
				found = 1;
			}
		} else if (in && strncmp(line, "VmFlags:", 8) == 0)
			*hg = strstr(line, " hg") != NULL;
	}
	fclose(f);
	return found;
}

static void
assert_one_huge_mapping(const unsigned char *p, size_t n)
{
	uintptr_t lo = 0, hi = 0;
	int hg = 0;

	cr_assert(mapping_of(p, &lo, &hi, &hg), "no mapping holds %p", p);
	cr_assert(lo <= (uintptr_t)p && (uintptr_t)p + n <= hi,
	    "a block of %zu bytes at %p is not in one mapping "
	    "(%#" PRIxPTR "-%#" PRIxPTR ")", n, (const void *)p, lo, hi);
	cr_assert(hg, "the mapping of a block of %zu bytes has no huge-page "
	    "advice", n);
}

Test(alloc, big_blocks_ask_for_huge_pages_and_grow_in_place)
{
	size_t n = (size_t)16 << 20;
	unsigned char *p, *q;

	if (access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) != 0)
		cr_skip_test("no transparent huge pages here");
	cr_assert((p = pdbi_malloc(n)) != NULL);
	memset(p, 1, n);
	assert_one_huge_mapping(p, n);
	/* Twice over: the advice must not split the mapping, or the
	 * second growth could not remap it. */
	for (int i = 0; i < 2; i++) {
		cr_assert((q = pdbi_realloc(p, 4 * n)) != NULL);
		p = q;
		n *= 4;
		cr_assert_eq(p[0], 1);
		assert_one_huge_mapping(p, n);
	}
	free(p);
}
