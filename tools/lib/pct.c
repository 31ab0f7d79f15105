/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Percentages as they were written.  "--min-pct 16.1" of 1000 samples is
 * 161 exactly, but 1000 * 16.1 / 100 in doubles is a hair above 161, and
 * rounding it up gave 162: a stack of exactly 16.1% was pruned.  So a
 * percentage written in decimal is kept as a fraction num / den, and
 * compared in integers wide enough for any 64-bit cost times it.
 */
#include <stdint.h>

#include "common.h"

/* Fraction digits kept exactly: den stays below 2^57 with the 100. */
#define PCT_DIGITS	15

#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 wide;
#else
typedef long double		 wide;	/* not exact past 64 bits */
#endif

void
tool_pct_set(struct tool_pct *p, const char *s, double v)
{
	uint64_t num = 0, den = 1;
	const char *q = s;
	int ok = 1, point = 0, digits = 0;

	for (; *q != '\0' && ok; q++) {
		if (*q == '.' && !point)
			point = 1;
		else if (*q >= '0' && *q <= '9' && (!point ||
		    digits < PCT_DIGITS) && num <= (UINT64_MAX - 9) / 10) {
			num = num * 10 + (uint64_t)(*q - '0');
			if (point) {
				den *= 10;
				digits++;
			}
		} else
			ok = 0;
	}
	/*
	 * Anything else strtod() took ("1e1", many digits): near enough,
	 * but a percentage above 0 never becomes 0.
	 */
	if (!ok || num > 100 * den) {
		den = 1000000000000ULL;
		num = (uint64_t)(v * (double)den + 0.5);	/* v >= 0 */
		if (num == 0 && v > 0)
			num = 1;
	}
	p->num = num;
	p->den = den * 100;
}

/* total * p, a fraction (of den), compared or divided below. */
static wide
times(const struct tool_pct *p, int64_t total)
{
	return (wide)total * (wide)p->num;
}

int64_t
tool_pct_ceil(const struct tool_pct *p, int64_t total)
{
	wide x = times(p, total), q;

#ifdef __SIZEOF_INT128__
	/* Division truncates toward zero: up for a positive rest. */
	q = x / (wide)p->den;
	if (x > 0 && q * (wide)p->den != x)
		q++;
#else
	q = x / (wide)p->den;
	if (q > 0 && (wide)(int64_t)q != q)
		q = (wide)(int64_t)q + 1;
#endif
	return (int64_t)q;
}

int
tool_pct_reaches(const struct tool_pct *p, int64_t v, int64_t total)
{
	wide lhs = (wide)v * (wide)p->den, rhs = times(p, total);

	if (total == 0)
		return p->num == 0;
	/* v / total >= p: multiplied by total, which flips when negative. */
	return total > 0 ? lhs >= rhs : lhs <= rhs;
}
