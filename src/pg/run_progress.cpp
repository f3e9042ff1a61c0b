#include "pg/run_progress.hpp"

#include <cstdarg>

extern "C" {
#include "miscadmin.h"
#include "tcop/tcopprot.h"
#include "utils/backend_status.h"
#include "utils/builtins.h"
}

void
PapProgressBegin(PapRunProgress *progress, const char *release)
{
	progress->release = pstrdup(release);
	progress->activity = psprintf("pap.run_release(%s)", quote_literal_cstr(release));
	progress->silenced = false;
}

// pgstat_report_activity copies the text into the backend's status slot and cannot fail.
void
PapProgressActivity(const PapRunProgress *progress, const char *text)
{
	char activity[512];
	snprintf(activity, sizeof activity, "%s: %s", progress->activity, text);
	pgstat_report_activity(STATE_RUNNING, activity);
}

// Writes the phase to the caller and to pg_stat_activity.
static void
ReportPhaseText(const PapRunProgress *progress, const char *text)
{
	PapProgressActivity(progress, text);
	ereport(NOTICE, (errmsg("release \"%s\": %s", progress->release, text)));
}

void
PapProgressPhase(PapRunProgress *progress, const char *format, ...)
{
	char text[400];
	va_list args;
	va_start(args, format);
	vsnprintf(text, sizeof text, format, args);
	va_end(args);
	ReportPhaseText(progress, text);
}

// Called from inside the core (RunRelease), where no PostgreSQL error may longjmp (docs/architecture.md, "The
// wall"). A NOTICE returns, except that its end serves a pending cancel, which HOLD_INTERRUPTS defers to the
// core's own interrupt polling; an error while it is sent (out of memory, a failing emit_log_hook) is caught
// here and dropped, with every later report: a progress report never decides how a run ends.
void
PapProgressPass(void *context, const pap::core::PassProgress &pass)
{
	auto *progress = static_cast<PapRunProgress *>(context);
	if (progress->silenced)
		return;
	// MWEM runs up to 200 rounds: the caller hears the first, the last and one in each tenth between; the
	// activity shows every one.
	const bool every = pass.kind == pap::core::PassKind::PmwPass;
	const bool tell = every || pass.limit < 1 || pass.number == 1 || pass.number == pass.limit ||
	                  (pass.number * 10) / pass.limit != ((pass.number - 1) * 10) / pass.limit;
	char text[128];
	if (pass.kind == pap::core::PassKind::PmwPass)
		snprintf(text, sizeof text, "pmw pass %d of at most %d", pass.number, pass.limit);
	else
		snprintf(text, sizeof text, "mwem round %d of %d", pass.number, pass.limit);
	if (!tell) {
		PapProgressActivity(progress, text);
		return;
	}
	MemoryContext context_before = CurrentMemoryContext;
	const uint32 holdoff_before = InterruptHoldoffCount;
	HOLD_INTERRUPTS();
	PG_TRY();
	{
		ReportPhaseText(progress, text);
	}
	PG_CATCH();
	{
		// Nothing but the message was under way: the error state and the holdoff count (which the error reset)
		// are all there is to restore. The run's transaction is intact.
		MemoryContextSwitchTo(context_before);
		FlushErrorState();
		InterruptHoldoffCount = holdoff_before + 1;
		progress->silenced = true;
	}
	PG_END_TRY();
	RESUME_INTERRUPTS();
}

void
PapProgressEnd(const PapRunProgress *progress)
{
	(void)progress;
	pgstat_report_activity(STATE_RUNNING, debug_query_string);
}
