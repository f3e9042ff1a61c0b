// Tests of the monotone CDF (isotonic_cdf.hpp): the isotonic regression against its min-max formula and its
// properties (non-decreasing, the sum kept, a fixed point on non-decreasing input, 1-Lipschitz in the sup norm), and
// the cells it gives back (non-negative, the total kept, no CDF value further from the truth than the noisy
// prefix sums were).
#include "core/mechanisms/isotonic_cdf.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "test_support.hpp"

namespace pap::core {
namespace {

using test::OutcomeOf;

// The isotonic regression at i is max over j <= i of min over k >= i of the mean of y[j..k] (Robertson, Wright &
// Dykstra 1988, Theorem 1.4.4): O(size^3), independent of the stack of blocks.
std::vector<double>
MinMax(const std::vector<double> &y)
{
	std::vector<double> out(y.size());
	for (std::size_t i = 0; i < y.size(); i++) {
		double best = -std::numeric_limits<double>::infinity();
		for (std::size_t j = 0; j <= i; j++) {
			double worst = std::numeric_limits<double>::infinity(), sum = 0;
			for (std::size_t k = j; k < y.size(); k++) {
				sum += y[k];
				if (k >= i)
					worst = std::min(worst, sum / double(k - j + 1));
			}
			best = std::max(best, worst);
		}
		out[i] = best;
	}
	return out;
}

double
SupDistance(const std::vector<double> &a, const std::vector<double> &b)
{
	double d = 0;
	for (std::size_t i = 0; i < a.size(); i++)
		d = std::max(d, std::abs(a[i] - b[i]));
	return d;
}

TEST(IsotonicRegression, MatchesTheMinMaxFormula)
{
	std::mt19937_64 gen(11);
	std::normal_distribution<double> noise(0.0, 3.0);
	for (std::size_t size : {0, 1, 2, 3, 7, 40}) {
		for (int trial = 0; trial < 20; trial++) {
			std::vector<double> y(size);
			for (std::size_t i = 0; i < size; i++)
				y[i] = 0.2 * double(i) + noise(gen);
			const std::vector<double> iso = IsotonicRegression(y);
			const std::vector<double> expected = MinMax(y);
			ASSERT_EQ(iso.size(), size);
			for (std::size_t i = 0; i < size; i++)
				EXPECT_NEAR(iso[i], expected[i], 1e-9);
			double sum_y = 0, sum_iso = 0;
			for (std::size_t i = 0; i < size; i++) {
				sum_y += y[i];
				sum_iso += iso[i];
				if (i > 0) {
					EXPECT_GE(iso[i], iso[i - 1]);
				}
			}
			EXPECT_NEAR(sum_iso, sum_y, 1e-9);
		}
	}
	EXPECT_EQ(IsotonicRegression({3, 1, 2}), (std::vector<double>{2, 2, 2}));
	EXPECT_EQ(IsotonicRegression({1, 2, 2, 5}), (std::vector<double>{1, 2, 2, 5}));  // non-decreasing: unchanged
	EXPECT_EQ(OutcomeOf([] { IsotonicRegression({1, std::nan(""), 2}); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { IsotonicRegression({1, std::numeric_limits<double>::infinity()}); }), "Internal");
}

// No value of the regression of a noisy non-decreasing sequence is further from it than the noise's largest value.
TEST(IsotonicRegression, NeverFurtherFromATrueCdfThanTheNoise)
{
	std::mt19937_64 gen(12);
	std::exponential_distribution<double> step(1.0);
	std::normal_distribution<double> noise(0.0, 5.0);
	for (int trial = 0; trial < 200; trial++) {
		const std::size_t size = 1 + std::size_t(trial % 60);
		std::vector<double> truth(size), noisy(size);
		double running = 0;
		for (std::size_t i = 0; i < size; i++) {
			running += trial % 3 == 0 ? 0.0 : step(gen);  // a third of the trials: a flat truth
			truth[i] = running;
			noisy[i] = running + noise(gen);
		}
		EXPECT_LE(SupDistance(IsotonicRegression(noisy), truth), SupDistance(noisy, truth) + 1e-9);
	}
}

TEST(MonotoneCdfCells, NonNegativeCellsOfTheTotalNoFurtherFromTheTruth)
{
	std::mt19937_64 gen(13);
	std::normal_distribution<double> noise(0.0, 20.0);
	for (std::size_t cells : {1, 2, 5, 300}) {
		for (int trial = 0; trial < 30; trial++) {
			// Most bins empty, the rows in a few (the case where the nearest non-negative histogram is biased).
			std::vector<double> truth(cells, 0.0), noisy(cells);
			const double total = 1000;
			truth[cells / 2] = total * 0.7;
			truth[cells - 1] += total * 0.3;
			for (std::size_t i = 0; i < cells; i++)
				noisy[i] = truth[i] + noise(gen);
			const std::vector<double> out = MonotoneCdfCells(noisy, total);
			ASSERT_EQ(out.size(), cells);
			double sum = 0, prefix_error = 0, noisy_prefix_error = 0, true_prefix = 0, noisy_prefix = 0, out_prefix = 0;
			for (std::size_t i = 0; i < cells; i++) {
				EXPECT_GE(out[i], 0.0);
				sum += out[i];
				if (i + 1 == cells)
					break;
				true_prefix += truth[i];
				noisy_prefix += noisy[i];
				out_prefix += out[i];
				prefix_error = std::max(prefix_error, std::abs(out_prefix - true_prefix));
				noisy_prefix_error = std::max(noisy_prefix_error, std::abs(noisy_prefix - true_prefix));
			}
			EXPECT_NEAR(sum, total, 1e-9);
			EXPECT_LE(prefix_error, noisy_prefix_error + 1e-9);
		}
	}
	EXPECT_EQ(MonotoneCdfCells({-5, 3, 2}, 10), (std::vector<double>{0, 0, 10}));  // prefixes -5, -2: held at 0
	EXPECT_EQ(MonotoneCdfCells({12, 3, 2}, 10), (std::vector<double>{10, 0, 0}));  // prefixes 12, 15: held at 10
	EXPECT_EQ(OutcomeOf([] { MonotoneCdfCells({}, 10); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { MonotoneCdfCells({1, 2}, 0); }), "Internal");
	EXPECT_EQ(OutcomeOf([] { MonotoneCdfCells({1, 2}, std::nan("")); }), "Internal");
}

}  // namespace
}  // namespace pap::core
