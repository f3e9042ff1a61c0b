// The extension's event triggers: a dropped table's budget, charges and releases stay, detached from its OID;
// DROP EXTENSION does not silently delete the ledger.
#include "pg/glue.hpp"
#include "pg/spend_rights.hpp"

extern "C" {
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "commands/extension.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
PG_FUNCTION_INFO_V1(pap_on_sql_drop);
PG_FUNCTION_INFO_V1(pap_on_drop_extension);
}

// Each statement sets the dropped tables' references to NULL and keeps their qualified names, so that no table
// that later gets the same OID (here, or where a dump is restored) inherits them.
#define PAP_DROPPED                                                                                                    \
	"WITH dropped AS (SELECT o.objid::pg_catalog.regclass AS relid, o.object_identity "                                \
	"FROM pg_catalog.pg_event_trigger_dropped_objects() o "                                                            \
	"WHERE o.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass "                               \
	"AND o.objsubid OPERATOR(pg_catalog.=) 0) "
// A dropped table's grants of the right to spend go with it (a database still at 0.1 has none: kDropGrantsSql
// runs only where pap.spender_data exists); its budget row stays, detached, below.
static const char *const kDropGrantsSql = PAP_DROPPED
    "DELETE FROM pap.spender_data s USING pap.budget_data b, dropped d "
    "WHERE s.budget_id OPERATOR(pg_catalog.=) b.budget_id AND b.private_table OPERATOR(pg_catalog.=) d.relid";
static const char *const kDetachSql[] = {
    PAP_DROPPED "UPDATE pap.budget_data b SET private_table = NULL, table_name = d.object_identity, "
                "dropped_at = pg_catalog.now() FROM dropped d WHERE b.private_table OPERATOR(pg_catalog.=) d.relid",
    PAP_DROPPED "UPDATE pap.ledger_data l SET private_table = NULL, table_name = d.object_identity, "
                "dropped_at = pg_catalog.now() FROM dropped d WHERE l.private_table OPERATOR(pg_catalog.=) d.relid",
    PAP_DROPPED "UPDATE pap.release_data r SET private_table = NULL, private_table_name = d.object_identity "
                "FROM dropped d WHERE r.private_table OPERATOR(pg_catalog.=) d.relid",
    PAP_DROPPED "UPDATE pap.release_data r SET public_table = NULL, public_table_name = d.object_identity "
                "FROM dropped d WHERE r.public_table OPERATOR(pg_catalog.=) d.relid",
};
// Labellings (since 0.2: skipped while the catalog lacks them).
static const char *const kDetachLabellingSql[] = {
    PAP_DROPPED "UPDATE pap.labelling_data l SET private_table = NULL, private_table_name = d.object_identity "
                "FROM dropped d WHERE l.private_table OPERATOR(pg_catalog.=) d.relid",
    PAP_DROPPED "UPDATE pap.labelling_data l SET public_table = NULL, public_table_name = d.object_identity "
                "FROM dropped d WHERE l.public_table OPERATOR(pg_catalog.=) d.relid",
};
#undef PAP_DROPPED

static void
RequireEventTrigger(FunctionCallInfo fcinfo, const char *name)
{
	if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
		ereport(ERROR, (errcode(ERRCODE_E_R_I_E_EVENT_TRIGGER_PROTOCOL_VIOLATED),
		                errmsg("%s must be called as an event trigger", name)));
}

extern "C" Datum
pap_on_sql_drop(PG_FUNCTION_ARGS)
{
	RequireEventTrigger(fcinfo, "pap.on_sql_drop");
	SPI_connect();
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	if (PapSpendRightsInstalled())
		PapExecute(kDropGrantsSql, 0, NULL, NULL, false);
	for (const char *sql : kDetachSql)
		PapExecute(sql, 0, NULL, NULL, false);
	// A 0.1 catalog (or one being updated: the update script drops a function before it creates the table) has no
	// labellings.
	if (OidIsValid(get_relname_relid("labelling_data", get_namespace_oid("pap", false))))
		for (const char *sql : kDetachLabellingSql)
			PapExecute(sql, 0, NULL, NULL, false);
	PapRestoreUser(&saved);
	SPI_finish();
	PG_RETURN_VOID();
}

// The schema the extension is recorded in (public for every install so far): DROP SCHEMA ... CASCADE of it, or
// DROP OWNED BY its owner, drops the extension with it. The caller's SPI connection is open.
static Oid
ExtensionNamespace()
{
	PapExecute("SELECT extnamespace FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'pap_release'", 0,
	           NULL, NULL, true);
	bool isnull = true;
	const Datum schema =
	    SPI_processed == 1 ? SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull) : Datum(0);
	return isnull ? InvalidOid : DatumGetObjectId(schema);
}

// Whether the statement would drop this extension: DROP EXTENSION naming it, DROP SCHEMA ... CASCADE of its schema
// or of pap, or DROP OWNED BY the owner of either. The caller's SPI connection is open.
static bool
DropsThisExtension(Node *parsetree)
{
	const Oid extension = get_extension_oid("pap_release", true);
	if (!OidIsValid(extension))
		return false;
	const Oid schemas[2] = {ExtensionNamespace(), get_namespace_oid("pap", true)};
	if (IsA(parsetree, DropStmt) && ((DropStmt *)parsetree)->removeType == OBJECT_EXTENSION) {
		ListCell *lc;
		foreach (lc, ((DropStmt *)parsetree)->objects)
			if (strcmp(strVal(lfirst(lc)), "pap_release") == 0)
				return true;
		return false;
	}
	if (IsA(parsetree, DropStmt) && ((DropStmt *)parsetree)->removeType == OBJECT_SCHEMA &&
	    ((DropStmt *)parsetree)->behavior == DROP_CASCADE) {
		ListCell *lc;
		foreach (lc, ((DropStmt *)parsetree)->objects) {
			const Oid schema = get_namespace_oid(strVal(lfirst(lc)), true);
			if (OidIsValid(schema) && (schema == schemas[0] || schema == schemas[1]))
				return true;
		}
		return false;
	}
	if (IsA(parsetree, DropOwnedStmt)) {
		// The extension's owner owns its schema pap (created by the same CREATE EXTENSION); the owner of the schema
		// it is recorded in drops that schema, and the extension with it.
		ListCell *lc;
		foreach (lc, ((DropOwnedStmt *)parsetree)->roles) {
			const Oid role = get_rolespec_oid((RoleSpec *)lfirst(lc), true);
			if (role == PapCatalogOwner())
				return true;
			if (((DropOwnedStmt *)parsetree)->behavior != DROP_CASCADE)
				continue;  // RESTRICT leaves a schema the extension is in
			for (Oid schema : schemas) {
				HeapTuple tuple = SearchSysCache1(NAMESPACEOID, ObjectIdGetDatum(schema));
				if (!HeapTupleIsValid(tuple))
					continue;
				const Oid owner = ((Form_pg_namespace)GETSTRUCT(tuple))->nspowner;
				ReleaseSysCache(tuple);
				if (OidIsValid(role) && role == owner)
					return true;
			}
		}
	}
	return false;
}

extern "C" Datum
pap_on_drop_extension(PG_FUNCTION_ARGS)
{
	RequireEventTrigger(fcinfo, "pap.on_drop_extension");
	EventTriggerData *trigger = (EventTriggerData *)fcinfo->context;
	if (pap_allow_drop_ledger)
		PG_RETURN_VOID();
	SPI_connect();
	if (!DropsThisExtension(trigger->parsetree)) {
		SPI_finish();
		PG_RETURN_VOID();
	}
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("SELECT pg_catalog.count(*) FROM pap.ledger_data", 0, NULL, NULL, true);
	PapRestoreUser(&saved);
	bool isnull;
	const int64 charges = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	SPI_finish();
	if (charges > 0)
		ereport(ERROR,
		        (errcode(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST),
		         errmsg("cannot drop extension pap_release while its ledger holds " INT64_FORMAT " privacy charges",
		                charges),
		         errdetail("Dropping the extension deletes every budget, charge and release: the privacy "
		                   "budget already spent would be forgotten."),
		         errhint("Keep a dump of the database first (pg_dump keeps the ledger); then SET "
		                 "pap_release.allow_drop_ledger = on to drop it.")));
	PG_RETURN_VOID();
}
