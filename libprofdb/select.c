/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * SELECTED: the set of selected cost centres, from select and de-select
 * glob patterns.  It is a set computed from two unordered lists, so the
 * order of options can never change the answer.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

struct pdb_sel {
	char	**pats;
	int	 *isselect;
	size_t	  n, cap, capsel;
	size_t	  nselect;
};

struct pdb_sel *
pdb_sel_new(void)
{
	return pdbi_calloc(1, sizeof(struct pdb_sel));
}

void
pdb_sel_free(struct pdb_sel *sel)
{
	size_t i;

	if (sel == NULL)
		return;
	for (i = 0; i < sel->n; i++)
		free(sel->pats[i]);
	free(sel->pats);
	free(sel->isselect);
	free(sel);
}

int
pdb_sel_add(struct pdb_sel *sel, int select, const char *pattern)
{
	char *p;

	if (pattern == NULL)
		return PDB_EINVAL;
	if (pdbi_grow(&sel->pats, &sel->cap, sel->n + 1, sizeof(*sel->pats)) ||
	    pdbi_grow(&sel->isselect, &sel->capsel, sel->n + 1,
	    sizeof(*sel->isselect)) || (p = pdbi_strdup(pattern)) == NULL)
		return PDB_ENOMEM;
	sel->pats[sel->n] = p;
	sel->isselect[sel->n] = select != 0;
	sel->n++;
	if (select)
		sel->nselect++;
	return PDB_OK;
}

int
pdb_sel_is_trivial(const struct pdb_sel *sel)
{
	return sel == NULL || sel->n == 0;
}

static int
matches(const char *pat, const char *label, const char *full)
{
	return fnmatch(pat, label, 0) == 0 ||
	    (full != label && fnmatch(pat, full, 0) == 0);
}

int
pdb_cc_glob(const struct pdb *db, uint32_t cc, const char *pat)
{
	const char *label = pdb_cc_label(db, cc);

	return matches(pat, label, pdb_cc_fullname(db, cc));
}

int
pdb_sel_match(const struct pdb_sel *sel, const struct pdb *db, uint32_t cc)
{
	const char *label, *full;
	int selected;
	size_t i;

	if (sel == NULL || sel->n == 0)
		return 1;
	if (db->nnodes > 0 && db->nodes[0].cc == cc)
		return 1;
	label = pdb_cc_label(db, cc);
	full = pdb_cc_fullname(db, cc);
	selected = sel->nselect == 0;
	for (i = 0; i < sel->n && !selected; i++)
		if (sel->isselect[i] && matches(sel->pats[i], label, full))
			selected = 1;
	for (i = 0; i < sel->n && selected; i++)
		if (!sel->isselect[i] && matches(sel->pats[i], label, full))
			selected = 0;
	return selected;
}

unsigned char *
pdb_sel_mask_new(const struct pdb_sel *sel, const struct pdb *db)
{
	unsigned char *mask;
	uint32_t i;

	if ((mask = pdbi_malloc(db->nccs ? db->nccs : 1)) == NULL)
		return NULL;
	for (i = 0; i < db->nccs; i++)
		mask[i] = (unsigned char)pdb_sel_match(sel, db, i);
	if (db->nnodes > 0)
		mask[db->nodes[0].cc] = 1;
	return mask;
}
