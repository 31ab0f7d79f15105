/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Streaming writers: pgcl, the dump, folded stacks and GHC JSON written as
 * the nodes are generated, without the tree, in memory independent of the
 * profile's size.  They write the library's bytes exactly (the tests check
 * this with --stream).  A format that needs first what only the whole tree
 * tells (pgcl numbers cost centres by first appearance, GHC JSON starts
 * with the totals) generates twice: generation is deterministic and cheap.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common.h"
#include "gen.h"

static const unsigned char dump_magic[12] = {
	0x89, 'C', 'C', 'S', 'D', 'U', 'M', 'P', '\r', '\n', 0x1a, '\n'
};

struct sw {
	const struct model *m;
	struct obuf	*o;
	uint64_t	 nodes;
	/* pgcl: cost-centre ids by first appearance; pass 1 fills them. */
	uint32_t	*ccid, *ccorder, nextcc;
	/* folded: the path so far, as text; lines written */
	char		*path;
	size_t		*plen, pathcap, depth, capdepth;
	uint64_t	 lines;
	/* ghc-json */
	unsigned char	*haskid;
	int64_t		 total_ticks, total_alloc;
};

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

void
stream_dump(const struct model *m, struct obuf *o, struct gstats *st)
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

/* As pgcl_write(): cost centres by first appearance, modules by first
 * use, then the unused ones in table order. */
void
stream_pgcl(const struct model *m, struct obuf *o, struct gstats *st)
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
		w->lines++;
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

void
stream_folded(const struct model *m, struct obuf *o, struct gstats *st)
{
	struct gsink s = { folded_enter, folded_exit, NULL };
	struct sw w = { 0 };

	w.m = m;
	w.o = o;
	s.arg = &w;
	generate(m, &s, st);
	/* No stack has samples: the root's line, as the library writes it,
	 * since an empty file is no profile. */
	if (w.lines == 0)
		ob_bytes(o, "(root) 0\n", 9);
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
void
stream_ghcjson(const struct model *m, struct obuf *o, struct gstats *st)
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
