/* LOCAL_ERROR (Zienkiewicz and Xie 1991): the local error of a Newmark step is the
   difference between the step's displacement and that of a higher-order (linear
   acceleration) approximation, e = (β − 1/6) h² (a_(n+1) − a_n), so for the central
   difference method (β = 0) ‖e‖ = h²/6 ‖Δa‖; its size relative to the displacement,
   η = ‖e‖ / ‖d‖, is kept near the user's η̄ (tol): the step is left alone while
   ν₁ η̄ <= η <= η̄, and otherwise scaled by (η̄/η)^(1/3) (e grows as h³ since Δa grows as
   h). ν₁ = 0.5. With reject on, a step with η > η̄ is thrown away and redone with the
   smaller step (the paper's repetition of a step whose error is too large; our band is
   ν₂ = 1), unless it already was Δt_min. d: the displacements of the mass centres from their
   reference places; Δa: the change of the step-mean accelerations (MbAdaptData). */
#include "../adaptimpl.h"

static const char ZXCitation[] = "@article{zienkiewicz1991error,\n"
                                 "  author  = {O. C. Zienkiewicz and Y. M. Xie},\n"
                                 "  title   = {A simple error estimator and adaptive time stepping procedure for dynamic analysis},\n"
                                 "  journal = {Earthquake Engineering \\& Structural Dynamics},\n"
                                 "  volume  = {20}, number = {9}, pages = {871--887}, year = {1991}\n}\n";
static PetscBool  ZXCited      = PETSC_FALSE;

#define NU1 0.5

typedef struct {
  PetscReal tol;    /* η̄, the relative error aimed at */
  PetscReal reject; /* 1: redo a step with η > η̄ */
} Local;

static const MbAdaptParam LocalParams[] = {
    {"tol", "relative error aimed at", offsetof(Local, tol), 1e-3, 0, PETSC_MAX_REAL, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE},
    {"reject", "redo a step whose error is too large", offsetof(Local, reject), 0, 0, 1, PETSC_FALSE, PETSC_FALSE, PETSC_TRUE},
};

static PetscErrorCode LocalStart(MbAdapt a, PetscReal t, PetscReal h0, PetscReal *h)
{
  PetscFunctionBegin;
  if (!ZXCited) PetscCall(PetscCitationsRegister(ZXCitation, &ZXCited));
  *h = MbAdaptClamp(a, h0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LocalPost(MbAdapt a, const MbAdaptData *dat, PetscBool last, MbAdaptAction *action, PetscReal *h)
{
  const Local *l = (const Local *)a->data;
  PetscReal    e, eta, nd = PetscSqrtReal(dat->dd);
  PetscFunctionBegin;
  if (dat->hprev <= 0) {
    a->estimate = 0;
    *h          = MbAdaptClamp(a, dat->h);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  e           = dat->h * dat->h / 6 * PetscSqrtReal(dat->dada);
  eta         = e > 0 ? e / PetscMax(nd, PETSC_SMALL * e) : 0;
  a->estimate = eta;
  if (eta > l->tol || eta < NU1 * l->tol)
    *h = MbAdaptClamp(a, eta > 0 ? dat->h * PetscCbrtReal(l->tol / eta) : a->dtmax);
  else
    *h = MbAdaptClamp(a, dat->h);
  if (!l->reject) PetscFunctionReturn(PETSC_SUCCESS);
  if (eta > l->tol && dat->h > a->dtmin * (1 + 1e-9) && *h < dat->h) {
    a->rejections++;
    a->discarded++;
    *action = MB_ADAPT_REJECT;
  } else
    *action = MB_ADAPT_ACCEPT; /* every step is an interval of its own */
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LocalView(MbAdapt a, PetscViewer v)
{
  const Local *l = (const Local *)a->data;
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "  relative error target %g, band [%g, 1] of it\n", (double)l->tol, NU1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptCreate_LocalError(MbAdapt a)
{
  PetscFunctionBegin;
  PetscCall(MbAdaptSetUpData(a, sizeof(Local), PETSC_STATIC_ARRAY_LENGTH(LocalParams), LocalParams));
  a->ops.start = LocalStart;
  a->ops.post  = LocalPost;
  a->ops.view  = LocalView;
  PetscFunctionReturn(PETSC_SUCCESS);
}
