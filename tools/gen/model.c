/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The program ccs-gen profiles: modules and cost centres with made-up
 * names, and a static call graph over them, for the flavour of a format.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "gen.h"

#define GHC_MAXDEPTH	60		/* GHC flavour: a deeper stack is rare */

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
		n = 1 + (unsigned)rng_uniform(r, 3);
		buf[0] = '\0';
		for (k = 0; k < n; k++) {
			if (k > 0)
				strcat(buf, ".");
			strcat(buf, modwords[rng_uniform(r, NMODWORDS)]);
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
		    verbs[rng_uniform(r, NVERBS)], nouns[rng_uniform(r, NNOUNS)]);
	else if (rng_chance(r, 8))
		len = snprintf(buf, sizeof(buf), "%s \xce\xbb%s",
		    verbs[rng_uniform(r, NVERBS)], nouns[rng_uniform(r, NNOUNS)]);
	else if (rng_chance(r, 8))
		len = snprintf(buf, sizeof(buf), "\xc3\xbc%s%s",
		    verbs[rng_uniform(r, NVERBS)], nouns[rng_uniform(r, NNOUNS)]);
	else
		len = snprintf(buf, sizeof(buf), "%s%s%s",
		    verbs[rng_uniform(r, NVERBS)], nouns[rng_uniform(r, NNOUNS)],
		    suffixes[rng_uniform(r, NSUFFIXES)]);
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
	unsigned l = 1 + (unsigned)rng_uniform(r, 2000), c = 1 +
	    (unsigned)rng_uniform(r, 40);

	snprintf(path, sizeof(path), "%s", mod);
	for (p = path; *p != '\0'; p++)
		if (*p == '.')
			*p = '/';
	if (rng_chance(r, 1))
		snprintf(buf, sizeof(buf), "%s.hs:%u:%u-%u", path, l, c,
		    c + 5 + (unsigned)rng_uniform(r, 60));
	else
		snprintf(buf, sizeof(buf), "%s.hs:(%u,%u)-(%u,%u)", path, l, c,
		    l + 1 + (unsigned)rng_uniform(r, 40),
		    1 + (unsigned)rng_uniform(r, 80));
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
void
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
		uint32_t mod = i == 0 ? 0 : (uint32_t)(rng_heavy(&r, 24) %
		    (uint64_t)nmod);
		int rec = i > 0 && rng_chance(&r, 5);
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

	/* Popularity: a random order of the functions, ranked by rng_heavy(). */
	pop = xmalloc(nfunc * sizeof(*pop));
	for (i = 0; i < nfunc; i++)
		pop[i] = first + i;
	for (i = nfunc - 1; i > 0; i--) {
		j = (uint32_t)rng_uniform(&r, (uint64_t)i + 1);
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
			deg = 1 + (uint32_t)rng_uniform(&r, 4);
		else if (cc->kind != CK_FUNC)
			deg = 0;
		else if (c == first)
			deg = 24 + (uint32_t)rng_uniform(&r, 24);
		else if (rng_chance(&r, 7))
			deg = 64 + (uint32_t)rng_uniform(&r, 448);
		else if (rng_uniform(&r, 5) == 0)
			deg = 0;
		else
			deg = 1 + (uint32_t)rng_uniform(&r, 3) +
			    (uint32_t)rng_uniform(&r, 4);
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
			uint64_t p = rng_uniform(&r, 100);

			if (cc->kind == CK_CAF || p < 50)
				t = first + (uint32_t)(((cc->kind == CK_CAF ?
				    rng_uniform(&r, nfunc) : c - first) + 1 +
				    rng_heavy(&r, 7)) % nfunc);
			else if (p < 92)
				t = pop[rng_heavy(&r, 20) % nfunc];
			else
				t = first + (uint32_t)rng_uniform(&r, nfunc);
			if (t == first)
				continue;	/* nobody calls main */
			for (j = m->cgoff[c]; j < k && m->cg[j] != t; j++)
				;
			if (j == k)
				m->cg[k++] = t;
		}
		/* Clean: the collector runs under anything that allocates. */
		if (m->fl == FL_CLEAN && rng_chance(&r, 2))
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

void
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
uint32_t
cc_flags(const struct model *m, uint32_t c)
{
	if (m->cc[c].kind == CK_CAF)
		return PDB_CC_CAF;
	if (m->fl == FL_FOLDED && m->cc[c].kind == CK_ROOT)
		return PDB_CC_SYNTHETIC;
	return 0;
}

int64_t
cc_id(const struct model *m, uint32_t c)
{
	return m->fl == FL_FOLDED ? -1 : (int64_t)c + 1;
}
