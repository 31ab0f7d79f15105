/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-gen: a synthetic profile of a given size, the same bytes for the
 * same seed, in every format ccstools reads.  It exists to test and
 * benchmark the tools on inputs as large as real programs make.
 *
 * The model.  A program is a static call graph over cost centres: each
 * function has a list of callees; most call a few functions near them
 * (helpers of the same module), some call popular utilities (so the same
 * cost centre appears under many stacks), a few dispatch to hundreds
 * (wide fan-out), some call themselves first (deep recursion: the same
 * cost centre many times on one path) and some call back into earlier
 * functions (mutual recursion).  Module sizes and callee popularity are
 * heavy-tailed.  The stack tree is this graph unrolled from the root
 * under a node budget: every node hands what it does not keep to its
 * children, unevenly (one hot child usually gets most), and a subtree
 * that cannot use its share gives the rest back to later siblings.
 * Costs are heavy-tailed too: most stacks have no ticks, a few have
 * thousands.
 *
 * Each format gets the flavour its profiler would write: GHC stacks
 * (ghc-prof, ghc-json) never repeat a cost centre, as GHC compresses
 * recursion; Clean's run-time system folds recursion only within seven
 * frames (pgcl); perf-style folded stacks and our dump keep every
 * repeat.
 *
 * Two ways to write.  Up to TREE_MAX nodes, and for the formats that
 * have a library writer, the tree is built with libprofdb and written
 * with pdb_write(), so what is tested is the library's own output.  Past
 * that, and for the GHC formats, which have no library writer, the
 * profile is written as it is generated, in memory independent of its
 * size: a 2 GB file needs no 2 GB tree.  The streaming writers produce
 * the library's bytes exactly (the tests check this with --stream).
 * Formats that need something before the tree that only the tree tells
 * (pgcl numbers cost centres by first appearance, GHC JSON starts with
 * the totals) generate twice: generation is deterministic and cheap.
 *
 * --size picks the node count by generating smaller profiles without
 * writing them and scaling, so the output is within a few percent of
 * the size asked for.
 */
#define _GNU_SOURCE		/* fopencookie */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common.h"

#define TREE_MAX	1000000		/* more nodes than this: stream */
#define MAX_NODES	4000000000ULL
#define GHC_MAXDEPTH	60		/* GHC flavour: a deeper stack is rare */
#define CLEAN_FOLD	7		/* pgcl: recursion folded within 7 frames */
#define SAMPLE1		100000		/* node counts sampled by --size */
#define SAMPLE2		1000000
#define SAMPLE3		8000000
#define GEN_DATE	"Thu Jan  1 00:00 2026"

static const char usage[] =
    "ccs-gen [-q] [-t format] [-n nodes | --size bytes] [--seed n] "
    "[--stream] [-v] [-o file]";

static const char helptext[] =
    "Write a synthetic profile of a given size; the same seed gives the same "
    "bytes.\n\n"
    "  -t, --to FORMAT        pgcl, dump, folded, json, ghc-prof, ghc-json\n"
    "                         (default: from the -o extension, else dump)\n"
    "  -n, --nodes N          about N stack nodes (default 10000)\n"
    "      --size BYTES       about BYTES of output (suffix k, M, G; Ki, Mi, "
    "Gi)\n"
    "      --seed N           seed of the generator (default 1)\n"
    "      --stream           write as generated, whatever the size\n"
    "  -v, --verbose          print what was generated to stderr\n"
    "  -o, --output FILE      write to FILE instead of stdout\n"
    "  -q, --quiet            no progress bar\n"
    "  -h, --help             show this help and exit\n"
    "      --version          show the version and exit\n";

enum flavour { FL_GHC, FL_DUMP, FL_CLEAN, FL_FOLDED };

/* The output formats and how each is written. */
static const struct outfmt {
	const char	*name;
	enum flavour	 fl;
	const char	*lib;		/* library writer, or NULL */
	int		 stream;	/* ccs-gen has a streaming writer */
	int		 binary;
	unsigned	 bpn;		/* first guess of bytes per node */
} outfmts[] = {
	{ "pgcl", FL_CLEAN, "pgcl", 1, 1, 18 },
	{ "dump", FL_DUMP, "dump", 1, 1, 12 },
	{ "folded", FL_FOLDED, "folded", 1, 0, 300 },
	{ "json", FL_DUMP, "json", 0, 0, 150 },
	{ "ghc-prof", FL_GHC, NULL, 0, 0, 200 },
	{ "ghc-json", FL_GHC, NULL, 1, 0, 75 },
	{ NULL, 0, NULL, 0, 0, 0 }
};

/* ---- random numbers: xoshiro256**, seeded through splitmix64 ---- */

struct rng {
	uint64_t	 s[4];
};

static uint64_t
splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void
rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix(&x);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t
next(struct rng *r)
{
	uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

/* Uniform in [0, n). */
static uint64_t
uniform(struct rng *r, uint64_t n)
{
	return n == 0 ? 0 : (next(r) >> 1) % n;
}

/* True with probability 1 / 2^k. */
static int
chance(struct rng *r, unsigned k)
{
	return (next(r) & (((uint64_t)1 << k) - 1)) == 0;
}

/* Geometric: k with probability 2^-(k+1), at most max. */
static unsigned
geom(struct rng *r, unsigned max)
{
	uint64_t x = next(r);
	unsigned k = 0;

	while (k < max && (x & 1) == 0) {
		x >>= 1;
		k++;
	}
	return k;
}

/*
 * Heavy-tailed, at least 1 and below 2^bits: log-uniform, so that
 * P(v >= x) is about 1/x (a Pareto tail of index 1).
 */
static uint64_t
heavy(struct rng *r, unsigned bits)
{
	unsigned e = geom(r, bits - 1);
	uint64_t lo = (uint64_t)1 << e;

	return lo + (next(r) & (lo - 1));
}

/* ---- the model: modules, cost centres, the call graph ---- */

enum ckind { CK_ROOT, CK_BUILTIN, CK_CAF, CK_GC, CK_FUNC };

struct gcc {
	char		*label;
	char		*src;
	char		*frame;		/* escaped "Module.label", for folded */
	size_t		 framelen;
	uint32_t	 mod;
	unsigned	 kind;		/* CK_* */
	int		 recursive;	/* calls itself first */
};

struct mdef {
	const char	*name;
	const char	*unit;
	enum pdb_kind	 kind;
};

static const struct mdef ghc_metrics[] = {
	{ "ticks", "ticks", PDB_COST },
	{ "alloc", "bytes", PDB_COST },
	{ "entries", "calls", PDB_COUNT },
};
static const struct mdef clean_metrics[] = {
	{ "ticks", "ticks", PDB_COST },
	{ "words", "words", PDB_COST },
	{ "tail_returns", "calls", PDB_COUNT },
	{ "strict_calls", "calls", PDB_COUNT },
	{ "lazy_calls", "calls", PDB_COUNT },
	{ "curried_calls", "calls", PDB_COUNT },
};
static const struct mdef folded_metrics[] = {
	{ "samples", "samples", PDB_COST },
};
#define NMAXMETRICS	6

struct model {
	enum flavour	 fl;
	const struct outfmt *fmt;
	uint64_t	 seed;
	uint64_t	 target;	/* node budget */
	char		**mods;
	uint32_t	 nmod;
	struct gcc	*cc;
	uint32_t	 ncc;
	uint32_t	*cgoff;		/* callees of c: cg[cgoff[c]..cgoff[c+1]) */
	uint32_t	*cg;
	const struct mdef *metrics;
	unsigned	 nm;
	uint32_t	 maxdepth;
	char		*meta[8][2];
	size_t		 nmeta;
};

static const char *const modwords[] = {
	"Data", "Control", "Compiler", "Syntax", "Type", "Check", "Core",
	"Util", "Parser", "Lexer", "Backend", "Code", "Gen", "Opt", "Simplify",
	"Monad", "State", "Map", "Set", "IO", "Text", "Pretty", "Graph",
	"Solver", "Env", "Name", "Unique", "Rename", "Desugar", "Stg", "Cmm",
	"Asm", "Reg", "Alloc", "Linker", "Driver", "Tc", "Hs", "Expr", "Pat",
	"Bind", "Decl", "Module", "Iface", "Binary", "Stream", "Buffer",
	"Array", "Vector", "Hash", "Table", "Tree", "Heap", "Queue", "Sort",
	"Search", "Strict", "Lazy", "Internal", "Base", "Types", "Class",
	"Instance", "Foreign", "Prim", "Frontend", "Generic", "Infer", "Unify",
	"Kind", "Coercion", "Rules", "Spec", "Inline", "Occur", "Float",
	"Demand", "Cpr", "Worker", "Wrapper", "Tidy", "Prep", "Lint", "Dump"
};
#define NMODWORDS	(sizeof(modwords) / sizeof(modwords[0]))

static const char *const verbs[] = {
	"add", "apply", "build", "check", "collect", "compare", "compile",
	"convert", "decode", "emit", "encode", "eval", "expand", "find", "fold",
	"gen", "get", "insert", "lookup", "lower", "make", "match", "merge",
	"norm", "parse", "print", "push", "read", "reduce", "rename",
	"resolve", "run", "scan", "show", "simplify", "solve", "split", "step",
	"subst", "tc", "tidy", "unify", "update", "walk", "zonk", "mk", "is",
	"to", "from", "with", "map", "filter", "zip", "sum", "go", "loop"
};
#define NVERBS	(sizeof(verbs) / sizeof(verbs[0]))

static const char *const nouns[] = {
	"Alt", "App", "Arg", "Bind", "Block", "Case", "Con", "Decl", "Env",
	"Expr", "Field", "Graph", "Id", "Inst", "Lit", "Local", "Map", "Name",
	"Node", "Pat", "Rhs", "Rule", "Scope", "Sig", "Stmt", "Subst", "Tree",
	"Ty", "Type", "Var", "List", "Set", "Key", "Val", "Group", "Label",
	"Module", "Symbol", "Def", "Class", "Kind", "Co", "Tick", "Span"
};
#define NNOUNS	(sizeof(nouns) / sizeof(nouns[0]))

static const char *const suffixes[] = {
	"", "", "", "", "", "", "'", "s", "With", "M", ".go", ".loop",
	".(...)", ".aux", "_go", "1"
};
#define NSUFFIXES	(sizeof(suffixes) / sizeof(suffixes[0]))

static _Noreturn void
nomem(void)
{
	tool_warnx("out of memory");
	exit(TOOL_ERR);
}

static void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n ? n : 1)) == NULL)
		nomem();
	return p;
}

static void *
xcalloc(size_t n, size_t sz)
{
	void *p;

	if ((p = calloc(n ? n : 1, sz ? sz : 1)) == NULL)
		nomem();
	return p;
}

static void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n ? n : 1)) == NULL)
		nomem();
	return p;
}

static char *
xstrdup(const char *s)
{
	char *d;

	if ((d = strdup(s)) == NULL)
		nomem();
	return d;
}

/* A set of strings, to keep names unique. */
struct strset {
	char		**slot;
	size_t		 cap, n;
};

static uint64_t
strhash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* Add s (copied) unless present; returns whether it was added. */
static int
strset_add(struct strset *set, const char *s)
{
	size_t i, j;
	char **old;

	if ((set->n + 1) * 2 > set->cap) {
		old = set->slot;
		j = set->cap;
		set->cap = set->cap ? set->cap * 2 : 256;
		set->slot = xcalloc(set->cap, sizeof(*set->slot));
		set->n = 0;
		while (j-- > 0)
			if (old[j] != NULL) {
				for (i = strhash(old[j]) & (set->cap - 1);
				    set->slot[i] != NULL;
				    i = (i + 1) & (set->cap - 1))
					;
				set->slot[i] = old[j];
				set->n++;
			}
		free(old);
	}
	for (i = strhash(s) & (set->cap - 1); set->slot[i] != NULL;
	    i = (i + 1) & (set->cap - 1))
		if (strcmp(set->slot[i], s) == 0)
			return 0;
	set->slot[i] = xstrdup(s);
	set->n++;
	return 1;
}

static void
strset_free(struct strset *set)
{
	size_t i;

	for (i = 0; i < set->cap; i++)
		free(set->slot[i]);
	free(set->slot);
}

/* A module name of one to three components; the first module is Main. */
static char *
make_module(struct rng *r, struct strset *names, uint32_t i)
{
	char buf[128];
	unsigned n, k;

	if (i == 0) {
		strset_add(names, "Main");
		return xstrdup("Main");
	}
	for (;;) {
		n = 1 + (unsigned)uniform(r, 3);
		buf[0] = '\0';
		for (k = 0; k < n; k++) {
			if (k > 0)
				strcat(buf, ".");
			strcat(buf, modwords[uniform(r, NMODWORDS)]);
		}
		if (strset_add(names, buf))
			return xstrdup(buf);
	}
}

/*
 * A function name: verb, noun, suffix, unique within its module.  A few
 * are not ASCII, a few contain a space (GHC's SCC pragmas allow both).
 */
static char *
make_label(struct rng *r, struct strset *names, const char *mod,
    int recursive)
{
	char buf[256], key[400];
	unsigned n = 1;
	int len;

	if (recursive)
		len = snprintf(buf, sizeof(buf), "%s%s.go",
		    verbs[uniform(r, NVERBS)], nouns[uniform(r, NNOUNS)]);
	else if (chance(r, 8))
		len = snprintf(buf, sizeof(buf), "%s \xce\xbb%s",
		    verbs[uniform(r, NVERBS)], nouns[uniform(r, NNOUNS)]);
	else if (chance(r, 8))
		len = snprintf(buf, sizeof(buf), "\xc3\xbc%s%s",
		    verbs[uniform(r, NVERBS)], nouns[uniform(r, NNOUNS)]);
	else
		len = snprintf(buf, sizeof(buf), "%s%s%s",
		    verbs[uniform(r, NVERBS)], nouns[uniform(r, NNOUNS)],
		    suffixes[uniform(r, NSUFFIXES)]);
	for (;;) {
		snprintf(key, sizeof(key), "%s\x01%s", mod, buf);
		if (strset_add(names, key))
			return xstrdup(buf);
		snprintf(buf + len, sizeof(buf) - (size_t)len, "%u", ++n);
	}
}

/* A GHC source span in the module's file. */
static char *
make_src(struct rng *r, const char *mod)
{
	char buf[256], path[128], *p;
	unsigned l = 1 + (unsigned)uniform(r, 2000), c = 1 +
	    (unsigned)uniform(r, 40);

	snprintf(path, sizeof(path), "%s", mod);
	for (p = path; *p != '\0'; p++)
		if (*p == '.')
			*p = '/';
	if (chance(r, 1))
		snprintf(buf, sizeof(buf), "%s.hs:%u:%u-%u", path, l, c,
		    c + 5 + (unsigned)uniform(r, 60));
	else
		snprintf(buf, sizeof(buf), "%s.hs:(%u,%u)-(%u,%u)", path, l, c,
		    l + 1 + (unsigned)uniform(r, 40),
		    1 + (unsigned)uniform(r, 80));
	return xstrdup(buf);
}

/* "Module.label" escaped as the folded writer does. */
static void
make_frame(struct model *m, struct gcc *cc)
{
	const char *mod = m->mods[cc->mod], *s;
	size_t n = 0;
	char *f;
	int pass;

	f = xmalloc(2 * (strlen(mod) + strlen(cc->label)) + 2);
	for (pass = 0, s = mod; pass < 2; pass++, s = cc->label) {
		for (; *s != '\0'; s++) {
			switch (*s) {
			case '\\':
			case ';':
				f[n++] = '\\';
				f[n++] = *s;
				break;
			case '\n':
				f[n++] = '\\';
				f[n++] = 'n';
				break;
			case '\r':
				f[n++] = '\\';
				f[n++] = 'r';
				break;
			default:
				f[n++] = *s;
			}
		}
		if (pass == 0 && *mod != '\0')
			f[n++] = '.';
	}
	f[n] = '\0';
	cc->frame = f;
	cc->framelen = n;
}

static uint32_t
add_cc(struct model *m, const char *label, uint32_t mod, const char *src,
    unsigned kind)
{
	struct gcc *c = &m->cc[m->ncc];

	c->label = xstrdup(label);
	c->src = xstrdup(src);
	c->mod = mod;
	c->kind = kind;
	c->recursive = 0;
	return m->ncc++;
}

static void
set_meta(struct model *m, const char *k, const char *v)
{
	m->meta[m->nmeta][0] = xstrdup(k);
	m->meta[m->nmeta][1] = xstrdup(v);
	m->nmeta++;
}

static uint32_t
isqrt(uint64_t n)
{
	uint64_t x = 1;

	while ((x + 1) * (x + 1) <= n)
		x = x * 2 <= 0xffffffffULL && (x * 2) * (x * 2) <= n ? x * 2 :
		    x + 1;
	return (uint32_t)x;
}

/* The cost centres and call graph of a program for about n nodes. */
static void
model_build(struct model *m, const struct outfmt *fmt, uint64_t seed,
    uint64_t n)
{
	struct strset modnames = { 0 }, labels = { 0 };
	struct rng r;
	uint32_t nfunc, nmod, i, c, first, *pop, t, deg, k, j, maxcg;
	uint64_t x;
	char buf[128];
	static const char *const builtin_mods[] = {
		"MAIN", "SYSTEM", "GC", "PROFILING", "IDLE"
	};
	static const struct {
		const char	*label;
		uint32_t	 mod;
	} builtins[] = {
		{ "SYSTEM", 1 }, { "GC", 2 }, { "OVERHEAD_of", 3 },
		{ "DONT_CARE", 0 }, { "PINNED", 1 }, { "IDLE", 4 }
	};

	memset(m, 0, sizeof(*m));
	m->fmt = fmt;
	m->fl = fmt->fl;
	m->seed = seed;
	m->target = n;
	rng_seed(&r, seed, 1);

	x = (uint64_t)isqrt(n) * 6;
	nfunc = x < 48 ? 48 : x > 40000 ? 40000 : (uint32_t)x;
	nmod = nfunc / 16 < 6 ? 6 : nfunc / 16 > 2500 ? 2500 : nfunc / 16;

	m->mods = xcalloc(nmod + 8, sizeof(*m->mods));
	for (i = 0; i < nmod; i++)
		m->mods[i] = make_module(&r, &modnames, i);
	m->nmod = nmod;
	m->cc = xcalloc((size_t)nfunc + nmod + 16, sizeof(*m->cc));

	/* The root and the cost centres only the run-time system uses. */
	switch (m->fl) {
	case FL_CLEAN:
		m->mods[m->nmod] = xstrdup("System");
		add_cc(m, "_start", m->nmod, "", CK_ROOT);
		add_cc(m, "garbage_collector", m->nmod, "", CK_GC);
		m->nmod++;
		break;
	case FL_FOLDED:
		m->mods[m->nmod] = xstrdup("");
		add_cc(m, "(root)", m->nmod, "", CK_ROOT);
		m->nmod++;
		break;
	default:
		/* GHC's built-ins, in modules of their own. */
		for (i = 0; i < 5; i++)
			m->mods[nmod + i] = xstrdup(builtin_mods[i]);
		m->nmod += 5;
		add_cc(m, "MAIN", nmod, "<built-in>", CK_ROOT);
		for (i = 0; i < 6; i++)
			add_cc(m, builtins[i].label, nmod + builtins[i].mod,
			    "<built-in>", CK_BUILTIN);
		break;
	}
	/* GHC: a CAF per module, called from the root only. */
	if (m->fl == FL_GHC || m->fl == FL_DUMP || m->fl == FL_FOLDED)
		for (i = 0; i < nmod; i++)
			add_cc(m, "CAF", i, "<entire-module>", CK_CAF);

	/* The functions: main first, then the rest, module sizes skewed. */
	first = m->ncc;
	for (i = 0; i < nfunc; i++) {
		uint32_t mod = i == 0 ? 0 : (uint32_t)(heavy(&r, 24) %
		    (uint64_t)nmod);
		int rec = i > 0 && chance(&r, 5);
		char *label = i == 0 ? xstrdup("main") :
		    make_label(&r, &labels, m->mods[mod], rec);
		char *src = m->fl == FL_CLEAN ? xstrdup("") :
		    make_src(&r, m->mods[mod]);

		if (i == 0) {
			snprintf(buf, sizeof(buf), "Main\x01main");
			strset_add(&labels, buf);
		}
		c = add_cc(m, label, mod, src, CK_FUNC);
		m->cc[c].recursive = rec;
		free(label);
		free(src);
	}
	strset_free(&modnames);
	strset_free(&labels);

	/* Popularity: a random order of the functions, ranked by heavy(). */
	pop = xmalloc(nfunc * sizeof(*pop));
	for (i = 0; i < nfunc; i++)
		pop[i] = first + i;
	for (i = nfunc - 1; i > 0; i--) {
		j = (uint32_t)uniform(&r, (uint64_t)i + 1);
		t = pop[i];
		pop[i] = pop[j];
		pop[j] = t;
	}

	/* The call graph. */
	maxcg = 1024;
	m->cg = xmalloc(maxcg * sizeof(*m->cg));
	m->cgoff = xcalloc((size_t)m->ncc + 1, sizeof(*m->cgoff));
	k = 0;
	for (c = 0; c < m->ncc; c++) {
		struct gcc *cc = &m->cc[c];

		m->cgoff[c] = k;
		if (cc->kind == CK_ROOT) {
			/* main, the CAFs, and in Clean the collector. */
			deg = 1;
			for (i = 1; i < first; i++)
				if (m->cc[i].kind == CK_CAF ||
				    m->cc[i].kind == CK_GC)
					deg++;
		} else if (cc->kind == CK_CAF)
			deg = 1 + (uint32_t)uniform(&r, 4);
		else if (cc->kind != CK_FUNC)
			deg = 0;
		else if (c == first)
			deg = 24 + (uint32_t)uniform(&r, 24);
		else if (chance(&r, 7))
			deg = 64 + (uint32_t)uniform(&r, 448);
		else if (uniform(&r, 5) == 0)
			deg = 0;
		else
			deg = 1 + (uint32_t)uniform(&r, 3) +
			    (uint32_t)uniform(&r, 4);
		while (k + deg + 2 > maxcg) {
			maxcg *= 2;
			m->cg = xrealloc(m->cg, maxcg * sizeof(*m->cg));
		}
		if (cc->kind == CK_ROOT) {
			m->cg[k++] = first;
			for (i = 1; i < first; i++)
				if (m->cc[i].kind == CK_CAF ||
				    m->cc[i].kind == CK_GC)
					m->cg[k++] = i;
			continue;
		}
		if (cc->recursive)
			m->cg[k++] = c;
		for (i = 0; i < deg; i++) {
			uint64_t p = uniform(&r, 100);

			if (cc->kind == CK_CAF || p < 50)
				t = first + (uint32_t)(((cc->kind == CK_CAF ?
				    uniform(&r, nfunc) : c - first) + 1 +
				    heavy(&r, 7)) % nfunc);
			else if (p < 92)
				t = pop[heavy(&r, 20) % nfunc];
			else
				t = first + (uint32_t)uniform(&r, nfunc);
			if (t == first)
				continue;	/* nobody calls main */
			for (j = m->cgoff[c]; j < k && m->cg[j] != t; j++)
				;
			if (j == k)
				m->cg[k++] = t;
		}
		/* Clean: the collector runs under anything that allocates. */
		if (m->fl == FL_CLEAN && chance(&r, 2))
			m->cg[k++] = 1;
	}
	m->cgoff[m->ncc] = k;
	free(pop);

	for (c = 0; c < m->ncc; c++)
		make_frame(m, &m->cc[c]);

	switch (m->fl) {
	case FL_CLEAN:
		m->metrics = clean_metrics;
		m->nm = 6;
		m->maxdepth = UINT32_MAX;
		break;
	case FL_FOLDED:
		m->metrics = folded_metrics;
		m->nm = 1;
		m->maxdepth = UINT32_MAX;
		break;
	case FL_GHC:
		m->metrics = ghc_metrics;
		m->nm = 3;
		m->maxdepth = GHC_MAXDEPTH;
		break;
	case FL_DUMP:
		m->metrics = ghc_metrics;
		m->nm = 3;
		m->maxdepth = UINT32_MAX;
		break;
	}
	set_meta(m, "program", "synthetic");
	snprintf(buf, sizeof(buf), "ccs-gen -t %s --seed %" PRIu64
	    " --nodes %" PRIu64, fmt->name, seed, n);
	set_meta(m, "command", buf);
	if (m->fl == FL_CLEAN) {
		set_meta(m, "ticks_per_second", "1000");
		set_meta(m, "overhead_per_1000", "3");
	} else if (m->fl != FL_FOLDED)
		set_meta(m, "tick_interval_us", "1000");
}

static void
model_free(struct model *m)
{
	uint32_t i;
	size_t k;

	for (i = 0; i < m->ncc; i++) {
		free(m->cc[i].label);
		free(m->cc[i].src);
		free(m->cc[i].frame);
	}
	free(m->cc);
	for (i = 0; i < m->nmod; i++)
		free(m->mods[i]);
	free(m->mods);
	free(m->cg);
	free(m->cgoff);
	for (k = 0; k < m->nmeta; k++) {
		free(m->meta[k][0]);
		free(m->meta[k][1]);
	}
	memset(m, 0, sizeof(*m));
}

/* The flags and profiler id a cost centre gets in every route. */
static uint32_t
cc_flags(const struct model *m, uint32_t c)
{
	if (m->cc[c].kind == CK_CAF)
		return PDB_CC_CAF;
	if (m->fl == FL_FOLDED && m->cc[c].kind == CK_ROOT)
		return PDB_CC_SYNTHETIC;
	return 0;
}

static int64_t
cc_id(const struct model *m, uint32_t c)
{
	return m->fl == FL_FOLDED ? -1 : (int64_t)c + 1;
}

/* ---- generation ---- */

/* What the generator tells a writer, in pre-order. */
struct gsink {
	int	(*enter)(void *arg, uint32_t cc, const int64_t *v,
		    uint32_t nkids);
	int	(*exit)(void *arg);
	void	 *arg;
};

struct gstats {
	uint64_t	 nodes;
	uint64_t	 depthsum;
	uint64_t	 maxdepth;
};

#define CALLEES(m, c)	((m)->cgoff[(c) + 1] - (m)->cgoff[(c)])

/* A chosen child and the nodes its subtree may have. */
struct kid {
	uint32_t	 cc;
	uint64_t	 budget;
};

/* An open node: its children, and budget given back by finished ones. */
struct frame {
	uint32_t	 cc;
	uint32_t	 nk, next;
	size_t		 kidbase;
	uint64_t	 bonus;
};

/* Whether calling t from c, on top of the open frames, would not make
 * a new stack in this flavour (the profiler folds or compresses it). */
static int
folded_away(const struct model *m, const struct frame *fr, size_t sp,
    const uint32_t *onpath, uint32_t c, uint32_t t)
{
	size_t i;

	switch (m->fl) {
	case FL_GHC:
		return t == c || onpath[t] > 0;
	case FL_CLEAN:
		if (t == c)
			return 1;
		for (i = sp; i > 0 && sp - i < CLEAN_FOLD - 1; i--)
			if (fr[i - 1].cc == t)
				return 1;
		return 0;
	default:
		return 0;
	}
}

/* Log-uniform in [2^lo, 2^hi): every order of magnitude as likely. */
static int64_t
logu(struct rng *r, unsigned lo, unsigned hi)
{
	unsigned e = lo + (unsigned)uniform(r, hi - lo);
	uint64_t b = (uint64_t)1 << e;

	return (int64_t)(b + (next(r) & (b - 1)));
}

/*
 * The costs of a stack.  Ticks are sparse with a Pareto tail (a few
 * stacks get most samples); allocation and call counts span many orders
 * of magnitude, as in real profiles.
 */
static void
draw_values(const struct model *m, struct rng *r, uint32_t c, uint32_t nk,
    int64_t *v)
{
	const struct gcc *cc = &m->cc[c];
	int leaf = nk == 0, root = cc->kind == CK_ROOT;
	int64_t ticks;

	ticks = (leaf ? chance(r, 1) : chance(r, 3)) ?
	    (int64_t)heavy(r, leaf ? 16 : 12) : 0;
	switch (m->fl) {
	case FL_FOLDED:
		v[0] = root ? 0 : leaf ? (int64_t)heavy(r, 14) :
		    chance(r, 2) ? (int64_t)heavy(r, 10) : 0;
		break;
	case FL_CLEAN:
		v[0] = ticks;
		v[1] = cc->kind == CK_GC ? -logu(r, 4, 30) :
		    chance(r, 2) ? 0 : logu(r, 1, 28);
		v[2] = chance(r, 1) ? logu(r, 0, 22) : 0;
		v[3] = logu(r, 0, 24);
		v[4] = chance(r, 2) ? logu(r, 0, 18) : 0;
		v[5] = chance(r, 3) ? logu(r, 0, 14) : 0;
		if (root)
			v[2] = v[3] = v[4] = v[5] = 0;
		break;
	default:
		v[0] = ticks;
		v[1] = chance(r, 2) ? 0 : 8 * logu(r, 1, 28);
		v[2] = root || cc->kind == CK_CAF ? 0 : logu(r, 0, 24);
		break;
	}
}

/*
 * Share out budget - 1 nodes among the nk children of c: one each to
 * leaf functions, the rest to the others with heavy-tailed weights (a
 * function that calls itself first keeps 7/8 for that call: deep
 * recursion).  What no child can take is returned.
 */
static uint64_t
share_out(const struct model *m, struct rng *r, uint32_t c, struct kid *k,
    uint32_t nk, uint64_t budget)
{
	uint64_t extra = budget - 1 - nk, wsum = 0, given = 0, x;
	uint32_t i, last = UINT32_MAX;

	/* The weights first, kept in the budgets; 0 for leaves. */
	for (i = 0; i < nk; i++) {
		k[i].budget = 0;
		if (m->cgoff[k[i].cc + 1] == m->cgoff[k[i].cc])
			continue;
		k[i].budget = heavy(r, 8);
		wsum += k[i].budget;
		last = i;
	}
	/* A function calling itself first keeps 15/16 for that call. */
	if (k[0].cc == c && k[0].budget > 0 && wsum > k[0].budget) {
		wsum -= k[0].budget;
		k[0].budget = wsum * 15;
		wsum += k[0].budget;
	} else if (c != 0 && last != UINT32_MAX && k[last].budget == wsum) {
		/*
		 * A single child that could use budget keeps only part of it
		 * (15/16 if it is c again, else 7/8); the rest goes back up,
		 * so that a recursion or a chain of calls ends.
		 */
		wsum = k[last].budget * (k[last].cc == c ? 16 : 8);
		k[last].budget *= k[last].cc == c ? 15 : 7;
		last = UINT32_MAX;
	}
	for (i = 0; i < nk; i++) {
		x = 0;
		if (i == last)
			x = extra - given;
		else if (k[i].budget > 0)
			x = (uint64_t)((double)extra * (double)k[i].budget /
			    (double)wsum);
		if (x > extra - given)
			x = extra - given;
		k[i].budget = 1 + x;
		given += x;
	}
	return extra - given;
}

/*
 * Unroll the call graph from the root under the node budget, without
 * recursion: fr is the open path, kids the chosen children of every
 * open node with their budgets.  Returns 0 or what a writer returned.
 */
static int
generate(const struct model *m, const struct gsink *s, struct gstats *st)
{
	struct rng r;
	struct frame *fr = NULL, *f;
	struct kid *kids = NULL;
	uint32_t *onpath, c, nk, off, deg, want, start, i, t;
	size_t sp = 0, capfr = 0, nkid = 0, capkid = 0;
	uint64_t budget, rest;
	int64_t v[NMAXMETRICS];
	int rc = 0;

	rng_seed(&r, m->seed, 2);
	onpath = xcalloc(m->ncc, sizeof(*onpath));
	memset(st, 0, sizeof(*st));
	c = 0;
	budget = m->target;
	for (;;) {
		/* Start c: choose its children, draw its costs, enter it. */
		nk = 0;
		rest = budget - 1;
		off = m->cgoff[c];
		deg = m->cgoff[c + 1] - off;
		if (budget > 1 && sp + 1 < m->maxdepth && deg > 0) {
			/* Busy functions reach more of their callees. */
			want = m->cc[c].kind == CK_ROOT || chance(&r, 1) ||
			    budget > 64 * (uint64_t)deg ? deg :
			    1 + (uint32_t)uniform(&r, deg);
			start = m->cc[c].recursive ? 0 :
			    (uint32_t)uniform(&r, deg);
			if (nkid + deg > capkid) {
				capkid = (nkid + deg) * 2;
				kids = xrealloc(kids, capkid * sizeof(*kids));
			}
			for (i = 0; i < deg && nk < want && nk < budget - 1;
			    i++) {
				t = m->cg[off + (start + i) % deg];
				if (!folded_away(m, fr, sp, onpath, c, t))
					kids[nkid + nk++].cc = t;
			}
			/*
			 * Budget a child cannot use goes to its next
			 * sibling: make the last one the child most able to
			 * use it, the one calling most functions.
			 */
			for (i = 1, t = nk - 1; nk > 1 && i + 1 < nk; i++)
				if (CALLEES(m, kids[nkid + i].cc) >
				    CALLEES(m, kids[nkid + t].cc))
					t = i;
			if (nk > 1 && t != nk - 1) {
				uint32_t x = kids[nkid + t].cc;

				kids[nkid + t].cc = kids[nkid + nk - 1].cc;
				kids[nkid + nk - 1].cc = x;
			}
			if (nk > 0)
				rest = share_out(m, &r, c, kids + nkid, nk,
				    budget);
		}
		draw_values(m, &r, c, nk, v);
		if ((rc = s->enter(s->arg, c, v, nk)) != 0)
			goto out;
		if (sp == capfr) {
			capfr = capfr ? capfr * 2 : 256;
			fr = xrealloc(fr, capfr * sizeof(*fr));
		}
		/* What c cannot use goes to its younger siblings. */
		if (sp > 0)
			fr[sp - 1].bonus += rest;
		f = &fr[sp++];
		f->cc = c;
		f->nk = nk;
		f->next = 0;
		f->kidbase = nkid;
		f->bonus = 0;
		nkid += nk;
		onpath[c]++;
		st->nodes++;
		st->depthsum += sp - 1;
		if (sp - 1 > st->maxdepth)
			st->maxdepth = sp - 1;

		/* Close what is finished; give back what it did not use. */
		for (;;) {
			f = &fr[sp - 1];
			if (f->next < f->nk)
				break;
			if ((rc = s->exit(s->arg)) != 0)
				goto out;
			onpath[f->cc]--;
			nkid = f->kidbase;
			rest = f->bonus;
			if (--sp == 0)
				goto out;
			fr[sp - 1].bonus += rest;
		}
		/* The next child, with what its elder siblings left. */
		c = kids[f->kidbase + f->next].cc;
		budget = kids[f->kidbase + f->next].budget;
		f->next++;
		if (m->cgoff[c + 1] > m->cgoff[c]) {
			budget += f->bonus;
			f->bonus = 0;
		}
	}
out:
	free(fr);
	free(kids);
	free(onpath);
	return rc;
}

/* ---- buffered output, counting and checksumming ---- */

struct obuf {
	FILE		*f;		/* NULL: only count */
	uint64_t	 total;
	uLong		 crc;
	int		 docrc;
	size_t		 len;
	unsigned char	 buf[1 << 16];
};

static void
ob_flush(struct obuf *o)
{
	if (o->len == 0)
		return;
	if (o->docrc)
		o->crc = crc32(o->crc, o->buf, (uInt)o->len);
	if (o->f != NULL)
		fwrite(o->buf, 1, o->len, o->f);
	o->total += o->len;
	o->len = 0;
}

static void
ob_bytes(struct obuf *o, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t k;

	while (n > 0) {
		if (o->len == sizeof(o->buf))
			ob_flush(o);
		k = sizeof(o->buf) - o->len;
		if (k > n)
			k = n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

static void
ob_str(struct obuf *o, const char *s)
{
	ob_bytes(o, s, strlen(s));
}

static void
ob_byte(struct obuf *o, int c)
{
	if (o->len == sizeof(o->buf))
		ob_flush(o);
	o->buf[o->len++] = (unsigned char)c;
}

static void
ob_varint(struct obuf *o, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	do {
		b[n] = v & 0x7f;
		v >>= 7;
		if (v != 0)
			b[n] |= 0x80;
		n++;
	} while (v != 0);
	ob_bytes(o, b, n);
}

static void
ob_svarint(struct obuf *o, int64_t v)
{
	ob_varint(o, ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0));
}

static void
ob_printf(struct obuf *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
ob_printf(struct obuf *o, const char *fmt, ...)
{
	char small[512], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		ob_bytes(o, small, (size_t)n);
		return;
	}
	big = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	ob_bytes(o, big, (size_t)n);
	free(big);
}

static void
ob_dec(struct obuf *o, int64_t v)
{
	char b[24], *p = b + sizeof(b);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*--p = '-';
	ob_bytes(o, p, (size_t)(b + sizeof(b) - p));
}

/* ---- streaming writers: the library's bytes, without the tree ---- */

static const unsigned char dump_magic[12] = {
	0x89, 'C', 'C', 'S', 'D', 'U', 'M', 'P', '\r', '\n', 0x1a, '\n'
};

struct sw {
	const struct model *m;
	struct obuf	*o;
	uint64_t	 nodes;
	/* pgcl: cost-centre ids by first appearance; pass 1 fills them. */
	uint32_t	*ccid, *ccorder, nextcc;
	/* folded: the path so far, as text */
	char		*path;
	size_t		*plen, pathcap, depth, capdepth;
	/* ghc-json */
	unsigned char	*haskid;
	int64_t		 total_ticks, total_alloc;
};

static void
ob_dstr(struct obuf *o, const char *s)
{
	size_t n = strlen(s);

	ob_varint(o, n);
	ob_bytes(o, s, n);
}

static int
dump_enter(void *arg, uint32_t cc, const int64_t *v, uint32_t nkids)
{
	struct sw *w = arg;
	unsigned i;

	ob_varint(w->o, cc);
	for (i = 0; i < w->m->nm; i++)
		ob_svarint(w->o, v[i]);
	ob_varint(w->o, nkids);
	w->nodes++;
	return 0;
}

static int
no_exit(void *arg)
{
	(void)arg;
	return 0;
}

static void
write_dump(const struct model *m, struct obuf *o, struct gstats *st)
{
	struct gsink s = { dump_enter, no_exit, NULL };
	struct sw w = { 0 };
	unsigned char crc[4];
	uint32_t i;
	size_t k;

	w.m = m;
	w.o = o;
	s.arg = &w;
	o->docrc = 1;
	o->crc = crc32(0L, Z_NULL, 0);
	ob_bytes(o, dump_magic, sizeof(dump_magic));
	ob_varint(o, 1);
	ob_varint(o, m->nmeta);
	for (k = 0; k < m->nmeta; k++) {
		ob_dstr(o, m->meta[k][0]);
		ob_dstr(o, m->meta[k][1]);
	}
	ob_varint(o, m->nm);
	for (i = 0; i < m->nm; i++) {
		ob_dstr(o, m->metrics[i].name);
		ob_dstr(o, m->metrics[i].unit);
		ob_varint(o, (uint64_t)m->metrics[i].kind);
		ob_varint(o, 0);
	}
	ob_varint(o, m->nmod);
	for (i = 0; i < m->nmod; i++)
		ob_dstr(o, m->mods[i]);
	ob_varint(o, m->ncc);
	for (i = 0; i < m->ncc; i++) {
		ob_dstr(o, m->cc[i].label);
		ob_varint(o, m->cc[i].mod);
		ob_dstr(o, m->cc[i].src);
		ob_varint(o, cc_flags(m, i));
		ob_svarint(o, cc_id(m, i));
	}
	ob_varint(o, 1);
	generate(m, &s, st);
	ob_varint(o, w.nodes);
	ob_flush(o);
	o->docrc = 0;
	crc[0] = o->crc & 0xff;
	crc[1] = (o->crc >> 8) & 0xff;
	crc[2] = (o->crc >> 16) & 0xff;
	crc[3] = (o->crc >> 24) & 0xff;
	ob_bytes(o, crc, 4);
	ob_flush(o);
}

static int
pgcl_first(void *arg, uint32_t cc, const int64_t *v, uint32_t nkids)
{
	struct sw *w = arg;

	(void)v;
	(void)nkids;
	if (w->ccid[cc] == 0) {
		w->ccorder[w->nextcc] = cc;
		w->ccid[cc] = ++w->nextcc;
	}
	return 0;
}

static int
pgcl_enter(void *arg, uint32_t cc, const int64_t *v, uint32_t nkids)
{
	struct sw *w = arg;
	unsigned i;

	ob_varint(w->o, w->ccid[cc]);
	for (i = 0; i < 6; i++)
		ob_varint(w->o, (uint64_t)v[i]);
	ob_varint(w->o, nkids);
	return 0;
}

static void
ob_u32(struct obuf *o, uint32_t v)
{
	unsigned char b[4];

	b[0] = v & 0xff;
	b[1] = (v >> 8) & 0xff;
	b[2] = (v >> 16) & 0xff;
	b[3] = (v >> 24) & 0xff;
	ob_bytes(o, b, 4);
}

/* As pgcl_write(): cost centres by first appearance, modules by first
 * use, then the unused ones in table order. */
static void
write_pgcl(const struct model *m, struct obuf *o, struct gstats *st)
{
	struct gsink s = { pgcl_first, no_exit, NULL };
	struct sw w = { 0 };
	uint32_t *modid, *modorder, nextmod = 0, i, k;

	w.m = m;
	w.o = o;
	s.arg = &w;
	w.ccid = xcalloc(m->ncc, sizeof(*w.ccid));
	w.ccorder = xcalloc(m->ncc, sizeof(*w.ccorder));
	modid = xcalloc(m->nmod, sizeof(*modid));
	modorder = xcalloc(m->nmod, sizeof(*modorder));
	generate(m, &s, st);
	for (k = 0; k < m->ncc; k++)
		if (w.ccid[k] == 0) {
			w.ccorder[w.nextcc] = k;
			w.ccid[k] = ++w.nextcc;
		}
	for (i = 0; i < m->ncc; i++) {
		k = m->cc[w.ccorder[i]].mod;
		if (modid[k] == 0) {
			modorder[nextmod] = k;
			modid[k] = ++nextmod;
		}
	}
	for (k = 0; k < m->nmod; k++)
		if (modid[k] == 0) {
			modorder[nextmod] = k;
			modid[k] = ++nextmod;
		}
	ob_bytes(o, "prof", 4);
	ob_u32(o, 2);
	ob_u32(o, m->nmod);
	ob_u32(o, m->ncc);
	ob_varint(o, 1000);
	ob_varint(o, 3);
	for (i = 0; i < m->nmod; i++)
		ob_bytes(o, m->mods[modorder[i]],
		    strlen(m->mods[modorder[i]]) + 1);
	for (i = 0; i < m->ncc; i++) {
		ob_varint(o, modid[m->cc[w.ccorder[i]].mod]);
		ob_bytes(o, m->cc[w.ccorder[i]].label,
		    strlen(m->cc[w.ccorder[i]].label) + 1);
	}
	s.enter = pgcl_enter;
	generate(m, &s, st);
	ob_flush(o);
	free(w.ccid);
	free(w.ccorder);
	free(modid);
	free(modorder);
}

/* One line per stack with samples, the synthetic root left out. */
static int
folded_enter(void *arg, uint32_t cc, const int64_t *v, uint32_t nkids)
{
	struct sw *w = arg;
	const struct gcc *g = &w->m->cc[cc];
	size_t d = w->depth++, base;

	(void)nkids;
	if (d + 1 > w->capdepth) {
		w->capdepth = (d + 1) * 2;
		w->plen = xrealloc(w->plen, w->capdepth * sizeof(*w->plen));
	}
	if (d == 0) {
		w->plen[0] = 0;
		return 0;
	}
	base = d == 1 ? 0 : w->plen[d - 1] + 1;
	if (base + g->framelen + 1 > w->pathcap) {
		w->pathcap = (base + g->framelen + 1) * 2;
		w->path = xrealloc(w->path, w->pathcap);
	}
	if (d > 1)
		w->path[base - 1] = ';';
	memcpy(w->path + base, g->frame, g->framelen);
	w->plen[d] = base + g->framelen;
	if (v[0] != 0) {
		ob_bytes(w->o, w->path, w->plen[d]);
		ob_byte(w->o, ' ');
		ob_dec(w->o, v[0]);
		ob_byte(w->o, '\n');
	}
	return 0;
}

static int
folded_exit(void *arg)
{
	struct sw *w = arg;

	w->depth--;
	return 0;
}

static void
write_folded(const struct model *m, struct obuf *o, struct gstats *st)
{
	struct gsink s = { folded_enter, folded_exit, NULL };
	struct sw w = { 0 };

	w.m = m;
	w.o = o;
	s.arg = &w;
	generate(m, &s, st);
	ob_flush(o);
	free(w.path);
	free(w.plen);
}

/* A string as GHC's escapeString() writes it. */
static void
ghc_escape(struct obuf *o, const char *s)
{
	char b[8];

	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':
		case '\\':
			ob_byte(o, '\\');
			ob_byte(o, c);
			break;
		case '\b':
			ob_str(o, "\\b");
			break;
		case '\f':
			ob_str(o, "\\f");
			break;
		case '\n':
			ob_str(o, "\\n");
			break;
		case '\r':
			ob_str(o, "\\r");
			break;
		case '\t':
			ob_str(o, "\\t");
			break;
		default:
			if (c <= 0x1f) {
				snprintf(b, sizeof(b), "\\u%04x", c);
				ob_str(o, b);
			} else
				ob_byte(o, c);
		}
	}
}

static int
json_total(void *arg, uint32_t cc, const int64_t *v, uint32_t nkids)
{
	struct sw *w = arg;

	(void)cc;
	(void)nkids;
	w->total_ticks += v[0];
	w->total_alloc += v[1];
	return 0;
}

static int
json_enter(void *arg, uint32_t cc, const int64_t *v, uint32_t nkids)
{
	struct sw *w = arg;
	struct obuf *o = w->o;
	size_t d = w->depth++;

	(void)nkids;
	if (d + 1 > w->capdepth) {
		w->capdepth = (d + 1) * 2;
		w->haskid = xrealloc(w->haskid, w->capdepth);
	}
	if (d > 0) {
		if (w->haskid[d - 1])
			ob_byte(o, ',');
		w->haskid[d - 1] = 1;
	}
	w->haskid[d] = 0;
	ob_str(o, "{\"id\": ");
	ob_dec(o, cc_id(w->m, cc));
	ob_str(o, ", \"entries\": ");
	ob_dec(o, v[2]);
	ob_str(o, ", \"alloc\": ");
	ob_dec(o, v[1]);
	ob_str(o, ", \"ticks\": ");
	ob_dec(o, v[0]);
	ob_str(o, ", \"children\": [");
	return 0;
}

static int
json_exit(void *arg)
{
	struct sw *w = arg;

	w->depth--;
	ob_str(w->o, "]}\n");
	return 0;
}

/* As GHC's writeCCSReportJson(), which needs the totals first. */
static void
write_ghcjson(const struct model *m, struct obuf *o, struct gstats *st)
{
	struct gsink s = { json_total, no_exit, NULL };
	struct sw w = { 0 };
	uint32_t i;

	w.m = m;
	w.o = o;
	s.arg = &w;
	generate(m, &s, st);
	ob_str(o, "{\n\"program\": \"synthetic\",\n\"arguments\": "
	    "[\"synthetic\"],\n\"rts_arguments\": [\"-pj\"],\n\"end_time\": \""
	    GEN_DATE "\",\n\"initial_capabilities\": 0,\n");
	ob_printf(o, "\"total_time\": %11.2f,\n", (double)w.total_ticks *
	    1000.0 / 1000000.0);
	ob_printf(o, "\"total_ticks\": %" PRId64 ",\n", w.total_ticks);
	ob_str(o, "\"tick_interval\": 1000,\n");
	ob_printf(o, "\"total_alloc\":%" PRId64 ",\n", w.total_alloc);
	ob_str(o, "\"cost_centres\": [\n");
	for (i = m->ncc; i-- > 0;) {
		ob_printf(o, "%s{\"id\": %" PRId64 ", \"label\": \"",
		    i + 1 == m->ncc ? "" : ", ", cc_id(m, i));
		ghc_escape(o, m->cc[i].label);
		ob_printf(o, "\", \"module\": \"%s\", \"src_loc\": \"",
		    m->mods[m->cc[i].mod]);
		ghc_escape(o, m->cc[i].src);
		ob_printf(o, "\", \"is_caf\": %s}",
		    m->cc[i].kind == CK_CAF ? "true" : "false");
	}
	ob_str(o, "]\n,\n\"profile\": ");
	s.enter = json_enter;
	s.exit = json_exit;
	generate(m, &s, st);
	ob_str(o, "}\n");
	ob_flush(o);
	free(w.haskid);
}

/* ---- the tree route ---- */

struct tb {
	struct pdb	*db;
	uint32_t	*path;
	size_t		 depth, cap;
	unsigned	 nm;
};

static int
tb_enter(void *arg, uint32_t cc, const int64_t *v, uint32_t nkids)
{
	struct tb *b = arg;
	uint32_t n;
	int rc;

	(void)nkids;
	if (b->depth == 0)
		rc = pdb_root_new(b->db, cc, &n);
	else
		rc = pdb_node_append(b->db, b->path[b->depth - 1], cc, &n);
	if (rc != PDB_OK || (rc = pdb_node_add_values(b->db, n, v)) != PDB_OK)
		return rc;
	if (b->depth == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 256;
		b->path = xrealloc(b->path, b->cap * sizeof(*b->path));
	}
	b->path[b->depth++] = n;
	return 0;
}

static int
tb_exit(void *arg)
{
	struct tb *b = arg;

	b->depth--;
	return 0;
}

/* The model's tables and a generated tree in a new handle. */
static struct pdb *
build_tree(const struct model *m, struct gstats *st)
{
	struct gsink s = { tb_enter, tb_exit, NULL };
	struct tb b = { 0 };
	struct pdb *db = tool_pdb_new();
	uint32_t i, x;
	size_t k;
	int rc = 0;

	for (k = 0; k < m->nmeta && rc == 0; k++)
		rc = pdb_meta_set(db, m->meta[k][0], m->meta[k][1]);
	for (i = 0; i < m->nm && rc == 0; i++)
		rc = pdb_metric_add(db, m->metrics[i].name,
		    m->metrics[i].unit, m->metrics[i].kind, 0, NULL);
	for (i = 0; i < m->nmod && rc == 0; i++)
		rc = pdb_module_add(db, m->mods[i], &x);
	for (i = 0; i < m->ncc && rc == 0; i++)
		rc = pdb_cc_add(db, m->cc[i].label, m->cc[i].mod,
		    m->cc[i].src, cc_flags(m, i), cc_id(m, i), &x);
	b.db = db;
	b.nm = m->nm;
	s.arg = &b;
	if (rc == 0)
		rc = generate(m, &s, st);
	free(b.path);
	if (rc != 0) {
		tool_pdberr(db);
		exit(TOOL_ERR);
	}
	return db;
}

/* Characters of a UTF-8 string, as GHC's strlen_utf8() counts them. */
static unsigned
utf8len(const char *s)
{
	unsigned n = 0;

	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x80 || (unsigned char)*s > 0xbf)
			n++;
	return n;
}

static unsigned
ndigits(uint64_t v)
{
	unsigned n = 1;

	while (v > 9) {
		v /= 10;
		n++;
	}
	return n;
}

static void
pad(struct obuf *o, const char *s, unsigned w)
{
	unsigned n;

	ob_str(o, s);
	for (n = utf8len(s); n < w; n++)
		ob_byte(o, ' ');
}

static void
spaces(struct obuf *o, unsigned n)
{
	while (n-- > 0)
		ob_byte(o, ' ');
}

/* 1234567 as "1,234,567". */
static void
commas(char *buf, size_t len, uint64_t v)
{
	char d[32];
	size_t n, i, o = 0;

	n = (size_t)snprintf(d, sizeof(d), "%" PRIu64, v);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = d[i];
	}
	buf[o] = '\0';
}

/*
 * The text report of +RTS -P, laid out as GHC's ProfilerReport.c does:
 * the header, the cost centres above 1% sorted by ticks, then the stack
 * tree with every field padded to its widest value.
 */
static void
write_ghcprof(const struct model *m, struct pdb *db, struct obuf *o)
{
	uint32_t nn = pdb_node_count(db), n, depth, i, *order, norder = 0, j;
	int64_t *inc, *ccticks, *ccalloc, tt, ta;
	unsigned wl = 11, wm = 6, ws = 3, wi = 3, w;
	char num[40];

	inc = pdb_inclusive_new(db);
	ccticks = xcalloc(m->ncc, sizeof(*ccticks));
	ccalloc = xcalloc(m->ncc, sizeof(*ccalloc));
	order = xcalloc(m->ncc, sizeof(*order));
	if (inc == NULL)
		nomem();
	tt = inc[0];
	ta = inc[1];
	for (n = 0; n < nn; n++) {
		ccticks[pdb_node_cc(db, n)] += pdb_node_value(db, n, 0);
		ccalloc[pdb_node_cc(db, n)] += pdb_node_value(db, n, 1);
	}

	ob_str(o, "\t" GEN_DATE " Time and Allocation Profiling Report  "
	    "(Final)\n\n\t   synthetic +RTS -P -RTS\n\n");
	ob_printf(o, "\ttotal time  = %11.2f secs   (%lu ticks @ %d us, "
	    "%d processor%s)\n", (double)tt * 1000.0 / 1000000.0,
	    (unsigned long)tt, 1000, 1, "");
	commas(num, sizeof(num), (uint64_t)ta);
	ob_printf(o, "\ttotal alloc = %11s bytes  (excludes profiling "
	    "overheads)\n\n", num);

	/* The flat table: GHC walks its list newest first, ids falling. */
	for (i = m->ncc; i-- > 0;) {
		if (!(ccticks[i] > tt / 100 || ccalloc[i] / 8 > ta / 8 / 100))
			continue;
		for (j = 0; j < norder && ccticks[order[j]] >= ccticks[i]; j++)
			;
		memmove(order + j + 1, order + j, (norder - j) *
		    sizeof(*order));
		order[j] = i;
		norder++;
		if ((w = utf8len(m->cc[i].label)) > wl)
			wl = w;
		if ((w = utf8len(m->mods[m->cc[i].mod])) > wm)
			wm = w;
		if ((w = utf8len(m->cc[i].src)) > ws)
			ws = w;
	}
	pad(o, "COST CENTRE", wl);
	ob_byte(o, ' ');
	pad(o, "MODULE", wm);
	ob_byte(o, ' ');
	pad(o, "SRC", ws);
	ob_printf(o, " %6s %6s  %5s %9s\n\n", "%time", "%alloc", "ticks",
	    "bytes");
	for (j = 0; j < norder; j++) {
		i = order[j];
		if (m->cc[i].kind == CK_BUILTIN &&
		    strcmp(m->cc[i].label, "PINNED") != 0)
			continue;
		pad(o, m->cc[i].label, wl);
		ob_byte(o, ' ');
		pad(o, m->mods[m->cc[i].mod], wm);
		ob_byte(o, ' ');
		pad(o, m->cc[i].src, ws);
		ob_printf(o, " %6.1f %6.1f  %5" PRId64 " %9" PRId64 "\n",
		    tt == 0 ? 0.0 : (double)((float)ccticks[i] / (float)tt *
		    100), ta == 0 ? 0.0 : (double)((float)(ccalloc[i] / 8) /
		    (float)(ta / 8) * 100), ccticks[i], ccalloc[i]);
	}
	ob_str(o, "\n\n");

	/* The tree: its widths start again from the headers. */
	wl = 11;
	wm = 6;
	ws = 3;
	for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth)) {
		i = pdb_node_cc(db, n);
		if ((w = depth + utf8len(m->cc[i].label)) > wl)
			wl = w;
		if ((w = utf8len(m->mods[m->cc[i].mod])) > wm)
			wm = w;
		if ((w = utf8len(m->cc[i].src)) > ws)
			ws = w;
		if ((w = ndigits((uint64_t)n + 1)) > wi)
			wi = w;
	}
	spaces(o, wl);
	ob_byte(o, ' ');
	spaces(o, wm);
	ob_byte(o, ' ');
	spaces(o, ws);
	ob_byte(o, ' ');
	spaces(o, wi);
	ob_printf(o, " %11s  %12s   %12s\n", "", "individual", "inherited");
	pad(o, "COST CENTRE", wl);
	ob_byte(o, ' ');
	pad(o, "MODULE", wm);
	ob_byte(o, ' ');
	pad(o, "SRC", ws);
	ob_byte(o, ' ');
	pad(o, "no.", wi);
	ob_printf(o, " %11s  %5s %6s   %5s %6s  %5s %9s\n\n", "entries",
	    "%time", "%alloc", "%time", "%alloc", "ticks", "bytes");
	for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth)) {
		const int64_t *v = pdb_node_values(db, n);

		i = pdb_node_cc(db, n);
		spaces(o, depth);
		pad(o, m->cc[i].label, wl - depth);
		ob_byte(o, ' ');
		pad(o, m->mods[m->cc[i].mod], wm);
		ob_byte(o, ' ');
		pad(o, m->cc[i].src, ws);
		ob_printf(o, " %*" PRIu32 " %11" PRId64 "  %5.1f  %5.1f   "
		    "%5.1f  %5.1f  %5" PRId64 " %9" PRId64 "\n", (int)wi,
		    n + 1, v[2],
		    tt == 0 ? 0.0 : (double)v[0] / (double)tt * 100.0,
		    ta == 0 ? 0.0 : (double)v[1] / (double)ta * 100.0,
		    tt == 0 ? 0.0 : (double)inc[(size_t)n * 3] / (double)tt *
		    100.0,
		    ta == 0 ? 0.0 : (double)inc[(size_t)n * 3 + 1] /
		    (double)ta * 100.0, v[0], v[1]);
	}
	ob_flush(o);
	free(inc);
	free(ccticks);
	free(ccalloc);
	free(order);
}

/* ---- putting it together ---- */

/* A FILE that counts what goes through it, passing it on if it can. */
struct counter {
	FILE		*to;		/* NULL: count only */
	uint64_t	 bytes;
};

static ssize_t
count_write(void *cookie, const char *buf, size_t n)
{
	struct counter *c = cookie;

	if (c->to != NULL && fwrite(buf, 1, n, c->to) != n)
		return -1;
	c->bytes += n;
	return (ssize_t)n;
}

/*
 * Generate nodes nodes of format f from seed and write them to out, or
 * only count the bytes when out is NULL.  Returns the bytes written.
 */
static uint64_t
produce(const struct outfmt *f, uint64_t seed, uint64_t nodes, int stream,
    FILE *out, struct gstats *st, struct model *keep)
{
	static const struct pdb_opts noopts;
	static char cbuf[1 << 16];
	cookie_io_functions_t io = { NULL, count_write, NULL, NULL };
	struct obuf *o = xcalloc(1, sizeof(*o));
	struct model m;
	struct counter count = { out, 0 };
	struct pdb *db;
	uint64_t bytes;
	FILE *cf;

	model_build(&m, f, seed, nodes);
	o->f = out;
	if (f->lib != NULL && !(f->stream && (stream || nodes > TREE_MAX))) {
		db = build_tree(&m, st);
		if ((cf = fopencookie(&count, "w", io)) == NULL)
			nomem();
		/* glibc would size a buffer of its own at 8 KB. */
		setvbuf(cf, cbuf, _IOFBF, sizeof(cbuf));
		/* A write error is left on out for tool_output_close(). */
		if (pdb_write(db, cf, pdb_format_find(f->lib), &noopts) !=
		    PDB_OK && pdb_errcode(db) != PDB_EIO) {
			tool_pdberr(db);
			exit(TOOL_ERR);
		}
		pdb_free(db);
		fclose(cf);
		bytes = count.bytes;
	} else if (f->lib == NULL && !f->stream) {
		db = build_tree(&m, st);
		write_ghcprof(&m, db, o);
		pdb_free(db);
		bytes = o->total;
	} else {
		if (strcmp(f->name, "dump") == 0)
			write_dump(&m, o, st);
		else if (strcmp(f->name, "pgcl") == 0)
			write_pgcl(&m, o, st);
		else if (strcmp(f->name, "folded") == 0)
			write_folded(&m, o, st);
		else
			write_ghcjson(&m, o, st);
		bytes = o->total;
	}
	free(o);
	if (keep != NULL)
		*keep = m;
	else
		model_free(&m);
	return bytes;
}

/*
 * The node budget that gives about size bytes: generate without writing
 * at growing sample sizes and scale, the last sample being a quarter of
 * the answer (bytes per node grow slowly with the depth).
 */
static uint64_t
nodes_for(const struct outfmt *f, uint64_t seed, uint64_t size, int stream)
{
	struct gstats st;
	uint64_t n, s, bytes, cap;
	unsigned i;

	n = size / f->bpn;
	for (i = 0; i < 3; i++) {
		cap = i == 0 ? SAMPLE1 : i == 1 ? SAMPLE2 : n / 4;
		if (i == 2 && (cap <= SAMPLE2 || !f->stream))
			break;
		s = n < cap ? n : cap;
		if (s > SAMPLE3)
			s = SAMPLE3;
		if (s < 2)
			s = 2;
		bytes = produce(f, seed, s, stream, NULL, &st, NULL);
		if (bytes == 0)
			break;
		n = (uint64_t)((double)size * (double)s / (double)bytes);
		if (n <= s)
			break;
	}
	if (n < 2)
		n = 2;
	return n > MAX_NODES ? MAX_NODES : n;
}

/* A byte count with an optional suffix: k, M, G (1000s), Ki, Mi, Gi. */
static uint64_t
parse_size(const char *s)
{
	char *end;
	double v;
	uint64_t mul = 1;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || v < 0 || v != v)
		goto bad;
	if (*end != '\0') {
		int bin = end[1] == 'i';

		switch (*end) {
		case 'k':
		case 'K':
			mul = bin ? 1024ULL : 1000ULL;
			break;
		case 'M':
			mul = bin ? 1048576ULL : 1000000ULL;
			break;
		case 'G':
			mul = bin ? 1073741824ULL : 1000000000ULL;
			break;
		default:
			goto bad;
		}
		end += bin ? 2 : 1;
		if (*end == 'B')
			end++;
		if (*end != '\0')
			goto bad;
	}
	if (v * (double)mul < 1 || v * (double)mul > 1e15)
		goto bad;
	return (uint64_t)(v * (double)mul);
bad:
	tool_warnx("--size: '%s': invalid size", s);
	exit(TOOL_USAGE);
}

static const struct outfmt *
outfmt_find(const char *name)
{
	const struct outfmt *f;

	for (f = outfmts; f->name != NULL; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

/* The format -o's extension names, or NULL. */
static const struct outfmt *
outfmt_guess(const char *path)
{
	static const struct {
		const char	*ext;
		const char	*fmt;
	} exts[] = {
		{ ".pgcl", "pgcl" }, { ".ccsdump", "dump" }, { ".dump", "dump" },
		{ ".folded", "folded" }, { ".json", "json" },
		{ ".prof", "ghc-prof" }
	};
	size_t i, n = strlen(path), e;

	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		e = strlen(exts[i].ext);
		if (n > e && strcmp(path + n - e, exts[i].ext) == 0)
			return outfmt_find(exts[i].fmt);
	}
	return NULL;
}

enum {
	OPT_SIZE = OPT_TOOL_BASE,
	OPT_SEED,
	OPT_STREAM
};

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "to", required_argument, NULL, 't' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "stream", no_argument, NULL, OPT_STREAM },
		{ "verbose", no_argument, NULL, 'v' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	const struct outfmt *f = NULL;
	struct gstats st;
	struct model m;
	uint64_t nodes = 10000, size = 0, seed = 1, bytes;
	int ch, stream = 0, verbose = 0, nodes_set = 0;
	FILE *out;

	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, "hn:o:qt:v", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'h':
		case OPT_HELP:
		case OPT_VERSION:
		case 'o':
		case 'q':
			tool_common_option(&c, ch, optarg, usage, helptext);
			break;
		case 'n':
			nodes = (uint64_t)tool_strtonum("-n", optarg, 1,
			    (long long)MAX_NODES);
			nodes_set = 1;
			break;
		case 't':
			if ((f = outfmt_find(optarg)) == NULL) {
				tool_warnx("-t: unknown format '%s' (pgcl, "
				    "dump, folded, json, ghc-prof, ghc-json)",
				    optarg);
				exit(TOOL_USAGE);
			}
			break;
		case 'v':
			verbose = 1;
			break;
		case OPT_SEED:
			seed = (uint64_t)tool_strtonum("--seed", optarg, 0,
			    LLONG_MAX);
			break;
		case OPT_SIZE:
			size = parse_size(optarg);
			break;
		case OPT_STREAM:
			stream = 1;
			break;
		default:
			tool_usage(usage);
		}
	}
	if (optind != argc || (size != 0 && nodes_set))
		tool_usage(usage);
	if (f == NULL && c.outpath != NULL)
		f = outfmt_guess(c.outpath);
	if (f == NULL)
		f = outfmt_find("dump");

	if (size != 0) {
		nodes = nodes_for(f, seed, size, stream);
		tool_progress_total(size);
	}
	if ((out = tool_output_open(&c, f->binary)) == NULL) {
		tool_common_free(&c);
		return TOOL_ERR;
	}
	bytes = produce(f, seed, nodes, stream, out, &st, &m);
	if (verbose)
		fprintf(stderr, "%s: %s: %" PRIu64 " nodes, %" PRIu32
		    " cost centres in %" PRIu32 " modules, depth %" PRIu64
		    " at most and %.1f on average, %" PRIu64 " bytes\n",
		    tool_progname, f->name, st.nodes, m.ncc, m.nmod,
		    st.maxdepth, st.nodes ? (double)st.depthsum /
		    (double)st.nodes : 0.0, bytes);
	model_free(&m);
	tool_common_free(&c);
	return tool_output_close(&c, out) == 0 ? TOOL_OK : TOOL_ERR;
}
