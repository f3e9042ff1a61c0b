// Budgets in rho (zero-concentrated DP) beside budgets in (epsilon, delta) (docs/mechanisms.md, "zCDP budgets"):
// which unit a table's budget has, and what a run costs in rho. Include after glue.hpp.
#pragma once
#include "pg/glue.hpp"

// Whether the database's catalog has the columns of budgets in rho (pap.budget_data.rho_total): a database whose
// SQL is older has budgets in (epsilon, delta) only, until ALTER EXTENSION pap_release UPDATE.
bool PapZcdpBudgetsInstalled();

// Whether the private table's budget is in rho; if so, *delta is its delta (the delta at which its charges are
// reported in (epsilon, delta)), as the largest double not above the ledger's decimal. False for a table without a
// budget or with one in (epsilon, delta). Reads as the catalog owner; the caller's SPI connection is open.
bool PapBudgetInRho(Oid table, double *delta);

// The rho a run asked for with epsilon costs on a budget in rho: epsilon^2 / 2 (what a pure run at epsilon costs),
// computed exactly in numeric from epsilon's ledger decimal, as a decimal.
char *PapZcdpCost(const char *epsilon);
