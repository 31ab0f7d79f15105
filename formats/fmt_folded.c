/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Folded stacks, the text form of FlameGraph and of shell pipelines: one
 * line per stack, frames from the root to the top separated by ';', then
 * a space and an integer count ("main;f;g 12").
 *
 * Names.  A frame "Module.label" is split where a run of module-like
 * components (each starting with an upper-case letter) ends, so
 * "GHC.IO.Encoding.CAF" is CAF of GHC.IO.Encoding and "Main.main.\" is
 * "main.\" of Main; a frame with no such prefix is a bare label.  In
 * frames, backslash escapes '\\', ';' as '\;', newline as '\n' and
 * carriage return as '\r'.
 *
 * Reading.  Every file gets a synthetic root, the MAIN of the paper's
 * stacks: folded lines have no common bottom of their own (a file may
 * have several roots, and a compressing Push can re-root a stack), and
 * every real frame stays selectable.  Writers and reports leave it out.
 * Events
 * reuse the path of the previous line, so sorted input streams with few
 * events.  The tree is built through Push, so a frame repeated on one
 * line is compressed.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

#define ROOT_LABEL	"(root)"

static int
folded_probe(const unsigned char *head, size_t len)
{
	size_t i, start = 0, end;
	int digits = 0;

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
	if (start >= len || (end == len && len >= 4096))
		return 0;
	/* The first stack line must end in " <integer>". */
	i = end;
	if (i > start && head[i - 1] == '\r')
		i--;
	while (i > start && isdigit(head[i - 1])) {
		i--;
		digits++;
	}
	if (digits == 0 || i == start)
		return 0;
	if (head[i - 1] == '-')
		i--;
	if (i == start || (head[i - 1] != ' ' && head[i - 1] != '\t'))
		return 0;
	return 40;
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

/* Length of the module prefix of frame f (0 = none). */
static size_t
module_prefix(const char *f, size_t n)
{
	size_t start = 0, i, best = 0;

	for (i = 0; i < n; i++) {
		if (f[i] != '.')
			continue;
		if (!module_component(f + start, i - start))
			break;
		best = i;
		start = i + 1;
	}
	return best;
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

struct frames {
	uint32_t	*cc;
	size_t		 n, cap;
};

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

static int
folded_read(struct pdb_input *in, struct pdb *db, const struct pdb_sink *sink,
    const struct pdb_opts *opts)
{
	struct frames prev = { 0 }, cur = { 0 }, tmpf;
	char *line, *p, *end, *tmp = NULL;
	size_t len, depth, k, i, tmpcap = 0, start;
	uint32_t root, cc;
	int64_t value, zero = 0;
	unsigned metric;
	int rc;

	(void)opts;
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
		if (*p == '\0' || *p == '#')
			continue;
		/* The count follows the last blank. */
		end = line + len;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		for (k = (size_t)(end - p); k > 0 && p[k - 1] != ' ' &&
		    p[k - 1] != '\t'; k--)
			;
		if (k == 0) {
			rc = pdb_seterr(db, PDB_EFORMAT,
			    "%s:%llu: no count after the stack", in->name,
			    (unsigned long long)in->line);
			goto out;
		}
		{
			char *num = p + k, *e;

			*end = '\0';
			errno = 0;
			value = strtoll(num, &e, 10);
			if (*num == '\0' || *e != '\0' || errno == ERANGE) {
				rc = pdb_seterr(db, PDB_EFORMAT,
				    "%s:%llu: '%s' is not an integer count",
				    in->name, (unsigned long long)in->line,
				    num);
				goto out;
			}
		}
		end = p + k - 1;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (pdb_buf_reserve(&tmp, &tmpcap, (size_t)(end - p) + 2)) {
			rc = pdb_seterr(db, PDB_ENOMEM, "out of memory");
			goto out;
		}
		/* Split into frames on unescaped ';'. */
		cur.n = 0;
		for (start = 0, i = 0;; i++) {
			if (p + i < end && p[i] == '\\' && p + i + 1 < end) {
				i++;
				continue;
			}
			if (p + i < end && p[i] != ';')
				continue;
			if ((rc = frame_cc(db, p + start, i - start, tmp,
			    &cc)) != PDB_OK)
				goto out;
			if (cur.n == cur.cap) {
				size_t nc = cur.cap ? cur.cap * 2 : 64;
				uint32_t *np = realloc(cur.cc, nc * sizeof(*np));

				if (np == NULL) {
					rc = pdb_seterr(db, PDB_ENOMEM,
					    "out of memory");
					goto out;
				}
				cur.cc = np;
				cur.cap = nc;
			}
			cur.cc[cur.n++] = cc;
			if (p + i >= end)
				break;
			start = i + 1;
		}
		/* Keep the common prefix; the top is always entered anew. */
		for (k = 0; k < prev.n && k + 1 < cur.n &&
		    prev.cc[k] == cur.cc[k]; k++)
			;
		for (depth = prev.n; depth > k; depth--)
			if ((rc = sink->exit(sink->arg, db)) != 0)
				goto out;
		for (i = k; i < cur.n; i++) {
			if ((rc = sink->enter(sink->arg, db, cur.cc[i],
			    i + 1 == cur.n ? &value : &zero)) != 0)
				goto out;
		}
		tmpf = prev;
		prev = cur;
		cur = tmpf;
	}
	for (depth = prev.n; depth > 0; depth--)
		if ((rc = sink->exit(sink->arg, db)) != 0)
			goto out;
	rc = sink->exit(sink->arg, db);
	if (rc == 0 && sink->end)
		rc = sink->end(sink->arg, db);
out:
	free(prev.cc);
	free(cur.cc);
	free(tmp);
	return rc;
}

/* Write one frame, escaped. */
static void
put_frame(FILE *out, const struct pdb *db, uint32_t cc)
{
	const char *s = pdb_cc_module(db, cc);
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (; *s != '\0'; s++) {
			switch (*s) {
			case '\\':
				fputs("\\\\", out);
				break;
			case ';':
				fputs("\\;", out);
				break;
			case '\n':
				fputs("\\n", out);
				break;
			case '\r':
				fputs("\\r", out);
				break;
			default:
				putc(*s, out);
			}
		}
		if (pass == 0 && *pdb_cc_module(db, cc) != '\0')
			putc('.', out);
		s = pdb_cc_label(db, cc);
	}
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

static int
folded_write(struct pdb *db, FILE *out, const struct pdb_opts *opts)
{
	struct line *lines;
	uint32_t *path = NULL, n, d, depth, skip;
	size_t nlines = 0, i, cap = 0;
	int metric;

	metric = opts->metric ? pdb_metric_find(db, opts->metric) :
	    (int)pdb_metric_default(db);
	if (metric < 0 || (unsigned)metric >= pdb_metric_count(db))
		return pdb_seterr(db, PDB_EINVAL, "no metric '%s' in profile",
		    opts->metric ? opts->metric : "");
	skip = (pdb_cc_flags(db, pdb_node_cc(db, 0)) & PDB_CC_SYNTHETIC) ?
	    1 : 0;
	if ((lines = malloc(((size_t)pdb_node_count(db) + 1) *
	    sizeof(*lines))) == NULL)
		return pdb_seterr(db, PDB_ENOMEM, "out of memory");
	/* The lines in pre-order; sorting is stable on that order. */
	for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth)) {
		int64_t v = pdb_node_values(db, n)[metric];

		/* Cost left on a synthetic root is written as "(root) N". */
		if ((depth < skip && v == 0) ||
		    (v == 0 && !(opts->flags & PDB_OPT_ALL)))
			continue;
		lines[nlines].value = v;
		lines[nlines++].node = n;
	}
	if (opts->flags & PDB_OPT_SORT) {
		stable_sort(lines, nlines);
	}
	for (i = 0; i < nlines; i++) {
		depth = 0;
		for (n = lines[i].node; n != PDB_NONE; n = pdb_node_parent(db, n)) {
			if (pdb_buf_reserve(&path, &cap,
			    ((size_t)depth + 1) * sizeof(*path))) {
				free(lines);
				free(path);
				return pdb_seterr(db, PDB_ENOMEM, "out of memory");
			}
			path[depth++] = pdb_node_cc(db, n);
		}
		if (depth == skip) {
			/* The synthetic root itself. */
			put_frame(out, db, path[0]);
			putc(' ', out);
		}
		for (d = depth - skip; d-- > 0;) {
			put_frame(out, db, path[d]);
			putc(d > 0 ? ';' : ' ', out);
		}
		fprintf(out, "%" PRId64 "\n", lines[i].value);
	}
	free(lines);
	free(path);
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
