// A column closed by its CHECK constraints: the catalog's expression trees read, folded with built-ins only.
#include "pg/check_list.hpp"

extern "C" {
#include "access/table.h"
#include "access/transam.h"
#include "catalog/pg_class.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/typcache.h"
}

namespace {

// A sorted list of distinct texts, palloc'd (no C++ object lives across a PostgreSQL call that may raise).
struct TextList {
	const char **values = nullptr;
	int count = 0;
	bool known = false;  // false: no list (the column is open)
};

int
CompareTexts(const void *x, const void *y)
{
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
	for (int i = 1; i < list.count; i++)
		if (strcmp(list.values[i], list.values[kept - 1]) != 0)
			list.values[kept++] = list.values[i];
	list.count = kept;
}

// Both sorted and distinct: their intersection (intersect) or union.
TextList
Merge(const TextList &a, const TextList &b, bool intersect)
{
	TextList out;
	out.known = true;
	out.values = (const char **)palloc(sizeof(char *) * size_t(a.count + b.count + 1));
	int i = 0, j = 0;
	while (i < a.count || j < b.count) {
		const int order = i == a.count ? 1 : j == b.count ? -1 : strcmp(a.values[i], b.values[j]);
		if (order == 0) {
			out.values[out.count++] = a.values[i++];
			j++;
		} else if (order < 0) {
			if (!intersect)
				out.values[out.count++] = a.values[i];
			i++;
		} else {
			if (!intersect)
				out.values[out.count++] = b.values[j];
			j++;
		}
	}
	return out;
}

// Where equal values print alike: the number types but numeric (1 = 1.0), and text and varchar.
bool
ClosableType(Oid type)
{
	return (PapIsNumberAxisType(type) && type != NUMERICOID) || type == TEXTOID || type == VARCHAROID;
}

// True when folding the list would run something initdb did not make: only constants of built-in types, arrays of
// them, and built-in functions, operators and casts pass. Anything else (a user's function, a subquery, a parameter)
// leaves the column open.
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
	case T_FuncExpr: built_in = ((FuncExpr *)node)->funcid < FirstNormalObjectId; break;
	case T_OpExpr: {
		const OpExpr *op = (OpExpr *)node;
		built_in = op->opno < FirstNormalObjectId && get_opcode(op->opno) < FirstNormalObjectId;
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

// The values one ANDed condition allows the column (attnum, of type `type`); known = false when it is no such list.
TextList
ListOfCondition(Node *condition, AttrNumber attnum, Oid type)
{
	TextList list;
	if (!IsA(condition, ScalarArrayOpExpr))
		return list;
	ScalarArrayOpExpr *in = (ScalarArrayOpExpr *)condition;
	if (!in->useOr || list_length(in->args) != 2)
		return list;
	Node *left = (Node *)linitial(in->args);
	while (IsA(left, RelabelType))  // varchar compared as text
		left = (Node *)((RelabelType *)left)->arg;
	if (!IsA(left, Var) || ((Var *)left)->varattno != attnum || ((Var *)left)->vartype != type)
		return list;
	const Oid compared = exprType((Node *)linitial(in->args));
	// The type's own equality, under a deterministic collation: a value equal to a listed one prints as it does.
	TypeCacheEntry *entry = lookup_type_cache(compared, TYPECACHE_EQ_OPR);
	if (!OidIsValid(entry->eq_opr) || in->opno != entry->eq_opr ||
	    (OidIsValid(in->inputcollid) && !get_collation_isdeterministic(in->inputcollid)))
		return list;
	Node *values = (Node *)lsecond(in->args);
	if (NotOnlyBuiltIns(values, nullptr))
		return list;
	values = eval_const_expressions(nullptr, values);
	if (!IsA(values, Const) || ((Const *)values)->constisnull)
		return list;
	ArrayType *array = DatumGetArrayTypeP(((Const *)values)->constvalue);
	if (ARR_ELEMTYPE(array) != compared)
		return list;
	int16 length;
	bool by_value;
	char align;
	get_typlenbyvalalign(compared, &length, &by_value, &align);
	Datum *elements;
	bool *nulls;
	int count;
	deconstruct_array(array, compared, length, by_value, align, &elements, &nulls, &count);
	Oid output;
	bool varlena;
	getTypeOutputInfo(compared, &output, &varlena);
	list.values = (const char **)palloc(sizeof(char *) * size_t(count + 1));
	for (int i = 0; i < count; i++) {
		CHECK_FOR_INTERRUPTS();  // a list may be long, and each value is printed
		if (nulls[i])            // x IN (..., NULL) is NULL, not false, for any other x: the row passes the CHECK
			return TextList{};
		if ((compared == FLOAT8OID && DatumGetFloat8(elements[i]) == 0.0) ||
		    (compared == FLOAT4OID && DatumGetFloat4(elements[i]) == 0.0f))
			return TextList{};  // -0 = 0, but "-0" is not "0"
		list.values[list.count++] = OidOutputFunctionCall(output, elements[i]);
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
					list = list.known ? Merge(list, allowed, true) : allowed;
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
	List *tables = find_all_inheritors(relid, AccessShareLock, nullptr);
	const int output_level = PapBeginStableOutput();
	TextList all;
	all.known = true;
	ListCell *cell;
	foreach (cell, tables) {
		CHECK_FOR_INTERRUPTS();  // a tree may have many partitions
		const Oid table = lfirst_oid(cell);
		const char kind = get_rel_relkind(table);
		if (kind == RELKIND_PARTITIONED_TABLE)  // stores no row
			continue;
		const TextList own = kind == RELKIND_RELATION ? ListOfTable(table, column) : TextList{};
		if (!own.known) {
			all.known = false;
			break;
		}
		all = Merge(all, own, false);
	}
	PapEndStableOutput(output_level);
	list_free(tables);
	if (!all.known || all.count == 0)
		return nullptr;
	*count = size_t(all.count);
	return all.values;
}
