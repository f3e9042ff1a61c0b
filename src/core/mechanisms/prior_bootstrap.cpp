#include "core/mechanisms/prior_bootstrap.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <boost/random/binomial_distribution.hpp>
#include <boost/random/mersenne_twister.hpp>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/mechanisms/error_model.hpp"

namespace pap::core {

int
BootstrapResamples(std::size_t cells, std::size_t queries)
{
	const double per_resample = std::max(1.0, double(cells) + double(queries));
	const double fit = std::floor(kBootstrapCostBudget / per_resample);
	if (fit < double(kBootstrapMinResamples))
		return 0;
	return int(std::min(fit, double(kBootstrapMaxResamples)));
}

double
BootstrapPriorSamplingError(const std::vector<std::int64_t> &public_histogram, const Workload &workload,
                            std::int64_t private_rows, double beta)
{
	if (public_histogram.size() != workload.CellCount() || private_rows <= 0 || !(beta > 0.0 && beta < 1.0))
		throw Error(ErrorKind::Internal, "prior bootstrap: histogram, workload or rows disagree");
	// The occupied cells and their rows: a resample is drawn cell by cell (below), so its cost follows the cells,
	// not the public rows (a public table of millions of rows over a few thousand cells).
	std::vector<std::size_t> occupied;
	std::int64_t rows = 0;
	for (std::size_t cell = 0; cell < public_histogram.size(); cell++) {
		if (public_histogram[cell] < 0)
			throw Error(ErrorKind::Internal, "prior bootstrap: a negative row count");
		if (public_histogram[cell] > 0) {
			occupied.push_back(cell);
			rows += public_histogram[cell];
		}
	}
	if (occupied.empty())
		throw Error(ErrorKind::Internal, "prior bootstrap: no public row");
	const int resamples = BootstrapResamples(workload.CellCount(), workload.QueryCount());
	if (resamples == 0)
		return -1.0;

	const double m = double(rows), n = double(private_rows);
	// The resample's share minus the public share per cell: -public / m, plus 1 / m per draw.
	std::vector<double> base(public_histogram.size());
	for (std::size_t cell = 0; cell < base.size(); cell++)
		base[cell] = -double(public_histogram[cell]) / m;
	std::vector<double> difference = base, answers;
	boost::random::mt19937_64 generator(kBootstrapSeed);
	std::vector<double> sups;
	std::uint64_t steps = 0;
	for (int b = 0; b < resamples; b++) {
		PollInterrupt(steps, base.size() + workload.QueryCount());
		// m draws with replacement from the public rows, as a multinomial over the occupied cells: each cell takes
		// a binomial share of the draws left, with its rows' share of the rows not yet passed (the chain rule of
		// the multinomial), the last cell all that remain.
		std::int64_t draws_left = rows, rows_left = rows;
		for (std::size_t cell : occupied) {
			PollInterrupt(steps);
			const std::int64_t count = public_histogram[cell];
			std::int64_t drawn = draws_left;
			if (count < rows_left && draws_left > 0) {
				boost::random::binomial_distribution<std::int64_t, double> share(draws_left,
				                                                                 double(count) / double(rows_left));
				drawn = share(generator);
			}
			difference[cell] += double(drawn) / m;
			draws_left -= drawn;
			rows_left -= count;
		}
		workload.Evaluate(difference, answers);
		double sup = 0.0;
		for (double a : answers)
			sup = std::max(sup, std::abs(a));
		sups.push_back(sup);
		for (std::size_t cell : occupied)  // only occupied cells moved: reset them
			difference[cell] = base[cell];
	}
	std::sort(sups.begin(), sups.end());
	const double widen = std::sqrt(1.0 + m / n);
	const double rank = std::ceil((1.0 - beta) * double(resamples + 1));
	const double mean = std::accumulate(sups.begin(), sups.end(), 0.0) / double(resamples);
	const double quantile = rank <= double(resamples)
	                            ? widen * sups[std::size_t(rank) - 1]
	                            : widen * mean + std::sqrt(std::log(1.0 / beta) * (1.0 / m + 1.0 / n) / 2.0);
	// Resamples never show what the sample lacks (a sample of one value resamples to itself): never below the
	// private share of a set without public rows (error_model.hpp, PrivateShareBound).
	const double unseen = PrivateShareBound(0.0, m, n, std::log(2.0 / beta));
	return std::min(1.0, std::max(quantile, unseen));
}

}  // namespace pap::core
