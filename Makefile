# ccstools: libprofdb, the format modules, the ccs-* tools, tests, man pages.
# One non-recursive Makefile; settings live in config.mk.

include config.mk

B          = build
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) -fPIC -MMD -MP \
             -Ilibprofdb -Iformats -Itools -DPDB_BUILDING
ZLIB_LIBS  = $(shell $(PKG_CONFIG) --libs zlib)
DEP_PKGS   = zlib jansson libxml-2.0 libcgraph libgvc
DEP_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(DEP_PKGS))
DEP_LIBS   = $(shell $(PKG_CONFIG) --libs $(DEP_PKGS))
CRIT_CFLAGS= $(shell $(PKG_CONFIG) --cflags criterion)
CRIT_LIBS  = $(shell $(PKG_CONFIG) --libs criterion)

LIB_SRCS   = $(sort $(wildcard libprofdb/*.c))
FMT_SRCS   = $(sort $(wildcard formats/*.c))
TOOL_SRCS  = $(filter-out tools/common.c,$(sort $(wildcard tools/*.c)))
TOOLS      = $(patsubst tools/%.c,%,$(TOOL_SRCS))
TEST_SRCS  = $(sort $(wildcard tests/lib/*.c tests/formats/*.c tests/tools/*.c))
TEST_HELP  = $(sort $(wildcard tests/support/*.c))
MANS       = $(sort $(wildcard man/*.[135]))

LIB_OBJS   = $(LIB_SRCS:%.c=$(B)/%.o)
# The HTML viewer's script and style, compiled in as byte arrays.
VIEWER     = formats/html/viewer.js formats/html/viewer.css
FMT_OBJS   = $(FMT_SRCS:%.c=$(B)/%.o) $(B)/formats/html/viewer_js.o \
             $(B)/formats/html/viewer_css.o
TEST_OBJS  = $(TEST_SRCS:%.c=$(B)/%.o) $(TEST_HELP:%.c=$(B)/%.o)
BINS       = $(TOOLS:%=$(B)/bin/%)

SONAME     = libprofdb.so.$(SOVERSION)

.PHONY: all check lint demo deps install uninstall clean
all: $(B)/libprofdb.a $(B)/$(SONAME) $(B)/libccsformats.a $(BINS) \
    $(B)/profdb.pc $(B)/ccsformats.pc

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEP_CFLAGS) -c $< -o $@

$(B)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(DEP_CFLAGS) $(CRIT_CFLAGS) -Itests/support -c $< -o $@

$(B)/formats/html/viewer_%.c: formats/html/viewer.%
	@mkdir -p $(@D)
	sh formats/html/embed.sh ccs_viewer_$* $< > $@

$(B)/formats/html/viewer_%.o: $(B)/formats/html/viewer_%.c
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c $< -o $@

$(B)/libprofdb.a: $(LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

$(B)/$(SONAME): $(LIB_OBJS)
	$(CC) -shared -Wl,-soname,$(SONAME) $(LDFLAGS) -o $@ $^
	ln -sf $(SONAME) $(B)/libprofdb.so

$(B)/libccsformats.a: $(FMT_OBJS)
	rm -f $@ && ar rcs $@ $^

$(B)/bin/%: $(B)/tools/%.o $(B)/tools/common.o $(B)/libccsformats.a $(B)/libprofdb.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(DEP_LIBS) -lm

$(B)/%.pc: %.pc.in config.mk
	@mkdir -p $(@D)
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(VERSION)|' \
	    $< > $@

$(B)/run-tests: $(TEST_OBJS) $(B)/libccsformats.a $(B)/libprofdb.a
	$(CC) $(LDFLAGS) -o $@ $^ $(CRIT_LIBS) $(DEP_LIBS) -lm

# Install missing Debian packages (as root) before anything is compiled.
deps:
	@sh .ci/install-deps

# The tests run the built tools from $(B)/bin and read tests/data.  The
# build runs in a new make, so that it sees what deps installed.
check: deps
	@$(MAKE) --no-print-directory all $(B)/run-tests
	CCS_BIN=$(CURDIR)/$(B)/bin $(B)/run-tests --jobs 2 $(CHECK_FLAGS)
	$(MAKE) --no-print-directory lint

lint:
	mandoc -Tlint -Wwarning $(MANS)

# The main job on the bundled example: GHC's profile of the paper's program.
demo: deps
	@$(MAKE) --no-print-directory all
	@sh examples/demo.sh $(B)/bin

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANPREFIX)/man1 \
	    $(DESTDIR)$(MANPREFIX)/man3 $(DESTDIR)$(MANPREFIX)/man5
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)
	install -m 644 $(B)/libprofdb.a $(DESTDIR)$(LIBDIR)
	install -m 755 $(B)/$(SONAME) $(DESTDIR)$(LIBDIR)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libprofdb.so
	install -m 644 $(B)/libccsformats.a $(DESTDIR)$(LIBDIR)
	install -m 644 libprofdb/pdb.h formats/formats.h $(DESTDIR)$(INCLUDEDIR)
	install -m 644 $(B)/profdb.pc $(B)/ccsformats.pc $(DESTDIR)$(PKGCONFIGDIR)
	for m in $(MANS); do \
	    s=$${m##*.}; install -m 644 $$m $(DESTDIR)$(MANPREFIX)/man$$s; done

uninstall:
	for t in $(TOOLS); do rm -f $(DESTDIR)$(BINDIR)/$$t; done
	rm -f $(DESTDIR)$(LIBDIR)/libprofdb.a $(DESTDIR)$(LIBDIR)/$(SONAME) \
	    $(DESTDIR)$(LIBDIR)/libprofdb.so $(DESTDIR)$(INCLUDEDIR)/pdb.h \
	    $(DESTDIR)$(LIBDIR)/libccsformats.a $(DESTDIR)$(INCLUDEDIR)/formats.h \
	    $(DESTDIR)$(PKGCONFIGDIR)/profdb.pc $(DESTDIR)$(PKGCONFIGDIR)/ccsformats.pc
	for m in $(MANS); do \
	    s=$${m##*.}; rm -f $(DESTDIR)$(MANPREFIX)/man$$s/$${m##*/}; done

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
