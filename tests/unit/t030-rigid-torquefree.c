/* Torque-free rigid body of VALIDATION.md (seed 000): J = diag(1, 2, 3), m = 1,
   Ω₀ = (0.1, 5, 0.1) near the unstable middle axis, no gravity, h = 1e-3, 20 s.
   Checks per scheme: energy drift sign (RIG_POS up, RIG_NEG down, RIG_IMP no trend),
   spatial angular momentum kept to round-off by RIG_NEG and RIG_IMP, second order
   convergence, and the Dzhanibekov flips of Ω_y. Prints the numbers for the record. */
#include "mbtest.h"

typedef struct {
  PetscReal E0, Emin, Emax, Eend; /* energy: initial, extrema, final */
  PetscReal Lerr, Ldir;           /* max relative |π| error, max angle of π to π₀ */
  PetscInt  flips;                /* sign changes of Ω_y */
  PetscReal O[3];                 /* final Ω */
  PetscReal L[9];                 /* final Λ (row-major) */
  PetscReal ortho;                /* ‖ΛᵀΛ − I‖ at the end */
} Run;

static PetscErrorCode TorqueFree(const char scheme[], PetscReal h, PetscReal T, Run *run)
{
  MbDomain  dom;
  MbShape   shape;
  MbBody    b;
  MbScheme  s;
  PetscInt  id, n = (PetscInt)(T / h + 0.5);
  PetscReal c[3] = {0, 0, 0}, J[9], O0[3] = {0.1, 5, 0.1}, *q, *u, L0[3], lin[3], prev;
  PetscFunctionBegin;
  PetscCall(MbDomainCreate(PETSC_COMM_SELF, &dom));
  PetscCall(MbDomainSetVerbose(dom, PETSC_FALSE));
  PetscCall(MbDomainSetStep(dom, h));
  PetscCall(MbShapeCreate(&shape));
  PetscCall(MbShapeAddSphere(shape, c, 0.5, 0, 0));
  PetscCall(MbDomainNextBodyId(dom, &id));
  PetscCall(MbBodyCreate(id, MBBODYRIGID, shape, 1.0, "top", &b));
  PetscCall(MbShapeDestroy(&shape));
  MbM3Diag(1, 2, 3, J);
  PetscCall(MbBodySetChars(b, 1.0, 1.0, c, J));
  PetscCall(MbBodySetVelocity(b, NULL, O0));
  PetscCall(MbDomainGetScheme(dom, scheme, &s));
  PetscCall(MbBodySetScheme(b, s));
  PetscCall(MbDomainAddBody(dom, b));
  PetscCall(MbBodyGetState(b, &q, &u));
  PetscCall(MbBodyKineticEnergy(b, &run->E0));
  PetscCall(MbBodyMomentum(b, L0, lin));
  run->Emin = run->Emax = run->E0;
  run->Lerr = run->Ldir = 0;
  run->flips            = 0;
  prev                  = u[1];
  for (PetscInt k = 1; k <= n; k++) {
    PetscReal E, L[3], x[3];
    PetscCall(MbDomainStep(dom));
    PetscCall(MbBodyKineticEnergy(b, &E));
    PetscCall(MbBodyMomentum(b, L, lin));
    run->Emin = PetscMin(run->Emin, E);
    run->Emax = PetscMax(run->Emax, E);
    run->Lerr = PetscMax(run->Lerr, PetscAbsReal(MbV3Norm(L) - MbV3Norm(L0)) / MbV3Norm(L0));
    MbV3Cross(L, L0, x);
    run->Ldir = PetscMax(run->Ldir, MbV3Norm(x) / (MbV3Norm(L) * MbV3Norm(L0)));
    if (u[1] * prev < 0) run->flips++;
    prev      = u[1];
    run->Eend = E;
  }
  MbV3Copy(u, run->O);
  MbM3Transpose(q, run->L);
  {
    PetscReal LtL[9], I3[9];
    MbM3TransposeMatMult(run->L, run->L, LtL);
    MbM3Identity(I3);
    run->ortho = MbM3DiffNorm(LtL, I3);
  }
  PetscCall(MbDomainDestroy(&dom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* end-state error of a run against a reference: ‖ΔΩ‖ + ‖ΔΛ‖ */
static PetscReal StateError(const Run *a, const Run *r)
{
  PetscReal d[3];
  MbV3Sub(a->O, r->O, d);
  return MbV3Norm(d) + MbM3DiffNorm(a->L, r->L);
}

static void Report(const char *name, const Run *r)
{
  print_message("# %s h=1e-3 T=20: energy drift (end) %+.3e, range [%+.3e, %+.3e]; |pi| error %.2e, direction %.2e; flips %d; orthogonality %.1e\n", name, (r->Eend - r->E0) / r->E0, (r->Emin - r->E0) / r->E0, (r->Emax - r->E0) / r->E0, r->Lerr,
                r->Ldir, (int)r->flips, r->ortho);
}

static void test_rig_pos(void **state)
{
  Run r, l;
  MB_OK(TorqueFree(MBRIGPOS, 1e-3, 20, &r));
  MB_OK(TorqueFree(MBRIGPOS, 1e-3, 100, &l));
  Report("RIG_POS", &r);
  assert_true(r.Eend > r.E0);                       /* positive drift ... */
  assert_true(r.Emin > r.E0 * (1 - 1e-9));          /* ... never meaningfully below E0 ... */
  assert_true(l.Eend - l.E0 > 2 * (r.Eend - r.E0)); /* ... and growing with time */
  assert_true(r.flips >= 4);                        /* Dzhanibekov: Ω_y changes sign repeatedly */
  assert_true(r.ortho < 1e-12);
}

static void test_rig_neg(void **state)
{
  Run r, l;
  MB_OK(TorqueFree(MBRIGNEG, 1e-3, 20, &r));
  MB_OK(TorqueFree(MBRIGNEG, 1e-3, 100, &l));
  Report("RIG_NEG", &r);
  assert_true(r.Eend < r.E0);
  assert_true(r.Emax < r.E0 * (1 + 1e-9));
  assert_true(l.E0 - l.Eend > 2 * (r.E0 - r.Eend));
  assert_true(r.Lerr < 1e-12); /* spatial angular momentum to round-off */
  assert_true(r.Ldir < 1e-12);
  assert_true(r.flips >= 4);
  assert_true(r.ortho < 1e-12);
}

static void test_rig_imp(void **state)
{
  Run r, l, n;
  MB_OK(TorqueFree(MBRIGIMP, 1e-3, 20, &r));
  MB_OK(TorqueFree(MBRIGIMP, 1e-3, 100, &l));
  MB_OK(TorqueFree(MBRIGNEG, 1e-3, 100, &n));
  Report("RIG_IMP", &r);
  print_message("# RIG_IMP T=100: energy drift (end) %+.3e vs RIG_NEG %+.3e; range [%+.3e, %+.3e]\n", (l.Eend - l.E0) / l.E0, (n.Eend - n.E0) / n.E0, (l.Emin - l.E0) / l.E0, (l.Emax - l.E0) / l.E0);
  assert_true(r.Lerr < 1e-12);
  assert_true(r.Ldir < 1e-12);
  /* bounded, no trend: after 100 s the energy is back within 1% of the drift of the
     explicit schemes, and its oscillation range has not grown since 20 s */
  assert_true(PetscAbsReal(l.Eend - l.E0) < 0.01 * PetscAbsReal(n.Eend - n.E0));
  assert_true(l.Emax - l.Emin < 1.05 * (r.Emax - r.Emin));
  assert_true(r.flips >= 4);
}

/* Second order: error(h)/error(h/2) ≈ 4, against a run of the same scheme at h/64. Over
   2 s every scheme is in the asymptotic range. Over 20 s (five flips near the separatrix)
   RIG_POS and RIG_IMP still are; RIG_NEG's error there is dominated by the flip-phase shift
   that its energy drift causes and measures about 3, so only order >= 2 is asserted. */
static void test_convergence(void **state)
{
  const char *names[] = {MBRIGPOS, MBRIGNEG, MBRIGIMP};
  PetscReal   Ts[]    = {2, 20};
  for (int t = 0; t < 2; t++)
    for (int s = 0; s < 3; s++) {
      Run       a, b, ref;
      PetscReal h = 1e-3, T = Ts[t];
      MB_OK(TorqueFree(names[s], h / 64, T, &ref));
      MB_OK(TorqueFree(names[s], h, T, &a));
      MB_OK(TorqueFree(names[s], h / 2, T, &b));
      PetscReal ea = StateError(&a, &ref), eb = StateError(&b, &ref), order = log(ea / eb) / log(2.0);
      print_message("# %s: end-state error at T=%g: h=1e-3 %.3e, h=5e-4 %.3e, ratio %.2f, order %.2f\n", names[s], (double)T, ea, eb, ea / eb, order);
      if (T < 10 || s != 1)
        assert_true(order > 1.8 && order < 2.2);
      else
        assert_true(order > 1.8);
    }
}

/* A body with J = jI takes the schemes' shortcut (rigid.c: Isotropic), one whose J differs
   from jI by 1e-13 relative the general path: under a spatial torque (the shortcut of
   StepBegin) and with Ω₀ off every axis, after 2 s their Ω and Λ agree to what that
   difference explains (1e-10), for each scheme. Torque-free, the isotropic body's Ω stays
   Ω₀ and Λ is exp(tΩ₀), as the exact solution. */
static PetscErrorCode Spin(const char scheme[], const PetscReal Jd[3], const PetscReal torque[3], PetscReal T, PetscReal O[3], PetscReal L[9])
{
  MbDomain  dom;
  MbShape   shape;
  MbBody    b;
  MbScheme  s;
  PetscInt  id, n = (PetscInt)(T / 1e-3 + 0.5);
  PetscReal c[3] = {0, 0, 0}, J[9], O0[3] = {3, -2, 1}, *q, *u;
  PetscFunctionBegin;
  PetscCall(MbDomainCreate(PETSC_COMM_SELF, &dom));
  PetscCall(MbDomainSetVerbose(dom, PETSC_FALSE));
  PetscCall(MbDomainSetStep(dom, 1e-3));
  PetscCall(MbShapeCreate(&shape));
  PetscCall(MbShapeAddSphere(shape, c, 0.5, 0, 0));
  PetscCall(MbDomainNextBodyId(dom, &id));
  PetscCall(MbBodyCreate(id, MBBODYRIGID, shape, 1.0, NULL, &b));
  PetscCall(MbShapeDestroy(&shape));
  MbM3Diag(Jd[0], Jd[1], Jd[2], J);
  PetscCall(MbBodySetChars(b, 1.0, 1.0, c, J));
  PetscCall(MbBodySetVelocity(b, NULL, O0));
  if (MbV3Norm(torque) > 0) PetscCall(MbBodyAddLoad(b, MB_LOAD_TORQUE, MB_FRAME_SPATIAL, c, torque, 1.0, NULL));
  PetscCall(MbDomainGetScheme(dom, scheme, &s));
  PetscCall(MbBodySetScheme(b, s));
  PetscCall(MbDomainAddBody(dom, b));
  for (PetscInt k = 0; k < n; k++) PetscCall(MbDomainStep(dom));
  PetscCall(MbBodyGetState(b, &q, &u));
  MbV3Copy(u, O);
  MbM3Transpose(q, L);
  PetscCall(MbDomainDestroy(&dom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void test_isotropic(void **state)
{
  const char *names[] = {MBRIGPOS, MBRIGNEG, MBRIGIMP};
  PetscReal   iso[3] = {0.4, 0.4, 0.4}, near[3] = {0.4, 0.4 * (1 + 1e-13), 0.4 * (1 - 1e-13)}, torque[3] = {0.3, 0.1, -0.2}, none[3] = {0, 0, 0};
  for (int s = 0; s < 3; s++) {
    PetscReal Oa[3], La[9], Ob[3], Lb[9], d[3], psi[3] = {3 * 2.0, -2 * 2.0, 1 * 2.0}, E[9];
    MB_OK(Spin(names[s], iso, torque, 2, Oa, La));
    MB_OK(Spin(names[s], near, torque, 2, Ob, Lb));
    MbV3Sub(Oa, Ob, d);
    print_message("# %s, J = 0.4 I against J within 1e-13 of it, torque (0.3, 0.1, -0.2), 2 s: |dOmega| %.1e, |dLambda| %.1e\n", names[s], MbV3Norm(d), MbM3DiffNorm(La, Lb));
    assert_true(MbV3Norm(d) < 1e-10 * MbV3Norm(Oa));
    assert_true(MbM3DiffNorm(La, Lb) < 1e-10);
    MB_OK(Spin(names[s], iso, none, 2, Oa, La));
    MbExpMap(psi, E);
    print_message("# %s, J = 0.4 I torque-free, 2 s: Omega - Omega0 = (%g, %g, %g), |Lambda - exp(t Omega0)| %.1e\n", names[s], Oa[0] - 3, Oa[1] + 2, Oa[2] - 1, MbM3DiffNorm(La, E));
    if (s != 2)
      assert_true(Oa[0] == 3 && Oa[1] == -2 && Oa[2] == 1); /* RIG_IMP solves (37) to a tolerance */
    else
      assert_true(PetscAbsReal(Oa[0] - 3) + PetscAbsReal(Oa[1] + 2) + PetscAbsReal(Oa[2] - 1) < 1e-12);
    assert_true(MbM3DiffNorm(La, E) < 1e-11);
  }
}

static void test_bad_scheme(void **state)
{
  MbDomain dom;
  MbScheme s;
  MB_OK(MbDomainCreate(PETSC_COMM_SELF, &dom));
  MB_FAILS(MbDomainGetScheme(dom, "RIG_FOO", &s), "unknown scheme 'RIG_FOO'");
  MB_FAILS(MbDomainGetScheme(dom, "RIG_FOO", &s), "RIG_NEG");
  MB_OK(MbDomainDestroy(&dom));
}

/* RIG_IMP's Newton with a cap of 1 iteration on a large step (h = 0.5, |Ω| = 5): failures are
   counted and the run goes on; with error-if-not-converged the step stops with a message. */
static PetscErrorCode OneImpStep(PetscBool error, PetscInt *fails)
{
  MbDomain  dom;
  MbShape   shape;
  MbBody    b;
  MbScheme  s;
  PetscInt  id;
  PetscReal c[3] = {0, 0, 0}, J[9], O0[3] = {0.1, 5, 0.1};
  PetscFunctionBegin;
  PetscCall(MbDomainCreate(PETSC_COMM_SELF, &dom));
  PetscCall(MbDomainSetVerbose(dom, PETSC_FALSE));
  PetscCall(MbDomainSetStep(dom, 0.5));
  PetscCall(MbShapeCreate(&shape));
  PetscCall(MbShapeAddSphere(shape, c, 0.5, 0, 0));
  PetscCall(MbDomainNextBodyId(dom, &id));
  PetscCall(MbBodyCreate(id, MBBODYRIGID, shape, 1.0, NULL, &b));
  PetscCall(MbShapeDestroy(&shape));
  MbM3Diag(1, 2, 3, J);
  PetscCall(MbBodySetChars(b, 1.0, 1.0, c, J));
  PetscCall(MbBodySetVelocity(b, NULL, O0));
  PetscCall(MbDomainGetScheme(dom, MBRIGIMP, &s));
  PetscCall(MbSchemeSetTolerances(s, 1e-30, 1));
  PetscCall(MbSchemeSetErrorIfNotConverged(s, error));
  PetscCall(MbBodySetScheme(b, s));
  PetscCall(MbDomainAddBody(dom, b));
  PetscErrorCode ierr = MbDomainStep(dom);
  PetscCall(MbSchemeGetStats(s, NULL, fails));
  PetscCall(MbDomainDestroy(&dom));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void test_rig_imp_failure(void **state)
{
  PetscInt fails = 0;
  MB_OK(OneImpStep(PETSC_FALSE, &fails));
  assert_int_equal(fails, 1);
  MB_FAILS(OneImpStep(PETSC_TRUE, &fails), "did not converge in 1 iterations for body 0");
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_rig_imp_failure), cmocka_unit_test(test_rig_pos), cmocka_unit_test(test_rig_neg), cmocka_unit_test(test_rig_imp), cmocka_unit_test(test_convergence), cmocka_unit_test(test_isotropic), cmocka_unit_test(test_bad_scheme),
};
MB_TEST_MAIN(tests)
