/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * GHC's text profile (+RTS -p, -P, -pa), read only.
 *
 * A report is a header (date, command line, "total time", "total
 * alloc"), a flat table of the costliest cost centres, which we skip, and
 * the cost-centre-stack tree: one line per stack, indented one space per
 * level, under a column header that starts "COST CENTRE MODULE" and names
 * "no." and "entries".  The tree is streamed to the sink as it is read;
 * only the open path is kept, in an array, so depth costs no C stack.
 *
 * How a tree line is split.  GHC pads the label, module and SRC fields to
 * their widest value, counting UTF-8 characters (strlen_utf8 in the RTS),
 * and prints the numeric fields after them, but the numbers may be wider
 * than their columns, SRC may contain spaces ("<no location info>"),
 * labels may contain spaces or be empty ({-# SCC "" #-}).  So:
 *
 *  - the numeric fields are peeled off the end of the line, as many as the
 *    column header names from "no." on (6, or 8 with -P's ticks, bytes);
 *  - the module is the token that starts at the MODULE column of the
 *    header, in characters (or, failing that, in bytes); what lies between
 *    the indentation and it is the label, what lies after it is SRC;
 *  - GHC before 8.0 printed the "no." field as %6ld right after the
 *    padded module, so a long module name and a 6-digit id run together
 *    ("Some.Module123456", GHC ticket #8811); such a token is split at the
 *    column where the field begins, three left of the "no." heading.
 *
 * An empty label leaves its line with nothing but spaces up to the module
 * column, so its depth cannot be read.  It is inferred from the inherited
 * percentages: the node goes under the deepest open node whose inherited
 * cost is not yet accounted for by its own and its children's, which is
 * right whenever the node costs something; a warning says it was guessed.
 *
 * Values: ticks and bytes are the -P columns when present.  Otherwise
 * they are derived from the rounded %time and %alloc and the header's
 * totals, and both metrics carry PDB_METRIC_APPROX; a warning says when
 * the lines' percentages add up to more than 5 points off 100%.
 *
 * Truncation.  A line cut in the middle lacks its numeric fields and is
 * an error.  A file cut at a line boundary is caught when the numbers tell:
 * with -P the individual ticks and bytes of a whole tree add up exactly to
 * the header's totals, and at the end of the file every node still open
 * must have its inherited percentages accounted for by its own and its
 * children's, within GHC's rounding.  An inferred depth may be wrong,
 * and a complete file must still pass: a line with an empty label may be
 * the child of any node open above it, so it counts as a child of each,
 * and its own children may be any of the lines after it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats_int.h"

#define TITLE		"Time and Allocation Profiling Report"
#define MAXCOLS		16	/* numeric columns a header may name */
#define NAMEMAX		48	/* bytes of a label quoted in a message */
#define INFERMAX	4096	/* levels an empty label's parent is sought */
#define PCTSLACK	50	/* tenths of a percent the lines' rounded
				   percentages may miss 100% by */

enum col {
	COL_OTHER,		/* a column we do not know: ignored */
	COL_NO,
	COL_ENTRIES,
	COL_TIME,		/* individual %time */
	COL_ALLOC,		/* individual %alloc */
	COL_INHTIME,
	COL_INHALLOC,
	COL_TICKS,
	COL_BYTES
};

/* What the tree's column header says. */
struct layout {
	enum col	 col[MAXCOLS];	/* the trailing fields, "no." first */
	unsigned	 ncols;
	int		 has_src;
	int		 has_pct;	/* individual %time and %alloc */
	int		 has_inh;	/* inherited %time and %alloc */
	int		 raw;		/* ticks and bytes (-P, -pa) */
	size_t		 modcol;	/* character column of MODULE */
	size_t		 nocol;		/* character column of "no." */
};

/* A node on the open path. */
struct open {
	uint64_t	 line;
	int64_t		 own[2];	/* tenths of a percent: time, alloc */
	int64_t		 inh[2];
	int64_t		 kids[2];	/* sum of the children's inh */
	int64_t		 known[2];	/* of those whose depth was read */
	int64_t		 loose0[2];	/* r->loose after this line */
	int64_t		 all0[2];	/* r->all after this line */
	uint64_t	 nloose0;	/* r->guessed after this line */
	uint64_t	 nall0;		/* r->nodes after this line */
	uint32_t	 nkids, nknown;
	int		 guessed;	/* its depth was inferred */
};

/* One tree line, split. */
struct row {
	size_t		 indent;
	char		*label, *module, *src;	/* in the scratch buffer */
	int64_t		 pct[4];	/* time, alloc, inh time, inh alloc */
	int64_t		 entries, ticks, bytes;
};

struct reader {
	struct pdb_input *in;
	struct pdb	*db;
	const struct pdb_sink *sink;
	uint64_t	 lineno;
	struct layout	 lay;
	int64_t		 total_ticks, total_alloc;
	int		 have_ticks, have_alloc;
	unsigned	 m_ticks, m_alloc, m_entries;
	struct open	*path;		/* the open nodes, root first */
	size_t		 depth, cap;
	uint64_t	 nodes, lastrow;
	int64_t		 sum_ticks, sum_bytes;
	int64_t		 sum_pct[2];	/* without -P: the lines' individual
					   %time and %alloc, in tenths */
	int		 overflow;	/* a sum passed INT64_MAX */
	int		 in_tables;	/* past the totals: a column header
					   was read */
	uint64_t	 guessed;	/* lines whose depth was inferred */
	int64_t		 loose[2];	/* the sum of their inh */
	int64_t		 all[2];	/* the sum of every line's inh */
	char		*scratch;
	size_t		 scratchcap;
};

static int	 ghcprof_probe(const unsigned char *, size_t);
static int	 ghcprof_read(struct pdb_input *, struct pdb *,
		    const struct pdb_sink *, const struct pdb_opts *);
static int	 read_header(struct reader *, int *);
static int	 header_line(struct reader *, char *, int *);
static int	 parse_title(struct reader *, const char *);
static int	 parse_time(struct reader *, const char *);
static int	 parse_alloc(struct reader *, const char *);
static int	 parse_layout(const char *, struct layout *);
static int	 start_tree(struct reader *);
static int	 read_tree(struct reader *);
static int	 parse_row(struct reader *, char *, size_t, struct row *);
static int	 split_names(struct reader *, char *, size_t, struct row *);
static int	 tree_row(struct reader *, struct row *);
static size_t	 infer_depth(const struct reader *, const struct row *);
static int	 finish(struct reader *);
static int	 set_meta(struct reader *, const char *, const char *);
static int	 set_meta_num(struct reader *, const char *, int64_t);
static int	 parse_pct(const char *, size_t, int64_t *);
static int64_t	 from_tenths(int64_t, int64_t);
static int	 isblank_(int);
static int	 isdigit_(int);
static const char *skipblank(const char *);
static size_t	 charcol(const char *, size_t);
static int	 bad_number(struct reader *, const char *, size_t, int);
static int	 contains(const unsigned char *, size_t, const char *);

const struct pdb_format pdb_fmt_ghcprof = {
	.abi = PDB_FORMAT_ABI,
	.name = "ghc-prof",
	.desc = "GHC text profile (+RTS -p, -P, -pa)",
	.exts = ".prof",
	.flags = PDB_FMT_READ,
	.build = PDB_BUILD_RAW,
	.probe = ghcprof_probe,
	.read = ghcprof_read,
};

static int
isblank_(int c)
{
	return c == ' ' || c == '\t';
}

static int
isdigit_(int c)
{
	return c >= '0' && c <= '9';
}

static const char *
skipblank(const char *s)
{
	while (isblank_((unsigned char)*s))
		s++;
	return s;
}

/* The column of byte off in s, counting characters as GHC does. */
static size_t
charcol(const char *s, size_t off)
{
	size_t i, n = 0;

	for (i = 0; i < off; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

/* Whether the string s occurs in the first len bytes of head. */
static int
contains(const unsigned char *head, size_t len, const char *s)
{
	size_t n = strlen(s), i;

	for (i = 0; i + n <= len; i++)
		if (head[i] == (unsigned char)s[0] &&
		    memcmp(head + i, s, n) == 0)
			return 1;
	return 0;
}

/*
 * Whether head starts as a report's title line does: a tab, then the
 * date as GHC writes it, "Sun Nov 22 04:04 2026".
 */
static int
dated_title(const unsigned char *head, size_t len)
{
	static const char days[] = "SunMonTueWedThuFriSat";
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	size_t i;

	if (len < 9 || head[0] != '\t' || head[4] != ' ' || head[8] != ' ')
		return 0;
	for (i = 0; i < 7 && memcmp(head + 1, days + 3 * i, 3) != 0; i++)
		;
	if (i == 7)
		return 0;
	for (i = 0; i < 12 && memcmp(head + 5, months + 3 * i, 3) != 0; i++)
		;
	return i < 12;
}

static int
ghcprof_probe(const unsigned char *head, size_t len)
{
	size_t i;

	if (len == 0 || memchr(head, '\0', len) != NULL)
		return 0;
	for (i = 0; i < len && (isblank_(head[i]) || head[i] == '\r' ||
	    head[i] == '\n'); i++)
		;
	if (i == len || head[i] == '{')
		return 0;
	if (contains(head, len, TITLE))
		return 90;
	/* A report cut off in its title line, which starts with the date. */
	if (dated_title(head, len))
		return 60;
	/* A report whose first lines were cut off. */
	if (contains(head, len, "COST CENTRE") && contains(head, len, "MODULE"))
		return 70;
	return 0;
}

static int
ghcprof_read(struct pdb_input *in, struct pdb *db,
    const struct pdb_sink *sink, const struct pdb_opts *opts)
{
	struct reader r;
	int found = 0, rc;

	(void)opts;
	memset(&r, 0, sizeof(r));
	r.in = in;
	r.db = db;
	r.sink = sink;
	if ((rc = set_meta(&r, "source_format", "ghc-prof")) != 0)
		goto out;
	if ((rc = read_header(&r, &found)) != 0)
		goto out;
	if (!found) {
		rc = pdb_seterr(db, PDB_EFORMAT,
		    "%s: no cost-centre tree found", in->name);
		goto out;
	}
	if ((rc = start_tree(&r)) != 0)
		goto out;
	rc = read_tree(&r);
out:
	free(r.path);
	free(r.scratch);
	return rc;
}

/* ---- the header ---- */

/* Read lines up to and including the tree's column header. */
static int
read_header(struct reader *r, int *found)
{
	char *line;
	size_t len;
	int rc, want_command = 0;

	while ((rc = pdb_in_line(r->in, r->db, &line, &len)) > 0) {
		r->lineno++;
		if ((rc = header_line(r, line, &want_command)) < 0)
			return rc;
		if (rc == 1) {
			*found = 1;
			return 0;
		}
	}
	return rc < 0 ? pdb_errcode(r->db) : 0;
}

/* One header line: 1 if it is the tree's column header, 0 if not, or an
 * error. */
static int
header_line(struct reader *r, char *line, int *want_command)
{
	const char *s = skipblank(line);
	const char *e;
	char *sp;
	int rc;

	if (*s == '\0')
		return 0;
	/*
	 * The title and totals come before the first table; in the flat
	 * table a cost centre may be called "total time" too.
	 */
	if (strncmp(s, "COST CENTRE", 11) == 0)
		r->in_tables = 1;
	else if (!r->in_tables) {
		if (strstr(s, TITLE) != NULL) {
			*want_command = 1;
			return parse_title(r, s);
		}
		if (strncmp(s, "total time", 10) == 0) {
			*want_command = 0;
			return parse_time(r, s + 10);
		}
		if (strncmp(s, "total alloc", 11) == 0)
			return parse_alloc(r, s + 11);
	}
	if (*want_command) {
		*want_command = 0;
		for (e = s + strlen(s); e > s && isblank_((unsigned char)e[-1]);
		    e--)
			;
		line[e - line] = '\0';
		if ((rc = set_meta(r, "command", s)) != 0)
			return rc;
		/*
		 * GHC writes the program, its RTS options in +RTS ... -RTS,
		 * then its arguments: "my prog +RTS -P -RTS arg".  So the
		 * program is what comes before " +RTS", spaces and all; with
		 * no RTS options, its first word.
		 */
		for (sp = strstr(s, " +RTS"); sp != NULL &&
		    sp[5] != '\0' && !isblank_((unsigned char)sp[5]);
		    sp = strstr(sp + 1, " +RTS"))
			;
		if (sp == NULL)
			sp = strpbrk(s, " \t");
		if (sp != NULL)
			*sp = '\0';
		return set_meta(r, "program", s);
	}
	return parse_layout(line, &r->lay);
}

/* "\tSun Nov 22 04:04 2026 Time and Allocation Profiling Report  (Final)" */
static int
parse_title(struct reader *r, const char *s)
{
	const char *t = strstr(s, TITLE);
	char date[128];
	size_t n;

	while (t > s && isblank_((unsigned char)t[-1]))
		t--;
	n = (size_t)(t - s);
	if (n == 0)
		return 0;
	if (n >= sizeof(date))
		n = sizeof(date) - 1;
	memcpy(date, s, n);
	date[n] = '\0';
	return set_meta(r, "date", date);
}

/*
 * " =        0.05 secs   (47 ticks @ 1000 us, 1 processor)"; GHC 6 wrote
 * "(2 ticks @ 20 ms)".
 */
static int
parse_time(struct reader *r, const char *s)
{
	char secs[64];
	const char *p, *q;
	int64_t ticks, interval, procs;
	int rc;

	p = skipblank(s);
	if (*p++ != '=')
		goto bad;
	p = skipblank(p);
	for (q = p; isdigit_((unsigned char)*q) || *q == '.'; q++)
		;
	if (q == p || (size_t)(q - p) >= sizeof(secs))
		goto bad;
	memcpy(secs, p, (size_t)(q - p));
	secs[q - p] = '\0';
	if ((p = strchr(q, '(')) == NULL)
		goto bad;
	p++;
	for (q = p; isdigit_((unsigned char)*q); q++)
		;
	if (pdb_parse_digits(p, (size_t)(q - p), &ticks) != 0 ||
	    strncmp(q, " ticks @ ", 9) != 0)
		goto bad;
	p = q + 9;
	for (q = p; isdigit_((unsigned char)*q); q++)
		;
	if (pdb_parse_digits(p, (size_t)(q - p), &interval) != 0)
		goto bad;
	q = skipblank(q);
	if (strncmp(q, "ms", 2) == 0 && interval <= INT64_MAX / 1000)
		interval *= 1000;
	else if (strncmp(q, "us", 2) != 0)
		goto bad;
	if ((rc = set_meta(r, "total_time", secs)) != 0 ||
	    (rc = set_meta_num(r, "total_ticks", ticks)) != 0 ||
	    (rc = set_meta_num(r, "tick_interval_us", interval)) != 0)
		return rc;
	r->total_ticks = ticks;
	r->have_ticks = 1;
	/* ", 2 processors)" since GHC 7.4 */
	if ((p = strchr(q, ',')) != NULL) {
		p = skipblank(p + 1);
		for (q = p; isdigit_((unsigned char)*q); q++)
			;
		if (pdb_parse_digits(p, (size_t)(q - p), &procs) == 0 &&
		    strncmp(q, " processor", 10) == 0)
			return set_meta_num(r, "processors", procs);
	}
	return 0;
bad:
	return pdb_seterr(r->db, PDB_EFORMAT,
	    "%s:%llu: cannot read the 'total time' line", r->in->name,
	    (unsigned long long)r->lineno);
}

/* " = 210,573,856 bytes  (excludes profiling overheads)" */
static int
parse_alloc(struct reader *r, const char *s)
{
	const char *p;
	int64_t v = 0;
	int digits = 0;

	p = skipblank(s);
	if (*p++ != '=')
		goto bad;
	for (p = skipblank(p); isdigit_((unsigned char)*p) || *p == ','; p++) {
		if (*p == ',')
			continue;
		if (v > (INT64_MAX - (*p - '0')) / 10)
			return pdb_seterr(r->db, PDB_EFORMAT,
			    "%s:%llu: total alloc too large", r->in->name,
			    (unsigned long long)r->lineno);
		v = v * 10 + (*p - '0');
		digits++;
	}
	if (digits == 0 || strncmp(skipblank(p), "bytes", 5) != 0)
		goto bad;
	r->total_alloc = v;
	r->have_alloc = 1;
	return set_meta_num(r, "total_alloc", v);
bad:
	return pdb_seterr(r->db, PDB_EFORMAT,
	    "%s:%llu: cannot read the 'total alloc' line", r->in->name,
	    (unsigned long long)r->lineno);
}

/*
 * Whether line is the tree's column header; if so fill *lay.  The header
 * is "COST CENTRE MODULE [SRC] no. entries %time %alloc %time %alloc
 * [ticks bytes]"; the flat table's header has no "no.".
 */
static int
parse_layout(const char *line, struct layout *lay)
{
	struct layout l;
	const char *p = line, *t;
	size_t n, ntok = 0;
	int ntime = 0, nalloc = 0, entries = 0;

	memset(&l, 0, sizeof(l));
	for (;;) {
		p = skipblank(p);
		if (*p == '\0')
			break;
		for (t = p; *t != '\0' && !isblank_((unsigned char)*t); t++)
			;
		n = (size_t)(t - p);
#define IS(w)	(n == sizeof(w) - 1 && memcmp(p, w, n) == 0)
		switch (ntok) {
		case 0:
			if (!IS("COST"))
				return 0;
			break;
		case 1:
			if (!IS("CENTRE"))
				return 0;
			break;
		case 2:
			if (!IS("MODULE"))
				return 0;
			l.modcol = charcol(line, (size_t)(p - line));
			break;
		default:
			if (l.ncols == 0 && !l.has_src && IS("SRC")) {
				l.has_src = 1;
				break;
			}
			if (l.ncols == 0 && !IS("no."))
				return 0;
			if (l.ncols == MAXCOLS)
				return 0;
			if (IS("no.")) {
				l.col[l.ncols] = COL_NO;
				l.nocol = charcol(line, (size_t)(p - line));
			} else if (IS("entries")) {
				l.col[l.ncols] = COL_ENTRIES;
				entries++;
			} else if (IS("%time"))
				l.col[l.ncols] = ntime++ == 0 ? COL_TIME :
				    ntime == 2 ? COL_INHTIME : COL_OTHER;
			else if (IS("%alloc"))
				l.col[l.ncols] = nalloc++ == 0 ? COL_ALLOC :
				    nalloc == 2 ? COL_INHALLOC : COL_OTHER;
			else if (IS("ticks"))
				l.col[l.ncols] = COL_TICKS;
			else if (IS("bytes"))
				l.col[l.ncols] = COL_BYTES;
			else
				l.col[l.ncols] = COL_OTHER;
			l.ncols++;
			break;
		}
#undef IS
		ntok++;
		p = t;
	}
	if (l.ncols == 0 || entries != 1)
		return 0;
	l.has_pct = ntime >= 1 && nalloc >= 1;
	l.has_inh = ntime >= 2 && nalloc >= 2;
	{
		int ticks = 0, bytes = 0;
		unsigned i;

		for (i = 0; i < l.ncols; i++) {
			ticks += l.col[i] == COL_TICKS;
			bytes += l.col[i] == COL_BYTES;
		}
		if (ticks > 1 || bytes > 1)
			return 0;
		l.raw = ticks == 1 && bytes == 1;
	}
	*lay = l;
	return 1;
}

/* The schema and the begin event, once the column header is known. */
static int
start_tree(struct reader *r)
{
	uint32_t approx = r->lay.raw ? 0 : PDB_METRIC_APPROX;
	int rc;

	if (pdb_metric_count(r->db) != 0)
		return pdb_seterr(r->db, PDB_EINVAL,
		    "%s: the profile already has metrics", r->in->name);
	if (!r->lay.raw) {
		if (!r->lay.has_pct)
			return pdb_seterr(r->db, PDB_EFORMAT,
			    "%s:%llu: the tree has neither ticks and bytes nor "
			    "%%time and %%alloc columns", r->in->name,
			    (unsigned long long)r->lineno);
		if (!r->have_ticks || !r->have_alloc)
			return pdb_seterr(r->db, PDB_EFORMAT,
			    "%s:%llu: no 'total time' and 'total alloc' lines "
			    "before the tree: cannot turn percentages into "
			    "ticks and bytes", r->in->name,
			    (unsigned long long)r->lineno);
		if ((rc = set_meta(r, "approximate", "yes")) != 0)
			return rc;
	}
	if ((rc = pdb_metric_add(r->db, "ticks", "ticks", PDB_COST, approx,
	    &r->m_ticks)) != 0 ||
	    (rc = pdb_metric_add(r->db, "alloc", "bytes", PDB_COST, approx,
	    &r->m_alloc)) != 0 ||
	    (rc = pdb_metric_add(r->db, "entries", "calls", PDB_COUNT, 0,
	    &r->m_entries)) != 0)
		return rc;
	if (r->sink->begin != NULL &&
	    (rc = r->sink->begin(r->sink->arg, r->db)) != 0)
		return rc;
	return 0;
}

/* ---- the tree ---- */

static int
read_tree(struct reader *r)
{
	struct row row;
	char *line;
	size_t len, i;
	int rc;

	while ((rc = pdb_in_line(r->in, r->db, &line, &len)) > 0) {
		r->lineno++;
		for (i = 0; i < len && isblank_((unsigned char)line[i]); i++)
			;
		if (i == len)
			continue;
		if ((rc = parse_row(r, line, len, &row)) != 0)
			return rc;
		if ((rc = tree_row(r, &row)) != 0)
			return rc;
	}
	if (rc < 0)
		return pdb_errcode(r->db);
	return finish(r);
}

static int
bad_number(struct reader *r, const char *s, size_t n, int why)
{
	return pdb_seterr(r->db, PDB_EFORMAT, "%s:%llu: %s '%.*s'",
	    r->in->name, (unsigned long long)r->lineno,
	    why == -2 ? "number too large:" : why == -3 ? "percentage "
	    "without its decimal (is the line cut short?):" : "bad number",
	    (int)(n > 40 ? 40 : n), s);
}

/* Split one tree line into *row. */
static int
parse_row(struct reader *r, char *line, size_t len, struct row *row)
{
	size_t start[MAXCOLS], tlen[MAXCOLS], end = len, e, k, i, cut, col;
	int64_t v;
	int rc;

	memset(row, 0, sizeof(*row));
	row->pct[0] = row->pct[1] = row->pct[2] = row->pct[3] = -1;
	while (end > 0 && isblank_((unsigned char)line[end - 1]))
		end--;
	for (k = r->lay.ncols; k-- > 0;) {
		e = end;
		while (end > 0 && !isblank_((unsigned char)line[end - 1]))
			end--;
		start[k] = end;
		tlen[k] = e - end;
		if (tlen[k] == 0)
			goto shape;
		while (end > 0 && isblank_((unsigned char)line[end - 1]))
			end--;
		if (end == 0 && k > 0)
			goto shape;
	}
	/* The "no." field, maybe glued to the module (GHC before 8.0). */
	if (pdb_parse_digits(line + start[0], tlen[0], &v) == -1) {
		cut = (size_t)-1;
		col = charcol(line, start[0]);
		for (i = start[0] + 1; r->lay.nocol >= 3 &&
		    i < start[0] + tlen[0]; i++) {
			if (((unsigned char)line[i - 1] & 0xc0) != 0x80)
				col++;
			if (col == r->lay.nocol - 3) {
				cut = i;
				break;
			}
		}
		if (cut == (size_t)-1 || pdb_parse_digits(line + cut,
		    start[0] + tlen[0] - cut, &v) == -1)
			return pdb_seterr(r->db, PDB_EFORMAT,
			    "%s:%llu: no number in the 'no.' column: '%.*s'",
			    r->in->name, (unsigned long long)r->lineno,
			    (int)(tlen[0] > 40 ? 40 : tlen[0]),
			    line + start[0]);
		end = cut;
		tlen[0] -= cut - start[0];
		start[0] = cut;
	}
	if (end == 0)
		goto shape;
	for (k = 0; k < r->lay.ncols; k++) {
		const char *s = line + start[k];

		switch (r->lay.col[k]) {
		case COL_NO:
		case COL_ENTRIES:
		case COL_TICKS:
		case COL_BYTES:
			if ((rc = pdb_parse_digits(s, tlen[k], &v)) != 0)
				return bad_number(r, s, tlen[k], rc);
			if (r->lay.col[k] == COL_ENTRIES)
				row->entries = v;
			else if (r->lay.col[k] == COL_TICKS)
				row->ticks = v;
			else if (r->lay.col[k] == COL_BYTES)
				row->bytes = v;
			break;
		case COL_TIME:
		case COL_ALLOC:
		case COL_INHTIME:
		case COL_INHALLOC:
			if ((rc = parse_pct(s, tlen[k], &v)) != 0)
				return bad_number(r, s, tlen[k], rc);
			row->pct[r->lay.col[k] - COL_TIME] = v;
			break;
		case COL_OTHER:
			break;
		}
	}
	return split_names(r, line, end, row);
shape:
	return pdb_seterr(r->db, PDB_EFORMAT,
	    "%s:%llu: not a cost-centre line: expected a name, a module and "
	    "%u numbers", r->in->name, (unsigned long long)r->lineno,
	    r->lay.ncols);
}

/* Whether another word follows the word at line[w], before end. */
static int
word_after(const char *line, size_t w, size_t end)
{
	while (w < end && !isblank_((unsigned char)line[w]))
		w++;
	while (w < end && isblank_((unsigned char)line[w]))
		w++;
	return w < end;
}

/* Split line[0, end) into indentation, label, module and SRC. */
static int
split_names(struct reader *r, char *line, size_t end, struct row *row)
{
	size_t first, mod, modend, src, srcend, lab, i, col, pass;
	char *d;

	/* Names are C strings to the rest of the program. */
	if (memchr(line, '\0', end) != NULL)
		return pdb_seterr(r->db, PDB_EFORMAT, "%s:%llu: NUL byte in a "
		    "name", r->in->name, (unsigned long long)r->lineno);
	for (first = 0; first < end && line[first] == ' '; first++)
		;
	row->indent = first;
	mod = (size_t)-1;
	if (first >= r->lay.modcol)
		mod = first;		/* an empty label */
	/* The token that starts at the MODULE column: in characters, else
	 * in bytes. */
	for (pass = 0; pass < 2 && mod == (size_t)-1; pass++) {
		col = charcol(line, first);
		for (i = first + 1; i < end; i++) {
			if (((unsigned char)line[i - 1] & 0xc0) != 0x80)
				col++;
			if (line[i] != ' ' &&
			    isblank_((unsigned char)line[i - 1]) &&
			    (pass == 0 ? col == r->lay.modcol :
			    i == r->lay.modcol)) {
				mod = i;
				break;
			}
		}
		/*
		 * In a report padded in bytes, a label of multibyte
		 * characters can put the SRC token at the module's column in
		 * characters: a module with no location after it is that.
		 */
		if (pass == 0 && mod != (size_t)-1 && r->lay.has_src &&
		    !word_after(line, mod, end))
			mod = (size_t)-1;
	}
	if (mod == (size_t)-1) {
		/* Not aligned: the second word. */
		for (i = first; i < end && !isblank_((unsigned char)line[i]);
		    i++)
			;
		while (i < end && isblank_((unsigned char)line[i]))
			i++;
		if (i == end)
			return pdb_seterr(r->db, PDB_EFORMAT,
			    "%s:%llu: no module name", r->in->name,
			    (unsigned long long)r->lineno);
		mod = i;
	}
	for (lab = mod; lab > first && isblank_((unsigned char)line[lab - 1]);
	    lab--)
		;
	for (modend = mod; modend < end &&
	    !isblank_((unsigned char)line[modend]); modend++)
		;
	for (src = modend; src < end && isblank_((unsigned char)line[src]);
	    src++)
		;
	srcend = end;
	/*
	 * GHC prints a location for every cost centre ("<built-in>",
	 * "<no location info>"), so a missing one is a damaged line, most
	 * often one whose module was deleted, its SRC then read as module.
	 */
	if (src == srcend && r->lay.has_src)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s:%llu: no source location in the SRC column (is the "
		    "module name missing?)", r->in->name,
		    (unsigned long long)r->lineno);
	if (src < srcend && !r->lay.has_src)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s:%llu: unexpected '%.*s' after the module name",
		    r->in->name, (unsigned long long)r->lineno,
		    (int)(srcend - src > 40 ? 40 : srcend - src), line + src);
	if (r->scratchcap < end + 3) {
		size_t ncap = r->scratchcap ? r->scratchcap : 256;

		while (ncap < end + 3)
			ncap *= 2;
		if ((d = realloc(r->scratch, ncap)) == NULL)
			return pdb_seterr(r->db, PDB_ENOMEM, "out of memory");
		r->scratch = d;
		r->scratchcap = ncap;
	}
	d = r->scratch;
	row->label = d;
	memcpy(d, line + first, lab - first);
	d += lab - first;
	*d++ = '\0';
	row->module = d;
	memcpy(d, line + mod, modend - mod);
	d += modend - mod;
	*d++ = '\0';
	row->src = d;
	memcpy(d, line + src, srcend - src);
	d[srcend - src] = '\0';
	return 0;
}

/*
 * The depth of a line with an empty label: under the deepest open node
 * whose inherited cost leaves room for this one's.  Every printed figure
 * is off by up to 0.05%, hence the slack of half a tenth per figure.
 */
static size_t
infer_depth(const struct reader *r, const struct row *row)
{
	const struct open *o;
	int64_t room, slack;
	size_t k;
	int m, fits;

	if (!r->lay.has_inh)
		return r->depth;
	/* Bounded, so that a file of such lines stays linear. */
	for (k = r->depth; k-- > 0 && r->depth - k <= INFERMAX;) {
		o = &r->path[k];
		slack = ((int64_t)o->nkids + 4) / 2;
		fits = 1;
		for (m = 0; m < 2; m++) {
			room = o->inh[m] - o->own[m] - o->kids[m];
			if (row->pct[2 + m] > room + slack)
				fits = 0;
		}
		if (fits)
			return k + 1;
	}
	return r->depth;
}

/* Close nodes down to the row's depth and enter it. */
static int
tree_row(struct reader *r, struct row *row)
{
	struct open *o;
	int64_t vals[3];
	uint32_t cc, flags = 0;
	size_t d;
	int rc, m, guessed = 0;

	if (row->label[0] == '\0' && r->depth > 0) {
		d = infer_depth(r, row);
		guessed = 1;
		if (r->guessed++ == 0)
			pdb_warn(r->db, "%s:%llu: empty cost-centre label: "
			    "depth %zu inferred from the inherited costs",
			    r->in->name, (unsigned long long)r->lineno, d);
	} else
		d = row->label[0] == '\0' ? 0 : row->indent;
	if (r->nodes == 0 && d != 0)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s:%llu: the tree's first line is indented by %zu",
		    r->in->name, (unsigned long long)r->lineno, d);
	if (r->nodes > 0 && d == 0)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s:%llu: a second root '%.*s' (the tree has one, on line "
		    "%llu)", r->in->name, (unsigned long long)r->lineno,
		    NAMEMAX, row->label, (unsigned long long)r->path[0].line);
	if (d > r->depth)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s:%llu: indentation jumps from %zu to %zu", r->in->name,
		    (unsigned long long)r->lineno, r->depth - 1, d);
	for (; r->depth > d; r->depth--)
		if (r->sink->exit != NULL &&
		    (rc = r->sink->exit(r->sink->arg, r->db)) != 0)
			return rc;

	if (strcmp(row->label, "CAF") == 0 ||
	    strncmp(row->label, "CAF:", 4) == 0)
		flags |= PDB_CC_CAF;
	if ((rc = pdb_cc_intern(r->db, row->label, row->module, row->src,
	    flags, &cc)) != 0)
		return rc;
	if (r->lay.raw) {
		vals[r->m_ticks] = row->ticks;
		vals[r->m_alloc] = row->bytes;
		if (r->sum_ticks > INT64_MAX - row->ticks ||
		    r->sum_bytes > INT64_MAX - row->bytes)
			r->overflow = 1;
		else {
			r->sum_ticks += row->ticks;
			r->sum_bytes += row->bytes;
		}
	} else {
		if (row->pct[0] > 1000 || row->pct[1] > 1000)
			return pdb_seterr(r->db, PDB_EFORMAT,
			    "%s:%llu: individual %%time or %%alloc over 100",
			    r->in->name, (unsigned long long)r->lineno);
		vals[r->m_ticks] = from_tenths(row->pct[0], r->total_ticks);
		vals[r->m_alloc] = from_tenths(row->pct[1], r->total_alloc);
		/* at most 1000 per line: no overflow before 2^53 lines */
		r->sum_pct[0] += row->pct[0];
		r->sum_pct[1] += row->pct[1];
	}
	vals[r->m_entries] = row->entries;

	if (r->depth == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 64;

		if ((o = realloc(r->path, ncap * sizeof(*o))) == NULL)
			return pdb_seterr(r->db, PDB_ENOMEM, "out of memory");
		r->path = o;
		r->cap = ncap;
	}
	o = &r->path[r->depth];
	o->line = r->lineno;
	o->nkids = o->nknown = 0;
	o->guessed = guessed;
	for (m = 0; m < 2; m++) {
		o->own[m] = row->pct[m] < 0 ? 0 : row->pct[m];
		o->inh[m] = row->pct[2 + m] < 0 ? 0 : row->pct[2 + m];
		o->kids[m] = o->known[m] = 0;
		if (r->depth > 0) {
			r->path[r->depth - 1].kids[m] += o->inh[m];
			if (!guessed)
				r->path[r->depth - 1].known[m] += o->inh[m];
		}
		if (guessed)
			r->loose[m] += o->inh[m];
		r->all[m] += o->inh[m];
		o->loose0[m] = r->loose[m];
		o->all0[m] = r->all[m];
	}
	if (r->depth > 0) {
		r->path[r->depth - 1].nkids++;
		r->path[r->depth - 1].nknown += !guessed;
	}
	r->depth++;
	r->nodes++;
	o->nloose0 = r->guessed;
	o->nall0 = r->nodes;
	r->lastrow = r->lineno;
	return r->sink->enter(r->sink->arg, r->db, cc, vals);
}

/* End of input: check what can be checked, close the path, end. */
static int
finish(struct reader *r)
{
	const struct open *o;
	static const char *const what[2] = { "%time", "%alloc" };
	int64_t below, missing, n;
	size_t k;
	int m, rc;

	if (r->guessed > 1)
		pdb_warn(r->db, "%s: %llu lines with empty labels: depths "
		    "inferred from the inherited costs", r->in->name,
		    (unsigned long long)r->guessed);
	if (r->nodes == 0)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s:%llu: truncated: no cost centres after the tree's "
		    "column header", r->in->name,
		    (unsigned long long)r->lineno);
	if (r->lay.raw && r->overflow)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s: the tree's ticks or bytes overflow 64 bits",
		    r->in->name);
	if (r->lay.raw && r->have_ticks && r->sum_ticks < r->total_ticks)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s:%llu: truncated or edited: the tree's ticks add up to "
		    "%lld, the header says %lld", r->in->name,
		    (unsigned long long)r->lastrow, (long long)r->sum_ticks,
		    (long long)r->total_ticks);
	if (r->lay.raw && r->have_alloc && r->sum_bytes < r->total_alloc)
		return pdb_seterr(r->db, PDB_EFORMAT,
		    "%s:%llu: truncated or edited: the tree's bytes add up to "
		    "%lld, the header says %lld", r->in->name,
		    (unsigned long long)r->lastrow, (long long)r->sum_bytes,
		    (long long)r->total_alloc);
	if (r->lay.raw && ((r->have_ticks && r->sum_ticks > r->total_ticks) ||
	    (r->have_alloc && r->sum_bytes > r->total_alloc)))
		pdb_warn(r->db, "%s: the tree's ticks and bytes exceed the "
		    "header's totals", r->in->name);
	if (r->lay.has_inh)
		for (k = 0; k < r->depth; k++) {
			o = &r->path[k];
			/* What may be its children: those whose depth was
			 * read and the later lines whose depth was not, or
			 * if its own depth was not, every later line. */
			n = o->guessed ? (int64_t)(r->nodes - o->nall0) :
			    (int64_t)o->nknown + (int64_t)(r->guessed -
			    o->nloose0);
			for (m = 0; m < 2; m++) {
				below = o->guessed ? r->all[m] - o->all0[m] :
				    o->known[m] + r->loose[m] - o->loose0[m];
				missing = o->inh[m] - o->own[m] - below;
				if (2 * missing <= n + 2)
					continue;
				return pdb_seterr(r->db, PDB_EFORMAT,
				    "%s:%llu: truncated: the stack on line "
				    "%llu inherits %s %lld.%lld but its lines "
				    "account for %lld.%lld", r->in->name,
				    (unsigned long long)r->lastrow,
				    (unsigned long long)o->line, what[m],
				    (long long)(o->inh[m] / 10),
				    (long long)(o->inh[m] % 10),
				    (long long)((o->inh[m] - missing) / 10),
				    (long long)((o->inh[m] - missing) % 10));
			}
		}
	/*
	 * Without -P every value is a rounded percentage of the header's
	 * total.  A profile of many small stacks can have most of its cost
	 * on lines GHC rounds to 0.0 (or up to 0.1): the values then add up
	 * to far less (or more) than the total, and every percentage the
	 * tools compute from them is off.  Say so.
	 */
	if (!r->lay.raw)
		for (m = 0; m < 2; m++) {
			if ((m ? r->total_alloc : r->total_ticks) <= 0 ||
			    (r->sum_pct[m] >= 1000 - PCTSLACK &&
			    r->sum_pct[m] <= 1000 + PCTSLACK))
				continue;
			pdb_warn(r->db, "%s: the tree's rounded %s add up to "
			    "%lld.%lld%%, not 100%%: the %s derived from them "
			    "are far off (+RTS -P writes exact ones)",
			    r->in->name, what[m],
			    (long long)(r->sum_pct[m] / 10),
			    (long long)(r->sum_pct[m] % 10),
			    m ? "bytes" : "ticks");
		}
	for (; r->depth > 0; r->depth--)
		if (r->sink->exit != NULL &&
		    (rc = r->sink->exit(r->sink->arg, r->db)) != 0)
			return rc;
	if (r->sink->end != NULL &&
	    (rc = r->sink->end(r->sink->arg, r->db)) != 0)
		return rc;
	return 0;
}

/* ---- helpers ---- */

static int
set_meta(struct reader *r, const char *key, const char *value)
{
	return pdb_meta_set(r->db, key, value);
}

static int
set_meta_num(struct reader *r, const char *key, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	return pdb_meta_set(r->db, key, buf);
}

/* A percentage as GHC prints it ("97.9") in tenths, rounded. */
static int
parse_pct(const char *s, size_t n, int64_t *out)
{
	int64_t v = 0;
	size_t i = 0, ip;

	for (; i < n && isdigit_((unsigned char)s[i]); i++) {
		if (i >= 9)
			return -2;
		v = v * 10 + (s[i] - '0');
	}
	ip = i;
	v *= 10;
	/* GHC prints "%5.1f": without a decimal, the line was cut. */
	if (ip > 0 && (i == n || (s[i] == '.' && i + 1 == n)))
		return -3;
	if (i + 1 < n && s[i] == '.' && isdigit_((unsigned char)s[i + 1])) {
		i++;
		v += s[i++] - '0';
		if (i < n && isdigit_((unsigned char)s[i]) && s[i] >= '5')
			v++;
		while (i < n && isdigit_((unsigned char)s[i]))
			i++;
	}
	if (i != n || ip == 0)
		return -1;
	*out = v;
	return 0;
}

/* round(tenths * total / 1000) without overflow, for tenths <= 1000. */
static int64_t
from_tenths(int64_t tenths, int64_t total)
{
	return tenths * (total / 1000) + (tenths * (total % 1000) + 500) / 1000;
}
