/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The tree route: the model's tables and a generated tree in a libprofdb
 * handle, for the library's writers and for GHC's text report.
 */
#include <stdint.h>
#include <stdlib.h>

#include "common.h"
#include "gen.h"

struct tb {
	struct pdb	*db;
	uint32_t	*path;
	size_t		 depth, cap;
	unsigned	 nm;
};

static int
tb_enter(void *arg, uint32_t cc, const int64_t *v, uint32_t nkids)
{
	struct tb *b = arg;
	uint32_t n;
	int rc;

	(void)nkids;
	if (b->depth == 0)
		rc = pdb_root_new(b->db, cc, &n);
	else
		rc = pdb_node_append(b->db, b->path[b->depth - 1], cc, &n);
	if (rc != PDB_OK || (rc = pdb_node_add_values(b->db, n, v)) != PDB_OK)
		return rc;
	if (b->depth == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 256;
		b->path = xrealloc(b->path, b->cap * sizeof(*b->path));
	}
	b->path[b->depth++] = n;
	return 0;
}

static int
tb_exit(void *arg)
{
	struct tb *b = arg;

	b->depth--;
	return 0;
}

/* The model's tables and a generated tree in a new handle. */
struct pdb *
tree_build(const struct model *m, struct gstats *st)
{
	struct gsink s = { tb_enter, tb_exit, NULL };
	struct tb b = { 0 };
	struct pdb *db = tool_pdb_new();
	uint32_t i, x;
	size_t k;
	int rc = 0;

	for (k = 0; k < m->nmeta && rc == 0; k++)
		rc = pdb_meta_set(db, m->meta[k][0], m->meta[k][1]);
	for (i = 0; i < m->nm && rc == 0; i++)
		rc = pdb_metric_add(db, m->metrics[i].name,
		    m->metrics[i].unit, m->metrics[i].kind, 0, NULL);
	for (i = 0; i < m->nmod && rc == 0; i++)
		rc = pdb_module_add(db, m->mods[i], &x);
	for (i = 0; i < m->ncc && rc == 0; i++)
		rc = pdb_cc_add(db, m->cc[i].label, m->cc[i].mod,
		    m->cc[i].src, cc_flags(m, i), cc_id(m, i), &x);
	b.db = db;
	b.nm = m->nm;
	s.arg = &b;
	if (rc == 0)
		rc = generate(m, &s, st);
	free(b.path);
	if (rc != 0) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	return db;
}
