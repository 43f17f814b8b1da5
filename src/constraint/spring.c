/* Springs (PUT_SPRING, as Solfec-1.0's deck command): a force along the line between a
   point of one body and a point of another body or of space, given by a linear spring and
   dashpot or by a callback of stroke and stroke rate (constraint.h, MbSpring). The force
   is not a row of the local dynamics: the force schemes evaluate it where they need it
   (src/domain/forces.c) and the RIG_* schemes apply it as an impulse of the step at the
   mid-step placement, as penalty contacts are. Its limits are hard stops, as in Solfec-1.0
   (where a spring is a constraint of its local dynamics, dom.c DOM_Put_Spring, with the
   limits kept beside the stroke): near a limit the RIG_* schemes add a unilateral row to
   the constraint solve (MbSpringStopRows), which a force cannot express. */
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
  else
    sp->length0 = MbV3Norm(d); /* 0 where the points coincide: see Kinematics */
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

/* The spring's geometry at the bodies' current placement: the spatial point of end 1, the
   unit direction n, the stroke and its rate (of u0 when start). t for messages. */
static PetscErrorCode Kinematics(MbSpring *sp, PetscInt index, MbBody b[2], PetscBool start, PetscReal t, PetscReal x1[3], PetscReal n[3], PetscReal *stroke, PetscReal *rate)
{
  PetscReal x[2][3], v[2][3], d[3], len;
  PetscFunctionBegin;
  for (int k = 0; k < 2; k++) PetscCall(EndState(sp, b[k], k, start, x[k], v[k]));
  MbV3Sub(x[0], x[1], d);
  if (MbV3Norm(sp->dir) > 0) {
    MbV3Copy(sp->dir, n);
    len = MbV3Dot(d, n);
  } else {
    len = MbV3Norm(d);
    if (len > 0)
      MbV3Scale(1.0 / len, d, n);
    else { /* the points meet: no line between them; Solfec-1.0 takes z (dom.c, SPRING_FOLLOW) */
      n[0] = n[1] = 0;
      n[2]        = 1;
    }
  }
  MbV3Sub(v[0], v[1], d);
  MbV3Copy(x[0], x1);
  *stroke = len - sp->length0;
  *rate   = MbV3Dot(d, n);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSpringEvaluate(MbSpring *sp, PetscInt index, MbBody b[2], PetscBool start, PetscReal t, PetscReal n[3])
{
  PetscReal x1[3], F = 0;
  PetscFunctionBegin;
  PetscCall(Kinematics(sp, index, b, start, t, x1, n, &sp->stroke, &sp->velocity));
  if (sp->stroke >= sp->act[0] && sp->stroke <= sp->act[1]) {
    if (sp->fn) {
      PetscCall(sp->fn(sp->ctx, sp->stroke, sp->velocity, &F));
      PetscCheck(isfinite(F), PETSC_COMM_SELF, PETSC_ERR_FP, "PUT_SPRING %" PetscInt_FMT ": its function returned %g for stroke %g and velocity %g at t = %g", index, (double)F, (double)sp->stroke, (double)sp->velocity, (double)t);
    } else
      F = -sp->k * sp->stroke - sp->c * sp->velocity;
  }
  sp->force = F;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ±PETSC_INFINITY (the C callers' "none") and ±inf (Python's) are no stop */
PetscBool MbSpringHasStops(const MbSpring *sp) { return (PetscBool)(sp->lo > PETSC_NINFINITY || sp->hi < PETSC_INFINITY); }

PetscErrorCode MbSpringStopRows(MbSpring *sp, PetscInt index, MbBody b[2], PetscReal t, PetscReal h, MbCon c[2], PetscInt *n)
{
  PetscReal x1[3], dir[3], s, r0, r;
  PetscFunctionBegin;
  *n = 0;
  if (!MbSpringHasStops(sp)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(Kinematics(sp, index, b, PETSC_TRUE, t, x1, dir, &s, &r0));
  PetscCall(Kinematics(sp, index, b, PETSC_FALSE, t, x1, dir, &s, &r));
  for (int side = 0; side < 2; side++) {
    const PetscReal sign = side ? -1.0 : 1.0, lim = side ? sp->hi : sp->lo;
    PetscReal       g, nrm[3];
    MbCon          *cc;
    if (side ? !(lim < PETSC_INFINITY) : !(lim > PETSC_NINFINITY)) continue;
    g = sign * (s - lim); /* >= 0 on the allowed side */
    /* a stop that the stroke cannot reach within the step at the rates of its start and of
       the free motion (u after the step's forces) is left out; an extra row would be inert
       (the bias lets the stroke move up to the stop) but costs the solver */
    if (g > h * (PetscAbsReal(r0) + PetscAbsReal(r))) continue;
    cc = &c[(*n)++];
    PetscCall(PetscMemzero(cc, sizeof(*cc)));
    cc->kind    = MB_CON_SPRING;
    cc->joint   = -1;
    cc->feature = 2 * index + side; /* orders the stop rows (detect.c) */
    cc->surf[0] = cc->surf[1] = -1;
    for (int k = 0; k < 2; k++) {
      cc->body[k] = sp->body[k];
      cc->prim[k] = -1;
      MbV3Copy(sp->X[k], cc->X[k]);
    }
    MbV3Copy(x1, cc->point);
    /* the normal is the direction in which the master's end moves the stroke away from the
       limit (+n at the lower, −n at the upper), so U_N = ±ṡ and R_N >= 0 pushes it back */
    MbV3Scale(sign, dir, nrm);
    MbConFrame(nrm, NULL, cc->base);
    /* frictionless Signorini (mu = cohesion = 0) on Ū_N = U_N + g/h: the next mid-step
       placement, q(t+h) + (h/2)u(t+h) = q(t+h/2) + h u(t+h), where the stop is found again,
       reaches the limit and no further; past the limit (g < 0) no bias: the stroke goes no
       further out, and is not pushed back (that would give the body energy) */
    cc->gap         = g;
    cc->law.kind    = MB_LAW_CONTACT;
    cc->law.bias[2] = g > 0 ? g / h : 0;
    PetscCall(MbConVelocity(cc, b, PETSC_TRUE, cc->V));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscReal MbSpringPotential(const MbSpring *sp, PetscReal s)
{
  PetscReal c = PetscMin(PetscMax(s, sp->act[0]), sp->act[1]), c0 = PetscMin(PetscMax(0.0, sp->act[0]), sp->act[1]);
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
