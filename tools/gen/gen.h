/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-gen's parts (tools/ccs-gen.c says how they fit together):
 *
 *   rng.c	random numbers and the distributions drawn from
 *   model.c	modules, cost centres and the call graph of a program
 *   generate.c	the stack tree unrolled from the call graph, in pre-order
 *   obuf.c	buffered output that counts and checksums what it writes
 *   stream.c	writers of pgcl, the dump, folded stacks and GHC JSON as
 *		the nodes are generated, in the library's bytes
 *   tree.c	the generated tree in a libprofdb handle
 *   ghcprof.c	GHC's text report of that tree
 */
#ifndef CCS_GEN_H
#define CCS_GEN_H

#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#include "pdb.h"
#include "xmalloc.h"

#define GEN_DATE	"Thu Jan  1 00:00 2026"
#define NMAXMETRICS	6		/* of any flavour */

/* The profiler a format's stacks look as if written by. */
enum flavour { FL_GHC, FL_DUMP, FL_CLEAN, FL_FOLDED };

/* An output format and how it is written. */
struct outfmt {
	const char	*name;
	enum flavour	 fl;
	const char	*lib;		/* library writer, or NULL */
	int		 stream;	/* ccs-gen has a streaming writer */
	int		 binary;
	unsigned	 bpn;		/* first guess of bytes per node */
};

/* rng.c */
struct rng {
	uint64_t	 s[4];
};

void		 rng_seed(struct rng *, uint64_t seed, uint64_t stream);
uint64_t	 rng_next(struct rng *);
uint64_t	 rng_uniform(struct rng *, uint64_t n);
int		 rng_chance(struct rng *, unsigned k);
unsigned	 rng_geom(struct rng *, unsigned max);
uint64_t	 rng_heavy(struct rng *, unsigned bits);
int64_t		 rng_logu(struct rng *, unsigned lo, unsigned hi);

/* model.c */
enum ckind { CK_ROOT, CK_BUILTIN, CK_CAF, CK_GC, CK_FUNC };

struct gcc {
	char		*label;
	char		*src;
	char		*frame;		/* escaped "Module.label", for folded */
	size_t		 framelen;
	uint32_t	 mod;
	unsigned	 kind;		/* CK_* */
	int		 recursive;	/* calls itself first */
};

struct mdef {
	const char	*name;
	const char	*unit;
	enum pdb_kind	 kind;
};

struct model {
	enum flavour	 fl;
	const struct outfmt *fmt;
	uint64_t	 seed;
	uint64_t	 target;	/* node budget */
	char		**mods;
	uint32_t	 nmod;
	struct gcc	*cc;
	uint32_t	 ncc;
	uint32_t	*cgoff;		/* callees of c: cg[cgoff[c]..cgoff[c+1]) */
	uint32_t	*cg;
	const struct mdef *metrics;
	unsigned	 nm;
	uint32_t	 maxdepth;
	char		*meta[8][2];
	size_t		 nmeta;
};

void		 model_build(struct model *, const struct outfmt *,
		    uint64_t seed, uint64_t nodes);
void		 model_free(struct model *);
uint32_t	 cc_flags(const struct model *, uint32_t cc);
int64_t		 cc_id(const struct model *, uint32_t cc);

/* generate.c */

/* What the generator tells a writer, in pre-order. */
struct gsink {
	int	(*enter)(void *arg, uint32_t cc, const int64_t *v,
		    uint32_t nkids);
	int	(*exit)(void *arg);
	void	 *arg;
};

struct gstats {
	uint64_t	 nodes;
	uint64_t	 depthsum;
	uint64_t	 maxdepth;
};

int		 generate(const struct model *, const struct gsink *,
		    struct gstats *);

/* obuf.c */
struct obuf {
	FILE		*f;		/* NULL: only count */
	uint64_t	 total;
	uLong		 crc;
	int		 docrc;
	size_t		 len;
	unsigned char	 buf[1 << 16];
};

void		 ob_flush(struct obuf *);
void		 ob_bytes(struct obuf *, const void *, size_t);
void		 ob_str(struct obuf *, const char *);
void		 ob_byte(struct obuf *, int);
void		 ob_varint(struct obuf *, uint64_t);
void		 ob_svarint(struct obuf *, int64_t);
void		 ob_printf(struct obuf *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 ob_dec(struct obuf *, int64_t);
void		 ob_dstr(struct obuf *, const char *);
void		 ob_u32(struct obuf *, uint32_t);

/* stream.c */
void		 stream_dump(const struct model *, struct obuf *,
		    struct gstats *);
void		 stream_pgcl(const struct model *, struct obuf *,
		    struct gstats *);
void		 stream_folded(const struct model *, struct obuf *,
		    struct gstats *);
void		 stream_ghcjson(const struct model *, struct obuf *,
		    struct gstats *);

/* tree.c */
struct pdb	*tree_build(const struct model *, struct gstats *);

/* ghcprof.c */
void		 ghcprof_write(const struct model *, struct pdb *,
		    struct obuf *);

#endif
