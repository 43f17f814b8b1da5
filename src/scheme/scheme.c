/* MbScheme: the registry and the generic driver around each implementation's ops. */
#include <moreau/mbmath.h>
#include "schemeimpl.h"

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
  const char **names;
  int          n;
  size_t       used = 0;
  PetscFunctionBegin;
  buf[0] = 0;
  PetscCall(PetscFunctionListGet(MbSchemeList, &names, &n));
  for (int i = 0; i < n; i++) {
    int k = snprintf(buf + used, len > used ? len - used : 0, "%s%s", used ? ", " : "", names[i]);
    if (k > 0) used += (size_t)k;
  }
  PetscCall(PetscFree(names));
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
  PetscCall(PetscFunctionListFind(MbSchemeList, type, &create));
  if (!create) {
    char known[512];
    PetscCall(MbSchemeListNames(known, sizeof(known)));
    SETERRQ(s->comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown scheme '%s'; known schemes: %s", type, known);
  }
  if (s->ops.destroy) PetscCall(s->ops.destroy(s));
  PetscCall(PetscMemzero(&s->ops, sizeof(s->ops)));
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
  PetscOptionsEnd();
  PetscCall(MbSchemeSetTolerances(s, rtol, maxit));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeAppliesTo(MbScheme s, MbBodyKind kind, PetscBool *applies)
{
  PetscFunctionBegin;
  PetscCheck(s->type, s->comm, PETSC_ERR_ORDER, "scheme type not set");
  *applies = s->ops.applies(kind) ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeStepBegin(MbScheme s, MbBody b, PetscReal t, PetscReal h, const PetscReal g[3])
{
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(b->q0, b->q, b->nq));
  PetscCall(PetscArraycpy(b->u0, b->u, b->nu));
  PetscCall(s->ops.begin(s, b, t, h, g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeStepEnd(MbScheme s, MbBody b, PetscReal t, PetscReal h)
{
  PetscReal p = 0;
  PetscFunctionBegin;
  PetscCall(s->ops.end(s, b, t, h));
  /* work of external forces over the step: h f·(u(t) + u(t+h))/2, f at the half step */
  for (PetscInt i = 0; i < b->nu; i++) p += b->fext[i] * 0.5 * (b->u0[i] + b->u[i]);
  b->work += h * p;
  PetscFunctionReturn(PETSC_SUCCESS);
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
