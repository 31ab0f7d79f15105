#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Copyright (c) 2026 The ccstools authors
#
# make installcheck: install into a staging directory under a prefix
# other than the default (so that a path fixed at build time shows), and
# check that what was installed works from there:
#   - the installed tools run and give what the built ones give, and
#     draw SVG and write HTML, loading Graphviz and libxml2;
#   - every man page is in place;
#   - the headers are pdb.h, formats.h and the writers' options alone,
#     and these hold none of the format layer's insides (formats_int.h):
#     a file that includes one alone compiles warning-free as strict C11
#     (formats.h as C++ too), and a program writes SVG through
#     pdb_dot_opts;
#   - the pkg-config files name the directories from the prefix;
#   - the program of libprofdb(3) compiles warning-free through the
#     installed pkg-config files alone, links the installed libprofdb.so
#     and prints what the page says, and built as C++ (where there is a
#     C++ compiler) it links and prints the same;
#   - "make uninstall" leaves no file behind.
# Usage: tests/installcheck.sh BUILDDIR
set -eu

B=${1:-build}
prefix=/opt/ccstools
stage=$(mktemp -d "${TMPDIR:-/tmp}/ccs-installcheck.XXXXXX")
trap 'rm -rf "$stage"' EXIT INT TERM
root=$stage$prefix

fail() {
	echo "installcheck: $*" >&2
	exit 1
}

make --no-print-directory B="$B" PREFIX="$prefix" DESTDIR="$stage" \
    install >/dev/null

# The tools, from where they were installed.
for t in "$B"/bin/*; do
	[ -x "$root/bin/${t##*/}" ] || fail "${t##*/} not installed"
done
"$root/bin/ccs-hot" examples/mj.P.prof > "$stage/hot.installed"
"$B/bin/ccs-hot" examples/mj.P.prof > "$stage/hot.built"
cmp -s "$stage/hot.installed" "$stage/hot.built" ||
    fail "the installed ccs-hot differs from the built one"
# The writers that load Graphviz and libxml2 when they first write.
"$root/bin/ccs2dot" -T svg examples/mj.P.prof | grep -q '</svg>' ||
    fail "the installed ccs2dot draws no SVG"
"$root/bin/ccs-convert" -t html examples/mj.P.prof | grep -q '</html>' ||
    fail "the installed ccs-convert writes no HTML"

# The man pages.
for m in man/*.[135]; do
	s=${m##*.}
	[ -f "$root/share/man/man$s/${m##*/}" ] || fail "$m not installed"
done

# The headers: what a program uses, none of the readers' and writers'
# insides, which stay in formats_int.h: no intrinsics, no compiler
# attributes, no layout of a reader's input.
want="fmt_callgrind.h fmt_dot.h fmt_html.h formats.h pdb.h"
hdrs=$(cd "$root/include/ccstools" && echo *)
[ "$hdrs" = "$want" ] ||
    fail "the headers installed are '$hdrs', not '$want'"
for h in fmt_callgrind.h fmt_dot.h fmt_html.h formats.h; do
	for s in immintrin 'struct pdb_input {' __attribute__; do
		if grep -qF "$s" "$root/include/ccstools/$h"; then
			fail "the installed $h has the format layer's insides: $s"
		fi
	done
done

# The library, through the installed pkg-config files only.
PKG_CONFIG_SYSROOT_DIR=$stage
PKG_CONFIG_PATH=$root/lib/pkgconfig
export PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH
# (pkg-config puts the sysroot before the variables too.)
case $(pkg-config --variable=libdir ccsformats) in
"$root/lib") ;;
*) fail "ccsformats.pc: libdir is not $prefix/lib" ;;
esac
# Directories under the prefix follow it: an install moved elsewhere is
# found by defining the prefix.
for p in profdb ccsformats; do
	for v in libdir:/moved/lib headerdir:/moved/include/ccstools; do
		got=$(PKG_CONFIG_SYSROOT_DIR= pkg-config \
		    --define-variable=prefix=/moved --variable="${v%%:*}" $p)
		[ "$got" = "${v#*:}" ] ||
		    fail "$p.pc: ${v%%:*} is '$got' with the prefix /moved"
	done
done

# The installed headers, as a program includes them: each on its own
# builds, and a writer's options reach it (the SVG of ccs2dot -T svg).
cat > "$stage/formats-only.c" <<'EOF'
#include <formats.h>

int
main(void)
{
	const struct pdb_format *f = pdb_format_find("pgcl");

	return f != NULL && f->abi == PDB_FORMAT_ABI ? 0 : 1;
}
EOF
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -c \
    -o "$stage/formats-only.o" "$stage/formats-only.c" \
    $(pkg-config --cflags ccsformats) 2> "$stage/cc.err" ||
    fail "a file that includes formats.h alone does not build: $(cat "$stage/cc.err")"
[ -s "$stage/cc.err" ] && fail "warnings: $(cat "$stage/cc.err")"
if command -v "${CXX:-c++}" >/dev/null 2>&1; then
	${CXX:-c++} -Wall -Wextra -Wpedantic -Werror -c \
	    -o "$stage/formats-only.o" -x c++ "$stage/formats-only.c" \
	    $(pkg-config --cflags ccsformats) 2> "$stage/cc.err" ||
	    fail "a file that includes formats.h alone does not build as C++: $(cat "$stage/cc.err")"
fi
for h in fmt_callgrind.h fmt_dot.h fmt_html.h; do
	printf '#include <%s>\n' "$h" > "$stage/alone.c"
	${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -c \
	    -o "$stage/alone.o" "$stage/alone.c" \
	    $(pkg-config --cflags ccsformats) 2> "$stage/cc.err" ||
	    fail "a file that includes $h alone does not build: $(cat "$stage/cc.err")"
done
cat > "$stage/svg.c" <<'EOF'
#include <stdio.h>
#include <fmt_dot.h>

int
main(int argc, char *argv[])
{
	struct pdb_dot_opts dot = PDB_DOT_OPTS_DEFAULT;
	struct pdb_opts opts = { 0 };
	struct pdb *db = pdb_new();

	dot.render = "svg";
	opts.writer_opts = &dot;
	if (argc != 2 || db == NULL ||
	    pdb_read_tree(db, argv[1], NULL, NULL, NULL) != PDB_OK ||
	    pdb_write(db, stdout, pdb_format_find("dot"), &opts) != PDB_OK) {
		fprintf(stderr, "svg: %s\n", db ? pdb_errmsg(db) : "no memory");
		return 1;
	}
	pdb_free(db);
	return 0;
}
EOF
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$stage/svg" \
    "$stage/svg.c" $(pkg-config --cflags --libs ccsformats) \
    2> "$stage/cc.err" ||
    fail "a program writing SVG does not build: $(cat "$stage/cc.err")"
LD_LIBRARY_PATH=$root/lib "$stage/svg" examples/mj.P.prof |
    grep -q '</svg>' || fail "pdb_dot_opts does not reach the DOT writer"
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$stage/top" \
    tests/data/examples/libprofdb-example.c \
    $(pkg-config --cflags --libs ccsformats) 2> "$stage/cc.err" ||
    fail "the program of libprofdb(3) does not build: $(cat "$stage/cc.err")"
[ -s "$stage/cc.err" ] && fail "warnings: $(cat "$stage/cc.err")"
LD_LIBRARY_PATH=$root/lib ldd "$stage/top" |
    grep -q "libprofdb.so.0 => $root/lib/libprofdb.so.0" ||
    fail "the program does not load the installed libprofdb.so"
out=$(LD_LIBRARY_PATH=$root/lib "$stage/top" examples/mj.P.prof)
[ "$out" = "Main.rev 47 ticks" ] ||
    fail "the program of libprofdb(3) printed '$out'"
if command -v "${CXX:-c++}" >/dev/null 2>&1; then
	${CXX:-c++} -Wall -Wextra -Werror -o "$stage/top" -x c++ \
	    tests/data/examples/libprofdb-example.c -x none \
	    $(pkg-config --cflags --libs ccsformats) 2> "$stage/cc.err" ||
	    fail "the program of libprofdb(3) does not build as C++: $(cat "$stage/cc.err")"
	out=$(LD_LIBRARY_PATH=$root/lib "$stage/top" examples/mj.P.prof)
	[ "$out" = "Main.rev 47 ticks" ] ||
	    fail "the program of libprofdb(3) built as C++ printed '$out'"
fi

# Nothing left by uninstall but empty directories.
make --no-print-directory B="$B" PREFIX="$prefix" DESTDIR="$stage" \
    uninstall >/dev/null
left=$(find "$stage" ! -type d ! -name '*.installed' ! -name '*.built' \
    ! -name top ! -name cc.err ! -name 'formats-only.*' ! -name 'alone.*' \
    ! -name 'svg*')
[ -z "$left" ] || fail "left after uninstall: $left"
echo "installcheck: installed, used and uninstalled under $prefix"
