/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The schema, metadata fields and module table that both GHC JSON
 * readers use (ghcjson.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ghcjson.h"

const struct ghcjson_metric ghcjson_metrics[GHCJSON_NMETRICS] = {
	{ "ticks", "ticks", PDB_COST },
	{ "alloc", "bytes", PDB_COST },
	{ "entries", "calls", PDB_COUNT },
};

const struct ghcjson_metafield ghcjson_metafields[GHCJSON_NMETA] = {
	{ "program", "program", GJ_STRING },
	{ "arguments", "command", GJ_ARGS },
	{ "rts_arguments", "rts_arguments", GJ_ARGS },
	{ "end_time", "date", GJ_STRING },
	{ "total_time", "total_time", GJ_NUMBER },
	{ "total_ticks", "total_ticks", GJ_NUMBER },
	{ "tick_interval", "tick_interval_us", GJ_NUMBER },
	{ "total_alloc", "total_alloc", GJ_NUMBER },
	{ "initial_capabilities", "initial_capabilities", GJ_CAPS },
};

struct ghcjson_modslot {
	const char	*name;
	uint32_t	 mod;
};

int
ghcjson_schema(struct pdb *db, const char *name)
{
	unsigned i;
	int rc, have;

	for (i = 0; i < GHCJSON_NMETRICS; i++) {
		have = pdb_metric_find(db, ghcjson_metrics[i].field);
		if (have == (int)i)
			continue;
		if (have >= 0 || pdb_metric_count(db) != i)
			return pdb_seterr(db, PDB_EINVAL,
			    "%s: profile handle already has another schema",
			    name);
		if ((rc = pdb_metric_add(db, ghcjson_metrics[i].field,
		    ghcjson_metrics[i].unit, ghcjson_metrics[i].kind, 0,
		    NULL)) != 0)
			return rc;
	}
	return PDB_OK;
}

void
ghcjson_real(char *buf, size_t size, double d)
{
	int prec;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
	snprintf(buf, size, "%.17g", d);
}

uint64_t
ghcjson_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

/* Open addressing, at most half full. */
int
ghcjson_module(struct ghcjson_mods *t, struct pdb *db, const char *name,
    uint32_t *out)
{
	struct ghcjson_modslot *ns;
	size_t i, k, ncap;
	int rc;

	if ((t->n + 1) * 2 > t->cap) {
		ncap = t->cap ? t->cap * 2 : 64;
		if ((ns = calloc(ncap, sizeof(*ns))) == NULL)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		for (i = 0; i < t->cap; i++) {
			if (t->slot[i].name == NULL)
				continue;
			for (k = ghcjson_hash(t->slot[i].name) & (ncap - 1);
			    ns[k].name != NULL; k = (k + 1) & (ncap - 1))
				;
			ns[k] = t->slot[i];
		}
		free(t->slot);
		t->slot = ns;
		t->cap = ncap;
	}
	for (k = ghcjson_hash(name) & (t->cap - 1); t->slot[k].name != NULL;
	    k = (k + 1) & (t->cap - 1))
		if (strcmp(t->slot[k].name, name) == 0) {
			*out = t->slot[k].mod;
			return PDB_OK;
		}
	if ((rc = pdb_module_add(db, name, out)) != 0)
		return rc;
	t->slot[k].name = pdb_module_name(db, *out);
	t->slot[k].mod = *out;
	t->n++;
	return PDB_OK;
}

void
ghcjson_mods_free(struct ghcjson_mods *t)
{
	free(t->slot);
	t->slot = NULL;
	t->cap = t->n = 0;
}
