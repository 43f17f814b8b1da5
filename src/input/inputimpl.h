/* Shared between python.c (the interpreter) and module.c (the `_moreau` module). */
#ifndef MOREAU_INPUTIMPL_H
#define MOREAU_INPUTIMPL_H

#include "input.h"

/* Initializer of the built-in module, for PyImport_AppendInittab. */
PyMODINIT_FUNC PyInit__moreau(void);
/* The deck path (for output file names); set before the deck runs. */
/* Flush Python's and C's stdout and stderr (before an abort, or between ranks' messages). */
PETSC_INTERN void           MbInputFlushStdio(void);
PETSC_INTERN PetscErrorCode MbModuleSetDeck(const char deck[]);
/* Failure flag exchange: every rank contributes `local` (1 when its deck failed) and gets
   the number of failed ranks. Once a failure is known everywhere, later calls exchange
   nothing (the failed ranks stopped calling collectives) and return the count known. */
PETSC_INTERN PetscErrorCode MbModuleSyncFailure(int local, int *nfailed);
/* Whether the failure of the current exception came from another rank (PeerFailure). */
PETSC_INTERN int MbModuleIsPeerFailure(PyObject *type);
/* Destroy the outputs and domains of every SOLFEC object (Python still running). */
PETSC_INTERN PetscErrorCode MbModuleDestroyAll(void);
PETSC_INTERN PetscErrorCode MbModuleSummary(void);

#endif
