// Module entry: PG_MODULE_MAGIC and the settings under the reserved prefix pap_release (guc.cpp).
#include "pg/guc.hpp"

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
}
