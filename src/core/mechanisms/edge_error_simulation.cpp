#include "core/mechanisms/edge_error_simulation.hpp"

#include <algorithm>
#include <cmath>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_01.hpp>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"

namespace pap::core {

namespace {

// The runs for `gaps` gaps per run: the draw budget's share, within the bounds.
int
RunsFor(double gaps)
{
	return int(std::clamp(std::floor(kEdgeErrorDrawBudget / std::max(gaps, 1.0)), double(kEdgeErrorMinRuns),
	                      double(kEdgeErrorMaxRuns)));
}

double
GapsOf(const AxisCut &axis)
{
	if (axis.empty_below.size() != axis.bin_splits.size() || axis.empty_above.size() != axis.bin_splits.size())
		throw Error(ErrorKind::Internal, "edge error simulation: one flag per bin");
	double gaps = 0;
	for (const std::vector<std::int64_t> &splits : axis.bin_splits) {
		if (splits.empty() || splits.front() != 0)
			throw Error(ErrorKind::Internal, "edge error simulation: a bin's splits start at 0");
		gaps += double(splits.back()) + 1.0;
	}
	return gaps;
}

// Per run, the axis's largest error of one bound in private rows, in both modes (SimulatedAxisEdgeErrors' model).
struct RunMaxima {
	std::vector<double> projection, refinement;
};

RunMaxima
AxisRunMaxima(const AxisCut &axis, std::int64_t public_rows, std::int64_t private_rows, int runs, std::uint64_t seed)
{
	if (public_rows <= 0 || private_rows <= 0)
		throw Error(ErrorKind::Internal, "edge error simulation: both tables need rows");
	(void)GapsOf(axis);
	const double q = double(public_rows) / (double(public_rows) + double(private_rows));
	// ln(1 - q): a gap of k private rows or more has probability (1 - q)^k, drawn by inversion.
	const double log_miss = std::log1p(-q);
	boost::random::mt19937_64 generator(seed);
	boost::random::uniform_01<double> uniform;
	const auto draw_gap = [&]() {
		const double u = 1.0 - uniform(generator);  // in (0, 1]
		return std::floor(std::log(u) / log_miss);
	};
	RunMaxima out;
	out.projection.assign(std::size_t(runs), 0.0);
	out.refinement.assign(std::size_t(runs), 0.0);
	std::vector<double> below;  // below[k]: the private rows of the bin's first k gaps
	std::uint64_t steps = 0;
	for (int r = 0; r < runs; r++) {
		double worst_projection = 0, worst_refinement = 0;
		for (std::size_t j = 0; j < axis.bin_splits.size(); j++) {
			const std::vector<std::int64_t> &splits = axis.bin_splits[j];
			const std::int64_t bin = splits.back();
			PollInterrupt(steps, std::uint64_t(bin) + 1);
			below.assign(std::size_t(bin) + 2, 0.0);
			for (std::int64_t g = 0; g <= bin; g++) {
				const bool empty = (g == 0 && axis.empty_below[j]) || (g == bin && bin > 0 && axis.empty_above[j]);
				below[std::size_t(g) + 1] = below[std::size_t(g)] + (empty ? 0.0 : draw_gap());
			}
			const double total = below.back();
			if (bin == 0) {  // a bin without public rows: a bound anywhere in it reads up to its whole gap
				worst_projection = std::max(worst_projection, total);
				worst_refinement = std::max(worst_refinement, total);
				continue;
			}
			for (std::int64_t split : splits) {
				const double low = below[std::size_t(split)], high = below[std::size_t(split) + 1];
				const double answer = double(split) / double(bin) * total;
				worst_refinement = std::max({worst_refinement, std::abs(answer - low), std::abs(answer - high)});
				worst_projection = std::max(worst_projection, 2 * split <= bin ? high : total - low);
			}
		}
		out.projection[std::size_t(r)] = worst_projection;
		out.refinement[std::size_t(r)] = worst_refinement;
	}
	return out;
}

// The order statistic ceil(quantile R) of R values.
double
QuantileOf(std::vector<double> values, double quantile)
{
	if (values.empty() || !(quantile > 0.0 && quantile <= 1.0))
		throw Error(ErrorKind::Internal, "edge error simulation: a quantile in (0, 1] of some runs");
	const std::size_t rank =
	    std::clamp<std::size_t>(std::size_t(std::ceil(quantile * double(values.size()))), 1, values.size());
	auto at = values.begin() + std::ptrdiff_t(rank - 1);
	std::nth_element(values.begin(), at, values.end());
	return *at;
}

}  // namespace

EdgeErrors
SimulatedAxisEdgeErrors(const AxisCut &axis, std::int64_t public_rows, std::int64_t private_rows, double quantile)
{
	return SimulatedEdgeErrors({axis}, {1}, false, public_rows, private_rows, quantile);
}

EdgeErrors
SimulatedEdgeErrors(const std::vector<AxisCut> &axes, const std::vector<int> &edges, bool max_over_axes,
                    std::int64_t public_rows, std::int64_t private_rows, double quantile)
{
	if (axes.size() != edges.size())
		throw Error(ErrorKind::Internal, "edge error simulation: one edge count per axis");
	double gaps = 0;
	for (std::size_t a = 0; a < axes.size(); a++)
		if (edges[a] > 0)
			gaps += GapsOf(axes[a]);
	const int runs = RunsFor(gaps);
	std::vector<double> projection(std::size_t(runs), 0.0), refinement(std::size_t(runs), 0.0);
	for (std::size_t a = 0; a < axes.size(); a++) {
		if (edges[a] <= 0)
			continue;
		const RunMaxima axis = AxisRunMaxima(axes[a], public_rows, private_rows, runs, kEdgeErrorSeed + a);
		const double e = double(edges[a]);
		for (std::size_t r = 0; r < std::size_t(runs); r++) {
			projection[r] = max_over_axes ? std::max(projection[r], e * axis.projection[r])
			                              : projection[r] + e * axis.projection[r];
			refinement[r] = max_over_axes ? std::max(refinement[r], e * axis.refinement[r])
			                              : refinement[r] + e * axis.refinement[r];
		}
	}
	const double n = double(private_rows);
	return EdgeErrors{std::min(1.0, QuantileOf(projection, quantile) / n),
	                  std::min(1.0, QuantileOf(refinement, quantile) / n)};
}

}  // namespace pap::core
