/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The names of modules and cost centres, kept together in blocks
 * (libprofdb/strings.c): every name reads back as it was given, however
 * many there are and however long, and running out of memory on one
 * leaves the names before it as they were.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdb.h"

/* libprofdb's test hook: the n-th allocation from now fails. */
void	pdb_test_fail_alloc_at(unsigned long n);

/* Name i: short ones, and now and then one longer than a block. */
static char *
name(unsigned i, const char *what)
{
	size_t len = i % 97 == 0 ? 70000 + i : 1 + i % 40, k;
	char *s = malloc(len + 32);

	cr_assert_not_null(s);
	k = (size_t)snprintf(s, len + 32, "%s%u:", what, i);
	for (; k < len + 16; k++)
		s[k] = (char)('a' + (i + k) % 26);
	s[k] = '\0';
	return s;
}

static void
check_names(const struct pdb *db, unsigned n)
{
	struct pdb_cc c;
	unsigned i;
	char *want;

	for (i = 0; i < n; i++) {
		pdb_cc(db, i, &c);
		want = name(i, "cc");
		cr_assert_str_eq(c.label, want, "label of %u", i);
		free(want);
		want = name(i, "mod");
		cr_assert_str_eq(c.module, want, "module of %u", i);
		free(want);
		cr_assert_str_eq(c.src, i % 3 ? "" : "file.c:1", "src of %u", i);
	}
}

static void
add(struct pdb *db, unsigned i, int expect)
{
	char *label = name(i, "cc"), *mod = name(i, "mod");
	uint32_t m, cc;
	int rc;

	rc = pdb_module_add(db, mod, &m);
	if (rc == PDB_OK)
		rc = pdb_cc_add(db, label, m, i % 3 ? "" : "file.c:1", 0, -1,
		    &cc);
	cr_assert_eq(rc, expect, "adding %u: %s", i, pdb_errmsg(db));
	if (rc == PDB_OK)
		cr_assert_eq(cc, i);
	free(label);
	free(mod);
}

Test(strings, every_name_reads_back)
{
	struct pdb *db = pdb_new();
	unsigned i;

	cr_assert_not_null(db);
	/* Some 1 MB of names: many blocks, and long names in their own. */
	for (i = 0; i < 5000; i++)
		add(db, i, PDB_OK);
	check_names(db, 5000);
	pdb_free(db);
}

Test(strings, out_of_memory_keeps_the_names_before)
{
	unsigned long at;
	unsigned i, done = 0;

	/*
	 * Fail each allocation in turn while a profile takes its 300
	 * names: the one that fails is reported, the ones before still
	 * read back, and pdb_free() frees everything (the leak checkers
	 * of make check SAN=1 and valgrind look).
	 */
	for (at = 1; !done; at++) {
		struct pdb *db = pdb_new();

		cr_assert_not_null(db);
		pdb_test_fail_alloc_at(at);
		for (i = 0; i < 300; i++) {
			char *label = name(i, "cc"), *mod = name(i, "mod");
			uint32_t m, cc;
			int rc;

			rc = pdb_module_add(db, mod, &m);
			if (rc == PDB_OK)
				rc = pdb_cc_add(db, label, m, i % 3 ? "" :
				    "file.c:1", 0, -1, &cc);
			free(label);
			free(mod);
			if (rc != PDB_OK) {
				cr_assert_eq(rc, PDB_ENOMEM);
				break;
			}
		}
		pdb_test_fail_alloc_at(0);
		done = i == 300;
		check_names(db, pdb_cc_count(db));
		/* After a failure between the module and its cost centre
		 * the numbers no longer pair up; otherwise adding goes on. */
		if (pdb_module_count(db) == pdb_cc_count(db)) {
			for (i = pdb_cc_count(db); i < 310; i++)
				add(db, i, PDB_OK);
			check_names(db, 310);
		}
		pdb_free(db);
	}
	cr_assert_gt(at, 10, "allocations failed: %lu", at);
}
