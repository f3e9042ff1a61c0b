// A categorical axis learned from the public table only (docs/architecture.md step 1): the distinct category texts seen
// in the public table, sorted by byte order (std::string's operator<, so the layout is deterministic and does
// not depend on a collation), then one "other" bin for every value never seen publicly, then the NULL bin. A
// release that folds its rarest categories (release/category_folding.hpp) keeps the others only: its "other" bin
// holds the folded ones too.
// The glue passes each value in its text form; two values are one category iff their texts are byte-equal.
//
// Bins: 0..C-1 the categories in byte order, C = OtherBin(), C+1 = NullBin(); BinCount() = C + 2.
//
// A boolean column is the axis Boolean(): categories "false" and "true" (bins 0 and 1), always both present
// whatever the public table holds, so its layout never reveals which truth values the public rows have. The glue
// must pass a boolean as the text "false" or "true" (not boolout's "f"/"t"); the "other" bin then stays empty
// but is kept so every categorical axis has the same layout.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pap::core {

class CategoricalAxis {
public:
	// values: the text of every non-NULL public value (any order, duplicates allowed). Error(DataException) if
	// empty, as NumericAxis: a public table with no usable value.
	static CategoricalAxis FromPublicValues(std::vector<std::string> values);
	// categories: already sorted by byte order and distinct (a stored axis), at least one. Error(Internal)
	// otherwise.
	static CategoricalAxis FromCategories(std::vector<std::string> categories);
	// The boolean axis: categories {"false", "true"}.
	static CategoricalAxis Boolean();

	const std::vector<std::string> &
	categories() const
	{
		return categories_;
	}
	std::size_t
	CategoryCount() const
	{
		return categories_.size();
	}  // C
	std::int32_t
	BinCount() const
	{
		return std::int32_t(categories_.size()) + 2;
	}
	std::int32_t
	OtherBin() const
	{
		return std::int32_t(categories_.size());
	}
	std::int32_t
	NullBin() const
	{
		return std::int32_t(categories_.size()) + 1;
	}

	// Bin of a non-NULL value: its category, or OtherBin() for a text not seen publicly. Binary search.
	std::int32_t BinOf(std::string_view text) const;
	// Bin of NULL.
	std::int32_t
	BinOfNull() const
	{
		return NullBin();
	}

	// For display: the category text of bins 0..C-1. Error(Internal) for the other bin, the NULL bin or a bin
	// outside the axis (they have no single text; see IsOtherBin / NullBin).
	const std::string &Category(std::int32_t bin) const;
	bool
	IsOtherBin(std::int32_t bin) const
	{
		return bin == OtherBin();
	}

private:
	explicit CategoricalAxis(std::vector<std::string> categories) : categories_(std::move(categories)) {}
	std::vector<std::string> categories_;
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
