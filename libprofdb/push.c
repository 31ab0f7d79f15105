/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Push, as in Morgan & Jarvis section 2.4.2, over the stack table of
 * pdb_int.h.  Pushing cost centre cc onto stack s:
 *
 *  1. if s's index table has cc, return the stack found (case 1);
 *  2. otherwise follow the back pointers from s, remembering each stack
 *     passed on a conventional stack, until cc or the root is found;
 *  3. not found: make a new stack cc above s (case 2);
 *  4. found at stack p: from p's parent, replay the remembered cost
 *     centres, finding or making each intermediate stack, then push cc on
 *     top (case 3, all three subcases), and memoise the result: in a
 *     cache of the last few (pdb_int.h), which spares a stack pushed
 *     onto many times over, as under a wide stack de-selected, the walk
 *     each time.
 *
 * The replay is a recursion: s with cc dropped is s's parent with cc
 * dropped, and s's cost centre pushed back on it.  So a push through a
 * stack x whose "x with cc dropped" is known can stop its walk at x and
 * replay from there.  Pushes that never repeat still share those stacks:
 * the W stacks under the end of a chain D deep, each pushing the chain's
 * first cost centre, walk D stacks once and then one each, where each
 * walked D, O(D * W) for O(D + W) stacks made.  Looking it up costs a
 * probe a stack walked, so dropmemo is kept only once the walks of a
 * window have come to more than PDBI_PUSH_WALK_MAX stacks a push.
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

/*
 * The caches of push (pdb_int.h) are direct-mapped tables.  That of the
 * children replays find has 16,384 entries, 192 KB, and so has that of
 * stacks with a cost centre dropped.  That of compressing pushes starts
 * as large, and doubles, up to one entry a node, when in a window of
 * pushes its misses walked more than PDBI_PUSH_WALK_MAX stacks a push: a
 * cycle of L cost centres repeated on one path asks for the same L
 * pushes over and over, each of which walks L stacks when missed, so
 * that once L^2 passed the table's size, a push cost L.
 */
#define MEMO_BITS	14
#define MEMO_MASK	(((size_t)1 << MEMO_BITS) - 1)

/* The slot of a cost centre in a table of mask + 1 slots. */
static size_t
slot_of(uint32_t cc, uint32_t mask)
{
	return (size_t)((cc * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

/* The table of wide stack s in kids, or the empty entry where it would
 * go.  The last one found is asked for again most of the time. */
static uint32_t
tab_where(struct pdb *db, uint32_t s)
{
	size_t i, mask = db->kidcap - 1;

	if (db->kids[db->kidlast].stack == s)
		return db->kidlast;
	for (i = (size_t)pdbi_mix64(s) & mask; db->kids[i].stack != s &&
	    db->kids[i].stack != PDB_NONE; i = (i + 1) & mask)
		;
	return (uint32_t)i;
}

/* The slot of cc in table t, or of the empty slot where it would go. */
static struct pdbi_kidslot *
slot_where(const struct pdbi_kidtab *t, uint32_t cc)
{
	size_t i;

	for (i = slot_of(cc, t->mask); t->slot[i].node != PDB_NONE &&
	    t->slot[i].cc != cc; i = (i + 1) & t->mask)
		;
	return &t->slot[i];
}

/* The child of wide stack s with cost centre cc, or PDB_NONE. */
static uint32_t
kid_find(struct pdb *db, uint32_t s, uint32_t cc)
{
	db->kidlast = tab_where(db, s);
	return slot_where(&db->kids[db->kidlast], cc)->node;
}

/* Make room in table t for one more child. */
static int
tab_reserve(struct pdbi_kidtab *t)
{
	struct pdbi_kidslot *slot, *old = t->slot, *e;
	size_t cap = (size_t)t->mask + 1, i;

	if (old != NULL && ((size_t)t->n + 1) * 4 <= cap * 3)
		return PDB_OK;
	cap = old != NULL ? 2 * cap : 16;
	if (cap > UINT32_MAX || (slot = pdbi_malloc(cap *
	    sizeof(*slot))) == NULL)
		return PDB_ENOMEM;
	for (i = 0; i < cap; i++)
		slot[i].node = PDB_NONE;
	t->slot = slot;
	t->mask = (uint32_t)(cap - 1);
	for (i = 0; old != NULL && i < (cap / 2); i++)
		if (old[i].node != PDB_NONE) {
			e = slot_where(t, old[i].cc);
			*e = old[i];
		}
	free(old);
	return PDB_OK;
}

/* Enter node n in table t, which has room, replacing an earlier sibling
 * of the same cost centre (a raw tree may have two). */
static void
kid_put(struct pdbi_kidtab *t, uint32_t n, uint32_t cc)
{
	struct pdbi_kidslot *e = slot_where(t, cc);

	if (e->node == PDB_NONE)
		t->n++;
	e->cc = cc;
	e->node = n;
}

/* Make room in kids for one more table. */
static int
kids_reserve(struct pdb *db)
{
	struct pdbi_kidtab *t, *old = db->kids;
	size_t cap = db->kidcap, i, j;

	if ((db->nkids + 1) * 2 <= cap)
		return PDB_OK;
	cap = cap ? 2 * cap : 256;
	if (cap > SIZE_MAX / sizeof(*t) || (t = pdbi_malloc(cap *
	    sizeof(*t))) == NULL)
		return PDB_ENOMEM;
	for (i = 0; i < cap; i++)
		t[i].stack = PDB_NONE;
	for (i = 0; i < db->kidcap; i++) {
		if (old[i].stack == PDB_NONE)
			continue;
		for (j = (size_t)pdbi_mix64(old[i].stack) & (cap - 1);
		    t[j].stack != PDB_NONE; j = (j + 1) & (cap - 1))
			;
		t[j] = old[i];
	}
	free(old);
	db->kids = t;
	db->kidcap = cap;
	db->kidlast = 0;
	return PDB_OK;
}

/* Make s wide: its children go into a table of its own. */
static int
make_wide(struct pdb *db, uint32_t s)
{
	size_t need = (size_t)s / 64 + 1, cap = db->nwide;
	uint32_t c, last = db->nodes[s].last_child;
	struct pdbi_kidtab *t;
	uint64_t *w;

	if (need > cap) {
		while (cap < need)
			cap = cap ? 2 * cap : 1024;
		if ((w = pdbi_realloc(db->wide, cap * sizeof(*w))) == NULL)
			return PDB_ENOMEM;
		memset(w + db->nwide, 0, (cap - db->nwide) * sizeof(*w));
		db->wide = w;
		db->nwide = cap;
	}
	if (kids_reserve(db) != PDB_OK)
		return PDB_ENOMEM;
	db->kidlast = tab_where(db, s);
	t = &db->kids[db->kidlast];
	t->n = t->mask = 0;
	t->slot = NULL;
	c = last;
	do {
		c = db->nodes[c].next;
		if (tab_reserve(t) != PDB_OK) {
			free(t->slot);
			return PDB_ENOMEM;
		}
		kid_put(t, c, db->nodes[c].cc);
	} while (c != last);
	/* Entered last, so that a failure above leaves kids as it was. */
	t->stack = s;
	db->nkids++;
	db->wide[s / 64] |= (uint64_t)1 << (s % 64);
	return PDB_OK;
}

int
pdbi_child_find_wide(struct pdb *db, uint32_t s, uint32_t cc, uint32_t *out)
{
	if (!pdbi_is_wide(db, s) && make_wide(db, s) != PDB_OK)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	*out = kid_find(db, s, cc);
	return PDB_OK;
}

/* Make the stack "cc on top of s", which is no child of s yet, with
 * values vals (NULL: zeros). */
int
pdbi_child_new(struct pdb *db, uint32_t s, uint32_t cc, const int64_t *vals,
    uint32_t *out)
{
	struct pdbi_kidtab *t = NULL;
	int rc;

	if (pdbi_is_wide(db, s)) {
		db->kidlast = tab_where(db, s);
		t = &db->kids[db->kidlast];
		if (tab_reserve(t) != PDB_OK)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	}
	if ((rc = pdbi_node_new(db, s, cc, vals, out)) != PDB_OK)
		return rc;
	if (t != NULL)
		kid_put(t, *out, cc);
	return PDB_OK;
}

/* The stack "cc on top of s", found or made as a child. */
static int
child_of(struct pdb *db, uint32_t s, uint32_t cc, uint32_t *out)
{
	int rc;

	if ((rc = pdbi_child_find(db, s, cc, out)) != PDB_OK ||
	    *out != PDB_NONE)
		return rc;
	return pdbi_child_new(db, s, cc, NULL, out);
}

int
pdb_child_get(struct pdb *db, uint32_t parent, uint32_t cc, uint32_t *out)
{
	if (parent >= db->nnodes || cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "pdb_child_get: bad argument");
	return child_of(db, parent, cc, out);
}

void
pdbi_index_free(struct pdb *db)
{
	size_t i;

	for (i = 0; i < db->kidcap; i++)
		if (db->kids[i].stack != PDB_NONE)
			free(db->kids[i].slot);
	free(db->kids);
	free(db->wide);
	free(db->memo);
	free(db->pushmemo);
	free(db->dropmemo);
	free(db->pushpath);
	db->kids = NULL;
	db->wide = NULL;
	db->memo = NULL;
	db->pushmemo = NULL;
	db->dropmemo = NULL;
	db->pushpath = NULL;
	db->kidcap = db->nkids = db->nwide = db->pushcap = 0;
	db->pushmask = 0;
	db->pushcalls = db->pushwalk = db->walked = 0;
	db->dropping = 0;
	db->kidlast = 0;
}

/* The entry for cc pushed onto s in a table of mask + 1 entries. */
static struct pdbi_memo *
memo_slot(struct pdbi_memo *memo, size_t mask, uint32_t s, uint32_t cc)
{
	return &memo[pdbi_mix64((uint64_t)s << 32 | cc) & mask];
}

/* A new table of n empty entries, or NULL: without memory, no cache. */
static struct pdbi_memo *
memo_new(size_t n)
{
	struct pdbi_memo *memo;
	size_t i;

	if ((memo = pdbi_malloc(n * sizeof(*memo))) != NULL)
		for (i = 0; i < n; i++)
			memo[i].s = PDB_NONE;
	return memo;
}

/*
 * At the end of a window of compressing pushes, double the table if its
 * misses walked far.  Its entries move to the new table: misses while
 * it filled again would make it grow again.
 */
static void
push_window_end(struct pdb *db)
{
	struct pdbi_memo *bigger, *e;
	size_t n = db->pushmask + 1, i;

	/* Without memory for a table, there is none to grow. */
	if (db->pushmemo != NULL &&
	    db->pushwalk > (uint64_t)PDBI_PUSH_WALK_MAX * PDBI_PUSH_WINDOW &&
	    n * 2 <= db->nnodes && (bigger = memo_new(n * 2)) != NULL) {
		for (i = 0; i < n; i++) {
			e = &db->pushmemo[i];
			if (e->s != PDB_NONE)
				*memo_slot(bigger, n * 2 - 1, e->s, e->cc) = *e;
		}
		free(db->pushmemo);
		db->pushmemo = bigger;
		db->pushmask = n * 2 - 1;
	}
	db->pushcalls = db->pushwalk = 0;
}

/* Count a compressing push. */
static inline void
push_counted(struct pdb *db)
{
	if (++db->pushcalls == PDBI_PUSH_WINDOW)
		push_window_end(db);
}

/*
 * Count a compressing push that missed the cache and walked walk
 * stacks.  Walks long for a window start dropmemo at once: the window's
 * pushes could each be as long as the stack is deep.
 */
static void
push_missed(struct pdb *db, size_t walk)
{
	db->pushwalk += walk;
	db->walked += walk;
	if (!db->dropping && db->pushwalk >
	    (uint64_t)PDBI_PUSH_WALK_MAX * PDBI_PUSH_WINDOW) {
		/* Without memory, no cache, and no asking again. */
		db->dropping = 1;
		db->dropmemo = memo_new(MEMO_MASK + 1);
	}
	push_counted(db);
}

/* Stack x with cc dropped, if table drop has it, into t. */
static inline int
drop_found(struct pdbi_memo *drop, uint32_t x, uint32_t cc, uint32_t *t)
{
	const struct pdbi_memo *e = memo_slot(drop, MEMO_MASK, x, cc);

	if (e->s != x || e->cc != cc)
		return 0;
	*t = e->t;
	return 1;
}

/*
 * Walk back from s to find an earlier occurrence of cc, into n, or a
 * stack known with it dropped (in table drop, if not NULL), into t; the
 * root is fixed.  The path is the cost centres to push again, last
 * first: cc, then those passed from s down, npath of them in all.
 */
static inline int
walk_back(struct pdb *db, struct pdbi_memo *drop, uint32_t s,
    uint32_t cc, uint32_t *np, size_t *npathp, uint32_t *t)
{
	size_t npath = *npathp;
	uint32_t n;

	for (n = s; n != 0 && db->nodes[n].cc != cc; n = db->nodes[n].parent) {
		if (drop != NULL && drop_found(drop, n, cc, t))
			break;
		if (pdbi_grow(&db->pushpath, &db->pushcap, npath + 1,
		    sizeof(*db->pushpath)) != PDB_OK)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		db->pushpath[npath++] = db->nodes[n].cc;
	}
	*np = n;
	*npathp = npath;
	return PDB_OK;
}

/*
 * Remember "x with cc dropped" for the walked stacks of a push of cc
 * onto x that gave t: x and its parents, walked of them.  The first is
 * t's parent, the next its parent, and so on, as the replay made them.
 */
static void
drops_remember(struct pdb *db, uint32_t x, uint32_t cc, uint32_t t,
    size_t walked)
{
	struct pdbi_memo *e;

	for (; walked > 0; walked--) {
		t = db->nodes[t].parent;
		e = memo_slot(db->dropmemo, MEMO_MASK, x, cc);
		e->s = x;
		e->cc = cc;
		e->t = t;
		x = db->nodes[x].parent;
	}
}

/*
 * A child found again by a replay.  Replays of one stack's pushes go
 * over the same levels, whose children are scattered over the node
 * array: a scan of a short list is a cache miss a child.  Finding the
 * child is pushing cc (case 1), so the answer goes in the memo, in a
 * table of its own: 61% of these lookups were found there when
 * projecting the 100 MB generated pgcl profile, 42% the dump.
 */
static int
replay_find(struct pdb *db, uint32_t t, uint32_t cc, uint32_t *out)
{
	struct pdbi_memo *e = db->memo != NULL ? memo_slot(db->memo,
	    MEMO_MASK, t, cc) : NULL;
	int rc;

	if (e != NULL && e->s == t && e->cc == cc) {
		*out = e->t;
		return PDB_OK;
	}
	if ((rc = pdbi_child_find(db, t, cc, out)) == PDB_OK && e != NULL &&
	    *out != PDB_NONE) {
		e->s = t;
		e->cc = cc;
		e->t = *out;
	}
	return rc;
}

/* Cases 2 and 3 of pdb_push(): cc is no child of s. */
int
pdbi_push_moved(struct pdb *db, uint32_t s, uint32_t cc, uint32_t *out)
{
	struct pdbi_memo *drop = db->dropmemo;
	struct pdbi_memo *e;
	uint32_t n = 0, t = PDB_NONE, c, *path;
	size_t npath = 1, walked;
	int rc;

	if (db->pushmemo != NULL) {
		e = memo_slot(db->pushmemo, db->pushmask, s, cc);
		if (e->s == s && e->cc == cc) {
			*out = e->t;
			push_counted(db);
			return PDB_OK;
		}
	}
	if (pdbi_grow(&db->pushpath, &db->pushcap, 1, sizeof(*db->pushpath)) !=
	    PDB_OK)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	/* Without dropmemo, the walk has no probe to skip. */
	if ((rc = drop == NULL ? walk_back(db, NULL, s, cc, &n, &npath, &t) :
	    walk_back(db, drop, s, cc, &n, &npath, &t)) != PDB_OK)
		return rc;
	/* Case 2: cc is not on s, and no child of s has it (case 1). */
	if (n == 0)
		return pdbi_child_new(db, s, cc, NULL, out);
	/* A walk the cache could have spared: case 2 makes a child. */
	walked = npath - 1;
	push_missed(db, npath);
	/*
	 * Case 3: drop the occurrence at n and rebuild above its parent
	 * (or above n with cc dropped), finding each stack while there is
	 * one.  From the first missing on, all are new (a new stack has no
	 * children), so they are made as one chain (pdbi_chain_new()):
	 * replays make most of a projection's nodes.
	 */
	path = db->pushpath;
	path[0] = cc;
	if (t == PDB_NONE)
		t = db->nodes[n].parent;
	while (npath-- > 0) {
		if ((rc = replay_find(db, t, path[npath], &c)) != PDB_OK)
			return rc;
		if (c == PDB_NONE) {
			if ((rc = pdbi_chain_new(db, t, path, npath + 1, &t)) !=
			    PDB_OK)
				return rc;
			break;
		}
		t = c;
	}
	*out = t;
	/*
	 * Caches: without memory, nothing is remembered.  The stack a walk
	 * stopped at in dropmemo is written again, last: the next push
	 * through it may well stop there too.
	 */
	if (db->dropmemo != NULL)
		drops_remember(db, s, cc, t, walked +
		    (db->nodes[n].cc != cc));
	if (db->memo == NULL)
		db->memo = memo_new(MEMO_MASK + 1);
	if (db->pushmemo == NULL &&
	    (db->pushmemo = memo_new(MEMO_MASK + 1)) != NULL)
		db->pushmask = MEMO_MASK;
	if (db->pushmemo != NULL) {
		e = memo_slot(db->pushmemo, db->pushmask, s, cc);
		e->s = s;
		e->cc = cc;
		e->t = t;
	}
	return PDB_OK;
}

int
pdb_push(struct pdb *db, uint32_t s, uint32_t cc, uint32_t *out)
{
	int rc;

	if (s >= db->nnodes || cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "pdb_push: bad argument");
	/* Case 1: pushed before. */
	if ((rc = pdbi_child_find(db, s, cc, out)) != PDB_OK ||
	    *out != PDB_NONE)
		return rc;
	return pdbi_push_moved(db, s, cc, out);
}
