/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The flat/inherited sink against the definitions of Morgan & Jarvis 2.3
 * evaluated literally, stack by stack, on seeded random profiles whose
 * paths repeat cost centres (as uncompressed Clean profiles do).
 */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "pdb.h"
#include "testutil.h"

#define NCC	12
#define NNODES	400

static struct pdb *
random_profile(unsigned long seed)
{
	return random_recursive_profile(seed, NCC, NNODES);
}

/* COST and INHERITED_COST evaluated from each node's stack. */
static void
brute_force(struct pdb *db, const unsigned char *sel, int64_t *flat,
    int64_t *inh)
{
	uint32_t n, k, path[NNODES], depth, cc, i;
	int onstack[NCC];
	unsigned m;

	memset(flat, 0, sizeof(int64_t) * NCC * 2);
	memset(inh, 0, sizeof(int64_t) * NCC * 2);
	for (n = 0; n < pdb_node_count(db); n++) {
		const int64_t *v = pdb_node_values(db, n);

		depth = 0;
		for (k = n; k != PDB_NONE; k = pdb_node_parent(db, k))
			path[depth++] = pdb_node_cc(db, k);	/* top first */
		for (m = 0; m < 2; m++) {
			int64_t val = v[m];

			if (m == 1 && !sel[path[0]])
				val = 0;	/* counts die with their cc */
			for (i = 0; i < depth; i++)
				if (sel[path[i]]) {
					flat[path[i] * 2 + m] += val;
					break;
				}
			memset(onstack, 0, sizeof(onstack));
			for (i = 0; i < depth; i++) {
				cc = path[i];
				if (sel[cc] && !onstack[cc])
					inh[cc * 2 + m] += val;
				onstack[cc] = 1;
			}
		}
	}
}

static void
check(unsigned long seed, const char *pat)
{
	struct pdb *db = random_profile(seed);
	struct pdb_sel *sel = pdb_sel_new();
	struct pdb_flat *f;
	int64_t flat[NCC * 2], inh[NCC * 2];
	unsigned char *mask;
	uint32_t cc;
	unsigned m;

	if (pat != NULL)
		cr_assert(pdb_sel_add(sel, 0, pat) == PDB_OK);
	mask = pdb_sel_mask_new(sel, db);
	f = pdb_flat_new(sel);
	cr_assert(pdb_replay(db, pdb_flat_sink(f)) == PDB_OK);
	brute_force(db, mask, flat, inh);
	for (cc = 0; cc < NCC; cc++) {
		if (!mask[cc])
			continue;
		for (m = 0; m < 2; m++) {
			cr_assert_eq(pdb_flat_self(f, cc, m), flat[cc * 2 + m],
			    "seed %lu -d %s: self of f%u, metric %u", seed,
			    pat ? pat : "-", cc, m);
			cr_assert_eq(pdb_flat_inherited(f, cc, m),
			    inh[cc * 2 + m], "seed %lu: inherited of f%u", seed,
			    cc);
		}
	}
	/* Inherited of the root is the total. */
	for (m = 0; m < 2; m++)
		cr_assert_eq(pdb_flat_inherited(f, 0, m), pdb_flat_total(f, m));
	pdb_flat_free(f);
	free(mask);
	pdb_sel_free(sel);
	pdb_free(db);
}

Test(flat, random_profiles_match_the_definitions)
{
	unsigned long seed;

	for (seed = 1; seed <= 200; seed++) {
		check(seed, NULL);
		check(seed, "f[1-4]");
		check(seed, "M.f1*");
	}
}

Test(flat, selection_is_a_set)
{
	struct pdb *db = random_profile(7);
	struct pdb_sel *a = pdb_sel_new(), *b = pdb_sel_new();
	unsigned char *ma, *mb;

	pdb_sel_add(a, 1, "f[1-6]");
	pdb_sel_add(a, 0, "f3");
	pdb_sel_add(a, 1, "f9");
	pdb_sel_add(b, 0, "f3");
	pdb_sel_add(b, 1, "f9");
	pdb_sel_add(b, 1, "f[1-6]");
	ma = pdb_sel_mask_new(a, db);
	mb = pdb_sel_mask_new(b, db);
	cr_assert(memcmp(ma, mb, NCC) == 0);
	cr_assert(ma[0], "the root is always selected");
	cr_assert(!ma[3] && ma[2] && ma[9] && !ma[10]);
	free(ma);
	free(mb);
	pdb_sel_free(a);
	pdb_sel_free(b);
	pdb_free(db);
}

/*
 * A pattern without *, ?, [ or \ is looked up as a name, not matched by
 * fnmatch(): every mix of such names, as labels or as Module.label,
 * selected and de-selected beside globs, selects what the same names
 * written as globs ("f3" as "f[3]") select.
 */
Test(flat, literal_patterns_select_as_globs_do)
{
	struct pdb *db = random_profile(11);
	struct pdb_sel *lit, *glob;
	unsigned char *ml, *mg;
	char name[64], asglob[80];
	unsigned round, k, cc, sel;
	int deselected = 0, selected = 0;

	srand(5);
	for (round = 0; round < 300; round++) {
		lit = pdb_sel_new();
		glob = pdb_sel_new();
		cr_assert(lit != NULL && glob != NULL);
		for (k = 0; k < 1 + (unsigned)rand() % 6; k++) {
			cc = (unsigned)rand() % (NCC + 1);
			sel = (unsigned)rand() % 2;
			if (cc == NCC)
				snprintf(name, sizeof(name), "nosuch");
			else if (rand() % 2)
				snprintf(name, sizeof(name), "%s",
				    pdb_cc_fullname(db, cc));
			else
				snprintf(name, sizeof(name), "%s",
				    pdb_cc_label(db, cc));
			/* The last character as a bracket expression. */
			snprintf(asglob, sizeof(asglob), "%.*s[%c]",
			    (int)strlen(name) - 1, name,
			    name[strlen(name) - 1]);
			cr_assert_eq(pdb_sel_add(lit, (int)sel, name), PDB_OK);
			cr_assert_eq(pdb_sel_add(glob, (int)sel, asglob),
			    PDB_OK);
			if (rand() % 4 == 0) {
				cr_assert_eq(pdb_sel_add(lit, 1, "f1*"), PDB_OK);
				cr_assert_eq(pdb_sel_add(glob, 1, "f1*"),
				    PDB_OK);
			}
		}
		ml = pdb_sel_mask_new(lit, db);
		mg = pdb_sel_mask_new(glob, db);
		cr_assert(ml != NULL && mg != NULL);
		cr_expect(memcmp(ml, mg, NCC) == 0, "round %u", round);
		for (cc = 0; cc < NCC; cc++) {
			selected += ml[cc];
			deselected += !ml[cc];
		}
		free(ml);
		free(mg);
		pdb_sel_free(lit);
		pdb_sel_free(glob);
	}
	/* Both answers came up many times. */
	cr_expect(selected > 300 && deselected > 300, "%d %d", selected,
	    deselected);
	pdb_free(db);
}
