// The features of a labelling as the learners see them (docs/mechanisms.md §17): learned from the public table
// only, then applied alike to private and public rows. A numeric feature keeps its value (NULL and NaN become the
// public mean) and has a bin among its public quartiles; a categorical feature is a bin of its CategoricalAxis
// (the public categories, "other", NULL).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/api/labelling_api.hpp"
#include "core/axes/categorical_axis.hpp"
#include "core/axes/numeric_axis.hpp"

#include "core/base/core_only.hpp"

namespace pap::core {

// One row as the learners read it: the standardised numeric values (in feature order, numeric features only),
// the one-hot index of every categorical feature (into a block of size OneHotWidth(), after the numeric values)
// and the row's cell in the layout of bins.
struct EncodedRow {
	std::vector<double> numbers;
	std::vector<std::uint32_t> hot;
	std::uint64_t cell = 0;
};

class FeatureSchema {
public:
	static FeatureSchema FromPublicRows(const LabelRows &rows);
	static FeatureSchema FromData(const LabelSchemaData &data);

	std::size_t
	FeatureCount() const
	{
		return categorical_.size();
	}
	// Width of the logistic learner's input: numeric features, then the bins of every categorical feature.
	std::size_t
	InputWidth() const
	{
		return numeric_count_ + hot_width_;
	}
	std::uint64_t
	CellCount() const
	{
		return cell_count_;
	}
	// Row r of rows, which must have this schema's features in order.
	EncodedRow Encode(const LabelRows &rows, std::size_t r) const;
	// The arrays of LabelSchemaData, allocated with allocate.
	LabelSchemaData Store(LabelAllocate allocate) const;

private:
	void Finish();
	std::vector<bool> categorical_;
	std::vector<double> centers_, spreads_;
	std::vector<NumericAxis> quartiles_;       // per numeric feature
	std::vector<CategoricalAxis> categories_;  // per categorical feature
	std::size_t numeric_count_ = 0, hot_width_ = 0;
	std::uint64_t cell_count_ = 1;
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
