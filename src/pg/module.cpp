// Module entry: PG_MODULE_MAGIC, the settings under the reserved prefix pap_release (guc.cpp) and the guard of the
// reads of rows (row_read_guard.cpp).
#include "pg/guc.hpp"
#include "pg/row_read_guard.hpp"

extern "C" {
#include "postgres.h"
#include "fmgr.h"
PG_MODULE_MAGIC;
void _PG_init(void);
}

void
_PG_init(void)
{
	PapDefineSettings();
	PapInstallRowReadGuard();
}
