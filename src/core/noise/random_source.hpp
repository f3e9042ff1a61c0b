// Uniform random bits for every noise sampler, as a Boost.Random UniformRandomBitGenerator.
// Privacy rests on SecureRandomSource (bytes from a cryptographically secure source, buffered). A failing
// source throws Error(RandomSourceFailure); there is no fallback. SeededRandomSource is for reproducible tests
// only: releases made with it are marked as not private by the glue.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

namespace pap::core {

class RandomBitSource {
public:
	using result_type = std::uint64_t;
	static constexpr result_type
	min()
	{
		return 0;
	}
	static constexpr result_type
	max()
	{
		return ~result_type(0);
	}
	virtual ~RandomBitSource() = default;

	// Inline and buffered: a discrete Laplace draw takes about nine words, and a virtual call per word was a
	// measurable part of it. Each word handed out is wiped from the buffer, so a later memory disclosure does
	// not reveal noise already drawn.
	result_type
	operator()()
	{
		if (next_ == kBufferWords)
			Refill();
		const result_type word = buffer_[next_];
		buffer_[next_++] = 0;
		++words_drawn_;
		return word;
	}

	// Number of 64-bit words handed out so far (for tests that check how much randomness a sampler consumes).
	std::uint64_t
	words_drawn() const
	{
		return words_drawn_;
	}

protected:
	static constexpr std::size_t kBufferWords = 512;
	// Fills words[0, kBufferWords) or throws; called only when every buffered word has been handed out.
	virtual void Fill(result_type *words) = 0;

private:
	void Refill();

	result_type buffer_[kBufferWords];
	std::size_t next_ = kBufferWords;
	std::uint64_t words_drawn_ = 0;
};

// Fills buf with len cryptographically secure random bytes; returns false on failure.
using FillSecureBytes = bool (*)(void *context, unsigned char *buf, std::size_t len);

// The operating system's CSPRNG (getrandom(2)); usable where no PostgreSQL is present (tests, bench, eval).
bool FillFromOperatingSystem(void *context, unsigned char *buf, std::size_t len);

class SecureRandomSource final : public RandomBitSource {
public:
	SecureRandomSource(FillSecureBytes fill, void *context);

private:
	void Fill(result_type *words) override;  // 4096 bytes per call to the byte source

	FillSecureBytes fill_;
	void *context_;
};

// Deterministic stream for tests. NOT private: anyone who knows the seed knows the noise.
class SeededRandomSource final : public RandomBitSource {
public:
	explicit SeededRandomSource(std::uint64_t seed);

private:
	void Fill(result_type *words) override;
	result_type Next();

	std::uint64_t state_[4];
};

}  // namespace pap::core

#include "core/base/core_only.hpp"
