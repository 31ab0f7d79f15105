/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Every writer is safe for every name (issue 5).  One profile, built
 * through the library and written as a dump (the only format that holds
 * any byte in every field), has cost centres, modules and source
 * locations with quotes, backslashes, newlines, tabs, carriage returns,
 * ';', '<script>', ']]>', '-->', terminal escapes, format directives,
 * blanks and '#' at the ends, invalid UTF-8 and a 100 KB name.  It goes
 * through every writer and every tool: DOT still parses (dot(1)) and
 * renders to well-formed SVG; callgrind stays one record per line and
 * callgrind_annotate reads it; folded stays one stack per line and reads
 * back to the same stacks; JSON is valid and lossless; the HTML viewer
 * keeps them in its data island (tests/js/viewer-test.mjs shows them in
 * Chromium); TSV rows keep their field count; readable tables keep one
 * row per line and print no control character.
 */
#include <criterion/criterion.h>

#include <jansson.h>
#include <libxml/parser.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats_int.h"
#include "pdb.h"
#include "testutil.h"

static const char *const names[] = {
	"q\"uote'd", "back\\slash\\", "new\nline", "tab\there", "semi;colon",
	"<script>alert(1)</script>", "]]>", "-->", "<!--",
	"bad\xff\xfeutf8", "cut\xc3", "cr\rret", "\x1b[31mred", "%s%n%x",
	" ", "", "#hash", "a b c", "{\"hex\":\"41\"}", "&amp;&lt;",
	"x\"});alert(1);//", "(1) fn=(2)", "trailing ", "\t lead",
	"del\x7f", "c1\xc2\x9b", "caf\xc3\xa9 \xe2\x86\x92 \xe6\x97\xa5",
};
#define NNAMES		(sizeof(names) / sizeof(names[0]))
#define LONG_LEN	100000

static char	*long_name;
static char	*dump;		/* the profile, as a dump file */
static unsigned	 nstacks;	/* stacks with a non-zero cost */

/*
 * MAIN, then for every name: a child of the root with that name as
 * label, module and source, and below it a cost centre of module M with
 * that label and a GHC-like source location.
 */
static void
make_profile(void)
{
	struct pdb *db = pdb_new();
	uint32_t mod, cc, root, n, k, i;
	unsigned m;
	FILE *f;

	cr_assert(db != NULL);
	cr_assert((long_name = malloc(LONG_LEN + 1)) != NULL);
	memset(long_name, 'L', LONG_LEN);
	long_name[LONG_LEN] = '\0';
	long_name[LONG_LEN / 2] = '\n';
	cr_assert(pdb_metric_add(db, "ticks", "ticks", PDB_COST, 0, &m) == 0);
	cr_assert(pdb_metric_add(db, "entries", "calls", PDB_COUNT, 0, &m) ==
	    0);
	cr_assert(pdb_meta_set(db, "program", "prog\n<script>\"\xff") == 0);
	cr_assert(pdb_module_add(db, "MAIN", &mod) == 0);
	cr_assert(pdb_cc_add(db, "MAIN", mod, "<built-in>", 0, -1, &cc) == 0);
	cr_assert(pdb_root_new(db, cc, &root) == 0);
	nstacks = 0;
	for (i = 0; i <= NNAMES; i++) {
		const char *nm = i < NNAMES ? names[i] : long_name;
		int64_t v1[2] = { i + 1, 2 }, v2[2] = { 10 * (i + 1), 1 };

		cr_assert(pdb_module_add(db, nm, &mod) == 0);
		cr_assert(pdb_cc_add(db, nm, mod, nm, 0, i, &cc) == 0);
		cr_assert(pdb_node_append(db, root, cc, &n) == 0);
		pdb_node_add_values(db, n, v1);
		cr_assert(pdb_module_add(db, "M", &mod) == 0);
		cr_assert(pdb_cc_add(db, nm, mod, "F.hs:12:3-4", 0, 1000 + i,
		    &cc) == 0);
		cr_assert(pdb_node_append(db, n, cc, &k) == 0);
		pdb_node_add_values(db, k, v2);
		nstacks += 2;
	}
	dump = write_temp("", 0, ".dump");
	cr_assert((f = fopen(dump, "wb")) != NULL);
	cr_assert(pdb_write(db, f, &pdb_fmt_ccsdump, NULL) == PDB_OK, "%s",
	    pdb_errmsg(db));
	cr_assert(fclose(f) == 0);
	pdb_free(db);
}

static void
remove_profile(void)
{
	if (dump != NULL)
		unlink(dump);
	free(dump);
	free(long_name);
}

TestSuite(hostile, .init = make_profile, .fini = remove_profile);

/* Run a command on the profile (every "%s" is the dump); it must
 * succeed. */
static void
run_on(struct run *r, const char *fmt)
{
	char cmd[2048], *o = cmd;
	const char *p;

	for (p = fmt; *p != '\0';) {
		cr_assert(o + strlen(dump) + 2 < cmd + sizeof(cmd));
		if (p[0] == '%' && p[1] == 's') {
			o += sprintf(o, "%s", dump);
			p += 2;
		} else
			*o++ = *p++;
	}
	*o = '\0';
	run(r, "%s", cmd);
	cr_assert_eq(r->status, 0, "%s: exit %d: %.300s", fmt, r->status,
	    r->err);
}

static int
count_lines(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++)
		n += *s == '\n';
	return n;
}

/* No byte below 0x20 but newline (and tab when tabs), no DEL. */
static void
no_controls(const char *what, const char *s, size_t len, int tabs)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		cr_assert(!((c < 0x20 && c != '\n' && !(tabs && c == '\t')) ||
		    c == 0x7f), "%s: control character 0x%02x at byte %zu",
		    what, c, i);
	}
}

/* ---- the lossless formats ---- */

Test(hostile, dump_and_json_round_trip_byte_for_byte)
{
	struct run r;
	json_error_t err;
	json_t *j;

	run_on(&r, "ccs-convert -t json %s");
	cr_assert((j = json_loads(r.out, 0, &err)) != NULL,
	    "not JSON: %d:%d: %s", err.line, err.column, err.text);
	cr_expect_eq(json_array_size(json_object_get(j, "cost_centres")),
	    2 * (NNAMES + 1) + 1);
	json_decref(j);
	run_free(&r);
	run_on(&r, "ccs-convert -t json %s | ccs-convert -t dump -F | "
	    "cmp - %s");
	run_free(&r);
	run_on(&r, "ccs-convert -t speedscope %s");
	cr_assert((j = json_loads(r.out, 0, &err)) != NULL,
	    "speedscope is not JSON: %d:%d: %s", err.line, err.column,
	    err.text);
	json_decref(j);
	run_free(&r);
}

Test(hostile, folded_one_line_per_stack_and_back)
{
	struct run r;
	const char *p;

	run_on(&r, "ccs-convert -t folded %s");
	cr_expect_eq(count_lines(r.out), (int)nstacks, "%d lines, want %u",
	    count_lines(r.out), nstacks);
	for (p = r.out; *p != '\0'; p = strchr(p, '\n') + 1) {
		const char *nl = strchr(p, '\n'), *sp = nl;

		while (sp > p && sp[-1] >= '0' && sp[-1] <= '9')
			sp--;
		cr_assert(sp < nl && sp > p && sp[-1] == ' ',
		    "a line without its count: %.80s", p);
	}
	run_free(&r);
	/* The stacks read back are the stacks written. */
	run_on(&r, "ccs-stacks %s > %s.a && ccs-convert -t folded %s | "
	    "ccs-stacks > %s.b && cmp %s.a %s.b; s=$?; "
	    "rm -f %s.a %s.b; exit $s");
	run_free(&r);
	run_on(&r, "ccs-stacks -m ticks %s > %s.c && ccs-convert -t pgcl %s "
	    "2>/dev/null | ccs-stacks -m ticks | cmp - %s.c; s=$?; "
	    "rm -f %s.c; exit $s");
	run_free(&r);
}

/* ---- callgrind ---- */

Test(hostile, callgrind_one_record_a_line)
{
	static const char *const keys[] = { "version:", "creator:", "cmd:",
	    "desc:", "positions:", "events:", "event:", "summary:", "totals:",
	    "fl=",
	    "fi=", "fe=", "fn=", "cfi=", "cfl=", "cfn=", "calls=", "ob=",
	    "cob=", "#", NULL };
	struct run r;
	const char *p;
	int fns = 0, k;

	run_on(&r, "ccs2callgrind %s");
	for (p = r.out; *p != '\0'; p = strchr(p, '\n') + 1) {
		cr_assert(strchr(p, '\n') != NULL);
		if (*p == '\n' || (*p >= '0' && *p <= '9') || *p == '-' ||
		    *p == '+')
			continue;
		for (k = 0; keys[k] != NULL; k++)
			if (strncmp(p, keys[k], strlen(keys[k])) == 0)
				break;
		cr_assert(keys[k] != NULL, "not a callgrind line: %.80s", p);
		/* A function is named where it first appears. */
		fns += (strncmp(p, "fn=(", 4) == 0 ||
		    strncmp(p, "cfn=(", 5) == 0) && strchr(p, ' ') != NULL &&
		    strchr(p, ' ') < strchr(p, '\n');
	}
	cr_expect_eq(fns, 2 * (NNAMES + 1) + 1, "%d functions named", fns);
	run_free(&r);
	run_on(&r, "ccs2callgrind -o %s.cg %s && callgrind_annotate %s.cg; "
	    "s=$?; rm -f %s.cg; exit $s");
	cr_expect(strstr(r.err, "WARNING") == NULL &&
	    strstr(r.err, "malformed") == NULL, "%.300s", r.err);
	cr_expect(strstr(r.out, "PROGRAM TOTALS") != NULL ||
	    strstr(r.out, "Ir") != NULL || strstr(r.out, "ticks") != NULL,
	    "%.300s", r.out);
	run_free(&r);
}

/* ---- DOT and SVG ---- */

static void
well_formed(const char *what, const char *xml, size_t len)
{
	xmlDocPtr doc = xmlReadMemory(xml, (int)len, "x.svg", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);

	cr_assert(doc != NULL, "%s: not well-formed XML", what);
	xmlFreeDoc(doc);
}

Test(hostile, dot_parses_and_shows_the_names, .timeout = 120)
{
	static const char *const forms[] = { "", "--tree" };
	struct run r;
	char cmd[512];
	size_t i;

	for (i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "ccs2dot %s --nodecount 0 "
		    "--node-thres 0 --edge-thres 0 %%s | dot -Tsvg", forms[i]);
		/* run_on() fills in %s: cmd holds "%s" for the dump. */
		run_on(&r, cmd);
		cr_expect_str_empty(r.err, "%s: %.300s", cmd, r.err);
		well_formed(cmd, r.out, r.outlen);
		cr_expect(strstr(r.out, "&lt;script&gt;alert(1)&lt;/script&gt;") !=
		    NULL, "%s: <script> not shown", cmd);
		cr_expect(strstr(r.out, "semi;colon") != NULL, "%s", cmd);
		cr_expect(strstr(r.out, "]]&gt;") != NULL, "%s", cmd);
		cr_expect(strstr(r.out, "q&quot;uote&#39;d") != NULL ||
		    strstr(r.out, "q\"uote'd") != NULL, "%s", cmd);
		cr_expect(strstr(r.out, "caf\xc3\xa9 \xe2\x86\x92") != NULL,
		    "%s: UTF-8 not kept", cmd);
		run_free(&r);
	}
	run_on(&r, "ccs2dot -T svg --nodecount 0 %s");
	well_formed("ccs2dot -T svg", r.out, r.outlen);
	run_free(&r);
}

/* ---- HTML ---- */

Test(hostile, html_keeps_names_in_the_data_island)
{
	struct run r;
	const char *p;
	int scripts = 0;

	run_on(&r, "ccs2html %s");
	for (p = r.out; (p = strstr(p, "<script")) != NULL; p++)
		scripts++;
	cr_expect_eq(scripts, 3, "%d <script> elements: the data's head, "
	    "its one chunk and the viewer", scripts);
	cr_expect(strstr(r.out, "<!--") == NULL);
	cr_expect(strstr(r.out, "alert(1)</script>") == NULL);
	cr_expect(strstr(r.out, "\\u003cscript>alert(1)\\u003c/script>") !=
	    NULL);
	cr_expect(strstr(r.out, "\"caf\xc3\xa9 \xe2\x86\x92 \xe6\x97\xa5\"") !=
	    NULL, "UTF-8 names must stay UTF-8");
	run_free(&r);
}

/* ---- TSV and tables ---- */

/*
 * Every line of a TSV output has the header's number of tabs; with rows
 * < 0, each kind of record (its first field) a number of its own, as in
 * ccs-hot's stack, arm and top records.
 */
static void
tsv_ok(const char *cmd, int rows)
{
	struct run r;
	const char *p, *nl;
	int tabs = -1, t, lines = 0, kind[3] = { -1, -1, -1 };

	run_on(&r, cmd);
	cr_expect_str_empty(r.err, "%s: %.200s", cmd, r.err);
	no_controls(cmd, r.out, r.outlen, 1);
	for (p = r.out; *p != '\0'; p = nl + 1) {
		const char *line = p;

		nl = strchr(p, '\n');
		cr_assert(nl != NULL);
		for (t = 0; p < nl; p++)
			t += *p == '\t';
		if (rows < 0) {
			int k = strncmp(line, "stack\t", 6) == 0 ? 0 :
			    strncmp(line, "arm\t", 4) == 0 ? 1 : 2;

			cr_assert(k < 2 || strncmp(line, "top\t", 4) == 0,
			    "%s: line %d: %.60s", cmd, lines + 1, line);
			tabs = kind[k] < 0 ? (kind[k] = t) : kind[k];
		} else if (tabs < 0)
			tabs = t;
		cr_assert_eq(t, tabs, "%s: line %d has %d tabs, not %d", cmd,
		    lines + 1, t, tabs);
		lines++;
	}
	if (rows >= 0)
		cr_expect_eq(lines, rows + 1, "%s: %d rows, want %d", cmd,
		    lines - 1, rows);
	run_free(&r);
}

Test(hostile, tsv_rows_keep_their_fields)
{
	/* Every cost centre of the profile, and its 2 x 29 + 1 stacks. */
	tsv_ok("ccs-flat --tsv %s", 2 * (NNAMES + 1) + 1);
	tsv_ok("ccs-tree --tsv %s", 2 * (NNAMES + 1) + 1);
	tsv_ok("ccs-hot --tsv -n 100 %s", -1);
	tsv_ok("ccs-callers --tsv 'M.semi;colon' %s", 3);
}

/* A readable report: no control characters, no tabs, rows lines. */
static void
table_ok(const char *cmd, int lines)
{
	struct run r;

	run_on(&r, cmd);
	cr_expect_str_empty(r.err, "%s: %.200s", cmd, r.err);
	no_controls(cmd, r.out, r.outlen, 0);
	if (lines >= 0)
		cr_expect_eq(count_lines(r.out), lines, "%s: %d lines, want %d",
		    cmd, count_lines(r.out), lines);
	run_free(&r);
}

Test(hostile, readable_tables_one_row_a_line)
{
	/* program, metric, blank, heading, then one row each. */
	table_ok("ccs-flat %s", 4 + 2 * (NNAMES + 1) + 1);
	/* program, total, blank, two heading lines, then the stacks. */
	table_ok("ccs-tree %s", -1);
	table_ok("ccs-hot -n 100 %s", -1);
	table_ok("ccs-callers 'M.semi;colon' %s", -1);
}

/* ---- every other tool ---- */

Test(hostile, every_tool_runs, .timeout = 120)
{
	static const char *const cmds[] = {
		"ccs-select -d 'M.*' %s | ccs-flat --tsv",
		"ccs-select -s '*;*' %s | ccs-stacks",
		"ccs-prune --min ticks=5 --exclude '<script>*' %s | ccs-stacks",
		"ccs-convert --compress -t json %s",
		"ccs-stacks --sort %s",
		"ccs2callgrind --context 2 %s",
		"ccs2dot --focus 'semi;colon' --hot %s",
		"ccs2html -d 'M.*' %s",
	};
	struct run r;
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		run_on(&r, cmds[i]);
		cr_expect_str_empty(r.err, "%s: %.200s", cmds[i], r.err);
		run_free(&r);
	}
}
