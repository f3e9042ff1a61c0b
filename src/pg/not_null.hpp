// Columns closed to NULL: a NOT NULL constraint on every table that stores the private rows leaves a column's NULL
// bin empty (docs/mechanisms.md §9, "Cells no row can hold"). Schema, public as a CHECK list is; read when a release
// is planned or run, never stored.
#pragma once
#include "pg/glue.hpp"

// Per axis of layout: whether the axis reads a column (numeric or categorical) that is NOT NULL in every table of
// relid's tree that stores rows (relid, or every partition or inheritance child that is not itself partitioned),
// none of them a foreign table (whose constraints are not enforced). nullptr when no axis is; else an array of
// layout.axis_count entries in the current memory context. Takes AccessShareLock on relid, then on every table of
// its tree, held to the end of the transaction: no constraint can be dropped before the caller's scan ends. A table
// joining the tree is not stopped: a run reads the constraints again after its scan and keeps a bin closed only if
// both reads close it.
const bool *PapNotNullAxes(Oid relid, const pap::core::CatalogLayout &layout);

// The same rule for one column of relid's tree, under the same locks: what a definition's choice of layout plans with
// (DraftSetColumnNotNull), as pap.plan will.
bool PapColumnNotNullInTree(Oid relid, const char *column);
