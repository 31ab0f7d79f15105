/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Copyright (c) 2026 The ccstools authors
 *
 * Nodes are appended into memory asked of the system a stretch at a time
 * (tree.c), not a page fault at a time.  Counted with the kernel's
 * software page-fault counter, where the system has both it and
 * MADV_POPULATE_WRITE.
 */
#include <criterion/criterion.h>

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pdb.h"

/* A counter of this thread's page faults, or -1. */
static int
fault_counter(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* Why the faults counted would not be the library's, or NULL. */
static const char *
cannot_count(void)
{
#if defined(__SANITIZE_ADDRESS__)
	/* Its allocator copies on realloc, and faults its shadow pages. */
	return "page faults are AddressSanitizer's here";
#elif !defined(MADV_POPULATE_WRITE)
	return "no MADV_POPULATE_WRITE here";
#else
	static char probe[1];
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	/* The kernel must know the advice. */
	if (madvise((void *)((uintptr_t)probe & ~(page - 1)), (size_t)page,
	    MADV_POPULATE_WRITE) != 0)
		return "MADV_POPULATE_WRITE not supported";
	return NULL;
#endif
}

/*
 * A profile of nmetrics metrics with a root, and a page-fault counter,
 * which is returned; skips the test where faults cannot be counted.
 */
static int
start(struct pdb **dbp, unsigned nmetrics, uint32_t *cc, uint32_t *root)
{
	const char *why;
	uint32_t mod;
	char name[16];
	int fd;

	if ((why = cannot_count()) != NULL)
		cr_skip_test("%s", why);
	if ((fd = fault_counter()) < 0)
		cr_skip_test("no page-fault counter (perf_event_open)");
	cr_assert((*dbp = pdb_new()) != NULL);
	for (unsigned m = 0; m < nmetrics; m++) {
		snprintf(name, sizeof(name), "m%u", m);
		cr_assert(pdb_metric_add(*dbp, name, "", PDB_COST, 0, NULL) ==
		    PDB_OK);
	}
	cr_assert(pdb_module_add(*dbp, "M", &mod) == PDB_OK);
	cr_assert(pdb_cc_add(*dbp, "f", mod, "", 0, -1, &cc[0]) == PDB_OK);
	cr_assert(pdb_cc_add(*dbp, "g", mod, "", 0, -1, &cc[1]) == PDB_OK);
	cr_assert(pdb_root_new(*dbp, cc[0], root) == PDB_OK);
	return fd;
}

static void
count_from_here(int fd)
{
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}

/* The page faults counted, and the counter closed. */
static uint64_t
counted(int fd)
{
	uint64_t faults;

	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	cr_assert_eq(read(fd, &faults, sizeof(faults)), sizeof(faults));
	close(fd);
	return faults;
}

Test(prefault, appended_nodes_take_few_page_faults)
{
	enum { NODES = 2000000 };
	uint32_t cc[2], n;
	struct pdb *db;
	uint64_t faults;
	long page = sysconf(_SC_PAGESIZE);
	int fd = start(&db, 0, cc, &n);

	count_from_here(fd);
	/* A chain: each stack new, 16 bytes a node, 32 MB in all. */
	for (uint32_t i = 1; i < NODES; i++)
		cr_assert(pdb_child_get(db, n, cc[i % 2], &n) == PDB_OK);
	faults = counted(fd);
	cr_assert_eq(pdb_node_count(db), NODES);
	/* A fault a page would be NODES * 16 / page, some 7800. */
	cr_assert_lt(faults, (uint64_t)NODES * 16 / (uint64_t)page / 8,
	    "%llu page faults for %d nodes", (unsigned long long)faults,
	    NODES);
	pdb_free(db);
}

/*
 * A tree's arrays grow past the small sizes at once (tree.c): doubling
 * them from a few KB, each a copy into new pages, took a quarter of the
 * page faults of a projection of 1 MB.  A profile of six metrics, as a
 * pgcl one, grown from 5000 nodes to 100000: some 2.7 MB of nodes and
 * values.
 */
static void
grow_chain(struct pdb *db, uint32_t *n, const uint32_t *cc, uint32_t from,
    uint32_t to)
{
	int64_t vals[6];

	for (uint32_t i = from; i < to; i++) {
		cr_assert(pdb_child_get(db, *n, cc[i % 2], n) == PDB_OK);
		/* 16 bits a value: 28 bytes a node in all. */
		for (int m = 0; m < 6; m++)
			vals[m] = 300 + (int64_t)(i % 7) * m;
		cr_assert(pdb_node_add_values(db, *n, vals) == PDB_OK);
	}
}

Test(prefault, growing_tree_does_not_copy_its_arrays)
{
	enum { FROM = 5000, NODES = 100000 };
	uint32_t cc[2], n;
	struct pdb *db;
	uint64_t faults;
	int fd = start(&db, 6, cc, &n);

	grow_chain(db, &n, cc, 1, FROM);
	count_from_here(fd);
	grow_chain(db, &n, cc, FROM, NODES);
	faults = counted(fd);
	cr_assert_eq(pdb_node_count(db), NODES);
	/* The copies made some 270, a fault a page some 650. */
	cr_assert_lt(faults, 150, "%llu page faults for %d nodes",
	    (unsigned long long)faults, NODES - FROM);
	pdb_free(db);
}
