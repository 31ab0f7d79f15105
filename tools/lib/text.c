/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Text in reports: names escaped and padded to a width, numbers and
 * percentages formatted without printf(), which would be most of the
 * time of a table of thousands of rows.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "xmalloc.h"

/*
 * Write n bytes.  A report is mostly short fields and padding, a dozen a
 * row: fwrite(3) spends some 290 instructions on each, putc_unlocked(3)
 * a handful a byte, so a short field goes out byte by byte and a long
 * one by fwrite()'s copy.  (stdio takes no lock in a program of one
 * thread.)  The tables of ccs-tree and ccs-flat are built a line at a
 * time instead (tool_line, below); these helpers serve the other
 * reports.
 */
static void
put_bytes(FILE *out, const char *p, size_t n)
{
	if (n > 64) {
		fwrite(p, 1, n, out);
		return;
	}
	while (n-- > 0)
		putc_unlocked(*p++, out);
}

/*
 * The columns code point c takes on a terminal: 2 for the wide ones of
 * East Asian scripts, fullwidth forms and emoji, 0 for combining marks
 * and zero-width spaces and joiners, 1 for the rest.  The ranges are
 * the usual wcwidth() ones, in the C locale too, and without a table of
 * all of Unicode: a rare name may still be a column off.
 */
static int
columns_of(uint32_t c)
{
	static const uint32_t wide[][2] = {
		{ 0x1100, 0x115f }, { 0x2e80, 0x303e }, { 0x3041, 0x33ff },
		{ 0x3400, 0x4dbf }, { 0x4e00, 0x9fff }, { 0xa000, 0xa4cf },
		{ 0xac00, 0xd7a3 }, { 0xf900, 0xfaff }, { 0xfe30, 0xfe4f },
		{ 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f },
		{ 0x1f900, 0x1f9ff }, { 0x20000, 0x2fffd }, { 0x30000, 0x3fffd },
	};
	static const uint32_t zero[][2] = {
		{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd },
		{ 0x0610, 0x061a }, { 0x064b, 0x065f }, { 0x1ab0, 0x1aff },
		{ 0x1dc0, 0x1dff }, { 0x200b, 0x200f }, { 0x20d0, 0x20ff },
		{ 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f },
	};
	size_t i;

	if (c < 0x300)
		return 1;
	for (i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		if (c >= zero[i][0] && c <= zero[i][1])
			return 0;
	for (i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (c >= wide[i][0] && c <= wide[i][1])
			return 2;
	return 1;
}

/*
 * Write (out != NULL) or measure s as tool_put_text() does; returns the
 * columns it takes on a terminal.
 */
static int
put_text(FILE *out, const char *s, int tsv)
{
	const unsigned char *p = (const unsigned char *)s, *run = p, *end;
	uint32_t c;
	char esc[16];
	size_t n;
	int w = 0;

	/* Printable ASCII, nearly every name, goes out as it is: one
	 * column a byte.  Reports print thousands of names. */
	for (end = p; *end >= 0x20 && *end < 0x7f && !(tsv && *end == '\\');
	    end++)
		;
	if (*end == '\0') {
		if (out != NULL)
			put_bytes(out, (const char *)p, (size_t)(end - p));
		return (int)(end - p);
	}
	end += strlen((const char *)end);

	/* Bytes that stay as they are go out a run at a time. */
	while (*p != '\0') {
		n = pdb_utf8_seq(p, (size_t)(end - p), &c);
		esc[0] = '\0';
		if (n == 0 && tsv) {
			/* Data: other bytes stay as they are. */
			n = 1;
			c = 0xa0;
		}
		if (n == 0)
			snprintf(esc, sizeof(esc), "\\x%02X", *p);
		else if (c == '\n')
			snprintf(esc, sizeof(esc), "\\n");
		else if (c == '\t')
			snprintf(esc, sizeof(esc), "\\t");
		else if (c == '\r')
			snprintf(esc, sizeof(esc), "\\r");
		else if (c < 0x20 || c == 0x7f)
			snprintf(esc, sizeof(esc), "\\x%02X", (unsigned)c);
		else if (c >= 0x80 && c <= 0x9f && !tsv)
			snprintf(esc, sizeof(esc), "\\u%04X", (unsigned)c);
		else if (c == '\\' && tsv)
			snprintf(esc, sizeof(esc), "\\\\");
		if (esc[0] != '\0') {
			if (out != NULL) {
				fwrite(run, 1, (size_t)(p - run), out);
				fputs(esc, out);
			}
			w += (int)strlen(esc);
			p += n ? n : 1;
			run = p;
		} else {
			w += columns_of(c);
			p += n;
		}
	}
	if (out != NULL && p > run)
		fwrite(run, 1, (size_t)(p - run), out);
	return w;
}

int
tool_put_text(FILE *out, const char *s, int tsv)
{
	return put_text(out, s, tsv);
}

int
tool_text_width(const char *s)
{
	return put_text(NULL, s, 0);
}

/*
 * x * 10 is exact in a long double whose significand has at least 57
 * bits (x86's 64, or a quad's), and rintl() then rounds it half to
 * even, as printf() does in the default rounding mode.  (nearbyintl()
 * would save and restore the floating-point state to keep the inexact
 * flag clear, a cost in every call; nothing here reads that flag.)
 */
const char *
tool_fmt_tenths(char *buf, size_t len, double x)
{
	char digits[32], *p = digits;
	int64_t u;
	long double t;
	size_t n;

	if (x == 0)
		x = 0.0;	/* not -0.0 */
	if (LDBL_MANT_DIG < 57 || !(fabs(x) < 1e15)) {
		snprintf(buf, len, "%.1f", x);
		return buf;
	}
	t = rintl((long double)x * 10.0L);
	u = (int64_t)(t < 0 ? -t : t);
	/* The sign is x's, as for printf(): -0.04 is "-0.0". */
	if (signbit(x))
		*p++ = '-';
	p = pdb_put_decimal(p, u / 10);
	*p++ = '.';
	*p++ = (char)('0' + u % 10);
	n = (size_t)(p - digits);
	if (n >= len) {
		snprintf(buf, len, "%.1f", x);
		return buf;
	}
	memcpy(buf, digits, n);
	buf[n] = '\0';
	return buf;
}

const char *
tool_fmt_int(char *buf, size_t len, int64_t v)
{
	char digits[24];
	size_t n = (size_t)(pdb_put_decimal(digits, v) - digits);

	if (n >= len)
		n = len - 1;
	memcpy(buf, digits, n);
	buf[n] = '\0';
	return buf;
}

/* n spaces. */
static void
put_spaces(FILE *out, int n)
{
	for (; n > 0; n--)
		putc_unlocked(' ', out);
}

void
tool_put_right(FILE *out, const char *s, int w)
{
	size_t n = strlen(s);

	put_spaces(out, w - (int)n);
	put_bytes(out, s, n);
}

void
tool_put_left(FILE *out, const char *s, int w)
{
	put_spaces(out, w - tool_put_text(out, s, 0));
}

/* The percentage, printed by the thousand in a report: printf() would
 * be most of the report's time. */
const char *
tool_fmt_pct(char *buf, size_t len, int64_t part, int64_t total)
{
	return tool_fmt_tenths(buf, len, total == 0 ? 0.0 :
	    100.0 * (double)part / (double)total);
}

void
tool_line_left(struct tool_line *l, const char *s, int w)
{
	size_t n;

	for (n = 0; s[n] >= 0x20 && s[n] < 0x7f; n++)
		;
	if (s[n] != '\0') {
		tool_line_flush(l);
		tool_put_left(l->out, s, w);
		return;
	}
	tool_line_add(l, s, n);
	tool_line_spaces(l, w - (int)n);
}

void
tool_line_right(struct tool_line *l, const char *s, int w)
{
	size_t n = strlen(s);

	tool_line_spaces(l, w - (int)n);
	tool_line_add(l, s, n);
}

void
tool_line_flush(struct tool_line *l)
{
	if (l->text.err)
		nomem();
	/* Nothing yet, and maybe no buffer: fwrite(NULL, ...) is undefined. */
	if (l->text.len > 0)
		fwrite(l->text.p, 1, l->text.len, l->out);
	l->text.len = 0;
}

void
tool_line_free(struct tool_line *l)
{
	free(l->text.p);
	memset(&l->text, 0, sizeof(l->text));
}
