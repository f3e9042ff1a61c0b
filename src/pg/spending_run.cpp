// The frame of a run that spends a budget: its start and the commit of its charge (docs/architecture.md, "The data
// path").
#include "pg/spending_run.hpp"

extern "C" {
#include "miscadmin.h"
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
