/* Package initialization: registries, log events. */
#include <hdf5.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <moreau/mblog.h>
#include "../scheme/schemeimpl.h"
#include "../solver/solverimpl.h"
#include "../adapt/adaptimpl.h"
#include "../constraint/model/modelimpl.h"
#include "../body/bodyimpl.h"

const char *const MbPhaseNames[] = {"MbStepBegin", "MbGhost", "MbDetect", "MbLocDyn", "MbSolve", "MbStepEnd", "MbReduce", "MbBalance", "MbOutput"};
PetscLogEvent     MB_PhaseEvent[MB_PHASE_COUNT];

static PetscBool    MbInitialized = PETSC_FALSE;
static PetscClassId MB_CLASSID;

PetscErrorCode MbInitialize(void)
{
  PetscFunctionBegin;
  if (MbInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  MbInitialized = PETSC_TRUE;
  /* One BLAS thread per rank: moreau is parallel by its MPI ranks, and a threaded BLAS
     (Debian's PETSc links OpenBLAS built with pthreads) would start a thread per core for
     long vectors, which spins between calls and takes cores from the ranks. Looked up at
     run time, so any other BLAS is left alone; OPENBLAS_NUM_THREADS, when set, wins. */
  if (!getenv("OPENBLAS_NUM_THREADS")) {
    void (*set_threads)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (set_threads) set_threads(1);
  }
  PetscCall(PetscClassIdRegister("moreau", &MB_CLASSID));
  for (int i = 0; i < MB_PHASE_COUNT; i++) PetscCall(PetscLogEventRegister(MbPhaseNames[i], MB_CLASSID, &MB_PhaseEvent[i]));
  PetscCall(MbBodyKindRegisterAll());
  PetscCall(MbSchemeRegisterAll());
  PetscCall(MbSolverRegisterAll());
  PetscCall(MbAdaptRegisterAll());
  PetscCall(MbContactModelRegisterAll());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFinalize(void)
{
  PetscFunctionBegin;
  if (!MbInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbSchemeFinalizePackage());
  PetscCall(MbSolverFinalizePackage());
  PetscCall(MbAdaptFinalizePackage());
  PetscCall(MbContactModelFinalizePackage());
  PetscCall(MbBodyKindFinalizePackage());
  /* HDF5 shuts down while MPI still works: a file it could not close (a full disk) is
     otherwise closed from inside MPI_Finalize, which crashed */
  (void)H5close();
  MbInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
