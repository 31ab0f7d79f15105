/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * yajl's event parser, made safe out of memory (yajlguard.c).
 */
#ifndef YAJLGUARD_H
#define YAJLGUARD_H

#include <setjmp.h>
#include <stddef.h>

#include <yajl/yajl_parse.h>

struct pdb_yajl_block;

/*
 * A yajl parser and the blocks it holds.  After an allocation failed
 * (nomem set) the parser is dead: the calls below return an error and
 * pdb_yajl_close() frees its blocks without asking yajl.
 */
struct pdb_yajl {
	yajl_handle		 h;
	yajl_alloc_funcs	 funcs;
	struct pdb_yajl_block	*blocks;	/* every block yajl holds */
	jmp_buf			 fail;		/* in the call under way */
	int			 nomem;
};

/* A parser calling cb with ctx; 0, or -1 when out of memory. */
int		 pdb_yajl_open(struct pdb_yajl *y, const yajl_callbacks *cb,
		    void *ctx);
/* yajl_parse() and yajl_complete_parse(); yajl_status_error and nomem
 * set when out of memory. */
yajl_status	 pdb_yajl_parse(struct pdb_yajl *y, const unsigned char *s,
		    size_t len);
yajl_status	 pdb_yajl_complete(struct pdb_yajl *y);
/*
 * yajl's message for a syntax error in the chunk s[0, len) it last
 * parsed, to its first newline, in buf; "parse error" when it has none
 * or there is no memory for it.
 */
void		 pdb_yajl_message(struct pdb_yajl *y, const unsigned char *s,
		    size_t len, char *buf, size_t size);
void		 pdb_yajl_close(struct pdb_yajl *y);

#endif /* YAJLGUARD_H */
