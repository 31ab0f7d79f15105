/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The callgrind format, version 1 (Valgrind manual, "Callgrind Format
 * Specification"), for KCacheGrind and callgrind_annotate.  Write-only.
 *
 * What goes where.  Every cost metric of the profile is an event (count
 * metrics are not costs; they become call counts).  Each cost centre is
 * one callgrind function, named "Module.label", with "#2", "#3", ...
 * added when two cost centres would get the same name (GHC's CAFs of
 * one module, Clean's repeated module names): they stay two functions.
 * Its file (fl=) is the file part of its source location when that is
 * "File.hs:LINE...", the location itself when it is a bare file name
 * (not GHC's "<entire-module>" and the like), else the file of another
 * cost centre of its module, else the module name, else "???"; so
 * KCacheGrind groups a module's cost centres together, and the position
 * is the source line (0 if unknown).
 * A function's cost line holds its self cost; one call record per pair
 * of adjacent functions on any stack holds the call's inclusive cost.
 * Names are compressed with "(id)".  With a context of N, a function is
 * split by its N nearest callers as callgrind's --separate-callers=N
 * does, and named like callgrind's: "fn'caller1'caller2".
 *
 * Inclusive costs under recursion.  Both readers compute a function's
 * inclusive cost as the sum of the costs of the calls *to* it (KCacheGrind
 * leaving out calls of a function to itself), and, only for a function
 * nobody calls, as its self cost plus the costs of its calls out
 * (callgrind_annotate --inclusive=yes; KCacheGrind's TraceFunction::update
 * without cycle detection, which is on by default and merges recursive
 * functions into cycles).  No assignment of call costs could make self
 * plus calls out right for every function too: on the stack a;b;c;b;d
 * with cost x, the only calls into c and d are b->c and b->d, which must
 * both carry x, so b's calls out carry 2x although b inherits x.
 * ccs-flat's inherited cost of F is the sum of the own costs of the
 * stacks on which F occurs, each counted once however often F occurs on
 * it.  So the call into a node u of function F carries u's inclusive cost
 * when u is the outermost occurrence of F on its path (no ancestor of u
 * is F), and nothing otherwise.
 *
 * Claim: then for every function F the calls into F sum to inherited(F).
 * Proof: a stack s (a node with own cost c) contributes c to the call
 * into u exactly when u is s or an ancestor of s and is the outermost
 * occurrence of its function.  For a given F on the path of s there is
 * exactly one outermost occurrence of F on that path, so s adds c once
 * to the calls into F, and nothing when F is not on its path.  Summing
 * over stacks gives inherited(F).  The caller of an outermost occurrence
 * is never F itself, so calls of F to F carry nothing and KCacheGrind's
 * leaving them out changes nothing: no function exceeds 100 %.
 *
 * The root's function R has no call into its first occurrence.  If R
 * occurs nowhere else, nobody calls R and both readers take self(R) plus
 * its calls out: the calls from the root go to the root's children, each
 * the outermost occurrence of its function, so they sum to the root's
 * inclusive cost minus its own, and R gets the total.  If R recurs
 * (a;b;a), R would count as called, so a function "(below main)" (as in
 * callgrind's own output) calls the root once with the total cost; the
 * calls into R's later occurrences carry nothing.  With a context of
 * N >= 1 the root's function has no callers in its name and every later
 * occurrence has, so R never recurs there.  A context-split function is
 * treated exactly like a cost centre above: its inclusive cost is the
 * own cost of the stacks on which it occurs, once each.
 *
 * Call counts (calls=) are the callee's "entries" metric (GHC), else the
 * sum of its count metrics named "*_calls" (Clean's strict, lazy and
 * curried calls), else the number of stacks; KCacheGrind shows only calls
 * with a count of at least 1, so a call count is never below 1.
 *
 * The writer is a sink (fmt_callgrind.h), so that a profile whose
 * tree is its stream need never be a tree: it keeps per function its
 * self cost and how often it is on the open path, per call its count
 * and inclusive cost, and per open level the inclusive cost so far,
 * which the call into the level gets when it closes if it is the
 * outermost occurrence of its function.  Functions and calls are
 * numbered as they first come, which is the pre-order of a tree.
 * Written from a tree, the tree's events are replayed into it.
 *
 * Clean's garbage-collector words are negative.  They are written as
 * negative numbers, which callgrind_annotate adds up correctly; the
 * format's grammar has only non-negative numbers, and KCacheGrind reads
 * such a cost as 0 and ignores the rest of that line.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fmt_callgrind.h"
#include "formats_int.h"

#define UNKNOWN_FILE	"???"
#define ROOT_CALLER	"(below main)"

struct htab {
	uint32_t	*slot;		/* id + 1; 0 = empty */
	uint64_t	*hash;
	size_t		 cap;		/* a power of two, or 0 */
	size_t		 n;
};

struct fn {
	uint32_t	 cc;		/* cost centre */
	uint32_t	 file;		/* index in the file table */
	uint64_t	 line;
	size_t		 name;		/* offset in the arena */
	int		 shown;		/* name written once already */
};

/*
 * The calls of function from to function to: all nodes of to whose
 * parent is of from.  The table of calls holds their key and count,
 * read and written once for each node (one cache line a node); their
 * inclusive costs, added only at outermost occurrences, are apart.
 */
struct callslot {
	uint64_t	 pair;		/* from << 32 | to */
	uint64_t	 count;		/* the call count */
	uint32_t	 call;		/* its row of callinc + 1; 0 = empty */
};

/* A node of the stream still open. */
struct level {
	uint32_t	 base;		/* its cost centre's function */
	uint32_t	 fid;		/* the function it is written as */
	uint32_t	 call;		/* the call into it; PDB_NONE: the root */
	int		 outer;		/* the outermost occurrence of fid */
};

struct pdb_callgrind {
	const struct pdb_opts *opts;
	struct pdb	*db;		/* from begin on */
	FILE		*out;		/* while writing */
	struct pdb_sink	 sink;
	unsigned	 nm;		/* metrics in the schema */
	unsigned	*ev;		/* metric of each event */
	unsigned	 nev;
	unsigned	*callm;		/* count metrics giving call counts */
	unsigned	 ncallm;
	unsigned	 context;

	char		*arena;		/* NUL-terminated names */
	size_t		 alen, acap;
	char		*tmp;		/* a name being built */
	size_t		 tlen, tcap;

	/* One base function per cost centre, in order of appearance. */
	struct fn	*bases;
	uint32_t	 nbases;
	size_t		 basecap;
	uint32_t	*bfid;		/* by cost centre; PDB_NONE: not yet */
	size_t		 nbfid, bfidcap;
	/* The functions written: each a tuple of context + 1 bases (the
	 * node's, then its callers'; PDB_NONE above the root). */
	struct fn	*fns;
	uint32_t	 nfns;
	size_t		 fncap;
	uint32_t	*tup;
	size_t		 tupcap;
	uint32_t	*key;		/* the tuple being looked up */
	struct htab	 tuples;	/* fns by tuple */
	struct htab	 names;		/* bases, then fns, by name */

	size_t		*files;		/* file names (arena offsets) */
	int		*fshown;
	uint32_t	 nfiles;
	size_t		 filecap;
	struct htab	 fileset;

	/* Costs, a row of nev events per function, call and open level. */
	int64_t		*self;
	size_t		 selfcap;
	uint32_t	*active;	/* by function: how often on the path */
	size_t		 activecap;
	uint32_t	 ncalls;
	int64_t		*callinc;	/* inclusive costs the calls carry */
	size_t		 callinccap;
	struct callslot	*callset;	/* calls by (from, to) */
	size_t		 callsetcap;	/* a power of two, or 0 */
	struct level	*path;
	size_t		 pathcap;
	uint32_t	 depth;
	uint32_t	 levels;	/* room in path and inc */
	int64_t		*inc;		/* inclusive costs of open levels */
	size_t		 inccap;
	int64_t		*total;		/* the root's inclusive cost */
	int		 check;		/* values unchecked: a reader's */
	uint64_t	*range;		/* the sums checked, as the builder does */
	int64_t		*zeros;		/* the values of an event without */
	uint64_t	 nodes;
	uint32_t	 ncc;		/* cost centres known so far */
	uint32_t	 root_fn;
	uint64_t	 root_calls;
	int		 root_recurs;	/* root_fn occurs below the root */
};

static int	 arena_add(struct pdb_callgrind *, const char *, size_t,
		    size_t *);
static int	 cg_write(struct pdb *, FILE *, const struct pdb_opts *);

const struct pdb_format pdb_fmt_callgrind = {
	.abi = PDB_FORMAT_ABI,
	.name = "callgrind",
	.desc = "callgrind format for KCacheGrind and callgrind_annotate",
	.exts = ".callgrind,.out",
	.flags = PDB_FMT_WRITE,
	.build = PDB_BUILD_RAW,
	.write = cg_write,
};

static uint64_t
fnv(const void *p, size_t n, uint64_t h)
{
	const unsigned char *s = p;

	while (n-- > 0) {
		h ^= *s++;
		h *= 1099511628211ULL;
	}
	return h;
}

#define FNV_INIT	14695981039346656037ULL

/* A hash of two 32-bit ids in one word, for a table read per node: one
 * multiply where fnv() takes eight (the finisher of MurmurHash3). */
static uint64_t
pair_hash(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

static int
htab_grow(struct htab *h)
{
	size_t ncap = h->cap ? h->cap * 2 : 256, i, j;
	uint32_t *slot;
	uint64_t *hash;

	if ((slot = calloc(ncap, sizeof(*slot))) == NULL)
		return -1;
	if ((hash = malloc(ncap * sizeof(*hash))) == NULL) {
		free(slot);
		return -1;
	}
	for (i = 0; i < h->cap; i++) {
		if (h->slot[i] == 0)
			continue;
		for (j = h->hash[i] & (ncap - 1); slot[j] != 0;
		    j = (j + 1) & (ncap - 1))
			;
		slot[j] = h->slot[i];
		hash[j] = h->hash[i];
	}
	free(h->slot);
	free(h->hash);
	h->slot = slot;
	h->hash = hash;
	h->cap = ncap;
	return 0;
}

static void
htab_free(struct htab *h)
{
	free(h->slot);
	free(h->hash);
}

/* Add id under hash hv (the caller checked it is not there). */
static int
htab_add(struct htab *h, uint64_t hv, uint32_t id)
{
	size_t j;

	if ((h->n + 1) * 2 > h->cap && htab_grow(h) != 0)
		return -1;
	for (j = hv & (h->cap - 1); h->slot[j] != 0; j = (j + 1) & (h->cap - 1))
		;
	h->slot[j] = id + 1;
	h->hash[j] = hv;
	h->n++;
	return 0;
}

/* Whether the string s is the name of a function of tab already. */
static int
name_taken(const struct pdb_callgrind *w, const struct fn *tab, const char *s,
    uint64_t hv)
{
	size_t j;

	if (w->names.cap == 0)
		return 0;
	for (j = hv & (w->names.cap - 1); w->names.slot[j] != 0;
	    j = (j + 1) & (w->names.cap - 1))
		if (w->names.hash[j] == hv && strcmp(w->arena +
		    tab[w->names.slot[j] - 1].name, s) == 0)
			return 1;
	return 0;
}

static int	tmp_put(struct pdb_callgrind *, const char *, size_t);

/*
 * The file whose name is s[0..len), added if new; PDB_NONE when out of
 * memory.  The name is made safe for one line as function names are
 * (tmp_put(), name_finish()): it comes from a module name or a source
 * location, which may hold any byte.
 */
static uint32_t
file_intern(struct pdb_callgrind *w, const char *s, size_t len)
{
	uint64_t hv;
	size_t j, off;

	w->tlen = 0;
	if (tmp_put(w, s, len) != 0)
		return PDB_NONE;
	for (j = 0; j < w->tlen && (w->tmp[j] == ' ' || w->tmp[j] == '\t'); j++)
		w->tmp[j] = '_';
	for (j = w->tlen; j > 0 && (w->tmp[j - 1] == ' ' ||
	    w->tmp[j - 1] == '\t'); j--)
		w->tmp[j - 1] = '_';
	if (w->tlen == 0 && tmp_put(w, UNKNOWN_FILE, strlen(UNKNOWN_FILE)))
		return PDB_NONE;
	s = w->tmp;
	len = w->tlen;
	hv = fnv(s, len, FNV_INIT);

	if (w->fileset.cap > 0)
		for (j = hv & (w->fileset.cap - 1); w->fileset.slot[j] != 0;
		    j = (j + 1) & (w->fileset.cap - 1)) {
			const char *f = w->arena +
			    w->files[w->fileset.slot[j] - 1];

			if (w->fileset.hash[j] == hv &&
			    strncmp(f, s, len) == 0 && f[len] == '\0')
				return w->fileset.slot[j] - 1;
		}
	if (pdb_buf_reserve(&w->files, &w->filecap,
	    ((size_t)w->nfiles + 1) * sizeof(*w->files)) != 0 ||
	    arena_add(w, s, len, &off) != 0 ||
	    htab_add(&w->fileset, hv, w->nfiles) != 0)
		return PDB_NONE;
	w->files[w->nfiles] = off;
	return w->nfiles++;
}

/* Copy s[0..len) to the arena as a NUL-terminated string at *off. */
static int
arena_add(struct pdb_callgrind *w, const char *s, size_t len, size_t *off)
{
	if (pdb_buf_reserve(&w->arena, &w->acap, w->alen + len + 1) != 0)
		return -1;
	memcpy(w->arena + w->alen, s, len);
	w->arena[w->alen + len] = '\0';
	*off = w->alen;
	w->alen += len + 1;
	return 0;
}

/* Append s[0..len) to the name being built, made safe for one line. */
static int
tmp_put(struct pdb_callgrind *w, const char *s, size_t len)
{
	size_t i;

	if (pdb_buf_reserve(&w->tmp, &w->tcap, w->tlen + len + 1) != 0)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		w->tmp[w->tlen++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
	}
	w->tmp[w->tlen] = '\0';
	return 0;
}

/* A name not given yet: name_finish() found it taken. */
#define NAME_LATER	SIZE_MAX

/*
 * Finish the name in tmp: readers strip blanks around names and take an
 * empty one for a reference, so those become '_' and "???"; then, with
 * numbered set, make it unique with "#2", "#3", ...  Sets the name of
 * function fid of tab (the bases or the functions written) and enters
 * it in the name table; without numbered, a name taken is left for later
 * (NAME_LATER), so that every name free as it is keeps it, and a "#2"
 * made up never takes a real "f#2".
 */
static int
name_finish(struct pdb_callgrind *w, struct fn *tab, uint32_t fid,
    int numbered)
{
	size_t base, i, off;
	uint64_t hv;
	unsigned long k;
	char suffix[32];

	if (w->tlen == 0 && tmp_put(w, UNKNOWN_FILE, strlen(UNKNOWN_FILE)))
		return -1;
	for (i = 0; i < w->tlen && (w->tmp[i] == ' ' || w->tmp[i] == '\t'); i++)
		w->tmp[i] = '_';
	for (i = w->tlen; i > 0 && (w->tmp[i - 1] == ' ' ||
	    w->tmp[i - 1] == '\t'); i--)
		w->tmp[i - 1] = '_';
	base = w->tlen;
	hv = fnv(w->tmp, w->tlen, FNV_INIT);
	if (!numbered && name_taken(w, tab, w->tmp, hv)) {
		tab[fid].name = NAME_LATER;
		return 0;
	}
	for (k = 2; name_taken(w, tab, w->tmp, hv); k++) {
		w->tlen = base;
		snprintf(suffix, sizeof(suffix), "#%lu", k);
		if (tmp_put(w, suffix, strlen(suffix)) != 0)
			return -1;
		hv = fnv(w->tmp, w->tlen, FNV_INIT);
	}
	if (arena_add(w, w->tmp, w->tlen, &off) != 0)
		return -1;
	tab[fid].name = off;
	return htab_add(&w->names, hv, fid);
}

/* Write "tag=(id) name" the first time, "tag=(id)" after. */
static void
put_fn(struct pdb_callgrind *w, const char *tag, uint32_t fid)
{
	struct fn *f = &w->fns[fid];

	if (f->shown)
		fprintf(w->out, "%s=(%" PRIu32 ")\n", tag, fid + 1);
	else
		fprintf(w->out, "%s=(%" PRIu32 ") %s\n", tag, fid + 1,
		    w->arena + f->name);
	f->shown = 1;
}

static void
put_file(struct pdb_callgrind *w, const char *tag, uint32_t file)
{
	if (w->fshown[file])
		fprintf(w->out, "%s=(%" PRIu32 ")\n", tag, file + 1);
	else
		fprintf(w->out, "%s=(%" PRIu32 ") %s\n", tag, file + 1,
		    w->arena + w->files[file]);
	w->fshown[file] = 1;
}

static void
put_costs(struct pdb_callgrind *w, uint64_t line, const int64_t *v)
{
	unsigned e;

	fprintf(w->out, "%" PRIu64, line);
	for (e = 0; e < w->nev; e++)
		fprintf(w->out, " %" PRId64, v[e]);
	putc('\n', w->out);
}

/* Keep metadata values on one line. */
static void
put_line(FILE *out, const char *s)
{
	for (; *s != '\0'; s++)
		putc((unsigned char)*s < 0x20 ? ' ' : *s, out);
}

/* Choose the events and the call-count metrics. */
static int
pick_metrics(struct pdb_callgrind *w, const struct pdb_opts *opts)
{
	struct pdb *db = w->db;
	const struct pdb_metric *pm;
	int first = -1, entries;
	unsigned m, len;

	if (opts->metric != NULL) {
		if ((first = pdb_metric_find(db, opts->metric)) < 0)
			return pdb_seterr(db, PDB_EINVAL,
			    "no metric '%s' in this profile", opts->metric);
		if (pdb_metric(db, (unsigned)first)->kind != PDB_COST)
			return pdb_seterr(db, PDB_EINVAL, "metric '%s' counts "
			    "calls: callgrind events are cost metrics",
			    opts->metric);
	}
	w->ev = malloc(((size_t)w->nm + 1) * sizeof(*w->ev));
	w->callm = malloc(((size_t)w->nm + 1) * sizeof(*w->callm));
	if (w->ev == NULL || w->callm == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	if (first >= 0)
		w->ev[w->nev++] = (unsigned)first;
	for (m = 0; m < w->nm; m++)
		if (pdb_metric(db, m)->kind == PDB_COST && (int)m != first)
			w->ev[w->nev++] = m;
	if (w->nev == 0)
		return pdb_seterr(db, PDB_EUNSUPP,
		    "no cost metric to write as a callgrind event");
	entries = pdb_metric_find(db, "entries");
	if (entries >= 0 && pdb_metric(db, (unsigned)entries)->kind ==
	    PDB_COUNT)
		w->callm[w->ncallm++] = (unsigned)entries;
	else
		for (m = 0; m < w->nm; m++) {
			pm = pdb_metric(db, m);
			len = (unsigned)strlen(pm->name);
			if (pm->kind == PDB_COUNT && len > 6 &&
			    strcmp(pm->name + len - 6, "_calls") == 0)
				w->callm[w->ncallm++] = m;
		}
	return PDB_OK;
}

/*
 * Event names must be [A-Za-z_][A-Za-z0-9_]* for KCacheGrind; anything
 * else becomes '_', and a clash gets a number.  Writes the names as a
 * list separated by blanks into the arena, returning their offsets.
 */
static int
event_names(struct pdb_callgrind *w, size_t *off)
{
	const char *s;
	unsigned e, k, j;
	char num[16];

	for (e = 0; e < w->nev; e++) {
		s = pdb_metric(w->db, w->ev[e])->name;
		w->tlen = 0;
		if ((*s >= '0' && *s <= '9') || *s == '\0')
			if (tmp_put(w, "_", 1) != 0)
				return -1;
		for (; *s != '\0'; s++) {
			char ch = *s;

			if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' &&
			    ch <= 'Z') || (ch >= '0' && ch <= '9')))
				ch = '_';
			if (tmp_put(w, &ch, 1) != 0)
				return -1;
		}
		for (k = 2, j = 0; j < e; j++)
			if (strcmp(w->arena + off[j], w->tmp) == 0) {
				snprintf(num, sizeof(num), "_%u", k++);
				if (tmp_put(w, num, strlen(num)) != 0)
					return -1;
				j = (unsigned)-1;	/* check again */
			}
		if (arena_add(w, w->tmp, w->tlen, &off[e]) != 0)
			return -1;
	}
	return 0;
}

static void
put_header(struct pdb_callgrind *w, const struct pdb_opts *opts,
    const size_t *evname, const int64_t *total)
{
	struct pdb *db = w->db;
	const char *cmd, *key, *val;
	const struct pdb_metric *pm;
	size_t i;
	unsigned e;

	fputs("# callgrind format\nversion: 1\ncreator: ccstools "
	    PDB_VERSION_STRING "\n", w->out);
	if ((cmd = pdb_meta_get(db, "command")) == NULL &&
	    (cmd = pdb_meta_get(db, "program")) == NULL)
		cmd = opts->command;
	if (cmd != NULL) {
		fputs("cmd: ", w->out);
		put_line(w->out, cmd);
		putc('\n', w->out);
	}
	for (i = 0; i < pdb_meta_count(db); i++) {
		pdb_meta_at(db, i, &key, &val);
		if (strcmp(key, "command") == 0)
			continue;
		fputs("desc: ", w->out);
		put_line(w->out, key);
		fputs(": ", w->out);
		put_line(w->out, val);
		putc('\n', w->out);
	}
	fputs("\npositions: line\n", w->out);
	for (e = 0; e < w->nev; e++) {
		pm = pdb_metric(db, w->ev[e]);
		fprintf(w->out, "event: %s : ", w->arena + evname[e]);
		put_line(w->out, pm->name);
		fputs(" (", w->out);
		put_line(w->out, pm->unit);
		fprintf(w->out, "%s)\n", pm->flags & PDB_METRIC_APPROX ?
		    ", approximate" : "");
	}
	fputs("events:", w->out);
	for (e = 0; e < w->nev; e++)
		fprintf(w->out, " %s", w->arena + evname[e]);
	fputs("\nsummary:", w->out);
	for (e = 0; e < w->nev; e++)
		fprintf(w->out, " %" PRId64, total[e]);
	fputs("\n\n", w->out);
}

/* Append a zeroed struct fn to *tab, its index in *id. */
static int
fn_new(struct fn **tab, uint32_t *n, size_t *cap, uint32_t *id)
{
	if (pdb_buf_reserve(tab, cap, ((size_t)*n + 1) * sizeof(**tab)) != 0)
		return -1;
	memset(&(*tab)[*n], 0, sizeof(**tab));
	*id = (*n)++;
	return 0;
}

/* The function of the tuple in w->key, made if new; PDB_NONE when out of
 * memory. */
static uint32_t
fn_of_key(struct pdb_callgrind *w)
{
	size_t stride = (size_t)w->context + 1, j, keysz;
	uint64_t hv;
	uint32_t v;

	keysz = stride * sizeof(*w->key);
	hv = fnv(w->key, keysz, FNV_INIT);
	if (w->tuples.cap > 0)
		for (j = hv & (w->tuples.cap - 1); w->tuples.slot[j] != 0;
		    j = (j + 1) & (w->tuples.cap - 1)) {
			v = w->tuples.slot[j] - 1;
			if (w->tuples.hash[j] == hv && memcmp(w->tup +
			    (size_t)v * stride, w->key, keysz) == 0)
				return v;
		}
	if (fn_new(&w->fns, &w->nfns, &w->fncap, &v) != 0 ||
	    pdb_buf_reserve(&w->tup, &w->tupcap, (size_t)w->nfns * keysz) ||
	    pdb_buf_reserve(&w->self, &w->selfcap, (size_t)w->nfns *
	    w->nev * sizeof(*w->self)) != 0 ||
	    pdb_buf_reserve(&w->active, &w->activecap, (size_t)w->nfns *
	    sizeof(*w->active)) != 0 ||
	    htab_add(&w->tuples, hv, v) != 0)
		return PDB_NONE;
	memcpy(w->tup + (size_t)v * stride, w->key, keysz);
	memset(w->self + (size_t)v * w->nev, 0, w->nev * sizeof(*w->self));
	w->active[v] = 0;
	return v;
}

/* The base function of cost centre cc, made if new; PDB_NONE when out
 * of memory. */
static uint32_t
base_of(struct pdb_callgrind *w, uint32_t cc)
{
	uint32_t b;

	if (cc >= w->nbfid) {
		size_t n = (size_t)cc + 1 > 2 * w->nbfid ? (size_t)cc + 1 :
		    2 * w->nbfid;

		if (pdb_buf_reserve(&w->bfid, &w->bfidcap,
		    n * sizeof(*w->bfid)) != 0)
			return PDB_NONE;
		for (; w->nbfid < n; w->nbfid++)
			w->bfid[w->nbfid] = PDB_NONE;
	}
	if (w->bfid[cc] != PDB_NONE)
		return w->bfid[cc];
	if (fn_new(&w->bases, &w->nbases, &w->basecap, &b) != 0)
		return PDB_NONE;
	w->bases[b].cc = cc;
	w->bfid[cc] = b;
	return b;
}

/* Double the table of calls. */
static int
callset_grow(struct pdb_callgrind *w)
{
	size_t ncap = w->callsetcap ? w->callsetcap * 2 : 1024, i, j;
	struct callslot *t;

	if ((t = calloc(ncap, sizeof(*t))) == NULL)
		return -1;
	for (i = 0; i < w->callsetcap; i++) {
		if (w->callset[i].call == 0)
			continue;
		for (j = pair_hash(w->callset[i].pair) & (ncap - 1);
		    t[j].call != 0; j = (j + 1) & (ncap - 1))
			;
		t[j] = w->callset[i];
	}
	free(w->callset);
	w->callset = t;
	w->callsetcap = ncap;
	return 0;
}

/* The slot of the call from function from to function to, made if new;
 * NULL when out of memory. */
static struct callslot *
call_of(struct pdb_callgrind *w, uint32_t from, uint32_t to)
{
	uint64_t pair = (uint64_t)from << 32 | to;
	size_t j, mask = w->callsetcap - 1;
	uint32_t c;

	if (w->callsetcap > 0)
		for (j = pair_hash(pair) & mask; w->callset[j].call != 0;
		    j = (j + 1) & mask)
			if (w->callset[j].pair == pair)
				return &w->callset[j];
	c = w->ncalls;
	if (((size_t)c + 1) * 2 > w->callsetcap) {
		if (callset_grow(w) != 0)
			return NULL;
		mask = w->callsetcap - 1;
	}
	if (pdb_buf_reserve(&w->callinc, &w->callinccap, ((size_t)c + 1) *
	    w->nev * sizeof(*w->callinc)) != 0)
		return NULL;
	for (j = pair_hash(pair) & mask; w->callset[j].call != 0;
	    j = (j + 1) & mask)
		;
	w->callset[j].pair = pair;
	w->callset[j].count = 0;
	w->callset[j].call = c + 1;
	memset(w->callinc + (size_t)c * w->nev, 0, w->nev *
	    sizeof(*w->callinc));
	w->ncalls++;
	return &w->callset[j];
}

/* The call count of a node with these values. */
static uint64_t
node_calls(const struct pdb_callgrind *w, const int64_t *v)
{
	uint64_t c = 0;
	unsigned i;

	if (w->ncallm == 0)
		return 1;
	for (i = 0; i < w->ncallm; i++)
		if (v[w->callm[i]] > 0)
			c += (uint64_t)v[w->callm[i]];
	return c;
}

static int
cg_begin(void *arg, struct pdb *db)
{
	struct pdb_callgrind *w = arg;
	const struct pdb_callgrind_opts *co = w->opts->writer_opts;
	int rc;

	w->db = db;
	w->nm = pdb_metric_count(db);
	w->context = co != NULL ? co->context : 0;
	if (w->context > PDB_CALLGRIND_MAX_CONTEXT)
		return pdb_seterr(db, PDB_EINVAL, "callgrind context %u is "
		    "over %u", w->context, PDB_CALLGRIND_MAX_CONTEXT);
	if ((rc = pick_metrics(w, w->opts)) != PDB_OK)
		return rc;
	w->key = malloc(((size_t)w->context + 1) * sizeof(*w->key));
	w->total = calloc((size_t)w->nev + 1, sizeof(*w->total));
	w->range = calloc(2 * (size_t)w->nm + 1, sizeof(*w->range));
	w->zeros = calloc((size_t)w->nm + 1, sizeof(*w->zeros));
	if (w->key == NULL || w->total == NULL || w->range == NULL ||
	    w->zeros == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	return PDB_OK;
}

/*
 * A node: its function is the tuple of its base and its callers' (just
 * its base without context); its own cost is its function's self cost,
 * and its call count goes to the call into it.
 */
static int
cg_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *values)
{
	struct pdb_callgrind *w = arg;
	struct level *lv;
	uint32_t base, fid, k;
	int64_t *inc, *self;
	unsigned e;
	int rc;

	if (cc >= w->ncc && (w->ncc = pdb_cc_count(db)) <= cc)
		return pdb_seterr(db, PDB_EINVAL, "cost centre %u out of range",
		    (unsigned)cc);
	if (w->depth == 0 && w->nodes > 0)
		return pdb_seterr(db, PDB_EFORMAT,
		    "profile has more than one root");
	if (values == NULL)
		values = w->zeros;
	if (w->check && (rc = pdb_sums_add(db, w->range, cc, values)) !=
	    PDB_OK)
		return rc;
	if ((base = base_of(w, cc)) == PDB_NONE)
		goto nomem;
	w->key[0] = base;
	for (k = 1; k <= w->context; k++)
		w->key[k] = k <= w->depth ? w->path[w->depth - k].base :
		    PDB_NONE;
	/* Without context a function is a base, made in the same order. */
	fid = w->context == 0 && base < w->nfns ? base : fn_of_key(w);
	if (fid == PDB_NONE)
		goto nomem;
	if (w->depth == w->levels) {
		if (pdb_buf_reserve(&w->path, &w->pathcap, ((size_t)w->depth +
		    1) * sizeof(*w->path)) != 0 || pdb_buf_reserve(&w->inc,
		    &w->inccap, ((size_t)w->depth + 1) * w->nev *
		    sizeof(*w->inc)) != 0)
			goto nomem;
		w->levels = w->depth + 1;
	}
	lv = &w->path[w->depth];
	lv->base = base;
	lv->fid = fid;
	lv->outer = w->active[fid]++ == 0;
	lv->call = PDB_NONE;
	if (w->depth > 0) {
		struct callslot *cs;

		if ((cs = call_of(w, w->path[w->depth - 1].fid, fid)) == NULL)
			goto nomem;
		cs->count += node_calls(w, values);
		lv->call = cs->call - 1;
		if (fid == w->root_fn)
			w->root_recurs = 1;
	} else {
		w->root_fn = fid;
		w->root_calls = node_calls(w, values);
	}
	/* Sums wrap, like the profilers' own unsigned counters. */
	inc = w->inc + (size_t)w->depth * w->nev;
	self = w->self + (size_t)fid * w->nev;
	for (e = 0; e < w->nev; e++) {
		uint64_t v = (uint64_t)values[w->ev[e]];

		inc[e] = (int64_t)v;
		self[e] = (int64_t)((uint64_t)self[e] + v);
		w->total[e] = (int64_t)((uint64_t)w->total[e] + v);
	}
	w->depth++;
	w->nodes++;
	return PDB_OK;
nomem:
	return pdb_seterr(db, PDB_ENOMEM, "out of memory");
}

/* Add the nev events of row v to acc, wrapping. */
static void
add_events(const struct pdb_callgrind *w, int64_t *acc, const int64_t *v)
{
	unsigned e;

	for (e = 0; e < w->nev; e++)
		acc[e] = (int64_t)((uint64_t)acc[e] + (uint64_t)v[e]);
}

/* A node closes: the call into it carries its inclusive cost if it is
 * the outermost occurrence of its function, and its parent's grows. */
static int
cg_exit(void *arg, struct pdb *db)
{
	struct pdb_callgrind *w = arg;
	struct level *lv;
	int64_t *inc;

	if (w->depth == 0)
		return pdb_seterr(db, PDB_EINVAL, "exit without enter");
	lv = &w->path[--w->depth];
	inc = w->inc + (size_t)w->depth * w->nev;
	w->active[lv->fid]--;
	if (lv->outer && lv->call != PDB_NONE)
		add_events(w, w->callinc + (size_t)lv->call * w->nev, inc);
	if (w->depth > 0)
		add_events(w, inc - w->nev, inc);
	return PDB_OK;
}

/* Whether src names a file without a line: not empty, not "<...>". */
static int
is_bare_file(const char *src)
{
	size_t len = strlen(src);

	return len > 0 && !(src[0] == '<' && src[len - 1] == '>');
}

/*
 * Files and names of the base functions, in order of appearance: a
 * base's file is that of its source location (or the location itself
 * when it is a bare file name), else the first file named by its
 * module's cost centres, else the module's name.
 */
static int
name_bases(struct pdb_callgrind *w)
{
	struct pdb *db = w->db;
	uint32_t nmod = pdb_module_count(db), *modfile, i, f, b;
	struct pdb_cc cc;
	const char *name;
	size_t flen;
	uint64_t line;
	int rc = -1;

	if ((modfile = malloc(((size_t)nmod + 1) * sizeof(*modfile))) == NULL)
		return -1;
	for (i = 0; i < nmod; i++)
		modfile[i] = PDB_NONE;
	for (b = 0; b < w->nbases; b++) {
		pdb_cc(db, w->bases[b].cc, &cc);
		flen = 0;
		line = 0;
		if (!pdb_src_split(cc.src, &flen, &line, NULL) &&
		    is_bare_file(cc.src))
			flen = strlen(cc.src);
		if (flen > 0) {
			if ((f = file_intern(w, cc.src, flen)) == PDB_NONE)
				goto out;
			w->bases[b].file = f;
			w->bases[b].line = line;
			if (cc.module_index < nmod &&
			    modfile[cc.module_index] == PDB_NONE)
				modfile[cc.module_index] = f;
		} else
			w->bases[b].file = PDB_NONE;
	}
	for (b = 0; b < w->nbases; b++) {
		pdb_cc(db, w->bases[b].cc, &cc);
		if (w->bases[b].file == PDB_NONE) {
			if (cc.module_index < nmod &&
			    modfile[cc.module_index] != PDB_NONE)
				f = modfile[cc.module_index];
			else if (cc.module[0] != '\0')
				f = file_intern(w, cc.module, strlen(cc.module));
			else
				f = file_intern(w, UNKNOWN_FILE,
				    strlen(UNKNOWN_FILE));
			if (f == PDB_NONE)
				goto out;
			w->bases[b].file = f;
		}
		name = pdb_cc_fullname(db, w->bases[b].cc);
		w->tlen = 0;
		if (tmp_put(w, name, strlen(name)) != 0 ||
		    name_finish(w, w->bases, b, 0) != 0)
			goto out;
	}
	/* The names taken, with a suffix not taken. */
	for (b = 0; b < w->nbases; b++) {
		if (w->bases[b].name != NAME_LATER)
			continue;
		name = pdb_cc_fullname(db, w->bases[b].cc);
		w->tlen = 0;
		if (tmp_put(w, name, strlen(name)) != 0 ||
		    name_finish(w, w->bases, b, 1) != 0)
			goto out;
	}
	rc = 0;
out:
	free(modfile);
	return rc;
}

/* The functions written take their base's file and line, and their
 * bases' names joined by "'" (callgrind's "fn'caller1'caller2"). */
static int
name_fns(struct pdb_callgrind *w)
{
	size_t stride = (size_t)w->context + 1, k;
	const uint32_t *key;
	const struct fn *b;
	uint32_t v;

	int pass;

	htab_free(&w->names);
	memset(&w->names, 0, sizeof(w->names));
	/* As in name_bases(): the names free as they are first. */
	for (pass = 0; pass < 2; pass++)
		for (v = 0; v < w->nfns; v++) {
			if (pass == 1 && w->fns[v].name != NAME_LATER)
				continue;
			key = w->tup + (size_t)v * stride;
			b = &w->bases[key[0]];
			w->fns[v].cc = b->cc;
			w->fns[v].file = b->file;
			w->fns[v].line = b->line;
			w->tlen = 0;
			for (k = 0; k < stride && key[k] != PDB_NONE; k++) {
				const char *s = w->arena +
				    w->bases[key[k]].name;

				if ((k > 0 && tmp_put(w, "'", 1) != 0) ||
				    tmp_put(w, s, strlen(s)) != 0)
					return -1;
			}
			if (name_finish(w, w->fns, v, pass) != 0)
				return -1;
		}
	return 0;
}

/* A call, for sorting the calls by caller and callee. */
struct call_ref {
	uint32_t	 from, to;
	uint32_t	 call;		/* its row of callinc */
	uint64_t	 count;
};

static int
call_cmp(const void *a, const void *b)
{
	const struct call_ref *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

int
pdb_callgrind_finish(struct pdb_callgrind *w, FILE *out)
{
	struct pdb *db = w->db;
	struct call_ref *sorted = NULL;
	size_t *evname = NULL;
	uint32_t f, k, c, below = PDB_NONE, lastfile = PDB_NONE;
	size_t j;
	int rc;

	if (db == NULL || w->nodes == 0)
		return db == NULL ? PDB_EINVAL : pdb_seterr(db, PDB_EINVAL,
		    "nothing to write: empty profile");
	w->out = out;
	if (name_bases(w) != 0 || name_fns(w) != 0)
		goto nomem;
	/* A recursive root is called by "(below main)" (see above). */
	if (w->root_recurs) {
		if (fn_new(&w->fns, &w->nfns, &w->fncap, &below) != 0 ||
		    pdb_buf_reserve(&w->self, &w->selfcap, (size_t)w->nfns *
		    w->nev * sizeof(*w->self)) != 0)
			goto nomem;
		memset(w->self + (size_t)below * w->nev, 0, w->nev *
		    sizeof(*w->self));
		w->fns[below].file = w->fns[w->root_fn].file;
		w->tlen = 0;
		if (tmp_put(w, ROOT_CALLER, strlen(ROOT_CALLER)) ||
		    name_finish(w, w->fns, below, 1) != 0)
			goto nomem;
	}
	/* The calls of each function together, by callee. */
	sorted = malloc(((size_t)w->ncalls + 1) * sizeof(*sorted));
	evname = malloc(((size_t)w->nev + 1) * sizeof(*evname));
	w->fshown = calloc((size_t)w->nfiles + 1, sizeof(*w->fshown));
	if (sorted == NULL || evname == NULL || w->fshown == NULL ||
	    event_names(w, evname) != 0)
		goto nomem;
	for (j = 0, c = 0; j < w->callsetcap; j++)
		if (w->callset[j].call != 0) {
			sorted[c].from = (uint32_t)(w->callset[j].pair >> 32);
			sorted[c].to = (uint32_t)w->callset[j].pair;
			sorted[c].call = w->callset[j].call - 1;
			sorted[c++].count = w->callset[j].count;
		}
	qsort(sorted, w->ncalls, sizeof(*sorted), call_cmp);

	put_header(w, w->opts, evname, w->total);
	if (below != PDB_NONE) {
		put_file(w, "fl", w->fns[below].file);
		lastfile = w->fns[below].file;
		put_fn(w, "fn", below);
		put_costs(w, 0, w->self + (size_t)below * w->nev);
		put_file(w, "cfl", w->fns[w->root_fn].file);
		put_fn(w, "cfn", w->root_fn);
		fprintf(out, "calls=%" PRIu64 " %" PRIu64 "\n",
		    w->root_calls > 0 ? w->root_calls : 1,
		    w->fns[w->root_fn].line);
		put_costs(w, 0, w->total);
		putc('\n', out);
	}
	for (f = 0, k = 0; f < w->nfns; f++) {
		if (f == below)
			continue;
		if (w->fns[f].file != lastfile) {
			put_file(w, "fl", w->fns[f].file);
			lastfile = w->fns[f].file;
		}
		put_fn(w, "fn", f);
		put_costs(w, w->fns[f].line, w->self + (size_t)f * w->nev);
		for (; k < w->ncalls && sorted[k].from == f; k++) {
			uint32_t to = sorted[k].to;

			put_file(w, "cfl", w->fns[to].file);
			put_fn(w, "cfn", to);
			fprintf(out, "calls=%" PRIu64 " %" PRIu64 "\n",
			    sorted[k].count > 0 ? sorted[k].count : 1,
			    w->fns[to].line);
			put_costs(w, w->fns[f].line, w->callinc +
			    (size_t)sorted[k].call * w->nev);
		}
		putc('\n', out);
	}
	fputs("totals:", out);
	for (c = 0; c < w->nev; c++)
		fprintf(out, " %" PRId64, w->total[c]);
	putc('\n', out);
	rc = ferror(out) ? pdb_seterr(db, PDB_EIO, "write error") : PDB_OK;
	goto done;
nomem:
	rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
done:
	free(sorted);
	free(evname);
	return rc;
}

/* A batch of nodes, without a call through the reader's sink each. */
static int
cg_nodes(void *arg, struct pdb *db, const struct pdb_batch *b, size_t *done)
{
	return pdb_batch_each(db, b, 0, b->n, done, cg_enter, cg_exit, arg);
}

struct pdb_callgrind *
pdb_callgrind_new(const struct pdb_opts *opts)
{
	static const struct pdb_opts noopts;
	struct pdb_callgrind *w;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	w->opts = opts != NULL ? opts : &noopts;
	w->check = 1;
	w->sink.begin = cg_begin;
	w->sink.enter = cg_enter;
	w->sink.exit = cg_exit;
	w->sink.nodes = cg_nodes;
	w->sink.arg = w;
	return w;
}

const struct pdb_sink *
pdb_callgrind_sink(struct pdb_callgrind *w)
{
	return &w->sink;
}

uint64_t
pdb_callgrind_nodes(const struct pdb_callgrind *w)
{
	return w->nodes;
}

void
pdb_callgrind_free(struct pdb_callgrind *w)
{
	if (w == NULL)
		return;
	free(w->ev);
	free(w->callm);
	free(w->arena);
	free(w->tmp);
	free(w->bases);
	free(w->bfid);
	free(w->fns);
	free(w->tup);
	free(w->key);
	htab_free(&w->tuples);
	htab_free(&w->names);
	free(w->files);
	free(w->fshown);
	htab_free(&w->fileset);
	free(w->self);
	free(w->active);
	free(w->callinc);
	free(w->callset);
	free(w->path);
	free(w->inc);
	free(w->total);
	free(w->range);
	free(w->zeros);
	free(w);
}

/* A tree: its events through the streaming writer. */
static int
cg_write(struct pdb *db, FILE *out, const struct pdb_opts *opts)
{
	struct pdb_callgrind *w;
	int rc;

	if ((w = pdb_callgrind_new(opts)) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	/* A tree's values were checked as it was read, or are the caller's,
	 * whose sums wrap. */
	w->check = 0;
	if ((rc = pdb_replay(db, &w->sink)) == PDB_OK)
		rc = pdb_callgrind_finish(w, out);
	pdb_callgrind_free(w);
	return rc;
}
