#include "core/cells/cell_grid.hpp"

#include <limits>
#include <string>

#include "core/base/errors.hpp"

namespace pap::core {

CellGrid::CellGrid(std::vector<std::int32_t> radices, std::uint64_t cell_limit)
    : radices_(std::move(radices)), strides_(radices_.size())
{
	std::uint64_t cells = 1;
	for (std::size_t a = radices_.size(); a-- > 0;) {
		if (radices_[a] < 1)
			throw Error(ErrorKind::Internal, "cell grid axis has no bins");
		strides_[a] = std::size_t(cells);
		// Checked in 64 bits before any comparison with the limit, so a wrapped product can never pass.
		if (__builtin_mul_overflow(cells, std::uint64_t(radices_[a]), &cells) || cells > cell_limit ||
		    cells > std::uint64_t(std::numeric_limits<std::size_t>::max()))
			throw Error(ErrorKind::LimitExceeded, "cell grid exceeds " + std::to_string(cell_limit) + " cells",
			            "The product of the axes' bin counts is larger than the limit.",
			            "Use fewer or coarser axes, or have a superuser raise pap_release.max_cells.");
	}
	cell_count_ = std::size_t(cells);
}

std::size_t
CellGrid::IndexOf(const std::vector<std::int32_t> &coordinates) const
{
	if (coordinates.size() != radices_.size())
		throw Error(ErrorKind::Internal, "cell coordinates do not match the grid's axes");
	std::size_t index = 0;
	for (std::size_t a = 0; a < radices_.size(); a++) {
		if (coordinates[a] < 0 || coordinates[a] >= radices_[a])
			throw Error(ErrorKind::Internal, "cell coordinate outside its axis");
		index += std::size_t(coordinates[a]) * strides_[a];
	}
	return index;
}

void
CellGrid::CoordinatesOf(std::size_t index, std::vector<std::int32_t> &coordinates) const
{
	if (index >= cell_count_)
		throw Error(ErrorKind::Internal, "cell index outside the grid");
	coordinates.resize(radices_.size());
	for (std::size_t a = 0; a < radices_.size(); a++) {
		coordinates[a] = std::int32_t(index / strides_[a]);
		index %= strides_[a];
	}
}

std::vector<std::int32_t>
CellGrid::CoordinatesOf(std::size_t index) const
{
	std::vector<std::int32_t> coordinates;
	CoordinatesOf(index, coordinates);
	return coordinates;
}

}  // namespace pap::core
