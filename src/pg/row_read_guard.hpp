// The guard of a read of a table's rows (the scans of a release and of a labelling, docs/security.md, "What a scan
// may run and leave behind"). What it may run: every statement planned during the read is checked as planned, after
// the rewriter, so that a cast, operator or policy another role adds between the checks before a charge and the
// read after it (a cast is looked up in no schema, so a pinned search_path does not hide it) is refused before the
// read runs it; only built-in functions and pap_release's own may be called, none written in SQL. What it may leave
// behind: nothing in the statistics views every role can select (the scans and blocks of a TOAST relation count the
// values read out of line, the calls of a strict function the values that are not NULL: private counts), nor in the
// buffer and WAL usage pg_stat_statements reports for the statement that called it.
#pragma once
#include "pg/glue.hpp"  // the core's headers first, then PostgreSQL's

extern "C" {
#include "executor/instrument.h"
#include "nodes/nodes.h"
#include "nodes/pg_list.h"
}

// Installs the planner hook (_PG_init). It checks nothing outside a guarded read.
void PapInstallRowReadGuard();

struct PapGuardedRead {
	int nest_level;
	BufferUsage buffers;  // the statement's usage before the read, restored after it
	WalUsage wal;
};
// Starts a guarded read: the statistics off at a new GUC nest level, and the hook's checks on.
void PapBeginGuardedRead(PapGuardedRead *read);
// Ends it on success: the settings restored, the checks off (when no other guarded read is open).
void PapEndGuardedRead(const PapGuardedRead *read);
// Ends it in a PG_CATCH block: the checks off (the error's abort restores the settings).
void PapAbandonGuardedRead(const PapGuardedRead *read);

// Runs a read-only statement that reads a table's rows (SPI, no parameters) as one guarded read.
void PapExecuteGuarded(const char *sql);
// The same with parameters $1..$nargs.
void PapExecuteGuardedWith(const char *sql, int nargs, Oid *types, Datum *values);

// Checks analysed and rewritten statements (a prepared scan's, SPI_plan_get_plan_sources) as the hook checks what it
// plans: Error 42501 naming the first function that is neither built in nor pap_release's, or a cast to a domain.
void PapCheckGuardedQueries(List *queries);
// The same check of one expression, before it is evaluated (a query's value and its casts, query_literals.cpp); what
// names it in the error, e.g. "a value of a query".
void PapRequireTrustedCalls(Node *expression, const char *what);
