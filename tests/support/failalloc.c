/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The wrapped allocation functions of failalloc.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"

void	*__real_malloc(size_t);
void	*__real_calloc(size_t, size_t);
void	*__real_realloc(void *, size_t);
char	*__real_strdup(const char *);
char	*__real_strndup(const char *, size_t);
void	 __real_free(void *);
void	*__wrap_malloc(size_t);
void	*__wrap_calloc(size_t, size_t);
void	*__wrap_realloc(void *, size_t);
char	*__wrap_strdup(const char *);
char	*__wrap_strndup(const char *, size_t);
void	 __wrap_free(void *);

static unsigned long	count, fail_at;
static size_t		fail_size;
static int		fired;

/* The live blocks while tracking: open addressing, linear probing. */
#define TOMB	((void *)1)
static void		**live;
static size_t		  livecap, nlive, nused;
static int		  tracking;
static size_t		  maxreq;

static size_t
slot_of(void *p, size_t cap)
{
	uintptr_t h = (uintptr_t)p;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(h >> 7) & (cap - 1);
}

static void
track_add(void *p)
{
	void **old = live;
	size_t oldcap = livecap, i, j;

	if (!tracking || p == NULL)
		return;
	if ((nused + 1) * 2 > livecap) {
		livecap = livecap ? livecap * 2 : 1024;
		while (nlive * 4 > livecap)
			livecap *= 2;
		live = __real_calloc(livecap, sizeof(*live));
		if (live == NULL)
			abort();
		nused = nlive;
		for (i = 0; i < oldcap; i++) {
			if (old[i] == NULL || old[i] == TOMB)
				continue;
			for (j = slot_of(old[i], livecap); live[j] != NULL;
			    j = (j + 1) & (livecap - 1))
				;
			live[j] = old[i];
		}
		__real_free(old);
	}
	for (j = slot_of(p, livecap); live[j] != NULL && live[j] != TOMB;
	    j = (j + 1) & (livecap - 1))
		;
	if (live[j] == NULL)
		nused++;
	live[j] = p;
	nlive++;
}

static void
track_del(void *p)
{
	size_t j;

	if (!tracking || p == NULL || livecap == 0)
		return;
	for (j = slot_of(p, livecap); live[j] != NULL;
	    j = (j + 1) & (livecap - 1))
		if (live[j] == p) {
			live[j] = TOMB;
			nlive--;
			return;
		}
}

void
failalloc_track_begin(void)
{
	__real_free(live);
	live = NULL;
	livecap = nlive = nused = 0;
	maxreq = 0;
	tracking = 1;
}

size_t
failalloc_max_request(void)
{
	return maxreq;
}

static void
note_request(size_t n)
{
	if (tracking && n > maxreq)
		maxreq = n;
}

size_t
failalloc_track_end(void)
{
	tracking = 0;
	return nlive;
}

void
failalloc_arm(unsigned long n)
{
	/* Disarming keeps what the last armed run saw. */
	if (n > 0) {
		count = 0;
		fired = 0;
	}
	fail_at = n;
}

unsigned long
failalloc_count(void)
{
	return count;
}

int
failalloc_fired(void)
{
	return fired;
}

/* A place for a debugger's breakpoint: the armed allocation fails. */
void	failalloc_break(void);

__attribute__((noinline)) void
failalloc_break(void)
{
	__asm__ volatile ("");
}

void
failalloc_size(size_t n)
{
	/* Disarming keeps whether one failed. */
	if (n > 0)
		fired = 0;
	fail_size = n;
}

/* Does an allocation of n bytes fail? */
static int
fail(size_t n)
{
	if (fail_size != 0 && n == fail_size) {
		fired = 1;
		errno = ENOMEM;
		return 1;
	}
	if (fail_at == 0)
		return 0;
	if (++count != fail_at)
		return 0;
	fired = 1;
	failalloc_break();
	errno = ENOMEM;		/* as malloc(3) does */
	return 1;
}

void *
__wrap_malloc(size_t n)
{
	void *p;

	note_request(n);
	p = fail(n) ? NULL : __real_malloc(n);
	track_add(p);
	return p;
}

void *
__wrap_calloc(size_t n, size_t sz)
{
	void *p;

	note_request(sz != 0 && n > SIZE_MAX / sz ? SIZE_MAX : n * sz);
	p = fail(sz != 0 && n > SIZE_MAX / sz ? SIZE_MAX : n * sz) ? NULL :
	    __real_calloc(n, sz);
	track_add(p);
	return p;
}

void *
__wrap_realloc(void *p, size_t n)
{
	void *np;

	note_request(n);
	if (fail(n))
		return NULL;
	if ((np = __real_realloc(p, n)) != NULL || n == 0) {
		track_del(p);
		track_add(np);
	}
	return np;
}

char *
__wrap_strdup(const char *s)
{
	char *p = fail(strlen(s) + 1) ? NULL : __real_strdup(s);

	track_add(p);
	return p;
}

char *
__wrap_strndup(const char *s, size_t n)
{
	char *p = fail(strnlen(s, n) + 1) ? NULL : __real_strndup(s, n);

	track_add(p);
	return p;
}

void
__wrap_free(void *p)
{
	track_del(p);
	__real_free(p);
}
