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
#include <string.h>

#include "jsonlib.h"

/* The allocator Jansson had before pdb_json_watch(), which does the
 * work, and whether it failed since. */
static json_malloc_t	 jansson_malloc;
static int		 jansson_failed;

static void *
watch_malloc(size_t n)
{
	void *p = jansson_malloc(n);

	if (p == NULL)
		jansson_failed = 1;
	return p;
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
		json_set_alloc_funcs(watch_malloc, f);
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
json_t *
pdb_json_load(const char *s, size_t len, size_t flags, json_error_t *err,
    int *nomem)
{
	json_t *doc;

	pdb_json_watch();
	doc = json_loadb(s, len, flags, err);
	*nomem = pdb_json_failed() || (doc == NULL &&
	    (json_error_code(err) == json_error_out_of_memory ||
	    err->text[0] == '\0'));
	if (*nomem) {
		json_decref(doc);
		return NULL;
	}
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
