#include "core/noise/laplace_sum_law.hpp"

#include <algorithm>
#include <boost/math/distributions/negative_binomial.hpp>
#include <cmath>
#include <utility>

#include "core/base/errors.hpp"

namespace pap::core {

namespace {

// Mass of each negative binomial left out on each side: the table's missing mass is about 4 times it, far below the
// per-query tails the planners ask for (beta over at most 10^9 cover queries).
constexpr double kLeftOut = 1e-18;
// The tabulated sums run over up to 10^5 positive terms: their relative rounding error is far below this margin.
constexpr double kRelativeMargin = 1e-9;
// The absolute rounding error of 1 minus the tabulated mass.
constexpr double kMissingMargin = 1e-15;

using NegativeBinomial = boost::math::negative_binomial_distribution<double>;

// The negative binomials' support [low, high] outside which each has mass below kLeftOut (on each side).
std::pair<std::int64_t, std::int64_t>
Spread(double b, std::int64_t draws)
{
	if (!(std::isfinite(b) && b > 0.0) || draws < 0)
		throw Error(ErrorKind::Internal, "a sum of discrete Laplace draws needs a finite scale > 0 and draws >= 0");
	if (draws == 0)
		return {0, 0};
	const NegativeBinomial nb(double(draws), -std::expm1(-1.0 / b));
	return {std::int64_t(std::floor(quantile(nb, kLeftOut))),
	        std::int64_t(std::ceil(quantile(complement(nb, kLeftOut))))};
}

}  // namespace

double
LaplaceSumLaw::WorkFor(double b, std::int64_t draws)
{
	const auto [low, high] = Spread(b, draws);
	const double width = double(high - low + 1);
	return 0.5 * width * width;
}

LaplaceSumLaw::LaplaceSumLaw(double b, std::int64_t draws, double max_work)
{
	if (WorkFor(b, draws) > max_work)
		throw Error(ErrorKind::LimitExceeded, "the exact law of this sum of draws is too large to tabulate");
	const auto [low, high] = Spread(b, draws);
	std::vector<double> nb_pmf;
	if (draws == 0) {
		nb_pmf.assign(1, 1.0);
	} else {
		const NegativeBinomial nb(double(draws), -std::expm1(-1.0 / b));
		for (std::int64_t j = low; j <= high; j++)
			nb_pmf.push_back(pdf(nb, double(j)));
	}
	// P[S = d] = sum over j of P[Y = j] P[X = j + d], both j and j + d within the spread.
	const std::size_t width = nb_pmf.size();
	pmf_.assign(width, 0.0);
	for (std::size_t d = 0; d < width; d++) {
		double sum = 0.0;
		for (std::size_t j = 0; j + d < width; j++)
			sum += nb_pmf[j] * nb_pmf[j + d];
		pmf_[d] = sum;
	}
	survival_.assign(width + 1, 0.0);
	for (std::size_t d = width; d-- > 0;)
		survival_[d] = survival_[d + 1] + pmf_[d];
	const double tabulated = 2.0 * survival_[0] - pmf_[0];
	missing_ = std::max(0.0, 1.0 - tabulated) + kMissingMargin;
}

double
LaplaceSumLaw::Pmf(std::int64_t d) const
{
	const std::uint64_t magnitude = d < 0 ? std::uint64_t(0) - std::uint64_t(d) : std::uint64_t(d);
	return magnitude < pmf_.size() ? pmf_[magnitude] : 0.0;
}

double
LaplaceSumLaw::UpperSurvival(std::int64_t x) const
{
	const auto tabulated = [this](std::int64_t from) {  // from >= 1
		return std::uint64_t(from) < survival_.size() ? survival_[std::size_t(from)] : 0.0;
	};
	if (x > 0)
		return std::min(1.0, tabulated(x) * (1.0 + kRelativeMargin) + missing_);
	// P[S >= x] = 1 - P[S <= x - 1] = 1 - P[S >= 1 - x] (S is symmetric); the table's mass is a lower bound.
	if (x <= -Radius() - 1)
		return 1.0;
	return std::min(1.0, 1.0 - tabulated(1 - x) * (1.0 - kRelativeMargin));
}

}  // namespace pap::core
