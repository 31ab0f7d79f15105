/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * one profile per cost metric, whose frames are cost centres, and that
 * shows each stack with a positive own cost, weighted by that cost.  A
 * "sampled" profile lists those stacks, frames root first: the smaller
 * file while stacks are shallow, but as large as the sum of their
 * depths.  An "evented" profile opens and closes frames as the tree is
 * walked: some 70 bytes a stack, whatever its depth.  Each profile is
 * written in the form that its estimated size says is the smaller, but
 * for stacks deeper than speedscope can read as events, while it could
 * read them as samples.  speedscope cannot show negative weights
 * (Clean's garbage collector "allocates" negative words): those stacks
 * are left out with a warning.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "formats_int.h"
#include "jsonlib.h"

/*
 * A JSON string of s, whose bytes that are not UTF-8 are written \xNN,
 * so that two such names stay two; NULL only when out of memory.
 */
static json_t *
utf8_string(const char *s)
{
	json_t *j;
	char *t;

	if (pdb_utf8_string(s))
		return json_string(s);
	if ((t = pdb_utf8_escape(s)) == NULL)
		return NULL;
	j = json_string(t);
	free(t);
	return j;
}

/*
 * The place of a frame from its source location: the file part, line and
 * column of a GHC location; none from GHC's "<built-in>" and the like; the
 * whole location otherwise.
 */
static int
set_place(json_t *f, const char *src)
{
	uint64_t line, col;
	size_t flen;
	char *file;
	int rc;

	if (pdb_src_split(src, &flen, &line, &col)) {
		if ((file = strndup(src, flen)) == NULL)
			return -1;
		rc = json_object_set_new(f, "file", utf8_string(file)) != 0 ||
		    json_object_set_new(f, "line",
		    json_integer((json_int_t)line)) != 0 || (col > 0 &&
		    json_object_set_new(f, "col",
		    json_integer((json_int_t)col)) != 0);
		free(file);
		return rc ? -1 : 0;
	}
	if (*src == '\0' || *src == '<')
		return 0;
	return json_object_set_new(f, "file", utf8_string(src));
}

/*
 * A frame: cost centre i.  NULL only when out of memory, never for a
 * name: a frame left out would number the frames after it wrong.
 */
static json_t *
frame_of(struct pdb *db, uint32_t i)
{
	struct pdb_cc cc;
	json_t *f;

	pdb_cc(db, i, &cc);
	if ((f = json_object()) == NULL)
		return NULL;
	if (json_object_set_new(f, "name",
	    utf8_string(pdb_cc_fullname(db, i))) != 0 ||
	    set_place(f, cc.src) != 0) {
		json_decref(f);
		return NULL;
	}
	return f;
}

/*
 * What a metric's profile needs before its stacks: its total (past
 * 2^63 - 1 only as a double: speedscope reads numbers as doubles), how
 * many stacks are left out for a negative cost, and what its frames
 * take as samples (each stack's frames, as digits and a comma each) and
 * as events (the frames opened, each once, the same way).
 */
struct sums {
	int64_t		 total;
	double		 dtotal;
	int		 big;
	uint64_t	 negative;
	uint64_t	 stacks;
	uint64_t	 sample_bytes;
	uint64_t	 opens;
	uint64_t	 open_bytes;
	uint32_t	 deepest;
};

/*
 * speedscope sorts the call tree of an evented profile recursively, and
 * Chromium's stack ends ("Maximum call stack size exceeded") somewhere
 * between 6,000 and 8,000 frames deep: deeper profiles stay samples,
 * unless those would pass what speedscope can read at all, a string of
 * 2^29 - 24 characters in Chromium.
 */
#define EVENTS_DEPTH_MAX	4000
#define SAMPLES_BYTES_MAX	((uint64_t)1 << 29)

/* The number of decimal digits of v. */
static unsigned
digits(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* The sums of metric m; -1 when out of memory. */
static int
sums_of(const struct pdb *db, unsigned m, int skip, struct sums *s)
{
	uint32_t n, depth, base = skip ? 1 : 0, open = 0;
	uint64_t *frame_bytes = NULL;	/* of the path down to a depth */
	size_t cap = 0;
	int64_t v;

	memset(s, 0, sizeof(*s));
	for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth)) {
		if (pdb_buf_reserve(&frame_bytes, &cap,
		    ((size_t)depth + 1) * sizeof(*frame_bytes))) {
			free(frame_bytes);
			return -1;
		}
		frame_bytes[depth] = (depth > base ? frame_bytes[depth - 1] :
		    0) + digits(pdb_node_cc(db, n)) + 1;
		if (base + open > depth)
			open = depth > base ? depth - base : 0;
		v = pdb_node_value(db, n, m);
		if (v < 0)
			s->negative++;
		if (v <= 0)
			continue;
		s->stacks++;
		s->sample_bytes += frame_bytes[depth];
		if (depth + 1 - base > s->deepest)	/* frames */
			s->deepest = depth + 1 - base;
		if (depth < base) {
			s->opens++;
			s->open_bytes += frame_bytes[depth];
		} else {
			s->opens += depth + 1 - base - open;
			s->open_bytes += frame_bytes[depth] -
			    (open > 0 ? frame_bytes[base + open - 1] : 0);
			open = depth + 1 - base;
		}
		/* v > 0 and total >= 0 */
		if (s->total > INT64_MAX - v)
			s->big = 1;
		else
			s->total += v;
		s->dtotal += (double)v;
	}
	free(frame_bytes);
	return 0;
}

/*
 * Write j as Jansson writes it inside the document, and free it.
 * Returns -1 when out of memory: j is NULL, or Jansson failed.  Here and
 * below, a failed write shows in ferror(out), checked once at the end.
 */
static int
put_json(FILE *out, json_t *j)
{
	int rc;

	if (j == NULL)
		return -1;
	/* Failing without a write error, Jansson ran out of memory. */
	pdb_json_watch();
	rc = json_dumpf(j, out, JSON_COMPACT | JSON_PRESERVE_ORDER |
	    JSON_ENCODE_ANY);
	json_decref(j);
	return pdb_json_failed() || (rc != 0 && !ferror(out)) ? -1 : 0;
}

/*
 * The samples (pass 0: "[root,...,top]", frames being cost centres) or
 * the weights (pass 1) of metric m, comma-separated, written as they
 * are walked: a document of the whole tree would take some 40 bytes a
 * frame of every stack.  The path is kept as the walk goes.  Returns
 * -1 when out of memory.
 */
static int
put_samples(FILE *out, const struct pdb *db, unsigned m, int skip, int pass,
    int64_t scale)
{
	uint32_t n, depth, *path = NULL, d;
	size_t cap = 0, lcap = 0;
	char *line = NULL, *p;
	int64_t v;
	int first = 1, rc = 0;

	for (n = pdb_walk_first(db, &depth); n != PDB_NONE && !ferror(out);
	    n = pdb_walk_next(db, n, &depth)) {
		if (pdb_buf_reserve(&path, &cap,
		    ((size_t)depth + 1) * sizeof(*path)) ||
		    pdb_buf_reserve(&line, &lcap, ((size_t)depth + 2) * 24)) {
			rc = -1;
			break;
		}
		path[depth] = pdb_node_cc(db, n);
		v = pdb_node_value(db, n, m);
		if (v <= 0)
			continue;
		p = line;
		if (!first)
			*p++ = ',';
		first = 0;
		if (pass == 1)
			p = pdb_put_decimal(p, v * scale);
		else {
			/* Root first; a synthetic root is no frame, but
			 * for the cost left on it, where it is the only
			 * one, as in ccs-flat. */
			*p++ = '[';
			for (d = skip && depth > 0 ? 1 : 0; d <= depth; d++) {
				p = pdb_put_decimal(p, path[d]);
				*p++ = d < depth ? ',' : ']';
			}
		}
		fwrite(line, 1, (size_t)(p - line), out);
	}
	free(path);
	free(line);
	return rc;
}

/*
 * Where a profile's events are: the frames open (the path's first
 * "open" cost centres, "base" on) and the value reached, which fits in
 * 53 bits (events_chosen()).
 */
struct events {
	FILE		*out;
	uint32_t	*path;
	size_t		 pathcap;
	uint32_t	 open;
	int64_t		 at;
	int		 first;
	char		 line[64];
};

/* One event: type 'O' or 'C' of frame cc at the value reached. */
static void
put_event(struct events *e, char type, uint32_t cc)
{
	static const char head[] = "{\"type\":\"O\",\"frame\":";
	char *p = e->line;

	if (!e->first)
		*p++ = ',';
	e->first = 0;
	memcpy(p, head, sizeof(head) - 1);
	p[9] = type;
	p += sizeof(head) - 1;
	p = pdb_put_decimal(p, cc);
	memcpy(p, ",\"at\":", 6);
	p = pdb_put_decimal(p + 6, e->at);
	*p++ = '}';
	fwrite(e->line, 1, (size_t)(p - e->line), e->out);
}

/*
 * The events of metric m, written as the tree is walked: a frame opens
 * when the first stack through it with a positive own cost is reached,
 * which then runs for that cost, and closes when the walk leaves it.
 * So a subtree without such a stack has no events, and the file grows
 * with the nodes, not with their depth.  A node's own cost comes before
 * its children's, and the frames are root first; a synthetic root is no
 * frame but for the cost left on it, where it is the only one, as in
 * ccs-flat.  Returns -1 when out of memory.
 */
static int
put_events(FILE *out, const struct pdb *db, unsigned m, int skip,
    int64_t scale)
{
	struct events e = { .out = out, .first = 1 };
	uint32_t n, depth, base = skip ? 1 : 0;
	int64_t v;
	int rc = 0;

	for (n = pdb_walk_first(db, &depth); n != PDB_NONE && !ferror(out);
	    n = pdb_walk_next(db, n, &depth)) {
		/* Frames at this depth and deeper are off the path. */
		for (; e.open > 0 && base + e.open > depth; e.open--)
			put_event(&e, 'C', e.path[base + e.open - 1]);
		if (pdb_buf_reserve(&e.path, &e.pathcap,
		    ((size_t)depth + 1) * sizeof(*e.path))) {
			rc = -1;
			break;
		}
		e.path[depth] = pdb_node_cc(db, n);
		if ((v = pdb_node_value(db, n, m)) <= 0)
			continue;
		if (depth < base) {
			/* The synthetic root, first of the walk. */
			put_event(&e, 'O', e.path[0]);
			e.at += v * scale;
			put_event(&e, 'C', e.path[0]);
			continue;
		}
		for (; base + e.open <= depth; e.open++)
			put_event(&e, 'O', e.path[base + e.open]);
		e.at += v * scale;
	}
	for (; e.open > 0 && !rc; e.open--)
		put_event(&e, 'C', e.path[base + e.open - 1]);
	free(e.path);
	return rc;
}

/*
 * The nanoseconds of a tick of metric mt, when the profile says how long
 * a tick is (GHC's tick interval, Clean's ticks per second), so that
 * speedscope shows time rather than bare counts; 0 when it does not, or
 * a tick is no whole number of nanoseconds.
 */
static int64_t
tick_ns(const struct pdb *db, const struct pdb_metric *mt)
{
	uint64_t v;

	if (strcmp(mt->unit, "ticks") != 0)
		return 0;
	if (pdb_meta_u64(db, "tick_interval_us", &v) && v > 0)
		return v <= INT64_MAX / 1000 ? (int64_t)v * 1000 : 0;
	if (pdb_meta_u64(db, "ticks_per_second", &v) && v > 0 &&
	    1000000000 % v == 0)
		return (int64_t)(1000000000 / v);
	return 0;
}

/*
 * Is a profile to be written as events: the smaller form, exact as
 * speedscope reads it, and not too deep for speedscope where samples
 * are not too large for it?  Samples take their frames and, per stack, a
 * bracket, two commas and a weight; events take 28 bytes, a frame and a
 * value for each frame opened or closed.  Values are taken to be as
 * long as the total.
 */
static int
events_chosen(const struct sums *s, int64_t scale)
{
	uint64_t end, samples;

	/* Events are running totals, which speedscope reads as doubles:
	 * past 2^53 they would merge stacks of small cost. */
	if (s->big || s->total * scale > ((int64_t)1 << 53))
		return 0;
	end = digits((uint64_t)(s->total * scale));
	samples = s->sample_bytes + s->stacks * (3 + end);
	if (s->deepest > EVENTS_DEPTH_MAX && samples < SAMPLES_BYTES_MAX)
		return 0;
	return 2 * (s->opens * (28 + end) + s->open_bytes) < samples;
}

/* One metric's profile.  Returns -1 when out of memory. */
static int
put_profile(FILE *out, struct pdb *db, unsigned m, int skip)
{
	const struct pdb_metric *mt = pdb_metric(db, m);
	struct sums s;
	int64_t scale;
	int nomem = 0, evented;

	if (sums_of(db, m, skip, &s) != 0)
		return -1;
	/* Every weight is at most the total, which must fit scaled. */
	scale = tick_ns(db, mt);
	if (scale == 0 || s.big || s.total > INT64_MAX / scale)
		scale = 1;
	if (s.negative > 0)
		pdb_warn(db, "speedscope: %" PRIu64 " stacks with negative "
		    "%s left out", s.negative, mt->name);
	evented = events_chosen(&s, scale);
	fputs(evented ? "{\"type\":\"evented\",\"name\":" :
	    "{\"type\":\"sampled\",\"name\":", out);
	nomem |= put_json(out, utf8_string(mt->name));
	fputs(",\"unit\":", out);
	nomem |= put_json(out, json_string(scale > 1 ? "nanoseconds" :
	    strcmp(mt->unit, "bytes") == 0 ? "bytes" : "none"));
	fputs(",\"startValue\":0,\"endValue\":", out);
	nomem |= put_json(out, s.big ? json_real(s.dtotal) :
	    json_integer(s.total * scale));
	if (evented) {
		fputs(",\"events\":[", out);
		nomem |= put_events(out, db, m, skip, scale);
	} else {
		fputs(",\"samples\":[", out);
		nomem |= put_samples(out, db, m, skip, 0, scale);
		fputs("],\"weights\":[", out);
		nomem |= put_samples(out, db, m, skip, 1, scale);
	}
	fputs("]}", out);
	return nomem;
}

/*
 * The document, in the order Jansson wrote it whole (JSON_COMPACT,
 * JSON_PRESERVE_ORDER): the frames and the strings through Jansson, the
 * samples and weights, which are only numbers, streamed.
 */
static int
speedscope_write(struct pdb *db, FILE *out, const struct pdb_opts *opts)
{
	const char *prog = pdb_meta_get(db, "program");
	unsigned m;
	uint32_t i;
	int skip, nomem = 0, any = 0;

	(void)opts;
	skip = (pdb_cc_flags(db, pdb_node_cc(db, 0)) & PDB_CC_SYNTHETIC) != 0;
	fputs("{\"$schema\":\"https://www.speedscope.app/"
	    "file-format-schema.json\",\"shared\":{\"frames\":[", out);
	/* A frame at a time: a Jansson array of them all takes 1 KB each. */
	for (i = 0; i < pdb_cc_count(db) && !nomem && !ferror(out); i++) {
		if (i > 0)
			putc(',', out);
		nomem |= put_json(out, frame_of(db, i));
	}
	fputs("]},\"profiles\":[", out);
	for (m = 0; m < pdb_metric_count(db) && !nomem; m++) {
		if (pdb_metric(db, m)->kind != PDB_COST)
			continue;
		if (any++)
			putc(',', out);
		nomem |= put_profile(out, db, m, skip);
	}
	fputs("],\"name\":", out);
	/* A program name that is not UTF-8 is left out, as no name. */
	nomem |= put_json(out, json_string(prog != NULL && pdb_utf8_string(prog) ?
	    prog : "profile"));
	fputs(",\"activeProfileIndex\":0,\"exporter\":\"ccstools\"}\n",
	    out);
	if (nomem)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	if (ferror(out))
		return pdb_seterr(db, PDB_EIO, "write error");
	return PDB_OK;
}

const struct pdb_format pdb_fmt_speedscope = {
	.abi = PDB_FORMAT_ABI,
	.name = "speedscope",
	.desc = "speedscope file format (one profile per metric)",
	.exts = ".speedscope.json",
	.flags = PDB_FMT_WRITE,
	.build = PDB_BUILD_RAW,
	.write = speedscope_write,
};
