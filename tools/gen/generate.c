/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The stack tree: the call graph unrolled from the root under a node
 * budget, told to a writer node by node in pre-order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "gen.h"

#define CLEAN_FOLD	7		/* pgcl: recursion folded within 7 frames */
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

	ticks = (leaf ? rng_chance(r, 1) : rng_chance(r, 3)) ?
	    (int64_t)rng_heavy(r, leaf ? 16 : 12) : 0;
	switch (m->fl) {
	case FL_FOLDED:
		v[0] = root ? 0 : leaf ? (int64_t)rng_heavy(r, 14) :
		    rng_chance(r, 2) ? (int64_t)rng_heavy(r, 10) : 0;
		break;
	case FL_CLEAN:
		v[0] = ticks;
		v[1] = cc->kind == CK_GC ? -rng_logu(r, 4, 30) :
		    rng_chance(r, 2) ? 0 : rng_logu(r, 1, 28);
		v[2] = rng_chance(r, 1) ? rng_logu(r, 0, 22) : 0;
		v[3] = rng_logu(r, 0, 24);
		v[4] = rng_chance(r, 2) ? rng_logu(r, 0, 18) : 0;
		v[5] = rng_chance(r, 3) ? rng_logu(r, 0, 14) : 0;
		if (root)
			v[2] = v[3] = v[4] = v[5] = 0;
		break;
	default:
		v[0] = ticks;
		v[1] = rng_chance(r, 2) ? 0 : 8 * rng_logu(r, 1, 28);
		v[2] = root || cc->kind == CK_CAF ? 0 : rng_logu(r, 0, 24);
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
		k[i].budget = rng_heavy(r, 8);
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
int
generate(const struct model *m, const struct gsink *s, struct gstats *st)
{
	struct rng r;
	struct frame *fr = NULL, *f;
	struct kid *kids = NULL;
	uint32_t *onpath, c, nk, off, deg, want, start, i, t;
	size_t sp = 0, capfr = 0, nkid = 0, capkid = 0;
	uint64_t budget, rest;
	int64_t v[NMAXMETRICS];
	/* Clean's words allocated so far less those collected. */
	int64_t live = 0;
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
			want = m->cc[c].kind == CK_ROOT || rng_chance(&r, 1) ||
			    budget > 64 * (uint64_t)deg ? deg :
			    1 + (uint32_t)rng_uniform(&r, deg);
			start = m->cc[c].recursive ? 0 :
			    (uint32_t)rng_uniform(&r, deg);
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
		if (m->fl == FL_CLEAN) {
			/*
			 * A collection gives back words allocated before it,
			 * in pre-order, and keeps some of them live: so the
			 * total of a profile is never negative, as a real
			 * one's is not.
			 */
			if (m->cc[c].kind == CK_GC && -v[1] > live - live / 8)
				v[1] = -(live - live / 8);
			live += v[1];
		}
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
