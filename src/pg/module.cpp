// Module entry: PG_MODULE_MAGIC and the settings under the reserved prefix pap_release.
#include "pg/error_bridge.hpp"  // declares pap_debug_inject_error
#include "pg/glue.hpp"
#include "pg/model_cache.hpp"

extern "C" {
#include "utils/guc.h"
PG_MODULE_MAGIC;
void _PG_init(void);
}

int pap_test_seed = -1;
int pap_max_cover_queries = 1000000;
int pap_max_cells = 1000000;
int pap_debug_inject_error = 0;            // declared in pg/error_bridge.hpp
int pap_reference_workload = 0;            // read by pap.run_release (src/pg/fmgr_run.cpp)
int pap_publish_delay = 0;                 // read by pap.run_release (src/pg/fmgr_run.cpp)
bool pap_debug_fail_after_charge = false;  // read by pap.run_release (src/pg/fmgr_run.cpp)
bool pap_allow_drop_ledger = false;        // read by pap.on_drop_extension (src/pg/fmgr_events.cpp)

// pap_release.reference_workload's values, in the order of pap::core::ReferenceKind.
static const struct config_enum_entry reference_workload_options[] = {
    {"off", 0, false},
    {"cell_lists", 1, false},
    {"membership", 2, false},
    {NULL, 0, false},
};

void
_PG_init(void)
{
	DefineCustomIntVariable("pap_release.test_seed",
	                        "Seed for reproducible noise in tests; -1 (the default) draws secure noise.",
	                        "A release made with a seed >= 0 is not private and is marked is_private = false.",
	                        &pap_test_seed, -1, -1, INT_MAX, PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("pap_release.max_cover_queries",
	                        "Largest cover (number of cover queries) a release may have.",
	                        "A query class whose cover would be larger is rejected when the release is defined.",
	                        &pap_max_cover_queries, 1000000, 1, INT_MAX, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("pap_release.max_cells",
	                        "Largest number of cells (the mechanism's domain) a release may have.",
	                        "When the full grid of a class's axes is larger, the release runs on the cells that hold "
	                        "public rows (public support); when even those are more, the release is rejected. A run "
	                        "keeps about 40 bytes per cell and per cover query in memory.",
	                        &pap_max_cells, 1000000, 1, INT_MAX, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("pap_release.publish_delay",
	                        "Sets how long after its charge a run publishes its answers, at the earliest.",
	                        "A run's duration depends on the private data; a run that ends sooner waits, so that "
	                        "other roles see the answers appear at a time fixed before the private table is read. "
	                        "0 (the default) publishes at once.",
	                        &pap_publish_delay, 0, 0, INT_MAX, PGC_USERSET, GUC_UNIT_MS, NULL, NULL, NULL);
	DefineCustomBoolVariable("pap_release.debug_fail_after_charge",
	                         "Test hook: makes pap.run_release fail right after its charge is committed.",
	                         "Only for the ledger tests (test/ledger): no row of a private table can make a run fail "
	                         "after its charge, so the tests of that path need a failure of their own.",
	                         &pap_debug_fail_after_charge, false, PGC_SUSET, GUC_NOT_IN_SAMPLE | GUC_NO_SHOW_ALL, NULL,
	                         NULL, NULL);
	DefineCustomIntVariable("pap_release.debug_inject_error",
	                        "Test hook: makes every call into the C++ core throw (1 std::runtime_error, "
	                        "2 std::bad_alloc, 3 internal pap::core::Error, 4 a non-exception type); 0 (the default) "
	                        "is off.",
	                        "Only for tests of the exception boundary (sql/06_exception_boundary.sql). Every "
	                        "function that calls the core fails while it is set.",
	                        &pap_debug_inject_error, 0, 0, 4, PGC_SUSET, GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
	DefineCustomEnumVariable("pap_release.reference_workload",
	                         "Benchmarks only: runs PMW or MWEM through a reference workload instead of the grouped "
	                         "one: membership (every cell tested against every query) or cell_lists (each query's "
	                         "cells listed).",
	                         "Same output under the same seed up to rounding, much slower; bench/ compares them. off "
	                         "by default.",
	                         &pap_reference_workload, 0, reference_workload_options, PGC_SUSET, GUC_NOT_IN_SAMPLE, NULL,
	                         NULL, NULL);
	DefineCustomBoolVariable("pap_release.allow_drop_ledger",
	                         "Lets DROP EXTENSION pap_release delete a ledger that holds privacy charges.",
	                         "Off by default: the drop is refused while the ledger is not empty, because the budgets "
	                         "spent would be forgotten. Dump the catalog first (pg_dump keeps it).",
	                         &pap_allow_drop_ledger, false, PGC_SUSET, 0, NULL, NULL, NULL);
	PapDefineModelCacheSettings();
	MarkGUCPrefixReserved("pap_release");
}
