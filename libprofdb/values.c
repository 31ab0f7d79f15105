/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The values of the nodes, a column a metric, each of the narrowest type
 * that has held all its values (pdb_int.h, "How values are stored").
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

/*
 * In the order of enum pdbi_type: a column only ever moves down it.  A
 * narrow type's largest value is its escape (pdb_int.h).
 */
static const struct {
	int64_t		 lo, hi;	/* the values an element holds */
	int64_t		 esc;
	unsigned	 size;		/* bytes an element */
} pdbi_types[] = {
	{ 0, 0, 0, 0 },
	{ 0, UINT8_MAX - 1, UINT8_MAX, 1 },
	{ INT8_MIN, INT8_MAX - 1, INT8_MAX, 1 },
	{ 0, UINT16_MAX - 1, UINT16_MAX, 2 },
	{ INT16_MIN, INT16_MAX - 1, INT16_MAX, 2 },
	{ 0, UINT32_MAX - 1, UINT32_MAX, 4 },
	{ INT32_MIN, INT32_MAX - 1, INT32_MAX, 4 },
	{ INT64_MIN, INT64_MAX, 0, 8 },
};

#define SIDE_EMPTY	UINT64_MAX
#define SIDE_SHARE	64	/* a column escapes at most 1/64 of the nodes */
#define SIDE_MIN	16	/* and 16 more, for small trees */

/* ---- the side table: (metric, node) -> value, linear probing ---- */

static uint64_t
side_key(uint32_t n, unsigned m)
{
	return (uint64_t)m << 32 | n;
}

static size_t
side_home(uint64_t key, size_t cap)
{
	return (size_t)pdbi_mix64(key) & (cap - 1);
}

/* The slot of key, or of the empty slot where it would go. */
static size_t
side_find(const struct pdbi_side *t, uint64_t key)
{
	size_t i;

	for (i = side_home(key, t->cap); t->keys[i] != SIDE_EMPTY &&
	    t->keys[i] != key; i = (i + 1) & (t->cap - 1))
		;
	return i;
}

int64_t
pdbi_side_get(const struct pdb *db, uint32_t n, unsigned m)
{
	const struct pdbi_side *t = &db->side;

	return t->vals[side_find(t, side_key(n, m))];
}

/* Make room for more new keys.  Fails only for memory. */
static int
side_reserve(struct pdbi_side *t, size_t more)
{
	uint64_t *keys;
	int64_t *vals;
	size_t cap, i, j;

	if ((t->count + more) * 4 <= t->cap * 3)
		return PDB_OK;
	for (cap = t->cap ? t->cap * 2 : 64; (t->count + more) * 4 > cap * 3;
	    cap *= 2)
		if (cap > SIZE_MAX / 32)
			return PDB_ENOMEM;
	if ((keys = pdbi_malloc(cap * sizeof(*keys))) == NULL)
		return PDB_ENOMEM;
	if ((vals = pdbi_malloc(cap * sizeof(*vals))) == NULL) {
		free(keys);
		return PDB_ENOMEM;
	}
	for (i = 0; i < cap; i++)
		keys[i] = SIDE_EMPTY;
	for (i = 0; i < t->cap; i++) {
		if (t->keys[i] == SIDE_EMPTY)
			continue;
		for (j = side_home(t->keys[i], cap); keys[j] != SIDE_EMPTY;
		    j = (j + 1) & (cap - 1))
			;
		keys[j] = t->keys[i];
		vals[j] = t->vals[i];
	}
	free(t->keys);
	free(t->vals);
	t->keys = keys;
	t->vals = vals;
	t->cap = cap;
	return PDB_OK;
}

/* Set key's value, adding the key where there is room. */
static void
side_set(struct pdbi_side *t, uint64_t key, int64_t v)
{
	size_t i = side_find(t, key);

	if (t->keys[i] == SIDE_EMPTY) {
		t->keys[i] = key;
		t->count++;
	}
	t->vals[i] = v;
}

/*
 * Take key's value out: the keys after it in its run move back where
 * their probe would find them (deletion without tombstones).
 */
static int64_t
side_take(struct pdbi_side *t, uint64_t key)
{
	size_t i = side_find(t, key), j = i, h, mask = t->cap - 1;
	int64_t v = t->vals[i];

	for (;;) {
		j = (j + 1) & mask;
		if (t->keys[j] == SIDE_EMPTY)
			break;
		h = side_home(t->keys[j], t->cap);
		/* Stays when its home lies cyclically in (i, j]. */
		if (i <= j ? i < h && h <= j : i < h || h <= j)
			continue;
		t->keys[i] = t->keys[j];
		t->vals[i] = t->vals[j];
		i = j;
	}
	t->keys[i] = SIDE_EMPTY;
	t->count--;
	return v;
}

void
pdbi_side_free(struct pdbi_side *t)
{
	free(t->keys);
	free(t->vals);
	t->keys = NULL;
	t->vals = NULL;
	t->cap = t->count = 0;
}

int
pdbi_side_copy(struct pdb *dst, const struct pdb *src)
{
	struct pdbi_side *t = &dst->side;

	if (src->side.count == 0)
		return PDB_OK;
	if ((t->keys = pdbi_malloc(src->side.cap * sizeof(*t->keys))) == NULL ||
	    (t->vals = pdbi_malloc(src->side.cap * sizeof(*t->vals))) == NULL) {
		pdbi_side_free(t);
		return PDB_ENOMEM;
	}
	memcpy(t->keys, src->side.keys, src->side.cap * sizeof(*t->keys));
	memcpy(t->vals, src->side.vals, src->side.cap * sizeof(*t->vals));
	t->cap = src->side.cap;
	t->count = src->side.count;
	return PDB_OK;
}

/* ---- columns ---- */

void
pdbi_col_init(struct pdbi_col *c)
{
	c->v = NULL;
	c->nside = 0;
	pdbi_col_set_type(c, PDBI_ZERO);
}

enum pdbi_type
pdbi_col_type_for(const struct pdbi_col *c, int64_t lo, int64_t hi)
{
	enum pdbi_type t = c->type;

	lo = lo < c->lo ? lo : c->lo;
	hi = hi > c->hi ? hi : c->hi;
	while (pdbi_types[t].lo > lo || pdbi_types[t].hi < hi)
		t++;
	return t;
}

unsigned
pdbi_type_size(enum pdbi_type t)
{
	return pdbi_types[t].size;
}

void
pdbi_col_set_type(struct pdbi_col *c, enum pdbi_type t)
{
	c->type = t;
	c->size = pdbi_types[t].size;
	c->lo = pdbi_types[t].lo;
	c->hi = pdbi_types[t].hi;
	c->esc = pdbi_types[t].esc;
}

/*
 * Widen column m to the narrowest type holding v, its escaped values
 * and everything its type holds now, converting the values in place
 * from the last: an element never lands on one not yet read.  The
 * escaped values come back into the column.
 */
int
pdbi_col_widen(struct pdb *db, unsigned m, int64_t v)
{
	struct pdbi_col *c = &db->cols[m];
	enum pdbi_type t;
	unsigned char *p;
	int64_t lo = v, hi = v, x;
	size_t n, size, i;

	for (i = 0; c->nside > 0 && i < db->side.cap; i++)
		if (db->side.keys[i] != SIDE_EMPTY &&
		    db->side.keys[i] >> 32 == m) {
			x = db->side.vals[i];
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
		}
	t = pdbi_col_type_for(c, lo, hi);
	size = pdbi_types[t].size;
	if (db->capvals > 0) {
		if ((p = pdbi_realloc(c->v,
		    pdbi_col_bytes(db->capvals, size))) == NULL)
			return PDB_ENOMEM;
		c->v = p;
		if (c->type == PDBI_ZERO)
			memset(p, 0, (size_t)db->nnodes * size);
		else
			for (n = db->nnodes; n-- > 0;) {
				x = pdbi_elem_get(p, c->type, n);
				if (c->nside > 0 && x == c->esc) {
					x = side_take(&db->side,
					    side_key((uint32_t)n, m));
					c->nside--;
				}
				pdbi_elem_put(p, size, n, x);
			}
	}
	pdbi_col_set_type(c, t);
	return PDB_OK;
}

int
pdbi_cols_unescape(struct pdb *db)
{
	unsigned m;

	for (m = 0; m < db->nmetrics; m++)
		if (db->cols[m].nside > 0 && pdbi_col_widen(db, m,
		    0) != PDB_OK)
			return PDB_ENOMEM;
	return PDB_OK;
}

int
pdbi_cols_reserve_slow(struct pdb *db, size_t need)
{
	size_t cap = db->capvals ? db->capvals : 8, size;
	unsigned m;
	void *p;

	if (need <= db->capvals)
		return PDB_OK;
	while (cap < need) {
		if (cap > SIZE_MAX / 16)
			return PDB_ENOMEM;
		cap *= 2;
	}
	for (m = 0; m < db->nmetrics; m++) {
		if ((size = db->cols[m].size) == 0)
			continue;
		if ((p = pdbi_realloc(db->cols[m].v,
		    pdbi_col_bytes(cap, size))) == NULL)
			return PDB_ENOMEM;
		db->cols[m].v = p;
	}
	db->capvals = cap;
	return PDB_OK;
}

/* ---- storing values ---- */

/* Whether node n's element of column c is escaped. */
static int
escaped(const struct pdbi_col *c, uint32_t n)
{
	return c->nside > 0 && pdbi_elem_get(c->v, c->type, n) == c->esc;
}

/* Whether a value that does not fit column c may escape it. */
static int
may_escape(const struct pdb *db, const struct pdbi_col *c)
{
	return c->type != PDBI_ZERO && c->type != PDBI_S64 &&
	    c->nside < SIDE_MIN + db->nnodes / SIDE_SHARE;
}

/*
 * Make room to store v in column m at a node whose element is escaped
 * or not: widen the column, or count in *more a slot that side needs.
 */
static int
room(struct pdb *db, unsigned m, int64_t v, int esc, size_t *more)
{
	struct pdbi_col *c = &db->cols[m];

	if (esc || pdbi_fits(c, v))
		return PDB_OK;
	if (may_escape(db, c)) {
		++*more;
		return PDB_OK;
	}
	return pdbi_col_widen(db, m, v);
}

/* Store v where room() made room for it. */
static void
store(struct pdb *db, uint32_t n, unsigned m, int64_t v, int esc)
{
	struct pdbi_col *c = &db->cols[m];

	if (esc)
		side_set(&db->side, side_key(n, m), v);
	else if (pdbi_fits(c, v))
		pdbi_elem_put(c->v, c->size, n, v);
	else {
		side_set(&db->side, side_key(n, m), v);
		c->nside++;
		pdbi_elem_put(c->v, c->size, n, c->esc);
	}
}

int
pdbi_value_set(struct pdb *db, uint32_t n, unsigned m, int64_t v)
{
	size_t more = 0;
	int esc = escaped(&db->cols[m], n);

	if (room(db, m, v, esc, &more) != PDB_OK ||
	    side_reserve(&db->side, more) != PDB_OK)
		return PDB_ENOMEM;
	store(db, n, m, v, esc);
	return PDB_OK;
}

/* Node n is new: its elements hold nothing yet, escape or not. */
int
pdbi_values_put(struct pdb *db, uint32_t n, const int64_t *vals)
{
	const struct pdbi_col *c = db->cols;
	unsigned m, nm = db->nmetrics;
	size_t more = 0;

	/*
	 * The common case: every value fits its column as it is.  Each is
	 * stored as it is tested, in one loop, and all are stored again
	 * below if one did not fit: n is no node yet.
	 */
	for (m = 0; m < nm; m++) {
		more |= !pdbi_fits(&c[m], vals[m]);
		if (c[m].size != 0)
			pdbi_elem_append(c[m].v, c[m].size, n, vals[m]);
	}
	if (more == 0)
		return PDB_OK;
	more = 0;
	for (m = 0; m < nm; m++)
		if (room(db, m, vals[m], 0, &more) != PDB_OK)
			return PDB_ENOMEM;
	if (side_reserve(&db->side, more) != PDB_OK)
		return PDB_ENOMEM;
	for (m = 0; m < nm; m++)
		store(db, n, m, vals[m], 0);
	return PDB_OK;
}

/* A column at a time: its type is looked at once, not once a value. */
int
pdbi_values_put_rows(struct pdb *db, uint32_t first, size_t k,
    const int64_t *vals, size_t stride)
{
	struct pdbi_col *c = db->cols;
	unsigned m, nm = db->nmetrics;
	const int64_t *v;
	unsigned char *p8;
	uint16_t *p16;
	uint32_t *p32;
	int64_t lo, hi, *p64;
	size_t i;

	for (m = 0; m < nm; m++, c++) {
		v = vals + m;
		lo = hi = 0;
		for (i = 0; i < k; i++, v += stride) {
			lo = *v < lo ? *v : lo;
			hi = *v > hi ? *v : hi;
		}
		if ((!pdbi_fits(c, lo) && pdbi_col_widen(db, m, lo) != PDB_OK) ||
		    (!pdbi_fits(c, hi) && pdbi_col_widen(db, m, hi) != PDB_OK))
			return PDB_ENOMEM;
		v = vals + m;
		switch (c->size) {
		case 1:
			p8 = c->v + first;
			for (i = 0; i < k; i++, v += stride)
				p8[i] = (unsigned char)*v;
			break;
		case 2:
			p16 = (uint16_t *)(void *)c->v + first;
			for (i = 0; i < k; i++, v += stride)
				p16[i] = (uint16_t)*v;
			break;
		case 4:
			p32 = (uint32_t *)(void *)c->v + first;
			for (i = 0; i < k; i++, v += stride)
				p32[i] = (uint32_t)*v;
			break;
		case 8:
			p64 = (int64_t *)(void *)c->v + first;
			for (i = 0; i < k; i++, v += stride)
				p64[i] = *v;
			break;
		default:
			break;
		}
	}
	return PDB_OK;
}

int
pdbi_values_add(struct pdb *db, uint32_t n, const int64_t *vals)
{
	struct pdbi_col *c = db->cols;
	unsigned m, nm = db->nmetrics;
	int64_t v;

	for (m = 0; m < nm; m++, c++) {
		if (vals[m] == 0)
			continue;
		v = pdbi_elem_get(c->v, c->type, n);
		/* The common case: no escape before or after. */
		if ((c->nside == 0 || v != c->esc) && pdbi_fits(c, v = (int64_t)(
		    (uint64_t)v + (uint64_t)vals[m]))) {
			pdbi_elem_put(c->v, c->size, n, v);
			continue;
		}
		v = (int64_t)((uint64_t)pdbi_value(db, n, m) +
		    (uint64_t)vals[m]);
		if (pdbi_value_set(db, n, m, v) != PDB_OK)
			return PDB_ENOMEM;
	}
	return PDB_OK;
}

/*
 * Rows from i of pdbi_values_add_col() while each sum fits column c of
 * type t as it is: t and whether there is a keep are constants in each
 * copy, so that the element's load, store and range are too, and the
 * loop has no test for keep.  Returns the row it stopped at.
 */
static inline __attribute__((always_inline)) size_t
add_col_fitting(const struct pdbi_col *c, enum pdbi_type t, size_t i,
    size_t k, const uint32_t *node, const int64_t *vals, size_t stride,
    const unsigned char *keep, int kept)
{
	/* No element of a narrow type is INT64_MIN. */
	int64_t esc = c->nside != 0 ? c->esc : INT64_MIN, v, x;
	uint64_t lo = (uint64_t)pdbi_types[t].lo;
	uint64_t span = (uint64_t)pdbi_types[t].hi - lo;
	/* In a local: a store of bytes could change c->v for the compiler. */
	unsigned char *p = c->v;
	const int64_t *vp = vals + i * stride;

	/* Without a branch a value: whether a value is 0, or its counts
	 * kept, is no pattern a branch predictor learns. */
	for (; i < k; i++, vp += stride) {
		v = *vp;
		if (kept)
			v &= -(int64_t)keep[i];
		x = pdbi_elem_get(p, t, node[i]);
		if (t != PDBI_S64 && x == esc)
			break;
		x = (int64_t)((uint64_t)x + (uint64_t)v);
		if ((uint64_t)x - lo > span)
			break;
		pdbi_elem_put(p, pdbi_types[t].size, node[i], x);
	}
	return i;
}

int
pdbi_values_add_col(struct pdb *db, unsigned m, size_t k,
    const uint32_t *node, const int64_t *vals, size_t stride,
    const unsigned char *keep)
{
	const struct pdbi_col *c = &db->cols[m];
	size_t i = 0;
	int64_t v;

	while (i < k) {
		switch (c->type) {
#define ADD_COL(t)							\
		case t:							\
			i = keep != NULL ? add_col_fitting(c, t, i, k, node, \
			    vals, stride, keep, 1) : add_col_fitting(c, t, i, \
			    k, node, vals, stride, NULL, 0);		\
			break
		ADD_COL(PDBI_U8);
		ADD_COL(PDBI_S8);
		ADD_COL(PDBI_U16);
		ADD_COL(PDBI_S16);
		ADD_COL(PDBI_U32);
		ADD_COL(PDBI_S32);
		ADD_COL(PDBI_S64);
#undef ADD_COL
		default:
			break;
		}
		if (i == k)
			break;
		/* An escape, a sum that does not fit, or an empty column. */
		if ((v = vals[i * stride]) != 0 && (keep == NULL || keep[i])) {
			v = (int64_t)((uint64_t)pdbi_value(db, node[i], m) +
			    (uint64_t)v);
			if (pdbi_value_set(db, node[i], m, v) != PDB_OK)
				return PDB_ENOMEM;
		}
		i++;
	}
	return PDB_OK;
}

int64_t
pdb_node_value(const struct pdb *db, uint32_t n, unsigned m)
{
	return pdbi_value(db, n, m);
}

const int64_t *
pdb_node_values(const struct pdb *db, uint32_t n)
{
	unsigned m;

	for (m = 0; m < db->nmetrics; m++)
		db->scratch[m] = pdbi_value(db, n, m);
	return db->scratch;
}

int
pdb_node_set_value(struct pdb *db, uint32_t n, unsigned m, int64_t v)
{
	if (n >= db->nnodes)
		return pdb_seterr(db, PDB_EINVAL, "node %lu out of range",
		    (unsigned long)n);
	if (m >= db->nmetrics)
		return pdb_seterr(db, PDB_EINVAL, "metric %u out of range", m);
	if (pdbi_value_set(db, n, m, v) != PDB_OK)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	return PDB_OK;
}

int
pdb_node_add_values(struct pdb *db, uint32_t n, const int64_t *vals)
{
	size_t more = 0;
	unsigned m;
	int64_t v;
	int esc;

	if (n >= db->nnodes)
		return pdb_seterr(db, PDB_EINVAL, "node %lu out of range",
		    (unsigned long)n);
	/*
	 * A sum past 64 bits is refused, as the builder refuses one from
	 * a file.  Check and make room first, so that a failure leaves the
	 * values as they were.
	 */
	for (m = 0; m < db->nmetrics; m++) {
		if (__builtin_add_overflow(pdbi_value(db, n, m), vals[m], &v))
			return pdb_seterr(db, PDB_EINVAL, "64-bit overflow "
			    "adding to '%s' at node %lu", db->metrics[m].name,
			    (unsigned long)n);
		if (room(db, m, v, escaped(&db->cols[m], n), &more) != PDB_OK)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	}
	if (side_reserve(&db->side, more) != PDB_OK)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	for (m = 0; m < db->nmetrics; m++) {
		esc = escaped(&db->cols[m], n);
		v = (int64_t)((uint64_t)pdbi_value(db, n, m) +
		    (uint64_t)vals[m]);
		store(db, n, m, v, esc);
	}
	return PDB_OK;
}

int
pdb_sums_add(struct pdb *db, uint64_t *range, uint32_t cc,
    const int64_t *values)
{
	unsigned m;

	for (m = 0; m < db->nmetrics; m++)
		if (pdbi_sum_add(&range[2 * (size_t)m], values[m]))
			return pdbi_overflow(db, m, cc);
	return PDB_OK;
}

int
pdbi_overflow(struct pdb *db, unsigned m, uint32_t cc)
{
	return pdb_seterr(db, PDB_EFORMAT, "64-bit overflow summing '%s' at "
	    "cost centre '%s'", m < db->nmetrics ? db->metrics[m].name : "?",
	    cc < db->nccs ? pdb_cc_fullname(db, cc) : "?");
}
