// A column closed by its CHECK constraints: the catalog's expression trees read, folded with built-ins only.
#include "pg/check_list.hpp"

extern "C" {
#include "access/stratnum.h"
#include "access/table.h"
#include "access/transam.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_language.h"
#include "catalog/pg_opfamily.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/typcache.h"
}

namespace {

// The most values, and printed bytes, a column's list may have: beyond either it stays open (a list that long is no
// category axis a release can hold: pap_release.max_cells is 1,000,000 by default), and reading it stops there.
constexpr int kMaxListValues = 1000000;
constexpr size_t kMaxListBytes = size_t(64) << 20;

// A sorted list of distinct texts, palloc'd (no C++ object lives across a PostgreSQL call that may raise).
struct TextList {
	const char **values = nullptr;
	int count = 0;
	bool known = false;  // false: no list (the column is open)
};

// Polls for a cancel: the tree's union may hold millions of values. PostgreSQL's qsort (pg_qsort) allocates nothing,
// so leaving it by the error's longjmp loses nothing.
int
CompareTexts(const void *x, const void *y)
{
	CHECK_FOR_INTERRUPTS();
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

// Sorts and removes duplicates in place.
void
Normalize(TextList &list)
{
	if (list.count == 0)
		return;
	qsort(list.values, size_t(list.count), sizeof(char *), CompareTexts);
	int kept = 1;
	for (int i = 1; i < list.count; i++) {
		CHECK_FOR_INTERRUPTS();
		if (strcmp(list.values[i], list.values[kept - 1]) != 0)
			list.values[kept++] = list.values[i];
	}
	list.count = kept;
}

// Both sorted and distinct: their intersection.
TextList
Intersect(const TextList &a, const TextList &b)
{
	TextList out;
	out.known = true;
	out.values = (const char **)palloc(sizeof(char *) * size_t(Min(a.count, b.count) + 1));
	int i = 0, j = 0;
	while (i < a.count && j < b.count) {
		CHECK_FOR_INTERRUPTS();
		const int order = strcmp(a.values[i], b.values[j]);
		if (order == 0) {
			out.values[out.count++] = a.values[i++];
			j++;
		} else if (order < 0) {
			i++;
		} else {
			j++;
		}
	}
	return out;
}

// Appends b's values to a (both known; a's array grown by repalloc): the tree's union, sorted once at the end, so that
// P tables of L values each cost O(P L log(P L)), not a merge per table.
void
AppendValues(TextList &a, const TextList &b, int &capacity)
{
	if (a.count + b.count > capacity) {
		capacity = 2 * (a.count + b.count);
		a.values = a.values == nullptr ? (const char **)palloc(sizeof(char *) * size_t(capacity))
		                               : (const char **)repalloc(a.values, sizeof(char *) * size_t(capacity));
	}
	for (int i = 0; i < b.count; i++)
		a.values[a.count++] = b.values[i];
}

// Where equal values print alike: the number types but numeric (1 = 1.0), and text and varchar.
bool
ClosableType(Oid type)
{
	return (PapIsNumberAxisType(type) && type != NUMERICOID) || type == TEXTOID || type == VARCHAROID;
}

// A built-in function whose code is compiled in (internal or C): never a SQL-language one, whose body folding could
// inline and parse.
bool
CompiledBuiltIn(Oid function)
{
	if (function >= FirstNormalObjectId)
		return false;
	HeapTuple tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(function));
	if (!HeapTupleIsValid(tuple))
		return false;
	const Oid language = ((Form_pg_proc)GETSTRUCT(tuple))->prolang;
	ReleaseSysCache(tuple);
	return language == INTERNALlanguageId || language == ClanguageId;
}

// True when folding the list would run anything but a cast of a constant that initdb made: only constants of built-in
// types, arrays of them, and casts through built-in compiled functions pass. Anything else (a user's function, any
// function called by name or as an operator, a subquery, a parameter) leaves the column open: folding then costs no
// more than the constants the catalog holds, and runs nothing a table's owner wrote.
bool
NotOnlyBuiltIns(Node *node, void *)
{
	if (node == nullptr)
		return false;
	bool built_in = false;
	switch (nodeTag(node)) {
	case T_List: built_in = true; break;  // the walker hands an ArrayExpr's or a call's arguments as one list
	case T_Const: built_in = ((Const *)node)->consttype < FirstNormalObjectId; break;
	case T_ArrayExpr: built_in = ((ArrayExpr *)node)->array_typeid < FirstNormalObjectId; break;
	case T_RelabelType: built_in = ((RelabelType *)node)->resulttype < FirstNormalObjectId; break;
	// A list cast as a whole (varchar[] to text[], numeric[] to float8[]): each element through elemexpr, whose
	// input is the CaseTestExpr placeholder.
	case T_ArrayCoerceExpr: built_in = ((ArrayCoerceExpr *)node)->resulttype < FirstNormalObjectId; break;
	case T_CaseTestExpr: built_in = true; break;
	case T_FuncExpr: {
		const FuncExpr *call = (FuncExpr *)node;
		built_in = (call->funcformat == COERCE_IMPLICIT_CAST || call->funcformat == COERCE_EXPLICIT_CAST) &&
		           CompiledBuiltIn(call->funcid);
		break;
	}
	case T_CoerceViaIO:  // the output and input functions of two built-in types
		built_in = ((CoerceViaIO *)node)->resulttype < FirstNormalObjectId &&
		           exprType((Node *)((CoerceViaIO *)node)->arg) < FirstNormalObjectId;
		break;
	default: built_in = false;
	}
	if (!built_in)
		return true;
	return expression_tree_walker(node, (bool (*)())(void (*)(void))NotOnlyBuiltIns, nullptr);
}

// The equality a list may compare the column with: the compared type's own, or for an integer column, the integer
// family's between its type and the list's (smallint IN (1, 2) compares int2 with int4).
bool
ListEquality(Oid opno, Oid column_type, Oid element_type)
{
	if (element_type == column_type)
		return opno == lookup_type_cache(column_type, TYPECACHE_EQ_OPR)->eq_opr;
	const auto integer = [](Oid t) { return t == INT2OID || t == INT4OID || t == INT8OID; };
	return integer(column_type) && integer(element_type) &&
	       opno == get_opfamily_member(INTEGER_BTREE_FAM_OID, column_type, element_type, BTEqualStrategyNumber);
}

// Whether an integer list value fits the integer column type (a value outside it is never held: left out).
bool
FitsColumn(Datum value, Oid element_type, Oid column_type)
{
	const int64 v = element_type == INT2OID   ? int64(DatumGetInt16(value))
	                : element_type == INT4OID ? int64(DatumGetInt32(value))
	                                          : DatumGetInt64(value);
	return column_type == INT2OID   ? v >= PG_INT16_MIN && v <= PG_INT16_MAX
	       : column_type == INT4OID ? v >= PG_INT32_MIN && v <= PG_INT32_MAX
	                                : true;
}

// The values one ANDed condition allows the column (attnum, of type `type`): `column IN (...)`, `column = ANY
// (ARRAY[...])` or `column = constant`; known = false when it is no such list.
TextList
ListOfCondition(Node *condition, AttrNumber attnum, Oid type)
{
	TextList list;
	Node *left, *values;
	Oid opno, collation;
	bool single = false;
	if (IsA(condition, ScalarArrayOpExpr)) {
		ScalarArrayOpExpr *in = (ScalarArrayOpExpr *)condition;
		if (!in->useOr || list_length(in->args) != 2)
			return list;
		left = (Node *)linitial(in->args);
		values = (Node *)lsecond(in->args);
		opno = in->opno;
		collation = in->inputcollid;
	} else if (IsA(condition, OpExpr) && list_length(((OpExpr *)condition)->args) == 2) {
		OpExpr *equal = (OpExpr *)condition;  // a list of one: column = constant
		left = (Node *)linitial(equal->args);
		values = (Node *)lsecond(equal->args);
		opno = equal->opno;
		collation = equal->inputcollid;
		single = true;
	} else {
		return list;
	}
	// The column itself, or a varchar column compared as text: no other relabelling (text as bpchar or int4 as oid
	// compares otherwise than the printed values do).
	Oid compared = exprType(left);
	if (IsA(left, RelabelType) && type == VARCHAROID && compared == TEXTOID)
		left = (Node *)((RelabelType *)left)->arg;
	else if (compared != type)
		return list;
	if (!IsA(left, Var) || ((Var *)left)->varattno != attnum || ((Var *)left)->vartype != type)
		return list;
	// The type's own equality (or the integer family's), under a deterministic collation: a value equal to a listed
	// one prints as it does.
	const Oid value_type = exprType(values);
	const Oid element_type = single ? value_type : get_element_type(value_type);
	if (!OidIsValid(element_type) || !ListEquality(opno, compared, element_type) ||
	    (OidIsValid(collation) && !get_collation_isdeterministic(collation)))
		return list;
	if (NotOnlyBuiltIns(values, nullptr))
		return list;
	values = eval_const_expressions(nullptr, values);
	if (!IsA(values, Const) || ((Const *)values)->constisnull)  // x = NULL passes every row
		return list;
	int16 length;
	bool by_value;
	char align;
	get_typlenbyvalalign(element_type, &length, &by_value, &align);
	Datum *elements;
	bool *nulls;
	int count;
	if (single) {
		elements = &((Const *)values)->constvalue;
		nulls = &((Const *)values)->constisnull;
		count = 1;
	} else {
		ArrayType *array = DatumGetArrayTypeP(((Const *)values)->constvalue);
		if (ARR_ELEMTYPE(array) != element_type)
			return list;
		deconstruct_array(array, element_type, length, by_value, align, &elements, &nulls, &count);
	}
	if (count > kMaxListValues)
		return list;
	Oid output;
	bool varlena;
	getTypeOutputInfo(element_type, &output, &varlena);
	list.values = (const char **)palloc(sizeof(char *) * size_t(count + 1));
	size_t bytes = 0;
	for (int i = 0; i < count; i++) {
		CHECK_FOR_INTERRUPTS();  // a list may be long, and each value is printed
		if (nulls[i])            // x IN (..., NULL) is NULL, not false, for any other x: the row passes the CHECK
			return TextList{};
		if ((element_type == FLOAT8OID && DatumGetFloat8(elements[i]) == 0.0) ||
		    (element_type == FLOAT4OID && DatumGetFloat4(elements[i]) == 0.0f))
			return TextList{};  // -0 = 0, but "-0" is not "0"
		if (element_type != compared && !FitsColumn(elements[i], element_type, compared))
			continue;
		list.values[list.count] = OidOutputFunctionCall(output, elements[i]);
		bytes += strlen(list.values[list.count++]);
		if (bytes > kMaxListBytes)
			return TextList{};
	}
	list.known = true;
	Normalize(list);
	return list;
}

// The list one table's validated CHECK constraints allow the column: the intersection of every such condition.
TextList
ListOfTable(Oid relid, const char *column)
{
	TextList list;
	const AttrNumber attnum = get_attnum(relid, column);
	if (attnum <= 0)
		return list;
	Relation rel = table_open(relid, NoLock);  // locked by find_all_inheritors
	const TupleDesc desc = RelationGetDescr(rel);
	const Oid type = TupleDescAttr(desc, attnum - 1)->atttypid;
	const Oid collation = TupleDescAttr(desc, attnum - 1)->attcollation;
	if (ClosableType(type) && (!OidIsValid(collation) || get_collation_isdeterministic(collation)) &&
	    desc->constr != nullptr) {
		for (int c = 0; c < desc->constr->num_check; c++) {
			const ConstrCheck &check = desc->constr->check[c];
			if (!check.ccvalid)  // NOT VALID: rows from before it may hold anything
				continue;
			ListCell *cell;
			foreach (cell, make_ands_implicit((Expr *)stringToNode(check.ccbin))) {
				const TextList allowed = ListOfCondition((Node *)lfirst(cell), attnum, type);
				if (allowed.known)
					list = list.known ? Intersect(list, allowed) : allowed;
			}
		}
	}
	table_close(rel, NoLock);
	return list;
}

}  // namespace

const char **
PapCheckListOfColumn(Oid relid, const char *column, size_t *count)
{
	*count = 0;
	bool all_plain = false;
	List *tables = PapTablesStoringRows(relid, &all_plain);
	const int output_level = PapBeginStableOutput();
	// Only casts of built-in constants are folded (NotOnlyBuiltIns); the search path is pinned all the same.
	(void)set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true, 0,
	                        false);
	TextList all;
	all.known = all_plain;  // a foreign table's constraints are not enforced
	int capacity = 0;
	ListCell *cell;
	foreach (cell, tables) {
		if (!all.known)
			break;
		CHECK_FOR_INTERRUPTS();  // a tree may have many partitions
		const TextList own = ListOfTable(lfirst_oid(cell), column);
		if (!own.known) {
			all.known = false;
			break;
		}
		AppendValues(all, own, capacity);
		if (all.count > 2 * kMaxListValues) {  // the tables' lists repeat values: count the distinct ones
			Normalize(all);
			if (all.count > kMaxListValues) {
				all.known = false;
				break;
			}
		}
	}
	if (all.known)
		Normalize(all);
	if (all.count > kMaxListValues)
		all.known = false;
	PapEndStableOutput(output_level);
	list_free(tables);
	if (!all.known || all.count == 0)
		return nullptr;
	*count = size_t(all.count);
	return all.values;
}
