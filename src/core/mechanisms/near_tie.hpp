// The factor within which two predicted errors are a near tie. A prediction is a bound at a confidence, not a
// measurement: within a tenth of each other, two predictions do not say which release will err less, so a near tie is
// broken by what the predictions do not show (docs/mechanisms.md §10 and §20): between granularities
// (layout_choice.hpp, NearTieOf), between two mechanisms (registry.hpp, AutoChoice), and between the marginal tables'
// variants (marginal_tables.hpp, MarginalTablesVariantChoice).
#pragma once

namespace pap::core {

constexpr double kNearTie = 1.1;

}  // namespace pap::core

#include "core/base/core_only.hpp"
