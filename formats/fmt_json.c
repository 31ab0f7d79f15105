/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccstools JSON: the whole profile in a documented schema (ccs-formats(5)),
 * read back losslessly.
 *
 *   { "format": "ccstools-profile", "version": 1,
 *     "metadata": { key: value, ... },
 *     "metrics": [ { "name", "unit", "kind": "cost"|"count",
 *                    "approximate": bool }, ... ],
 *     "modules": [ name, ... ],
 *     "cost_centres": [ { "label", "module": index, "src",
 *                         "caf": bool, "synthetic": bool, "id": int }, ... ],
 *     "nodes": [ [cc, nchildren, value...], ... ] }
 *
 * Nodes are listed in pre-order with their child counts, so the tree is
 * flat and no reader has to recurse.  JSON strings must be UTF-8: a name
 * that is not is written as { "hex": "..." } instead of a string.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <yajl/yajl_parse.h>

#include "formats_int.h"
#include "jsonlib.h"
#include "yajlguard.h"

#define JSON_FORMAT_NAME	"ccstools-profile"

/* Whether needle occurs in the first len bytes of head. */
static int
contains(const unsigned char *head, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(head + i, needle, n) == 0)
			return 1;
	return 0;
}

static int
is_json_space(unsigned char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/*
 * Whether a "module" key in the first len bytes of head has a number
 * for its value: a cost centre of ours, which names its module by
 * index, where GHC's name theirs.  A string cannot hold the bytes
 * "module" with its quotes unescaped, so only a key matches.
 */
static int
module_by_index(const unsigned char *head, size_t len)
{
	static const char key[] = "\"module\"";
	size_t n = sizeof(key) - 1, i, j;

	for (i = 0; i + n <= len; i++) {
		if (memcmp(head + i, key, n) != 0)
			continue;
		for (j = i + n; j < len && is_json_space(head[j]); j++)
			;
		if (j == len || head[j] != ':')
			continue;
		for (j++; j < len && is_json_space(head[j]); j++)
			;
		if (j < len && head[j] >= '0' && head[j] <= '9')
			return 1;
	}
	return 0;
}

/*
 * Ours: an object that says "ccstools-profile", which the writer puts
 * first, or, when its keys were sorted (jq -S) and "cost_centres" comes
 * before that, whose cost centres name modules by index.
 */
static int
json_probe(const unsigned char *head, size_t len)
{
	size_t i = 0;

	while (i < len && is_json_space(head[i]))
		i++;
	if (i == len || head[i] != '{')
		return 0;
	if (contains(head, len, "\"" JSON_FORMAT_NAME "\"") ||
	    module_by_index(head, len))
		return 100;
	return 0;
}

/* ---- writing ---- */

/* A JSON value for string s: a string, or {"hex": ...} if not UTF-8. */
static json_t *
jstr(const char *s)
{
	static const char digits[] = "0123456789abcdef";
	size_t n, i;
	json_t *o;
	char *hex;

	n = strlen(s);
	if (pdb_utf8_valid((const unsigned char *)s, n) == n)
		return json_string(s);
	if ((hex = malloc(2 * n + 1)) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		hex[2 * i] = digits[(unsigned char)s[i] >> 4];
		hex[2 * i + 1] = digits[(unsigned char)s[i] & 15];
	}
	hex[2 * n] = '\0';
	o = json_pack("{s:s}", "hex", hex);
	free(hex);
	return o;
}

/*
 * The document but its cost centres and nodes, which come last; NULL
 * when out of memory.  Cost centres and nodes are most of the file:
 * they are written one at a time (put_ccs(), put_nodes()), where a
 * Jansson tree of them would take some 1 KB a cost centre and 40 bytes
 * a number.
 */
static json_t *
build(struct pdb *db)
{
	json_t *doc, *meta, *metrics, *modules;
	unsigned m, nm = pdb_metric_count(db);
	const char *k, *v;
	uint32_t i;
	size_t j;
	int bad = 0;

	/*
	 * Each part is made as it goes into the document, so that one
	 * json_decref() frees everything whatever failed (pdb_json_put()).
	 */
	if ((doc = json_object()) == NULL)
		return NULL;
	if (pdb_json_put(doc, "format", json_string(JSON_FORMAT_NAME)) ==
	    NULL || pdb_json_put(doc, "version", json_integer(1)) == NULL ||
	    (meta = pdb_json_put(doc, "metadata", json_object())) == NULL ||
	    (metrics = pdb_json_put(doc, "metrics", json_array())) == NULL ||
	    (modules = pdb_json_put(doc, "modules", json_array())) == NULL ||
	    pdb_json_put(doc, "cost_centres", json_array()) == NULL) {
		json_decref(doc);
		return NULL;
	}
	for (j = 0; !bad && j < pdb_meta_count(db); j++) {
		pdb_meta_at(db, j, &k, &v);
		/* Keys are UTF-8: json_write() checked. */
		bad |= json_object_set_new(meta, k, jstr(v)) != 0;
	}
	for (m = 0; !bad && m < nm; m++) {
		const struct pdb_metric *mt = pdb_metric(db, m);

		bad |= json_array_append_new(metrics, json_pack(
		    "{s:o,s:o,s:s,s:b}", "name", jstr(mt->name), "unit",
		    jstr(mt->unit), "kind", mt->kind == PDB_COUNT ? "count" :
		    "cost", "approximate", (mt->flags & PDB_METRIC_APPROX) != 0))
		    != 0;
	}
	for (i = 0; !bad && i < pdb_module_count(db); i++)
		bad |= json_array_append_new(modules,
		    jstr(pdb_module_name(db, i))) != 0;
	if (bad) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/*
 * The cost centres, comma-separated, each as Jansson wrote it in the
 * whole document (JSON_COMPACT | JSON_PRESERVE_ORDER).  Returns 0,
 * PDB_ENOMEM or PDB_EIO.
 */
static int
put_ccs(FILE *out, struct pdb *db)
{
	struct pdb_text t = { NULL, 0, 0, 0 };
	struct pdb_cc cc;
	json_t *o;
	uint32_t i;
	int rc = 0;

	for (i = 0; rc == 0 && i < pdb_cc_count(db); i++) {
		pdb_cc(db, i, &cc);
		t.len = 0;
		if ((i > 0 && pdb_text_add(&t, ",", 1) != 0) ||
		    (o = json_pack("{s:o,s:I,s:o,s:b,s:b,s:I}", "label",
		    jstr(cc.label), "module", (json_int_t)cc.module_index,
		    "src", jstr(cc.src), "caf", (cc.flags & PDB_CC_CAF) != 0,
		    "synthetic", (cc.flags & PDB_CC_SYNTHETIC) != 0, "id",
		    (json_int_t)cc.profile_id)) == NULL)
			rc = PDB_ENOMEM;
		else {
			if (pdb_json_text(o, JSON_COMPACT |
			    JSON_PRESERVE_ORDER, &t) != 0)
				rc = PDB_ENOMEM;
			json_decref(o);
		}
		if (rc == 0 && fwrite(t.p, 1, t.len, out) != t.len)
			rc = PDB_EIO;
	}
	free(t.p);
	return rc;
}

/* The nodes in pre-order, ",[cc,children,value,...]" each (no comma
 * first): as Jansson wrote them.  Returns 0 or PDB_EIO. */
static int
put_nodes(FILE *out, struct pdb *db)
{
	unsigned m, nm = pdb_metric_count(db);
	char line[64 + 24 * 64], *p;
	const int64_t *vals;
	uint32_t n;
	int first = 1;

	for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL)) {
		vals = pdb_node_values(db, n);
		p = line;
		if (!first)
			*p++ = ',';
		first = 0;
		*p++ = '[';
		p = pdb_put_decimal(p, pdb_node_cc(db, n));
		*p++ = ',';
		p = pdb_put_decimal(p, pdb_node_child_count(db, n));
		for (m = 0; m < nm; m++) {
			*p++ = ',';
			p = pdb_put_decimal(p, vals[m]);
			/* A row longer than the line goes out in parts. */
			if ((size_t)(p - line) > sizeof(line) - 32) {
				if (fwrite(line, 1, (size_t)(p - line), out) !=
				    (size_t)(p - line))
					return PDB_EIO;
				p = line;
			}
		}
		*p++ = ']';
		if (fwrite(line, 1, (size_t)(p - line), out) !=
		    (size_t)(p - line))
			return PDB_EIO;
	}
	return 0;
}

static int
json_write(struct pdb *db, FILE *out, const struct pdb_opts *opts)
{
	struct pdb_text head = { NULL, 0, 0, 0 };
	const char *k, *v;
	json_t *doc;
	size_t len, i;
	int rc;

	(void)opts;
	/* A key names a member: it cannot be {"hex"} as a value can. */
	for (i = 0; i < pdb_meta_count(db); i++) {
		pdb_meta_at(db, i, &k, &v);
		if (!pdb_utf8_string(k))
			return pdb_seterr(db, PDB_EINVAL, "metadata key %zu is "
			    "not UTF-8, which JSON cannot hold", i + 1);
	}
	if ((doc = build(db)) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	rc = pdb_json_text(doc, JSON_COMPACT | JSON_PRESERVE_ORDER, &head);
	json_decref(doc);
	if (rc != 0) {
		free(head.p);
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	}
	/*
	 * The document without the "]}" that close its empty cost centres,
	 * then the cost centres and the nodes.
	 */
	len = head.len;
	rc = len < 3 || fwrite(head.p, 1, len - 2, out) != len - 2 ?
	    PDB_EIO : put_ccs(out, db);
	if (rc == 0 && (fputs("],\"nodes\":[", out) < 0 ||
	    put_nodes(out, db) != 0 || fputs("]}\n", out) < 0))
		rc = PDB_EIO;
	free(head.p);
	if (rc == PDB_ENOMEM)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	if (rc != 0 || ferror(out))
		return pdb_seterr(db, PDB_EIO, "write error");
	return PDB_OK;
}

/* ---- reading ---- */

/* The value of hex digit c, or -1. */
static int
hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The string value of j (a string or {"hex"}), malloc'd, or NULL with
 * errno ENOMEM when out of memory and EINVAL when j is no such string.
 */
static char *
unjstr(const json_t *j)
{
	const char *h;
	size_t n, i;
	char *s;

	if (json_is_string(j)) {
		if (memchr(json_string_value(j), '\0',
		    json_string_length(j)) != NULL)
			goto bad;
		return strdup(json_string_value(j));
	}
	if (!json_is_object(j) || (h = json_string_value(json_object_get(j,
	    "hex"))) == NULL || (n = strlen(h)) % 2 != 0)
		goto bad;
	if ((s = malloc(n / 2 + 1)) == NULL)
		return NULL;
	for (i = 0; i < n / 2; i++) {
		int hi = hex_digit(h[2 * i]), lo = hex_digit(h[2 * i + 1]);

		if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
			free(s);
			goto bad;
		}
		s[i] = (char)(hi << 4 | lo);
	}
	s[n / 2] = '\0';
	return s;
bad:
	errno = EINVAL;
	return NULL;
}

static int
bad(struct pdb *db, struct pdb_input *in, const char *what)
{
	return pdb_seterr(db, PDB_EFORMAT, "%s: %s", in->name, what);
}

/* The error after unjstr() or a check on its result failed. */
static int
bad_str(struct pdb *db, struct pdb_input *in, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (errno == ENOMEM)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return bad(db, in, what);
}

/*
 * Files from this size up have their nodes, most of the file, read
 * with yajl as they come, where Jansson would hold some 40 bytes a
 * number: the rest of the document is small and still goes through
 * Jansson.  Below it, Jansson reads the whole document, as before.
 */
#define JSON_STREAM_MIN	((size_t)32 << 10)

/* The nodes as they are read, in pre-order with their child counts. */
struct nodes {
	struct pdb_input	*in;
	struct pdb		*db;
	const struct pdb_sink	*sink;
	size_t			 nm;		/* metrics: values a node */
	size_t			 i;		/* nodes taken */
	uint32_t		*left;		/* children to come, a level */
	size_t			 depth, cap;
	int64_t			*vals;		/* node i's, nm of them */
};

static int
row_error(struct nodes *n)
{
	return pdb_seterr(n->db, PDB_EFORMAT,
	    "%s: nodes[%zu]: expected [cc, children, %zu values]",
	    n->in->name, n->i, n->nm);
}

/*
 * Node n->i: cost centre c, with kids children of which at most bound
 * may follow, and the values in n->vals.
 */
static int
node_add(struct nodes *n, json_int_t c, json_int_t kids, uint64_t bound)
{
	int rc;

	if (c < 0 || c >= pdb_cc_count(n->db) || kids < 0 ||
	    (uint64_t)kids > bound)
		return pdb_seterr(n->db, PDB_EFORMAT, "%s: nodes[%zu]: cost "
		    "centre or child count out of range", n->in->name, n->i);
	if (n->i > 0 && n->depth == 0)
		return pdb_seterr(n->db, PDB_EFORMAT,
		    "%s: nodes[%zu]: more than one root", n->in->name, n->i);
	if ((rc = n->sink->enter(n->sink->arg, n->db, (uint32_t)c,
	    n->vals)) != 0)
		return rc;
	if (n->depth > 0)
		n->left[n->depth - 1]--;
	if (pdb_buf_reserve(&n->left, &n->cap, (n->depth + 1) *
	    sizeof(*n->left)))
		return pdb_seterr(n->db, PDB_ENOMEM, "out of memory");
	n->left[n->depth++] = (uint32_t)kids;
	while (n->depth > 0 && n->left[n->depth - 1] == 0) {
		if ((rc = n->sink->exit(n->sink->arg, n->db)) != 0)
			return rc;
		n->depth--;
	}
	n->i++;
	return 0;
}

/* The nodes of a document Jansson read whole. */
static int
nodes_of_doc(struct nodes *n, json_t *j)
{
	size_t count = json_array_size(j), i, m;
	json_t *v, *x;
	int rc;

	if (!json_is_array(j) || count == 0)
		return pdb_seterr(n->db, PDB_EFORMAT, "%s: no nodes",
		    n->in->name);
	json_array_foreach(j, i, v) {
		if (!json_is_array(v) || json_array_size(v) != n->nm + 2 ||
		    !json_is_integer(json_array_get(v, 0)) ||
		    !json_is_integer(json_array_get(v, 1)))
			return row_error(n);
		for (m = 0; m < n->nm; m++) {
			x = json_array_get(v, m + 2);
			if (!json_is_integer(x))
				return pdb_seterr(n->db, PDB_EFORMAT,
				    "%s: nodes[%zu]: value %zu is not an "
				    "integer", n->in->name, i, m);
			n->vals[m] = json_integer_value(x);
		}
		if ((rc = node_add(n, json_integer_value(json_array_get(v, 0)),
		    json_integer_value(json_array_get(v, 1)), count - i - 1)) !=
		    0)
			return rc;
	}
	return 0;
}

/* ---- the nodes through yajl ---- */

/*
 * A node is judged when its array ends, as nodes_of_doc() judges it:
 * the number of fields first, then the cost centre and child count,
 * then the values, so that both readers give the same error.
 */
struct stream {
	struct nodes	*n;
	int		 level;		/* 1 in the nodes' array, 2 in a node,
					   more inside one of its fields */
	size_t		 k;		/* the node's fields so far */
	size_t		 bad;		/* its first field that is no integer,
					   or SIZE_MAX */
	int64_t		 c, kids;
	int		 rc;		/* the error, when a callback stopped */
	int		 closed;	/* the nodes' array has ended */
};

/* A field of the node: the integer v, or (integer 0) anything else. */
static int
s_field(struct stream *s, int integer, int64_t v)
{
	size_t k;

	if (s->level < 2) {
		s->rc = row_error(s->n);	/* a node that is no array */
		return 0;
	}
	if (s->level > 2)
		return 1;			/* inside a field */
	k = s->k++;
	if (!integer) {
		if (s->bad == SIZE_MAX)
			s->bad = k;
	} else if (k == 0)
		s->c = v;
	else if (k == 1)
		s->kids = v;
	else if (k - 2 < s->n->nm)
		s->n->vals[k - 2] = v;
	return 1;
}

static int
s_other(void *arg)
{
	return s_field(arg, 0, 0);
}

static int
s_boolean(void *arg, int b)
{
	(void)b;
	return s_field(arg, 0, 0);
}

static int
s_string(void *arg, const unsigned char *str, size_t len)
{
	(void)str;
	(void)len;
	return s_field(arg, 0, 0);
}

/* Numbers as Jansson takes them: an integer down to -2^63. */
static int
s_number(void *arg, const char *text, size_t len)
{
	struct stream *s = arg;
	int64_t v;

	switch (pdb_json_integer(text, len, &v)) {
	case 1:
		return s_field(s, 1, v);
	case 0:
		return s_field(s, 0, 0);
	}
	s->rc = pdb_seterr(s->n->db, PDB_EFORMAT, "%s: nodes[%zu]: integer "
	    "out of range", s->n->in->name, s->n->i);
	return 0;
}

/* An array or object inside a node is a field that is no integer. */
static int
s_start(void *arg)
{
	struct stream *s = arg;

	if (!s_field(s, 0, 0))
		return 0;
	s->level++;
	return 1;
}

static int
s_map_key(void *arg, const unsigned char *key, size_t len)
{
	(void)arg;
	(void)key;
	(void)len;
	return 1;	/* inside a field */
}

static int
s_start_array(void *arg)
{
	struct stream *s = arg;

	if (s->level >= 2)
		return s_start(s);
	if (s->level++ == 1) {		/* a node */
		s->k = 0;
		s->bad = SIZE_MAX;
	}
	return 1;
}

static int
s_end(void *arg)
{
	struct stream *s = arg;
	struct nodes *n = s->n;

	if (s->level-- != 2) {
		s->closed = s->level == 0;
		return 1;
	}
	if (s->k != n->nm + 2 || s->bad < 2)
		s->rc = row_error(n);
	else if (s->bad != SIZE_MAX)
		s->rc = pdb_seterr(n->db, PDB_EFORMAT, "%s: nodes[%zu]: value "
		    "%zu is not an integer", n->in->name, n->i, s->bad - 2);
	else
		s->rc = node_add(n, s->c, s->kids, UINT32_MAX);
	return s->rc == 0;
}

static const yajl_callbacks stream_callbacks = {
	s_other, s_boolean, NULL, NULL, s_number, s_string,
	s_start, s_map_key, s_end, s_start_array, s_end
};

/* yajl on the nodes' array, given a piece at a time. */
struct feed {
	struct stream	 s;
	struct pdb_yajl	 y;
};

static int
feed_open(struct feed *f, struct nodes *n)
{
	memset(&f->s, 0, sizeof(f->s));
	f->s.n = n;
	if (pdb_yajl_open(&f->y, &stream_callbacks, &f->s) != 0)
		return pdb_seterr(n->db, PDB_ENOMEM, "out of memory");
	/* Read as it comes, what follows the nodes is the document's. */
	yajl_config(f->y.h, yajl_allow_trailing_garbage, 1);
	return 0;
}

/* What went wrong in yajl's last call, on text[0, len) at byte off. */
static int
feed_error(struct feed *f, yajl_status st, const unsigned char *text,
    size_t len, uint64_t off)
{
	struct nodes *n = f->s.n;
	char why[160];

	if (f->s.rc != 0)
		return f->s.rc;
	if (f->y.nomem)
		return pdb_seterr(n->db, PDB_ENOMEM, "out of memory");
	if (st == yajl_status_ok)
		return 0;
	pdb_yajl_message(&f->y, text, len, why, sizeof(why));
	if (f->y.nomem)
		return pdb_seterr(n->db, PDB_ENOMEM, "out of memory");
	return pdb_seterr(n->db, PDB_EFORMAT, "%s: byte %" PRIu64 ": nodes: %s",
	    n->in->name, off + yajl_get_bytes_consumed(f->y.h), why);
}

/* The next piece of the nodes' array, text[0, len), at byte off. */
static int
feed(struct feed *f, const unsigned char *text, size_t len, uint64_t off)
{
	size_t at;

	/* yajl would take them for white space (pdb_json_ff_or_vt()). */
	if ((at = pdb_json_ff_or_vt(text, len)) < len)
		return pdb_seterr(f->s.n->db, PDB_EFORMAT, "%s: byte %" PRIu64
		    ": nodes: invalid token (form feed or vertical tab)",
		    f->s.n->in->name, off + at);
	return feed_error(f, pdb_yajl_parse(&f->y, text, len), text, len,
	    off);
}

/* The end of the nodes, at text, byte off. */
static int
feed_end(struct feed *f, const unsigned char *text, uint64_t off)
{
	int rc;

	if ((rc = feed_error(f, pdb_yajl_complete(&f->y), text, 0, off)) != 0)
		return rc;
	if (f->s.n->i == 0)
		return pdb_seterr(f->s.n->db, PDB_EFORMAT, "%s: no nodes",
		    f->s.n->in->name);
	return 0;
}

static void
feed_close(struct feed *f)
{
	pdb_yajl_close(&f->y);
}

/* The nodes' array, text[0, len), at byte off of the file. */
static int
nodes_of_text(struct nodes *n, const unsigned char *text, size_t len,
    size_t off)
{
	struct feed f;
	int rc;

	if ((rc = feed_open(&f, n)) == 0 &&
	    (rc = feed(&f, text, len, off)) == 0)
		rc = feed_end(&f, text + len, off + len);
	feed_close(&f);
	return rc;
}

/*
 * Where the value of the top-level key "nodes" is in the document
 * d[0, len): [*start, *end).  Returns 0 unless it is found once, as an
 * array; Jansson then reads the document whole and says what is wrong.
 */
static int
find_nodes(const char *d, size_t len, size_t *start, size_t *end)
{
	size_t i, k0 = 0, found = 0;
	int depth = 0, key_next = 0, in_nodes = 0;

	for (i = 0; i < len; i++) {
		switch (d[i]) {
		case '"':
			k0 = ++i;
			for (; i < len && d[i] != '"'; i++)
				if (d[i] == '\\')
					i++;
			if (i >= len)
				return 0;
			if (depth == 1 && key_next) {
				key_next = 0;
				if (i - k0 == 5 && memcmp(d + k0, "nodes", 5) ==
				    0) {
					for (i++; i < len && (d[i] == ' ' ||
					    d[i] == '\t' || d[i] == '\n' ||
					    d[i] == '\r' || d[i] == ':'); i++)
						;
					if (i >= len || d[i] != '[' || found++)
						return 0;
					*start = i;
					in_nodes = 1;
					depth++;
				}
			}
			break;
		case '{':
		case '[':
			if (++depth == 1)
				key_next = d[i] == '{';
			break;
		case '}':
		case ']':
			if (--depth == 1 && in_nodes) {
				*end = i + 1;
				in_nodes = 0;
			}
			break;
		case ',':
			if (depth == 1)
				key_next = 1;
			break;
		}
	}
	return found == 1 && !in_nodes && depth == 0;
}

/* The cost centres of array j, the first k of it skipped, numbered from
 * first. */
static int
ccs_of_array(struct pdb_input *in, struct pdb *db, json_t *j, size_t k,
    size_t first)
{
	char *s1 = NULL, *s2 = NULL;
	uint32_t cc;
	size_t i;
	int rc = PDB_OK;

	for (i = k; i < json_array_size(j); i++) {
		json_t *v = json_array_get(j, i);
		json_t *jm = json_object_get(v, "module");
		json_int_t id = json_integer_value(json_object_get(v, "id"));

		s1 = unjstr(json_object_get(v, "label"));
		s2 = unjstr(json_object_get(v, "src"));
		if (s1 == NULL || s2 == NULL || !json_is_integer(jm) ||
		    json_integer_value(jm) < 0 ||
		    json_integer_value(jm) >= pdb_module_count(db)) {
			rc = bad_str(db, in, "cost_centres[%zu]: bad cost centre",
			    first + i - k);
			goto out;
		}
		if ((rc = pdb_cc_add(db, s1, (uint32_t)json_integer_value(jm),
		    s2, (json_is_true(json_object_get(v, "caf")) ? PDB_CC_CAF :
		    0) | (json_is_true(json_object_get(v, "synthetic")) ?
		    PDB_CC_SYNTHETIC : 0), id, &cc)) != PDB_OK)
			goto out;
		free(s1);
		free(s2);
		s1 = s2 = NULL;
	}
out:
	free(s1);
	free(s2);
	return rc;
}

/* The version and the tables of doc, into db. */
static int
tables_of_doc(struct pdb_input *in, struct pdb *db, json_t *doc)
{
	json_t *j, *v;
	const char *key;
	char *s1 = NULL, *s2 = NULL;
	uint32_t mod;
	size_t i;
	int rc = PDB_OK;

	if (!json_is_object(doc) || json_integer_value(json_object_get(doc,
	    "version")) != 1)
		return bad(db, in, "not a version 1 ccstools JSON profile");
	json_object_foreach(json_object_get(doc, "metadata"), key, v) {
		if ((s1 = unjstr(v)) == NULL) {
			rc = bad_str(db, in, "metadata '%s': bad value", key);
			goto out;
		}
		if ((rc = pdb_meta_set(db, key, s1)) != PDB_OK)
			goto out;
		free(s1);
		s1 = NULL;
	}
	j = json_object_get(doc, "metrics");
	json_array_foreach(j, i, v) {
		const char *kind = json_string_value(json_object_get(v, "kind"));

		s1 = unjstr(json_object_get(v, "name"));
		s2 = unjstr(json_object_get(v, "unit"));
		if (s1 == NULL || s2 == NULL || kind == NULL ||
		    (strcmp(kind, "cost") != 0 && strcmp(kind, "count") != 0)) {
			rc = bad_str(db, in, "metrics[%zu]: bad metric", i);
			goto out;
		}
		if ((rc = pdb_metric_add(db, s1, s2, strcmp(kind, "count") == 0 ?
		    PDB_COUNT : PDB_COST, json_is_true(json_object_get(v,
		    "approximate")) ? PDB_METRIC_APPROX : 0, NULL)) != PDB_OK)
			goto out;
		free(s1);
		free(s2);
		s1 = s2 = NULL;
	}
	json_array_foreach(json_object_get(doc, "modules"), i, v) {
		if ((s1 = unjstr(v)) == NULL) {
			rc = bad_str(db, in, "modules[%zu]: bad name", i);
			goto out;
		}
		if ((rc = pdb_module_add(db, s1, &mod)) != PDB_OK)
			goto out;
		free(s1);
		s1 = NULL;
	}
	rc = ccs_of_array(in, db, json_object_get(doc, "cost_centres"), 0,
	    0);
out:
	free(s1);
	free(s2);
	return rc;
}

/* After the tables: the sink begins, and n is ready for the nodes. */
static int
nodes_begin(struct nodes *n)
{
	int rc;

	if (n->sink->begin && (rc = n->sink->begin(n->sink->arg, n->db)) != 0)
		return rc;
	n->nm = pdb_metric_count(n->db);
	if ((n->vals = calloc(n->nm + 1, sizeof(*n->vals))) == NULL)
		return pdb_seterr(n->db, PDB_ENOMEM, "out of memory");
	return 0;
}

/* After the last node: the tree must be whole. */
static int
nodes_done(struct nodes *n)
{
	if (n->depth != 0)
		return pdb_seterr(n->db, PDB_EFORMAT, "%s: nodes[%zu] is "
		    "missing: the tree ends early (child counts exceed the "
		    "nodes listed)", n->in->name, n->i);
	return 0;
}

/*
 * The whole document in memory: small files, and documents whose tables
 * do not all come before the nodes, which read_streamed() leaves.
 */
static int
read_slurped(struct pdb_input *in, struct pdb *db, const struct pdb_sink *sink)
{
	json_t *doc = NULL;
	json_error_t err;
	size_t len, start = 0, end = 0;
	char *data = NULL, *head;
	struct nodes n;
	int rc = PDB_OK, stream, nomem;

	memset(&n, 0, sizeof(n));
	n.in = in;
	n.db = db;
	n.sink = sink;
	if (pdb_in_slurp(in, db, &data, &len) != 0)
		return pdb_errcode(db);
	stream = len >= JSON_STREAM_MIN && find_nodes(data, len, &start, &end);
	if (stream) {
		/* For Jansson, the document with "nodes": []; the nodes
		 * stay in data for yajl. */
		if ((head = malloc(start + 2 + (len - end))) == NULL) {
			rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
			goto out;
		}
		memcpy(head, data, start);
		head[start] = '[';
		head[start + 1] = ']';
		memcpy(head + start + 2, data + end, len - end);
		doc = pdb_json_load(head, start + 2 + (len - end),
		    JSON_REJECT_DUPLICATES, &err, &nomem);
		free(head);
		if (nomem) {
			rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
			goto out;
		}
		if (doc == NULL) {
			rc = pdb_seterr(db, PDB_EFORMAT, "%s: byte %zu: %s",
			    in->name, (size_t)err.position +
			    ((size_t)err.position > start + 1 ? end - start - 2 :
			    0), err.text);
			goto out;
		}
	} else {
		doc = pdb_json_load(data, len, JSON_REJECT_DUPLICATES, &err,
		    &nomem);
		free(data);
		data = NULL;
		if (nomem) {
			rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
			goto out;
		}
		if (doc == NULL) {
			rc = pdb_seterr(db, PDB_EFORMAT, "%s:%d:%d: %s",
			    in->name, err.line, err.column, err.text);
			goto out;
		}
	}
	if ((rc = tables_of_doc(in, db, doc)) != 0 ||
	    (rc = nodes_begin(&n)) != 0)
		goto out;
	rc = stream ? nodes_of_text(&n, (const unsigned char *)data + start,
	    end - start, start) : nodes_of_doc(&n, json_object_get(doc,
	    "nodes"));
	if (rc != 0 || (rc = nodes_done(&n)) != 0)
		goto out;
	if (sink->end)
		rc = sink->end(sink->arg, db);
out:
	free(data);
	free(n.left);
	free(n.vals);
	json_decref(doc);
	return rc;
}

/* ---- the document as it comes ---- */

/*
 * A document whose tables all come before its nodes, as this format's
 * writer puts them, is read a fill at a time: the tables through
 * Jansson, the nodes through yajl as they come, in memory that does not
 * grow with the file (the streaming analyses' bound, BENCHMARKS.md).
 * Any other document is read whole (read_slurped()).
 */
#ifdef PDB_SMALL_BUFFERS
#define CHUNK		((size_t)150)	/* see formats/input.c */
#else
#define CHUNK		((size_t)64 * 1024)
#endif

/*
 * The scan of find_nodes() to the '[' of "nodes", resumed each fill; on
 * the way, where the array of the first "cost_centres" is.
 */
struct head_scan {
	size_t	 i;		/* the next byte to look at */
	size_t	 k0;		/* where the string being read starts */
	size_t	 cc0, cc1;	/* the cost centres' array, or 0 */
	int	 depth;
	int	 key_next;	/* a string at depth 1 is a key */
	int	 in_str;
	int	 after;		/* just past the key "nodes" */
	int	 cc_after;	/* just past the key "cost_centres" */
};

/*
 * Scan d[sc->i, len): 1 with sc->i at the '[' of the top-level "nodes",
 * 0 when these bytes do not tell yet, -1 when "nodes" is no array, -2
 * with sc->i at a byte that JSON cannot have outside a string: read on,
 * or whole, garbage from a pipe or a device would never end.
 */
static int
head_scan(struct head_scan *sc, const char *d, size_t len)
{
	char c;

	for (; sc->i < len; sc->i++) {
		c = d[sc->i];
		if (sc->in_str) {
			if (c == '\\') {
				if (sc->i + 1 == len)
					return 0;	/* look again with more */
				sc->i++;
			} else if (c == '"') {
				sc->in_str = 0;
				if (sc->depth == 1 && sc->key_next) {
					sc->key_next = 0;
					sc->after = sc->i - sc->k0 == 5 &&
					    memcmp(d + sc->k0, "nodes", 5) == 0;
					sc->cc_after = sc->cc0 == 0 &&
					    sc->i - sc->k0 == 12 &&
					    memcmp(d + sc->k0, "cost_centres",
					    12) == 0;
				}
			}
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    ((sc->after || sc->cc_after) && c == ':'))
			continue;
		/* Punctuation, numbers, true, false and null. */
		if (c == '\0' || strchr("{}[]:,\"-+.0123456789eEtrufalsn", c) ==
		    NULL)
			return -2;
		if (sc->after)
			return c == '[' ? 1 : -1;
		/* Not an object: read whole, where Jansson says what it is. */
		if (sc->depth == 0 && c != '{')
			return -1;
		if (sc->cc_after) {
			sc->cc_after = 0;
			if (c == '[')
				sc->cc0 = sc->i;
		}
		switch (c) {
		case '"':
			sc->in_str = 1;
			sc->k0 = sc->i + 1;
			break;
		case '{':
		case '[':
			if (++sc->depth == 1)
				sc->key_next = c == '{';
			break;
		case '}':
		case ']':
			/* The object ended without "nodes": read whole. */
			if (--sc->depth <= 0)
				return -1;
			if (sc->depth == 1 && sc->cc0 != 0 && sc->cc1 == 0)
				sc->cc1 = sc->i + 1;
			break;
		case ',':
			if (sc->depth == 1)
				sc->key_next = 1;
			break;
		}
	}
	return 0;
}

/* A batch of cost centres, at most this many, is a document of its own. */
#ifdef PDB_SMALL_BUFFERS
#define CC_BATCH	3
#else
#define CC_BATCH	1024
#endif

/*
 * The cost centres' array t[0, len), at byte off, a batch at a time:
 * Jansson's tree of them all would take ten times the text.  The array
 * is cut at commas between its elements; every byte of it goes to
 * Jansson, each cut comma after a placeholder element "0" that is then
 * skipped, and each batch inside one more array, so that the batches
 * judge the text as the whole would, nesting depth included.
 */
static int
ccs_of_text(struct pdb_input *in, struct pdb *db, const char *t, size_t len,
    uint64_t off)
{
	json_error_t err;
	json_t *doc, *a;
	char *b = NULL;
	size_t i, depth = 0, cut = 0, end, count = 0, first = 0, cap = 0;
	size_t blen, lead, skip;
	int in_str = 0, rc = 0, nomem;

	for (i = 1; i < len && rc == 0; i++) {
		if (in_str) {
			if (t[i] == '\\')
				i++;
			else if (t[i] == '"')
				in_str = 0;
			continue;
		}
		if (t[i] == '"')
			in_str = 1;
		else if (t[i] == '[' || t[i] == '{')
			depth++;
		else if ((t[i] == ']' || t[i] == '}') && depth > 0)
			depth--;
		/* A batch ends at a comma after its last element, or at
		 * the array's end. */
		if (t[i] == ',' && depth == 0) {
			if (++count < CC_BATCH)
				continue;
			end = i;
		} else if (i + 1 == len)
			end = len;
		else
			continue;
		/*
		 * "[" and the first batch from the array's '[', or "[[0"
		 * and the others from their comma; a ']' of their own for
		 * all but the last, and one for the "[".
		 */
		skip = cut != 0;
		lead = 1 + 2 * skip;
		blen = lead + (end - cut) + (end < len) + 1;
		if (pdb_buf_reserve(&b, &cap, blen) != 0) {
			rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
			break;
		}
		b[0] = '[';
		if (skip) {
			b[1] = '[';
			b[2] = '0';
		}
		memcpy(b + lead, t + cut, end - cut);
		if (end < len)
			b[blen - 2] = ']';
		b[blen - 1] = ']';
		doc = pdb_json_load(b, blen, JSON_REJECT_DUPLICATES, &err,
		    &nomem);
		a = json_array_get(doc, 0);
		if (nomem)
			rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		else if (doc == NULL)
			rc = pdb_seterr(db, PDB_EFORMAT, "%s: byte %" PRIu64
			    ": %s", in->name, off + cut + (size_t)err.position -
			    lead, err.text);
		else {
			rc = ccs_of_array(in, db, a, skip, first);
			first += json_array_size(a) - skip;
		}
		json_decref(doc);
		cut = end;
		count = 0;
	}
	free(b);
	return rc;
}

/*
 * The document's bytes before its nodes, with the cost centres' array at
 * [cc0, cc1) of them (both 0 without one) cut out for "[]": what Jansson
 * reads of the document but the nodes and the cost centres.
 */
struct head {
	char		*text;		/* len bytes, room for 3 more */
	size_t		 len, cc0, cc1;
};

/* The offset in the document of byte at of h's text followed by "[]"
 * for nodes of nlen bytes and what came after them. */
static uint64_t
head_offset(const struct head *h, size_t at, uint64_t nlen)
{
	uint64_t o = at;

	if (h->cc1 != 0 && at > h->cc0 + 1)
		o += h->cc1 - h->cc0 - 2;
	if (at > h->len + 1)
		o += nlen - 2;
	return o;
}

/*
 * What came after the nodes, t[0, tlen), when it does not just close the
 * document: judged by Jansson as the whole document would be (a key
 * given twice, for one).  nlen is the nodes' length, base where the
 * document starts.
 */
static int
tail_check(struct pdb_input *in, struct pdb *db, const struct head *h,
    uint64_t nlen, const char *t, size_t tlen, uint64_t base)
{
	json_error_t err;
	json_t *doc;
	char *d;
	int nomem;

	if ((d = malloc(h->len + 2 + tlen)) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	memcpy(d, h->text, h->len);
	d[h->len] = '[';
	d[h->len + 1] = ']';
	memcpy(d + h->len + 2, t, tlen);
	doc = pdb_json_load(d, h->len + 2 + tlen, JSON_REJECT_DUPLICATES, &err,
	    &nomem);
	free(d);
	json_decref(doc);
	if (nomem)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	if (doc != NULL)
		return 0;
	return pdb_seterr(db, PDB_EFORMAT, "%s: byte %" PRIu64 ": %s",
	    in->name, base + head_offset(h, (size_t)err.position, nlen),
	    err.text);
}

/*
 * Read what follows the nodes to the end.  Normally it is white space,
 * the '}' that closes the document and white space, checked here as it
 * comes; anything else is kept in *t for tail_check().
 */
static int
read_tail(struct pdb_input *in, struct pdb *db, char **t, size_t *tlen,
    int *closed)
{
	const unsigned char *p;
	size_t cap = 0, i;
	long got;
	int more = 0;

	*closed = 0;
	while ((got = pdb_in_fill(in, CHUNK)) > 0) {
		p = in->buf + in->pos;
		for (i = 0; !more && i < (size_t)got; i++) {
			if (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
			    p[i] == '\r')
				continue;
			if (*closed)
				return pdb_seterr(db, PDB_EFORMAT, "%s: byte %"
				    PRIu64 ": end of file expected", in->name,
				    pdb_in_offset(in) + i);
			if (p[i] == '}')
				*closed = 1;
			else
				more = 1;
		}
		if (!*closed) {
			if (pdb_buf_reserve(t, &cap, *tlen + (size_t)got) !=
			    0)
				return pdb_seterr(db, PDB_ENOMEM,
				    "out of memory");
			memcpy(*t + *tlen, p, (size_t)got);
			*tlen += (size_t)got;
		}
		in->pos = in->len;
	}
	if (got < 0)
		return pdb_in_seterr(in, db);
	return 0;
}

/*
 * The document from where in is.  Sets *whole, having read nothing,
 * when it must be read whole: a small or unusual one.
 */
static int
read_streamed(struct pdb_input *in, struct pdb *db,
    const struct pdb_sink *sink, int *whole)
{
	static const char *const tables[] = {
		"version", "metadata", "metrics", "modules", "cost_centres"
	};
	struct head_scan sc;
	struct head h;
	struct nodes n;
	struct feed f;
	json_error_t err;
	json_t *doc = NULL;
	char *tail = NULL;
	const char *d;
	const unsigned char *chunk;
	uint64_t base = pdb_in_offset(in), nlen = 0;
	size_t hlen, tlen = 0, len, want, i;
	long got;
	int rc = 0, found = 0, closed, nomem;

	memset(&sc, 0, sizeof(sc));
	memset(&h, 0, sizeof(h));
	memset(&n, 0, sizeof(n));
	n.in = in;
	n.db = db;
	n.sink = sink;
	*whole = 1;
	/* The bytes before the nodes stay in the input's buffer. */
	while (found == 0) {
		want = in->len - in->pos + CHUNK;
		if (want < JSON_STREAM_MIN)
			want = JSON_STREAM_MIN;
		/* A failed read fails again for read_slurped(), which
		 * reports it. */
		if ((got = pdb_in_fill(in, want)) < 0 ||
		    (size_t)got < JSON_STREAM_MIN)
			return 0;
		found = head_scan(&sc, (const char *)in->buf + in->pos,
		    (size_t)got);
		if (found == -2) {
			*whole = 0;
			return pdb_seterr(db, PDB_EFORMAT, "%s: byte %" PRIu64
			    ": not JSON: byte 0x%02x outside a string",
			    in->name, base + sc.i, in->buf[in->pos + sc.i]);
		}
		if (found < 0 || (found == 0 && (size_t)got < want))
			return 0;
	}
	/*
	 * The tables: what came before, with "nodes": [] closing it, and
	 * the cost centres, most of it, left for ccs_of_text().
	 */
	d = (const char *)in->buf + in->pos;
	hlen = sc.i;
	h.cc0 = sc.cc1 != 0 ? sc.cc0 : 0;
	h.cc1 = sc.cc1;
	if ((h.text = malloc(hlen - (h.cc1 - h.cc0) + 5)) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	memcpy(h.text, d, h.cc0);
	h.len = h.cc0;
	if (h.cc1 != 0) {
		h.text[h.len++] = '[';
		h.text[h.len++] = ']';
	}
	memcpy(h.text + h.len, d + h.cc1, hlen - h.cc1);
	h.len += hlen - h.cc1;
	memcpy(h.text + h.len, "[]}", 3);
	doc = pdb_json_load(h.text, h.len + 3, JSON_REJECT_DUPLICATES, &err,
	    &nomem);
	if (nomem) {
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		goto out;
	}
	if (doc == NULL) {
		*whole = 0;
		rc = pdb_seterr(db, PDB_EFORMAT, "%s: byte %" PRIu64 ": %s",
		    in->name, base + head_offset(&h, (size_t)err.position, 2),
		    err.text);
		goto out;
	}
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (json_object_get(doc, tables[i]) == NULL)
			goto out;	/* a table may come after the nodes */
	*whole = 0;
	rc = tables_of_doc(in, db, doc);
	/* Its strings are copied: the tree of them is done with. */
	json_decref(doc);
	doc = NULL;
	/* The cost centres, still in the input's buffer. */
	if (rc == 0 && h.cc1 != 0)
		rc = ccs_of_text(in, db, d + h.cc0, h.cc1 - h.cc0,
		    base + h.cc0);
	in->pos += hlen;
	if (rc != 0 || (rc = nodes_begin(&n)) != 0)
		goto out;
	if ((rc = feed_open(&f, &n)) != 0)
		goto nodes_out;
	/* The nodes, to the ']' that closes them. */
	while (!f.s.closed) {
		if (in->pos >= in->len) {
			if ((got = pdb_in_fill(in, CHUNK)) < 0) {
				rc = pdb_in_seterr(in, db);
				goto nodes_out;
			}
			if (got == 0)
				break;
		}
		chunk = in->buf + in->pos;
		len = in->len - in->pos;
		if (len > CHUNK)
			len = CHUNK;
		if ((rc = feed(&f, chunk, len, pdb_in_offset(in))) != 0)
			goto nodes_out;
		/* yajl stops where the nodes' array ends. */
		if (f.s.closed)
			len = yajl_get_bytes_consumed(f.y.h);
		in->pos += len;
		nlen += len;
	}
	if ((rc = feed_end(&f, in->buf + in->pos, pdb_in_offset(in))) != 0 ||
	    (rc = read_tail(in, db, &tail, &tlen, &closed)) != 0 ||
	    (!closed && (rc = tail_check(in, db, &h, nlen, tail, tlen,
	    base)) != 0) || (rc = nodes_done(&n)) != 0)
		goto nodes_out;
	if (sink->end)
		rc = sink->end(sink->arg, db);
nodes_out:
	feed_close(&f);
out:
	free(h.text);
	free(tail);
	free(n.left);
	free(n.vals);
	json_decref(doc);
	return rc;
}

static int
json_read(struct pdb_input *in, struct pdb *db, const struct pdb_sink *sink,
    const struct pdb_opts *opts)
{
	int rc, whole = 0;

	(void)opts;
	rc = read_streamed(in, db, sink, &whole);
	return whole ? read_slurped(in, db, sink) : rc;
}

const struct pdb_format pdb_fmt_json = {
	.abi = PDB_FORMAT_ABI,
	.name = "json",
	.desc = "ccstools JSON: the whole profile, ccs-formats(5)",
	.exts = ".json",
	.flags = PDB_FMT_READ | PDB_FMT_WRITE,
	.build = PDB_BUILD_RAW,
	.probe = json_probe,
	.read = json_read,
	.write = json_write,
};
