// The random sources under every noise sampler: the secure source must fail loudly (never fall back), and the
// seeded source must be a reproducible xoshiro256** stream.
#include "core/noise/random_source.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "core/base/errors.hpp"

namespace pap::core {
namespace {

static_assert(RandomBitSource::min() == 0, "full 64-bit range");
static_assert(RandomBitSource::max() == ~std::uint64_t(0), "full 64-bit range");

bool
AlwaysFail(void *, unsigned char *, std::size_t)
{
	return false;
}

// Fills with a byte counter, records the calls, and fails once its budget of successful fills is used up.
struct FakeSource {
	int successes_left = 0;
	int calls = 0;
	std::vector<std::size_t> lengths;
	unsigned char next_byte = 0;
};

bool
FakeFill(void *context, unsigned char *buf, std::size_t len)
{
	auto *fake = static_cast<FakeSource *>(context);
	++fake->calls;
	fake->lengths.push_back(len);
	if (fake->successes_left == 0)
		return false;
	--fake->successes_left;
	for (std::size_t i = 0; i < len; ++i)
		buf[i] = fake->next_byte++;
	return true;
}

std::uint64_t
CounterWord(unsigned first_byte)
{
	unsigned char bytes[8];
	for (unsigned i = 0; i < 8; ++i)
		bytes[i] = static_cast<unsigned char>(first_byte + i);
	std::uint64_t word;
	std::memcpy(&word, bytes, sizeof(word));
	return word;
}

TEST(SeededRandomSource, SameSeedGivesSameStream)
{
	SeededRandomSource a(12345), b(12345);
	for (int i = 0; i < 1000; ++i)
		ASSERT_EQ(a(), b()) << "word " << i;
}

TEST(SeededRandomSource, DifferentSeedsGiveDifferentStreams)
{
	SeededRandomSource a(1), b(2);
	int equal = 0;
	for (int i = 0; i < 1000; ++i)
		equal += a() == b();
	EXPECT_EQ(equal, 0);
}

TEST(SeededRandomSource, MatchesReferenceXoshiro256StarStarWithSplitMix64Seeding)
{
	// From an independent Python transcription of splitmix64 + xoshiro256** (Blackman and Vigna).
	const std::uint64_t seed0[] = {0x99ec5f36cb75f2b4ULL, 0xbf6e1f784956452aULL, 0x1a5f849d4933e6e0ULL,
	                               0x6aa594f1262d2d2cULL};
	const std::uint64_t seed42[] = {0x15780b2e0c2ec716ULL, 0x6104d9866d113a7eULL, 0xae17533239e499a1ULL,
	                                0xecb8ad4703b360a1ULL};
	SeededRandomSource a(0), b(42);
	for (int i = 0; i < 4; ++i) {
		EXPECT_EQ(a(), seed0[i]) << "seed 0 word " << i;
		EXPECT_EQ(b(), seed42[i]) << "seed 42 word " << i;
	}
}

// splitmix64 seeding and xoshiro256** written out plainly, one word per call: the buffered source must hand out
// the same stream across its refills.
std::vector<std::uint64_t>
PlainXoshiro(std::uint64_t seed, std::size_t count)
{
	auto rotl = [](std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); };
	std::uint64_t s[4];
	for (std::uint64_t &word : s) {
		std::uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		word = z ^ (z >> 31);
	}
	std::vector<std::uint64_t> out;
	for (std::size_t i = 0; i < count; i++) {
		out.push_back(rotl(s[1] * 5, 7) * 9);
		const std::uint64_t t = s[1] << 17;
		s[2] ^= s[0];
		s[3] ^= s[1];
		s[1] ^= s[2];
		s[0] ^= s[3];
		s[2] ^= t;
		s[3] = rotl(s[3], 45);
	}
	return out;
}

TEST(SeededRandomSource, BufferedStreamEqualsThePlainGenerator)
{
	const std::vector<std::uint64_t> plain = PlainXoshiro(2026, 2000);
	SeededRandomSource rng(2026);
	for (std::size_t i = 0; i < plain.size(); ++i)
		ASSERT_EQ(rng(), plain[i]) << "word " << i;
}

TEST(SeededRandomSource, CountsWordsDrawn)
{
	SeededRandomSource rng(7);
	EXPECT_EQ(rng.words_drawn(), 0u);
	for (int i = 0; i < 37; ++i)
		rng();
	EXPECT_EQ(rng.words_drawn(), 37u);
}

TEST(SecureRandomSource, ThrowsRandomSourceFailureWhenFillFails)
{
	SecureRandomSource rng(AlwaysFail, nullptr);
	for (int attempt = 0; attempt < 2; ++attempt) {
		// Every call fails again: no fallback to another generator, no stale bytes.
		try {
			rng();
			FAIL() << "a failing byte source must throw";
		} catch (const Error &e) {
			EXPECT_EQ(e.kind(), ErrorKind::RandomSourceFailure);
			EXPECT_STREQ(e.what(), "could not obtain secure random bytes");
		}
	}
	EXPECT_EQ(rng.words_drawn(), 0u);
}

TEST(SecureRandomSource, HandsOutBufferedBytesInOrderThenFailsWhenSourceDies)
{
	FakeSource fake;
	fake.successes_left = 1;
	SecureRandomSource rng(FakeFill, &fake);
	for (unsigned i = 0; i < 4096 / 8; ++i)
		ASSERT_EQ(rng(), CounterWord((8 * i) & 0xff)) << "word " << i;
	EXPECT_EQ(rng.words_drawn(), 512u);
	EXPECT_EQ(fake.calls, 1);
	try {
		rng();
		FAIL() << "the 513th word needs a refill, which fails";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::RandomSourceFailure);
	}
	EXPECT_EQ(rng.words_drawn(), 512u);
	EXPECT_EQ(fake.calls, 2);
}

TEST(SecureRandomSource, RefillsIn4096ByteBlocksAndCountsWords)
{
	FakeSource fake;
	fake.successes_left = 1000;
	SecureRandomSource rng(FakeFill, &fake);
	EXPECT_EQ(fake.calls, 0);  // nothing is read before the first word is needed
	for (int i = 0; i < 512 * 3 + 1; ++i)
		rng();
	EXPECT_EQ(rng.words_drawn(), 512u * 3 + 1);
	EXPECT_EQ(fake.calls, 4);
	for (std::size_t len : fake.lengths)
		EXPECT_EQ(len, 4096u);
}

TEST(SecureRandomSource, RejectsMissingByteSource)
{
	try {
		SecureRandomSource rng(nullptr, nullptr);
		FAIL() << "a null fill function must be rejected";
	} catch (const Error &e) {
		EXPECT_EQ(e.kind(), ErrorKind::Internal);
	}
}

TEST(FillFromOperatingSystem, FillsBuffersOfAnySize)
{
	EXPECT_TRUE(FillFromOperatingSystem(nullptr, nullptr, 0));
	for (std::size_t len : {std::size_t(1), std::size_t(32), std::size_t(4096), std::size_t(1) << 22}) {
		std::vector<unsigned char> a(len, 0), b(len, 0);
		ASSERT_TRUE(FillFromOperatingSystem(nullptr, a.data(), len));
		ASSERT_TRUE(FillFromOperatingSystem(nullptr, b.data(), len));
		if (len >= 32) {
			EXPECT_NE(a, b) << "two draws of " << len << " bytes coincide";
		}
		if (len >= 4096) {
			// Large reads may be served in parts: the tail must be filled too.
			int nonzero_tail = 0;
			for (std::size_t i = len - 64; i < len; ++i)
				nonzero_tail += a[i] != 0;
			EXPECT_GT(nonzero_tail, 32);
		}
	}
}

TEST(SecureRandomSource, OperatingSystemWordsAreDistinctAndBitBalanced)
{
	SecureRandomSource rng(FillFromOperatingSystem, nullptr);
	constexpr int kWords = 20000;
	std::set<std::uint64_t> seen;
	std::uint64_t ones[64] = {};
	for (int i = 0; i < kWords; ++i) {
		const std::uint64_t w = rng();
		seen.insert(w);
		for (int bit = 0; bit < 64; ++bit)
			ones[bit] += (w >> bit) & 1;
	}
	EXPECT_EQ(seen.size(), std::size_t(kWords));
	EXPECT_EQ(rng.words_drawn(), std::uint64_t(kWords));
	// Binomial(20000, 1/2) has sd ~71: |z| < 5 per bit.
	for (int bit = 0; bit < 64; ++bit)
		EXPECT_NEAR(double(ones[bit]), kWords / 2.0, 5 * 70.72) << "bit " << bit;
}

}  // namespace
}  // namespace pap::core
