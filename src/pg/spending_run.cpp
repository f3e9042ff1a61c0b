// The frame of a run that spends a budget: its start and the commit of its charge (docs/architecture.md, "The data
// path").
#include "pg/spending_run.hpp"

extern "C" {
#include "access/xact.h"
#include "miscadmin.h"
#include "utils/guc.h"
}

void
PapBeginRun(FunctionCallInfo fcinfo, const char *procedure, PapRun *run)
{
	PapRequireOwnTransaction(fcinfo, procedure);
	run->seeded = pap_test_seed >= 0;
	run->seed = run->seeded ? pap_test_seed : -1;
	run->user = GetUserNameFromId(GetUserId(), false);
	run->procedure_context = CurrentMemoryContext;
	SPI_connect_ext(SPI_OPT_NONATOMIC);
	run->spi_context = CurrentMemoryContext;
}

void
PapCommitCharge(PapRun *run)
{
	// The charge's commit waits for its WAL to be flushed whatever the caller set: with synchronous_commit off (any
	// role may set it) a crash after the private read could lose the charge and let the same budget be spent again.
	// Raised for this commit only (SET LOCAL); a stronger setting (remote_apply) is kept.
	if (synchronous_commit < SYNCHRONOUS_COMMIT_ON)
		(void)set_config_option("synchronous_commit", "on", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_LOCAL, true, 0,
		                        false);
	SPI_commit();  // the charge is durable from here on, whatever happens next
	run->charged = PapAfterCharge();
}

void
PapFailIfInjectedAfterCharge()
{
	if (pap_debug_fail_after_charge)
		ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR),
		                errmsg("failure injected after the charge (pap_release.debug_fail_after_charge)")));
}
