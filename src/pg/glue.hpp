// Helpers shared by the SQL-callable functions. Include after postgres.h (and after every core header).
// Nothing here holds a C++ object: all state is palloc'd or plain.
#pragma once
#include "core/api/release_api.hpp"
#include "core/axes/cut_lookup.hpp"

// C++ headers that use names PostgreSQL redefines as macros (snprintf) come before "postgres.h".
#include "pg/error_bridge.hpp"
#include "pg/guc.hpp"  // the settings, pap_release.*

extern "C" {
#include "postgres.h"
#include "datatype/timestamp.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "storage/lock.h"
#include "utils/array.h"
#include "utils/date.h"
}

// The core's value type of a column (numbers, date, timestamp, timestamptz, boolean; text for every other type);
// raises 42703 if the column does not exist. type_out: the column's base type.
pap::core::ValueType PapValueTypeOfColumn(Oid relid, const char *column, Oid *type_out);
// As PapValueTypeOfColumn, for the columns of a release's axes: a column of an enum type (not of a domain over one)
// is ValueType::Enum, read through the built-in enum_out only (every other type not built in is refused as there).
pap::core::ValueType PapValueTypeOfReleaseColumn(Oid relid, const char *column, Oid *type_out);
// Raises 0A000 when relid or one of its partitions or children is a foreign table: a foreign row's enum comes back
// as text, and a value that is not a local label would fail the scan (the column's name and type say which).
void PapRequireLocalEnumColumn(Oid relid, const char *column, Oid enum_type);
// The labels of an enum type, palloc'd, in no particular order.
const char **PapEnumLabels(Oid enum_type, size_t *count);
// The distance between consecutive values a column of this base type can hold, in axis units (ReleaseAxis::value_step,
// docs/mechanisms.md §10, "Discrete columns"): 1 for smallint, integer and bigint, a day for date, 0 for every other
// type (any value may lie between two others).
double PapValueStepOfType(Oid type);

// Axis positions of temporal values: microseconds since 2000-01-01, exact in a double for +-285 years.
double PapDateToAxis(DateADT d);
double PapTimestampToAxis(Timestamp ts);
// A literal of a temporal type as an axis position (uses the type's input function).
double PapTemporalLiteralToAxis(const char *text, pap::core::ValueType type);
// Whether a column of this type is placed on an axis by PapNumberToAxis (int2, int4, int8, float4, float8, numeric).
bool PapIsNumberAxisType(Oid type);
// The axis position of a number, total: overflow gives +-Infinity and underflow 0, never an error
// (fmgr_axis_number.cpp).
double PapNumberToAxis(Datum value, Oid type);

// The most distinct grid points one scan hands back (pap.grid_counts' int8[] of key/row pairs must fit PostgreSQL's
// 1 GB allocation limit, 67 million pairs, with room to spare): a release that could meet more is refused before
// its charge (fmgr_run.cpp), and a hash state of pap.grid_counts holds no more (fmgr_grid_counts.cpp).
constexpr uint64 kPapMaxScanPoints = UINT64CONST(1) << 25;

// A cut-point array as a CutLookup in context, built once per call site of pap.cell_index and pap.grid_counts
// (fmgr_cells.cpp). 22023 unless it is a one-dimensional float8 array without NULLs sorted in float8 order.
const pap::core::CutLookup *PapBuildCutLookup(ArrayType *cuts, MemoryContext context);

// The amount the ledger records for a requested epsilon or delta (its decimal text, 15 significant digits, in
// *decimal) and the double a run uses for it: the largest double not above that decimal, so that a run never uses
// more than the ledger records.
double PapLedgerAmount(double requested, char **decimal);
// The largest double not above a decimal number's value (strtod rounding toward -Infinity).
double PapDecimalFloor(const char *decimal);

// palloc that returns NULL instead of raising: the allocator handed to the core.
void *PapAllocate(size_t bytes);

// Catalog writes and reads run as the owner of schema pap, with a restricted security context; the caller's
// rights are checked before. Errors restore the user through transaction abort.
struct PapUserSwitch {
	Oid saved_user;
	int saved_context;
};
// The owner of schema pap: the role that created the extension.
Oid PapCatalogOwner();
void PapBecomeCatalogOwner(PapUserSwitch *saved);
void PapRestoreUser(const PapUserSwitch *saved);

// SPI_execute_with_args that raises on failure; the statement runs with read_only as given.
int PapExecute(const char *sql, int nargs, Oid *types, Datum *values, bool read_only);
// PapExecute, as the catalog owner, of a statement whose one parameter $1 is a table (regclass): the reads of a
// table's budget row.
int PapExecuteOnTable(const char *sql, Oid table, bool read_only);

// Raises 42501 unless the current user has SELECT on relid.
void PapRequireSelect(Oid relid);
// Raises 42501 unless the current user has SELECT on relid and may read every row of it: a release covers the
// whole table (it is read as its owner, below), so row-level security must not hide rows from the caller.
void PapRequireReadable(Oid relid);

// Every read of a user's table (the scans, the public marginals, the count of n) runs as the table's owner inside
// a security-restricted operation, with search_path pinned to pg_catalog, pg_temp and every setting the table's
// code changes rolled back: PostgreSQL's own rule for maintenance commands since CVE-2022-1552. So the code a
// table carries (row-level security policies, a view's functions) runs with its owner's rights, never with the
// rights of the role that defines, plans or runs a release. The caller's own rights are checked before
// (PapRequireReadable). The settings of PapBeginStableOutput are set again inside. An error restores everything
// with the transaction.
struct PapTableRead {
	Oid saved_user;
	int saved_context;
	int nest_level;
};
void PapBeginTableRead(Oid relid, PapTableRead *read);
// The owner of a relation; raises 42P01 if it no longer exists.
Oid PapRelationOwner(Oid relid);
// Locks a table named by an argument (AccessShareLock, until the transaction ends) and checks it still exists: a
// catalog row written for it then cannot outlive a concurrent DROP TABLE, whose sql_drop trigger detaches only the
// rows committed before it (42P01 if the drop committed first).
void PapLockTable(Oid relid);
// The tables of relid's tree that store its rows (relid, or every partition or inheritance child that is not itself
// partitioned), locked: the root first (PapLockTable; find_all_inheritors locks only the members), then the members
// (AccessShareLock), held to the end of the transaction. *all_plain is false when one of them is not a plain table
// (a foreign table, whose constraints are not enforced); the list holds the plain ones. list_free it.
List *PapTablesStoringRows(Oid relid, bool *all_plain);
void PapEndTableRead(const PapTableRead *read);

// Raises unless predicate is a total, deterministic condition on one row of relid (predicate_check.cpp).
void PapCheckPredicate(Oid relid, const char *predicate);
// Fully qualified, quoted name of a relation; raises 42P01 if it no longer exists.
char *PapQualifiedRelationName(Oid relid);

// The one scan of a table that maps its rows to grid points (release_layout.hpp): runs
// "SELECT <select_list> FROM table" (its pap.grid_counts form, keys decoded here) or
// "SELECT <select_list> FROM table GROUP BY 1..axes" with the axes' parameters (layout or draft) and returns the
// points (axis_count coordinates each, flat) and their row counts, palloc'd in the current context.
typedef pap::core::ScanParameterKind (*PapScanParameter)(const void *source, size_t axis, const double **cuts,
                                                         const char *const **categories, size_t *count);
// is_private: an error of the scan is re-raised with its SQLSTATE only (its text could quote a private value).
// A partitioned table with foreign partitions is read leaf by leaf and the points merged (partition_scan.hpp).
void PapScanGridPoints(Oid relid, const char *select_list, size_t axis_count, PapScanParameter parameter,
                       const void *source, bool is_private, int32 **points, int64 **rows, size_t *point_count);
// Parses and plans the scan without running it: a column or predicate that does not fit the table fails here,
// before run_release charges the budget.
void PapCheckScan(Oid relid, const char *select_list, size_t axis_count, PapScanParameter parameter,
                  const void *source);

// Session-independent text output while categories are read or compared (DateStyle ISO, IntervalStyle postgres,
// extra_float_digits 1, TimeZone UTC, bytea_output hex, lc_monetary C) and SQL text read alike
// (standard_conforming_strings on): a category is the text of a value, so the public scan, the private scan and a
// query's literal must print it alike whatever each session set, and a predicate's literals must mean at run what
// they meant at define. Returns the level PapEndStableOutput restores; an error restores it with the transaction.
int PapBeginStableOutput();
void PapEndStableOutput(int level);
// Each text replaced by the category text of the value type's input function reads from it under the caller's
// settings and the column's typmod (as a stored value has it: '1' in a numeric(10,2) column prints 1.00): its output
// under PapBeginStableOutput (as the scans print a category), a boolean as true or false, a bpchar without its
// trailing blanks (as its cast to text drops them). A text the type refuses raises the input function's error.
// Allocated in the current context.
void PapCanonicalCategoryTexts(const char **texts, size_t count, Oid type, int32 typmod);
// The typmod of a column, or of its domain's base type for a column of a domain type (-1 for none); 42703 if it
// does not exist.
int32 PapColumnTypmod(Oid relid, const char *column);
// A value's output text made its category text: a bpchar's (or a domain's over it) trailing blanks dropped in place,
// as the scans' cast to text drops them ('ab  ' and 'ab' are one category, as they are equal in SQL).
void PapTrimCharPadding(char *text, Oid type);
// Whether two types print a value as the same category text (their base types): the same type, text and varchar
// (bpchar drops its trailing blanks in the cast to text, varchar keeps them), or two integer types. A categorical
// axis or feature takes its categories from the public column's texts and bins the private column's.
bool PapSameCategoryText(Oid a, Oid b);

// Interrupt poll and secure random bytes, in the shapes the core expects.
bool PapInterruptPending();
bool PapFillSecureBytes(void *context, unsigned char *buf, size_t len);

// A release as stored in pap.release_data (palloc'd in the current memory context).
struct PapRelease {
	char *name;
	Oid private_table;
	Oid public_table;
	char *query_class;
	double alpha, beta;
	int64 public_rows;
	int64 *public_histogram;
	int64 cover_size;
	int64 cell_count;
	int vc_dimension;
	char *defined_by;
	char *state;             // defined, running, released
	bool run_live;           // state = running and the running statement is still executing
	double *synthetic;       // cell_count weights, when released
	int64 private_rows;      // when released
	bool refine_by_default;  // the run's answer mode is "refine" (details' answer_mode; absent: projection)
	bool answer_modes;       // the catalog is 0.2's: a run records its answer mode (0.1's answers always project)
	int64 release_id;        // the object of the run's lock (PapRunLockTag)
	pap::core::ReleaseErrorFacts error_facts;  // for answers' error bounds: known when the run stored its parts
	pap::core::CatalogLayout layout;
	bool declared_domain;  // defined over a declared domain, without a public table (since 0.2)
	// Per axis, the private column a numeric or categorical axis read at define (PapAxisColumnIdentities): its
	// position and its type; nullptr for a release defined before 0.2 stored them.
	int32 *axis_column_positions;
	const char *const *axis_column_types;
};
// Per axis of a layout that reads one private column (numeric and categorical axes), that column's position among
// the table's columns that are not dropped (1-based: a logical dump and restore keeps it) and its type with its
// modifier, schema-qualified; 0 and "" for the other axes and for a column the table lacks. palloc'd arrays of
// layout.axis_count entries.
void PapAxisColumnIdentities(Oid relid, const pap::core::CatalogLayout &layout, int32 **positions, const char ***types);
// The OID of pap.release_data: the class of a run's lock (pap.run_in_progress uses the same).
uint32 PapReleaseLockKey();
// The lock a run holds (session level, default lock method) from its charge to its end: the object
// (pap.release_data, release id). No SQL-callable function takes or releases an object lock of a user table's
// class, unlike an advisory lock, which any role can take (pg_advisory_lock) or drop (pg_advisory_unlock_all).
void PapRunLockTag(LOCKTAG *tag, int64 release_id);

// Loads a release (as the catalog owner; the caller's SPI connection must be open) into the memory context
// current at the call, which is current again on return. Raises 42704 if absent.
// for_update locks the row until the end of the transaction.
PapRelease *PapLoadRelease(const char *name, bool for_update);
// Raises 55000 unless the release has been run.
void PapRequireReleased(const PapRelease *release);

// The guard rails of a request (docs/mechanisms.md §15): one WARNING per lower bound it misses, with the numbers in
// the message and the theorem in the detail.
void PapWarnGuardRails(const pap::core::GuardRailRequest &request);
// One WARNING per guard rail a core function returned (PapWarnGuardRails, pap.run_private_quantile).
void PapEmitGuardRails(const pap::core::GuardRailWarning *warnings, size_t count);
// The total weight of a release's public histogram: a declared domain's number of declared points.
int64 PapHistogramWeight(const int64 *histogram, size_t count);
