/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The streaming reader of GHC JSON profiles (yajl), used by fmt_ghcjson.c
 * for files too big to parse whole with Jansson.
 */
#ifndef GHCJSON_STREAM_H
#define GHCJSON_STREAM_H

#include "formats_int.h"

/*
 * Files bigger than this are streamed; smaller ones go through Jansson.
 * Parsed whole, a 1 MB profile took 42 ms (24 MB/s); below 32 KiB
 * either reader takes under a millisecond, and no profile deeper than
 * Jansson's 1023 levels fits, since a level takes at least 54 bytes.
 * (Build with -DGHCJSON_STREAM_MIN=0 to stream everything.)
 */
#ifndef GHCJSON_STREAM_MIN
#define GHCJSON_STREAM_MIN	((size_t)32 << 10)
#endif

/*
 * Read a GHC JSON profile from in, streaming it to sink in one pass with
 * memory independent of the number of nodes (when, as GHC writes them,
 * "cost_centres" comes before "profile" and each node's "children" comes
 * after its other fields; otherwise what cannot be sent yet is queued).
 * Sets the same metadata, schema and cost centres as the Jansson reader.
 */
int	pdb_ghcjson_stream(struct pdb_input *, struct pdb *,
	    const struct pdb_sink *);

#endif /* GHCJSON_STREAM_H */
