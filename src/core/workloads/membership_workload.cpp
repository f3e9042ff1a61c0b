#include "core/workloads/membership_workload.hpp"

#include "core/base/errors.hpp"

namespace pap::core {

MembershipWorkload::MembershipWorkload(const CellDomain &domain, ProductQueryList queries, InterruptCheck interrupted)
    : axis_count_(domain.AxisCount()), cell_count_(domain.CellCount()),
      located_cells_(domain.CellCount() - (domain.HasOutsideCell() ? 1 : 0)), queries_(std::move(queries)),
      interrupted_(interrupted)
{
	const std::vector<std::int32_t> &radices = domain.radices();
	for (std::size_t q = 0; q < queries_.size(); q++)
		for (const AxisConstraint *c = queries_.begin(q); c != queries_.end(q); ++c)
			if (c->axis >= axis_count_ || (!c->bins.empty() && (c->bins.lo < 0 || c->bins.hi >= radices[c->axis])))
				throw Error(ErrorKind::Internal, "product query constraint outside the domain");
	points_.resize(located_cells_ * axis_count_);
	for (std::size_t i = 0; i < located_cells_; i++)
		if (!domain.CoordinatesOf(i, points_.data() + i * axis_count_))
			throw Error(ErrorKind::Internal, "a located cell has no coordinates");
}

bool
MembershipWorkload::Contains(std::size_t q, std::size_t cell) const
{
	const AxisConstraint *c = queries_.begin(q), *end = queries_.end(q);
	if (cell >= located_cells_)
		return c == end;  // the outside cell: in TRUE only
	const std::int32_t *at = points_.data() + cell * axis_count_;
	for (; c != end; ++c)
		if (at[c->axis] < c->bins.lo || at[c->axis] > c->bins.hi)  // an empty interval holds nothing
			return false;
	return true;
}

template <typename T>
T
MembershipWorkload::Sum(std::size_t q, const std::vector<T> &values) const
{
	if (values.size() != cell_count_)
		throw Error(ErrorKind::Internal, "cell vector does not match the workload's domain");
	if ((q & 255) == 255 && interrupted_ && interrupted_())
		throw Error(ErrorKind::Cancelled, "canceling statement due to user request");
	T sum = 0;
	for (std::size_t i = 0; i < cell_count_; i++)
		if (Contains(q, i))
			AddToAnswer(sum, values[i]);
	return sum;
}

void
MembershipWorkload::Evaluate(const std::vector<double> &weights, std::vector<double> &answers) const
{
	answers.resize(QueryCount());
	for (std::size_t q = 0; q < QueryCount(); q++)
		answers[q] = Sum(q, weights);
}

void
MembershipWorkload::EvaluateCounts(const std::vector<std::int64_t> &histogram, std::vector<std::int64_t> &counts) const
{
	counts.resize(QueryCount());
	for (std::size_t q = 0; q < QueryCount(); q++)
		counts[q] = Sum(q, histogram);
}

void
MembershipWorkload::AddToQueryCells(std::size_t q, double delta, std::vector<double> &log_weights) const
{
	if (log_weights.size() != cell_count_)
		throw Error(ErrorKind::Internal, "cell vector does not match the workload's domain");
	for (std::size_t i = 0; i < cell_count_; i++)
		if (Contains(q, i))
			log_weights[i] += delta;
}

double
MembershipWorkload::EvaluateOne(std::size_t q, const std::vector<double> &weights) const
{
	return Sum(q, weights);
}

}  // namespace pap::core
