// The right to spend a private table's budget, separate from SELECT (docs/security.md, "Who may spend"): the
// table's owner always holds it; another role holds it by the owner's pap.grant_spend, with an optional limit on
// the epsilon it spends (pap.spender_data). Include after glue.hpp.
#pragma once
#include "pg/glue.hpp"

// Whether the database's catalog has pap.spender_data (0.2 on): a database still at 0.1 keeps 0.1's rule, under
// which SELECT on the private table is enough to spend its budget, until ALTER EXTENSION pap_release UPDATE.
bool PapSpendRightsInstalled();

// Raises before anything is counted or charged: 42501 unless role may spend the budget of table (its owner, or a
// grantee), 53000 when amount (a ledger decimal: epsilon, or rho on a budget in rho) would take a grantee past its
// limit in that unit. The caller's SPI connection is open. Returns whether role spends as a grantee (and so is
// charged against its limit by PapChargeSpender).
bool PapRequireSpendRight(Oid table, const char *table_name, Oid role, const char *amount, bool rho);
// Inside the charge's transaction, after the budget's debit (whose row lock serialises every charge of the
// table), and as the catalog owner: adds amount (epsilon, or rho) to the grantee's spending, atomically with the
// check of its limit. Raises 42501 if the grant was revoked since PapRequireSpendRight, 53000 if the limit no
// longer fits: the error rolls the debit back with the transaction.
void PapChargeSpender(Oid table, const char *table_name, Oid role, const char *amount, bool rho);
