/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Events to tree (the builder sink) and tree to events (replay).
 */
#include <stdlib.h>
#include <string.h>

#include "pdb_int.h"

/*
 * In PDB_BUILD_PUSH mode, Push must look for cc on the stack it pushes
 * onto, a walk as long as the stack: quadratic for a deep stack of
 * distinct cost centres.  But a compressed stack holds exactly the cost
 * centres pushed to make it (compression moves one, never drops one),
 * so counting the cost centres entered on the current path (above the
 * root, which Push never compresses) tells when cc cannot be on the
 * stack; then Push is just the child, found or made.
 */
struct pdb_builder {
	struct pdb	*db;
	enum pdb_build	 mode;
	uint32_t	*path;		/* stack entered so far */
	uint32_t	*ccpath;	/* the cost centres entered */
	size_t		 depth, cap, capcc;
	uint32_t	*onpath;	/* per cost centre: times on ccpath[1..] */
	size_t		 nonpath;
	uint64_t	*range;		/* per metric: pdbi_sum_add()'s sums */
	struct pdb_sink	 sink;
};

/* Whether cost centre cc has been entered on the path above the root. */
static int
on_path(const struct pdb_builder *b, uint32_t cc)
{
	return cc < b->nonpath && b->onpath[cc] > 0;
}

static int
b_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *values)
{
	struct pdb_builder *b = arg;
	uint32_t n = 0;
	int rc;

	if (cc >= db->nccs)
		return pdb_seterr(db, PDB_EINVAL, "cost centre %u out of range",
		    (unsigned)cc);
	if (b->depth == 0) {
		if (db->nnodes == 0)
			rc = pdb_root_new(db, cc, &n);
		else if (b->mode != PDB_BUILD_RAW && db->nodes[0].cc == cc) {
			n = 0;
			rc = PDB_OK;
		} else
			rc = pdb_seterr(db, PDB_EFORMAT,
			    "profile has more than one root");
	} else if (b->mode == PDB_BUILD_RAW)
		rc = pdbi_node_new(db, b->path[b->depth - 1], cc, &n);
	else if (b->mode == PDB_BUILD_MERGE || !on_path(b, cc))
		rc = pdb_child_get(db, b->path[b->depth - 1], cc, &n);
	else
		rc = pdb_push(db, b->path[b->depth - 1], cc, &n);
	if (rc != PDB_OK)
		return rc;
	if (pdbi_grow(&b->path, &b->cap, b->depth + 1, sizeof(*b->path)) ||
	    pdbi_grow(&b->ccpath, &b->capcc, b->depth + 1, sizeof(*b->ccpath)))
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	if (b->depth > 0 && b->mode == PDB_BUILD_PUSH) {
		if (cc >= b->nonpath) {
			size_t old = b->nonpath, want = (size_t)db->nccs;

			if (pdbi_grow(&b->onpath, &b->nonpath, want,
			    sizeof(*b->onpath)))
				return pdb_seterr(db, PDB_ENOMEM,
				    "out of memory");
			memset(b->onpath + old, 0,
			    (b->nonpath - old) * sizeof(*b->onpath));
		}
		b->onpath[cc]++;
	}
	b->ccpath[b->depth] = cc;
	b->path[b->depth++] = n;
	if (values != NULL) {
		unsigned m, nm = db->nmetrics, bad = 0;

		if (b->range == NULL && (b->range = pdbi_calloc(2 * nm + 1,
		    sizeof(*b->range))) == NULL)
			return pdb_seterr(db, PDB_ENOMEM, "out of memory");
		for (m = 0; m < nm; m++)
			if (pdbi_sum_add(&b->range[2 * (size_t)m], values[m])) {
				bad = 1;
				break;
			}
		if (bad)
			return pdbi_overflow(db, m, cc);
		pdb_node_add_values(db, n, values);
	}
	return PDB_OK;
}

static int
b_exit(void *arg, struct pdb *db)
{
	struct pdb_builder *b = arg;

	if (b->depth == 0)
		return pdb_seterr(db, PDB_EINVAL, "exit without enter");
	b->depth--;
	if (b->depth > 0 && b->mode == PDB_BUILD_PUSH)
		b->onpath[b->ccpath[b->depth]]--;
	return PDB_OK;
}

struct pdb_builder *
pdb_builder_new(struct pdb *db, enum pdb_build mode)
{
	struct pdb_builder *b;

	if ((b = pdbi_calloc(1, sizeof(*b))) == NULL)
		return NULL;
	b->db = db;
	b->mode = mode;
	b->sink.enter = b_enter;
	b->sink.exit = b_exit;
	b->sink.arg = b;
	return b;
}

void
pdb_builder_free(struct pdb_builder *b)
{
	if (b == NULL)
		return;
	free(b->path);
	free(b->ccpath);
	free(b->onpath);
	free(b->range);
	free(b);
}

void
pdb_builder_set_mode(struct pdb_builder *b, enum pdb_build mode)
{
	b->mode = mode;
}

const struct pdb_sink *
pdb_builder_sink(struct pdb_builder *b)
{
	return &b->sink;
}

int
pdb_replay(struct pdb *db, const struct pdb_sink *sink)
{
	uint32_t n, depth = 0, nd;
	int rc;

	if (sink->begin && (rc = sink->begin(sink->arg, db)) != 0)
		return rc;
	for (n = pdb_walk_first(db, &depth); n != PDB_NONE; n = nd) {
		uint32_t before = depth;

		if ((rc = sink->enter(sink->arg, db, db->nodes[n].cc,
		    pdb_node_values(db, n))) != 0)
			return rc;
		nd = pdb_walk_next(db, n, &depth);
		/* Close n unless the walk went down into its children. */
		if (nd == PDB_NONE || depth <= before) {
			uint32_t closes = nd == PDB_NONE ? before + 1 :
			    before - depth + 1;

			while (closes-- > 0)
				if ((rc = sink->exit(sink->arg, db)) != 0)
					return rc;
		}
	}
	if (sink->end && (rc = sink->end(sink->arg, db)) != 0)
		return rc;
	return PDB_OK;
}
