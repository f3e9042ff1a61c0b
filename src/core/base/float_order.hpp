// PostgreSQL's total order of float8 (float8_lt), which every sort of axis values follows: -Infinity lowest, NaN
// above every other value and equal to itself. Here, in base, because the axes and the error model both sort by it.
#pragma once
#include <cmath>

namespace pap::core {

inline bool
PgFloatLess(double a, double b)
{
	if (std::isnan(a))
		return false;
	if (std::isnan(b))
		return true;
	return a < b;
}

}  // namespace pap::core

#include "core/base/core_only.hpp"
