/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Which cost centres share a name, label and module both, as GHC's
 * -fprof-auto-calls makes one for every call of a function: a report
 * then adds their source locations, which alone tell them apart
 * (ccs-flat's table, ccs2dot's labels).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats_int.h"

struct name {
	const char	*module, *label;
	size_t		 i;		/* the place in the list given */
};

static int
cmp_name(const void *a, const void *b)
{
	const struct name *x = a, *y = b;
	int c = strcmp(x->module, y->module);

	return c != 0 ? c : strcmp(x->label, y->label);
}

int
pdb_names_shared(const struct pdb *db, const uint32_t *ccs, size_t n,
    unsigned char *shared)
{
	struct name *v;
	uint32_t cc;
	size_t i, j, k;
	int names = 0;

	memset(shared, 0, n);
	if (n < 2)
		return 0;
	if ((v = malloc(n * sizeof(*v))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		cc = ccs != NULL ? ccs[i] : (uint32_t)i;
		v[i].module = pdb_cc_module(db, cc);
		v[i].label = pdb_cc_label(db, cc);
		v[i].i = i;
	}
	qsort(v, n, sizeof(*v), cmp_name);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && cmp_name(&v[i], &v[j]) == 0; j++)
			;
		names += j - i > 1;
		for (k = i; j - i > 1 && k < j; k++)
			shared[v[k].i] = 1;
	}
	free(v);
	return names;
}
