/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Push, case by case, on the cost-centre-stack tables of Morgan & Jarvis
 * section 2.4.2 and Fig. 3.  The paper numbers stacks from 1 (MAIN);
 * node k - 1 here is the paper's stack k.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

#include "failalloc.h"
#include "pdb.h"
#include "pdb_int.h"	/* the size of the cache of pushes */

static struct pdb *db;
static uint32_t MAIN, A, B, C, D;

static void
setup(void)
{
	uint32_t mod;

	db = pdb_new();
	cr_assert(db != NULL);
	cr_assert(pdb_module_add(db, "M", &mod) == PDB_OK);
	cr_assert(pdb_cc_add(db, "MAIN", mod, "", 0, -1, &MAIN) == PDB_OK);
	cr_assert(pdb_cc_add(db, "A", mod, "", 0, -1, &A) == PDB_OK);
	cr_assert(pdb_cc_add(db, "B", mod, "", 0, -1, &B) == PDB_OK);
	cr_assert(pdb_cc_add(db, "C", mod, "", 0, -1, &C) == PDB_OK);
	cr_assert(pdb_cc_add(db, "D", mod, "", 0, -1, &D) == PDB_OK);
}

static void
teardown(void)
{
	pdb_free(db);
}

TestSuite(push, .init = setup, .fini = teardown);

/* Push and check the resulting stack code (1-based, as in the paper). */
static uint32_t
push(uint32_t cc, uint32_t code)
{
	uint32_t out;

	cr_assert(pdb_push(db, code - 1, cc, &out) == PDB_OK, "%s",
	    pdb_errmsg(db));
	return out + 1;
}

/* The stack of code as "X,Y,MAIN" (top first, as the paper writes it). */
static const char *
stack(uint32_t code)
{
	static char buf[256];
	uint32_t n = code - 1;

	buf[0] = '\0';
	for (; n != PDB_NONE; n = pdb_node_parent(db, n)) {
		if (buf[0] != '\0')
			strcat(buf, ",");
		strcat(buf, pdb_cc_label(db, pdb_node_cc(db, n)));
	}
	return buf;
}

/* MAIN1 <=> A2 <=> B3, and A2 <=> C4: the table of section 2.4.2. */
static void
table_abc(void)
{
	uint32_t root;

	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	cr_assert_eq(push(A, 1), 2);
	cr_assert_eq(push(B, 2), 3);
	cr_assert_eq(push(C, 2), 4);
	cr_assert_str_eq(stack(4), "C,A,MAIN");
}

Test(push, case1_already_pushed)
{
	table_abc();
	cr_assert_eq(push(B, 2), 3);
	cr_assert_eq(pdb_node_count(db), 4, "no stack is made");
}

Test(push, case2_new_cost_centre)
{
	table_abc();
	cr_assert_eq(push(C, 3), 5);
	cr_assert_str_eq(stack(5), "C,B,A,MAIN");
	cr_assert_eq(pdb_node_parent(db, 4) + 1, 3, "back pointer to 3");
}

Test(push, case3_first_subcase_no_intermediate)
{
	table_abc();
	cr_assert_eq(push(C, 3), 5);
	/* B onto <C,B,A,MAIN>: the result is built on C4, not on C5. */
	cr_assert_eq(push(B, 5), 6);
	cr_assert_str_eq(stack(6), "B,C,A,MAIN");
	cr_assert_eq(pdb_node_parent(db, 5) + 1, 4, "6's back pointer is 4");
	cr_assert_eq(pdb_node_count(db), 6, "no intermediate stack");
	/* The index of 5 remembers the result: C5 => B6. */
	cr_assert_eq(push(B, 5), 6);
	cr_assert_eq(pdb_node_count(db), 6);
}

Test(push, case3_second_subcase_intermediate)
{
	uint32_t root;

	/* MAIN1 <=> A2 <=> B3 <=> C4 */
	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	cr_assert_eq(push(A, 1), 2);
	cr_assert_eq(push(B, 2), 3);
	cr_assert_eq(push(C, 3), 4);
	cr_assert_eq(push(B, 4), 6);
	cr_assert_str_eq(stack(5), "C,A,MAIN", "intermediate stack 5");
	cr_assert_str_eq(stack(6), "B,C,A,MAIN");
	cr_assert_eq(pdb_node_parent(db, 5) + 1, 5);
}

Test(push, case3_third_subcase_result_exists)
{
	uint32_t root;

	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	cr_assert_eq(push(A, 1), 2);
	cr_assert_eq(push(B, 2), 3);
	cr_assert_eq(push(C, 3), 4);
	cr_assert_eq(push(C, 2), 5);
	cr_assert_eq(push(B, 5), 6);
	cr_assert_str_eq(stack(6), "B,C,A,MAIN");
	/* Now B onto <C,B,A,MAIN> finds the existing stack 6. */
	cr_assert_eq(push(B, 4), 6);
	cr_assert_eq(pdb_node_count(db), 6, "no stack is made");
}

/*
 * Fig. 3: D calls A while the current stack 6 is <D,B,A,MAIN>.  The back
 * pointers are followed recording <B,D> until A is found; from MAIN the
 * existing stacks <B,MAIN> and <D,B,MAIN> are reused and A is pushed on
 * top, making state 8.
 */
Test(push, fig3_example)
{
	uint32_t root;

	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	cr_assert_eq(push(A, 1), 2);
	cr_assert_eq(push(B, 1), 3);
	cr_assert_eq(push(B, 2), 4);
	cr_assert_eq(push(D, 3), 5);
	cr_assert_eq(push(D, 4), 6);
	cr_assert_eq(push(C, 1), 7);
	cr_assert_str_eq(stack(6), "D,B,A,MAIN");
	cr_assert_str_eq(stack(5), "D,B,MAIN");
	cr_assert_eq(push(A, 6), 8);
	cr_assert_str_eq(stack(8), "A,D,B,MAIN");
	cr_assert_eq(pdb_node_parent(db, 7) + 1, 5, "built on <D,B,MAIN>");
	cr_assert_eq(pdb_node_count(db), 8, "only state 8 is new");
}

/* Recursion a -> b -> a needs only the stacks <a> and <b,a>, <a,b>. */
Test(push, compressed_mutual_recursion)
{
	uint32_t root, s;
	int i;

	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	s = 1;
	for (i = 0; i < 100; i++)
		s = push(i % 2 ? B : A, s);
	cr_assert_eq(pdb_node_count(db), 5, "MAIN, A, BA, B, AB");
	cr_assert_str_eq(stack(s), "B,A,MAIN");
}

/* The root is the fixed bottom: pushing its cost centre again. */
Test(push, root_cost_centre_pushed_again)
{
	uint32_t root;

	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	cr_assert_eq(push(A, 1), 2);
	cr_assert_eq(push(MAIN, 2), 3);
	cr_assert_str_eq(stack(3), "MAIN,A,MAIN");
}

Test(push, bad_arguments)
{
	uint32_t root, out;

	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	cr_assert_eq(pdb_push(db, 7, A, &out), PDB_EINVAL);
	cr_assert_eq(pdb_push(db, 0, 99, &out), PDB_EINVAL);
}

/* A compressing push is remembered; pushing onto the root never is. */
Test(push, remembered_pushes_and_the_root)
{
	uint32_t root;

	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	cr_assert_eq(push(A, 1), 2);
	cr_assert_eq(push(B, 2), 3);
	cr_assert_eq(push(A, 3), 5);
	cr_assert_str_eq(stack(5), "A,B,MAIN");
	cr_assert_eq(push(A, 3), 5, "the same push again");
	cr_assert_eq(push(MAIN, 1), 6);
	cr_assert_str_eq(stack(6), "MAIN,MAIN");
	cr_assert_eq(pdb_node_count(db), 6);
}

/*
 * Random pushes, many more compressing ones than the cache of them
 * holds: each result is its stack with cc on top and its earlier
 * occurrence removed, and every stack exists once.
 */
Test(push, random_pushes_match_the_definition)
{
	enum { NCC = 40, NPUSH = 30000 };
	uint32_t ccs[NCC], root, mod, s, t, cc, n, k, want[64], got[64];
	unsigned long seed = 12345;
	char name[16];
	int i, j, nw, ng;

	cr_assert(pdb_module_add(db, "N", &mod) == PDB_OK);
	for (i = 0; i < NCC; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		cr_assert(pdb_cc_add(db, name, mod, "", 0, -1, &ccs[i]) ==
		    PDB_OK);
	}
	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	for (k = 0; k < NPUSH; k++) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		/* Few stacks, pushed onto many times, and not too deep. */
		s = (uint32_t)(seed >> 33) % (pdb_node_count(db) < 300 ?
		    pdb_node_count(db) : 300);
		if (pdb_node_depth(db, s) > 12)
			s = pdb_node_parent(db, pdb_node_parent(db, s));
		cc = ccs[(seed >> 20) % NCC];
		/* want: s's stack (top first) without cc, cc on top. */
		nw = 0;
		want[nw++] = cc;
		for (n = s; n != 0; n = pdb_node_parent(db, n))
			if (pdb_node_cc(db, n) != cc)
				want[nw++] = pdb_node_cc(db, n);
		cr_assert(pdb_push(db, s, cc, &t) == PDB_OK);
		ng = 0;
		for (n = t; n != 0; n = pdb_node_parent(db, n))
			got[ng++] = pdb_node_cc(db, n);
		cr_assert_eq(ng, nw, "push %u: depth %d, not %d", k, ng, nw);
		for (j = 0; j < nw; j++)
			cr_assert_eq(got[j], want[j], "push %u, level %d", k, j);
	}
	/* Every stack but the root is in its parent's child list. */
	for (n = 0, k = 0; n < pdb_node_count(db); n++)
		for (s = pdb_node_first_child(db, n); s != PDB_NONE;
		    s = pdb_node_next_sibling(db, s), k++)
			cr_assert_eq(pdb_node_parent(db, s), n);
	cr_assert_eq(k, pdb_node_count(db) - 1, "%u stacks in no child list",
	    pdb_node_count(db) - 1 - k);
	/* Short stacks, short walks: the cache of pushes kept its size. */
	cr_assert_eq(db->pushmask + 1, 16384);
	/* No two children of a stack share a cost centre. */
	for (n = 0; n < pdb_node_count(db); n++)
		for (s = pdb_node_first_child(db, n); s != PDB_NONE;
		    s = pdb_node_next_sibling(db, s))
			for (t = pdb_node_next_sibling(db, s); t != PDB_NONE;
			    t = pdb_node_next_sibling(db, t))
				cr_assert_neq(pdb_node_cc(db, s),
				    pdb_node_cc(db, t));
}

/* Cost centres prefix0 ... prefix(n-1), in module N, into ccs. */
static void
named_ccs(struct pdb *p, const char *prefix, uint32_t *ccs, int n)
{
	uint32_t mod;
	char name[16];
	int i;

	cr_assert(pdb_module_add(p, "N", &mod) == PDB_OK);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s%d", prefix, i);
		cr_assert(pdb_cc_add(p, name, mod, "", 0, -1, &ccs[i]) ==
		    PDB_OK);
	}
}

/* Cost centres f0 ... fn-1 into ccs. */
static void
cycle_ccs(struct pdb *p, uint32_t *ccs, int n)
{
	named_ccs(p, "f", ccs, n);
}

/*
 * Stack s, after pushes of ccs[k % n] for k up to last, count of them,
 * onto root: by the definition, the last n cost centres pushed (or all,
 * when fewer), top first, on the root.
 */
static void
expect_last_pushed(const struct pdb *p, uint32_t s, uint32_t root,
    const uint32_t *ccs, uint32_t n, uint32_t last, uint32_t count)
{
	uint32_t d;

	for (d = 0; s != root && s != PDB_NONE; s = pdb_node_parent(p, s),
	    d++)
		cr_assert_eq(pdb_node_cc(p, s), ccs[(last + n - d % n) % n],
		    "push %u, level %u", last, d);
	cr_assert_eq(s, root, "push %u", last);
	cr_assert_eq(d, count < n ? count : n, "push %u", last);
}

/*
 * A cycle of 1,000 cost centres pushed over and over: each push, but
 * for the first round, compresses, and a miss in the cache of pushes
 * walks 1,000 stacks.  The 1,000 pushes of a round, and the 10^6
 * children their replays find, outgrow a cache of 16,384, so it grows
 * (push.c), and the results stay those of the definition: the last
 * 1,000 cost centres pushed, in order.
 */
Test(push, long_cycle_grows_the_cache, .timeout = 120)
{
	enum { L = 1000, ROUNDS = 16 };
	uint32_t ccs[L], root, s, k;

	cycle_ccs(db, ccs, L);
	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	s = root;
	for (k = 0; k < (uint32_t)L * ROUNDS; k++) {
		cr_assert(pdb_push(db, s, ccs[k % L], &s) == PDB_OK);
		if (k % 997 == 0 || k + 1 == (uint32_t)L * ROUNDS)
			expect_last_pushed(db, s, root, ccs, L, k, k + 1);
	}
	/* One stack per rotation and prefix: L + (L - 1) + ... + 1. */
	cr_assert_eq(pdb_node_count(db), 1 + (uint32_t)L * (L + 1) / 2 +
	    (uint32_t)L * (L - 1) / 2);
	cr_assert_gt(db->pushmask + 1, 16384, "the cache of pushes did not "
	    "grow");
}

/*
 * The same cycle, 200 cost centres, with each allocation of the pushes
 * failing in turn.  A failed cache (that of pushes, or of the children
 * replays find) is no cache, until the next push makes it: the pushes go
 * on, and their results are still right.  Any other failure is
 * PDB_ENOMEM from the push that made it.
 */
Test(push, long_cycle_without_memory_for_the_caches, .timeout = 120)
{
	enum { L = 200, PUSHES = 200 * 25 };
	uint32_t ccs[L + 1], root, s, k;
	struct pdb *p;
	unsigned long fail;
	int rc, nocache = 0;

	for (fail = 1;; fail++) {
		cr_assert((p = pdb_new()) != NULL);
		/* f200 is the root's. */
		cycle_ccs(p, ccs, L + 1);
		cr_assert(pdb_root_new(p, ccs[L], &root) == PDB_OK);
		s = root;
		failalloc_arm(fail);
		for (k = 1, rc = PDB_OK; k <= PUSHES && rc == PDB_OK; k++)
			rc = pdb_push(p, s, ccs[k % L], &s);
		failalloc_arm(0);
		if (!failalloc_fired()) {
			cr_assert_eq(rc, PDB_OK);
			pdb_free(p);
			break;
		}
		if (rc != PDB_OK) {
			cr_assert_eq(rc, PDB_ENOMEM, "allocation %lu", fail);
			pdb_free(p);
			continue;
		}
		nocache++;
		expect_last_pushed(p, s, root, ccs, L, PUSHES, PUSHES);
		pdb_free(p);
	}
	cr_assert_geq(nocache, 2, "the caches' allocations failed");
}

/*
 * A long cycle when the caches can never be had (every allocation of
 * their size fails): the pushes walk every time, so the windows see long
 * walks, and there is no table of pushes to grow.  The results are
 * those of the definition.
 */
Test(push, long_cycle_never_a_cache)
{
	enum { L = 200, PUSHES = 200 * 25 };
	uint32_t ccs[L], root, s, k;

	cycle_ccs(db, ccs, L);
	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	s = root;
	failalloc_size(sizeof(struct pdbi_memo) << 14);
	for (k = 1; k <= PUSHES; k++)
		cr_assert(pdb_push(db, s, ccs[k % L], &s) == PDB_OK);
	failalloc_size(0);
	cr_assert(failalloc_fired(), "no allocation of a cache's size");
	cr_assert(db->memo == NULL && db->pushmemo == NULL &&
	    db->dropmemo == NULL);
	cr_assert(db->dropping, "the walks were not long");
	expect_last_pushed(db, s, root, ccs, L, PUSHES, PUSHES);
}

/*
 * Cost centres a0 ... a(d-1) made a chain on root by children alone
 * (no walk), into ccs; the chain's last stack is returned.
 */
static uint32_t
chain_of(struct pdb *p, uint32_t root, uint32_t *ccs, int d)
{
	uint32_t s = root;
	int i;

	named_ccs(p, "a", ccs, d);
	for (i = 0; i < d; i++)
		cr_assert(pdb_child_get(p, s, ccs[i], &s) == PDB_OK);
	return s;
}

/*
 * Whether t, the push of cc onto s, is by the definition s's stack
 * without cc, and cc on top: read from both down to the root.
 */
static void
expect_moved(const struct pdb *p, uint32_t s, uint32_t cc, uint32_t t)
{
	cr_assert_eq(pdb_node_cc(p, t), cc);
	t = pdb_node_parent(p, t);
	for (; s != 0; s = pdb_node_parent(p, s)) {
		if (pdb_node_cc(p, s) == cc)
			continue;
		cr_assert(t != 0 && t != PDB_NONE, "stack %u too short", s);
		cr_assert_eq(pdb_node_cc(p, t), pdb_node_cc(p, s));
		t = pdb_node_parent(p, t);
	}
	cr_assert_eq(t, 0, "a stack too long");
}

/*
 * A chain a0 ... a(D-1) whose end has W children c_i, each pushing a0
 * again, as a caller of every c_i calling back into a0 makes: each push
 * is a new one, so no cache of pushes helps, and each walked the D
 * stacks back to a0, O(D * W) for 2 * W + D - 1 stacks made.  Once the
 * walks are long, the stacks walked are remembered with a0 dropped, and
 * every push after walks two (push.c): c_i and the chain's end.
 */
Test(push, fan_out_below_a_deep_chain)
{
	enum { D = 4000, W = 4000 };
	static uint32_t as[D], cs[W];
	uint32_t root, end, c, t, i;

	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	end = chain_of(db, root, as, D);
	named_ccs(db, "c", cs, W);
	for (i = 0; i < W; i++) {
		cr_assert(pdb_child_get(db, end, cs[i], &c) == PDB_OK);
		cr_assert(pdb_push(db, c, as[0], &t) == PDB_OK);
		expect_moved(db, c, as[0], t);
	}
	/* The chain, the c_i on it, a1 ... a(D-1) again, each c_i and a0. */
	cr_assert_eq(pdb_node_count(db), 1 + D + W + (D - 1) + 2 * W);
	/* The window's walks before the cache, then two stacks a push,
	 * each counted with a0. */
	cr_assert_leq(db->walked, (uint64_t)PDBI_PUSH_WALK_MAX *
	    PDBI_PUSH_WINDOW + (D + 1) + 3 * W, "%llu stacks walked",
	    (unsigned long long)db->walked);
}

/* Under the chain, a binary tree of depth levels, walked in pre-order;
 * each leaf pushes a0. */
static void
fan_tree(uint32_t s, const uint32_t *ccs, uint32_t k, int level,
    int levels, uint32_t a0, uint32_t *pushes)
{
	uint32_t c, t;

	cr_assert(pdb_child_get(db, s, ccs[k], &c) == PDB_OK);
	if (level + 1 == levels) {
		cr_assert(pdb_push(db, c, a0, &t) == PDB_OK);
		expect_moved(db, c, a0, t);
		(*pushes)++;
		return;
	}
	fan_tree(c, ccs, 2 * k + 1, level + 1, levels, a0, pushes);
	fan_tree(c, ccs, 2 * k + 2, level + 1, levels, a0, pushes);
}

/*
 * The fan-out spread over a tree of narrow stacks: a binary tree of
 * 4,095 stacks under the chain, each of its 2,048 leaves pushing a0.
 * A push walks back to the nearest stack an earlier one walked, so each
 * stack of the tree is walked about once, where each push walked the
 * chain.
 */
Test(push, fan_out_tree_below_a_deep_chain)
{
	enum { D = 4000, LEVELS = 12, TREE = (1 << LEVELS) - 1 };
	static uint32_t as[D], ts[TREE];
	uint32_t root, end, pushes = 0;

	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	end = chain_of(db, root, as, D);
	named_ccs(db, "t", ts, TREE);
	fan_tree(end, ts, 0, 0, LEVELS, as[0], &pushes);
	cr_assert_eq(pushes, 1u << (LEVELS - 1));
	cr_assert_leq(db->walked, (uint64_t)PDBI_PUSH_WALK_MAX *
	    PDBI_PUSH_WINDOW + (D + LEVELS) + 4 * TREE, "%llu stacks walked",
	    (unsigned long long)db->walked);
}

/*
 * Random pushes once stacks are remembered with a cost centre dropped:
 * after the fan-out below a chain has made the walks long, pushes onto
 * any stack, of a cost centre on it half the time, give the stacks of
 * the definition.
 */
Test(push, random_pushes_with_dropped_stacks)
{
	enum { D = 600, W = 400, NCC = 50, NPUSH = 30000 };
	static uint32_t as[D], cs[W], fs[NCC];
	unsigned long seed = 4242;
	uint32_t root, end, c, s, t, cc, n, k, i, depth;

	cr_assert(pdb_root_new(db, MAIN, &root) == PDB_OK);
	end = chain_of(db, root, as, D);
	named_ccs(db, "c", cs, W);
	named_ccs(db, "f", fs, NCC);
	for (i = 0; i < W; i++) {
		cr_assert(pdb_child_get(db, end, cs[i], &c) == PDB_OK);
		cr_assert(pdb_push(db, c, as[i % 7], &t) == PDB_OK);
		expect_moved(db, c, as[i % 7], t);
	}
	cr_assert(db->dropmemo != NULL, "the walks were not long");
	for (k = 0; k < NPUSH; k++) {
		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		s = (uint32_t)(seed >> 33) % pdb_node_count(db);
		depth = pdb_node_depth(db, s);
		if ((seed >> 7) & 1 && depth > 0) {
			/* A cost centre on s, somewhere below its top. */
			for (n = s, i = (uint32_t)(seed >> 40) % depth; i > 0;
			    i--)
				n = pdb_node_parent(db, n);
			cc = pdb_node_cc(db, n);
		} else
			cc = (seed >> 12) & 1 ? fs[(seed >> 20) % NCC] :
			    cs[(seed >> 20) % W];
		cr_assert(pdb_push(db, s, cc, &t) == PDB_OK);
		if (s != 0 && pdb_node_cc(db, s) == cc)
			cr_assert_eq(t, s, "push %u", k);
		else if (s != 0)
			expect_moved(db, s, cc, t);
	}
}
