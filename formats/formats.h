/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * File formats: one module per format, each a struct pdb_format, listed
 * in one table (registry.c).  This layer is the only part of ccstools
 * that knows bytes; libprofdb sees calls on its API, tools see
 * pdb_read_*() and pdb_write().
 *
 * This header is the format layer's interface, installed beside pdb.h
 * for programs (libprofdb(3)): the options, the formats and their
 * registry, and whole reads and writes.  What the readers and writers
 * share inside the layer (the input, the decoders and encoders, the
 * batcher, the writers' helpers), how reading works and how to add a
 * format are in formats_int.h, which is not installed.
 */
#ifndef FORMATS_H
#define FORMATS_H

#include <stdint.h>
#include <stdio.h>

#include "pdb.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PDB_FORMAT_ABI	1

#define PDB_FMT_READ	0x01u
#define PDB_FMT_WRITE	0x02u
#define PDB_FMT_BINARY	0x04u	/* output is binary: refuse a terminal */
#define PDB_FMT_COMPENSATE 0x08u /* the reader does PDB_OPT_COMPENSATE */

/* Options for readers and writers; zero means default. */
struct pdb_opts {
	unsigned	 flags;		/* PDB_OPT_* */
	int		 pgcl_version;	/* version to write; 0 = 2 */
	const char	*metric;	/* single-metric writers; NULL = default */
	const char	*command;	/* the command line, for writers that keep it */
	/*
	 * Options of one writer, declared in its own header, installed
	 * beside this one: struct pdb_dot_opts (fmt_dot.h; "dot" and the
	 * images), struct pdb_callgrind_opts (fmt_callgrind.h), struct
	 * pdb_html_opts (fmt_html.h).  NULL: the writer's defaults.
	 */
	const void	*writer_opts;
	/*
	 * Reading: called each time the input layer reads a buffer, with
	 * the bytes of the file consumed so far and its size (0 when
	 * unknown: a pipe), and once more with finished set when the input
	 * is closed.  For progress bars; NULL: none.
	 */
	void		(*progress)(void *arg, uint64_t done, uint64_t total,
			    int finished);
	void		*progress_arg;
	/*
	 * Writing: called by the writers that walk the tree in rows (the
	 * dump, pgcl) each time they pass on a buffer, with the nodes
	 * written so far and the nodes in all, so that a progress bar can
	 * tell how much is left of output whose size is known only at the
	 * end.  Given progress_arg; NULL: none.
	 */
	void		(*write_progress)(void *arg, uint64_t nodes,
			    uint64_t total);
};
#define PDB_OPT_COMPENSATE	0x01u	/* pgcl: subtract profiling overhead */
#define PDB_OPT_ALL		0x02u	/* folded: write zero-cost stacks too */
#define PDB_OPT_SORT		0x04u	/* folded: most expensive stacks first */
/*
 * Writing: the handle is done with its tree, which the writer may take
 * (pdb_rows_take()); after pdb_write() the handle may have no tree.
 */
#define PDB_OPT_TAKE		0x08u
/*
 * folded: lines to be read as text, as ccs-stacks prints them, whose
 * page says how frames split into module and label: no warning when a
 * cost centre would read back with another module.
 */
#define PDB_OPT_AS_TEXT		0x10u

/* A reader's input (formats_int.h): opaque outside the format layer. */
struct pdb_input;

struct pdb_format {
	unsigned	 abi;		/* PDB_FORMAT_ABI */
	const char	*name;		/* used by -f/-t and in messages */
	const char	*desc;		/* one line, for --list-formats */
	const char	*exts;		/* ".pgcl", for guessing from -o */
	unsigned	 flags;		/* PDB_FMT_* */
	enum pdb_build	 build;		/* how to build a tree from its events */
	/* Score 0..100 for the first len bytes.  No side effects. */
	int	(*probe)(const unsigned char *head, size_t len);
	/* Stream the profile to sink; errors through pdb_seterr(db, ...). */
	int	(*read)(struct pdb_input *, struct pdb *,
		    const struct pdb_sink *, const struct pdb_opts *);
	/* Write db's tree; errors through pdb_seterr(db, ...). */
	int	(*write)(struct pdb *, FILE *, const struct pdb_opts *);
	/*
	 * Whether write can run here, for a program to ask before it
	 * reads (pdb_format_ready()); NULL: always.  The DOT and HTML
	 * writers load Graphviz and libxml2 with it.
	 */
	int	(*ready)(struct pdb *);
};

/*
 * The formats of the registry, in probing order: from *i = 0, each call
 * gives the next, and NULL after the last.
 */
const struct pdb_format *pdb_format_next(size_t *i);

/* The format called name, or NULL. */
const struct pdb_format *pdb_format_find(const char *name);
/* The writable format whose extension ends path, or NULL. */
const struct pdb_format *pdb_format_guess(const char *path);
/*
 * Whether format f can be written here (its ready()): PDB_OK, or the
 * error on db, so that a program can fail before it reads a profile
 * rather than after.  f NULL (pdb_format_find() of an unknown name) is
 * PDB_EINVAL.
 */
int pdb_format_ready(const struct pdb_format *f, struct pdb *db);
/* The best reader for these first bytes, or NULL. */
const struct pdb_format *pdb_format_probe(const unsigned char *head,
    size_t len);

/* ---- whole operations ---- */

/*
 * Read path with format fmt (NULL: probe), streaming to sink.  The
 * handle db gets the schema, metadata and cost centres.  *used (may be
 * NULL) gets the format chosen.
 */
int		 pdb_read_stream(struct pdb *db, const char *path,
		    const struct pdb_format *fmt, const struct pdb_opts *,
		    const struct pdb_sink *, const struct pdb_format **used);
/* Read path into db's tree. */
int		 pdb_read_tree(struct pdb *db, const char *path,
		    const struct pdb_format *fmt, const struct pdb_opts *,
		    const struct pdb_format **used);
/* Write db's tree in format fmt: PDB_EINVAL when fmt is NULL (an
 * unknown name) or the tree is empty, PDB_EUNSUPP when fmt cannot be
 * written. */
int		 pdb_write(struct pdb *db, FILE *, const struct pdb_format *fmt,
		    const struct pdb_opts *);
/* For a writer: start the rows of db's tree (pdb_rows_init()), taking
 * the tree (pdb_rows_take()) when opts has PDB_OPT_TAKE. */
int		 pdb_write_rows(struct pdb *db, struct pdb_rows *,
		    const struct pdb_opts *opts);

#ifdef __cplusplus
}
#endif

#endif /* FORMATS_H */
