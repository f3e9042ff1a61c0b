// Which relations may be private and public tables: a budget must cover rows, not a relation name.
#include "pg/relation_kinds.hpp"
#include "pg/glue.hpp"

extern "C" {
#include "catalog/partition.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rls.h"
}

static const char *
RelationKindName(char relkind)
{
	switch (relkind) {
	case RELKIND_VIEW: return "a view";
	case RELKIND_MATVIEW: return "a materialized view";
	case RELKIND_FOREIGN_TABLE: return "a foreign table";
	case RELKIND_SEQUENCE: return "a sequence";
	case RELKIND_INDEX:
	case RELKIND_PARTITIONED_INDEX: return "an index";
	case RELKIND_COMPOSITE_TYPE: return "a composite type";
	case RELKIND_TOASTVALUE: return "a TOAST table";
	default: return "not a table";
	}
}

// Why a relation of this kind cannot hold a budget (errdetail).
static const char *
NotPrivateReason(char relkind)
{
	switch (relkind) {
	case RELKIND_VIEW:
		return "It is a view: the rows it shows are stored in other tables, and a budget on the view would be a "
		       "second budget for them.";
	case RELKIND_MATVIEW:
		return "It is a materialized view: its rows are copies of rows of other tables, and a budget on it would be "
		       "a second budget for them.";
	case RELKIND_FOREIGN_TABLE:
		return "It is a foreign table: its rows are stored on another server, where other relations can read them.";
	default: return nullptr;
	}
}

void
PapRequirePrivateTable(Oid relid)
{
	if (!OidIsValid(relid))
		ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("the private table has been dropped")));
	char *name = PapQualifiedRelationName(relid);
	const char relkind = get_rel_relkind(relid);
	if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE) {
		const char *reason = NotPrivateReason(relkind);
		ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("%s cannot be a private table", name),
		                reason ? errdetail_internal("%s", reason) : errdetail("It is %s.", RelationKindName(relkind)),
		                errhint("A private table is a table or a partitioned table (whose partitions may be foreign "
		                        "tables): the one that stores the rows.")));
	}
	if (get_rel_persistence(relid) == RELPERSISTENCE_TEMP)
		ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("%s cannot be a private table", name),
		                errdetail("It is a temporary table: it is dropped at the end of its session, when no event "
		                          "trigger fires, and its budget would be lost.")));
	if (get_rel_relispartition(relid))
		ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("%s cannot be a private table", name),
		                errdetail("It is a partition of %s, whose scans read its rows too.",
		                          PapQualifiedRelationName(get_partition_parent(relid, true))),
		                errhint("Set the budget on the root of the partition tree.")));
	if (has_superclass(relid))
		ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("%s cannot be a private table", name),
		                errdetail("It inherits from another table, whose scans read its rows too."),
		                errhint("Set the budget on the root of the inheritance tree.")));
	// A release reads the table as its owner (PapBeginTableRead). A policy that applies to the owner would run its
	// code on every private row, where a failure would make a run's outcome depend on one row, and would hide rows
	// from the release.
	const Oid owner = PapRelationOwner(relid);
	if (check_enable_rls(relid, owner, true) == RLS_ENABLED)
		ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("%s cannot be a private table", name),
		                errdetail("Row-level security applies to its owner (FORCE ROW LEVEL SECURITY): a release reads "
		                          "every row as the owner, and the policies would run on private rows."),
		                errhint("ALTER TABLE %s NO FORCE ROW LEVEL SECURITY.", name)));
	// A partition or child that got its budget before it was attached: its rows must not be released under both.
	List *members = find_all_inheritors(relid, NoLock, NULL);
	if (list_length(members) <= 1)
		return;
	Datum *oids = (Datum *)palloc(sizeof(Datum) * list_length(members));
	int n = 0;
	ListCell *lc;
	foreach (lc, members)
		if (lfirst_oid(lc) != relid)
			oids[n++] = ObjectIdGetDatum(lfirst_oid(lc));
	Oid types[1] = {OIDARRAYOID};
	Datum values[1] = {PointerGetDatum(construct_array(oids, n, OIDOID, sizeof(Oid), true, TYPALIGN_INT))};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("SELECT b.private_table::pg_catalog.oid FROM pap.budget_data b "
	           "WHERE b.private_table::pg_catalog.oid OPERATOR(pg_catalog.=) ANY ($1) LIMIT 1",
	           1, types, values, true);
	PapRestoreUser(&saved);
	if (SPI_processed > 0) {
		bool isnull;
		Oid member = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
		ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("%s cannot be a private table", name),
		                errdetail("Its partition or child table %s has a privacy budget of its own, which would "
		                          "cover the same rows.",
		                          PapQualifiedRelationName(member)),
		                errhint("Keep one budget per set of rows: release from %s, or detach it.",
		                        PapQualifiedRelationName(member))));
	}
}

Oid
PapLockTreeOfOneOwner(Oid relid)
{
	// The root first, as every scan of a tree locks it (a member locked before its parent could deadlock with DDL
	// on the tree, also in a run's scan after its charge), and before its owner is read.
	LockRelationOid(relid, AccessShareLock);
	const Oid owner = PapRelationOwner(relid);
	if (!has_subclass(relid))  // a plain table: no member but itself
		return owner;
	ListCell *lc;
	foreach (lc, find_all_inheritors(relid, AccessShareLock, NULL)) {
		const Oid member = lfirst_oid(lc);
		const Oid member_owner = PapRelationOwner(member);
		if (member == relid || has_privs_of_role(member_owner, owner))
			continue;
		char *name = PapQualifiedRelationName(relid);
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		                errmsg("%s cannot be read: its partition or child table %s is owned by role %s", name,
		                       PapQualifiedRelationName(member), GetUserNameFromId(member_owner, false)),
		                errdetail("A release reads a table as its owner, %s, and planning the read may run code the "
		                          "owner of a partition or child wrote (an index expression, a constraint): with "
		                          "the rights of %s, which role %s does not have.",
		                          GetUserNameFromId(owner, false), GetUserNameFromId(owner, false),
		                          GetUserNameFromId(member_owner, false)),
		                errhint("Give every partition and child table to the owner of %s (ALTER TABLE ... OWNER "
		                        "TO), or to a role that has that owner's privileges (a member of it).",
		                        name)));
	}
	return owner;
}

// A public table is read as its owner (PapBeginTableRead). The rows of a view or of a foreign table can depend on
// who reads them (a security_invoker view checks its tables against the reader, current_user is the reader, a
// foreign table uses the reader's user mapping): read as its owner, it could show the caller rows it cannot read,
// which the release or labelling would then publish to every role. A caller without the owner's privileges may use
// tables and materialized views only, with no foreign partition or child.
static void
RequireOwnersRowsAreTheCallers(Oid public_table, const char *name)
{
	const Oid owner = PapRelationOwner(public_table);
	if (has_privs_of_role(GetUserId(), owner))
		return;
	Oid found = InvalidOid;
	const char relkind = get_rel_relkind(public_table);
	if (relkind == RELKIND_VIEW || relkind == RELKIND_FOREIGN_TABLE) {
		found = public_table;
	} else {
		ListCell *lc;
		foreach (lc, find_all_inheritors(public_table, NoLock, NULL))
			if (get_rel_relkind(lfirst_oid(lc)) == RELKIND_FOREIGN_TABLE) {
				found = lfirst_oid(lc);
				break;
			}
	}
	if (!OidIsValid(found))
		return;
	const char *caller = GetUserNameFromId(GetUserId(), false);
	ereport(ERROR,
	        (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("%s cannot be a public table of role %s", name, caller),
	         errdetail("A public table is read as its owner, %s, and %s is %s, whose rows can depend on who reads "
	                   "them (a security_invoker view, current_user, a user mapping): the read could show rows %s "
	                   "cannot read, and publish them.",
	                   GetUserNameFromId(owner, false), PapQualifiedRelationName(found),
	                   RelationKindName(get_rel_relkind(found)), caller),
	         errhint("Use a table or a materialized view of the public rows, or a role with the privileges of %s.",
	                 GetUserNameFromId(owner, false))));
}

void
PapRequirePublicTable(Oid public_table, Oid private_table)
{
	char *name = PapQualifiedRelationName(public_table);
	const char relkind = get_rel_relkind(public_table);
	if (relkind != RELKIND_RELATION && relkind != RELKIND_PARTITIONED_TABLE && relkind != RELKIND_VIEW &&
	    relkind != RELKIND_MATVIEW && relkind != RELKIND_FOREIGN_TABLE)
		ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("%s cannot be a public table", name),
		                errdetail("It is %s.", RelationKindName(relkind))));
	// A release or a labelling keeps its public table's OID: a temporary relation is dropped at the end of its
	// session without an event trigger, so the definition would keep an OID a later relation may take (and a
	// labelling's run reads its public table again, publishing what it reads there).
	if (get_rel_persistence(public_table) == RELPERSISTENCE_TEMP)
		ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE), errmsg("%s cannot be a public table", name),
		                errdetail("It is temporary: it is dropped at the end of its session, when no event trigger "
		                          "fires, and the definition would keep an identifier a later table may take."),
		                errhint("Use a table, a view or a materialized view that is not temporary.")));
	// The relations a scan of the public table reads: views' and materialized views' sources (their rewrite
	// rules' dependencies) and every partition or child, recursively. None may be the private table or one of
	// its partitions or children (the private table has no parent: PapRequirePrivateTable).
	static const char *const sql =
	    "WITH RECURSIVE reads(relid) AS ("
	    "  SELECT $1::pg_catalog.oid"
	    "  UNION"
	    "  SELECT c.oid FROM reads r JOIN pg_catalog.pg_class c"
	    "    ON c.oid OPERATOR(pg_catalog.=) ANY (ARRAY("
	    "         SELECT d.refobjid FROM pg_catalog.pg_rewrite w JOIN pg_catalog.pg_depend d"
	    "             ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_rewrite'::pg_catalog.regclass"
	    "            AND d.objid OPERATOR(pg_catalog.=) w.oid"
	    "            AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass"
	    "          WHERE w.ev_class OPERATOR(pg_catalog.=) r.relid"
	    "         UNION ALL"
	    "         SELECT i.inhrelid FROM pg_catalog.pg_inherits i WHERE i.inhparent OPERATOR(pg_catalog.=) r.relid))"
	    "), tree(relid) AS ("
	    "  SELECT $2::pg_catalog.oid"
	    "  UNION"
	    "  SELECT i.inhrelid FROM tree t JOIN pg_catalog.pg_inherits i ON i.inhparent OPERATOR(pg_catalog.=) t.relid"
	    ") SELECT r.relid FROM reads r JOIN tree t ON t.relid OPERATOR(pg_catalog.=) r.relid LIMIT 1";
	Oid types[2] = {OIDOID, OIDOID};
	Datum values[2] = {ObjectIdGetDatum(public_table), ObjectIdGetDatum(private_table)};
	PapExecute(sql, 2, types, values, true);
	if (SPI_processed > 0) {
		bool isnull;
		Oid read = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
		if (public_table == private_table)
			ereport(ERROR,
			        (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("the public table must not be the private table"),
			         errdetail("The public table is read without privacy; it must hold rows other than the "
			                   "private ones.")));
		char *private_name = PapQualifiedRelationName(private_table);
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("the public table %s reads the private table %s", name, private_name),
		                read == private_table
		                    ? errdetail("A scan of %s reads %s. The public table is read without privacy; it must "
		                                "hold rows other than the private ones.",
		                                name, private_name)
		                    : errdetail("A scan of %s reads %s, a partition or child of %s. The public table is read "
		                                "without privacy; it must hold rows other than the private ones.",
		                                name, PapQualifiedRelationName(read), private_name)));
	}
	RequireOwnersRowsAreTheCallers(public_table, name);
}
