/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * What this CPU can run fast: AVX-512F (the tree builder's checks of
 * sums), and for the formats library (formats_int.h) pext (the binary
 * readers' node decoder), AVX-512 with VBMI2 (the dump writer's node
 * encoder), pclmul and its 512-bit form (the dump's CRC).  Asked of
 * cpuid once, three leaves, when a reader, writer or builder first
 * wants to know.  The compiler's __builtin_cpu_supports() would link
 * libgcc's start-up probe, which asks a dozen leaves in every run, and
 * in a virtual machine each cpuid is a trip to the host: 5.5 us here,
 * and that probe some 55 us of every start.
 */
#include "pdb_int.h"

#define CPU_PEXT	0x1
#define CPU_AVX512	0x2
#define CPU_PCLMUL	0x4
#define CPU_AVX512F	0x8
#define CPU_VPCLMUL	0x10
#define CPU_PROBED	0x80000000u

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>

/* The state the system saves: SSE, AVX, and AVX-512's opmask and
 * registers (XCR0 bits 1, 2, 5, 6, 7). */
#define XCR0_AVX512	0xe6

static unsigned
xcr0(void)
{
	unsigned lo, hi;

	__asm__ volatile ("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	(void)hi;
	return lo;
}

/* Whether pext is microcoded: AMD before family 19h (Zen 3), and so
 * Hygon's Zen 1 ("AuthenticAMD", "HygonGenuine"). */
static int
slow_pext(unsigned b, unsigned c, unsigned d, unsigned eax1)
{
	unsigned family;

	if (!((b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163) ||
	    (b == 0x6f677948 && d == 0x6e65476e && c == 0x656e6975)))
		return 0;
	family = (eax1 >> 8) & 0xf;
	if (family == 0xf)
		family += (eax1 >> 20) & 0xff;
	return family < 0x19;
}

static unsigned
probe(void)
{
	unsigned max, a, b, c, d, vb, vc, vd, c1, d1, eax1, have = CPU_PROBED;

	__cpuid(0, max, vb, vc, vd);
	if (max < 1)
		return have;
	__cpuid(1, eax1, b, c1, d1);
	if ((c1 & bit_PCLMUL) && (d1 & bit_SSE2))
		have |= CPU_PCLMUL;
	if (max < 7)
		return have;
	__cpuid_count(7, 0, a, b, c, d);
	if ((b & bit_BMI) && (b & bit_BMI2) && !slow_pext(vb, vc, vd, eax1))
		have |= CPU_PEXT;
	if (!(b & bit_AVX512F) || !(c1 & bit_OSXSAVE) ||
	    (xcr0() & XCR0_AVX512) != XCR0_AVX512)
		return have;
	have |= CPU_AVX512F;
	if ((have & CPU_PCLMUL) && (c & bit_VPCLMULQDQ))
		have |= CPU_VPCLMUL;
	if ((b & bit_AVX512BW) && (b & bit_AVX512CD) &&
	    (c & bit_AVX512VBMI) && (c & bit_AVX512VBMI2) &&
	    (c1 & bit_POPCNT))
		have |= CPU_AVX512;
	return have;
}

#else
static unsigned
probe(void)
{
	return CPU_PROBED;
}
#endif

static unsigned
cpu(void)
{
	/* A race probes twice, to the same answer. */
	static unsigned have;

	if (!(have & CPU_PROBED))
		have = probe();
	return have;
}

int
pdb_cpu_pext(void)
{
	return (cpu() & CPU_PEXT) != 0;
}

int
pdb_cpu_avx512(void)
{
	return (cpu() & CPU_AVX512) != 0;
}

int
pdb_cpu_pclmul(void)
{
	return (cpu() & CPU_PCLMUL) != 0;
}

int
pdb_cpu_avx512f(void)
{
	return (cpu() & CPU_AVX512F) != 0;
}

int
pdb_cpu_vpclmul(void)
{
	return (cpu() & CPU_VPCLMUL) != 0;
}
