/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Fuzz the ccs-dump(5) reader (formats/fmt_ccsdump.c), format forced.
 * A dump ends with the CRC-32 of what precedes it, which almost every
 * mutation breaks; so the bytes are read as they are, then again with
 * the last four replaced by the right checksum, which lets damaged
 * tables and trees through to the end of the read.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "formats_int.h"
#include "fuzzutil.h"

int
fuzz_dump(const uint8_t *data, size_t size)
{
	unsigned char *fixed;
	uLong crc;

	fuzz_read(&pdb_fmt_ccsdump, data, size, 0, NULL);
	if (size < 4 || size - 4 > UINT32_MAX)
		return 0;
	if ((fixed = malloc(size)) == NULL)
		fuzz_fail("out of memory");
	memcpy(fixed, data, size);
	crc = crc32(crc32(0L, Z_NULL, 0), fixed, (uInt)(size - 4));
	fixed[size - 4] = (unsigned char)(crc & 0xff);
	fixed[size - 3] = (unsigned char)((crc >> 8) & 0xff);
	fixed[size - 2] = (unsigned char)((crc >> 16) & 0xff);
	fixed[size - 1] = (unsigned char)((crc >> 24) & 0xff);
	if (memcmp(fixed, data, size) != 0)
		fuzz_read(&pdb_fmt_ccsdump, fixed, size, 0, NULL);
	free(fixed);
	return 0;
}

FUZZ_MAIN(fuzz_dump)
