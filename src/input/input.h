/* moreau — the deck runner behind the `moreau` executable: an embedded Python 3 with the
   built-in `_moreau` module (src/input/module.c and one file per topic beside it) and the
   Solfec-1.0 API on top of it (the package python/moreau/). Used by src/app/moreau.c only. */
#ifndef MOREAU_INPUT_H
#define MOREAU_INPUT_H

#include <moreau/moreau.h>

/** Start Python, run the deck `deck` as __main__ with sys.argv = [deck, args...] and the
    API names pre-imported, and settle failures across ranks: *exitcode is 0 when the deck
    ran on every rank, otherwise non-zero on every rank (the traceback printed once: by
    rank 0 when all ranks failed alike, by each failing rank when only some did). A failure
    inside RUN, or one that may leave ranks inside a collective, ends the job with
    MPI_Abort instead. Collective on PETSC_COMM_WORLD. */
PETSC_INTERN PetscErrorCode MbInputRunDeck(const char deck[], int nargs, char *args[], int *exitcode);
/** Print MbDomainSummary for every SOLFEC object whose RUN was called. Collective. */
PETSC_INTERN PetscErrorCode MbInputSummary(void);
/** Close every output, destroy every domain, finalize Python. Collective. */
PETSC_INTERN PetscErrorCode MbInputFinalize(void);
/** Version of the embedded Python (a static string). */
PETSC_INTERN const char *MbInputPythonVersion(void);

#endif
