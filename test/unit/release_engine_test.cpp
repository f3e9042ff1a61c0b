// End-to-end tests through the facade the PostgreSQL glue calls (src/core/release_engine.hpp), with a malloc-based
// Allocate: define a release from a public sample, run it with seeded noise (reproducible, seed-dependent), load
// the released model and answer queries from it.
#include "core/release_engine.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/errors.hpp"
#include "test_support.hpp"

namespace pap::core {
namespace {

// Every block handed out, freed at the end of each test.
std::vector<void *> g_blocks;

void *
TestAllocate(std::size_t bytes)
{
	void *p = std::malloc(bytes);
	if (p != nullptr)
		g_blocks.push_back(p);
	return p;
}

void *
FailingAllocate(std::size_t)
{
	return nullptr;
}

class ReleaseEngine : public ::testing::Test {
protected:
	void TearDown() override
	{
		for (void *p : g_blocks)
			std::free(p);
		g_blocks.clear();
	}

	// Public sample: integers 0..49 with varying multiplicity, and some NULLs.
	void DefinePublic(const char *class_text)
	{
		class_text_ = class_text;
		values_.clear();
		counts_.clear();
		for (int v = 49; v >= 0; v--) {  // any order
			values_.push_back(double(v));
			counts_.push_back(1 + (v * 7) % 5);
		}
		defined_ = BuildDefinedRelease(class_text, values_.data(), counts_.data(), values_.size(), 3, 100000,
		                               TestAllocate);
	}

	// Private histogram over the defined cells: a distribution shifted against the public one, so that PMW has
	// to update.
	std::vector<std::int64_t> PrivateHistogram() const
	{
		std::vector<std::int64_t> h(defined_.cell_count, 0);
		for (std::size_t cell = 0; cell < 50; cell++)
			h[cell] = std::int64_t(cell < 15 ? 6000 : 200);
		h[defined_.cell_count - 1] = 500;  // NULLs
		return h;
	}

	RunRequest Request(const std::vector<std::int64_t> &histogram, std::int64_t seed) const
	{
		RunRequest r{};
		r.plan.class_text = class_text_;
		r.plan.cover_size = defined_.cover_size;
		r.plan.cell_count = std::int64_t(defined_.cell_count);
		r.plan.public_rows = defined_.public_rows;
		r.plan.private_rows = 0;  // RunRelease counts them itself
		r.plan.epsilon = 4.0;
		r.plan.delta = 0.0;
		r.plan.alpha = 0.05;
		r.plan.beta = 0.05;
		r.plan.mechanism = "pmw";
		r.plan.prior = "public";
		r.cuts = defined_.cuts;
		r.cut_count = defined_.cut_count;
		r.public_histogram = defined_.public_histogram;
		r.private_histogram = histogram.data();
		r.seed = seed;
		r.fill_secure = FillFromOperatingSystem;
		r.interrupted = nullptr;
		return r;
	}

	const char *class_text_ = nullptr;
	std::vector<double> values_;
	std::vector<std::int64_t> counts_;
	DefinedRelease defined_{};
};

TEST_F(ReleaseEngine, BuildDefinedRelease)
{
	DefinePublic("thresholds(price)");
	ASSERT_EQ(defined_.cut_count, 50u);
	for (std::size_t i = 0; i < 50; i++)
		EXPECT_EQ(defined_.cuts[i], double(i));
	EXPECT_EQ(defined_.cell_count, 52u);  // 51 ordered bins + NULL
	EXPECT_EQ(defined_.cover_size, 51);
	std::int64_t rows = 3;
	for (std::int64_t c : counts_)
		rows += c;
	EXPECT_EQ(defined_.public_rows, rows);
	// Value v is the cut w_{v+1}: it lands in bin v. Bin 50 (above every value) is empty; NULLs last.
	for (int v = 0; v < 50; v++)
		EXPECT_EQ(defined_.public_histogram[v], 1 + (v * 7) % 5) << "bin " << v;
	EXPECT_EQ(defined_.public_histogram[50], 0);
	EXPECT_EQ(defined_.public_histogram[51], 3);

	DefinePublic("ranges(price)");
	EXPECT_EQ(defined_.cover_size, 50 * 51 / 2 + 1);
	EXPECT_EQ(defined_.cell_count, 52u);

	const double v[] = {1.0, 2.0};
	const std::int64_t c[] = {1, -1};
	EXPECT_PAP_ERROR(ErrorKind::Internal, BuildDefinedRelease("thresholds(x)", v, c, 2, 0, 100, TestAllocate));
	EXPECT_PAP_ERROR(ErrorKind::DataException, BuildDefinedRelease("thresholds(x)", v, c, 0, 5, 100, TestAllocate));
	EXPECT_PAP_ERROR(ErrorKind::LimitExceeded, BuildDefinedRelease("ranges(x)", v, c, 2, 0, 3, TestAllocate));
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, BuildDefinedRelease("boxes(x)", v, c, 2, 0, 100, TestAllocate));
	const std::int64_t ok[] = {1, 1};
	EXPECT_THROW(BuildDefinedRelease("thresholds(x)", v, ok, 2, 0, 100, FailingAllocate), std::bad_alloc);
}

TEST_F(ReleaseEngine, RunIsReproducibleForASeedAndDependsOnIt)
{
	for (const char *cls : {"thresholds(price)", "ranges(price)"}) {
		SCOPED_TRACE(cls);
		DefinePublic(cls);
		const std::vector<std::int64_t> histogram = PrivateHistogram();
		const RunSummary a = RunRelease(Request(histogram, 12345), TestAllocate);
		const RunSummary b = RunRelease(Request(histogram, 12345), TestAllocate);
		const RunSummary c = RunRelease(Request(histogram, 54321), TestAllocate);
		EXPECT_GT(a.updates, 0);
		EXPECT_GT(c.updates, 0);
		EXPECT_EQ(std::memcmp(a.synthetic, b.synthetic, defined_.cell_count * sizeof(double)), 0);
		EXPECT_EQ(a.updates, b.updates);
		EXPECT_EQ(a.comparisons, b.comparisons);
		EXPECT_NE(std::memcmp(a.synthetic, c.synthetic, defined_.cell_count * sizeof(double)), 0);
		for (const RunSummary *r : {&a, &c}) {
			double sum = 0;
			for (std::size_t i = 0; i < defined_.cell_count; i++) {
				EXPECT_GE(r->synthetic[i], 0.0);
				sum += r->synthetic[i];
			}
			EXPECT_NEAR(sum, 1.0, 1e-9);
			EXPECT_LE(r->updates, r->plan.cutoff);
			EXPECT_EQ(r->cutoff_reached, r->updates == r->plan.cutoff);
		}
		// The plan inside the run is MakePlan on the same request with n filled in.
		PlanRequest pr = Request(histogram, 0).plan;
		pr.private_rows = 0;
		for (std::int64_t h : histogram)
			pr.private_rows += h;
		const PlanSummary plan = MakePlan(pr);
		EXPECT_EQ(plan.cutoff, a.plan.cutoff);
		EXPECT_EQ(plan.threshold, a.plan.threshold);
		EXPECT_EQ(plan.noise_scales[0], a.plan.noise_scales[0]);
		EXPECT_EQ(plan.noise_scales[1], a.plan.noise_scales[1]);

		// A uniform start is another run: same seed, different prior, different output.
		RunRequest uniform = Request(histogram, 12345);
		uniform.plan.prior = "uniform";
		const RunSummary u = RunRelease(uniform, TestAllocate);
		EXPECT_NE(std::memcmp(a.synthetic, u.synthetic, defined_.cell_count * sizeof(double)), 0);

		// The secure source runs too (seed < 0).
		const RunSummary s = RunRelease(Request(histogram, -1), TestAllocate);
		double sum = 0;
		for (std::size_t i = 0; i < defined_.cell_count; i++)
			sum += s.synthetic[i];
		EXPECT_NEAR(sum, 1.0, 1e-9);
	}
}

TEST_F(ReleaseEngine, RunRejectsMismatchedRelease)
{
	DefinePublic("thresholds(price)");
	const std::vector<std::int64_t> histogram = PrivateHistogram();
	RunRequest r = Request(histogram, 1);
	r.plan.cell_count += 1;
	EXPECT_PAP_ERROR(ErrorKind::Internal, RunRelease(r, TestAllocate));
	r = Request(histogram, 1);
	r.plan.mechanism = "mwem";
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, RunRelease(r, TestAllocate));
	r = Request(histogram, 1);
	r.plan.prior = "flat";
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, RunRelease(r, TestAllocate));
	r = Request(histogram, 1);
	r.plan.epsilon = 0;
	EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, RunRelease(r, TestAllocate));
	const std::vector<std::int64_t> empty(defined_.cell_count, 0);
	EXPECT_PAP_ERROR(ErrorKind::DataException, RunRelease(Request(empty, 1), TestAllocate));
}

TEST_F(ReleaseEngine, ModelAnswersAreFractionsMonotoneInTheThreshold)
{
	for (const char *cls : {"thresholds(price)", "ranges(price)"}) {
		SCOPED_TRACE(cls);
		DefinePublic(cls);
		const std::vector<std::int64_t> histogram = PrivateHistogram();
		const RunSummary run = RunRelease(Request(histogram, 7), TestAllocate);
		std::int64_t n = 0;
		for (std::int64_t h : histogram)
			n += h;
		ReleaseModel *model =
		    LoadReleaseModel(cls, defined_.cuts, defined_.cut_count, run.synthetic, defined_.cell_count, n);
		ASSERT_NE(model, nullptr);
		EXPECT_EQ(ModelCoverSize(model), std::size_t(defined_.cover_size));
		EXPECT_EQ(ModelCellCount(model), defined_.cell_count);
		EXPECT_EQ(ModelPrivateRows(model), n);
		EXPECT_STREQ(ModelColumn(model), "price");
		for (std::size_t q = 0; q < ModelCoverSize(model); q++) {
			const double a = ModelAnswer(model, q);
			EXPECT_GE(a, 0.0);
			EXPECT_LE(a, 1.0);
		}
		double previous = -1.0;
		for (double c = -5.0; c <= 55.0; c += 0.25) {
			const std::string query = "price <= " + std::to_string(c);
			const std::size_t q = ModelProjectNumericQuery(model, query.c_str());
			const double a = ModelAnswer(model, q);
			EXPECT_GE(a, 0.0) << query;
			EXPECT_LE(a, 1.0) << query;
			EXPECT_GE(a, previous) << query;
			previous = a;
			// The parsed-query path (date and timestamp columns) projects identically.
			ParsedQuery *parsed = ParseQueryForModel(query.c_str());
			ASSERT_EQ(ParsedQueryLiteralCount(parsed), 1u);
			EXPECT_EQ(std::strtod(ParsedQueryLiteral(parsed, 0), nullptr), c);
			EXPECT_EQ(ModelProjectParsedQuery(model, parsed, &c), q);
			FreeParsedQuery(parsed);
		}
		// Everything below the smallest public value projects to the empty query.
		EXPECT_EQ(ModelAnswer(model, ModelProjectNumericQuery(model, "price < 0")), 0.0);
		// The answer is the synthetic weight of the query's cells: price <= 9 is cells 0..9.
		double weight = 0;
		for (std::size_t cell = 0; cell <= 9; cell++)
			weight += ModelCellWeight(model, cell);
		EXPECT_NEAR(ModelAnswer(model, ModelProjectNumericQuery(model, "price <= 9")), weight, 1e-12);
		// Outside the class, other columns, bad literals: the core's error kinds.
		if (std::string(cls) == "thresholds(price)") {
			EXPECT_PAP_ERROR(ErrorKind::QueryOutsideClass, ModelProjectNumericQuery(model, "price > 3"));
		}
		EXPECT_PAP_ERROR(ErrorKind::UndefinedColumn, ModelProjectNumericQuery(model, "qty <= 3"));
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ModelProjectNumericQuery(model, "price <= 'abc'"));
		EXPECT_PAP_ERROR(ErrorKind::SyntaxError, ModelProjectNumericQuery(model, "price <="));
		FreeReleaseModel(model);
	}
}

TEST_F(ReleaseEngine, ModelCellShapes)
{
	DefinePublic("ranges(price)");
	std::vector<double> synthetic(defined_.cell_count, 1.0 / double(defined_.cell_count));
	ReleaseModel *model =
	    LoadReleaseModel("ranges(price)", defined_.cuts, defined_.cut_count, synthetic.data(), synthetic.size(), 100);
	const std::size_t null_cell = defined_.cell_count - 1;
	const CellShape null_shape = ModelCellShape(model, null_cell);
	EXPECT_TRUE(null_shape.is_null);
	EXPECT_FALSE(null_shape.lower.present);
	EXPECT_FALSE(null_shape.upper.present);
	const CellShape first = ModelCellShape(model, 0);
	EXPECT_FALSE(first.is_null);
	EXPECT_FALSE(first.lower.present);
	ASSERT_TRUE(first.upper.present);
	EXPECT_EQ(first.upper.value, 0.0);
	EXPECT_TRUE(first.upper.inclusive);
	const CellShape middle = ModelCellShape(model, 10);
	ASSERT_TRUE(middle.lower.present && middle.upper.present);
	EXPECT_EQ(middle.lower.value, 9.0);
	EXPECT_FALSE(middle.lower.inclusive);
	EXPECT_EQ(middle.upper.value, 10.0);
	const CellShape top = ModelCellShape(model, null_cell - 1);
	EXPECT_FALSE(top.is_null);
	ASSERT_TRUE(top.lower.present);
	EXPECT_EQ(top.lower.value, 49.0);
	EXPECT_FALSE(top.upper.present);
	const CoverQueryShape all = ModelCoverQueryShape(model, ModelProjectNumericQuery(model, "price >= -1"));
	EXPECT_FALSE(all.empty || all.lower.present || all.upper.present);
	FreeReleaseModel(model);

	// A synthetic array of the wrong length is refused.
	EXPECT_PAP_ERROR(ErrorKind::Internal, LoadReleaseModel("ranges(price)", defined_.cuts, defined_.cut_count,
	                                                       synthetic.data(), synthetic.size() - 1, 100));
}

TEST(ReleaseEngineParsing, ParseMechanism)
{
	EXPECT_EQ(ParseMechanism("pmw"), MechanismChoice::Pmw);
	EXPECT_EQ(ParseMechanism("auto"), MechanismChoice::Pmw);
	for (const char *bad : {"", "mwem", "PMW2", "pmw ", " auto", "identity", "hierarchical"})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ParseMechanism(bad)) << '"' << bad << '"';
}

TEST(ReleaseEngineParsing, ParseUniformPrior)
{
	EXPECT_FALSE(ParseUniformPrior("public"));
	EXPECT_TRUE(ParseUniformPrior("uniform"));
	for (const char *bad : {"", "Public", "perks", "uniform "})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ParseUniformPrior(bad)) << '"' << bad << '"';
}

TEST(ReleaseEngineParsing, ValidatePrivacyParametersAndClass)
{
	EXPECT_NO_THROW(ValidatePrivacyParameters(1.0, 0.0));
	EXPECT_NO_THROW(ValidatePrivacyParameters(0.1, 1e-6));
	for (double eps : {0.0, -1.0, test::kNaN, test::kInf})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ValidatePrivacyParameters(eps, 0.0));
	for (double delta : {-0.1, 1.0, test::kNaN})
		EXPECT_PAP_ERROR(ErrorKind::InvalidParameter, ValidatePrivacyParameters(1.0, delta));
	const ParsedClass parsed = ParseClassForDefine("Ranges( \"Unit Price\" )", TestAllocate);
	EXPECT_STREQ(parsed.canonical_text, "ranges(\"Unit Price\")");
	EXPECT_STREQ(parsed.column, "Unit Price");
	EXPECT_EQ(parsed.vc_dimension, 2);
	for (void *p : g_blocks)
		std::free(p);
	g_blocks.clear();
}

TEST(ReleaseEngineParsing, FormatFloat8Into)
{
	char buf[32];
	FormatFloat8Into(0.1, buf, sizeof buf);
	EXPECT_STREQ(buf, "0.1");
	FormatFloat8Into(test::kNaN, buf, sizeof buf);
	EXPECT_STREQ(buf, "'NaN'");
	FormatFloat8Into(-test::kInf, buf, sizeof buf);
	EXPECT_STREQ(buf, "'-Infinity'");
	FormatFloat8Into(-1.7976931348623157e308, buf, sizeof buf);
	EXPECT_EQ(std::strtod(buf, nullptr), -1.7976931348623157e308);
}

}  // namespace
}  // namespace pap::core
