// The key under which a predicates release matches a query to one of its listed predicates, so that a predicate
// listed as 'smoker AND age < 40' answers 'age < 40 AND smoker', '(smoker) AND (age < 40)' or 'AGE < 40 and
// smoker' (docs/query-classes.md, "Predicates"). Both sides are keyed the same way: the text cut into SQL tokens
// (unquoted words folded to lower case, as PostgreSQL folds them; strings, quoted names and numbers as written),
// its top-level conjunction split into conjuncts (not an AND of BETWEEN, nor one inside parentheses, brackets or
// CASE ... END; never when OR, which binds looser than AND, is at the top level), parentheses around a whole
// conjunct dropped, and the conjuncts' keys sorted and deduplicated: AND is commutative, associative and
// idempotent in SQL's three-valued logic. Texts whose tokens the key cannot read with certainty (dollar quotes,
// E'' and other prefixed strings, comments, parameters, adjacent strings) have no key and match only as written.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace pap::core {

std::optional<std::string> PredicateKey(std::string_view text);

}  // namespace pap::core

#include "core/base/core_only.hpp"
