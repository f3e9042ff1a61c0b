// Budgets in rho: their unit, a run's cost in rho, and the conversion pap.zcdp_epsilon (docs/mechanisms.md, "zCDP
// budgets"). pap.set_budget_rho is in fmgr_budget.cpp, beside pap.set_budget.
#include "pg/zcdp_budget.hpp"

#include "core/api/release_api.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"

extern "C" {
#include "access/attnum.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
PG_FUNCTION_INFO_V1(pap_zcdp_epsilon);
}

bool
PapZcdpBudgetsInstalled()
{
	const Oid schema = get_namespace_oid("pap", true);
	const Oid budgets = OidIsValid(schema) ? get_relname_relid("budget_data", schema) : InvalidOid;
	return OidIsValid(budgets) && get_attnum(budgets, "rho_total") != InvalidAttrNumber;
}

bool
PapBudgetInRho(Oid table, double *delta)
{
	if (!PapZcdpBudgetsInstalled())
		return false;
	PapExecuteOnTable("SELECT delta_total::pg_catalog.text FROM pap.budget_data "
	                  "WHERE private_table OPERATOR(pg_catalog.=) $1 AND rho_total IS NOT NULL",
	                  table, false);
	if (SPI_processed == 0)
		return false;
	*delta = PapDecimalFloor(SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
	return true;
}

char *
PapZcdpCost(const char *epsilon, const char *factor)
{
	// numeric multiplication is exact (its scale is the sum of its factors'); a division could round.
	Datum e =
	    DirectFunctionCall3(numeric_in, CStringGetDatum(epsilon), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	Datum f = DirectFunctionCall3(numeric_in, CStringGetDatum(factor), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	Datum rho = DirectFunctionCall2(numeric_mul, DirectFunctionCall2(numeric_mul, e, e), f);
	return DatumGetCString(DirectFunctionCall1(numeric_out, rho));
}

extern "C" Datum
pap_zcdp_epsilon(PG_FUNCTION_ARGS)
{
	const double rho = PG_GETARG_FLOAT8(0), delta = PG_GETARG_FLOAT8(1);
	double epsilon = 0;
	PAP_CORE(epsilon = pap::core::ZcdpEpsilon(rho, delta));
	PG_RETURN_FLOAT8(epsilon);
}
