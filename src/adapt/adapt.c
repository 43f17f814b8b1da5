/* MbAdapt: the registry of step-size controllers and the generic driver around each
   implementation's ops (ARCHITECTURE.md, step 6 of a time step). */
#include "adaptimpl.h"

static PetscFunctionList MbAdaptList       = NULL;
static PetscBool         MbAdaptRegistered = PETSC_FALSE;

PetscErrorCode MbAdaptRegister(const char name[], PetscErrorCode (*create)(MbAdapt))
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListAdd(&MbAdaptList, name, create));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptRegisterAll(void)
{
  PetscFunctionBegin;
  if (MbAdaptRegistered) PetscFunctionReturn(PETSC_SUCCESS);
  MbAdaptRegistered = PETSC_TRUE;
  PetscCall(MbAdaptRegister(MBADAPTFIXED, MbAdaptCreate_Fixed));
  PetscCall(MbAdaptRegister(MBADAPTCURVATURE, MbAdaptCreate_Curvature));
  PetscCall(MbAdaptRegister(MBADAPTTRUNC, MbAdaptCreate_Truncation));
  PetscCall(MbAdaptRegister(MBADAPTLOCALERR, MbAdaptCreate_LocalError));
  PetscCall(MbAdaptRegister(MBADAPTFREQ, MbAdaptCreate_Frequency));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListDestroy(&MbAdaptList));
  MbAdaptRegistered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptCreate(MPI_Comm comm, MbAdapt *a)
{
  PetscFunctionBegin;
  PetscCall(MbAdaptRegisterAll());
  PetscCall(PetscNew(a));
  (*a)->comm       = comm;
  (*a)->b          = 1.0;
  (*a)->zeta       = 1.0;
  (*a)->alpha      = 0.5; /* seed 004, section 3: "a constant α = 1/2 was employed" */
  (*a)->reject_tol = 0.01;
  (*a)->tol        = 1e-3;
  (*a)->ratio      = 0.8;
  PetscCall(MbAdaptSetType(*a, MBADAPTFIXED));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptDestroy(MbAdapt *a)
{
  PetscFunctionBegin;
  if (!*a) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*a)->ops.destroy) PetscCall((*a)->ops.destroy(*a));
  PetscCall(PetscFree((*a)->type));
  PetscCall(PetscFree(*a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptSetType(MbAdapt a, const char type[])
{
  PetscErrorCode (*create)(MbAdapt);
  PetscBool same;
  PetscFunctionBegin;
  PetscCheck(type, a->comm, PETSC_ERR_ARG_NULL, "step-size controller type is NULL");
  PetscCall(PetscStrcmp(a->type, type, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbRegistryFind(a->comm, MbAdaptList, "step-size controller", "step-size controllers", type, (void (**)(void)) & create));
  if (a->ops.destroy) PetscCall(a->ops.destroy(a));
  PetscCall(PetscMemzero(&a->ops, sizeof(a->ops)));
  a->data      = NULL;
  a->canreject = PETSC_FALSE;
  PetscCall(PetscFree(a->type));
  PetscCall(PetscStrallocpy(type, &a->type));
  PetscCall(create(a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptGetType(MbAdapt a, const char **type)
{
  *type = a->type;
  return PETSC_SUCCESS;
}

PetscErrorCode MbAdaptSetStepLimits(MbAdapt a, PetscReal dtmin, PetscReal dtmax)
{
  PetscFunctionBegin;
  /* 0 leaves a limit to MbAdaptStart: the deck's step for dtmax, a hundredth of it for dtmin */
  PetscCheck(dtmin >= 0 && PetscIsNormalReal(dtmin + 1), a->comm, PETSC_ERR_ARG_OUTOFRANGE, "dtmin must be >= 0 (0: a hundredth of the step), got %g", (double)dtmin);
  PetscCheck(dtmax >= 0 && PetscIsNormalReal(dtmax + 1), a->comm, PETSC_ERR_ARG_OUTOFRANGE, "dtmax must be >= 0 (0: the deck's step), got %g", (double)dtmax);
  PetscCheck(dtmin == 0 || dtmax == 0 || dtmin <= dtmax, a->comm, PETSC_ERR_ARG_OUTOFRANGE, "dtmin must be <= dtmax, got dtmin %g > dtmax %g", (double)dtmin, (double)dtmax);
  a->dtmin = dtmin;
  a->dtmax = dtmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptGetStepLimits(MbAdapt a, PetscReal *dtmin, PetscReal *dtmax)
{
  if (dtmin) *dtmin = a->dtmin;
  if (dtmax) *dtmax = a->dtmax;
  return PETSC_SUCCESS;
}

PetscErrorCode MbAdaptCurvatureSetParameters(MbAdapt a, PetscReal b, PetscReal zeta, PetscReal alpha, PetscBool reject)
{
  PetscFunctionBegin;
  PetscCheck(b > 0 && PetscIsNormalReal(b), a->comm, PETSC_ERR_ARG_OUTOFRANGE, "curvature b must be > 0, got %g", (double)b);
  PetscCheck(zeta > 0 && PetscIsNormalReal(zeta), a->comm, PETSC_ERR_ARG_OUTOFRANGE, "curvature zeta must be > 0, got %g", (double)zeta);
  PetscCheck(alpha >= 0 && alpha < 1, a->comm, PETSC_ERR_ARG_OUTOFRANGE, "curvature alpha must be in [0, 1), got %g", (double)alpha);
  a->b      = b;
  a->zeta   = zeta;
  a->alpha  = alpha;
  a->reject = reject;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptSetTolerance(MbAdapt a, PetscReal tol)
{
  PetscFunctionBegin;
  PetscCheck(tol > 0 && PetscIsNormalReal(tol), a->comm, PETSC_ERR_ARG_OUTOFRANGE, "step-size controller tolerance must be > 0, got %g", (double)tol);
  a->tol = tol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptSetRatio(MbAdapt a, PetscReal ratio)
{
  PetscFunctionBegin;
  PetscCheck(ratio > 0 && ratio <= 1, a->comm, PETSC_ERR_ARG_OUTOFRANGE, "apparent-frequency ratio must be in (0, 1], got %g", (double)ratio);
  a->ratio = ratio;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptSetFromOptions(MbAdapt a)
{
  char      type[64];
  PetscBool set, reject = a->reject;
  PetscReal dtmin = a->dtmin, dtmax = a->dtmax, b = a->b, zeta = a->zeta, alpha = a->alpha, tol = a->tol, ratio = a->ratio, rtol = a->reject_tol;
  PetscFunctionBegin;
  PetscOptionsBegin(a->comm, NULL, "Step-size controller options", "MbAdapt");
  PetscCall(PetscOptionsFList("-mb_adapt_type", "Step-size controller", "MbAdaptSetType", MbAdaptList, a->type, type, sizeof(type), &set));
  if (set) PetscCall(MbAdaptSetType(a, type));
  PetscCall(PetscOptionsReal("-mb_adapt_dtmin", "Smallest step", "MbAdaptSetStepLimits", dtmin, &dtmin, NULL));
  PetscCall(PetscOptionsReal("-mb_adapt_dtmax", "Largest step", "MbAdaptSetStepLimits", dtmax, &dtmax, NULL));
  PetscCall(PetscOptionsReal("-mb_adapt_b", "CURVATURE: b of dt = dtmax exp(-b k)", "MbAdaptCurvatureSetParameters", b, &b, NULL));
  PetscCall(PetscOptionsReal("-mb_adapt_zeta", "CURVATURE: regularization interval in units of dtmax", "MbAdaptCurvatureSetParameters", zeta, &zeta, NULL));
  PetscCall(PetscOptionsReal("-mb_adapt_alpha", "CURVATURE: weight of the previous interval's curvature", "MbAdaptCurvatureSetParameters", alpha, &alpha, NULL));
  PetscCall(PetscOptionsBool("-mb_adapt_reject", "CURVATURE, LOCAL_ERROR: redo an interval whose curvature grew, a step whose error is too large", "MbAdaptCurvatureSetParameters", reject, &reject, NULL));
  PetscCall(PetscOptionsReal("-mb_adapt_reject_tol", "CURVATURE: reject only when the redo's steps are shorter by more than this fraction", "MbAdaptCurvatureSetRejectTolerance", rtol, &rtol, NULL));
  PetscCall(PetscOptionsReal("-mb_adapt_tol", "TRUNCATION, LOCAL_ERROR: error tolerance", "MbAdaptSetTolerance", tol, &tol, NULL));
  PetscCall(PetscOptionsReal("-mb_adapt_ratio", "APPARENT_FREQUENCY: step as a fraction of 2/omega", "MbAdaptSetRatio", ratio, &ratio, NULL));
  PetscOptionsEnd();
  if (dtmin != a->dtmin || dtmax != a->dtmax) PetscCall(MbAdaptSetStepLimits(a, dtmin, dtmax));
  PetscCall(MbAdaptCurvatureSetParameters(a, b, zeta, alpha, reject));
  PetscCall(MbAdaptSetTolerance(a, tol));
  PetscCall(MbAdaptSetRatio(a, ratio));
  PetscCall(MbAdaptCurvatureSetRejectTolerance(a, rtol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptCurvatureSetRejectTolerance(MbAdapt a, PetscReal rtol)
{
  PetscFunctionBegin;
  PetscCheck(rtol >= 0 && rtol < 1, a->comm, PETSC_ERR_ARG_OUTOFRANGE, "curvature reject_tol must be in [0, 1), got %g", (double)rtol);
  a->reject_tol = rtol;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptUsesCheckpoints(MbAdapt a, PetscBool *flg)
{
  *flg = a->canreject && a->reject ? PETSC_TRUE : PETSC_FALSE;
  return PETSC_SUCCESS;
}

PetscErrorCode MbAdaptStart(MbAdapt a, PetscReal t, PetscReal h0, PetscReal *h)
{
  PetscFunctionBegin;
  /* limits not given: the deck's step is the largest, and the smallest a hundredth of it
     (seed 004, section 2: Δt_min = Δt_crit/100, Δt_max = 0.85 Δt_crit) */
  if (a->dtmax <= 0) a->dtmax = h0;
  if (a->dtmin <= 0) a->dtmin = PetscMin(a->dtmax, h0) / 100;
  PetscCheck(a->dtmin <= a->dtmax, a->comm, PETSC_ERR_ARG_OUTOFRANGE, "dtmin must be <= dtmax, got dtmin %g > dtmax %g", (double)a->dtmin, (double)a->dtmax);
  a->curvature = a->estimate = 0;
  *h                         = h0;
  if (a->ops.start) PetscCall(a->ops.start(a, t, h0, h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal MbAdaptCurvature(PetscReal vv, PetscReal aa, PetscReal va)
{
  /* seed 004, eq. (5): k² = ((1 + ḋ·ḋ)(d̈·d̈) − (ḋ·d̈)²) / (1 + ḋ·ḋ)³; the numerator is
     ≥ 0 by Cauchy–Schwarz, up to round-off */
  PetscReal s = 1 + vv, num = s * aa - va * va;
  return num > 0 ? PetscSqrtReal(num / (s * s * s)) : 0;
}

PetscErrorCode MbAdaptPost(MbAdapt a, const MbAdaptData *dat, PetscBool last, MbAdaptAction *action, PetscReal *h)
{
  PetscFunctionBegin;
  a->curvature = MbAdaptCurvature(dat->vv, dat->aa, dat->va);
  *action      = MB_ADAPT_CONTINUE;
  *h           = dat->h;
  if (a->ops.post) PetscCall(a->ops.post(a, dat, last, action, h));
  PetscAssert(*h > 0 && PetscIsNormalReal(*h), a->comm, PETSC_ERR_PLIB, "controller %s proposed the step %g", a->type, (double)*h);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptGetIndicators(MbAdapt a, PetscReal *curvature, PetscReal *estimate)
{
  if (curvature) *curvature = a->curvature;
  if (estimate) *estimate = a->estimate;
  return PETSC_SUCCESS;
}

PetscErrorCode MbAdaptGetStats(MbAdapt a, PetscInt *rejections, PetscInt *discarded)
{
  if (rejections) *rejections = a->rejections;
  if (discarded) *discarded = a->discarded;
  return PETSC_SUCCESS;
}

PetscErrorCode MbAdaptView(MbAdapt a, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "step-size controller %s: dtmin %g, dtmax %g\n", a->type, (double)a->dtmin, (double)a->dtmax));
  if (a->ops.view) PetscCall(a->ops.view(a, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}
