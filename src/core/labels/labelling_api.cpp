// api/labelling_api.hpp: the labelling's entry points, put together from the schema, the learners and the sparse
// vector of this folder.
#include "core/api/labelling_api.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "core/base/errors.hpp"
#include "core/labels/caller_memory.hpp"
#include "core/labels/feature_schema.hpp"
#include "core/labels/learners.hpp"
#include "core/labels/stable_labels.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {

namespace {

std::vector<EncodedRow>
EncodeAll(const FeatureSchema &schema, const LabelRows &rows)
{
	if (rows.feature_count != schema.FeatureCount())
		throw Error(ErrorKind::Internal, "rows do not have the labelling's features");
	std::vector<EncodedRow> out;
	out.reserve(rows.row_count);
	std::uint64_t steps = 0;
	for (std::size_t r = 0; r < rows.row_count; r++) {
		PollInterrupt(steps);
		out.push_back(schema.Encode(rows, r));
	}
	return out;
}

}  // namespace

LearnerKind
ParseLearner(const char *name)
{
	if (std::strcmp(name, "cells") == 0)
		return LearnerKind::Cells;
	if (std::strcmp(name, "logistic") == 0)
		return LearnerKind::Logistic;
	throw Error(ErrorKind::InvalidParameter, std::string("unknown learner \"") + name + "\"",
	            "The learners are \"cells\" and \"logistic\".");
}

const char *
LearnerName(LearnerKind kind)
{
	return kind == LearnerKind::Cells ? "cells" : "logistic";
}

LabelSchemaData
DescribeLabelSchema(const LabelRows &public_rows, LearnerKind learner, std::uint64_t cell_limit, LabelAllocate allocate)
{
	if (public_rows.row_count == 0)
		throw Error(ErrorKind::DataException, "the public table has no rows");
	if (public_rows.feature_count == 0)
		throw Error(ErrorKind::InvalidParameter, "a labelling needs at least one feature column");
	const FeatureSchema schema = FeatureSchema::FromPublicRows(public_rows);
	if (learner == LearnerKind::Cells && schema.CellCount() > cell_limit)
		throw Error(ErrorKind::LimitExceeded, "the cells learner's layout has too many cells",
		            "The features make " + std::to_string(schema.CellCount()) +
		                " cells (public quartiles of numeric features, public categories of the others); the limit "
		                "is " +
		                std::to_string(cell_limit) + ".",
		            "Use fewer features, or the logistic learner.");
	return schema.Store(allocate);
}

void
RequireLabellingFits(const LabelSchemaData &schema_data, LearnerKind learner, std::int32_t class_count,
                     std::int64_t public_rows)
{
	const FeatureSchema schema = FeatureSchema::FromData(schema_data);
	const double classes = double(class_count);
	const auto refuse = [](const std::string &detail, const char *hint) {
		throw Error(ErrorKind::LimitExceeded, "the labelling is too large for one run", detail, hint);
	};
	if (learner == LearnerKind::Cells) {
		if (schema.CellCount() > kMaxModelCells)
			refuse("The features make " + std::to_string(schema.CellCount()) +
			           " cells; the cells learner holds at most " + std::to_string(kMaxModelCells) + ".",
			       "Use fewer or coarser features, or the logistic learner.");
		if (double(schema.CellCount()) * classes > kMaxLabelCounts)
			refuse("A chunk's model counts " + std::to_string(schema.CellCount()) + " cells x " +
			           std::to_string(class_count) + " classes; a run holds at most " +
			           std::to_string(std::uint64_t(kMaxLabelCounts)) + " counts.",
			       "Use fewer features or classes, or the logistic learner.");
	} else if (double(schema.InputWidth() + 1) * classes > kMaxLabelCounts) {
		refuse("The logistic model has " + std::to_string(schema.InputWidth() + 1) + " inputs x " +
		           std::to_string(class_count) + " classes; a run holds at most " +
		           std::to_string(std::uint64_t(kMaxLabelCounts)) + " weights.",
		       "Use fewer categorical features or classes.");
	}
	if (double(public_rows) * classes > kMaxLabelCounts)
		refuse("The votes count " + std::to_string(public_rows) + " public rows x " + std::to_string(class_count) +
		           " classes; a run holds at most " + std::to_string(std::uint64_t(kMaxLabelCounts)) + " votes.",
		       "Label a smaller public table, or use fewer classes.");
}

void
RequireLabellingWorkFits(const LabelSchemaData &schema_data, LearnerKind learner, std::int32_t class_count,
                         std::int64_t public_rows, std::int64_t private_rows, std::int64_t chunks)
{
	const FeatureSchema schema = FeatureSchema::FromData(schema_data);
	const double classes = double(class_count), k = double(chunks), m = double(public_rows), n = double(private_rows);
	// The inputs a row touches: its numeric features and one hot input per categorical one, and the intercept.
	const double active = double(schema.FeatureCount()) + 1.0;
	double work;
	if (learner == LearnerKind::Cells) {
		work = k * double(schema.CellCount()) * classes + n + m * k;
	} else {
		const double weights = classes * double(schema.InputWidth() + 1);
		work = double(kLogisticSteps) * (k * weights + n * classes * active) + m * k * classes * active;
	}
	if (work > kMaxLabelWork)
		throw Error(ErrorKind::LimitExceeded, "the labelling would take too long to run",
		            "Its " + std::to_string(chunks) + " chunk models and " + std::to_string(public_rows) + " x " +
		                std::to_string(chunks) + " votes take about " + std::to_string(std::uint64_t(work)) +
		                " steps; a run takes at most " + std::to_string(std::uint64_t(kMaxLabelWork)) +
		                ". Nothing has been charged.",
		            learner == LearnerKind::Cells ? "Use fewer chunks, features or classes."
		                                          : "Use fewer chunks, categorical features or classes, or the cells "
		                                            "learner.");
}

LabellingOutcome
RunLabelling(const LabellingRunRequest &request, const LabellingPlan &plan, LabelAllocate allocate)
{
	InterruptScope scope(request.interrupted);
	if (request.class_count < 1 || request.schema == nullptr)
		throw Error(ErrorKind::Internal, "labelling run without classes or schema");
	const FeatureSchema schema = FeatureSchema::FromData(*request.schema);
	std::unique_ptr<RandomBitSource> rng;
	if (request.seed >= 0)
		rng = std::make_unique<SeededRandomSource>(std::uint64_t(request.seed));
	else
		rng = std::make_unique<SecureRandomSource>(request.fill_secure, nullptr);

	// The chunks: a random balanced assignment of the scanned rows, independent of their values.
	const std::int64_t n = std::int64_t(request.private_rows.row_count);
	const std::vector<EncodedRow> private_rows = EncodeAll(schema, request.private_rows);
	const std::vector<std::int32_t> chunk = AssignChunks(n, plan.chunks, *rng);
	std::vector<std::vector<const EncodedRow *>> chunk_rows(static_cast<std::size_t>(plan.chunks));
	std::vector<std::vector<std::int32_t>> chunk_labels(static_cast<std::size_t>(plan.chunks));
	for (std::int64_t i = 0; i < n; i++) {
		const std::int32_t label = request.private_labels[i];
		if (label < 0 || label >= request.class_count)
			continue;  // no listed class: the row trains nothing (still one row of one chunk)
		chunk_rows[std::size_t(chunk[std::size_t(i)])].push_back(&private_rows[std::size_t(i)]);
		chunk_labels[std::size_t(chunk[std::size_t(i)])].push_back(label);
	}

	// The votes: every chunk's model on every public row.
	const std::vector<EncodedRow> public_rows = EncodeAll(schema, request.public_rows);
	const std::size_t m = public_rows.size(), classes = std::size_t(request.class_count);
	std::vector<std::int64_t> votes(m * classes, 0);
	std::uint64_t steps = 0;
	for (std::size_t j = 0; j < chunk_rows.size(); j++) {
		// A chunk without a labelled row abstains: a model of nothing would vote its default class for every row
		// (one private row still moves at most one vote of one chunk, so the margin's sensitivity stays 2).
		if (chunk_rows[j].empty())
			continue;
		const std::vector<double> model =
		    TrainModel(request.learner, schema, request.class_count, chunk_rows[j], chunk_labels[j]);
		for (std::size_t r = 0; r < m; r++) {
			PollInterrupt(steps);
			votes[r * classes +
			      std::size_t(PredictClass(request.learner, schema, request.class_count, model, public_rows[r]))]++;
		}
	}

	// The sparse vector, the public rows in a random order (so that the rows labelled before a halt are a random
	// sample of the public table, whatever its physical order).
	const std::vector<std::int32_t> order = RandomPermutation(std::int64_t(m), *rng);
	std::vector<VoteTally> tallies(m);
	for (std::size_t i = 0; i < m; i++)
		tallies[i] = TallyVotes(
		    std::vector<std::int64_t>(votes.begin() + std::ptrdiff_t(std::size_t(order[i]) * classes),
		                              votes.begin() + std::ptrdiff_t((std::size_t(order[i]) + 1) * classes)));
	const StableLabelsResult released = StableLabels(tallies, plan, *rng);

	LabellingOutcome out;
	out.private_rows = n;
	out.unstable = released.unstable;
	out.reached = released.reached;
	out.cutoff_reached = released.cutoff_reached;
	out.labels = AllocateLabelArray<std::int32_t>(allocate, m);
	std::vector<const EncodedRow *> labelled_rows;
	std::vector<std::int32_t> labelled_classes;
	for (std::size_t i = 0; i < m; i++) {
		const std::size_t row = std::size_t(order[i]);
		out.labels[row] = released.labels[i];
	}
	// Post-processing: the final model, trained on the labelled public rows in their table order.
	for (std::size_t row = 0; row < m; row++)
		if (out.labels[row] >= 0) {
			labelled_rows.push_back(&public_rows[row]);
			labelled_classes.push_back(out.labels[row]);
		}
	out.labelled = std::int64_t(labelled_rows.size());
	if (!labelled_rows.empty()) {
		const std::vector<double> model =
		    TrainModel(request.learner, schema, request.class_count, labelled_rows, labelled_classes);
		out.model = AllocateLabelArray<double>(allocate, model.size());
		std::copy(model.begin(), model.end(), out.model);
		out.model_size = model.size();
	}
	return out;
}

class LabelPredictor {
public:
	LabelPredictor(const LabelSchemaData &schema, LearnerKind learner, std::int32_t class_count, const double *model,
	               std::size_t model_size)
	    : schema_(FeatureSchema::FromData(schema)), learner_(learner), class_count_(class_count),
	      model_(model, model + model_size)
	{
	}
	std::int32_t
	Predict(const LabelRows &row) const
	{
		if (row.row_count != 1 || row.feature_count != schema_.FeatureCount())
			throw Error(ErrorKind::Internal, "prediction needs one row of the labelling's features");
		return PredictClass(learner_, schema_, class_count_, model_, schema_.Encode(row, 0));
	}

private:
	FeatureSchema schema_;
	LearnerKind learner_;
	std::int32_t class_count_;
	std::vector<double> model_;
};

LabelPredictor *
MakeLabelPredictor(const LabelSchemaData &schema, LearnerKind learner, std::int32_t class_count, const double *model,
                   std::size_t model_size)
{
	return new LabelPredictor(schema, learner, class_count, model, model_size);
}

std::int32_t
PredictWith(const LabelPredictor *predictor, const LabelRows &row)
{
	return predictor->Predict(row);
}

void
FreeLabelPredictor(LabelPredictor *predictor) noexcept
{
	delete predictor;
}

}  // namespace pap::core
