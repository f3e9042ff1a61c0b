// pap.set_budget: the owner of a private table sets its total privacy budget.
#include "core/api/release_api.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/relation_kinds.hpp"
#include "pg/zcdp_budget.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
PG_FUNCTION_INFO_V1(pap_set_budget);
}

// A budget in rho that pap.set_budget may not turn into one in (epsilon, delta): raises; returns for any other
// refusal (an epsilon budget below what is spent). Reads the row as the catalog owner (SPI open).
static void
RefuseUnitChange(Oid table, const char *table_name)
{
	Oid types[1] = {REGCLASSOID};
	Datum values[1] = {ObjectIdGetDatum(table)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("SELECT b.rho_spent::pg_catalog.text, EXISTS (SELECT 1 FROM pap.spender_data s WHERE s.budget_id "
	           "OPERATOR(pg_catalog.=) b.budget_id AND s.rho_limit IS NOT NULL) "
	           "FROM pap.budget_data b WHERE b.private_table OPERATOR(pg_catalog.=) $1 AND b.rho_total IS NOT NULL",
	           1, types, values, true);
	PapRestoreUser(&saved);
	if (SPI_processed == 0)
		return;
	bool isnull;
	if (DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &isnull)))
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		         errmsg("privacy budget of %s cannot change its unit while a grant limits rho", table_name),
		         errdetail("A limit in rho means nothing on a budget in (epsilon, delta)."),
		         errhint("Revoke the grants with a limit (pap.revoke_spend), then grant again with pap.grant_spend.")));
	ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
	                errmsg("privacy budget of %s cannot change its unit after a charge", table_name),
	                errdetail("It is in rho, and rho %s is spent.",
	                          SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1)),
	                errhint("A budget keeps one unit once anything is spent, so that its charges add up.")));
}

extern "C" Datum
pap_set_budget(PG_FUNCTION_ARGS)
{
	Oid table = PG_GETARG_OID(0);
	double epsilon = PG_GETARG_FLOAT8(1);
	double delta = PG_GETARG_FLOAT8(2);
	PAP_CORE(pap::core::ValidatePrivacyParameters(epsilon, delta));
	char *table_name = PapQualifiedRelationName(table);
	if (!pg_class_ownercheck(table, GetUserId()))
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be owner of table %s", table_name),
		                errdetail("Only the owner of a private table sets its privacy budget.")));
	const char *user = GetUserNameFromId(GetUserId(), false);

	SPI_connect();
	PapRequirePrivateTable(table);
	// One statement: insert, or raise the total, but never below what has been spent already. The row lock
	// it takes serialises it with a concurrent charge.
	Oid types[4] = {REGCLASSOID, FLOAT8OID, FLOAT8OID, NAMEOID};
	Datum values[4] = {ObjectIdGetDatum(table), Float8GetDatum(epsilon), Float8GetDatum(delta),
	                   DirectFunctionCall1(namein, CStringGetDatum(user))};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	// A budget in rho becomes one in (epsilon, delta) only while nothing is spent and no grant limits rho
	// (docs/mechanisms.md, "zCDP budgets"): its rho_total goes, and with it the unit.
	const bool zcdp = PapZcdpBudgetsInstalled();
	PapExecute(psprintf("INSERT INTO pap.budget_data AS b (private_table, epsilon_total, delta_total, set_by, set_at) "
	                    "VALUES ($1, $2::pg_catalog.numeric, $3::pg_catalog.numeric, $4, pg_catalog.now()) "
	                    "ON CONFLICT (private_table) DO UPDATE SET epsilon_total = excluded.epsilon_total, "
	                    "  delta_total = excluded.delta_total, set_by = excluded.set_by, set_at = excluded.set_at%s "
	                    "WHERE b.epsilon_spent OPERATOR(pg_catalog.<=) excluded.epsilon_total "
	                    "  AND b.delta_spent OPERATOR(pg_catalog.<=) excluded.delta_total%s",
	                    zcdp ? ", rho_total = NULL" : "",
	                    zcdp ? " AND (b.rho_total IS NULL OR (b.rho_spent OPERATOR(pg_catalog.=) 0 AND NOT EXISTS "
	                           "(SELECT 1 FROM pap.spender_data s WHERE s.budget_id OPERATOR(pg_catalog.=) "
	                           "b.budget_id AND s.rho_limit IS NOT NULL)))"
	                         : ""),
	           4, types, values, false);
	const uint64 changed = SPI_processed;
	if (changed == 0 && zcdp)
		RefuseUnitChange(table, table_name);
	if (changed == 0) {
		PapExecute("SELECT epsilon_spent::pg_catalog.text, delta_spent::pg_catalog.text FROM pap.budget_data "
		           "WHERE private_table OPERATOR(pg_catalog.=) $1",
		           1, types, values, true);
		const char *eps_spent = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		const char *delta_spent = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
		PapRestoreUser(&saved);
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("privacy budget of %s cannot be set below what is already spent", table_name),
		                errdetail("Spent so far: epsilon %s, delta %s.", eps_spent, delta_spent),
		                errhint("A budget never refunds: set a total at least as large as the amount spent.")));
	}
	PapRestoreUser(&saved);
	SPI_finish();
	PG_RETURN_VOID();
}
