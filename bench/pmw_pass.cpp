// Core-level figure of docs/bench.md: one PMW pass (ProductWorkload::Evaluate, all answers from the synthetic
// distribution) over a dense 2-D grid costs time proportional to cells + queries. Random boxes (mixes of points,
// one-sided and two-sided intervals, like a boxes cover) over grids of 1e5 and 1e6 cells; prints the median time
// of one Evaluate and that time per (cells + queries), which stays flat when the cost is linear.
// Usage: pmw_pass [--ci]   (--ci: 3 repetitions instead of 7)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/cells/cell_domain.hpp"
#include "core/workloads/product_workload.hpp"

using namespace pap::core;

int
main(int argc, char **argv)
{
	const int reps = argc > 1 && std::strcmp(argv[1], "--ci") == 0 ? 3 : 7;
	std::printf("\n## One PMW pass (ProductWorkload::Evaluate) on a dense 2-D grid\n\n");
	std::printf("Random boxes as queries; median of %d Evaluate calls.\n\n", reps);
	std::printf("| cells | queries | Evaluate ms | ns per (cells + queries) |\n|---:|---:|---:|---:|\n");
	struct Case {
		int side;
		std::size_t queries;
	};
	for (const Case c :
	     {Case{316, 10000}, Case{316, 100000}, Case{1000, 10000}, Case{1000, 100000}, Case{1000, 1000000}}) {
		const CellDomain domain = CellDomain::Dense({c.side, c.side}, std::numeric_limits<std::uint64_t>::max());
		std::mt19937_64 gen(6);
		ProductQueryList queries;
		for (std::size_t q = 0; q < c.queries; q++) {
			std::vector<AxisConstraint> box;
			for (std::uint32_t a = 0; a < 2; a++) {
				std::int32_t lo = std::int32_t(gen() % std::uint64_t(c.side)),
				             hi = std::int32_t(gen() % std::uint64_t(c.side));
				if (lo > hi)
					std::swap(lo, hi);
				switch (gen() % 4) {
				case 0: continue;        // axis unconstrained
				case 1: lo = 0; break;   // one-sided
				case 2: hi = lo; break;  // point
				default: break;
				}
				box.push_back({a, {lo, hi}});
			}
			queries.Add(box);
		}
		const ProductWorkload workload(domain, queries);
		std::vector<double> weights(domain.CellCount());
		for (double &w : weights)
			w = std::uniform_real_distribution<double>(0, 1)(gen);
		std::vector<double> answers, times;
		for (int r = 0; r < reps; r++) {
			const auto t0 = std::chrono::steady_clock::now();
			workload.Evaluate(weights, answers);
			times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
		}
		std::sort(times.begin(), times.end());
		const double ms = times[times.size() / 2];
		std::printf("| %zu | %zu | %.2f | %.2f |\n", domain.CellCount(), c.queries, ms,
		            ms * 1e6 / double(domain.CellCount() + c.queries));
	}
	return 0;
}
