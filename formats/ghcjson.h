/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * What the two readers of GHC JSON profiles share (ghcjson.c): the
 * schema GHC's nodes give, and the metadata fields and the keys they
 * become.  fmt_ghcjson.c reads a small file whole with Jansson,
 * ghcjson_stream.c a big one as a stream with yajl; both must make the
 * same handle of the same file.  (Both find modules by name with
 * pdb_module_intern().)
 */
#ifndef GHCJSON_H
#define GHCJSON_H

#include <stddef.h>
#include <stdint.h>

#include "formats.h"

/* The metrics of a node, in schema order: ticks, alloc, entries. */
struct ghcjson_metric {
	const char	*field;
	const char	*unit;
	enum pdb_kind	 kind;
};

#define GHCJSON_NMETRICS	3
extern const struct ghcjson_metric pdbi_ghcjson_metrics[GHCJSON_NMETRICS];

/* The metadata GHC writes and the keys they become, in this order. */
enum ghcjson_mtype {
	GJ_STRING,	/* a string */
	GJ_ARGS,	/* a list of strings, joined by spaces */
	GJ_NUMBER,	/* a number, as the shortest text that reads back */
	GJ_CAPS		/* a number, which also gives "processors" */
};

struct ghcjson_metafield {
	const char		*field;
	const char		*key;
	enum ghcjson_mtype	 type;
};

#define GHCJSON_NMETA		9
extern const struct ghcjson_metafield pdbi_ghcjson_metafields[GHCJSON_NMETA];

/* Add the schema to db, unless it has it already; name is the file's,
 * for the message when db has another. */
int	 pdbi_ghcjson_schema(struct pdb *db, const char *name);

/*
 * The sums of a tree's ticks and alloc, for pdbi_ghcjson_totals(); over set
 * when one did not fit in 64 bits.
 */
struct ghcjson_sums {
	uint64_t	 v[2];
	int		 over;
};

static inline void
ghcjson_sums_add(struct ghcjson_sums *s, const int64_t *vals)
{
	s->over |= __builtin_add_overflow(s->v[0], (uint64_t)vals[0],
	    &s->v[0]) | __builtin_add_overflow(s->v[1], (uint64_t)vals[1],
	    &s->v[1]);
}

/* Warn when the tree's sums are not the total_ticks and total_alloc of
 * db's metadata, as GHC writes them: the file was edited. */
void	 pdbi_ghcjson_totals(struct pdb *db, const char *name,
	    const struct ghcjson_sums *s);

/* d with two decimals, as GHC writes seconds, when that reads back as
 * d; else the shortest %g form that does: 0.04, not
 * 0.04000000000000001. */
void	 pdbi_ghcjson_real(char *buf, size_t size, double d);

#endif /* GHCJSON_H */
