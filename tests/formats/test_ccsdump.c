/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The native dump, ccs-dump(5).  tests/data/dump/small.hex is a dump
 * written from the man page by an independent encoder, annotated byte by
 * byte: the reader must read it as described and the writer must give
 * it back byte for byte.  Every profile every reader produces must
 * survive X -> dump -> read unchanged, and dump -> dump must be
 * byte-identical, through the library and through ccs-convert.  Bad
 * dumps are built here with a small encoder of our own, so that each
 * case says what it breaks.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "formats_int.h"
#include "testutil.h"

#define SMALL_HEX	"tests/data/dump/small.hex"

/* ---- an encoder, written from ccs-dump(5) ---- */

static void
b_magic(struct enc *b)
{
	enc_bytes(b, "\x89" "CCSDUMP\r\n\x1a\n", 12);
}

/*
 * Everything up to the tree: version 1, one metadata entry, one metric
 * (ticks, a cost), modules M and N, and five cost centres c0..c4.
 */
static void
b_header(struct enc *b)
{
	int i;
	char name[8];

	b_magic(b);
	enc_varint(b, 1);
	enc_varint(b, 1);
	enc_str(b, "program");
	enc_str(b, "test");
	enc_varint(b, 1);
	enc_str(b, "ticks");
	enc_str(b, "ticks");
	enc_varint(b, 0);
	enc_varint(b, 0);
	enc_varint(b, 2);
	enc_str(b, "M");
	enc_str(b, "N");
	enc_varint(b, 5);
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		enc_str(b, name);
		enc_varint(b, (uint64_t)i % 2);
		enc_str(b, "");
		enc_varint(b, 0);
		enc_svarint(b, i);
	}
}

/* The start of a dump of one metric, ticks, of this kind and flags. */
static void
b_metric_only(struct enc *b, uint64_t kind, uint64_t flags)
{
	b_magic(b);
	enc_varint(b, 1);
	enc_varint(b, 0);
	enc_varint(b, 1);
	enc_str(b, "ticks");
	enc_str(b, "ticks");
	enc_varint(b, kind);
	enc_varint(b, flags);
}

/* A node of the one-metric header. */
static void
b_node(struct enc *b, uint64_t cc, int64_t ticks, uint64_t kids)
{
	enc_varint(b, cc);
	enc_svarint(b, ticks);
	enc_varint(b, kids);
}

static void
b_trailer(struct enc *b, uint64_t nodes)
{
	uint32_t crc;

	enc_varint(b, nodes);
	crc = (uint32_t)crc32(0L, b->b, (uInt)b->len);
	enc_byte(b, crc & 0xff);
	enc_byte(b, (crc >> 8) & 0xff);
	enc_byte(b, (crc >> 16) & 0xff);
	enc_byte(b, crc >> 24);
}

/* The bytes of a .hex file: hex pairs, '#' to the end of a line ignored. */
static unsigned char *
hex_load(const char *path, size_t *lenp)
{
	char *text = slurp(path, NULL), *s;
	struct enc b = { NULL, 0, 0 };
	unsigned x;

	cr_assert(text != NULL, "cannot read %s", path);
	for (s = text; *s != '\0';) {
		if (*s == '#') {
			while (*s != '\0' && *s != '\n')
				s++;
		} else if (sscanf(s, "%2x", &x) == 1 && s[1] != '\0' &&
		    strchr("0123456789abcdefABCDEF", s[0]) &&
		    strchr("0123456789abcdefABCDEF", s[1])) {
			enc_byte(&b, x);
			s += 2;
		} else
			s++;
	}
	free(text);
	*lenp = b.len;
	return b.b;
}

/* ---- reading and writing through the format layer ---- */

/* Read len bytes (format fmt, or probed); *rc gets the result. */
static struct pdb *
read_bytes(const void *data, size_t len, const struct pdb_format *fmt,
    int *rc, char **pathp)
{
	struct pdb *db = pdb_new();
	char *path = write_temp(data, len, ".ccsdump");

	cr_assert(db != NULL);
	*rc = pdb_read_tree(db, path, fmt, NULL, NULL);
	if (pathp != NULL)
		*pathp = path;
	else {
		unlink(path);
		free(path);
	}
	return db;
}

/* db as a dump, malloc'd. */
static unsigned char *
write_dump(struct pdb *db, size_t *lenp)
{
	char *p = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&p, &len);

	cr_assert(f != NULL);
	cr_assert_eq(pdb_write(db, f, &pdb_fmt_ccsdump, NULL), PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_assert_eq(fclose(f), 0);
	*lenp = len;
	return (unsigned char *)p;
}

/*
 * The two profiles are the same: metadata in order, schema, module
 * table, cost-centre table, and the tree in pre-order (cost centre,
 * depth, child count, every value).  Node numbers may differ.
 */
static void
assert_same_profile(const struct pdb *a, const struct pdb *b, const char *what)
{
	const struct pdb_metric *ma, *mb;
	const char *ka, *va, *kb, *vb;
	struct pdb_cc ca, cb;
	uint32_t i, na, nb, da, db_;
	unsigned m;
	size_t j;

	cr_assert_eq(pdb_meta_count(a), pdb_meta_count(b), "%s: metadata",
	    what);
	for (j = 0; j < pdb_meta_count(a); j++) {
		pdb_meta_at(a, j, &ka, &va);
		pdb_meta_at(b, j, &kb, &vb);
		cr_assert_str_eq(ka, kb, "%s: metadata key %zu", what, j);
		cr_assert_str_eq(va, vb, "%s: metadata '%s'", what, ka);
	}
	cr_assert_eq(pdb_metric_count(a), pdb_metric_count(b), "%s", what);
	for (m = 0; m < pdb_metric_count(a); m++) {
		ma = pdb_metric(a, m);
		mb = pdb_metric(b, m);
		cr_assert_str_eq(ma->name, mb->name, "%s", what);
		cr_assert_str_eq(ma->unit, mb->unit, "%s", what);
		cr_assert_eq(ma->kind, mb->kind, "%s: %s", what, ma->name);
		cr_assert_eq(ma->flags, mb->flags, "%s: %s", what, ma->name);
	}
	cr_assert_eq(pdb_module_count(a), pdb_module_count(b), "%s", what);
	for (i = 0; i < pdb_module_count(a); i++)
		cr_assert_str_eq(pdb_module_name(a, i), pdb_module_name(b, i),
		    "%s: module %u", what, i);
	cr_assert_eq(pdb_cc_count(a), pdb_cc_count(b), "%s", what);
	for (i = 0; i < pdb_cc_count(a); i++) {
		pdb_cc(a, i, &ca);
		pdb_cc(b, i, &cb);
		cr_assert_str_eq(ca.label, cb.label, "%s: cc %u", what, i);
		cr_assert_str_eq(ca.module, cb.module, "%s: cc %u", what, i);
		cr_assert_str_eq(ca.src, cb.src, "%s: cc %u", what, i);
		cr_assert_eq(ca.module_index, cb.module_index, "%s: cc %u",
		    what, i);
		cr_assert_eq(ca.flags, cb.flags, "%s: cc %u", what, i);
		cr_assert_eq(ca.profile_id, cb.profile_id, "%s: cc %u", what,
		    i);
	}
	cr_assert_eq(pdb_node_count(a), pdb_node_count(b), "%s: nodes", what);
	na = pdb_walk_first(a, &da);
	nb = pdb_walk_first(b, &db_);
	for (i = 0; na != PDB_NONE; i++) {
		cr_assert_neq(nb, PDB_NONE, "%s: node %u", what, i);
		cr_assert_eq(da, db_, "%s: depth of node %u", what, i);
		cr_assert_eq(pdb_node_cc(a, na), pdb_node_cc(b, nb),
		    "%s: cost centre of node %u", what, i);
		cr_assert_eq(pdb_node_child_count(a, na),
		    pdb_node_child_count(b, nb), "%s: children of node %u",
		    what, i);
		for (m = 0; m < pdb_metric_count(a); m++)
			cr_assert_eq(pdb_node_value(a, na, m),
			    pdb_node_value(b, nb, m),
			    "%s: value %u of node %u", what, m, i);
		na = pdb_walk_next(a, na, &da);
		nb = pdb_walk_next(b, nb, &db_);
	}
	cr_assert_eq(nb, PDB_NONE, "%s: extra nodes", what);
	cr_assert_eq(i, pdb_node_count(a), "%s: walk", what);
}

/* ---- streaming ---- */

struct counter {
	int	 enters, exits, stop_at;
};

static int
c_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *v)
{
	struct counter *c = arg;

	(void)db;
	(void)cc;
	(void)v;
	return ++c->enters == c->stop_at ? PDB_ESTOP : 0;
}

static int
c_exit(void *arg, struct pdb *db)
{
	struct counter *c = arg;

	(void)db;
	c->exits++;
	return 0;
}

/* ---- probing ---- */

Test(ccsdump, probe)
{
	const struct pdb_format *f = &pdb_fmt_ccsdump;
	const unsigned char *magic = (const unsigned char *)
	    "\x89" "CCSDUMP\r\n\x1a\n\x01\x00";

	cr_assert_eq(f->probe(magic, 14), 100);
	cr_assert_eq(pdb_format_probe(magic, 14), f);
	/* A file shorter than the magic: the reader says "truncated". */
	cr_assert_eq(f->probe(magic, 5), 90);
	/* CR LF turned into LF, or the top bit stripped. */
	cr_assert_eq(f->probe((const unsigned char *)
	    "\x89" "CCSDUMP\n\x1a\n\x01\x00", 13), 90);
	cr_assert_eq(f->probe((const unsigned char *)
	    "\x09" "CCSDUMP\r\n\x1a\n\x01\x00", 14), 90);
	cr_assert_eq(f->probe((const unsigned char *)"\x89PNG\r\n\x1a\n", 8),
	    0);
	cr_assert_eq(f->probe((const unsigned char *)"MAIN;f 3\n", 9), 0);
	cr_assert_eq(f->probe((const unsigned char *)"", 0), 0);
}

/* ---- the annotated file ---- */

Test(ccsdump, small_read)
{
	static const char *const labels[] = { "MAIN", "f", "CAF", "g", "" };
	static const uint32_t mods[] = { 0, 0, 1, 2, 1 };
	static const uint32_t flags[] = { 0, 0, PDB_CC_CAF, 0,
	    PDB_CC_SYNTHETIC };
	static const int64_t ids[] = { -1, 7, 0, 300, -70 };
	/* Pre-order: cc, depth, children, ticks, words, calls. */
	static const int64_t nodes[][6] = {
		{ 0, 0, 3, 0, 0, 0 },
		{ 1, 1, 1, 5, 100, 1 },
		{ 3, 2, 1, 2, -8, 4 },
		{ 1, 3, 0, 1, 10, 2 },
		{ 2, 1, 0, 0, 64, 0 },
		{ 3, 1, 0, 300, 70000, 1 },
	};
	const struct pdb_metric *mt;
	unsigned char *data;
	const char *k, *v;
	struct pdb_cc cc;
	struct pdb *db;
	uint32_t i, n, depth;
	size_t len;
	int rc;

	data = hex_load(SMALL_HEX, &len);
	cr_assert_eq(len, 0xd8);
	db = read_bytes(data, len, NULL, &rc, NULL);
	cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));

	cr_assert_eq(pdb_meta_count(db), 3);
	pdb_meta_at(db, 0, &k, &v);
	cr_assert_str_eq(k, "source_format");
	cr_assert_str_eq(v, "test");
	pdb_meta_at(db, 2, &k, &v);
	cr_assert_str_eq(k, "note");
	cr_assert_str_eq(v, "\xce\xb1\xce\xb2 \xff");	/* not UTF-8 */

	cr_assert_eq(pdb_metric_count(db), 3);
	mt = pdb_metric(db, 0);
	cr_assert_str_eq(mt->name, "ticks");
	cr_assert_eq(mt->kind, PDB_COST);
	cr_assert_eq(mt->flags, PDB_METRIC_APPROX);
	mt = pdb_metric(db, 1);
	cr_assert_str_eq(mt->unit, "words");
	cr_assert_eq(mt->flags, 0);
	mt = pdb_metric(db, 2);
	cr_assert_str_eq(mt->name, "calls");
	cr_assert_eq(mt->kind, PDB_COUNT);

	cr_assert_eq(pdb_module_count(db), 3);
	cr_assert_str_eq(pdb_module_name(db, 0), "Main");
	cr_assert_str_eq(pdb_module_name(db, 1), "Lib");
	cr_assert_str_eq(pdb_module_name(db, 2), "Main");

	cr_assert_eq(pdb_cc_count(db), 5);
	for (i = 0; i < 5; i++) {
		pdb_cc(db, i, &cc);
		cr_assert_str_eq(cc.label, labels[i]);
		cr_assert_eq(cc.module_index, mods[i]);
		cr_assert_eq(cc.flags, flags[i]);
		cr_assert_eq(cc.profile_id, ids[i]);
	}
	pdb_cc(db, 3, &cc);
	cr_assert_str_eq(cc.src, "G.hs:2");
	cr_assert_str_eq(cc.module, "Main");

	cr_assert_eq(pdb_node_count(db), 6);
	for (i = 0, n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    i++, n = pdb_walk_next(db, n, &depth)) {
		cr_assert_lt(i, 6);
		cr_assert_eq(pdb_node_cc(db, n), (uint32_t)nodes[i][0]);
		cr_assert_eq(depth, (uint32_t)nodes[i][1], "node %u", i);
		cr_assert_eq(pdb_node_child_count(db, n),
		    (uint32_t)nodes[i][2]);
		cr_assert_eq(pdb_node_value(db, n, 0), nodes[i][3]);
		cr_assert_eq(pdb_node_value(db, n, 1), nodes[i][4]);
		cr_assert_eq(pdb_node_value(db, n, 2), nodes[i][5]);
	}
	cr_assert_eq(i, 6);
	free(data);
	pdb_free(db);
}

Test(ccsdump, small_write_identical)
{
	unsigned char *data, *out;
	size_t len, olen;
	struct pdb *db;
	int rc;

	data = hex_load(SMALL_HEX, &len);
	db = read_bytes(data, len, NULL, &rc, NULL);
	cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
	out = write_dump(db, &olen);
	cr_assert_eq(olen, len);
	cr_assert(memcmp(out, data, len) == 0);
	free(out);
	free(data);
	pdb_free(db);
}

/*
 * Values and ids at the ends of their ranges, an empty tree.  (INT64_MIN
 * and -1 on one metric would overflow its sums, which readers refuse.)
 */
Test(ccsdump, extremes)
{
	static const int64_t vals[] = { INT64_MIN, INT64_MAX, 0, 0 };
	struct pdb *db = pdb_new(), *back;
	unsigned char *out, *out2;
	uint32_t mod, a, b, root, n;
	size_t len, len2;
	struct counter count = { 0, 0, 0 };
	struct pdb_sink sink = { .enter = c_enter, .exit = c_exit,
	    .arg = &count };
	unsigned i;
	char *path;
	FILE *f;
	int rc;

	cr_assert_eq(pdb_metric_add(db, "v", "bytes", PDB_COST, 0, NULL),
	    PDB_OK);
	/* Flags no format defines are refused, so never written. */
	cr_assert_eq(pdb_metric_add(db, "c", "calls", PDB_COUNT, 0xffffffffu,
	    NULL), PDB_EINVAL);
	cr_assert_eq(pdb_metric_add(db, "c", "calls", PDB_COUNT,
	    PDB_METRIC_APPROX, NULL), PDB_OK);
	cr_assert_eq(pdb_module_add(db, "", &mod), PDB_OK);
	cr_assert_eq(pdb_cc_add(db, "", mod, "", 0xffffffffu, INT64_MIN, &a),
	    PDB_EINVAL);
	cr_assert_eq(pdb_cc_add(db, "", mod, "", PDB_CC_CAF | PDB_CC_SYNTHETIC,
	    INT64_MIN, &a), PDB_OK);
	cr_assert_eq(pdb_cc_add(db, "b", mod, "s p a c e", 0, INT64_MAX, &b),
	    PDB_OK);

	/* No tree yet (pdb_write() refuses that; the format allows it). */
	f = open_memstream((char **)&out, &len);
	cr_assert(f != NULL);
	cr_assert_eq(pdb_fmt_ccsdump.write(db, f, NULL), PDB_OK);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(out[len - 6], 0, "root count");
	path = write_temp(out, len, ".ccsdump");
	back = pdb_new();
	cr_assert_eq(pdb_read_stream(back, path, NULL, NULL, &sink, NULL),
	    PDB_OK, "%s", pdb_errmsg(back));
	cr_assert_eq(count.enters, 0);
	assert_same_profile(db, back, "empty tree");
	pdb_free(back);
	unlink(path);
	free(path);
	free(out);

	cr_assert_eq(pdb_root_new(db, a, &root), PDB_OK);
	for (i = 0; i < 4; i++) {
		cr_assert_eq(pdb_node_append(db, root, i % 2 ? a : b, &n),
		    PDB_OK);
		pdb_node_set_value(db, n, 0, vals[i]);
		pdb_node_set_value(db, n, 1, vals[3 - i]);
	}
	out = write_dump(db, &len);
	back = read_bytes(out, len, NULL, &rc, NULL);
	cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(back));
	assert_same_profile(db, back, "extremes");
	out2 = write_dump(back, &len2);
	cr_assert_eq(len, len2);
	cr_assert(memcmp(out, out2, len) == 0);
	free(out);
	free(out2);
	pdb_free(back);
	pdb_free(db);
}

/* pdb_write() to a memory file: its result, and *len bytes written. */
static int
try_write(struct pdb *db, const struct pdb_format *fmt, size_t *len)
{
	char *p = NULL;
	FILE *f = open_memstream(&p, len);
	int rc;

	cr_assert(f != NULL);
	rc = pdb_write(db, f, fmt, NULL);
	cr_assert_eq(fclose(f), 0);
	free(p);
	return rc;
}

/*
 * A writer refuses, before writing a byte, what its reader (or JSON)
 * would refuse: more metadata than a dump holds, a longer name, a key
 * that is not UTF-8.
 */
Test(ccsdump, writers_refuse_what_cannot_be_read_back)
{
	struct pdb *db = pdb_new();
	uint32_t mod, cc, root;
	char key[16], *big;
	size_t len, most = (size_t)64 << 20;
	int i;

	cr_assert_eq(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, NULL),
	    PDB_OK);
	cr_assert_eq(pdb_module_add(db, "M", &mod), PDB_OK);
	cr_assert_eq(pdb_cc_add(db, "f", mod, "", 0, -1, &cc), PDB_OK);
	cr_assert_eq(pdb_root_new(db, cc, &root), PDB_OK);
	for (i = 0; i < 4096; i++) {
		snprintf(key, sizeof(key), "k%d", i);
		cr_assert_eq(pdb_meta_set(db, key, "v"), PDB_OK);
	}
	cr_assert_eq(try_write(db, &pdb_fmt_ccsdump, &len), PDB_OK);
	cr_assert_eq(pdb_meta_set(db, "one more", "v"), PDB_OK);
	cr_assert_eq(try_write(db, &pdb_fmt_ccsdump, &len), PDB_EINVAL);
	cr_expect_eq(len, 0);
	cr_expect_str_eq(pdb_errmsg(db), "4097 metadata entries, more than "
	    "a dump holds (4096)");
	pdb_meta_unset(db, "one more");

	big = malloc(most + 2);
	cr_assert(big != NULL);
	memset(big, 'x', most + 1);
	big[most + 1] = '\0';
	cr_assert_eq(pdb_cc_add(db, big, mod, "", 0, -1, &cc), PDB_OK);
	cr_assert_eq(try_write(db, &pdb_fmt_ccsdump, &len), PDB_EINVAL);
	cr_expect_eq(len, 0);
	cr_expect_str_eq(pdb_errmsg(db), "a name of 67108865 bytes, longer "
	    "than a dump holds (67108864)");
	free(big);
	pdb_free(db);

	db = pdb_new();
	cr_assert_eq(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, NULL),
	    PDB_OK);
	cr_assert_eq(pdb_module_add(db, "M", &mod), PDB_OK);
	cr_assert_eq(pdb_cc_add(db, "f", mod, "", 0, -1, &cc), PDB_OK);
	cr_assert_eq(pdb_root_new(db, cc, &root), PDB_OK);
	cr_assert_eq(pdb_meta_set(db, "program", "p"), PDB_OK);
	cr_assert_eq(pdb_meta_set(db, "k\xff", "v"), PDB_OK);
	cr_assert_eq(try_write(db, &pdb_fmt_json, &len), PDB_EINVAL);
	cr_expect_eq(len, 0);
	cr_expect_str_eq(pdb_errmsg(db), "metadata key 2 is not UTF-8, which "
	    "JSON cannot hold");
	cr_assert_eq(try_write(db, &pdb_fmt_ccsdump, &len), PDB_EINVAL);
	cr_expect_eq(len, 0);
	cr_expect_str_eq(pdb_errmsg(db), "metadata key 2 is not UTF-8, which "
	    "a dump's keys are");
	pdb_free(db);
}

/* ---- every reader's output survives a dump ---- */

/* Criterion copies parameters to the worker: strings go inline. */
struct rtcase {
	char	 path[64];
};

static struct rtcase rtcases[] = {
	{ "tests/data/ghcjson/mj.json" },
	{ "tests/data/ghcjson/clausify.json" },
	{ "tests/data/ghcjson/demo.json" },
	{ "tests/data/ghc/mj.prof" },
	{ "tests/data/ghc/mj.P.prof" },
	{ "tests/data/ghc/clausify.P.prof" },
	{ "tests/data/ghc/demo.pa.prof" },
	{ "tests/data/ghc/quirks-N2.prof" },
	{ "tests/data/pgcl/synthetic-400.pgcl" },
	{ "tests/data/paper/fig7.folded" },
	{ "tests/data/paper/s2.4-uncompressed.folded" },
};

ParameterizedTestParameters(ccsdump, round_trip)
{
	return cr_make_param_array(struct rtcase, rtcases,
	    sizeof(rtcases) / sizeof(rtcases[0]));
}

/* X -> dump -> read equals X read; dump -> dump is byte-identical. */
ParameterizedTest(struct rtcase *c, ccsdump, round_trip)
{
	struct pdb *x = load_tree(c->path), *back;
	unsigned char *d1, *d2;
	size_t l1, l2;
	int rc;

	cr_assert_gt(pdb_node_count(x), 1, "%s", c->path);
	d1 = write_dump(x, &l1);
	back = read_bytes(d1, l1, NULL, &rc, NULL);
	cr_assert_eq(rc, PDB_OK, "%s: %s", c->path, pdb_errmsg(back));
	assert_same_profile(x, back, c->path);
	d2 = write_dump(back, &l2);
	cr_assert_eq(l1, l2, "%s", c->path);
	cr_assert(memcmp(d1, d2, l1) == 0, "%s", c->path);
	free(d1);
	free(d2);
	pdb_free(back);
	pdb_free(x);
}

ParameterizedTestParameters(ccsdump, convert_round_trip)
{
	return cr_make_param_array(struct rtcase, rtcases,
	    sizeof(rtcases) / sizeof(rtcases[0]));
}

/*
 * The same through the tools, from files and pipes: X -> dump -> dump
 * byte-identical, and ccs-flat gives the same table from X and its dump.
 */
ParameterizedTest(struct rtcase *c, ccsdump, convert_round_trip)
{
	char *dir = make_temp_dir();
	struct run r, f1, f2;

	run(&r, "ccs-convert -t dump %s -o %s/a.ccsdump && "
	    "ccs-convert -t dump %s/a.ccsdump -o %s/b.ccsdump && "
	    "cmp %s/a.ccsdump %s/b.ccsdump && "
	    "cat %s/a.ccsdump | ccs-convert -f dump -t dump - | "
	    "cmp - %s/a.ccsdump", c->path, dir, dir, dir, dir, dir, dir, dir);
	cr_assert_eq(r.status, 0, "%s: %s", c->path, r.err);
	run_free(&r);
	run(&f1, "ccs-flat --tsv %s", c->path);
	run(&f2, "cat %s/a.ccsdump | ccs-flat --tsv", dir);
	cr_assert_eq(f1.status, 0, "%s", f1.err);
	cr_assert_eq(f2.status, 0, "%s", f2.err);
	cr_assert_gt(f1.outlen, 40);
	cr_assert_str_eq(f1.out, f2.out, "%s", c->path);
	run_free(&f1);
	run_free(&f2);
	remove_temp(dir);
	free(dir);
}

/* The round trips: pgcl -> dump -> pgcl, GHC -> dump -> folded. */
Test(ccsdump, pgcl_dump_pgcl_identical)
{
	struct run r;

	run(&r, "ccs-convert -t dump tests/data/pgcl/synthetic-400.pgcl | "
	    "ccs-convert -t pgcl - | "
	    "cmp - tests/data/pgcl/synthetic-400.pgcl");
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	run_free(&r);
}

Test(ccsdump, ghc_dump_folded)
{
	static const char *const files[] = {
		"tests/data/ghc/mj.prof", "tests/data/ghc/demo.P.prof",
		"tests/data/ghcjson/mj.json",
	};
	struct run a, b;
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		run(&a, "ccs-convert -t folded %s", files[i]);
		run(&b, "ccs-convert -t dump %s | ccs-convert -t folded",
		    files[i]);
		cr_assert_eq(a.status, 0, "%s", a.err);
		cr_assert_eq(b.status, 0, "%s", b.err);
		cr_assert_gt(a.outlen, 100);
		cr_assert_str_eq(a.out, b.out, "%s", files[i]);
		run_free(&a);
		run_free(&b);
	}
}

Test(ccsdump, gzip)
{
	struct run r;

	run_in_temp(&r, "ccs-convert -t dump tests/data/ghcjson/mj.json | "
	    "gzip -c > \"$T\"/mj.ccsdump.gz && "
	    "ccs-flat --tsv \"$T\"/mj.ccsdump.gz > \"$T\"/gz.tsv &&"
	    " ccs-flat --tsv tests/data/ghcjson/mj.json | cmp - \"$T\"/gz.tsv");
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
}

/* The dump is binary: the tools refuse to write it to a terminal. */
Test(ccsdump, not_to_a_terminal)
{
	struct run r;

	run(&r, "script -qec 'ccs-convert -t dump "
	    "tests/data/ghcjson/mj.json' /dev/null");
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.out, "ccs-convert: ") != NULL &&
	    strstr(r.out, "terminal") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "CCSDUMP") == NULL);
	run_free(&r);
}

/* Examples are tests: the .Dl lines of ccs-dump(5). */
Test(ccsdump, man_examples)
{
	char *dir = make_temp_dir();
	struct run r;

	run(&r, "cp tests/data/ghc/mj.prof %s/prog.prof && cd %s && "
	    "ccs-convert -t dump prog.prof -o prog.ccsdump", dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	run(&r, "cd %s && ccs-convert -t dump prog.prof | ccs-flat -", dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "rev") != NULL);
	cr_assert_eq(r.errlen, 0);
	run_free(&r);
	run(&r, "cd %s && ccs-select -d 'GHC.*' prog.prof | ccs-flat", dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "rev") != NULL);
	cr_assert_eq(r.errlen, 0);
	run_free(&r);
	run(&r, "cd %s && xxd -l 13 prog.ccsdump", dir);
	cr_assert_eq(r.status, 0);
	cr_assert_str_eq(r.out, "00000000: 8943 4353 4455 4d50 0d0a 1a0a 01"
	    "         .CCSDUMP.....\n");
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

Test(ccsdump, stream_stops_when_asked)
{
	struct counter c = { 0, 0, 2 };
	struct pdb_sink sink = { .enter = c_enter, .exit = c_exit, .arg = &c };
	unsigned char *data;
	struct pdb *db = pdb_new();
	char *path;
	size_t len;

	data = hex_load(SMALL_HEX, &len);
	path = write_temp(data, len, ".ccsdump");
	cr_assert_eq(pdb_read_stream(db, path, NULL, NULL, &sink, NULL),
	    PDB_ESTOP);
	cr_assert_eq(c.enters, 2);
	pdb_free(db);
	db = pdb_new();
	c.enters = c.exits = c.stop_at = 0;
	cr_assert_eq(pdb_read_stream(db, path, NULL, NULL, &sink, NULL),
	    PDB_OK, "%s", pdb_errmsg(db));
	cr_assert_eq(c.enters, 6);
	cr_assert_eq(c.exits, 6);
	pdb_free(db);
	unlink(path);
	free(path);
	free(data);
}

/* ---- deep trees ---- */

#define DEEP	1000000

/* A chain c0, c1, c0, c1, ... DEEP nodes deep, one tick each. */
Test(ccsdump, deep_chain, .timeout = 120)
{
	struct enc b = { NULL, 0, 0 };
	unsigned char *out;
	struct pdb *db;
	struct run r;
	uint32_t n, depth, last = 0;
	size_t len, i;
	char *path;
	int rc;

	b_header(&b);
	enc_varint(&b, 1);
	for (i = 0; i < DEEP; i++)
		b_node(&b, i % 2, 1, i + 1 < DEEP ? 1 : 0);
	b_trailer(&b, DEEP);

	db = read_bytes(b.b, b.len, NULL, &rc, &path);
	cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
	cr_assert_eq(pdb_node_count(db), DEEP);
	for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth))
		last = depth;
	cr_assert_eq(last, DEEP - 1);
	out = write_dump(db, &len);
	cr_assert_eq(len, b.len);
	cr_assert(memcmp(out, b.b, len) == 0);
	free(out);
	pdb_free(db);

	/* Streaming, through a pipe: c0 and c1 each own half the ticks. */
	run(&r, "cat %s | ccs-flat --tsv", path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "M\tc0\t\t500000\t1000000\n") != NULL, "%s",
	    r.out);
	cr_assert(strstr(r.out, "N\tc1\t\t500000\t999999\n") != NULL, "%s",
	    r.out);
	run_free(&r);
	unlink(path);
	free(path);
	free(b.b);
}

/* ---- bad input ---- */

/* Every proper prefix of a dump fails at its end, naming the part. */
static void
truncate_everywhere(const unsigned char *data, size_t len)
{
	static const char *const parts[] = {
		"magic number", "header", "metadata", "metric table",
		"module table", "cost-centre table", "tree", "trailer",
	};
	char *path, want[256];
	struct pdb *db;
	size_t l, part = 0, k;
	int rc;

	path = write_temp(data, len, ".ccsdump");
	db = pdb_new();
	cr_assert_eq(pdb_read_tree(db, path, &pdb_fmt_ccsdump, NULL, NULL),
	    PDB_OK, "%s", pdb_errmsg(db));
	pdb_free(db);
	/* Shortest last: truncate(2) cannot lengthen without zeros. */
	part = sizeof(parts) / sizeof(parts[0]) - 1;
	for (l = len; l-- > 0;) {
		cr_assert_eq(truncate(path, (off_t)l), 0);
		db = pdb_new();
		rc = pdb_read_tree(db, path, &pdb_fmt_ccsdump, NULL, NULL);
		cr_assert_eq(rc, PDB_EFORMAT, "prefix %zu: %s", l,
		    pdb_errmsg(db));
		snprintf(want, sizeof(want), "%s: byte %zu: truncated in ",
		    path, l);
		cr_assert(strncmp(pdb_errmsg(db), want, strlen(want)) == 0,
		    "prefix %zu: %s", l, pdb_errmsg(db));
		/* The parts come in the order of the file. */
		for (k = part + 1; k-- > 0;)
			if (strcmp(pdb_errmsg(db) + strlen(want),
			    parts[k]) == 0)
				break;
		cr_assert_neq(k, (size_t)-1, "prefix %zu: %s", l,
		    pdb_errmsg(db));
		part = k;
		pdb_free(db);
	}
	cr_assert_eq(part, 0);
	unlink(path);
	free(path);
}

Test(ccsdump, truncated_small)
{
	unsigned char *data;
	size_t len;

	data = hex_load(SMALL_HEX, &len);
	truncate_everywhere(data, len);
	free(data);
}

Test(ccsdump, truncated_ghc, .timeout = 60)
{
	struct pdb *db = load_tree("tests/data/ghcjson/mj.json");
	unsigned char *data;
	size_t len;

	data = write_dump(db, &len);
	truncate_everywhere(data, len);
	free(data);
	pdb_free(db);
}

/* The tools print the reader's message. */
Test(ccsdump, truncated_tool_message)
{
	unsigned char *data;
	char *path, want[256];
	struct run r;
	size_t len;

	data = hex_load(SMALL_HEX, &len);
	path = write_temp(data, 0xc0, ".ccsdump");
	run(&r, "ccs-flat %s", path);
	cr_assert_eq(r.status, 1);
	snprintf(want, sizeof(want),
	    "ccs-flat: %s: byte 192: truncated in tree\n", path);
	cr_assert_str_eq(r.err, want);
	run_free(&r);
	run(&r, "cat %s | ccs-flat -", path);
	cr_assert_eq(r.status, 1);
	cr_assert_str_eq(r.err,
	    "ccs-flat: <stdin>: byte 192: truncated in tree\n");
	run_free(&r);
	unlink(path);
	free(path);
	free(data);
}

/*
 * A message that begins with the file's name is not taken for one that
 * says where: a file named "metric" gets its name and offset too.
 */
Test(ccsdump, message_starting_with_the_file_name)
{
	struct enc b = { NULL, 0, 0 };
	struct run r;
	char *path;
	int k;

	b_magic(&b);
	enc_varint(&b, 1);
	enc_varint(&b, 0);
	enc_varint(&b, 2);
	for (k = 0; k < 2; k++) {
		enc_str(&b, "ticks");
		enc_str(&b, "ticks");
		enc_varint(&b, 0);
		enc_varint(&b, 0);
	}
	path = write_temp(b.b, b.len, ".ccsdump");
	run_in_temp(&r, "cp %s \"$T\"/metric && cd \"$T\" && "
	    "ccs-flat metric", path);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err,
	    "ccs-flat: metric: byte 43: metric 'ticks' defined twice\n");
	run_free(&r);
	unlink(path);
	free(path);
	free(b.b);
}

/* A hand-broken dump and the message it must give (after "<file>: "). */
struct bad {
	unsigned char	 data[160];
	size_t		 len;
	int		 code;
	char		 msg[96];
};

static void
add_case(struct bad **cases, size_t *n, struct enc *b, int code,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void
add_case(struct bad **cases, size_t *n, struct enc *b, int code,
    const char *fmt, ...)
{
	struct bad *c;
	va_list ap;

	*cases = realloc(*cases, (*n + 1) * sizeof(**cases));
	cr_assert(*cases != NULL);
	c = &(*cases)[(*n)++];
	memset(c, 0, sizeof(*c));
	cr_assert_leq(b->len, sizeof(c->data));
	memcpy(c->data, b->b, b->len);
	c->len = b->len;
	c->code = code;
	va_start(ap, fmt);
	vsnprintf(c->msg, sizeof(c->msg), fmt, ap);
	va_end(ap);
	free(b->b);
	memset(b, 0, sizeof(*b));
}

static void
free_params(struct criterion_test_params *p)
{
	cr_free(p->params);
}

ParameterizedTestParameters(ccsdump, bad)
{
	struct bad *cases = NULL, *shared;
	struct enc b = { NULL, 0, 0 };
	size_t n = 0, off;

	enc_bytes(&b, "GIF89a\x01\x00\x01\x00\x00\x00\x00\x00", 14);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "not a ccs-dump file (bad magic number)");

	/* A text-mode transfer turned CR LF into LF. */
	enc_bytes(&b, "\x89" "CCSDUMP\n\x1a\n\x01\x00\x00\x00\x00\x00", 16);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "damaged magic number (was the file transferred as text?)");

	b_magic(&b);
	enc_varint(&b, 7);
	add_case(&cases, &n, &b, PDB_EUNSUPP,
	    "byte 12: unsupported dump version 7");

	b_magic(&b);
	enc_bytes(&b, "\x81\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01", 11);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 12: varint longer than 10 bytes in header");

	b_magic(&b);
	enc_varint(&b, 1);
	enc_bytes(&b, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 13: varint overflows 64 bits in metadata");

	/* Counts larger than anything could hold. */
	b_magic(&b);
	enc_varint(&b, 1);
	enc_varint(&b, 5000);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 13: too many metadata entries (5000)");

	b_magic(&b);
	enc_varint(&b, 1);
	enc_varint(&b, 0);
	enc_varint(&b, 0);
	enc_varint(&b, 0);
	enc_varint(&b, UINT64_MAX);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 16: too many cost centres (18446744073709551615)");

	/* Counts the file does not satisfy: read until it ends. */
	b_magic(&b);
	enc_varint(&b, 1);
	enc_varint(&b, 0);
	enc_varint(&b, 0);
	enc_varint(&b, 0);
	enc_varint(&b, 1000000);
	enc_str(&b, "a");
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 21: truncated in cost-centre table");

	b_magic(&b);
	enc_varint(&b, 1);
	enc_varint(&b, 1);
	enc_varint(&b, (uint64_t)1 << 40);
	enc_str(&b, "abc");
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 14: string of 1099511627776 bytes too long in metadata");

	b_magic(&b);
	enc_varint(&b, 1);
	enc_varint(&b, 1);
	enc_varint(&b, 60 << 20);
	enc_str(&b, "abc");
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 22: truncated in metadata");

	b_header(&b);
	enc_varint(&b, 1);
	b_node(&b, 0, 1, UINT64_MAX);
	b_node(&b, 1, 1, 0);
	off = b.len;
	add_case(&cases, &n, &b, PDB_EFORMAT, "byte %zu: truncated in tree",
	    off);

	b_magic(&b);
	enc_varint(&b, 1);
	enc_varint(&b, 1);
	enc_str(&b, "ke");
	enc_bytes(&b, "\x03y\0s", 4);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 17: NUL byte in string in metadata");

	b_metric_only(&b, 7, 0);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 27: unknown metric kind 7 for 'ticks'");

	b_metric_only(&b, 0, (uint64_t)1 << 33);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 28: flags 8589934592 out of range in metric table");

	/* Keys are unique UTF-8; flags only those defined. */
	b_magic(&b);
	enc_varint(&b, 1);
	enc_varint(&b, 2);
	enc_str(&b, "k");
	enc_str(&b, "1");
	enc_str(&b, "k");
	enc_str(&b, "2");
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 18: metadata key 'k' given twice");

	b_magic(&b);
	enc_varint(&b, 1);
	enc_varint(&b, 1);
	enc_str(&b, "k\xff");
	enc_str(&b, "v");
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 14: metadata key is not UTF-8");

	b_metric_only(&b, 0, 2);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 28: unknown flags 0x2 for 'ticks' (0x1 are defined)");

	b_magic(&b);
	enc_varint(&b, 1);
	enc_varint(&b, 0);
	enc_varint(&b, 0);
	enc_varint(&b, 1);
	enc_str(&b, "M");
	enc_varint(&b, 1);
	enc_str(&b, "f");
	enc_varint(&b, 0);
	enc_str(&b, "");
	enc_varint(&b, 4);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte 23: unknown flags 0x4 for 'f' (0x3 are defined)");

	/* Indices out of range. */
	b_magic(&b);
	enc_varint(&b, 1);
	enc_varint(&b, 0);
	enc_varint(&b, 0);
	enc_varint(&b, 1);
	enc_str(&b, "M");
	enc_varint(&b, 1);
	enc_str(&b, "f");
	off = b.len;
	enc_varint(&b, 3);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte %zu: module index 3 out of range (1 modules)", off);

	b_header(&b);
	enc_varint(&b, 1);
	b_node(&b, 0, 1, 1);
	off = b.len;
	b_node(&b, 12, 1, 0);
	b_trailer(&b, 2);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte %zu: cost centre index 12 out of range (5 cost centres)",
	    off);

	b_header(&b);
	off = b.len;
	enc_varint(&b, 2);
	b_node(&b, 0, 1, 0);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte %zu: 2 roots (a dump has at most one)", off);

	/* The trailer. */
	b_header(&b);
	enc_varint(&b, 1);
	b_node(&b, 0, 1, 1);
	b_node(&b, 1, 1, 0);
	off = b.len;
	b_trailer(&b, 3);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte %zu: trailer says 3 nodes, the tree has 2", off);

	b_header(&b);
	enc_varint(&b, 1);
	b_node(&b, 0, 1, 1);
	b_node(&b, 1, 1, 0);
	b_trailer(&b, 2);
	b.b[b.len - 7] ^= 0x02;	/* the last node's ticks: 1 becomes 0 */
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte %zu: checksum mismatch (file says ", b.len - 4);

	b_header(&b);
	enc_varint(&b, 1);
	b_node(&b, 0, 1, 0);
	b_trailer(&b, 1);
	off = b.len;
	enc_byte(&b, 0);
	add_case(&cases, &n, &b, PDB_EFORMAT,
	    "byte %zu: trailing bytes after the end of the dump", off);

	/* Hand the cases to Criterion in its own memory. */
	shared = cr_malloc(n * sizeof(*shared));
	cr_assert(shared != NULL);
	memcpy(shared, cases, n * sizeof(*shared));
	free(cases);
	return cr_make_param_array(struct bad, shared, n, free_params);
}

ParameterizedTest(struct bad *c, ccsdump, bad)
{
	char *path, want[256];
	struct pdb *db;
	int rc;

	db = read_bytes(c->data, c->len, &pdb_fmt_ccsdump, &rc, &path);
	cr_assert_eq(rc, c->code, "want '%s', got %d '%s'", c->msg, rc,
	    pdb_errmsg(db));
	snprintf(want, sizeof(want), "%s: %s", path, c->msg);
	cr_assert(strncmp(pdb_errmsg(db), want, strlen(want)) == 0,
	    "got '%s', want '%s'", pdb_errmsg(db), want);
	pdb_free(db);
	unlink(path);
	free(path);
}

/* Detected by content, whatever the name; the magic wins over others. */
Test(ccsdump, detected_by_content)
{
	const struct pdb_format *used = NULL;
	unsigned char *data;
	struct pdb *db = pdb_new();
	char *path;
	size_t len;

	data = hex_load(SMALL_HEX, &len);
	path = write_temp(data, len, ".prof");
	cr_assert_eq(pdb_read_tree(db, path, NULL, NULL, &used), PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_assert_eq(used, &pdb_fmt_ccsdump);
	pdb_free(db);
	unlink(path);
	free(path);
	free(data);
}
