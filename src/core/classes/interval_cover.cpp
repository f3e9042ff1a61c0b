#include "core/classes/interval_cover.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "core/axes/gap_spread.hpp"  // NoValueBetween
#include "core/axes/numeric_axis.hpp"
#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/classes/axis_granularity.hpp"
#include "core/language/value_format.hpp"

namespace pap::core {

namespace {

// Keeps the tighter of two bounds; at equal values an exclusive bound is the tighter one.
void
TightenUpper(ValueBound &bound, double value, bool inclusive)
{
	if (!bound.present || PgFloatLess(value, bound.value) || (!PgFloatLess(bound.value, value) && !inclusive))
		bound = ValueBound{true, value, inclusive};
}

void
TightenLower(ValueBound &bound, double value, bool inclusive)
{
	if (!bound.present || PgFloatLess(bound.value, value) || (!PgFloatLess(value, bound.value) && !inclusive))
		bound = ValueBound{true, value, inclusive};
}

std::size_t
CountAtMost(const std::vector<double> &sorted, double x)
{
	return std::size_t(std::upper_bound(sorted.begin(), sorted.end(), x, PgFloatLess) - sorted.begin());
}

std::size_t
CountBelow(const std::vector<double> &sorted, double x)
{
	return CountBelowSorted(sorted.data(), sorted.size(), x);
}

std::string
ColumnList(const ClassSpec &spec)
{
	std::string list;
	for (std::size_t a = 0; a < spec.columns.size(); a++)
		list += (a ? ", " : "") + QuoteIdentifier(spec.columns[a]);
	return list;
}

// What the class accepts, for QueryOutsideClass details.
std::string
AcceptedQueries(const ClassSpec &spec)
{
	const std::string text = spec.CanonicalText();
	switch (spec.kind) {
	case ClassKind::Thresholds: {
		const std::string col = QuoteIdentifier(spec.columns.at(0));
		return "The class " + text + " contains only the queries " + col + " <= c and " + col + " < c.";
	}
	case ClassKind::Orthants:
		return "The class " + text + " contains only conjunctions of conditions col <= c and col < c on its columns.";
	default:
		return "The class " + text +
		       " contains only conjunctions of conditions col <= c, col < c, col >= c, col > c, col = c and "
		       "col BETWEEN c1 AND c2 on its " +
		       (spec.columns.size() == 1 ? "column." : "columns.");
	}
}

Error
OutsideClass(const ClassSpec &spec, const std::string &hint)
{
	return Error(ErrorKind::QueryOutsideClass, "query is outside the release's query class " + spec.CanonicalText(),
	             AcceptedQueries(spec), hint);
}

}  // namespace

std::vector<ColumnBounds>
CollectColumnBounds(const ClassSpec &spec, const QueryText *parsed, const std::vector<LiteralValue> &literals,
                    bool upper_only)
{
	if (parsed == nullptr)
		throw Error(ErrorKind::Internal, "an ordered cover needs the parsed query");
	if (LiteralCount(*parsed) != literals.size())
		throw Error(ErrorKind::Internal, "literal values do not match the parsed query");
	std::vector<ColumnBounds> bounds(spec.columns.size());
	std::size_t next = 0;
	for (const Condition &c : parsed->conditions) {
		if (!c.terms.empty())
			throw OutsideClass(spec, "Define a release over halfspaces to answer linear conditions.");
		const auto it = std::find(spec.columns.begin(), spec.columns.end(), c.column);
		if (it == spec.columns.end())
			throw Error(ErrorKind::UndefinedColumn,
			            "column " + QuoteIdentifier(c.column) + " is not in the release's query class " +
			                spec.CanonicalText(),
			            {},
			            std::string(spec.columns.size() == 1 ? "A query may use only the column "
			                                                 : "A query may use only the columns ") +
			                ColumnList(spec) + ".")
			    .At(c.position);
		if (c.op == Comparison::In)
			throw OutsideClass(spec, "IN lists apply to the categorical columns of marginals and stumps.");
		const bool null_test = c.op == Comparison::IsNull || c.op == Comparison::IsNotNull;
		if (upper_only && !null_test && c.op != Comparison::LessEqual && c.op != Comparison::Less)
			throw OutsideClass(spec, spec.kind == ClassKind::Thresholds
			                             ? "Define a release over ranges(" + QuoteIdentifier(c.column) +
			                                   ") to answer other intervals."
			                             : std::string("Define a release over boxes to answer other conditions."));
		ColumnBounds &b = bounds[std::size_t(it - spec.columns.begin())];
		b.mentioned = true;
		if (c.op == Comparison::IsNull) {
			b.is_null = true;
			continue;
		}
		if (c.op == Comparison::IsNotNull) {
			TightenUpper(b.upper, std::numeric_limits<double>::quiet_NaN(), true);  // the loosest upper bound
			continue;
		}
		const double v = literals[next++].number;
		switch (c.op) {
		case Comparison::LessEqual: TightenUpper(b.upper, v, true); break;
		case Comparison::Less: TightenUpper(b.upper, v, false); break;
		case Comparison::GreaterEqual: TightenLower(b.lower, v, true); break;
		case Comparison::Greater: TightenLower(b.lower, v, false); break;
		case Comparison::Equal:
			TightenLower(b.lower, v, true);
			TightenUpper(b.upper, v, true);
			break;
		case Comparison::Between:
			TightenLower(b.lower, v, true);
			TightenUpper(b.upper, literals[next++].number, true);
			break;
		case Comparison::In:
		case Comparison::IsNull:
		case Comparison::IsNotNull: break;  // refused or handled above
		}
	}
	return bounds;
}

void
RequireOneCoverQuery(const ClassSpec &spec, const QueryText &parsed, const std::vector<ColumnBounds> &bounds)
{
	if (std::none_of(bounds.begin(), bounds.end(), [](const ColumnBounds &b) { return b.is_null; }))
		return;
	const auto is_null = std::find_if(parsed.conditions.begin(), parsed.conditions.end(),
	                                  [](const Condition &c) { return c.op == Comparison::IsNull; });
	throw Error(ErrorKind::QueryOutsideClass,
	            "query with IS NULL has no single cover query of the class " + spec.CanonicalText(),
	            "Every cover query of an ordered class leaves the NULL bin out; a query with \"column IS NULL\" is "
	            "answered as a difference of cover queries (TRUE minus \"column IS NOT NULL\").",
	            "Answer it with pap.answer, which does not need its cover query.")
	    .At(is_null == parsed.conditions.end() ? 0 : is_null->position);
}

OrderedAxisCover::OrderedAxisCover(bool ranges, const ReleaseAxis &axis)
    : ranges_(ranges), value_type_(axis.value_type), cuts_(axis.cuts), values_(axis.public_values)
{
	if (axis.kind != AxisKind::Numeric)
		throw Error(ErrorKind::Internal, "an ordered cover needs a numeric axis");
	const std::size_t m = values_.size();
	if (axis.public_counts.size() != m)
		throw Error(ErrorKind::Internal, "public marginal has not one count per value");
	cum_.assign(m + 1, 0);
	for (std::size_t i = 0; i < m; i++) {
		if (axis.public_counts[i] < 0 || (i > 0 && !PgFloatLess(values_[i - 1], values_[i])))
			throw Error(ErrorKind::Internal, "public marginal is not sorted, distinct and positive");
		cum_[i + 1] = cum_[i] + axis.public_counts[i];
	}
	// Linear merges of the two sorted lists (a release's axis may hold 10^5 values: no search per value).
	for (std::size_t j = 0, at = 0; j < cuts_.size(); j++) {
		while (at < m && PgFloatLess(values_[at], cuts_[j]))
			at++;
		if (at == m || PgFloatLess(cuts_[j], values_[at]) || (j > 0 && !PgFloatLess(cuts_[j - 1], cuts_[j])))
			throw Error(ErrorKind::Internal, "axis cuts are not sorted public values");
	}
	if (m > 0 && (cuts_.empty() || PgFloatLess(cuts_.back(), values_.back())))
		throw Error(ErrorKind::Internal, "axis cuts do not include the highest public value");
	const std::int32_t M = std::int32_t(cuts_.size());
	value_bin_.resize(m);
	for (std::size_t i = 0, below = 0; i < m; i++) {
		while (below < cuts_.size() && PgFloatLess(cuts_[below], values_[i]))
			below++;
		value_bin_[i] = std::int32_t(below);  // axis.NumericBin(values_[i]): the cuts strictly below
	}
	// A value without public rows is a whole value of a discrete axis (layout_choice.hpp, "every whole value"): a cut
	// whose bin (previous cut, value] holds that one value, so that a query selects all of the bin or none of it.
	for (std::size_t i = 0; i < m; i++) {
		if (axis.public_counts[i] > 0)
			continue;
		const std::size_t bin = std::size_t(value_bin_[i]);
		if (bin == 0 || bin >= cuts_.size() || PgFloatLess(values_[i], cuts_[bin]) ||
		    !NoValueBetween(cuts_[bin - 1], cuts_[bin], axis.value_step))
			throw Error(ErrorKind::Internal, "public marginal is not sorted, distinct and positive");
	}
	bin_begin_.resize(std::size_t(M) + 1);
	for (std::size_t b = 0, i = 0; b <= std::size_t(M); b++) {
		while (i < m && std::size_t(value_bin_[i]) < b)
			i++;
		bin_begin_[b] = i;
	}

	size_ = std::size_t(Size(ranges_, cuts_.size()));
}

CellInterval
OrderedAxisCover::Bins(std::size_t i) const
{
	if (i >= size_)
		throw Error(ErrorKind::Internal, "per-axis cover query index out of range");
	const std::int32_t M = std::int32_t(cuts_.size());
	if (!ranges_)
		return CellInterval{0, std::int32_t(i) - 1};
	if (i == 0)
		return CellInterval{1, 0};
	// The last run start s with RunStart(s) <= i: RunStart grows with s.
	std::size_t lo = 0, hi = std::size_t(M);
	while (hi - lo > 1) {
		const std::size_t mid = lo + (hi - lo) / 2;
		(RunStart(mid) <= i ? lo : hi) = mid;
	}
	const std::int32_t s = std::int32_t(lo), t = s + std::int32_t(i - RunStart(lo));
	return CellInterval{s, t == M - 1 ? M : t};
}

std::size_t
OrderedAxisCover::RunStart(std::size_t s) const
{
	const std::size_t M = cuts_.size();
	// runs are listed by first bin s, then last bin t: s full blocks of lengths M, M-1, ... come first
	return 1 + s * (M + 1) - s * (s + 1) / 2;
}

double
OrderedAxisCover::Size(bool ranges, std::size_t cuts)
{
	const double M = double(cuts);
	return ranges ? M * (M + 1.0) / 2.0 + 1.0 : M + 1.0;
}

std::size_t
OrderedAxisCover::RunIndex(std::int32_t s, std::int32_t t) const
{
	return RunStart(std::size_t(s)) + std::size_t(t - s);
}

std::size_t
OrderedAxisCover::Project(const ValueBound &lower, const ValueBound &upper) const
{
	// The query selects the public values [pa, pb).
	const std::size_t pa =
	    !lower.present ? 0 : (lower.inclusive ? CountBelow(values_, lower.value) : CountAtMost(values_, lower.value));
	const std::size_t pb =
	    !upper.present ? values_.size()
	                   : (upper.inclusive ? CountAtMost(values_, upper.value) : CountBelow(values_, upper.value));
	if (pb <= pa)
		return 0;  // no public value satisfies the query: the empty query agrees with it everywhere
	// The bins of the first and last selected values are the only ones partly selected (the highest value is a
	// cut, so no public value lies in the top bin).
	const std::int32_t lo_bin = value_bin_[pa], hi_bin = value_bin_[pb - 1];
	const std::size_t hi_end = BinBegin(hi_bin + 1);
	const std::int64_t hi_in = Mass(std::max(pa, BinBegin(hi_bin)), pb), hi_out = Mass(pb, hi_end);
	// A bin without public rows holds one whole value (the constructor checks it), which the query selects: it
	// joins the query whole. Every choice has no public disagreement there, and this one has no private one.
	const bool hi_whole = Mass(BinBegin(hi_bin), hi_end) == 0;
	if (!ranges_)
		return std::size_t(hi_in > hi_out || hi_whole ? hi_bin + 1 : hi_bin);
	if (lo_bin == hi_bin) {
		// the whole bin or nothing; a tie moves the upper bound, if any, down to the bin's lower cut
		const std::int64_t out = Mass(BinBegin(lo_bin), hi_end) - hi_in;
		return hi_in > out || (hi_in == out && (!upper.present || hi_whole)) ? RunIndex(lo_bin, lo_bin) : 0;
	}
	const std::int64_t lo_in = Mass(pa, BinBegin(lo_bin + 1)), lo_out = Mass(BinBegin(lo_bin), pa);
	const std::int32_t s = lo_in >= lo_out ? lo_bin : lo_bin + 1;  // a bin without public rows: 0 >= 0, taken
	const std::int32_t t = hi_in > hi_out || hi_whole ? hi_bin : hi_bin - 1;
	return s <= t ? RunIndex(s, t) : 0;
}

std::string
OrderedAxisCover::Render(std::size_t i, const std::string &column) const
{
	const CellInterval iv = Bins(i);
	if (iv.empty())
		return column + " < " + FormatAxisLiteral(-std::numeric_limits<double>::infinity(), value_type_);
	const std::int32_t M = std::int32_t(cuts_.size());
	if (!ranges_)
		return column + " <= " + FormatAxisLiteral(cuts_[std::size_t(iv.hi)], value_type_);
	std::string text;
	if (iv.lo > 0)
		text = column + " > " + FormatAxisLiteral(cuts_[std::size_t(iv.lo) - 1], value_type_);
	if (iv.hi < M - 1)
		text +=
		    (text.empty() ? "" : " AND ") + column + " <= " + FormatAxisLiteral(cuts_[std::size_t(iv.hi)], value_type_);
	return text.empty() ? column + " >= " + FormatAxisLiteral(-std::numeric_limits<double>::infinity(), value_type_)
	                    : text;
}

double
OrderedCoverSize(const ClassSpec &spec, const std::vector<std::size_t> &cut_counts)
{
	switch (spec.kind) {
	case ClassKind::Thresholds:
	case ClassKind::Ranges: return OrderedAxisCover::Size(spec.kind == ClassKind::Ranges, cut_counts.at(0));
	case ClassKind::Boxes:
	case ClassKind::Orthants: {
		double size = 1.0;
		for (std::size_t M : cut_counts)
			size *= OrderedAxisCover::Size(spec.kind == ClassKind::Boxes, M) + 1.0;
		return size;
	}
	default: throw Error(ErrorKind::Internal, "ordered cover size asked of another class");
	}
}

std::size_t
OrderedCoverCount(const ClassSpec &spec, const std::vector<std::size_t> &cut_counts)
{
	if (!(OrderedCoverSize(spec, cut_counts) < 2.0 * double(kMaxCoverCount)))
		return kMaxCoverCount;  // the exact product below might overflow
	const bool ranges = spec.kind == ClassKind::Ranges || spec.kind == ClassKind::Boxes;
	const auto axis_size = [ranges](std::size_t M) { return ranges ? M * (M + 1) / 2 + 1 : M + 1; };
	if (spec.kind == ClassKind::Thresholds || spec.kind == ClassKind::Ranges)
		return std::min(axis_size(cut_counts.at(0)), kMaxCoverCount);
	std::size_t count = 1;
	for (std::size_t M : cut_counts)
		count *= axis_size(M) + 1;  // below 2^64: the size is below 2^63 up to the double's rounding
	return std::min(count, kMaxCoverCount);
}

namespace {

class IntervalCover final : public Cover {
public:
	explicit IntervalCover(const CoverInput &input)
	    : spec_(*input.spec), axis_(spec_.kind == ClassKind::Ranges, input.axes->at(0)),
	      column_(QuoteIdentifier(spec_.columns.at(0)))
	{
	}
	// Listed when first asked for (the mechanisms that read the list are planned only when it fits their limit).
	const ProductQueryList &
	Queries() const override
	{
		if (queries_.size() == axis_.size())
			return queries_;
		queries_ = ProductQueryList();  // a list a cancel left half-built starts again
		queries_.Reserve(axis_.size(), axis_.size());
		std::uint64_t steps = 0;
		for (std::size_t i = 0; i < axis_.size(); i++) {
			PollInterrupt(steps);
			const AxisConstraint c{0, axis_.Bins(i)};
			queries_.Add(&c, 1);
		}
		return queries_;
	}
	std::size_t
	QueryCount() const override
	{
		return axis_.size();
	}
	ProductQueryList
	Widest() const override
	{
		ProductQueryList widest;
		const AxisConstraint c{0, axis_.Bins(axis_.Widest())};
		widest.Add(&c, 1);
		return widest;
	}
	std::size_t
	Project(std::string_view, const QueryText *parsed, const std::vector<LiteralValue> &literals) const override
	{
		const bool thresholds = spec_.kind == ClassKind::Thresholds;
		const std::vector<ColumnBounds> bounds = CollectColumnBounds(spec_, parsed, literals, thresholds);
		RequireOneCoverQuery(spec_, *parsed, bounds);
		const ColumnBounds &b = bounds.at(0);
		if (!b.mentioned)
			throw OutsideClass(spec_, "A query of this class compares the column with a constant.");
		return axis_.Project(b.lower, b.upper);
	}
	std::string
	Render(std::size_t q) const override
	{
		return axis_.Render(q, column_);
	}
	int
	VcDimension() const override
	{
		return spec_.kind == ClassKind::Thresholds ? 1 : 2;
	}

private:
	ClassSpec spec_;
	OrderedAxisCover axis_;
	std::string column_;
	mutable ProductQueryList queries_;
};

}  // namespace

std::unique_ptr<Cover>
MakeIntervalCover(const CoverInput &input)
{
	const ClassSpec &spec = *input.spec;
	if ((spec.kind != ClassKind::Thresholds && spec.kind != ClassKind::Ranges) || spec.columns.size() != 1 ||
	    input.axes == nullptr || input.axes->size() != 1)
		throw Error(ErrorKind::Internal, "interval cover built for another class or without one axis");
	return std::make_unique<IntervalCover>(input);
}

}  // namespace pap::core
