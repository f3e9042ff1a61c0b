// Warnings where an answer or a plan may mislead (docs/reference.md, "Warnings and pap_release.strict"); each
// becomes an error under pap_release.strict. They read public information only: the release's categories, the
// column's type and collation, the plan. Include after postgres.h.
#pragma once
#include "pg/model_cache.hpp"

// After a query's literals are converted (numbers[i], texts[i] as for pap::core::ModelAnswerQuery): a literal
// equal under its column's own equality (type and collation) to a public category whose text differs from it, a
// category the public table never showed (answered from the "other" bin), and a marginals query whose values no
// public row has together answered by projection (like every such query; refine: the answer's mode).
void PapCheckAnswerLiterals(const PapCachedRelease *release, const pap::core::ParsedQuery *parsed,
                            const double *numbers, const char *const *texts, bool refine);

// pap.plan and pap.run_release (before the charge): the mechanism to run, requested or auto's choice, predicted
// worse than the public table's own answers.
void PapCheckAgainstPublicTable(const char *release, const char *requested, const pap::core::PlanSummary &plan);
