// Empirical privacy audit of the private quantile (docs/audit.md; the estimator is audit_estimator.hpp). Black box:
// every sample is one call of the product's SamplePrivateQuantile on one of two neighbouring data sets (replace-one:
// one row moved, n fixed) and the key is the chosen candidate, ordered. The instance: 8 candidates and two rows,
// the median; D has them at x_0 and x_1, D' at x_1 and x_7. Moving the row lowers x_0's score and raises those of
// x_1..x_7, so the event {x_0} shows most of the loss the exponential mechanism allows (0.82 epsilon by an exact
// computation of both distributions; at twice the epsilon, 1.49 epsilon), and the log ratio's range over the
// outcomes is all of epsilon: x_0 at its largest, x_1..x_7 at its least (0.82 + 0.18).
//
// The broken variant takes the product's call and changes one argument: epsilon doubled, the sampler's factor 1/2
// (the utility's sensitivity) forgotten. The bounded-range cases audit the claim a budget in rho charges for
// (epsilon-bounded range, so epsilon^2 / 8-zCDP, docs/mechanisms.md §16): the product's call, and the call at 1.25
// epsilon, a range the epsilon-DP audit of the same instance does not show (its best event {x_0} is at 1.0025
// epsilon) and the range audit must catch.
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "audit_cases.hpp"
#include "core/mechanisms/private_quantile.hpp"

using namespace pap::core;
using pap::audit::AuditCase;
using pap::audit::Expect;
using pap::audit::OrderedKey;

namespace {

AuditCase
QuantileCase(const char *mechanism, double sampled_epsilon, Expect expect, bool bounded_range = false)
{
	auto sides = std::make_shared<const std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>>>(
	    std::vector<std::int64_t>{1, 1, 0, 0, 0, 0, 0, 0}, std::vector<std::int64_t>{0, 1, 0, 0, 0, 0, 0, 1});
	AuditCase c;
	c.mechanism = mechanism;
	c.name = "8 values, {x0,x1} vs {x1,x7}, median";
	c.epsilon = 1.0;
	c.delta = 0.0;
	c.expect = expect;
	c.ordered_key = true;
	c.bounded_range = bounded_range;
	c.sample = [sides, sampled_epsilon](int side, RandomBitSource &rng) {
		const std::vector<std::int64_t> &counts = side == 0 ? sides->first : sides->second;
		return OrderedKey(double(SamplePrivateQuantile(counts, 0, 0.5, sampled_epsilon, rng)), 1.0);
	};
	return c;
}

}  // namespace

std::vector<AuditCase>
PrivateQuantileAuditCases()
{
	return {QuantileCase("Quantile (exp. mech.)", 1.0, Expect::Private),
	        QuantileCase("BROKEN: quantile, eps x2", 2.0, Expect::Violation)};
}

std::vector<AuditCase>
PrivateQuantileBoundedRangeAuditCases()
{
	return {QuantileCase("Quantile, bounded range", 1.0, Expect::Private, true),
	        QuantileCase("BROKEN: quantile range x1.25", 1.25, Expect::Violation, true),
	        QuantileCase("VARIANT: quantile, eps x1.25", 1.25, Expect::Informational)};
}
