/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * GHC's text report (+RTS -P) of a generated tree, which has no library
 * writer: ccstools reads the format but never writes it.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "gen.h"

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
void
ghcprof_write(const struct model *m, struct pdb *db, struct obuf *o)
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
