# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ccstools authors
#
# Profiles in ccstools JSON where each push of Push is a new one and
# finds its cost centre deep on the stack (BENCHMARKS.md, "Fan-out below
# deep chains").  Every node has one sample; z is a cost centre on no
# stack, so "ccs-select -d z" projects the whole tree.
#
#   awk -v d=D -v w=W -f fanout.awk	a chain a0 ... a(D-1) whose end has
#					W callees c_i, each calling a0
#   awk -v d=D -v comb=1 -f fanout.awk	a chain a0 ... a(D-1) where each
#					a_k past a0 calls c_k, which
#					calls a0
#
# With -v k=K, each c_i calls a0 through a chain p0 ... p(K-1).  With
# -v same=1, the c_i are all named x (each its own cost centre, with a
# source line of its own), one function to ccs-callers.
BEGIN {
	if (d < 1 || (!comb && w < 1)) {
		print "usage: awk -v d=D (-v w=W | -v comb=1) -f fanout.awk" \
		    > "/dev/stderr"
		exit 1
	}
	nc = comb ? d : w
	k += 0
	printf "{\"format\":\"ccstools-profile\",\"version\":1,"
	printf "\"metrics\":[{\"name\":\"samples\",\"unit\":\"samples\","
	printf "\"kind\":\"cost\"}],\"modules\":[\"\"],\"cost_centres\":["
	printf "{\"label\":\"(root)\",\"module\":0,\"src\":\"\",\"synthetic\":true}"
	for (i = 0; i < d; i++)
		printf ",{\"label\":\"a%d\",\"module\":0,\"src\":\"\"}", i
	for (i = 0; i < nc; i++)
		if (same)
			printf ",{\"label\":\"x\",\"module\":0," \
			    "\"src\":\"x.hs:%d\"}", i + 1
		else
			printf ",{\"label\":\"c%d\",\"module\":0," \
			    "\"src\":\"\"}", i
	for (i = 0; i < k; i++)
		printf ",{\"label\":\"p%d\",\"module\":0,\"src\":\"\"}", i
	printf ",{\"label\":\"z\",\"module\":0,\"src\":\"\"}"
	p = 1 + d + nc		# the cost centre of p0
	# Nodes in pre-order: cost centre, number of children, samples.
	printf "],\"nodes\":[[0,1,0]"
	if (comb) {
		printf ",[1,1,1]"
		for (j = 1; j < d; j++) {
			printf ",[%d,%d,1],[%d,1,1]", 1 + j, j < d - 1 ? 2 : 1,
			    1 + d + j
			tail()
		}
	} else {
		for (i = 0; i < d; i++)
			printf ",[%d,%d,1]", 1 + i, i < d - 1 ? 1 : w
		for (i = 0; i < w; i++) {
			printf ",[%d,1,1]", 1 + d + i
			tail()
		}
	}
	print "]}"
}

# A callee's way to a0: its own chain of k, then a0.
function tail(	j) {
	for (j = 0; j < k; j++)
		printf ",[%d,1,1]", p + j
	printf ",[1,0,1]"
}
