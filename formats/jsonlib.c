/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * What the users of Jansson share.
 *
 * A document as text.  json_dumps() cannot be trusted out of
 * memory: Jansson (2.14, and upstream as of this writing) ignores a
 * failure to write an object's key and goes on, so the text it returns
 * may lack a key and still look whole (akheron/jansson#655).  Dumped
 * through a callback into a pdb_text, whose error sticks, every failure
 * shows.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonlib.h"

/*
 * Jansson's parser does not check every allocation either: out of
 * memory, its lexer drops a character of a string it cannot grow, and
 * when that is the closing quote it copies the string past the end of
 * the block it made for it.  So a parse (pdb_json_load()) is guarded, as
 * yajl's are (yajlguard.c): a failed allocation jumps back out of
 * json_loadb(), and the blocks it had handed out, each remembered in a
 * table as it went and forgotten when freed, are freed.
 */
struct guard {
	jmp_buf		 fail;
	void		**slot;		/* open addressing: NULL, a block or
					   TOMB, one freed since */
	size_t		 cap, used;	/* used: slots not NULL */
};

static char		 tomb_mark;
#define TOMB		((void *)&tomb_mark)

/* The allocator Jansson had before pdb_json_watch(), which does the
 * work; whether it failed since; the parse under way. */
static json_malloc_t	 jansson_malloc;
static json_free_t	 jansson_free;
static int		 jansson_failed;
static struct guard	*guard;

static size_t
slot_home(const void *p, size_t cap)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 29;
	x *= 0x9e3779b97f4a7c15ULL;
	return (size_t)(x >> 32) & (cap - 1);
}

/* The slot of block p in g, or of the NULL where it would go. */
static size_t
slot_find(const struct guard *g, const void *p)
{
	size_t i;

	for (i = slot_home(p, g->cap); g->slot[i] != NULL &&
	    g->slot[i] != p; i = (i + 1) & (g->cap - 1))
		;
	return i;
}

/* Twice the room, the tombs left behind.  -1 when out of memory. */
static int
guard_grow(struct guard *g)
{
	size_t cap = g->cap ? 2 * g->cap : 64, i, j;
	void **slot;

	if ((slot = calloc(cap, sizeof(*slot))) == NULL)
		return -1;
	for (i = 0; i < g->cap; i++) {
		if (g->slot[i] == NULL || g->slot[i] == TOMB)
			continue;
		for (j = slot_home(g->slot[i], cap); slot[j] != NULL;
		    j = (j + 1) & (cap - 1))
			;
		slot[j] = g->slot[i];
	}
	free(g->slot);
	g->slot = slot;
	g->cap = cap;
	for (g->used = i = 0; i < cap; i++)
		g->used += slot[i] != NULL;
	return 0;
}

static int
remember(struct guard *g, void *p)
{
	size_t i;

	if ((g->used + 1) * 4 > g->cap * 3 && guard_grow(g) != 0)
		return -1;
	for (i = slot_home(p, g->cap); g->slot[i] != NULL &&
	    g->slot[i] != TOMB; i = (i + 1) & (g->cap - 1))
		;
	g->used += g->slot[i] == NULL;
	g->slot[i] = p;
	return 0;
}

static void *
watch_malloc(size_t n)
{
	void *p = jansson_malloc(n);

	if (p != NULL && guard != NULL && remember(guard, p) != 0) {
		jansson_free(p);
		p = NULL;
	}
	if (p == NULL) {
		jansson_failed = 1;
		if (guard != NULL)
			longjmp(guard->fail, 1);
	}
	return p;
}

static void
watch_free(void *p)
{
	size_t i;

	if (p != NULL && guard != NULL && guard->cap > 0 &&
	    guard->slot[i = slot_find(guard, p)] == p)
		guard->slot[i] = TOMB;
	jansson_free(p);
}

void
pdb_json_watch(void)
{
	json_malloc_t m;
	json_free_t f;

	/* Blocks of the allocator before stay freed by its free(). */
	json_get_alloc_funcs(&m, &f);
	if (m != watch_malloc) {
		jansson_malloc = m;
		jansson_free = f;
		json_set_alloc_funcs(watch_malloc, watch_free);
	}
	jansson_failed = 0;
}

int
pdb_json_failed(void)
{
	return jansson_failed;
}

static int
to_text(const char *s, size_t n, void *arg)
{
	return pdb_text_add(arg, s, n);
}

int
pdb_json_text(const json_t *doc, size_t flags, struct pdb_text *t)
{
	pdb_json_watch();
	if (json_dump_callback(doc, to_text, t, flags) != 0 || t->err ||
	    pdb_json_failed()) {
		t->err = 1;
		return -1;
	}
	return 0;
}

json_t *
pdb_json_put(json_t *doc, const char *key, json_t *v)
{
	return json_object_set_new(doc, key, v) == 0 ? v : NULL;
}

/*
 * A parse that ran out of memory may say so in its error's code, or,
 * when Jansson could not even start (lex_init()), leave the error as it
 * set it up, without a text; or report a syntax error, or succeed with
 * a string cut short, and only the watch knows.
 */
/* json_loadb() under g: NULL when it jumped out (see above). */
static json_t *
guarded_load(struct guard *g, const char *s, size_t len, size_t flags,
    json_error_t *err)
{
	if (setjmp(g->fail) != 0)
		return NULL;
	return json_loadb(s, len, flags, err);
}

/*
 * A NUL byte is no JSON (in a string it must be escaped), but Jansson
 * takes one between tokens for white space ("[1\0]" reads as [1]), where
 * yajl, which reads the big files, refuses it: refused here too, for
 * every reader, at the line and column Jansson would give.
 */
static int
nul_byte(const char *s, size_t len, json_error_t *err)
{
	const char *z = memchr(s, '\0', len);
	size_t at, i;

	if (z == NULL)
		return 0;
	at = (size_t)(z - s);
	err->line = 1;
	err->column = 1;
	for (i = 0; i < at; i++) {
		if (s[i] == '\n') {
			err->line++;
			err->column = 1;
		} else
			err->column++;
	}
	err->position = at < INT_MAX ? (int)at : INT_MAX;
	snprintf(err->text, sizeof(err->text), "NUL character");
	return 1;
}

json_t *
pdb_json_load(const char *s, size_t len, size_t flags, json_error_t *err,
    int *nomem)
{
	struct guard g;
	json_t *doc;
	size_t i;

	memset(&g, 0, sizeof(g));
	memset(err, 0, sizeof(*err));
	*nomem = 0;
	if (nul_byte(s, len, err))
		return NULL;
	pdb_json_watch();
	guard = &g;
	doc = guarded_load(&g, s, len, flags, err);
	guard = NULL;
	/* Jumped out: what it had not freed is freed here. */
	for (i = 0; doc == NULL && jansson_failed && i < g.cap; i++)
		if (g.slot[i] != NULL && g.slot[i] != TOMB)
			jansson_free(g.slot[i]);
	free(g.slot);
	*nomem = pdb_json_failed() || (doc == NULL &&
	    (json_error_code(err) == json_error_out_of_memory ||
	    err->text[0] == '\0'));
	if (*nomem) {
		json_decref(doc);
		return NULL;
	}
	/* Jansson names its flag ("without JSON_ALLOW_NUL"): say it as the
	 * stream reader of big files does. */
	if (doc == NULL && json_error_code(err) == json_error_null_character)
		snprintf(err->text, sizeof(err->text),
		    "NUL character in a string");
	return doc;
}

int
pdb_json_integer(const char *s, size_t len, int64_t *v)
{
	int neg = len > 0 && *s == '-';
	int64_t mag;

	/* yajl's lexer lets through digits, '-', '+', '.', 'e' and 'E'. */
	switch (pdb_parse_digits(s + neg, len - (size_t)neg, &mag)) {
	case 0:
		*v = neg ? -mag : mag;
		return 1;
	case -2:
		/* -2^63 passes INT64_MAX by one. */
		if (neg && len == 20 && memcmp(s, "-9223372036854775808", 20) ==
		    0) {
			*v = INT64_MIN;
			return 1;
		}
		return -1;
	default:
		return 0;	/* a fraction or an exponent: a real number */
	}
}

size_t
pdb_json_ff_or_vt(const unsigned char *s, size_t len)
{
	const unsigned char *ff = memchr(s, '\f', len);
	const unsigned char *vt = memchr(s, '\v',
	    ff != NULL ? (size_t)(ff - s) : len);

	if (vt != NULL)
		return (size_t)(vt - s);
	return ff != NULL ? (size_t)(ff - s) : len;
}
