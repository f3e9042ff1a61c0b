// The settings of pap_release (docs/reference.md, "Settings"). Short descriptions in PostgreSQL's style
// (guc_tables.c); the test and benchmark hooks are hidden from SHOW ALL and pg_settings and left out of
// postgresql.conf.sample, as PostgreSQL's developer options are.
#include "pg/guc.hpp"

#include <climits>

extern "C" {
#include "postgres.h"
#include "utils/guc.h"
}

int pap_test_seed = -1;
int pap_max_cover_queries = 1000000;
int pap_max_cells = 1000000;
double pap_layout_epsilon = 1.0;
int pap_publish_delay = 0;
int pap_answer_cache_mb = 256;
int pap_reference_workload = 0;
int pap_debug_inject_error = 0;
bool pap_debug_fail_after_charge = false;
bool pap_allow_drop_ledger = false;
bool pap_strict = false;

// pap_release.reference_workload's values, in the order of pap::core::ReferenceKind.
static const struct config_enum_entry reference_workload_options[] = {
    {"off", 0, false},
    {"cell_lists", 1, false},
    {"membership", 2, false},
    {NULL, 0, false},
};

// Flags of a setting that exists for tests or benchmarks only.
static const int kHookFlags = GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE;

void
PapDefineSettings(void)
{
	// The two size limits bound memory the core allocates outside PostgreSQL's accounting (a cover, a grid): a role
	// that could raise them could exhaust the server's memory with one definition. Superusers set them, and grant
	// SET on them (PostgreSQL 15's GRANT SET ON PARAMETER) to the curators they trust with more.
	DefineCustomIntVariable(
	    "pap_release.max_cover_queries", "Sets the maximum number of cover queries a release lists.",
	    "A marginals, stumps, halfspaces or predicates class whose cover would be larger is rejected "
	    "when the release is defined; over an ordered class's larger cover, pmw and mwem do not "
	    "apply and pap.answers refuses to list it.",
	    &pap_max_cover_queries, 1000000, 1, INT_MAX, PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("pap_release.max_cells", "Sets the maximum number of cells of a release.",
	                        "When the full grid of a class's axes is larger, the release runs on the cells that hold "
	                        "public rows (public support); when even those are more, the release is rejected. A run "
	                        "keeps about 40 bytes per cell and per cover query in memory.",
	                        &pap_max_cells, 1000000, 1, INT_MAX, PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("pap_release.publish_delay",
	                        "Sets the minimum time between a run's charge and the publication of its answers.",
	                        "A run's duration depends on the private data; a run that ends sooner waits, so that "
	                        "other roles see the answers appear at a time fixed before the private table is read. "
	                        "0 (the default) publishes at once.",
	                        &pap_publish_delay, 0, 0, INT_MAX, PGC_USERSET, GUC_UNIT_MS, NULL, NULL, NULL);
	DefineCustomIntVariable("pap_release.answer_cache_mb",
	                        "Sets the maximum memory each backend keeps for released models between statements.",
	                        "pap.answer and pap.answer_count keep the releases they read, least recently used "
	                        "evicted first; 0 keeps none beyond the statement that loaded it.",
	                        &pap_answer_cache_mb, 256, 0, INT_MAX / 2, PGC_USERSET, GUC_UNIT_MB, NULL, NULL, NULL);
	DefineCustomBoolVariable("pap_release.strict",
	                         "Turns the warnings of answers and plans that may mislead into errors.",
	                         "An answer for a category the public table never showed, equality on a column whose "
	                         "own equality differs from the category's text, and a requested mechanism predicted "
	                         "worse than the public table alone raise an error instead of a warning.",
	                         &pap_strict, false, PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("pap_release.allow_drop_ledger",
	                         "Allows DROP EXTENSION pap_release to delete a ledger that holds privacy charges.",
	                         "Off by default: the drop is refused while the ledger is not empty, because the budgets "
	                         "spent would be forgotten. Dump the catalog first (pg_dump keeps it).",
	                         &pap_allow_drop_ledger, false, PGC_SUSET, 0, NULL, NULL, NULL);

	// Test and benchmark hooks.
	DefineCustomIntVariable("pap_release.test_seed", "Sets the seed of the noise, for reproducible tests.",
	                        "-1 (the default) draws secure noise. A release made with a seed >= 0 is not private and "
	                        "is marked is_private = false.",
	                        &pap_test_seed, -1, -1, INT_MAX, PGC_SUSET, kHookFlags, NULL, NULL, NULL);
	DefineCustomBoolVariable("pap_release.debug_fail_after_charge",
	                         "Makes pap.run_release fail right after its charge is committed, for tests.",
	                         "Only for the ledger tests (test/ledger): no row of a private table can make a run fail "
	                         "after its charge, so the tests of that path need a failure of their own.",
	                         &pap_debug_fail_after_charge, false, PGC_SUSET, kHookFlags, NULL, NULL, NULL);
	DefineCustomIntVariable(
	    "pap_release.debug_inject_error", "Makes every call into the C++ core throw, for tests.",
	    "1 throws std::runtime_error, 2 std::bad_alloc, 3 an internal pap::core::Error, 4 a "
	    "non-exception type; 0 (the default) is off. Only for tests of the exception boundary "
	    "(sql/06_exception_boundary.sql): every function that calls the core fails while it is set.",
	    &pap_debug_inject_error, 0, 0, 4, PGC_SUSET, kHookFlags, NULL, NULL, NULL);
	DefineCustomEnumVariable("pap_release.reference_workload",
	                         "Sets the workload through which PMW and MWEM evaluate the queries, for benchmarks.",
	                         "off (the default) is the grouped workload; membership tests every cell against every "
	                         "query, cell_lists lists each query's cells. Same output under the same seed up to "
	                         "rounding, much slower; bench/ compares them.",
	                         &pap_reference_workload, 0, reference_workload_options, PGC_SUSET, kHookFlags, NULL, NULL,
	                         NULL);
	// The bounds are the planners' (mechanism.hpp's kMinEpsilon, kMaxEpsilon).
	DefineCustomRealVariable("pap_release.layout_epsilon",
	                         "Sets the epsilon at which granularity auto compares the layouts of a new release.",
	                         "pap.define_release with granularity auto plans every candidate cut and domain at this "
	                         "epsilon (delta 0) and keeps the one with the smallest predicted error; set it to the "
	                         "epsilon the release will run with.",
	                         &pap_layout_epsilon, 1.0, 1e-9, 1e300, PGC_USERSET, 0, NULL, NULL, NULL);
	MarkGUCPrefixReserved("pap_release");
}
