/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Graphviz writer: the call graph of Morgan & Jarvis section 3 (Figs. 8,
 * 10-13), or the stack tree, built with cgraph and written as DOT text
 * (agwrite) or laid out by dot and rendered by gvc (SVG, PNG, PDF, ...).
 * Options in fmt_dot.h.
 *
 * The call graph.  Every cost centre on a stack of the graph's stack set
 * (fmt_dot.h) is a node, keyed by its index, so two cost centres with
 * one label stay two nodes.  Every pair of cost centres adjacent on one
 * of those stacks, caller below callee, is an arc, labelled with the
 * number of stacks of the set it occurs in and their total own cost.
 * Both count a stack once even if the arc occurs on it twice (an
 * uncompressed .pgcl path can repeat it): an occurrence counts only when
 * it is the outermost one on its path, the rule that gives each cost
 * centre its inherited cost, so an arc never costs more than its callee
 * (or its caller) inherits.  A count metric (entries) is not inherited:
 * nodes show it as it is, and an arc the callee's count in that caller.
 *
 * A stack here is a node of the profile's tree; a folded file's tree has
 * every prefix of its lines as a stack (of cost 0 unless a line gives
 * it one), which for the paper's Fig. 7 gives exactly its 20 stacks.
 *
 * Size.  Graphviz's layout time explodes past a few hundred nodes, and
 * creating cgraph objects costs far more than counting, so everything is
 * aggregated first in arrays and one hash table of arcs; the nodes to
 * draw are chosen (thresholds, then the nodecount most expensive) and
 * only then does cgraph see anything: it never gets an object that is
 * not drawn.  The call graph is aggregated from events in pre-order
 * (agg_enter(), agg_exit()), which a tree replays, or a reader gives
 * without any tree (pdb_dot_sink()) when neither the expensive arm nor
 * the top stacks are asked for; the tree drawing takes two linear
 * passes over the tree, without recursion.
 *
 * Quoting.  cgraph quotes what it writes, but two layers remain ours.
 * Graphviz reads a label's backslash escapes (\N, \l, \n, ...) and HTML
 * entities (&lt;), so names are escaped for both: '\' becomes "\\" and
 * '&' "&amp;".  Control characters and bytes that are not UTF-8 are shown
 * as C escapes ("\n", "\xFF"), so every label is valid UTF-8 and SVG
 * stays well-formed XML.  And cgraph 2.43 writes a value that ends in a
 * backslash as "...\", which DOT reads as an escaped quote: such a value
 * gets a trailing space.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynlib.h"
#include "fmt_dot.h"
#include "formats_int.h"

#define FONT		"Helvetica,Arial,sans-serif"
#define NOARC		UINT32_MAX
#define LABEL_MAX	500	/* bytes of a name shown in a label */

/* A growable string; oom is set when an append fails. */
struct sbuf {
	char		*s;
	size_t		 len, cap;
	int		 oom;
};

struct arc {
	uint32_t	 from, to;	/* cost centres: caller, callee */
	uint32_t	 next;		/* hash chain */
	uint32_t	 active;	/* occurrences on the current path */
	uint64_t	 nstacks;	/* stacks of the set it occurs in */
	int64_t		 cost;		/* their own cost (counts: see top) */
	uint64_t	 first;		/* place in pre-order of its first
					   node with a stack of the set below
					   it; NOPLACE: none, not drawn */
	unsigned char	 hot;		/* on the expensive arm */
};

#define NOPLACE		UINT64_MAX

/*
 * The focus patterns, as de-selections in a pdb_sel, which hashes
 * literal names, so that thousands of names cost a lookup a cost
 * centre, not a fnmatch() each; and the literal ones sorted, to tell
 * which matched (found).
 */
struct focus {
	struct pdb_sel		*sel;
	const char		**lits;
	unsigned char		*found;
	size_t			 nlits;
};

/* An open node of the call graph's events. */
struct level {
	uint32_t	 cc;
	uint32_t	 arc;		/* the arc into it, or NOARC */
	uint32_t	 nfocus;	/* focus cost centres down to it */
	int		 syn;		/* cc is synthetic */
	int		 outer_cc;	/* the outermost occurrence of cc */
	int		 outer_arc;	/* the outermost occurrence of arc */
	uint64_t	 place;		/* in pre-order */
	int64_t		 inc;		/* its inclusive value, so far */
	uint64_t	 isub;		/* set stacks in its subtree, so far */
	int64_t		 icost;		/* their own cost */
};

struct dot {
	struct pdb		*db;
	const struct pdb_dot_opts *o;
	unsigned		 m, nm;		/* metric, metric count */
	int			 count;		/* m is a count metric */
	int64_t			 total;
	uint32_t		 nn, ncc;
	int64_t			*inc;		/* pdb_inclusive_of() m */
	uint32_t		*order;		/* nodes in pre-order */
	uint32_t		*depth;		/* depth of order[i] */
	uint32_t		 maxdepth;
	unsigned char		*incl;		/* node: stack in the set */
	uint64_t		*isub;		/* set stacks in the subtree */
	int64_t			*icost;		/* their own cost */
	uint64_t		 nset;		/* stacks in the set */
	uint64_t		 nreal;		/* stacks but synthetic ones */
	int64_t			 unshown;	/* own cost of synthetic ones */
	size_t			 residual;	/* dashed arcs drawn */
	unsigned char		*armn;		/* node on the expensive arm */
	uint32_t		*arm;
	size_t			 narm;
	/* Per cost centre. */
	int64_t			*self, *inh;
	unsigned char		*present;	/* on a stack of the set */
	uint32_t		*hotcc;		/* on the expensive arm: its
						   first place there + 1 */
	unsigned char		*focuscc;	/* matches a focus pattern */
	struct focus		*focus;		/* the patterns, or NULL */
	unsigned char		*shared;	/* another has its name */
	/* Arcs, in a chained hash table. */
	struct arc		*arcs;
	size_t			 narcs, arccap;
	uint32_t		*bucket;
	size_t			 nbucket;	/* a power of two */
	/* The call graph from events (agg_enter(), agg_exit()). */
	struct level		*lv;
	size_t			 nlv, caplv, maxlv;
	uint32_t		*onpath;	/* per cost centre */
	size_t			 capcc;		/* room of the per-cc arrays */
	uint64_t		 nodes;
	uint64_t		 magnitude;	/* sum of |own| */
	int			 overflow;	/* it left 64 bits */
	int			 check;		/* a reader's values */
	uint64_t		*range;		/* pdb_sums_add()'s */
	int64_t			*zeros;
};

/*
 * A node that may be drawn.  Forced ones come first, whatever the
 * thresholds: the expensive arm's, from the root down, so that however
 * few nodes are drawn the arm stays whole from the root, then those of
 * the focus.
 */
enum { PICK_FREE, PICK_FOCUS, PICK_ARM };

struct pick {
	uint32_t	 id;		/* cost centre or tree node */
	uint32_t	 forced;	/* PICK_* */
	uint64_t	 tie;		/* smaller first among equal weights;
					   an arm's: its place on the arm */
	double		 w;		/* |weight| */
};

/* Graphviz reports through a global callback; collect its messages. */
static struct sbuf gv_msgs;

static int	 dot_write(struct pdb *, FILE *, const struct pdb_opts *);

const struct pdb_format pdb_fmt_dot = {
	.abi = PDB_FORMAT_ABI,
	.name = "dot",
	.desc = "Graphviz call graph (DOT, or SVG/PNG/PDF through gvc)",
	/*
	 * Only the DOT extensions: without writer options this module
	 * writes DOT text, which must not land in a file called x.svg.
	 * ccs2dot picks -T from .svg, .png or .pdf itself.
	 */
	.exts = ".dot,.gv",
	.flags = PDB_FMT_WRITE,
	.build = PDB_BUILD_RAW,
	.write = dot_write,
	.ready = pdb_load_graphviz,
};

/* ---- strings ---- */

static void
sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (pdb_buf_reserve(&b->s, &b->cap, b->len + n + 1) != 0) {
		b->oom = 1;
		return;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void
sb_printf(struct sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
sb_printf(struct sbuf *b, const char *fmt, ...)
{
	char tmp[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		sb_add(b, tmp, (size_t)n);
		return;
	}
	/* Longer than tmp: format again into the buffer itself. */
	if (b->oom || pdb_buf_reserve(&b->s, &b->cap, b->len + (size_t)n + 1)) {
		b->oom = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* Append v with its digits in groups of three, "1,234,567", as the
 * HTML viewer shows them: a label is read, not parsed. */
static void
sb_int(struct sbuf *b, int64_t v)
{
	char digits[24], out[32];
	size_t n, i, o = 0;

	n = (size_t)snprintf(digits, sizeof(digits), "%" PRId64, v);
	i = digits[0] == '-';
	if (i)
		out[o++] = '-';
	for (; i < n; i++) {
		out[o++] = digits[i];
		if (i + 1 < n && (n - i - 1) % 3 == 0)
			out[o++] = ',';
	}
	sb_add(b, out, o);
}

/* Append "n things", n grouped, one or many as n says. */
static void
sb_count(struct sbuf *b, uint64_t n, const char *one, const char *many)
{
	sb_int(b, (int64_t)n);
	sb_add(b, " ", 1);
	sb_add(b, n == 1 ? one : many, strlen(n == 1 ? one : many));
}

/*
 * Append text s as it should appear in a Graphviz label (see the top
 * comment): the result shows s, never a Graphviz escape or entity.
 */
static void
sb_label(struct sbuf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + strlen(s);
	uint32_t c;
	size_t n;

	while (*p != '\0') {
		/*
		 * Graphviz's scanner takes quoted strings of at most 16384
		 * bytes, and a longer name is no use in a picture anyway.
		 */
		if (p - (const unsigned char *)s >= LABEL_MAX) {
			sb_add(b, "\xe2\x80\xa6", 3);	/* an ellipsis */
			break;
		}
		if (*p == '\\') {
			sb_add(b, "\\\\", 2);
			p++;
		} else if (*p == '&') {
			sb_add(b, "&amp;", 5);
			p++;
		} else if (*p == '\n') {
			sb_add(b, "\\\\n", 3);
			p++;
		} else if (*p == '\t') {
			sb_add(b, "\\\\t", 3);
			p++;
		} else if (*p == '\r') {
			sb_add(b, "\\\\r", 3);
			p++;
		} else if (*p < 0x20 || *p == 0x7f ||
		    (n = pdb_utf8_seq(p, (size_t)(end - p), &c)) == 0) {
			sb_printf(b, "\\\\x%02X", *p);
			p++;
		} else {
			sb_add(b, (const char *)p, n);
			p += n;
		}
	}
}

/* A line break inside a label: centred, or left-justified. */
#define sb_nl(b)	sb_add((b), "\\n", 2)
#define sb_nl_left(b)	sb_add((b), "\\l", 2)

/* Set attribute name of obj to value (see the top comment on '\'). */
static void
set(void *obj, const char *name, const char *value)
{
	size_t n = strlen(value);
	char *tmp;

	if (n > 0 && value[n - 1] == '\\' && (tmp = malloc(n + 2)) != NULL) {
		memcpy(tmp, value, n);
		memcpy(tmp + n, " ", 2);
		pdbi_sym_agsafeset(obj, (char *)name, tmp, "");
		free(tmp);
		return;
	}
	pdbi_sym_agsafeset(obj, (char *)name, (char *)value, "");
}

static int
gv_collect(char *msg)
{
	sb_add(&gv_msgs, msg, strlen(msg));
	return 0;
}

/*
 * Graphviz's messages as one line: "Error: x\n" pieces become "x; y".
 * Borrowed from gv_msgs; "" when there are none.
 */
static const char *
gv_message(void)
{
	char *s, *d, *line, *next;

	if (gv_msgs.s == NULL || gv_msgs.oom)
		return "";
	d = s = gv_msgs.s;
	for (line = s; *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (strncmp(line, "Error: ", 7) == 0)
			line += 7;
		else if (strncmp(line, "Warning: ", 9) == 0)
			line += 9;
		if (*line == '\0')
			continue;
		if (d != s) {
			*d++ = ';';
			*d++ = ' ';
		}
		memmove(d, line, strlen(line));
		d += strlen(line);
	}
	*d = '\0';
	return s;
}

/* ---- numbers and colours ---- */

static double
frac(int64_t v, int64_t total)
{
	double f;

	if (total == 0)
		return 0;
	f = fabs((double)v) / fabs((double)total);
	return f > 1 ? 1 : f;
}

static double
pct(int64_t v, int64_t total)
{
	return total == 0 || v == 0 ? 0 : 100.0 * (double)v / (double)total;
}

/* Whether |v| reaches p percent of |total|. */
static int
reaches(double v, int64_t total, double p)
{
	return fabs(v) * 100.0 >= p * fabs((double)total);
}

static double
hue2rgb(double p, double q, double t)
{
	if (t < 0)
		t += 1;
	if (t > 1)
		t -= 1;
	if (t < 1.0 / 6)
		return p + (q - p) * 6 * t;
	if (t < 0.5)
		return q;
	if (t < 2.0 / 3)
		return p + (q - p) * (2.0 / 3 - t) * 6;
	return p;
}

/*
 * The heat colour of fraction f as "#rrggbb": dark blue at 0, through
 * cyan, green and yellow, to red at 1 (gprof2dot's temperature scale).
 * dark scales the lightness, for borders and arc labels.
 */
static void
heat(double f, double dark, char buf[8])
{
	double h, s, l, q, p;

	f = f < 0 ? 0 : f > 1 ? 1 : f;
	h = 2.0 / 3 * (1 - f);
	s = 0.8 + 0.2 * f;
	l = (0.25 + 0.25 * f) * dark;
	q = l < 0.5 ? l * (1 + s) : l + s - l * s;
	p = 2 * l - q;
	/* Each part is in [0, 1]: rounded by adding a half. */
	snprintf(buf, 8, "#%02x%02x%02x",
	    (unsigned)(255 * hue2rgb(p, q, h + 1.0 / 3) + 0.5),
	    (unsigned)(255 * hue2rgb(p, q, h) + 0.5),
	    (unsigned)(255 * hue2rgb(p, q, h - 1.0 / 3) + 0.5));
}

/* ---- aggregation ---- */

static uint64_t
arc_hash(uint32_t from, uint32_t to)
{
	uint64_t h = ((uint64_t)from << 32 | to) * 0x9e3779b97f4a7c15ull;

	return h ^ (h >> 29);
}

static uint32_t
arc_find(const struct dot *d, uint32_t from, uint32_t to)
{
	uint32_t a;

	if (d->nbucket == 0)
		return NOARC;
	a = d->bucket[arc_hash(from, to) & (d->nbucket - 1)];
	for (; a != NOARC; a = d->arcs[a].next)
		if (d->arcs[a].from == from && d->arcs[a].to == to)
			return a;
	return NOARC;
}

/* The arc from -> to, made if missing; NOARC when out of memory. */
static uint32_t
arc_get(struct dot *d, uint32_t from, uint32_t to)
{
	struct arc *a;
	uint32_t i, *nb;
	size_t k, nbk, h;

	if ((i = arc_find(d, from, to)) != NOARC)
		return i;
	if (d->narcs >= NOARC - 1 || pdb_buf_reserve(&d->arcs, &d->arccap,
	    (d->narcs + 1) * sizeof(*d->arcs)) != 0)
		return NOARC;
	if (d->narcs + 1 > d->nbucket) {
		nbk = d->nbucket ? d->nbucket * 2 : 1024;
		if ((nb = malloc(nbk * sizeof(*nb))) == NULL)
			return NOARC;
		for (k = 0; k < nbk; k++)
			nb[k] = NOARC;
		for (k = 0; k < d->narcs; k++) {
			h = arc_hash(d->arcs[k].from, d->arcs[k].to) &
			    (nbk - 1);
			d->arcs[k].next = nb[h];
			nb[h] = (uint32_t)k;
		}
		free(d->bucket);
		d->bucket = nb;
		d->nbucket = nbk;
	}
	i = (uint32_t)d->narcs++;
	a = &d->arcs[i];
	memset(a, 0, sizeof(*a));
	a->from = from;
	a->to = to;
	a->first = NOPLACE;
	h = arc_hash(from, to) & (d->nbucket - 1);
	a->next = d->bucket[h];
	d->bucket[h] = i;
	return i;
}

static int
synthetic(const struct dot *d, uint32_t cc)
{
	return (pdb_cc_flags(d->db, cc) & PDB_CC_SYNTHETIC) != 0;
}

static int64_t
own(const struct dot *d, uint32_t n)
{
	return pdb_node_value(d->db, n, d->m);
}

/* strcmp() of two patterns, for qsort() and bsearch(). */
static int
cmp_pattern(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
is_glob(const char *pattern)
{
	return strpbrk(pattern, "*?[\\") != NULL;
}

static void
focus_free(struct focus *f)
{
	if (f == NULL)
		return;
	pdb_sel_free(f->sel);
	free(f->lits);
	free(f->found);
	free(f);
}

/* The focus patterns of o, or NULL when out of memory. */
static struct focus *
focus_new(const struct pdb_dot_opts *o)
{
	struct focus *f;
	size_t k;

	if ((f = calloc(1, sizeof(*f))) == NULL ||
	    (f->sel = pdb_sel_new()) == NULL ||
	    (f->lits = calloc(o->nfocus + 1, sizeof(*f->lits))) == NULL ||
	    (f->found = calloc(o->nfocus + 1, 1)) == NULL) {
		focus_free(f);
		return NULL;
	}
	for (k = 0; k < o->nfocus; k++) {
		if (pdb_sel_add(f->sel, 0, o->focus[k]) != PDB_OK) {
			focus_free(f);
			return NULL;
		}
		if (!is_glob(o->focus[k]))
			f->lits[f->nlits++] = o->focus[k];
	}
	qsort(f->lits, f->nlits, sizeof(*f->lits), cmp_pattern);
	return f;
}

/* Mark as matched the literal patterns equal to name. */
static void
lits_found(struct focus *f, const char *name)
{
	const char **hit;
	size_t i, j;

	if (f->nlits == 0 || (hit = bsearch(&name, f->lits, f->nlits,
	    sizeof(*f->lits), cmp_pattern)) == NULL)
		return;
	for (i = j = (size_t)(hit - f->lits); i > 0 &&
	    strcmp(f->lits[i - 1], name) == 0; i--)
		;
	for (; j < f->nlits && strcmp(f->lits[j], name) == 0; j++)
		;
	memset(f->found + i, 1, j - i);
}

/*
 * Whether cost centre cc matches a focus pattern, with the literal ones
 * it matches marked found; -1 when out of memory.  The root's cost
 * centre, which a selection always keeps, is matched apart.
 */
static int
is_focus(struct dot *d, uint32_t cc)
{
	size_t k;
	int hit = 0;

	if (d->o->nfocus == 0 || synthetic(d, cc))
		return 0;
	if (d->focus == NULL && (d->focus = focus_new(d->o)) == NULL)
		return -1;
	if (pdb_node_count(d->db) > 0 && pdb_node_cc(d->db, 0) == cc) {
		for (k = 0; k < d->o->nfocus && !hit; k++)
			hit = pdb_cc_glob(d->db, cc, d->o->focus[k]);
	} else
		hit = !pdb_sel_match(d->focus->sel, d->db, cc);
	if (hit) {
		lits_found(d->focus, pdb_cc_label(d->db, cc));
		lits_found(d->focus, pdb_cc_fullname(d->db, cc));
	}
	return hit;
}

/*
 * Every focus pattern matches some cost centre, once is_focus() has
 * seen them all: a literal one was found, a glob matches one of the
 * focus cost centres.  The first that does not, in the order given, is
 * the error.
 */
static int
focus_check(struct dot *d)
{
	const struct focus *f = d->focus;
	const char *const *pat = d->o->focus;
	const char **hit;
	uint32_t cc;
	size_t k;
	int any;

	for (k = 0; k < d->o->nfocus; k++) {
		if (f != NULL && !is_glob(pat[k])) {
			hit = bsearch(&pat[k], f->lits, f->nlits,
			    sizeof(*f->lits), cmp_pattern);
			any = hit != NULL && f->found[hit - f->lits];
		} else
			for (any = 0, cc = 0; cc < d->ncc && !any; cc++)
				any = d->focuscc[cc] &&
				    pdb_cc_glob(d->db, cc, pat[k]);
		if (!any)
			return pdb_seterr(d->db, PDB_EINVAL,
			    "no cost centre matches focus '%s'", pat[k]);
	}
	return PDB_OK;
}

/* A byte a node: among the top stacks of --top.  *mask is NULL without
 * --top. */
static int
top_mask(struct dot *d, unsigned char **mask)
{
	uint32_t nn = pdb_node_count(d->db), *top;
	size_t k, nt;

	*mask = NULL;
	if (d->o->top == 0)
		return PDB_OK;
	nt = d->o->top < nn ? d->o->top : nn;
	top = malloc((nt + 1) * sizeof(*top));
	*mask = calloc((size_t)nn + 1, 1);
	if (top == NULL || *mask == NULL) {
		free(top);
		free(*mask);
		*mask = NULL;
		return pdb_seterr(d->db, PDB_ENOMEM, "out of memory");
	}
	nt = pdb_top_stacks(d->db, d->m, top, nt);
	for (k = 0; k < nt; k++)
		(*mask)[top[k]] = 1;
	free(top);
	return PDB_OK;
}

/*
 * The expensive arm of metric m's inclusive values inc (a path: at most
 * maxlen nodes), and its cost centres marked hot.
 */
static int
find_arm(struct dot *d, const int64_t *inc, size_t maxlen)
{
	uint32_t cc;
	size_t k;

	if ((d->arm = malloc(maxlen * sizeof(*d->arm))) == NULL)
		return pdb_seterr(d->db, PDB_ENOMEM, "out of memory");
	d->narm = pdb_expensive_arm_of(d->db, inc, d->arm, maxlen);
	if (d->narm > maxlen)
		d->narm = maxlen;
	for (k = 0; k < d->narm; k++) {
		cc = pdb_node_cc(d->db, d->arm[k]);
		if (!synthetic(d, cc) && d->hotcc[cc] == 0)
			d->hotcc[cc] = (uint32_t)k + 1;
	}
	return PDB_OK;
}

/*
 * What the tree drawing needs: inclusive values, the pre-order, the
 * stack set and, per node, how many stacks of the set its subtree holds
 * and what they cost; the expensive arm.
 */
static int
prepare(struct dot *d)
{
	struct pdb *db = d->db;
	const struct pdb_dot_opts *o = d->o;
	uint32_t n, dep, cc, p, *fcount = NULL;
	unsigned char *topmask = NULL;
	size_t i, k;
	uint64_t sum = 0, a;
	int64_t v;
	int focus;

	d->nn = pdb_node_count(db);
	d->ncc = pdb_cc_count(db);
	d->inc = pdb_inclusive_of(db, d->m);
	d->order = malloc((size_t)d->nn * sizeof(*d->order));
	d->depth = malloc((size_t)d->nn * sizeof(*d->depth));
	d->incl = calloc(d->nn, 1);
	d->isub = calloc(d->nn, sizeof(*d->isub));
	d->icost = calloc(d->nn, sizeof(*d->icost));
	d->armn = calloc(d->nn, 1);
	d->focuscc = calloc(d->ncc + 1, 1);
	d->hotcc = calloc(d->ncc + 1, sizeof(*d->hotcc));
	if (d->inc == NULL || d->order == NULL || d->depth == NULL ||
	    d->incl == NULL || d->isub == NULL || d->icost == NULL ||
	    d->armn == NULL || d->focuscc == NULL ||
	    d->hotcc == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	d->total = d->inc[0];
	/* Every sum below adds up own costs of some nodes: if the absolute
	 * values of all of them fit in 64 bits, so does each sum. */
	for (n = 0; n < d->nn; n++) {
		v = own(d, n);
		a = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
		if (a > (uint64_t)INT64_MAX - sum)
			return pdb_seterr(db, PDB_EFORMAT, "the total of '%s' "
			    "overflows 64 bits", pdb_metric(db, d->m)->name);
		sum += a;
	}

	i = 0;
	d->maxdepth = 0;
	for (n = pdb_walk_first(db, &dep); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &dep)) {
		d->order[i] = n;
		d->depth[i++] = dep;
		if (dep > d->maxdepth)
			d->maxdepth = dep;
	}

	for (cc = 0; cc < d->ncc; cc++) {
		if ((focus = is_focus(d, cc)) < 0)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		d->focuscc[cc] = (unsigned char)focus;
	}
	if (focus_check(d) != PDB_OK || top_mask(d, &topmask) != PDB_OK)
		return pdb_errcode(db);
	/* fcount[dep]: focus cost centres on the path down to depth dep. */
	if (o->nfocus > 0 && (fcount = malloc(((size_t)d->maxdepth + 1) *
	    sizeof(*fcount))) == NULL) {
		free(topmask);
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	}
	for (i = 0; i < d->nn; i++) {
		n = d->order[i];
		dep = d->depth[i];
		cc = pdb_node_cc(db, n);
		if (fcount != NULL)
			fcount[dep] = (dep > 0 ? fcount[dep - 1] : 0) +
			    d->focuscc[cc];
		d->nreal += !synthetic(d, cc);
		if (synthetic(d, cc))
			d->unshown += own(d, n);
		d->incl[n] = !synthetic(d, cc) &&
		    (!(o->flags & PDB_DOT_NONZERO) || own(d, n) != 0) &&
		    (fcount == NULL || fcount[dep] > 0) &&
		    (topmask == NULL || topmask[n]);
	}
	free(fcount);
	free(topmask);

	/* Children come after their parent in pre-order: sum backwards. */
	for (i = d->nn; i-- > 0;) {
		n = d->order[i];
		if (d->incl[n]) {
			d->isub[n]++;
			d->icost[n] += own(d, n);
		}
		if ((p = pdb_node_parent(db, n)) != PDB_NONE) {
			d->isub[p] += d->isub[n];
			d->icost[p] += d->icost[n];
		}
	}
	d->nset = d->nn > 0 ? d->isub[d->order[0]] : 0;

	if (o->flags & (PDB_DOT_HOT | PDB_DOT_HOT_ONLY)) {
		if (find_arm(d, d->inc, (size_t)d->maxdepth + 1) != PDB_OK)
			return PDB_ENOMEM;
		for (k = 0; k < d->narm; k++)
			d->armn[d->arm[k]] = 1;
	}
	return PDB_OK;
}

/*
 * The call graph's numbers, from events in pre-order: self and inherited
 * per cost centre, and the arcs with their stack counts and costs.  A
 * node's inclusive value, and the stacks of the set in its subtree and
 * their cost, are summed as its subtree closes; they go to its cost
 * centre and to the arc into it where the node is the outermost
 * occurrence of either on its stack.  Arcs are made as pairs of cost
 * centres first meet, and kept at the end if some node of theirs has a
 * stack of the set below it, in the pre-order of the first such node.
 * From a tree (agg_tree()) or from a reader (pdb_dot_sink()) alike.
 */

/* Grow the array *p of n elements of size sz to m, zeroing the new. */
static int
grow_zeroed(void *p, size_t sz, size_t n, size_t m)
{
	size_t cap = n * sz;

	if (pdb_buf_reserve(p, &cap, m * sz) != 0)
		return -1;
	memset(*(char **)p + n * sz, 0, (m - n) * sz);
	return 0;
}

/* Room in the per-cost-centre arrays for every cost centre of db, and
 * whether each new one is a focus. */
static int
cc_reserve(struct dot *d, struct pdb *db)
{
	size_t n = d->capcc, m = (size_t)pdb_cc_count(db) + 1;
	int focus;

	if (m > n) {
		m = m > 2 * n ? m : 2 * n;
		if (grow_zeroed(&d->self, sizeof(*d->self), n, m) != 0 ||
		    grow_zeroed(&d->inh, sizeof(*d->inh), n, m) != 0 ||
		    grow_zeroed(&d->onpath, sizeof(*d->onpath), n, m) != 0 ||
		    grow_zeroed(&d->present, 1, n, m) != 0 ||
		    grow_zeroed(&d->hotcc, sizeof(*d->hotcc), n, m) != 0 ||
		    grow_zeroed(&d->focuscc, 1, n, m) != 0)
			return PDB_ENOMEM;
		d->capcc = m;
	}
	for (; d->ncc < pdb_cc_count(db); d->ncc++) {
		if ((focus = is_focus(d, d->ncc)) < 0)
			return PDB_ENOMEM;
		d->focuscc[d->ncc] = (unsigned char)focus;
	}
	return PDB_OK;
}

static int
agg_enter(struct dot *d, struct pdb *db, uint32_t cc, const int64_t *values,
    int allowed)
{
	struct level *l, *p;
	uint64_t mag;
	int64_t v;
	int syn, in, rc;

	/* Cost centres are looked at as they first come (cc_reserve()). */
	if (cc >= d->ncc && cc_reserve(d, db) != PDB_OK)
		goto nomem;
	if (cc >= d->ncc)
		return pdb_seterr(db, PDB_EINVAL, "cost centre %u out of range",
		    (unsigned)cc);
	if (d->nlv == 0 && d->nodes > 0)
		return pdb_seterr(db, PDB_EFORMAT,
		    "profile has more than one root");
	if (values == NULL)
		values = d->zeros;
	if (d->check && (rc = pdb_sums_add(db, d->range, cc, values)) !=
	    PDB_OK)
		return rc;
	if ((d->nlv + 1) * sizeof(*d->lv) > d->caplv &&
	    pdb_buf_reserve(&d->lv, &d->caplv, (d->nlv + 1) * sizeof(*d->lv)))
		goto nomem;
	/* Every sum drawn adds up own values: if their magnitudes fit in
	 * 64 bits, so does each sum. */
	v = values[d->m];
	mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	if (mag > (uint64_t)INT64_MAX - d->magnitude)
		d->overflow = 1;
	else
		d->magnitude += mag;
	syn = synthetic(d, cc);
	d->total = (int64_t)((uint64_t)d->total + (uint64_t)v);
	d->nreal += !syn;
	if (!syn)
		d->self[cc] += v;
	else
		d->unshown += v;
	p = d->nlv > 0 ? &d->lv[d->nlv - 1] : NULL;
	l = &d->lv[d->nlv];
	l->cc = cc;
	l->syn = syn;
	l->place = d->nodes;
	l->nfocus = (p != NULL ? p->nfocus : 0) + d->focuscc[cc];
	in = allowed && !syn && (!(d->o->flags & PDB_DOT_NONZERO) ||
	    v != 0) && (d->o->nfocus == 0 || l->nfocus > 0);
	l->inc = v;
	l->isub = (uint64_t)in;
	l->icost = in ? v : 0;
	l->outer_cc = d->onpath[cc]++ == 0;
	l->arc = NOARC;
	l->outer_arc = 0;
	if (p != NULL && !syn && !p->syn) {
		struct arc *a;

		if ((l->arc = arc_get(d, p->cc, cc)) == NOARC)
			goto nomem;
		a = &d->arcs[l->arc];
		l->outer_arc = a->active++ == 0;
		if (d->count && in) {
			a->cost += v;
			if (l->place < a->first)
				a->first = l->place;
		}
	}
	if (++d->nlv > d->maxlv)
		d->maxlv = d->nlv;
	d->nodes++;
	return PDB_OK;
nomem:
	return pdb_seterr(db, PDB_ENOMEM, "out of memory");
}

static int
agg_exit(struct dot *d, struct pdb *db)
{
	struct level *l, *p;
	struct arc *a;

	if (d->nlv == 0)
		return pdb_seterr(db, PDB_EINVAL, "exit without enter");
	l = &d->lv[--d->nlv];
	d->onpath[l->cc]--;
	if (!l->syn) {
		if (l->outer_cc)
			d->inh[l->cc] += l->inc;
		if (l->isub > 0)
			d->present[l->cc] = 1;
	}
	if (l->arc != NOARC) {
		a = &d->arcs[l->arc];
		a->active--;
		if (l->outer_arc && l->isub > 0) {
			a->nstacks += l->isub;
			if (!d->count)
				a->cost += l->icost;
			if (l->place < a->first)
				a->first = l->place;
		}
	}
	if (d->nlv == 0) {
		d->nset = l->isub;
		return PDB_OK;
	}
	p = &d->lv[d->nlv - 1];
	p->inc = (int64_t)((uint64_t)p->inc + (uint64_t)l->inc);
	p->isub += l->isub;
	p->icost += l->icost;
	return PDB_OK;
}

static int
arc_place_cmp(const void *x, const void *y)
{
	const struct arc *a = x, *b = y;

	return (a->first > b->first) - (a->first < b->first);
}

/*
 * The events are over: the checks the tree's numbers need, and the arcs
 * drawn, in pre-order of their first node with a stack of the set below
 * it, in a new hash table.
 */
static int
agg_end(struct dot *d)
{
	struct arc *kept;
	size_t k, n = 0;
	uint32_t a;

	if (d->overflow)
		return pdb_seterr(d->db, PDB_EFORMAT, "the total of '%s' "
		    "overflows 64 bits", pdb_metric(d->db, d->m)->name);
	if (cc_reserve(d, d->db) != PDB_OK)
		return pdb_seterr(d->db, PDB_ENOMEM, "out of memory");
	if (focus_check(d) != PDB_OK)
		return pdb_errcode(d->db);
	if ((kept = malloc((d->narcs + 1) * sizeof(*kept))) == NULL)
		return pdb_seterr(d->db, PDB_ENOMEM, "out of memory");
	for (k = 0; k < d->narcs; k++)
		if (d->arcs[k].first != NOPLACE)
			kept[n++] = d->arcs[k];
	qsort(kept, n, sizeof(*kept), arc_place_cmp);
	d->narcs = 0;
	for (k = 0; k < d->nbucket; k++)
		d->bucket[k] = NOARC;
	for (k = 0; k < n; k++) {
		a = arc_get(d, kept[k].from, kept[k].to);
		d->arcs[a].nstacks = kept[k].nstacks;
		d->arcs[a].cost = kept[k].cost;
		d->arcs[a].first = kept[k].first;
	}
	free(kept);
	return PDB_OK;
}

/*
 * The call graph of the tree: its events, each node allowed in the set
 * if among the top stacks (--top); then the expensive arm (--hot).
 */
static int
agg_tree(struct dot *d)
{
	struct pdb *db = d->db;
	const struct pdb_dot_opts *o = d->o;
	unsigned char *topmask = NULL;
	uint32_t n, depth = 0, a;
	int64_t *inc = NULL;
	size_t k;
	int rc = PDB_OK;

	d->nn = pdb_node_count(db);
	if (top_mask(d, &topmask) != PDB_OK)
		return pdb_errcode(db);
	for (n = pdb_walk_first(db, &depth); n != PDB_NONE && rc == PDB_OK;
	    n = pdb_walk_next(db, n, &depth)) {
		while (d->nlv > depth && rc == PDB_OK)
			rc = agg_exit(d, db);
		if (rc == PDB_OK)
			rc = agg_enter(d, db, pdb_node_cc(db, n),
			    pdb_node_values(db, n), topmask == NULL ||
			    topmask[n]);
	}
	while (d->nlv > 0 && rc == PDB_OK)
		rc = agg_exit(d, db);
	if (rc == PDB_OK)
		rc = agg_end(d);
	if (rc != PDB_OK || !(o->flags & (PDB_DOT_HOT | PDB_DOT_HOT_ONLY)))
		goto out;
	/* The arm, and the arcs between its consecutive nodes. */
	if ((inc = pdb_inclusive_of(db, d->m)) == NULL)
		goto nomem;
	if ((rc = find_arm(d, inc, d->maxlv + 1)) != PDB_OK)
		goto out;
	for (k = 1; k < d->narm; k++)
		if ((a = arc_find(d, pdb_node_cc(db, d->arm[k - 1]),
		    pdb_node_cc(db, d->arm[k]))) != NOARC)
			d->arcs[a].hot = 1;
	goto out;
nomem:
	rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
out:
	free(topmask);
	free(inc);
	return rc;
}

/* ---- choosing what to draw ---- */

static int
pick_cmp(const void *va, const void *vb)
{
	const struct pick *a = va, *b = vb;

	if (a->forced != b->forced)
		return a->forced > b->forced ? -1 : 1;
	if (a->forced != PICK_ARM && a->w != b->w)
		return a->w > b->w ? -1 : 1;
	return a->tie < b->tie ? -1 : a->tie > b->tie;
}

/* Keep the nodecount best of picks[0..n) (forced first, pick_cmp());
 * return how many. */
static size_t
pick_best(const struct dot *d, struct pick *picks, size_t n)
{
	if (d->o->nodecount == 0 || n <= d->o->nodecount)
		return n;
	qsort(picks, n, sizeof(*picks), pick_cmp);
	return d->o->nodecount;
}

/* ---- building the cgraph graph ---- */

static Agraph_t *
graph_open(const char *name)
{
	Agraph_t *g, *box;

	if ((g = pdbi_sym_agopen((char *)name, *pdbi_sym_Agdirected,
	    NULL)) == NULL)
		return NULL;
	pdbi_sym_agattr(g, AGRAPH, "rankdir", "TB");
	pdbi_sym_agattr(g, AGRAPH, "fontname", FONT);
	pdbi_sym_agattr(g, AGRAPH, "nodesep", "0.3");
	pdbi_sym_agattr(g, AGRAPH, "ranksep", "0.4");
	pdbi_sym_agattr(g, AGRAPH, "charset", "UTF-8");
	pdbi_sym_agattr(g, AGNODE, "shape", "box");
	pdbi_sym_agattr(g, AGNODE, "style", "filled,rounded");
	pdbi_sym_agattr(g, AGNODE, "fontname", FONT);
	pdbi_sym_agattr(g, AGNODE, "fontsize", "10");
	pdbi_sym_agattr(g, AGNODE, "fontcolor", "white");
	pdbi_sym_agattr(g, AGNODE, "label", "");
	pdbi_sym_agattr(g, AGEDGE, "fontname", FONT);
	pdbi_sym_agattr(g, AGEDGE, "fontsize", "9");
	pdbi_sym_agattr(g, AGEDGE, "label", "");
	/*
	 * The legend (legend()) in a cluster of its own, drawn without a
	 * border: dot routes arcs around a cluster, where it ran those
	 * leaving the root under a legend taller than the root beside it.
	 * Made first, so that it comes first in the graph laid out here
	 * as in the DOT text, where subgraphs are written first.
	 */
	if ((box = pdbi_sym_agsubg(g, "cluster_legend", 1)) == NULL ||
	    pdbi_sym_agnode(box, "legend", 1) == NULL) {
		pdbi_sym_agclose(g);
		return NULL;
	}
	set(box, "peripheries", "0");
	return g;
}

/* Colour and widths of a node of weight fraction f. */
static void
style_node(Agnode_t *gn, double f, int hot)
{
	char fill[8], border[8], pw[16];

	heat(f, 1.0, fill);
	heat(f, 0.6, border);
	snprintf(pw, sizeof(pw), "%.2f", 0.5 + 2.0 * f);
	set(gn, "fillcolor", fill);
	/*
	 * White or black, whichever contrasts more with the fill: black
	 * where its WCAG luminance passes 0.18, which on this scale is
	 * from f = 0.2233 up, the cyan to the red (worked out once, as
	 * pow() would load libm into every tool).
	 */
	if (f > 0.2233)
		set(gn, "fontcolor", "black");
	set(gn, "color", border);
	set(gn, "penwidth", pw);
	if (hot) {
		set(gn, "color", "#000000");
		set(gn, "penwidth", "3");
		set(gn, "peripheries", "2");
	}
}

/* The pen width of an arc of weight fraction f. */
static double
edge_width(double f, int hot)
{
	double w = 4.0 * f > 0.5 ? 4.0 * f : 0.5;

	return hot && w < 3.0 ? 3.0 : w;
}

/* Dot sets an arc's label right against the arc's centre line, so that
 * a wide arc covers its first digits: each line starts with a space, and
 * one more for every 3 points of pen (a space is about 2.5 points in the
 * arcs' 9-point font). */
static void
sb_edge_pad(struct sbuf *b, double w)
{
	static const char spaces[] = "    ";
	size_t n = 1 + (size_t)(w / 3.0);

	sb_add(b, spaces, n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1);
}

static void
style_edge(Agedge_t *ge, double f, int hot)
{
	char col[8], text[8], pw[16], as[16];
	double w = edge_width(f, hot);

	heat(f, 1.0, col);
	/* The label on the white page: the same hue at half the lightness,
	 * which keeps 5.5:1 contrast at least, where yellow had 1.5:1. */
	heat(f, 0.5, text);
	snprintf(pw, sizeof(pw), "%.2f", w);
	snprintf(as, sizeof(as), "%.2f", 0.5 * sqrt(w));
	set(ge, "color", hot ? "#000000" : col);
	set(ge, "fontcolor", text);
	set(ge, "penwidth", pw);
	set(ge, "arrowsize", as);
	if (hot)
		set(ge, "style", "bold");
}

/* "value (p%)" for v of the total. */
static void
sb_value(struct sbuf *b, const struct dot *d, int64_t v)
{
	sb_int(b, v);
	sb_printf(b, " (%.1f%%)", pct(v, d->total));
}

/* A cost centre's label, or "" for an empty one. */
static void
sb_cclabel(struct sbuf *b, const char *label)
{
	if (*label == '\0')
		sb_add(b, "\"\"", 2);
	else
		sb_label(b, label);
}

/* The label of cost centre cc: name, module, the source location when
 * the name is shared, then lines of values. */
static void
sb_ccname(struct sbuf *b, const struct dot *d, uint32_t cc)
{
	const char *module = pdb_cc_module(d->db, cc);
	struct pdb_cc c;

	sb_cclabel(b, pdb_cc_label(d->db, cc));
	if (*module != '\0') {
		sb_nl(b);
		sb_label(b, module);
	}
	if (d->shared != NULL && d->shared[cc]) {
		pdb_cc(d->db, cc, &c);
		if (*c.src != '\0') {
			sb_nl(b);
			sb_label(b, c.src);
		}
	}
}

/* The legend node: what the graph shows and what it hides.  Returns 0,
 * or -1 when out of memory. */
static int
legend(struct dot *d, Agraph_t *g, const char *what1, const char *what,
    size_t shown,
    size_t hidden, int64_t hidden_cost, size_t arcs_shown,
    size_t arcs_hidden)
{
	const struct pdb_metric *mt = pdb_metric(d->db, d->m);
	const struct pdb_dot_opts *o = d->o;
	const char *prog = pdb_meta_get(d->db, "program");
	int tree = (o->flags & PDB_DOT_TREE) != 0;
	struct sbuf b = { 0 };
	Agnode_t *gn;
	size_t k;

	if (prog != NULL && *prog != '\0') {
		sb_add(&b, "program: ", 9);
		sb_label(&b, prog);
		sb_nl_left(&b);
	}
	sb_add(&b, "metric: ", 8);
	sb_label(&b, mt->name);
	/* As ccs-flat, ccs-tree and ccs-hot say what the numbers are. */
	sb_printf(&b, "%s", pdb_metric_qualifiers(d->db, d->m));
	sb_add(&b, ", total ", 8);
	sb_int(&b, d->total);
	sb_add(&b, " ", 1);
	sb_label(&b, mt->unit);
	sb_nl_left(&b);
	sb_printf(&b, "%s of ", tree ? "tree" : "graph");
	if (d->nset == d->nreal)
		sb_add(&b, "all ", 4);
	else {
		sb_int(&b, (int64_t)d->nset);
		sb_add(&b, " of ", 4);
	}
	sb_count(&b, d->nreal, "stack", "stacks");
	if (o->flags & PDB_DOT_NONZERO)
		sb_add(&b, ", non-zero", 10);
	if (o->top > 0)
		sb_printf(&b, ", the top %zu", o->top);
	for (k = 0; k < o->nfocus; k++) {
		sb_add(&b, k == 0 ? ", through '" : " or '", k == 0 ? 11 : 5);
		sb_label(&b, o->focus[k]);
		sb_add(&b, "'", 1);
	}
	sb_nl_left(&b);
	if (o->flags & PDB_DOT_HOT_ONLY)
		sb_add(&b, "expensive arm only\\l", 20);
	else if (o->flags & PDB_DOT_HOT)
		sb_add(&b, "expensive arm in bold\\l", 23);
	sb_count(&b, shown, what1, what);
	if (!tree) {
		sb_add(&b, ", ", 2);
		sb_count(&b, arcs_shown, "arc", "arcs");
	}
	sb_add(&b, " shown", 6);
	sb_nl_left(&b);
	if (hidden > 0) {
		sb_count(&b, hidden, what1, what);
		sb_printf(&b, " hidden, %.1f%% self cost",
		    pct(hidden_cost, d->total));
		sb_nl_left(&b);
	}
	if (arcs_hidden > 0) {
		sb_count(&b, arcs_hidden, "arc", "arcs");
		sb_add(&b, " hidden", 7);
		sb_nl_left(&b);
	}
	if (d->residual > 0) {
		sb_count(&b, d->residual, "dashed arc", "dashed arcs");
		sb_add(&b, " through hidden callers", 23);
		sb_nl_left(&b);
	}
	/* Cost left on a made-up root is no call: said, not drawn. */
	if (d->unshown != 0) {
		sb_printf(&b, "%.1f%% self cost on the made-up root, not "
		    "drawn", pct(d->unshown, d->total));
		sb_nl_left(&b);
	}
	sb_printf(&b, "thresholds: nodes %g%%", o->node_thres);
	if (!tree)
		sb_printf(&b, ", arcs %g%%", o->edge_thres);
	if (o->nodecount > 0) {
		sb_add(&b, ", at most ", 10);
		sb_count(&b, o->nodecount, "node", "nodes");
	}
	sb_nl_left(&b);
	if (b.oom) {
		free(b.s);
		return -1;
	}
	/* Made by graph_open(). */
	if ((gn = pdbi_sym_agnode(g, "legend", 0)) == NULL) {
		free(b.s);
		return -1;
	}
	set(gn, "label", b.s);
	set(gn, "shape", "note");
	set(gn, "style", "filled");
	set(gn, "fillcolor", "#fffbe6");
	set(gn, "color", "#a08c50");
	set(gn, "fontcolor", "#000000");
	free(b.s);
	return 0;
}

/*
 * The label of an arc of cost v drawn with pen width pen: the cost, as
 * nodes say it, then a new line padded off the arc for what follows.
 */
static void
sb_arc_cost(struct sbuf *b, const struct dot *d, int64_t v, double pen)
{
	b->len = 0;
	sb_edge_pad(b, pen);
	if (d->count) {
		/* As a node says it: a metric's name has no plural. */
		sb_label(b, pdb_metric(d->db, d->m)->name);
		sb_add(b, " ", 1);
		sb_int(b, v);
	} else
		sb_value(b, d, v);
	sb_nl(b);
	sb_edge_pad(b, pen);
}

/* Whether arc a costs more than arc k (NOARC: none), or as much on more
 * stacks: the arc that explains a node best. */
static int
costlier(const struct dot *d, const struct arc *a, uint32_t k)
{
	const struct arc *b;

	if (k == NOARC)
		return 1;
	b = &d->arcs[k];
	return fabs((double)a->cost) > fabs((double)b->cost) ||
	    (fabs((double)a->cost) == fabs((double)b->cost) &&
	    a->nstacks > b->nstacks);
}

/* Whether arc a joins two drawn nodes and may be drawn. */
static int
drawable(const struct dot *d, Agnode_t *const *gnode, const struct arc *a)
{
	return a->nstacks > 0 && gnode[a->from] != NULL &&
	    gnode[a->to] != NULL &&
	    (!(d->o->flags & PDB_DOT_HOT_ONLY) || a->hot);
}

/* An arc into a cost centre, as join_floating() sorts them. */
struct inarc {
	uint32_t	 to, arc;
	double		 cost;		/* |cost| */
	uint64_t	 nstacks;
};

/* By callee, then the costliest first, as costlier() ranks them. */
static int
inarc_cmp(const void *x, const void *y)
{
	const struct inarc *a = x, *b = y;

	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	if (a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	if (a->nstacks != b->nstacks)
		return a->nstacks > b->nstacks ? -1 : 1;
	return a->arc < b->arc ? -1 : a->arc > b->arc;
}

/*
 * A drawn node none of whose callers is drawn (bestin[cc] NOARC) would
 * float, unexplained: a dashed arc joins it to the nearest drawn cost
 * centre up its callers, as pprof draws a call through dropped nodes.
 * The search goes up breadth first, the costlier callers first at each
 * step, and the arc is labelled with the cost of the last hop, the
 * node's own arc, and how many hidden cost centres it passes.  Returns
 * -1 when out of memory.
 */
static int
join_floating(struct dot *d, Agraph_t *g, Agnode_t *const *gnode,
    const uint32_t *bestin, struct sbuf *b)
{
	struct inarc *in = NULL;
	uint32_t *start = NULL, *via = NULL, *seen = NULL, *queue = NULL;
	uint32_t cc, x, y, n = 0, head, tail, last, hops;
	Agedge_t *ge;
	double pen;
	size_t k;
	int rc = -1;

	d->residual = 0;
	for (cc = 0; cc < d->ncc && (gnode[cc] == NULL ||
	    bestin[cc] != NOARC); cc++)
		;
	if (cc == d->ncc)
		return 0;	/* none floats: no arcs to sort */
	if ((in = malloc((d->narcs + 1) * sizeof(*in))) == NULL ||
	    (start = calloc((size_t)d->ncc + 2, sizeof(*start))) == NULL ||
	    (via = malloc(((size_t)d->ncc + 1) * sizeof(*via))) == NULL ||
	    (seen = calloc((size_t)d->ncc + 1, sizeof(*seen))) == NULL ||
	    (queue = malloc(((size_t)d->ncc + 1) * sizeof(*queue))) == NULL)
		goto out;
	for (k = 0; k < d->narcs; k++) {
		const struct arc *a = &d->arcs[k];

		if (a->nstacks == 0 || a->from == a->to)
			continue;
		in[n].to = a->to;
		in[n].arc = (uint32_t)k;
		in[n].cost = fabs((double)a->cost);
		in[n++].nstacks = a->nstacks;
	}
	qsort(in, n, sizeof(*in), inarc_cmp);
	for (k = 0; k < n; k++)
		start[in[k].to + 1]++;
	for (cc = 0; cc < d->ncc; cc++)
		start[cc + 1] += start[cc];
	for (cc = 0; cc < d->ncc; cc++) {
		if (gnode[cc] == NULL || bestin[cc] != NOARC ||
		    start[cc] == start[cc + 1])
			continue;
		/* seen[] holds the node searched from, plus one. */
		seen[cc] = cc + 1;
		queue[0] = cc;
		for (head = 0, tail = 1, y = PDB_NONE; head < tail &&
		    y == PDB_NONE; head++) {
			x = queue[head];
			for (k = start[x]; k < start[x + 1]; k++) {
				uint32_t from = d->arcs[in[k].arc].from;

				if (seen[from] == cc + 1)
					continue;
				seen[from] = cc + 1;
				via[from] = in[k].arc;
				if (gnode[from] != NULL) {
					y = from;
					break;
				}
				queue[tail++] = from;
			}
		}
		if (y == PDB_NONE)
			continue;
		/* Back down to cc: the hops, and the last arc, into cc. */
		for (hops = 0, x = y; d->arcs[via[x]].to != cc; hops++)
			x = d->arcs[via[x]].to;
		last = via[x];
		ge = pdbi_sym_agedge(g, gnode[y], gnode[cc], NULL, 1);
		pen = edge_width(frac(d->arcs[last].cost, d->total), 0);
		sb_arc_cost(b, d, d->arcs[last].cost, pen);
		sb_add(b, "through ", 8);
		sb_count(b, hops, "hidden", "hidden");
		if (b->oom)
			goto out;
		set(ge, "label", b->s);
		style_edge(ge, frac(d->arcs[last].cost, d->total), 0);
		set(ge, "style", "dashed");
		d->residual++;
	}
	rc = 0;
out:
	free(in);
	free(start);
	free(via);
	free(seen);
	free(queue);
	return rc;
}

static int
build_callgraph(struct dot *d, Agraph_t **gp)
{
	const struct pdb_dot_opts *o = d->o;
	int hotmode = (o->flags & (PDB_DOT_HOT | PDB_DOT_HOT_ONLY)) != 0;
	struct pick *picks = NULL;
	Agnode_t **gnode = NULL, *gn;
	Agedge_t *ge;
	Agraph_t *g = NULL;
	struct sbuf b = { 0 };
	struct pdb_cc c;
	uint32_t *bestin = NULL;
	size_t npick = 0, nkeep, npresent = 0, k, ashown = 0, apresent = 0;
	int64_t hidden_cost = 0, w;
	double pen;
	int hot;
	uint32_t cc;
	char name[32];

	/* An array of pointers: sizeof a pointer is right. */
	/* NOLINTBEGIN(bugprone-sizeof-expression) */
	if ((picks = malloc(((size_t)d->ncc + 1) * sizeof(*picks))) == NULL ||
	    (gnode = calloc(d->ncc + 1, sizeof(*gnode))) == NULL ||
	    (d->shared = malloc((size_t)d->ncc + 1)) == NULL ||
	    pdb_names_shared(d->db, NULL, d->ncc, d->shared) < 0)
		goto oom;
	/* NOLINTEND(bugprone-sizeof-expression) */
	for (cc = 0; cc < d->ncc; cc++) {
		if (!d->present[cc] || synthetic(d, cc))
			continue;
		npresent++;
		hidden_cost += d->self[cc];
		if ((o->flags & PDB_DOT_HOT_ONLY) && !d->hotcc[cc])
			continue;
		/*
		 * A count too is picked by what its cost centre's stacks
		 * hold, as ccs-flat inherits it, not by its own count: the
		 * callers of a much-entered function are then drawn with
		 * it, however few times they were entered themselves.
		 */
		w = d->inh[cc];
		picks[npick].id = cc;
		picks[npick].forced = hotmode && d->hotcc[cc] ? PICK_ARM :
		    d->focuscc[cc] ? PICK_FOCUS : PICK_FREE;
		picks[npick].w = fabs((double)w);
		picks[npick].tie = hotmode && d->hotcc[cc] ? d->hotcc[cc] : cc;
		if (picks[npick].forced ||
		    reaches((double)w, d->total, o->node_thres))
			npick++;
	}
	nkeep = pick_best(d, picks, npick);
	/* Draw in cost-centre order, for output that does not depend on
	 * the sort. */
	for (k = 0; k < nkeep; k++)
		gnode[picks[k].id] = (Agnode_t *)1;

	if ((g = graph_open("callgraph")) == NULL)
		goto oom;
	for (cc = 0; cc < d->ncc; cc++) {
		if (gnode[cc] == NULL)
			continue;
		snprintf(name, sizeof(name), "cc%" PRIu32, cc);
		gn = gnode[cc] = pdbi_sym_agnode(g, name, 1);
		hidden_cost -= d->self[cc];
		b.len = 0;
		sb_ccname(&b, d, cc);
		sb_nl(&b);
		if (d->count) {
			sb_label(&b, pdb_metric(d->db, d->m)->name);
			sb_add(&b, " ", 1);
			sb_value(&b, d, d->self[cc]);
		} else {
			sb_add(&b, "self ", 5);
			sb_value(&b, d, d->self[cc]);
			sb_nl(&b);
			sb_add(&b, "inherited ", 10);
			sb_value(&b, d, d->inh[cc]);
		}
		if (b.oom)
			goto oom;
		set(gn, "label", b.s);
		/*
		 * The tooltip adds the source location.  Graphviz 2.43
		 * substitutes \N, \G, ... in tooltips after undoing "\\",
		 * so no escaping shows a backslash there: names with one
		 * get no tooltip (the label shows them).
		 */
		pdb_cc(d->db, cc, &c);
		if (strchr(c.label, '\\') == NULL &&
		    strchr(c.module, '\\') == NULL &&
		    strchr(c.src, '\\') == NULL) {
			b.len = 0;
			/* An empty label as the node shows it: an empty
			 * tooltip would be Graphviz's cue to repeat the
			 * node's whole label there. */
			if (*c.label != '\0')
				sb_label(&b, pdb_cc_fullname(d->db, cc));
			else {
				if (*c.module != '\0') {
					sb_label(&b, c.module);
					sb_add(&b, ".", 1);
				}
				sb_cclabel(&b, c.label);
			}
			if (*c.src != '\0') {
				sb_nl(&b);
				sb_label(&b, c.src);
			}
			if (b.oom)
				goto oom;
			set(gn, "tooltip", b.s);
		}
		style_node(gn, frac(d->count ? d->self[cc] : d->inh[cc],
		    d->total), hotmode && d->hotcc[cc] &&
		    !(o->flags & PDB_DOT_HOT_ONLY));
	}
	/*
	 * The edge threshold hides cheap arcs, but not the most expensive
	 * arc into a drawn node from another drawn node: a node drawn
	 * without its caller would float, unexplained.
	 */
	if ((bestin = malloc(((size_t)d->ncc + 1) * sizeof(*bestin))) == NULL)
		goto oom;
	for (cc = 0; cc <= d->ncc; cc++)
		bestin[cc] = NOARC;
	for (k = 0; k < d->narcs; k++) {
		struct arc *a = &d->arcs[k];

		if (drawable(d, gnode, a) && a->from != a->to &&
		    costlier(d, a, bestin[a->to]))
			bestin[a->to] = (uint32_t)k;
	}
	for (k = 0; k < d->narcs; k++) {
		struct arc *a = &d->arcs[k];

		if (a->nstacks == 0)
			continue;
		apresent++;
		if (!drawable(d, gnode, a))
			continue;
		if (!(hotmode && a->hot) && bestin[a->to] != k &&
		    !reaches((double)a->cost, d->total, o->edge_thres))
			continue;
		ashown++;
		ge = pdbi_sym_agedge(g, gnode[a->from], gnode[a->to], NULL, 1);
		hot = hotmode && a->hot && !(o->flags & PDB_DOT_HOT_ONLY);
		pen = edge_width(frac(a->cost, d->total), hot);
		sb_arc_cost(&b, d, a->cost, pen);
		sb_count(&b, a->nstacks, "stack", "stacks");
		if (b.oom)
			goto oom;
		set(ge, "label", b.s);
		style_edge(ge, frac(a->cost, d->total), hot);
	}
	if (join_floating(d, g, gnode, bestin, &b) != 0)
		goto oom;
	if (legend(d, g, "cost centre", "cost centres", nkeep,
	    npresent - nkeep, hidden_cost, ashown, apresent - ashown) != 0)
		goto oom;
	free(picks);
	free(gnode);
	free(bestin);
	free(b.s);
	*gp = g;
	return PDB_OK;
oom:
	if (g != NULL)
		pdbi_sym_agclose(g);
	free(picks);
	free(gnode);
	free(bestin);
	free(b.s);
	return pdb_seterr(d->db, PDB_ENOMEM, "out of memory");
}

static int
build_tree(struct dot *d, Agraph_t **gp)
{
	const struct pdb_dot_opts *o = d->o;
	int hotmode = (o->flags & (PDB_DOT_HOT | PDB_DOT_HOT_ONLY)) != 0;
	int hl = hotmode && !(o->flags & PDB_DOT_HOT_ONLY);
	struct pick *picks = NULL;
	Agnode_t **gnode = NULL, *gn;
	Agedge_t *ge;
	Agraph_t *g = NULL;
	struct sbuf b = { 0 };
	size_t npick = 0, nkeep, npresent = 0, nshown = 0, i, k;
	int64_t hidden_cost = 0, w;
	double *smax = NULL;
	uint32_t n, cc, p;
	char name[32];

	/* An array of pointers: sizeof a pointer is right. */
	/* NOLINTBEGIN(bugprone-sizeof-expression) */
	if ((picks = malloc(((size_t)d->nn + 1) * sizeof(*picks))) == NULL ||
	    (gnode = calloc(d->nn + 1, sizeof(*gnode))) == NULL ||
	    (d->shared = malloc((size_t)d->ncc + 1)) == NULL ||
	    pdb_names_shared(d->db, NULL, d->ncc, d->shared) < 0)
		goto oom;
	/* NOLINTEND(bugprone-sizeof-expression) */
	/*
	 * A count is not inherited: a stack is weighed by the largest
	 * count in its subtree, so that, as inclusive cost does, a stack
	 * weighs no less than any below it and the thresholds keep the
	 * way down to what they keep.
	 */
	if (d->count) {
		if ((smax = calloc(d->nn + 1, sizeof(*smax))) == NULL)
			goto oom;
		for (i = d->nn; i-- > 0;) {
			n = d->order[i];
			w = own(d, n);
			if (fabs((double)w) > smax[n])
				smax[n] = fabs((double)w);
			p = pdb_node_parent(d->db, n);
			if (p != PDB_NONE && smax[n] > smax[p])
				smax[p] = smax[n];
		}
	}
	for (i = 0; i < d->nn; i++) {
		n = d->order[i];
		cc = pdb_node_cc(d->db, n);
		if (d->isub[n] == 0 || synthetic(d, cc))
			continue;
		npresent++;
		hidden_cost += own(d, n);
		if ((o->flags & PDB_DOT_HOT_ONLY) && !d->armn[n])
			continue;
		picks[npick].id = n;
		/* Pre-order puts the arm's nodes root first. */
		picks[npick].forced = hotmode && d->armn[n] ? PICK_ARM :
		    d->focuscc[cc] ? PICK_FOCUS : PICK_FREE;
		picks[npick].w = d->count ? smax[n] : fabs((double)d->inc[n]);
		picks[npick].tie = i;
		if (picks[npick].forced ||
		    reaches(picks[npick].w, d->total, o->node_thres))
			npick++;
	}
	nkeep = pick_best(d, picks, npick);
	/*
	 * A stack is drawn with its callers up to the root: a forced one
	 * (a focus match), or one that weighs more than its caller (a
	 * negative cost between), brings them.
	 */
	for (k = 0; k < nkeep; k++)
		for (n = picks[k].id; n != PDB_NONE && gnode[n] == NULL &&
		    d->isub[n] > 0 && !synthetic(d, pdb_node_cc(d->db, n));
		    n = pdb_node_parent(d->db, n))
			gnode[n] = (Agnode_t *)1;

	if ((g = graph_open("stacktree")) == NULL)
		goto oom;
	/* Pre-order: a parent is drawn before its children, and a stack
	 * whose parent is hidden is hidden too. */
	for (i = 0; i < d->nn; i++) {
		n = d->order[i];
		if (gnode[n] == NULL)
			continue;
		p = pdb_node_parent(d->db, n);
		if (p != PDB_NONE && gnode[p] == NULL &&
		    !synthetic(d, pdb_node_cc(d->db, p))) {
			gnode[n] = NULL;
			continue;
		}
		cc = pdb_node_cc(d->db, n);
		snprintf(name, sizeof(name), "n%" PRIu32, n);
		gn = gnode[n] = pdbi_sym_agnode(g, name, 1);
		nshown++;
		hidden_cost -= own(d, n);
		b.len = 0;
		sb_ccname(&b, d, cc);
		sb_nl(&b);
		if (d->count) {
			sb_label(&b, pdb_metric(d->db, d->m)->name);
			sb_add(&b, " ", 1);
			sb_value(&b, d, own(d, n));
		} else {
			sb_add(&b, "self ", 5);
			sb_value(&b, d, own(d, n));
			sb_nl(&b);
			sb_add(&b, "inclusive ", 10);
			sb_value(&b, d, d->inc[n]);
		}
		if (b.oom)
			goto oom;
		set(gn, "label", b.s);
		w = d->count ? own(d, n) : d->inc[n];
		style_node(gn, frac(w, d->total), hl && d->armn[n]);
		if (p != PDB_NONE && gnode[p] != NULL) {
			ge = pdbi_sym_agedge(g, gnode[p], gn, NULL, 1);
			style_edge(ge, frac(w, d->total), hl && d->armn[n] &&
			    d->armn[p]);
		}
	}
	if (legend(d, g, "stack", "stacks", nshown, npresent - nshown,
	    hidden_cost, 0, 0) != 0)
		goto oom;
	free(picks);
	free(gnode);
	free(smax);
	free(b.s);
	*gp = g;
	return PDB_OK;
oom:
	if (g != NULL)
		pdbi_sym_agclose(g);
	free(picks);
	free(gnode);
	free(smax);
	free(b.s);
	return pdb_seterr(d->db, PDB_ENOMEM, "out of memory");
}

/* ---- output ---- */

/*
 * One graphviz context for the whole process, never freed.  Graphviz
 * 2.42's pango plugin keeps a static pointer to the last font name, which
 * lives in the context: freeing a context and laying out with a new one
 * reads freed memory (AddressSanitizer: heap-use-after-free in
 * pango_textlayout).
 */
static GVC_t *
gv_context(void)
{
	static GVC_t *gvc;

	if (gvc == NULL)
		gvc = pdbi_sym_gvContext();
	return gvc;
}

static int
emit(struct dot *d, Agraph_t *g, FILE *out)
{
	const char *fmt = d->o->render;
	GVC_t *gvc;
	char *data = NULL;
	unsigned int len = 0;
	int rc = 0;

	if (fmt == NULL || strcmp(fmt, "dot") == 0 || strcmp(fmt, "gv") == 0) {
		if (pdbi_sym_agwrite(g, out) != 0 || fflush(out) != 0 ||
		    ferror(out))
			return pdb_seterr(d->db, PDB_EIO, "cannot write DOT");
		return PDB_OK;
	}
	if ((gvc = gv_context()) == NULL)
		return pdb_seterr(d->db, PDB_ENOMEM, "out of memory");
	if (pdbi_sym_gvLayout(gvc, g, "dot") != 0)
		rc = pdb_seterr(d->db, PDB_EFORMAT,
		    "graphviz layout failed: %s", gv_message());
	else {
		/*
		 * Render in memory and write with stdio: graphviz calls
		 * exit(1) when a write to its output fails.
		 */
		if (pdbi_sym_gvRenderData(gvc, g, fmt, &data, &len) != 0)
			rc = pdb_seterr(d->db, PDB_EUNSUPP,
			    "graphviz cannot render '%s': %s", fmt,
			    gv_message());
		else if (fwrite(data, 1, len, out) != len || fflush(out) != 0 ||
		    ferror(out))
			rc = pdb_seterr(d->db, PDB_EIO, "cannot write %s: %s",
			    fmt, strerror(errno));
		pdbi_sym_gvFreeRenderData(data);
		pdbi_sym_gvFreeLayout(gvc, g);
	}
	return rc;
}

static void
dot_free(struct dot *d)
{
	free(d->inc);
	free(d->order);
	free(d->depth);
	free(d->incl);
	free(d->isub);
	free(d->icost);
	free(d->armn);
	free(d->arm);
	free(d->self);
	free(d->inh);
	free(d->present);
	free(d->hotcc);
	free(d->focuscc);
	focus_free(d->focus);
	free(d->shared);
	free(d->arcs);
	free(d->bucket);
	free(d->lv);
	free(d->onpath);
	free(d->range);
	free(d->zeros);
}

/* Options and metric; the error on db when there is no such metric. */
static int
dot_init(struct dot *d, struct pdb *db, const struct pdb_opts *opts)
{
	static const struct pdb_dot_opts defaults = PDB_DOT_OPTS_DEFAULT;
	int mi;

	d->db = db;
	d->o = opts->writer_opts ? opts->writer_opts : &defaults;
	if ((d->nm = pdb_metric_count(db)) == 0)
		return pdb_seterr(db, PDB_EINVAL, "the profile has no metrics");
	if (opts->metric != NULL) {
		if ((mi = pdb_metric_find(db, opts->metric)) < 0)
			return pdb_seterr(db, PDB_EINVAL,
			    "no metric '%s' in this profile", opts->metric);
		d->m = (unsigned)mi;
	} else
		d->m = pdb_metric_default(db);
	d->count = pdb_metric(db, d->m)->kind == PDB_COUNT;
	return PDB_OK;
}

/* The graph of d's numbers, laid out and written. */
static int
draw(struct dot *d, FILE *out)
{
	Agraph_t *g = NULL;
	agusererrf olderrf;
	int rc;

	if ((rc = pdb_load_graphviz(d->db)) != PDB_OK)
		return rc;
	gv_msgs.len = 0;
	gv_msgs.oom = 0;
	if (gv_msgs.s != NULL)
		gv_msgs.s[0] = '\0';
	olderrf = pdbi_sym_agseterrf(gv_collect);
	rc = (d->o->flags & PDB_DOT_TREE) ? build_tree(d, &g) :
	    build_callgraph(d, &g);
	if (rc == PDB_OK)
		rc = emit(d, g, out);
	if (g != NULL)
		pdbi_sym_agclose(g);
	pdbi_sym_agseterrf(olderrf);
	free(gv_msgs.s);
	memset(&gv_msgs, 0, sizeof(gv_msgs));
	return rc;
}

static int
dot_write(struct pdb *db, FILE *out, const struct pdb_opts *opts)
{
	struct dot d;
	int rc;

	memset(&d, 0, sizeof(d));
	if ((rc = dot_init(&d, db, opts)) == PDB_OK)
		rc = (d.o->flags & PDB_DOT_TREE) ? prepare(&d) : agg_tree(&d);
	if (rc == PDB_OK)
		rc = draw(&d, out);
	dot_free(&d);
	return rc;
}

/* ---- the call graph from a reader ---- */

struct pdb_dot {
	struct dot		 d;
	const struct pdb_opts	*opts;
	struct pdb_sink		 sink;
	int			 begun;
};

int
pdb_dot_streams(const struct pdb_dot_opts *o)
{
	return o == NULL || (!(o->flags & (PDB_DOT_TREE | PDB_DOT_HOT |
	    PDB_DOT_HOT_ONLY)) && o->top == 0);
}

static int
ds_begin(void *arg, struct pdb *db)
{
	struct pdb_dot *w = arg;
	struct dot *d = &w->d;
	int rc;

	if ((rc = dot_init(d, db, w->opts)) != PDB_OK)
		return rc;
	if (!pdb_dot_streams(d->o))
		return pdb_seterr(db, PDB_EINVAL, "this drawing needs the "
		    "stack tree");
	d->check = 1;
	d->range = calloc(2 * (size_t)d->nm + 1, sizeof(*d->range));
	d->zeros = calloc((size_t)d->nm + 1, sizeof(*d->zeros));
	if (d->range == NULL || d->zeros == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	w->begun = 1;
	return PDB_OK;
}

static int
ds_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *values)
{
	struct pdb_dot *w = arg;

	return agg_enter(&w->d, db, cc, values, 1);
}

static int
ds_exit(void *arg, struct pdb *db)
{
	struct pdb_dot *w = arg;

	return agg_exit(&w->d, db);
}

/* A batch of nodes, without a call through the reader's sink each. */
static int
ds_nodes(void *arg, struct pdb *db, const struct pdb_batch *b, size_t *done)
{
	return pdb_batch_each(db, b, 0, b->n, done, ds_enter, ds_exit, arg);
}

struct pdb_dot *
pdb_dot_new(const struct pdb_opts *opts)
{
	static const struct pdb_opts noopts;
	struct pdb_dot *w;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	w->opts = opts != NULL ? opts : &noopts;
	w->sink.begin = ds_begin;
	w->sink.enter = ds_enter;
	w->sink.exit = ds_exit;
	w->sink.nodes = ds_nodes;
	w->sink.arg = w;
	return w;
}

const struct pdb_sink *
pdb_dot_sink(struct pdb_dot *w)
{
	return &w->sink;
}

uint64_t
pdb_dot_nodes(const struct pdb_dot *w)
{
	return w->d.nodes;
}

int
pdb_dot_finish(struct pdb_dot *w, FILE *out)
{
	int rc;

	if (!w->begun)
		return PDB_EINVAL;
	if (w->d.nodes == 0)
		return pdb_seterr(w->d.db, PDB_EINVAL, "nothing to write: "
		    "empty profile");
	if ((rc = agg_end(&w->d)) != PDB_OK)
		return rc;
	return draw(&w->d, out);
}

void
pdb_dot_free(struct pdb_dot *w)
{
	if (w == NULL)
		return;
	dot_free(&w->d);
	free(w);
}
