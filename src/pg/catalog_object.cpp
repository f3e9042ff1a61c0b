// The checks that a run and a drop of a release or a labelling share, with the nouns of their messages.
#include "pg/catalog_object.hpp"

#include <cstring>

extern "C" {
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
}

struct PapObjectKind {
	const char *noun;        // in messages: "release \"r\" ..."
	const char *title;       // the noun at the start of a sentence
	const char *data_table;  // its table in schema pap
	const char *run_state;   // its state once run
	const char *results;     // what a run releases: "Its <results> are final."
};

static const PapObjectKind kRelease = {"release", "Release", "release_data", "released", "answers"};
static const PapObjectKind kLabelling = {"labelling", "Labelling", "labelling_data", "labelled", "labels"};

PapCatalogObject
PapObjectOf(const PapRelease *release)
{
	return {&kRelease, release->name, release->defined_by, release->state, release->private_table, release->run_live};
}

PapCatalogObject
PapObjectOf(const PapLabelling *labelling)
{
	return {&kLabelling,      labelling->name,          labelling->defined_by,
	        labelling->state, labelling->private_table, labelling->run_live};
}

void
PapRequireRunnable(const PapCatalogObject &object, const char *user)
{
	const PapObjectKind &kind = *object.kind;
	if (strcmp(object.state, kind.run_state) == 0)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("%s \"%s\" has already been run", kind.noun, object.name),
		                errhint("Its %s are final. To spend more budget, define a new %s.", kind.results, kind.noun)));
	// A role runs only its own objects: the definer chose the class, its predicates or the features, and no role
	// may make another run what it wrote by naming its object.
	if (strcmp(user, object.defined_by) != 0)
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		                errmsg("must be the role that defined %s \"%s\" to run it", kind.noun, object.name),
		                errdetail("%s \"%s\" was defined by role %s.", kind.title, object.name, object.defined_by),
		                errhint("Define a %s of your own with pap.define_%s.", kind.noun, kind.noun)));
}

static void
RaiseRunLive(const PapCatalogObject &object)
{
	ereport(ERROR, (errcode(ERRCODE_OBJECT_IN_USE),
	                errmsg("%s \"%s\" is being run by another session", object.kind->noun, object.name)));
}

void
PapLockRun(const PapCatalogObject &object, const LOCKTAG *tag)
{
	if (LockAcquire(tag, ExclusiveLock, true, true) == LOCKACQUIRE_NOT_AVAIL)
		RaiseRunLive(object);
}

void
PapMarkRunning(const PapCatalogObject &object, const char *assignments, int nargs, const Oid *types,
               const Datum *values)
{
	Oid *all_types = (Oid *)palloc(sizeof(Oid) * (nargs + 1));
	Datum *all_values = (Datum *)palloc(sizeof(Datum) * (nargs + 1));
	all_types[0] = TEXTOID;
	all_values[0] = CStringGetTextDatum(object.name);
	for (int i = 0; i < nargs; i++) {
		all_types[i + 1] = types[i];
		all_values[i + 1] = values[i];
	}
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute(psprintf("UPDATE pap.%s SET state = 'running', run_pid = pg_catalog.pg_backend_pid(), "
	                    "run_started_at = pg_catalog.statement_timestamp(), %s WHERE name OPERATOR(pg_catalog.=) $1",
	                    quote_identifier(object.kind->data_table), assignments),
	           nargs + 1, all_types, all_values, false);
	PapRestoreUser(&saved);
}

void
PapDropCatalogObject(const PapCatalogObject &object)
{
	const char *user = GetUserNameFromId(GetUserId(), false);
	// A dropped private table (InvalidOid) has no owner: only the defining role may drop the object then, and a
	// superuser (else an object whose table and definer are both gone could be dropped by no one).
	if (strcmp(user, object.defined_by) != 0 && !superuser() &&
	    !(OidIsValid(object.private_table) && pg_class_ownercheck(object.private_table, GetUserId())))
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		                errmsg("must be the role that defined %s \"%s\" or the owner of its private table",
		                       object.kind->noun, object.name)));
	if (object.run_live)
		RaiseRunLive(object);
	PapDeleteCatalogRow(object.kind->data_table, object.name);
}

void
PapDeleteCatalogRow(const char *data_table, const char *name)
{
	Oid types[1] = {TEXTOID};
	Datum values[1] = {CStringGetTextDatum(name)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute(psprintf("DELETE FROM pap.%s WHERE name OPERATOR(pg_catalog.=) $1", quote_identifier(data_table)), 1,
	           types, values, false);
	PapRestoreUser(&saved);
}
