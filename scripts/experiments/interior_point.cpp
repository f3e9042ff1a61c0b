// The interior-point check of docs/experiments.md: how often the exponential-mechanism median
// (core/mechanisms/private_quantile.hpp) lands between the smallest and the largest private value, against n over
// the n of its guarantee, (4/epsilon) ln(|X|/beta). The data put every row on one value in the middle of the
// domain (the hardest case: the interior is a single point). Secure random bits; prints CSV.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/mechanisms/private_quantile.hpp"
#include "core/noise/random_source.hpp"

int
main(int argc, char **argv)
{
	const int runs = argc > 1 ? std::atoi(argv[1]) : 2000;
	const double epsilon = 1.0, beta = 0.05;
	pap::core::SecureRandomSource rng(pap::core::FillFromOperatingSystem, nullptr);
	std::printf("domain,epsilon,bound_rows,ratio,rows,runs,inside,rate\n");
	for (const std::size_t domain : {100u, 1000u, 10000u}) {
		const double bound = pap::core::InteriorPointRows(double(domain), epsilon, beta);
		for (const double ratio : {0.125, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0}) {
			const auto n = std::int64_t(std::ceil(ratio * bound));
			std::vector<std::int64_t> counts(domain, 0);
			counts[domain / 2] = n;
			int inside = 0;
			for (int r = 0; r < runs; r++)
				inside += pap::core::SamplePrivateQuantile(counts, 0, 0.5, epsilon, rng) == domain / 2;
			std::printf("%zu,%g,%.1f,%g,%lld,%d,%d,%.4f\n", domain, epsilon, bound, ratio, (long long)n, runs, inside,
			            double(inside) / runs);
		}
	}
	return 0;
}
