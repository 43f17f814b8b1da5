/* Pseudo-rigid bodies (src/body/pseudo_rigid/, seed 003) under DEF_EXP and DEF_LIM (seed 000,
   eqs. (39)–(40)). References, derived in the comments of each test:
   - the tangent K against central differences of the internal force;
   - a free tumbling and vibrating body under DEF_EXP: linear and angular momentum kept to
     round-off (position Verlet keeps every quadratic invariant qᵀCp of a rotation-invariant
     potential: Hairer, Lubich, Wanner, Geometric Numerical Integration, IV.2), the energy
     bounded without drift; the modified energy ½uᵀ(M − h²K/4)u + ½qᵀKq, which position
     Verlet keeps exactly for a linear system, kept to the O(strain) nonlinearity of a small
     vibration;
   - DEF_EXP blows up just above the critical step and stays bounded just below; DEF_LIM
     stays bounded at 5× it;
   - second order in h for both schemes;
   - a cube spinning about z stays at the stretch of its relative equilibrium;
   - A⁻¹ against a dense inverse of M and M + cK; the H operator against point velocities;
     a pack round trip; bad input named. */
#include "mbtest.h"
#include "body/bodyimpl.h"

/* a cube of side a centred at the origin (E₀ = ρa⁵/12 I) */
static void Cube(PetscReal a, MbShape *s)
{
  PetscReal n[24];
  PetscInt  surf[6] = {1, 1, 1, 1, 1, 1};
  for (int k = 0; k < 8; k++) {
    n[3 * k]     = ((k == 1 || k == 2 || k == 5 || k == 6) ? 0.5 : -0.5) * a;
    n[3 * k + 1] = ((k == 2 || k == 3 || k == 6 || k == 7) ? 0.5 : -0.5) * a;
    n[3 * k + 2] = (k >= 4 ? 0.5 : -0.5) * a;
  }
  MB_OK(MbShapeCreate(s));
  MB_OK(MbShapeAddHex(*s, n, surf, 1));
}

/* A domain with one pseudo-rigid brick (sides 1, 0.8, 0.6: no symmetry hides a mistake). */
static PetscErrorCode Brick(const char scheme[], PetscReal h, PetscReal E, PetscReal damping, MbDomain *dom, MbBody *b)
{
  MbShape   s;
  PetscReal n[24];
  PetscInt  surf[6] = {1, 1, 1, 1, 1, 1}, id;
  MbScheme  sch;
  PetscFunctionBegin;
  for (int k = 0; k < 8; k++) {
    n[3 * k]     = (k == 1 || k == 2 || k == 5 || k == 6) ? 1.0 : 0.0;
    n[3 * k + 1] = (k == 2 || k == 3 || k == 6 || k == 7) ? 0.8 : 0.0;
    n[3 * k + 2] = k >= 4 ? 0.6 : 0.0;
  }
  PetscCall(MbDomainCreate(PETSC_COMM_SELF, dom));
  PetscCall(MbDomainSetVerbose(*dom, PETSC_FALSE));
  PetscCall(MbDomainSetStep(*dom, h));
  PetscCall(MbShapeCreate(&s));
  PetscCall(MbShapeAddHex(s, n, surf, 1));
  PetscCall(MbDomainNextBodyId(*dom, &id));
  PetscCall(MbBodyCreate(id, MBBODYPSEUDORIGID, s, 1000, "brick", b));
  PetscCall(MbShapeDestroy(&s));
  PetscCall(MbBodySetMaterial(*b, E, 0.3));
  PetscCall(MbBodySetDamping(*b, damping));
  PetscCall(MbDomainGetScheme(*dom, scheme, &sch));
  PetscCall(MbBodySetScheme(*b, sch));
  PetscCall(MbDomainAddBody(*dom, *b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* initial state: a spin ω, a drift v and a deformation rate D (symmetric) */
static void Launch(MbBody b, PetscReal scale)
{
  PetscReal w[3] = {0.3, -2.0, 1.1}, v[3] = {0.5, 0.2, -0.1}, D[9] = {0.02, 0.01, 0, 0.01, -0.015, 0.005, 0, 0.005, 0.01};
  MB_OK(MbBodySetSpatialVelocity(b, v, w));
  for (int k = 0; k < 9; k++) b->u[k] += scale * D[k];
}

static void test_tangent(void **state)
{
  MbDomain  dom;
  MbBody    b;
  PetscReal K[144], f1[12], f2[12], zero[12] = {0}, err = 0, big = 0, F[9] = {1.1, 0.2, -0.1, 0.05, 0.9, 0.15, -0.2, 0.1, 1.2};
  MB_OK(Brick("DEF_EXP", 1e-3, 1e6, 0, &dom, &b));
  for (int k = 0; k < 9; k++) b->q[k] = F[k];
  MB_OK(b->ops->tangent(b, K));
  for (int c = 0; c < 9; c++) { /* K e_c by central differences, step 1e-6 (error O(1e-12)·K) */
    const PetscReal e = 1e-6;
    b->q[c]           = F[c] + e;
    MB_OK(b->ops->internal(b, zero, f1));
    b->q[c] = F[c] - e;
    MB_OK(b->ops->internal(b, zero, f2));
    b->q[c] = F[c];
    for (int r = 0; r < 12; r++) {
      err = PetscMax(err, PetscAbsReal((f1[r] - f2[r]) / (2 * e) - K[12 * r + c]));
      big = PetscMax(big, PetscAbsReal(K[12 * r + c]));
    }
  }
  print_message("# tangent: max |K - FD| / max |K| = %.2e\n", err / big);
  if (!(err <= 1e-7 * big)) fail_msg("tangent differs from the finite differences of f_int: %g of %g", err, big);
  for (int r = 0; r < 12; r++) /* symmetric */
    for (int c = 0; c < 12; c++) MB_CLOSE(K[12 * r + c], K[12 * c + r], 1e-9 * big);
  MB_OK(MbDomainDestroy(&dom));
}

/* A⁻¹ against M and M + cK applied densely; H against the point velocity and to_spatial's inverse */
static void test_operators(void **state)
{
  MbDomain  dom;
  MbBody    b;
  PetscReal K[144], x[12], y[12], X[3] = {0.9, 0.1, 0.55}, base[9] = {0, 0, 1, 1, 0, 0, 0, 1, 0}, H[36], v[3], xs[3], Xb[3], c = 2.5e-7;
  MB_OK(Brick("DEF_LIM", 1e-3, 1e6, 0, &dom, &b));
  Launch(b, 1.0);
  b->q[0] = 1.05, b->q[4] = 0.97, b->q[1] = 0.03;
  for (int k = 0; k < 12; k++) x[k] = 0.1 * (k + 1) - 0.4 * (k % 3);
  for (int pass = 0; pass < 3; pass++) {
    PetscReal cc = pass ? c : 0, r[12];
    if (pass == 2) { /* compressed 10 %: K is indefinite along the rotations and M + cK is too (LU) */
      for (int k = 0; k < 9; k++) b->q[k] = k % 4 ? 0.01 * (k % 3) : 0.9;
      cc = 1e-3;
    }
    MB_OK(b->ops->factor(b, cc));
    MB_OK(b->ops->inverse(b, 1, x, y));
    MB_OK(b->ops->tangent(b, K));
    for (int i = 0; i < 12; i++) { /* (M + cK) y: M = diag(E₀, E₀, E₀, mI), F row-wise */
      r[i] = 0;
      if (i < 9)
        for (int j = 0; j < 3; j++) r[i] += b->mp.euler[3 * (i % 3) + j] * y[3 * (i / 3) + j];
      else
        r[i] = b->mp.mass * y[i];
      for (int j = 0; j < 12; j++) r[i] += cc * K[12 * i + j] * y[j];
      MB_CLOSE(r[i], x[i], 1e-10 * (1 + PetscAbsReal(x[i])));
    }
  }
  MB_OK(b->ops->operator_h(b, X, base, H));
  MB_OK(MbBodyPointVelocity(b, X, v));
  for (int r = 0; r < 3; r++) { /* U_r = column r of base · ẋ */
    PetscReal U = 0, Hu = 0;
    for (int i = 0; i < 3; i++) U += base[3 * i + r] * v[i];
    for (int j = 0; j < 12; j++) Hu += H[12 * r + j] * b->u[j];
    MB_CLOSE(Hu, U, 1e-12);
  }
  MB_OK(MbBodyPointToSpatial(b, X, xs));
  MbBodyPointToReferential(b, xs, Xb);
  for (int k = 0; k < 3; k++) MB_CLOSE(Xb[k], X[k], 1e-12);
  MB_OK(MbDomainDestroy(&dom));
}

typedef struct {
  PetscReal dp, dL, Emin, Emax, E0, Emod;
} Invariants;

/* n steps of a free body; the largest changes of momenta and energy */
static PetscErrorCode Tumble(const char scheme[], PetscReal h, PetscInt n, PetscReal scale, Invariants *inv)
{
  MbDomain  dom;
  MbBody    b;
  PetscReal L0[3], p0[3], L[3], p[3], e, k, K[144];
  PetscFunctionBegin;
  PetscCall(Brick(scheme, h, 1e6, 0, &dom, &b));
  Launch(b, scale);
  PetscCall(MbBodyMomentum(b, L0, p0));
  PetscCall(MbBodyKineticEnergy(b, &k));
  PetscCall(MbBodyStrainEnergy(b, &e));
  inv->E0 = inv->Emin = inv->Emax = k + e;
  inv->dp = inv->dL = inv->Emod = 0;
  PetscCall(b->ops->tangent(b, K));
  for (PetscInt s = 0; s < n; s++) {
    PetscCall(MbDomainStep(dom));
    PetscCall(MbBodyMomentum(b, L, p));
    PetscCall(MbBodyKineticEnergy(b, &k));
    PetscCall(MbBodyStrainEnergy(b, &e));
    for (int i = 0; i < 3; i++) {
      inv->dp = PetscMax(inv->dp, PetscAbsReal(p[i] - p0[i]) / MbV3Norm(p0));
      inv->dL = PetscMax(inv->dL, PetscAbsReal(L[i] - L0[i]) / MbV3Norm(L0));
    }
    inv->Emin = PetscMin(inv->Emin, k + e);
    inv->Emax = PetscMax(inv->Emax, k + e);
  }
  PetscCall(MbDomainDestroy(&dom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void test_free_tumbling(void **state)
{
  Invariants inv;
  PetscReal  hc;
  MbDomain   dom;
  MbBody     b;
  MB_OK(Brick("DEF_EXP", 1e-3, 1e6, 0, &dom, &b));
  MB_OK(MbBodyCriticalStep(b, &hc));
  MB_OK(MbDomainDestroy(&dom));
  MB_OK(Tumble("DEF_EXP", 0.2 * hc, 20000, 1.0, &inv)); /* about 600 vibration periods, 2 turns */
  print_message("# DEF_EXP h = %.3e (critical %.3e): |dp|/|p| %.1e, |dL|/|L| %.1e, energy in [%.6g, %.6g] of %.6g\n", 0.2 * hc, hc, inv.dp, inv.dL, inv.Emin, inv.Emax, inv.E0);
  if (!(inv.dp < 1e-13)) fail_msg("linear momentum changed by %g", inv.dp);
  if (!(inv.dL < 1e-11)) fail_msg("angular momentum changed by %g", inv.dL);
  /* no drift: the energy error of leap-frog oscillates at O(h²ω²) */
  if (!((inv.Emax - inv.Emin) < 2e-2 * inv.E0)) fail_msg("energy wandered over [%g, %g] from %g", inv.Emin, inv.Emax, inv.E0);
  MB_OK(Tumble("DEF_LIM", 0.2 * hc, 2000, 1.0, &inv));
  print_message("# DEF_LIM: |dp|/|p| %.1e, |dL|/|L| %.1e, energy in [%.6g, %.6g] of %.6g\n", inv.dp, inv.dL, inv.Emin, inv.Emax, inv.E0);
  if (!(inv.dp < 1e-13)) fail_msg("DEF_LIM: linear momentum changed by %g", inv.dp);
  if (!((inv.Emax - inv.Emin) < 5e-2 * inv.E0)) fail_msg("DEF_LIM: energy wandered over [%g, %g] from %g", inv.Emin, inv.Emax, inv.E0);
}

/* A small vibration without rotation is the linear system M ü + K q = 0, for which the
   position Verlet keeps ½uᵀ(M − h²K/4)u + ½ΔqᵀKΔq exactly (Δq = q − q_ref). */
static void test_modified_energy(void **state)
{
  MbDomain  dom;
  MbBody    b;
  PetscReal K[144], hc, E0 = 0, P0 = 0, drift = 0, pdrift = 0, h;
  MB_OK(Brick("DEF_EXP", 1e-3, 1e6, 0, &dom, &b));
  MB_OK(MbBodyCriticalStep(b, &hc));
  h = 0.9 * hc;
  MB_OK(MbDomainSetStep(dom, h));
  MB_OK(b->ops->tangent(b, K)); /* at F = I */
  /* Ḟ = D E₀⁻¹ with D symmetric: the angular momentum axial(E₀Ḟᵀ) = axial(D) is zero, so
     no rigid rotation (a zero mode of K that the linear system would not see turn) */
  {
    PetscReal D[9], E0i[9], Fd[9];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) D[3 * i + j] = 1e-5 * (i == j ? 1.0 - 0.4 * i : 0.3 * (i + j - 2));
    MB_OK(MbM3Invert(b->mp.euler, E0i));
    MbM3MatMult(D, E0i, Fd);
    for (int k = 0; k < 9; k++) b->u[k] = Fd[k] * b->mp.mass / 3; /* E₀ ~ m/3 · size² */
  }
  for (PetscInt s = 0; s <= 2000; s++) {
    PetscReal E = 0, dq[12], ke;
    for (int k = 0; k < 12; k++) dq[k] = b->q[k] - (k < 9 ? (k % 4 == 0 ? 1.0 : 0.0) : b->mp.center[k - 9]);
    MB_OK(MbBodyKineticEnergy(b, &ke));
    E = ke;
    for (int i = 0; i < 12; i++)
      for (int j = 0; j < 12; j++) E += 0.5 * K[12 * i + j] * (dq[i] * dq[j] - 0.25 * h * h * b->u[i] * b->u[j]);
    {
      PetscReal P = ke; /* the plain energy ½uᵀMu + ½ΔqᵀKΔq, not conserved */
      for (int i = 0; i < 12; i++)
        for (int j = 0; j < 12; j++) P += 0.5 * K[12 * i + j] * dq[i] * dq[j];
      if (s == 0) E0 = E, P0 = P;
      pdrift = PetscMax(pdrift, PetscAbsReal(P - P0) / P0);
    }
    drift = PetscMax(drift, PetscAbsReal(E - E0) / E0);
    MB_OK(MbDomainStep(dom));
  }
  print_message("# modified energy at h = 0.9 h_crit, strain amplitude ~1e-6: max relative change %.2e (the plain energy: %.2e)\n", drift, pdrift);
  /* Saint Venant–Kirchhoff is not linear: the change is the O(strain) nonlinear part (it
     scales with the amplitude: 3e-4 at ten times it, measured), while the plain energy
     moves by O(h²ω²) = 40 % at this step */
  if (!(drift < 1e-4)) fail_msg("modified energy changed by %g", drift);
  if (!(pdrift > 1000 * drift)) fail_msg("the plain energy changed by %g, not much more than the modified one (%g): the test does not tell them apart", pdrift, drift);
  MB_OK(MbDomainDestroy(&dom));
}

/* the largest |u| after n steps of a vibration at h = f·h_crit */
static PetscReal Vibrate(const char scheme[], PetscReal f, PetscReal damping, PetscInt n)
{
  MbDomain  dom;
  MbBody    b;
  PetscReal hc, m = 0;
  MB_OK(Brick(scheme, 1e-3, 1e6, damping, &dom, &b));
  MB_OK(MbBodyCriticalStep(b, &hc));
  MB_OK(MbDomainSetStep(dom, f * hc));
  for (int k = 0; k < 9; k++) b->u[k] = 1e-3 * (k % 4 == 0 ? 1.0 : 0.2);
  for (PetscInt s = 0; s < n; s++) {
    if (MbDomainStep(dom)) return PETSC_MAX_REAL; /* A not positive definite: blown up */
    for (int k = 0; k < 9; k++) m = PetscMax(m, PetscAbsReal(b->u[k]));
    if (!(m < 1e3)) break;
  }
  MB_OK(MbDomainDestroy(&dom));
  return m;
}

static void test_stability(void **state)
{
  PetscReal below = Vibrate("DEF_EXP", 0.99, 0, 2000), above = Vibrate("DEF_EXP", 1.05, 0, 2000), damped = Vibrate("DEF_EXP", 0.99, 2e-4, 2000), lim5 = Vibrate("DEF_LIM", 5.0, 0, 2000);
  print_message("# max |Fdot|: DEF_EXP 0.99 h_c %.3g, 1.05 h_c %.3g, damped 0.99 h_c %.3g; DEF_LIM 5 h_c %.3g (start 1e-3)\n", below, above, damped, lim5);
  if (!(below < 1e-2)) fail_msg("DEF_EXP below the critical step grew to %g", below);
  if (!(above > 1)) fail_msg("DEF_EXP above the critical step stayed at %g: the bound is not sharp", above);
  if (!(damped < 1e-2)) fail_msg("DEF_EXP with damping below its (damped) critical step grew to %g", damped);
  if (!(lim5 < 1e-2)) fail_msg("DEF_LIM at 5 h_crit grew to %g", lim5);
}

/* q(T) of a tumbling run with n steps over T */
static void Final(const char scheme[], PetscReal T, PetscInt n, PetscReal q[12])
{
  MbDomain dom;
  MbBody   b;
  MB_OK(Brick(scheme, T / n, 1e6, 0, &dom, &b));
  Launch(b, 1.0);
  for (PetscInt s = 0; s < n; s++) MB_OK(MbDomainStep(dom));
  for (int k = 0; k < 12; k++) q[k] = b->q[k];
  MB_OK(MbDomainDestroy(&dom));
}

static void test_order(void **state)
{
  const char *schemes[] = {"DEF_EXP", "DEF_LIM"};
  for (int s = 0; s < 2; s++) {
    PetscReal q1[12], q2[12], q3[12], e1 = 0, e2 = 0, p;
    Final(schemes[s], 0.05, 200, q1);
    Final(schemes[s], 0.05, 400, q2);
    Final(schemes[s], 0.05, 800, q3);
    for (int k = 0; k < 12; k++) {
      e1 += PetscSqr(q1[k] - q2[k]);
      e2 += PetscSqr(q2[k] - q3[k]);
    }
    p = log2(PetscSqrtReal(e1 / e2));
    print_message("# %s: observed order %.3f\n", schemes[s], p);
    if (!(p > 1.9 && p < 2.1)) fail_msg("%s: observed order %g, expected 2", schemes[s], p);
  }
}

/* Relative equilibrium of a cube (side a, E₀ = eI, e = ρa⁵/12) spinning at ω about z:
   F = R(ωt)U with U = diag(λ₁, λ₁, λ₃). The balance F̈E₀ + V P = 0 (seed 003) with
   F̈ = Ŵ²F, Ŵ = hat(ω e_z), reads Ŵ²U e + V U S = 0, so S = (ω² e/V) diag(1, 1, 0).
   With S = λ tr(E) I + 2μE: S₃₃ = 0 gives E₃ = −2λE₁/(λ + 2μ), and then
   S₁₁ = 2μ(3λ + 2μ)/(λ + 2μ) E₁ = Y/(1 − ν) E₁ (Y Young's modulus), so
   E₁ = (1 − ν) ω² e/(V Y), λ₁ = √(1 + 2E₁), λ₃ = √(1 + 2E₃). Starting there with
   Ḟ = ŴU, the body must keep λ₁ and λ₃ (to the scheme's O(h²) error). */
static void test_spinning_stretch(void **state)
{
  const PetscReal a = 1, rho = 1000, Y = 1e6, nu = 0.25, w = 20, e = rho * PetscPowReal(a, 5) / 12, V = a * a * a;
  const PetscReal lam = Y * nu / ((1 + nu) * (1 - 2 * nu)), mu = Y / (2 + 2 * nu);
  const PetscReal E1 = (1 - nu) * w * w * e / (V * Y), E3 = -2 * lam * E1 / (lam + 2 * mu), l1 = PetscSqrtReal(1 + 2 * E1), l3 = PetscSqrtReal(1 + 2 * E3);
  const char     *schemes[] = {"DEF_EXP", "DEF_LIM"};
  for (int s = 0; s < 2; s++) {
    MbDomain  dom;
    MbShape   shp;
    MbBody    b;
    MbScheme  sch;
    PetscInt  id;
    PetscReal wz[3] = {0, 0, w}, err = 0, h = 2e-5;
    MB_OK(MbDomainCreate(PETSC_COMM_SELF, &dom));
    MB_OK(MbDomainSetVerbose(dom, PETSC_FALSE));
    MB_OK(MbDomainSetStep(dom, h));
    Cube(a, &shp);
    MB_OK(MbDomainNextBodyId(dom, &id));
    MB_OK(MbBodyCreate(id, MBBODYPSEUDORIGID, shp, rho, NULL, &b));
    MB_OK(MbShapeDestroy(&shp));
    MB_OK(MbBodySetMaterial(b, Y, nu));
    MB_OK(MbDomainGetScheme(dom, schemes[s], &sch));
    MB_OK(MbBodySetScheme(b, sch));
    MB_OK(MbDomainAddBody(dom, b));
    b->q[0] = b->q[4] = l1;
    b->q[8]           = l3;
    MB_OK(MbBodySetSpatialVelocity(b, NULL, wz));
    for (PetscInt k = 0; k < (PetscInt)(2 * PETSC_PI / w / h); k++) { /* one revolution */
      PetscReal C[9], F[9];
      MB_OK(MbDomainStep(dom));
      for (int i = 0; i < 9; i++) F[i] = b->q[i];
      MbM3TransposeMatMult(F, F, C); /* FᵀF = U² */
      err = PetscMax(err, PetscMax(PetscAbsReal(PetscSqrtReal(C[0]) - l1), PetscAbsReal(PetscSqrtReal(C[8]) - l3)));
    }
    print_message("# %s spinning cube: stretch %.9f (lateral), %.9f (axial); largest deviation %.2e (%.2e of the strain)\n", schemes[s], l1, l3, err, err / (l1 - 1));
    if (!(err < 1e-3 * (l1 - 1))) fail_msg("%s: the spinning cube left its equilibrium stretch by %g (strain %g)", schemes[s], err, l1 - 1);
    MB_OK(MbDomainDestroy(&dom));
  }
}

static void test_pack(void **state)
{
  MbDomain  dom;
  MbBody    b, c;
  size_t    n1, n2, used;
  char     *buf1, *buf2, scheme[64];
  PetscReal f1[12], f2[12], zero[12] = {0};
  MB_OK(Brick("DEF_LIM", 1e-3, 2e6, 0.01, &dom, &b));
  Launch(b, 1.0);
  b->q[1] = 0.05;
  MB_OK(MbBodyPackSize(b, PETSC_TRUE, &n1));
  MB_OK(PetscMalloc1(n1, &buf1));
  MB_OK(MbBodyPack(b, PETSC_TRUE, buf1, &n1));
  MB_OK(MbBodyUnpack(buf1, n1, &used, &c, scheme));
  assert_string_equal(scheme, "DEF_LIM");
  assert_int_equal((int)used, (int)n1);
  {
    MbScheme sch;
    MB_OK(MbDomainGetScheme(dom, scheme, &sch)); /* the domain sets it on arrival (migrate.c) */
    MB_OK(MbBodySetScheme(c, sch));
  }
  MB_OK(MbBodyPackSize(c, PETSC_TRUE, &n2));
  assert_int_equal((int)n1, (int)n2);
  MB_OK(PetscMalloc1(n2, &buf2));
  MB_OK(MbBodyPack(c, PETSC_TRUE, buf2, &n2));
  assert_memory_equal(buf1, buf2, n1);
  MB_OK(b->ops->internal(b, zero, f1));
  MB_OK(c->ops->internal(c, zero, f2));
  for (int k = 0; k < 12; k++) assert_true(f1[k] == f2[k]);
  MB_FAILS(MbBodyUnpack(buf1, n1 - 20, &used, &c, scheme), "truncated");
  MB_OK(MbBodyDestroy(&c));
  MB_OK(PetscFree(buf1));
  MB_OK(PetscFree(buf2));
  MB_OK(MbDomainDestroy(&dom));
}

/* a load callback returning the generalized force (12 numbers), or the rigid 9-tuple */
static PetscErrorCode Generalized(void *ctx, MbBody b, const PetscReal q[], const PetscReal u[], PetscReal t, PetscReal h, PetscInt *n, PetscReal out[])
{
  if (*(int *)ctx) {
    *n = 12;
    for (int k = 0; k < 12; k++) out[k] = k + 1;
  } else
    for (int k = 0; k < 9; k++) out[k] = k < 3 ? k + 1 : 0; /* a force (1, 2, 3) at the mass centre */
  return PETSC_SUCCESS;
}

static void test_callback_loads(void **state)
{
  MbDomain  dom;
  MbBody    b;
  int       twelve[2] = {1, 0};
  PetscReal f[12];
  for (int c = 0; c < 2; c++) {
    MB_OK(Brick("DEF_EXP", 1e-3, 1e6, 0, &dom, &b));
    b->q[1] = 0.1; /* a sheared F: a force at the mass centre still moves F not at all */
    MB_OK(MbBodyAddLoadCallback(b, Generalized, &twelve[c], NULL));
    MB_OK(MbBodyExternalForce(b, 0, 1e-3, NULL, f));
    for (int k = 0; k < 12; k++) MB_CLOSE(f[k], c == 0 ? k + 1 : (k >= 9 ? k - 8 : 0), 1e-15);
    MB_OK(MbDomainDestroy(&dom));
  }
}

static void test_bad_input(void **state)
{
  MbDomain dom;
  MbBody   b;
  MbShape  s;
  MbScheme sch;
  MB_OK(Brick("DEF_EXP", 1e-3, 1e6, 0, &dom, &b));
  MB_FAILS(MbBodySetMaterial(b, 0, 0.3), "Young's modulus must be > 0, got 0");
  MB_FAILS(MbBodySetMaterial(b, -5, 0.3), "got -5");
  MB_FAILS(MbBodySetMaterial(b, 1e6, 0.5), "Poisson's ratio must be in (-1, 0.5), got 0.5");
  MB_FAILS(MbBodySetMaterial(b, 1e6, -1), "got -1");
  MB_FAILS(MbBodySetDamping(b, -0.1), "damping must be >= 0, got -0.1");
  MB_OK(MbDomainGetScheme(dom, "RIG_NEG", &sch));
  MB_FAILS(MbBodySetScheme(b, sch), "scheme RIG_NEG does not apply to body 0 of kind PSEUDO_RIGID");
  MB_OK(MbDomainDestroy(&dom));
  { /* a DEF scheme on a rigid body */
    MB_OK(MbDomainCreate(PETSC_COMM_SELF, &dom));
    Cube(1, &s);
    MB_OK(MbBodyCreate(0, MBBODYRIGID, s, 1000, NULL, &b));
    MB_OK(MbDomainGetScheme(dom, "DEF_LIM", &sch));
    MB_FAILS(MbBodySetScheme(b, sch), "scheme DEF_LIM does not apply to body 0 of kind RIGID");
    MB_OK(MbBodyDestroy(&b));
    MB_OK(MbShapeDestroy(&s));
    MB_OK(MbDomainDestroy(&dom));
  }
  { /* a flat shape (1e-7 thick): volume and mass are fine, the Euler tensor is degenerate */
    PetscReal n[24];
    PetscInt  surf[6] = {1, 1, 1, 1, 1, 1};
    for (int k = 0; k < 8; k++) {
      n[3 * k]     = (k == 1 || k == 2 || k == 5 || k == 6) ? 1.0 : 0.0;
      n[3 * k + 1] = (k == 2 || k == 3 || k == 6 || k == 7) ? 1.0 : 0.0;
      n[3 * k + 2] = k >= 4 ? 1e-7 : 0.0;
    }
    MB_OK(MbShapeCreate(&s));
    MB_OK(MbShapeAddHex(s, n, surf, 1));
    MB_FAILS(MbBodyCreate(0, MBBODYPSEUDORIGID, s, 1000, NULL, &b), "the shape is degenerate: its Euler tensor has determinant");
    MB_OK(MbShapeDestroy(&s));
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_tangent), cmocka_unit_test(test_operators),        cmocka_unit_test(test_free_tumbling), cmocka_unit_test(test_modified_energy), cmocka_unit_test(test_stability),
    cmocka_unit_test(test_order),   cmocka_unit_test(test_spinning_stretch), cmocka_unit_test(test_pack),          cmocka_unit_test(test_callback_loads),  cmocka_unit_test(test_bad_input),
};

MB_TEST_MAIN(tests)
