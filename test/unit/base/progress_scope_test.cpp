// The progress hook: reports reach the innermost scope's hook with its context, scopes nest and restore, and
// without a scope a report goes nowhere.
#include "core/base/progress_scope.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace pap::core {
namespace {

struct Recorded {
	std::vector<int> numbers, limits;
};

void
Record(void *context, const PassProgress &progress)
{
	auto *recorded = static_cast<Recorded *>(context);
	recorded->numbers.push_back(progress.number);
	recorded->limits.push_back(progress.limit);
}

TEST(ProgressScope, ReportsReachTheInnermostHookAndScopesRestore)
{
	ReportPass(PassKind::PmwPass, 1, 1);  // no scope: nothing to call, nothing fails
	Recorded outer, inner;
	{
		const ProgressScope a(Record, &outer);
		ReportPass(PassKind::PmwPass, 1, 8);
		{
			const ProgressScope b(Record, &inner);
			ReportPass(PassKind::MwemRound, 2, 3);
		}
		ReportPass(PassKind::PmwPass, 3, 8);
		{
			const ProgressScope none(nullptr, nullptr);  // a caller that wants no reports
			ReportPass(PassKind::PmwPass, 4, 8);
		}
	}
	ReportPass(PassKind::PmwPass, 5, 8);
	EXPECT_EQ(outer.numbers, (std::vector<int>{1, 3}));
	EXPECT_EQ(outer.limits, (std::vector<int>{8, 8}));
	EXPECT_EQ(inner.numbers, (std::vector<int>{2}));
	EXPECT_EQ(inner.limits, (std::vector<int>{3}));
}

}  // namespace
}  // namespace pap::core
