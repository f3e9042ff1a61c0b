#include "core/mechanisms/edge_error_simulation.hpp"

#include <algorithm>
#include <cmath>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_01.hpp>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"

namespace pap::core {

namespace {

// The runs an axis of `gaps` gaps gets: the draw budget's share, odd, within the bounds.
int
RunsFor(double gaps)
{
	int runs = int(std::clamp(std::floor(kEdgeErrorDrawBudget / std::max(gaps, 1.0)), double(kEdgeErrorMinRuns),
	                          double(kEdgeErrorMaxRuns)));
	return runs % 2 == 1 ? runs : runs - 1;
}

}  // namespace

EdgeErrors
SimulatedAxisEdgeErrors(const AxisCut &axis, std::int64_t public_rows, std::int64_t private_rows)
{
	if (public_rows <= 0 || private_rows <= 0)
		throw Error(ErrorKind::Internal, "edge error simulation: both tables need rows");
	if (axis.empty_below.size() != axis.bin_splits.size() || axis.empty_above.size() != axis.bin_splits.size())
		throw Error(ErrorKind::Internal, "edge error simulation: one flag per bin");
	double gaps = 0;
	for (const std::vector<std::int64_t> &splits : axis.bin_splits) {
		if (splits.empty() || splits.front() != 0)
			throw Error(ErrorKind::Internal, "edge error simulation: a bin's splits start at 0");
		gaps += double(splits.back()) + 1.0;
	}
	const double q = double(public_rows) / (double(public_rows) + double(private_rows));
	// ln(1 - q): a gap of k private rows or more has probability (1 - q)^k, drawn by inversion.
	const double log_miss = std::log1p(-q);
	boost::random::mt19937_64 generator(kEdgeErrorSeed);
	boost::random::uniform_01<double> uniform;
	const auto draw_gap = [&]() {
		const double u = 1.0 - uniform(generator);  // in (0, 1]
		return std::floor(std::log(u) / log_miss);
	};
	const int runs = RunsFor(gaps);
	std::vector<double> projection(std::size_t(runs), 0.0), refinement(std::size_t(runs), 0.0);
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
		projection[std::size_t(r)] = worst_projection;
		refinement[std::size_t(r)] = worst_refinement;
	}
	const auto median = [](std::vector<double> &values) {
		auto middle = values.begin() + std::ptrdiff_t(values.size() / 2);
		std::nth_element(values.begin(), middle, values.end());
		return *middle;
	};
	const double n = double(private_rows);
	return EdgeErrors{std::min(1.0, median(projection) / n), std::min(1.0, median(refinement) / n)};
}

EdgeErrors
SimulatedEdgeErrors(const std::vector<AxisCut> &axes, const std::vector<int> &edges, bool max_over_axes,
                    std::int64_t public_rows, std::int64_t private_rows)
{
	if (axes.size() != edges.size())
		throw Error(ErrorKind::Internal, "edge error simulation: one edge count per axis");
	EdgeErrors sum, largest;
	for (std::size_t a = 0; a < axes.size(); a++) {
		if (edges[a] <= 0)
			continue;
		const EdgeErrors axis = SimulatedAxisEdgeErrors(axes[a], public_rows, private_rows);
		const double e = double(edges[a]);
		sum.projection += e * axis.projection;
		sum.refinement += e * axis.refinement;
		largest.projection = std::max(largest.projection, e * axis.projection);
		largest.refinement = std::max(largest.refinement, e * axis.refinement);
	}
	const EdgeErrors &chosen = max_over_axes ? largest : sum;
	return EdgeErrors{std::min(1.0, chosen.projection), std::min(1.0, chosen.refinement)};
}

}  // namespace pap::core
