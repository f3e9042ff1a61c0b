// The frame of a run that spends a budget, shared by pap.run_release, pap.run_labelling and pap.run_private_quantile:
// one CALL in two transactions. The first makes every check and the whole plan from public information, then
// charges the budget (ledger_charge.hpp) and commits; only the second reads private rows (docs/architecture.md, "The
// data path"; docs/security.md, "Every row lands in a cell"). What each run loads, checks, plans and stores stays in
// its own file. Include after glue.hpp.
#pragma once
#include "pg/glue.hpp"
#include "pg/ledger_charge.hpp"

struct PapRun {
	const char *user;                 // the calling role, as the ledger and the catalog record it
	bool seeded;                      // pap_release.test_seed is set: reproducible noise, a run marked not private
	int64 seed;                       // the seed when seeded, else -1 (the secure random source)
	MemoryContext procedure_context;  // the CALL's: what must outlive the commit between the two transactions
	MemoryContext spi_context;        // the nonatomic SPI connection's, current between the steps
	instr_time charged;               // when the charge committed (PapCommitCharge): the publish delay's start
};

// Starts a run: raises 25001 inside a transaction block (the charge commits in the middle of the CALL,
// PapRequireOwnTransaction), reads the caller and pap_release.test_seed, and opens the nonatomic SPI connection in
// which transaction 1 runs. procedure: the procedure's name, for messages.
void PapBeginRun(FunctionCallInfo fcinfo, const char *procedure, PapRun *run);

// Ends transaction 1 once the budget's debit (PapChargeBudget) and the run's own catalog row are written: commits
// them, so that the charge is durable whatever happens next, then stops statement_timeout and starts the publish
// clock (PapAfterCharge).
void PapCommitCharge(PapRun *run);

// The failure pap_release.debug_fail_after_charge injects between the committed charge and the first read of the
// private table (the ledger's failure tests, docs/ledger.md): raises XX000 when it is on.
void PapFailIfInjectedAfterCharge();
