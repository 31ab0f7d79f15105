/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The names of a profile's cost centres and modules, which live as long
 * as the profile.  A big profile has thousands; a malloc() each and a
 * free() each were a tenth of the time a streaming analysis of a 10 MB
 * dump spent outside its loop over the nodes.  Here they are copied one
 * after the other into blocks, freed together.
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

/* The first block; later ones double, up to BLOCK_MAX. */
#define BLOCK_MIN	4096
#define BLOCK_MAX	((size_t)256 * 1024)

struct pdbi_strblock {
	struct pdbi_strblock *next;
	char		 s[];
};

/* A new block of room bytes, after the one being filled when keep (a
 * long string's own block, so that the room left in that one is used). */
static char *
new_block(struct pdbi_strings *st, size_t room, int keep)
{
	struct pdbi_strblock *b;

	if (room > SIZE_MAX - sizeof(*b) ||
	    (b = pdbi_malloc(sizeof(*b) + room)) == NULL)
		return NULL;
	if (keep) {
		b->next = st->blocks->next;
		st->blocks->next = b;
		return b->s;
	}
	b->next = st->blocks;
	st->blocks = b;
	st->used = 0;
	st->cap = room;
	return b->s;
}

char *
pdbi_strings_dup(struct pdbi_strings *st, const char *s)
{
	size_t n = strlen(s) + 1, room;
	char *d;

	/* Most sources are empty. */
	if (n == 1)
		return (char *)"";
	if (st->cap - st->used < n) {
		room = st->cap < BLOCK_MIN ? BLOCK_MIN : st->cap < BLOCK_MAX ?
		    2 * st->cap : BLOCK_MAX;
		if (n > room / 4 && st->blocks != NULL) {
			if ((d = new_block(st, n, 1)) == NULL)
				return NULL;
			return memcpy(d, s, n);
		}
		if (new_block(st, n > room ? n : room, 0) == NULL)
			return NULL;
	}
	d = st->blocks->s + st->used;
	st->used += n;
	return memcpy(d, s, n);
}

void
pdbi_strings_free(struct pdbi_strings *st)
{
	struct pdbi_strblock *b, *next;

	for (b = st->blocks; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	memset(st, 0, sizeof(*st));
}
