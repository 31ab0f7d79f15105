/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Options of the callgrind writer (fmt_callgrind.c), passed through
 * pdb_opts.writer_opts.  A NULL writer_opts means all defaults.
 */
#ifndef FMT_CALLGRIND_H
#define FMT_CALLGRIND_H

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

#endif /* FMT_CALLGRIND_H */
