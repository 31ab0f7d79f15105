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
 *
 * With VPCLMULQDQ (AVX-512), sixteen lanes in four 512-bit registers
 * fold 256 bytes at a time by x^(2080) and x^(2016) mod P, four
 * multiplications an instruction; the 64-byte fold then folds the four
 * registers into one, which is the 64 bytes it starts from.  Each fold
 * waits for the one before: more lanes in flight is what makes it
 * faster (14 to 57 GB/s on 256 KB in the cache, see BENCHMARKS.md).
 *
 * The constants are x^(d + 32) and x^(d - 32) mod P, bit-reflected and
 * shifted left by one, for a fold over d bits.
 */
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "formats_int.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define K512_LO		0x0154442bd4LL	/* x^544 */
#define K512_HI		0x01c6e41596LL	/* x^480 */
#define K2048_LO	0x011542778aLL	/* x^2080 */
#define K2048_HI	0x01322d1430LL	/* x^2016 */

/*
 * x0 to x3 hold the 64 bytes at p as the CRC register stands in them
 * (zlib's crc is the register's complement); folded by 512 bits with
 * each 64 bytes after them, len in all (a multiple of 64): zlib's crc.
 */
static __attribute__((target("pclmul,sse2"))) uint32_t
fold_lanes(__m128i x0, __m128i x1, __m128i x2, __m128i x3,
    const unsigned char *p, size_t len)
{
	const __m128i k512 = _mm_set_epi64x(K512_HI, K512_LO);
	const __m128i k128 = _mm_set_epi64x(0x00ccaa009eLL, 0x01751997d0LL);
	__m128i t0, t1, t2, t3;
	unsigned char lane[16];

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

/* len is a multiple of 64, at least 64; crc is zlib's. */
uint32_t __attribute__((target("pclmul,sse2")))
pdb_crc32_fold(uint32_t crc, const unsigned char *p, size_t len)
{
	__m128i x0 = _mm_loadu_si128((const __m128i *)p);

	/* The register zlib's crc stands for, into the first bytes. */
	x0 = _mm_xor_si128(x0, _mm_cvtsi32_si128((int)~crc));
	return fold_lanes(x0, _mm_loadu_si128((const __m128i *)(p + 16)),
	    _mm_loadu_si128((const __m128i *)(p + 32)),
	    _mm_loadu_si128((const __m128i *)(p + 48)), p, len);
}

/* x * k by lanes, the low halves and the high, xored with y. */
static inline __attribute__((always_inline,
    target("vpclmulqdq,avx512f"))) __m512i
fold512(__m512i x, __m512i k, __m512i y)
{
	return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
	    _mm512_clmulepi64_epi128(x, k, 0x11), y, 0x96);
}

/* len is a multiple of 256, at least 256; crc is zlib's. */
uint32_t __attribute__((target("vpclmulqdq,avx512f,pclmul,sse2")))
pdb_crc32_fold512(uint32_t crc, const unsigned char *p, size_t len)
{
	const __m512i k2048 = _mm512_set_epi64(K2048_HI, K2048_LO, K2048_HI,
	    K2048_LO, K2048_HI, K2048_LO, K2048_HI, K2048_LO);
	const __m512i k512 = _mm512_set_epi64(K512_HI, K512_LO, K512_HI,
	    K512_LO, K512_HI, K512_LO, K512_HI, K512_LO);
	__m512i z0, z1, z2, z3;
	unsigned char last[64];

	z0 = _mm512_loadu_si512(p);
	z1 = _mm512_loadu_si512(p + 64);
	z2 = _mm512_loadu_si512(p + 128);
	z3 = _mm512_loadu_si512(p + 192);
	z0 = _mm512_xor_si512(z0, _mm512_castsi128_si512(
	    _mm_cvtsi32_si128((int)~crc)));
	for (p += 256, len -= 256; len >= 256; p += 256, len -= 256) {
		z0 = fold512(z0, k2048, _mm512_loadu_si512(p));
		z1 = fold512(z1, k2048, _mm512_loadu_si512(p + 64));
		z2 = fold512(z2, k2048, _mm512_loadu_si512(p + 128));
		z3 = fold512(z3, k2048, _mm512_loadu_si512(p + 192));
	}
	/* Four registers into one, then its four lanes into one. */
	z0 = fold512(fold512(fold512(z0, k512, z1), k512, z2), k512, z3);
	_mm512_storeu_si512(last, z0);
	return fold_lanes(_mm_loadu_si128((const __m128i *)last),
	    _mm_loadu_si128((const __m128i *)(last + 16)),
	    _mm_loadu_si128((const __m128i *)(last + 32)),
	    _mm_loadu_si128((const __m128i *)(last + 48)), last, 64);
}
#endif

uint32_t
pdb_crc32(uint32_t crc, const unsigned char *p, size_t len)
{
	size_t n;

#if defined(__x86_64__) && defined(__GNUC__)
	if (len >= 1024 && pdb_cpu_vpclmul()) {
		n = len & ~(size_t)255;
		crc = pdb_crc32_fold512(crc, p, n);
		p += n;
		len -= n;
	}
	if (len >= 256 && pdb_cpu_pclmul()) {
		n = len & ~(size_t)63;
		crc = pdb_crc32_fold(crc, p, n);
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
