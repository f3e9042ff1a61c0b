#include "core/noise/zcdp_conversion.hpp"

#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <cmath>
#include <limits>

#include "core/base/errors.hpp"

namespace pap::core {

namespace {

// With x = alpha - 1 > 0 the bound is
//   e(x) = rho (1 + x) + (L - ln(1 + x)) / x + ln(x / (1 + x)),   L = ln(1/delta),
// whose derivative is rho - (L - ln(1 + x)) / x^2: it has the sign of g(x) = rho x^2 + ln(1 + x) - L, strictly
// increasing from -L < 0 at x = 0, so e is unimodal and its minimum is the one root of g.
double
OrderEquation(double x, double rho, double L)
{
	return rho * x * x + std::log1p(x) - L;
}

// e(x) rounded up: each of the three terms is computed in long double with a relative error of a few of its ulps;
// a margin of 1e-12 of their absolute sum covers them (and the rounding of L), even where they cancel.
double
BoundAt(double x, double rho, double L)
{
	const long double lx = x, log1p_x = std::log1p(lx);
	const long double a = (long double)rho * (1.0L + lx);
	const long double b = ((long double)L - log1p_x) / lx;
	const long double c = std::log(lx) - log1p_x;
	const long double sum = a + b + c;
	const long double margin = 1e-12L * (std::fabs(a) + std::fabs(b) + std::fabs(c));
	return double(sum + margin);
}

}  // namespace

double
ZcdpEpsilonOrderMinusOne(double rho, double delta)
{
	if (!(rho > 0 && std::isfinite(rho)))
		throw Error(ErrorKind::InvalidParameter, "rho must be finite and positive");
	if (!(delta > 0 && delta < 1))
		throw Error(ErrorKind::InvalidParameter, "delta must be in (0, 1)");
	const double L = -std::log(delta);
	// g >= rho x^2 - L and g >= ln(1 + x) - L: non-negative at the smaller of sqrt(L / rho) and e^L - 1 (finite:
	// L <= 745). Halving from there reaches a negative g (g(0) = -L < 0) within the doubles' exponent range.
	double hi = std::min(std::sqrt(L / rho), std::expm1(L));
	if (!(hi > 0))
		hi = std::numeric_limits<double>::min();
	double lo = hi;
	for (int i = 0; i < 2200 && OrderEquation(lo, rho, L) >= 0; i++)
		lo /= 2;
	if (!(OrderEquation(lo, rho, L) < 0) || !(OrderEquation(hi, rho, L) >= 0))
		return hi;  // no bracket (rounding at the ends of the range): any x > 0 still gives a valid bound
	// Bisection to 50 bits: the bound is flat at its minimum, so this is far below what it changes in epsilon.
	const auto root = boost::math::tools::bisect([&](double x) { return OrderEquation(x, rho, L); }, lo, hi,
	                                             boost::math::tools::eps_tolerance<double>(50));
	return root.first + (root.second - root.first) / 2;
}

double
ZcdpEpsilon(double rho, double delta)
{
	if (!(rho >= 0))
		throw Error(ErrorKind::InvalidParameter, "rho must be a non-negative number");
	if (!(delta > 0 && delta < 1))
		throw Error(ErrorKind::InvalidParameter, "delta must be in (0, 1)");
	if (rho == 0)
		return 0;
	if (std::isinf(rho))
		return std::numeric_limits<double>::infinity();
	const double x = std::max(ZcdpEpsilonOrderMinusOne(rho, delta), std::numeric_limits<double>::min());
	// A negative bound means (0, delta)-DP: epsilon is never below 0.
	return std::max(0.0, BoundAt(x, rho, -std::log(delta)));
}

}  // namespace pap::core
