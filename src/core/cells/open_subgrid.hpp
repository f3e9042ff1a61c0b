// The open cells of a full grid as a grid of their own. A cell is closed when one of its coordinates is a bin no row
// can hold (ReleaseLayout::ClosedCells: a closed categorical axis's "other" bin, a NOT NULL column's NULL bin), so
// the open cells are the product of each axis's open bins: a mechanism that works on a product grid (marginal
// tables) runs on that smaller grid and leaves every closed cell at 0 (docs/mechanisms.md §13, "Cells no row can
// hold").
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/base/interrupt_scope.hpp"

namespace pap::core {

class OpenSubgrid {
public:
	// radices: the full grid's (row-major, first axis most significant); closed: one flag per grid cell. An axis's
	// bin is open when some open cell holds it. Error(Internal) for a mask of another size than the grid, no open
	// cell, or open cells that are not the product of their axes' open bins (not a mask ClosedCells makes).
	// Polls for interrupts (PollInterrupt): a grid may hold 10^8 cells.
	OpenSubgrid(const std::vector<std::int32_t> &radices, const std::vector<bool> &closed);

	// The open bins per axis: the subgrid's radices.
	const std::vector<std::int32_t> &
	radices() const
	{
		return open_radices_;
	}
	std::size_t
	size() const
	{
		return open_cells_.size();
	}
	// The grid cell of each subgrid cell, increasing (the subgrid keeps the grid's row-major order).
	const std::vector<std::size_t> &
	cells() const
	{
		return open_cells_;
	}

	// The values of the open cells, in the subgrid's order. Error(Internal) for a vector not of the grid's size.
	template <typename T>
	std::vector<T>
	Restrict(const std::vector<T> &values) const
	{
		RequireGridSize(values.size());
		std::vector<T> open;
		open.reserve(open_cells_.size());
		for (std::size_t cell : open_cells_)
			open.push_back(values[cell]);
		return open;
	}
	// Back over the whole grid: each open cell its value, every closed cell 0. Error(Internal) for a vector not of
	// the subgrid's size.
	std::vector<double> Embed(const std::vector<double> &open_values) const;

private:
	void RequireGridSize(std::size_t size) const;
	std::size_t grid_cells_ = 0;
	std::vector<std::int32_t> open_radices_;
	std::vector<std::size_t> open_cells_;
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
