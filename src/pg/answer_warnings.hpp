// Warnings where an answer or a plan may mislead (docs/reference.md, "Warnings and pap_release.strict"); each
// becomes an error under pap_release.strict. They read public information only: the release's categories, the
// column's type and collation, the plan. Include after postgres.h.
#pragma once
#include "pg/model_cache.hpp"

// After a query's literals are converted (texts[i]: a categorical literal's canonical text, or NULL): a literal
// equal under its column's own equality (type and collation) to a public category whose text differs from it, and
// a category the public table never showed (answered from the "other" bin).
void PapCheckAnswerLiterals(const PapCachedRelease *release, const pap::core::ParsedQuery *parsed,
                            const char *const *texts);

// pap.plan and pap.run_release (before the charge): a requested mechanism (not auto) predicted worse than the
// public table's own answers.
void PapCheckRequestedMechanism(const char *release, const char *requested, const pap::core::PlanSummary &plan);
