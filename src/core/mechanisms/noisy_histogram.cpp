#include "core/mechanisms/noisy_histogram.hpp"

#include <algorithm>
#include <boost/math/special_functions/erf.hpp>
#include <boost/math/tools/minima.hpp>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "core/base/errors.hpp"
#include "core/language/value_format.hpp"
#include "core/mechanisms/pmw_plan.hpp"
#include "core/noise/laplace_sum_law.hpp"

namespace pap::core {

double
HistogramNoise::Variance() const
{
	if (gaussian)
		return variance.value();  // the parameter sigma^2: the discrete Gaussian's variance is slightly below it
	// Discrete Laplace with q = e^{-1/b}: Var = 2q / (1 - q)^2 (about 2 b^2 for large b).
	const double q = std::exp(-1.0 / laplace.value());
	return 2.0 * q / ((1.0 - q) * (1.0 - q));
}

std::int64_t
HistogramNoise::Sample(RandomBitSource &rng) const
{
	return gaussian ? SampleDiscreteGaussian(rng, variance) : SampleDiscreteLaplace(rng, laplace);
}

HistogramNoise
HistogramNoiseFor(double l1, double l2_squared, double epsilon, double delta, double zcdp_budget)
{
	ValidatePrivacyParameters(epsilon, delta);
	if (!(std::isfinite(l1) && l1 > 0.0 && std::isfinite(l2_squared) && l2_squared > 0.0))
		throw Error(ErrorKind::Internal, "histogram sensitivity must be finite and positive");
	// Pure epsilon-DP: discrete Laplace with scale l1 / epsilon (CKS20 Theorem 2 style, scale rounded up).
	const std::optional<HistogramNoise> laplace = UnlessLimitExceeded([&] {
		HistogramNoise noise;
		noise.laplace = ScaleAtLeast(l1 / epsilon);
		return noise;
	});
	if (delta == 0.0) {
		if (!laplace)
			throw Error(ErrorKind::LimitExceeded, "noise for this epsilon is too large to sample exactly", {},
			            "Use a larger epsilon.");
		return *laplace;
	}
	// (epsilon, delta): the discrete Gaussian at rho-zCDP (CKS20 Theorem 14), rho the budget of the tight
	// conversion (CKS20 Corollary 13). The discrete Laplace is also (epsilon, delta)-DP (it is epsilon-DP), so
	// whichever has the smaller variance per draw is used: a choice from (l1, l2^2, epsilon, delta) only, never from
	// the data.
	const std::optional<HistogramNoise> gaussian = UnlessLimitExceeded([&] {
		HistogramNoise noise;
		noise.gaussian = true;
		noise.variance = VarianceAtLeast(l2_squared / (2.0 * ZcdpBudget(epsilon, delta, zcdp_budget)));
		return noise;
	});
	if (!laplace && !gaussian)
		throw Error(ErrorKind::LimitExceeded, "noise for this epsilon is too large to sample exactly", {},
		            "Use a larger epsilon or delta.");
	if (!laplace)
		return *gaussian;
	if (!gaussian)
		return *laplace;
	return gaussian->Variance() < laplace->Variance() ? *gaussian : *laplace;
}

PrivacyUsed
HistogramNoiseUsed(const HistogramNoise &noise, double l1, double l2_squared, double epsilon, double delta)
{
	PrivacyUsed used;
	if (!noise.gaussian) {
		used.epsilon = LaplaceEpsilon(l1, noise.laplace);
		used.accounting = "pure (discrete Laplace)";
		return used;
	}
	const long double rho = (long double)l2_squared * (long double)noise.variance.denominator /
	                        (2.0L * (long double)noise.variance.numerator);
	used.epsilon = epsilon;
	used.rho = double(rho * (1.0L + 1e-15L));
	used.delta = ReportedZcdpDelta(used.rho, epsilon, delta);
	used.accounting = "zCDP (discrete Gaussian, tight conversion)";
	return used;
}

double
MaxErrorOverCover(double variance, std::size_t cover_size, double beta)
{
	// P[|Z| > t] = erfc(t / sqrt 2) = beta / |H~|.
	const double p = std::min(1.0, beta / double(std::max<std::size_t>(cover_size, 1)));
	return std::sqrt(2.0) * boost::math::erfc_inv(p) * std::sqrt(variance);
}

namespace {

// Relative precision of the minimising lambda: the bound is flat at its minimum, so half a double's bits suffice.
constexpr int kChernoffBits = 26;
// Halvings of MaxErrorOverCells' bracket: 2^-60 of the bracket is below double's resolution of the error.
constexpr int kBisections = 60;

void
RequireNoiseShape(double draws, double normal_variance)
{
	if (!(std::isfinite(draws) && draws >= 0.0 && std::isfinite(normal_variance) && normal_variance >= 0.0))
		throw Error(ErrorKind::Internal, "a query's noise needs a finite non-negative number of draws and variance");
}

// The s below which LaplaceCumulant is finite: 1 when a unit draw is among the worst combination, else
// 1 / sqrt(draws) (its one draw has scale b sqrt(draws) < b, and so has every coefficient of a combination whose
// squares sum to draws < 1). Searching only (0, 1) there would leave the bound of a fractional draw far above its
// own (a coefficient 1/4: about 3x).
double
CumulantLimit(double draws)
{
	return draws >= 1.0 ? 1.0 : 1.0 / std::sqrt(draws);
}

// The cumulant generating function, at lambda = s / b (0 <= s < CumulantLimit(draws)), of the worst combination
// MaxErrorOverCover describes: floor(draws) continuous Laplace draws of scale b, one of scale b sqrt(draws -
// floor(draws)), and a normal of variance normal_variance. Continuous Laplace of scale a b: E exp(lambda X) =
// 1 / (1 - a^2 b^2 lambda^2).
double
LaplaceCumulant(double s, double b, double draws, double normal_variance)
{
	const double s2 = s * s, unit_draws = std::floor(draws), rest = draws - unit_draws;
	if (!(s >= 0.0) || (unit_draws > 0.0 && !(s2 < 1.0)) || !(rest * s2 < 1.0))
		return std::numeric_limits<double>::infinity();
	// Without a unit draw s may pass 1, where log1p(-s^2) is NaN: its term is left out, not multiplied by 0.
	const double units = unit_draws > 0.0 ? -unit_draws * std::log1p(-s2) : 0.0;
	return units - std::log1p(-rest * s2) + 0.5 * normal_variance / (b * b) * s2;
}

// min over s in (0, CumulantLimit(draws)) of (L + Psi(s / b)) b / s: the t with 2 exp(-lambda t) E exp(lambda S) =
// e^-L at the best lambda = s / b.
double
LaplaceChernoff(double b, double draws, double normal_variance, double log_inverse_tail)
{
	// Searched as s = u CumulantLimit(draws), u in (0, 1): the same bracket whatever the limit.
	const double limit = CumulantLimit(draws);
	const auto bound = [&](double u) {
		const double s = u * limit;
		return s > 0.0 ? (log_inverse_tail + LaplaceCumulant(s, b, draws, normal_variance)) * b / s
		               : std::numeric_limits<double>::infinity();
	};
	// The bound is unimodal in s: its derivative has the sign of lambda Psi'(lambda) - Psi(lambda) - L, which
	// rises with lambda (its derivative is lambda Psi'' >= 0).
	return boost::math::tools::brent_find_minima(bound, 0.0, 1.0, kChernoffBits).second;
}

}  // namespace

double
NoiseTail(const HistogramNoise &noise, double draws, double normal_variance, double t)
{
	if (!(t > 0.0))
		return 1.0;
	const bool laplace = !noise.gaussian && draws > 0.0 && noise.laplace.value() > 0.0;
	if (!laplace) {
		const double variance = (noise.gaussian ? draws * noise.Variance() : 0.0) + normal_variance;
		return variance > 0.0 ? std::erfc(t / std::sqrt(2.0 * variance)) : 0.0;
	}
	const double b = noise.laplace.value();
	// The exponent -lambda t + Psi(lambda) is convex in lambda: Brent's method finds its minimum.
	const double limit = CumulantLimit(draws);
	const auto exponent = [&](double u) {
		return -u * limit * t / b + LaplaceCumulant(u * limit, b, draws, normal_variance);
	};
	return std::min(1.0,
	                2.0 * std::exp(boost::math::tools::brent_find_minima(exponent, 0.0, 1.0, kChernoffBits).second));
}

double
MaxErrorOverCover(const HistogramNoise &noise, double draws, std::size_t cover_size, double beta,
                  double normal_variance)
{
	RequireNoiseShape(draws, normal_variance);
	if (noise.gaussian)
		return MaxErrorOverCover(draws * noise.Variance() + normal_variance, cover_size, beta);
	const double b = noise.laplace.value();
	if (draws == 0.0 || !(b > 0.0))
		return MaxErrorOverCover(normal_variance, cover_size, beta);
	// Two-sided union bound: P[|S| >= t] <= 2 exp(-lambda t) E exp(lambda S) per query (S symmetric), beta / |H~| in
	// all. A cover of one query at beta >= 1 still pays log 2: the bound never reaches 0 with noise drawn.
	const double queries = double(std::max<std::size_t>(cover_size, 1));
	const double log_inverse_tail = std::max(std::log(2.0 * queries / beta), std::log(2.0));
	return LaplaceChernoff(b, draws, normal_variance, log_inverse_tail);
}

double
MaxErrorOverCells(const HistogramNoise &noise, const std::vector<NoiseGroup> &groups, double beta)
{
	double cells = 0.0;
	for (const NoiseGroup &g : groups) {
		RequireNoiseShape(g.draws, g.normal_variance);
		if (!(std::isfinite(g.count) && g.count >= 0.0 && std::isfinite(g.offset) && g.offset >= 0.0))
			throw Error(ErrorKind::Internal, "a group of cells needs a finite non-negative count and offset");
		cells += g.count;
	}
	if (!(cells >= 1.0))
		throw Error(ErrorKind::Internal, "the union bound needs at least one cell");
	// Bracket: at each group's own bound for beta over all the cells, every group's share is at most count beta /
	// cells, so the sum is at most beta.
	const auto cover = std::size_t(std::ceil(cells));
	double low = 0.0, high = 0.0;
	for (const NoiseGroup &g : groups)
		if (g.count > 0.0)
			high = std::max(high, g.offset + MaxErrorOverCover(noise, g.draws, cover, beta, g.normal_variance));
	const auto failure = [&](double t) {
		double sum = 0.0;
		for (const NoiseGroup &g : groups)
			if (g.count > 0.0)
				sum += g.count * NoiseTail(noise, g.draws, g.normal_variance, t - g.offset);
		return sum;
	};
	for (int i = 0; i < kBisections && high - low > 1e-12 * high; i++) {
		const double middle = 0.5 * (low + high);
		(failure(middle) <= beta ? high : low) = middle;
	}
	return high;
}

namespace {

// The products every exact law of one MaxErrorOverSums may cost in all, tables and bisection (about 20 ms).
constexpr double kMaxExactWork = double(1 << 24);
// The largest magnitude a threshold is held within before it becomes an integer: far beyond every table's radius.
constexpr double kThresholdLimit = 0x1p62;

// The smallest integer x with x >= value up to a relative margin: P[X >= x] is then at least P[X >= value] for an
// integer X, whatever the rounding of the division that produced value.
std::int64_t
IntegerAtOrBelow(double value)
{
	const double lowered = value - 1e-9 * std::max(1.0, std::abs(value));
	return std::int64_t(std::ceil(std::clamp(lowered, -kThresholdLimit, kThresholdLimit)));
}

// An upper bound on P[a X + c Y >= t], X and Y independent symmetric sums (a > 0, c >= 0): the sum over Y's values y
// of P[Y = y] P[X >= (t - c y) / a], plus the mass Y's table leaves out.
double
UpperTailOfCombination(const LaplaceSumLaw &x, double a, const LaplaceSumLaw &y, double c, double t)
{
	double sum = y.Missing();
	for (std::int64_t v = -y.Radius(); v <= y.Radius(); v++)
		sum += y.Pmf(v) * x.UpperSurvival(IntegerAtOrBelow((t - c * double(v)) / a));
	return std::min(1.0, sum);
}

void
RequireDrawSums(const std::vector<DrawSums> &sums)
{
	double queries = 0.0;
	for (const DrawSums &g : sums) {
		const auto coefficient = [](double c) { return std::isfinite(c) && c >= 0.0 && c <= 1.0; };
		if (!(std::isfinite(g.count) && g.count >= 0.0 && g.first >= 0 && g.second >= 0 &&
		      coefficient(g.first_coefficient) && coefficient(g.second_coefficient)))
			throw Error(ErrorKind::Internal,
			            "a sum of draws needs a non-negative count and draws, coefficients in [0, 1]");
		queries += g.count;
	}
	if (!(queries >= 1.0))
		throw Error(ErrorKind::Internal, "the union bound needs at least one query");
}

}  // namespace

double
MaxErrorOverSums(const HistogramNoise &noise, const std::vector<DrawSums> &sums, double beta)
{
	RequireDrawSums(sums);
	// Chernoff at the worst coefficients bounds every combination of these squares (MaxErrorOverCover), and more
	// draws only raise it: the sums are taken in buckets of a sixteenth of an octave of draws, each at its largest,
	// so that a cover of thousands of distinct sums costs a few hundred groups. A bound the exact tails below can
	// only lower.
	std::map<int, NoiseGroup> buckets;
	for (const DrawSums &g : sums) {
		const double draws = g.first_coefficient * g.first_coefficient * double(g.first) +
		                     g.second_coefficient * g.second_coefficient * double(g.second);
		NoiseGroup &bucket =
		    buckets[draws > 0.0 ? int(std::floor(16.0 * std::log2(draws))) : std::numeric_limits<int>::min()];
		bucket.count += g.count;
		bucket.draws = std::max(bucket.draws, draws);
	}
	std::vector<NoiseGroup> groups;
	for (const auto &[key, bucket] : buckets)
		groups.push_back(bucket);
	const double chernoff = MaxErrorOverCells(noise, groups, beta);
	if (noise.gaussian || chernoff == 0.0)
		return chernoff;
	const double b = noise.laplace.value();
	// Each query's noise as a X + c Y, X and Y independent sums of draws (Y the narrower, conditioned on); a part of
	// coefficient 0 or no draw is dropped (an empty sum, the point 0).
	struct Part {
		std::int64_t draws;
		double coefficient;
	};
	std::vector<std::pair<Part, Part>> parts;
	double work = 0.0;
	std::map<std::int64_t, double> table_work;
	for (const DrawSums &g : sums) {
		Part x{g.first_coefficient > 0.0 ? g.first : 0, g.first_coefficient};
		Part y{g.second_coefficient > 0.0 ? g.second : 0, g.second_coefficient};
		for (const Part &part : {x, y})
			if (table_work.count(part.draws) == 0) {
				const double cost = LaplaceSumLaw::WorkFor(b, part.draws, kMaxExactWork - work);
				table_work.emplace(part.draws, cost);
				work += cost;
			}
		if (y.draws > x.draws || x.draws == 0)
			std::swap(x, y);
		// The bisection's work: one pass over Y's table per step.
		work += double(kBisections) * std::sqrt(2.0 * table_work[y.draws]);
		if (!(work <= kMaxExactWork))
			return chernoff;
		parts.emplace_back(x, y);
	}
	std::map<std::int64_t, LaplaceSumLaw> laws;
	for (const auto &[draws, cost] : table_work)
		laws.emplace(draws, LaplaceSumLaw(b, draws, kMaxExactWork));
	const auto failure = [&](double t) {
		double sum = 0.0;
		for (std::size_t i = 0; i < sums.size(); i++) {
			const auto &[x, y] = parts[i];
			if (sums[i].count > 0.0 && x.draws > 0)
				sum += sums[i].count * std::min(1.0, 2.0 * UpperTailOfCombination(laws.at(x.draws), x.coefficient,
				                                                                  laws.at(y.draws), y.coefficient, t));
		}
		return sum;
	};
	// Each table's margins make its tails upper bounds, never below the exact ones; Chernoff's t stays the answer
	// if they add up to more than beta there.
	double low = 0.0, high = chernoff;
	if (failure(high) > beta)
		return chernoff;
	for (int i = 0; i < kBisections && high - low > 1e-12 * high; i++) {
		const double middle = 0.5 * (low + high);
		(failure(middle) <= beta ? high : low) = middle;
	}
	return high;
}

void
CountSteps(InterruptCheck interrupted, std::uint64_t &steps, std::uint64_t count)
{
	const std::uint64_t before = steps >> 16;
	steps += count;
	if (interrupted && (steps >> 16) != before && interrupted())
		throw Error(ErrorKind::Cancelled, "canceling statement due to user request");
}

std::vector<double>
ProjectOntoSimplex(const std::vector<double> &values, double total)
{
	if (values.empty() || !(std::isfinite(total) && total >= 0.0))
		throw Error(ErrorKind::Internal, "simplex projection needs values and a finite total >= 0");
	for (double v : values)
		if (!std::isfinite(v))
			throw Error(ErrorKind::Internal, "simplex projection of a non-finite value");
	std::vector<double> result(values.size(), 0.0);
	if (total == 0.0)
		return result;
	// Duchi, Shalev-Shwartz, Singer & Chandra 2008, Figure 1: the projection is max(v - theta, 0), theta set by
	// the largest k whose k-th largest value u_k stays above (sum of the k largest - total) / k.
	std::vector<double> sorted(values);
	std::sort(sorted.begin(), sorted.end(), std::greater<double>());
	double prefix = 0, theta = 0;
	for (std::size_t k = 0; k < sorted.size(); k++) {
		prefix += sorted[k];
		const double candidate = (prefix - total) / double(k + 1);
		if (sorted[k] - candidate > 0.0)
			theta = candidate;
		else
			break;  // the condition holds for a prefix of k only (Duchi et al., Lemma 2)
	}
	for (std::size_t i = 0; i < values.size(); i++)
		result[i] = std::max(values[i] - theta, 0.0);
	return result;
}

void
RequireHistogramOfRows(const std::vector<std::int64_t> &cell_histogram, std::int64_t n)
{
	if (n <= 0)
		throw Error(ErrorKind::DataException, "private table has no rows");
	std::int64_t sum = 0;
	for (std::int64_t h : cell_histogram) {
		if (h < 0 || h > n - sum)
			throw Error(ErrorKind::Internal, "cell counts are negative or exceed n");
		sum += h;
	}
	if (sum != n)
		throw Error(ErrorKind::Internal, "cell counts do not sum to n");
}

}  // namespace pap::core
