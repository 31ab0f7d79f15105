/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * SELECTED: the set of selected cost centres, from select and de-select
 * glob patterns.  It is a set computed from two unordered lists, so the
 * order of options can never change the answer.
 *
 * A pattern with no *, ?, [ or \ matches only the name it spells, as
 * fnmatch(3) would find: such patterns, as a --deselect-file of
 * thousands of names holds, go in a hash table, so that a cost centre
 * costs two lookups, not a fnmatch() a pattern.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

#define LIT_SELECT	1
#define LIT_DESELECT	2

/* A literal pattern, and whether it selects, de-selects or both. */
struct lit {
	char		*name;
	unsigned	 kinds;		/* LIT_* */
};

struct pdb_sel {
	char		**pats;		/* the glob patterns */
	int		 *isselect;
	size_t		  n, cap, capsel;
	size_t		  nselect;	/* select patterns, literal or not */
	struct lit	 *lits;		/* open addressing, NULL or 2^k */
	size_t		  nlits, litcap;
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
	for (i = 0; i < sel->litcap; i++)
		free(sel->lits[i].name);
	free(sel->pats);
	free(sel->isselect);
	free(sel->lits);
	free(sel);
}

/* The slot of name in a table of cap (a power of two) slots, or of the
 * empty one where it would go. */
static size_t
lit_slot(const struct lit *lits, size_t cap, const char *name)
{
	size_t i = (size_t)pdbi_hash_bytes(name, strlen(name), 0) & (cap - 1);

	while (lits[i].name != NULL && strcmp(lits[i].name, name) != 0)
		i = (i + 1) & (cap - 1);
	return i;
}

/* The kinds of literal pattern name is, 0 for none. */
static unsigned
lit_kinds(const struct pdb_sel *sel, const char *name)
{
	return sel->litcap == 0 ? 0 :
	    sel->lits[lit_slot(sel->lits, sel->litcap, name)].kinds;
}

static int
lit_add(struct pdb_sel *sel, const char *pattern, unsigned kind)
{
	struct lit *t;
	size_t cap, i, j;

	if ((sel->nlits + 1) * 2 > sel->litcap) {
		cap = sel->litcap ? 2 * sel->litcap : 64;
		if ((t = pdbi_calloc(cap, sizeof(*t))) == NULL)
			return PDB_ENOMEM;
		for (i = 0; i < sel->litcap; i++)
			if (sel->lits[i].name != NULL) {
				j = lit_slot(t, cap, sel->lits[i].name);
				t[j] = sel->lits[i];
			}
		free(sel->lits);
		sel->lits = t;
		sel->litcap = cap;
	}
	i = lit_slot(sel->lits, sel->litcap, pattern);
	if (sel->lits[i].name == NULL) {
		if ((sel->lits[i].name = pdbi_strdup(pattern)) == NULL)
			return PDB_ENOMEM;
		sel->nlits++;
	}
	sel->lits[i].kinds |= kind;
	return PDB_OK;
}

int
pdb_sel_add(struct pdb_sel *sel, int select, const char *pattern)
{
	char *p;
	int rc;

	if (pattern == NULL)
		return PDB_EINVAL;
	if (strpbrk(pattern, "*?[\\") == NULL) {
		if ((rc = lit_add(sel, pattern, select ? LIT_SELECT :
		    LIT_DESELECT)) != PDB_OK)
			return rc;
		if (select)
			sel->nselect++;
		return PDB_OK;
	}
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
	return sel == NULL || (sel->n == 0 && sel->nlits == 0);
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
	unsigned kinds;
	int selected;
	size_t i;

	if (pdb_sel_is_trivial(sel))
		return 1;
	if (db->nnodes > 0 && db->nodes[0].cc == cc)
		return 1;
	label = pdb_cc_label(db, cc);
	full = pdb_cc_fullname(db, cc);
	kinds = lit_kinds(sel, label) | (full != label ?
	    lit_kinds(sel, full) : 0);
	if (kinds & LIT_DESELECT)
		return 0;
	selected = sel->nselect == 0 || (kinds & LIT_SELECT);
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
