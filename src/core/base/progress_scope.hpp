// The progress hook of the core entry point running on this thread, beside its interrupt check
// (interrupt_scope.hpp): the loops of a mechanism report each pass as it starts, so that the caller can show how
// far a long run is. A pass number is reported only when the pass runs, so the numbers reported are 1 .. the
// passes the run's details publish (docs/security.md, "Progress"): nothing a private row could change beyond that.
#pragma once

namespace pap::core {

// The loops that report, and what their numbers count.
enum class PassKind {
	PmwPass,    // a pass of PMW over the cover queries; limit: the plan's max_passes (a run may stop sooner)
	MwemRound,  // a round of MWEM; limit: the plan's rounds (a run makes them all)
};

struct PassProgress {
	PassKind kind;
	int number;  // 1-based, the pass that starts now
	int limit;   // the most passes the plan allows
};

// Called as a pass starts. A plain function and a context pointer rather than a std::function: the glue holds no
// C++ object across a PostgreSQL call (docs/architecture.md, "The wall"). It must not throw.
using ProgressHook = void (*)(void *context, const PassProgress &progress);

// Installs hook (with its context) for the scope's lifetime, restoring the previous one after (scopes nest).
class ProgressScope {
public:
	ProgressScope(ProgressHook hook, void *context) noexcept;
	~ProgressScope();
	ProgressScope(const ProgressScope &) = delete;
	ProgressScope &operator=(const ProgressScope &) = delete;

private:
	ProgressHook saved_hook_;
	void *saved_context_;
};

// Tells the innermost scope's hook, if any, that a pass starts.
void ReportPass(PassKind kind, int number, int limit) noexcept;

}  // namespace pap::core

#include "core/base/core_only.hpp"
