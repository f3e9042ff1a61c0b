// The audit's cases, one function per family (docs/audit.md). Each returns its cases in a fixed order: a case's
// seed is derived from its position in the whole list (audit_main.cpp), so new cases go after the old ones.
#pragma once
#include <vector>

#include "audit_estimator.hpp"

// PMW and its sparse vector (sparse_vector_audit.cpp).
std::vector<pap::audit::AuditCase> SparseVectorAuditCases();

// MWEM, identity, hierarchical, marginal tables and the histogram noise they share (mechanism_audit.cpp).
std::vector<pap::audit::AuditCase> MechanismAuditCases();

// The exponential-mechanism quantile over a declared domain (private_quantile_audit.cpp).
std::vector<pap::audit::AuditCase> PrivateQuantileAuditCases();
// A labelling's sparse vector on the vote margins (labelling_audit.cpp).
std::vector<pap::audit::AuditCase> LabellingAuditCases();
// Marginal tables' variant without the prior: the k-way tables alone at the whole budget (mechanism_audit.cpp).
std::vector<pap::audit::AuditCase> MarginalTablesAloneAuditCases();
// The marginal tables under the discrete Gaussian.
std::vector<pap::audit::AuditCase> MarginalTablesGaussianAuditCases();
// Marginal tables over a public prior: the weighed targets and the shift tests (mechanism_audit.cpp).
std::vector<pap::audit::AuditCase> MarginalTablesPriorAuditCases();
// Identity with a closed cell, against the neighbour that moves a row into it (mechanism_audit.cpp).
std::vector<pap::audit::AuditCase> IdentityClosedCellAuditCases();
// Marginal tables with a closed cell, against the same neighbour (mechanism_audit.cpp).
std::vector<pap::audit::AuditCase> MarginalTablesClosedCellAuditCases();
std::vector<pap::audit::AuditCase> MwemClosedCellAuditCases();
std::vector<pap::audit::AuditCase> HierarchicalClosedCellAuditCases();
// The quantile's epsilon-bounded range, the claim of its epsilon^2 / 8 on a budget in rho (private_quantile_audit.cpp).
std::vector<pap::audit::AuditCase> PrivateQuantileBoundedRangeAuditCases();
