/* Joints: FIX_POINT, FIX_DIRECTION, SET_VELOCITY, PUT_RIGID_LINK (Solfec-1.0's deck API)
   as blocks of U = B + W R. Velocity-level constraints drift at the position level; each
   carries a bias that removes the position error it has accumulated over the next step
   (a stabilization in the sense of Baumgarte, scaled by 1/h). */
#include <moreau/mbmath.h>
#include "constraint.h"
#include "../body/bodyimpl.h"

const char *const MbConKindNames[] = {"CONTACT", "FIXPNT", "FIXDIR", "VELODIR", "RIGLNK", "SPRING"};

void MbConFrame(const PetscReal n[3], const PetscReal hint[3], PetscReal base[9])
{
  PetscReal t1[3], t2[3], len = 0;
  if (hint) {
    MbV3Axpy(-MbV3Dot(hint, n), n, hint, t1);
    len = MbV3Norm(t1);
  }
  if (len < 1e-6) { /* cross n with the axis least aligned with it */
    PetscReal e[3] = {0, 0, 0};
    int       k    = PetscAbsReal(n[0]) < PetscAbsReal(n[1]) ? (PetscAbsReal(n[0]) < PetscAbsReal(n[2]) ? 0 : 2) : (PetscAbsReal(n[1]) < PetscAbsReal(n[2]) ? 1 : 2);
    e[k]           = 1;
    MbV3Cross(e, n, t1);
    len = MbV3Norm(t1);
  }
  MbV3Scale(1.0 / len, t1, t1);
  MbV3Cross(n, t1, t2);
  for (int i = 0; i < 3; i++) {
    base[3 * i + 0] = t1[i];
    base[3 * i + 1] = t2[i];
    base[3 * i + 2] = n[i];
  }
}

PetscErrorCode MbConVelocity(MbCon *c, MbBody b[2], PetscBool start, PetscReal U[3])
{
  PetscReal v[3] = {0, 0, 0}, w[3];
  PetscFunctionBegin;
  for (int k = 0; k < 2; k++) {
    if (!b[k]) continue;
    /* at the start: the point velocity of u0 at the current placement */
    PetscCall(b[k]->ops->point_velocity(b[k], start ? b[k]->u0 : b[k]->u, c->X[k], w));
    MbV3Axpy(k ? -1.0 : 1.0, w, v, v);
  }
  MbM3MultTranspose(c->base, v, U);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbJointResolve(MbJoint *j, MbBody b[2], PetscReal geps)
{
  PetscFunctionBegin;
  for (int k = 0; k < 2; k++) {
    if (!b[k]) {
      MbV3Copy(j->p[k], j->X[k]); /* the ground: referential = spatial */
      continue;
    }
    PetscCall(MbBodyPointToReferential(b[k], j->p[k], j->X[k]));
  }
  if (j->kind == MB_CON_FIXDIR && b[1]) {
    /* a direction fixed relative to the master (Solfec-1.0 dom.c, FIX_DIRECTION with body2,
       point2): the direction turns with the master, D its referential image; the slave's
       point keeps its offset along it from the master's point */
    PetscReal q[3], Q[3];
    MbV3Add(j->p[0], j->dir, q);
    PetscCall(MbBodyPointToReferential(b[0], q, Q));
    MbV3Sub(Q, j->X[0], j->D);
    MbV3Sub(j->p[0], j->p[1], q);
    j->length = MbV3Dot(q, j->dir);
  }
  if (j->kind == MB_CON_RIGLNK) {
    PetscReal d[3];
    MbV3Sub(j->p[0], j->p[1], d);
    j->length = MbV3Norm(d);
    /* points closer than the geometric epsilon are glued (Solfec-1.0, dom.c: a link shorter
       than GEOMETRIC_EPSILON becomes a fixed point between the bodies): length 0 marks it */
    if (j->length < geps) j->length = 0;
  }
  j->resolved = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbJointToConstraint(MbJoint *j, PetscInt index, MbBody b[2], PetscReal t, PetscReal h, MbCon *c)
{
  PetscReal x[2][3], d[3];
  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  c->kind    = j->kind == MB_CON_RIGLNK && j->length == 0 ? MB_CON_FIXPNT : j->kind; /* a glued point (MbJointResolve) */
  c->body[0] = j->body[0];
  c->body[1] = j->body[1];
  c->prim[0] = c->prim[1] = -1;
  c->joint                = index;
  for (int k = 0; k < 2; k++) {
    MbV3Copy(j->X[k], c->X[k]);
    if (b[k])
      PetscCall(b[k]->ops->to_spatial(b[k], j->X[k], x[k]));
    else
      MbV3Copy(j->X[k], x[k]);
  }
  MbV3Copy(x[0], c->point);
  MbV3Copy(j->R, c->R);
  switch (c->kind) {
  case MB_CON_FIXPNT: /* ẋ₁ − ẋ₂ = 0 (ẋ₂ = 0 for the ground, where x₂ is where the point was
                         fixed); the bias returns the points together */
    c->law.kind = MB_LAW_EQUALITY;
    MbConFrame((PetscReal[3]){0, 0, 1}, (PetscReal[3]){1, 0, 0}, c->base);
    MbV3Sub(x[0], x[1], d);
    MbV3Scale(1.0 / h, d, c->law.bias);
    break;
  case MB_CON_FIXDIR:
    if (b[1]) { /* between two bodies, as Solfec-1.0's dom.c (update_fixdir): at the slave's
                   point, the master's material point there, along the master's direction
                   n = x₁(X₁ + D) − x₁(X₁) normalized; U_N = n·(ẋ₁ − ẋ₂) = 0, and the bias
                   returns the offset n·(x₁(X₁) − x₂) to its first value */
      PetscReal q[3], n[3], len;
      MbV3Add(j->X[0], j->D, q);
      PetscCall(b[0]->ops->to_spatial(b[0], q, n));
      MbV3Sub(n, x[0], n);
      len = MbV3Norm(n);
      PetscCheck(len > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "FIX_DIRECTION joint %" PetscInt_FMT ": the master body %" PetscInt_FMT " maps its direction to zero", index, j->body[0]);
      MbV3Scale(1.0 / len, n, n);
      c->law.kind = MB_LAW_NORMAL;
      MbConFrame(n, NULL, c->base);
      MbV3Copy(x[1], c->point);
      PetscCall(MbBodyPointToReferential(b[0], x[1], c->X[0]));
      MbV3Sub(x[0], x[1], d);
      c->law.bias[2] = (MbV3Dot(d, n) - j->length) / h;
      break;
    }
    /* fall through */
  case MB_CON_VELODIR:
    c->law.kind = MB_LAW_NORMAL;
    MbConFrame(j->dir, NULL, c->base);
    if (j->kind == MB_CON_FIXDIR) {
      MbV3Sub(x[0], j->p[0], d);
      c->law.bias[2] = MbV3Dot(d, j->dir) / h;
    } else {
      PetscReal v = j->value;
      if (j->ts) PetscCall(MbTimeSeriesEvaluate(j->ts, t + h, &v));
      if (j->fn) PetscCall(j->fn(j->ctx, t + h, &v));
      c->law.bias[2] = -v; /* Ū_N = U_N − v = 0 */
    }
    break;
  case MB_CON_RIGLNK: {
    PetscReal n[3], len;
    MbV3Sub(x[0], x[1], n);
    len = MbV3Norm(n);
    PetscCheck(len > 0, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "rigid link %" PetscInt_FMT " collapsed to zero length at t = %g", index, (double)t);
    MbV3Scale(1.0 / len, n, n);
    MbConFrame(n, NULL, c->base);
    c->gap         = len - j->length;
    c->law.kind    = MB_LAW_NORMAL;
    c->law.bias[2] = c->gap / h;
  } break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "joint %" PetscInt_FMT " has kind %d", index, (int)j->kind);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbJointVelocityRows(MbJoint *j, PetscInt index, MbBody b, PetscReal t, PetscReal h, PetscInt *n, MbBodyVelocityRow rows[3])
{
  MbBody bb[2] = {b, NULL};
  MbCon  c;
  PetscFunctionBegin;
  PetscCheck(j->body[1] < 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "joint %" PetscInt_FMT ": a prescribed motion from a joint between two bodies (%" PetscInt_FMT ", %" PetscInt_FMT ")", index, j->body[0], j->body[1]);
  PetscCall(MbJointToConstraint(j, index, bb, t, h, &c));
  *n = 0;
  for (int k = c.law.kind == MB_LAW_EQUALITY ? 0 : 2; k < 3; k++) { /* Ū = U + bias = 0 along the held axes */
    MbBodyVelocityRow *r = &rows[(*n)++];
    MbV3Copy(c.X[0], r->X);
    for (int i = 0; i < 3; i++) r->dir[i] = c.base[3 * i + k];
    r->value = -c.law.bias[k];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

const MbSurfMat *MbSurfMatFind(PetscInt n, const MbSurfMat m[], PetscInt s1, PetscInt s2)
{
  static const MbSurfMat frictionless = {{-1, -1}, 0, 0, 0, 0, 0, 0, 1};
  const MbSurfMat       *def          = NULL;
  for (PetscInt i = n - 1; i >= 0; i--) {
    if ((m[i].surf[0] == s1 && m[i].surf[1] == s2) || (m[i].surf[0] == s2 && m[i].surf[1] == s1)) return &m[i];
    if (!def && m[i].surf[0] < 0 && m[i].surf[1] < 0) def = &m[i];
  }
  return def ? def : &frictionless;
}
