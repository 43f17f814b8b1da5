/* TRUNCATION (seed 002, (2-183)-(2-184)): the local truncation error of a second-order
   step is its third-order Taylor term, e = h³/6 ‖d⃛‖; d⃛ is estimated by the divided
   difference of the accelerations before and after the step ("the divided difference
   between the second time derivatives before and after a time increment"),
   d⃛ ≈ (a_(n+1/2) − a_(n−1/2)) / ((h_n + h_(n−1))/2), and the next step is the one that
   keeps e under the user's tolerance: h = (6 tol / ‖d⃛‖)^(1/3), with a safety factor 0.9
   and at most doubling per step (our choices), within [Δt_min, Δt_max]. */
#include "../adaptimpl.h"

typedef struct {
  PetscReal tol; /* the local truncation error allowed (length units) */
} Trunc;

static const MbAdaptParam TruncParams[] = {
    {"tol", "local truncation error allowed (length units)", offsetof(Trunc, tol), 1e-3, 0, PETSC_MAX_REAL, PETSC_TRUE, PETSC_FALSE, PETSC_FALSE},
};

static PetscErrorCode TruncStart(MbAdapt a, PetscReal t, PetscReal h0, PetscReal *h)
{
  *h = MbAdaptClamp(a, h0);
  return PETSC_SUCCESS;
}

static PetscErrorCode TruncPost(MbAdapt a, const MbAdaptData *dat, PetscBool last, MbAdaptAction *action, PetscReal *h)
{
  PetscReal jerk, hn;
  PetscFunctionBegin;
  if (dat->hprev <= 0) { /* no divided difference yet */
    a->estimate = 0;
    *h          = MbAdaptClamp(a, dat->h);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  jerk        = PetscSqrtReal(dat->dada) / (0.5 * (dat->h + dat->hprev));
  a->estimate = dat->h * dat->h * dat->h / 6 * jerk;                                           /* (2-183) */
  hn          = jerk > 0 ? 0.9 * PetscCbrtReal(6 * ((Trunc *)a->data)->tol / jerk) : a->dtmax; /* (2-184) */
  *h          = MbAdaptClamp(a, PetscMin(hn, 2 * dat->h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TruncView(MbAdapt a, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "  truncation error tolerance %g\n", (double)((Trunc *)a->data)->tol));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbAdaptCreate_Truncation(MbAdapt a)
{
  PetscFunctionBegin;
  PetscCall(MbAdaptSetUpData(a, sizeof(Trunc), PETSC_STATIC_ARRAY_LENGTH(TruncParams), TruncParams));
  a->ops.start = TruncStart;
  a->ops.post  = TruncPost;
  a->ops.view  = TruncView;
  PetscFunctionReturn(PETSC_SUCCESS);
}
