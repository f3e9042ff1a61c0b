#include "core/mechanisms/public_stand_in.hpp"

#include <algorithm>

#include "core/base/errors.hpp"
#include "core/base/interrupt_scope.hpp"

namespace pap::core {

std::vector<double>
PublicStandIn(const std::vector<std::int64_t> &public_histogram, const CellDomain &domain)
{
	if (public_histogram.size() != domain.CellCount() || domain.kind() == DomainKind::Explicit)
		throw Error(ErrorKind::Internal, "public stand-in: the histogram is not the domain's");
	const std::size_t axes = domain.AxisCount();
	std::vector<std::vector<double>> marginals(axes);
	for (std::size_t a = 0; a < axes; a++)
		marginals[a].assign(std::size_t(domain.radices()[a]), 0.0);
	std::vector<std::int32_t> point(axes);
	double rows = 0, singletons = 0;
	std::uint64_t steps = 0;
	for (std::size_t cell = 0; cell < public_histogram.size(); cell++) {
		PollInterrupt(steps);
		const std::int64_t count = public_histogram[cell];
		if (count < 0)
			throw Error(ErrorKind::Internal, "public stand-in: a negative row count");
		if (count == 0 || !domain.CoordinatesOf(cell, point.data()))
			continue;  // the outside cell holds no public row
		rows += double(count);
		singletons += count == 1 ? 1.0 : 0.0;
		for (std::size_t a = 0; a < axes; a++)
			marginals[a][std::size_t(point[a])] += double(count);
	}
	if (!(rows > 0))
		throw Error(ErrorKind::Internal, "public stand-in: no public row");
	const double missing = singletons / rows;  // Good-Turing: E[N1 / m] >= the expected missing mass
	std::vector<double> stand_in(public_histogram.size(), 0.0);
	double spread = 0;  // the product's mass at the domain's grid points
	for (std::size_t cell = 0; cell < stand_in.size(); cell++) {
		PollInterrupt(steps);
		if (!domain.CoordinatesOf(cell, point.data()))
			continue;
		double product = 1.0;
		for (std::size_t a = 0; a < axes; a++)
			product *= marginals[a][std::size_t(point[a])] / rows;
		spread += product;
		stand_in[cell] = (1.0 - missing) * double(public_histogram[cell]) / rows + missing * product;
	}
	if (domain.HasOutsideCell())
		stand_in[domain.OutsideCell()] = missing * std::max(0.0, 1.0 - spread);
	return stand_in;
}

}  // namespace pap::core
