/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * What the users of Jansson share (jsonlib.c): a document as text, for
 * the writers that build one, and a failure for memory told apart.
 */
#ifndef JSONLIB_H
#define JSONLIB_H

#include <stddef.h>

#include <jansson.h>

#include "formats.h"

/*
 * Append doc, dumped with Jansson's flags, to t.  Returns 0, or -1 when
 * out of memory (and then t->err is set).
 */
int	 pdb_json_text(const json_t *doc, size_t flags, struct pdb_text *t);

/*
 * Jansson does not always say when it runs out of memory: its parser
 * drops a character of a string it cannot grow, and json_dumps() a key.
 * pdb_json_watch() starts watching its allocations (its own allocator
 * still does the work) and pdb_json_failed() says whether one failed
 * since.  Jansson's allocator is one for the process, so this is not
 * for two threads at once.
 */
void	 pdb_json_watch(void);
int	 pdb_json_failed(void);

/* Whether a json_load*() that failed with err ran out of memory. */
int	 pdb_json_nomem(const json_error_t *err);

#endif /* JSONLIB_H */
