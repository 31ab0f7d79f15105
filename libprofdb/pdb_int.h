/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Private to libprofdb: the layout of struct pdb and helpers shared
 * between its files.
 *
 * How the stack table works.  The paper's cost-centre-stack table is the
 * node array: node n is a stack, its back pointer is parent[n] and its
 * top is cc[n].  The paper's per-stack index table (cost centre -> stack)
 * is one hash table for the whole profile, keyed by (stack, cost centre),
 * in two parts.  The children made through Push or pdb_child_get() are in
 * kids, an open-addressing table of bare node numbers: a child's key is
 * its own (parent, cc), so four bytes a slot do.  The memoised results of
 * compressing pushes, which are not children of the stack pushed onto
 * (the paper's case 3: "C5 => B6" although B6's back pointer is C4), are
 * few and live in memo with explicit keys.  Nodes appended raw by readers
 * enter the index only when a Push first needs it (index_sync).
 *
 * Tree walks use the child lists, never the index.  A node is 16 bytes:
 * it keeps its last child, and the children form a circular list through
 * next (the last child's next is the first child), so that appending a
 * child is O(1) without a first_child field.  A tree of a million nodes
 * with three metrics takes 40 MB.
 */
#ifndef PDB_INT_H
#define PDB_INT_H

#ifndef PDB_BUILDING
#error "pdb_int.h is private to libprofdb"
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "pdb.h"

#define PDB_MAGIC	0x70646231u	/* "pdb1" */

struct pdbi_node {
	uint32_t	 cc;
	uint32_t	 parent;
	uint32_t	 last_child;
	uint32_t	 next;		/* circular among siblings */
};

struct pdbi_ccrec {
	char		*label;
	char		*src;
	uint32_t	 module;
	uint32_t	 flags;
	int64_t		 profile_id;
};

struct pdbi_meta {
	char		*key;
	char		*value;
};

/* Open-addressing map from a 64-bit key to a 32-bit value. */
struct pdbi_map {
	uint64_t	*keys;
	uint32_t	*vals;
	size_t		 cap;		/* power of two, or 0 */
	size_t		 count;
};

struct pdb {
	uint32_t	 magic;
	int		 errcode;
	char		 errmsg[512];
	pdb_warn_fn	*warn;
	void		*warn_arg;

	struct pdbi_meta *meta;
	size_t		 nmeta, capmeta;

	struct pdb_metric *metrics;	/* strings owned */
	unsigned	 nmetrics;
	size_t		 capmetrics;

	char		**modules;
	uint32_t	 nmodules;
	size_t		 capmodules;

	struct pdbi_ccrec *ccs;
	uint32_t	 nccs;
	size_t		 capccs;
	uint32_t	*cc_hash;	/* interning table of cc indices, or NULL */
	size_t		 cc_hash_cap;

	struct pdbi_node *nodes;
	int64_t		*values;	/* nodes * nmetrics */
	uint32_t	 nnodes;
	size_t		 capnodes, capvalues;

	uint32_t	*kids;		/* children by (parent, cc); PDB_NONE empty */
	size_t		 kidcap, nkids;
	struct pdbi_map	 memo;		/* compressing pushes: (stack, cc) -> stack */
	uint32_t	 indexed;	/* nodes [0, indexed) are in kids */

	char		*namebuf;	/* for pdb_cc_fullname() */
	size_t		 namecap;
};

/* Allocation: every allocation of the library goes through these, so a
 * test can make the n-th one fail. */
void		*pdbi_malloc(size_t);
void		*pdbi_calloc(size_t, size_t);
void		*pdbi_realloc(void *, size_t);
/* Grow *p (of *cap elements of size sz) to hold at least need; inline
 * when there is room already, as on every hot path. */
int		 pdbi_grow_slow(void *p, size_t *cap, size_t need, size_t sz);

static inline int
pdbi_grow(void *p, size_t *cap, size_t need, size_t sz)
{
	return need <= *cap ? PDB_OK : pdbi_grow_slow(p, cap, need, sz);
}
char		*pdbi_strdup(const char *);

uint64_t	 pdbi_hash_bytes(const void *, size_t, uint64_t seed);

int		 pdbi_map_get(const struct pdbi_map *, uint64_t key, uint32_t *val);
int		 pdbi_map_put(struct pdbi_map *, uint64_t key, uint32_t val);
void		 pdbi_map_free(struct pdbi_map *);

int		 pdbi_node_new(struct pdb *, uint32_t parent, uint32_t cc,
		    uint32_t *out);

/* The child lists (see the top of this file). */
static inline uint32_t
pdbi_first_child(const struct pdb *db, uint32_t n)
{
	uint32_t l = db->nodes[n].last_child;

	return l == PDB_NONE ? PDB_NONE : db->nodes[l].next;
}

static inline uint32_t
pdbi_next_sibling(const struct pdb *db, uint32_t n)
{
	uint32_t p = db->nodes[n].parent;

	return p == PDB_NONE || db->nodes[p].last_child == n ? PDB_NONE :
	    db->nodes[n].next;
}

/*
 * Overflow.  Every value a reader streams goes through a tree builder or
 * a flat sink, which keep per metric the sum of the positive values and
 * the magnitude of the sum of the negative ones, in r[0] and r[1], with
 * pdbi_sum_add(), and fail with pdbi_overflow() when either leaves the
 * range of int64_t.  Every sum computed later (inclusive values, flat
 * and inherited costs, projections, pruning, callers, the writers'
 * totals) adds up some of those values, so it lies between -r[1] and
 * r[0]: none can wrap.
 */
static inline int
pdbi_sum_add(uint64_t r[2], int64_t v)
{
	uint64_t m;

	if (v >= 0) {
		m = (uint64_t)v;
		if (m > (uint64_t)INT64_MAX - r[0])
			return 1;
		r[0] += m;
	} else {
		m = 0 - (uint64_t)v;
		if (m > (uint64_t)INT64_MAX + 1 - r[1])
			return 1;
		r[1] += m;
	}
	return 0;
}
/* Set and return the error "64-bit overflow summing 'metric' ...". */
int		 pdbi_overflow(struct pdb *, unsigned metric, uint32_t cc);

#endif /* PDB_INT_H */
