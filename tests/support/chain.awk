# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ccstools authors
#
# A profile in ccstools JSON of a chain n frames deep, f0;f1;...;fn-1,
# with one sample on every node:  awk -v n=N [-v top=T] -f chain.awk
# With top, the chain hangs from a frame Top of T samples, which
# "ccs-select -d Top" turns into T samples on the synthetic root.
# As folded text the chain would take n^2/2 frames; this is linear.
BEGIN {
	printf "{\"format\":\"ccstools-profile\",\"version\":1,"
	printf "\"metrics\":[{\"name\":\"samples\",\"unit\":\"samples\","
	printf "\"kind\":\"cost\"}],\"modules\":[\"\"],\"cost_centres\":["
	printf "{\"label\":\"(root)\",\"module\":0,\"src\":\"\",\"synthetic\":true}"
	if (top != "")
		printf ",{\"label\":\"Top\",\"module\":0,\"src\":\"\"}"
	for (i = 0; i < n; i++)
		printf ",{\"label\":\"f%d\",\"module\":0,\"src\":\"\"}", i
	# Nodes in pre-order: cost centre, number of children, samples.
	printf "],\"nodes\":[[0,1,0]"
	first = 1
	if (top != "") {
		printf ",[1,1,%d]", top
		first = 2
	}
	for (i = 0; i < n; i++)
		printf ",[%d,%d,1]", first + i, i < n - 1
	print "]}"
}
