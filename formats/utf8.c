/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Well-formed UTF-8, as the Unicode Standard's table 3-7 has it: no
 * overlong forms, no surrogates, nothing past U+10FFFF.  Names in a
 * profile are bytes; the writers that need text and the JSON reader
 * that must refuse what Jansson refuses ask here.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats_int.h"

size_t
pdb_utf8_seq(const unsigned char *p, size_t n, uint32_t *cp)
{
	uint32_t c;
	size_t len, i;

	if (n == 0)
		return 0;
	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		c = p[0] & 0x1f;
		len = 2;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		c = p[0] & 0x0f;
		len = 3;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		c = p[0] & 0x07;
		len = 4;
	} else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && (c < 0x800 || (c >= 0xd800 && c <= 0xdfff))) ||
	    (len == 4 && (c < 0x10000 || c > 0x10ffff)))
		return 0;
	*cp = c;
	return len;
}

size_t
pdb_utf8_valid(const unsigned char *p, size_t n)
{
	size_t i = 0, k;
	uint32_t c;

	while (i < n) {
		if (p[i] < 0x80) {
			i++;
			continue;
		}
		if ((k = pdb_utf8_seq(p + i, n - i, &c)) == 0)
			return i;
		i += k;
	}
	return n;
}

int
pdb_utf8_string(const char *s)
{
	size_t n = strlen(s);

	return pdb_utf8_valid((const unsigned char *)s, n) == n;
}

char *
pdb_utf8_escape(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, o = 0, k;
	uint32_t c;
	char *t;

	/* Four bytes of text at most for each byte of s. */
	if (n > (SIZE_MAX - 1) / 4 || (t = malloc(4 * n + 1)) == NULL)
		return NULL;
	while (i < n) {
		if (p[i] < 0x80)
			k = 1;
		else if ((k = pdb_utf8_seq(p + i, n - i, &c)) == 0) {
			snprintf(t + o, 5, "\\x%02X", p[i++]);
			o += 4;
			continue;
		}
		memcpy(t + o, p + i, k);
		o += k;
		i += k;
	}
	t[o] = '\0';
	return t;
}
