/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * yajl (2.1) does not check what its allocator returns: out of memory,
 * it writes through the NULL it got (yajl_buf_ensure_available(), the
 * byte stack of its states) and crashes.  So it gets an allocator that
 * never returns NULL: a failed allocation jumps back out of the yajl
 * call under way, which then returns an error with nomem set.  yajl's
 * state is then whatever it was in the middle of that call, so it is
 * never called again; its blocks, each linked into a list as it was
 * handed out, are freed from the list.
 *
 * Only the allocator leaves yajl this way, never one of the callers'
 * callbacks, so no caller's own state is cut off half-changed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "yajlguard.h"

/* A block's header, as aligned as what malloc() returns. */
struct pdb_yajl_block {
	_Alignas(max_align_t) struct pdb_yajl_block *prev;
	struct pdb_yajl_block *next;
};

static void
block_link(struct pdb_yajl *y, struct pdb_yajl_block *b)
{
	b->prev = NULL;
	b->next = y->blocks;
	if (y->blocks != NULL)
		y->blocks->prev = b;
	y->blocks = b;
}

static void
block_unlink(struct pdb_yajl *y, struct pdb_yajl_block *b)
{
	if (b->prev != NULL)
		b->prev->next = b->next;
	else
		y->blocks = b->next;
	if (b->next != NULL)
		b->next->prev = b->prev;
}

static void *
guard_realloc(void *ctx, void *ptr, size_t size)
{
	struct pdb_yajl *y = ctx;
	struct pdb_yajl_block *b = NULL, *nb;

	if (ptr != NULL) {
		b = (struct pdb_yajl_block *)ptr - 1;
		block_unlink(y, b);	/* realloc() may move it */
	}
	if (size > SIZE_MAX - sizeof(*b) ||
	    (nb = realloc(b, sizeof(*b) + size)) == NULL) {
		if (b != NULL)
			block_link(y, b);	/* still yajl's */
		y->nomem = 1;
		longjmp(y->fail, 1);
	}
	block_link(y, nb);
	return nb + 1;
}

static void *
guard_malloc(void *ctx, size_t size)
{
	return guard_realloc(ctx, NULL, size);
}

static void
guard_free(void *ctx, void *ptr)
{
	struct pdb_yajl_block *b;

	if (ptr == NULL)
		return;
	b = (struct pdb_yajl_block *)ptr - 1;
	block_unlink(ctx, b);
	free(b);
}

/*
 * Each call into yajl that may allocate is made from a function of its
 * own that sets the jump first, so the jump lands in a frame still live
 * and no local variable changes between setjmp() and longjmp().
 */
int
pdb_yajl_open(struct pdb_yajl *y, const yajl_callbacks *cb, void *ctx)
{
	memset(y, 0, sizeof(*y));
	y->funcs.malloc = guard_malloc;
	y->funcs.realloc = guard_realloc;
	y->funcs.free = guard_free;
	y->funcs.ctx = y;
	if (setjmp(y->fail) != 0)
		return -1;
	if ((y->h = yajl_alloc(cb, &y->funcs, ctx)) == NULL) {
		y->nomem = 1;
		return -1;
	}
	return 0;
}

yajl_status
pdb_yajl_parse(struct pdb_yajl *y, const unsigned char *s, size_t len)
{
	if (y->nomem)
		return yajl_status_error;
	if (setjmp(y->fail) != 0)
		return yajl_status_error;
	return yajl_parse(y->h, s, len);
}

yajl_status
pdb_yajl_complete(struct pdb_yajl *y)
{
	if (y->nomem)
		return yajl_status_error;
	if (setjmp(y->fail) != 0)
		return yajl_status_error;
	return yajl_complete_parse(y->h);
}

/* yajl_get_error(), or NULL. */
static unsigned char *
error_text(struct pdb_yajl *y, const unsigned char *s, size_t len)
{
	if (y->nomem)
		return NULL;
	if (setjmp(y->fail) != 0)
		return NULL;
	return yajl_get_error(y->h, 0, s, len);
}

void
pdb_yajl_message(struct pdb_yajl *y, const unsigned char *s, size_t len,
    char *buf, size_t size)
{
	unsigned char *msg = error_text(y, s, len);

	snprintf(buf, size, "%s", msg != NULL ? (const char *)msg :
	    "parse error");
	buf[strcspn(buf, "\n")] = '\0';
	if (msg != NULL)
		yajl_free_error(y->h, msg);
}

void
pdb_yajl_close(struct pdb_yajl *y)
{
	struct pdb_yajl_block *b;

	if (y->h != NULL && !y->nomem)
		yajl_free(y->h);
	y->h = NULL;
	/* After a failure, all of them; else none is left. */
	while ((b = y->blocks) != NULL) {
		y->blocks = b->next;
		free(b);
	}
}
