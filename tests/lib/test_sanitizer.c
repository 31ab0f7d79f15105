/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * What LeakSanitizer is told to overlook in "make check SAN=1": nothing
 * may cover the tests' own processes, where every stack passes through
 * Criterion, or no leak of a test or of the library it calls is
 * reported (tests/support/lsan.c).  So tests/lsan.supp names no
 * Criterion, and in a test's process the default suppressions are
 * empty.
 */
#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__)
const char	*__lsan_default_suppressions(void);
#endif

Test(sanitizer, no_suppression_covers_the_tests)
{
	char *supp = slurp("tests/lsan.supp", NULL), *line, *save = NULL;

	cr_assert_not_null(supp);
	for (line = strtok_r(supp, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		cr_expect(line[0] == '#' || strstr(line, "criterion") == NULL,
		    "tests/lsan.supp: '%s' covers every test", line);
	free(supp);
#if defined(__SANITIZE_ADDRESS__)
	cr_expect_str_eq(__lsan_default_suppressions(), "",
	    "the default suppressions cover a test's process");
#endif
}
