/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * CRC-32 (the gzip polynomial), as zlib's crc32(), for the dump's
 * trailer.  zlib computes about a byte a cycle, a tenth of the time of
 * reading a dump; with PCLMULQDQ, which multiplies polynomials over
 * GF(2), 64 bytes are folded at a time, some ten times faster.
 *
 * The folding is that of Gopal et al., "Fast CRC Computation for Generic
 * Polynomials Using PCLMULQDQ Instruction" (Intel, 2009), with the
 * bit-reflected constants of its appendix: four 128-bit lanes are each
 * multiplied by x^(512) and x^(576) mod P and xored into the next 64
 * bytes, then folded into one lane.  That lane, taken as 16 bytes, has
 * the same CRC register as everything folded into it, so zlib finishes
 * it with the tail instead of a Barrett reduction.
 */
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "formats.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* len is a multiple of 64, at least 64; crc is zlib's. */
static __attribute__((target("pclmul,sse2"))) uint32_t
crc32_fold(uint32_t crc, const unsigned char *p, size_t len)
{
	const __m128i k512 = _mm_set_epi64x(0x01c6e41596LL, 0x0154442bd4LL);
	const __m128i k128 = _mm_set_epi64x(0x00ccaa009eLL, 0x01751997d0LL);
	__m128i x0, x1, x2, x3, t0, t1, t2, t3;
	unsigned char lane[16];

	x0 = _mm_loadu_si128((const __m128i *)p);
	x1 = _mm_loadu_si128((const __m128i *)(p + 16));
	x2 = _mm_loadu_si128((const __m128i *)(p + 32));
	x3 = _mm_loadu_si128((const __m128i *)(p + 48));
	/* The register zlib's crc stands for, into the first bytes. */
	x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)~crc));
	for (p += 64, len -= 64; len >= 64; p += 64, len -= 64) {
		t0 = _mm_clmulepi64_si128(x0, k512, 0x00);
		t1 = _mm_clmulepi64_si128(x1, k512, 0x00);
		t2 = _mm_clmulepi64_si128(x2, k512, 0x00);
		t3 = _mm_clmulepi64_si128(x3, k512, 0x00);
		x0 = _mm_clmulepi64_si128(x0, k512, 0x11);
		x1 = _mm_clmulepi64_si128(x1, k512, 0x11);
		x2 = _mm_clmulepi64_si128(x2, k512, 0x11);
		x3 = _mm_clmulepi64_si128(x3, k512, 0x11);
		x0 = _mm_xor_si128(_mm_xor_si128(x0, t0),
		    _mm_loadu_si128((const __m128i *)p));
		x1 = _mm_xor_si128(_mm_xor_si128(x1, t1),
		    _mm_loadu_si128((const __m128i *)(p + 16)));
		x2 = _mm_xor_si128(_mm_xor_si128(x2, t2),
		    _mm_loadu_si128((const __m128i *)(p + 32)));
		x3 = _mm_xor_si128(_mm_xor_si128(x3, t3),
		    _mm_loadu_si128((const __m128i *)(p + 48)));
	}
	/* Four lanes into one, 16 bytes at a time. */
	t0 = _mm_clmulepi64_si128(x0, k128, 0x00);
	x0 = _mm_clmulepi64_si128(x0, k128, 0x11);
	x0 = _mm_xor_si128(_mm_xor_si128(x0, t0), x1);
	t0 = _mm_clmulepi64_si128(x0, k128, 0x00);
	x0 = _mm_clmulepi64_si128(x0, k128, 0x11);
	x0 = _mm_xor_si128(_mm_xor_si128(x0, t0), x2);
	t0 = _mm_clmulepi64_si128(x0, k128, 0x00);
	x0 = _mm_clmulepi64_si128(x0, k128, 0x11);
	x0 = _mm_xor_si128(_mm_xor_si128(x0, t0), x3);
	_mm_storeu_si128((__m128i *)lane, x0);
	/* From a zero register: zlib's crc of all ones. */
	return (uint32_t)crc32(0xffffffffUL, lane, sizeof(lane));
}
#endif

uint32_t
pdb_crc32(uint32_t crc, const unsigned char *p, size_t len)
{
	size_t n;

#if defined(__x86_64__) && defined(__GNUC__)
	if (len >= 256 && pdb_cpu_pclmul()) {
		n = len & ~(size_t)63;
		crc = crc32_fold(crc, p, n);
		p += n;
		len -= n;
	}
#endif
	/* zlib takes at most UINT_MAX bytes a call. */
	for (; len > 0; p += n, len -= n) {
		n = len < 1u << 30 ? len : 1u << 30;
		crc = (uint32_t)crc32(crc, p, (uInt)n);
	}
	return crc;
}
