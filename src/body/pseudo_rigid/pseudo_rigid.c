/* Pseudo-rigid kinematics (seed 003, "Pseudo-rigid dynamics"; seed 000, eqs. (39)–(40)):
   a body whose every point moves by one homogeneous deformation,
       x = F (X − X̄) + x̄,
   with the deformation gradient F and the mass centre x̄ as its twelve coordinates.

   Layout. q = [F (9), x̄ (3)] and u = [Ḟ (9), v (3)] with F stored row-wise,
   q[3i + j] = F_ij, as Solfec-1.0's code stores it (bod.c: "deformation gradient
   (row-wise)"; its theory manual agrees, its user manual's BODY table says column-wise,
   which the code does not do). A rigid body's Λ is column-wise, so the two layouts
   differ: whatever reads q goes through the ops. In this order M is block-diagonal,
   diag(E₀, E₀, E₀, mI) (seed 003: "the row-wise composition of Ḟ in u"): for the 3×3
   matrix G of a vector's F entries M·G is G E₀ and M⁻¹·G is G E₀⁻¹. q and u share the
   order, so the schemes' q + h/2 u is entrywise.

   Dynamics. Kinetic energy T = ½ tr(Ḟ E₀ Ḟᵀ) + ½ m v·v (E₀ the referential Euler tensor,
   seed 003 eq. E0), so M = [E₀, E₀, E₀, m I] (eq. mprb). The generalized forces conjugate to
   Ḟ are ∫ t ⊗ (X − X̄) dA + ∫ ρ₀ b ⊗ (X − X̄) dV − V P̄ (eq. fprb): a point force P at X
   gives P ⊗ (X − X̄), gravity none (∫ρ₀(X − X̄) = 0). Saint Venant–Kirchhoff:
   E = ½(FᵀF − I), S = λ tr(E) I + 2μE, P̄ = F S, Ψ = ½λ tr(E)² + μ E:E, stored energy VΨ.
   Tangent, K_{ij,kl} = V ∂P_ij/∂F_kl = V [δ_ik S_lj + λ F_ij F_kl + μ(δ_jl (FFᵀ)_ik + F_il F_kj)]
   (differentiating P = FS with ∂S_mj/∂F_kl = λ δ_mj F_kl + μ(δ_jl F_km + δ_ml F_kj)).
   Damping is stiffness-proportional, f_damp = η K u (seed 003 writes ηK, dropping u).

   A of the schemes: DEF_EXP A = M; DEF_LIM A = M + c K with c = ηh/2 + h²/4 (eq. (40)),
   a 9×9 symmetric positive definite block for F (K is symmetric) factorized by Cholesky
   once a step, and m I for x̄. */
#include <moreau/mbmath.h>
#include "../bodyimpl.h"

#define FI(i, j) (3 * (i) + (j)) /* index of F_ij in q and of Ḟ_ij in u: row-wise */

typedef struct {
  PetscReal young, poisson; /* as given (0 until MbBodySetMaterial) */
  PetscReal lambda, mu;     /* Lamé constants */
  PetscReal E0inv[9];       /* E₀⁻¹ */
  PetscReal c;              /* A = M + cK at the last factor (0: A = M) */
  PetscReal L[81];          /* Cholesky factor of A's F block when c > 0 (row-major, lower) */
  PetscBool lu;             /* L holds an LU factorization (A indefinite), with pivots piv */
  PetscInt  piv[9];
} PrbData;

/* F (row-major 3×3) from q: a copy, as q holds it row-wise. */
static inline void GetF(const PetscReal q[], PetscReal F[9]) { MbM3Copy(q, F); }

/* a = X − X̄ */
static inline void Arm(MbBody b, const PetscReal X[3], PetscReal a[3]) { MbV3Sub(X, b->mp.center, a); }

/* E₀⁻¹ from the mass properties (after creation, or BODY_CHARS) */
static PetscErrorCode PrbReset(MbBody b)
{
  PrbData *p = (PrbData *)b->data;
  PetscFunctionBegin;
  PetscCall(MbM3Invert(b->mp.euler, p->E0inv));
  PetscCall(PetscArrayzero(b->q, 12));
  b->q[FI(0, 0)] = b->q[FI(1, 1)] = b->q[FI(2, 2)] = 1.0;
  MbV3Copy(b->mp.center, &b->q[9]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrbCreate(MbBody b)
{
  PrbData *p;
  PetscFunctionBegin;
  PetscCall(PetscNew(&p));
  b->data = p;
  /* a flat shape has a singular Euler tensor: no pseudo-rigid motion out of its plane */
  PetscCheck(MbM3Det(b->mp.euler) > 1e-12 * PetscPowReal(MbM3Trace(b->mp.euler), 3), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "PSEUDO_RIGID body %" PetscInt_FMT ": the shape is degenerate: its Euler tensor has determinant %g for trace %g (a flat or line-like shape cannot deform homogeneously)", b->id, (double)MbM3Det(b->mp.euler),
             (double)MbM3Trace(b->mp.euler));
  PetscCall(MbM3Invert(b->mp.euler, p->E0inv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrbDestroy(MbBody b)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(b->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* q = [F row-wise, x̄]: det F > 0 */
static PetscErrorCode PrbCheckConf(MbBody b, const PetscReal q[])
{
  PetscReal F[9];
  PetscFunctionBegin;
  GetF(q, F);
  PetscCheck(MbM3Det(F) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "PSEUDO_RIGID body %" PetscInt_FMT ": the deformation gradient of conf must have det F > 0, got %g", b->id, (double)MbM3Det(F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrbMaterial(MbBody b, PetscReal E, PetscReal nu)
{
  PrbData *p = (PrbData *)b->data;
  PetscFunctionBegin;
  PetscCall(MbBodySvkLame(b, E, nu, &p->lambda, &p->mu));
  p->young   = E;
  p->poisson = nu;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckMaterial(MbBody b)
{
  PrbData *p = (PrbData *)b->data;
  PetscFunctionBegin;
  PetscCheck(p->young > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "PSEUDO_RIGID body %" PetscInt_FMT " has no elastic constants (MbBodySetMaterial)", b->id);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Green strain E, second Piola S and first Piola P = FS of F (all row-major). */
static void Stress(const PrbData *p, const PetscReal F[9], PetscReal E[9], PetscReal S[9], PetscReal P[9])
{
  PetscReal C[9], tr;
  MbM3TransposeMatMult(F, F, C);
  for (int k = 0; k < 9; k++) E[k] = 0.5 * C[k];
  for (int i = 0; i < 3; i++) E[4 * i] -= 0.5;
  tr = MbM3Trace(E);
  for (int k = 0; k < 9; k++) S[k] = 2 * p->mu * E[k];
  for (int i = 0; i < 3; i++) S[4 * i] += p->lambda * tr;
  MbM3MatMult(F, S, P);
}

/* K's F block (9×9, in q's order) at F: seed 003 eq. kfem for the homogeneous body. */
static void Tangent(MbBody b, const PetscReal F[9], PetscReal K[81])
{
  const PrbData  *p = (const PrbData *)b->data;
  const PetscReal V = b->mp.volume, lam = p->lambda, mu = p->mu;
  PetscReal       E[9], S[9], P[9], FFt[9], Ft[9];
  Stress(p, F, E, S, P);
  MbM3Transpose(F, Ft);
  MbM3MatMult(F, Ft, FFt);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int k = 0; k < 3; k++)
        for (int l = 0; l < 3; l++) {
          PetscReal v = lam * F[3 * i + j] * F[3 * k + l] + mu * F[3 * i + l] * F[3 * k + j];
          if (i == k) v += S[3 * l + j];
          if (j == l) v += mu * FFt[3 * i + k];
          K[9 * FI(i, j) + FI(k, l)] = V * v;
        }
}

static PetscErrorCode PrbTangent(MbBody b, PetscReal K[])
{
  PetscReal F[9], KF[81];
  PetscFunctionBegin;
  PetscCall(CheckMaterial(b));
  GetF(b->q, F);
  Tangent(b, F, KF);
  PetscCall(PetscArrayzero(K, 144));
  for (int r = 0; r < 9; r++)
    for (int c = 0; c < 9; c++) K[12 * r + c] = KF[9 * r + c];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrbKinetic(MbBody b, PetscReal *ek)
{
  const PetscReal *u = b->u, *E0 = b->mp.euler;
  PetscReal        t = 0;
  for (int i = 0; i < 3; i++) { /* row i of Ḟ: (Ḟ_i0, Ḟ_i1, Ḟ_i2) */
    PetscReal r[3] = {u[FI(i, 0)], u[FI(i, 1)], u[FI(i, 2)]}, Er[3];
    MbM3Mult(E0, r, Er);
    t += MbV3Dot(r, Er);
  }
  *ek = 0.5 * (t + b->mp.mass * MbV3Dot(&u[9], &u[9]));
  return PETSC_SUCCESS;
}

/* Solve L Lᵀ y = x for the 9×9 factor L (row-major, lower). */
static void CholSolve(const PetscReal L[81], const PetscReal x[9], PetscReal y[9])
{
  PetscReal z[9];
  for (int i = 0; i < 9; i++) {
    PetscReal s = x[i];
    for (int k = 0; k < i; k++) s -= L[9 * i + k] * z[k];
    z[i] = s / L[9 * i + i];
  }
  for (int i = 8; i >= 0; i--) {
    PetscReal s = z[i];
    for (int k = i + 1; k < 9; k++) s -= L[9 * k + i] * y[k];
    y[i] = s / L[9 * i + i];
  }
}

/* Cholesky of a symmetric 9×9 A into L; false when A is not positive definite. */
static PetscBool Chol(const PetscReal A[81], PetscReal L[81])
{
  for (int k = 0; k < 81; k++) L[k] = 0;
  for (int j = 0; j < 9; j++) {
    PetscReal s = A[9 * j + j];
    for (int k = 0; k < j; k++) s -= L[9 * j + k] * L[9 * j + k];
    if (!(s > 0)) return PETSC_FALSE;
    L[9 * j + j] = PetscSqrtReal(s);
    for (int i = j + 1; i < 9; i++) {
      PetscReal t = A[9 * i + j];
      for (int k = 0; k < j; k++) t -= L[9 * i + k] * L[9 * j + k];
      L[9 * i + j] = t / L[9 * j + j];
    }
  }
  return PETSC_TRUE;
}

/* LU with partial pivoting of a 9×9 A into LU (row-major, unit lower and upper together);
   false when A is singular to working precision. */
static PetscBool LU(const PetscReal A[81], PetscReal LU[81], PetscInt piv[9])
{
  PetscReal big = 0;
  for (int k = 0; k < 81; k++) LU[k] = A[k], big = PetscMax(big, PetscAbsReal(A[k]));
  for (int j = 0; j < 9; j++) {
    int p = j;
    for (int i = j + 1; i < 9; i++)
      if (PetscAbsReal(LU[9 * i + j]) > PetscAbsReal(LU[9 * p + j])) p = i;
    piv[j] = p;
    if (!(PetscAbsReal(LU[9 * p + j]) > 1e-14 * big)) return PETSC_FALSE;
    if (p != j)
      for (int k = 0; k < 9; k++) {
        PetscReal t   = LU[9 * j + k];
        LU[9 * j + k] = LU[9 * p + k], LU[9 * p + k] = t;
      }
    for (int i = j + 1; i < 9; i++) {
      PetscReal m = LU[9 * i + j] /= LU[10 * j];
      for (int k = j + 1; k < 9; k++) LU[9 * i + k] -= m * LU[9 * j + k];
    }
  }
  return PETSC_TRUE;
}

static void LUSolve(const PetscReal LU[81], const PetscInt piv[9], const PetscReal x[9], PetscReal y[9])
{
  for (int i = 0; i < 9; i++) y[i] = x[i];
  for (int j = 0; j < 9; j++)
    if (piv[j] != j) {
      PetscReal t = y[j];
      y[j] = y[piv[j]], y[piv[j]] = t;
    }
  for (int i = 0; i < 9; i++)
    for (int k = 0; k < i; k++) y[i] -= LU[9 * i + k] * y[k];
  for (int i = 8; i >= 0; i--) {
    for (int k = i + 1; k < 9; k++) y[i] -= LU[9 * i + k] * y[k];
    y[i] /= LU[10 * i];
  }
}

/* M's F block (9×9) in q's order: δ_ik (E₀)_jl */
static void MassBlock(MbBody b, PetscReal M[81])
{
  for (int k = 0; k < 81; k++) M[k] = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      for (int l = 0; l < 3; l++) M[9 * FI(i, j) + FI(i, l)] = b->mp.euler[3 * j + l];
}

static PetscErrorCode PrbFactor(MbBody b, PetscReal c)
{
  PrbData  *p = (PrbData *)b->data;
  PetscReal F[9], K[81], A[81];
  PetscFunctionBegin;
  p->c = c;
  if (c == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(CheckMaterial(b));
  GetF(b->q, F);
  Tangent(b, F, K);
  MassBlock(b, A);
  for (int k = 0; k < 81; k++) A[k] += c * K[k];
  p->lu = PETSC_FALSE;
  if (Chol(A, p->L)) PetscFunctionReturn(PETSC_SUCCESS);
  /* K of a stressed body is indefinite along its rotations: K(WF) = WP for skew W
     (objectivity, P(QF) = QP(F)), so (WF):K(WF) = −tr(Fᵀ W² P)·V has the sign of the
     stress, of order |S|V. Under compression, c|S|V > E₀ makes M + cK indefinite (a stiff
     cube landing at h = 1e-3: Y = 1e12, det F = 0.9998). A is then still the A of eq. (40),
     factorized by LU with partial pivoting; dropping the initial-stress term instead would
     treat it explicitly, stable only while h²|S|V/E₀ < 4. */
  PetscCheck(LU(A, p->L, p->piv), PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "PSEUDO_RIGID body %" PetscInt_FMT ": A = M + %g K is singular at det F = %g; take a smaller step", b->id, (double)c, (double)MbM3Det(F));
  p->lu = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrbInverse(MbBody b, PetscInt n, const PetscReal x[], PetscReal y[])
{
  const PrbData  *p  = (const PrbData *)b->data;
  const PetscReal im = 1.0 / b->mp.mass;
  for (PetscInt k = 0; k < n; k++, x += 12, y += 12) {
    if (p->c > 0 && p->lu)
      LUSolve(p->L, p->piv, x, y);
    else if (p->c > 0)
      CholSolve(p->L, x, y);
    else { /* Y = G E₀⁻¹, G_ij = x[FI(i, j)] */
      PetscReal t[9];
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) t[FI(i, j)] = x[FI(i, 0)] * p->E0inv[j] + x[FI(i, 1)] * p->E0inv[3 + j] + x[FI(i, 2)] * p->E0inv[6 + j];
      for (int e = 0; e < 9; e++) y[e] = t[e];
    }
    MbV3Scale(im, &x[9], &y[9]);
  }
  return PETSC_SUCCESS;
}

static PetscErrorCode PrbToSpatial(MbBody b, const PetscReal X[3], PetscReal x[3])
{
  PetscReal F[9], a[3];
  GetF(b->q, F);
  Arm(b, X, a);
  MbM3Mult(F, a, a);
  MbV3Add(&b->q[9], a, x);
  return PETSC_SUCCESS;
}

static PetscErrorCode PrbToReferential(MbBody b, PetscInt prim, const PetscReal x[3], PetscReal X[3])
{
  PetscReal F[9], Fi[9], a[3];
  PetscFunctionBegin;
  GetF(b->q, F);
  PetscCheck(MbM3Det(F) > 0, PETSC_COMM_SELF, PETSC_ERR_FP, "PSEUDO_RIGID body %" PetscInt_FMT ": det F = %g, the body is inverted or collapsed (take a smaller step)", b->id, (double)MbM3Det(F));
  PetscCall(MbM3Invert(F, Fi));
  MbV3Sub(x, &b->q[9], a);
  MbM3Mult(Fi, a, a);
  MbV3Add(a, b->mp.center, X);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ẋ = Ḟ (X − X̄) + v */
static PetscErrorCode PrbPointVelocity(MbBody b, const PetscReal u[], const PetscReal X[3], PetscReal v[3])
{
  PetscReal Fd[9], a[3];
  GetF(u, Fd);
  Arm(b, X, a);
  MbM3Mult(Fd, a, a);
  MbV3Add(&u[9], a, v);
  return PETSC_SUCCESS;
}

/* U_r = Σ_i base_ir ẋ_i, ẋ_i = Σ_j Ḟ_ij a_j + v_i: H[r][FI(i, j)] = base_ir a_j, H[r][9 + i] = base_ir */
static PetscErrorCode PrbOperatorH(MbBody b, const PetscReal X[3], const PetscReal base[9], PetscReal H[])
{
  PetscReal a[3];
  Arm(b, X, a);
  for (int r = 0; r < 3; r++)
    for (int i = 0; i < 3; i++) {
      const PetscReal t = base[3 * i + r];
      for (int j = 0; j < 3; j++) H[12 * r + FI(i, j)] = t * a[j];
      H[12 * r + 9 + i] = t;
    }
  return PETSC_SUCCESS;
}

/* ∫ x × ρẋ = axial(F E₀ Ḟᵀ) + x̄ × m v, the cross terms vanishing as ∫ρ(X − X̄) = 0 */
static PetscErrorCode PrbMomentum(MbBody b, PetscReal ang[3], PetscReal lin[3])
{
  PetscReal F[9], Fd[9], FE[9], Fdt[9], G[9], xv[3];
  GetF(b->q, F);
  GetF(b->u, Fd);
  MbM3MatMult(F, b->mp.euler, FE);
  MbM3Transpose(Fd, Fdt);
  MbM3MatMult(FE, Fdt, G);
  ang[0] = G[5] - G[7];
  ang[1] = G[6] - G[2];
  ang[2] = G[1] - G[3];
  MbV3Scale(b->mp.mass, &b->u[9], lin);
  MbV3Cross(&b->q[9], lin, xv);
  MbV3Add(ang, xv, ang);
  return PETSC_SUCCESS;
}

/* Ḟ = hat(ω) F (spatial) or F hat(Ω) (referential): the rigid motions of the body */
static PetscErrorCode PrbSetVelocity(MbBody b, const PetscReal linear[3], const PetscReal angular[3], PetscBool spatial)
{
  PetscReal F[9], W[9], Fd[9];
  if (angular) {
    GetF(b->q, F);
    MbM3Hat(angular, W);
    if (spatial)
      MbM3MatMult(W, F, Fd);
    else
      MbM3MatMult(F, W, Fd);
    MbM3Copy(Fd, b->u);
  }
  if (linear) MbV3Copy(linear, &b->u[9]);
  return PETSC_SUCCESS;
}

/* A rigid motion of the placement, x ↦ R(x − c) + c + d: F ← RF, x̄ ← R(x̄ − c) + c + d. */
static PetscErrorCode PrbTransform(MbBody b, const PetscReal R[9], const PetscReal c[3], const PetscReal d[3])
{
  PetscReal F[9], RF[9], y[3];
  GetF(b->q, F);
  MbM3MatMult(R, F, RF);
  MbM3Copy(RF, b->q);
  MbV3Sub(&b->q[9], c, y);
  MbM3Mult(R, y, y);
  MbV3Add(y, c, y);
  MbV3Add(y, d, &b->q[9]);
  return PETSC_SUCCESS;
}

/* q, and [ω, v] with ω the axial vector of the skew part of the velocity gradient ḞF⁻¹ */
static PetscErrorCode PrbFrameState(MbBody b, PetscReal q[12], PetscReal u[6])
{
  PetscReal F[9], Fi[9], Fd[9], G[9];
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(q, b->q, 12));
  GetF(b->q, F);
  GetF(b->u, Fd);
  PetscCall(MbM3Invert(F, Fi));
  MbM3MatMult(Fd, Fi, G);
  u[0] = 0.5 * (G[7] - G[5]);
  u[1] = 0.5 * (G[2] - G[6]);
  u[2] = 0.5 * (G[3] - G[1]);
  MbV3Copy(&b->u[9], &u[3]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A = F, B = Ḟ */
static PetscErrorCode PrbAffine(MbBody b, PetscReal m[24])
{
  GetF(b->q, m);
  GetF(b->u, &m[9]);
  MbV3Copy(&b->q[9], &m[18]);
  MbV3Copy(&b->u[9], &m[21]);
  return PETSC_SUCCESS;
}

/* From a frame: conf is q (F row-wise, x̄), and Ḟ and v are the affine row's B and v */
static PetscErrorCode PrbFrameRestore(MbBody b, const PetscReal conf[12], const PetscReal velo[6], const PetscReal m[24], PetscInt n, const PetscReal nodal[])
{
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(b->q, conf, 12));
  PetscCall(PetscArraycpy(b->u, &m[9], 9)); /* B row-major: Ḟ row-wise, as u keeps it */
  MbV3Copy(&m[21], &b->u[9]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ‖F a‖ ≤ ‖F‖_F ‖a‖ for the vertices; a sphere keeps its radius (its centre moves with F). */
static PetscErrorCode PrbBound(MbBody b, PetscReal c[3], PetscReal *r)
{
  PetscReal n = 0;
  for (int k = 0; k < 9; k++) n += b->q[k] * b->q[k];
  MbV3Copy(&b->q[9], c);
  *r = PetscMax(PetscSqrtReal(n), 1.0) * MbBodyExtent(b);
  return PETSC_SUCCESS;
}

/* A torque T as the couple f_F = ½ hat(T) F⁻ᵀ: for Ḟ = hat(ω)F its power f_F : Ḟ =
   tr(F f_Fᵀ hat(ω)) = −½ tr(hat(T) hat(ω)) = T·ω, as a torque's on a rigid motion. */
static PetscErrorCode AddTorque(const PetscReal F[9], const PetscReal T[3], PetscReal f[])
{
  PetscReal Fi[9], W[9], C[9];
  PetscFunctionBegin;
  PetscCall(MbM3Invert(F, Fi));
  MbM3Hat(T, W);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) C[3 * i + j] = 0.5 * (W[3 * i] * Fi[j] + W[3 * i + 1] * Fi[3 + j] + W[3 * i + 2] * Fi[6 + j]); /* ½ W F⁻ᵀ */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) f[FI(i, j)] += C[3 * i + j];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f_F += P ⊗ (X − X̄), f_x̄ += P */
static void AddForce(const PetscReal P[3], const PetscReal a[3], PetscReal f[])
{
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) f[FI(i, j)] += P[i] * a[j];
    f[9 + i] += P[i];
  }
}

/* External forces at the current q (the half step inside a step); convected directions are
   pushed forward by F (for a rigid motion, F = Λ, as a rigid body's). A load callback
   returns the rigid 9-tuple: a force at the mass centre, a spatial torque and a convected
   torque. */
static PetscErrorCode PrbExternal(MbBody b, PetscReal t, PetscReal h, const PetscReal g[3], PetscReal f[])
{
  PetscReal F[9];
  PetscFunctionBegin;
  GetF(b->q, F);
  PetscCall(PetscArrayzero(f, 12));
  if (g) MbV3Scale(b->mp.mass, g, &f[9]);
  for (PetscInt i = 0; i < b->nload; i++) {
    MbLoad   *l = &b->load[i];
    PetscReal d[3], v = l->value;
    if (l->fn) {
      PetscReal out[12], zero[3] = {0, 0, 0}, T[3];
      PetscInt  n = 9;
      PetscCall(l->fn(l->ctx, b, b->q, b->u, t, h, &n, out));
      PetscCheck(n == 9 || n == 12, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "body %" PetscInt_FMT ": a load callback of a PSEUDO_RIGID body returns 9 or 12 numbers, got %" PetscInt_FMT, b->id, n);
      for (PetscInt k = 0; k < n; k++) PetscCheck(isfinite(out[k]), PETSC_COMM_SELF, PETSC_ERR_FP, "body %" PetscInt_FMT ": load callback returned a non-finite value %g at position %" PetscInt_FMT, b->id, (double)out[k], k);
      if (n == 12) { /* the generalized force [f_F row-wise, f_x̄], as Solfec's callbacks give it */
        for (int k = 0; k < 12; k++) f[k] += out[k];
        continue;
      }
      AddForce(&out[0], zero, f);
      MbM3Mult(F, &out[6], T);
      MbV3Add(T, &out[3], T);
      PetscCall(AddTorque(F, T, f));
      continue;
    }
    if (l->ts) PetscCall(MbTimeSeriesEvaluate(l->ts, t, &v));
    MbV3Scale(v, l->dir, d);
    if (l->frame == MB_FRAME_CONVECTED) MbM3Mult(F, d, d);
    if (l->kind == MB_LOAD_FORCE) {
      PetscReal a[3];
      Arm(b, l->X, a);
      AddForce(d, a, f);
    } else
      PetscCall(AddTorque(F, d, f));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* f = [V P̄ + η K Ḟ, 0] */
static PetscErrorCode PrbInternal(MbBody b, const PetscReal u[], PetscReal f[])
{
  PrbData  *p = (PrbData *)b->data;
  PetscReal F[9], E[9], S[9], P[9];
  PetscFunctionBegin;
  PetscCall(CheckMaterial(b));
  GetF(b->q, F);
  Stress(p, F, E, S, P);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) f[FI(i, j)] = b->mp.volume * P[3 * i + j];
  f[9] = f[10] = f[11] = 0;
  if (b->damping > 0) {
    PetscReal K[81];
    Tangent(b, F, K);
    for (int r = 0; r < 9; r++) {
      PetscReal s = 0;
      for (int c = 0; c < 9; c++) s += K[9 * r + c] * u[c];
      f[r] += b->damping * s;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrbStrainEnergy(MbBody b, PetscReal *e)
{
  PrbData  *p = (PrbData *)b->data;
  PetscReal F[9], E[9], S[9], P[9], tr, ee = 0;
  GetF(b->q, F);
  Stress(p, F, E, S, P);
  tr = MbM3Trace(E);
  for (int k = 0; k < 9; k++) ee += E[k] * E[k];
  *e = b->mp.volume * (0.5 * p->lambda * tr * tr + p->mu * ee);
  return PETSC_SUCCESS;
}

/* σ = J⁻¹ P Fᵀ */
static PetscErrorCode PrbStress(MbBody b, PetscReal sigma[9])
{
  PrbData  *p = (PrbData *)b->data;
  PetscReal F[9], E[9], S[9], P[9], J;
  GetF(b->q, F);
  Stress(p, F, E, S, P);
  J = MbM3Det(F);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) sigma[3 * i + j] = (P[3 * i] * F[3 * j] + P[3 * i + 1] * F[3 * j + 1] + P[3 * i + 2] * F[3 * j + 2]) / J;
  return PETSC_SUCCESS;
}

/* Largest eigenvalue of the symmetric 9×9 A by cyclic Jacobi rotations (A is overwritten). */
static PetscReal LargestEigenvalue(PetscReal A[81])
{
  for (int sweep = 0; sweep < 50; sweep++) {
    PetscReal off = 0, diag = 0;
    for (int i = 0; i < 9; i++) {
      diag += A[10 * i] * A[10 * i];
      for (int j = i + 1; j < 9; j++) off += A[9 * i + j] * A[9 * i + j];
    }
    if (off <= 1e-30 * diag) break;
    for (int p = 0; p < 9; p++)
      for (int q = p + 1; q < 9; q++) {
        PetscReal apq = A[9 * p + q], theta, t, c, s;
        if (apq == 0) continue;
        theta = (A[9 * q + q] - A[9 * p + p]) / (2 * apq);
        t     = (theta >= 0 ? 1.0 : -1.0) / (PetscAbsReal(theta) + PetscSqrtReal(theta * theta + 1));
        c     = 1 / PetscSqrtReal(t * t + 1);
        s     = t * c;
        for (int k = 0; k < 9; k++) { /* columns p, q */
          PetscReal akp = A[9 * k + p], akq = A[9 * k + q];
          A[9 * k + p] = c * akp - s * akq;
          A[9 * k + q] = s * akp + c * akq;
        }
        for (int k = 0; k < 9; k++) { /* rows p, q */
          PetscReal apk = A[9 * p + k], aqk = A[9 * q + k];
          A[9 * p + k] = c * apk - s * aqk;
          A[9 * q + k] = s * apk + c * aqk;
        }
      }
  }
  PetscReal m = A[0];
  for (int i = 1; i < 9; i++) m = PetscMax(m, A[10 * i]);
  return m;
}

/* ω²_max of K x = ω² M x at the current F (the reference one before a run), from the
   symmetric L⁻¹ K L⁻ᵀ, M = L Lᵀ; the bound of the explicit leap-frog with
   stiffness-proportional damping, h < (2/ω)(√(1+ζ²) − ζ), ζ = ηω/2. */
static PetscErrorCode PrbCriticalStep(MbBody b, PetscReal *h)
{
  PetscReal F[9], K[81], M[81], L[81], C[81], w, z;
  PetscFunctionBegin;
  PetscCall(CheckMaterial(b));
  GetF(b->q, F);
  Tangent(b, F, K);
  MassBlock(b, M);
  PetscCheck(Chol(M, L), PETSC_COMM_SELF, PETSC_ERR_PLIB, "PSEUDO_RIGID body %" PetscInt_FMT ": the mass matrix is not positive definite", b->id);
  for (int c = 0; c < 9; c++) { /* C = L⁻¹ K L⁻ᵀ: column c of L⁻¹K by forward substitution, then the same from the right */
    for (int i = 0; i < 9; i++) {
      PetscReal s = K[9 * i + c];
      for (int k = 0; k < i; k++) s -= L[9 * i + k] * C[9 * k + c];
      C[9 * i + c] = s / L[10 * i];
    }
  }
  for (int r = 0; r < 9; r++) { /* row r of (L⁻¹K) L⁻ᵀ: solve L y = row r */
    PetscReal y[9];
    for (int i = 0; i < 9; i++) {
      PetscReal s = C[9 * r + i];
      for (int k = 0; k < i; k++) s -= L[9 * i + k] * y[k];
      y[i] = s / L[10 * i];
    }
    for (int i = 0; i < 9; i++) C[9 * r + i] = y[i];
  }
  for (int i = 0; i < 9; i++) /* symmetrize the round-off */
    for (int j = i + 1; j < 9; j++) C[9 * i + j] = C[9 * j + i] = 0.5 * (C[9 * i + j] + C[9 * j + i]);
  w  = PetscSqrtReal(PetscMax(LargestEigenvalue(C), 0));
  z  = 0.5 * b->damping * w;
  *h = w > 0 ? (2 / w) * (PetscSqrtReal(1 + z * z) - z) : PETSC_MAX_REAL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrbPackSize(MbBody b, size_t *n)
{
  *n = 2 * sizeof(PetscReal);
  return PETSC_SUCCESS;
}

static PetscErrorCode PrbPack(MbBody b, char *buf)
{
  const PrbData *p = (const PrbData *)b->data;
  memcpy(buf, &p->young, sizeof(PetscReal));
  memcpy(buf + sizeof(PetscReal), &p->poisson, sizeof(PetscReal));
  return PETSC_SUCCESS;
}

static PetscErrorCode PrbUnpack(MbBody b, const char *buf, size_t len)
{
  PetscReal E, nu;
  PetscFunctionBegin;
  PetscCheck(len == 2 * sizeof(PetscReal), PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed PSEUDO_RIGID body %" PetscInt_FMT ": %zu bytes of material, expected %zu", b->id, len, 2 * sizeof(PetscReal));
  memcpy(&E, buf, sizeof(PetscReal));
  memcpy(&nu, buf + sizeof(PetscReal), sizeof(PetscReal));
  if (E > 0) PetscCall(PrbMaterial(b, E, nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* u = (Ḟ, v): the last three are lengths per time, Ḟ a rate */
static PetscBool PrbLengthDof(MbBody b, PetscInt j) { return j >= 9 ? PETSC_TRUE : PETSC_FALSE; }

static const MbBodyOps PseudoRigidOps = {
    .name           = MBBODYPSEUDORIGID,
    .length_dof     = PrbLengthDof,
    .nq             = 12,
    .nu             = 12,
    .movable        = PETSC_TRUE,
    .torque         = PETSC_TRUE,
    .traits         = MB_BODY_TRAIT_LINEAR,
    .scheme         = "DEF_EXP",
    .create         = PrbCreate,
    .destroy        = PrbDestroy,
    .check_conf     = PrbCheckConf,
    .reset          = PrbReset,
    .kinetic        = PrbKinetic,
    .inverse        = PrbInverse,
    .external       = PrbExternal,
    .to_spatial     = PrbToSpatial,
    .to_referential = PrbToReferential,
    .point_velocity = PrbPointVelocity,
    .operator_h     = PrbOperatorH,
    .momentum       = PrbMomentum,
    .set_velocity   = PrbSetVelocity,
    .transform      = PrbTransform,
    .bound          = PrbBound,
    .frame_state    = PrbFrameState,
    .affine         = PrbAffine,
    .frame_restore  = PrbFrameRestore,
    .material       = PrbMaterial,
    .internal       = PrbInternal,
    .tangent        = PrbTangent,
    .factor         = PrbFactor,
    .strain_energy  = PrbStrainEnergy,
    .critical_step  = PrbCriticalStep,
    .stress         = PrbStress,
    .pack_size      = PrbPackSize,
    .pack           = PrbPack,
    .unpack         = PrbUnpack,
};

PetscErrorCode MbBodyKindRegister_PseudoRigid(void) { return MbBodyKindRegister(MBBODYPSEUDORIGID, &PseudoRigidOps); }
