/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The profile handle: errors and warnings, metadata, the metric schema,
 * modules and cost centres.  The stack tree lives in tree.c and push.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

struct pdb *
pdb_new(void)
{
	struct pdb *db;

	if ((db = pdbi_calloc(1, sizeof(*db))) == NULL)
		return NULL;
	db->magic = PDB_MAGIC;
	db->unzeroed = PDB_NONE;
	return db;
}

void
pdb_free(struct pdb *db)
{
	size_t i;

	if (db == NULL || db->magic != PDB_MAGIC)
		return;
	for (i = 0; i < db->nmeta; i++) {
		free(db->meta[i].key);
		free(db->meta[i].value);
	}
	free(db->meta);
	for (i = 0; i < db->nmetrics; i++) {
		free((char *)db->metrics[i].name);
		free((char *)db->metrics[i].unit);
	}
	free(db->metrics);
	free(db->modules);
	free(db->ccs);
	pdbi_strings_free(&db->names);
	free(db->cc_hash);
	free(db->mod_hash);
	free(db->nodes);
	for (i = 0; i < db->nmetrics; i++)
		free(db->cols[i].v);
	free(db->cols);
	pdbi_side_free(&db->side);
	free(db->scratch);
	pdbi_index_free(db);
	free(db->namebuf);
	db->magic = 0;
	free(db);
}

const char *
pdb_version(void)
{
	return PDB_VERSION_STRING;
}

const char *
pdb_errmsg(const struct pdb *db)
{
	if (db == NULL)
		return "out of memory";
	if (db->errcode == PDB_OK)
		return "no error";
	return db->errmsg;
}

int
pdb_errcode(const struct pdb *db)
{
	return db ? db->errcode : PDB_ENOMEM;
}

/*
 * Messages quote names from the file, which may hold any byte: keep them
 * on one line and free of terminal escapes.
 */
static void
scrub(char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

int
pdb_seterr(struct pdb *db, int code, const char *fmt, ...)
{
	va_list ap;

	if (db == NULL)
		return code;
	db->errcode = code;
	va_start(ap, fmt);
	vsnprintf(db->errmsg, sizeof(db->errmsg), fmt, ap);
	va_end(ap);
	scrub(db->errmsg);
	return code;
}

void
pdb_set_warn_handler(struct pdb *db, pdb_warn_fn *fn, void *arg)
{
	db->warn = fn;
	db->warn_arg = arg;
}

void
pdb_warn(struct pdb *db, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (db == NULL || db->warn == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	scrub(msg);
	db->warn(db->warn_arg, msg);
}

static int
nomem(struct pdb *db)
{
	return pdb_seterr(db, PDB_ENOMEM, "out of memory");
}

/* ---- metadata ---- */

int
pdb_meta_set(struct pdb *db, const char *key, const char *value)
{
	struct pdbi_meta *m;
	char *v;
	size_t i;

	if (key == NULL || value == NULL)
		return pdb_seterr(db, PDB_EINVAL, "pdb_meta_set: NULL key or "
		    "value");
	if ((v = pdbi_strdup(value)) == NULL)
		return nomem(db);
	for (i = 0; i < db->nmeta; i++) {
		if (strcmp(db->meta[i].key, key) == 0) {
			free(db->meta[i].value);
			db->meta[i].value = v;
			return PDB_OK;
		}
	}
	if (pdbi_grow(&db->meta, &db->capmeta, db->nmeta + 1,
	    sizeof(*db->meta)) != PDB_OK) {
		free(v);
		return nomem(db);
	}
	m = &db->meta[db->nmeta];
	if ((m->key = pdbi_strdup(key)) == NULL) {
		free(v);
		return nomem(db);
	}
	m->value = v;
	db->nmeta++;
	return PDB_OK;
}

void
pdb_meta_unset(struct pdb *db, const char *key)
{
	size_t i;

	for (i = 0; key != NULL && i < db->nmeta; i++)
		if (strcmp(db->meta[i].key, key) == 0) {
			free(db->meta[i].key);
			free(db->meta[i].value);
			memmove(&db->meta[i], &db->meta[i + 1],
			    (db->nmeta - i - 1) * sizeof(*db->meta));
			db->nmeta--;
			return;
		}
}

const char *
pdb_meta_get(const struct pdb *db, const char *key)
{
	size_t i;

	for (i = 0; i < db->nmeta; i++)
		if (strcmp(db->meta[i].key, key) == 0)
			return db->meta[i].value;
	return NULL;
}

size_t
pdb_meta_count(const struct pdb *db)
{
	return db->nmeta;
}

void
pdb_meta_at(const struct pdb *db, size_t i, const char **key,
    const char **value)
{
	*key = db->meta[i].key;
	*value = db->meta[i].value;
}

/* ---- metrics ---- */

int
pdb_metric_add(struct pdb *db, const char *name, const char *unit,
    enum pdb_kind kind, uint32_t flags, unsigned *out)
{
	struct pdb_metric *m;
	int64_t *scratch;
	char *n, *u;

	/* A metric is named: it is found and written by its name. */
	if (name == NULL)
		return pdb_seterr(db, PDB_EINVAL, "pdb_metric_add: no name");
	if (unit == NULL)
		unit = "";
	if (db->nnodes > 0)
		return pdb_seterr(db, PDB_EINVAL,
		    "metric '%s' added after the tree was started", name);
	if (pdb_metric_find(db, name) >= 0)
		return pdb_seterr(db, PDB_EFORMAT, "metric '%s' defined twice",
		    name);
	if (kind != PDB_COST && kind != PDB_COUNT)
		return pdb_seterr(db, PDB_EINVAL, "metric '%s': unknown kind "
		    "%d", name, (int)kind);
	/* Bits no format defines could not be written and read back. */
	if ((flags & ~PDB_METRIC_APPROX) != 0)
		return pdb_seterr(db, PDB_EINVAL, "metric '%s': unknown flags "
		    "0x%lx", name, (unsigned long)flags);
	if (db->nmetrics >= PDB_METRICS_MAX)
		return pdb_seterr(db, PDB_EFORMAT, "too many metrics");
	if (pdbi_grow(&db->metrics, &db->capmetrics, db->nmetrics + 1,
	    sizeof(*db->metrics)) != PDB_OK ||
	    pdbi_grow(&db->cols, &db->capcols, db->nmetrics + 1,
	    sizeof(*db->cols)) != PDB_OK)
		return nomem(db);
	if ((scratch = pdbi_realloc(db->scratch, (db->nmetrics + 1) *
	    sizeof(*scratch))) == NULL)
		return nomem(db);
	db->scratch = scratch;
	n = pdbi_strdup(name);
	u = pdbi_strdup(unit ? unit : "");
	if (n == NULL || u == NULL) {
		free(n);
		free(u);
		return nomem(db);
	}
	m = &db->metrics[db->nmetrics];
	m->name = n;
	m->unit = u;
	m->kind = kind;
	m->flags = flags;
	/* A new column is all zero and takes no room. */
	pdbi_col_init(&db->cols[db->nmetrics]);
	if (out)
		*out = db->nmetrics;
	db->nmetrics++;
	return PDB_OK;
}

unsigned
pdb_metric_count(const struct pdb *db)
{
	return db->nmetrics;
}

const struct pdb_metric *
pdb_metric(const struct pdb *db, unsigned i)
{
	return &db->metrics[i];
}

int
pdb_metric_find(const struct pdb *db, const char *name)
{
	unsigned i;

	for (i = 0; name != NULL && i < db->nmetrics; i++)
		if (strcmp(db->metrics[i].name, name) == 0)
			return (int)i;
	return -1;
}

unsigned
pdb_metric_default(const struct pdb *db)
{
	unsigned i;
	int m;

	if ((m = pdb_metric_find(db, "ticks")) >= 0 ||
	    (m = pdb_metric_find(db, "samples")) >= 0)
		return (unsigned)m;
	for (i = 0; i < db->nmetrics; i++)
		if (db->metrics[i].kind == PDB_COST)
			return i;
	return 0;
}

void
pdb_metric_set_flags(struct pdb *db, unsigned i, uint32_t flags)
{
	if (i < db->nmetrics)
		db->metrics[i].flags = flags & PDB_METRIC_APPROX;
}

/*
 * Make the interning table *t, of *cap slots of indices, room for count
 * entries at most half full: when it has not, a bigger one, empty, with
 * the n entries there are put back by insert() in index order.  min is
 * the first size.
 */
static int
table_reserve(struct pdb *db, uint32_t **t, size_t *cap, size_t min,
    size_t count, size_t n, void (*insert)(struct pdb *, uint32_t))
{
	size_t ncap, i;
	uint32_t *nt;

	if (*t != NULL && count * 2 <= *cap)
		return PDB_OK;
	ncap = *cap ? *cap : min;
	while (count * 2 > ncap)
		ncap *= 2;
	if ((nt = pdbi_malloc(ncap * sizeof(*nt))) == NULL)
		return PDB_ENOMEM;
	for (i = 0; i < ncap; i++)
		nt[i] = PDB_NONE;
	free(*t);
	*t = nt;
	*cap = ncap;
	for (i = 0; i < n; i++)
		insert(db, (uint32_t)i);
	return PDB_OK;
}

/* Enter index idx, of hash h, in table t of cap slots, which has room. */
static void
table_put(uint32_t *t, size_t cap, uint64_t h, uint32_t idx)
{
	size_t i, mask = cap - 1;

	for (i = (size_t)h & mask; t[i] != PDB_NONE; i = (i + 1) & mask)
		;
	t[i] = idx;
}

/* ---- modules ---- */

/*
 * The modules by name, for pdb_module_intern(): made when it is first
 * needed, then kept by pdb_module_add().  Linear probing over modules
 * entered in index order finds the first of two with one name, as a
 * scan of the list did; the scan made reading stacks quadratic in the
 * modules (1.5 MB of folded stacks with 80,000 took 10 s).
 */
static void
mod_hash_insert(struct pdb *db, uint32_t mod)
{
	const char *name = db->modules[mod];

	table_put(db->mod_hash, db->mod_hash_cap,
	    pdbi_hash_bytes(name, strlen(name), 0), mod);
}

static int
mod_hash_reserve(struct pdb *db, size_t count)
{
	return table_reserve(db, &db->mod_hash, &db->mod_hash_cap, 64, count,
	    db->nmodules, mod_hash_insert);
}

/* The first module named name, or PDB_NONE; the table must exist. */
static uint32_t
mod_hash_find(const struct pdb *db, const char *name)
{
	size_t i, mask = db->mod_hash_cap - 1;
	uint32_t m;

	for (i = (size_t)pdbi_hash_bytes(name, strlen(name), 0) & mask;
	    (m = db->mod_hash[i]) != PDB_NONE; i = (i + 1) & mask)
		if (strcmp(db->modules[m], name) == 0)
			return m;
	return PDB_NONE;
}

int
pdb_module_add(struct pdb *db, const char *name, uint32_t *out)
{
	char *s;

	if (name == NULL)
		name = "";
	if (db->nmodules >= UINT32_MAX - 1)
		return pdb_seterr(db, PDB_EFORMAT, "too many modules");
	if (pdbi_grow(&db->modules, &db->capmodules, db->nmodules + 1,
	    sizeof(*db->modules)) != PDB_OK ||
	    (db->mod_hash != NULL && mod_hash_reserve(db, db->nmodules + 1) !=
	    PDB_OK) || (s = pdbi_strings_dup(&db->names, name)) == NULL)
		return nomem(db);
	db->modules[db->nmodules] = s;
	if (out)
		*out = db->nmodules;
	db->nmodules++;
	if (db->mod_hash != NULL)
		mod_hash_insert(db, db->nmodules - 1);
	return PDB_OK;
}

int
pdb_module_intern(struct pdb *db, const char *name, uint32_t *out)
{
	uint32_t mod;

	if (name == NULL)
		name = "";
	if (mod_hash_reserve(db, (size_t)db->nmodules + 1) != PDB_OK)
		return nomem(db);
	if ((mod = mod_hash_find(db, name)) == PDB_NONE)
		return pdb_module_add(db, name, out);
	if (out)
		*out = mod;
	return PDB_OK;
}

uint32_t
pdb_module_count(const struct pdb *db)
{
	return db->nmodules;
}

const char *
pdb_module_name(const struct pdb *db, uint32_t i)
{
	return i < db->nmodules ? db->modules[i] : "";
}

/* ---- cost centres ---- */

static uint64_t
cc_key_hash(const char *label, const char *module, const char *src)
{
	uint64_t h;

	h = pdbi_hash_bytes(label, strlen(label) + 1, 0);
	h = pdbi_hash_bytes(module, strlen(module) + 1, h);
	return pdbi_hash_bytes(src, strlen(src) + 1, h);
}

static void
cc_hash_insert(struct pdb *db, uint32_t cc)
{
	const struct pdbi_ccrec *r = &db->ccs[cc];

	table_put(db->cc_hash, db->cc_hash_cap,
	    cc_key_hash(r->label, db->modules[r->module], r->src), cc);
}

static int
cc_hash_reserve(struct pdb *db, size_t count)
{
	return table_reserve(db, &db->cc_hash, &db->cc_hash_cap, 256, count,
	    db->nccs, cc_hash_insert);
}

int
pdb_cc_add(struct pdb *db, const char *label, uint32_t mod, const char *src,
    uint32_t flags, int64_t profile_id, uint32_t *out)
{
	struct pdbi_ccrec *r;

	if (label == NULL)
		label = "";
	if (src == NULL)
		src = "";
	if (mod >= db->nmodules)
		return pdb_seterr(db, PDB_EINVAL, "module index %u out of range",
		    (unsigned)mod);
	if ((flags & ~(PDB_CC_CAF | PDB_CC_SYNTHETIC)) != 0)
		return pdb_seterr(db, PDB_EINVAL, "cost centre '%s': unknown "
		    "flags 0x%lx", label, (unsigned long)flags);
	if (db->nccs >= UINT32_MAX - 1)
		return pdb_seterr(db, PDB_EFORMAT, "too many cost centres");
	if (pdbi_grow(&db->ccs, &db->capccs, db->nccs + 1,
	    sizeof(*db->ccs)) != PDB_OK ||
	    (db->cc_hash != NULL && cc_hash_reserve(db, db->nccs + 1) != PDB_OK))
		return nomem(db);
	r = &db->ccs[db->nccs];
	r->label = pdbi_strings_dup(&db->names, label);
	r->src = pdbi_strings_dup(&db->names, src);
	/*
	 * pdb_cc_fullname() has no way to report an error: make its
	 * buffer big enough for this name now.
	 */
	if (r->label == NULL || r->src == NULL ||
	    pdbi_grow(&db->namebuf, &db->namecap, strlen(db->modules[mod]) +
	    strlen(r->label) + 2, 1) != PDB_OK)
		return nomem(db);
	r->module = mod;
	r->flags = flags;
	r->profile_id = profile_id;
	db->nccs++;
	if (db->cc_hash != NULL)
		cc_hash_insert(db, db->nccs - 1);
	if (out)
		*out = db->nccs - 1;
	return PDB_OK;
}

int
pdb_cc_intern(struct pdb *db, const char *label, const char *module,
    const char *src, uint32_t flags, uint32_t *out)
{
	const struct pdbi_ccrec *r;
	size_t i, mask;
	uint32_t c, mod;
	int rc;

	if (label == NULL)
		label = "";
	if (module == NULL)
		module = "";
	if (src == NULL)
		src = "";
	if (cc_hash_reserve(db, db->nccs + 1) != PDB_OK)
		return nomem(db);
	mask = db->cc_hash_cap - 1;
	for (i = cc_key_hash(label, module, src) & mask;
	    (c = db->cc_hash[i]) != PDB_NONE; i = (i + 1) & mask) {
		r = &db->ccs[c];
		/* A made-up cost centre is never a real one of its name:
		 * a folded frame "(root)" is not the synthetic root. */
		if (strcmp(r->label, label) == 0 && strcmp(r->src, src) == 0 &&
		    strcmp(db->modules[r->module], module) == 0 &&
		    ((r->flags ^ flags) & PDB_CC_SYNTHETIC) == 0) {
			*out = c;
			return PDB_OK;
		}
	}
	if ((rc = pdb_module_intern(db, module, &mod)) != PDB_OK)
		return rc;
	return pdb_cc_add(db, label, mod, src, flags, -1, out);
}

uint32_t
pdb_cc_count(const struct pdb *db)
{
	return db->nccs;
}

void
pdb_cc(const struct pdb *db, uint32_t i, struct pdb_cc *cc)
{
	const struct pdbi_ccrec *r = &db->ccs[i];

	cc->label = r->label;
	cc->module = db->modules[r->module];
	cc->src = r->src;
	cc->module_index = r->module;
	cc->flags = r->flags;
	cc->profile_id = r->profile_id;
}

const char *
pdb_cc_label(const struct pdb *db, uint32_t i)
{
	return db->ccs[i].label;
}

const char *
pdb_cc_module(const struct pdb *db, uint32_t i)
{
	return db->modules[db->ccs[i].module];
}

uint32_t
pdb_cc_flags(const struct pdb *db, uint32_t i)
{
	return db->ccs[i].flags;
}

const char *
pdb_cc_fullname(const struct pdb *db, uint32_t i)
{
	const char *label = db->ccs[i].label, *mod = pdb_cc_module(db, i);
	struct pdb *mdb = (struct pdb *)db;	/* the name buffer is a cache */
	size_t ll = strlen(label), ml = strlen(mod);

	if (ml == 0)
		return label;
	/* pdb_cc_add() made the buffer big enough: this cannot fail. */
	if (pdbi_grow(&mdb->namebuf, &mdb->namecap, ml + ll + 2, 1) != PDB_OK)
		return label;
	memcpy(mdb->namebuf, mod, ml);
	mdb->namebuf[ml] = '.';
	memcpy(mdb->namebuf + ml + 1, label, ll + 1);
	return mdb->namebuf;
}
