// Granularity and domain chosen by the error model (docs/mechanisms.md §20, "The layout auto chooses"): at
// definition, `granularity => 'auto'` plans the release on several layouts built from the public table alone (cut
// points at 64, 32, ..., 2 times alpha's public mass per bin, at alpha's, at half, a quarter, ... of it and at every
// public value; each as a full grid and as the public support plus one outside cell, where they fit
// pap_release.max_cells) and keeps the one whose plan (auto's mechanism) predicts the smallest total error; ties
// (and near ties within NearTieOf) take the finer granularity, then the domain of the smaller prediction (the full
// grid on a tie), as ChooseAmongPlanned says. Only public numbers enter: the
// public marginals and grid points, the private row count (public under replace-one, as pap.plan reads it), epsilon,
// delta, alpha and beta.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/language/class_spec.hpp"
#include "core/mechanisms/registry.hpp"
#include "core/release/release_layout.hpp"

namespace pap::core {

// One granularity of the ordered axes: the public rows a bin may hold (classes/axis_granularity.hpp's ChooseCuts;
// 0 is every public value) and its name ("alpha", "alpha/2", ..., "finest").
struct GranularityCandidate {
	std::string name;
	double max_bin_rows = 0.0;
	// "every whole value": the discrete ordered axes cut at every multiple of their step from their lowest to their
	// highest public value (WholeValueLayout), finer than finest; max_bin_rows is 0.
	bool whole_values = false;
};

// The ladder auto compares, coarsest first: bins of alpha's public mass (MaxBinRows) times 2^k for k = kMaxDoublings
// .. 1 while a bin holds less than the whole public table and more than one row ("alpha*64" .. "alpha*2"), alpha's,
// then divided by 2^k
// for k = 1 .. kMaxHalvings while a bin may still hold more than one public row ("alpha/2" .. "alpha/256"), then
// finest. A class without ordered axes (marginals, stumps, predicates) has the one candidate "exact" (0).
constexpr int kMaxDoublings = 6;
constexpr int kMaxHalvings = 8;
// The predictions along the ladder fall while the projection dominates and rise once the noise of more cells does:
// after this many planned granularities in a row that predict more than kNearTie times the best, the finer (and
// costlier) ones are not planned.
constexpr int kWorseBeforeStopping = 2;
// Predictions within kNearTie (near_tie.hpp) of the smallest are a tie, which the finest granularity among them wins:
// the projection part is a worst case over every private table the public sample allows, floored near ln(events /
// beta) / m where a bin holds few public rows, so it hardly falls with finer cuts although the error it bounds does,
// while the noise part follows the noise's own law (docs/mechanisms.md §20). Not over two or more ordered axes
// (NearTieOf).
//
// The tie factor of a layout's class: kNearTie where a query moves edges on one ordered axis; 1 (the smallest
// prediction wins) where it may move them on two or more (boxes, orthants; not halfspaces or stumps, whose query is
// one threshold on one axis: MovableEdgesPerAxis). A query may then restrict the other axes, and part (a) takes a
// bin's part whole, a term that falls in proportion to the bins, so the prediction already credits finer cuts and
// the floor above does not hold them back.
double NearTieOf(const ReleaseLayout &layout);

// One planned layout as the choice among them reads it: its granularity (the ladder's position: a larger one is
// finer), auto's prediction there, and whether that prediction rests on the public sample (MechanismPlan's).
struct LayoutPrediction {
	std::size_t candidate = 0;
	double predicted = 0;
	bool rests_on_public_sample = false;
};
struct LayoutTieChoice {
	std::size_t chosen = 0;    // the position in the planned list
	std::size_t smallest = 0;  // the smallest prediction's (the first, on a tie)
	std::size_t anchor = 0;    // the prediction the finer granularities' tie is taken from
	bool steadier = false;     // the anchor is not the smallest: it took a near tie from the smallest, resting on the
	                           // public sample, as a prediction that does not
};
// The choice among the planned layouts (in planning order: coarsest first, the grid before the support), from
// the smallest prediction: where it rests on the public sample, the smallest that does not takes a near tie with it
// (within kNearTie, as AutoChoice between mechanisms); then the finest granularity within `tie` (NearTieOf) of that
// one, on its domain of the smaller prediction, leaving out those resting on the sample where that one does not
// (docs/mechanisms.md §10, "A near tie goes to a prediction that does not rest on the public sample").
// Error(Internal) for an empty list.
LayoutTieChoice ChooseAmongPlanned(const std::vector<LayoutPrediction> &planned, double tie);
std::vector<GranularityCandidate> GranularityLadder(const ClassSpec &spec, double alpha, std::int64_t public_rows);

// finest's ordered axes cut at max_bin_rows (ChooseCuts on their public marginals), its public grid points (taken
// at a cut at every public value) moved to the coarser bins and merged. Categorical and predicate axes, the
// domain kind and everything else are kept. O(points * axes * log cuts).
ReleaseLayout CoarsenLayout(const ReleaseLayout &finest, double max_bin_rows);

// Every whole value (docs/mechanisms.md §20): finest with each discrete ordered axis (a Numeric axis whose
// value_step is > 0: integer types, dates) cut at every multiple of its step from its lowest to its highest public
// value, the multiples the public table never showed added to its public marginal with 0 rows (EveryWholeValue), and
// its public grid points moved to the new bins. A bin (v - step, v] then holds the one value v, so no query edge
// falls inside the public range: part (a) is 0 there with certainty, and only the tails below the lowest and above
// the highest public value keep their bounds. An axis is cut so only when its whole values number at most
// kWholeValuesPerPublicValue times its public values (and fit cell_limit on their own); nullopt when no axis is.
// The limit is one of cost, not of accuracy: the candidate is planned beside finest, the ladder's costliest rung, and
// at most kWholeValuesPerPublicValue times finest's cuts per axis keep its plan, cover and stored marginal within a
// constant factor of finest's (cells kWholeValuesPerPublicValue^k times finest's over k such axes, a ranges cover
// its square); a column whose whole values are many more than the public ones (an amount in cents, days over
// decades with sparse public rows) is not planned.
constexpr double kWholeValuesPerPublicValue = 2.0;
std::optional<ReleaseLayout> WholeValueLayout(const ReleaseLayout &finest, std::uint64_t cell_limit);

// What a plan of each candidate needs beside the layout: all public (pap.plan's request at definition).
struct LayoutPlanning {
	std::int64_t public_rows = 0;
	std::int64_t private_rows = 0;
	double epsilon = 1.0, delta = 0.0, alpha = 0.05, beta = 0.05;
	std::uint64_t cell_limit = 0;       // pap_release.max_cells
	std::size_t max_cover_queries = 0;  // pap_release.max_cover_queries
};

struct LayoutChoice {
	ReleaseLayout layout;  // the chosen cuts, public points and domain kind
	double max_bin_rows = 0.0;
	double predicted = 0.0;     // auto's predicted total error on the chosen layout
	std::string granularity;    // a sentence for pap.releases.granularity: what was chosen, its prediction, the others'
	std::string domain_reason;  // a sentence for pap.releases.domain_reason
};

// Plans the candidates of the ladder, coarsest first, on every domain that fits planning.cell_limit (stopping after
// kWorseBeforeStopping granularities in a row that predict more than kNearTie times the best) and keeps the finest
// granularity whose prediction is within NearTieOf(finest) of the smallest, on its domain of the smaller prediction
// (the full grid on a tie). finest: the layout at a cut at every public value (its domain kind is not read).
// Error(LimitExceeded) (the coarsest candidate's, as a definition at that granularity would raise) when no candidate
// fits; Error(Cancelled) when interrupted; the planner's errors otherwise.
LayoutChoice ChooseLayout(const ReleaseLayout &finest, const LayoutPlanning &planning);

}  // namespace pap::core

#include "core/base/core_only.hpp"
