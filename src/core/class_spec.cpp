// Parser for the full query class language (class_spec.hpp). query_text.cpp's lexer is private to that file, so
// this file has its own small lexer with the same token rules (identifiers, "quoted identifiers", 'strings' with
// '' escapes, numbers taken as one run so that "1.2.3" is one bad number) plus the brackets of halfspaces'
// directions, and the same message format ("syntax error in query class "..." at position N: expected X but found
// Y"). One token is lexed at a time, so the first malformed token is the one reported; the parser is a set of
// loops, never recursive, and stops at a limit as soon as it is passed, so every input takes linear time.
#include "core/class_spec.hpp"

#include <charconv>
#include <cstdio>
#include <system_error>
#include <utility>

#include "core/errors.hpp"
#include "core/query_text.hpp"

namespace pap::core {
namespace {

// Error messages show at most this much of the input around the error.
constexpr std::size_t kWholeExcerptBytes = 200;
constexpr std::size_t kExcerptRadius = 80;
constexpr std::size_t kFoundBytes = 40;

bool IsSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c) || c == '$'; }
bool IsPunctChar(char c) { return c == '(' || c == ')' || c == ',' || c == ';' || c == '[' || c == ']'; }
char ToLowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

std::string LowerAscii(std::string_view s)
{
	std::string out(s);
	for (char &c : out) c = ToLowerAscii(c);
	return out;
}

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
std::string Shorten(std::string_view s, std::size_t max = kFoundBytes)
{
	if (s.size() <= max) return Printable(s);
	std::size_t end = max;
	while (end > 0 && IsContinuationByte(s[end])) --end;
	return Printable(s.substr(0, end)) + "...";
}

// [+-] (digits [. digits] | . digits) [(e|E) [+-] digits]: the numbers float8in and the query parser accept,
// less the words (Infinity, NaN), which a weight cannot be.
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

bool IsInteger(std::string_view s)
{
	std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
	if (i >= s.size()) return false;
	for (; i < s.size(); ++i)
		if (!IsDigit(s[i])) return false;
	return true;
}

bool IsReservedWord(std::string_view lower) { return lower == "and" || lower == "between"; }

struct ClassInfo {
	ClassKind kind;
	const char *name;
	const char *form;     // the shape, for hints
	const char *example;  // a valid text, for hints
};
constexpr ClassInfo kClasses[] = {
    {ClassKind::Thresholds, "thresholds", "thresholds(column)", "thresholds(price)"},
    {ClassKind::Ranges, "ranges", "ranges(column)", "ranges(price)"},
    {ClassKind::Boxes, "boxes", "boxes(column, ...)", "boxes(carat, price)"},
    {ClassKind::Orthants, "orthants", "orthants(column, ...)", "orthants(carat, price)"},
    {ClassKind::Marginals, "marginals", "marginals(k; column, ...)", "marginals(2; age, sex, race)"},
    {ClassKind::Stumps, "stumps", "stumps(column, ...)", "stumps(a, b, c)"},
    {ClassKind::Halfspaces, "halfspaces", "halfspaces(column, ...; [weight, ...], ...)",
     "halfspaces(x, y; [1, 2], [1, -1])"},
    {ClassKind::Predicates, "predicates", "predicates('condition', ...)", "predicates('age > 40', 'sex = 1')"},
};

const ClassInfo *FindClass(std::string_view lower_name)
{
	for (const ClassInfo &info : kClasses)
		if (lower_name == info.name) return &info;
	return nullptr;
}

const ClassInfo &InfoOf(ClassKind kind)
{
	for (const ClassInfo &info : kClasses)
		if (info.kind == kind) return info;
	throw Error(ErrorKind::Internal, "unknown query class kind " + std::to_string(static_cast<int>(kind)));
}

std::string KnownClassesHint()
{
	std::string hint = "Known query classes: ";
	bool first = true;
	for (const ClassInfo &info : kClasses) {
		if (!first) hint += ", ";
		hint += info.form;
		first = false;
	}
	return hint + ".";
}

std::string WriteHint(const ClassInfo &info)
{
	return std::string("Write ") + info.form + ", such as " + info.example + ".";
}

enum class TokenKind { End, Identifier, Number, String, Punct, Other };

struct Token {
	TokenKind kind = TokenKind::End;
	std::size_t begin = 0;  // byte range of the token as written
	std::size_t end = 0;
	std::string value;      // identifier folded or unquoted, string unescaped, number and punctuation as written
	bool quoted = false;    // identifier written in double quotes
};

bool IsPunct(const Token &t, char c) { return t.kind == TokenKind::Punct && t.value.size() == 1 && t.value[0] == c; }

constexpr const char *kGrammar =
    "A query class is a name followed by its arguments in parentheses, such as \"thresholds(price)\", "
    "\"boxes(carat, price)\", \"marginals(2; age, sex, race)\", \"halfspaces(x, y; [1, 2], [1, -1])\" or "
    "\"predicates('age > 40', 'sex = 1')\".";

class Lexer {
public:
	explicit Lexer(std::string_view text) : text_(text)
	{
		if (text_.size() > kMaxClassTextBytes)
			throw Error(ErrorKind::LimitExceeded,
			            "query class text of " + std::to_string(text_.size()) + " bytes exceeds the limit of " +
			                std::to_string(kMaxClassTextBytes) + " bytes",
			            "Query class texts, predicates included, are limited to 1 MB.");
		const std::size_t nul = text_.find('\0');
		if (nul != std::string_view::npos)
			Fail(nul, "unexpected NUL byte", "The query class text must not contain NUL bytes.");
	}

	// The grammar reminder used as the detail of syntax errors: the general one until the class is known.
	void SetGrammar(std::string grammar) { grammar_ = std::move(grammar); }

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
		if (detail.empty()) detail = grammar_;
		throw Error(ErrorKind::SyntaxError,
		            "syntax error in query class \"" + Excerpt(position) + "\" at position " +
		                std::to_string(position) + ": " + problem,
		            std::move(detail), std::move(hint));
	}

	[[noreturn]] void Unexpected(const Token &found, const std::string &expected, std::string hint = {}) const
	{
		Fail(found.begin, "expected " + expected + " but found " + Describe(found), {}, std::move(hint));
	}

	std::string Raw(const Token &t) const { return std::string(text_.substr(t.begin, t.end - t.begin)); }

	std::string Describe(const Token &t) const
	{
		const std::string_view raw = text_.substr(t.begin, t.end - t.begin);
		switch (t.kind) {
		case TokenKind::End:
			return "end of input";
		case TokenKind::String:
			return Shorten(raw);  // already in single quotes
		case TokenKind::Identifier:
			if (t.quoted) return Shorten(raw);  // already in double quotes
			if (IsReservedWord(t.value)) return "keyword \"" + Shorten(raw) + "\"";
			return "\"" + Shorten(raw) + "\"";
		case TokenKind::Other:
			if (raw.size() == 1) {
				const unsigned char u = static_cast<unsigned char>(raw[0]);
				if (u < 0x20 || u >= 0x7F) {
					char buf[8];
					std::snprintf(buf, sizeof buf, "0x%02x", u);
					return std::string("byte ") + buf;
				}
			}
			return "\"" + Shorten(raw) + "\"";
		default:
			return "\"" + Shorten(raw) + "\"";
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
		} else if (IsPunctChar(c)) {
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

	// Takes the whole run of number-like characters so that "1.2.3" or "12abc" is reported as one bad number.
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
			Fail(t.begin, "invalid number \"" + Shorten(raw) + "\"", "A number is written like 42, -3.5, .5 or 1e6.");
		t.value = std::string(raw);
		pos_ = i;
	}

	std::string_view text_;
	std::string grammar_ = kGrammar;
	std::size_t pos_ = 0;
	Token peeked_;
	bool has_peeked_ = false;
};

Error Invalid(std::string message, std::string detail, std::string hint = {})
{
	return Error(ErrorKind::InvalidParameter, std::move(message), std::move(detail), std::move(hint));
}

class Parser {
public:
	explicit Parser(std::string_view text) : lex_(text) {}

	ClassSpec Parse()
	{
		const Token name = lex_.Take();
		if (name.kind == TokenKind::End) lex_.Fail(name.begin, "the query class is empty");
		if (name.kind != TokenKind::Identifier) lex_.Unexpected(name, "a query class name");
		const ClassInfo *info = FindClass(LowerAscii(name.value));
		if (info == nullptr)
			throw Invalid("unknown query class \"" + Shorten(name.value) + "\"",
			              "The class name at position " + std::to_string(name.begin) + " is not a known query class.",
			              KnownClassesHint());
		info_ = info;
		spec_.kind = info->kind;
		lex_.SetGrammar(std::string("A query class of this kind is written ") + info->form + ", such as " +
		                info->example + ".");
		const Token open = lex_.Take();
		if (!IsPunct(open, '(')) lex_.Unexpected(open, "\"(\"");
		if (IsPunct(lex_.Peek(), ')')) NoArguments(lex_.Peek());
		switch (spec_.kind) {
		case ClassKind::Marginals:
			ParseMarginals();
			break;
		case ClassKind::Halfspaces:
			ParseHalfspaces();
			break;
		case ClassKind::Predicates:
			ParsePredicates();
			break;
		default:
			ParseColumns(false);
			if ((spec_.kind == ClassKind::Thresholds || spec_.kind == ClassKind::Ranges) && spec_.columns.size() != 1)
				throw Invalid(std::string("query class ") + info_->name + " takes exactly one column, got " +
				                  std::to_string(spec_.columns.size()),
				              "The second column is at position " + std::to_string(column_positions_[1]) + ".",
				              std::string("Write ") + info_->form + ", or " +
				                  (spec_.kind == ClassKind::Thresholds ? "orthants" : "boxes") +
				                  "(column, ...) for several columns.");
			break;
		}
		const Token end = lex_.Take();
		if (end.kind != TokenKind::End) lex_.Unexpected(end, "end of input");
		return std::move(spec_);
	}

private:
	// name() with nothing inside: the wrong number of arguments for every class.
	[[noreturn]] void NoArguments(const Token &close) const
	{
		std::string message = std::string("query class ") + info_->name + " takes ";
		switch (spec_.kind) {
		case ClassKind::Thresholds:
		case ClassKind::Ranges:
			message += "exactly one column, got 0";
			break;
		case ClassKind::Marginals:
			message += "an order and at least one column, got none";
			break;
		case ClassKind::Halfspaces:
			message += "at least one column and one direction, got none";
			break;
		case ClassKind::Predicates:
			message += "at least one predicate, got 0";
			break;
		default:
			message += "at least one column, got 0";
			break;
		}
		throw Invalid(std::move(message),
		              "The argument list is empty at position " + std::to_string(close.begin) + ".",
		              WriteHint(*info_));
	}

	std::string ExpectColumn(const Token &t) const
	{
		if (t.kind != TokenKind::Identifier) {
			std::string hint;
			if (spec_.kind == ClassKind::Marginals && IsPunct(t, ';'))
				hint = "The order k comes first and only once: " + WriteHint(*info_).substr(6);
			lex_.Unexpected(t, "a column name", std::move(hint));
		}
		if (!t.quoted && IsReservedWord(t.value))
			lex_.Unexpected(t, "a column name", "Write \"" + t.value + "\" in double quotes to use it as a column name.");
		return t.value;
	}

	// column (',' column)*, ending at ")" (consumed), or also at ";" (consumed) when semicolon_ends. Returns the
	// token that ended the list.
	Token ParseColumns(bool semicolon_ends)
	{
		for (;;) {
			const Token t = lex_.Take();
			std::string column = ExpectColumn(t);
			for (std::size_t i = 0; i < spec_.columns.size(); ++i)
				if (spec_.columns[i] == column)
					throw Invalid("column \"" + Shorten(column) + "\" appears twice in query class",
					              "Column \"" + Shorten(column) + "\" is listed first at position " +
					                  std::to_string(column_positions_[i]) + " and again at position " +
					                  std::to_string(t.begin) + "; each column may appear only once.");
			if (spec_.columns.size() == kMaxClassColumns)
				throw Error(ErrorKind::LimitExceeded,
				            std::string("query class ") + info_->name + " has more than " +
				                std::to_string(kMaxClassColumns) + " columns",
				            "Column " + std::to_string(kMaxClassColumns + 1) + " is at position " +
				                std::to_string(t.begin) + "; a query class may name at most " +
				                std::to_string(kMaxClassColumns) + " columns.");
			spec_.columns.push_back(std::move(column));
			column_positions_.push_back(t.begin);
			Token sep = lex_.Take();
			if (IsPunct(sep, ',')) continue;
			if (IsPunct(sep, ')') || (semicolon_ends && IsPunct(sep, ';'))) return sep;
			lex_.Unexpected(sep, semicolon_ends ? "\",\" or \";\"" : "\",\" or \")\"");
		}
	}

	void ParseMarginals()
	{
		const Token order = lex_.Take();
		if (order.kind != TokenKind::Number || !IsInteger(order.value))
			lex_.Unexpected(order, "an integer order k",
			                "The order k is the size of the column subsets: a whole number from 1 to the number of "
			                "columns.");
		const Token semicolon = lex_.Take();
		if (!IsPunct(semicolon, ';'))
			lex_.Unexpected(semicolon, "\";\"",
			                "Separate the order from the columns with a semicolon: " + WriteHint(*info_).substr(6));
		ParseColumns(false);
		// Saturating: any order beyond the column limit is out of range whatever its exact value.
		const std::string &digits = order.value;
		const bool negative = digits[0] == '-';
		long long value = 0;
		for (const char c : digits) {
			if (!IsDigit(c)) continue;
			value = value * 10 + (c - '0');
			if (value > static_cast<long long>(kMaxClassColumns) + 1) value = static_cast<long long>(kMaxClassColumns) + 1;
		}
		if (negative) value = -value;
		const long long columns = static_cast<long long>(spec_.columns.size());
		if (value < 1 || value > columns)
			throw Invalid("order " + Shorten(digits) + " of query class marginals is out of range",
			              "The order k at position " + std::to_string(order.begin) +
			                  " must be between 1 and the number of columns, " + std::to_string(columns) + ".",
			              WriteHint(*info_));
		spec_.k = static_cast<int>(value);
	}

	double ParseWeight(const Token &t) const
	{
		std::string_view s = t.value;
		if (!s.empty() && s[0] == '+') s.remove_prefix(1);
		double value = 0;
		const auto result = std::from_chars(s.data(), s.data() + s.size(), value);
		// float8in's rule: overflow, and underflow to zero, are out of range (a denormal result is accepted).
		if (result.ec == std::errc::result_out_of_range)
			throw Invalid("weight \"" + Shorten(t.value) + "\" is out of range for type double precision",
			              "The weight at position " + std::to_string(t.begin) +
			                  " must be a finite double precision number.");
		if (result.ec != std::errc() || result.ptr != s.data() + s.size())
			lex_.Fail(t.begin, "invalid number \"" + Shorten(t.value) + "\"");
		return value == 0 ? 0.0 : value;  // -0 is stored as 0: one normal form
	}

	void ParseHalfspaces()
	{
		const Token end_of_columns = ParseColumns(true);
		const std::size_t dimension = spec_.columns.size();
		if (IsPunct(end_of_columns, ')'))
			throw Invalid("query class halfspaces takes at least one direction, got 0",
			              "The column list ends at position " + std::to_string(end_of_columns.begin) +
			                  " without a semicolon and directions.",
			              WriteHint(*info_));
		for (;;) {
			const Token open = lex_.Take();
			if (!IsPunct(open, '['))
				lex_.Unexpected(open, "\"[\"",
				                "Write each direction as a bracketed list of one weight per column, such as [1, -1].");
			if (spec_.directions.size() == kMaxClassDirections)
				throw Error(ErrorKind::LimitExceeded,
				            "query class halfspaces has more than " + std::to_string(kMaxClassDirections) +
				                " directions",
				            "Direction " + std::to_string(kMaxClassDirections + 1) + " is at position " +
				                std::to_string(open.begin) + "; a query class may list at most " +
				                std::to_string(kMaxClassDirections) + " directions.");
			std::vector<double> weights;
			std::size_t count = 0;  // weights written; only the first dimension + 1 are kept
			bool nonzero = false;
			if (IsPunct(lex_.Peek(), ']')) {
				lex_.Take();
			} else {
				for (;;) {
					const Token number = lex_.Take();
					if (number.kind != TokenKind::Number) lex_.Unexpected(number, "a number");
					const double w = ParseWeight(number);
					nonzero = nonzero || w != 0;
					if (++count <= dimension) weights.push_back(w);
					const Token sep = lex_.Take();
					if (IsPunct(sep, ',')) continue;
					if (IsPunct(sep, ']')) break;
					lex_.Unexpected(sep, "\",\" or \"]\"");
				}
			}
			const std::string which = "direction " + std::to_string(spec_.directions.size() + 1);
			if (count != dimension)
				throw Invalid(which + " of query class halfspaces has " + std::to_string(count) +
				                  (count == 1 ? " weight" : " weights") + ", expected " + std::to_string(dimension),
				              "The direction at position " + std::to_string(open.begin) +
				                  " must have one weight per column.");
			if (!nonzero)
				throw Invalid(which + " of query class halfspaces is zero",
				              "The direction at position " + std::to_string(open.begin) +
				                  " has only zero weights; a half-space needs a nonzero direction.");
			spec_.directions.push_back(std::move(weights));
			const Token sep = lex_.Take();
			if (IsPunct(sep, ',')) continue;
			if (IsPunct(sep, ')')) return;
			lex_.Unexpected(sep, "\",\" or \")\"");
		}
	}

	void ParsePredicates()
	{
		for (;;) {
			Token text = lex_.Take();
			if (text.kind != TokenKind::String) {
				std::string hint;
				if (text.kind == TokenKind::Identifier || text.kind == TokenKind::Number ||
				    text.kind == TokenKind::Other)
					hint = "Write each predicate as SQL text in single quotes, such as 'age > 40'; write two single "
					       "quotes ('') for a single quote inside it.";
				lex_.Unexpected(text, "a predicate in single quotes", std::move(hint));
			}
			if (spec_.predicates.size() == kMaxClassPredicates)
				throw Error(ErrorKind::LimitExceeded,
				            "query class predicates has more than " + std::to_string(kMaxClassPredicates) +
				                " predicates",
				            "Predicate " + std::to_string(kMaxClassPredicates + 1) + " is at position " +
				                std::to_string(text.begin) + "; a query class may list at most " +
				                std::to_string(kMaxClassPredicates) + " predicates.");
			bool blank = true;
			for (const char c : text.value) blank = blank && IsSpace(c);
			if (blank)
				throw Invalid("predicate " + std::to_string(spec_.predicates.size() + 1) +
				                  " of query class predicates is empty",
				              "The predicate at position " + std::to_string(text.begin) + " has no SQL text.",
				              "Write each predicate as an SQL boolean expression, such as 'age > 40'.");
			spec_.predicates.push_back(std::move(text.value));
			const Token sep = lex_.Take();
			if (IsPunct(sep, ',')) continue;
			if (IsPunct(sep, ')')) return;
			lex_.Unexpected(sep, "\",\" or \")\"");
		}
	}

	Lexer lex_;
	const ClassInfo *info_ = nullptr;
	ClassSpec spec_;
	std::vector<std::size_t> column_positions_;
};

std::string FormatWeight(double value)
{
	if (value == 0) value = 0.0;  // no "-0"
	char buf[64];
	const auto result = std::to_chars(buf, buf + sizeof buf, value);
	return std::string(buf, result.ptr);
}

std::string QuoteString(std::string_view text)
{
	std::string out = "'";
	for (const char c : text) {
		if (c == '\'') out += '\'';
		out += c;
	}
	out += '\'';
	return out;
}

}  // namespace

const char *ClassKindName(ClassKind kind)
{
	for (const ClassInfo &info : kClasses)
		if (info.kind == kind) return info.name;
	return "?";
}

ClassSpec ParseClassSpec(std::string_view text) { return Parser(text).Parse(); }

std::string ClassSpec::CanonicalText() const
{
	std::string out = InfoOf(kind).name;
	out += '(';
	const auto append_columns = [&] {
		for (std::size_t i = 0; i < columns.size(); ++i) {
			if (i > 0) out += ", ";
			out += QuoteIdentifier(columns[i]);
		}
	};
	switch (kind) {
	case ClassKind::Marginals:
		out += std::to_string(k) + "; ";
		append_columns();
		break;
	case ClassKind::Halfspaces:
		append_columns();
		out += ";";
		for (std::size_t d = 0; d < directions.size(); ++d) {
			out += d > 0 ? ", [" : " [";
			for (std::size_t i = 0; i < directions[d].size(); ++i) {
				if (i > 0) out += ", ";
				out += FormatWeight(directions[d][i]);
			}
			out += ']';
		}
		break;
	case ClassKind::Predicates:
		for (std::size_t i = 0; i < predicates.size(); ++i) {
			if (i > 0) out += ", ";
			out += QuoteString(predicates[i]);
		}
		break;
	default:
		append_columns();
		break;
	}
	out += ')';
	return out;
}

bool operator==(const ClassSpec &a, const ClassSpec &b)
{
	return a.kind == b.kind && a.columns == b.columns && a.k == b.k && a.directions == b.directions &&
	       a.predicates == b.predicates;
}
bool operator!=(const ClassSpec &a, const ClassSpec &b) { return !(a == b); }

}  // namespace pap::core

#include "core/core_only.hpp"
