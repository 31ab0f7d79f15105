/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Allocation for ccs-gen, which has nothing to give back when memory
 * runs out: the message, and exit.
 */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "gen.h"

_Noreturn void
nomem(void)
{
	tool_warnx("out of memory");
	exit(TOOL_ERR);
}

void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n ? n : 1)) == NULL)
		nomem();
	return p;
}

void *
xcalloc(size_t n, size_t sz)
{
	void *p;

	if ((p = calloc(n ? n : 1, sz ? sz : 1)) == NULL)
		nomem();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n ? n : 1)) == NULL)
		nomem();
	return p;
}

char *
xstrdup(const char *s)
{
	char *d;

	if ((d = strdup(s)) == NULL)
		nomem();
	return d;
}
