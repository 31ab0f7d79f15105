# ccstools build configuration (included by the Makefile).

VERSION    = 0.1.0
SOVERSION  = 0

PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
LIBDIR    ?= $(PREFIX)/lib
INCLUDEDIR?= $(PREFIX)/include
# pdb.h and formats.h: a directory of their own, as the names are common.
HEADERDIR ?= $(INCLUDEDIR)/ccstools
MANPREFIX ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

# 1: the tools take zlib, Jansson and yajl from their static archives
# (libz.a, libjansson.a, libyajl_s.a, from the -dev packages) where they
# are installed; 0: shared.  Each shared library costs some 45 us to map
# and relocate at every start, a twentieth of a run on 1 MB
# (BENCHMARKS.md, twelfth round).
STATIC_DEPS ?= 1

CC        ?= cc
PKG_CONFIG?= pkg-config
OPT       ?= -O2 -g
WARN       = -Wall -Wextra -Wpedantic
CFLAGS    ?= $(OPT)
CPPFLAGS  += -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE

# SAN=1 builds everything with AddressSanitizer and UBSan, into build-san/.
# The tests then run sanitized tools too: any report, leaks included,
# makes the process fail.
# The readers' buffers are made small there (PDB_SMALL_BUFFERS,
# formats/input.c), so that every reader meets the end of its buffer,
# with a token or an escape cut in two, many times a file.
ifeq ($(SAN),1)
CFLAGS    += -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=all
CPPFLAGS  += -DPDB_SMALL_BUFFERS
LDFLAGS   += -fsanitize=address,undefined
# Reports go to files $(B)/sanitizer.PID, from the test runner and from
# every tool it starts: "make check" fails when there is any, even from a
# tool whose failure a test expected.
SAN_LOG    = $(abspath $(B))/sanitizer
SAN_ENV    = ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:exitcode=1:detect_stack_use_after_return=1:log_path=$(SAN_LOG) \
             UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$(SAN_LOG) \
             LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
endif
