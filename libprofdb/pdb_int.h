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
 * is one hash table for the whole profile, keyed by (stack, cost centre).
 * It holds every child made through Push or pdb_child_get(), and also the
 * memoised results of compressing pushes, whose result is not a child of
 * the stack pushed onto (the paper's case 3: "C5 => B6" although B6's back
 * pointer is C4).  Nodes appended raw by readers enter the index only
 * when a Push first needs it (index_sync).  Tree walks use the child lists
 * (first_child/next_sibling), never the index.
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
	uint32_t	 first_child;
	uint32_t	 last_child;
	uint32_t	 next_sibling;
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

	struct pdbi_map	 index;		/* (stack, cc) -> stack */
	uint32_t	 indexed;	/* nodes [0, indexed) are in index */

	char		*namebuf;	/* for pdb_cc_fullname() */
	size_t		 namecap;
};

/* Allocation: every allocation of the library goes through these, so a
 * test can make the n-th one fail. */
void		*pdbi_malloc(size_t);
void		*pdbi_calloc(size_t, size_t);
void		*pdbi_realloc(void *, size_t);
/* Grow *p (of *cap elements of size sz) to hold at least need. */
int		 pdbi_grow(void *p, size_t *cap, size_t need, size_t sz);
char		*pdbi_strdup(const char *);

uint64_t	 pdbi_hash_bytes(const void *, size_t, uint64_t seed);

int		 pdbi_map_get(const struct pdbi_map *, uint64_t key, uint32_t *val);
int		 pdbi_map_put(struct pdbi_map *, uint64_t key, uint32_t val);
void		 pdbi_map_free(struct pdbi_map *);

int		 pdbi_node_new(struct pdb *, uint32_t parent, uint32_t cc,
		    uint32_t *out);

#endif /* PDB_INT_H */
