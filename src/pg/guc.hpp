// The settings under the reserved prefix pap_release (docs/reference.md, "Settings"), all defined by
// PapDefineSettings in guc.cpp. Plain C++: error_bridge.hpp includes it before postgres.h.
#pragma once

extern int pap_test_seed;                 // test hook: >= 0 makes the noise reproducible (spending_run.cpp)
extern int pap_max_cover_queries;         // define_release (fmgr_define.cpp)
extern int pap_max_cells;                 // define_release (fmgr_define.cpp)
extern double pap_layout_epsilon;         // define_release's granularity auto plans at it (fmgr_define.cpp)
extern int pap_publish_delay;             // milliseconds (run_release, fmgr_run.cpp)
extern int pap_answer_cache_mb;           // the answer cache (model_cache.cpp)
extern int pap_reference_workload;        // benchmark hook: a pap::core::ReferenceKind (run_release)
extern int pap_debug_inject_error;        // test hook: PAP_CORE bodies throw (error_bridge.hpp)
extern bool pap_debug_fail_after_charge;  // test hook: a run fails right after its charge
extern bool pap_strict;             // warnings of misleading answers and plans become errors (answer_warnings.cpp)
extern bool pap_allow_drop_ledger;  // DROP EXTENSION may delete a non-empty ledger (fmgr_events.cpp)

// Defines every setting and reserves the prefix; called once, from _PG_init (module.cpp).
void PapDefineSettings(void);
