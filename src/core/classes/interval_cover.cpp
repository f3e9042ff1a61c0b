#include "core/classes/interval_cover.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

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
			                ColumnList(spec) + ".");
		if (upper_only && c.op != Comparison::LessEqual && c.op != Comparison::Less)
			throw OutsideClass(spec, spec.kind == ClassKind::Thresholds
			                             ? "Define a release over ranges(" + QuoteIdentifier(c.column) +
			                                   ") to answer other intervals."
			                             : std::string("Define a release over boxes to answer other conditions."));
		ColumnBounds &b = bounds[std::size_t(it - spec.columns.begin())];
		b.mentioned = true;
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
		}
	}
	return bounds;
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
		if (axis.public_counts[i] <= 0 || (i > 0 && !PgFloatLess(values_[i - 1], values_[i])))
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
	bin_begin_.resize(std::size_t(M) + 1);
	for (std::size_t b = 0, i = 0; b <= std::size_t(M); b++) {
		while (i < m && std::size_t(value_bin_[i]) < b)
			i++;
		bin_begin_[b] = i;
	}

	bins_.reserve(std::size_t(Size(ranges_, cuts_.size())));
	if (!ranges_) {
		for (std::int32_t j = 0; j <= M; j++)
			bins_.push_back(CellInterval{0, j - 1});
		return;
	}
	bins_.push_back(CellInterval{1, 0});
	std::uint64_t steps = 0;
	for (std::int32_t s = 0; s < M; s++) {
		PollInterrupt(steps, std::uint64_t(M - s));
		for (std::int32_t t = s; t < M; t++)
			bins_.push_back(CellInterval{s, t == M - 1 ? M : t});
	}
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
	const std::size_t M = cuts_.size(), S = std::size_t(s);
	// runs are listed by first bin s, then last bin t: s full blocks of lengths M, M-1, ... come first
	return 1 + S * (M + 1) - S * (S + 1) / 2 + std::size_t(t - s);
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
	if (!ranges_)
		return std::size_t(hi_in > hi_out ? hi_bin + 1 : hi_bin);
	if (lo_bin == hi_bin) {
		// the whole bin or nothing; a tie moves the upper bound, if any, down to the bin's lower cut
		const std::int64_t out = Mass(BinBegin(lo_bin), hi_end) - hi_in;
		return hi_in > out || (hi_in == out && !upper.present) ? RunIndex(lo_bin, lo_bin) : 0;
	}
	const std::int64_t lo_in = Mass(pa, BinBegin(lo_bin + 1)), lo_out = Mass(BinBegin(lo_bin), pa);
	const std::int32_t s = lo_in >= lo_out ? lo_bin : lo_bin + 1;
	const std::int32_t t = hi_in > hi_out ? hi_bin : hi_bin - 1;
	return s <= t ? RunIndex(s, t) : 0;
}

std::string
OrderedAxisCover::Render(std::size_t i, const std::string &column) const
{
	const CellInterval &iv = bins_.at(i);
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

std::string
CoverLimitHint(const ClassSpec &spec, const std::vector<ReleaseAxis> &axes, std::size_t max_queries)
{
	const std::string plain = "Raise pap_release.max_cover_queries, or use a class with fewer columns.";
	std::int64_t rows = 0;
	for (const ReleaseAxis &axis : axes) {
		std::int64_t sum = 0;
		for (std::int64_t c : axis.public_counts)
			sum += c;
		rows = std::max(rows, sum);
	}
	const auto fits = [&](std::int64_t limit) {
		std::vector<std::size_t> cut_counts;
		for (const ReleaseAxis &axis : axes)
			cut_counts.push_back(ChooseCuts(axis.public_values, axis.public_counts, double(limit)).size());
		return OrderedCoverSize(spec, cut_counts) <= double(max_queries);
	};
	if (rows <= 0 || !fits(rows))
		return plain;
	// smallest bin-row limit that fits: fits(hi) holds, fits(lo) does not (limit 0 is the finest, which did not)
	std::int64_t lo = 0, hi = rows;
	while (hi - lo > 1) {
		const std::int64_t mid = lo + (hi - lo) / 2;
		(fits(mid) ? hi : lo) = mid;
	}
	// alpha / (4 s) * rows >= hi: shown rounded up to two significant digits, checked as printed
	const double alpha = 4.0 * double(MovableEdges(spec)) * double(hi) / double(rows);
	const double unit = std::pow(10.0, std::floor(std::log10(alpha)) - 1.0);
	char text[32];
	// MaxBinRows(alpha) is about hi already: a step or two. The bound keeps a hint from ever looping long.
	double shown = std::ceil(alpha / unit) * unit;
	for (int step = 0;; step++, shown += unit) {
		std::snprintf(text, sizeof text, "%.2g", shown);
		const double back = std::strtod(text, nullptr);
		if (!(back < 1.0) || step >= 1000)
			return plain;
		if (MaxBinRows(spec, back, rows) >= double(hi))
			break;
	}
	return std::string("Use a larger alpha (alpha >= ") + text +
	       " makes the cover fit) or raise pap_release.max_cover_queries.";
}

namespace {

class IntervalCover final : public Cover {
public:
	explicit IntervalCover(const CoverInput &input)
	    : spec_(*input.spec), axis_(spec_.kind == ClassKind::Ranges, input.axes->at(0)),
	      column_(QuoteIdentifier(spec_.columns.at(0)))
	{
		queries_.Reserve(axis_.size(), axis_.size());
		for (std::size_t i = 0; i < axis_.size(); i++) {
			const AxisConstraint c{0, axis_.Bins(i)};
			queries_.Add(&c, 1);
		}
	}
	const ProductQueryList &
	Queries() const override
	{
		return queries_;
	}
	std::size_t
	Project(std::string_view, const QueryText *parsed, const std::vector<LiteralValue> &literals) const override
	{
		const bool thresholds = spec_.kind == ClassKind::Thresholds;
		const ColumnBounds b = CollectColumnBounds(spec_, parsed, literals, thresholds).at(0);
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
	ProductQueryList queries_;
};

}  // namespace

std::unique_ptr<Cover>
MakeIntervalCover(const CoverInput &input)
{
	const ClassSpec &spec = *input.spec;
	if ((spec.kind != ClassKind::Thresholds && spec.kind != ClassKind::Ranges) || spec.columns.size() != 1 ||
	    input.axes == nullptr || input.axes->size() != 1)
		throw Error(ErrorKind::Internal, "interval cover built for another class or without one axis");
	const std::size_t M = input.axes->at(0).cuts.size();
	const double size = OrderedCoverSize(spec, {M});
	if (!(size <= double(input.max_queries)))
		throw Error(ErrorKind::LimitExceeded,
		            "query class " + spec.CanonicalText() + " would have " + FormatFloat8(size) +
		                " cover queries, more than the limit of " + std::to_string(input.max_queries),
		            "The axis of column " + QuoteIdentifier(spec.columns[0]) + " has " + std::to_string(M) +
		                " cut points.",
		            CoverLimitHint(spec, *input.axes, input.max_queries));
	return std::make_unique<IntervalCover>(input);
}

}  // namespace pap::core
