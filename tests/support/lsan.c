/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * LeakSanitizer's suppression of Criterion, for "make check SAN=1".
 * Criterion's runner keeps a few bytes of its own to its end.  The tests
 * run in processes of their own ("boxfort-worker"), under Criterion's
 * frames, so a suppression of libcriterion.so there would match every
 * leak of a test or of the library it calls, and did: it hid leaks of
 * the JSON writers when out of memory.  Only the runner gets it.
 */
#if defined(__SANITIZE_ADDRESS__)
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

const char	*__lsan_default_suppressions(void);

const char *
__lsan_default_suppressions(void)
{
	static const char worker[] = "boxfort-worker";
	char arg0[sizeof(worker)] = "";
	ssize_t n = 0;
	int fd;

	/* No malloc(): this runs inside the leak check. */
	if ((fd = open("/proc/self/cmdline", O_RDONLY)) >= 0) {
		n = read(fd, arg0, sizeof(arg0));
		close(fd);
	}
	if (n == (ssize_t)sizeof(worker) && memcmp(arg0, worker,
	    sizeof(worker)) == 0)
		return "";
	return "leak:libcriterion.so\n";
}
#else
/* ISO C wants something in a translation unit. */
typedef int	lsan_unused;
#endif
