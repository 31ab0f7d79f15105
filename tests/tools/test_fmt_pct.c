/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * tool_fmt_pct() prints what printf("%.1f") would, without printf():
 * the same digits, the same ties (half to even), the sign of a negative
 * share that rounds to zero, for every kind of value a report has.  A
 * part of 0 is 0.0 whatever the total's sign.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

static void
same(int64_t part, int64_t total)
{
	char want[64], got[64];
	double x = total == 0 || part == 0 ? 0.0 :
	    100.0 * (double)part / (double)total;

	snprintf(want, sizeof(want), "%.1f", x);
	tool_fmt_pct(got, sizeof(got), part, total);
	cr_assert_str_eq(got, want, "%lld of %lld", (long long)part,
	    (long long)total);
}

Test(fmt_pct, ties_round_half_to_even)
{
	/* 0.25, 0.75, 12.5 ... exactly: a tie at the second decimal. */
	same(1, 400);
	same(3, 400);
	same(5, 400);
	same(-1, 400);
	same(1, 8);
	same(1, 16);
	same(3, 16);
	same(-3, 16);
}

Test(fmt_pct, signs_and_zeros)
{
	char buf[64];

	same(0, 0);
	same(0, 5);
	same(0, -5);		/* not the division's -0.0 */
	same(-1, 3000);		/* rounds to -0.0 */
	same(1, -3000);
	same(-7, -3);
	same(INT64_MAX, 1);	/* too wide: printf() */
	same(INT64_MIN, 1);
	same(INT64_MIN, -1);
	same(1, INT64_MAX);
	cr_expect_str_eq(tool_fmt_pct(buf, sizeof(buf), 0, -5), "0.0");
	cr_expect_str_eq(tool_fmt_pct(buf, sizeof(buf), -1, 3000), "-0.0");
}

/* A few million values of every size, with a fixed seed. */
Test(fmt_pct, as_printf_everywhere, .timeout = 120)
{
	uint64_t s = 88172645463325252ULL;
	int64_t part, total;
	long i;

	for (i = 0; i < 2000000; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		switch (i % 4) {
		case 0:		/* report-sized */
			total = (int64_t)(s % 100000) + 1;
			part = (int64_t)((s >> 20) % (uint64_t)(2 * total + 1))
			    - total / 2;
			break;
		case 1:		/* any magnitude */
			total = (int64_t)(s >> 1) | 1;
			part = (int64_t)((s >> 1) >> (s >> 58));
			break;
		case 2:		/* many ties */
			total = 400 * (int64_t)(s % 1000 + 1);
			part = (int64_t)((s >> 16) % 4000) * (total / 400);
			break;
		default:	/* negative totals and parts */
			total = (int64_t)(s % 1000) - 500;
			part = (int64_t)((s >> 24) % 100000) - 50000;
			break;
		}
		same(part, total);
	}
}
