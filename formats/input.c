/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The input layer: a file or stdin read into a buffer that readers
 * consume with the helpers of formats_int.h, inflated with zlib when it
 * is gzip.  Works on pipes: nothing seeks.
 *
 * Gzip is inflated here rather than through zlib's gzread(), which
 * takes whatever follows a gzip member and is not another member for
 * the end of the file: a file with something appended, or two files
 * cut and joined, read as a good profile.  Here what follows a member
 * must be another member or nothing.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "formats_int.h"

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
 * Plain bytes are read straight into it.  A gzip stream is read
 * through a buffer of ZBUFSIZE (or of the first fill, if longer) and
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

/*
 * The inflater of a gzip input (in->gz), with the compressed bytes read
 * and not yet inflated.
 */
struct gz {
	z_stream	 z;
	uint64_t	 nread;		/* bytes read from the file */
	uint64_t	 trailing;	/* offset of trailing bytes, or 0 */
	const char	*msg;		/* why the stream failed */
	size_t		 size;		/* of in[] */
	int		 eof;		/* the file has no more bytes */
	int		 between;	/* a member ended: what follows? */
	unsigned char	 in[];
};

/* zlib's allocations go through ours, which the tests can make fail. */
static voidpf
zalloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	return calloc(items, size);
}

static void
zfree(voidpf opaque, voidpf p)
{
	(void)opaque;
	free(p);
}

/* Bytes of the file consumed so far, compressed or not, for progress. */
static uint64_t
file_offset(const struct pdb_input *in)
{
	const struct gz *g = in->gz;

	if (in->mapped)
		return (uint64_t)in->len;
	if (g != NULL)
		return g->nread - g->z.avail_in;
	return in->base + in->len;
}

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
	    (in->buf = malloc(FIRSTSIZE + 1)) == NULL) {
		free(in);
		close(fd);
		pdb_seterr(db, PDB_ENOMEM, "out of memory");
		return NULL;
	}
	in->fd = fd;
	/*
	 * Standard input may start past the beginning of its file, as in
	 * "{ read -r line; ccs-flat -; } < file": the input is what is
	 * left, and it is read, not mapped (pdb_in_map()).
	 */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		off_t at = lseek(fd, 0, SEEK_CUR);

		in->size = (uint64_t)st.st_size;
		if (at > 0) {
			in->size = at < st.st_size ?
			    (uint64_t)(st.st_size - at) : 0;
			in->unmappable = 1;
		}
	}
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
		in->progress(in->progress_arg, file_offset(in), in->size, 1);
	if (in->gz != NULL) {
		inflateEnd(&((struct gz *)in->gz)->z);
		free(in->gz);
	}
	close(in->fd);
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
	/* Whether the file is gzip is known from its first bytes. */
	if (in->base + in->len == 0 && !in->eof && pdb_in_fill(in, 1) < 0)
		return -1;
	if (in->size == 0 || in->size > SIZE_MAX || in->err || in->gz != NULL ||
	    in->unmappable)
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

/*
 * The end of a regular file came at byte got of the input, before the
 * size it had when opened: someone truncated it meanwhile (the program
 * profiled, run again).  What was read is a part of the profile that
 * may read as a whole one, so it is an error, as a mapped file's SIGBUS
 * is for the binary readers.
 */
static int
ended_short(struct pdb_input *in, uint64_t got)
{
	if (in->size == 0 || got >= in->size)
		return 0;
	in->shrank = 1;
	in->err = EIO;
	return -1;
}

/* read(2) into buf[len] up to end, or to the end of the file. */
static int
read_plain(struct pdb_input *in, size_t end)
{
	ssize_t n;

	while (in->len < end && !in->eof) {
		n = read(in->fd, in->buf + in->len, end - in->len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			in->err = errno ? errno : EIO;
			return -1;
		}
		if (n == 0) {
			/* Not at the end when short: the error stays. */
			if (ended_short(in, in->base + in->len) < 0)
				return -1;
			in->eof = 1;
			break;
		}
		in->len += (size_t)n;
	}
	return 0;
}

/* More compressed bytes after the z.avail_in not yet inflated. */
static int
read_gz(struct pdb_input *in)
{
	struct gz *g = in->gz;
	size_t have = g->z.avail_in;
	ssize_t n;

	if (have > 0 && g->z.next_in != g->in)
		memmove(g->in, g->z.next_in, have);
	g->z.next_in = g->in;
	do
		n = read(in->fd, g->in + have, g->size - have);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		in->err = errno ? errno : EIO;
		return -1;
	}
	if (n == 0) {
		if (ended_short(in, g->nread) < 0)
			return -1;
		g->eof = 1;
	}
	g->nread += (uint64_t)n;
	g->z.avail_in = (uInt)(have + (size_t)n);
	return 0;
}

/* A damaged gzip stream: msg says how (pdb_in_seterr()). */
static int
gz_fail(struct pdb_input *in, const char *msg)
{
	((struct gz *)in->gz)->msg = msg;
	in->err = EIO;
	return -1;
}

/*
 * Inflate into buf[len] up to cap, or to the end of the last member.
 * After a member comes the end of the file or the next member's magic
 * number, which a lone 0x1f at the end begins too (inflate then finds
 * the member cut short).  Anything else is refused, zero bytes too:
 * gzip -d reads past them in silence, as the padding of a tape block,
 * but they are also what a crash can leave where a member should
 * follow, and gzip -t warns of them (exit 2).
 */
static int
fill_gz(struct pdb_input *in)
{
	struct gz *g = in->gz;
	z_stream *z = &g->z;
	size_t room;
	int rc;

	while (in->len < in->cap) {
		if (z->avail_in == 0 && !g->eof && read_gz(in) < 0)
			return -1;
		if (g->between) {
			if (z->avail_in == 0) {
				in->eof = 1;
				break;
			}
			if (z->avail_in == 1 && !g->eof &&
			    z->next_in[0] == 0x1f) {
				if (read_gz(in) < 0)
					return -1;
				continue;
			}
			if (z->next_in[0] != 0x1f ||
			    (z->avail_in > 1 && z->next_in[1] != 0x8b)) {
				g->trailing = g->nread - z->avail_in;
				return gz_fail(in,
				    "trailing bytes after the gzip data");
			}
			if (inflateReset(z) != Z_OK)
				return gz_fail(in, "internal error: inflate "
				    "stream corrupt");
			g->between = 0;
		}
		room = in->cap - in->len < UINT_MAX ? in->cap - in->len :
		    UINT_MAX;
		z->next_out = in->buf + in->len;
		z->avail_out = (uInt)room;
		rc = inflate(z, Z_NO_FLUSH);
		in->len += room - z->avail_out;
		switch (rc) {
		case Z_OK:
			break;
		case Z_STREAM_END:
			g->between = 1;
			break;
		case Z_BUF_ERROR:
			/* No progress: the input is all read, and cut short. */
			return gz_fail(in, "unexpected end of file");
		case Z_MEM_ERROR:
			in->err = ENOMEM;
			return -1;
		default:
			return gz_fail(in, z->msg != NULL ? z->msg :
			    "compressed data error");
		}
	}
	return 0;
}

/*
 * The first bytes read were gzip's magic number: they go to the
 * inflater's buffer, which the file is read into from then on.
 */
static int
start_gz(struct pdb_input *in)
{
	struct gz *g;
	size_t size = in->len > ZBUFSIZE ? in->len : ZBUFSIZE;
	int rc;

	if ((g = malloc(offsetof(struct gz, in) + size)) == NULL) {
		in->len = 0;
		in->err = ENOMEM;
		return -1;
	}
	memset(g, 0, sizeof(*g));
	g->z.zalloc = zalloc;
	g->z.zfree = zfree;
	if ((rc = inflateInit2(&g->z, 16 + MAX_WBITS)) != Z_OK) {
		free(g);
		in->len = 0;
		in->err = rc == Z_MEM_ERROR ? ENOMEM : EIO;
		return -1;
	}
	memcpy(g->in, in->buf, in->len);
	g->size = size;
	g->z.next_in = g->in;
	g->z.avail_in = (uInt)in->len;
	g->nread = in->len;
	g->eof = in->eof;
	in->gz = g;
	in->len = 0;
	in->eof = 0;
	return 0;
}

long
pdb_in_fill(struct pdb_input *in, size_t want)
{
	unsigned char *nb;
	size_t ncap, full, had;
	int first;

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
	first = in->base + in->len == 0;
	ncap = in->cap;
	if (!first) {
		full = in->gz == NULL ? BUFSIZE : GZBUFSIZE;
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
	/* The first bytes tell gzip from plain bytes. */
	if (first && (read_plain(in, FIRSTSIZE) < 0 || (in->len >= 2 &&
	    in->buf[0] == 0x1f && in->buf[1] == 0x8b && start_gz(in) < 0)))
		return -1;
	had = in->len;
	if (in->gz != NULL ? fill_gz(in) < 0 : read_plain(in, in->cap) < 0) {
		/*
		 * Bytes got before a failure, as many as asked for, are
		 * the reader's first, as gzread() gave them: the failure
		 * comes again on the next fill, where they end, and is
		 * named there.  Too few, and it is named now.
		 */
		if (in->len == had || in->len - in->pos < want)
			return -1;
		in->err = 0;
		if (in->gz != NULL)
			((struct gz *)in->gz)->msg = NULL;
	}
	if (in->progress != NULL)
		in->progress(in->progress_arg, file_offset(in), in->size, 0);
	return (long)(in->len - in->pos);
}

int
pdb_in_seterr(struct pdb_input *in, struct pdb *db)
{
	const struct gz *g = in->gz;
	/* A damaged gzip stream says why; any other failure is errno's. */
	const char *msg = in->err == EIO && g != NULL ? g->msg : NULL;

	if (in->err == ENOMEM)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	if (in->shrank)
		return pdb_seterr(db, PDB_EIO, "%s: the file shrank while it "
		    "was read", in->name);
	/* Where to cut the file: its offset, not the data's. */
	if (msg != NULL && g->trailing > 0)
		return pdb_seterr(db, PDB_EFORMAT,
		    "%s: compressed byte %llu: %s", in->name,
		    (unsigned long long)g->trailing, msg);
	/*
	 * Where the data inflated ends, the stream broke off: the reader
	 * may be short of it, as one that reads a JSON document whole is
	 * still at its start.
	 */
	if (msg != NULL)
		return pdb_seterr(db, PDB_EFORMAT, "%s: byte %llu: %s",
		    in->name, (unsigned long long)in->base + in->len, msg);
	return pdb_seterr(db, PDB_EIO, "%s: %s", in->name,
	    strerror(in->err ? in->err : EIO));
}

int
pdb_in_failed(struct pdb_input *in, struct pdb *db, const char *what)
{
	if (in->err)
		return pdb_in_seterr(in, db);
	return pdb_seterr(db, PDB_EFORMAT, "%s: byte %llu: truncated in %s",
	    in->name, (unsigned long long)pdb_in_offset(in), what);
}

/* pdb_in_failed() for the helpers below, which return -1. */
static int
fill_error(struct pdb_input *in, struct pdb *db, const char *what)
{
	pdb_in_failed(in, db, what);
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
		if (scanned > MAX_TOKEN || in->eof)
			break;		/* too long (below), or the last line */
		got = pdb_in_fill(in, scanned + CHUNK);
		if (got < 0)
			return fill_error(in, db, "line");
	}
	if (nl == NULL && in->len == in->pos)
		return 0;
	n = nl ? (size_t)(nl - (in->buf + in->pos)) : in->len - in->pos;
	/* Exact, whatever was buffered: what is read can be written to a
	 * dump, which refuses a longer name. */
	if (n > MAX_TOKEN) {
		pdb_seterr(db, PDB_EFORMAT, "%s:%llu: line too long",
		    in->name, (unsigned long long)in->line + 1);
		return -1;
	}
	*line = (char *)in->buf + in->pos;
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
		if (scanned > MAX_TOKEN)
			goto too_long;
		if (in->eof) {
			in->pos = in->len;
			return fill_error(in, db, what);
		}
		if (pdb_in_fill(in, scanned + CHUNK) < 0)
			return fill_error(in, db, what);
	}
	/* Exact, as for lines (pdb_in_line()). */
	if ((size_t)(z - (in->buf + in->pos)) > MAX_TOKEN)
		goto too_long;
	*s = (char *)in->buf + in->pos;
	*len = (size_t)(z - (in->buf + in->pos));
	in->pos += *len + 1;
	return 0;
too_long:
	pdb_seterr(db, PDB_EFORMAT, "%s: byte %llu: string too long in %s",
	    in->name, (unsigned long long)pdb_in_offset(in), what);
	return -1;
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
