// The cover H~ of predicates('p1', ..., 'pP') (docs/architecture.md step 2, Algorithm 3 steps 1-4): a finite class of
// SQL boolean expressions. Predicates that label every public row the same way are one cover query; the
// representative of a labeling is its first predicate in listed order. The release has one Predicate axis per
// representative (label = its SQL text; bin 1 = true, bin 0 = false or NULL), and cover query r is "bin 1 on
// axis r".
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/classes/cover.hpp"

namespace pap::core {

struct PredicateMerge {
	std::vector<std::int32_t> axis_of;         // per listed predicate: index of its representative below
	std::vector<std::size_t> representatives;  // listed indexes of the representatives, increasing
};

// label_points: the distinct public label points over ALL listed predicates, flat (point i, predicate p at
// i * predicate_count + p), each entry 0 (false or NULL) or 1 (true). Predicates with identical columns merge.
// O(P m) time and memory. Error(Internal) for predicate_count == 0, a size that is not a multiple of it or an
// entry other than 0 and 1.
PredicateMerge MergePredicates(std::size_t predicate_count, const std::vector<std::int32_t> &label_points);

// The merge that keeps every listed predicate apart from every other it may disagree with: predicates merge only
// when they are one condition (equal PredicateKey, language/predicate_key.hpp; a text without a key, equal text
// trimmed of surrounding whitespace), which labels every row alike, so no private row tells the predicates of one
// axis apart. Granularity auto plans it beside
// MergePredicates' (docs/mechanisms.md §20, "Predicates").
PredicateMerge MergeEquivalentPredicates(const std::vector<std::string> &predicates);
// Whether the predicates of every axis of axis_of are one condition (as MergeEquivalentPredicates merges them):
// then every query of the class is its own cover query, and the projection part is 0.
bool MergesOnlyEquivalentPredicates(const std::vector<std::string> &predicates,
                                    const std::vector<std::int32_t> &axis_of);

// Queries: r = constraint [1, 1] on axis r, one per axis (= representative). input.predicate_axis maps every
// listed predicate to its axis (PredicateMerge::axis_of). Project(text, nullptr, {}) matches text, trimmed of
// surrounding whitespace, exactly to a listed predicate (trimmed) and returns its representative's query;
// Error(QueryOutsideClass) otherwise. Render(r) = the representative's text (its axis label). Error(LimitExceeded)
// beyond input.max_queries, Error(Internal) when the axes do not match the class.
std::unique_ptr<Cover> MakePredicateCover(const CoverInput &input);

}  // namespace pap::core

#include "core/base/core_only.hpp"
