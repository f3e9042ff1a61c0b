// The learners a labelling trains, one per chunk of private rows and once more on the labelled public rows
// (docs/mechanisms.md §17). A model is a flat vector of parameters; training is deterministic, so a model is a
// function of its training rows only.
//  - cells: the majority class of each cell of the schema's layout (ties to the lowest class), and of the whole
//    training set for an empty cell; parameters: one class per cell.
//  - logistic: multinomial logistic regression, softmax over the classes, trained by full-batch gradient descent
//    (kLogisticSteps steps of size kLogisticStep, L2 penalty kLogisticPenalty) from zero weights; parameters:
//    class_count x (InputWidth() + 1) weights, the intercept last.
#pragma once
#include <cstdint>
#include <vector>

#include "core/api/labelling_api.hpp"
#include "core/labels/feature_schema.hpp"

#include "core/base/core_only.hpp"

namespace pap::core {

constexpr int kLogisticSteps = 200;
constexpr double kLogisticStep = 0.5;
constexpr double kLogisticPenalty = 1e-3;

// The largest cells layout the cells learner holds (one class per cell, as doubles), and the most counts a run's
// learners and votes hold at once (cells x classes per chunk model, public rows x classes of votes, classes x inputs
// of logistic weights): checked before the charge (RequireLabellingFits), so that no run fails after it.
constexpr std::uint64_t kMaxModelCells = std::uint64_t(1) << 24;
constexpr double kMaxLabelCounts = double(std::uint64_t(1) << 26);
// The most steps (a count, a weight or an input touched once) a run's training and votes may take.
constexpr double kMaxLabelWork = double(std::uint64_t(1) << 36);

// rows[i] has class labels[i] in [0, class_count); rows is not empty (a chunk without a labelled row abstains and
// trains nothing). Error(LimitExceeded) when the cells learner's layout is too large to hold.
std::vector<double> TrainModel(LearnerKind kind, const FeatureSchema &schema, std::int32_t class_count,
                               const std::vector<const EncodedRow *> &rows, const std::vector<std::int32_t> &labels);

std::int32_t PredictClass(LearnerKind kind, const FeatureSchema &schema, std::int32_t class_count,
                          const std::vector<double> &model, const EncodedRow &row);

}  // namespace pap::core

#include "core/base/core_only.hpp"
