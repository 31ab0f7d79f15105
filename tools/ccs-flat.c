/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-flat: the flat and inherited profile of Morgan & Jarvis 2.3, with
 * SELECTED from -s/-d.  It streams: no tree is built, so memory stays
 * O(cost centres + depth) on any input, including a pipe.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "xmalloc.h"

static const char usage[] =
    "ccs-flat [-f format] [-m metric] [-s pat]... [-d pat]... [-n N] "
    "[--tsv] [-o file] [file]";

static const char helptext[] =
    "Print the flat (self) and inherited profile of each selected cost "
    "centre.\n\n"
    "  -n, --top N            print only the first N rows\n"
    "      --tsv              tab-separated output with a header line\n"
    TOOL_COMMON_HELP("metric to report (default: ticks or samples)");

struct row {
	int64_t		 self, inh, entries;
	uint64_t	 prefix;	/* label_prefix() */
	uint32_t	 modrank;	/* the module's place by name */
	uint32_t	 cc;
	const char	*module, *label, *src;
};

/*
 * Most expensive first; equal self costs in name order (module, then
 * label, byte-wise), as the reference answers for pgcl order them, so
 * the output never depends on cost-centre numbering.  Most rows of a
 * big profile share a self cost (often 0), and comparing their names
 * with strcmp() was a third of the sort: the module is compared by its
 * place among the module names, sorted once, and the label by its first
 * eight bytes, strcmp() only past them.
 */
static int
cmp_rows(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;

	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if (x->modrank != y->modrank)
		return x->modrank < y->modrank ? -1 : 1;
	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	if ((c = strcmp(x->label, y->label)) != 0)
		return c;
	if (x->inh != y->inh)
		return x->inh > y->inh ? -1 : 1;
	return x->cc < y->cc ? -1 : x->cc > y->cc;
}

/* The first eight bytes of s, zero past its end, as a big-endian
 * number: two of them order as strcmp() orders their strings, as far
 * as the bytes go. */
static uint64_t
label_prefix(const char *s)
{
	uint64_t k = 0;
	int i;

	for (i = 0; i < 8 && s[i] != '\0'; i++)
		k |= (uint64_t)(unsigned char)s[i] << (56 - 8 * i);
	return k;
}

struct modname {
	const char	*name;
	uint32_t	 mod;
};

static int
cmp_modnames(const void *a, const void *b)
{
	return strcmp(((const struct modname *)a)->name,
	    ((const struct modname *)b)->name);
}

/* Each module's place among the module names; equal names, one place. */
static uint32_t *
module_ranks(const struct pdb *db)
{
	uint32_t i, nm = pdb_module_count(db), *rank;
	struct modname *order;

	order = xcalloc(nm ? nm : 1, sizeof(*order));
	rank = xcalloc(nm ? nm : 1, sizeof(*rank));
	for (i = 0; i < nm; i++) {
		order[i].name = pdb_module_name(db, i);
		order[i].mod = i;
	}
	qsort(order, nm, sizeof(*order), cmp_modnames);
	for (i = 1; i < nm; i++)
		rank[order[i].mod] = rank[order[i - 1].mod] +
		    (cmp_modnames(&order[i - 1], &order[i]) != 0);
	free(order);
	return rank;
}

/*
 * Whether two of the rows have the same label in the same module: then
 * only their source locations tell them apart.  -1 when out of memory.
 */
static int
names_repeat(const struct pdb *db, const struct row *rows, size_t n)
{
	unsigned char *shared = calloc(n ? n : 1, 1);
	uint32_t *ccs = calloc(n ? n : 1, sizeof(*ccs));
	size_t i;
	int any = -1;

	if (shared != NULL && ccs != NULL) {
		for (i = 0; i < n; i++)
			ccs[i] = rows[i].cc;
		any = pdb_names_shared(db, ccs, n, shared);
	}
	free(shared);
	free(ccs);
	return any;
}

/* Write s for a TSV field, escaped (tool_put_text()). */
static void
tsv_field(FILE *out, const char *s)
{
	tool_put_text(out, s, 1);
}

static void
print_tsv(FILE *out, const struct pdb *db, const struct row *rows, size_t n,
    int entries)
{
	struct pdb_cc cc;
	size_t i;

	fputs("module\tcost_centre\tsrc\tself\tinherited", out);
	if (entries >= 0)
		fputs("\tentries", out);
	putc('\n', out);
	for (i = 0; i < n; i++) {
		pdb_cc(db, rows[i].cc, &cc);
		tsv_field(out, cc.module);
		putc('\t', out);
		tsv_field(out, cc.label);
		putc('\t', out);
		tsv_field(out, cc.src);
		fprintf(out, "\t%" PRId64 "\t%" PRId64, rows[i].self,
		    rows[i].inh);
		if (entries >= 0)
			fprintf(out, "\t%" PRId64, rows[i].entries);
		putc('\n', out);
	}
}

/* Columns taken by s as tool_put_left() writes it. */
static int
width(const char *s)
{
	return tool_text_width(s);
}

/* "  %14" PRId64 " %6s": v and its share of total, without printf(),
 * which would be most of the time of a table of thousands of rows. */
static void
put_value(struct tool_line *l, int64_t v, int64_t total)
{
	char num[32], pct[32];

	tool_line_add(l, "  ", 2);
	tool_line_right(l, tool_fmt_int(num, sizeof(num), v), 14);
	tool_line_add(l, " ", 1);
	tool_line_right(l, tool_fmt_pct(pct, sizeof(pct), v, total), 6);
}

static void
print_table(FILE *out, const struct pdb *db, const struct row *rows,
    size_t n, int metric, int entries, int src, const struct pdb_flat *flat)
{
	const struct pdb_metric *m = pdb_metric(db, (unsigned)metric);
	const char *prog = pdb_meta_get(db, "program");
	int64_t total = pdb_flat_total(flat, (unsigned)metric);
	int wl = (int)strlen("COST CENTRE"), wm = (int)strlen("MODULE");
	int ws = (int)strlen("SRC");
	struct tool_line line;
	char num[32];
	size_t i;

	for (i = 0; i < n; i++) {
		int l = width(rows[i].label);
		int mw = width(rows[i].module);
		int sw = src ? width(rows[i].src) : 0;

		if (l > wl)
			wl = l;
		if (mw > wm)
			wm = mw;
		if (sw > ws)
			ws = sw;
	}
	if (prog != NULL) {
		fputs("program: ", out);
		tool_put_text(out, prog, 0);
		putc('\n', out);
	}
	fputs("metric:  ", out);
	tool_put_text(out, m->name, 0);
	fputs(" (", out);
	tool_put_text(out, m->unit, 0);
	fprintf(out, ")%s%s, total %" PRId64 "\n\n", m->flags &
	    PDB_METRIC_APPROX ? ", approximate: from rounded percentages" :
	    "", pdb_ticks_compensated(db, (unsigned)metric) ?
	    ", compensated for profiling overhead" : "", total);
	tool_put_left(out, "COST CENTRE", wl);
	fputs("  ", out);
	tool_put_left(out, "MODULE", wm);
	if (src) {
		fputs("  ", out);
		tool_put_left(out, "SRC", ws);
	}
	fprintf(out, "  %14s %6s  %14s %6s", "SELF", "%SELF", "INHERITED",
	    "%INH");
	if (entries >= 0)
		fprintf(out, "  %12s", "ENTRIES");
	putc('\n', out);
	memset(&line, 0, sizeof(line));
	line.out = out;
	for (i = 0; i < n; i++) {
		tool_line_left(&line, rows[i].label, wl);
		tool_line_add(&line, "  ", 2);
		tool_line_left(&line, rows[i].module, wm);
		if (src) {
			tool_line_add(&line, "  ", 2);
			tool_line_left(&line, rows[i].src, ws);
		}
		put_value(&line, rows[i].self, total);
		put_value(&line, rows[i].inh, total);
		/* "  %12" PRId64 */
		if (entries >= 0) {
			tool_line_add(&line, "  ", 2);
			tool_line_right(&line, tool_fmt_int(num, sizeof(num),
			    rows[i].entries), 12);
		}
		tool_line_add(&line, "\n", 1);
		tool_line_flush(&line);
	}
	tool_line_free(&line);
}

/*
 * The metrics the report shows: the one asked for (or the default), and
 * entries, whose flat counts alone are shown.  When the one asked for is
 * missing, none: tool_metric() says so after the read.
 */
static int
want_metric(void *arg, const struct pdb *db, unsigned m)
{
	if ((int)m == tool_metric_quiet(arg, db))
		return 1;
	return (int)m == pdb_metric_find(db, "entries") ? PDB_FLAT_SELF : 0;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		TOOL_COMMON_LONGOPTS,
		{ "top", required_argument, NULL, 'n' },
		{ "tsv", no_argument, NULL, OPT_TSV },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	struct pdb_flat *flat;
	struct pdb_cc info;
	struct row *rows;
	struct pdb *db;
	const char *path;
	long long top = -1;
	size_t n = 0;
	uint32_t cc, ncc, *modrank;
	int ch, tsv = 0, metric, entries, src = 0, rc;
	FILE *out;

	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, TOOL_COMMON_SHORTOPTS "n:",
	    longopts, NULL)) != -1) {
		if (tool_common_option(&c, ch, optarg, usage, helptext))
			continue;
		switch (ch) {
		case 'n':
			top = tool_strtonum("-n", optarg, 0, LLONG_MAX);
			break;
		case OPT_TSV:
			tsv = 1;
			break;
		default:
			tool_usage(usage);
		}
	}
	argc -= optind;
	argv += optind;
	path = tool_one_input(argc, argv, usage);

	db = tool_pdb_new();
	rows = NULL;
	rc = TOOL_ERR;
	if ((flat = pdb_flat_new(c.sel)) == NULL) {
		tool_warnx("out of memory");
		goto out;
	}
	pdb_flat_want(flat, want_metric, &c);
	if (pdb_read_stream(db, path, c.informat, &c.opts,
	    pdb_flat_sink(flat), NULL) != PDB_OK) {
		tool_pdberr(db);
		goto out;
	}
	tool_unmatched(&c, db, path);
	if ((metric = tool_metric_needed(&c, db, path)) < 0)
		goto out;
	entries = pdb_metric_find(db, "entries");

	ncc = pdb_flat_cc_count(flat);
	if ((rows = calloc(ncc ? ncc : 1, sizeof(*rows))) == NULL) {
		tool_warnx("out of memory");
		goto out;
	}
	modrank = module_ranks(db);
	for (cc = 0; cc < ncc; cc++) {
		/* A synthetic root shows only when cost is left on it. */
		if (!pdb_flat_seen(flat, cc) || !pdb_flat_selected(flat, cc) ||
		    ((pdb_cc_flags(db, cc) & PDB_CC_SYNTHETIC) &&
		    pdb_flat_self(flat, cc, (unsigned)metric) == 0))
			continue;
		rows[n].cc = cc;
		rows[n].self = pdb_flat_self(flat, cc, (unsigned)metric);
		rows[n].inh = pdb_flat_inherited(flat, cc, (unsigned)metric);
		rows[n].entries = entries < 0 ? 0 :
		    pdb_flat_self(flat, cc, (unsigned)entries);
		pdb_cc(db, cc, &info);
		rows[n].module = info.module;
		rows[n].label = info.label;
		rows[n].src = info.src;
		rows[n].modrank = modrank[info.module_index];
		rows[n].prefix = label_prefix(rows[n].label);
		n++;
	}
	free(modrank);
	qsort(rows, n, sizeof(*rows), cmp_rows);
	if (top >= 0 && (size_t)top < n)
		n = (size_t)top;

	/* The table names the sources when the names alone are not enough. */
	if (!tsv && (src = names_repeat(db, rows, n)) < 0) {
		tool_warnx("out of memory");
		goto out;
	}
	if ((out = tool_output_open(&c, 0)) == NULL)
		goto out;
	if (tsv)
		print_tsv(out, db, rows, n, entries);
	else
		print_table(out, db, rows, n, metric, entries, src, flat);
	rc = tool_output_close(&c, out) == 0 ? TOOL_OK : TOOL_ERR;
out:
	free(rows);
	pdb_flat_free(flat);
	pdb_free(db);
	tool_common_free(&c);
	return rc;
}
