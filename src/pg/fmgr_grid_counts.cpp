// pap.grid_counts(radices int8[], VARIADIC "any"): the aggregate of the private scan (release_layout.hpp's
// ScanSelectList), rows per grid point. After the radices come the axes, first axis most significant, each either
// one int4 argument (a bin computed by any expression) or two, cut points float8[] and a value of a number type
// (converted totally, fmgr_axis_number.cpp), whose bin
// the aggregate computes itself with a CutLookup (as pap.cell_index: a NULL value goes to bin M + 1). The key of a
// row is the mixed-radix number of its bins. One fused call per row instead of a cell function per axis and the
// int8 arithmetic of the key, and one aggregate instead of a GROUP BY: PostgreSQL's HashAggregate costs several
// times the reading of the columns, and the planner, expecting as many groups as rows, never parallelises it;
// this one runs as Partial Aggregate -> Gather -> Finalize Aggregate (combine, serial and deserial functions) and
// postgres_fdw ships it whole. Deterministic, no noise: the noise is drawn by the glue after the scan, so that a
// remote server may run the aggregate (docs/distributed.md, "Noise stays on the coordinator").
// The arguments are parsed once per call site (fn_extra of the transition function): the radices and cut arrays
// must be a constant or a parameter. Errors: 42804 for argument types, 22023 for radices that do not match the
// axes or malformed arrays, 22004 for a NULL array or int4 bin, 22003 for an int4 bin outside its radix, 0A000
// for radices or cut points that are neither a constant nor a parameter, 54000 for more than 2^62 grid points.
// No message quotes a row's value or bin.
// State: rows per key in the aggregate's memory context, a dense int64 array when the grid has at most 2^18
// points, else a simplehash table with memory proportional to the distinct keys; O(1) per row. The
// final function returns [key0, rows0, key1, rows1, ...] sorted by key.
#include "core/axes/cut_lookup.hpp"
#include "pg/glue.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "common/int.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "nodes/primnodes.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
PG_FUNCTION_INFO_V1(pap_grid_counts_transfn);
PG_FUNCTION_INFO_V1(pap_grid_counts_combinefn);
PG_FUNCTION_INFO_V1(pap_grid_counts_serialfn);
PG_FUNCTION_INFO_V1(pap_grid_counts_deserialfn);
PG_FUNCTION_INFO_V1(pap_grid_counts_finalfn);
}

// A key's row count in the hash state: an instantiation of PostgreSQL's simplehash (lib/simplehash.h, as the
// executor's TupleHashTable), allocated in the aggregate's memory context.
struct GridCountEntry {
	int64 key;
	int64 rows;
	char status;  // simplehash's
};

// Keys are consecutive mixed-radix numbers: Fibonacci hashing spreads them over the low bits that pick a bucket
// (measured: faster here than murmurhash32 of the folded key). The key's high half is folded in first: bits 32 and
// up of the product do not depend on a key's bits 32 + s and up below bit 32 + s, so keys that differed only there
// (lower axes whose radices multiply to 2^36, held at one bin) fell into one probe chain: 90 times slower.
static inline uint32
GridKeyHash(int64 key)
{
	const uint64 folded = uint64(key) ^ (uint64(key) >> 32);
	return uint32((folded * UINT64CONST(0x9E3779B97F4A7C15)) >> 32);
}
#define SH_PREFIX grid_count
#define SH_ELEMENT_TYPE GridCountEntry
#define SH_KEY_TYPE int64
#define SH_KEY key
#define SH_HASH_KEY(tb, key) GridKeyHash(key)
#define SH_EQUAL(tb, a, b) ((a) == (b))
#define SH_SCOPE static inline
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

namespace {

// release_layout.hpp's kScanKeyLimit: the keys stay far from int8's end.
constexpr uint64 kMaxGridPoints = UINT64CONST(1) << 62;
// At most this many grid points: a dense array of counts (2 MiB), faster than hashing every row.
constexpr uint64 kDenseLimit = UINT64CONST(1) << 18;
// At most this many grid points in a hash state: what a private scan may meet (glue.hpp), below the 0.9 * 2^26
// members at which simplehash would double its table past 2^26 entries of 24 bytes (1.5 GiB). Checked as points
// are added: checked only at the end, a call over 70 million keys of its own had grown a state to 4.8 GB first.
constexpr uint64 kMaxHashPoints = kPapMaxScanPoints;

// One axis of a call site: where its argument is and how it becomes a bin.
struct GridAxis {
	int arg;         // the int4 bin's argument, or the value's of a cut pair
	Oid value_type;  // a cut pair's value: a number type (PapNumberToAxis)
	int64 radix;
	const pap::core::CutLookup *cuts;  // NULL for an int4 bin
};

struct GridAxes {
	int count;
	uint64 points;  // the product of the radices
	GridAxis axis[FLEXIBLE_ARRAY_MEMBER];
};

struct GridCounts {
	int64 *dense;  // rows per key 0..points-1, or NULL: the hash table below
	uint64 points;
	grid_count_hash *hash;
};

constexpr uint32 kInitialCapacity = 64;

GridCounts *
NewHashCounts(MemoryContext context, uint32 keys)
{
	GridCounts *state = (GridCounts *)MemoryContextAllocZero(context, sizeof(GridCounts));
	state->hash = grid_count_create(context, keys, nullptr);
	return state;
}

GridCounts *
NewDenseCounts(MemoryContext context, uint64 points)
{
	GridCounts *state = (GridCounts *)MemoryContextAllocZero(context, sizeof(GridCounts));
	state->dense = (int64 *)MemoryContextAllocZero(context, sizeof(int64) * points);
	state->points = points;
	return state;
}

inline void
AddRows(int64 *rows, int64 more)
{
	if (unlikely(pg_add_s64_overflow(*rows, more, rows)))
		ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
		                errmsg("row count of a grid point out of range for bigint")));
}

inline void
AddToHash(GridCounts *state, int64 key, int64 rows)
{
	bool found;
	GridCountEntry *entry = grid_count_insert(state->hash, key, &found);
	if (found) {
		AddRows(&entry->rows, rows);
		return;
	}
	entry->rows = rows;
	if (unlikely(state->hash->members > kMaxHashPoints))
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("too many grid points in one scan"),
		                errdetail("pap.grid_counts holds at most %llu distinct grid points.",
		                          (unsigned long long)kMaxHashPoints)));
}

// rows > 0. A dense state only ever holds keys its transition function made (a combined state is a hash).
inline void
Add(GridCounts *state, int64 key, int64 rows)
{
	if (state->dense != nullptr) {
		if (unlikely(uint64(key) >= state->points))
			elog(ERROR, "pap_release: grid key out of range in pap.grid_counts");
		AddRows(&state->dense[key], rows);
	} else {
		AddToHash(state, key, rows);
	}
}

// Calls f(key, rows) for every key with rows; in key order for a dense state.
template <typename F>
void
ForEachKey(const GridCounts *state, F f)
{
	if (state->dense != nullptr) {
		for (uint64 k = 0; k < state->points; k++)
			if (state->dense[k] != 0)
				f(int64(k), state->dense[k]);
		return;
	}
	grid_count_iterator it;
	grid_count_start_iterate(state->hash, &it);
	for (const GridCountEntry *entry; (entry = grid_count_iterate(state->hash, &it)) != nullptr;)
		f(entry->key, entry->rows);
}

uint64
KeyCount(const GridCounts *state)
{
	if (state->dense == nullptr)
		return state->hash->members;
	uint64 n = 0;
	for (uint64 k = 0; k < state->points; k++)
		n += state->dense[k] != 0;
	return n;
}

MemoryContext
AggregateContext(FunctionCallInfo fcinfo, const char *name)
{
	MemoryContext context;
	if (!AggCheckCallContext(fcinfo, &context))
		elog(ERROR, "pap_release: %s called in a non-aggregate context", name);
	return context;
}

// A grid point of the final function's result.
struct GridPoint {
	int64 key;
	int64 rows;
};

int
CompareKeys(const void *a, const void *b)
{
	const int64 x = ((const GridPoint *)a)->key, y = ((const GridPoint *)b)->key;
	return x < y ? -1 : x > y ? 1 : 0;
}

// Whether the aggregate's argument k (0 = the radices) is the same for every row: a Const or an external Param,
// as get_fn_expr_arg_stable decides for plain functions (the transition function's own expression holds
// placeholders only, so the Aggref's arguments are the ones to look at).
bool
AggregateArgIsStable(const Aggref *aggref, int k)
{
	if (aggref == nullptr || k >= list_length(aggref->args))
		return false;
	const Node *expr = (const Node *)list_nth_node(TargetEntry, aggref->args, k)->expr;
	return IsA(expr, Const) || (IsA(expr, Param) && ((const Param *)expr)->paramkind == PARAM_EXTERN);
}

// The axes of this call site from its argument types and its radices and cut arrays, checked, in fn_mcxt.
const GridAxes *
ParseAxes(FunctionCallInfo fcinfo)
{
	FmgrInfo *flinfo = fcinfo->flinfo;
	const Aggref *aggref = AggGetAggref(fcinfo);
	if (aggref == nullptr) {
		// A window aggregate has no Aggref to read the call's constant arguments from (and counts per window frame
		// are not what the scans need).
		if (AggCheckCallContext(fcinfo, nullptr) == AGG_CONTEXT_WINDOW)
			ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			                errmsg("pap.grid_counts cannot be used as a window function")));
		elog(ERROR, "pap_release: pap_grid_counts_transfn called in a non-aggregate context");
	}
	// The types of "any" arguments come from the call expression, which a caller of the transition function through
	// fmgr alone (not PostgreSQL's executor) may not provide.
	if (get_fn_expr_argtype(flinfo, 1) == InvalidOid)
		ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
		                errmsg("pap.grid_counts needs its call expression to read its argument types")));
	// The declared type, checked all the same: an install script of another version could bind another signature.
	if (get_fn_expr_argtype(flinfo, 1) != INT8ARRAYOID)
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH), errmsg("the radices of pap.grid_counts must be int8[]")));
	if (get_fn_expr_variadic(flinfo))
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH), errmsg("pap.grid_counts does not take a VARIADIC array"),
		                errhint("Pass each axis as its own arguments.")));
	if (PG_ARGISNULL(1))
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("radices must not be NULL")));
	if (!AggregateArgIsStable(aggref, 0))
		ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
		                errmsg("the radices of pap.grid_counts must be a constant or a parameter")));
	ArrayType *radices = PG_GETARG_ARRAYTYPE_P(1);
	if (ARR_NDIM(radices) > 1 || ARR_HASNULL(radices) || ARR_ELEMTYPE(radices) != INT8OID)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("radices must be a one-dimensional int8 array without NULLs")));
	const int radix_count = ARR_NDIM(radices) == 0 ? 0 : ARR_DIMS(radices)[0];
	const int64 *radix = (const int64 *)ARR_DATA_PTR(radices);

	const int nargs = PG_NARGS();
	GridAxes *axes = (GridAxes *)MemoryContextAllocZero(flinfo->fn_mcxt,
	                                                    offsetof(GridAxes, axis) + sizeof(GridAxis) * size_t(nargs));
	for (int i = 2; i < nargs;) {
		GridAxis &axis = axes->axis[axes->count];
		const Oid type = get_fn_expr_argtype(flinfo, i);
		if (type == INT4OID) {
			axis.arg = i;
			i += 1;
		} else if (type == FLOAT8ARRAYOID) {
			// A domain's values are its base type's (a private column of a domain over a number type).
			const Oid declared = i + 1 < nargs ? get_fn_expr_argtype(flinfo, i + 1) : InvalidOid;
			const Oid value_type = OidIsValid(declared) ? getBaseType(declared) : InvalidOid;
			if (!PapIsNumberAxisType(value_type))
				ereport(ERROR,
				        (errcode(ERRCODE_DATATYPE_MISMATCH),
				         errmsg("the cut points in argument %d of pap.grid_counts are not followed by a number", i),
				         errdetail("After the radices, each axis is an int4 bin or a pair of float8[] cut points "
				                   "and a value of a number type.")));
			axis.value_type = value_type;
			if (PG_ARGISNULL(i))
				ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("cut points must not be NULL")));
			if (!AggregateArgIsStable(aggref, i - 1))
				ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				                errmsg("the cut points of pap.grid_counts must be a constant or a parameter")));
			axis.cuts = PapBuildCutLookup(PG_GETARG_ARRAYTYPE_P(i), flinfo->fn_mcxt);
			axis.arg = i + 1;
			i += 2;
		} else {
			ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
			                errmsg("argument %d of pap.grid_counts has type %s", i, format_type_be(type)),
			                errdetail("After the radices, each axis is an int4 bin or a pair of float8[] cut points "
			                          "and a value of a number type.")));
		}
		axes->count++;
	}
	if (axes->count != radix_count)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		         errmsg_plural("pap.grid_counts has %d radices for %d axis",
		                       "pap.grid_counts has %d radices for %d axes", axes->count, radix_count, axes->count)));
	axes->points = 1;
	for (int a = 0; a < axes->count; a++) {
		GridAxis &axis = axes->axis[a];
		axis.radix = radix[a];
		if (axis.cuts != nullptr && uint64(axis.radix) != uint64(axis.cuts->count()) + 2)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("radix " INT64_FORMAT " of axis %d does not match its %zu cut points", axis.radix,
			                       a + 1, axis.cuts->count()),
			                errdetail("An axis of M cut points has M + 2 bins: M + 1 ordered bins and the NULL bin.")));
		if (axis.radix < 1 || axis.radix > int64(PG_INT32_MAX) + 1)
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("radix " INT64_FORMAT " of axis %d is out of range", axis.radix, a + 1),
			                errdetail("The bins of an axis are int4 values from 0 to its radix - 1.")));
		if (__builtin_mul_overflow(axes->points, uint64(axis.radix), &axes->points) || axes->points > kMaxGridPoints)
			ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
			                errmsg("the grid of pap.grid_counts has more than 2^62 points")));
	}
	flinfo->fn_extra = axes;
	return axes;
}

}  // namespace

// (internal, int8[], VARIADIC "any") -> internal. Not STRICT (an internal state must be created here); a NULL
// value of a cut pair counts in its NULL bin, a NULL int4 bin is an error.
extern "C" Datum
pap_grid_counts_transfn(PG_FUNCTION_ARGS)
{
	const GridAxes *axes = (const GridAxes *)fcinfo->flinfo->fn_extra;
	if (unlikely(axes == nullptr)) {
		(void)AggregateContext(fcinfo, "pap_grid_counts_transfn");
		axes = ParseAxes(fcinfo);
	}
	GridCounts *state;
	if (unlikely(PG_ARGISNULL(0))) {
		MemoryContext context = AggregateContext(fcinfo, "pap_grid_counts_transfn");
		state = axes->points <= kDenseLimit ? NewDenseCounts(context, axes->points)
		                                    : NewHashCounts(context, kInitialCapacity);
	} else {
		state = (GridCounts *)PG_GETARG_POINTER(0);
	}
	int64 key = 0;
	for (int a = 0; a < axes->count; a++) {
		const GridAxis &axis = axes->axis[a];
		int64 bin;
		if (axis.cuts != nullptr) {
			if (PG_ARGISNULL(axis.arg))
				bin = int64(axis.cuts->count()) + 1;
			else if (likely(axis.value_type == FLOAT8OID))
				bin = int64(axis.cuts->Index(PG_GETARG_FLOAT8(axis.arg)));
			else
				bin = int64(axis.cuts->Index(PapNumberToAxis(PG_GETARG_DATUM(axis.arg), axis.value_type)));
		} else {
			if (unlikely(PG_ARGISNULL(axis.arg)))
				ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				                errmsg("the bin of axis %d of pap.grid_counts is NULL", a + 1)));
			bin = PG_GETARG_INT32(axis.arg);
			if (unlikely(bin < 0 || bin >= axis.radix))
				ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				                errmsg("a bin of axis %d of pap.grid_counts is outside 0 .. " INT64_FORMAT, a + 1,
				                       axis.radix - 1)));
		}
		key = key * axis.radix + bin;
	}
	if (likely(state->dense != nullptr))
		AddRows(&state->dense[key], 1);
	else
		AddToHash(state, key, 1);
	PG_RETURN_POINTER(state);
}

// (internal, internal) -> internal: the second state's counts added to the first's.
extern "C" Datum
pap_grid_counts_combinefn(PG_FUNCTION_ARGS)
{
	MemoryContext context = AggregateContext(fcinfo, "pap_grid_counts_combinefn");
	if (PG_ARGISNULL(1)) {
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	const GridCounts *other = (const GridCounts *)PG_GETARG_POINTER(1);
	GridCounts *state = PG_ARGISNULL(0) ? NewHashCounts(context, kInitialCapacity) : (GridCounts *)PG_GETARG_POINTER(0);
	ForEachKey(other, [state](int64 key, int64 rows) { Add(state, key, rows); });
	PG_RETURN_POINTER(state);
}

// internal -> bytea: the number of keys, then (key, rows) pairs.
extern "C" Datum
pap_grid_counts_serialfn(PG_FUNCTION_ARGS)
{
	(void)AggregateContext(fcinfo, "pap_grid_counts_serialfn");
	const GridCounts *state = (const GridCounts *)PG_GETARG_POINTER(0);
	StringInfoData buf;
	pq_begintypsend(&buf);
	pq_sendint64(&buf, int64(KeyCount(state)));
	ForEachKey(state, [&buf](int64 key, int64 rows) {
		pq_sendint64(&buf, key);
		pq_sendint64(&buf, rows);
	});
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

// (bytea, internal) -> internal (a hash state).
extern "C" Datum
pap_grid_counts_deserialfn(PG_FUNCTION_ARGS)
{
	(void)AggregateContext(fcinfo, "pap_grid_counts_deserialfn");
	bytea *bytes = PG_GETARG_BYTEA_PP(0);
	StringInfoData buf;  // read only, over the bytea's bytes
	buf.data = VARDATA_ANY(bytes);
	buf.len = int(VARSIZE_ANY_EXHDR(bytes));
	buf.maxlen = buf.len;
	buf.cursor = 0;
	const int64 n = pq_getmsgint64(&buf);
	if (n < 0 || uint64(n) > uint64(buf.len - buf.cursor) / 16)
		elog(ERROR, "pap_release: malformed grid_counts state");
	// n < 2^26: a bytea holds less than 1 GB. In the per-call context the executor resets for each worker's state:
	// the combine function only reads it (in the aggregate's context every worker's state stayed until the end).
	GridCounts *state = NewHashCounts(CurrentMemoryContext, Max(uint32(n), kInitialCapacity));
	for (int64 i = 0; i < n; i++) {
		if ((i & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		const int64 key = pq_getmsgint64(&buf);
		const int64 rows = pq_getmsgint64(&buf);
		if (rows <= 0)
			elog(ERROR, "pap_release: malformed grid_counts state");
		AddToHash(state, key, rows);
	}
	pq_getmsgend(&buf);
	PG_RETURN_POINTER(state);
}

// internal -> int8[]: [key0, rows0, key1, rows1, ...] sorted by key; empty when no row was aggregated. Leaves the
// state as it was (the executor may call it again).
extern "C" Datum
pap_grid_counts_finalfn(PG_FUNCTION_ARGS)
{
	(void)AggregateContext(fcinfo, "pap_grid_counts_finalfn");
	if (PG_ARGISNULL(0))
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(INT8OID));
	const GridCounts *state = (const GridCounts *)PG_GETARG_POINTER(0);
	const uint64 n = KeyCount(state);
	if (n > kMaxHashPoints)  // an array's element count is an int
		ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("too many grid points in one scan")));
	GridPoint *sorted = (GridPoint *)palloc(sizeof(GridPoint) * (n ? n : 1));
	uint64 j = 0;
	ForEachKey(state, [sorted, &j](int64 key, int64 rows) { sorted[j++] = GridPoint{key, rows}; });
	if (state->dense == nullptr)
		qsort(sorted, n, sizeof(GridPoint), CompareKeys);
	Datum *elements = (Datum *)palloc(sizeof(Datum) * 2 * (n ? n : 1));
	for (uint64 i = 0; i < n; i++) {
		if ((i & 0xFFFF) == 0)
			CHECK_FOR_INTERRUPTS();
		elements[2 * i] = Int64GetDatum(sorted[i].key);
		elements[2 * i + 1] = Int64GetDatum(sorted[i].rows);
	}
	ArrayType *result = construct_array(elements, int(2 * n), INT8OID, sizeof(int64), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE);
	pfree(sorted);
	pfree(elements);
	PG_RETURN_ARRAYTYPE_P(result);
}
