// Tests that every plan reports what its noise actually spends (PrivacyUsed, pmw_plan.hpp), at extreme inputs:
// epsilon from 1e-6 to 1e4, delta from 0 and 1e-300 to 0.99. What is reported is never more than the request,
// never less than what the exact rational scales the samplers draw with spend, and delta is 0 for a pure mechanism.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/mechanisms/hierarchical_mechanism.hpp"
#include "core/mechanisms/identity_mechanism.hpp"
#include "core/mechanisms/mwem.hpp"
#include "core/mechanisms/noisy_histogram.hpp"
#include "core/mechanisms/pmw_plan.hpp"
#include "core/noise/discrete_gaussian.hpp"

namespace pap::core {
namespace {

const double kEpsilons[] = {1e-6, 1e-4, 0.01, 0.3, 1.0, 4.0, 8.0, 100.0, 1e4};
const double kDeltas[] = {0.0, 1e-300, 1e-100, 1e-12, 1e-6, 1e-3, 0.1, 0.5, 0.9, 0.99};

PlanInput
Input(double epsilon, double delta, std::size_t cover = 64, std::size_t cells = 64)
{
	PlanInput in;
	in.private_rows = 5000;
	in.public_rows = 500;
	in.cover_size = cover;
	in.cells = cells;
	in.epsilon = epsilon;
	in.delta = delta;
	return in;
}

// Runs make() and reports false when it refuses with LimitExceeded (noise too large to sample exactly at tiny
// epsilon: a refusal, never a silent shrink); any other error fails the test.
bool
Plans(const std::function<void()> &make)
{
	try {
		make();
		return true;
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded) << e.what();
		return false;
	}
}

void
ExpectWithinRequest(const PrivacyUsed &used, double epsilon, double delta)
{
	EXPECT_LE(used.epsilon, epsilon);
	EXPECT_GT(used.epsilon, 0.0);
	EXPECT_GE(used.delta, 0.0);
	EXPECT_LE(used.delta, delta);
	EXPECT_STRNE(used.accounting, "");
	if (std::string(used.accounting).rfind("pure", 0) == 0) {
		EXPECT_EQ(used.delta, 0.0) << used.accounting;
	}
	if (delta == 0.0) {
		EXPECT_EQ(std::string(used.accounting).rfind("pure", 0), 0u) << used.accounting;
	}
}

// The epsilon of a Laplace of scale b on sensitivity s is s / b: the reported value is at least that, exactly
// (long double holds the product of two uint64-derived doubles' ratio to well below the 1e-15 margin).
long double
Ratio(double sensitivity, const RationalScale &b)
{
	return (long double)sensitivity * (long double)b.denominator / (long double)b.numerator;
}

TEST(PrivacyUsed, PmwAtExtremeInputs)
{
	int planned = 0, zcdp = 0;
	for (double epsilon : kEpsilons)
		for (double delta : kDeltas) {
			SCOPED_TRACE("epsilon=" + std::to_string(epsilon) + " delta=" + std::to_string(delta));
			PmwPlan plan;
			if (!Plans([&] { plan = PlanPmw(Input(epsilon, delta)); }))
				continue;
			planned++;
			ExpectWithinRequest(plan.used, epsilon, delta);
			const PmwParameters &p = plan.parameters;
			const double c = double(p.cutoff);
			if (p.accounting == SparseVectorAccounting::Pure) {
				EXPECT_LE(Ratio(1.0, p.threshold_noise) + Ratio(2.0 * c, p.compare_noise),
				          (long double)plan.used.epsilon);
				// The split itself never sums to more than epsilon (exactly: long double holds the sum of two
				// doubles within a factor 2^11 of each other, and e_thr >= epsilon / 3500 here).
				EXPECT_LE((long double)plan.epsilon_threshold + (long double)plan.epsilon_compare,
				          (long double)epsilon);
			} else {
				zcdp++;
				const long double eps0 = Ratio(1.0, p.threshold_noise) + Ratio(2.0, p.compare_noise);
				EXPECT_LE((long double)c * eps0 * eps0 / 2, (long double)plan.rho);
				EXPECT_LE(plan.rho, LargestZcdpRho(epsilon, delta));
				EXPECT_LE(ZcdpDelta(plan.rho, epsilon), delta);
			}
		}
	EXPECT_GT(planned, 60);
	EXPECT_GT(zcdp, 10);
}

TEST(PrivacyUsed, MwemAtExtremeInputs)
{
	int planned = 0;
	for (double epsilon : kEpsilons)
		for (double delta : kDeltas) {
			SCOPED_TRACE("epsilon=" + std::to_string(epsilon) + " delta=" + std::to_string(delta));
			MwemPlan plan;
			if (!Plans([&] { plan = PlanMwem(Input(epsilon, delta)); }))
				continue;
			planned++;
			ExpectWithinRequest(plan.used, epsilon, delta);
			const MwemParameters &p = plan.parameters;
			const long double T = p.rounds;
			const long double select = (long double)p.select_numerator / (long double)p.select_denominator;
			if (p.accounting == MwemAccounting::Pure) {
				EXPECT_LE(T * (select + Ratio(1.0, p.measure_scale)), (long double)plan.used.epsilon);
			} else {
				const long double variance =
				    (long double)p.measure_variance.numerator / (long double)p.measure_variance.denominator;
				EXPECT_LE(T * (select * select / 8 + 1 / (2 * variance)), (long double)plan.rho);
				EXPECT_LE(ZcdpDelta(plan.rho, epsilon), delta);
			}
		}
	EXPECT_GT(planned, 60);
}

// Identity (l1 = l2^2 = 2) and hierarchical (l1 = l2^2 = 2 x node sets): Laplace spends epsilon l1 / b and no
// delta, even when delta > 0 is requested; the Gaussian spends rho = l2^2 / (2 sigma^2).
void
ExpectHistogramUsed(const HistogramNoise &noise, double sensitivity, const PrivacyUsed &used, double epsilon,
                    double delta)
{
	ExpectWithinRequest(used, epsilon, delta);
	if (!noise.gaussian) {
		EXPECT_EQ(used.delta, 0.0);
		EXPECT_LE(Ratio(sensitivity, noise.laplace), (long double)used.epsilon);
	} else {
		const double rho = sensitivity * double(noise.variance.denominator) / (2.0 * double(noise.variance.numerator));
		EXPECT_LE(ZcdpDelta(rho, epsilon), delta);
		EXPECT_GE(used.delta, ZcdpDelta(rho, epsilon) * (1 - 1e-9));
	}
}

TEST(PrivacyUsed, IdentityAndHierarchicalAtExtremeInputs)
{
	int gaussian = 0, laplace_with_delta = 0;
	for (double epsilon : kEpsilons)
		for (double delta : kDeltas) {
			SCOPED_TRACE("epsilon=" + std::to_string(epsilon) + " delta=" + std::to_string(delta));
			IdentityPlan identity;
			if (Plans([&] { identity = PlanIdentity(Input(epsilon, delta), 32); })) {
				ExpectHistogramUsed(identity.noise, 2.0, identity.used, epsilon, delta);
				gaussian += identity.noise.gaussian;
				laplace_with_delta += !identity.noise.gaussian && delta > 0;
			}
			HierarchicalPlan tree;
			if (Plans([&] { tree = PlanHierarchical(Input(epsilon, delta, 64, 256), {16, 16}); })) {
				const double sets = HierarchicalNodeSets(tree.levels);
				ExpectHistogramUsed(tree.noise, 2.0 * sets, tree.used, epsilon, delta);
			}
		}
	EXPECT_GT(gaussian, 3);
	EXPECT_GT(laplace_with_delta, 10);  // a delta requested and none used
}

// An example from the accounting review: identity with Laplace noise at (1, 1e-6) spends no delta.
TEST(PrivacyUsed, LaplaceIdentityAtOneAndOneInAMillionSpendsNoDelta)
{
	const IdentityPlan plan = PlanIdentity(Input(1.0, 1e-6), 32);
	ASSERT_FALSE(plan.noise.gaussian);
	EXPECT_EQ(plan.used.delta, 0.0);
	EXPECT_LE(plan.used.epsilon, 1.0);
	EXPECT_GT(plan.used.epsilon, 1.0 - 1e-6);
}

// An example from the accounting review: (8, 0.9) is certified (Dwork & Roth's bound is not valid there; the zCDP one
// is).
TEST(PrivacyUsed, PmwAtEightAndNineTenthsIsZcdp)
{
	const PmwPlan plan = PlanPmw(Input(8.0, 0.9, 4096, 4096));
	ExpectWithinRequest(plan.used, 8.0, 0.9);
	if (plan.parameters.accounting == SparseVectorAccounting::Zcdp) {
		EXPECT_LE(ZcdpDelta(plan.rho, 8.0), 0.9);
	}
}

// At (1, 1e-6) the zCDP sparse vector needs well under half the noise of Dwork & Roth's Sparse (sigma =
// sqrt(32 c ln(1/delta)) / epsilon, threshold Lap(sigma), comparisons Lap(2 sigma)).
TEST(PrivacyUsed, ZcdpSparseVectorNeedsLessThanHalfDworkRothsNoise)
{
	for (std::int64_t c : {1, 10, 1000}) {
		const PmwParameters p = PmwNoiseFor(SparseVectorAccounting::Zcdp, c, 0, 0, 1.0, 1e-6);
		const double sigma = std::sqrt(32.0 * double(c) * std::log(1e6));
		EXPECT_LT(p.threshold_noise.value(), 0.5 * sigma);
		EXPECT_LT(p.compare_noise.value(), 0.5 * 2 * sigma);
	}
}

}  // namespace
}  // namespace pap::core

namespace pap::core {
namespace {

// The engine's last check before a charge (release_engine.cpp, SetZcdpCost): a plan above its request is refused,
// whatever a report would cap it to.
TEST(RequireSpendWithinRequest, RefusesAPlanAboveItsRequest)
{
	PrivacyUsed pure;
	pure.epsilon = 1.0;
	EXPECT_NO_THROW(RequireSpendWithinRequest(pure, 1.0, 0.0));
	pure.epsilon = 1.0 + 1e-12;  // the last bits of a sum of 2 / b
	EXPECT_NO_THROW(RequireSpendWithinRequest(pure, 1.0, 0.0));
	pure.epsilon = 1.001;
	EXPECT_PAP_ERROR(ErrorKind::Internal, RequireSpendWithinRequest(pure, 1.0, 0.0));
	pure.epsilon = std::nan("");
	EXPECT_PAP_ERROR(ErrorKind::Internal, RequireSpendWithinRequest(pure, 1.0, 0.0));
	pure.epsilon = 0.5;
	pure.delta = 1e-9;  // a pure plan that reports a delta is not pure
	EXPECT_PAP_ERROR(ErrorKind::Internal, RequireSpendWithinRequest(pure, 1.0, 0.0));

	PrivacyUsed zcdp;
	zcdp.rho = LargestZcdpRho(1.0, 1e-6);
	zcdp.epsilon = 1.0;
	zcdp.delta = 1e-6;
	EXPECT_NO_THROW(RequireSpendWithinRequest(zcdp, 1.0, LargestZcdpRho(1.0, 1e-6)));
	zcdp.rho *= 1.001;  // a variance a thousandth too small
	EXPECT_PAP_ERROR(ErrorKind::Internal, RequireSpendWithinRequest(zcdp, 1.0, LargestZcdpRho(1.0, 1e-6)));
	zcdp.rho = std::numeric_limits<double>::infinity();
	EXPECT_PAP_ERROR(ErrorKind::Internal, RequireSpendWithinRequest(zcdp, 1.0, LargestZcdpRho(1.0, 1e-6)));
}

}  // namespace
}  // namespace pap::core
