/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Hostile input, swept (issue 5): every prefix of every binary fixture
 * (pgcl, dump, and the gzip of each) and of a sample of text fixtures;
 * thousands of seeded random byte changes per fixture; and a failure of
 * every single allocation of a full read, projection and write.  Each
 * case must end in an error that names the file and the byte offset or
 * line (or read successfully, where the damage leaves a valid profile),
 * never in a crash, a hang or a leak.  Whatever reads successfully is
 * also projected and written in every format.
 */
#include <criterion/criterion.h>

#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <jansson.h>

#include "failalloc.h"
#include "formats_int.h"
#include "pdb.h"
#include "testutil.h"

/* ---- fixtures ---- */

struct blob {
	char		*data;
	size_t		 len;
};

static struct blob
file_blob(const char *path)
{
	struct blob b;

	b.data = slurp(path, &b.len);
	cr_assert(b.data != NULL, "%s: %s", path, strerror(errno));
	return b;
}

/* The bytes of a hex listing: hex pairs, '#' starts a comment. */
static struct blob
hex_blob(const char *path)
{
	struct blob b;
	char *text = slurp(path, NULL), *p;
	unsigned v;
	int n;

	cr_assert(text != NULL);
	cr_assert((b.data = malloc(strlen(text) / 2 + 1)) != NULL);
	b.len = 0;
	for (p = text; *p != '\0';) {
		if (*p == '#') {
			p += strcspn(p, "\n");
			continue;
		}
		if (sscanf(p, "%2x%n", &v, &n) == 1 && n == 2) {
			b.data[b.len++] = (char)v;
			p += 2;
		} else
			p++;
	}
	free(text);
	return b;
}

/* A fixture re-written by the library in format name. */
static struct blob
converted_blob(const char *path, const char *name, int pgcl_version)
{
	struct pdb_opts opts;
	struct blob b;
	struct pdb *db = load_tree(path);
	FILE *f = open_memstream(&b.data, &b.len);

	memset(&opts, 0, sizeof(opts));
	opts.pgcl_version = pgcl_version;
	cr_assert(f != NULL);
	cr_assert(pdb_write(db, f, pdb_format_find(name), &opts) == PDB_OK,
	    "%s as %s: %s", path, name, pdb_errmsg(db));
	cr_assert(fclose(f) == 0);
	pdb_free(db);
	return b;
}

static struct blob
gzip_blob(struct blob in)
{
	char *path = write_temp("", 0, ".gz");
	struct blob b;
	gzFile gz = gzopen(path, "wb9");

	cr_assert(gz != NULL);
	cr_assert(gzwrite(gz, in.data, (unsigned)in.len) == (int)in.len);
	cr_assert(gzclose(gz) == Z_OK);
	b = file_blob(path);
	unlink(path);
	free(path);
	return b;
}

/* ---- reading a buffer ---- */

static char	*scratch;

/* Write b's first len bytes to the scratch file (made once per test). */
static const char *
put(const char *data, size_t len)
{
	FILE *f;

	if (scratch == NULL)
		scratch = write_temp("", 0, ".in");
	cr_assert((f = fopen(scratch, "wb")) != NULL);
	cr_assert(fwrite(data, 1, len, f) == len || len == 0);
	cr_assert(fclose(f) == 0);
	return scratch;
}

/*
 * Whether msg names path and then a place: a byte offset, a line, or
 * for the JSON formats (parsed whole by Jansson) the element, such as
 * "nodes[12]" or "profile node 7".
 */
static int
names_place(const char *msg, const char *path)
{
	const char *p = strstr(msg, path), *e;
	unsigned long long n;
	int k = 0;

	if (p == NULL)
		return 0;
	p += strlen(path);
	if (sscanf(p, ": byte %llu:%n", &n, &k) == 1 && k > 0)
		return 1;
	if (sscanf(p, ":%llu:%n", &n, &k) == 1 && k > 0)
		return 1;
	if (strncmp(p, ": ", 2) != 0 || (e = strchr(p + 2, ':')) == NULL)
		e = p + strlen(p);
	for (p += 2; p < e; p++)
		if (*p >= '0' && *p <= '9')
			return 1;
	return 0;
}

/* Messages about the whole file, which need no place. */
static int
whole_file(const char *msg, const char *path)
{
	static const char *const whole[] = {
		": empty file",
		": not a profile in any known format",
		": no stacks in profile",
		": no cost-centre tree found",
		": damaged magic number",
		": not a GHC profile",
	};
	size_t i, n = strlen(path);

	if (strncmp(msg, path, n) != 0)
		return 0;
	for (i = 0; i < sizeof(whole) / sizeof(whole[0]); i++)
		if (strncmp(msg + n, whole[i], strlen(whole[i])) == 0)
			return 1;
	return 0;
}

struct tally {
	unsigned long	 cases, ok, errors, whole;
};

/* Project db (de-selecting "*i*") and write the result in every format. */
static int
project_and_write(struct pdb *db, const struct pdb_sel *sel)
{
	const struct pdb_format *f;
	struct pdb *p;
	char *buf = NULL;
	size_t len = 0, i = 0;
	FILE *out;
	int rc = PDB_OK;

	if ((p = pdb_project_new(db, sel)) == NULL)
		return pdb_errcode(db);
	while (rc == PDB_OK && (f = pdb_format_next(&i)) != NULL) {
		if (f->write == NULL)
			continue;
		cr_assert((out = open_memstream(&buf, &len)) != NULL);
		rc = pdb_write(p, out, f, NULL);
		fclose(out);
		free(buf);
		buf = NULL;
		if (rc != PDB_OK)
			rc = pdb_errcode(p);
	}
	if (rc != PDB_OK)
		cr_log_info("write: %s", pdb_errmsg(p));
	pdb_free(p);
	return rc;
}

/*
 * Read len bytes of data; on success, project and write every format.
 * what names the case in messages.  must_fail: a good read is an error.
 */
static void
one_case(const char *what, const char *data, size_t len, int must_fail,
    const struct pdb_sel *sel, struct tally *t)
{
	const char *path = put(data, len);
	struct pdb *db = pdb_new();
	const char *msg;
	int rc;

	cr_assert(db != NULL);
	t->cases++;
	rc = pdb_read_tree(db, path, NULL, NULL, NULL);
	msg = pdb_errmsg(db);
	if (rc == PDB_OK) {
		cr_assert(!must_fail, "%s: read successfully", what);
		t->ok++;
		rc = project_and_write(db, sel);
		cr_assert(rc == PDB_OK, "%s: read, but then: %s", what,
		    pdb_errmsg(db));
	} else {
		cr_assert(rc == PDB_EFORMAT || rc == PDB_EUNSUPP,
		    "%s: error %d: %s", what, rc, msg);
		if (whole_file(msg, path))
			t->whole++;
		else
			cr_assert(names_place(msg, path),
			    "%s: message names no place: %s", what, msg);
		t->errors++;
	}
	pdb_free(db);
}

static struct pdb_sel *
deselect_i(void)
{
	struct pdb_sel *sel = pdb_sel_new();

	cr_assert(sel != NULL && pdb_sel_add(sel, 0, "*i*") == PDB_OK);
	return sel;
}

/*
 * Leak checks around a sweep: every block allocated by libprofdb and the
 * formats in between must have been freed (failalloc.h).
 */
static size_t
leak_begin(void)
{
	failalloc_track_begin();
	return 0;
}

static void
leak_end(const char *what, size_t before)
{
	size_t n = failalloc_track_end();

	(void)before;
	cr_assert_eq(n, 0, "%s: %zu blocks leaked", what, n);
}

static void
cleanup_scratch(void)
{
	if (scratch != NULL)
		unlink(scratch);
	free(scratch);
	scratch = NULL;
}

/* ---- prefixes ---- */

/*
 * Every prefix of b (step 1), or a sample: every step-th, plus the 64
 * first and last.  Binary formats must reject every proper prefix.
 */
static void
prefixes(const char *name, struct blob b, size_t step, int binary)
{
	struct pdb_sel *sel = deselect_i();
	struct tally t = { 0 };
	char what[128];
	size_t n, before;

	one_case(name, b.data, b.len, 0, sel, &t);	/* warm up */
	cr_assert_eq(t.ok, 1, "%s: the whole file does not read", name);
	before = leak_begin();
	for (n = 0; n < b.len; n++) {
		if (step > 1 && n % step != 0 && n > 64 && b.len - n > 64)
			continue;
		snprintf(what, sizeof(what), "%s, first %zu of %zu bytes", name,
		    n, b.len);
		one_case(what, b.data, n, binary, sel, &t);
	}
	leak_end(name, before);
	cr_log_info("prefixes of %s: %lu cases, %lu read, %lu errors "
	    "(%lu about the whole file)", name, t.cases, t.ok, t.errors,
	    t.whole);
	pdb_sel_free(sel);
	cleanup_scratch();
}

#define GHC	"tests/data/ghc/"

Test(sweep, prefixes_pgcl_v2, .timeout = 600)
{
	struct blob b = file_blob("tests/data/pgcl/synthetic-400.pgcl");
	struct blob z = gzip_blob(b);

	prefixes("synthetic-400.pgcl", b, 1, 1);
	prefixes("synthetic-400.pgcl.gz", z, 1, 1);
	free(b.data);
	free(z.data);
}

/*
 * Version 1 has no trailer and two node layouts told apart by which one
 * parses: a cut can leave a complete tree of the other layout (a root
 * with no children, say), so a prefix may read.
 */
Test(sweep, prefixes_pgcl_v1, .timeout = 600)
{
	struct blob b = converted_blob(GHC "mj.P.prof", "pgcl", 1);
	struct blob z = gzip_blob(b);

	prefixes("mj.P.prof as pgcl v1", b, 1, 0);
	prefixes("mj.P.prof as pgcl v1, gzip", z, 1, 0);
	free(b.data);
	free(z.data);
}

Test(sweep, prefixes_dump, .timeout = 600)
{
	struct blob s = hex_blob("tests/data/dump/small.hex");
	struct blob b = converted_blob(GHC "demo.P.prof", "dump", 0);
	struct blob z = gzip_blob(b);

	prefixes("small.hex", s, 1, 1);
	prefixes("demo.P.prof as dump", b, 1, 1);
	prefixes("demo.P.prof as dump, gzip", z, 1, 1);
	free(s.data);
	free(b.data);
	free(z.data);
}

Test(sweep, prefixes_ghc_text, .timeout = 600)
{
	static const char *const files[] = { "mj.P.prof", "old-ghc68.prof",
	    "quirks-N2.prof", "old-ghc82-N4.prof" };
	struct blob b;
	char path[256];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), GHC "%s", files[i]);
		b = file_blob(path);
		prefixes(files[i], b, 1, 0);
		free(b.data);
	}
	b = file_blob(GHC "demo.pa.prof");
	prefixes("demo.pa.prof", b, 23, 0);
	free(b.data);
}

Test(sweep, prefixes_json_and_folded, .timeout = 600)
{
	struct blob b;

	b = file_blob(GHC "mj.json");
	prefixes("mj.json", b, 7, 0);
	free(b.data);
	b = converted_blob(GHC "mj.P.prof", "json", 0);
	prefixes("mj.P.prof as json", b, 7, 0);
	free(b.data);
	b = file_blob("tests/data/paper/fig7.folded");
	prefixes("fig7.folded", b, 1, 0);
	free(b.data);
	b = file_blob("tests/data/stacks/escapes.folded");
	prefixes("escapes.folded", b, 1, 0);
	free(b.data);
}

/*
 * The same through the tools, for a sample of cuts: exit 1 and one line
 * "prog: file: byte N: ..." (or "file:N:" for text), nothing on stdout.
 */
static void
tool_prefixes(const char *name, struct blob b, const char *suffix,
    const char *place)
{
	static const char *const tools[] = { "ccs-flat", "ccs-convert -t json",
	    "ccs2html", "ccs-tree", "ccs2callgrind", "ccs-callers main",
	    "ccs2dot" };
	static const size_t cuts[] = { 13, 40, 100, 333, 1000, 2500 };
	struct run r;
	char *path, want[256];
	size_t i, k;

	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		if (cuts[i] >= b.len)
			continue;
		path = write_temp(b.data, cuts[i], suffix);
		for (k = 0; k < sizeof(tools) / sizeof(tools[0]); k++) {
			run(&r, "%s %s", tools[k], path);
			cr_expect_eq(r.status, 1, "%s, %zu bytes: %s: exit %d",
			    name, cuts[i], tools[k], r.status);
			snprintf(want, sizeof(want), "%.*s: %s%s",
			    (int)strcspn(tools[k], " "), tools[k], path, place);
			cr_expect(strncmp(r.err, want, strlen(want)) == 0 &&
			    strchr(r.err, '\n') == r.err + r.errlen - 1,
			    "%s, %zu bytes: %s: '%s', want '%s...'", name,
			    cuts[i], tools[k], r.err, want);
			/* zlib's own name for the file is not repeated. */
			cr_expect(strstr(r.err, "<fd:") == NULL,
			    "%s, %zu bytes: %s: '%s'", name, cuts[i],
			    tools[k], r.err);
			cr_expect_eq(r.outlen, 0, "%s: output", tools[k]);
			run_free(&r);
		}
		unlink(path);
		free(path);
	}
}

Test(sweep, tools_name_the_offset, .timeout = 300)
{
	struct blob b = file_blob("tests/data/pgcl/synthetic-400.pgcl");
	struct blob z = gzip_blob(b);
	struct blob d = converted_blob(GHC "demo.P.prof", "dump", 0);

	tool_prefixes("synthetic-400.pgcl", b, ".pgcl", ": byte ");
	tool_prefixes("synthetic-400.pgcl.gz", z, ".pgcl.gz", ": byte ");
	tool_prefixes("demo.P.prof as dump", d, ".dump", ": byte ");
	free(b.data);
	free(z.data);
	free(d.data);
}

/* ---- random changes ---- */

static uint64_t
rnd(uint64_t *s)
{
	/* xorshift64*: seeded, the same on every machine. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/*
 * n copies of b, each with 1 to 4 bytes changed: a flipped bit, a random
 * byte, or a byte from a small set of values that parsers treat
 * specially.
 */
static void
flips(const char *name, struct blob b, unsigned n, uint64_t seed)
{
	static const unsigned char special[] = { 0, 0x7f, 0x80, 0xff, '\n',
	    '\t', ' ', ';', '"', '\\', '{', '[', '-', '0', '9' };
	struct pdb_sel *sel = deselect_i();
	struct tally t = { 0 };
	char *copy, what[160];
	size_t before, pos;
	unsigned i, k, nk;
	uint64_t s = seed;

	cr_assert((copy = malloc(b.len + 1)) != NULL);
	one_case(name, b.data, b.len, 0, sel, &t);	/* warm up */
	before = leak_begin();
	for (i = 0; i < n; i++) {
		memcpy(copy, b.data, b.len);
		nk = 1 + (unsigned)(rnd(&s) % 4);
		for (k = 0; k < nk; k++) {
			pos = (size_t)(rnd(&s) % b.len);
			switch (rnd(&s) % 3) {
			case 0:
				copy[pos] ^= (char)(1u << (rnd(&s) % 8));
				break;
			case 1:
				copy[pos] = (char)rnd(&s);
				break;
			default:
				copy[pos] = (char)special[rnd(&s) %
				    sizeof(special)];
				break;
			}
		}
		snprintf(what, sizeof(what), "%s, change %u (seed %llu)", name,
		    i, (unsigned long long)seed);
		one_case(what, copy, b.len, 0, sel, &t);
	}
	leak_end(name, before);
	cr_log_info("changes of %s: %lu cases, %lu read, %lu errors "
	    "(%lu about the whole file)", name, t.cases, t.ok, t.errors,
	    t.whole);
	free(copy);
	pdb_sel_free(sel);
	cleanup_scratch();
}

Test(sweep, flips_binary, .timeout = 600)
{
	struct blob b;

	b = file_blob("tests/data/pgcl/synthetic-400.pgcl");
	flips("synthetic-400.pgcl", b, 3000, 1);
	free(b.data);
	b = converted_blob(GHC "mj.P.prof", "pgcl", 1);
	flips("mj.P.prof as pgcl v1", b, 3000, 2);
	free(b.data);
	b = hex_blob("tests/data/dump/small.hex");
	flips("small.hex", b, 3000, 3);
	free(b.data);
	b = converted_blob(GHC "demo.P.prof", "dump", 0);
	flips("demo.P.prof as dump", b, 2000, 4);
	free(b.data);
}

Test(sweep, flips_gzip, .timeout = 600)
{
	struct blob b, z;

	b = file_blob("tests/data/pgcl/synthetic-400.pgcl");
	z = gzip_blob(b);
	flips("synthetic-400.pgcl.gz", z, 2000, 5);
	free(b.data);
	free(z.data);
}

Test(sweep, flips_text, .timeout = 600)
{
	struct blob b;

	b = file_blob(GHC "mj.P.prof");
	flips("mj.P.prof", b, 3000, 6);
	free(b.data);
	b = file_blob(GHC "old-ghc68.prof");
	flips("old-ghc68.prof", b, 2000, 7);
	free(b.data);
	b = file_blob(GHC "mj.json");
	flips("mj.json", b, 2000, 8);
	free(b.data);
	b = converted_blob(GHC "mj.P.prof", "json", 0);
	flips("mj.P.prof as json", b, 2000, 9);
	free(b.data);
	b = file_blob("tests/data/paper/fig7.folded");
	flips("fig7.folded", b, 2000, 10);
	free(b.data);
}

/* ---- allocation failure ---- */

/*
 * Everything written for db projected on sel, in every writable format,
 * concatenated (malloc'd).  Returns NULL with *rcp and msg set on
 * failure.
 */
static char	 errbuf[512];

/* The error of a transformation that returned NULL: never "no error". */
static int
null_error(struct pdb *db, const char *what)
{
	snprintf(errbuf, sizeof(errbuf), "%s: %s", what, pdb_errmsg(db));
	cr_assert(pdb_errcode(db) != PDB_OK, "%s returned NULL without an "
	    "error", what);
	return pdb_errcode(db);
}

/* Write db as JSON to out, for the transformations below. */
static int
put_json(struct pdb *db, FILE *out, const char *what)
{
	int rc = pdb_write(db, out, &pdb_fmt_json, NULL);

	if (rc != PDB_OK)
		snprintf(errbuf, sizeof(errbuf), "%s: write json: %s", what,
		    pdb_errmsg(db));
	return rc;
}

/*
 * The analyses and transformations on db besides the projection:
 * pruning, callers, inclusive values, the flat profile, the hot paths.
 */
static int
other_outputs(struct pdb *db, FILE *out)
{
	static const char *const excl[] = { "*a*" };
	struct pdb_threshold th = { 0, 2 };
	struct pdb_prune_report rep;
	struct pdb_flat *fl;
	struct pdb *t;
	int64_t *inc;
	uint32_t cc, top[8], arm[64];
	size_t i, k;
	int rc;

	th.metric = pdb_metric_default(db);
	if ((t = pdb_prune_new(db, &th, 1, excl, 1, &rep)) == NULL)
		return null_error(db, "pdb_prune_new");
	rc = put_json(t, out, "prune");
	pdb_prune_report_free(&rep);
	pdb_free(t);
	if (rc != PDB_OK)
		return rc;
	cc = pdb_node_count(db) > 1 ? pdb_node_cc(db, 1) : pdb_node_cc(db, 0);
	if ((t = pdb_callers_new(db, cc)) == NULL)
		return null_error(db, "pdb_callers_new");
	rc = put_json(t, out, "callers");
	pdb_free(t);
	if (rc != PDB_OK)
		return rc;
	if ((inc = pdb_inclusive_new(db)) == NULL) {
		snprintf(errbuf, sizeof(errbuf), "inclusive: out of memory");
		return PDB_ENOMEM;
	}
	/* The arm's whole length, of which arm holds the first 64. */
	k = pdb_expensive_arm(db, inc, th.metric, arm, 64);
	for (i = 0; i < k && i < 64; i++)
		fprintf(out, "arm %u\n", (unsigned)arm[i]);
	free(inc);
	k = pdb_top_stacks(db, th.metric, top, 8);
	for (i = 0; i < k; i++)
		fprintf(out, "top %u\n", (unsigned)top[i]);
	if ((fl = pdb_flat_new(NULL)) == NULL) {
		snprintf(errbuf, sizeof(errbuf), "flat: out of memory");
		return PDB_ENOMEM;
	}
	if ((rc = pdb_replay(db, pdb_flat_sink(fl))) != PDB_OK)
		snprintf(errbuf, sizeof(errbuf), "flat: %s", pdb_errmsg(db));
	else
		for (cc = 0; cc < pdb_flat_cc_count(fl); cc++)
			fprintf(out, "flat %u %lld %lld\n", (unsigned)cc,
			    (long long)pdb_flat_self(fl, cc, th.metric),
			    (long long)pdb_flat_inherited(fl, cc, th.metric));
	pdb_flat_free(fl);
	return rc;
}

static char *
all_outputs(struct pdb *db, const struct pdb_sel *sel, int *rcp,
    size_t *lenp)
{
	const struct pdb_format *f;
	struct pdb *p;
	char *buf = NULL;
	size_t len = 0, i = 0;
	FILE *out;
	int rc = PDB_OK;

	if ((p = pdb_project_new(db, sel)) == NULL) {
		*rcp = null_error(db, "pdb_project_new");
		return NULL;
	}
	cr_assert((out = open_memstream(&buf, &len)) != NULL);
	while (rc == PDB_OK && (f = pdb_format_next(&i)) != NULL)
		if (f->write != NULL && (rc = pdb_write(p, out, f, NULL)) !=
		    PDB_OK)
			snprintf(errbuf, sizeof(errbuf), "write %s: %s",
			    f->name, pdb_errmsg(p));
	pdb_free(p);
	if (rc == PDB_OK)
		rc = other_outputs(db, out);
	fclose(out);
	if (rc != PDB_OK) {
		free(buf);
		buf = NULL;
	}
	*rcp = rc;
	*lenp = len;
	return buf;
}

/*
 * The verdict on a run whose n-th allocation failed (what names it): a
 * success must give got, gotlen exactly as want, wantlen; a failure must
 * be PDB_ENOMEM with msg saying "out of memory".  Returns whether it
 * failed.
 */
static int
failed_cleanly(const char *what, unsigned long n, int rc, const char *msg,
    const char *got, size_t gotlen, const char *want, size_t wantlen)
{
	if (rc == PDB_OK) {
		cr_assert(got != NULL && gotlen == wantlen && memcmp(got, want,
		    wantlen) == 0, "%s: allocation %lu failed, and the output "
		    "is different", what, n);
		return 0;
	}
	cr_assert_eq(rc, PDB_ENOMEM, "%s: allocation %lu failed: error %d: "
	    "%s", what, n, rc, msg);
	cr_assert(strstr(msg, "out of memory") != NULL, "%s: allocation %lu: "
	    "'%s'", what, n, msg);
	return 1;
}

/*
 * Fail the n-th allocation, for every n, of reading path, projecting it
 * and writing every format: the result is PDB_ENOMEM with "out of
 * memory", or a success giving exactly the output of a run without
 * failures.  Returns the number of allocations of a full run.
 */
static unsigned long
alloc_sweep(const char *path)
{
	struct pdb_sel *sel = deselect_i();
	struct pdb *db;
	char *want, *got;
	size_t wantlen, gotlen, before;
	unsigned long n, nomem = 0;
	int rc;

	/* The reference, which also warms up the libraries. */
	db = load_tree(path);
	want = all_outputs(db, sel, &rc, &wantlen);
	cr_assert(want != NULL, "%s: %s", path, errbuf);
	pdb_free(db);
	before = leak_begin();
	for (n = 1;; n++) {
		cr_assert(n < 1000000, "%s: no end to the allocations", path);
		failalloc_arm(n);
		got = NULL;
		errbuf[0] = '\0';
		if ((db = pdb_new()) == NULL) {
			rc = PDB_ENOMEM;
			snprintf(errbuf, sizeof(errbuf), "out of memory");
		} else if ((rc = pdb_read_tree(db, path, NULL, NULL, NULL)) ==
		    PDB_OK)
			got = all_outputs(db, sel, &rc, &gotlen);
		else
			snprintf(errbuf, sizeof(errbuf), "read: %s",
			    pdb_errmsg(db));
		failalloc_arm(0);
		if (!failalloc_fired()) {
			/* n is past the last allocation: a clean run. */
			cr_assert_eq(rc, PDB_OK, "%s: %s", path, errbuf);
			free(got);
			pdb_free(db);
			break;
		}
		nomem += failed_cleanly(path, n, rc, errbuf, got, gotlen, want,
		    wantlen);
		free(got);
		pdb_free(db);
	}
	leak_end(path, before);
	cr_log_info("allocation failures of %s: %lu allocations, %lu gave "
	    "PDB_ENOMEM", path, n - 1, nomem);
	free(want);
	pdb_sel_free(sel);
	return n - 1;
}

Test(alloc, every_allocation_of_read_project_write, .timeout = 900)
{
	static const char *const files[] = {
		"tests/data/paper/fig7.folded",
		"tests/data/stacks/escapes.folded",
		"tests/data/pgcl/synthetic-400.pgcl",
		GHC "mj.P.prof",
		GHC "quirks-N2.prof",
		GHC "old-ghc68.prof",
		GHC "mj.json",
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		cr_expect(alloc_sweep(files[i]) > 10, "%s", files[i]);
}

/* The flat profile of path, streamed as ccs-flat does (malloc'd text). */
static char *
flat_stream(const char *path, int *rcp)
{
	struct pdb_sel *sel = NULL;
	struct pdb_flat *fl = NULL;
	struct pdb *db = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	uint32_t cc;
	unsigned m;

	*rcp = PDB_ENOMEM;
	snprintf(errbuf, sizeof(errbuf), "out of memory");
	if ((db = pdb_new()) == NULL || (sel = pdb_sel_new()) == NULL ||
	    pdb_sel_add(sel, 0, "*a*") != PDB_OK ||
	    (fl = pdb_flat_new(sel)) == NULL)
		goto out;
	if ((*rcp = pdb_read_stream(db, path, NULL, NULL, pdb_flat_sink(fl),
	    NULL)) != PDB_OK) {
		snprintf(errbuf, sizeof(errbuf), "%s", pdb_errmsg(db));
		goto out;
	}
	cr_assert((out = open_memstream(&buf, &len)) != NULL);
	for (cc = 0; cc < pdb_flat_cc_count(fl); cc++)
		for (m = 0; m < pdb_metric_count(db); m++)
			fprintf(out, "%u %u %lld %lld\n", (unsigned)cc, m,
			    (long long)pdb_flat_self(fl, cc, m),
			    (long long)pdb_flat_inherited(fl, cc, m));
	fclose(out);
out:
	pdb_flat_free(fl);
	pdb_sel_free(sel);
	pdb_free(db);
	return buf;
}

/* alloc_sweep() for the streaming flat profile of ccs-flat. */
static void
alloc_sweep_flat(const char *path)
{
	char *want, *got;
	unsigned long n;
	int rc;

	want = flat_stream(path, &rc);
	cr_assert(want != NULL, "%s: %s", path, errbuf);
	failalloc_track_begin();
	for (n = 1;; n++) {
		failalloc_arm(n);
		got = flat_stream(path, &rc);
		failalloc_arm(0);
		if (!failalloc_fired()) {
			cr_assert(got != NULL, "%s: %s", path, errbuf);
			free(got);
			break;
		}
		if (got != NULL)
			cr_assert_str_eq(got, want, "%s: allocation %lu failed, "
			    "and the output is different", path, n);
		else
			cr_assert(rc == PDB_ENOMEM && strstr(errbuf,
			    "out of memory") != NULL, "%s: allocation %lu "
			    "failed: error %d: %s", path, n, rc, errbuf);
		free(got);
	}
	leak_end(path, 0);
	cr_log_info("allocation failures of the flat profile of %s: %lu "
	    "allocations", path, n - 1);
	free(want);
}

Test(alloc, every_allocation_of_a_streamed_flat_profile, .timeout = 300)
{
	alloc_sweep_flat("tests/data/pgcl/synthetic-400.pgcl");
	alloc_sweep_flat(GHC "mj.P.prof");
	alloc_sweep_flat(GHC "mj.json");
	alloc_sweep_flat("tests/data/paper/fig7.folded");
}

static void
alloc_sweep_blob(struct blob b, const char *suffix)
{
	char *path = write_temp(b.data, b.len, suffix);

	cr_expect(alloc_sweep(path) > 10, "%s", path);
	unlink(path);
	free(path);
	free(b.data);
}

Test(alloc, every_allocation_of_binary_and_json, .timeout = 900)
{
	struct blob b = converted_blob(GHC "mj.P.prof", "pgcl", 1);

	alloc_sweep_blob(hex_blob("tests/data/dump/small.hex"), ".dump");
	alloc_sweep_blob(converted_blob(GHC "demo.P.prof", "dump", 0),
	    ".dump");
	alloc_sweep_blob(gzip_blob(b), ".pgcl.gz");
	alloc_sweep_blob(b, ".pgcl");
	alloc_sweep_blob(converted_blob(GHC "mj.P.prof", "json", 0), ".json");
	alloc_sweep_blob(converted_blob("tests/data/stacks/escapes.folded",
	    "json", 0), ".json");
}

/*
 * JSON past the size the readers parse whole streams through yajl,
 * whose allocations come through yajlguard.c and so fail here too (out
 * of memory, yajl itself would write through NULL).  The generated GHC
 * JSON is over 64 KiB: the reader's chunks cut tokens, which yajl
 * buffers.
 */
static void
alloc_sweep_streamed_json(const char *format, int nodes, long min_size)
{
	char *dir = make_temp_dir(), path[4096];
	struct stat st;
	struct run r;

	snprintf(path, sizeof(path), "%s/gen.json", dir);
	run(&r, "ccs-gen -q -t %s -n %d -o '%s'", format, nodes, path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	cr_assert(stat(path, &st) == 0 && st.st_size > min_size,
	    "%s: %lld bytes", path, (long long)st.st_size);
	alloc_sweep_flat(path);
	cr_expect(alloc_sweep(path) > 10, "%s", path);
	remove_temp(dir);
	free(dir);
}

Test(alloc, every_allocation_of_streamed_json, .timeout = 600)
{
	alloc_sweep_streamed_json("ghc-json", 1500, 2 * 65536);
	alloc_sweep_streamed_json("json", 1000, 40000);
}

/*
 * Gzip input, as two members: inflate's state, and its window, which
 * it makes only when a member takes more than one call (more than the
 * first fill), are allocated through failalloc too (input.c).
 */
Test(alloc, every_allocation_of_gzip_input, .timeout = 600)
{
	char *dir = make_temp_dir(), path[4096];
	struct run r;

	snprintf(path, sizeof(path), "%s/two.folded.gz", dir);
	run(&r, "cd '%s' && ccs-gen -q -t folded --size 150k -o a && "
	    "ccs-gen -q -t folded --seed 2 -n 50 -o b && "
	    "(gzip -c a; gzip -c b) > '%s'", dir, path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	alloc_sweep_flat(path);
	remove_temp(dir);
	free(dir);
}

/* db written in format f, without failures; *len bytes. */
static char *
written(struct pdb *db, const struct pdb_format *f, size_t *len)
{
	char *buf = NULL;
	FILE *out;

	cr_assert((out = open_memstream(&buf, len)) != NULL);
	cr_assert_eq(pdb_write(db, out, f, NULL), PDB_OK, "%s: %s", f->name,
	    pdb_errmsg(db));
	fclose(out);
	return buf;
}

/*
 * The writers built on Jansson, with Jansson's own allocations failing
 * too: they are otherwise not counted (failalloc.h), and a part made but
 * not yet in its document leaked there, or a failed insertion left a
 * frame out of a speedscope file.  Jansson is given the wrapped malloc()
 * and free() of this binary.  Failing each allocation of a write in turn
 * gives PDB_ENOMEM and "out of memory" with every block freed, or
 * exactly the output of a write without failures.
 */
static void
jansson_sweep(const char *path, const struct pdb_format *f)
{
	struct pdb *db = load_tree(path);
	char *want, *got = NULL, what[512];
	size_t wantlen, gotlen = 0, live;
	unsigned long n, nomem = 0;
	FILE *out;
	int rc;

	json_set_alloc_funcs(malloc, free);
	want = written(db, f, &wantlen);
	for (n = 1;; n++) {
		cr_assert(n < 1000000, "%s: no end to the allocations", path);
		cr_assert((out = open_memstream(&got, &gotlen)) != NULL);
		failalloc_track_begin();
		failalloc_arm(n);
		rc = pdb_write(db, out, f, NULL);
		failalloc_arm(0);
		live = failalloc_track_end();
		fclose(out);
		cr_assert_eq(live, 0, "%s, %s: allocation %lu failed: %zu "
		    "blocks leaked", path, f->name, n, live);
		snprintf(what, sizeof(what), "%s, %s", path, f->name);
		nomem += failed_cleanly(what, n, rc, pdb_errmsg(db), got,
		    gotlen, want, wantlen);
		free(got);
		got = NULL;
		if (!failalloc_fired())
			break;
	}
	cr_assert_gt(nomem, 10, "%s, %s: %lu failures of %lu allocations",
	    path, f->name, nomem, n - 1);
	free(want);
	pdb_free(db);
}

Test(alloc, every_allocation_of_the_jansson_writers, .timeout = 300)
{
	static const char *const files[] = {
		GHC "mj.P.prof",
		"tests/data/stacks/escapes.folded",
	};
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		jansson_sweep(files[i], &pdb_fmt_json);
		jansson_sweep(files[i], &pdb_fmt_html);
		jansson_sweep(files[i], &pdb_fmt_speedscope);
	}
}

/*
 * Reading JSON small enough for Jansson to parse whole, each allocation
 * failing in turn, Jansson's own included: the profile is read as
 * without failures, or the read fails with "out of memory" and every
 * block freed.  Jansson's parser, out of memory, may drop a character
 * of a string and go on, or report a syntax error: the readers watch
 * its allocations (pdb_json_watch()).
 */
static void
jansson_read_sweep(const char *path)
{
	struct pdb *db = load_tree(path);
	char *want, *got, msg[1024];
	size_t wantlen, gotlen = 0, live;
	unsigned long n, nomem = 0;
	int rc;

	json_set_alloc_funcs(malloc, free);
	want = written(db, &pdb_fmt_ccsdump, &wantlen);
	pdb_free(db);
	for (n = 1;; n++) {
		cr_assert(n < 1000000, "%s: no end to the allocations", path);
		failalloc_track_begin();
		failalloc_arm(n);
		rc = (db = pdb_new()) == NULL ? PDB_ENOMEM :
		    pdb_read_tree(db, path, NULL, NULL, NULL);
		failalloc_arm(0);
		snprintf(msg, sizeof(msg), "%s", db != NULL ?
		    pdb_errmsg(db) : "out of memory");
		got = rc == PDB_OK ? written(db, &pdb_fmt_ccsdump, &gotlen) :
		    NULL;
		nomem += failed_cleanly(path, n, rc, msg, got, gotlen, want,
		    wantlen);
		free(got);
		pdb_free(db);
		live = failalloc_track_end();
		cr_assert_eq(live, 0, "%s: allocation %lu failed: %zu blocks "
		    "leaked", path, n, live);
		if (!failalloc_fired())
			break;
	}
	cr_assert_gt(nomem, 10, "%s: %lu failures of %lu allocations", path,
	    nomem, n - 1);
	free(want);
}

/*
 * Small files, read whole; and one big enough to be read as it comes,
 * whose tables and cost centres (a batch at a time) Jansson reads.
 */
Test(alloc, every_allocation_of_reading_json_jansson_included,
    .timeout = 600)
{
	struct blob b = converted_blob(GHC "mj.P.prof", "json", 0);
	char *path = write_temp(b.data, b.len, ".json");
	char *dir = make_temp_dir(), big[4096];
	struct stat st;
	struct run r;

	jansson_read_sweep(GHC "mj.json");
	jansson_read_sweep(path);
	snprintf(big, sizeof(big), "%s/gen.json", dir);
	run(&r, "ccs-gen -q -t json -n 1000 -o '%s'", big);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	cr_assert(stat(big, &st) == 0 && st.st_size > 40000);
	jansson_read_sweep(big);
	remove_temp(dir);
	unlink(path);
	free(path);
	free(dir);
	free(b.data);
}
