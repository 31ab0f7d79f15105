#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ccstools authors
#
# make bench: build with the release flags, generate profiles of 1 MB to
# 2 GB with ccs-gen, time the tools and the programs a user would pick
# instead on the same files, print one table and put it in BENCHMARKS.md
# (between its "bench:begin" and "bench:end" markers, with the machine
# and the date).  Not a test: nothing fails on a slow machine.
#
# Every figure is the median of BENCH_RUNS runs (by wall time) with a
# warm page cache.  Times and peak RSS are those wait4() gives, as for
# /usr/bin/time, but to the microsecond (tests/bench/rusage.c): a run
# at 100 MB takes a fifth of a second.  Settings, from the environment:
#
#   BENCH_SIZES     input sizes (default "1M 10M 100M 1G 2G")
#   BENCH_BIG       sizes only pgcl, dump and folded get (default "2G")
#   BENCH_TREE_MAX  largest input for the tree tools (default 1G)
#   BENCH_VIEW_MAX  largest input for the browser viewers (default 100M)
#   BENCH_RUNS      runs per measurement (default 3)
#   BENCH_RUNS_SMALL  runs per measurement on inputs of 10 MB or less
#                   (default 11: a run is a few ms, start-up and the
#                   host's pauses weigh on it, and runs are cheap)
#   BENCH_DIR       scratch directory (default: a new one in /var/tmp,
#                   removed at the end unless BENCH_KEEP=1)
#   BENCH_OUT       the Markdown file to update (default BENCHMARKS.md)
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
SIZES=${BENCH_SIZES:-"1M 10M 100M 1G 2G"}
BIG=${BENCH_BIG:-"2G"}
TREE_MAX=${BENCH_TREE_MAX:-1G}
VIEW_MAX=${BENCH_VIEW_MAX:-100M}
RUNS=${BENCH_RUNS:-3}
RUNS_SMALL=${BENCH_RUNS_SMALL:-11}
OUT=${BENCH_OUT:-BENCHMARKS.md}
B=build-release
BIN=$top/$B/bin

say() { printf '%s\n' "bench: $*" >&2; }

# ---- what the benchmark needs ----

need_pkgs=""
command -v mawk >/dev/null 2>&1 || need_pkgs="$need_pkgs mawk"
command -v gawk >/dev/null 2>&1 || need_pkgs="$need_pkgs gawk"
command -v dot >/dev/null 2>&1 || need_pkgs="$need_pkgs graphviz"
if [ -n "$need_pkgs" ]; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		say "apt-get install$need_pkgs"
		DEBIAN_FRONTEND=noninteractive apt-get install -y \
		    --no-install-recommends $need_pkgs >&2
	else
		say "missing:$need_pkgs (apt-get install$need_pkgs);" \
		    "those measurements are skipped"
	fi
fi
have_browser=0
if command -v node >/dev/null 2>&1 && [ -x /usr/bin/chromium ] &&
    [ -d tests/js/node_modules/playwright-core ] &&
    [ -d tests/js/node_modules/speedscope ]; then
	have_browser=1
else
	say "no node, chromium or tests/js/node_modules: no browser figures"
fi

# ---- the release build ----

say "building with the release flags into $B/"
make --no-print-directory B=$B OPT="-O2 -DNDEBUG" all >&2
RUSAGE=$top/$B/rusage
${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -O2 -o "$RUSAGE" tests/bench/rusage.c
CRCSPEED=$top/$B/crcspeed
${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -O2 -Iformats -Ilibprofdb \
    -o "$CRCSPEED" tests/bench/crcspeed.c $B/libccsformats.a $B/libprofdb.a -lz
# Not used here: for timing two builds against each other (BENCHMARKS.md).
${CC:-cc} -std=c11 -D_DEFAULT_SOURCE -O2 -o "$top/$B/alternate" \
    tests/bench/alternate.c

# ---- scratch space ----

bytes() {	# 10M -> 10000000
	echo "$1" | awk '{ n = $1 + 0; u = substr($1, length(n "") + 1);
	    m = u == "k" ? 1e3 : u == "M" ? 1e6 : u == "G" ? 1e9 : 1;
	    printf "%.0f\n", n * m }'
}
if [ -n "${BENCH_DIR:-}" ]; then
	D=$BENCH_DIR
	mkdir -p "$D"
else
	D=$(mktemp -d /var/tmp/ccs-bench.XXXXXX)
fi
cleanup() { [ "${BENCH_KEEP:-0}" = 1 ] || rm -rf "$D"; }
trap cleanup EXIT INT TERM
need=0
for s in $SIZES; do
	need=$((need + 5 * $(bytes "$s") / 1000000))
done
free=$(df -Pm "$D" | awk 'NR == 2 { print $4 }')
say "scratch $D: ${free} MB free, about ${need} MB needed"
if [ "$free" -lt "$need" ]; then
	say "not enough disk space in $D (set BENCH_DIR or BENCH_SIZES)"
	exit 1
fi

# ---- measuring ----

R=$D/results.tsv
: > "$R"

# run CMD: the median of runs_now runs of CMD, as "wall user+sys
# maxrss_kb", or "fail".  A simple command (its words quoted as for the
# shell) runs with no shell around it, whose start-up, half a
# millisecond, would count against runs of a few; a pipeline runs
# through sh -c.
runs_now=$RUNS
run() {
	case $1 in
	*'|'*) argv='sh -c "$1"' ;;
	*) argv=$1 ;;
	esac
	i=0
	: > "$D/runs"
	while [ $i -lt "$runs_now" ]; do
		if eval "\"\$RUSAGE\" \"\$D/time\" $argv" >/dev/null 2>"$D/err"
		then
			cat "$D/time" >> "$D/runs"
		else
			say "failed: $1: $(tail -1 "$D/err")"
			echo fail
			return
		fi
		i=$((i + 1))
	done
	sort -n "$D/runs" | awk '{ r[NR] = $0 } END { print r[int((NR + 1) / 2)] }'
}

# row TOOL FORMAT FILE NODES "measurement" [NOTE]
row() {
	size=$(wc -c < "$3")
	set -- "$1" "$2" "$size" "$4" "$5" "${6:-}"
	if [ "$5" = fail ]; then
		printf '%s\t%s\t%s\t%s\tfail\t\t\t%s\n' "$1" "$2" "$3" "$4" \
		    "$6" >> "$R"
		return
	fi
	echo "$5" | awk -v t="$1" -v f="$2" -v b="$3" -v n="$4" -v note="$6" '
	    { printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t, f, b, n, $1, $2,
	    $3, note }' >> "$R"
	tail -1 "$R" | awk -F '\t' '{ printf "bench: %-22s %-9s %7.1f MB %5.2f s\n",
	    $1, $2, $3 / 1e6, $5 }' >&2
}

nodes_of() { cat "$D/$1.nodes"; }

gen() {		# gen FORMAT SIZE -> file name
	f=$D/in-$2.$1
	if [ ! -f "$f" ]; then
		"$BIN/ccs-gen" -q -v -t "$1" --size "$2" -o "$f" 2>"$D/gen.err"
		awk '{ for (i = 1; i <= NF; i++) if ($(i + 1) == "nodes,")
		    print $i }' "$D/gen.err" > "$f.nodes"
	fi
	echo "$f"
}

le() { [ "$(bytes "$1")" -le "$(bytes "$2")" ]; }

AWKSELF='{ c = $NF; t = substr($0, 1, length($0) - length(c) - 1);
    n = split(t, f, ";"); s[f[n]] += c } END { for (k in s) print s[k], k }'

for s in $SIZES; do
	runs_now=$RUNS
	le "$s" 10M && runs_now=$RUNS_SMALL
	fmts="pgcl dump folded ghc-prof ghc-json"
	for b in $BIG; do
		[ "$s" = "$b" ] && fmts="pgcl dump folded"
	done
	for fmt in $fmts; do
		say "generating $fmt, $s"
		f=$(gen "$fmt" "$s")
		n=$(cat "$f.nodes")
		cat "$f" > /dev/null	# warm the cache
		row ccs-flat "$fmt" "$f" "$n" "$(run "'$BIN/ccs-flat' '$f'")"
		# Streams but for folded, whose stacks are merged in a tree.
		if [ "$fmt" != folded ] || le "$s" "$TREE_MAX"; then
			row ccs-hot "$fmt" "$f" "$n" \
			    "$(run "'$BIN/ccs-hot' -n 10 '$f'")"
		fi
		# Streams too, but for folded.
		if [ "$fmt" != folded ] || le "$s" "$TREE_MAX"; then
			row ccs2callgrind "$fmt" "$f" "$n" \
			    "$(run "'$BIN/ccs2callgrind' -o /dev/null '$f'")"
		fi
		if [ "$fmt" = dump ] && [ "$s" = "$(echo $SIZES | awk '{ print $NF }')" ]; then
			row "ccs-flat (pipe)" "$fmt" "$f" "$n" \
			    "$(run "cat '$f' | '$BIN/ccs-flat' -")"
		fi
		if [ "$fmt" = folded ]; then
			command -v mawk >/dev/null 2>&1 && row "mawk (self)" \
			    folded "$f" "$n" "$(run "mawk '$AWKSELF' '$f'")"
			command -v gawk >/dev/null 2>&1 && row "gawk (self)" \
			    folded "$f" "$n" "$(run "gawk '$AWKSELF' '$f'")"
		fi
		if le "$s" "$TREE_MAX" && [ "$fmt" != ghc-prof ] &&
		    [ "$fmt" != ghc-json ]; then
			row "ccs-convert -t dump" "$fmt" "$f" "$n" \
			    "$(run "'$BIN/ccs-convert' -t dump -o /dev/null '$f'")"
			row "ccs-select -d '*.go'" "$fmt" "$f" "$n" \
			    "$(run "'$BIN/ccs-select' -d '*.go' -o /dev/null '$f'")"
			row "ccs-prune --min-pct 0.01" "$fmt" "$f" "$n" \
			    "$(run "'$BIN/ccs-prune' --min-pct 0.01 -o /dev/null '$f'")"
			row "ccs-callers main" "$fmt" "$f" "$n" \
			    "$(run "'$BIN/ccs-callers' main '$f'")"
		fi
		if [ $have_browser = 1 ] && le "$s" "$VIEW_MAX" &&
		    { [ "$fmt" = folded ] || [ "$fmt" = ghc-json ]; }; then
			t=$(run "'$BIN/ccs2html' -o '$D/v.html' '$f'")
			row "ccs2html (write)" "$fmt" "$f" "$n" "$t"
			for v in html speedscope; do
				in=$f
				[ $v = html ] && in=$D/v.html
				j=$(node tests/bench/browser.mjs $v "$in")
				echo "$j" | awk -v t="$v (browser)" -v f="$fmt" \
				    -v b="$(wc -c < "$f")" -v n="$n" '{
				    ms = $0; sub(/.*"ms":/, "", ms); sub(/,.*/, "", ms)
				    h = $0; sub(/.*"heapMB":/, "", h); sub(/,.*/, "", h)
				    r = $0; sub(/.*"rendererMB":/, "", r); sub(/,.*/, "", r)
				    if (ms == "null") { printf "%s\t%s\t%s\t%s\tfail\t\t\t%s\n", t, f, b, n, $0; next }
				    printf "%s\t%s\t%s\t%s\t%.2f\t\t%d\trenderer peak; JS heap %s MB\n",
				    t, f, b, n, ms / 1000, (r == "null" ? h : r) * 1000, h }' >> "$R"
				tail -1 "$R" >&2
			done
		fi
		# Drop what the next size no longer needs.
		case " $BIG " in
		*" $s "*) rm -f "$f" ;;
		esac
	done
done

# The viewer and the call graph on a million stacks.
runs_now=$RUNS
say "generating a profile of 1,000,000 stacks"
"$BIN/ccs-gen" -q -t dump -n 1000000 -o "$D/m.dump"
m=$D/m.dump
row ccs2html dump "$m" 1000000 "$(run "'$BIN/ccs2html' -o '$D/m.html' '$m'")" \
    "output $(($(wc -c < "$D/m.html") / 1000000)) MB"
if [ $have_browser = 1 ]; then
	j=$(node tests/bench/browser.mjs html "$D/m.html")
	say "ccs2html page of 1,000,000 stacks: $j"
	echo "$j" > "$D/m.browser"
fi
if ! "$CRCSPEED" > "$D/crc.txt"; then
	say "crcspeed: a CRC-32 differs from zlib's"
	exit 1
fi
say "$(cat "$D/crc.txt")"
row "ccs2dot (DOT, no layout)" dump "$m" 1000000 \
    "$(run "'$BIN/ccs2dot' -o '$D/m.dot' '$m'")"
if command -v dot >/dev/null 2>&1; then
	for k in 20 40 80 160 320; do
		"$BIN/ccs2dot" --nodecount $k -o "$D/k.dot" "$m"
		row "dot -Tsvg, $k nodes" dot "$D/k.dot" 1000000 \
		    "$(run "timeout 600 dot -Tsvg -o /dev/null '$D/k.dot'")"
	done
fi

# ---- the table ----

table() {
	printf '| tool | format | input MB | nodes | wall s | MB/s | MB/s (CPU) | nodes/s | peak RSS MB | RSS B/node | note |\n'
	printf '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n'
	awk -F '\t' '{
		mb = $3 / 1e6
		if ($5 == "fail") {
			printf "| %s | %s | %.1f | %s | fail | | | | | | %s |\n", $1, $2, mb, $4, $8
			next
		}
		wall = $5 + 0; cpu = $6 + 0; rss = $7 / 1024
		printf "| %s | %s | %.1f | %s | %.3f | %s | %s | %s | %.1f | %s | %s |\n",
		    $1, $2, mb, $4, wall,
		    (wall > 0 ? sprintf("%.0f", mb / wall) : ""),
		    (cpu > 0 ? sprintf("%.0f", mb / cpu) : ""),
		    (wall > 0 && $4 > 0 ? sprintf("%.3g", $4 / wall) : ""),
		    rss, ($4 > 0 && $7 > 0 ? sprintf("%.0f", $7 * 1024 / $4) : ""), $8
	}' "$R"
}

ratios() {
	awk -F '\t' '
	$5 != "fail" { k = $2 "\t" $3; t[$1 "\t" k] = $5; h[$1 "\t" k] = $7;
	    keys[k] = 1 }
	END {
		for (k in keys) {
			split(k, a, "\t")
			if (("ccs-flat\t" k) in t && ("mawk (self)\t" k) in t)
				printf "- folded, %.0f MB: ccs-flat takes %.2f of mawk'"'"'s time, %.2f of gawk'"'"'s\n",
				    a[2] / 1e6, t["ccs-flat\t" k] / t["mawk (self)\t" k],
				    ((("gawk (self)\t" k) in t) ? t["ccs-flat\t" k] / t["gawk (self)\t" k] : 0)
			if (("html (browser)\t" k) in t && ("speedscope (browser)\t" k) in t)
				printf "- %s, %.0f MB in the browser: ccs2html page %.2f of speedscope'"'"'s time, %.2f of its JS heap\n",
				    a[1], a[2] / 1e6,
				    t["html (browser)\t" k] / t["speedscope (browser)\t" k],
				    ((h["speedscope (browser)\t" k] > 0) ? h["html (browser)\t" k] / h["speedscope (browser)\t" k] : 0)
		}
	}' "$R" | sort -t, -k1,1 -k2n
}

machine() {
	model=$(awk -F ': *' '/^model name/ { print $2; exit }' /proc/cpuinfo)
	mem=$(awk '/^MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo)
	printf 'Machine: %s, %s cores, %s RAM, Linux %s.  Date: %s.\n' \
	    "${model:-unknown CPU}" "$(nproc)" "$mem" "$(uname -r)" \
	    "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'Built with OPT="-O2 -DNDEBUG"; median of %s runs (%s on inputs of 10 MB or less); sizes %s.\n' \
	    "$RUNS" "$RUNS_SMALL" "$SIZES"
	if [ -f "$D/m.browser" ]; then
		printf 'ccs2html page of 1,000,000 stacks in Chromium: %s\n' \
		    "$(cat "$D/m.browser")"
	fi
	cat "$D/crc.txt"
}

{
	echo "<!-- bench:begin -->"
	machine
	echo
	table
	echo
	echo "Ratios (below 1: ccstools is faster or smaller):"
	echo
	ratios
	echo "<!-- bench:end -->"
} > "$D/section.md"

cat "$D/section.md"
if [ -f "$OUT" ] && grep -q '<!-- bench:begin -->' "$OUT"; then
	awk -v sec="$D/section.md" '
	    /<!-- bench:begin -->/ { while ((getline l < sec) > 0) print l; skip = 1; next }
	    /<!-- bench:end -->/ { skip = 0; next }
	    !skip' "$OUT" > "$D/out.md"
	cp "$D/out.md" "$OUT"
else
	cat "$D/section.md" >> "$OUT"
fi
say "wrote $OUT"
