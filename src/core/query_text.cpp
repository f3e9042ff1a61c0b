// Hand-written parsers for query class texts and query texts, on the lexer shared with class_spec.cpp
// (text_lexer.hpp), which produces one token at a time (lazily) so that the first malformed token is the one
// reported; the parsers are loops, never recursive, so no input can exhaust the stack.
#include "core/query_text.hpp"

#include <string>
#include <unordered_map>

#include "core/errors.hpp"
#include "core/text_lexer.hpp"

namespace pap::core {
namespace {

// Texts come from SQL arguments; a bound keeps error handling and memory predictable.
constexpr std::size_t kMaxTextBytes = std::size_t{1} << 20;

constexpr const char *kComparisonList = "<=, <, >=, >, = or BETWEEN";

constexpr LexerRules kQueryRules{"query", kMaxTextBytes, "Query and query class texts are limited to 1 MB.", true,
                                 false};
constexpr LexerRules kClassRules{"query class", kMaxTextBytes, "Query and query class texts are limited to 1 MB.",
                                 true, false};
constexpr const char *kQueryGrammar =
    "A query is one or more conditions joined by AND, such as \"price <= 1000\" or "
    "\"price BETWEEN 500 AND 1000 AND carat > 1\".";
constexpr const char *kClassGrammar =
    "A query class is a name followed by column names in parentheses, such as \"thresholds(price)\" or "
    "\"boxes(carat, price)\".";

using Lexer = TextLexer;

// Checks that a token can name a column and returns the name.
std::string ExpectColumn(const Lexer &lex, const Token &t)
{
	if (t.kind != TokenKind::Identifier) lex.Unexpected(t, "a column name");
	if (!t.quoted && IsReservedWord(t.value))
		lex.Unexpected(t, "a column name", {},
		               "Write \"" + t.value + "\" in double quotes to use it as a column name.");
	return t.value;
}

// column (',' column)* up to the closing parenthesis, which is consumed. Richer argument lists (an order such as
// "marginals(3; a, b)", or direction vectors) are parsed before this list by the caller.
std::vector<std::string> ParseColumnList(Lexer &lex)
{
	std::vector<std::string> columns;
	std::unordered_map<std::string, std::size_t> seen;  // column -> position of its first mention
	for (;;) {
		const Token t = lex.Take();
		std::string column = ExpectColumn(lex, t);
		const auto [it, inserted] = seen.emplace(column, t.begin);
		if (!inserted)
			throw Error(ErrorKind::InvalidParameter,
			            "column \"" + Printable(column) + "\" appears twice in query class",
			            "Column \"" + Printable(column) + "\" is listed at positions " + std::to_string(it->second) +
			                " and " + std::to_string(t.begin) + "; each column may appear only once.");
		columns.push_back(std::move(column));
		const Token sep = lex.Take();
		if (IsPunct(sep, ',')) continue;
		if (IsPunct(sep, ')')) return columns;
		lex.Unexpected(sep, "\",\" or \")\"");
	}
}

Literal ParseLiteral(Lexer &lex)
{
	const Token t = lex.Take();
	if (t.kind == TokenKind::Number) return Literal{t.value, false, t.begin};
	if (t.kind == TokenKind::String) return Literal{t.value, true, t.begin};
	std::string hint;
	if (t.kind == TokenKind::Identifier && t.quoted)
		hint = "Double quotes delimit column names; write strings in single quotes, such as 'abc'.";
	else if (t.kind == TokenKind::Identifier)
		hint = "Write strings in single quotes, such as 'abc'.";
	lex.Unexpected(t, "a number or a quoted string", {}, std::move(hint));
}

// Maps an operator token to a comparison, explaining the usual mistakes from other languages.
Comparison ParseOperator(const Lexer &lex, const Token &t)
{
	const std::string expected = std::string("a comparison operator (") + kComparisonList + ")";
	if (t.kind != TokenKind::Operator) lex.Unexpected(t, expected);
	const std::string &op = t.value;
	if (op == "<=") return Comparison::LessEqual;
	if (op == "<") return Comparison::Less;
	if (op == ">=") return Comparison::GreaterEqual;
	if (op == ">") return Comparison::Greater;
	if (op == "=") return Comparison::Equal;
	std::string hint;
	if (op == "==")
		hint = "Use = for equality.";
	else if (op == "=<")
		hint = "Use <= for less than or equal.";
	else if (op == "=>")
		hint = "Use >= for greater than or equal.";
	else if (op == "<>" || op == "!=")
		hint = "Not-equal conditions are not supported.";
	lex.Unexpected(t, expected, "A query compares a column with <=, <, >=, >, = or BETWEEN.", std::move(hint));
}

Condition ParseCondition(Lexer &lex)
{
	Condition c;
	c.column = ExpectColumn(lex, lex.Take());
	const Token op = lex.Take();
	if (IsKeyword(op, "between")) {
		c.op = Comparison::Between;
		c.value = ParseLiteral(lex);
		const Token and_token = lex.Take();
		if (!IsKeyword(and_token, "and"))
			lex.Unexpected(and_token, "AND", "BETWEEN is written as \"column BETWEEN lower AND upper\".");
		c.upper = ParseLiteral(lex);
		return c;
	}
	c.op = ParseOperator(lex, op);
	c.value = ParseLiteral(lex);
	return c;
}

}  // namespace

ClassText ParseClassText(std::string_view text)
{
	Lexer lex(text, kClassRules, kClassGrammar);
	ClassText result;
	const Token name = lex.Take();
	if (name.kind == TokenKind::End) lex.Fail(name.begin, "the query class is empty");
	if (name.kind != TokenKind::Identifier) lex.Unexpected(name, "a query class name");
	result.name = name.value;
	const Token open = lex.Take();
	if (!IsPunct(open, '(')) lex.Unexpected(open, "\"(\"");
	// Classes with leading arguments (marginals' order, halfspaces' directions) will branch on the name here.
	result.columns = ParseColumnList(lex);
	const Token end = lex.Take();
	if (end.kind != TokenKind::End) lex.Unexpected(end, "end of input");
	return result;
}

QueryText ParseQueryText(std::string_view text)
{
	Lexer lex(text, kQueryRules, kQueryGrammar);
	QueryText result;
	if (lex.Peek().kind == TokenKind::End) lex.Fail(lex.Peek().begin, "the query is empty");
	for (;;) {
		result.conditions.push_back(ParseCondition(lex));
		const Token next = lex.Take();
		if (next.kind == TokenKind::End) return result;
		if (IsKeyword(next, "and")) continue;
		std::string hint;
		if (next.kind == TokenKind::Identifier && !next.quoted && (next.value == "or" || next.value == "not"))
			hint = "Only conjunctions are supported: join conditions with AND.";
		lex.Unexpected(next, "AND or end of input", {}, std::move(hint));
	}
}

const char *ComparisonText(Comparison op)
{
	switch (op) {
	case Comparison::LessEqual:
		return "<=";
	case Comparison::Less:
		return "<";
	case Comparison::GreaterEqual:
		return ">=";
	case Comparison::Greater:
		return ">";
	case Comparison::Equal:
		return "=";
	case Comparison::Between:
		return "BETWEEN";
	}
	return "?";
}

std::string QuoteIdentifier(std::string_view name)
{
	bool plain = !name.empty() && (name[0] == '_' || (name[0] >= 'a' && name[0] <= 'z')) && !IsReservedWord(name);
	for (std::size_t i = 1; plain && i < name.size(); ++i) {
		const char c = name[i];
		plain = (c >= 'a' && c <= 'z') || IsDigit(c) || c == '_' || c == '$';
	}
	if (plain) return std::string(name);
	std::string out = "\"";
	for (const char c : name) {
		if (c == '"') out += '"';
		out += c;
	}
	out += '"';
	return out;
}

}  // namespace pap::core
