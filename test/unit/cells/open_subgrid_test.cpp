// OpenSubgrid: the open bins per axis of a mask ClosedCells makes (a closed bin closes every cell holding it),
// the open cells in row-major order against a brute-force decoding, Restrict and Embed, and the masks it refuses.
#include "core/cells/open_subgrid.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"

namespace pap::core {
namespace {

// The mask of a grid where the listed bins (axis, bin) are closed: a cell is closed when any coordinate is.
std::vector<bool>
MaskClosing(const std::vector<std::int32_t> &radices, const std::vector<std::pair<std::size_t, std::int32_t>> &bins)
{
	std::size_t cells = 1;
	for (std::int32_t r : radices)
		cells *= std::size_t(r);
	std::vector<bool> closed(cells, false);
	for (std::size_t cell = 0; cell < cells; cell++) {
		std::size_t rest = cell;
		for (std::size_t a = radices.size(); a-- > 0;) {
			const std::int32_t coordinate = std::int32_t(rest % std::size_t(radices[a]));
			rest /= std::size_t(radices[a]);
			for (const auto &[axis, bin] : bins)
				if (axis == a && bin == coordinate)
					closed[cell] = true;
		}
	}
	return closed;
}

TEST(OpenSubgrid, IsTheProductOfEachAxissOpenBins)
{
	const std::vector<std::int32_t> radices{3, 4, 2};
	const std::vector<bool> closed = MaskClosing(radices, {{0, 2}, {2, 1}, {1, 0}});
	const OpenSubgrid open(radices, closed);
	EXPECT_EQ(open.radices(), (std::vector<std::int32_t>{2, 3, 1}));
	ASSERT_EQ(open.size(), 6u);
	std::vector<std::size_t> expected;
	for (std::size_t cell = 0; cell < closed.size(); cell++)
		if (!closed[cell])
			expected.push_back(cell);
	EXPECT_EQ(open.cells(), expected);

	std::vector<double> values(closed.size());
	for (std::size_t i = 0; i < values.size(); i++)
		values[i] = double(i) + 0.5;
	const std::vector<double> restricted = open.Restrict(values);
	ASSERT_EQ(restricted.size(), 6u);
	const std::vector<double> back = open.Embed(restricted);
	for (std::size_t cell = 0; cell < closed.size(); cell++)
		EXPECT_EQ(back[cell], closed[cell] ? 0.0 : values[cell]) << cell;
}

TEST(OpenSubgrid, WithoutClosedCellsIsTheGrid)
{
	const std::vector<std::int32_t> radices{2, 3};
	const OpenSubgrid open(radices, std::vector<bool>(6, false));
	EXPECT_EQ(open.radices(), radices);
	EXPECT_EQ(open.cells(), (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
	const std::vector<std::int64_t> counts{1, 2, 3, 4, 5, 6};
	EXPECT_EQ(open.Restrict(counts), counts);
}

TEST(OpenSubgrid, RefusesAMaskThatIsNotAProductOrHasNoOpenCell)
{
	const std::vector<std::int32_t> radices{2, 3};
	std::vector<bool> one(6, false);
	one[4] = true;  // one cell alone: its bins are open in other cells
	EXPECT_PAP_ERROR(ErrorKind::Internal, OpenSubgrid(radices, one));
	EXPECT_PAP_ERROR(ErrorKind::Internal, OpenSubgrid(radices, std::vector<bool>(6, true)));
	EXPECT_PAP_ERROR(ErrorKind::Internal, OpenSubgrid(radices, std::vector<bool>(5, false)));
	EXPECT_PAP_ERROR(ErrorKind::Internal, OpenSubgrid({2, 0}, std::vector<bool>()));
	const OpenSubgrid open(radices, MaskClosing(radices, {{1, 1}}));
	EXPECT_PAP_ERROR(ErrorKind::Internal, open.Restrict(std::vector<double>(5, 0.0)));
	EXPECT_PAP_ERROR(ErrorKind::Internal, open.Embed(std::vector<double>(6, 0.0)));
}

}  // namespace
}  // namespace pap::core
