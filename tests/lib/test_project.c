/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Properties of the post-processor's transformations, checked on seeded
 * random profiles: projection commutes with flat and inherited, select
 * after select is one select of the intersection, pruning conserves the
 * cost totals and reports exactly the cost that moved, and the hot-path
 * functions agree with their definitions.  The profiles are built with
 * the library itself, half of them raw (paths repeat cost centres, as
 * uncompressed Clean profiles do; siblings may repeat too) and half
 * through Push; they carry two cost metrics, one of them with negative
 * values (Clean's garbage-collector words), and a count metric.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failalloc.h"
#include "pdb.h"

#define NCC	10		/* f0 (the root's) .. f4 in A, f5 .. f9 in B */
#define NM	3		/* ticks, words (cost), calls (count) */
#define NSEEDS	300

static unsigned long rng;

static unsigned
rnd(unsigned n)
{
	rng = rng * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((rng >> 33) % n);
}

/* A cost centre for a new node: rarely the root's own. */
static uint32_t
rnd_cc(void)
{
	return rnd(25) == 0 ? 0 : 1 + rnd(NCC - 1);
}

static void
rnd_values(struct pdb *db, uint32_t n)
{
	int64_t v[NM];

	v[0] = rnd(4) == 0 ? 0 : (int64_t)rnd(100);
	v[1] = rnd(3) == 0 ? 0 : (int64_t)rnd(1000) -
	    (rnd(8) == 0 ? 3000 : 0);
	v[2] = rnd(6);
	pdb_node_add_values(db, n, v);
}

/*
 * Random profile number seed: odd seeds are raw trees, even seeds are
 * built by pushing random cost centres onto random stacks.
 */
static struct pdb *
random_profile(unsigned long seed)
{
	struct pdb *db = pdb_new();
	uint32_t mod[2], cc, n, parent, nnodes;
	char name[16];
	unsigned i;

	cr_assert(db != NULL);
	rng = seed * 2654435761UL + 1;
	cr_assert(pdb_module_add(db, "A", &mod[0]) == PDB_OK);
	cr_assert(pdb_module_add(db, "B", &mod[1]) == PDB_OK);
	for (i = 0; i < NCC; i++) {
		snprintf(name, sizeof(name), "f%u", i);
		cr_assert(pdb_cc_add(db, name, mod[i / 5], "", 0, i, &cc) ==
		    PDB_OK);
	}
	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, NULL) == 0);
	cr_assert(pdb_metric_add(db, "words", "words", PDB_COST, 0, NULL) == 0);
	cr_assert(pdb_metric_add(db, "calls", "calls", PDB_COUNT, 0, NULL) ==
	    0);
	cr_assert(pdb_root_new(db, 0, &n) == PDB_OK);
	rnd_values(db, n);
	nnodes = 1 + rnd(300);
	for (i = 1; i < nnodes; i++) {
		uint32_t count = pdb_node_count(db);

		/* Prefer recent nodes as parents, for depth. */
		parent = count > 8 && rnd(3) ? count - 1 - rnd(8) :
		    rnd(count);
		if (seed % 2)
			cr_assert(pdb_node_append(db, parent, rnd_cc(), &n) ==
			    PDB_OK);
		else
			cr_assert(pdb_push(db, parent, rnd_cc(), &n) == PDB_OK,
			    "%s", pdb_errmsg(db));
		rnd_values(db, n);
	}
	return db;
}

static const char *const pool[] = {
	"f1", "f[2-4]", "A.*", "B.f7", "*8", "f9", "B.*", "f0", "f6", "*3",
	"nosuch"
};
#define NPOOL	(sizeof(pool) / sizeof(pool[0]))

/* A list of selection options, kept to print and to combine. */
struct opts {
	unsigned	 n;
	int		 select[8];
	const char	*pat[8];
};

/* Up to three random options; donly: -d only. */
static void
random_opts(struct opts *o, int donly)
{
	unsigned k;

	o->n = rnd(4);
	for (k = 0; k < o->n; k++) {
		o->select[k] = donly ? 0 : rnd(3) == 0;
		o->pat[k] = pool[rnd(NPOOL)];
	}
}

static struct pdb_sel *
sel_of_opts(const struct opts *o, char *desc, size_t len)
{
	struct pdb_sel *sel = pdb_sel_new();
	unsigned k;

	cr_assert(sel != NULL);
	desc[0] = '\0';
	for (k = 0; k < o->n; k++) {
		cr_assert(pdb_sel_add(sel, o->select[k], o->pat[k]) == PDB_OK);
		snprintf(desc + strlen(desc), len - strlen(desc), " -%c '%s'",
		    o->select[k] ? 's' : 'd', o->pat[k]);
	}
	return sel;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct pdb_flat *
flat_of(struct pdb *db, const struct pdb_sel *sel)
{
	struct pdb_flat *f = pdb_flat_new(sel);

	cr_assert(f != NULL);
	cr_assert(pdb_replay(db, pdb_flat_sink(f)) == PDB_OK, "%s",
	    pdb_errmsg(db));
	return f;
}

/*
 * The stacks of db as sorted strings "f0;f3;f1 v0 v1 v2": every node, or
 * only the nodes with a non-zero value.  *np gets the count.
 */
static char **
stacks_of(const struct pdb *db, int nonzero, size_t *np)
{
	char **s = calloc(pdb_node_count(db) + 1, sizeof(*s));
	uint32_t n, k, path[4096], d;
	size_t ns = 0;
	char buf[16384];

	cr_assert(s != NULL);
	for (n = 0; n < pdb_node_count(db); n++) {
		const int64_t *v = pdb_node_values(db, n);
		size_t len = 0;

		if (nonzero && v[0] == 0 && v[1] == 0 && v[2] == 0)
			continue;
		d = 0;
		for (k = n; k != PDB_NONE; k = pdb_node_parent(db, k)) {
			cr_assert(d < 4096);
			path[d++] = pdb_node_cc(db, k);
		}
		while (d-- > 0)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
			    "%s%s", pdb_cc_label(db, path[d]), d ? ";" : "");
		snprintf(buf + len, sizeof(buf) - len, " %lld %lld %lld",
		    (long long)v[0], (long long)v[1], (long long)v[2]);
		cr_assert((s[ns++] = strdup(buf)) != NULL);
	}
	qsort(s, ns, sizeof(*s), cmp_str);
	*np = ns;
	return s;
}

static void
free_stacks(char **s, size_t n)
{
	while (n-- > 0)
		free(s[n]);
	free(s);
}

static void
assert_same_stacks(const struct pdb *a, const struct pdb *b, int nonzero,
    const char *what)
{
	char **sa, **sb;
	size_t na, nb, i;

	sa = stacks_of(a, nonzero, &na);
	sb = stacks_of(b, nonzero, &nb);
	for (i = 0; i < na && i < nb; i++)
		cr_assert_str_eq(sa[i], sb[i], "%s: stack %zu: %s against %s",
		    what, i, sa[i], sb[i]);
	cr_assert_eq(na, nb, "%s: %zu stacks against %zu", what, na, nb);
	free_stacks(sa, na);
	free_stacks(sb, nb);
}

/* No cost centre occurs twice on a path, the root's bottom aside. */
static void
assert_compressed(const struct pdb *db, const char *what)
{
	uint32_t n, k;
	unsigned char on[NCC];

	for (n = 1; n < pdb_node_count(db); n++) {
		memset(on, 0, sizeof(on));
		for (k = n; k != 0; k = pdb_node_parent(db, k)) {
			cr_assert(!on[pdb_node_cc(db, k)],
			    "%s: node %u repeats f%u", what, n,
			    pdb_node_cc(db, k));
			on[pdb_node_cc(db, k)] = 1;
		}
	}
}

/*
 * Flat and inherited of the projection (no selection) equal flat and
 * inherited of the original with the selection, for every metric and
 * cost centre; cost totals are conserved; inherited of the root is the
 * total.
 */
static void
check_commutes(unsigned long seed, struct pdb *db, const struct pdb_sel *sel,
    const char *desc)
{
	struct pdb *p = pdb_project_new(db, sel);
	struct pdb_flat *fd, *fp, *fall;
	unsigned char *mask;
	uint32_t cc;
	unsigned m;

	cr_assert(p != NULL, "seed %lu%s: %s", seed, desc, pdb_errmsg(db));
	cr_assert_eq(pdb_cc_count(p), pdb_cc_count(db));
	cr_assert_eq(pdb_metric_count(p), pdb_metric_count(db));
	assert_compressed(p, desc);
	mask = pdb_sel_mask_new(sel, db);
	fd = flat_of(db, sel);
	fp = flat_of(p, NULL);
	fall = flat_of(db, NULL);
	for (cc = 0; cc < NCC; cc++) {
		if (!mask[cc]) {
			cr_assert(!pdb_flat_seen(fp, cc), "seed %lu%s: f%u is "
			    "de-selected but in the projection", seed, desc,
			    cc);
			continue;
		}
		cr_assert_eq(pdb_flat_seen(fp, cc), pdb_flat_seen(fd, cc),
		    "seed %lu%s: seen f%u", seed, desc, cc);
		for (m = 0; m < NM; m++) {
			cr_assert_eq(pdb_flat_self(fp, cc, m),
			    pdb_flat_self(fd, cc, m),
			    "seed %lu%s: self of f%u, metric %u", seed, desc,
			    cc, m);
			cr_assert_eq(pdb_flat_inherited(fp, cc, m),
			    pdb_flat_inherited(fd, cc, m),
			    "seed %lu%s: inherited of f%u, metric %u", seed,
			    desc, cc, m);
		}
	}
	for (m = 0; m < NM; m++) {
		cr_assert_eq(pdb_flat_total(fp, m), pdb_flat_total(fd, m),
		    "seed %lu%s: total of metric %u", seed, desc, m);
		cr_assert_eq(pdb_flat_inherited(fp, 0, m),
		    pdb_flat_total(fp, m),
		    "seed %lu%s: inherited of the root, metric %u", seed, desc,
		    m);
		cr_assert_eq(pdb_flat_inherited(fd, 0, m),
		    pdb_flat_total(fd, m),
		    "seed %lu%s: inherited of the root, metric %u", seed, desc,
		    m);
		if (pdb_metric(db, m)->kind == PDB_COST)
			cr_assert_eq(pdb_flat_total(fp, m),
			    pdb_flat_total(fall, m),
			    "seed %lu%s: cost metric %u not conserved", seed,
			    desc, m);
	}
	free(mask);
	pdb_flat_free(fd);
	pdb_flat_free(fp);
	pdb_flat_free(fall);
	pdb_free(p);
}

Test(project, commutes_with_flat_and_inherited)
{
	unsigned long seed;
	char desc[256];
	int k;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct pdb *db = random_profile(seed);

		/* No selection: the projection only compresses. */
		check_commutes(seed, db, NULL, " (none)");
		for (k = 0; k < 4; k++) {
			struct pdb_sel *sel;
			struct opts o;

			random_opts(&o, 0);
			sel = sel_of_opts(&o, desc, sizeof(desc));

			check_commutes(seed, db, sel, desc);
			pdb_sel_free(sel);
		}
		pdb_free(db);
	}
}

/* A selection of exactly the cost centres in mask (labels are unique). */
static struct pdb_sel *
sel_of_mask(const struct pdb *db, const unsigned char *mask)
{
	struct pdb_sel *sel = pdb_sel_new();
	uint32_t cc;

	cr_assert(sel != NULL);
	/* A select pattern that matches nothing: then only the root. */
	cr_assert(pdb_sel_add(sel, 1, "nosuch") == PDB_OK);
	for (cc = 0; cc < pdb_cc_count(db); cc++)
		if (mask[cc])
			cr_assert(pdb_sel_add(sel, 1, pdb_cc_label(db, cc)) ==
			    PDB_OK);
	return sel;
}

/*
 * project(project(db, S1), S2) == project(db, S1 and S2): the same
 * stacks, zero ones included, with the same values, compared as sets of
 * paths since the nodes may be numbered differently.  With de-select
 * patterns only, the intersection is the selection with the patterns of
 * both (a cost centre survives both when it matches neither list); with
 * select patterns it is built from the two masks, since two -s lists in
 * one selection make a union.
 */
Test(project, select_after_select_is_the_intersection)
{
	unsigned long seed;
	char d1[256], d2[256], d[512], what[640];
	uint32_t cc;
	unsigned k;
	int pass;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct pdb *db = random_profile(seed);

		for (pass = 0; pass < 4; pass++) {
			struct pdb_sel *s1, *s2, *both;
			struct pdb *p1, *p12, *pboth;
			unsigned char *m1, *m2, *mp, *mb, mask[NCC];
			struct opts o1, o2, ob;

			random_opts(&o1, pass < 2);
			random_opts(&o2, pass < 2);
			s1 = sel_of_opts(&o1, d1, sizeof(d1));
			s2 = sel_of_opts(&o2, d2, sizeof(d2));
			snprintf(what, sizeof(what),
			    "seed %lu: (%s ) then (%s )", seed, d1, d2);
			m1 = pdb_sel_mask_new(s1, db);
			m2 = pdb_sel_mask_new(s2, db);
			cr_assert(m1 != NULL && m2 != NULL);
			for (cc = 0; cc < NCC; cc++)
				mask[cc] = m1[cc] && m2[cc];
			if (pass < 2) {
				ob = o1;
				for (k = 0; k < o2.n; k++) {
					ob.select[ob.n] = 0;
					ob.pat[ob.n++] = o2.pat[k];
				}
				both = sel_of_opts(&ob, d, sizeof(d));
			} else
				both = sel_of_mask(db, mask);
			mb = pdb_sel_mask_new(both, db);
			cr_assert(memcmp(mb, mask, NCC) == 0,
			    "%s: intersection mask", what);
			p1 = pdb_project_new(db, s1);
			cr_assert(p1 != NULL, "%s", what);
			/* S2 means the same cost centres in the projection. */
			mp = pdb_sel_mask_new(s2, p1);
			cr_assert(memcmp(mp, m2, NCC) == 0, "%s: masks", what);
			p12 = pdb_project_new(p1, s2);
			pboth = pdb_project_new(db, both);
			cr_assert(p12 != NULL && pboth != NULL, "%s", what);
			assert_same_stacks(p12, pboth, 0, what);
			free(m1);
			free(m2);
			free(mp);
			free(mb);
			pdb_sel_free(s1);
			pdb_sel_free(s2);
			pdb_sel_free(both);
			pdb_free(p1);
			pdb_free(p12);
			pdb_free(pboth);
		}
		pdb_free(db);
	}
}

/*
 * Pruning against its definition.  A node is cut when it is not the
 * root, its parent survives, and its inclusive value of some threshold's
 * metric is below the minimum or its cost centre matches an exclude
 * pattern; its subtree goes with it.  Every survivor keeps its stack and
 * its own values, plus, for cost metrics, the inclusive values of its
 * cut children.  Counts of what is cut are dropped.
 */
static void
check_prune(unsigned long seed, struct pdb *db,
    const struct pdb_threshold *th, size_t nth, const char *const *ex,
    size_t nex, const char *what)
{
	struct pdb_prune_report rep;
	struct pdb *out;
	int64_t *inc, *inco, folded[NM] = { 0 }, expect[NM];
	unsigned char *dead;
	uint64_t cuts = 0;
	uint32_t n, o, c, dn, dout, nn = pdb_node_count(db);
	unsigned m;
	size_t i;

	inc = pdb_inclusive_new(db);
	dead = calloc(nn, 1);
	cr_assert(inc != NULL && dead != NULL);
	out = pdb_prune_new(db, th, nth, ex, nex, &rep);
	cr_assert(out != NULL, "seed %lu%s: %s", seed, what, pdb_errmsg(db));
	cr_assert(rep.folded != NULL && rep.dropped != NULL);
	/* Pre-order: parents come before children. */
	for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL)) {
		uint32_t p = pdb_node_parent(db, n);
		int cut = 0;

		if (n == 0)
			continue;
		if (dead[p]) {
			dead[n] = 1;
			continue;
		}
		for (i = 0; i < nth; i++)
			if (inc[(size_t)n * NM + th[i].metric] < th[i].min)
				cut = 1;
		for (i = 0; i < nex; i++)
			if (pdb_cc_glob(db, pdb_node_cc(db, n), ex[i]))
				cut = 1;
		if (cut) {
			dead[n] = 2;
			cuts++;
			for (m = 0; m < NM; m++)
				folded[m] += inc[(size_t)n * NM + m];
		}
	}
	cr_assert_eq(rep.nodes_removed, cuts, "seed %lu%s: nodes_removed",
	    seed, what);
	for (m = 0; m < NM; m++) {
		if (pdb_metric(db, m)->kind == PDB_COST) {
			cr_assert_eq(rep.folded[m], folded[m],
			    "seed %lu%s: folded, metric %u", seed, what, m);
			cr_assert_eq(rep.dropped[m], 0);
		} else {
			cr_assert_eq(rep.dropped[m], folded[m],
			    "seed %lu%s: dropped, metric %u", seed, what, m);
			cr_assert_eq(rep.folded[m], 0);
		}
	}
	/* Walk the survivors and the output side by side. */
	o = pdb_walk_first(out, &dout);
	for (n = pdb_walk_first(db, &dn); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &dn)) {
		const int64_t *v = pdb_node_values(db, n), *w;

		if (dead[n])
			continue;
		cr_assert(o != PDB_NONE, "seed %lu%s: output too short", seed,
		    what);
		cr_assert_eq(pdb_node_cc(out, o), pdb_node_cc(db, n),
		    "seed %lu%s: node %u", seed, what, n);
		cr_assert_eq(dout, dn, "seed %lu%s: depth of node %u", seed,
		    what, n);
		for (m = 0; m < NM; m++)
			expect[m] = v[m];
		for (c = pdb_node_first_child(db, n); c != PDB_NONE;
		    c = pdb_node_next_sibling(db, c))
			for (m = 0; dead[c] == 2 && m < NM; m++)
				if (pdb_metric(db, m)->kind == PDB_COST)
					expect[m] += inc[(size_t)c * NM + m];
		w = pdb_node_values(out, o);
		for (m = 0; m < NM; m++)
			cr_assert_eq(w[m], expect[m],
			    "seed %lu%s: node %u, metric %u", seed, what, n, m);
		o = pdb_walk_next(out, o, &dout);
	}
	cr_assert_eq(o, PDB_NONE, "seed %lu%s: output too long", seed, what);
	/* Totals: costs conserved, counts less what was dropped. */
	inco = pdb_inclusive_new(out);
	cr_assert(inco != NULL);
	for (m = 0; m < NM; m++)
		cr_assert_eq(inco[m], inc[m] - rep.dropped[m],
		    "seed %lu%s: total of metric %u", seed, what, m);
	free(inco);
	free(inc);
	free(dead);
	pdb_prune_report_free(&rep);
	pdb_free(out);
}

Test(prune, matches_the_definition_and_conserves_costs)
{
	struct pdb_threshold th[3];
	const char *ex[3];
	unsigned long seed;
	char what[256];
	size_t nth, nex, i;
	int k;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct pdb *db = random_profile(seed);

		for (k = 0; k < 5; k++) {
			nth = rnd(3);
			nex = rnd(4) == 0 ? 1 + rnd(2) : 0;
			what[0] = '\0';
			for (i = 0; i < nth; i++) {
				th[i].metric = rnd(NM);
				th[i].min = (int64_t)rnd(2500) - 500;
				snprintf(what + strlen(what), sizeof(what) -
				    strlen(what), " --min %s=%lld",
				    pdb_metric(db, th[i].metric)->name,
				    (long long)th[i].min);
			}
			for (i = 0; i < nex; i++) {
				ex[i] = pool[rnd(NPOOL)];
				snprintf(what + strlen(what), sizeof(what) -
				    strlen(what), " --exclude '%s'", ex[i]);
			}
			check_prune(seed, db, th, nth, ex, nex, what);
		}
		pdb_free(db);
	}
}

/* Nothing to prune: the same tree, node for node. */
Test(prune, zero_thresholds_prune_nothing)
{
	struct pdb_threshold th = { 0, 0 };	/* ticks are never negative */
	struct pdb_prune_report rep;
	unsigned long seed;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct pdb *db = random_profile(seed), *out;
		uint32_t n, o, dn, dout;

		out = pdb_prune_new(db, &th, 1, NULL, 0, &rep);
		cr_assert(out != NULL);
		cr_assert_eq(rep.nodes_removed, 0);
		cr_assert_eq(pdb_node_count(out), pdb_node_count(db));
		/* The output is numbered in pre-order; compare that way. */
		o = pdb_walk_first(out, &dout);
		for (n = pdb_walk_first(db, &dn); n != PDB_NONE;
		    n = pdb_walk_next(db, n, &dn)) {
			cr_assert_eq(pdb_node_cc(out, o), pdb_node_cc(db, n));
			cr_assert_eq(dout, dn);
			cr_assert(memcmp(pdb_node_values(out, o),
			    pdb_node_values(db, n), NM * sizeof(int64_t)) == 0);
			o = pdb_walk_next(out, o, &dout);
		}
		check_prune(seed, db, NULL, 0, NULL, 0, " (nothing)");
		pdb_prune_report_free(&rep);
		pdb_free(out);
		pdb_free(db);
	}
}

/* The root is never removed, even when it matches or is too small. */
Test(prune, never_the_root)
{
	struct pdb_threshold th = { 0, INT64_MAX };
	const char *ex[] = { "f0", "*" };
	struct pdb_prune_report rep;
	struct pdb *db = random_profile(4), *out;
	int64_t *inc = pdb_inclusive_new(db);
	unsigned m;

	out = pdb_prune_new(db, &th, 1, ex, 2, &rep);
	cr_assert(out != NULL);
	cr_assert_eq(pdb_node_count(out), 1);
	cr_assert_eq(pdb_node_cc(out, 0), 0);
	for (m = 0; m < NM; m++)
		if (pdb_metric(db, m)->kind == PDB_COST)
			cr_assert_eq(pdb_node_value(out, 0, m), inc[m]);
		else
			cr_assert_eq(pdb_node_value(out, 0, m),
			    pdb_node_value(db, 0, m));
	free(inc);
	pdb_prune_report_free(&rep);
	pdb_free(out);
	pdb_free(db);
}

/*
 * In place, node for node what pdb_prune_new() makes, numbered in
 * pre-order even when the tree was not (built through Push); and when an
 * allocation fails, the stacks are as they were.
 */
Test(prune, in_place_is_prune_new)
{
	struct pdb_threshold th = { 0, 40 };
	const char *ex[] = { "f3" };
	struct pdb_prune_report rep, rep2;
	unsigned long seed, k;
	uint32_t n, i;
	unsigned m;
	int rc;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct pdb *db = random_profile(seed), *out, *in;

		out = pdb_prune_new(db, &th, 1, ex, seed % 3 == 0, &rep);
		cr_assert(out != NULL);
		for (k = 1;; k++) {
			in = random_profile(seed);
			failalloc_arm(k);
			rc = pdb_prune(in, &th, 1, ex, seed % 3 == 0, &rep2);
			failalloc_arm(0);
			if (rc == PDB_OK)
				break;
			cr_assert_eq(rc, PDB_ENOMEM, "seed %lu", seed);
			assert_same_stacks(in, db, 0, "failed pdb_prune");
			pdb_free(in);
		}
		cr_assert_eq(pdb_node_count(in), pdb_node_count(out));
		for (n = pdb_walk_first(in, NULL), i = 0; n != PDB_NONE;
		    n = pdb_walk_next(in, n, NULL), i++) {
			cr_assert_eq(n, i, "seed %lu: not in pre-order", seed);
			cr_assert_eq(pdb_node_cc(in, n), pdb_node_cc(out, n));
			cr_assert_eq(pdb_node_parent(in, n),
			    pdb_node_parent(out, n));
			for (m = 0; m < NM; m++)
				cr_assert_eq(pdb_node_value(in, n, m),
				    pdb_node_value(out, n, m));
		}
		cr_assert_eq(rep.nodes_removed, rep2.nodes_removed);
		for (m = 0; m < NM; m++) {
			cr_assert_eq(rep.folded[m], rep2.folded[m]);
			cr_assert_eq(rep.dropped[m], rep2.dropped[m]);
		}
		pdb_prune_report_free(&rep);
		pdb_prune_report_free(&rep2);
		pdb_free(in);
		pdb_free(out);
		pdb_free(db);
	}
}

/*
 * Sums that need a wider column than the values had.  Few nodes kept
 * (a root and its ten children): the column is folded and packed at the
 * wider type where the narrow one was, and the tree still grows after.
 * Most nodes kept: the column is widened for all of them first.
 */
static struct pdb *
fan(uint32_t nkids, uint32_t ngrand)
{
	struct pdb *db = pdb_new();
	uint32_t mod, cc, n, kid, i, k;

	cr_assert(db != NULL);
	cr_assert(pdb_module_add(db, "M", &mod) == PDB_OK);
	cr_assert(pdb_cc_add(db, "f", mod, "", 0, 0, &cc) == PDB_OK);
	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, NULL) == 0);
	cr_assert(pdb_root_new(db, cc, &n) == PDB_OK);
	for (i = 0; i < nkids; i++) {
		cr_assert(pdb_node_append(db, 0, cc, &kid) == PDB_OK);
		cr_assert(pdb_node_set_value(db, kid, 0, 250) == PDB_OK);
		for (k = 0; k < ngrand; k++) {
			cr_assert(pdb_node_append(db, kid, cc, &n) == PDB_OK);
			cr_assert(pdb_node_set_value(db, n, 0, 200) == PDB_OK);
		}
	}
	return db;
}

Test(prune, sums_wider_than_the_values)
{
	struct pdb_threshold th = { 0, 201 };
	struct pdb_prune_report rep;
	struct pdb *db;
	uint32_t n, i;

	/* 1 + 10 kept of 1 + 10 + 1000: packed, as 16 bits. */
	db = fan(10, 100);
	cr_assert(pdb_prune(db, &th, 1, NULL, 0, &rep) == PDB_OK);
	cr_assert_eq(pdb_node_count(db), 11);
	cr_expect_eq(rep.folded[0], 10 * 100 * 200);
	cr_expect_eq(pdb_node_value(db, 0, 0), 0);
	for (n = 1; n <= 10; n++)
		cr_expect_eq(pdb_node_value(db, n, 0), 250 + 100 * 200);
	/* Room for more nodes, and for values of any width. */
	for (i = 0; i < 5000; i++) {
		cr_assert(pdb_node_append(db, 3, 0, &n) == PDB_OK);
		cr_assert(pdb_node_set_value(db, n, 0, (int64_t)i << 32) ==
		    PDB_OK);
	}
	cr_expect_eq(pdb_node_value(db, 3, 0), 250 + 100 * 200);
	cr_expect_eq(pdb_node_value(db, 10, 0), 250 + 100 * 200);
	cr_expect_eq(pdb_node_value(db, n, 0), (int64_t)4999 << 32);
	pdb_prune_report_free(&rep);
	pdb_free(db);

	/* 1 + 100 kept of 102: widened first, then folded. */
	db = fan(100, 0);
	cr_assert(pdb_node_append(db, 1, 0, &n) == PDB_OK);
	cr_assert(pdb_node_set_value(db, n, 0, 200) == PDB_OK);
	cr_assert(pdb_prune(db, &th, 1, NULL, 0, &rep) == PDB_OK);
	cr_assert_eq(pdb_node_count(db), 101);
	cr_expect_eq(rep.folded[0], 200);
	cr_expect_eq(pdb_node_value(db, 1, 0), 450);
	cr_expect_eq(pdb_node_value(db, 2, 0), 250);
	cr_expect_eq(pdb_node_value(db, 100, 0), 250);
	pdb_prune_report_free(&rep);
	pdb_free(db);
}

/* A metric that is zero everywhere takes no room, and prunes alike. */
Test(prune, zero_metric)
{
	struct pdb_threshold th = { 0, 2 };
	struct pdb *db = pdb_new();
	uint32_t mod, cc, n, i;

	cr_assert(pdb_module_add(db, "M", &mod) == PDB_OK);
	cr_assert(pdb_cc_add(db, "f", mod, "", 0, 0, &cc) == PDB_OK);
	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, NULL) == 0);
	cr_assert(pdb_metric_add(db, "zero", "ticks", PDB_COST, 0, NULL) == 0);
	cr_assert(pdb_root_new(db, cc, &n) == PDB_OK);
	for (i = 1; i <= 10; i++) {
		cr_assert(pdb_node_append(db, 0, cc, &n) == PDB_OK);
		cr_assert(pdb_node_set_value(db, n, 0, i) == PDB_OK);
	}
	cr_assert(pdb_prune(db, &th, 1, NULL, 0, NULL) == PDB_OK);
	cr_assert_eq(pdb_node_count(db), 10);
	cr_expect_eq(pdb_node_value(db, 0, 0), 1);
	cr_expect_eq(pdb_node_value(db, 9, 0), 10);
	cr_expect_eq(pdb_node_value(db, 9, 1), 0);
	pdb_free(db);
}

/*
 * Inclusive values against their definition, a node's own plus its
 * children's inclusive, summed over the walk in reverse pre-order:
 * pdb_inclusive_new() and pdb_inclusive_of() add in the order of the
 * node numbers instead.
 */
Test(hot, inclusive_matches_the_definition)
{
	static const size_t cuts[] = { 0, 40, 200 };
	unsigned long seed;
	uint32_t order[1024], n, c;
	int64_t want[1024], *inc, *one;
	size_t i, nn, cut;
	unsigned m;

	for (seed = 1; seed <= NSEEDS; seed++)
		for (cut = 0; cut < 3; cut++) {
			struct pdb *db = random_profile(seed), *p = db;
			struct pdb_threshold th = { 0, (int64_t)cuts[cut] };

			/* Pruned: numbered anew, fewer nodes. */
			if (cuts[cut] > 0)
				cr_assert_not_null(p = pdb_prune_new(db, &th, 1,
				    NULL, 0, NULL));
			nn = 0;
			for (n = pdb_walk_first(p, NULL); n != PDB_NONE;
			    n = pdb_walk_next(p, n, NULL))
				order[nn++] = n;
			cr_assert(nn < 1024);
			cr_assert_not_null(inc = pdb_inclusive_new(p));
			for (m = 0; m < NM; m++) {
				for (i = nn; i-- > 0;) {
					n = order[i];
					want[n] = pdb_node_value(p, n, m);
					for (c = pdb_node_first_child(p, n);
					    c != PDB_NONE;
					    c = pdb_node_next_sibling(p, c))
						want[n] += want[c];
				}
				cr_assert_not_null(one = pdb_inclusive_of(p, m));
				for (n = 0; n < nn; n++) {
					cr_assert_eq(inc[(size_t)n * NM + m],
					    want[n], "seed %lu: node %u, metric "
					    "%u", seed, n, m);
					cr_assert_eq(one[n], want[n]);
				}
				free(one);
			}
			cr_expect_null(pdb_inclusive_of(p, NM), "no metric");
			free(inc);
			if (p != db)
				pdb_free(p);
			pdb_free(db);
		}
}

/*
 * The hot stack, the expensive arm and the top stacks against their
 * definitions, ties going to the first node in pre-order.
 */
Test(hot, match_the_definitions)
{
	static const size_t heads[] = { 1, 2, 3, 5, 8, 13, 100 };
	unsigned long seed;
	uint32_t order[1024], arm[1024], arm1[1024], top[1024], n, best, c;
	size_t i, k, nn, narm, ntop, h;
	unsigned m;

	for (seed = 1; seed <= NSEEDS; seed++) {
		struct pdb *db = random_profile(seed);
		int64_t *inc = pdb_inclusive_new(db), *one;

		nn = 0;
		for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
		    n = pdb_walk_next(db, n, NULL))
			order[nn++] = n;
		cr_assert(nn < 1024 && inc != NULL);
		for (m = 0; m < NM; m++) {
			/* Hot stack. */
			best = order[0];
			for (i = 1; i < nn; i++)
				if (pdb_node_value(db, order[i], m) >
				    pdb_node_value(db, best, m))
					best = order[i];
			cr_assert_eq(pdb_hot_stack(db, m), best,
			    "seed %lu: hot stack of metric %u", seed, m);
			/* Expensive arm. */
			narm = pdb_expensive_arm(db, inc, m, arm, 1024);
			cr_assert(narm >= 1 && arm[0] == 0);
			for (i = 1, n = 0;; i++) {
				best = PDB_NONE;
				for (c = pdb_node_first_child(db, n);
				    c != PDB_NONE;
				    c = pdb_node_next_sibling(db, c))
					if (best == PDB_NONE ||
					    inc[(size_t)c * NM + m] >
					    inc[(size_t)best * NM + m])
						best = c;
				if (best == PDB_NONE ||
				    inc[(size_t)best * NM + m] <= 0)
					break;
				cr_assert(i < narm, "seed %lu: arm too short",
				    seed);
				cr_assert_eq(arm[i], best, "seed %lu: arm step "
				    "%zu, metric %u", seed, i, m);
				n = best;
			}
			cr_assert_eq(narm, i, "seed %lu: arm length", seed);
			/* The same from the one metric's inclusive values,
			 * and cut short where asked. */
			cr_assert_not_null(one = pdb_inclusive_of(db, m));
			cr_assert_eq(pdb_expensive_arm_of(db, one, arm1, 1024),
			    narm);
			cr_assert(memcmp(arm, arm1, narm * sizeof(*arm)) == 0);
			/* Cut short, the whole length still comes back. */
			arm1[1] = PDB_NONE;
			cr_assert_eq(pdb_expensive_arm_of(db, one, arm1, 1),
			    narm);
			cr_assert_eq(arm1[0], 0);
			cr_assert_eq(arm1[1], PDB_NONE);
			free(one);
			/* Top stacks: every non-zero stack, descending, ties
			 * in pre-order. */
			ntop = pdb_top_stacks(db, m, top, 1024);
			for (i = 0, k = 0; i < nn; i++)
				k += pdb_node_value(db, order[i], m) != 0;
			cr_assert_eq(ntop, k, "seed %lu: top count", seed);
			for (i = 0; i < nn; i++) {
				int64_t v = pdb_node_value(db, order[i], m);
				size_t rank = 0;

				if (v == 0)
					continue;
				/* Its rank: larger ones, and equal ones
				 * before it in pre-order. */
				for (k = 0; k < nn; k++) {
					int64_t w = pdb_node_value(db,
					    order[k], m);

					if (w != 0 && (w > v ||
					    (w == v && k < i)))
						rank++;
				}
				cr_assert_eq(top[rank], order[i],
				    "seed %lu: rank %zu, metric %u", seed, rank,
				    m);
			}
			/* A short list is the head of the long one. */
			for (h = 0; h < sizeof(heads) / sizeof(heads[0]); h++) {
				k = pdb_top_stacks(db, m, arm, heads[h]);
				cr_assert_eq(k, ntop < heads[h] ? ntop :
				    heads[h]);
				cr_assert(memcmp(arm, top, k * sizeof(*top)) ==
				    0, "seed %lu: the best %zu, metric %u",
				    seed, heads[h], m);
			}
		}
		free(inc);
		pdb_free(db);
	}
}

/* A deep chain (no recursion in the library): project and prune work. */
Test(project, deep_chain)
{
	struct pdb *db = pdb_new(), *p, *q;
	struct pdb_threshold th = { 0, 2 };
	struct pdb_sel *sel = pdb_sel_new();
	struct pdb_flat *f;
	uint32_t mod, cc, n, i;
	int64_t v[1] = { 1 };

	cr_assert(pdb_module_add(db, "M", &mod) == PDB_OK);
	for (i = 0; i < 4; i++)
		cr_assert(pdb_cc_add(db, i == 0 ? "root" : i == 1 ? "a" :
		    i == 2 ? "b" : "c", mod, "", 0, i, &cc) == PDB_OK);
	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, NULL) == 0);
	cr_assert(pdb_root_new(db, 0, &n) == PDB_OK);
	for (i = 1; i < 1000000; i++) {
		cr_assert(pdb_node_append(db, n, 1 + (i - 1) % 3, &n) ==
		    PDB_OK);
		pdb_node_add_values(db, n, v);
	}
	cr_assert(pdb_sel_add(sel, 0, "b") == PDB_OK);
	p = pdb_project_new(db, sel);
	cr_assert(p != NULL);
	/* a, c, a, c, ... compresses to root;a;c and root;c;a. */
	cr_assert_leq(pdb_node_count(p), 5);
	f = flat_of(p, NULL);
	cr_assert_eq(pdb_flat_total(f, 0), 999999);
	cr_assert_eq(pdb_flat_inherited(f, 1, 0), 999999);
	pdb_flat_free(f);
	q = pdb_prune_new(db, &th, 1, NULL, 0, NULL);
	cr_assert(q != NULL);
	cr_assert_eq(pdb_node_count(q), 999999);	/* the last one goes */
	cr_assert_eq(pdb_node_value(q, 999998, 0), 2);
	pdb_free(q);
	pdb_free(p);
	pdb_sel_free(sel);
	pdb_free(db);
}

/* Values of every width and sign, mostly small: a few escape first. */
static int64_t
wide_value(unsigned m)
{
	static const int64_t pick[] = {
		0, 0, 0, 1, 7, 200, 254, 255, 300, 40000, 70000, -1, -129,
		-40000, (int64_t)1 << 31, (int64_t)1 << 40, (int64_t)1 << 52,
		-((int64_t)1 << 45)
	};
	unsigned r = rnd(1000);

	if (r < 900)
		return m == 1 && r % 3 == 0 ? -(int64_t)rnd(100) :
		    (int64_t)rnd(120);
	return pick[rnd(sizeof(pick) / sizeof(pick[0]))];
}

/*
 * A reader's batches projected as they come (project_run()), against
 * pushing each node onto its parent's image with the public calls, one
 * node at a time: the same stacks with the same values.  The values take
 * every width and sign, within the sums the builder checks, so that the
 * projection's columns escape, widen and take escapes back in the middle
 * of a batch; and a de-selected cost centre's counts are dropped.
 */
#define NROWS	20000

Test(project, batches_project_as_node_by_node_pushes)
{
	static uint32_t ccs[NROWS];
	static size_t exits[NROWS];
	static int64_t vals[NROWS * (NM + 1)];
	static uint32_t img[NROWS + 1];
	unsigned char mask[NCC];
	unsigned long seed;
	size_t i, k, done, depth;
	uint32_t n, cc;
	int64_t v[NM];
	unsigned m;

	for (seed = 1; seed <= 12; seed++) {
		struct pdb *db = pdb_new(), *p, *ref;
		const struct pdb_sink *sink;
		struct pdb_builder *b;
		struct pdb_batch bt;
		struct pdb_sel *sel;
		char what[32];

		rng = seed;
		cr_assert(db != NULL);
		cr_assert(pdb_module_add(db, "A", &n) == PDB_OK);
		for (cc = 0; cc < NCC; cc++) {
			char name[16];

			snprintf(name, sizeof(name), "f%u", cc);
			cr_assert(pdb_cc_add(db, name, 0, "", 0, cc, &n) ==
			    PDB_OK);
			mask[cc] = cc == 0 || rnd(3) != 0;
		}
		cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0,
		    NULL) == 0);
		cr_assert(pdb_metric_add(db, "words", "words", PDB_COST, 0,
		    NULL) == 0);
		cr_assert(pdb_metric_add(db, "calls", "calls", PDB_COUNT, 0,
		    NULL) == 0);
		sel = sel_of_mask(db, mask);

		/* A raw tree in pre-order: deep paths that repeat cost
		 * centres, so that pushes replay. */
		for (i = 0, depth = 0; i < NROWS; i++) {
			ccs[i] = i == 0 ? 0 : 1 + rnd(NCC - 1);
			for (m = 0; m < NM; m++)
				vals[i * (NM + 1) + m] = wide_value(m);
			depth++;
			exits[i] = i == 0 || rnd(3) != 0 ? 0 : rnd(depth > 40 ?
			    (unsigned)depth : 4);
			if (i == NROWS - 1 || exits[i] >= depth)
				exits[i] = i == NROWS - 1 ? depth : depth - 1;
			depth -= exits[i];
		}

		/* Projected a batch at a time, of random sizes. */
		p = pdb_clone_empty(db);
		cr_assert(p != NULL);
		b = pdb_builder_new(p, PDB_BUILD_RAW);
		cr_assert(b != NULL);
		pdb_builder_select(b, sel);
		sink = pdb_builder_sink(b);
		for (i = 0; i < NROWS; i += k) {
			k = 1 + rnd(300);
			k = k < NROWS - i ? k : NROWS - i;
			bt.n = k;
			bt.cc = ccs + i;
			bt.values = vals + i * (NM + 1);
			bt.stride = NM + 1;
			bt.exits = exits + i;
			cr_assert(sink->nodes(sink->arg, db, &bt, &done) ==
			    PDB_OK, "seed %lu: %s", seed, pdb_errmsg(p));
		}
		cr_assert(sink->end(sink->arg, db) == PDB_OK);
		pdb_builder_free(b);

		/* The reference, a node at a time. */
		ref = pdb_clone_empty(db);
		cr_assert(ref != NULL);
		for (i = 0, depth = 0; i < NROWS; i++) {
			cc = ccs[i];
			if (i == 0)
				cr_assert(pdb_root_new(ref, cc, &n) == PDB_OK);
			else if ((n = img[depth - 1]), mask[cc])
				cr_assert(pdb_push(ref, n, cc, &n) == PDB_OK);
			for (m = 0; m < NM; m++)
				v[m] = !mask[cc] && m == 2 ? 0 :
				    vals[i * (NM + 1) + m];
			cr_assert(pdb_node_add_values(ref, n, v) == PDB_OK);
			img[depth++] = n;
			depth -= exits[i];
		}
		snprintf(what, sizeof(what), "seed %lu", seed);
		assert_same_stacks(p, ref, 0, what);
		pdb_free(ref);
		pdb_free(p);
		pdb_sel_free(sel);
		pdb_free(db);
	}
}
