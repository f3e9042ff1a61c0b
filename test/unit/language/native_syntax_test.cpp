// Tests of the query forms written as PostgreSQL writes them (query_text.hpp): IN lists, IS [NOT] NULL, casts of
// literals in their three spellings, parentheses around conditions and conjunctions, and the errors (with their
// byte positions) of the malformed ones.
#include "core/language/query_text.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/language/text_lexer.hpp"

namespace pap::core {
namespace {

Error
QueryError(std::string_view text)
{
	try {
		ParseQueryText(text);
	} catch (const Error &e) {
		return e;
	}
	ADD_FAILURE() << "no error for \"" << text << "\"";
	return Error(ErrorKind::Internal, "no error");
}

TEST(NativeSyntax, InListKeepsItsValuesInOrder)
{
	const QueryText q = ParseQueryText("sex IN ('F', 'M') AND age = 40");
	ASSERT_EQ(q.conditions.size(), 2u);
	EXPECT_EQ(q.conditions[0].op, Comparison::In);
	ASSERT_EQ(q.conditions[0].list.size(), 2u);
	EXPECT_EQ(q.conditions[0].list[0].text, "F");
	EXPECT_EQ(q.conditions[0].list[1].text, "M");
	EXPECT_EQ(q.conditions[0].list[1].position, 13u);
	EXPECT_EQ(q.conditions[1].op, Comparison::Equal);
	EXPECT_EQ(LiteralCount(q), 3u);
}

TEST(NativeSyntax, IsNullAndIsNotNullHaveNoLiteral)
{
	const QueryText q = ParseQueryText("a IS NULL AND b is not null");
	ASSERT_EQ(q.conditions.size(), 2u);
	EXPECT_EQ(q.conditions[0].op, Comparison::IsNull);
	EXPECT_EQ(q.conditions[1].op, Comparison::IsNotNull);
	EXPECT_EQ(LiteralCount(q), 0u);
	EXPECT_STREQ(ComparisonText(Comparison::IsNotNull), "IS NOT NULL");
}

TEST(NativeSyntax, ThreeSpellingsOfACast)
{
	for (const char *text : {"d <= '2021-01-01'::date", "d <= CAST('2021-01-01' AS date)", "d <= date '2021-01-01'",
	                         "d <= DATE '2021-01-01'"}) {
		SCOPED_TRACE(text);
		const QueryText q = ParseQueryText(text);
		ASSERT_EQ(q.conditions.size(), 1u);
		const Literal &v = q.conditions[0].value;
		EXPECT_EQ(v.text, "2021-01-01");
		EXPECT_TRUE(v.quoted);
		ASSERT_EQ(v.casts.size(), 1u);
		EXPECT_EQ(LowerAscii(v.casts[0].type), "date");
	}
}

TEST(NativeSyntax, CastTypeNamesAreKeptAsWritten)
{
	QueryText q = ParseQueryText("t < '2021-01-01 10:00'::timestamp with time zone AND x = 5::numeric(10, 2)");
	ASSERT_EQ(q.conditions.size(), 2u);
	EXPECT_EQ(q.conditions[0].value.casts.at(0).type, "timestamp with time zone");
	EXPECT_EQ(q.conditions[0].value.casts.at(0).position, 24u);
	EXPECT_EQ(q.conditions[1].value.text, "5");
	EXPECT_FALSE(q.conditions[1].value.quoted);
	EXPECT_EQ(q.conditions[1].value.casts.at(0).type, "numeric(10, 2)");

	q = ParseQueryText("x = CAST('5' AS int)::numeric AND y = '1'::pg_catalog.int4");
	ASSERT_EQ(q.conditions[0].value.casts.size(), 2u);
	EXPECT_EQ(q.conditions[0].value.casts[0].type, "int");
	EXPECT_EQ(q.conditions[0].value.casts[1].type, "numeric");
	EXPECT_EQ(q.conditions[1].value.casts.at(0).type, "pg_catalog.int4");
	q = ParseQueryText("a BETWEEN '1'::int AND '2'::int AND b IN ('x'::text, 'y')");
	EXPECT_EQ(q.conditions[0].value.casts.size(), 1u);
	EXPECT_EQ(q.conditions[0].upper.casts.size(), 1u);
	EXPECT_EQ(q.conditions[1].list.at(0).casts.size(), 1u);
	EXPECT_TRUE(q.conditions[1].list.at(1).casts.empty());
}

TEST(NativeSyntax, ParenthesesGroupConditionsOfOneConjunction)
{
	const QueryText flat = ParseQueryText("a <= 1 AND b > 2 AND c = 'x'");
	for (const char *text : {"(a <= 1) AND (b > 2) AND (c = 'x')", "(a <= 1 AND b > 2) AND c = 'x'",
	                         "((a <= 1 AND (b > 2 AND c = 'x')))", "a <= 1 AND (((b > 2))) AND c = 'x'"}) {
		SCOPED_TRACE(text);
		const QueryText q = ParseQueryText(text);
		ASSERT_EQ(q.conditions.size(), flat.conditions.size());
		for (std::size_t i = 0; i < q.conditions.size(); i++) {
			EXPECT_EQ(q.conditions[i].column, flat.conditions[i].column);
			EXPECT_EQ(q.conditions[i].op, flat.conditions[i].op);
			EXPECT_EQ(q.conditions[i].value.text, flat.conditions[i].value.text);
		}
	}
}

TEST(NativeSyntax, MalformedFormsNameTheirPosition)
{
	struct Case {
		const char *text;
		std::size_t position;
		const char *fragment;
	};
	const std::vector<Case> cases = {
	    {"(a <= 1", 7, "expected AND or \")\" but found end of input"},
	    {"a <= 1)", 6, "expected AND or end of input but found \")\""},
	    {"(a <= 1))", 8, "expected AND or end of input"},
	    {"a IN ()", 6, "expected a number or a quoted string"},
	    {"a IN ('x' 'y')", 10, "expected \",\" or \")\""},
	    {"a IN 'x'", 5, "expected \"(\""},
	    {"a IS 1", 5, "expected NULL or NOT NULL"},
	    {"a IS NOT 1", 9, "expected NULL"},
	    {"a = 'x'::", 9, "expected a type name"},
	    {"a = 'x'::and", 9, "expected a type name"},
	    {"a = CAST('x' date)", 13, "expected AS"},
	    {"a = CAST('x' AS date", 20, "expected \")\""},
	    {"a = 'x'::numeric(10 x)", 20, "expected \",\" or \")\""},
	    {"a = abc", 4, "expected a number or a quoted string"},
	    {"a = abc AND b = 1", 4, "expected a number or a quoted string"},
	};
	for (const Case &c : cases) {
		SCOPED_TRACE(c.text);
		const Error e = QueryError(c.text);
		EXPECT_EQ(e.kind(), ErrorKind::SyntaxError);
		EXPECT_EQ(e.position(), c.position) << e.what();
		EXPECT_NE(std::string(e.what()).find(c.fragment), std::string::npos) << e.what();
		EXPECT_EQ(std::string(e.what()).find("position"), std::string::npos) << e.what();
	}
}

// CAST(...) nests by recursion: a depth bound, not the stack, stops a text of nested casts.
TEST(NativeSyntax, NestedCastsAreBounded)
{
	std::string ok = "x = '1'", deep = "x = ";
	for (int i = 0; i < 64; i++)
		ok = "x = CAST(" + ok.substr(4) + " AS int)";
	EXPECT_EQ(ParseQueryText(ok).conditions.at(0).value.casts.size(), 64u);
	for (int i = 0; i < 200000; i++)
		deep += "CAST(";
	const Error e = QueryError(deep);
	EXPECT_EQ(e.kind(), ErrorKind::SyntaxError);
	EXPECT_NE(std::string(e.what()).find("casts nested more than 64 deep"), std::string::npos) << e.what();
	EXPECT_EQ(e.position(), 4u + 64u * 5u + 4u);  // the "(" of the 65th CAST
}

// Before these forms, "is", "in", "not" and "null" were column names like any other: they still are.
TEST(NativeSyntax, KeywordsOfTheNewFormsRemainColumnNames)
{
	const QueryText q = ParseQueryText("is <= 1 AND in IS NOT NULL AND null IN (2) AND cast = 3");
	ASSERT_EQ(q.conditions.size(), 4u);
	EXPECT_EQ(q.conditions[0].column, "is");
	EXPECT_EQ(q.conditions[1].column, "in");
	EXPECT_EQ(q.conditions[1].op, Comparison::IsNotNull);
	EXPECT_EQ(q.conditions[2].column, "null");
	EXPECT_EQ(q.conditions[3].column, "cast");
}

}  // namespace
}  // namespace pap::core
