/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-hot's answers, and the streaming path that finds them without a
 * tree (stream.c).  The tree path and the report are in ccs-hot.c.
 */
#ifndef CCS_HOT_H
#define CCS_HOT_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

/* A stack, root first, and its own cost. */
struct stackv {
	uint32_t	*cc;
	size_t		 len;
	int64_t		 v;
};

/* What ccs-hot prints, however it was found. */
struct result {
	struct stackv	 hot;
	uint32_t	*armcc;		/* the expensive arm, root first */
	int64_t		*arminc;
	size_t		 narm;
	struct stackv	*top;		/* the costliest stacks */
	size_t		 ntop;
	int64_t		 total;
};

/* How hot_stream() ended. */
enum how {
	STREAMED,	/* res has the answers */
	BUILT,		/* db has the tree */
	AGAIN		/* read it again into a tree */
};

/*
 * Read path as a stream into res, with the top ntop stacks; or, when the
 * input cannot stream (BUILT), into db's tree; or say that it must be
 * read again into a tree (AGAIN).  Exits on an error, as the tools do.
 */
enum how	 hot_stream(struct tool_common *, struct pdb *,
		    const char *path, size_t ntop, struct result *);

#endif
