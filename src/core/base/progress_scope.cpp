#include "core/base/progress_scope.hpp"

namespace pap::core {

namespace {

thread_local ProgressHook current_hook = nullptr;
thread_local void *current_context = nullptr;

}  // namespace

ProgressScope::ProgressScope(ProgressHook hook, void *context) noexcept
    : saved_hook_(current_hook), saved_context_(current_context)
{
	current_hook = hook;
	current_context = context;
}

ProgressScope::~ProgressScope()
{
	current_hook = saved_hook_;
	current_context = saved_context_;
}

void
ReportPass(PassKind kind, int number, int limit) noexcept
{
	if (current_hook)
		current_hook(current_context, PassProgress{kind, number, limit});
}

}  // namespace pap::core
