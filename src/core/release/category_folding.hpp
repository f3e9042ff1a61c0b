// Folding the rare categories of a marginals release into their axis's "other" bin, so that its full grid fits
// pap_release.max_cells (docs/mechanisms.md §20, "Folded categories"). Without it such a release can only run on
// its public support plus one outside cell, whose private mass no marginal query reads; folded, every private row
// lands in a cell a query reads, and a query naming a folded category reads its axis's "other" bin, within the
// part error_model.hpp's OtherBinsError bounds. From the public table only: the categories and their public
// row counts.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/release/release_layout.hpp"

namespace pap::core {

struct FoldedLayout {
	ReleaseLayout layout;  // the folded axes keep fewer categories; the public points moved and merged
	std::string summary;   // for pap.releases.granularity: what each folded axis keeps, e.g. "\"city\" keeps 40 of
	                       // 212 categories (folds those shown at most 3 times, 301 public rows)"
};

// On each open categorical axis (neither boolean nor enum: ClosedCategories) of a marginals layout, a threshold t of
// the form 2^k - 1 (0, 1, 3, 7, ...): the categories the public table shows at most t times go to the axis's "other"
// bin, the others stay, always at least one. Every category at or below its axis's threshold is folded, none above, and
// the threshold is one of a fixed ladder, so that the stored layout tells it again (error_model.hpp's FoldThresholdOf,
// which OtherBinShareBound reads). The thresholds minimise the largest number of public rows any axis folds, among
// those whose full grid has at most cell_limit cells (a binary search over the row counts folding can reach); the cells
// then left over unfold, one rung at a time, the axis that folds the most rows while the grid fits. nullopt
// when the class is not marginals, when the full grid already fits, or when no thresholds make it fit. Polls the
// interrupt check.
std::optional<FoldedLayout> FoldCategories(const ReleaseLayout &layout, std::uint64_t cell_limit);

}  // namespace pap::core

#include "core/base/core_only.hpp"
