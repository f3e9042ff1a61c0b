// The budget ledger's charge and the publication clock, shared by every run that spends a budget
// (docs/mechanisms.md §4).
#include "pg/ledger_charge.hpp"
#include "pg/row_read_guard.hpp"
#include "pg/spend_rights.hpp"
#include "pg/zcdp_budget.hpp"

#include <algorithm>

extern "C" {
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/timeout.h"
#include "utils/wait_event.h"
}

// Raises the refusal of a charge of rho on a budget in rho, or of a budget whose unit changed since the run read it.
static void
RefuseBudgetInRho(Oid private_table, const char *private_name, const char *rho)
{
	PapExecuteOnTable("SELECT rho_total IS NOT NULL, (rho_total OPERATOR(pg_catalog.-) rho_spent)::pg_catalog.text "
	                  "FROM pap.budget_data WHERE private_table OPERATOR(pg_catalog.=) $1",
	                  private_table, false);
	bool isnull = true;
	const bool in_rho =
	    SPI_processed == 1 && DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
	if (SPI_processed == 1 && in_rho != (rho != NULL))
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("privacy budget of %s changed its unit during the run's checks", private_name),
		                errhint("Run it again.")));
	if (SPI_processed == 1 && in_rho)
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_RESOURCES), errmsg("privacy budget of %s exceeded", private_name),
		                errdetail("The run asks for rho %s; the remaining budget is rho %s.", rho,
		                          SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2))));
}

// Raises the refusal of a charge: no budget, or not enough left for (epsilon, delta), with what is left. Reads the
// budget with a fresh snapshot (not read-only), which sees the winner of a race.
static void
RefuseBudget(Oid private_table, const char *private_name, const char *epsilon, const char *delta, const char *rho)
{
	if (PapZcdpBudgetsInstalled())
		RefuseBudgetInRho(private_table, private_name, rho);
	Oid types[1] = {REGCLASSOID};
	Datum values[1] = {ObjectIdGetDatum(private_table)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("SELECT (epsilon_total OPERATOR(pg_catalog.-) epsilon_spent)::pg_catalog.text, "
	           "(delta_total OPERATOR(pg_catalog.-) delta_spent)::pg_catalog.text "
	           "FROM pap.budget_data WHERE private_table OPERATOR(pg_catalog.=) $1",
	           1, types, values, false);
	PapRestoreUser(&saved);
	if (SPI_processed == 0)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("private table %s has no privacy budget", private_name),
		                errhint("Its owner sets one with SELECT pap.set_budget('%s', epsilon, delta).", private_name)));
	const char *epsilon_left = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	const char *delta_left = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
	if (delta == NULL)  // the check before the plan, which knows the run's epsilon only
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_RESOURCES), errmsg("privacy budget of %s exceeded", private_name),
		                errdetail("The run asks for epsilon %s; the remaining budget is epsilon %s and delta %s.",
		                          epsilon, epsilon_left, delta_left)));
	ereport(ERROR,
	        (errcode(ERRCODE_INSUFFICIENT_RESOURCES), errmsg("privacy budget of %s exceeded", private_name),
	         errdetail("The run asks for epsilon %s and delta %s; the remaining budget is epsilon %s and delta %s.",
	                   epsilon, delta, epsilon_left, delta_left)));
}

// The condition that a budget row is in the run's unit and that its amount (epsilon, or rho: $2) still fits.
static const char *
FitsCondition(const char *rho)
{
	if (rho)
		return "rho_total IS NOT NULL AND rho_spent OPERATOR(pg_catalog.+) $2::pg_catalog.numeric "
		       "OPERATOR(pg_catalog.<=) rho_total";
	return PapZcdpBudgetsInstalled() ? "rho_total IS NULL AND epsilon_spent OPERATOR(pg_catalog.+) "
	                                   "$2::pg_catalog.numeric OPERATOR(pg_catalog.<=) epsilon_total"
	                                 : "epsilon_spent OPERATOR(pg_catalog.+) $2::pg_catalog.numeric "
	                                   "OPERATOR(pg_catalog.<=) epsilon_total";
}

bool
PapRequireBudgetFor(Oid private_table, const char *private_name, const char *epsilon, const char *rho)
{
	const char *amount = rho ? rho : epsilon;
	Oid types[2] = {REGCLASSOID, TEXTOID};
	Datum values[2] = {ObjectIdGetDatum(private_table), CStringGetTextDatum(amount)};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute(psprintf("SELECT 1 FROM pap.budget_data WHERE private_table OPERATOR(pg_catalog.=) $1 AND %s",
	                    FitsCondition(rho)),
	           2, types, values, false);
	PapRestoreUser(&saved);
	if (SPI_processed == 0)
		RefuseBudget(private_table, private_name, epsilon, NULL, rho);
	return PapRequireSpendRight(private_table, private_name, GetUserId(), amount, rho != NULL);
}

// The number of rows of a table, counted as its owner (PapBeginTableRead) in a guarded read (row_read_guard.hpp:
// n is public, but the statistics views would count each partition's rows); the caller's SPI connection is open.
int64
PapCountRows(Oid relid)
{
	PapTableRead read;
	PapBeginTableRead(relid, &read);
	// To the caller only, who may read the table (as the scan's "scan:" line): the statistics views do not show it.
	ereport(DEBUG1, (errmsg_internal("pap_release: counting the rows of %s", PapQualifiedRelationName(relid))));
	PapExecuteGuarded(psprintf("SELECT pg_catalog.count(*) FROM %s", PapQualifiedRelationName(relid)));
	PapEndTableRead(&read);
	bool isnull;
	return DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull));
}

// The debit of a budget in rho ($6): its spent rho, and its spent (epsilon, delta) as the tight conversion of that
// total at its delta (ZcdpEpsilon's margin, a relative 1e-12, covers the roundings between numeric and float8).
static const char *const kDebitRho =
    "UPDATE pap.budget_data SET rho_spent = rho_spent OPERATOR(pg_catalog.+) $6::pg_catalog.numeric, "
    "epsilon_spent = pap.zcdp_epsilon((rho_spent OPERATOR(pg_catalog.+) $6::pg_catalog.numeric)::pg_catalog.float8, "
    "delta_total::pg_catalog.float8)::pg_catalog.numeric, delta_spent = delta_total "
    "WHERE private_table OPERATOR(pg_catalog.=) $1 AND rho_total IS NOT NULL "
    "AND rho_spent OPERATOR(pg_catalog.+) $6::pg_catalog.numeric OPERATOR(pg_catalog.<=) rho_total";

void
PapChargeBudget(Oid private_table, const char *private_name, const char *epsilon, const char *delta, const char *rho,
                const char *run_name, const char *mechanism, const char *user, bool limited)
{
	const Oid spender = GetUserId();  // before the switch to the catalog owner below
	const bool zcdp = PapZcdpBudgetsInstalled();
	Oid types[6] = {REGCLASSOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID, TEXTOID};
	Datum values[6] = {ObjectIdGetDatum(private_table), CStringGetTextDatum(epsilon),
	                   CStringGetTextDatum(delta),      CStringGetTextDatum(run_name),
	                   CStringGetTextDatum(mechanism),  rho ? CStringGetTextDatum(rho) : (Datum)0};
	const char nulls[6] = {' ', ' ', ' ', ' ', ' ', rho ? ' ' : 'n'};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	// One atomic check-and-debit: the row lock serialises concurrent runs on the same table.
	const char *debit =
	    rho ? kDebitRho
	        : psprintf(
	              "UPDATE pap.budget_data SET epsilon_spent = epsilon_spent OPERATOR(pg_catalog.+) "
	              "$2::pg_catalog.numeric, delta_spent = delta_spent OPERATOR(pg_catalog.+) $3::pg_catalog.numeric "
	              "WHERE private_table OPERATOR(pg_catalog.=) $1%s "
	              "AND epsilon_spent OPERATOR(pg_catalog.+) $2::pg_catalog.numeric OPERATOR(pg_catalog.<=) "
	              "epsilon_total AND delta_spent OPERATOR(pg_catalog.+) $3::pg_catalog.numeric "
	              "OPERATOR(pg_catalog.<=) delta_total",
	              zcdp ? " AND rho_total IS NULL" : "");
	const int nargs = rho ? 6 : 3;
	int rc = SPI_execute_with_args(debit, nargs, types, values, nulls, false, 0);
	if (rc != SPI_OK_UPDATE)
		elog(ERROR, "pap_release: SPI failed (%s) charging the budget", SPI_result_code_string(rc));
	if (SPI_processed == 0) {
		PapRestoreUser(&saved);
		RefuseBudget(private_table, private_name, epsilon, delta, rho);
	}
	if (limited)  // after the debit, whose row lock serialises this table's charges; a refusal rolls it back
		PapChargeSpender(private_table, private_name, spender, rho ? rho : epsilon, rho != NULL);
	rc = SPI_execute_with_args(
	    psprintf("INSERT INTO pap.ledger_data (private_table, release_name, epsilon, delta, mechanism, charged_by, "
	             "charged_at%s) VALUES ($1, $4, $2::pg_catalog.numeric, $3::pg_catalog.numeric, $5, %s, "
	             "pg_catalog.now()%s)",
	             zcdp ? ", rho" : "", quote_literal_cstr(user), zcdp ? ", $6::pg_catalog.numeric" : ""),
	    zcdp ? 6 : 5, types, values, nulls, false, 0);
	if (rc != SPI_OK_INSERT)
		elog(ERROR, "pap_release: SPI failed (%s) writing the ledger", SPI_result_code_string(rc));
	PapRestoreUser(&saved);
}

void
PapRequireOwnTransaction(FunctionCallInfo fcinfo, const char *procedure)
{
	const bool nonatomic =
	    fcinfo->context && IsA(fcinfo->context, CallContext) && !castNode(CallContext, fcinfo->context)->atomic;
	if (!nonatomic)
		ereport(ERROR,
		        (errcode(ERRCODE_ACTIVE_SQL_TRANSACTION), errmsg("%s cannot run inside a transaction block", procedure),
		         errdetail("The privacy charge is committed before the private table is read, so that no "
		                   "rollback can refund it."),
		         errhint("Run CALL %s(...) on its own, outside BEGIN ... COMMIT.", procedure)));
}

instr_time
PapAfterCharge()
{
	instr_time charged;
	INSTR_TIME_SET_CURRENT(charged);
	// From here on nothing that depends on how long the run takes may decide its outcome: the duration depends
	// on the private data, and a timeout would make a failure (seen by every role) a function of it. So
	// statement_timeout stops at the charge; an explicit cancel or termination still stops the run.
	if (get_timeout_active(STATEMENT_TIMEOUT))
		disable_timeout(STATEMENT_TIMEOUT, false);
	return charged;
}

// Sleeps, cancellably, until pap_release.publish_delay milliseconds after charged. A run already past the delay
// publishes at once, at a moment that depends on the private data: the caller (who may read the table) is warned.
void
PapWaitUntilPublishTime(instr_time charged)
{
	bool first = true;
	for (;;) {
		instr_time now;
		INSTR_TIME_SET_CURRENT(now);
		INSTR_TIME_SUBTRACT(now, charged);
		const double left = double(pap_publish_delay) - INSTR_TIME_GET_MILLISEC(now);
		if (left <= 0.0) {
			if (first && pap_publish_delay > 0)
				// To the caller only: the duration depends on the private rows, and the server log is read by others.
				ereport(WARNING_CLIENT_ONLY,
				        (errmsg("the run took longer after its charge than pap_release.publish_delay (%d ms)",
				                pap_publish_delay),
				         errdetail("It took %.0f ms. Its result is published now, at a moment other roles see and that "
				                   "depends on the private rows.",
				                   INSTR_TIME_GET_MILLISEC(now)),
				         errhint("Set pap_release.publish_delay above the run's duration.")));
			return;
		}
		first = false;
		(void)WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH, long(std::min(left, 1000.0)) + 1,
		                PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}
