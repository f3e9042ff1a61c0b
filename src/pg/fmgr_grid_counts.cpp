// pap.grid_counts(key int8): the aggregate of the private scan, rows per grid point key (release_layout.hpp's
// ScanSelectList). One aggregate instead of a GROUP BY: PostgreSQL's HashAggregate costs several times the reading
// of the columns, and the planner, expecting as many groups as rows, never parallelises it; this one runs as
// Partial Aggregate -> Gather -> Finalize Aggregate (combine, serial and deserial functions) and postgres_fdw
// ships it whole. Deterministic, no noise (DESIGN.md §3: the noise is drawn by the glue after the scan).
// State: an open-addressing hash table key -> rows in the aggregate's memory context; O(1) per row, memory
// proportional to the distinct keys. The final function returns [key0, rows0, key1, rows1, ...] sorted by key.
#include "pg/glue.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "common/int.h"
#include "libpq/pqformat.h"
#include "utils/memutils.h"
#include "utils/array.h"
#include "utils/builtins.h"
PG_FUNCTION_INFO_V1(pap_grid_counts_transfn);
PG_FUNCTION_INFO_V1(pap_grid_counts_combinefn);
PG_FUNCTION_INFO_V1(pap_grid_counts_serialfn);
PG_FUNCTION_INFO_V1(pap_grid_counts_deserialfn);
PG_FUNCTION_INFO_V1(pap_grid_counts_finalfn);
}

namespace {

struct GridCountSlot {
	int64 key;
	int64 rows;  // 0: the slot is empty (a stored key has at least one row)
};

struct GridCounts {
	GridCountSlot *slots;
	uint64 capacity;  // a power of two
	uint64 used;
	MemoryContext context;
};

constexpr uint64 kInitialCapacity = 64;

inline uint64
SlotOf(int64 key, uint64 capacity)
{
	// Fibonacci hashing: keys are consecutive mixed-radix numbers, so spread their low bits.
	return (uint64(key) * UINT64CONST(0x9E3779B97F4A7C15)) >> 32 & (capacity - 1);
}

GridCounts *
NewGridCounts(MemoryContext context, uint64 capacity)
{
	GridCounts *state = (GridCounts *) MemoryContextAlloc(context, sizeof(GridCounts));
	state->slots = (GridCountSlot *) MemoryContextAllocExtended(context, sizeof(GridCountSlot) * capacity,
	                                                            MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	state->capacity = capacity;
	state->used = 0;
	state->context = context;
	return state;
}

void Add(GridCounts *state, int64 key, int64 rows);

void
Grow(GridCounts *state)
{
	GridCountSlot *old = state->slots;
	const uint64 old_capacity = state->capacity;
	state->capacity = old_capacity * 2;
	state->slots = (GridCountSlot *) MemoryContextAllocExtended(state->context, sizeof(GridCountSlot) * state->capacity,
	                                                            MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	state->used = 0;
	for (uint64 i = 0; i < old_capacity; i++)
		if (old[i].rows != 0)
			Add(state, old[i].key, old[i].rows);
	pfree(old);
}

void
Add(GridCounts *state, int64 key, int64 rows)
{
	uint64 i = SlotOf(key, state->capacity);
	for (;;) {
		GridCountSlot &slot = state->slots[i];
		if (slot.rows == 0)
			break;
		if (slot.key == key) {
			if (unlikely(pg_add_s64_overflow(slot.rows, rows, &slot.rows)))
				ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				                errmsg("row count of a grid point out of range for bigint")));
			return;
		}
		i = (i + 1) & (state->capacity - 1);
	}
	// At most half full, so that probes stay short.
	if (2 * (state->used + 1) > state->capacity) {
		Grow(state);
		Add(state, key, rows);
		return;
	}
	state->slots[i].key = key;
	state->slots[i].rows = rows;
	state->used++;
}

MemoryContext
AggregateContext(FunctionCallInfo fcinfo, const char *name)
{
	MemoryContext context;
	if (!AggCheckCallContext(fcinfo, &context))
		elog(ERROR, "pap_release: %s called in a non-aggregate context", name);
	return context;
}

int
CompareKeys(const void *a, const void *b)
{
	const int64 x = ((const GridCountSlot *) a)->key, y = ((const GridCountSlot *) b)->key;
	return x < y ? -1 : x > y ? 1 : 0;
}

}  // namespace

// (internal, int8) -> internal. Not STRICT (an internal state must be created here), but a NULL key counts
// nowhere, as if it were.
extern "C" Datum
pap_grid_counts_transfn(PG_FUNCTION_ARGS)
{
	MemoryContext context = AggregateContext(fcinfo, "pap_grid_counts_transfn");
	GridCounts *state = PG_ARGISNULL(0) ? NewGridCounts(context, kInitialCapacity) : (GridCounts *) PG_GETARG_POINTER(0);
	if (!PG_ARGISNULL(1))
		Add(state, PG_GETARG_INT64(1), 1);
	PG_RETURN_POINTER(state);
}

// (internal, internal) -> internal: the second state's counts added to the first's.
extern "C" Datum
pap_grid_counts_combinefn(PG_FUNCTION_ARGS)
{
	MemoryContext context = AggregateContext(fcinfo, "pap_grid_counts_combinefn");
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));  // NULL when both are
	const GridCounts *other = (const GridCounts *) PG_GETARG_POINTER(1);
	GridCounts *state = PG_ARGISNULL(0) ? NewGridCounts(context, kInitialCapacity) : (GridCounts *) PG_GETARG_POINTER(0);
	for (uint64 i = 0; i < other->capacity; i++)
		if (other->slots[i].rows != 0)
			Add(state, other->slots[i].key, other->slots[i].rows);
	PG_RETURN_POINTER(state);
}

// internal -> bytea: the number of keys, then (key, rows) pairs.
extern "C" Datum
pap_grid_counts_serialfn(PG_FUNCTION_ARGS)
{
	(void) AggregateContext(fcinfo, "pap_grid_counts_serialfn");
	const GridCounts *state = (const GridCounts *) PG_GETARG_POINTER(0);
	StringInfoData buf;
	pq_begintypsend(&buf);
	pq_sendint64(&buf, int64(state->used));
	for (uint64 i = 0; i < state->capacity; i++)
		if (state->slots[i].rows != 0) {
			pq_sendint64(&buf, state->slots[i].key);
			pq_sendint64(&buf, state->slots[i].rows);
		}
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

// (bytea, internal) -> internal.
extern "C" Datum
pap_grid_counts_deserialfn(PG_FUNCTION_ARGS)
{
	MemoryContext context = AggregateContext(fcinfo, "pap_grid_counts_deserialfn");
	bytea *bytes = PG_GETARG_BYTEA_PP(0);
	StringInfoData buf;  // read only, over the bytea's bytes
	buf.data = VARDATA_ANY(bytes);
	buf.len = int(VARSIZE_ANY_EXHDR(bytes));
	buf.maxlen = buf.len;
	buf.cursor = 0;
	const int64 n = pq_getmsgint64(&buf);
	if (n < 0 || uint64(n) > uint64(buf.len - buf.cursor) / 16)
		elog(ERROR, "pap_release: malformed grid_counts state");
	uint64 capacity = kInitialCapacity;
	while (capacity < 2 * uint64(n))
		capacity *= 2;
	GridCounts *state = NewGridCounts(context, capacity);
	for (int64 i = 0; i < n; i++) {
		const int64 key = pq_getmsgint64(&buf);
		const int64 rows = pq_getmsgint64(&buf);
		if (rows <= 0)
			elog(ERROR, "pap_release: malformed grid_counts state");
		Add(state, key, rows);
	}
	pq_getmsgend(&buf);
	PG_RETURN_POINTER(state);
}

// internal -> int8[]: [key0, rows0, key1, rows1, ...] sorted by key; empty when no row had a key. Leaves the
// state as it was (the executor may call it again).
extern "C" Datum
pap_grid_counts_finalfn(PG_FUNCTION_ARGS)
{
	(void) AggregateContext(fcinfo, "pap_grid_counts_finalfn");
	if (PG_ARGISNULL(0))
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(INT8OID));
	const GridCounts *state = (const GridCounts *) PG_GETARG_POINTER(0);
	const uint64 n = state->used;
	if (n > uint64(MaxAllocSize / 2 / sizeof(int64)))  // an array's element count is an int
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("too many grid points in one scan")));
	GridCountSlot *sorted = (GridCountSlot *) palloc(sizeof(GridCountSlot) * (n ? n : 1));
	uint64 j = 0;
	for (uint64 i = 0; i < state->capacity; i++)
		if (state->slots[i].rows != 0)
			sorted[j++] = state->slots[i];
	qsort(sorted, n, sizeof(GridCountSlot), CompareKeys);
	Datum *elements = (Datum *) palloc(sizeof(Datum) * 2 * (n ? n : 1));
	for (uint64 i = 0; i < n; i++) {
		elements[2 * i] = Int64GetDatum(sorted[i].key);
		elements[2 * i + 1] = Int64GetDatum(sorted[i].rows);
	}
	ArrayType *result = construct_array(elements, int(2 * n), INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
	pfree(sorted);
	pfree(elements);
	PG_RETURN_ARRAYTYPE_P(result);
}
