// The exact law of a sum of m independent discrete Laplace draws of one scale b (what discrete_laplace.hpp samples),
// for accuracy predictions (double precision). A draw of P[X = x] proportional to q^|x|, q = e^(-1/b), is the
// difference of two independent geometric counts of ratio q, so the sum is X - Y for X, Y independent negative
// binomials NB(m, 1 - q) (failures before the m-th success): P[S = d] = sum over j of P[Y = j] P[X = j + |d|].
#pragma once
#include <cstdint>
#include <vector>

namespace pap::core {

class LaplaceSumLaw {
public:
	// Tabulates P[S = d] for |d| up to the spread of X and Y beyond which each has mass below 1e-18; the mass left
	// out is counted in Missing(). Error(Internal) for b not finite and > 0 or draws < 0; Error(LimitExceeded)
	// when the table costs more than max_work products (its cost grows as b^2 draws: WorkFor).
	LaplaceSumLaw(double b, std::int64_t draws, double max_work);

	// The products a table of (b, draws) costs (half the square of the negative binomials' span), or infinity when
	// it exceeds max_work, found in at most sqrt(2 max_work) steps without building the table. Error(Internal) as
	// the constructor.
	static double WorkFor(double b, std::int64_t draws, double max_work);

	// An upper bound on P[S >= x]: the tabulated mass at x and beyond, with a relative margin for the rounding of
	// its sums, plus Missing() (x > 0); 1 minus the tabulated mass at 1 - x and beyond (x <= 0, by symmetry).
	double UpperSurvival(std::int64_t x) const;

	// P[S = d] as tabulated (0 beyond Radius()).
	double Pmf(std::int64_t d) const;

	// The largest |d| tabulated, and the mass the table leaves out (at least P[|S| > Radius()]).
	std::int64_t
	Radius() const
	{
		return std::int64_t(pmf_.size()) - 1;
	}
	double
	Missing() const
	{
		return missing_;
	}

private:
	std::vector<double> pmf_;       // P[S = d], d = 0 .. Radius()
	std::vector<double> survival_;  // P[Radius() >= S >= d] as tabulated, d = 0 .. Radius() + 1
	double missing_ = 0.0;
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
