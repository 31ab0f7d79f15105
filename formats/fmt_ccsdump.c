/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The ccstools native dump, ccs-dump(5): the lossless interchange format
 * between the tools (ccs-select writes it, everything reads it).
 *
 * The layout is specified in man/ccs-dump.5; in short:
 *
 *	magic		"\x89CCSDUMP\r\n\x1a\n" (12 bytes)
 *	version		varint, 1
 *	metadata	count, then key and value strings
 *	metrics		count, then name, unit, kind, flags
 *	modules		count, then names (names may repeat)
 *	cost centres	count, then label, module index, src, flags,
 *			profile id (zigzag)
 *	tree		root count (0 or 1), then each node in pre-order:
 *			cost-centre index, one zigzag value per metric,
 *			child count
 *	trailer		node count, then the CRC-32 of every byte
 *			before it, 4 bytes little-endian
 *
 * Everything is a varint or a length-prefixed string, so the file reads
 * in one forward pass from a pipe.  The reader never trusts a count with
 * memory: tables grow as items arrive and the tree is walked with an
 * explicit stack of remaining child counts, so a truncated file with a
 * huge count fails at its end and a 1,000,000-deep chain costs 16 MB.
 * The child counts make the tree self-delimiting; the trailer catches
 * what they cannot (a file cut after the tree, or damaged bytes).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "formats_int.h"

#define DUMP_VERSION	1
#define MAGIC_LEN	12
#define MAX_STRING	(64u << 20)	/* 64 MiB, as pdb_in_line() */
#define MAX_META	4096		/* pdb_meta_set() is linear */
#define CHUNK		65536

static const unsigned char magic[MAGIC_LEN] = {
	0x89, 'C', 'C', 'S', 'D', 'U', 'M', 'P', '\r', '\n', 0x1a, '\n'
};

/* Reader state: the input, the running CRC and two string buffers. */
struct rd {
	struct pdb_input *in;
	struct pdb	*db;
	uLong		 crc;
	size_t		 crcpos;	/* buf[crcpos, pos) not yet in crc */
	const char	*what;		/* the part being read */
	char		*str[2];
	size_t		 strcap[2];
};

/* Where the tree walk is: the open levels (formats_int.h), nodes so far. */
struct tstate {
	struct pdb_level *lv;
	size_t		 n, cap;
	uint64_t	 nodes;
};

/* Writer state: a buffer whose bytes enter the CRC as it is flushed. */
struct wr {
	FILE		*f;
	uLong		 crc;
	size_t		 len;
	int		 err;		/* errno of a failed write */
	/* Writing the tree: for opts->write_progress at each flush. */
	const struct pdb_opts *opts;
	const uint64_t	*nodes;		/* written so far */
	uint64_t	 total;
	unsigned char	 buf[CHUNK];
};

static int	 dump_probe(const unsigned char *, size_t);
static int	 dump_read(struct pdb_input *, struct pdb *,
		    const struct pdb_sink *, const struct pdb_opts *);
static int	 dump_write(struct pdb *, FILE *, const struct pdb_opts *);

static long	 rd_fill(struct rd *, size_t);
static int	 rd_end(struct rd *);
static int	 rd_magic(struct rd *);
static int	 rd_varint(struct rd *, uint64_t *);
static int	 rd_svarint(struct rd *, int64_t *);
static int	 rd_u32(struct rd *, uint32_t *, const char *);
static int	 rd_grow(struct rd *, int, size_t);
static int	 rd_string(struct rd *, int, const char **);
static int	 rd_count(struct rd *, uint64_t *, uint64_t, const char *);
static int	 rd_tables(struct rd *, uint32_t *, uint32_t *, unsigned *);
static int	 rd_tree(struct rd *, const struct pdb_sink *, uint32_t,
		    uint32_t, unsigned);
static int	 rd_trailer(struct rd *, uint64_t);

static void	 w_flush(struct wr *);
static void	 w_bytes(struct wr *, const void *, size_t);
static void	 w_varint(struct wr *, uint64_t);
static void	 w_svarint(struct wr *, int64_t);
static void	 w_string(struct wr *, const char *);
static int	 w_tree(struct wr *, struct pdb *, const struct pdb_opts *,
		    uint64_t *);

const struct pdb_format pdb_fmt_ccsdump = {
	.abi = PDB_FORMAT_ABI,
	.name = "dump",
	.desc = "ccstools native dump, ccs-dump(5)",
	.exts = ".ccsdump,.dump",
	.flags = PDB_FMT_READ | PDB_FMT_WRITE | PDB_FMT_BINARY,
	.build = PDB_BUILD_RAW,
	.probe = dump_probe,
	.read = dump_read,
	.write = dump_write,
};

/*
 * The magic, or a short file that is a prefix of it (so that the reader
 * says "truncated"), or the magic with its line ends or top bit damaged
 * by a text-mode transfer (so that the reader says so).
 */
static int
dump_probe(const unsigned char *head, size_t len)
{
	if (len >= MAGIC_LEN && memcmp(head, magic, MAGIC_LEN) == 0)
		return 100;
	if (len >= 2 && len < MAGIC_LEN && memcmp(head, magic, len) == 0)
		return 90;
	if (len >= 8 && memcmp(head + 1, magic + 1, 7) == 0)
		return 90;
	return 0;
}

/* ---- reading ---- */

/*
 * Every rd_* function returns 0 or a negative PDB_E* code with the
 * error set on the handle.
 */
static int
dump_read(struct pdb_input *in, struct pdb *db, const struct pdb_sink *sink,
    const struct pdb_opts *opts)
{
	struct rd r;
	uint32_t ncc = 0, ccbase = 0;
	unsigned nmetrics = 0;
	int rc;

	(void)opts;
	if (pdb_metric_count(db) != 0)
		return pdb_seterr(db, PDB_EINVAL,
		    "%s: profile handle already has a metric schema", in->name);
	(void)pdb_in_map(in);
	memset(&r, 0, sizeof(r));
	r.in = in;
	r.db = db;
	r.crc = crc32(0L, Z_NULL, 0);
	r.crcpos = in->pos;
	if ((rc = rd_magic(&r)) == 0 &&
	    (rc = rd_tables(&r, &ccbase, &ncc, &nmetrics)) == 0)
		rc = rd_tree(&r, sink, ccbase, ncc, nmetrics);
	free(r.str[0]);
	free(r.str[1]);
	return rc;
}

/* Account for the bytes consumed so far, then refill. */
static long
rd_fill(struct rd *r, size_t want)
{
	struct pdb_input *in = r->in;
	long n;

	if (in->pos > r->crcpos)
		r->crc = pdb_crc32((uint32_t)r->crc, in->buf + r->crcpos,
		    in->pos - r->crcpos);
	n = pdb_in_fill(in, want);
	r->crcpos = in->pos;
	return n;
}

/* The input ended or failed in the middle of r->what. */
static int
rd_end(struct rd *r)
{
	return pdb_in_failed(r->in, r->db, r->what);
}

static int
rd_magic(struct rd *r)
{
	struct pdb_input *in = r->in;
	uint64_t v, off;
	size_t have;
	long n;
	int rc;

	r->what = "magic number";
	if ((n = rd_fill(r, MAGIC_LEN)) < 0)
		return rd_end(r);
	have = (size_t)n < MAGIC_LEN ? (size_t)n : MAGIC_LEN;
	if (memcmp(in->buf + in->pos, magic, have) != 0) {
		if (have >= 8 &&
		    memcmp(in->buf + in->pos + 1, magic + 1, 7) == 0)
			return pdb_seterr(r->db, PDB_EFORMAT,
			    "%s: damaged magic number (was the file "
			    "transferred as text?)", in->name);
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s: not a ccs-dump file (bad magic number)", in->name);
	}
	in->pos += have;
	if (have < MAGIC_LEN)
		return rd_end(r);
	r->what = "header";
	off = pdb_in_offset(in);
	if ((rc = rd_varint(r, &v)) != 0)
		return rc;
	if (v != DUMP_VERSION)
		return pdb_seterr(r->db, PDB_EUNSUPP,
		    "%s: byte %llu: unsupported dump version %llu", in->name,
		    (unsigned long long)off, (unsigned long long)v);
	return 0;
}

/* An unsigned LEB128 varint of at most 10 bytes. */
static int
rd_varint(struct rd *r, uint64_t *vp)
{
	struct pdb_input *in = r->in;
	uint64_t v = 0, off = pdb_in_offset(in);
	unsigned i, b;

	for (i = 0;; i++) {
		if (in->pos >= in->len && rd_fill(r, 1) <= 0)
			return rd_end(r);
		b = in->buf[in->pos++];
		if (i == 9 && b > 1)
			return pdb_seterr(r->db, PDB_EFORMAT,
			    "%s: byte %llu: varint %s in %s", in->name,
			    (unsigned long long)off, b & 0x80 ?
			    "longer than 10 bytes" : "overflows 64 bits",
			    r->what);
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if ((b & 0x80) == 0)
			break;
	}
	*vp = v;
	return 0;
}

/*
 * rd_varint() without the per-byte checks when ten bytes are buffered:
 * the tree is almost all varints.  Anything unusual (a short buffer, a
 * bad varint) takes the careful path, which reports it.
 */
static inline int
rd_fast(struct rd *r, uint64_t *vp)
{
	struct pdb_input *in = r->in;
	const unsigned char *p = in->buf + in->pos;

	if (in->len - in->pos < 10 || pdb_varint_dec(&p, vp) != 0)
		return rd_varint(r, vp);
	in->pos = (size_t)(p - in->buf);
	return 0;
}

static inline int
rd_sfast(struct rd *r, int64_t *vp)
{
	uint64_t u;
	int rc;

	if ((rc = rd_fast(r, &u)) != 0)
		return rc;
	*vp = (int64_t)((u >> 1) ^ (~(u & 1) + 1));
	return 0;
}

/* A zigzag varint: 0, -1, 1, -2, ... as 0, 1, 2, 3, ... */
static int
rd_svarint(struct rd *r, int64_t *vp)
{
	uint64_t u;
	int rc;

	if ((rc = rd_fast(r, &u)) != 0)
		return rc;
	*vp = (int64_t)((u >> 1) ^ (~(u & 1) + 1));
	return 0;
}

/* A varint that must fit in 32 bits (flags). */
static int
rd_u32(struct rd *r, uint32_t *vp, const char *field)
{
	uint64_t v, off = pdb_in_offset(r->in);
	int rc;

	if ((rc = rd_fast(r, &v)) != 0)
		return rc;
	if (v > UINT32_MAX)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s: byte %llu: %s %llu out of range in %s", r->in->name,
		    (unsigned long long)off, field, (unsigned long long)v,
		    r->what);
	*vp = (uint32_t)v;
	return 0;
}

/* A table's item count, checked against what libprofdb can index. */
static int
rd_count(struct rd *r, uint64_t *np, uint64_t max, const char *items)
{
	uint64_t off = pdb_in_offset(r->in);
	int rc;

	if ((rc = rd_varint(r, np)) != 0)
		return rc;
	if (*np > max)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s: byte %llu: too many %s (%llu)", r->in->name,
		    (unsigned long long)off, items, (unsigned long long)*np);
	return 0;
}

/* Make string buffer slot hold at least need bytes. */
static int
rd_grow(struct rd *r, int slot, size_t need)
{
	size_t cap = r->strcap[slot] ? r->strcap[slot] : 64;
	char *s;

	if (need <= r->strcap[slot])
		return 0;
	while (cap < need)
		cap *= 2;
	if ((s = realloc(r->str[slot], cap)) == NULL)
		return pdb_seterr(r->db, PDB_ENOMEM, "out of memory");
	r->str[slot] = s;
	r->strcap[slot] = cap;
	return 0;
}

/*
 * A length-prefixed string into buffer slot, NUL-terminated.  The
 * buffer grows with the bytes that actually arrive, never by the length
 * alone, so a lying length costs no more than the file.
 */
static int
rd_string(struct rd *r, int slot, const char **sp)
{
	struct pdb_input *in = r->in;
	uint64_t len, off = pdb_in_offset(in);
	size_t got = 0, n;
	int rc;

	if ((rc = rd_fast(r, &len)) != 0)
		return rc;
	if (len > MAX_STRING)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s: byte %llu: string of %llu bytes too long in %s",
		    in->name, (unsigned long long)off, (unsigned long long)len,
		    r->what);
	while (got < len) {
		n = (size_t)len - got;
		if (in->pos >= in->len &&
		    rd_fill(r, n < CHUNK ? n : CHUNK) <= 0)
			return rd_end(r);
		if (n > in->len - in->pos)
			n = in->len - in->pos;
		if ((rc = rd_grow(r, slot, got + n + 1)) != 0)
			return rc;
		if (memchr(in->buf + in->pos, '\0', n) != NULL)
			return pdb_seterr(r->db, PDB_EFORMAT,
			    "%s: byte %llu: NUL byte in string in %s",
			    in->name, (unsigned long long)off, r->what);
		memcpy(r->str[slot] + got, in->buf + in->pos, n);
		in->pos += n;
		got += n;
	}
	if ((rc = rd_grow(r, slot, got + 1)) != 0)
		return rc;
	r->str[slot][got] = '\0';
	*sp = r->str[slot];
	return 0;
}

/*
 * Flags of name, of which only the bits in known are defined: others
 * could not be kept by the formats a dump converts to.
 */
static int
rd_flags(struct rd *r, uint32_t *flags, uint32_t known, const char *name)
{
	uint64_t off = pdb_in_offset(r->in);
	int rc;

	if ((rc = rd_u32(r, flags, "flags")) != 0)
		return rc;
	if ((*flags & ~known) != 0)
		return pdb_seterr(r->db, PDB_EFORMAT, "%s: byte %llu: unknown "
		    "flags 0x%lx for '%s' (0x%lx are defined)", r->in->name,
		    (unsigned long long)off, (unsigned long)*flags, name,
		    (unsigned long)known);
	return 0;
}

/* Metadata, metrics, modules and cost centres. */
static int
rd_tables(struct rd *r, uint32_t *ccbasep, uint32_t *nccp,
    unsigned *nmetricsp)
{
	struct pdb *db = r->db;
	const char *a, *b, *key;
	uint64_t n, i, v, off;
	size_t first, k;
	uint32_t modbase, nmod, flags, ccbase;
	int64_t id;
	int rc;

	r->what = "metadata";
	first = pdb_meta_count(db);
	if ((rc = rd_count(r, &n, MAX_META, "metadata entries")) != 0)
		return rc;
	for (i = 0; i < n; i++) {
		off = pdb_in_offset(r->in);
		if ((rc = rd_string(r, 0, &a)) != 0)
			return rc;
		/* Keys name things: text, as JSON's member names are. */
		if (!pdb_utf8_string(a))
			return pdb_seterr(db, PDB_EFORMAT, "%s: byte %llu: "
			    "metadata key is not UTF-8", r->in->name,
			    (unsigned long long)off);
		/* Keys are unique: a second value would be lost. */
		for (k = first; k < pdb_meta_count(db); k++) {
			pdb_meta_at(db, k, &key, &b);
			if (strcmp(key, a) == 0)
				return pdb_seterr(db, PDB_EFORMAT,
				    "%s: byte %llu: metadata key '%s' given "
				    "twice", r->in->name,
				    (unsigned long long)off, a);
		}
		if ((rc = rd_string(r, 1, &b)) != 0 ||
		    (rc = pdb_meta_set(db, a, b)) != 0)
			return rc;
	}

	r->what = "metric table";
	if ((rc = rd_count(r, &n, UINT32_MAX - 1, "metrics")) != 0)
		return rc;
	for (i = 0; i < n; i++) {
		if ((rc = rd_string(r, 0, &a)) != 0 ||
		    (rc = rd_string(r, 1, &b)) != 0)
			return rc;
		off = pdb_in_offset(r->in);
		if ((rc = rd_fast(r, &v)) != 0)
			return rc;
		if (v != PDB_COST && v != PDB_COUNT)
			return pdb_seterr(db, PDB_EFORMAT,
			    "%s: byte %llu: unknown metric kind %llu for '%s'",
			    r->in->name, (unsigned long long)off,
			    (unsigned long long)v, a);
		if ((rc = rd_flags(r, &flags, PDB_METRIC_APPROX, a)) != 0 ||
		    (rc = pdb_metric_add(db, a, b, (enum pdb_kind)v, flags,
		    NULL)) != 0)
			return rc;
	}
	*nmetricsp = (unsigned)n;

	r->what = "module table";
	modbase = pdb_module_count(db);
	if ((rc = rd_count(r, &n, UINT32_MAX - 1 - modbase, "modules")) != 0)
		return rc;
	for (i = 0; i < n; i++) {
		if ((rc = rd_string(r, 0, &a)) != 0 ||
		    (rc = pdb_module_add(db, a, NULL)) != 0)
			return rc;
	}
	nmod = (uint32_t)n;

	r->what = "cost-centre table";
	ccbase = pdb_cc_count(db);
	if ((rc = rd_count(r, &n, UINT32_MAX - 1 - ccbase,
	    "cost centres")) != 0)
		return rc;
	for (i = 0; i < n; i++) {
		if ((rc = rd_string(r, 0, &a)) != 0)
			return rc;
		off = pdb_in_offset(r->in);
		if ((rc = rd_fast(r, &v)) != 0)
			return rc;
		if (v >= nmod)
			return pdb_seterr(db, PDB_EFORMAT,
			    "%s: byte %llu: module index %llu out of range "
			    "(%lu modules)", r->in->name,
			    (unsigned long long)off, (unsigned long long)v,
			    (unsigned long)nmod);
		if ((rc = rd_string(r, 1, &b)) != 0 ||
		    (rc = rd_flags(r, &flags, PDB_CC_CAF | PDB_CC_SYNTHETIC,
		    a)) != 0 ||
		    (rc = rd_svarint(r, &id)) != 0 ||
		    (rc = pdb_cc_add(db, a, modbase + (uint32_t)v, b, flags,
		    id, NULL)) != 0)
			return rc;
	}
	*ccbasep = ccbase;
	*nccp = (uint32_t)n;
	return 0;
}

/*
 * The hot loop for a sink that takes batches: decode nodes straight into
 * the batch while each is surely buffered and sound, with the exits that
 * follow each.  Stops, with the batch flushed, when the tree is done or
 * at a node for the careful path in rd_tree().  Inlined once per node
 * decoder and (for the loops over the metrics to unroll) usual nm: nm is
 * bt->nm, and kskip, when not 0, bt->skip.
 */
static inline __attribute__((always_inline)) int
rd_batch(struct rd *r, const struct pdb_sink *sink, struct pdb_batcher *bt,
    struct tstate *ts, uint32_t ccbase, uint32_t ncc, pdb_varints_fn *dec,
    const unsigned nm, const uint32_t kskip)
{
	struct pdb_input *in = r->in;
	/* A node's nm + 2 varints, and what pdb_varints_pext() reads. */
	const size_t room = ((size_t)nm + 2) * 10 + 48;
	const unsigned char *buf = in->buf, *end = buf + in->len, *p, *q;
	struct pdb_level *lv = ts->lv;
	/* In locals: the stores into the batch could change bt's fields. */
	uint64_t *raw = bt->raw, *x, e;
	uint32_t *ccs = bt->cc, skip = kskip != 0 ? kskip : bt->skip;
	size_t *exits = bt->exits;
	size_t depth = ts->n, cap = ts->cap, n = 0, start = in->pos;
	int rc = 0;

	if (in->len - in->pos < room)
		return pdb_batcher_flush(bt, in, r->db, sink, start);
	end -= room;
	p = buf + in->pos;
	/*
	 * A level above the virtual one stays open only while it has
	 * children to come (a leaf closes the rest), so only the
	 * virtual level's count is loaded: the top level's would wait
	 * for the node just decoded.
	 */
	while ((depth > 1 || lv[0].rem > 0) && p <= end) {
		/* The cost centre, the metrics, the child count, in place. */
		x = raw + n * (nm + 2);
		q = p;
		/* The metrics are zigzag varints. */
		if (dec(&q, x, nm + 2, 1, skip) != 0 || x[0] >= ncc)
			break;
		p = q;
		if (depth == cap) {
			ts->n = depth;
			rc = pdb_levels_grow(&ts->lv, &ts->cap, r->db);
			if (rc != 0)
				break;
			lv = ts->lv;
			cap = ts->cap;
		}
		pdb_level_child(&lv[depth - 1], depth == 1);
		e = pdb_level_push(&lv[depth - 1], x[nm + 1]);
		depth += 1 - e;
		ccs[n] = ccbase + (uint32_t)x[0];
		exits[n] = e;
		if (++n == PDB_BATCH_MAX) {
			bt->n = n;
			ts->nodes += n;
			n = 0;
			if ((rc = pdb_batcher_flush(bt, in, r->db, sink,
			    start)) != 0)
				return rc;
			start = (size_t)(p - buf);
		}
	}
	bt->n = n;
	ts->nodes += n;
	ts->n = depth;
	in->pos = (size_t)(p - buf);
	if (rc == 0)
		rc = pdb_batcher_flush(bt, in, r->db, sink, start);
	return rc;
}

typedef int	 batch_fn(struct rd *, const struct pdb_sink *,
		    struct pdb_batcher *, struct tstate *, uint32_t, uint32_t);

static int
batch_plain(struct rd *r, const struct pdb_sink *sink, struct pdb_batcher *bt,
    struct tstate *ts, uint32_t ccbase, uint32_t ncc)
{
	return rd_batch(r, sink, bt, ts, ccbase, ncc, pdb_varints_dec, bt->nm,
	    0);
}

#ifdef PDB_HAVE_PEXT
static __attribute__((target("bmi,bmi2"))) int
batch_pext(struct rd *r, const struct pdb_sink *sink, struct pdb_batcher *bt,
    struct tstate *ts, uint32_t ccbase, uint32_t ncc)
{
	/* Folded, GHC, Clean: the metric counts of the usual sources. */
	switch (bt->nm) {
	case 1:
		return rd_batch(r, sink, bt, ts, ccbase, ncc,
		    pdb_varints_pext, 1, 0);
	case 3:
		/*
		 * GHC's time, alloc and entries.  The skips of a flat
		 * profile (time and entries) and of one metric made
		 * constants: the decoder tests no skip bits.
		 */
		if (bt->skip == PDB_SKIP(1))
			return rd_batch(r, sink, bt, ts, ccbase, ncc,
			    pdb_varints_pext, 3, PDB_SKIP(1));
		if (bt->skip == (PDB_SKIP(1) | PDB_SKIP(2)))
			return rd_batch(r, sink, bt, ts, ccbase, ncc,
			    pdb_varints_pext, 3, PDB_SKIP(1) | PDB_SKIP(2));
		return rd_batch(r, sink, bt, ts, ccbase, ncc,
		    pdb_varints_pext, 3, 0);
	case 6:
		return rd_batch(r, sink, bt, ts, ccbase, ncc,
		    pdb_varints_pext, 6, 0);
	default:
		return rd_batch(r, sink, bt, ts, ccbase, ncc,
		    pdb_varints_pext, bt->nm, 0);
	}
}
#endif

/* The tree, in pre-order. */
static int
rd_tree(struct rd *r, const struct pdb_sink *sink, uint32_t ccbase,
    uint32_t ncc, unsigned nmetrics)
{
	struct pdb *db = r->db;
	struct pdb_input *in;
	struct pdb_batcher bt;
	struct tstate ts;
	batch_fn *batch = NULL;
	uint64_t roots, v, nch, off, e;
	int64_t *vals = NULL;
	unsigned m;
	int rc;

	r->what = "tree";
	memset(&ts, 0, sizeof(ts));
	bt.raw = NULL;
	ts.cap = 256;
	if ((nmetrics > 0 && (vals = calloc(nmetrics, sizeof(*vals))) ==
	    NULL) || (ts.lv = malloc(ts.cap * sizeof(*ts.lv))) == NULL) {
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		goto out;
	}
	off = pdb_in_offset(r->in);
	if ((rc = rd_varint(r, &roots)) != 0)
		goto out;
	if (roots > 1) {
		rc = pdb_seterr(db, PDB_EFORMAT,
		    "%s: byte %llu: %llu roots (a dump has at most one)",
		    r->in->name, (unsigned long long)off,
		    (unsigned long long)roots);
		goto out;
	}
	if (sink->begin != NULL && (rc = sink->begin(sink->arg, db)) != 0)
		goto out;
	if (sink->nodes != NULL) {
		batch = batch_plain;
#ifdef PDB_HAVE_PEXT
		/* pdb_varints_pext() takes up to 16 varints. */
		if (nmetrics <= 14 && pdb_cpu_pext())
			batch = batch_pext;
#endif
		if (pdb_batcher_init(&bt, nmetrics) != 0) {
			rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
			goto out;
		}
		pdb_batcher_columns(&bt, db, sink);
	}
	/* The virtual level: the roots remain to be read. */
	ts.lv[0].rem = roots;
	ts.lv[0].run = 0;
	ts.n = 1;
	for (;;) {
		if (batch != NULL &&
		    (rc = batch(r, sink, &bt, &ts, ccbase, ncc)) != 0)
			goto out;
		if (ts.lv[ts.n - 1].rem == 0)
			break;		/* the root has closed */
		/*
		 * The whole node at once while it is surely buffered; the
		 * careful path below reports anything wrong with it.
		 */
		in = r->in;
		if (in->len - in->pos >= ((size_t)nmetrics + 2) * 10) {
			const unsigned char *p = in->buf + in->pos;
			int bad = pdb_varint_dec(&p, &v) || v >= ncc;
			uint64_t u = 0;

			for (m = 0; m < nmetrics && !bad; m++) {
				bad = pdb_varint_dec(&p, &u);
				vals[m] = (int64_t)((u >> 1) ^ (~(u & 1) + 1));
			}
			if (!bad && pdb_varint_dec(&p, &nch) == 0) {
				in->pos = (size_t)(p - in->buf);
				goto node;
			}
		}
		off = pdb_in_offset(r->in);
		if ((rc = rd_fast(r, &v)) != 0)
			goto out;
		if (v >= ncc) {
			rc = pdb_seterr(db, PDB_EFORMAT,
			    "%s: byte %llu: cost centre index %llu out of "
			    "range (%lu cost centres)", r->in->name,
			    (unsigned long long)off, (unsigned long long)v,
			    (unsigned long)ncc);
			goto out;
		}
		for (m = 0; m < nmetrics; m++)
			if ((rc = rd_sfast(r, &vals[m])) != 0)
				goto out;
		if ((rc = rd_fast(r, &nch)) != 0)
			goto out;
node:
		ts.nodes++;
		if ((rc = sink->enter(sink->arg, db, ccbase + (uint32_t)v,
		    vals)) != 0)
			goto out;
		if (ts.n == ts.cap &&
		    (rc = pdb_levels_grow(&ts.lv, &ts.cap, db)) != 0)
			goto out;
		pdb_level_child(&ts.lv[ts.n - 1], ts.n == 1);
		e = pdb_level_push(&ts.lv[ts.n - 1], nch);
		ts.n++;
		/* Close every node whose children have all come. */
		for (; e > 0; e--) {
			ts.n--;
			if ((rc = sink->exit(sink->arg, db)) != 0)
				goto out;
		}
	}
	if ((rc = rd_trailer(r, ts.nodes)) != 0)
		goto out;
	rc = sink->end != NULL ? sink->end(sink->arg, db) : PDB_OK;
out:
	free(ts.lv);
	free(vals);
	pdb_batcher_free(&bt);
	return rc;
}

static int
rd_trailer(struct rd *r, uint64_t nodes)
{
	struct pdb_input *in = r->in;
	unsigned char c[4];
	uint64_t n, off;
	uint32_t want, got;
	int i, rc;

	r->what = "trailer";
	off = pdb_in_offset(in);
	if ((rc = rd_varint(r, &n)) != 0)
		return rc;
	if (n != nodes)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s: byte %llu: trailer says %llu nodes, the tree has %llu",
		    in->name, (unsigned long long)off, (unsigned long long)n,
		    (unsigned long long)nodes);
	/* Everything up to here is covered by the checksum. */
	got = (uint32_t)r->crc;
	if (in->pos > r->crcpos)
		got = pdb_crc32((uint32_t)r->crc, in->buf + r->crcpos,
		    in->pos - r->crcpos);
	off = pdb_in_offset(in);
	for (i = 0; i < 4; i++) {
		if (in->pos >= in->len && pdb_in_fill(in, 1) <= 0)
			return rd_end(r);
		c[i] = in->buf[in->pos++];
	}
	want = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 |
	    (uint32_t)c[3] << 24;
	if (want != got)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s: byte %llu: checksum mismatch (file says %08lx, "
		    "content gives %08lx)", in->name, (unsigned long long)off,
		    (unsigned long)want, (unsigned long)got);
	off = pdb_in_offset(in);
	if (pdb_in_getc(in) != -1)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s: byte %llu: trailing bytes after the end of the dump",
		    in->name, (unsigned long long)off);
	if (in->err != 0)
		return rd_end(r);
	return 0;
}

/* ---- writing ---- */

static void
w_flush(struct wr *w)
{
	if (w->len == 0)
		return;
	w->crc = pdb_crc32((uint32_t)w->crc, w->buf, w->len);
	/* Told first, so that what the write shows is up to date. */
	if (w->nodes != NULL)
		w->opts->write_progress(w->opts->progress_arg, *w->nodes,
		    w->total);
	if (w->err == 0 && fwrite(w->buf, 1, w->len, w->f) != w->len)
		w->err = errno ? errno : EIO;
	w->len = 0;
}

static void
w_bytes(struct wr *w, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t k;

	while (n > 0) {
		if (w->len == sizeof(w->buf))
			w_flush(w);
		k = sizeof(w->buf) - w->len;
		if (k > n)
			k = n;
		memcpy(w->buf + w->len, s, k);
		w->len += k;
		s += k;
		n -= k;
	}
}

/* The zigzag varint of an int64_t: 0, -1, 1, -2, ... as 0, 1, 2, 3. */
static uint64_t
zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0);
}

static void
w_varint(struct wr *w, uint64_t v)
{
	unsigned char b[10];

	/* Straight into the buffer when it has room: the tree is varints. */
	if (sizeof(w->buf) - w->len >= 10) {
		w->len = (size_t)(pdb_put_varint(w->buf + w->len, v) - w->buf);
		return;
	}
	w_bytes(w, b, (size_t)(pdb_put_varint(b, v) - b));
}

static void
w_svarint(struct wr *w, int64_t v)
{
	w_varint(w, zigzag(v));
}

static void
w_string(struct wr *w, const char *s)
{
	size_t n = strlen(s);

	w_varint(w, n);
	w_bytes(w, s, n);
}

/*
 * The tree, a batch of rows at a time (pdb_rows_next()), each node
 * straight into the buffer: as many nodes at a time as the buffer has
 * room for at their longest, with no test a node.  w_rows() is inlined
 * once per varint encoder, and w_nodes() once per common number of
 * metrics, for which the loop over the values unrolls.  Fails only for
 * memory.
 */
_Static_assert(10 * (PDB_METRICS_MAX + 2) <= CHUNK,
    "a node's varints fit in the write buffer");

typedef unsigned char *put_fn(unsigned char *, uint64_t);

/*
 * Rows i to end of r at p, nm values each; returns the end.  put takes
 * any value; put56, when there is one, only values below 2^56, which a
 * node's are nearly always: one test a node instead of one a value.
 */
static inline __attribute__((always_inline)) unsigned char *
w_nodes(unsigned char *p, const struct pdb_rows *r, size_t i, size_t end,
    unsigned nm, put_fn *put, put_fn *put56)
{
	const int64_t *v = r->values + i * nm;
	uint64_t z[PDB_METRICS_MAX], big;
	unsigned m;

	for (; i < end; i++, v += nm) {
		big = (uint64_t)r->cc[i] | r->nkids[i];
#pragma GCC unroll 8
		for (m = 0; m < nm; m++)
			big |= z[m] = zigzag(v[m]);
		if (put56 != NULL && big >> 56 == 0) {
			p = put56(p, r->cc[i]);
#pragma GCC unroll 8
			for (m = 0; m < nm; m++)
				p = put56(p, z[m]);
			p = put56(p, r->nkids[i]);
			continue;
		}
		p = put(p, r->cc[i]);
#pragma GCC unroll 8
		for (m = 0; m < nm; m++)
			p = put(p, z[m]);
		p = put(p, r->nkids[i]);
	}
	return p;
}

/* How many of left nodes of room bytes each fit in the buffer, flushed
 * first if none does. */
static size_t
w_fit(struct wr *w, size_t room, size_t left)
{
	size_t k;

	if ((k = (sizeof(w->buf) - w->len) / room) == 0) {
		w_flush(w);
		k = sizeof(w->buf) / room;
	}
	return k < left ? k : left;
}

static inline __attribute__((always_inline)) void
w_rows(struct wr *w, const struct pdb *db, struct pdb_rows *r,
    uint64_t *nodes, put_fn *put, put_fn *put56)
{
	unsigned nm = pdb_metric_count(db);
	size_t room = 10 * ((size_t)nm + 2), i, end;
	unsigned char *p;

	while (pdb_rows_next(db, r) > 0) {
		for (i = 0; i < r->n; i = end) {
			end = i + w_fit(w, room, r->n - i);
			p = w->buf + w->len;
			switch (nm) {
#define W_NODES(k)							\
			case k:						\
				p = w_nodes(p, r, i, end, k, put, put56); \
				break
			W_NODES(1);
			W_NODES(2);
			W_NODES(3);
			W_NODES(4);
			W_NODES(5);
			W_NODES(6);
			W_NODES(7);
			W_NODES(8);
#undef W_NODES
			default:
				p = w_nodes(p, r, i, end, nm, put, put56);
				break;
			}
			w->len = (size_t)(p - w->buf);
		}
		*nodes += r->n;
	}
}

static void
w_rows_plain(struct wr *w, const struct pdb *db, struct pdb_rows *r,
    uint64_t *nodes)
{
	w_rows(w, db, r, nodes, pdb_put_varint, NULL);
}

#ifdef PDB_HAVE_PEXT
static __attribute__((target("bmi,bmi2"))) void
w_rows_pdep(struct wr *w, const struct pdb *db, struct pdb_rows *r,
    uint64_t *nodes)
{
	w_rows(w, db, r, nodes, pdb_put_varint, pdb_put_varint56);
}
#endif

#ifdef PDB_HAVE_AVX512
/* Rows i to end of r, nm values each (6 at most), a node at a time
 * (pdb_put_node_avx512()), or by w_nodes() when a field is too wide;
 * returns the end. */
static inline __attribute__((target(PDB_AVX512), always_inline))
unsigned char *
w_nodes_avx512(unsigned char *p, const struct pdb_rows *r, size_t i,
    size_t end, unsigned nm)
{
	unsigned char *q;

	for (; i < end; i++)
		p = (q = pdb_put_node_avx512(p, r->cc[i], r->values + i * nm,
		    nm, r->nkids[i])) != NULL ? q : w_nodes(p, r, i, i + 1, nm,
		    pdb_put_varint, NULL);
	return p;
}

/* w_rows() with w_nodes_avx512(): room for the 64 bytes it stores. */
static __attribute__((target(PDB_AVX512))) void
w_rows_avx512(struct wr *w, const struct pdb *db, struct pdb_rows *r,
    uint64_t *nodes)
{
	unsigned nm = pdb_metric_count(db);
	size_t room = 10 * ((size_t)nm + 2), i, end;

	if (room < 64)
		room = 64;
	while (pdb_rows_next(db, r) > 0) {
		for (i = 0; i < r->n; i = end) {
			end = i + w_fit(w, room, r->n - i);
			w->len = (size_t)(w_nodes_avx512(w->buf + w->len, r, i,
			    end, nm) - w->buf);
		}
		*nodes += r->n;
	}
}
#endif

static int
w_tree(struct wr *w, struct pdb *db, const struct pdb_opts *opts,
    uint64_t *nodes)
{
	struct pdb_rows *r;

	if ((r = malloc(sizeof(*r))) == NULL)
		return PDB_ENOMEM;
	if (opts != NULL && opts->write_progress != NULL) {
		w->opts = opts;
		w->nodes = nodes;
		/* Before pdb_write_rows(), which may take the tree. */
		w->total = pdb_node_count(db);
	}
	if (pdb_write_rows(db, r, opts) != PDB_OK) {
		free(r);
		return PDB_ENOMEM;
	}
#ifdef PDB_HAVE_AVX512
	if (pdb_metric_count(db) <= 6 && pdb_cpu_avx512())
		w_rows_avx512(w, db, r, nodes);
	else
#endif
#ifdef PDB_HAVE_PEXT
	if (pdb_cpu_pext())
		w_rows_pdep(w, db, r, nodes);
	else
#endif
		w_rows_plain(w, db, r, nodes);
	pdb_rows_free(r);
	free(r);
	return PDB_OK;
}

/*
 * Whether the reader will take the tables back: a profile read from
 * another format may have more metadata, or a longer name, than a dump
 * holds.  Refused before a byte is written.
 */
static int
w_check(struct pdb *db)
{
	const struct pdb_metric *mt;
	const char *s[2];
	struct pdb_cc cc;
	size_t i, j, n;

	if ((n = pdb_meta_count(db)) > MAX_META)
		return pdb_seterr(db, PDB_EINVAL, "%zu metadata entries, more "
		    "than a dump holds (%u)", n, (unsigned)MAX_META);
	for (i = 0; i < n + pdb_metric_count(db) + pdb_module_count(db) +
	    pdb_cc_count(db); i++) {
		s[0] = s[1] = "";
		if (i < n) {
			pdb_meta_at(db, i, &s[0], &s[1]);
			if (!pdb_utf8_string(s[0]))
				return pdb_seterr(db, PDB_EINVAL, "metadata "
				    "key %zu is not UTF-8, which a dump's "
				    "keys are", i + 1);
		} else if ((j = i - n) < pdb_metric_count(db)) {
			mt = pdb_metric(db, (unsigned)j);
			s[0] = mt->name;
			s[1] = mt->unit;
		} else if ((j -= pdb_metric_count(db)) < pdb_module_count(db))
			s[0] = pdb_module_name(db, (uint32_t)j);
		else {
			pdb_cc(db, (uint32_t)(j - pdb_module_count(db)), &cc);
			s[0] = cc.label;
			s[1] = cc.src;
		}
		for (j = 0; j < 2; j++)
			if (strlen(s[j]) > MAX_STRING)
				return pdb_seterr(db, PDB_EINVAL, "a name of "
				    "%zu bytes, longer than a dump holds (%u)",
				    strlen(s[j]), (unsigned)MAX_STRING);
	}
	return PDB_OK;
}

static int
dump_write(struct pdb *db, FILE *f, const struct pdb_opts *opts)
{
	const struct pdb_metric *mt;
	const char *k, *v;
	struct pdb_cc cc;
	struct wr *w;
	unsigned char crc[4];
	unsigned nmetrics, m;
	uint64_t nodes = 0;
	uint32_t i, n;
	size_t j;
	int err;

	if (w_check(db) != PDB_OK)
		return pdb_errcode(db);
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	w->f = f;
	w->crc = crc32(0L, Z_NULL, 0);
	errno = 0;

	w_bytes(w, magic, MAGIC_LEN);
	w_varint(w, DUMP_VERSION);

	w_varint(w, pdb_meta_count(db));
	for (j = 0; j < pdb_meta_count(db); j++) {
		pdb_meta_at(db, j, &k, &v);
		w_string(w, k);
		w_string(w, v);
	}

	nmetrics = pdb_metric_count(db);
	w_varint(w, nmetrics);
	for (m = 0; m < nmetrics; m++) {
		mt = pdb_metric(db, m);
		w_string(w, mt->name);
		w_string(w, mt->unit);
		w_varint(w, (uint64_t)mt->kind);
		w_varint(w, mt->flags);
	}

	n = pdb_module_count(db);
	w_varint(w, n);
	for (i = 0; i < n; i++)
		w_string(w, pdb_module_name(db, i));

	n = pdb_cc_count(db);
	w_varint(w, n);
	for (i = 0; i < n; i++) {
		pdb_cc(db, i, &cc);
		w_string(w, cc.label);
		w_varint(w, cc.module_index);
		w_string(w, cc.src);
		w_varint(w, cc.flags);
		w_svarint(w, cc.profile_id);
	}

	w_varint(w, pdb_node_count(db) > 0 ? 1 : 0);
	if (w_tree(w, db, opts, &nodes) != PDB_OK) {
		free(w);
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	}

	w_varint(w, nodes);
	w_flush(w);
	crc[0] = w->crc & 0xff;
	crc[1] = (w->crc >> 8) & 0xff;
	crc[2] = (w->crc >> 16) & 0xff;
	crc[3] = (w->crc >> 24) & 0xff;
	if (w->err == 0 && fwrite(crc, 1, 4, f) != 4)
		w->err = errno ? errno : EIO;
	err = w->err;
	free(w);
	if (err != 0) {
		errno = err;
		return pdb_seterr(db, PDB_EIO, "cannot write dump: %s",
		    strerror(err));
	}
	return PDB_OK;
}
