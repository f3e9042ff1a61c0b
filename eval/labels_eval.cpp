// The evaluation of private labels for public rows (docs/eval.md, "Private labels for public rows"): runs the
// product's labelling (the core's PlanLabelling and RunLabelling, as pap.run_labelling calls them) on ADULT and
// CPS1988 split into private, public and held-out rows, against the same learner trained without privacy on the
// private rows, the majority class, and a private-only baseline at the same epsilon. Writes one CSV row per run.
//   labels_eval DATA_DIR OUT.csv [--ci]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/api/labelling_api.hpp"
#include "core/labels/feature_schema.hpp"
#include "core/labels/learners.hpp"
#include "core/noise/discrete_laplace.hpp"
#include "core/noise/random_source.hpp"

using namespace pap::core;

namespace {

using Table = std::vector<std::vector<std::string>>;  // rows of fields, header first

Table
ReadCsv(const std::string &command)
{
	Table t;
	FILE *in = popen(command.c_str(), "r");
	if (in == nullptr) {
		std::perror(command.c_str());
		std::exit(1);
	}
	char *line = nullptr;
	size_t size = 0;
	while (getline(&line, &size, in) > 0) {
		std::vector<std::string> fields(1);
		for (const char *p = line; *p && *p != '\n' && *p != '\r'; p++) {
			if (*p == ',')
				fields.emplace_back();
			else if (*p != '"')
				fields.back() += *p;
		}
		t.push_back(std::move(fields));
	}
	free(line);
	pclose(in);
	return t;
}

struct Feature {
	std::string column;
	bool categorical;
};

// Rows of one split in the layout LabelRows reads.
struct Rows {
	std::vector<double> numbers;
	std::vector<std::string> text_storage;
	std::vector<const char *> texts;
	std::vector<std::int32_t> labels;
	std::vector<bool> categorical_storage;
	std::unique_ptr<bool[]> categorical;
	std::size_t features = 0;
	LabelRows
	View() const
	{
		LabelRows r;
		r.row_count = labels.size();
		r.feature_count = features;
		r.categorical = categorical.get();
		r.numbers = numbers.data();
		r.texts = texts.data();
		return r;
	}
};

Rows
Select(const Table &t, const std::vector<std::size_t> &indices, const std::vector<Feature> &features,
       const std::vector<std::int32_t> &labels)
{
	Rows r;
	r.features = features.size();
	r.categorical.reset(new bool[features.size()]);
	std::vector<std::size_t> columns;
	for (std::size_t f = 0; f < features.size(); f++) {
		r.categorical[f] = features[f].categorical;
		columns.push_back(std::size_t(std::find(t[0].begin(), t[0].end(), features[f].column) - t[0].begin()));
		if (columns.back() >= t[0].size()) {
			std::fprintf(stderr, "no column %s\n", features[f].column.c_str());
			std::exit(1);
		}
	}
	r.text_storage.reserve(indices.size() * features.size());
	for (std::size_t i : indices) {
		for (std::size_t f = 0; f < features.size(); f++) {
			const std::string &v = t[i][columns[f]];
			r.numbers.push_back(features[f].categorical ? NAN : std::strtod(v.c_str(), nullptr));
			r.text_storage.push_back(v);
		}
		r.labels.push_back(labels[i]);
	}
	for (std::size_t j = 0; j < r.text_storage.size(); j++)
		r.texts.push_back(r.categorical[j % features.size()] ? r.text_storage[j].c_str() : nullptr);
	return r;
}

void *
Allocate(std::size_t bytes)
{
	return std::malloc(bytes);  // the evaluation frees nothing: it runs once
}

double
Accuracy(LearnerKind kind, const FeatureSchema &schema, const std::vector<double> &model, const Rows &test)
{
	std::size_t right = 0;
	for (std::size_t r = 0; r < test.labels.size(); r++)
		right += PredictClass(kind, schema, 2, model, schema.Encode(test.View(), r)) == test.labels[r];
	return double(right) / double(test.labels.size());
}

std::vector<double>
Train(LearnerKind kind, const FeatureSchema &schema, const Rows &rows)
{
	std::vector<EncodedRow> encoded;
	for (std::size_t r = 0; r < rows.labels.size(); r++)
		encoded.push_back(schema.Encode(rows.View(), r));
	std::vector<const EncodedRow *> pointers;
	for (const EncodedRow &e : encoded)
		pointers.push_back(&e);
	return TrainModel(kind, schema, 2, pointers, rows.labels);
}

// The private-only baseline: the cells learner on noisy counts. Every (cell, class) count gets discrete Laplace
// noise of scale 2/epsilon (one replaced row moves one count down and one up: l1 sensitivity 2), epsilon-DP; a
// cell takes the class with the larger noisy count (ties to class 0). It reads no label of the public table.
double
PrivateOnlyAccuracy(const FeatureSchema &schema, const Rows &priv, const Rows &test, double epsilon,
                    RandomBitSource &rng)
{
	const std::size_t cells = std::size_t(schema.CellCount());
	std::vector<std::int64_t> counts(cells * 2, 0);
	for (std::size_t r = 0; r < priv.labels.size(); r++)
		counts[std::size_t(schema.Encode(priv.View(), r).cell) * 2 + std::size_t(priv.labels[r])]++;
	const DiscreteLaplaceSampler noise(ScaleAtLeast(2.0 / epsilon));
	for (std::int64_t &c : counts)
		c += noise(rng);
	std::size_t right = 0;
	for (std::size_t r = 0; r < test.labels.size(); r++) {
		const std::size_t cell = std::size_t(schema.Encode(test.View(), r).cell);
		right += (counts[cell * 2 + 1] > counts[cell * 2] ? 1 : 0) == test.labels[r];
	}
	return double(right) / double(test.labels.size());
}

struct DataSet {
	std::string name;
	Table table;
	std::vector<std::int32_t> labels;
	std::vector<std::size_t> priv, pub, held;
	std::vector<Feature> cells_features, logistic_features;
};

// A fixed split (seed 2026): 10% public (its labels are hidden from the labelling), 10% held out, 80% private.
void
Split(DataSet &d)
{
	std::vector<std::size_t> all;
	for (std::size_t i = 1; i < d.table.size(); i++)
		all.push_back(i);
	std::mt19937_64 g(2026);
	std::shuffle(all.begin(), all.end(), g);
	const std::size_t tenth = all.size() / 10;
	d.pub.assign(all.begin(), all.begin() + std::ptrdiff_t(tenth));
	d.held.assign(all.begin() + std::ptrdiff_t(tenth), all.begin() + std::ptrdiff_t(2 * tenth));
	d.priv.assign(all.begin() + std::ptrdiff_t(2 * tenth), all.end());
}

}  // namespace

int
main(int argc, char **argv)
{
	if (argc < 3) {
		std::fprintf(stderr, "usage: %s DATA_DIR OUT.csv [--ci]\n", argv[0]);
		return 2;
	}
	const std::string dir = argv[1];
	const bool ci = argc > 3 && std::strcmp(argv[3], "--ci") == 0;
	std::vector<DataSet> sets(2);
	// ADULT: income>50K; the categorical codes as categories.
	sets[0].name = "adult";
	sets[0].table = ReadCsv("zcat " + dir + "/adult.csv.gz");
	for (std::size_t i = 1; i < sets[0].table.size(); i++)
		sets[0].labels.push_back(0);
	sets[0].labels.insert(sets[0].labels.begin(), 0);
	for (std::size_t i = 1; i < sets[0].table.size(); i++)
		sets[0].labels[i] = sets[0].table[i].back() == "1" ? 1 : 0;
	sets[0].cells_features = {{"age", false}, {"education-num", false}, {"marital-status", true}, {"sex", true}};
	sets[0].logistic_features = {
	    {"age", false},          {"workclass", true},     {"education-num", false}, {"marital-status", true},
	    {"occupation", true},    {"relationship", true},  {"race", true},           {"sex", true},
	    {"capital-gain", false}, {"capital-loss", false}, {"hours-per-week", false}};
	Split(sets[0]);
	// CPS1988: wage above the median wage of the public rows (a public threshold).
	sets[1].name = "cps1988";
	sets[1].table = ReadCsv("zcat " + dir + "/cps1988.csv.gz");
	Split(sets[1]);
	{
		std::vector<double> wages;
		for (std::size_t i : sets[1].pub)
			wages.push_back(std::strtod(sets[1].table[i][0].c_str(), nullptr));
		std::nth_element(wages.begin(), wages.begin() + std::ptrdiff_t(wages.size() / 2), wages.end());
		const double median = wages[wages.size() / 2];
		sets[1].labels.assign(sets[1].table.size(), 0);
		for (std::size_t i = 1; i < sets[1].table.size(); i++)
			sets[1].labels[i] = std::strtod(sets[1].table[i][0].c_str(), nullptr) > median ? 1 : 0;
	}
	sets[1].cells_features = {{"education", false}, {"experience", false}, {"parttime", true}};
	sets[1].logistic_features = {{"education", false}, {"experience", false}, {"ethnicity", true},
	                             {"smsa", true},       {"region", true},      {"parttime", true}};

	const std::vector<double> epsilons = ci ? std::vector<double>{1.0} : std::vector<double>{0.5, 1, 2, 4};
	const int reps = ci ? 1 : 3;
	const double delta = 1e-6;
	const std::int64_t cutoff = 10;
	FILE *out = std::fopen(argv[2], "w");
	std::fprintf(out, "dataset,learner,epsilon,rep,private_rows,public_rows,chunks,threshold,labelled_share,"
	                  "label_accuracy,model_accuracy,nonprivate_accuracy,majority_accuracy,private_only_accuracy\n");
	for (DataSet &d : sets) {
		for (LearnerKind kind : {LearnerKind::Cells, LearnerKind::Logistic}) {
			if (ci && kind == LearnerKind::Logistic && d.name == "adult")
				continue;
			const std::vector<Feature> &features = kind == LearnerKind::Cells ? d.cells_features : d.logistic_features;
			const Rows priv = Select(d.table, d.priv, features, d.labels);
			const Rows pub = Select(d.table, d.pub, features, d.labels);
			const Rows held = Select(d.table, d.held, features, d.labels);
			const LabelSchemaData data = DescribeLabelSchema(pub.View(), kind, std::uint64_t(1) << 24, Allocate);
			const FeatureSchema schema = FeatureSchema::FromData(data);
			const double nonprivate = Accuracy(kind, schema, Train(kind, schema, priv), held);
			std::int64_t ones = 0;
			for (std::int32_t l : priv.labels)
				ones += l;
			const std::int32_t majority = 2 * ones > std::int64_t(priv.labels.size()) ? 1 : 0;
			double majority_accuracy = 0;
			for (std::int32_t l : held.labels)
				majority_accuracy += l == majority;
			majority_accuracy /= double(held.labels.size());
			// The private-only baseline needs a cells layout: the cells learner's features.
			const Rows cells_priv = Select(d.table, d.priv, d.cells_features, d.labels);
			const Rows cells_pub = Select(d.table, d.pub, d.cells_features, d.labels);
			const Rows cells_held = Select(d.table, d.held, d.cells_features, d.labels);
			const FeatureSchema cells_schema = FeatureSchema::FromPublicRows(cells_pub.View());
			for (double epsilon : epsilons)
				for (int rep = 0; rep < reps; rep++) {
					LabellingRequest req;
					req.private_rows = std::int64_t(priv.labels.size());
					req.public_rows = std::int64_t(pub.labels.size());
					req.cutoff = cutoff;
					req.epsilon = epsilon;
					req.delta = delta;
					const LabellingPlan plan = PlanLabelling(req);
					LabellingRunRequest run;
					run.schema = &data;
					run.learner = kind;
					run.class_count = 2;
					run.private_rows = priv.View();
					run.private_labels = priv.labels.data();
					run.public_rows = pub.View();
					run.seed = 1000 * rep + std::int64_t(epsilon * 10);
					const LabellingOutcome o = RunLabelling(run, plan, Allocate);
					std::size_t right = 0;
					for (std::size_t r = 0; r < pub.labels.size(); r++)
						right += o.labels[r] >= 0 && o.labels[r] == pub.labels[r];
					const double label_accuracy = o.labelled > 0 ? double(right) / double(o.labelled) : NAN;
					const double model_accuracy =
					    o.model == nullptr
					        ? NAN
					        : Accuracy(kind, schema, std::vector<double>(o.model, o.model + o.model_size), held);
					SeededRandomSource rng(std::uint64_t(77 + run.seed));
					const double private_only = PrivateOnlyAccuracy(cells_schema, cells_priv, cells_held, epsilon, rng);
					std::fprintf(out, "%s,%s,%g,%d,%zu,%zu,%lld,%lld,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", d.name.c_str(),
					             LearnerName(kind), epsilon, rep, priv.labels.size(), pub.labels.size(),
					             (long long)plan.chunks, (long long)plan.threshold,
					             double(o.labelled) / double(pub.labels.size()), label_accuracy, model_accuracy,
					             nonprivate, majority_accuracy, private_only);
					std::fflush(out);
				}
		}
	}
	std::fclose(out);
	return 0;
}
