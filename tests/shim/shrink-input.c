/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * LD_PRELOAD shim for tests: the input file cut short while a tool reads
 * it, as if the profiled program had run again and truncated it.
 *
 * When the program maps the file that SHRINK_ON_MAP names, the file is
 * cut to its first 4096 bytes right after.  Reading the map past there
 * then raises SIGBUS, which the tools must turn into an error message
 * (tools/lib/inputguard.c).
 *
 * When the program first reads the file that SHRINK_ON_READ names, the
 * file is cut after that read, at the end of the last line that starts
 * before half its size: the rest reads as a shorter file that ends
 * well, which the readers must notice (formats/input.c).
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/types.h>

#include <sys/stat.h>

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void *mmap_fn(void *, size_t, int, int, int, off_t);

typedef ssize_t read_fn(int, void *, size_t);

/* Whether fd is open on the file that environment variable var names. */
static int
is_named(int fd, const char *var)
{
	const char *want = getenv(var);
	char link[64], path[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if (want == NULL || (n = readlink(link, path, sizeof(path) - 1)) <= 0)
		return 0;
	path[n] = '\0';
	return strcmp(path, want) == 0;
}

static void
shrink(int fd)
{
	if (is_named(fd, "SHRINK_ON_MAP"))
		(void)!truncate(getenv("SHRINK_ON_MAP"), 4096);
}

/* The file of fd cut after its last newline before half its size. */
static void
shrink_to_line(int fd)
{
	struct stat st;
	char c;
	off_t at;

	if (fstat(fd, &st) != 0)
		return;
	for (at = st.st_size / 2; at > 0; at--)
		if (pread(fd, &c, 1, at - 1) == 1 && c == '\n')
			break;
	(void)!truncate(getenv("SHRINK_ON_READ"), at);
}

ssize_t
read(int fd, void *buf, size_t len)
{
	static read_fn *real;
	static int done;
	ssize_t n;

	if (real == NULL)
		real = (read_fn *)dlsym(RTLD_NEXT, "read");
	n = real(fd, buf, len);
	if (!done && n > 0 && is_named(fd, "SHRINK_ON_READ")) {
		done = 1;
		shrink_to_line(fd);
	}
	return n;
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
