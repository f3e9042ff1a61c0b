// pap.set_budget and pap.set_budget_rho: the owner of a private table sets its total privacy budget, in (epsilon,
// delta) or in rho (docs/mechanisms.md, "zCDP budgets").
#include "core/api/release_api.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/relation_kinds.hpp"
#include "pg/zcdp_budget.hpp"

#include <cmath>

extern "C" {
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
PG_FUNCTION_INFO_V1(pap_set_budget);
PG_FUNCTION_INFO_V1(pap_set_budget_rho);
}

static void
RequireBudgetOwner(Oid table, const char *table_name)
{
	if (!pg_class_ownercheck(table, GetUserId()))
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be owner of table %s", table_name),
		                errdetail("Only the owner of a private table sets its privacy budget.")));
}

// The refusals below read the budget row again after the upsert declined to change it. With a fresh snapshot (not
// read-only, whose snapshot is the calling statement's): a row another session created or changed since this
// statement began is what the upsert saw. Should it be gone (its table dropped meanwhile), the call is refused as
// one to repeat, never read from a row that is not there.
static void
RequireBudgetRowRead(const char *table_name)
{
	if (SPI_processed != 1)
		ereport(ERROR,
		        (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		         errmsg("privacy budget of %s changed while it was being set", table_name), errhint("Call it again.")));
}

// A budget in rho that pap.set_budget may not turn into one in (epsilon, delta): raises; returns for any other
// refusal (an epsilon budget below what is spent). Reads the row as the catalog owner (SPI open).
static void
RefuseUnitChange(Oid table, const char *table_name)
{
	PapExecuteOnTable(
	    "SELECT b.rho_spent::pg_catalog.text, EXISTS (SELECT 1 FROM pap.spender_data s WHERE "
	    "s.budget_id OPERATOR(pg_catalog.=) b.budget_id AND s.rho_limit IS NOT NULL) FROM pap.budget_data b "
	    "WHERE b.private_table OPERATOR(pg_catalog.=) $1 AND b.rho_total IS NOT NULL",
	    table, false);
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

// A budget's delta is stored at 15 significant digits (the float8-to-numeric cast): a delta below 1 that rounds to
// 1 there (0.9999999999999999) is refused as delta 1 is, not by the catalog's check (23514).
static void
RequireStoredDeltaBelowOne(double delta)
{
	char *decimal;
	(void)PapLedgerAmount(delta, &decimal);
	if (strtod(decimal, nullptr) >= 1.0)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("delta must be below 1 at 15 significant digits, got %.17g", delta)));
}

extern "C" Datum
pap_set_budget(PG_FUNCTION_ARGS)
{
	Oid table = PG_GETARG_OID(0);
	double epsilon = PG_GETARG_FLOAT8(1);
	double delta = PG_GETARG_FLOAT8(2);
	PAP_CORE(pap::core::ValidatePrivacyParameters(epsilon, delta));
	RequireStoredDeltaBelowOne(delta);
	PapLockTable(table);
	char *table_name = PapQualifiedRelationName(table);
	RequireBudgetOwner(table, table_name);
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
		           1, types, values, false);
		RequireBudgetRowRead(table_name);
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

// The refusal of a new total: below what is spent, or a change of unit after a spend or beside a grant's limit in
// the old unit. Reads the row as the catalog owner (SPI open).
[[noreturn]] static void
RefuseBudgetRho(Oid table, const char *table_name)
{
	PapExecuteOnTable("SELECT b.rho_total IS NULL, b.rho_spent::pg_catalog.text, b.epsilon_spent::pg_catalog.text, "
	                  "b.delta_spent::pg_catalog.text, EXISTS (SELECT 1 FROM pap.spender_data s WHERE s.budget_id "
	                  "OPERATOR(pg_catalog.=) b.budget_id AND s.epsilon_limit IS NOT NULL) "
	                  "FROM pap.budget_data b WHERE b.private_table OPERATOR(pg_catalog.=) $1",
	                  table, false);
	RequireBudgetRowRead(table_name);
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
	// delta in (0, 1): the budget is reported in (epsilon, delta) at it, and the conversion needs it.
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
	PapLockTable(table);
	char *table_name = PapQualifiedRelationName(table);
	RequireBudgetOwner(table, table_name);
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
	// unit only while nothing is spent and no grant limits epsilon. epsilon_total and epsilon_spent (and
	// delta_spent) hold the conversions at the new delta (the charge keeps them so); the row lock serialises it
	// with a charge.
	PapExecute(
	    "INSERT INTO pap.budget_data AS b (private_table, epsilon_total, delta_total, set_by, set_at, rho_total) "
	    "VALUES ($1, $5::pg_catalog.numeric, $3::pg_catalog.numeric, $4, pg_catalog.now(), "
	    "$2::pg_catalog.numeric) "
	    "ON CONFLICT (private_table) DO UPDATE SET rho_total = excluded.rho_total, "
	    "  epsilon_total = excluded.epsilon_total, delta_total = excluded.delta_total, "
	    "  epsilon_spent = CASE WHEN b.rho_spent OPERATOR(pg_catalog.=) 0 THEN 0 ELSE "
	    "    pap.zcdp_epsilon(b.rho_spent::pg_catalog.float8, $3::pg_catalog.float8)::pg_catalog.numeric END, "
	    "  delta_spent = CASE WHEN b.rho_spent OPERATOR(pg_catalog.=) 0 THEN 0 ELSE excluded.delta_total END, "
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
