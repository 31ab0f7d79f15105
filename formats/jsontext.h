/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * A Jansson document as text, for the writers that build one
 * (jsontext.c).
 */
#ifndef JSONTEXT_H
#define JSONTEXT_H

#include <stddef.h>

#include <jansson.h>

#include "formats.h"

/*
 * Append doc, dumped with Jansson's flags, to t.  Returns 0, or -1 when
 * out of memory (and then t->err is set).
 */
int	 pdb_json_text(const json_t *doc, size_t flags, struct pdb_text *t);

#endif /* JSONTEXT_H */
