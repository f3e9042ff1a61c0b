// Budgets in rho: their unit, a run's cost in rho, and the SQL functions pap.set_budget_rho and pap.zcdp_epsilon
// (docs/mechanisms.md, "zCDP budgets").
#include "pg/zcdp_budget.hpp"

#include "core/api/release_api.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/relation_kinds.hpp"

#include <cmath>

extern "C" {
#include "access/attnum.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
PG_FUNCTION_INFO_V1(pap_zcdp_epsilon);
PG_FUNCTION_INFO_V1(pap_set_budget_rho);
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
	Oid types[1] = {REGCLASSOID};
	Datum values[1] = {ObjectIdGetDatum(table)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("SELECT delta_total::pg_catalog.text FROM pap.budget_data "
	           "WHERE private_table OPERATOR(pg_catalog.=) $1 AND rho_total IS NOT NULL",
	           1, types, values, false);
	PapRestoreUser(&saved);
	if (SPI_processed == 0)
		return false;
	*delta = PapDecimalFloor(SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
	return true;
}

char *
PapZcdpCost(const char *epsilon)
{
	// numeric multiplication is exact (its scale is the sum of its factors'); a division by 2 could round.
	Datum e =
	    DirectFunctionCall3(numeric_in, CStringGetDatum(epsilon), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	Datum half =
	    DirectFunctionCall3(numeric_in, CStringGetDatum("0.5"), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	Datum rho = DirectFunctionCall2(numeric_mul, DirectFunctionCall2(numeric_mul, e, e), half);
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

// The refusal of a new total: below what is spent, or a change of unit after a spend or beside a grant's limit in
// the old unit. Reads the row as the catalog owner (SPI open).
[[noreturn]] static void
RefuseBudgetRho(Oid table, const char *table_name)
{
	Oid types[1] = {REGCLASSOID};
	Datum values[1] = {ObjectIdGetDatum(table)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("SELECT b.rho_total IS NULL, b.rho_spent::pg_catalog.text, b.epsilon_spent::pg_catalog.text, "
	           "b.delta_spent::pg_catalog.text, EXISTS (SELECT 1 FROM pap.spender_data s WHERE s.budget_id "
	           "OPERATOR(pg_catalog.=) b.budget_id AND s.epsilon_limit IS NOT NULL) "
	           "FROM pap.budget_data b WHERE b.private_table OPERATOR(pg_catalog.=) $1",
	           1, types, values, true);
	PapRestoreUser(&saved);
	HeapTuple row = SPI_tuptable->vals[0];
	TupleDesc desc = SPI_tuptable->tupdesc;
	bool isnull;
	if (!DatumGetBool(SPI_getbinval(row, desc, 1, &isnull)))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("privacy budget of %s cannot be set below what is already spent", table_name),
		                errdetail("Spent so far: rho %s.", SPI_getvalue(row, desc, 2)),
		                errhint("A budget never refunds: set a total at least as large as the amount spent.")));
	if (DatumGetBool(SPI_getbinval(row, desc, 5, &isnull)))
		ereport(
		    ERROR,
		    (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		     errmsg("privacy budget of %s cannot change its unit while a grant limits epsilon", table_name),
		     errdetail("A limit in epsilon means nothing on a budget in rho."),
		     errhint("Revoke the grants with a limit (pap.revoke_spend), then grant again with pap.grant_spend_rho.")));
	ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
	                errmsg("privacy budget of %s cannot change its unit after a charge", table_name),
	                errdetail("It is in (epsilon, delta), and epsilon %s and delta %s are spent.",
	                          SPI_getvalue(row, desc, 3), SPI_getvalue(row, desc, 4)),
	                errhint("A budget keeps one unit once anything is spent, so that its charges add up.")));
}

extern "C" Datum
pap_set_budget_rho(PG_FUNCTION_ARGS)
{
	const Oid table = PG_GETARG_OID(0);
	const double rho = PG_GETARG_FLOAT8(1), delta = PG_GETARG_FLOAT8(2);
	// rho as epsilon^2 / 2 of an epsilon in the range every run accepts; delta in (0, 1): the conversion needs it.
	if (!(rho > 0) || !std::isfinite(rho))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("rho must be finite and positive, got %s", float8out_internal(rho))));
	if (!(delta > 0 && delta < 1))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("delta of a budget in rho must be in (0, 1), got %s", float8out_internal(delta)),
		                errdetail("The budget reports its charges in (epsilon, delta) at this delta."),
		                errhint("A common choice is well below 1 / n, for example 1e-9.")));
	char *rho_text, *delta_text;
	(void)PapLedgerAmount(rho, &rho_text);
	const double delta_floor = PapLedgerAmount(delta, &delta_text);
	PAP_CORE(pap::core::ValidatePrivacyParameters(1.0, delta_floor));
	// What the total amounts to in (epsilon, delta): the conversion at a double not below the decimal total. Its
	// margin (above a relative 1e-12, ZcdpEpsilon) covers the rounding to the ledger's 15 digits.
	double epsilon_total = 0;
	PAP_CORE(epsilon_total = pap::core::ZcdpEpsilon(std::nextafter(strtod(rho_text, nullptr), HUGE_VAL), delta_floor));
	if (!(epsilon_total > 0) || !std::isfinite(epsilon_total))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("rho %s at delta %s converts to epsilon %s", rho_text, delta_text,
		                       float8out_internal(epsilon_total)),
		                errdetail("A budget's epsilon must be finite and positive."),
		                errhint("Choose a larger rho or a smaller delta.")));
	char *table_name = PapQualifiedRelationName(table);
	if (!pg_class_ownercheck(table, GetUserId()))
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be owner of table %s", table_name),
		                errdetail("Only the owner of a private table sets its privacy budget.")));
	const char *user = GetUserNameFromId(GetUserId(), false);

	SPI_connect();
	if (!PapZcdpBudgetsInstalled())
		ereport(ERROR,
		        (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("budgets in rho need version 0.2 of pap_release's SQL"),
		         errhint("Run ALTER EXTENSION pap_release UPDATE.")));
	PapRequirePrivateTable(table);
	Oid types[5] = {REGCLASSOID, TEXTOID, TEXTOID, NAMEOID, FLOAT8OID};
	Datum values[5] = {ObjectIdGetDatum(table), CStringGetTextDatum(rho_text), CStringGetTextDatum(delta_text),
	                   DirectFunctionCall1(namein, CStringGetDatum(user)), Float8GetDatum(epsilon_total)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	// One statement, as pap.set_budget: insert, or change the total, but never below what is spent, and change the
	// unit only while nothing is spent and no grant limits epsilon. epsilon_total and epsilon_spent hold the
	// conversions at delta (the charge keeps epsilon_spent so); the row lock serialises it with a charge.
	PapExecute(
	    "INSERT INTO pap.budget_data AS b (private_table, epsilon_total, delta_total, set_by, set_at, rho_total) "
	    "VALUES ($1, $5::pg_catalog.numeric, $3::pg_catalog.numeric, $4, pg_catalog.now(), "
	    "$2::pg_catalog.numeric) "
	    "ON CONFLICT (private_table) DO UPDATE SET rho_total = excluded.rho_total, "
	    "  epsilon_total = excluded.epsilon_total, delta_total = excluded.delta_total, "
	    "  epsilon_spent = CASE WHEN b.rho_spent OPERATOR(pg_catalog.=) 0 THEN 0 ELSE "
	    "    pap.zcdp_epsilon(b.rho_spent::pg_catalog.float8, $3::pg_catalog.float8)::pg_catalog.numeric END, "
	    "  set_by = excluded.set_by, set_at = excluded.set_at "
	    "WHERE b.rho_spent OPERATOR(pg_catalog.<=) excluded.rho_total AND (b.rho_total IS NOT NULL OR "
	    "  (b.epsilon_spent OPERATOR(pg_catalog.=) 0 AND b.delta_spent OPERATOR(pg_catalog.=) 0 AND NOT EXISTS "
	    "   (SELECT 1 FROM pap.spender_data s WHERE s.budget_id OPERATOR(pg_catalog.=) b.budget_id "
	    "    AND s.epsilon_limit IS NOT NULL)))",
	    5, types, values, false);
	const uint64 changed = SPI_processed;
	PapRestoreUser(&saved);
	if (changed == 0)
		RefuseBudgetRho(table, table_name);
	SPI_finish();
	PG_RETURN_VOID();
}
