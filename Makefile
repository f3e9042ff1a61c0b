# pap_release: PGXS build of a C++17 PostgreSQL extension (see docs/development.md).
EXTENSION  = pap_release
MODULE_big = pap_release
CORE_SRCS  = $(sort $(wildcard src/core/*.cpp))
GLUE_SRCS  = $(sort $(wildcard src/pg/*.cpp))
OBJS       = $(CORE_SRCS:.cpp=.o) $(GLUE_SRCS:.cpp=.o)
DATA       = $(wildcard extension/$(EXTENSION)--*.sql)
PGFILEDESC = "pap_release - differentially private query release assisted by public data"

REGRESS      = $(patsubst sql/%.sql,%,$(sort $(wildcard sql/*.sql)))
REGRESS_OPTS = --dbname=contrib_regression

PG_CPPFLAGS = -Isrc
PG_CXXFLAGS = -std=c++17 -Wall -Wextra -Wno-register -Wno-unused-parameter -Wno-missing-field-initializers
SHLIB_LINK += -lstdc++

# A fresh machine has no pg_config until scripts/install-deps.sh ran: only the PGXS targets need it.
PG_CONFIG ?= $(shell command -v pg_config 2>/dev/null || echo /usr/lib/postgresql/15/bin/pg_config)
PGXS := $(shell $(PG_CONFIG) --pgxs 2>/dev/null)
ifneq ($(PGXS),)
include $(PGXS)
# PGXS tracks no header dependencies: rebuild every object when any header changes (the tree is small).
$(OBJS) $(OBJS:.o=.bc): $(wildcard src/core/*.hpp src/pg/*.hpp)
# PGXS's LLVM bitcode rule does not see CXXFLAGS: keep it in step (reference/anchors-pgext.md §7.3).
COMPILE.cxx.bc += -std=c++17 -Wno-register -Wno-deprecated-register -Isrc
else
all install installcheck:
	@echo "pg_config not found: run scripts/install-deps.sh first" >&2; exit 1
endif

# GoogleTest on the PostgreSQL-free core: no server, no PostgreSQL headers.
UNIT_CXX      ?= g++
UNIT_CXXFLAGS ?= -std=c++17 -O2 -g -Wall -Wextra -Werror -Isrc
UNIT_SRCS      = $(sort $(wildcard test/unit/*_test.cpp))
UNIT_BIN       = test/unit/run_unit_tests
$(UNIT_BIN): $(CORE_SRCS) $(wildcard src/core/*.hpp) $(UNIT_SRCS) $(wildcard test/unit/*.hpp)
	$(UNIT_CXX) $(UNIT_CXXFLAGS) $(CORE_SRCS) $(UNIT_SRCS) -lgtest -lgtest_main -pthread -o $@
unit: $(UNIT_BIN)
	$(UNIT_BIN)
.PHONY: unit

clean: clean-unit
clean-unit:
	rm -f $(UNIT_BIN)
.PHONY: clean-unit
