/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Whole operations: open an input, pick its format, stream it to a sink
 * or build its tree; write a tree in a format.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats_int.h"

#define PROBE_BYTES	4096

/*
 * Readers call begin and end themselves, but a sink must see exactly one
 * begin before the first enter and one end after a good read whatever the
 * reader does; this wrapper makes sure.
 */
struct guard {
	const struct pdb_sink	*inner;
	struct pdb_sink		 sink;
	int			 begun, ended;
	struct pdb_input	*in;
	int			 binary;	/* the format is binary */
	/* The handle's error as the read began, to tell whether the read
	 * set one (errors are not reset by a success). */
	int			 code0;
	char			*msg0;
};

/* Whether no error of this read is on the handle: none, or still the
 * one it had as the read began. */
static int
no_error_yet(const struct guard *g, struct pdb *db)
{
	if (pdb_errcode(db) == PDB_OK)
		return 1;
	return pdb_errcode(db) == g->code0 && g->msg0 != NULL &&
	    strcmp(pdb_errmsg(db), g->msg0) == 0;
}

/*
 * A sink's error (a second root, a 64-bit overflow) knows nothing of the
 * file: name it, with where the reader is, unless the message does.
 */
static int
locate(const struct guard *g, struct pdb *db, int rc)
{
	const struct pdb_input *in = g->in;
	char msg[512];
	size_t n;

	if (rc == 0 || rc == PDB_ESTOP)
		return rc;
	/* A sink of the caller's may stop without a message. */
	if (no_error_yet(g, db) && rc == PDB_ENOMEM)
		pdb_seterr(db, rc, "out of memory");
	else if (no_error_yet(g, db))
		pdb_seterr(db, rc, "stopped by the sink (%d)", rc);
	/* "NAME: " or "NAME:LINE: " begins a message that says where. */
	if (rc == PDB_ENOMEM || in == NULL ||
	    (strncmp(pdb_errmsg(db), in->name, n = strlen(in->name)) == 0 &&
	    pdb_errmsg(db)[n] == ':'))
		return rc;
	snprintf(msg, sizeof(msg), "%s", pdb_errmsg(db));
	if (g->binary)
		return pdb_seterr(db, rc, "%s: byte %llu: %s", in->name,
		    (unsigned long long)pdb_in_offset(in), msg);
	if (in->line > 0)
		return pdb_seterr(db, rc, "%s:%llu: %s", in->name,
		    (unsigned long long)in->line, msg);
	return pdb_seterr(db, rc, "%s: %s", in->name, msg);
}

/*
 * Once begun, the reader's events go straight to the inner sink: the
 * guard's enter and exit cost an extra call per node, a good part of a
 * streaming analysis.  Readers call through the sink each time and skip
 * a NULL begin or end, so pointing the sink the reader holds at the
 * inner one, with begin and end gone (read_stream() ends it), keeps
 * every promise of the guard; read_stream() locates the sink's errors.
 */
static int
g_begin(void *arg, struct pdb *db)
{
	struct guard *g = arg;
	int rc;

	if (g->begun)
		return 0;
	g->begun = 1;
	if (g->inner->begin != NULL &&
	    (rc = locate(g, db, g->inner->begin(g->inner->arg, db))) != 0)
		return rc;
	g->sink.enter = g->inner->enter;
	g->sink.exit = g->inner->exit;
	g->sink.nodes = g->inner->nodes;
	g->sink.columns = g->inner->columns;
	g->sink.arg = g->inner->arg;
	g->sink.begin = NULL;
	g->sink.end = NULL;
	return 0;
}

static int
g_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *v)
{
	struct guard *g = arg;
	int rc;

	if (!g->begun && (rc = g_begin(g, db)) != 0)
		return rc;
	if ((rc = g->inner->enter(g->inner->arg, db, cc, v)) != 0)
		return locate(g, db, rc);
	return 0;
}

/* The reader locates a batch's error itself: only it knows which node
 * failed.  read_stream() then names the file. */
static int
g_nodes(void *arg, struct pdb *db, const struct pdb_batch *b, size_t *done)
{
	struct guard *g = arg;
	int rc;

	*done = 0;
	if (!g->begun && (rc = g_begin(g, db)) != 0)
		return rc;
	return g->inner->nodes(g->inner->arg, db, b, done);
}

static int
g_exit(void *arg, struct pdb *db)
{
	struct guard *g = arg;
	int rc;

	if ((rc = g->inner->exit(g->inner->arg, db)) != 0)
		return locate(g, db, rc);
	return 0;
}

static int
g_end(void *arg, struct pdb *db)
{
	struct guard *g = arg;
	int rc;

	if (g->ended)
		return 0;
	if (!g->begun && (rc = g_begin(g, db)) != 0)
		return rc;
	g->ended = 1;
	return g->inner->end ? locate(g, db,
	    g->inner->end(g->inner->arg, db)) : 0;
}

/*
 * A format error in gzip input may come of damaged gzip data, which
 * inflates to bytes the reader cannot parse and which only the CRC at
 * the member's end shows.  Read on to that end, and when the gzip data
 * is damaged say so first: it is what to mend.  The reader's own error
 * (in db, code rc) is kept otherwise.
 */
static int
gzip_verdict(struct pdb_input *in, struct pdb *db, int rc)
{
	char first[512], damage[512];
	long have;

	if (rc != PDB_EFORMAT || in->gz == NULL || in->err != 0)
		return rc;	/* not the reader's error, or not gzip */
	snprintf(first, sizeof(first), "%s", pdb_errmsg(db));
	do
		in->pos = in->len;
	while ((have = pdb_in_fill(in, 1)) > 0);
	if (have == 0 || pdb_in_seterr(in, db) != PDB_EFORMAT)
		return pdb_seterr(db, rc, "%s", first);
	snprintf(damage, sizeof(damage), "%s", pdb_errmsg(db));
	return pdb_seterr(db, rc, "%s; before it: %s", damage, first);
}

/* Read path, telling the builder b (if any) the format once known. */
static int
read_stream(struct pdb *db, const char *path, const struct pdb_format *fmt,
    const struct pdb_opts *opts, const struct pdb_sink *sink,
    const struct pdb_format **used, struct pdb_builder *b)
{
	static const struct pdb_opts noopts;
	struct pdb_input *in;
	struct guard g;
	long have;
	int rc;

	/* A reader adds to the handle: a second profile would be mixed
	 * with the first. */
	if (pdb_node_count(db) > 0 || pdb_cc_count(db) > 0 ||
	    pdb_metric_count(db) > 0 || pdb_module_count(db) > 0)
		return pdb_seterr(db, PDB_EINVAL, "%s: the handle already "
		    "holds a profile: read into a new one (pdb_new())",
		    strcmp(path, "-") == 0 ? "<stdin>" : path);
	if ((in = pdb_in_open(db, path)) == NULL)
		return pdb_errcode(db);
	if (opts != NULL) {
		in->progress = opts->progress;
		in->progress_arg = opts->progress_arg;
	}
	/* A damaged gzip stream fails at the bytes inflated so far. */
	if ((have = pdb_in_fill(in, PROBE_BYTES)) < 0) {
		rc = pdb_in_seterr(in, db);
		goto out;
	}
	/*
	 * A byte order mark, as Windows editors write before UTF-8 text,
	 * is no part of the text: kept, it made the first folded frame
	 * another name.  The binary formats never start with it.
	 */
	if (have >= 3 && memcmp(in->buf + in->pos, "\xef\xbb\xbf", 3) == 0 &&
	    (fmt == NULL || !(fmt->flags & PDB_FMT_BINARY))) {
		in->pos += 3;
		have -= 3;
	}
	if (fmt == NULL) {
		/* The fill may have read more: a probe scans no further. */
		fmt = pdb_format_probe(in->buf + in->pos,
		    have < PROBE_BYTES ? (size_t)have : PROBE_BYTES);
		if (fmt == NULL) {
			rc = pdb_seterr(db, PDB_EFORMAT, have == 0 ?
			    "%s: empty file" : "%s: not a profile in any "
			    "known format (see ccs-formats(5))", in->name);
			goto out;
		}
	} else if (fmt->read == NULL) {
		rc = pdb_seterr(db, PDB_EUNSUPP, "%s: format '%s' cannot be read",
		    in->name, fmt->name);
		goto out;
	}
	if (used)
		*used = fmt;
	if (b != NULL)
		pdb_builder_set_mode(b, fmt->build);
	memset(&g, 0, sizeof(g));
	g.inner = sink;
	g.sink.begin = g_begin;
	g.sink.enter = g_enter;
	g.sink.exit = g_exit;
	g.sink.end = g_end;
	g.sink.nodes = sink->nodes != NULL ? g_nodes : NULL;
	g.sink.arg = &g;
	g.in = in;
	g.binary = (fmt->flags & PDB_FMT_BINARY) != 0;
	if ((g.code0 = pdb_errcode(db)) != PDB_OK)
		g.msg0 = strdup(pdb_errmsg(db));
	rc = fmt->read(in, db, &g.sink, opts ? opts : &noopts);
	if (rc == PDB_OK)
		rc = g_end(&g, db);
	else
		rc = gzip_verdict(in, db, locate(&g, db, rc));
	free(g.msg0);
	/*
	 * Only a Clean profile states its overhead, and only its reader
	 * compensates (PDB_FMT_COMPENSATE); any other input, a dump of one
	 * too, is read as it is.  Say so, or "ccs-select ... x.pgcl |
	 * ccs-flat --compensate" silently differs from "ccs-flat
	 * --compensate ... x.pgcl".  A dump of compensated ticks needs no
	 * word.
	 */
	if (rc == PDB_OK && opts != NULL &&
	    (opts->flags & PDB_OPT_COMPENSATE) &&
	    !(fmt->flags & PDB_FMT_COMPENSATE) &&
	    !pdb_ticks_compensated(db, PDB_NONE))
		pdb_warn(db, "%s: --compensate applies to Clean profiles "
		    "only; this is %s: not compensated", in->name, fmt->name);
out:
	pdb_in_close(in);
	return rc;
}

int
pdb_read_stream(struct pdb *db, const char *path, const struct pdb_format *fmt,
    const struct pdb_opts *opts, const struct pdb_sink *sink,
    const struct pdb_format **used)
{
	return read_stream(db, path, fmt, opts, sink, used, NULL);
}

int
pdb_read_tree(struct pdb *db, const char *path, const struct pdb_format *fmt,
    const struct pdb_opts *opts, const struct pdb_format **used)
{
	struct pdb_builder *b;
	int rc;

	if ((b = pdb_builder_new(db, PDB_BUILD_RAW)) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	rc = read_stream(db, path, fmt, opts, pdb_builder_sink(b), used, b);
	pdb_builder_free(b);
	if (rc == PDB_OK && pdb_node_count(db) == 0)
		rc = pdb_seterr(db, PDB_EFORMAT, "%s: no stacks in profile",
		    strcmp(path, "-") == 0 ? "<stdin>" : path);
	return rc;
}

int
pdb_meta_u64(const struct pdb *db, const char *key, uint64_t *v)
{
	const char *s = pdb_meta_get(db, key);
	char *end;
	unsigned long long n;

	*v = 0;
	if (s == NULL || *s < '0' || *s > '9')
		return 0;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return 0;
	*v = n;
	return 1;
}

int
pdb_ticks_compensated(const struct pdb *db, unsigned m)
{
	const char *c = pdb_meta_get(db, "compensated");

	if (c == NULL || strcmp(c, "yes") != 0)
		return 0;
	return m == PDB_NONE || strcmp(pdb_metric(db, m)->name, "ticks") == 0;
}

const char *
pdb_metric_qualifiers(const struct pdb *db, unsigned m)
{
	int approx = (pdb_metric(db, m)->flags & PDB_METRIC_APPROX) != 0;

	if (!pdb_ticks_compensated(db, m))
		return approx ? " (approximate)" : "";
	return approx ? " (approximate) (compensated for profiling overhead)" :
	    " (compensated for profiling overhead)";
}

int
pdb_write(struct pdb *db, FILE *out, const struct pdb_format *fmt,
    const struct pdb_opts *opts)
{
	static const struct pdb_opts noopts;
	int rc;

	/* pdb_format_find() of a name it does not know. */
	if (fmt == NULL)
		return pdb_seterr(db, PDB_EINVAL, "no format to write");
	if (fmt->write == NULL)
		return pdb_seterr(db, PDB_EUNSUPP, "format '%s' cannot be written",
		    fmt->name);
	if (pdb_node_count(db) == 0)
		return pdb_seterr(db, PDB_EINVAL, "nothing to write: empty profile");
	if ((rc = fmt->write(db, out, opts ? opts : &noopts)) != PDB_OK)
		return rc;
	/* What stdio still holds is written too, so that PDB_OK means the
	 * whole profile reached the file. */
	if (fflush(out) != 0)
		return pdb_seterr(db, PDB_EIO, "write error: %s",
		    strerror(errno));
	return PDB_OK;
}

int
pdb_write_rows(struct pdb *db, struct pdb_rows *r, const struct pdb_opts *opts)
{
	if (opts != NULL && (opts->flags & PDB_OPT_TAKE) != 0)
		return pdb_rows_take(db, r);
	return pdb_rows_init(db, r);
}

int
pdb_batcher_init(struct pdb_batcher *bt, unsigned nm)
{
	bt->n = 0;
	bt->nm = nm;
	bt->skip = 0;
	bt->raw = malloc((size_t)PDB_BATCH_MAX * ((size_t)nm + 2) *
	    sizeof(*bt->raw));
	return bt->raw != NULL ? 0 : -1;
}

void
pdb_batcher_columns(struct pdb_batcher *bt, struct pdb *db,
    const struct pdb_sink *sink)
{
	uint64_t want;
	unsigned m;

	bt->skip = 0;
	if (sink->columns == NULL)
		return;
	want = sink->columns(sink->arg, db);
	/* Slots 1 to 31 of a node; pdb_varints_pext() takes 16. */
	for (m = 0; m < bt->nm && m < 31; m++)
		if (!(want >> m & 1))
			bt->skip |= PDB_SKIP(m);
}

void
pdb_batcher_free(struct pdb_batcher *bt)
{
	free(bt->raw);
	bt->raw = NULL;
}

int
pdb_batcher_flush(struct pdb_batcher *bt, struct pdb_input *in,
    struct pdb *db, const struct pdb_sink *sink, size_t start)
{
	struct pdb_batch b;
	const unsigned char *p;
	uint64_t v;
	size_t done = 0, i;
	unsigned j;
	int rc;

	if (bt->n == 0)
		return 0;
	b.n = bt->n;
	b.cc = bt->cc;
	b.values = (const int64_t *)bt->raw + 1;
	b.stride = (size_t)bt->nm + 2;
	b.exits = bt->exits;
	bt->n = 0;
	if ((rc = sink->nodes(sink->arg, db, &b, &done)) == 0)
		return 0;
	/* The nodes are sound and still buffered: decode them again. */
	if (done >= b.n)
		done = b.n - 1;
	p = in->buf + start;
	for (i = 0; i <= done; i++)
		for (j = 0; j < bt->nm + 2; j++)
			(void)pdb_varint_dec(&p, &v);
	in->pos = (size_t)(p - in->buf);
	return rc;
}

#ifdef PDB_HAVE_PEXT
/* By leading zeros z: 64 - z significant bits (at least 1), 7 a byte;
 * from z = 7 on a value needs more than 8 bytes, which the table's
 * users never give it. */
#define SHAPE_LEN(z)	((z) >= 8 ? (63 - (z)) / 7 + 1 : 8)
#define SHAPE(z)	{ 0x8080808080808080ULL &			\
	((1ULL << (8 * (SHAPE_LEN(z) - 1))) - 1), SHAPE_LEN(z) }
#define SHAPES8(z)	SHAPE(z), SHAPE((z) + 1), SHAPE((z) + 2),		\
	SHAPE((z) + 3), SHAPE((z) + 4), SHAPE((z) + 5), SHAPE((z) + 6),	\
	SHAPE((z) + 7)
const struct pdb_varint_shape pdb_varint_shapes[64] = {
	SHAPES8(0), SHAPES8(8), SHAPES8(16), SHAPES8(24), SHAPES8(32),
	SHAPES8(40), SHAPES8(48), SHAPES8(56)
};
#undef SHAPES8
#undef SHAPE
#undef SHAPE_LEN
#endif

int
pdb_levels_grow(struct pdb_level **lv, size_t *cap, struct pdb *db)
{
	struct pdb_level *nl;

	if ((nl = realloc(*lv, 2 * *cap * sizeof(*nl))) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	*lv = nl;
	*cap *= 2;
	return 0;
}
