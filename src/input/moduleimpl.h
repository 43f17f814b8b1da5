/* Shared by the files of the built-in `_moreau` module: module.c (errors, the failure
   exchange between ranks, argument conversion, the module itself) and one file per topic
   (shapes.c, solfec.c, bodies.c, constraints.c, run.c, history.c, readmode.c), each with
   its table of methods. */
#ifndef MOREAU_MODULEIMPL_H
#define MOREAU_MODULEIMPL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>
#include <moreau/mbmath.h>
#include <moreau/mboutput.h>
#include "inputimpl.h"

/* A SOLFEC object: a handle is its index in solfec.c's table. */
typedef struct {
  MbDomain  dom;  /* bodies, schemes, step loop */
  MbOutput  out;  /* OUTDIR/<deck>.h5 and .xmf */
  PetscBool ran;  /* RUN was called: print its summary at the end */
  PetscBool read; /* READ mode: out reads existing results, RUN does nothing */
} Sol;

/* Capsule names of the Python objects that hold a shape and a time series. */
#define SHAPE_CAPSULE "moreau.MbShape"
#define TS_CAPSULE "moreau.MbTimeSeries"

PETSC_INTERN char      MbModuleDeckPath[PETSC_MAX_PATH_LEN]; /* the deck (for output file names and messages) */
PETSC_INTERN PyObject *MbModulePeerFailure;                  /* _moreau.PeerFailure: the deck failed on another rank */
PETSC_INTERN char      MbModuleErrMsg[4096];                 /* first message of the last PETSc error */
PETSC_INTERN char      MbModuleSiteMismatch[512];            /* set when ranks reached different collective calls */

/* PETSc error handler that records the first message in MbModuleErrMsg instead of printing. */
PETSC_INTERN PetscErrorCode MbModuleRecordError(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx);

/* Run `call` (a PetscErrorCode expression) with errors recorded instead of printed; on an
   error raise `exc` with PETSc's message (unless a Python exception is already set, as when
   a Python callback failed) and return NULL from the calling wrapper. */
#define MB_TRY(exc, call)                                                                                                                                                                                                                                \
  do {                                                                                                                                                                                                                                                   \
    PetscErrorCode mb_e_;                                                                                                                                                                                                                                \
    MbModuleErrMsg[0] = 0;                                                                                                                                                                                                                               \
    (void)PetscPushErrorHandler(MbModuleRecordError, NULL);                                                                                                                                                                                              \
    mb_e_ = (call);                                                                                                                                                                                                                                      \
    (void)PetscPopErrorHandler();                                                                                                                                                                                                                        \
    if (mb_e_) {                                                                                                                                                                                                                                         \
      if (!PyErr_Occurred()) PyErr_SetString((exc), MbModuleErrMsg[0] ? MbModuleErrMsg : "PETSc error");                                                                                                                                                 \
      return NULL;                                                                                                                                                                                                                                       \
    }                                                                                                                                                                                                                                                    \
  } while (0)

/* The failure exchange with a stop request (a CALLBACK's): MbModuleSyncFailure's, and
 *stopall is whether any rank asked to stop (when none failed). */
PETSC_INTERN PetscErrorCode MbModuleExchange(MbSite site, int local, int stop, int *nfailed, PetscBool *stopall);
/* Before a collective call made at `site`: raise PeerFailure when a rank's deck failed, or
   RuntimeError when the ranks are not all at this call. Returns -1 then. */
PETSC_INTERN int MbModuleCheckPeers(MbSite site);

/* The SOLFEC object of handle h, or NULL with a ValueError. */
PETSC_INTERN Sol *MbModuleGetSol(int h);
/* n numbers from a sequence into x; raises TypeError naming `what` on a mismatch. */
PETSC_INTERN int MbModuleReadReals(PyObject *seq, Py_ssize_t n, PetscReal x[], const char what[]);
/* A sequence of numbers of any length into a new PETSc array (PetscFree it). */
PETSC_INTERN int MbModuleReadRealArray(PyObject *seq, PetscInt *n, PetscReal **x, const char what[]);
/* A sequence of integers of any length into a new PETSc array (PetscFree it). */
PETSC_INTERN int MbModuleReadIntArray(PyObject *seq, PetscInt *n, PetscInt **x, const char what[]);
/* n numbers as a new tuple, or as a new list. */
PETSC_INTERN PyObject *MbModuleRealTuple(const PetscReal x[], int n);
PETSC_INTERN PyObject *MbModuleRealList(const PetscReal x[], PetscInt n);
/* (mass, volume, center, inertia) as a new tuple. */
PETSC_INTERN PyObject *MbModuleMassPropsTuple(const MbMassProps *mp);
/* The local body id, or an error when this rank does not own it. */
PETSC_INTERN PetscErrorCode MbModuleFindLocalBody(MbDomain dom, PetscInt id, MbBody *b);
/* Where a callable was defined, for messages about what it returned. */
PETSC_INTERN void MbModuleCallableWhere(PyObject *fn, char buf[], size_t len);

/* A new shape from the parts of a compound (shape capsules, sphere tuples); *pyerr is set
   when the failure is a Python exception. */
PETSC_INTERN PetscErrorCode MbModuleBuildShape(PyObject *parts, MbShape *s, int *pyerr);
/* READ mode: frame 0 read when no frame was yet. */
PETSC_INTERN PetscErrorCode MbModuleReadInit(Sol *s);
/* READ mode's ENERGY (global for id < 0, else of body id), as a new tuple of five. */
PETSC_INTERN PyObject *MbModuleReadEnergy(Sol *s, PetscInt id);
/* Release the Python objects RUN keeps (the solver's failure callback, a CALLBACK's exception). */
PETSC_INTERN void MbModuleRunRelease(void);

/* The methods of each topic's file, NULL-terminated. */
PETSC_INTERN PyMethodDef MbModuleShapeMethods[];
PETSC_INTERN PyMethodDef MbModuleSolfecMethods[];
PETSC_INTERN PyMethodDef MbModuleHistoryMethods[];
PETSC_INTERN PyMethodDef MbModuleReadMethods[];
PETSC_INTERN PyMethodDef MbModuleRunMethods[];
PETSC_INTERN PyMethodDef MbModuleConstraintMethods[];
PETSC_INTERN PyMethodDef MbModuleBodyMethods[];
PETSC_INTERN PyMethodDef MbModuleInitStateMethods[];

#endif
