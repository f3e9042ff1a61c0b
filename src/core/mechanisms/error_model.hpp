// The total-error model every plan is judged by (docs/mechanisms.md §10, "The total error"): the max error over the
// whole query class, not only the cover queries, as a sum of parts each estimated from public information only.
// These are the data parts (projection onto the cover, mass outside the domain, the public prior's sampling
// error); the noise part is each mechanism's own prediction. Pure functions of public numbers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/axes/gap_spread.hpp"  // NoValueBetween

namespace pap::core {

// The parts of one mechanism's predicted error (fractions of n). total = projection + outside_mass + noise: noise
// is the mechanism's max error over the cover queries (for the mechanisms that start from the public prior it
// already accounts for prior, which is shown, not added a second time).
struct ErrorParts {
	double projection = 0;    // a query of the class against its cover query: private rows they disagree on
	double outside_mass = 0;  // private rows in the outside cell of a public-support domain, which no query reads
	double noise = 0;         // the mechanism's max error over the cover queries, at confidence 1 - beta / 2
	double prior = 0;         // how far the prior the mechanism starts from is off (0: it starts from nothing)
	double Total() const;     // projection + outside_mass + noise, at most 1
};

// The chance each data part may fail: the request's beta is halved between the noise (the mechanisms plan with
// beta / 2) and the three data parts, a sixth of beta each, so that the sum holds with probability 1 - beta.
double DataPartBeta(double request_beta);
// The chance part (a)'s event may fail (the projection and refinement parts, the gap spreads and every answer's own
// bound read that one event): DataPartBeta's sixth, plus part (b)'s sixth where part (b) is 0 with certainty and no
// answer reads its event (outside_mass_certain: a full grid of an ordered class). A union bound needs no share for
// an event that cannot fail (docs/mechanisms.md §10, "Confidence").
double ProjectionEventBeta(double request_beta, bool outside_mass_certain);
// The chance the plan's part (a) may fail: 1/2. Taken over the same sets as ProjectionEventBeta's event, the union
// bound at 1/2 bounds the median of the largest private share a query of the class can move over: the plan predicts
// part (a) as a typical release shows it, where its 1 - beta_a quantile is a worst case a few times larger (the
// log term of a gap is ln(2 E) instead of ln(E / beta_a)). The noise stays at confidence 1 - beta / 2, and every
// answer's own bound keeps ProjectionEventBeta's event (docs/mechanisms.md §10, "Confidence"; §18).
double PlanProjectionEventBeta();

// Chernoff's bound in its relative-entropy form. Upper confidence bound on a population share p from the share
// observed among `rows` independent rows: the largest p >= observed with rows * KL(observed || p) <= log_term
// (P[observed share <= q] <= exp(-rows KL(q || p)) for q < p). 0 observed gives 1 - exp(-log_term / rows).
double ShareUpperBound(double observed, double rows, double log_term);
// The other direction: the largest share `rows` independent rows may show when the population share is p, the q
// >= p with rows * KL(q || p) = log_term.
double SampleShareUpperBound(double p, double rows, double log_term);
// A private share bounded from a public one, both tables samples of one population: the population's share at
// most ShareUpperBound(public_share, m), the private table's at most SampleShareUpperBound of that at n.
double PrivateShareBound(double public_share, double public_rows, double private_rows, double log_term);

// NoValueBetween (whether an open interval between two cuts or values holds no value of a discrete column) is
// declared in axes/gap_spread.hpp, beside StepFloor: the covers read it too.

// What one ordered axis lets a query cut: over the bins of the cut points (b_{j-1}, b_j], with the public values
// and row counts sorted (release_axis.hpp), the most public rows a bound inside a bin can leave on the side its
// projection moves over (the side with fewer public rows, docs/query-classes.md), and how many bounds refinement's
// event takes on the axis (AxisEventCount: the union bound's count). step: the axis's value step
// (release_axis.hpp), 0 for a continuous axis.
struct AxisCut {
	std::int64_t largest_side_rows = 0;
	std::size_t sides = 0;
	// Refinement's part: per bin in order, the public rows below each split point (0, then after each public value;
	// the last is the bin's public rows).
	std::vector<std::vector<std::int64_t>> bin_splits;
	// Per bin: its part below the first public value (above the last) can hold no value of the column (the
	// NoValueBetween of its lower cut and that value; the upper cut is that value, on every axis: the part above
	// (v, b] holds b itself otherwise), so a bound there selects what the cut selects: exact, with no error and no
	// bound to take. False for a bin without public values.
	std::vector<bool> empty_below, empty_above;
	// The upper bounds alone among the sides (AxisUpperEventCount): the event of a part that reads no lower bound.
	std::size_t upper_sides = 0;
};
AxisCut AxisCutOf(const std::vector<double> &cuts, const std::vector<double> &public_values,
                  const std::vector<std::int64_t> &public_counts, double step = 0.0);
// The bounds refinement's event takes on one axis, one per set and direction an answer's error reads: per bin, the
// upper bounds of the gap below its first public value and of the whole bin (a split with every public row on one
// side reads one upper bound), both bounds of both parts at every split between two of its values, and the upper
// bound of the part above its last value unless that part is empty (the bin's upper cut is that value); when a step
// leaves the gap below the first value empty, neither of its two (a bound there is exact); a bin without public rows,
// its own upper bound. Depends on the cuts, the values and the step alone.
std::size_t AxisEventCount(const std::vector<double> &cuts, const std::vector<double> &public_values,
                           double step = 0.0);
// The upper bounds among them that a part taking no lower bound reads (the projection's, and refinement's over two
// or more axes, WithinOtherAxesRange): per bin, the gap below its first public value (unless a step leaves it empty),
// the whole bin where refined answers spread its first value's row over that gap (GapSpreadShares: a bound at the
// gap's top weighs the whole bin by theta / B; every bin but the lowest), the parts below and above every split
// between two of its values, and the part above its last value unless it is empty; a bin without public rows, its
// own. About half of AxisEventCount on bins of several public values; on bins of one, all but the lowest bin's whole
// bin.
std::size_t AxisUpperEventCount(const std::vector<double> &cuts, const std::vector<double> &public_values,
                                double step = 0.0);

// Part (a): edges[a] query edges may move on axis a (their cuts from AxisCutOf); each adds the private share of one
// side, bounded from its public rows on refinement's event (PrivateShareInterval at RefinementLogTerm over the
// events of the moved axes). A query's edges on one
// axis that can only be one at a time (a stump's or a halfspace's one threshold) are passed as max_over_axes = true:
// the largest axis's term alone.
// upper_bounds_event: the event is the union over the moved axes' upper_sides instead of their sides (the plan's
// part of a class over two or more axes, whose two modes read upper bounds only: AnswerModeErrorsOf). Not for the
// answers' event, which their one-column bounds read the lower bounds of too (docs/mechanisms.md §18).
double ProjectionError(const std::vector<AxisCut> &axes, const std::vector<int> &edges, bool max_over_axes,
                       std::int64_t public_rows, std::int64_t private_rows, double beta,
                       bool upper_bounds_event = false);

// The private share of a set of values the public sample delimits (a gap between public values, a bin, the part
// of a bin below or above a split point) holding `rows` public rows, between a lower and an upper bound. Both tables
// samples of one population, the pooled N = m + n rows are exchangeable: the public rows are a uniformly random m of
// them, and the private rows between consecutive public rows in the pooled order are the spacings of a random
// m-subset, an exchangeable vector. The set lies within rows + 1 consecutive spacings and holds the rows - 1 between
// its first and last public row; a sum of j spacings reaches g when the first g + j - 1 pooled rows hold at most
// j - 1 public ones, a hypergeometric tail within the larger of Chernoff's exp(-k KL(j' / k || m / N)) for k pooled
// rows drawn and exp(-m KL(j' / m || k / N)) for the m public ones (Hoeffding 1963), and then tightened to the tail
// itself (LogHypergeometricTailBound: the bounds are whole private rows over n). Each bound fails with
// probability at most exp(-log_term); one step from the public rows to the private ones, where bounding the
// population's share first and then the private table's would pay twice (docs/mechanisms.md §10, "The pooled
// bound").
struct ShareInterval {
	double low = 0, high = 1;
};
ShareInterval PrivateShareInterval(std::int64_t rows, std::int64_t public_rows, std::int64_t private_rows,
                                   double log_term);
// An upper bound on ln P[X <= hits] (at_most) or ln P[X >= hits] for X the public rows among the first `draws` of the
// pooled rows, public_rows of pooled_rows public (the hypergeometric law PrivateShareInterval's tails are): the exact
// sum of the tail's terms (log-gamma for the first, the mass function's ratio for the rest, the remainder after
// the terms fall below the double's resolution bounded as a geometric series, as the mass function is log-concave),
// plus the rounding of the log-gamma values. 0 (probability 1) when hits is on the mode's side: only small tails
// are computed. PrivateShareInterval takes its bounds from these where they are tighter than Chernoff's.
double LogHypergeometricTailBound(std::int64_t hits, std::int64_t draws, std::int64_t public_rows,
                                  std::int64_t pooled_rows, bool at_most);
// The log term of refinement's event over `events` bounds (AxisEventCount's, summed over the axes), each failing
// with probability exp(-log_term): ln(events / beta). The answer bound's event for every answer, refined or not
// (docs/mechanisms.md §18).
double RefinementLogTerm(double events, double beta);
// The data error of one edge answered by refinement inside a bin whose public rows split into `below` and `above`
// at the edge, the refined answer placing the share f = `interpolated` of the bin below it (below / (below + above)
// plus the spread of a gap the edge cuts, axes/gap_spread.hpp): max(f hi(above) - (1 - f) lo(below), (1 - f)
// hi(below) - f lo(above)); a bin without public rows keeps the projection's answer, hi of its (empty) gap. The
// plan's part (RefinementError, its worst over every split) and a query's own bound (answer_bound.hpp) both use it.
double RefinedEdgeError(std::int64_t below, std::int64_t above, double interpolated, const ShareInterval &below_share,
                        const ShareInterval &above_share);
// The interval to give RefinedEdgeError for a part of the bin when the query may also restrict another axis (a box or
// an orthant over two or more axes, a term with IS NOT NULL on another column): the rows of the part that count are
// then only those inside the query's range on the other axes (weighted by their own refined shares, at most 1), whose
// share may be anything from 0 to the part's, so only the upper bound holds: {0, high}. Otherwise the share itself.
ShareInterval WithinOtherAxesRange(const ShareInterval &share, bool others_restricted);

// Part (a) when answers refine within cells (pap.answer's refine): a bound inside a bin (B public rows, L of them
// below the bound) is answered as (1 - f) times the cover answer below the bin plus f times the one above it, f =
// L/B (plus, inside a gap, the spread below the bound: GapSpreadShares), so beside the noise its error is
// |f D_above - (1 - f) D_below| for the private shares D of the bin's parts above and below the bound. Each share
// lies between a lower and an upper bound from its public rows (PrivateShareInterval, a union over the bounds
// AxisEventCount counts); the part is the largest such error at f = L/B, per edge as in
// ProjectionError. A bin without public rows keeps the projection's answer (a gap's bound). Over two or more axes a
// query may restrict the others, and each edge's error is then taken without the lower bounds
// (WithinOtherAxesRange).
// upper_bounds_event (two or more axes only, where every edge is taken without the lower bounds): the event over
// the upper bounds alone (AxisCut::upper_sides), as ProjectionError's; Error(Internal) on one axis.
double RefinementError(const std::vector<AxisCut> &axes, const std::vector<int> &edges, bool max_over_axes,
                       std::int64_t public_rows, std::int64_t private_rows, double beta,
                       bool upper_bounds_event = false);

// How much of each public value's first row a refined answer spreads over the gap below it (axes/gap_spread.hpp),
// per axis and public value in order (empty for an axis no edge moves; 0 for the lowest value, which has no gap
// below it): the largest theta in [0, 1] that keeps a bound anywhere in the gap, answered with f = (L + t theta) /
// B for t in [0, 1], within the axis's worst refined edge error at f = L/B (RefinementError's per-axis term). The
// error is linear in f, so the gap's end decides (over two or more axes, the error without the lower bounds, as
// RefinementError takes it there): the refinement part on the event of beta (and of upper_bounds_event, as
// RefinementError's) is what it is without spreading, while where the population has a density between the public
// values the answer follows it (docs/mechanisms.md §10, "Spreading the gaps"). A release's answers take the smaller
// share of two events, their own and the plan's (answer_mode.cpp, LoadedAnswerFactsOf).
std::vector<std::vector<double>> GapSpreadShares(const std::vector<AxisCut> &axes, const std::vector<int> &edges,
                                                 std::int64_t public_rows, std::int64_t private_rows, double beta,
                                                 bool upper_bounds_event = false);

// Part (a) for the classes answered through the public rows' labelings (marginals, stumps, predicates): a query
// and its cover query agree on every grid point the public table shows, so they differ only on private rows at
// values the public sample never showed (docs/mechanisms.md §10 (a), "Unseen values"). Two kinds of such sets:
//   a cell of the seen values (one bin per attribute of a k-way marginal) without a public row, whose private share
//   RareValuePrivateShareBound bounds at threshold 0;
//   the values of one categorical axis no public row has (its "other" bin), whose total share is the public
//   sample's missing mass (UnseenValueShareBound).
// The largest private share of a value (a cell of one partition of the rows) that the public sample shows at most t
// times, except with probability exp(-log_term), for a public and a private table of one population (any split of
// their m + n rows into m public and n private is equally likely): a value with c of the m + n rows shows at most t
// times among the m public ones with probability P[Hypergeometric <= t] <= exp(-c KL(t/c || m/(m + n))) (Hoeffding's
// bound for draws without replacement), which falls as c grows, and at most (m + n)/c values hold c rows or more; so
// every value shown at most t times has fewer than c* rows in all, c* the smallest c with (m + n)/c exp(-c KL) <=
// exp(-log_term), and a private share below c*/n. One step: the private rows' share comes out of the same split, with
// no second union over the values near the bound. 1 when c* would exceed m + n.
double RareValuePrivateShareBound(std::int64_t threshold, double public_rows, double private_rows, double log_term);
// Upper confidence bound on the population share of the values a public sample never shows (its missing mass),
// from the public rows per seen value: split the sample into A (floor(m / 2^j) rows) and B, and count the share Z
// of B's rows whose value A lacks; given A, B's rows are independent draws, so Z is a binomial share of A's missing
// mass, which is at least the whole sample's. Per split size the bound is ShareUpperBound(E[Z] / (1 - 1/4), |B|,
// log_term), E[Z] over the uniformly random split of that size computed exactly from the counts (hypergeometric),
// and holds except with probability 4 exp(-log_term) (Markov over the split: docs/mechanisms.md §10 (a)); the
// smallest over j = 1..kUnseenValueSplits holds except with probability 4 kUnseenValueSplits exp(-log_term). A
// smaller A leaves B more rows, a tighter binomial bound, when A already shows every frequent value. 1 for fewer
// than two rows.
constexpr int kUnseenValueSplits = 4;
double UnseenValueShareBound(const std::vector<std::int64_t> &value_counts, double log_term);
// The same bound for the "other" bin of a categorical axis, from its public rows per bin (its categories in order,
// the "other" bin, the NULL bin). Without public rows in the "other" bin, its share is the missing mass
// (UnseenValueShareBound). With some, the axis was folded (release/category_folding.hpp): it keeps exactly the
// categories the public sample shows more than t times, t = FoldThresholdOf(the fewest rows of a kept category, the
// bin's rows), so the bin holds the values shown at most t times, each of which A shows at most t times: the split
// bound with A the larger part (B = floor(m / 2^j) rows) and Z the share of B's rows whose value A shows at most t
// times (E[Z] exact for the kept values and NULL, the folded rows counted whole), its log term raised by the log of
// the number of rungs t may take up to m (the sample fixes t). Whether the axis folded is the sample's doing too, so
// each branch runs at log_term + ln 2: together they hold except with probability 4 kUnseenValueSplits
// exp(-log_term). Error(Internal) for fewer than three bins, or a kept category without rows on a folded axis.
double OtherBinShareBound(const std::vector<std::int64_t> &bin_counts, double log_term);
// The private share one value of an "other" bin can have, at confidence 1 - beta: RareValuePrivateShareBound at the
// bin's threshold t (0 for a bin of the values the public table never showed, the fold's for a folded bin: a value
// the public sample shows at most t times), at beta / 2 for each kind (which one the bin is, is the sample's doing),
// a folded bin's with a union over the rungs t may take. What a query naming a value of the bin reads of it, at most
// (release/answer_mode.hpp's caps).
double FoldedValueError(std::int64_t threshold, std::int64_t public_rows, std::int64_t private_rows, double beta);
// The fold thresholds' ladder 0, 1, 3, 7, ..., 2^k - 1: its largest rung below fewest_kept (>= 1). Every threshold
// FoldCategories takes is a rung, and a folded axis keeps no category at or below its threshold, so the rung below
// its fewest kept rows describes the same fold from the stored layout alone.
std::int64_t FoldThresholdBelow(std::int64_t fewest_kept);
// The lowest rung that describes a fold from the stored layout: FoldThresholdBelow(fewest_kept), or the first rung at
// or above folded_rows (the bin's public rows) when lower, since no folded category has more rows than the bin, and
// every category at or below it is folded as every one at or below the higher rung is.
std::int64_t FoldThresholdOf(std::int64_t fewest_kept, std::int64_t folded_rows);
// The part itself: the private share of the largest set a query and its cover query may disagree on, at
// confidence 1 - beta. A query no public row satisfies names one cell of its attribute set (its values, seen or not),
// and is answered by the cover's empty pattern, one cell too, or part of the "other" bins of other_axes when it reads
// them (their public rows per bin: categories, "other", NULL; the pattern's share is at most the smallest of their
// "other" bins' shares, OtherBinShareBound, then the private step). A cell's private share: RareValuePrivateShareBound
// at threshold 0 with a union over the attribute_sets partitions (the class's attribute sets: C(d, k) for k-way
// marginals over d axes), at beta / 2 whether or not the pattern reads a bin (which is the sample's doing); the bins'
// at the other half, their public step a union over the class's open_axes (the categorical axes with an "other" bin,
// at least other_axes' count); some_cell_unseen: whether the cover has an empty pattern (else 0).
double UnseenValuesError(double attribute_sets, bool some_cell_unseen,
                         const std::vector<std::vector<std::int64_t>> &other_axes, std::size_t open_axes,
                         std::int64_t public_rows, std::int64_t private_rows, double beta);

// The private share of the largest "other" bin of the given categorical axes (their public rows per bin, as
// OtherBinShareBound takes them: an unfolded axis's bin holds the values the public table never showed, a folded
// one's its rare categories too, release/category_folding.hpp), at confidence 1 - beta, with unions over the class's
// open_axes (the categorical ones whose bin may hold values, unseen or folded: which do is the sample's doing): the
// private step's bound on OtherBinShareBound. A query naming a value of a bin is answered from the bin's share (its
// cover query, or half its own cells' weight), off by at most that share. 0 without axes.
double OtherBinsError(const std::vector<std::vector<std::int64_t>> &axes, std::size_t open_axes,
                      std::int64_t public_rows, std::int64_t private_rows, double beta);

// Part (b): the private share outside the public support, from the public grid points' row counts (Good-Turing:
// the share of public rows whose point occurs once, plus its deviation and the missing mass's, then the private
// sample's); 0 for a full grid (full_grid = true).
double OutsideMassError(const std::vector<std::int64_t> &public_point_counts, bool full_grid, std::int64_t public_rows,
                        std::int64_t private_rows, double beta);

// Part (d): how far the public table's answers to the cover queries may be from the private table's when both are
// samples of one population, at confidence 1 - beta: Dvoretzky-Kiefer-Wolfowitz (Massart's constant) for classes
// answered by cdf_count CDF values (thresholds 1, ranges 2), otherwise Hoeffding's bound with a union over the
// cover_size queries; each sample's term at its own size.
double PriorSamplingError(std::int64_t public_rows, std::int64_t private_rows, std::size_t cover_size, int cdf_count,
                          double beta);

}  // namespace pap::core

#include "core/base/core_only.hpp"
