/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Loading Graphviz and libxml2 when a writer first needs them (see
 * dynlib.h).  A library is never unloaded: Graphviz keeps its context
 * for the whole process (fmt_dot.c).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <threads.h>

#include "dynlib.h"

#define DEFINE(lib, name) __typeof__(name) *pdbi_sym_##name;
PDB_GRAPHVIZ_SYMBOLS(DEFINE)
PDB_LIBXML2_SYMBOLS(DEFINE)
#undef DEFINE

/* A symbol: its library's soname, its name, and its pointer's address. */
struct symbol {
	const char	*soname;
	const char	*name;
	void		*ptr;
};

#define ENTRY(lib, name) { PDB_SONAME_##lib, #name, &pdbi_sym_##name },
static const struct symbol graphviz[] = { PDB_GRAPHVIZ_SYMBOLS(ENTRY) };
static const struct symbol libxml2[] = { PDB_LIBXML2_SYMBOLS(ENTRY) };
#undef ENTRY

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_SYMBOLS	32	/* of one package: load()'s array */
_Static_assert(NELEM(graphviz) <= MAX_SYMBOLS, "graphviz: too many symbols");
_Static_assert(NELEM(libxml2) <= MAX_SYMBOLS, "libxml2: too many symbols");

/* A package's load: done once; why it failed, or "" when it did not. */
struct package {
	const char		*name;
	const struct symbol	*syms;
	size_t			 nsyms;
	once_flag		 once;
	char			 why[256];
};

static struct package graphviz_pkg = { "Graphviz", graphviz,
    NELEM(graphviz), ONCE_FLAG_INIT, "" };
static struct package libxml2_pkg = { "libxml2", libxml2, NELEM(libxml2),
    ONCE_FLAG_INIT, "" };

/*
 * Open each library in the order listed and look up its symbols.  The
 * pointers are set only when all were found, so that a failure leaves
 * none half set.  dlsym()'s void * is copied into a function pointer
 * with memcpy(), as ISO C has no conversion between the two.
 */
static void
load(struct package *pkg)
{
	void *handle = NULL, *addr[MAX_SYMBOLS];
	const char *soname = NULL, *err;
	size_t i;

	for (i = 0; i < pkg->nsyms; i++) {
		if (soname == NULL ||
		    strcmp(soname, pkg->syms[i].soname) != 0) {
			soname = pkg->syms[i].soname;
			if ((handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL)) ==
			    NULL)
				goto fail;
		}
		(void)dlerror();
		if ((addr[i] = dlsym(handle, pkg->syms[i].name)) == NULL)
			goto fail;
	}
	for (i = 0; i < pkg->nsyms; i++)
		memcpy(pkg->syms[i].ptr, &addr[i], sizeof(addr[i]));
	return;
fail:
	if ((err = dlerror()) != NULL)
		snprintf(pkg->why, sizeof(pkg->why), "%s", err);
	else
		snprintf(pkg->why, sizeof(pkg->why), "%s: no symbol %s",
		    soname, pkg->syms[i].name);
}

static void
load_graphviz(void)
{
	load(&graphviz_pkg);
}

static void
load_libxml2(void)
{
	load(&libxml2_pkg);
}

static int
loaded(struct pdb *db, struct package *pkg)
{
	if (pkg->why[0] == '\0')
		return PDB_OK;
	return pdb_seterr(db, PDB_EUNSUPP, "cannot load %s: %s", pkg->name,
	    pkg->why);
}

int
pdb_load_graphviz(struct pdb *db)
{
	call_once(&graphviz_pkg.once, load_graphviz);
	return loaded(db, &graphviz_pkg);
}

int
pdb_load_libxml2(struct pdb *db)
{
	call_once(&libxml2_pkg.once, load_libxml2);
	return loaded(db, &libxml2_pkg);
}
