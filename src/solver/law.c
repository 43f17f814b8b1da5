/* The law of one constraint block (components t1, t2, n: the normal is the third).

   Contact (Signorini–Coulomb) in De Saxcé and Feng's bipotential form (De Saxcé & Feng 1998):
   with R̃ = R + c e_N and Ū = U + bias, R̃ ∈ K_μ, Ū + μ‖Ū_T‖ e_N ∈ K_μ*, orthogonal; its
   natural map is F = R̃ − proj_K_μ(R̃ − (Ū + μ‖Ū_T‖ e_N)), zero exactly at solutions.

   The local solver is the semismooth Newton method on the Alart–Curnier augmented
   Lagrangian function (Alart & Curnier 1991, CMAME 92:353):
     F_N = R̃_N − max(0, R̃_N − ρ Ū_N),
     F_T = R̃_T − proj_D(μ max(0, R̃_N − ρ Ū_N)) (R̃_T − ρ Ū_T),
   D(g) the disc of radius g; F = 0 ⇔ Coulomb's law with Signorini's condition (the same
   solutions as the natural map). One element of the generalized Jacobian is returned as
   dF = Dr dR + Du dU, so for U = W R + b the Newton matrix is Dr + Du W. */
#include <math.h>
#include "solverimpl.h"

PetscErrorCode MbLawCheck(MPI_Comm comm, PetscInt block, const MbLaw *law)
{
  PetscFunctionBegin;
  PetscCheck(law->kind == MB_LAW_CONTACT || law->kind == MB_LAW_EQUALITY || law->kind == MB_LAW_NORMAL, comm, PETSC_ERR_ARG_OUTOFRANGE, "law of block %" PetscInt_FMT ": unknown kind %d (CONTACT 0, EQUALITY 1, NORMAL 2)", block, (int)law->kind);
  if (law->kind == MB_LAW_CONTACT) {
    PetscCheck(law->mu >= 0 && PetscIsNormalReal(law->mu + 1), comm, PETSC_ERR_ARG_OUTOFRANGE, "law of block %" PetscInt_FMT ": friction coefficient mu %g must be >= 0", block, (double)law->mu);
    PetscCheck(law->cohesion >= 0 && PetscIsNormalReal(law->cohesion + 1), comm, PETSC_ERR_ARG_OUTOFRANGE, "law of block %" PetscInt_FMT ": cohesion %g must be >= 0", block, (double)law->cohesion);
  }
  for (int d = 0; d < 3; d++) PetscCheck(!PetscIsInfOrNanReal(law->bias[d]), comm, PETSC_ERR_ARG_OUTOFRANGE, "law of block %" PetscInt_FMT ": bias[%d] is %g", block, d, (double)law->bias[d]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MbConeProject(PetscReal mu, const PetscReal z[3], PetscReal p[3])
{
  PetscReal zt = PetscSqrtReal(z[0] * z[0] + z[1] * z[1]), zn = z[2];
  if (zt <= mu * zn) { /* inside K */
    p[0] = z[0], p[1] = z[1], p[2] = z[2];
  } else if (mu * zt <= -zn) { /* inside the polar cone K° = {μ‖z_T‖ ≤ −z_N} */
    p[0] = p[1] = p[2] = 0;
  } else { /* onto the boundary ray through z_T/‖z_T‖ (here ‖z_T‖ > 0) */
    PetscReal a = (zn + mu * zt) / (1 + mu * mu);
    p[0]        = mu * a * z[0] / zt;
    p[1]        = mu * a * z[1] / zt;
    p[2]        = a;
  }
}

/* R̃ and Ū of a block */
static inline void Shifted(const MbLaw *law, const PetscReal R[3], const PetscReal U[3], PetscReal r[3], PetscReal u[3])
{
  for (int d = 0; d < 3; d++) r[d] = R[d], u[d] = U[d] + law->bias[d];
  if (law->kind == MB_LAW_CONTACT) r[2] += law->cohesion;
}

void MbLawNaturalMap(const MbLaw *law, const PetscReal R[3], const PetscReal U[3], PetscReal F[3])
{
  PetscReal r[3], u[3], z[3], p[3];
  Shifted(law, R, U, r, u);
  switch (law->kind) {
  case MB_LAW_EQUALITY:
    for (int d = 0; d < 3; d++) F[d] = u[d];
    break;
  case MB_LAW_NORMAL:
    F[0] = r[0], F[1] = r[1], F[2] = u[2];
    break;
  default: {
    PetscReal ut = PetscSqrtReal(u[0] * u[0] + u[1] * u[1]);
    z[0]         = r[0] - u[0];
    z[1]         = r[1] - u[1];
    z[2]         = r[2] - (u[2] + law->mu * ut);
    MbConeProject(law->mu, z, p);
    for (int d = 0; d < 3; d++) F[d] = r[d] - p[d];
  }
  }
}

PetscReal MbLawRho(const PetscReal Wd[9])
{
  PetscReal t = Wd[0] + Wd[4] + Wd[8];
  return (t > 0 && isnormal(t)) ? 3 / t : 1; /* C99's isnormal: inline (PetscIsNormalReal is a call) */
}

void MbLawAlartCurnier(const MbLaw *law, PetscReal rho, const PetscReal R[3], const PetscReal U[3], PetscReal F[3], PetscReal Dr[9], PetscReal Du[9])
{
  PetscReal r[3], u[3];
  Shifted(law, R, U, r, u);
  for (int k = 0; k < 9; k++) Dr[k] = Du[k] = 0;
  if (law->kind == MB_LAW_EQUALITY) {
    for (int d = 0; d < 3; d++) F[d] = rho * u[d], Du[4 * d] = rho;
    return;
  }
  if (law->kind == MB_LAW_NORMAL) {
    F[0] = r[0], F[1] = r[1], F[2] = rho * u[2];
    Dr[0] = Dr[4] = 1;
    Du[8]         = rho;
    return;
  }
  PetscReal sig = r[2] - rho * u[2], mu = law->mu;
  PetscBool active = sig > 0 ? PETSC_TRUE : PETSC_FALSE;
  if (active)
    F[2] = rho * u[2], Du[8] = rho;
  else
    F[2] = r[2], Dr[8] = 1;
  PetscReal g = active ? mu * sig : 0, s[2] = {r[0] - rho * u[0], r[1] - rho * u[1]}, ns = PetscSqrtReal(s[0] * s[0] + s[1] * s[1]);
  if (ns <= g) { /* sticking: F_T = ρ Ū_T */
    F[0] = rho * u[0], F[1] = rho * u[1];
    Du[0] = Du[4] = rho;
  } else { /* sliding or open: F_T = R̃_T − g ŝ */
    PetscReal sh[2] = {s[0] / ns, s[1] / ns}, k = g / ns;
    F[0] = r[0] - g * sh[0];
    F[1] = r[1] - g * sh[1];
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) {
        PetscReal Pij = k * ((i == j ? 1 : 0) - sh[i] * sh[j]); /* ∂proj/∂s */
        Dr[3 * i + j] = (i == j ? 1 : 0) - Pij;
        Du[3 * i + j] = rho * Pij;
      }
      if (active) { /* ∂proj/∂g = ŝ, ∂g = μ(∂R̃_N − ρ ∂Ū_N) */
        Dr[3 * i + 2] = -sh[i] * mu;
        Du[3 * i + 2] = sh[i] * mu * rho;
      }
    }
  }
}

/* Solve A x = b (3×3 row-major) by Gaussian elimination with partial pivoting; false when
   a pivot is below 1e-14 of the largest entry. */
static PetscBool Solve3(const PetscReal A_[9], const PetscReal b_[3], PetscReal x[3])
{
  PetscReal A[9], b[3], amax = 0;
  for (int k = 0; k < 9; k++) A[k] = A_[k], amax = PetscMax(amax, PetscAbsReal(A_[k]));
  for (int k = 0; k < 3; k++) b[k] = b_[k];
  if (!(amax > 0)) return PETSC_FALSE;
  for (int c = 0; c < 3; c++) {
    int p = c;
    for (int i = c + 1; i < 3; i++)
      if (PetscAbsReal(A[3 * i + c]) > PetscAbsReal(A[3 * p + c])) p = i;
    if (!(PetscAbsReal(A[3 * p + c]) > 1e-14 * amax)) return PETSC_FALSE;
    if (p != c) {
      for (int j = 0; j < 3; j++) {
        PetscReal t  = A[3 * c + j];
        A[3 * c + j] = A[3 * p + j], A[3 * p + j] = t;
      }
      PetscReal t = b[c];
      b[c] = b[p], b[p] = t;
    }
    for (int i = c + 1; i < 3; i++) {
      PetscReal f = A[3 * i + c] / A[3 * c + c];
      for (int j = c; j < 3; j++) A[3 * i + j] -= f * A[3 * c + j];
      b[i] -= f * b[c];
    }
  }
  for (int i = 2; i >= 0; i--) {
    PetscReal s = b[i];
    for (int j = i + 1; j < 3; j++) s -= A[3 * i + j] * x[j];
    x[i] = s / A[3 * i + i];
  }
  return PETSC_TRUE;
}

static inline void LocalU(const PetscReal Wd[9], const PetscReal b[3], const PetscReal R[3], PetscReal U[3])
{
  for (int i = 0; i < 3; i++) U[i] = b[i] + Wd[3 * i] * R[0] + Wd[3 * i + 1] * R[1] + Wd[3 * i + 2] * R[2];
}

static inline PetscReal Norm3(const PetscReal v[3]) { return PetscSqrtReal(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* Fall-back: the projected fixed point of the natural map, R̃ ← proj_K(R̃ − ρ(Ū + μ‖Ū_T‖e_N)),
   with ρ below 1/‖Wd‖_F; slow but it does not cycle the way Newton can. */
static PetscBool ProjectedIteration(const MbLaw *law, const PetscReal Wd[9], const PetscReal b[3], PetscReal R[3])
{
  PetscReal nw = 0, U[3], z[3], p[3], rho;
  for (int k = 0; k < 9; k++) nw += Wd[k] * Wd[k];
  rho = nw > 0 ? 1 / PetscSqrtReal(nw) : 1;
  for (int it = 0; it < 2000; it++) {
    PetscReal r[3], u[3], ut, d = 0;
    LocalU(Wd, b, R, U);
    Shifted(law, R, U, r, u);
    ut   = PetscSqrtReal(u[0] * u[0] + u[1] * u[1]);
    z[0] = r[0] - rho * u[0];
    z[1] = r[1] - rho * u[1];
    z[2] = r[2] - rho * (u[2] + law->mu * ut);
    MbConeProject(law->mu, z, p);
    p[2] -= law->cohesion;
    for (int k = 0; k < 3; k++) d += (p[k] - R[k]) * (p[k] - R[k]), R[k] = p[k];
    if (PetscSqrtReal(d) <= 1e-15 * Norm3(R)) return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

void MbBlockDiagSetUp(const PetscReal Wd[9], MbBlockDiag *D)
{
  PetscReal c[9], det, amax = 0;
  for (int k = 0; k < 9; k++) D->Wd[k] = Wd[k], amax = PetscMax(amax, PetscAbsReal(Wd[k]));
  D->rho = MbLawRho(Wd);
  /* cofactors: Wd⁻¹ = adj(Wd)/det */
  c[0]   = Wd[4] * Wd[8] - Wd[5] * Wd[7];
  c[1]   = Wd[2] * Wd[7] - Wd[1] * Wd[8];
  c[2]   = Wd[1] * Wd[5] - Wd[2] * Wd[4];
  c[3]   = Wd[5] * Wd[6] - Wd[3] * Wd[8];
  c[4]   = Wd[0] * Wd[8] - Wd[2] * Wd[6];
  c[5]   = Wd[2] * Wd[3] - Wd[0] * Wd[5];
  c[6]   = Wd[3] * Wd[7] - Wd[4] * Wd[6];
  c[7]   = Wd[1] * Wd[6] - Wd[0] * Wd[7];
  c[8]   = Wd[0] * Wd[4] - Wd[1] * Wd[3];
  det    = Wd[0] * c[0] + Wd[1] * c[3] + Wd[2] * c[6];
  D->inv = (amax > 0 && isnormal(det) && PetscAbsReal(det) > 1e-10 * amax * amax * amax) ? PETSC_TRUE : PETSC_FALSE;
  for (int k = 0; k < 9; k++) D->Wi[k] = D->inv ? c[k] / det : 0;
  /* diag(a, a, c): the off-diagonal entries and a − a' below 1e-12 max|Wd_ij|; the closed
     form's residual is then below about 1e-12 of the scale, within what the local Newton
     method accepts when it stalls at rounding (1e-10; ContactNewton). Spheres' blocks are
     diagonal to about 2e-14. */
  D->iso = D->inv && Wd[0] > 0 && Wd[8] > 0 ? PETSC_TRUE : PETSC_FALSE;
  for (int k = 1; k < 8; k++)
    if (k != 4 && !(PetscAbsReal(Wd[k]) <= 1e-12 * amax)) D->iso = PETSC_FALSE;
  if (!(PetscAbsReal(Wd[0] - Wd[4]) <= 1e-12 * amax)) D->iso = PETSC_FALSE;
  /* κ∞(Wd) = ‖Wd‖∞‖Wd⁻¹‖∞ ≤ 10: the sticking solution −Wd⁻¹b̄ from these cofactors has a
     residual of a few ε κ² ‖b̄‖ ≲ 1e-14 ‖b̄‖, inside the 1e-12 MbLawLocalSolveDiag accepts, so
     it needs no check (cubes' and most rigid contact blocks; the check was a third of a
     sticking row's work); not asked of an iso block, which takes the closed form */
  D->wellcond = PETSC_FALSE;
  if (D->inv && !D->iso) {
    PetscReal nw = 0, ni = 0;
    for (int i = 0; i < 3; i++) {
      nw = PetscMax(nw, PetscAbsReal(Wd[3 * i]) + PetscAbsReal(Wd[3 * i + 1]) + PetscAbsReal(Wd[3 * i + 2]));
      ni = PetscMax(ni, PetscAbsReal(D->Wi[3 * i]) + PetscAbsReal(D->Wi[3 * i + 1]) + PetscAbsReal(D->Wi[3 * i + 2]));
    }
    D->wellcond = nw * ni <= 10 ? PETSC_TRUE : PETSC_FALSE;
  }
  D->a  = 0.5 * (Wd[0] + Wd[4]);
  D->c  = Wd[8];
  D->ia = D->iso ? 1 / D->a : 0;
  D->ic = D->iso ? 1 / D->c : 0;
}

void MbBlockStickSetUp(const MbLaw *law, const MbBlockDiag *D, MbBlockStick *t)
{
  for (int k = 0; k < 9; k++) t->Wi[k] = D->Wi[k];
  t->wNN = D->Wd[8], t->mu = law->mu, t->coh = law->cohesion, t->pad = 0;
  for (int k = 0; k < 3; k++) t->bias[k] = law->bias[k];
}

/* x = A⁻¹ b (3×3 row-major) by cofactors: the Newton direction, where pivoting buys nothing
   on a well-conditioned J; a small determinant falls back to Solve3. */
static inline PetscBool Solve3Fast(const PetscReal A[9], const PetscReal b[3], PetscReal x[3])
{
  PetscReal c0 = A[4] * A[8] - A[5] * A[7], c3 = A[5] * A[6] - A[3] * A[8], c6 = A[3] * A[7] - A[4] * A[6];
  PetscReal det = A[0] * c0 + A[1] * c3 + A[2] * c6, n0, n1, n2, sc;
  n0            = PetscAbsReal(A[0]) + PetscAbsReal(A[1]) + PetscAbsReal(A[2]);
  n1            = PetscAbsReal(A[3]) + PetscAbsReal(A[4]) + PetscAbsReal(A[5]);
  n2            = PetscAbsReal(A[6]) + PetscAbsReal(A[7]) + PetscAbsReal(A[8]);
  sc            = n0 * n1 * n2;
  if (!(PetscAbsReal(det) > 1e-6 * sc)) return Solve3(A, b, x);
  PetscReal id = 1 / det;
  x[0]         = (c0 * b[0] + (A[2] * A[7] - A[1] * A[8]) * b[1] + (A[1] * A[5] - A[2] * A[4]) * b[2]) * id;
  x[1]         = (c3 * b[0] + (A[0] * A[8] - A[2] * A[6]) * b[1] + (A[2] * A[3] - A[0] * A[5]) * b[2]) * id;
  x[2]         = (c6 * b[0] + (A[1] * A[6] - A[0] * A[7]) * b[1] + (A[0] * A[4] - A[1] * A[3]) * b[2]) * id;
  return PETSC_TRUE;
}

/* ½‖F_AC‖² of the contact law at R and its Newton matrix J = Dr + Du Wd, written out per
   case of MbLawAlartCurnier (the same function); bb = b + bias. */
static inline PetscReal MeritContact(const MbLaw *law, PetscReal rho, const PetscReal Wd[9], const PetscReal bb[3], const PetscReal R[3], PetscReal F[3], PetscReal J[9])
{
  PetscReal mu = law->mu, r[3] = {R[0], R[1], R[2] + law->cohesion}, u[3], sig, g, s0, s1, ns;
  int       active;
  for (int i = 0; i < 3; i++) u[i] = bb[i] + Wd[3 * i] * R[0] + Wd[3 * i + 1] * R[1] + Wd[3 * i + 2] * R[2];
  sig    = r[2] - rho * u[2];
  active = sig > 0;
  if (active) {
    F[2] = rho * u[2];
    for (int j = 0; j < 3; j++) J[6 + j] = rho * Wd[6 + j];
  } else {
    F[2] = r[2];
    J[6] = J[7] = 0, J[8] = 1;
  }
  g  = active ? mu * sig : 0;
  s0 = r[0] - rho * u[0];
  s1 = r[1] - rho * u[1];
  ns = PetscSqrtReal(s0 * s0 + s1 * s1);
  if (ns <= g) { /* sticking */
    F[0] = rho * u[0], F[1] = rho * u[1];
    for (int j = 0; j < 6; j++) J[j] = rho * Wd[j];
  } else { /* sliding or open */
    PetscReal sh[2] = {s0 / ns, s1 / ns}, k = g / ns, P[4];
    F[0] = r[0] - g * sh[0];
    F[1] = r[1] - g * sh[1];
    P[0] = k * (1 - sh[0] * sh[0]), P[1] = -k * sh[0] * sh[1], P[2] = P[1], P[3] = k * (1 - sh[1] * sh[1]);
    for (int i = 0; i < 2; i++) {
      PetscReal a = active ? sh[i] * mu : 0;
      for (int j = 0; j < 3; j++) J[3 * i + j] = (j == i ? 1 : 0) - (j < 2 ? P[2 * i + j] : a) + rho * (P[2 * i] * Wd[j] + P[2 * i + 1] * Wd[3 + j] + a * Wd[6 + j]);
    }
  }
  return 0.5 * (F[0] * F[0] + F[1] * F[1] + F[2] * F[2]);
}

/* The contact law by the semismooth Newton method from R (the warm start). */
static int ContactNewton(const MbLaw *law, const PetscReal Wd[9], PetscReal rho, const PetscReal bb[3], PetscInt maxit, PetscReal R[3], PetscInt *its)
{
  PetscReal F[3], J[9], d[3], Rt[3], Ft[3], Jt[9], phi, scale, sb = rho * Norm3(bb);
  PetscInt  it;
  int       conv = 0;
  phi            = MeritContact(law, rho, Wd, bb, R, F, J);
  for (it = 0; it < maxit; it++) {
    PetscReal mF[3] = {-F[0], -F[1], -F[2]}, t = 1, phit = phi;
    scale = PetscMax(Norm3(R) + law->cohesion, sb);
    if (2 * phi <= 1e-28 * scale * scale) { /* ‖F‖ ≤ 1e-14 scale */
      conv = 1;
      break;
    }
    if (!Solve3Fast(J, mF, d)) break;
    /* backtracking (Armijo) on ½‖F‖²: the Newton direction has slope −‖F‖²; each trial
       also gives its Newton matrix, so an accepted step needs no second evaluation */
    for (int ls = 0; ls < 30; ls++, t *= 0.5) {
      for (int k = 0; k < 3; k++) Rt[k] = R[k] + t * d[k];
      phit = MeritContact(law, rho, Wd, bb, Rt, Ft, Jt);
      if (phit <= (1 - 2e-4 * t) * phi) break;
    }
    if (!(phit < phi)) { /* no decrease: converged to rounding or stuck */
      conv = PetscSqrtReal(2 * phi) <= 1e-10 * scale;
      break;
    }
    for (int k = 0; k < 3; k++) R[k] = Rt[k], F[k] = Ft[k];
    for (int k = 0; k < 9; k++) J[k] = Jt[k];
    phi = phit;
  }
  if (!conv && it == maxit) conv = PetscSqrtReal(2 * phi) <= 1e-10 * PetscMax(Norm3(R) + law->cohesion, rho * Norm3(bb));
  if (its) *its = it;
  return conv;
}

int MbLawLocalSolveDiag(const MbLaw *law, const MbBlockDiag *D, const PetscReal b[3], PetscInt maxit, PetscReal R[3], PetscInt *its)
{
  const PetscReal *Wd = D->Wd, *Wi = D->Wi;
  PetscReal        bb[3] = {b[0] + law->bias[0], b[1] + law->bias[1], b[2] + law->bias[2]};
  int              conv  = 0;
  if (its) *its = 0;
  if (law->kind == MB_LAW_EQUALITY) { /* R = −Wd⁻¹(b + bias), by elimination with pivoting */
    PetscReal x[3], mb[3] = {-bb[0], -bb[1], -bb[2]};
    conv = Solve3(Wd, mb, x);
    if (conv) R[0] = x[0], R[1] = x[1], R[2] = x[2];
    return conv;
  }
  if (law->kind == MB_LAW_NORMAL) { /* R_T = 0, R_N = −(b_N + bias_N)/Wd_NN */
    if (Wd[8] == 0) return 0;
    R[0] = R[1] = 0, R[2] = -bb[2] / Wd[8];
    return 1;
  }
  PetscReal c = law->cohesion;
  if (D->iso) { /* Wd = diag(a, a, c_N): each case in closed form */
    MbLawIsoContact(D->ia, D->ic, D->c, law->mu, c, bb, R);
    return 1;
  }
  /* separation, or sticking accepted when R̃ ∈ K_μ and the residual is at rounding (known
     without computing it for a well-conditioned Wd): MbLawSeparateOrStick */
  {
    PetscReal x[3];
    int       k = MbLawSeparateOrStick(D->inv ? Wi : NULL, Wd[8], law->mu, c, bb, x);
    if (k == 2 && !D->wellcond) {
      PetscReal x2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2], sx = c > 0 ? PetscSqr(PetscSqrtReal(x2) + c) : x2, rho2 = D->rho * D->rho, u[3];
      for (int i = 0; i < 3; i++) u[i] = bb[i] + Wd[3 * i] * x[0] + Wd[3 * i + 1] * x[1] + Wd[3 * i + 2] * x[2];
      /* ρ‖Ū‖ ≤ 1e-12 max(‖R‖ + c, ρ‖b̄‖), squared */
      if (!(rho2 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) <= 1e-24 * PetscMax(sx, rho2 * (bb[0] * bb[0] + bb[1] * bb[1] + bb[2] * bb[2])))) k = 0;
    }
    if (k) {
      R[0] = x[0], R[1] = x[1], R[2] = x[2];
      return 1;
    }
  }
  /* sliding (or a block the shortcuts cannot settle): Newton from the warm start */
  conv = ContactNewton(law, Wd, D->rho, bb, maxit, R, its);
  if (!conv) ProjectedIteration(law, Wd, b, R); /* the caller counts fall-backs */
  return conv;
}

PetscErrorCode MbLawLocalSolve(const MbLaw *law, const PetscReal Wd[9], const PetscReal b[3], PetscInt maxit, PetscReal R[3], PetscInt *its, PetscBool *ok)
{
  MbBlockDiag D;
  int         conv;
  PetscFunctionBegin;
  MbBlockDiagSetUp(Wd, &D);
  conv = MbLawLocalSolveDiag(law, &D, b, maxit, R, its);
  if (ok) *ok = conv ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}
