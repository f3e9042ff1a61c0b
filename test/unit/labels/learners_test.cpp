// The learners and the whole labelling (docs/mechanisms.md §17) on synthetic rows whose label is a clean rule.
#include "core/labels/learners.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/api/labelling_api.hpp"
#include "core/base/errors.hpp"
#include "core/labels/feature_schema.hpp"

namespace pap::core {
namespace {

// Rows (x numeric, colour categorical) labelled 1 when x > 0.5 or colour is "red".
struct Table {
	std::vector<double> numbers;
	std::vector<const char *> texts;
	std::vector<std::int32_t> labels;
	bool categorical[2] = {false, true};
	LabelRows
	Rows() const
	{
		LabelRows r;
		r.row_count = labels.size();
		r.feature_count = 2;
		r.categorical = categorical;
		r.numbers = numbers.data();
		r.texts = texts.data();
		return r;
	}
};

Table
MakeTable(int rows, int offset)
{
	static const char *const colours[] = {"blue", "green", "red"};
	Table t;
	for (int i = 0; i < rows; i++) {
		const double x = double((i * 37 + offset) % 100) / 100.0;
		const char *colour = colours[(i * 7 + offset) % 3];
		t.numbers.push_back(x);
		t.numbers.push_back(0.0);
		t.texts.push_back(nullptr);
		t.texts.push_back(colour);
		t.labels.push_back(x > 0.5 || std::string(colour) == "red" ? 1 : 0);
	}
	return t;
}

void *
Allocate(std::size_t bytes)
{
	static std::vector<std::vector<char>> arena;
	arena.emplace_back(bytes);
	return arena.back().data();
}

double
Accuracy(LearnerKind kind, const Table &train, const Table &test)
{
	const FeatureSchema schema = FeatureSchema::FromPublicRows(train.Rows());
	std::vector<EncodedRow> rows;
	for (std::size_t r = 0; r < train.labels.size(); r++)
		rows.push_back(schema.Encode(train.Rows(), r));
	std::vector<const EncodedRow *> pointers;
	for (const EncodedRow &r : rows)
		pointers.push_back(&r);
	const std::vector<double> model = TrainModel(kind, schema, 2, pointers, train.labels);
	int right = 0;
	for (std::size_t r = 0; r < test.labels.size(); r++)
		right += PredictClass(kind, schema, 2, model, schema.Encode(test.Rows(), r)) == test.labels[r];
	return double(right) / double(test.labels.size());
}

TEST(Learners, LearnTheRule)
{
	const Table train = MakeTable(400, 0), test = MakeTable(300, 13);
	EXPECT_GT(Accuracy(LearnerKind::Logistic, train, test), 0.9);
	EXPECT_GT(Accuracy(LearnerKind::Cells, train, test), 0.9);  // the median is a public quartile cut
}

TEST(Learners, RefuseAnEmptyTrainingSet)
{
	// A chunk without a labelled row abstains (RunLabelling); a model of nothing would vote one class everywhere.
	const Table t = MakeTable(10, 0);
	const FeatureSchema schema = FeatureSchema::FromPublicRows(t.Rows());
	EXPECT_THROW(TrainModel(LearnerKind::Cells, schema, 2, {}, {}), Error);
	EXPECT_THROW(TrainModel(LearnerKind::Logistic, schema, 2, {}, {}), Error);
}

TEST(FeatureSchema, BinsEncodeAsTheirTexts)
{
	// The private rows come as bins (pap.category_index inside the read): the same encoding as their texts.
	Table t = MakeTable(60, 0);
	const FeatureSchema schema = FeatureSchema::FromPublicRows(t.Rows());
	t.texts[1] = "purple";  // not a public category: the other bin
	t.texts[3] = nullptr;   // the NULL bin
	const LabelSchemaData data = schema.Store(Allocate);
	std::vector<std::int32_t> bins(t.texts.size(), 0);
	for (std::size_t r = 0; r < t.labels.size(); r++) {
		const char *text = t.texts[2 * r + 1];
		std::int32_t bin = std::int32_t(data.category_counts[1]);  // other
		if (text == nullptr)
			bin++;
		for (std::int32_t k = 0; k < data.category_counts[1]; k++)
			if (text != nullptr && std::string(data.categories[k]) == text)
				bin = k;
		bins[2 * r + 1] = bin;
	}
	LabelRows binned = t.Rows();
	binned.bins = bins.data();
	for (std::size_t r = 0; r < t.labels.size(); r++) {
		const EncodedRow a = schema.Encode(t.Rows(), r), b = schema.Encode(binned, r);
		EXPECT_EQ(a.cell, b.cell) << r;
		EXPECT_EQ(a.hot, b.hot) << r;
	}
	bins[1] = 99;
	EXPECT_THROW(schema.Encode(binned, 0), Error);
}

TEST(FeatureSchema, StoredSchemaEncodesAlike)
{
	Table t = MakeTable(50, 0);
	t.numbers[0] = NAN;
	t.numbers[2] = INFINITY;
	t.texts[3] = "purple";  // never seen publicly? it is now; "other" is tested through a query row below
	const FeatureSchema schema = FeatureSchema::FromPublicRows(t.Rows());
	const LabelSchemaData data = schema.Store(Allocate);
	const FeatureSchema back = FeatureSchema::FromData(data);
	for (std::size_t r = 0; r < t.labels.size(); r++) {
		const EncodedRow a = schema.Encode(t.Rows(), r), b = back.Encode(t.Rows(), r);
		EXPECT_EQ(a.cell, b.cell);
		EXPECT_EQ(a.hot, b.hot);
		EXPECT_EQ(a.numbers, b.numbers);
		for (double z : a.numbers)
			EXPECT_TRUE(std::isfinite(z));
	}
	EXPECT_EQ(std::uint64_t(data.cell_count), schema.CellCount());
}

// A labelling of priv's rows onto pub's at epsilon 4, delta 1e-6, cut-off 5, seeded.
LabellingOutcome
LabelSeeded(const Table &priv, const Table &pub, const LabelSchemaData &schema, LearnerKind kind, std::int64_t seed)
{
	LabellingRequest plan_request;
	plan_request.private_rows = std::int64_t(priv.labels.size());
	plan_request.public_rows = std::int64_t(pub.labels.size());
	plan_request.cutoff = 5;
	plan_request.epsilon = 4.0;
	plan_request.delta = 1e-6;
	const LabellingPlan plan = PlanLabelling(plan_request);
	EXPECT_GT(plan.chunks, plan.threshold);
	LabellingRunRequest r;
	r.schema = &schema;
	r.learner = kind;
	r.class_count = 2;
	r.private_rows = priv.Rows();
	r.private_labels = priv.labels.data();
	r.public_rows = pub.Rows();
	r.seed = seed;
	return RunLabelling(r, plan, Allocate);
}

TEST(RunLabelling, LabelsACleanRuleAndTrainsTheFinalModel)
{
	const Table priv = MakeTable(20000, 1), pub = MakeTable(500, 5), held = MakeTable(500, 29);
	const LabelSchemaData schema = DescribeLabelSchema(pub.Rows(), LearnerKind::Cells, 1 << 20, Allocate);
	for (LearnerKind kind : {LearnerKind::Cells, LearnerKind::Logistic}) {
		const LabellingOutcome out = LabelSeeded(priv, pub, schema, kind, 5);
		EXPECT_GT(out.labelled, 0);
		int wrong = 0;
		for (std::size_t i = 0; i < pub.labels.size(); i++)
			wrong += out.labels[i] >= 0 && out.labels[i] != pub.labels[i];
		EXPECT_LE(wrong, out.labelled / 10) << LearnerName(kind);
		ASSERT_NE(out.model, nullptr);
		// pap.predict's predictor, prepared once for every row.
		const std::unique_ptr<LabelPredictor, void (*)(LabelPredictor *)> predictor(
		    MakeLabelPredictor(schema, kind, 2, out.model, out.model_size), FreeLabelPredictor);
		int right = 0;
		for (std::size_t i = 0; i < held.labels.size(); i++) {
			LabelRows row = held.Rows();
			row.row_count = 1;
			row.numbers += 2 * i;
			row.texts += 2 * i;
			right += PredictWith(predictor.get(), row) == held.labels[i];
		}
		EXPECT_GT(right, 400) << LearnerName(kind);
	}
}

TEST(RunLabelling, ChunksWithoutALabelAbstain)
{
	// Private rows whose labels match no class train nothing: no chunk votes, so no public row is labelled (a
	// model of nothing voted the first class for every row, and every row came out labelled with it).
	Table priv = MakeTable(20000, 1);
	const Table pub = MakeTable(500, 5);
	for (std::int32_t &label : priv.labels)
		label = -1;
	const LabelSchemaData schema = DescribeLabelSchema(pub.Rows(), LearnerKind::Cells, 1 << 20, Allocate);
	for (LearnerKind kind : {LearnerKind::Cells, LearnerKind::Logistic}) {
		const LabellingOutcome out = LabelSeeded(priv, pub, schema, kind, 7);
		EXPECT_EQ(out.labelled, 0) << LearnerName(kind);
		EXPECT_EQ(out.model, nullptr) << LearnerName(kind);
	}
}

TEST(RequireLabellingFits, RefusesRunsTooLargeToHold)
{
	const Table pub = MakeTable(500, 5);
	const LabelSchemaData schema = DescribeLabelSchema(pub.Rows(), LearnerKind::Cells, 1 << 20, Allocate);
	EXPECT_NO_THROW(RequireLabellingFits(schema, LearnerKind::Cells, 2, 500));
	EXPECT_NO_THROW(RequireLabellingFits(schema, LearnerKind::Logistic, 65536, 500));
	// Votes: public rows x classes past 2^26.
	EXPECT_THROW(RequireLabellingFits(schema, LearnerKind::Logistic, 65536, 2000), Error);
	// The cells learner's counts: cells x classes past 2^26 (the layout here has 25 cells).
	ASSERT_EQ(schema.cell_count, 25);
	EXPECT_NO_THROW(RequireLabellingFits(schema, LearnerKind::Cells, 65536, 1));
	EXPECT_THROW(RequireLabellingFits(schema, LearnerKind::Cells, 65536 * 50, 1), Error);
	// A layout past 2^24 cells, whatever pap_release.max_cells allowed at define.
	LabelSchemaData wide = schema;
	std::vector<std::int32_t> cut_counts(schema.cut_counts, schema.cut_counts + 2);
	std::vector<double> cuts(std::size_t(1) << 24);
	for (std::size_t i = 0; i < cuts.size(); i++)
		cuts[i] = double(i);
	cut_counts[0] = std::int32_t(cuts.size());
	wide.cut_counts = cut_counts.data();
	wide.cuts = cuts.data();
	wide.cut_total = cuts.size();
	EXPECT_THROW(RequireLabellingFits(wide, LearnerKind::Cells, 2, 1), Error);
}

TEST(RequireLabellingWorkFits, RefusesRunsTooLongToWaitFor)
{
	const Table pub = MakeTable(500, 5);
	const LabelSchemaData schema = DescribeLabelSchema(pub.Rows(), LearnerKind::Cells, 1 << 20, Allocate);
	// ADULT-sized: 30,000 private rows, 3,000 public, 2,804 chunks, two classes: far below the limit.
	EXPECT_NO_THROW(RequireLabellingWorkFits(schema, LearnerKind::Cells, 2, 3000, 30000, 2804));
	EXPECT_NO_THROW(RequireLabellingWorkFits(schema, LearnerKind::Logistic, 2, 3000, 30000, 2804));
	// A million chunks of the 25-cell model over 4,000 classes; 10,000 logistic models over 65,536 classes.
	EXPECT_THROW(RequireLabellingWorkFits(schema, LearnerKind::Cells, 4000, 1, 1000000, 1000000), Error);
	EXPECT_THROW(RequireLabellingWorkFits(schema, LearnerKind::Logistic, 65536, 1, 10000, 10000), Error);
	// Votes alone: a million public rows x a million chunks.
	EXPECT_THROW(RequireLabellingWorkFits(schema, LearnerKind::Cells, 2, 1000000, 1000000, 1000000), Error);
}

TEST(DescribeLabelSchema, RefusesWhatItCannotLearn)
{
	Table t = MakeTable(5, 0);
	for (std::size_t r = 0; r < 5; r++)
		t.numbers[2 * r] = NAN;
	EXPECT_THROW(DescribeLabelSchema(t.Rows(), LearnerKind::Logistic, 1 << 20, Allocate), Error);
	const Table ok = MakeTable(50, 0);
	EXPECT_THROW(DescribeLabelSchema(ok.Rows(), LearnerKind::Cells, 4, Allocate), Error);
	EXPECT_THROW(ParseLearner("forest"), Error);
}

}  // namespace
}  // namespace pap::core
