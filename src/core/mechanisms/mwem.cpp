#include "core/mechanisms/mwem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

#include "core/base/errors.hpp"
#include "core/base/progress_scope.hpp"

namespace pap::core {

namespace {

constexpr std::uint64_t kMaxSelectDenominator = std::uint64_t(1) << 62;
constexpr std::int64_t kMaxRows = std::int64_t(1) << 62;
// Long loops over queries poll the interrupt every this many steps.
constexpr std::size_t kPollMask = (std::size_t(1) << 16) - 1;

void
PollInterrupt(InterruptCheck interrupted)
{
	if (interrupted && interrupted())
		throw Error(ErrorKind::Cancelled, "canceling statement due to user request");
}

std::int64_t
CheckedAdd(std::int64_t a, std::int64_t b)
{
	std::int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		throw Error(ErrorKind::Internal, "integer overflow in the MWEM measurement");
	return r;
}

// Bernoulli(exp(-numerator / denominator)) for a 128-bit numerator: whole units are peeled off as independent
// exp(-1) trials until the rest fits SampleBernoulliExp (a false trial ends it: about 1.6 trials expected).
bool
BernoulliExpWide(RandomBitSource &rng, unsigned __int128 numerator, std::uint64_t denominator)
{
	const unsigned __int128 limit = std::numeric_limits<std::uint64_t>::max();
	while (numerator > limit) {
		if (!SampleBernoulliExp(rng, 1, 1))
			return false;
		numerator -= denominator;
	}
	return SampleBernoulliExp(rng, std::uint64_t(numerator), denominator);
}

// The selection coin: accept score s with probability exp(-epsilon (top - s) / 2), epsilon = num / den, exactly.
bool
SelectionCoin(RandomBitSource &rng, std::uint64_t top, std::uint64_t s, std::uint64_t num, std::uint64_t den)
{
	return BernoulliExpWide(rng, (unsigned __int128)num * (top - s), 2 * den);
}

void
CheckSelection(const std::vector<std::uint64_t> &scores, std::uint64_t num, std::uint64_t den)
{
	if (scores.empty())
		throw Error(ErrorKind::Internal, "private selection over no queries");
	if (num == 0 || den == 0 || den > kMaxSelectDenominator)
		throw Error(ErrorKind::Internal, "invalid selection epsilon");
}

// One multiplicative-weights step of Hardt, Ligett & McSherry for a measurement of query q (fraction m):
// A(x) *= exp(q(x) (m - q(A)) / 2), in the log domain, then renormalised.
void
MwStep(const Workload &workload, std::size_t q, double measured, std::vector<double> &log_weights,
       std::vector<double> &weights)
{
	const double step = (measured - workload.EvaluateOne(q, weights)) / 2.0;
	if (!std::isfinite(step) || step == 0.0)
		return;
	workload.AddToQueryCells(q, step, log_weights);
	NormaliseLogWeights(log_weights, weights);
}

}  // namespace

void
RationalAtMost(double x, std::uint64_t &numerator, std::uint64_t &denominator)
{
	if (!(x > 0) || !std::isfinite(x))
		throw Error(ErrorKind::InvalidParameter, "selection epsilon must be finite and positive");
	int e;
	const double f = std::frexp(x, &e);  // x = f 2^e, f in [0.5, 1)
	const int shift = 30 - e;            // numerator = floor(x 2^shift) has 30 bits
	if (shift > 62)
		throw Error(ErrorKind::LimitExceeded, "privacy budget per MWEM round is too small",
		            "The selection epsilon of one round is below 2^-33.", "Use a larger epsilon or fewer rounds.");
	if (shift < 0) {
		// Rounding down is always private: a selection epsilon beyond 2^62 (an epsilon near 1e19 and up) is
		// taken as 2^62, which already makes the selection the best score's with certainty.
		numerator = x >= 0x1p62 ? std::uint64_t(1) << 62 : std::uint64_t(std::floor(x));
		denominator = 1;
		return;
	}
	numerator = std::uint64_t(std::floor(std::ldexp(f, 30)));  // exact: scaling by 2^k and floor
	denominator = std::uint64_t(1) << shift;
	const std::uint64_t g = std::gcd(numerator, denominator);
	numerator /= g;
	denominator /= g;
}

std::size_t
SelectPermuteAndFlip(const std::vector<std::uint64_t> &scores, std::uint64_t num, std::uint64_t den,
                     RandomBitSource &rng, InterruptCheck interrupted)
{
	CheckSelection(scores, num, den);
	const std::uint64_t top = *std::max_element(scores.begin(), scores.end());
	// A uniformly random order drawn lazily (Fisher-Yates): only the visited prefix costs random bits.
	std::vector<std::size_t> order(scores.size());
	std::iota(order.begin(), order.end(), std::size_t(0));
	for (std::size_t i = 0; i < order.size(); i++) {
		if ((i & kPollMask) == kPollMask)
			PollInterrupt(interrupted);
		std::swap(order[i], order[i + SampleUniformBelow(rng, order.size() - i)]);
		const std::size_t q = order[i];
		if (SelectionCoin(rng, top, scores[q], num, den))
			return q;
	}
	throw Error(ErrorKind::Internal, "permute-and-flip accepted no query");  // the best score always accepts
}

std::size_t
SelectExponential(const std::vector<std::uint64_t> &scores, std::uint64_t num, std::uint64_t den, RandomBitSource &rng,
                  InterruptCheck interrupted)
{
	CheckSelection(scores, num, den);
	const std::uint64_t top = *std::max_element(scores.begin(), scores.end());
	// Uniform proposal, accepted with probability exp(-epsilon (top - s_q) / 2): the accepted index has
	// probability proportional to exp(epsilon s_q / 2), exactly.
	for (std::size_t trial = 1;; trial++) {
		if ((trial & kPollMask) == 0)
			PollInterrupt(interrupted);
		const std::size_t q = std::size_t(SampleUniformBelow(rng, scores.size()));
		if (SelectionCoin(rng, top, scores[q], num, den))
			return q;
	}
}

std::int64_t
MeasureCount(std::int64_t truth, const MwemParameters &p, RandomBitSource &rng)
{
	const std::int64_t noise = p.accounting == MwemAccounting::Pure ? SampleDiscreteLaplace(rng, p.measure_scale)
	                                                                : SampleDiscreteGaussian(rng, p.measure_variance);
	return CheckedAdd(truth, noise);
}

MwemResult
RunMwemOnCounts(const Workload &workload, const std::vector<std::int64_t> &truth, std::int64_t n,
                const std::vector<double> &prior, const MwemParameters &p, RandomBitSource &rng,
                InterruptCheck interrupted)
{
	const std::size_t cells = workload.CellCount();
	const std::size_t queries = workload.QueryCount();
	if (truth.size() != queries || prior.size() != cells)
		throw Error(ErrorKind::Internal, "true counts, prior and workload disagree in size");
	if (p.rounds < 1 || p.replay_sweeps < 0 || p.select_numerator == 0 || p.select_denominator == 0 ||
	    p.select_denominator > kMaxSelectDenominator || queries == 0 || cells == 0)
		throw Error(ErrorKind::Internal, "invalid MWEM parameters");
	if (n == 0)
		throw Error(ErrorKind::DataException, "private table has no rows");
	// Below 2^62 rows, n a_q and every score fit an int64 with room to spare.
	if (n < 0 || n >= kMaxRows)
		throw Error(ErrorKind::Internal, "private row count out of range");
	for (std::int64_t t : truth)
		if (t < 0 || t > n)
			throw Error(ErrorKind::Internal, "true count outside [0, n]");

	std::vector<double> log_weights(cells), weights(cells), synthetic;
	LogWeightsOfPrior(prior, log_weights);
	NormaliseLogWeights(log_weights, weights);

	const double nd = double(n);
	std::vector<std::uint64_t> scores(queries);
	std::vector<std::size_t> measured_queries;
	std::vector<double> measured_values;  // fractions of n, clamped to [0, 1] (post-processing)
	MwemResult result;
	for (int round = 1; round <= p.rounds; round++) {
		PollInterrupt(interrupted);
		ReportPass(PassKind::MwemRound, round, p.rounds);
		workload.Evaluate(weights, synthetic);
		for (std::size_t q = 0; q < queries; q++) {
			if ((q & kPollMask) == kPollMask)
				PollInterrupt(interrupted);
			// The synthetic count is public state; rounding it keeps the score an integer of sensitivity 1.
			const double rounded = std::clamp(std::round(synthetic[q] * nd), 0.0, nd);
			const std::int64_t gap = truth[q] - std::int64_t(rounded);
			scores[q] = std::uint64_t(gap < 0 ? -gap : gap);
		}
		const std::size_t chosen =
		    p.accounting == MwemAccounting::Pure
		        ? SelectPermuteAndFlip(scores, p.select_numerator, p.select_denominator, rng, interrupted)
		        : SelectExponential(scores, p.select_numerator, p.select_denominator, rng, interrupted);
		const std::int64_t measurement = MeasureCount(truth[chosen], p, rng);
		measured_queries.push_back(chosen);
		measured_values.push_back(std::clamp(double(measurement) / nd, 0.0, 1.0));

		// The new measurement, then replay_sweeps sweeps over all of them (oldest first): post-processing.
		MwStep(workload, chosen, measured_values.back(), log_weights, weights);
		std::size_t steps = 0;
		for (int sweep = 0; sweep < p.replay_sweeps; sweep++)
			for (std::size_t j = 0; j < measured_queries.size(); j++) {
				if ((++steps & 63) == 0)
					PollInterrupt(interrupted);
				MwStep(workload, measured_queries[j], measured_values[j], log_weights, weights);
			}
		result.rounds = round;
	}
	result.synthetic = std::move(weights);
	return result;
}

MwemParameters
MwemNoiseFor(MwemAccounting accounting, int rounds, double epsilon, double delta, double zcdp_budget)
{
	MwemParameters p;
	p.accounting = accounting;
	p.rounds = rounds;
	p.replay_sweeps = kMwemReplaySweeps;
	const double T = double(rounds);
	// A relative 1e-9 kept back absorbs the rounding of the double arithmetic below.
	const double keep = 1.0 - 1e-9;
	if (accounting == MwemAccounting::Pure) {
		// Per round epsilon / T: half to permute-and-flip, half to a discrete Laplace of scale 1 / that half
		// (sensitivity 1). Basic composition over the rounds.
		const double half = keep * epsilon / (2.0 * T);
		RationalAtMost(half, p.select_numerator, p.select_denominator);
		p.measure_scale = ScaleAtLeast(1.0 / half);
	} else {
		// Per round rho / T: half to the exponential mechanism (eps_s^2 / 8), half to a discrete Gaussian
		// (1 / (2 sigma^2)).
		const double rho_round = keep * ZcdpBudget(epsilon, delta, zcdp_budget) / T;
		// 2 sqrt(rho), not sqrt(4 rho): equal in floating point (a power of two), without overflow near the double
		// maximum.
		RationalAtMost(2.0 * std::sqrt(rho_round), p.select_numerator, p.select_denominator);
		p.measure_variance = VarianceAtLeast(1.0 / rho_round);
	}
	return p;
}

PrivacyUsed
MwemPrivacyUsed(const MwemParameters &p, double epsilon, double delta, double *rho_out)
{
	PrivacyUsed used;
	const long double T = p.rounds;
	const long double select = (long double)p.select_numerator / (long double)p.select_denominator;
	const long double margin = 1.0L + 1e-15L;  // the long-double rounding of the few operations below
	if (p.accounting == MwemAccounting::Pure) {
		used.epsilon = double(
		    T * (select * (1.0L + (long double)kReportMargin) + (long double)LaplaceEpsilon(1.0, p.measure_scale)) *
		    margin);
		used.accounting = "pure (basic composition)";
		if (rho_out)
			*rho_out = 0;
		return used;
	}
	const long double variance =
	    (long double)p.measure_variance.numerator / (long double)p.measure_variance.denominator;
	const double rho = double(T * (select * select / 8.0L + 1.0L / (2.0L * variance)) * margin);
	used.epsilon = epsilon;
	used.delta = ReportedZcdpDelta(rho, epsilon, delta);
	used.accounting = "zCDP (tight conversion)";
	used.rho = rho;
	if (rho_out)
		*rho_out = rho;
	return used;
}

double
MwemPredictedError(const MwemParameters &p, const PlanInput &in, double kl)
{
	const double T = double(p.rounds);
	const double n = double(in.private_rows);
	const double eps_select = double(p.select_numerator) / double(p.select_denominator);
	// Selection: permute-and-flip and the exponential mechanism choose a score within (2 / eps)(ln K + t) of the
	// best w.p. 1 - e^-t; t = ln(T / beta) covers all T rounds.
	const double select = 2.0 / eps_select * (std::log(double(in.cover_size)) + std::log(T / in.beta));
	// Measurement: the largest of T noise draws, w.p. 1 - beta.
	const double measure = p.accounting == MwemAccounting::Pure
	                           ? p.measure_scale.value() * std::log(2.0 * T / in.beta)
	                           : std::sqrt(2.0 * p.measure_variance.value() * std::log(2.0 * T / in.beta));
	return std::min(1.0, 2.0 * std::sqrt(kl / T) + (select + measure) / n);
}

MwemPlan
PlanMwem(const PlanInput &in)
{
	ValidatePlanInput(in);
	// The rounds are sized for the prior's error bound, which holds for every population; the prediction takes the
	// public sample's estimate, as PMW's does (docs/mechanisms.md §8, "Choosing the rounds").
	const double prior_error = PriorError(in);
	const double sizing_error = in.uniform_prior ? kUninformedPriorError : PublicOnlyBound(in);
	const double ln_cells = std::log(std::max<double>(2.0, double(in.cells)));
	// KL(data || prior) drives MW's rounds. HLM bound it by ln|X~| for a uniform start, far too loosely at
	// practical sizes (docs/mechanisms.md, "MWEM"). The model is PlanPmw's pinned error curve of height e0 (a model,
	// not a bound), never above ln|X~|. The rounds are sized with PMW's half steps, KL = e0^2 / 2 (2 sqrt(kl / T) =
	// e0 sqrt(2 / T), PlanPmw's residual after T updates), which asks for more rounds than full pins: room for a
	// shifted sample, which no public number shows. The prediction takes what a round does: the replay fits its
	// measurement, a full pin, so T rounds leave e0 / sqrt(T), KL = e0^2 / 4 (the measurement's own noise is
	// MwemPredictedError's measurement term). e0 is PriorError (pmw_plan.hpp) for the prediction, the bound for the
	// sizing: the public prior's sampling error, or 1/2 for the uniform prior.
	const double sizing_kl = std::min(ln_cells, sizing_error * sizing_error / 2.0);
	const double predicted_kl = std::min(ln_cells, prior_error * prior_error / 4.0);
	MwemPlan best;
	double best_sizing = INFINITY;  // the sizing model's value of the best rounds so far
	const int max_rounds = int(std::min<std::size_t>(in.cover_size, kMwemMaxRounds));
	std::optional<Error> too_small;
	for (MwemAccounting accounting : {MwemAccounting::Pure, MwemAccounting::Zcdp}) {
		if (accounting == MwemAccounting::Zcdp && in.delta == 0.0)
			continue;
		for (int T = 1; T <= max_rounds; T++) {
			MwemParameters p;
			try {
				p = MwemNoiseFor(accounting, T, in.epsilon, in.delta, in.rho);
			} catch (const Error &e) {
				// More rounds need only more noise: stop; an accounting whose one round does not fit is skipped,
				// and the plan is refused only when neither fits.
				if (e.kind() != ErrorKind::LimitExceeded)
					throw;
				if (T == 1)
					too_small = e;
				break;
			}
			const double sizing = MwemPredictedError(p, in, sizing_kl);
			if (sizing < best_sizing) {  // ties: pure accounting (searched first), then fewer rounds
				best.parameters = p;
				best_sizing = sizing;
			}
		}
	}
	if (!(best_sizing < INFINITY))
		throw too_small ? *too_small : Error(ErrorKind::Internal, "MWEM planned no round");
	best.prior_error = prior_error;
	best.predicted_error = MwemPredictedError(best.parameters, in, predicted_kl);
	best.used = MwemPrivacyUsed(best.parameters, in.epsilon, in.delta, &best.rho);
	return best;
}

}  // namespace pap::core
