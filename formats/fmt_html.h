/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Options of the HTML viewer's writer (fmt_html.c), passed through
 * pdb_opts.writer_opts; without them (NULL, as from "ccs-convert -t
 * html") the page has no note.
 */
#ifndef FMT_HTML_H
#define FMT_HTML_H

struct pdb_html_opts {
	/* What was done to the profile before it was written, for the
	 * page's status line (ccs2html --max-stacks); NULL: nothing. */
	const char	*note;
	/* The page's name when the profile records no program, as the
	 * input's file name; NULL: "profile". */
	const char	*name;
};

#endif /* FMT_HTML_H */
