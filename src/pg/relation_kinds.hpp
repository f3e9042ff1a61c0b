// Which relations may be private and public tables (docs/security.md, "Relation kinds, dropped tables and the
// run marker").
#pragma once
#include "pg/glue.hpp"

// A privacy budget covers the rows a table stores, once: raises 42809 unless relid is a permanent ordinary or
// partitioned table that is neither a partition nor an inheritance child, and (read as the catalog owner; the
// caller's SPI connection must be open) no partition or child of it has a budget of its own. 42P01 if
// relid is InvalidOid (the table was dropped) or no longer exists.
void PapRequirePrivateTable(Oid relid);

// Public data is read without privacy: raises 42809 unless public_table is a table, partitioned table, view,
// materialized view or foreign table, and 22023 if it is, or reads (as a member of the private table's
// inheritance tree, or through views and materialized views, recursively) the rows of private_table. The
// caller's SPI connection must be open.
void PapRequirePublicTable(Oid public_table, Oid private_table);

// A table is read as its owner (PapBeginTableRead), and planning its scan runs code its partitions' and children's
// owners wrote (index expressions, constraints): raises 42501 unless every member of relid's inheritance tree is
// owned by a role with the privileges of relid's owner. Locks the root, then the members (AccessShareLock, as the
// scan does), so no owner changes before the transaction ends; returns the root's owner.
Oid PapLockTreeOfOneOwner(Oid relid);
