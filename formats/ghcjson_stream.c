/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * GHC JSON profiles (+RTS -pj) read as a stream with yajl's event parser,
 * for files too big for Jansson's document tree (about 1 KB a node).
 *
 * yajl calls us once per JSON token.  A stack of contexts says where we
 * are: the top object, an argument list, the cost-centre list or one
 * cost centre, a profile node or its children, or a value of a key we
 * skip.  Profile nodes become records in a queue: an enter record is
 * complete at its node's "children" key (GHC writes id, entries, alloc,
 * ticks, then children), an exit record at the node's end, and complete
 * records leave the queue for the sink in order as soon as the cost
 * centres are known.  With GHC's key order the queue never holds more
 * than one record, so memory is that of the cost centres and the depth;
 * another order only makes records wait longer.
 *
 * The result is the Jansson reader's: the same metadata in the same
 * order, the same schema, modules and cost centres, the same events, and
 * the same messages for a profile that is not GHC's.  JSON syntax errors
 * name the byte offset yajl stopped at.
 *
 * A key twice in one object is an error, as in the Jansson reader
 * (JSON_REJECT_DUPLICATES): Jansson would otherwise keep the last value
 * and a stream the first.  A profile node's five keys are bits of its
 * level; every other key goes on a stack of the keys of the open
 * objects, indexed by a chained hash whose chains run newest first, so
 * that closing an object pops its keys from the heads of their chains.
 * GHC's own profiles put nothing on it but the top object's and a cost
 * centre's keys.
 *
 * Where yajl is more lenient than Jansson, the stream refuses what
 * Jansson refuses: every string and key, skipped or not, must be
 * well-formed UTF-8 without NUL; form feed, vertical tab and unpaired
 * surrogate escapes are refused in the raw bytes.  Numbers come as text
 * and are converted here, because yajl refuses -2^63, which Jansson
 * reads.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

#include "ghcjson.h"
#include "ghcjson_stream.h"
#include "jsonlib.h"
#include "yajlguard.h"

#ifdef PDB_SMALL_BUFFERS
#define CHUNK		((size_t)150)	/* see formats/input.c */
#else
#define CHUNK		((size_t)64 * 1024)
#endif

/* Levels a skipped value may nest: Jansson's JSON_PARSER_MAX_DEPTH. */
#define SKIP_DEPTH_MAX	2048

enum ctx {
	C_TOP,		/* the top-level object */
	C_ARGS,		/* an argument list: strings */
	C_CCS,		/* the cost-centre list */
	C_CC,		/* one cost centre */
	C_NODE,		/* a profile node */
	C_KIDS,		/* its children */
	C_SKIP		/* a value we do not need */
};

struct level {
	enum ctx	 ctx;
	size_t		 n;		/* items so far (lists); keys (C_NODE);
					   levels of skipping (C_SKIP) */
	uint64_t	 seq;		/* C_NODE: its enter record */
	size_t		 nodeno;	/* C_NODE: for messages */
	uint32_t	 keys0;		/* its first entry on the key stack */
};

/* A key of an open object: the key stack (struct js). */
struct keyent {
	uint64_t	 hash;
	size_t		 off, len;	/* in keychars */
	uint32_t	 depth;		/* of the object's level */
	uint32_t	 next;		/* older entry in the chain, or KEY_NONE */
};
#define KEY_NONE	UINT32_MAX

/* Keys of a profile node and of a cost centre, as bits. */
#define K_ID		0x01u
#define K_ENTRIES	0x02u
#define K_ALLOC		0x04u
#define K_TICKS		0x08u
#define K_CHILDREN	0x10u
#define K_FIELDS	(K_ID | K_ENTRIES | K_ALLOC | K_TICKS)
#define K_LABEL		0x20u
#define K_MODULE	0x40u
#define K_SRC		0x80u
#define K_CAF		0x100u
#define K_DONE		0x200u	/* a node whose enter record is complete */

/* A profile node's own keys, kept as bits of its level. */
struct nodekey {
	const char	*name;
	size_t		 len;		/* compared first */
	unsigned	 bit;
	int		 slot;		/* in rec.v; -1: the id, or children */
};
#define NODEKEY(s)	s, sizeof(s) - 1
static const struct nodekey nodekeys[] = {
	{ NODEKEY("id"), K_ID, -1 }, { NODEKEY("entries"), K_ENTRIES, 2 },
	{ NODEKEY("alloc"), K_ALLOC, 1 }, { NODEKEY("ticks"), K_TICKS, 0 },
	{ NODEKEY("children"), K_CHILDREN, -1 },
};
#define NNODEKEYS	(sizeof(nodekeys) / sizeof(nodekeys[0]))
#define NK_CHILDREN	4

/* A queued event: a node's enter (with its fields) or exit. */
struct rec {
	int64_t		 id;
	int64_t		 v[GHCJSON_NMETRICS];	/* ticks, alloc, entries */
	size_t		 nodeno;
	unsigned char	 exit;
	unsigned char	 done;
};

/* Cost-centre id to index. */
struct idslot {
	int64_t		 id;
	uint32_t	 cc;
	int		 used;
};

struct js {
	struct pdb_input *in;
	struct pdb	*db;
	const struct pdb_sink *sink;
	const char	*name;
	uint64_t	 chunkbase;	/* file offset of the chunk being parsed */
	uint64_t	 line;		/* lines before that chunk, from 1 */
	uint64_t	 linestart;	/* file offset where that line starts */
	yajl_handle	 h;
	const unsigned char *chunk;	/* being parsed */
	int		 rc;		/* our error, when a callback stopped */
	unsigned char	 esc[12];	/* an escape cut by a chunk's end */
	size_t		 nesc;
	size_t		 esc_back;	/* the bad one at 0 began this many
					   bytes before the chunk */
	char		*num;		/* a real number's text */
	size_t		 numcap;

	struct level	*stack;
	size_t		 depth, capstack;
	int		 started;	/* the top object was opened */
	int		 closed;	/* and closed: in this chunk (1), before */
	size_t		 closed_at;	/* where in this chunk */

	/* The key just read, in the current object. */
	char		*key;
	size_t		 keylen, keycap;
	int		 keyidx;	/* of metafields, or -1 */
	int		 nodekey;	/* of nodekeys, or -1 */

	/* The keys of the open objects, but profile nodes' own. */
	struct keyent	*keys;
	size_t		 nkeys, capkeys;
	char		*keychars;
	size_t		 nkeychars, capkeychars;
	uint32_t	*chains;	/* heads, by hash; KEY_NONE empty */
	size_t		 nchains;	/* a power of two, or 0 */

	/* Metadata before the first node: values by metafields index. */
	char		*meta[GHCJSON_NMETA];
	char		*args;		/* the argument list being read */
	size_t		 argslen, argscap;
	int64_t		 caps;
	int		 metadone;	/* applied, the sink begun */
	int		 metalate;	/* some came after that */

	/* The cost centre being read. */
	int64_t		 ccid;
	char		*str[3];	/* label, module, src_loc */
	size_t		 strcap[3];
	int		 iscaf;
	unsigned	 have;
	size_t		 nccs;
	int		 ccs_seen, ccs_done, profile_seen;
	struct idslot	*ids;
	size_t		 idcap, nids;

	/* Profile nodes waiting for the sink. */
	struct rec	*q;
	size_t		 qn, qhead, qcap;
	uint64_t	 qbase;		/* sequence number of q[0] */
	size_t		 nodes;
	struct ghcjson_sums sums;
};

static int	 nul_error(struct js *);
static int	 node_error(struct js *, size_t, const char *, const char *);
static int	 text_error(struct js *, size_t, const char *);
static int	 dup_key(struct js *);

static int
fail(struct js *j, int rc)
{
	j->rc = rc;
	return 0;	/* stops yajl */
}

static int
nomem(struct js *j)
{
	return fail(j, pdb_seterr(j->db, PDB_ENOMEM, "out of memory"));
}

/* A format error: "file: " and the message. */
static int
bad(struct js *j, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return fail(j, pdb_seterr(j->db, PDB_EFORMAT, "%s: %s", j->name,
	    msg));
}

static struct level *
top(struct js *j)
{
	return j->depth > 0 ? &j->stack[j->depth - 1] : NULL;
}

static int
push(struct js *j, enum ctx c)
{
	struct level *l;

	if (pdb_buf_reserve(&j->stack, &j->capstack,
	    (j->depth + 1) * sizeof(*j->stack)) != 0)
		return nomem(j);
	l = &j->stack[j->depth++];
	memset(l, 0, sizeof(*l));
	l->ctx = c;
	l->keys0 = (uint32_t)j->nkeys;
	return 1;
}

/* Close the top level: its keys leave the heads of their chains. */
static void
pop(struct js *j)
{
	struct level *l = &j->stack[j->depth - 1];
	struct keyent *e;

	while (j->nkeys > l->keys0) {
		e = &j->keys[--j->nkeys];
		j->chains[e->hash & (j->nchains - 1)] = e->next;
		j->nkeychars = e->off;
	}
	j->depth--;
}

/* Copy a string token, checked by check_string() already. */
static int
copystr(struct js *j, char **dst, size_t *cap, const unsigned char *s,
    size_t len)
{
	if (pdb_buf_reserve(dst, cap, len + 1) != 0)
		return nomem(j);
	memcpy(*dst, s, len);
	(*dst)[len] = '\0';
	return 1;
}

/* ---- cost centres ---- */

/* FNV-1a, for the table of an object's keys. */
static uint64_t
hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9e3779b97f4a7c15ULL;
	return x ^ (x >> 29);
}

static int
id_add(struct js *j, int64_t id, uint32_t cc)
{
	struct idslot *ns;
	size_t i, k, ncap;

	if ((j->nids + 1) * 2 > j->idcap) {
		ncap = j->idcap ? j->idcap * 2 : 1024;
		if ((ns = calloc(ncap, sizeof(*ns))) == NULL)
			return -1;
		for (i = 0; i < j->idcap; i++) {
			if (!j->ids[i].used)
				continue;
			for (k = mix((uint64_t)j->ids[i].id) & (ncap - 1);
			    ns[k].used; k = (k + 1) & (ncap - 1))
				;
			ns[k] = j->ids[i];
		}
		free(j->ids);
		j->ids = ns;
		j->idcap = ncap;
	}
	for (k = mix((uint64_t)id) & (j->idcap - 1); j->ids[k].used;
	    k = (k + 1) & (j->idcap - 1))
		if (j->ids[k].id == id)
			return 1;
	j->ids[k].used = 1;
	j->ids[k].id = id;
	j->ids[k].cc = cc;
	j->nids++;
	return 0;
}

static int
id_find(const struct js *j, int64_t id, uint32_t *cc)
{
	size_t k;

	if (j->idcap == 0)
		return -1;
	for (k = mix((uint64_t)id) & (j->idcap - 1); j->ids[k].used;
	    k = (k + 1) & (j->idcap - 1))
		if (j->ids[k].id == id) {
			*cc = j->ids[k].cc;
			return 0;
		}
	return -1;
}

/* The end of one cost centre: check it and add it. */
static int
cc_done(struct js *j)
{
	uint32_t mod, cc;
	int rc;

	if (!(j->have & K_ID))
		return bad(j, "'cost_centres[%zu]': missing 'id'", j->nccs);
	if (!(j->have & K_LABEL))
		return bad(j, "'cost_centres[%zu]': missing 'label'", j->nccs);
	if (!(j->have & K_MODULE))
		return bad(j, "'cost_centres[%zu]': missing 'module'",
		    j->nccs);
	if (!(j->have & K_SRC) && copystr(j, &j->str[2], &j->strcap[2],
	    (const unsigned char *)"", 0) == 0)
		return 0;
	if ((rc = pdb_module_intern(j->db, j->str[1], &mod)) != 0 ||
	    (rc = pdb_cc_add(j->db, j->str[0], mod, j->str[2],
	    j->iscaf ? PDB_CC_CAF : 0, j->ccid, &cc)) != 0)
		return fail(j, rc == PDB_ENOMEM ? pdb_seterr(j->db, rc,
		    "out of memory") : rc);
	if ((rc = id_add(j, j->ccid, cc)) < 0)
		return nomem(j);
	if (rc > 0)
		return bad(j, "duplicate cost centre id %lld",
		    (long long)j->ccid);
	j->nccs++;
	return 1;
}

/* ---- metadata and the start of the stream ---- */

/* Keep metadata value v of field i, for put_meta(). */
static int
meta_value(struct js *j, int i, const char *v)
{
	j->metalate |= j->metadone;
	free(j->meta[i]);
	if ((j->meta[i] = strdup(v)) == NULL)
		return nomem(j);
	return 1;
}

/*
 * The metadata kept, in the Jansson reader's order: the source format,
 * the fields, then "processors" from "initial_capabilities" (GHC prints
 * RtsFlags.ParFlags.nCapabilities, which a non-threaded RTS leaves at 0,
 * for 1 processor).  At the start, and again at the end when some came
 * after the profile (which GHC never writes): those keys are taken out
 * first, so that the order holds.
 */
static int
put_meta(struct js *j, int again)
{
	char buf[32];
	unsigned i;
	int rc;

	if (again) {
		pdb_meta_unset(j->db, "source_format");
		for (i = 0; i < GHCJSON_NMETA; i++)
			pdb_meta_unset(j->db, pdbi_ghcjson_metafields[i].key);
		pdb_meta_unset(j->db, "processors");
	}
	if ((rc = pdb_meta_set(j->db, "source_format", "ghc-json")) != 0)
		return rc;
	for (i = 0; i < GHCJSON_NMETA; i++)
		if (j->meta[i] != NULL &&
		    (rc = pdb_meta_set(j->db, pdbi_ghcjson_metafields[i].key,
		    j->meta[i])) != 0)
			return rc;
	if (j->caps < 0)
		return 0;
	snprintf(buf, sizeof(buf), "%lld",
	    j->caps == 0 ? 1LL : (long long)j->caps);
	return pdb_meta_set(j->db, "processors", buf);
}

/*
 * Before the first node: the metadata in the Jansson reader's order, the
 * schema, then the sink's begin.
 */
static int
start(struct js *j)
{
	int rc;

	j->metadone = 1;
	if ((rc = put_meta(j, 0)) != 0)
		return rc;
	if ((rc = pdbi_ghcjson_schema(j->db, j->name)) != 0)
		return rc;
	if (j->sink->begin != NULL)
		return j->sink->begin(j->sink->arg, j->db);
	return 0;
}

/* ---- the node queue ---- */

static struct rec *
rec_at(struct js *j, uint64_t seq)
{
	return &j->q[seq - j->qbase];
}

static int
rec_new(struct js *j, int isexit, uint64_t *seq)
{
	struct rec *r;

	if (j->qhead > 0 && j->qhead == j->qn) {
		j->qbase += j->qn;
		j->qn = j->qhead = 0;
	}
	if (pdb_buf_reserve(&j->q, &j->qcap, (j->qn + 1) * sizeof(*j->q)))
		return -1;
	r = &j->q[j->qn];
	memset(r, 0, sizeof(*r));
	r->exit = (unsigned char)isexit;
	r->done = (unsigned char)isexit;
	if (seq != NULL)
		*seq = j->qbase + j->qn;
	j->qn++;
	return 0;
}

/* Send the complete records at the head of the queue. */
static int
flush(struct js *j)
{
	const struct pdb_sink *sink = j->sink;
	struct rec *r;
	uint32_t cc;
	int rc;

	if (!j->ccs_done)
		return 1;
	while (j->qhead < j->qn && j->q[j->qhead].done) {
		r = &j->q[j->qhead++];
		if (!j->metadone && (rc = start(j)) != 0)
			return fail(j, rc);
		if (r->exit) {
			if ((rc = sink->exit(sink->arg, j->db)) != 0)
				return fail(j, rc);
			continue;
		}
		if (id_find(j, r->id, &cc) != 0)
			return fail(j, pdb_seterr(j->db, PDB_EFORMAT,
			    "%s: profile node %zu: unknown cost centre id %lld",
			    j->name, r->nodeno, (long long)r->id));
		if ((rc = sink->enter(sink->arg, j->db, cc, r->v)) != 0)
			return fail(j, rc);
		ghcjson_sums_add(&j->sums, r->v);
	}
	return 1;
}

/* A profile node opens: its enter record. */
static int
node_start(struct js *j)
{
	struct level *l;
	uint64_t seq;

	if (rec_new(j, 0, &seq) != 0 || push(j, C_NODE) == 0)
		return nomem(j);
	l = top(j);
	l->seq = seq;
	l->nodeno = ++j->nodes;
	rec_at(j, seq)->nodeno = l->nodeno;
	return 1;
}

/* Whether node level l has all of its fields, or say what is missing. */
static int
node_check(struct js *j, struct level *l, int atend)
{
	static const struct {
		unsigned	 bit;
		const char	*name;
	} need[] = {
		{ K_ID, "id" }, { K_TICKS, "ticks" }, { K_ALLOC, "alloc" },
		{ K_ENTRIES, "entries" }, { K_CHILDREN, "children" }
	};
	unsigned i, have = (unsigned)l->n;

	for (i = 0; i < 5; i++)
		if (!(have & need[i].bit)) {
			if (!atend)
				return 0;
			return fail(j, pdb_seterr(j->db, PDB_EFORMAT,
			    "%s: profile node %zu: missing '%s'", j->name,
			    l->nodeno, need[i].name));
		}
	return 1;
}

/* ---- yajl's callbacks ---- */

enum vtype { V_NULL, V_BOOL, V_INT, V_DOUBLE, V_STRING, V_MAP, V_ARRAY };

static int	skip(struct js *, enum vtype);

/* A value in the top object, under key j->key. */
static int
top_value(struct js *j, enum vtype t, long long iv, double dv,
    const unsigned char *s, size_t len)
{
	char buf[48];
	int i = j->keyidx;

	if (strcmp(j->key, "cost_centres") == 0) {
		if (t != V_ARRAY)
			return bad(j, "'cost_centres' is not an array");
		j->ccs_seen = 1;
		return push(j, C_CCS);
	}
	if (strcmp(j->key, "profile") == 0) {
		if (t != V_MAP) {
			j->nodes++;
			return fail(j, pdb_seterr(j->db, PDB_EFORMAT,
			    "%s: profile node 1 is not an object", j->name));
		}
		j->profile_seen = 1;
		return node_start(j);
	}
	if (i < 0)
		return skip(j, t);
	if (t == V_NULL)
		return 1;
	switch (pdbi_ghcjson_metafields[i].type) {
	case GJ_STRING:
		if (t != V_STRING)
			return bad(j, "'%s' is not a string",
			    pdbi_ghcjson_metafields[i].field);
		if (copystr(j, &j->args, &j->argscap, s, len) == 0)
			return 0;
		return meta_value(j, i, j->args);
	case GJ_ARGS:
		if (t != V_ARRAY)
			return bad(j, "'%s' is not an array",
			    pdbi_ghcjson_metafields[i].field);
		j->argslen = 0;
		if (pdb_buf_reserve(&j->args, &j->argscap, 1) != 0)
			return nomem(j);
		j->args[0] = '\0';
		return push(j, C_ARGS);
	case GJ_NUMBER:
	case GJ_CAPS:
		if (t == V_INT) {
			snprintf(buf, sizeof(buf), "%lld", iv);
			if (pdbi_ghcjson_metafields[i].type == GJ_CAPS)
				j->caps = iv;
		} else if (t == V_DOUBLE)
			pdbi_ghcjson_real(buf, sizeof(buf), dv);
		else
			return bad(j, "'%s' is not a number",
			    pdbi_ghcjson_metafields[i].field);
		return meta_value(j, i, buf);
	}
	return 1;
}

/* A value in a cost centre, under key j->key. */
static int
cc_value(struct js *j, enum vtype t, long long iv, const unsigned char *s,
    size_t len)
{
	static const char *const fields[] = { "label", "module", "src_loc" };
	int k;

	if (strcmp(j->key, "id") == 0) {
		if (t != V_INT)
			return bad(j, "'cost_centres[%zu]': 'id' is not an "
			    "integer", j->nccs);
		j->ccid = iv;
		j->have |= K_ID;
		return 1;
	}
	for (k = 0; k < 3; k++)
		if (strcmp(j->key, fields[k]) == 0) {
			if (t != V_STRING)
				return bad(j, "'cost_centres[%zu]': '%s' is "
				    "not a string", j->nccs, fields[k]);
			j->have |= K_LABEL << k;
			return copystr(j, &j->str[k], &j->strcap[k], s, len);
		}
	if (strcmp(j->key, "is_caf") == 0) {
		if (t != V_BOOL && t != V_NULL)
			return bad(j, "'cost_centres[%zu]': 'is_caf' is not a "
			    "boolean", j->nccs);
		j->iscaf = t == V_BOOL && iv != 0;
		return 1;
	}
	return skip(j, t);
}

/* A value in a profile node, under key j->key. */
static int
node_value(struct js *j, struct level *l, enum vtype t, long long iv)
{
	const struct nodekey *key;
	struct rec *r;
	char what[64];
	int k = j->nodekey;

	if (k == NK_CHILDREN) {
		if (l->n & K_CHILDREN)
			return dup_key(j);
		if (t != V_ARRAY)
			return fail(j, pdb_seterr(j->db, PDB_EFORMAT,
			    "%s: profile node %zu: 'children' is not an array",
			    j->name, l->nodeno));
		l->n |= K_CHILDREN;
		/* GHC's order: the node is complete, send it. */
		if (node_check(j, l, 0)) {
			l->n |= K_DONE;
			rec_at(j, l->seq)->done = 1;
			if (flush(j) == 0)
				return 0;
		}
		return push(j, C_KIDS);
	}
	if (k < 0)
		return skip(j, t);
	key = &nodekeys[k];
	if (t != V_INT)
		return node_error(j, l->nodeno, key->name, "is not an "
		    "integer");
	if (l->n & key->bit)
		return dup_key(j);
	if (l->n & K_DONE)
		return node_error(j, l->nodeno, key->name, "after 'children'");
	/* GHC writes its counts unsigned: a negative one is damage, as
	 * the text reader finds it. */
	if (key->slot >= 0 && iv < 0) {
		snprintf(what, sizeof(what), "is negative (%lld)",
		    (long long)iv);
		return node_error(j, l->nodeno, key->name, what);
	}
	r = rec_at(j, l->seq);
	if (key->slot < 0)
		r->id = iv;
	else
		r->v[key->slot] = iv;
	l->n |= key->bit;
	return 1;
}

/* Every value comes here, with its type. */
static int
value(struct js *j, enum vtype t, long long iv, double dv,
    const unsigned char *s, size_t len)
{
	struct level *l = top(j);

	if (l == NULL) {
		if (j->started || t != V_MAP)
			return fail(j, pdb_seterr(j->db, PDB_EFORMAT,
			    "%s: not a GHC profile: the top level is not an "
			    "object", j->name));
		j->started = 1;
		return push(j, C_TOP);
	}
	switch (l->ctx) {
	case C_TOP:
		return top_value(j, t, iv, dv, s, len);
	case C_ARGS:
		if (t != V_STRING)
			return bad(j, "'%s[%zu]' is not a string",
			    pdbi_ghcjson_metafields[j->keyidx].field, l->n);
		if (pdb_buf_reserve(&j->args, &j->argscap, j->argslen +
		    len + 2) != 0)
			return nomem(j);
		if (l->n++ > 0)
			j->args[j->argslen++] = ' ';
		memcpy(j->args + j->argslen, s, len);
		j->argslen += len;
		j->args[j->argslen] = '\0';
		return 1;
	case C_CCS:
		if (t != V_MAP)
			return bad(j, "'cost_centres[%zu]' is not an object",
			    j->nccs);
		j->have = 0;
		j->iscaf = 0;
		return push(j, C_CC);
	case C_CC:
		return cc_value(j, t, iv, s, len);
	case C_NODE:
		return node_value(j, l, t, iv);
	case C_KIDS:
		if (t != V_MAP)
			return fail(j, pdb_seterr(j->db, PDB_EFORMAT,
			    "%s: profile node %zu is not an object", j->name,
			    j->nodes + 1));
		return node_start(j);
	case C_SKIP:
		return skip(j, t);
	}
	return 1;
}

static int
cb_null(void *ctx)
{
	return value(ctx, V_NULL, 0, 0, NULL, 0);
}

static int
cb_bool(void *ctx, int b)
{
	return value(ctx, V_BOOL, b, 0, NULL, 0);
}

/*
 * A number, as yajl's lexer found it: an integer if it has neither
 * fraction nor exponent, as Jansson decides.  Out of range is an error
 * in both, but Jansson's range reaches -2^63.
 */
static int
cb_number(void *ctx, const char *s, size_t len)
{
	struct js *j = ctx;
	int64_t i;
	double v;

	switch (pdb_json_integer(s, len, &i)) {
	case 1:
		return value(j, V_INT, i, 0, NULL, 0);
	case -1:
		return fail(j, text_error(j, yajl_get_bytes_consumed(j->h),
		    "integer out of range"));
	}
	if (pdb_buf_reserve(&j->num, &j->numcap, len + 1) != 0)
		return nomem(j);
	memcpy(j->num, s, len);
	j->num[len] = '\0';
	errno = 0;
	v = strtod(j->num, NULL);
	if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL))
		return fail(j, text_error(j, yajl_get_bytes_consumed(j->h),
		    "real number overflow"));
	return value(j, V_DOUBLE, 0, v, NULL, 0);
}

/*
 * Jansson refuses a string that holds a NUL ("\u0000") or is not
 * well-formed UTF-8; yajl takes both, and overlong forms, surrogates
 * and code points past U+10FFFF.  Most names are ASCII, so those are
 * looked at only from the first byte that is NUL or not ASCII.
 */
static int
check_string(struct js *j, const unsigned char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if ((unsigned char)(s[i] - 1) >= 0x7f)
			break;
	if (i == len)
		return 1;
	if (memchr(s + i, '\0', len - i) != NULL)
		return nul_error(j);
	if (pdb_utf8_valid(s + i, len - i) != len - i)
		return fail(j, text_error(j, yajl_get_bytes_consumed(j->h),
		    "invalid UTF-8 in a string"));
	return 1;
}

static int
cb_string(void *ctx, const unsigned char *s, size_t len)
{
	if (check_string(ctx, s, len) == 0)
		return 0;
	return value(ctx, V_STRING, 0, 0, s, len);
}

static int
cb_start_map(void *ctx)
{
	return value(ctx, V_MAP, 0, 0, NULL, 0);
}

static int
cb_start_array(void *ctx)
{
	return value(ctx, V_ARRAY, 0, 0, NULL, 0);
}

/* Double the chains and thread every entry again, oldest first. */
static int
rechain(struct js *j)
{
	size_t i, n = j->nchains ? 2 * j->nchains : 256, h;
	uint32_t *c;

	if ((c = malloc(n * sizeof(*c))) == NULL)
		return nomem(j);
	for (i = 0; i < n; i++)
		c[i] = KEY_NONE;
	for (i = 0; i < j->nkeys; i++) {
		h = j->keys[i].hash & (n - 1);
		j->keys[i].next = c[h];
		c[h] = (uint32_t)i;
	}
	free(j->chains);
	j->chains = c;
	j->nchains = n;
	return 1;
}

/*
 * Key j->key of the object at the top: refuse it if the object had it,
 * else put it on the key stack.  Entries of the top object are the
 * newest, so a chain is searched only as far as they go.
 */
static int
key_once(struct js *j, struct level *l)
{
	uint64_t h = hash_str(j->key);
	uint32_t depth = (uint32_t)j->depth, i;
	struct keyent *e;

	for (i = j->nchains ? j->chains[h & (j->nchains - 1)] : KEY_NONE;
	    i != KEY_NONE && i >= l->keys0; i = j->keys[i].next) {
		e = &j->keys[i];
		if (e->depth == depth && e->hash == h &&
		    e->len == j->keylen &&
		    memcmp(j->keychars + e->off, j->key, e->len) == 0)
			return dup_key(j);
	}
	if (j->nkeys >= UINT32_MAX - 1)
		return nomem(j);
	if (pdb_buf_reserve(&j->keys, &j->capkeys, (j->nkeys + 1) *
	    sizeof(*j->keys)) != 0 || pdb_buf_reserve(&j->keychars,
	    &j->capkeychars, j->nkeychars + j->keylen + 1) != 0)
		return nomem(j);
	if ((j->nkeys + 1) * 2 > j->nchains && rechain(j) == 0)
		return 0;
	e = &j->keys[j->nkeys];
	e->hash = h;
	e->off = j->nkeychars;
	e->len = j->keylen;
	e->depth = depth;
	e->next = j->chains[h & (j->nchains - 1)];
	j->chains[h & (j->nchains - 1)] = (uint32_t)j->nkeys++;
	memcpy(j->keychars + e->off, j->key, e->len);
	j->nkeychars += e->len;
	return 1;
}

static int
cb_key(void *ctx, const unsigned char *key, size_t len)
{
	struct js *j = ctx;
	struct level *l = top(j);
	unsigned i;

	if (check_string(j, key, len) == 0 ||
	    copystr(j, &j->key, &j->keycap, key, len) == 0)
		return 0;
	j->keylen = len;
	j->nodekey = -1;
	if (l != NULL && l->ctx == C_NODE)
		for (i = 0; i < NNODEKEYS; i++)
			if (len == nodekeys[i].len &&
			    memcmp(key, nodekeys[i].name, len) == 0) {
				j->nodekey = (int)i;
				break;
			}
	/* A node's own keys are checked as bits of its level. */
	if (l != NULL && j->nodekey < 0 && key_once(j, l) == 0)
		return 0;
	j->keyidx = -1;
	if (l != NULL && l->ctx == C_TOP)
		for (i = 0; i < GHCJSON_NMETA; i++)
			if (strcmp(j->key,
			    pdbi_ghcjson_metafields[i].field) == 0)
				j->keyidx = (int)i;
	return 1;
}

/* The end of an object or array. */
static int
close_level(struct js *j)
{
	struct level *l = top(j);
	struct rec *r;
	uint64_t seq;

	switch (l->ctx) {
	case C_ARGS:
		pop(j);
		return meta_value(j, j->keyidx, j->args);
	case C_CCS:
		pop(j);
		j->ccs_done = 1;
		return flush(j);
	case C_CC:
		pop(j);
		return cc_done(j);
	case C_NODE:
		if (node_check(j, l, 1) == 0)
			return 0;
		seq = l->seq;
		pop(j);
		if (!(l->n & K_DONE)) {
			r = rec_at(j, seq);
			r->done = 1;
		}
		if (rec_new(j, 1, NULL) != 0)
			return nomem(j);
		return flush(j);
	default:
		pop(j);
		if (j->depth == 0) {
			j->closed = 1;
			j->closed_at = yajl_get_bytes_consumed(j->h);
		}
		return 1;
	}
}

static int
cb_end(void *ctx)
{
	return close_level(ctx);
}

static const yajl_callbacks callbacks = {
	cb_null, cb_bool, NULL, NULL, cb_number, cb_string,
	cb_start_map, cb_key, cb_end, cb_start_array, cb_end
};

/* Count the lines of chunk[0..len), which starts at file offset base. */
static void
count_lines(struct js *j, const unsigned char *chunk, size_t len)
{
	const unsigned char *p = chunk, *nl;

	while ((nl = memchr(p, '\n', len - (size_t)(p - chunk))) != NULL) {
		j->line++;
		j->linestart = j->chunkbase + (uint64_t)(nl - chunk) + 1;
		p = nl + 1;
	}
}

/* Where yajl is in the current chunk, as line and column. */
static void
position(struct js *j, size_t at, unsigned long long *line,
    unsigned long long *col)
{
	const unsigned char *p, *nl;
	uint64_t l = j->line, start = j->linestart;

	for (p = j->chunk; (nl = memchr(p, '\n', at -
	    (size_t)(p - j->chunk))) != NULL; p = nl + 1) {
		l++;
		start = j->chunkbase + (uint64_t)(nl - j->chunk) + 1;
	}
	*line = l;
	*col = j->chunkbase + at - start;
}

/*
 * "file:line:column: what", at offset at of the chunk being parsed, less
 * back bytes (an escape begun in the chunk before, so on the same line).
 */
static int
text_error_back(struct js *j, size_t at, size_t back, const char *what)
{
	unsigned long long line, col;

	position(j, at, &line, &col);
	return pdb_seterr(j->db, PDB_EFORMAT, "%s:%llu:%llu: %s", j->name,
	    line, col - back, what);
}

static int
text_error(struct js *j, size_t at, const char *what)
{
	return text_error_back(j, at, 0, what);
}

/*
 * A node's field is wrong: where the parser is, which in a file of one
 * long line (as GHC may write it) the column alone finds, and which
 * node, as the reader of small files names it.
 */
static int
node_error(struct js *j, size_t nodeno, const char *field, const char *what)
{
	char msg[256];

	snprintf(msg, sizeof(msg), "profile node %zu: '%s' %s", nodeno,
	    field, what);
	return fail(j, text_error(j, yajl_get_bytes_consumed(j->h), msg));
}

static int
nul_error(struct js *j)
{
	return fail(j, text_error(j, yajl_get_bytes_consumed(j->h),
	    "NUL character in a string"));
}

/*
 * A value we do not need, of type t: an object or array opens a level,
 * for the keys of the objects within.  Levels nested in it cost memory
 * however little text they take ("[[[[..."): past Jansson's limit on
 * depth the stream refuses them, as the reader of small files does.
 */
static int
skip(struct js *j, enum vtype t)
{
	struct level *p = top(j);
	size_t depth = p != NULL && p->ctx == C_SKIP ? p->n + 1 : 1;

	if (t != V_MAP && t != V_ARRAY)
		return 1;
	/* The top object is one of Jansson's levels. */
	if (depth >= SKIP_DEPTH_MAX)
		return fail(j, text_error(j, yajl_get_bytes_consumed(j->h),
		    t == V_MAP ? "maximum parsing depth reached near '{'" :
		    "maximum parsing depth reached near '['"));
	if (push(j, C_SKIP) == 0)
		return 0;
	top(j)->n = depth;
	return 1;
}

/* The key just read was in its object already: as Jansson says it. */
static int
dup_key(struct js *j)
{
	return fail(j, text_error(j, yajl_get_bytes_consumed(j->h),
	    "duplicate object key"));
}

static int
hex4(const unsigned char *p, unsigned *out)
{
	unsigned v = 0, i, d;

	for (i = 0; i < 4; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			d = p[i] - '0';
		else if ((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'f')
			d = (p[i] | 0x20) - 'a' + 10;
		else
			return 0;
		v = v << 4 | d;
	}
	*out = v;
	return 1;
}

/*
 * The escape at p (p[0] is a backslash), n bytes there: its length, or
 * 0 when it needs more bytes; *bad tells an unpaired UTF-16 surrogate.
 */
static size_t
escape_len(const unsigned char *p, size_t n, int *bad)
{
	unsigned cp, lo;

	*bad = 0;
	if (n < 2)
		return 0;
	if (p[1] != 'u')
		return 2;
	if (n < 6)
		return 0;
	if (!hex4(p + 2, &cp))
		return 2;		/* yajl refuses it */
	if (cp >= 0xdc00 && cp <= 0xdfff) {
		*bad = 1;
		return 6;
	}
	if (cp < 0xd800 || cp > 0xdbff)
		return 6;
	if (n < 12)
		return 0;
	if (p[6] != '\\' || p[7] != 'u' || !hex4(p + 8, &lo) ||
	    lo < 0xdc00 || lo > 0xdfff) {
		*bad = 1;
		return 6;
	}
	return 12;
}

/*
 * yajl turns an unpaired surrogate escape ("\ud80d" alone) into '?' or
 * invalid UTF-8, where Jansson refuses it: find the first in chunk, as
 * an offset, or len.  An escape cut by the chunk's end waits in j->esc
 * for the next chunk; found bad there, it is reported at 0, with
 * j->esc_back saying how far before the chunk it began.
 */
static size_t
surrogates(struct js *j, const unsigned char *chunk, size_t len)
{
	const unsigned char *p = chunk, *end = chunk + len;
	size_t k, take, n;
	int bad;

	if (j->nesc > 0) {
		take = sizeof(j->esc) - j->nesc;
		if (take > len)
			take = len;
		memcpy(j->esc + j->nesc, chunk, take);
		n = j->nesc + take;
		if ((k = escape_len(j->esc, n, &bad)) == 0) {
			j->nesc = n;
			return len;
		}
		if (bad) {
			j->esc_back = j->nesc;
			j->nesc = 0;
			return 0;
		}
		/*
		 * A \u without four hex digits ends within the bytes kept
		 * (yajl refuses it): scan the chunk from its start.
		 */
		p = k > j->nesc ? chunk + (k - j->nesc) : chunk;
		j->nesc = 0;
	}
	while (p < end && (p = memchr(p, '\\', (size_t)(end - p))) != NULL) {
		if ((k = escape_len(p, (size_t)(end - p), &bad)) == 0) {
			j->nesc = (size_t)(end - p);
			memcpy(j->esc, p, j->nesc);
			return len;
		}
		if (bad)
			return (size_t)(p - chunk);
		p += k;
	}
	return len;
}

/*
 * The offset of the first byte of chunk[from..len) that is not JSON
 * white space, or len.  After the top-level value, yajl refuses what is
 * there only when it is a whole token: an unterminated string or a cut
 * "tru" waits for more, and the end of the file ends the wait quietly.
 */
static size_t
not_space(const unsigned char *chunk, size_t from, size_t len)
{
	while (from < len && (chunk[from] == ' ' || chunk[from] == '\t' ||
	    chunk[from] == '\n' || chunk[from] == '\r'))
		from++;
	return from;
}

/* yajl's message for where it stopped, as "file:line:column: text". */
static int
syntax_error(struct js *j, struct pdb_yajl *y, const unsigned char *chunk,
    size_t len)
{
	char text[160];
	size_t n, at = yajl_get_bytes_consumed(y->h);

	pdb_yajl_message(y, chunk, len, text, sizeof(text));
	if (y->nomem)
		return pdb_seterr(j->db, PDB_ENOMEM, "out of memory");
	n = strlen(text);
	while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '.'))
		text[--n] = '\0';
	if (at > len)
		at = len;
	j->chunk = chunk;
	return text_error(j, at, text);
}

int
pdb_ghcjson_stream(struct pdb_input *in, struct pdb *db,
    const struct pdb_sink *sink)
{
	struct js j;
	struct pdb_yajl y;
	yajl_status st = yajl_status_ok;
	const unsigned char *chunk;
	size_t len, i, bad, ws, sg;
	long got;
	int rc = 0;

	memset(&j, 0, sizeof(j));
	j.in = in;
	j.db = db;
	j.sink = sink;
	j.name = in->name;
	j.caps = -1;
	j.line = 1;
	j.linestart = pdb_in_offset(in);
	if (pdb_yajl_open(&y, &callbacks, &j) != 0) {
		pdb_yajl_close(&y);
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	}
	j.h = y.h;
	for (;;) {
		if (in->pos >= in->len) {
			if ((got = pdb_in_fill(in, CHUNK)) < 0) {
				rc = pdb_in_seterr(in, db);
				goto out;
			}
			if (got == 0)
				break;
		}
		chunk = in->buf + in->pos;
		len = in->len - in->pos;
		if (len > CHUNK)
			len = CHUNK;	/* whatever the buffer holds */
		j.chunkbase = pdb_in_offset(in);
		j.chunk = chunk;
		ws = pdb_json_ff_or_vt(chunk, len);
		sg = surrogates(&j, chunk, len);
		bad = ws < sg ? ws : sg;
		st = pdb_yajl_parse(&y, chunk, bad);
		if (st != yajl_status_ok)
			break;
		if (bad < len) {
			rc = ws < sg ? text_error(&j, ws, "invalid token (form "
			    "feed or vertical tab)") : text_error_back(&j, sg,
			    j.esc_back, "invalid Unicode escape (an unpaired "
			    "surrogate)");
			goto out;
		}
		if (j.closed && (i = not_space(chunk, j.closed == 1 ?
		    j.closed_at : 0, len)) < len) {
			rc = text_error(&j, i, "trailing garbage after the "
			    "profile");
			goto out;
		}
		if (j.closed == 1)
			j.closed = 2;	/* the rest of the file: from 0 */
		count_lines(&j, chunk, len);
		in->pos += len;
	}
	if (st == yajl_status_ok) {
		chunk = in->buf + in->pos;
		len = 0;
		j.chunkbase = pdb_in_offset(in);
		st = pdb_yajl_complete(&y);
	}
	if (y.nomem) {
		rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
		goto out;
	}
	if (st == yajl_status_client_canceled) {
		rc = j.rc ? j.rc : pdb_seterr(db, PDB_EFORMAT, "%s: stopped",
		    j.name);
		goto out;
	}
	if (st != yajl_status_ok) {
		rc = syntax_error(&j, &y, chunk, len);
		goto out;
	}
	if (!j.ccs_seen) {
		rc = pdb_seterr(db, PDB_EFORMAT,
		    "%s: not a GHC profile: no 'cost_centres'", j.name);
		goto out;
	}
	if (!j.profile_seen) {
		rc = pdb_seterr(db, PDB_EFORMAT,
		    "%s: not a GHC profile: no 'profile'", j.name);
		goto out;
	}
	if (flush(&j) == 0) {
		rc = j.rc;
		goto out;
	}
	if (!j.metadone && (rc = start(&j)) != 0)
		goto out;
	if (j.metalate && (rc = put_meta(&j, 1)) != 0)
		goto out;
	pdbi_ghcjson_totals(db, j.name, &j.sums);
	rc = sink->end != NULL ? sink->end(sink->arg, db) : PDB_OK;
out:
	pdb_yajl_close(&y);
	free(j.stack);
	free(j.key);
	free(j.keys);
	free(j.keychars);
	free(j.chains);
	for (i = 0; i < GHCJSON_NMETA; i++)
		free(j.meta[i]);
	free(j.args);
	free(j.num);
	for (i = 0; i < 3; i++)
		free(j.str[i]);
	free(j.ids);
	free(j.q);
	return rc;
}
