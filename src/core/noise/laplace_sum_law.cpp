#include "core/noise/laplace_sum_law.hpp"

#include <algorithm>
#include <boost/math/distributions/negative_binomial.hpp>
#include <cmath>
#include <limits>

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

// The pmf of NB(draws, 1 - q) over the span outside which each side holds less than kLeftOut: Boost's pmf at the
// mode, then the ratios P[j + 1] / P[j] = q (j + m) / (j + 1) outwards, one product a term. Past the mode each ratio
// is below 1 and falls further out, so a side's mass beyond a term g of ratio r < 1 is at most g r / (1 - r). Empty
// when the span would be wider than max_width (its standard deviation already is, or the walk passes it).
std::vector<double>
NegativeBinomialSpan(double b, std::int64_t draws, double max_width)
{
	if (!(std::isfinite(b) && b > 0.0) || draws < 0)
		throw Error(ErrorKind::Internal, "a sum of discrete Laplace draws needs a finite scale > 0 and draws >= 0");
	if (draws == 0)
		return {1.0};
	const double q = std::exp(-1.0 / b), m = double(draws), p = -std::expm1(-1.0 / b);
	if (!(std::sqrt(m * q) / p <= max_width))
		return {};
	const auto mode = std::int64_t(std::floor(q * (m - 1.0) / p));
	const double at_mode = pdf(boost::math::negative_binomial_distribution<double>(m, p), double(mode));
	std::vector<double> lower;  // P[mode - 1], P[mode - 2], ...
	for (std::int64_t j = mode; j > 0;) {
		const double ratio = double(j) / (q * (double(j) - 1.0 + m));  // P[j - 1] / P[j]
		const double next = (lower.empty() ? at_mode : lower.back()) * ratio;
		lower.push_back(next);
		j--;
		if (ratio < 1.0 && next * ratio / (1.0 - ratio) < kLeftOut)
			break;
		if (double(lower.size()) > max_width)
			return {};
	}
	std::vector<double> span(lower.rbegin(), lower.rend());
	span.push_back(at_mode);
	for (std::int64_t j = mode;; j++) {
		const double ratio = q * (double(j) + m) / (double(j) + 1.0);  // P[j + 1] / P[j]
		span.push_back(span.back() * ratio);
		if (ratio < 1.0 && span.back() * ratio / (1.0 - ratio) < kLeftOut)
			break;
		if (double(span.size()) > max_width)
			return {};
	}
	return span;
}

// The widest span a table of max_work products allows (a table costs half the span's square).
double
WidthWithin(double max_work)
{
	return std::sqrt(2.0 * std::max(max_work, 0.0));
}

}  // namespace

double
LaplaceSumLaw::WorkFor(double b, std::int64_t draws, double max_work)
{
	const std::vector<double> span = NegativeBinomialSpan(b, draws, WidthWithin(max_work));
	if (span.empty())
		return std::numeric_limits<double>::infinity();
	return 0.5 * double(span.size()) * double(span.size());
}

LaplaceSumLaw::LaplaceSumLaw(double b, std::int64_t draws, double max_work)
{
	const std::vector<double> nb_pmf = NegativeBinomialSpan(b, draws, WidthWithin(max_work));
	const std::size_t width = nb_pmf.size();
	if (width == 0 || 0.5 * double(width) * double(width) > max_work)
		throw Error(ErrorKind::LimitExceeded, "the exact law of this sum of draws is too large to tabulate");
	// P[S = d] = sum over j of P[Y = j] P[X = j + d], both j and j + d within the span.
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
