// Parser for the full query class language (class_spec.hpp), on the lexer shared with query_text.cpp
// (text_lexer.hpp), here with the brackets of halfspaces' directions as punctuation and without comparison
// operators. One token is lexed at a time, so the first malformed token is the one reported; the parser is a set
// of loops, never recursive, and stops at a limit as soon as it is passed, so every input takes linear time.
#include "core/language/class_spec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>
#include <utility>

#include "core/base/errors.hpp"
#include "core/language/query_text.hpp"
#include "core/language/text_lexer.hpp"
#include "core/language/value_format.hpp"

namespace pap::core {
namespace {

bool
IsInteger(std::string_view s)
{
	std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
	if (i >= s.size())
		return false;
	for (; i < s.size(); ++i)
		if (!IsDigit(s[i]))
			return false;
	return true;
}

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

const ClassInfo *
FindClass(std::string_view lower_name)
{
	for (const ClassInfo &info : kClasses)
		if (lower_name == info.name)
			return &info;
	return nullptr;
}

const ClassInfo &
InfoOf(ClassKind kind)
{
	for (const ClassInfo &info : kClasses)
		if (info.kind == kind)
			return info;
	throw Error(ErrorKind::Internal, "unknown query class kind " + std::to_string(static_cast<int>(kind)));
}

std::string
KnownClassesHint()
{
	std::string hint = "Known query classes: ";
	bool first = true;
	for (const ClassInfo &info : kClasses) {
		if (!first)
			hint += ", ";
		hint += info.form;
		first = false;
	}
	return hint + ".";
}

std::string
WriteHint(const ClassInfo &info)
{
	return std::string("Write ") + info.form + ", such as " + info.example + ".";
}

constexpr const char *kGrammar =
    "A query class is a name followed by its arguments in parentheses, such as \"thresholds(price)\", "
    "\"boxes(carat, price)\", \"marginals(2; age, sex, race)\", \"halfspaces(x, y; [1, 2], [1, -1])\" or "
    "\"predicates('age > 40', 'sex = 1')\".";

constexpr LexerRules kRules{"query class", kMaxClassTextBytes,
                            "Query class texts, predicates included, are limited to 1 MB.", false, true};

using Lexer = TextLexer;

Error
Invalid(std::string message, std::string detail, std::string hint = {})
{
	return Error(ErrorKind::InvalidParameter, std::move(message), std::move(detail), std::move(hint));
}

class Parser {
public:
	explicit Parser(std::string_view text) : lex_(text, kRules, kGrammar) {}

	ClassSpec
	Parse()
	{
		const Token name = lex_.Take();
		if (name.kind == TokenKind::End)
			lex_.Fail(name.begin, "the query class is empty");
		if (name.kind != TokenKind::Identifier)
			lex_.Unexpected(name, "a query class name");
		const ClassInfo *info = FindClass(LowerAscii(name.value));
		if (info == nullptr)
			throw Invalid("unknown query class \"" + Shorten(name.value) + "\"",
			              "The class name is not a known query class.", KnownClassesHint())
			    .At(name.begin);
		info_ = info;
		spec_.kind = info->kind;
		lex_.SetGrammar(std::string("A query class of this kind is written ") + info->form + ", such as " +
		                info->example + ".");
		const Token open = lex_.Take();
		if (!IsPunct(open, '('))
			lex_.Unexpected(open, "\"(\"");
		if (IsPunct(lex_.Peek(), ')'))
			NoArguments(lex_.Peek());
		switch (spec_.kind) {
		case ClassKind::Marginals: ParseMarginals(); break;
		case ClassKind::Halfspaces: ParseHalfspaces(); break;
		case ClassKind::Predicates: ParsePredicates(); break;
		default:
			ParseColumns(false);
			if ((spec_.kind == ClassKind::Thresholds || spec_.kind == ClassKind::Ranges) && spec_.columns.size() != 1)
				throw Invalid(std::string("query class ") + info_->name + " takes exactly one column, got " +
				                  std::to_string(spec_.columns.size()),
				              "The class names a second column.",
				              std::string("Write ") + info_->form + ", or " +
				                  (spec_.kind == ClassKind::Thresholds ? "orthants" : "boxes") +
				                  "(column, ...) for several columns.")
				    .At(column_positions_[1]);
			break;
		}
		const Token end = lex_.Take();
		if (end.kind != TokenKind::End)
			lex_.Unexpected(end, "end of input");
		return std::move(spec_);
	}

private:
	// name() with nothing inside: the wrong number of arguments for every class.
	[[noreturn]] void
	NoArguments(const Token &close) const
	{
		std::string message = std::string("query class ") + info_->name + " takes ";
		switch (spec_.kind) {
		case ClassKind::Thresholds:
		case ClassKind::Ranges: message += "exactly one column, got 0"; break;
		case ClassKind::Marginals: message += "an order and at least one column, got none"; break;
		case ClassKind::Halfspaces: message += "at least one column and one direction, got none"; break;
		case ClassKind::Predicates: message += "at least one predicate, got 0"; break;
		default: message += "at least one column, got 0"; break;
		}
		throw Invalid(std::move(message), "The argument list is empty.", WriteHint(*info_)).At(close.begin);
	}

	std::string
	ExpectColumn(const Token &t) const
	{
		if (t.kind != TokenKind::Identifier) {
			std::string hint;
			if (spec_.kind == ClassKind::Marginals && IsPunct(t, ';'))
				hint = "The order k comes first and only once: " + WriteHint(*info_).substr(6);
			lex_.Unexpected(t, "a column name", {}, std::move(hint));
		}
		if (!t.quoted && IsReservedWord(t.value))
			lex_.Unexpected(t, "a column name", {},
			                "Write \"" + t.value + "\" in double quotes to use it as a column name.");
		return t.value;
	}

	// column (',' column)*, ending at ")" (consumed), or also at ";" (consumed) when semicolon_ends. Returns the
	// token that ended the list.
	Token
	ParseColumns(bool semicolon_ends)
	{
		for (;;) {
			const Token t = lex_.Take();
			std::string column = ExpectColumn(t);
			for (std::size_t i = 0; i < spec_.columns.size(); ++i)
				if (spec_.columns[i] == column)
					throw Invalid("column \"" + Shorten(column) + "\" appears twice in query class",
					              "Column \"" + Shorten(column) +
					                  "\" is listed twice; each column may appear only once.")
					    .At(t.begin);
			if (spec_.columns.size() == kMaxClassColumns)
				throw Error(ErrorKind::LimitExceeded,
				            std::string("query class ") + info_->name + " has more than " +
				                std::to_string(kMaxClassColumns) + " columns",
				            "A query class may name at most " + std::to_string(kMaxClassColumns) + " columns.")
				    .At(t.begin);
			spec_.columns.push_back(std::move(column));
			column_positions_.push_back(t.begin);
			Token sep = lex_.Take();
			if (IsPunct(sep, ','))
				continue;
			if (IsPunct(sep, ')') || (semicolon_ends && IsPunct(sep, ';')))
				return sep;
			lex_.Unexpected(sep, semicolon_ends ? "\",\" or \";\"" : "\",\" or \")\"");
		}
	}

	void
	ParseMarginals()
	{
		const Token order = lex_.Take();
		if (order.kind != TokenKind::Number || !IsInteger(order.value))
			lex_.Unexpected(order, "an integer order k", {},
			                "The order k is the size of the column subsets: a whole number from 1 to the number of "
			                "columns.");
		const Token semicolon = lex_.Take();
		if (!IsPunct(semicolon, ';'))
			lex_.Unexpected(semicolon, "\";\"", {},
			                "Separate the order from the columns with a semicolon: " + WriteHint(*info_).substr(6));
		ParseColumns(false);
		// Saturating: any order beyond the column limit is out of range whatever its exact value.
		const std::string &digits = order.value;
		const bool negative = digits[0] == '-';
		long long value = 0;
		for (const char c : digits) {
			if (!IsDigit(c))
				continue;
			value = value * 10 + (c - '0');
			if (value > static_cast<long long>(kMaxClassColumns) + 1)
				value = static_cast<long long>(kMaxClassColumns) + 1;
		}
		if (negative)
			value = -value;
		const long long columns = static_cast<long long>(spec_.columns.size());
		if (value < 1 || value > columns)
			throw Invalid("order " + Shorten(digits) + " of query class marginals is out of range",
			              "The order k must be between 1 and the number of columns, " + std::to_string(columns) + ".",
			              WriteHint(*info_))
			    .At(order.begin);
		spec_.k = static_cast<int>(value);
	}

	double
	ParseWeight(const Token &t) const
	{
		std::string_view s = t.value;
		if (!s.empty() && s[0] == '+')
			s.remove_prefix(1);
		double value = 0;
		const auto result = std::from_chars(s.data(), s.data() + s.size(), value);
		// float8in's rule: overflow, and underflow to zero, are out of range (a denormal result is accepted).
		if (result.ec == std::errc::result_out_of_range)
			throw Invalid("weight \"" + Shorten(t.value) + "\" is out of range for type double precision",
			              "A weight must be a finite double precision number.")
			    .At(t.begin);
		if (result.ec != std::errc() || result.ptr != s.data() + s.size())
			lex_.Fail(t.begin, "invalid number \"" + Shorten(t.value) + "\"");
		return value == 0 ? 0.0 : value;  // -0 is stored as 0: one normal form
	}

	void
	ParseHalfspaces()
	{
		const Token end_of_columns = ParseColumns(true);
		const std::size_t dimension = spec_.columns.size();
		if (IsPunct(end_of_columns, ')'))
			throw Invalid("query class halfspaces takes at least one direction, got 0",
			              "The column list ends without a semicolon and directions.", WriteHint(*info_))
			    .At(end_of_columns.begin);
		for (;;) {
			const Token open = lex_.Take();
			if (!IsPunct(open, '['))
				lex_.Unexpected(open, "\"[\"", {},
				                "Write each direction as a bracketed list of one weight per column, such as [1, -1].");
			if (spec_.directions.size() == kMaxClassDirections)
				throw Error(ErrorKind::LimitExceeded,
				            "query class halfspaces has more than " + std::to_string(kMaxClassDirections) +
				                " directions",
				            "A query class may list at most " + std::to_string(kMaxClassDirections) + " directions.")
				    .At(open.begin);
			std::vector<double> weights;
			std::size_t count = 0;  // weights written; only the first dimension + 1 are kept
			bool nonzero = false;
			if (IsPunct(lex_.Peek(), ']')) {
				lex_.Take();
			} else {
				for (;;) {
					const Token number = lex_.Take();
					if (number.kind != TokenKind::Number)
						lex_.Unexpected(number, "a number");
					const double w = ParseWeight(number);
					nonzero = nonzero || w != 0;
					if (++count <= dimension)
						weights.push_back(w);
					const Token sep = lex_.Take();
					if (IsPunct(sep, ','))
						continue;
					if (IsPunct(sep, ']'))
						break;
					lex_.Unexpected(sep, "\",\" or \"]\"");
				}
			}
			const std::string which = "direction " + std::to_string(spec_.directions.size() + 1);
			if (count != dimension)
				throw Invalid(which + " of query class halfspaces has " + std::to_string(count) +
				                  (count == 1 ? " weight" : " weights") + ", expected " + std::to_string(dimension),
				              "A direction must have one weight per column.")
				    .At(open.begin);
			if (!nonzero)
				throw Invalid(which + " of query class halfspaces is zero",
				              "The direction has only zero weights; a half-space needs a nonzero direction.")
				    .At(open.begin);
			spec_.directions.push_back(std::move(weights));
			const Token sep = lex_.Take();
			if (IsPunct(sep, ','))
				continue;
			if (IsPunct(sep, ')'))
				return;
			lex_.Unexpected(sep, "\",\" or \")\"");
		}
	}

	void
	ParsePredicates()
	{
		for (;;) {
			Token text = lex_.Take();
			if (text.kind != TokenKind::String) {
				std::string hint;
				if (text.kind == TokenKind::Identifier || text.kind == TokenKind::Number ||
				    text.kind == TokenKind::Other)
					hint = "Write each predicate as SQL text in single quotes, such as 'age > 40'; write two single "
					       "quotes ('') for a single quote inside it.";
				lex_.Unexpected(text, "a predicate in single quotes", {}, std::move(hint));
			}
			if (spec_.predicates.size() == kMaxClassPredicates)
				throw Error(ErrorKind::LimitExceeded,
				            "query class predicates has more than " + std::to_string(kMaxClassPredicates) +
				                " predicates",
				            "A query class may list at most " + std::to_string(kMaxClassPredicates) + " predicates.")
				    .At(text.begin);
			bool blank = true;
			for (const char c : text.value)
				blank = blank && IsSpace(c);
			if (blank)
				throw Invalid("predicate " + std::to_string(spec_.predicates.size() + 1) +
				                  " of query class predicates is empty",
				              "The predicate has no SQL text.",
				              "Write each predicate as an SQL boolean expression, such as 'age > 40'.")
				    .At(text.begin);
			spec_.predicates.push_back(std::move(text.value));
			const Token sep = lex_.Take();
			if (IsPunct(sep, ','))
				continue;
			if (IsPunct(sep, ')'))
				return;
			lex_.Unexpected(sep, "\",\" or \")\"");
		}
	}

	Lexer lex_;
	const ClassInfo *info_ = nullptr;
	ClassSpec spec_;
	std::vector<std::size_t> column_positions_;
};

std::string
FormatWeight(double value)
{
	if (value == 0)
		value = 0.0;  // no "-0"
	char buf[64];
	const auto result = std::to_chars(buf, buf + sizeof buf, value);
	return std::string(buf, result.ptr);
}

}  // namespace

double
PositiveMultiple(const std::vector<double> &v, const std::vector<double> &w)
{
	if (v.size() != w.size() || w.empty())
		return 0.0;
	std::size_t largest = 0;
	double scale = 0.0;
	for (std::size_t i = 0; i < w.size(); ++i) {
		if (std::fabs(w[i]) > std::fabs(w[largest]))
			largest = i;
		scale = std::max(scale, std::fabs(v[i]));
	}
	const double lambda = v[largest] / w[largest];
	if (!(lambda > 0.0) || !std::isfinite(lambda))
		return 0.0;
	for (std::size_t i = 0; i < w.size(); ++i)
		if (!(std::fabs(v[i] - lambda * w[i]) <= 1e-12 * scale))
			return 0.0;
	return lambda;
}

const char *
ClassKindName(ClassKind kind)
{
	for (const ClassInfo &info : kClasses)
		if (info.kind == kind)
			return info.name;
	return "?";
}

ClassSpec
ParseClassSpec(std::string_view text)
{
	return Parser(text).Parse();
}

std::string
ClassSpec::CanonicalText() const
{
	std::string out = InfoOf(kind).name;
	out += '(';
	const auto append_columns = [&] {
		for (std::size_t i = 0; i < columns.size(); ++i) {
			if (i > 0)
				out += ", ";
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
				if (i > 0)
					out += ", ";
				out += FormatWeight(directions[d][i]);
			}
			out += ']';
		}
		break;
	case ClassKind::Predicates:
		for (std::size_t i = 0; i < predicates.size(); ++i) {
			if (i > 0)
				out += ", ";
			out += QuoteLiteral(predicates[i]);
		}
		break;
	default: append_columns(); break;
	}
	out += ')';
	return out;
}

bool
operator==(const ClassSpec &a, const ClassSpec &b)
{
	return a.kind == b.kind && a.columns == b.columns && a.k == b.k && a.directions == b.directions &&
	       a.predicates == b.predicates;
}
bool
operator!=(const ClassSpec &a, const ClassSpec &b)
{
	return !(a == b);
}

}  // namespace pap::core

#include "core/base/core_only.hpp"
