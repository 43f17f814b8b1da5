/* Rigid kinematics (seed 003, "Rigid dynamics"): M = diag(J, mI) (eq. mrig), external part
   of f (eq. frig; the gyroscopic −Ω×JΩ is the scheme's, seed 000 eq. (34)), and the
   operator H at a point. Obstacles share the geometry and have zero inverse inertia. */
#include <moreau/mbmath.h>
#include "bodyimpl.h"

/* Λ (row-major) from q, where q stores Λ column-wise as Solfec does. */
static inline void RigidLambda(const PetscReal q[], PetscReal L[9]) { MbM3Transpose(q, L); }

static PetscErrorCode RigidKinetic(MbBody b, PetscReal *ek)
{
  PetscReal JO[3];
  MbM3Mult(b->mp.inertia, b->u, JO);
  *ek = 0.5 * (MbV3Dot(b->u, JO) + b->mp.mass * MbV3Dot(&b->u[3], &b->u[3]));
  return PETSC_SUCCESS;
}

static PetscErrorCode RigidInverse(MbBody b, PetscInt n, const PetscReal x[], PetscReal y[])
{
  const PetscReal im = 1.0 / b->mp.mass;
  for (PetscInt j = 0; j < n; j++, x += 6, y += 6) {
    PetscReal t[3];
    MbM3Mult(b->Jinv, x, t);
    MbV3Copy(t, y);
    MbV3Scale(im, &x[3], &y[3]);
  }
  return PETSC_SUCCESS;
}

static PetscErrorCode RigidToSpatial(MbBody b, const PetscReal X[3], PetscReal x[3])
{
  PetscReal L[9], a[3];
  RigidLambda(b->q, L);
  MbV3Sub(X, b->mp.center, a);
  MbM3Mult(L, a, a);
  MbV3Add(&b->q[9], a, x);
  return PETSC_SUCCESS;
}

/* ẋ = v + Λ(Ω × (X − X̄)) */
static PetscErrorCode RigidPointVelocity(MbBody b, const PetscReal u[], const PetscReal X[3], PetscReal v[3])
{
  PetscReal L[9], a[3], w[3];
  RigidLambda(b->q, L);
  MbV3Sub(X, b->mp.center, a);
  MbV3Cross(u, a, w);
  MbM3Mult(L, w, w);
  MbV3Add(&u[3], w, v);
  return PETSC_SUCCESS;
}

/* U = baseᵀ ẋ = baseᵀ [−Λ hat(X − X̄), I] u. With P = baseᵀ Λ (Λ = qᵀ), row i of
   −P hat(a) is −P_i hat(a) = a × P_i: 27 products and three cross products (this runs
   for every constraint on every body, every step). */
static PetscErrorCode RigidOperatorH(MbBody b, const PetscReal X[3], const PetscReal base[9], PetscReal H[])
{
  const PetscReal *q = b->q, *c = b->mp.center;
  PetscReal        a[3] = {X[0] - c[0], X[1] - c[1], X[2] - c[2]};
  for (int i = 0; i < 3; i++) {
    PetscReal P[3];
    for (int j = 0; j < 3; j++) P[j] = base[i] * q[3 * j] + base[3 + i] * q[3 * j + 1] + base[6 + i] * q[3 * j + 2];
    H[6 * i]     = a[1] * P[2] - a[2] * P[1];
    H[6 * i + 1] = a[2] * P[0] - a[0] * P[2];
    H[6 * i + 2] = a[0] * P[1] - a[1] * P[0];
    H[6 * i + 3] = base[i];
    H[6 * i + 4] = base[3 + i];
    H[6 * i + 5] = base[6 + i];
  }
  return PETSC_SUCCESS;
}

static PetscErrorCode RigidMomentum(MbBody b, PetscReal ang[3], PetscReal lin[3])
{
  PetscReal L[9], JO[3], xv[3];
  RigidLambda(b->q, L);
  MbM3Mult(b->mp.inertia, b->u, JO);
  MbM3Mult(L, JO, ang);
  MbV3Scale(b->mp.mass, &b->u[3], lin);
  MbV3Cross(&b->q[9], lin, xv);
  MbV3Add(ang, xv, ang);
  return PETSC_SUCCESS;
}

/* f = [Λᵀ t + T, F]: t spatial torques about x̄, T referential torques, F spatial forces;
   loads are evaluated at the current q (the half-step configuration inside a step). */
static PetscErrorCode RigidExternal(MbBody b, PetscReal t, PetscReal h, const PetscReal g[3], PetscReal f[])
{
  PetscReal L[9], F[3] = {0, 0, 0}, ts[3] = {0, 0, 0}, T[3] = {0, 0, 0};
  PetscFunctionBegin;
  RigidLambda(b->q, L);
  if (g) MbV3Scale(b->mp.mass, g, F);
  for (PetscInt i = 0; i < b->nload; i++) {
    MbLoad   *l = &b->load[i];
    PetscReal d[3], v = l->value;
    if (l->fn) {
      PetscReal out[9];
      PetscCall(l->fn(l->ctx, b, b->q, b->u, t, h, out));
      for (int k = 0; k < 9; k++) PetscCheck(PetscIsNormalReal(out[k]) || out[k] == 0, PETSC_COMM_SELF, PETSC_ERR_FP, "body %" PetscInt_FMT ": load callback returned a non-finite value %g at position %d", b->id, (double)out[k], k);
      MbV3Add(F, &out[0], F);
      MbV3Add(ts, &out[3], ts);
      MbV3Add(T, &out[6], T);
      continue;
    }
    if (l->ts) PetscCall(MbTimeSeriesEvaluate(l->ts, t, &v));
    MbV3Scale(v, l->dir, d);
    if (l->kind == MB_LOAD_FORCE) {
      PetscReal a[3], m[3];
      if (l->frame == MB_FRAME_CONVECTED) MbM3Mult(L, d, d);
      MbV3Add(F, d, F);
      MbV3Sub(l->X, b->mp.center, a);
      MbM3Mult(L, a, a);
      MbV3Cross(a, d, m);
      MbV3Add(ts, m, ts);
    } else if (l->frame == MB_FRAME_SPATIAL) MbV3Add(ts, d, ts);
    else MbV3Add(T, d, T);
  }
  MbM3MultTranspose(L, ts, ts);
  MbV3Add(ts, T, f);
  MbV3Copy(F, &f[3]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Acceleration of the force schemes: Ω̇ = J⁻¹(T − Ω × JΩ) (Euler's equations in the body
   frame, seed 003), v̇ = F/m, at the body's current Ω. */
static PetscErrorCode RigidAcceleration(MbBody b, const PetscReal f[], PetscReal a[])
{
  PetscReal JO[3], c[3];
  MbM3Mult(b->mp.inertia, b->u, JO);
  MbV3Cross(b->u, JO, c);
  MbV3Sub(f, c, c);
  MbM3Mult(b->Jinv, c, a);
  MbV3Scale(1.0 / b->mp.mass, &f[3], &a[3]);
  return PETSC_SUCCESS;
}

/* q = q0 ⊕ Δ: Λ = Λ0 exp[Δ_Ω] (the referential increment, as Λ̇ = Λ hat(Ω)), x̄ = x̄0 + Δ_v.
   q may be q0. */
static PetscErrorCode RigidAdvance(MbBody b, const PetscReal q0[], const PetscReal dq[], PetscReal q[])
{
  PetscReal L[9], R[9], T[9];
  RigidLambda(q0, L);
  MbExpMap(dq, R);
  MbM3MatMult(L, R, T);
  MbM3Transpose(T, q); /* column-wise */
  MbV3Add(&q0[9], &dq[3], &q[9]);
  return PETSC_SUCCESS;
}

const MbBodyOps MbBodyOps_Rigid = {"RIGID", RigidKinetic, RigidInverse, RigidExternal, RigidToSpatial, RigidPointVelocity, RigidOperatorH, RigidMomentum, RigidAcceleration, RigidAdvance};

/* Obstacles: fixed in space, infinite inertia. */
static PetscErrorCode ObstacleZeroScalar(MbBody b, PetscReal *e) { *e = 0; return PETSC_SUCCESS; }
static PetscErrorCode ObstacleInverse(MbBody b, PetscInt n, const PetscReal x[], PetscReal y[]) { return PetscArrayzero(y, 6 * n); }
static PetscErrorCode ObstacleExternal(MbBody b, PetscReal t, PetscReal h, const PetscReal g[3], PetscReal f[]) { PetscArrayzero(f, 6); return PETSC_SUCCESS; }
static PetscErrorCode ObstacleMomentum(MbBody b, PetscReal a[3], PetscReal l[3]) { PetscArrayzero(a, 3); PetscArrayzero(l, 3); return PETSC_SUCCESS; }

static PetscErrorCode ObstacleAcceleration(MbBody b, const PetscReal f[], PetscReal a[]) { PetscArrayzero(a, 6); return PETSC_SUCCESS; }
static PetscErrorCode ObstacleAdvance(MbBody b, const PetscReal q0[], const PetscReal dq[], PetscReal q[]) { return q != q0 ? PetscArraycpy(q, q0, 12) : PETSC_SUCCESS; }

const MbBodyOps MbBodyOps_Obstacle = {"OBSTACLE", ObstacleZeroScalar, ObstacleInverse, ObstacleExternal, RigidToSpatial, RigidPointVelocity, RigidOperatorH, ObstacleMomentum, ObstacleAcceleration, ObstacleAdvance};
