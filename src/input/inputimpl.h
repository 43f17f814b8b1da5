/* Shared between python.c (the interpreter) and the `_moreau` module (module.c and the
   files beside it, moduleimpl.h). */
#ifndef MOREAU_INPUTIMPL_H
#define MOREAU_INPUTIMPL_H

#include "input.h"

/* Initializer of the built-in module, for PyImport_AppendInittab. */
PyMODINIT_FUNC PyInit__moreau(void);
/* The deck path (for output file names); set before the deck runs. */
/* Flush Python's and C's stdout and stderr (before an abort, or between ranks' messages). */
PETSC_INTERN void           MbInputFlushStdio(void);
PETSC_INTERN PetscErrorCode MbModuleSetDeck(const char deck[]);
/* Where a rank makes the failure exchange: before each collective call of the deck API, at
   the end of each CALLBACK call, at the end of the deck. */
typedef enum { MB_SITE_DECK_END, MB_SITE_CALLBACK, MB_SITE_SOLFEC, MB_SITE_RUN, MB_SITE_ENERGY, MB_SITE_HISTORY, MB_SITE_CRITICAL_STEP, MB_SITE_SYNC, MB_SITE_READ, MB_SITE_STATE, MB_SITE_MODAL, MB_SITE_INIT_STATE, MB_SITE_COUNT } MbSite;
/* Failure flag exchange: every rank contributes `local` (1 when its deck failed) and where
   it is, and gets the number of failed ranks. Ranks that reached different sites with no
   failure count as failed too (a collective call made on some ranks only). Once a failure
   is known everywhere, later calls exchange nothing (the failed ranks stopped calling
   collectives) and return the count known. */
PETSC_INTERN PetscErrorCode MbModuleSyncFailure(MbSite site, int local, int *nfailed);
/* Whether the failure of the current exception came from another rank (PeerFailure). */
PETSC_INTERN int MbModuleIsPeerFailure(PyObject *type);
/* Destroy the outputs and domains of every SOLFEC object (Python still running). */
PETSC_INTERN PetscErrorCode MbModuleDestroyAll(void);
PETSC_INTERN PetscErrorCode MbModuleSummary(void);
/** The deck ran to its end: mark each SOLFEC object's checkpoint so (no restart from it). */
PETSC_INTERN PetscErrorCode MbModuleFinished(void);

#endif
