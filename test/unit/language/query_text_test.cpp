// Tests of the class and query text parsers: accepted forms, exact error kinds and positions for malformed
// input, and a randomized check that no byte sequence makes them do anything but return or throw Error.
#include "test_support.hpp"
#include "core/language/query_text.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/base/errors.hpp"

namespace pap::core {
namespace {

// The error a parse raised; fails the test if it returned or raised anything else.
template <typename Parse>
Error
ErrorOf(Parse parse, std::string_view text)
{
	try {
		parse(text);
	} catch (const Error &e) {
		return e;
	}
	ADD_FAILURE() << "no error for \"" << text << "\"";
	return Error(ErrorKind::Internal, "no error");
}

Error
QueryError(std::string_view text)
{
	return ErrorOf(ParseQueryText, text);
}
Error
ClassError(std::string_view text)
{
	return ErrorOf(ParseClassText, text);
}

// The byte offset a syntax error carries (Error::position, the glue's errposition), or -1.
long
PositionOf(const Error &e)
{
	return e.position() == Error::kNoPosition ? -1 : long(e.position());
}

bool
Contains(const std::string &haystack, std::string_view needle)
{
	return haystack.find(needle) != std::string::npos;
}

// Conventions every error must keep: lowercase message without final period, a detail sentence.
void
ExpectWellFormed(const Error &e)
{
	const std::string message = e.what();
	ASSERT_FALSE(message.empty());
	EXPECT_FALSE(std::isupper(static_cast<unsigned char>(message[0]))) << message;
	EXPECT_NE(message.back(), '.') << message;
	EXPECT_FALSE(e.detail().empty()) << message;
	if (!e.detail().empty()) {
		EXPECT_EQ(e.detail().back(), '.') << e.detail();
	}
	if (!e.hint().empty()) {
		EXPECT_EQ(e.hint().back(), '.') << e.hint();
	}
}

struct ErrorCase {
	std::string text;
	ErrorKind kind;
	long position;         // -1: the message names no position
	std::string fragment;  // must appear in the message
};

void
CheckErrors(Error (*parse)(std::string_view), const std::vector<ErrorCase> &cases)
{
	for (const ErrorCase &c : cases) {
		SCOPED_TRACE("input: \"" + c.text + "\"");
		const Error e = parse(c.text);
		EXPECT_EQ(e.kind(), c.kind) << e.what();
		EXPECT_EQ(PositionOf(e), c.position) << e.what();
		EXPECT_TRUE(Contains(e.what(), c.fragment)) << e.what() << "\n  lacks: " << c.fragment;
		ExpectWellFormed(e);
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Class texts

TEST(ParseClassText, SingleColumn)
{
	const ClassText c = ParseClassText("thresholds(price)");
	EXPECT_EQ(c.name, "thresholds");
	EXPECT_EQ(c.columns, std::vector<std::string>{"price"});
}

TEST(ParseClassText, SeveralColumnsAndWhitespace)
{
	const ClassText c = ParseClassText(" \t\n boxes \r\n( carat ,\tprice\n,depth_2 ,x$ )\n ");
	EXPECT_EQ(c.name, "boxes");
	EXPECT_EQ(c.columns, (std::vector<std::string>{"carat", "price", "depth_2", "x$"}));
}

TEST(ParseClassText, FoldsUnquotedNamesToLowerCase)
{
	const ClassText c = ParseClassText("THRESHOLDS(Price)");
	EXPECT_EQ(c.name, "thresholds");
	EXPECT_EQ(c.columns, std::vector<std::string>{"price"});
}

TEST(ParseClassText, QuotedIdentifiersKeepCaseAndUnescapeQuotes)
{
	const ClassText c = ParseClassText(R"(boxes("Price", "a""b", "with space", "and", "BETWEEN", "é"))");
	EXPECT_EQ(c.columns, (std::vector<std::string>{"Price", "a\"b", "with space", "and", "BETWEEN", "é"}));
	EXPECT_EQ(ParseClassText(R"("Thresholds"(a))").name, "Thresholds");
	EXPECT_EQ(ParseClassText(R"x(t(""""))x").columns, std::vector<std::string>{"\""});
}

TEST(ParseClassText, DistinguishesQuotedCaseFromFolded)
{
	EXPECT_EQ(ParseClassText(R"(boxes(a, "A"))").columns, (std::vector<std::string>{"a", "A"}));
}

TEST(ParseClassText, DoesNotCheckTheClassName)
{
	EXPECT_EQ(ParseClassText("nosuchclass(a)").name, "nosuchclass");
}

TEST(ParseClassText, NoSpacesNeeded)
{
	const ClassText c = ParseClassText("boxes(a,b,c)");
	EXPECT_EQ(c.columns, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(ParseClassText, Errors)
{
	const ErrorKind S = ErrorKind::SyntaxError;
	CheckErrors(ClassError,
	            {
	                {"", S, 0, "the query class is empty"},
	                {"  \n\t", S, 4, "the query class is empty"},
	                {"thresholds", S, 10, "expected \"(\" but found end of input"},
	                {"thresholds price", S, 11, "expected \"(\" but found \"price\""},
	                {"thresholds[price]", S, 10, "expected \"(\" but found \"[\""},
	                {"(price)", S, 0, "expected a query class name but found \"(\""},
	                {"3(price)", S, 0, "expected a query class name but found \"3\""},
	                {"'thresholds'(price)", S, 0, "expected a query class name but found 'thresholds'"},
	                {"thresholds()", S, 11, "expected a column name but found \")\""},
	                {"thresholds(", S, 11, "expected a column name but found end of input"},
	                {"thresholds(a,)", S, 13, "expected a column name but found \")\""},
	                {"thresholds(a, ,b)", S, 14, "expected a column name but found \",\""},
	                {"thresholds(,a)", S, 11, "expected a column name but found \",\""},
	                {"thresholds(a b)", S, 13, "expected \",\" or \")\" but found \"b\""},
	                {"thresholds(a", S, 12, "expected \",\" or \")\" but found end of input"},
	                {"thresholds(a;b)", S, 12, "expected \",\" or \")\" but found \";\""},
	                {"thresholds(a))", S, 13, "expected end of input but found \")\""},
	                {"thresholds(a) x", S, 14, "expected end of input but found \"x\""},
	                {"thresholds(a);", S, 13, "expected end of input but found \";\""},
	                {"thresholds(1)", S, 11, "expected a column name but found \"1\""},
	                {"thresholds('a')", S, 11, "expected a column name but found 'a'"},
	                {"thresholds(and)", S, 11, "expected a column name but found keyword \"and\""},
	                {"thresholds(a, Between)", S, 14, "expected a column name but found keyword \"Between\""},
	                {"thresholds(\"a)", S, 11, "unterminated quoted identifier"},
	                {"thresholds(\"\")", S, 11, "zero-length quoted identifier"},
	                {"thresholds(a.b)", S, 12, "expected \",\" or \")\" but found \".\""},
	                {"thresholds(1.2.3)", S, 11, "invalid number \"1.2.3\""},
	                {"thresholds(a)\xff", S, 13, "expected end of input but found byte 0xff"},
	                {"thresholds(\xc3\xa9t\xc3\xa9)", S, 11, "expected a column name but found \"\xc3\xa9\""},
	                {std::string("thresholds(a\0b)", 15), S, 12, "unexpected NUL byte"},
	            });
}

TEST(ParseClassText, DuplicateColumnsAreInvalidParameters)
{
	for (const char *text : {"boxes(a, a)", "boxes(a, A)", "boxes(a, \"a\")", "boxes(x, y, z, y)"}) {
		const Error e = ClassError(text);
		EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter) << text;
		ExpectWellFormed(e);
	}
	const Error e = ClassError("boxes(carat, price, Carat)");
	EXPECT_STREQ(e.what(), "column \"carat\" appears twice in query class");
	EXPECT_EQ(e.detail(), "Column \"carat\" is listed twice; each column may appear only once.");
	EXPECT_EQ(PositionOf(e), 20);
	EXPECT_STREQ(ClassError(R"(boxes("Q""", "Q"""))").what(), "column \"Q\"\" appears twice in query class");
}

TEST(ParseClassText, ExactMessageAndDetail)
{
	const Error e = ClassError("thresholds(price");
	EXPECT_STREQ(e.what(), "syntax error in query class \"thresholds(price\": expected \",\" or \")\" but found "
	                       "end of input");
	EXPECT_TRUE(Contains(e.detail(), "thresholds(price)")) << e.detail();
}

TEST(ParseClassText, OverlongTextIsALimit)
{
	const std::string text = "boxes(" + std::string((1 << 20), 'a') + ")";
	const Error e = ClassError(text);
	EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
	EXPECT_LT(std::string(e.what()).size(), 200u);
	ExpectWellFormed(e);
}

TEST(ParseClassText, LongValidTextsParse)
{
	// About 1 MB, many columns: linear time, no recursion.
	std::string text = "boxes(";
	for (int i = 0; text.size() < (1 << 20) - 20; ++i)
		text += (i ? ",c" : "c") + std::to_string(i);
	text += ")";
	EXPECT_GT(ParseClassText(text).columns.size(), 100000u);
	const std::string deep = "t" + std::string((1 << 20) - 1, '(');
	const Error e = ClassError(deep);
	EXPECT_EQ(PositionOf(e), 2);
}

// ---------------------------------------------------------------------------------------------------------------
// Query texts

TEST(ParseQueryText, EachComparison)
{
	struct Case {
		const char *text;
		Comparison op;
	};
	for (const Case &c : {Case{"price <= 1000", Comparison::LessEqual}, Case{"price < 1000", Comparison::Less},
	                      Case{"price >= 1000", Comparison::GreaterEqual}, Case{"price > 1000", Comparison::Greater},
	                      Case{"price = 1000", Comparison::Equal}}) {
		const QueryText q = ParseQueryText(c.text);
		ASSERT_EQ(q.conditions.size(), 1u) << c.text;
		EXPECT_EQ(q.conditions[0].column, "price");
		EXPECT_EQ(q.conditions[0].op, c.op) << c.text;
		EXPECT_EQ(q.conditions[0].value.text, "1000");
		EXPECT_FALSE(q.conditions[0].value.quoted);
		EXPECT_EQ(q.conditions[0].value.position, std::string(c.text).find('1'));
	}
}

TEST(ParseQueryText, Between)
{
	const QueryText q = ParseQueryText("price BETWEEN 500 AND 1000");
	ASSERT_EQ(q.conditions.size(), 1u);
	const Condition &c = q.conditions[0];
	EXPECT_EQ(c.op, Comparison::Between);
	EXPECT_EQ(c.value.text, "500");
	EXPECT_EQ(c.value.position, 14u);
	EXPECT_EQ(c.upper.text, "1000");
	EXPECT_EQ(c.upper.position, 22u);
}

TEST(ParseQueryText, KeywordsAreCaseInsensitive)
{
	const QueryText q = ParseQueryText("a between 1 and 2 And b BeTwEeN 3 aND 4 AND c<1");
	ASSERT_EQ(q.conditions.size(), 3u);
	EXPECT_EQ(q.conditions[1].column, "b");
	EXPECT_EQ(q.conditions[1].op, Comparison::Between);
	EXPECT_EQ(q.conditions[1].upper.text, "4");
	EXPECT_EQ(q.conditions[2].op, Comparison::Less);
}

TEST(ParseQueryText, BetweenBindsItsAnd)
{
	const QueryText q = ParseQueryText("price BETWEEN 500 AND 1000 AND carat <= 1");
	ASSERT_EQ(q.conditions.size(), 2u);
	EXPECT_EQ(q.conditions[0].op, Comparison::Between);
	EXPECT_EQ(q.conditions[0].upper.text, "1000");
	EXPECT_EQ(q.conditions[1].column, "carat");
	EXPECT_EQ(q.conditions[1].op, Comparison::LessEqual);
}

TEST(ParseQueryText, Conjunctions)
{
	const QueryText q = ParseQueryText("carat <= 1 AND price <= 2000");
	ASSERT_EQ(q.conditions.size(), 2u);
	EXPECT_EQ(q.conditions[0].column, "carat");
	EXPECT_EQ(q.conditions[1].column, "price");
	EXPECT_EQ(q.conditions[1].value.position, 24u);
	const QueryText r = ParseQueryText("age = 37 AND sex = 1");
	ASSERT_EQ(r.conditions.size(), 2u);
	EXPECT_EQ(r.conditions[1].op, Comparison::Equal);
}

TEST(ParseQueryText, NoWhitespaceNeededAndAnyWhitespaceAllowed)
{
	const QueryText q = ParseQueryText("price<=-3");
	ASSERT_EQ(q.conditions.size(), 1u);
	EXPECT_EQ(q.conditions[0].value.text, "-3");
	EXPECT_EQ(q.conditions[0].value.position, 7u);
	const QueryText r = ParseQueryText("\n\tprice\r\n>=\t\f'x'\vAND\nb\tBETWEEN\n1\nAND\n2\n");
	ASSERT_EQ(r.conditions.size(), 2u);
	EXPECT_EQ(r.conditions[0].value.text, "x");
	EXPECT_EQ(r.conditions[0].value.position, 13u);
	EXPECT_EQ(r.conditions[1].upper.text, "2");
	EXPECT_EQ(ParseQueryText("\"a b\"='x'").conditions[0].column, "a b");
}

TEST(ParseQueryText, NumbersKeptAsWritten)
{
	for (const char *number : {"0", "42", "+42", "-42", "3.5", "-3.5", ".5", "-.5", "+.5", "1e6", "1E6", "1e+6", "1e-6",
	                           "-2.5E-10", ".5e3", "007", "123456789012345678901234567890"}) {
		const QueryText q = ParseQueryText(std::string("x < ") + number);
		ASSERT_EQ(q.conditions.size(), 1u);
		EXPECT_EQ(q.conditions[0].value.text, number);
		EXPECT_FALSE(q.conditions[0].value.quoted);
		EXPECT_EQ(q.conditions[0].value.position, 4u);
	}
}

TEST(ParseQueryText, QuotedStrings)
{
	struct Case {
		const char *text;
		const char *value;
	};
	for (const Case &c :
	     {Case{"x = 'abc'", "abc"}, Case{"x = ''", ""}, Case{"x = 'it''s'", "it's"}, Case{"x = ''''", "'"},
	      Case{"x = 'a\"b'", "a\"b"}, Case{"x = 'AND x < 3'", "AND x < 3"}, Case{"x = 'line\nbreak'", "line\nbreak"},
	      Case{"x = '\xc3\xa9t\xc3\xa9'", "\xc3\xa9t\xc3\xa9"}, Case{"x = '12'", "12"}}) {
		const QueryText q = ParseQueryText(c.text);
		ASSERT_EQ(q.conditions.size(), 1u) << c.text;
		EXPECT_EQ(q.conditions[0].value.text, c.value) << c.text;
		EXPECT_TRUE(q.conditions[0].value.quoted) << c.text;
		EXPECT_EQ(q.conditions[0].value.position, 4u) << c.text;
	}
	const QueryText b = ParseQueryText("x BETWEEN 'a''' AND 'z'");
	EXPECT_EQ(b.conditions[0].value.text, "a'");
	EXPECT_EQ(b.conditions[0].upper.text, "z");
	EXPECT_EQ(b.conditions[0].upper.position, 20u);
}

TEST(ParseQueryText, ColumnNames)
{
	EXPECT_EQ(ParseQueryText("PRICE < 1").conditions[0].column, "price");
	EXPECT_EQ(ParseQueryText("\"PRICE\" < 1").conditions[0].column, "PRICE");
	EXPECT_EQ(ParseQueryText("\"and\" < 1").conditions[0].column, "and");
	EXPECT_EQ(ParseQueryText("\"BETWEEN\" BETWEEN 1 AND 2").conditions[0].column, "BETWEEN");
	EXPECT_EQ(ParseQueryText("\"a\"\"b\" < 1").conditions[0].column, "a\"b");
	EXPECT_EQ(ParseQueryText("_x$1 < 1").conditions[0].column, "_x$1");
	EXPECT_EQ(ParseQueryText("andy < 1 AND betweenness > 2").conditions[1].column, "betweenness");
}

TEST(ParseQueryText, ExactMessages)
{
	Error e = QueryError("price <== 3");
	EXPECT_STREQ(e.what(), "syntax error in query \"price <== 3\": expected a comparison operator "
	                       "(<=, <, >=, >, = or BETWEEN) but found \"<==\"");
	e = QueryError("price <= abc");
	EXPECT_STREQ(e.what(), "syntax error in query \"price <= abc\": expected a number or a quoted string but "
	                       "found \"abc\"");
	EXPECT_EQ(e.hint(), "Write strings in single quotes, such as 'abc'.");
	e = QueryError("price <= 'abc");
	EXPECT_STREQ(e.what(), "syntax error in query \"price <= 'abc\": unterminated quoted string");
	e = QueryError("");
	EXPECT_STREQ(e.what(), "syntax error in query \"\": the query is empty");
	EXPECT_TRUE(Contains(e.detail(), "price <= 1000")) << e.detail();
}

TEST(ParseQueryText, Errors)
{
	const ErrorKind S = ErrorKind::SyntaxError;
	const std::string op = "expected a comparison operator (<=, <, >=, >, = or BETWEEN) but found ";
	const std::string lit = "expected a number or a quoted string but found ";
	CheckErrors(QueryError,
	            {
	                // empty
	                {"", S, 0, "the query is empty"},
	                {" \t\r\n", S, 4, "the query is empty"},
	                // column
	                {"<= 3", S, 0, "expected a column name but found \"<=\""},
	                {"3 <= price", S, 0, "expected a column name but found \"3\""},
	                {"'price' <= 3", S, 0, "expected a column name but found 'price'"},
	                {"and <= 3", S, 0, "expected a column name but found keyword \"and\""},
	                {"BETWEEN <= 3", S, 0, "expected a column name but found keyword \"BETWEEN\""},
	                {"AND price <= 3", S, 0, "expected a column name but found keyword \"AND\""},
	                {"\"\" <= 3", S, 0, "zero-length quoted identifier"},
	                {"\"price <= 3", S, 0, "unterminated quoted identifier"},
	                {"price\" <= 3", S, 5, "unterminated quoted identifier"},
	                {"t.price <= 3", S, 1, op + "\".\""},
	                {"$1 <= 3", S, 0, "expected a column name but found \"$\""},
	                // operator
	                {"price", S, 5, op + "end of input"},
	                {"price 3", S, 6, op + "\"3\""},
	                {"price 'a'", S, 6, op + "'a'"},
	                {"price ==3", S, 6, op + "\"==\""},
	                {"price =< 3", S, 6, op + "\"=<\""},
	                {"price => 3", S, 6, op + "\"=>\""},
	                {"price <> 3", S, 6, op + "\"<>\""},
	                {"price != 3", S, 6, op + "\"!=\""},
	                {"price ! 3", S, 6, op + "\"!\""},
	                {"price <== 3", S, 6, op + "\"<==\""},
	                {"price >> 3", S, 6, op + "\">>\""},
	                {"price ~ 3", S, 6, op + "\"~\""},
	                {"price NOT BETWEEN 1 AND 2", S, 6, op + "\"NOT\""},
	                {"price \"between\" 1 AND 2", S, 6, op + "\"between\""},
	                {"price AND", S, 6, op + "keyword \"AND\""},
	                {"price \xe2\x89\xa4 3", S, 6, op + "\"\xe2\x89\xa4\""},
	                // literal
	                {"price <=", S, 8, lit + "end of input"},
	                {"price <= abc", S, 9, lit + "\"abc\""},
	                {"price <= \"abc\"", S, 9, lit + "\"abc\""},
	                {"price <= AND", S, 9, lit + "keyword \"AND\""},
	                {"price <= - 3", S, 9, lit + "\"-\""},
	                {"price <= .", S, 9, lit + "\".\""},
	                {"price <= -.", S, 9, lit + "\"-\""},
	                {"price <= (3)", S, 9, lit + "\"(\""},
	                {"price <= 'abc", S, 9, "unterminated quoted string"},
	                {"price <= 'it''s", S, 9, "unterminated quoted string"},
	                {"price <= '", S, 9, "unterminated quoted string"},
	                {"price <= \"abc", S, 9, "unterminated quoted identifier"},
	                {"price <= 1.2.3", S, 9, "invalid number \"1.2.3\""},
	                {"price <= 1.", S, 9, "invalid number \"1.\""},
	                {"price <= 1e", S, 9, "invalid number \"1e\""},
	                {"price <= 1e+", S, 9, "invalid number \"1e+\""},
	                {"price <= 12abc", S, 9, "invalid number \"12abc\""},
	                {"price <= 0x1F", S, 9, "invalid number \"0x1F\""},
	                {"price <= 1_000", S, 9, "invalid number \"1_000\""},
	                {"price <= --3", S, 9, lit + "\"-\""},
	                {"price <= .5.", S, 9, "invalid number \".5.\""},
	                {"price <= 1e5e", S, 9, "invalid number \"1e5e\""},
	                // prefixed constants, read as a cast to type e, b, ... before
	                {"name = E'O\\'Brien'", S, 7, "escape string constants (E'...') are not supported in a query"},
	                {"name = e'x'", S, 7, "escape string constants (E'...') are not supported in a query"},
	                {"name = U&'d\\0061t'", S, 7, "Unicode escape strings (U&'...') are not supported in a query"},
	                {"name = B'101'", S, 7, "bit-string constants (B'...', X'...') are not supported in a query"},
	                {"name = x'1F'", S, 7, "bit-string constants (B'...', X'...') are not supported in a query"},
	                {"name = n'abc'", S, 7, "national character constants (N'...') are not supported in a query"},
	                // BETWEEN
	                {"price BETWEEN", S, 13, lit + "end of input"},
	                {"price BETWEEN 1", S, 15, "expected AND but found end of input"},
	                {"price BETWEEN 1 2", S, 16, "expected AND but found \"2\""},
	                {"price BETWEEN 1 OR 2", S, 16, "expected AND but found \"OR\""},
	                {"price BETWEEN 1 \"and\" 2", S, 16, "expected AND but found \"and\""},
	                {"price BETWEEN 1 AND", S, 19, lit + "end of input"},
	                {"price BETWEEN 1 AND AND 2", S, 20, lit + "keyword \"AND\""},
	                {"price BETWEEN AND 2", S, 14, lit + "keyword \"AND\""},
	                {"price BETWEEN 1, 2", S, 15, "expected AND but found \",\""},
	                // after a condition
	                {"price <= 3 4", S, 11, "expected AND or end of input but found \"4\""},
	                {"price <= 3 OR price > 5", S, 11, "expected AND or end of input but found \"OR\""},
	                {"price <= 3 AND", S, 14, "expected a column name but found end of input"},
	                {"price <= 3 AND AND x < 1", S, 15, "expected a column name but found keyword \"AND\""},
	                {"price <= 3;", S, 10, "expected AND or end of input but found \";\""},
	                {"price <= 3 @", S, 11, "expected AND or end of input but found \"@\""},
	                {"price <= 3 \xc3\xa9", S, 11, "expected AND or end of input but found \"\xc3\xa9\""},
	                {"price <= 3 \xff", S, 11, "expected AND or end of input but found byte 0xff"},
	                {"price <= 3 \xc3", S, 11, "expected AND or end of input but found byte 0xc3"},
	                {"price <= 3 \x01", S, 11, "expected AND or end of input but found byte 0x01"},
	                {"price <= 3 'x", S, 11, "unterminated quoted string"},
	                {"price <= 3 \"x", S, 11, "unterminated quoted identifier"},
	                {"price <= 3 -2", S, 11, "expected AND or end of input but found \"-2\""},
	                {"price <= 3 AND price", S, 20, op + "end of input"},
	                {"price <= 3 BETWEEN 1 AND 2", S, 11, "expected AND or end of input but found keyword \"BETWEEN\""},
	                // NUL bytes anywhere, even inside quotes
	                {std::string("\0", 1), S, 0, "unexpected NUL byte"},
	                {std::string("price <= 3\0", 11), S, 10, "unexpected NUL byte"},
	                {std::string("x = 'a\0b'", 9), S, 6, "unexpected NUL byte"},
	                {std::string("\"a\0\" < 1", 8), S, 2, "unexpected NUL byte"},
	            });
}

TEST(ParseQueryText, BareBooleans)
{
	struct Case {
		const char *text;
		const char *value;
	};
	for (const Case &c : {Case{"b = true", "true"}, Case{"b = FALSE", "false"}, Case{"b = True", "true"},
	                      Case{"b = fAlSe", "false"}, Case{"b <= TRUE", "true"}}) {
		const QueryText q = ParseQueryText(c.text);
		ASSERT_EQ(q.conditions.size(), 1u) << c.text;
		EXPECT_EQ(q.conditions[0].column, "b");
		EXPECT_TRUE(q.conditions[0].terms.empty());
		EXPECT_EQ(q.conditions[0].value.text, c.value) << c.text;
		EXPECT_FALSE(q.conditions[0].value.quoted) << c.text;
		EXPECT_EQ(q.conditions[0].value.position, std::string(c.text).find_first_of("tTfF", 1)) << c.text;
	}
	const QueryText q = ParseQueryText("sex = 'Male' AND smoker = TRUE AND b BETWEEN false AND true");
	ASSERT_EQ(q.conditions.size(), 3u);
	EXPECT_EQ(q.conditions[0].value.text, "Male");
	EXPECT_TRUE(q.conditions[0].value.quoted);
	EXPECT_EQ(q.conditions[1].value.text, "true");
	EXPECT_EQ(q.conditions[1].value.position, 26u);
	EXPECT_EQ(q.conditions[2].value.text, "false");
	EXPECT_EQ(q.conditions[2].upper.text, "true");
	// Quoted, they are a string and a column name.
	EXPECT_TRUE(ParseQueryText("b = 'true'").conditions[0].value.quoted);
	EXPECT_EQ(QueryError("b = \"true\"").what(),
	          std::string("syntax error in query \"b = \"true\"\": expected a number or a quoted string "
	                      "but found \"true\""));
	EXPECT_EQ(ParseQueryText("\"true\" = 1").conditions[0].column, "true");
}

// The expected terms of a linear condition.
struct TermCase {
	double coefficient;
	const char *column;
	std::size_t position;
};

void
ExpectLinear(const std::string &text, const std::vector<TermCase> &terms, Comparison op, const char *bound,
             std::size_t bound_position)
{
	SCOPED_TRACE("input: \"" + text + "\"");
	const QueryText q = ParseQueryText(text);
	ASSERT_EQ(q.conditions.size(), 1u);
	const Condition &c = q.conditions[0];
	EXPECT_TRUE(c.column.empty());
	ASSERT_EQ(c.terms.size(), terms.size());
	for (std::size_t i = 0; i < terms.size(); ++i) {
		EXPECT_EQ(c.terms[i].coefficient, terms[i].coefficient) << i;
		EXPECT_EQ(std::signbit(c.terms[i].coefficient), std::signbit(terms[i].coefficient)) << i;
		EXPECT_EQ(c.terms[i].column, terms[i].column) << i;
		EXPECT_EQ(c.terms[i].position, terms[i].position) << i;
	}
	EXPECT_EQ(c.op, op);
	EXPECT_EQ(c.value.text, bound);
	EXPECT_EQ(c.value.position, bound_position);
	EXPECT_EQ(LiteralCount(q), 1u);
}

TEST(ParseQueryText, LinearConditions)
{
	const Comparison LE = Comparison::LessEqual, LT = Comparison::Less, GE = Comparison::GreaterEqual,
	                 GT = Comparison::Greater;
	ExpectLinear("1*x + 2*y <= 3.5", {{1, "x", 0}, {2, "y", 4}}, LE, "3.5", 13);
	ExpectLinear("x + y <= 3", {{1, "x", 0}, {1, "y", 2}}, LE, "3", 9);
	ExpectLinear("2.5*x - y > 0", {{2.5, "x", 0}, {-1, "y", 6}}, GT, "0", 12);
	ExpectLinear("-x + 2*\"Y\" >= -1", {{-1, "x", 0}, {2, "Y", 3}}, GE, "-1", 14);
	ExpectLinear("1e3*x < 2", {{1000, "x", 0}}, LT, "2", 8);
	ExpectLinear("2*x <= 3", {{2, "x", 0}}, LE, "3", 7);
	ExpectLinear("-x <= 3", {{-1, "x", 0}}, LE, "3", 6);
	ExpectLinear("+x <= 3", {{1, "x", 0}}, LE, "3", 6);
	ExpectLinear("- x <= 3", {{-1, "x", 0}}, LE, "3", 7);
	ExpectLinear("-2*x <= 3", {{-2, "x", 0}}, LE, "3", 8);
	ExpectLinear("- 2 * x <= 3", {{-2, "x", 0}}, LE, "3", 11);
	ExpectLinear("x - 2.5*y > 0", {{1, "x", 0}, {-2.5, "y", 2}}, GT, "0", 12);
	// A sign glued to its number is still the term's sign.
	ExpectLinear("x -2.5*y+3*z>=.5", {{1, "x", 0}, {-2.5, "y", 2}, {3, "z", 8}}, GE, ".5", 14);
	ExpectLinear("x+y<=-3", {{1, "x", 0}, {1, "y", 1}}, LE, "-3", 5);
	// The same column twice: kept as two terms (the consumer sums them).
	ExpectLinear("x + 2*x - y <= 1", {{1, "x", 0}, {2, "x", 2}, {-1, "y", 8}}, LE, "1", 15);
	// Coefficients: any finite double, zeros and denormals included; the bound may be a quoted number.
	ExpectLinear("0*x -0*y <= '3.5'", {{0, "x", 0}, {-0.0, "y", 4}}, LE, "3.5", 12);
	ExpectLinear("- 0*x <= 1", {{-0.0, "x", 0}}, LE, "1", 9);
	ExpectLinear("5e-324*x <= 1", {{5e-324, "x", 0}}, LE, "1", 12);
	ExpectLinear("1.7976931348623157e308*x - 1.7976931348623157e308*y <= 1",
	             {{1.7976931348623157e308, "x", 0}, {-1.7976931348623157e308, "y", 25}}, LE, "1", 55);
	ExpectLinear("0.1*X + 007*\"a b\" < 1", {{0.1, "x", 0}, {7, "a b", 6}}, LT, "1", 20);
	EXPECT_TRUE(ParseQueryText("x + y <= 'abc'").conditions[0].value.quoted);  // the caller reads the bound
	// A lone column stays a plain condition.
	const QueryText plain = ParseQueryText("x <= 3");
	EXPECT_EQ(plain.conditions[0].column, "x");
	EXPECT_TRUE(plain.conditions[0].terms.empty());
}

TEST(ParseQueryText, LinearAndPlainConditionsMix)
{
	const QueryText q = ParseQueryText("age = 37 AND x + y <= 3 AND sex = 1 AND -2*x > 1 AND p BETWEEN 1 AND 2");
	ASSERT_EQ(q.conditions.size(), 5u);
	EXPECT_EQ(q.conditions[0].column, "age");
	EXPECT_EQ(q.conditions[1].terms.size(), 2u);
	EXPECT_EQ(q.conditions[1].value.text, "3");
	EXPECT_EQ(q.conditions[2].column, "sex");
	EXPECT_EQ(q.conditions[3].terms.size(), 1u);
	EXPECT_EQ(q.conditions[3].terms[0].coefficient, -2.0);
	EXPECT_EQ(q.conditions[3].terms[0].position, 40u);
	EXPECT_EQ(q.conditions[4].op, Comparison::Between);
	EXPECT_EQ(LiteralCount(q), 6u);
}

TEST(LiteralCount, CountsLiteralsNotCoefficients)
{
	EXPECT_EQ(LiteralCount(ParseQueryText("a <= 1")), 1u);
	EXPECT_EQ(LiteralCount(ParseQueryText("a BETWEEN 1 AND 2")), 2u);
	EXPECT_EQ(LiteralCount(ParseQueryText("a <= 1 AND b BETWEEN 1 AND 2 AND 2*x + 3*y <= 3 AND b = true")), 5u);
	EXPECT_EQ(LiteralCount(QueryText{}), 0u);
}

TEST(ParseQueryText, LinearErrors)
{
	const ErrorKind S = ErrorKind::SyntaxError;
	const std::string op = "expected \"+\", \"-\" or a comparison operator (<=, <, >= or >) but found ";
	const std::string term = "expected a coefficient or a column name but found ";
	CheckErrors(QueryError,
	            {
	                // coefficient after the column, or a second factor
	                {"x*2 <= 3", S, 1, op + "\"*\""},
	                {"x * y <= 1", S, 2, op + "\"*\""},
	                {"x + y*2 <= 3", S, 5, op + "\"*\""},
	                {"2 * x * 3 <= 1", S, 6, op + "\"*\""},
	                {"2*3*x <= 1", S, 2, "expected a column name but found \"3\""},
	                {"2* <= 1", S, 3, "expected a column name but found \"<=\""},
	                {"2*", S, 2, "expected a column name but found end of input"},
	                {"2*AND <= 1", S, 2, "expected a column name but found keyword \"AND\""},
	                {"2*'x' <= 1", S, 2, "expected a column name but found 'x'"},
	                {"2**x <= 1", S, 2, "expected a column name but found \"*\""},
	                {"*x <= 1", S, 0, "expected a column name but found \"*\""},
	                // a number that is not a coefficient
	                {"2 x <= 3", S, 0, "expected a column name but found \"2\""},
	                {"x + 2 <= 3", S, 4, "expected a column name but found \"2\""},
	                {"x +2 <= 3", S, 2, "expected a column name but found \"+2\""},
	                {"x - 1.2.3*y <= 3", S, 4, "invalid number \"1.2.3\""},
	                // signs
	                {"x - -2*y <= 3", S, 4, term + "\"-2\""},
	                {"x + - y <= 3", S, 4, term + "\"-\""},
	                {"x +", S, 3, term + "end of input"},
	                {"-", S, 1, term + "end of input"},
	                {"- <= 3", S, 2, term + "\"<=\""},
	                {"x + AND <= 1", S, 4, term + "keyword \"AND\""},
	                {"x + 'a' <= 1", S, 4, term + "'a'"},
	                {"x + (y) <= 1", S, 4, term + "\"(\""},
	                // comparison
	                {"x + y", S, 5, op + "end of input"},
	                {"2*x = 3", S, 4, op + "\"=\""},
	                {"x + y == 3", S, 6, op + "\"==\""},
	                {"x + y <> 3", S, 6, op + "\"<>\""},
	                {"x + y BETWEEN 1 AND 2", S, 6, op + "keyword \"BETWEEN\""},
	                {"x + y 3", S, 6, op + "\"3\""},
	                {"x + y AND z < 1", S, 6, op + "keyword \"AND\""},
	                // bound
	                {"x + y <=", S, 8, "expected a number but found end of input"},
	                {"x + y <= z", S, 9, "expected a number but found \"z\""},
	                {"x + y <= true", S, 9, "expected a number but found \"true\""},
	                {"x + y <= - 3", S, 9, "expected a number but found \"-\""},
	                {"x + y <= 1 + 2", S, 11, "expected AND or end of input but found \"+\""},
	                {"x + y <= 1 * 2", S, 11, "expected AND or end of input but found \"*\""},
	                // coefficients out of float8's range
	                {"1e309*x <= 1", S, 0, "coefficient \"1e309\" is out of range for type double precision"},
	                {"x - 1e-400*y <= 1", S, 4, "coefficient \"1e-400\" is out of range for type double precision"},
	                {"x -1e999*y <= 1", S, 2, "coefficient \"-1e999\" is out of range"},
	                {"x <= 1 AND " + std::string(400, '9') + "*y <= 1", S, 11, "coefficient \"9999"},
	            });
}

TEST(ParseQueryText, LinearHints)
{
	EXPECT_EQ(QueryError("x*2 <= 3").hint(), "Write the coefficient before its column, such as \"2*x\".");
	EXPECT_EQ(QueryError("2 x <= 3").hint(), "Write a coefficient followed by * and a column name, such as \"2*x\".");
	EXPECT_EQ(QueryError("3 <= price").hint(),
	          "Write the column on the left of the comparison, such as \"price >= 3\".");
	EXPECT_EQ(QueryError("x + 2 <= 3").hint(), "Move constant terms to the right-hand side of the comparison.");
	EXPECT_EQ(QueryError("x - -2*y <= 3").hint(), "Write one sign before each term, such as \"x - 2*y\".");
	EXPECT_TRUE(Contains(QueryError("2*x = 3").hint(), "Equality does not apply to a linear condition"));
	EXPECT_EQ(QueryError("x + y == 3").hint(), "Equality does not apply to a linear condition.");
	EXPECT_TRUE(Contains(QueryError("x + y BETWEEN 1 AND 2").hint(), "two conditions joined by AND"));
	EXPECT_EQ(QueryError("x + y <= z").hint(), "Move every term to the left-hand side, such as \"x - y <= 0\".");
	EXPECT_EQ(QueryError("x + y <= - 3").hint(), "Write the sign and the number together, such as \"-3\".");
	EXPECT_EQ(QueryError("x + y <= true").hint(), "");
	EXPECT_TRUE(Contains(QueryError("x + y <= z").detail(), "x + 2*y <= 3.5")) << QueryError("x + y <= z").detail();
	EXPECT_TRUE(Contains(QueryError("1e309*x <= 1").detail(), "finite"));
	EXPECT_TRUE(Contains(QueryError("price <").detail(), "x + 2*y <= 3.5"));  // the grammar names linear forms
}

// Random linear queries written in every accepted spelling parse to the terms they were built from.
TEST(ParseQueryText, RandomLinearConditionsReadBack)
{
	std::mt19937_64 rng(99);
	const char *columns[] = {"x", "y", "\"Z z\"", "_a$1"};
	const char *names[] = {"x", "y", "Z z", "_a$1"};
	const char *ops[] = {"<=", "<", ">=", ">"};
	const char *spaces[] = {"", " ", "\t", "\n "};
	for (int i = 0; i < 3000; ++i) {
		std::string text;
		std::vector<TermCase> expected;
		const int count = 1 + static_cast<int>(rng() % 4);
		const auto space = [&] { return std::string(spaces[rng() % 4]); };
		for (int k = 0; k < count; ++k) {
			const double magnitude = double(rng() % 2000) / 8.0;  // exact in binary and in decimal
			const bool negative = rng() % 2 != 0;
			const int column = static_cast<int>(rng() % 4);
			const int form = static_cast<int>(rng() % 3);  // 0: no coefficient, 1: separate sign, 2: signed number
			if (k == 0 && form == 0 && !negative && count == 1) {
				--k;  // a lone unsigned column is a plain condition
				continue;
			}
			text += space();
			const std::size_t position = text.size();
			std::string number = std::to_string(magnitude);
			if (form == 0) {
				if (k > 0 || negative)
					text += std::string(negative ? "-" : "+") + space();
				expected.push_back({negative ? -1.0 : 1.0, names[column], position});
			} else if (form == 1 || (k == 0 && !negative)) {
				if (k > 0 || negative)
					text += std::string(negative ? "-" : "+") + space();
				text += number + space() + "*" + space();
				expected.push_back({negative ? -magnitude : magnitude, names[column], position});
			} else {
				text += (negative ? "-" : "+") + number + space() + "*" + space();
				expected.push_back({negative ? -magnitude : magnitude, names[column], position});
			}
			text += columns[column];
		}
		const Comparison op = static_cast<Comparison>(rng() % 4);
		text += space() + ops[static_cast<int>(op)] + space();
		const std::size_t bound_position = text.size();
		text += "-1.5";
		ExpectLinear(text, expected, op, "-1.5", bound_position);
		if (HasFailure())
			return;
	}
}

TEST(ParseQueryText, Hints)
{
	EXPECT_EQ(QueryError("price == 3").hint(), "Use = for equality.");
	EXPECT_EQ(QueryError("price =< 3").hint(), "Use <= for less than or equal.");
	EXPECT_EQ(QueryError("price => 3").hint(), "Use >= for greater than or equal.");
	EXPECT_EQ(QueryError("price <> 3").hint(), "Not-equal conditions are not supported.");
	EXPECT_EQ(QueryError("price != 3").hint(), "Not-equal conditions are not supported.");
	EXPECT_EQ(QueryError("a < 1 OR b < 2").hint(), "Only conjunctions are supported: join conditions with AND.");
	EXPECT_EQ(QueryError("and < 1").hint(), "Write \"and\" in double quotes to use it as a column name.");
	EXPECT_TRUE(Contains(QueryError("x = \"abc\"").hint(), "single quotes")) << QueryError("x = \"abc\"").hint();
	EXPECT_TRUE(Contains(QueryError("x = 'abc").detail(), "two single quotes"));
	EXPECT_TRUE(Contains(QueryError("\"abc").detail(), "two double quotes"));
	EXPECT_TRUE(Contains(QueryError("x < 1.").detail(), "-3.5"));
	EXPECT_TRUE(Contains(QueryError("x BETWEEN 1 2").detail(), "BETWEEN lower AND upper"));
}

TEST(ParseQueryText, MessagesAreOneLine)
{
	const Error e = QueryError("price\n<=\t\x01 3");
	EXPECT_STREQ(e.what(), "syntax error in query \"price <=   3\": expected a number or a quoted "
	                       "string but found byte 0x01");
	const Error f = QueryError("x < 1 AND y <= \"a\nb\"");
	EXPECT_EQ(std::string(f.what()).find('\n'), std::string::npos) << f.what();
	EXPECT_TRUE(Contains(f.what(), "found \"a b\"")) << f.what();
}

TEST(ParseQueryText, LongInputsGiveShortMessages)
{
	std::string text;
	while (text.size() < 500000)
		text += "price <= 1 AND ";
	const std::size_t bad = text.size();
	text += "price <=> 2 AND ";
	while (text.size() < (1 << 20) - 100)
		text += "\xc3\xa9";  // multibyte characters: excerpt must not split them
	const Error e = QueryError(text);
	EXPECT_EQ(PositionOf(e), static_cast<long>(bad + 6));
	EXPECT_LT(std::string(e.what()).size(), 400u);
	EXPECT_TRUE(Contains(e.what(), "query \"...")) << e.what();
	EXPECT_TRUE(Contains(e.what(), "...\": ")) << e.what();
	// Every kept multibyte character is whole.
	const std::string message = e.what();
	const std::size_t at = message.find("\xc3");
	ASSERT_NE(at, std::string::npos);
	const std::size_t last = message.rfind("...\": ");
	EXPECT_EQ(message[last - 1], '\xa9');

	const std::string long_literal = "x = '" + std::string(5000, 'y');
	const Error g = QueryError(long_literal);
	EXPECT_TRUE(Contains(g.what(), "unterminated quoted string"));
	EXPECT_LT(std::string(g.what()).size(), 400u);
	const Error h = QueryError("x = " + std::string(5000, '7') + "z");
	EXPECT_TRUE(Contains(h.what(), "invalid number \"7777")) << h.what();
	EXPECT_LT(std::string(h.what()).size(), 400u);
}

TEST(ParseQueryText, SizeLimit)
{
	std::string text;
	while (text.size() + 16 <= (1 << 20))
		text += "a <= 1 AND ";
	text += "a <= 1";
	ASSERT_LE(text.size(), 1u << 20);
	EXPECT_GT(ParseQueryText(text).conditions.size(), 90000u);
	text.append((1 << 20) - text.size(), ' ');
	EXPECT_EQ(text.size(), 1u << 20);
	EXPECT_NO_THROW(ParseQueryText(text));
	text += " ";
	const Error e = QueryError(text);
	EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
	EXPECT_STREQ(e.what(), "query text of 1048577 bytes exceeds the limit of 1048576 bytes");
	ExpectWellFormed(e);
}

TEST(GrowsLinearly, CatchesQuadraticWork)
{
	// The check of the two tests below fails on work quadratic in its size (256 times as long for 16 times the size).
	volatile std::uint64_t sink = 0;
	const auto quadratic = [&](std::size_t size) {
		for (std::size_t i = 0; i < size; i++)
			for (std::size_t j = 0; j < size; j++)
				sink = sink + (i ^ j);
	};
	EXPECT_FALSE(test::GrowsLinearly(quadratic, 32768));
	EXPECT_TRUE(test::GrowsLinearly([&](std::size_t size) { quadratic(std::size_t(std::sqrt(double(size)))); },
	                                std::size_t(1) << 28));
}

TEST(ParseQueryText, PathologicalRepetitionsAreLinear)
{
	EXPECT_TRUE(test::GrowsLinearly(
	    [](std::size_t size) {
		    for (const char unit : {'(', '"', '\'', '<', '1', 'a', ' ', '.', '-', '\xff'}) {
			    const std::string text(size - 1, unit);
			    try {
				    ParseQueryText(text);
				    ParseClassText(text);
			    } catch (const Error &) {
			    }
		    }
		    std::string quotes;
		    while (quotes.size() < size - 8)
			    quotes += "''";  // a literal made of escaped quotes only
		    EXPECT_EQ(ParseQueryText("x = '" + quotes + "'").conditions[0].value.text.size(), quotes.size() / 2);
	    },
	    std::size_t(1) << 20));
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers

TEST(ComparisonText, AllComparisons)
{
	EXPECT_STREQ(ComparisonText(Comparison::LessEqual), "<=");
	EXPECT_STREQ(ComparisonText(Comparison::Less), "<");
	EXPECT_STREQ(ComparisonText(Comparison::GreaterEqual), ">=");
	EXPECT_STREQ(ComparisonText(Comparison::Greater), ">");
	EXPECT_STREQ(ComparisonText(Comparison::Equal), "=");
	EXPECT_STREQ(ComparisonText(Comparison::Between), "BETWEEN");
}

TEST(QuoteIdentifier, OnlyWhenNeeded)
{
	EXPECT_EQ(QuoteIdentifier("price"), "price");
	EXPECT_EQ(QuoteIdentifier("_x$1"), "_x$1");
	EXPECT_EQ(QuoteIdentifier("andy"), "andy");
	EXPECT_EQ(QuoteIdentifier("Price"), "\"Price\"");
	EXPECT_EQ(QuoteIdentifier("and"), "\"and\"");
	EXPECT_EQ(QuoteIdentifier("between"), "\"between\"");
	EXPECT_EQ(QuoteIdentifier("1x"), "\"1x\"");
	EXPECT_EQ(QuoteIdentifier("$x"), "\"$x\"");
	EXPECT_EQ(QuoteIdentifier("a b"), "\"a b\"");
	EXPECT_EQ(QuoteIdentifier("a\"b"), "\"a\"\"b\"");
	EXPECT_EQ(QuoteIdentifier("\""), "\"\"\"\"");
	EXPECT_EQ(QuoteIdentifier("\xc3\xa9"), "\"\xc3\xa9\"");
	EXPECT_EQ(QuoteIdentifier(""), "\"\"");
}

TEST(QuoteIdentifier, RoundTripsThroughBothParsers)
{
	std::mt19937 rng(7);
	const std::string alphabet = "abcXYZ_$09 \"'.,()<=\t\xc3\xa9";
	for (int i = 0; i < 2000; ++i) {
		std::string name;
		const int length = 1 + static_cast<int>(rng() % 8);
		for (int k = 0; k < length; ++k)
			name += alphabet[rng() % alphabet.size()];
		const std::string quoted = QuoteIdentifier(name);
		const ClassText c = ParseClassText("t(" + quoted + ")");
		ASSERT_EQ(c.columns.size(), 1u) << quoted;
		EXPECT_EQ(c.columns[0], name) << quoted;
		const QueryText q = ParseQueryText(quoted + " <= 1");
		EXPECT_EQ(q.conditions[0].column, name) << quoted;
	}
	for (const char *keyword : {"and", "between"}) {
		EXPECT_EQ(ParseQueryText(QuoteIdentifier(keyword) + " <= 1").conditions[0].column, keyword);
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Randomized: any byte sequence returns or throws Error, and results keep their invariants.

bool
IsDigitOrIdentStart(char c)
{
	return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

template <typename Parse, typename Check>
void
MustReturnOrThrowError(Parse parse, Check check, const std::string &text)
{
	try {
		check(parse(text));
	} catch (const Error &e) {
		const std::string message = e.what();
		if (message.empty() || message.back() == '.' || e.detail().empty() || message.find('\0') != std::string::npos ||
		    message.find('\n') != std::string::npos)
			ADD_FAILURE() << "malformed error \"" << message << "\" for input of " << text.size() << " bytes";
	} catch (const std::exception &e) {
		ADD_FAILURE() << "unexpected exception " << e.what() << " for input of " << text.size() << " bytes";
	} catch (...) {
		ADD_FAILURE() << "unexpected non-standard exception for input of " << text.size() << " bytes";
	}
}

TEST(Randomized, ParsersReturnOrThrowErrorOnAnyInput)
{
	std::mt19937_64 rng(20240611);
	const std::vector<std::string> seeds = {"price <= 1000",
	                                        "price > 1000",
	                                        "price BETWEEN 500 AND 1000",
	                                        "carat <= 1 AND price <= 2000",
	                                        "age = 37 AND sex = 1",
	                                        "x = 'it''s' AND \"Y\"\"z\" >= -1.5e-3",
	                                        "a between .5 and +7E2 AND b < 'q'",
	                                        "thresholds(price)",
	                                        "boxes(carat, price)",
	                                        "orthants(\"A\", b, \"and\")",
	                                        "ranges( x )",
	                                        "1*x + 2*y <= 3.5 AND b = TRUE",
	                                        "-x + 2.5*\"Y\" - y > -1e3",
	                                        "x -2*y >= '4' AND s = 'Male'"};
	// Bytes that matter to the grammar, weighted up so that random strings get past the first token.
	const std::string grammar = " \t\n\"'(),;<>=!+-*.eE0123456789aAnNdDbtwBTW_$xyzru";
	std::size_t returned = 0;
	const auto check_query = [&](const QueryText &q) {
		++returned;
		if (q.conditions.empty())
			ADD_FAILURE() << "empty query accepted";
		for (const Condition &c : q.conditions) {
			// Exactly one of a column and terms; linear conditions only with an order comparison.
			if (c.column.empty() == c.terms.empty())
				ADD_FAILURE() << "condition with both or neither of column, terms";
			if (!c.terms.empty() && (c.op == Comparison::Equal || c.op == Comparison::Between))
				ADD_FAILURE() << "linear condition with " << ComparisonText(c.op);
			for (const LinearTerm &t : c.terms)
				if (!std::isfinite(t.coefficient) || t.column.empty())
					ADD_FAILURE() << "bad term";
		}
	};
	const auto check_class = [&](const ClassText &c) {
		++returned;
		if (c.columns.empty())
			ADD_FAILURE() << "class without columns accepted";
	};
	const auto random_byte = [&]() -> char {
		if (rng() % 3 == 0)
			return static_cast<char>(rng() % 256);
		return grammar[rng() % grammar.size()];
	};
	for (int i = 0; i < 100000; ++i) {
		const std::string text = test::MutatedText(i, 2, 4, rng, seeds, random_byte);
		MustReturnOrThrowError(ParseQueryText, check_query, text);
		MustReturnOrThrowError(ParseClassText, check_class, text);
		// Every literal position points at the literal as written.
		try {
			const QueryText q = ParseQueryText(text);
			for (const Condition &c : q.conditions) {
				for (const Literal *l : {&c.value, &c.upper}) {
					if (l == &c.upper && c.op != Comparison::Between)
						continue;
					ASSERT_LT(l->position, text.size());
					if (l->quoted) {
						ASSERT_EQ(text[l->position], '\'');
					} else {
						// As written, but TRUE and FALSE are folded to lower case.
						std::string written = text.substr(l->position, l->text.size());
						if (l->text == "true" || l->text == "false")
							for (char &ch : written)
								ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
						ASSERT_EQ(written, l->text) << text;
					}
				}
				// A term starts at its sign, its coefficient or its column.
				for (const LinearTerm &t : c.terms) {
					ASSERT_LT(t.position, text.size());
					const char ch = text[t.position];
					ASSERT_TRUE(ch == '+' || ch == '-' || ch == '.' || ch == '"' || IsDigitOrIdentStart(ch)) << text;
				}
			}
		} catch (const Error &) {
		}
	}
	// The mutations must exercise the accepting paths too, not only the errors.
	EXPECT_GT(returned, 5000u);
}

}  // namespace
}  // namespace pap::core
