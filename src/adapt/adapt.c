/* MbAdapt: the registry of step-size controllers and the generic driver around each
   implementation's ops (ARCHITECTURE.md, step 6 of a time step). */
#include <stdio.h>
#include <string.h>
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
  (*a)->comm = comm;
  PetscCall(MbAdaptSetType(*a, MBADAPTFIXED));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptDestroy(MbAdapt *a)
{
  PetscFunctionBegin;
  if (!*a) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*a)->ops.destroy)
    PetscCall((*a)->ops.destroy(*a));
  else
    PetscCall(PetscFree((*a)->data)); /* plain data (MbAdaptSetUpData's) */
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
  if (a->ops.destroy)
    PetscCall(a->ops.destroy(a));
  else
    PetscCall(PetscFree(a->data));
  PetscCall(PetscMemzero(&a->ops, sizeof(a->ops)));
  a->data    = NULL;
  a->params  = NULL;
  a->nparams = 0;
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

PetscErrorCode MbAdaptSetUpData(MbAdapt a, size_t size, PetscInt n, const MbAdaptParam params[])
{
  PetscFunctionBegin;
  PetscCall(PetscCalloc(size, &a->data));
  a->datasize = size;
  a->params   = params;
  a->nparams  = n;
  for (PetscInt k = 0; k < n; k++) *(PetscReal *)((char *)a->data + params[k].offset) = params[k].def;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MbAdaptParam *FindParam(MbAdapt a, const char name[])
{
  for (PetscInt k = 0; k < a->nparams; k++)
    if (!strcmp(name, a->params[k].name)) return &a->params[k];
  return NULL;
}

static PetscReal *ParamValue(MbAdapt a, const MbAdaptParam *p) { return (PetscReal *)((char *)a->data + p->offset); }

PetscErrorCode MbAdaptSetParameter(MbAdapt a, const char name[], PetscReal value)
{
  const MbAdaptParam *p;
  PetscFunctionBegin;
  PetscCheck(name, a->comm, PETSC_ERR_ARG_NULL, "step-size controller %s: parameter name is NULL", a->type);
  p = FindParam(a, name);
  if (!p) {
    char known[256] = "";
    for (PetscInt k = 0; k < a->nparams; k++) {
      if (k) PetscCall(PetscStrlcat(known, ", ", sizeof(known)));
      PetscCall(PetscStrlcat(known, a->params[k].name, sizeof(known)));
    }
    PetscCheck(a->nparams, a->comm, PETSC_ERR_ARG_WRONG, "step-size controller %s has no parameters (got %s)", a->type, name);
    SETERRQ(a->comm, PETSC_ERR_ARG_WRONG, "step-size controller %s has no parameter %s; it has: %s", a->type, name, known);
  }
  if (p->flag) {
    PetscCheck(value == 0 || value == 1, a->comm, PETSC_ERR_ARG_OUTOFRANGE, "step-size controller %s: %s is a yes/no switch (0 or 1), got %g", a->type, name, (double)value);
  } else {
    PetscBool ok = isfinite(value);
    if (p->lo_open ? !(value > p->lo) : !(value >= p->lo)) ok = PETSC_FALSE;
    if (p->hi_open ? !(value < p->hi) : !(value <= p->hi)) ok = PETSC_FALSE;
    if (!ok) { /* the bounds as C prints them (PETSc's %g adds a "." to whole numbers) */
      char lo[32], hi[32];
      (void)snprintf(lo, sizeof(lo), "%g", (double)p->lo);
      (void)snprintf(hi, sizeof(hi), "%g", (double)p->hi);
      PetscCheck(p->hi < PETSC_MAX_REAL, a->comm, PETSC_ERR_ARG_OUTOFRANGE, "step-size controller %s: %s must be %s %s, got %g", a->type, name, p->lo_open ? ">" : ">=", lo, (double)value);
      SETERRQ(a->comm, PETSC_ERR_ARG_OUTOFRANGE, "step-size controller %s: %s must be in %s%s, %s%s, got %g", a->type, name, p->lo_open ? "(" : "[", lo, hi, p->hi_open ? ")" : "]", (double)value);
    }
  }
  *ParamValue(a, p) = value;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptSetParameterString(MbAdapt a, const char name[], const char value[])
{
  const MbAdaptParam *p;
  PetscBool           on, off;
  PetscFunctionBegin;
  PetscCheck(name && value, a->comm, PETSC_ERR_ARG_NULL, "step-size controller %s: parameter name or value is NULL", a->type);
  p = FindParam(a, name);
  if (!p) { /* MbAdaptSetParameter's error, which lists the ones the type has */
    PetscCall(MbAdaptSetParameter(a, name, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrcmp(value, "ON", &on));
  PetscCall(PetscStrcmp(value, "OFF", &off));
  PetscCheck(p->flag, a->comm, PETSC_ERR_ARG_WRONG, "step-size controller %s: %s must be a number, got '%s'", a->type, name, value);
  PetscCheck(on || off, a->comm, PETSC_ERR_ARG_WRONG, "step-size controller %s: %s must be 'ON' or 'OFF', got '%s'", a->type, name, value);
  PetscCall(MbAdaptSetParameter(a, name, on ? 1 : 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptGetParameter(MbAdapt a, const char name[], PetscReal *value)
{
  const MbAdaptParam *p = FindParam(a, name);
  PetscFunctionBegin;
  PetscCheck(p, a->comm, PETSC_ERR_ARG_WRONG, "step-size controller %s has no parameter %s", a->type, name);
  *value = *ParamValue(a, p);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptSetFromOptions(MbAdapt a)
{
  char      type[64];
  PetscBool set;
  PetscReal dtmin = a->dtmin, dtmax = a->dtmax;
  PetscFunctionBegin;
  PetscOptionsBegin(a->comm, NULL, "Step-size controller options", "MbAdapt");
  PetscCall(PetscOptionsFList("-mb_adapt_type", "Step-size controller", "MbAdaptSetType", MbAdaptList, a->type, type, sizeof(type), &set));
  if (set) PetscCall(MbAdaptSetType(a, type));
  PetscCall(PetscOptionsReal("-mb_adapt_dtmin", "Smallest step", "MbAdaptSetStepLimits", dtmin, &dtmin, NULL));
  PetscCall(PetscOptionsReal("-mb_adapt_dtmax", "Largest step", "MbAdaptSetStepLimits", dtmax, &dtmax, NULL));
  /* the type's own parameters, -mb_adapt_<name> */
  for (PetscInt k = 0; k < a->nparams; k++) {
    const MbAdaptParam *p = &a->params[k];
    char                opt[64], help[256];
    PetscReal           v = *ParamValue(a, p);
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-mb_adapt_%s", p->name));
    PetscCall(PetscSNPrintf(help, sizeof(help), "%s: %s", a->type, p->help));
    if (p->flag) {
      PetscBool b = v != 0 ? PETSC_TRUE : PETSC_FALSE;
      PetscCall(PetscOptionsBool(opt, help, "MbAdaptSetParameter", b, &b, &set));
      v = b ? 1 : 0;
    } else
      PetscCall(PetscOptionsReal(opt, help, "MbAdaptSetParameter", v, &v, &set));
    if (set) PetscCall(MbAdaptSetParameter(a, p->name, v));
  }
  PetscOptionsEnd();
  if (dtmin != a->dtmin || dtmax != a->dtmax) PetscCall(MbAdaptSetStepLimits(a, dtmin, dtmax));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptUsesCheckpoints(MbAdapt a, PetscBool *flg)
{
  const MbAdaptParam *p = FindParam(a, "reject"); /* a type that has the switch can reject */
  *flg                  = p && *ParamValue(a, p) != 0 ? PETSC_TRUE : PETSC_FALSE;
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

/* The state a checkpoint keeps: the type's data (its parameters and its memory of the
   last steps) behind the common fields a run changes. */
typedef struct {
  PetscReal dtmin, dtmax, curvature, estimate;
  PetscInt  rejections, discarded;
  size_t    datasize;
} StateHead;

PetscErrorCode MbAdaptGetState(MbAdapt a, size_t *n, char **bytes)
{
  StateHead h = {a->dtmin, a->dtmax, a->curvature, a->estimate, a->rejections, a->discarded, a->datasize};
  PetscFunctionBegin;
  *n = sizeof(h) + a->datasize;
  PetscCall(PetscMalloc(*n, bytes));
  memcpy(*bytes, &h, sizeof(h));
  if (a->datasize) memcpy(*bytes + sizeof(h), a->data, a->datasize);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptSetState(MbAdapt a, size_t n, const char bytes[])
{
  StateHead h;
  PetscFunctionBegin;
  PetscCheck(n >= sizeof(h), a->comm, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint's step-size controller state has %zu bytes; at least %zu expected", n, sizeof(h));
  memcpy(&h, bytes, sizeof(h));
  PetscCheck(h.datasize == a->datasize && n == sizeof(h) + h.datasize, a->comm, PETSC_ERR_FILE_UNEXPECTED,
             "the checkpoint's step-size controller state has %zu bytes of data; controller %s has %zu: was it written with another TIME_ADAPT controller or another build?", h.datasize, a->type ? a->type : "(none)", a->datasize);
  a->dtmin      = h.dtmin;
  a->dtmax      = h.dtmax;
  a->curvature  = h.curvature;
  a->estimate   = h.estimate;
  a->rejections = h.rejections;
  a->discarded  = h.discarded;
  if (a->datasize) memcpy(a->data, bytes + sizeof(h), a->datasize);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptView(MbAdapt a, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "step-size controller %s: dtmin %g, dtmax %g", a->type, (double)a->dtmin, (double)a->dtmax));
  for (PetscInt k = 0; k < a->nparams; k++) PetscCall(PetscViewerASCIIPrintf(v, ", %s %g", a->params[k].name, (double)*ParamValue(a, &a->params[k])));
  PetscCall(PetscViewerASCIIPrintf(v, "\n"));
  if (a->ops.view) PetscCall(a->ops.view(a, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}
