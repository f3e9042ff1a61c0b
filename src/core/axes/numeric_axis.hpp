// A numeric axis learned from the public table only (docs/architecture.md step 1): the sorted distinct public values
// w_1 < ... < w_M cut the line into bins (w_j, w_{j+1}], j = 0..M, with w_0 below and w_{M+1} above every
// value. NULL gets its own bin after them. Values are ordered as PostgreSQL orders float8: -Infinity lowest,
// NaN highest and equal to itself, so NaN and the infinities are ordinary values, not errors.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/float_order.hpp"  // PgFloatLess

namespace pap::core {

// Number of entries of the sorted array cuts[0..count) strictly below x in that order: the bin of x. Shared by
// NumericAxis::BinOf and the SQL cell function, so that the private scan and the core map values identically.
std::size_t CountBelowSorted(const double *cuts, std::size_t count, double x) noexcept;

class NumericAxis {
public:
	// values: every non-NULL public value (any order, duplicates allowed). Throws Error(DataException) if empty.
	static NumericAxis FromPublicValues(std::vector<double> values);
	// cuts: already sorted and distinct in PostgreSQL order (a stored axis). Throws Error(Internal) otherwise.
	static NumericAxis FromCuts(std::vector<double> cuts);

	const std::vector<double> &
	cuts() const
	{
		return cuts_;
	}
	std::size_t
	cut_count() const
	{
		return cuts_.size();
	}  // M
	std::int32_t
	BinCount() const
	{
		return std::int32_t(cuts_.size()) + 2;
	}  // M + 1 ordered bins + NULL
	std::int32_t
	NullBin() const
	{
		return std::int32_t(cuts_.size()) + 1;
	}
	std::int32_t
	TopBin() const
	{
		return std::int32_t(cuts_.size());
	}  // (w_M, above everything]

	// Bin of a non-NULL value: the number of cuts strictly below x, so x in (w_j, w_{j+1}] maps to j.
	std::int32_t BinOf(double x) const;
	// Number of cuts <= c, and < c, in PostgreSQL order.
	std::size_t CountAtMost(double c) const;
	std::size_t CountBelow(double c) const;

private:
	explicit NumericAxis(std::vector<double> cuts) : cuts_(std::move(cuts)) {}
	std::vector<double> cuts_;
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
