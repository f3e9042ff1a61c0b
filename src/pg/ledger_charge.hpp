// The budget ledger's charge, shared by pap.run_release and pap.run_labelling (docs/mechanisms.md §4): everything a
// run does between its last check and its first read of the private table, and the publication time after it.
#pragma once
#include "pg/glue.hpp"

extern "C" {
#include "portability/instr_time.h"
}

// A run commits its charge before it reads the private table, so it must be a CALL outside any transaction block:
// raises 25001 otherwise. procedure: its name, for the message.
void PapRequireOwnTransaction(FunctionCallInfo fcinfo, const char *procedure);

// The number of rows of a table, counted as its owner (PapBeginTableRead); the caller's SPI connection is open.
int64 PapCountRows(Oid relid);

// Refuses a run whose epsilon no longer fits the budget, or whose caller may not spend it (docs/security.md, "Who
// may spend": the table's owner, or a role it granted, within its limit), before anything reads the private table.
// rho: NULL on a budget in (epsilon, delta); on a budget in rho (PapBudgetInRho), the run's cost in rho
// (PapZcdpCost), checked instead of epsilon. Returns whether the caller spends as a grantee with a limit (pass it
// to PapChargeBudget).
bool PapRequireBudgetFor(Oid private_table, const char *private_name, const char *epsilon, const char *rho);

// One atomic check-and-debit of (epsilon, delta) on the private table's budget and its ledger row, as the catalog
// owner (the row lock serialises concurrent charges); raises, charging nothing, when the budget does not allow it.
// The caller commits it before it reads any private row. run_name and mechanism are what the ledger shows. limited
// (PapRequireBudgetFor's answer): the caller's grant is charged too, atomically with the check of its limit.
// rho: as for PapRequireBudgetFor; when set, rho is debited (and epsilon_spent kept the tight conversion of the
// total at the budget's delta), and (epsilon, delta) are only what the ledger row reports the run guarantees.
void PapChargeBudget(Oid private_table, const char *private_name, const char *epsilon, const char *delta,
                     const char *rho, const char *run_name, const char *mechanism, const char *user, bool limited);

// After the charge: statement_timeout no longer applies (a failure decided by the duration of the private work would
// depend on the private rows), and the start of the pap_release.publish_delay clock.
instr_time PapAfterCharge();
// Sleeps, cancellably, until pap_release.publish_delay milliseconds after charged.
void PapWaitUntilPublishTime(instr_time charged);
