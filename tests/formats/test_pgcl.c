/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Tests of the Clean .pgcl module (formats/fmt_pgcl.c): reading the
 * synthetic profile of ../shared/corpus/pgcl and checking it against the
 * answers of the independent implementation that wrote it, byte-identical
 * round trips, both version 1 layouts, overhead compensation, the writer's
 * renumbering and warnings, and bad input of every kind.
 *
 * Small binary fixtures are kept as text (tests/data/pgcl/ *.cgtxt) and
 * encoded here by cg_encode(): "text" is a NUL-terminated string, "text"-
 * the bare bytes, u32:N a little-endian 32-bit integer, x:HEX raw bytes,
 * and any other token a decimal integer written as a varint (negative
 * ones wrapped to 64 bits); # starts a comment.
 */
#include <criterion/criterion.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "formats_int.h"
#include "pdb.h"
#include "testutil.h"

#define DATA		"tests/data/pgcl/"
#define SYNTH		DATA "synthetic-400.pgcl"
#define SYNTH_LEN	3790

/* ---- helpers ---- */

/* Encode the text description of a .pgcl file (see the top comment). */
static unsigned char *
cg_encode(const char *s, size_t *len)
{
	struct enc b = { NULL, 0, 0 };
	const char *e;
	char *end;
	unsigned v;

	while (*s != '\0') {
		if (isspace((unsigned char)*s)) {
			s++;
		} else if (*s == '#') {
			while (*s != '\0' && *s != '\n')
				s++;
		} else if (*s == '"') {
			e = strchr(s + 1, '"');
			cr_assert(e != NULL, "unterminated string");
			enc_bytes(&b, s + 1, (size_t)(e - s - 1));
			s = e + 1;
			if (*s == '-')
				s++;
			else
				enc_bytes(&b, "", 1);
		} else if (strncmp(s, "u32:", 4) == 0) {
			enc_u32(&b, (uint32_t)strtoul(s + 4, &end, 10));
			s = end;
		} else if (strncmp(s, "x:", 2) == 0) {
			for (s += 2; isxdigit((unsigned char)s[0]) &&
			    isxdigit((unsigned char)s[1]); s += 2) {
				unsigned char c;

				cr_assert(sscanf(s, "%2x", &v) == 1);
				c = (unsigned char)v;
				enc_bytes(&b, &c, 1);
			}
		} else if (*s == '-') {
			enc_varint(&b, (uint64_t)strtoll(s, &end, 10));
			cr_assert(end != s, "bad token at '%.10s'", s);
			s = end;
		} else {
			enc_varint(&b, strtoull(s, &end, 10));
			cr_assert(end != s, "bad token at '%.10s'", s);
			s = end;
		}
	}
	*len = b.len;
	return b.b;
}

/* Encode tests/data/pgcl/<name>.cgtxt into a temporary .pgcl file. */
static char *
cg_file(const char *name, unsigned char **bytes, size_t *len)
{
	char path[256], *text, *tmp;
	unsigned char *p;
	size_t n;

	snprintf(path, sizeof(path), DATA "%s.cgtxt", name);
	text = slurp(path, NULL);
	cr_assert(text != NULL, "cannot read %s", path);
	p = cg_encode(text, &n);
	free(text);
	tmp = write_temp(p, n, ".pgcl");
	if (bytes != NULL) {
		*bytes = p;
		*len = n;
	} else
		free(p);
	return tmp;
}

/* A malloc'd printf. */
static char *
xprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	cr_assert(n >= 0 && (p = malloc((size_t)n + 1)) != NULL);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

static char warnings[4096];

static void
collect_warning(void *arg, const char *msg)
{
	(void)arg;
	strncat(warnings, msg, sizeof(warnings) - strlen(warnings) - 2);
	strcat(warnings, "\n");
}

static struct pdb *
new_db(void)
{
	struct pdb *db = pdb_new();

	cr_assert(db != NULL);
	warnings[0] = '\0';
	pdb_set_warn_handler(db, collect_warning, NULL);
	return db;
}

/* Read path as a tree (format probed); fails the test on error. */
static struct pdb *
read_pgcl(const char *path, unsigned flags)
{
	struct pdb_opts opts;
	const struct pdb_format *used = NULL;
	struct pdb *db = new_db();
	int rc;

	memset(&opts, 0, sizeof(opts));
	opts.flags = flags;
	rc = pdb_read_tree(db, path, NULL, &opts, &used);
	cr_assert(rc == PDB_OK, "reading %s: %s", path, pdb_errmsg(db));
	cr_assert(used == &pdb_fmt_pgcl, "%s read as %s", path,
	    used ? used->name : "nothing");
	return db;
}

/* Write db as pgcl version (0 = default) into memory. */
static char *
write_pgcl(struct pdb *db, int version, size_t *len)
{
	struct pdb_opts opts;
	char *p = NULL;
	FILE *f;
	int rc;

	memset(&opts, 0, sizeof(opts));
	opts.pgcl_version = version;
	f = open_memstream(&p, len);
	cr_assert(f != NULL);
	rc = pdb_write(db, f, &pdb_fmt_pgcl, &opts);
	cr_assert(fclose(f) == 0);
	cr_assert(rc == PDB_OK, "writing pgcl: %s", pdb_errmsg(db));
	return p;
}

/* Read bytes (format forced to pgcl); return the handle with the error. */
static struct pdb *
read_bad(const void *bytes, size_t len, char **pathp, int *rcp)
{
	struct pdb *db = new_db();
	char *path = write_temp(bytes, len, ".pgcl");

	*rcp = pdb_read_tree(db, path, &pdb_fmt_pgcl, NULL, NULL);
	*pathp = path;
	return db;
}

/* Expect reading bytes to fail with code and exactly message (after
 * "<path>: "). */
static void
expect_error(const void *bytes, size_t len, int code, const char *msg)
{
	struct pdb *db;
	char *path, *want;
	int rc;

	db = read_bad(bytes, len, &path, &rc);
	want = xprintf("%s: %s", path, msg);
	cr_expect_eq(rc, code, "rc %d, want %d (%s)", rc, code,
	    pdb_errmsg(db));
	cr_expect_str_eq(pdb_errmsg(db), want);
	unlink(path);
	free(path);
	free(want);
	pdb_free(db);
}

static void
expect_error_text(const char *text, int code, const char *msg)
{
	unsigned char *p;
	size_t n;

	p = cg_encode(text, &n);
	expect_error(p, n, code, msg);
	free(p);
}

static int
metric(const struct pdb *db, const char *name)
{
	int m = pdb_metric_find(db, name);

	cr_assert(m >= 0, "no metric '%s'", name);
	return m;
}

static void
expect_meta(const struct pdb *db, const char *key, const char *value)
{
	const char *v = pdb_meta_get(db, key);

	if (value == NULL) {
		cr_expect(v == NULL, "metadata %s = '%s', want none", key, v);
		return;
	}
	cr_assert(v != NULL, "no metadata %s", key);
	cr_expect_str_eq(v, value, "metadata %s", key);
}

/* Sum of metric name over the nodes of cost centre label. */
static int64_t
cc_sum(const struct pdb *db, const char *label, const char *name)
{
	uint32_t n;
	int m = metric(db, name);
	int64_t s = 0;

	for (n = 0; n < pdb_node_count(db); n++)
		if (strcmp(pdb_cc_label(db, pdb_node_cc(db, n)), label) == 0)
			s += pdb_node_value(db, n, m);
	return s;
}

/* ---- reading the synthetic profile ---- */

Test(pgcl, synthetic_header_and_tables)
{
	static const char *const mods[] = { "System", "Mod9", "Mod1", "Mod2",
	    "Mod7", "Mod4", "Mod10", "Mod11", "Mod3", "Mod6" };
	static const char *const names[] = { "ticks", "words",
	    "tail_returns", "strict_calls", "lazy_calls", "curried_calls" };
	static const char *const units[] = { "ticks", "words", "calls",
	    "calls", "calls", "calls" };
	struct pdb *db = read_pgcl(SYNTH, 0);
	struct pdb_cc cc;
	unsigned m;
	uint32_t i;

	expect_meta(db, "source_format", "pgcl");
	expect_meta(db, "pgcl_version", "2");
	expect_meta(db, "pgcl_layout", "7");
	expect_meta(db, "ticks_per_second", "1000000");
	expect_meta(db, "overhead_per_1000", "0");
	expect_meta(db, "compensated", NULL);

	cr_assert_eq(pdb_metric_count(db), 6);
	for (m = 0; m < 6; m++) {
		cr_expect_str_eq(pdb_metric(db, m)->name, names[m]);
		cr_expect_str_eq(pdb_metric(db, m)->unit, units[m]);
		cr_expect_eq(pdb_metric(db, m)->kind, m < 2 ? PDB_COST :
		    PDB_COUNT, "kind of %s", names[m]);
	}

	cr_assert_eq(pdb_module_count(db), 10);
	for (i = 0; i < 10; i++)
		cr_expect_str_eq(pdb_module_name(db, i), mods[i]);
	cr_assert_eq(pdb_cc_count(db), 40);
	pdb_cc(db, 0, &cc);
	cr_expect_str_eq(cc.label, "_start");
	cr_expect_str_eq(cc.module, "System");
	cr_expect_str_eq(cc.src, "");
	cr_expect_eq(cc.profile_id, 1);
	pdb_cc(db, 1, &cc);
	cr_expect_str_eq(cc.label, "f38");
	cr_expect_str_eq(cc.module, "Mod9");
	pdb_cc(db, 21, &cc);
	cr_expect_str_eq(cc.label, "garbage_collector");
	cr_expect_str_eq(cc.module, "System");
	cr_expect_eq(cc.profile_id, 22);
	pdb_cc(db, 39, &cc);
	cr_expect_str_eq(cc.label, "f27");
	cr_expect_str_eq(cc.module, "Mod4");

	/* The tree: 400 nodes from the root System._start. */
	cr_assert_eq(pdb_node_count(db), 400);
	cr_expect_str_eq(pdb_cc_fullname(db, pdb_node_cc(db, 0)),
	    "System._start");
	cr_expect_eq(pdb_node_child_count(db, 0), 2);
	cr_expect_eq(pdb_node_value(db, 0, 0), 3);
	cr_expect_eq(pdb_node_value(db, 0, 1), 62);
	cr_expect_eq(pdb_node_value(db, 0, 2), 23);
	cr_expect_eq(pdb_node_value(db, 0, 3), 28);
	cr_expect_eq(pdb_node_value(db, 0, 4), 4);
	cr_expect_eq(pdb_node_value(db, 0, 5), 1);
	pdb_free(db);
}

Test(pgcl, synthetic_values)
{
	static const int64_t totals[6] = { 11788, 182998, 9615, 9605, 772,
	    398 };
	struct pdb *db = read_pgcl(SYNTH, 0);
	int64_t t[6] = { 0 }, w;
	uint32_t n, gc = 0, neg = 0;
	unsigned m;

	for (n = 0; n < pdb_node_count(db); n++) {
		for (m = 0; m < 6; m++)
			t[m] += pdb_node_value(db, n, m);
		if (strcmp(pdb_cc_label(db, pdb_node_cc(db, n)),
		    "garbage_collector") == 0) {
			gc++;
			w = pdb_node_value(db, n, 1);
			if (w < 0)
				neg++;
		}
	}
	for (m = 0; m < 6; m++)
		cr_expect_eq(t[m], totals[m], "total %s: %lld, want %lld",
		    pdb_metric(db, m)->name, (long long)t[m],
		    (long long)totals[m]);
	/* Garbage collection gives words back: negative, stored wrapped. */
	cr_expect_eq(gc, 22);
	cr_expect_eq(neg, 22);
	cr_expect_eq(cc_sum(db, "garbage_collector", "words"), -44536);
	cr_expect_eq(cc_sum(db, "garbage_collector", "ticks"), 121);
	pdb_free(db);
}

Test(pgcl, synthetic_streams)
{
	struct pdb *db = new_db();
	struct pdb_flat *fl = pdb_flat_new(NULL);
	int rc;

	cr_assert(fl != NULL);
	rc = pdb_read_stream(db, SYNTH, NULL, NULL, pdb_flat_sink(fl), NULL);
	cr_assert(rc == PDB_OK, "%s", pdb_errmsg(db));
	cr_expect_eq(pdb_flat_nodes(fl), 400);
	cr_expect_eq(pdb_flat_total(fl, 0), 11788);
	cr_expect_eq(pdb_flat_inherited(fl, 0, 0), 11788);
	cr_expect_eq(pdb_flat_self(fl, 0, 0), 3);
	cr_expect_eq(pdb_flat_self(fl, 21, 1), -44536);
	cr_expect_eq(pdb_node_count(db), 0, "streaming built a tree");
	pdb_flat_free(fl);
	pdb_free(db);
}

Test(pgcl, gzip_input)
{
	char *data, *path;
	size_t len;
	gzFile gz;
	struct pdb *db;

	data = slurp(SYNTH, &len);
	cr_assert(data != NULL && len == SYNTH_LEN);
	path = write_temp("", 0, ".pgcl.gz");
	gz = gzopen(path, "wb");
	cr_assert(gz != NULL);
	cr_assert(gzwrite(gz, data, (unsigned)len) == (int)len);
	cr_assert(gzclose(gz) == Z_OK);
	db = read_pgcl(path, 0);
	cr_expect_eq(pdb_node_count(db), 400);
	unlink(path);
	free(path);
	free(data);
	pdb_free(db);
}

/* ---- round trips ---- */

Test(pgcl, roundtrip_synthetic_bytes)
{
	struct pdb *db = read_pgcl(SYNTH, 0);
	char *orig, *out;
	size_t olen, len;

	orig = slurp(SYNTH, &olen);
	out = write_pgcl(db, 0, &len);
	cr_expect_eq(warnings[0], '\0', "warnings: %s", warnings);
	cr_assert_eq(len, olen);
	cr_expect(memcmp(out, orig, len) == 0, "pgcl -> pgcl changed bytes");
	free(orig);
	free(out);
	pdb_free(db);
}

Test(pgcl, roundtrip_repeated_modules)
{
	unsigned char *bytes;
	size_t n, len;
	char *path = cg_file("v2-repeat-modules", &bytes, &n), *out;
	struct pdb *db = read_pgcl(path, 0);

	cr_expect_eq(pdb_module_count(db), 3);
	cr_expect_str_eq(pdb_module_name(db, 1), "Lib");
	cr_expect_str_eq(pdb_module_name(db, 2), "Lib");
	{
		struct pdb_cc a, b;

		pdb_cc(db, 1, &a);
		pdb_cc(db, 3, &b);
		cr_expect_str_eq(a.label, "get");
		cr_expect_str_eq(b.label, "get");
		cr_expect_eq(a.module_index, 1);
		cr_expect_eq(b.module_index, 2);
	}
	expect_meta(db, "ticks_per_second", "2400000000");
	expect_meta(db, "overhead_per_1000", "12");
	out = write_pgcl(db, 0, &len);
	cr_assert_eq(len, n);
	cr_expect(memcmp(out, bytes, n) == 0, "pgcl -> pgcl changed bytes");
	unlink(path);
	free(path);
	free(bytes);
	free(out);
	pdb_free(db);
}

/* Version 1 output: the same file without the two header varints. */
Test(pgcl, write_version_1)
{
	struct pdb *db = read_pgcl(SYNTH, 0), *db2;
	unsigned char *orig;
	char *out, *path;
	size_t olen, len;
	uint32_t n;
	unsigned m;

	orig = (unsigned char *)slurp(SYNTH, &olen);
	out = write_pgcl(db, 1, &len);
	cr_expect(strstr(warnings, "version 1 cannot hold") != NULL,
	    "warnings: %s", warnings);
	/* ticks per second 1000000 = c0 84 3d, overhead 0 = 00 */
	cr_assert_eq(orig[16], 0xc0);
	cr_assert_eq(orig[19], 0x00);
	cr_assert_eq(len, olen - 4);
	cr_expect(memcmp(out, "prof\1\0\0\0", 8) == 0);
	cr_expect(memcmp(out + 8, orig + 8, 8) == 0);
	cr_expect(memcmp(out + 16, orig + 20, len - 16) == 0);

	path = write_temp(out, len, ".pgcl");
	db2 = read_pgcl(path, 0);
	expect_meta(db2, "pgcl_version", "1");
	expect_meta(db2, "pgcl_layout", "7");
	expect_meta(db2, "ticks_per_second", NULL);
	cr_assert_eq(pdb_node_count(db2), 400);
	for (n = 0; n < 400; n++) {
		cr_assert_eq(pdb_node_cc(db2, n), pdb_node_cc(db, n));
		for (m = 0; m < 6; m++)
			cr_assert_eq(pdb_node_value(db2, n, m),
			    pdb_node_value(db, n, m));
	}
	unlink(path);
	free(path);
	free(orig);
	free(out);
	pdb_free(db);
	pdb_free(db2);
}

/* ---- version 1, both layouts ---- */

static void
check_v1(const char *name, const char *layout)
{
	static const int64_t ticks[6] = { 5, 10, 40, 7, 3, 2 };
	static const int64_t words[6] = { 100, 200, 800, -50, -20, 16 };
	static const int64_t strict[6] = { 1, 1, 29, 2, 1, 0 };
	static const int64_t lazy[6] = { 0, 0, 0, 0, 0, 1 };
	static const int64_t curried[6] = { 0, 0, 1, 0, 0, 0 };
	static const int64_t tail[6] = { 1, 3, 30, 2, 1, 1 };
	static const char *const label[6] = { "_start", "main", "fib",
	    "garbage_collector", "garbage_collector", "fib" };
	static const uint32_t depth[6] = { 0, 1, 2, 3, 2, 1 };
	char *path = cg_file(name, NULL, NULL);
	struct pdb *db = read_pgcl(path, 0);
	int seven = strcmp(layout, "7") == 0;
	uint32_t n;
	const int64_t *v;

	expect_meta(db, "source_format", "pgcl");
	expect_meta(db, "pgcl_version", "1");
	expect_meta(db, "pgcl_layout", layout);
	expect_meta(db, "ticks_per_second", NULL);
	expect_meta(db, "overhead_per_1000", NULL);
	cr_expect_eq(warnings[0], '\0', "warnings: %s", warnings);
	/* The failed dry run of the other layout leaves no error behind. */
	cr_expect_eq(pdb_errcode(db), PDB_OK, "%s", pdb_errmsg(db));
	cr_assert_eq(pdb_metric_count(db), seven ? 6 : 5);
	cr_expect_eq(pdb_metric_find(db, "tail_returns"), seven ? 2 : -1);
	cr_assert_eq(pdb_node_count(db), 6);
	for (n = 0; n < 6; n++) {
		v = pdb_node_values(db, n);
		cr_expect_str_eq(pdb_cc_label(db, pdb_node_cc(db, n)),
		    label[n]);
		cr_expect_eq(pdb_node_depth(db, n), depth[n]);
		cr_expect_eq(v[metric(db, "ticks")], ticks[n]);
		cr_expect_eq(v[metric(db, "words")], words[n]);
		cr_expect_eq(v[metric(db, "strict_calls")], strict[n]);
		cr_expect_eq(v[metric(db, "lazy_calls")], lazy[n]);
		cr_expect_eq(v[metric(db, "curried_calls")], curried[n]);
		if (seven)
			cr_expect_eq(v[metric(db, "tail_returns")], tail[n]);
	}
	unlink(path);
	free(path);
	pdb_free(db);
}

Test(pgcl, v1_seven_fields)
{
	check_v1("v1-7", "7");
}

Test(pgcl, v1_six_fields)
{
	check_v1("v1-6", "6");
}

/*
 * Finding a version 1 layout parses the tree dry with the wrong one too,
 * which sets an error; a good read leaves the handle's error as it was
 * (errors, like errno, are not reset by a success), none or an earlier.
 */
Test(pgcl, v1_layout_trial_leaves_the_error_as_it_was)
{
	char *path = cg_file("v1-6", NULL, NULL);
	struct pdb *db = new_db();

	cr_assert_eq(pdb_read_tree(db, path, NULL, NULL, NULL), PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_expect_eq(pdb_errcode(db), PDB_OK);
	cr_expect_str_eq(pdb_errmsg(db), "no error");
	pdb_free(db);

	db = new_db();
	cr_expect_eq(pdb_format_ready(pdb_format_find("ghc-prof"), db),
	    PDB_EUNSUPP);
	cr_assert_eq(pdb_read_tree(db, path, NULL, NULL, NULL), PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_expect_eq(pdb_errcode(db), PDB_EUNSUPP);
	cr_expect_str_eq(pdb_errmsg(db), "format 'ghc-prof' cannot be written");
	pdb_free(db);
	unlink(path);
	free(path);
}

/*
 * Version 1 of either layout comes back byte for byte, asked for or by
 * default: the writer keeps the version and the layout it read.
 */
static void
check_v1_write_back(const char *name)
{
	unsigned char *bytes;
	size_t n, len;
	char *path = cg_file(name, &bytes, &n), *out;
	struct pdb *db = read_pgcl(path, 0);
	int version;

	for (version = 0; version <= 1; version++) {
		out = write_pgcl(db, version, &len);
		cr_assert_eq(len, n, "%s, version %d: %zu bytes, want %zu",
		    name, version, len, n);
		cr_expect(memcmp(out, bytes, n) == 0, "%s -> v%d changed bytes",
		    name, version);
		free(out);
	}
	unlink(path);
	free(path);
	free(bytes);
	pdb_free(db);
}

Test(pgcl, v1_seven_fields_write_back)
{
	check_v1_write_back("v1-7");
}

Test(pgcl, v1_six_fields_write_back)
{
	check_v1_write_back("v1-6");
}

/*
 * Fifty-five bytes of 1 and a 0 are a chain of seven nodes with seven
 * fields and a chain of eight with six: seven wins, with a warning.
 */
Test(pgcl, v1_both_layouts_fit)
{
	struct enc b = { NULL, 0, 0 };
	struct pdb *db;
	char *path;
	int i;

	enc_bytes(&b, "prof\1\0\0\0\1\0\0\0\1\0\0\0M\0\1f", 21);
	for (i = 0; i < 55; i++)
		enc_bytes(&b, "\1", 1);
	enc_bytes(&b, "", 1);
	path = write_temp(b.b, b.len, ".pgcl");
	db = read_pgcl(path, 0);
	expect_meta(db, "pgcl_layout", "7");
	cr_expect_eq(pdb_node_count(db), 7);
	cr_expect(strstr(warnings, "parses with both 6 and 7 fields per "
	    "node: assuming 7") != NULL, "warnings: %s", warnings);
	unlink(path);
	free(path);
	free(b.b);
	pdb_free(db);
}

/* A six-field file written as version 2 gets seven fields, tail
 * returns 0. */
Test(pgcl, v1_six_fields_written_as_v2)
{
	char *path = cg_file("v1-6", NULL, NULL), *out, *path2;
	struct pdb *db = read_pgcl(path, 0), *db2;
	size_t len;

	out = write_pgcl(db, 2, &len);
	path2 = write_temp(out, len, ".pgcl");
	db2 = read_pgcl(path2, 0);
	expect_meta(db2, "pgcl_layout", "7");
	expect_meta(db2, "ticks_per_second", "0");
	cr_expect_eq(cc_sum(db2, "fib", "ticks"), 42);
	cr_expect_eq(cc_sum(db2, "garbage_collector", "words"), -70);
	cr_expect_eq(cc_sum(db2, "fib", "tail_returns"), 0);
	unlink(path);
	unlink(path2);
	free(path);
	free(path2);
	free(out);
	pdb_free(db);
	pdb_free(db2);
}

/* ---- overhead compensation ---- */

Test(pgcl, compensate)
{
	static const int64_t raw[4] = { 100, 3, 7, 50 };
	static const int64_t comp[4] = { 80, 0, 6, 50 };
	char *path = cg_file("v2-overhead", NULL, NULL);
	struct pdb *db = read_pgcl(path, 0), *dbc;
	uint32_t n;

	expect_meta(db, "overhead_per_1000", "500");
	expect_meta(db, "compensated", NULL);
	dbc = read_pgcl(path, PDB_OPT_COMPENSATE);
	expect_meta(dbc, "compensated", "yes");
	cr_assert_eq(pdb_node_count(db), 4);
	cr_assert_eq(pdb_node_count(dbc), 4);
	for (n = 0; n < 4; n++) {
		cr_expect_eq(pdb_node_value(db, n, 0), raw[n]);
		cr_expect_eq(pdb_node_value(dbc, n, 0), comp[n],
		    "node %u: %lld, want %lld", n,
		    (long long)pdb_node_value(dbc, n, 0), (long long)comp[n]);
		/* Only ticks change. */
		cr_expect_eq(pdb_node_value(dbc, n, 3),
		    pdb_node_value(db, n, 3));
	}
	unlink(path);
	free(path);
	pdb_free(db);
	pdb_free(dbc);
}

/* Writing a compensated profile must not let it be compensated twice. */
Test(pgcl, compensated_written_with_zero_overhead)
{
	char *path = cg_file("v2-overhead", NULL, NULL), *out, *path2;
	struct pdb *db = read_pgcl(path, PDB_OPT_COMPENSATE), *db2;
	size_t len;

	out = write_pgcl(db, 0, &len);
	cr_expect(strstr(warnings, "compensated") != NULL, "warnings: %s",
	    warnings);
	path2 = write_temp(out, len, ".pgcl");
	db2 = read_pgcl(path2, PDB_OPT_COMPENSATE);
	expect_meta(db2, "overhead_per_1000", "0");
	cr_expect_eq(pdb_node_value(db2, 0, 0), 80);
	unlink(path);
	unlink(path2);
	free(path);
	free(path2);
	free(out);
	pdb_free(db);
	pdb_free(db2);
}

Test(pgcl, compensate_v1_has_no_overhead)
{
	char *path = cg_file("v1-7", NULL, NULL);
	struct pdb *db = read_pgcl(path, PDB_OPT_COMPENSATE);

	expect_meta(db, "compensated", NULL);
	cr_expect(strstr(warnings, "not compensated") != NULL, "warnings: %s",
	    warnings);
	cr_expect_eq(pdb_node_value(db, 0, 0), 5);
	unlink(path);
	free(path);
	pdb_free(db);
}

/*
 * Compensation is optional and a best effort (the Clean notes: it "may
 * lead to functions getting attributed (near-)zero costs"), so a table
 * of compensated ticks says so, as one of approximate ticks does.
 */
Test(pgcl, compensated_tables_say_so)
{
	char *path = cg_file("v2-overhead", NULL, NULL);

	expect_output("metric:  ticks (ticks), compensated for profiling "
	    "overhead, total 136\n", NULL, "ccs-flat --compensate %s", path);
	expect_output("metric:  ticks (ticks), total 160\n", NULL,
	    "ccs-flat %s", path);
	/* Only ticks are compensated. */
	expect_output("metric:  words (words), total ", "compensated",
	    "ccs-flat --compensate -m words %s", path);
	/* Through a dump that kept the mark, too. */
	expect_output("total:  136 ticks, 10 words; ticks compensated for "
	    "profiling overhead\n", NULL, "ccs-convert -q --compensate -t dump "
	    "%s | ccs-tree", path);
	expect_output("total:  160 ticks, 10 words\n", "compensated",
	    "ccs-tree %s", path);
	unlink(path);
	free(path);
}

/* ---- the writer on a profile pgcl did not make ---- */

Test(pgcl, writer_renumbers_and_warns)
{
	static const char want_text[] =
	    "\"prof\"- u32:2 u32:3 u32:3 1000 0\n"
	    "\"B\" \"A\" \"Unused\"\n"
	    "1 \"root\" 2 \"leaf\" 2 \"lonely\"\n"
	    "1 7 0 0 1 0 0 2\n"
	    "  2 -3 0 0 2 0 0 1\n"
	    "    1 4 0 0 0 0 0 0\n"
	    "  2 1 0 0 0 0 0 0\n";
	struct pdb *db = new_db();
	uint32_t mu, ma, mb, lonely, leaf, root, n0, n1, n2, n3;
	unsigned ti, ai, si;
	unsigned char *want;
	size_t wlen, len;
	char *out;

	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &ti) == 0);
	cr_assert(pdb_metric_add(db, "alloc", "bytes", PDB_COST, 0, &ai) == 0);
	cr_assert(pdb_metric_add(db, "strict_calls", "calls", PDB_COUNT, 0,
	    &si) == 0);
	cr_assert(pdb_meta_set(db, "tick_interval_us", "1000") == 0);
	cr_assert(pdb_module_add(db, "Unused", &mu) == 0);
	cr_assert(pdb_module_add(db, "A", &ma) == 0);
	cr_assert(pdb_module_add(db, "B", &mb) == 0);
	cr_assert(pdb_cc_add(db, "lonely", ma, "", 0, -1, &lonely) == 0);
	cr_assert(pdb_cc_add(db, "leaf", ma, "a.icl:3", 0, -1, &leaf) == 0);
	cr_assert(pdb_cc_add(db, "root", mb, "", 0, -1, &root) == 0);
	cr_assert(pdb_root_new(db, root, &n0) == 0);
	cr_assert(pdb_node_append(db, n0, leaf, &n1) == 0);
	cr_assert(pdb_node_append(db, n1, root, &n2) == 0);
	cr_assert(pdb_node_append(db, n0, leaf, &n3) == 0);
	pdb_node_set_value(db, n0, ti, 7);
	pdb_node_set_value(db, n0, ai, 99);
	pdb_node_set_value(db, n0, si, 1);
	pdb_node_set_value(db, n1, ti, -3);
	pdb_node_set_value(db, n1, ai, 5);
	pdb_node_set_value(db, n1, si, 2);
	pdb_node_set_value(db, n2, ti, 4);
	pdb_node_set_value(db, n3, ti, 1);

	out = write_pgcl(db, 0, &len);
	cr_expect_str_eq(warnings,
	    "pgcl cannot hold metric 'alloc': dropped\n"
	    "pgcl cannot hold source locations: dropped\n");
	want = cg_encode(want_text, &wlen);
	cr_assert_eq(len, wlen, "wrote %zu bytes, want %zu", len, wlen);
	cr_expect(memcmp(out, want, len) == 0, "bytes differ");
	free(want);
	free(out);
	pdb_free(db);
}

Test(pgcl, writer_rejects_version_3)
{
	struct pdb *db = read_pgcl(SYNTH, 0);
	struct pdb_opts opts;
	FILE *f = fopen("/dev/null", "w");

	memset(&opts, 0, sizeof(opts));
	opts.pgcl_version = 3;
	cr_assert(f != NULL);
	cr_expect_eq(pdb_write(db, f, &pdb_fmt_pgcl, &opts), PDB_EUNSUPP);
	cr_expect(strstr(pdb_errmsg(db), "version 3") != NULL, "%s",
	    pdb_errmsg(db));
	fclose(f);
	pdb_free(db);
}

/* ---- bad input ---- */

Test(pgcl, every_truncation_is_an_error)
{
	char *data, *path, *prefix;
	struct pdb *db;
	size_t len, cut;
	int rc;

	data = slurp(SYNTH, &len);
	cr_assert(data != NULL && len == SYNTH_LEN);
	for (cut = 0; cut < len; cut++) {
		db = read_bad(data, cut, &path, &rc);
		cr_assert_eq(rc, PDB_EFORMAT, "cut at %zu: rc %d: %s", cut, rc,
		    pdb_errmsg(db));
		prefix = xprintf("%s: byte ", path);
		cr_assert(strncmp(pdb_errmsg(db), prefix, strlen(prefix)) == 0,
		    "cut at %zu: %s", cut, pdb_errmsg(db));
		cr_assert(strstr(pdb_errmsg(db), "truncated in ") != NULL ||
		    strstr(pdb_errmsg(db), "exceeds what the file can hold") !=
		    NULL, "cut at %zu: %s", cut, pdb_errmsg(db));
		unlink(path);
		free(path);
		free(prefix);
		pdb_free(db);
	}
	free(data);
}

Test(pgcl, truncation_messages)
{
	char *data;
	size_t len;

	data = slurp(SYNTH, &len);
	expect_error(data, 0, PDB_EFORMAT, "byte 0: truncated in header");
	expect_error(data, 10, PDB_EFORMAT, "byte 10: truncated in header");
	expect_error(data, 18, PDB_EFORMAT, "byte 18: truncated in header");
	expect_error(data, 30, PDB_EFORMAT,
	    "byte 30: truncated in module table");
	expect_error(data, 0x60, PDB_EFORMAT,
	    "byte 96: truncated in cost-centre table");
	expect_error(data, 0x11f, PDB_EFORMAT, "byte 287: truncated in node");
	expect_error(data, len - 1, PDB_EFORMAT,
	    "byte 3789: truncated in node");
	free(data);
}

Test(pgcl, bad_magic)
{
	expect_error_text("\"prox\"- u32:2 u32:0 u32:0 0 0", PDB_EFORMAT,
	    "byte 0: not a pgcl file: bad magic");
	expect_error_text("\"PK\"-", PDB_EFORMAT,
	    "byte 0: not a pgcl file: bad magic");
}

Test(pgcl, unsupported_version)
{
	/* The second's version field could be Latin-1 text, "\xff" four
	 * times; the NULs of the counts after it are not. */
	static const char *const texts[] = {
		"\"prof\"- u32:3 u32:1 u32:1 0 0 \"M\" 1 \"f\" 1 0 0 0 0 0 0 0",
		"\"prof\"- u32:4294967295 u32:1 u32:1 0 0 \"M\" 1 \"f\" 1 0 0 "
		    "0 0 0 0 0",
	};
	static const char *const versions[] = { "3", "4294967295" };
	unsigned char *p;
	size_t i, n;
	char *path, *want, *msg;
	struct pdb *db;
	int rc;

	expect_error_text("\"prof\"- u32:0", PDB_EUNSUPP,
	    "byte 4: unsupported pgcl version 0");
	for (i = 0; i < 2; i++) {
		msg = xprintf("byte 4: unsupported pgcl version %s",
		    versions[i]);
		expect_error_text(texts[i], PDB_EUNSUPP, msg);
		/* Probing picks pgcl for it, so the message is the same. */
		p = cg_encode(texts[i], &n);
		path = write_temp(p, n, ".pgcl");
		db = new_db();
		rc = pdb_read_tree(db, path, NULL, NULL, NULL);
		want = xprintf("%s: %s", path, msg);
		cr_expect_eq(rc, PDB_EUNSUPP, "%s", pdb_errmsg(db));
		cr_expect_str_eq(pdb_errmsg(db), want);
		unlink(path);
		free(path);
		free(want);
		free(msg);
		free(p);
		pdb_free(db);
	}
}

Test(pgcl, probe)
{
	cr_expect_eq(pdb_fmt_pgcl.probe((const unsigned char *)"prof\2\0\0\0",
	    8), 100);
	cr_expect_eq(pdb_fmt_pgcl.probe((const unsigned char *)"prof\1\0\0\0",
	    8), 100);
	cr_expect_eq(pdb_fmt_pgcl.probe((const unsigned char *)"profile;a 1\n",
	    12), 0);
	cr_expect_eq(pdb_fmt_pgcl.probe((const unsigned char *)"pro", 3), 0);
	cr_expect_eq(pdb_fmt_pgcl.probe((const unsigned char *)"\tWed Nov",
	    8), 0);
	/* Latin-1 text after "prof" is text; a NUL after it is not. */
	cr_expect_eq(pdb_fmt_pgcl.probe((const unsigned char *)
	    "prof\xff\xff\xff\xff;a 1\n", 12), 0);
	cr_expect_eq(pdb_fmt_pgcl.probe((const unsigned char *)
	    "prof\xff\xff\xff\xff\1\0\0\0", 12), 60);
}

Test(pgcl, overlong_varint)
{
	/* 11 bytes: ten with the continuation bit, then one more. */
	expect_error_text("\"prof\"- u32:2 u32:1 u32:1 0 0 \"M\" 1 \"f\" "
	    "x:8080808080808080808001 0 0 0 0 0 0 0", PDB_EFORMAT,
	    "byte 23: varint longer than 10 bytes in node");
	/* Ten bytes but more than 64 bits. */
	expect_error_text("\"prof\"- u32:2 u32:1 u32:1 0 0 \"M\" 1 \"f\" "
	    "1 x:ffffffffffffffffff02 0 0 0 0 0 0", PDB_EFORMAT,
	    "byte 24: varint overflows 64 bits in node");
	/* In the header and in the cost-centre table. */
	expect_error_text("\"prof\"- u32:2 u32:1 u32:1 "
	    "x:8080808080808080808001", PDB_EFORMAT,
	    "byte 16: varint longer than 10 bytes in header");
	expect_error_text("\"prof\"- u32:2 u32:1 u32:1 0 0 \"M\" "
	    "x:8080808080808080808001 \"f\"", PDB_EFORMAT,
	    "byte 20: varint longer than 10 bytes in cost-centre table");
	/* Ten bytes is the most, and fine. */
	{
		struct pdb *db;
		unsigned char *p;
		size_t n;
		char *path;
		int rc;

		p = cg_encode("\"prof\"- u32:2 u32:1 u32:1 0 0 \"M\" 1 \"f\" "
		    "1 0 x:ffffffffffffffffff01 0 0 0 0 0", &n);
		db = read_bad(p, n, &path, &rc);
		cr_expect_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
		cr_expect_eq(pdb_node_value(db, 0, 1), -1);
		unlink(path);
		free(path);
		free(p);
		pdb_free(db);
	}
}

Test(pgcl, ids_out_of_range)
{
	expect_error_text("\"prof\"- u32:2 u32:1 u32:2 0 0 \"M\" 1 \"f\" "
	    "1 \"g\" 1 0 0 0 0 0 0 1 99 0 0 0 0 0 0 0", PDB_EFORMAT,
	    "byte 34: cost centre id 99 out of range (2 cost centres)");
	expect_error_text("\"prof\"- u32:2 u32:1 u32:1 0 0 \"M\" 1 \"f\""
	    " 0 0 0 0 0 0 0 0", PDB_EFORMAT,
	    "byte 23: cost centre id 0 out of range (1 cost centres)");
	expect_error_text("\"prof\"- u32:2 u32:1 u32:1 0 0 \"M\" 2 \"f\""
	    " 1 0 0 0 0 0 0 0", PDB_EFORMAT,
	    "byte 20: module id 2 out of range (1 modules)");
	expect_error_text("\"prof\"- u32:2 u32:1 u32:1 0 0 \"M\" 0 \"f\""
	    " 1 0 0 0 0 0 0 0", PDB_EFORMAT,
	    "byte 20: module id 0 out of range (1 modules)");
}

Test(pgcl, child_count_too_large)
{
	expect_error_text("\"prof\"- u32:2 u32:1 u32:1 0 0 \"M\" 1 \"f\""
	    " 1 0 0 0 0 0 0 123456789 1 0 0 0 0 0 0 0", PDB_EFORMAT,
	    "byte 30: child count 123456789 exceeds what the file can hold");
	expect_error_text("\"prof\"- u32:2 u32:1 u32:1 0 0 \"M\" 1 \"f\""
	    " 1 0 0 0 0 0 0 -1", PDB_EFORMAT,
	    "byte 30: child count 18446744073709551615 exceeds what the "
	    "file can hold");
	/* Two children promised, bytes for one. */
	expect_error_text("\"prof\"- u32:2 u32:1 u32:1 0 0 \"M\" 1 \"f\""
	    " 1 0 0 0 0 0 0 2 1 0 0 0 0 0 0 0", PDB_EFORMAT,
	    "byte 30: child count 2 exceeds what the file can hold");
}

Test(pgcl, huge_header_counts)
{
	/* Counts are not trusted for allocation: the file ends first. */
	expect_error_text("\"prof\"- u32:2 u32:4294967295 u32:4294967295 0 0 "
	    "\"M\"", PDB_EFORMAT, "byte 20: truncated in module table");
}

/*
 * A name is at most 64 MiB, exactly, however much of the file is
 * buffered when its end is found: a dump refuses a longer one, so a
 * profile read here must not have one.
 */
Test(pgcl, longest_name, .timeout = 60)
{
	static const char head[] = "prof\2\0\0\0\1\0\0\0\1\0\0\0\0\0";
	const size_t most = (size_t)64 << 20, hl = sizeof(head) - 1;
	static const char tail[] = "\0\1a\0\1\1\0\0\0\0\0\0";
	const size_t tl = sizeof(tail) - 1;
	char *data = malloc(hl + most + 1 + tl), *path;
	struct pdb *db;
	int rc;

	cr_assert(data != NULL);
	memcpy(data, head, hl);
	memset(data + hl, 'M', most + 1);
	memcpy(data + hl + most + 1, tail, tl);
	/* One byte too long (its NUL is the tail's first byte). */
	expect_error(data, hl + most + 1 + tl, PDB_EFORMAT,
	    "byte 18: string too long in module table");
	/* At the limit. */
	memcpy(data + hl + most, tail, tl);
	db = read_bad(data, hl + most + tl, &path, &rc);
	cr_expect_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
	unlink(path);
	free(path);
	pdb_free(db);
	free(data);
}

Test(pgcl, trailing_bytes)
{
	char *data;
	size_t len;

	data = slurp(SYNTH, &len);
	data = realloc(data, len + 1);
	data[len] = 0;
	expect_error(data, len + 1, PDB_EFORMAT,
	    "byte 3790: trailing bytes after the call-graph tree");
	free(data);
	/* A second root. */
	expect_error_text("\"prof\"- u32:2 u32:1 u32:1 0 0 \"M\" 1 \"f\""
	    " 1 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0", PDB_EFORMAT,
	    "byte 31: trailing bytes after the call-graph tree");
}

Test(pgcl, v1_neither_layout)
{
	/* Nine fields: neither 7 nor 6 plus a count ends the file. */
	expect_error_text("\"prof\"- u32:1 u32:1 u32:1 \"M\" 1 \"f\""
	    " 1 0 0 0 0 0 0 0 0 0", PDB_EFORMAT,
	    "byte 29: trailing bytes after the call-graph tree "
	    "(version 1, 7 fields per node)");
}

/* ---- depth ---- */

#define DEEP	1000000

static unsigned char *
deep_chain(size_t *len)
{
	struct enc b = { NULL, 0, 0 };
	uint32_t i;

	enc_bytes(&b, "prof", 4);
	enc_u32(&b, 2);
	enc_u32(&b, 1);
	enc_u32(&b, 1);
	enc_bytes(&b, "\0\0M\0\1f", 7);
	for (i = 0; i < DEEP; i++) {
		/* id 1, ticks 1, words 2, tail 0, strict 1, lazy 0,
		 * curried 0, then the child count */
		enc_bytes(&b, "\1\1\2\0\1\0\0", 7);
		enc_varint(&b, i + 1 < DEEP);
	}
	*len = b.len;
	return b.b;
}

Test(pgcl, million_deep_chain, .timeout = 60)
{
	unsigned char *bytes;
	size_t n, len;
	char *path, *out;
	struct pdb *db;
	struct pdb_flat *fl;
	int rc;

	bytes = deep_chain(&n);
	path = write_temp(bytes, n, ".pgcl");

	/* Streamed. */
	db = new_db();
	cr_assert((fl = pdb_flat_new(NULL)) != NULL);
	rc = pdb_read_stream(db, path, NULL, NULL, pdb_flat_sink(fl), NULL);
	cr_assert(rc == PDB_OK, "%s", pdb_errmsg(db));
	cr_expect_eq(pdb_flat_nodes(fl), DEEP);
	cr_expect_eq(pdb_flat_self(fl, 0, 0), DEEP);
	cr_expect_eq(pdb_flat_inherited(fl, 0, 0), DEEP);
	pdb_flat_free(fl);
	pdb_free(db);

	/* As a tree, then written back unchanged. */
	db = read_pgcl(path, 0);
	cr_assert_eq(pdb_node_count(db), DEEP);
	cr_expect_eq(pdb_node_depth(db, DEEP - 1), DEEP - 1);
	out = write_pgcl(db, 0, &len);
	cr_assert_eq(len, n);
	cr_expect(memcmp(out, bytes, n) == 0, "deep chain changed");
	unlink(path);
	free(path);
	free(out);
	free(bytes);
	pdb_free(db);
}

/* ---- through the tools ---- */

static int
cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Whether two tables hold the same rows with the same self column in
 * the same order, so that they differ only in how ties are ordered.
 */
static int
same_but_ties(char *a, char *b)
{
	char *la[512], *lb[512], *p, *sa, *sb;
	size_t na = 0, nb = 0, i;

	for (p = strtok_r(a, "\n", &sa); p && na < 512;
	    p = strtok_r(NULL, "\n", &sa))
		la[na++] = p;
	for (p = strtok_r(b, "\n", &sb); p && nb < 512;
	    p = strtok_r(NULL, "\n", &sb))
		lb[nb++] = p;
	if (na != nb)
		return 0;
	for (i = 0; i < na; i++) {
		/* The fourth column, self. */
		const char *fa = la[i], *fb = lb[i];
		int k;

		for (k = 0; k < 3; k++) {
			fa = strchr(fa, '\t');
			fb = strchr(fb, '\t');
			if (fa == NULL || fb == NULL)
				return 0;
			fa++, fb++;
		}
		if (strcspn(fa, "\t") != strcspn(fb, "\t") ||
		    strncmp(fa, fb, strcspn(fa, "\t")) != 0)
			return 0;
	}
	qsort(la, na, sizeof(*la), cmp_line);
	qsort(lb, nb, sizeof(*lb), cmp_line);
	for (i = 0; i < na; i++)
		if (strcmp(la[i], lb[i]) != 0)
			return 0;
	return 1;
}

/* ccs-flat --tsv ARGS on the synthetic profile must equal golden. */
static void
expect_tsv(const char *args, const char *golden)
{
	struct run r;
	char *want, *a, *b;

	want = slurp(golden, NULL);
	cr_assert(want != NULL, "cannot read %s", golden);
	run(&r, "ccs-flat --tsv %s " SYNTH, args);
	cr_expect_eq(r.status, 0, "ccs-flat --tsv %s: exit %d: %s", args,
	    r.status, r.err);
	if (strcmp(r.out, want) != 0) {
		a = strdup(r.out);
		b = strdup(want);
		cr_assert(a != NULL && b != NULL);
		cr_expect_fail("ccs-flat --tsv %s differs from %s%s", args,
		    golden, same_but_ties(a, b) ? ", but only in the order "
		    "of rows with equal self (the reference breaks ties by "
		    "module name, ascending)" : "");
		free(a);
		free(b);
	}
	run_free(&r);
	free(want);
}

Test(pgcl, flat_tsv_ticks)
{
	expect_tsv("-m ticks", DATA "synthetic-400.flat-ticks.tsv");
}

Test(pgcl, flat_tsv_default_metric_is_ticks)
{
	expect_tsv("", DATA "synthetic-400.flat-ticks.tsv");
}

Test(pgcl, flat_tsv_words)
{
	expect_tsv("-m words", DATA "synthetic-400.flat-words.tsv");
}

Test(pgcl, flat_tsv_strict_calls)
{
	expect_tsv("-m strict_calls",
	    DATA "synthetic-400.flat-strict_calls.tsv");
}

Test(pgcl, flat_tsv_deselect)
{
	expect_tsv("-m ticks -d 'Mod1.*' -d f14",
	    DATA "synthetic-400.flat-ticks-deselect.tsv");
	/* The order of options never matters. */
	expect_tsv("-d f14 -m ticks -d 'Mod1.*'",
	    DATA "synthetic-400.flat-ticks-deselect.tsv");
}

Test(pgcl, convert_pgcl_to_pgcl)
{
	struct run r;

	run(&r, "ccs-convert -t pgcl " SYNTH " | cmp - " SYNTH);
	cr_expect_eq(r.status, 0, "pgcl -> pgcl: %s%s", r.out, r.err);
	run_free(&r);
	run(&r, "ccs-convert -t pgcl - < " SYNTH " | cmp - " SYNTH);
	cr_expect_eq(r.status, 0, "pgcl -> pgcl from stdin: %s%s", r.out,
	    r.err);
	run_free(&r);
}

Test(pgcl, convert_pgcl_dump_pgcl)
{
	struct run r;

	run(&r, "ccs-convert -t dump " SYNTH " | ccs-convert -t pgcl - | "
	    "cmp - " SYNTH);
	cr_expect_eq(r.status, 0, "pgcl -> dump -> pgcl: %s%s", r.out, r.err);
	run_free(&r);
}

Test(pgcl, tool_error_names_file_and_byte)
{
	struct run r;
	char *data, *path, *want;

	data = slurp(SYNTH, NULL);
	cr_assert(data != NULL);
	path = write_temp(data, 300, ".pgcl");
	want = xprintf("ccs-flat: %s: byte 290: "
	    "child count 2 exceeds what the file can hold\n", path);
	run(&r, "ccs-flat %s", path);
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, want);
	run_free(&r);
	unlink(path);
	free(path);
	free(want);
	free(data);
	run(&r, "head -c 100 " SYNTH " | ccs-flat");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-flat: <stdin>: byte 100: "
	    "truncated in cost-centre table\n");
	run_free(&r);
}
