// The factor within which two predicted errors are a near tie. A prediction is a bound at a confidence, not a
// measurement: within a tenth of each other, two predictions do not say which release will err less, so a near tie is
// broken by what the predictions do not show (docs/mechanisms.md §10 and §20): between granularities
// (layout_choice.hpp, NearTieOf), between two mechanisms (registry.hpp, AutoChoice), and between the marginal tables'
// variants (marginal_tables.hpp, MarginalTablesVariantChoice).
#pragma once
#include <cstddef>
#include <optional>

namespace pap::core {

constexpr double kNearTie = 1.1;

// The choice the three share (docs/mechanisms.md §10, "A near tie goes to a prediction that does not rest on the
// public sample"): among the candidates 0..count-1 that `eligible` admits, the smallest prediction, and where
// `steady` does not hold for it, the smallest that `steady` holds for, if that one is within kNearTie of it.
// predicted(i): candidate i's prediction; steady(i): whether it holds whatever the public sample. Nothing when no
// candidate is eligible; a first smallest keeps its place against an equal later one.
struct SteadyChoice {
	std::size_t smallest = 0;  // the smallest prediction
	std::size_t chosen = 0;    // smallest, or the steady one within the near tie
	bool steadier = false;     // chosen != smallest because of the near tie
};
template <typename Predicted, typename Eligible, typename Steady>
std::optional<SteadyChoice>
SteadyWithinNearTie(std::size_t count, Predicted predicted, Eligible eligible, Steady steady)
{
	std::optional<std::size_t> smallest, steadiest;
	for (std::size_t i = 0; i < count; i++) {
		if (!eligible(i))
			continue;
		if (!smallest || predicted(i) < predicted(*smallest))
			smallest = i;
		if (steady(i) && (!steadiest || predicted(i) < predicted(*steadiest)))
			steadiest = i;
	}
	if (!smallest)
		return std::nullopt;
	SteadyChoice out{*smallest, *smallest, false};
	if (!steady(*smallest) && steadiest && predicted(*steadiest) <= kNearTie * predicted(*smallest)) {
		out.chosen = *steadiest;
		out.steadier = true;
	}
	return out;
}

}  // namespace pap::core

#include "core/base/core_only.hpp"
