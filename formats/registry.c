/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The format table and the lookups over it.
 */
#include <string.h>
#include <strings.h>

#include "formats_int.h"

/*
 * Probing order: binary formats with a magic number first (a cheap,
 * certain test), then the structured text formats, then folded stacks,
 * whose probe accepts almost any text and so must lose every tie.
 */
static const struct pdb_format *const pdb_formats[] = {
	&pdb_fmt_ccsdump,
	&pdb_fmt_pgcl,
	&pdb_fmt_json,
	&pdb_fmt_ghcjson,
	&pdb_fmt_ghcprof,
	&pdb_fmt_folded,
	/* Write-only formats: never probed. */
	&pdb_fmt_speedscope,
	&pdb_fmt_callgrind,
	&pdb_fmt_dot,
	&pdb_fmt_html
};

const struct pdb_format *
pdb_format_next(size_t *i)
{
	const struct pdb_format *f;

	while (*i < sizeof(pdb_formats) / sizeof(pdb_formats[0]))
		if ((f = pdb_formats[(*i)++]) != NULL)
			return f;
	return NULL;
}

const struct pdb_format *
pdb_format_find(const char *name)
{
	const struct pdb_format *f;
	size_t i = 0;

	while ((f = pdb_format_next(&i)) != NULL)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

const struct pdb_format *
pdb_format_guess(const char *path)
{
	const struct pdb_format *f, *best = NULL;
	const char *e, *end;
	size_t n, len = strlen(path), bestlen = 0, i = 0;

	/* The longest extension that ends path: .speedscope.json, not .json;
	 * in either case, as file names from other systems have them. */
	while ((f = pdb_format_next(&i)) != NULL) {
		if (f->write == NULL || f->exts == NULL)
			continue;
		for (e = f->exts; *e != '\0'; e = *end ? end + 1 : end) {
			end = strchr(e, ',');
			if (end == NULL)
				end = e + strlen(e);
			n = (size_t)(end - e);
			if (n > bestlen && n < len &&
			    strncasecmp(path + len - n, e, n) == 0) {
				best = f;
				bestlen = n;
			}
		}
	}
	return best;
}

const struct pdb_format *
pdb_format_probe(const unsigned char *head, size_t len)
{
	const struct pdb_format *f, *best = NULL;
	size_t i = 0;
	int score, bestscore = 0;

	while ((f = pdb_format_next(&i)) != NULL) {
		if (f->read == NULL || f->probe == NULL)
			continue;
		score = f->probe(head, len);
		if (score > bestscore) {
			bestscore = score;
			best = f;
		}
	}
	return best;
}

int
pdb_format_ready(const struct pdb_format *f, struct pdb *db)
{
	if (f == NULL)
		return pdb_seterr(db, PDB_EINVAL, "no format to write");
	/* The message pdb_write() would give. */
	if (f->write == NULL)
		return pdb_seterr(db, PDB_EUNSUPP,
		    "format '%s' cannot be written", f->name);
	return f->ready != NULL ? f->ready(db) : PDB_OK;
}
