/*-------------------------------------------------------------------------
 *
 * sequuid.c
 *	  Module entry: settings, and the shared clock when preloaded.
 *
 * Loaded on first use, every generator keeps its state per backend.  In
 * shared_preload_libraries, _PG_init (running in the postmaster) also
 * reserves the shared clock that makes v7 and v6 values strictly
 * increasing across all backends.  Nothing random is created here: see
 * random.c.
 *
 * sequuid/src/sequuid.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "storage/ipc.h"
#include "storage/shmem.h"
#include "utils/guc.h"

#include "clock.h"
#include "public_id.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

static shmem_startup_hook_type previous_shmem_startup_hook = NULL;

#if PG_VERSION_NUM >= 150000
static shmem_request_hook_type previous_shmem_request_hook = NULL;

static void
sequuid_shmem_request(void)
{
	if (previous_shmem_request_hook)
		previous_shmem_request_hook();
	RequestAddinShmemSpace(sequuid_clock_shmem_size());
}
#endif

static void
sequuid_shmem_startup(void)
{
	if (previous_shmem_startup_hook)
		previous_shmem_startup_hook();
	sequuid_clock_shmem_init();
}

void
_PG_init(void)
{
	sequuid_clock_define_gucs();
	sequuid_public_id_define_gucs();
#if PG_VERSION_NUM >= 150000
	MarkGUCPrefixReserved("sequuid");
#else
	EmitWarningsOnPlaceholders("sequuid");
#endif

	if (!process_shared_preload_libraries_in_progress)
		return;

#if PG_VERSION_NUM >= 150000
	previous_shmem_request_hook = shmem_request_hook;
	shmem_request_hook = sequuid_shmem_request;
#else
	RequestAddinShmemSpace(sequuid_clock_shmem_size());
#endif
	previous_shmem_startup_hook = shmem_startup_hook;
	shmem_startup_hook = sequuid_shmem_startup;
}
