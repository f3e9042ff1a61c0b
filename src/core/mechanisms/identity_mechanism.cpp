#include "core/mechanisms/identity_mechanism.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "core/base/errors.hpp"
#include "core/cells/cell_domain.hpp"
#include "core/mechanisms/mechanism.hpp"
#include "core/mechanisms/public_stand_in.hpp"
#include "core/workloads/product_workload.hpp"

namespace pap::core {

IdentityPlan
PlanIdentity(const PlanInput &input, std::size_t max_query_cells, const std::vector<std::int64_t> &query_cells,
             std::size_t open_cells)
{
	ValidatePlanInput(input);
	if (open_cells > input.cells)
		throw Error(ErrorKind::Internal, "more open cells than the domain has");
	// Only the open cells are measured: they are the histogram the noise and the consistency step see.
	const std::size_t measured = open_cells > 0 ? open_cells : input.cells;
	if (max_query_cells > measured)
		throw Error(ErrorKind::Internal, "a cover query spans more cells than the domain has");
	IdentityPlan plan;
	plan.noise = HistogramNoiseFor(2.0, 2.0, input.epsilon, input.delta, input.rho);
	plan.used = HistogramNoiseUsed(plan.noise, 2.0, 2.0, input.epsilon, input.delta);
	// Before the non-negativity step, consistency is the least-squares fit with the known total: every cell moves
	// by the same amount, and a query over k of N cells gets variance k (N - k) / N times one cell's. The clipping
	// to >= 0 is not credited (it lowers the error in practice but has no simple per-query bound).
	const double cells = double(measured);
	const auto draws = [cells](double k) { return k * (cells - k) / cells; };  // coefficients 1 - k/N and -k/N
	double error = 0.0;
	if (query_cells.empty()) {
		// The worst query with at most max_query_cells cells has k = min(max_query_cells, floor(N / 2)).
		const double k = std::min(double(max_query_cells), std::floor(cells / 2.0));
		error = MaxErrorOverCover(plan.noise, draws(k), input.cover_size, input.beta);
	} else {
		// The listed cover: a union bound with each query's own k and the exact law of its noise (k draws at 1 -
		// k/N, N - k at k/N), the queries of one k sharing a group.
		std::map<std::int64_t, double> queries_per_size;
		for (std::int64_t k : query_cells) {
			if (k < 0 || std::uint64_t(k) > measured)
				throw Error(ErrorKind::Internal, "a cover query spans more cells than the domain has");
			queries_per_size[k] += 1.0;
		}
		const auto n_cells = std::int64_t(measured);
		std::vector<DrawSums> groups;
		for (const auto &[k, count] : queries_per_size)
			groups.push_back({count, k, 1.0 - double(k) / cells, n_cells - k, double(k) / cells});
		error = MaxErrorOverSums(plan.noise, groups, input.beta);
	}
	plan.predicted_error = std::min(1.0, error / double(input.private_rows));
	return plan;
}

namespace {

// E[(c + Z)_+] for Z of mean 0 with the noise's variance: Laplace of scale b = sqrt(variance / 2), or Gaussian.
double
ExpectedPositivePart(double c, const HistogramNoise &noise, double variance)
{
	// No spread at all (a huge epsilon rounds the variance to 0): the positive part itself, without 0/0.
	if (!(variance > 0.0))
		return std::max(c, 0.0);
	if (noise.gaussian) {
		const double sigma = std::sqrt(variance);
		const double z = c / sigma;
		return c * 0.5 * std::erfc(-z / std::sqrt(2.0)) + sigma * std::exp(-0.5 * z * z) / std::sqrt(2.0 * M_PI);
	}
	const double b = std::sqrt(variance / 2.0);
	return c >= 0.0 ? c + 0.5 * b * std::exp(-c / b) : 0.5 * b * std::exp(c / b);
}

// The bracket's smallest half-width (counts) and its most doublings: 2^1100 exceeds every finite double, so the
// bound is never what stops a bracket on finite counts.
constexpr double kMinimumBracket = 1e-3;
constexpr int kMaxDoublings = 1100;
// Cells between two CountSteps calls: the poll itself stays every 2^16 cells, the call overhead negligible.
constexpr std::size_t kPollStride = 4096;

// Per cell, the expected move of the projection (expected projected count - stand-in count), fraction of n. A closed
// cell (closed: empty, or one entry per cell) is not measured: it moves by 0 and takes no part in tau. The stand-in's
// mass there (public rows with a NULL where the private column is NOT NULL) is no private row's: the open cells'
// shares are taken relative to their own total, the stand-in conditioned on the cells a private row can hold.
std::vector<double>
ProjectionShift(const std::vector<double> &stand_in, std::int64_t n, const HistogramNoise &noise,
                InterruptCheck interrupted, const std::vector<bool> &closed)
{
	if (!closed.empty() && closed.size() != stand_in.size())
		throw Error(ErrorKind::Internal, "identity bias: a closed-cell mask of another size");
	const auto is_closed = [&closed](std::size_t i) { return !closed.empty() && closed[i]; };
	const double total = double(n), variance = noise.Variance();
	// Rescaled only where a closed cell has stand-in mass (a NOT NULL column's public NULLs): closed cells without
	// any (a boolean's or an enum's "other" bin) leave the scale at n exactly, as before, not n over a sum near 1.
	double open_share = 0.0, closed_share = 0.0;
	for (std::size_t i = 0; i < stand_in.size(); i++)
		(is_closed(i) ? closed_share : open_share) += stand_in[i];
	const double scale = closed_share > 0.0 && open_share > 0.0 ? total / open_share : total;
	std::vector<double> counts;  // the open cells'
	counts.reserve(stand_in.size());
	for (std::size_t i = 0; i < stand_in.size(); i++)
		if (!is_closed(i))
			counts.push_back(scale * stand_in[i]);
	std::uint64_t steps = 0;
	auto expected_total = [&](double tau) {
		double sum = 0.0;
		for (std::size_t start = 0; start < counts.size(); start += kPollStride) {
			const std::size_t end = std::min(counts.size(), start + kPollStride);
			CountSteps(interrupted, steps, end - start);
			for (std::size_t i = start; i < end; i++)
				sum += ExpectedPositivePart(counts[i] - tau, noise, variance);
		}
		return sum;
	};
	// The expected total falls as tau rises; bracket the tau where it equals n, then bisect. tau <= 0 keeps the
	// total at n or above (Jensen), tau >= the largest count + a few standard deviations takes it below, so the
	// doublings stop long before their bound; the bound and the non-zero start make every input terminate
	// (a variance of 0 or a tiny one would otherwise leave the bracket stuck at 0).
	const double spread = std::max(std::sqrt(variance), kMinimumBracket);
	double lo = -spread, hi = spread;
	for (int i = 0; i < kMaxDoublings && expected_total(lo) < total; i++)
		lo *= 2.0;
	for (int i = 0; i < kMaxDoublings && expected_total(hi) > total; i++)
		hi *= 2.0;
	for (int i = 0; i < 100; i++) {
		const double mid = 0.5 * (lo + hi);
		(expected_total(mid) > total ? lo : hi) = mid;
	}
	std::vector<double> shift(stand_in.size(), 0.0);
	for (std::size_t i = 0, open = 0; i < stand_in.size(); i++)
		if (!is_closed(i)) {
			shift[i] = (ExpectedPositivePart(counts[open] - hi, noise, variance) - counts[open]) / total;
			open++;
		}
	CountSteps(interrupted, steps, counts.size());
	return shift;
}

}  // namespace

double
IdentityProjectionBias(const std::vector<double> &stand_in, std::int64_t n, const HistogramNoise &noise,
                       const Workload &workload, InterruptCheck interrupted, const std::vector<bool> &closed)
{
	if (stand_in.size() != workload.CellCount() || n <= 0)
		throw Error(ErrorKind::Internal, "identity bias: stand-in and workload disagree");
	const std::vector<double> shift = ProjectionShift(stand_in, n, noise, interrupted, closed);
	std::vector<double> answers;
	workload.Evaluate(shift, answers);
	double worst = 0.0;
	for (double a : answers)
		worst = std::max(worst, std::abs(a));
	return std::min(1.0, worst);
}

double
IdentityProjectionBiasOfAnySet(const std::vector<double> &stand_in, std::int64_t n, const HistogramNoise &noise,
                               InterruptCheck interrupted, const std::vector<bool> &closed)
{
	if (stand_in.empty() || n <= 0)
		throw Error(ErrorKind::Internal, "identity bias: no cell or no row");
	// The set of cells with the largest |total shift| holds all the positive shifts, or all the negative ones.
	double up = 0.0, down = 0.0;
	for (double x : ProjectionShift(stand_in, n, noise, interrupted, closed))
		(x > 0.0 ? up : down) += std::abs(x);
	return std::min(1.0, std::max(up, down));
}

double
IdentityProjectionBiasOfAnyCell(const std::vector<double> &stand_in, std::int64_t n, const HistogramNoise &noise,
                                InterruptCheck interrupted)
{
	if (stand_in.empty() || n <= 0)
		throw Error(ErrorKind::Internal, "identity bias: no cell or no row");
	double worst = 0.0;
	for (double x : ProjectionShift(stand_in, n, noise, interrupted, {}))
		worst = std::max(worst, std::abs(x));
	return std::min(1.0, worst);
}

double
IdentityProjectionBiasOnCover(const PlanContext &context, const HistogramNoise &noise, const std::vector<bool> &closed)
{
	const std::vector<double> stand_in = PublicStandIn(context.public_histogram(), *context.domain);
	const std::int64_t n = context.input.private_rows;
	return context.cover != nullptr
	           ? IdentityProjectionBias(stand_in, n, noise, ProductWorkload(*context.domain, *context.cover),
	                                    CurrentInterruptCheck(), closed)
	           : IdentityProjectionBiasOfAnySet(stand_in, n, noise, CurrentInterruptCheck(), closed);
}

std::vector<double>
RunIdentity(const std::vector<std::int64_t> &cell_histogram, std::int64_t n, const HistogramNoise &noise,
            RandomBitSource &rng, InterruptCheck interrupted, const std::vector<bool> *closed)
{
	RequireHistogramOfRows(cell_histogram, n);
	if (cell_histogram.empty())
		throw Error(ErrorKind::Internal, "identity mechanism needs at least one cell");
	if (closed != nullptr && closed->size() != cell_histogram.size())
		throw Error(ErrorKind::Internal, "identity mechanism: a closed-cell mask of another size");
	const auto is_closed = [closed](std::size_t i) { return closed != nullptr && (*closed)[i]; };

	// One draw per open cell, in cell order, whatever the counts: the noise is exact and integer, the rest is
	// post-processing in double. A closed cell is never read: its output is 0 whatever the table holds, so the
	// open cells' histogram (sensitivity at most the whole one's) is all the run measures.
	std::vector<double> noisy;
	noisy.reserve(cell_histogram.size());
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < cell_histogram.size(); i++) {
		if (is_closed(i))
			continue;
		CountSteps(interrupted, steps);
		noisy.push_back(double(cell_histogram[i]) + double(noise.Sample(rng)));
	}
	if (noisy.empty())
		throw Error(ErrorKind::Internal, "identity mechanism needs at least one open cell");
	const std::vector<double> projected = ProjectOntoSimplex(noisy, double(n));
	std::vector<double> synthetic(cell_histogram.size(), 0.0);
	for (std::size_t i = 0, open = 0; i < synthetic.size(); i++)
		if (!is_closed(i))
			synthetic[i] = projected[open++] / double(n);
	return synthetic;
}

namespace {

// Identity behind the Mechanism interface (docs/mechanisms.md §9).
class Identity final : public Mechanism {
public:
	const char *
	Name() const override
	{
		return "identity";
	}

	MechanismPlan
	Plan(const PlanContext &context) const override
	{
		const std::size_t open_cells = context.input.cells - std::size_t(std::count(context.closed_cells.begin(),
		                                                                            context.closed_cells.end(), true));
		const std::optional<IdentityPlan> planned = UnlessLimitExceeded([&] {
			// An unlisted cover's widest query is sized in all cells: at most the open ones are measured.
			return PlanIdentity(context.input, std::min(context.max_query_cells, open_cells), context.cover_query_cells,
			                    open_cells);
		});
		if (!planned)
			return NotApplicable(kNoiseTooLarge);
		// The non-negativity step is biased where most cells are (nearly) empty: the prediction adds that bias,
		// computed on the public histogram (public information) standing in for the private one.
		// Without the cover's list (too large to list), the bias is bounded over every set of cells.
		IdentityPlan identity = *planned;
		const double bias = IdentityProjectionBiasOnCover(context, identity.noise, context.closed_cells);
		identity.predicted_error = std::min(1.0, identity.predicted_error + bias);
		MechanismPlan plan;
		plan.applies = true;
		SetErrorParts(plan, context, identity.predicted_error, 0.0, false);
		plan.used = identity.used;
		plan.parameters = MechanismParameters::Of(identity);
		return plan;
	}

	MechanismRun
	Run(const MechanismParameters &parameters, const RunInput &in) const override
	{
		const IdentityPlan plan = parameters.As<IdentityPlan>();
		MechanismRun run;
		run.synthetic = RunIdentity(*in.cell_histogram, in.rows, plan.noise, *in.rng, in.interrupted, in.closed_cells);
		return run;
	}
};

}  // namespace

const Mechanism &
IdentityMechanism()
{
	static const Identity mechanism;
	return mechanism;
}

}  // namespace pap::core
