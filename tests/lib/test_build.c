/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The tree builder with a selection (pdb_builder_select()): the tree it
 * builds is, node for node and number for number, the projection that a
 * walk of the whole tree makes (ref_project(), the definition: each node
 * in pre-order through Push), both for the events of a raw tree, which it
 * projects as they come, and for events that merge into stacks made
 * earlier (PDB_BUILD_PUSH), which it projects at the end.  Allocation
 * failures give PDB_ENOMEM, or the same tree, and leak nothing.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "pdb.h"
#include "testutil.h"

#define NCC	12
#define NSEEDS	200

static unsigned long rng;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng >> 33) % n);
}

/*
 * The projection by its definition: a pre-order walk, each node's image
 * its parent's with the node's cost centre pushed when selected; count
 * metrics of de-selected cost centres are dropped.
 */
static struct pdb *
ref_project(struct pdb *db, const struct pdb_sel *sel)
{
	struct pdb *out = pdb_clone_empty(db);
	unsigned char *mask = pdb_sel_mask_new(sel, db);
	uint32_t nn = pdb_node_count(db), *image, n, root;
	unsigned m, nm = pdb_metric_count(db);
	int64_t v[8];

	cr_assert(out != NULL && mask != NULL && nm <= 8);
	cr_assert((image = calloc(nn, sizeof(*image))) != NULL);
	cr_assert(pdb_root_new(out, pdb_node_cc(db, 0), &root) == PDB_OK);
	image[0] = root;
	cr_assert(pdb_node_add_values(out, root, pdb_node_values(db, 0)) ==
	    PDB_OK);
	for (n = pdb_walk_next(db, 0, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL)) {
		uint32_t cc = pdb_node_cc(db, n), p;

		p = image[pdb_node_parent(db, n)];
		if (mask[cc])
			cr_assert(pdb_push(out, p, cc, &image[n]) == PDB_OK);
		else
			image[n] = p;
		for (m = 0; m < nm; m++)
			v[m] = pdb_metric(db, m)->kind == PDB_COUNT &&
			    !mask[cc] ? 0 : pdb_node_value(db, n, m);
		cr_assert(pdb_node_add_values(out, image[n], v) == PDB_OK);
	}
	free(image);
	free(mask);
	return out;
}

/* Node for node, number for number. */
static void
assert_same_tree(const struct pdb *a, const struct pdb *b, const char *what)
{
	uint32_t n;
	unsigned m;

	cr_assert_eq(pdb_node_count(a), pdb_node_count(b), "%s: %u nodes, "
	    "not %u", what, pdb_node_count(a), pdb_node_count(b));
	for (n = 0; n < pdb_node_count(a); n++) {
		cr_assert_eq(pdb_node_cc(a, n), pdb_node_cc(b, n), "%s: node %u",
		    what, n);
		cr_assert_eq(pdb_node_parent(a, n), pdb_node_parent(b, n),
		    "%s: parent of node %u", what, n);
		cr_assert_eq(pdb_node_first_child(a, n),
		    pdb_node_first_child(b, n), "%s: child of node %u", what, n);
		cr_assert_eq(pdb_node_next_sibling(a, n),
		    pdb_node_next_sibling(b, n), "%s: sibling of node %u", what,
		    n);
		for (m = 0; m < pdb_metric_count(a); m++)
			cr_assert_eq(pdb_node_value(a, n, m),
			    pdb_node_value(b, n, m), "%s: node %u, metric %u",
			    what, n, m);
	}
}

/* A handle with the schema of the tests: ticks, words, calls. */
static struct pdb *
schema(void)
{
	struct pdb *db = pdb_new();
	uint32_t mod[2], cc;
	char name[16];
	unsigned i;

	cr_assert(db != NULL);
	cr_assert(pdb_module_add(db, "A", &mod[0]) == PDB_OK);
	cr_assert(pdb_module_add(db, "B", &mod[1]) == PDB_OK);
	for (i = 0; i < NCC; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		cr_assert(pdb_cc_add(db, name, mod[i % 2], "", 0, i, &cc) ==
		    PDB_OK);
	}
	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, NULL) == 0);
	cr_assert(pdb_metric_add(db, "words", "words", PDB_COST, 0, NULL) == 0);
	cr_assert(pdb_metric_add(db, "calls", "calls", PDB_COUNT, 0, NULL) ==
	    0);
	return db;
}

static void
rnd_values(int64_t *v)
{
	v[0] = rnd(3) == 0 ? 0 : (int64_t)rnd(300);
	v[1] = rnd(3) == 0 ? 0 : (int64_t)rnd(100000) -
	    (rnd(8) == 0 ? 300000 : 0);
	v[2] = rnd(20);
}

/*
 * Random events: nstacks paths from the root f0, each entered from the
 * root and left again, the way a folded file is read, so that later
 * paths revisit stacks made earlier.
 */
static int
stream_paths(const struct pdb_sink *sink, struct pdb *db, unsigned nstacks)
{
	uint32_t path[40];
	int64_t v[3];
	unsigned i, d, len, keep = 0;
	int rc;

	for (i = 0; i < nstacks; i++) {
		/* Share a prefix with the stack before, as files do. */
		keep = i == 0 ? 0 : rnd(keep + 1);
		len = keep + 1 + rnd(8);
		path[0] = 0;
		for (d = keep > 0 ? keep : 1; d < len; d++)
			path[d] = rnd(NCC);
		for (d = 0; d < len; d++) {
			if (d + 1 == len)
				rnd_values(v);
			else
				v[0] = v[1] = v[2] = 0;
			if ((rc = sink->enter(sink->arg, db, path[d], v)) != 0)
				return rc;
		}
		for (d = 0; d < len; d++)
			if ((rc = sink->exit(sink->arg, db)) != 0)
				return rc;
		keep = len;
	}
	return sink->end != NULL ? sink->end(sink->arg, db) : 0;
}

static struct pdb_sel *
rnd_sel(char *desc, size_t len)
{
	static const char *const pool[] = { "f1", "f[2-4]", "A.*", "B.f7",
	    "*8", "f9", "B.*", "f0", "f1?" };
	struct pdb_sel *sel = pdb_sel_new();
	unsigned k, n = rnd(4);
	const char *pat;
	int s;

	cr_assert(sel != NULL);
	desc[0] = '\0';
	for (k = 0; k < n; k++) {
		s = rnd(3) == 0;
		pat = pool[rnd(sizeof(pool) / sizeof(pool[0]))];
		cr_assert(pdb_sel_add(sel, s, pat) == PDB_OK);
		snprintf(desc + strlen(desc), len - strlen(desc), " -%c '%s'",
		    s ? 's' : 'd', pat);
	}
	return sel;
}

/* A raw tree replayed into a selecting builder: projected as it comes. */
Test(build, raw_events_projected_as_they_come)
{
	unsigned long seed;
	char desc[128], what[192];

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct pdb *db = random_recursive_profile(seed, 6 + seed % 7,
		    1 + (unsigned)(seed * 37 % 900));
		struct pdb *out, *ref;
		struct pdb_builder *b;
		struct pdb_sel *sel;

		rng = seed;
		sel = rnd_sel(desc, sizeof(desc));
		snprintf(what, sizeof(what), "seed %lu:%s", seed, desc);
		ref = ref_project(db, sel);
		cr_assert((out = pdb_clone_empty(db)) != NULL);
		cr_assert((b = pdb_builder_new(out, PDB_BUILD_RAW)) != NULL);
		pdb_builder_select(b, sel);
		cr_assert(pdb_replay(db, pdb_builder_sink(b)) == PDB_OK, "%s: %s",
		    what, pdb_errmsg(out));
		assert_same_tree(out, ref, what);
		pdb_builder_free(b);
		pdb_free(out);
		pdb_free(ref);
		pdb_sel_free(sel);
		pdb_free(db);
	}
}

/* Events merging into earlier stacks: built, then projected at the end. */
Test(build, merging_events_projected_at_the_end)
{
	unsigned long seed;
	char desc[128], what[192];

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct pdb *whole = schema(), *out = schema(), *ref;
		struct pdb_builder *bw, *bo;
		struct pdb_sel *sel;
		unsigned nstacks;

		rng = seed;
		sel = rnd_sel(desc, sizeof(desc));
		snprintf(what, sizeof(what), "seed %lu:%s", seed, desc);
		nstacks = 1 + rnd(200);
		cr_assert((bw = pdb_builder_new(whole, PDB_BUILD_PUSH)) != NULL);
		cr_assert((bo = pdb_builder_new(out, PDB_BUILD_PUSH)) != NULL);
		pdb_builder_select(bo, sel);
		rng = seed * 7919;
		cr_assert(stream_paths(pdb_builder_sink(bw), whole, nstacks) ==
		    0, "%s: %s", what, pdb_errmsg(whole));
		rng = seed * 7919;
		cr_assert(stream_paths(pdb_builder_sink(bo), out, nstacks) == 0,
		    "%s: %s", what, pdb_errmsg(out));
		ref = ref_project(whole, sel);
		assert_same_tree(out, ref, what);
		pdb_builder_free(bw);
		pdb_builder_free(bo);
		pdb_free(whole);
		pdb_free(out);
		pdb_free(ref);
		pdb_sel_free(sel);
	}
}

/* Without a selection, the projection is the compressed tree. */
Test(build, select_null_compresses)
{
	struct pdb *db = random_recursive_profile(5, 4, 500), *out, *ref;
	struct pdb_builder *b;

	ref = ref_project(db, NULL);
	cr_assert((out = pdb_clone_empty(db)) != NULL);
	cr_assert((b = pdb_builder_new(out, PDB_BUILD_RAW)) != NULL);
	pdb_builder_select(b, NULL);
	cr_assert(pdb_replay(db, pdb_builder_sink(b)) == PDB_OK);
	assert_same_tree(out, ref, "compress");
	cr_assert_lt(pdb_node_count(out), pdb_node_count(db));
	pdb_builder_free(b);
	pdb_free(out);
	pdb_free(ref);
	pdb_free(db);
}

/*
 * The selecting builder reading a file, with the n-th allocation failing
 * for every n: PDB_ENOMEM, or exactly the tree of a run without failures.
 */
static struct pdb *
read_selected(const char *path, const struct pdb_sel *sel, int *rc)
{
	struct pdb *db;
	struct pdb_builder *b;

	if ((db = pdb_new()) == NULL) {
		*rc = PDB_ENOMEM;
		return NULL;
	}
	if ((b = pdb_builder_new(db, PDB_BUILD_RAW)) == NULL) {
		*rc = PDB_ENOMEM;
		pdb_free(db);
		return NULL;
	}
	pdb_builder_select(b, sel);
	/* The readers of these files build raw trees. */
	*rc = pdb_read_stream(db, path, NULL, NULL, pdb_builder_sink(b), NULL);
	pdb_builder_free(b);
	if (*rc != PDB_OK) {
		cr_assert(*rc == PDB_ENOMEM, "%s: %s", path, pdb_errmsg(db));
		pdb_free(db);
		return NULL;
	}
	return db;
}

Test(build, every_allocation_of_a_selected_read, .timeout = 300)
{
	static const char *const files[] = {
		"tests/data/pgcl/synthetic-400.pgcl",
		"tests/data/ghc/mj.P.prof",
		"tests/data/ghc/clausify.json",
	};
	struct pdb_sel *sel = pdb_sel_new();
	struct pdb *want, *got;
	unsigned long n;
	size_t i;
	int rc;

	cr_assert(sel != NULL && pdb_sel_add(sel, 0, "*a*") == PDB_OK);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		want = read_selected(files[i], sel, &rc);
		cr_assert(want != NULL, "%s", files[i]);
		failalloc_track_begin();
		for (n = 1;; n++) {
			failalloc_arm(n);
			got = read_selected(files[i], sel, &rc);
			failalloc_arm(0);
			if (got != NULL)
				assert_same_tree(got, want, files[i]);
			pdb_free(got);
			if (!failalloc_fired())
				break;
		}
		cr_assert_eq(failalloc_track_end(), 0, "%s: leaks", files[i]);
		pdb_free(want);
	}
	pdb_sel_free(sel);
}
