#include "core/identity_mechanism.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"

namespace pap::core {

IdentityPlan
PlanIdentity(const PmwPlanInput &input, std::size_t max_query_cells)
{
	ValidatePlanInput(input);
	if (max_query_cells > input.cells)
		throw Error(ErrorKind::Internal, "a cover query spans more cells than the domain has");
	IdentityPlan plan;
	plan.noise = HistogramNoiseFor(2.0, 2.0, input.epsilon, input.delta);
	// Before the non-negativity step, consistency is the least-squares fit with the known total: every cell moves
	// by the same amount, and a query over k of N cells gets variance k (N - k) / N times one cell's. The worst
	// query with at most max_query_cells cells has k = min(max_query_cells, floor(N / 2)). The clipping to >= 0 is
	// not credited (it lowers the error in practice but has no simple per-query bound).
	const double cells = double(input.cells);
	const double k = std::min(double(max_query_cells), std::floor(cells / 2.0));
	const double variance = k * (cells - k) / cells * plan.noise.Variance();
	plan.predicted_error =
	    std::min(1.0, MaxErrorOverCover(variance, input.cover_size, input.beta) / double(input.private_rows));
	return plan;
}

std::vector<double>
RunIdentity(const std::vector<std::int64_t> &cell_histogram, std::int64_t n, const HistogramNoise &noise,
            RandomBitSource &rng, InterruptCheck interrupted)
{
	RequireHistogramOfRows(cell_histogram, n);
	if (cell_histogram.empty())
		throw Error(ErrorKind::Internal, "identity mechanism needs at least one cell");

	// One draw per cell, in cell order, whatever the counts: the noise is exact and integer, the rest is
	// post-processing in double.
	std::vector<double> noisy(cell_histogram.size());
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < cell_histogram.size(); i++) {
		CountSteps(interrupted, steps);
		noisy[i] = double(cell_histogram[i]) + double(noise.Sample(rng));
	}
	std::vector<double> synthetic = ProjectOntoSimplex(noisy, double(n));
	for (double &x : synthetic)
		x /= double(n);
	return synthetic;
}

}  // namespace pap::core
