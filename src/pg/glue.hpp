// Helpers shared by the SQL-callable functions. Include after postgres.h (and after every core header).
// Nothing here holds a C++ object: all state is palloc'd or plain.
#pragma once

extern "C" {
#include "postgres.h"
#include "fmgr.h"
#include "executor/spi.h"
#include "utils/array.h"
#include "utils/date.h"
#include "datatype/timestamp.h"
}

// Settings (src/pg/module.cpp).
extern int pap_test_seed;
extern int pap_max_cover_queries;

// How a release column's values sit on the axis.
enum PapValueType { PAP_VALUE_NUMBER, PAP_VALUE_DATE, PAP_VALUE_TIMESTAMP, PAP_VALUE_TIMESTAMPTZ };
const char *PapValueTypeName(PapValueType type);
PapValueType PapValueTypeFromName(const char *name);
// The value type of a column type, or raises 42804 naming the table and column.
PapValueType PapValueTypeOfColumn(Oid relid, const char *column, Oid *type_out);

// Axis positions of temporal values: microseconds since 2000-01-01, exact in a double for +-285 years.
double PapDateToAxis(DateADT d);
double PapTimestampToAxis(Timestamp ts);
// A literal of the column's type as an axis position (temporal types only; uses the type's input function).
double PapTemporalLiteralToAxis(const char *text, PapValueType type);
// An axis position as a literal that reads back as the same value: 326, 'Infinity', '2020-01-01'.
char *PapFormatAxisValue(double value, PapValueType type);

// palloc that returns NULL instead of raising: the allocator handed to the core.
void *PapAllocate(size_t bytes);

// Catalog writes and reads run as the owner of schema pap, with a restricted security context; the caller's
// rights are checked before. Errors restore the user through transaction abort.
struct PapUserSwitch {
	Oid saved_user;
	int saved_context;
};
void PapBecomeCatalogOwner(PapUserSwitch *saved);
void PapRestoreUser(const PapUserSwitch *saved);

// SPI_execute_with_args that raises on failure; the statement runs with read_only as given.
int PapExecute(const char *sql, int nargs, Oid *types, Datum *values, bool read_only);

// Raises 42501 unless the current user has SELECT on relid.
void PapRequireSelect(Oid relid);
// Fully qualified, quoted name of a relation; raises 42P01 if it no longer exists.
char *PapQualifiedRelationName(Oid relid);

// The private scan: one GROUP BY over the cell function ($1 = the cut points), planned and parallelised by
// PostgreSQL. Defined in fmgr_define.cpp beside the public scan that shares its axis expression.
char *PapHistogramQuery(Oid relid, const char *column, PapValueType type);

// Interrupt poll and secure random bytes, in the shapes the core expects.
bool PapInterruptPending();
bool PapFillSecureBytes(void *context, unsigned char *buf, size_t len);

// A release as stored in pap.release_data (palloc'd in the current memory context).
struct PapRelease {
	char *name;
	Oid private_table;
	Oid public_table;
	char *query_class;
	char *column_name;
	PapValueType value_type;
	double alpha, beta;
	int64 public_rows;
	double *cuts;
	int cut_count;
	int64 *public_histogram;
	int64 cover_size;
	int64 cell_count;
	char *defined_by;
	char *state;         // defined, running, released
	bool run_live;       // state = running and the running statement is still executing
	double *synthetic;   // cell_count weights, when released
	int64 private_rows;  // when released
	int64 release_id;    // the second key of the run's advisory lock
};
// The first key of a run's advisory lock: the OID of pap.release_data (pap.run_in_progress uses the same).
uint32 PapReleaseLockKey();

// Loads a release (as the catalog owner; the caller's SPI connection must be open) into the memory context
// current at the call, which is current again on return. Raises 42704 if absent.
// for_update locks the row until the end of the transaction.
PapRelease *PapLoadRelease(const char *name, bool for_update);
// Raises 55000 unless the release has been run.
void PapRequireReleased(const PapRelease *release);
