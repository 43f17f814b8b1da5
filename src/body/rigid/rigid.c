/* Rigid kinematics (seed 003, "Rigid dynamics"): M = diag(J, mI) (eq. mrig), external part
   of f (eq. frig; the gyroscopic −Ω×JΩ is the scheme's, seed 000 eq. (34)), and the
   operator H at a point. Obstacles share the geometry and have zero inverse inertia; a moving
   one follows its prescribed velocity (the drive ops). */
#include <moreau/mbmath.h>
#include "../bodyimpl.h"

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
      PetscInt  n = 9;
      PetscCall(l->fn(l->ctx, b, b->q, b->u, t, h, &n, out));
      PetscCheck(n == 9, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "body %" PetscInt_FMT ": a load callback of a RIGID body returns 9 numbers, got %" PetscInt_FMT, b->id, n);
      for (int k = 0; k < 9; k++) PetscCheck(isfinite(out[k]), PETSC_COMM_SELF, PETSC_ERR_FP, "body %" PetscInt_FMT ": load callback returned a non-finite value %g at position %d", b->id, (double)out[k], k);
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
    } else if (l->frame == MB_FRAME_SPATIAL)
      MbV3Add(ts, d, ts);
    else
      MbV3Add(T, d, T);
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

/* X = Λᵀ(x − x̄) + X̄. q holds Λ column-wise, so read row-major it is Λᵀ: MbM3Mult on q
   forms the same products and sums as MbM3MultTranspose on Λ, without building Λ. */
static PetscErrorCode RigidToReferential(MbBody b, PetscInt prim, const PetscReal x[3], PetscReal X[3])
{
  PetscReal a[3];
  MbV3Sub(x, &b->q[9], a);
  MbM3Mult(b->q, a, a);
  MbV3Add(a, b->mp.center, X);
  return PETSC_SUCCESS;
}

/* Reference configuration: Λ = I (column-wise), x̄ = X̄. */
/* q = [Λ column-wise, x̄]: Λ must be a rotation, ΛᵀΛ = I and det Λ = 1 to 1e-8 */
static PetscErrorCode RigidCheckConf(MbBody b, const PetscReal q[])
{
  PetscReal L[9], e = 0;
  PetscFunctionBegin;
  for (int i = 0; i < 3; i++) /* L = ΛᵀΛ − I with Λ's columns q[3j .. 3j+2] */
    for (int j = 0; j < 3; j++) L[3 * i + j] = q[3 * i] * q[3 * j] + q[3 * i + 1] * q[3 * j + 1] + q[3 * i + 2] * q[3 * j + 2] - (i == j);
  for (int k = 0; k < 9; k++) e = PetscMax(e, PetscAbsReal(L[k]));
  PetscCheck(e <= 1e-8, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "body %" PetscInt_FMT " (%s): the first 9 numbers of conf must be a rotation (columns), but its columns' dot products differ from the identity's by %g (columns (%g, %g, %g), (%g, %g, %g), (%g, %g, %g))", b->id, b->ops->name, (double)e,
             (double)q[0], (double)q[1], (double)q[2], (double)q[3], (double)q[4], (double)q[5], (double)q[6], (double)q[7], (double)q[8]);
  PetscCheck(MbM3Det(q) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT " (%s): the first 9 numbers of conf are a reflection (determinant %g), not a rotation", b->id, b->ops->name, (double)MbM3Det(q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RigidReset(MbBody b)
{
  PetscArrayzero(b->q, 12);
  b->q[0] = b->q[4] = b->q[8] = 1.0;
  MbV3Copy(b->mp.center, &b->q[9]);
  return PETSC_SUCCESS;
}

static PetscErrorCode RigidCreate(MbBody b) { return PETSC_SUCCESS; }

/* Solfec-1.0's disable_rotation (bod.c zeroes Ω before each rotation update, so Λ never
   changes): here Ω = 0 and J⁻¹ = 0, an infinite rotational inertia. Every scheme then keeps
   Λ and Ω = 0 — the rigid schemes' Ω updates and the force schemes' Ω̇ are J⁻¹ times
   something, and the constraint impulse's hA⁻¹HᵀR (inverse) has no rotational part — and
   the constraint solve sees a body that only translates (Solfec's solve let Ω change within
   the step and then dropped it: the two differ where a reaction has a moment about the
   mass centre). Set velocities leave Ω at zero (RigidSetVelocity). */
static PetscErrorCode RigidDisableRotation(MbBody b)
{
  PetscArrayzero(b->Jinv, 9);
  PetscArrayzero(b->u, 3);
  PetscArrayzero(b->u0, 3);
  return PETSC_SUCCESS;
}

/* u = [Ω, v]: Ω given, or Ω = Λᵀω, whose entry j is column j of Λ (q[3j..3j+2]) times ω;
   Ω stays zero when the rotation is disabled */
static PetscErrorCode RigidSetVelocity(MbBody b, const PetscReal linear[3], const PetscReal angular[3], PetscBool spatial)
{
  const PetscReal *q = b->q;
  if (b->norotation) angular = NULL;
  if (angular && spatial)
    for (int j = 0; j < 3; j++) b->u[j] = q[3 * j] * angular[0] + q[3 * j + 1] * angular[1] + q[3 * j + 2] * angular[2];
  else if (angular)
    MbV3Copy(angular, &b->u[0]);
  if (linear) MbV3Copy(linear, &b->u[3]);
  return PETSC_SUCCESS;
}

/* x ↦ R(x − c) + c + d: Λ ← RΛ (column by column: q[3j..3j+2] is column j), x̄ likewise */
static PetscErrorCode RigidTransform(MbBody b, const PetscReal R[9], const PetscReal c[3], const PetscReal d[3])
{
  PetscReal *q = b->q, y[3];
  for (int j = 0; j < 3; j++) {
    MbM3Mult(R, &q[3 * j], y);
    MbV3Copy(y, &q[3 * j]);
  }
  MbV3Sub(&q[9], c, y);
  MbM3Mult(R, y, y);
  MbV3Add(y, c, y);
  MbV3Add(y, d, &q[9]);
  return PETSC_SUCCESS;
}

/* A = Λ, B = Λ hat(Ω): ẋ = v + Λ(Ω × (X − X̄)) */
static PetscErrorCode RigidAffine(MbBody b, PetscReal m[24])
{
  PetscReal W[9];
  RigidLambda(b->q, m);
  MbM3Hat(b->u, W);
  MbM3MatMult(m, W, &m[9]);
  MbV3Copy(&b->q[9], &m[18]);
  MbV3Copy(&b->u[3], &m[21]);
  return PETSC_SUCCESS;
}

/* The mass centre and the referential extent (a rigid body keeps its size). */
static PetscErrorCode RigidBound(MbBody b, PetscReal c[3], PetscReal *r)
{
  MbV3Copy(&b->q[9], c);
  *r = MbBodyExtent(b);
  return PETSC_SUCCESS;
}

/* u = (Ω, v): the last three are lengths per time */
static PetscBool RigidLengthDof(MbBody b, PetscInt j) { return j >= 3 ? PETSC_TRUE : PETSC_FALSE; }

static const MbBodyOps RigidOps = {
    .name             = MBBODYRIGID,
    .length_dof       = RigidLengthDof,
    .nq               = 12,
    .nu               = 6,
    .movable          = PETSC_TRUE,
    .torque           = PETSC_TRUE,
    .traits           = MB_BODY_TRAIT_ROTATION | MB_BODY_TRAIT_FORCE,
    .scheme           = NULL, /* the domain's rigid default, -mb_scheme */
    .create           = RigidCreate,
    .check_conf       = RigidCheckConf,
    .reset            = RigidReset,
    .kinetic          = RigidKinetic,
    .inverse          = RigidInverse,
    .external         = RigidExternal,
    .to_spatial       = RigidToSpatial,
    .to_referential   = RigidToReferential,
    .point_velocity   = RigidPointVelocity,
    .operator_h       = RigidOperatorH,
    .momentum         = RigidMomentum,
    .set_velocity     = RigidSetVelocity,
    .disable_rotation = RigidDisableRotation,
    .transform        = RigidTransform,
    .bound            = RigidBound,
    .affine           = RigidAffine,
    .acceleration     = RigidAcceleration,
    .advance          = RigidAdvance,
};

PetscErrorCode MbBodyKindRegister_Rigid(void) { return MbBodyKindRegister(MBBODYRIGID, &RigidOps); }

/* Obstacles: infinite inertia; fixed in space unless given a velocity (below). */
static PetscErrorCode ObstacleZeroScalar(MbBody b, PetscReal *e)
{
  *e = 0;
  return PETSC_SUCCESS;
}
static PetscErrorCode ObstacleInverse(MbBody b, PetscInt n, const PetscReal x[], PetscReal y[]) { return PetscArrayzero(y, 6 * n); }
static PetscErrorCode ObstacleExternal(MbBody b, PetscReal t, PetscReal h, const PetscReal g[3], PetscReal f[])
{
  PetscArrayzero(f, 6);
  return PETSC_SUCCESS;
}
static PetscErrorCode ObstacleMomentum(MbBody b, PetscReal a[3], PetscReal l[3])
{
  PetscArrayzero(a, 3);
  PetscArrayzero(l, 3);
  return PETSC_SUCCESS;
}

/* Moving obstacles. Solfec-1.0 (bod.c) integrates an OBSTACLE as a rigid body that takes
   no loads (rig_force returns zero for it) and no contact reactions (its H is zero in a
   contact's row, and rig_constraints_force skips contacts): only its velocity (INITIAL_VELOCITY)
   and the joints on it (SET_VELOCITY, FIX_POINT, FIX_DIRECTION, ...) move it. Here its motion
   is prescribed a step at a time, with Solfec's midpoint placement (bod.c,
   BODY_Dynamic_Step_Begin/End): q(t+h/2) = q(t) ⊕ (h/2)u(t), u(t+h) from the rows,
   q(t+h) = q(t+h/2) ⊕ (h/2)u(t+h). Contacts see it infinitely heavy (ObstacleInverse is zero)
   and moving (the local dynamics adds its point velocities to B). */
static PetscErrorCode ObstacleDriveBegin(MbBody b, PetscReal h)
{
  PetscReal d[6];
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(b->q0, b->q, 12));
  PetscCall(PetscArraycpy(b->u0, b->u, 6));
  if (!MbBodyInMotion(b)) PetscFunctionReturn(PETSC_SUCCESS); /* at rest: q exactly as it was */
  for (int k = 0; k < 6; k++) d[k] = 0.5 * h * b->u[k];
  PetscCall(RigidAdvance(b, b->q, d, b->q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ObstacleDriveEnd(MbBody b, PetscReal h)
{
  PetscReal d[6];
  PetscFunctionBegin;
  if (!MbBodyInMotion(b)) PetscFunctionReturn(PETSC_SUCCESS);
  for (int k = 0; k < 6; k++) d[k] = 0.5 * h * b->u[k];
  PetscCall(RigidAdvance(b, b->q, d, b->q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a·b in the metric M⁻¹ = diag(J⁻¹, I/m) of generalized forces */
static PetscReal ObstacleDot(MbBody b, const PetscReal x[6], const PetscReal y[6])
{
  PetscReal t[3];
  MbM3Mult(b->Jinv, y, t);
  return MbV3Dot(x, t) + MbV3Dot(&x[3], &y[3]) / b->mp.mass;
}

/* u(t+h) of a moving obstacle. Its free motion is torque-free: the spatial angular momentum
   π = ΛJΩ stays, so with Λ(t+h) ≈ Λ(t)exp(hΩ), Ω ← J⁻¹exp(−hΩ)JΩ (a spin about a principal
   axis keeps its rate, as Solfec's obstacle keeps turning at its initial angular velocity) and
   v stays. Then the velocity nearest to it in the kinetic metric M = diag(J, mI) that
   satisfies the rows (h_i·u = value_i, h_i = [(X − X̄) × Λᵀd, d]): what Solfec's solver gives
   its joints on a body that nothing else acts on. The rows are made M⁻¹-orthogonal
   (Gram–Schmidt), so that each correction u += M⁻¹h_k(g_k − h_k·u)/(h_k·M⁻¹h_k) keeps the
   others; a row that depends on earlier ones is dropped, or an error when its value
   contradicts theirs. */
static PetscErrorCode ObstacleDriveVelocity(MbBody b, PetscReal h, PetscInt n, const MbBodyVelocityRow rows[])
{
  PetscReal *u = b->u, L[9], *hr, *g, *nn, scale = 0;
  PetscInt   m      = 0;
  PetscBool  moving = MbBodyInMotion(b);
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) scale = PetscMax(scale, PetscAbsReal(rows[i].value));
  if (!moving && scale == 0) PetscFunctionReturn(PETSC_SUCCESS); /* at rest and held there */
  if (moving) {
    PetscReal JO[3], R[9], w[3], psi[3];
    MbM3Mult(b->mp.inertia, u, JO);
    MbV3Scale(-h, u, psi);
    MbExpMap(psi, R);
    MbM3Mult(R, JO, w);
    MbM3Mult(b->Jinv, w, u);
  }
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(b->mp.mass > 0 && PetscIsNormalReal(b->mp.mass), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "OBSTACLE %" PetscInt_FMT ": its velocity is prescribed, which needs a mass > 0 (the density of its material), got %g", b->id,
             (double)b->mp.mass);
  scale = PetscMax(scale, MbV3Norm(&u[3]) + MbV3Norm(u) * MbBodyExtent(b));
  PetscCall(PetscMalloc3(6 * n, &hr, n, &g, n, &nn));
  RigidLambda(b->q, L);
  for (PetscInt i = 0; i < n; i++) {
    PetscReal a[3], D[3], *r = &hr[6 * m], gi = rows[i].value, n0, nr;
    MbV3Sub(rows[i].X, b->mp.center, a);
    MbM3MultTranspose(L, rows[i].dir, D);
    MbV3Cross(a, D, r); /* d·Λ(Ω × a) = Ω·(a × Λᵀd) */
    MbV3Copy(rows[i].dir, &r[3]);
    n0 = ObstacleDot(b, r, r);
    for (PetscInt k = 0; k < m; k++) {
      const PetscReal al = ObstacleDot(b, r, &hr[6 * k]) / nn[k];
      for (int j = 0; j < 6; j++) r[j] -= al * hr[6 * k + j];
      gi -= al * g[k];
    }
    nr = ObstacleDot(b, r, r);
    if (nr > 1e-18 * n0) {
      g[m]    = gi;
      nn[m++] = nr;
      continue;
    }
    PetscCheck(PetscAbsReal(gi) <= 1e-6 * scale, PETSC_COMM_SELF, PETSC_ERR_ARG_INCOMP,
               "OBSTACLE %" PetscInt_FMT ": its prescribed velocities contradict each other: the one along (%g, %g, %g) at (%g, %g, %g) (referential) follows from the others, which make it %g, not the prescribed %g; remove one of them", b->id,
               (double)rows[i].dir[0], (double)rows[i].dir[1], (double)rows[i].dir[2], (double)rows[i].X[0], (double)rows[i].X[1], (double)rows[i].X[2], (double)(rows[i].value - gi), (double)rows[i].value);
  }
  for (PetscInt k = 0; k < m; k++) {
    const PetscReal *r = &hr[6 * k], c = (g[k] - MbV3Dot(r, u) - MbV3Dot(&r[3], &u[3])) / nn[k];
    PetscReal        t[3];
    MbM3Mult(b->Jinv, r, t);
    MbV3Axpy(c, t, u, u);
    MbV3Axpy(c / b->mp.mass, &r[3], &u[3], &u[3]);
  }
  PetscCall(PetscFree3(hr, g, nn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* No traits: no scheme applies to it; the drive ops move it when it is given a velocity. */
static const MbBodyOps ObstacleOps = {
    .name           = MBBODYOBSTACLE,
    .length_dof     = RigidLengthDof,
    .nq             = 12,
    .nu             = 6,
    .movable        = PETSC_FALSE,
    .create         = RigidCreate,
    .check_conf     = RigidCheckConf,
    .reset          = RigidReset,
    .kinetic        = ObstacleZeroScalar,
    .inverse        = ObstacleInverse,
    .external       = ObstacleExternal,
    .to_spatial     = RigidToSpatial,
    .to_referential = RigidToReferential,
    .point_velocity = RigidPointVelocity,
    .operator_h     = RigidOperatorH,
    .momentum       = ObstacleMomentum,
    .set_velocity   = RigidSetVelocity,
    .transform      = RigidTransform,
    .bound          = RigidBound,
    .affine         = RigidAffine,
    .drive_begin    = ObstacleDriveBegin,
    .drive_velocity = ObstacleDriveVelocity,
    .drive_end      = ObstacleDriveEnd,
};

PetscErrorCode MbBodyKindRegister_Obstacle(void) { return MbBodyKindRegister(MBBODYOBSTACLE, &ObstacleOps); }
