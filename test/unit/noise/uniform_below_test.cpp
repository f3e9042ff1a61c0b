// UniformBelow is Boost.Random's uniform_int_distribution<uint64_t>(0, m - 1) with its per-call division done
// once: these tests hold it to Boost word for word (same values, same number of words, rejections included).
#include "core/noise/uniform_below.hpp"

#include <gtest/gtest.h>

#include <boost/random/uniform_int_distribution.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "core/base/errors.hpp"
#include "core/noise/random_source.hpp"

namespace pap::core {
namespace {

constexpr std::uint64_t kAll = ~std::uint64_t(0);

// Hands out the given words in order, then again from the start.
class ScriptedSource final : public RandomBitSource {
public:
	explicit ScriptedSource(std::vector<std::uint64_t> words) : words_(std::move(words)) {}

private:
	void
	Fill(result_type *out) override
	{
		for (std::size_t i = 0; i < kBufferWords; i++)
			out[i] = words_[next_++ % words_.size()];
	}
	std::vector<std::uint64_t> words_;
	std::size_t next_ = 0;
};

std::vector<std::uint64_t>
Moduli()
{
	std::vector<std::uint64_t> m = {1,
	                                2,
	                                3,
	                                5,
	                                7,
	                                10,
	                                16,
	                                17,
	                                1000003,
	                                std::uint64_t(1) << 32,
	                                (std::uint64_t(1) << 32) + 1,
	                                (std::uint64_t(1) << 52) + 1,
	                                (std::uint64_t(1) << 63) - 1,
	                                std::uint64_t(1) << 63,
	                                (std::uint64_t(1) << 63) + 1,  // about half of all words rejected
	                                3 * (std::uint64_t(1) << 62),
	                                kAll - 1,
	                                kAll};
	std::mt19937_64 pick(20261122);
	for (int i = 0; i < 40; i++)
		m.push_back((pick() >> (pick() % 64)) | 1);
	return m;
}

TEST(UniformBelow, SameValuesAndWordsAsBoost)
{
	for (std::uint64_t m : Moduli()) {
		SeededRandomSource ours(m), boosts(m);
		const UniformBelow below(m);
		boost::random::uniform_int_distribution<std::uint64_t> dist(0, m - 1);
		for (int i = 0; i < 3000; i++)
			ASSERT_EQ(below(ours), dist(boosts)) << "m=" << m << " draw " << i;
		EXPECT_EQ(ours.words_drawn(), boosts.words_drawn()) << "m=" << m;
	}
}

TEST(UniformBelow, BelowIsTheValueComparedWithN)
{
	for (std::uint64_t m : Moduli()) {
		for (std::uint64_t n : {std::uint64_t(0), std::uint64_t(1), m / 3, m / 2, m - 1, m}) {
			SeededRandomSource ours(m + n), boosts(m + n);
			const UniformBelow below(m);
			boost::random::uniform_int_distribution<std::uint64_t> dist(0, m - 1);
			for (int i = 0; i < 500; i++)
				ASSERT_EQ(below.Below(ours, n), dist(boosts) < n) << "m=" << m << " n=" << n << " draw " << i;
			EXPECT_EQ(ours.words_drawn(), boosts.words_drawn()) << "m=" << m << " n=" << n;
		}
	}
}

TEST(UniformBelow, RejectsTheWordsBoostRejects)
{
	// m = 3: the bucket is floor(2^64 / 3) and the one word 2^64 - 1 maps to 3, outside the range. m = 2^63 + 1:
	// the bucket is 1, so every word from 2^63 + 1 on is rejected.
	struct Case {
		std::uint64_t m;
		std::vector<std::uint64_t> words;
	};
	const std::vector<Case> cases = {{3, {kAll, kAll, 5, kAll / 3 * 2 + 1}},
	                                 {(std::uint64_t(1) << 63) + 1, {kAll, std::uint64_t(1) << 63, 7}},
	                                 {kAll, {kAll, kAll - 1, 0}}};
	for (const Case &c : cases) {
		ScriptedSource ours(c.words), boosts(c.words);
		const UniformBelow below(c.m);
		boost::random::uniform_int_distribution<std::uint64_t> dist(0, c.m - 1);
		for (int i = 0; i < 6; i++) {
			ASSERT_EQ(below(ours), dist(boosts)) << "m=" << c.m << " draw " << i;
			ASSERT_EQ(ours.words_drawn(), boosts.words_drawn()) << "m=" << c.m << " draw " << i;
		}
		EXPECT_GT(ours.words_drawn(), 6u) << "m=" << c.m << ": some word must have been rejected";
	}
}

TEST(UniformBelow, OneDrawsNothingAndZeroIsRefused)
{
	SeededRandomSource rng(1);
	const UniformBelow one(1);
	EXPECT_EQ(one(rng), 0u);
	EXPECT_TRUE(one.Below(rng, 1));
	EXPECT_FALSE(one.Below(rng, 0));
	EXPECT_EQ(rng.words_drawn(), 0u);
	try {
		UniformBelow zero(0);
		FAIL() << "an empty range must be rejected";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::Internal);
	}
}

}  // namespace
}  // namespace pap::core
