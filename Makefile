# gc - GPU cache and memory-hierarchy modelling as Unix filters.
#
#   make              build the tools into $(O)/bin
#   make demo         install missing Debian packages, run the demo pipeline
#   make examples     run every script in examples/ at full size
#   make check        install missing Debian packages, run every test
#   make bench        throughput figures against their targets
#   make fuzz         every libFuzzer target of tests/fuzz for SECONDS each
#   make fuzz-build   build the fuzz targets only (clang; FUZZ_OPT=-O0 is
#                     make check's build, into build-fuzz-O0/)
#   make unit-asan    the library's unit tests under clang's ASan and UBSan
#                     (build-fuzz-O0/tests; make check runs them)
#   make check-lib    the library's unit tests (SANITIZE=1: gcc's ASan)
#   make check-long   more than 2^32 records through gc-gen | gc-stats
#   make check-valgrind  a short chain of every stage under memcheck
#   make install      PREFIX, DESTDIR, BINDIR, MANDIR, DATADIR honoured
#
# User CFLAGS/LDFLAGS are respected; the project's own flags always apply.
# WERROR=1 adds -Werror; SANITIZE=1 builds with ASan and UBSan into
# build-san/ so it never mixes with the normal build.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DESTDIR ?=

CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=

GC_CFLAGS := -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-unused-parameter \
	-D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Ilib -pthread \
	-DGC_DATADIR='"$(DATADIR)/gc"'
GC_LDLIBS := -lz -llzma -lm

O ?= build
ifeq ($(SANITIZE),1)
O := build-san
GC_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
GC_LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(WERROR),1)
GC_CFLAGS += -Werror
endif

FILTERS := $(sort $(basename $(notdir $(wildcard filters/*.c))))
TESTPROGS := $(sort $(basename $(notdir $(wildcard tests/src/*.c))))
# A test program of several files: tests/src/NAME/*.c (its own headers
# beside them, included as "NAME/x.h").
TESTDIRS := $(sort $(patsubst tests/src/%/,%,$(dir $(wildcard tests/src/*/*.c))))

LIB_SRC := $(wildcard lib/*/*.c)
LIB_OBJ := $(LIB_SRC:lib/%.c=$(O)/lib/%.o)
# The archive names its members by file name alone: two lib/ sources with
# one name would leave one of them out.
LIB_DUPS := $(shell printf '%s\n' $(notdir $(LIB_SRC)) | sort | uniq -d)
ifneq ($(LIB_DUPS),)
$(error lib/: more than one source named $(LIB_DUPS); the archive would keep one)
endif
BINS := $(FILTERS:%=$(O)/bin/%)
TBINS := $(TESTPROGS:%=$(O)/tests/%) $(TESTDIRS:%=$(O)/tests/%)

all: $(BINS)

$(O)/lib/%.o: lib/%.c lib/*/*.h
	@mkdir -p $(@D)
	$(CC) $(GC_CFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/libgc.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(O)/bin/%: filters/%.c $(O)/libgc.a lib/*/*.h | $(O)/bin
	$(CC) $(GC_CFLAGS) $(CFLAGS) $(GC_LDFLAGS) $(LDFLAGS) -o $@ $< $(O)/libgc.a $(GC_LDLIBS)

$(O)/tests/%: tests/src/%.c $(O)/libgc.a lib/*/*.h tests/src/*.h | $(O)/tests
	$(CC) $(GC_CFLAGS) $(CFLAGS) $(GC_LDFLAGS) $(LDFLAGS) -o $@ $< $(O)/libgc.a $(GC_LDLIBS)

define testdir_rule
$(O)/tests/$(1): $(wildcard tests/src/$(1)/*.[ch]) $(O)/libgc.a lib/*/*.h tests/src/*.h | $(O)/tests
	$$(CC) $$(GC_CFLAGS) -Itests/src $$(CFLAGS) $$(GC_LDFLAGS) $$(LDFLAGS) -o $$@ $(wildcard tests/src/$(1)/*.c) $(O)/libgc.a $$(GC_LDLIBS)
endef
$(foreach d,$(TESTDIRS),$(eval $(call testdir_rule,$(d))))

$(O)/bin $(O)/tests:
	mkdir -p $@

deps:
	@CC="$(CC)" sh tools/install-deps

check: deps
	@$(MAKE) --no-print-directory all tests
	@if command -v $(FUZZ_CC) >/dev/null 2>&1; then \
		$(MAKE) --no-print-directory FUZZ_OPT=-O0 fuzz-build unit-asan || exit 1; \
		asan=$(CURDIR)/build-fuzz-O0/tests; fi; \
	GC_BIN=$(CURDIR)/$(O)/bin GC_TESTBIN=$(CURDIR)/$(O)/tests GC_ASANBIN=$$asan sh tests/run $(TESTS)

tests: $(BINS) $(TBINS)

# The library's unit tests alone; `make SANITIZE=1 check-lib` runs them
# with gcc's ASan and UBSan over the whole tree built so (build-san/).
# make check itself runs them under clang's (unit-asan, GC_ASANBIN), and
# the reader over every broken stream of tests/stream.bats too: those
# streams are in the stream fuzz target's corpus, replayed by
# tests/fuzz.bats.
check-lib: deps
	@$(MAKE) --no-print-directory all tests
	@GC_BIN=$(CURDIR)/$(O)/bin GC_TESTBIN=$(CURDIR)/$(O)/tests sh tests/run tests/lib.bats tests/cache.bats tests/proxy-lib.bats

demo: deps
	@$(MAKE) --no-print-directory all
	@PATH=$(CURDIR)/$(O)/bin:$$PATH sh examples/demo

# Every example at full size, with this build's tools first on PATH; their
# work directories go under $(O)/examples.  examples/sweep needs a trace
# list and a configuration list: seed000-fig12 and seed003-table5 run it.
examples: deps
	@$(MAKE) --no-print-directory all
	@mkdir -p $(O)/examples
	@for s in examples/*; do \
		[ -f "$$s" ] && [ "$${s##*/}" != sweep ] || continue; \
		echo "== $$s"; \
		(cd $(O)/examples && PATH=$(CURDIR)/$(O)/bin:$$PATH sh $(CURDIR)/$$s) || exit 1; \
	done

bench: deps
	@$(MAKE) --no-print-directory all tests
	@PATH=$(CURDIR)/$(O)/bin:$(CURDIR)/$(O)/tests:$$PATH sh tools/bench

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 \
		$(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(DATADIR)/gc/gpus
	cp $(BINS) $(DESTDIR)$(BINDIR)/
	cp share/man/man1/*.1 $(DESTDIR)$(MANDIR)/man1/
	cp share/man/man5/*.5 $(DESTDIR)$(MANDIR)/man5/
	cp share/man/man7/*.7 $(DESTDIR)$(MANDIR)/man7/
	for f in share/gpus/*.gpu; do [ -e "$$f" ] && cp "$$f" $(DESTDIR)$(DATADIR)/gc/gpus/ || true; done

uninstall:
	for f in $(FILTERS); do rm -f $(DESTDIR)$(BINDIR)/$$f $(DESTDIR)$(MANDIR)/man1/$$f.1; done
	rm -f $(DESTDIR)$(MANDIR)/man5/gc-stream.5 $(DESTDIR)$(MANDIR)/man5/gc-profile.5 \
		$(DESTDIR)$(MANDIR)/man7/gc.7
	rm -rf $(DESTDIR)$(DATADIR)/gc

# ---- hardening (issue 22) ---------------------------------------------------
#
# The libFuzzer targets of tests/fuzz, built with clang, ASan and UBSan
# into build-fuzz/ (its own libgc.a); `make fuzz SECONDS=N` runs each for N
# seconds over a copy of its corpus (tests/fuzz/corpus/TARGET, read only)
# and prints executions and coverage per target.  FUZZ=NAME runs one.
# FUZZ_OPT=-O0 builds into build-fuzz-O0/ instead: what make check's
# short run uses (a third less compiling; the long runs want -O1's speed).
FUZZ_CC ?= clang
FUZZ_OPT ?= -O1
FUZZ_O := build-fuzz$(filter-out -O1,$(FUZZ_OPT))
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_TARGETS := $(sort $(filter-out fuzz fuzz_import,$(basename $(notdir $(wildcard tests/fuzz/*.c)))))
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_O)/fuzz/%)
SECONDS ?= 10

# Line tables are what the sanitizers' and libFuzzer's reports need (file
# and line of each frame); full -g made the build that make check runs
# slower for nothing a report prints.
FUZZ_FLAGS := -gline-tables-only $(FUZZ_OPT) $(FUZZ_SAN)
FUZZ_COMMON := $(FUZZ_O)/fuzz/common/fuzz.o $(FUZZ_O)/fuzz/common/fuzz_import.o

ifneq ($(O),$(FUZZ_O))
$(FUZZ_O)/libgc.a: $(LIB_SRC) lib/*/*.h
	@$(MAKE) --no-print-directory O=$(FUZZ_O) SANITIZE= CC=$(FUZZ_CC) \
		CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_FLAGS)" $(FUZZ_O)/libgc.a
endif

# The targets' shared code, compiled once.
$(FUZZ_O)/fuzz/common/%.o: tests/fuzz/%.c tests/fuzz/*.h lib/*/*.h
	@mkdir -p $(@D)
	$(FUZZ_CC) $(GC_CFLAGS) -D_XOPEN_SOURCE=700 -Itests/fuzz -fsanitize=fuzzer-no-link $(FUZZ_FLAGS) \
		-c -o $@ $<

$(FUZZ_O)/fuzz/%: tests/fuzz/%.c $(FUZZ_COMMON) tests/fuzz/*.h $(FUZZ_O)/libgc.a
	@mkdir -p $(@D)
	$(FUZZ_CC) $(GC_CFLAGS) -D_XOPEN_SOURCE=700 -Itests/fuzz -fsanitize=fuzzer $(FUZZ_FLAGS) \
		-o $@ $< $(FUZZ_COMMON) $(FUZZ_O)/libgc.a $(GC_LDLIBS)

fuzz-build: $(FUZZ_BINS)

# The library's unit-test programs built the same way (clang, ASan, UBSan,
# over the fuzz build's libgc.a) into $(FUZZ_O)/tests: make check runs
# tests/lib.bats, cache.bats and proxy-lib.bats with them (GC_ASANBIN), so
# the sanitizers see the library's own tests in every run without a third
# build of the whole library.
ASAN_UNITS := test-lib cache-test proxy-test
ASAN_UNIT_BINS := $(ASAN_UNITS:%=$(FUZZ_O)/tests/%)

ifneq ($(O),$(FUZZ_O))
$(FUZZ_O)/tests/%: tests/src/%.c tests/src/*.h lib/*/*.h $(FUZZ_O)/libgc.a
	@mkdir -p $(@D)
	$(FUZZ_CC) $(GC_CFLAGS) -fsanitize=fuzzer-no-link $(FUZZ_FLAGS) \
		-o $@ $< $(FUZZ_O)/libgc.a $(GC_LDLIBS)

$(FUZZ_O)/tests/test-lib: $(wildcard tests/src/test-lib/*.[ch]) tests/src/*.h lib/*/*.h $(FUZZ_O)/libgc.a
	@mkdir -p $(@D)
	$(FUZZ_CC) $(GC_CFLAGS) -Itests/src -fsanitize=fuzzer-no-link $(FUZZ_FLAGS) \
		-o $@ $(wildcard tests/src/test-lib/*.c) $(FUZZ_O)/libgc.a $(GC_LDLIBS)
endif

unit-asan: $(ASAN_UNIT_BINS)

fuzz: fuzz-build
	@sh tests/fuzz/run $(FUZZ_O)/fuzz $(SECONDS) $(FUZZ)

# More than 2^32 records (N, default 4.4 G) through gc-gen | gc-stats: the
# 64-bit counts end to end.  Minutes of one core; not part of `make check`.
check-long: all
	@sh tests/check-long $(O)/bin $(N)

# Every stage of a short chain under valgrind's memcheck (installed by
# tools/install-deps valgrind): no error, nothing definitely lost.
check-valgrind: all
	@CC="$(CC)" sh tools/install-deps valgrind
	@sh tests/check-valgrind $(O)/bin

clean:
	rm -rf build build-san build-fuzz build-fuzz-O0

.PHONY: all deps check check-lib tests demo examples bench install uninstall clean \
	fuzz fuzz-build unit-asan check-long check-valgrind
