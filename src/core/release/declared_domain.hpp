// A private-only release's domain, declared by the curator instead of learned from a public table
// (docs/mechanisms.md §14): an ordered column's grid of values (bounds and a step) or a categorical column's list.
// The declaration is public information, so the axes, the cover and the cells built from it cost nothing; the
// checks here refuse what no differentially private release can answer (an unbounded ordered domain).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "core/base/errors.hpp"
#include "core/language/class_spec.hpp"

namespace pap::core {

// The values low, low + step, ..., up to high (the last one at most high), in increasing order. Error
// (InvalidParameter) for a bound or step that is not finite, a step that is not positive, or low > high;
// Error(LimitExceeded) for more than max_values values (checked before anything is allocated).
std::vector<double> DeclaredGrid(const std::string &column, double low, double high, double step,
                                 std::size_t max_values);

// The refusal of an ordered column declared without finite bounds (or not declared at all): no differentially
// private algorithm releases its thresholds, nor even a point between the smallest and the largest private value
// (docs/mechanisms.md §14, "Why a domain must be declared").
Error UnboundedDomainError(const std::string &column);

// Error(InvalidParameter) for a class a declared domain cannot define: halfspaces and predicates learn their axes
// from public rows (a direction's values, a predicate's labels), which a declaration does not give.
void RequireDeclarableClass(ClassKind kind);

}  // namespace pap::core

#include "core/base/core_only.hpp"
