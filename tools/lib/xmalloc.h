/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Allocation for the tools, which have nothing to give back when memory
 * runs out: "out of memory" and exit status 1 (TOOL_ERR).  Output named
 * with -o is not left half written: tool_output_open() writes into a
 * temporary file, which exit() removes unless tool_output_close() has
 * renamed it.  The library never exits; these are for the tools' own
 * tables.
 */
#ifndef CCS_XMALLOC_H
#define CCS_XMALLOC_H

#include <stddef.h>

void	 nomem(void) __attribute__((noreturn));
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);

#endif
