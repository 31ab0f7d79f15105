/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * one "sampled" profile per cost metric, whose samples are the stacks
 * with a positive own cost (frames root first) weighted by that cost.
 * Frames are cost centres.  speedscope cannot show negative weights
 * (Clean's garbage collector "allocates" negative words): those stacks
 * are left out with a warning.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "formats.h"

static json_t *
frames_of(struct pdb *db)
{
	json_t *frames = json_array(), *f, *name, *file;
	struct pdb_cc cc;
	uint32_t i;

	if (frames == NULL)
		return NULL;
	for (i = 0; i < pdb_cc_count(db); i++) {
		pdb_cc(db, i, &cc);
		/* Invalid UTF-8 cannot be a JSON string: say so instead. */
		if ((name = json_string(pdb_cc_fullname(db, i))) == NULL)
			name = json_string("(name is not UTF-8)");
		if ((f = json_object()) == NULL || name == NULL ||
		    json_object_set_new(f, "name", name) != 0) {
			json_decref(f);
			json_decref(frames);
			return NULL;
		}
		if (*cc.src != '\0' && (file = json_string(cc.src)) != NULL)
			json_object_set_new(f, "file", file);
		json_array_append_new(frames, f);
	}
	return frames;
}

static json_t *
profile_of(struct pdb *db, unsigned m, uint64_t *negative)
{
	const struct pdb_metric *mt = pdb_metric(db, m);
	json_t *p, *samples, *weights, *stack;
	uint32_t n, k, *path = NULL, d;
	size_t cap = 0;
	int64_t v, total = 0;
	double dtotal = 0;
	int skip, big = 0;

	skip = (pdb_cc_flags(db, pdb_node_cc(db, 0)) & PDB_CC_SYNTHETIC) != 0;
	samples = json_array();
	weights = json_array();
	p = json_object();
	if (!samples || !weights || !p)
		goto fail;
	for (n = pdb_walk_first(db, NULL); n != PDB_NONE;
	    n = pdb_walk_next(db, n, NULL)) {
		v = pdb_node_value(db, n, m);
		if (v < 0)
			(*negative)++;
		if (v <= 0 || (skip && n == 0))
			continue;
		d = 0;
		for (k = n; k != PDB_NONE; k = pdb_node_parent(db, k)) {
			if (pdb_buf_reserve(&path, &cap,
			    ((size_t)d + 1) * sizeof(*path)))
				goto fail;
			path[d++] = pdb_node_cc(db, k);
		}
		if ((stack = json_array()) == NULL)
			goto fail;
		/* Root first; a synthetic root, last on the path, is no frame. */
		if (skip)
			d--;
		while (d-- > 0)
			json_array_append_new(stack, json_integer(path[d]));
		if (json_array_append_new(samples, stack) ||
		    json_array_append_new(weights, json_integer(v)))
			goto fail;
		/* speedscope reads numbers as doubles: past 2^63 - 1, the
		 * total is one (v > 0 and total >= 0). */
		if (total > INT64_MAX - v)
			big = 1;
		else
			total += v;
		dtotal += (double)v;
	}
	free(path);
	json_object_set_new(p, "type", json_string("sampled"));
	json_object_set_new(p, "name", json_string(mt->name));
	json_object_set_new(p, "unit", json_string(
	    strcmp(mt->unit, "bytes") == 0 ? "bytes" : "none"));
	json_object_set_new(p, "startValue", json_integer(0));
	json_object_set_new(p, "endValue", big ? json_real(dtotal) :
	    json_integer(total));
	json_object_set_new(p, "samples", samples);
	json_object_set_new(p, "weights", weights);
	return p;
fail:
	free(path);
	json_decref(samples);
	json_decref(weights);
	json_decref(p);
	return NULL;
}

static int
dump_cb(const char *buf, size_t size, void *arg)
{
	return fwrite(buf, 1, size, arg) == size ? 0 : -1;
}

static int
speedscope_write(struct pdb *db, FILE *out, const struct pdb_opts *opts)
{
	json_t *doc, *shared, *frames, *profiles, *p;
	const char *prog = pdb_meta_get(db, "program");
	uint64_t negative;
	unsigned m;
	int rc;

	(void)opts;
	doc = json_object();
	shared = json_object();
	profiles = json_array();
	frames = frames_of(db);
	if (!doc || !shared || !profiles || !frames)
		goto nomem;
	json_object_set_new(doc, "$schema",
	    json_string("https://www.speedscope.app/file-format-schema.json"));
	/* doc owns them now. */
	json_object_set_new(shared, "frames", frames);
	frames = NULL;
	json_object_set_new(doc, "shared", shared);
	shared = NULL;
	for (m = 0; m < pdb_metric_count(db); m++) {
		if (pdb_metric(db, m)->kind != PDB_COST)
			continue;
		negative = 0;
		if ((p = profile_of(db, m, &negative)) == NULL)
			goto nomem;
		if (negative > 0)
			pdb_warn(db, "speedscope: %" PRIu64 " stacks with negative "
			    "%s left out", negative, pdb_metric(db, m)->name);
		json_array_append_new(profiles, p);
	}
	json_object_set_new(doc, "profiles", profiles);
	if (prog == NULL || (p = json_string(prog)) == NULL)
		p = json_string("profile");
	json_object_set_new(doc, "name", p);
	json_object_set_new(doc, "activeProfileIndex", json_integer(0));
	json_object_set_new(doc, "exporter", json_string("ccstools"));
	rc = json_dump_callback(doc, dump_cb, out, JSON_COMPACT |
	    JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (rc != 0 || putc('\n', out) == EOF || ferror(out))
		return pdb_seterr(db, PDB_EIO, "write error");
	return PDB_OK;
nomem:
	json_decref(doc);
	json_decref(shared);
	json_decref(profiles);
	json_decref(frames);
	return pdb_seterr(db, PDB_ENOMEM, "out of memory");
}

const struct pdb_format pdb_fmt_speedscope = {
	.abi = PDB_FORMAT_ABI,
	.name = "speedscope",
	.desc = "speedscope file format (sampled, one profile per metric)",
	.exts = ".speedscope.json",
	.flags = PDB_FMT_WRITE,
	.build = PDB_BUILD_RAW,
	.write = speedscope_write,
};
