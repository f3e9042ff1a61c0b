// The predicates of predicates('...', ...) are SQL that the scans evaluate on every row of the public and the
// private table. A predicate must be a total, deterministic function of the one row it is evaluated on: it may
// read no other row or table (a subquery would return exact private values, and read the private table at
// define_release without any charge), run no code of any role (the scan runs as the table's owner), and fail on
// no row (a failure after the charge would make the visible outcome of a run depend on one private row). So a
// predicate is parsed and analysed against the table, and everything but the following is refused
// (docs/security.md, "What a predicate may contain"):
//   - columns of the table (no system columns) of built-in types (or domains over them), and constants;
//   - AND, OR, NOT, IS [NOT] NULL, IS [NOT] TRUE/FALSE/UNKNOWN, CASE, COALESCE, flat lists (IN);
//   - comparison operators: an immutable built-in operator that is a member of a built-in B-tree operator family
//     (=, <>, <, <=, >, >= of the built-in scalar types; IN and NOT IN lists, BETWEEN, IS [NOT] DISTINCT FROM,
//     NULLIF reduce to them), under one built-in collation. A B-tree comparison function must be total, and
//     operator families can only be created by a superuser;
//   - the casts between built-in types that cannot fail: integer widening, integer to numeric, real and double
//     precision, real to double precision, binary-compatible relabelling, char and name to text;
//   - parts that do not depend on the row (no column, not the tested value of a simple CASE) may call any
//     immutable built-in function: they are folded here, as the planner folds them, so that one that fails fails
//     before the charge, and must be constants after folding.
// No function calls or arithmetic on the row's values (they overflow or divide by zero), no casts of them through a
// type's text form or to a domain (a domain's check may be any SQL), no nested arrays of them, no subqueries,
// aggregates, window or set-returning functions, parameters or references to other tables. A cast written in the
// predicate must name a built-in type; that is checked before the analysis, which already runs the target type's
// input function.
#include "pg/glue.hpp"

extern "C" {
#include "access/transam.h"
#include "catalog/namespace.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/analyze.h"
#include "parser/parse_type.h"
#include "parser/parser.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
}

namespace {

[[noreturn]] void
Refuse(const char *predicate, const char *what)
{
	ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("predicate \"%s\" is not allowed", predicate),
	                errdetail("%s", what),
	                errhint("A predicate is a condition on the row's own columns: comparisons (=, <>, <, <=, >, >=, "
	                        "BETWEEN, IN, IS DISTINCT FROM), IS [NOT] NULL, AND, OR, NOT, CASE and COALESCE over "
	                        "columns and constants of built-in types. Arithmetic and function calls are not "
	                        "allowed, because they can fail on some row or run code.")));
}

// Built-in objects come from PostgreSQL's own catalog data (OIDs below FirstGenbkiObjectId).
bool
IsBuiltIn(Oid oid)
{
	return oid < FirstGenbkiObjectId;
}

// Casts between built-in types that are total: every input value has an output.
bool
IsTotalCast(Oid function)
{
	switch (function) {
	case F_INT4_INT2:
	case F_INT8_INT2:
	case F_INT8_INT4:
	case F_NUMERIC_INT2:
	case F_NUMERIC_INT4:
	case F_NUMERIC_INT8:
	case F_FLOAT4_INT2:
	case F_FLOAT4_INT4:
	case F_FLOAT4_INT8:
	case F_FLOAT8_INT2:
	case F_FLOAT8_INT4:
	case F_FLOAT8_INT8:
	case F_FLOAT8_FLOAT4:
	case F_TEXT_BPCHAR:
	case F_TEXT_NAME:
	case F_TEXT_CHAR: return true;
	default: return false;
	}
}

struct CheckContext {
	const char *predicate;
	bool folded;  // checking the tree after constant folding: every constant part must be a Const by now
	Oid relid;
};

// Whether an expression depends on the row: it reads a column, or is the tested value of a simple CASE
// (CASE x WHEN k ...: each WHEN compares a placeholder for x with k).
bool
RowDependentWalker(Node *node, void *)
{
	if (node == nullptr)
		return false;
	if (IsA(node, Var) || IsA(node, CaseTestExpr))
		return true;
	return expression_tree_walker(node, (bool (*)())(void (*)(void))RowDependentWalker, nullptr);
}

bool
RowDependent(Node *node)
{
	return RowDependentWalker(node, nullptr);
}

// A comparison that is total and runs no role's code: a built-in B-tree comparison operator, on scalar types, under
// one built-in collation (two columns of different implicit collations fail at run time, row by row).
void
RequireComparison(Oid opno, Oid inputcollid, const CheckContext *c)
{
	const Oid function = get_opcode(opno);
	if (!IsBuiltIn(opno) || !IsBuiltIn(function) || func_volatile(function) != PROVOLATILE_IMMUTABLE ||
	    get_op_btree_interpretation(opno) == NIL)
		Refuse(c->predicate, psprintf("Operator %s is not a built-in comparison.", format_operator(opno)));
	Oid left, right;
	op_input_types(opno, &left, &right);
	bool collatable = false;
	for (Oid type : {left, right}) {
		if (OidIsValid(type) && get_typtype(type) == TYPTYPE_PSEUDO && type != ANYENUMOID)
			Refuse(c->predicate, psprintf("Operator %s compares arrays, records or ranges, whose comparison "
			                              "depends on their element types.",
			                              format_operator(opno)));
		collatable = collatable || (OidIsValid(type) && type_is_collatable(type));
	}
	if (collatable && !OidIsValid(inputcollid))
		Refuse(c->predicate, psprintf("Operator %s compares values of conflicting collations.", format_operator(opno)));
	if (OidIsValid(inputcollid) && inputcollid >= FirstNormalObjectId)
		Refuse(c->predicate, "A comparison may use built-in collations only.");
}

bool
NotBuiltInImmutable(Oid function, void *)
{
	return !IsBuiltIn(function) || func_volatile(function) != PROVOLATILE_IMMUTABLE;
}

// A part that does not depend on the row is a constant. It may call any immutable built-in function:
// PapCheckPredicate folds it (eval_const_expressions, as the planner does) before anything is charged, so an error
// there (1/0) fails at the check, and the tree after folding must hold it as a Const.
bool
CheckConstant(Node *node, CheckContext *c)
{
	if (node == nullptr)
		return false;
	if (c->folded && !IsA(node, Const) && !IsA(node, List))
		Refuse(c->predicate, "A part that reads no column could not be computed once.");
	// A constant of another role's type was made by its input function while the statement was analysed; refused
	// here too, whatever route made it (enums are read by the built-in enum_in).
	if (IsA(node, Const) && !IsBuiltIn(((const Const *)node)->consttype) &&
	    !type_is_enum(((const Const *)node)->consttype))
		Refuse(c->predicate, psprintf("A constant of type %s, which is not built in.",
		                              format_type_be(((const Const *)node)->consttype)));
	switch (nodeTag(node)) {
	case T_List:
	case T_Const:
	case T_FuncExpr:
	case T_OpExpr:
	case T_DistinctExpr:
	case T_NullIfExpr:
	case T_ScalarArrayOpExpr:
	case T_RelabelType:
	case T_CoerceViaIO:
	case T_BoolExpr:
	case T_NullTest:
	case T_BooleanTest:
	case T_CaseExpr:
	case T_CaseWhen:
	case T_CoalesceExpr:
	case T_ArrayExpr:
	case T_CollateExpr: break;
	case T_SubLink:
	case T_SubPlan: Refuse(c->predicate, "A predicate may not contain a subquery.");
	case T_Aggref:
	case T_WindowFunc: Refuse(c->predicate, "A predicate may not contain an aggregate or window function.");
	case T_Param: Refuse(c->predicate, "A predicate may not contain a parameter.");
	case T_CoerceToDomain: Refuse(c->predicate, "A predicate may not cast to a domain.");
	default: Refuse(c->predicate, "A part that reads no column may hold only constants, operators and functions.");
	}
	if (check_functions_in_node(node, NotBuiltInImmutable, nullptr))
		Refuse(c->predicate, "A constant part of a predicate may call immutable built-in functions only.");
	return expression_tree_walker(node, (bool (*)())(void (*)(void))CheckConstant, (void *)c);
}

bool
CheckNode(Node *node, CheckContext *c)
{
	if (node == nullptr)
		return false;
	if (!RowDependent(node))
		return CheckConstant(node, c);
	switch (nodeTag(node)) {
	case T_Var: {
		const Var *var = (const Var *)node;
		if (var->varlevelsup != 0 || var->varno != 1 || var->varattno <= 0)
			Refuse(c->predicate, "Only the table's own columns may be read.");
		// An enum's code is built in (enum_in, enum_out, its comparisons); an operator or cast its owner adds is
		// refused below like any other that is not built in. (A domain over an enum stays refused.)
		if (type_is_enum(var->vartype))
			PapRequireLocalEnumColumn(c->relid, get_attname(c->relid, var->varattno, false), var->vartype);
		else if (!IsBuiltIn(getBaseType(var->vartype)))
			Refuse(c->predicate, psprintf("Column %s has type %s, which is not built in.",
			                              get_attname(c->relid, var->varattno, false), format_type_be(var->vartype)));
		break;
	}
	case T_List:  // the arguments of an expression, walked one by one
	case T_BoolExpr:
	case T_NullTest:
	case T_BooleanTest:
	case T_CaseExpr:
	case T_CaseWhen:
	case T_CaseTestExpr:
	case T_CoalesceExpr:
	case T_RelabelType: break;
	case T_ArrayExpr:
		// Nested arrays of the row's values fail when their sizes differ: only a flat list (x IN (a, b)).
		if (((const ArrayExpr *)node)->multidims)
			Refuse(c->predicate, "A predicate may not build nested arrays from the row's values.");
		break;
	case T_CollateExpr:
		if (((const CollateExpr *)node)->collOid >= FirstNormalObjectId)
			Refuse(c->predicate, "A comparison may use built-in collations only.");
		break;
	case T_OpExpr:
	case T_DistinctExpr:
	case T_NullIfExpr: {
		const OpExpr *op = (const OpExpr *)node;
		RequireComparison(op->opno, op->inputcollid, c);
		break;
	}
	case T_ScalarArrayOpExpr: {
		const ScalarArrayOpExpr *op = (const ScalarArrayOpExpr *)node;
		RequireComparison(op->opno, op->inputcollid, c);
		break;
	}
	case T_FuncExpr: {
		const FuncExpr *f = (const FuncExpr *)node;
		if (f->funcformat == COERCE_EXPLICIT_CALL)
			Refuse(c->predicate, psprintf("Function %s may not be called.", format_procedure(f->funcid)));
		if (!IsTotalCast(f->funcid))
			Refuse(c->predicate, psprintf("The cast %s can fail on some values.", format_procedure(f->funcid)));
		break;
	}
	case T_CoerceViaIO:
	case T_ArrayCoerceExpr:
	case T_CoerceToDomain: Refuse(c->predicate, "This cast goes through a type's text form or a domain's checks.");
	case T_SubLink:
	case T_SubPlan: Refuse(c->predicate, "A predicate may not contain a subquery.");
	case T_Aggref:
	case T_WindowFunc: Refuse(c->predicate, "A predicate may not contain an aggregate or window function.");
	case T_Param: Refuse(c->predicate, "A predicate may not contain a parameter.");
	default: Refuse(c->predicate, "Expressions of this kind are not allowed.");
	}
	return expression_tree_walker(node, (bool (*)())(void (*)(void))CheckNode, (void *)c);
}

// Whether the analysis may read a literal as a value of this column type without running another role's code: a
// literal compared with a column is read by the column type's input function while the statement is analysed,
// before any check of the analysed tree (and before the read's guard, which sees plans). Built-in types and enums
// (enum_in) are read by built-in code; a domain over a built-in type reads the literal as its base type; an array
// of a domain, a composite or range type of another role's would run its checks or input functions.
bool
ReadableColumnType(Oid type)
{
	if (IsBuiltIn(type) || type_is_enum(type))
		return true;
	return get_typtype(type) == TYPTYPE_DOMAIN && IsBuiltIn(getBaseType(type));
}

// Before the analysis, which runs the input function of every cast's target type and of every column type a literal
// is compared with: only built-in types. A cast may be written as a call (an._d('{5}')), which the analysis turns
// into the same coercion: a call of a name in a schema other than pg_catalog is refused here too.
bool
CheckRawCasts(Node *node, CheckContext *c)
{
	if (node == nullptr)
		return false;
	if (IsA(node, TypeCast)) {
		const TypeName *name = ((const TypeCast *)node)->typeName;
		const Oid type = LookupTypeNameOid(NULL, name, true);
		if (OidIsValid(type) && !IsBuiltIn(type))
			Refuse(c->predicate, psprintf("The cast to %s names a type that is not built in.", TypeNameToString(name)));
	}
	if (IsA(node, FuncCall)) {
		const List *name = ((const FuncCall *)node)->funcname;
		if (list_length(name) > 1 && strcmp(strVal(list_nth(name, list_length(name) - 2)), "pg_catalog") != 0)
			Refuse(c->predicate,
			       psprintf("%s names a function or type outside pg_catalog.", NameListToString((List *)name)));
	}
	if (IsA(node, ColumnRef)) {
		const List *fields = ((const ColumnRef *)node)->fields;
		Node *last = (Node *)llast(fields);
		if (IsA(last, String)) {
			const AttrNumber attnum = get_attnum(c->relid, strVal(last));
			if (attnum > 0) {
				const Oid type = get_atttype(c->relid, attnum);
				if (!ReadableColumnType(type))
					Refuse(c->predicate, psprintf("Column %s has type %s, which is not built in.", strVal(last),
					                              format_type_be(type)));
			}
		}
	}
	return raw_expression_tree_walker(node, (bool (*)())(void (*)(void))CheckRawCasts, (void *)c);
}

struct PredicateStatement {
	const char *sql;  // SELECT (<predicate>) FROM <table>
	bool folding;
};

// Errors of the parser and the analysis point into the statement checked, not into the caller's statement; an
// error of a constant part names the statement.
void
PredicateErrorCallback(void *arg)
{
	const PredicateStatement *statement = (const PredicateStatement *)arg;
	const int position = geterrposition();
	if (position > 0) {
		errposition(0);
		internalerrposition(position);
		internalerrquery(statement->sql);
	} else if (statement->folding) {
		errcontext("computing the constant parts of the predicate in: %s", statement->sql);
	}
}

}  // namespace

void
PapCheckPredicate(Oid relid, const char *predicate)
{
	CheckContext c{predicate, false, relid};
	const char *sql = psprintf("SELECT (%s) FROM %s", predicate, PapQualifiedRelationName(relid));
	ErrorContextCallback callback;
	callback.callback = PredicateErrorCallback;
	PredicateStatement statement{sql, false};
	callback.arg = (void *)&statement;
	callback.previous = error_context_stack;
	error_context_stack = &callback;
	// Names resolve as the scans resolve them: built-in first, then only schema-qualified names.
	const int nest_level = NewGUCNestLevel();
	(void)set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
	                        false);
	// String literals read as the scans read them (PapBeginStableOutput).
	(void)set_config_option("standard_conforming_strings", "on", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
	                        false);
	// First alone, as the scans insert it: one expression, nothing that closes the parentheses and adds clauses.
	List *alone = raw_parser(psprintf("SELECT (%s)", predicate), RAW_PARSE_DEFAULT);
	bool single = list_length(alone) == 1;
	if (single) {
		Node *stmt = linitial_node(RawStmt, alone)->stmt;
		const SelectStmt *select = IsA(stmt, SelectStmt) ? (const SelectStmt *)stmt : NULL;
		single = select != NULL && select->op == SETOP_NONE && list_length(select->targetList) == 1 &&
		         select->fromClause == NIL && select->whereClause == NULL && select->groupClause == NIL &&
		         select->havingClause == NULL && select->windowClause == NIL && select->sortClause == NIL &&
		         select->limitCount == NULL && select->limitOffset == NULL && select->lockingClause == NIL &&
		         select->withClause == NULL && select->distinctClause == NIL && select->intoClause == NULL &&
		         select->valuesLists == NIL;
	}
	if (!single)
		ereport(ERROR,
		        (errcode(ERRCODE_SYNTAX_ERROR), errmsg("predicate is not a single SQL expression: %s", predicate),
		         errhint("Each predicate of predicates('...', ...) is one boolean expression over the table's "
		                 "columns, such as 'age > 40 AND sex = 1'.")));
	// Then over the table, where its column names resolve.
	List *parsed = pg_parse_query(sql);
	if (list_length(parsed) != 1 || !IsA(linitial_node(RawStmt, parsed)->stmt, SelectStmt))
		elog(ERROR, "pap_release: a single predicate did not parse as one statement over the table");
	const SelectStmt *select = (const SelectStmt *)linitial_node(RawStmt, parsed)->stmt;
	(void)CheckRawCasts((Node *)select->targetList, &c);
	Query *query = parse_analyze_fixedparams(linitial_node(RawStmt, parsed), sql, NULL, 0, NULL);
	if (query->hasSubLinks || query->hasAggs || query->hasWindowFuncs || query->hasTargetSRFs ||
	    list_length(query->rtable) != 1 || list_length(query->targetList) != 1)
		Refuse(predicate, "A predicate reads its own row only: no subquery, aggregate, window or set-returning "
		                  "function.");
	Node *expr = (Node *)linitial_node(TargetEntry, query->targetList)->expr;
	if (exprType(expr) != BOOLOID)
		ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH), errmsg("predicate \"%s\" has type %s, not boolean",
		                                                           predicate, format_type_be(exprType(expr)))));
	// The tree as analysed runs no code but built-in immutable functions; fold its constant parts as the planner
	// will, so that a constant that fails (1 / 0) fails here, before any charge, and check the result again.
	(void)CheckNode(expr, &c);
	c.folded = true;
	statement.folding = true;
	Node *folded = eval_const_expressions(NULL, expr);
	statement.folding = false;
	(void)CheckNode(folded, &c);
	AtEOXact_GUC(false, nest_level);
	error_context_stack = callback.previous;
}
