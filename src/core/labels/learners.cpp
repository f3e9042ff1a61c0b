#include "core/labels/learners.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"

namespace pap::core {

namespace {

std::int32_t
Majority(const std::vector<std::int64_t> &counts, std::size_t offset, std::int32_t class_count)
{
	std::int32_t best = 0;
	for (std::int32_t c = 1; c < class_count; c++)
		if (counts[offset + std::size_t(c)] > counts[offset + std::size_t(best)])
			best = c;
	return best;
}

std::vector<double>
TrainCells(const FeatureSchema &schema, std::int32_t class_count, const std::vector<const EncodedRow *> &rows,
           const std::vector<std::int32_t> &labels)
{
	const std::uint64_t cells = schema.CellCount();
	if (cells > kMaxModelCells)
		throw Error(ErrorKind::LimitExceeded, "the cells learner's layout has too many cells",
		            "It has " + std::to_string(cells) + " cells; the learner holds at most " +
		                std::to_string(kMaxModelCells) + ".",
		            "Use fewer or coarser features, or the logistic learner.");
	std::vector<std::int64_t> counts(std::size_t(cells) * std::size_t(class_count), 0),
	    overall(std::size_t(class_count), 0);
	for (std::size_t i = 0; i < rows.size(); i++) {
		counts[std::size_t(rows[i]->cell) * std::size_t(class_count) + std::size_t(labels[i])]++;
		overall[std::size_t(labels[i])]++;
	}
	const std::int32_t fallback = Majority(overall, 0, class_count);
	std::vector<double> model(static_cast<std::size_t>(cells), double(fallback));
	std::uint64_t steps = 0;
	for (std::size_t cell = 0; cell < std::size_t(cells); cell++) {
		PollInterrupt(steps);
		const std::size_t at = cell * std::size_t(class_count);
		bool any = false;
		for (std::int32_t c = 0; c < class_count; c++)
			any = any || counts[at + std::size_t(c)] > 0;
		if (any)
			model[cell] = double(Majority(counts, at, class_count));
	}
	return model;
}

// Scores of every class for one row: w_c . x + b_c.
void
Scores(const std::vector<double> &w, std::size_t width, std::int32_t class_count, const EncodedRow &row,
       std::vector<double> &scores)
{
	for (std::int32_t c = 0; c < class_count; c++) {
		const double *wc = w.data() + std::size_t(c) * (width + 1);
		double s = wc[width];
		for (std::size_t j = 0; j < row.numbers.size(); j++)
			s += wc[j] * row.numbers[j];
		for (std::uint32_t h : row.hot)
			s += wc[h];
		scores[std::size_t(c)] = s;
	}
}

void
Softmax(std::vector<double> &scores)
{
	const double top = *std::max_element(scores.begin(), scores.end());
	double sum = 0.0;
	for (double &s : scores) {
		s = std::exp(s - top);
		sum += s;
	}
	for (double &s : scores)
		s /= sum;
}

std::vector<double>
TrainLogistic(const FeatureSchema &schema, std::int32_t class_count, const std::vector<const EncodedRow *> &rows,
              const std::vector<std::int32_t> &labels)
{
	const std::size_t width = schema.InputWidth(), stride = width + 1;
	std::vector<double> w(std::size_t(class_count) * stride, 0.0), gradient(w.size()),
	    p(static_cast<std::size_t>(class_count));
	const double inverse_n = 1.0 / double(rows.size());
	std::uint64_t steps = 0;
	for (int step = 0; step < kLogisticSteps; step++) {
		for (std::size_t j = 0; j < w.size(); j++)
			gradient[j] = kLogisticPenalty * ((j % stride) == width ? 0.0 : w[j]);
		for (std::size_t i = 0; i < rows.size(); i++) {
			PollInterrupt(steps);
			const EncodedRow &row = *rows[i];
			Scores(w, width, class_count, row, p);
			Softmax(p);
			for (std::int32_t c = 0; c < class_count; c++) {
				const double residual = (p[std::size_t(c)] - (labels[i] == c ? 1.0 : 0.0)) * inverse_n;
				double *g = gradient.data() + std::size_t(c) * stride;
				for (std::size_t j = 0; j < row.numbers.size(); j++)
					g[j] += residual * row.numbers[j];
				for (std::uint32_t h : row.hot)
					g[h] += residual;
				g[width] += residual;
			}
		}
		for (std::size_t j = 0; j < w.size(); j++)
			w[j] -= kLogisticStep * gradient[j];
	}
	return w;
}

}  // namespace

std::vector<double>
TrainModel(LearnerKind kind, const FeatureSchema &schema, std::int32_t class_count,
           const std::vector<const EncodedRow *> &rows, const std::vector<std::int32_t> &labels)
{
	if (class_count < 1 || rows.size() != labels.size() || rows.empty())
		throw Error(ErrorKind::Internal, "learner called with inconsistent or no rows");
	return kind == LearnerKind::Cells ? TrainCells(schema, class_count, rows, labels)
	                                  : TrainLogistic(schema, class_count, rows, labels);
}

std::int32_t
PredictClass(LearnerKind kind, const FeatureSchema &schema, std::int32_t class_count, const std::vector<double> &model,
             const EncodedRow &row)
{
	if (kind == LearnerKind::Cells) {
		if (row.cell >= model.size())
			throw Error(ErrorKind::Internal, "cell outside the model");
		return std::int32_t(model[std::size_t(row.cell)]);
	}
	if (model.size() != std::size_t(class_count) * (schema.InputWidth() + 1))
		throw Error(ErrorKind::Internal, "logistic model of the wrong size");
	std::vector<double> scores(static_cast<std::size_t>(class_count));
	Scores(model, schema.InputWidth(), class_count, row, scores);
	// The first of the highest scores: ties go to the lowest class, as the cells learner's.
	return std::int32_t(std::max_element(scores.begin(), scores.end()) - scores.begin());
}

}  // namespace pap::core
