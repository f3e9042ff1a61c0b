// The lexer shared by the query and query class parsers (text_lexer.hpp).
#include "core/language/text_lexer.hpp"

#include <cstdio>
#include <cstring>
#include <utility>

#include "core/base/errors.hpp"

namespace pap::core {
namespace {

// Error messages show at most this much of the input around the error.
constexpr std::size_t kWholeExcerptBytes = 200;
constexpr std::size_t kExcerptRadius = 80;

bool
IsOperatorChar(char c)
{
	return c == '<' || c == '>' || c == '=' || c == '!';
}
// The arithmetic of linear conditions ("2*x - y"): one character each, so "x<=-1" still reads as <= then -1.
bool
IsArithmeticChar(char c)
{
	return c == '+' || c == '-' || c == '*';
}
bool
IsPunctChar(char c, bool brackets)
{
	return c == '(' || c == ')' || c == ',' || c == ';' || (brackets && (c == '[' || c == ']'));
}

}  // namespace

bool
IsSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool
IsDigit(char c)
{
	return c >= '0' && c <= '9';
}
bool
IsIdentStart(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool
IsIdentChar(char c)
{
	return IsIdentStart(c) || IsDigit(c) || c == '$';
}
char
ToLowerAscii(char c)
{
	return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}
bool
IsContinuationByte(char c)
{
	return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

std::string
LowerAscii(std::string_view s)
{
	std::string out(s);
	for (char &c : out)
		c = ToLowerAscii(c);
	return out;
}

std::size_t
Utf8Length(std::string_view text, std::size_t i)
{
	const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
	const unsigned char b = byte(i);
	std::size_t len = 0;
	unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
	if (b >= 0xC2 && b <= 0xDF) {
		len = 2;
	} else if (b >= 0xE0 && b <= 0xEF) {
		len = 3;
		if (b == 0xE0)
			lo = 0xA0;
		if (b == 0xED)
			hi = 0x9F;
	} else if (b >= 0xF0 && b <= 0xF4) {
		len = 4;
		if (b == 0xF0)
			lo = 0x90;
		if (b == 0xF4)
			hi = 0x8F;
	} else {
		return 0;
	}
	if (text.size() - i < len)
		return 0;
	if (byte(i + 1) < lo || byte(i + 1) > hi)
		return 0;
	for (std::size_t k = 2; k < len; ++k)
		if (!IsContinuationByte(text[i + k]))
			return 0;
	return len;
}

std::string
Printable(std::string_view s)
{
	std::string out(s);
	for (char &c : out) {
		const unsigned char u = static_cast<unsigned char>(c);
		if (u < 0x20 || u == 0x7F)
			c = ' ';
	}
	return out;
}

std::string
Shorten(std::string_view s, std::size_t max)
{
	if (s.size() <= max)
		return Printable(s);
	std::size_t end = max;
	while (end > 0 && IsContinuationByte(s[end]))
		--end;
	return Printable(s.substr(0, end)) + "...";
}

bool
IsValidNumber(std::string_view s)
{
	std::size_t i = 0;
	const auto digits = [&] {
		const std::size_t start = i;
		while (i < s.size() && IsDigit(s[i]))
			++i;
		return i > start;
	};
	if (i < s.size() && (s[i] == '+' || s[i] == '-'))
		++i;
	if (digits()) {
		if (i < s.size() && s[i] == '.') {
			++i;
			if (!digits())
				return false;
		}
	} else {
		if (i >= s.size() || s[i] != '.')
			return false;
		++i;
		if (!digits())
			return false;
	}
	if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
		++i;
		if (i < s.size() && (s[i] == '+' || s[i] == '-'))
			++i;
		if (!digits())
			return false;
	}
	return i == s.size();
}

bool
IsReservedWord(std::string_view lower)
{
	return lower == "and" || lower == "between";
}

bool
IsKeyword(const Token &t, std::string_view keyword)
{
	return t.kind == TokenKind::Identifier && !t.quoted && t.value == keyword;
}
bool
IsPunct(const Token &t, char c)
{
	return t.kind == TokenKind::Punct && t.value.size() == 1 && t.value[0] == c;
}

TextLexer::TextLexer(std::string_view text, const LexerRules &rules, std::string grammar)
    : text_(text), rules_(rules), grammar_(std::move(grammar))
{
	if (text_.size() > rules_.max_bytes)
		throw Error(ErrorKind::LimitExceeded,
		            std::string(rules_.what) + " text of " + std::to_string(text_.size()) +
		                " bytes exceeds the limit of " + std::to_string(rules_.max_bytes) + " bytes",
		            rules_.limit_hint);
	const std::size_t nul = text_.find('\0');
	if (nul != std::string_view::npos)
		Fail(nul, "unexpected NUL byte", "The " + std::string(rules_.what) + " text must not contain NUL bytes.");
}

void
TextLexer::SetGrammar(std::string grammar)
{
	grammar_ = std::move(grammar);
}

const Token &
TextLexer::Peek()
{
	if (!has_peeked_) {
		peeked_ = Lex();
		has_peeked_ = true;
	}
	return peeked_;
}

Token
TextLexer::Take()
{
	Peek();
	has_peeked_ = false;
	return std::move(peeked_);
}

void
TextLexer::Fail(std::size_t position, const std::string &problem, std::string detail, std::string hint) const
{
	if (detail.empty())
		detail = grammar_;
	throw Error(ErrorKind::SyntaxError,
	            "syntax error in " + std::string(rules_.what) + " \"" + Excerpt(position) + "\": " + problem,
	            std::move(detail), std::move(hint))
	    .At(position);
}

void
TextLexer::Unexpected(const Token &found, const std::string &expected, std::string detail, std::string hint) const
{
	Fail(found.begin, "expected " + expected + " but found " + Describe(found), std::move(detail), std::move(hint));
}

std::string
TextLexer::Describe(const Token &t) const
{
	const std::string_view raw = text_.substr(t.begin, t.end - t.begin);
	switch (t.kind) {
	case TokenKind::End: return "end of input";
	case TokenKind::String: return Shorten(raw);  // already in single quotes
	case TokenKind::Identifier:
		if (t.quoted)
			return Shorten(raw);  // already in double quotes
		if (IsReservedWord(t.value))
			return "keyword \"" + Shorten(raw) + "\"";
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
	default: return "\"" + Shorten(raw) + "\"";
	}
}

// The whole text when short, else a window around the error so that a 1 MB input gives a short message.
std::string
TextLexer::Excerpt(std::size_t position) const
{
	if (text_.size() <= kWholeExcerptBytes)
		return Printable(text_);
	std::size_t start = position > kExcerptRadius ? position - kExcerptRadius : 0;
	std::size_t end = text_.size() - position > kExcerptRadius ? position + kExcerptRadius : text_.size();
	while (start < text_.size() && start > 0 && IsContinuationByte(text_[start]))
		++start;
	while (end < text_.size() && end > start && IsContinuationByte(text_[end]))
		--end;
	return (start > 0 ? "..." : "") + Printable(text_.substr(start, end - start)) + (end < text_.size() ? "..." : "");
}

Token
TextLexer::Lex()
{
	while (pos_ < text_.size() && IsSpace(text_[pos_]))
		++pos_;
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
	const bool prefixed = (std::strchr("eEbBxXnN", c) != nullptr && next == '\'') ||
	                      ((c == 'u' || c == 'U') && next == '&' && after == '\'');
	if (c != '\0' && prefixed)
		RefusePrefixedString(c);
	if (IsIdentStart(c)) {
		t.kind = TokenKind::Identifier;
		while (pos_ < text_.size() && IsIdentChar(text_[pos_]))
			t.value += ToLowerAscii(text_[pos_++]);
	} else if (c == '"') {
		t.kind = TokenKind::Identifier;
		t.quoted = true;
		LexQuoted('"', t);
		if (t.value.empty())
			Fail(t.begin, "zero-length quoted identifier", "A quoted identifier must contain at least one character.");
	} else if (c == '\'') {
		t.kind = TokenKind::String;
		LexQuoted('\'', t);
	} else if (IsDigit(c) || (c == '.' && IsDigit(next)) ||
	           ((c == '+' || c == '-') && (IsDigit(next) || (next == '.' && IsDigit(after))))) {
		t.kind = TokenKind::Number;
		LexNumber(t);
	} else if (rules_.operators && c == ':' && next == ':') {
		t.kind = TokenKind::Operator;  // PostgreSQL's cast
		t.value = "::";
		pos_ += 2;
	} else if (rules_.operators && IsOperatorChar(c)) {
		t.kind = TokenKind::Operator;
		while (pos_ < text_.size() && IsOperatorChar(text_[pos_]))
			t.value += text_[pos_++];
	} else if (rules_.operators && IsArithmeticChar(c)) {
		t.kind = TokenKind::Operator;
		t.value = std::string(1, c);
		++pos_;
	} else if (IsPunctChar(c, rules_.brackets)) {
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

// A letter written against a quote starts one of PostgreSQL's prefixed constants (E'...' escape strings, U&'...'
// Unicode escapes, B'...' and X'...' bit strings, N'...' national characters) or nothing at all; without this, the
// letter would be read as the name of a type the string is cast to ("type e does not exist").
void
TextLexer::RefusePrefixedString(char letter) const
{
	const char upper = letter >= 'a' && letter <= 'z' ? char(letter - 'a' + 'A') : letter;
	std::string what;
	switch (upper) {
	case 'E': what = "escape string constants (E'...')"; break;
	case 'U': what = "Unicode escape strings (U&'...')"; break;
	case 'B':
	case 'X': what = "bit-string constants (B'...', X'...')"; break;
	default: what = "national character constants (N'...')"; break;
	}
	Fail(pos_, what + " are not supported in a " + rules_.what,
	     "A value is a standard string: a quote inside it is doubled ('O''Brien'), and a backslash is itself.",
	     "Write the character itself rather than its escape.");
}

// '...' or "..." with the delimiter doubled inside; the opening delimiter is at pos_.
void
TextLexer::LexQuoted(char delimiter, Token &t)
{
	std::size_t i = pos_ + 1;
	for (;;) {
		const std::size_t close = text_.find(delimiter, i);
		if (close == std::string_view::npos) {
			if (delimiter == '"')
				Fail(t.begin, "unterminated quoted identifier",
				     "A quoted identifier ends with a double quote; write two double quotes (\"\") for a double "
				     "quote inside it.");
			Fail(t.begin, "unterminated quoted string",
			     "A quoted string ends with a single quote; write two single quotes ('') for a single quote inside "
			     "it.");
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

// Takes the whole run of number-like characters so that "1.2.3" or "12abc" is reported as one bad number rather
// than as a number followed by puzzling garbage.
void
TextLexer::LexNumber(Token &t)
{
	std::size_t i = pos_ + 1;  // the first character is a sign, a digit or a dot
	while (i < text_.size()) {
		const char c = text_[i];
		const bool exponent_sign = (c == '+' || c == '-') && (text_[i - 1] == 'e' || text_[i - 1] == 'E');
		if (!IsIdentChar(c) && c != '.' && !exponent_sign)
			break;
		++i;
	}
	const std::string_view raw = text_.substr(pos_, i - pos_);
	if (!IsValidNumber(raw))
		Fail(t.begin, "invalid number \"" + Shorten(raw) + "\"", "A number is written like 42, -3.5, .5 or 1e6.");
	t.value = std::string(raw);
	pos_ = i;
}

}  // namespace pap::core
