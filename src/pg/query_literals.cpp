// Casts of query literals and SQL values for the core (query_literals.hpp). PostgreSQL's own machinery does the
// work: parseTypeString resolves a type name as the parser does (search_path, "double precision", typmods),
// coerce_to_target_type builds the cast (an unknown-typed string literal becomes a call of the type's input
// function, as for '...'::type), evaluate_expr runs it.
#include "pg/query_literals.hpp"
#include "pg/row_read_guard.hpp"

extern "C" {
#include "access/transam.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_coerce.h"
#include "parser/parse_type.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
}

// The constant a SQL parser makes of an unquoted literal: TRUE/FALSE booleans; numbers int4 when they fit, then
// int8, else numeric (make_const's rule), so that casts behave as in SQL (5.7::int is 6).
static Node *
LiteralConst(const pap::core::LiteralTarget &t)
{
	if (t.quoted)
		return (Node *)makeConst(UNKNOWNOID, -1, InvalidOid, -2, CStringGetDatum(pstrdup(t.text)), false, false);
	if (strcmp(t.text, "true") == 0 || strcmp(t.text, "false") == 0)
		return makeBoolConst(t.text[0] == 't', false);
	char *end = nullptr;
	errno = 0;
	const long long integer = strtoll(t.text, &end, 10);
	if (*end == '\0' && errno == 0) {
		if (integer >= PG_INT32_MIN && integer <= PG_INT32_MAX)
			return (Node *)makeConst(INT4OID, -1, InvalidOid, sizeof(int32), Int32GetDatum(int32(integer)), false,
			                         true);
		return (Node *)makeConst(INT8OID, -1, InvalidOid, sizeof(int64), Int64GetDatum(int64(integer)), false,
		                         FLOAT8PASSBYVAL);
	}
	const Datum numeric =
	    DirectFunctionCall3(numeric_in, CStringGetDatum(t.text), ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
	return (Node *)makeConst(NUMERICOID, -1, InvalidOid, -1, numeric, false, false);
}

// Output text of a value under the settings every category was printed with (PapBeginStableOutput).
static char *
StableOutput(Datum value, Oid type)
{
	Oid output;
	bool varlena;
	getTypeOutputInfo(type, &output, &varlena);
	const int level = PapBeginStableOutput();
	char *text = OidOutputFunctionCall(output, value);
	PapEndStableOutput(level);
	return text;
}

[[noreturn]] static void
NotComparable(const char *column, Oid column_type, Oid value_type)
{
	ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
	                errmsg("cannot compare column \"%s\" of type %s with a value of type %s", column,
	                       format_type_be(column_type), format_type_be(value_type)),
	                errhint("Cast the value to %s.", format_type_be(column_type))));
	pg_unreachable();
}

double
PapAxisValueOfDatum(Datum value, Oid type, pap::core::ValueType value_type, const char *column)
{
	using pap::core::ValueType;
	// A text (or an unknown-typed literal resolved to text) is read as a literal of the column, as in a query text.
	if (type == TEXTOID || type == UNKNOWNOID) {
		const char *literal = type == TEXTOID ? TextDatumGetCString(value) : DatumGetCString(value);
		if (value_type == ValueType::Number)
			return DatumGetFloat8(DirectFunctionCall1(float8in, CStringGetDatum(literal)));
		return PapTemporalLiteralToAxis(literal, value_type);
	}
	switch (value_type) {
	case ValueType::Number: {
		// A value of a number type is placed as the column's own values are (PapNumberToAxis: total, a numeric
		// beyond float8's range at +-Infinity or 0 as the scan bins such private values, a float4 widened as SQL
		// compares it), without the output settings that would make a round trip through text costly for bulk
		// answers (pap.answer_box, pap.answers_at). The other types of PostgreSQL's numeric category (money, oid,
		// the reg* types) are not numbers of an axis: refused below.
		const Oid base = getBaseType(type);
		if (!PapIsNumberAxisType(base))
			break;
		return PapNumberToAxis(value, base);
	}
	case ValueType::Date:
		if (type == DATEOID)
			return PapDateToAxis(DatumGetDateADT(value));
		if (type == TIMESTAMPOID)  // date_col <= timestamp compares the date's midnight: the same axis order
			return PapTimestampToAxis(DatumGetTimestamp(value));
		break;
	case ValueType::Timestamp:
		if (type == TIMESTAMPOID)
			return PapTimestampToAxis(DatumGetTimestamp(value));
		if (type == DATEOID)
			return PapDateToAxis(DatumGetDateADT(value));
		break;
	case ValueType::TimestampTz:
		if (type == TIMESTAMPTZOID)
			return PapTimestampToAxis(DatumGetTimestampTz(value));
		break;
	default: break;
	}
	const char *kind = value_type == ValueType::Number ? "a number" : "a date or time";
	ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
	                errmsg("cannot compare column \"%s\" with a value of type %s", column, format_type_be(type)),
	                errdetail("The column holds %s.", kind), errhint("Cast the value to the column's type.")));
	pg_unreachable();
}

// A value compared with an enum column that enum_in would not read as it is written.
static void
RefuseEnumValue(const char *column, Oid column_type)
{
	ereport(ERROR,
	        (errcode(ERRCODE_DATATYPE_MISMATCH),
	         errmsg("a value compared with column \"%s\" of type %s must be a quoted label", column,
	                format_type_be(column_type)),
	         errdetail("It may be cast to %s itself and to nothing else: any other conversion to an enum type is "
	                   "a cast its owner made.",
	                   format_type_be(column_type)),
	         errhint("Write the label as 'label' or 'label'::%s.", format_type_be(column_type))));
}

bool
PapIsReleaseCategory(const pap::core::ReleaseModel *model, const char *column, const char *text)
{
	size_t lo = 0, hi = 0;
	PAP_CORE(hi = pap::core::ModelColumnCategoryCount(model, column));
	while (lo < hi) {  // the categories are in byte order
		const size_t mid = lo + (hi - lo) / 2;
		const char *category = nullptr;
		PAP_CORE(category = pap::core::ModelColumnCategory(model, column, mid));
		const int order = strcmp(text, category);
		if (order == 0)
			return true;
		if (order < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

void
PapCastLiteral(const pap::core::ReleaseModel *model, Oid private_table, const pap::core::ParsedQuery *parsed, size_t i,
               const pap::core::LiteralTarget &t, const PapTextOrigin *origin, double *number, const char **text)
{
	Oid column_type;
	PapValueTypeOfReleaseColumn(private_table, t.column, &column_type);
	PapTextPositionCallback at_literal;
	PapPushTextPosition(&at_literal, origin, t.position);
	Node *expr = LiteralConst(t);
	for (size_t k = 0; k < t.casts; k++) {
		CHECK_FOR_INTERRUPTS();  // a literal may carry as many casts as a query text of 1 MB holds
		size_t position = 0;
		const char *type_name = nullptr;
		PAP_CORE(type_name = pap::core::ParsedQueryLiteralCast(parsed, i, k, &position));
		PapTextPositionCallback at_type;
		PapPushTextPosition(&at_type, origin, position);
		Oid type;
		int32 typmod;
		parseTypeString(type_name, &type, &typmod, false);
		// An enum's label is read by its own enum_in only: a quoted label, cast to the enum itself if at all. Any other
		// route to the enum (text::enum, 5::enum) goes through a cast only the type's owner can have made.
		if (type_is_enum(column_type) && (type != column_type || !t.quoted))
			RefuseEnumValue(t.column, column_type);
		// Reading a literal as a type runs the type's input function, and a domain's constraints any function: only
		// built-in types (and the column's own enum, read by the built-in enum_in), as in predicates. The text may
		// be answered by a role other than its writer (a saved query, a report), with that role's rights.
		if (type >= FirstGenbkiObjectId && type != column_type)
			ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			                errmsg("a value of a query may not be cast to type %s", format_type_be(type)),
			                errdetail("A value may be cast to built-in types only (and, compared with a column of an "
			                          "enum type, to that type): reading a value as another type runs code its "
			                          "owner wrote, with the rights of the role that answers the query."),
			                errhint("Cast to a built-in type, or write the value without a cast.")));
		// A label the release was run over stays its text (below): today's enum_in may no longer read it.
		if (type == column_type && type_is_enum(column_type) && PapIsReleaseCategory(model, t.column, t.text)) {
			PapPopTextPosition(&at_type);
			continue;
		}
		const Oid from = exprType(expr);
		Node *cast =
		    coerce_to_target_type(nullptr, expr, from, type, typmod, COERCION_EXPLICIT, COERCE_EXPLICIT_CAST, -1);
		if (cast == nullptr)
			ereport(ERROR, (errcode(ERRCODE_CANNOT_COERCE), errmsg("cannot cast type %s to %s", format_type_be(from),
			                                                       format_type_with_typemod(type, typmod))));
		PapPopTextPosition(&at_type);
		expr = cast;
	}
	const Oid value_type = exprType(expr);
	// An enum's quoted label (the loop above allowed no other value) that the release was run over is its own text.
	if (t.kind == pap::core::AxisKind::Categorical && type_is_enum(column_type) && t.quoted &&
	    PapIsReleaseCategory(model, t.column, t.text)) {
		*text = pstrdup(t.text);
		PapPopTextPosition(&at_literal);
		return;
	}
	Const *value = nullptr;
	// And no implicit cast to it either (the loop above already allows none).
	if (t.kind == pap::core::AxisKind::Categorical && type_is_enum(column_type) && value_type != column_type &&
	    value_type != UNKNOWNOID)
		RefuseEnumValue(t.column, column_type);
	if (t.kind == pap::core::AxisKind::Categorical) {
		// As the comparison would: the value converted to the column's type by an implicit cast.
		Node *compared = coerce_to_target_type(nullptr, expr, value_type, column_type, -1, COERCION_IMPLICIT,
		                                       COERCE_IMPLICIT_CAST, -1);
		if (compared == nullptr)
			NotComparable(t.column, column_type, value_type);
		PapRequireTrustedCalls(compared, "a value of a query");
		value = (Const *)evaluate_expr((Expr *)compared, column_type, -1, InvalidOid);
	} else {
		PapRequireTrustedCalls(expr, "a value of a query");
		value = (Const *)evaluate_expr((Expr *)expr, value_type, exprTypmod(expr), InvalidOid);
	}
	if (value->constisnull)
		ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("a value of the query is NULL")));
	if (t.kind == pap::core::AxisKind::Categorical) {
		if (column_type == BOOLOID) {
			*text = DatumGetBool(value->constvalue) ? "true" : "false";
		} else {
			char *printed = StableOutput(value->constvalue, column_type);
			PapTrimCharPadding(printed, column_type);  // 'ab'::char(4) prints 'ab  '
			*text = printed;
		}
	} else {
		*number = PapAxisValueOfDatum(value->constvalue, value_type, t.type, t.column);
	}
	PapPopTextPosition(&at_literal);
}

static void
FreeParsedQueryCallback(void *arg)
{
	pap::core::FreeParsedQuery((pap::core::ParsedQuery *)arg);
}

void
PapFreeWithCurrentContext(pap::core::ParsedQuery *parsed)
{
	MemoryContextCallback *free_query = (MemoryContextCallback *)palloc(sizeof(MemoryContextCallback));
	free_query->func = FreeParsedQueryCallback;
	free_query->arg = parsed;
	MemoryContextRegisterResetCallback(CurrentMemoryContext, free_query);
}
