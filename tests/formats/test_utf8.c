/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * The one UTF-8 decoder (formats/utf8.c) that the writers and the GHC
 * JSON stream share: every length at both of its edges, and each way a
 * sequence is not well formed (the Unicode Standard, table 3-7).
 */
#include <criterion/criterion.h>

#include <stdint.h>
#include <string.h>

#include "formats_int.h"

Test(utf8, well_formed_at_the_edges)
{
	static const struct {
		const char	*s;
		uint32_t	 cp;
	} ok[] = {
		{ "\x01", 0x01 }, { "\x7f", 0x7f },
		{ "\xc2\x80", 0x80 }, { "\xdf\xbf", 0x7ff },
		{ "\xe0\xa0\x80", 0x800 }, { "\xed\x9f\xbf", 0xd7ff },
		{ "\xee\x80\x80", 0xe000 }, { "\xef\xbf\xbf", 0xffff },
		{ "\xf0\x90\x80\x80", 0x10000 },
		{ "\xf4\x8f\xbf\xbf", 0x10ffff },
	};
	uint32_t cp;
	size_t i, n;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		n = strlen(ok[i].s);
		cp = 0xffffffff;
		cr_expect_eq(pdb_utf8_seq((const unsigned char *)ok[i].s, n,
		    &cp), n, "sequence %zu", i);
		cr_expect_eq(cp, ok[i].cp, "sequence %zu: U+%04X", i,
		    (unsigned)cp);
		cr_expect_eq(pdb_utf8_valid((const unsigned char *)ok[i].s, n),
		    n, "sequence %zu", i);
	}
	/* A NUL is a character; the caller decides about it. */
	cr_expect_eq(pdb_utf8_seq((const unsigned char *)"", 1, &cp), 1);
	cr_expect_eq(cp, 0);
}

Test(utf8, ill_formed)
{
	static const char *const bad[] = {
		"\x80", "\xbf",			/* continuation bytes */
		"\xc0\x80", "\xc1\xbf",		/* overlong, two bytes */
		"\xe0\x9f\xbf",			/* overlong, three */
		"\xed\xa0\x80", "\xed\xbf\xbf",	/* surrogates */
		"\xf0\x8f\xbf\xbf",		/* overlong, four */
		"\xf4\x90\x80\x80",		/* past U+10FFFF */
		"\xf5\x80\x80\x80", "\xff",
		"\xc3\x41", "\xe2\x82\x41",	/* a continuation missing */
	};
	uint32_t cp;
	size_t i, n;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = strlen(bad[i]);
		cr_expect_eq(pdb_utf8_seq((const unsigned char *)bad[i], n,
		    &cp), 0, "sequence %zu", i);
		cr_expect_eq(pdb_utf8_valid((const unsigned char *)bad[i], n),
		    0, "sequence %zu", i);
	}
	/* Cut short by n, though the bytes after would complete it. */
	cr_expect_eq(pdb_utf8_seq((const unsigned char *)"\xe2\x82\xac", 2,
	    &cp), 0);
	cr_expect_eq(pdb_utf8_seq((const unsigned char *)"x", 0, &cp), 0);
	/* The valid prefix is measured up to the first bad byte. */
	cr_expect_eq(pdb_utf8_valid((const unsigned char *)"ab\xc3\xa9\xff"
	    "c", 6), 4);
}
