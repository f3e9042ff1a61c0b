#include "core/mechanisms/error_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <utility>

#include "core/base/errors.hpp"
#include "core/base/float_order.hpp"  // PgFloatLess: NaN above every number, as PostgreSQL sorts
#include "core/base/interrupt_scope.hpp"

namespace pap::core {

namespace {

// KL(q || p) between Bernoulli distributions, with 0 ln 0 = 0.
double
BernoulliKl(double q, double p)
{
	auto term = [](double a, double b) -> double {
		if (a <= 0.0)
			return 0.0;
		if (b <= 0.0)
			return INFINITY;
		return a * std::log(a / b);
	};
	return term(q, p) + term(1.0 - q, 1.0 - p);
}

// The largest x in [lo, 1] with f(x) <= limit, for f increasing on [lo, 1] with f(lo) = 0 (bisection: 200 halvings
// reach the double's resolution on [0, 1]).
template <typename F>
double
LargestWithin(double lo, double limit, F f)
{
	if (f(1.0) <= limit)
		return 1.0;
	double hi = 1.0;
	for (int i = 0; i < 200 && hi - lo > 0.0; i++) {
		const double mid = 0.5 * (lo + hi);
		if (mid <= lo || mid >= hi)
			break;
		(f(mid) <= limit ? lo : hi) = mid;
	}
	return hi;  // the bound side: f(hi) > limit is never below the answer
}

void
RequireRows(double rows, double log_term)
{
	if (!(rows > 0.0) || !(log_term >= 0.0) || !std::isfinite(log_term))
		throw Error(ErrorKind::Internal, "error model: rows must be positive and the log term finite");
}

}  // namespace

double
ErrorParts::Total() const
{
	return std::min(1.0, projection + outside_mass + noise);
}

double
DataPartBeta(double request_beta)
{
	return request_beta / 6.0;
}

double
ProjectionEventBeta(double request_beta, bool outside_mass_certain)
{
	return outside_mass_certain ? 2.0 * DataPartBeta(request_beta) : DataPartBeta(request_beta);
}

double
PlanProjectionEventBeta()
{
	return 0.5;
}

double
ShareUpperBound(double observed, double rows, double log_term)
{
	RequireRows(rows, log_term);
	const double q = std::clamp(observed, 0.0, 1.0);
	if (q >= 1.0)
		return 1.0;
	return LargestWithin(q, log_term / rows, [q](double p) { return BernoulliKl(q, p); });
}

double
SampleShareUpperBound(double p, double rows, double log_term)
{
	RequireRows(rows, log_term);
	const double share = std::clamp(p, 0.0, 1.0);
	if (share <= 0.0)
		return 0.0;  // a share the population does not have, no sample shows
	if (share >= 1.0)
		return 1.0;
	return LargestWithin(share, log_term / rows, [share](double q) { return BernoulliKl(q, share); });
}

double
PrivateShareBound(double public_share, double public_rows, double private_rows, double log_term)
{
	return SampleShareUpperBound(ShareUpperBound(public_share, public_rows, log_term), private_rows, log_term);
}

namespace {

// One bin (cuts[j-1], cuts[j]] of an ordered axis (the first open below, the last open above) and its public values
// values[first, last).
struct AxisBin {
	std::size_t first = 0, last = 0;
	bool empty_below = false, empty_above = false;  // AxisCut's: no value below the first (above the last) public one
};

// The bins of the cut points in order, with what a step leaves empty at their ends.
std::vector<AxisBin>
AxisBinsOf(const std::vector<double> &cuts, const std::vector<double> &values, double step)
{
	std::vector<AxisBin> bins;
	bins.reserve(cuts.size() + 1);
	std::size_t v = 0;
	for (std::size_t j = 0; j <= cuts.size(); j++) {
		AxisBin bin;
		bin.first = v;
		// In PostgreSQL's order (a NaN public value is above every number, and may be a cut itself).
		while (v < values.size() && (j == cuts.size() || !PgFloatLess(cuts[j], values[v])))
			v++;
		bin.last = v;
		if (bin.last > bin.first) {
			bin.empty_below = j > 0 && NoValueBetween(cuts[j - 1], values[bin.first], step);
			// (v, v] holds nothing
			bin.empty_above = j < cuts.size() && !PgFloatLess(values[bin.last - 1], cuts[j]);
		}
		bins.push_back(bin);
	}
	return bins;
}

}  // namespace

std::size_t
AxisEventCount(const std::vector<double> &cuts, const std::vector<double> &values, double step)
{
	std::size_t events = 0;
	for (const AxisBin &bin : AxisBinsOf(cuts, values, step)) {
		const std::size_t inside = bin.last - bin.first;
		if (inside == 0) {
			events += 1;  // the bin itself, a gap: its upper bound
			continue;
		}
		// The gap below the first value and the whole bin (the parts a split with every public row on one side
		// leaves: an upper bound each; neither when the gap is empty, as a bound there is exact), both bounds of
		// both parts at every split between two values, and the part above the last value unless it is empty.
		events += (bin.empty_below ? 0 : 2) + 4 * (inside - 1) + (bin.empty_above ? 0 : 1);
	}
	return events;
}

std::size_t
AxisUpperEventCount(const std::vector<double> &cuts, const std::vector<double> &values, double step)
{
	std::size_t events = 0;
	const std::vector<AxisBin> bins = AxisBinsOf(cuts, values, step);
	for (std::size_t j = 0; j < bins.size(); j++) {
		const AxisBin &bin = bins[j];
		const std::size_t inside = bin.last - bin.first;
		if (inside == 0) {
			events += 1;  // the bin itself, a gap
			continue;
		}
		// The refined edge error without lower bounds at split i, max(f hi(above), (1 - f) hi(below)) with f = i / B,
		// reads hi(below) for i < B and hi(above) for i > 0: the gap below the first value (i = 0), both parts at
		// every split between two values, the part above the last value (i = B). The projection moves over a side of
		// at most half the bin, one of these parts. The whole bin is read where a refined answer spreads the first
		// value's row over the gap below it (GapSpreadShares: every bin but the lowest, unless the gap is empty): a
		// bound at the gap's top weighs the bin above the split, the whole bin, by theta / B.
		const bool spread_gap = !bin.empty_below && j > 0;
		events += (bin.empty_below ? 0 : 1) + (spread_gap ? 1 : 0) + 2 * (inside - 1) + (bin.empty_above ? 0 : 1);
	}
	return events;
}

AxisCut
AxisCutOf(const std::vector<double> &cuts, const std::vector<double> &values, const std::vector<std::int64_t> &counts,
          double step)
{
	if (values.size() != counts.size())
		throw Error(ErrorKind::Internal, "error model: public values and counts differ in number");
	for (std::size_t i = 1; i < values.size(); i++)
		if (!PgFloatLess(values[i - 1], values[i]))
			throw Error(ErrorKind::Internal, "error model: public values are not sorted and distinct");
	AxisCut out;
	out.sides = AxisEventCount(cuts, values, step);
	out.upper_sides = AxisUpperEventCount(cuts, values, step);
	const std::vector<AxisBin> bins = AxisBinsOf(cuts, values, step);
	out.bin_splits.reserve(bins.size());
	for (const AxisBin &bin : bins) {
		std::vector<std::int64_t> splits;
		splits.reserve(bin.last - bin.first + 1);
		splits.push_back(0);
		for (std::size_t i = bin.first; i < bin.last; i++)
			splits.push_back(splits.back() + counts[i]);
		// A bound between two public values (or before the first) leaves `below` public rows on its lower side.
		const std::int64_t total = splits.back();
		for (std::int64_t below : splits)
			out.largest_side_rows = std::max(out.largest_side_rows, std::min(below, total - below));
		out.bin_splits.push_back(std::move(splits));
		out.empty_below.push_back(bin.empty_below);
		out.empty_above.push_back(bin.empty_above);
	}
	return out;
}

double
ProjectionError(const std::vector<AxisCut> &axes, const std::vector<int> &edges, bool max_over_axes,
                std::int64_t public_rows, std::int64_t private_rows, double beta, bool upper_bounds_event)
{
	if (axes.size() != edges.size())
		throw Error(ErrorKind::Internal, "error model: one edge count per axis");
	double sides = 0;
	for (std::size_t a = 0; a < axes.size(); a++)
		if (edges[a] > 0)
			sides += double(upper_bounds_event ? axes[a].upper_sides : axes[a].sides);
	if (sides == 0)
		return 0.0;
	// Every bound refinement's event takes (AxisEventCount; the plan's over two or more axes, the upper bounds alone),
	// so that the part in either answer mode holds on one event (pap.answer's refine chooses per call;
	// docs/mechanisms.md §10 (a)).
	const double log_term = RefinementLogTerm(sides, beta);
	double sum = 0, largest = 0;
	for (std::size_t a = 0; a < axes.size(); a++) {
		if (edges[a] <= 0)
			continue;
		const double side = PrivateShareInterval(axes[a].largest_side_rows, public_rows, private_rows, log_term).high;
		sum += double(edges[a]) * side;
		largest = std::max(largest, double(edges[a]) * side);
	}
	return std::min(1.0, max_over_axes ? largest : sum);
}

namespace {

// PrivateShareInterval's bounds from the hypergeometric tails themselves (LogHypergeometricTailBound) instead of
// Chernoff's bounds on them, on the same sets and at the same log term; Chernoff's are within them (an upper bound on
// a tail probability), so each bound only moves inward. Upper: j = l + 1 spacings hold g private rows or more
// exactly when the first g + l pooled rows hold at most l public ones; the smallest g whose probability is at most
// exp(-log_term) leaves the share at most (g - 1) / n. Lower: the l - 1 spacings inside hold t private rows or fewer
// exactly when the first t + l - 1 pooled rows hold at least l - 1 public ones; the largest t whose probability is at
// most exp(-log_term) leaves the share at least (t + 1) / n. Both probabilities are monotone in g (t): bisection.
void
TightenWithExactTails(std::int64_t l, std::int64_t public_rows, std::int64_t private_rows, double log_term,
                      ShareInterval &out)
{
	const std::int64_t pooled = public_rows + private_rows;
	const auto fails_above = [&](std::int64_t g) {  // ln P[the l + 1 spacings hold g or more private rows]
		return g > private_rows ? -INFINITY : LogHypergeometricTailBound(l, g + l, public_rows, pooled, true);
	};
	// The smallest g with fails_above(g) <= -log_term: Chernoff's (g just above its bound) brackets it from above
	// when the exact tail confirms it, else n + 1 (never more than n private rows) does.
	std::int64_t valid = std::min(private_rows + 1, std::int64_t(std::floor(out.high * double(private_rows))) + 1);
	if (!(fails_above(valid) <= -log_term))
		valid = private_rows + 1;
	std::int64_t invalid = 0;  // g = 0: probability 1
	while (valid - invalid > 1) {
		const std::int64_t mid = invalid + (valid - invalid) / 2;
		(fails_above(mid) <= -log_term ? valid : invalid) = mid;
	}
	out.high = std::min(out.high, double(valid - 1) / double(private_rows));
	const std::int64_t inner = l - 1;
	if (inner < 1)
		return;
	const auto fails_below = [&](std::int64_t t) {  // ln P[the l - 1 spacings inside hold t or fewer private rows]
		return LogHypergeometricTailBound(inner, t + inner, public_rows, pooled, false);
	};
	// The largest t with fails_below(t) <= -log_term, if any: Chernoff's bound brackets it from below when the exact
	// tail confirms it; t = n holds with probability 1.
	std::int64_t good = std::int64_t(std::ceil(out.low * double(private_rows))) - 1;
	if (good < 0 || !(fails_below(good) <= -log_term)) {
		good = -1;
		if (!(fails_below(0) <= -log_term))
			return;
		good = 0;
	}
	std::int64_t bad = private_rows;
	while (bad - good > 1) {
		const std::int64_t mid = good + (bad - good) / 2;
		(fails_below(mid) <= -log_term ? good : bad) = mid;
	}
	out.low = std::clamp(std::max(out.low, double(good + 1) / double(private_rows)), 0.0, out.high);
}

// ln C(a, b) through the log-gamma function, and how far its rounding may reach: each lgamma is within a few ulps of
// its magnitude.
double
LogChoose(double a, double b, double &rounding)
{
	const double terms[3] = {std::lgamma(a + 1.0), std::lgamma(b + 1.0), std::lgamma(a - b + 1.0)};
	rounding += 8.0 * std::numeric_limits<double>::epsilon() *
	            (std::fabs(terms[0]) + std::fabs(terms[1]) + std::fabs(terms[2]) + 1.0);
	return terms[0] - terms[1] - terms[2];
}

}  // namespace

double
LogHypergeometricTailBound(std::int64_t hits, std::int64_t draws, std::int64_t public_rows, std::int64_t pooled_rows,
                           bool at_most)
{
	if (public_rows < 0 || draws < 0 || public_rows > pooled_rows || draws > pooled_rows)
		throw Error(ErrorKind::Internal, "error model: a hypergeometric draw outside its population");
	const double m = double(public_rows), k = double(draws), N = double(pooled_rows);
	const double lowest = std::max(0.0, k - (N - m)), highest = std::min(m, k);
	const double x0 = double(hits);
	if (at_most ? x0 < lowest : x0 > highest)
		return -INFINITY;  // no draw has that few (that many) public rows
	// Only the tail beyond the mode is summed; on the mode's side the probability is not small, and 0 (probability
	// 1) is an upper bound.
	const double mode = std::floor((m + 1.0) * (k + 1.0) / (N + 2.0));
	if (at_most ? x0 >= mode : x0 <= mode)
		return 0.0;
	double rounding = 0.0;
	const double log_first =
	    LogChoose(m, x0, rounding) + LogChoose(N - m, k - x0, rounding) - LogChoose(N, k, rounding);
	// The terms away from the mode, relative to the first: a log-concave mass function, so each ratio is smaller than
	// the one before and the rest of the sum after a ratio r is at most term r / (1 - r).
	double sum = 1.0, term = 1.0;
	std::uint64_t steps = 0;
	for (double x = x0; at_most ? x > lowest : x < highest; x += at_most ? -1.0 : 1.0) {
		const double ratio = at_most ? x * (N - m - k + x) / ((m - x + 1.0) * (k - x + 1.0))
		                             : (m - x) * (k - x) / ((x + 1.0) * (N - m - k + x + 1.0));
		term *= ratio;
		if (term <= sum * 1e-17 && ratio < 1.0) {
			sum += term / (1.0 - ratio);  // the rest, at most a geometric series
			break;
		}
		sum += term;
		PollInterrupt(steps, 1);
	}
	// The recurrence's rounding: a relative error of a few ulps per term.
	rounding += 4.0 * std::numeric_limits<double>::epsilon() * double(steps + 2);
	return std::min(0.0, log_first + std::log(sum) + rounding);
}

ShareInterval
PrivateShareInterval(std::int64_t rows, std::int64_t public_rows, std::int64_t private_rows, double log_term)
{
	const double m = double(public_rows), n = double(private_rows);
	RequireRows(m, log_term);
	RequireRows(n, log_term);
	const double pooled = m + n, q = m / pooled, l = std::clamp(double(rows), 0.0, m);
	// Both tables samples of one population: the pooled rows are exchangeable, so the public rows are a uniformly
	// random m of them and the private rows between consecutive public rows (pooled order, ties broken at random)
	// are the m + 1 spacings of a random m-subset of N, an exchangeable vector. j consecutive spacings hold at
	// least g private rows when the first g + j - 1 pooled rows hold at most j - 1 public ones: a hypergeometric
	// tail, the public rows among k pooled ones or (the same law) the first k among m public ones, within both
	// Chernoff bounds exp(-k KL(j' / k || m / N)) and exp(-m KL(j' / m || k / N)) (Hoeffding 1963: drawing without
	// replacement is more concentrated). Draws are counted as shares x = k / N of the pooled rows.
	const auto exponent = [&](double hits, double x) {
		return std::max(x * BernoulliKl(hits / (x * pooled), q), q * BernoulliKl(hits / m, x));
	};
	// Upper: a set holding l public rows lies within l + 1 spacings (the gaps beside them included); k pooled rows
	// miss the l + 1st public row with probability at most exp(-N exponent), which grows with k from k = l / q.
	const double high_draws =
	    pooled * LargestWithin(l / m, log_term / pooled, [&](double x) { return exponent(l, x); });
	ShareInterval out{0.0, std::clamp((high_draws - l) / n, 0.0, 1.0)};
	// Lower: it holds the l - 1 spacings between its first and last public row. Their private rows number at most
	// k - (l - 1) when the first k pooled rows hold l - 1 public ones, for k <= (l - 1) / q at most exp(-N
	// exponent), which falls as k grows; s runs k from (l - 1) / q down to l - 1.
	const double inner = l - 1.0;
	if (inner >= 1.0) {
		const double top = inner / q;
		const auto draws = [&](double s) { return top - s * (top - inner); };
		const double s =
		    LargestWithin(0.0, log_term / pooled, [&](double t) { return exponent(inner, draws(t) / pooled); });
		out.low = std::clamp((draws(s) - inner) / n, 0.0, out.high);
	}
	TightenWithExactTails(std::int64_t(l), public_rows, private_rows, log_term, out);
	return out;
}

double
RefinementLogTerm(double events, double beta)
{
	return std::log(events / beta);
}

ShareInterval
WithinOtherAxesRange(const ShareInterval &share, bool others_restricted)
{
	return others_restricted ? ShareInterval{0.0, share.high} : share;
}

double
RefinedEdgeError(std::int64_t below, std::int64_t above, double interpolated, const ShareInterval &below_share,
                 const ShareInterval &above_share)
{
	if (below + above <= 0)
		return std::max(below_share.high, above_share.high);
	// f D_bin - D_below = f D_above - (1 - f) D_below: the parts below and above the split.
	const double share = std::clamp(interpolated, 0.0, 1.0);
	return std::max({0.0, share * above_share.high - (1.0 - share) * below_share.low,
	                 (1.0 - share) * below_share.high - share * above_share.low});
}

namespace {

// Whether split i of bin j leaves its side without public rows empty of values (AxisCut's empty_below and
// empty_above): a bound there selects what the bin's cut selects, so it is exact and its error 0.
bool
ExactSplit(const AxisCut &axis, std::size_t j, std::size_t i)
{
	const bool first = i == 0, last = i + 1 == axis.bin_splits[j].size();
	return (first && j < axis.empty_below.size() && axis.empty_below[j]) ||
	       (last && j < axis.empty_above.size() && axis.empty_above[j]);
}

// Refinement's event and bounds, shared by its part and by how far answers may spread a gap: every set bounded (the
// parts of a bin below and above each split point, both ways, of every moved axis) at one log term; a set's bounds
// depend on its public row count alone, computed once per count.
class RefinementBounds {
public:
	RefinementBounds(const std::vector<AxisCut> &axes, const std::vector<int> &edges, std::int64_t public_rows,
	                 std::int64_t private_rows, double beta, bool upper_bounds_event = false)
	    : public_rows_(public_rows), private_rows_(private_rows),
	      small_(std::size_t(std::clamp<std::int64_t>(public_rows + 1, 0, kSmallRows)))
	{
		if (axes.size() != edges.size())
			throw Error(ErrorKind::Internal, "error model: one edge count per axis");
		// Over one axis an edge's error subtracts the lower bounds (WithinOtherAxesRange), which the upper bounds'
		// event does not hold.
		if (upper_bounds_event && axes.size() < 2)
			throw Error(ErrorKind::Internal, "error model: refinement over one axis reads its lower bounds");
		for (std::size_t a = 0; a < axes.size(); a++)
			if (edges[a] > 0)
				sets_ += double(upper_bounds_event ? axes[a].upper_sides : axes[a].sides);
		if (sets_ > 0)
			log_term_ = RefinementLogTerm(sets_, beta);
	}
	bool
	Empty() const
	{
		return sets_ == 0;
	}
	const ShareInterval &
	Of(std::int64_t rows)
	{
		// Most sets hold few public rows: their bounds sit in a table sized once, so that references stay valid.
		if (rows >= 0 && rows < std::int64_t(small_.size())) {
			std::optional<ShareInterval> &known = small_[std::size_t(rows)];
			if (!known)
				known = PrivateShareInterval(rows, public_rows_, private_rows_, log_term_);
			return *known;
		}
		auto [it, added] = cache_.try_emplace(rows);
		if (added)
			it->second = PrivateShareInterval(rows, public_rows_, private_rows_, log_term_);
		return it->second;
	}
	// The worst refined edge error over every split point of every bin of one axis, the answer placing L/B of a bin
	// below a split with L of its B public rows below; others_restricted: a query may also restrict another axis, so
	// the rows of the bin's parts that count are only some of them (WithinOtherAxesRange).
	double
	WorstOfAxis(const AxisCut &axis, bool others_restricted)
	{
		double worst = 0;
		for (std::size_t j = 0; j < axis.bin_splits.size(); j++) {
			const std::vector<std::int64_t> &splits = axis.bin_splits[j];
			PollInterrupt(steps_, splits.size());
			const std::int64_t bin = splits.back();
			for (std::size_t i = 0; i < splits.size(); i++) {
				if (ExactSplit(axis, j, i))
					continue;
				const std::int64_t below = splits[i];
				const double share = bin > 0 ? double(below) / double(bin) : 0.0;
				worst = std::max(worst, RefinedEdgeError(below, bin - below, share,
				                                         WithinOtherAxesRange(Of(below), others_restricted),
				                                         WithinOtherAxesRange(Of(bin - below), others_restricted)));
			}
		}
		return worst;
	}

private:
	static constexpr std::int64_t kSmallRows = 4096;
	std::int64_t public_rows_, private_rows_;
	double sets_ = 0, log_term_ = 0;
	std::vector<std::optional<ShareInterval>> small_;
	std::map<std::int64_t, ShareInterval> cache_;
	std::uint64_t steps_ = 0;
};

}  // namespace

double
RefinementError(const std::vector<AxisCut> &axes, const std::vector<int> &edges, bool max_over_axes,
                std::int64_t public_rows, std::int64_t private_rows, double beta, bool upper_bounds_event)
{
	RefinementBounds bounds(axes, edges, public_rows, private_rows, beta, upper_bounds_event);
	if (bounds.Empty())
		return 0.0;
	double sum = 0, largest = 0;
	for (std::size_t a = 0; a < axes.size(); a++) {
		if (edges[a] <= 0)
			continue;
		const double worst = bounds.WorstOfAxis(axes[a], axes.size() > 1);
		sum += double(edges[a]) * worst;
		largest = std::max(largest, double(edges[a]) * worst);
	}
	return std::min(1.0, max_over_axes ? largest : sum);
}

std::vector<std::vector<double>>
GapSpreadShares(const std::vector<AxisCut> &axes, const std::vector<int> &edges, std::int64_t public_rows,
                std::int64_t private_rows, double beta, bool upper_bounds_event)
{
	RefinementBounds bounds(axes, edges, public_rows, private_rows, beta, upper_bounds_event);
	std::vector<std::vector<double>> shares(axes.size());
	if (bounds.Empty())
		return shares;
	for (std::size_t a = 0; a < axes.size(); a++) {
		if (edges[a] <= 0)
			continue;
		const bool others_restricted = axes.size() > 1;
		const double worst = bounds.WorstOfAxis(axes[a], others_restricted);
		std::uint64_t steps = 0;
		for (std::size_t j = 0; j < axes[a].bin_splits.size(); j++) {
			const std::vector<std::int64_t> &splits = axes[a].bin_splits[j];
			PollInterrupt(steps, splits.size());  // a bin per public value at the finest: as many as the public rows
			const std::int64_t bin = splits.back();
			// The value after split i: the lowest public value has no gap below it.
			for (std::size_t i = 0; i + 1 < splits.size(); i++) {
				if ((j == 0 && i == 0) || ExactSplit(axes[a], j, i)) {  // no gap, or one that holds no value
					shares[a].push_back(0.0);
					continue;
				}
				// A bound at the top of the gap, theta of the value's row below it: the error f hi(above) - (1 - f)
				// lo(below) at f = (L + theta) / B rises by theta (hi(above) + lo(below)) / B from its value at L/B;
				// the other side's error only falls.
				const std::int64_t below = splits[i];
				const ShareInterval lower = WithinOtherAxesRange(bounds.Of(below), others_restricted),
				                    upper = WithinOtherAxesRange(bounds.Of(bin - below), others_restricted);
				const double share = double(below) / double(bin);
				const double at_split = share * upper.high - (1.0 - share) * lower.low;
				const double slope = (upper.high + lower.low) / double(bin);
				shares[a].push_back(slope > 0.0 ? std::clamp((worst - at_split) / slope, 0.0, 1.0) : 1.0);
			}
		}
	}
	return shares;
}

double
RareValuePrivateShareBound(std::int64_t threshold, double public_rows, double private_rows, double log_term)
{
	RequireRows(public_rows, log_term);
	RequireRows(private_rows, 0.0);
	if (threshold < 0)
		throw Error(ErrorKind::Internal, "error model: a negative threshold");
	const double t = double(threshold), rows = public_rows + private_rows, share = public_rows / rows;
	if (t >= public_rows)
		return 1.0;  // every value shows at most m times
	// KL(x || m / rows) with ln(1 - m / rows) taken as ln(n / rows): exact where m / rows rounds to 1.
	const double log_share = std::log(public_rows / rows), log_rest = std::log(private_rows / rows);
	const auto kl = [&](double x) {
		return (x > 0.0 ? x * (std::log(x) - log_share) : 0.0) +
		       (x < 1.0 ? (1.0 - x) * (std::log1p(-x) - log_rest) : 0.0);
	};
	// ln(rows / c) - c KL(t / c || m / rows) + log_term falls from +inf at c = t rows / m (where KL is 0) as c rises:
	// bisect for where it crosses 0, on the bound side.
	const auto excess = [&](double c) { return std::log(rows / c) - c * kl(t / c) + log_term; };
	double lo = std::max(t / share, std::numeric_limits<double>::min()), hi = rows;
	if (excess(hi) > 0.0)
		return 1.0;
	for (int i = 0; i < 200; i++) {
		const double mid = 0.5 * (lo + hi);
		if (mid <= lo || mid >= hi)
			break;
		(excess(mid) <= 0.0 ? hi : lo) = mid;
	}
	return std::min(1.0, hi / private_rows);
}

double
FoldedValueError(std::int64_t threshold, std::int64_t public_rows, std::int64_t private_rows, double beta)
{
	const double m = double(public_rows), n = double(private_rows);
	RequireRows(m, 0.0);
	RequireRows(n, 0.0);
	// Half of beta for an unfolded bin (threshold 0), half for a folded one, there a union over the rungs the sample
	// may fix: which the bin is, is the sample's doing.
	const double rungs = std::floor(std::log2(m + 1.0)) + 1.0;
	return RareValuePrivateShareBound(threshold, m, n, std::log(2.0 * (threshold > 0 ? rungs : 1.0) / beta));
}

namespace {

// E[(c - X) 1{X <= t}] for X hypergeometric: the rows of a value with c of the m rows that a uniformly random subset
// of a rows draws. The terms from x = max(0, a - (m - c)) to min(t, c, a), each probability in closed form through
// the log-gamma function.
double
RowsLeftWhenAtMost(double m, double a, double c, double t)
{
	const double first = std::max(0.0, a - (m - c)), last = std::min({t, c, a});
	const double log_total = std::lgamma(m + 1.0) - std::lgamma(a + 1.0) - std::lgamma(m - a + 1.0);
	double sum = 0.0;
	for (double x = first; x <= last; x += 1.0) {
		const double log_p = std::lgamma(c + 1.0) - std::lgamma(x + 1.0) - std::lgamma(c - x + 1.0) +
		                     std::lgamma(m - c + 1.0) - std::lgamma(a - x + 1.0) - std::lgamma(m - c - a + x + 1.0) -
		                     log_total;
		sum += (c - x) * std::exp(log_p);
	}
	return sum;
}

// The split bound of UnseenValueShareBound and OtherBinShareBound: the population share of the values with at most
// `threshold` of A's rows, which holds every value the whole sample shows at most `threshold` times, and every value
// it never shows. value_counts: the rows of the values counted one by one; sure_rows: rows of values the bound counts
// whole (a value's B rows are never more than its rows, so E[Z] may take them all).
double
SplitShareBound(const std::vector<std::int64_t> &value_counts, std::int64_t sure_rows, std::int64_t threshold,
                bool large_a, double log_term)
{
	std::int64_t rows = sure_rows;
	if (sure_rows < 0 || threshold < 0)
		throw Error(ErrorKind::Internal, "error model: a negative row count");
	for (std::int64_t c : value_counts) {
		if (c < 0)
			throw Error(ErrorKind::Internal, "error model: a negative row count");
		rows += c;
	}
	if (rows < 2)
		return 1.0;
	const double m = double(rows);
	double best = 1.0;
	std::uint64_t steps = 0;
	for (int split = 1; split <= kUnseenValueSplits; split++) {
		const std::int64_t small = std::max<std::int64_t>(rows >> split, 1);
		const std::int64_t size_a = large_a ? rows - small : small, size_b = rows - size_a;
		const double a = double(size_a);
		// B's rows of a value: its c rows less the X that A draws, counted when X <= threshold.
		double expected = double(sure_rows) * double(size_b) / m;
		for (std::int64_t c : value_counts) {
			PollInterrupt(steps, std::size_t(std::min<std::int64_t>(threshold, c)) + 1);
			if (c > 0)
				expected += RowsLeftWhenAtMost(m, a, double(c), double(threshold));
		}
		expected /= double(size_b);
		// Markov over the split: Z <= E[Z] / (1 - 1/4) on at least a quarter of the splits, and the binomial bound
		// fails on more than a quarter of them with probability at most 4 exp(-log_term): some split has both.
		best = std::min(best, ShareUpperBound(std::min(1.0, expected / 0.75), double(size_b), log_term));
	}
	return best;
}

}  // namespace

double
UnseenValueShareBound(const std::vector<std::int64_t> &value_counts, double log_term)
{
	// A value with c rows is absent from A (X = 0) with probability C(m - c, |A|) / C(m, |A|) (0 when c > |B|); its c
	// rows then all lie in B.
	return SplitShareBound(value_counts, 0, 0, false, log_term);
}

double
OtherBinShareBound(const std::vector<std::int64_t> &bin_counts, double log_term)
{
	if (bin_counts.size() < 3)
		throw Error(ErrorKind::Internal, "error model: a categorical axis has a category, an other and a NULL bin");
	const std::size_t other = bin_counts.size() - 2;
	const std::int64_t folded = bin_counts[other];
	// Whether the axis folded depends on the public sample: each branch's event at half the probability.
	log_term += std::log(2.0);
	if (folded <= 0)
		return UnseenValueShareBound(bin_counts, log_term);
	// Folded: the categories kept are exactly those the sample shows more than t times (FoldCategories folds every
	// category at or below its threshold, one of the ladder 2^k - 1), and no kept category has fewer rows than the
	// first rung below its fewest, so the bin holds the values shown at most that rung's times: those A shows at
	// most as often, whatever B holds. The rung depends on the whole sample: a union over the rungs up to m.
	std::int64_t fewest = std::numeric_limits<std::int64_t>::max(), rows = 0;
	for (std::size_t c = 0; c < other; c++)
		fewest = std::min(fewest, bin_counts[c]);
	if (fewest < 1)
		throw Error(ErrorKind::Internal, "error model: a folded axis keeps a category no public row shows");
	std::vector<std::int64_t> values(bin_counts.begin(), bin_counts.begin() + std::ptrdiff_t(other));
	values.push_back(bin_counts.back());  // the NULL bin: counted as a value, which can only raise the bound
	for (std::int64_t c : bin_counts)
		rows += c;
	const double rungs = std::floor(std::log2(double(rows) + 1.0)) + 1.0;
	return SplitShareBound(values, folded, FoldThresholdOf(fewest, folded), true, log_term + std::log(rungs));
}

std::int64_t
FoldThresholdOf(std::int64_t fewest_kept, std::int64_t folded_rows)
{
	// No folded value has more rows than the bin: the first rung at or above them describes the fold too when lower.
	std::int64_t at_least = 0;
	while (at_least < folded_rows)
		at_least = 2 * at_least + 1;
	return std::min(FoldThresholdBelow(fewest_kept), at_least);
}

std::int64_t
FoldThresholdBelow(std::int64_t fewest_kept)
{
	if (fewest_kept < 1)
		throw Error(ErrorKind::Internal, "error model: a kept category has no public row");
	std::int64_t t = 0;
	while (2 * t + 1 < fewest_kept)
		t = 2 * t + 1;
	return t;
}

double
UnseenValuesError(double attribute_sets, bool some_cell_unseen,
                  const std::vector<std::vector<std::int64_t>> &other_axes, std::size_t open_axes,
                  std::int64_t public_rows, std::int64_t private_rows, double beta)
{
	if (!some_cell_unseen)
		return 0.0;
	const double m = double(public_rows), n = double(private_rows);
	RequireRows(m, 0.0);
	RequireRows(n, 0.0);
	if (!(attribute_sets >= 1.0) || open_axes < other_axes.size())
		throw Error(ErrorKind::Internal, "error model: a class without attribute sets, or more bins than open axes");
	// beta: half for the cells, half for the "other" bins the empty pattern may read (whether it reads any, and which,
	// is the public sample's doing): a quarter for their public step (4 kUnseenValueSplits exp(-L) each, a union over
	// every open axis) and a quarter for the private step of the one set they bound (the pattern's, fixed by the
	// public sample).
	// Every cell of every attribute set's partition: at most (m + n) / c of them hold c rows or more of the two
	// tables together, per set.
	const double cell = RareValuePrivateShareBound(0, m, n, std::log(2.0 * attribute_sets / beta));
	if (other_axes.empty())
		return cell;
	double other = 1.0;
	const double axis_term = std::log(16.0 * kUnseenValueSplits * double(open_axes) / beta);
	for (const std::vector<std::int64_t> &counts : other_axes)  // the pattern lies in each one's "other" bin
		other = std::min(other, OtherBinShareBound(counts, axis_term));
	return std::max(cell, SampleShareUpperBound(other, n, std::log(4.0 / beta)));
}

double
OtherBinsError(const std::vector<std::vector<std::int64_t>> &axes, std::size_t open_axes, std::int64_t public_rows,
               std::int64_t private_rows, double beta)
{
	if (axes.empty())
		return 0.0;
	const double m = double(public_rows), n = double(private_rows);
	RequireRows(m, 0.0);
	RequireRows(n, 0.0);
	if (open_axes < axes.size())
		throw Error(ErrorKind::Internal, "error model: more categorical axes than open ones");
	// Half of beta for the public step (4 kUnseenValueSplits exp(-L) per axis, OtherBinShareBound's union over its
	// threshold inside), half for the private step, each a union over the open axes (which of them hold unseen or
	// folded values depends on the sample).
	const double open = double(open_axes);
	const double public_term = std::log(8.0 * kUnseenValueSplits * open / beta);
	const double private_term = std::log(2.0 * open / beta);
	double worst = 0.0;
	for (const std::vector<std::int64_t> &counts : axes)
		worst = std::max(worst, SampleShareUpperBound(OtherBinShareBound(counts, public_term), n, private_term));
	return worst;
}

double
OutsideMassError(const std::vector<std::int64_t> &public_point_counts, bool full_grid, std::int64_t public_rows,
                 std::int64_t private_rows, double beta)
{
	if (full_grid)
		return 0.0;
	const double m = double(public_rows), n = double(private_rows);
	RequireRows(m, 0.0);
	RequireRows(n, 0.0);
	double singletons = 0;
	for (std::int64_t c : public_point_counts)
		if (c == 1)
			singletons += 1.0;
	// Three events at beta / 3 each. Good-Turing: E[singletons / m] = sum p (1-p)^(m-1) >= sum p (1-p)^m, the
	// expected missing mass. The singletons' share moves by at most 2 / m when one row changes (McDiarmid: below
	// its mean by at most sqrt(2 L / m)); the missing mass exceeds its mean by at most sqrt(3 L / m) (its upper
	// deviation is sub-Gaussian: McAllester and Ortiz 2003, with their conservative constant).
	const double log_term = std::log(3.0 / beta);
	const double missing =
	    std::min(1.0, singletons / m + std::sqrt(2.0 * log_term / m) + std::sqrt(3.0 * log_term / m));
	return SampleShareUpperBound(missing, n, log_term);
}

double
PriorSamplingError(std::int64_t public_rows, std::int64_t private_rows, std::size_t cover_size, int cdf_count,
                   double beta)
{
	const double m = double(public_rows), n = double(private_rows);
	RequireRows(m, 0.0);
	RequireRows(n, 0.0);
	// Each sample's answers within t of the population's: Hoeffding for each of the K cover queries, at beta / 2
	// per sample (P[|share - p| > t] <= 2 exp(-2 rows t^2), union over K).
	const double union_term = std::log(4.0 * double(std::max<std::size_t>(cover_size, 1)) / beta);
	double error = std::sqrt(union_term / (2.0 * m)) + std::sqrt(union_term / (2.0 * n));
	if (cdf_count > 0) {
		// Every threshold at once (Massart's DKW: P[sup |F_rows - F| > t] <= 2 exp(-2 rows t^2)); an answer is a
		// difference of cdf_count CDF values.
		const double dkw_term = std::log(4.0 / beta);
		error =
		    std::min(error, double(cdf_count) * (std::sqrt(dkw_term / (2.0 * m)) + std::sqrt(dkw_term / (2.0 * n))));
	}
	return std::min(1.0, error);
}

}  // namespace pap::core
