/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Percentages kept as written (tools/lib/pct.c): every percentage of
 * two decimals against totals of up to 3000, and the ends of int64_t,
 * checked against integer arithmetic; then --min-pct of the tools at a
 * stack of exactly that share.
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "testutil.h"
#include "pipecheck.h"

static void
set(struct tool_pct *p, const char *s)
{
	tool_pct_set(p, s, strtod(s, NULL));
}

/* ceil(total * h / 10000) for h hundredths of a per cent. */
static int64_t
exact_ceil(int64_t total, int64_t h)
{
	int64_t x = total * h;

	return x / 10000 + (x > 0 && x % 10000 != 0);
}

Test(pct, two_decimals_exactly)
{
	struct tool_pct p;
	char s[16];
	int64_t total, h, want, v;

	for (h = 0; h <= 10000; h++) {
		snprintf(s, sizeof(s), "%d.%02d", (int)(h / 100),
		    (int)(h % 100));
		set(&p, s);
		for (total = 1; total <= 3000; total += total < 200 ? 1 : 7) {
			want = exact_ceil(total, h);
			cr_assert_eq(tool_pct_ceil(&p, total), want,
			    "%s%% of %lld", s, (long long)total);
			/* The threshold reaches the share; one less does
			 * not, unless it is the share of nothing. */
			cr_assert(tool_pct_reaches(&p, want, total));
			v = want - 1;
			cr_assert(!tool_pct_reaches(&p, v, total) || h == 0,
			    "%lld reaches %s%% of %lld", (long long)v, s,
			    (long long)total);
		}
	}
}

Test(pct, forms_and_ends)
{
	struct tool_pct p;

	set(&p, "16.1");
	cr_expect_eq(tool_pct_ceil(&p, 1000), 161);
	set(&p, "1.61e1");		/* strtod's forms, near enough */
	cr_expect_eq(tool_pct_ceil(&p, 1000), 161);
	set(&p, "016.10000");
	cr_expect_eq(tool_pct_ceil(&p, 1000), 161);
	set(&p, ".5");
	cr_expect_eq(tool_pct_ceil(&p, 1000), 5);
	set(&p, "100");
	cr_expect_eq(tool_pct_ceil(&p, INT64_MAX), INT64_MAX);
	cr_expect(tool_pct_reaches(&p, INT64_MAX, INT64_MAX));
	cr_expect(!tool_pct_reaches(&p, INT64_MAX - 1, INT64_MAX));
	set(&p, "0.000000000000001");
	cr_expect_eq(tool_pct_ceil(&p, INT64_MAX), 93);	/* 92.2 */
	/* Past what is kept exactly, never down to nothing. */
	set(&p, "1e-13");
	cr_expect_eq(tool_pct_ceil(&p, 5), 1);
	cr_expect(!tool_pct_reaches(&p, 0, 5));
	set(&p, "0.00000000000000001");
	cr_expect_eq(tool_pct_ceil(&p, 5), 1);
	set(&p, "50");
	cr_expect_eq(tool_pct_ceil(&p, -7), -3);
	cr_expect(tool_pct_reaches(&p, -4, -8));
	cr_expect(!tool_pct_reaches(&p, -3, -8));
	cr_expect(!tool_pct_reaches(&p, 0, 0));
	set(&p, "0");
	cr_expect(tool_pct_reaches(&p, 0, 0));
}

/* A stack of exactly P% stays, in every tool that takes --min-pct. */
Test(pct, tools_keep_a_stack_of_exactly_the_share)
{
	struct run r;

	run_ok(&r, "printf 'a 161\\nb 839\\n' | ccs-prune --min-pct 16.1 "
	    "-t folded");
	cr_expect_str_eq(r.out, "a 161\nb 839\n");
	run_free(&r);
	run_ok(&r, "printf 'a 161\\nb 839\\n' | ccs-stacks --min-pct 16.1");
	cr_expect_str_eq(r.out, "a 161\nb 839\n");
	run_free(&r);
	run_ok(&r, "printf 'a 29\\nb 71\\n' | ccs-tree --tsv --min-pct 29");
	cr_expect_str_eq(r.out,
	    "depth\tmodule\tcost_centre\tsrc\tentries\tindividual\tinherited\n"
	    "0\t\ta\t\t\t29\t29\n"
	    "0\t\tb\t\t\t71\t71\n");
	run_free(&r);
}
