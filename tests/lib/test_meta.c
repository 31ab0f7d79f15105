/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Metadata: keys keep the order they were first set in; setting a key
 * again changes its value in place, and unsetting one closes the gap.
 */
#include <criterion/criterion.h>

#include <string.h>

#include "pdb.h"

/* The keys of db in order, as "k=v,k=v". */
static void
keys(const struct pdb *db, char *buf, size_t len)
{
	const char *k, *v;
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; i < pdb_meta_count(db); i++) {
		pdb_meta_at(db, i, &k, &v);
		at += (size_t)snprintf(buf + at, len - at, "%s%s=%s",
		    i ? "," : "", k, v);
		cr_assert_lt(at, len);
	}
}

Test(meta, set_again_in_place_unset_closes_the_gap)
{
	struct pdb *db = pdb_new();
	char buf[256];

	cr_assert_not_null(db);
	cr_assert_eq(pdb_meta_set(db, "a", "1"), PDB_OK);
	cr_assert_eq(pdb_meta_set(db, "b", "2"), PDB_OK);
	cr_assert_eq(pdb_meta_set(db, "c", "3"), PDB_OK);
	cr_assert_eq(pdb_meta_set(db, "a", "4"), PDB_OK);
	keys(db, buf, sizeof(buf));
	cr_expect_str_eq(buf, "a=4,b=2,c=3");

	pdb_meta_unset(db, "b");
	keys(db, buf, sizeof(buf));
	cr_expect_str_eq(buf, "a=4,c=3");
	cr_expect_null(pdb_meta_get(db, "b"));

	pdb_meta_unset(db, "nosuch");
	pdb_meta_unset(db, "c");
	keys(db, buf, sizeof(buf));
	cr_expect_str_eq(buf, "a=4");

	/* Set again after unset: at the end. */
	cr_assert_eq(pdb_meta_set(db, "b", "5"), PDB_OK);
	pdb_meta_unset(db, "a");
	cr_assert_eq(pdb_meta_set(db, "a", "6"), PDB_OK);
	keys(db, buf, sizeof(buf));
	cr_expect_str_eq(buf, "b=5,a=6");
	pdb_free(db);
}
