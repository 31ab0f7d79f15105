/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The count at the end of a folded line: digits alone take a quick path
 * in the reader, everything else strtoll(); both must read a count as
 * strtoll() does, and reject the same ones.
 */
#include <criterion/criterion.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats_int.h"
#include "pdb.h"
#include "testutil.h"

/* Read "a;b <count>" after a line the format probe knows: 0 and the
 * value of b, or the error code. */
static int
read_count(const char *count, int64_t *v, char *err, size_t errlen)
{
	char line[128], *path;
	struct pdb *db = pdb_new();
	int rc;

	cr_assert(db != NULL);
	snprintf(line, sizeof(line), "x 0\na;b %s\n", count);
	path = write_temp(line, strlen(line), ".folded");
	rc = pdb_read_tree(db, path, NULL, NULL, NULL);
	if (rc == PDB_OK) {
		/* The synthetic root, x, a, b. */
		cr_assert_eq(pdb_node_count(db), 4);
		*v = pdb_node_value(db, 3, 0);
	} else
		snprintf(err, errlen, "%s", pdb_errmsg(db));
	pdb_free(db);
	unlink(path);
	free(path);
	return rc;
}

static void
reads_as(const char *count, int64_t want)
{
	char err[512] = "";
	int64_t v = 0;
	int rc = read_count(count, &v, err, sizeof(err));

	cr_assert_eq(rc, PDB_OK, "'%s': %s", count, err);
	cr_expect_eq(v, want, "'%s' read as %lld, want %lld", count,
	    (long long)v, (long long)want);
}

static void
rejected(const char *count)
{
	char err[512] = "";
	int64_t v = 0;

	cr_expect_eq(read_count(count, &v, err, sizeof(err)), PDB_EFORMAT,
	    "'%s' read as %lld", count, (long long)v);
	cr_expect(strstr(err, ":2: '") != NULL &&
	    (strstr(err, "is not an integer count") != NULL ||
	    strstr(err, "does not fit in 64 bits") != NULL),
	    "'%s': %s", count, err);
}

Test(folded_count, as_strtoll_reads_it)
{
	reads_as("0", 0);
	reads_as("7", 7);
	reads_as("007", 7);
	reads_as("123456789012345678", INT64_C(123456789012345678));
	reads_as("999999999999999999", INT64_C(999999999999999999));
	reads_as("1234567890123456789", INT64_C(1234567890123456789));
	reads_as("9223372036854775807", INT64_MAX);
	reads_as("-5", -5);
	reads_as("+5", 5);
	reads_as("-9223372036854775808", INT64_MIN);
}

Test(folded_count, as_strtoll_rejects_it)
{
	char err[512] = "";
	int64_t v = 0;

	rejected("9223372036854775808");
	rejected("99999999999999999999");
	/* A number, only too large: the message says so. */
	cr_expect_eq(read_count("-9223372036854775809", &v, err, sizeof(err)),
	    PDB_EFORMAT);
	cr_expect(strstr(err, "'-9223372036854775809' does not fit in 64 "
	    "bits") != NULL, "%s", err);
	err[0] = '\0';
	cr_expect_eq(read_count("5x", &v, err, sizeof(err)), PDB_EFORMAT);
	cr_expect(strstr(err, "'5x' is not an integer count") != NULL, "%s",
	    err);
	rejected("5x");
	rejected("x5");
	rejected("-");
	rejected("0x10");
}

/* Digit strings of every length to 20, read as strtoll() reads them. */
Test(folded_count, digit_strings_of_every_length)
{
	char digits[32], err[512];
	uint64_t s = 3;
	long long want;
	int64_t v;
	int len, i, k;

	for (k = 0; k < 200; k++) {
		len = k % 20 + 1;
		for (i = 0; i < len; i++) {
			s = s * 6364136223846793005ULL + 1;
			digits[i] = (char)('0' + (s >> 33) % 10);
		}
		digits[len] = '\0';
		errno = 0;
		want = strtoll(digits, NULL, 10);
		if (errno == ERANGE)
			rejected(digits);
		else {
			cr_assert_eq(read_count(digits, &v, err, sizeof(err)),
			    PDB_OK, "'%s': %s", digits, err);
			cr_expect_eq(v, want, "'%s'", digits);
		}
	}
}

/*
 * The quick path itself (pdb_parse_digits(), shared by the text and JSON
 * readers): exact to INT64_MAX, -2 one past it however long, and -1 for
 * anything not all digits, even when the digits before it are too many.
 */
Test(folded_count, parse_digits_edges)
{
	static const struct {
		const char	*s;
		int		 rc;
		int64_t		 v;
	} cases[] = {
		{ "0", 0, 0 }, { "17", 0, 17 },
		{ "999999999999999999", 0, 999999999999999999LL },
		{ "9223372036854775807", 0, INT64_MAX },
		{ "0000000000000000000000009", 0, 9 },
		{ "9223372036854775808", -2, 0 },
		{ "99999999999999999999999", -2, 0 },
		{ "", -1, 0 }, { "1.5", -1, 0 }, { "-1", -1, 0 }, { "12a", -1, 0 },
		{ "99999999999999999999.5", -1, 0 },
	};
	size_t i;
	int64_t v;
	int rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = -7;
		rc = pdb_parse_digits(cases[i].s, strlen(cases[i].s), &v);
		cr_expect_eq(rc, cases[i].rc, "'%s': %d", cases[i].s, rc);
		if (cases[i].rc == 0)
			cr_expect_eq(v, cases[i].v, "'%s': %lld", cases[i].s,
			    (long long)v);
	}
}
