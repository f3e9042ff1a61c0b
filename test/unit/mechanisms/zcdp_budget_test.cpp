// Plans on a budget in rho (docs/mechanisms.md, "zCDP budgets"): with PlanInput::rho set, every zCDP variant is
// calibrated to that rho rather than to the tight conversion's budget of (epsilon, delta), spends at most it
// (from the exact rational noise parameters), and close to all of it; the pure variants keep epsilon, whose cost
// epsilon^2 / 2 is the rho charged.
#include <gtest/gtest.h>

#include <cmath>

#include "test_support.hpp"
#include "core/mechanisms/hierarchical_mechanism.hpp"
#include "core/mechanisms/identity_mechanism.hpp"
#include "core/mechanisms/mwem.hpp"
#include "core/mechanisms/noisy_histogram.hpp"
#include "core/mechanisms/pmw_plan.hpp"
#include "core/noise/discrete_gaussian.hpp"

namespace pap::core {
namespace {

// A run at epsilon on a budget in rho whose delta is delta: rho = epsilon^2 / 2 (a step below, as the engine
// plans), the zCDP variants' budget.
PlanInput
OnRhoBudget(double epsilon, double delta, std::size_t cells = 64)
{
	PlanInput in = test::HistogramPlanInput(epsilon, delta, cells);
	in.rho = std::nextafter(epsilon * epsilon / 2, 0.0);
	return in;
}

// Spends at most rho, and within a relative 1e-6 of it: calibrated to the budget, not to LargestZcdpRho.
void
ExpectCalibratedTo(double spent, double rho, const char *what)
{
	EXPECT_LE(spent, rho * (1 + 1e-12)) << what;
	EXPECT_GE(spent, rho * (1 - 1e-6)) << what;
}

TEST(ZcdpBudgetPlans, HistogramNoiseUsesTheBudgetsRho)
{
	for (double epsilon : {0.05, 0.5, 3.0}) {
		const PlanInput in = OnRhoBudget(epsilon, 1e-9);
		const HistogramNoise noise = HistogramNoiseFor(2.0, 2.0, in.epsilon, in.delta, in.rho);
		ASSERT_TRUE(noise.gaussian) << epsilon;  // sigma^2 = 1 / rho = 2 / epsilon^2 < 2 (2 / epsilon)^2
		ExpectCalibratedTo(HistogramNoiseUsed(noise, 2.0, 2.0, in.epsilon, in.delta).rho, in.rho, "histogram");
		// Without the budget the same (epsilon, delta) is calibrated to the tight conversion's smaller rho.
		const HistogramNoise converted = HistogramNoiseFor(2.0, 2.0, in.epsilon, in.delta);
		EXPECT_GT(converted.Variance(), noise.Variance()) << epsilon;
	}
}

TEST(ZcdpBudgetPlans, IdentityAndHierarchicalSpendAtMostTheBudget)
{
	const PlanInput in = OnRhoBudget(0.5, 1e-6, 256);
	const IdentityPlan identity = PlanIdentity(in, 16);
	ASSERT_TRUE(identity.noise.gaussian);
	ExpectCalibratedTo(identity.used.rho, in.rho, "identity");
	const HierarchicalPlan hierarchical = PlanHierarchical(in, {256});
	if (hierarchical.used.rho > 0)
		ExpectCalibratedTo(hierarchical.used.rho, in.rho, "hierarchical");
	else  // pure: its epsilon, and so its epsilon^2 / 2, within the request
		EXPECT_LE(hierarchical.used.epsilon, in.epsilon);
}

TEST(ZcdpBudgetPlans, SparseVectorAndMwemSpendAtMostTheBudget)
{
	for (double epsilon : {0.1, 1.0}) {
		const PlanInput in = OnRhoBudget(epsilon, 1e-6);
		for (std::int64_t cutoff : {1, 7, 40}) {
			const PmwParameters p =
			    PmwNoiseFor(SparseVectorAccounting::Zcdp, cutoff, 0, 0, in.epsilon, in.delta, in.rho);
			ExpectCalibratedTo(PmwPrivacyUsed(p, in.epsilon, in.delta).rho, in.rho, "pmw");
		}
		for (int rounds : {1, 5, 30}) {
			const MwemParameters p = MwemNoiseFor(MwemAccounting::Zcdp, rounds, in.epsilon, in.delta, in.rho);
			ExpectCalibratedTo(MwemPrivacyUsed(p, in.epsilon, in.delta).rho, in.rho, "mwem");
		}
	}
}

TEST(ZcdpBudgetPlans, WithoutABudgetTheTightConversionsRhoIsUsed)
{
	const double rho = LargestZcdpRho(1.0, 1e-6);
	EXPECT_EQ(ZcdpBudget(1.0, 1e-6, 0), rho);
	EXPECT_EQ(ZcdpBudget(1.0, 1e-6, 0.5), 0.5);
	const PmwParameters p = PmwNoiseFor(SparseVectorAccounting::Zcdp, 5, 0, 0, 1.0, 1e-6);
	ExpectCalibratedTo(PmwPrivacyUsed(p, 1.0, 1e-6).rho, rho, "pmw at (1, 1e-6)");
}

}  // namespace
}  // namespace pap::core
