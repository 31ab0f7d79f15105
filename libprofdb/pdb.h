/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * libprofdb: the profile database behind ccstools.
 *
 * A profile is a set of cost centres, a metric schema, some metadata and
 * a stack tree: every node is a cost-centre stack (the path from the root)
 * carrying the costs attributed to exactly that stack.  The library knows
 * no file format; formats/ turns bytes into calls on this API and back.
 *
 * Rules that hold for the whole API:
 *
 *  - Functions returning int return PDB_OK (0) or a negative PDB_E* code,
 *    but for the predicates (1 or 0) and pdb_metric_find() (an index or
 *    -1).  After an error, pdb_errmsg() describes it, naming the file and
 *    the byte offset or line where that makes sense; like errno, the
 *    error stays until the next one.
 *  - The library never prints and never exits.  Warnings go to the
 *    handler set with pdb_set_warn_handler(), if any.
 *  - The handle comes first, out-parameters come last.
 *  - Returned "const char *" and other pointers are borrowed: they stay
 *    valid until the handle is next changed or freed, but for the
 *    buffers of pdb_cc_fullname() and pdb_node_values(), valid until
 *    their next call.  Memory the caller must free is returned only by
 *    functions with "dup" or "new" in their name, pdb_callers_tree() and
 *    pdb_inclusive_of(), and each says how to free it.
 *  - Cost centres, metrics and nodes are named by dense indices:
 *    uint32_t for cost centres and nodes, unsigned for metrics.  Node 0
 *    is always the root once the tree is non-empty.  Functions that add
 *    to or change a tree refuse an index out of range with PDB_EINVAL;
 *    those returning what they look up in a profile (pdb_node_cc(),
 *    pdb_cc_label(), pdb_metric(), ...) do not check it.
 */
#ifndef PDB_H
#define PDB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Format checks for the printf-style functions, where the compiler has
 * them: the header is plain C11 elsewhere. */
#if defined(__GNUC__) || defined(__clang__)
#define PDB_PRINTFLIKE(f, a)	__attribute__((format(printf, f, a)))
#else
#define PDB_PRINTFLIKE(f, a)
#endif

#define PDB_VERSION_STRING	"0.1.0"
#define PDB_VERSION_NUMBER	1000	/* major*1000000 + minor*1000 + patch */

/* Error codes. */
#define PDB_OK		0
#define PDB_ENOMEM	(-1)	/* out of memory */
#define PDB_EIO		(-2)	/* I/O error; errno is preserved */
#define PDB_EFORMAT	(-3)	/* malformed input */
#define PDB_EINVAL	(-4)	/* bad argument */
#define PDB_EUNSUPP	(-5)	/* unsupported format, version or feature */
#define PDB_ESTOP	(-6)	/* a sink asked to stop early; not an error */

#define PDB_NONE	UINT32_MAX	/* "no node", "no cost centre" */

struct pdb;

/* Cost-centre flags. */
#define PDB_CC_CAF		0x01u	/* a constant applicative form */
#define PDB_CC_SYNTHETIC	0x02u	/* made up by a reader (e.g. the root of
					   a folded file with several roots) */

/*
 * A cost centre, as returned by pdb_cc().  Strings are never NULL (an
 * absent field is ""); they may be empty and need not be valid UTF-8.
 */
struct pdb_cc {
	const char	*label;
	const char	*module;
	const char	*src;
	uint32_t	 module_index;	/* index in the module table */
	uint32_t	 flags;		/* PDB_CC_* */
	int64_t		 profile_id;	/* the profiler's own id, or -1 */
};

/* Metric kinds (DESIGN.md, "Metrics"). */
enum pdb_kind {
	PDB_COST = 0,	/* resource spent: moves up under de-selection */
	PDB_COUNT = 1	/* entries of this cost centre: dropped with it */
};

/* Metric flags. */
#define PDB_METRIC_APPROX	0x01u	/* derived from rounded figures */

struct pdb_metric {
	const char	*name;		/* "ticks", "alloc", "entries", ... */
	const char	*unit;		/* "ticks", "bytes", "words", "calls" */
	enum pdb_kind	 kind;
	uint32_t	 flags;		/* PDB_METRIC_* */
};

/* ---- handle ---- */

/* Make an empty profile.  Returns NULL when out of memory.  Free with
 * pdb_free(). */
struct pdb	*pdb_new(void);
void		 pdb_free(struct pdb *);

const char	*pdb_version(void);
const char	*pdb_errmsg(const struct pdb *);
int		 pdb_errcode(const struct pdb *);

/* Record an error on the handle and return code (printf-style message). */
int		 pdb_seterr(struct pdb *, int code, const char *fmt, ...)
    PDB_PRINTFLIKE(3, 4);

typedef void	 pdb_warn_fn(void *arg, const char *msg);
void		 pdb_set_warn_handler(struct pdb *, pdb_warn_fn *, void *arg);
/* Report a warning through the handler; a no-op without one. */
void		 pdb_warn(struct pdb *, const char *fmt, ...)
    PDB_PRINTFLIKE(2, 3);

/* ---- metadata: an ordered list of key/value strings ---- */
/*
 * Well-known keys: "program", "command", "date", "source_format",
 * "tick_interval_us", "ticks_per_second", "overhead_per_1000",
 * "total_ticks", "total_alloc", "total_time", "processors",
 * "pgcl_version", "pgcl_layout".  Readers may add others; writers of
 * lossless formats keep them all.  pdb_meta_set() replaces the value of
 * a key it has; a NULL key or value is PDB_EINVAL.
 */
int		 pdb_meta_set(struct pdb *, const char *key, const char *value);
const char	*pdb_meta_get(const struct pdb *, const char *key); /* or NULL */
/* Remove key, if it is there; the keys after it move up one. */
void		 pdb_meta_unset(struct pdb *, const char *key); /* NULL: none */
size_t		 pdb_meta_count(const struct pdb *);
void		 pdb_meta_at(const struct pdb *, size_t i, const char **key,
		    const char **value);

/* ---- metric schema ---- */

/* A profile has at most this many metrics. */
#define PDB_METRICS_MAX	256

/* Add a metric; *out gets its index.  The schema is fixed once the tree
 * has nodes.  Flags are PDB_METRIC_* (others are refused, and dropped by
 * pdb_metric_set_flags()).  A NULL name is PDB_EINVAL, a NULL unit
 * empty. */
int		 pdb_metric_add(struct pdb *, const char *name, const char *unit,
		    enum pdb_kind, uint32_t flags, unsigned *out);
unsigned	 pdb_metric_count(const struct pdb *);
const struct pdb_metric *pdb_metric(const struct pdb *, unsigned);
/* Index of the metric called name, or -1 (also for NULL). */
int		 pdb_metric_find(const struct pdb *, const char *name);
/* The metric a tool shows by default: "ticks", else "samples", else the
 * first cost metric, else 0. */
unsigned	 pdb_metric_default(const struct pdb *);
void		 pdb_metric_set_flags(struct pdb *, unsigned, uint32_t flags);

/* ---- modules and cost centres ---- */

/* Append a module name (names may repeat; each call makes a new entry). */
int		 pdb_module_add(struct pdb *, const char *name, uint32_t *out);
/* The first module of that name, added when there is none: for readers
 * whose formats name a cost centre's module (GHC, folded). */
int		 pdb_module_intern(struct pdb *, const char *name, uint32_t *out);
uint32_t	 pdb_module_count(const struct pdb *);
const char	*pdb_module_name(const struct pdb *, uint32_t);

/* Append a cost centre in module mod (an index from pdb_module_add).
 * profile_id is the profiler's id or -1; flags are PDB_CC_* (others
 * are refused).  Here and in pdb_cc_intern() and the module calls, a
 * NULL name or src is taken as empty. */
int		 pdb_cc_add(struct pdb *, const char *label, uint32_t mod,
		    const char *src, uint32_t flags, int64_t profile_id,
		    uint32_t *out);
/* Find or add the cost centre with this label, module name and src: the
 * module is found or added by name.  For readers whose formats identify a
 * cost centre by its names (GHC text, folded).  A synthetic cost centre
 * (PDB_CC_SYNTHETIC in flags) is found only by a synthetic intern, a real
 * one only by a real intern. */
int		 pdb_cc_intern(struct pdb *, const char *label,
		    const char *module, const char *src, uint32_t flags,
		    uint32_t *out);
uint32_t	 pdb_cc_count(const struct pdb *);
/* Fill *cc with cost centre i; the strings are borrowed. */
void		 pdb_cc(const struct pdb *, uint32_t i, struct pdb_cc *cc);
const char	*pdb_cc_label(const struct pdb *, uint32_t);
const char	*pdb_cc_module(const struct pdb *, uint32_t);
uint32_t	 pdb_cc_flags(const struct pdb *, uint32_t);
/* "Module.label", or "label" when the module is empty; borrowed until the
 * next call. */
const char	*pdb_cc_fullname(const struct pdb *, uint32_t);

/* ---- the stack tree ---- */

/*
 * Nodes are numbered densely from 0 (the root), each above its parent,
 * and siblings in their order.  Every node has
 * pdb_metric_count() values: the costs of exactly its stack.  Values are
 * stored as narrow as they allow, so storing one may need memory.
 */
uint32_t	 pdb_node_count(const struct pdb *);
uint32_t	 pdb_node_cc(const struct pdb *, uint32_t node);
uint32_t	 pdb_node_parent(const struct pdb *, uint32_t node); /* PDB_NONE for root */
uint32_t	 pdb_node_first_child(const struct pdb *, uint32_t node);
uint32_t	 pdb_node_next_sibling(const struct pdb *, uint32_t node);
uint32_t	 pdb_node_child_count(const struct pdb *, uint32_t node);
uint32_t	 pdb_node_depth(const struct pdb *, uint32_t node);
/* The value of metric m at node. */
int64_t		 pdb_node_value(const struct pdb *, uint32_t node, unsigned m);
/*
 * All pdb_metric_count() values of node, copied to a buffer of the
 * handle's that stays valid until the next pdb_node_values() on the
 * handle or until it changes (so not for two nodes at once, nor from
 * two threads).
 */
const int64_t	*pdb_node_values(const struct pdb *, uint32_t node);
/* Set the value of metric m at node; PDB_EINVAL if there is no such
 * node or metric. */
int		 pdb_node_set_value(struct pdb *, uint32_t node, unsigned m,
		    int64_t v);

/* Make the root with cost centre cc.  The tree must be empty. */
int		 pdb_root_new(struct pdb *, uint32_t cc, uint32_t *out);
/* Append a new child of parent with cost centre cc, without looking for
 * an existing one: for readers that keep a file's tree as it is. */
int		 pdb_node_append(struct pdb *, uint32_t parent, uint32_t cc,
		    uint32_t *out);
/*
 * Push (Morgan & Jarvis 2.4.2): the stack of pushing cc onto stack s.  If
 * cc is already on s, its earlier occurrence is removed (compressed
 * stacks); intermediate stacks are found or made as needed, and the
 * result is remembered in a cache of the last few.  The root is the
 * fixed bottom of every stack and is never removed: pushing the root's
 * own cost centre again makes a node for it above the root.
 */
int		 pdb_push(struct pdb *, uint32_t s, uint32_t cc, uint32_t *out);
/* The child of parent with cost centre cc, made if missing (Push without
 * compression: for formats whose stacks may repeat a cost centre). */
int		 pdb_child_get(struct pdb *, uint32_t parent, uint32_t cc,
		    uint32_t *out);
/* Add vals (pdb_metric_count() of them) to node's values.  On failure
 * (PDB_ENOMEM, or PDB_EINVAL if there is no such node or a sum does not
 * fit in 64 bits) the values are as they were. */
int		 pdb_node_add_values(struct pdb *, uint32_t node,
		    const int64_t *vals);

/*
 * Iterate over the tree in pre-order without recursion: start with
 * pdb_walk_first(), then pdb_walk_next() until it returns PDB_NONE.
 * *depth (may be NULL) gets each node's depth, the root being 0.
 */
uint32_t	 pdb_walk_first(const struct pdb *, uint32_t *depth);
uint32_t	 pdb_walk_next(const struct pdb *, uint32_t node, uint32_t *depth);

/*
 * Pre-order in batches, for writers: the nodes pdb_walk_first() and
 * pdb_walk_next() give, with what pdb_node_cc(), pdb_node_values() and
 * pdb_node_child_count() give, up to PDB_ROWS_MAX nodes a call, read
 * without a call a node or a value.  pdb_rows_init() starts the walk
 * (PDB_ENOMEM is its only error), each pdb_rows_next() fills the rows
 * and returns their number, 0 at the end, and pdb_rows_free() frees
 * values.  The tree must not change meanwhile.
 *
 * pdb_rows_take() starts the same walk for a writer whose handle is done
 * with its tree (PDB_OPT_TAKE): the rows take the tree out of the handle,
 * which is left with none, and take its links apart to number the nodes
 * in pre-order, so that the walk reads them without following a link
 * (rows.c).  node[] then holds the numbers the nodes had.
 */
#define PDB_ROWS_MAX	256

struct pdb_rows {
	size_t		 n;			/* rows filled */
	uint32_t	 node[PDB_ROWS_MAX];
	uint32_t	 cc[PDB_ROWS_MAX];
	uint32_t	 nkids[PDB_ROWS_MAX];	/* children */
	int64_t		*values;		/* row i's at i * nmetrics */
	uint32_t	 next;			/* the walk: next node */
	struct pdb	*tree;			/* the tree taken, or NULL */
	int		 numbered;		/* its nodes were in pre-order */
};

int		 pdb_rows_init(const struct pdb *, struct pdb_rows *);
int		 pdb_rows_take(struct pdb *, struct pdb_rows *);
size_t		 pdb_rows_next(const struct pdb *, struct pdb_rows *);
void		 pdb_rows_free(struct pdb_rows *);

/* Inclusive values of every node (node * nmetrics + metric), computed in
 * one pass.  Returns a malloc'd array the caller frees, or NULL. */
int64_t		*pdb_inclusive_new(const struct pdb *);
/* The same of metric m alone (one value a node, 8 bytes a node where
 * pdb_inclusive_new() takes 8 a metric).  NULL when out of memory or m
 * is no metric. */
int64_t		*pdb_inclusive_of(const struct pdb *, unsigned m);

/*
 * A fresh handle with the same metadata, schema, modules and cost
 * centres as db, and an empty tree.  NULL when out of memory.
 */
struct pdb	*pdb_clone_empty(const struct pdb *);

/* ---- streaming ---- */

/*
 * A reader produces a profile as a stream of events, in one forward pass:
 * begin once (schema and metadata are known; cost centres may still be
 * added as the stream goes, so look them up by index when needed), then
 * enter/exit pairs in pre-order, then end.  An enter carries the cost
 * centre and the node's own values.  Events need not describe a tree with
 * distinct siblings: a folded file enters one path per line, and the same
 * stack may come twice.  A callback returning non-zero stops the reader,
 * which then returns that value (use PDB_ESTOP to stop without error).
 *
 * A sink of one's own may leave begin and end NULL: readers and
 * pdb_replay() skip them.  The sinks the library makes
 * (pdb_builder_sink(), pdb_flat_sink(), pdb_callers_sink()) have all
 * four, so that a program without a reader can drive one with events of
 * its own: begin, enter/exit pairs, end.
 *
 * A sink may also take nodes in bulk with nodes(), for which two calls a
 * node are a large part of the work (the flat analysis).  A reader that
 * can then hands it batches, and still calls enter() and exit() for
 * nodes it reads one at a time (at the end of a buffer, say); events
 * keep their order either way.  Sinks that do not take batches leave
 * nodes NULL: a sink filled member by member must zero it.
 */
struct pdb_batch {
	size_t		 n;		/* nodes */
	const uint32_t	*cc;		/* n cost centres */
	const int64_t	*values;	/* node i's pdb_metric_count() own */
	size_t		 stride;	/*   values are at values + i * stride */
	const size_t	*exits;		/* n: exits that follow each enter */
};

struct pdb_sink {
	int	(*begin)(void *arg, struct pdb *db);
	int	(*enter)(void *arg, struct pdb *db, uint32_t cc,
		    const int64_t *values);
	int	(*exit)(void *arg, struct pdb *db);
	int	(*end)(void *arg, struct pdb *db);
	void	 *arg;
	/*
	 * Optional: node i of b is an enter of b->cc[i] with its values,
	 * then b->exits[i] exits.  On failure *done gets the node whose
	 * enter or exits failed, for the reader to say where.
	 */
	int	(*nodes)(void *arg, struct pdb *db, const struct pdb_batch *b,
		    size_t *done);
	/*
	 * Optional, asked after begin: which metrics' values the sink
	 * reads from batches, bit m for metric m (all from 64 on).  A
	 * reader may leave the others unset, and skip decoding them.
	 * NULL: all.
	 */
	uint64_t (*columns)(void *arg, const struct pdb *db);
};

/*
 * Nodes lo to hi of batch b, one event at a time, through enter and
 * leave (called with arg): for a sink whose nodes() has no faster way
 * than its own events, which still spares the reader's per-node calls.
 * On failure *done is the node whose enter or exits failed.  Inline, so
 * that a sink's own functions are called directly.
 */
static inline int
pdb_batch_each(struct pdb *db, const struct pdb_batch *b, size_t lo,
    size_t hi, size_t *done,
    int (*enter)(void *, struct pdb *, uint32_t, const int64_t *),
    int (*leave)(void *, struct pdb *), void *arg)
{
	size_t i, k;
	int rc;

	for (i = lo; i < hi; i++) {
		*done = i;
		if ((rc = enter(arg, db, b->cc[i], b->values +
		    i * b->stride)) != 0)
			return rc;
		for (k = 0; k < b->exits[i]; k++)
			if ((rc = leave(arg, db)) != 0)
				return rc;
	}
	return 0;
}

/* How a tree builder turns events into nodes. */
enum pdb_build {
	PDB_BUILD_RAW,		/* keep the tree as read (pgcl, GHC, dump) */
	PDB_BUILD_MERGE,	/* merge equal stacks, keep repeats (pdb_child_get) */
	PDB_BUILD_PUSH		/* merge through Push: stacks are compressed */
};

struct pdb_sel;

/* A sink that builds db's tree from events.  Free with
 * pdb_builder_free().  NULL when out of memory. */
struct pdb_builder *pdb_builder_new(struct pdb *db, enum pdb_build);
void		 pdb_builder_free(struct pdb_builder *);
/* Change the mode before the first event (used once a format is known). */
void		 pdb_builder_set_mode(struct pdb_builder *, enum pdb_build);
/*
 * Build the projection on sel (pdb_project_new(); NULL selects all, and
 * so compresses) of the tree the events describe, instead of that tree.
 * In PDB_BUILD_RAW mode the events are projected as they come, and the
 * tree they describe never exists.  sel must outlive the builder.  Call
 * before the first event.
 */
void		 pdb_builder_select(struct pdb_builder *,
		    const struct pdb_sel *sel);
const struct pdb_sink *pdb_builder_sink(struct pdb_builder *);

/* Replay db's tree as events into sink. */
int		 pdb_replay(struct pdb *, const struct pdb_sink *);
/*
 * For a sink that takes a reader's events without a tree builder: add
 * the values of a node of cost centre cc to range (two zeroed words a
 * metric), failing as the builder does when the positive or the negative
 * values of a metric sum past 64 bits, so that the sink fails where
 * building the tree would.
 */
int		 pdb_sums_add(struct pdb *db, uint64_t *range, uint32_t cc,
		    const int64_t *values);

/* ---- selection ---- */

/*
 * SELECTED as in DESIGN.md: if any select pattern is given, the cost
 * centres matching one; otherwise all.  Then minus those matching any
 * de-select pattern.  The root is always selected.  Patterns are globs
 * (fnmatch(3)) matched against the label and against "Module.label".  The
 * order in which patterns are added never matters.
 */
struct pdb_sel;
struct pdb_sel	*pdb_sel_new(void);
void		 pdb_sel_free(struct pdb_sel *);
/* PDB_ENOMEM, or PDB_EINVAL for a NULL pattern. */
int		 pdb_sel_add(struct pdb_sel *, int select, const char *pattern);
int		 pdb_sel_is_trivial(const struct pdb_sel *); /* selects all */
/* Whether cost centre cc of db is selected (the root's is always). */
int		 pdb_sel_match(const struct pdb_sel *, const struct pdb *,
		    uint32_t cc);
/* Whether cost centre cc matches glob pattern pat (label or Module.label). */
int		 pdb_cc_glob(const struct pdb *, uint32_t cc, const char *pat);
/* One byte per cost centre: 1 selected, 0 not.  Malloc'd; caller frees. */
unsigned char	*pdb_sel_mask_new(const struct pdb_sel *, const struct pdb *);

/* ---- analyses ---- */

/*
 * Flat (COST) and inherited (INHERITED_COST) profiles, every metric at
 * once (or those pdb_flat_want() picks), computed from events: use
 * pdb_flat_sink() with a reader, or pdb_replay() on a tree.  Memory is
 * O(cost centres + depth).
 *
 * Cost metrics: a stack's cost goes to the selected cost centre nearest
 * its top (flat) and once to every selected cost centre on it
 * (inherited).  Count metrics: a node's count stays with its own cost
 * centre and is dropped when that is not selected.
 */
struct pdb_flat;
struct pdb_flat	*pdb_flat_new(const struct pdb_sel *);	/* sel may be NULL */
void		 pdb_flat_free(struct pdb_flat *);
const struct pdb_sink *pdb_flat_sink(struct pdb_flat *);
/*
 * Compute only the metrics m for which want(arg, db, m) is not 0, asked
 * once the schema is known (by default every one); PDB_FLAT_SELF asks
 * for the flat costs alone, whose inherited ones then read as 0.  The
 * others read as 0 and their sums are not checked: a report of one
 * metric costs one metric, and cannot fail because another overflows.
 * Set before reading.
 */
#define PDB_FLAT_SELF	2
typedef int	 pdb_flat_want_fn(void *arg, const struct pdb *db, unsigned m);
void		 pdb_flat_want(struct pdb_flat *, pdb_flat_want_fn *, void *arg);
/* Results, valid after the end event.  Cost centres the stream never
 * entered have seen() == 0. */
uint32_t	 pdb_flat_cc_count(const struct pdb_flat *);
int		 pdb_flat_seen(const struct pdb_flat *, uint32_t cc);
int		 pdb_flat_selected(const struct pdb_flat *, uint32_t cc);
int64_t		 pdb_flat_self(const struct pdb_flat *, uint32_t cc, unsigned m);
int64_t		 pdb_flat_inherited(const struct pdb_flat *, uint32_t cc,
		    unsigned m);
/* Total of metric m over all stacks (after dropping de-selected counts). */
int64_t		 pdb_flat_total(const struct pdb_flat *, unsigned m);
/* Number of enter events seen. */
uint64_t	 pdb_flat_nodes(const struct pdb_flat *);

/* ---- transformations (each returns a new handle; free with pdb_free) ---- */

/*
 * The projection of db on SELECTED (DESIGN.md): the profile as if only
 * the selected cost centres had existed.  Every stack is mapped to its
 * selected members, in order, through Push (so the result is
 * compressed), and costs are summed per resulting stack; count metrics of
 * de-selected cost centres are dropped.  sel NULL selects all, which
 * compresses db.  Returns NULL with the error on db.
 */
struct pdb	*pdb_project_new(struct pdb *db, const struct pdb_sel *sel);

/* Pruning thresholds; a node is removed when its inclusive value of
 * metric is below min.  A threshold on a metric the profile lacks never
 * removes anything. */
struct pdb_threshold {
	unsigned	 metric;
	int64_t		 min;
};

struct pdb_prune_report {
	uint64_t	 nodes_removed;
	int64_t		*folded;	/* per metric: cost folded into parents */
	int64_t		*dropped;	/* per metric: counts dropped */
};

/*
 * Remove every node whose inclusive value is below one of the thresholds,
 * or whose cost centre matches one of the nexclude glob patterns
 * (matched as selection patterns are), together with its
 * subtree.  Cost metrics of what is removed are added to the parent's own
 * cost, so totals are conserved; count metrics are dropped.  The root is
 * never removed, and the nodes left are numbered in pre-order.  rep (may
 * be NULL) gets what was folded; free its arrays with
 * pdb_prune_report_free().
 */
struct pdb	*pdb_prune_new(struct pdb *db, const struct pdb_threshold *th,
		    size_t nth, const char *const *exclude, size_t nexclude,
		    struct pdb_prune_report *rep);
/*
 * pdb_prune_new() in db's own tree, in memory of about a bit a node.  On
 * failure the tree is as it was, though perhaps numbered in pre-order.
 */
int		 pdb_prune(struct pdb *db, const struct pdb_threshold *th,
		    size_t nth, const char *const *exclude, size_t nexclude,
		    struct pdb_prune_report *rep);
void		 pdb_prune_report_free(struct pdb_prune_report *);

/*
 * The inverted call graph of cost centre cc: a tree rooted at cc whose
 * paths are the distinct calling contexts of cc's outermost occurrences,
 * callers first (cc, its caller, the caller's caller, ..., the root).
 * Each context's leaf carries the occurrence's inclusive cost metrics and
 * the count metrics of cc's occurrences in it (itself and any inner,
 * recursive ones), so the inclusive cost of the new root is cc's
 * inherited cost and its inclusive counts are cc's own counts.  Returns NULL with the error on db, or when cc never
 * occurs (error PDB_EINVAL).
 */
struct pdb	*pdb_callers_new(struct pdb *db, uint32_t cc);
/*
 * The same from events (pdb_replay(), or a reader whose tree is its
 * stream), in memory of the path and the contexts, for the cost centres
 * match() picks: it is asked once for each cost centre as it first
 * comes, and any of those picked count as one cost centre.  The events'
 * values are checked as a tree builder checks them.  After the end
 * event, pdb_callers_found() tells how many outermost occurrences there
 * were, and pdb_callers_tree() makes the tree, rooted at cc, one of
 * those picked; NULL with the error on db when none occurred.
 */
struct pdb_callers;
typedef int	 pdb_callers_match_fn(void *arg, const struct pdb *db,
		    uint32_t cc);
struct pdb_callers *pdb_callers_stream_new(pdb_callers_match_fn *match,
		    void *arg);
const struct pdb_sink *pdb_callers_sink(struct pdb_callers *);
uint64_t	 pdb_callers_found(const struct pdb_callers *);
struct pdb	*pdb_callers_tree(struct pdb_callers *, struct pdb *db,
		    uint32_t cc);
void		 pdb_callers_free(struct pdb_callers *);

/* ---- hot paths ---- */

/* The node with the largest own value of metric m (ties: first in
 * pre-order), or PDB_NONE for an empty tree. */
uint32_t	 pdb_hot_stack(const struct pdb *, unsigned m);

/*
 * The expensive arm: from the root, repeatedly the child with the largest
 * inclusive value of m (ties: first in pre-order), until a leaf or a child
 * whose inclusive value is not positive.  inc is pdb_inclusive_new()'s
 * array.  Writes its first max nodes to arm and returns its whole length,
 * as snprintf(3) does: more than max means the arm was cut short (with
 * max 0, arm may be NULL).
 * pdb_expensive_arm_of() does the same with pdb_inclusive_of()'s array
 * of the metric.
 */
size_t		 pdb_expensive_arm(const struct pdb *, const int64_t *inc,
		    unsigned m, uint32_t *arm, size_t max);
size_t		 pdb_expensive_arm_of(const struct pdb *, const int64_t *inc,
		    uint32_t *arm, size_t max);

/*
 * The n stacks with the largest own value of m, in descending order (ties:
 * pre-order), stacks with no cost left out.  Writes them to top and
 * returns how many.  Takes memory for n stacks, not for the tree.
 */
size_t		 pdb_top_stacks(const struct pdb *, unsigned m, uint32_t *top,
		    size_t n);

#ifdef __cplusplus
}
#endif

#endif /* PDB_H */
