/* MbScheme: the registry and the generic driver around each implementation's ops. */
#include <moreau/mbmath.h>
#include "schemeimpl.h"
#include "../body/bodyview.h"

static PetscFunctionList MbSchemeList       = NULL;
static PetscBool         MbSchemeRegistered = PETSC_FALSE;

PetscErrorCode MbSchemeRegister(const char name[], PetscErrorCode (*create)(MbScheme))
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListAdd(&MbSchemeList, name, create));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeRegisterAll(void)
{
  PetscFunctionBegin;
  if (MbSchemeRegistered) PetscFunctionReturn(PETSC_SUCCESS);
  MbSchemeRegistered = PETSC_TRUE;
  PetscCall(MbSchemeRegister(MBRIGPOS, MbSchemeCreate_RigPos));
  PetscCall(MbSchemeRegister(MBRIGNEG, MbSchemeCreate_RigNeg));
  PetscCall(MbSchemeRegister(MBRIGIMP, MbSchemeCreate_RigImp));
  PetscCall(MbSchemeRegister(MBEULEREXP, MbSchemeCreate_EulerExp));
  PetscCall(MbSchemeRegister(MBEULERIMP, MbSchemeCreate_EulerImp));
  PetscCall(MbSchemeRegister(MBGALPHA, MbSchemeCreate_GAlpha));
  PetscCall(MbSchemeRegister(MBCDM, MbSchemeCreate_CDM));
  PetscCall(MbSchemeRegister(MBEGALPHA, MbSchemeCreate_EGAlpha));
  PetscCall(MbSchemeRegister(MBCHUNGLEE, MbSchemeCreate_ChungLee));
  PetscCall(MbSchemeRegister(MBDEFEXP, MbSchemeCreate_DefExp));
  PetscCall(MbSchemeRegister(MBDEFLIM, MbSchemeCreate_DefLim));
  PetscCall(MbSchemeRegister(MBRIGSTATIC, MbSchemeCreate_RigStatic));
  PetscCall(MbSchemeRegister(MBDEFSTATIC, MbSchemeCreate_DefStatic));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListDestroy(&MbSchemeList));
  MbSchemeRegistered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeGetRegistered(const char ***names, int *n)
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListGet(MbSchemeList, names, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeListNames(char buf[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(MbRegistryNames(MbSchemeList, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeCreate(MPI_Comm comm, MbScheme *s)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(s));
  (*s)->comm  = comm;
  (*s)->rtol  = 1e-10;
  (*s)->maxit = 32;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeSetType(MbScheme s, const char type[])
{
  PetscErrorCode (*create)(MbScheme);
  PetscBool same;
  PetscFunctionBegin;
  PetscCall(PetscStrcmp(s->type, type, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbRegistryFind(s->comm, MbSchemeList, "scheme", "schemes", type, (void (**)(void)) & create));
  if (s->ops.destroy) PetscCall(s->ops.destroy(s));
  PetscCall(PetscMemzero(&s->ops, sizeof(s->ops)));
  s->family  = MB_SCHEME_STEP;
  s->tshift  = 1.0;
  s->bounded = PETSC_FALSE;
  PetscCall(PetscFree(s->type));
  PetscCall(PetscStrallocpy(type, &s->type));
  PetscCall(create(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeGetType(MbScheme s, const char **type)
{
  *type = s->type;
  return PETSC_SUCCESS;
}

PetscErrorCode MbSchemeSetTolerances(MbScheme s, PetscReal rtol, PetscInt maxit)
{
  PetscFunctionBegin;
  PetscCheck(rtol > 0, s->comm, PETSC_ERR_ARG_OUTOFRANGE, "scheme tolerance must be > 0, got %g", (double)rtol);
  PetscCheck(maxit > 0, s->comm, PETSC_ERR_ARG_OUTOFRANGE, "scheme iteration cap must be > 0, got %" PetscInt_FMT, maxit);
  s->rtol  = rtol;
  s->maxit = maxit;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeSetErrorIfNotConverged(MbScheme s, PetscBool flg)
{
  s->error_if_not_converged = flg;
  return PETSC_SUCCESS;
}

PetscErrorCode MbSchemeSetFromOptions(MbScheme s)
{
  PetscReal rtol  = s->rtol;
  PetscInt  maxit = s->maxit;
  PetscFunctionBegin;
  PetscOptionsBegin(s->comm, NULL, "Time integration scheme options", "MbScheme");
  PetscCall(PetscOptionsReal("-mb_scheme_rtol", "Newton tolerance of implicit schemes, relative and scaled by h", "MbSchemeSetTolerances", rtol, &rtol, NULL));
  PetscCall(PetscOptionsInt("-mb_scheme_max_it", "Newton iteration cap of implicit schemes", "MbSchemeSetTolerances", maxit, &maxit, NULL));
  PetscCall(PetscOptionsBool("-mb_scheme_error_if_not_converged", "Stop when an implicit scheme's Newton does not converge", "MbScheme", s->error_if_not_converged, &s->error_if_not_converged, NULL));
  /* a type's parameters are its own options (GALPHA -mb_scheme_rho_inf, EGALPHA
     -mb_scheme_rho_b, CHUNG_LEE -mb_scheme_beta); the other types do not read them */
  if (s->ops.setfromoptions) PetscCall(s->ops.setfromoptions(s, PetscOptionsObject));
  PetscOptionsEnd();
  PetscCall(MbSchemeSetTolerances(s, rtol, maxit));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeSetParameter(MbScheme s, const char name[], PetscReal value)
{
  PetscFunctionBegin;
  PetscCheck(s->type, s->comm, PETSC_ERR_ORDER, "scheme type not set");
  PetscCheck(name, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "scheme %s: parameter name is NULL", s->type);
  PetscCheck(isfinite(value), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "scheme %s: parameter %s must be finite, got %g", s->type, name, (double)value);
  PetscCheck(s->ops.setparam, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "scheme %s has no parameters (got %s = %g)", s->type, name, (double)value);
  PetscCall(s->ops.setparam(s, name, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeAppliesTo(MbScheme s, const char kind[], PetscBool *applies)
{
  const MbBodyOps *ops;
  PetscFunctionBegin;
  PetscCheck(s->type, s->comm, PETSC_ERR_ORDER, "scheme type not set");
  PetscAssert(s->requires, PETSC_COMM_SELF, PETSC_ERR_PLIB, "scheme %s requires nothing of a body: it would apply to obstacles", s->type);
  PetscCall(MbBodyKindFind(kind, NULL, &ops));
  *applies = (ops->traits & s->requires) == s->requires ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeStepBegin(MbScheme s, MbBody b, PetscReal t, PetscReal h, const PetscReal g[3])
{
  PetscFunctionBegin;
  if (s->family != MB_SCHEME_STEP) PetscFunctionReturn(PETSC_SUCCESS); /* forces.c drives it */
  PetscCall(MbBodyStepStart(b));
  PetscCall(s->ops.begin(s, b, t, h, g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeStepEnd(MbScheme s, MbBody b, PetscReal t, PetscReal h)
{
  PetscFunctionBegin;
  if (s->family != MB_SCHEME_STEP) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(s->ops.end(s, b, t, h));
  MbBodyAddStepWork(b, h); /* f at the half step */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeIsBounded(MbScheme s, PetscBool *bounded)
{
  *bounded = s->bounded;
  return PETSC_SUCCESS;
}

PetscErrorCode MbSchemeGetStats(MbScheme s, PetscInt *iterations, PetscInt *failures)
{
  if (iterations) *iterations = s->iterations;
  if (failures) *failures = s->failures;
  return PETSC_SUCCESS;
}

PetscErrorCode MbSchemeDestroy(MbScheme *s)
{
  PetscFunctionBegin;
  if (!*s) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*s)->ops.destroy) PetscCall((*s)->ops.destroy(*s));
  PetscCall(PetscFree((*s)->type));
  PetscCall(PetscFree(*s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeCheckParameter(MbScheme s, const char name[], const char want[], PetscReal v, PetscReal lo, PetscReal hi, const char range[])
{
  PetscBool is;
  PetscFunctionBegin;
  PetscCall(PetscStrcmp(name, want, &is));
  PetscCheck(is, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "scheme %s has no parameter '%s' (it has %s)", s->type, name, want);
  PetscCheck(v >= lo && v <= hi, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "scheme %s: %s must be in %s, got %g", s->type, want, range, (double)v);
  PetscFunctionReturn(PETSC_SUCCESS);
}
