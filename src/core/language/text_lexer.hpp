// The lexer and message helpers shared by the parsers of query texts (query_text.cpp) and of query class texts
// (class_spec.cpp): one set of token rules (identifiers folded to lower case or "quoted", 'strings' with ''
// escapes, numbers taken as one run so that "1.2.3" is one bad number, operators and punctuation) and one message
// format ("syntax error in query class "...": expected X but found Y", the error carrying the byte offset for the
// glue's errposition). Internal to src/core.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace pap::core {

// Error messages show at most this many bytes of a token found where another was expected.
constexpr std::size_t kFoundBytes = 40;

bool IsSpace(char c);
bool IsDigit(char c);
bool IsIdentStart(char c);
bool IsIdentChar(char c);
char ToLowerAscii(char c);
bool IsContinuationByte(char c);
std::string LowerAscii(std::string_view s);

// Length of the well-formed UTF-8 sequence starting at text[i], or 0 if there is none: used only to show an
// unexpected character whole rather than as a broken byte.
std::size_t Utf8Length(std::string_view text, std::size_t i);

// Control bytes would break the one-line message (or end it, for NUL); a space keeps byte offsets aligned.
std::string Printable(std::string_view s);

// Cuts s to at most max bytes without splitting a UTF-8 character, marking the cut with "...".
std::string Shorten(std::string_view s, std::size_t max = kFoundBytes);

// [+-] (digits [. digits] | . digits) [(e|E) [+-] digits]: the numbers float8in and the query parser accept,
// less the words (Infinity, NaN).
bool IsValidNumber(std::string_view s);

// Words that cannot be an unquoted column name.
bool IsReservedWord(std::string_view lower);

enum class TokenKind { End, Identifier, Number, String, Operator, Punct, Other };

struct Token {
	TokenKind kind = TokenKind::End;
	std::size_t begin = 0;  // byte range of the token as written
	std::size_t end = 0;
	std::string value;  // identifier folded or unquoted, string unescaped, number, operator and punctuation as written
	bool quoted = false;  // identifier written in double quotes
};

bool IsKeyword(const Token &t, std::string_view keyword);
bool IsPunct(const Token &t, char c);

// What a lexer reads: names the text in messages and sets the few token rules that differ between languages.
struct LexerRules {
	const char *what;        // "query", "query class": names the text in messages
	std::size_t max_bytes;   // longer texts are rejected with LimitExceeded
	const char *limit_hint;  // hint of that error
	bool operators;          // runs of < > = ! are Operator tokens, and so are + - * alone when no number starts
	                         // there, and :: (else each such character is Other)
	bool brackets;           // [ and ] are punctuation (else Other)
};

// Produces one token at a time (lazily) so that the first malformed token is the one reported.
class TextLexer {
public:
	// grammar: the grammar reminder used as the default detail of syntax errors.
	TextLexer(std::string_view text, const LexerRules &rules, std::string grammar);

	void SetGrammar(std::string grammar);

	const Token &Peek();
	Token Take();

	[[noreturn]] void Fail(std::size_t position, const std::string &problem, std::string detail = {},
	                       std::string hint = {}) const;
	[[noreturn]] void Unexpected(const Token &found, const std::string &expected, std::string detail = {},
	                             std::string hint = {}) const;
	std::string Describe(const Token &t) const;

private:
	std::string Excerpt(std::size_t position) const;
	Token Lex();
	void LexQuoted(char delimiter, Token &t);
	void LexNumber(Token &t);
	[[noreturn]] void RefusePrefixedString(char letter) const;

	std::string_view text_;
	LexerRules rules_;
	std::string grammar_;
	std::size_t pos_ = 0;
	Token peeked_;
	bool has_peeked_ = false;
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
