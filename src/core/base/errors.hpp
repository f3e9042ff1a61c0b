// The core reports every failure as pap::core::Error. The glue (src/pg/error_bridge.hpp) maps each kind to
// exactly one SQLSTATE, so a kind is a promise about the SQL error a user sees.
#pragma once
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace pap::core {

enum class ErrorKind {
	InvalidParameter,     // 22023 invalid_parameter_value: epsilon, delta, alpha, beta, options
	SyntaxError,          // 42601 syntax_error: malformed class or query text
	QueryOutsideClass,    // 22023 invalid_parameter_value: a well-formed query the release's class does not contain
	UndefinedColumn,      // 42703 undefined_column: a query or class names a column the release does not have
	DatatypeMismatch,     // 42804 datatype_mismatch: a column whose type the class cannot use
	DataException,        // 22000 data_exception: e.g. a public table with no usable rows
	LimitExceeded,        // 54000 program_limit_exceeded: cover or cell count over a limit
	RandomSourceFailure,  // 58000 system_error: the secure random source failed (never a silent fallback)
	Cancelled,            // 57014 query_canceled: the glue reported a pending interrupt; it then raises the real one
	Internal              // XX000 internal_error: a broken invariant
};

class Error : public std::runtime_error {
public:
	Error(ErrorKind kind, std::string message, std::string detail = {}, std::string hint = {})
	    : std::runtime_error(message), kind_(kind), detail_(std::move(detail)), hint_(std::move(hint))
	{
	}
	ErrorKind
	kind() const noexcept
	{
		return kind_;
	}
	// PostgreSQL style: message lowercase without final period; detail and hint are full sentences.
	const std::string &
	detail() const noexcept
	{
		return detail_;
	}
	const std::string &
	hint() const noexcept
	{
		return hint_;
	}
	// The 0-based byte offset in the text a user wrote (a query or a query class) where the error lies, or
	// kNoPosition: the glue turns it into PostgreSQL's errposition rather than printing it in the message.
	static constexpr std::size_t kNoPosition = static_cast<std::size_t>(-1);
	std::size_t
	position() const noexcept
	{
		return position_;
	}
	Error &&
	At(std::size_t position) &&noexcept
	{
		position_ = position;
		return std::move(*this);
	}

private:
	ErrorKind kind_;
	std::string detail_;
	std::string hint_;
	std::size_t position_ = kNoPosition;
};

// make(), or nothing when it throws Error(LimitExceeded): a plan whose noise the samplers cannot represent is an
// alternative that does not apply, not a failure. Other errors pass.
template <typename Make>
auto
UnlessLimitExceeded(Make make) -> std::optional<decltype(make())>
{
	try {
		return make();
	} catch (const Error &e) {
		if (e.kind() != ErrorKind::LimitExceeded)
			throw;
		return std::nullopt;
	}
}

}  // namespace pap::core

#include "core/base/core_only.hpp"
