/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Folded stacks, the text form of FlameGraph and of shell pipelines: one
 * line per stack, frames from the root to the top separated by ';', then
 * a space and an integer count ("main;f;g 12").
 *
 * Names.  A frame "Module.label" is split where a run of module-like
 * components (each starting with an upper-case letter, the first maybe
 * after a colon, as in GHC's ":Main") ends, so
 * "GHC.IO.Encoding.CAF" is CAF of GHC.IO.Encoding and "Main.main.\" is
 * "main.\" of Main; a frame with no such prefix is a bare label.  In
 * frames, backslash escapes '\\', ';' as '\;', newline as '\n' and
 * carriage return as '\r'; the writer also escapes a blank that begins
 * or ends a frame and a '#' that begins one (any "\c" reads as c).
 *
 * Reading.  Every file gets a synthetic root, the MAIN of the paper's
 * stacks: folded lines have no common bottom of their own (a file may
 * have several roots, and a compressing Push can re-root a stack), and
 * every real frame stays selectable.  Writers and reports leave it out,
 * but for cost left on it (de-selecting every frame of a line leaves
 * it there), which is the line "(root) N": a line whose whole stack is
 * that text, unescaped, adds to the synthetic root, and a real frame
 * of that name is written "\(root)".  Events reuse the path of the
 * previous line, so sorted input streams with few events.  The tree is
 * built through Push, so a frame repeated on one line is compressed.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats_int.h"

#define ROOT_LABEL	"(root)"

static int
folded_probe(const unsigned char *head, size_t len)
{
	size_t i, start = 0, end;
	int digits = 0, decimal = 0;

	for (i = 0; i < len; i++)
		if (head[i] == '\0')
			return 0;
	/* Skip blank and comment lines, as the reader does. */
	for (;;) {
		for (end = start; end < len && head[end] != '\n'; end++)
			;
		if (end == len)
			break;
		for (i = start; i < end && (head[i] == ' ' || head[i] == '\t' ||
		    head[i] == '\r'); i++)
			;
		if (i < end && head[i] != '#')
			break;
		start = end + 1;
	}
	if (start >= len)
		return 0;
	if (end == len && len >= 4096) {
		/*
		 * A first stack longer than the window (a deep recursion):
		 * text with ';' between frames, no count seen yet.  Bid low,
		 * so that any format that knows its bytes wins.  Without a
		 * ';' it may be one long name, or any other long line: bid
		 * lowest, and not for what opens as JSON or XML does.
		 */
		for (i = start; i < len; i++)
			if (head[i] < 0x20 && head[i] != '\t')
				return 0;
		if (memchr(head + start, ';', len - start) != NULL)
			return 10;
		return strchr("{[<", head[start]) == NULL ? 1 : 0;
	}
	/*
	 * The first stack line must end in a blank and a count, as the
	 * reader takes it: an integer, signed or not, maybe followed by
	 * blanks.  A decimal count, which flamegraph.pl reads, is claimed
	 * too, at a low bid: the reader then refuses it at its line, where
	 * "not a profile" would not say what is wrong.
	 */
	i = end;
	while (i > start && (head[i - 1] == '\r' || head[i - 1] == ' ' ||
	    head[i - 1] == '\t'))
		i--;
	while (i > start && isdigit(head[i - 1])) {
		i--;
		digits++;
	}
	if (i > start && head[i - 1] == '.' && i - 1 > start &&
	    isdigit(head[i - 2])) {
		for (i--; i > start && isdigit(head[i - 1]); i--)
			;
		decimal = 1;
	} else if (digits == 0)
		return 0;
	if (i == start)
		return 0;
	if (head[i - 1] == '-' || head[i - 1] == '+')
		i--;
	if (i == start || (head[i - 1] != ' ' && head[i - 1] != '\t'))
		return 0;
	return decimal ? 5 : 40;
}

/* Whether s[0..n) can be a Haskell/Clean-style module component. */
static int
module_component(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !isupper((unsigned char)s[0]))
		return 0;
	for (i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '\'')
			return 0;
	return 1;
}

/* Length of the module prefix of frame f (0 = none).  GHC's wrapper
 * module ":Main", whose CAF -fprof-cafs profiles, starts with a colon. */
static size_t
module_prefix(const char *f, size_t n)
{
	size_t start = 0, i, best = 0;

	if (n > 1 && f[0] == ':' && isupper((unsigned char)f[1]))
		start = 1;
	for (i = start; i < n; i++) {
		if (f[i] != '.')
			continue;
		if (!module_component(f + start, i - start))
			break;
		best = i;
		start = i + 1;
	}
	return best;
}

/* Whether the byte at q (in a line starting at p) is escaped. */
static int
escaped(const char *p, const char *q)
{
	size_t n = 0;

	while (q > p && q[-1] == '\\') {
		q--;
		n++;
	}
	return n % 2 == 1;
}

/* Unescape s[0..n) into buf (n + 1 bytes). */
static void
unescape(const char *s, size_t n, char *buf)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			i++;
			buf[o++] = s[i] == 'n' ? '\n' : s[i] == 'r' ? '\r' : s[i];
		} else
			buf[o++] = s[i];
	}
	buf[o] = '\0';
}

/* The frames of a line: cost centres, and where each ends in the line. */
struct frames {
	uint32_t	*cc;
	size_t		*end;		/* offset of the ';' or end after it */
	size_t		 n, cap;
};

/*
 * Frames seen so far, by their text as the file spells it: most lines
 * repeat frames, and looking their text up is cheaper than splitting,
 * unescaping and interning it again.
 */
struct fslot {
	uint64_t	 hash;
	size_t		 off, len;	/* in arena; len SIZE_MAX: empty */
	uint32_t	 cc;
};

struct fcache {
	struct fslot	*slot;
	size_t		 cap, n;
	char		*arena;
	size_t		 alen, acap;
};

/* The folded reader's state. */
struct rd {
	struct pdb_input *in;
	struct pdb	*db;
	struct frames	 prev, cur;
	struct fcache	 fc;
	char		*pl;		/* the previous line's stack */
	size_t		 plen, pcap;
	char		*tmp;
	size_t		 tmpcap;
	int		 stacks;	/* a stack line has been read */
};

/*
 * Where the text p[0..n) ends in a blank and a number, the blank, else
 * NULL: a line of a differential file ("stack before after", as
 * difffolded.pl writes it), whose first count would be taken for part
 * of the last frame.  In a line (escapes set) a blank after a backslash
 * does not count; a name as it is has no escapes.
 */
static const char *
count_blank(const char *p, size_t n, int escapes)
{
	size_t k = n;

	while (k > 0 && p[k - 1] >= '0' && p[k - 1] <= '9')
		k--;
	if (k == n)
		return NULL;
	if (k > 0 && (p[k - 1] == '-' || p[k - 1] == '+'))
		k--;
	if (k == 0 || (p[k - 1] != ' ' && p[k - 1] != '\t') ||
	    (escapes && escaped(p, p + k - 1)))
		return NULL;
	return p + k - 1;
}

/* The cost centre of frame f[0..n); tmp has room for n + 2 bytes. */
static int
frame_cc(struct pdb *db, const char *f, size_t n, char *tmp, uint32_t *cc)
{
	size_t mp = module_prefix(f, n);
	char *label = tmp;

	tmp[0] = '\0';
	if (mp > 0) {
		memcpy(tmp, f, mp);
		tmp[mp] = '\0';
		label = tmp + mp + 1;
		f += mp + 1;
		n -= mp + 1;
	}
	unescape(f, n, label);
	return pdb_cc_intern(db, label, mp > 0 ? tmp : "", "", 0, cc);
}

/* A hash of s[0..n), eight bytes at a time. */
static uint64_t
fhash(const char *s, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n, w;

	while (n >= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
		s += 8;
		n -= 8;
	}
	w = 0;
	memcpy(&w, s, n);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 29);
}

static int
fc_grow(struct fcache *fc)
{
	struct fslot *ns;
	size_t ncap = fc->cap ? fc->cap * 2 : 1024, i, j;

	if ((ns = malloc(ncap * sizeof(*ns))) == NULL)
		return -1;
	for (i = 0; i < ncap; i++)
		ns[i].len = SIZE_MAX;
	for (i = 0; i < fc->cap; i++) {
		if (fc->slot[i].len == SIZE_MAX)
			continue;
		for (j = fc->slot[i].hash & (ncap - 1); ns[j].len != SIZE_MAX;
		    j = (j + 1) & (ncap - 1))
			;
		ns[j] = fc->slot[i];
	}
	free(fc->slot);
	fc->slot = ns;
	fc->cap = ncap;
	return 0;
}

/* The cost centre of frame f[0..n), from the cache or made and cached. */
static int
frame_lookup(struct rd *r, const char *f, size_t n, uint32_t *cc)
{
	struct fcache *fc = &r->fc;
	struct fslot *sl;
	uint64_t h = fhash(f, n);
	size_t i;
	int rc;

	if (fc->cap > 0)
		for (i = h & (fc->cap - 1); fc->slot[i].len != SIZE_MAX;
		    i = (i + 1) & (fc->cap - 1)) {
			sl = &fc->slot[i];
			if (sl->hash == h && sl->len == n &&
			    memcmp(fc->arena + sl->off, f, n) == 0) {
				*cc = sl->cc;
				return PDB_OK;
			}
		}
	/* A name is a C string to the rest of the program. */
	if (memchr(f, '\0', n) != NULL)
		return pdb_seterr(r->db, PDB_EFORMAT, "%s:%llu: NUL byte in a "
		    "frame", r->in->name, (unsigned long long)r->in->line);
	if (pdb_buf_reserve(&r->tmp, &r->tmpcap, n + 2) != 0 ||
	    pdb_buf_reserve(&fc->arena, &fc->acap, fc->alen + n + 1) != 0 ||
	    ((fc->n + 1) * 2 > fc->cap && fc_grow(fc) != 0))
		return pdb_seterr(r->db, PDB_ENOMEM, "out of memory");
	if ((rc = frame_cc(r->db, f, n, r->tmp, cc)) != PDB_OK)
		return rc;
	for (i = h & (fc->cap - 1); fc->slot[i].len != SIZE_MAX;
	    i = (i + 1) & (fc->cap - 1))
		;
	sl = &fc->slot[i];
	sl->hash = h;
	sl->off = fc->alen;
	sl->len = n;
	sl->cc = *cc;
	memcpy(fc->arena + fc->alen, f, n);
	fc->alen += n;
	fc->n++;
	return PDB_OK;
}

static int
frames_reserve(struct rd *r, struct frames *fr, size_t need)
{
	size_t nc;
	uint32_t *ncc;
	size_t *nend;

	if (need <= fr->cap)
		return PDB_OK;
	nc = fr->cap ? fr->cap * 2 : 64;
	while (nc < need)
		nc *= 2;
	if ((ncc = realloc(fr->cc, nc * sizeof(*ncc))) == NULL)
		return pdb_seterr(r->db, PDB_ENOMEM, "out of memory");
	fr->cc = ncc;
	if ((nend = realloc(fr->end, nc * sizeof(*nend))) == NULL)
		return pdb_seterr(r->db, PDB_ENOMEM, "out of memory");
	fr->end = nend;
	fr->cap = nc;
	return PDB_OK;
}

/* How many leading bytes a and b share, eight at a time. */
static size_t
common(const char *a, const char *b, size_t n)
{
	uint64_t x, y;
	size_t i = 0;

	while (i + 8 <= n) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			/* The first byte that differs is the lowest. */
			return i + (size_t)__builtin_ctzll(x ^ y) / 8;
#else
			break;
#endif
		}
		i += 8;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/*
 * The first i at or after from where s[i] is ';' or a backslash, or n:
 * the bytes where splitting a stack has something to do, looked for
 * eight at a time.
 */
static size_t
next_special(const char *s, size_t from, size_t n)
{
	size_t i = from;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ULL;
	const uint64_t highs = 0x8080808080808080ULL;
	uint64_t w, a, b, hit;

	while (i + 8 <= n) {
		memcpy(&w, s + i, 8);
		a = w ^ (ones * ';');
		b = w ^ (ones * '\\');
		/* A zero byte of a or b, exact at the lowest one. */
		hit = (((a - ones) & ~a) | ((b - ones) & ~b)) & highs;
		if (hit != 0)
			return i + (size_t)__builtin_ctzll(hit) / 8;
		i += 8;
	}
#endif
	while (i < n && s[i] != ';' && s[i] != '\\')
		i++;
	return i;
}

/*
 * Split stack s[0..n) into r->cur.  Frames that lie wholly in the bytes
 * s shares with the previous stack, separator included, are the
 * previous line's frames: only the rest is split and looked up.
 */
static int
split_stack(struct rd *r, const char *s, size_t n)
{
	struct frames *prev = &r->prev, *cur = &r->cur;
	size_t l, k, start, i;
	uint32_t cc;
	int rc;

	l = common(s, r->pl, n < r->plen ? n : r->plen);
	/* The first frame not wholly shared; lines in tree order share
	 * all but the last few, so look from the end. */
	k = prev->n;
	if (l != n || n != r->plen)
		while (k > 0 && prev->end[k - 1] >= l)
			k--;
	if ((rc = frames_reserve(r, cur, k + 1)) != PDB_OK)
		return rc;
	if (k > 0) {	/* prev's arrays are NULL before the first line */
		memcpy(cur->cc, prev->cc, k * sizeof(*cur->cc));
		memcpy(cur->end, prev->end, k * sizeof(*cur->end));
	}
	cur->n = k;
	if (k < prev->n || prev->n == 0 || n != r->plen) {
		/* Split the rest on unescaped ';'. */
		start = k == 0 ? 0 : cur->end[k - 1] + 1;
		for (i = start;; i++) {
			i = next_special(s, i, n);
			if (i < n && s[i] == '\\' && i + 1 < n) {
				i++;
				continue;
			}
			if (i < n && s[i] != ';')
				continue;
			if ((rc = frame_lookup(r, s + start, i - start,
			    &cc)) != PDB_OK ||
			    (rc = frames_reserve(r, cur, cur->n + 1)) != PDB_OK)
				return rc;
			cur->cc[cur->n] = cc;
			cur->end[cur->n++] = i;
			if (i >= n)
				break;
			start = i + 1;
		}
	}
	/* Remember the stack: only its new bytes need copying. */
	if (pdb_buf_reserve(&r->pl, &r->pcap, n + 1) != 0)
		return pdb_seterr(r->db, PDB_ENOMEM, "out of memory");
	memcpy(r->pl + l, s + l, n - l);
	r->plen = n;
	return PDB_OK;
}

static int
folded_read(struct pdb_input *in, struct pdb *db, const struct pdb_sink *sink,
    const struct pdb_opts *opts)
{
	struct rd r;
	struct frames tmpf;
	char *line, *p, *end;
	size_t len, depth, k, i;
	uint32_t root;
	int64_t value, zero = 0;
	unsigned metric;
	int rc;

	(void)opts;
	memset(&r, 0, sizeof(r));
	r.in = in;
	r.db = db;
	if ((rc = pdb_metric_add(db, "samples", "samples", PDB_COST, 0,
	    &metric)) != PDB_OK)
		return rc;
	if ((rc = pdb_meta_set(db, "source_format", "folded")) != PDB_OK ||
	    (rc = pdb_cc_intern(db, ROOT_LABEL, "", "", PDB_CC_SYNTHETIC,
	    &root)) != PDB_OK)
		return rc;
	if (sink->begin && (rc = sink->begin(sink->arg, db)) != 0)
		return rc;
	if ((rc = sink->enter(sink->arg, db, root, &zero)) != 0)
		return rc;
	for (;;) {
		if ((rc = pdb_in_line(in, db, &line, &len)) <= 0) {
			if (rc < 0) {
				rc = pdb_errcode(db);
				goto out;
			}
			break;
		}
		p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (p == line + len || *p == '#')
			continue;
		/*
		 * The count follows the last blank.  Nothing but blanks
		 * before it is an empty stack text: one frame with an empty
		 * name, as the writer prints it (k stays 0).
		 */
		end = line + len;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		for (k = (size_t)(end - p); k > 0 && p[k - 1] != ' ' &&
		    p[k - 1] != '\t'; k--)
			;
		if (k == 0 && p == line) {
			rc = pdb_seterr(db, PDB_EFORMAT,
			    "%s:%llu: no count after the stack", in->name,
			    (unsigned long long)in->line);
			goto out;
		}
		{
			char *num = p + k, *e;

			*end = '\0';
			errno = 0;
			/* Digits alone, most counts, without the locale. */
			if (pdb_parse_digits(num, (size_t)(end - num),
			    &value) == 0)
				e = end;
			else
				value = strtoll(num, &e, 10);
			if (e < end && *e == '\0') {
				rc = pdb_seterr(db, PDB_EFORMAT,
				    "%s:%llu: NUL byte in the count", in->name,
				    (unsigned long long)in->line);
				goto out;
			}
			if (*num == '\0' || e != end || errno == ERANGE) {
				rc = pdb_seterr(db, PDB_EFORMAT,
				    "%s:%llu: '%s' %s", in->name,
				    (unsigned long long)in->line, num,
				    e == end && errno == ERANGE ?
				    "does not fit in 64 bits" :
				    "is not an integer count");
				goto out;
			}
		}
		end = k > 0 ? p + k - 1 : p;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t') &&
		    !escaped(p, end - 1))
			end--;
		if ((size_t)(end - p) == strlen(ROOT_LABEL) &&
		    memcmp(p, ROOT_LABEL, strlen(ROOT_LABEL)) == 0) {
			/* The synthetic root's own cost: enter it again. */
			for (depth = r.prev.n; depth > 0; depth--)
				if ((rc = sink->exit(sink->arg, db)) != 0)
					goto out;
			if ((rc = sink->exit(sink->arg, db)) != 0 ||
			    (rc = sink->enter(sink->arg, db, root, &value)) !=
			    0)
				goto out;
			r.prev.n = 0;
			r.plen = 0;
			continue;
		}
		/* The first stack only: a differential file has the two
		 * counts on every line. */
		if (!r.stacks++ && count_blank(p, (size_t)(end - p), 1))
			pdb_warn(db, "%s:%llu: two counts at the end of the "
			    "line, as in a differential file: the first is "
			    "read as part of the last frame's name", in->name,
			    (unsigned long long)in->line);
		if ((rc = split_stack(&r, p, (size_t)(end - p))) != PDB_OK)
			goto out;
		/* Keep the common prefix; the top is always entered anew. */
		for (k = 0; k < r.prev.n && k + 1 < r.cur.n &&
		    r.prev.cc[k] == r.cur.cc[k]; k++)
			;
		for (depth = r.prev.n; depth > k; depth--)
			if ((rc = sink->exit(sink->arg, db)) != 0)
				goto out;
		for (i = k; i < r.cur.n; i++) {
			if ((rc = sink->enter(sink->arg, db, r.cur.cc[i],
			    i + 1 == r.cur.n ? &value : &zero)) != 0)
				goto out;
		}
		tmpf = r.prev;
		r.prev = r.cur;
		r.cur = tmpf;
	}
	for (depth = r.prev.n; depth > 0; depth--)
		if ((rc = sink->exit(sink->arg, db)) != 0)
			goto out;
	rc = sink->exit(sink->arg, db);
	if (rc == 0 && sink->end)
		rc = sink->end(sink->arg, db);
out:
	free(r.prev.cc);
	free(r.prev.end);
	free(r.cur.cc);
	free(r.cur.end);
	free(r.fc.slot);
	free(r.fc.arena);
	free(r.pl);
	free(r.tmp);
	return rc;
}

/*
 * Add one frame, escaped, to t.  Blanks that begin or end a frame, and
 * a '#' that begins one, are escaped too: the reader strips blanks
 * around a stack and takes a line starting with '#' for a comment.
 */
static int
frame_text(struct pdb_text *t, const struct pdb *db, uint32_t cc)
{
	const char *s = pdb_cc_module(db, cc), *l = pdb_cc_label(db, cc);
	const char *first = *s != '\0' ? s : l;
	const char *last = *l != '\0' ? l + strlen(l) - 1 : NULL;
	/* A label that ends in a blank and a number, which a reader might
	 * take for the first count of a differential file: that blank. */
	const char *count = count_blank(l, strlen(l), 0), *esc;
	int pass, rc = 0;

	/* A real frame named as the synthetic root's line is escaped. */
	if (*s == '\0' && strcmp(l, ROOT_LABEL) == 0 &&
	    !(pdb_cc_flags(db, cc) & PDB_CC_SYNTHETIC))
		rc |= pdb_text_add(t, "\\", 1);
	for (pass = 0; pass < 2; pass++) {
		for (; *s != '\0'; s++) {
			if ((s == first && (*s == '#' || *s == ' ' ||
			    *s == '\t')) || (s == last && (*s == ' ' ||
			    *s == '\t')) || s == count)
				rc |= pdb_text_add(t, "\\", 1);
			switch (*s) {
			case '\\':
				esc = "\\\\";
				break;
			case ';':
				esc = "\\;";
				break;
			case '\n':
				esc = "\\n";
				break;
			case '\r':
				esc = "\\r";
				break;
			default:
				esc = NULL;
			}
			rc |= esc != NULL ? pdb_text_add(t, esc, 2) :
			    pdb_text_add(t, s, 1);
		}
		if (pass == 0 && *pdb_cc_module(db, cc) != '\0')
			rc |= pdb_text_add(t, ".", 1);
		s = l;
	}
	return rc;
}

/*
 * Every cost centre's frame, escaped once: a line is then copies of
 * them.  at[cc] is where frame cc starts in all, or SIZE_MAX until it
 * is first needed; used[cc], whether a line written has it, of which
 * the warnings speak.
 */
struct frame_texts {
	struct pdb_text	 all;
	size_t		*at, *len;
	unsigned char	*used;
};

/* Add frame cc to line; returns -1 when out of memory. */
static int
add_frame(struct frame_texts *f, struct pdb_text *line, const struct pdb *db,
    uint32_t cc)
{
	size_t before = f->all.len;

	if (f->at[cc] == SIZE_MAX) {
		if (frame_text(&f->all, db, cc) != 0)
			return -1;
		f->at[cc] = before;
		f->len[cc] = f->all.len - before;
	}
	if (f->len[cc] == 0)
		return 0;	/* no module, an empty label */
	return pdb_text_add(line, f->all.p + f->at[cc], f->len[cc]);
}

/* "VALUE\n" */
static int
add_value(struct pdb_text *line, int64_t v)
{
	char buf[24], *p = pdb_put_decimal(buf, v);

	*p++ = '\n';
	return pdb_text_add(line, buf, (size_t)(p - buf));
}

/* Order of full names: module, then label. */
static int
name_before(const struct pdb *db, uint32_t x, uint32_t y)
{
	int c = strcmp(pdb_cc_module(db, x), pdb_cc_module(db, y));

	return c != 0 ? c < 0 : strcmp(pdb_cc_label(db, x),
	    pdb_cc_label(db, y)) < 0;
}

/*
 * A frame is the cost centre's module and label only, so cost centres
 * that differ in their source alone, as GHC's -fprof-auto-calls makes
 * them, write the same frame and read back as one: say so, naming the
 * first, as the pgcl writer says what it drops.  Of the cost centres
 * written, but for empty frames.  Returns -1 when out of memory.
 */
static int
warn_shared_frames(struct pdb *db, const struct frame_texts *fr, uint32_t ncc)
{
	uint32_t *used, n = 0, cc, first = PDB_NONE;
	unsigned char *shared;
	int names = -1;
	const char *full;

	used = malloc(((size_t)ncc + 1) * sizeof(*used));
	shared = malloc((size_t)ncc + 1);
	if (used == NULL || shared == NULL)
		goto out;
	for (cc = 0; cc < ncc; cc++)
		if (fr->used[cc] && fr->len[cc] > 0)
			used[n++] = cc;
	if ((names = pdb_names_shared(db, used, n, shared)) <= 0)
		goto out;
	for (cc = 0; cc < n; cc++)
		if (shared[cc] && (first == PDB_NONE ||
		    name_before(db, used[cc], first)))
			first = used[cc];
	full = pdb_cc_fullname(db, first);
	if (names == 1)
		pdb_warn(db, "folded stacks name a cost centre by module and "
		    "label only: '%s' stands for more than one cost centre, "
		    "and they read back as one", full);
	else
		pdb_warn(db, "folded stacks name a cost centre by module and "
		    "label only: %d names, such as '%s', each stand for more "
		    "than one cost centre, and those read back as one", names,
		    full);
out:
	free(used);
	free(shared);
	return names < 0 ? -1 : 0;
}

/*
 * A frame does not mark where its module ends: the reader splits it
 * after the longest run of module-like components.  Say when a cost
 * centre written reads back with another module, naming the first, as
 * a label-only pattern (-d Parser.run for the label Parser.run of
 * module Main) then matches another way.
 */
static void
warn_moved_modules(struct pdb *db, const struct frame_texts *fr,
    uint32_t ncc)
{
	uint32_t cc, moved = 0, first = PDB_NONE;
	const char *full, *module;

	for (cc = 0; cc < ncc; cc++) {
		if (!fr->used[cc] || fr->len[cc] == 0)
			continue;
		full = pdb_cc_fullname(db, cc);
		module = pdb_cc_module(db, cc);
		if (module_prefix(full, strlen(full)) == strlen(module))
			continue;
		if (moved++ == 0 || name_before(db, cc, first))
			first = cc;
	}
	if (moved == 0)
		return;
	full = pdb_cc_fullname(db, first);
	module = pdb_cc_module(db, first);
	if (moved == 1)
		pdb_warn(db, "folded stacks do not mark where a module ends: "
		    "'%s' (module '%s') reads back with another module",
		    full, module);
	else
		pdb_warn(db, "folded stacks do not mark where a module ends: "
		    "%u cost centres, such as '%s' (module '%s'), read back "
		    "with another module", moved, full, module);
}

struct line {
	int64_t		 value;
	uint32_t	 node;
};

static int
cmp_lines(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	return 0;
}

/* Merge sort: ties keep pre-order, so output does not depend on qsort. */
static void
stable_sort(struct line *a, size_t n)
{
	struct line *tmp;
	size_t w, i, l, r, lend, rend, k;

	if (n < 2 || (tmp = malloc(n * sizeof(*tmp))) == NULL)
		return;
	for (w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			l = i;
			lend = r = i + w < n ? i + w : n;
			rend = i + 2 * w < n ? i + 2 * w : n;
			for (k = i; k < rend; k++)
				tmp[k] = (l < lend && (r >= rend ||
				    cmp_lines(&a[l], &a[r]) <= 0)) ? a[l++] : a[r++];
		}
		memcpy(a, tmp, n * sizeof(*a));
	}
	free(tmp);
}

/*
 * Whether a stack of own value v at depth gets a line: a nonzero one,
 * or any with all, but for a synthetic root (depth below skip) of 0.
 */
static inline int
has_line(int64_t v, uint32_t depth, uint32_t skip, int all)
{
	return v != 0 || (all && depth >= skip);
}

/*
 * Into line, the line of stack l out of order (sorted): its frames from
 * the root, but for skip synthetic ones, found by walking up from it,
 * then its value; its frames become used.  *path is scratch of *cap
 * bytes.  Returns -1 when out of memory.
 */
static int
line_of_stack(struct pdb *db, struct frame_texts *fr, struct pdb_text *line,
    const struct line *l, uint32_t skip, uint32_t **path, size_t *cap)
{
	uint32_t n, d, depth = 0;

	for (n = l->node; n != PDB_NONE; n = pdb_node_parent(db, n)) {
		if (pdb_buf_reserve(path, cap, ((size_t)depth + 1) *
		    sizeof(**path)))
			return -1;
		(*path)[depth++] = pdb_node_cc(db, n);
	}
	line->len = 0;
	if (depth == skip) {
		/* The synthetic root itself, whatever its name. */
		return pdb_text_add(line, ROOT_LABEL " ",
		    strlen(ROOT_LABEL) + 1) != 0 ||
		    add_value(line, l->value) != 0 ? -1 : 0;
	}
	for (d = depth - skip; d-- > 0;) {
		fr->used[(*path)[d]] = 1;
		if (add_frame(fr, line, db, (*path)[d]) != 0 ||
		    pdb_text_add(line, d > 0 ? ";" : " ", 1) != 0)
			return -1;
	}
	return add_value(line, l->value);
}

/* The folded lines of the stacks lines[0..n - 1], in that order. */
static int
lines_sorted(struct pdb *db, FILE *out, struct frame_texts *fr,
    const struct line *lines, size_t n, uint32_t skip)
{
	struct pdb_text line = { NULL, 0, 0, 0 };
	uint32_t *path = NULL;
	size_t cap = 0, i;
	int rc = 0;

	for (i = 0; i < n && rc == 0; i++)
		if ((rc = line_of_stack(db, fr, &line, &lines[i], skip, &path,
		    &cap)) == 0)
			fwrite(line.p, 1, line.len, out);
	free(path);
	free(line.p);
	return rc;
}

/*
 * The folded lines in pre-order, with metric m's own values (all of
 * them with all, else the nonzero ones): a stack's text is its
 * parent's and its own frame, so one text is kept, cut back at each
 * stack to its parent's length (lv[depth - 1].end).  A line then costs its
 * own bytes, where building each from its frames cost 70 instructions
 * a byte on deep trees.  Frames become used as a line shows them, each
 * level of the path once (marked: the levels whose frames are).
 * Returns the lines written, or -1 when out of memory.
 */
static int64_t
lines_in_preorder(struct pdb *db, FILE *out, struct frame_texts *fr,
    unsigned m, int all, uint32_t skip)
{
	struct pdb_text text = { NULL, 0, 0, 0 };
	struct level {
		size_t	 end;		/* of the text through this level */
		uint32_t cc;
	} *lv = NULL;
	uint32_t n, depth;
	size_t cap = 0, marked = 0, d, end;
	int64_t v, written = 0;

	for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth)) {
		if ((size_t)depth >= cap / sizeof(*lv) && pdb_buf_reserve(&lv,
		    &cap, ((size_t)depth + 1) * sizeof(*lv)))
			goto oom;
		lv[depth].cc = pdb_node_cc(db, n);
		if (marked > depth)
			marked = depth;
		text.len = depth > 0 ? lv[depth - 1].end : 0;
		if (depth >= skip && (add_frame(fr, &text, db,
		    lv[depth].cc) != 0 || pdb_text_add(&text, ";", 1) != 0))
			goto oom;
		end = lv[depth].end = text.len;
		v = pdb_node_value(db, n, m);
		if (!has_line(v, depth, skip, all))
			continue;
		if (depth < skip) {
			if (pdb_text_add(&text, ROOT_LABEL " ",
			    strlen(ROOT_LABEL) + 1) != 0)
				goto oom;
		} else {
			for (d = marked > skip ? marked : skip; d <= depth; d++)
				fr->used[lv[d].cc] = 1;
			marked = (size_t)depth + 1;
			/* The last ';' becomes the space before the value,
			 * and is put back for the stacks this one calls. */
			text.p[end - 1] = ' ';
		}
		if (add_value(&text, v) != 0)
			goto oom;
		fwrite(text.p, 1, text.len, out);
		if (end > 0)
			text.p[end - 1] = ';';
		written++;
	}
	free(text.p);
	free(lv);
	return written;
oom:
	free(text.p);
	free(lv);
	return -1;
}

static int
folded_write(struct pdb *db, FILE *out, const struct pdb_opts *opts)
{
	struct line *lines = NULL;
	struct frame_texts fr = { { NULL, 0, 0, 0 }, NULL, NULL, NULL };
	uint32_t n, depth, skip, ncc = pdb_cc_count(db), cc;
	size_t nlines = 0;
	int64_t written = 0;
	int metric, rc = PDB_OK;

	metric = opts->metric ? pdb_metric_find(db, opts->metric) :
	    (int)pdb_metric_default(db);
	if (metric < 0 || (unsigned)metric >= pdb_metric_count(db))
		return opts->metric != NULL ? pdb_seterr(db, PDB_EINVAL,
		    "no metric '%s' in profile", opts->metric) :
		    pdb_seterr(db, PDB_EINVAL, "the profile has no metrics");
	if (pdb_metric(db, (unsigned)metric)->flags & PDB_METRIC_APPROX)
		pdb_warn(db, "folded stacks cannot mark %s as approximate: "
		    "they come from rounded percentages",
		    pdb_metric(db, (unsigned)metric)->name);
	skip = (pdb_cc_flags(db, pdb_node_cc(db, 0)) & PDB_CC_SYNTHETIC) ?
	    1 : 0;
	fr.at = malloc(((size_t)ncc + 1) * sizeof(*fr.at));
	fr.len = malloc(((size_t)ncc + 1) * sizeof(*fr.len));
	fr.used = calloc((size_t)ncc + 1, 1);
	if (fr.at == NULL || fr.len == NULL || fr.used == NULL) {
		rc = PDB_ENOMEM;
		goto out;
	}
	for (cc = 0; cc < ncc; cc++)
		fr.at[cc] = SIZE_MAX;
	if (!(opts->flags & PDB_OPT_SORT)) {
		if ((written = lines_in_preorder(db, out, &fr,
		    (unsigned)metric, (opts->flags & PDB_OPT_ALL) != 0,
		    skip)) < 0) {
			rc = PDB_ENOMEM;
			goto out;
		}
	} else {
		/* The lines in pre-order; sorting is stable on that order. */
		lines = malloc(((size_t)pdb_node_count(db) + 1) *
		    sizeof(*lines));
		if (lines == NULL) {
			rc = PDB_ENOMEM;
			goto out;
		}
		for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
		    n = pdb_walk_next(db, n, &depth)) {
			int64_t v = pdb_node_value(db, n, metric);

			if (!has_line(v, depth, skip,
			    (opts->flags & PDB_OPT_ALL) != 0))
				continue;
			lines[nlines].value = v;
			lines[nlines++].node = n;
		}
		stable_sort(lines, nlines);
		if (lines_sorted(db, out, &fr, lines, nlines, skip) != 0) {
			rc = PDB_ENOMEM;
			goto out;
		}
		written = (int64_t)nlines;
	}
	/*
	 * A profile whose every stack costs zero still reads back: its
	 * root's line with 0, "(root) 0" for a synthetic root, as an empty
	 * file is no profile.
	 */
	if (written == 0 && pdb_node_count(db) > 0) {
		struct line root = { 0, 0 };

		if (lines_sorted(db, out, &fr, &root, 1, skip) != 0) {
			rc = PDB_ENOMEM;
			goto out;
		}
	}
	if (warn_shared_frames(db, &fr, ncc) != 0) {
		rc = PDB_ENOMEM;
		goto out;
	}
	if (!(opts->flags & PDB_OPT_AS_TEXT))
		warn_moved_modules(db, &fr, ncc);
out:
	free(lines);
	free(fr.all.p);
	free(fr.at);
	free(fr.len);
	free(fr.used);
	if (rc == PDB_ENOMEM)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	if (ferror(out))
		return pdb_seterr(db, PDB_EIO, "write error");
	return PDB_OK;
}

const struct pdb_format pdb_fmt_folded = {
	.abi = PDB_FORMAT_ABI,
	.name = "folded",
	.desc = "folded stacks, one 'root;...;top count' line per stack",
	.exts = ".folded,.txt",
	.flags = PDB_FMT_READ | PDB_FMT_WRITE,
	.build = PDB_BUILD_PUSH,
	.probe = folded_probe,
	.read = folded_read,
	.write = folded_write,
};
