/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * pdb_cc_intern() and pdb_module_intern(): a cost centre is found again
 * by its label, module and source; a module is the first of its name,
 * whether added before the first intern, by an intern, or by
 * pdb_module_add() after it.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

#include "pdb.h"

/* The name of cost centre cc's module. */
static const char *
module_of(const struct pdb *db, uint32_t cc)
{
	struct pdb_cc c;

	pdb_cc(db, cc, &c);
	return c.module;
}

static uint32_t
module_index_of(const struct pdb *db, uint32_t cc)
{
	struct pdb_cc c;

	pdb_cc(db, cc, &c);
	return c.module_index;
}

Test(intern, the_first_module_of_a_name)
{
	struct pdb *db = pdb_new();
	uint32_t m, a2, z, f, g, h, again;

	cr_assert_not_null(db);
	cr_assert_eq(pdb_module_add(db, "A", &m), PDB_OK);
	cr_assert_eq(pdb_module_add(db, "B", &m), PDB_OK);
	cr_assert_eq(pdb_module_add(db, "A", &a2), PDB_OK);
	cr_assert_eq(a2, 2);
	cr_assert_eq(pdb_cc_intern(db, "f", "A", "", 0, &f), PDB_OK);
	cr_assert_eq(module_index_of(db, f), 0, "the first A");
	cr_assert_eq(pdb_cc_intern(db, "g", "C", "", 0, &g), PDB_OK);
	cr_assert_eq(module_index_of(db, g), 3, "a new module");
	cr_assert_eq(pdb_module_count(db), 4);
	/* Added after the first intern: found by the next one. */
	cr_assert_eq(pdb_module_add(db, "Z", &z), PDB_OK);
	cr_assert_eq(pdb_module_add(db, "A", &m), PDB_OK);
	cr_assert_eq(pdb_cc_intern(db, "z", "Z", "", 0, &h), PDB_OK);
	cr_assert_eq(module_index_of(db, h), z);
	cr_assert_eq(pdb_cc_intern(db, "h", "A", "", 0, &h), PDB_OK);
	cr_assert_eq(module_index_of(db, h), 0, "still the first A");
	cr_assert_eq(pdb_module_count(db), 6);
	cr_assert_eq(pdb_cc_intern(db, "f", "A", "", 0, &again), PDB_OK);
	cr_assert_eq(again, f);
	/* The modules alone, as the GHC JSON readers ask for them. */
	cr_assert_eq(pdb_module_intern(db, "A", &m), PDB_OK);
	cr_assert_eq(m, 0);
	cr_assert_eq(pdb_module_intern(db, "Q", &m), PDB_OK);
	cr_assert_eq(m, 6);
	cr_assert_eq(pdb_module_intern(db, "Q", &again), PDB_OK);
	cr_assert_eq(again, 6);
	cr_assert_eq(pdb_module_count(db), 7);
	pdb_free(db);
}

/* Many modules, each interned twice: one module and one cost centre a
 * name, and every cost centre in its own module. */
Test(intern, many_modules)
{
	struct pdb *db = pdb_new();
	char mod[32], label[32];
	uint32_t cc, again;
	int i;

	cr_assert_not_null(db);
	for (i = 0; i < 20000; i++) {
		snprintf(mod, sizeof(mod), "Mod%d.Cls", i);
		snprintf(label, sizeof(label), "f%d", i % 97);
		cr_assert_eq(pdb_cc_intern(db, label, mod, "", 0, &cc), PDB_OK);
		cr_assert_eq(cc, (uint32_t)i);
		cr_assert_str_eq(module_of(db, cc), mod);
	}
	cr_assert_eq(pdb_module_count(db), 20000);
	for (i = 0; i < 20000; i++) {
		snprintf(mod, sizeof(mod), "Mod%d.Cls", i);
		snprintf(label, sizeof(label), "f%d", i % 97);
		cr_assert_eq(pdb_cc_intern(db, label, mod, "", 0, &again),
		    PDB_OK);
		cr_assert_eq(again, (uint32_t)i);
	}
	cr_assert_eq(pdb_module_count(db), 20000);
	cr_assert_eq(pdb_cc_count(db), 20000);
	pdb_free(db);
}

/* A synthetic cost centre and a real one of the same names are two. */
Test(intern, synthetic_apart_from_real)
{
	struct pdb *db = pdb_new();
	uint32_t syn, real, again;

	cr_assert_not_null(db);
	cr_assert_eq(pdb_cc_intern(db, "(root)", "", "", PDB_CC_SYNTHETIC,
	    &syn), PDB_OK);
	cr_assert_eq(pdb_cc_intern(db, "(root)", "", "", 0, &real), PDB_OK);
	cr_assert_neq(real, syn);
	cr_assert_eq(pdb_cc_flags(db, real) & PDB_CC_SYNTHETIC, 0);
	cr_assert_eq(pdb_cc_intern(db, "(root)", "", "", PDB_CC_SYNTHETIC,
	    &again), PDB_OK);
	cr_assert_eq(again, syn);
	cr_assert_eq(pdb_cc_intern(db, "(root)", "", "", 0, &again), PDB_OK);
	cr_assert_eq(again, real);
	cr_assert_eq(pdb_cc_count(db), 2);
	pdb_free(db);
}
