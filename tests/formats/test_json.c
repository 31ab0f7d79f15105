/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccstools JSON (read and write) and speedscope (write): lossless round
 * trips on every fixture, names that are not UTF-8, bad documents, and
 * speedscope output checked against the schema in npm's speedscope.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "testutil.h"

/* Parameters are indices: pointers do not survive Criterion's exec. */
static const char *const fixtures[] = {
	"tests/data/pgcl/synthetic-400.pgcl",
	"tests/data/ghc/mj.P.prof",
	"tests/data/ghc/mj.prof",
	"tests/data/ghc/mj.json",
	"tests/data/ghc/clausify.P.prof",
	"tests/data/ghc/demo.pa.prof",
	"tests/data/ghc/quirks-N2.prof",
	"tests/data/paper/fig7.folded",
	"tests/data/paper/s2.4-uncompressed.folded",
};
#define NFIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))
static int fixture_index[NFIXTURES] = { 0, 1, 2, 3, 4, 5, 6, 7, 8 };

ParameterizedTestParameters(json, round_trip)
{
	return cr_make_param_array(int, fixture_index, NFIXTURES);
}

/* X -> dump and X -> json -> dump are byte-identical: nothing is lost. */
ParameterizedTest(int *idx, json, round_trip)
{
	const char *const *path = &fixtures[*idx];
	char *dir = make_temp_dir();
	struct run r;

	run(&r, "ccs-convert -t dump %s > %s/a && "
	    "ccs-convert -t json %s | ccs-convert -t dump > %s/b && "
	    "cmp %s/a %s/b", *path, dir, *path, dir, dir, dir);
	cr_assert_eq(r.status, 0, "%s: %s%s", *path, r.out, r.err);
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

Test(json, detected_by_content_whatever_the_name)
{
	struct run r;
	char *prof = write_temp("", 0, ".prof");

	run(&r, "ccs-convert -t json tests/data/paper/fig7.folded > %s && "
	    "ccs-flat --tsv %s", prof, prof);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\tMain_j\t\t0\t1209\n") != NULL, "%s", r.out);
	run_free(&r);
	unlink(prof);
	free(prof);
}

Test(json, names_that_are_not_utf8_survive)
{
	static const char folded[] = "main;caf\xe9\\;x;\xff\xfe 5\nmain;ok 2\n";
	struct run r;
	char *in = write_temp(folded, sizeof(folded) - 1, ".folded");
	char *json = write_temp("", 0, ".json");

	run(&r, "ccs-convert -t json %s | tee %s | "
	    "ccs-convert -t folded; s=$?; "
	    "grep -o '\"hex\"' %s | wc -l >&2; exit $s", in, json, json);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "main;caf\xe9\\;x;\xff\xfe 5\nmain;ok 2\n");
	cr_assert_str_eq(r.err, "2\n", "two names written as hex");
	run_free(&r);
	unlink(in);
	unlink(json);
	free(in);
	free(json);
}

static void
expect_error(const char *doc, const char *message)
{
	struct run r;
	char *in = write_temp(doc, strlen(doc), ".json");

	run(&r, "ccs-flat -f json %s", in);
	cr_assert_eq(r.status, 1, "%s: exit %d", doc, r.status);
	cr_assert(strstr(r.err, message) != NULL, "%s: got '%s'", doc, r.err);
	cr_assert(strstr(r.err, in) != NULL, "message names the file: %s",
	    r.err);
	run_free(&r);
	unlink(in);
	free(in);
}

#define HEAD_NOCC "{\"format\":\"ccstools-profile\",\"version\":1," \
    "\"metadata\":{},\"metrics\":[{\"name\":\"ticks\",\"unit\":\"ticks\"," \
    "\"kind\":\"cost\"}],\"modules\":[\"M\"],"
#define HEAD HEAD_NOCC "\"cost_centres\":[{\"label\":\"a\",\"module\":0," \
    "\"src\":\"\",\"id\":1}],"

Test(json, bad_documents)
{
	expect_error("{\"format\":\"ccstools-profile\",", "1:");
	expect_error("{\"format\":\"ccstools-profile\",\"version\":2}",
	    "not a version 1");
	expect_error(HEAD "\"nodes\":[[0,2,5],[0,1,1],[0,0,1]]}",
	    "nodes[3] is missing: the tree ends early");
	expect_error(HEAD "\"nodes\":[[0,1,5]]}", "child count out of range");
	expect_error(HEAD "\"nodes\":[[3,0,5]]}", "out of range");
	expect_error(HEAD "\"nodes\":[[0,0,\"x\"]]}", "not an integer");
	expect_error(HEAD "\"nodes\":[[0,0,1],[0,0,1]]}", "more than one root");
	expect_error(HEAD "\"nodes\":[[0,0]]}", "expected [cc, children, 1 values]");
	expect_error(HEAD "\"nodes\":[]}", "no nodes");
	expect_error(HEAD_NOCC "\"cost_centres\":[{\"label\":\"a\\u0000b\","
	    "\"module\":0,\"src\":\"\",\"id\":1}],\"nodes\":[[0,0,1]]}",
	    ": NUL character in a string");
	expect_error("{\"format\":\"ccstools-profile\",\"version\":1,\"metrics\":"
	    "[{\"name\":\"t\",\"unit\":\"t\",\"kind\":\"speed\"}]}", "bad metric");
}

/*
 * The same errors in a file big enough for its nodes to be read as they
 * come (fmt_json.c, JSON_STREAM_MIN): a long metadata value pads it.
 */
static void
expect_error_big(const char *nodes, const char *message)
{
	static const char pad_head[] = "{\"format\":\"ccstools-profile\","
	    "\"version\":1,\"metadata\":{\"pad\":\"";
	static const char rest[] = "\"},\"metrics\":[{\"name\":\"ticks\","
	    "\"unit\":\"ticks\",\"kind\":\"cost\"}],\"modules\":[\"M\"],"
	    "\"cost_centres\":[{\"label\":\"a\",\"module\":0,\"src\":\"\","
	    "\"id\":1}],";
	size_t pad = 40000, n = strlen(pad_head) + pad + strlen(rest) +
	    strlen(nodes) + 1;
	char *doc = malloc(n), *p = doc;

	cr_assert(doc != NULL);
	p = stpcpy(p, pad_head);
	memset(p, 'x', pad);
	p = stpcpy(p + pad, rest);
	stpcpy(p, nodes);
	expect_error(doc, message);
	free(doc);
}

Test(json, bad_big_documents)
{
	expect_error_big("\"nodes\":[[0,2,5],[0,1,1],[0,0,1]]}",
	    "nodes[3] is missing: the tree ends early");
	expect_error_big("\"nodes\":[[3,0,5]]}", "out of range");
	expect_error_big("\"nodes\":[[0,0,\"x\"]]}",
	    "nodes[0]: value 0 is not an integer");
	expect_error_big("\"nodes\":[[0,1,1],[0,0,1.5]]}",
	    "nodes[1]: value 0 is not an integer");
	expect_error_big("\"nodes\":[[0,0,1],[0,0,1]]}",
	    "nodes[1]: more than one root");
	expect_error_big("\"nodes\":[[0,0]]}",
	    "nodes[0]: expected [cc, children, 1 values]");
	expect_error_big("\"nodes\":[[0,0,1,2]]}",
	    "nodes[0]: expected [cc, children, 1 values]");
	expect_error_big("\"nodes\":[[0,0,[1]]]}",
	    "nodes[0]: value 0 is not an integer");
	expect_error_big("\"nodes\":[{\"cc\":0}]}",
	    "nodes[0]: expected [cc, children, 1 values]");
	expect_error_big("\"nodes\":[]}", "no nodes");
	expect_error_big("\"nodes\":[[0,0,99999999999999999999]]}",
	    "integer");
	/* Wrong after the nodes, or the nodes cut short. */
	expect_error_big("\"nodes\":[[0,0,1]]} x", "end of file expected");
	expect_error_big("\"nodes\":[[0,0,1]]} \n }", "end of file expected");
	expect_error_big("\"nodes\":[[0,0,1]] \n ", "'}' expected");
	expect_error_big("\"nodes\":[[0,0,1]],\"x\":[}", "unexpected");
	expect_error_big("\"nodes\":[[0,0,1]", ": ");
}

/* Read whole by Jansson and streamed, the same nodes give one error. */
static void
expect_error_both(const char *nodes, const char *message)
{
	size_t n = strlen(HEAD) + strlen(nodes) + 1;
	char *doc = malloc(n);

	cr_assert(doc != NULL);
	snprintf(doc, n, "%s%s", HEAD, nodes);
	expect_error(doc, message);
	expect_error_big(nodes, message);
	free(doc);
}

Test(json, both_readers_judge_a_node_alike)
{
	/* The number of fields, then cc and children, then the values. */
	expect_error_both("\"nodes\":[[0,0,[1]]]}",
	    "nodes[0]: value 0 is not an integer");
	expect_error_both("\"nodes\":[[0,0,{\"a\":1}]]}",
	    "nodes[0]: value 0 is not an integer");
	expect_error_both("\"nodes\":[[0,0,\"x\",7]]}",
	    "nodes[0]: expected [cc, children, 1 values]");
	expect_error_both("\"nodes\":[[0,[0],1]]}",
	    "nodes[0]: expected [cc, children, 1 values]");
	expect_error_both("\"nodes\":[[0.5,0,1]]}",
	    "nodes[0]: expected [cc, children, 1 values]");
	expect_error_both("\"nodes\":[[0,1,1],[0,0,true]]}",
	    "nodes[1]: value 0 is not an integer");
	expect_error_both("\"nodes\":[[0,1,1],null]}",
	    "nodes[1]: expected [cc, children, 1 values]");
	/* Not JSON, though yajl takes them for white space. */
	expect_error_both("\"nodes\":[\v[0,0,1]]}", "invalid token");
	expect_error_both("\"nodes\":[[0,\f0,1]]}", "invalid token");
	/* One below -2^63. */
	expect_error_both("\"nodes\":[[0,0,-9223372036854775809]]}",
	    "integer");
	/* A key twice, once spelled with an escape. */
	expect_error_both("\"nodes\":[[0,0,1]],\"node\\u0073\":[[0,0,2]]}",
	    "duplicate object key");
}

Test(json, hex_names_are_hex_digits_only)
{
	expect_error("{\"format\":\"ccstools-profile\",\"version\":1,"
	    "\"metadata\":{\"k\":{\"hex\":\"6 46\"}}}", "bad value");
	expect_error("{\"format\":\"ccstools-profile\",\"version\":1,"
	    "\"metadata\":{\"k\":{\"hex\":\"+6\"}}}", "bad value");
}

/* -2^63 is an integer to Jansson, and so to the stream, though yajl's
 * own integer parser refuses it. */
Test(json, least_integer_read_by_both)
{
	static const char nodes[] = "\"nodes\":[[0,0,-9223372036854775808]]}";
	size_t n = strlen(HEAD) + strlen(nodes) + 40100, pad;
	char *doc = malloc(n), *path[2];
	struct run r;
	int i;

	cr_assert(doc != NULL);
	for (i = 0; i < 2; i++) {
		/* White space after the document makes the second big. */
		pad = i == 0 ? 0 : 40000;
		snprintf(doc, n, "%s%s%*s", HEAD, nodes, (int)pad, "");
		path[i] = write_temp(doc, strlen(doc), ".json");
	}
	run(&r, "ccs-convert -t json %s | grep -c -- '-9223372036854775808' "
	    "&& ccs-convert -t json %s | grep -c -- '-9223372036854775808'",
	    path[0], path[1]);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.out, "1\n1\n");
	run_free(&r);
	for (i = 0; i < 2; i++) {
		unlink(path[i]);
		free(path[i]);
	}
	free(doc);
}

/*
 * A file large enough for its nodes to be streamed (JSON_STREAM_MIN)
 * reads back to exactly what was written: metadata, metrics, cost
 * centres, every node and value.
 */
Test(json, large_file_reads_back_as_written)
{
	char *dir = make_temp_dir();
	struct run r;

	run(&r, "cd '%s' && ccs-gen -q -t dump -n 20000 -o a.dump && "
	    "ccs-convert -t json -o a.json a.dump && "
	    "test $(wc -c < a.json) -gt 65536 && "
	    "ccs-convert -t json -o b.json a.json && cmp a.json b.json", dir);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

/*
 * Read as it comes, the nodes of a big file take memory that does not
 * grow with it: 20 MB from a pipe read in 32 MB of address space, where
 * the file read whole took twice its size.  Read back right: the same
 * report as through the dump.  (The sanitizers reserve terabytes of
 * address space, so there the limit cannot be set.)
 */
Test(json, big_file_from_a_pipe_in_bounded_memory)
{
	struct run r;

#if defined(__SANITIZE_ADDRESS__)
	cr_skip_test("address space limits do not mix with the sanitizers");
#endif
	run_in_temp(&r, "ccs-gen -q -t json --size 20M --stream -o $T/a.json "
	    "&& ccs-convert -t dump -o $T/a.dump $T/a.json && "
	    "ccs-flat --tsv $T/a.dump > $T/want && "
	    "(ulimit -v 32768 && ccs-flat --tsv - < $T/a.json > $T/got) && "
	    "cmp $T/want $T/got && wc -l < $T/got");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(atoi(r.out) > 1000, "%s", r.out);
	run_free(&r);
}

/*
 * The JSON and speedscope writers hold a cost centre at a time, not a
 * Jansson array of them all (some 1 KB each): 200,000 cost centres are
 * written in 48 MB of address space, where they took 256 and 96 MB.
 * The JSON reads back as the same profile.
 */
Test(json, many_cost_centres_written_in_bounded_memory, .timeout = 120)
{
	struct run r;

#if defined(__SANITIZE_ADDRESS__)
	cr_skip_test("address space limits do not mix with the sanitizers");
#endif
	run_in_temp(&r, "awk 'BEGIN { for (i = 0; i < 200000; i++) "
	    "print \"main;f\" i, 1 }' | ccs-convert -t dump -o $T/a.dump && "
	    "(ulimit -v 49152 && ccs-convert -t json $T/a.dump > $T/a.json && "
	    "ccs-convert -t speedscope $T/a.dump > $T/a.ss) && "
	    "ccs-convert -t dump $T/a.json | cmp - $T/a.dump && "
	    "node -e 'let d=JSON.parse(require(\"fs\").readFileSync(\"'$T/a.ss'\"));"
	    "console.log(d.shared.frames.length, d.shared.frames[200001].name)'");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "200002 f199999\n");
	run_free(&r);
}

/*
 * What follows a head from a pipe or a device may never end: a byte that
 * JSON cannot have outside a string stops the scan for the nodes there,
 * where it used to read on, then read the whole input, in memory.
 */
Test(json, garbage_after_the_head_stops_at_its_byte, .timeout = 120)
{
	struct run r;

#if defined(__SANITIZE_ADDRESS__)
	cr_skip_test("address space limits do not mix with the sanitizers");
#endif
	run(&r, "(printf '{\"format\":\"ccstools-profile\",'; cat /dev/zero) | "
	    "(ulimit -v 262144 && ccs-flat -)");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-flat: <stdin>: byte 29: not JSON: byte "
	    "0x00 outside a string\n");
	run_free(&r);
	run(&r, "ulimit -v 262144 && ccs-flat -f json /dev/zero");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-flat: /dev/zero: byte 0: not JSON: byte "
	    "0x00 outside a string\n");
	run_free(&r);
}

/*
 * Names full of what the scan for the nodes must see through: quotes,
 * backslashes, brackets, the word "nodes", in a file big enough to be
 * read as it comes (and, with PDB_SMALL_BUFFERS, cut everywhere).
 */
Test(json, names_the_scan_must_see_through)
{
	struct run r;

	run_in_temp(&r, "i=0; while [ $i -lt 1500 ]; do "
	    "printf '%%s;%%s %%d\\n' 'nodes' \"x\\\\\\\"]}\\\\\\\\$i[\" $i; "
	    "i=$((i + 1)); done > $T/a.folded && "
	    "ccs-convert -t json -o $T/a.json $T/a.folded && "
	    "test $(wc -c < $T/a.json) -gt 65536 && "
	    "ccs-convert -t json -o $T/b.json $T/a.json && cmp $T/a.json "
	    "$T/b.json && ccs-convert -t folded $T/a.folded > $T/want && "
	    "ccs-convert -t folded $T/b.json | cmp - $T/want");
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
}

/*
 * A document whose tables do not all come before its nodes is read
 * whole, and gives what the usual order gives; after its nodes, a key
 * this reader does not know is let be, as when read whole.
 */
Test(json, any_order_of_the_keys)
{
	static const char tables[] = "\"metadata\":{\"pad\":\"%0*d\"},"
	    "\"metrics\":[{\"name\":\"ticks\",\"unit\":\"ticks\","
	    "\"kind\":\"cost\"}],\"modules\":[\"M\"],\"cost_centres\":["
	    "{\"label\":\"a\",\"module\":0,\"src\":\"\",\"id\":1},"
	    "{\"label\":\"b\",\"module\":0,\"src\":\"\",\"id\":2}]";
	static const char nodes[] = "\"nodes\":[[0,2,1],[1,0,2],[0,1,4],"
	    "[1,0,8]]";
	char t[40200], doc[41000], *path;
	struct run r;
	int i;

	snprintf(t, sizeof(t), tables, 40000, 0);
	for (i = 0; i < 4; i++) {
		/* The tables before, the tables after, the version last. */
		if (i < 2)
			snprintf(doc, sizeof(doc), "{\"format\":"
			    "\"ccstools-profile\",\"version\":1,%s,%s%s",
			    t, nodes, i == 0 ? "}" : ",\"more\":[1,{}]}");
		else if (i == 2)
			snprintf(doc, sizeof(doc), "{\"format\":"
			    "\"ccstools-profile\",\"version\":1,%s,%s}",
			    nodes, t);
		else
			snprintf(doc, sizeof(doc), "{\"format\":"
			    "\"ccstools-profile\",%s,%s,\"version\":1}",
			    t, nodes);
		path = write_temp(doc, strlen(doc), ".json");
		run(&r, "ccs-flat --tsv %s", path);
		cr_assert_eq(r.status, 0, "order %d: %s", i, r.err);
		cr_assert_str_eq(r.out, "module\tcost_centre\tsrc\tself\t"
		    "inherited\nM\tb\t\t10\t10\nM\ta\t\t5\t15\n", "order %d",
		    i);
		run_free(&r);
		unlink(path);
		free(path);
	}
}

/*
 * A document of n cost centres, all but cost centre bad (whose text
 * replaces it) well formed, then its nodes; malloc'd.
 */
static char *
many_ccs_doc(int n, int bad, const char *text)
{
	size_t cap = (size_t)n * 80 + 400 + strlen(text), len;
	char *doc = malloc(cap);
	int i;

	cr_assert(doc != NULL);
	len = (size_t)snprintf(doc, cap, "{\"format\":\"ccstools-profile\","
	    "\"version\":1,\"metadata\":{},\"metrics\":[{\"name\":\"ticks\","
	    "\"unit\":\"ticks\",\"kind\":\"cost\"}],\"modules\":[\"M\"],"
	    "\"cost_centres\":[");
	for (i = 0; i < n; i++) {
		if (i == bad)
			len += (size_t)snprintf(doc + len, cap - len, "%s%s",
			    i ? "," : "", text);
		else
			len += (size_t)snprintf(doc + len, cap - len,
			    "%s{\"label\":\"c%d\",\"module\":0,\"src\":\"\","
			    "\"id\":%d}", i ? "," : "", i, i);
	}
	snprintf(doc + len, cap - len, "],\"nodes\":[[0,1,1],[%d,0,2]]}",
	    n - 1);
	return doc;
}

/* ccs-flat --tsv on a document. */
static void
flat_tsv(struct run *r, const char *doc)
{
	char *in = write_temp(doc, strlen(doc), ".json");

	run(r, "ccs-flat --tsv %s", in);
	unlink(in);
	free(in);
}

/* The error for a document, and that it names the byte Jansson does when
 * it reads the whole of it. */
static void
expect_ccs_error(const char *doc, const char *message)
{
	char *in = write_temp(doc, strlen(doc), ".json"), want[64];
	json_error_t err;
	struct run r;

	cr_assert(json_loadb(doc, strlen(doc), JSON_REJECT_DUPLICATES,
	    &err) == NULL);
	snprintf(want, sizeof(want), ": byte %d: ", err.position);
	run(&r, "ccs-flat -f json %s", in);
	cr_assert_eq(r.status, 1, "%s", message);
	cr_assert(strstr(r.err, message) != NULL, "got '%s'", r.err);
	cr_assert(strstr(r.err, want) != NULL, "want '%s', got '%s'", want,
	    r.err);
	run_free(&r);
	unlink(in);
	free(in);
}

/*
 * The cost centres of a big file are read a batch at a time, each batch
 * a document of its own; they read as the whole array, and are judged
 * as in it, wherever a batch begins or ends.
 */
Test(json, cost_centres_a_batch_at_a_time)
{
	static const int at[] = { 0, 1, 1023, 1024, 1025, 2047, 2999 };
	char *doc, msg[64];
	struct run r;
	size_t k;

	doc = many_ccs_doc(3000, -1, "");
	flat_tsv(&r, doc);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "module\tcost_centre\tsrc\tself\tinherited\n"
	    "M\tc2999\t\t2\t2\nM\tc0\t\t1\t3\n");
	run_free(&r);
	free(doc);
	for (k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		/* Judged by this reader: the index counts every batch. */
		doc = many_ccs_doc(3000, at[k], "{\"label\":\"x\","
		    "\"module\":7,\"src\":\"\"}");
		snprintf(msg, sizeof(msg), "cost_centres[%d]: bad cost "
		    "centre", at[k]);
		expect_error(doc, msg);
		free(doc);
		/* Judged by Jansson, at the byte it names reading whole. */
		doc = many_ccs_doc(3000, at[k], "{\"label\":\"x\","
		    "\"label\":\"y\",\"module\":0,\"src\":\"\"}");
		expect_ccs_error(doc, "duplicate object key");
		free(doc);
		doc = many_ccs_doc(3000, at[k], "{\"label\":\"x\","
		    "\"module\":0,\"src\":\"\"}{}");
		expect_ccs_error(doc, "");
		free(doc);
		doc = many_ccs_doc(3000, at[k], "{\"label\":\"x\","
		    "\"module\":0,\"src\":\"\\u00\"}");
		expect_ccs_error(doc, "");
		free(doc);
	}
	/*
	 * Nested as deep as Jansson goes, in the document: a batch is one
	 * level deeper than its elements, as the document is.
	 */
	for (k = 0; k < 2; k++) {
		char deep[4200], *p = deep;

		p += sprintf(p, "{\"label\":\"x\",\"module\":0,\"src\":\"\","
		    "\"x\":");
		memset(p, '[', 2046 - k);
		memset(p + 2046 - k, ']', 2046 - k);
		strcpy(p + 2 * (2046 - k), "}");
		doc = many_ccs_doc(3000, 1500, deep);
		if (k == 0)
			expect_ccs_error(doc, "maximum parsing depth");
		else {
			flat_tsv(&r, doc);
			cr_expect_eq(r.status, 0, "one level less: %s", r.err);
			run_free(&r);
		}
		free(doc);
	}
	/* A comma with no element after it, between batches or last. */
	doc = many_ccs_doc(3000, 1024, "");
	expect_ccs_error(doc, "");
	free(doc);
	doc = many_ccs_doc(3000, 2999, "");
	expect_ccs_error(doc, "");
	free(doc);
}

Test(json, deep_tree_without_recursion)
{
	FILE *f;
	char *path;
	struct run r;
	int i, depth = 200000;

	path = write_temp("", 0, ".json");
	cr_assert((f = fopen(path, "w")) != NULL);
	fputs(HEAD "\"nodes\":[", f);
	for (i = 0; i < depth; i++)
		fprintf(f, "%s[0,%d,1]", i ? "," : "", i + 1 < depth);
	fputs("]}", f);
	fclose(f);
	run(&r, "ccs-flat --tsv %s", path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "module\tcost_centre\tsrc\tself\tinherited\n"
	    "M\ta\t\t200000\t200000\n");
	run_free(&r);
	unlink(path);
	free(path);
}

/* ---- speedscope ---- */

ParameterizedTestParameters(speedscope, valid_against_schema)
{
	return cr_make_param_array(int, fixture_index, NFIXTURES);
}

ParameterizedTest(int *idx, speedscope, valid_against_schema)
{
	const char *const *path = &fixtures[*idx];
	struct run r;
	char *json = write_temp("", 0, ".json");

	run(&r, "ccs-convert -t speedscope %s > %s && "
	    "node tests/js/validate-speedscope.mjs %s", *path, json, json);
	cr_assert_eq(r.status, 0, "%s: %s", *path, r.err);
	cr_assert(strstr(r.out, "valid speedscope file") != NULL);
	run_free(&r);
	unlink(json);
	free(json);
}

Test(speedscope, schema_check_can_fail)
{
	struct run r;
	char *in = write_temp("{\"shared\":{\"frames\":[]},\"profiles\":[]}",
	    38, ".json");

	run(&r, "node tests/js/validate-speedscope.mjs %s", in);
	cr_assert_eq(r.status, 1, "a file without $schema is invalid");
	run_free(&r);
	unlink(in);
	free(in);
}

/*
 * A shell command that writes a chain n frames deep, f0;f1;...;fn-1,
 * with a sample on every node: a profile that speedscope's evented form
 * holds in less than its sampled one from about 50 frames on.
 */
#define CHAIN(n) "awk -v n=" #n " -f tests/support/chain.awk"
/* The same under a frame Top of t samples (tests/support/chain.awk). */
#define CHAIN_TOP(n, t) "awk -v n=" #n " -v top=" #t \
	" -f tests/support/chain.awk"

/*
 * A profile runs from 0 to its total, in both forms: the weights of the
 * samples add up to it, and the events end at it.  A shallow profile is
 * written as samples, a deep one as events, whichever is smaller.
 */
Test(speedscope, profiles_span_the_total)
{
	static const struct {
		const char *cmd, *want;
	} t[] = {
		/*
		 * mj.P.prof: 47 ticks of 1 ms, shown as time, and 210,573,856
		 * bytes allocated (GHC's total alloc).
		 */
		{ "cat tests/data/ghc/mj.P.prof",
		    "sampled ticks nanoseconds 47000000 47000000\n"
		    "sampled alloc bytes 210573856 210573856\n" },
		/* 1 + 2 + ... + 100 frames as samples, 200 events. */
		{ CHAIN(100), "evented samples none 100 100\n" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		run(&r, "%s | ccs-convert -t speedscope | node -e 'let d=JSON."
		    "parse(require(\"fs\").readFileSync(0));"
		    "for (const p of d.profiles) console.log(p.type, p.name, "
		    "p.unit, p.type === \"sampled\" ? "
		    "p.weights.reduce((a,b)=>a+b,0) : "
		    "p.events[p.events.length-1].at, p.endValue)'", t[i].cmd);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_expect_str_eq(r.out, t[i].want, "%s", t[i].cmd);
		run_free(&r);
	}
}

/*
 * What speedscope shows is the profile: the stacks that the events of a
 * metric's profile give, and their weights, are the folded stacks of that
 * metric, in the same order.  Ticks of a known length are weighted in
 * nanoseconds, so the pgcl profile is given a tick length that is not.
 */
Test(speedscope, stacks_are_the_profiles_stacks)
{
	static const struct {
		const char *in;
		const char *metric;
		int profile;
	} t[] = {
		{ "cat tests/data/ghc/mj.P.prof", "alloc", 1 },
		{ "cat tests/data/ghc/clausify.P.prof", "alloc", 1 },
		{ "cat tests/data/paper/fig7.folded", "samples", 0 },
		{ "cat tests/data/paper/s2.4-uncompressed.folded", "samples", 0 },
		{ "ccs-convert -t json tests/data/pgcl/synthetic-400.pgcl | "
		    "sed 's/\"ticks_per_second\":\"1000000\"/"
		    "\"ticks_per_second\":\"3\"/'", "ticks", 0 },
		/* Deep, recursive and wide, with a cost on most nodes. */
		{ "ccs-gen -q -t folded -n 3000 --seed 7", "samples", 0 },
		/* Written as events, with and without cost on the root. */
		{ CHAIN(300), "samples", 0 },
		{ CHAIN_TOP(300, 5) " | ccs-select -d Top", "samples", 0 },
		/* Deep, but its total past 2^53: as samples, exactly. */
		{ "awk 'BEGIN { print \"big 10000000000000000\"; s = \"f0\"; "
		    "for (i = 1; i <= 200; i++) { print s, 1; "
		    "s = s \";f\" i } }'", "samples", 0 },
		/* Cost left on the synthetic root, and a frame under it. */
		{ "(ccs-gen -q -t folded -n 3000 --seed 8; echo 'Top 5'; "
		    "echo 'Top;Solver.Lexer.pushSet 2') | ccs-select -d Top",
		    "samples", 0 },
	};
	char *dir = make_temp_dir();
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		run(&r, "%s > %s/in && "
		    "ccs-convert -t speedscope %s/in > %s/s.json && "
		    "node tests/js/validate-speedscope.mjs --folded %d "
		    "%s/s.json > %s/a && "
		    "ccs-convert -t folded -m %s %s/in > %s/b && "
		    "test -s %s/b && diff %s/a %s/b", t[i].in, dir, dir, dir,
		    t[i].profile, dir, dir, t[i].metric, dir, dir, dir, dir,
		    dir);
		cr_expect_eq(r.status, 0, "%s: %s%s", t[i].in, r.out, r.err);
		run_free(&r);
	}
	remove_temp(dir);
	free(dir);
}

/*
 * The file grows with the nodes, not with the sum of their depths: a
 * chain 2,000 deep with a cost on every node is some 90 bytes a node,
 * where a sample per stack would be some 8 MB.  The estimate that
 * chooses the form is checked here too: events are the smaller.
 */
Test(speedscope, linear_in_the_nodes)
{
	struct run r;

	run(&r, CHAIN(2000) " | ccs-convert -t speedscope | wc -c");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_lt(strtoull(r.out, NULL, 10), 2000 * 100, "%s", r.out);
	run_free(&r);
}

/*
 * speedscope cannot read events nested much deeper than 6,000 frames
 * (it sorts its call tree recursively): past 4,000 frames, a profile
 * stays samples, which it reads, unless the samples would pass the
 * 2^29 - 24 characters of Chromium's longest string, which it cannot.
 */
Test(speedscope, too_deep_for_events)
{
	static const struct {
		const char *cmd, *want;
	} t[] = {
		{ CHAIN(4000), "evented\n" },
		{ CHAIN(4001), "sampled\n" },
		/* The root is no frame: 4,001 frames with it. */
		{ CHAIN_TOP(4000, 5) " | ccs-select -d Top",
		    "evented\n" },
		/* 8,000 frames: 152 MB of samples; 16,000: 640 MB. */
		{ CHAIN(8000), "sampled\n" },
		{ CHAIN(16000), "evented\n" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		/* The first profile's type, past the frames. */
		run(&r, "%s | ccs-convert -t speedscope | head -c 1000000 | "
		    "grep -o -m 1 "
		    "'\"type\":\"[a-z]*\"' | cut -d '\"' -f 4", t[i].cmd);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_expect_str_eq(r.out, t[i].want, "%s", t[i].cmd);
		run_free(&r);
	}
}

/*
 * Ticks of a known length are time: GHC's tick interval, Clean's ticks
 * per second when a tick is a whole number of nanoseconds.  Otherwise,
 * and for folded samples, they stay bare counts.
 */
Test(speedscope, ticks_of_known_length_are_time)
{
	static const struct {
		const char *cmd, *want;
	} t[] = {
		/* A million a second: 11788 us. */
		{ "ccs-convert -t speedscope "
		    "tests/data/pgcl/synthetic-400.pgcl",
		    "ticks nanoseconds 11788000" },
		{ "ccs-convert -t json tests/data/pgcl/synthetic-400.pgcl | "
		    "sed 's/\"ticks_per_second\":\"1000000\"/"
		    "\"ticks_per_second\":\"3\"/' | "
		    "ccs-convert -t speedscope",
		    "ticks none 11788" },
		{ "printf 'a;b 3\\n' | ccs-convert -t speedscope",
		    "samples none 3" },
	};
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		run(&r, "%s 2>/dev/null | node -e 'let d=JSON.parse(require("
		    "\"fs\").readFileSync(0)); let p=d.profiles[0]; "
		    "console.log(p.name, p.unit, p.endValue)'", t[i].cmd);
		cr_assert_eq(r.status, 0, "%s: %s", t[i].cmd, r.err);
		cr_expect(strncmp(r.out, t[i].want, strlen(t[i].want)) == 0 &&
		    r.out[strlen(t[i].want)] == '\n', "%s: %s", t[i].cmd, r.out);
		run_free(&r);
	}
}

/*
 * Cost left on a synthetic root (de-selecting every frame of a stack
 * puts it there) is a stack of the root's frame alone, as ccs-flat
 * shows it, so the profile still spans the total; otherwise the root is
 * no frame.  As samples and as events.
 */
Test(speedscope, cost_left_on_the_synthetic_root)
{
	struct run r;

	run(&r, "printf 'a 2\\nb 3\\n' | ccs-select -d a -t speedscope");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"frames\":[{\"name\":\"(root)\"},"
	    "{\"name\":\"a\"},{\"name\":\"b\"}]") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "\"endValue\":5,\"samples\":[[0],[2]],"
	    "\"weights\":[2,3]}") != NULL, "%s", r.out);
	run_free(&r);

	run(&r, CHAIN_TOP(100, 2) " | ccs-select -d Top -t speedscope");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"frames\":[{\"name\":\"(root)\"},"
	    "{\"name\":\"Top\"},{\"name\":\"f0\"},") != NULL, "%s",
	    r.out);
	cr_assert(strstr(r.out, "\"endValue\":102,\"events\":["
	    "{\"type\":\"O\",\"frame\":0,\"at\":0},"
	    "{\"type\":\"C\",\"frame\":0,\"at\":2},"
	    "{\"type\":\"O\",\"frame\":2,\"at\":2},"
	    "{\"type\":\"O\",\"frame\":3,\"at\":3},") != NULL, "%s",
	    r.out);
	cr_assert(strstr(r.out, "{\"type\":\"C\",\"frame\":2,\"at\":102}]}")
	    != NULL, "%s", r.out);
	run_free(&r);
}

/*
 * Every cost centre is a frame, in order, whatever its names, so that the
 * samples' frame numbers still hold: bytes of a label or a file that are
 * not UTF-8 are written \xNN, so that two such names stay two.
 */
Test(speedscope, frames_whose_names_are_not_utf8)
{
	static const char doc[] = HEAD_NOCC "\"cost_centres\":["
	    "{\"label\":\"root\",\"module\":0,\"src\":\"\",\"id\":1},"
	    "{\"label\":\"a\",\"module\":0,\"src\":{\"hex\":\"ff\"},\"id\":2},"
	    "{\"label\":{\"hex\":\"ff\"},\"module\":0,\"src\":\"ok.c:1\","
	    "\"id\":3},"
	    "{\"label\":\"b\",\"module\":0,\"src\":\"b.c:2\",\"id\":4},"
	    "{\"label\":{\"hex\":\"c3a9fe\"},\"module\":0,\"src\":\"\","
	    "\"id\":5}],"
	    "\"nodes\":[[0,4,0],[1,0,1],[2,0,2],[3,0,3],[4,0,4]]}";
	struct run r;
	char *in = write_temp(doc, sizeof(doc) - 1, ".json");

	run(&r, "ccs-convert -f json -t speedscope %s | node -e 'let d=JSON."
	    "parse(require(\"fs\").readFileSync(0));console.log(JSON."
	    "stringify(d.shared.frames));for (const p of d.profiles) "
	    "console.log(JSON.stringify(p.samples), JSON.stringify("
	    "p.weights))'", in);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "[{\"name\":\"M.root\"},{\"name\":\"M.a\","
	    "\"file\":\"\\\\xFF\"},"
	    "{\"name\":\"M.\\\\xFF\",\"file\":\"ok.c\","
	    "\"line\":1},{\"name\":\"M.b\",\"file\":\"b.c\",\"line\":2},"
	    "{\"name\":\"M.\u00e9\\\\xFE\"}]\n"
	    "[[0,1],[0,2],[0,3],[0,4]] [1,2,3,4]\n");
	run_free(&r);
	unlink(in);
	free(in);
}

/*
 * A frame's place is the file, line and column of its GHC source
 * location, which speedscope shows as "file:line"; GHC's "<built-in>"
 * and the like name no file, and a location of another form is kept
 * whole as the file.
 */
Test(speedscope, frames_placed_by_their_source_location)
{
	static const char doc[] = HEAD_NOCC "\"cost_centres\":["
	    "{\"label\":\"root\",\"module\":0,\"src\":\"<built-in>\","
	    "\"id\":1},"
	    "{\"label\":\"a\",\"module\":0,\"src\":\"Main.hs:16:3-41\","
	    "\"id\":2},"
	    "{\"label\":\"b\",\"module\":0,\"src\":"
	    "\"src/A B.hs:(18,5)-(19,28)\",\"id\":3},"
	    "{\"label\":\"c\",\"module\":0,\"src\":\"gen.c\",\"id\":4},"
	    "{\"label\":\"d\",\"module\":0,\"src\":\"a:b:12\",\"id\":5}],"
	    "\"nodes\":[[0,4,0],[1,0,1],[2,0,1],[3,0,1],[4,0,1]]}";
	struct run r;
	char *in = write_temp(doc, sizeof(doc) - 1, ".json");

	run(&r, "ccs-convert -f json -t speedscope %s | node -e 'let d=JSON."
	    "parse(require(\"fs\").readFileSync(0));console.log(JSON."
	    "stringify(d.shared.frames))'", in);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "[{\"name\":\"M.root\"},"
	    "{\"name\":\"M.a\",\"file\":\"Main.hs\",\"line\":16,\"col\":3},"
	    "{\"name\":\"M.b\",\"file\":\"src/A B.hs\",\"line\":18,"
	    "\"col\":5},{\"name\":\"M.c\",\"file\":\"gen.c\"},"
	    "{\"name\":\"M.d\",\"file\":\"a:b\",\"line\":12}]\n");
	run_free(&r);
	unlink(in);
	free(in);
}

/*
 * speedscope's own app (npm's speedscope, in headless Chromium) shows
 * what we write: a GHC profile with time and bytes, a Clean profile with
 * negative words left out, a deep one as events, and one with cost on
 * the synthetic root.  A file whose events do not nest is refused, so
 * that the check can fail.
 */
Test(speedscope, shown_by_speedscope, .timeout = 300)
{
	char *dir = make_temp_dir();
	struct run r;

	run(&r, "ccs-convert -t speedscope tests/data/ghc/mj.P.prof > %s/a && "
	    "ccs-convert -t speedscope tests/data/pgcl/synthetic-400.pgcl "
	    "2>/dev/null > %s/b && "
	    CHAIN(1000) " | ccs-convert -t speedscope > %s/c && "
	    "printf 'a 2\\nb;c 3\\n' | ccs-select -d a -t speedscope > %s/d && "
	    "sed 's/\"type\":\"C\",\"frame\":[0-9]*/"
	    "\"type\":\"C\",\"frame\":0/2' %s/c > %s/bad && "
	    "node tests/js/speedscope-load.mjs %s/a %s/b %s/c %s/d %s/bad",
	    dir, dir, dir, dir, dir, dir, dir, dir, dir, dir, dir);
	cr_assert_eq(r.status, 1, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "/a: shown as mj - speedscope\n") != NULL,
	    "%s", r.out);
	cr_expect(strstr(r.out, "/b: shown as ") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "/c: shown as ") != NULL &&
	    strstr(r.out, "/bad: ") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "/d: shown as ") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "/bad: not shown: Failed to load format "
	    "Tried to leave frame") != NULL, "%s", r.out);
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

Test(speedscope, negative_weights_left_out_with_a_warning)
{
	struct run r;

	run(&r, "ccs-convert -t speedscope tests/data/pgcl/synthetic-400.pgcl "
	    "> /dev/null");
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.err, "warning: speedscope: ") != NULL &&
	    strstr(r.err, "negative words left out") != NULL, "%s", r.err);
	run_free(&r);
}

/*
 * A file of ours whose keys were sorted (jq -S) has its cost centres
 * first and "ccstools-profile" far past the bytes probed: it is still
 * ours, not GHC's, whose cost centres name their modules by string.
 * Sorted compact and sorted indented, it reads as the file it was.
 */
Test(json, sorted_keys_still_ours)
{
	static const size_t flags[] = {
		JSON_SORT_KEYS | JSON_COMPACT, JSON_SORT_KEYS | JSON_INDENT(2),
	};
	char *orig = write_temp("", 0, ".json"), *sorted, *text;
	struct run r, want;
	json_error_t err;
	json_t *doc;
	size_t i;

	run(&r, "ccs-gen -q -t pgcl -n 3000 --seed 4 | ccs-convert -t json "
	    "-o %s", orig);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	run(&want, "ccs-flat --tsv %s", orig);
	cr_assert_eq(want.status, 0, "%s", want.err);
	cr_assert((doc = json_load_file(orig, 0, &err)) != NULL, "%s",
	    err.text);
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		cr_assert((text = json_dumps(doc, flags[i])) != NULL);
		cr_assert(strstr(text, "\"ccstools-profile\"") - text > 4096);
		sorted = write_temp(text, strlen(text), ".json");
		run(&r, "ccs-flat --tsv %s", sorted);
		cr_expect_eq(r.status, 0, "sorted %zu: %s", i, r.err);
		cr_expect_str_eq(r.out, want.out, "sorted %zu", i);
		run_free(&r);
		unlink(sorted);
		free(sorted);
		free(text);
	}
	json_decref(doc);
	run_free(&want);
	unlink(orig);
	free(orig);
}
