/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Options of the Graphviz writer (fmt_dot.c), passed through
 * pdb_opts.writer_opts.  Without them (writer_opts NULL, as from
 * "ccs-convert -t dot") the writer uses PDB_DOT_OPTS_DEFAULT.
 *
 * The graph is made of a set of stacks: every stack of the profile, or
 * only those with a non-zero own cost (PDB_DOT_NONZERO, the paper's
 * Fig. 12), only those through a focus cost centre, only the top N.
 * Cost centres on those stacks become nodes, adjacent cost centres
 * become arcs labelled with the number of those stacks the arc occurs in
 * (Fig. 8) and their total cost.  Node values (self, inherited) are
 * always those of the whole profile.  Thresholds then hide what is too
 * cheap, and a legend node says how much was hidden.
 */
#ifndef FMT_DOT_H
#define FMT_DOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "formats.h"

#define PDB_DOT_TREE		0x01u	/* a node per stack, not per cc */
#define PDB_DOT_HOT		0x02u	/* highlight the expensive arm */
#define PDB_DOT_HOT_ONLY	0x04u	/* draw the expensive arm only */
#define PDB_DOT_NONZERO		0x08u	/* only stacks with non-zero own cost */

struct pdb_dot_opts {
	unsigned	 flags;		/* PDB_DOT_* */
	/*
	 * What to produce: NULL, "dot" or "gv" for DOT text (the graph as
	 * built, no layout); any other name is a Graphviz output format
	 * ("svg", "png", "pdf", ...) laid out with dot and rendered by gvc.
	 */
	const char	*render;
	/* Hide nodes whose inherited cost (with PDB_DOT_TREE: the stack's
	 * inclusive cost) is below this percentage of the total. */
	double		 node_thres;
	/* Hide arcs whose cost is below this percentage of the total. */
	double		 edge_thres;
	/* Draw at most this many nodes, the most expensive; 0: no limit. */
	size_t		 nodecount;
	/* Only the stacks with at least one cost centre matching one of
	 * these globs (label or Module.label); none: no focus. */
	const char *const *focus;
	size_t		 nfocus;
	/* Only the top N stacks by own cost; 0: all. */
	size_t		 top;
};

#define PDB_DOT_NODE_THRES	0.5
#define PDB_DOT_EDGE_THRES	0.1
#define PDB_DOT_NODECOUNT	80

#define PDB_DOT_OPTS_DEFAULT {						\
	.flags = 0,							\
	.render = NULL,							\
	.node_thres = PDB_DOT_NODE_THRES,				\
	.edge_thres = PDB_DOT_EDGE_THRES,				\
	.nodecount = PDB_DOT_NODECOUNT,					\
	.focus = NULL,							\
	.nfocus = 0,							\
	.top = 0							\
}

/*
 * The call graph from a reader's events, without the stack tree, when
 * pdb_dot_streams() says the options allow it: not the tree drawing,
 * not the expensive arm, not the top stacks.  Give the sink the events
 * of one tree (a reader whose format's tree is its stream, or
 * pdb_replay()); then finish draws what pdb_write() would draw from the
 * tree.  opts (may be NULL) must outlive the writer.  Memory is the cost
 * centres, the arcs and the depth, not the nodes.
 */
struct pdb_dot;
int		 pdb_dot_streams(const struct pdb_dot_opts *);
struct pdb_dot	*pdb_dot_new(const struct pdb_opts *opts);
const struct pdb_sink *pdb_dot_sink(struct pdb_dot *);
/* Nodes the sink has taken. */
uint64_t	 pdb_dot_nodes(const struct pdb_dot *);
/* Draw to out; PDB_OK, or the error on the stream's handle. */
int		 pdb_dot_finish(struct pdb_dot *, FILE *out);
void		 pdb_dot_free(struct pdb_dot *);

#endif /* FMT_DOT_H */
