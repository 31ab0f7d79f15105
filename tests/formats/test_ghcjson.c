/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The GHC JSON reader (+RTS -pj): probing, metadata, the cost-centre
 * table and the tree of GHC 9.0.2's own files, the agreement of the JSON
 * and text readers on the tree's structure, and bad input.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats_int.h"
#include "testutil.h"

#define JSONDIR	"tests/data/ghcjson/"
#define TEXTDIR	"tests/data/ghc/"

/* A small complete profile, for mutations and truncation. */
static const char tiny[] =
    "{\"program\": \"t\", \"arguments\": [\"./t\", \"a b\"],\n"
    "\"rts_arguments\": [\"-pj\", \"-N2\"],\n"
    "\"end_time\": \"Mon Jan 1 2026\", \"initial_capabilities\": 2,\n"
    "\"total_time\": 0.25, \"total_ticks\": 7,\n"
    "\"tick_interval\": 1000, \"total_alloc\": 640,\n"
    "\"cost_centres\": [\n"
    "{\"id\": 3, \"label\": \"MAIN\", \"module\": \"MAIN\",\n"
    " \"src_loc\": \"<built-in>\", \"is_caf\": false},\n"
    "{\"id\": 1, \"label\": \"f\", \"module\": \"M\", \"src_loc\": \"M.hs:1\",\n"
    " \"is_caf\": false},\n"
    "{\"id\": 2, \"label\": \"CAF\", \"module\": \"M\",\n"
    " \"src_loc\": \"<entire-module>\", \"is_caf\": true}],\n"
    "\"profile\": {\"id\": 3, \"entries\": 0, \"alloc\": 0, \"ticks\": 0,\n"
    " \"children\": [\n"
    "{\"id\": 2, \"entries\": 0, \"alloc\": 64, \"ticks\": 1, \"children\": [\n"
    "{\"id\": 1, \"entries\": 5, \"alloc\": 576, \"ticks\": 6,\n"
    " \"children\": []}]},\n"
    "{\"id\": 1, \"entries\": 1, \"alloc\": 0, \"ticks\": 0,\n"
    " \"children\": []}]}}\n";

/* Read data (format fmt, or probed) into a new handle; *rc gets the
 * result.  The caller frees the handle. */
static struct pdb *
read_text(const char *data, size_t len, const struct pdb_format *fmt,
    const char *suffix, int *rc, char **path, const struct pdb_format **used)
{
	struct pdb *db = pdb_new();

	cr_assert(db != NULL);
	*path = write_temp(data, len, suffix);
	*rc = pdb_read_tree(db, *path, fmt, NULL, used);
	return db;
}

/* The child of node with cost centre module.label, or PDB_NONE. */
static uint32_t
child(const struct pdb *db, uint32_t node, const char *module,
    const char *label)
{
	uint32_t c;

	for (c = pdb_node_first_child(db, node); c != PDB_NONE;
	    c = pdb_node_next_sibling(db, c))
		if (strcmp(pdb_cc_module(db, pdb_node_cc(db, c)),
		    module) == 0 &&
		    strcmp(pdb_cc_label(db, pdb_node_cc(db, c)), label) == 0)
			return c;
	return PDB_NONE;
}

static void
assert_meta(const struct pdb *db, const char *key, const char *want)
{
	const char *v = pdb_meta_get(db, key);

	cr_assert(v != NULL, "no metadata '%s'", key);
	cr_assert_str_eq(v, want, "metadata '%s'", key);
}

static void
assert_values(const struct pdb *db, uint32_t node, int64_t ticks,
    int64_t alloc, int64_t entries)
{
	const int64_t *v;

	cr_assert(node != PDB_NONE);
	v = pdb_node_values(db, node);
	cr_assert_eq(v[0], ticks);
	cr_assert_eq(v[1], alloc);
	cr_assert_eq(v[2], entries);
}

/* ---- probing ---- */

Test(ghcjson, probe)
{
	const struct pdb_format *f = &pdb_fmt_ghcjson;
	char *head;
	size_t len;

	head = slurp(JSONDIR "mj.json", &len);
	cr_assert(head != NULL);
	cr_assert_eq(f->probe((unsigned char *)head, len < 4096 ? len : 4096),
	    95);
	cr_assert_eq(pdb_format_probe((unsigned char *)head,
	    len < 4096 ? len : 4096), f);
	free(head);
	cr_assert_eq(f->probe((const unsigned char *)"  \n{\"profile\": {}}",
	    18), 95);
	cr_assert_eq(f->probe((const unsigned char *)"{\"a\": 1}", 8), 10);
	cr_assert_eq(f->probe((const unsigned char *)"[1, 2]", 6), 0);
	cr_assert_eq(f->probe((const unsigned char *)"MAIN;f 3\n", 9), 0);
	cr_assert_eq(f->probe((const unsigned char *)"", 0), 0);
}

/* GHC calls its JSON file PROG.prof: the content decides. */
Test(ghcjson, detected_by_content_not_name)
{
	const struct pdb_format *used = NULL;
	char *data, *path;
	size_t len;
	struct pdb *db;
	int rc;

	data = slurp(JSONDIR "mj.json", &len);
	cr_assert(data != NULL);
	db = read_text(data, len, NULL, ".prof", &rc, &path, &used);
	cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
	cr_assert_eq(used, &pdb_fmt_ghcjson);
	cr_assert_eq(pdb_node_count(db), 146);
	unlink(path);
	free(path);
	free(data);
	pdb_free(db);
}

/* ---- GHC's own files ---- */

Test(ghcjson, mj_metadata)
{
	struct pdb *db = load_tree(JSONDIR "mj.json");

	assert_meta(db, "source_format", "ghc-json");
	assert_meta(db, "program", "mj");
	assert_meta(db, "command", "./mj");
	assert_meta(db, "rts_arguments", "-pj");
	assert_meta(db, "date", "Sun Nov 22 04:04 2026");
	assert_meta(db, "total_time", "0.04");
	assert_meta(db, "total_ticks", "41");
	assert_meta(db, "tick_interval_us", "1000");
	assert_meta(db, "total_alloc", "378954016");
	assert_meta(db, "initial_capabilities", "0");
	/* A non-threaded RTS writes 0 capabilities; it runs on one. */
	assert_meta(db, "processors", "1");
	pdb_free(db);
}

Test(ghcjson, tiny_metadata)
{
	char *path;
	struct pdb *db;
	int rc;

	db = read_text(tiny, sizeof(tiny) - 1, NULL, ".json", &rc, &path, NULL);
	cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
	assert_meta(db, "command", "./t a b");
	assert_meta(db, "rts_arguments", "-pj -N2");
	assert_meta(db, "processors", "2");
	assert_meta(db, "total_time", "0.25");
	cr_assert_eq(pdb_module_count(db), 2);
	cr_assert_str_eq(pdb_module_name(db, 0), "MAIN");
	cr_assert_str_eq(pdb_module_name(db, 1), "M");
	cr_assert_eq(pdb_node_count(db), 4);
	assert_values(db, child(db, child(db, 0, "M", "CAF"), "M", "f"), 6,
	    576, 5);
	unlink(path);
	free(path);
	pdb_free(db);
}

Test(ghcjson, mj_schema)
{
	struct pdb *db = load_tree(JSONDIR "mj.json");
	static const struct {
		const char	*name, *unit;
		enum pdb_kind	 kind;
	} want[] = {
		{ "ticks", "ticks", PDB_COST },
		{ "alloc", "bytes", PDB_COST },
		{ "entries", "calls", PDB_COUNT },
	};
	const struct pdb_metric *m;
	unsigned i;

	cr_assert_eq(pdb_metric_count(db), 3);
	for (i = 0; i < 3; i++) {
		m = pdb_metric(db, i);
		cr_assert_str_eq(m->name, want[i].name);
		cr_assert_str_eq(m->unit, want[i].unit);
		cr_assert_eq(m->kind, want[i].kind);
		cr_assert_eq(m->flags, 0);
	}
	pdb_free(db);
}

Test(ghcjson, mj_cost_centres)
{
	struct pdb *db = load_tree(JSONDIR "mj.json");
	struct pdb_cc cc;
	uint32_t i, cafs = 0;

	cr_assert_eq(pdb_cc_count(db), 136);
	/* One module entry per distinct name. */
	cr_assert_eq(pdb_module_count(db), 122);
	/* In the file's order, with the file's ids. */
	pdb_cc(db, 0, &cc);
	cr_assert_str_eq(cc.label, "IDLE");
	cr_assert_str_eq(cc.module, "IDLE");
	cr_assert_str_eq(cc.src, "<built-in>");
	cr_assert_eq(cc.profile_id, 136);
	cr_assert_eq(cc.flags, 0);
	for (i = 0; i < pdb_cc_count(db); i++) {
		pdb_cc(db, i, &cc);
		cr_assert_eq(cc.profile_id, 136 - (int64_t)i);
		if (cc.flags & PDB_CC_CAF) {
			cafs++;
			cr_assert_str_eq(cc.label, "CAF");
			cr_assert_str_eq(cc.src, "<entire-module>");
		}
		if (strcmp(cc.label, "rev") == 0) {
			cr_assert_str_eq(cc.module, "Main");
			cr_assert_str_eq(cc.src, "Main.hs:(18,1)-(19,28)");
		}
	}
	cr_assert_eq(cafs, 117);
	pdb_free(db);
}

Test(ghcjson, mj_tree)
{
	struct pdb *db = load_tree(JSONDIR "mj.json");
	struct pdb_cc cc;
	uint32_t n;

	cr_assert_eq(pdb_node_count(db), 146);
	pdb_cc(db, pdb_node_cc(db, 0), &cc);
	cr_assert_str_eq(cc.label, "MAIN");
	cr_assert_str_eq(cc.module, "MAIN");
	cr_assert_eq(cc.profile_id, 130);
	assert_values(db, 0, 0, 816, 0);
	cr_assert_eq(pdb_node_child_count(db, 0), 124);

	/* The stacks the text report leaves out are here. */
	assert_values(db, child(db, 0, "GC", "GC"), 1, 0, 0);
	assert_values(db, child(db, 0, "SYSTEM", "SYSTEM"), 2, 168380016, 0);
	assert_values(db, child(db, 0, "PROFILING", "OVERHEAD_of"), 0, 144, 0);
	assert_values(db, child(db, 0, "IDLE", "IDLE"), 0, 0, 0);
	assert_values(db, child(db, 0, "MAIN", "DONT_CARE"), 0, 0, 0);
	assert_values(db, child(db, 0, "SYSTEM", "PINNED"), 0, 0, 0);

	/* MAIN;Main.CAF;h;j;rev, the hot stack. */
	n = child(db, 0, "Main", "CAF");
	n = child(db, child(db, child(db, n, "Main", "h"), "Main", "j"),
	    "Main", "rev");
	assert_values(db, n, 36, 203623440, 6612);
	cr_assert_eq(pdb_node_depth(db, n), 4);
	cr_assert_eq(pdb_node_child_count(db, n), 0);
	pdb_free(db);
}

/* ---- every JSON file ---- */

/* Criterion copies parameters to the worker: strings go inline. */
struct jcase {
	char		 json[64];
	int64_t		 nodes, ticks, alloc;
};

ParameterizedTestParameters(ghcjson, totals)
{
	static struct jcase cases[] = {
		{ JSONDIR "mj.json", 146, 41, 378954016 },
		{ JSONDIR "clausify.json", 171, 309, 412266832 },
		{ JSONDIR "demo.json", 161, 225, 524761320 },
	};

	return cr_make_param_array(struct jcase, cases,
	    sizeof(cases) / sizeof(cases[0]));
}

/* The tree is unpruned: its own costs add up to GHC's totals. */
ParameterizedTest(struct jcase *c, ghcjson, totals)
{
	struct pdb *db = load_tree(c->json);
	int64_t ticks = 0, alloc = 0;
	char buf[32];
	uint32_t n;

	cr_assert_eq(pdb_node_count(db), (uint32_t)c->nodes);
	for (n = 0; n < pdb_node_count(db); n++) {
		ticks += pdb_node_value(db, n, 0);
		alloc += pdb_node_value(db, n, 1);
	}
	cr_assert_eq(ticks, c->ticks);
	cr_assert_eq(alloc, c->alloc);
	snprintf(buf, sizeof(buf), "%lld", (long long)c->ticks);
	assert_meta(db, "total_ticks", buf);
	snprintf(buf, sizeof(buf), "%lld", (long long)c->alloc);
	assert_meta(db, "total_alloc", buf);
	pdb_free(db);
}

/*
 * Text and JSON readers agree on structure.  GHC 9.0.2 builds both
 * reports from the same tree (rts/Profiling.c, reportCCSProfiling), but
 * for the text report (-p, -P; not -pa) it
 *  - prunes every stack with no entries, no ticks and no allocation of
 *    its own and no child left after pruning (pruneCCSTree), and
 *  - leaves out the built-in stacks MAIN.DONT_CARE, GC.GC, SYSTEM.SYSTEM,
 *    IDLE.IDLE and PROFILING.OVERHEAD_of (ignoreCCS), which hang off the
 *    root;
 * while -pj and -pa keep everything.  So the JSON tree with that rule
 * applied has the text tree's shape, cost centres and child order (GHC
 * sorts children the same way for both).  The runs are separate, but
 * entries and allocation are deterministic and no stack of these
 * programs has ticks without either, so the rule gives the same tree
 * whichever run's ticks are used.
 */
struct tcase {
	char		 json[64], text[64];
	int		 pruned;
};

ParameterizedTestParameters(ghcjson, text_agrees)
{
	static struct tcase cases[] = {
		{ JSONDIR "mj.json", TEXTDIR "mj.prof", 1 },
		{ JSONDIR "mj.json", TEXTDIR "mj.P.prof", 1 },
		{ JSONDIR "clausify.json", TEXTDIR "clausify.prof", 1 },
		{ JSONDIR "clausify.json", TEXTDIR "clausify.P.prof", 1 },
		{ JSONDIR "demo.json", TEXTDIR "demo.prof", 1 },
		{ JSONDIR "demo.json", TEXTDIR "demo.P.prof", 1 },
		{ JSONDIR "demo.json", TEXTDIR "demo.pa.prof", 0 },
	};

	return cr_make_param_array(struct tcase, cases,
	    sizeof(cases) / sizeof(cases[0]));
}

static int
ghc_ignored(const struct pdb *db, uint32_t node)
{
	static const char *const ign[][2] = {
		{ "MAIN", "DONT_CARE" }, { "GC", "GC" }, { "SYSTEM", "SYSTEM" },
		{ "IDLE", "IDLE" }, { "PROFILING", "OVERHEAD_of" },
	};
	uint32_t cc = pdb_node_cc(db, node);
	size_t i;

	if (pdb_node_depth(db, node) != 1)
		return 0;
	for (i = 0; i < sizeof(ign) / sizeof(ign[0]); i++)
		if (strcmp(pdb_cc_module(db, cc), ign[i][0]) == 0 &&
		    strcmp(pdb_cc_label(db, cc), ign[i][1]) == 0)
			return 1;
	return 0;
}

/* Which nodes GHC's text report would show (see above). */
static unsigned char *
ghc_text_keep(const struct pdb *db, int pruned)
{
	uint32_t n, nn = pdb_node_count(db), p;
	unsigned char *keep = calloc(nn ? nn : 1, 1), *haskid;
	const int64_t *v;

	haskid = calloc(nn ? nn : 1, 1);
	cr_assert(keep != NULL && haskid != NULL);
	/* Children come after their parents in a tree read as is. */
	for (n = 1; n < nn; n++)
		cr_assert_lt(pdb_node_parent(db, n), n);
	for (n = nn; n-- > 0;) {
		v = pdb_node_values(db, n);
		keep[n] = !pruned || haskid[n] || v[0] != 0 || v[1] != 0 ||
		    v[2] != 0;
		if (pruned && ghc_ignored(db, n))
			keep[n] = 0;
		if (keep[n] && (p = pdb_node_parent(db, n)) != PDB_NONE)
			haskid[p] = 1;
	}
	for (n = 1; n < nn; n++)
		if (!keep[pdb_node_parent(db, n)])
			keep[n] = 0;
	free(haskid);
	return keep;
}

/* One line per node shown, "depth module label src", in pre-order. */
static char *
shape(const struct pdb *db, const unsigned char *keep, size_t *count)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct pdb_cc cc;
	uint32_t n, depth;

	cr_assert(f != NULL);
	*count = 0;
	for (n = pdb_walk_first(db, &depth); n != PDB_NONE;
	    n = pdb_walk_next(db, n, &depth)) {
		if (keep != NULL && !keep[n])
			continue;
		pdb_cc(db, pdb_node_cc(db, n), &cc);
		fprintf(f, "%u %s %s %s\n", depth, cc.module, cc.label, cc.src);
		(*count)++;
	}
	fclose(f);
	return buf;
}

ParameterizedTest(struct tcase *c, ghcjson, text_agrees)
{
	struct pdb *j = load_tree(c->json), *t = load_tree(c->text);
	unsigned char *keep = ghc_text_keep(j, c->pruned);
	char *js, *ts;
	size_t jn, tn;

	js = shape(j, keep, &jn);
	ts = shape(t, NULL, &tn);
	cr_assert_gt(tn, 10);
	cr_assert_eq(jn, tn, "%s: %zu nodes shown, %s: %zu", c->json, jn,
	    c->text, tn);
	cr_assert_str_eq(js, ts, "%s and %s differ", c->json, c->text);
	if (c->pruned)
		cr_assert_lt(tn, pdb_node_count(j));
	else
		cr_assert_eq(tn, pdb_node_count(j));
	free(js);
	free(ts);
	free(keep);
	pdb_free(j);
	pdb_free(t);
}

/* ---- streaming ---- */

struct counter {
	int	 enters, exits, stop_at;
};

static int
c_enter(void *arg, struct pdb *db, uint32_t cc, const int64_t *v)
{
	struct counter *c = arg;

	(void)db;
	(void)cc;
	(void)v;
	return ++c->enters == c->stop_at ? PDB_ESTOP : 0;
}

static int
c_exit(void *arg, struct pdb *db)
{
	struct counter *c = arg;

	(void)db;
	c->exits++;
	return 0;
}

Test(ghcjson, stream_balanced_and_stoppable)
{
	struct counter c = { 0, 0, 0 };
	struct pdb_sink sink = { .enter = c_enter, .exit = c_exit, .arg = &c };
	struct pdb *db = pdb_new();

	cr_assert_eq(pdb_read_stream(db, JSONDIR "mj.json", NULL, NULL, &sink,
	    NULL), PDB_OK, "%s", pdb_errmsg(db));
	cr_assert_eq(c.enters, 146);
	cr_assert_eq(c.exits, 146);
	pdb_free(db);

	db = pdb_new();
	c.enters = c.exits = 0;
	c.stop_at = 3;
	cr_assert_eq(pdb_read_stream(db, JSONDIR "mj.json", NULL, NULL, &sink,
	    NULL), PDB_ESTOP);
	cr_assert_eq(c.enters, 3);
	pdb_free(db);
}

Test(ghcjson, gzip)
{
	struct run r;
	struct pdb *db;
	char *path = write_temp("", 0, ".json.gz");

	run(&r, "gzip -c " JSONDIR "mj.json > %s", path);
	cr_assert_eq(r.status, 0);
	run_free(&r);
	db = load_tree(path);
	cr_assert_eq(pdb_node_count(db), 146);
	pdb_free(db);
	unlink(path);
	free(path);
}

/* ---- bad input ---- */

struct bad {
	char		 text[400];
	char		 msg[80];	/* what follows "<file>" in the message */
};

ParameterizedTestParameters(ghcjson, bad)
{
#define CC1	"{\"id\": 1, \"label\": \"a\", \"module\": \"M\", \"src_loc\": \"\"}"
#define NODE(id, kids)	"{\"id\": " #id ", \"entries\": 1, \"alloc\": 2, " \
	"\"ticks\": 3, \"children\": [" kids "]}"
#define DOC(ccs, prof)	"{\"cost_centres\": [" ccs "], \"profile\": " prof "}"
	static struct bad cases[] = {
		{ "[1, 2]", ": not a GHC profile: the top level is not an object" },
		{ "{\"program\": \"x\"}", ": not a GHC profile: no 'cost_centres'" },
		{ "{\"cost_centres\": []}", ": not a GHC profile: no 'profile'" },
		{ "{\"cost_centres\": 5, \"profile\": {}}",
		  ": 'cost_centres' is not an array" },
		{ DOC("5", NODE(1, "")), ": 'cost_centres[0]' is not an object" },
		{ DOC("{\"label\": \"a\", \"module\": \"M\"}", NODE(1, "")),
		  ": 'cost_centres[0]': missing 'id'" },
		{ DOC(CC1 ", {\"id\": \"2\", \"label\": \"a\", \"module\": \"M\"}",
		  NODE(1, "")), ": 'cost_centres[1]': 'id' is not an integer" },
		{ DOC("{\"id\": 1, \"module\": \"M\"}", NODE(1, "")),
		  ": 'cost_centres[0]': missing 'label'" },
		{ DOC("{\"id\": 1, \"label\": 7, \"module\": \"M\"}", NODE(1, "")),
		  ": 'cost_centres[0]': 'label' is not a string" },
		{ DOC("{\"id\": 1, \"label\": \"a\", \"module\": null}", NODE(1, "")),
		  ": 'cost_centres[0]': 'module' is not a string" },
		{ DOC("{\"id\": 1, \"label\": \"a\", \"module\": \"M\", "
		  "\"is_caf\": \"yes\"}", NODE(1, "")),
		  ": 'cost_centres[0]': 'is_caf' is not a boolean" },
		{ DOC(CC1 ", " CC1, NODE(1, "")), ": duplicate cost centre id 1" },
		{ DOC(CC1, NODE(999, "")),
		  ": profile node 1: unknown cost centre id 999" },
		{ DOC(CC1, NODE(1, NODE(1, "") ", " NODE(999, ""))),
		  ": profile node 3: unknown cost centre id 999" },
		{ DOC(CC1, "[]"), ": profile node 1 is not an object" },
		{ DOC(CC1, NODE(1, "5")), ": profile node 2 is not an object" },
		{ DOC(CC1, "{\"entries\": 1, \"alloc\": 2, \"ticks\": 3, "
		  "\"children\": []}"), ": profile node 1: missing 'id'" },
		{ DOC(CC1, "{\"id\": 1.0, \"entries\": 1, \"alloc\": 2, "
		  "\"ticks\": 3, \"children\": []}"),
		  ": profile node 1: 'id' is not an integer" },
		{ DOC(CC1, "{\"id\": 1, \"entries\": 1, \"alloc\": 2, "
		  "\"children\": []}"), ": profile node 1: missing 'ticks'" },
		{ DOC(CC1, "{\"id\": 1, \"entries\": 1, \"alloc\": \"2\", "
		  "\"ticks\": 3, \"children\": []}"),
		  ": profile node 1: 'alloc' is not an integer" },
		{ DOC(CC1, "{\"id\": 1, \"entries\": 1.5, \"alloc\": 2, "
		  "\"ticks\": 3, \"children\": []}"),
		  ": profile node 1: 'entries' is not an integer" },
		{ DOC(CC1, "{\"id\": 1, \"entries\": 1, \"alloc\": 2, "
		  "\"ticks\": 3}"), ": profile node 1: missing 'children'" },
		{ DOC(CC1, "{\"id\": 1, \"entries\": 1, \"alloc\": 2, "
		  "\"ticks\": 3, \"children\": {}}"),
		  ": profile node 1: 'children' is not an array" },
		{ "{\"program\": 5, \"cost_centres\": []}",
		  ": 'program' is not a string" },
		{ "{\"arguments\": \"./x\", \"cost_centres\": []}",
		  ": 'arguments' is not an array" },
		{ "{\"arguments\": [\"./x\", 1], \"cost_centres\": []}",
		  ": 'arguments[1]' is not a string" },
		{ "{\"total_ticks\": \"7\", \"cost_centres\": []}",
		  ": 'total_ticks' is not a number" },
		/* Jansson's own errors, with line and column. */
		{ "{\"cost_centres\": [,]}", ":1:19: " },
		{ "{\"cost_centres\": [],\n \"profile\": ", ":2:" },
		{ "", ":1:0: " },
		{ DOC(CC1, "{\"id\": 1, \"entries\": 1, \"alloc\": "
		  "99999999999999999999, \"ticks\": 3, \"children\": []}"),
		  ":1:" },
		{ DOC("{\"id\": 1, \"label\": \"a\\u0000b\", \"module\": \"M\"}",
		  NODE(1, "")), ":1:" },
		{ DOC("{\"id\": 1, \"label\": \"a\xff\", \"module\": \"M\"}",
		  NODE(1, "")), ":1:" },
	};
#undef CC1
#undef NODE
#undef DOC

	return cr_make_param_array(struct bad, cases,
	    sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct bad *c, ghcjson, bad)
{
	char *path, want[512];
	struct pdb *db;
	int rc;

	db = read_text(c->text, strlen(c->text), &pdb_fmt_ghcjson, ".json",
	    &rc, &path, NULL);
	cr_assert_eq(rc, PDB_EFORMAT, "%s: rc %d: %s", c->text, rc,
	    pdb_errmsg(db));
	snprintf(want, sizeof(want), "%s%s", path, c->msg);
	cr_assert(strncmp(pdb_errmsg(db), want, strlen(want)) == 0,
	    "got '%s', want '%s...'", pdb_errmsg(db), want);
	unlink(path);
	free(path);
	pdb_free(db);
}

/*
 * Read text through Jansson as it is, and through the yajl stream padded
 * with spaces past GHCJSON_STREAM_MIN; both must give rc.
 */
static void
read_both_n(const char *text, size_t len, int want, const char *msg)
{
	size_t big = len + ((size_t)1 << 20) + 16;
	char *padded = malloc(big), *path;
	struct pdb *db;
	int pass, rc;

	cr_assert(padded != NULL);
	memcpy(padded, text, len);
	memset(padded + len, ' ', big - len);
	for (pass = 0; pass < 2; pass++) {
		db = read_text(padded, pass == 0 ? len : big, &pdb_fmt_ghcjson,
		    ".json", &rc, &path, NULL);
		cr_expect_eq(rc, want, "%s (%s): rc %d: %s", text,
		    pass == 0 ? "Jansson" : "stream", rc, pdb_errmsg(db));
		if (msg != NULL)
			cr_expect(strstr(pdb_errmsg(db), msg) != NULL,
			    "%s (%s): %s", text, pass == 0 ? "Jansson" :
			    "stream", pdb_errmsg(db));
		unlink(path);
		free(path);
		pdb_free(db);
	}
	free(padded);
}

static void
read_both(const char *text, int want, const char *msg)
{
	read_both_n(text, strlen(text), want, msg);
}

/*
 * total_time as GHC writes it, two decimals kept, as the text report's
 * reader keeps them, through Jansson and the stream alike; a real of
 * more decimals in its shortest form.
 */
Test(ghcjson, total_time_keeps_its_decimals)
{
	static const char *const t[][2] = {
		{ "0.50", "0.50" }, { "1.00", "1.00" }, { "0.00", "0.00" },
		{ "12.25", "12.25" }, { "0.125", "0.125" }, { "1e-7", "1e-07" },
	};
	char text[sizeof(tiny) + 64], *at, *padded, *path;
	const char *num = "\"total_time\": 0.25";
	size_t i, len, big;
	struct pdb *db;
	int pass, rc;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		at = strstr(tiny, num);
		cr_assert(at != NULL);
		len = (size_t)snprintf(text, sizeof(text), "%.*s\"total_time\": "
		    "%s%s", (int)(at - tiny), tiny, t[i][0], at + strlen(num));
		big = len + ((size_t)1 << 20) + 16;
		padded = malloc(big);
		cr_assert(padded != NULL);
		memcpy(padded, text, len);
		memset(padded + len, ' ', big - len);
		for (pass = 0; pass < 2; pass++) {
			db = read_text(padded, pass == 0 ? len : big,
			    &pdb_fmt_ghcjson, ".json", &rc, &path, NULL);
			cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
			cr_expect_str_eq(pdb_meta_get(db, "total_time"),
			    t[i][1], "%s (%s)", t[i][0], pass == 0 ?
			    "Jansson" : "stream");
			unlink(path);
			free(path);
			pdb_free(db);
		}
		free(padded);
	}
}

/* The warnings of a read, joined. */
static void
keep_warning(void *arg, const char *msg)
{
	char *w = arg;

	strncat(w, msg, 1023 - strlen(w));
	strncat(w, "\n", 1023 - strlen(w));
}

/*
 * GHC writes total_ticks and total_alloc as the sums of the tree: a
 * file whose header says otherwise was edited, which both readers say,
 * and only then.
 */
Test(ghcjson, totals_that_do_not_add_up_are_said)
{
	static const char *const heads[] = {
		"\"total_ticks\": 9, \"total_alloc\": 578",
		"\"total_ticks\": 1, \"total_alloc\": 578",
		"\"total_ticks\": 9, \"total_alloc\": 5",
	};
	static const char *const want[] = {
		"",
		"the tree's ticks add up to 9, its total_ticks says 1: the "
		"file was edited\n",
		"the tree's alloc add up to 578, its total_alloc says 5: the "
		"file was edited\n",
	};
	char text[1024], warned[1024], *padded, *path, *p;
	size_t i, len, big;
	struct pdb *db;
	int pass;

	for (i = 0; i < 3; i++) {
		snprintf(text, sizeof(text), "{%s, \"cost_centres\": [{\"id\": 1, "
		    "\"label\": \"a\", \"module\": \"M\"}, {\"id\": 2, "
		    "\"label\": \"b\", \"module\": \"M\"}], \"profile\": "
		    "{\"id\": 1, \"entries\": 1, \"alloc\": 2, \"ticks\": 3, "
		    "\"children\": [{\"id\": 2, \"entries\": 5, \"alloc\": 576, "
		    "\"ticks\": 6, \"children\": []}]}}", heads[i]);
		len = strlen(text);
		big = len + ((size_t)1 << 20) + 16;
		cr_assert((padded = malloc(big)) != NULL);
		memcpy(padded, text, len);
		memset(padded + len, ' ', big - len);
		for (pass = 0; pass < 2; pass++) {
			path = write_temp(padded, pass == 0 ? len : big,
			    ".json");
			cr_assert((db = pdb_new()) != NULL);
			warned[0] = '\0';
			pdb_set_warn_handler(db, keep_warning, warned);
			cr_expect_eq(pdb_read_tree(db, path, &pdb_fmt_ghcjson,
			    NULL, NULL), PDB_OK, "%s", pdb_errmsg(db));
			/* After "<path>: ", if anything. */
			p = strstr(warned, ": ");
			cr_expect_str_eq(p != NULL ? p + 2 : warned, want[i],
			    "%s (%s)", heads[i], pass ? "stream" : "Jansson");
			unlink(path);
			free(path);
			pdb_free(db);
		}
		free(padded);
	}
}

/*
 * A key twice in one object: Jansson would keep the last value and a
 * stream the first, so both refuse it, wherever it is.
 */
Test(ghcjson, duplicate_keys_refused_by_both_readers)
{
#define CC1	"{\"id\": 1, \"label\": \"a\", \"module\": \"M\"}"
#define NODE1	"{\"id\": 1, \"entries\": 1, \"alloc\": 2, \"ticks\": 3, " \
	"\"children\": []}"
	static const char *const dups[] = {
		"{\"cost_centres\": [" CC1 "], \"cost_centres\": [" CC1 "], "
		"\"profile\": " NODE1 "}",
		"{\"program\": \"a\", \"cost_centres\": [" CC1 "], "
		"\"program\": \"b\", \"profile\": " NODE1 "}",
		"{\"cost_centres\": [" CC1 "], \"profile\": " NODE1 ", "
		"\"profile\": " NODE1 "}",
		"{\"cost_centres\": [{\"id\": 1, \"label\": \"a\", "
		"\"label\": \"b\", \"module\": \"M\"}], \"profile\": " NODE1 "}",
		"{\"cost_centres\": [" CC1 "], \"profile\": {\"id\": 1, "
		"\"entries\": 1, \"alloc\": 2, \"ticks\": 3, \"ticks\": 4, "
		"\"children\": []}}",
		"{\"cost_centres\": [" CC1 "], \"profile\": {\"id\": 1, "
		"\"entries\": 1, \"alloc\": 2, \"ticks\": 3, \"children\": [], "
		"\"children\": []}}",
		"{\"cost_centres\": [" CC1 "], \"profile\": {\"id\": 1, "
		"\"x\": 1, \"entries\": 1, \"alloc\": 2, \"ticks\": 3, "
		"\"x\": 2, \"children\": []}}",
		"{\"extra\": {\"a\": [{\"k\": 1, \"k\": 2}]}, "
		"\"cost_centres\": [" CC1 "], \"profile\": " NODE1 "}",
	};
	/* The same keys in different objects are fine. */
	static const char ok[] = "{\"x\": {\"x\": {\"x\": 1}, \"y\": [{\"x\": "
	    "1}, {\"x\": 2}]}, \"cost_centres\": [" CC1 ", {\"id\": 2, "
	    "\"label\": \"b\", \"module\": \"M\", \"x\": 1}], \"profile\": "
	    "{\"id\": 1, \"x\": 1, \"entries\": 1, \"alloc\": 2, \"ticks\": 3, "
	    "\"children\": [{\"id\": 2, \"x\": 1, \"entries\": 1, \"alloc\": "
	    "2, \"ticks\": 3, \"children\": []}, " NODE1 "]}}";
	size_t i;

	for (i = 0; i < sizeof(dups) / sizeof(dups[0]); i++)
		read_both(dups[i], PDB_EFORMAT, "duplicate object key");
	read_both(ok, PDB_OK, NULL);
#undef CC1
#undef NODE1
}

/* JSON's white space is space, tab, newline and return: yajl also
 * skips form feed and vertical tab, which both readers refuse. */
Test(ghcjson, form_feed_and_vertical_tab_refused_by_both_readers)
{
	static const char *const docs[] = {
		"{\"cost_centres\": [{\"id\": 1, \"label\": \"a\", \"module\": "
		"\"M\"}],\v\"profile\": {\"id\": 1, \"entries\": 1, \"alloc\": "
		"2, \"ticks\": 3, \"children\": []}}",
		"{\f\"cost_centres\": [{\"id\": 1, \"label\": \"a\", \"module\": "
		"\"M\"}], \"profile\": {\"id\": 1, \"entries\": 1, \"alloc\": "
		"2, \"ticks\": 3, \"children\": []}}",
		"{\"cost_centres\": [{\"id\": 1, \"label\": \"a\f\", \"module\": "
		"\"M\"}], \"profile\": {\"id\": 1, \"entries\": 1, \"alloc\": "
		"2, \"ticks\": 3, \"children\": []}}",
	};
	size_t i;

	for (i = 0; i < sizeof(docs) / sizeof(docs[0]); i++)
		read_both(docs[i], PDB_EFORMAT, NULL);
}

/* Jansson refuses an unpaired UTF-16 surrogate escape; yajl would
 * turn it into '?' or invalid UTF-8, so the stream refuses it too. */
Test(ghcjson, unpaired_surrogates_refused_by_both_readers)
{
#define DOC(label) "{\"cost_centres\": [{\"id\": 1, \"label\": \"" label \
	"\", \"module\": \"M\"}], \"profile\": {\"id\": 1, \"entries\": 1, " \
	"\"alloc\": 2, \"ticks\": 3, \"children\": []}}"
	read_both(DOC("a\\ud80d"), PDB_EFORMAT, NULL);
	read_both(DOC("a\\ud80ducaf"), PDB_EFORMAT, NULL);
	read_both(DOC("a\\udc00b"), PDB_EFORMAT, NULL);
	read_both(DOC("a\\ud800\\u0041"), PDB_EFORMAT, NULL);
	read_both(DOC("a\\ud83d\\ude00b"), PDB_OK, NULL);
	read_both(DOC("a\\\\ud80d"), PDB_OK, NULL);	/* a backslash, then text */
	read_both(DOC("a\\u00e9"), PDB_OK, NULL);
#undef DOC
}

/* is_caf may be null (false) in both readers, but nothing else. */
Test(ghcjson, is_caf_null_or_boolean_in_both_readers)
{
#define DOC(caf) "{\"cost_centres\": [{\"id\": 1, \"label\": \"a\", " \
	"\"module\": \"M\", \"is_caf\": " caf "}], \"profile\": {\"id\": 1, " \
	"\"entries\": 1, \"alloc\": 2, \"ticks\": 3, \"children\": []}}"
	read_both(DOC("null"), PDB_OK, NULL);
	read_both(DOC("true"), PDB_OK, NULL);
	read_both(DOC("0"), PDB_EFORMAT, "'is_caf' is not a boolean");
	read_both(DOC("\"yes\""), PDB_EFORMAT, "'is_caf' is not a boolean");
#undef DOC
}

/*
 * Jansson refuses strings that are not well-formed UTF-8 or hold a NUL,
 * wherever they are; yajl takes overlong forms, UTF-8 surrogates, code
 * points past U+10FFFF and "\u0000", so the stream checks every string.
 */
Test(ghcjson, invalid_utf8_refused_by_both_readers)
{
#define DOC(skipped, key, label) "{\"x\": \"" skipped "\", \"" key \
	"\": 1, \"cost_centres\": [{\"id\": 1, \"label\": \"" label "\", " \
	"\"module\": \"M\"}], \"profile\": {\"id\": 1, \"entries\": 1, " \
	"\"alloc\": 2, \"ticks\": 3, \"children\": []}}"
	static const char *const bad[] = {
		"\xc0\xb7",			/* overlong, two bytes */
		"\xc1\x81",
		"\xe0\x80\x80",		/* overlong, three */
		"\xed\xa0\x80",		/* a surrogate */
		"\xf0\x80\x80\x80",		/* overlong, four */
		"\xf4\x90\x80\x80",		/* past U+10FFFF */
		"\xf5\x80\x80\x80",
		"\x80",			/* a lone continuation */
		"a\xc3",			/* cut short */
		"\xff",
	};
	char doc[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(doc, sizeof(doc), DOC("%s", "k", "a"), bad[i]);
		read_both(doc, PDB_EFORMAT, NULL);
		snprintf(doc, sizeof(doc), DOC("s", "%s", "a"), bad[i]);
		read_both(doc, PDB_EFORMAT, NULL);
		snprintf(doc, sizeof(doc), DOC("s", "k", "%s"), bad[i]);
		read_both(doc, PDB_EFORMAT, NULL);
	}
	/* "\u0000" in a string neither reader uses, said alike by both,
	 * without Jansson's flag name. */
	read_both(DOC("a\\u0000b", "k", "a"), PDB_EFORMAT,
	    ": NUL character in a string");
	/* Well-formed sequences of every length, at the edges. */
	read_both(DOC("\xc2\x80\xdf\xbf", "\xe0\xa0\x80\xed\x9f\xbf",
	    "\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"), PDB_OK, NULL);
#undef DOC
}

/*
 * Read text through the stream (padded past GHCJSON_STREAM_MIN): the
 * error must be "PATH:1:COL: msg", COL within or just past the first
 * occurrence of token in text.
 */
static void
stream_error_at(const char *text, const char *token, const char *msg)
{
	size_t len = strlen(text), big = len + ((size_t)1 << 20) + 16;
	size_t at = (size_t)(strstr(text, token) - text);
	char *padded = malloc(big), *path, *rest;
	unsigned long line, col;
	struct pdb *db;
	int rc;

	cr_assert(padded != NULL);
	memcpy(padded, text, len);
	memset(padded + len, ' ', big - len);
	db = read_text(padded, big, &pdb_fmt_ghcjson, ".json", &rc, &path,
	    NULL);
	cr_expect_eq(rc, PDB_EFORMAT);
	cr_assert(strncmp(pdb_errmsg(db), path, strlen(path)) == 0, "%s",
	    pdb_errmsg(db));
	rest = (char *)pdb_errmsg(db) + strlen(path);
	cr_expect_eq(sscanf(rest, ":%lu:%lu: ", &line, &col), 2, "%s",
	    pdb_errmsg(db));
	cr_expect_eq(line, 1);
	cr_expect(col >= at + 1 && col <= at + strlen(token) + 1,
	    "column %lu, the token at %zu: %s", col, at + 1, pdb_errmsg(db));
	cr_expect(strstr(rest, msg) != NULL, "%s", pdb_errmsg(db));
	unlink(path);
	free(path);
	pdb_free(db);
	free(padded);
}

/* Integers: both readers take -2^63 (yajl alone would not) and refuse
 * what is out of 64 bits; real numbers past the double range too. */
Test(ghcjson, number_ranges_in_both_readers)
{
#define DOC(x, entries) "{\"x\": " x ", \"cost_centres\": [{\"id\": 1, " \
	"\"label\": \"a\", \"module\": \"M\"}], \"profile\": {\"id\": 1, " \
	"\"entries\": " entries ", \"alloc\": 2, \"ticks\": 3, " \
	"\"children\": []}}"
	read_both(DOC("-9223372036854775808", "1"), PDB_OK, NULL);
	read_both(DOC("9223372036854775807", "1"), PDB_OK, NULL);
	read_both(DOC("-9223372036854775809", "1"), PDB_EFORMAT, NULL);
	read_both(DOC("9223372036854775808", "1"), PDB_EFORMAT, NULL);
	read_both(DOC("123456789012345678901234567890", "1"), PDB_EFORMAT,
	    NULL);
	/* Real, though its digits before the point pass 64 bits. */
	read_both(DOC("123456789012345678901234.5", "1"), PDB_OK, NULL);
	read_both(DOC("-99999999999999999999e-5", "1"), PDB_OK, NULL);
	read_both(DOC("1e400", "1"), PDB_EFORMAT, NULL);
	read_both(DOC("-1e400", "1"), PDB_EFORMAT, NULL);
	read_both(DOC("1e-400", "1"), PDB_OK, NULL);
	read_both(DOC("-0", "-0"), PDB_OK, NULL);
	/* GHC writes its counts unsigned: a negative one is refused, as
	 * the text reader refuses it. */
	read_both(DOC("0", "-9223372036854775808"), PDB_EFORMAT,
	    "profile node 1: 'entries' is negative (-9223372036854775808)");
	read_both(DOC("0", "-1"), PDB_EFORMAT,
	    "profile node 1: 'entries' is negative (-1)");
	read_both(DOC("0", "9223372036854775807"), PDB_OK, NULL);
	/* The stream, for files too big to look through, says where. */
	stream_error_at(DOC("0", "-1"), "-1", "profile node 1: 'entries' is "
	    "negative (-1)");
	stream_error_at(DOC("0", "\"5\""), "\"5\"", "profile node 1: "
	    "'entries' is not an integer");
#undef DOC
}

/*
 * Nothing but white space may follow the profile.  yajl refuses a whole
 * token there, but not one the end of the file cuts (an unterminated
 * string, "tru"), which the stream refuses itself, also in a chunk
 * after the one where the profile ends.
 */
Test(ghcjson, trailing_garbage_refused_by_both_readers, .timeout = 60)
{
	static const char doc[] = "{\"cost_centres\": [{\"id\": 1, "
	    "\"label\": \"a\", \"module\": \"M\"}], \"profile\": {\"id\": 1, "
	    "\"entries\": 1, \"alloc\": 2, \"ticks\": 3, \"children\": []}}";
	static const char *const tails[] = {
		" \"abc", " \"", " tru", " -", " 1", " [", " {", " /*", " \xef",
		"x", " ]", " ,", "\n\n\"\\u12",
	};
	size_t gap = (size_t)3 << 19, n, i;	/* 1.5 MiB of spaces */
	char *buf = malloc(sizeof(doc) + gap + 16);

	cr_assert(buf != NULL);
	for (i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		n = (size_t)snprintf(buf, sizeof(doc) + 16, "%s%s", doc,
		    tails[i]);
		read_both_n(buf, n, PDB_EFORMAT, NULL);
		memcpy(buf, doc, sizeof(doc) - 1);
		memset(buf + sizeof(doc) - 1, ' ', gap);
		n = sizeof(doc) - 1 + gap;
		n += (size_t)snprintf(buf + n, 16, "%s", tails[i]);
		read_both_n(buf, n, PDB_EFORMAT, NULL);
	}
	read_both(doc, PDB_OK, NULL);
	n = (size_t)snprintf(buf, sizeof(doc) + 16, "%s \t\r\n", doc);
	read_both_n(buf, n, PDB_OK, NULL);
	free(buf);
}

/*
 * The same where the escape straddles the stream's chunks: it starts at
 * every offset of ranges that hold the bounds of the reader's chunks in
 * a plain build and in SAN=1 (PDB_SMALL_BUFFERS).  An unpaired
 * surrogate is reported where it starts, also when that is in the chunk
 * before; a \u cut before its hex digits, which are not hex, is yajl's
 * error (and was read from before the buffer).
 */
Test(ghcjson, surrogates_across_chunks, .timeout = 300)
{
	static const char head[] = "{\"cost_centres\": [{\"id\": 1, "
	    "\"label\": \"";
	static const char tail[] = "\", \"module\": \"M\"}], \"profile\": "
	    "{\"id\": 1, \"entries\": 1, \"alloc\": 2, \"ticks\": 3, "
	    "\"children\": []}}";
	static const char *const esc[] = { "\\ud83d\\ude00", "\\ud80d",
	    "\\u1zzz" };
	static const int want[] = { PDB_OK, PDB_EFORMAT, PDB_EFORMAT };
	/*
	 * Where the reader refills its buffer, so that the chunk starts at
	 * the buffer's start, and where yajl's chunks end inside it: at 64
	 * and 128 KiB in a plain build, 50 KiB (the buffer, grown for the
	 * head) and every 150 bytes with PDB_SMALL_BUFFERS.
	 */
	static const size_t from[] = { ((size_t)64 << 10) - 12,
	    ((size_t)128 << 10) - 12, 51200 - 12, 70000 };
	static const size_t to[] = { (size_t)64 << 10, (size_t)128 << 10,
	    51200, 70200 };
	size_t r, i, at, pad, len;
	char *doc, *path, where[64];
	struct pdb *db;
	int rc;

	for (r = 0; r < sizeof(from) / sizeof(from[0]); r++)
		for (at = from[r]; at < to[r]; at++)
			for (i = 0; i < 3; i++) {
				/* The escape starts at byte at; spaces after
				 * make the file big enough to stream. */
				pad = at - (sizeof(head) - 1);
				len = at + strlen(esc[i]) + sizeof(tail) - 1 +
				    40000;
				cr_assert((doc = malloc(len + 1)) != NULL);
				memset(doc, ' ', len);
				memcpy(doc + pad, head, sizeof(head) - 1);
				memcpy(doc + at, esc[i], strlen(esc[i]));
				memcpy(doc + at + strlen(esc[i]), tail,
				    sizeof(tail) - 1);
				db = read_text(doc, len, &pdb_fmt_ghcjson,
				    ".json", &rc, &path, NULL);
				cr_expect_eq(rc, want[i], "%s at %zu: rc %d: %s",
				    esc[i], at, rc, pdb_errmsg(db));
				/* One line: the column is the byte's offset. */
				snprintf(where, sizeof(where), ":1:%zu: invalid "
				    "Unicode escape", at);
				if (i == 1)
					cr_expect(strstr(pdb_errmsg(db), where) !=
					    NULL, "at %zu: %s", at,
					    pdb_errmsg(db));
				unlink(path);
				free(path);
				pdb_free(db);
				free(doc);
			}
}

/* Nor is a NUL byte, which Jansson skips between tokens. */
Test(ghcjson, nul_between_tokens_refused_by_both_readers)
{
	static const char doc[] = "{\"cost_centres\": [{\"id\": 1, "
	    "\"label\": \"a\", \"module\": \"M\"}], \"profile\": {\"id\": 1, "
	    "\"entries\": 1\0, \"alloc\": 2, \"ticks\": 3, \"children\": []}}";

	read_both_n(doc, sizeof(doc) - 1, PDB_EFORMAT, NULL);
	/* Without the NUL it reads. */
	read_both("{\"cost_centres\": [{\"id\": 1, \"label\": \"a\", "
	    "\"module\": \"M\"}], \"profile\": {\"id\": 1, \"entries\": 1, "
	    "\"alloc\": 2, \"ticks\": 3, \"children\": []}}", PDB_OK, NULL);
}

/*
 * A value under a key the reader does not need, nested past Jansson's
 * limit, is refused by both readers at the same bracket: the stream
 * used to keep a level of 40 bytes for each, 400 MB for 10 MB of '['.
 * Nested less, it is read past.
 */
Test(ghcjson, deep_skipped_values_refused_by_both_readers, .timeout = 120)
{
	static const char head[] = "{\"cost_centres\": [{\"id\": 1, "
	    "\"label\": \"a\", \"module\": \"M\"}], \"profile\": {\"id\": 1, "
	    "\"entries\": 1, \"alloc\": 2, \"ticks\": 3, \"children\": []}, "
	    "\"x\": ";
	size_t n, hl = sizeof(head) - 1, i, deep[] = { 2047, 2048, 100000 };
	char *doc, msg[64];
	struct run r;

	for (i = 0; i < sizeof(deep) / sizeof(deep[0]); i++) {
		n = deep[i];
		cr_assert((doc = malloc(hl + 2 * n + 2)) != NULL);
		memcpy(doc, head, hl);
		memset(doc + hl, '[', n);
		memset(doc + hl + n, ']', n);
		memcpy(doc + hl + 2 * n, "}", 2);
		snprintf(msg, sizeof(msg), ":1:%zu: maximum parsing depth "
		    "reached near '['", hl + 2048);
		read_both_n(doc, hl + 2 * n + 1, n < 2048 ? PDB_OK :
		    PDB_EFORMAT, n < 2048 ? NULL : msg);
		free(doc);
	}
	/* Ten megabytes of them, from a pipe, in little memory. */
#if !defined(__SANITIZE_ADDRESS__)
	run(&r, "(printf '{\"cost_centres\":[], \"x\":'; head -c 10000000 "
	    "/dev/zero | tr '\\0' '[') | (ulimit -v 65536 && ccs-flat -)");
	cr_expect_eq(r.status, 1);
	cr_expect_str_eq(r.err, "ccs-flat: <stdin>:1:2072: maximum parsing "
	    "depth reached near '['\n");
	run_free(&r);
#else
	(void)r;
#endif
}

/* Every proper prefix of a good file fails cleanly. */
Test(ghcjson, truncated_everywhere)
{
	size_t len = sizeof(tiny) - 1, l;
	char *path;
	struct pdb *db;
	int rc;

	path = write_temp(tiny, len, ".json");
	for (l = len; l-- > 0;) {
		cr_assert_eq(truncate(path, (off_t)l), 0);
		db = pdb_new();
		rc = pdb_read_tree(db, path, &pdb_fmt_ghcjson, NULL, NULL);
		/* Cut after the final '}', only the newline is missing. */
		if (l == len - 1) {
			cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
		} else {
			cr_assert_eq(rc, PDB_EFORMAT, "prefix %zu", l);
			cr_assert(strncmp(pdb_errmsg(db), path,
			    strlen(path)) == 0);
		}
		pdb_free(db);
	}
	unlink(path);
	free(path);
}

/* A chain of n nested profile nodes. */
static char *
deep_json(size_t n, size_t *lenp)
{
	static const char head[] = "{\"cost_centres\": [{\"id\": 1, "
	    "\"label\": \"a\", \"module\": \"M\"}],\n\"profile\": ";
	static const char node[] = "{\"id\":1,\"entries\":1,\"alloc\":0,"
	    "\"ticks\":1,\"children\":[";
	size_t len = sizeof(head) - 1 + n * (sizeof(node) - 1 + 2) + 2, i;
	char *s = malloc(len + 1), *p = s;

	cr_assert(s != NULL);
	memcpy(p, head, sizeof(head) - 1);
	p += sizeof(head) - 1;
	for (i = 0; i < n; i++, p += sizeof(node) - 1)
		memcpy(p, node, sizeof(node) - 1);
	for (i = 0; i < n; i++) {
		*p++ = ']';
		*p++ = '}';
	}
	*p++ = '}';
	*p++ = '\n';
	*p = '\0';
	*lenp = (size_t)(p - s);
	cr_assert_eq(*lenp, len);
	return s;
}

/* A profile of n levels, of at most maxlen bytes, read: a node a level. */
static void
read_deep(uint32_t n, size_t maxlen)
{
	size_t len;
	char *s = deep_json(n, &len), *path;
	struct pdb *db;
	int rc;

	cr_assert_leq(len, maxlen);
	db = read_text(s, len, NULL, ".json", &rc, &path, NULL);
	cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
	cr_assert_eq(pdb_node_count(db), n);
	cr_assert_eq(pdb_node_depth(db, n - 1), n - 1);
	unlink(path);
	free(path);
	free(s);
	pdb_free(db);
}

/*
 * Jansson parses up to 2048 levels: 1023 profile levels.  A file that
 * deep (55 KB) is past GHCJSON_STREAM_MIN, and so is any deeper one,
 * since a level takes 54 bytes at least: it streams, at any depth.
 */
Test(ghcjson, deep_1023)
{
	read_deep(1023, SIZE_MAX);
}

/* Past Jansson's depth, in a file of only 108 KB. */
Test(ghcjson, deep_2000_small_file)
{
	read_deep(2000, (size_t)120 << 10);
}

/*
 * A million levels: past GHCJSON_STREAM_MIN the file streams through
 * yajl, whose nesting has no limit, and our explicit stack takes it.
 */
Test(ghcjson, deep_1000000, .timeout = 300)
{
	size_t len;
	char *s = deep_json(1000000, &len), *path;
	struct pdb *db;
	struct run r;
	int rc;

	db = read_text(s, len, NULL, ".json", &rc, &path, NULL);
	cr_assert_eq(rc, PDB_OK, "%s", pdb_errmsg(db));
	cr_assert_eq(pdb_node_count(db), 1000000);
	cr_assert_eq(pdb_node_depth(db, 999999), 999999);
	pdb_free(db);
	run(&r, "ccs-flat --tsv %s", path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\t1000000\t1000000\t1000000\n") != NULL,
	    "%s", r.out);
	run_free(&r);
	unlink(path);
	free(path);
	free(s);
}

/* The tools print the reader's message with line and column. */
Test(ghcjson, tool_message)
{
	static const char text[] = "{\"cost_centres\": [],\n\"profile\": }\n";
	char *path, want[256];
	struct run r;

	path = write_temp(text, sizeof(text) - 1, ".prof");
	run(&r, "ccs-flat %s", path);
	cr_assert_eq(r.status, 1);
	snprintf(want, sizeof(want), "ccs-flat: %s:2:", path);
	cr_assert(strncmp(r.err, want, strlen(want)) == 0, "%s", r.err);
	cr_assert_eq(r.outlen, 0);
	run_free(&r);
	unlink(path);
	free(path);
}
