// pap.run_private_quantile and pap.drop_private_quantile: a differentially private quantile of one numeric column
// over a domain the curator declares, without a public table and without a release (docs/mechanisms.md §16). It
// spends the budget once, through the ledger's charge that pap.run_release uses, and is free to read afterwards
// (pap.private_quantiles).
#include "core/api/release_api.hpp"
#include "pg/catalog_object.hpp"
#include "pg/declared_domain.hpp"
#include "pg/error_bridge.hpp"
#include "pg/glue.hpp"
#include "pg/guc.hpp"
#include "pg/ledger_charge.hpp"
#include "pg/relation_kinds.hpp"
#include "pg/spending_run.hpp"
#include "pg/zcdp_budget.hpp"

#include <cmath>
#include <cstring>

extern "C" {
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
PG_FUNCTION_INFO_V1(pap_run_private_quantile);
PG_FUNCTION_INFO_V1(pap_drop_private_quantile);
}

struct QuantileArguments {
	char *name;
	Oid private_table;
	char *column;
	double q, epsilon, beta;
	char *epsilon_text;  // as the ledger records it
	Datum domain;
};

static QuantileArguments
ReadQuantileArguments(FunctionCallInfo fcinfo)
{
	static const char *const arguments[] = {"name", "private_table", "column_name", "q", "epsilon", "domain", "beta"};
	for (int i = 0; i < int(lengthof(arguments)); i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("%s must not be null", arguments[i])));
	QuantileArguments a;
	a.name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	a.private_table = PG_GETARG_OID(1);
	a.column = text_to_cstring(PG_GETARG_TEXT_PP(2));
	a.q = PG_GETARG_FLOAT8(3);
	a.domain = PG_GETARG_DATUM(5);
	a.beta = PG_GETARG_FLOAT8(6);
	if (a.name[0] == '\0')
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("quantile name must not be empty")));
	if (!(a.q >= 0.0 && a.q <= 1.0))
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("q must be in [0, 1], got %g", a.q)));
	// As for releases: the guard rail's n >= (4 / epsilon) ln(K / beta) stays a finite double.
	PAP_CORE(pap::core::ValidateBeta(a.beta));
	const double epsilon = PG_GETARG_FLOAT8(4);
	PAP_CORE(pap::core::ValidatePrivacyParameters(epsilon, 0.0));
	a.epsilon = PapLedgerAmount(epsilon, &a.epsilon_text);
	return a;
}

// The most candidates a private quantile ranks (release_api.hpp, whatever pap_release.max_cells allows); the scan
// passes them as one float8[] parameter, far below what an array may hold.
constexpr size_t kMaxCandidates = pap::core::kMaxQuantileCandidates;

// The candidates of the declared domain: a bounded numeric declaration of the column (public, before any charge).
static const double *
DeclaredCandidates(const QuantileArguments &a, size_t *count)
{
	const PapDeclaredColumn d = PapReadDeclaration(a.domain, a.column);
	PapRequireDeclarationObject(d, a.column);
	if (d.has_categories)
		ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		                errmsg("a quantile needs an ordered domain, not the categories of column \"%s\"", a.column),
		                errhint("Declare {\"min\": ..., \"max\": ..., \"step\": ...}.")));
	if (!d.bounded)
		ereport(ERROR,
		        (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
		         errmsg("a private quantile needs finite declared bounds and a step for column \"%s\"", a.column),
		         errdetail("Over an unbounded ordered domain no differentially private algorithm releases even a "
		                   "point between the smallest and the largest private value (docs/mechanisms.md, "
		                   "\"Why a domain must be declared\")."),
		         errhint("Declare {\"min\": ..., \"max\": ..., \"step\": ...}.")));
	// The core takes at most kMaxCandidates, whatever max_cells allows, and says which limit refused a domain.
	const pap::core::PrivateQuantileDomain domain{a.column,           d.low, d.high, d.step, uint64(pap_max_cells),
	                                              PapInterruptPending};
	const double *candidates = nullptr;
	PAP_CORE(candidates = pap::core::PrivateQuantileCandidates(domain, count, PapAllocate));
	return candidates;
}

struct QuantileScan {
	const double *candidates;
	size_t count;
};

static pap::core::ScanParameterKind
CandidateCuts(const void *source, size_t, const double **cuts, const char *const **, size_t *count)
{
	const QuantileScan *scan = (const QuantileScan *)source;
	*cuts = scan->candidates;
	*count = scan->count;
	return pap::core::ScanParameterKind::Cuts;
}

// The checks of the private table and its column, before the charge and again at the start of the scan's
// transaction (a failure there is after the charge but reads no row).
static void
RequireQuantileTable(const QuantileArguments &a, const char *private_name)
{
	PapRequirePrivateTable(a.private_table);
	PapRequireReadable(a.private_table);
	Oid type;
	if (PapValueTypeOfColumn(a.private_table, a.column, &type) != pap::core::ValueType::Number)
		ereport(ERROR,
		        (errcode(ERRCODE_DATATYPE_MISMATCH),
		         errmsg("column \"%s\" of %s is not numeric (type %s)", a.column, private_name, format_type_be(type)),
		         errdetail("A private quantile ranks the values of a number column over a declared grid."),
		         errhint("Use a view that casts the column to a number (e.g. a date's year).")));
}

extern "C" Datum
pap_run_private_quantile(PG_FUNCTION_ARGS)
{
	const QuantileArguments a = ReadQuantileArguments(fcinfo);
	PapRun run;
	PapBeginRun(fcinfo, "pap.run_private_quantile", &run);
	// --- transaction 1: every check and the whole plan from public information, then the charge -----------------
	MemoryContextSwitchTo(run.procedure_context);
	PapLockTable(a.private_table);  // raises if it no longer exists
	char *private_name = PapQualifiedRelationName(a.private_table);
	MemoryContextSwitchTo(run.spi_context);
	RequireQuantileTable(a, private_name);
	MemoryContextSwitchTo(run.procedure_context);
	QuantileScan scan;
	scan.candidates = DeclaredCandidates(a, &scan.count);
	if (scan.count > kMaxCandidates)  // the core built at most that many (its own error); the scan's bins need it
		elog(ERROR, "pap_release: %zu private quantile candidates, more than %zu", scan.count, kMaxCandidates);
	char *select_list;
	PAP_CORE(select_list = pap::core::PrivateQuantileScanSelectList(a.column, scan.count, PapAllocate));
	MemoryContextSwitchTo(run.spi_context);
	// The scan's statement must fit the private table, and pass the read's guard, before anything is charged.
	PapCheckScan(a.private_table, select_list, 1, CandidateCuts, &scan);
	Oid name_type[1] = {TEXTOID};
	Datum name_value[1] = {CStringGetTextDatum(a.name)};
	PapExecute("SELECT 1 FROM pap.private_quantiles WHERE name OPERATOR(pg_catalog.=) $1", 1, name_type, name_value,
	           true);
	if (SPI_processed > 0)
		ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("private quantile \"%s\" already exists", a.name),
		                errhint("Choose another name, or drop it with pap.drop_private_quantile.")));
	// The budget and the right to spend it (docs/security.md, "Who may spend"), as for releases.
	// On a budget in rho the exponential mechanism at epsilon, epsilon-bounded-range, costs rho = epsilon^2 / 8
	// (docs/mechanisms.md, "zCDP budgets").
	double budget_delta;
	const char *rho =
	    PapBudgetInRho(a.private_table, &budget_delta) ? PapZcdpCost(a.epsilon_text, kBoundedRangeRho) : NULL;
	const bool limited = PapRequireBudgetFor(a.private_table, private_name, a.epsilon_text, rho);
	// n is public under replace-one neighbours (docs/mechanisms.md §1): the guard rail reads it before the charge.
	const int64 planned_rows = PapCountRows(a.private_table);
	pap::core::GuardRailWarning warning[1];
	size_t warnings = 0;
	PAP_CORE(warnings = pap::core::PrivateQuantileGuardRails(planned_rows, scan.count, a.epsilon, a.beta, warning,
	                                                         PapAllocate));
	PapEmitGuardRails(warning, warnings);

	PapChargeBudget(a.private_table, private_name, a.epsilon_text, "0", rho, a.name, "private quantile", run.user,
	                limited);
	// The row is written with the charge, so that a second run of the same name fails on the key before its charge
	// commits; its value stays NULL until the run stores it (and for good if the run fails after the charge).
	Oid types[10] = {TEXTOID, TEXTOID, TEXTOID, FLOAT8OID, FLOAT8OID, JSONBOID, INT8OID, INT8OID, BOOLOID, NAMEOID};
	Datum values[10] = {CStringGetTextDatum(a.name),      CStringGetTextDatum(private_name),
	                    CStringGetTextDatum(a.column),    Float8GetDatum(a.q),
	                    Float8GetDatum(a.epsilon),        a.domain,
	                    Int64GetDatum(int64(scan.count)), Int64GetDatum(planned_rows),
	                    BoolGetDatum(!run.seeded),        DirectFunctionCall1(namein, CStringGetDatum(run.user))};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("INSERT INTO pap.private_quantile_data (name, private_table_name, column_name, q, epsilon, domain, "
	           "candidates, private_rows, is_private, run_by, run_at) "
	           "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, pg_catalog.statement_timestamp()) "
	           "ON CONFLICT (name) DO NOTHING RETURNING xmin::pg_catalog.text",
	           10, types, values, false);
	PapRestoreUser(&saved);
	if (SPI_processed == 0)  // a concurrent run of the same name committed first: this charge rolls back
		ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("private quantile \"%s\" already exists", a.name),
		                errdetail("Another session ran it first; nothing has been charged."),
		                errhint("Choose another name, or drop it with pap.drop_private_quantile.")));
	// This run's row: its value is stored there and nowhere else (the name may be dropped and run again meanwhile).
	const char *row_xmin =
	    MemoryContextStrdup(run.procedure_context, SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
	PapCommitCharge(&run);
	PapFailIfInjectedAfterCharge();

	// --- transaction 2: the one read of the private table, the mechanism, the stored value ----------------------
	int32 *bins;
	int64 *rows;
	size_t bin_count;
	RequireQuantileTable(a, private_name);
	MemoryContextSwitchTo(run.procedure_context);
	const int output_level = PapBeginStableOutput();
	PapScanGridPoints(a.private_table, select_list, 1, CandidateCuts, &scan, true, &bins, &rows, &bin_count);
	PapEndStableOutput(output_level);
	MemoryContextSwitchTo(run.spi_context);
	pap::core::PrivateQuantileRun request;
	request.candidate_count = scan.count;
	request.bins = bins;
	request.rows = rows;
	request.bin_count = bin_count;
	request.q = a.q;
	request.epsilon = a.epsilon;
	request.seed = run.seed;
	request.fill_secure = PapFillSecureBytes;
	request.interrupted = PapInterruptPending;
	size_t chosen = 0;
	PAP_CORE(chosen = pap::core::RunPrivateQuantile(request));
	CHECK_FOR_INTERRUPTS();

	PapWaitUntilPublishTime(run.charged);
	Oid store_types[3] = {TEXTOID, FLOAT8OID, TEXTOID};
	Datum store[3] = {CStringGetTextDatum(a.name), Float8GetDatum(scan.candidates[chosen]),
	                  CStringGetTextDatum(row_xmin)};
	PapBecomeCatalogOwner(&saved);
	PapExecute("UPDATE pap.private_quantile_data SET value = $2 WHERE name OPERATOR(pg_catalog.=) $1 "
	           "AND xmin OPERATOR(pg_catalog.=) $3::pg_catalog.xid",
	           3, store_types, store, false);
	PapRestoreUser(&saved);
	if (SPI_processed != 1)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
		                errmsg("private quantile \"%s\" was dropped during its run", a.name),
		                errdetail("Its charge stays in the ledger; the value is not stored, and a quantile run again "
		                          "under the name keeps its own.")));
	SPI_finish();
	PG_RETURN_VOID();
}

extern "C" Datum
pap_drop_private_quantile(PG_FUNCTION_ARGS)
{
	char *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	const char *user = GetUserNameFromId(GetUserId(), false);
	SPI_connect();
	// The right to drop is checked by the delete itself, on the row as it is now: a check read under the
	// statement's snapshot followed by a delete by name removed whatever row held the name by then (another
	// role's quantile, run after the checked one was dropped and its name taken again).
	Oid types[3] = {TEXTOID, NAMEOID, BOOLOID};
	Datum values[3] = {CStringGetTextDatum(name), DirectFunctionCall1(namein, CStringGetDatum(user)),
	                   BoolGetDatum(superuser())};
	PapUserSwitch saved;
	PapBecomeCatalogOwner(&saved);
	PapExecute("DELETE FROM pap.private_quantile_data WHERE name OPERATOR(pg_catalog.=) $1 "
	           "AND (run_by OPERATOR(pg_catalog.=) $2 OR $3)",
	           3, types, values, false);
	PapRestoreUser(&saved);
	if (SPI_processed == 0) {
		PapExecute("SELECT run_by FROM pap.private_quantiles WHERE name OPERATOR(pg_catalog.=) $1", 1, types, values,
		           false);
		if (SPI_processed == 0)
			ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("private quantile \"%s\" does not exist", name)));
		bool isnull;
		const char *run_by =
		    NameStr(*DatumGetName(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)));
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		                errmsg("must be the role that ran private quantile \"%s\" to drop it", name),
		                errdetail("Private quantile \"%s\" was run by role %s.", name, run_by)));
	}
	SPI_finish();
	PG_RETURN_VOID();
}
