/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-convert --compress, run as a built binary: on the Clean profile,
 * whose paths repeat cost centres, no path repeats one afterwards, fewer
 * stacks have a cost of their own (the tree itself grows: see below),
 * and ccs-flat (self and inherited, every metric, counts included) is
 * unchanged; compressing twice is compressing once; the
 * paper's s2.4 example, uncompressed in a tree kept as built, becomes the
 * compressed one; GHC profiles, compressed already, do not change.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats_int.h"
#include "testutil.h"
#include "toolcheck.h"
#include "pipecheck.h"

/* ---- options ---- */

Test(ccs_convert_compress, help_lists_it)
{
	struct run r;

	run_ok(&r, "ccs-convert --help | grep -c -- '--compress'");
	cr_expect_str_eq(r.out, "2\n");	/* the usage line and the option */
	run_free(&r);
}

Test(ccs_convert_compress, bad_usage)
{
	check_bad_usage("ccs-convert", "--compress=yes -t dump " PGCL);
	check_bad_usage("ccs-convert", "--compress " PGCL);
	check_bad_usage("ccs-convert", "--compress -t dump " PGCL " " FIG7);
}

Test(ccs_convert_compress, missing_file)
{
	check_missing_file("ccs-convert --compress -t dump", "ccs-convert");
}

/* ---- the tree, through the library ---- */

/*
 * How many nodes have their own cost centre further down their path.
 * An explicit stack of per-cost-centre counts along the current path.
 */
static uint64_t
repeats(const struct pdb *db)
{
	uint32_t *path = NULL, *on, n, d, k, depth = 0;
	size_t cap = 0;
	uint64_t r = 0;

	on = calloc((size_t)pdb_cc_count(db) + 1, sizeof(*on));
	cr_assert(on != NULL);
	for (n = pdb_walk_first(db, &d); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &d)) {
		/* Leave the levels at or below d. */
		for (k = depth; k > d; k--)
			on[pdb_node_cc(db, path[k - 1])]--;
		if ((size_t)d + 1 > cap) {
			cap = 2 * ((size_t)d + 1);
			cr_assert((path = realloc(path, cap * sizeof(*path))) !=
			    NULL);
		}
		path[d] = n;
		if (on[pdb_node_cc(db, n)]++ > 0)
			r++;
		depth = d + 1;
	}
	free(path);
	free(on);
	return r;
}

/* How many nodes have an inclusive value of zero in every metric. */
static uint64_t
costless(const struct pdb *db)
{
	int64_t *inc = pdb_inclusive_new(db);
	unsigned nm = pdb_metric_count(db), m;
	uint64_t z = 0;
	uint32_t n;

	cr_assert(inc != NULL);
	for (n = 0; n < pdb_node_count(db); n++) {
		for (m = 0; m < nm; m++)
			if (inc[(size_t)n * nm + m] != 0)
				break;
		z += m == nm;
	}
	free(inc);
	return z;
}

/* A repeats() that can fail: a hand-made path a;b;a has one repeat. */
Test(ccs_convert_compress, repeats_counts)
{
	struct pdb *db = pdb_new();
	uint32_t mod, a, b, n;
	unsigned m;

	cr_assert(db != NULL);
	cr_assert_eq(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m), 0);
	cr_assert_eq(pdb_module_add(db, "", &mod), 0);
	cr_assert_eq(pdb_cc_add(db, "a", mod, "", 0, -1, &a), 0);
	cr_assert_eq(pdb_cc_add(db, "b", mod, "", 0, -1, &b), 0);
	cr_assert_eq(pdb_root_new(db, a, &n), 0);
	cr_assert_eq(pdb_node_append(db, n, b, &n), 0);
	cr_assert_eq(pdb_node_append(db, n, a, &n), 0);
	cr_assert_eq(pdb_node_append(db, 0, b, &n), 0);
	cr_expect_eq(repeats(db), 1);
	pdb_free(db);
}

/* ---- the Clean profile ---- */

Test(ccs_convert_compress, pgcl, .timeout = 60)
{
	static const char *const metrics[] = { "ticks", "words",
	    "tail_returns", "strict_calls", "lazy_calls", "curried_calls" };
	struct pdb *orig, *comp;
	struct run r;
	char *dump = write_temp("", 0, ".ccsdump"), *a, *b;
	size_t i;

	run_ok(&r, "ccs-convert --compress -t dump -o %s " PGCL, dump);
	cr_expect_str_empty(r.out);
	run_free(&r);
	orig = load_tree(PGCL);
	comp = load_tree(dump);
	cr_expect_gt(repeats(orig), 0, "the fixture has no repeats to compress");
	cr_expect_eq(repeats(comp), 0, "%llu repeats left",
	    (unsigned long long)repeats(comp));
	/*
	 * The tree need not shrink: taking out an inner occurrence moves a
	 * stack under a new prefix (R;a;b;a;c becomes R;b;a;c), so the
	 * compressed tree of this profile has 787 nodes for 400.  Push makes
	 * no stray stacks, though: every node is on the way to some cost,
	 * as every node of the original is.
	 */
	cr_expect_eq(costless(orig), 0);
	cr_expect_eq(costless(comp), 0);
	pdb_free(orig);
	pdb_free(comp);
	/* What shrinks is the number of stacks with a cost of their own. */
	{
		char *x = output_of("ccs-stacks -m ticks " PGCL " | wc -l");
		char *y = output_of("ccs-convert --compress -t dump " PGCL
		    " | ccs-stacks -m ticks | wc -l");

		cr_expect_lt(atoi(y), atoi(x), "%d stacks, %d compressed",
		    atoi(x), atoi(y));
		cr_expect_eq(atoi(x), 231);
		free(x);
		free(y);
	}

	/* ccs-flat: self and inherited of every metric, row for row. */
	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		char c1[256], c2[256];

		snprintf(c1, sizeof(c1), "ccs-flat --tsv -m %s " PGCL,
		    metrics[i]);
		snprintf(c2, sizeof(c2), "ccs-flat --tsv -m %s %s", metrics[i],
		    dump);
		same_output(c1, c2);
		snprintf(c2, sizeof(c2), "ccs-convert --compress -t dump " PGCL
		    " | ccs-flat --tsv -m %s -", metrics[i]);
		same_output(c1, c2);
	}
	/* The expected answers of the corpus, too. */
	a = output_of("ccs-flat --tsv -m strict_calls " PGCL);
	b = slurp("tests/data/pgcl/synthetic-400.flat-strict_calls.tsv", NULL);
	cr_assert(b != NULL);
	free(a);
	a = output_of("ccs-convert --compress -t dump " PGCL
	    " | ccs-flat --tsv -m strict_calls");
	cr_expect_str_eq(a, b);
	free(a);
	free(b);

	/* Once is enough: compressing again changes nothing. */
	same_output("ccs-convert --compress -t dump " PGCL
	    " | ccs-convert -t folded -m words -",
	    "ccs-convert --compress -t dump " PGCL
	    " | ccs-convert --compress -t dump | ccs-convert -t folded -m words");
	/* And the compressed profile can be written as pgcl. */
	same_output("ccs-flat --tsv -m words " PGCL,
	    "ccs-convert --compress -t pgcl -F " PGCL " | ccs-flat --tsv -m words");
	unlink(dump);
	free(dump);
}

/* The repeats are gone from the folded stacks, by name too. */
Test(ccs_convert_compress, pgcl_stacks)
{
	struct run r;

	run_ok(&r, "ccs-stacks " PGCL " | awk '{ n = split($1, f, \";\");"
	    " delete s; for (i = 1; i <= n; i++) if (s[f[i]]++) { print; next } }'"
	    " | wc -l");
	cr_expect_neq(atoi(r.out), 0, "no repeated frame before compressing");
	run_free(&r);
	run_ok(&r, "ccs-convert --compress -t dump " PGCL " | ccs-stacks |"
	    " awk '{ n = split($1, f, \";\");"
	    " delete s; for (i = 1; i <= n; i++) if (s[f[i]]++) { print; next } }'");
	cr_expect_str_empty(r.out);
	run_free(&r);
}

/* ---- the paper's s2.4 example ---- */

/*
 * {<a> 3, <b,a> 7, <a,b,a> 1}, written as a tree kept as built (a dump):
 * under a made-up root, a (3) -> b (7) -> a (1).  Compressed, <a,b,a> is
 * <a,b>: the stack b;a of s2.4-compressed.folded.
 */
Test(ccs_convert_compress, s2_4)
{
	struct pdb_opts o;
	struct pdb *db = pdb_new();
	struct run r, c;
	uint32_t mod, root, a, b, n;
	unsigned m;
	char *dump = write_temp("", 0, ".ccsdump");
	FILE *f;

	memset(&o, 0, sizeof(o));
	cr_assert(db != NULL);
	cr_assert_eq(pdb_metric_add(db, "samples", "samples", PDB_COST, 0, &m),
	    0);
	cr_assert_eq(pdb_module_add(db, "", &mod), 0);
	cr_assert_eq(pdb_cc_add(db, "(root)", mod, "", PDB_CC_SYNTHETIC, -1,
	    &root), 0);
	cr_assert_eq(pdb_cc_add(db, "a", mod, "", 0, -1, &a), 0);
	cr_assert_eq(pdb_cc_add(db, "b", mod, "", 0, -1, &b), 0);
	cr_assert_eq(pdb_root_new(db, root, &n), 0);
	cr_assert_eq(pdb_node_append(db, n, a, &n), 0);
	pdb_node_set_value(db, n, 0, 3);
	cr_assert_eq(pdb_node_append(db, n, b, &n), 0);
	pdb_node_set_value(db, n, 0, 7);
	cr_assert_eq(pdb_node_append(db, n, a, &n), 0);
	pdb_node_set_value(db, n, 0, 1);
	cr_assert((f = fopen(dump, "wb")) != NULL);
	cr_assert_eq(pdb_write(db, f, &pdb_fmt_ccsdump, &o), 0, "%s",
	    pdb_errmsg(db));
	cr_assert_eq(fclose(f), 0);
	pdb_free(db);

	run_ok(&r, "ccs-convert -t folded %s", dump);
	cr_expect_str_eq(r.out, "a 3\na;b 7\na;b;a 1\n");
	run_free(&r);
	run_ok(&r, "ccs-convert --compress -t folded %s", dump);
	cr_expect_str_eq(r.out, "a 3\na;b 7\nb;a 1\n");
	run_ok(&c, "ccs-convert -t folded " COMPRESSED);
	cr_expect_str_eq(r.out, c.out);
	run_free(&c);
	/* The folded files themselves: compressed either way. */
	run_ok(&c, "ccs-convert --compress -t folded " UNCOMPRESSED);
	cr_expect_str_eq(c.out, r.out);
	run_free(&c);
	run_free(&r);
	/* Flat a=4 b=7, inherited a=11 b=8 before and after. */
	run_ok(&r, "ccs-flat --tsv %s", dump);
	cr_expect_str_eq(r.out, "module\tcost_centre\tsrc\tself\tinherited\n"
	    "\tb\t\t7\t8\n\ta\t\t4\t11\n");
	run_ok(&c, "ccs-convert --compress -t dump %s | ccs-flat --tsv", dump);
	cr_expect_str_eq(c.out, r.out);
	run_free(&c);
	run_free(&r);
	unlink(dump);
	free(dump);
}

/* ---- GHC: compressed already ---- */

Test(ccs_convert_compress, ghc_unchanged)
{
	static const char *const files[] = { GHC_P, GHC_P2, GHC_P3 };
	char c1[256], c2[256];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(c1, sizeof(c1), "ccs-tree --tsv -m alloc %s", files[i]);
		snprintf(c2, sizeof(c2), "ccs-convert --compress -t dump %s | "
		    "ccs-tree --tsv -m alloc", files[i]);
		same_output(c1, c2);
		snprintf(c1, sizeof(c1), "ccs-convert -t dump %s | "
		    "ccs-stacks --all -m entries", files[i]);
		snprintf(c2, sizeof(c2), "ccs-convert --compress -t dump %s | "
		    "ccs-stacks --all -m entries", files[i]);
		same_output_and_warnings(c1, c2);
	}
}
