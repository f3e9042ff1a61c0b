// Guard rails from the lower bounds (api/release_api.hpp, GuardRails; docs/mechanisms.md §15): the sizes a
// request needs by the theory's lower bounds, against the sizes it has. Warnings, never refusals: the bounds are
// asymptotic (their constants are taken as 1), so a request below them may still come out well, but the curator
// should know that no mechanism is promised to meet its alpha there.
#include <cmath>
#include <cstdio>
#include <string>

#include "core/api/release_api.hpp"
#include "core/base/errors.hpp"
#include "core/language/class_spec.hpp"
#include "core/mechanisms/private_quantile.hpp"

namespace pap::core {

namespace {

std::string
Format(const char *format, double a, double b = 0.0, double c = 0.0, double d = 0.0)
{
	char buf[512];
	std::snprintf(buf, sizeof buf, format, a, b, c, d);
	return buf;
}

char *
Copy(Allocate allocate, const std::string &text)
{
	char *out = static_cast<char *>(allocate(text.size() + 1));
	if (out == nullptr)
		throw std::bad_alloc();
	text.copy(out, text.size());
	out[text.size()] = '\0';
	return out;
}

}  // namespace

std::size_t
GuardRails(const GuardRailRequest &r, GuardRailWarning *out, Allocate allocate)
{
	if (!(r.alpha > 0.0 && r.alpha < 1.0 && r.beta > 0.0 && r.beta < 1.0))
		throw Error(ErrorKind::InvalidParameter, "guard rails need alpha and beta in (0, 1)");
	const ClassSpec spec = ParseClassSpec(r.query_class);
	std::size_t k = 0;
	auto add = [&](const std::string &message, const std::string &detail, const std::string &hint) {
		out[k++] = GuardRailWarning{Copy(allocate, message), Copy(allocate, detail), Copy(allocate, hint)};
	};
	const double log_beta = std::log(1.0 / r.beta);
	// (a) The public table learns the cover: a sample that is alpha-accurate for a class of VC dimension d needs
	// (d log(1/alpha) + log(1/beta)) / alpha rows, and no smaller order suffices.
	if (r.public_rows > 0) {
		const double needed = (double(r.vc_dimension) * std::log(1.0 / r.alpha) + log_beta) / r.alpha;
		if (double(r.public_rows) < needed)
			add(Format("the public table has %.0f rows, fewer than the %.0f its cover needs at alpha %g",
			           double(r.public_rows), std::ceil(needed), r.alpha),
			    "The public rows must be an alpha-net of the class: for VC dimension d they must number about "
			    "(d log(1/alpha) + log(1/beta)) / alpha, and for some classes no smaller public sample lets any "
			    "differentially private release meet alpha, however many private rows there are (the public sample "
			    "size must grow as 1/alpha: Bassily et al., private query release assisted by public data, Theorem 15 "
			    "and Lemma 11).",
			    "Add public rows, or accept a larger alpha.");
	}
	// (b) Decision stumps over p boolean columns: sqrt(p)/alpha private rows are necessary unless the public table has
	// about 1/alpha^2 rows (then the public table alone answers them).
	if (spec.kind == ClassKind::Stumps && r.private_rows >= 0) {
		const double p = double(spec.columns.size());
		const double needed = std::sqrt(p) / r.alpha, public_alone = 1.0 / (r.alpha * r.alpha);
		if (double(r.private_rows) < needed && double(r.public_rows) < public_alone)
			add(Format("the private table has %.0f rows, fewer than the %.0f that decision stumps over %.0f columns "
			           "need at alpha %g",
			           double(r.private_rows), std::ceil(needed), p, r.alpha),
			    Format("With public data, answering every decision stump over p columns to within alpha needs about "
			           "sqrt(p)/alpha private rows, unless the public table has about 1/alpha^2 rows (here %.0f), "
			           "enough to answer them alone (Bassily et al., private query release assisted by public data, "
			           "Theorem 13).",
			           std::ceil(public_alone)),
			    "Add private rows or public rows, or accept a larger alpha.");
	}
	// (c) Without a public table, pure differential privacy over a domain of |X| points needs
	// (log|X| + log(1/beta)) / (epsilon alpha) rows even for point functions, the simplest class.
	if (r.public_rows == 0 && r.domain_size > 0 && r.private_rows >= 0 && r.epsilon > 0.0) {
		const double needed = (std::log(double(r.domain_size)) + log_beta) / (r.epsilon * r.alpha);
		if (double(r.private_rows) < needed)
			add(Format("the private table has %.0f rows, fewer than the %.0f a release over %.0f declared points "
			           "needs at epsilon %g",
			           double(r.private_rows), std::ceil(needed), double(r.domain_size), r.epsilon),
			    Format("Under pure differential privacy, even point functions over a domain X need "
			           "Theta((log|X| + log(1/beta)) / (epsilon alpha)) private rows to be answered within alpha = %g "
			           "(the packing lower bound of Beimel, Brenner, Kasiviswanathan and Nissim), and every class a "
			           "declared "
			           "domain defines answers them (a point is a range, a marginal's cell, or the difference of two "
			           "thresholds).",
			           r.alpha),
			    "Declare a smaller domain (a coarser step, fewer categories), spend a larger epsilon, accept a larger "
			    "alpha, or use a public table.");
	}
	return k;
}

std::size_t
PrivateQuantileGuardRails(std::int64_t rows, std::size_t domain_size, double epsilon, double beta,
                          GuardRailWarning *out, Allocate allocate)
{
	if (!(beta > 0.0 && beta < 1.0) || !(epsilon > 0.0) || domain_size == 0)
		throw Error(ErrorKind::InvalidParameter, "the interior-point guard rail needs beta in (0, 1), a positive "
		                                         "epsilon and a domain");
	const double needed = InteriorPointRows(double(domain_size), epsilon, beta);
	if (double(rows) >= needed)
		return 0;
	out[0] = GuardRailWarning{
	    Copy(allocate, Format("the private table has %.0f rows, fewer than the %.0f a quantile over %.0f declared "
	                          "values needs at epsilon %g",
	                          double(rows), std::ceil(needed), double(domain_size), epsilon)),
	    Copy(allocate, Format("The exponential mechanism's value lies between the smallest and the largest private "
	                          "value with probability at least 1 - beta = %g once there are (4 / epsilon) "
	                          "ln(|X| / beta) rows (the interior-point step of Bun, Nissim, Stemmer and Vadhan); "
	                          "below that nothing is promised.",
	                          1.0 - beta)),
	    Copy(allocate, "Declare a smaller domain (a coarser step or narrower bounds), or spend a larger epsilon.")};
	return 1;
}

}  // namespace pap::core
