/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs2html: the document (parsed back with libxml2: self-contained, one
 * data island, nothing that can break out of it) and the viewer in
 * headless Chromium (tests/js/viewer-test.mjs, with playwright-core).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>

#include "testutil.h"

Test(ccs2html, help_version_usage_missing)
{
	struct run r, r2;

	run(&r, "ccs2html --help");
	run(&r2, "ccs2html -h");
	cr_assert_eq(r.status, 0);
	cr_assert(strncmp(r.out, "usage: ccs2html ", 16) == 0, "%s", r.out);
	cr_assert_str_eq(r.out, r2.out);
	cr_assert_str_eq(r.err, "");
	run_free(&r);
	run_free(&r2);
	run(&r, "ccs2html --version");
	cr_assert_eq(r.status, 0);
	cr_assert_str_eq(r.out, "ccs2html (ccstools) 0.1.0\n");
	run_free(&r);
	run(&r, "ccs2html --no-such-option x");
	cr_assert_eq(r.status, 2);
	cr_assert(strstr(r.err, "usage: ccs2html ") != NULL, "%s", r.err);
	run_free(&r);
	run(&r, "ccs2html nosuch");
	cr_assert_eq(r.status, 1);
	cr_assert_str_eq(r.err, "ccs2html: nosuch: No such file or directory\n");
	run_free(&r);
}

static xmlXPathObjectPtr
xpath(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr o = xmlXPathEvalExpression(BAD_CAST expr, ctx);

	xmlXPathFreeContext(ctx);
	return o;
}

static int
count(xmlDocPtr doc, const char *expr)
{
	xmlXPathObjectPtr o = xpath(doc, expr);
	int n = o && o->nodesetval ? o->nodesetval->nodeNr : 0;

	xmlXPathFreeObject(o);
	return n;
}

Test(ccs2html, self_contained_document)
{
	struct run r;
	xmlDocPtr doc;

	run(&r, "ccs2html tests/data/ghc/mj.P.prof");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strncmp(r.out, "<!DOCTYPE html>", 15) == 0);
	doc = htmlReadMemory(r.out, (int)r.outlen, "mj.html", "utf-8",
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	cr_assert(doc != NULL);
	cr_assert_eq(count(doc, "//script[@type='application/json' and "
	    "@id='profile-data']"), 1);
	cr_assert_eq(count(doc, "//script[@type='application/json' and "
	    "@class='profile-chunk']"), 1, "a small profile is one chunk");
	cr_assert_eq(count(doc, "//script"), 3,
	    "the data, its one chunk and the viewer");
	cr_assert_eq(count(doc, "//*[@src] | //link | //iframe"), 0,
	    "nothing loaded from elsewhere");
	cr_assert_eq(count(doc, "//meta[@http-equiv='Content-Security-Policy']"), 1);
	xmlFreeDoc(doc);
	/* The profile is in the data island. */
	cr_assert(strstr(r.out, "\"program\":\"mj\"") != NULL);
	run_free(&r);
}

/*
 * A page is named after the program, else after its input file, so that
 * pages open side by side can be told apart; from a pipe, "profile".
 */
Test(ccs2html, page_named_after_program_or_file)
{
	static const struct {
		const char *cmd, *title;
	} t[] = {
		{ "ccs2html tests/data/ghc/mj.P.prof", "mj" },
		{ "ccs2html tests/data/pgcl/synthetic-400.pgcl",
		    "synthetic-400.pgcl" },
		{ "ccs2html - < tests/data/pgcl/synthetic-400.pgcl", "profile" },
	};
	char want[256];
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		run(&r, "%s", t[i].cmd);
		cr_assert_eq(r.status, 0, "%s: %s", t[i].cmd, r.err);
		snprintf(want, sizeof(want), "<title>%s \xe2\x80\x94 ccstools "
		    "profile</title>", t[i].title);
		cr_expect(strstr(r.out, want) != NULL, "%s: no %s", t[i].cmd,
		    want);
		run_free(&r);
	}
}

Test(ccs2html, names_cannot_leave_the_data_island)
{
	static const char folded[] =
	    "main;</script><script>alert(1)</script> 1\n"
	    "main;<!--x 2\n"
	    "main;\xff\xfe 3\n";
	struct run r;
	char *in = write_temp(folded, sizeof(folded) - 1, ".folded");

	run(&r, "ccs2html %s", in);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "alert(1)") != NULL);
	cr_assert(strstr(r.out, "</script><script>alert") == NULL);
	cr_assert(strstr(r.out, "<!--x") == NULL);
	cr_assert(strstr(r.out, "\\u003c/script>") != NULL);
	run_free(&r);
	unlink(in);
	free(in);
}

/*
 * The page is made with a mark where the data goes, and written with the
 * data instead.  A program and a cost centre named as the mark change
 * nothing: the data island is one, whole, and holds them.
 */
Test(ccs2html, names_like_the_data_mark)
{
	char *dir = make_temp_dir(), *text;
	struct run r;
	xmlDocPtr doc;
	xmlXPathObjectPtr o;
	json_t *data;
	json_error_t err;
	json_int_t nodes;

	run(&r, "ccs-convert -t json tests/data/ghc/mj.P.prof | sed "
	    "'s|\"program\":\"mj\"|\"program\":\"<ccs-profile-data/>\"|; "
	    "s|\"label\":\"rev\"|\"label\":\"<ccs-profile-data/>\"|' "
	    "> %s/p.json && ccs2html %s/p.json", dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	doc = htmlReadMemory(r.out, (int)r.outlen, "p.html", "utf-8",
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	cr_assert(doc != NULL);
	o = xpath(doc, "//script[@type='application/json']");
	cr_assert(o != NULL && o->nodesetval != NULL &&
	    o->nodesetval->nodeNr == 2, "the head and one chunk");
	text = (char *)xmlNodeGetContent(o->nodesetval->nodeTab[0]);
	data = json_loads(text, 0, &err);
	cr_assert(data != NULL, "%s", err.text);
	cr_expect_str_eq(json_string_value(json_object_get(data, "program")),
	    "<ccs-profile-data/>");
	cr_expect(strstr(text, "[\"\\u003cccs-profile-data/>\",\"Main\"") !=
	    NULL, "%.300s", text);
	nodes = json_integer_value(json_object_get(data, "nodes"));
	json_decref(data);
	xmlFree(text);
	text = (char *)xmlNodeGetContent(o->nodesetval->nodeTab[1]);
	data = json_loads(text, 0, &err);
	cr_assert(data != NULL, "%s", err.text);
	cr_expect_eq(json_array_size(json_object_get(data, "cc")),
	    json_array_size(json_object_get(data, "kids")));
	cr_expect_eq(json_array_size(json_object_get(data, "cc")),
	    (size_t)nodes);
	cr_expect_gt(nodes, 5);
	json_decref(data);
	xmlFree(text);
	xmlXPathFreeObject(o);
	cr_expect_eq(count(doc, "//title"), 1);
	xmlFreeDoc(doc);
	cr_expect(strstr(r.out, "<title>&lt;ccs-profile-data/&gt;") != NULL);
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

/* Selection and pruning options act as ccs-select and ccs-prune do. */
Test(ccs2html, selection_and_pruning_options)
{
	char *dir = make_temp_dir();
	struct run r;

	run(&r, "ccs2html -d rev --min-ticks 2 tests/data/ghc/mj.P.prof > "
	    "%s/a && ccs-select -d rev tests/data/ghc/mj.P.prof | "
	    "ccs-prune --min-ticks 2 | ccs2html > %s/b && "
	    "cmp %s/a %s/b && ! cmp -s %s/a tests/data/ghc/mj.P.prof",
	    dir, dir, dir, dir, dir);
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	run_free(&r);
	remove_temp(dir);
	free(dir);
	run(&r, "ccs2html tests/data/ghc/mj.P.prof | "
	    "grep -c '<script type=\"application/json\" id=\"profile-data\">'");
	cr_assert_str_eq(r.out, "1\n");
	run_free(&r);
}

/*
 * The nodes of a page, read back from its chunks: how many there are,
 * and the total of the first metric.
 */
static void
page_nodes(xmlDocPtr doc, json_int_t *nodes, json_int_t *chunks,
    json_int_t *total, char **note)
{
	xmlXPathObjectPtr o = xpath(doc, "//script[@type='application/json']");
	json_t *data, *v;
	json_error_t err;
	xmlChar *cls;
	char *text;
	int i;
	size_t k;

	cr_assert(o != NULL && o->nodesetval != NULL &&
	    o->nodesetval->nodeNr >= 1);
	*chunks = *total = 0;
	*note = NULL;
	for (i = 0; i < o->nodesetval->nodeNr; i++) {
		text = (char *)xmlNodeGetContent(o->nodesetval->nodeTab[i]);
		data = json_loads(text, 0, &err);
		cr_assert(data != NULL, "element %d: %s", i, err.text);
		if (i == 0) {
			*nodes = json_integer_value(json_object_get(data,
			    "nodes"));
			if ((v = json_object_get(data, "note")) != NULL)
				*note = strdup(json_string_value(v));
		} else {
			cls = xmlGetProp(o->nodesetval->nodeTab[i],
			    BAD_CAST "class");
			cr_assert_str_eq((char *)cls, "profile-chunk");
			xmlFree(cls);
			*chunks += (json_int_t)json_array_size(
			    json_object_get(data, "cc"));
			cr_assert_eq(json_array_size(json_object_get(data,
			    "kids")), json_array_size(json_object_get(data,
			    "cc")));
			v = json_array_get(json_object_get(data, "values"), 0);
			cr_assert_eq(json_array_size(v), json_array_size(
			    json_object_get(data, "cc")));
			for (k = 0; k < json_array_size(v); k++)
				*total += json_integer_value(json_array_get(v,
				    k));
		}
		json_decref(data);
		xmlFree(text);
	}
	xmlXPathFreeObject(o);
}

/* The page written to dir/name, parsed. */
static xmlDocPtr
read_page(const char *dir, const char *name)
{
	xmlDocPtr doc;
	char *path, *page;
	size_t len;

	cr_assert(asprintf(&path, "%s/%s", dir, name) > 0);
	page = slurp(path, &len);
	cr_assert(page != NULL, "%s", path);
	doc = htmlReadMemory(page, (int)len, name, "utf-8",
	    HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
	cr_assert(doc != NULL, "%s", path);
	free(page);
	free(path);
	return doc;
}

/*
 * A browser caps the text of one script element, so the nodes go in
 * chunks (of at most 262144 nodes): every node is in one, in order; and
 * --max-stacks prunes, and says so on stderr and on the page.
 */
Test(ccs2html, chunks_and_max_stacks, .timeout = 120)
{
	char *dir = make_temp_dir(), *note;
	struct run r;
	xmlDocPtr doc;
	json_int_t nodes, inchunks, total;
	unsigned long stacks, ticks;

	run(&r, "ccs-gen -q -t dump --size 6M --seed 3 -o %s/g.dump && "
	    "ccs-stacks --all %s/g.dump | wc -l && ccs-flat %s/g.dump | "
	    "sed -n 's/^metric: *ticks (ticks), total //p' && "
	    "ccs2html %s/g.dump -o %s/g.html", dir, dir, dir, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(sscanf(r.out, "%lu %lu", &stacks, &ticks), 2, "%s",
	    r.out);
	cr_assert_str_empty(r.err, "nothing pruned by default");
	run_free(&r);
	cr_assert_gt(stacks, 2 * 262144, "enough for three chunks");
	doc = read_page(dir, "g.html");
	cr_expect_eq(count(doc, "//script[@class='profile-chunk']"), 3);
	page_nodes(doc, &nodes, &inchunks, &total, &note);
	cr_expect_eq(nodes, (json_int_t)stacks);
	cr_expect_eq(inchunks, nodes);
	cr_expect_eq(total, (json_int_t)ticks);
	cr_expect_null(note);
	xmlFreeDoc(doc);

	run(&r, "ccs2html --max-stacks 1000 -q %s/g.dump -o %s/m.html && "
	    "ccs-prune --max-stacks 1000 %s/g.dump | ccs-stacks --all | wc -l",
	    dir, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(sscanf(r.out, "%lu", &stacks), 1);
	cr_expect_leq(stacks, 1000);
	cr_expect(strncmp(r.err, "ccs2html: ", 10) == 0 && strstr(r.err,
	    " stacks kept; those whose inclusive ticks are below ") != NULL,
	    "%s", r.err);
	doc = read_page(dir, "m.html");
	page_nodes(doc, &nodes, &inchunks, &total, &note);
	cr_expect_eq(nodes, (json_int_t)stacks);
	cr_expect_eq(inchunks, nodes);
	cr_expect_eq(total, (json_int_t)ticks, "pruning folds, never loses");
	cr_assert_not_null(note);
	cr_expect(strstr(r.err, note) != NULL, "the page says what stderr "
	    "does: %s", note);
	free(note);
	xmlFreeDoc(doc);
	run_free(&r);
	remove_temp(dir);
	free(dir);
}

/*
 * By default a page keeps at most ten million stacks.  Here 10,020,001:
 * the root, 10,000 callers and 10,010,000 leaves of distinct costs 1 to
 * 10,010,000, so that the least cut keeping ten million keeps exactly
 * that many (the leaves below 20,002 go), and any other default would
 * keep another number.  "--max-stacks 0" keeps every stack.
 */
#define WIDE_PROFILE "awk 'BEGIN { for (i = 0; i < 10000; i++) " \
	"for (j = 0; j <= 1000; j++) print \"a\" i \";b\" j, ++n }'"

Test(ccs2html, ten_million_stacks_by_default, .timeout = 600)
{
	struct run r;

	run(&r, WIDE_PROFILE " | ccs2html -q -o /dev/null");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_eq(r.err, "ccs2html: <stdin>: 10000000 of 10020001 "
	    "stacks kept; those whose inclusive samples are below 20002 are "
	    "pruned, as ccs-prune does (--max-stacks)\n");
	run_free(&r);

	run(&r, WIDE_PROFILE " | ccs2html -q --max-stacks 0 -o /dev/null");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_str_empty(r.err, "--max-stacks 0 keeps every stack");
	run_free(&r);
}

/*
 * The chunks' edge: 262,144 nodes (the reader's root and 262,143 frames)
 * are one chunk, one more node two, the second holding it alone.
 */
Test(ccs2html, chunk_edge, .timeout = 60)
{
	char *dir = make_temp_dir(), *note;
	struct run r;
	xmlDocPtr doc;
	json_int_t nodes, inchunks, total;
	int k;

	for (k = 0; k < 2; k++) {
		run(&r, "awk 'BEGIN { for (i = 1; i <= %d; i++) print \"f\" i, "
		    "1 }' | ccs2html -o %s/e.html", 262143 + k, dir);
		cr_assert_eq(r.status, 0, "%s", r.err);
		run_free(&r);
		doc = read_page(dir, "e.html");
		cr_expect_eq(count(doc, "//script[@class='profile-chunk']"),
		    1 + k);
		page_nodes(doc, &nodes, &inchunks, &total, &note);
		cr_expect_eq(nodes, 262144 + k);
		cr_expect_eq(inchunks, nodes);
		cr_expect_eq(total, 262143 + k);
		cr_expect_null(note);
		xmlFreeDoc(doc);
	}
	remove_temp(dir);
	free(dir);
}

/*
 * The page's names are written a cost centre at a time, not held in a
 * Jansson array of them all (some 1 KB each): 200,000 cost centres make
 * a page in 96 MB of address space, where they took 192 MB.  The last
 * one is in the page's data.
 */
Test(ccs2html, many_cost_centres_in_bounded_memory, .timeout = 120)
{
	struct run r;

#if defined(__SANITIZE_ADDRESS__)
	cr_skip_test("address space limits do not mix with the sanitizers");
#endif
	run_in_temp(&r, "awk 'BEGIN { for (i = 0; i < 200000; i++) "
	    "print \"main;f\" i, 1 }' | ccs-convert -t dump -o $T/a.dump && "
	    "(ulimit -v 98304 && ccs2html -o $T/a.html $T/a.dump) && "
	    "grep -o '\\[\"f199999\",\"\",\"\",0\\]' $T/a.html");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "[\"f199999\",\"\",\"\",0]\n");
	run_free(&r);
}

/* The viewer in Chromium: see tests/js/viewer-test.mjs for each check. */
Test(ccs2html, viewer_in_chromium, .timeout = 180)
{
	struct run r;
	const char *bin = getenv("CCS_BIN");
	char *dir = make_temp_dir();

	run(&r, "node tests/js/viewer-test.mjs '%s' %s", bin ? bin : "build/bin",
	    dir);
	cr_assert_eq(r.status, 0, "viewer checks failed:\n%s%s", r.out, r.err);
	cr_assert(strstr(r.out, "all passed") != NULL, "%s", r.out);
	cr_assert(strstr(r.out, "not ok") == NULL, "%s", r.out);
	run_free(&r);
	run(&r, "test -s %s/mj.png", dir);
	cr_assert_eq(r.status, 0, "the screenshot was taken");
	run_free(&r);
	remove_temp(dir);
	free(dir);
}
