#include "core/noise/discrete_gaussian.hpp"

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/base/errors.hpp"
#include "core/noise/discrete_laplace.hpp"
#include "core/noise/grid_round_up.hpp"

namespace pap::core {

namespace {

using boost::multiprecision::cpp_int;

// Variances are numerator / 2^20 (before reduction), numerator <= 2^62: exact as a double, and it keeps the
// Laplace proposal scale t (<= 2^21 + 1) and the big-integer products small. The sampler itself accepts any
// uint64 fraction: cpp_int cannot overflow, and t <= 2^32 + 1 always.
constexpr int kVarianceDenominatorBits = 20;
constexpr std::uint64_t kMaxVarianceNumerator = std::uint64_t(1) << 62;

// Relative round-up for the double-valued accounting helpers: far above their rounding error (a few ulps), far
// below anything that matters for a budget.
constexpr double kAccountingMargin = 1e-12;

// Largest s with s * s <= q. s < 2^32 always, so every square below fits in 64 bits.
std::uint64_t
FloorSqrt(std::uint64_t q)
{
	std::uint64_t lo = 0, hi = std::uint64_t(1) << 32;  // invariant: lo^2 <= q < hi^2
	while (hi - lo > 1) {
		const std::uint64_t mid = lo + (hi - lo) / 2;
		if (mid * mid <= q)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

// Uniform integer in {0, ..., m - 1} for a big m >= 1. Up to 2^64 - 1 this is exactly SampleUniformBelow (same
// draws, so small exponents consume randomness as the discrete Laplace helpers do); above, rejection on
// ceil(bits/64) fresh words with the excess top bits masked off: accepts with probability > 1/2, no bias.
cpp_int
UniformBelowBig(RandomBitSource &rng, const cpp_int &m)
{
	if (m <= 0)
		throw Error(ErrorKind::Internal, "uniform sample below zero requested");
	if (m <= std::numeric_limits<std::uint64_t>::max())
		return cpp_int(SampleUniformBelow(rng, m.convert_to<std::uint64_t>()));
	const unsigned bits = boost::multiprecision::msb(m) + 1;
	const unsigned words = (bits + 63) / 64;
	const unsigned top_bits = bits - 64 * (words - 1);
	for (;;) {
		cpp_int r = 0;
		for (unsigned i = 0; i < words; ++i) {
			std::uint64_t word = rng();
			if (i == 0 && top_bits < 64)
				word &= (std::uint64_t(1) << top_bits) - 1;
			r <<= 64;
			r |= word;
		}
		if (r < m)
			return r;
	}
}

// Bernoulli(exp(-n/d)) for 0 <= n <= d (CKS20 Algorithm 1), as BernoulliExp1 in discrete_laplace.cpp: the trial
// "Bernoulli(g/k)" is drawn as Bernoulli(g) AND Bernoulli(1/k).
bool
BernoulliExp1Big(RandomBitSource &rng, const cpp_int &n, const cpp_int &d)
{
	std::uint64_t k = 1;
	while (UniformBelowBig(rng, d) < n && SampleUniformBelow(rng, k) < 1) {
		if (k == std::numeric_limits<std::uint64_t>::max())
			throw Error(ErrorKind::Internal, "integer overflow in the discrete Gaussian sampler");
		++k;
	}
	return (k & 1) == 1;
}

// Bernoulli(exp(-n/d)) for any n >= 0, d >= 1: peel off whole units as SampleBernoulliExp does. The loop runs
// once per success of a Bernoulli(e^{-1}), so a huge n/d costs no more than a small one.
bool
BernoulliExpBig(RandomBitSource &rng, cpp_int n, const cpp_int &d)
{
	if (d <= 0 || n < 0)
		throw Error(ErrorKind::Internal, "Bernoulli(exp(-g)) requested with a bad fraction");
	while (n > d) {
		if (!SampleBernoulliExp(rng, 1, 1))
			return false;
		n -= d;
	}
	return BernoulliExp1Big(rng, n, d);
}

void
CheckVarianceDouble(double sigma2)
{
	if (!(sigma2 > 0) || !std::isfinite(sigma2))
		throw Error(ErrorKind::InvalidParameter, "noise variance must be finite and positive");
}

double
RoundUp(double x)
{
	return x * (1 + kAccountingMargin);
}

}  // namespace

RationalVariance
VarianceAtLeast(double sigma2)
{
	CheckVarianceDouble(sigma2);
	const GridFraction f = RoundUpOnGrid(sigma2, kVarianceDenominatorBits, kMaxVarianceNumerator,
	                                     "noise variance is too large to sample exactly",
	                                     "The largest supported variance is about 4.4e12 (sigma about 2.1e6).");
	return RationalVariance{f.numerator, f.denominator};
}

std::uint64_t
DiscreteGaussianLaplaceScale(RationalVariance variance)
{
	if (variance.numerator == 0 || variance.denominator == 0)
		throw Error(ErrorKind::Internal, "discrete Gaussian variance must be a positive fraction");
	// s^2 <= N/D  <=>  s^2 <= floor(N/D) for integer s, so the floor of the fraction loses nothing.
	return FloorSqrt(variance.numerator / variance.denominator) + 1;
}

std::int64_t
SampleDiscreteGaussian(RandomBitSource &rng, RationalVariance variance)
{
	if (variance.numerator == 0 || variance.denominator == 0)
		throw Error(ErrorKind::Internal, "discrete Gaussian variance must be a positive fraction");
	// Lowest terms: equal variances give identical draws, whatever fraction they arrive as.
	const std::uint64_t reduce = std::gcd(variance.numerator, variance.denominator);
	const std::uint64_t n_var = variance.numerator / reduce;
	const std::uint64_t d_var = variance.denominator / reduce;
	const std::uint64_t t = DiscreteGaussianLaplaceScale(RationalVariance{n_var, d_var});
	const DiscreteLaplaceSampler proposal(RationalScale{t, 1});

	// Accept y with probability exp(-(|y| - sigma^2/t)^2 / (2 sigma^2)). With sigma^2 = N/D this exponent is
	// (|y| D t - N)^2 / (2 N D t^2): both sides exact big integers, so nothing can overflow or round.
	const cpp_int N = n_var, D = d_var, T = t;
	const cpp_int denominator = 2 * N * D * T * T;
	const cpp_int dt = D * T;
	for (;;) {
		const std::int64_t y = proposal(rng);
		// Magnitude via unsigned negation: no undefined behaviour even for INT64_MIN (which the sampler never returns).
		const std::uint64_t magnitude = y < 0 ? std::uint64_t(0) - std::uint64_t(y) : std::uint64_t(y);
		const cpp_int offset = cpp_int(magnitude) * dt - N;
		if (BernoulliExpBig(rng, offset * offset, denominator))
			return y;
	}
}

double
DiscreteGaussianPmf(std::int64_t x, double sigma2)
{
	CheckVarianceDouble(sigma2);
	// Normaliser Z = sum_k exp(-k^2 / (2 sigma2)). Directly it needs ~sigma terms; after Poisson summation,
	// Z = sqrt(2 pi sigma2) * sum_m exp(-2 pi^2 sigma2 m^2), whose terms fall below 1e-8 from m = 1 once
	// sigma2 > 1. Each form is used where it converges in a handful of terms.
	double z;
	if (sigma2 <= 1) {
		z = 1;
		for (double k = 1;; k += 1) {
			const double term = 2 * std::exp(-k * k / (2 * sigma2));
			z += term;
			if (term < 1e-18 * z)
				break;
		}
	} else {
		const double pi = std::acos(-1.0);
		double sum = 1;
		for (double m = 1;; m += 1) {
			const double term = 2 * std::exp(-2 * pi * pi * sigma2 * m * m);
			sum += term;
			if (term < 1e-18 * sum)
				break;
		}
		z = std::sqrt(2 * pi * sigma2) * sum;
	}
	const double dx = static_cast<double>(x);
	return std::exp(-dx * dx / (2 * sigma2)) / z;
}

double
DiscreteGaussianRho(double sensitivity, double sigma2)
{
	if (!(sensitivity >= 0) || !std::isfinite(sensitivity))
		throw Error(ErrorKind::InvalidParameter, "sensitivity must be finite and non-negative");
	CheckVarianceDouble(sigma2);
	return RoundUp(sensitivity * sensitivity / (2 * sigma2));
}

double
ZcdpToApproxEpsilon(double rho, double delta)
{
	if (!(rho >= 0))
		throw Error(ErrorKind::InvalidParameter, "rho must be non-negative");
	if (!(delta > 0 && delta <= 1))
		throw Error(ErrorKind::InvalidParameter, "delta must be in (0, 1]");
	return RoundUp(rho + 2 * std::sqrt(rho * std::log(1 / delta)));
}

namespace {

// ln of the CKS20 Corollary 13 bound at one alpha > 1: (alpha-1)(alpha rho - eps) + alpha ln(1 - 1/alpha) -
// ln(alpha - 1), in long double (64-bit significand), plus a margin of 1e-15 times the sum of the terms'
// magnitudes. alpha - 1 is exact (alpha is a double), so each term and the sum carry a few long-double ulps (~5e-20
// relative to the largest term) of rounding, and the margin, 10^4 times that, makes the result an upper bound of
// the exact value at this alpha. Below alpha = 2 the last two terms are written (alpha-1) ln(alpha-1) - alpha
// ln(alpha): log1p(-1/alpha) magnifies the rounding of -1/alpha by 1/(alpha - 1), which near alpha = 1 (where the
// search goes once rho - eps passes about 17) exceeded the margin, and the bound fell below the exact value (a
// review's counterexample, ZcdpDelta(18, 0.1)); above 2 that factor is at most 2, and the terms of the other form
// grow like alpha ln(alpha) and cancel, which would make the margin loose.
long double
LogCorollary13Upper(double alpha, double rho, double epsilon)
{
	const long double a = alpha, a1 = a - 1.0L;
	const long double t1 = a1 * a * rho, t2 = a1 * epsilon;
	const bool near_one = a < 2.0L;
	const long double t3 = near_one ? a1 * logl(a1) : a * log1pl(-1.0L / a);
	const long double t4 = near_one ? a * logl(a) : logl(a1);
	return t1 - t2 + t3 - t4 + 1e-15L * (fabsl(t1) + fabsl(t2) + fabsl(t3) + fabsl(t4));
}

// The last (epsilon, delta) -> rho of LargestZcdpRho: planners ask for the same budget once per candidate.
struct RhoCache {
	double epsilon = -1, delta = -1, rho = 0;
};
thread_local RhoCache rho_cache;

}  // namespace

double
SimpleZcdpRho(double epsilon, double delta)
{
	// rho + 2 sqrt(rho L) = epsilon, L = ln(1/delta): sqrt(rho) = sqrt(L + epsilon) - sqrt(L), written as
	// epsilon / (sqrt(L + epsilon) + sqrt(L)) to avoid cancellation for large L; then shrunk until the
	// conversion (which rounds up) agrees.
	const double L = std::log(1.0 / delta);
	const double root = epsilon / (std::sqrt(L + epsilon) + std::sqrt(L));
	// rho <= epsilon always; the minimum only matters where root * root overflows (epsilon near the double maximum).
	double rho = std::min(root * root, epsilon);
	// A few steps of 1e-12 absorb the round-up; should rounding ever need more (an epsilon at the top of the
	// double range), the steps grow geometrically, so the loop ends after at most a few thousand (rho = 0 always
	// passes, as epsilon > 0).
	double step = 1e-12;
	for (int i = 0; ZcdpToApproxEpsilon(rho, delta) > epsilon; i++) {
		rho *= 1.0 - step;
		if (i >= 64)
			step = std::min(0.5, step * 2.0);
		if (i >= 4096)
			rho = 0.0;
	}
	return rho;
}

double
LargestZcdpRho(double epsilon, double delta)
{
	if (!(std::isfinite(epsilon) && epsilon > 0))
		throw Error(ErrorKind::InvalidParameter, "epsilon must be finite and positive");
	if (!(delta > 0 && delta < 1))
		throw Error(ErrorKind::InvalidParameter, "delta must be in (0, 1)");
	if (rho_cache.epsilon == epsilon && rho_cache.delta == delta)
		return rho_cache.rho;
	// Every rho returned passed the check ZcdpDelta(rho, epsilon) <= delta, and ZcdpDelta only overstates: the
	// bisection below affects how tight the result is, never whether it is valid. The simple bound's rho is
	// valid (the tight conversion is never larger) and starts the search.
	const auto fits = [&](double rho) { return ZcdpDelta(rho, epsilon) <= delta; };
	double lo = SimpleZcdpRho(epsilon, delta);
	for (int i = 0; i < 64 && !fits(lo); i++)
		lo /= 2;
	if (!fits(lo))
		throw Error(ErrorKind::Internal, "no zCDP budget fits the requested epsilon and delta");
	double hi = lo * 2;
	for (int i = 0; i < 64 && fits(hi); i++) {
		lo = hi;
		hi *= 2;
	}
	while (hi - lo > 1e-13 * lo) {
		const double mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			break;
		(fits(mid) ? lo : hi) = mid;
	}
	rho_cache = {epsilon, delta, lo};
	return lo;
}

double
ZcdpDelta(double rho, double epsilon)
{
	if (!(rho >= 0))
		throw Error(ErrorKind::InvalidParameter, "rho must be non-negative");
	if (!(epsilon >= 0))
		throw Error(ErrorKind::InvalidParameter, "epsilon must be non-negative");
	if (rho == 0 || std::isinf(epsilon))
		return 0;
	if (std::isinf(rho))
		return 1;
	// ln delta(alpha) = (alpha-1)(alpha rho - eps) + alpha ln(1 - 1/alpha) - ln(alpha - 1) is strictly convex
	// (second derivative 2 rho + 1 / (alpha (alpha-1))) with derivative (2 alpha - 1) rho - eps + ln(1 - 1/alpha),
	// which is positive at (eps + 1)/(2 rho) + 2 (the logarithm is above -ln 2 there). Bisect on its sign, to a
	// relative 1e-12 in alpha (delta is flat at the minimum). Any alpha > 1 gives a valid bound, so the search
	// only decides how tight the result is; the bound itself is evaluated with a safe margin.
	double lo = 1.0 + 1e-9;
	double hi = std::min((epsilon + 1) / (2 * rho) + 2, 1e300);
	hi = std::max(hi, lo);
	for (int i = 0; i < 2000 && hi - lo > 1e-12 * lo; ++i) {
		const double mid = lo + (hi - lo) / 2;
		if (mid == lo || mid == hi)
			break;
		const double derivative = (2 * mid - 1) * rho - epsilon + std::log1p(-1 / mid);
		if (derivative < 0)
			lo = mid;
		else
			hi = mid;
	}
	const long double log_delta =
	    std::min(LogCorollary13Upper(lo, rho, epsilon), LogCorollary13Upper(hi, rho, epsilon));
	if (std::isnan(double(log_delta)))
		throw Error(ErrorKind::Internal, "zCDP to approximate DP conversion produced NaN");
	if (log_delta >= 0)
		return 1;
	// expl's error (an ulp or two) and the conversion to double (half an ulp) are covered by RoundUp; a bound
	// below the doubles' range is reported as the smallest positive double, never as 0.
	const double delta = RoundUp(double(expl(log_delta)));
	return std::min(1.0, std::max(delta, std::numeric_limits<double>::denorm_min()));
}

}  // namespace pap::core
