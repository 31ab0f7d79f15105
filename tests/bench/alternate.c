/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * alternate N DIR_A DIR_B TOOL [ARG...]: run DIR_A/TOOL and DIR_B/TOOL,
 * with the same arguments and standard output to /dev/null, N times
 * each, taking turns (A B, then B A, ...), and print for each the least,
 * the first quartile and the median of its wall times in milliseconds.
 * On a shared machine two builds timed one after the other see different
 * loads; taking turns gives both the same.  Exits 1 if a run fails.
 *
 *	cc -O2 -o alternate tests/bench/alternate.c
 *	./alternate 41 build-old/bin build/bin ccs-hot -n 10 f.dump
 */
#include <sys/wait.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* One run of argv, its wall time in ms. */
static double
run(char **argv)
{
	double t0 = now_ms();
	pid_t pid;
	int st, fd;

	if ((pid = fork()) == -1) {
		perror("fork");
		exit(1);
	}
	if (pid == 0) {
		if ((fd = open("/dev/null", O_WRONLY)) == -1 ||
		    dup2(fd, STDOUT_FILENO) == -1)
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) == -1 || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0) {
		fprintf(stderr, "alternate: %s failed\n", argv[0]);
		exit(1);
	}
	return now_ms() - t0;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(int argc, char *argv[])
{
	char path[2][PATH_MAX];
	double *t[2];
	long n;
	int i, k, w;

	if (argc < 5 || (n = strtol(argv[1], NULL, 10)) < 1) {
		fputs("usage: alternate N dir-a dir-b tool [arg ...]\n",
		    stderr);
		return 2;
	}
	for (k = 0; k < 2; k++) {
		snprintf(path[k], sizeof(path[k]), "%s/%s", argv[2 + k],
		    argv[4]);
		if ((t[k] = malloc((size_t)n * sizeof(*t[k]))) == NULL) {
			perror("malloc");
			return 1;
		}
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < 2; k++) {
			w = i % 2 ? 1 - k : k;
			argv[4] = path[w];
			t[w][i] = run(argv + 4);
		}
	for (k = 0; k < 2; k++) {
		qsort(t[k], (size_t)n, sizeof(*t[k]), cmp);
		printf("%s: least %.3f, p25 %.3f, median %.3f ms (%ld runs)\n",
		    argv[2 + k], t[k][0], t[k][n / 4], t[k][n / 2], n);
	}
	return 0;
}
