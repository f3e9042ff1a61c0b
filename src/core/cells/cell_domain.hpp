// The representative cells X~ of a release (docs/architecture.md step 3) over axes given by their radices (bin counts):
//   Dense:   the full product grid (CellGrid order: first axis most significant), when it has at most cell_limit
//            cells.
//   Support: the distinct grid points that hold at least one public row ("public support", as in PMW^Pub),
//            sorted lexicographically, plus ONE "outside" cell (the last) that stands for every other grid point.
//            The outside cell lies in no constrained query (its bins are unknown) and in the query TRUE; it
//            collects the private rows outside the support so the domain histogram still sums to n. True answers
//            must therefore be computed from the private rows' grid points (ProductWorkload over the private
//            cells), never from the domain histogram.
// A cell list without an outside cell (Explicit) serves to evaluate queries over the private grid points.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pap::core {

enum class DomainKind { Dense, Support, Explicit };

// The full grid's size over these radices, as a double: the grid may have more cells than any integer type holds.
double GridSizeOf(const std::vector<std::int32_t> &radices);

class CellDomain {
public:
	// Error(LimitExceeded) when the grid has more than cell_limit cells. Error(Internal) for a radix < 1.
	static CellDomain Dense(std::vector<std::int32_t> radices, std::uint64_t cell_limit);
	// points: grid points, flat (point i, axis a at i * radices.size() + a), any order, duplicates allowed; kept
	// distinct and sorted. Support adds the outside cell; Error(LimitExceeded) when the distinct points plus it
	// exceed cell_limit. Error(Internal) for a coordinate outside its radix, a radix < 1, no axes, or a points
	// array that is not a whole number of points. O(n log n) for n points; never allocates the grid.
	static CellDomain Support(std::vector<std::int32_t> radices, const std::vector<std::int32_t> &points,
	                          std::uint64_t cell_limit);
	static CellDomain Explicit(std::vector<std::int32_t> radices, const std::vector<std::int32_t> &points);
	// Dense when the full grid fits cell_limit, else Support over the public points (Error(LimitExceeded) with a
	// hint when even that does not fit). reason() says why, in a sentence naming pap_release.max_cells (the
	// caller passes that setting as cell_limit). The grid's size is computed as a double: it may overflow 64 bits.
	static CellDomain Choose(std::vector<std::int32_t> radices, const std::vector<std::int32_t> &public_points,
	                         std::uint64_t cell_limit);

	DomainKind
	kind() const
	{
		return kind_;
	}
	const std::vector<std::int32_t> &
	radices() const
	{
		return radices_;
	}
	std::size_t
	AxisCount() const
	{
		return radices_.size();
	}
	std::size_t
	CellCount() const
	{
		return cell_count_;
	}
	// The full grid's size as a double (it may not fit an integer).
	double GridSize() const;
	bool
	HasOutsideCell() const
	{
		return kind_ == DomainKind::Support;
	}
	std::size_t
	OutsideCell() const
	{
		return cell_count_ - 1;
	}  // Support only
	const std::string &
	reason() const
	{
		return reason_;
	}

	// The cell of a grid point (AxisCount() coordinates): Dense its grid index; Support its point, or the outside
	// cell; Explicit its point, or CellCount() when absent. Error(Internal) for a coordinate outside its radix.
	std::size_t CellOf(const std::int32_t *coordinates) const;
	// Writes the coordinates of cell; false (nothing written) for the outside cell. Error(Internal) out of range.
	bool CoordinatesOf(std::size_t cell, std::int32_t *coordinates) const;
	// Support/Explicit: the stored points, flat, sorted. Empty for Dense.
	const std::vector<std::int32_t> &
	points() const
	{
		return points_;
	}

private:
	// Validates radices (>= 1) and points (inside their radices), keeps the distinct points sorted
	// lexicographically (first axis most significant, the Dense order). No limit check.
	static CellDomain Sparse(DomainKind kind, std::vector<std::int32_t> radices,
	                         const std::vector<std::int32_t> &points);
	// Index of point (AxisCount() coordinates) among points_, or the number of points when absent.
	std::size_t FindPoint(const std::int32_t *coordinates) const;
	std::size_t
	PointCount() const
	{
		return radices_.empty() ? 0 : points_.size() / radices_.size();
	}

	DomainKind kind_ = DomainKind::Dense;
	std::vector<std::int32_t> radices_;
	std::vector<std::size_t> strides_;  // Dense
	std::vector<std::int32_t> points_;  // Support, Explicit
	std::size_t cell_count_ = 0;
	std::string reason_;
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
