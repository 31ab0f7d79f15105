# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ccstools authors
#
# A comb in ccstools JSON: a chain n deep of r0 ... r12 in turn, each
# level with a leaf "leaf" of its own cost.  With -v vals=inc the leaves cost 1, 2,
# ..., n from the top down, so that each is costlier than all before
# it; with vals=wave their costs rise and fall.
#   awk -v n=N -v vals=inc|wave -f comb.awk
BEGIN {
	printf "{\"format\":\"ccstools-profile\",\"version\":1,"
	printf "\"metrics\":[{\"name\":\"samples\",\"unit\":\"samples\","
	printf "\"kind\":\"cost\"}],\"modules\":[\"\"],\"cost_centres\":["
	printf "{\"label\":\"(root)\",\"module\":0,\"src\":\"\",\"synthetic\":true}"
	for (k = 0; k < 13; k++)
		printf ",{\"label\":\"r%d\",\"module\":0,\"src\":\"\"}", k
	printf ",{\"label\":\"leaf\",\"module\":0,\"src\":\"\"}"
	# Nodes in pre-order: cost centre, number of children, samples.
	printf "],\"nodes\":[[0,1,0]"
	for (k = 0; k < n; k++) {
		v = vals == "inc" ? k + 1 : (k * 7919) % 1000 + (k % 97 == 0) * k
		printf ",[%d,%d,1],[14,0,%d]", 1 + k % 13, k < n - 1 ? 2 : 1, v
	}
	print "]}"
}
