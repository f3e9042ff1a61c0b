// The public prior's sampling error estimated from the public sample itself (docs/mechanisms.md §10 (d), "The
// bootstrap"): how far the public table's answers to the cover queries may be from the private table's, both
// samples of one population, as the bootstrap of the sup of the empirical process over the cover queries. Reads the
// public histogram and the cover alone: public information.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/workloads/workload.hpp"

namespace pap::core {

// Resamples drawn at most, and at least (below it the cost cap leaves the estimate to the union bound), and the
// cost a bootstrap may take, in cells plus cover queries evaluated (each resample evaluates the cover once with
// the workload's prefix sums).
constexpr int kBootstrapMaxResamples = 256;
constexpr int kBootstrapMinResamples = 32;
constexpr double kBootstrapCostBudget = 128.0 * 1024 * 1024;
// The generator's fixed seed: the estimate is a function of the public histogram, the same at every plan.
constexpr std::uint64_t kBootstrapSeed = 0x9e3779b97f4a7c15ULL;

// The bootstrap's resamples for a workload of `cells` cells and `queries` queries: the cost budget's share,
// capped at kBootstrapMaxResamples; 0 when not even kBootstrapMinResamples fit.
int BootstrapResamples(std::size_t cells, std::size_t queries);

// The estimate (fraction), at confidence 1 - beta: B resamples of the public histogram's m rows with replacement
// (a fixed seed), each giving D* = max over the workload's queries of |answer of the resample - public answer| / m.
// D* estimates the distribution of sup_q |P_m(q) - P(q)| (consistent for a class of finite VC dimension: Gine and
// Zinn 1990). The private table's own sampling, independent, widens it by sqrt(1 + m / n) (the variances of the two
// shares add). The quantile: the order statistic of rank ceil((1 - beta) (B + 1)) when B resolves it, else the
// resamples' mean plus McDiarmid's deviation sqrt(ln(1 / beta) (1/m + 1/n) / 2) (one row moves the sup by at most
// 1/m, one private row by 1/n). Never below PrivateShareBound(0, m, n, ln(2 / beta)): a set the public sample
// shows no row of, which no resample shows either (a public table of one value). Returns a negative value when the
// budget allows fewer than kBootstrapMinResamples resamples (the caller keeps its union bound). Error(Internal) for a
// histogram whose size is not the workload's or without rows, or n <= 0; Error(Cancelled) when interrupted (polled per
// cell and draw).
double BootstrapPriorSamplingError(const std::vector<std::int64_t> &public_histogram, const Workload &workload,
                                   std::int64_t private_rows, double beta);

}  // namespace pap::core

#include "core/base/core_only.hpp"
