/* Springs (PUT_SPRING, as Solfec-1.0's deck command): a force along the line between a
   point of one body and a point of another body or of space, given by a linear spring and
   dashpot or by a callback of stroke and stroke rate (constraint.h, MbSpring). A spring is
   not a row of the local dynamics: it is a force, which the force schemes evaluate where
   they need it (src/domain/forces.c) and the RIG_* schemes apply as an impulse of the step
   at the mid-step placement, as penalty contacts are. */
#include <moreau/mbmath.h>
#include "constraint.h"
#include "../body/bodyimpl.h"

/* The referential point of x on b; the ground keeps the spatial point. */
static PetscErrorCode ToReferential(MbBody b, const PetscReal x[3], PetscReal X[3])
{
  PetscFunctionBegin;
  if (b)
    PetscCall(MbBodyPointToReferential(b, x, X));
  else
    MbV3Copy(x, X);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSpringResolve(MbSpring *sp, PetscInt index, MbBody b[2])
{
  PetscReal d[3];
  PetscFunctionBegin;
  for (int k = 0; k < 2; k++) PetscCall(ToReferential(b[k], sp->p[k], sp->X[k]));
  MbV3Sub(sp->p[0], sp->p[1], d);
  if (MbV3Norm(sp->dir) > 0)
    sp->length0 = MbV3Dot(d, sp->dir);
  else {
    sp->length0 = MbV3Norm(d);
    PetscCheck(sp->length0 > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "PUT_SPRING %" PetscInt_FMT " between bodies %" PetscInt_FMT " and %" PetscInt_FMT ": the two points coincide at (%g, %g, %g), so the spring has zero length and no direction; move a point or give direction=", index, sp->body[0],
               sp->body[1], (double)sp->p[0][0], (double)sp->p[0][1], (double)sp->p[0][2]);
  }
  if (!PetscIsNanReal(sp->rest)) sp->length0 = sp->rest;
  sp->resolved = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Spatial position and velocity of the spring's end k (velocity of u0 when start). */
static PetscErrorCode EndState(MbSpring *sp, MbBody b, int k, PetscBool start, PetscReal x[3], PetscReal v[3])
{
  PetscFunctionBegin;
  if (!b) {
    MbV3Copy(sp->X[k], x);
    v[0] = v[1] = v[2] = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(b->ops->to_spatial(b, sp->X[k], x));
  PetscCall(b->ops->point_velocity(b, start ? b->u0 : b->u, sp->X[k], v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSpringEvaluate(MbSpring *sp, PetscInt index, MbBody b[2], PetscBool start, PetscReal t, PetscReal n[3])
{
  PetscReal x[2][3], v[2][3], d[3], len, F = 0;
  PetscFunctionBegin;
  for (int k = 0; k < 2; k++) PetscCall(EndState(sp, b[k], k, start, x[k], v[k]));
  MbV3Sub(x[0], x[1], d);
  if (MbV3Norm(sp->dir) > 0) {
    MbV3Copy(sp->dir, n);
    len = MbV3Dot(d, n);
  } else {
    len = MbV3Norm(d);
    PetscCheck(len > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
               "PUT_SPRING %" PetscInt_FMT " between bodies %" PetscInt_FMT " and %" PetscInt_FMT ": its two points met at t = %g (zero length), where its direction is undefined; give direction= for a spring that may close up", index, sp->body[0],
               sp->body[1], (double)t);
    MbV3Scale(1.0 / len, d, n);
  }
  MbV3Sub(v[0], v[1], d);
  sp->stroke   = len - sp->length0;
  sp->velocity = MbV3Dot(d, n);
  if (sp->stroke >= sp->lo && sp->stroke <= sp->hi) {
    if (sp->fn) {
      PetscCall(sp->fn(sp->ctx, sp->stroke, sp->velocity, &F));
      PetscCheck(isfinite(F), PETSC_COMM_SELF, PETSC_ERR_FP, "PUT_SPRING %" PetscInt_FMT ": its function returned %g for stroke %g and velocity %g at t = %g", index, (double)F, (double)sp->stroke, (double)sp->velocity, (double)t);
    } else
      F = -sp->k * sp->stroke - sp->c * sp->velocity;
  }
  sp->force = F;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal MbSpringPotential(const MbSpring *sp, PetscReal s)
{
  PetscReal c = PetscMin(PetscMax(s, sp->lo), sp->hi), c0 = PetscMin(PetscMax(0.0, sp->lo), sp->hi);
  if (sp->fn) return 0;
  return 0.5 * sp->k * (c * c - c0 * c0);
}

PetscErrorCode MbSpringAddForce(const MbSpring *sp, MbBody b, int side, const PetscReal n[3], PetscReal f[])
{
  static const PetscReal eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  PetscReal              P[3];
  PetscFunctionBegin;
  MbV3Scale(side ? -sp->force : sp->force, n, P);
  PetscCall(MbBodyAddPointForce(b, sp->X[side], eye, P, 1.0, f)); /* ẋ = H u, so the generalized force is Hᵀ P */
  PetscFunctionReturn(PETSC_SUCCESS);
}
