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

/* In the order of enum pdbi_type: a column only ever moves down it. */
static const struct {
	int64_t		 lo, hi;	/* the values the type holds */
	unsigned	 size;		/* bytes an element */
} pdbi_types[] = {
	{ 0, 0, 0 },
	{ 0, UINT8_MAX, 1 },
	{ INT8_MIN, INT8_MAX, 1 },
	{ 0, UINT16_MAX, 2 },
	{ INT16_MIN, INT16_MAX, 2 },
	{ 0, UINT32_MAX, 4 },
	{ INT32_MIN, INT32_MAX, 4 },
	{ INT64_MIN, INT64_MAX, 8 },
};

/*
 * Widen column m to the narrowest type holding both v and everything
 * its type holds now, converting the values in place from the last:
 * an element never lands on one not yet read.
 */
void
pdbi_col_init(struct pdbi_col *c)
{
	c->v = NULL;
	c->type = PDBI_ZERO;
	c->size = 0;
	c->lo = c->hi = 0;
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
}

int
pdbi_col_widen(struct pdb *db, unsigned m, int64_t v)
{
	struct pdbi_col *c = &db->cols[m];
	enum pdbi_type t = pdbi_col_type_for(c, v, v);
	unsigned char *p;
	size_t n, size;

	size = pdbi_types[t].size;
	if (db->capvals > 0) {
		if ((p = pdbi_realloc(c->v, db->capvals * size)) == NULL)
			return PDB_ENOMEM;
		c->v = p;
		if (c->type == PDBI_ZERO)
			memset(p, 0, (size_t)db->nnodes * size);
		else
			for (n = db->nnodes; n-- > 0;)
				pdbi_elem_put(p, size, n, pdbi_elem_get(p,
				    c->type, n));
	}
	pdbi_col_set_type(c, t);
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
		if ((p = pdbi_realloc(db->cols[m].v, cap * size)) == NULL)
			return PDB_ENOMEM;
		db->cols[m].v = p;
	}
	db->capvals = cap;
	return PDB_OK;
}

int
pdbi_values_put(struct pdb *db, uint32_t n, const int64_t *vals)
{
	struct pdbi_col *c = db->cols;
	unsigned m, nm = db->nmetrics;
	int64_t v;

	for (m = 0; m < nm; m++, c++) {
		v = vals[m];
		if (!pdbi_fits(c, v) && pdbi_col_widen(db, m, v) != PDB_OK)
			return PDB_ENOMEM;
		pdbi_elem_put(c->v, c->size, n, v);
	}
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
		v = (int64_t)((uint64_t)pdbi_elem_get(c->v, c->type, n) +
		    (uint64_t)vals[m]);
		if (!pdbi_fits(c, v) && pdbi_col_widen(db, m, v) != PDB_OK)
			return PDB_ENOMEM;
		pdbi_elem_put(c->v, c->size, n, v);
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
	if (pdbi_value_set(db, n, m, v) != PDB_OK)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	return PDB_OK;
}

int
pdb_node_add_values(struct pdb *db, uint32_t n, const int64_t *vals)
{
	unsigned m;
	int64_t v;

	/*
	 * Values from files were checked on the way in (pdbi_sum_add()),
	 * so these sums cannot overflow; a caller adding its own values
	 * gets them wrapped like the profilers' own unsigned counters.
	 * Widen first, so that a failure leaves the values as they were.
	 */
	for (m = 0; m < db->nmetrics; m++) {
		v = (int64_t)((uint64_t)pdbi_value(db, n, m) +
		    (uint64_t)vals[m]);
		if (!pdbi_fits(&db->cols[m], v) &&
		    pdbi_col_widen(db, m, v) != PDB_OK)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	}
	return pdbi_values_add(db, n, vals);
}

int
pdbi_overflow(struct pdb *db, unsigned m, uint32_t cc)
{
	return pdb_seterr(db, PDB_EFORMAT, "64-bit overflow summing '%s' at "
	    "cost centre '%s'", m < db->nmetrics ? db->metrics[m].name : "?",
	    cc < db->nccs ? pdb_cc_fullname(db, cc) : "?");
}
