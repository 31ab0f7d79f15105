#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ccstools authors
#
# Make the seed corpora of the fuzz harnesses from the fixtures in
# tests/data: usage: mkcorpus.sh BINDIR OUTDIR.  BINDIR holds the built
# tools (ccs-convert turns fixtures into the binary formats); OUTDIR gets
# one directory per harness.  The .cgtxt and .hex fixtures are encoded as
# the tests encode them (tests/formats/test_pgcl.c, test_ccsdump.c), with
# perl.  Run from the top of the source tree.
set -eu

bin=$1
out=$2
d=tests/data
tmp=$out/.tmp
rm -rf "$out"
mkdir -p "$out/pgcl" "$out/dump" "$out/ghcprof" "$out/ghcjson" \
    "$out/folded" "$out/json" "$out/gzip" "$out/roundtrip" "$tmp"

# A .cgtxt file (see test_pgcl.c) as bytes.
cgtxt() {
	perl -e '
	local $/; my $s = <STDIN>; my $o = "";
	sub varint { my $v = shift; my $r = "";
		do { my $c = $v & 0x7f; $v >>= 7; $c |= 0x80 if $v;
		    $r .= chr($c) } while ($v); return $r }
	while (length $s) {
		if ($s =~ s/^\s+//) { next }
		if ($s =~ s/^#[^\n]*//) { next }
		if ($s =~ s/^"([^"]*)"(-?)//) { $o .= $1; $o .= "\0" unless $2; next }
		if ($s =~ s/^u32:(\d+)//) { $o .= pack("V", $1); next }
		if ($s =~ s/^x:((?:[0-9a-fA-F]{2})*)//) { $o .= pack("H*", $1); next }
		if ($s =~ s/^(-?\d+)//) { $o .= varint($1 & 0xffffffffffffffff); next }
		die "cgtxt: bad token at " . substr($s, 0, 10) . "\n";
	}
	binmode STDOUT; print $o;' < "$1"
}

# A .hex file (see test_ccsdump.c) as bytes.
hex() {
	sed 's/#.*//' "$1" | perl -e 'local $/; my $s = <STDIN>;
	    $s =~ s/\s+//g; binmode STDOUT; print pack("H*", $s)'
}

# Text fixtures, by format.
for f in $d/ghc/*.prof; do cp "$f" "$out/ghcprof/"; done
for f in $d/ghcjson/*.json; do cp "$f" "$out/ghcjson/"; done
# Small GHC JSON profiles too: the fixtures are 25 KB, slow to mutate.
cat > "$out/ghcjson/small.json" <<'EOF'
{
"program": "t",
"arguments": ["./t", "a b"],
"rts_arguments": ["-pj"],
"end_time": "Sun Nov 22 04:04 2026",
"initial_capabilities": 2,
"total_time":        0.04,
"total_ticks": 41,
"tick_interval": 1000,
"total_alloc":3789,
"cost_centres": [
{"id": 3, "label": "MAIN", "module": "MAIN", "src_loc": "<built-in>", "is_caf": false},
{"id": 2, "label": "CAF", "module": "Main", "src_loc": "<entire-module>", "is_caf": true},
{"id": 1, "label": "f\u00e9\n", "module": "Main", "src_loc": "T.hs:1:1-9", "is_caf": false}],
"profile": {"id": 3, "entries": 0, "alloc": 10, "ticks": 1, "children": [
{"id": 2, "entries": 0, "alloc": 0, "ticks": 0, "children": [
{"id": 1, "entries": 7, "alloc": 3779, "ticks": 40, "children": [
{"id": 1, "entries": 1, "alloc": 0, "ticks": 0, "children": []}]}]}]}
}
EOF
cat > "$out/ghcjson/keys-reordered.json" <<'EOF'
{"profile": {"children": [{"children": [], "ticks": 2, "alloc": 5,
"entries": 1, "id": 1}], "ticks": 0, "alloc": 0, "entries": 0, "id": 2},
"cost_centres": [{"is_caf": false, "src_loc": "", "module": "M",
"label": "g", "id": 1}, {"id": 2, "label": "MAIN", "module": "MAIN",
"src_loc": "<built-in>", "is_caf": false}], "program": "r",
"total_ticks": 2}
EOF
for f in $d/paper/*.folded $d/stacks/*.folded; do
	cp "$f" "$out/folded/"
done
cp $d/tools/escapes.folded "$out/folded/tools-escapes.folded"
cp $d/dot/hostile.folded "$out/folded/"

# Binary fixtures.
cp $d/pgcl/*.pgcl "$out/pgcl/"
for f in $d/pgcl/*.cgtxt; do
	cgtxt "$f" > "$out/pgcl/$(basename "$f" .cgtxt).pgcl"
done
hex $d/dump/small.hex > "$out/dump/small.dump"

# The same profiles converted to the formats ccstools writes.
conv() {
	# conv FORMAT DIR EXT [OPTIONS]: every small fixture to FORMAT.
	fmt=$1 dir=$2 ext=$3
	shift 3
	for f in $d/ghc/mj.prof $d/ghc/demo.prof $d/ghc/old-ghc68.prof \
	    $d/ghc/quirks-N2.prof $d/ghcjson/mj.json $d/paper/fig7.folded \
	    $d/paper/s2.4-uncompressed.folded $d/stacks/escapes.folded \
	    $d/pgcl/synthetic-400.pgcl "$out/pgcl/v1-6.pgcl" \
	    "$out/pgcl/v2-repeat-modules.pgcl"; do
		b=$(basename "$f" | tr . -)
		"$bin/ccs-convert" -t "$fmt" "$@" -o "$dir/$b.$ext" "$f" \
		    2>/dev/null || rm -f "$dir/$b.$ext"
	done
}
conv dump "$out/dump" dump
conv json "$out/json" json
conv pgcl "$out/pgcl" pgcl
conv pgcl "$tmp" v1.pgcl --pgcl-version 1
mv "$tmp"/*.v1.pgcl "$out/pgcl/" 2>/dev/null || :
conv folded "$out/folded" folded

# The input layer: gzip files of every format, and one plain file.
for f in "$out/pgcl/v1-7.pgcl" "$out/dump/small.dump" \
    "$out/json/mj-prof.json" $d/ghc/mj.prof $d/ghc/old-ghc68.prof \
    $d/ghcjson/mj.json $d/paper/fig7.folded; do
	gzip -9nc "$f" > "$out/gzip/$(basename "$f").gz"
done
cat "$out/gzip/fig7.folded.gz" "$out/gzip/mj.prof.gz" \
    > "$out/gzip/two-members.gz"
{ cat "$out/gzip/fig7.folded.gz"; printf 'junk\n'; } > "$out/gzip/trailing.gz"
cp $d/paper/s2.3-theta.folded "$out/gzip/"

# Everything after the reader: a few of each format.
for f in "$out/pgcl/synthetic-400.pgcl" "$out/pgcl/v1-7.pgcl" \
    "$out/dump/small.dump" "$out/json/mj-prof.json" $d/ghc/mj.prof \
    $d/ghc/demo.P.prof $d/ghc/old-ghc82-N4.prof $d/ghcjson/mj.json \
    $d/paper/*.folded $d/stacks/escapes.folded; do
	cp "$f" "$out/roundtrip/"
done
rm -rf "$tmp"
