#include "core/classes/predicate_cover.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/language/predicate_key.hpp"

namespace pap::core {

namespace {

struct WordsHash {
	std::size_t
	operator()(const std::vector<std::uint64_t> &words) const
	{
		std::uint64_t h = 0x9e3779b97f4a7c15ull;
		for (std::uint64_t w : words)
			h = (h ^ w) * 0x100000001b3ull + (h >> 29);
		return std::size_t(h);
	}
};

std::string_view
Trim(std::string_view s)
{
	const char *space = " \t\n\r\f\v";
	const std::size_t first = s.find_first_not_of(space);
	if (first == std::string_view::npos)
		return {};
	return s.substr(first, s.find_last_not_of(space) - first + 1);
}

class PredicateCover final : public Cover {
public:
	explicit PredicateCover(const CoverInput &input);

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
		return vc_dimension_;
	}

private:
	std::vector<std::string> texts_;                        // per axis: the representative's text
	std::unordered_map<std::string, std::size_t> by_text_;  // trimmed listed text -> axis
	// PredicateKey of a listed text -> axis, kNoAxis when listed predicates of different axes share the key
	std::unordered_map<std::string, std::size_t> by_key_;
	static constexpr std::size_t kNoAxis = static_cast<std::size_t>(-1);
	ProductQueryList queries_;
	int vc_dimension_ = 1;
};

PredicateCover::PredicateCover(const CoverInput &input)
{
	const ClassSpec &spec = *input.spec;
	const std::vector<ReleaseAxis> &axes = *input.axes;
	if (spec.kind != ClassKind::Predicates || input.predicate_axis == nullptr ||
	    input.predicate_axis->size() != spec.predicates.size())
		throw Error(ErrorKind::Internal, "predicate cover needs the axis of every listed predicate");
	if (axes.size() > input.max_queries)
		throw Error(ErrorKind::LimitExceeded,
		            "predicate cover exceeds " + std::to_string(input.max_queries) + " queries",
		            "The public rows tell " + std::to_string(axes.size()) + " of the listed predicates apart.",
		            "List fewer predicates, or have a superuser raise pap_release.max_cover_queries.");
	for (const ReleaseAxis &axis : axes) {
		if (axis.kind != AxisKind::Predicate)
			throw Error(ErrorKind::Internal, "predicate cover axis is not a predicate axis");
		texts_.push_back(axis.label);
	}
	std::vector<bool> used(axes.size(), false);
	for (std::size_t i = 0; i < spec.predicates.size(); i++) {
		const std::int32_t axis = (*input.predicate_axis)[i];
		if (axis < 0 || std::size_t(axis) >= axes.size())
			throw Error(ErrorKind::Internal, "listed predicate mapped to no axis");
		used[std::size_t(axis)] = true;
		by_text_.emplace(std::string(Trim(spec.predicates[i])), std::size_t(axis));
		if (const std::optional<std::string> key = PredicateKey(spec.predicates[i])) {
			const auto [it, inserted] = by_key_.emplace(*key, std::size_t(axis));
			if (!inserted && it->second != std::size_t(axis))
				it->second = kNoAxis;  // equal keys, told apart by the public rows: match neither by its key
		}
	}
	queries_.Reserve(axes.size(), axes.size());
	for (std::size_t r = 0; r < axes.size(); r++) {
		if (!used[r])
			throw Error(ErrorKind::Internal, "predicate axis without a listed predicate");
		const AxisConstraint constraint{std::uint32_t(r), CellInterval{1, 1}};
		queries_.Add(&constraint, 1);
	}
	// A finite class of P queries shatters at most log2(P) points.
	vc_dimension_ = std::max(1, int(std::floor(std::log2(double(spec.predicates.size())))));
}

std::size_t
PredicateCover::Project(std::string_view text, const QueryText *, const std::vector<LiteralValue> &) const
{
	// The text as listed first (what every release answered before keys), then by its key.
	const auto found = by_text_.find(std::string(Trim(text)));
	if (found != by_text_.end())
		return found->second;
	if (const std::optional<std::string> key = PredicateKey(text)) {
		const auto by_key = by_key_.find(*key);
		if (by_key != by_key_.end() && by_key->second != kNoAxis)
			return by_key->second;
	}
	throw Error(ErrorKind::QueryOutsideClass, "query is not one of the predicates of the release",
	            "Conjuncts may be written in any order and in parentheses.",
	            "pap.answers(name) lists the cover queries; a predicates release answers exactly its listed "
	            "predicates.");
}

std::string
PredicateCover::Render(std::size_t q) const
{
	if (q >= texts_.size())
		throw Error(ErrorKind::Internal, "cover query index out of range");
	return texts_[q];
}

}  // namespace

PredicateMerge
MergePredicates(std::size_t predicate_count, const std::vector<std::int32_t> &label_points)
{
	if (predicate_count == 0 || label_points.size() % predicate_count != 0)
		throw Error(ErrorKind::Internal, "label points do not match the predicates");
	const std::size_t m = label_points.size() / predicate_count;
	const std::size_t words = (m + 63) / 64;
	// Column p of the label matrix as a bit set: predicate p's public labeling.
	std::vector<std::vector<std::uint64_t>> columns(predicate_count, std::vector<std::uint64_t>(words, 0));
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < m; i++)
		for (std::size_t p = 0; p < predicate_count; p++) {
			PollInterrupt(steps);
			const std::int32_t label = label_points[i * predicate_count + p];
			if (label != 0 && label != 1)
				throw Error(ErrorKind::Internal, "predicate label other than 0 and 1");
			if (label)
				columns[p][i / 64] |= std::uint64_t(1) << (i % 64);
		}
	PredicateMerge merge;
	merge.axis_of.resize(predicate_count);
	std::unordered_map<std::vector<std::uint64_t>, std::int32_t, WordsHash> axis_of_labeling;
	for (std::size_t p = 0; p < predicate_count; p++) {
		const auto inserted =
		    axis_of_labeling.emplace(std::move(columns[p]), std::int32_t(merge.representatives.size()));
		if (inserted.second)
			merge.representatives.push_back(p);
		merge.axis_of[p] = inserted.first->second;
	}
	return merge;
}

namespace {

// One condition's identity: its PredicateKey (conjuncts in any order: one condition in SQL's three-valued logic,
// which labels every row alike), else its text trimmed of surrounding whitespace; marked apart so that no key
// equals a text.
std::string
ConditionOf(const std::string &predicate)
{
	if (const std::optional<std::string> key = PredicateKey(predicate))
		return "k" + *key;
	return "t" + std::string(Trim(predicate));
}

}  // namespace

PredicateMerge
MergeEquivalentPredicates(const std::vector<std::string> &predicates)
{
	PredicateMerge merge;
	merge.axis_of.resize(predicates.size());
	std::unordered_map<std::string, std::int32_t> axis_of_condition;
	for (std::size_t p = 0; p < predicates.size(); p++) {
		const auto inserted =
		    axis_of_condition.emplace(ConditionOf(predicates[p]), std::int32_t(merge.representatives.size()));
		if (inserted.second)
			merge.representatives.push_back(p);
		merge.axis_of[p] = inserted.first->second;
	}
	return merge;
}

bool
MergesOnlyEquivalentPredicates(const std::vector<std::string> &predicates, const std::vector<std::int32_t> &axis_of)
{
	if (axis_of.size() != predicates.size())
		throw Error(ErrorKind::Internal, "predicate axes do not match the predicates");
	std::unordered_map<std::int32_t, std::string> condition_of_axis;
	for (std::size_t p = 0; p < predicates.size(); p++) {
		const auto [it, inserted] = condition_of_axis.emplace(axis_of[p], ConditionOf(predicates[p]));
		if (!inserted && it->second != ConditionOf(predicates[p]))
			return false;
	}
	return true;
}

std::unique_ptr<Cover>
MakePredicateCover(const CoverInput &input)
{
	return std::make_unique<PredicateCover>(input);
}

}  // namespace pap::core
