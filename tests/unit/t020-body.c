/* Rigid bodies: bad input with the message it gives, free fall against the closed form
   (the leap-frog of the linear motion is exact for a constant force), the energy balance,
   the torque of an off-centre point force, constant, TIME_SERIES and callback loads giving
   the same trajectory, and the projectile with linear drag of VALIDATION.md. */
#include "mbtest.h"

/* A rigid sphere body of radius r at c with density rho, added to dom when dom != NULL. */
static PetscErrorCode MakeSphereBody(MbDomain dom, const PetscReal c[3], PetscReal r, PetscReal rho, MbBody *b)
{
  MbShape  s;
  PetscInt id = 0;
  PetscFunctionBegin;
  PetscCall(MbShapeCreate(&s));
  PetscCall(MbShapeAddSphere(s, c, r, 0, 0));
  if (dom) PetscCall(MbDomainNextBodyId(dom, &id));
  PetscCall(MbBodyCreate(id, MBBODYRIGID, s, rho, "ball", b));
  PetscCall(MbShapeDestroy(&s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MakeDomain(PetscReal h, const PetscReal g[3], MbDomain *dom)
{
  PetscFunctionBegin;
  PetscCall(MbDomainCreate(PETSC_COMM_SELF, dom));
  PetscCall(MbDomainSetVerbose(*dom, PETSC_FALSE));
  PetscCall(MbDomainSetStep(*dom, h));
  if (g) PetscCall(MbDomainSetGravity(*dom, g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void test_bad_input(void **state)
{
  MbBody    b;
  MbDomain  dom;
  MbScheme  s;
  PetscReal c[3] = {0, 0, 0}, J[9], Jn[9], Jd[9];
  MbM3Diag(1, 2, 3, J);
  MbM3Diag(1, 2, 3, Jn);
  Jn[1] = 0.5; /* J01 = 0.5 but J10 = 0 */
  MbM3Diag(1, -2, 3, Jd);
  MB_OK(MakeSphereBody(NULL, c, 1, 1, &b));
  MB_FAILS(MbBodySetChars(b, -1, 1, c, J), "mass must be > 0, got -1");
  MB_FAILS(MbBodySetChars(b, 0, 1, c, J), "mass must be > 0, got 0");
  MB_FAILS(MbBodySetChars(b, 1, 0, c, J), "volume must be > 0, got 0");
  MB_FAILS(MbBodySetChars(b, 1, -2, c, J), "volume must be > 0, got -2");
  MB_FAILS(MbBodySetChars(b, 1, 1, c, Jn), "inertia must be symmetric");
  MB_FAILS(MbBodySetChars(b, 1, 1, c, Jd), "positive definite");
  Jd[4] = 0; /* singular */
  MB_FAILS(MbBodySetChars(b, 1, 1, c, Jd), "positive definite");
  /* a positive diagonal is not enough: [[1, 2], [2, 1]] has eigenvalues 3 and −1 */
  MbM3Diag(1, 1, 1, Jd);
  Jd[1] = Jd[3] = 2;
  MB_FAILS(MbBodySetChars(b, 1, 1, c, Jd), "positive definite");
  MB_OK(MbBodySetChars(b, 1, 1, c, J)); /* and good input is taken after bad */
  MB_OK(MbBodyDestroy(&b));
  MB_FAILS(MbBodyCreate(0, MBBODYRIGID, NULL, 1, NULL, &b), "body 0 has no shape");
  MB_OK(MbDomainCreate(PETSC_COMM_SELF, &dom));
  MB_FAILS(MbDomainGetScheme(dom, "RIG_BAD", &s), "unknown scheme 'RIG_BAD'");
  MB_OK(MbDomainDestroy(&dom));
}

/* Free fall under g from x₀ with v₀, default scheme (RIG_NEG), h = 1e-3, 1 s. The linear
   leap-frog x(t+h) = x + h v + h²/2 g, v(t+h) = v + h g is exact for constant g, so
   x = x₀ + v₀ t + g t²/2 and v = v₀ + g t hold to round-off (g = (0, 0, −9.81): x_z falls
   by 9.81 t²/2). The external work of gravity m g·(x − x₀) (trapezoidal in the scheme, exact
   here) balances the kinetic energy: E_k − W = E_k(0). */
static void test_free_fall(void **state)
{
  MbDomain    dom;
  MbBody      b;
  MbScheme    s;
  const char *type;
  PetscReal   g[3] = {0, 0, -9.81}, x0[3] = {1, 2, 3}, v0[3] = {1, -0.5, 4}, h = 1e-3, *q, *u, E0, drift = 0;
  PetscInt    n = 1000;
  MB_OK(MakeDomain(h, g, &dom));
  MB_OK(MakeSphereBody(dom, x0, 0.1, 1000, &b));
  MB_OK(MbBodySetVelocity(b, v0, NULL));
  MB_OK(MbDomainAddBody(dom, b));
  MB_OK(MbBodyGetScheme(b, &s));
  MB_OK(MbSchemeGetType(s, &type));
  assert_string_equal(type, MBRIGNEG);
  MB_OK(MbBodyGetState(b, &q, &u));
  MB_OK(MbBodyKineticEnergy(b, &E0));
  for (PetscInt k = 1; k <= n; k++) {
    PetscReal E, W;
    MB_OK(MbDomainStep(dom));
    MB_OK(MbBodyKineticEnergy(b, &E));
    MB_OK(MbBodyGetExternalWork(b, &W));
    drift = PetscMax(drift, PetscAbsReal(E - W - E0) / E0);
  }
  PetscReal t = n * h, xe[3], ve[3], ex = 0, ev = 0, W, m;
  for (int d = 0; d < 3; d++) {
    xe[d] = x0[d] + v0[d] * t + 0.5 * g[d] * t * t;
    ve[d] = v0[d] + g[d] * t;
    ex    = PetscMax(ex, PetscAbsReal(q[9 + d] - xe[d]) / PetscAbsReal(xe[d]));
    ev    = PetscMax(ev, PetscAbsReal(u[3 + d] - ve[d]) / PetscMax(PetscAbsReal(ve[d]), PetscAbsReal(v0[d])));
  }
  {
    MbMassProps mp;
    MB_OK(MbBodyGetMassProps(b, &mp));
    m = mp.mass;
  }
  MB_OK(MbBodyGetExternalWork(b, &W));
  print_message("# free fall 1 s, h = 1e-3: x = (%.15g, %.15g, %.15g) (closed form z %.15g), rel. error x %.2e, v %.2e; max |E_k - W - E_k0|/E_k0 = %.2e; W = %.12g (m g.dx = %.12g)\n", q[9], q[10], q[11], xe[2], ex, ev, drift, W,
                m * g[2] * (q[11] - x0[2]));
  assert_true(ex < 1e-12);
  assert_true(ev < 1e-12);
  assert_true(drift < 1e-12);
  MB_CLOSE(W, m * g[2] * (q[11] - x0[2]), 1e-12 * PetscAbsReal(W));
  /* nothing turns */
  assert_true(u[0] == 0 && u[1] == 0 && u[2] == 0);
  MB_OK(MbDomainDestroy(&dom));
}

/* A spatial force F at the referential point X = X̄ + r of a body at rest with Λ = I:
   after one step h the angular velocity is J⁻¹ (r × F) h and the linear one F h / m, up to
   terms of relative order h (the scheme's gyroscopic and rotation corrections). */
static void test_point_force_torque(void **state)
{
  MbDomain  dom;
  MbBody    b;
  PetscReal c[3] = {0.5, -1, 2}, J[9], Ji[9], r[3] = {0.3, 0.1, -0.2}, F[3] = {1, -2, 5}, X[3], tau[3], Oe[3], h = 1e-6, m = 2, *q, *u;
  MbM3Diag(1, 2, 3, J);
  J[1] = J[3] = 0.2; /* not diagonal: J⁻¹ mixes the components */
  MB_OK(MbM3Invert(J, Ji));
  MbV3Add(c, r, X);
  MbV3Cross(r, F, tau); /* (0.1·5 − (−0.2)(−2), (−0.2)·1 − 0.3·5, 0.3(−2) − 0.1·1) = (0.1, −1.7, −0.7) */
  MbM3Mult(Ji, tau, Oe);
  MbV3Scale(h, Oe, Oe);
  MB_OK(MakeDomain(h, NULL, &dom));
  MB_OK(MakeSphereBody(dom, c, 0.5, 1, &b));
  MB_OK(MbBodySetChars(b, m, 1, c, J));
  MB_OK(MbBodyAddLoad(b, MB_LOAD_FORCE, MB_FRAME_SPATIAL, X, F, 1.0, NULL));
  MB_OK(MbDomainAddBody(dom, b));
  MB_OK(MbDomainStep(dom));
  MB_OK(MbBodyGetState(b, &q, &u));
  print_message("# point force (1, -2, 5) at r = (0.3, 0.1, -0.2), h = 1e-6: Omega = (%.12e, %.12e, %.12e), J^-1 (r x F) h = (%.12e, %.12e, %.12e)\n", u[0], u[1], u[2], Oe[0], Oe[1], Oe[2]);
  for (int d = 0; d < 3; d++) {
    MB_CLOSE(u[d], Oe[d], 1e-9 * MbV3Norm(Oe));
    MB_CLOSE(u[3 + d], F[d] * h / m, 1e-15 * MbV3Norm(F) * h / m);
  }
  MB_OK(MbDomainDestroy(&dom));
}

/* Loads evaluated three ways on a spinning body under gravity: a constant point force, a
   TIME_SERIES of the same constant, and a callback returning the same force and its
   torque Λ(X − X̄) × F; then a linearly growing force as a TIME_SERIES and as a callback
   evaluating the same line. */
typedef struct {
  PetscReal X[3], Xc[3], dir[3]; /* referential point, referential centre, direction */
  PetscReal a, b;                /* magnitude a + b t */
} LoadCtx;

static PetscErrorCode PointForceCallback(void *ctx, MbBody body, const PetscReal q[], const PetscReal u[], PetscReal t, PetscReal h, PetscInt *n, PetscReal out[])
{
  LoadCtx  *c = (LoadCtx *)ctx;
  PetscReal L[9], r[3];
  PetscFunctionBegin;
  MbM3Transpose(q, L); /* q holds Λ column-wise */
  MbV3Scale(c->a + c->b * t, c->dir, &out[0]);
  MbV3Sub(c->X, c->Xc, r);
  MbM3Mult(L, r, r);
  MbV3Cross(r, &out[0], &out[3]);
  MbV3Set(&out[6], 0, 0, 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreeCtx(void *ctx)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef enum { LOAD_CONSTANT, LOAD_SERIES, LOAD_CALLBACK } LoadWay;

static PetscErrorCode RunLoaded(LoadWay way, PetscReal a, PetscReal b, PetscReal q[12], PetscReal u[6])
{
  MbDomain  dom;
  MbBody    body;
  PetscReal g[3] = {0, 0, -9.81}, c[3] = {0, 0, 1}, O0[3] = {1, 2, -3}, v0[3] = {0.5, 0, 2}, J[9], *qb, *ub;
  LoadCtx  *ctx;
  PetscFunctionBegin;
  PetscCall(PetscNew(&ctx));
  MbV3Set(ctx->X, 0.3, -0.2, 1.1);
  MbV3Copy(c, ctx->Xc);
  MbV3Set(ctx->dir, 1, 2, 3);
  ctx->a = a;
  ctx->b = b;
  MbM3Diag(1, 2, 3, J);
  PetscCall(MakeDomain(1e-3, g, &dom));
  PetscCall(MakeSphereBody(dom, c, 0.5, 1, &body));
  PetscCall(MbBodySetChars(body, 1.5, 1, c, J));
  PetscCall(MbBodySetVelocity(body, v0, O0));
  switch (way) {
  case LOAD_CONSTANT:
    PetscCall(MbBodyAddLoad(body, MB_LOAD_FORCE, MB_FRAME_SPATIAL, ctx->X, ctx->dir, a, NULL));
    PetscCall(PetscFree(ctx));
    break;
  case LOAD_SERIES: {
    MbTimeSeries ts;
    PetscReal    tt[3] = {0, 1, 10}, vv[3] = {a, a + b, a + 10 * b};
    PetscCall(MbTimeSeriesCreate(3, tt, vv, &ts));
    PetscCall(MbBodyAddLoad(body, MB_LOAD_FORCE, MB_FRAME_SPATIAL, ctx->X, ctx->dir, 0.0, ts));
    PetscCall(MbTimeSeriesDestroy(&ts)); /* the body keeps its reference */
    PetscCall(PetscFree(ctx));
  } break;
  case LOAD_CALLBACK:
    PetscCall(MbBodyAddLoadCallback(body, PointForceCallback, ctx, FreeCtx));
    break;
  }
  PetscCall(MbDomainAddBody(dom, body));
  PetscCall(MbDomainRun(dom, 0.5));
  PetscCall(MbBodyGetState(body, &qb, &ub));
  PetscCall(PetscArraycpy(q, qb, 12));
  PetscCall(PetscArraycpy(u, ub, 6));
  PetscCall(MbDomainDestroy(&dom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscReal StateDiff(const PetscReal q1[12], const PetscReal u1[6], const PetscReal q2[12], const PetscReal u2[6])
{
  PetscReal e = 0;
  for (int k = 0; k < 12; k++) e = PetscMax(e, PetscAbsReal(q1[k] - q2[k]));
  for (int k = 0; k < 6; k++) e = PetscMax(e, PetscAbsReal(u1[k] - u2[k]));
  return e;
}

static void test_load_kinds(void **state)
{
  PetscReal qc[12], uc[6], qs[12], us[6], qf[12], uf[6], e1, e2, e3;
  MB_OK(RunLoaded(LOAD_CONSTANT, 0.7, 0, qc, uc));
  MB_OK(RunLoaded(LOAD_SERIES, 0.7, 0, qs, us));
  MB_OK(RunLoaded(LOAD_CALLBACK, 0.7, 0, qf, uf));
  e1 = StateDiff(qc, uc, qs, us);
  e2 = StateDiff(qc, uc, qf, uf);
  MB_OK(RunLoaded(LOAD_SERIES, 0.7, 0.4, qs, us));
  MB_OK(RunLoaded(LOAD_CALLBACK, 0.7, 0.4, qf, uf));
  e3 = StateDiff(qs, us, qf, uf);
  print_message("# 0.5 s spinning under a point load: constant vs TIME_SERIES %.2e, constant vs callback %.2e; linear TIME_SERIES vs callback %.2e; state moved by the load %.3f\n", e1, e2, e3, StateDiff(qc, uc, qs, us));
  assert_true(e1 < 1e-13);
  assert_true(e2 < 1e-13);
  assert_true(e3 < 1e-12);
  assert_true(StateDiff(qc, uc, qs, us) > 0.01); /* the growing load did change the motion */
}

/* VALIDATION.md, projectile with linear drag: m = 0.45359237, J = I, v₀ = (2.54, 0, 12.7),
   g = (0, 0, −9.81456), F = −m v through a callback, h = 1.976/1024, to t = 1.976. With
   drag rate 1: x(t) = v₀ₓ (1 − e^(−t)) = 2.54 (1 − e^(−1.976)) = 2.18791. */
static PetscErrorCode DragCallback(void *ctx, MbBody body, const PetscReal q[], const PetscReal u[], PetscReal t, PetscReal h, PetscInt *n, PetscReal out[])
{
  MbMassProps mp;
  PetscFunctionBegin;
  PetscCall(MbBodyGetMassProps(body, &mp));
  PetscCall(PetscArrayzero(out, 9));
  MbV3Scale(-mp.mass, &u[3], out);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void test_projectile_drag(void **state)
{
  MbDomain  dom;
  MbBody    b;
  PetscReal g[3] = {0, 0, -9.81456}, c[3] = {0, 0, 0}, J[9], v0[3] = {2.54, 0, 12.7}, h = 1.976 / 1024, *q, *u, xref = 2.54 * (1 - exp(-1.976)), t;
  PetscInt  n;
  MbM3Identity(J);
  MB_OK(MakeDomain(h, g, &dom));
  MB_OK(MakeSphereBody(dom, c, 0.05, 1, &b));
  MB_OK(MbBodySetChars(b, 0.45359237, 4.0 / 3.0 * PETSC_PI * 0.05 * 0.05 * 0.05, c, J));
  MB_OK(MbBodySetVelocity(b, v0, NULL));
  MB_OK(MbBodyAddLoadCallback(b, DragCallback, NULL, NULL));
  MB_OK(MbDomainAddBody(dom, b));
  for (PetscInt k = 0; k < 1024; k++) MB_OK(MbDomainStep(dom));
  MB_OK(MbDomainGetTime(dom, &t));
  MB_OK(MbDomainGetStepCount(dom, &n));
  MB_OK(MbBodyGetState(b, &q, &u));
  print_message("# projectile with linear drag: t = %.6f after %d steps, x = %.6f m (reference 2.54(1 - e^-t) = %.6f), relative error %.3f%%\n", t, (int)n, q[9], xref, 100 * PetscAbsReal(q[9] - xref) / xref);
  MB_CLOSE(t, 1.976, 1e-12);
  assert_true(PetscAbsReal(q[9] - xref) <= 0.005 * xref);
  MB_OK(MbDomainDestroy(&dom));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bad_input), cmocka_unit_test(test_free_fall), cmocka_unit_test(test_point_force_torque), cmocka_unit_test(test_load_kinds), cmocka_unit_test(test_projectile_drag),
};
MB_TEST_MAIN(tests)
