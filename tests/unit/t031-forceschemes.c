/* The force schemes through the C API: scheme parameters and springs with bad input (by
   message), a spring-mass oscillator against the closed form, and rigid rotations by the
   exponential map: a torque-free asymmetric body keeps its spatial angular momentum to
   second order in h (CDM, EGALPHA, CHUNG_LEE, GALPHA) and the rotation stays orthogonal. */
#include <math.h>
#include "mbtest.h"

static PetscErrorCode MakeDomain(PetscReal h, MbDomain *dom)
{
  PetscFunctionBegin;
  PetscCall(MbDomainCreate(PETSC_COMM_SELF, dom));
  PetscCall(MbDomainSetVerbose(*dom, PETSC_FALSE));
  PetscCall(MbDomainSetStep(*dom, h));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A rigid sphere of mass 1 at c with inertia diag(J0, J1, J2), integrated by scheme. */
static PetscErrorCode AddBody(MbDomain dom, const PetscReal c[3], const PetscReal J[3], const char scheme[], MbBody *b)
{
  MbShape   s;
  MbScheme  sch;
  PetscInt  id;
  PetscReal Jm[9];
  PetscFunctionBegin;
  PetscCall(MbShapeCreate(&s));
  PetscCall(MbShapeAddSphere(s, c, 0.1, 0, 0));
  PetscCall(MbDomainNextBodyId(dom, &id));
  PetscCall(MbBodyCreate(id, MB_BODY_RIGID, s, 1, NULL, b));
  PetscCall(MbShapeDestroy(&s));
  MbM3Diag(J[0], J[1], J[2], Jm);
  PetscCall(MbBodySetChars(*b, 1, 1, c, Jm));
  PetscCall(MbDomainGetScheme(dom, scheme, &sch));
  PetscCall(MbBodySetScheme(*b, sch));
  PetscCall(MbDomainAddBody(dom, *b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void test_bad_input(void **state)
{
  MbDomain  dom;
  MbScheme  s;
  MbBody    b;
  PetscReal c[3] = {0, 0, 0}, J[3] = {1, 1, 1}, x[3] = {1, 0, 0}, zero[3] = {0, 0, 0};
  MB_OK(MakeDomain(1e-3, &dom));
  MB_OK(MbDomainGetScheme(dom, "GALPHA", &s));
  MB_FAILS(MbSchemeSetParameter(s, "rho_inf", 1.5), "scheme GALPHA: rho_inf must be in [0, 1], got 1.5");
  MB_FAILS(MbSchemeSetParameter(s, "rho_inf", -0.5), "got -0.5");
  MB_FAILS(MbSchemeSetParameter(s, "beta", 1), "scheme GALPHA has no parameter 'beta' (it has rho_inf)");
  MB_OK(MbSchemeSetParameter(s, "rho_inf", 0.5));
  MB_OK(MbDomainGetScheme(dom, "EGALPHA", &s));
  MB_FAILS(MbSchemeSetParameter(s, "rho_b", 2), "scheme EGALPHA: rho_b must be in [0, 1], got 2");
  MB_OK(MbDomainGetScheme(dom, "CHUNG_LEE", &s));
  MB_FAILS(MbSchemeSetParameter(s, "beta", 1.1), "scheme CHUNG_LEE: beta must be in [1, 28/27], got 1.1");
  MB_OK(MbDomainGetScheme(dom, "CDM", &s));
  MB_FAILS(MbSchemeSetParameter(s, "rho_b", 0.5), "scheme CDM has no parameters");
  MB_FAILS(MbDomainGetScheme(dom, "CDMX", &s), "unknown scheme 'CDMX'");
  MB_OK(AddBody(dom, c, J, "CDM", &b));
  MB_FAILS(MbDomainAddSpring(dom, 0, -1, c, x, NULL, NAN, -1, 0, -1, 1, NULL, NULL, NULL, NULL), "spring must be >= 0, got -1");
  MB_FAILS(MbDomainAddSpring(dom, 0, -1, c, x, NULL, NAN, 1, -3, -1, 1, NULL, NULL, NULL, NULL), "dashpot must be >= 0, got -3");
  MB_FAILS(MbDomainAddSpring(dom, 0, -1, c, x, NULL, NAN, 1, 0, 2, 1, NULL, NULL, NULL, NULL), "limits must satisfy min <= max, got (2");
  MB_FAILS(MbDomainAddSpring(dom, 0, -1, c, x, zero, NAN, 1, 0, -1, 1, NULL, NULL, NULL, NULL), "direction must be a non-zero vector");
  MB_FAILS(MbDomainAddSpring(dom, 0, 5, c, x, NULL, NAN, 1, 0, -1, 1, NULL, NULL, NULL, NULL), "no body with id 5");
  /* a zero-length spring along its points is caught when the run starts */
  MB_OK(MbDomainAddSpring(dom, 0, -1, c, c, NULL, NAN, 1, 0, -1, 1, NULL, NULL, NULL, NULL));
  MB_FAILS(MbDomainStep(dom), "the two points coincide at (0");
  MB_OK(MbDomainDestroy(&dom));
}

/* x'' = −ω² x with ω = 2π, x(0) = 0, v(0) = 1: CDM at h = 1e-3 within 2e-6 of sin(ωt)/ω. */
static void test_oscillator(void **state)
{
  MbDomain    dom;
  MbBody      b;
  PetscReal   c[3] = {0, 0, 0}, J[3] = {1, 1, 1}, p2[3] = {-1, 0, 0}, e[3] = {1, 0, 0}, v[3] = {1, 0, 0}, w = 2 * PETSC_PI, *q, *u, t;
  const char *schemes[] = {"CDM", "EGALPHA", "CHUNG_LEE", "GALPHA"};
  for (int k = 0; k < 4; k++) {
    MB_OK(MakeDomain(1e-3, &dom));
    MB_OK(AddBody(dom, c, J, schemes[k], &b));
    MB_OK(MbBodySetVelocity(b, v, NULL));
    MB_OK(MbDomainAddSpring(dom, 0, -1, c, p2, e, NAN, w * w, 0, PETSC_NINFINITY, PETSC_INFINITY, NULL, NULL, NULL, NULL));
    MB_OK(MbDomainRun(dom, 0.3));
    MB_OK(MbDomainGetTime(dom, &t));
    MB_OK(MbBodyGetState(b, &q, &u));
    MB_CLOSE(q[9], PetscSinReal(w * t) / w, 2e-6);
    MB_CLOSE(u[3], PetscCosReal(w * t), 2e-5);
    MB_OK(MbDomainDestroy(&dom));
  }
}

/* Torque-free body J = diag(1, 2, 3), Ω = (1, 2, 0.5): its spatial angular momentum drift
   over 1 s at h and h/2: the ratio near 4 (second order), and ΛᵀΛ = I to round-off. */
static PetscErrorCode Drift(const char scheme[], PetscReal h, PetscReal *drift, PetscReal *orth)
{
  MbDomain  dom;
  MbBody    b;
  PetscReal c[3] = {0, 0, 0}, J[3] = {1, 2, 3}, O[3] = {1, 2, 0.5}, L0[3], L1[3], p[3], *q, LtL[9], L[9];
  PetscFunctionBegin;
  PetscCall(MakeDomain(h, &dom));
  PetscCall(AddBody(dom, c, J, scheme, &b));
  PetscCall(MbBodySetVelocity(b, NULL, O));
  PetscCall(MbBodyMomentum(b, L0, p));
  PetscCall(MbDomainRun(dom, 1.0));
  PetscCall(MbBodyMomentum(b, L1, p));
  MbV3Sub(L1, L0, p);
  *drift = MbV3Norm(p) / MbV3Norm(L0);
  PetscCall(MbBodyGetState(b, &q, NULL));
  MbM3Transpose(q, L);
  MbM3TransposeMatMult(L, L, LtL);
  *orth = 0;
  for (int i = 0; i < 9; i++) *orth = PetscMax(*orth, PetscAbsReal(LtL[i] - (i % 4 == 0 ? 1.0 : 0.0)));
  PetscCall(MbDomainDestroy(&dom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void test_rotation(void **state)
{
  const char *schemes[] = {"CDM", "EGALPHA", "CHUNG_LEE", "GALPHA"};
  for (int k = 0; k < 4; k++) {
    PetscReal d1, d2, o1, o2;
    MB_OK(Drift(schemes[k], 2e-3, &d1, &o1));
    MB_OK(Drift(schemes[k], 1e-3, &d2, &o2));
    if (!(d1 / d2 > 3.2 && d1 / d2 < 4.8 && d1 < 1e-3)) fail_msg("%s: momentum drift %g at h = 2e-3, %g at 1e-3 (ratio %g, expected ~4)", schemes[k], d1, d2, d1 / d2);
    MB_CLOSE(o2, 0, 1e-12);
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bad_input),
    cmocka_unit_test(test_oscillator),
    cmocka_unit_test(test_rotation),
};
MB_TEST_MAIN(tests)
