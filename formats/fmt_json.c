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

#include "formats.h"

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
json_probe(const unsigned char *head, size_t len)
{
	size_t i = 0;

	while (i < len && (head[i] == ' ' || head[i] == '\n' ||
	    head[i] == '\r' || head[i] == '\t'))
		i++;
	if (i == len || head[i] != '{')
		return 0;
	if (contains(head, len, "\"" JSON_FORMAT_NAME "\""))
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
 * The document but its nodes, which come last; NULL when out of memory.
 * The nodes are numbers only and most of the file: they are written as
 * the tree is walked (put_nodes()), where a Jansson tree of them would
 * take some 40 bytes a number.
 */
static json_t *
build(struct pdb *db)
{
	json_t *doc, *meta, *metrics, *modules, *ccs;
	unsigned m, nm = pdb_metric_count(db);
	const char *k, *v;
	struct pdb_cc cc;
	uint32_t i;
	size_t j;
	int bad = 0;

	doc = json_object();
	meta = json_object();
	metrics = json_array();
	modules = json_array();
	ccs = json_array();
	if (!doc || !meta || !metrics || !modules || !ccs)
		bad = 1;
	for (j = 0; !bad && j < pdb_meta_count(db); j++) {
		pdb_meta_at(db, j, &k, &v);
		/* Keys are ours or the readers': UTF-8 by construction. */
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
	for (i = 0; !bad && i < pdb_cc_count(db); i++) {
		pdb_cc(db, i, &cc);
		bad |= json_array_append_new(ccs, json_pack(
		    "{s:o,s:I,s:o,s:b,s:b,s:I}", "label", jstr(cc.label),
		    "module", (json_int_t)cc.module_index, "src", jstr(cc.src),
		    "caf", (cc.flags & PDB_CC_CAF) != 0, "synthetic",
		    (cc.flags & PDB_CC_SYNTHETIC) != 0, "id",
		    (json_int_t)cc.profile_id)) != 0;
	}
	if (bad || json_object_set_new(doc, "format",
	    json_string(JSON_FORMAT_NAME)) || json_object_set_new(doc,
	    "version", json_integer(1)) || json_object_set_new(doc,
	    "metadata", meta) || json_object_set_new(doc, "metrics",
	    metrics) || json_object_set_new(doc, "modules", modules) ||
	    json_object_set_new(doc, "cost_centres", ccs)) {
		json_decref(doc);
		return NULL;
	}
	return doc;
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
	json_t *doc;
	char *head;
	size_t len;
	int rc;

	(void)opts;
	if ((doc = build(db)) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	head = json_dumps(doc, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (head == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	/* The document without its closing brace, then the nodes. */
	len = strlen(head);
	rc = len < 2 || fwrite(head, 1, len - 1, out) != len - 1 ||
	    fputs(",\"nodes\":[", out) < 0 || put_nodes(out, db) != 0 ||
	    fputs("]}\n", out) < 0;
	free(head);
	if (rc || ferror(out))
		return pdb_seterr(db, PDB_EIO, "write error");
	return PDB_OK;
}

/* ---- reading ---- */

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
		unsigned hi, lo;

		if (sscanf(h + 2 * i, "%1x%1x", &hi, &lo) != 2 ||
		    (hi == 0 && lo == 0)) {
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

static int
json_read(struct pdb_input *in, struct pdb *db, const struct pdb_sink *sink,
    const struct pdb_opts *opts)
{
	json_t *doc = NULL, *j, *v;
	json_error_t err;
	uint32_t *left = NULL, mod, cc;
	int64_t *vals = NULL;
	size_t len, i, depth = 0, cap = 0, nnodes, nm;
	const char *key;
	char *data = NULL, *s1 = NULL, *s2 = NULL;
	int rc = PDB_OK;

	(void)opts;
	if (pdb_in_slurp(in, db, &data, &len) != 0)
		return pdb_errcode(db);
	if ((doc = json_loadb(data, len, 0, &err)) == NULL) {
		rc = pdb_seterr(db, PDB_EFORMAT, "%s:%d:%d: %s", in->name,
		    err.line, err.column, err.text);
		goto out;
	}
	free(data);
	data = NULL;
	if (!json_is_object(doc) || json_integer_value(json_object_get(doc,
	    "version")) != 1) {
		rc = bad(db, in, "not a version 1 ccstools JSON profile");
		goto out;
	}
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
	nm = pdb_metric_count(db);
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
	json_array_foreach(json_object_get(doc, "cost_centres"), i, v) {
		json_t *jm = json_object_get(v, "module");
		json_int_t id = json_integer_value(json_object_get(v, "id"));

		s1 = unjstr(json_object_get(v, "label"));
		s2 = unjstr(json_object_get(v, "src"));
		if (s1 == NULL || s2 == NULL || !json_is_integer(jm) ||
		    json_integer_value(jm) < 0 ||
		    json_integer_value(jm) >= pdb_module_count(db)) {
			rc = bad_str(db, in, "cost_centres[%zu]: bad cost centre",
			    i);
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
	if (sink->begin && (rc = sink->begin(sink->arg, db)) != 0)
		goto out;
	j = json_object_get(doc, "nodes");
	nnodes = json_array_size(j);
	if (!json_is_array(j) || nnodes == 0) {
		rc = bad(db, in, "no nodes");
		goto out;
	}
	if ((vals = calloc(nm + 1, sizeof(*vals))) == NULL) {
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		goto out;
	}
	/* left[d]: children still to come at depth d. */
	json_array_foreach(j, i, v) {
		json_int_t c, kids;
		size_t m;

		if (!json_is_array(v) || json_array_size(v) != nm + 2 ||
		    !json_is_integer(json_array_get(v, 0)) ||
		    !json_is_integer(json_array_get(v, 1))) {
			rc = pdb_seterr(db, PDB_EFORMAT,
			    "%s: nodes[%zu]: expected [cc, children, %zu values]",
			    in->name, i, nm);
			goto out;
		}
		c = json_integer_value(json_array_get(v, 0));
		kids = json_integer_value(json_array_get(v, 1));
		if (c < 0 || c >= pdb_cc_count(db) || kids < 0 ||
		    (size_t)kids > nnodes - i - 1) {
			rc = pdb_seterr(db, PDB_EFORMAT,
			    "%s: nodes[%zu]: cost centre or child count out of "
			    "range", in->name, i);
			goto out;
		}
		if (i > 0 && depth == 0) {
			rc = pdb_seterr(db, PDB_EFORMAT,
			    "%s: nodes[%zu]: more than one root", in->name, i);
			goto out;
		}
		for (m = 0; m < nm; m++) {
			json_t *x = json_array_get(v, m + 2);

			if (!json_is_integer(x)) {
				rc = pdb_seterr(db, PDB_EFORMAT,
				    "%s: nodes[%zu]: value %zu is not an "
				    "integer", in->name, i, m);
				goto out;
			}
			vals[m] = json_integer_value(x);
		}
		if ((rc = sink->enter(sink->arg, db, (uint32_t)c, vals)) != 0)
			goto out;
		if (depth > 0)
			left[depth - 1]--;
		if (pdb_buf_reserve(&left, &cap, (depth + 1) * sizeof(*left))) {
			rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
			goto out;
		}
		left[depth++] = (uint32_t)kids;
		while (depth > 0 && left[depth - 1] == 0) {
			if ((rc = sink->exit(sink->arg, db)) != 0)
				goto out;
			depth--;
		}
	}
	if (depth != 0) {
		rc = bad(db, in, "nodes: the tree ends early (child counts "
		    "exceed the nodes listed)");
		goto out;
	}
	if (sink->end)
		rc = sink->end(sink->arg, db);
out:
	free(data);
	free(s1);
	free(s2);
	free(left);
	free(vals);
	json_decref(doc);
	return rc;
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
