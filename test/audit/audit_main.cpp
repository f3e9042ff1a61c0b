// The privacy audit's command line (docs/audit.md): every family of cases, in a fixed order, through the one
// estimator. Exit status 1 on a violation or a missed broken variant, 2 on bad usage.
//
// Usage: privacy_audit [--full] [--runs N] [--threads T] [--only SUBSTRING] [--seed S]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "audit_cases.hpp"
#include "audit_estimator.hpp"

int
main(int argc, char **argv)
{
	pap::audit::AuditOptions options;
	options.threads = std::max(1u, std::thread::hardware_concurrency());
	for (int i = 1; i < argc; i++) {
		const std::string a = argv[i];
		auto next = [&]() -> std::string {
			if (i + 1 >= argc) {
				std::fprintf(stderr, "missing value after %s\n", a.c_str());
				std::exit(2);
			}
			return argv[++i];
		};
		if (a == "--full")
			options.full = true;
		else if (a == "--runs")
			options.runs_override = std::stoull(next());
		else if (a == "--threads")
			options.threads = unsigned(std::stoul(next()));
		else if (a == "--only")
			options.only = next();
		else if (a == "--seed")
			options.seed = std::stoull(next());
		else {
			std::fprintf(stderr, "usage: %s [--full] [--runs N] [--threads T] [--only SUBSTRING] [--seed S]\n",
			             argv[0]);
			return 2;
		}
	}
	// PMW's cases first: their seeds (from their positions) and so their results are those of earlier runs.
	std::vector<pap::audit::AuditCase> cases = SparseVectorAuditCases();
	for (pap::audit::AuditCase &c : MechanismAuditCases())
		cases.push_back(std::move(c));
	for (pap::audit::AuditCase &c : PrivateQuantileAuditCases())
		cases.push_back(std::move(c));
	for (pap::audit::AuditCase &c : LabellingAuditCases())
		cases.push_back(std::move(c));
	for (pap::audit::AuditCase &c : MarginalTablesAloneAuditCases())
		cases.push_back(std::move(c));
	for (pap::audit::AuditCase &c : MarginalTablesGaussianAuditCases())
		cases.push_back(std::move(c));
	for (pap::audit::AuditCase &c : PrivateQuantileBoundedRangeAuditCases())
		cases.push_back(std::move(c));
	// Last: every earlier case keeps its seed (new lists go after these).
	for (pap::audit::AuditCase &c : MarginalTablesPriorAuditCases())
		cases.push_back(std::move(c));
	for (pap::audit::AuditCase &c : IdentityClosedCellAuditCases())
		cases.push_back(std::move(c));
	for (pap::audit::AuditCase &c : MarginalTablesClosedCellAuditCases())
		cases.push_back(std::move(c));
	for (pap::audit::AuditCase &c : MwemClosedCellAuditCases())
		cases.push_back(std::move(c));
	for (pap::audit::AuditCase &c : HierarchicalClosedCellAuditCases())
		cases.push_back(std::move(c));
	return pap::audit::RunAudit(cases, options) ? 1 : 0;
}
