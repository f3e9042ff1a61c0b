// A labelling as stored in pap.labelling_data, and the reads of its tables' feature rows (docs/mechanisms.md §17).
// Include after postgres.h (through glue.hpp).
#pragma once
#include "core/api/labelling_api.hpp"
#include "pg/glue.hpp"

struct PapLabelling {
	char *name;
	int64 labelling_id;
	Oid private_table, public_table;
	char *label_column;
	size_t feature_count;
	const char *const *feature_columns;
	const char *const *feature_value_types;  // ValueTypeName of each feature column
	bool *categorical;                       // per feature: text and boolean columns
	size_t class_count;
	const char *const *classes;
	pap::core::LearnerKind learner;
	int32 chunks;  // 0: the plan chooses
	int64 public_rows;
	pap::core::LabelSchemaData schema;
	char *defined_by;
	char *state;    // defined, running, labelled
	bool run_live;  // state = running and its run still holds the lock
	double *model;  // the final model, when labelled (NULL if no row was labelled)
	size_t model_size;
};

// The most feature columns a labelling reads: its private read passes one parameter per categorical feature and
// one for the classes (LabelSelectList).
constexpr int kMaxLabelFeatures = FUNC_MAX_ARGS - 1;

// Loads a labelling (as the catalog owner; the caller's SPI connection is open) into the memory context current at
// the call. Raises 42704 if absent. for_update locks the row until the end of the transaction.
PapLabelling *PapLoadLabelling(const char *name, bool for_update);
// The lock a run holds from its charge to its end: the object (pap.labelling_data, labelling id).
void PapLabellingLockTag(LOCKTAG *tag, int64 labelling_id);
// Whether a column of this value type is a categorical feature (text, boolean) rather than a numeric one.
bool PapIsCategoricalFeature(pap::core::ValueType type);

// Rows of feature values read from a table as its owner (PapBeginTableRead), in the memory context current at the
// call: numeric features through pap.axis_value (total: never an error). Public rows (is_private false): categorical
// features as their text (booleans as true/false). Private rows: categorical features as their bins among the
// schema's categories, and with a label column each row's class (-1 for NULL or a label that is no class), mapped
// by pap.category_index inside the guarded read; an error is re-raised with its SQLSTATE only. The caller's SPI
// connection is open.
struct PapLabelRowsRead {
	pap::core::LabelRows rows;
	const int32 *classes;  // per row, when a label column was read
};
PapLabelRowsRead PapReadLabelRows(Oid relid, const PapLabelling *labelling, const char *label_column, bool is_private);
