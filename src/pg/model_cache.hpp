// The per-backend cache of finished releases that pap.answer and pap.answer_count read (docs/reference.md,
// "Answer cache"). A statement validates its release ONCE, on its first call: one read of the release's catalog
// row (as every answer read it before the cache: as the catalog owner, see docs/security.md) compares the row's
// identity (tableoid, xmin, ctid: any rewrite by define_release, run_release or drop_release makes a new row
// version, visible or not as the statement's snapshot says, also inside the writing transaction and after a
// ROLLBACK) with the cached model's; the model is reloaded only when they differ. Later calls of the statement
// touch no catalog at all. A statement is one snapshot: the check is made again when the active snapshot, the
// command or the transaction changes (PL/pgSQL keeps expression state across statements).
//
// Memory: entries live in the context "pap_release answer cache" under CacheMemoryContext; the core's model is
// freed through FreeReleaseModel when its entry is evicted (least recently used first, beyond
// pap_release.answer_cache_mb, each entry counted at what its load added to the heap) and no statement still uses it. A
// statement pins the entry it uses until its function's memory context goes (end of the statement, or the error that
// ends it). Include after postgres.h (through glue.hpp).
#pragma once
#include "pg/glue.hpp"

extern "C" {
#include "lib/ilist.h"
#include "storage/itemptr.h"
}

struct PapCachedRelease {
	char *name;
	Oid private_table;
	pap::core::ReleaseModel *model;
	bool refine_by_default;  // answers without refine refine within cells (PapRelease)
	// private to model_cache.cpp
	Oid row_table;
	TransactionId row_xmin;
	ItemPointerData row_ctid;
	size_t bytes;
	int pins;
	bool listed;      // in the cache's list; an entry a statement still pins may be unlisted
	dlist_node node;  // the cache's list, most recently used first
};

// The statement a call runs in, as far as a function's state kept across calls (fn_extra) can tell: the transaction,
// the command and the active snapshot (PL/pgSQL keeps expression state across statements). Unset without an active
// snapshot, which no later call matches.
struct PapStatementStamp {
	LocalTransactionId lxid;
	CommandId curcid;
	TransactionId snap_xmin, snap_xmax;
	uint64 snap_completions;
	bool valid;
};
void PapStampStatement(PapStatementStamp *stamp);
bool PapSameStatement(const PapStatementStamp *stamp);

// The release `name` for this call of fcinfo's function: from fn_extra within a statement, else validated
// against the catalog (and loaded when needed). Raises 42704 if absent, 55000 if not released.
PapCachedRelease *PapStatementRelease(FunctionCallInfo fcinfo, text *name);
