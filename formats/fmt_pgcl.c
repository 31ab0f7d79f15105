/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Clean callgraph profile (.pgcl), versions 1 and 2: the binary file a
 * Clean program compiled with -pg writes when it ends.  This module reads
 * it as a stream of enter/exit events and writes a profile tree back in
 * the same form, so that a file Clean made survives pgcl -> pgcl (and
 * pgcl -> dump -> pgcl) byte for byte.
 *
 * The layout, from the Clean notes and the run-time system's writer
 * (profile_graph.c, c_write_profile_information):
 *
 *	"prof"				magic
 *	u32 version			little-endian; 1 or 2
 *	u32 #modules, u32 #cost centres	little-endian
 *	varint ticks per second		version 2 only
 *	varint overhead per 1000 calls	version 2 only
 *	#modules NUL-terminated names	may repeat: keyed by position
 *	#cost centres: varint module id (1-based), NUL-terminated name
 *	the call-graph tree in pre-order, from the root System._start:
 *	    varint cost centre id (1-based), ticks, words,
 *	    [tail calls and returns], strict calls, lazy calls,
 *	    curried calls, number of children; then the children
 *
 * Varints are little-endian groups of 7 bits, the top bit meaning "more",
 * at most 10 bytes.  Words can be negative (the garbage collector gives
 * words back) and are stored wrapped to 64 bits, so every value is read
 * as an int64.  Nothing follows the tree.
 *
 * Version 1 has two node layouts.  The run-time system first wrote six
 * fields per node (id, ticks, words, strict, lazy, curried calls), then
 * seven, adding "tail calls and returns" after words; both say version 1
 * and the header does not tell them apart.  So a version 1 tree is read
 * into memory and parsed dry with seven fields, then with six; the layout
 * whose tree ends exactly at the end of the file wins (seven if both do,
 * with a warning).  Version 2 always has seven and is streamed.
 *
 * Overhead compensation (--compensate) follows the Clean notes: every
 * profiling hook call costs overhead/1000 ticks, and entries and exits
 * both count.  A node's entries are its strict, lazy and curried calls
 * (the hooks profile_s, profile_n and profile_l) and its exits its "tail
 * calls and returns" (profile_t and profile_r), so a node loses
 * overhead * (tail_returns + strict + lazy + curried) / 1000 ticks,
 * rounded down and floored at 0.  Only version 2 states the overhead.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats_int.h"

#define PGCL_MAGIC	"prof"
#define PGCL_LOOKAHEAD	((size_t)1 << 20)	/* child count check */
#define NODE_MAX	((size_t)8 * 10)	/* 8 varints of 10 bytes */

/* The node fields after the cost-centre id, in file order. */
enum {
	F_TICKS,
	F_WORDS,
	F_TAIL,
	F_STRICT,
	F_LAZY,
	F_CURRIED,
	NFIELDS
};

static const struct {
	const char	*name;
	const char	*unit;
	enum pdb_kind	 kind;
} fields[NFIELDS] = {
	{ "ticks", "ticks", PDB_COST },
	{ "words", "words", PDB_COST },
	{ "tail_returns", "calls", PDB_COUNT },
	{ "strict_calls", "calls", PDB_COUNT },
	{ "lazy_calls", "calls", PDB_COUNT },
	{ "curried_calls", "calls", PDB_COUNT },
};

/* What a tree parse needs to know. */
struct tree {
	struct pdb		*db;
	const struct pdb_sink	*sink;		/* NULL: a dry run */
	int			 layout;	/* 6 or 7 fields per node */
	uint32_t		 ncc;		/* cost centres in file */
	uint32_t		 ccbase;	/* db index of cost centre 1 */
	int			 metric[NFIELDS]; /* db index, or -1 */
	int			 compensate;
	uint64_t		 overhead;	/* ticks per 1000 hooks */
	const char		*ctx;		/* ends messages */
};

static int	 pgcl_probe(const unsigned char *, size_t);
static int	 pgcl_read(struct pdb_input *, struct pdb *,
		    const struct pdb_sink *, const struct pdb_opts *);
static int	 pgcl_write(struct pdb *, FILE *, const struct pdb_opts *);

static int	 read_u32(struct pdb_input *, struct pdb *, uint32_t *);
static int	 read_tree(struct pdb_input *, const struct tree *,
		    uint64_t *);
static void	 compensate(const struct tree *, uint64_t *);
static int	 read_v1_tree(struct pdb_input *, struct tree *);
static int	 add_schema(struct tree *);
static int	 room_for(struct pdb_input *, uint64_t);
static uint64_t	 overhead_ticks(uint64_t, uint64_t);
static void	 put_u32(FILE *, uint32_t);

const struct pdb_format pdb_fmt_pgcl = {
	.abi = PDB_FORMAT_ABI,
	.name = "pgcl",
	.desc = "Clean callgraph profile (.pgcl), versions 1 and 2",
	.exts = ".pgcl",
	.flags = PDB_FMT_READ | PDB_FMT_WRITE | PDB_FMT_BINARY |
	    PDB_FMT_COMPENSATE,
	.build = PDB_BUILD_RAW,
	.probe = pgcl_probe,
	.read = pgcl_read,
	.write = pgcl_write,
};

static int
pgcl_probe(const unsigned char *head, size_t len)
{
	size_t i;

	if (len < 4 || memcmp(head, PGCL_MAGIC, 4) != 0)
		return 0;
	if (len < 8)
		return 50;
	if ((head[4] == 1 || head[4] == 2) && head[5] == 0 && head[6] == 0 &&
	    head[7] == 0)
		return 100;
	/*
	 * Another version: still bid when the input is binary, so that the
	 * reader can say "unsupported version" instead of the input being
	 * taken for text that begins with "prof".  The version field may
	 * be bytes of Latin-1 text (0xffffffff is "\xff\xff\xff\xff"), but
	 * no text has a NUL, and the counts after the header have some.
	 */
	for (i = 4; i < 8; i++)
		if (head[i] < 0x09 || (head[i] > 0x0d && head[i] < 0x20))
			return 60;
	if (memchr(head + 8, '\0', len - 8) != NULL)
		return 60;
	return 0;
}

/* Read a little-endian 32-bit header field. */
static int
read_u32(struct pdb_input *in, struct pdb *db, uint32_t *v)
{
	uint32_t r = 0;
	int c, i;

	for (i = 0; i < 4; i++) {
		if ((c = pdb_in_getc(in)) < 0)
			return pdb_in_failed(in, db, "header");
		r |= (uint32_t)c << (8 * i);
	}
	*v = r;
	return 0;
}

/*
 * Whether need more bytes can still follow; -1 on a read error.  When
 * the rest of the input is buffered this is exact; otherwise we look
 * ahead at most PGCL_LOOKAHEAD bytes, and a count that fits that far is
 * left to the truncation check.
 */
static int
room_for(struct pdb_input *in, uint64_t need)
{
	size_t want;
	long got;

	if (in->len - in->pos >= need)
		return 1;
	if (in->eof)
		return 0;
	want = need < PGCL_LOOKAHEAD ? (size_t)need : PGCL_LOOKAHEAD;
	if ((got = pdb_in_fill(in, want)) < 0)
		return -1;
	return (size_t)got >= want;
}

/*
 * pdb_in_varint() for the tree, without its per-byte checks while ten
 * bytes are buffered; anything unusual takes the careful path, which
 * reports it.  Returns 0 or -1 with the error set.
 */
static inline int
node_varint(struct pdb_input *in, struct pdb *db, uint64_t *vp)
{
	const unsigned char *p = in->buf + in->pos;

	if (in->len - in->pos >= 10 && pdb_varint_dec(&p, vp) == 0) {
		in->pos = (size_t)(p - in->buf);
		return 0;
	}
	return pdb_in_varint(in, db, vp, "node");
}

/* overhead * hooks / 1000, rounded down, saturating. */
static uint64_t
overhead_ticks(uint64_t per1000, uint64_t hooks)
{
	uint64_t q = per1000 / 1000, r = per1000 % 1000, a, b;

	if (hooks != 0 && q > UINT64_MAX / hooks)
		return UINT64_MAX;
	a = q * hooks;
	b = hooks / 1000 * r + hooks % 1000 * r / 1000;
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Subtract the profiling overhead from f[F_TICKS] (see the top). */
static void
compensate(const struct tree *t, uint64_t *f)
{
	uint64_t hooks, sub;
	int k;

	if ((int64_t)f[F_TICKS] <= 0)
		return;
	hooks = f[F_STRICT];
	for (k = F_LAZY; k <= F_CURRIED; k++)
		hooks = hooks > UINT64_MAX - f[k] ? UINT64_MAX : hooks + f[k];
	hooks = hooks > UINT64_MAX - f[F_TAIL] ? UINT64_MAX : hooks + f[F_TAIL];
	sub = overhead_ticks(t->overhead, hooks);
	f[F_TICKS] = f[F_TICKS] > sub ? f[F_TICKS] - sub : 0;
}

/* The open levels of the tree (formats_int.h). */
struct stack {
	struct pdb_level *lv;
	size_t		 n, cap;
};

/*
 * The hot loop for a sink that takes batches: decode nodes straight into
 * the batch while each is surely buffered, with its children's bytes,
 * and sound, with the exits that follow each.  Stops, with the batch
 * flushed, at the end of the tree or at a node for the careful path in
 * read_tree().  The fields after the id are the metrics in file order
 * (read_tree() checks).  Inlined once per node decoder and (for the
 * loops over the fields to unroll) layout: nv is bt->nm.
 */
static inline __attribute__((always_inline)) int
fill_batch(struct pdb_input *in, const struct tree *t, struct pdb_batcher *bt,
    struct stack *st, pdb_varints_fn *dec, const unsigned nv)
{
	const unsigned char *buf = in->buf, *end = buf + in->len, *p, *q;
	struct pdb_level *lv = st->lv;
	uint64_t *x, e;
	size_t depth = st->n, n = 0, start = in->pos;
	uint32_t ncc = t->ncc, ccbase = t->ccbase;
	int rc = 0;

	if (in->len - in->pos < NODE_MAX)
		return pdb_batcher_flush(bt, in, t->db, t->sink, start);
	end -= NODE_MAX;
	p = buf + in->pos;
	while (lv[depth - 1].rem > 0 && p <= end) {
		/*
		 * The id, the metrics, the child count, in place.  A child
		 * takes at least layout + 1 bytes: the careful path checks
		 * a count that 8 bytes each would not fit in the buffer.
		 */
		x = bt->raw + n * (nv + 2);
		q = p;
		if (dec(&q, x, nv + 2, 0, bt->skip) != 0 || x[0] - 1 >= ncc ||
		    x[nv + 1] > (uint64_t)(end + NODE_MAX - q) / 8)
			break;
		p = q;
		if (depth == st->cap) {
			st->n = depth;
			rc = pdb_levels_grow(&st->lv, &st->cap, t->db);
			if (rc != 0)
				break;
			lv = st->lv;
		}
		if (t->compensate)
			compensate(t, x + 1);
		pdb_level_child(&lv[depth - 1], depth == 1);
		e = pdb_level_push(&lv[depth - 1], x[nv + 1]);
		depth += 1 - e;
		bt->cc[n] = ccbase + (uint32_t)(x[0] - 1);
		bt->exits[n] = e;
		if (++n == PDB_BATCH_MAX) {
			bt->n = n;
			n = 0;
			in->pos = (size_t)(p - buf);
			if ((rc = pdb_batcher_flush(bt, in, t->db, t->sink,
			    start)) != 0)
				return rc;
			start = in->pos;
		}
	}
	bt->n = n;
	st->n = depth;
	in->pos = (size_t)(p - buf);
	if (rc == 0)
		rc = pdb_batcher_flush(bt, in, t->db, t->sink, start);
	return rc;
}

typedef int	 fill_fn(struct pdb_input *, const struct tree *,
		    struct pdb_batcher *, struct stack *);

static int
fill_plain(struct pdb_input *in, const struct tree *t, struct pdb_batcher *bt,
    struct stack *st)
{
	return fill_batch(in, t, bt, st, pdb_varints_dec, bt->nm);
}

#ifdef PDB_HAVE_PEXT
static __attribute__((target("bmi,bmi2"))) int
fill_pext(struct pdb_input *in, const struct tree *t, struct pdb_batcher *bt,
    struct stack *st)
{
	if (t->layout == 7)
		return fill_batch(in, t, bt, st, pdb_varints_pext, 6);
	return fill_batch(in, t, bt, st, pdb_varints_pext, 5);
}
#endif

/*
 * Parse the call-graph tree from in, streaming it to t->sink (or only
 * checking it, when t->sink is NULL), with an explicit stack of
 * remaining-children counters: the depth is the file's to choose.
 * *stopped (may be NULL) gets the offset reached.
 */
static int
read_tree(struct pdb_input *in, const struct tree *t, uint64_t *stopped)
{
	struct pdb *db = t->db;
	struct pdb_batcher bt;
	struct stack st;
	fill_fn *fill = NULL;
	uint64_t f[NFIELDS], id, nch, off, e;
	int64_t *vals = NULL;
	unsigned nm = pdb_metric_count(db);
	int rc = PDB_OK, k;

	bt.raw = NULL;
	st.lv = NULL;
	st.cap = 64;
	if ((vals = calloc(nm ? nm : 1, sizeof(*vals))) == NULL ||
	    (st.lv = malloc(st.cap * sizeof(*st.lv))) == NULL) {
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		goto out;
	}
	/*
	 * Batches when the sink takes them and the fields after the id are
	 * the metrics in order, as add_schema() makes them on a new handle.
	 */
	if (t->sink != NULL && t->sink->nodes != NULL &&
	    nm == (unsigned)t->layout - 1 &&
	    (!t->compensate || t->layout == 7)) {
		fill = fill_plain;
#ifdef PDB_HAVE_PEXT
		if (pdb_cpu_pext())
			fill = fill_pext;
#endif
		for (k = 0; k < NFIELDS; k++)
			if (t->metric[k] >= 0 && t->metric[k] !=
			    (k > F_TAIL && t->layout == 6 ? k - 1 : k))
				fill = NULL;
		if (fill != NULL && pdb_batcher_init(&bt, nm) != 0) {
			rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
			goto out;
		}
		/* Compensating reads the call counts, wanted or not. */
		if (fill != NULL && !t->compensate)
			pdb_batcher_columns(&bt, db, t->sink);
	}
	/* The virtual level: exactly one root remains to be read. */
	st.lv[0].rem = 1;
	st.lv[0].run = 0;
	st.n = 1;
	for (;;) {
		if (fill != NULL && (rc = fill(in, t, &bt, &st)) != 0)
			goto out;
		if (st.lv[st.n - 1].rem == 0)
			break;		/* the root has closed */

		/*
		 * A whole version 2 node at once while it is surely
		 * buffered, and its children's bytes are too; anything else
		 * (a short buffer, a bad varint or id) takes the careful
		 * path below, which reports it.
		 */
		if (t->layout == 7 && in->len - in->pos >= NODE_MAX) {
			const unsigned char *p = in->buf + in->pos;
			int bad = pdb_varint_dec(&p, &id) || id == 0 ||
			    id > t->ncc;

			for (k = 0; k < NFIELDS && !bad; k++)
				bad = pdb_varint_dec(&p, &f[k]);
			if (!bad && pdb_varint_dec(&p, &nch) == 0 &&
			    (nch == 0 || (nch <= (uint64_t)(in->buf + in->len -
			    p) / 8 && nch * 8 <= (uint64_t)(in->buf + in->len -
			    p)))) {
				in->pos = (size_t)(p - in->buf);
				goto node;
			}
		}
		off = pdb_in_offset(in);
		if (node_varint(in, db, &id) < 0)
			goto fail;
		if (id == 0 || id > t->ncc) {
			pdb_seterr(db, PDB_EFORMAT, "%s: byte %llu: cost "
			    "centre id %llu out of range (%lu cost centres)%s",
			    in->name, (unsigned long long)off,
			    (unsigned long long)id, (unsigned long)t->ncc,
			    t->ctx);
			goto fail;
		}
		f[F_TAIL] = 0;
		for (k = 0; k < NFIELDS; k++) {
			if (k == F_TAIL && t->layout == 6)
				continue;
			if (node_varint(in, db, &f[k]) < 0)
				goto fail;
		}
		off = pdb_in_offset(in);
		if (node_varint(in, db, &nch) < 0)
			goto fail;
		if (nch > 0 && ((k = room_for(in, nch > UINT64_MAX /
		    (unsigned)(t->layout + 1) ? UINT64_MAX :
		    nch * (unsigned)(t->layout + 1))) <= 0)) {
			if (k < 0) {
				pdb_in_seterr(in, db);
				goto fail;
			}
			pdb_seterr(db, PDB_EFORMAT, "%s: byte %llu: child "
			    "count %llu exceeds what the file can hold%s",
			    in->name, (unsigned long long)off,
			    (unsigned long long)nch, t->ctx);
			goto fail;
		}
node:
		if (t->sink != NULL) {
			if (t->compensate)
				compensate(t, f);
			for (k = 0; k < NFIELDS; k++)
				if (t->metric[k] >= 0)
					vals[t->metric[k]] = (int64_t)f[k];
			rc = t->sink->enter(t->sink->arg, db,
			    t->ccbase + (uint32_t)(id - 1), vals);
			if (rc != 0)
				goto out;
		}
		if (st.n == st.cap &&
		    (rc = pdb_levels_grow(&st.lv, &st.cap, db)) != 0)
			goto out;
		pdb_level_child(&st.lv[st.n - 1], st.n == 1);
		e = pdb_level_push(&st.lv[st.n - 1], nch);
		st.n++;
		for (; e > 0; e--) {
			st.n--;
			if (t->sink != NULL &&
			    (rc = t->sink->exit(t->sink->arg, db)) != 0)
				goto out;
		}
	}

	off = pdb_in_offset(in);
	if (pdb_in_getc(in) >= 0) {
		pdb_seterr(db, PDB_EFORMAT, "%s: byte %llu: trailing bytes "
		    "after the call-graph tree%s", in->name,
		    (unsigned long long)off, t->ctx);
		goto fail;
	}
	if (in->err) {
		pdb_in_seterr(in, db);
		goto fail;
	}
	goto out;
fail:
	rc = pdb_errcode(db) ? pdb_errcode(db) : PDB_EFORMAT;
out:
	if (stopped != NULL)
		*stopped = pdb_in_offset(in);
	free(st.lv);
	free(vals);
	pdb_batcher_free(&bt);
	return rc;
}

/* Add the schema for t->layout and note each field's metric index. */
static int
add_schema(struct tree *t)
{
	unsigned idx;
	int k, rc;

	for (k = 0; k < NFIELDS; k++) {
		t->metric[k] = -1;
		if (k == F_TAIL && t->layout == 6)
			continue;
		if ((rc = pdb_metric_add(t->db, fields[k].name, fields[k].unit,
		    fields[k].kind, 0, &idx)) != PDB_OK)
			return rc;
		t->metric[k] = (int)idx;
	}
	return PDB_OK;
}

/*
 * Version 1: buffer the tree, find the layout by parsing it dry with 7
 * and then 6 fields per node, then stream it for real.
 */
static int
read_v1_tree(struct pdb_input *in, struct tree *t)
{
	struct pdb_input mem;
	struct pdb *db = t->db;
	const struct pdb_sink *sink = t->sink;
	char *data = NULL, *err7 = NULL, *err0 = NULL;
	size_t len;
	uint64_t at7 = 0, at6 = 0;
	int rc, rc7, rc6, code0 = pdb_errcode(db);

	memset(&mem, 0, sizeof(mem));
	mem.base = pdb_in_offset(in);
	if (pdb_in_slurp(in, db, &data, &len) < 0)
		return pdb_errcode(db);
	/*
	 * A memory input over the buffered tree: with eof set, the input
	 * helpers never read past buf[len].
	 */
	mem.name = in->name;
	mem.buf = (unsigned char *)data;
	mem.len = mem.cap = len;
	mem.pos = 0;
	mem.line = 0;
	mem.eof = 1;
	mem.err = 0;
	mem.gz = NULL;
	mem.fd = -1;
	mem.size = 0;
	mem.progress = NULL;
	mem.progress_arg = NULL;

	/* The handle's error before the dry runs, which set their own. */
	if (code0 != PDB_OK && (err0 = strdup(pdb_errmsg(db))) == NULL) {
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		goto out;
	}
	t->sink = NULL;
	t->layout = 7;
	t->ctx = " (version 1, 7 fields per node)";
	rc7 = read_tree(&mem, t, &at7);
	if (rc7 != PDB_OK && (err7 = strdup(pdb_errmsg(db))) == NULL) {
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		goto out;
	}
	mem.pos = 0;
	t->layout = 6;
	t->ctx = " (version 1, 6 fields per node)";
	rc6 = read_tree(&mem, t, &at6);
	mem.pos = 0;
	t->ctx = "";
	t->sink = sink;
	if (rc7 == PDB_ENOMEM || rc6 == PDB_ENOMEM) {
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		goto out;
	}

	if (rc7 == PDB_OK && rc6 == PDB_OK) {
		pdb_warn(db, "%s: version 1 tree parses with both 6 and 7 "
		    "fields per node: assuming 7", in->name);
		t->layout = 7;
	} else if (rc7 == PDB_OK)
		t->layout = 7;
	else if (rc6 == PDB_OK)
		t->layout = 6;
	else {
		/* Neither: report the layout that got further. */
		rc = at7 >= at6 ? pdb_seterr(db, rc7, "%s", err7) : rc6;
		goto out;
	}
	/* Forget the error of the layout that failed: the handle's is as
	 * it was (libprofdb(3): errors are not reset by a success). */
	pdb_seterr(db, code0, "%s", err0 != NULL ? err0 : "no error");
	if ((rc = pdb_meta_set(db, "pgcl_layout",
	    t->layout == 7 ? "7" : "6")) != PDB_OK ||
	    (rc = add_schema(t)) != PDB_OK ||
	    (sink->begin != NULL && (rc = sink->begin(sink->arg, db)) != 0))
		goto out;
	rc = read_tree(&mem, t, NULL);
out:
	free(err7);
	free(err0);
	free(data);
	return rc;
}

static int
pgcl_read(struct pdb_input *in, struct pdb *db, const struct pdb_sink *sink,
    const struct pdb_opts *opts)
{
	struct tree t;
	uint32_t version, nmod, ncc, i, mbase = 0, mi;
	uint64_t tps = 0, overhead = 0, mod, off;
	char *s, buf[32];
	size_t len;
	int c, rc;

	(void)pdb_in_map(in);
	/* Magic: a mismatch is "not pgcl", a short file is "truncated". */
	for (i = 0; i < 4; i++) {
		if ((c = pdb_in_getc(in)) < 0)
			break;
		if (c != PGCL_MAGIC[i])
			return pdb_seterr(db, PDB_EFORMAT,
			    "%s: byte 0: not a pgcl file: bad magic", in->name);
	}
	if (i < 4)
		return pdb_in_failed(in, db, "header");
	if ((rc = read_u32(in, db, &version)) != 0)
		return rc;
	if (version != 1 && version != 2)
		return pdb_seterr(db, PDB_EUNSUPP,
		    "%s: byte 4: unsupported pgcl version %lu", in->name,
		    (unsigned long)version);
	if ((rc = read_u32(in, db, &nmod)) != 0 ||
	    (rc = read_u32(in, db, &ncc)) != 0)
		return rc;
	if (version >= 2 &&
	    (pdb_in_varint(in, db, &tps, "header") < 0 ||
	    pdb_in_varint(in, db, &overhead, "header") < 0))
		return pdb_errcode(db);

	memset(&t, 0, sizeof(t));
	t.db = db;
	t.sink = sink;
	t.layout = 7;
	t.ncc = ncc;
	t.overhead = overhead;
	t.ctx = "";

	/* Modules: one entry each, even when a name repeats. */
	for (i = 0; i < nmod; i++) {
		if (pdb_in_cstring(in, db, &s, &len, "module table") < 0)
			return pdb_errcode(db);
		if ((rc = pdb_module_add(db, s, &mi)) != PDB_OK)
			return rc;
		if (i == 0)
			mbase = mi;
	}
	for (i = 0; i < ncc; i++) {
		off = pdb_in_offset(in);
		if (pdb_in_varint(in, db, &mod, "cost-centre table") < 0)
			return pdb_errcode(db);
		if (mod == 0 || mod > nmod)
			return pdb_seterr(db, PDB_EFORMAT, "%s: byte %llu: "
			    "module id %llu out of range (%lu modules)",
			    in->name, (unsigned long long)off,
			    (unsigned long long)mod, (unsigned long)nmod);
		if (pdb_in_cstring(in, db, &s, &len, "cost-centre table") < 0)
			return pdb_errcode(db);
		if ((rc = pdb_cc_add(db, s, mbase + (uint32_t)(mod - 1), "",
		    0, (int64_t)i + 1, &mi)) != PDB_OK)
			return rc;
		if (i == 0)
			t.ccbase = mi;
	}

	/* Metadata. */
	snprintf(buf, sizeof(buf), "%lu", (unsigned long)version);
	if ((rc = pdb_meta_set(db, "source_format", "pgcl")) != PDB_OK ||
	    (rc = pdb_meta_set(db, "pgcl_version", buf)) != PDB_OK)
		return rc;
	if (version >= 2) {
		snprintf(buf, sizeof(buf), "%" PRIu64, tps);
		if ((rc = pdb_meta_set(db, "ticks_per_second", buf)) != PDB_OK)
			return rc;
		snprintf(buf, sizeof(buf), "%" PRIu64, overhead);
		if ((rc = pdb_meta_set(db, "overhead_per_1000", buf)) !=
		    PDB_OK ||
		    (rc = pdb_meta_set(db, "pgcl_layout", "7")) != PDB_OK)
			return rc;
	}
	if (opts != NULL && (opts->flags & PDB_OPT_COMPENSATE)) {
		if (version >= 2) {
			t.compensate = 1;
			if ((rc = pdb_meta_set(db, "compensated", "yes")) !=
			    PDB_OK)
				return rc;
		} else
			pdb_warn(db, "%s: pgcl version 1 states no profiling "
			    "overhead: not compensated", in->name);
	}

	if (version == 1)
		rc = read_v1_tree(in, &t);
	else if ((rc = add_schema(&t)) == PDB_OK && (sink->begin == NULL ||
	    (rc = sink->begin(sink->arg, db)) == 0))
		rc = read_tree(in, &t, NULL);
	if (rc == PDB_OK && sink->end != NULL)
		rc = sink->end(sink->arg, db);
	return rc;
}

static void
put_u32(FILE *f, uint32_t v)
{
	unsigned char b[4];

	b[0] = v & 0xff;
	b[1] = (v >> 8) & 0xff;
	b[2] = (v >> 16) & 0xff;
	b[3] = (v >> 24) & 0xff;
	fwrite(b, 1, 4, f);
}

/*
 * The nodes in pre-order, a batch of rows at a time (pdb_rows_next()),
 * each straight into a buffer with room for its varints.
 */
static int
write_tree(struct pdb *db, FILE *f, const uint32_t *ccid, const int *metric,
    int layout, const struct pdb_opts *opts)
{
	unsigned char buf[65536], *p = buf;
	const size_t room = 10 * (NFIELDS + 2);
	unsigned nm = pdb_metric_count(db);
	struct pdb_rows *rows;
	const int64_t *v;
	/* Counted before pdb_write_rows(), which may take the tree. */
	uint64_t done = 0, total = pdb_node_count(db);
	size_t i;
	int j;

	if ((rows = malloc(sizeof(*rows))) == NULL ||
	    pdb_write_rows(db, rows, opts) != PDB_OK) {
		free(rows);
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	}
	while (pdb_rows_next(db, rows) > 0) {
		for (i = 0, v = rows->values; i < rows->n; i++, v += nm) {
			if ((size_t)(buf + sizeof(buf) - p) < room) {
				/* Told first, so that what the write
				 * shows is up to date. */
				if (opts != NULL &&
				    opts->write_progress != NULL)
					opts->write_progress(
					    opts->progress_arg, done + i,
					    total);
				fwrite(buf, 1, (size_t)(p - buf), f);
				p = buf;
			}
			p = pdb_put_varint(p, ccid[rows->cc[i]]);
			for (j = 0; j < NFIELDS; j++)
				if (j != F_TAIL || layout == 7)
					p = pdb_put_varint(p, metric[j] >= 0 ?
					    (uint64_t)v[metric[j]] : 0);
			p = pdb_put_varint(p, rows->nkids[i]);
		}
		done += rows->n;
	}
	fwrite(buf, 1, (size_t)(p - buf), f);
	pdb_rows_free(rows);
	free(rows);
	return PDB_OK;
}

/*
 * Write the tree as Clean's run-time system would: cost centres numbered
 * in pre-order of first appearance (those the tree never uses follow, in
 * their own order), modules in order of first use by those cost centres
 * (unused ones follow), metrics matched by name.
 */
static int
pgcl_write(struct pdb *db, FILE *f, const struct pdb_opts *opts)
{
	struct pdb_cc cc;
	uint32_t *ccid = NULL, *ccorder = NULL, *modid = NULL,
	    *modorder = NULL, nnodes, ncc, nmod, n, i, k, nextcc, nextmod;
	uint64_t tps = 0, overhead = 0, interval;
	unsigned m, nm = pdb_metric_count(db);
	uint64_t was = 0;
	int version, layout = 7;
	int metric[NFIELDS], j, rc = PDB_OK, srcwarn = 0;
	const char *lay = pdb_meta_get(db, "pgcl_layout");

	/* The version read, or the one asked for; else the current one. */
	if (opts != NULL && opts->pgcl_version)
		version = opts->pgcl_version;
	else
		version = pdb_meta_u64(db, "pgcl_version", &was) &&
		    was == 1 ? 1 : 2;

	if (version != 1 && version != 2)
		return pdb_seterr(db, PDB_EUNSUPP,
		    "cannot write pgcl version %d (only 1 and 2)", version);
	if ((nnodes = pdb_node_count(db)) == 0)
		return pdb_seterr(db, PDB_EINVAL,
		    "pgcl needs a call-graph tree: the profile has none");

	/* Metrics by name; what pgcl has no field for is dropped. */
	for (j = 0; j < NFIELDS; j++)
		metric[j] = pdb_metric_find(db, fields[j].name);
	/*
	 * Folded stacks count samples, which are ticks by another name:
	 * without them the file would hold no cost at all, and the ticks
	 * of a pgcl profile written as folded stacks come back.
	 */
	if (metric[F_TICKS] < 0 &&
	    (metric[F_TICKS] = pdb_metric_find(db, "samples")) >= 0) {
		if (pdb_metric(db, (unsigned)metric[F_TICKS])->kind == PDB_COST)
			pdb_warn(db, "pgcl has no metric 'samples': written "
			    "as ticks");
		else
			metric[F_TICKS] = -1;
	}
	/* Version 1 without tail calls, as read: the same bytes back. */
	if (version == 1 && metric[F_TAIL] < 0 && lay != NULL &&
	    strcmp(lay, "6") == 0)
		layout = 6;
	for (m = 0; m < nm; m++) {
		for (j = 0; j < NFIELDS; j++)
			if (metric[j] == (int)m)
				break;
		if (j == NFIELDS)
			pdb_warn(db, "pgcl cannot hold metric '%s': dropped",
			    pdb_metric(db, m)->name);
		else if (pdb_metric(db, m)->flags & PDB_METRIC_APPROX)
			pdb_warn(db, "pgcl cannot mark %s as approximate: "
			    "they come from rounded percentages",
			    pdb_metric(db, m)->name);
	}

	/* Header figures. */
	if (version >= 2) {
		if (!pdb_meta_u64(db, "ticks_per_second", &tps) &&
		    pdb_meta_u64(db, "tick_interval_us", &interval) &&
		    interval > 0)
			tps = 1000000 / interval;
		pdb_meta_u64(db, "overhead_per_1000", &overhead);
		if (overhead != 0 && pdb_ticks_compensated(db, PDB_NONE)) {
			pdb_warn(db, "pgcl cannot mark ticks as compensated: "
			    "writing overhead 0 so they are not compensated "
			    "twice");
			overhead = 0;
		}
	} else if (pdb_meta_get(db, "ticks_per_second") != NULL ||
	    pdb_meta_get(db, "overhead_per_1000") != NULL)
		pdb_warn(db, "pgcl version 1 cannot hold ticks per second "
		    "and overhead: dropped");

	/* Renumber cost centres and modules. */
	ncc = pdb_cc_count(db);
	nmod = pdb_module_count(db);
	if ((ccid = calloc(ncc ? ncc : 1, sizeof(*ccid))) == NULL ||
	    (ccorder = malloc((ncc ? ncc : 1) * sizeof(*ccorder))) == NULL ||
	    (modid = calloc(nmod ? nmod : 1, sizeof(*modid))) == NULL ||
	    (modorder = malloc((nmod ? nmod : 1) * sizeof(*modorder))) ==
	    NULL) {
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		goto out;
	}
	/* Only the cost centres: the walk, without the rows' values. */
	nextcc = 0;
	for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL)) {
		k = pdb_node_cc(db, n);
		if (ccid[k] == 0) {
			ccorder[nextcc] = k;
			ccid[k] = ++nextcc;
		}
	}
	for (k = 0; k < ncc; k++)
		if (ccid[k] == 0) {
			ccorder[nextcc] = k;
			ccid[k] = ++nextcc;
		}
	nextmod = 0;
	for (i = 0; i < ncc; i++) {
		pdb_cc(db, ccorder[i], &cc);
		if (modid[cc.module_index] == 0) {
			modorder[nextmod] = cc.module_index;
			modid[cc.module_index] = ++nextmod;
		}
		if (cc.src[0] != '\0')
			srcwarn = 1;
	}
	for (k = 0; k < nmod; k++)
		if (modid[k] == 0) {
			modorder[nextmod] = k;
			modid[k] = ++nextmod;
		}
	if (srcwarn)
		pdb_warn(db, "pgcl cannot hold source locations: dropped");

	fwrite(PGCL_MAGIC, 1, 4, f);
	put_u32(f, (uint32_t)version);
	put_u32(f, nmod);
	put_u32(f, ncc);
	if (version >= 2) {
		pdb_out_varint(f, tps);
		pdb_out_varint(f, overhead);
	}
	for (i = 0; i < nmod; i++) {
		fputs(pdb_module_name(db, modorder[i]), f);
		putc('\0', f);
	}
	for (i = 0; i < ncc; i++) {
		pdb_cc(db, ccorder[i], &cc);
		pdb_out_varint(f, modid[cc.module_index]);
		fputs(cc.label, f);
		putc('\0', f);
	}
	if ((rc = write_tree(db, f, ccid, metric, layout, opts)) != PDB_OK)
		goto out;
	if (ferror(f))
		rc = pdb_seterr(db, PDB_EIO, "write error: %s",
		    strerror(errno));
out:
	free(ccid);
	free(ccorder);
	free(modid);
	free(modorder);
	return rc;
}
