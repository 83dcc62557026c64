# gpux — the build. GNU make.
#
#   make run      install missing packages, build, start gpux on its embedded default
#   make check    install missing packages, build with warnings as errors, run every test
#                 (only check, build-tests and asan make warnings errors; WERROR= overrides)
#   make asan     the same tests with AddressSanitizer + UBSan (separate build dir)
#   make bench    build and run the benchmarks in bench/
#   make fuzz     run the fuzzers longer (FUZZ_SECONDS=300)
#   make po       refresh i18n/po/*.po from the sources (xgettext + msgmerge)
#   make install  gpux, gpuxd, man pages, completions, docs under PREFIX
#                 (default /usr/local; DESTDIR for staging); make uninstall
#   make deb      the Debian packages gpux and gpuxd, built from a copy of the
#                 tree under build/deb (dpkg-buildpackage -us -uc -b)
#
# Every top-level folder below is a library with one public header; its *.c
# (except main.c) become build/lib<folder>.a (tui/ shows its families as
# folders, tui/*/*.c: still one library, one public header). Tests: tests/unit/test_*.c are
# cmocka programs; tests/*/test_*.sh are end-to-end scripts (tests/run.sh).

BUILD   ?= build
CC      ?= cc
OPT     ?= -O2 -g
SAN     ?=
# Warnings are errors only where the tree is checked (make check, CI, the
# test and benchmark builds): a newer compiler's new warning never breaks a
# newcomer's `make` or `make run`. Objects compiled without -Werror remove
# $(BUILD)/.werror, so the next -Werror build compiles everything again.
WERROR  ?= $(if $(filter check build-tests asan,$(MAKECMDGOALS)),-Werror)

# libcurl is opened at run time (api/curl.c): gpux uses its headers, not its
# library; the tests link it for their own raw requests (tests/unit/screen_fixture.h)
PKGS_CLIENT := ncursesw libcjson
PKGS_SERVER := libmicrohttpd sqlite3 nettle libcjson

CPPFLAGS += -D_GNU_SOURCE -I. -I$(BUILD)/gen
# libpq's header directory (exchange/store_pg.c), asked lazily like the libraries
CPPFLAGS += $(shell pkg-config --cflags libpq 2>/dev/null)
CPPFLAGS += $(shell pkg-config --cflags libcurl 2>/dev/null)
# -Wno-missing-field-initializers: a key map's row (struct wbinding) names
# only the fields it has (a row without a command name or argument ends early)
CFLAGS   := -std=c11 $(OPT) -Wall -Wextra -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wno-unused-parameter -Wno-missing-field-initializers \
            -Wformat=2 $(WERROR) \
            -fno-common -MMD -MP $(CFLAGS)
ifeq ($(SAN),1)
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
endif
LDFLAGS += -Wl,--as-needed -pthread

# pkg-config is asked lazily, after scripts/deps.sh has run
LIBS_CLIENT = $(shell pkg-config --libs $(PKGS_CLIENT) 2>/dev/null) -lreadline -lm
LIBS_SERVER = $(shell pkg-config --libs $(PKGS_SERVER) 2>/dev/null) -lm
LIBS_TEST   = $(shell pkg-config --libs cmocka libcurl 2>/dev/null)

# Link order: a library before the ones it uses.
CLIENT_MODS := cli tui widgets api view fit i18n data util
SERVER_MODS := exchange data fit util
ALL_MODS    := cli tui widgets api view exchange fit i18n data util

lib_srcs = $(filter-out $(1)/main.c,$(wildcard $(1)/*.c $(1)/*/*.c))
lib_objs = $(patsubst %.c,$(BUILD)/obj/%.o,$(call lib_srcs,$(1)))
lib_file = $(BUILD)/lib$(1).a

CLIENT_LIBS := $(foreach m,$(CLIENT_MODS),$(call lib_file,$(m)))
SERVER_LIBS := $(foreach m,$(SERVER_MODS),$(call lib_file,$(m)))
TEST_MODS   ?= $(ALL_MODS)
TEST_LIBS   := $(foreach m,$(TEST_MODS),$(call lib_file,$(m)))

# ---- embedded files: the catalogue and the compiled message catalogues ----
DATA_FILES := $(wildcard data/*.json)
PO_FILES   := $(wildcard i18n/po/*.po)
MO_FILES   := $(patsubst i18n/po/%.po,$(BUILD)/mo/%.mo,$(PO_FILES))
ASSETS_C   := $(BUILD)/gen/assets.c
ASSETS_O   := $(BUILD)/obj/gen/assets.o

UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
TOOL_SRCS  := $(wildcard tests/tools/*.c)
TOOL_BINS  := $(patsubst tests/tools/%.c,$(BUILD)/tests/%,$(TOOL_SRCS))
# bench/loadgen.c is the benchmarks' shared helper, linked into each of them
BENCH_LIB_SRCS := bench/loadgen.c
BENCH_LIB_OBJS := $(patsubst bench/%.c,$(BUILD)/obj/bench/%.o,$(BENCH_LIB_SRCS))
BENCH_SRCS := $(filter-out $(BENCH_LIB_SRCS),$(wildcard bench/*.c))
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRCS))
# reference programs the benchmarks start beside gpux (bench/ref/*.c, one file each)
BENCH_REFS := $(patsubst bench/ref/%.c,$(BUILD)/bench/ref/%,$(wildcard bench/ref/*.c))
FUZZ_SRCS  := $(wildcard tests/fuzz/fuzz_*.c)

.PHONY: all run check asan bench fuzz po deps deps-check clean install-man
.DEFAULT_GOAL := all

all: deps $(BUILD)/gpux $(BUILD)/gpuxd completions

deps:
	@scripts/deps.sh build
deps-check:
	@scripts/deps.sh check

run: all
	$(BUILD)/gpux

# make check builds in phases, each on every core unless make was given -j
# (JOBS=N to choose), and writes each phase's seconds to BUILD/build-times,
# which tests/run.sh prints in its summary beside each test's. Its phases
# are sub-makes whose goals are not check: they are given check's WERROR, so
# what make check compiles it compiles with -Werror.
JOBS    ?= $(shell nproc 2>/dev/null || echo 1)
CHECK_J  = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))
# $(call phase,NAME,COMMAND): COMMAND, then "NAME SECONDS" added to BUILD/build-times
phase    = t0=$$(date +%s); $(2) || exit 1; echo "$(1) $$(( $$(date +%s) - t0 ))" >>$(BUILD)/build-times

check:
	@mkdir -p $(BUILD) && rm -f $(BUILD)/build-times
	@$(call phase,packages,scripts/deps.sh check)
	@$(call phase,programs,$(MAKE) --no-print-directory $(CHECK_J) WERROR='$(WERROR)' programs)
	@$(call phase,test-programs,$(MAKE) --no-print-directory $(CHECK_J) WERROR='$(WERROR)' test-programs)
	@$(call phase,fuzzers,$(MAKE) --no-print-directory $(CHECK_J) WERROR='$(WERROR)' fuzz-build)
	@tests/run.sh $(BUILD)

asan:
	@scripts/deps.sh check
	$(MAKE) --no-print-directory BUILD=build-asan SAN=1 OPT="-O1 -g" build-tests
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		tests/run.sh build-asan

.PHONY: build-tests test-programs
build-tests: programs test-programs fuzz-build
# the benchmarks are built with the tests (run by make bench only), so a
# change of an interface they use breaks the checked build, not a later bench
test-programs: $(UNIT_BINS) $(TOOL_BINS) $(BENCH_BINS)
	@msgfmt --version >/dev/null

bench: deps
	@scripts/deps.sh bench
	$(MAKE) --no-print-directory $(BUILD)/gpux $(BUILD)/gpuxd $(BENCH_BINS) $(BENCH_REFS)
	@bench/run.sh $(BUILD)

# ---- fuzzers: libFuzzer with clang; built in check, run briefly there ----
# The libraries a fuzzer reaches (scripts/arch.sh uses: its #includes and
# theirs) are compiled once more, by clang with the sanitizers and libFuzzer's
# coverage (-fsanitize=fuzzer-no-link), into BUILD/fuzz/lib<folder>.a; each
# tests/fuzz/fuzz_*.c is one program linked against them (libFuzzer's main),
# so a new fuzzer is one file dropped there. UB aborts
# (-fno-sanitize-recover), so libFuzzer reports it as the crash it is.
FUZZ_BUILD  := $(BUILD)/fuzz
FUZZ_BINS   := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(FUZZ_SRCS))
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -g -O1 -MMD -MP $(FUZZ_SAN) -fsanitize=fuzzer-no-link
FUZZ_OBJS   := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/obj/tests/fuzz/%.o,$(FUZZ_SRCS))
fuzz_objs    = $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(call lib_srcs,$(1)))
# the sanitized libraries FILE reaches, in link order (asked only when a fuzzer is built)
fuzz_libs    = $(foreach m,$(shell scripts/arch.sh uses $(1)),$(FUZZ_BUILD)/lib$(m).a)
.PHONY: fuzz-build
fuzz-build: $(FUZZ_BINS)
$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	clang $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<
$(FUZZ_BUILD)/obj/gen/assets.o: $(ASSETS_C)
	@mkdir -p $(@D)
	clang $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<
define fuzz_lib_rule
$(FUZZ_BUILD)/lib$(1).a: $(call fuzz_objs,$(1))
	@mkdir -p $$(@D)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach m,$(ALL_MODS),$(eval $(call fuzz_lib_rule,$(m))))
.SECONDEXPANSION:
$(FUZZ_BINS): $(FUZZ_BUILD)/%: $(FUZZ_BUILD)/obj/tests/fuzz/%.o $$(call fuzz_libs,tests/fuzz/$$*.c) \
		$(FUZZ_BUILD)/obj/gen/assets.o
	clang $(FUZZ_SAN) -fsanitize=fuzzer -pthread -o $@ $< $(filter %.a,$^) $(FUZZ_BUILD)/obj/gen/assets.o \
		$(LIBS_CLIENT) $(LIBS_SERVER)
fuzz: fuzz-build
	@for f in $(FUZZ_BINS); do n=$$(basename $$f); \
	  echo "fuzz: $$n for $${FUZZ_SECONDS:-300}s"; \
	  $$f -max_total_time=$${FUZZ_SECONDS:-300} -artifact_prefix=$(BUILD)/fuzz-crash-$$n- \
	    tests/fuzz/corpus/$$n || exit 1; done

# ---- objects and libraries ----
WERROR_STAMP := $(if $(strip $(WERROR)),$(BUILD)/.werror)
$(BUILD)/.werror:
	@mkdir -p $(@D)
	@touch $@
$(BUILD)/obj/%.o: %.c $(WERROR_STAMP)
	@mkdir -p $(@D)
	$(if $(WERROR_STAMP),,@rm -f $(BUILD)/.werror)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# api/ calls libcurl through a table (api/curl_int.h) that keeps curl.h's
# compile-time checks of curl_easy_setopt's arguments; GCC reports them only
# when it reports what comes from system headers
$(BUILD)/obj/api/%.o: CFLAGS += -Wsystem-headers

$(BUILD)/obj/gen/assets.o: $(ASSETS_C) $(WERROR_STAMP)
	@mkdir -p $(@D)
	$(if $(WERROR_STAMP),,@rm -f $(BUILD)/.werror)
	$(CC) $(CPPFLAGS) $(filter-out -Wmissing-prototypes,$(CFLAGS)) -Wno-missing-prototypes -c -o $@ $<

define lib_rule
$(call lib_file,$(1)): $(call lib_objs,$(1))
	@mkdir -p $$(@D)
	@rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach m,$(ALL_MODS),$(eval $(call lib_rule,$(m))))

$(BUILD)/mo/%.mo: i18n/po/%.po
	@mkdir -p $(@D)
	msgfmt --check -o $@ $<

$(ASSETS_C): tools/embed.sh $(DATA_FILES) $(MO_FILES)
	@mkdir -p $(@D)
	tools/embed.sh $@ $(DATA_FILES) $(foreach m,$(MO_FILES),$(m):i18n/$(notdir $(m)))

# ---- programs ----
$(BUILD)/gpux: $(BUILD)/obj/cli/main.o $(CLIENT_LIBS) $(ASSETS_O)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS_CLIENT)

$(BUILD)/gpuxd: $(BUILD)/obj/exchange/main.o $(SERVER_LIBS) $(ASSETS_O)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS_SERVER)

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(TEST_LIBS) $(ASSETS_O)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(TEST_LIBS) $(ASSETS_O) $(LIBS_CLIENT) $(LIBS_SERVER) $(LIBS_TEST)

$(BUILD)/tests/%: $(BUILD)/obj/tests/tools/%.o $(TEST_LIBS) $(ASSETS_O)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(TEST_LIBS) $(ASSETS_O) $(LIBS_CLIENT) $(LIBS_SERVER)

$(BUILD)/bench/%: $(BUILD)/obj/bench/%.o $(BENCH_LIB_OBJS) $(TEST_LIBS) $(ASSETS_O)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(BENCH_LIB_OBJS) $(TEST_LIBS) $(ASSETS_O) $(LIBS_CLIENT) $(LIBS_SERVER)

# curl_alone is libcurl's floor: linked with libcurl and nothing else
$(BUILD)/bench/ref/curl_alone: bench/ref/curl_alone.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(shell pkg-config --libs libcurl 2>/dev/null)

# The test programs' objects are intermediate files of a pattern rule: keep
# them, so a second `make check` on an unchanged tree relinks nothing.
.SECONDARY: $(patsubst tests/unit/%.c,$(BUILD)/obj/tests/unit/%.o,$(UNIT_SRCS)) \
	$(patsubst tests/tools/%.c,$(BUILD)/obj/tests/tools/%.o,$(TOOL_SRCS)) \
	$(patsubst bench/%.c,$(BUILD)/obj/bench/%.o,$(BENCH_SRCS)) $(BENCH_LIB_OBJS) $(FUZZ_OBJS)

# ---- shell completions: written by gpux from its command and option tables ----
COMPLETIONS := $(BUILD)/completions/gpux.bash $(BUILD)/completions/_gpux $(BUILD)/completions/gpux.fish
.PHONY: completions programs
completions: $(COMPLETIONS)
# what a package build needs: the programs and their completions, no deps.sh
programs: $(BUILD)/gpux $(BUILD)/gpuxd $(COMPLETIONS)
$(BUILD)/completions/gpux.bash: $(BUILD)/gpux
	@mkdir -p $(@D)
	$(BUILD)/gpux --completions bash >$@.tmp && mv $@.tmp $@
$(BUILD)/completions/_gpux: $(BUILD)/gpux
	@mkdir -p $(@D)
	$(BUILD)/gpux --completions zsh >$@.tmp && mv $@.tmp $@
$(BUILD)/completions/gpux.fish: $(BUILD)/gpux
	@mkdir -p $(@D)
	$(BUILD)/gpux --completions fish >$@.tmp && mv $@.tmp $@

# ---- install ----
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DOCDIR      ?= $(PREFIX)/share/doc/gpux
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
INSTALL     ?= install
.PHONY: install install-bin install-completions install-doc uninstall
# every directory install makes is noted here, and uninstall removes those
# (once empty) and no other: a directory that was there before stays
INSTALL_NOTE = $(DESTDIR)$(DOCDIR)/installed-dirs
install-dirs = scripts/installdirs.sh make $(INSTALL_NOTE) $(1)
install: install-bin install-man install-completions install-doc
install-bin: $(BUILD)/gpux $(BUILD)/gpuxd
	$(call install-dirs,$(DESTDIR)$(BINDIR))
	$(INSTALL) -m 755 $(BUILD)/gpux $(BUILD)/gpuxd $(DESTDIR)$(BINDIR)/
install-man:
	$(call install-dirs,$(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man8)
	$(INSTALL) -m 644 docs/gpux.1 $(DESTDIR)$(MANDIR)/man1/gpux.1
	$(INSTALL) -m 644 docs/gpuxd.8 $(DESTDIR)$(MANDIR)/man8/gpuxd.8
install-completions: $(COMPLETIONS)
	$(call install-dirs,$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR))
	$(INSTALL) -m 644 $(BUILD)/completions/gpux.bash $(DESTDIR)$(BASHCOMPDIR)/gpux
	$(INSTALL) -m 644 $(BUILD)/completions/_gpux $(DESTDIR)$(ZSHCOMPDIR)/_gpux
	$(INSTALL) -m 644 $(BUILD)/completions/gpux.fish $(DESTDIR)$(FISHCOMPDIR)/gpux.fish
install-doc:
	$(call install-dirs,$(DESTDIR)$(DOCDIR))
	$(INSTALL) -m 644 README.md docs/API.md $(DESTDIR)$(DOCDIR)/
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gpux $(DESTDIR)$(BINDIR)/gpuxd
	rm -f $(DESTDIR)$(MANDIR)/man1/gpux.1 $(DESTDIR)$(MANDIR)/man8/gpuxd.8
	rm -f $(DESTDIR)$(BASHCOMPDIR)/gpux $(DESTDIR)$(ZSHCOMPDIR)/_gpux $(DESTDIR)$(FISHCOMPDIR)/gpux.fish
	rm -f $(DESTDIR)$(DOCDIR)/README.md $(DESTDIR)$(DOCDIR)/API.md
	scripts/installdirs.sh remove $(INSTALL_NOTE)

# ---- Debian packages: built from a copy of the tree, so the packaging's own
# clean step never touches this build directory and the .debs land in build/deb;
# the copy's make must not inherit this make's variables (BUILD=...)
DEB_DIR := $(BUILD)/deb
.PHONY: deb
deb:
	@scripts/deps.sh deb
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)/src
	tar -cf - --exclude=./build --exclude=./build-asan --exclude=./build-fuzz --exclude=./.git \
		--exclude=./$(patsubst $(CURDIR)/%,%,$(abspath $(BUILD))) . \
		| tar -xf - -C $(DEB_DIR)/src
	cd $(DEB_DIR)/src && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		DEB_BUILD_OPTIONS="parallel=$${DEB_JOBS:-2} $${DEB_BUILD_OPTIONS:-}" \
		dpkg-buildpackage -us -uc -b >../build.log 2>&1 \
		|| { tail -30 ../build.log; exit 1; }
	@ls $(DEB_DIR)/*.deb

# ---- translations ----
po:
	xgettext --from-code=UTF-8 -k_ -kN_ -kP_:1,2 -kNP_:1,2 -kC_:1c,2 --add-comments=TRANSLATORS: \
		-o i18n/po/gpux.pot $$(git ls-files '*.c' '*.h' | grep -v '^tests/')
	@for p in $(PO_FILES); do msgmerge -q -U --backup=none $$p i18n/po/gpux.pot; done

clean:
	rm -rf build build-asan

-include $(shell find $(BUILD)/obj $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)
