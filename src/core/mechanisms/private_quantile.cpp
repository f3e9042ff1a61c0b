// The exponential-mechanism quantile over a declared domain (private_quantile.hpp).
#include "core/mechanisms/private_quantile.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/errors.hpp"
#include "core/mechanisms/mwem.hpp"

namespace pap::core {

std::vector<std::uint64_t>
QuantileScores(const std::vector<std::int64_t> &counts, std::int64_t rows_above, double q)
{
	if (!(q >= 0.0 && q <= 1.0))
		throw Error(ErrorKind::InvalidParameter, "quantile must be in [0, 1]");
	if (counts.empty())
		throw Error(ErrorKind::InvalidParameter, "a private quantile needs at least one candidate value");
	std::int64_t n = rows_above;
	for (std::int64_t c : counts) {
		if (c < 0 || rows_above < 0)
			throw Error(ErrorKind::InvalidParameter, "row counts must not be negative");
		n += c;
	}
	std::vector<std::uint64_t> scores(counts.size(), 0);
	if (n == 0)
		return scores;
	const std::int64_t t = std::clamp(std::int64_t(std::ceil(q * double(n))), std::int64_t(1), n);
	std::int64_t below = 0;
	for (std::size_t i = 0; i < counts.size(); i++) {
		const std::int64_t at_most = below + counts[i];
		const std::int64_t distance = std::max({std::int64_t(0), below - (t - 1), t - at_most});
		scores[i] = std::uint64_t(n - distance);
		below = at_most;
	}
	return scores;
}

std::size_t
SamplePrivateQuantile(const std::vector<std::int64_t> &counts, std::int64_t rows_above, double q, double epsilon,
                      RandomBitSource &rng, InterruptCheck interrupted)
{
	if (!(std::isfinite(epsilon) && epsilon >= 0x1p-32))
		throw Error(ErrorKind::InvalidParameter, "epsilon of a private quantile must be finite and at least 2^-32");
	const std::vector<std::uint64_t> scores = QuantileScores(counts, rows_above, q);
	std::uint64_t numerator = 0, denominator = 1;
	RationalAtMost(epsilon, numerator, denominator);
	return SelectExponential(scores, numerator, denominator, rng, interrupted);
}

std::vector<double>
PrivateQuantileProbabilities(const std::vector<std::uint64_t> &scores, double epsilon)
{
	std::uint64_t numerator = 0, denominator = 1;
	RationalAtMost(epsilon, numerator, denominator);
	const double e = double(numerator) / double(denominator);
	const std::uint64_t top = *std::max_element(scores.begin(), scores.end());
	std::vector<double> p(scores.size());
	double total = 0.0;
	for (std::size_t i = 0; i < scores.size(); i++)
		total += p[i] = std::exp(-e * double(top - scores[i]) / 2.0);
	for (double &x : p)
		x /= total;
	return p;
}

double
InteriorPointRows(double domain_size, double epsilon, double beta)
{
	return 4.0 / epsilon * std::log(domain_size / beta);
}

}  // namespace pap::core
