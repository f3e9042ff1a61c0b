#include "core/marginal_cover.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "core/errors.hpp"

namespace pap::core {

namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t
SaturatingAdd(std::uint64_t a, std::uint64_t b)
{
	std::uint64_t r;
	return __builtin_add_overflow(a, b, &r) ? kSaturated : r;
}

std::uint64_t
SaturatingMul(std::uint64_t a, std::uint64_t b)
{
	std::uint64_t r;
	return __builtin_mul_overflow(a, b, &r) ? kSaturated : r;
}

// e_k(weights): the number of conjunctions of k equalities, saturated.
std::uint64_t
ElementarySymmetric(const std::vector<std::uint64_t> &weights, std::size_t k)
{
	std::vector<std::uint64_t> e(k + 1, 0);
	e[0] = 1;
	for (std::uint64_t w : weights)
		for (std::size_t j = k; j >= 1; j--)
			e[j] = SaturatingAdd(e[j], SaturatingMul(e[j - 1], w));
	return e[k];
}

void
CheckCoordinates(const std::vector<std::int32_t> &radices, const std::vector<std::int32_t> &cell)
{
	if (cell.size() != radices.size())
		throw Error(ErrorKind::Internal, "cell coordinates do not match the cover's axes");
	for (std::size_t a = 0; a < radices.size(); a++)
		if (cell[a] < 0 || cell[a] >= radices[a])
			throw Error(ErrorKind::Internal, "cell coordinate outside its axis");
}

struct LabelingHash {
	std::size_t operator()(const std::vector<std::size_t> &l) const
	{
		std::uint64_t h = 0x9e3779b97f4a7c15ull ^ l.size();
		for (std::size_t x : l)
			h = (h ^ std::uint64_t(x)) * 0x100000001b3ull + (h >> 29);
		return std::size_t(h);
	}
};

}  // namespace

std::size_t
MarginalCover::KeyHash::operator()(const std::vector<std::int32_t> &key) const
{
	std::uint64_t h = 0xcbf29ce484222325ull;
	for (std::int32_t x : key)
		h = (h ^ std::uint64_t(std::uint32_t(x))) * 0x100000001b3ull + (h >> 31);
	return std::size_t(h);
}

std::vector<std::int32_t>
MarginalCover::Key(const std::vector<std::size_t> &axes, const std::vector<std::int32_t> &values)
{
	std::vector<std::int32_t> key;
	key.reserve(axes.size() + values.size());
	for (std::size_t a : axes)
		key.push_back(std::int32_t(a));
	key.insert(key.end(), values.begin(), values.end());
	return key;
}

void
MarginalCover::CheckCell(const std::vector<std::int32_t> &cell) const
{
	CheckCoordinates(radices_, cell);
}

MarginalCover::MarginalCover(std::vector<std::int32_t> radices, int k,
                             const std::vector<std::vector<std::int32_t>> &public_cells, std::uint64_t query_limit)
    : radices_(std::move(radices)), k_(k)
{
	const std::size_t d = radices_.size();
	if (d == 0 || k < 1 || std::size_t(k) > d)
		throw Error(ErrorKind::Internal, "marginal cover needs 1 <= k <= number of axes");
	for (std::int32_t r : radices_)
		if (r < 2)
			throw Error(ErrorKind::Internal, "marginal cover axis needs a value bin and a NULL bin");
	const std::size_t kk = std::size_t(k);
	std::vector<std::uint64_t> ones(d, 1), values(d);
	for (std::size_t a = 0; a < d; a++)
		values[a] = std::uint64_t(radices_[a] - 1);
	class_size_ = ElementarySymmetric(values, kk);
	const std::uint64_t set_count = ElementarySymmetric(ones, kk);  // C(D, k)
	if (set_count > query_limit)
		throw Error(ErrorKind::LimitExceeded, "marginal cover exceeds " + std::to_string(query_limit) + " queries",
		            "The class has " + (set_count == kSaturated ? std::string("more than 2^64")
		                                                        : std::to_string(set_count)) +
		                " attribute sets of " + std::to_string(k) + " columns, each giving at least one cover query.",
		            "Use a smaller k or fewer columns, or raise the query limit.");

	for (const std::vector<std::int32_t> &cell : public_cells)
		CheckCell(cell);
	distinct_public_ = public_cells;
	std::sort(distinct_public_.begin(), distinct_public_.end());
	distinct_public_.erase(std::unique(distinct_public_.begin(), distinct_public_.end()), distinct_public_.end());
	const std::size_t m = distinct_public_.size();

	std::unordered_map<std::vector<std::size_t>, std::size_t, LabelingHash> by_labeling;
	empty_query_ = std::numeric_limits<std::size_t>::max();
	std::vector<std::size_t> axes(kk);
	for (std::size_t j = 0; j < kk; j++)
		axes[j] = j;
	std::vector<std::int32_t> tuple(kk);
	for (;;) {
		// Realised value tuples of this attribute set (NULL-free only: a tuple with a NULL is no query), in
		// mixed-radix order, each with its labeling.
		std::map<std::vector<std::int32_t>, std::vector<std::size_t>> realised;
		for (std::size_t p = 0; p < m; p++) {
			bool has_null = false;
			for (std::size_t j = 0; j < kk; j++) {
				tuple[j] = distinct_public_[p][axes[j]];
				has_null = has_null || tuple[j] == radices_[axes[j]] - 1;
			}
			if (!has_null)
				realised[tuple].push_back(p);
		}
		// The first unrealised tuple of this set, if any: at most |realised| + 1 steps of the odometer.
		bool have_gap = false;
		std::vector<std::int32_t> gap(kk, 0);
		if (empty_query_ == std::numeric_limits<std::size_t>::max()) {
			auto it = realised.begin();
			for (;;) {
				if (it == realised.end() || it->first != gap) {
					have_gap = true;
					break;
				}
				++it;
				std::size_t j = kk;
				while (j-- > 0) {
					if (++gap[j] < radices_[axes[j]] - 1)
						break;
					gap[j] = 0;
				}
				if (j == std::numeric_limits<std::size_t>::max())
					break;  // every tuple realised
			}
		}
		const std::size_t group = attribute_sets_.size();
		bool group_used = false;
		auto emit = [&](const std::vector<std::int32_t> &vals, const std::vector<std::size_t> &labeling) {
			auto found = by_labeling.find(labeling);
			std::size_t q;
			if (found != by_labeling.end()) {
				q = found->second;
			} else {
				q = queries_.size();
				if (std::uint64_t(q) + 1 > query_limit)
					throw Error(ErrorKind::LimitExceeded,
					            "marginal cover exceeds " + std::to_string(query_limit) + " queries",
					            "The public rows realise more distinct labelings than the limit.",
					            "Use a smaller k, fewer columns or coarser categories, or raise the query limit.");
				queries_.push_back(MarginalQuery{axes, vals});
				group_of_.push_back(group);
				group_used = true;
				by_labeling.emplace(labeling, q);
				if (labeling.empty())
					empty_query_ = q;
			}
			if (!labeling.empty())
				realised_.emplace(Key(axes, vals), q);
		};
		const std::vector<std::size_t> no_points;
		for (const auto &entry : realised) {
			if (have_gap && gap < entry.first) {
				emit(gap, no_points);
				have_gap = false;
			}
			emit(entry.first, entry.second);
		}
		if (have_gap)
			emit(gap, no_points);
		if (group_used)
			attribute_sets_.push_back(axes);

		// Next k-subset in lexicographic order.
		std::size_t j = kk;
		while (j-- > 0)
			if (axes[j] < d - kk + j)
				break;
		if (j == std::numeric_limits<std::size_t>::max())
			break;
		axes[j]++;
		for (std::size_t i = j + 1; i < kk; i++)
			axes[i] = axes[i - 1] + 1;
	}
	if (empty_query_ == std::numeric_limits<std::size_t>::max())
		empty_query_ = queries_.size();
}

MarginalCover
MarginalCover::Stumps(std::size_t axis_count, const std::vector<std::vector<std::int32_t>> &public_cells,
                      std::uint64_t query_limit)
{
	return MarginalCover(std::vector<std::int32_t>(axis_count, 3), 1, public_cells, query_limit);
}

std::vector<std::size_t>
MarginalCover::Labeling(const MarginalQuery &query) const
{
	std::vector<std::size_t> points;
	for (std::size_t p = 0; p < distinct_public_.size(); p++) {
		bool match = true;
		for (std::size_t j = 0; j < query.axes.size() && match; j++)
			match = distinct_public_[p][query.axes[j]] == query.values[j];
		if (match)
			points.push_back(p);
	}
	return points;
}

std::size_t
MarginalCover::Project(const MarginalQuery &query) const
{
	const std::size_t kk = std::size_t(k_);
	if (query.axes.size() != kk || query.values.size() != kk)
		throw Error(ErrorKind::QueryOutsideClass, "query is not a conjunction of " + std::to_string(k_) +
		                                              " equalities of the class");
	for (std::size_t j = 0; j < kk; j++) {
		if (query.axes[j] >= radices_.size() || (j > 0 && query.axes[j] <= query.axes[j - 1]))
			throw Error(ErrorKind::QueryOutsideClass, "query's columns must be distinct columns of the class");
		if (query.values[j] < 0 || query.values[j] >= radices_[query.axes[j]] - 1)
			throw Error(ErrorKind::QueryOutsideClass, "query compares a column with NULL or an unknown bin");
	}
	auto found = realised_.find(Key(query.axes, query.values));
	if (found != realised_.end())
		return found->second;
	if (empty_query_ >= queries_.size())
		throw Error(ErrorKind::Internal, "unrealised marginal query but no empty-pattern cover query");
	return empty_query_;
}

std::vector<std::int64_t>
MarginalCover::TrueCounts(const std::vector<std::vector<std::int32_t>> &private_cells,
                          const std::vector<std::int64_t> &private_counts) const
{
	if (private_cells.size() != private_counts.size())
		throw Error(ErrorKind::Internal, "private cells and counts differ in length");
	MarginalWorkload workload(radices_, private_cells, queries_);
	std::vector<std::int64_t> counts;
	workload.EvaluateCounts(private_counts, counts);
	return counts;
}

MarginalDomain::MarginalDomain(const MarginalCover &cover, std::uint64_t cell_limit) : cover_(cover)
{
	const std::vector<std::int32_t> &radices = cover.Radices();
	std::uint64_t cells = 1;
	grid_fits_ = true;
	strides_.assign(radices.size(), 0);
	for (std::size_t a = radices.size(); a-- > 0;) {
		strides_[a] = cells;
		if (__builtin_mul_overflow(cells, std::uint64_t(radices[a]), &cells)) {
			grid_fits_ = false;
			break;
		}
	}
	grid_cells_ = grid_fits_ ? cells : 0;
	if (grid_fits_ && cells <= cell_limit) {
		grid_.emplace(radices, cell_limit);
		kind_ = MarginalDomainKind::Dense;
		cell_count_ = grid_->CellCount();
		return;
	}
	kind_ = MarginalDomainKind::PublicSupport;
	const std::uint64_t support = std::uint64_t(cover.DistinctPublicCells().size()) + 1;
	if (support > cell_limit)
		throw Error(ErrorKind::LimitExceeded, "cell domain exceeds " + std::to_string(cell_limit) + " cells",
		            "The full grid is over the limit, and so is its public support: " +
		                std::to_string(support - 1) + " distinct public cells plus one cell outside the support.",
		            "Use fewer or coarser columns, or raise the cell limit.");
	cell_count_ = std::size_t(support);
}

std::size_t
MarginalDomain::OutsideCell() const
{
	if (kind_ != MarginalDomainKind::PublicSupport)
		throw Error(ErrorKind::Internal, "a dense marginal domain has no outside cell");
	return cell_count_ - 1;
}

std::size_t
MarginalDomain::DomainCellOf(const std::vector<std::int32_t> &coordinates) const
{
	if (kind_ == MarginalDomainKind::Dense)
		return grid_->IndexOf(coordinates);
	CheckCoordinates(cover_.Radices(), coordinates);
	const std::vector<std::vector<std::int32_t>> &support = cover_.DistinctPublicCells();
	auto it = std::lower_bound(support.begin(), support.end(), coordinates);
	if (it != support.end() && *it == coordinates)
		return std::size_t(it - support.begin());
	return cell_count_ - 1;
}

std::size_t
MarginalDomain::DomainCellOfGridIndex(std::uint64_t grid_index) const
{
	if (!grid_fits_)
		throw Error(ErrorKind::Internal, "full cell grid index does not fit 64 bits");
	if (grid_index >= grid_cells_)
		throw Error(ErrorKind::Internal, "full cell grid index out of range");
	if (kind_ == MarginalDomainKind::Dense)
		return std::size_t(grid_index);
	const std::vector<std::int32_t> &radices = cover_.Radices();
	std::vector<std::int32_t> coordinates(radices.size());
	for (std::size_t a = 0; a < radices.size(); a++) {
		coordinates[a] = std::int32_t(grid_index / strides_[a]);
		grid_index %= strides_[a];
	}
	return DomainCellOf(coordinates);
}

std::vector<std::int64_t>
MarginalDomain::DomainHistogram(const std::vector<std::vector<std::int32_t>> &private_cells,
                                const std::vector<std::int64_t> &private_counts) const
{
	if (private_cells.size() != private_counts.size())
		throw Error(ErrorKind::Internal, "private cells and counts differ in length");
	std::vector<std::int64_t> histogram(cell_count_, 0);
	for (std::size_t i = 0; i < private_cells.size(); i++) {
		std::int64_t &slot = histogram[DomainCellOf(private_cells[i])];
		if (__builtin_add_overflow(slot, private_counts[i], &slot))
			throw Error(ErrorKind::LimitExceeded, "cell counts overflow a 64-bit integer");
	}
	return histogram;
}

MarginalWorkload
MarginalDomain::MakeWorkload() const
{
	if (kind_ == MarginalDomainKind::Dense)
		return MarginalWorkload(*grid_, cover_.Queries());
	std::vector<std::vector<std::int32_t>> cells = cover_.DistinctPublicCells();
	std::vector<std::int32_t> outside(cover_.Radices().size());
	for (std::size_t a = 0; a < outside.size(); a++)
		outside[a] = cover_.Radices()[a] - 1;  // all NULL: no cover query matches it
	cells.push_back(std::move(outside));
	return MarginalWorkload(cover_.Radices(), cells, cover_.Queries());
}

}  // namespace pap::core
