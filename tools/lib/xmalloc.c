/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Allocation that exits when memory runs out (xmalloc.h).  A request for
 * 0 bytes gets 1, so that NULL always means failure.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "xmalloc.h"

void
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
xcalloc(size_t n, size_t size)
{
	void *p;

	if ((p = calloc(n ? n : 1, size ? size : 1)) == NULL)
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

/* realloc() of n elements of size bytes, refusing a product that
 * overflows. */
void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		nomem();
	return xrealloc(p, n * size);
}

char *
xstrdup(const char *s)
{
	char *d;

	if ((d = strdup(s)) == NULL)
		nomem();
	return d;
}
