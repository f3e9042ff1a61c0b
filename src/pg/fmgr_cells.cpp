// The deterministic helpers of the private scan: axis positions and the cell of a value. IMMUTABLE and
// PARALLEL SAFE, so that the histogram query parallelises and can be shipped to remote servers.
#include "core/axes/cut_lookup.hpp"
#include "core/axes/numeric_axis.hpp"
#include "pg/glue.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
PG_FUNCTION_INFO_V1(pap_axis_value_float8);
PG_FUNCTION_INFO_V1(pap_axis_value_date);
PG_FUNCTION_INFO_V1(pap_axis_value_timestamp);
PG_FUNCTION_INFO_V1(pap_axis_value_timestamptz);
PG_FUNCTION_INFO_V1(pap_cell_index);
PG_FUNCTION_INFO_V1(pap_category_index);
}

extern "C" Datum
pap_axis_value_float8(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(PG_GETARG_FLOAT8(0));
}

extern "C" Datum
pap_axis_value_date(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(PapDateToAxis(PG_GETARG_DATEADT(0)));
}

extern "C" Datum
pap_axis_value_timestamp(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(PapTimestampToAxis(PG_GETARG_TIMESTAMP(0)));
}

extern "C" Datum
pap_axis_value_timestamptz(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(PapTimestampToAxis(PG_GETARG_TIMESTAMPTZ(0)));
}

// A cut-point argument's elements, checked: a one-dimensional float8 array without NULLs, sorted in float8 order
// (NaN last; else the bins of the binary search and of the lookup would be meaningless).
static const double *
CheckedCuts(ArrayType *cuts, int *count)
{
	if (ARR_NDIM(cuts) > 1 || ARR_HASNULL(cuts) || ARR_ELEMTYPE(cuts) != FLOAT8OID)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("cut points must be a one-dimensional float8 array without NULLs")));
	*count = ARR_NDIM(cuts) == 0 ? 0 : ARR_DIMS(cuts)[0];
	const double *data = (const double *)ARR_DATA_PTR(cuts);
	for (int i = 1; i < *count; i++)
		if (pap::core::PgFloatLess(data[i], data[i - 1]))
			ereport(ERROR,
			        (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("cut points must be sorted in float8 order")));
	return data;
}

const pap::core::CutLookup *
PapBuildCutLookup(ArrayType *cuts, MemoryContext context)
{
	int count;
	const double *data = CheckedCuts(cuts, &count);
	void *memory = MemoryContextAllocExtended(context, pap::core::CutLookup::BytesFor(size_t(count)), MCXT_ALLOC_HUGE);
	return pap::core::CutLookup::Build(data, size_t(count), memory);
}

// cells 0..M are the ordered bins of the M cut points; M + 1 is the NULL cell. When the array cannot change
// during the query (a Const or an external Param, as in the private scan's GROUP BY form) its CutLookup is built
// once into fn_extra: the rows then skip the detoasting and the checks, and the binary search.
extern "C" Datum
pap_cell_index(PG_FUNCTION_ARGS)
{
	const pap::core::CutLookup *lookup = (const pap::core::CutLookup *)fcinfo->flinfo->fn_extra;
	if (likely(lookup != nullptr)) {
		if (PG_ARGISNULL(1))
			PG_RETURN_INT32(int32(lookup->count()) + 1);
		PG_RETURN_INT32(int32(lookup->Index(PG_GETARG_FLOAT8(1))));
	}
	if (PG_ARGISNULL(0))
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("cut points must not be NULL")));
	ArrayType *cuts = PG_GETARG_ARRAYTYPE_P(0);
	if (get_fn_expr_arg_stable(fcinfo->flinfo, 0)) {
		fcinfo->flinfo->fn_extra = (void *)PapBuildCutLookup(cuts, fcinfo->flinfo->fn_mcxt);
		return pap_cell_index(fcinfo);
	}
	int count;
	const double *data = CheckedCuts(cuts, &count);
	if (PG_ARGISNULL(1))
		PG_RETURN_INT32(count + 1);
	PG_RETURN_INT32(int32(pap::core::BranchlessCountBelow(data, size_t(count), PG_GETARG_FLOAT8(1))));
}

// The categories of a categorical axis, unpacked once per scan and kept in fn_extra with a copy of the array's
// bytes, which recognise it on the next row; when the argument cannot change during the query (a Const or an
// external Param, as in the private scan) the rows skip that comparison too. The unpacked array lives in its own
// context, reset whenever a row brings another array: memory stays one array's worth however many rows vary.
struct PapCategoryCache {
	MemoryContext context;  // child of fn_mcxt; holds raw, data and length
	bool valid;
	struct varlena *raw;  // copy of the array's bytes
	Size raw_size;
	int count;
	const char **data;
	int *length;
	int max_length;  // the longest category's bytes
	bool stable;     // get_fn_expr_arg_stable: the array is the same for every call
};

static int
CompareBytes(const char *a, int alen, const char *b, int blen)
{
	const int c = memcmp(a, b, size_t(Min(alen, blen)));
	return c != 0 ? c : (alen < blen ? -1 : alen > blen ? 1 : 0);
}

// bins 0..C-1 are the categories (sorted by bytes, as the core sorts them), C is "other", C + 1 the NULL bin.
extern "C" Datum
pap_category_index(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("categories must not be NULL")));
	PapCategoryCache *cache = (PapCategoryCache *)fcinfo->flinfo->fn_extra;
	if (cache == nullptr) {
		cache = (PapCategoryCache *)MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(PapCategoryCache));
		cache->context = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "pap.category_index", ALLOCSET_SMALL_SIZES);
		cache->stable = get_fn_expr_arg_stable(fcinfo->flinfo, 0);
		fcinfo->flinfo->fn_extra = cache;
	}
	if (!cache->valid || !cache->stable) {
		struct varlena *raw = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
		const Size raw_size = VARSIZE_ANY(raw);
		if (!cache->valid || cache->raw_size != raw_size || memcmp(cache->raw, raw, raw_size) != 0) {
			ArrayType *array = (ArrayType *)raw;
			if (ARR_NDIM(array) > 1 || ARR_HASNULL(array) || ARR_ELEMTYPE(array) != TEXTOID)
				ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				                errmsg("categories must be a one-dimensional text array without NULLs")));
			cache->valid = false;
			MemoryContextReset(cache->context);
			MemoryContext old = MemoryContextSwitchTo(cache->context);
			cache->raw = (struct varlena *)palloc(raw_size);
			memcpy(cache->raw, raw, raw_size);
			cache->raw_size = raw_size;
			Datum *elements;
			deconstruct_array((ArrayType *)cache->raw, TEXTOID, -1, false, TYPALIGN_INT, &elements, NULL,
			                  &cache->count);
			cache->data = (const char **)palloc(sizeof(char *) * (cache->count + 1));
			cache->length = (int *)palloc(sizeof(int) * (cache->count + 1));
			cache->max_length = 0;
			for (int i = 0; i < cache->count; i++) {
				text *t = DatumGetTextPP(elements[i]);
				cache->data[i] = VARDATA_ANY(t);
				cache->length[i] = int(VARSIZE_ANY_EXHDR(t));
				cache->max_length = Max(cache->max_length, cache->length[i]);
				if (i > 0 &&
				    CompareBytes(cache->data[i - 1], cache->length[i - 1], cache->data[i], cache->length[i]) >= 0)
					ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					                errmsg("categories must be distinct and sorted by bytes")));
			}
			pfree(elements);
			MemoryContextSwitchTo(old);
			cache->valid = true;
		}
		if ((Pointer)raw != DatumGetPointer(PG_GETARG_DATUM(0)))
			pfree(raw);
	}
	if (PG_ARGISNULL(1))
		PG_RETURN_INT32(cache->count + 1);
	// A value stored compressed or out of line is read only as far as a category reaches, and one byte more: a
	// longer value is "other" whatever the rest holds. Whole, one private row's value (a label of 300 MB) decided
	// whether a charged run ran out of memory, and how long it took.
	const Datum arg = PG_GETARG_DATUM(1);
	const bool stored_apart = VARATT_IS_EXTERNAL(DatumGetPointer(arg)) || VARATT_IS_COMPRESSED(DatumGetPointer(arg));
	text *value = stored_apart ? DatumGetTextPSlice(arg, 0, int32(cache->max_length) + 1) : DatumGetTextPP(arg);
	const char *v = VARDATA_ANY(value);
	const int vlen = int(VARSIZE_ANY_EXHDR(value));
	int lo = 0, hi = cache->count;
	while (lo < hi) {
		const int mid = lo + (hi - lo) / 2;
		const int c = CompareBytes(cache->data[mid], cache->length[mid], v, vlen);
		if (c == 0)
			PG_RETURN_INT32(mid);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	PG_RETURN_INT32(cache->count);
}
