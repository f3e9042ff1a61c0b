#include "core/release/category_folding.hpp"

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/language/query_text.hpp"

namespace pap::core {

namespace {

// One open categorical axis: its categories' public rows, and the thresholds folding may take on it.
struct FoldableAxis {
	std::size_t axis = 0;
	std::vector<std::int64_t> counts;  // public rows per category, in the axis's (byte) order
	// The thresholds, increasing: 0 (nothing folded: every category of a layout has a public row), then 2^k - 1
	// below the largest count (FoldThresholdBelow's ladder; folding at the largest would fold every category).
	std::vector<std::int64_t> thresholds;
	std::vector<std::int64_t> folded_rows;  // per threshold: the public rows of the categories it folds
	std::vector<std::size_t> kept;          // per threshold: the categories it keeps
};

FoldableAxis
FoldableAxisOf(const ReleaseLayout &layout, std::size_t a)
{
	FoldableAxis out;
	out.axis = a;
	out.counts = layout.PublicRowsPerBin(a);
	out.counts.resize(layout.axes[a].categories.size());  // the categories' bins (not "other" and NULL)
	const std::int64_t most = out.counts.empty() ? 0 : *std::max_element(out.counts.begin(), out.counts.end());
	out.thresholds.push_back(0);
	for (std::int64_t t = 1; t < most; t = 2 * t + 1)
		out.thresholds.push_back(t);
	for (std::int64_t t : out.thresholds) {
		std::int64_t rows = 0;
		std::size_t kept = 0;
		for (std::int64_t c : out.counts) {
			if (c <= t)
				rows += c;
			else
				kept++;
		}
		out.folded_rows.push_back(rows);
		out.kept.push_back(kept);
	}
	return out;
}

// The largest threshold of the axis that folds at most `rows` public rows (folded rows grow with the threshold).
std::size_t
LargestWithin(const FoldableAxis &axis, std::int64_t rows)
{
	const auto it = std::upper_bound(axis.folded_rows.begin(), axis.folded_rows.end(), rows);
	return std::size_t(it - axis.folded_rows.begin()) - 1;  // folded_rows[0] = 0 <= rows
}

}  // namespace

std::optional<FoldedLayout>
FoldCategories(const ReleaseLayout &layout, std::uint64_t cell_limit)
{
	if (layout.spec.kind != ClassKind::Marginals)
		return std::nullopt;
	const std::vector<std::int32_t> radices = layout.Radices();
	const double limit = double(cell_limit);
	if (GridSizeOf(radices) <= limit)
		return std::nullopt;
	const std::size_t d = layout.axes.size();
	std::vector<FoldableAxis> foldable;
	double fixed = 1.0;  // the cells of the axes that do not fold
	for (std::size_t a = 0; a < d; a++) {
		const ReleaseAxis &axis = layout.axes[a];
		if (axis.kind == AxisKind::Categorical && !axis.ClosedCategories() && axis.categories.size() > 1)
			foldable.push_back(FoldableAxisOf(layout, a));
		else
			fixed *= double(radices[a]);
	}
	// The grid's cells when each axis folds as much as `rows` allows: a category, "other" and NULL bins.
	const auto cells_at = [&](std::int64_t rows) {
		double cells = fixed;
		for (const FoldableAxis &axis : foldable)
			cells *= double(axis.kept[LargestWithin(axis, rows)] + 2);
		return cells;
	};
	std::vector<std::int64_t> levels;
	for (const FoldableAxis &axis : foldable)
		levels.insert(levels.end(), axis.folded_rows.begin(), axis.folded_rows.end());
	std::sort(levels.begin(), levels.end());
	levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
	if (levels.empty() || !(cells_at(levels.back()) <= limit))
		return std::nullopt;
	// The fewest folded rows on the worst axis whose grid fits: cells fall as the level rises.
	std::size_t lo = 0, hi = levels.size() - 1;
	while (lo < hi) {
		const std::size_t mid = lo + (hi - lo) / 2;
		if (cells_at(levels[mid]) <= limit)
			hi = mid;
		else
			lo = mid + 1;
	}
	// At that level every axis folds all it may; the cells left over then unfold the axis that folds the most rows,
	// one rung at a time, while the grid still fits (the largest fold never grows).
	std::vector<std::size_t> choices;
	for (const FoldableAxis &f : foldable)
		choices.push_back(LargestWithin(f, levels[lo]));
	const auto cells_of = [&](const std::vector<std::size_t> &at) {
		double cells = fixed;
		for (std::size_t i = 0; i < foldable.size(); i++)
			cells *= double(foldable[i].kept[at[i]] + 2);
		return cells;
	};
	for (;;) {
		std::optional<std::size_t> best;
		for (std::size_t i = 0; i < foldable.size(); i++) {
			if (choices[i] == 0)
				continue;
			std::vector<std::size_t> lower = choices;
			lower[i]--;
			if (cells_of(lower) <= limit &&
			    (!best || foldable[i].folded_rows[choices[i]] > foldable[*best].folded_rows[choices[*best]]))
				best = i;
		}
		if (!best)
			break;
		choices[*best]--;
	}

	FoldedLayout out{layout, ""};
	// Per axis, the old bin -> the new one (identity on the axes that keep every category).
	std::vector<std::vector<std::int32_t>> maps(d);
	for (std::size_t i = 0; i < foldable.size(); i++) {
		const FoldableAxis &f = foldable[i];
		const std::size_t choice = choices[i];
		const std::int64_t threshold = f.thresholds[choice];
		if (f.kept[choice] == f.counts.size())
			continue;  // nothing folded on this axis (a category without public rows folds even at 0)
		const ReleaseAxis &old_axis = layout.axes[f.axis];
		ReleaseAxis &axis = out.layout.axes[f.axis];
		axis.categories.clear();
		std::vector<std::int32_t> &map = maps[f.axis];
		const std::int32_t kept = std::int32_t(f.kept[choice]);
		for (std::size_t c = 0; c < f.counts.size(); c++) {
			if (f.counts[c] > threshold) {
				map.push_back(std::int32_t(axis.categories.size()));
				axis.categories.push_back(old_axis.categories[c]);
			} else {
				map.push_back(kept);  // the new "other" bin
			}
		}
		map.push_back(kept);      // the old "other" bin
		map.push_back(kept + 1);  // NULL
		out.summary += std::string(out.summary.empty() ? "" : ", ") + QuoteIdentifier(old_axis.label) + " keeps " +
		               std::to_string(kept) + " of " + std::to_string(f.counts.size()) +
		               " categories (folds those shown at most " + std::to_string(threshold) + " times, " +
		               std::to_string(f.folded_rows[choice]) + " public rows)";
	}
	// The moved points, sorted again (a folded category jumps to the "other" bin) and merged.
	std::vector<std::int32_t> moved(layout.public_points.size());
	std::uint64_t steps = 0;
	for (std::size_t p = 0; p < layout.public_point_counts.size(); p++) {
		PollInterrupt(steps, d);
		for (std::size_t a = 0; a < d; a++) {
			const std::int32_t bin = layout.public_points[p * d + a];
			moved[p * d + a] = maps[a].empty() ? bin : maps[a].at(std::size_t(bin));
		}
	}
	std::vector<std::size_t> order(layout.public_point_counts.size());
	std::iota(order.begin(), order.end(), std::size_t(0));
	std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
		return std::lexicographical_compare(
		    moved.begin() + std::ptrdiff_t(x * d), moved.begin() + std::ptrdiff_t(x * d + d),
		    moved.begin() + std::ptrdiff_t(y * d), moved.begin() + std::ptrdiff_t(y * d + d));
	});
	out.layout.public_points.clear();
	out.layout.public_point_counts.clear();
	for (std::size_t x : order) {
		PollInterrupt(steps, d);
		const auto point = moved.begin() + std::ptrdiff_t(x * d);
		const std::size_t m = out.layout.public_point_counts.size();
		if (m > 0 && std::equal(point, point + std::ptrdiff_t(d), out.layout.public_points.end() - std::ptrdiff_t(d)))
			out.layout.public_point_counts.back() += layout.public_point_counts[x];
		else {
			out.layout.public_points.insert(out.layout.public_points.end(), point, point + std::ptrdiff_t(d));
			out.layout.public_point_counts.push_back(layout.public_point_counts[x]);
		}
	}
	out.layout.domain_kind = DomainKind::Dense;
	return out;
}

}  // namespace pap::core
