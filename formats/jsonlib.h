/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * What the users of Jansson share (jsonlib.c): documents built a part
 * at a time, dumped as text and parsed, with every failure for memory
 * told apart; and what the readers streaming with yajl need to read
 * the same JSON as Jansson does.
 */
#ifndef JSONLIB_H
#define JSONLIB_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "formats_int.h"

/*
 * Put v into doc under key and return it, or NULL when v is NULL or does
 * not go in (then it is freed: json_object_set_new() takes it).  A
 * document made a part at a time this way is freed whole by one
 * json_decref() whatever failed.
 */
json_t	*pdb_json_put(json_t *doc, const char *key, json_t *v);

/*
 * Jansson does not always say when it runs out of memory: its parser
 * may drop a character of a string it cannot grow and go on (and write
 * past a block when that was a closing quote), or report a syntax error,
 * and json_dumps() may leave out a key.  The functions below watch its
 * allocations (its own allocator still does the work) and say so; a
 * parse is stopped at the first that fails (jsonlib.c).  Jansson's
 * allocator is one for the process, so this is not for two threads at
 * once.
 */

/*
 * Append doc, dumped with Jansson's flags, to t.  Returns 0, or -1 when
 * out of memory (and then t->err is set).
 */
int	 pdb_json_text(const json_t *doc, size_t flags, struct pdb_text *t);

/*
 * json_loadb() of the len bytes at s: the document, or NULL with *nomem
 * set when Jansson ran out of memory, and clear when s is not JSON (err
 * says why and where).
 */
json_t	*pdb_json_load(const char *s, size_t len, size_t flags,
	    json_error_t *err, int *nomem);

/* Start watching Jansson's allocations; whether one failed since. */
void	 pdb_json_watch(void);
int	 pdb_json_failed(void);

/*
 * A number's text as yajl's lexer found it, s[0, len), read as Jansson
 * reads it: 1 and *v for an integer (neither fraction nor exponent) in
 * 64 bits, down to -2^63, which yajl's own integer parser refuses; 0
 * for a real number; -1 for an integer out of range.
 */
int	 pdb_json_integer(const char *s, size_t len, int64_t *v);

/*
 * yajl takes form feed and vertical tab for white space, which JSON
 * does not (nor Jansson), and they may not stand in a string unescaped
 * either: so wherever one is, the text is not JSON.  The offset of the
 * first in s[0, len), or len.
 */
size_t	 pdb_json_ff_or_vt(const unsigned char *s, size_t len);

#endif /* JSONLIB_H */
