#include "pg/row_read_guard.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/dependency.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "commands/extension.h"
#include "executor/instrument.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/planner.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"
}

namespace {

planner_hook_type previous_planner_hook = nullptr;
int guarded_reads = 0;  // open guarded reads

// Built-in functions are made by initdb (below FirstNormalObjectId); pap_release's are members of the extension, which
// only its scripts (run by a superuser) can make. Neither may be written in SQL: the planner inlines an SQL function
// after this check and parses its body then, with whatever casts exist (text || anynonarray is "select $1 ||
// $2::pg_catalog.text", which an enum's owner can turn into a call of its own cast). Any other role's function is
// refused, the table owner's own too: its SQL body is inlined unchecked and a PL/pgSQL one runs plans another role's
// call may have cached.
bool
TrustedFunction(Oid function)
{
	if (!OidIsValid(function))
		return true;
	HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
	if (!HeapTupleIsValid(tuple))
		return false;
	const bool sql = ((Form_pg_proc)GETSTRUCT(tuple))->prolang == SQLlanguageId;
	ReleaseSysCache(tuple);
	if (sql)
		return false;
	if (function < FirstNormalObjectId)
		return true;
	const Oid extension = get_extension_oid("pap_release", true);
	return OidIsValid(extension) && getExtensionOfObject(ProcedureRelationId, function) == extension;
}

// An operator brings more than its function: the planner may replace it by its negator (NOT (a op b) is a negator
// b) or its commutator, and calls its selectivity estimators while planning, none of which the function check sees.
// Any role may make an operator over a built-in function whose negator is a shell it fills in later with its own
// function (a view of the DBA's written NOT (age OPERATOR(an.===) 0) ran an analyst's function as the DBA in the
// public read). Built-in operators have built-in negators, commutators and estimators; pap_release makes no
// operator.
bool
TrustedOperator(Oid op)
{
	return !OidIsValid(op) || op < FirstNormalObjectId;
}

// context: what is checked, "a read of a table's rows" or "a value of a query".
[[noreturn]] void
RefuseOperator(Oid op, const char *what)
{
	ereport(ERROR,
	        (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("%s may not use operator %s", what, format_operator(op)),
	         errdetail("It may use built-in operators only: another role's operator may be replaced by its "
	                   "negator or commutator while the read is planned, whose functions would run with the "
	                   "rights of the role that reads the table or answers the query."),
	         errhint("Write the condition with a built-in operator.")));
}

// The operators a node applies (OpExpr, DistinctExpr and NullIfExpr share OpExpr's layout).
void
CheckOperators(Node *node, const char *what)
{
	switch (nodeTag(node)) {
	case T_OpExpr:
	case T_DistinctExpr:
	case T_NullIfExpr:
		if (!TrustedOperator(((OpExpr *)node)->opno))
			RefuseOperator(((OpExpr *)node)->opno, what);
		break;
	case T_ScalarArrayOpExpr:
		if (!TrustedOperator(((ScalarArrayOpExpr *)node)->opno))
			RefuseOperator(((ScalarArrayOpExpr *)node)->opno, what);
		break;
	case T_RowCompareExpr: {
		ListCell *lc;
		foreach (lc, ((RowCompareExpr *)node)->opnos)
			if (!TrustedOperator(lfirst_oid(lc)))
				RefuseOperator(lfirst_oid(lc), what);
		break;
	}
	default: break;
	}
}

// context: what is checked, "a read of a table's rows" or "a value of a query".
[[noreturn]] void
RefuseFunction(Oid function, const char *what)
{
	ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
	                errmsg("%s may not call function %s", what, format_procedure(function)),
	                errdetail("It may call pap_release's functions and built-in ones not written in SQL, no "
	                          "other: another role's function (a cast, an operator, a view's or a policy's call) "
	                          "would run with the rights of the role that reads the table or answers the query."),
	                errhint("Drop the cast or operator that calls it, or cast to built-in types only.")));
}

bool
GuardWalker(Node *node, void *context)
{
	if (node == nullptr)
		return false;
	const char *what = (const char *)context;
	if (IsA(node, Query))
		return query_tree_walker((Query *)node, (bool (*)())(void (*)(void))GuardWalker, context, 0);
	// Every function a node calls (functions, operators, aggregates, window functions, a coercion through the types'
	// input and output functions, row comparisons): check_functions_in_node stops at the first the callback flags.
	Oid flagged = InvalidOid;
	if (check_functions_in_node(
	        node,
	        [](Oid function, void *found) {
		        if (TrustedFunction(function))
			        return false;
		        *(Oid *)found = function;
		        return true;
	        },
	        &flagged))
		RefuseFunction(flagged, what);
	CheckOperators(node, what);
	// A domain's constraints are expressions any role that owns the domain writes.
	if (IsA(node, CoerceToDomain))
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		                errmsg("%s may not cast a value to domain %s", what,
		                       format_type_be(((CoerceToDomain *)node)->resulttype)),
		                errdetail("A domain's constraints may call any function.")));
	if (IsA(node, TableSampleClause) && !TrustedFunction(((TableSampleClause *)node)->tsmhandler))
		RefuseFunction(((TableSampleClause *)node)->tsmhandler, what);
	// An implicit cast through the types' text forms (CREATE CAST ... WITH INOUT AS IMPLICIT, which the owner of
	// either type may make) calls built-in input and output functions, but it changes what an operator in the read
	// means: made while a run waits at its debit, it turned an enum column's c = 'red' into c::text = 'red' in the
	// scan, text order for enum order. No built-in implicit cast goes through text to or from a type that is not
	// built in.
	if (IsA(node, CoerceViaIO) && ((CoerceViaIO *)node)->coerceformat == COERCE_IMPLICIT_CAST) {
		const Oid from = exprType((Node *)((CoerceViaIO *)node)->arg), to = ((CoerceViaIO *)node)->resulttype;
		if (from >= FirstGenbkiObjectId || to >= FirstGenbkiObjectId)
			ereport(ERROR,
			        (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			         errmsg("%s may not cast %s to %s implicitly", what, format_type_be(from), format_type_be(to)),
			         errdetail("An implicit cast between these types is another role's, not built in: it "
			                   "changes what the read's comparisons mean."),
			         errhint("Drop the cast.")));
	}
	return expression_tree_walker(node, (bool (*)())(void (*)(void))GuardWalker, context);
}

constexpr const char *kRowRead = "a read of a table's rows";

PlannedStmt *
GuardedPlanner(Query *parse, const char *query_string, int cursor_options, ParamListInfo bound_params)
{
	// Before planning: the planner folds immutable calls on constants, so it would run a flagged function itself.
	if (guarded_reads > 0)
		(void)GuardWalker((Node *)parse, (void *)kRowRead);
	return previous_planner_hook ? previous_planner_hook(parse, query_string, cursor_options, bound_params)
	                             : standard_planner(parse, query_string, cursor_options, bound_params);
}

void
SetForRead(const char *name, const char *value)
{
	(void)set_config_option(name, value, PGC_SUSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
}

// No read spans a transaction: whatever error path skipped a read's end, the next transaction starts unguarded.
void
ResetAtTransactionEnd(XactEvent event, void *)
{
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_COMMIT ||
	    event == XACT_EVENT_PARALLEL_ABORT || event == XACT_EVENT_PREPARE) {
		guarded_reads = 0;
	}
}

}  // namespace

void
PapInstallRowReadGuard()
{
	previous_planner_hook = planner_hook;
	planner_hook = GuardedPlanner;
	RegisterXactCallback(ResetAtTransactionEnd, nullptr);
}

void
PapExecuteGuarded(const char *sql)
{
	PapExecuteGuardedWith(sql, 0, NULL, NULL);
}

void
PapExecuteGuardedWith(const char *sql, int nargs, Oid *types, Datum *values)
{
	PapGuardedRead guard;
	PapBeginGuardedRead(&guard);
	PG_TRY();
	{
		PapExecute(sql, nargs, types, values, true);
	}
	PG_CATCH();
	{
		PapAbandonGuardedRead(&guard);
		PG_RE_THROW();
	}
	PG_END_TRY();
	PapEndGuardedRead(&guard);
}

void
PapBeginGuardedRead(PapGuardedRead *read)
{
	read->nest_level = NewGUCNestLevel();
	SetForRead("track_counts", "off");
	SetForRead("track_functions", "none");
	SetForRead("track_io_timing", "off");
	// pg_stat_statements, when loaded, would keep the read's statement, its rows and its time for every role to see;
	// at "top" it keeps the CALL, which the buffers and WAL the read used would still count (restored below).
	if (GetConfigOption("pg_stat_statements.track", true, false) != nullptr)
		SetForRead("pg_stat_statements.track", "top");
	read->buffers = pgBufferUsage;
	read->wal = pgWalUsage;
	guarded_reads++;
}

void
PapEndGuardedRead(const PapGuardedRead *read)
{
	PapAbandonGuardedRead(read);
	AtEOXact_GUC(false, read->nest_level);
}

void
PapAbandonGuardedRead(const PapGuardedRead *read)
{
	if (guarded_reads > 0)
		guarded_reads--;
	// The buffers and WAL the read used (its workers' included, added when they finished) are not the statement's:
	// pg_stat_statements and EXPLAIN (BUFFERS) of the call would count private rows' blocks otherwise.
	pgBufferUsage = read->buffers;
	pgWalUsage = read->wal;
}

void
PapCheckGuardedQueries(List *queries)
{
	ListCell *lc;
	foreach (lc, queries)
		(void)GuardWalker((Node *)lfirst(lc), (void *)kRowRead);
}

void
PapRequireTrustedCalls(Node *expression, const char *what)
{
	(void)GuardWalker(expression, (void *)what);
}
