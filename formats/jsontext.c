/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * A Jansson document as text.  json_dumps() cannot be trusted out of
 * memory: Jansson (2.14, and upstream as of this writing) ignores a
 * failure to write an object's key and goes on, so the text it returns
 * may lack a key, and the JSON and HTML writers wrote such a document
 * as if all were well (akheron/jansson#655).  Dumped through a callback
 * into a pdb_text, whose error sticks, every failure shows.
 */
#include "jsontext.h"

static int
to_text(const char *s, size_t n, void *arg)
{
	return pdb_text_add(arg, s, n);
}

int
pdb_json_text(const json_t *doc, size_t flags, struct pdb_text *t)
{
	if (json_dump_callback(doc, to_text, t, flags) != 0 || t->err) {
		t->err = 1;
		return -1;
	}
	return 0;
}
