// A DP quantile over a declared domain, run from the glue without a release (api/release_api.hpp,
// RunPrivateQuantile; docs/mechanisms.md §16): the declared grid, the private scan's bins, and the exponential
// mechanism of mechanisms/private_quantile.hpp.
#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "core/api/release_api.hpp"
#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"
#include "core/language/query_text.hpp"
#include "core/mechanisms/private_quantile.hpp"
#include "core/release/declared_domain.hpp"
#include "core/release/release_layout.hpp"

namespace pap::core {

namespace {

void *
AllocateOrThrow(Allocate allocate, std::size_t bytes)
{
	void *out = allocate(bytes);
	if (out == nullptr)
		throw std::bad_alloc();
	return out;
}

}  // namespace

const double *
PrivateQuantileCandidates(const PrivateQuantileDomain &d, std::size_t *count, Allocate allocate)
{
	const InterruptScope scope(d.interrupted);
	const std::size_t limit = std::size_t(std::min<std::uint64_t>(d.max_values, kMaxQuantileCandidates));
	std::vector<double> grid;
	try {
		grid = DeclaredGrid(d.column, d.low, d.high, d.step, limit);
	} catch (const Error &e) {
		if (e.kind() != ErrorKind::LimitExceeded || limit == d.max_values)
			throw;
		throw Error(ErrorKind::LimitExceeded, e.what(), e.detail(),
		            "A private quantile ranks at most " + std::to_string(kMaxQuantileCandidates) +
		                " values, whatever pap_release.max_cells allows: declare a coarser step or narrower bounds.");
	}
	auto *out = static_cast<double *>(AllocateOrThrow(allocate, sizeof(double) * grid.size()));
	std::copy(grid.begin(), grid.end(), out);
	*count = grid.size();
	return out;
}

char *
PrivateQuantileScanSelectList(const char *column, std::size_t candidate_count, Allocate allocate)
{
	// One aggregate over one axis of K + 2 bins, as a release's scan: with K + 2 <= 2^18 (the glue's bound) its
	// state is one dense array in memory whatever the rows, never a sort or a hash table spilled to temporary files,
	// so that neither the plan the private table's statistics choose nor temp_file_limit nor memory can make a
	// charged run fail on the number of distinct values (docs/security.md, "What errors and messages may say").
	const std::string sql =
	    ReleaseLayout::GridCountsSql({std::int64_t(candidate_count) + 2}, {"$1, " + SqlIdentifier(column)});
	auto *out = static_cast<char *>(AllocateOrThrow(allocate, sql.size() + 1));
	std::memcpy(out, sql.c_str(), sql.size() + 1);
	return out;
}

std::size_t
RunPrivateQuantile(const PrivateQuantileRun &run)
{
	const InterruptScope scope(run.interrupted);
	std::vector<std::int64_t> counts(run.candidate_count, 0);
	std::int64_t rows_above = 0;
	for (std::size_t i = 0; i < run.bin_count; i++) {
		const std::int32_t bin = run.bins[i];
		if (bin < 0 || std::size_t(bin) > run.candidate_count + 1 || run.rows[i] < 0)
			throw Error(ErrorKind::Internal, "private quantile scan bin out of range");
		// A row above the declared max (or NaN) counts at the max, as one below the min counts at the min
		// (pap.cell_index's bin 0): ranking it above every candidate made every candidate equally far from a rank
		// among such rows, and the answer uniform over the domain. A NULL row ranks above every value (NULLS LAST).
		if (std::size_t(bin) <= run.candidate_count)
			counts[std::min(std::size_t(bin), run.candidate_count - 1)] += run.rows[i];
		else
			rows_above += run.rows[i];  // NULL
	}
	std::unique_ptr<RandomBitSource> rng;
	if (run.seed >= 0)
		rng = std::make_unique<SeededRandomSource>(std::uint64_t(run.seed));
	else
		rng = std::make_unique<SecureRandomSource>(run.fill_secure, nullptr);
	return SamplePrivateQuantile(counts, rows_above, run.q, run.epsilon, *rng, run.interrupted);
}

}  // namespace pap::core
