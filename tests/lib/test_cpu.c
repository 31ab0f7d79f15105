/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * libprofdb's own look at the CPU (cpu.c) against the compiler's, which
 * the tools no longer link: the same answer for every feature, so that
 * no fast path runs where it cannot, and none is left out where it can.
 */
#include <criterion/criterion.h>

#include "pdb_int.h"

#if defined(__x86_64__) && defined(__GNUC__)
Test(cpu, same_as_the_compiler_sees)
{
	__builtin_cpu_init();
	cr_assert_eq(pdb_cpu_avx512f(),
	    __builtin_cpu_supports("avx512f") != 0);
	cr_assert_eq(pdb_cpu_avx512(),
	    __builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("avx512cd") &&
	    __builtin_cpu_supports("avx512vbmi") &&
	    __builtin_cpu_supports("avx512vbmi2") &&
	    __builtin_cpu_supports("popcnt"));
	cr_assert_eq(pdb_cpu_pclmul(),
	    __builtin_cpu_supports("pclmul") &&
	    __builtin_cpu_supports("sse2"));
	cr_assert_eq(pdb_cpu_vpclmul(), pdb_cpu_pclmul() &&
	    __builtin_cpu_supports("avx512f") &&
	    __builtin_cpu_supports("vpclmulqdq"));
	/* AMD's pext is slow before Zen 3 (family 19h). */
	if (__builtin_cpu_is("intel") || __builtin_cpu_is("amdfam19h"))
		cr_assert_eq(pdb_cpu_pext(), __builtin_cpu_supports("bmi") &&
		    __builtin_cpu_supports("bmi2"));
	else if (__builtin_cpu_is("amdfam10h") ||
	    __builtin_cpu_is("amdfam15h") || __builtin_cpu_is("amdfam17h") ||
	    !__builtin_cpu_supports("bmi2"))
		cr_assert_eq(pdb_cpu_pext(), 0);
	/* Asked again: the answer kept. */
	cr_assert_eq(pdb_cpu_avx512(), pdb_cpu_avx512());
}
#endif
