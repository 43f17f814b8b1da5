/* Exponential map, its tangent and inverse; small dense math. */
#include "mbtest.h"

/* exp of a skew matrix by its power series, to compare with Rodrigues' formula */
static void ExpSeries(const PetscReal psi[3], PetscReal E[9])
{
  PetscReal A[9], P[9], T[9];
  MbM3Hat(psi, A);
  MbM3Identity(E);
  MbM3Identity(P);
  for (int k = 1; k < 60; k++) {
    MbM3MatMult(P, A, T);
    for (int i = 0; i < 9; i++) P[i] = T[i] / k;
    for (int i = 0; i < 9; i++) E[i] += P[i];
  }
}

static PetscReal OrthoError(const PetscReal R[9])
{
  PetscReal RtR[9], I3[9];
  MbM3TransposeMatMult(R, R, RtR);
  MbM3Identity(I3);
  return MbM3DiffNorm(RtR, I3);
}

static void test_expmap_series(void **state)
{
  const PetscReal cases[][3] = {{0.3, -0.2, 0.5}, {1.0, 2.0, -0.5}, {0, 0, 3.0}, {-2.0, 1.0, 1.5}};
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    PetscReal R[9], E[9];
    MbExpMap(cases[c], R);
    ExpSeries(cases[c], E);
    MB_CLOSE(MbM3DiffNorm(R, E), 0, 1e-13);
    MB_CLOSE(OrthoError(R), 0, 1e-15 * 4);
    MB_CLOSE(MbM3Det(R), 1, 1e-14);
  }
}

static void test_expmap_zero_tiny_pi(void **state)
{
  PetscReal z[3] = {0, 0, 0}, R[9], I3[9], tiny[3] = {1e-12, -2e-12, 0.5e-12}, E[9], pi[3] = {0, PETSC_PI, 0}, Rp[9];
  MbM3Identity(I3);
  MbExpMap(z, R);
  MB_CLOSE(MbM3DiffNorm(R, I3), 0, 0);
  MbExpMap(tiny, R);
  ExpSeries(tiny, E);
  MB_CLOSE(MbM3DiffNorm(R, E), 0, 1e-17);
  MB_CLOSE(R[7], tiny[0], 1e-23); /* R ≈ I + Ψ̂: R_32 = ψ_1 */
  MbExpMap(pi, Rp);               /* rotation by π about y: diag(-1, 1, -1) */
  MB_CLOSE(Rp[0], -1, 1e-15);
  MB_CLOSE(Rp[4], 1, 1e-15);
  MB_CLOSE(Rp[8], -1, 1e-15);
  MB_CLOSE(OrthoError(Rp), 0, 1e-15);
}

static void test_logmap_roundtrip(void **state)
{
  const PetscReal cases[][3] = {{0.3, -0.2, 0.5}, {1e-9, 0, 2e-9}, {0, 0, 0}, {0, PETSC_PI - 1e-7, 0}, {2.0, -1.0, 0.5}, {PETSC_PI / 1.7320508075688772, PETSC_PI / 1.7320508075688772, PETSC_PI / 1.7320508075688772}};
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    PetscReal R[9], psi[3], R2[9];
    MbExpMap(cases[c], R);
    MbLogMap(R, psi);
    MbExpMap(psi, R2);
    MB_CLOSE(MbM3DiffNorm(R, R2), 0, 1e-12);
  }
}

/* d/dε exp[Ψ+εδ] = exp[Ψ] hat(T(Ψ)δ), checked by central differences */
static void test_tangent_fd(void **state)
{
  const PetscReal cases[][3] = {{0.3, -0.2, 0.5}, {1.0, 2.0, -0.5}, {1e-12, 0, 0}, {0, 0, 0}};
  const PetscReal eps        = 1e-6;
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
    for (int k = 0; k < 3; k++) {
      PetscReal p[3], m[3], Rp[9], Rm[9], R[9], D[9], RtD[9], T[9], Td[3], H[9];
      MbV3Copy(cases[c], p);
      MbV3Copy(cases[c], m);
      p[k] += eps;
      m[k] -= eps;
      MbExpMap(p, Rp);
      MbExpMap(m, Rm);
      MbExpMap(cases[c], R);
      for (int i = 0; i < 9; i++) D[i] = (Rp[i] - Rm[i]) / (2 * eps);
      MbM3TransposeMatMult(R, D, RtD);
      MbExpMapTangent(cases[c], T);
      Td[0] = T[k];
      Td[1] = T[3 + k];
      Td[2] = T[6 + k];
      MbM3Hat(Td, H);
      MB_CLOSE(MbM3DiffNorm(RtD, H), 0, 1e-8);
    }
}

static void test_invert(void **state)
{
  PetscReal A[9] = {4, 1, 0, 1, 3, 0.5, 0, 0.5, 2}, B[9], C[9], I3[9], S[9] = {1, 2, 3, 2, 4, 6, 0, 0, 1};
  MB_OK(MbM3Invert(A, B));
  MbM3MatMult(A, B, C);
  MbM3Identity(I3);
  MB_CLOSE(MbM3DiffNorm(C, I3), 0, 1e-15);
  MB_FAILS(MbM3Invert(S, B), "singular");
}

static void test_cross_hat(void **state)
{
  PetscReal a[3] = {1, 2, 3}, b[3] = {-1, 0.5, 2}, c[3], A[9], d[3];
  MbV3Cross(a, b, c);
  MbM3Hat(a, A);
  MbM3Mult(A, b, d);
  for (int i = 0; i < 3; i++) MB_CLOSE(c[i], d[i], 0);
  MB_CLOSE(MbV3Dot(c, a), 0, 1e-15);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_expmap_series), cmocka_unit_test(test_expmap_zero_tiny_pi), cmocka_unit_test(test_logmap_roundtrip), cmocka_unit_test(test_tangent_fd), cmocka_unit_test(test_invert), cmocka_unit_test(test_cross_hat),
};
MB_TEST_MAIN(tests)
