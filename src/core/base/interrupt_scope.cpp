#include "core/base/interrupt_scope.hpp"

#include "core/base/errors.hpp"

namespace pap::core {

namespace {

thread_local InterruptCheck current = nullptr;

}  // namespace

InterruptScope::InterruptScope(InterruptCheck check) noexcept : saved_(current)
{
	current = check;
}

InterruptScope::~InterruptScope()
{
	current = saved_;
}

InterruptCheck
CurrentInterruptCheck() noexcept
{
	return current;
}

void
PollInterruptNow()
{
	if (current && current())
		throw Error(ErrorKind::Cancelled, "canceling statement due to user request");
}

}  // namespace pap::core
