// pap.set_budget: the owner of a private table sets its total privacy budget.
#include "core/api/release_api.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/relation_kinds.hpp"

extern "C" {
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
PG_FUNCTION_INFO_V1(pap_set_budget);
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
	PapExecute("INSERT INTO pap.budget_data AS b (private_table, epsilon_total, delta_total, set_by, set_at) "
	           "VALUES ($1, $2::pg_catalog.numeric, $3::pg_catalog.numeric, $4, pg_catalog.now()) "
	           "ON CONFLICT (private_table) DO UPDATE SET epsilon_total = excluded.epsilon_total, "
	           "  delta_total = excluded.delta_total, set_by = excluded.set_by, set_at = excluded.set_at "
	           "WHERE b.epsilon_spent OPERATOR(pg_catalog.<=) excluded.epsilon_total "
	           "  AND b.delta_spent OPERATOR(pg_catalog.<=) excluded.delta_total",
	           4, types, values, false);
	const uint64 changed = SPI_processed;
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
