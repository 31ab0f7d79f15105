#include <inttypes.h>
#include <stdio.h>

#include <formats.h>
#include <pdb.h>

/* Print the cost centre with the largest flat cost in a profile. */
int
main(int argc, char *argv[])
{
	struct pdb *db;
	struct pdb_flat *flat;
	uint32_t cc, best = PDB_NONE;
	unsigned m;
	int rc = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: top file\n");
		return 2;
	}
	db = pdb_new();
	flat = pdb_flat_new(NULL);
	if (db == NULL || flat == NULL) {
		fprintf(stderr, "top: out of memory\n");
		goto out;
	}
	if (pdb_read_stream(db, argv[1], NULL, NULL, pdb_flat_sink(flat),
	    NULL) != PDB_OK) {
		fprintf(stderr, "top: %s\n", pdb_errmsg(db));
		goto out;
	}
	m = pdb_metric_default(db);
	for (cc = 0; cc < pdb_flat_cc_count(flat); cc++)
		if (pdb_flat_seen(flat, cc) && (best == PDB_NONE ||
		    pdb_flat_self(flat, cc, m) > pdb_flat_self(flat, best, m)))
			best = cc;
	if (best != PDB_NONE && pdb_metric_count(db) > 0)
		printf("%s %" PRId64 " %s\n", pdb_cc_fullname(db, best),
		    pdb_flat_self(flat, best, m), pdb_metric(db, m)->unit);
	rc = 0;
out:
	pdb_flat_free(flat);
	pdb_free(db);
	return rc;
}
