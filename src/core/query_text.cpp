// Hand-written lexer and parsers for query class texts and query texts. The lexer produces one token at a time
// (lazily) so that the first malformed token is the one reported; the parsers are loops, never recursive, so no
// input can exhaust the stack.
#include "core/query_text.hpp"

#include <cstdio>
#include <string>
#include <unordered_map>

#include "core/errors.hpp"

namespace pap::core {
namespace {

// Texts come from SQL arguments; a bound keeps error handling and memory predictable.
constexpr std::size_t kMaxTextBytes = std::size_t{1} << 20;
// Error messages show at most this much of the input around the error.
constexpr std::size_t kWholeExcerptBytes = 200;
constexpr std::size_t kExcerptRadius = 80;
constexpr std::size_t kFoundBytes = 40;

constexpr const char *kComparisonList = "<=, <, >=, >, = or BETWEEN";

bool IsSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c) || c == '$'; }
bool IsOperatorChar(char c) { return c == '<' || c == '>' || c == '=' || c == '!'; }
bool IsPunct(char c) { return c == '(' || c == ')' || c == ',' || c == ';'; }
char ToLowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Length of the well-formed UTF-8 sequence starting at text[i], or 0 if there is none: used only to show an
// unexpected character whole rather than as a broken byte.
std::size_t Utf8Length(std::string_view text, std::size_t i)
{
	const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
	const unsigned char b = byte(i);
	std::size_t len = 0;
	unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
	if (b >= 0xC2 && b <= 0xDF) {
		len = 2;
	} else if (b >= 0xE0 && b <= 0xEF) {
		len = 3;
		if (b == 0xE0) lo = 0xA0;
		if (b == 0xED) hi = 0x9F;
	} else if (b >= 0xF0 && b <= 0xF4) {
		len = 4;
		if (b == 0xF0) lo = 0x90;
		if (b == 0xF4) hi = 0x8F;
	} else {
		return 0;
	}
	if (text.size() - i < len) return 0;
	if (byte(i + 1) < lo || byte(i + 1) > hi) return 0;
	for (std::size_t k = 2; k < len; ++k)
		if (!IsContinuationByte(text[i + k])) return 0;
	return len;
}

// Control bytes would break the one-line message (or end it, for NUL); a space keeps byte offsets aligned.
std::string Printable(std::string_view s)
{
	std::string out(s);
	for (char &c : out) {
		const unsigned char u = static_cast<unsigned char>(c);
		if (u < 0x20 || u == 0x7F) c = ' ';
	}
	return out;
}

// Cuts s to at most max bytes without splitting a UTF-8 character, marking the cut with "...".
std::string Shorten(std::string_view s, std::size_t max)
{
	if (s.size() <= max) return Printable(s);
	std::size_t end = max;
	while (end > 0 && IsContinuationByte(s[end])) --end;
	return Printable(s.substr(0, end)) + "...";
}

bool IsValidNumber(std::string_view s)
{
	std::size_t i = 0;
	const auto digits = [&] {
		const std::size_t start = i;
		while (i < s.size() && IsDigit(s[i])) ++i;
		return i > start;
	};
	if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
	if (digits()) {
		if (i < s.size() && s[i] == '.') {
			++i;
			if (!digits()) return false;
		}
	} else {
		if (i >= s.size() || s[i] != '.') return false;
		++i;
		if (!digits()) return false;
	}
	if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
		++i;
		if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
		if (!digits()) return false;
	}
	return i == s.size();
}

enum class TokenKind { End, Identifier, Number, String, Operator, Punct, Other };

struct Token {
	TokenKind kind = TokenKind::End;
	std::size_t begin = 0;  // byte range of the token as written
	std::size_t end = 0;
	std::string value;      // identifier folded or unescaped, string unescaped, number and operator as written
	bool quoted = false;    // identifier written in double quotes
};

bool IsKeyword(const Token &t, std::string_view keyword)
{
	return t.kind == TokenKind::Identifier && !t.quoted && t.value == keyword;
}
bool IsReservedWord(std::string_view lower) { return lower == "and" || lower == "between"; }
bool IsPunct(const Token &t, char c) { return t.kind == TokenKind::Punct && t.value.size() == 1 && t.value[0] == c; }

// What is being parsed: names the text in messages and gives the grammar reminder used as the default detail.
struct Context {
	const char *what;
	const char *grammar;
};
constexpr Context kQueryContext{
	"query",
	"A query is one or more conditions joined by AND, such as \"price <= 1000\" or "
	"\"price BETWEEN 500 AND 1000 AND carat > 1\"."};
constexpr Context kClassContext{
	"query class",
	"A query class is a name followed by column names in parentheses, such as \"thresholds(price)\" or "
	"\"boxes(carat, price)\"."};

class Lexer {
public:
	Lexer(std::string_view text, const Context &context) : text_(text), context_(context)
	{
		if (text_.size() > kMaxTextBytes)
			throw Error(ErrorKind::LimitExceeded,
			            std::string(context_.what) + " text of " + std::to_string(text_.size()) +
			                " bytes exceeds the limit of " + std::to_string(kMaxTextBytes) + " bytes",
			            "Query and query class texts are limited to 1 MB.");
		const std::size_t nul = text_.find('\0');
		if (nul != std::string_view::npos)
			Fail(nul, "unexpected NUL byte",
			     "The " + std::string(context_.what) + " text must not contain NUL bytes.");
	}

	const Token &Peek()
	{
		if (!has_peeked_) {
			peeked_ = Lex();
			has_peeked_ = true;
		}
		return peeked_;
	}
	Token Take()
	{
		Peek();
		has_peeked_ = false;
		return std::move(peeked_);
	}

	[[noreturn]] void Fail(std::size_t position, const std::string &problem, std::string detail = {},
	                       std::string hint = {}) const
	{
		if (detail.empty()) detail = context_.grammar;
		throw Error(ErrorKind::SyntaxError,
		            "syntax error in " + std::string(context_.what) + " \"" + Excerpt(position) + "\" at position " +
		                std::to_string(position) + ": " + problem,
		            std::move(detail), std::move(hint));
	}

	[[noreturn]] void Unexpected(const Token &found, const std::string &expected, std::string detail = {},
	                             std::string hint = {}) const
	{
		Fail(found.begin, "expected " + expected + " but found " + Describe(found), std::move(detail),
		     std::move(hint));
	}

	std::string Describe(const Token &t) const
	{
		const std::string_view raw = text_.substr(t.begin, t.end - t.begin);
		switch (t.kind) {
		case TokenKind::End:
			return "end of input";
		case TokenKind::String:
			return Shorten(raw, kFoundBytes);  // already in single quotes
		case TokenKind::Identifier:
			if (t.quoted) return Shorten(raw, kFoundBytes);  // already in double quotes
			if (IsReservedWord(t.value)) return "keyword \"" + Shorten(raw, kFoundBytes) + "\"";
			return "\"" + Shorten(raw, kFoundBytes) + "\"";
		case TokenKind::Other:
			if (raw.size() == 1) {
				const unsigned char u = static_cast<unsigned char>(raw[0]);
				if (u < 0x20 || u >= 0x7F) {
					char buf[8];
					std::snprintf(buf, sizeof buf, "0x%02x", u);
					return std::string("byte ") + buf;
				}
			}
			return "\"" + Shorten(raw, kFoundBytes) + "\"";
		default:
			return "\"" + Shorten(raw, kFoundBytes) + "\"";
		}
	}

private:
	// The whole text when short, else a window around the error so that a 1 MB input gives a short message.
	std::string Excerpt(std::size_t position) const
	{
		if (text_.size() <= kWholeExcerptBytes) return Printable(text_);
		std::size_t start = position > kExcerptRadius ? position - kExcerptRadius : 0;
		std::size_t end = text_.size() - position > kExcerptRadius ? position + kExcerptRadius : text_.size();
		while (start < text_.size() && start > 0 && IsContinuationByte(text_[start])) ++start;
		while (end < text_.size() && end > start && IsContinuationByte(text_[end])) --end;
		return (start > 0 ? "..." : "") + Printable(text_.substr(start, end - start)) +
		       (end < text_.size() ? "..." : "");
	}

	Token Lex()
	{
		while (pos_ < text_.size() && IsSpace(text_[pos_])) ++pos_;
		Token t;
		t.begin = pos_;
		if (pos_ >= text_.size()) {
			t.kind = TokenKind::End;
			t.end = pos_;
			return t;
		}
		const char c = text_[pos_];
		const char next = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
		const char after = pos_ + 2 < text_.size() ? text_[pos_ + 2] : '\0';
		if (IsIdentStart(c)) {
			t.kind = TokenKind::Identifier;
			while (pos_ < text_.size() && IsIdentChar(text_[pos_])) t.value += ToLowerAscii(text_[pos_++]);
		} else if (c == '"') {
			t.kind = TokenKind::Identifier;
			t.quoted = true;
			LexQuoted('"', t);
			if (t.value.empty())
				Fail(t.begin, "zero-length quoted identifier",
				     "A quoted identifier must contain at least one character.");
		} else if (c == '\'') {
			t.kind = TokenKind::String;
			LexQuoted('\'', t);
		} else if (IsDigit(c) || (c == '.' && IsDigit(next)) ||
		           ((c == '+' || c == '-') && (IsDigit(next) || (next == '.' && IsDigit(after))))) {
			t.kind = TokenKind::Number;
			LexNumber(t);
		} else if (IsOperatorChar(c)) {
			t.kind = TokenKind::Operator;
			while (pos_ < text_.size() && IsOperatorChar(text_[pos_])) t.value += text_[pos_++];
		} else if (IsPunct(c)) {
			t.kind = TokenKind::Punct;
			t.value = std::string(1, c);
			++pos_;
		} else {
			t.kind = TokenKind::Other;
			const std::size_t len = Utf8Length(text_, pos_);
			pos_ += len > 0 ? len : 1;
		}
		t.end = pos_;
		return t;
	}

	// '...' or "..." with the delimiter doubled inside; the opening delimiter is at pos_.
	void LexQuoted(char delimiter, Token &t)
	{
		std::size_t i = pos_ + 1;
		for (;;) {
			const std::size_t close = text_.find(delimiter, i);
			if (close == std::string_view::npos) {
				if (delimiter == '"')
					Fail(t.begin, "unterminated quoted identifier",
					     "A quoted identifier ends with a double quote; write two double quotes (\"\") for a "
					     "double quote inside it.");
				Fail(t.begin, "unterminated quoted string",
				     "A quoted string ends with a single quote; write two single quotes ('') for a single quote "
				     "inside it.");
			}
			t.value.append(text_.substr(i, close - i));
			if (close + 1 < text_.size() && text_[close + 1] == delimiter) {
				t.value += delimiter;
				i = close + 2;
			} else {
				pos_ = close + 1;
				return;
			}
		}
	}

	// Takes the whole run of number-like characters so that "1.2.3" or "12abc" is reported as one bad number
	// rather than as a number followed by puzzling garbage.
	void LexNumber(Token &t)
	{
		std::size_t i = pos_ + 1;  // the first character is a sign, a digit or a dot
		while (i < text_.size()) {
			const char c = text_[i];
			const bool exponent_sign = (c == '+' || c == '-') && (text_[i - 1] == 'e' || text_[i - 1] == 'E');
			if (!IsIdentChar(c) && c != '.' && !exponent_sign) break;
			++i;
		}
		const std::string_view raw = text_.substr(pos_, i - pos_);
		if (!IsValidNumber(raw))
			Fail(t.begin, "invalid number \"" + Shorten(raw, kFoundBytes) + "\"",
			     "A number is written like 42, -3.5, .5 or 1e6.");
		t.value = std::string(raw);
		pos_ = i;
	}

	std::string_view text_;
	const Context &context_;
	std::size_t pos_ = 0;
	Token peeked_;
	bool has_peeked_ = false;
};

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
	Lexer lex(text, kClassContext);
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
	Lexer lex(text, kQueryContext);
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
