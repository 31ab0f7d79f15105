# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ccstools authors
#
# The least distance, in points, between the arcs of a
# graph laid out by Graphviz and the box of its node "legend", from the
# layout as "plain" text (ccs2dot -T plain, or dot -Tplain): 0 when an
# arc runs into it.  An arc is 1 + 3k control points, k cubic Bezier
# pieces, each followed in steps of 1/500.
#
#	ccs2dot -T plain prof | awk -f tests/support/legend_gap.awk
$1 == "node" && $2 == "legend" {
	lx = $3; ly = $4; lw = $5 / 2; lh = $6 / 2
	next
}
$1 == "edge" {
	ne++
	en[ne] = $4
	for (i = 0; i < $4; i++) {
		ex[ne, i] = $(5 + 2 * i)
		ey[ne, i] = $(6 + 2 * i)
	}
}
END {
	best = -1
	for (e = 1; e <= ne; e++)
		for (s = 0; s + 3 < en[e]; s += 3)
			for (k = 0; k <= 500; k++) {
				t = k / 500
				u = 1 - t
				x = u * u * u * ex[e, s] + 3 * u * u * t * ex[e, s + 1] + \
				    3 * u * t * t * ex[e, s + 2] + t * t * t * ex[e, s + 3]
				y = u * u * u * ey[e, s] + 3 * u * u * t * ey[e, s + 1] + \
				    3 * u * t * t * ey[e, s + 2] + t * t * t * ey[e, s + 3]
				dx = x < lx - lw ? lx - lw - x : (x > lx + lw ? x - lx - lw : 0)
				dy = y < ly - lh ? ly - lh - y : (y > ly + lh ? y - ly - lh : 0)
				d = sqrt(dx * dx + dy * dy)
				if (best < 0 || d < best)
					best = d
			}
	# Inches to points.
	printf "%.1f\n", best * 72
}
