#include "pg/row_read_guard.hpp"

extern "C" {
#include "access/htup_details.h"
#include "access/transam.h"
#include "catalog/dependency.h"
#include "catalog/pg_proc.h"
#include "commands/extension.h"
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
int guarded_reads = 0;        // open guarded reads
Oid code_owner = InvalidOid;  // the role whose own functions the innermost read may call (a public read's reader)

// Built-in functions are made by initdb (below FirstNormalObjectId); pap_release's are members of the extension, which
// only its scripts (run by a superuser) can make. A read of a public table may also call the functions of the role it
// runs as (the table's owner: a view of its own), which run its own code with its own rights.
bool
TrustedFunction(Oid function)
{
	if (!OidIsValid(function) || function < FirstNormalObjectId)
		return true;
	const Oid extension = get_extension_oid("pap_release", true);
	if (OidIsValid(extension) && getExtensionOfObject(ProcedureRelationId, function) == extension)
		return true;
	if (!OidIsValid(code_owner))
		return false;
	HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
	if (!HeapTupleIsValid(tuple))
		return false;
	const Oid owner = ((Form_pg_proc)GETSTRUCT(tuple))->proowner;
	ReleaseSysCache(tuple);
	return owner == code_owner && owner == GetUserId();
}

// context: what is checked, "a read of a table's rows" or "a value of a query".
[[noreturn]] void
RefuseFunction(Oid function, const char *what)
{
	ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
	                errmsg("%s may not call function %s", what, format_procedure(function)),
	                errdetail("It may call built-in functions and pap_release's only; this one is neither (a cast, "
	                          "an operator or a policy another role added, which would run with the rights of the "
	                          "role that reads the table or answers the query)."),
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
	// A domain's constraints are expressions any role that owns the domain writes.
	if (IsA(node, CoerceToDomain))
		ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
		                errmsg("%s may not cast a value to domain %s", what,
		                       format_type_be(((CoerceToDomain *)node)->resulttype)),
		                errdetail("A domain's constraints may call any function.")));
	if (IsA(node, TableSampleClause) && !TrustedFunction(((TableSampleClause *)node)->tsmhandler))
		RefuseFunction(((TableSampleClause *)node)->tsmhandler, what);
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

}  // namespace

void
PapInstallRowReadGuard()
{
	previous_planner_hook = planner_hook;
	planner_hook = GuardedPlanner;
}

void
PapBeginGuardedRead(PapGuardedRead *read, bool is_private)
{
	read->saved_code_owner = code_owner;
	code_owner = is_private ? InvalidOid : GetUserId();
	read->nest_level = NewGUCNestLevel();
	SetForRead("track_counts", "off");
	SetForRead("track_functions", "none");
	SetForRead("track_io_timing", "off");
	// pg_stat_statements, when loaded, would keep the read's statement, its rows and its time for every role to see.
	if (GetConfigOption("pg_stat_statements.track", true, false) != nullptr)
		SetForRead("pg_stat_statements.track", "top");
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
	code_owner = read->saved_code_owner;
}

void
PapCheckGuardedQueries(List *queries)
{
	const Oid saved = code_owner;
	code_owner = InvalidOid;  // a private read's rule (the check runs before the run's charge, error or not)
	ListCell *lc;
	foreach (lc, queries)
		(void)GuardWalker((Node *)lfirst(lc), (void *)kRowRead);
	code_owner = saved;
}

void
PapRequireTrustedCalls(Node *expression, const char *what)
{
	const Oid saved = code_owner;
	code_owner = InvalidOid;
	(void)GuardWalker(expression, (void *)what);
	code_owner = saved;
}
