// pap.grant_spend and pap.revoke_spend: the owner of a private table lets another role spend its budget; the
// checks of that right at pap.run_release (spend_rights.hpp).
#include "core/api/release_api.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/relation_kinds.hpp"
#include "pg/spend_rights.hpp"
#include "pg/zcdp_budget.hpp"

#include <cmath>

extern "C" {
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
PG_FUNCTION_INFO_V1(pap_grant_spend);
PG_FUNCTION_INFO_V1(pap_revoke_spend);
PG_FUNCTION_INFO_V1(pap_grant_spend_rho);
}

// The statement that finds a table's budget row; $1 is the table.
#define PAP_BUDGET_OF_TABLE                                                                                            \
	"(SELECT b.budget_id FROM pap.budget_data b WHERE b.private_table OPERATOR(pg_catalog.=) $1)"

static void
RequireOwner(Oid table, const char *table_name, const char *what)
{
	if (!pg_class_ownercheck(table, GetUserId()))
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be owner of table %s", table_name),
		                errdetail("Only the owner of a private table %s.", what)));
}

// The budget row of a private table, which a grant names; 55000 when it has none.
static int64
BudgetIdOf(Oid table, const char *table_name)
{
	Oid types[1] = {REGCLASSOID};
	Datum values[1] = {ObjectIdGetDatum(table)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("SELECT " PAP_BUDGET_OF_TABLE, 1, types, values, true);
	PapRestoreUser(&saved);
	bool isnull = true;
	Datum id = SPI_processed == 1 ? SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull) : 0;
	if (isnull)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("private table %s has no privacy budget", table_name),
		                errhint("Set one first with SELECT pap.set_budget('%s', epsilon, delta).", table_name)));
	return DatumGetInt64(id);
}

// pap.grant_spend (rho false) and pap.grant_spend_rho (rho true): the limit is in the budget's unit, which must be
// the function's when a limit is given (docs/mechanisms.md, "zCDP budgets").
static void
GrantSpend(FunctionCallInfo fcinfo, bool rho)
{
	const char *unit = rho ? "rho" : "epsilon";
	if (PG_ARGISNULL(0))
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("private table must not be NULL")));
	if (PG_ARGISNULL(1))
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("grantee must not be NULL")));
	const Oid table = PG_GETARG_OID(0), grantee = PG_GETARG_OID(1);
	PapLockTable(table);
	const char *table_name = PapQualifiedRelationName(table);
	RequireOwner(table, table_name, "grants the right to spend its budget");
	const char *grantee_name = GetUserNameFromId(grantee, false);
	// A limit is an amount of epsilon as the ledger records one (15 significant digits), so that it compares with
	// the charges exactly.
	char *limit_text = NULL;
	if (!PG_ARGISNULL(2)) {
		const double limit = PG_GETARG_FLOAT8(2);
		if (!(limit > 0.0) || !std::isfinite(limit))
			ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			                errmsg("%s limit must be finite and positive, got %s", unit, float8out_internal(limit)),
			                errhint("Pass NULL for no limit but the table's budget; revoke the right with "
			                        "pap.revoke_spend.")));
		(void)PapLedgerAmount(limit, &limit_text);
	}
	if (has_privs_of_role(grantee, PapRelationOwner(table)))
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_GRANT_OPERATION), errmsg("role %s owns table %s", grantee_name, table_name),
		         errdetail("The owner of a private table, and every member of its role, spends its budget "
		                   "without a grant, and without a limit.")));
	const char *user = GetUserNameFromId(GetUserId(), false);

	SPI_connect();
	PapRequirePrivateTable(table);
	const int64 budget_id = BudgetIdOf(table, table_name);
	if (rho && !PapZcdpBudgetsInstalled())
		ereport(ERROR,
		        (errcode(ERRCODE_FEATURE_NOT_SUPPORTED), errmsg("budgets in rho need version 0.2 of pap_release's SQL"),
		         errhint("Run ALTER EXTENSION pap_release UPDATE.")));
	double delta;
	if (limit_text && PapBudgetInRho(table, &delta) != rho)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("privacy budget of %s is in %s, not in %s", table_name, rho ? "epsilon" : "rho", unit),
		                errdetail("A role's limit is in the unit of the budget it spends."),
		                errhint("Grant with %s.", rho ? "pap.grant_spend" : "pap.grant_spend_rho")));
	Oid types[4] = {INT8OID, NAMEOID, TEXTOID, NAMEOID};
	Datum values[4] = {Int64GetDatum(budget_id), DirectFunctionCall1(namein, CStringGetDatum(grantee_name)),
	                   limit_text ? CStringGetTextDatum(limit_text) : (Datum)0,
	                   DirectFunctionCall1(namein, CStringGetDatum(user))};
	const char nulls[4] = {' ', ' ', limit_text ? ' ' : 'n', ' '};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	// A second grant changes the limit and keeps what the role has spent: the limit is on its total.
	const int rc = SPI_execute_with_args(
	    psprintf("INSERT INTO pap.spender_data AS s (budget_id, grantee, %s_limit, granted_by, granted_at) "
	             "VALUES ($1, $2, $3::pg_catalog.numeric, $4, pg_catalog.now()) "
	             "ON CONFLICT (budget_id, grantee) DO UPDATE SET %s_limit = excluded.%s_limit, "
	             "  granted_by = excluded.granted_by, granted_at = excluded.granted_at",
	             unit, unit, unit),
	    4, types, values, nulls, false, 0);
	if (rc != SPI_OK_INSERT)
		elog(ERROR, "pap_release: SPI failed (%s) granting the right to spend", SPI_result_code_string(rc));
	PapRestoreUser(&saved);
	SPI_finish();
}

extern "C" Datum
pap_grant_spend(PG_FUNCTION_ARGS)
{
	GrantSpend(fcinfo, false);
	PG_RETURN_VOID();
}

extern "C" Datum
pap_grant_spend_rho(PG_FUNCTION_ARGS)
{
	GrantSpend(fcinfo, true);
	PG_RETURN_VOID();
}

extern "C" Datum
pap_revoke_spend(PG_FUNCTION_ARGS)
{
	const Oid table = PG_GETARG_OID(0);
	const char *grantee = NameStr(*PG_GETARG_NAME(1));
	const char *table_name = PapQualifiedRelationName(table);
	RequireOwner(table, table_name, "revokes the right to spend its budget");
	SPI_connect();
	Oid types[2] = {REGCLASSOID, NAMEOID};
	Datum values[2] = {ObjectIdGetDatum(table), PG_GETARG_DATUM(1)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	// The row goes, and with it what the role spent: its charges stay in the ledger and in the table's budget.
	PapExecute("DELETE FROM pap.spender_data WHERE budget_id OPERATOR(pg_catalog.=) " PAP_BUDGET_OF_TABLE
	           " AND grantee OPERATOR(pg_catalog.=) $2",
	           2, types, values, false);
	const uint64 revoked = SPI_processed;
	PapRestoreUser(&saved);
	SPI_finish();
	// As REVOKE does for a privilege that was not granted.
	if (revoked == 0)
		ereport(WARNING, (errcode(ERRCODE_WARNING_PRIVILEGE_NOT_REVOKED),
		                  errmsg("role %s had no right to spend the budget of %s", grantee, table_name)));
	PG_RETURN_VOID();
}

[[noreturn]] static void
RefuseSpendRight(const char *table_name, Oid role)
{
	ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
	                errmsg("permission denied to spend the privacy budget of %s", table_name),
	                errdetail("Role %s may read the table, but spending its budget also needs its owner's grant.",
	                          GetUserNameFromId(role, false)),
	                errhint("The owner grants it with SELECT pap.grant_spend('%s', '%s').", table_name,
	                        GetUserNameFromId(role, false))));
}

[[noreturn]] static void
RefuseLimit(const char *table_name, Oid role, const char *amount, bool rho, const char *limit, const char *spent)
{
	const char *unit = rho ? "rho" : "epsilon";
	// A limit in the other unit (granted before the budget changed its unit) allows nothing: it fails closed.
	if (limit == NULL)
		ereport(ERROR,
		        (errcode(ERRCODE_INSUFFICIENT_RESOURCES),
		         errmsg("%s limit of role %s on %s is not in the budget's unit", rho ? "epsilon" : "rho",
		                GetUserNameFromId(role, false), table_name),
		         errdetail("The budget is in %s; the role's limit was granted in %s.", unit, rho ? "epsilon" : "rho"),
		         errhint("The table's owner grants a limit in %s with %s.", unit,
		                 rho ? "pap.grant_spend_rho" : "pap.grant_spend")));
	ereport(
	    ERROR,
	    (errcode(ERRCODE_INSUFFICIENT_RESOURCES),
	     errmsg("%s limit of role %s on %s exceeded", unit, GetUserNameFromId(role, false), table_name),
	     errdetail("The run asks for %s %s; the role may spend %s and has spent %s.", unit, amount, limit, spent),
	     errhint("The table's owner can raise the limit with %s.", rho ? "pap.grant_spend_rho" : "pap.grant_spend")));
}

// The columns of a grant in the run's unit, and the condition that the grant has no limit in the other unit
// (a database whose SQL predates budgets in rho has no rho columns).
static const char *
SpenderColumns(bool rho, const char **other_unit_unlimited)
{
	*other_unit_unlimited = !PapZcdpBudgetsInstalled() ? "true" : rho ? "epsilon_limit IS NULL" : "rho_limit IS NULL";
	return rho ? "rho" : "epsilon";
}

// A role's name as a Datum of type name: grants name roles as the ledger does.
static Datum
RoleName(Oid role)
{
	return DirectFunctionCall1(namein, CStringGetDatum(GetUserNameFromId(role, false)));
}

// The grantee's row as the catalog owner: (limit or NULL as text, spent as text, whether amount fits), or none. In
// the run's unit (rho or epsilon); a limit in the other unit makes *limit NULL and *fits false.
static bool
ReadSpender(Oid table, Oid role, const char *amount, bool rho, char **limit, char **spent, bool *fits)
{
	Oid types[3] = {REGCLASSOID, NAMEOID, TEXTOID};
	Datum values[3] = {ObjectIdGetDatum(table), RoleName(role), CStringGetTextDatum(amount)};
	const char *other_unit_unlimited;
	const char *u = SpenderColumns(rho, &other_unit_unlimited);
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute(psprintf("SELECT CASE WHEN %s THEN %s_limit::pg_catalog.text END, "
	                    "%s_spent::pg_catalog.text, %s AND (%s_limit IS NULL OR %s_spent OPERATOR(pg_catalog.+) "
	                    "$3::pg_catalog.numeric OPERATOR(pg_catalog.<=) %s_limit) "
	                    "FROM pap.spender_data WHERE budget_id OPERATOR(pg_catalog.=) " PAP_BUDGET_OF_TABLE
	                    " AND grantee OPERATOR(pg_catalog.=) $2",
	                    other_unit_unlimited, u, u, other_unit_unlimited, u, u, u),
	           3, types, values, false);
	PapRestoreUser(&saved);
	if (SPI_processed == 0)
		return false;
	HeapTuple row = SPI_tuptable->vals[0];
	TupleDesc desc = SPI_tuptable->tupdesc;
	*limit = SPI_getvalue(row, desc, 1);
	*spent = SPI_getvalue(row, desc, 2);
	bool isnull;
	*fits = DatumGetBool(SPI_getbinval(row, desc, 3, &isnull));
	return true;
}

bool
PapSpendRightsInstalled()
{
	const Oid schema = get_namespace_oid("pap", true);
	return OidIsValid(schema) && OidIsValid(get_relname_relid("spender_data", schema));
}

bool
PapRequireSpendRight(Oid table, const char *table_name, Oid role, const char *amount, bool rho)
{
	if (has_privs_of_role(role, PapRelationOwner(table)) || !PapSpendRightsInstalled())
		return false;
	char *limit, *spent;
	bool fits;
	if (!ReadSpender(table, role, amount, rho, &limit, &spent, &fits))
		RefuseSpendRight(table_name, role);
	if (!fits)
		RefuseLimit(table_name, role, amount, rho, limit, spent);
	return true;
}

void
PapChargeSpender(Oid table, const char *table_name, Oid role, const char *amount, bool rho)
{
	Oid types[3] = {REGCLASSOID, NAMEOID, TEXTOID};
	Datum values[3] = {ObjectIdGetDatum(table), RoleName(role), CStringGetTextDatum(amount)};
	const char *other_unit_unlimited;
	const char *u = SpenderColumns(rho, &other_unit_unlimited);
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	// One atomic check-and-add under the grantee row's lock; the budget row's lock, taken by the debit before,
	// already serialises the charges of this table.
	PapExecute(psprintf("UPDATE pap.spender_data SET %s_spent = %s_spent OPERATOR(pg_catalog.+) "
	                    "$3::pg_catalog.numeric WHERE budget_id OPERATOR(pg_catalog.=) " PAP_BUDGET_OF_TABLE
	                    " AND grantee OPERATOR(pg_catalog.=) $2 AND %s AND (%s_limit IS NULL OR %s_spent "
	                    "OPERATOR(pg_catalog.+) $3::pg_catalog.numeric OPERATOR(pg_catalog.<=) %s_limit)",
	                    u, u, other_unit_unlimited, u, u, u),
	           3, types, values, false);
	PapRestoreUser(&saved);
	if (SPI_processed == 1)
		return;
	char *limit, *spent;
	bool fits;
	if (!ReadSpender(table, role, amount, rho, &limit, &spent, &fits))
		RefuseSpendRight(table_name, role);
	RefuseLimit(table_name, role, amount, rho, limit, spent);
}
