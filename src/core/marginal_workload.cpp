#include "core/marginal_workload.hpp"

#include <limits>
#include <map>

#include "core/errors.hpp"

namespace pap::core {

std::size_t
MarginalWorkload::TupleHash::operator()(const std::vector<std::int32_t> &t) const
{
	std::uint64_t h = 0x9e3779b97f4a7c15ULL;
	for (std::int32_t v : t) {
		h ^= std::uint32_t(v);
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return std::size_t(h);
}

MarginalWorkload::MarginalWorkload(std::vector<std::int32_t> radices,
                                   const std::vector<std::vector<std::int32_t>> &cells,
                                   std::vector<MarginalQuery> queries)
    : radices_(std::move(radices)), cell_count_(cells.size()), queries_(std::move(queries))
{
	const std::size_t d = radices_.size();
	for (std::int32_t r : radices_)
		if (r < 1)
			throw Error(ErrorKind::Internal, "cell grid axis has no bins");
	coordinates_.reserve(cells.size() * d);
	for (const std::vector<std::int32_t> &cell : cells) {
		if (cell.size() != d)
			throw Error(ErrorKind::Internal, "cell coordinates do not match the grid's axes");
		for (std::size_t a = 0; a < d; a++) {
			if (cell[a] < 0 || cell[a] >= radices_[a])
				throw Error(ErrorKind::Internal, "cell coordinate outside its axis");
			coordinates_.push_back(cell[a]);
		}
	}
	Build();
}

MarginalWorkload::MarginalWorkload(const CellGrid &grid, std::vector<MarginalQuery> queries)
    : radices_(grid.Radices()), cell_count_(grid.CellCount()), grid_(grid), queries_(std::move(queries))
{
	const std::size_t d = radices_.size();
	coordinates_.resize(cell_count_ * d);
	// Row-major order: an odometer, least significant (last) axis fastest.
	std::vector<std::int32_t> at(d, 0);
	for (std::size_t i = 0; i < cell_count_; i++) {
		for (std::size_t a = 0; a < d; a++)
			coordinates_[i * d + a] = at[a];
		for (std::size_t a = d; a-- > 0;) {
			if (++at[a] < radices_[a])
				break;
			at[a] = 0;
		}
	}
	Build();
}

void
MarginalWorkload::Build()
{
	const std::size_t d = radices_.size();
	std::map<std::vector<std::size_t>, std::size_t> group_of;
	query_slot_.resize(queries_.size());
	for (std::size_t q = 0; q < queries_.size(); q++) {
		const MarginalQuery &query = queries_[q];
		if (query.values.size() != query.axes.size())
			throw Error(ErrorKind::Internal, "marginal query has not one value per axis");
		for (std::size_t j = 0; j < query.axes.size(); j++) {
			if (query.axes[j] >= d || (j > 0 && query.axes[j] <= query.axes[j - 1]))
				throw Error(ErrorKind::Internal, "marginal query axes must be distinct, sorted and in range");
			if (query.values[j] < 0 || query.values[j] >= radices_[query.axes[j]])
				throw Error(ErrorKind::Internal, "marginal query value outside its axis");
		}
		auto [it, added] = group_of.emplace(query.axes, groups_.size());
		if (added) {
			Group g;
			g.axes = query.axes;
			// Dense when the S-subgrid is at most about the domain's size: the table then costs no more memory
			// than the cells themselves. Always so on the dense domain; the sparse domain may need hashing.
			std::uint64_t size = 1;
			g.strides.resize(g.axes.size());
			for (std::size_t j = g.axes.size(); j-- > 0;) {
				g.strides[j] = std::size_t(size);
				if (__builtin_mul_overflow(size, std::uint64_t(radices_[g.axes[j]]), &size)) {
					g.dense = false;
					break;
				}
			}
			if (g.dense && size > 2 * std::uint64_t(cell_count_) + 1024)
				g.dense = false;
			if (g.dense)
				g.table_size = std::size_t(size);
			else
				g.strides.clear();
			groups_.push_back(std::move(g));
		}
		Group &g = groups_[it->second];
		g.queries.push_back(q);
		if (g.dense) {
			std::size_t slot = 0;
			for (std::size_t j = 0; j < g.axes.size(); j++)
				slot += std::size_t(query.values[j]) * g.strides[j];
			query_slot_[q] = slot;
		} else {
			auto [slot, fresh] = g.slots.emplace(query.values, g.table_size);
			g.table_size += fresh;
			query_slot_[q] = slot->second;
		}
	}
}

template <typename T>
void
MarginalWorkload::EvaluateAll(const std::vector<T> &cells, std::vector<T> &answers) const
{
	if (cells.size() != cell_count_)
		throw Error(ErrorKind::Internal, "cell vector does not match the workload's domain");
	const std::size_t d = radices_.size();
	answers.resize(queries_.size());
	std::vector<T> table;  // one group's marginal at a time: memory is the largest table, not their sum
	std::vector<std::int32_t> tuple;
	for (const Group &g : groups_) {
		table.assign(g.table_size, T(0));
		const std::size_t k = g.axes.size();
		const std::size_t *axes = g.axes.data();
		if (g.dense) {
			const std::size_t *strides = g.strides.data();
			for (std::size_t i = 0; i < cell_count_; i++) {
				const std::int32_t *at = &coordinates_[i * d];
				std::size_t slot = 0;
				for (std::size_t j = 0; j < k; j++)
					slot += std::size_t(at[axes[j]]) * strides[j];
				AddToAnswer(table[slot], cells[i]);
			}
		} else {
			tuple.resize(k);
			for (std::size_t i = 0; i < cell_count_; i++) {
				const std::int32_t *at = &coordinates_[i * d];
				for (std::size_t j = 0; j < k; j++)
					tuple[j] = at[axes[j]];
				const auto found = g.slots.find(tuple);
				if (found != g.slots.end())
					AddToAnswer(table[found->second], cells[i]);
			}
		}
		for (std::size_t q : g.queries)
			answers[q] = table[query_slot_[q]];
	}
}

void
MarginalWorkload::Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const
{
	EvaluateAll(weights, answers);
}

void
MarginalWorkload::EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const
{
	EvaluateAll(histogram, counts);
}

bool
MarginalWorkload::Matches(std::size_t cell, const MarginalQuery &query) const
{
	const std::int32_t *at = &coordinates_[cell * radices_.size()];
	for (std::size_t j = 0; j < query.axes.size(); j++)
		if (at[query.axes[j]] != query.values[j])
			return false;
	return true;
}

template <typename F>
void
MarginalWorkload::ForEachQueryCell(std::size_t q, F &&f) const
{
	const MarginalQuery &query = queries_[q];
	if (grid_) {
		std::vector<CellInterval> box(radices_.size());
		for (std::size_t a = 0; a < radices_.size(); a++)
			box[a] = {0, radices_[a] - 1};
		for (std::size_t j = 0; j < query.axes.size(); j++)
			box[query.axes[j]] = {query.values[j], query.values[j]};
		grid_->ForEachCellInBox(box.data(), f);
		return;
	}
	for (std::size_t i = 0; i < cell_count_; i++)
		if (Matches(i, query))
			f(i);
}

void
MarginalWorkload::AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const
{
	ForEachQueryCell(q, [&](std::size_t i) { log_weights[i] += delta; });
}

double
MarginalWorkload::EvaluateOne(std::size_t q, const std::vector<double> &weights) const
{
	double sum = 0.0;
	ForEachQueryCell(q, [&](std::size_t i) { sum += weights[i]; });
	return sum;
}

}  // namespace pap::core
