/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * rusage FILE COMMAND [ARG...]: run COMMAND and write to FILE its wall
 * time and user + system time in seconds, to the microsecond, and its
 * peak resident set in KB, as "wall cpu maxrss".  For make bench, whose
 * runs at 100 MB take a fifth of a second: /usr/bin/time gives times to
 * the hundredth.  The times and the peak are wait4()'s, as
 * /usr/bin/time's are: the command's and its children's.  Exits with
 * the command's status.
 */
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double
seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int
main(int argc, char *argv[])
{
	struct timespec t0, t1;
	struct rusage ru;
	FILE *out;
	pid_t pid;
	int st;

	if (argc < 3) {
		fputs("usage: rusage file command [arg ...]\n", stderr);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((pid = fork()) == -1) {
		perror("rusage: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "rusage: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) == -1) {
		perror("rusage: wait4");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if ((out = fopen(argv[1], "w")) == NULL) {
		perror(argv[1]);
		return 2;
	}
	fprintf(out, "%.6f %.6f %ld\n", (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
	    seconds(ru.ru_utime) + seconds(ru.ru_stime), ru.ru_maxrss);
	if (fclose(out) != 0) {
		perror(argv[1]);
		return 2;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}
