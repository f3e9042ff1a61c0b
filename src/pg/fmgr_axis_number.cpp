// Axis positions of numbers, total for every value a column can hold: the private scan must place every row in
// some cell, so no value of a scanned column may make it fail (docs/security.md, "Every row lands in a cell").
// PostgreSQL's own casts raise on the extremes (numeric 1e400 or 1e-400 to float8, float8 products that
// overflow); these conversions follow IEEE 754 instead: an overflow is +-Infinity, an underflow 0, a numeric NaN
// the float8 NaN, each ordered as float8 orders them.
#include "pg/glue.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
PG_FUNCTION_INFO_V1(pap_axis_value_numeric);
PG_FUNCTION_INFO_V1(pap_linear_value);
}

bool
PapIsNumberAxisType(Oid type)
{
	switch (type) {
	case INT2OID:
	case INT4OID:
	case INT8OID:
	case FLOAT4OID:
	case FLOAT8OID:
	case NUMERICOID: return true;
	default: return false;
	}
}

double
PapNumberToAxis(Datum value, Oid type)
{
	switch (type) {
	case INT2OID: return double(DatumGetInt16(value));
	case INT4OID: return double(DatumGetInt32(value));
	case INT8OID: return double(DatumGetInt64(value));  // rounds to nearest, never fails
	case FLOAT4OID: return double(DatumGetFloat4(value));
	case FLOAT8OID: return DatumGetFloat8(value);
	case NUMERICOID:
		// PostgreSQL's conversion for selectivity estimates: the decimal text through strtod, which gives
		// +-HUGE_VAL on overflow and 0 (or a subnormal) on underflow instead of raising; NaN and +-Infinity kept.
		return DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow, value));
	default: break;
	}
	elog(ERROR, "pap_release: type %u is not a number type of an axis", type);
	pg_unreachable();
}

// pap.axis_value(numeric) -> float8: total, unlike numeric::float8.
extern "C" Datum
pap_axis_value_numeric(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(PapNumberToAxis(PG_GETARG_DATUM(0), NUMERICOID));
}

// pap.linear_value(weights float8[], VARIADIC values "any") -> float8: the sum of weights[i] * values[i] in IEEE
// arithmetic (an overflow is +-Infinity, Infinity - Infinity NaN), for the linear axes of halfspaces. STRICT: a
// NULL value makes the whole value NULL (the axis's NULL bin). The argument types are checked once per call site.
extern "C" Datum
pap_linear_value(PG_FUNCTION_ARGS)
{
	FmgrInfo *flinfo = fcinfo->flinfo;
	const int nargs = PG_NARGS();
	Oid *types = (Oid *)flinfo->fn_extra;
	if (types == nullptr) {
		if (get_fn_expr_variadic(flinfo))
			ereport(ERROR,
			        (errcode(ERRCODE_DATATYPE_MISMATCH), errmsg("pap.linear_value does not take a VARIADIC array"),
			         errhint("Pass each value as its own argument.")));
		types = (Oid *)MemoryContextAlloc(flinfo->fn_mcxt, sizeof(Oid) * size_t(nargs));
		for (int i = 1; i < nargs; i++) {
			types[i] = get_fn_expr_argtype(flinfo, i);
			if (types[i] == InvalidOid)
				ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				                errmsg("pap.linear_value needs its call expression to read its argument types")));
			types[i] = getBaseType(types[i]);  // a domain's values are its base type's
			if (!PapIsNumberAxisType(types[i]))
				ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
				                errmsg("argument %d of pap.linear_value has type %s", i + 1, format_type_be(types[i])),
				                errdetail("The values of a linear axis are smallint, integer, bigint, real, double "
				                          "precision or numeric.")));
		}
		flinfo->fn_extra = types;
	}
	ArrayType *weights = PG_GETARG_ARRAYTYPE_P(0);
	if (ARR_NDIM(weights) > 1 || ARR_HASNULL(weights) || ARR_ELEMTYPE(weights) != FLOAT8OID)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("weights must be a one-dimensional float8 array without NULLs")));
	const int count = ARR_NDIM(weights) == 0 ? 0 : ARR_DIMS(weights)[0];
	if (count != nargs - 1)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("pap.linear_value has %d weights for %d values", count, nargs - 1)));
	const double *w = (const double *)ARR_DATA_PTR(weights);
	double sum = 0.0;
	for (int i = 1; i < nargs; i++)
		sum += w[i - 1] * PapNumberToAxis(PG_GETARG_DATUM(i), types[i]);
	PG_RETURN_FLOAT8(sum);
}
