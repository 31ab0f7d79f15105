/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Private to ccstools: what the format modules share beyond formats.h,
 * for the formats themselves, the tools and the tests.  formats.h is the
 * interface a program uses, and is installed; this header is not, so a
 * reader's insides can change without changing what a program sees.
 *
 * How reading works.  The input is opened, inflated if it is gzip, and
 * its first bytes are buffered.  Every format able to read scores those
 * bytes with probe() (0 = not mine, 100 = certainly mine); the highest
 * score wins, ties going to table order.
 * The chosen reader then streams the profile to a pdb_sink in one
 * forward pass (see pdb.h), which either analyses it on the fly
 * (ccs-flat) or builds the tree (pdb_builder, in the mode the format
 * asks for with .build).
 *
 * Adding a format:
 *  1. write fmt_foo.c defining const struct pdb_format pdb_fmt_foo;
 *  2. add the extern below (here: the installed formats.h names no
 *     format, a program finds one with pdb_format_find());
 *  3. add a row to registry.c;
 *  4. the Makefile picks up formats/fmt_*.c by itself;
 *  5. add fixtures in tests/data/ and tests in tests/formats/test_foo.c;
 *  6. add a paragraph to man/ccs-formats.5 (and a section-5 page if the
 *     format is ours).
 */
#ifndef FORMATS_INT_H
#define FORMATS_INT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "formats.h"
#include "pdb.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const struct pdb_format pdb_fmt_pgcl;
extern const struct pdb_format pdb_fmt_ccsdump;
extern const struct pdb_format pdb_fmt_ghcjson;
extern const struct pdb_format pdb_fmt_ghcprof;
extern const struct pdb_format pdb_fmt_folded;
extern const struct pdb_format pdb_fmt_json;
extern const struct pdb_format pdb_fmt_speedscope;
extern const struct pdb_format pdb_fmt_callgrind;
extern const struct pdb_format pdb_fmt_dot;
extern const struct pdb_format pdb_fmt_html;

/* ---- input ---- */

/*
 * A buffered, gzip-transparent byte source that knows its position for
 * messages.  Readers use the inline helpers on the hot path and
 * pdb_in_fill() when they run out.
 */
struct pdb_input {
	const char	*name;		/* file name, or "<stdin>" */
	unsigned char	*buf;
	size_t		 len;		/* bytes valid in buf */
	size_t		 pos;		/* next byte to read */
	size_t		 cap;
	uint64_t	 base;		/* input offset of buf[0] */
	uint64_t	 line;		/* lines consumed by pdb_in_line() */
	int		 eof;		/* no more bytes after buf[len] */
	int		 err;		/* errno of a failed read, or 0 */
	void		*gz;		/* gzip's inflater, or NULL */
	int		 fd;
	uint64_t	 size;		/* of the file from where the input
					   starts; 0 when unknown */
	/* As in struct pdb_opts; set by pdb_read_stream(). */
	void		(*progress)(void *, uint64_t, uint64_t, int);
	void		*progress_arg;
	/* When mapped (pdb_in_map()): buf is the whole file, of which the
	 * pages before dropped have been given back. */
	int		 mapped;
	int		 unmappable;	/* starts past the file's first byte */
	size_t		 dropped;
	int		 shrank;	/* ended before size: err is EIO */
};

/* Open path ("-" for stdin).  On failure returns NULL with the error on db. */
struct pdb_input *pdb_in_open(struct pdb *db, const char *path);
void		 pdb_in_close(struct pdb_input *);
/* Make at least want bytes available at buf[pos] unless the input ends
 * first.  Returns the number of bytes available (may be < want at end), or
 * -1 after a read error (in->err set). */
long		 pdb_in_fill(struct pdb_input *, size_t want);
/*
 * Read a plain regular file in place, mapped, from where in is: no copy
 * through the kernel, for the binary readers, which never write to the
 * buffer.  Returns 0, or -1 when in stays as it was (a pipe, gzip, no
 * mmap): reading goes on the same either way.
 */
int		 pdb_in_map(struct pdb_input *);
/*
 * Set the error of a failed pdb_in_fill() on db and return its code:
 * out of memory, a bad gzip stream (a format error at the end of the
 * data inflated, where the stream broke off; for bytes after the gzip
 * data, at their offset in the file), or errno.
 */
int		 pdb_in_seterr(struct pdb_input *, struct pdb *);
/*
 * The input failed or ended in the middle of what: pdb_in_seterr() if
 * a fill failed, else "truncated in what" at the reader's offset.
 */
int		 pdb_in_failed(struct pdb_input *, struct pdb *,
		    const char *what);
/* Offset of the next byte. */
static inline uint64_t
pdb_in_offset(const struct pdb_input *in)
{
	return in->base + in->pos;
}
/* Next byte, or -1 at end of input or on error (check in->err). */
static inline int
pdb_in_getc(struct pdb_input *in)
{
	if (in->pos >= in->len && pdb_in_fill(in, 1) <= 0)
		return -1;
	return in->buf[in->pos++];
}
/*
 * The next line without its newline (and without a trailing CR), NUL
 * terminated in place.  Returns 1 with *line and *len set, 0 at end of input,
 * -1 on a read error or a line over 64 MiB (error set on db).
 */
int		 pdb_in_line(struct pdb_input *, struct pdb *, char **line,
		    size_t *len);
/*
 * Read a varint of up to 10 bytes (7 bits a byte, little-endian, top bit
 * = more).  Returns 0, or -1 with the error set on db naming what was
 * being read.
 */
int		 pdb_in_varint(struct pdb_input *, struct pdb *, uint64_t *v,
		    const char *what);
/* Read a NUL-terminated string; *s points into a buffer owned by in and
 * valid until the next call.  Returns 0 or -1 with the error set. */
int		 pdb_in_cstring(struct pdb_input *, struct pdb *, char **s,
		    size_t *len, const char *what);
/* Read the rest of the input into a malloc'd buffer (for parsers that
 * need it whole).  Returns 0 or -1 with the error set. */
int		 pdb_in_slurp(struct pdb_input *, struct pdb *, char **data,
		    size_t *len);

/*
 * Decode the varint at *pp, which must have at least ten readable bytes
 * after it, and advance *pp.  No branch depends on the varint's length
 * for the common lengths (up to 8 bytes), so the hot loops of binary
 * readers keep the pipeline busy.  Returns 0, or -1 for a varint longer
 * than 10 bytes or above 64 bits (*pp unchanged): the reader's careful
 * path then reports it.
 */
static inline int
pdb_varint_dec(const unsigned char **pp, uint64_t *vp)
{
	const unsigned char *p = *pp;
	uint64_t v;
	unsigned i;

	if (p[0] < 0x80) {
		*vp = p[0];
		*pp = p + 1;
		return 0;
	}
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	{
		uint64_t w, stop;

		memcpy(&w, p, 8);
		stop = ~w & 0x8080808080808080ULL;
		if (stop != 0) {
			/* Keep the bytes up to the last, then pack 7-bit
			 * groups: 8 into 16, 16 into 32, 32 into 64 bits. */
			w &= (stop ^ (stop - 1)) & 0x7f7f7f7f7f7f7f7fULL;
			w = (w & 0x007f007f007f007fULL) |
			    ((w & 0x7f007f007f007f00ULL) >> 1);
			w = (w & 0x00003fff00003fffULL) |
			    ((w & 0x3fff00003fff0000ULL) >> 2);
			w = (w & 0x000000000fffffffULL) |
			    ((w & 0x0fffffff00000000ULL) >> 4);
			*vp = w;
			*pp = p + __builtin_ctzll(stop) / 8 + 1;
			return 0;
		}
	}
#endif
	v = 0;
	for (i = 0; i < 10; i++) {
		v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (p[i] < 0x80) {
			if (i == 9 && p[i] > 1)
				return -1;
			*vp = v;
			*pp = p + i + 1;
			return 0;
		}
	}
	return -1;
}

/*
 * The n decimal digits at s as an int64_t, in any locale: 0, -1 when
 * there are none or something else is there (whatever their length),
 * -2 when they pass INT64_MAX.  Eighteen digits cannot, so only longer
 * counts are checked.
 */
static inline int
pdb_parse_digits(const char *s, size_t n, int64_t *out)
{
	uint64_t v = 0;
	size_t i;
	unsigned d;
	int over = 0;

	if (n == 0)
		return -1;
	/* One pass; the first 18 digits cannot pass INT64_MAX. */
	for (i = 0; i < n && i < 18; i++) {
		if ((d = (unsigned)(unsigned char)s[i] - '0') > 9)
			return -1;
		v = v * 10 + d;
	}
	for (; i < n; i++) {
		if ((d = (unsigned)(unsigned char)s[i] - '0') > 9)
			return -1;	/* not a number, however long */
		over |= v > (uint64_t)(INT64_MAX - d) / 10;
		v = v * 10 + d;
	}
	if (over)
		return -2;
	*out = (int64_t)v;
	return 0;
}

/* The int64_t of a zigzag varint: 0, -1, 1, -2, ... as 0, 1, 2, 3, ... */
static inline uint64_t
pdb_unzigzag(uint64_t u)
{
	return (u >> 1) ^ (0 - (u & 1));
}

/*
 * Decode the k varints at *pp, a node of a binary format, into v and
 * advance *pp.  With zz set, those between the first and the last are
 * zigzag encoded (the dump's metrics): v gets the int64_t's bits.  Bit j
 * of skip says that varint j's value is not wanted: a decoder may leave
 * v[j] unset (it still checks the varint).  Needs 10 * k readable bytes.
 * Returns 0, or -1 for a bad varint (*pp then undefined), which the
 * reader's careful path then reports.
 */
static inline __attribute__((always_inline)) int
pdb_varints_dec(const unsigned char **pp, uint64_t *v, unsigned k, int zz,
    uint32_t skip)
{
	unsigned j;
	int bad = 0;

	(void)skip;	/* the values come with the lengths */
	/* Errors are rare: decode them all, then look. */
	for (j = 0; j < k; j++) {
		bad |= pdb_varint_dec(pp, &v[j]);
		if (zz && j > 0 && j + 1 < k)
			v[j] = pdb_unzigzag(v[j]);
	}
	return bad;
}

/* A node decoder, for loops instantiated once per decoder. */
typedef int	 pdb_varints_fn(const unsigned char **, uint64_t *, unsigned,
		    int, uint32_t);

/*
 * pdb_varints_dec() for up to 16 varints within 32 bytes, with BMI2.
 * One varint after the other, each start waits for the load and length
 * of the varint before, some 9 cycles a varint; here the ends of them
 * all are the clear top bits of 32 bytes, taken in one go (SSE2), and
 * each value is gathered by one pext, so only a chain of bit clears
 * remains; a skipped value costs only its length check.  Needs 48
 * readable bytes.  Returns -1 also when the varints
 * do not end within 32 bytes: the reader's careful path then takes the
 * node.  Call it only from a function compiled for BMI2 (the target
 * attribute) and only where pdb_cpu_pext() says pext is fast.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define PDB_HAVE_PEXT	1

static inline __attribute__((target("bmi,bmi2"), always_inline)) int
pdb_varints_pext(const unsigned char **pp, uint64_t *v, unsigned k, int zz,
    uint32_t skip)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7fULL;
	const unsigned char *p = *pp;
	uint64_t w;
	uint32_t ends;
	unsigned j, s = 0, e, len;
	int bad = 0;

	ends = ~((uint32_t)_mm_movemask_epi8(_mm_loadu_si128(
	    (const __m128i *)p)) | (uint32_t)_mm_movemask_epi8(
	    _mm_loadu_si128((const __m128i *)(p + 16))) << 16);
#pragma GCC unroll 16
	for (j = 0; j < k; j++) {
		/* Past the last end, e is 32 and s ends above 32. */
		e = _tzcnt_u32(ends);
		ends = _blsr_u32(ends);
		len = e - s + 1;
		/* Only metrics are skipped: the test goes from the ends. */
		if (j > 0 && j + 1 < k && (skip >> j & 1)) {
			if (__builtin_expect(len > 8, 0))
				bad |= len > 10 || (len == 10 && p[s + 9] > 1);
			s = e + 1;
			continue;
		}
		memcpy(&w, p + s, 8);
		if (__builtin_expect(len <= 8, 1))
			v[j] = _pext_u64(w, _bzhi_u64(low7, 8 * len));
		else {
			/* 9 or 10 bytes: bits 56 to 63 follow. */
			v[j] = _pext_u64(w, low7) |
			    (uint64_t)(p[s + 8] & 0x7f) << 56;
			if (len == 10) {
				v[j] |= (uint64_t)p[s + 9] << 63;
				bad |= p[s + 9] > 1;
			}
			bad |= len > 10;
		}
		if (zz && j > 0 && j + 1 < k)
			v[j] = pdb_unzigzag(v[j]);
		s = e + 1;
	}
	if (bad || s > 32)
		return -1;
	*pp = p + s;
	return 0;
}
#endif
/* What this CPU and system run fast: pext (BMI2, but not on AMD before
 * Zen 3, where it takes tens of cycles), pdb_put_node_avx512() and the
 * pclmul CRC, 128 or 512 bits at a time.  In libprofdb
 * (libprofdb/cpu.c), which asks the CPU once for both libraries. */
int		 pdb_cpu_pext(void);
int		 pdb_cpu_avx512(void);
int		 pdb_cpu_pclmul(void);
int		 pdb_cpu_vpclmul(void);

/*
 * The open levels of a tree stored in pre-order with child counts (pgcl,
 * the dump), above a virtual level 0 whose children are the roots: rem
 * children are still to come.  How many levels close after a node (its
 * exits) would take a loop over the levels above, whose length the
 * branch predictor cannot guess; instead each level keeps run, the
 * number of levels up to it with none to come (the virtual one never
 * counts), so that a leaf closes its own run.
 */
struct pdb_level {
	uint64_t	 rem;
	uint64_t	 run;
};

/* Double the room for levels at *lv, *cap of them.  Returns 0, or
 * PDB_ENOMEM with db's error set and *lv as it was. */
int		 pdb_levels_grow(struct pdb_level **lv, size_t *cap,
		    struct pdb *db);

/* A child of level t starts; virt says t is level 0. */
static inline void
pdb_level_child(struct pdb_level *t, int virt)
{
	t->rem--;
	t->run = virt ? 0 : (t[-1].run + 1) & (0 - (uint64_t)(t->rem == 0));
}

/* Open the level of a node with nch children above t (the room is the
 * caller's); returns how many levels it closes: 0 unless nch is 0. */
static inline uint64_t
pdb_level_push(struct pdb_level *t, uint64_t nch)
{
	t[1].rem = nch;
	t[1].run = (t->run + 1) & (0 - (uint64_t)(nch == 0));
	return t[1].run;
}

/*
 * A batch of nodes being decoded for a sink that takes them in bulk
 * (struct pdb_batch).  Readers flush it when it is full, before reading
 * anything the slow way (which may move the buffer), and at the end.
 * Node i has nm + 2 slots at raw + i * (nm + 2), for a reader to decode
 * a node's varints in place: its values are slots 1 to nm.
 */
#define PDB_BATCH_MAX	256

struct pdb_batcher {
	size_t		 n;
	unsigned	 nm;
	uint32_t	 cc[PDB_BATCH_MAX];
	size_t		 exits[PDB_BATCH_MAX];
	uint64_t	*raw;			/* PDB_BATCH_MAX * (nm + 2) */
	uint32_t	 skip;		/* slots the sink does not read */
};

/* The bit of skip for metric m: the node's varint 1 + m. */
#define PDB_SKIP(m)	((uint32_t)1 << ((m) + 1))

/* Returns 0, or -1 when out of memory (nothing set on any handle). */
int		 pdb_batcher_init(struct pdb_batcher *, unsigned nm);
/*
 * Set skip from sink->columns(): the slots (bit 1 + m for metric m) of
 * the metrics the sink does not read, for a node decoder to leave.
 */
void		 pdb_batcher_columns(struct pdb_batcher *, struct pdb *,
		    const struct pdb_sink *);
void		 pdb_batcher_free(struct pdb_batcher *);
/*
 * Hand the batch, whose first node starts at buffer offset start, to
 * sink->nodes() and empty it.  A node is nm + 2 varints.  When the sink
 * fails, in->pos goes to the end of the node that failed, so that the
 * error names the offset it would have with enter() and exit(): found
 * by decoding the batch again, which spares the readers' hot loops a
 * store a node.
 */
int		 pdb_batcher_flush(struct pdb_batcher *, struct pdb_input *,
		    struct pdb *, const struct pdb_sink *, size_t start);

/* zlib's crc32(), faster where the CPU multiplies polynomials (crc32.c). */
uint32_t	 pdb_crc32(uint32_t crc, const unsigned char *, size_t len);
#if defined(__x86_64__) && defined(__GNUC__)
/* Its folds, for the tests and the bench: len a multiple of 64 (pclmul)
 * or of 256 (512-bit vpclmulqdq), at least one such block, and the CPU
 * able. */
uint32_t	 pdb_crc32_fold(uint32_t crc, const unsigned char *, size_t len);
uint32_t	 pdb_crc32_fold512(uint32_t crc, const unsigned char *,
		    size_t len);
#endif

/*
 * The length of the well-formed UTF-8 sequence at p (n bytes there) and
 * its code point in *cp, or 0 (utf8.c).
 */
size_t		 pdb_utf8_seq(const unsigned char *p, size_t n, uint32_t *cp);
/* The length of p's longest well-formed UTF-8 prefix: n if all of it. */
size_t		 pdb_utf8_valid(const unsigned char *p, size_t n);
/* Whether the string s is UTF-8, as a JSON string must be. */
int		 pdb_utf8_string(const char *s);
/*
 * A copy of s, to free, that is UTF-8: each byte of s that is no part of
 * a well-formed sequence written as the text \xNN, as ccs2dot and the
 * reports show it.  NULL when out of memory.
 */
char		*pdb_utf8_escape(const char *s);

/*
 * Of the n cost centres ccs of db (NULL: its first n), set shared[i] when
 * another of them has the same label and module, as GHC's
 * -fprof-auto-calls makes one a call site (names.c).  Returns how many
 * names are so shared (0: none), or -1 when out of memory.
 */
int		 pdb_names_shared(const struct pdb *db, const uint32_t *ccs,
		    size_t n, unsigned char *shared);

/*
 * Metadata value key as an unsigned decimal number in *v: returns 1, or
 * 0 with *v 0 when it is absent or no such number (io.c).
 */
int		 pdb_meta_u64(const struct pdb *db, const char *key,
		    uint64_t *v);

/*
 * Whether the pgcl reader took the profiling overhead from db's ticks
 * (--compensate), which its metadata keep as "compensated: yes"; with m
 * not PDB_NONE, whether metric m holds those ticks (io.c).
 */
int		 pdb_ticks_compensated(const struct pdb *db, unsigned m);
/*
 * What a report says after metric m's name or total: " (approximate)"
 * for values rebuilt from rounded percentages, " (compensated for
 * profiling overhead)" for ticks the pgcl reader compensated, both, or
 * "" (io.c).
 */
const char	*pdb_metric_qualifiers(const struct pdb *db, unsigned m);

/*
 * Split a GHC source location, "Main.hs:16:1-41" or
 * "Main.hs:(18,1)-(19,28)", into the length of its file part, its first
 * line and column (col may be NULL; 0 when not given), as srcloc.c
 * says.  Returns 0 when src has no such form, as "<built-in>".
 */
int		 pdb_src_split(const char *src, size_t *flen, uint64_t *line,
		    uint64_t *col);

/* Make the malloc'd buffer *pp hold at least need bytes, growing *cap.
 * Returns 0, or -1 when out of memory (the buffer is left as it was). */
int		 pdb_buf_reserve(void *pp, size_t *cap, size_t need);

/* ---- output helpers ---- */

/*
 * Text that grows as it is put together (a line, a document).  err is
 * set, and stays set, when growing it ran out of memory; what follows
 * is then dropped.  p is NUL-terminated after each add.
 */
struct pdb_text {
	char		*p;
	size_t		 len, cap;
	int		 err;
};

/* Room for n more bytes (and the NUL) at t->p + t->len: 1, or 0 when
 * out of memory. */
int		 pdb_text_room(struct pdb_text *t, size_t n);
/* Add the n bytes at s; returns 0, or -1 when out of memory. */
int		 pdb_text_add(struct pdb_text *t, const char *s, size_t n);

/*
 * Put v in decimal ("%" PRId64) at p, which has room for 20 bytes;
 * returns its end.  For writers of text that print numbers by the
 * million, where printf() would be most of their time.
 */
static inline char *
pdb_put_decimal(char *p, int64_t v)
{
	char digits[20], *d = digits + sizeof(digits);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	size_t n;

	do
		*--d = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (v < 0)
		*--d = '-';
	n = (size_t)(digits + sizeof(digits) - d);
	memcpy(p, d, n);
	return p + n;
}

/* Write v as a varint. */
void		 pdb_out_varint(FILE *, uint64_t v);
/* Put v as a varint at p, which has room for 10 bytes; returns its end. */
static inline unsigned char *
pdb_put_varint(unsigned char *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	return p;
}

#ifdef PDB_HAVE_PEXT
/*
 * The same without a branch, for values below 2^56 (8 bytes of varint):
 * pdep spreads the 7-bit groups over the bytes, and the value's count of
 * leading zeros picks from a table its length and the continuation bits
 * of every byte but the last.  Writes 8 bytes at p.
 */
struct pdb_varint_shape {
	uint64_t	 cont;		/* continuation bits */
	uint64_t	 len;		/* bytes */
};
extern const struct pdb_varint_shape pdb_varint_shapes[64];

static inline __attribute__((target("bmi,bmi2"), always_inline))
unsigned char *
pdb_put_varint56(unsigned char *p, uint64_t v)
{
	const struct pdb_varint_shape *s =
	    &pdb_varint_shapes[__builtin_clzll(v | 1)];
	uint64_t w = _pdep_u64(v, 0x7f7f7f7f7f7f7f7fULL) | s->cont;

	memcpy(p, &w, 8);
	return p + s->len;
}

/*
 * A node of the dump, its cost centre, nm zigzagged values and child
 * count, all nm + 2 varints at once, each in a lane of a 512-bit
 * register (AVX-512): the lanes' leading zeros give their lengths, a
 * byte shuffle puts each 7-bit group in a byte, and the valid bytes are
 * compressed together and stored in one go, where the scalar encoders
 * take some 12 instructions a varint.  For nm up to 6; reads vals[0]
 * to vals[nm - 1] and stores 64 bytes at p.  Returns the end, or NULL
 * (nothing written that counts) when a field is 2^56 or more.  Call it only from
 * a function compiled for PDB_AVX512 and where pdb_cpu_avx512() says so.
 */
#define PDB_HAVE_AVX512	1
#define PDB_AVX512	\
	"avx512f,avx512bw,avx512cd,avx512vbmi,avx512vbmi2,popcnt"

static inline __attribute__((target(PDB_AVX512), always_inline))
unsigned char *
pdb_put_node_avx512(unsigned char *p, uint32_t cc, const int64_t *vals,
    unsigned nm, uint32_t nkids)
{
	const __m512i one = _mm512_set1_epi64(1);
	__m512i v, z, len, lenb, bytes;
	__mmask64 valid, cont, fields;

	/* Lane 0 the cost centre, 1 to nm the values, nm + 1 the count. */
	v = _mm512_maskz_loadu_epi64((__mmask8)((1u << nm) - 1), vals);
	v = _mm512_alignr_epi64(v, _mm512_setzero_si512(), 7);
	z = _mm512_xor_si512(_mm512_slli_epi64(v, 1),
	    _mm512_srai_epi64(v, 63));
	v = _mm512_mask_mov_epi64(v, (__mmask8)(((1u << nm) - 1) << 1), z);
	v = _mm512_mask_set1_epi64(v, 1, (long long)cc);
	v = _mm512_mask_set1_epi64(v, (__mmask8)(1u << (nm + 1)),
	    (long long)nkids);
	if (_mm512_test_epi64_mask(v,
	    _mm512_set1_epi64((long long)0xff00000000000000ULL)) != 0)
		return NULL;
	/* (bits + 6) / 7 bytes, bits = 64 - leading zeros, at least 1:
	 * x / 7 is x * 37 >> 8 for x below 63. */
	len = _mm512_srli_epi64(_mm512_mullo_epi32(_mm512_sub_epi64(
	    _mm512_set1_epi64(70), _mm512_lzcnt_epi64(_mm512_or_si512(v,
	    one))), _mm512_set1_epi64(37)), 8);
	/* Byte j of a lane: bits 7j to 7j + 6; the lane's length in each
	 * of its bytes, to compare with j. */
	bytes = _mm512_and_si512(_mm512_multishift_epi64_epi8(
	    _mm512_set1_epi64(0x312a231c150e0700LL), v),
	    _mm512_set1_epi8(0x7f));
	lenb = _mm512_shuffle_epi8(len, _mm512_set_epi64(
	    0x0808080808080808LL, 0, 0x0808080808080808LL, 0,
	    0x0808080808080808LL, 0, 0x0808080808080808LL, 0));
	fields = nm + 2 == 8 ? ~(__mmask64)0 :
	    ((__mmask64)1 << (8 * (nm + 2))) - 1;
	valid = _mm512_cmplt_epu8_mask(_mm512_set1_epi64(
	    0x0706050403020100LL), lenb) & fields;
	cont = _mm512_cmplt_epu8_mask(_mm512_set1_epi64(
	    0x0706050403020100LL), _mm512_sub_epi8(lenb,
	    _mm512_set1_epi8(1)));
	bytes = _mm512_mask_mov_epi8(bytes, cont, _mm512_or_si512(bytes,
	    _mm512_set1_epi8((char)0x80)));
	_mm512_storeu_si512(p, _mm512_maskz_compress_epi8(valid, bytes));
	return p + _mm_popcnt_u64(valid);
}
#endif

#ifdef __cplusplus
}
#endif

#endif /* FORMATS_INT_H */
