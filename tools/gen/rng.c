/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs-gen's random numbers: xoshiro256**, seeded through splitmix64, and
 * the distributions the model and the costs are drawn from.
 */
#include <stdint.h>

#include "common.h"
#include "gen.h"

static uint64_t
splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void
rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix(&x);
}

static uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t
rng_next(struct rng *r)
{
	uint64_t *s = r->s, res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return res;
}

/* Uniform in [0, n). */
uint64_t
rng_uniform(struct rng *r, uint64_t n)
{
	return n == 0 ? 0 : (rng_next(r) >> 1) % n;
}

/* True with probability 1 / 2^k. */
int
rng_chance(struct rng *r, unsigned k)
{
	return (rng_next(r) & (((uint64_t)1 << k) - 1)) == 0;
}

/* Geometric: k with probability 2^-(k+1), at most max. */
unsigned
rng_geom(struct rng *r, unsigned max)
{
	uint64_t x = rng_next(r);
	unsigned k = 0;

	while (k < max && (x & 1) == 0) {
		x >>= 1;
		k++;
	}
	return k;
}

/*
 * Heavy-tailed, at least 1 and below 2^bits: log-uniform, so that
 * P(v >= x) is about 1/x (a Pareto tail of index 1).
 */
uint64_t
rng_heavy(struct rng *r, unsigned bits)
{
	unsigned e = rng_geom(r, bits - 1);
	uint64_t lo = (uint64_t)1 << e;

	return lo + (rng_next(r) & (lo - 1));
}

/* Log-uniform in [2^lo, 2^hi): every order of magnitude as likely. */
int64_t
rng_logu(struct rng *r, unsigned lo, unsigned hi)
{
	unsigned e = lo + (unsigned)rng_uniform(r, hi - lo);
	uint64_t b = (uint64_t)1 << e;

	return (int64_t)(b + (rng_next(r) & (b - 1)));
}
