/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * ccs: "ccs flat ..." runs "ccs-flat ...", looked up first beside this
 * program and then on PATH, as git does for its commands.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static const char usage[] = "ccs command [argument ...]";

static const struct {
	const char	*name;
	const char	*desc;
} commands[] = {
	{ "flat", "flat and inherited profile of the selected cost centres" },
	{ "gen", "write a synthetic profile of a given size" },
	{ "convert", "convert a profile between formats" },
	{ "select", "project a profile on the selected cost centres" },
	{ "prune", "remove small stacks, folding their cost into parents" },
	{ "stacks", "print one folded line per stack" },
	{ "hot", "hot stack, expensive arm and most expensive stacks" },
	{ "callers", "inverted call graph of a cost centre" },
	{ "tree", "the stack tree as an indented report" },
	{ "2callgrind", "callgrind output for KCacheGrind" },
	{ "2dot", "call graph through Graphviz" },
	{ "2html", "interactive HTML viewer" },
	{ NULL, NULL }
};

static void
list(FILE *out)
{
	int i;

	fprintf(out, "usage: %s\n\ncommands:\n", usage);
	for (i = 0; commands[i].name != NULL; i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].desc);
	fprintf(out, "\nRun 'ccs COMMAND --help' for a command's options.\n");
}

/* Close stdout: "ccs: <stdout>: reason" and 1 if writing failed. */
static int
stdout_done(void)
{
	static const struct tool_common none;

	return tool_output_close(&none, stdout) == 0 ? TOOL_OK : TOOL_ERR;
}

int
main(int argc, char *argv[])
{
	char self[PATH_MAX], path[64], *slash;
	ssize_t n;
	int i;

	tool_init(argv[0], NULL);
	if (argc < 2) {
		list(stdout);
		return stdout_done();
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		list(stdout);
		return stdout_done();
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("ccs (ccstools) %s\n", CCSTOOLS_VERSION);
		return stdout_done();
	}
	for (i = 0; commands[i].name != NULL; i++)
		if (strcmp(commands[i].name, argv[1]) == 0)
			break;
	if (commands[i].name == NULL) {
		tool_warnx("'%s' is not a ccs command", argv[1]);
		list(stderr);
		return TOOL_USAGE;
	}
	/* "ccs 2dot" runs ccs2dot, the other commands ccs-NAME. */
	snprintf(path, sizeof(path), "ccs%s%s",
	    commands[i].name[0] == '2' ? "" : "-", commands[i].name);
	argv[1] = path;
	/* Prefer the tool installed beside us. */
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')) != NULL) {
			char full[PATH_MAX + sizeof(path) + 1];

			*slash = '\0';
			snprintf(full, sizeof(full), "%s/%s", self, path);
			if (access(full, X_OK) == 0)
				execv(full, argv + 1);
		}
	}
	execvp(path, argv + 1);
	tool_warnx("%s: %s", path, strerror(errno));
	return TOOL_ERR;
}
