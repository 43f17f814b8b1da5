/* FIXED: the deck's step, always; the curvature of eq. (5) of seed 004 is still measured
   and written to /history, so that fixed and adaptive runs can be compared. */
#include "../adaptimpl.h"

typedef struct {
  PetscReal h; /* the deck's step at the start of the run */
} Fixed;

static PetscErrorCode FixedStart(MbAdapt a, PetscReal t, PetscReal h0, PetscReal *h)
{
  ((Fixed *)a->data)->h = h0;
  *h                    = h0;
  return PETSC_SUCCESS;
}

/* the step of the last call may have been cut to end the run on time: not ours to keep */
static PetscErrorCode FixedPost(MbAdapt a, const MbAdaptData *dat, PetscBool last, MbAdaptAction *action, PetscReal *h)
{
  *h = ((Fixed *)a->data)->h;
  return PETSC_SUCCESS;
}

PetscErrorCode MbAdaptCreate_Fixed(MbAdapt a)
{
  Fixed *f;
  PetscFunctionBegin;
  PetscCall(PetscNew(&f));
  a->data      = f;
  a->datasize  = sizeof(Fixed);
  a->ops.start = FixedStart;
  a->ops.post  = FixedPost;
  PetscFunctionReturn(PETSC_SUCCESS);
}
