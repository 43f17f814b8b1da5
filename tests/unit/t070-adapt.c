/* Step-size controllers (src/adapt/): the curvature of eq. (5) of seed 004 against its
   one-degree-of-freedom form (6); CURVATURE's step by eq. (7), its regularization over
   intervals by eq. (10) and its rejection (section 3); the other controllers' formulas;
   bad input by message. */
#include <math.h>
#include "mbtest.h"

/* one measurement of a single degree of freedom with velocity v and acceleration a */
static MbAdaptData One(PetscReal t, PetscReal h, PetscReal hprev, PetscReal v, PetscReal a, PetscReal da)
{
  MbAdaptData d = {t, h, hprev, v * v, a * a, v * a, da * da, v * v, 1.0, v * v, a * a, v * a}; /* a point's velocity: a length per time */
  return d;
}

static void test_curvature_formula(void **state)
{
  /* eq. (6): k = |d''| / (1 + d'^2)^(3/2) */
  MB_CLOSE(MbAdaptCurvature(2.0 * 2.0, 3.0 * 3.0, 2.0 * 3.0), 3.0 / pow(5.0, 1.5), 1e-15);
  /* two dofs with d' parallel to d'': the curve bends only through the time axis */
  MB_CLOSE(MbAdaptCurvature(1 + 1, 4 + 4, 2 + 2), sqrt((3.0 * 8 - 16) / 27.0), 1e-15);
  assert_true(MbAdaptCurvature(0, 0, 0) == 0);
}

static void test_curvature_steps(void **state)
{
  MbAdapt       a;
  PetscReal     h, b = 0.5, dtmax = 1e-2, dtmin = 1e-4, k;
  MbAdaptAction act;
  MbAdaptData   d;
  MB_OK(MbAdaptCreate(PETSC_COMM_SELF, &a));
  MB_OK(MbAdaptSetType(a, MBADAPTCURVATURE));
  MB_OK(MbAdaptSetStepLimits(a, dtmin, dtmax));
  MB_OK(MbAdaptSetParameter(a, "b", b));
  MB_OK(MbAdaptSetParameter(a, "zeta", 10.0));
  MB_OK(MbAdaptSetParameter(a, "alpha", 0.5));
  MB_OK(MbAdaptSetParameter(a, "reject", 0));
  MB_OK(MbAdaptStart(a, 0.0, 1e-3, &h));
  MB_CLOSE(h, dtmax, 0); /* k_(m−1) = 0 at the start: Δt_max */
  d = One(h, h, 0, 0.0, 2.0, 0);
  MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
  k = 2.0;
  MB_CLOSE(h, dtmax * exp(-b * k), 1e-15); /* eq. (7) */
  assert_int_equal(act, MB_ADAPT_CONTINUE);
  d = One(0.02, h, d.h, 0.0, 1e3, 0);
  MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
  MB_CLOSE(h, dtmin, 0); /* eq. (7): never below Δt_min */
  MB_OK(MbAdaptDestroy(&a));
}

/* The length scale L (issue 22): a point's velocity v and acceleration a enter eq. (5) as
   v/L, a/L, an angular rate as it is; the same motion in metres with L = 0.0254 m and in
   inches with L = 1 gives the same curvature, and the default L = 1 leaves k unchanged. */
static void test_curvature_length(void **state)
{
  MbAdapt       a;
  PetscReal     h, k, kin, L = 0.0254, v = 0.3, acc = 40.0, w = 2.0, al = 5.0;
  MbAdaptAction act;
  /* two dofs: a point's (v, acc) in metres and a rotation's (w, al) */
  MbAdaptData d  = {1e-3, 1e-3, 0, v * v + w * w, acc * acc + al * al, v * acc + w * al, 0, 0, 1.0, v * v, acc * acc, v * acc};
  MbAdaptData in = {1e-3, 1e-3, 0, v * v / (L * L) + w * w, acc * acc / (L * L) + al * al, v * acc / (L * L) + w * al, 0, 0, 1.0, v * v / (L * L), acc * acc / (L * L), v * acc / (L * L)};
  for (int pass = 0; pass < 3; pass++) {
    MB_OK(MbAdaptCreate(PETSC_COMM_SELF, &a));
    MB_OK(MbAdaptSetType(a, MBADAPTCURVATURE));
    MB_OK(MbAdaptSetStepLimits(a, 1e-6, 1e-2));
    if (pass == 1) MB_OK(MbAdaptSetParameter(a, "length", L));
    MB_OK(MbAdaptStart(a, 0.0, 1e-3, &h));
    MB_OK(MbAdaptPost(a, pass == 2 ? &in : &d, PETSC_FALSE, &act, &h));
    MB_OK(MbAdaptGetIndicators(a, pass == 0 ? &k : pass == 1 ? &kin : &h, NULL));
    if (pass == 0) MB_CLOSE(k, MbAdaptCurvature(d.vv, d.aa, d.va), 0); /* L = 1: unchanged */
    if (pass == 2) MB_CLOSE(kin, h, 1e-14);                            /* metres with L = inch: as in inches */
    MB_OK(MbAdaptDestroy(&a));
  }
  print_message("# curvature of the same motion: %.6g with L = 1 m, %.6g with L = 0.0254 m (in inches: the same)\n", (double)k, (double)kin);
  assert_true(PetscAbsReal(kin - k) > 0.1 * k); /* the unit matters (eq. (5) is not unit-free) */
}

/* The unit-free variant (issue 22, unit_free): eq. (5) on (t/Δt_max, d/L). The same motion
   given in metres and seconds, and in millimetres and milliseconds (a point's velocity ×1,
   its acceleration ×1e-3, an angular rate ×1e-3 and its acceleration ×1e-6; L and Δt_max in
   those units) has the same curvature, equal to eq. (5) of T v/L, T² a/L, T w, T² α; and in
   the new units the dimensional form (unit_free off, L the same) changes. */
static void test_curvature_unit_free(void **state)
{
  MbAdapt       a;
  PetscReal     h, k[3], L = 0.0254, T = 2.5e-3, v = 0.3, acc = 40.0, w = 2.0, al = 5.0;
  MbAdaptAction act;
  /* [0]: m, s; [1]: mm, ms (lengths ×1e3, times ×1e3) */
  const PetscReal sl[2] = {1, 1e3}, st[2] = {1, 1e3};
  for (int pass = 0; pass < 3; pass++) {
    const int       u  = pass == 0 ? 0 : 1;
    const PetscReal vv = v * sl[u] / st[u], aa = acc * sl[u] / (st[u] * st[u]), ww = w / st[u], ll = al / (st[u] * st[u]);
    MbAdaptData     d = {1e-3 * st[u], 1e-3 * st[u], 0, vv * vv + ww * ww, aa * aa + ll * ll, vv * aa + ww * ll, 0, 0, 1.0, vv * vv, aa * aa, vv * aa};
    MB_OK(MbAdaptCreate(PETSC_COMM_SELF, &a));
    MB_OK(MbAdaptSetType(a, MBADAPTCURVATURE));
    MB_OK(MbAdaptSetStepLimits(a, 1e-6 * st[u], T * st[u]));
    MB_OK(MbAdaptSetParameter(a, "length", L * sl[u]));
    if (pass < 2) MB_OK(MbAdaptSetParameterString(a, "unit_free", "ON"));
    MB_OK(MbAdaptStart(a, 0.0, 1e-3 * st[u], &h));
    MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
    MB_OK(MbAdaptGetIndicators(a, &k[pass], NULL));
    MB_OK(MbAdaptDestroy(&a));
  }
  MB_CLOSE(k[0], MbAdaptCurvature(T * T * (v * v / (L * L) + w * w), T * T * T * T * (acc * acc / (L * L) + al * al), T * T * T * (v * acc / (L * L) + w * al)), 1e-15);
  MB_CLOSE(k[1], k[0], 1e-12); /* mm and ms: the same number */
  print_message("# unit-free curvature %.6g in m, s and in mm, ms; dimensional in mm, ms %.6g\n", (double)k[0], (double)k[2]);
  assert_true(PetscAbsReal(k[2] - k[0]) > 0.1 * k[0]);
}

static void test_regularization(void **state)
{
  MbAdapt       a;
  PetscReal     h, dtmax = 1e-2, dl = 3 * dtmax, t = 0, kr, est;
  MbAdaptAction act;
  MbAdaptData   d;
  MB_OK(MbAdaptCreate(PETSC_COMM_SELF, &a));
  MB_OK(MbAdaptSetType(a, MBADAPTCURVATURE));
  MB_OK(MbAdaptSetStepLimits(a, 1e-6, dtmax));
  MB_OK(MbAdaptSetParameter(a, "b", 1e-3));
  MB_OK(MbAdaptSetParameter(a, "zeta", 3.0));
  MB_OK(MbAdaptSetParameter(a, "alpha", 0.5));
  MB_OK(MbAdaptSetParameter(a, "reject", 0));
  MB_OK(MbAdaptStart(a, 0.0, dtmax, &h));
  /* interval 1: k = 4 throughout; it ends (accepted) at the step reaching t = ζ Δt_max */
  do {
    t += h;
    d = One(t, h, h, 0.0, 4.0, 0);
    MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
  } while (act == MB_ADAPT_CONTINUE);
  assert_int_equal(act, MB_ADAPT_ACCEPT);
  assert_true(t >= dl - 1e-12 && t < dl + dtmax);
  /* interval 2: k = 1 < k_(m−1) = 4; maxk starts at k(t_m) = 4, so k_m stays 4 */
  t += h;
  d = One(t, h, h, 0.0, 1.0, 0);
  MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
  MB_OK(MbAdaptGetIndicators(a, &kr, &est));
  MB_CLOSE(kr, 1.0, 1e-15);
  MB_CLOSE(est, 4.0, 1e-15);
  while (act == MB_ADAPT_CONTINUE) {
    t += h;
    d = One(t, h, h, 0.0, 1.0, 0);
    MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
  }
  /* interval 3: maxk = 1 < k_(m−1) = 4: eq. (10) gives α 4 + (1 − α) 1 = 2.5 */
  t += h;
  d = One(t, h, h, 0.0, 1.0, 0);
  MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
  MB_OK(MbAdaptGetIndicators(a, NULL, &est));
  MB_CLOSE(est, 2.5, 1e-15);
  MB_CLOSE(h, dtmax * exp(-1e-3 * 2.5), 1e-15);
  MB_OK(MbAdaptDestroy(&a));
}

static void test_rejection(void **state)
{
  MbAdapt       a;
  PetscReal     h, dtmax = 1e-2, t = 0, b = 0.2;
  PetscInt      nrej, ndis, n = 0;
  MbAdaptAction act;
  MbAdaptData   d;
  PetscBool     flg;
  MB_OK(MbAdaptCreate(PETSC_COMM_SELF, &a));
  MB_OK(MbAdaptSetType(a, MBADAPTCURVATURE));
  MB_OK(MbAdaptUsesCheckpoints(a, &flg));
  assert_false(flg);
  MB_OK(MbAdaptSetStepLimits(a, 1e-5, dtmax));
  MB_OK(MbAdaptSetParameter(a, "b", b));
  MB_OK(MbAdaptSetParameter(a, "zeta", 2.0));
  MB_OK(MbAdaptSetParameter(a, "alpha", 0.5));
  MB_OK(MbAdaptSetParameter(a, "reject", 1));
  MB_OK(MbAdaptUsesCheckpoints(a, &flg));
  assert_true(flg);
  MB_OK(MbAdaptStart(a, 0.0, dtmax, &h));
  /* the first interval sees k = 5 > k_(m−1) = 0: rejected, redone at Δt(5) */
  do {
    t += h;
    n++;
    d = One(t, h, h, 0.0, 5.0, 0);
    MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
  } while (act == MB_ADAPT_CONTINUE);
  assert_int_equal(act, MB_ADAPT_REJECT);
  MB_CLOSE(h, dtmax * exp(-b * 5.0), 1e-15);
  MB_OK(MbAdaptGetStats(a, &nrej, &ndis));
  assert_int_equal(nrej, 1);
  assert_int_equal(ndis, n);
  /* the redo from t = 0 at the fixed step Δt(5) sees the same k: accepted */
  t = 0;
  do {
    t += h;
    d = One(t, h, h, 0.0, 5.0, 0);
    MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
    if (act == MB_ADAPT_CONTINUE) MB_CLOSE(h, dtmax * exp(-b * 5.0), 1e-15);
  } while (act == MB_ADAPT_CONTINUE);
  assert_int_equal(act, MB_ADAPT_ACCEPT);
  MB_OK(MbAdaptDestroy(&a));
}

static void test_error_controllers(void **state)
{
  MbAdapt       a;
  PetscReal     h, est, tol = 1e-6, da = 3.0, hn = 1e-3;
  MbAdaptAction act;
  MbAdaptData   d;
  MB_OK(MbAdaptCreate(PETSC_COMM_SELF, &a));
  /* TRUNCATION (seed 002): e = h³/6 ‖Δa/h‖, next h = 0.9 (6 tol / ‖d'''‖)^(1/3) */
  MB_OK(MbAdaptSetType(a, MBADAPTTRUNC));
  MB_OK(MbAdaptSetStepLimits(a, 1e-9, 1.0));
  MB_OK(MbAdaptSetParameter(a, "tol", tol));
  MB_OK(MbAdaptStart(a, 0, hn, &h));
  d = One(2 * hn, hn, hn, 1.0, 0.0, da);
  MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
  MB_OK(MbAdaptGetIndicators(a, NULL, &est));
  MB_CLOSE(est, hn * hn * hn / 6 * (da / hn), 1e-18);
  MB_CLOSE(h, PetscMin(0.9 * cbrt(6 * tol / (da / hn)), 2 * hn), 1e-15);
  /* LOCAL_ERROR (Zienkiewicz–Xie): η = h²/6 ‖Δa‖ / ‖d‖ with ‖d‖ = 1 here */
  MB_OK(MbAdaptSetType(a, MBADAPTLOCALERR));
  MB_OK(MbAdaptSetParameter(a, "tol", 1e-8));
  MB_OK(MbAdaptStart(a, 0, hn, &h));
  MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
  MB_OK(MbAdaptGetIndicators(a, NULL, &est));
  MB_CLOSE(est, hn * hn / 6 * da, 1e-18);
  MB_CLOSE(h, hn * cbrt(1e-8 / est), 1e-15);
  /* APPARENT_FREQUENCY (Park–Underwood): ω² = ‖Δa‖ / (‖ḋ‖ h̄), step ratio 2/ω */
  MB_OK(MbAdaptSetType(a, MBADAPTFREQ));
  MB_OK(MbAdaptSetParameter(a, "ratio", 0.5));
  MB_OK(MbAdaptStart(a, 0, hn, &h));
  d = One(2 * hn, hn, hn, 2.0, 0.0, 2.0 * 1e4 * hn); /* ω² = 1e4 */
  MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
  MB_OK(MbAdaptGetIndicators(a, NULL, &est));
  MB_CLOSE(est, 100.0, 1e-12);
  MB_CLOSE(h, 2e-3, 1e-15);                          /* ratio·2/ω = 1e-2 is over 1.2 h: the step at most doubles */
  d = One(2 * hn, hn, hn, 2.0, 0.0, 2.0 * 1e8 * hn); /* ω² = 1e8: ratio·2/ω = 1e-4 < h, taken at once */
  MB_OK(MbAdaptPost(a, &d, PETSC_FALSE, &act, &h));
  MB_OK(MbAdaptGetIndicators(a, NULL, &est));
  MB_CLOSE(est, 1e4, 1e-12);
  MB_CLOSE(h, 1e-4, 1e-15);
  MB_OK(MbAdaptDestroy(&a));
}

static void test_errors(void **state)
{
  MbAdapt a;
  MB_OK(MbAdaptCreate(PETSC_COMM_SELF, &a));
  MB_FAILS(MbAdaptSetType(a, "CURVY"), "unknown step-size controller 'CURVY'; known step-size controllers: FIXED, CURVATURE, TRUNCATION, LOCAL_ERROR, APPARENT_FREQUENCY");
  MB_FAILS(MbAdaptSetStepLimits(a, 0.1, 0.01), "dtmin must be <= dtmax, got dtmin 0.1 > dtmax 0.01");
  MB_FAILS(MbAdaptSetStepLimits(a, -1, 0.01), "dtmin must be >= 0 (0: a hundredth of the step), got -1");
  MB_FAILS(MbAdaptSetStepLimits(a, 1e-4, -2), "dtmax must be >= 0 (0: the deck's step), got -2");
  { /* one limit given, the other derived at the start */
    PetscReal h, lo, hi;
    MB_OK(MbAdaptSetStepLimits(a, 0, 0.5));
    MB_OK(MbAdaptStart(a, 0, 0.01, &h));
    MB_OK(MbAdaptGetStepLimits(a, &lo, &hi));
    MB_CLOSE(lo, 1e-4, 1e-18);
    MB_CLOSE(hi, 0.5, 0);
  }
  /* each type owns its parameters: names checked against the type's, values against their ranges */
  MB_OK(MbAdaptSetType(a, MBADAPTCURVATURE));
  MB_FAILS(MbAdaptSetParameter(a, "b", 0), "step-size controller CURVATURE: b must be > 0, got 0");
  MB_FAILS(MbAdaptSetParameter(a, "alpha", 1.0), "step-size controller CURVATURE: alpha must be in [0, 1), got 1");
  MB_FAILS(MbAdaptSetParameter(a, "reject", 0.5), "step-size controller CURVATURE: reject is a yes/no switch (0 or 1), got 0.5");
  MB_FAILS(MbAdaptSetParameter(a, "tol", 1e-3), "step-size controller CURVATURE has no parameter tol; it has: b, zeta, alpha, reject, reject_tol, length, unit_free");
  /* from text, as a deck gives a switch */
  MB_FAILS(MbAdaptSetParameterString(a, "reject", "MAYBE"), "step-size controller CURVATURE: reject must be 'ON' or 'OFF', got 'MAYBE'");
  MB_FAILS(MbAdaptSetParameterString(a, "b", "ON"), "step-size controller CURVATURE: b must be a number, got 'ON'");
  MB_FAILS(MbAdaptSetParameterString(a, "tol", "ON"), "step-size controller CURVATURE has no parameter tol; it has: b, zeta, alpha, reject, reject_tol, length, unit_free");
  {
    PetscReal v;
    PetscBool ck;
    MB_OK(MbAdaptGetParameter(a, "alpha", &v));
    MB_CLOSE(v, 0.5, 0); /* seed 004's */
    MB_OK(MbAdaptUsesCheckpoints(a, &ck));
    assert_false(ck);
    MB_OK(MbAdaptSetParameter(a, "reject", 1));
    MB_OK(MbAdaptUsesCheckpoints(a, &ck));
    assert_true(ck);
  }
  MB_OK(MbAdaptSetType(a, MBADAPTTRUNC));
  MB_FAILS(MbAdaptSetParameter(a, "tol", 0), "step-size controller TRUNCATION: tol must be > 0, got 0");
  MB_FAILS(MbAdaptSetParameter(a, "reject", 1), "step-size controller TRUNCATION has no parameter reject; it has: tol");
  MB_OK(MbAdaptSetType(a, MBADAPTLOCALERR));
  MB_FAILS(MbAdaptSetParameter(a, "zeta", 2), "step-size controller LOCAL_ERROR has no parameter zeta; it has: tol, reject");
  MB_OK(MbAdaptSetParameterString(a, "reject", "ON"));
  MB_OK(MbAdaptSetType(a, MBADAPTFREQ));
  MB_FAILS(MbAdaptSetParameter(a, "ratio", 1.5), "step-size controller APPARENT_FREQUENCY: ratio must be in (0, 1], got 1.5");
  MB_FAILS(MbAdaptSetParameter(a, "length", 1), "step-size controller APPARENT_FREQUENCY has no parameter length; it has: ratio");
  MB_OK(MbAdaptSetType(a, MBADAPTFIXED));
  MB_FAILS(MbAdaptSetParameter(a, "b", 1), "step-size controller FIXED has no parameters (got b)");
  MB_FAILS(MbAdaptSetParameterString(a, "reject", "ON"), "step-size controller FIXED has no parameters (got reject)");
  MB_OK(MbAdaptDestroy(&a));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_curvature_formula), cmocka_unit_test(test_curvature_steps), cmocka_unit_test(test_curvature_length),  cmocka_unit_test(test_curvature_unit_free),
    cmocka_unit_test(test_regularization),    cmocka_unit_test(test_rejection),       cmocka_unit_test(test_error_controllers), cmocka_unit_test(test_errors),
};
MB_TEST_MAIN(tests)
