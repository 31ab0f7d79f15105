/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Graphviz and libxml2, loaded with dlopen(3) when the DOT or the HTML
 * writer first needs them.  Linked, they and what they load (ICU and
 * libstdc++ under libxml2) took a millisecond of every tree tool's
 * start-up, twice what the tool itself took on a small profile, for two
 * writers that most runs never use.  A machine without them still
 * writes every other format.
 *
 * The writers call pdbi_sym_NAME() for each function NAME of those
 * libraries, through a pointer set by the loader; the headers still
 * give every type.  The lists below are every symbol the writers use:
 * one missing here fails to compile there, as pdbi_sym_NAME is undeclared.
 */
#ifndef CCS_DYNLIB_H
#define CCS_DYNLIB_H

#include <gvc.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>

#include "pdb.h"

/*
 * The sonames: those of the libraries built against, which the Makefile
 * reads from them, or else these.
 */
#ifndef PDB_SONAME_cgraph
#define PDB_SONAME_cgraph "libcgraph.so.6"
#endif
#ifndef PDB_SONAME_gvc
#define PDB_SONAME_gvc "libgvc.so.6"
#endif
#ifndef PDB_SONAME_xml2
#define PDB_SONAME_xml2 "libxml2.so.2"
#endif

/* X(library, symbol): cgraph and gvc, of Graphviz. */
#define PDB_GRAPHVIZ_SYMBOLS(X)						\
	X(cgraph, Agdirected) X(cgraph, agattr) X(cgraph, agclose)	\
	X(cgraph, agedge) X(cgraph, agnode) X(cgraph, agopen)		\
	X(cgraph, agsafeset) X(cgraph, agseterrf) X(cgraph, agsubg)	\
	X(cgraph, agwrite)						\
	X(gvc, gvContext) X(gvc, gvFreeLayout)				\
	X(gvc, gvFreeRenderData) X(gvc, gvLayout) X(gvc, gvRenderData)

#define PDB_LIBXML2_SYMBOLS(X)						\
	X(xml2, htmlDocContentDumpFormatOutput)				\
	X(xml2, htmlNewDocNoDtD) X(xml2, xmlAllocOutputBuffer)		\
	X(xml2, xmlCreateIntSubset) X(xml2, xmlDocSetRootElement)	\
	X(xml2, xmlFreeDoc) X(xml2, xmlNewChild) X(xml2, xmlNewNode)	\
	X(xml2, xmlNewProp) X(xml2, xmlNewTextChild)			\
	X(xml2, xmlOutputBufferClose) X(xml2, xmlOutputBufferFlush)	\
	X(xml2, xmlOutputBufferGetContent)				\
	X(xml2, xmlOutputBufferGetSize)

/* A data symbol (Agdirected) is reached through its pointer too. */
#define PDB_DYNLIB_DECLARE(lib, name) extern __typeof__(name) *pdbi_sym_##name;
PDB_GRAPHVIZ_SYMBOLS(PDB_DYNLIB_DECLARE)
PDB_LIBXML2_SYMBOLS(PDB_DYNLIB_DECLARE)
#undef PDB_DYNLIB_DECLARE

/*
 * Load Graphviz or libxml2, once per process (later calls give the
 * first answer): PDB_OK, or PDB_EUNSUPP with the reason on db, such as
 * "cannot load Graphviz: libgvc.so.6: cannot open shared object file".
 */
int pdb_load_graphviz(struct pdb *db);
int pdb_load_libxml2(struct pdb *db);

#endif /* CCS_DYNLIB_H */
