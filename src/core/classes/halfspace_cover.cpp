#include "core/classes/halfspace_cover.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>

#include "core/axes/numeric_axis.hpp"
#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/classes/marginal_cover.hpp"
#include "core/language/value_format.hpp"

namespace pap::core {

void
RequireDistinctDirections(const ClassSpec &spec)
{
	// Every pair, both ways, with the query matcher's own test (Project: the first direction a query's coefficients are
	// a positive multiple of, within PositiveMultiple's relative tolerance): two directions within that tolerance of
	// each other would list one query under both, though neither is an exact multiple of the other, and a sort of the
	// normalised directions need not put them side by side ([1, -1e37] and [0, -1e36]: found by the fuzzer). At most
	// kMaxClassDirections^2 / 2 pairs: measured by a reviewer at 1,600 directions, 10 ms over 2 columns and 0.2 s over
	// 64, paid wherever a cover is built (interruptible).
	const std::vector<std::vector<double>> &w = spec.directions;
	std::uint64_t steps = 0;
	for (std::size_t b = 1; b < w.size(); b++)
		for (std::size_t a = 0; a < b; a++) {
			PollInterrupt(steps);
			if (PositiveMultiple(w[b], w[a]) > 0.0 || PositiveMultiple(w[a], w[b]) > 0.0)
				throw Error(
				    ErrorKind::InvalidParameter,
				    "direction " + std::to_string(b + 1) + " of " + spec.CanonicalText() +
				        " is a positive multiple of direction " + std::to_string(a + 1),
				    "Both give the same half-spaces w.x <= t (to a relative 1e-12 of their weights, within which a "
				    "query's coefficients are matched to a direction).",
				    "List each direction once.");
		}
}

namespace {

// Fixed seed: the cover (and so cover query ids) must be the same for the same input on every run.
constexpr std::uint64_t kZobristSeed = 0x5eed0fc0ffee1234ull;

std::uint64_t
SplitMix64(std::uint64_t &state)
{
	std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

// Number of entries of the sorted xs that are <= t (< t when strict), in PostgreSQL's float8 order.
std::size_t
CountIn(const std::vector<double> &xs, double t, bool strict)
{
	return strict ? std::size_t(std::lower_bound(xs.begin(), xs.end(), t, PgFloatLess) - xs.begin())
	              : std::size_t(std::upper_bound(xs.begin(), xs.end(), t, PgFloatLess) - xs.begin());
}

class HalfspaceCover final : public Cover {
public:
	explicit HalfspaceCover(const CoverInput &input);

	const ProductQueryList &
	Queries() const override
	{
		return queries_;
	}
	std::size_t Project(std::string_view text, const QueryText *parsed,
	                    const std::vector<LiteralValue> &literals) const override;
	std::string Render(std::size_t q) const override;
	int
	VcDimension() const override
	{
		return VcDimensionOfUnion(double(axes_.size()));
	}

private:
	struct Representative {
		std::size_t direction;
		std::int32_t j;    // threshold index on the direction's axis
		std::size_t size;  // public points in its labeling
	};
	void Build(const std::vector<std::int32_t> &points, std::size_t max_queries);
	[[noreturn]] void OutsideClass(const std::string &why) const;
	// Threshold index on axis d of "w_d.x <= t" (< t when strict): fewest public rows in disagreement.
	std::int32_t ThresholdIndex(std::size_t d, double t, bool strict) const;

	std::string class_text_;
	std::vector<std::string> columns_;
	std::vector<std::vector<double>> directions_;
	std::vector<ReleaseAxis> axes_;
	std::vector<std::vector<std::int64_t>> cumulative_;  // per axis: rows at public_values[0..i)
	ProductQueryList queries_;
	std::vector<Representative> representatives_;     // per cover query
	std::vector<std::vector<std::size_t>> cover_of_;  // [d][j]: the cover query of threshold j of direction d
};

HalfspaceCover::HalfspaceCover(const CoverInput &input)
{
	const ClassSpec &spec = *input.spec;
	if (spec.kind != ClassKind::Halfspaces)
		throw Error(ErrorKind::Internal, "halfspace cover built for another class");
	RequireDistinctDirections(spec);
	class_text_ = spec.CanonicalText();
	columns_ = spec.columns;
	directions_ = spec.directions;
	axes_ = *input.axes;
	if (directions_.empty() || axes_.size() != directions_.size())
		throw Error(ErrorKind::Internal, "halfspace cover needs one axis per direction");
	for (std::size_t d = 0; d < axes_.size(); d++) {
		const ReleaseAxis &axis = axes_[d];
		if (axis.kind != AxisKind::Linear || directions_[d].size() != columns_.size() ||
		    axis.public_values.size() != axis.public_counts.size())
			throw Error(ErrorKind::Internal, "halfspace cover axis does not match its direction");
		std::vector<std::int64_t> cumulative(1, 0);
		for (std::int64_t c : axis.public_counts)
			cumulative.push_back(cumulative.back() + c);
		cumulative_.push_back(std::move(cumulative));
	}
	Build(*input.public_points, input.max_queries);
}

void
HalfspaceCover::Build(const std::vector<std::int32_t> &points, std::size_t max_queries)
{
	const std::size_t dims = axes_.size();
	if (points.size() % dims != 0)
		throw Error(ErrorKind::Internal, "public points do not match the cover's axes");
	const std::size_t m = points.size() / dims;
	for (std::size_t i = 0; i < points.size(); i++)
		if (points[i] < 0 || points[i] >= axes_[i % dims].Radix())
			throw Error(ErrorKind::Internal, "public point coordinate outside its axis");
	std::vector<std::uint64_t> key(m);
	std::uint64_t state = kZobristSeed;
	for (std::uint64_t &z : key)
		z = SplitMix64(state);

	// Labeling hash -> cover queries with it (more than one only after a 64-bit collision).
	std::unordered_multimap<std::uint64_t, std::size_t> by_hash;
	std::vector<std::size_t> order(m);
	cover_of_.resize(dims);
	for (std::size_t d = 0; d < dims; d++) {
		const std::size_t radix = std::size_t(axes_[d].Radix());
		const auto bin = [&](std::size_t p, std::size_t axis) { return points[p * dims + axis]; };
		// Counting sort of the points by their bin on axis d: labelings of d are the prefixes of this order.
		std::vector<std::size_t> start(radix + 1, 0);
		for (std::size_t p = 0; p < m; p++)
			start[std::size_t(bin(p, d)) + 1]++;
		for (std::size_t b = 0; b < radix; b++)
			start[b + 1] += start[b];
		for (std::size_t p = 0; p < m; p++)
			order[start[std::size_t(bin(p, d))]++] = p;
		// Exact check of a hash match against direction e: the prefix of d's order lies below e's threshold j'
		// iff the maximum e-bin over it is < j'. Prefixes only grow with j, so a running maximum per e suffices.
		std::unordered_map<std::size_t, std::pair<std::size_t, std::int32_t>> running;  // e -> (prefix, max)
		const std::int32_t top = std::int32_t(axes_[d].cuts.size());
		cover_of_[d].resize(std::size_t(top) + 1);
		std::uint64_t hash = 0;
		std::size_t size = 0;
		std::uint64_t steps = 0;
		for (std::int32_t j = 0; j <= top; j++) {
			PollInterrupt(steps);
			while (size < m && bin(order[size], d) < j)
				hash ^= key[order[size++]];
			std::size_t match = queries_.size();
			const auto range = by_hash.equal_range(hash);
			for (auto it = range.first; it != range.second && match == queries_.size(); ++it) {
				const Representative &r = representatives_[it->second];
				if (r.size != size)
					continue;
				auto &run =
				    running.emplace(r.direction, std::make_pair(std::size_t(0), std::int32_t(-1))).first->second;
				for (; run.first < size; run.first++)
					run.second = std::max(run.second, bin(order[run.first], r.direction));
				if (run.second < r.j)
					match = it->second;
			}
			if (match == queries_.size()) {
				if (match + 1 > max_queries)
					throw Error(
					    ErrorKind::LimitExceeded, "halfspace cover exceeds " + std::to_string(max_queries) + " queries",
					    "The public rows realise more distinct labelings of " + class_text_ + " than the limit.",
					    "Use fewer directions or a larger alpha (coarser cuts), or have a superuser raise "
					    "pap_release.max_cover_queries.");
				const AxisConstraint constraint{std::uint32_t(d), CellInterval{0, j - 1}};
				queries_.Add(&constraint, 1);
				representatives_.push_back(Representative{d, j, size});
				by_hash.emplace(hash, match);
			}
			cover_of_[d][std::size_t(j)] = match;
		}
	}
}

void
HalfspaceCover::OutsideClass(const std::string &why) const
{
	constexpr std::size_t kListed = 10;
	std::string directions;
	for (std::size_t d = 0; d < axes_.size() && d < kListed; d++)
		directions += (d ? ", " : "") + axes_[d].label;
	if (axes_.size() > kListed)
		directions += " and " + std::to_string(axes_.size() - kListed) + " more";
	throw Error(ErrorKind::QueryOutsideClass, "query is outside the release's query class " + class_text_,
	            why + " The class contains only the conditions w.x <= t and w.x < t for its directions w.x = " +
	                directions + " (or a positive multiple of one).",
	            "A condition w.x >= t is in the class only when -w is one of its directions.");
}

std::int32_t
HalfspaceCover::ThresholdIndex(std::size_t d, double t, bool strict) const
{
	const ReleaseAxis &axis = axes_[d];
	const std::vector<double> &cuts = axis.cuts, &values = axis.public_values;
	const std::size_t below = CountIn(cuts, t, strict);  // the largest cover query inside the query
	if (below == cuts.size())
		return std::int32_t(below);
	// Public rows the query holds beyond cut `below` (lost by the lower choice) and rows up to cut `below` + 1
	// it does not hold (gained by the upper choice).
	const std::vector<std::int64_t> &cumulative = cumulative_[d];
	const std::size_t in = CountIn(values, t, strict);
	const std::size_t lower = below == 0 ? 0 : CountIn(values, cuts[below - 1], false);
	const std::size_t upper = CountIn(values, cuts[below], false);
	const std::int64_t lost = cumulative[in] - cumulative[std::min(lower, in)];
	const std::int64_t gained = cumulative[std::max(upper, in)] - cumulative[in];
	return std::int32_t(gained < lost ? below + 1 : below);
}

std::size_t
HalfspaceCover::Project(std::string_view, const QueryText *parsed, const std::vector<LiteralValue> &literals) const
{
	if (parsed == nullptr)
		throw Error(ErrorKind::Internal, "halfspace cover needs a parsed query");
	if (LiteralCount(*parsed) != literals.size())
		throw Error(ErrorKind::Internal, "literal values do not match the parsed query");
	const auto column_index = [&](const std::string &name) {
		const auto it = std::find(columns_.begin(), columns_.end(), name);
		if (it == columns_.end())
			throw Error(ErrorKind::UndefinedColumn,
			            "column " + QuoteIdentifier(name) + " is not in the release's query class " + class_text_, {},
			            "A query may use only the columns of the class.");
		return std::size_t(it - columns_.begin());
	};
	std::vector<double> v(columns_.size(), 0.0);
	for (const Condition &c : parsed->conditions) {
		if (c.terms.empty())
			v[column_index(c.column)] += 1.0;
		for (const LinearTerm &term : c.terms)
			v[column_index(term.column)] += term.coefficient;
	}
	if (parsed->conditions.size() != 1)
		OutsideClass("The query has " + std::to_string(parsed->conditions.size()) + " conditions.");
	const Condition &c = parsed->conditions[0];
	if (c.op != Comparison::LessEqual && c.op != Comparison::Less && c.op != Comparison::GreaterEqual &&
	    c.op != Comparison::Greater)
		OutsideClass(std::string("The query uses ") + ComparisonText(c.op) + ".");
	double t = literals[0].number;
	const bool strict = c.op == Comparison::Less || c.op == Comparison::Greater;
	if (c.op == Comparison::GreaterEqual || c.op == Comparison::Greater) {
		for (double &x : v)
			x = -x;
		t = -t;
	}
	for (std::size_t d = 0; d < directions_.size(); d++) {
		const double lambda = PositiveMultiple(v, directions_[d]);
		if (lambda > 0.0)
			return cover_of_[d][std::size_t(ThresholdIndex(d, t / lambda, strict))];
	}
	OutsideClass("The query's condition is not a threshold of one of the directions.");
}

std::string
HalfspaceCover::Render(std::size_t q) const
{
	if (q >= representatives_.size())
		throw Error(ErrorKind::Internal, "cover query index out of range");
	const Representative &r = representatives_[q];
	const ReleaseAxis &axis = axes_[r.direction];
	if (r.j > 0)
		return axis.label + " <= " + FormatAxisLiteral(axis.cuts[std::size_t(r.j) - 1], ValueType::Number);
	// Below every public value: labels no public row, so it projects back here at any granularity.
	const double lowest = !axis.public_values.empty() ? axis.public_values.front()
	                      : !axis.cuts.empty()        ? axis.cuts.front()
	                                                  : -HUGE_VAL;
	return axis.label + " < " + FormatAxisLiteral(lowest, ValueType::Number);
}

}  // namespace

std::unique_ptr<Cover>
MakeHalfspaceCover(const CoverInput &input)
{
	return std::make_unique<HalfspaceCover>(input);
}

std::string
LinearAxisLabel(const std::vector<std::string> &columns, const std::vector<double> &weights)
{
	if (columns.size() != weights.size())
		throw Error(ErrorKind::Internal, "direction and columns differ in length");
	std::string text;
	for (std::size_t i = 0; i < weights.size(); i++) {
		if (weights[i] == 0.0)
			continue;
		const std::string term =
		    FormatAxisLiteral(std::fabs(weights[i]), ValueType::Number) + "*" + QuoteIdentifier(columns[i]);
		if (text.empty())
			text = weights[i] < 0 ? "-" + term : term;
		else
			text += (weights[i] < 0 ? " - " : " + ") + term;
	}
	if (text.empty())
		throw Error(ErrorKind::Internal, "direction with every weight zero");
	return text;
}

}  // namespace pap::core
