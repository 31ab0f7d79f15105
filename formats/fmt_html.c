/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The interactive HTML viewer: one self-contained HTML5 file.  The
 * document is built with libxml2's tree API, the profile is embedded as
 * compact JSON (Jansson) in a <script type="application/json"> element,
 * and the viewer script and style (formats/html/, compiled in) do the
 * rest in the browser: the stack tree, the flat/inherited table,
 * selection, thresholds, search, hot paths, callers and a flame graph.
 *
 * The embedded JSON is columnar, so a million nodes stay compact.  The
 * element whose id is profile-data holds
 *
 *   { "program", "command", "date", "metric" (the one shown first),
 *     "name": the page's name (pdb_html_opts), if no program names it,
 *     "metrics": [ { "name", "unit", "kind", "approximate",
 *                    "compensated" } ],
 *     "ccs": [ [label, module, src, flags], ... ],
 *     "note": what was done to the profile (pdb_html_opts), if anything,
 *     "nodes": the number of nodes }
 *
 * and the elements of class profile-chunk after it the nodes, in
 * pre-order, a run of them each:
 *
 *   { "cc": [ cc of each node ],
 *     "kids": [ child count of each node ],
 *     "values": [ [ own value of each node ], ... one array per metric ] }
 *
 * Safety: names only ever reach the page as JSON strings and are shown
 * with textContent.  Every '<' in the JSON is written as \u003c, so no
 * name can end the script element or open a comment in it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "dynlib.h"
#include "fmt_html.h"
#include "formats_int.h"
#include "jsonlib.h"

/* Generated from formats/html/viewer.js and viewer.css by the Makefile. */
extern const unsigned char pdbi_viewer_js[];
extern const unsigned char pdbi_viewer_css[];

/*
 * Copy src to dst (cap bytes, cap >= 4) as valid UTF-8: a byte that
 * starts no valid sequence, and with controls set a control character,
 * becomes U+FFFD, and a long src is cut at a character boundary.
 */
static void
utf8_copy(char *dst, size_t cap, const char *src, int controls)
{
	const unsigned char *p = (const unsigned char *)src;
	const unsigned char *end = p + strlen(src);
	size_t o = 0, n;
	uint32_t c = 0;

	while (*p != '\0') {
		n = pdb_utf8_seq(p, (size_t)(end - p), &c);
		if (n == 0 || (controls && (c < 0x20 || c == 0x7f))) {
			if (o + 4 > cap)
				break;
			memcpy(dst + o, "\xef\xbf\xbd", 3);
			o += 3;
			p += n ? n : 1;
			continue;
		}
		if (o + n + 1 > cap)
			break;
		memcpy(dst + o, p, n);
		o += n;
		p += n;
	}
	dst[o] = '\0';
}

/* A JSON string of the bytes of s, a character each (U+0000 to U+00FF). */
static json_t *
jbytes(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;
	json_t *j;
	char *t;

	if ((t = malloc(strlen(s) * 2 + 1)) == NULL)
		return NULL;
	for (; *p != '\0'; p++)
		if (*p < 0x80)
			t[n++] = (char)*p;
		else {
			t[n++] = (char)(0xc0 | *p >> 6);
			t[n++] = (char)(0x80 | (*p & 0x3f));
		}
	t[n] = '\0';
	j = json_string(t);
	free(t);
	return j;
}

/* A JSON string for s; names that are not UTF-8 get U+FFFD for bad bytes. */
static json_t *
jstr(const char *s)
{
	size_t cap = strlen(s) * 3 + 1;
	json_t *j;
	char *fixed;

	if ((j = json_string(s)) != NULL)
		return j;
	if ((fixed = malloc(cap)) == NULL)
		return NULL;
	utf8_copy(fixed, cap, s, 0);
	j = json_string(fixed);
	free(fixed);
	return j;
}

/*
 * The data but its cost centres, whose array is left empty (put_ccs()),
 * and its columns of numbers (cc, kids, values), which are most of it,
 * with metric shown first; NULL when out of memory.
 */
static json_t *
build_head(struct pdb *db, int metric, const struct pdb_html_opts *ho)
{
	json_t *doc, *metrics;
	unsigned m, nm = pdb_metric_count(db);
	const char *k;

	/*
	 * Each part is made as it goes into the document, so that one
	 * json_decref() frees everything whatever failed (pdb_json_put()).
	 */
	if ((doc = json_object()) == NULL)
		return NULL;
	if (pdb_json_put(doc, "program", jstr((k = pdb_meta_get(db,
	    "program")) ? k : "")) == NULL ||
	    pdb_json_put(doc, "command", jstr((k = pdb_meta_get(db,
	    "command")) ? k : "")) == NULL ||
	    pdb_json_put(doc, "date", jstr((k = pdb_meta_get(db,
	    "date")) ? k : "")) == NULL ||
	    pdb_json_put(doc, "metric", json_integer(metric)) == NULL ||
	    (metrics = pdb_json_put(doc, "metrics", json_array())) == NULL ||
	    pdb_json_put(doc, "ccs", json_array()) == NULL)
		goto fail;
	for (m = 0; m < nm; m++) {
		const struct pdb_metric *mt = pdb_metric(db, m);

		/* The pgcl reader takes the overhead from ticks alone. */
		if (json_array_append_new(metrics, json_pack("{s:o,s:o,s:s,s:b,"
		    "s:b}", "name", jstr(mt->name), "unit", jstr(mt->unit),
		    "kind", mt->kind == PDB_COUNT ? "count" : "cost",
		    "approximate", (mt->flags & PDB_METRIC_APPROX) != 0,
		    "compensated", pdb_ticks_compensated(db, m))))
			goto fail;
	}
	if (ho != NULL && ho->note != NULL &&
	    pdb_json_put(doc, "note", jstr(ho->note)) == NULL)
		goto fail;
	/* Only where no program names the page, so that the page of a
	 * profile read from a pipe is the same. */
	k = pdb_meta_get(db, "program");
	if ((k == NULL || *k == '\0') && ho != NULL && ho->name != NULL &&
	    pdb_json_put(doc, "name", jstr(ho->name)) == NULL)
		goto fail;
	return doc;
fail:
	json_decref(doc);
	return NULL;
}

/* Write what t holds to out and empty it; 0, or -1 when t failed. */
static int
flush_text(struct pdb_text *t, FILE *out)
{
	if (t->err)
		return -1;
	fwrite(t->p, 1, t->len, out);
	t->len = 0;
	return 0;
}

/*
 * A column of a number for each of count nodes, in pre-order from node
 * *n, which it leaves at the node after them: col -2 the cost centres,
 * -1 the child counts, else the values of metric col; through t to out.
 */
static int
put_column(struct pdb_text *t, FILE *out, const struct pdb *db, int col,
    uint32_t *n, uint32_t count)
{
	uint32_t i, at = *n;
	int64_t x;

	pdb_text_add(t, "[", 1);
	for (i = 0; i < count && at != PDB_NONE; i++) {
		x = col == -2 ? (int64_t)pdb_node_cc(db, at) : col == -1 ?
		    (int64_t)pdb_node_child_count(db, at) :
		    pdb_node_value(db, at, (unsigned)col);
		if (t->len > 60000 && flush_text(t, out) != 0)
			return -1;
		if (!pdb_text_room(t, 22))
			return -1;
		if (i > 0)
			t->p[t->len++] = ',';
		t->len = (size_t)(pdb_put_decimal(t->p + t->len, x) - t->p);
		at = pdb_walk_next(db, at, NULL);
	}
	*n = at;
	return pdb_text_add(t, "]", 1);
}

/* The script element of each chunk, up to its first column. */
#define CHUNK_OPEN	"</script>\n<script type=\"application/json\" " \
			"class=\"profile-chunk\">{\"cc\":"
/* At most this many nodes a chunk, to keep each JSON.parse() small. */
#define CHUNK_MAX	(1u << 18)

/*
 * The nodes of a chunk: a browser holds the text of a script element as
 * one string, which V8 caps at 2^29 - 24 characters, so the columns go
 * in chunks, each its own element, of at most some 128 MB of numbers
 * (a number takes up to 21 characters and its comma).
 */
static uint32_t
chunk_nodes(unsigned nm)
{
	uint64_t n = ((uint64_t)128 << 20) / (2 * 12 + 22 * (uint64_t)nm);

	return n > CHUNK_MAX ? CHUNK_MAX : n < 1 ? 1 : (uint32_t)n;
}

/* Add the n bytes at s to t, every '<' escaped. */
static void
add_escaped(struct pdb_text *t, const char *s, size_t n)
{
	const char *lt;

	while (n > 0 && (lt = memchr(s, '<', n)) != NULL) {
		pdb_text_add(t, s, (size_t)(lt - s));
		pdb_text_add(t, "\\u003c", 6);
		n -= (size_t)(lt - s) + 1;
		s = lt + 1;
	}
	pdb_text_add(t, s, n);
}

/*
 * The cost centres, comma-separated, each as Jansson wrote it in the
 * whole document, added to t, which goes out as it fills: a Jansson
 * array of them all took some 1 KB a cost centre.  Returns 0, or -1
 * when out of memory.
 */
static int
put_ccs(struct pdb_text *t, FILE *out, struct pdb *db)
{
	struct pdb_text one = { NULL, 0, 0, 0 };
	struct pdb_cc c;
	json_t *a;
	uint32_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < pdb_cc_count(db); i++) {
		pdb_cc(db, i, &c);
		/* A name not UTF-8 is shown with U+FFFD, and its bytes go
		 * along for the page's globs, which match bytes. */
		a = pdb_utf8_string(c.label) && pdb_utf8_string(c.module) ?
		    json_pack("[o,o,o,i]", jstr(c.label), jstr(c.module),
		    jstr(c.src), (int)c.flags) : json_pack("[o,o,o,i,o,o]",
		    jstr(c.label), jstr(c.module), jstr(c.src), (int)c.flags,
		    jbytes(c.label), jbytes(c.module));
		one.len = 0;
		if (a == NULL || pdb_json_text(a, JSON_COMPACT, &one) != 0)
			rc = -1;
		json_decref(a);
		if (rc == 0) {
			if (i > 0)
				pdb_text_add(t, ",", 1);
			add_escaped(t, one.p, one.len);
			if (t->len >= ((size_t)1 << 20))
				rc = flush_text(t, out);
		}
	}
	free(one.p);
	return rc;
}

/*
 * The JSON text, with every '<' escaped, written to out: the head, then
 * the columns of numbers in chunks, each closing the script element
 * before it and opening its own (the page's closes the last).  The names
 * go through Jansson; the columns, which Jansson would hold at some 40
 * bytes a number, are written as the tree is walked.  Returns 0, or -1
 * when out of memory.
 */
static int
put_data(struct pdb *db, FILE *out, int metric,
    const struct pdb_html_opts *ho)
{
	json_t *doc;
	struct pdb_text head = { NULL, 0, 0, 0 }, t = { NULL, 0, 0, 0 };
	unsigned m, nm = pdb_metric_count(db);
	uint32_t start, n, per = chunk_nodes(nm);
	const char *ccs;
	size_t cut;
	int dumped, rc = -1;

	if ((doc = build_head(db, metric, ho)) == NULL)
		return -1;
	/* Every node is in the walk, as the dump and pgcl writers count. */
	dumped = pdb_json_put(doc, "nodes", json_integer((json_int_t)
	    pdb_node_count(db))) != NULL && pdb_json_text(doc, JSON_COMPACT |
	    JSON_PRESERVE_ORDER, &head) == 0;
	json_decref(doc);
	if (!dumped || head.len < 1) {
		free(head.p);
		return -1;
	}
	/*
	 * The cost centres go into their empty array.  A '"' in a string
	 * is written '\\"', so the key and its '[' are found where they are.
	 */
	if ((ccs = strstr(head.p, ",\"ccs\":[]")) == NULL) {
		free(head.p);
		return -1;
	}
	cut = (size_t)(ccs - head.p) + strlen(",\"ccs\":[");
	add_escaped(&t, head.p, cut);
	dumped = put_ccs(&t, out, db) == 0;
	add_escaped(&t, head.p + cut, head.len - cut);
	free(head.p);
	if (!dumped)
		goto out;
	for (start = pdb_walk_first(db, NULL); start != PDB_NONE;
	    start = n) {
		pdb_text_add(&t, CHUNK_OPEN, strlen(CHUNK_OPEN));
		n = start;
		if (put_column(&t, out, db, -2, &n, per) != 0)
			goto out;
		pdb_text_add(&t, ",\"kids\":", 8);
		n = start;
		if (put_column(&t, out, db, -1, &n, per) != 0)
			goto out;
		pdb_text_add(&t, ",\"values\":[", 11);
		for (m = 0; m < nm; m++) {
			if (m > 0)
				pdb_text_add(&t, ",", 1);
			n = start;
			if (put_column(&t, out, db, (int)m, &n, per) != 0)
				goto out;
		}
		pdb_text_add(&t, "]}", 2);
	}
	rc = flush_text(&t, out);
out:
	free(t.p);
	return rc;
}

/*
 * The data's place in the page: the page is made with this in the data's
 * <script> and written with the data instead, so that the data, most of
 * the page, is never held.  A '<' in text outside a script is written as
 * "&lt;", so a name that holds the mark never makes a second one.
 */
#define DATA_MARK	"<ccs-profile-data/>"

/* The first DATA_MARK, which begins with a '<', in p[0..len), or NULL
 * (memmem() is not POSIX). */
static const char *
find_mark(const char *p, size_t len)
{
	size_t n = strlen(DATA_MARK);
	const char *end = p + len, *q;

	for (; (q = memchr(p, '<', (size_t)(end - p))) != NULL; p = q + 1)
		if ((size_t)(end - q) >= n && memcmp(q, DATA_MARK, n) == 0)
			return q;
	return NULL;
}

static xmlNodePtr
child(xmlNodePtr parent, const char *name, const char *text)
{
	return pdbi_sym_xmlNewTextChild(parent, NULL, BAD_CAST name,
	    BAD_CAST text);
}

static int
html_write(struct pdb *db, FILE *out, const struct pdb_opts *opts)
{
	xmlDocPtr doc;
	xmlNodePtr html, head, body, n, script;
	const char *prog = pdb_meta_get(db, "program");
	const struct pdb_html_opts *ho = opts != NULL ? opts->writer_opts :
	    NULL;
	xmlOutputBufferPtr ob;
	const char *mem, *mark;
	char title[256];
	size_t len, at;
	int rc = PDB_OK, metric;

	/* The metric shown first: -m's, else the tools' default. */
	if (opts == NULL || opts->metric == NULL)
		metric = (int)pdb_metric_default(db);
	else if ((metric = pdb_metric_find(db, opts->metric)) < 0)
		return pdb_seterr(db, PDB_EINVAL, "no metric '%s' in this "
		    "profile", opts->metric);
	if ((rc = pdb_load_libxml2(db)) != PDB_OK)
		return rc;
	if ((doc = pdbi_sym_htmlNewDocNoDtD(NULL, NULL)) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	pdbi_sym_xmlCreateIntSubset(doc, BAD_CAST "html", NULL, NULL);
	html = pdbi_sym_xmlNewNode(NULL, BAD_CAST "html");
	pdbi_sym_xmlDocSetRootElement(doc, html);
	pdbi_sym_xmlNewProp(html, BAD_CAST "lang", BAD_CAST "en");
	head = pdbi_sym_xmlNewChild(html, NULL, BAD_CAST "head", NULL);
	n = pdbi_sym_xmlNewChild(head, NULL, BAD_CAST "meta", NULL);
	pdbi_sym_xmlNewProp(n, BAD_CAST "charset", BAD_CAST "utf-8");
	n = pdbi_sym_xmlNewChild(head, NULL, BAD_CAST "meta", NULL);
	pdbi_sym_xmlNewProp(n, BAD_CAST "name", BAD_CAST "viewport");
	pdbi_sym_xmlNewProp(n, BAD_CAST "content",
	    BAD_CAST "width=device-width, initial-scale=1");
	/* No network: the page may load nothing from anywhere. */
	n = pdbi_sym_xmlNewChild(head, NULL, BAD_CAST "meta", NULL);
	pdbi_sym_xmlNewProp(n, BAD_CAST "http-equiv",
	    BAD_CAST "Content-Security-Policy");
	pdbi_sym_xmlNewProp(n, BAD_CAST "content",
	    BAD_CAST "default-src 'none'; script-src 'unsafe-inline'; "
	    "style-src 'unsafe-inline'; img-src data:");
	/* libxml2 writes the title as it is: no control characters. */
	utf8_copy(title, sizeof(title) - 32, prog && *prog ? prog :
	    ho != NULL && ho->name != NULL && *ho->name ? ho->name :
	    "profile", 1);
	snprintf(title + strlen(title), 32, " — ccstools profile");
	child(head, "title", title);
	child(head, "style", (const char *)pdbi_viewer_css);
	body = pdbi_sym_xmlNewChild(html, NULL, BAD_CAST "body", NULL);
	child(body, "noscript", "This viewer needs JavaScript.");
	n = pdbi_sym_xmlNewChild(body, NULL, BAD_CAST "div", NULL);
	pdbi_sym_xmlNewProp(n, BAD_CAST "id", BAD_CAST "app");
	script = child(body, "script", DATA_MARK);
	pdbi_sym_xmlNewProp(script, BAD_CAST "type",
	    BAD_CAST "application/json");
	pdbi_sym_xmlNewProp(script, BAD_CAST "id", BAD_CAST "profile-data");
	child(body, "script", (const char *)pdbi_viewer_js);
	/*
	 * Serialise as UTF-8, the page's charset, with no encoder: the
	 * default, "HTML", writes every non-ASCII character as an entity,
	 * which a <script> element does not decode ("café" would reach the
	 * viewer as "caf&eacute;").  In memory, then written with stdio:
	 * libxml2 would print its own "I/O error" on stderr when the output
	 * fails, and lose errno.
	 */
	if ((ob = pdbi_sym_xmlAllocOutputBuffer(NULL)) == NULL) {
		pdbi_sym_xmlFreeDoc(doc);
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	}
	pdbi_sym_htmlDocContentDumpFormatOutput(ob, doc, "UTF-8", 1);
	pdbi_sym_xmlOutputBufferFlush(ob);
	pdbi_sym_xmlFreeDoc(doc);
	mem = (const char *)pdbi_sym_xmlOutputBufferGetContent(ob);
	len = pdbi_sym_xmlOutputBufferGetSize(ob);
	if (ob->error || mem == NULL) {
		pdbi_sym_xmlOutputBufferClose(ob);
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	}
	/* The page around the data, the data in the mark's place. */
	mark = find_mark(mem, len);
	if (mark == NULL || find_mark(mark + 1, len - (size_t)(mark - mem) -
	    1) != NULL) {
		pdbi_sym_xmlOutputBufferClose(ob);
		return pdb_seterr(db, PDB_EINVAL, "the viewer's page has no "
		    "single place for the profile");
	}
	at = (size_t)(mark - mem);
	fwrite(mem, 1, at, out);
	if (put_data(db, out, metric, ho) != 0)
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
	else {
		at += strlen(DATA_MARK);
		fwrite(mem + at, 1, len - at, out);
		if (ferror(out))
			rc = pdb_seterr(db, PDB_EIO, "%s", strerror(errno));
	}
	pdbi_sym_xmlOutputBufferClose(ob);
	return rc;
}

const struct pdb_format pdb_fmt_html = {
	.abi = PDB_FORMAT_ABI,
	.name = "html",
	.desc = "self-contained interactive HTML viewer",
	.exts = ".html,.htm",
	.flags = PDB_FMT_WRITE,
	.build = PDB_BUILD_RAW,
	.write = html_write,
	.ready = pdb_load_libxml2,
};
