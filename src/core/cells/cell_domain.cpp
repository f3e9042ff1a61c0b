#include "core/cells/cell_domain.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/cells/cell_grid.hpp"

namespace pap::core {

namespace {

const char *const kCellHint = "Release fewer columns, or a larger alpha for coarser numeric axes, or have a "
                              "superuser raise pap_release.max_cells.";

void
CheckRadices(const std::vector<std::int32_t> &radices)
{
	for (std::int32_t r : radices)
		if (r < 1)
			throw Error(ErrorKind::Internal, "cell grid axis has no bins");
}

// Exact below a billion (the sizes users compare with the limit), two significant digits above.
std::string
CellCountText(double cells)
{
	char buffer[64];
	if (cells < 1e9)
		std::snprintf(buffer, sizeof buffer, "%.0f", cells);
	else
		std::snprintf(buffer, sizeof buffer, "%.2g", cells);
	return buffer;
}

bool
Fits(double cells, std::uint64_t cell_limit)
{
	// Both sides as doubles: a limit near 2^64 rounds, but then no grid that fits a size_t exceeds it anyway.
	return cells <= double(cell_limit) && cells <= double(std::numeric_limits<std::size_t>::max()) / 2;
}

}  // namespace

double
GridSizeOf(const std::vector<std::int32_t> &radices)
{
	double size = 1.0;
	for (std::int32_t r : radices)
		size *= double(r);
	return size;
}

double
CellDomain::GridSize() const
{
	return GridSizeOf(radices_);
}

CellDomain
CellDomain::Dense(std::vector<std::int32_t> radices, std::uint64_t cell_limit)
{
	CheckRadices(radices);
	const double size = GridSizeOf(radices);
	if (!Fits(size, cell_limit))
		throw Error(ErrorKind::LimitExceeded, "too many representative cells",
		            "The full grid of " + CellCountText(size) + " cells exceeds the limit of " +
		                std::to_string(cell_limit) + " cells.",
		            kCellHint);
	// CellGrid owns the row-major layout; the domain keeps its strides for CellOf and CoordinatesOf.
	const CellGrid grid(radices, cell_limit);
	CellDomain domain;
	domain.kind_ = DomainKind::Dense;
	domain.radices_ = std::move(radices);
	domain.strides_.resize(grid.AxisCount());
	for (std::size_t a = 0; a < grid.AxisCount(); a++)
		domain.strides_[a] = grid.Stride(a);
	domain.cell_count_ = grid.CellCount();
	return domain;
}

CellDomain
CellDomain::Sparse(DomainKind kind, std::vector<std::int32_t> radices, const std::vector<std::int32_t> &points)
{
	CheckRadices(radices);
	const std::size_t d = radices.size();
	if (d == 0)
		throw Error(ErrorKind::Internal, "a sparse cell domain needs at least one axis");
	if (points.size() % d != 0)
		throw Error(ErrorKind::Internal, "grid points do not have one coordinate per axis");
	const std::size_t n = points.size() / d;
	PollInterruptNow();  // the sort below is O(n log n); the passes over the points poll
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < points.size(); i++) {
		PollInterrupt(steps);
		if (points[i] < 0 || points[i] >= radices[i % d])
			throw Error(ErrorKind::Internal, "cell coordinate outside its axis");
	}
	// Sort point indexes, not the points: memory stays one index per point next to the caller's array.
	std::vector<std::size_t> order(n);
	std::iota(order.begin(), order.end(), std::size_t(0));
	const std::int32_t *flat = points.data();
	const auto less = [&](std::size_t x, std::size_t y) {
		return std::lexicographical_compare(flat + x * d, flat + x * d + d, flat + y * d, flat + y * d + d);
	};
	const auto equal = [&](std::size_t x, std::size_t y) {
		return std::equal(flat + x * d, flat + x * d + d, flat + y * d);
	};
	std::sort(order.begin(), order.end(), less);
	order.erase(std::unique(order.begin(), order.end(), equal), order.end());

	CellDomain domain;
	domain.kind_ = kind;
	domain.radices_ = std::move(radices);
	domain.points_.reserve(order.size() * d);
	for (std::size_t i : order)
		domain.points_.insert(domain.points_.end(), flat + i * d, flat + i * d + d);
	domain.cell_count_ = order.size() + (kind == DomainKind::Support ? 1 : 0);
	return domain;
}

CellDomain
CellDomain::Support(std::vector<std::int32_t> radices, const std::vector<std::int32_t> &points,
                    std::uint64_t cell_limit)
{
	CellDomain domain = Sparse(DomainKind::Support, std::move(radices), points);
	if (std::uint64_t(domain.cell_count_) > cell_limit)
		throw Error(ErrorKind::LimitExceeded, "too many representative cells",
		            "The " + std::to_string(domain.PointCount()) +
		                " grid points holding public rows plus one outside cell exceed the limit of " +
		                std::to_string(cell_limit) + " cells.",
		            kCellHint);
	return domain;
}

CellDomain
CellDomain::Explicit(std::vector<std::int32_t> radices, const std::vector<std::int32_t> &points)
{
	return Sparse(DomainKind::Explicit, std::move(radices), points);
}

CellDomain
CellDomain::Choose(std::vector<std::int32_t> radices, const std::vector<std::int32_t> &public_points,
                   std::uint64_t cell_limit)
{
	CheckRadices(radices);
	const double size = GridSizeOf(radices);
	const std::string limit_text = "pap_release.max_cells (" + std::to_string(cell_limit) + ")";
	// No axes: the single cell either fits or nothing does (there is no support to fall back on).
	if (Fits(size, cell_limit) || radices.empty()) {
		CellDomain domain = Dense(std::move(radices), cell_limit);
		domain.reason_ = "The full grid of " + CellCountText(size) + " cells fits " + limit_text + ".";
		return domain;
	}
	CellDomain domain = Sparse(DomainKind::Support, std::move(radices), public_points);
	const std::string points_text = std::to_string(domain.PointCount()) + " grid points holding public rows";
	if (std::uint64_t(domain.cell_count_) > cell_limit)
		throw Error(ErrorKind::LimitExceeded, "too many representative cells",
		            "The full grid of " + CellCountText(size) + " cells and even the " + points_text +
		                " plus one outside cell exceed " + limit_text + ".",
		            kCellHint);
	domain.reason_ = "The full grid of " + CellCountText(size) + " cells exceeds " + limit_text +
	                 "; the domain is the " + points_text + " plus one outside cell.";
	return domain;
}

std::size_t
CellDomain::FindPoint(const std::int32_t *coordinates) const
{
	const std::size_t d = radices_.size();
	const std::int32_t *flat = points_.data();
	std::size_t lo = 0, hi = PointCount();
	while (lo < hi) {
		const std::size_t mid = lo + (hi - lo) / 2;
		if (std::lexicographical_compare(flat + mid * d, flat + mid * d + d, coordinates, coordinates + d))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < PointCount() && std::equal(coordinates, coordinates + d, flat + lo * d))
		return lo;
	return PointCount();
}

std::size_t
CellDomain::CellOf(const std::int32_t *coordinates) const
{
	for (std::size_t a = 0; a < radices_.size(); a++)
		if (coordinates[a] < 0 || coordinates[a] >= radices_[a])
			throw Error(ErrorKind::Internal, "cell coordinate outside its axis");
	if (kind_ == DomainKind::Dense) {
		std::size_t index = 0;
		for (std::size_t a = 0; a < radices_.size(); a++)
			index += std::size_t(coordinates[a]) * strides_[a];
		return index;
	}
	// Support: an absent point is the outside cell, which is PointCount(); Explicit: CellCount(), the same number.
	return FindPoint(coordinates);
}

bool
CellDomain::CoordinatesOf(std::size_t cell, std::int32_t *coordinates) const
{
	if (cell >= cell_count_)
		throw Error(ErrorKind::Internal, "cell index outside the domain");
	const std::size_t d = radices_.size();
	if (kind_ == DomainKind::Dense) {
		for (std::size_t a = 0; a < d; a++) {
			coordinates[a] = std::int32_t(cell / strides_[a]);
			cell %= strides_[a];
		}
		return true;
	}
	if (cell == PointCount())
		return false;  // the outside cell
	std::memcpy(coordinates, points_.data() + cell * d, d * sizeof(std::int32_t));
	return true;
}

}  // namespace pap::core
