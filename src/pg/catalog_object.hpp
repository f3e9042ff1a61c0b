// A release or a labelling as an object of the catalog that a role defines, runs once and drops: the facts their
// runs and drops check alike, and the one code path of those checks (docs/security.md, "Which code runs as whom").
// Include after glue.hpp.
#pragma once
#include "pg/glue.hpp"
#include "pg/label_catalog.hpp"

// The nouns its messages use and the table that holds it (catalog_object.cpp has one per kind).
struct PapObjectKind;

// What a run and a drop read of the object's catalog row, loaded with its row lock (for_update).
struct PapCatalogObject {
	const PapObjectKind *kind;
	const char *name;
	const char *defined_by;  // the defining role
	const char *state;       // defined, running, failed, or the kind's state once run (released, labelled)
	Oid private_table;       // InvalidOid once the table was dropped
	bool run_live;           // state = running and its run still holds the run's lock
};
PapCatalogObject PapObjectOf(const PapRelease *release);
PapCatalogObject PapObjectOf(const PapLabelling *labelling);

// Raises unless the object may be run by user: 55000 once it has been run (its results are final), 42501 unless
// user defined it (no role may make another run what it wrote by naming its object).
void PapRequireRunnable(const PapCatalogObject &object, const char *user);

// Takes the run's lock on the object (tag: PapRunLockTag, PapLabellingLockTag) at session level, which the caller
// releases when the run ends (PostgreSQL drops it with the backend); raises 55006 if another session's run holds
// it. pap.run_in_progress and pap.labelling_in_progress read it.
void PapLockRun(const PapCatalogObject &object, const LOCKTAG *tag);

// Marks the object running, as the catalog owner, in the transaction of its charge (the row is locked): state
// 'running' with the backend's pid and the statement's start time, which its view shows (as failed once the run's
// lock is gone without a result), and the run's own assignments ("epsilon = $2, ..."), whose parameters $2... are
// types and values ($1 is the object's name).
void PapMarkRunning(const PapCatalogObject &object, const char *assignments, int nargs, const Oid *types,
                    const Datum *values);

// Deletes the object's row if the current user defined it or owns its private table (42501 otherwise) and no run of
// it is live (55006). The caller's SPI connection is open and the row is locked (loaded for_update).
void PapDropCatalogObject(const PapCatalogObject &object);

// DELETE FROM pap.<data_table> WHERE name = name, as the catalog owner: the caller has checked the right to drop.
void PapDeleteCatalogRow(const char *data_table, const char *name);
