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

// The rho a run asked for with epsilon costs on a budget in rho: epsilon^2 times factor, computed exactly in numeric
// from epsilon's ledger decimal, as a decimal. kPureRunRho: an epsilon-DP run is epsilon^2 / 2-zCDP;
// kBoundedRangeRho: an exponential mechanism at epsilon is epsilon-bounded-range, hence epsilon^2 / 8-zCDP
// (docs/mechanisms.md §19).
constexpr const char *kPureRunRho = "0.5";
constexpr const char *kBoundedRangeRho = "0.125";
char *PapZcdpCost(const char *epsilon, const char *factor);
