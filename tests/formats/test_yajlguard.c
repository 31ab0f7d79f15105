/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * yajl behind its guard (formats/yajlguard.c): with each of its
 * allocations failing in turn, a parse gives the events of a parse
 * without failures, or stops with nomem set; it never writes through a
 * NULL, and closing frees every block.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "yajlguard.h"

/* What the callbacks saw, one line an event. */
struct events {
	char	text[1 << 16];
	size_t	len;
};

static void
event(struct events *e, const char *what, const unsigned char *s, size_t n)
{
	int k = snprintf(e->text + e->len, sizeof(e->text) - e->len,
	    "%s %.*s\n", what, (int)n, (const char *)s);

	cr_assert(k > 0 && (size_t)k < sizeof(e->text) - e->len);
	e->len += (size_t)k;
}

static int
on_string(void *ctx, const unsigned char *s, size_t n)
{
	event(ctx, "string", s, n);
	return 1;
}

static int
on_key(void *ctx, const unsigned char *s, size_t n)
{
	event(ctx, "key", s, n);
	return 1;
}

static int
on_number(void *ctx, const char *s, size_t n)
{
	event(ctx, "number", (const unsigned char *)s, n);
	return 1;
}

static int
on_open(void *ctx)
{
	event(ctx, "open", (const unsigned char *)"", 0);
	return 1;
}

static int
on_close(void *ctx)
{
	event(ctx, "close", (const unsigned char *)"", 0);
	return 1;
}

static const yajl_callbacks callbacks = {
	NULL, NULL, NULL, NULL, on_number, on_string,
	on_open, on_key, on_close, on_open, on_close,
};

/*
 * A document that makes yajl allocate each way it does: its handle and
 * lexer, the stack of its states past 128 levels, the buffer for
 * strings with escapes, and the lexer's buffer for a token cut by the
 * end of a chunk (fed in chunks of 7 bytes).
 */
static char *
document(void)
{
	size_t cap = 1 << 15, len = 0;
	char *d = malloc(cap);
	int i;

	cr_assert_not_null(d);
	for (i = 0; i < 300; i++)
		d[len++] = '[';
	len += (size_t)snprintf(d + len, cap - len, "{\"a\\u00e9b\":"
	    "\"tab\\there, quote \\\" and a long string past a chunk\","
	    "\"n\":[1, -2.5e3, 12345678901234567890]}");
	for (i = 0; i < 300; i++)
		d[len++] = ']';
	d[len] = '\0';
	return d;
}

/* Parse d in chunks of 7; *nomem whether an allocation failed. */
static int
parse(const char *d, struct events *e, int *nomem)
{
	struct pdb_yajl y;
	yajl_status st = yajl_status_error;
	size_t len = strlen(d), at;

	e->len = 0;
	if (pdb_yajl_open(&y, &callbacks, e) == 0) {
		for (at = 0, st = yajl_status_ok; at < len &&
		    st == yajl_status_ok; at += 7)
			st = pdb_yajl_parse(&y, (const unsigned char *)d + at,
			    len - at < 7 ? len - at : 7);
		if (st == yajl_status_ok)
			st = pdb_yajl_complete(&y);
	}
	*nomem = y.nomem;
	pdb_yajl_close(&y);
	return st == yajl_status_ok;
}

Test(yajlguard, every_allocation_fails_cleanly)
{
	static struct events want, got;
	char *d = document();
	unsigned long n, nomem = 0;
	size_t live;
	int ok, failed;

	cr_assert(parse(d, &want, &failed) && !failed);
	cr_assert(strstr(want.text, "key a\xc3\xa9" "b\n") != NULL &&
	    strstr(want.text, "string tab\there, quote \" and") != NULL,
	    "%s", want.text);
	for (n = 1;; n++) {
		cr_assert(n < 10000, "no end to the allocations");
		failalloc_track_begin();
		failalloc_arm(n);
		ok = parse(d, &got, &failed);
		failalloc_arm(0);
		live = failalloc_track_end();
		cr_assert_eq(live, 0, "allocation %lu failed: %zu blocks "
		    "leaked", n, live);
		if (!failalloc_fired()) {
			cr_assert(ok && !failed);
			break;
		}
		if (ok)
			cr_assert(!failed && got.len == want.len &&
			    memcmp(got.text, want.text, want.len) == 0,
			    "allocation %lu failed, and the events differ", n);
		else {
			cr_assert(failed, "allocation %lu failed, and the "
			    "parse stopped without saying so", n);
			nomem++;
		}
	}
	/* Handle, lexer, states, escapes' buffer, lexer's buffer and
	 * their growth: every one of them failed once. */
	cr_assert_geq(nomem, 5, "%lu of %lu allocations failed the parse",
	    nomem, n - 1);
	free(d);
}

Test(yajlguard, syntax_error_message)
{
	static const char *const bad[] = { "[1, 2", "[1 2]", "{\"a\" 1}",
	    "[tru]", "\"\\x\"" };
	struct events e;
	struct pdb_yajl y;
	char msg[160];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(pdb_yajl_open(&y, &callbacks, &e), 0);
		e.len = 0;
		if (pdb_yajl_parse(&y, (const unsigned char *)bad[i],
		    strlen(bad[i])) == yajl_status_ok)
			cr_assert_neq(pdb_yajl_complete(&y), yajl_status_ok,
			    "%s", bad[i]);
		pdb_yajl_message(&y, (const unsigned char *)bad[i],
		    strlen(bad[i]), msg, sizeof(msg));
		cr_assert(!y.nomem);
		cr_assert(strstr(msg, "error") != NULL &&
		    strcmp(msg, "parse error") != 0 &&
		    strchr(msg, '\n') == NULL, "%s: '%s'", bad[i], msg);
		pdb_yajl_close(&y);
	}
}
