/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The file, line and column of a GHC source location, for the writers
 * whose viewers open a file at a line (callgrind's fl=, speedscope's
 * frames).  GHC writes "Main.hs:16:1-41" or "Main.hs:(18,1)-(19,28)";
 * "<built-in>" and the like name no file.  The file part ends at the
 * first colon followed by a line number and a ':', ',' or the end, so a
 * path that holds such a colon itself ("x:1:y.hs:2:3") is cut there.
 */
#include <stdint.h>
#include <string.h>

#include "formats_int.h"

/* The decimal number at *pp, up to UINT32_MAX, and the byte after it. */
static uint64_t
number_at(const char **pp)
{
	const char *q = *pp;
	uint64_t v;

	for (v = 0; *q >= '0' && *q <= '9' && v < UINT32_MAX; q++)
		v = v * 10 + (uint64_t)(*q - '0');
	*pp = q;
	return v < UINT32_MAX ? v : 0;
}

int
pdb_src_split(const char *src, size_t *flen, uint64_t *line, uint64_t *col)
{
	const char *p, *q;
	uint64_t v, c;

	for (p = strchr(src, ':'); p != NULL; p = strchr(p + 1, ':')) {
		q = p + 1;
		if (*q == '(')
			q++;
		if (*q < '0' || *q > '9' || p == src)
			continue;
		v = number_at(&q);
		if (*q != ':' && *q != ',' && *q != '\0')
			continue;
		c = 0;
		if (*q != '\0' && q[1] >= '0' && q[1] <= '9') {
			q++;
			c = number_at(&q);
		}
		*flen = (size_t)(p - src);
		*line = v;
		if (col != NULL)
			*col = c;
		return 1;
	}
	return 0;
}
