/* Constraint laws and solvers (seed 001: U = W R + B, blockwise, normal third): the
   projection on the Coulomb cone, the natural map at known solutions, the Alart–Curnier
   Jacobian against finite differences, the 3×3 local solver on cases solved by hand, the
   EQUALITY and NORMAL laws, a 3-block problem solved alike by Gauss–Seidel and Newton (BAIJ
   and AIJ), and bad input with the message it gives. */
#include "mbtest.h"
#include "solver/solverimpl.h"

static void CheckVec3(const char *what, const PetscReal a[3], const PetscReal b[3], PetscReal tol)
{
  for (int d = 0; d < 3; d++)
    if (!(PetscAbsReal(a[d] - b[d]) <= tol)) fail_msg("%s[%d] = %.17g, expected %.17g within %g", what, d, a[d], b[d], tol);
}

static PetscReal Norm3(const PetscReal v[3]) { return PetscSqrtReal(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

static MbLaw Contact(PetscReal mu)
{
  MbLaw l = {MB_LAW_CONTACT, mu, 0, {0, 0, 0}};
  return l;
}

/* K_μ = {‖z_T‖ ≤ μ z_N}: inside it stays, in the polar cone {μ‖z_T‖ ≤ −z_N} it goes to 0,
   elsewhere to the boundary ray: for μ = 1/2, z = (2, 0, 1): a = (z_N + μ‖z_T‖)/(1 + μ²) =
   2/1.25 = 1.6, p = (μ a, 0, a) = (0.8, 0, 1.6), and z − p = (1.2, 0, −0.6) ⊥ p. */
static void test_cone_projection(void **state)
{
  PetscReal       p[3];
  const PetscReal in[3] = {0.1, 0.2, 1}, polar[3] = {0.1, 0, -1}, out[3] = {2, 0, 1}, pout[3] = {0.8, 0, 1.6}, zero[3] = {0, 0, 0};
  MbConeProject(0.5, in, p);
  CheckVec3("inside", p, in, 0);
  MbConeProject(0.5, polar, p);
  CheckVec3("polar cone", p, zero, 0);
  MbConeProject(0.5, out, p);
  CheckVec3("outside", p, pout, 1e-15);
  MB_CLOSE((out[0] - p[0]) * p[0] + (out[1] - p[1]) * p[1] + (out[2] - p[2]) * p[2], 0, 1e-15);
  /* the boundary itself, and a tangential direction off the axes */
  const PetscReal edge[3] = {0.3, 0.4, 1}, skew[3] = {3, 4, 0}, pskew[3] = {0.6, 0.8, 2};
  MbConeProject(0.5, edge, p);
  CheckVec3("boundary", p, edge, 0);
  MbConeProject(0.5, skew, p); /* z_N = 0, ‖z_T‖ = 5: a = 2.5/1.25 = 2, p_T = μ a ẑ_T = (0.6, 0.8) */
  CheckVec3("skew", p, pskew, 1e-15);
  /* μ = 0: K is the normal half-line */
  const PetscReal z0[3] = {1, 1, 2}, p0[3] = {0, 0, 2};
  MbConeProject(0, z0, p);
  CheckVec3("mu = 0", p, p0, 0);
}

/* With W = I (U = R + b) the solutions are known in closed form (μ = 1/2):
   sticking  b = (0.1, 0, −1):  R = −b = (−0.1, 0, 1), U = 0 (‖R_T‖ = 0.1 ≤ μ R_N);
   sliding   b = (2, 0, −1):    R_N = −b_N = 1, R_T = −μ R_N b̂_T = (−0.5, 0), U = (1.5, 0, 0);
   separating b = (0.3, 0.4, 1): R = 0, U = b. */
static const PetscReal Bstick[3] = {0.1, 0, -1}, Rstick[3] = {-0.1, 0, 1};
static const PetscReal Bslide[3] = {2, 0, -1}, Rslide[3] = {-0.5, 0, 1};
static const PetscReal Bsep[3] = {0.3, 0.4, 1}, Rsep[3] = {0, 0, 0};
static const PetscReal Eye[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

static void test_natural_map_solutions(void **state)
{
  MbLaw            law  = Contact(0.5);
  const PetscReal *b[3] = {Bstick, Bslide, Bsep}, *r[3] = {Rstick, Rslide, Rsep};
  const char      *name[3] = {"sticking", "sliding", "separating"};
  for (int k = 0; k < 3; k++) {
    PetscReal U[3], F[3], zero[3] = {0, 0, 0};
    for (int d = 0; d < 3; d++) U[d] = r[k][d] + b[k][d];
    MbLawNaturalMap(&law, r[k], U, F);
    CheckVec3(name[k], F, zero, 1e-15);
    /* and not zero away from the solution */
    PetscReal R2[3] = {r[k][0] + 0.1, r[k][1], r[k][2] + 0.2};
    for (int d = 0; d < 3; d++) U[d] = R2[d] + b[k][d];
    MbLawNaturalMap(&law, R2, U, F);
    if (!(Norm3(F) > 1e-3)) fail_msg("%s: natural map %g at a non-solution", name[k], (double)Norm3(F));
  }
}

/* The generalized Jacobian of the Alart–Curnier function equals finite differences away
   from its kinks (random points; a point within 1e-6 of a kink is skipped). */
static void test_alart_curnier_jacobian(void **state)
{
  PetscRandom rnd;
  PetscReal   worst = 0;
  MB_OK(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  MB_OK(PetscRandomSetInterval(rnd, -1, 1));
  for (int t = 0; t < 2000; t++) {
    PetscReal R[3], U[3], F[3], Dr[9], Du[9], Fp[3], a[9], b[9], h = 1e-7, rho, mu;
    MbLaw     law;
    for (int d = 0; d < 3; d++) {
      MB_OK(PetscRandomGetValueReal(rnd, &R[d]));
      MB_OK(PetscRandomGetValueReal(rnd, &U[d]));
    }
    MB_OK(PetscRandomGetValueReal(rnd, &rho));
    MB_OK(PetscRandomGetValueReal(rnd, &mu));
    rho = 1 + 0.5 * rho, law = Contact(0.5 + 0.4 * mu);
    MbLawAlartCurnier(&law, rho, R, U, F, Dr, Du);
    for (int j = 0; j < 3; j++) {
      PetscReal Rp[3] = {R[0], R[1], R[2]}, Up[3] = {U[0], U[1], U[2]};
      Rp[j] += h;
      MbLawAlartCurnier(&law, rho, Rp, U, Fp, a, b);
      for (int i = 0; i < 3; i++) worst = PetscMax(worst, PetscAbsReal((Fp[i] - F[i]) / h - Dr[3 * i + j]));
      Up[j] += h;
      MbLawAlartCurnier(&law, rho, R, Up, Fp, a, b);
      for (int i = 0; i < 3; i++) worst = PetscMax(worst, PetscAbsReal((Fp[i] - F[i]) / h - Du[3 * i + j]));
    }
  }
  print_message("# Alart-Curnier Jacobian vs finite differences, 2000 random points: max difference %.2e\n", (double)worst);
  if (!(worst < 1e-5)) fail_msg("Alart-Curnier Jacobian differs from finite differences by %g", (double)worst);
  MB_OK(PetscRandomDestroy(&rnd));
}

static void test_local_solver(void **state)
{
  MbLaw            law  = Contact(0.5);
  const PetscReal *b[3] = {Bstick, Bslide, Bsep}, *r[3] = {Rstick, Rslide, Rsep};
  const char      *name[3] = {"sticking", "sliding", "separating"};
  for (int k = 0; k < 3; k++) {
    PetscReal R[3] = {0, 0, 0};
    PetscInt  its;
    PetscBool ok;
    MB_OK(MbLawLocalSolve(&law, Eye, b[k], 50, R, &its, &ok));
    if (!ok) fail_msg("%s: local solver did not converge", name[k]);
    CheckVec3(name[k], R, r[k], 1e-13);
    print_message("# W = I, %s: R = (%g, %g, %g) in %d Newton iterations\n", name[k], R[0], R[1], R[2], (int)its);
  }
  /* a full, non-symmetric W: the answer makes the natural map vanish */
  const PetscReal Wd[9] = {2, 0.3, -0.2, 0.1, 1.5, 0.2, -0.3, 0.1, 1}, bb[4][3] = {{1, -2, -1}, {0.05, 0.01, -1}, {0, 0, 2}, {-3, 1, -0.1}};
  for (int k = 0; k < 4; k++) {
    PetscReal R[3] = {0, 0, 0}, U[3], F[3];
    PetscBool ok;
    MB_OK(MbLawLocalSolve(&law, Wd, bb[k], 50, R, NULL, &ok));
    for (int i = 0; i < 3; i++) U[i] = bb[k][i] + Wd[3 * i] * R[0] + Wd[3 * i + 1] * R[1] + Wd[3 * i + 2] * R[2];
    MbLawNaturalMap(&law, R, U, F);
    if (!ok || !(Norm3(F) <= 1e-13 * (1 + Norm3(R)))) fail_msg("full W, case %d: natural map %g (converged %d)", k, (double)Norm3(F), (int)ok);
  }
  /* W = diag(a, a, c), the diagonal block of spheres, solved in closed form when sliding:
     R̃_N = −(b_N + bias_N)/c + cohesion, R_T = −μR̃_N b_T/‖b_T‖ (three sliding cases) */
  {
    const PetscReal Wsph[9] = {2, 0, 0, 0, 2, 0, 0, 0, 0.5}, bs[3][3] = {{3, -4, -1}, {-7, 2, -2}, {0.01, 5, -0.1}};
    MbLaw           ls = Contact(0.4);
    ls.cohesion        = 0.3;
    ls.bias[2]         = -0.05;
    for (int k = 0; k < 3; k++) {
      PetscReal R[3] = {0, 0, 0}, U[3], F[3], bt = PetscSqrtReal(bs[k][0] * bs[k][0] + bs[k][1] * bs[k][1]), rn;
      PetscBool ok;
      MB_OK(MbLawLocalSolve(&ls, Wsph, bs[k], 50, R, NULL, &ok));
      for (int i = 0; i < 3; i++) U[i] = bs[k][i] + Wsph[3 * i] * R[0] + Wsph[3 * i + 1] * R[1] + Wsph[3 * i + 2] * R[2];
      MbLawNaturalMap(&ls, R, U, F);
      /* R̃_N = R_N + c, from Ū_N = 0 */
      rn                    = -(bs[k][2] + ls.bias[2]) / 0.5 + ls.cohesion;
      const PetscReal Rx[3] = {-0.4 * rn * bs[k][0] / bt, -0.4 * rn * bs[k][1] / bt, rn - ls.cohesion};
      if (!ok || !(Norm3(F) <= 1e-13 * (1 + Norm3(R)))) fail_msg("W = diag(2, 2, 0.5), case %d: natural map %g (converged %d)", k, (double)Norm3(F), (int)ok);
      CheckVec3("sliding, W = diag(2, 2, 0.5)", R, Rx, 1e-13);
    }
  }
  /* bias (the law holds for U + bias) and cohesion (R_N down to −c): with W = I,
     b = (0, 0, −1), bias_N = 0.5: sticking R = −(b + bias) = (0, 0, 0.5);
     c = 0.2, b = (0, 0, 0.1): the shifted problem has b − c e_N = (0, 0, −0.1), so
     R̃ = (0, 0, 0.1), R = R̃ − c e_N = (0, 0, −0.1) (tension held), U = 0. */
  MbLaw           lb = Contact(0.5), lc = Contact(0.5);
  const PetscReal b1[3] = {0, 0, -1}, r1[3] = {0, 0, 0.5}, b2[3] = {0, 0, 0.1}, r2[3] = {0, 0, -0.1};
  PetscReal       R[3] = {0, 0, 0};
  lb.bias[2]           = 0.5;
  lc.cohesion          = 0.2;
  MB_OK(MbLawLocalSolve(&lb, Eye, b1, 50, R, NULL, NULL));
  CheckVec3("bias", R, r1, 1e-14);
  R[0] = R[1] = R[2] = 0;
  MB_OK(MbLawLocalSolve(&lc, Eye, b2, 50, R, NULL, NULL));
  CheckVec3("cohesion", R, r2, 1e-14);
}

/* The sweep's inline separation and sticking tests (MbLawStickContact) against the general
   local solver: on random non-symmetric well-conditioned blocks (κ∞ ≤ 10, MbBlockDiag's
   wellcond), with friction, bias and cohesion, wherever the inline test settles a block
   its R is the general solver's bit for bit, and where it does not (sliding) the general
   solver slides; the residual check that wellcond skips holds with room (the bound of
   MbBlockDiagSetUp's comment); an ill-conditioned block is not wellcond. */
static void test_stick_inline(void **state)
{
  PetscRandom rnd;
  PetscInt    settled = 0, sliding = 0, wellcond = 0;
  PetscReal   worst = 0;
  MB_OK(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  MB_OK(PetscRandomSetInterval(rnd, -1, 1));
  for (int k = 0; k < 4000; k++) {
    PetscReal    Wd[9], b[3], Ri[3] = {0, 0, 0}, Rg[3] = {0, 0, 0}, v;
    MbLaw        law = Contact(0.2 + 0.6 * (k % 7) / 6.0);
    MbBlockDiag  D;
    MbBlockStick t;
    for (int e = 0; e < 9; e++) {
      MB_OK(PetscRandomGetValueReal(rnd, &v));
      Wd[e] = (e % 4 == 0 ? 2 + 0.5 * e : 0) + 0.3 * v; /* diagonally dominant, not symmetric */
    }
    for (int e = 0; e < 3; e++) {
      MB_OK(PetscRandomGetValueReal(rnd, &v));
      b[e] = 2 * v;
    }
    b[2] -= 0.5; /* mostly compressive */
    if (k % 3 == 1) law.bias[2] = 0.1 * (k % 5);
    if (k % 4 == 2) law.cohesion = 0.05 * (k % 3);
    MbBlockDiagSetUp(Wd, &D);
    if (!D.wellcond) continue;
    wellcond++;
    MbBlockStickSetUp(&law, &D, &t);
    if (MbLawStickContact(&t, b, Ri)) {
      PetscReal bb[3], u[3];
      settled++;
      if (!MbLawLocalSolveDiag(&law, &D, b, 50, Rg, NULL)) fail_msg("block %d: the general solver failed where the inline test settled it", k);
      for (int e = 0; e < 3; e++)
        if (Ri[e] != Rg[e]) fail_msg("block %d: inline R[%d] = %.17g, general %.17g (not bit for bit)", k, e, Ri[e], Rg[e]);
      for (int e = 0; e < 3; e++) bb[e] = b[e] + law.bias[e];
      for (int e = 0; e < 3; e++) u[e] = bb[e] + Wd[3 * e] * Ri[0] + Wd[3 * e + 1] * Ri[1] + Wd[3 * e + 2] * Ri[2];
      if (Ri[2] + law.cohesion > 0) worst = PetscMax(worst, D.rho * Norm3(u) / PetscMax(Norm3(Ri) + law.cohesion, D.rho * Norm3(bb)));
    } else {
      PetscReal U[3];
      sliding++;
      if (!MbLawLocalSolveDiag(&law, &D, b, 50, Rg, NULL)) fail_msg("block %d: the general solver failed", k);
      for (int e = 0; e < 3; e++) U[e] = b[e] + law.bias[e] + Wd[3 * e] * Rg[0] + Wd[3 * e + 1] * Rg[1] + Wd[3 * e + 2] * Rg[2];
      /* sliding: on the cone's boundary, U_T ≠ 0 */
      if (!(PetscAbsReal(PetscSqrtReal(Rg[0] * Rg[0] + Rg[1] * Rg[1]) - law.mu * (Rg[2] + law.cohesion)) <= 1e-12 * (1 + Norm3(Rg))) || !(PetscSqrtReal(U[0] * U[0] + U[1] * U[1]) > 1e-12))
        fail_msg("block %d: the inline test left a block that does not slide (R = %g %g %g, U = %g %g %g)", k, Rg[0], Rg[1], Rg[2], U[0], U[1], U[2]);
    }
  }
  MB_OK(PetscRandomDestroy(&rnd));
  print_message("# %d well-conditioned blocks: %d settled inline (worst scaled residual %.2g, accepted up to 1e-12), %d sliding\n", (int)wellcond, (int)settled, (double)worst, (int)sliding);
  if (!(worst <= 1e-13)) fail_msg("sticking residual %g of the scale: wellcond's bound does not hold", (double)worst);
  if (settled < 500 || sliding < 100) fail_msg("the random blocks should exercise both cases: %d settled, %d sliding", (int)settled, (int)sliding);
  { /* κ∞ = 2e3: not wellcond (and not iso, which would take the closed form) */
    const PetscReal Wbad[9] = {1, 0, 0, 0, 2, 0, 0, 0, 1e-3};
    MbBlockDiag     D;
    MbBlockDiagSetUp(Wbad, &D);
    if (!D.inv || D.wellcond) fail_msg("diag(1, 2, 1e-3): inv %d wellcond %d, expected 1 and 0", (int)D.inv, (int)D.wellcond);
  }
}

/* EQUALITY: W R + b + bias = 0; NORMAL: R_T = 0 and U_N + bias_N = 0. */
static void test_equality_normal(void **state)
{
  const PetscReal Wd[9] = {2, 0.3, -0.2, 0.3, 1.5, 0.2, -0.2, 0.2, 1}, b[3] = {0.5, -1, 2};
  MbLaw           eq = {MB_LAW_EQUALITY, 0, 0, {0.1, 0.2, 0.3}}, nr = {MB_LAW_NORMAL, 0, 0, {0, 0, -0.5}};
  PetscReal       R[3] = {0, 0, 0}, U[3], F[3], zero[3] = {0, 0, 0};
  PetscBool       ok;
  MB_OK(MbLawLocalSolve(&eq, Wd, b, 50, R, NULL, &ok));
  assert_true(ok);
  for (int i = 0; i < 3; i++) U[i] = b[i] + eq.bias[i] + Wd[3 * i] * R[0] + Wd[3 * i + 1] * R[1] + Wd[3 * i + 2] * R[2];
  CheckVec3("EQUALITY U + bias", U, zero, 1e-14);
  for (int i = 0; i < 3; i++) U[i] -= eq.bias[i];
  MbLawNaturalMap(&eq, R, U, F);
  CheckVec3("EQUALITY natural map", F, zero, 1e-14);
  R[0] = R[1] = R[2] = 1;
  MB_OK(MbLawLocalSolve(&nr, Wd, b, 50, R, NULL, &ok));
  assert_true(ok);
  MB_CLOSE(R[0], 0, 0);
  MB_CLOSE(R[1], 0, 0);
  MB_CLOSE(R[2], -(2 - 0.5) / 1.0, 1e-15); /* R_N = −(b_N + bias_N)/W_NN */
  for (int i = 0; i < 3; i++) U[i] = b[i] + Wd[3 * i] * R[0] + Wd[3 * i + 1] * R[1] + Wd[3 * i + 2] * R[2];
  MbLawNaturalMap(&nr, R, U, F);
  CheckVec3("NORMAL natural map", F, zero, 1e-14);
  /* a singular diagonal block cannot hold an EQUALITY */
  const PetscReal Z[9] = {0};
  R[0] = R[1] = R[2] = 0;
  MB_OK(MbLawLocalSolve(&eq, Z, b, 50, R, NULL, &ok));
  assert_false(ok);
}

/* Three blocks coupled by off-diagonal blocks (W diagonally dominant, so SPD-like). */
static PetscErrorCode SmallProblem(MatType type, Mat *W, Vec *B, Vec *R)
{
  const PetscReal W11[9] = {2, 0.1, 0.2, 0.1, 2, 0, 0.2, 0, 3}, W22[9] = {2.5, 0, 0.1, 0, 2, 0.2, 0.1, 0.2, 2}, W33[9] = {1.5, 0, 0, 0, 1.5, 0, 0, 0, 2};
  const PetscReal W12[9] = {0.3, 0, 0.1, 0, 0.2, 0, 0.1, 0, 0.5}, W23[9] = {0.1, 0.2, 0, 0, 0.1, 0, 0, 0.1, 0.4};
  const PetscReal b[9] = {0.5, 0, -1, 0.05, 0.02, -1.2, 0.1, 0.1, -0.5};
  PetscReal       T[9];
  PetscFunctionBegin;
  PetscCall(MatCreate(PETSC_COMM_SELF, W));
  PetscCall(MatSetSizes(*W, 9, 9, 9, 9));
  PetscCall(MatSetBlockSize(*W, 3));
  PetscCall(MatSetType(*W, type));
  PetscCall(MatSetUp(*W));
  for (PetscInt i = 0; i < 3; i++) {
    const PetscReal *D = i == 0 ? W11 : i == 1 ? W22 : W33;
    PetscCall(MatSetValuesBlocked(*W, 1, &i, 1, &i, D, INSERT_VALUES));
  }
  for (PetscInt k = 0; k < 2; k++) {
    const PetscReal *O = k == 0 ? W12 : W23;
    PetscInt         i = k, j = k + 1;
    for (int a = 0; a < 3; a++)
      for (int c = 0; c < 3; c++) T[3 * a + c] = O[3 * c + a];
    PetscCall(MatSetValuesBlocked(*W, 1, &i, 1, &j, O, INSERT_VALUES));
    PetscCall(MatSetValuesBlocked(*W, 1, &j, 1, &i, T, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*W, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*W, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(*W, R, B));
  for (PetscInt k = 0; k < 9; k++) PetscCall(VecSetValue(*B, k, b[k], INSERT_VALUES));
  PetscCall(VecAssemblyBegin(*B));
  PetscCall(VecAssemblyEnd(*B));
  PetscCall(VecZeroEntries(*R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void SolveWith(const char *type, MatType mtype, const MbLaw law[], Vec *Rout, PetscInt *its)
{
  MbSolver  s;
  Mat       W;
  Vec       B, R, U;
  PetscReal err, err2;
  PetscBool conv;
  MB_OK(SmallProblem(mtype, &W, &B, &R));
  MB_OK(VecDuplicate(R, &U));
  MB_OK(MbSolverCreate(PETSC_COMM_SELF, &s));
  MB_OK(MbSolverSetType(s, type));
  MB_OK(MbSolverSetTolerances(s, 1e-14, 10000));
  MB_OK(MbSolverSolve(s, W, B, law, R, U));
  MB_OK(MbSolverGetStats(s, its, &err, &conv));
  MB_OK(MbSolverNaturalError(W, B, law, R, &err2));
  print_message("# %s on %s: %d iterations, error %.2e, converged %d\n", type, mtype, (int)*its, (double)err, (int)conv);
  if (!conv) fail_msg("%s did not converge: error %g after %d iterations", type, (double)err, (int)*its);
  MB_CLOSE(err, err2, 0);
  if (!(err <= 1e-11)) fail_msg("%s: natural-map error %g", type, (double)err);
  /* U = W R + B */
  Vec       U2;
  PetscReal d;
  MB_OK(VecDuplicate(R, &U2));
  MB_OK(MatMult(W, R, U2));
  MB_OK(VecAXPY(U2, 1.0, B));
  MB_OK(VecAXPY(U2, -1.0, U));
  MB_OK(VecNorm(U2, NORM_INFINITY, &d));
  MB_CLOSE(d, 0, 1e-15);
  MB_OK(VecDestroy(&U2));
  MB_OK(MbSolverDestroy(&s));
  assert_null(s);
  *Rout = R;
  MB_OK(VecDestroy(&U));
  MB_OK(VecDestroy(&B));
  MB_OK(MatDestroy(&W));
}

static void CompareR(const char *what, Vec a, Vec b, PetscReal tol)
{
  Vec       d;
  PetscReal n;
  MB_OK(VecDuplicate(a, &d));
  MB_OK(VecWAXPY(d, -1.0, a, b));
  MB_OK(VecNorm(d, NORM_INFINITY, &n));
  if (!(n <= tol)) fail_msg("%s: R differ by %g", what, (double)n);
  MB_OK(VecDestroy(&d));
}

static void test_small_problem_gs_newton(void **state)
{
  MbLaw    contacts[3] = {Contact(0.3), Contact(0.6), Contact(0.4)};
  MbLaw    mixed[3]    = {Contact(0.3), {MB_LAW_EQUALITY, 0, 0, {0, 0, 0}}, {MB_LAW_NORMAL, 0, 0, {0, 0, 0.1}}};
  Vec      Rgs, Rnt, Raij;
  PetscInt its;
  SolveWith(MBSOLVERGS, MATSEQBAIJ, contacts, &Rgs, &its);
  SolveWith(MBSOLVERNEWTON, MATSEQBAIJ, contacts, &Rnt, &its);
  CompareR("gauss_seidel vs newton, 3 contacts", Rgs, Rnt, 1e-10);
  SolveWith(MBSOLVERGS, MATSEQAIJ, contacts, &Raij, &its);
  CompareR("gauss_seidel BAIJ vs AIJ", Rgs, Raij, 1e-14);
  MB_OK(VecDestroy(&Rgs));
  MB_OK(VecDestroy(&Rnt));
  MB_OK(VecDestroy(&Raij));
  SolveWith(MBSOLVERGS, MATSEQBAIJ, mixed, &Rgs, &its);
  SolveWith(MBSOLVERNEWTON, MATSEQAIJ, mixed, &Rnt, &its);
  CompareR("gauss_seidel vs newton, contact + EQUALITY + NORMAL", Rgs, Rnt, 1e-10);
  MB_OK(VecDestroy(&Rgs));
  MB_OK(VecDestroy(&Rnt));
}

static void test_bad_input(void **state)
{
  MbSolver s;
  Mat      W;
  Vec      B, R;
  MbLaw    law[3] = {Contact(0.3), Contact(-0.5), Contact(0.4)};
  char     names[256];
  MB_OK(MbSolverCreate(PETSC_COMM_SELF, &s));
  MB_FAILS(MbSolverSetTolerances(s, 0, 10), "epsilon must be > 0, got 0");
  MB_FAILS(MbSolverSetTolerances(s, -1e-3, 10), "epsilon must be > 0, got -0.001");
  MB_FAILS(MbSolverSetTolerances(s, 1e-6, 0), "maxit must be > 0, got 0");
  MB_FAILS(MbSolverSetType(s, "jacobi"), "unknown solver type 'jacobi'; known solver types: ");
  if (!strstr(mb_last_error, "gauss_seidel") || !strstr(mb_last_error, "newton")) fail_msg("the message does not list the solvers: %s", mb_last_error);
  MB_OK(MbSolverListNames(names, sizeof(names)));
  assert_string_equal(names, "gauss_seidel, newton");
  MB_OK(SmallProblem(MATSEQBAIJ, &W, &B, &R));
  MB_FAILS(MbSolverSolve(s, W, B, law, R, NULL), "law of block 1: friction coefficient mu -0.5 must be >= 0");
  law[1]          = Contact(0.5);
  law[2].cohesion = -0.25;
  MB_FAILS(MbSolverSolve(s, W, B, law, R, NULL), "law of block 2: cohesion -0.25 must be >= 0");
  law[2].cohesion = 0;
  law[0].kind     = (MbLawKind)7;
  MB_FAILS(MbSolverSolve(s, W, B, law, R, NULL), "law of block 0: unknown kind 7");
  {
    Vec Rs;
    MB_OK(VecCreateSeq(PETSC_COMM_SELF, 6, &Rs));
    law[0] = Contact(0.5);
    MB_FAILS(MbSolverSolve(s, W, B, law, Rs, NULL), "R has size 6");
    MB_OK(VecDestroy(&Rs));
  }
  MbFclibProblem prob;
  MB_FAILS(MbFclibRead(PETSC_COMM_SELF, "/nonexistent/problem.hdf5", &prob), "cannot open FCLIB file '/nonexistent/problem.hdf5'");
  MB_OK(MbSolverDestroy(&s));
  MB_OK(MatDestroy(&W));
  MB_OK(VecDestroy(&B));
  MB_OK(VecDestroy(&R));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cone_projection), cmocka_unit_test(test_natural_map_solutions), cmocka_unit_test(test_alart_curnier_jacobian),  cmocka_unit_test(test_local_solver),
    cmocka_unit_test(test_stick_inline),    cmocka_unit_test(test_equality_normal),       cmocka_unit_test(test_small_problem_gs_newton), cmocka_unit_test(test_bad_input),
};

MB_TEST_MAIN(tests)
