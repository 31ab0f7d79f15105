/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * An open-addressing hash map from 64-bit keys to 32-bit values, used for
 * the stack index (stack, cost centre) -> stack.  Key UINT64_MAX marks an
 * empty slot; callers never use it because node and cost-centre indices
 * are below UINT32_MAX.
 */
#include <stdlib.h>

#include "pdb_int.h"

#define EMPTY	UINT64_MAX

static size_t
slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 31;
	key *= 0x9e3779b97f4a7c15ULL;
	key ^= key >> 29;
	return (size_t)key & (cap - 1);
}

int
pdbi_map_get(const struct pdbi_map *m, uint64_t key, uint32_t *val)
{
	size_t i;

	if (m->cap == 0)
		return 0;
	for (i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			*val = m->vals[i];
			return 1;
		}
		if (m->keys[i] == EMPTY)
			return 0;
	}
}

static int
rehash(struct pdbi_map *m, size_t ncap)
{
	uint64_t *keys;
	uint32_t *vals;
	size_t i, j;

	if ((keys = pdbi_malloc(ncap * sizeof(*keys))) == NULL)
		return PDB_ENOMEM;
	if ((vals = pdbi_malloc(ncap * sizeof(*vals))) == NULL) {
		free(keys);
		return PDB_ENOMEM;
	}
	for (i = 0; i < ncap; i++)
		keys[i] = EMPTY;
	for (i = 0; i < m->cap; i++) {
		if (m->keys[i] == EMPTY)
			continue;
		for (j = slot_of(m->keys[i], ncap); keys[j] != EMPTY;
		    j = (j + 1) & (ncap - 1))
			;
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = ncap;
	return PDB_OK;
}

/* Insert or replace. */
int
pdbi_map_put(struct pdbi_map *m, uint64_t key, uint32_t val)
{
	size_t i;
	int rc;

	if ((m->count + 1) * 4 > m->cap * 3 &&
	    (rc = rehash(m, m->cap ? m->cap * 2 : 64)) != PDB_OK)
		return rc;
	for (i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return PDB_OK;
		}
		if (m->keys[i] == EMPTY) {
			m->keys[i] = key;
			m->vals[i] = val;
			m->count++;
			return PDB_OK;
		}
	}
}

void
pdbi_map_free(struct pdbi_map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->count = 0;
}
