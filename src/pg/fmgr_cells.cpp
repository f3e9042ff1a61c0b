// The deterministic helpers of the private scan: axis positions and the cell of a value. IMMUTABLE and
// PARALLEL SAFE, so that the histogram query parallelises and can be shipped to remote servers.
#include "core/numeric_axis.hpp"
#include "pg/glue.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "utils/timestamp.h"
PG_FUNCTION_INFO_V1(pap_axis_value_float8);
PG_FUNCTION_INFO_V1(pap_axis_value_date);
PG_FUNCTION_INFO_V1(pap_axis_value_timestamp);
PG_FUNCTION_INFO_V1(pap_axis_value_timestamptz);
PG_FUNCTION_INFO_V1(pap_cell_index);
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

// cells 0..M are the ordered bins of the M cut points; M + 1 is the NULL cell.
extern "C" Datum
pap_cell_index(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("cut points must not be NULL")));
	ArrayType *cuts = PG_GETARG_ARRAYTYPE_P(0);
	if (ARR_NDIM(cuts) > 1 || ARR_HASNULL(cuts) || ARR_ELEMTYPE(cuts) != FLOAT8OID)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("cut points must be a one-dimensional float8 array without NULLs")));
	const int count = ArrayGetNItems(ARR_NDIM(cuts), ARR_DIMS(cuts));
	if (PG_ARGISNULL(1))
		PG_RETURN_INT32(count + 1);
	const double *data = (const double *) ARR_DATA_PTR(cuts);
	PG_RETURN_INT32(int32(pap::core::CountBelowSorted(data, size_t(count), PG_GETARG_FLOAT8(1))));
}
