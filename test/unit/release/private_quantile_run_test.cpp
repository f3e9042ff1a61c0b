// A private quantile run from the glue (api/release_api.hpp, RunPrivateQuantile): the declared candidates, the
// scan's bins folded into the counts SamplePrivateQuantile ranks (NULL and above-the-grid bins above every
// candidate), and the interior-point guard rail at its bound.
#include "core/api/release_api.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"
#include "core/mechanisms/private_quantile.hpp"

namespace pap::core {
namespace {

// Every block handed out, freed when the test program exits (before the leak sanitizer's check, which runs after
// the destructors of static objects): a test allocates a few arrays and strings.
struct Blocks {
	std::vector<void *> held;
	~Blocks()
	{
		for (void *block : held)
			std::free(block);
	}
};

void *
Allocate(std::size_t bytes)
{
	static Blocks blocks;
	blocks.held.push_back(std::malloc(bytes));
	return blocks.held.back();
}

TEST(PrivateQuantileRun, CandidatesAreTheDeclaredGrid)
{
	std::size_t count = 0;
	const double *c = PrivateQuantileCandidates({"v", 0.0, 10.0, 2.5, 1000}, &count, Allocate);
	ASSERT_EQ(count, 5U);
	EXPECT_DOUBLE_EQ(c[0], 0.0);
	EXPECT_DOUBLE_EQ(c[4], 10.0);
	EXPECT_THROW(PrivateQuantileCandidates({"v", 10.0, 0.0, 1.0, 1000}, &count, Allocate), Error);
	EXPECT_THROW(PrivateQuantileCandidates({"v", 0.0, INFINITY, 1.0, 1000}, &count, Allocate), Error);
	EXPECT_THROW(PrivateQuantileCandidates({"v", 0.0, 10.0, 0.0, 1000}, &count, Allocate), Error);
	EXPECT_THROW(PrivateQuantileCandidates({"v", 0.0, 1e6, 1.0, 1000}, &count, Allocate), Error);
}

TEST(PrivateQuantileRun, AtMostTwoToTheEighteenMinusTwoCandidatesWhateverMaxCells)
{
	std::size_t count = 0;
	const double *c =
	    PrivateQuantileCandidates({"v", 0.0, double(kMaxQuantileCandidates - 1), 1.0, 10000000}, &count, Allocate);
	EXPECT_EQ(count, kMaxQuantileCandidates);
	EXPECT_EQ(c[count - 1], double(kMaxQuantileCandidates - 1));
	try {
		PrivateQuantileCandidates({"v", 0.0, double(kMaxQuantileCandidates), 1.0, 10000000}, &count, Allocate);
		ADD_FAILURE() << "one candidate more was accepted";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
		EXPECT_NE(e.hint().find("ranks at most 262142 values"), std::string::npos) << e.hint();
	}
	try {  // max_cells below it: max_cells' own hint
		PrivateQuantileCandidates({"v", 0.0, 1000.0, 1.0, 1000}, &count, Allocate);
		ADD_FAILURE() << "1001 candidates accepted at max_cells 1000";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::LimitExceeded);
		EXPECT_NE(e.hint().find("raise pap_release.max_cells"), std::string::npos) << e.hint();
	}
}

TEST(PrivateQuantileRun, SelectListCountsInOneAggregateOfKPlusTwoBins)
{
	// pap.grid_counts bins the column among the K candidates as pap.cell_index does (K + 1 for NULL): one
	// aggregate, no GROUP BY, whose state never spills to temporary files.
	EXPECT_STREQ(PrivateQuantileScanSelectList("my col", 5, Allocate),
	             "pap.grid_counts('{7}'::pg_catalog.int8[], $1, \"my col\"), '{7}'::pg_catalog.int8[]");
}

TEST(PrivateQuantileRun, FoldsBinsLikeTheMechanismsCounts)
{
	// Three candidates; bin 3 (above the max) counts at the max, bin 4 (NULL) ranks above every candidate.
	const std::vector<std::int32_t> bins = {0, 2, 3, 4};
	const std::vector<std::int64_t> rows = {5, 7, 2, 1};
	for (std::int64_t seed = 0; seed < 20; seed++) {
		PrivateQuantileRun run{3, bins.data(), rows.data(), bins.size(), 0.5, 0.7, seed, nullptr, nullptr};
		SeededRandomSource rng{std::uint64_t(seed)};
		EXPECT_EQ(RunPrivateQuantile(run), SamplePrivateQuantile({5, 0, 9}, 1, 0.5, 0.7, rng));
	}
	// Every row above the max: the max, not a uniform draw over the domain (at a large epsilon).
	const std::vector<std::int32_t> above = {3};
	const std::vector<std::int64_t> many = {1000};
	for (std::int64_t seed = 0; seed < 5; seed++) {
		PrivateQuantileRun run{3, above.data(), many.data(), 1, 0.5, 50, seed, nullptr, nullptr};
		EXPECT_EQ(RunPrivateQuantile(run), 2U);
	}
	const std::vector<std::int32_t> bad = {5};
	PrivateQuantileRun run{3, bad.data(), rows.data(), 1, 0.5, 0.7, 1, nullptr, nullptr};
	EXPECT_THROW(RunPrivateQuantile(run), Error);
}

TEST(PrivateQuantileRun, ExtremeEpsilonsStayExactAndFinish)
{
	// The largest epsilon SQL accepts (1e300) selects the true quantile; the smallest (1e-9) is near uniform.
	const std::vector<std::int32_t> bins = {0, 1, 2, 3};
	const std::vector<std::int64_t> rows = {1000, 1000, 1000, 5};
	for (std::int64_t seed = 0; seed < 5; seed++) {
		PrivateQuantileRun top{3, bins.data(), rows.data(), bins.size(), 0.5, 1e300, seed, nullptr, nullptr};
		EXPECT_EQ(RunPrivateQuantile(top), 1U);
		PrivateQuantileRun low{3, bins.data(), rows.data(), bins.size(), 0.5, 1e-9, seed, nullptr, nullptr};
		EXPECT_LT(RunPrivateQuantile(low), 3U);
	}
}

TEST(PrivateQuantileRun, GuardRailWarnsBelowTheInteriorPointBound)
{
	const double needed = 4.0 / 0.5 * std::log(101.0 / 0.05);  // 60.9
	GuardRailWarning out[1];
	EXPECT_EQ(PrivateQuantileGuardRails(60, 101, 0.5, 0.05, out, Allocate), 1U);
	EXPECT_NE(std::string(out[0].message).find("60 rows, fewer than the 61"), std::string::npos) << out[0].message;
	EXPECT_EQ(PrivateQuantileGuardRails(std::int64_t(std::ceil(needed)), 101, 0.5, 0.05, out, Allocate), 0U);
	EXPECT_THROW(PrivateQuantileGuardRails(60, 101, 0.5, 1.0, out, Allocate), Error);
}

}  // namespace
}  // namespace pap::core
