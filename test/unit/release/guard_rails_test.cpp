// The guard rails (api/release_api.hpp GuardRails): each lower bound warns exactly when the request is below it,
// with the numbers in the message, and says nothing at or above it.
#include "core/api/release_api.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/base/errors.hpp"

namespace pap::core {
namespace {

void *
Allocate(std::size_t bytes)
{
	return std::malloc(bytes);  // Messages frees every string it was given
}

std::vector<std::string>
Messages(const GuardRailRequest &request)
{
	GuardRailWarning out[kMaxGuardRails];
	const std::size_t k = GuardRails(request, out, Allocate);
	std::vector<std::string> messages;
	for (std::size_t i = 0; i < k; i++) {
		messages.emplace_back(out[i].message);
		std::free(out[i].message);
		std::free(out[i].detail);
		std::free(out[i].hint);
	}
	return messages;
}

GuardRailRequest
Request(const char *cls, std::int64_t public_rows, std::int64_t private_rows)
{
	GuardRailRequest r{};
	r.query_class = cls;
	r.vc_dimension = 1;
	r.public_rows = public_rows;
	r.private_rows = private_rows;
	r.alpha = 0.05;
	r.beta = 0.05;
	return r;
}

TEST(GuardRails, PublicTableSmallerThanItsCoverNeeds)
{
	// (1 ln 20 + ln 20) / 0.05 = 119.8: 119 rows warn, 120 do not.
	const std::vector<std::string> below = Messages(Request("thresholds(x)", 119, 1000));
	ASSERT_EQ(below.size(), 1u);
	EXPECT_EQ(below[0], "the public table has 119 rows, fewer than the 120 its cover needs at alpha 0.05");
	EXPECT_TRUE(Messages(Request("thresholds(x)", 120, 1000)).empty());
}

TEST(GuardRails, DecisionStumpsNeedSqrtPOverAlphaPrivateRowsUnlessThePublicTableIsHuge)
{
	// p = 4: sqrt(4) / 0.05 = 40 private rows, unless 1 / 0.05^2 = 400 public rows.
	const std::vector<std::string> below = Messages(Request("stumps(a, b, c, d)", 399, 39));
	ASSERT_EQ(below.size(), 1u);
	EXPECT_NE(below[0].find("39 rows, fewer than the 40"), std::string::npos);
	EXPECT_TRUE(Messages(Request("stumps(a, b, c, d)", 399, 40)).empty());
	EXPECT_TRUE(Messages(Request("stumps(a, b, c, d)", 400, 39)).empty());
	EXPECT_TRUE(Messages(Request("stumps(a, b, c, d)", 399, -1)).empty());  // n unknown at definition
}

TEST(GuardRails, PrivateOnlyReleasesNeedLogDomainOverEpsilonAlphaRows)
{
	GuardRailRequest r = Request("thresholds(x)", 0, 0);
	r.domain_size = 1000;
	r.epsilon = 1.0;
	// (ln 1000 + ln 20) / (1 x 0.05) = 198.06
	r.private_rows = 198;
	ASSERT_EQ(Messages(r).size(), 1u);
	EXPECT_NE(Messages(r)[0].find("198 rows, fewer than the 199"), std::string::npos);
	r.private_rows = 199;
	EXPECT_TRUE(Messages(r).empty());
	r.private_rows = 10, r.epsilon = 0;  // epsilon unknown at definition
	EXPECT_TRUE(Messages(r).empty());
}

TEST(GuardRails, RefusesAccuracyOutsideItsRange)
{
	GuardRailRequest r = Request("thresholds(x)", 10, 10);
	r.alpha = 0;
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, Messages(r));
}

}  // namespace
}  // namespace pap::core
