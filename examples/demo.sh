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
step "De-select rev: its costs go to the callers (Morgan & Jarvis 2.3)" \
    "$bin/ccs-flat" -m alloc -d rev "$prof"
