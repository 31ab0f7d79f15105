/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * A NUL byte in a text profile is an error at its line, wherever it is.
 * Format probes look at the first 4096 bytes only (io.c), so a NUL past
 * them reaches the reader, where a name or a count cut short at it would
 * otherwise be read as something else; and probing stays short however
 * much the first read buffered.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats.h"
#include "pdb.h"
#include "testutil.h"

/* 400 folded lines, about 6 KB: past the probe window. */
static size_t
folded_lines(char *buf, size_t cap)
{
	size_t len = 0;
	int i;

	for (i = 0; i < 400; i++)
		len += (size_t)snprintf(buf + len, cap - len,
		    "main;f%d;g %d\n", i, i + 1);
	return len;
}

/* Reading data as a file must fail naming the file, then want. */
static void
read_fails(const char *data, size_t len, const char *suffix,
    const char *want)
{
	char *path = write_temp(data, len, suffix);
	struct pdb *db = pdb_new();
	int rc;

	cr_assert(db != NULL);
	rc = pdb_read_tree(db, path, NULL, NULL, NULL);
	cr_expect_eq(rc, PDB_EFORMAT, "%s: error %d: %s", want, rc,
	    pdb_errmsg(db));
	cr_expect(strncmp(pdb_errmsg(db), path, strlen(path)) == 0 &&
	    strstr(pdb_errmsg(db), want) != NULL, "'%s', want '%s'",
	    pdb_errmsg(db), want);
	pdb_free(db);
	unlink(path);
	free(path);
}

Test(text_nul, folded_frame_count_and_blank_line)
{
	static char buf[16384];
	size_t n = folded_lines(buf, sizeof(buf));

	memcpy(buf + n, "main;ba\0d 3\n", 12);
	read_fails(buf, n + 12, ".folded", ":401: NUL byte in a frame");
	memcpy(buf + n, "main;bad 3\0x\n", 13);
	read_fails(buf, n + 13, ".folded", ":401: NUL byte in the count");
	/* Not a blank line to skip: a NUL where the stack begins. */
	memcpy(buf + n, "\0main;bad 3\n", 12);
	read_fails(buf, n + 12, ".folded", ":401: NUL byte in a frame");
}

Test(text_nul, folded_without_nul_reads)
{
	static char buf[16384];
	size_t n = folded_lines(buf, sizeof(buf));
	char *path = write_temp(buf, n, ".folded");
	struct pdb *db = pdb_new();

	cr_assert(db != NULL);
	cr_assert_eq(pdb_read_tree(db, path, NULL, NULL, NULL), PDB_OK, "%s",
	    pdb_errmsg(db));
	/* The synthetic root, main, f0..f399 and a g under each. */
	cr_expect_eq(pdb_node_count(db), 2 + 400 * 2);
	pdb_free(db);
	unlink(path);
	free(path);
}

Test(text_nul, ghc_name)
{
	static const char head[] =
	    "\tFri Nov 20 12:00 2026 Time and Allocation Profiling Report  "
	    "(Final)\n\n"
	    "\t   t +RTS -p -RTS\n\n"
	    "\ttotal time  =        0.01 secs   (10 ticks @ 1000 us, 1 "
	    "processor)\n"
	    "\ttotal alloc =      1,000 bytes  (excludes profiling "
	    "overheads)\n\n"
	    "COST CENTRE MODULE SRC no. entries %time %alloc %time %alloc "
	    "ticks bytes\n\n"
	    "MAIN        MAIN   <built-in> 1 0 0.0 0.0 100.0 100.0 0 0\n";
	static char buf[16384];
	size_t len = sizeof(head) - 1;
	int i;

	memcpy(buf, head, len);
	for (i = 0; i < 100; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
		    " f%-40d M      <none>     %d 1 0.1 0.1 0.1 0.1 0 0\n", i,
		    i + 2);
	cr_assert_gt(len, 4096);
	memcpy(buf + len, " b\0d M <none> 200 1 0.0 0.0 0.0 0.0 0 0\n", 40);
	read_fails(buf, len + 40, ".prof", ":111: NUL byte in a name");
}
