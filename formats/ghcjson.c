/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The schema and metadata fields that both GHC JSON readers use
 * (ghcjson.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "ghcjson.h"

const struct ghcjson_metric pdbi_ghcjson_metrics[GHCJSON_NMETRICS] = {
	{ "ticks", "ticks", PDB_COST },
	{ "alloc", "bytes", PDB_COST },
	{ "entries", "calls", PDB_COUNT },
};

const struct ghcjson_metafield pdbi_ghcjson_metafields[GHCJSON_NMETA] = {
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

int
pdbi_ghcjson_schema(struct pdb *db, const char *name)
{
	const struct ghcjson_metric *mt;
	unsigned i;
	int rc, have;

	for (i = 0; i < GHCJSON_NMETRICS; i++) {
		have = pdb_metric_find(db, pdbi_ghcjson_metrics[i].field);
		if (have == (int)i)
			continue;
		if (have >= 0 || pdb_metric_count(db) != i)
			return pdb_seterr(db, PDB_EINVAL,
			    "%s: profile handle already has another schema",
			    name);
		mt = &pdbi_ghcjson_metrics[i];
		if ((rc = pdb_metric_add(db, mt->field, mt->unit, mt->kind, 0,
		    NULL)) != 0)
			return rc;
	}
	return PDB_OK;
}

void
pdbi_ghcjson_totals(struct pdb *db, const char *name,
    const struct ghcjson_sums *s)
{
	static const char *const keys[2] = { "total_ticks", "total_alloc" };
	const char *t;
	char *end;
	unsigned long long want;
	int i;

	if (s->over)
		return;
	for (i = 0; i < 2; i++) {
		if ((t = pdb_meta_get(db, keys[i])) == NULL || *t == '-')
			continue;
		errno = 0;
		want = strtoull(t, &end, 10);
		if (*end != '\0' || errno != 0 || want == s->v[i])
			continue;
		pdb_warn(db, "%s: the tree's %s add up to %llu, its %s says "
		    "%llu: the file was edited", name,
		    pdbi_ghcjson_metrics[i].field, (unsigned long long)s->v[i],
		    keys[i], want);
	}
}

void
pdbi_ghcjson_real(char *buf, size_t size, double d)
{
	int prec;

	/* GHC writes its seconds with two decimals, as its text report
	 * does: 0.50 reads back as 0.50 from either, not 0.5. */
	snprintf(buf, size, "%.2f", d);
	if (strtod(buf, NULL) == d)
		return;
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
	snprintf(buf, size, "%.17g", d);
}
