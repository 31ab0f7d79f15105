/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * GHC JSON profile (+RTS -pj), read with Jansson.
 *
 * GHC writes one object: some metadata ("program", "arguments",
 * "rts_arguments", "end_time", "total_time", "total_ticks",
 * "tick_interval", "total_alloc", "initial_capabilities"), a flat list
 * "cost_centres" of {id, label, module, src_loc, is_caf}, and the stack
 * tree "profile" as nested {id, entries, alloc, ticks, children}.  Unlike
 * the text report the tree is unpruned and has the GC, SYSTEM, IDLE and
 * OVERHEAD_of stacks, so its totals include them.  GHC calls the file
 * PROG.prof, so it is recognised by content only.
 *
 * Files over GHCJSON_STREAM_MIN (32 KiB) are read as a stream with yajl
 * instead (ghcjson_stream.c), in memory independent of their size; the
 * rest of this file reads smaller ones with Jansson, which parses the
 * document whole.  Its parser bounds nesting at JSON_PARSER_MAX_DEPTH
 * (2048 levels: one for the document, two per profile level, so 1023
 * profile levels), more than a file that small can hold (a level takes
 * 54 bytes at least).  The parsed document takes about 1 KB per node.
 * Our own walk over it keeps an explicit stack.
 */
#include <ctype.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats_int.h"
#include "ghcjson.h"
#include "ghcjson_stream.h"
#include "jsonlib.h"

/* Cost-centre id to index, sorted by id for bsearch. */
struct idpair {
	int64_t		 id;
	uint32_t	 cc;
};

struct jctx {
	struct pdb	*db;
	const char	*name;		/* file name for messages */
	struct idpair	*ids;
	size_t		 nids;
	size_t		 nodes;		/* profile nodes met, for messages */
	struct ghcjson_sums sums;
};

/* One level of the walk: a node's children and the next to visit. */
struct frame {
	json_t		*kids;
	size_t		 next;
};

static int	 ghcjson_probe(const unsigned char *, size_t);
static int	 ghcjson_read(struct pdb_input *, struct pdb *,
		    const struct pdb_sink *, const struct pdb_opts *);
static int	 read_meta(struct jctx *, json_t *);
static int	 meta_string(struct jctx *, json_t *, const char *,
		    const char *);
static int	 meta_args(struct jctx *, json_t *, const char *,
		    const char *);
static int	 meta_number(struct jctx *, json_t *, const char *,
		    const char *, json_int_t *);
static int	 read_ccs(struct jctx *, json_t *);
static int	 idpair_cmp(const void *, const void *);
static int	 cc_lookup(const struct jctx *, int64_t, uint32_t *);
static int	 read_node(struct jctx *, json_t *, uint32_t *, int64_t *,
		    json_t **);
static int	 walk(struct jctx *, json_t *, const struct pdb_sink *);
static const unsigned char *find(const unsigned char *, size_t,
		    const char *);

const struct pdb_format pdb_fmt_ghcjson = {
	.abi = PDB_FORMAT_ABI,
	.name = "ghc-json",
	.desc = "GHC JSON profile (+RTS -pj)",
	.exts = ".json",
	.flags = PDB_FMT_READ,
	.build = PDB_BUILD_RAW,
	.probe = ghcjson_probe,
	.read = ghcjson_read,
};

static const unsigned char *
find(const unsigned char *h, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; i + n <= len; i++)
		if (h[i] == (unsigned char)needle[0] &&
		    memcmp(h + i, needle, n) == 0)
			return h + i;
	return NULL;
}

/*
 * A GHC profile is an object whose first keys are "program" and the
 * argument lists; "cost_centres" follows within a few hundred bytes.
 * Any other JSON object gets a low score, so that a forced or lone
 * candidate still says what is wrong with it.
 */
static int
ghcjson_probe(const unsigned char *head, size_t len)
{
	size_t i = 0;

	if (len >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < len && isspace(head[i]))
		i++;
	if (i == len || head[i] != '{')
		return 0;
	if (find(head, len, "\"cost_centres\"") != NULL ||
	    find(head, len, "\"profile\"") != NULL ||
	    find(head, len, "\"rts_arguments\"") != NULL)
		return 95;
	return 10;
}

static int
ghcjson_read(struct pdb_input *in, struct pdb *db,
    const struct pdb_sink *sink, const struct pdb_opts *opts)
{
	struct jctx c;
	json_error_t jerr;
	json_t *root, *v;
	char *data;
	size_t len;
	long have;
	int rc, nomem;

	(void)opts;
	/* A big file streams through yajl; Jansson would take ~1 KB a node. */
	if ((have = pdb_in_fill(in, GHCJSON_STREAM_MIN + 1)) >
	    (long)GHCJSON_STREAM_MIN)
		return pdb_ghcjson_stream(in, db, sink);
	if (have < 0)
		return pdb_in_seterr(in, db);
	memset(&c, 0, sizeof(c));
	c.db = db;
	c.name = in->name;
	if (pdb_in_slurp(in, db, &data, &len) != 0)
		return pdb_errcode(db) ? pdb_errcode(db) : PDB_EIO;
	root = pdb_json_load(data, len, JSON_REJECT_DUPLICATES, &jerr, &nomem);
	free(data);
	if (nomem)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	if (root == NULL) {
		if (jerr.line > 0)
			return pdb_seterr(db, PDB_EFORMAT, "%s:%d:%d: %s",
			    c.name, jerr.line, jerr.column, jerr.text);
		return pdb_seterr(db, PDB_EFORMAT, "%s: %s", c.name,
		    jerr.text);
	}
	if (!json_is_object(root)) {
		rc = pdb_seterr(db, PDB_EFORMAT,
		    "%s: not a GHC profile: the top level is not an object",
		    c.name);
		goto out;
	}
	if ((v = json_object_get(root, "cost_centres")) == NULL) {
		rc = pdb_seterr(db, PDB_EFORMAT,
		    "%s: not a GHC profile: no 'cost_centres'", c.name);
		goto out;
	}
	if ((rc = read_meta(&c, root)) != 0 || (rc = read_ccs(&c, v)) != 0)
		goto out;
	if ((v = json_object_get(root, "profile")) == NULL) {
		rc = pdb_seterr(db, PDB_EFORMAT,
		    "%s: not a GHC profile: no 'profile'", c.name);
		goto out;
	}
	rc = walk(&c, v, sink);
out:
	json_decref(root);
	free(c.ids);
	return rc;
}

/* ---- metadata ---- */

static int
read_meta(struct jctx *c, json_t *root)
{
	const struct ghcjson_metafield *f;
	json_int_t caps = -1;
	char buf[32];
	unsigned i;
	int rc = 0;

	if ((rc = pdb_meta_set(c->db, "source_format", "ghc-json")) != 0)
		return rc;
	for (i = 0; i < GHCJSON_NMETA; i++) {
		f = &pdbi_ghcjson_metafields[i];
		switch (f->type) {
		case GJ_STRING:
			rc = meta_string(c, root, f->field, f->key);
			break;
		case GJ_ARGS:
			rc = meta_args(c, root, f->field, f->key);
			break;
		case GJ_NUMBER:
			rc = meta_number(c, root, f->field, f->key, NULL);
			break;
		case GJ_CAPS:
			rc = meta_number(c, root, f->field, f->key, &caps);
			break;
		}
		if (rc != 0)
			return rc;
	}
	/*
	 * GHC prints RtsFlags.ParFlags.nCapabilities, which a non-threaded
	 * RTS leaves at 0; its text report says "1 processor" then.
	 */
	if (caps >= 0) {
		snprintf(buf, sizeof(buf), "%lld",
		    caps == 0 ? 1LL : (long long)caps);
		if ((rc = pdb_meta_set(c->db, "processors", buf)) != 0)
			return rc;
	}

	/* The schema, unless the handle already has these metrics. */
	return pdbi_ghcjson_schema(c->db, c->name);
}

static int
meta_string(struct jctx *c, json_t *root, const char *field, const char *key)
{
	json_t *v;

	if ((v = json_object_get(root, field)) == NULL || json_is_null(v))
		return PDB_OK;
	if (!json_is_string(v))
		return pdb_seterr(c->db, PDB_EFORMAT,
		    "%s: '%s' is not a string", c->name, field);
	return pdb_meta_set(c->db, key, json_string_value(v));
}

/* An array of strings, joined with spaces. */
static int
meta_args(struct jctx *c, json_t *root, const char *field, const char *key)
{
	json_t *v, *a;
	size_t i, n, len = 0;
	char *s;
	int rc;

	if ((v = json_object_get(root, field)) == NULL || json_is_null(v))
		return PDB_OK;
	if (!json_is_array(v))
		return pdb_seterr(c->db, PDB_EFORMAT,
		    "%s: '%s' is not an array", c->name, field);
	n = json_array_size(v);
	for (i = 0; i < n; i++) {
		a = json_array_get(v, i);
		if (!json_is_string(a))
			return pdb_seterr(c->db, PDB_EFORMAT,
			    "%s: '%s[%zu]' is not a string", c->name, field, i);
		len += json_string_length(a) + 1;
	}
	if ((s = malloc(len + 1)) == NULL)
		return pdb_seterr(c->db, PDB_ENOMEM, "out of memory");
	len = 0;
	for (i = 0; i < n; i++) {
		a = json_array_get(v, i);
		if (i > 0)
			s[len++] = ' ';
		memcpy(s + len, json_string_value(a), json_string_length(a));
		len += json_string_length(a);
	}
	s[len] = '\0';
	rc = pdb_meta_set(c->db, key, s);
	free(s);
	return rc;
}

/* A number, integer or real; *ival (may be NULL) gets an integer's value. */
static int
meta_number(struct jctx *c, json_t *root, const char *field, const char *key,
    json_int_t *ival)
{
	json_t *v;
	char buf[40];

	if ((v = json_object_get(root, field)) == NULL || json_is_null(v))
		return PDB_OK;
	if (json_is_integer(v)) {
		snprintf(buf, sizeof(buf), "%lld",
		    (long long)json_integer_value(v));
		if (ival != NULL)
			*ival = json_integer_value(v);
	} else if (json_is_real(v))
		pdbi_ghcjson_real(buf, sizeof(buf), json_real_value(v));
	else
		return pdb_seterr(c->db, PDB_EFORMAT,
		    "%s: '%s' is not a number", c->name, field);
	return pdb_meta_set(c->db, key, buf);
}

/* ---- cost centres ---- */

static int
read_ccs(struct jctx *c, json_t *arr)
{
	static const char *const strfields[] = { "label", "module", "src_loc" };
	const char *str[3];
	json_t *o, *v;
	size_t i, j, n;
	uint32_t mod, cc;
	int rc;

	if (!json_is_array(arr))
		return pdb_seterr(c->db, PDB_EFORMAT,
		    "%s: 'cost_centres' is not an array", c->name);
	n = json_array_size(arr);
	if (n > 0 && (c->ids = calloc(n, sizeof(*c->ids))) == NULL)
		return pdb_seterr(c->db, PDB_ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		o = json_array_get(arr, i);
		if (!json_is_object(o))
			return pdb_seterr(c->db, PDB_EFORMAT,
			    "%s: 'cost_centres[%zu]' is not an object",
			    c->name, i);
		if ((v = json_object_get(o, "id")) == NULL)
			return pdb_seterr(c->db, PDB_EFORMAT,
			    "%s: 'cost_centres[%zu]': missing 'id'", c->name,
			    i);
		if (!json_is_integer(v))
			return pdb_seterr(c->db, PDB_EFORMAT,
			    "%s: 'cost_centres[%zu]': 'id' is not an integer",
			    c->name, i);
		c->ids[i].id = json_integer_value(v);
		for (j = 0; j < 3; j++) {
			v = json_object_get(o, strfields[j]);
			if (v == NULL && j == 2) {
				str[j] = "";	/* no source location */
				continue;
			}
			if (v == NULL)
				return pdb_seterr(c->db, PDB_EFORMAT,
				    "%s: 'cost_centres[%zu]': missing '%s'",
				    c->name, i, strfields[j]);
			if (!json_is_string(v))
				return pdb_seterr(c->db, PDB_EFORMAT,
				    "%s: 'cost_centres[%zu]': '%s' is not a "
				    "string", c->name, i, strfields[j]);
			str[j] = json_string_value(v);
		}
		/* null is false, as in the stream. */
		v = json_object_get(o, "is_caf");
		if (v != NULL && !json_is_boolean(v) && !json_is_null(v))
			return pdb_seterr(c->db, PDB_EFORMAT,
			    "%s: 'cost_centres[%zu]': 'is_caf' is not a "
			    "boolean", c->name, i);
		if ((rc = pdb_module_intern(c->db, str[1], &mod)) != 0 ||
		    (rc = pdb_cc_add(c->db, str[0], mod, str[2],
		    json_is_true(v) ? PDB_CC_CAF : 0, c->ids[i].id, &cc)) != 0)
			return rc;
		c->ids[i].cc = cc;
		c->nids++;
	}
	if (c->nids > 1)
		qsort(c->ids, c->nids, sizeof(*c->ids), idpair_cmp);
	for (i = 1; i < c->nids; i++)
		if (c->ids[i].id == c->ids[i - 1].id)
			return pdb_seterr(c->db, PDB_EFORMAT,
			    "%s: duplicate cost centre id %lld", c->name,
			    (long long)c->ids[i].id);
	return PDB_OK;
}

static int
idpair_cmp(const void *a, const void *b)
{
	const struct idpair *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static int
cc_lookup(const struct jctx *c, int64_t id, uint32_t *cc)
{
	struct idpair key = { 0 }, *p;	/* key.cc: not compared */

	if (c->nids == 0)
		return -1;
	key.id = id;
	p = bsearch(&key, c->ids, c->nids, sizeof(*c->ids), idpair_cmp);
	if (p == NULL)
		return -1;
	*cc = p->cc;
	return 0;
}

/* ---- the tree ---- */

/* Check one profile node and take out its cost centre, values and
 * children. */
static int
read_node(struct jctx *c, json_t *node, uint32_t *cc, int64_t *vals,
    json_t **kids)
{
	const char *field;
	json_t *v;
	unsigned i;

	c->nodes++;
	if (!json_is_object(node))
		return pdb_seterr(c->db, PDB_EFORMAT,
		    "%s: profile node %zu is not an object", c->name,
		    c->nodes);
	if ((v = json_object_get(node, "id")) == NULL)
		return pdb_seterr(c->db, PDB_EFORMAT,
		    "%s: profile node %zu: missing 'id'", c->name, c->nodes);
	if (!json_is_integer(v))
		return pdb_seterr(c->db, PDB_EFORMAT,
		    "%s: profile node %zu: 'id' is not an integer", c->name,
		    c->nodes);
	if (cc_lookup(c, json_integer_value(v), cc) != 0)
		return pdb_seterr(c->db, PDB_EFORMAT,
		    "%s: profile node %zu: unknown cost centre id %lld",
		    c->name, c->nodes, (long long)json_integer_value(v));
	for (i = 0; i < GHCJSON_NMETRICS; i++) {
		field = pdbi_ghcjson_metrics[i].field;
		if ((v = json_object_get(node, field)) == NULL)
			return pdb_seterr(c->db, PDB_EFORMAT,
			    "%s: profile node %zu: missing '%s'", c->name,
			    c->nodes, field);
		if (!json_is_integer(v))
			return pdb_seterr(c->db, PDB_EFORMAT,
			    "%s: profile node %zu: '%s' is not an integer",
			    c->name, c->nodes, field);
		/* GHC writes its counts unsigned (ghcjson_stream.c). */
		if ((vals[i] = json_integer_value(v)) < 0)
			return pdb_seterr(c->db, PDB_EFORMAT,
			    "%s: profile node %zu: '%s' is negative (%lld)",
			    c->name, c->nodes, field, (long long)vals[i]);
	}
	if ((v = json_object_get(node, "children")) == NULL)
		return pdb_seterr(c->db, PDB_EFORMAT,
		    "%s: profile node %zu: missing 'children'", c->name,
		    c->nodes);
	if (!json_is_array(v))
		return pdb_seterr(c->db, PDB_EFORMAT,
		    "%s: profile node %zu: 'children' is not an array",
		    c->name, c->nodes);
	*kids = v;
	return PDB_OK;
}

static int
walk(struct jctx *c, json_t *profile, const struct pdb_sink *sink)
{
	struct frame *stack = NULL, *f, *ns;
	size_t depth = 0, cap = 0;
	int64_t vals[GHCJSON_NMETRICS];
	json_t *node, *kids = NULL;
	uint32_t cc = 0;
	int rc;

	if (sink->begin != NULL && (rc = sink->begin(sink->arg, c->db)) != 0)
		return rc;
	node = profile;
	for (;;) {
		if ((rc = read_node(c, node, &cc, vals, &kids)) != 0 ||
		    (rc = sink->enter(sink->arg, c->db, cc, vals)) != 0)
			goto out;
		ghcjson_sums_add(&c->sums, vals);
		if (depth == cap) {
			cap = cap ? cap * 2 : 64;
			ns = realloc(stack, cap * sizeof(*stack));
			if (ns == NULL) {
				rc = pdb_seterr(c->db, PDB_ENOMEM,
				    "out of memory");
				goto out;
			}
			stack = ns;
		}
		stack[depth].kids = kids;
		stack[depth].next = 0;
		depth++;
		/* Close finished nodes until one has a child left. */
		for (;;) {
			f = &stack[depth - 1];
			if (f->next < json_array_size(f->kids))
				break;
			if ((rc = sink->exit(sink->arg, c->db)) != 0)
				goto out;
			if (--depth == 0)
				goto done;
		}
		node = json_array_get(f->kids, f->next++);
	}
done:
	pdbi_ghcjson_totals(c->db, c->name, &c->sums);
	rc = sink->end != NULL ? sink->end(sink->arg, c->db) : PDB_OK;
out:
	free(stack);
	return rc;
}
