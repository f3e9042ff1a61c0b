// A release over a declared domain (declared_domain.hpp and the draft's declaration, api/release_api.hpp): the
// grid of an ordered column, its refusals at the extremes, and a draft driven in the glue's order
// (src/pg/fmgr_define.cpp DeclareDomain) whose cuts are the declared values, whose domain is the full grid with one
// weight per declared point, and which counts no public row.
#include "core/release/declared_domain.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "core/api/release_api.hpp"
#include "core/base/errors.hpp"

namespace pap::core {
namespace {

TEST(DeclaredGrid, ValuesFromLowToHighByStep)
{
	EXPECT_EQ(DeclaredGrid("v", 0, 4, 1, 100), (std::vector<double>{0, 1, 2, 3, 4}));
	EXPECT_EQ(DeclaredGrid("v", 0, 1, 0.4, 100), (std::vector<double>{0, 0.4, 0.8}));  // the last at most high
	EXPECT_EQ(DeclaredGrid("v", -3, -3, 1, 100), (std::vector<double>{-3}));           // one value
	EXPECT_EQ(DeclaredGrid("v", 0, 99, 1, 100).size(), 100u);                          // exactly the limit
}

// Decimal steps: the values are the doubles nearest the decimals a curator declared (what a column's 0.3 reads as),
// not float8's low + k step (0.30000000000000004), and max is a value when it lies on the grid.
TEST(DeclaredGrid, DecimalStepsGiveTheDeclaredDecimals)
{
	EXPECT_EQ(DeclaredGrid("v", 0, 0.3, 0.1, 100), (std::vector<double>{0, 0.1, 0.2, 0.3}));
	const std::vector<double> tenths = DeclaredGrid("v", 0, 1, 0.1, 100);
	ASSERT_EQ(tenths.size(), 11u);
	for (std::size_t k = 0; k < tenths.size(); k++)
		EXPECT_EQ(tenths[k], std::strtod(k == 10 ? "1" : ("0." + std::to_string(k)).c_str(), nullptr)) << k;
	EXPECT_EQ(DeclaredGrid("v", 0.05, 0.35, 0.1, 100), (std::vector<double>{0.05, 0.15, 0.25, 0.35}));
	EXPECT_EQ(DeclaredGrid("v", 1, 2, 0.25, 100), (std::vector<double>{1, 1.25, 1.5, 1.75, 2}));
}

TEST(DeclaredGrid, RefusesUnboundedMalformedAndHugeDomains)
{
	const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
	for (double bad : {inf, -inf, nan}) {
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, DeclaredGrid("v", bad, 1, 1, 100));
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, DeclaredGrid("v", 0, bad, 1, 100));
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, DeclaredGrid("v", 0, 1, bad, 100));
	}
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, DeclaredGrid("v", 0, 1, 0, 100));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, DeclaredGrid("v", 0, 1, -1, 100));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, DeclaredGrid("v", 2, 1, 1, 100));
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, DeclaredGrid("v", 0, 100, 1, 100));  // 101 values
	// Bounds far apart: (high - low) / step overflows to infinity, refused before anything is allocated.
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, DeclaredGrid("v", -1e308, 1e308, 1e-300, 1000));
	// A step below float8's resolution at the bounds cannot tell the values apart.
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, DeclaredGrid("v", 1e16, 1e16 + 8, 0.5, 100));
}

TEST(DeclaredGrid, TheUnboundedRefusalSaysWhy)
{
	const Error e = UnboundedDomainError("price");
	EXPECT_EQ(e.kind(), ErrorKind::InvalidParameter);
	EXPECT_NE(std::string(e.what()).find("\"price\""), std::string::npos);
	EXPECT_NE(e.detail().find("no differentially private algorithm"), std::string::npos);
	EXPECT_NE(e.hint().find("pap.define_release"), std::string::npos);
}

TEST(DeclaredDomainDraft, CutsAreTheDeclaredValuesOnAFullGrid)
{
	ReleaseDraft *draft = BeginReleaseDraft("ranges(v)", 0.1, Granularity::Finest);
	DraftRequireDeclarable(draft);
	DraftSetColumnType(draft, 0, ValueType::Number, "double precision");
	ASSERT_EQ(DraftAxisCount(draft), 1u);
	DraftDeclareNumericDomain(draft, 0, 10, 14, 1, 1000);
	DraftDeclareFullGrid(draft, 1000, 1000000);
	const CatalogLayout layout = DraftCatalogLayout(draft);
	const DraftSummary summary = DraftSummaryOf(draft);
	EXPECT_TRUE(DraftIsDeclared(draft));
	EXPECT_EQ(std::vector<double>(layout.cuts, layout.cuts + layout.cut_counts[0]),
	          (std::vector<double>{10, 11, 12, 13, 14}));
	EXPECT_STREQ(layout.domain, "full grid");
	EXPECT_EQ(summary.public_rows, 0);  // no public table
	ASSERT_EQ(summary.cell_count, 7);   // 5 values, the bin above, NULL
	const std::vector<std::int64_t> weights(summary.public_histogram, summary.public_histogram + 7);
	EXPECT_EQ(weights, (std::vector<std::int64_t>{1, 1, 1, 1, 1, 0, 0}));
	FreeReleaseDraft(draft);
}

TEST(DeclaredDomainDraft, CategoriesAndRefusals)
{
	ReleaseDraft *draft = BeginReleaseDraft("marginals(2; c, flag)", 0.1, Granularity::Finest);
	DraftSetColumnType(draft, 0, ValueType::Text, "text");
	DraftSetColumnType(draft, 1, ValueType::Boolean, "boolean");
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, DraftDeclareNumericDomain(draft, 0, 0, 1, 1, 100));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, DraftDeclareCategories(draft, 0, nullptr, 0));
	const char *const categories[] = {"b", "a", "b"};
	DraftDeclareCategories(draft, 0, categories, 3);
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, DraftDeclareFullGrid(draft, 3, 1000000));  // 4 points, more cells
	FreeReleaseDraft(draft);
	draft = BeginReleaseDraft("marginals(2; c, flag)", 0.1, Granularity::Finest);
	DraftSetColumnType(draft, 0, ValueType::Text, "text");
	DraftSetColumnType(draft, 1, ValueType::Boolean, "boolean");
	DraftDeclareCategories(draft, 0, categories, 3);
	DraftDeclareFullGrid(draft, 1000, 1000000);
	const DraftSummary summary = DraftSummaryOf(draft);
	const std::int64_t weight =
	    std::accumulate(summary.public_histogram, summary.public_histogram + summary.cell_count, std::int64_t(0));
	EXPECT_EQ(weight, 4);  // {a, b} x {false, true}
	FreeReleaseDraft(draft);

	for (const char *cls : {"halfspaces(x, y; [1, 1])", "predicates('x > 1')"}) {
		ReleaseDraft *d = BeginReleaseDraft(cls, 0.1, Granularity::Finest);
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, DraftRequireDeclarable(d));
		FreeReleaseDraft(d);
	}
}

}  // namespace
}  // namespace pap::core
