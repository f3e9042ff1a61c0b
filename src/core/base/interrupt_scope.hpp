// The interrupt check of the core entry point running on this thread, for the loops of the define and plan paths
// (domain, cover and workload construction) that are too deep to take one as a parameter. The glue is single
// threaded; an entry point opens a scope, the loops poll it every 2^16 steps (a cancel is then honoured within
// milliseconds even over 81 million cells, at the cost of a counter increment per step).
#pragma once
#include <cstdint>

namespace pap::core {

// Polled between steps of long work; returns true when the caller wants it abandoned (Error(Cancelled) is thrown).
using InterruptCheck = bool (*)();

// Installs check for the scope's lifetime, restoring the previous one after (scopes nest).
class InterruptScope {
public:
	explicit InterruptScope(InterruptCheck check) noexcept;
	~InterruptScope();
	InterruptScope(const InterruptScope &) = delete;
	InterruptScope &operator=(const InterruptScope &) = delete;

private:
	InterruptCheck saved_;
};

// The innermost scope's check, or nullptr.
InterruptCheck CurrentInterruptCheck() noexcept;
// Throws Error(Cancelled) when the current check returns true.
void PollInterruptNow();

// Counts `count` steps; each time the total passes a multiple of 2^16, polls the current check.
inline void
PollInterrupt(std::uint64_t &steps, std::uint64_t count = 1)
{
	const std::uint64_t before = steps >> 16;
	steps += count;
	if ((steps >> 16) != before)
		PollInterruptNow();
}

}  // namespace pap::core

#include "core/base/core_only.hpp"
