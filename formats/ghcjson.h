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
extern const struct ghcjson_metric ghcjson_metrics[GHCJSON_NMETRICS];

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
extern const struct ghcjson_metafield ghcjson_metafields[GHCJSON_NMETA];

/* Add the schema to db, unless it has it already; name is the file's,
 * for the message when db has another. */
int	 ghcjson_schema(struct pdb *db, const char *name);

/* The shortest %g form that reads back as d: 0.04, not
 * 0.04000000000000001. */
void	 ghcjson_real(char *buf, size_t size, double d);

#endif /* GHCJSON_H */
