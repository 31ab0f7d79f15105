/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-gen: a synthetic profile of a given size, the same bytes for the
 * same seed, in every format ccstools reads.  It exists to test and
 * benchmark the tools on inputs as large as real programs make.
 *
 * The model.  A program is a static call graph over cost centres: each
 * function has a list of callees; most call a few functions near them
 * (helpers of the same module), some call popular utilities (so the same
 * cost centre appears under many stacks), a few dispatch to hundreds
 * (wide fan-out), some call themselves first (deep recursion: the same
 * cost centre many times on one path) and some call back into earlier
 * functions (mutual recursion).  Module sizes and callee popularity are
 * heavy-tailed.  The stack tree is this graph unrolled from the root
 * under a node budget: every node hands what it does not keep to its
 * children, unevenly (one hot child usually gets most), and a subtree
 * that cannot use its share gives the rest back to later siblings.
 * Costs are heavy-tailed too: most stacks have no ticks, a few have
 * thousands.
 *
 * Each format gets the flavour its profiler would write: GHC stacks
 * (ghc-prof, ghc-json) never repeat a cost centre, as GHC compresses
 * recursion; Clean's run-time system folds recursion only within seven
 * frames (pgcl); perf-style folded stacks and our dump keep every
 * repeat.
 *
 * Two ways to write.  Up to TREE_MAX nodes, and for the formats that
 * have a library writer, the tree is built with libprofdb and written
 * with pdb_write(), so what is tested is the library's own output.  Past
 * that, and for the GHC formats, which have no library writer, the
 * profile is written as it is generated, in memory independent of its
 * size: a 2 GB file needs no 2 GB tree.  The streaming writers produce
 * the library's bytes exactly (the tests check this with --stream).
 * Formats that need something before the tree that only the tree tells
 * (pgcl numbers cost centres by first appearance, GHC JSON starts with
 * the totals) generate twice: generation is deterministic and cheap.
 *
 * --size picks the node count by generating smaller profiles without
 * writing them and scaling, so the output is within a few percent of
 * the size asked for.
 *
 * This file is the command; the generator's parts are in tools/gen/,
 * listed in gen.h.
 */
#define _GNU_SOURCE		/* fopencookie */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "gen/gen.h"

#define TREE_MAX	1000000		/* more nodes than this: stream */
#define MAX_NODES	4000000000ULL
#define SAMPLE1		100000		/* node counts sampled by --size */
#define SAMPLE2		1000000
#define SAMPLE3		8000000
#define SIZE_ROUNDS	12		/* budgets tried at the full size */
#define SIZE_SLACK	25		/* which stop within 1/25 of the size */
#define SIZE_SLACK_FOLDED 10		/* folded stacks within 1/10, as promised */

static const char usage[] =
    "ccs-gen [-q] [-t format] [-n nodes | --size bytes] [--seed n] "
    "[--stream] [-v] [-o file]";

static const char helptext[] =
    "Write a synthetic profile of a given size; the same seed gives the same "
    "bytes.\n\n"
    "  -t, --to FORMAT        pgcl, dump, folded, json, ghc-prof, ghc-json\n"
    "                         (default: from the -o extension, else dump)\n"
    "  -n, --nodes N          about N stack nodes (default 10000)\n"
    "      --size BYTES       about BYTES of output (suffix k, M, G; Ki, Mi, "
    "Gi)\n"
    "      --seed N           seed of the generator (default 1)\n"
    "      --stream           write as generated, whatever the size\n"
    "  -v, --verbose          print what was generated to stderr\n"
    "  -o, --output FILE      write to FILE instead of stdout\n"
    "  -q, --quiet            no progress bar\n"
    "  -h, --help             show this help and exit\n"
    "      --version          show the version and exit\n";

/* The output formats and how each is written. */
static const struct outfmt outfmts[] = {
	{ "pgcl", FL_CLEAN, "pgcl", 1, 1, 18 },
	{ "dump", FL_DUMP, "dump", 1, 1, 12 },
	{ "folded", FL_FOLDED, "folded", 1, 0, 300 },
	{ "json", FL_DUMP, "json", 0, 0, 150 },
	{ "ghc-prof", FL_GHC, NULL, 0, 0, 200 },
	{ "ghc-json", FL_GHC, NULL, 1, 0, 75 },
	{ NULL, 0, NULL, 0, 0, 0 }
};

/* A FILE that counts what goes through it, passing it on if it can. */
struct counter {
	FILE		*to;		/* NULL: count only */
	uint64_t	 bytes;
};

static ssize_t
count_write(void *cookie, const char *buf, size_t n)
{
	struct counter *c = cookie;

	if (c->to != NULL && fwrite(buf, 1, n, c->to) != n)
		return -1;
	c->bytes += n;
	return (ssize_t)n;
}

/*
 * Generate nodes nodes of format f from seed and write them to out, or
 * only count the bytes when out is NULL.  Returns the bytes written.
 */
static uint64_t
produce(const struct outfmt *f, uint64_t seed, uint64_t nodes, int stream,
    FILE *out, struct gstats *st, struct model *keep)
{
	static const struct pdb_opts noopts;
	static char cbuf[1 << 16];
	cookie_io_functions_t io = { NULL, count_write, NULL, NULL };
	struct obuf *o = xcalloc(1, sizeof(*o));
	struct model m;
	struct counter count = { out, 0 };
	struct pdb *db;
	uint64_t bytes;
	FILE *cf;

	model_build(&m, f, seed, nodes);
	o->f = out;
	if (f->lib != NULL && !(f->stream && (stream || nodes > TREE_MAX))) {
		db = tree_build(&m, st);
		if ((cf = fopencookie(&count, "w", io)) == NULL)
			nomem();
		/* glibc would size a buffer of its own at 8 KB. */
		setvbuf(cf, cbuf, _IOFBF, sizeof(cbuf));
		/* A write error is left on out for tool_output_close(). */
		if (pdb_write(db, cf, pdb_format_find(f->lib), &noopts) !=
		    PDB_OK && pdb_errcode(db) != PDB_EIO) {
			tool_pdberr(db);
			exit(TOOL_ERR);
		}
		pdb_free(db);
		fclose(cf);
		bytes = count.bytes;
	} else if (f->lib == NULL && !f->stream) {
		db = tree_build(&m, st);
		ghcprof_write(&m, db, o);
		pdb_free(db);
		bytes = o->total;
	} else {
		if (strcmp(f->name, "dump") == 0)
			stream_dump(&m, o, st);
		else if (strcmp(f->name, "pgcl") == 0)
			stream_pgcl(&m, o, st);
		else if (strcmp(f->name, "folded") == 0)
			stream_folded(&m, o, st);
		else
			stream_ghcjson(&m, o, st);
		bytes = o->total;
	}
	free(o);
	if (keep != NULL)
		*keep = m;
	else
		model_free(&m);
	return bytes;
}

/*
 * The node budget that gives about size bytes: generate without writing
 * at growing sample sizes and scale, the last sample being a quarter of
 * the answer (bytes per node grow slowly with the depth); then try
 * budgets near that estimate, as the comment in the function says.
 */
static uint64_t
nodes_for(const struct outfmt *f, uint64_t seed, uint64_t size, int stream)
{
	struct gstats st;
	uint64_t n, s, bytes, cap, best, bestoff, off, slack, tried;
	unsigned i;

	n = size / f->bpn;
	for (i = 0; i < 3; i++) {
		cap = i == 0 ? SAMPLE1 : i == 1 ? SAMPLE2 : n / 4;
		if (i == 2 && (cap <= SAMPLE2 || !f->stream))
			break;
		s = n < cap ? n : cap;
		if (s > SAMPLE3)
			s = SAMPLE3;
		if (s < 2)
			s = 2;
		bytes = produce(f, seed, s, stream, NULL, &st, NULL);
		if (bytes == 0)
			break;
		n = (uint64_t)((double)size * (double)s / (double)bytes);
		if (n <= s)
			break;
	}
	/*
	 * The model is drawn for the budget (how many functions, which of
	 * them recurse), so the bytes a node jump from one budget to the
	 * next, by half on folded stacks: try budgets near the estimate,
	 * counting only, and keep the closest.
	 */
	best = n;
	bestoff = UINT64_MAX;
	slack = size / (strcmp(f->name, "folded") == 0 ? SIZE_SLACK_FOLDED :
	    SIZE_SLACK);
	for (i = 0; i < SIZE_ROUNDS && n >= 2 && n <= MAX_NODES; i++) {
		if ((bytes = produce(f, seed, n, stream, NULL, &st, NULL)) == 0)
			break;
		off = bytes > size ? bytes - size : size - bytes;
		if (off < bestoff) {
			best = n;
			bestoff = off;
		}
		if (off <= slack)
			break;
		/* The same budget again would give the same bytes. */
		if ((tried = (uint64_t)((double)n * (double)size /
		    (double)bytes)) == n)
			break;
		n = tried;
	}
	n = best;
	if (n < 2)
		n = 2;
	return n > MAX_NODES ? MAX_NODES : n;
}

/* A byte count with an optional suffix: k, M, G (1000s), Ki, Mi, Gi. */
static uint64_t
parse_size(const char *s)
{
	char *end;
	double v;
	uint64_t mul = 1;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || v < 0 || v != v)
		goto bad;
	if (*end != '\0') {
		int bin = end[1] == 'i';

		switch (*end) {
		case 'k':
		case 'K':
			mul = bin ? 1024ULL : 1000ULL;
			break;
		case 'M':
			mul = bin ? 1048576ULL : 1000000ULL;
			break;
		case 'G':
			mul = bin ? 1073741824ULL : 1000000000ULL;
			break;
		default:
			goto bad;
		}
		end += bin ? 2 : 1;
		if (*end == 'B')
			end++;
		if (*end != '\0')
			goto bad;
	}
	if (v * (double)mul < 1 || v * (double)mul > 1e15)
		goto bad;
	return (uint64_t)(v * (double)mul);
bad:
	tool_warnx("--size: '%s': invalid size", s);
	exit(TOOL_USAGE);
}

static const struct outfmt *
outfmt_find(const char *name)
{
	const struct outfmt *f;

	for (f = outfmts; f->name != NULL; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

/* The format -o's extension names, or NULL. */
static const struct outfmt *
outfmt_guess(const char *path)
{
	static const struct {
		const char	*ext;
		const char	*fmt;
	} exts[] = {
		{ ".pgcl", "pgcl" }, { ".ccsdump", "dump" }, { ".dump", "dump" },
		{ ".folded", "folded" }, { ".json", "json" },
		{ ".prof", "ghc-prof" }
	};
	size_t i, n = strlen(path), e;

	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		e = strlen(exts[i].ext);
		if (n > e && strcmp(path + n - e, exts[i].ext) == 0)
			return outfmt_find(exts[i].fmt);
	}
	return NULL;
}

enum {
	OPT_SIZE = OPT_TOOL_BASE,
	OPT_SEED,
	OPT_STREAM
};

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "to", required_argument, NULL, 't' },
		{ "nodes", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, OPT_SIZE },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "stream", no_argument, NULL, OPT_STREAM },
		{ "verbose", no_argument, NULL, 'v' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ NULL, 0, NULL, 0 }
	};
	struct tool_common c;
	const struct outfmt *f = NULL;
	struct gstats st;
	struct model m;
	uint64_t nodes = 10000, size = 0, seed = 1, bytes;
	int ch, rc, stream = 0, verbose = 0, nodes_set = 0;
	FILE *out;

	tool_init(argv[0], &c);
	while ((ch = getopt_long(argc, argv, "hn:o:qt:v", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'h':
		case OPT_HELP:
		case OPT_VERSION:
		case 'o':
		case 'q':
			tool_common_option(&c, ch, optarg, usage, helptext);
			break;
		case 'n':
			nodes = (uint64_t)tool_strtonum("-n", optarg, 1,
			    (long long)MAX_NODES);
			nodes_set = 1;
			break;
		case 't':
			if ((f = outfmt_find(optarg)) == NULL) {
				tool_warnx("-t: unknown format '%s' (pgcl, "
				    "dump, folded, json, ghc-prof, ghc-json)",
				    optarg);
				exit(TOOL_USAGE);
			}
			break;
		case 'v':
			verbose = 1;
			break;
		case OPT_SEED:
			seed = (uint64_t)tool_strtonum("--seed", optarg, 0,
			    LLONG_MAX);
			break;
		case OPT_SIZE:
			size = parse_size(optarg);
			break;
		case OPT_STREAM:
			stream = 1;
			break;
		default:
			tool_usage(usage);
		}
	}
	if (size != 0 && nodes_set) {
		tool_warnx("-n and --size cannot go together");
		tool_usage(usage);
	}
	if (optind != argc)
		tool_usage(usage);
	if (f == NULL && c.outpath != NULL)
		f = outfmt_guess(c.outpath);
	if (f == NULL)
		f = outfmt_find("dump");

	if (size != 0) {
		nodes = nodes_for(f, seed, size, stream);
		if (nodes == MAX_NODES)
			tool_warnx("--size: %llu bytes is more than a profile "
			    "of %llu nodes, the most there can be: writing "
			    "that", (unsigned long long)size,
			    (unsigned long long)MAX_NODES);
		tool_progress_total(size);
	}
	if ((out = tool_output_open(&c, f->binary)) == NULL) {
		tool_common_free(&c);
		return TOOL_ERR;
	}
	bytes = produce(f, seed, nodes, stream, out, &st, &m);
	/* Closing erases the progress bar: the summary comes after it. */
	rc = tool_output_close(&c, out) == 0 ? TOOL_OK : TOOL_ERR;
	if (verbose)
		fprintf(stderr, "%s: %s: %" PRIu64 " nodes, %" PRIu32
		    " cost centres in %" PRIu32 " modules, depth %" PRIu64
		    " at most and %.1f on average, %" PRIu64 " bytes\n",
		    tool_progname, f->name, st.nodes, m.ncc, m.nmod,
		    st.maxdepth, st.nodes ? (double)st.depthsum /
		    (double)st.nodes : 0.0, bytes);
	model_free(&m);
	tool_common_free(&c);
	return rc;
}
