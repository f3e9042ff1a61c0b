// The answering side of a finished release (api/release_api.hpp, "answering"): the model built from the catalog
// and the parsing and projection of an analyst's query onto the cover.
// Loading is O(cells x axes) plus the cover of the non-ordered classes (marginals, halfspaces, predicates list
// theirs as they are built): an ordered class's product cover (of any size: docs/query-classes.md, "Covers too
// large to list") is never listed, it renders and answers each query from its per-axis covers. A query's answer
// is read from a prefix-sum table over the grid, 2^k reads for k bounded axes; a public-support domain whose grid
// is too large for the table scans its cells, or reads every cover answer computed at load when the cover is no
// larger than the table would have been.
#include <boost/container/small_vector.hpp>
#include <boost/container/static_vector.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/api/release_api.hpp"
#include "core/axes/cut_lookup.hpp"  // BranchlessCountBelow, BranchlessCountAtMost
#include "core/axes/gap_spread.hpp"
#include "core/base/errors.hpp"
#include "core/base/float_order.hpp"  // PgFloatLess
#include "core/base/interrupt_scope.hpp"
#include "core/classes/interval_cover.hpp"  // NumericLiteralValue, OrderedAxisCover, CollectColumnBounds
#include "core/language/value_format.hpp"
#include "core/mechanisms/error_model.hpp"  // the bound's parts (answer_bound.hpp)
#include "core/release/answer_bound.hpp"
#include "core/release/answer_mode.hpp"  // CellsAnswerable, LoadedAnswerFactsOf, ProjectionEventBetaOf
#include "core/release/engine_support.hpp"
#include "core/release/release_layout.hpp"
#include "core/release/release_model.hpp"
#include "core/workloads/product_workload.hpp"

namespace pap::core {

// A weighted run of bins on one axis: the refined query is a sum of products of such runs.
struct BinTerm {
	CellInterval bins;
	double coefficient;
};
// One axis's terms: at most three runs between the bounds and the top bin. Held inline, as every refined answer
// builds them (no heap allocation per answer).
using AxisTerms = boost::container::static_vector<BinTerm, 4>;

// One term of a query of an ordered class with "col IS NULL" conditions (docs/query-classes.md, "NULL values"):
// "col IS NULL" is TRUE minus "col IS NOT NULL", so a query with IS NULL on the columns N is the signed sum over
// the subsets S of N of the query with "col IS NOT NULL" on S and no condition on N \ S, the other columns' bounds
// unchanged. Every term is a query of the class, or TRUE (no column constrained: exactly the total weight).
struct NullTerm {
	double sign;
	std::vector<ColumnBounds> bounds;  // without is_null
	bool everything;                   // no column mentioned: TRUE
};

namespace {

// A query with IS NULL on j columns costs 2^j times a query without: at most 1024.
constexpr std::size_t kMaxIsNullColumns = 10;
// A refined answer sums its products of per-axis terms box by box while that costs at most this many passes over
// the cells, and cell by cell beyond (ReleaseModel::TermsSum). The two sums agree up to rounding; the factor keeps
// the box sums, which the answers of a few axes have always used, wherever they are not far slower.
constexpr double kTermsPassFactor = 64.0;

// The terms of bounds (one term, bounds itself, without IS NULL); none when a column IS NULL is also bounded,
// which no row satisfies (a comparison with NULL is never true).
std::vector<NullTerm>
NullTerms(const std::vector<ColumnBounds> &bounds)
{
	std::vector<std::size_t> null_columns;
	for (std::size_t a = 0; a < bounds.size(); a++) {
		if (!bounds[a].is_null)
			continue;
		if (bounds[a].lower.present || bounds[a].upper.present)
			return {};
		null_columns.push_back(a);
	}
	if (null_columns.size() > kMaxIsNullColumns)
		throw Error(ErrorKind::LimitExceeded,
		            "query has more than " + std::to_string(kMaxIsNullColumns) + " conditions IS NULL",
		            "A query with IS NULL on k columns is answered as a sum of 2^k queries of the class.",
		            "Split the query, or ask for the columns' IS NOT NULL instead.");
	std::vector<NullTerm> terms;
	for (std::size_t subset = 0; subset < (std::size_t(1) << null_columns.size()); subset++) {
		NullTerm term{1.0, bounds, true};
		for (std::size_t j = 0; j < null_columns.size(); j++) {
			ColumnBounds &b = term.bounds[null_columns[j]];
			b = ColumnBounds{};
			if (subset & (std::size_t(1) << j)) {
				term.sign = -term.sign;
				b.mentioned = true;
				b.upper = ValueBound{true, std::numeric_limits<double>::quiet_NaN(), true};  // IS NOT NULL
			}
		}
		for (const ColumnBounds &b : term.bounds)
			term.everything = term.everything && !b.mentioned;
		terms.push_back(std::move(term));
	}
	return terms;
}

}  // namespace

class ReleaseModel {
public:
	ReleaseModel(ReleaseLayout layout, std::vector<double> synthetic, std::int64_t private_rows)
	    : layout_(std::move(layout)), domain_(layout_.MakeDomain()), synthetic_(std::move(synthetic)),
	      private_rows_(private_rows)
	{
		if (synthetic_.size() != domain_.CellCount())
			throw Error(ErrorKind::Internal, "stored synthetic distribution does not match the release's cells");
		const ClassKind kind = layout_.spec.kind;
		ordered_ = kind == ClassKind::Thresholds || kind == ClassKind::Ranges || kind == ClassKind::Boxes ||
		           kind == ClassKind::Orthants;
		if (ordered_) {
			// The product cover is never listed here (boxes covers reach 10^7 queries): a query is answered from
			// its per-axis projections, and the cover is built only to render or list it (pap.answers).
			const bool ranges = kind == ClassKind::Ranges || kind == ClassKind::Boxes;
			if (layout_.axes.size() != layout_.spec.columns.size() || layout_.axes.size() != domain_.AxisCount())
				throw Error(ErrorKind::Internal, "ordered release without one axis per column");
			std::vector<std::size_t> cut_counts;
			for (const ReleaseAxis &axis : layout_.axes) {
				axes_.emplace_back(ranges, axis);
				cut_counts.push_back(axis.cuts.size());
			}
			cover_size_ = OrderedCoverCount(layout_.spec, cut_counts);
		} else {
			cover_ = layout_.MakeReleaseCover(std::numeric_limits<std::size_t>::max());
			cover_size_ = cover_->QueryCount();
		}
		BuildPrefixTable();
		cells_answerable_ = pap::core::CellsAnswerable(layout_);
		if (cells_answerable_)
			unseen_cells_weight_ = WeightOfCellsWithoutPublicRows();
		const double listed_limit = std::max(4.0 * double(domain_.CellCount()), double(std::size_t(1) << 20));
		if (prefix_.empty() && (!ordered_ || double(cover_size_) <= listed_limit)) {
			// A public-support domain over a grid too large for a table: every cover answer at once, by groups,
			// O(groups x cells + queries). An ordered cover larger than the cells' own memory bound is not listed:
			// its answers scan the support cells (BoxSum).
			ProductWorkload(domain_, cover().Queries()).Evaluate(synthetic_, answers_);
		}
	}
	const ReleaseLayout &
	layout() const
	{
		return layout_;
	}
	const CellDomain &
	domain() const
	{
		return domain_;
	}
	const Cover &
	cover() const
	{
		if (!cover_)
			cover_ = layout_.MakeReleaseCover(std::numeric_limits<std::size_t>::max());
		return *cover_;
	}
	std::size_t
	CoverSize() const
	{
		return cover_size_;
	}
	double
	Answer(std::size_t q) const
	{
		if (q >= cover_size_)
			throw Error(ErrorKind::Internal, "cover query index out of range");
		if (!answers_.empty())
			return Clamp(answers_[q]);
		if (!ordered_)
			return Clamp(ConstraintsSum(cover().Queries().begin(q), cover().Queries().end(q)));
		// The cover's index: thresholds and ranges the 1-D index; boxes and orthants the mixed-radix number of
		// the per-axis indexes, axis 0 most significant, the axis size meaning unconstrained (box_cover.hpp).
		std::vector<std::size_t> digits(axes_.size());
		if (!Product()) {
			digits[0] = q;
		} else {
			for (std::size_t a = axes_.size(); a-- > 0;) {
				digits[a] = q % (axes_[a].size() + 1);
				q /= axes_[a].size() + 1;
			}
		}
		return Clamp(DigitsSum(digits));
	}
	// The cover query of a parsed query (Cover::Project's contract), and its answer; refine: within-cell
	// refinement on the numeric axes of an ordered class (api/release_api.hpp, ModelAnswerQuery).
	std::size_t Project(const ParsedQuery &q, const std::vector<LiteralValue> &values) const;
	double AnswerQuery(const ParsedQuery &q, const std::vector<LiteralValue> &values, bool refine) const;
	// A query with IN lists on categorical columns (marginals, stumps): the sum of the answers of the
	// conjunctions of equalities it expands to, one per distinct category bin of each list (docs/query-classes.md,
	// "IN lists").
	double AnswerInLists(const ParsedQuery &q, const std::vector<LiteralValue> &values, bool refine) const;
	// A query of a class whose queries are cells of the grid (marginals, stumps), answered from the cover query
	// (projection) or, with refine on a full grid, from the sum of the query's own cells (docs/mechanisms.md §10,
	// "The answer mode").
	double AnswerCellQuery(const ParsedQuery &q, const std::vector<LiteralValue> &values, bool refine) const;
	// Whether AnswerCellQuery reads the query's own cells (IN lists: each of its conjunctions) rather than its
	// projection.
	bool AnswersOwnCells(const ParsedQuery &q, bool refine) const;
	// Whether AnswerCellQuery answers the query (without IN lists) with half its own cells' weight: they are an
	// "other" bin's, holding every value the public table never showed (and, folded, its rarest categories).
	bool HalvesOtherBin(const ParsedQuery &q, const std::vector<LiteralValue> &values, bool refine) const;
	// The cells a marginal or stump query reads of the grid (its cover's OwnCells).
	std::vector<AxisConstraint> OwnCellsOf(const ParsedQuery &q, const std::vector<LiteralValue> &values) const;
	// refine reads a query's own cells (CellsAnswerable): marginals and stumps on a full grid.
	bool
	CellsAnswerable() const
	{
		return cells_answerable_;
	}
	// The released weight of the cells no public row has (computed at load on a cells-answerable release, else 1):
	// a query and its cover query differ only there, so their answers differ by at most this.
	double
	UnseenCellsWeight() const
	{
		return unseen_cells_weight_;
	}
	// Ordered classes: the bounds the query puts on each axis (CollectColumnBounds; thresholds and ranges raise the
	// cover's error for a query without their column).
	std::vector<ColumnBounds> OrderedBounds(const ParsedQuery &q, const std::vector<LiteralValue> &values) const;
	// Ordered classes: the answer of per-axis bounds, IS NULL included (NullTerms); a column without bounds is free
	// (boxes and orthants; thresholds and ranges need theirs unless it is IS NULL).
	double AnswerOrderedBounds(const std::vector<ColumnBounds> &bounds, bool refine) const;
	// Ordered classes: the bins of the cover query bounds (without IS NULL) project onto, one interval per axis
	// (empty: the empty query; every bin: an axis a box leaves free).
	void ProjectedBins(const std::vector<ColumnBounds> &bounds, std::vector<CellInterval> &bins) const;
	bool
	IsOrdered() const
	{
		return ordered_;
	}
	bool
	IsProduct() const
	{
		return ordered_ && Product();
	}
	double
	Weight(std::size_t cell) const
	{
		return synthetic_.at(cell);
	}
	std::int64_t
	private_rows() const
	{
		return private_rows_;
	}
	// The run's public facts for answers' error bounds (answer_bound.hpp), set after loading.
	ReleaseErrorFacts error_facts;
	double unseen_points_mass = 1.0;  // bound of the private share of grid points no public row has (from the facts)
	// The plan's projection part in projection mode (the run stores the answer mode's, possibly refinement's).
	double event_projection = 1.0;
	// Per axis and public value, the share of the value's first row refined answers spread over the gap below it
	// (answer_mode.hpp, LoadedAnswerFactsOf; from the facts): empty until they are known, answering by public rows.
	std::vector<std::vector<double>> gap_spread;
	// Per axis, the most one value of its "other" bin, unseen or folded, can hold (answer_mode.hpp, LoadedAnswerFacts):
	// empty until the facts are known.
	std::vector<double> other_bin_caps;
	// The released weight of a query's own cells, uncapped.
	double
	OwnCellsWeight(const std::vector<AxisConstraint> &cells) const
	{
		return Clamp(ConstraintsSum(cells.data(), cells.data() + cells.size()));
	}
	// The cap of a query's own cells that read "other" bins: the smallest of their axes' (1 without one).
	double
	OtherBinCapOf(const std::vector<AxisConstraint> &cells) const
	{
		double cap = 1.0;
		for (const AxisConstraint &c : cells)
			if (c.axis < other_bin_caps.size() && c.bins.lo == layout_.axes.at(c.axis).OtherBin() &&
			    layout_.axes.at(c.axis).kind == AxisKind::Categorical)
				cap = std::min(cap, other_bin_caps[c.axis]);
		return cap;
	}
	std::size_t
	MemoryBytes() const
	{
		std::size_t bytes = sizeof(*this) + 8 * (synthetic_.size() + prefix_.size() + answers_.size());
		bytes += AxesBytes();
		for (const std::vector<double> &shares : gap_spread)
			bytes += 8 * shares.size();
		if (cover_ && (!ordered_ || !answers_.empty()))  // a listed cover (an ordered one only to list answers_)
			bytes += 20 * cover_->QueryCount();
		if (ordered_)  // its cover's per-axis covers, built or not yet (DeferredBytes)
			bytes += AxesBytes();
		return bytes + layout_.public_points.size() * 4 + layout_.public_point_counts.size() * 8;
	}
	// An ordered class's cover, once built (cover()), holds per-axis covers like axes_.
	std::size_t
	DeferredBytes() const
	{
		return ordered_ && !cover_ ? AxesBytes() : 0;
	}
	// The weight of the cells whose first axis is not its NULL bin; the outside cell of a public-support domain
	// is left out (where its rows lie is unknown). O(cells).
	double
	NonNullMassOfFirstAxis() const
	{
		std::vector<std::int32_t> at(domain_.AxisCount());
		const std::int32_t null_bin = layout_.axes.at(0).NullBin();
		double sum = 0.0;
		for (std::size_t c = 0; c < domain_.CellCount(); c++)
			if (domain_.CoordinatesOf(c, at.data()) && at[0] != null_bin)
				sum += synthetic_[c];
		return sum;
	}
	// The axis a column of the class is read on (numeric and categorical classes), or nullptr.
	const ReleaseAxis *
	AxisOfColumn(const std::string &column) const
	{
		for (const ReleaseAxis &axis : layout_.axes)
			if ((axis.kind == AxisKind::Numeric || axis.kind == AxisKind::Categorical) && axis.label == column)
				return &axis;
		return nullptr;
	}

	// Whether the axis's "other" bin holds public rows: its rare categories were folded into it to fit
	// pap_release.max_cells (category_folding.hpp). O(public points).
	bool
	OtherBinFolded(const ReleaseAxis &axis) const
	{
		const std::size_t a = std::size_t(&axis - layout_.axes.data());
		return axis.kind == AxisKind::Categorical && a < layout_.axes.size() &&
		       layout_.PublicRowsPerBin(a).at(std::size_t(axis.OtherBin())) > 0;
	}

private:
	// The per-axis covers: their cuts and bin starts, and the public marginal's values and row counts (a cover's
	// queries are computed, not stored).
	std::size_t
	AxesBytes() const
	{
		std::size_t bytes = 0;
		for (std::size_t a = 0; a < axes_.size(); a++)
			bytes += 16 * layout_.axes.at(a).cuts.size() + 28 * axes_[a].PublicValues().size();
		return bytes;
	}
	// Clamp the tiny negative or > 1 values that rounding in the prefix sums can produce.
	static double
	Clamp(double x)
	{
		return std::min(1.0, std::max(0.0, x));
	}
	bool
	Product() const
	{
		return layout_.spec.kind == ClassKind::Boxes || layout_.spec.kind == ClassKind::Orthants;
	}
	void BuildPrefixTable();
	double WeightOfCellsWithoutPublicRows() const;
	// Whether one of a query's own cells (Cover::OwnCells) is a categorical axis's "other" bin.
	bool ReadsOtherBin(const std::vector<AxisConstraint> &cells) const;
	double BoxSum(const CellInterval *box) const;
	double ConstraintsSum(const AxisConstraint *begin, const AxisConstraint *end) const;
	double DigitsSum(const std::vector<std::size_t> &digits) const;
	double TermsSum(const std::vector<AxisTerms> &terms) const;
	double TermsSumByCells(const std::vector<AxisTerms> &terms) const;
	void DigitsOf(const std::vector<ColumnBounds> &bounds, std::vector<std::size_t> &digits) const;
	double AnswerBounds(const std::vector<ColumnBounds> &bounds, bool refine) const;
	AxisTerms RefinedTerms(std::size_t a, const ColumnBounds &b, std::size_t digit) const;

	ReleaseLayout layout_;
	CellDomain domain_;
	mutable std::unique_ptr<Cover> cover_;  // built at load except for ordered classes
	std::size_t cover_size_ = 0;
	bool ordered_ = false;
	std::vector<OrderedAxisCover> axes_;  // ordered classes (with their public marginals, for refinement)
	std::vector<double> synthetic_;
	// Inclusive prefix sums of the weights over the full grid (row-major, CellGrid order), when it has at most
	// max(4 cells, 2^20) points: a product query costs 2^(axes with a lower bound) reads. A public-support
	// domain puts its points in and leaves its outside cell out (it lies in TRUE only).
	std::vector<double> prefix_;
	std::vector<std::size_t> strides_;
	double total_ = 0.0;           // every cell, outside included: TRUE
	std::vector<double> answers_;  // per cover query, unclamped, when there is no table
	std::int64_t private_rows_;
	bool cells_answerable_ = false;
	double unseen_cells_weight_ = 1.0;
};

struct ParsedQuery {
	std::string raw;
	bool parsed = false;  // false for predicates: the text is matched as it is
	QueryText text;
	struct Entry {
		const Literal *literal;
		const Condition *condition;
	};
	std::vector<Entry> literals;  // in reading order
};

void
ReleaseModel::BuildPrefixTable()
{
	for (double w : synthetic_)
		total_ += w;
	const std::vector<std::int32_t> &radices = domain_.radices();
	const std::size_t d = radices.size();
	const double limit = std::max(4.0 * double(domain_.CellCount()), double(std::size_t(1) << 20));
	if (d == 0 || (domain_.kind() != DomainKind::Dense && !(domain_.GridSize() <= limit)))
		return;
	strides_.assign(d, 1);
	for (std::size_t a = d - 1; a > 0; a--)
		strides_[a - 1] = strides_[a] * std::size_t(radices[a]);
	const std::size_t size = strides_[0] * std::size_t(radices[0]);
	if (domain_.kind() == DomainKind::Dense) {
		prefix_ = synthetic_;
	} else {
		prefix_.assign(size, 0.0);
		const std::vector<std::int32_t> &points = domain_.points();
		for (std::size_t i = 0; i + 1 < domain_.CellCount(); i++) {
			std::size_t at = 0;
			for (std::size_t a = 0; a < d; a++)
				at += std::size_t(points[i * d + a]) * strides_[a];
			prefix_[at] += synthetic_[i];
		}
	}
	// Inclusive prefix sums along each axis in turn: a block of radix * stride entries per outer position.
	for (std::size_t a = 0; a < d; a++) {
		const std::size_t stride = strides_[a], block = stride * std::size_t(radices[a]);
		for (std::size_t base = 0; base < size; base += block)
			for (std::size_t j = base + stride; j < base + block; j++)
				prefix_[j] += prefix_[j - stride];
	}
}

double
ReleaseModel::BoxSum(const CellInterval *box) const
{
	const std::size_t d = domain_.AxisCount();
	for (std::size_t a = 0; a < d; a++)
		if (box[a].empty())
			return 0.0;
	if (prefix_.empty()) {
		// No table (a public support over a huge grid): the points inside the box, outside cell excluded.
		const std::vector<std::int32_t> &points = domain_.points();
		double sum = 0.0;
		for (std::size_t i = 0; i + 1 < domain_.CellCount(); i++) {
			bool inside = true;
			for (std::size_t a = 0; a < d && inside; a++)
				inside = points[i * d + a] >= box[a].lo && points[i * d + a] <= box[a].hi;
			if (inside)
				sum += synthetic_[i];
		}
		return sum;
	}
	// Inclusion-exclusion over the axes with a lower bound: 2^that reads.
	std::size_t top = 0, steps[64], count = 0;
	for (std::size_t a = 0; a < d; a++) {
		top += std::size_t(box[a].hi) * strides_[a];
		if (box[a].lo > 0) {
			if (count == 64)
				throw Error(ErrorKind::Internal, "product query with more than 64 bounded axes");
			steps[count++] = std::size_t(box[a].hi - box[a].lo + 1) * strides_[a];
		}
	}
	double sum = 0.0;
	for (std::uint64_t mask = 0; mask < (std::uint64_t(1) << count); mask++) {
		std::size_t at = top;
		bool negative = false;
		for (std::size_t j = 0; j < count; j++)
			if (mask & (std::uint64_t(1) << j)) {
				at -= steps[j];
				negative = !negative;
			}
		sum += negative ? -prefix_[at] : prefix_[at];
	}
	return sum;
}

double
ReleaseModel::ConstraintsSum(const AxisConstraint *begin, const AxisConstraint *end) const
{
	if (begin == end)
		return total_;
	const std::vector<std::int32_t> &radices = domain_.radices();
	std::vector<CellInterval> box(radices.size());
	for (std::size_t a = 0; a < radices.size(); a++)
		box[a] = CellInterval{0, radices[a] - 1};
	for (const AxisConstraint *c = begin; c != end; ++c)
		box.at(c->axis) = c->bins;
	return BoxSum(box.data());
}

double
ReleaseModel::DigitsSum(const std::vector<std::size_t> &digits) const
{
	const std::vector<std::int32_t> &radices = domain_.radices();
	std::vector<CellInterval> box(radices.size());
	bool constrained = false;
	for (std::size_t a = 0; a < radices.size(); a++) {
		const bool unconstrained = Product() && digits[a] == axes_[a].size();
		box[a] = unconstrained ? CellInterval{0, radices[a] - 1} : axes_[a].Bins(digits[a]);
		constrained = constrained || !unconstrained;
	}
	return constrained ? BoxSum(box.data()) : total_;
}

double
ReleaseModel::TermsSum(const std::vector<AxisTerms> &terms) const
{
	// Every product of one term per axis (at most 3 terms per axis): an odometer, each product one box sum (2^d
	// reads of the prefix table, or a pass over the points without one). Over many axes the products grow as 3^d:
	// a query over 24 axes of a public support took hours. Where they would cost more than kTermsPassFactor passes
	// over a public support's points, the sum is taken point by point instead (TermsSumByCells: the same sum,
	// regrouped). On a full grid an axis of r bins has at most min(3, r - 1) terms (its NULL bin is in none), so the
	// products' 2^d reads are at most 1.5^d times its cells (58 times at a million cells): bounded, and polled.
	const std::size_t d = terms.size();
	double products = 1.0;
	for (const AxisTerms &t : terms)
		products *= double(t.size());
	const double box_cost =
	    prefix_.empty() ? double(domain_.CellCount()) : std::ldexp(1.0, int(std::min<std::size_t>(d, 1000)));
	const double pass_cost = double(synthetic_.size()) * double(std::max<std::size_t>(d, 1));
	if (domain_.kind() != DomainKind::Dense && products * box_cost > kTermsPassFactor * pass_cost)
		return TermsSumByCells(terms);
	boost::container::small_vector<std::size_t, 8> at(d, 0);
	boost::container::small_vector<CellInterval, 8> box(d);
	double sum = 0.0;
	std::uint64_t steps = 0;
	PollInterruptNow();
	for (;;) {
		PollInterrupt(steps, std::uint64_t(box_cost));
		double coefficient = 1.0;
		for (std::size_t a = 0; a < d; a++) {
			box[a] = terms[a][at[a]].bins;
			coefficient *= terms[a][at[a]].coefficient;
		}
		sum += coefficient * BoxSum(box.data());
		std::size_t a = d;
		while (a > 0 && ++at[a - 1] == terms[a - 1].size())
			at[--a] = 0;
		if (a == 0)
			return sum;
	}
}

double
ReleaseModel::TermsSumByCells(const std::vector<AxisTerms> &terms) const
{
	// sum over the products of prod_a c_a BoxSum(runs) = sum over the cells of w(cell) prod_a f_a(bin_a(cell)),
	// f_a(bin) the summed coefficients of axis a's terms whose run holds the bin.
	const std::vector<std::int32_t> &radices = domain_.radices();
	const std::size_t d = radices.size();
	std::vector<std::vector<double>> factor(d);
	for (std::size_t a = 0; a < d; a++) {
		factor[a].assign(std::size_t(radices[a]), 0.0);
		for (const BinTerm &t : terms[a])
			for (std::int32_t bin = t.bins.lo; bin <= t.bins.hi; bin++)
				factor[a][std::size_t(bin)] += t.coefficient;
	}
	double sum = 0.0;
	std::uint64_t steps = 0;
	PollInterruptNow();
	// A public support's points (TermsSum sends no full grid here), the outside cell left out (it lies in no box, as
	// in BoxSum).
	const std::vector<std::int32_t> &points = domain_.points();
	for (std::size_t i = 0; i + 1 < domain_.CellCount(); i++) {
		PollInterrupt(steps, d);
		double f = synthetic_[i];
		for (std::size_t a = 0; a < d && f != 0.0; a++)
			f *= factor[a][std::size_t(points[i * d + a])];
		sum += f;
	}
	return sum;
}

namespace {

// The share of the top bin (above the highest cut b, holding no public row) that a query selects, where it is
// certain: none when its upper edge lies at or below b, all when it has no upper edge and its lower edge lies at or
// below b (on a discrete axis an edge moved to the multiple it selects first, StepFloor). nullopt when an edge lies
// inside the top bin: no public row tells how much of it the query selects, and a refined answer keeps the
// projection's choice (its bound adds the top bin's, answer_bound.hpp). The projection's choice is no guide where it
// is certain: a ranges run to the highest cut takes the top bin (classes/interval_cover.hpp), so "x <= b" would
// count the rows above b, which an exact edge's bound leaves out.
std::optional<double>
TopBinShare(const ReleaseAxis &axis, const ColumnBounds &b)
{
	if (axis.cuts.empty())
		return std::nullopt;
	const double highest = axis.cuts.back();
	// The edge's value with the values equal to it below the edge: "x <= v" and "x > v" keep it; "x < v" and
	// "x >= v" on a discrete axis move it one multiple down, and on a continuous one keep v (an edge at v with v's
	// rows above it lies at or below b exactly when v does).
	const auto edge = [&](const ValueBound &bound, bool upper) {
		const std::optional<double> floor = StepFloor(bound.value, axis.value_step, upper == bound.inclusive);
		return floor ? *floor : bound.value;
	};
	if (b.upper.present)
		return PgFloatLess(highest, edge(b.upper, true)) ? std::nullopt : std::optional<double>(0.0);
	if (!b.lower.present || !PgFloatLess(highest, edge(b.lower, false)))
		return 1.0;
	return std::nullopt;
}

}  // namespace

AxisTerms
ReleaseModel::RefinedTerms(std::size_t a, const ColumnBounds &b, std::size_t digit) const
{
	const OrderedAxisCover &s = axes_[a];
	const std::vector<double> &values = s.PublicValues();
	// Every answer searches the public values twice: the branchless searches (axes/cut_lookup.hpp).
	const std::size_t pa = !b.lower.present    ? 0
	                       : b.lower.inclusive ? BranchlessCountBelow(values.data(), values.size(), b.lower.value)
	                                           : BranchlessCountAtMost(values.data(), values.size(), b.lower.value);
	const std::size_t pb = !b.upper.present    ? values.size()
	                       : b.upper.inclusive ? BranchlessCountAtMost(values.data(), values.size(), b.upper.value)
	                                           : BranchlessCountBelow(values.data(), values.size(), b.upper.value);
	// The public rows below each bound, each value's spread row counted by its share below the bound
	// (axes/gap_spread.hpp): the rows the query leaves out below, and those it keeps up to its upper bound.
	static const std::vector<double> kNoSpread;
	const std::vector<double> &spread = a < gap_spread.size() ? gap_spread[a] : kNoSpread;
	const double step = layout_.axes[a].value_step;
	const double rows_lo = !b.lower.present ? 0.0
	                                        : SpreadRowsBelow(values, spread, pa, s.PublicRows(0, pa), b.lower.value,
	                                                          step, !b.lower.inclusive);
	const double rows_hi = !b.upper.present ? double(s.PublicRows(0, values.size()))
	                                        : SpreadRowsBelow(values, spread, pb, s.PublicRows(0, pb), b.upper.value,
	                                                          step, b.upper.inclusive);
	AxisTerms raw;
	const std::int32_t top = std::int32_t(layout_.axes[a].cuts.size());
	const CellInterval projected = axes_[a].Bins(digit);
	const auto in_projection = [&](std::int32_t bin) {
		return !projected.empty() && projected.lo <= bin && bin <= projected.hi;
	};
	if (rows_hi > rows_lo || pb > pa) {
		// The public rows below bin `bin`, and the share of its rows between the bounds. A bin below the top one
		// without public rows holds one whole value (every whole value's cuts, interval_cover.hpp) that the query
		// selects or not, as its projection does: it keeps the projection's choice.
		auto rows_before = [&](std::int32_t bin) {
			return double(s.PublicRows(0, s.FirstValueOfBin(std::size_t(bin))));
		};
		auto share = [&](std::int32_t bin) {
			const double begin = rows_before(bin), end = rows_before(bin + 1);
			if (!(end > begin))
				return in_projection(bin) ? 1.0 : 0.0;
			return (std::min(rows_hi, end) - std::max(rows_lo, begin)) / (end - begin);
		};
		// The lowest bin holds the value whose rows the lower bound cuts; the highest the value whose spread row the
		// upper bound cuts, or else the last value it keeps whole.
		const std::int32_t lo = s.ValueBin(pa);
		const std::int32_t hi = rows_hi > double(s.PublicRows(0, pb)) ? s.ValueBin(pb) : s.ValueBin(pb - 1);
		if (lo == hi) {
			raw.push_back({{lo, lo}, share(lo)});
		} else if (lo < hi) {
			raw.push_back({{lo, lo}, share(lo)});
			if (lo + 1 <= hi - 1)
				raw.push_back({{lo + 1, hi - 1}, 1.0});
			raw.push_back({{hi, hi}, share(hi)});
		}
	}
	if (TopBinShare(layout_.axes[a], b).value_or(in_projection(top) ? 1.0 : 0.0) > 0.0)
		raw.push_back({{top, top}, 1.0});
	AxisTerms terms;
	for (const BinTerm &t : raw) {
		if (!(t.coefficient > 0.0))
			continue;
		if (!terms.empty() && terms.back().coefficient == 1.0 && t.coefficient == 1.0 &&
		    terms.back().bins.hi + 1 == t.bins.lo)
			terms.back().bins.hi = t.bins.hi;
		else
			terms.push_back(t);
	}
	return terms;
}

std::vector<ColumnBounds>
ReleaseModel::OrderedBounds(const ParsedQuery &q, const std::vector<LiteralValue> &values) const
{
	const ClassKind kind = layout_.spec.kind;
	std::vector<ColumnBounds> bounds =
	    CollectColumnBounds(layout_.spec, q.parsed ? &q.text : nullptr, values,
	                        kind == ClassKind::Thresholds || kind == ClassKind::Orthants);
	if (!Product() && !bounds.at(0).mentioned) {
		// thresholds and ranges need their column: the cover raises its own error
		cover().Project(q.raw, q.parsed ? &q.text : nullptr, values);
		throw Error(ErrorKind::Internal, "query without its column projected onto a one-column cover");
	}
	return bounds;
}

void
ReleaseModel::DigitsOf(const std::vector<ColumnBounds> &bounds, std::vector<std::size_t> &digits) const
{
	digits.assign(axes_.size(), 0);
	for (std::size_t a = 0; a < axes_.size(); a++) {
		if (bounds.at(a).is_null)
			throw Error(ErrorKind::Internal, "IS NULL projected onto one cover query");
		if (bounds[a].mentioned)
			digits[a] = axes_[a].Project(bounds[a].lower, bounds[a].upper);
		else if (Product())
			digits[a] = axes_[a].size();
		else
			throw Error(ErrorKind::Internal, "query without its column projected onto a one-column cover");
	}
}

std::size_t
ReleaseModel::Project(const ParsedQuery &q, const std::vector<LiteralValue> &values) const
{
	if (!ordered_)
		return cover().Project(q.raw, q.parsed ? &q.text : nullptr, values);
	const std::vector<ColumnBounds> bounds = OrderedBounds(q, values);
	RequireOneCoverQuery(layout_.spec, q.text, bounds);
	std::vector<std::size_t> digits;
	DigitsOf(bounds, digits);
	if (!Product())
		return digits[0];
	if (cover_size_ == kMaxCoverCount)
		return cover().Project(q.raw, q.parsed ? &q.text : nullptr, values);  // its LimitExceeded
	std::size_t index = 0;
	for (std::size_t a = 0; a < axes_.size(); a++)
		index = index * (axes_[a].size() + 1) + digits[a];
	return index;
}

namespace {

bool
HasInList(const ParsedQuery &q)
{
	return q.parsed && std::any_of(q.text.conditions.begin(), q.text.conditions.end(),
	                               [](const Condition &c) { return c.op == Comparison::In; });
}

bool
HasIsNull(const ParsedQuery &q)
{
	return q.parsed && std::any_of(q.text.conditions.begin(), q.text.conditions.end(),
	                               [](const Condition &c) { return c.op == Comparison::IsNull; });
}

// Expanding IN lists multiplies their lengths; each expanded query costs a projection (a binary search).
constexpr std::size_t kMaxInExpansion = std::size_t{1} << 20;

}  // namespace

double
ReleaseModel::AnswerInLists(const ParsedQuery &q, const std::vector<LiteralValue> &values, bool refine) const
{
	const ClassKind kind = layout_.spec.kind;
	if (kind != ClassKind::Marginals && kind != ClassKind::Stumps)
		return Answer(cover().Project(q.raw, &q.text, values));  // the cover refuses IN with its own message
	// Per condition, the choices of its literals: one block (all its literals) for a plain condition; one
	// literal per distinct category bin for an IN list (two values of one bin, such as two values never seen
	// publicly, would count that bin twice).
	struct Choices {
		std::vector<std::size_t> first;  // literal index of each choice
		std::size_t width;               // literals per choice
	};
	std::vector<Choices> choices;
	std::size_t next = 0;
	std::size_t combinations = 1;
	for (const Condition &c : q.text.conditions) {
		const std::size_t count = LiteralCount(c);
		Choices options{{}, c.op == Comparison::In ? std::size_t{1} : count};
		if (c.op != Comparison::In) {
			options.first.push_back(next);
		} else {
			const ReleaseAxis *axis = AxisOfColumn(c.column);
			std::unordered_set<std::int32_t> bins;  // a list may hold as many values as 1 MB of text
			for (std::size_t i = next; i < next + count; i++) {
				if (axis != nullptr && axis->kind == AxisKind::Categorical &&
				    !bins.insert(axis->CategoryBin(values.at(i).text)).second)
					continue;
				options.first.push_back(i);
			}
		}
		next += count;
		combinations *= options.first.size();
		if (combinations > kMaxInExpansion)
			throw Error(ErrorKind::LimitExceeded,
			            "query expands to more than " + std::to_string(kMaxInExpansion) + " conjunctions",
			            "A query with IN lists is answered as the sum of one conjunction per combination of their "
			            "values.",
			            "Split the query into several queries with shorter IN lists.");
		choices.push_back(std::move(options));
	}
	// Every combination, as a query of equalities: an odometer over the choices.
	ParsedQuery expanded;
	expanded.parsed = true;
	expanded.raw = q.raw;
	expanded.text = q.text;
	for (Condition &c : expanded.text.conditions)
		if (c.op == Comparison::In) {
			c.op = Comparison::Equal;
			c.list.clear();
		}
	std::vector<std::size_t> digit(choices.size(), 0);
	std::vector<LiteralValue> chosen;
	double sum = 0.0;
	std::uint64_t steps = 0;
	for (;;) {
		PollInterrupt(steps);
		chosen.clear();
		for (std::size_t c = 0; c < choices.size(); c++) {
			const std::size_t first = choices[c].first[digit[c]];
			chosen.insert(chosen.end(), values.begin() + std::ptrdiff_t(first),
			              values.begin() + std::ptrdiff_t(first + choices[c].width));
		}
		sum += AnswerCellQuery(expanded, chosen, refine);
		std::size_t c = 0;
		while (c < choices.size() && ++digit[c] == choices[c].first.size()) {
			digit[c] = 0;
			c++;
		}
		if (c == choices.size())
			return Clamp(sum);
	}
}

void
ReleaseModel::ProjectedBins(const std::vector<ColumnBounds> &bounds, std::vector<CellInterval> &bins) const
{
	std::vector<std::size_t> digits;
	DigitsOf(bounds, digits);
	const std::vector<std::int32_t> &radices = domain_.radices();
	bins.assign(axes_.size(), CellInterval{});
	bool any_empty = false;
	for (std::size_t a = 0; a < axes_.size(); a++) {
		const bool free_axis = Product() && digits[a] == axes_[a].size();
		bins[a] = free_axis ? CellInterval{0, radices[a] - 1} : axes_[a].Bins(digits[a]);
		any_empty = any_empty || bins[a].empty();
	}
	// A product with an empty factor is the empty query: it misses on every axis what the query keeps.
	if (any_empty)
		for (CellInterval &b : bins)
			b = CellInterval{0, -1};
}

double
ReleaseModel::AnswerQuery(const ParsedQuery &q, const std::vector<LiteralValue> &values, bool refine) const
{
	if (!ordered_ && HasInList(q))
		return AnswerInLists(q, values, refine);
	if (!ordered_)
		return AnswerCellQuery(q, values, refine);
	return AnswerOrderedBounds(OrderedBounds(q, values), refine);
}

double
ReleaseModel::AnswerCellQuery(const ParsedQuery &q, const std::vector<LiteralValue> &values, bool refine) const
{
	// Halfspaces and predicates, and every public-support domain, project. So does "col IS NULL" (whose projection
	// refuses it) unless the run measured every cell: only then does its noise part hold for the NULL bin's cells
	// as for any value's (docs/mechanisms.md §18).
	if (!AnswersOwnCells(q, refine))
		return Answer(Project(q, values));
	const std::vector<AxisConstraint> cells = cover().OwnCells(q.raw, &q.text, values);
	const double weight = ConstraintsSum(cells.data(), cells.data() + cells.size());
	// A value the public table never showed reads its axis's "other" bin, every unseen value together: the query's
	// share is anywhere from none of the cells' weight to all of it, and the middle is the answer whose largest
	// error over that range is least (docs/mechanisms.md §10, "The answer mode"). The bin may hold many values, and
	// one of them no more than its axis's cap (§10; §20, "Folded categories").
	return Clamp(ReadsOtherBin(cells) ? std::min(weight, OtherBinCapOf(cells)) / 2 : weight);
}

std::vector<AxisConstraint>
ReleaseModel::OwnCellsOf(const ParsedQuery &q, const std::vector<LiteralValue> &values) const
{
	return cover().OwnCells(q.raw, &q.text, values);
}

bool
ReleaseModel::HalvesOtherBin(const ParsedQuery &q, const std::vector<LiteralValue> &values, bool refine) const
{
	return AnswersOwnCells(q, refine) && ReadsOtherBin(OwnCellsOf(q, values));
}

bool
ReleaseModel::AnswersOwnCells(const ParsedQuery &q, bool refine) const
{
	const bool measured_every_cell = error_facts.known && error_facts.refine_mode;
	return !ordered_ && refine && cells_answerable_ && !(HasIsNull(q) && !measured_every_cell);
}

bool
ReleaseModel::ReadsOtherBin(const std::vector<AxisConstraint> &cells) const
{
	return std::any_of(cells.begin(), cells.end(), [&](const AxisConstraint &c) {
		const ReleaseAxis &axis = layout_.axes.at(c.axis);
		return axis.kind == AxisKind::Categorical && c.bins.lo == axis.OtherBin();
	});
}

double
ReleaseModel::WeightOfCellsWithoutPublicRows() const
{
	const std::size_t d = domain_.AxisCount();
	std::vector<bool> seen(synthetic_.size(), false);
	for (std::size_t p = 0; d > 0 && p * d < layout_.public_points.size(); p++)
		seen.at(domain_.CellOf(layout_.public_points.data() + p * d)) = true;
	double weight = 0.0;
	for (std::size_t c = 0; c < synthetic_.size(); c++)
		if (!seen[c])
			weight += synthetic_[c];
	return std::min(1.0, weight);
}

double
ReleaseModel::AnswerOrderedBounds(const std::vector<ColumnBounds> &bounds, bool refine) const
{
	if (std::none_of(bounds.begin(), bounds.end(), [](const ColumnBounds &b) { return b.is_null; }))
		return AnswerBounds(bounds, refine);
	double sum = 0.0;
	for (const NullTerm &term : NullTerms(bounds)) {
		PollInterruptNow();  // up to 1024 terms, each up to a pass over the cells
		sum += term.sign * (term.everything ? total_ : AnswerBounds(term.bounds, refine));
	}
	return Clamp(sum);
}

double
ReleaseModel::AnswerBounds(const std::vector<ColumnBounds> &bounds, bool refine) const
{
	std::vector<std::size_t> digits;
	DigitsOf(bounds, digits);
	if (!refine)
		return Clamp(DigitsSum(digits));
	const std::vector<std::int32_t> &radices = domain_.radices();
	std::vector<AxisTerms> terms(axes_.size());
	bool constrained = false;
	for (std::size_t a = 0; a < axes_.size(); a++) {
		if (!bounds[a].mentioned) {
			terms[a].push_back({{0, radices[a] - 1}, 1.0});
			continue;
		}
		constrained = true;
		terms[a] = RefinedTerms(a, bounds[a], digits[a]);
		if (terms[a].empty())
			return 0.0;
	}
	return Clamp(constrained ? TermsSum(terms) : total_);
}

namespace {

bool
IsSpace(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool
IsLower(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_';
}

bool
IsDigitChar(char c)
{
	return c >= '0' && c <= '9';
}

bool
IsWordChar(char c)
{
	return IsLower(c) || IsDigitChar(c) || (c >= 'A' && c <= 'Z') || c == '$';
}

}  // namespace

bool
ParseSimpleQueryText(std::string_view text, QueryText &out)
{
	out.conditions.clear();
	out.conditions.reserve(4);  // a query names a few columns: one allocation, no Condition moved as it grows
	if (text.size() > 4096)
		return false;  // long texts take the full parser, which enforces the length limit
	std::size_t i = 0;
	const std::size_t n = text.size();
	auto skip = [&]() {
		while (i < n && IsSpace(text[i]))
			i++;
	};
	for (;;) {
		skip();
		// a lower-case identifier that is no keyword
		const std::size_t column_begin = i;
		if (i >= n || !IsLower(text[i]))
			return false;
		while (i < n && (IsLower(text[i]) || IsDigitChar(text[i])))
			i++;
		if (i < n && IsWordChar(text[i]))
			return false;  // upper case or $: the lexer folds or keeps it
		const std::string_view column = text.substr(column_begin, i - column_begin);
		for (const char *keyword : {"and", "between", "true", "false", "not", "or", "null", "is", "in"})
			if (column == keyword)
				return false;
		skip();
		Comparison op;
		if (i < n && text[i] == '<') {
			op = i + 1 < n && text[i + 1] == '=' ? Comparison::LessEqual : Comparison::Less;
		} else if (i < n && text[i] == '>') {
			op = i + 1 < n && text[i + 1] == '=' ? Comparison::GreaterEqual : Comparison::Greater;
		} else if (i < n && text[i] == '=') {
			op = Comparison::Equal;
		} else {
			return false;
		}
		i += op == Comparison::LessEqual || op == Comparison::GreaterEqual ? 2 : 1;
		if (i < n && std::strchr("<>=!~+-*/%^&|#@`?", text[i]) != nullptr)
			return false;  // a longer operator, or a sign
		skip();
		// digits [. digits]
		const std::size_t number_begin = i;
		while (i < n && IsDigitChar(text[i]))
			i++;
		if (i == number_begin)
			return false;
		if (i < n && text[i] == '.') {
			i++;
			if (i == n || !IsDigitChar(text[i]))
				return false;
			while (i < n && IsDigitChar(text[i]))
				i++;
		}
		if (i < n && (IsWordChar(text[i]) || text[i] == '.'))
			return false;  // an exponent, or not a plain number
		Condition c;
		c.column = std::string(column);
		c.position = column_begin;
		c.op = op;
		c.value.text = std::string(text.substr(number_begin, i - number_begin));
		c.value.position = number_begin;
		out.conditions.push_back(std::move(c));
		const std::size_t before_space = i;
		skip();
		if (i == n)
			return true;
		if (i == before_space || i + 3 >= n || (text[i] | 0x20) != 'a' || (text[i + 1] | 0x20) != 'n' ||
		    (text[i + 2] | 0x20) != 'd' || !IsSpace(text[i + 3]))
			return false;
		i += 3;
	}
}

ReleaseModel *
LoadReleaseModel(const CatalogLayout &layout, const double *synthetic, std::size_t cell_count,
                 std::int64_t private_rows, InterruptCheck interrupted)
{
	const InterruptScope scope(interrupted != nullptr ? interrupted : CurrentInterruptCheck());
	return new ReleaseModel(LayoutFromCatalog(layout), std::vector<double>(synthetic, synthetic + cell_count),
	                        private_rows);
}

void
FreeReleaseModel(ReleaseModel *model) noexcept
{
	delete model;
}

std::size_t
ModelCoverSize(const ReleaseModel *m)
{
	return m->CoverSize();
}
std::size_t
ModelCellCount(const ReleaseModel *m)
{
	return m->domain().CellCount();
}
double
ModelAnswer(const ReleaseModel *m, std::size_t q)
{
	return m->Answer(q);
}
double
ModelCellWeight(const ReleaseModel *m, std::size_t cell)
{
	return m->Weight(cell);
}
std::int64_t
ModelPrivateRows(const ReleaseModel *m)
{
	return m->private_rows();
}
std::size_t
ModelMemoryBytes(const ReleaseModel *m)
{
	return m->MemoryBytes();
}
std::size_t
ModelDeferredBytes(const ReleaseModel *m)
{
	return m->DeferredBytes();
}

char *
ModelRenderQuery(const ReleaseModel *m, std::size_t q, Allocate allocate)
{
	return CopyString(allocate, m->cover().Render(q));
}

void
ModelDescribeCell(const ReleaseModel *m, std::size_t cell, char **bounds, char **json, Allocate allocate)
{
	std::string b, j;
	m->layout().DescribeCell(m->domain(), cell, b, j);
	*bounds = CopyString(allocate, b);
	*json = CopyString(allocate, j);
}

ParsedQuery *
ParseQueryForModel(const ReleaseModel *model, const char *query)
{
	auto parsed = std::make_unique<ParsedQuery>();
	parsed->raw = query;
	if (model->layout().spec.kind == ClassKind::Predicates)
		return parsed.release();
	parsed->parsed = true;
	// "TRUE", the query without conditions (pap.answers lists it for boxes and orthants), has no conditions.
	std::string_view trimmed(query);
	while (!trimmed.empty() && std::strchr(" \t\r\n", trimmed.front()) != nullptr)
		trimmed.remove_prefix(1);
	while (!trimmed.empty() && std::strchr(" \t\r\n", trimmed.back()) != nullptr)
		trimmed.remove_suffix(1);
	if (trimmed.size() == 4 && (trimmed[0] | 0x20) == 't' && (trimmed[1] | 0x20) == 'r' && (trimmed[2] | 0x20) == 'u' &&
	    (trimmed[3] | 0x20) == 'e')
		return parsed.release();
	if (!ParseSimpleQueryText(query, parsed->text))
		parsed->text = ParseQueryText(query);
	for (const Condition &c : parsed->text.conditions) {
		if (c.op == Comparison::In) {
			for (const Literal &value : c.list)
				parsed->literals.push_back({&value, &c});
			continue;
		}
		if (c.op == Comparison::IsNull || c.op == Comparison::IsNotNull)
			continue;
		parsed->literals.push_back({&c.value, &c});
		if (c.op == Comparison::Between)
			parsed->literals.push_back({&c.upper, &c});
	}
	return parsed.release();
}

void
FreeParsedQuery(ParsedQuery *query) noexcept
{
	delete query;
}

std::size_t
ParsedQueryLiteralCount(const ParsedQuery *q)
{
	return q->literals.size();
}

LiteralTarget
ParsedQueryLiteral(const ReleaseModel *model, const ParsedQuery *q, std::size_t i)
{
	const ParsedQuery::Entry &e = q->literals.at(i);
	LiteralTarget t{e.literal->text.c_str(), AxisKind::Numeric,  ValueType::Number, "", e.literal->quoted, true,
	                e.literal->casts.size(), e.literal->position};
	// A linear condition's bound is a number; so is a plain bound on a column of halfspaces (direction (1, 0)).
	if (!e.condition->terms.empty() || model->layout().spec.kind == ClassKind::Halfspaces)
		return t;
	const ReleaseAxis *axis = model->AxisOfColumn(e.condition->column);
	if (axis == nullptr) {
		t.known = false;  // the cover reports the unknown column when it projects
		return t;
	}
	t.kind = axis->kind;
	t.type = axis->value_type;
	t.column = axis->label.c_str();
	return t;
}

double
ReadNumberLiteral(const ParsedQuery *q, std::size_t i)
{
	if (!q->literals.at(i).literal->casts.empty())
		throw Error(ErrorKind::Internal, "a literal with a cast is read by the glue");
	return NumericLiteralValue(*q->literals.at(i).literal);
}

const char *
ParsedQueryLiteralCast(const ParsedQuery *q, std::size_t i, std::size_t k, std::size_t *position)
{
	const LiteralCast &cast = q->literals.at(i).literal->casts.at(k);
	*position = cast.position;
	return cast.type.c_str();
}

ParsedQuery *
ParseIntervalQueryForModel(const ReleaseModel *model, bool has_lower, bool has_upper)
{
	const ClassSpec &spec = model->layout().spec;
	if (spec.columns.size() != 1 || (spec.kind != ClassKind::Thresholds && spec.kind != ClassKind::Ranges))
		throw Error(ErrorKind::InvalidParameter, "answers by bounds need a release of class thresholds or ranges",
		            "The release's class is " + spec.CanonicalText() + ".",
		            "Answer queries of other classes with pap.answer.");
	const std::string column = QuoteIdentifier(spec.columns[0]);
	std::string text;
	if (has_lower)
		text = column + " >= 0";
	if (has_upper)
		text += (text.empty() ? "" : " AND ") + column + " <= 0";
	return ParseQueryForModel(model, text.empty() ? "TRUE" : text.c_str());
}

static std::vector<LiteralValue>
LiteralValues(const ParsedQuery *q, const double *numbers, const char *const *texts)
{
	std::vector<LiteralValue> values(q->literals.size());
	for (std::size_t i = 0; i < values.size(); i++) {
		values[i].number = numbers[i];
		if (texts[i] != nullptr)
			values[i].text = texts[i];
	}
	return values;
}

std::size_t
ModelProject(const ReleaseModel *model, const ParsedQuery *q, const double *numbers, const char *const *texts)
{
	return model->Project(*q, LiteralValues(q, numbers, texts));
}

double
ModelAnswerQuery(const ReleaseModel *model, const ParsedQuery *q, const double *numbers, const char *const *texts,
                 bool refine, InterruptCheck interrupted)
{
	const InterruptScope scope(interrupted != nullptr ? interrupted : CurrentInterruptCheck());
	return model->AnswerQuery(*q, LiteralValues(q, numbers, texts), refine);
}

double
ModelQuantile(const ReleaseModel *model, double q, bool refine, bool *has_value, InterruptCheck interrupted)
{
	const InterruptScope scope(interrupted != nullptr ? interrupted : CurrentInterruptCheck());
	const ClassKind kind = model->layout().spec.kind;
	if (kind != ClassKind::Thresholds && kind != ClassKind::Ranges)
		throw Error(ErrorKind::InvalidParameter, "quantiles need a release of class thresholds or ranges",
		            "The release's class is " + model->layout().spec.CanonicalText() + ".",
		            "Define a thresholds(column) or ranges(column) release of the column.");
	if (!(q >= 0.0 && q <= 1.0))
		throw Error(ErrorKind::InvalidParameter, "quantile must be between 0 and 1, got " + FormatFloat8(q));
	const ReleaseAxis &axis = model->layout().axes.at(0);
	const std::vector<double> &candidates = refine ? axis.public_values : axis.cuts;
	// One parsed query "column <= v", answered for every v tried: pap.answer's own path.
	const std::unique_ptr<ParsedQuery> query(
	    ParseQueryForModel(model, (QuoteIdentifier(axis.label) + " <= 0").c_str()));
	const auto mass_at_or_below = [&](double v) { return model->AnswerQuery(*query, {LiteralValue{v, {}}}, refine); };
	const double non_null = model->NonNullMassOfFirstAxis();
	*has_value = non_null > 0.0;
	if (!*has_value)
		return 0.0;
	// The answers are sums of doubles computed along different paths: a relative 1e-9 keeps q = 1 at the
	// highest candidate when no mass lies above it.
	const double target = q * non_null - 1e-9 * non_null;
	// The answers grow with v (weights are non-negative): the first candidate that reaches the target. Mass above
	// the highest candidate is in no answer of a candidate: a quantile there is +Infinity.
	std::size_t lo = 0, hi = candidates.size();
	while (lo < hi) {
		const std::size_t mid = lo + (hi - lo) / 2;
		if (mass_at_or_below(candidates[mid]) >= target)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo < candidates.size() ? candidates[lo] : std::numeric_limits<double>::infinity();
}

void
ModelRequireBox(const ReleaseModel *model, std::size_t columns)
{
	const ClassSpec &spec = model->layout().spec;
	if (!model->IsProduct())
		throw Error(ErrorKind::InvalidParameter, "answers by box need a release of class boxes or orthants",
		            "The release's class is " + spec.CanonicalText() + ".",
		            spec.kind == ClassKind::Thresholds || spec.kind == ClassKind::Ranges
		                ? "Answer intervals of one column with pap.answer_between or pap.answers_at."
		                : "Answer queries of other classes with pap.answer.");
	if (columns != spec.columns.size())
		throw Error(ErrorKind::InvalidParameter,
		            "bounds have " + std::to_string(columns) + (columns == 1 ? " element" : " elements") +
		                " but the class " + spec.CanonicalText() + " has " + std::to_string(spec.columns.size()) +
		                (spec.columns.size() == 1 ? " column" : " columns"),
		            "The bounds give one element per column of the class, in the class's order.",
		            "Pass NULL for a side left open.");
}

double
ModelAnswerBox(const ReleaseModel *model, const double *lower, const bool *has_lower, const double *upper,
               const bool *has_upper, std::size_t columns, bool refine, InterruptCheck interrupted)
{
	const InterruptScope scope(interrupted != nullptr ? interrupted : CurrentInterruptCheck());
	ModelRequireBox(model, columns);
	const ClassSpec &spec = model->layout().spec;
	std::vector<ColumnBounds> bounds(columns);
	for (std::size_t a = 0; a < columns; a++) {
		if (has_lower[a] && spec.kind == ClassKind::Orthants)
			throw Error(ErrorKind::QueryOutsideClass,
			            "query is outside the release's query class " + spec.CanonicalText(),
			            "The class " + spec.CanonicalText() +
			                " contains only conjunctions of conditions col <= c and col < c on its columns.",
			            "Pass NULL lower bounds to an orthants release.");
		bounds[a].mentioned = has_lower[a] || has_upper[a];
		bounds[a].lower = ValueBound{has_lower[a], has_lower[a] ? lower[a] : 0.0, true};
		bounds[a].upper = ValueBound{has_upper[a], has_upper[a] ? upper[a] : 0.0, true};
	}
	return model->AnswerOrderedBounds(bounds, refine);
}

std::size_t
ModelColumnCount(const ReleaseModel *model)
{
	return model->layout().spec.columns.size();
}

const char *
ModelColumnName(const ReleaseModel *model, std::size_t axis)
{
	if (axis >= model->layout().spec.columns.size())
		throw Error(ErrorKind::Internal, "column index out of range");
	return model->layout().spec.columns[axis].c_str();
}

ValueType
ModelAxisValueType(const ReleaseModel *model, std::size_t axis)
{
	if (axis >= model->layout().axes.size())
		throw Error(ErrorKind::Internal, "axis index out of range");
	return model->layout().axes[axis].value_type;
}

// --- error bounds of answers (docs/mechanisms.md §18) ---------------------------------------------------------

namespace {

// The answer facts of a layout (LoadedAnswerFactsOf); without public or private rows, those of a model that has
// none (no bound below 1, no cap, no spread).
LoadedAnswerFacts
AnswerFactsOfLayout(const ReleaseLayout &layout, std::int64_t public_rows, std::int64_t private_rows, double beta)
{
	if (public_rows <= 0 || private_rows <= 0) {
		LoadedAnswerFacts none;
		none.projection = 1.0;
		return none;
	}
	return LoadedAnswerFactsOf(layout, public_rows, private_rows, beta);
}

// The stored facts, checked against the layout (ModelSetErrorFacts's refusal). An axis whose spreads are all 0
// spreads nothing, as the computed facts' empty vector for an axis no edge moves.
LoadedAnswerFacts
StoredFactsOf(const ReleaseLayout &layout, const StoredAnswerFacts &stored)
{
	const auto refuse = [](const char *what) {
		return Error(ErrorKind::Internal, std::string("the release's stored answer facts do not fit it: ") + what);
	};
	const auto share = [](double x) { return std::isfinite(x) && x >= 0.0 && x <= 1.0; };
	if (!std::isfinite(stored.event_projection) || stored.event_projection < 0.0 ||
	    !std::isfinite(stored.unseen_points_mass) || stored.unseen_points_mass < 0.0)
		throw refuse("a bound that is not a finite non-negative number");
	if (stored.other_bin_cap_count != 0 && stored.other_bin_cap_count != layout.axes.size())
		throw refuse("caps for another number of axes");
	std::size_t values = 0;
	for (const ReleaseAxis &axis : layout.axes)
		values += axis.public_values.size();
	if (stored.gap_spread_count != 0 && stored.gap_spread_count != values)
		throw refuse("spreads for another number of public values");
	LoadedAnswerFacts out;
	out.projection = stored.event_projection;
	out.unseen_points_mass = stored.unseen_points_mass;
	out.other_bin_caps.assign(stored.other_bin_caps, stored.other_bin_caps + stored.other_bin_cap_count);
	if (!std::all_of(out.other_bin_caps.begin(), out.other_bin_caps.end(), share))
		throw refuse("a cap outside [0, 1]");
	const double *spreads = stored.gap_spreads, *end = stored.gap_spreads + stored.gap_spread_count;
	if (!std::all_of(spreads, end, share))
		throw refuse("a spread outside [0, 1]");
	out.gap_spread.resize(layout.axes.size());
	for (std::size_t a = 0; a < layout.axes.size() && spreads != end; a++) {
		const std::size_t count = layout.axes[a].public_values.size();
		if (std::any_of(spreads, spreads + count, [](double x) { return x != 0.0; }))
			out.gap_spread[a].assign(spreads, spreads + count);
		spreads += count;
	}
	return out;
}

}  // namespace

RunAnswerFacts
ComputeAnswerFacts(const CatalogLayout &layout, std::int64_t public_rows, std::int64_t private_rows, double beta,
                   Allocate allocate)
{
	const ReleaseLayout release = LayoutFromCatalog(layout);
	const LoadedAnswerFacts facts = AnswerFactsOfLayout(release, public_rows, private_rows, beta);
	const auto number = [](double x) {
		if (!std::isfinite(x))
			throw Error(ErrorKind::Internal, "an answer fact is not finite");
		return FormatFloat8(x);
	};
	std::string json = "{\"event_projection\": " + number(facts.projection);
	json += ", \"unseen_points_mass\": " + number(facts.unseen_points_mass);
	json += ", \"other_bin_caps\": [";
	for (std::size_t a = 0; a < facts.other_bin_caps.size(); a++)
		json += (a == 0 ? "" : ", ") + number(facts.other_bin_caps[a]);
	json += "]}";
	// One spread per public value (0 on an axis without spreads), or none where no axis spreads.
	std::vector<double> spreads;
	if (std::any_of(facts.gap_spread.begin(), facts.gap_spread.end(),
	                [](const std::vector<double> &axis) { return !axis.empty(); }))
		for (std::size_t a = 0; a < release.axes.size(); a++) {
			const std::size_t count = release.axes[a].public_values.size();
			const std::vector<double> &axis = a < facts.gap_spread.size() ? facts.gap_spread[a] : std::vector<double>{};
			if (!axis.empty() && axis.size() != count)
				throw Error(ErrorKind::Internal, "the gap spreads are not one per public value");
			spreads.insert(spreads.end(), axis.begin(), axis.end());
			spreads.resize(spreads.size() + (count - axis.size()), 0.0);
		}
	RunAnswerFacts out{CopyString(allocate, json), spreads.size(), AllocateArray<double>(allocate, spreads.size())};
	std::copy(spreads.begin(), spreads.end(), out.gap_spreads);
	return out;
}

void
ModelSetErrorFacts(ReleaseModel *model, const ReleaseErrorFacts &facts, InterruptCheck interrupted)
{
	const InterruptScope scope(interrupted != nullptr ? interrupted : CurrentInterruptCheck());
	// The facts are checked before any member changes: a refused set leaves the model as it was.
	if (facts.known) {
		LoadedAnswerFacts loaded = facts.answers_stored ? StoredFactsOf(model->layout(), facts.answers)
		                                                : AnswerFactsOfLayout(model->layout(), facts.public_rows,
		                                                                      model->private_rows(), facts.beta);
		model->unseen_points_mass = loaded.unseen_points_mass;
		model->event_projection = loaded.projection;
		model->gap_spread = std::move(loaded.gap_spread);
		model->other_bin_caps = std::move(loaded.other_bin_caps);
	}
	model->error_facts = facts;
	model->error_facts.answers = StoredAnswerFacts{};  // the caller's arrays, copied above
}

bool
ModelUnseenCategory(const ReleaseModel *model, const ParsedQuery *q, const char *const *texts, std::size_t *literal)
{
	for (std::size_t i = 0; i < q->literals.size(); i++) {
		if (texts[i] == nullptr || !q->literals[i].condition->terms.empty())
			continue;
		const ReleaseAxis *axis = model->AxisOfColumn(q->literals[i].condition->column);
		if (axis != nullptr && axis->kind == AxisKind::Categorical && axis->CategoryBin(texts[i]) == axis->OtherBin()) {
			*literal = i;
			return true;
		}
	}
	return false;
}

bool
ModelFoldedCategory(const ReleaseModel *model, const ParsedQuery *q, std::size_t literal)
{
	if (literal >= q->literals.size())
		throw Error(ErrorKind::Internal, "literal index out of range");
	const ReleaseAxis *axis = model->AxisOfColumn(q->literals[literal].condition->column);
	return axis != nullptr && model->OtherBinFolded(*axis);
}

AnswerBound
ModelAnswerBound(const ReleaseModel *model, const ParsedQuery *q, const double *numbers, const char *const *texts,
                 bool refine, InterruptCheck interrupted)
{
	const InterruptScope scope(interrupted != nullptr ? interrupted : CurrentInterruptCheck());
	const ReleaseErrorFacts &facts = model->error_facts;
	if (!facts.known)
		throw Error(ErrorKind::InvalidParameter, "release has no stored error model",
		            "Its run stored no predicted error parts: it was made by an older version of pap_release.",
		            "Answer it without a bound, or define and run a new release.");
	if (HasInList(*q))
		throw Error(ErrorKind::InvalidParameter, "a query with IN lists has no error bound",
		            "It is answered as the sum of one query per combination of its values; the bound of each holds for "
		            "every query at once, so the sum's error is at most the sum of their bounds.",
		            "Ask for the bound of each value's query, for example with pap.answers_bounded.");
	const std::vector<LiteralValue> values = LiteralValues(q, numbers, texts);
	AnswerBound out{};
	out.estimate = model->AnswerQuery(*q, values, refine);
	out.outside_mass = facts.outside_mass;
	out.noise = facts.noise;
	const ReleaseLayout &layout = model->layout();
	if (model->private_rows() <= 0 || facts.public_rows <= 0) {
		out.projection = 1.0;  // no private row (a run after every row was deleted): no share to bound
	} else if (model->IsOrdered()) {
		// A query with IS NULL is a signed sum of queries of the class (NullTerms), each within its own bound on the
		// same event: the sum's error is at most the sum of the bounds of its terms. TRUE is exact (the weights sum
		// to one) and an empty query (IS NULL and a bound on one column) is exactly 0. Without IS NULL, one term.
		double projection = 0.0;
		double measured = 0.0;  // the terms with an error
		for (const NullTerm &term : NullTerms(model->OrderedBounds(*q, values))) {
			if (term.everything)
				continue;
			// The query's own edges (refined or not: a refined answer lies between the answers of the cover
			// queries that move every edge inward and outward, each within a side of the edge's bin).
			std::vector<CellInterval> bins;
			model->ProjectedBins(term.bounds, bins);
			double part = QueryProjectionBound(layout.axes, model->gap_spread, term.bounds,
			                                   refine ? nullptr : bins.data(), facts.public_rows, model->private_rows(),
			                                   ProjectionEventBetaOf(layout, facts.beta));
			// The plan's part holds for every unrefined query of the class on the same event (docs/mechanisms.md
			// §18): a query's own bound is never looser than it.
			if (!refine)
				part = std::min(part, model->event_projection);
			projection += part;
			measured += 1.0;
		}
		out.projection = std::min(1.0, projection);
		out.outside_mass = measured * facts.outside_mass;
		out.noise = measured * facts.noise;
	} else {
		// The plan's part, plus the rows of the grid points no public row has: the cover of these classes holds one
		// query per public labeling, so a query and its cover query agree on every point the public table shows
		// and may disagree on the others (docs/mechanisms.md §18), whose private share part (b)'s bound bounds.
		// Predicates need no such term: a listed predicate is its own cover query, or its part prices the rows on
		// which it and its axis's cover query disagree (MergedPredicatesError).
		const bool own_or_priced = layout.spec.kind == ClassKind::Predicates;
		out.projection = std::min(1.0, model->event_projection + (own_or_priced ? 0.0 : model->unseen_points_mass));
		if (refine && model->CellsAnswerable()) {
			// The query's own cells (docs/mechanisms.md §18): a mechanism that measured every cell answers them
			// within its noise part alone; any other (the MW mechanisms correct the cover queries only) is
			// within the projection's bound of the cover query's answer, whose own cells differ from the
			// query's only in cells no public row has: their released weight more.
			out.projection = facts.refine_mode ? 0.0 : std::min(1.0, out.projection + model->UnseenCellsWeight());
		}
	}
	const double half = out.projection + out.outside_mass + out.noise;
	out.lower = std::max(0.0, out.estimate - half);
	out.upper = std::min(1.0, out.estimate + half);
	out.unseen_category = ModelUnseenCategory(model, q, texts, &out.unseen_literal);
	// The query asks for part of the "other" bin: anything from none of it to all of it. Read from its own cells,
	// the estimate is half the bin's cells' weight (AnswerCellQuery): all of it, within the same half-width, is the
	// upper end.
	const bool halved = model->HalvesOtherBin(*q, values, refine);
	if (out.unseen_category || halved)
		out.lower = 0.0;
	if (halved) {
		const std::vector<AxisConstraint> cells = model->OwnCellsOf(*q, values);
		if (facts.refine_mode) {
			// One value of an "other" bin holds no more than its cap, on the own-cells part's event (§10, §20).
			out.upper = std::min({1.0, 2.0 * out.estimate + half, model->OtherBinCapOf(cells)});
		} else {
			// A release answered by projection spends part (a)'s whole share on its projection part: the cap's
			// event is not among those the bound counts, so the upper end is the bin's whole weight plus the
			// half-width (the estimate, half the capped weight, lies below it).
			out.upper = std::min(1.0, model->OwnCellsWeight(cells) + half);
		}
	}
	out.error_bound = std::max(out.estimate - out.lower, out.upper - out.estimate);
	return out;
}

std::size_t
ModelColumnCategoryCount(const ReleaseModel *model, const char *column)
{
	const ReleaseAxis *axis = model->AxisOfColumn(column);
	return axis != nullptr && axis->kind == AxisKind::Categorical ? axis->categories.size() : 0;
}

const char *
ModelColumnCategory(const ReleaseModel *model, const char *column, std::size_t k)
{
	if (k >= ModelColumnCategoryCount(model, column))
		throw Error(ErrorKind::Internal, "category index out of range");
	return model->AxisOfColumn(column)->categories[k].c_str();
}

bool
ModelAnswersFromOwnCells(const ReleaseModel *model, const ParsedQuery *q, bool refine)
{
	return model->AnswersOwnCells(*q, refine);
}

bool
ModelMarginalWithoutPublicRow(const ReleaseModel *model, const ParsedQuery *q, const double *numbers,
                              const char *const *texts)
{
	const ReleaseLayout &layout = model->layout();
	if (layout.spec.kind != ClassKind::Marginals || HasInList(*q))  // an IN list: no single cover query to check
		return false;
	const std::size_t k = model->Project(*q, LiteralValues(q, numbers, texts));
	const ProductQueryList &queries = model->cover().Queries();
	const std::size_t d = layout.axes.size();
	for (std::size_t i = 0; i < layout.public_point_counts.size(); i++) {
		bool inside = true;
		for (const AxisConstraint *c = queries.begin(k); c != queries.end(k) && inside; ++c) {
			const std::int32_t bin = layout.public_points[i * d + c->axis];
			inside = bin >= c->bins.lo && bin <= c->bins.hi;
		}
		if (inside)
			return false;
	}
	return true;
}

}  // namespace pap::core
