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
 * "File.hs:LINE...", else the file of another cost centre of its module,
 * else the module name, else "???"; so KCacheGrind groups a module's cost
 * centres together, and the position is the source line (0 if unknown).
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
#include "formats.h"

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

struct cg {
	struct pdb	*db;
	FILE		*out;
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

	struct fn	*bases;		/* one per cost centre in the tree */
	struct fn	*fns;		/* the functions written: bases or
					   context variants */
	uint32_t	 nfns;
	size_t		 fncap;
	struct htab	 names;		/* fns by name */
	struct htab	 tuples;	/* variants by context tuple */
	uint32_t	*tup;		/* context tuples, context + 1 each */

	size_t		*files;		/* file names (arena offsets) */
	int		*fshown;
	uint32_t	 nfiles;
	size_t		 filecap;
	struct htab	 fileset;
};

struct edge {
	uint32_t	 from, to;	/* functions */
	uint32_t	 node;		/* the callee's node */
};

static int	 arena_add(struct cg *, const char *, size_t, size_t *);
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

/* Whether the string s is the name of a function already. */
static int
name_taken(const struct cg *w, const char *s, uint64_t hv)
{
	size_t j;

	if (w->names.cap == 0)
		return 0;
	for (j = hv & (w->names.cap - 1); w->names.slot[j] != 0;
	    j = (j + 1) & (w->names.cap - 1))
		if (w->names.hash[j] == hv && strcmp(w->arena +
		    w->fns[w->names.slot[j] - 1].name, s) == 0)
			return 1;
	return 0;
}

static int	tmp_put(struct cg *, const char *, size_t);

/*
 * The file whose name is s[0..len), added if new; PDB_NONE when out of
 * memory.  The name is made safe for one line as function names are
 * (tmp_put(), name_finish()): it comes from a module name or a source
 * location, which may hold any byte.
 */
static uint32_t
file_intern(struct cg *w, const char *s, size_t len)
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
arena_add(struct cg *w, const char *s, size_t len, size_t *off)
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
tmp_put(struct cg *w, const char *s, size_t len)
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

/*
 * Finish the name in tmp: readers strip blanks around names and take an
 * empty one for a reference, so those become '_' and "???"; then make it
 * unique with "#2", "#3", ...  Sets the name of function fid and enters
 * it in the name table.
 */
static int
name_finish(struct cg *w, uint32_t fid)
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
	for (k = 2; name_taken(w, w->tmp, hv); k++) {
		w->tlen = base;
		snprintf(suffix, sizeof(suffix), "#%lu", k);
		if (tmp_put(w, suffix, strlen(suffix)) != 0)
			return -1;
		hv = fnv(w->tmp, w->tlen, FNV_INIT);
	}
	if (arena_add(w, w->tmp, w->tlen, &off) != 0)
		return -1;
	w->fns[fid].name = off;
	return htab_add(&w->names, hv, fid);
}

/*
 * Split a GHC source location "Main.hs:16:1-41" or "Main.hs:(18,1)-(19,28)"
 * into its file part and line.  Returns 0 when src has no such form.
 */
static int
src_split(const char *src, size_t *flen, uint64_t *line)
{
	const char *p, *q;
	uint64_t v;

	for (p = strchr(src, ':'); p != NULL; p = strchr(p + 1, ':')) {
		q = p + 1;
		if (*q == '(')
			q++;
		if (*q < '0' || *q > '9' || p == src)
			continue;
		for (v = 0; *q >= '0' && *q <= '9' && v < UINT32_MAX; q++)
			v = v * 10 + (uint64_t)(*q - '0');
		if (*q != ':' && *q != ',' && *q != '\0')
			continue;
		*flen = (size_t)(p - src);
		*line = v < UINT32_MAX ? v : 0;
		return 1;
	}
	return 0;
}

static int
fn_new(struct cg *w, uint32_t *fid)
{
	if (pdb_buf_reserve(&w->fns, &w->fncap,
	    ((size_t)w->nfns + 1) * sizeof(*w->fns)) != 0)
		return -1;
	memset(&w->fns[w->nfns], 0, sizeof(*w->fns));
	*fid = w->nfns++;
	return 0;
}

/*
 * One function per cost centre in the tree, in pre-order of first
 * appearance; bfid[cc] gets each cost centre's function.
 */
static int
make_bases(struct cg *w, const uint32_t *order, uint32_t nn, uint32_t *bfid)
{
	struct pdb *db = w->db;
	uint32_t nmod = pdb_module_count(db), *modfile, i, f, fid;
	struct pdb_cc cc;
	size_t flen;
	uint64_t line;
	int rc = -1;

	if ((modfile = malloc(((size_t)nmod + 1) * sizeof(*modfile))) == NULL)
		return -1;
	for (i = 0; i < nmod; i++)
		modfile[i] = PDB_NONE;
	for (i = 0; i < nn; i++) {
		uint32_t c = pdb_node_cc(db, order[i]);

		if (bfid[c] != PDB_NONE)
			continue;
		if (fn_new(w, &fid) != 0)
			goto out;
		bfid[c] = fid;
		w->fns[fid].cc = c;
	}
	/* A module's file: the first file named by its cost centres. */
	for (fid = 0; fid < w->nfns; fid++) {
		pdb_cc(db, w->fns[fid].cc, &cc);
		if (src_split(cc.src, &flen, &line)) {
			if ((f = file_intern(w, cc.src, flen)) == PDB_NONE)
				goto out;
			w->fns[fid].file = f;
			w->fns[fid].line = line;
			if (cc.module_index < nmod &&
			    modfile[cc.module_index] == PDB_NONE)
				modfile[cc.module_index] = f;
		} else
			w->fns[fid].file = PDB_NONE;
	}
	for (fid = 0; fid < w->nfns; fid++) {
		const char *name;

		pdb_cc(db, w->fns[fid].cc, &cc);
		if (w->fns[fid].file == PDB_NONE) {
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
			w->fns[fid].file = f;
		}
		name = pdb_cc_fullname(db, w->fns[fid].cc);
		w->tlen = 0;
		if (tmp_put(w, name, strlen(name)) != 0 ||
		    name_finish(w, fid) != 0)
			goto out;
	}
	rc = 0;
out:
	free(modfile);
	return rc;
}

/*
 * Context variants: node n's function is its cost centre with the cost
 * centres of its nearest w->context ancestors, interned by that tuple.
 */
static int
make_variants(struct cg *w, const uint32_t *order, uint32_t nn,
    const uint32_t *bfid, uint32_t *fid)
{
	struct pdb *db = w->db;
	size_t stride = (size_t)w->context + 1, cap = 0, j;
	uint32_t *key, i, k, n, v;
	uint64_t hv;

	w->bases = w->fns;
	w->fns = NULL;
	w->nfns = w->fncap = 0;
	htab_free(&w->names);
	memset(&w->names, 0, sizeof(w->names));
	if ((key = malloc(stride * sizeof(*key))) == NULL)
		return -1;
	for (i = 0; i < nn; i++) {
		n = order[i];
		for (k = 0; k < stride; k++) {
			key[k] = n == PDB_NONE ? PDB_NONE :
			    bfid[pdb_node_cc(db, n)];
			if (n != PDB_NONE)
				n = pdb_node_parent(db, n);
		}
		hv = fnv(key, stride * sizeof(*key), FNV_INIT);
		v = PDB_NONE;
		if (w->tuples.cap > 0)
			for (j = hv & (w->tuples.cap - 1);
			    w->tuples.slot[j] != 0;
			    j = (j + 1) & (w->tuples.cap - 1))
				if (w->tuples.hash[j] == hv &&
				    memcmp(w->tup + (size_t)(w->tuples.slot[j] -
				    1) * stride, key, stride *
				    sizeof(*key)) == 0) {
					v = w->tuples.slot[j] - 1;
					break;
				}
		if (v == PDB_NONE) {
			if (fn_new(w, &v) != 0 ||
			    pdb_buf_reserve(&w->tup, &cap,
			    (size_t)w->nfns * stride * sizeof(*key)) != 0 ||
			    htab_add(&w->tuples, hv, v) != 0)
				goto fail;
			memcpy(w->tup + (size_t)v * stride, key,
			    stride * sizeof(*key));
			w->fns[v].cc = w->bases[key[0]].cc;
			w->fns[v].file = w->bases[key[0]].file;
			w->fns[v].line = w->bases[key[0]].line;
			w->tlen = 0;
			for (k = 0; k < stride && key[k] != PDB_NONE; k++) {
				const char *s = w->arena +
				    w->bases[key[k]].name;

				if ((k > 0 && tmp_put(w, "'", 1) != 0) ||
				    tmp_put(w, s, strlen(s)) != 0)
					goto fail;
			}
			if (name_finish(w, v) != 0)
				goto fail;
		}
		fid[order[i]] = v;
	}
	free(key);
	return 0;
fail:
	free(key);
	return -1;
}

static int
edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* Write "tag=(id) name" the first time, "tag=(id)" after. */
static void
put_fn(struct cg *w, const char *tag, uint32_t fid)
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
put_file(struct cg *w, const char *tag, uint32_t file)
{
	if (w->fshown[file])
		fprintf(w->out, "%s=(%" PRIu32 ")\n", tag, file + 1);
	else
		fprintf(w->out, "%s=(%" PRIu32 ") %s\n", tag, file + 1,
		    w->arena + w->files[file]);
	w->fshown[file] = 1;
}

static void
put_costs(struct cg *w, uint64_t line, const int64_t *v)
{
	unsigned e;

	fprintf(w->out, "%" PRIu64, line);
	for (e = 0; e < w->nev; e++)
		fprintf(w->out, " %" PRId64, v[e]);
	putc('\n', w->out);
}

/* Add the event values of metric row vals to acc, wrapping. */
static void
add_events(const struct cg *w, int64_t *acc, const int64_t *vals)
{
	unsigned e;

	for (e = 0; e < w->nev; e++)
		acc[e] = (int64_t)((uint64_t)acc[e] + (uint64_t)vals[w->ev[e]]);
}

/* The call count of node n. */
static uint64_t
node_calls(const struct cg *w, uint32_t n)
{
	const int64_t *v = pdb_node_values(w->db, n);
	uint64_t c = 0;
	unsigned i;

	if (w->ncallm == 0)
		return 1;
	for (i = 0; i < w->ncallm; i++)
		if (v[w->callm[i]] > 0)
			c += (uint64_t)v[w->callm[i]];
	return c;
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
pick_metrics(struct cg *w, const struct pdb_opts *opts)
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
event_names(struct cg *w, size_t *off)
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
put_header(struct cg *w, const struct pdb_opts *opts, const size_t *evname,
    const int64_t *total)
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

static int
cg_write(struct pdb *db, FILE *out, const struct pdb_opts *opts)
{
	const struct pdb_callgrind_opts *co = opts->writer_opts;
	struct cg w;
	struct edge *edges = NULL;
	uint32_t nn = pdb_node_count(db), ncc = pdb_cc_count(db);
	uint32_t *order = NULL, *bfid = NULL, *fid = NULL, *path = NULL;
	uint32_t *active = NULL, n, i, depth, f, root_fn, below = PDB_NONE;
	uint32_t lastfile = PDB_NONE;
	unsigned char *outer = NULL;
	int64_t *inc = NULL, *self = NULL, *acc = NULL;
	size_t *evname = NULL, pathcap = 0, ne = 0, k;
	uint64_t calls;
	int rc;

	memset(&w, 0, sizeof(w));
	if (nn == 0)
		return pdb_seterr(db, PDB_EINVAL, "nothing to write: empty "
		    "profile");
	w.db = db;
	w.out = out;
	w.nm = pdb_metric_count(db);
	w.context = co != NULL ? co->context : 0;
	if (w.context > PDB_CALLGRIND_MAX_CONTEXT) {
		rc = pdb_seterr(db, PDB_EINVAL, "callgrind context %u is "
		    "over %u", w.context, PDB_CALLGRIND_MAX_CONTEXT);
		goto done;
	}
	if ((rc = pick_metrics(&w, opts)) != PDB_OK)
		goto done;
	rc = PDB_ENOMEM;
	order = malloc(((size_t)nn + 1) * sizeof(*order));
	bfid = malloc(((size_t)ncc + 1) * sizeof(*bfid));
	fid = calloc((size_t)nn + 1, sizeof(*fid));
	outer = malloc((size_t)nn + 1);
	edges = malloc(((size_t)nn + 1) * sizeof(*edges));
	evname = malloc(((size_t)w.nev + 1) * sizeof(*evname));
	acc = calloc((size_t)w.nev + 1, sizeof(*acc));
	if (order == NULL || bfid == NULL || fid == NULL || outer == NULL ||
	    edges == NULL || evname == NULL || acc == NULL ||
	    (inc = pdb_inclusive_new(db)) == NULL)
		goto nomem;

	/* Functions. */
	i = 0;
	for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL))
		order[i++] = n;
	nn = i;
	for (i = 0; i < ncc; i++)
		bfid[i] = PDB_NONE;
	if (make_bases(&w, order, nn, bfid) != 0)
		goto nomem;
	if (w.context == 0) {
		for (i = 0; i < nn; i++)
			fid[order[i]] = bfid[pdb_node_cc(db, order[i])];
	} else if (make_variants(&w, order, nn, bfid, fid) != 0)
		goto nomem;
	root_fn = fid[order[0]];
	for (i = 1; i < nn && below == PDB_NONE; i++)
		if (fid[order[i]] == root_fn) {
			if (fn_new(&w, &below) != 0)
				goto nomem;
			w.fns[below].file = w.fns[root_fn].file;
			w.tlen = 0;
			if (tmp_put(&w, ROOT_CALLER, strlen(ROOT_CALLER)) ||
			    name_finish(&w, below) != 0)
				goto nomem;
		}
	if ((self = calloc((size_t)w.nfns * w.nev + 1, sizeof(*self))) ==
	    NULL || (active = calloc((size_t)w.nfns + 1, sizeof(*active))) ==
	    NULL || (w.fshown = calloc((size_t)w.nfiles + 1,
	    sizeof(*w.fshown))) == NULL)
		goto nomem;

	/*
	 * Self costs, and which nodes are the outermost occurrence of their
	 * function: path[d] is the function at depth d of the current path,
	 * active[f] how often f is on it.
	 */
	depth = 0;
	k = 0;
	for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth)) {
		while (k > depth)
			active[path[--k]]--;
		if (pdb_buf_reserve(&path, &pathcap,
		    ((size_t)depth + 1) * sizeof(*path)) != 0)
			goto nomem;
		f = fid[n];
		outer[n] = active[f] == 0;
		active[f]++;
		path[k++] = f;
		add_events(&w, self + (size_t)f * w.nev,
		    pdb_node_values(db, n));
		if (depth > 0) {
			edges[ne].from = fid[pdb_node_parent(db, n)];
			edges[ne].to = f;
			edges[ne].node = n;
			ne++;
		}
	}
	qsort(edges, ne, sizeof(*edges), edge_cmp);

	/* The header; the total is the root's inclusive cost. */
	if (event_names(&w, evname) != 0)
		goto nomem;
	add_events(&w, acc, inc + (size_t)order[0] * w.nm);
	put_header(&w, opts, evname, acc);

	if (below != PDB_NONE) {
		put_file(&w, "fl", w.fns[below].file);
		lastfile = w.fns[below].file;
		put_fn(&w, "fn", below);
		put_costs(&w, 0, self + (size_t)below * w.nev);
		put_file(&w, "cfl", w.fns[root_fn].file);
		put_fn(&w, "cfn", root_fn);
		calls = node_calls(&w, order[0]);
		fprintf(out, "calls=%" PRIu64 " %" PRIu64 "\n",
		    calls > 0 ? calls : 1, w.fns[root_fn].line);
		put_costs(&w, 0, acc);
		putc('\n', out);
	}
	for (f = 0, k = 0; f < w.nfns; f++) {
		if (f == below)
			continue;
		if (w.fns[f].file != lastfile) {
			put_file(&w, "fl", w.fns[f].file);
			lastfile = w.fns[f].file;
		}
		put_fn(&w, "fn", f);
		put_costs(&w, w.fns[f].line, self + (size_t)f * w.nev);
		while (k < ne && edges[k].from == f) {
			uint32_t to = edges[k].to;

			memset(acc, 0, w.nev * sizeof(*acc));
			calls = 0;
			for (; k < ne && edges[k].from == f &&
			    edges[k].to == to; k++) {
				n = edges[k].node;
				calls += node_calls(&w, n);
				if (outer[n])
					add_events(&w, acc,
					    inc + (size_t)n * w.nm);
			}
			put_file(&w, "cfl", w.fns[to].file);
			put_fn(&w, "cfn", to);
			fprintf(out, "calls=%" PRIu64 " %" PRIu64 "\n",
			    calls > 0 ? calls : 1, w.fns[to].line);
			put_costs(&w, w.fns[f].line, acc);
		}
		putc('\n', out);
	}
	memset(acc, 0, w.nev * sizeof(*acc));
	add_events(&w, acc, inc + (size_t)order[0] * w.nm);
	fputs("totals:", out);
	for (i = 0; i < w.nev; i++)
		fprintf(out, " %" PRId64, acc[i]);
	putc('\n', out);
	rc = ferror(out) ? pdb_seterr(db, PDB_EIO, "write error") : PDB_OK;
	goto done;
nomem:
	rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
done:
	free(order);
	free(bfid);
	free(fid);
	free(outer);
	free(edges);
	free(evname);
	free(acc);
	free(inc);
	free(self);
	free(active);
	free(path);
	free(w.ev);
	free(w.callm);
	free(w.arena);
	free(w.tmp);
	free(w.bases);
	free(w.fns);
	free(w.tup);
	free(w.files);
	free(w.fshown);
	htab_free(&w.names);
	htab_free(&w.tuples);
	htab_free(&w.fileset);
	return rc;
}
