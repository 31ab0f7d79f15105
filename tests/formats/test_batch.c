/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The batch path of the binary readers (struct pdb_batch): pgcl and dump
 * files of thousands of nodes, with recursion, negative and huge values,
 * read by the flat analysis in batches and one event at a time must give
 * the same answers, and the same errors at the same offsets.  Also the
 * pieces: the node decoders against a byte-by-byte one, and pdb_crc32()
 * against zlib.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "formats_int.h"
#include "pdb.h"
#include "testutil.h"

/* ---- encoders, independent of the readers ---- */

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

#define NCC	40
#define NMAX	8

/*
 * A random tree in pre-order: cost centre, nm values, child count.  Cost
 * centres repeat on a path (recursion); values are mostly small, some
 * negative, a few above 2^53 (where the batch sums are checked value by
 * value), none large enough for 20000 nodes to overflow.
 */
struct node {
	uint32_t	 cc;
	int64_t		 v[NMAX];
	uint64_t	 nch;
};

static size_t
random_tree(uint64_t seed, size_t n, unsigned nm, int neg, struct node *t)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ULL | 1, r;
	size_t *open, depth = 0, i;
	unsigned m;

	cr_assert((open = calloc(n + 1, sizeof(*open))) != NULL);
	for (i = 0; i < n; i++) {
		if (i > 0) {
			/* Down, or up some levels but never past the root. */
			if (rnd(&s) % 2)
				depth -= rnd(&s) % depth;
			t[open[depth - 1]].nch++;
		}
		open[depth++] = i;
		t[i].cc = (uint32_t)(rnd(&s) % NCC);
		t[i].nch = 0;
		for (m = 0; m < nm; m++) {
			r = rnd(&s);
			t[i].v[m] = (int64_t)(r % 8 == 0 ? r >> 40 :
			    r % 64 == 1 ? r >> 14 : r % 512 == 3 ? r >> 8 :
			    r >> 60);
			if (neg && r % 5 == 2)
				t[i].v[m] = -t[i].v[m];
		}
	}
	free(open);
	return n;
}

/* The tree as a dump, whose last metric (of several) is a count. */
static char *
dump_file(const struct node *t, size_t n, unsigned nm)
{
	struct enc e = { 0 };
	unsigned char crc[4];
	uLong c;
	size_t i;
	unsigned m;
	char name[16], *p;

	enc_bytes(&e, "\211CCSDUMP\r\n\032\n", 12);
	enc_varint(&e, 1);
	enc_varint(&e, 0);
	enc_varint(&e, nm);
	for (m = 0; m < nm; m++) {
		snprintf(name, sizeof(name), "m%u", m);
		enc_str(&e, name);
		enc_str(&e, "u");
		enc_varint(&e, m == nm - 1 && nm > 1 ? PDB_COUNT : PDB_COST);
		enc_varint(&e, 0);
	}
	enc_varint(&e, 2);
	enc_str(&e, "Lib");
	enc_str(&e, "Main");
	enc_varint(&e, NCC);
	for (i = 0; i < NCC; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		enc_str(&e, name);
		enc_varint(&e, i % 2);
		enc_str(&e, "");
		enc_varint(&e, 0);
		enc_varint(&e, (uint64_t)i << 1);
	}
	enc_varint(&e, 1);
	for (i = 0; i < n; i++) {
		enc_varint(&e, t[i].cc);
		for (m = 0; m < nm; m++)
			enc_varint(&e, ((uint64_t)t[i].v[m] << 1) ^
			    (t[i].v[m] < 0 ? UINT64_MAX : 0));
		enc_varint(&e, t[i].nch);
	}
	enc_varint(&e, n);
	c = crc32(0L, e.b, (uInt)e.len);
	crc[0] = c & 0xff;
	crc[1] = (c >> 8) & 0xff;
	crc[2] = (c >> 16) & 0xff;
	crc[3] = (c >> 24) & 0xff;
	enc_bytes(&e, crc, 4);
	p = write_temp(e.b, e.len, ".dump");
	free(e.b);
	return p;
}

/* A pgcl version 2 file: six values a node, the words may be negative. */
static char *
pgcl_file(const struct node *t, size_t n)
{
	struct enc e = { 0 };
	size_t i;
	unsigned m;
	char name[16], *p;

	enc_bytes(&e, "prof", 4);
	enc_u32(&e, 2);
	enc_u32(&e, 2);
	enc_u32(&e, NCC);
	enc_varint(&e, 1000);
	enc_varint(&e, 7);
	enc_bytes(&e, "Lib", 4);
	enc_bytes(&e, "Main", 5);
	for (i = 0; i < NCC; i++) {
		snprintf(name, sizeof(name), "f%zu", i);
		enc_varint(&e, 1 + i % 2);
		enc_bytes(&e, name, strlen(name) + 1);
	}
	for (i = 0; i < n; i++) {
		enc_varint(&e, t[i].cc + 1);
		for (m = 0; m < 6; m++)
			enc_varint(&e, (uint64_t)t[i].v[m]);
		enc_varint(&e, t[i].nch);
	}
	p = write_temp(e.b, e.len, ".pgcl");
	free(e.b);
	return p;
}

/* ---- reading both ways ---- */

struct answer {
	int		 rc;
	char		 err[512];
	uint64_t	 nodes;
	int64_t		 self[NCC][NMAX], inh[NCC][NMAX], total[NMAX];
	int		 seen[NCC], sel[NCC];
};

/* The metrics to compute, flat and inherited (both) or flat alone. */
struct pick {
	uint64_t	 both, self;
};

/* pdb_flat_want() with the sets of metrics in arg, a struct pick. */
static int
want_pick(void *arg, const struct pdb *db, unsigned m)
{
	const struct pick *p = arg;

	(void)db;
	if (m < 64 && (p->both >> m & 1))
		return 1;
	return m < 64 && (p->self >> m & 1) ? PDB_FLAT_SELF : 0;
}

/*
 * Stream path to a flat analysis, in batches or (one) event by event,
 * of the metrics in *want (NULL: all).
 */
static void
answer_of(const char *path, int one, const char *deselect,
    struct pick *want, struct answer *a)
{
	struct pdb_sel *sel = NULL;
	struct pdb_flat *fl;
	struct pdb_sink s;
	struct pdb *db;
	unsigned m;
	uint32_t c;

	memset(a, 0, sizeof(*a));
	if (deselect != NULL) {
		cr_assert((sel = pdb_sel_new()) != NULL);
		cr_assert(pdb_sel_add(sel, 0, deselect) == PDB_OK);
	}
	cr_assert((db = pdb_new()) != NULL);
	cr_assert((fl = pdb_flat_new(sel)) != NULL);
	if (want != NULL)
		pdb_flat_want(fl, want_pick, want);
	s = *pdb_flat_sink(fl);
	if (one)
		s.nodes = NULL;
	a->rc = pdb_read_stream(db, path, NULL, NULL, &s, NULL);
	snprintf(a->err, sizeof(a->err), "%s", a->rc ? pdb_errmsg(db) : "");
	if (a->rc == PDB_OK) {
		a->nodes = pdb_flat_nodes(fl);
		for (m = 0; m < pdb_metric_count(db) && m < NMAX; m++) {
			a->total[m] = pdb_flat_total(fl, m);
			for (c = 0; c < NCC; c++) {
				a->self[c][m] = pdb_flat_self(fl, c, m);
				a->inh[c][m] = pdb_flat_inherited(fl, c, m);
			}
		}
		for (c = 0; c < NCC; c++) {
			a->seen[c] = pdb_flat_seen(fl, c);
			a->sel[c] = pdb_flat_selected(fl, c);
		}
	}
	pdb_flat_free(fl);
	pdb_sel_free(sel);
	pdb_free(db);
}

static void
answer(const char *path, int one, const char *deselect, struct answer *a)
{
	answer_of(path, one, deselect, NULL, a);
}

static void
same_both_ways(const char *path, const char *deselect, int want_rc)
{
	static struct answer a, b;

	answer(path, 0, deselect, &a);
	answer(path, 1, deselect, &b);
	cr_expect_eq(a.rc, want_rc, "%s: %d %s", path, a.rc, a.err);
	cr_expect_eq(a.rc, b.rc, "%s: batches %d, events %d", path, a.rc, b.rc);
	cr_expect_str_eq(a.err, b.err, "%s", path);
	cr_expect(memcmp(&a, &b, sizeof(a)) == 0,
	    "%s (-d %s): batches and events differ", path,
	    deselect ? deselect : "");
}

Test(batch, flat_in_batches_is_flat_by_events, .timeout = 120)
{
	static struct node t[20000];
	static const unsigned nms[] = { 1, 3, 6, 4 };
	size_t n, i;
	unsigned k;
	char *p;

	for (k = 0; k < 8; k++) {
		n = random_tree(k + 1, k < 4 ? 20000 : 3000, nms[k % 4], k % 2,
		    t);
		p = dump_file(t, n, nms[k % 4]);
		same_both_ways(p, NULL, PDB_OK);
		same_both_ways(p, "Main.*", PDB_OK);
		unlink(p);
		free(p);
		/* pgcl has six values; words (1) may be negative. */
		for (i = 0; i < n; i++)
			t[i].v[0] = t[i].v[0] < 0 ? -t[i].v[0] : t[i].v[0];
		p = pgcl_file(t, n);
		same_both_ways(p, NULL, PDB_OK);
		same_both_ways(p, "f1*", PDB_OK);
		unlink(p);
		free(p);
	}
}

/*
 * Picking metrics: those picked come out as when all are computed, in
 * batches (whose readers then skip decoding the others) and event by
 * event; the others read 0, and so do the inherited costs of those
 * picked for their flat costs alone (PDB_FLAT_SELF: ccs-flat's entries).
 */
static void
same_when_picked(const char *path, unsigned nm, const char *deselect)
{
	static struct answer all, a, b;
	const uint64_t last = (uint64_t)1 << (nm - 1);
	const struct pick picks[] = {
		{ 1, 0 }, { last, 0 }, { 5, 0 }, { 0, 0 },
		{ 1, last }, { 0, 3 }, { last, 1 }, { 1, ~(uint64_t)1 }
	};
	struct pick want;
	unsigned m, k;
	uint32_t c;

	answer(path, 0, deselect, &all);
	cr_assert_eq(all.rc, PDB_OK, "%s: %s", path, all.err);
	for (k = 0; k < sizeof(picks) / sizeof(picks[0]); k++) {
		want = picks[k];
		answer_of(path, 0, deselect, &want, &a);
		answer_of(path, 1, deselect, &want, &b);
		cr_assert_eq(a.rc, PDB_OK, "%s: %s", path, a.err);
		cr_assert(memcmp(&a, &b, sizeof(a)) == 0,
		    "%s, metrics %#llx/%#llx: batches and events differ",
		    path, (unsigned long long)want.both,
		    (unsigned long long)want.self);
		cr_assert_eq(a.nodes, all.nodes);
		for (m = 0; m < nm; m++) {
			int both = want.both >> m & 1;
			int picked = both || (want.self >> m & 1);

			cr_assert_eq(a.total[m], picked ? all.total[m] : 0,
			    "%s, metrics %#llx/%#llx: total of %u", path,
			    (unsigned long long)want.both,
			    (unsigned long long)want.self, m);
			for (c = 0; c < NCC; c++) {
				cr_assert_eq(a.self[c][m],
				    picked ? all.self[c][m] : 0);
				cr_assert_eq(a.inh[c][m],
				    both ? all.inh[c][m] : 0,
				    "%s, metrics %#llx/%#llx: inherited of "
				    "%u, %u", path,
				    (unsigned long long)want.both,
				    (unsigned long long)want.self, c, m);
			}
		}
	}
}

Test(batch, picked_metrics_are_the_same, .timeout = 120)
{
	static struct node t[20000];
	static const unsigned nms[] = { 1, 3, 6, 4 };
	size_t n, i;
	unsigned k;
	char *p;

	for (k = 0; k < 4; k++) {
		n = random_tree(50 + k, 20000, nms[k], 1, t);
		p = dump_file(t, n, nms[k]);
		same_when_picked(p, nms[k], NULL);
		same_when_picked(p, nms[k], "Main.*");
		unlink(p);
		free(p);
		for (i = 0; i < n; i++)
			t[i].v[0] = t[i].v[0] < 0 ? -t[i].v[0] : t[i].v[0];
		p = pgcl_file(t, n);
		same_when_picked(p, 6, NULL);
		same_when_picked(p, 6, "f1*");
		unlink(p);
		free(p);
	}
}

/* A metric not computed cannot overflow; one computed flat alone can. */
Test(batch, overflow_only_in_the_metrics_picked, .timeout = 60)
{
	static struct node t[5000];
	static struct answer a;
	struct pick want;
	size_t n;
	char *p;
	int one;

	n = random_tree(77, 5000, 3, 0, t);
	t[1000].v[1] = INT64_MAX - 5;
	t[2000].v[1] = INT64_MAX - 5;
	p = dump_file(t, n, 3);
	answer(p, 0, NULL, &a);
	cr_assert_eq(a.rc, PDB_EFORMAT, "the sum of metric 1 overflows");
	want.both = 5;
	want.self = 0;
	answer_of(p, 0, NULL, &want, &a);
	cr_assert_eq(a.rc, PDB_OK, "%s", a.err);
	for (one = 0; one <= 1; one++) {
		want.both = 2;
		answer_of(p, one, NULL, &want, &a);
		cr_assert_eq(a.rc, PDB_EFORMAT);
		want.both = 1;
		want.self = 2;
		answer_of(p, one, NULL, &want, &a);
		cr_assert_eq(a.rc, PDB_EFORMAT, "flat alone, %s",
		    one ? "events" : "batches");
		want.self = 0;
	}
	unlink(p);
	free(p);
}

Test(batch, overflow_names_the_same_node, .timeout = 120)
{
	static struct node t[5000];
	size_t n, at;
	unsigned k;
	char *p;

	for (k = 0; k < 6; k++) {
		n = random_tree(100 + k, 5000, 3, 1, t);
		/* Two huge values: the second sum passes 2^63 there. */
		at = 1000 + 700 * k;
		t[at / 2].v[k % 3] = k % 2 ? INT64_MIN + 5 : INT64_MAX - 5;
		t[at].v[k % 3] = k % 2 ? -(INT64_MAX / 2 + 9) : INT64_MAX / 2 + 9;
		p = dump_file(t, n, 3);
		same_both_ways(p, NULL, PDB_EFORMAT);
		unlink(p);
		free(p);
		/* The same in pgcl, whose values are unsigned. */
		n = random_tree(200 + k, 5000, 6, 0, t);
		t[at / 2].v[k] = INT64_MAX - 5;
		t[at].v[k] = INT64_MAX / 2 + 9;
		p = pgcl_file(t, n);
		same_both_ways(p, NULL, PDB_EFORMAT);
		unlink(p);
		free(p);
	}
}

/*
 * A tree's builder checks a run of nodes at once where it can (values
 * below 2^55): when many such values make a sum pass 2^63, or the
 * negative one pass 2^63 in magnitude, within a run or at its end, it
 * names the node the events one at a time name.
 */
Test(batch, overflow_in_a_run_names_the_same_node, .timeout = 120)
{
	static struct node t[5000];
	struct pdb_flat *fl;
	struct pdb_sink s;
	struct pdb *db;
	char tree[512], *p;
	size_t n, at;
	unsigned k;
	int rc;

	for (k = 0; k < 8; k++) {
		n = random_tree(300 + k, 5000, 3, 1, t);
		for (at = 0; at < 300 + 40 * k; at++)
			t[1000 + 7 * k + at].v[k % 3] = (k % 2 ? -1 : 1) *
			    (((int64_t)1 << 55) - 1 - (int64_t)(k * 1000));
		p = dump_file(t, n, 3);
		cr_assert((db = pdb_new()) != NULL);
		rc = pdb_read_tree(db, p, NULL, NULL, NULL);
		cr_assert_eq(rc, PDB_EFORMAT, "case %u: %d", k, rc);
		snprintf(tree, sizeof(tree), "%s", pdb_errmsg(db));
		pdb_free(db);
		cr_assert((db = pdb_new()) != NULL);
		cr_assert((fl = pdb_flat_new(NULL)) != NULL);
		s = *pdb_flat_sink(fl);
		s.nodes = NULL;
		rc = pdb_read_stream(db, p, NULL, NULL, &s, NULL);
		cr_assert_eq(rc, PDB_EFORMAT, "case %u: %d", k, rc);
		cr_assert(strstr(tree, "64-bit overflow summing") != NULL,
		    "case %u: %s", k, tree);
		cr_assert_str_eq(tree, pdb_errmsg(db), "case %u", k);
		pdb_flat_free(fl);
		pdb_free(db);
		unlink(p);
		free(p);
	}
}

/* ---- the pieces ---- */

/* A byte-by-byte varint, or -1 for one over 10 bytes or 64 bits. */
static int
ref_varint(const unsigned char **pp, uint64_t *v)
{
	const unsigned char *p = *pp;
	unsigned i;

	*v = 0;
	for (i = 0; i < 10; i++) {
		*v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (p[i] < 0x80) {
			if (i == 9 && p[i] > 1)
				return -1;
			*pp = p + i + 1;
			return 0;
		}
	}
	return -1;
}

#ifdef PDB_HAVE_PEXT
static __attribute__((target("bmi,bmi2"))) int
pext_node(const unsigned char **pp, uint64_t *v, unsigned k, int zz,
    uint32_t skip)
{
	return pdb_varints_pext(pp, v, k, zz, skip);
}
#endif

Test(batch, node_decoders_agree)
{
	unsigned char buf[256];
	const unsigned char *p, *q;
	uint64_t s = 42, want[16], got[16], u;
	uint32_t skip;
	unsigned k, j, len, t;
	int rc;

	for (t = 0; t < 200000; t++) {
		k = 1 + rnd(&s) % 10;
		memset(buf, 0, sizeof(buf));
		len = 0;
		for (j = 0; j < k; j++) {
			/* Lengths 1 to 10, a few bad varints. */
			unsigned n = 1 + rnd(&s) % 10, b;

			u = rnd(&s);
			for (b = 0; b + 1 < n; b++)
				buf[len++] = (unsigned char)(u >> (7 * b)) | 0x80;
			buf[len++] = n == 10 ? (unsigned char)(rnd(&s) % 200 <
			    190 ? u >> 63 : 2 + rnd(&s) % 100) :
			    (unsigned char)(u >> (7 * b)) & 0x7f;
		}
		if (rnd(&s) % 50 == 0)
			memset(buf + rnd(&s) % 20, 0xff, 11);
		/* The reference, zigzag between the first and the last. */
		p = buf;
		rc = 0;
		for (j = 0; j < k; j++) {
			rc |= ref_varint(&p, &want[j]);
			if (t % 2 && j > 0 && j + 1 < k)
				want[j] = (want[j] >> 1) ^ (0 - (want[j] & 1));
		}
		q = buf;
		cr_assert_eq(pdb_varints_dec(&q, got, k, t % 2, 0) != 0, rc != 0);
		if (rc == 0) {
			cr_assert(q == p);
			cr_assert(memcmp(got, want, k * sizeof(*got)) == 0);
		}
#ifdef PDB_HAVE_PEXT
		if (!pdb_cpu_pext())
			continue;
		q = buf;
		if (pext_node(&q, got, k, t % 2, 0) == 0) {
			/* It may also refuse good ones past 32 bytes. */
			cr_assert_eq(rc, 0, "case %u", t);
			cr_assert(q == p);
			cr_assert(memcmp(got, want, k * sizeof(*got)) == 0,
			    "case %u", t);
		} else
			cr_assert(rc != 0 || p - buf > 32, "case %u", t);
		/* Skipping values checks them all the same. */
		skip = (uint32_t)rnd(&s);
		q = buf;
		memset(got, 0, sizeof(got));
		if (pext_node(&q, got, k, t % 2, skip) == 0) {
			cr_assert_eq(rc, 0, "case %u, skip %#x", t, skip);
			cr_assert(q == p);
			for (j = 0; j < k; j++)
				cr_assert(got[j] == want[j] || (j > 0 &&
				    j + 1 < k && (skip >> j & 1)),
				    "case %u, skip %#x: varint %u", t, skip, j);
		} else
			cr_assert(rc != 0 || p - buf > 32, "case %u, skip %#x",
			    t, skip);
#endif
	}
}

#ifdef PDB_HAVE_PEXT
static __attribute__((target("bmi,bmi2"))) unsigned char *
pdep_put56(unsigned char *p, uint64_t v)
{
	return pdb_put_varint56(p, v);
}
#endif

/*
 * The varint encoders give the bytes the reference decoder reads back,
 * the pdep one (below 2^56) the same as the plain one, around every
 * length's bounds.
 */
Test(batch, varint_encoders_agree)
{
	unsigned char a[16], b[16];
	const unsigned char *p;
	uint64_t s = 7, v, back;
	unsigned t, k;
	int d;

	for (t = 0; t < 300000; t++) {
		k = t % 65;
		/* Each bit length, one either side of its bound, or any. */
		v = t % 3 == 0 ? rnd(&s) >> (rnd(&s) % 64) : k == 64 ?
		    UINT64_MAX : ((uint64_t)1 << k) + (uint64_t)(t % 3) - 2;
		d = t % 7 == 0 ? (int)(t % 11) : 0;
		v += (uint64_t)d;
		memset(a, 0xaa, sizeof(a));
		memset(b, 0x55, sizeof(b));
		k = (unsigned)(pdb_put_varint(a, v) - a);
		p = a;
		cr_assert_eq(ref_varint(&p, &back), 0);
		cr_assert_eq(back, v, "value %#llx", (unsigned long long)v);
		cr_assert_eq((unsigned)(p - a), k);
#ifdef PDB_HAVE_PEXT
		if (!pdb_cpu_pext() || v >> 56 != 0)
			continue;
		cr_assert_eq((unsigned)(pdep_put56(b, v) - b), k,
		    "value %#llx", (unsigned long long)v);
		cr_assert(memcmp(a, b, k) == 0, "value %#llx",
		    (unsigned long long)v);
#endif
	}
}

#ifdef PDB_HAVE_AVX512
static __attribute__((target(PDB_AVX512))) unsigned char *
avx512_node(unsigned char *p, uint32_t cc, const int64_t *vals, unsigned nm,
    uint32_t nkids)
{
	return pdb_put_node_avx512(p, cc, vals, nm, nkids);
}
#endif

/*
 * A whole node at once (AVX-512) gives the bytes of its fields one
 * varint at a time, values zigzagged, for every number of values it
 * takes, each field of any length around the bounds of the lengths;
 * and declines a node with a field of 2^56 or more.  It leaves the
 * bytes before its start alone.
 */
Test(batch, node_encoder_agrees)
{
#ifdef PDB_HAVE_AVX512
	unsigned char a[128], b[160];
	uint64_t s = 11, f[8], z;
	int64_t vals[8];
	unsigned t, nm, j, k, n;
	int big;

	if (!pdb_cpu_avx512())
		cr_skip_test("no AVX-512 (VBMI2) on this CPU");
	for (t = 0; t < 400000; t++) {
		nm = 1 + t % 6;
		big = 0;
		for (j = 0; j < nm + 2; j++) {
			/* A bit length, one either side of its bound, or
			 * any; rarely 2^56 or more. */
			k = (unsigned)(rnd(&s) % 58);
			f[j] = rnd(&s) % 3 == 0 ? rnd(&s) >> (rnd(&s) % 64) :
			    ((uint64_t)1 << k) + rnd(&s) % 3 - 1;
			if (j == 0 || j == nm + 1)
				f[j] &= 0xffffffffu;
			else if (rnd(&s) % 2)
				f[j] = 0 - f[j];
		}
		for (j = 0; j < nm; j++)
			vals[j] = (int64_t)f[j + 1];
		n = 0;
		memset(a, 0xaa, sizeof(a));
		for (j = 0; j < nm + 2; j++) {
			z = j == 0 || j == nm + 1 ? f[j] :
			    f[j] << 1 ^ (0 - (f[j] >> 63));
			big |= z >> 56 != 0;
			n = (unsigned)(pdb_put_varint(a + n, z) - a);
		}
		memset(b, 0x55, sizeof(b));
		if (big) {
			cr_assert(avx512_node(b + 16, (uint32_t)f[0], vals, nm,
			    (uint32_t)f[nm + 1]) == NULL, "case %u", t);
			continue;
		}
		cr_assert_eq((unsigned)(avx512_node(b + 16, (uint32_t)f[0],
		    vals, nm, (uint32_t)f[nm + 1]) - (b + 16)), n,
		    "case %u, %u values", t, nm);
		cr_assert(memcmp(a, b + 16, n) == 0, "case %u, %u values", t,
		    nm);
		for (j = 0; j < 16; j++)
			cr_assert_eq(b[j], 0x55);
	}
#else
	cr_skip_test("not built for x86-64");
#endif
}

Test(batch, crc32_is_zlibs)
{
	static unsigned char buf[(1 << 16) + 64];
	uint64_t s = 7;
	size_t i, len, off;
	uint32_t c0;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)rnd(&s);
	for (i = 0; i < 3000; i++) {
		len = i < 600 ? i : rnd(&s) % (1 << 16);
		off = rnd(&s) % 64;
		c0 = i % 3 ? (uint32_t)rnd(&s) : 0;
		cr_assert_eq(pdb_crc32(c0, buf + off, len),
		    (uint32_t)crc32(c0, buf + off, (uInt)len), "len %zu", len);
	}
}

/* Each fold on its own, where pdb_crc32() would take the other. */
Test(batch, crc32_folds_are_zlibs)
{
#if defined(__x86_64__) && defined(__GNUC__)
	static unsigned char buf[(1 << 14) + 64];
	uint64_t s = 11;
	size_t i, len, off;
	uint32_t c0, want;
	int tried = 0;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)rnd(&s);
	for (i = 0; i < 2000; i++) {
		len = i < 256 ? i + 1 : rnd(&s) % (1 << 14) + 1;
		off = rnd(&s) % 64;
		c0 = i % 3 ? (uint32_t)rnd(&s) : 0;
		if (pdb_cpu_pclmul()) {
			len = (len + 63) & ~(size_t)63;
			want = (uint32_t)crc32(c0, buf + off, (uInt)len);
			cr_assert_eq(pdb_crc32_fold(c0, buf + off, len), want,
			    "pclmul, len %zu", len);
			tried++;
		}
		if (pdb_cpu_vpclmul()) {
			len = (len + 255) & ~(size_t)255;
			want = (uint32_t)crc32(c0, buf + off, (uInt)len);
			cr_assert_eq(pdb_crc32_fold512(c0, buf + off, len),
			    want, "vpclmulqdq, len %zu", len);
			tried++;
		}
	}
	if (tried == 0)
		cr_skip_test("no pclmul on this CPU");
#else
	cr_skip_test("not built for x86-64");
#endif
}
