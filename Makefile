# pap_release: PGXS build of a C++17 PostgreSQL extension (see docs/development.md).
EXTENSION  = pap_release
MODULE_big = pap_release
CORE_SRCS  = $(sort $(wildcard src/core/*/*.cpp))
CORE_HDRS  = $(sort $(wildcard src/core/*/*.hpp))
GLUE_SRCS  = $(sort $(wildcard src/pg/*.cpp))
# The shared library is the glue's objects and the core as a static library (build/ext/libpapcore.a, below).
OBJS       = $(GLUE_SRCS:.cpp=.o)
# The install script of the current version is built from the unversioned extension/pap_release.sql (pgvector's
# DATA_built layout), so that a change of the catalog shows as a diff of one file; the frozen 0.1 script (what 0.1
# installed) and the upgrade scripts pap_release--<old>--<new>.sql are shipped as they are (docs/development.md,
# "Evolving the catalog").
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(EXTENSION).control)
DATA_built = extension/$(EXTENSION)--$(EXTVERSION).sql
DATA       = extension/$(EXTENSION)--0.1.sql $(wildcard extension/$(EXTENSION)--*--*.sql)
PGFILEDESC = "pap_release - differentially private query release assisted by public data"

# The pg_regress suite: the tests of sql/schedule, in its order (its comments say what each test takes from the
# tests before it). REGRESS_PREP runs before the suite: it fails if sql/ and the schedule disagree.
REGRESS      = $(shell sed -n 's/^test: *//p' sql/schedule)
REGRESS_OPTS = --dbname=contrib_regression
REGRESS_PREP = check-schedule
# Concurrency of the budget ledger (specs/*.spec, expected/<spec>.out; docs/ledger.md).
ISOLATION    = $(patsubst specs/%.spec,%,$(sort $(wildcard specs/*.spec)))

PG_CPPFLAGS = -Isrc
PG_CXXFLAGS = -std=c++17 -Wall -Wextra -Wno-register -Wno-unused-parameter -Wno-missing-field-initializers
SHLIB_LINK += build/ext/libpapcore.a -lstdc++

# The core as a static library per set of compiler flags (build/<flavour>/libpapcore.a), linked by the extension, the
# unit tests, the audit and the benchmarks (ext; unit where pg_config is missing), the sanitized tests (sanitize)
# and the fuzzer (fuzz).
# Objects go under build/<flavour>/ with their header dependencies (-MMD), so `make -j` compiles in parallel and
# rebuilds only what a change touches.
# $(call core_flavour,NAME,COMPILER,FLAGS) defines build/NAME/%.o for any source and build/NAME/libpapcore.a.
define core_flavour
build/$(1)/%.o: %.cpp
	@mkdir -p $$(@D)
	$(2) $(3) $$(OBJECT_FLAGS) -MMD -MP -c $$< -o $$@
build/$(1)/libpapcore.a: $$(patsubst %.cpp,build/$(1)/%.o,$(CORE_SRCS))
	@rm -f $$@
	ar rcs $$@ $$^
-include $$(wildcard build/$(1)/src/core/*/*.d build/$(1)/test/*/*.d build/$(1)/test/*/*/*.d build/$(1)/bench/*.d)
endef

# A fresh machine has no pg_config until scripts/install-deps.sh ran: only the PGXS targets need it.
PG_CONFIG ?= $(shell command -v pg_config 2>/dev/null || echo /usr/lib/postgresql/15/bin/pg_config)
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)
ifneq ($(PGXS),)
include $(PGXS)
$(DATA_built): extension/$(EXTENSION).sql $(EXTENSION).control
	cp $< $@
# PGXS tracks no header dependencies: rebuild every glue object when any header changes (the glue is small).
$(OBJS) $(OBJS:.o=.bc): $(CORE_HDRS) $(wildcard src/pg/*.hpp)
# PGXS's LLVM bitcode rule does not see CXXFLAGS: keep it in step.
COMPILE.cxx.bc += -std=c++17 -Wno-register -Wno-deprecated-register -Isrc
# The core with the server's compiler flags (PGXS's CXXFLAGS, -fPIC included), linked into the shared library.
# WERROR=-Werror (scripts/test.sh) makes every warning of the core fail the build.
$(eval $(call core_flavour,ext,$$(CXX),$$(CXXFLAGS) $$(CPPFLAGS) $$(WERROR)))
$(shlib): build/ext/libpapcore.a
# The unit tests, the audit and the benchmark program link the core the extension links (its objects, its flags),
# so that they check what is shipped and the core is compiled once for both.
TESTED_CORE = build/ext/libpapcore.a
# The pg_regress suite again with every query whose plan is parallel safe run in a parallel worker
# (force_parallel_mode = regress, called debug_parallel_query from PostgreSQL 16 on): every output must stay the
# same, so no function is marked PARALLEL SAFE wrongly. Needs a cluster the suite has not run in (20_attacks
# keeps its roles): scripts/test.sh runs it in its own pg_virtualenv.
installcheck-parallel-mode: export PGOPTIONS := $(PGOPTIONS) -c force_parallel_mode=regress
installcheck-parallel-mode: $(REGRESS_PREP)
	$(pg_regress_installcheck) $(REGRESS_OPTS) $(REGRESS)
.PHONY: installcheck-parallel-mode
else
all install installcheck installcheck-parallel-mode:
	@echo "pg_config not found: run scripts/install-deps.sh first" >&2; exit 1
endif

# Every sql/*.sql is in sql/schedule and every test of the schedule has its file.
check-schedule:
	@missing="$(filter-out $(REGRESS),$(patsubst sql/%.sql,%,$(wildcard sql/*.sql)))"; \
	 extra="$(filter-out $(patsubst sql/%.sql,%,$(wildcard sql/*.sql)),$(REGRESS))"; \
	 [ -z "$$missing$$extra" ] || { echo "sql/schedule: missing $${missing:-nothing}; no file for $${extra:-nothing}" >&2; exit 1; }
.PHONY: check-schedule

clean: clean-build
clean-build:
	rm -rf build
.PHONY: clean-build

# Without pg_config (no PGXS) the tests link a core of their own flags.
TESTED_CORE ?= build/unit/libpapcore.a

# GoogleTest on the PostgreSQL-free core: no server, no PostgreSQL headers. test/unit mirrors src/core's folders.
UNIT_CXX      ?= g++
UNIT_CXXFLAGS ?= -std=c++17 -O2 -g -Wall -Wextra -Werror -Isrc
UNIT_SRCS      = $(sort $(wildcard test/unit/*/*_test.cpp))
UNIT_OBJS      = $(patsubst %.cpp,build/unit/%.o,$(UNIT_SRCS))
UNIT_BIN       = test/unit/run_unit_tests
$(eval $(call core_flavour,unit,$(UNIT_CXX),$(UNIT_CXXFLAGS) -Itest/unit))
$(UNIT_BIN): $(UNIT_OBJS) $(TESTED_CORE)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) $^ -lgtest -lgtest_main -pthread -o $@
unit: check-core-wall $(UNIT_BIN)
	$(UNIT_BIN)
.PHONY: unit

# Robustness (docs/robustness.md). The wall: no PostgreSQL header or call in src/core, and each folder of the core
# includes only the folders its README allows (docs/architecture.md), checked on the text.
check-core-wall:
	@scripts/check-core-wall.sh src/core
.PHONY: check-core-wall

# The GoogleTest suite again under AddressSanitizer + UndefinedBehaviorSanitizer; any report fails the run.
UNIT_SAN_BIN      = test/unit/run_unit_tests_sanitized
UNIT_SAN_CXXFLAGS = -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
$(eval $(call core_flavour,sanitize,$(UNIT_CXX),$(UNIT_CXXFLAGS) $(UNIT_SAN_CXXFLAGS) -Itest/unit))
# The tests' own objects are the plain suite's, not instrumented: the code the suite checks is the core's, and the
# tests' sources compile once (under the sanitizers they took 220 s of the build's two cores at -O1, 2026-12-05). The
# core's archive comes first and whole, so that an inline function of a core header that a test also compiled keeps
# the core's instrumented copy (the linker keeps the first it meets).
$(UNIT_SAN_BIN): build/sanitize/libpapcore.a $(UNIT_OBJS)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) $(UNIT_SAN_CXXFLAGS) -Wl,--whole-archive build/sanitize/libpapcore.a \
		-Wl,--no-whole-archive $(UNIT_OBJS) -lgtest -lgtest_main -pthread -o $@
unit-sanitize: $(UNIT_SAN_BIN)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $(UNIT_SAN_BIN)
.PHONY: unit-sanitize

# libFuzzer on every text the core parses (test/fuzz/text_fuzzer.cpp), with ASan + UBSan. Needs clang-14 and
# libclang-rt-14-dev. New inputs go to test/fuzz/work (not committed), crashes to test/fuzz/artifacts/.
# `make fuzz` is bounded (CI); `make fuzz-long` runs FUZZ_LONG_TIME seconds on FUZZ_JOBS processes.
FUZZ_CXX       ?= clang++-14
FUZZ_CXXFLAGS  ?= -std=c++17 -g -O1 -Isrc -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_BIN        = test/fuzz/text_fuzzer
FUZZ_TIME      ?= 60
FUZZ_LONG_TIME ?= 3600
FUZZ_JOBS      ?= 4
FUZZ_RUN        = mkdir -p test/fuzz/work test/fuzz/artifacts && $(FUZZ_BIN) -timeout=5 -max_len=4096 \
                  -dict=test/fuzz/text.dict -print_final_stats=1 -artifact_prefix=test/fuzz/artifacts/
$(eval $(call core_flavour,fuzz,$(FUZZ_CXX),$(FUZZ_CXXFLAGS)))
$(FUZZ_BIN): build/fuzz/test/fuzz/text_fuzzer.o build/fuzz/libpapcore.a
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer $^ -o $@
fuzz: $(FUZZ_BIN)
	$(FUZZ_RUN) -max_total_time=$(FUZZ_TIME) test/fuzz/work test/fuzz/corpus
fuzz-long: $(FUZZ_BIN)
	$(FUZZ_RUN) -max_total_time=$(FUZZ_LONG_TIME) -fork=$(FUZZ_JOBS) test/fuzz/work test/fuzz/corpus
.PHONY: fuzz fuzz-long
clean: clean-robustness
clean-robustness:
	rm -f $(UNIT_SAN_BIN) $(FUZZ_BIN)
.PHONY: clean-robustness

# Empirical privacy audit of PMW, its sparse vector, MWEM, identity, hierarchical and their histogram noise
# (docs/audit.md): `audit` is the bounded run for CI (2e5 runs per side), `audit-full` the full one (1e6 runs per
# side). Exit status 1 on a violation or a missed broken variant.
AUDIT_SRCS = $(sort $(wildcard test/audit/*.cpp))
AUDIT_BIN  = test/audit/privacy_audit
$(AUDIT_BIN): $(patsubst %.cpp,build/unit/%.o,$(AUDIT_SRCS)) $(TESTED_CORE)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) $^ -pthread -o $@
audit: $(AUDIT_BIN)
	$(AUDIT_BIN)
audit-full: $(AUDIT_BIN)
	$(AUDIT_BIN) --full
.PHONY: audit audit-full
clean: clean-audit
clean-audit:
	rm -f $(AUDIT_BIN) test/audit/sparse_vector_audit
.PHONY: clean-audit

# The core-level benchmark program of bench/run.sh (the benchmarks' client, bench/bench.cpp, links only libpq).
BENCH_PMW_BIN = build/bench/pmw_pass
$(BENCH_PMW_BIN): build/unit/bench/pmw_pass.o $(TESTED_CORE)
	@mkdir -p $(@D)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) $^ -o $@

clean: clean-unit
clean-unit:
	rm -f $(UNIT_BIN)
.PHONY: clean-unit

# Formatting (.clang-format): `make format` rewrites the C++ sources in place, `make format-check` (run by
# scripts/test.sh) fails on any file clang-format would change.
CLANG_FORMAT ?= clang-format-14
FORMAT_FILES  = $(sort $(wildcard src/*/*.cpp src/*/*.hpp src/core/*/*.cpp src/core/*/*.hpp test/*/*.cpp \
                  test/*/*.hpp test/unit/*/*.cpp bench/*.cpp eval/*.cpp))
format:
	$(CLANG_FORMAT) -i $(FORMAT_FILES)
format-check:
	@$(CLANG_FORMAT) --dry-run -Werror $(FORMAT_FILES) && echo "format-check: $(words $(FORMAT_FILES)) files formatted"
.PHONY: format format-check

# clang-tidy with the checks of .clang-tidy (each justified there) on every source of src/ (scripts/tidy.sh); any
# finding fails. The glue is analysed against the server's headers, as PGXS compiles it.
tidy:
	@CLANG_TIDY=$(CLANG_TIDY) PG_INCLUDES="-I$(shell $(PG_CONFIG) --includedir-server) \
		-I$(shell $(PG_CONFIG) --includedir)/internal" scripts/tidy.sh $(CORE_SRCS) $(GLUE_SRCS)
CLANG_TIDY ?= clang-tidy-14
.PHONY: tidy
