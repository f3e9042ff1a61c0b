// What identity's and hierarchical's plans take for the private histogram's shape when they predict the bias of the
// non-negativity step (identity_mechanism.hpp, IdentityProjectionBias): public information spread as a private
// sample of the same population would spread (docs/mechanisms.md §9, "The stand-in"). The public histogram scaled to
// n is no such stand-in when the grid has far more cells than the public table rows: its few occupied cells hold
// n / m rows each, where the private table holds a few rows in each of many cells, the cells the clipping biases.
#pragma once
#include <cstdint>
#include <vector>

#include "core/cells/cell_domain.hpp"

namespace pap::core {

// A distribution over the domain's cells: (1 - M) times the public histogram's shares plus M times the product of
// its per-axis marginal shares, M the Good-Turing estimate of the population's share at grid points the public
// sample never shows (the share of public rows alone at their grid point). The product's mass at grid points that
// are no cell of a public-support domain goes to its outside cell. The public prior itself when no public row is
// alone at its point. Error(Internal) for a histogram that is not the domain's or has no rows, or an Explicit
// domain; Error(Cancelled) when interrupted (polled per cell).
std::vector<double> PublicStandIn(const std::vector<std::int64_t> &public_histogram, const CellDomain &domain);

}  // namespace pap::core

#include "core/base/core_only.hpp"
