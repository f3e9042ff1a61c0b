#include "core/release/answer_mode.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/classes/predicate_cover.hpp"
#include "core/mechanisms/error_model.hpp"

namespace pap::core {

std::vector<int>
MovableEdgesPerAxis(const ReleaseLayout &layout, bool &one_axis_per_query)
{
	const ClassKind kind = layout.spec.kind;
	one_axis_per_query = kind == ClassKind::Stumps || kind == ClassKind::Halfspaces;
	const int per_axis = kind == ClassKind::Ranges || kind == ClassKind::Boxes           ? 2
	                     : kind == ClassKind::Marginals || kind == ClassKind::Predicates ? 0
	                                                                                     : 1;
	std::vector<int> edges;
	for (const ReleaseAxis &axis : layout.axes)
		edges.push_back(axis.Ordered() ? per_axis : 0);
	return edges;
}

bool
RefinableClass(ClassKind kind)
{
	return kind == ClassKind::Thresholds || kind == ClassKind::Ranges || kind == ClassKind::Boxes ||
	       kind == ClassKind::Orthants;
}

bool
CellsAnswerable(const ReleaseLayout &layout)
{
	const ClassKind kind = layout.spec.kind;
	return (kind == ClassKind::Marginals || kind == ClassKind::Stumps) && layout.domain_kind == DomainKind::Dense;
}

double
ProjectionEventBetaOf(const ReleaseLayout &layout, double request_beta)
{
	return ProjectionEventBeta(request_beta,
	                           layout.domain_kind == DomainKind::Dense && RefinableClass(layout.spec.kind));
}

namespace {

// The bins of an axis that a condition "c = v" of the class can name: the categories and the "other" bin of a
// categorical column whose type admits other values (text, numbers), only the categories of a boolean or an enum
// (ClosedCategories), a predicate's two labels. Never the NULL bin.
bool
OpenAxis(const ReleaseAxis &axis)
{
	return axis.kind == AxisKind::Categorical && !axis.ClosedCategories();
}

std::int32_t
NamedBins(const ReleaseAxis &axis)
{
	return axis.kind == AxisKind::Categorical ? std::int32_t(axis.categories.size()) + (OpenAxis(axis) ? 1 : 0) : 2;
}

std::size_t
OpenAxesOf(const ReleaseLayout &layout)
{
	return std::size_t(std::count_if(layout.axes.begin(), layout.axes.end(), OpenAxis));
}

// The empty pattern of the class's cover (docs/query-classes.md): the first query in the cover's canonical order
// (attribute sets in lexicographic order, value tuples in mixed-radix order, last axis fastest) that no public row
// satisfies, which answers every query no public row satisfies. exists: there is one; other_axes: the open axes
// whose "other" bin it reads (all of its open axes when its attribute set's tuples are too many to number).
struct EmptyPattern {
	bool exists = false;
	std::vector<std::size_t> other_axes;
};

EmptyPattern
FirstEmptyPattern(const ReleaseLayout &layout, int order)
{
	const std::size_t dims = layout.axes.size();
	const std::size_t points = layout.public_point_counts.size();
	std::vector<std::size_t> set(static_cast<std::size_t>(order), 0);
	for (std::size_t i = 0; i < set.size(); i++)
		set[i] = i;
	std::uint64_t steps = 0;
	std::vector<std::uint64_t> keys;
	EmptyPattern empty;
	while (true) {
		double tuples = 1.0;
		for (std::size_t a : set)
			tuples *= double(NamedBins(layout.axes[a]));
		if (tuples > 1e18) {  // keys would not fit 64 bits: some tuple is unseen, assume it reads every "other"
			empty.exists = true;
			for (std::size_t a : set)
				if (OpenAxis(layout.axes[a]))
					empty.other_axes.push_back(a);
			return empty;
		}
		keys.clear();
		for (std::size_t p = 0; p < points; p++) {
			PollInterrupt(steps);
			std::uint64_t key = 0;
			bool named = true;
			for (std::size_t a : set) {
				const std::int32_t bin = layout.public_points[p * dims + a];
				named = named && bin < NamedBins(layout.axes[a]);
				key = key * std::uint64_t(NamedBins(layout.axes[a])) + std::uint64_t(bin);
			}
			if (named)
				keys.push_back(key);
		}
		std::sort(keys.begin(), keys.end());
		keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
		if (double(keys.size()) < tuples) {
			// The first tuple missing from the sorted keys, decoded last axis first.
			std::uint64_t first = 0;
			while (first < keys.size() && keys[first] == first)
				first++;
			empty.exists = true;
			for (std::size_t i = set.size(); i-- > 0;) {
				const ReleaseAxis &axis = layout.axes[set[i]];
				const std::uint64_t radix = std::uint64_t(NamedBins(axis));
				if (OpenAxis(axis) && first % radix == std::uint64_t(axis.OtherBin()))
					empty.other_axes.push_back(set[i]);
				first /= radix;
			}
			return empty;
		}
		// The next attribute set in lexicographic order.
		std::size_t i = set.size();
		while (i > 0 && set[i - 1] == dims - set.size() + i - 1)
			i--;
		if (i == 0)
			return empty;
		set[i - 1]++;
		for (std::size_t j = i; j < set.size(); j++)
			set[j] = set[j - 1] + 1;
	}
}

// Part (a) of the classes answered through the public rows' labelings (marginals, stumps, predicates): the private
// share of the values the public table never showed (error_model.hpp, UnseenValuesError).
double
UnseenValuesErrorOf(const ReleaseLayout &layout, const std::vector<std::vector<std::int64_t>> &open_rows,
                    std::int64_t public_rows, std::int64_t private_rows, double beta)
{
	const int order = layout.spec.kind == ClassKind::Marginals ? layout.spec.k : 1;
	const std::size_t dims = layout.axes.size();
	if (order < 1 || std::size_t(order) > dims)
		throw Error(ErrorKind::Internal, "error model: the class's order does not match its axes");
	// The attribute sets, C(dims, order): each partitions the rows into its cells.
	double sets = 1.0;
	for (int j = 0; j < order; j++)
		sets = sets * double(dims - std::size_t(j)) / double(j + 1);
	// Per axis whose "other" bin the empty pattern reads, its public rows per bin (categories, "other", NULL).
	const EmptyPattern empty = FirstEmptyPattern(layout, order);
	std::vector<std::vector<std::int64_t>> other_axes;
	for (std::size_t a : empty.other_axes)
		other_axes.push_back(open_rows.at(a));
	return UnseenValuesError(std::round(sets), empty.exists, other_axes, OpenAxesOf(layout), public_rows, private_rows,
	                         beta);
}

// The axes of a marginals release that may fold (open categorical axes): the unions of the folded parts run over
// them, whichever folded (that is the public sample's doing). 0 for every other class.
std::size_t
FoldableAxesOf(const ReleaseLayout &layout)
{
	if (layout.spec.kind != ClassKind::Marginals)
		return 0;
	return OpenAxesOf(layout);
}

// The axes folded to fit pap_release.max_cells (category_folding.hpp): the open axes of a marginals release whose
// "other" bin holds public rows, each with its public rows per bin. Empty for every release that did not fold.
struct FoldedAxes {
	std::vector<std::size_t> axes;
	std::vector<std::vector<std::int64_t>> rows;
};

FoldedAxes
FoldedAxesOf(const ReleaseLayout &layout, const std::vector<std::vector<std::int64_t>> &open_rows)
{
	FoldedAxes folded;
	if (layout.spec.kind != ClassKind::Marginals)
		return folded;
	for (std::size_t a = 0; a < layout.axes.size(); a++) {
		if (!OpenAxis(layout.axes[a]))
			continue;
		const std::vector<std::int64_t> &rows = open_rows.at(a);
		if (rows.at(std::size_t(layout.axes[a].OtherBin())) > 0) {
			folded.axes.push_back(a);
			folded.rows.push_back(rows);
		}
	}
	return folded;
}

// Per axis, the most private share one value of its "other" bin can have (error_model.hpp's FoldedValueError): at
// threshold 0 for a bin of the values the public table never showed, at the fold's (FoldThresholdOf its fewest kept
// rows and its bin's) for a folded one; on an event of beta shared by the open axes (which of them fold is the
// sample's doing); 1 on every other axis.
std::vector<double>
OtherBinCaps(const ReleaseLayout &layout, const std::vector<std::vector<std::int64_t>> &open_rows,
             std::int64_t public_rows, std::int64_t private_rows, double beta)
{
	std::vector<double> caps(layout.axes.size(), 1.0);
	const double open = double(OpenAxesOf(layout));
	for (std::size_t a = 0; a < layout.axes.size(); a++) {
		if (!OpenAxis(layout.axes[a]))
			continue;
		const std::vector<std::int64_t> &rows = open_rows.at(a);
		const std::size_t other = std::size_t(layout.axes[a].OtherBin());
		const auto kept_end = rows.begin() + std::ptrdiff_t(other);
		const std::int64_t threshold =
		    rows[other] > 0 ? FoldThresholdOf(*std::min_element(rows.begin(), kept_end), rows[other]) : 0;
		caps[a] = FoldedValueError(threshold, public_rows, private_rows, beta / open);
	}
	return caps;
}

// Part (a) of predicates (docs/mechanisms.md §10 (a), "Merged predicates"): a listed predicate on the axis of
// another condition (the public rows label both alike, MergePredicates) is answered by that one's cover query, off
// by the private rows on which the two disagree, a set that holds no public row. Every pair of distinct listed
// conditions is such a set, fixed before either table is drawn, so the union runs over all of them: the pooled
// bound of a set without public rows (PrivateShareInterval). 0 when every axis holds one condition: each query is
// its own cover query.
double
MergedPredicatesError(const ReleaseLayout &layout, std::int64_t public_rows, std::int64_t private_rows, double beta)
{
	const std::vector<std::string> &predicates = layout.spec.predicates;
	if (MergesOnlyEquivalentPredicates(predicates, layout.predicate_axis))
		return 0.0;
	const double conditions = double(MergeEquivalentPredicates(predicates).representatives.size());
	const double pairs = conditions * (conditions - 1.0) / 2.0;
	return PrivateShareInterval(0, public_rows, private_rows, RefinementLogTerm(pairs, beta)).high;
}

bool
LabellingClass(ClassKind kind)
{
	return kind == ClassKind::Marginals || kind == ClassKind::Stumps || kind == ClassKind::Predicates;
}

// Per axis, its public rows per bin (categories, "other", NULL) when it is open and the class reads them (the
// labelling classes: UnseenValuesErrorOf, the folded and own-cells parts); empty otherwise. Read once per plan or
// load: each is a pass over the public points.
std::vector<std::vector<std::int64_t>>
OpenAxisRowsOf(const ReleaseLayout &layout)
{
	std::vector<std::vector<std::int64_t>> rows(layout.axes.size());
	if (!LabellingClass(layout.spec.kind))
		return rows;
	for (std::size_t a = 0; a < layout.axes.size(); a++)
		if (OpenAxis(layout.axes[a]))
			rows[a] = layout.PublicRowsPerBin(a);
	return rows;
}

std::vector<AxisCut>
AxisCutsOf(const ReleaseLayout &layout)
{
	std::vector<AxisCut> cuts;
	for (const ReleaseAxis &axis : layout.axes)
		cuts.push_back(axis.Ordered() ? AxisCutOf(axis.cuts, axis.public_values, axis.public_counts, axis.value_step)
		                              : AxisCut{});
	return cuts;
}

}  // namespace

namespace {

// Whether the plan's part (a) takes its event over the upper bounds alone (AxisUpperEventCount): over two or more
// axes, where both modes read only those (the projection always; refinement without the lower bounds,
// WithinOtherAxesRange). The answers' event keeps every bound: a query bounding one column subtracts the lower bounds
// (docs/mechanisms.md §10, "The pooled bound").
bool
PlanEventHoldsUpperBoundsOnly(const std::vector<AxisCut> &cuts)
{
	return cuts.size() > 1;
}

// How far refined answers spread each gap (GapSpreadShares): within the worst refined edge error both on the answers'
// event (their own bounds) and on the plan's (its part (a), at its median event), so that neither is more than it is
// without spreading. The two events' bounds shrink by different factors (a gap's with the log term, a bin of several
// rows less), so a share that fits one may not fit the other.
std::vector<std::vector<double>>
SpreadWithinBothEvents(const std::vector<AxisCut> &cuts, const std::vector<int> &edges, std::int64_t public_rows,
                       std::int64_t private_rows, double answers_beta)
{
	std::vector<std::vector<double>> spread = GapSpreadShares(cuts, edges, public_rows, private_rows, answers_beta);
	const std::vector<std::vector<double>> plan = GapSpreadShares(
	    cuts, edges, public_rows, private_rows, PlanProjectionEventBeta(), PlanEventHoldsUpperBoundsOnly(cuts));
	for (std::size_t a = 0; a < spread.size(); a++)
		for (std::size_t k = 0; k < spread[a].size(); k++)
			spread[a][k] = std::min(spread[a][k], plan[a][k]);
	return spread;
}

// Part (a) in projection mode on the given cuts: ProjectionError, plus the unseen values' part for the labelling
// classes.
double
ProjectionPartOf(const ReleaseLayout &layout, const std::vector<std::vector<std::int64_t>> &open_rows,
                 const std::vector<AxisCut> &cuts, const std::vector<int> &edges, bool one_axis,
                 std::int64_t public_rows, std::int64_t private_rows, double beta, bool upper_bounds_event = false)
{
	if (layout.spec.kind == ClassKind::Predicates)
		return MergedPredicatesError(layout, public_rows, private_rows, beta);
	double projection = ProjectionError(cuts, edges, one_axis, public_rows, private_rows, beta, upper_bounds_event);
	if (!LabellingClass(layout.spec.kind))
		return projection;
	const std::size_t foldable = FoldableAxesOf(layout);
	if (foldable == 0)
		return std::min(1.0, projection + UnseenValuesErrorOf(layout, open_rows, public_rows, private_rows, beta));
	// Marginals over columns that may fold (so the ordered part is 0): a query is read from its cover query, the
	// empty pattern, or, naming a folded category, a cover query of an "other" bin: each on its own event at half
	// of beta (whether any column folded is the sample's doing), and every query within the larger part.
	return std::min(1.0,
	                projection + std::max(UnseenValuesErrorOf(layout, open_rows, public_rows, private_rows, beta / 2.0),
	                                      OtherBinsError(FoldedAxesOf(layout, open_rows).rows, foldable, public_rows,
	                                                     private_rows, beta / 2.0)));
}

// Part (a) of an answer read from the query's own cells (CellsAnswerable): a query naming a value its column's
// categories do not hold (one the public table never showed, or a folded one) reads the column's "other" bin and is
// answered with half the bin's weight, capped at what one value of the bin can hold: off by at most half the bin's
// private share, or half the cap. The largest over the open axes, the bins' bounds and the caps each
// on half of the event (docs/mechanisms.md §10, "The answer mode"; §20, "Folded categories").
double
OwnCellsError(const ReleaseLayout &layout, const std::vector<std::vector<std::int64_t>> &open_rows,
              std::int64_t public_rows, std::int64_t private_rows, double beta)
{
	const std::size_t open = OpenAxesOf(layout);
	if (open == 0)
		return 0.0;
	const std::vector<double> caps = OtherBinCaps(layout, open_rows, public_rows, private_rows, beta / 2);
	double worst = 0.0;
	for (std::size_t a = 0; a < layout.axes.size(); a++)
		if (OpenAxis(layout.axes[a]))
			worst = std::max(
			    worst, std::min(OtherBinsError({open_rows[a]}, open, public_rows, private_rows, beta / 2), caps[a]));
	return worst / 2;
}

}  // namespace

AnswerModeErrors
AnswerModeErrorsOf(const ReleaseLayout &layout, std::int64_t public_rows, std::int64_t private_rows, double event_beta,
                   bool plan_event)
{
	if (!(event_beta > 0.0 && event_beta < 1.0))
		throw Error(ErrorKind::Internal, "error model: part (a)'s event needs a probability in (0, 1)");
	const double beta = event_beta;
	const std::vector<AxisCut> cuts = AxisCutsOf(layout);
	bool one_axis = false;
	const std::vector<int> edges = MovableEdgesPerAxis(layout, one_axis);
	const std::vector<std::vector<std::int64_t>> open_rows = OpenAxisRowsOf(layout);
	// One event for both modes; off the plan (plan_event false) every bound's, the answers', on which a refined
	// answer's own bound stays within the part.
	const bool upper_bounds_event = plan_event && PlanEventHoldsUpperBoundsOnly(cuts);
	AnswerModeErrors out;
	out.projection =
	    ProjectionPartOf(layout, open_rows, cuts, edges, one_axis, public_rows, private_rows, beta, upper_bounds_event);
	out.refinement = RefinableClass(layout.spec.kind)
	                     ? RefinementError(cuts, edges, one_axis, public_rows, private_rows, beta, upper_bounds_event)
	                     : out.projection;
	// A tie (the finest granularity: every split leaves one side of its bin empty) goes to refinement, whose answers
	// spread the gaps within the same bound (GapSpreadShares) where the projection moves every bound to a cut.
	out.refine = RefinableClass(layout.spec.kind) && out.refinement <= out.projection;
	if (CellsAnswerable(layout))
		out.own_cells = OwnCellsError(layout, open_rows, public_rows, private_rows, beta);
	return out;
}

LoadedAnswerFacts
LoadedAnswerFactsOf(const ReleaseLayout &layout, std::int64_t public_rows, std::int64_t private_rows,
                    double request_beta)
{
	const double beta = ProjectionEventBetaOf(layout, request_beta);
	const std::vector<AxisCut> cuts = AxisCutsOf(layout);
	bool one_axis = false;
	const std::vector<int> edges = MovableEdgesPerAxis(layout, one_axis);
	const std::vector<std::vector<std::int64_t>> open_rows = OpenAxisRowsOf(layout);
	LoadedAnswerFacts out;
	out.projection = ProjectionPartOf(layout, open_rows, cuts, edges, one_axis, public_rows, private_rows, beta);
	out.unseen_points_mass =
	    OutsideMassError(layout.public_point_counts, false, public_rows, private_rows, DataPartBeta(request_beta));
	if (CellsAnswerable(layout) && public_rows > 0 && private_rows > 0)
		out.other_bin_caps = OtherBinCaps(layout, open_rows, public_rows, private_rows, beta / 2.0);
	out.gap_spread = RefinableClass(layout.spec.kind) && public_rows > 0 && private_rows > 0
	                     ? SpreadWithinBothEvents(cuts, edges, public_rows, private_rows, beta)
	                     : std::vector<std::vector<double>>(layout.axes.size());
	return out;
}

}  // namespace pap::core
