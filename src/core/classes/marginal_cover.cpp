#include "core/classes/marginal_cover.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/language/value_format.hpp"

namespace pap::core {

namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
constexpr std::uint32_t kFreeSlot = std::numeric_limits<std::uint32_t>::max();

// C(d, k) as a double (exact up to 2^53; only compared with a limit).
double
Binomial(std::size_t d, std::size_t k)
{
	double c = 1.0;
	for (std::size_t i = 0; i < k; i++)
		c = c * double(d - i) / double(i + 1);
	return std::round(c);
}

// Distinct labelings (sets of public points, ascending indices) -> their cover query. Open addressing on a 64-bit
// hash of the labeling; the stored labelings sit in one pool and are compared on a hash match.
class LabelingIndex {
public:
	// The query of labeling, or kNone.
	std::size_t
	Find(const std::uint32_t *labeling, std::size_t size) const
	{
		if (slots_.empty())
			return kNone;
		const std::size_t entry = slots_[SlotOf(Hash(labeling, size), labeling, size)];
		return entry == 0 ? kNone : entries_[entry - 1].query;
	}
	// labeling must not be present.
	void
	Add(const std::uint32_t *labeling, std::size_t size, std::size_t query)
	{
		if (2 * (entries_.size() + 1) > slots_.size()) {
			slots_.assign(std::max<std::size_t>(64, 2 * slots_.size()), 0);
			for (std::size_t e = 0; e < entries_.size(); e++)
				slots_[SlotOf(entries_[e].hash, pool_.data() + entries_[e].start, entries_[e].size)] = e + 1;
		}
		const std::uint64_t hash = Hash(labeling, size);
		slots_[SlotOf(hash, labeling, size)] = entries_.size() + 1;
		entries_.push_back({hash, pool_.size(), size, query});
		pool_.insert(pool_.end(), labeling, labeling + size);
	}

private:
	struct Entry {
		std::uint64_t hash;
		std::size_t start, size, query;
	};
	static std::uint64_t
	Hash(const std::uint32_t *labeling, std::size_t size)
	{
		std::uint64_t h = 0xcbf29ce484222325ull ^ size;
		for (std::size_t i = 0; i < size; i++)
			h = (h ^ labeling[i]) * 0x100000001b3ull + (h >> 29);
		return h ^ (h >> 31);
	}
	// The slot holding labeling, or the free slot where it would go.
	std::size_t
	SlotOf(std::uint64_t hash, const std::uint32_t *labeling, std::size_t size) const
	{
		const std::size_t mask = slots_.size() - 1;
		for (std::size_t s = std::size_t(hash) & mask;; s = (s + 1) & mask) {
			const std::size_t entry = slots_[s];
			if (entry == 0)
				return s;
			const Entry &e = entries_[entry - 1];
			if (e.hash == hash && e.size == size && std::equal(labeling, labeling + size, pool_.data() + e.start))
				return s;
		}
	}
	std::vector<Entry> entries_;
	std::vector<std::uint32_t> pool_;
	std::vector<std::size_t> slots_;  // entry + 1, 0 = free; a power of two, at most half full
};

class MarginalCover final : public Cover {
public:
	explicit MarginalCover(const CoverInput &input);

	const ProductQueryList &
	Queries() const override
	{
		return queries_;
	}
	std::size_t Project(std::string_view text, const QueryText *parsed,
	                    const std::vector<LiteralValue> &literals) const override;
	std::vector<AxisConstraint> OwnCells(std::string_view text, const QueryText *parsed,
	                                     const std::vector<LiteralValue> &literals) const override;
	std::string Render(std::size_t q) const override;
	int
	VcDimension() const override
	{
		return vc_dimension_;
	}

private:
	void Build(const std::vector<std::int32_t> &points, std::size_t max_queries);
	// The query's conditions as (axis, bin), sorted by axis: exactly k equalities on distinct class columns (the
	// errors of Project).
	// null_bins: "column IS NULL" names the column's NULL bin (a query read from its own cells); otherwise it is
	// refused, since no cover query holds the NULL bin.
	std::vector<std::pair<std::int32_t, std::int32_t>>
	Equalities(const QueryText *parsed, const std::vector<LiteralValue> &literals, bool null_bins) const;
	[[noreturn]] void OutsideClass(const std::string &why) const;

	bool stumps_ = false;
	std::size_t k_ = 1;
	std::string class_text_;
	std::vector<std::string> columns_;
	std::vector<ReleaseAxis> axes_;
	// Class values of each axis: bins 0..values_[a]-1 (categories, then "other" except on a closed axis: boolean,
	// enum).
	std::vector<std::int32_t> values_;
	int vc_dimension_ = 1;
	ProductQueryList queries_;
	std::size_t empty_query_ = kNone;
	// Every publicly realised (axes, values) of the class -> its cover query; anything else is the empty pattern.
	// Record r is realised_keys_[2k r .. 2k (r + 1)) (its axes, then its values), sorted; its query
	// realised_queries_[r].
	std::vector<std::int32_t> realised_keys_;
	std::vector<std::size_t> realised_queries_;
};

MarginalCover::MarginalCover(const CoverInput &input)
{
	const ClassSpec &spec = *input.spec;
	if (spec.kind != ClassKind::Marginals && spec.kind != ClassKind::Stumps)
		throw Error(ErrorKind::Internal, "marginal cover built for another class");
	stumps_ = spec.kind == ClassKind::Stumps;
	k_ = stumps_ ? 1 : std::size_t(spec.k);
	class_text_ = spec.CanonicalText();
	columns_ = spec.columns;
	axes_ = *input.axes;
	const std::size_t d = columns_.size();
	if (d == 0 || axes_.size() != d || k_ < 1 || k_ > d)
		throw Error(ErrorKind::Internal, "marginal cover needs one axis per column and 1 <= k <= columns");
	values_.resize(d);
	for (std::size_t a = 0; a < d; a++) {
		const ReleaseAxis &axis = axes_[a];
		if (axis.kind != AxisKind::Categorical)
			throw Error(ErrorKind::Internal, "marginal cover axis is not categorical");
		const bool boolean = axis.value_type == ValueType::Boolean;
		if (boolean && axis.categories != std::vector<std::string>{"false", "true"})
			throw Error(ErrorKind::Internal, "boolean axis without exactly the categories false and true");
		if (stumps_ && !boolean)
			throw Error(ErrorKind::InvalidParameter,
			            "column " + QuoteIdentifier(columns_[a]) + " of " + class_text_ + " is not boolean",
			            "stumps(b1, ..., bD) takes boolean columns only.",
			            "Use marginals(1; ...) for columns of other types.");
		if ((axis.value_type == ValueType::Enum || axis.check_list) && axis.categories.empty())
			throw Error(ErrorKind::Internal, "enum or CHECK-listed axis without categories");
		// A closed axis (boolean, enum, CHECK list) has no "other" value for a query to name.
		values_[a] = std::int32_t(axis.categories.size()) + (axis.ClosedCategories() ? 0 : 1);
	}
	vc_dimension_ = VcDimensionOfUnion(Binomial(d, k_));
	Build(*input.public_points, input.max_queries);
}

void
MarginalCover::Build(const std::vector<std::int32_t> &points, std::size_t max_queries)
{
	const std::size_t d = axes_.size(), kk = k_;
	const double set_count = Binomial(d, kk);
	if (set_count > double(max_queries))
		throw Error(ErrorKind::LimitExceeded, "marginal cover exceeds " + std::to_string(max_queries) + " queries",
		            "The class " + class_text_ + " has " + FormatAxisLiteral(set_count, ValueType::Number) +
		                " sets of " + std::to_string(kk) + " columns, each giving at least one cover query.",
		            "Use a smaller k or fewer columns, or have a superuser raise pap_release.max_cover_queries.");
	if (points.size() % d != 0)
		throw Error(ErrorKind::Internal, "public points do not match the cover's axes");
	const std::size_t m = points.size() / d;
	for (std::size_t i = 0; i < points.size(); i++)
		if (points[i] < 0 || points[i] >= axes_[i % d].Radix())
			throw Error(ErrorKind::Internal, "public point coordinate outside its axis");

	if (m > std::numeric_limits<std::uint32_t>::max())
		throw Error(ErrorKind::LimitExceeded, "too many public points for a marginal cover");
	LabelingIndex by_labeling;
	std::vector<std::int32_t> axes(kk), gap(kk);
	for (std::size_t j = 0; j < kk; j++)
		axes[j] = std::int32_t(j);
	std::vector<std::uint32_t> order;  // the set's in-class public points, by tuple, then by index
	// Scratch of the grouping by key, reused across sets.
	std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;
	std::vector<std::uint32_t> slots, group_of, ranked, sorted;
	order.reserve(m);
	std::uint64_t steps = 0;
	for (;;) {
		PollInterrupt(steps, m + 1);  // each set passes over the public points
		// Realised value tuples of this attribute set (a NULL, or a bin outside the class, is no query) in
		// mixed-radix order: runs of order with equal tuples, each run's points (ascending) its labeling.
		auto at = [&](std::uint32_t p, std::size_t j) { return points[std::size_t(p) * d + std::size_t(axes[j])]; };
		order.clear();
		for (std::size_t p = 0; p < m; p++) {
			bool in_class = true;
			for (std::size_t j = 0; j < kk && in_class; j++)
				in_class = at(std::uint32_t(p), j) < values_[std::size_t(axes[j])];
			if (in_class)
				order.push_back(std::uint32_t(p));
		}
		// Sorted by the tuple as one mixed-radix number when the set's tuples fit 64 bits, else tuple by tuple.
		double tuples = 1.0;
		for (std::size_t j = 0; j < kk; j++)
			tuples *= double(values_[std::size_t(axes[j])]);
		if (tuples < 0x1p63) {
			// Group by key (points stay ascending within a group), then order the distinct keys: O(m) plus a sort
			// of the realised tuples only.
			std::size_t capacity = 16;  // a power of two, at most half full
			while (capacity < 2 * order.size())
				capacity *= 2;
			if (slots.size() < capacity)
				slots.resize(capacity);
			std::fill(slots.begin(), slots.begin() + std::ptrdiff_t(capacity), kFreeSlot);
			keyed.clear();  // (key, rows) per distinct tuple, in order of first appearance
			group_of.resize(order.size());
			for (std::size_t i = 0; i < order.size(); i++) {
				std::uint64_t key = 0;
				for (std::size_t j = 0; j < kk; j++)
					key = key * std::uint64_t(values_[std::size_t(axes[j])]) + std::uint64_t(at(order[i], j));
				std::size_t s = std::size_t((key * 0x9E3779B97F4A7C15ull) >> 16) & (capacity - 1);
				while (slots[s] != kFreeSlot && keyed[slots[s]].first != key)
					s = (s + 1) & (capacity - 1);
				if (slots[s] == kFreeSlot) {
					slots[s] = std::uint32_t(keyed.size());
					keyed.emplace_back(key, 0);
				}
				group_of[i] = slots[s];
				keyed[slots[s]].second++;
			}
			ranked.resize(keyed.size());
			for (std::uint32_t g = 0; g < ranked.size(); g++)
				ranked[g] = g;
			std::sort(ranked.begin(), ranked.end(),
			          [&](std::uint32_t x, std::uint32_t y) { return keyed[x].first < keyed[y].first; });
			// keyed[g].second becomes group g's next position in the sorted order.
			std::uint32_t position = 0;
			for (std::uint32_t g : ranked) {
				const std::uint32_t rows = keyed[g].second;
				keyed[g].second = position;
				position += rows;
			}
			sorted.resize(order.size());
			for (std::size_t i = 0; i < order.size(); i++)
				sorted[keyed[group_of[i]].second++] = order[i];
			order.swap(sorted);
		} else {
			std::sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
				for (std::size_t j = 0; j < kk; j++)
					if (at(x, j) != at(y, j))
						return at(x, j) < at(y, j);
				return x < y;
			});
		}
		auto same_tuple = [&](std::uint32_t x, std::uint32_t y) {
			for (std::size_t j = 0; j < kk; j++)
				if (at(x, j) != at(y, j))
					return false;
			return true;
		};
		auto run_end = [&](std::size_t first) {
			std::size_t last = first + 1;
			while (last < order.size() && same_tuple(order[last], order[first]))
				last++;
			return last;
		};
		auto tuple_of = [&](std::size_t first) {
			std::vector<std::int32_t> t(kk);
			for (std::size_t j = 0; j < kk; j++)
				t[j] = at(order[first], j);
			return t;
		};
		// The first unrealised tuple of this set, while the empty pattern has no query yet: at most |realised| + 1
		// steps of the odometer.
		bool have_gap = false;
		std::fill(gap.begin(), gap.end(), 0);
		bool any_value = true;
		for (std::size_t j = 0; j < kk; j++)
			any_value = any_value && values_[std::size_t(axes[j])] > 0;
		if (empty_query_ == kNone && any_value) {
			std::size_t first = 0;
			for (;;) {
				if (first == order.size() || tuple_of(first) != gap) {
					have_gap = true;
					break;
				}
				first = run_end(first);
				std::size_t j = kk;
				while (j-- > 0) {
					if (++gap[j] < values_[std::size_t(axes[j])])
						break;
					gap[j] = 0;
				}
				if (j == kNone)
					break;  // every tuple realised
			}
		}
		auto emit = [&](const std::vector<std::int32_t> &vals, const std::uint32_t *labeling, std::size_t size) {
			std::size_t q = by_labeling.Find(labeling, size);
			if (q == kNone) {
				q = queries_.size();
				if (q + 1 > max_queries)
					throw Error(
					    ErrorKind::LimitExceeded, "marginal cover exceeds " + std::to_string(max_queries) + " queries",
					    "The public rows realise more distinct labelings of " + class_text_ + " than the limit.",
					    "Use a smaller k, fewer columns or columns with fewer distinct values, or have a "
					    "superuser raise pap_release.max_cover_queries.");
				std::vector<AxisConstraint> constraints(kk);
				for (std::size_t j = 0; j < kk; j++)
					constraints[j] = AxisConstraint{std::uint32_t(axes[j]), CellInterval{vals[j], vals[j]}};
				queries_.Add(constraints);
				by_labeling.Add(labeling, size, q);
				if (size == 0)
					empty_query_ = q;
			}
			if (size != 0) {
				// Sets in lexicographic order, tuples increasing within a set: the keys arrive sorted.
				realised_keys_.insert(realised_keys_.end(), axes.begin(), axes.end());
				realised_keys_.insert(realised_keys_.end(), vals.begin(), vals.end());
				realised_queries_.push_back(q);
			}
		};
		for (std::size_t first = 0; first < order.size();) {
			const std::size_t last = run_end(first);
			const std::vector<std::int32_t> tuple = tuple_of(first);
			if (have_gap && gap < tuple) {
				emit(gap, nullptr, 0);
				have_gap = false;
			}
			emit(tuple, order.data() + first, last - first);
			first = last;
		}
		if (have_gap)
			emit(gap, nullptr, 0);

		// Next k-subset in lexicographic order.
		std::size_t j = kk;
		while (j-- > 0)
			if (std::size_t(axes[j]) < d - kk + j)
				break;
		if (j == kNone)
			break;
		axes[j]++;
		for (std::size_t i = j + 1; i < kk; i++)
			axes[i] = axes[i - 1] + 1;
	}
}

void
MarginalCover::OutsideClass(const std::string &why) const
{
	const std::string what =
	    stumps_ ? "The class " + class_text_ + " contains only the queries b = true and b = false for its columns b."
	            : "The class " + class_text_ + " contains conjunctions of exactly " + std::to_string(k_) +
	                  " equalities column = value on distinct columns of the class.";
	throw Error(ErrorKind::QueryOutsideClass, "query is outside the release's query class " + class_text_,
	            why + " " + what, "pap.answers(name) lists the cover queries of a release.");
}

std::vector<std::pair<std::int32_t, std::int32_t>>
MarginalCover::Equalities(const QueryText *parsed, const std::vector<LiteralValue> &literals, bool null_bins) const
{
	if (parsed == nullptr)
		throw Error(ErrorKind::Internal, "marginal cover needs a parsed query");
	std::vector<std::pair<std::int32_t, std::int32_t>> equalities;  // (axis, bin)
	std::size_t literal = 0;
	for (const Condition &c : parsed->conditions) {
		const std::size_t at = literal;
		literal += LiteralCount(c);
		if (literal > literals.size())
			throw Error(ErrorKind::Internal, "literal values do not match the parsed query");
		if (!c.terms.empty())
			OutsideClass("The query has a linear condition.");
		const auto column = std::find(columns_.begin(), columns_.end(), c.column);
		if (column == columns_.end())
			throw Error(ErrorKind::UndefinedColumn,
			            "column " + QuoteIdentifier(c.column) + " is not in the release's query class " + class_text_,
			            {}, "A query may use only the columns of the class.")
			    .At(c.position);
		const std::size_t a = std::size_t(column - columns_.begin());
		if (c.op == Comparison::IsNull && null_bins) {
			// The NULL bin's cells, as many as any value's: a query of the same shape as the class's.
			equalities.emplace_back(std::int32_t(a), axes_[a].NullBin());
			continue;
		}
		if (c.op == Comparison::IsNull || c.op == Comparison::IsNotNull)
			throw Error(
			    ErrorKind::QueryOutsideClass, "query is outside the release's query class " + class_text_,
			    "NULL is no value of the class's cover: its queries are equalities \"column = value\", which no "
			    "NULL satisfies, so no cover query answers \"" +
			        QuoteIdentifier(c.column) + " " + ComparisonText(c.op) +
			        "\". \"column IS NULL\" is answered from the NULL bin's own cells only by a release over a "
			        "full grid whose mechanism measured every cell (answer mode refine).",
			    "Answer the column's values with IN, or count NULL rows of a numeric column with an ordered "
			    "class such as thresholds.")
			    .At(c.position);
		if (c.op != Comparison::Equal)
			OutsideClass("The query compares column " + QuoteIdentifier(c.column) + " with " + ComparisonText(c.op) +
			             ".");
		const std::int32_t bin = axes_[a].CategoryBin(literals[at].text);
		if (bin >= values_[a])
			OutsideClass(axes_[a].value_type == ValueType::Boolean
			                 ? "Boolean column " + QuoteIdentifier(c.column) +
			                       " is compared with a value other than true or false."
			             : axes_[a].check_list
			                 ? "Column " + QuoteIdentifier(c.column) +
			                       " is compared with a value that the private table's CHECK constraint does not "
			                       "allow: no row holds it."
			                 : "Column " + QuoteIdentifier(c.column) +
			                       " is compared with a value that is not a label of its enum type.");
		equalities.emplace_back(std::int32_t(a), bin);
	}
	if (literal != literals.size())
		throw Error(ErrorKind::Internal, "literal values do not match the parsed query");
	std::sort(equalities.begin(), equalities.end());
	for (std::size_t i = 1; i < equalities.size(); i++)
		if (equalities[i].first == equalities[i - 1].first)
			OutsideClass("The query compares column " + QuoteIdentifier(columns_[std::size_t(equalities[i].first)]) +
			             " twice.");
	if (equalities.size() != k_)
		OutsideClass("The query has " + std::to_string(equalities.size()) +
		             (equalities.size() == 1 ? " condition." : " conditions."));
	return equalities;
}

std::size_t
MarginalCover::Project(std::string_view, const QueryText *parsed, const std::vector<LiteralValue> &literals) const
{
	const std::vector<std::pair<std::int32_t, std::int32_t>> equalities = Equalities(parsed, literals, false);
	std::vector<std::int32_t> key;
	for (const auto &e : equalities)
		key.push_back(e.first);
	for (const auto &e : equalities)
		key.push_back(e.second);
	const std::size_t width = 2 * k_;
	std::size_t lo = 0, hi = realised_queries_.size();  // binary search over the sorted records
	while (lo < hi) {
		const std::size_t mid = lo + (hi - lo) / 2;
		const std::int32_t *record = realised_keys_.data() + mid * width;
		if (std::lexicographical_compare(record, record + width, key.begin(), key.end()))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < realised_queries_.size() && std::equal(key.begin(), key.end(), realised_keys_.data() + lo * width))
		return realised_queries_[lo];
	if (empty_query_ == kNone)
		throw Error(ErrorKind::Internal, "unrealised marginal query but no empty-pattern cover query");
	return empty_query_;
}

std::vector<AxisConstraint>
MarginalCover::OwnCells(std::string_view, const QueryText *parsed, const std::vector<LiteralValue> &literals) const
{
	std::vector<AxisConstraint> cells;
	for (const auto &[axis, bin] : Equalities(parsed, literals, true))
		cells.push_back(AxisConstraint{std::uint32_t(axis), CellInterval{bin, bin}});
	return cells;
}

std::string
MarginalCover::Render(std::size_t q) const
{
	if (q >= queries_.size())
		throw Error(ErrorKind::Internal, "cover query index out of range");
	std::string text;
	for (const AxisConstraint *c = queries_.begin(q); c != queries_.end(q); ++c) {
		const ReleaseAxis &axis = axes_[c->axis];
		const std::string column = QuoteIdentifier(columns_[c->axis]);
		if (!text.empty())
			text += " AND ";
		const std::int32_t bin = c->bins.lo;
		if (bin < std::int32_t(axis.categories.size())) {
			text += column + " = " + FormatCategoryLiteral(axis.categories[std::size_t(bin)], axis.value_type);
		} else if (axis.categories.empty()) {
			text += column + " IS NOT NULL";
		} else {
			// "other": readable SQL with the same meaning, though not a query pap.answer accepts.
			text += column + " NOT IN (";
			for (std::size_t i = 0; i < axis.categories.size(); i++)
				text += (i ? ", " : "") + FormatCategoryLiteral(axis.categories[i], axis.value_type);
			text += ")";
		}
	}
	return text.empty() ? "TRUE" : text;
}

}  // namespace

std::unique_ptr<Cover>
MakeMarginalCover(const CoverInput &input)
{
	return std::make_unique<MarginalCover>(input);
}

int
VcDimensionOfUnion(double families)
{
	int s = 1;
	while (s < 1000 && std::ldexp(1.0, s + 1) <= families * double(s + 2))
		s++;
	return s;
}

}  // namespace pap::core
