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
	cr_assert_eq(count(doc, "//script[@type='application/json']"), 1);
	cr_assert_eq(count(doc, "//script"), 2, "the data and the viewer");
	cr_assert_eq(count(doc, "//*[@src] | //link | //iframe"), 0,
	    "nothing loaded from elsewhere");
	cr_assert_eq(count(doc, "//meta[@http-equiv='Content-Security-Policy']"), 1);
	xmlFreeDoc(doc);
	/* The profile is in the data island. */
	cr_assert(strstr(r.out, "\"program\":\"mj\"") != NULL);
	run_free(&r);
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
	    o->nodesetval->nodeNr == 1);
	text = (char *)xmlNodeGetContent(o->nodesetval->nodeTab[0]);
	data = json_loads(text, 0, &err);
	cr_assert(data != NULL, "%s", err.text);
	cr_expect_str_eq(json_string_value(json_object_get(data, "program")),
	    "<ccs-profile-data/>");
	cr_expect(strstr(text, "[\"\\u003cccs-profile-data/>\",\"Main\"") !=
	    NULL, "%.300s", text);
	cr_expect_eq(json_array_size(json_object_get(data, "cc")),
	    json_array_size(json_object_get(data, "kids")));
	cr_expect_gt(json_array_size(json_object_get(data, "cc")), 5);
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
