# ccstools build configuration (included by the Makefile).

VERSION    = 0.1.0
SOVERSION  = 0

PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
LIBDIR    ?= $(PREFIX)/lib
INCLUDEDIR?= $(PREFIX)/include
MANPREFIX ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig

CC        ?= cc
PKG_CONFIG?= pkg-config
OPT       ?= -O2 -g
WARN       = -Wall -Wextra -Wpedantic
CFLAGS    ?= $(OPT)
CPPFLAGS  += -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE

# SAN=1 builds everything with AddressSanitizer and UBSan.
ifeq ($(SAN),1)
CFLAGS    += -fsanitize=address,undefined -fno-omit-frame-pointer
LDFLAGS   += -fsanitize=address,undefined
endif
