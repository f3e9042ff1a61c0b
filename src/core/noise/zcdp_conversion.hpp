// From a zCDP budget to the (epsilon, delta) it guarantees: the tight conversion a ledger of rho reports with
// (docs/mechanisms.md, "zCDP budgets").
#pragma once

namespace pap::core {

// The epsilon with which rho-zCDP implies (epsilon, delta)-DP by the tight conversion of Canonne, Kamath & Steinke
// 2020 (Proposition 12 and Corollary 13): the infimum over alpha > 1 of
//   alpha rho + (ln(1 / (alpha delta)) + (alpha - 1) ln(1 - 1/alpha)) / (alpha - 1),
// and 0 when that is negative. Never below the exact infimum: every alpha gives a valid bound, so the search over
// alpha decides only how tight the result is, and the bound at the alpha found is evaluated in long double with a
// margin above its rounding error. 0 for rho = 0, +infinity for rho = +infinity. Error(InvalidParameter) unless rho
// is >= 0 and not NaN and delta is in (0, 1).
double ZcdpEpsilon(double rho, double delta);

// The amount (alpha - 1) that minimises the bound above: the root of rho x^2 + ln(1 + x) = ln(1/delta), for tests.
// rho > 0 and finite, delta in (0, 1).
double ZcdpEpsilonOrderMinusOne(double rho, double delta);

}  // namespace pap::core

#include "core/base/core_only.hpp"
