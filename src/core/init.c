/* Package initialization: registries, log events. */
#include <moreau/mblog.h>
#include "../scheme/schemeimpl.h"
#include "../solver/solverimpl.h"
#include "../adapt/adaptimpl.h"

const char *const MbPhaseNames[] = {"MbStepBegin", "MbGhost", "MbDetect", "MbLocDyn", "MbSolve", "MbStepEnd", "MbReduce", "MbBalance", "MbOutput"};
PetscLogEvent     MB_PhaseEvent[MB_PHASE_COUNT];

static PetscBool     MbInitialized = PETSC_FALSE;
static PetscClassId  MB_CLASSID;

PetscErrorCode MbInitialize(void)
{
  PetscFunctionBegin;
  if (MbInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  MbInitialized = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("moreau", &MB_CLASSID));
  for (int i = 0; i < MB_PHASE_COUNT; i++) PetscCall(PetscLogEventRegister(MbPhaseNames[i], MB_CLASSID, &MB_PhaseEvent[i]));
  PetscCall(MbSchemeRegisterAll());
  PetscCall(MbSolverRegisterAll());
  PetscCall(MbAdaptRegisterAll());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFinalize(void)
{
  PetscFunctionBegin;
  if (!MbInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbSchemeFinalizePackage());
  PetscCall(MbSolverFinalizePackage());
  PetscCall(MbAdaptFinalizePackage());
  MbInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
