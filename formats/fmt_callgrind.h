/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The callgrind writer (fmt_callgrind.c): its options, passed through
 * pdb_opts.writer_opts (NULL means all defaults), and the writer as a
 * sink, which takes a profile's events as a reader streams them and
 * keeps only the functions and calls, never the tree.
 */
#ifndef FMT_CALLGRIND_H
#define FMT_CALLGRIND_H

#include <stdint.h>
#include <stdio.h>

#include "formats.h"

/* The largest --context the writer accepts. */
#define PDB_CALLGRIND_MAX_CONTEXT	64

struct pdb_callgrind_opts {
	/*
	 * Split each function by its nearest callers, as callgrind's
	 * --separate-callers=N does: 0 (the default) makes one function
	 * per cost centre, N > 0 one per cost centre and chain of up to N
	 * callers, named "fn'caller1'caller2" (caller1 the nearest).
	 */
	unsigned	 context;
};

/*
 * The streaming writer.  Give the sink the events of one tree, whose
 * every node is an event (pdb_replay(), or a reader of a format whose
 * tree is its stream: fmt->build == PDB_BUILD_RAW); then finish writes
 * the file the tree would give pdb_write().  opts (may be NULL) must
 * outlive the writer.  Memory is the functions and calls, not the nodes.
 */
struct pdb_callgrind;
struct pdb_callgrind *pdb_callgrind_new(const struct pdb_opts *opts);
const struct pdb_sink *pdb_callgrind_sink(struct pdb_callgrind *);
/* Nodes the sink has taken. */
uint64_t	 pdb_callgrind_nodes(const struct pdb_callgrind *);
/* Write the file to out; PDB_OK, or the error on the stream's handle. */
int		 pdb_callgrind_finish(struct pdb_callgrind *, FILE *out);
void		 pdb_callgrind_free(struct pdb_callgrind *);

#endif /* FMT_CALLGRIND_H */
