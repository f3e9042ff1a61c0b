// Hand-written parsers for query class texts and query texts, on the lexer shared with class_spec.cpp
// (text_lexer.hpp), which produces one token at a time (lazily) so that the first malformed token is the one
// reported; the parsers are loops, never recursive, so no input can exhaust the stack.
#include "core/language/query_text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <unordered_set>

#include "core/base/errors.hpp"
#include "core/language/text_lexer.hpp"

namespace pap::core {
namespace {

// Texts come from SQL arguments; a bound keeps error handling and memory predictable.
constexpr std::size_t kMaxTextBytes = std::size_t{1} << 20;

constexpr const char *kComparisonList = "<=, <, >=, >, = or BETWEEN";
constexpr const char *kLinearComparisonList = "<=, <, >= or >";

constexpr LexerRules kQueryRules{"query", kMaxTextBytes, "Query and query class texts are limited to 1 MB.", true,
                                 false};
constexpr LexerRules kClassRules{"query class", kMaxTextBytes, "Query and query class texts are limited to 1 MB.", true,
                                 false};
constexpr const char *kQueryGrammar = "A query is one or more conditions joined by AND, such as \"price <= 1000\", "
                                      "\"price BETWEEN 500 AND 1000 AND carat > 1\" or \"x + 2*y <= 3.5\".";
constexpr const char *kLinearGrammar =
    "A linear condition compares a sum of terms, each a column name with an optional coefficient and * before it, "
    "with <=, <, >= or > and a number, such as \"x + 2*y <= 3.5\" or \"2.5*x - y > 0\".";
constexpr const char *kClassGrammar =
    "A query class is a name followed by column names in parentheses, such as \"thresholds(price)\" or "
    "\"boxes(carat, price)\".";

using Lexer = TextLexer;

// Checks that a token can name a column and returns the name.
std::string
ExpectColumn(const Lexer &lex, const Token &t, const char *expected = "a column name")
{
	if (t.kind != TokenKind::Identifier)
		lex.Unexpected(t, expected);
	if (!t.quoted && IsReservedWord(t.value))
		lex.Unexpected(t, expected, {}, "Write \"" + t.value + "\" in double quotes to use it as a column name.");
	return t.value;
}

bool
IsOperator(const Token &t, char c)
{
	return t.kind == TokenKind::Operator && t.value.size() == 1 && t.value[0] == c;
}
bool
IsSign(const Token &t)
{
	return IsOperator(t, '+') || IsOperator(t, '-');
}
// The lexer reads "+2" or "-2" as one number, so "x -2*y" continues a sum just as "x - 2*y" does.
bool
IsSignedNumber(const Token &t)
{
	return t.kind == TokenKind::Number && (t.value[0] == '+' || t.value[0] == '-');
}
bool
IsComparisonToken(const Token &t)
{
	return t.kind == TokenKind::Operator && !IsSign(t) && !IsOperator(t, '*');
}

// column (',' column)* up to the closing parenthesis, which is consumed. Richer argument lists (an order such as
// "marginals(3; a, b)", or direction vectors) are parsed before this list by the caller.
std::vector<std::string>
ParseColumnList(Lexer &lex)
{
	std::vector<std::string> columns;
	std::unordered_set<std::string> seen;
	for (;;) {
		const Token t = lex.Take();
		std::string column = ExpectColumn(lex, t);
		if (!seen.insert(column).second)
			throw Error(ErrorKind::InvalidParameter,
			            "column \"" + Printable(column) + "\" appears twice in query class",
			            "Column \"" + Printable(column) + "\" is listed twice; each column may appear only once.")
			    .At(t.begin);
		columns.push_back(std::move(column));
		const Token sep = lex.Take();
		if (IsPunct(sep, ','))
			continue;
		if (IsPunct(sep, ')'))
			return columns;
		lex.Unexpected(sep, "\",\" or \")\"");
	}
}

bool
IsCastOperator(const Token &t)
{
	return t.kind == TokenKind::Operator && t.value == "::";
}

// A type name as PostgreSQL writes it, read up to the token that cannot continue it: words ("double precision",
// "timestamp with time zone"), a schema ("pg_catalog.int4"), modifiers ("numeric(10, 2)"), array brackets are
// not part of the query language. The text is kept as written for the caller's type parser, which also reports
// a type that does not exist.
LiteralCast
ParseTypeName(Lexer &lex, std::string_view text)
{
	const Token first = lex.Take();
	if (first.kind != TokenKind::Identifier || (!first.quoted && IsReservedWord(first.value)))
		lex.Unexpected(first, "a type name");
	std::size_t end = first.end;
	for (;;) {
		const Token &next = lex.Peek();
		const bool word = next.kind == TokenKind::Identifier && !(!next.quoted && IsReservedWord(next.value));
		const bool dot = next.kind == TokenKind::Other && next.end == next.begin + 1 && text[next.begin] == '.';
		if (!word && !dot)
			break;
		end = lex.Take().end;
	}
	if (IsPunct(lex.Peek(), '(')) {  // type modifiers: numbers separated by commas
		lex.Take();
		for (;;) {
			const Token modifier = lex.Take();
			if (modifier.kind != TokenKind::Number)
				lex.Unexpected(modifier, "a type modifier (a number)");
			const Token sep = lex.Take();
			if (IsPunct(sep, ',')) {
				continue;
			}
			if (!IsPunct(sep, ')'))
				lex.Unexpected(sep, "\",\" or \")\"");
			end = sep.end;
			break;
		}
	}
	return LiteralCast{std::string(text.substr(first.begin, end - first.begin)), first.begin};
}

// CAST(...) nests by recursion: a bound keeps the stack small whatever the text (1 MB of "CAST(" would be 200000
// levels).
constexpr int kMaxCastNesting = 64;

Literal ParseLiteral(Lexer &lex, std::string_view text, int depth = 0);
[[noreturn]] void ReportBadLiteral(const Lexer &lex, const Token &t);

// CAST(literal AS type); the CAST keyword has been read. depth: the CAST calls around this one.
Literal
ParseCastCall(Lexer &lex, std::string_view text, int depth)
{
	const Token open = lex.Take();
	if (!IsPunct(open, '('))
		lex.Unexpected(open, "\"(\"", "A cast is written as \"CAST('value' AS type)\".");
	if (depth >= kMaxCastNesting)
		lex.Fail(open.begin, "casts nested more than " + std::to_string(kMaxCastNesting) + " deep",
		         "A literal may be cast by CAST(... AS type) inside at most " + std::to_string(kMaxCastNesting) +
		             " other casts.");
	Literal literal = ParseLiteral(lex, text, depth + 1);
	const Token as = lex.Take();
	if (!IsKeyword(as, "as"))
		lex.Unexpected(as, "AS", "A cast is written as \"CAST('value' AS type)\".");
	literal.casts.push_back(ParseTypeName(lex, text));
	const Token close = lex.Take();
	if (!IsPunct(close, ')'))
		lex.Unexpected(close, "\")\"", "A cast is written as \"CAST('value' AS type)\".");
	return literal;
}

// literal := number | 'string' | TRUE | FALSE | type 'string' | CAST(literal AS type), each followed by any
// number of ::type. Recursion is bounded by kMaxCastNesting.
Literal
ParseLiteral(Lexer &lex, std::string_view text, int depth)
{
	const Token t = lex.Take();
	Literal literal;
	if (t.kind == TokenKind::Number) {
		literal = Literal{t.value, false, t.begin, {}};
	} else if (t.kind == TokenKind::String) {
		literal = Literal{t.value, true, t.begin, {}};
	} else if (IsKeyword(t, "true") || IsKeyword(t, "false")) {
		// Bare TRUE and FALSE, as in SQL, for boolean columns (the lexer has folded them to lower case).
		literal = Literal{t.value, false, t.begin, {}};
	} else if (IsKeyword(t, "cast") && IsPunct(lex.Peek(), '(')) {
		literal = ParseCastCall(lex, text, depth);
	} else if (t.kind == TokenKind::Identifier && !t.quoted && !IsReservedWord(t.value) &&
	           (lex.Peek().kind == TokenKind::String || lex.Peek().kind == TokenKind::Identifier)) {
		// type 'string' ("date '2021-01-01'", "timestamp with time zone '...'"): words up to the string.
		std::size_t end = t.end;
		while (lex.Peek().kind == TokenKind::Identifier && !lex.Peek().quoted && !IsReservedWord(lex.Peek().value))
			end = lex.Take().end;
		const Token value = lex.Take();
		if (value.kind != TokenKind::String)
			ReportBadLiteral(lex, t);
		literal = Literal{value.value, true, value.begin, {}};
		literal.casts.push_back(LiteralCast{std::string(text.substr(t.begin, end - t.begin)), t.begin});
	} else {
		ReportBadLiteral(lex, t);
	}
	while (IsCastOperator(lex.Peek())) {
		lex.Take();
		literal.casts.push_back(ParseTypeName(lex, text));
	}
	return literal;
}

[[noreturn]] void
ReportBadLiteral(const Lexer &lex, const Token &t)
{
	std::string hint;
	if (t.kind == TokenKind::Identifier && t.quoted)
		hint = "Double quotes delimit column names; write strings in single quotes, such as 'abc'.";
	else if (t.kind == TokenKind::Identifier)
		hint = "Write strings in single quotes, such as 'abc'.";
	lex.Unexpected(t, "a number or a quoted string", {}, std::move(hint));
}

// Maps an operator token to a comparison, explaining the usual mistakes from other languages. A linear condition
// (linear = true) has no = nor BETWEEN, and may continue with another term instead.
Comparison
ParseOperator(const Lexer &lex, const Token &t, bool linear = false)
{
	const std::string expected =
	    linear ? std::string("\"+\", \"-\" or a comparison operator (") + kLinearComparisonList + ")"
	           : std::string("a comparison operator (") + kComparisonList + ")";
	if (linear && IsKeyword(t, "between"))
		lex.Unexpected(t, expected, kLinearGrammar,
		               "BETWEEN does not apply to a linear condition: write two conditions joined by AND.");
	if (t.kind != TokenKind::Operator)
		lex.Unexpected(t, expected, linear ? kLinearGrammar : "");
	const std::string &op = t.value;
	if (op == "<=")
		return Comparison::LessEqual;
	if (op == "<")
		return Comparison::Less;
	if (op == ">=")
		return Comparison::GreaterEqual;
	if (op == ">")
		return Comparison::Greater;
	if (op == "=" && !linear)
		return Comparison::Equal;
	std::string hint;
	if (op == "=")
		hint = "Equality does not apply to a linear condition: write two conditions with <= and >= joined by AND.";
	else if (op == "==")
		hint = linear ? "Equality does not apply to a linear condition." : "Use = for equality.";
	else if (op == "=<")
		hint = "Use <= for less than or equal.";
	else if (op == "=>")
		hint = "Use >= for greater than or equal.";
	else if (op == "<>" || op == "!=")
		hint = "Not-equal conditions are not supported.";
	lex.Unexpected(t, expected, linear ? kLinearGrammar : "A query compares a column with <=, <, >=, >, = or BETWEEN.",
	               std::move(hint));
}

// A finite double, by float8in's rules (overflow, and underflow to zero, are out of range).
double
CoefficientValue(const Lexer &lex, const Token &t)
{
	errno = 0;
	char *end = nullptr;
	const double value = std::strtod(t.value.c_str(), &end);
	if (end != t.value.c_str() + t.value.size() || !std::isfinite(value) || (errno == ERANGE && value == 0.0))
		lex.Fail(t.begin, "coefficient \"" + Shorten(t.value) + "\" is out of range for type double precision",
		         "A coefficient must be a finite double precision number.");
	return value;
}

// [+|-] [number *] column. first: the term opens the condition, so it needs no sign; a later term starts with
// one, either alone ("x - 2*y") or as part of its number ("x -2*y"); "x - -2*y" has two and is refused.
LinearTerm
ParseTerm(Lexer &lex, bool first)
{
	Token t = lex.Take();
	LinearTerm term;
	term.position = t.begin;
	bool separate_sign = false;
	if (IsSign(t)) {
		separate_sign = true;
		if (t.value[0] == '-')
			term.coefficient = -1.0;
		t = lex.Take();
	} else if (!first && !IsSignedNumber(t)) {
		throw Error(ErrorKind::Internal, "a linear term after the first must start with a sign");
	}
	const char *expected = separate_sign || !first ? "a coefficient or a column name" : "a column name";
	if (t.kind == TokenKind::Number) {
		if (separate_sign && IsSignedNumber(t))
			lex.Unexpected(t, expected, kLinearGrammar, "Write one sign before each term, such as \"x - 2*y\".");
		const double coefficient = CoefficientValue(lex, t);
		const Token &star = lex.Peek();
		if (!IsOperator(star, '*')) {
			// A number is a coefficient only before "*": else it is a misplaced constant or a missing "*".
			std::string hint = "Write a coefficient followed by * and a column name, such as \"2*x\".";
			if (IsComparisonToken(star) || IsKeyword(star, "between"))
				hint = first && !separate_sign
				           ? "Write the column on the left of the comparison, such as \"price >= 3\"."
				           : "Move constant terms to the right-hand side of the comparison.";
			lex.Unexpected(t, "a column name", first && !separate_sign ? "" : kLinearGrammar, std::move(hint));
		}
		lex.Take();
		term.coefficient *= coefficient;
		expected = "a column name";
		t = lex.Take();
	}
	term.column = ExpectColumn(lex, t, expected);
	return term;
}

// The bound of a linear condition: a number, or a quoted number as for a plain condition (the caller reads it).
Literal
ParseBound(Lexer &lex)
{
	const Token t = lex.Take();
	if (t.kind == TokenKind::Number)
		return Literal{t.value, false, t.begin, {}};
	if (t.kind == TokenKind::String)
		return Literal{t.value, true, t.begin, {}};
	std::string hint;
	if (t.kind == TokenKind::Identifier && !IsKeyword(t, "true") && !IsKeyword(t, "false") &&
	    !(!t.quoted && IsReservedWord(t.value)))
		hint = "Move every term to the left-hand side, such as \"x - y <= 0\".";
	if (IsSign(t))
		hint = "Write the sign and the number together, such as \"-3\".";
	lex.Unexpected(t, "a number", kLinearGrammar, std::move(hint));
}

// A linear condition; `terms` holds the first term when the caller has already read it.
Condition
ParseLinear(Lexer &lex, std::vector<LinearTerm> terms)
{
	if (terms.empty())
		terms.push_back(ParseTerm(lex, true));
	for (;;) {
		const Token &next = lex.Peek();
		if (IsSign(next) || IsSignedNumber(next)) {
			terms.push_back(ParseTerm(lex, false));
			continue;
		}
		if (IsOperator(next, '*'))
			lex.Unexpected(next, std::string("\"+\", \"-\" or a comparison operator (") + kLinearComparisonList + ")",
			               kLinearGrammar, "Write the coefficient before its column, such as \"2*x\".");
		break;
	}
	Condition c;
	c.terms = std::move(terms);
	c.op = ParseOperator(lex, lex.Take(), true);
	c.value = ParseBound(lex);
	return c;
}

// IN ( literal [, literal]* ); the IN keyword has been read.
std::vector<Literal>
ParseInList(Lexer &lex, std::string_view text)
{
	const Token open = lex.Take();
	if (!IsPunct(open, '('))
		lex.Unexpected(open, "\"(\"", "IN is written as \"column IN ('a', 'b')\".");
	std::vector<Literal> list;
	for (;;) {
		list.push_back(ParseLiteral(lex, text));
		const Token sep = lex.Take();
		if (IsPunct(sep, ','))
			continue;
		if (IsPunct(sep, ')'))
			return list;
		lex.Unexpected(sep, "\",\" or \")\"", "IN is written as \"column IN ('a', 'b')\".");
	}
}

Condition
ParseCondition(Lexer &lex, std::string_view text)
{
	const Token &start = lex.Peek();
	if (start.kind == TokenKind::Number || IsSign(start))
		return ParseLinear(lex, {});
	const Token column = lex.Take();
	const Token &after = lex.Peek();
	if (IsSign(after) || IsSignedNumber(after) || IsOperator(after, '*'))
		return ParseLinear(lex, {LinearTerm{1.0, ExpectColumn(lex, column), column.begin}});
	Condition c;
	c.column = ExpectColumn(lex, column);
	c.position = column.begin;
	const Token op = lex.Take();
	if (IsKeyword(op, "between")) {
		c.op = Comparison::Between;
		c.value = ParseLiteral(lex, text);
		const Token and_token = lex.Take();
		if (!IsKeyword(and_token, "and"))
			lex.Unexpected(and_token, "AND", "BETWEEN is written as \"column BETWEEN lower AND upper\".");
		c.upper = ParseLiteral(lex, text);
		return c;
	}
	if (IsKeyword(op, "in")) {
		c.op = Comparison::In;
		c.list = ParseInList(lex, text);
		return c;
	}
	if (IsKeyword(op, "is")) {
		Token word = lex.Take();
		c.op = Comparison::IsNull;
		if (IsKeyword(word, "not")) {
			c.op = Comparison::IsNotNull;
			word = lex.Take();
		}
		if (!IsKeyword(word, "null"))
			lex.Unexpected(word, c.op == Comparison::IsNull ? "NULL or NOT NULL" : "NULL",
			               "IS is written as \"column IS NULL\" or \"column IS NOT NULL\".");
		return c;
	}
	c.op = ParseOperator(lex, op);
	c.value = ParseLiteral(lex, text);
	return c;
}

}  // namespace

ClassText
ParseClassText(std::string_view text)
{
	Lexer lex(text, kClassRules, kClassGrammar);
	ClassText result;
	const Token name = lex.Take();
	if (name.kind == TokenKind::End)
		lex.Fail(name.begin, "the query class is empty");
	if (name.kind != TokenKind::Identifier)
		lex.Unexpected(name, "a query class name");
	result.name = name.value;
	const Token open = lex.Take();
	if (!IsPunct(open, '('))
		lex.Unexpected(open, "\"(\"");
	// Classes with leading arguments (marginals' order, halfspaces' directions) will branch on the name here.
	result.columns = ParseColumnList(lex);
	const Token end = lex.Take();
	if (end.kind != TokenKind::End)
		lex.Unexpected(end, "end of input");
	return result;
}

QueryText
ParseQueryText(std::string_view text)
{
	Lexer lex(text, kQueryRules, kQueryGrammar);
	QueryText result;
	if (lex.Peek().kind == TokenKind::End)
		lex.Fail(lex.Peek().begin, "the query is empty");
	// Parentheses only group conditions of one conjunction, so a counter of the open ones is the whole grammar:
	// "(" may open before a condition, ")" may close after one, and AND joins conditions at any depth.
	std::size_t open = 0;  // unclosed "("
	for (;;) {
		while (IsPunct(lex.Peek(), '(')) {
			lex.Take();
			open++;
		}
		result.conditions.push_back(ParseCondition(lex, text));
		Token next = lex.Take();
		while (IsPunct(next, ')') && open > 0) {
			open--;
			next = lex.Take();
		}
		if (next.kind == TokenKind::End && open == 0)
			return result;
		if (IsKeyword(next, "and"))
			continue;
		std::string hint;
		if (next.kind == TokenKind::Identifier && !next.quoted && (next.value == "or" || next.value == "not"))
			hint = "Only conjunctions are supported: join conditions with AND.";
		else if (next.kind == TokenKind::End)
			hint = "Close every \"(\" with a \")\".";
		lex.Unexpected(next, open == 0 ? "AND or end of input" : "AND or \")\"", {}, std::move(hint));
	}
}

std::size_t
LiteralCount(const Condition &condition)
{
	switch (condition.op) {
	case Comparison::Between: return 2;
	case Comparison::In: return condition.list.size();
	case Comparison::IsNull:
	case Comparison::IsNotNull: return 0;
	default: return 1;
	}
}

std::size_t
LiteralCount(const QueryText &query)
{
	std::size_t count = 0;
	for (const Condition &c : query.conditions)
		count += LiteralCount(c);
	return count;
}

const char *
ComparisonText(Comparison op)
{
	switch (op) {
	case Comparison::LessEqual: return "<=";
	case Comparison::Less: return "<";
	case Comparison::GreaterEqual: return ">=";
	case Comparison::Greater: return ">";
	case Comparison::Equal: return "=";
	case Comparison::Between: return "BETWEEN";
	case Comparison::In: return "IN";
	case Comparison::IsNull: return "IS NULL";
	case Comparison::IsNotNull: return "IS NOT NULL";
	}
	return "?";
}

std::string
SqlIdentifier(std::string_view name)
{
	std::string out = "\"";
	for (const char c : name) {
		if (c == '"')
			out += '"';
		out += c;
	}
	return out + "\"";
}

std::string
QuoteIdentifier(std::string_view name)
{
	bool plain = !name.empty() && (name[0] == '_' || (name[0] >= 'a' && name[0] <= 'z')) && !IsReservedWord(name);
	for (std::size_t i = 1; plain && i < name.size(); ++i) {
		const char c = name[i];
		plain = (c >= 'a' && c <= 'z') || IsDigit(c) || c == '_' || c == '$';
	}
	if (plain)
		return std::string(name);
	std::string out = "\"";
	for (const char c : name) {
		if (c == '"')
			out += '"';
		out += c;
	}
	out += '"';
	return out;
}

}  // namespace pap::core
