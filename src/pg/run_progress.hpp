// What pap.run_release tells while it runs (docs/reference.md, "Progress"): a NOTICE to the caller per phase and
// per pass of the mechanism, the same text as the session's activity in pg_stat_activity.query, and a summary
// at the end. Only public numbers are told (docs/security.md, "Progress"). Include after glue.hpp.
#pragma once
#include "pg/glue.hpp"

struct PapRunProgress {
	const char *release;   // the release's name, for the NOTICEs
	const char *activity;  // "pap.run_release('name')", the prefix of the activity text
	bool silenced;         // a NOTICE from inside the core failed: the run goes on without progress reports
};

void PapProgressBegin(PapRunProgress *progress, const char *release);
// A phase starts: NOTICE 'release "name": <text>' and the activity "pap.run_release('name'): <text>".
void PapProgressPhase(PapRunProgress *progress, const char *format, ...) pg_attribute_printf(2, 3);
// A step before the charge, for pg_stat_activity only: a run refused before its charge tells its caller nothing but
// the error.
void PapProgressActivity(const PapRunProgress *progress, const char *text);
// The core's progress hook (RunRequest::progress, context: the PapRunProgress): never raises.
void PapProgressPass(void *context, const pap::core::PassProgress &pass);
// The run is over (or failed): the activity shows the CALL again. Never raises.
void PapProgressEnd(const PapRunProgress *progress);
