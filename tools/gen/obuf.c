/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Buffered output for ccs-gen's writers, which counts the bytes (--size
 * measures a profile by writing it nowhere) and can keep a CRC-32.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "gen.h"

void
ob_flush(struct obuf *o)
{
	if (o->len == 0)
		return;
	if (o->docrc)
		o->crc = crc32(o->crc, o->buf, (uInt)o->len);
	if (o->f != NULL)
		fwrite(o->buf, 1, o->len, o->f);
	o->total += o->len;
	o->len = 0;
}

void
ob_bytes(struct obuf *o, const void *p, size_t n)
{
	const unsigned char *s = p;
	size_t k;

	while (n > 0) {
		if (o->len == sizeof(o->buf))
			ob_flush(o);
		k = sizeof(o->buf) - o->len;
		if (k > n)
			k = n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

void
ob_str(struct obuf *o, const char *s)
{
	ob_bytes(o, s, strlen(s));
}

void
ob_byte(struct obuf *o, int c)
{
	if (o->len == sizeof(o->buf))
		ob_flush(o);
	o->buf[o->len++] = (unsigned char)c;
}

void
ob_varint(struct obuf *o, uint64_t v)
{
	unsigned char b[10];
	size_t n = 0;

	do {
		b[n] = v & 0x7f;
		v >>= 7;
		if (v != 0)
			b[n] |= 0x80;
		n++;
	} while (v != 0);
	ob_bytes(o, b, n);
}

void
ob_svarint(struct obuf *o, int64_t v)
{
	ob_varint(o, ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0));
}

void
ob_printf(struct obuf *o, const char *fmt, ...)
{
	char small[512], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		ob_bytes(o, small, (size_t)n);
		return;
	}
	big = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	ob_bytes(o, big, (size_t)n);
	free(big);
}

void
ob_dec(struct obuf *o, int64_t v)
{
	char b[24], *p = b + sizeof(b);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*--p = '-';
	ob_bytes(o, p, (size_t)(b + sizeof(b) - p));
}

/* A length and the bytes, as the dump writes a string. */
void
ob_dstr(struct obuf *o, const char *s)
{
	size_t n = strlen(s);

	ob_varint(o, n);
	ob_bytes(o, s, n);
}

/* Four bytes, little-endian, as pgcl writes its header. */
void
ob_u32(struct obuf *o, uint32_t v)
{
	unsigned char b[4];

	b[0] = v & 0xff;
	b[1] = (v >> 8) & 0xff;
	b[2] = (v >> 16) & 0xff;
	b[3] = (v >> 24) & 0xff;
	ob_bytes(o, b, 4);
}
