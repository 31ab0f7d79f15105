# ccstools: libprofdb, the format modules, the ccs-* tools, tests, man pages.
# One non-recursive Makefile; settings live in config.mk.

include config.mk

# SAN=1 builds into a directory of its own, so that sanitized and plain
# objects never mix.
ifeq ($(SAN),1)
B          = build-san
else
B          = build
endif
# -fno-math-errno: sqrt() an instruction, not a call into libm, which
# no tool then loads (no code reads errno after a math function).
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) -fPIC -MMD -MP -fno-math-errno \
             -Ilibprofdb -Iformats -Itools -Itools/lib -DPDB_BUILDING
ZLIB_LIBS  = $(shell $(PKG_CONFIG) --libs zlib)
DEP_PKGS   = zlib jansson yajl libxml-2.0 libcgraph libgvc
DEP_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(DEP_PKGS))
DEP_LIBS   = $(shell $(PKG_CONFIG) --libs $(DEP_PKGS))
# The tools are not linked with Graphviz and libxml2: the DOT and HTML
# writers load them when they first write (formats/dynlib.c), under the
# sonames of the libraries built against, read from them here.  They
# take zlib, Jansson and yajl from their static archives where those are
# installed, unless STATIC_DEPS=0 (config.mk).
archive    = $(filter /%,$(shell $(CC) -print-file-name=$(1)))
DEP_ARCHIVES = $(foreach a,libz.a libjansson.a libyajl_s.a,$(call archive,$(a)))
ifeq ($(STATIC_DEPS):$(words $(DEP_ARCHIVES)),1:3)
TOOL_LIBS  = $(DEP_ARCHIVES) -ldl
STATIC_DEFS= -DCCS_STATIC_DEPS=1
else
TOOL_LIBS  = $(shell $(PKG_CONFIG) --libs zlib jansson yajl) -ldl
endif
soname     = $(shell objdump -p "$$($(PKG_CONFIG) --variable=libdir $(1))/$(2).so" \
             2>/dev/null | awk '$$1 == "SONAME" { print $$2 }')
soname_def = $(if $(call soname,$(1),$(2)),-DPDB_SONAME_$(3)='"$(call soname,$(1),$(2))"')
DYNLIB_DEFS= $(call soname_def,libcgraph,libcgraph,cgraph) \
             $(call soname_def,libgvc,libgvc,gvc) \
             $(call soname_def,libxml-2.0,libxml2,xml2)
CRIT_CFLAGS= $(shell $(PKG_CONFIG) --cflags criterion)
CRIT_LIBS  = $(shell $(PKG_CONFIG) --libs criterion)

LIB_SRCS   = $(sort $(wildcard libprofdb/*.c))
FMT_SRCS   = $(sort $(wildcard formats/*.c))
TOOL_SRCS  = $(sort $(wildcard tools/*.c))
# What every tool is linked with (tools/lib/common.h).
TLIB_SRCS  = $(sort $(wildcard tools/lib/*.c))
TLIB_OBJS  = $(TLIB_SRCS:%.c=$(B)/%.o)
# The parts of the tools too big for one file, a directory each.
GEN_SRCS   = $(sort $(wildcard tools/gen/*.c))
HOT_SRCS   = $(sort $(wildcard tools/hot/*.c))
TOOLS      = $(patsubst tools/%.c,%,$(TOOL_SRCS))
TEST_SRCS  = $(sort $(wildcard tests/lib/*.c tests/formats/*.c tests/tools/*.c))
# tests/fuzz: the fuzz harnesses, which replay their regression files.
TEST_HELP  = $(sort $(wildcard tests/support/*.c tests/fuzz/*.c))
MANS       = $(sort $(wildcard man/*.[135]))

LIB_OBJS   = $(LIB_SRCS:%.c=$(B)/%.o)
# The HTML viewer's script and style, compiled in as byte arrays.
VIEWER     = formats/html/viewer.js formats/html/viewer.css
FMT_OBJS   = $(FMT_SRCS:%.c=$(B)/%.o) $(B)/formats/html/viewer_js.o \
             $(B)/formats/html/viewer_css.o
TEST_OBJS  = $(TEST_SRCS:%.c=$(B)/%.o) $(TEST_HELP:%.c=$(B)/%.o)
BINS       = $(TOOLS:%=$(B)/bin/%)

SONAME     = libprofdb.so.$(SOVERSION)

.PHONY: all check lint tidy valgrind demo deps install uninstall installcheck \
        clean bench
all: $(B)/libprofdb.a $(B)/$(SONAME) $(B)/libccsformats.a $(BINS) \
    $(B)/profdb.pc $(B)/ccsformats.pc

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEP_CFLAGS) -c $< -o $@

$(B)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEP_CFLAGS) $(CRIT_CFLAGS) -Itests/support -c $< -o $@

# The array's name is given here: made anew when this file changes.
$(B)/formats/html/viewer_%.c: formats/html/viewer.% formats/html/embed.sh \
    Makefile
	@mkdir -p $(@D)
	sh formats/html/embed.sh pdbi_viewer_$* $< > $@

$(B)/formats/html/viewer_%.o: $(B)/formats/html/viewer_%.c
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(B)/formats/dynlib.o $(B)/tests/tools/test_linking.o: CPPFLAGS += $(DYNLIB_DEFS)
$(B)/tests/tools/test_linking.o: CPPFLAGS += $(STATIC_DEFS)

$(B)/libprofdb.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

# The version script keeps inside the library all but the API of pdb.h
# and the pdb_cpu_*() of formats_int.h (libprofdb/libprofdb.map).
$(B)/$(SONAME): $(LIB_OBJS) libprofdb/libprofdb.map
	$(CC) -shared -Wl,-soname,$(SONAME) \
	    -Wl,--version-script=libprofdb/libprofdb.map $(LDFLAGS) -o $@ \
	    $(filter %.o,$^)
	ln -sf $(SONAME) $(B)/libprofdb.so

$(B)/libccsformats.a: $(FMT_OBJS)
	rm -f $@ && ar rcs $@ $^

# --as-needed: a tool linked with the shared libraries loads only those
# it calls.  The objects go before the archives that serve them.
$(B)/bin/%: $(B)/tools/%.o $(TLIB_OBJS) $(B)/libccsformats.a $(B)/libprofdb.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -Wl,--as-needed -o $@ $(filter %.o,$^) \
	    $(filter %.a,$^) $(TOOL_LIBS) -lm

$(B)/bin/ccs-gen: $(GEN_SRCS:%.c=$(B)/%.o)
$(B)/bin/ccs-hot: $(HOT_SRCS:%.c=$(B)/%.o)

# The pkg-config files name the directories of the install, which may be
# given only to "make install": it writes them anew (PC_SUBST).  A
# directory under the prefix is written from ${prefix}, so that
# --define-variable=prefix=DIR (or pkgconf's --define-prefix) finds an
# install moved elsewhere.
PC_LIBDIR  = $(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))
PC_INCDIR  = $(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))
PC_HDRDIR  = $(patsubst $(INCLUDEDIR)/%,$${includedir}/%,$(HEADERDIR))
PC_SUBST   = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(PC_LIBDIR)|' \
             -e 's|@INCLUDEDIR@|$(PC_INCDIR)|' -e 's|@HEADERDIR@|$(PC_HDRDIR)|' \
             -e 's|@VERSION@|$(VERSION)|'
$(B)/%.pc: %.pc.in config.mk
	@mkdir -p $(@D)
	$(PC_SUBST) $< > $@

# Every allocation of the static libraries and the tests goes through
# tests/support/failalloc.c, which can make the n-th one fail.
TEST_WRAP  = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup,--wrap=free

# The tools' shared code (tools/lib/) is tested directly too.
$(B)/run-tests: $(TEST_OBJS) $(TLIB_OBJS) $(B)/libccsformats.a \
    $(B)/libprofdb.a
	$(CC) $(LDFLAGS) $(TEST_WRAP) -o $@ $^ $(CRIT_LIBS) $(DEP_LIBS) -lm

# A shim the tests preload into a tool to cut its input file while it
# reads it (tests/shim/shrink-input.c); built without the sanitizers.
$(B)/shrink-input.so: tests/shim/shrink-input.c
	@mkdir -p $(@D)
	$(CC) -std=c11 -O2 -Wall -Wextra -shared -fPIC -o $@ $< -ldl

# Install missing Debian packages (as root) before anything is compiled.
deps:
	@sh .ci/install-deps

# The tests run the built tools from $(B)/bin and read tests/data.  The
# build runs in a new make, so that it sees what deps installed.  Then
# make lint, which does not depend on the build: SAN=1 leaves it out.
# The tests make their temporary files in TEST_TMP, new for each run
# (tests/support/testutil.h); when they pass, anything left there is a
# test that does not clean up, and fails the run.
CHECK_LINT = $(if $(filter 1,$(SAN)),,$(MAKE) --no-print-directory lint)
TEST_TMP   = $(abspath $(B))/test-tmp
check: deps
	@$(MAKE) --no-print-directory all $(B)/run-tests $(B)/shrink-input.so
	@rm -f $(B)/sanitizer.*
	@rm -rf $(TEST_TMP) && mkdir -p $(TEST_TMP)
	$(SAN_ENV) CCS_BIN=$(abspath $(B))/bin CCS_TEST_TMPDIR=$(TEST_TMP) \
	    $(B)/run-tests --jobs 2 $(CHECK_FLAGS); \
	st=$$?; if ls $(B)/sanitizer.* >/dev/null 2>&1; then \
	    cat $(B)/sanitizer.* >&2; \
	    echo "check: sanitizer reports (above, in $(B)/sanitizer.*)" >&2; \
	    exit 1; fi; \
	if [ $$st -eq 0 ] && [ -n "$$(ls -A $(TEST_TMP))" ]; then \
	    ls -A $(TEST_TMP) >&2; \
	    echo "check: the tests left files (above) in $(TEST_TMP)" >&2; \
	    exit 1; fi; exit $$st
	+$(CHECK_LINT)

# Static analysis.  Remaining cppcheck findings are suppressed in
# tests/cppcheck.supp and clang-tidy's in .clang-tidy, each explained in
# tests/ANALYSIS.md.
ANALYZED   = $(LIB_SRCS) $(FMT_SRCS) $(TLIB_SRCS) $(TOOL_SRCS) $(GEN_SRCS) \
             $(HOT_SRCS)
CPPCHECK_FLAGS = --std=c11 -q -j2 --error-exitcode=1 --inline-suppr \
             --enable=warning,style,performance,portability \
             --suppressions-list=tests/cppcheck.supp \
             -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DPDB_BUILDING \
             -Ilibprofdb -Iformats -Itools -Itools/lib

# Throughput and memory against the tools people use today; not a test
# and not in CI.  Updates BENCHMARKS.md (see tests/bench/bench.sh).
bench:
	sh tests/bench/bench.sh

lint:
	mandoc -Tlint -Wwarning $(MANS)
	cppcheck $(CPPCHECK_FLAGS) $(ANALYZED)

# clang-tidy with the checks of .clang-tidy (bugprone, cert,
# clang-analyzer); every finding is an error but those of the checks
# .clang-tidy keeps as warnings, each explained in tests/ANALYSIS.md.
# Run by .ci/run as make -j2 tidy.  One clang-tidy per file: clang-tidy
# 14 given several files reports every va_start()ed va_list in the
# second and later ones as uninitialised (clang-analyzer-valist).
TIDY_FILES = $(ANALYZED:%=tidy/%)
.PHONY: $(TIDY_FILES)
tidy: $(TIDY_FILES)
$(TIDY_FILES): tidy/%: %
	clang-tidy --quiet $< -- -std=c11 $(CPPFLAGS) -DPDB_BUILDING \
	    -Ilibprofdb -Iformats -Itools -Itools/lib $(DEP_CFLAGS)

# Every tool under valgrind on every input format and on bad input: no
# error, no definite leak (tests/valgrind.sh; run by .ci/run).  Not with
# SAN=1: valgrind cannot run sanitized programs.
valgrind: deps
	@$(MAKE) --no-print-directory all
	sh tests/valgrind.sh $(B)/bin

# The main job on the bundled example: GHC's profile of the paper's program.
demo: deps
	@$(MAKE) --no-print-directory all
	@sh examples/demo.sh $(B)/bin

# The installed headers: the API, and the options of the writers that
# have their own (pdb_opts.writer_opts).
HEADERS    = libprofdb/pdb.h formats/formats.h formats/fmt_callgrind.h \
             formats/fmt_dot.h formats/fmt_html.h

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(HEADERDIR) \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANPREFIX)/man1 \
	    $(DESTDIR)$(MANPREFIX)/man3 $(DESTDIR)$(MANPREFIX)/man5
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -m 644 $(B)/libprofdb.a $(DESTDIR)$(LIBDIR)
	install -m 755 $(B)/$(SONAME) $(DESTDIR)$(LIBDIR)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libprofdb.so
	install -m 644 $(B)/libccsformats.a $(DESTDIR)$(LIBDIR)
	install -m 644 $(HEADERS) $(DESTDIR)$(HEADERDIR)
	for p in profdb ccsformats; do \
	    $(PC_SUBST) $$p.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/$$p.pc && \
	    chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/$$p.pc || exit 1; done
	for m in $(MANS); do \
	    s=$${m##*.}; install -m 644 $$m $(DESTDIR)$(MANPREFIX)/man$$s; done

uninstall:
	for t in $(TOOLS); do rm -f $(DESTDIR)$(BINDIR)/$$t; done
	rm -f $(DESTDIR)$(LIBDIR)/libprofdb.a $(DESTDIR)$(LIBDIR)/$(SONAME) \
	    $(DESTDIR)$(LIBDIR)/libprofdb.so $(DESTDIR)$(LIBDIR)/libccsformats.a \
	    $(DESTDIR)$(PKGCONFIGDIR)/profdb.pc $(DESTDIR)$(PKGCONFIGDIR)/ccsformats.pc
	for h in $(HEADERS); do rm -f $(DESTDIR)$(HEADERDIR)/$${h##*/}; done
	rmdir $(DESTDIR)$(HEADERDIR) 2>/dev/null || :
	for m in $(MANS); do \
	    s=$${m##*.}; rm -f $(DESTDIR)$(MANPREFIX)/man$$s/$${m##*/}; done

# What "make install" puts in place works from there: the program of
# libprofdb(3) builds through the installed pkg-config files and runs,
# so do the installed tools, and "make uninstall" leaves no file behind
# (tests/installcheck.sh; run by .ci/run).
installcheck: all
	sh tests/installcheck.sh $(B)

# ---- fuzzing (tests/FUZZING.md) ----
# One libFuzzer harness per tests/fuzz/fuzz_NAME.c, built with clang,
# ASan and UBSan as $(FB)/fuzz_NAME; the library and the formats are
# compiled again for them, never shared with the gcc objects.  fuzz-run
# runs each for FUZZ_SECONDS on its corpus, its seeds (made from
# tests/data) and its regression files (tests/data/fuzz/NAME), which
# make check replays too; fuzz-replay only replays.  fuzz-run-NAME runs
# one; make -j2 fuzz-run runs two at a time, as .ci/run does.
FUZZ_CC      = clang
FUZZ_SECONDS = 60
FUZZ_OPTS    = -rss_limit_mb=2048 -timeout=10 -print_final_stats=1
FB           = $(B)/fuzz
FUZZ_CFLAGS  = -std=c11 -g -O1 -fno-omit-frame-pointer -MMD -MP \
               -fsanitize=fuzzer-no-link,address,undefined \
               -fno-sanitize-recover=undefined -DFUZZ_LIBFUZZER \
               -Ilibprofdb -Iformats -Itools -Itools/lib -DPDB_BUILDING
FUZZ_NAMES   = $(patsubst tests/fuzz/fuzz_%.c,%,\
               $(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_OBJS    = $(patsubst %.c,$(FB)/%.o,$(LIB_SRCS) $(FMT_SRCS) \
               tests/fuzz/fuzzutil.c) $(FB)/viewer_js.o $(FB)/viewer_css.o

.PHONY: fuzz fuzz-run fuzz-replay
.SECONDARY: $(FUZZ_NAMES:%=$(FB)/tests/fuzz/fuzz_%.o) $(FUZZ_OBJS)
fuzz: $(FUZZ_NAMES:%=$(FB)/fuzz_%) $(FUZZ_NAMES:%=$(FB)/%.dict) \
    $(FB)/seeds/.made

$(FB)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) $(DEP_CFLAGS) -c $< -o $@

$(FB)/viewer_%.o: $(B)/formats/html/viewer_%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c $< -o $@

$(FB)/fuzz_%: $(FB)/tests/fuzz/fuzz_%.o $(FUZZ_OBJS)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^ $(DEP_LIBS) -lm

$(FB)/%.dict: tests/fuzz/%.dict
	@mkdir -p $(@D)
	cp $< $@

$(FB)/roundtrip.dict: $(sort $(wildcard tests/fuzz/*.dict))
	@mkdir -p $(@D)
	cat $^ > $@

$(FB)/seeds/.made: tests/fuzz/mkcorpus.sh $(B)/bin/ccs-convert \
    $(wildcard tests/data/*/*)
	sh tests/fuzz/mkcorpus.sh $(B)/bin $(FB)/seeds
	touch $@

fuzz-run: $(FUZZ_NAMES:%=fuzz-run-%)

fuzz-run-%: fuzz
	@mkdir -p $(FB)/corpus/$* $(FB)/artifacts/$*
	@echo "fuzz $*: $(FUZZ_SECONDS) s, log in $(FB)/$*.log"
	@nice -n 19 $(FB)/fuzz_$* $(FUZZ_OPTS) -max_total_time=$(FUZZ_SECONDS) \
	    -dict=$(FB)/$*.dict -artifact_prefix=$(FB)/artifacts/$*/ \
	    $(FB)/corpus/$* $(FB)/seeds/$* $(wildcard tests/data/fuzz/$*) \
	    > $(FB)/$*.log 2>&1 || { tail -n 60 $(FB)/$*.log; exit 1; }
	@grep -E '^(#[0-9]+.*DONE|Done|stat::number_of_executed_units)' \
	    $(FB)/$*.log | sed 's/^/fuzz $*: /'

fuzz-replay: fuzz
	@for h in $(FUZZ_NAMES); do \
	    d=$$(ls -d tests/data/fuzz/$$h $(FB)/corpus/$$h 2>/dev/null) || :; \
	    [ -n "$$d" ] || continue; \
	    echo "fuzz-replay $$h: $$d"; \
	    $(FB)/fuzz_$$h $(FUZZ_OPTS) -runs=0 $$d > $(FB)/$$h.replay.log \
	        2>&1 || { tail -n 60 $(FB)/$$h.replay.log; exit 1; }; \
	done

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
