// A column closed by a CHECK constraint: the list of values `column IN (...)` allows it (docs/mechanisms.md §10,
// "Closed columns"). The list is schema, public as an enum's labels are; it closes a categorical axis.
#pragma once
#include "pg/glue.hpp"

// The values every row of relid's table can hold in `column` besides NULL, as the column's cast to text prints them
// under PapBeginStableOutput (the scans' categories), sorted by bytes and distinct; nullptr (count 0) when the
// catalog does not show such a list. Each table that stores the rows (relid, or every partition or inheritance child
// that is not itself partitioned) must have a validated CHECK constraint that has, as one of the conditions it
// ANDs, `column IN (...)`, `column = ANY (ARRAY[...])` or `column = constant`: the column compared as its own type (a
// varchar as text), by the type's default equality (for an integer column, the integer family's with the list's
// integer type; values the column cannot hold are left out), under a deterministic collation, no NULL in the list,
// constants of built-in types and casts through built-in compiled functions only (folded here, under the caller's
// rights, the search path pinned to pg_catalog: nothing a table's owner wrote runs, and folding costs no more than
// the catalog's constants); the list of a table is the intersection of its conditions, that of the tree the union of
// its tables'. Only columns of type smallint, integer, bigint, real, double precision (a list without zero: -0 passes
// `= 0` but prints "-0"), text and varchar, where equal values print alike, no foreign table in the tree (a foreign
// table's constraints are not enforced), and at most kMaxListValues values and kMaxListBytes of text (beyond, the
// column stays open). Takes AccessShareLock on every table of the tree, held to the end of the transaction: the
// constraint cannot be dropped before the caller's scan ends (a table joining the tree is not stopped).
const char **PapCheckListOfColumn(Oid relid, const char *column, size_t *count);
