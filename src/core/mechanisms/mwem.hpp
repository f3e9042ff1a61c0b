// MWEM (Hardt, Ligett & McSherry 2012; docs/architecture.md step 5) over the cover queries: T rounds, each selects a
// badly answered query privately, measures its count with exact integer noise, and re-runs multiplicative weights
// over every measurement so far (replay). The private data enters only through the selection scores and the
// measurements, both on integer counts; everything else is post-processing of public state.
// The planner picks the accounting (Pure always possible; Zcdp only when delta > 0) and the rounds by the sizing
// model's value at the prior's error bound (PlanMwem).
//   Pure: permute-and-flip selection (McKenna & Sheldon 2020) at select_epsilon per round and a
//     discrete Laplace measurement; basic composition over the rounds: epsilon-DP.
//   Zcdp: exponential-mechanism selection (rho = select_epsilon^2 / 8, bounded range: Cesar & Rogers
//     2021) and a discrete Gaussian measurement (rho = 1 / (2 variance)); the rounds' rho add up and the total is
//     converted to (epsilon, delta) by the tight conversion (LargestZcdpRho, ZcdpDelta).
// Scores are |truth_q - round(n a_q)| (a_q the synthetic answer): integers of sensitivity 1 under replace-one, so
// the selection coins are exact Bernoulli(exp(-x)) draws with rational x (SampleBernoulliExp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/mechanisms/pmw.hpp"
#include "core/mechanisms/pmw_plan.hpp"
#include "core/noise/discrete_gaussian.hpp"
#include "core/noise/discrete_laplace.hpp"
#include "core/noise/random_source.hpp"
#include "core/workloads/workload.hpp"

namespace pap::core {

enum class MwemAccounting { Pure, Zcdp };

struct MwemParameters {
	MwemAccounting accounting = MwemAccounting::Pure;
	int rounds = 1;  // T
	// Per round, the selection's epsilon as an exact rational (rounded DOWN from the real split, so privacy holds).
	std::uint64_t select_numerator = 1;
	std::uint64_t select_denominator = 1;
	RationalScale measure_scale{1, 1};        // Pure: discrete Laplace scale, counts
	RationalVariance measure_variance{1, 1};  // Zcdp: discrete Gaussian variance, counts^2
	int replay_sweeps = 1;                    // MW sweeps over all measurements so far, after each round
};

struct MwemResult {
	std::vector<double> synthetic;  // over the cells, sums to 1
	int rounds = 0;                 // rounds made (= parameters.rounds unless interrupted -> Error(Cancelled))
};

// truth[q] = exact private count of cover query q, n = private rows (public); prior as for RunPmwOnCounts.
// Error(Internal) for sizes that disagree; Error(Cancelled) when interrupted() returns true (polled per round and
// during long loops).
// Also Error(Internal) for invalid parameters, a count outside [0, n] or n >= 2^62; Error(DataException) for n = 0.
// Cost per round: one Evaluate, O(queries) for the scores and the selection, then replay_sweeps * (measurements so
// far) MW steps, each an EvaluateOne + AddToQueryCells on the measured query and an O(cells) renormalisation.
// The output is the last iterate (with replay it fits every measurement; HLM's bound is stated for the average).
MwemResult RunMwemOnCounts(const Workload &workload, const std::vector<std::int64_t> &truth, std::int64_t n,
                           const std::vector<double> &prior, const MwemParameters &parameters, RandomBitSource &rng,
                           InterruptCheck interrupted = nullptr);

// The two private selections on integer scores of sensitivity 1, at epsilon = numerator / denominator (numerator
// >= 1, 1 <= denominator <= 2^62, else Error(Internal)); both return the index of the chosen score. Every coin is
// an exact Bernoulli(exp(-numerator (s* - s_q) / (2 denominator))), s* the largest score; the product is formed in
// 128 bits, so no overflow is possible. Error(Internal) for no scores; Error(Cancelled) when interrupted.
// Permute-and-flip (McKenna & Sheldon 2020): visits the queries in a uniformly random order and stops at the first
// accepted coin (the best score always accepts): epsilon-DP, never less accurate than the exponential mechanism.
// O(visited queries) plus O(scores) to set up the order.
std::size_t SelectPermuteAndFlip(const std::vector<std::uint64_t> &scores, std::uint64_t numerator,
                                 std::uint64_t denominator, RandomBitSource &rng, InterruptCheck interrupted = nullptr);
// Exponential mechanism, P[q] proportional to exp(epsilon s_q / 2), sampled exactly by a uniform proposal accepted
// with the same coin: expected number of proposals |scores| / sum_q exp(-epsilon (s* - s_q) / 2) <= |scores|.
std::size_t SelectExponential(const std::vector<std::uint64_t> &scores, std::uint64_t numerator,
                              std::uint64_t denominator, RandomBitSource &rng, InterruptCheck interrupted = nullptr);

// The exact rational <= x with a 30-bit numerator and a power-of-two denominator (for x >= 2^30, floor(x) over 1,
// at most 2^62): a selection epsilon, rounded down so that privacy holds.
// Error(InvalidParameter) for x not finite and positive, Error(LimitExceeded) below 2^-33.
void RationalAtMost(double x, std::uint64_t &numerator, std::uint64_t &denominator);

// truth + the planned measurement noise: discrete Laplace (measure_scale) for Pure, discrete Gaussian
// (measure_variance) for Zcdp. Error(Internal) on int64 overflow.
std::int64_t MeasureCount(std::int64_t truth, const MwemParameters &parameters, RandomBitSource &rng);

struct MwemPlan {
	MwemParameters parameters;
	double predicted_error = 0;  // predicted max error over the cover queries, fraction of n, from prior_error
	double prior_error = 0;      // the prior's error the prediction starts from (e0, PriorError), fraction
	double rho = 0;              // Zcdp: the total rho spent, rounded up (0 for Pure)
	PrivacyUsed used;            // MwemPrivacyUsed of the parameters
};
// Chooses the accounting and the rounds from public information only (the input's sizes, epsilon, delta, the prior
// kind) by the lowest error the model predicts from the prior's error bound over T = 1 .. min(cover_size,
// kMwemMaxRounds), and predicts the error of those rounds from PriorError (docs/mechanisms.md §8); validates with
// ValidatePlanInput (same Error(InvalidParameter) / Error(DataException)), whose prior-error model it shares.
// Deterministic.
MwemPlan PlanMwem(const PlanInput &input);

// The parameters for T rounds at (epsilon, delta) (delta only for Zcdp, where rho is LargestZcdpRho(epsilon,
// delta), the tight conversion's budget, or zcdp_budget when > 0: a run on a zCDP budget): each round gets 1/T of the
// budget, half to the selection and half to the measurement; the selection epsilon is rounded down to a rational with a
// 30-bit numerator, the noise up (ScaleAtLeast / VarianceAtLeast). Error(LimitExceeded) when the noise cannot be
// sampled exactly.
MwemParameters MwemNoiseFor(MwemAccounting accounting, int rounds, double epsilon, double delta,
                            double zcdp_budget = 0);
// What the parameters spend, from the exact rationals: Pure: T (select + 1 / measure_scale), delta 0. Zcdp:
// rho = T (select^2 / 8 + 1 / (2 variance)), reported as (epsilon, min(delta, ZcdpDelta(rho, epsilon))). Both
// rounded up; rho is set to the zCDP total (0 for Pure) when not null.
PrivacyUsed MwemPrivacyUsed(const MwemParameters &parameters, double epsilon, double delta, double *rho = nullptr);
// The predicted max error over the cover, fraction of n (docs/mechanisms.md, "MWEM"): 2 sqrt(kl / T) +
// (selection slack + measurement quantile) / n, capped at 1.
double MwemPredictedError(const MwemParameters &parameters, const PlanInput &input, double kl);

// Round cap (run time: replay makes the whole run O(T^2) MW steps) and the replay sweeps after each round.
constexpr int kMwemMaxRounds = 200;
constexpr int kMwemReplaySweeps = 3;

}  // namespace pap::core

#include "core/base/core_only.hpp"
