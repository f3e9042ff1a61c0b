#include "core/release/layout_choice.hpp"
#include "core/base/core_only.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

#include "core/axes/numeric_axis.hpp"
#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/classes/axis_granularity.hpp"
#include "core/mechanisms/near_tie.hpp"
#include "core/release/answer_mode.hpp"
#include "core/release/category_folding.hpp"
#include "core/release/engine_support.hpp"

namespace pap::core {

namespace {

// Where each bin of an ordered axis cut at `fine` lies among the bins of the same axis cut at `coarse`, a subset
// of fine (release_axis.hpp's bins: (w_j, w_{j+1}] for j = 0..M, then NULL): fine bin j < M, whose values are at
// most fine[j] and above fine[j-1], lies in the coarse bin of the first coarse cut not below fine[j]; the bin
// above every cut and the NULL bin stay what they are.
std::vector<std::int32_t>
BinMap(const std::vector<double> &fine, const std::vector<double> &coarse)
{
	std::vector<std::int32_t> map;
	map.reserve(fine.size() + 2);
	for (double cut : fine)
		map.push_back(std::int32_t(std::lower_bound(coarse.begin(), coarse.end(), cut, PgFloatLess) - coarse.begin()));
	map.push_back(std::int32_t(coarse.size()));
	map.push_back(std::int32_t(coarse.size() + 1));
	return map;
}

std::string
Rounded(double value)
{
	char buf[32];
	std::snprintf(buf, sizeof buf, "%.3g", value);
	return buf;
}

// One planned layout: its granularity, domain and what auto's plan predicts on it.
struct PlannedLayout {
	std::size_t candidate;
	DomainKind domain;
	double predicted;
	const char *mechanism;
	bool folded;                  // a full grid made to fit by folding categories (category_folding.hpp)
	double cells;                 // the domain's cells
	bool rests_on_public_sample;  // the prediction of auto's mechanism there (MechanismPlan's)
};

// The candidate's layout on the domain: a full grid that exceeds the cell limit folds its categories where that
// makes it fit (marginals), else nullopt.
std::optional<FoldedLayout>
FoldedGrid(const ReleaseLayout &layout, std::uint64_t cell_limit)
{
	return GridSizeOf(layout.Radices()) > double(cell_limit) ? FoldCategories(layout, cell_limit) : std::nullopt;
}

double
Predict(const ReleaseLayout &layout, const LayoutPlanning &p, const char *&mechanism, bool &rests_on_public_sample)
{
	PlanRequest request{};
	request.public_rows = p.public_rows;
	request.private_rows = p.private_rows;
	request.epsilon = p.epsilon;
	request.delta = p.delta;
	request.alpha = p.alpha;
	request.beta = p.beta;
	request.mechanism = "auto";
	request.prior = "public";
	request.max_cover_queries = p.max_cover_queries;
	const PlanSummary plan = PlanLayout(request, layout);
	mechanism = MechanismName(plan.chosen);
	rests_on_public_sample = plan.predictions[std::size_t(plan.chosen)].rests_on_public_sample;
	return plan.predicted_error;
}

std::string
DomainName(DomainKind kind, const std::string &folded)
{
	if (kind != DomainKind::Dense)
		return "public support";
	return folded.empty() ? "full grid" : "full grid with categories folded to fit pap_release.max_cells: " + folded;
}

std::string
GranularitySentence(const GranularityCandidate &c, std::int64_t public_rows, bool folded)
{
	if (c.name == "exact")
		return folded ? "categorical axes keep their public categories but the rarest"
		              : "categorical axes keep every public category";
	if (c.name == "finest")
		return "finest cuts, one at every distinct public value";
	if (c.whole_values)
		return "every whole value, a cut at each value a discrete column can hold from its lowest to its highest "
		       "public value";
	char buf[160];
	std::snprintf(buf, sizeof buf, "%s cuts, at most %.4g%% of the public rows (%.1f rows) per bin", c.name.c_str(),
	              100.0 * c.max_bin_rows / double(public_rows), c.max_bin_rows);
	return buf;
}

// The candidates not chosen, each granularity once: "alpha 0.019 (public support 0.021), finest does not fit
// pap_release.max_cells" (not_fitting: those phrases).
std::string
OthersText(const std::vector<GranularityCandidate> &ladder, const std::vector<PlannedLayout> &planned,
           const PlannedLayout &best, const std::vector<std::string> &not_fitting)
{
	std::vector<std::string> items;
	for (std::size_t c = 0; c < ladder.size(); c++) {
		std::string grid, support;
		for (const PlannedLayout &p : planned)
			if (p.candidate == c && !(c == best.candidate && p.domain == best.domain))
				(p.domain == DomainKind::Dense ? grid : support) =
				    (p.folded && p.domain == DomainKind::Dense ? "folded " : "") + Rounded(p.predicted);
		if (grid.empty() && support.empty())
			continue;
		const std::string name = c == best.candidate ? "" : ladder[c].name + " ";
		items.push_back(grid.empty()      ? name + "public support " + support
		                : support.empty() ? name + grid
		                                  : name + grid + " (public support " + support + ")");
	}
	for (const std::string &item : not_fitting)
		items.push_back(item);
	std::string text;
	for (const std::string &item : items)
		text += (text.empty() ? "" : ", ") + item;
	return text;
}

// pap.releases.domain_reason of the chosen layout: both domains of its granularity, with their predictions or the
// limit the full grid exceeds.
std::string
DomainReason(const ReleaseLayout &unfolded, const std::vector<PlannedLayout> &planned, const PlannedLayout &best,
             std::uint64_t cell_limit)
{
	std::string grid_prediction, support_prediction;
	std::optional<PlannedLayout> grid_plan;
	for (const PlannedLayout &p : planned)
		if (p.candidate == best.candidate) {
			(p.domain == DomainKind::Dense ? grid_prediction : support_prediction) = Rounded(p.predicted);
			if (p.domain == DomainKind::Dense)
				grid_plan = p;
		}
	char grid[128];
	if (grid_plan && grid_plan->folded)
		std::snprintf(grid, sizeof grid, "the full grid with categories folded to %.0f cells (%.0f unfolded)",
		              grid_plan->cells, GridSizeOf(unfolded.Radices()));
	else
		std::snprintf(grid, sizeof grid, "the full grid of %.0f cells", GridSizeOf(unfolded.Radices()));
	const std::string support = "the " + std::to_string(unfolded.public_point_counts.size()) +
	                            " grid points holding public rows plus one outside cell";
	const std::string limit = "pap_release.max_cells (" + std::to_string(cell_limit) + ")";
	if (best.domain == DomainKind::Dense)
		return std::string("The error model predicts ") + grid_prediction + " on " + grid +
		       (support_prediction.empty() ? "" : ", " + support_prediction + " on " + support) +
		       "; the domain is the full grid.";
	return "The error model predicts " + support_prediction + " on " + support + ", " +
	       (grid_prediction.empty() ? std::string(grid) + " exceeds " + limit
	                                : grid_prediction + " on " + std::string(grid)) +
	       "; the domain is the public support.";
}

}  // namespace

std::vector<GranularityCandidate>
GranularityLadder(const ClassSpec &spec, double alpha, std::int64_t public_rows)
{
	if (MovableEdges(spec) == 0)
		return {{"exact", 0.0}};
	std::vector<GranularityCandidate> ladder;
	const double alpha_rows = MaxBinRows(spec, alpha, public_rows);
	// Coarser than alpha while a bin holds less than the whole public table (where the noise of alpha's cells
	// outweighs their projection), coarsest first; a bin of at most one row is the finest candidate's.
	for (int k = kMaxDoublings; k >= 1; k--) {
		const double rows = std::ldexp(alpha_rows, k);
		if (rows < double(public_rows) && rows > 1.0)
			ladder.push_back({"alpha*" + std::to_string(1 << k), rows});
	}
	for (int k = 0; k <= kMaxHalvings; k++) {
		const double rows = std::ldexp(alpha_rows, -k);
		if (!(rows > 1.0))  // a bin of at most one row: every public value is a cut, the finest candidate
			break;
		ladder.push_back({k == 0 ? "alpha" : "alpha/" + std::to_string(1 << k), rows});
	}
	ladder.push_back({"finest", 0.0});
	return ladder;
}

namespace {

// finest's public grid points moved to layout's bins by maps (per axis, empty: unchanged), merged into layout.
void
MovePublicPoints(const ReleaseLayout &finest, const std::vector<std::vector<std::int32_t>> &maps, ReleaseLayout &layout)
{
	const std::size_t d = layout.axes.size();
	// Each coordinate's map is non-decreasing, so the moved points stay sorted and equal ones are neighbours.
	layout.public_points.clear();
	layout.public_point_counts.clear();
	std::vector<std::int32_t> point(d);
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < finest.public_point_counts.size(); i++) {
		PollInterrupt(steps, d);
		for (std::size_t a = 0; a < d; a++) {
			const std::int32_t bin = finest.public_points.at(i * d + a);
			point[a] = maps[a].empty() ? bin : maps[a].at(std::size_t(bin));
		}
		const std::size_t m = layout.public_point_counts.size();
		if (m > 0 && std::equal(point.begin(), point.end(), layout.public_points.end() - std::ptrdiff_t(d)))
			layout.public_point_counts.back() += finest.public_point_counts[i];
		else {
			layout.public_points.insert(layout.public_points.end(), point.begin(), point.end());
			layout.public_point_counts.push_back(finest.public_point_counts[i]);
		}
	}
}

}  // namespace

ReleaseLayout
CoarsenLayout(const ReleaseLayout &finest, double max_bin_rows)
{
	ReleaseLayout layout = finest;
	const std::size_t d = layout.axes.size();
	std::vector<std::vector<std::int32_t>> maps(d);
	for (std::size_t a = 0; a < d; a++) {
		ReleaseAxis &axis = layout.axes[a];
		if (!axis.Ordered())
			continue;
		axis.cuts = ChooseCuts(axis.public_values, axis.public_counts, max_bin_rows);
		maps[a] = BinMap(finest.axes[a].cuts, axis.cuts);
	}
	MovePublicPoints(finest, maps, layout);
	return layout;
}

std::optional<ReleaseLayout>
WholeValueLayout(const ReleaseLayout &finest, std::uint64_t cell_limit)
{
	ReleaseLayout layout = finest;
	const std::size_t d = layout.axes.size();
	std::vector<std::vector<std::int32_t>> maps(d);
	bool any = false;
	for (std::size_t a = 0; a < d; a++) {
		ReleaseAxis &axis = layout.axes[a];
		if (axis.kind != AxisKind::Numeric || !(axis.value_step > 0.0))
			continue;
		// finest's cuts are its public values; a bin per whole value plus the top and NULL bins must fit the limit.
		const double limit =
		    std::min(kWholeValuesPerPublicValue * double(axis.public_values.size()), double(cell_limit) - 2.0);
		std::optional<WholeValueMarginal> whole =
		    EveryWholeValue(axis.public_values, axis.public_counts, axis.value_step, limit);
		if (!whole || finest.axes[a].cuts != finest.axes[a].public_values)
			continue;
		axis.public_values = std::move(whole->values);
		axis.public_counts = std::move(whole->counts);
		axis.cuts = axis.public_values;
		maps[a] = BinMap(finest.axes[a].cuts, axis.cuts);  // finest's cuts are among them
		any = true;
	}
	if (!any)
		return std::nullopt;
	MovePublicPoints(finest, maps, layout);
	return layout;
}

double
NearTieOf(const ReleaseLayout &layout)
{
	bool one_axis_per_query = false;
	const std::vector<int> edges = MovableEdgesPerAxis(layout, one_axis_per_query);
	const auto moving = std::count_if(edges.begin(), edges.end(), [](int e) { return e > 0; });
	return !one_axis_per_query && moving >= 2 ? 1.0 : kNearTie;
}

LayoutTieChoice
ChooseAmongPlanned(const std::vector<LayoutPrediction> &planned, double tie)
{
	if (planned.empty())
		throw Error(ErrorKind::Internal, "no planned layout to choose from");
	LayoutTieChoice out;
	const SteadyChoice steady = *SteadyWithinNearTie(
	    planned.size(), [&](std::size_t i) { return planned[i].predicted; }, [](std::size_t) { return true; },
	    [&](std::size_t i) { return !planned[i].rests_on_public_sample; });
	out.smallest = steady.smallest;
	out.anchor = steady.chosen;
	out.steadier = steady.steadier;
	// The finest within the tie of the anchor, on its domain of the smaller prediction (planned grid first, so a
	// tie keeps the full grid); an anchor that does not rest on the sample keeps its ties from those that do.
	const LayoutPrediction &anchor = planned[out.anchor];
	out.chosen = out.anchor;
	for (std::size_t i = 0; i < planned.size(); i++) {
		const LayoutPrediction &p = planned[i], &c = planned[out.chosen];
		if (p.predicted <= tie * anchor.predicted && !(!anchor.rests_on_public_sample && p.rests_on_public_sample) &&
		    (p.candidate > c.candidate || (p.candidate == c.candidate && p.predicted < c.predicted)))
			out.chosen = i;
	}
	return out;
}

LayoutChoice
ChooseLayout(const ReleaseLayout &finest, const LayoutPlanning &planning)
{
	std::vector<GranularityCandidate> ladder = GranularityLadder(finest.spec, planning.alpha, planning.public_rows);
	// Every whole value, finer than finest, where a discrete axis's public values leave whole values out.
	const std::optional<ReleaseLayout> whole = WholeValueLayout(finest, planning.cell_limit);
	if (whole)
		ladder.push_back({"every whole value", 0.0, true});
	const auto layout_of = [&](const GranularityCandidate &c) {
		return c.whole_values ? *whole : CoarsenLayout(finest, c.max_bin_rows);
	};
	std::vector<PlannedLayout> planned;
	std::optional<PlannedLayout> best;  // the smallest prediction so far
	std::optional<ReleaseLayout> first_layout;
	std::vector<std::string> not_fitting;
	std::optional<Error> cover_too_large;  // the coarsest candidate's, whose cover exceeded max_cover_queries
	std::vector<std::vector<double>> previous;
	int worse_in_a_row = 0;  // planned granularities in a row, each predicting more than kNearTie times the best
	bool stopped = false;
	for (std::size_t c = 0; c < ladder.size(); c++) {
		if (worse_in_a_row == kWorseBeforeStopping) {
			stopped = true;  // past the bottom of the predictions: the finer, costlier layouts are not planned
			break;
		}
		ReleaseLayout layout = layout_of(ladder[c]);
		std::vector<std::vector<double>> cuts;
		for (const ReleaseAxis &axis : layout.axes)
			cuts.push_back(axis.cuts);
		if (c > 0 && cuts == previous)
			continue;  // the same cuts as the coarser candidate: nothing new to plan
		previous = std::move(cuts);
		if (!first_layout)
			first_layout = layout;
		const double grid = GridSizeOf(layout.Radices());
		const double support = double(layout.public_point_counts.size()) + 1.0;
		const double limit = double(planning.cell_limit);
		bool fitted = false, improved = false, cover_fits = true;
		for (DomainKind kind : {DomainKind::Dense, DomainKind::Support}) {
			// A full grid over the limit may fold its categories to fit; a support as large as the grid is the grid
			// plus an empty outside cell: not worth a plan.
			std::optional<FoldedLayout> folded;
			if (kind == DomainKind::Dense && grid > limit)
				folded = FoldedGrid(layout, planning.cell_limit);
			if (!folded && ((kind == DomainKind::Dense ? grid : support) > limit ||
			                (kind == DomainKind::Support && support > grid)))
				continue;
			ReleaseLayout &planned_layout = folded ? folded->layout : layout;
			planned_layout.domain_kind = kind;
			const char *mechanism = nullptr;
			bool rests = false;
			double predicted = 0.0;
			try {
				// A cover over the definition's limit is refused as it is counted, before it is listed.
				predicted = Predict(planned_layout, planning, mechanism, rests);
			} catch (const CoverLimitExceeded &e) {
				if (!cover_too_large)
					cover_too_large = e;
				cover_fits = false;
				break;
			}
			fitted = true;
			const PlannedLayout p{
			    c,         kind,         predicted,
			    mechanism, bool(folded), kind == DomainKind::Dense ? GridSizeOf(planned_layout.Radices()) : support,
			    rests};
			planned.push_back(p);
			if (!best || p.predicted <= kNearTie * best->predicted)
				improved = true;
			if (!best || p.predicted < best->predicted)
				best = p;
		}
		if (!cover_fits) {
			// Finer cuts only add cover queries (more labelings of the public rows): none of them fits either. (Only
			// classes with movable cuts have more than one candidate, and they have no categories to fold.)
			not_fitting.push_back(ladder[c].name + (c + 1 < ladder.size() ? " and finer ones do" : " does") +
			                      " not fit pap_release.max_cover_queries");
			break;
		}
		if (!fitted)
			not_fitting.push_back(ladder[c].name + " does not fit pap_release.max_cells");
		else
			worse_in_a_row = improved ? 0 : worse_in_a_row + 1;
	}
	if (!best && cover_too_large)
		throw *cover_too_large;  // what a definition at the coarsest candidate raises
	if (!best) {
		// What a definition at the coarsest candidate raises (CellDomain::Choose's error, with its hint).
		(void)CellDomain::Choose(first_layout->Radices(), first_layout->public_points, planning.cell_limit);
		throw Error(ErrorKind::Internal, "no layout fits, yet the coarsest one does");
	}
	std::vector<LayoutPrediction> predictions;
	for (const PlannedLayout &p : planned)
		predictions.push_back({p.candidate, p.predicted, p.rests_on_public_sample});
	const double tie = NearTieOf(finest);
	const LayoutTieChoice tie_choice = ChooseAmongPlanned(predictions, tie);
	const PlannedLayout &chosen = planned[tie_choice.chosen];
	LayoutChoice choice;
	choice.max_bin_rows = ladder[chosen.candidate].max_bin_rows;
	choice.predicted = chosen.predicted;
	choice.layout = layout_of(ladder[chosen.candidate]);
	const ReleaseLayout unfolded = chosen.folded ? choice.layout : ReleaseLayout{};
	std::string folded;
	if (chosen.folded) {
		std::optional<FoldedLayout> grid = FoldedGrid(choice.layout, planning.cell_limit);
		if (!grid)
			throw Error(ErrorKind::Internal, "a folded layout planned but not rebuilt");
		choice.layout = std::move(grid->layout);
		folded = std::move(grid->summary);
	}
	choice.layout.domain_kind = chosen.domain;
	choice.granularity = "auto: " + GranularitySentence(ladder[chosen.candidate], planning.public_rows, chosen.folded) +
	                     "; " + DomainName(chosen.domain, folded) + "; " + chosen.mechanism + " predicts " +
	                     Rounded(chosen.predicted) + " at epsilon " + Rounded(planning.epsilon);
	if (tie_choice.steadier)
		choice.granularity += ", within " + Rounded(kNearTie) + " times the smallest prediction (" +
		                      planned[tie_choice.smallest].mechanism + "'s), which rests on the public sample";
	if (tie_choice.chosen != tie_choice.anchor)
		choice.granularity += ", the finest within " + Rounded(tie) + " times " +
		                      (tie_choice.steadier ? "that prediction" : "the smallest prediction");
	std::string others = OthersText(ladder, planned, chosen, not_fitting);
	if (stopped)
		others += std::string(others.empty() ? "" : "; ") + "finer ones not planned";
	if (!others.empty())
		choice.granularity += " (" + others + ")";
	choice.domain_reason = DomainReason(chosen.folded ? unfolded : choice.layout, planned, chosen, planning.cell_limit);
	return choice;
}

}  // namespace pap::core
