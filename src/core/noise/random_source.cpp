#include "core/noise/random_source.hpp"

#include <sys/random.h>

#include <cerrno>

#include "core/base/errors.hpp"

namespace pap::core {

bool
FillFromOperatingSystem(void *, unsigned char *buf, std::size_t len)
{
	std::size_t done = 0;
	while (done < len) {
		// flags 0: the urandom pool, which blocks only until the kernel CSPRNG is first seeded.
		ssize_t got = getrandom(buf + done, len - done, 0);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return false;
		}
		if (got == 0)
			return false;  // never happens for a working kernel; refuse rather than loop forever
		done += static_cast<std::size_t>(got);
	}
	return true;
}

SecureRandomSource::SecureRandomSource(FillSecureBytes fill, void *context) : fill_(fill), context_(context)
{
	if (fill_ == nullptr)
		throw Error(ErrorKind::Internal, "secure random source created without a byte source");
}

void
RandomBitSource::Refill()
{
	// Still marked empty while Fill runs: after a failed fill nothing stale or partial is ever handed out, and
	// the next call tries the source again instead of falling back to anything.
	Fill(buffer_);
	next_ = 0;
}

void
SecureRandomSource::Fill(result_type *words)
{
	if (!fill_(context_, reinterpret_cast<unsigned char *>(words), kBufferWords * sizeof(result_type)))
		throw Error(ErrorKind::RandomSourceFailure, "could not obtain secure random bytes");
}

namespace {

std::uint64_t
SplitMix64(std::uint64_t &state)
{
	std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

std::uint64_t
RotateLeft(std::uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

}  // namespace

SeededRandomSource::SeededRandomSource(std::uint64_t seed)
{
	// splitmix64 is the seeding recommended by the xoshiro authors: it never yields the all-zero state.
	std::uint64_t sm = seed;
	for (std::uint64_t &word : state_)
		word = SplitMix64(sm);
}

inline SeededRandomSource::result_type
SeededRandomSource::Next()
{
	// xoshiro256** (Blackman and Vigna).
	const std::uint64_t result = RotateLeft(state_[1] * 5, 7) * 9;
	const std::uint64_t t = state_[1] << 17;
	state_[2] ^= state_[0];
	state_[3] ^= state_[1];
	state_[1] ^= state_[2];
	state_[0] ^= state_[3];
	state_[2] ^= t;
	state_[3] = RotateLeft(state_[3], 45);
	return result;
}

void
SeededRandomSource::Fill(result_type *words)
{
	for (std::size_t i = 0; i < kBufferWords; i++)
		words[i] = Next();
}

}  // namespace pap::core
