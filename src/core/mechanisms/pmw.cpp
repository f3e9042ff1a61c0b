#include "core/mechanisms/pmw.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/base/progress_scope.hpp"

namespace pap::core {

namespace {

std::int64_t
CheckedAdd(std::int64_t a, std::int64_t b)
{
	std::int64_t r;
	if (__builtin_add_overflow(a, b, &r))
		throw Error(ErrorKind::Internal, "integer overflow in the sparse-vector comparison");
	return r;
}

// ceil of a public double as an integer, for comparing integer noisy counts with a real threshold exactly.
std::int64_t
CeilToInt(double x)
{
	const double c = std::ceil(x);
	if (!(c > -9.0e18 && c < 9.0e18))
		throw Error(ErrorKind::Internal, "sparse-vector threshold out of range");
	return std::int64_t(c);
}

// The multiplicative-weights step that moves the synthetic answer of query q to target (the KL projection onto
// that constraint): the learning rate of this update. Post-processing of public state only.
void
Project(const Workload &workload, std::size_t q, double target_fraction, double n, std::vector<double> &log_weights,
        std::vector<double> &weights)
{
	const double floor = 0.5 / n;  // never aim below half a row, nor above n minus half: keeps the step finite
	const double target = std::clamp(target_fraction, floor, 1.0 - floor);
	const double current = std::clamp(workload.EvaluateOne(q, weights), 1e-300, 1.0 - 1e-16);
	const double step = std::log(target) - std::log1p(-target) - std::log(current) + std::log1p(-current);
	if (!std::isfinite(step) || step == 0.0)
		return;
	workload.AddToQueryCells(q, step, log_weights);
	NormaliseLogWeights(log_weights, weights);
}

}  // namespace

void
LogWeightsOfPrior(const std::vector<double> &prior, std::vector<double> &log_weights)
{
	bool positive = false;
	for (std::size_t i = 0; i < prior.size(); i++) {
		if (!(prior[i] >= 0.0) || !std::isfinite(prior[i]))
			throw Error(ErrorKind::Internal, "prior weight must be finite and non-negative in every cell");
		positive = positive || prior[i] > 0.0;
		log_weights[i] = std::log(prior[i]);  // -inf for 0: every step keeps it there
	}
	if (!positive)
		throw Error(ErrorKind::Internal, "prior weight must be positive in some cell");
}

void
NormaliseLogWeights(std::vector<double> &log_weights, std::vector<double> &weights)
{
	const double top = *std::max_element(log_weights.begin(), log_weights.end());
	double sum = 0.0;
	for (std::size_t i = 0; i < log_weights.size(); i++) {
		log_weights[i] -= top;
		weights[i] = std::exp(log_weights[i]);
		sum += weights[i];
	}
	for (double &w : weights)
		w /= sum;
}

std::vector<std::size_t>
PassOrder(std::size_t count)
{
	std::size_t bits = 0;
	while ((std::size_t(1) << bits) < count)
		bits++;
	std::vector<std::size_t> order;
	order.reserve(count);
	if (bits == 0) {
		if (count == 1)
			order.push_back(0);
		return order;
	}
	for (std::uint64_t i = 0; i < (std::uint64_t(1) << bits); i++) {
		// i's lowest `bits` bits reversed: the whole word reversed by swapping halves, quarters, ..., then shifted.
		std::uint64_t r = i;
		r = (r >> 32) | (r << 32);
		r = ((r >> 16) & 0x0000FFFF0000FFFFull) | ((r & 0x0000FFFF0000FFFFull) << 16);
		r = ((r >> 8) & 0x00FF00FF00FF00FFull) | ((r & 0x00FF00FF00FF00FFull) << 8);
		r = ((r >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((r & 0x0F0F0F0F0F0F0F0Full) << 4);
		r = ((r >> 2) & 0x3333333333333333ull) | ((r & 0x3333333333333333ull) << 2);
		r = ((r >> 1) & 0x5555555555555555ull) | ((r & 0x5555555555555555ull) << 1);
		r >>= 64 - bits;
		if (r < count)
			order.push_back(std::size_t(r));
	}
	return order;
}

std::vector<double>
PublicPrior(const std::vector<std::int64_t> &public_histogram)
{
	const double cells = double(public_histogram.size());
	double total = 1.0;
	std::uint64_t steps = 0;
	for (std::int64_t c : public_histogram) {
		PollInterrupt(steps);
		total += double(c);
	}
	std::vector<double> prior(public_histogram.size());
	for (std::size_t i = 0; i < prior.size(); i++) {
		PollInterrupt(steps);
		prior[i] = (double(public_histogram[i]) + 1.0 / cells) / total;
	}
	return prior;
}

std::vector<double>
UniformPrior(std::size_t cells)
{
	return std::vector<double>(cells, 1.0 / double(cells));
}

std::vector<double>
ConditionedOnOpenCells(std::vector<double> prior, const std::vector<bool> &closed)
{
	if (closed.empty())
		return prior;
	if (closed.size() != prior.size())
		throw Error(ErrorKind::Internal, "prior: a closed-cell mask of another size");
	double open = 0.0;
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < prior.size(); i++) {
		PollInterrupt(steps);
		if (closed[i])
			prior[i] = 0.0;
		else
			open += prior[i];
	}
	if (!(open > 0.0))
		throw Error(ErrorKind::Internal, "prior: no weight on the open cells");
	for (double &w : prior)
		w /= open;
	return prior;
}

PmwResult
RunPmw(const Workload &workload, const std::vector<std::int64_t> &histogram, const std::vector<double> &prior,
       const PmwParameters &p, RandomBitSource &rng, InterruptCheck interrupted)
{
	if (histogram.size() != workload.CellCount())
		throw Error(ErrorKind::Internal, "histogram and workload disagree on the number of cells");
	std::int64_t n = 0;
	for (std::int64_t h : histogram) {
		if (h < 0)
			throw Error(ErrorKind::Internal, "negative cell count");
		n = CheckedAdd(n, h);
	}
	std::vector<std::int64_t> truth;
	workload.EvaluateCounts(histogram, truth);
	return RunPmwOnCounts(workload, truth, n, prior, p, rng, interrupted);
}

PmwResult
RunPmwOnCounts(const Workload &workload, const std::vector<std::int64_t> &truth, std::int64_t n,
               const std::vector<double> &prior, const PmwParameters &p, RandomBitSource &rng,
               InterruptCheck interrupted)
{
	const std::size_t cells = workload.CellCount();
	if (truth.size() != workload.QueryCount() || prior.size() != cells)
		throw Error(ErrorKind::Internal, "true counts, prior and workload disagree in size");
	if (p.cutoff < 1 || p.max_passes < 1 || !(p.threshold >= 0.0) || !std::isfinite(p.threshold))
		throw Error(ErrorKind::Internal, "invalid PMW parameters");
	if (n == 0)
		throw Error(ErrorKind::DataException, "private table has no rows");

	PmwResult result;
	std::vector<double> log_weights(cells), weights(cells), synthetic;
	LogWeightsOfPrior(prior, log_weights);
	NormaliseLogWeights(log_weights, weights);
	workload.Evaluate(weights, synthetic);

	const double nd = double(n);
	const std::vector<std::size_t> order = PassOrder(workload.QueryCount());
	// The pass reads the true and synthetic answers in pass order, which is all over memory for a large cover:
	// gathered once (the synthetic ones again after each update), the passes read them in sequence.
	std::vector<std::int64_t> truth_in_order(order.size());
	std::vector<double> synthetic_in_order(order.size());
	for (std::size_t j = 0; j < order.size(); j++)
		truth_in_order[j] = truth[order[j]];
	auto gather_synthetic = [&] {
		for (std::size_t j = 0; j < order.size(); j++)
			synthetic_in_order[j] = synthetic[order[j]];
	};
	gather_synthetic();
	const DiscreteLaplaceSampler threshold_sampler(p.threshold_noise), compare_sampler(p.compare_noise);
	std::int64_t threshold_noise = threshold_sampler(rng);
	std::size_t visited = 0;  // across passes, so that small workloads are polled too

	for (int pass = 1; pass <= p.max_passes && !result.cutoff_reached; pass++) {
		result.passes = pass;
		ReportPass(PassKind::PmwPass, pass, p.max_passes);
		const double threshold = p.threshold * std::max(1.0, p.first_pass_factor / std::ldexp(1.0, pass - 1));
		std::int64_t updates_in_pass = 0;
		for (std::size_t j = 0; j < order.size(); j++) {
			if (interrupted && (++visited & 255) == 0 && interrupted())
				throw Error(ErrorKind::Cancelled, "canceling statement due to user request");
			const std::size_t q = order[j];
			const double synthetic_count = synthetic_in_order[j] * nd;
			// Two difference queries, each of sensitivity 1 in counts: "truth exceeds synthetic by more than the
			// threshold" and "synthetic exceeds truth by more than the threshold", compared as integers:
			// s*t + noise - threshold_noise >= ceil(threshold + s*g). The second is skipped when the first fires,
			// an adaptive choice the sparse vector allows.
			int sign = 0;
			for (int s : {+1, -1}) {
				const std::int64_t noise = compare_sampler(rng);
				result.comparisons++;
				const std::int64_t lhs = CheckedAdd(CheckedAdd(s * truth_in_order[j], noise), -threshold_noise);
				if (lhs >= CeilToInt(threshold + s * synthetic_count)) {
					sign = s;
					break;
				}
			}
			if (sign == 0)
				continue;
			// Above threshold: the true gap is at least about the threshold, in the direction of sign. Move the
			// synthetic answer half the threshold that way: never past the truth when the threshold exceeds twice
			// the noise, and each such step lowers KL(data || synthetic) by a fixed amount (docs/mechanisms.md).
			Project(workload, q, (synthetic_count + sign * threshold / 2.0) / nd, nd, log_weights, weights);
			workload.Evaluate(weights, synthetic);
			gather_synthetic();
			result.updates++;
			updates_in_pass++;
			if (p.resample_threshold)
				threshold_noise = threshold_sampler(rng);
			if (result.updates >= p.cutoff) {
				result.cutoff_reached = true;
				break;
			}
		}
		if (updates_in_pass == 0 && threshold <= p.threshold) {
			result.converged = true;
			break;
		}
	}
	result.synthetic = std::move(weights);
	return result;
}

}  // namespace pap::core
