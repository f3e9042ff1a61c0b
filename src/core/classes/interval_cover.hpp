// The cover H~ of a one-dimensional ordered class, thresholds(c) and ranges(c) (Algorithm 3, steps 1-4;
// docs/query-classes.md), over one Numeric ReleaseAxis with cuts w_1 < ... < w_M and bins (w_j, w_{j+1}]
// (release_axis.hpp), and the projection of any query of the class onto it. OrderedAxisCover is the per-axis
// piece that boxes and orthants (box_cover.hpp) reuse.
//
// thresholds(col): cover query j = bins [0, j-1] = "col <= w_j" for j = 1..M, plus j = 0 the empty query.
// ranges(col): query 0 is the empty query, then one query per run of bins s..t (0 <= s <= t <= M-1), listed by s
//   then t: "col > w_s AND col <= w_{t+1}", the lower bound absent when s = 0 and the upper one absent when
//   t = M-1, which then also takes the top bin (w_M, above all]: one-sided queries such as col > c keep the mass
//   beyond the last cut.
// The NULL bin is in no query: a SQL comparison with NULL is never true. Size: M + 1 (thresholds),
// M(M+1)/2 + 1 (ranges); the list takes 8 + 12 = 20 bytes per query (product_query.hpp). A query's bins are
// computed from its index, so no per-query table is kept, and the cover lists its queries only when Queries() is
// first called (PMW and MWEM read the list; answers and identity and hierarchical never do): a cover of any size
// is built, projected onto and rendered in O(m) memory for m public values.
//
// Cuts must be public values and include the highest one (ChooseCuts does both), so every bin below the top one
// holds public values and the top bin none; Error(Internal) otherwise. A public value may have 0 public rows only
// on a discrete axis cut at every whole value (layout_choice.hpp): it is then a cut whose bin (previous cut, value]
// holds that one value (NoValueBetween), which a query selects whole or not at all; its projection takes the bin
// exactly when the query selects the value.
//
// Projection (the query's literals only matter through the public values they separate): the query selects a
// run of the sorted public values. At the finest granularity (a cut at every public value) the projection is the
// unique cover query that labels every public value the same way. With coarse cuts each bound falls inside a bin
// (w_j, w_{j+1}] and moves to the neighbouring cut w_j or w_{j+1} with fewer public rows of that bin on the wrong
// side: the bin joins the query iff more of its public rows satisfy the query than fail it. Ties go to the lower
// cut w_j: an upper bound leaves the bin out, a lower bound takes it in; when both bounds fall in the same bin
// both move to w_j and the query is empty. This is the cover query with the fewest public disagreements, found
// in O(log m).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/axes/release_axis.hpp"
#include "core/classes/cover.hpp"
#include "core/language/class_spec.hpp"
#include "core/language/query_text.hpp"
#include "core/workloads/workload.hpp"

namespace pap::core {

std::unique_ptr<Cover> MakeIntervalCover(const CoverInput &input);

// A bound of a conjunction on one column; absent = unbounded on that side.
struct ValueBound {
	bool present = false;
	double value = 0.0;
	bool inclusive = false;
};

// The bounds a conjunction puts on each class column (bounds on one side intersected: the tighter one kept, an
// exclusive one at equal values). "col IS NOT NULL" is the upper bound "col <= 'NaN'" (NaN is the highest float8:
// every non-NULL value), a query of every ordered class; "col IS NULL" sets is_null, which no cover query is
// (the release model answers it as TRUE minus "col IS NOT NULL": docs/query-classes.md, "NULL values").
// Error(Internal) for parsed == nullptr or literals not matching the query; Error(UndefinedColumn) for another
// column; Error(QueryOutsideClass) for a linear condition or an IN list, or (upper_only: thresholds, orthants) a
// condition other than <=, <, IS NULL and IS NOT NULL, naming the class and what it accepts.
struct ColumnBounds {
	bool mentioned = false;
	ValueBound lower, upper;
	bool is_null = false;  // "col IS NULL": with any bound too, the query is empty
};
std::vector<ColumnBounds> CollectColumnBounds(const ClassSpec &spec, const QueryText *parsed,
                                              const std::vector<LiteralValue> &literals, bool upper_only);

// Error(QueryOutsideClass), at the first IS NULL condition, when bounds hold one: a cover's Project answers one
// cover query, and a query with "col IS NULL" is a difference of them (the release model answers it).
void RequireOneCoverQuery(const ClassSpec &spec, const QueryText &parsed, const std::vector<ColumnBounds> &bounds);

// The one-dimensional cover of one Numeric axis (thresholds or ranges layout above), its projection and text.
class OrderedAxisCover {
public:
	// Error(Internal) for a non-Numeric axis or cuts that are not public values including the highest one.
	OrderedAxisCover(bool ranges, const ReleaseAxis &axis);

	// The number of per-axis queries, Size(ranges, cuts) (a size_t: M stays below 2^31).
	std::size_t
	size() const
	{
		return size_;
	}
	// The bins of per-axis query i < size() (the layout above), computed: O(log M) for ranges.
	CellInterval Bins(std::size_t i) const;
	// The per-axis query that contains every other one's bins: the last threshold, or the run of every bin.
	std::size_t
	Widest() const
	{
		return ranges_ ? (cuts_.empty() ? 0 : RunIndex(0, std::int32_t(cuts_.size()) - 1)) : size_ - 1;
	}
	// The cover query with the fewest public disagreements with "lower AND upper" (either may be absent).
	std::size_t Project(const ValueBound &lower, const ValueBound &upper) const;
	// "col <= 3", "col > 1 AND col <= 3", "col >= '-Infinity'" (every non-NULL value), "col < '-Infinity'" (the
	// empty query); column is the quoted identifier. Projects back to i.
	std::string Render(std::size_t i, const std::string &column) const;

	// Cover size over M cuts (a double: may be huge).
	static double Size(bool ranges, std::size_t cuts);

	// The finest public marginal the cover is built on, for within-cell refinement (release_model.cpp): its
	// sorted values, the public rows of values [from, to), the bin of a value, and the first value of bin b (the
	// number of values for b past the top bin).
	const std::vector<double> &
	PublicValues() const
	{
		return values_;
	}
	std::int64_t
	PublicRows(std::size_t from, std::size_t to) const
	{
		return Mass(from, to);
	}
	std::int32_t
	ValueBin(std::size_t i) const
	{
		return value_bin_[i];
	}
	std::size_t
	FirstValueOfBin(std::size_t b) const
	{
		return b < bin_begin_.size() ? bin_begin_[b] : values_.size();
	}

private:
	std::size_t RunIndex(std::int32_t s, std::int32_t t) const;  // ranges: run of bins s..t
	std::size_t RunStart(std::size_t s) const;                   // ranges: the index of run s..s
	std::int64_t
	Mass(std::size_t from, std::size_t to) const
	{
		return cum_[to] - cum_[from];
	}
	// Public index range of bin b (ranges: the top bin merged into bin M-1, it holds no public rows).
	std::size_t
	BinBegin(std::int32_t b) const
	{
		return bin_begin_[std::size_t(b)];
	}

	bool ranges_;
	ValueType value_type_;
	std::vector<double> cuts_;
	std::vector<double> values_;           // the finest public marginal
	std::vector<std::int64_t> cum_;        // cum_[i] = rows of values_[0..i)
	std::vector<std::int32_t> value_bin_;  // bin of values_[i]
	std::vector<std::size_t> bin_begin_;   // first public index of bin b, b = 0..M (bin_begin_[M] = m)
	std::size_t size_ = 0;
};

// Cover size of thresholds, ranges (one axis), orthants, boxes (the product of per-axis sizes + 1) over the given
// per-axis cut counts; a double, may be huge. Error(Internal) for another class.
double OrderedCoverSize(const ClassSpec &spec, const std::vector<std::size_t> &cut_counts);

// The same size as an exact count, or kMaxCoverCount when it is that or larger (a box cover over three finely cut
// axes may exceed 2^63): what QueryCount returns, the planners' union bounds read and the catalog's int8 stores.
constexpr std::size_t kMaxCoverCount = std::size_t(1) << 62;
std::size_t OrderedCoverCount(const ClassSpec &spec, const std::vector<std::size_t> &cut_counts);

}  // namespace pap::core

#include "core/base/core_only.hpp"
