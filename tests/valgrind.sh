#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ccstools authors
#
# Every tool under valgrind's memcheck, on a fixture of every input format
# (pgcl, dump, GHC text, GHC JSON, JSON, folded, gzip) and on bad input:
# no error and no definite leak, in success and in error exits alike.
# Run by "make valgrind" (and so by .ci/run) as
#	sh tests/valgrind.sh BINDIR
# Third-party leaks are suppressed in tests/valgrind.supp, each explained.
set -u

bin=${1:-build/bin}
jobs=${JOBS:-2}
tmp=$(mktemp -d /tmp/ccsvg-XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# Inputs: made from the fixtures with the (plain) tools themselves.
cp tests/data/pgcl/synthetic-400.pgcl "$tmp/s.pgcl" || exit 1
cp tests/data/ghc/mj.P.prof "$tmp/mj.prof"
cp tests/data/ghc/mj.json "$tmp/mj.ghc.json"
cp tests/data/paper/fig7.folded "$tmp/fig7.folded"
cp tests/data/stacks/escapes.folded "$tmp/escapes.folded"
"$bin/ccs-convert" -t dump -o "$tmp/demo.dump" tests/data/ghc/demo.P.prof
"$bin/ccs-convert" -t json -o "$tmp/demo.json" tests/data/ghc/demo.pa.prof
gzip -c tests/data/pgcl/synthetic-400.pgcl > "$tmp/s.pgcl.gz"
head -c 1000 tests/data/pgcl/synthetic-400.pgcl > "$tmp/cut.pgcl"
head -c 700 tests/data/ghc/mj.P.prof > "$tmp/cut.prof"
head -c 300 "$tmp/demo.dump" > "$tmp/cut.dump"
head -c 500 "$tmp/s.pgcl.gz" > "$tmp/cut.pgcl.gz"
printf 'a;b 9223372036854775807\na;c 1\n' > "$tmp/overflow.folded"
# A deep comb whose stacks ccs-hot keeps in its path, and callees deep
# below a chain that switch Push's cache of dropped stacks on.
awk -v n=300 -v vals=wave -f tests/support/comb.awk |
    "$bin/ccs-convert" -f json -t dump -o "$tmp/comb.dump" -
awk -v d=300 -v w=600 -f tests/support/fanout.awk > "$tmp/fan.json"
inputs="s.pgcl mj.prof mj.ghc.json fig7.folded escapes.folded demo.dump
    demo.json s.pgcl.gz comb.dump fan.json"
bad="cut.pgcl cut.prof cut.dump cut.pgcl.gz overflow.folded nosuchfile"

# The commands that read everything a reader sets (the lossless dump and
# JSON writers, the tree, the analyses, ccs2dot, ccs2html) run on every
# input.  The other options and writers, whose code does not depend on
# the input format, run each on one input, in turn: ccs2dot -T svg among
# them, since rendering is graphviz's and pango's code and takes 5 to
# 15 s under valgrind.  FULL=1 runs them on every input too (twice as
# long).
every() {
	printf '%s\n' "ccs-flat" "ccs-stacks --sort" "ccs-hot -n 3" "ccs-tree" \
	    "ccs-select -d *i* -t json" "ccs-convert -t dump -F" "ccs2dot" \
	    "ccs2html"
	[ "${FULL:-0}" = 1 ] && some
	return 0
}
some() {
	printf '%s\n' "ccs-flat --tsv -s *a*" "ccs-hot --tsv" \
	    "ccs-tree --tsv --depth 3" "ccs-prune --min-pct 5 -t folded" \
	    "ccs-convert -t pgcl -q" "ccs-convert --compress -t json" \
	    "ccs-convert -t speedscope" "ccs2callgrind" \
	    "ccs2callgrind --context 1" "ccs2dot --tree --hot" \
	    "ccs2dot -T svg" "ccs flat"
}

# One command per line: "expected-status tool args...".
{
	every | awk -v inp="$inputs" -v dir="$tmp" '
	    BEGIN { n = split(inp, f, " ") }
	    { for (i = 1; i <= n; i++) print "0 " $0 " " dir "/" f[i] }'
	[ "${FULL:-0}" = 1 ] || some | awk -v inp="$inputs" -v dir="$tmp" '
	    BEGIN { n = split(inp, f, " ") }
	    { print "0 " $0 " " dir "/" f[(NR - 1) % n + 1] }'
	echo "0 ccs-callers Main.rev $tmp/mj.prof"
	echo "0 ccs-callers --folded rev $tmp/mj.prof"
	echo "0 ccs-callers --tsv Main_b $tmp/fig7.folded"
	echo "1 ccs-callers nosuchname $tmp/mj.prof"
	echo "0 ccs2dot -T png -o $tmp/x.png $tmp/mj.prof"
	echo "0 ccs-convert -t json -o $tmp/x.json $tmp/mj.prof"
	for f in $bad; do
		for t in "ccs-flat" "ccs-stacks" "ccs-tree" "ccs-convert -t json" \
		    "ccs2dot" "ccs2html" "ccs2callgrind" "ccs-hot"; do
			echo "1 $t $tmp/$f"
		done
	done
	for t in ccs-flat "ccs-convert -t json" ccs-select ccs-prune ccs-stacks \
	    ccs-hot ccs-tree "ccs-callers Main.rev" ccs2callgrind ccs2dot \
	    ccs2html; do
		echo "0 $t --help"
		echo "2 $t --no-such-option"
		echo "1 $t -o /dev/full $tmp/mj.prof"
		echo "1 $t -o $tmp/nodir/x $tmp/mj.prof"
	done
	echo "2 ccs-flat -m"
} > "$tmp/cmds"

# One run: "want tool args...": the exit status must be want, and
# valgrind must have nothing to say.
cat > "$tmp/one" <<EOF
set -f
want=\$1
tool=\$2
shift 2
log=\$(mktemp "$tmp/log-XXXXXX")
valgrind -q --error-exitcode=99 --leak-check=full \\
    --errors-for-leak-kinds=definite --show-leak-kinds=definite \\
    --suppressions=tests/valgrind.supp --log-file="\$log" \\
    "$bin/\$tool" "\$@" >/dev/null 2>&1 </dev/null
st=\$?
if [ "\$st" -ne "\$want" ] || [ -s "\$log" ]; then
	echo "FAIL (exit \$st, want \$want): \$tool \$*"
	head -c 4000 "\$log"
fi
rm -f "\$log"
EOF

# Run them, $jobs at a time.
n=$(wc -l < "$tmp/cmds")
echo "valgrind: $n runs, $jobs at a time" >&2
xargs -P "$jobs" -L 1 sh "$tmp/one" < "$tmp/cmds" > "$tmp/out" 2>&1
if [ -s "$tmp/out" ]; then
	cat "$tmp/out"
	echo "valgrind: $(grep -c '^FAIL' "$tmp/out") of $n runs failed" >&2
	exit 1
fi
echo "valgrind: all $n runs clean" >&2
