/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Fuzz everything after the reader: the bytes are read as a tool reads
 * them (format probed), then projected on a selection, pruned, analysed
 * and written in every writable format (fuzz_exercise() in fuzzutil.c),
 * every choice drawn from a hash of the input.
 */
#include <stddef.h>
#include <stdint.h>

#include "formats.h"
#include "fuzzutil.h"
#include "pdb.h"

int
fuzz_roundtrip(const uint8_t *data, size_t size)
{
	struct pdb *db;

	db = fuzz_db();
	if (pdb_read_tree(db, fuzz_path(0, data, size), NULL, NULL,
	    NULL) == PDB_OK)
		fuzz_exercise(db, fuzz_hash(data, size));
	pdb_free(db);
	return 0;
}

FUZZ_MAIN(fuzz_roundtrip)
