#include "core/workloads/product_workload.hpp"

#include <algorithm>
#include <limits>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"

namespace pap::core {

namespace {

// Inline accumulation for the hot loops; the int64 overflow path goes through AddToAnswer for its error.
inline void
Add(double &sum, double x)
{
	sum += x;
}

inline void
Add(std::int64_t &sum, std::int64_t x)
{
	std::int64_t result;
	if (__builtin_add_overflow(sum, x, &result))
		AddToAnswer(sum, x);  // throws Error(LimitExceeded)
	sum = result;
}

// Inclusion-exclusion sums in 128 bits: partial sums of the signed corner terms may leave the int64 range even
// when the box's count does not.
std::int64_t
Narrow(__int128 x)
{
	if (x > std::numeric_limits<std::int64_t>::max() || x < std::numeric_limits<std::int64_t>::min())
		throw Error(ErrorKind::LimitExceeded, "cell counts overflow a 64-bit integer");
	return std::int64_t(x);
}

inline double
Narrow(double x)
{
	return x;
}

// The table of a hashed group: the occupied S-points (k coordinates each) with their sums, open addressing.
// Scratch of one Evaluate call, reset per group.
template <typename T> class SubPointTable {
public:
	void
	Reset(std::size_t k, std::size_t max_entries)
	{
		k_ = k;
		keys_.clear();
		values_.clear();
		std::size_t capacity = 16;
		while (capacity < 2 * max_entries)
			capacity *= 2;
		slots_.assign(capacity, 0);
		mask_ = capacity - 1;
	}
	// The entry of key, inserted with value 0 when absent and insert is set; nullptr when absent otherwise.
	T *
	Find(const std::int32_t *key, bool insert)
	{
		std::uint64_t h = 0x9e3779b97f4a7c15ULL;
		for (std::size_t j = 0; j < k_; j++) {
			h ^= std::uint32_t(key[j]);
			h *= 0xff51afd7ed558ccdULL;
			h ^= h >> 32;
		}
		for (std::size_t s = std::size_t(h) & mask_;; s = (s + 1) & mask_) {
			const std::size_t entry = slots_[s];
			if (entry == 0) {
				if (!insert)
					return nullptr;
				keys_.insert(keys_.end(), key, key + k_);
				values_.push_back(T(0));
				slots_[s] = values_.size();
				return &values_.back();
			}
			if (std::equal(key, key + k_, keys_.data() + (entry - 1) * k_))
				return &values_[entry - 1];
		}
	}
	std::size_t
	size() const
	{
		return values_.size();
	}
	const std::int32_t *
	key(std::size_t e) const
	{
		return keys_.data() + e * k_;
	}
	T
	value(std::size_t e) const
	{
		return values_[e];
	}

private:
	std::size_t k_ = 0;
	std::vector<std::int32_t> keys_;
	std::vector<T> values_;
	std::vector<std::size_t> slots_;  // entry + 1, 0 = free
	std::size_t mask_ = 0;
};

}  // namespace

ProductWorkload::ProductWorkload(const CellDomain &domain, ProductQueryList queries)
    : radices_(domain.radices()), cell_count_(domain.CellCount()), has_outside_(domain.HasOutsideCell()),
      queries_(std::move(queries))
{
	if (domain.kind() == DomainKind::Dense) {
		grid_.emplace(radices_, std::numeric_limits<std::uint64_t>::max());
	} else {
		points_ = domain.points();
		point_count_ = cell_count_ - (has_outside_ ? 1 : 0);
		if (point_count_ > std::numeric_limits<std::uint32_t>::max())
			throw Error(ErrorKind::LimitExceeded, "too many cells for a sparse workload");
	}
	const std::size_t d = radices_.size();
	std::map<std::vector<std::uint32_t>, std::size_t> group_of;
	std::size_t last = std::numeric_limits<std::size_t>::max();  // consecutive queries mostly share a group
	std::uint64_t steps = 0;
	for (std::size_t q = 0; q < queries_.size(); q++) {
		PollInterrupt(steps);
		const AxisConstraint *c = queries_.begin(q);
		const std::size_t k = queries_.ConstraintCount(q);
		for (std::size_t j = 0; j < k; j++) {
			if (c[j].axis >= d)
				throw Error(ErrorKind::Internal, "product query constrains an axis outside the domain");
			if (!c[j].bins.empty() && (c[j].bins.lo < 0 || c[j].bins.hi >= radices_[c[j].axis]))
				throw Error(ErrorKind::Internal, "product query interval outside its axis");
		}
		if (queries_.Empty(q))
			continue;  // answer 0, no cells
		if (k == 0) {
			true_queries_.push_back(q);
			continue;
		}
		bool same = last < groups_.size() && groups_[last].axes.size() == k;
		for (std::size_t j = 0; same && j < k; j++)
			same = groups_[last].axes[j] == c[j].axis;
		if (!same)
			last = GroupOf(c, k, group_of);
		Group &g = groups_[last];
		g.queries.push_back(q);
		if (!g.hashed)
			for (std::size_t j = 0; j < k; j++)
				if (c[j].bins.hi > c[j].bins.lo)
					g.prefix[j] = 1;
	}
	// On a sparse domain a group of point queries (no prefix sums) is hashed as soon as its table exceeds 4N:
	// its queries are lookups either way, and clearing and scattering into a table of up to 2^20 entries per
	// group costs several times the hashing of the N cells.
	if (!grid_)
		for (Group &g : groups_) {
			if (!g.hashed && double(g.table_size) > 4.0 * double(cell_count_) &&
			    std::none_of(g.prefix.begin(), g.prefix.end(), [](char p) { return p != 0; }))
				g.hashed = true;
			PointIndex index;
			if (g.hashed && IndexPointGroup(g, index))
				g.points = std::move(index);
		}
}

std::size_t
ProductWorkload::GroupOf(const AxisConstraint *constraints, std::size_t count,
                         std::map<std::vector<std::uint32_t>, std::size_t> &group_of)
{
	std::vector<std::uint32_t> axes(count);
	for (std::size_t j = 0; j < count; j++)
		axes[j] = constraints[j].axis;
	const auto [it, added] = group_of.emplace(axes, groups_.size());
	if (!added)
		return it->second;
	Group g;
	g.axes = std::move(axes);
	// The S-subgrid's size may overflow 64 bits: decide in doubles. A dense table at most a few times the
	// domain (or 2^20 entries, cheap anyway) costs about what the pass over the cells costs.
	double size = 1.0;
	for (std::uint32_t a : g.axes)
		size *= double(radices_[a]);
	g.hashed = size > std::max(4.0 * double(cell_count_), double(1 << 20));
	if (!g.hashed) {
		g.table_size = std::size_t(size);
		g.strides.resize(count);
		g.domain_strides.assign(radices_.size(), 0);
		std::size_t stride = 1;
		for (std::size_t j = count; j-- > 0;) {
			g.strides[j] = stride;
			g.domain_strides[g.axes[j]] = stride;
			stride *= std::size_t(radices_[g.axes[j]]);
		}
		g.prefix.assign(count, 0);
	}
	groups_.push_back(std::move(g));
	return groups_.size() - 1;
}

std::size_t
ProductWorkload::QueryCount() const
{
	return queries_.size();
}

std::size_t
ProductWorkload::CellCount() const
{
	return cell_count_;
}

std::size_t
ProductWorkload::GroupCount() const
{
	return groups_.size();
}

const ProductQueryList &
ProductWorkload::queries() const
{
	return queries_;
}

template <typename T>
void
ProductWorkload::FillDenseTable(const Group &g, const std::vector<T> &cells, T *table) const
{
	const std::size_t d = radices_.size();
	if (grid_) {
		// An odometer over the grid's outer axes; along the last axis (one contiguous run of cells) the table
		// slot moves by that axis's table stride, 0 when the group ignores it.
		const std::size_t *gs = g.domain_strides.data();
		const std::size_t run = std::size_t(radices_[d - 1]), step = gs[d - 1];
		std::vector<std::int32_t> at(d, 0);
		std::size_t slot = 0;
		std::uint64_t steps = 0;
		for (std::size_t base = 0; base < cell_count_; base += run) {
			PollInterrupt(steps, run);
			const T *c = cells.data() + base;
			if (step == 0) {
				T sum = 0;
				for (std::size_t t = 0; t < run; t++)
					Add(sum, c[t]);
				Add(table[slot], sum);
			} else {
				T *row = table + slot;
				for (std::size_t t = 0; t < run; t++)
					Add(row[t * step], c[t]);
			}
			for (std::size_t a = d - 1; a-- > 0;) {
				if (++at[a] < radices_[a]) {
					slot += gs[a];
					break;
				}
				at[a] = 0;
				slot -= std::size_t(radices_[a] - 1) * gs[a];
			}
		}
		return;
	}
	const std::size_t k = g.axes.size();
	const std::uint32_t *axes = g.axes.data();
	const std::size_t *strides = g.strides.data();
	std::uint64_t steps = 0;
	for (std::size_t i = 0; i < point_count_; i++) {
		PollInterrupt(steps);
		const std::int32_t *at = points_.data() + i * d;
		std::size_t slot = 0;
		for (std::size_t j = 0; j < k; j++)
			slot += std::size_t(at[axes[j]]) * strides[j];
		Add(table[slot], cells[i]);
	}
}

bool
ProductWorkload::IndexPointGroup(const Group &g, PointIndex &index) const
{
	const std::size_t k = g.axes.size();
	index.strides.assign(k, 0);
	double size = 1.0;
	for (std::size_t j = k; j-- > 0;) {
		index.strides[j] = std::uint64_t(size);
		size *= double(radices_[g.axes[j]]);
	}
	if (size >= 0x1p63 || g.queries.size() > std::size_t(std::numeric_limits<std::int32_t>::max()))
		return false;
	std::size_t capacity = 16;
	while (capacity < 2 * g.queries.size())
		capacity *= 2;
	index.slots.assign(capacity, PointIndex::Slot{0, -1});
	for (std::size_t local = 0; local < g.queries.size(); local++) {
		const AxisConstraint *c = queries_.begin(g.queries[local]);
		std::uint64_t key = 0;
		for (std::size_t j = 0; j < k; j++) {
			if (c[j].bins.lo != c[j].bins.hi)
				return false;
			key += std::uint64_t(c[j].bins.lo) * index.strides[j];
		}
		PointIndex::Slot &slot = index.slots[index.SlotOf(key)];
		if (slot.query >= 0)
			return false;  // the same point twice
		slot = {key, std::int32_t(local)};
	}
	return true;
}

// The map of a sparse group whose queries are distinct points; false (nothing kept) when it has none.
bool
ProductWorkload::MapPointGroup(Group &g) const
{
	PointIndex built;
	if (!g.points && !IndexPointGroup(g, built))
		return false;
	const PointIndex &index = g.points ? *g.points : built;
	const std::size_t d = radices_.size();
	g.query_of_cell.resize(point_count_);
	for (std::size_t i = 0; i < point_count_; i++)
		g.query_of_cell[i] = index.QueryOf(points_.data() + i * d, g.axes.data());
	return true;
}

void
ProductWorkload::MapPointGroups() const
{
	point_groups_mapped_ = true;
	if (grid_ || queries_.size() > std::size_t(std::numeric_limits<std::int32_t>::max()))
		return;
	std::size_t mapped = listed_total_;  // shares the cell lists' budget
	for (Group &g : groups_) {
		if (mapped + point_count_ > kMaxListedCells)
			break;
		if (MapPointGroup(g))
			mapped += point_count_;
	}
}

template <typename T, typename Sum>
void
ProductWorkload::EvaluateAll(const std::vector<T> &cells, std::vector<T> &answers) const
{
	if (cells.size() != cell_count_)
		throw Error(ErrorKind::Internal, "cell vector does not match the workload's domain");
	const std::size_t d = radices_.size();
	answers.assign(queries_.size(), T(0));
	if (!true_queries_.empty()) {
		T total = 0;
		for (const T &x : cells)
			Add(total, x);
		for (std::size_t q : true_queries_)
			answers[q] = total;
	}
	// Scratch of this call, reused by every group: memory is the largest table, not their sum.
	std::vector<T> table, local;
	SubPointTable<T> hashed;
	std::vector<std::size_t> offsets;
	offsets.reserve(d);
	std::vector<std::int32_t> key(d);
	for (const Group &g : groups_) {
		const std::size_t k = g.axes.size();
		if (!g.query_of_cell.empty()) {
			// Sums in the group's own small array (cache-resident), then copied to the queries' answers.
			local.assign(g.queries.size(), T(0));
			const std::int32_t *query_of = g.query_of_cell.data();
			for (std::size_t i = 0; i < point_count_; i++)
				if (query_of[i] >= 0)
					Add(local[std::size_t(query_of[i])], cells[i]);
			for (std::size_t j = 0; j < local.size(); j++)
				answers[g.queries[j]] = local[j];
			continue;
		}
		if (g.points) {
			local.assign(g.queries.size(), T(0));
			for (std::size_t i = 0; i < point_count_; i++) {
				const std::int32_t q = g.points->QueryOf(points_.data() + i * d, g.axes.data());
				if (q >= 0)
					Add(local[std::size_t(q)], cells[i]);
			}
			for (std::size_t j = 0; j < local.size(); j++)
				answers[g.queries[j]] = local[j];
			continue;
		}
		if (g.hashed) {
			hashed.Reset(k, point_count_);
			for (std::size_t i = 0; i < point_count_; i++) {
				const std::int32_t *at = points_.data() + i * d;
				for (std::size_t j = 0; j < k; j++)
					key[j] = at[g.axes[j]];
				Add(*hashed.Find(key.data(), true), cells[i]);
			}
			for (std::size_t q : g.queries) {
				const AxisConstraint *c = queries_.begin(q);
				bool point = true;
				for (std::size_t j = 0; j < k; j++) {
					key[j] = c[j].bins.lo;
					point = point && c[j].bins.lo == c[j].bins.hi;
				}
				if (point) {
					const T *found = hashed.Find(key.data(), false);
					answers[q] = found ? *found : T(0);
					continue;
				}
				T sum = 0;
				for (std::size_t e = 0; e < hashed.size(); e++) {
					const std::int32_t *at = hashed.key(e);
					bool inside = true;
					for (std::size_t j = 0; inside && j < k; j++)
						inside = at[j] >= c[j].bins.lo && at[j] <= c[j].bins.hi;
					if (inside)
						Add(sum, hashed.value(e));
				}
				answers[q] = sum;
			}
			continue;
		}
		table.assign(g.table_size, T(0));
		FillDenseTable(g, cells, table.data());
		// Prefix sums in place along the axes some query spans: along axes[j], entry i adds entry i - stride
		// unless its coordinate there is 0, i.e. within each block of stride * radix entries.
		for (std::size_t j = 0; j < k; j++) {
			if (!g.prefix[j])
				continue;
			const std::size_t s = g.strides[j], block = s * std::size_t(radices_[g.axes[j]]);
			for (std::size_t base = 0; base < g.table_size; base += block)
				for (std::size_t i = base + s; i < base + block; i++)
					Add(table[i], table[i - s]);
		}
		for (std::size_t q : g.queries) {
			const AxisConstraint *c = queries_.begin(q);
			std::size_t upper = 0;
			offsets.clear();
			for (std::size_t j = 0; j < k; j++) {
				upper += std::size_t(c[j].bins.hi) * g.strides[j];
				// Axes without prefix sums only see one-bin intervals: their entry is read directly.
				if (g.prefix[j] && c[j].bins.lo > 0)
					offsets.push_back(std::size_t(c[j].bins.hi - c[j].bins.lo + 1) * g.strides[j]);
			}
			if (offsets.empty()) {
				answers[q] = table[upper];
				continue;
			}
			// Inclusion-exclusion: a corner moved below the box on an odd number of axes is subtracted. At most
			// log2(table size) offsets: each such axis has at least 2 bins.
			const std::size_t m = offsets.size();
			Sum sum = 0;
			for (std::uint64_t mask = 0; mask < (std::uint64_t(1) << m); mask++) {
				std::size_t index = upper;
				for (std::size_t b = 0; b < m; b++)
					if (mask & (std::uint64_t(1) << b))
						index -= offsets[b];
				if (__builtin_parityll(mask))
					sum -= Sum(table[index]);
				else
					sum += Sum(table[index]);
			}
			answers[q] = Narrow(sum);
		}
	}
}

void
ProductWorkload::Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const
{
	if (!point_groups_mapped_ && evaluations_++ > 0)
		MapPointGroups();  // repeated calls (MW mechanisms after an update) pay for the maps
	EvaluateAll<double, double>(weights, answers);
}

void
ProductWorkload::EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const
{
	EvaluateAll<std::int64_t, __int128>(histogram, counts);
}

bool
ProductWorkload::Matches(std::size_t point, std::size_t q) const
{
	const std::int32_t *at = points_.data() + point * radices_.size();
	for (const AxisConstraint *c = queries_.begin(q); c != queries_.end(q); ++c)
		if (at[c->axis] < c->bins.lo || at[c->axis] > c->bins.hi)
			return false;
	return true;
}

template <typename F>
void
ProductWorkload::ForEachQueryCell(std::size_t q, F &&f) const
{
	if (queries_.Empty(q))
		return;
	if (grid_) {
		std::vector<CellInterval> box(radices_.size());
		for (std::size_t a = 0; a < radices_.size(); a++)
			box[a] = {0, radices_[a] - 1};
		for (const AxisConstraint *c = queries_.begin(q); c != queries_.end(q); ++c)
			box[c->axis] = c->bins;
		grid_->ForEachCellInBox(box.data(), f);
		return;
	}
	auto listed = listed_cells_.find(q);
	if (listed == listed_cells_.end()) {
		std::vector<std::uint32_t> cells;
		for (std::size_t i = 0; i < point_count_; i++)
			if (Matches(i, q))
				cells.push_back(std::uint32_t(i));  // the domain's cells fit 32 bits (checked at construction)
		if (listed_total_ + cells.size() > kMaxListedCells) {
			for (std::uint32_t i : cells)
				f(i);
		} else {
			listed_total_ += cells.size();
			listed = listed_cells_.emplace(q, std::move(cells)).first;
		}
	}
	if (listed != listed_cells_.end())
		for (std::uint32_t i : listed->second)
			f(i);
	// The outside cell's bins are unknown: it belongs to TRUE only.
	if (has_outside_ && queries_.ConstraintCount(q) == 0)
		f(cell_count_ - 1);
}

void
ProductWorkload::AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const
{
	if (log_weights.size() != cell_count_)
		throw Error(ErrorKind::Internal, "cell vector does not match the workload's domain");
	ForEachQueryCell(q, [&](std::size_t i) { log_weights[i] += delta; });
}

double
ProductWorkload::EvaluateOne(std::size_t q, const std::vector<double> &weights) const
{
	if (weights.size() != cell_count_)
		throw Error(ErrorKind::Internal, "cell vector does not match the workload's domain");
	double sum = 0.0;
	ForEachQueryCell(q, [&](std::size_t i) { sum += weights[i]; });
	return sum;
}

}  // namespace pap::core
