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
 * is the stack's child list, read by a short scan while the stack has at
 * most PDBI_SCAN children; a stack with more (a wide stack, marked in
 * the bitmap wide) has its children in a table of its own as well, an
 * open-addressing one of (cc, node) slots, found in kids by the stack's
 * number.  A table per stack, not one for the whole profile keyed by
 * (parent, cc): a stack's children are mostly asked for one after the
 * other, and its own small table is then in the cache, where slots of
 * the whole profile's were a cache miss each (15% of ccs-select's time
 * on a pgcl profile); and a slot holds the key, so a lookup never reads
 * the node it finds.  Most stacks have a few children, so the tables
 * stay few, and a scan reads nodes made recently, which are in the
 * cache, where a table probe could miss it.  The
 * results of compressing pushes, which are not children of the stack
 * pushed onto (the paper's case 3: "C5 => B6" although B6's back pointer
 * is C4), are remembered in pushmemo, a small direct-mapped cache with
 * explicit keys: few are ever asked for again (8 to 28% of them when
 * projecting the generated profiles), and a table of them all cost more
 * time, in cache misses, than walking the stack again, and 2 to 4 bytes
 * a node.  It grows only when its misses walk far (push.c).  The
 * children that a replay of case 3 finds again go in a cache of their
 * own, memo: finding a child is a push too (case 1).  Once walks grow
 * long, a third cache, dropmemo, keeps for the stacks walked the stack
 * with the pushed cost centre dropped, which the next walk through them
 * need not walk past (push.c).  All of this is an index: dropping it
 * (pdbi_index_free()) loses nothing but time.
 *
 * Tree walks use the child lists, never the index.  A node is 16 bytes:
 * it keeps its last child, and the children form a circular list through
 * next (the last child's next is the first child), so that appending a
 * child is O(1) without a first_child field.  A node is always made
 * after its parent and appended to its parent's list, so a parent's
 * number is below its children's, and siblings are in the order of their
 * numbers.
 *
 * How values are stored.  The values of metric m are a column, one
 * element a node, of a narrow type (enum pdbi_type): a column starts
 * with no storage (all zero) and is widened in place, at most six times,
 * when a value does not fit.  Profiles are mostly small counts, so the
 * values of a pgcl profile's six metrics take about 20 bytes a node
 * instead of 48.  But a few values may not fit where nearly all do:
 * the sums of a projection push a handful of the words of a pgcl
 * profile past 32 bits, which would double the column for every node.
 * So each narrow type keeps its largest value as an escape: an element
 * holding it says the value is in side, one table for the whole profile
 * keyed by (metric, node).  A value that does not fit escapes while its
 * column has fewer than 1/64 of the nodes in side (a slot costs some 24
 * bytes), and the column widens otherwise, taking its escaped values
 * back.  Renumbering the nodes (pdbi_preorder(), pruning) widens the
 * columns with escapes first: nothing else needs to know.
 */
#ifndef PDB_INT_H
#define PDB_INT_H

#ifndef PDB_BUILDING
#error "pdb_int.h is private to libprofdb"
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pdb.h"

#define PDB_MAGIC	0x70646231u	/* "pdb1" */

struct pdbi_node {
	uint32_t	 cc;
	uint32_t	 parent;
	uint32_t	 last_child;
	uint32_t	 next;		/* circular among siblings */
};

/* Column types, narrowest first (values.c). */
enum pdbi_type {
	PDBI_ZERO, PDBI_U8, PDBI_S8, PDBI_U16, PDBI_S16, PDBI_U32, PDBI_S32,
	PDBI_S64
};

struct pdbi_col {
	unsigned char	*v;		/* capvals elements */
	enum pdbi_type	 type;
	unsigned	 size;		/* bytes an element */
	int64_t		 lo, hi;	/* the values an element holds */
	int64_t		 esc;		/* the element of a value in side */
	size_t		 nside;		/* the column's values in side */
};

/* Compressing pushes are counted in windows of PDBI_PUSH_WINDOW; walks
 * of more than PDBI_PUSH_WALK_MAX stacks a push are long (push.c). */
#define PDBI_PUSH_WINDOW	4096
#define PDBI_PUSH_WALK_MAX	32

/* A stack with more children than this has them in the kids table. */
#define PDBI_SCAN	8

/* The children of a wide stack by cost centre (push.c). */
struct pdbi_kidslot {
	uint32_t	 cc;
	uint32_t	 node;		/* PDB_NONE: empty */
};

struct pdbi_kidtab {
	uint32_t	 stack;		/* PDB_NONE: empty */
	uint32_t	 n, mask;	/* children, slots less one */
	struct pdbi_kidslot *slot;
};

/* A compressing push remembered: cc pushed onto s gave t (push.c). */
struct pdbi_memo {
	uint32_t	 s, cc, t;
};

struct pdbi_ccrec {
	const char	*label;
	const char	*src;
	uint32_t	 module;
	uint32_t	 flags;
	int64_t		 profile_id;
};

struct pdbi_meta {
	char		*key;
	char		*value;
};

/* The values that escaped their columns: (metric, node) -> value. */
struct pdbi_side {
	uint64_t	*keys;		/* UINT64_MAX: empty */
	int64_t		*vals;
	size_t		 cap;		/* power of two, or 0 */
	size_t		 count;
};

/* Names kept as long as the profile, in blocks freed together
 * (strings.c). */
struct pdbi_strings {
	struct pdbi_strblock *blocks;	/* the one being filled first */
	size_t		 used, cap;	/* of the one being filled */
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

	struct pdbi_strings names;	/* of modules and cost centres */
	char		**modules;
	uint32_t	 nmodules;
	size_t		 capmodules;

	struct pdbi_ccrec *ccs;
	uint32_t	 nccs;
	size_t		 capccs;
	uint32_t	*cc_hash;	/* interning table of cc indices, or NULL */
	size_t		 cc_hash_cap;
	uint32_t	*mod_hash;	/* the same of module indices, or NULL */
	size_t		 mod_hash_cap;

	struct pdbi_node *nodes;
	uint32_t	 nnodes;
	size_t		 capnodes;
	struct pdbi_col	*cols;		/* nmetrics columns */
	size_t		 capcols;
	size_t		 capvals;	/* elements every column has room for */
	size_t		 faulted;	/* nodes and elements prefaulted below */
	uint32_t	 unzeroed;	/* new nodes from here on are zeroed
					   later (pdbi_values_defer()), or
					   PDB_NONE */
	int64_t		*scratch;	/* nmetrics values, for pdb_node_values() */
	struct pdbi_side side;		/* values escaped from their columns */

	struct pdbi_kidtab *kids;	/* the tables of wide stacks by stack */
	size_t		 kidcap, nkids;	/* slots, tables */
	uint32_t	 kidlast;	/* the slot of the last table used */
	uint64_t	*wide;		/* bit n: node n is a wide stack */
	size_t		 nwide;		/* words in wide */
	struct pdbi_memo *memo;		/* children replays found, or NULL */
	struct pdbi_memo *pushmemo;	/* compressing pushes, or NULL */
	size_t		 pushmask;	/* pushmemo's entries less one */
	uint64_t	 pushcalls;	/* compressing pushes in this window */
	uint64_t	 pushwalk;	/* stacks their misses walked */
	uint64_t	 walked;	/* stacks walked by compressing pushes,
					   in all */
	struct pdbi_memo *dropmemo;	/* stacks with a cost centre dropped,
					   or NULL */
	int		 dropping;	/* walks were long: dropmemo is kept */
	uint32_t	*pushpath;	/* push.c's scratch: cost centres */
	size_t		 pushcap;

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
/* s copied into st, or "" when it is empty; NULL without memory. */
char		*pdbi_strings_dup(struct pdbi_strings *st, const char *s);
void		 pdbi_strings_free(struct pdbi_strings *);

/* What this CPU and system run fast (cpu.c).  The first four are for
 * the formats library, which declares them too (formats_int.h). */
int		 pdb_cpu_pext(void);
int		 pdb_cpu_avx512(void);
int		 pdb_cpu_pclmul(void);
int		 pdb_cpu_vpclmul(void);
int		 pdb_cpu_avx512f(void);

uint64_t	 pdbi_hash_bytes(const void *, size_t, uint64_t seed);

/* A 64-bit key mixed, for the low bits to index a power-of-two table. */
static inline uint64_t
pdbi_mix64(uint64_t h)
{
	h ^= h >> 31;
	h *= 0x9e3779b97f4a7c15ULL;
	h ^= h >> 29;
	return h;
}

/* Append a node with values vals (NULL: zero), without touching the
 * index. */
int		 pdbi_node_new(struct pdb *, uint32_t parent, uint32_t cc,
		    const int64_t *vals, uint32_t *out);
/*
 * From pdbi_values_defer() to pdbi_values_zero(), new nodes made with
 * zero values (vals NULL, chains) are zeroed all at once at the end, for
 * a caller that reads no values in between: a replay's chain is made
 * with no stores for its values, and one zeroing covers a run of new
 * nodes, where each was zeroed as it was made.
 */
void		 pdbi_values_defer(struct pdb *);
void		 pdbi_values_zero(struct pdb *);
/*
 * Make node id (below capnodes, its values set) a child of parent, last
 * in the list.  The caller counts it in nnodes.
 */
static inline void
pdbi_node_link(struct pdb *db, uint32_t id, uint32_t parent, uint32_t cc)
{
	struct pdbi_node *nodes = db->nodes, *p;
	uint32_t last;

	nodes[id].cc = cc;
	nodes[id].parent = parent;
	nodes[id].last_child = PDB_NONE;
	nodes[id].next = id;
	if (parent == PDB_NONE)
		return;
	p = &nodes[parent];
	/*
	 * Into the circle after the last child, before the first; or a
	 * circle of its own, through itself, without a branch on whether
	 * the parent had children, which follows no pattern.
	 */
	last = p->last_child != PDB_NONE ? p->last_child : id;
	nodes[id].next = nodes[last].next;
	nodes[last].next = id;
	p->last_child = id;
}
/*
 * Append the stacks t + ccs[k - 1], then that + ccs[k - 2], and so on to
 * ccs[0], each after the first the only child of the one before, with
 * zero values; t has no child ccs[k - 1].  The last (t if k is 0) into
 * *out.  Fails for memory or too many nodes, with db's error set.
 */
int		 pdbi_chain_new(struct pdb *, uint32_t t, const uint32_t *ccs,
		    size_t k, uint32_t *out);
/*
 * pdbi_nodes_reserve(): room for k more nodes and their values.  Nodes
 * are appended, so the memory for them is asked of the system ahead, a
 * stretch at a time, rather than a page fault at a time (tree.c).
 * Fails for memory or too many nodes, with db's error set.
 */
int		 pdbi_nodes_reserve_slow(struct pdb *, size_t k);

static inline int
pdbi_nodes_reserve(struct pdb *db, size_t k)
{
	size_t need = (size_t)db->nnodes + k;

	/* Numbers stay below UINT32_MAX - 1: PDB_NONE is UINT32_MAX. */
	return k <= (size_t)(UINT32_MAX - 1) - db->nnodes &&
	    need <= db->capnodes && need <= db->capvals &&
	    need <= db->faulted ? PDB_OK : pdbi_nodes_reserve_slow(db, k);
}
/* The child lists from the parents, in the order of node numbers. */
void		 pdbi_relink(struct pdb *);
/* Give the nodes numbers in pre-order, and the depth of the deepest.
 * Fails only for memory. */
int		 pdbi_preorder(struct pdb *, uint32_t *maxdepth);
/* Copy src's tree into dst, an empty pdb_clone_empty() of it. */
int		 pdbi_tree_copy(struct pdb *dst, const struct pdb *src);
/* Exchange the trees (nodes, values, index) of a and b, which must have
 * the same schema and cost centres (pdb_clone_empty()). */
void		 pdbi_tree_swap(struct pdb *a, struct pdb *b);
/*
 * Take db's tree (nodes, values, index) into a handle of its own, which
 * has the same number of metrics but no schema or cost centres, and
 * leave db with an empty tree; NULL for memory, db as it was.  Free the
 * handle with pdbi_tree_free().
 */
struct pdb	*pdbi_tree_take(struct pdb *db);
void		 pdbi_tree_free(struct pdb *t);

/* Skip the overflow checks of values (a replayed tree had them). */
void		 pdbi_builder_unchecked(struct pdb_builder *);

/* The index of push.c: whether s is wide, and dropping the whole index. */
static inline int
pdbi_is_wide(const struct pdb *db, uint32_t s)
{
	return (size_t)s / 64 < db->nwide && (db->wide[s / 64] >> (s % 64) & 1);
}
void		 pdbi_index_free(struct pdb *);
/*
 * Push cc onto s where no child of s has cc (case 1 is out): after
 * pdb_push() looked, or where cc is known to be on s above the root of
 * a compressed tree, so that no child can have it.  Goes straight to
 * the walk, and makes the child of case 2 without looking again.  As
 * pdb_push() otherwise.
 */
int		 pdbi_push_moved(struct pdb *, uint32_t s, uint32_t cc,
		    uint32_t *out);
/*
 * Case 1 and case 2 apart, for a builder that makes a child with its
 * values at once: pdbi_child_find() (below) puts the last child of s
 * with cost centre cc, or PDB_NONE, into *out; pdbi_child_new() makes
 * the child cc of s, which has none, with values vals (NULL: zeros).
 * Both fail only for memory, with db's error set.
 */
int		 pdbi_child_new(struct pdb *, uint32_t s, uint32_t cc,
		    const int64_t *vals, uint32_t *out);
/* The same from the table of s, making s wide first if it is not. */
int		 pdbi_child_find_wide(struct pdb *, uint32_t s, uint32_t cc,
		    uint32_t *out);

/*
 * pdbi_child_find(): the last child with cc from the child list while
 * it is short, else from the table.  Inline, as the builders ask it for
 * every node, mostly of a stack with no children or a few.
 */
static inline int
pdbi_child_find(struct pdb *db, uint32_t s, uint32_t cc, uint32_t *out)
{
	const struct pdbi_node *nodes = db->nodes;
	uint32_t last = nodes[s].last_child, c = last, found = PDB_NONE;
	unsigned k = 0;

	if (last != PDB_NONE) {
		if (pdbi_is_wide(db, s))
			return pdbi_child_find_wide(db, s, cc, out);
		do {
			if (k++ == PDBI_SCAN)
				return pdbi_child_find_wide(db, s, cc, out);
			c = nodes[c].next;
			if (nodes[c].cc == cc)
				found = c;
		} while (c != last);
	}
	*out = found;
	return PDB_OK;
}

/*
 * Values (values.c).  pdbi_value() reads one; pdbi_value_set() stores
 * one, widening its column when needed, which only fails for memory.
 */
static inline int64_t
pdbi_elem_get(const unsigned char *p, enum pdbi_type t, size_t n)
{
	uint16_t u16;
	int16_t s16;
	uint32_t u32;
	int32_t s32;
	int64_t s64;
	int8_t s8;

	switch (t) {
	case PDBI_U8:
		return p[n];
	case PDBI_S8:
		memcpy(&s8, p + n, 1);
		return s8;
	case PDBI_U16:
		memcpy(&u16, p + n * 2, 2);
		return u16;
	case PDBI_S16:
		memcpy(&s16, p + n * 2, 2);
		return s16;
	case PDBI_U32:
		memcpy(&u32, p + n * 4, 4);
		return u32;
	case PDBI_S32:
		memcpy(&s32, p + n * 4, 4);
		return s32;
	case PDBI_S64:
		memcpy(&s64, p + n * 8, 8);
		return s64;
	default:
		return 0;
	}
}

/* Store v, which an element of size bytes holds, at element n. */
static inline void
pdbi_elem_put(unsigned char *p, unsigned size, size_t n, int64_t v)
{
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (size) {
	case 1:
		p[n] = (unsigned char)v;
		break;
	case 2:
		memcpy(p + n * 2, &u16, 2);
		break;
	case 4:
		memcpy(p + n * 4, &u32, 4);
		break;
	case 8:
		memcpy(p + n * 8, &v, 8);
		break;
	default:
		break;
	}
}

/*
 * Every column has this many bytes past its last element, so that the
 * element of a new node, above which no element is in use yet, is
 * stored with one 8-byte write, where pdbi_elem_put() switches on the
 * size, and new nodes are zeroed 64 bytes at a time (tree.c).
 */
#define PDBI_COL_SLACK	64

/* The bytes of a column of cap elements of size bytes, with its slack. */
static inline size_t
pdbi_col_bytes(size_t cap, unsigned size)
{
	return cap * size + PDBI_COL_SLACK;
}

/* Store v at element n, of size bytes (not 0), of a column with no
 * element in use above n. */
static inline void
pdbi_elem_append(unsigned char *p, unsigned size, size_t n, int64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p + n * size, &v, 8);
#else
	pdbi_elem_put(p, size, n, v);
#endif
}

/* The value of an escaped element (values.c). */
int64_t		 pdbi_side_get(const struct pdb *, uint32_t n, unsigned m)
		    __attribute__((pure));

static inline int64_t
pdbi_value(const struct pdb *db, uint32_t n, unsigned m)
{
	const struct pdbi_col *c = &db->cols[m];
	int64_t v = pdbi_elem_get(c->v, c->type, n);

	return ((c->nside != 0) & (v == c->esc)) ? pdbi_side_get(db, n, m) : v;
}

static inline int
pdbi_fits(const struct pdbi_col *c, int64_t v)
{
	return (uint64_t)v - (uint64_t)c->lo <= (uint64_t)c->hi -
	    (uint64_t)c->lo;
}

/*
 * An empty column; widening column m to hold v and its escaped values
 * in place; the type it would take to hold lo and hi too, and the bytes
 * of an element of a type; and setting its type, whose elements the
 * caller has put in place (the column has no escapes).  Widening fails
 * only for memory, leaving the column as it was.
 */
void		 pdbi_col_init(struct pdbi_col *);
int		 pdbi_col_widen(struct pdb *, unsigned m, int64_t v);
enum pdbi_type	 pdbi_col_type_for(const struct pdbi_col *, int64_t lo,
		    int64_t hi);
unsigned	 pdbi_type_size(enum pdbi_type);
void		 pdbi_col_set_type(struct pdbi_col *, enum pdbi_type);
/* Widen every column with escapes, so that side is empty. */
int		 pdbi_cols_unescape(struct pdb *);
/* Copy src's side table into dst's, empty.  Fails only for memory. */
int		 pdbi_side_copy(struct pdb *dst, const struct pdb *src);
void		 pdbi_side_free(struct pdbi_side *);

/* Set one value.  Fails only for memory, leaving it as it was. */
int		 pdbi_value_set(struct pdb *, uint32_t n, unsigned m, int64_t v);
/* Make room for need nodes in every column.  Returns PDB_ENOMEM or 0. */
int		 pdbi_cols_reserve_slow(struct pdb *, size_t need);

static inline int
pdbi_cols_reserve(struct pdb *db, size_t need)
{
	return need <= db->capvals ? PDB_OK : pdbi_cols_reserve_slow(db, need);
}
/* Set the values of node n, the newest (no element above it is in use),
 * to vals.  Fails only for memory. */
int		 pdbi_values_put(struct pdb *, uint32_t n, const int64_t *vals);
/* Set the values of the k nodes from first (below capvals) to vals, k
 * rows of nmetrics, stride apart.  Fails only for memory. */
int		 pdbi_values_put_rows(struct pdb *, uint32_t first, size_t k,
		    const int64_t *vals, size_t stride);
/* Add vals to node n's values, wrapping as unsigned.  Fails only for
 * memory, with nothing set on db and some values added. */
int		 pdbi_values_add(struct pdb *, uint32_t n, const int64_t *vals);
/*
 * Add the values of metric m of k rows, vals[i * stride], to the nodes
 * node[i], for the rows whose keep[i] is set (keep NULL: every row).
 * Fails only for memory, with nothing set on db and some values added.
 */
int		 pdbi_values_add_col(struct pdb *, unsigned m, size_t k,
		    const uint32_t *node, const int64_t *vals, size_t stride,
		    const unsigned char *keep);

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
