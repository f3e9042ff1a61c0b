// The per-backend answer cache (model_cache.hpp): validation once per statement, loading, pinning, eviction.
#include "pg/model_cache.hpp"
#include "core/api/release_api.hpp"
#include "pg/error_bridge.hpp"

#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>

extern "C" {
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "storage/proc.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
}

static MemoryContext cache_context = nullptr;
// The listed entries, most recently used first (lib/ilist.h), and the sum of their model sizes.
static dlist_head cache_entries = DLIST_STATIC_INIT(cache_entries);
static uint64 cache_bytes = 0;

// What a statement keeps in fn_extra: the entry it pinned and the snapshot it was validated under.
struct PapStatementState {
	PapCachedRelease *entry;
	PapStatementStamp stamp;
	MemoryContextCallback unpin;
};

void
PapStampStatement(PapStatementStamp *stamp)
{
	Snapshot snap = ActiveSnapshotSet() ? GetActiveSnapshot() : nullptr;
	stamp->valid = snap != nullptr;
	if (snap == nullptr)
		return;
	stamp->lxid = MyProc->lxid;
	stamp->curcid = snap->curcid;
	stamp->snap_xmin = snap->xmin;
	stamp->snap_xmax = snap->xmax;
	stamp->snap_completions = snap->snapXactCompletionCount;
}

bool
PapSameStatement(const PapStatementStamp *s)
{
	Snapshot snap = ActiveSnapshotSet() ? GetActiveSnapshot() : nullptr;
	return s->valid && snap != nullptr && s->lxid == MyProc->lxid && s->curcid == snap->curcid &&
	       s->snap_xmin == snap->xmin && s->snap_xmax == snap->xmax &&
	       s->snap_completions == snap->snapXactCompletionCount;
}

// The heap bytes this backend has in use, as the allocator counts them (glibc: the chunks it handed out plus the
// blocks it mapped for large requests), or 0 where it cannot tell. A model's size is the growth of this count over
// its load: exact whatever the model holds (category texts, cover lists, lookup indexes), where the core's own
// estimate (ModelMemoryBytes) counts only its large arrays, and missed most of a release of long category texts.
static size_t
HeapBytesInUse(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
	const struct mallinfo2 info = mallinfo2();
	return info.uordblks + info.hblkhd;
#else
	return 0;
#endif
}

static void
FreeEntry(PapCachedRelease *e)
{
	pap::core::FreeReleaseModel(e->model);
	e->model = nullptr;
	pfree(e->name);
	pfree(e);
}

static void
Unlist(PapCachedRelease *e)
{
	dlist_delete(&e->node);
	cache_bytes -= e->bytes;
	e->listed = false;
	if (e->pins == 0)
		FreeEntry(e);
}

// Runs when the statement's function context goes, also on error: never raises.
static void
UnpinCallback(void *arg)
{
	PapStatementState *state = (PapStatementState *)arg;
	PapCachedRelease *e = state->entry;
	state->entry = nullptr;
	if (e != nullptr && --e->pins == 0 && !e->listed)
		FreeEntry(e);
}

// The entry of a list node: dlist_container's arithmetic (lib/ilist.h's macros check their arguments' types with
// __builtin_types_compatible_p, which C++ does not have).
static PapCachedRelease *
EntryOf(dlist_node *node)
{
	return (PapCachedRelease *)((char *)node - offsetof(PapCachedRelease, node));
}

// Marks the entry as the most recently used (a statement may still use an entry evicted or replaced since).
static void
Touch(PapCachedRelease *e)
{
	if (e->listed)
		dlist_move_head(&cache_entries, &e->node);
}

// Evicts the least recently used entries until the listed ones fit the setting (the entry just used, first in the
// list, stays only if it fits by itself).
static void
EnforceLimit(void)
{
	const double limit = double(pap_answer_cache_mb) * 1024.0 * 1024.0;
	while (!dlist_is_empty(&cache_entries) && double(cache_bytes) > limit)
		Unlist(EntryOf(dlist_tail_node(&cache_entries)));
}

static PapCachedRelease *
FindEntry(const char *name)
{
	if (dlist_is_empty(&cache_entries))
		return nullptr;
	for (dlist_node *node = dlist_head_node(&cache_entries);; node = dlist_next_node(&cache_entries, node)) {
		PapCachedRelease *e = EntryOf(node);
		if (strcmp(e->name, name) == 0)
			return e;
		if (!dlist_has_next(&cache_entries, node))
			return nullptr;
	}
}

// Loads the release into a new entry (the caller's SPI connection is open and its snapshot the statement's).
static PapCachedRelease *
LoadEntry(const char *name, Oid row_table, TransactionId row_xmin, ItemPointer row_ctid)
{
	MemoryContext caller = CurrentMemoryContext;
	PapRelease *r = PapLoadRelease(name, false);
	PapRequireReleased(r);
	// The model is created and listed (so that it is freed) before any other PostgreSQL call can fail.
	MemoryContext old = MemoryContextSwitchTo(cache_context);
	PapCachedRelease *e = (PapCachedRelease *)palloc0(sizeof(PapCachedRelease));
	e->name = pstrdup(name);
	MemoryContextSwitchTo(old);
	e->private_table = r->private_table;
	e->refine_by_default = r->refine_by_default;
	e->row_table = row_table;
	e->row_xmin = row_xmin;
	e->row_ctid = *row_ctid;
	e->listed = true;
	pap::core::ReleaseModel *model = nullptr;
	PapCoreError err;
	const bool ok = PapCallCore(&err, [&]() {
		if (pap_debug_inject_error != 0)
			PapThrowInjectedError(pap_debug_inject_error);
		// Only the core allocates between the two counts (the interrupt check reads flags).
		const size_t heap_before = HeapBytesInUse();
		model = pap::core::LoadReleaseModel(r->layout, r->synthetic, size_t(r->cell_count), r->private_rows,
		                                    PapInterruptPending);
		pap::core::ModelSetErrorFacts(model, r->error_facts, PapInterruptPending);
		const size_t heap_after = HeapBytesInUse();
		const size_t measured = heap_after > heap_before ? heap_after - heap_before : 0;
		e->bytes = std::max(pap::core::ModelMemoryBytes(model), measured + pap::core::ModelDeferredBytes(model));
	});
	if (!ok) {
		pap::core::FreeReleaseModel(model);
		pfree(e->name);
		pfree(e);
		PapReportCoreError(&err);
	}
	e->model = model;
	dlist_push_head(&cache_entries, &e->node);
	cache_bytes += e->bytes;
	MemoryContextSwitchTo(caller);
	ereport(DEBUG1, (errmsg_internal("pap_release: release \"%s\" loaded into the answer cache", name),
	                 errdetail_internal("It holds %zu bytes; the cache holds %llu.", e->bytes,
	                                    (unsigned long long)cache_bytes)));
	return e;
}

// The release's entry as the statement's snapshot sees its catalog row: one catalog read, a load if the row
// differs from the cached one.
static PapCachedRelease *
ValidatedEntry(const char *name)
{
	static const char *const stamp_sql = "SELECT r.tableoid, r.xmin, r.ctid FROM pap.release_data r "
	                                     "WHERE r.name OPERATOR(pg_catalog.=) $1";
	if (cache_context == nullptr)
		cache_context = AllocSetContextCreate(CacheMemoryContext, "pap_release answer cache", ALLOCSET_DEFAULT_SIZES);
	MemoryContext caller = CurrentMemoryContext;
	SPI_connect();
	Oid types[1] = {TEXTOID};
	Datum values[1] = {CStringGetTextDatum(name)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute(stamp_sql, 1, types, values, true);
	PapRestoreUser(&saved);
	Oid row_table = InvalidOid;
	TransactionId row_xmin = InvalidTransactionId;
	ItemPointerData row_ctid;
	ItemPointerSetInvalid(&row_ctid);
	bool found = SPI_processed > 0;
	if (found) {
		bool isnull;
		HeapTuple tuple = SPI_tuptable->vals[0];
		TupleDesc desc = SPI_tuptable->tupdesc;
		row_table = DatumGetObjectId(SPI_getbinval(tuple, desc, 1, &isnull));
		row_xmin = DatumGetTransactionId(SPI_getbinval(tuple, desc, 2, &isnull));
		row_ctid = *(ItemPointer)DatumGetPointer(SPI_getbinval(tuple, desc, 3, &isnull));
	}
	PapCachedRelease *e = FindEntry(name);
	if (!(found && e != nullptr && e->row_table == row_table && TransactionIdEquals(e->row_xmin, row_xmin) &&
	      ItemPointerEquals(&e->row_ctid, &row_ctid))) {
		if (e != nullptr)
			Unlist(e);
		// Absent or not released: PapLoadRelease and PapRequireReleased raise the usual errors.
		e = LoadEntry(name, row_table, row_xmin, &row_ctid);
	}
	MemoryContextSwitchTo(caller);
	SPI_finish();
	return e;
}

PapCachedRelease *
PapStatementRelease(FunctionCallInfo fcinfo, text *name)
{
	PapStatementState *state = (PapStatementState *)fcinfo->flinfo->fn_extra;
	const char *bytes = VARDATA_ANY(name);
	const size_t length = VARSIZE_ANY_EXHDR(name);
	if (state != nullptr && state->entry != nullptr && PapSameStatement(&state->stamp) &&
	    strlen(state->entry->name) == length && memcmp(state->entry->name, bytes, length) == 0) {
		Touch(state->entry);
		return state->entry;
	}
	if (state == nullptr) {
		state = (PapStatementState *)MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(PapStatementState));
		state->unpin.func = UnpinCallback;
		state->unpin.arg = state;
		MemoryContextRegisterResetCallback(fcinfo->flinfo->fn_mcxt, &state->unpin);
		fcinfo->flinfo->fn_extra = state;
	}
	// Unpin the previous entry before validating: the validation may evict or replace it.
	state->stamp.valid = false;
	UnpinCallback(state);
	char *cname = text_to_cstring(name);
	PapCachedRelease *e = ValidatedEntry(cname);
	e->pins++;
	Touch(e);
	state->entry = e;
	PapStampStatement(&state->stamp);
	EnforceLimit();
	return e;
}
