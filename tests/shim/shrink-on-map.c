/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * LD_PRELOAD shim for tests: when the program maps the file that
 * SHRINK_ON_MAP names, the file is cut to its first 4096 bytes right
 * after, as if the profiled program had run again and truncated it.
 * Reading the map past there then raises SIGBUS, which the tools must
 * turn into an error message (tools/lib/inputguard.c).
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/types.h>

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void *mmap_fn(void *, size_t, int, int, int, off_t);

static void
shrink(int fd)
{
	const char *want = getenv("SHRINK_ON_MAP");
	char link[64], path[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if (want == NULL || (n = readlink(link, path, sizeof(path) - 1)) <= 0)
		return;
	path[n] = '\0';
	if (strcmp(path, want) == 0)
		(void)!truncate(path, 4096);
}

void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static mmap_fn *real;
	void *p;

	if (real == NULL)
		real = (mmap_fn *)dlsym(RTLD_NEXT, "mmap");
	p = real(addr, len, prot, flags, fd, off);
	if (p != MAP_FAILED && fd >= 0)
		shrink(fd);
	return p;
}

void *
mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return mmap(addr, len, prot, flags, fd, off);
}
