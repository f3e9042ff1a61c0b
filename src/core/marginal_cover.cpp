#include "core/marginal_cover.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/errors.hpp"
#include "core/value_format.hpp"

namespace pap::core {

namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

// C(d, k) as a double (exact up to 2^53; only compared with a limit).
double
Binomial(std::size_t d, std::size_t k)
{
	double c = 1.0;
	for (std::size_t i = 0; i < k; i++)
		c = c * double(d - i) / double(i + 1);
	return std::round(c);
}

struct VectorHash {
	template <typename T>
	std::size_t operator()(const std::vector<T> &v) const
	{
		std::uint64_t h = 0xcbf29ce484222325ull ^ v.size();
		for (T x : v)
			h = (h ^ std::uint64_t(x)) * 0x100000001b3ull + (h >> 29);
		return std::size_t(h);
	}
};

class MarginalCover final : public Cover {
public:
	explicit MarginalCover(const CoverInput &input);

	const ProductQueryList &Queries() const override { return queries_; }
	std::size_t Project(std::string_view text, const QueryText *parsed,
	                    const std::vector<LiteralValue> &literals) const override;
	std::string Render(std::size_t q) const override;
	int VcDimension() const override { return vc_dimension_; }

private:
	void Build(const std::vector<std::int32_t> &points, std::size_t max_queries);
	[[noreturn]] void OutsideClass(const std::string &why) const;
	// Key of a query for realised_: its axes, then its values.
	static std::vector<std::int32_t> Key(const std::vector<std::int32_t> &axes, const std::vector<std::int32_t> &values);

	bool stumps_ = false;
	std::size_t k_ = 1;
	std::string class_text_;
	std::vector<std::string> columns_;
	std::vector<ReleaseAxis> axes_;
	// Class values of each axis: bins 0..values_[a]-1 (categories, then "other" except on a boolean axis).
	std::vector<std::int32_t> values_;
	int vc_dimension_ = 1;
	ProductQueryList queries_;
	std::size_t empty_query_ = kNone;
	// Every publicly realised (axes, values) of the class -> its cover query; anything else is the empty pattern.
	std::unordered_map<std::vector<std::int32_t>, std::size_t, VectorHash> realised_;
};

std::vector<std::int32_t>
MarginalCover::Key(const std::vector<std::int32_t> &axes, const std::vector<std::int32_t> &values)
{
	std::vector<std::int32_t> key(axes);
	key.insert(key.end(), values.begin(), values.end());
	return key;
}

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
		values_[a] = std::int32_t(axis.categories.size()) + (boolean ? 0 : 1);
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
		            "Use a smaller k or fewer columns, or raise the query limit.");
	if (points.size() % d != 0)
		throw Error(ErrorKind::Internal, "public points do not match the cover's axes");
	const std::size_t m = points.size() / d;
	for (std::size_t i = 0; i < points.size(); i++)
		if (points[i] < 0 || points[i] >= axes_[i % d].Radix())
			throw Error(ErrorKind::Internal, "public point coordinate outside its axis");

	std::unordered_map<std::vector<std::size_t>, std::size_t, VectorHash> by_labeling;
	std::vector<std::int32_t> axes(kk), tuple(kk);
	for (std::size_t j = 0; j < kk; j++)
		axes[j] = std::int32_t(j);
	for (;;) {
		// Realised value tuples of this attribute set (a NULL, or a bin outside the class, is no query), in
		// mixed-radix order, each with its labeling.
		std::map<std::vector<std::int32_t>, std::vector<std::size_t>> realised;
		for (std::size_t p = 0; p < m; p++) {
			bool in_class = true;
			for (std::size_t j = 0; j < kk; j++) {
				tuple[j] = points[p * d + std::size_t(axes[j])];
				in_class = in_class && tuple[j] < values_[std::size_t(axes[j])];
			}
			if (in_class)
				realised[tuple].push_back(p);
		}
		// The first unrealised tuple of this set, while the empty pattern has no query yet: at most |realised| + 1
		// steps of the odometer.
		bool have_gap = false;
		std::vector<std::int32_t> gap(kk, 0);
		bool any_value = true;
		for (std::size_t j = 0; j < kk; j++)
			any_value = any_value && values_[std::size_t(axes[j])] > 0;
		if (empty_query_ == kNone && any_value) {
			auto it = realised.begin();
			for (;;) {
				if (it == realised.end() || it->first != gap) {
					have_gap = true;
					break;
				}
				++it;
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
		auto emit = [&](const std::vector<std::int32_t> &vals, const std::vector<std::size_t> &labeling) {
			auto found = by_labeling.find(labeling);
			std::size_t q;
			if (found != by_labeling.end()) {
				q = found->second;
			} else {
				q = queries_.size();
				if (q + 1 > max_queries)
					throw Error(ErrorKind::LimitExceeded,
					            "marginal cover exceeds " + std::to_string(max_queries) + " queries",
					            "The public rows realise more distinct labelings of " + class_text_ +
					                " than the limit.",
					            "Use a smaller k, fewer columns or columns with fewer distinct values, or raise the "
					            "query limit.");
				std::vector<AxisConstraint> constraints(kk);
				for (std::size_t j = 0; j < kk; j++)
					constraints[j] = AxisConstraint{std::uint32_t(axes[j]), CellInterval{vals[j], vals[j]}};
				queries_.Add(constraints);
				by_labeling.emplace(labeling, q);
				if (labeling.empty())
					empty_query_ = q;
			}
			if (!labeling.empty())
				realised_.emplace(Key(axes, vals), q);
		};
		const std::vector<std::size_t> no_points;
		for (const auto &entry : realised) {
			if (have_gap && gap < entry.first) {
				emit(gap, no_points);
				have_gap = false;
			}
			emit(entry.first, entry.second);
		}
		if (have_gap)
			emit(gap, no_points);

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

std::size_t
MarginalCover::Project(std::string_view, const QueryText *parsed, const std::vector<LiteralValue> &literals) const
{
	if (parsed == nullptr)
		throw Error(ErrorKind::Internal, "marginal cover needs a parsed query");
	std::vector<std::pair<std::int32_t, std::int32_t>> equalities;  // (axis, bin)
	std::size_t literal = 0;
	for (const Condition &c : parsed->conditions) {
		const std::size_t at = literal;
		literal += c.op == Comparison::Between ? 2 : 1;
		if (literal > literals.size())
			throw Error(ErrorKind::Internal, "literal values do not match the parsed query");
		if (!c.terms.empty())
			OutsideClass("The query has a linear condition.");
		const auto column = std::find(columns_.begin(), columns_.end(), c.column);
		if (column == columns_.end())
			throw Error(ErrorKind::UndefinedColumn,
			            "column " + QuoteIdentifier(c.column) + " is not in the release's query class " + class_text_,
			            {}, "A query may use only the columns of the class.");
		const std::size_t a = std::size_t(column - columns_.begin());
		if (c.op != Comparison::Equal)
			OutsideClass("The query compares column " + QuoteIdentifier(c.column) + " with " +
			             ComparisonText(c.op) + ".");
		const std::int32_t bin = axes_[a].CategoryBin(literals[at].text);
		if (bin >= values_[a])
			OutsideClass("Boolean column " + QuoteIdentifier(c.column) + " is compared with a value other than "
			             "true or false.");
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
		OutsideClass("The query has " + std::to_string(equalities.size()) + (equalities.size() == 1 ? " condition." : " conditions."));
	std::vector<std::int32_t> key;
	for (const auto &e : equalities)
		key.push_back(e.first);
	for (const auto &e : equalities)
		key.push_back(e.second);
	const auto found = realised_.find(key);
	if (found != realised_.end())
		return found->second;
	if (empty_query_ == kNone)
		throw Error(ErrorKind::Internal, "unrealised marginal query but no empty-pattern cover query");
	return empty_query_;
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
