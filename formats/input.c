/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The input layer: a file or stdin read through zlib, which passes plain
 * bytes through and inflates gzip, into a buffer that readers consume
 * with the helpers of formats.h.  Works on pipes: nothing seeks.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "formats.h"

#ifdef PDB_SMALL_BUFFERS
/*
 * Buffers of a few hundred bytes, for the sanitized tests (config.mk):
 * every reader then meets the end of its buffer many times a file.
 */
#define CHUNK		((size_t)200)
#define BUFSIZE		(2 * CHUNK)
#define ZBUFSIZE	((size_t)256)
#define GZBUFSIZE	((size_t)300)
#define MAPCHUNK	((size_t)333)
#define FIRSTSIZE	((size_t)100)
#define DROP		((size_t)8192)
#else
#define CHUNK		((size_t)64 * 1024)
/*
 * The buffer of a file read, not mapped: small enough to stay in the
 * cache between the read's copy and the parse, and to take a few page
 * faults, where a buffer of 1 MB took one for every 4 KB of a small
 * file (a quarter of the run of ccs-flat on 1 MB of folded stacks).
 * zlib reads straight into it, without a copy through its own buffer,
 * when asked for twice that buffer (ZBUFSIZE) or more.  A gzip stream
 * inflates in longer steps into a buffer of GZBUFSIZE: 1.4% faster on
 * 100 MB than into the small one.
 */
#define BUFSIZE		(2 * CHUNK)
#define ZBUFSIZE	((size_t)32 * 1024)
#define GZBUFSIZE	((size_t)1024 * 1024)
/* A mapped file's window grows this much at a time. */
#define MAPCHUNK	((size_t)256 * 1024)
/*
 * The first fill, which takes a format's head, reads this much: a
 * binary reader then maps the file, and a whole buffer read and thrown
 * away was wasted.  It is also below glibc's threshold for mapping an
 * allocation, so that freeing it does not raise that threshold, which
 * would have every growing array of the tree below the new one copied
 * at each doubling instead of moved by mremap(2).
 */
#define FIRSTSIZE	((size_t)64 * 1024)
/* A mapped file's pages read are given back this many bytes at a time. */
#define DROP		((size_t)4 * 1024 * 1024)
#endif
#define MAX_TOKEN	((size_t)64 * 1024 * 1024)	/* longest line or string */

struct pdb_input *
pdb_in_open(struct pdb *db, const char *path)
{
	struct pdb_input *in;
	struct stat st;
	int fd;

	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY);
	if (fd < 0) {
		pdb_seterr(db, PDB_EIO, "%s: %s",
		    strcmp(path, "-") == 0 ? "<stdin>" : path, strerror(errno));
		return NULL;
	}
	if ((in = calloc(1, sizeof(*in))) == NULL ||
	    (in->buf = malloc(FIRSTSIZE + 1)) == NULL ||
	    (in->gz = gzdopen(fd, "rb")) == NULL) {
		if (in != NULL)
			free(in->buf);
		free(in);
		close(fd);
		pdb_seterr(db, PDB_ENOMEM, "out of memory");
		return NULL;
	}
	gzbuffer(in->gz, ZBUFSIZE);
	in->fd = fd;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		in->size = (uint64_t)st.st_size;
	in->cap = FIRSTSIZE;
	in->name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	return in;
}

void
pdb_in_close(struct pdb_input *in)
{
	if (in == NULL)
		return;
	if (in->progress != NULL)
		in->progress(in->progress_arg, in->mapped ? (uint64_t)in->len :
		    (uint64_t)gzoffset(in->gz), in->size, 1);
	gzclose(in->gz);	/* closes the descriptor too */
	if (in->mapped)
		munmap(in->buf, (size_t)in->size);
	else
		free(in->buf);
	free(in);
}

/*
 * The copy read() makes is some 15% of the time of the binary readers.
 * A file truncated by someone else while mapped would raise SIGBUS, as
 * it does for every program that maps its input.
 */
int
pdb_in_map(struct pdb_input *in)
{
	unsigned char *map;
	uint64_t at;

	if (in->mapped)
		return 0;
	if (in->size == 0 || in->size > SIZE_MAX || in->err ||
	    gzdirect(in->gz) != 1)
		return -1;
	/* What is buffered came from the file: it is in the map too. */
	at = in->base + in->pos;
	if (in->base + in->len > in->size)
		return -1;
	map = mmap(NULL, (size_t)in->size, PROT_READ, MAP_PRIVATE, in->fd, 0);
	if (map == MAP_FAILED)
		return -1;
	(void)madvise(map, (size_t)in->size, MADV_SEQUENTIAL);
	free(in->buf);
	in->buf = map;
	in->len = (size_t)(in->base + in->len);
	in->pos = (size_t)at;
	in->base = 0;
	in->cap = (size_t)in->size;
	in->eof = in->len == in->cap;
	in->mapped = 1;
	in->dropped = 0;
	return 0;
}

/*
 * pdb_in_fill() of a mapped file: the window grows a chunk at a time, so
 * that the progress callback still comes, and the pages read are given
 * back, so that memory does not grow with the file.
 */
static long
fill_mapped(struct pdb_input *in, size_t want)
{
	size_t end, keep;

	end = in->pos + want > in->len + MAPCHUNK ? in->pos + want :
	    in->len + MAPCHUNK;
	in->len = end < in->cap ? end : in->cap;
	in->eof = in->len == in->cap;
	keep = in->pos & ~(size_t)0xfff;
	if (keep - in->dropped >= DROP) {
		(void)madvise(in->buf + in->dropped, keep - in->dropped,
		    MADV_DONTNEED);
		in->dropped = keep;
	}
	if (in->progress != NULL)
		in->progress(in->progress_arg, (uint64_t)in->len, in->size, 0);
	return (long)(in->len - in->pos);
}

long
pdb_in_fill(struct pdb_input *in, size_t want)
{
	unsigned char *nb;
	size_t ncap, full;
	int n;

	if (in->len - in->pos >= want || in->eof)
		return (long)(in->len - in->pos);
	if (in->mapped)
		return fill_mapped(in, want);
	if (in->err)
		return -1;	/* a failed read stays failed */
	/* Move the unread bytes to the front. */
	if (in->pos > 0) {
		memmove(in->buf, in->buf + in->pos, in->len - in->pos);
		in->base += in->pos;
		in->len -= in->pos;
		in->pos = 0;
	}
	/* After the first fill, the full buffer. */
	ncap = in->cap;
	if (in->base + in->len > 0) {
		full = gzdirect(in->gz) ? BUFSIZE : GZBUFSIZE;
		ncap = ncap < full ? full : ncap;
	}
	while (ncap < want)
		ncap *= 2;
	if (ncap > in->cap) {
		if ((nb = realloc(in->buf, ncap + 1)) == NULL) {
			in->err = ENOMEM;
			return -1;
		}
		in->buf = nb;
		in->cap = ncap;
	}
	while (in->len < want) {
		n = gzread(in->gz, in->buf + in->len,
		    (unsigned)(in->cap - in->len));
		if (n < 0) {
			int zerr;

			gzerror(in->gz, &zerr);
			in->err = zerr == Z_ERRNO && errno ? errno : EIO;
			return -1;
		}
		if (n == 0) {
			int zerr;
			const char *msg = gzerror(in->gz, &zerr);

			/* A truncated gzip stream ends with an error. */
			if (zerr != Z_OK && zerr != Z_STREAM_END && msg) {
				in->err = EIO;
				return -1;
			}
			in->eof = 1;
			break;
		}
		in->len += (size_t)n;
	}
	/* gzoffset() counts the file's bytes, compressed or not. */
	if (in->progress != NULL)
		in->progress(in->progress_arg, (uint64_t)gzoffset(in->gz),
		    in->size, 0);
	return (long)(in->len - in->pos);
}

/*
 * zlib's message for a bad gzip stream, or NULL.  zlib puts the name it
 * was given first, which for a descriptor is "<fd:3>": the caller names
 * the file, so that goes.
 */
const char *
pdb_in_zmsg(const struct pdb_input *in)
{
	const char *msg, *p;
	int zerr;

	if (in->err != EIO || in->gz == NULL ||
	    (msg = gzerror(in->gz, &zerr)) == NULL || zerr == Z_ERRNO ||
	    zerr == Z_OK || *msg == '\0')
		return NULL;
	if (strncmp(msg, "<fd:", 4) == 0 && (p = strstr(msg, ">: ")) != NULL)
		msg = p + 3;
	return msg;
}

/* Set the error for a failed fill; returns -1. */
static int
fill_error(struct pdb_input *in, struct pdb *db, const char *what)
{
	const char *msg;

	if (in->err == ENOMEM)
		pdb_seterr(db, PDB_ENOMEM, "out of memory");
	else if ((msg = pdb_in_zmsg(in)) != NULL)
		pdb_seterr(db, PDB_EFORMAT, "%s: byte %llu: %s", in->name,
		    (unsigned long long)pdb_in_offset(in), msg);
	else if (in->err)
		pdb_seterr(db, PDB_EIO, "%s: %s", in->name, strerror(in->err));
	else
		pdb_seterr(db, PDB_EFORMAT, "%s: byte %llu: truncated in %s",
		    in->name, (unsigned long long)pdb_in_offset(in), what);
	return -1;
}

int
pdb_in_line(struct pdb_input *in, struct pdb *db, char **line, size_t *len)
{
	unsigned char *nl;
	size_t scanned = 0, n;
	long got;

	for (;;) {
		nl = memchr(in->buf + in->pos + scanned, '\n',
		    in->len - in->pos - scanned);
		if (nl != NULL)
			break;
		scanned = in->len - in->pos;
		if (scanned > MAX_TOKEN) {
			pdb_seterr(db, PDB_EFORMAT, "%s:%llu: line too long",
			    in->name, (unsigned long long)in->line + 1);
			return -1;
		}
		if (in->eof)
			break;
		got = pdb_in_fill(in, scanned + CHUNK);
		if (got < 0)
			return fill_error(in, db, "line");
	}
	if (nl == NULL && in->len == in->pos)
		return 0;
	*line = (char *)in->buf + in->pos;
	n = nl ? (size_t)(nl - (in->buf + in->pos)) : in->len - in->pos;
	in->pos += nl ? n + 1 : n;
	/* The buffer has one spare byte past cap for this NUL. */
	(*line)[n] = '\0';
	if (n > 0 && (*line)[n - 1] == '\r')
		(*line)[--n] = '\0';
	*len = n;
	in->line++;
	return 1;
}

int
pdb_in_varint(struct pdb_input *in, struct pdb *db, uint64_t *v,
    const char *what)
{
	uint64_t r = 0;
	uint64_t start = pdb_in_offset(in);
	int c, i;

	for (i = 0; i < 10; i++) {
		if ((c = pdb_in_getc(in)) < 0)
			return fill_error(in, db, what);
		if (i == 9 && (c & 0xfe) != 0) {
			pdb_seterr(db, PDB_EFORMAT,
			    "%s: byte %llu: varint %s in %s",
			    in->name, (unsigned long long)start,
			    c & 0x80 ? "longer than 10 bytes" :
			    "overflows 64 bits", what);
			return -1;
		}
		r |= (uint64_t)(c & 0x7f) << (7 * i);
		if ((c & 0x80) == 0) {
			*v = r;
			return 0;
		}
	}
	/* Ten bytes, all with the continuation bit: caught above. */
	return -1;
}

int
pdb_in_cstring(struct pdb_input *in, struct pdb *db, char **s, size_t *len,
    const char *what)
{
	unsigned char *z;
	size_t scanned = 0;

	for (;;) {
		z = memchr(in->buf + in->pos + scanned, '\0',
		    in->len - in->pos - scanned);
		if (z != NULL)
			break;
		scanned = in->len - in->pos;
		if (scanned > MAX_TOKEN) {
			pdb_seterr(db, PDB_EFORMAT,
			    "%s: byte %llu: string too long in %s", in->name,
			    (unsigned long long)pdb_in_offset(in), what);
			return -1;
		}
		if (in->eof) {
			in->pos = in->len;
			return fill_error(in, db, what);
		}
		if (pdb_in_fill(in, scanned + CHUNK) < 0)
			return fill_error(in, db, what);
	}
	*s = (char *)in->buf + in->pos;
	*len = (size_t)(z - (in->buf + in->pos));
	in->pos += *len + 1;
	return 0;
}

int
pdb_in_slurp(struct pdb_input *in, struct pdb *db, char **data, size_t *len)
{
	size_t want;

	while (!in->eof) {
		if (in->len - in->pos > (size_t)4 << 30) {
			pdb_seterr(db, PDB_EFORMAT, "%s: file too large",
			    in->name);
			return -1;
		}
		want = (in->len - in->pos) * 2 + CHUNK;
		/* A failed read stays failed: fill returns what is left. */
		if (pdb_in_fill(in, want) < 0 || in->err)
			return fill_error(in, db, "file");
	}
	if ((*data = malloc(in->len - in->pos + 1)) == NULL) {
		pdb_seterr(db, PDB_ENOMEM, "out of memory");
		return -1;
	}
	memcpy(*data, in->buf + in->pos, in->len - in->pos);
	*len = in->len - in->pos;
	(*data)[*len] = '\0';
	in->pos = in->len;
	return 0;
}

void
pdb_out_varint(FILE *f, uint64_t v)
{
	unsigned char b[10];
	size_t n = (size_t)(pdb_put_varint(b, v) - b);

	fwrite(b, 1, n, f);
}

int
pdb_text_room(struct pdb_text *t, size_t n)
{
	if (!t->err && pdb_buf_reserve(&t->p, &t->cap, t->len + n + 1) != 0)
		t->err = 1;
	return !t->err;
}

int
pdb_text_add(struct pdb_text *t, const char *s, size_t n)
{
	if (!pdb_text_room(t, n))
		return -1;
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
	return 0;
}

int
pdb_buf_reserve(void *pp, size_t *cap, size_t need)
{
	char **p = pp, *np;
	size_t ncap;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 64;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -1;
		ncap *= 2;
	}
	if ((np = realloc(*p, ncap)) == NULL)
		return -1;
	*p = np;
	*cap = ncap;
	return 0;
}
