#include "core/cells/open_subgrid.hpp"

#include "core/base/errors.hpp"

namespace pap::core {

OpenSubgrid::OpenSubgrid(const std::vector<std::int32_t> &radices, const std::vector<bool> &closed)
{
	const std::size_t d = radices.size();
	grid_cells_ = 1;
	for (std::int32_t r : radices) {
		if (r < 1 || __builtin_mul_overflow(grid_cells_, std::size_t(r), &grid_cells_))
			throw Error(ErrorKind::Internal, "open subgrid: a grid without bins on an axis, or too large");
	}
	RequireGridSize(closed.size());
	// One pass in row-major order with an odometer: each open cell marks its coordinates open.
	std::vector<std::vector<bool>> open_bins(d);
	for (std::size_t a = 0; a < d; a++)
		open_bins[a].assign(std::size_t(radices[a]), false);
	std::vector<std::int32_t> point(d, 0);
	std::uint64_t steps = 0;
	for (std::size_t cell = 0; cell < grid_cells_; cell++) {
		PollInterrupt(steps, d);
		if (!closed[cell]) {
			open_cells_.push_back(cell);
			for (std::size_t a = 0; a < d; a++)
				open_bins[a][std::size_t(point[a])] = true;
		}
		for (std::size_t a = d; a-- > 0;) {
			if (++point[a] < radices[a])
				break;
			point[a] = 0;
		}
	}
	std::size_t product = 1;
	for (std::size_t a = 0; a < d; a++) {
		std::int32_t open = 0;
		for (bool b : open_bins[a])
			open += b ? 1 : 0;
		open_radices_.push_back(open);
		product *= std::size_t(open);
	}
	// A closed bin closes every cell holding it (ClosedCells), so the open cells are exactly the product.
	if (open_cells_.empty() || product != open_cells_.size())
		throw Error(ErrorKind::Internal, "open subgrid: the open cells are not a product of open bins per axis");
}

std::vector<double>
OpenSubgrid::Embed(const std::vector<double> &open_values) const
{
	if (open_values.size() != open_cells_.size())
		throw Error(ErrorKind::Internal, "open subgrid: values of another size than the open cells");
	std::vector<double> values(grid_cells_, 0.0);
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < open_cells_.size(); i++) {
		PollInterrupt(steps);
		values[open_cells_[i]] = open_values[i];
	}
	return values;
}

void
OpenSubgrid::RequireGridSize(std::size_t size) const
{
	if (size != grid_cells_)
		throw Error(ErrorKind::Internal, "open subgrid: a vector of another size than the grid");
}

}  // namespace pap::core
