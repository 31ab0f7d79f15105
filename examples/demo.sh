#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ccstools authors
#
# The demo behind "make demo": GHC's profile of the example program of
# Morgan & Jarvis 3.1 (examples/mj-Main.hs, compiled with -prof
# -fprof-auto and run with +RTS -P), analysed with the built tools.
#
# usage: sh examples/demo.sh [bindir]
set -eu

bin=${1:-build/bin}
here=$(dirname "$0")
corpus=$here/../../shared/corpus/ghc

# Refresh the bundled copies from the shared corpus when it is there;
# otherwise use the copies committed in examples/.
if [ -d "$corpus" ]; then
	for f in mj.prof mj.P.prof mj.json mj-Main.hs; do
		if [ -f "$corpus/$f" ] && ! cmp -s "$corpus/$f" "$here/$f"; then
			cp "$corpus/$f" "$here/$f"
			chmod 644 "$here/$f"
		fi
	done
fi
prof=$here/mj.P.prof

step() {
	printf '\n==> %s\n' "$1"
	shift
	printf '$ %s\n\n' "$*"
	"$@"
}

echo "ccstools demo: $prof, GHC's profile of $here/mj-Main.hs"
step "Flat (self) and inherited profile, in ticks" \
    "$bin/ccs-flat" "$prof"
step "The same profile measured in bytes allocated" \
    "$bin/ccs-flat" -m alloc "$prof"
step "The hot stack and the expensive arm (Morgan & Jarvis 3)" \
    "$bin/ccs-hot" -n 3 "$prof"
step "De-select rev: its costs go to the callers (Morgan & Jarvis 2.3)" \
    "$bin/ccs-flat" -d rev "$prof"
step "The same, in bytes allocated: j now owns what its revs cost" \
    "$bin/ccs-flat" -m alloc -d rev "$prof"
step "Who calls rev, and at what cost (the inverted call graph)" \
    "$bin/ccs-callers" -m alloc rev "$prof"

# The exports: KCacheGrind, a call-graph image, the browser viewer.
out=$here
"$bin/ccs2callgrind" "$prof" -o "$out/callgrind.out.mj"
"$bin/ccs2dot" -T svg -m alloc "$prof" -o "$out/mj.svg"
"$bin/ccs2html" "$prof" -o "$out/mj.html"
cat <<EOF

==> Exports of the same profile
  $out/callgrind.out.mj   kcachegrind $out/callgrind.out.mj
                               (or: callgrind_annotate --inclusive=yes $out/callgrind.out.mj)
  $out/mj.svg              the call graph (Fig. 10 of the paper): open it in a browser
  $out/mj.html             the interactive viewer: open it in a browser (no network needed)
EOF
