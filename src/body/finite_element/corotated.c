/* Solfec-1.0's 'BC' form of finite-element bodies ("body co-rotational"; Kaczmarczyk et al.
   2012 for the rotation, parmes TR1 for the time stepping): linear elasticity in a frame
   that turns with the body. With Z the referential nodes, x = Z + q the current ones and R
   the body's rotation, the co-rotated displacement is a = R̲ᵀx − Z (R̲: R at every node) and
     f_int = R̲ K₀ a,   W = ½ aᵀ K₀ a,   the damping force η R̲ K₀ R̲ᵀ u,
   K₀ the stiffness at the reference state (SVK at F = I: small-strain elasticity). The
   lumped M is the same at every node in all directions, so A = M + c R̲K₀R̲ᵀ = R̲(M + cK₀)R̲ᵀ:
   DEF_LIM factorizes A₀ = M + cK₀ once for the whole run and applies A⁻¹ = R̲ A₀⁻¹ R̲ᵀ
   (stiffness.c).

   R is the rotation of the polar decomposition of the volume-averaged deformation gradient
   F̄ = (1/V) ∫ F dV = I + (1/V) Σ_a q_a ⊗ ∫ ∂N_a/∂X dV. Solfec finds R by Gauss–Newton from
   the previous R on h(R) = ∫_∂Ω N × Rᵀx dA = 0; by the divergence theorem h = 0 says RᵀF̄
   is symmetric, which the polar rotation makes (positive definite too, the branch Solfec's
   continuation follows while F̄ stays far from singular). In closed form R depends on q
   alone: a checkpoint needs nothing more, and a restart or another rank gives the same R. */
#include <moreau/mbmath.h>
#include "fem.h"

/* ∫ ∂N_a/∂X dV per node (3 each) and the volume: made once from the quadrature tables */
static PetscErrorCode SetUp(Fem *m)
{
  PetscFunctionBegin;
  if (m->gbar) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCalloc1(3 * m->nn, &m->gbar));
  m->vol = 0;
  for (PetscInt e = 0; e < m->ne; e++) {
    const MbFemElement *el  = MbFemElemOf(m, e);
    const PetscInt     *nod = &m->enode[m->eptr[e]];
    for (PetscInt k = 0; k < el->nqp; k++) {
      const PetscReal *g = MbFemPoint(m, e, k, el->nen), w = g[3 * el->nen];
      for (PetscInt a = 0; a < el->nen; a++)
        for (int d = 0; d < 3; d++) m->gbar[3 * nod[a] + d] += w * g[3 * a + d];
      m->vol += w;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemCorotation(Fem *m, const PetscReal q[], PetscInt id, PetscReal R[9])
{
  PetscReal F[9] = {0}, X[9], det;
  PetscFunctionBegin;
  PetscCall(SetUp(m));
  for (PetscInt a = 0; a < m->nn; a++)
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) F[3 * i + j] += q[3 * a + i] * m->gbar[3 * a + j];
  for (int k = 0; k < 9; k++) F[k] /= m->vol;
  F[0] += 1, F[4] += 1, F[8] += 1;
  det = MbM3Det(F);
  PetscCheck(det > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT " (form 'BC'): the mean deformation gradient has determinant %g: the body is turned inside out, and has no co-rotated frame", id, (double)det);
  /* the polar rotation by Newton's iteration X ← ½(X + X⁻ᵀ) (Higham 1986), scaled by
     |det X|^(-1/3) while far off, quadratic near the answer */
  MbM3Copy(F, X);
  for (int it = 0; it < 100; it++) {
    PetscReal C[9], d = MbM3Det(X), g = it < 6 ? PetscPowReal(PetscAbsReal(d), -1.0 / 3) : 1, diff = 0;
    C[0] = X[4] * X[8] - X[5] * X[7], C[1] = X[5] * X[6] - X[3] * X[8], C[2] = X[3] * X[7] - X[4] * X[6]; /* cofactors: X⁻ᵀ = C / det X */
    C[3] = X[2] * X[7] - X[1] * X[8], C[4] = X[0] * X[8] - X[2] * X[6], C[5] = X[1] * X[6] - X[0] * X[7];
    C[6] = X[1] * X[5] - X[2] * X[4], C[7] = X[2] * X[3] - X[0] * X[5], C[8] = X[0] * X[4] - X[1] * X[3];
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        const PetscReal x = 0.5 * (g * X[3 * i + j] + C[3 * i + j] / (d * g));
        diff              = PetscMax(diff, PetscAbsReal(x - X[3 * i + j]));
        R[3 * i + j]      = x;
      }
    MbM3Copy(R, X);
    if (diff < 1e-15) break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a = R̲ᵀ(Z + q) − Z less its mean: K₀ takes no force from a translation, and the body's
   own (R̲ᵀ of its shift, metres where a is micrometres) would only add rounding. Formed as
     a = R̲ᵀq + (R̲ᵀ − I)(Z − c),   c the mean of Z,
   which differs from R̲ᵀ(Z + q) − Z by the translation (Rᵀ − I)c only: Z + q rounds q away
   below ε|Z| (a mesh 10 m from the origin keeps nothing of q under 2e-15 m), and the
   quantized a then gives an internal force that is no gradient of W, which pumps energy
   into a body at rest (tests/BM22/BM22_hexa.py blew up from it); Solfec-1.0's fem.c forms
   (I − R)Z + q for the same reason of precision. */
static void Corotated(const Fem *m, const PetscReal R[9], const PetscReal q[], PetscReal a[])
{
  PetscReal mean[3] = {0, 0, 0}, c[3] = {0, 0, 0}, D[9];
  for (PetscInt n = 0; n < m->nn; n++)
    for (int d = 0; d < 3; d++) c[d] += m->X[3 * n + d];
  for (int d = 0; d < 3; d++) c[d] /= m->nn;
  for (int i = 0; i < 3; i++) /* D = Rᵀ − I */
    for (int j = 0; j < 3; j++) D[3 * i + j] = R[3 * j + i] - (i == j ? 1 : 0);
  for (PetscInt n = 0; n < m->nn; n++) {
    PetscReal z[3];
    for (int d = 0; d < 3; d++) z[d] = m->X[3 * n + d] - c[d];
    for (int i = 0; i < 3; i++) {
      a[3 * n + i] = R[i] * q[3 * n] + R[3 + i] * q[3 * n + 1] + R[6 + i] * q[3 * n + 2] + D[3 * i] * z[0] + D[3 * i + 1] * z[1] + D[3 * i + 2] * z[2];
      mean[i] += a[3 * n + i];
    }
  }
  for (PetscInt n = 0; n < m->nn; n++)
    for (int i = 0; i < 3; i++) a[3 * n + i] -= mean[i] / m->nn;
}

/* y = K₀ x by the assembled K₀ */
static PetscErrorCode K0Mult(Fem *m, const PetscReal x[], PetscReal y[])
{
  PetscFunctionBegin;
  if (!m->K) {
    PetscReal *zero;
    PetscCall(PetscCalloc1(3 * m->nn, &zero));
    PetscCall(MbFemAssembleK(m, zero));
    PetscCall(PetscFree(zero));
  }
  PetscCall(MbFemArrayOp(m, MatMult, m->K, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemCorotatedInternal(MbBody b, const PetscReal u[], PetscReal f[])
{
  Fem      *m = (Fem *)b->data;
  PetscReal R[9], *a, *y;
  PetscFunctionBegin;
  PetscCall(MbFemCorotation(m, b->q, b->id, R));
  PetscCall(PetscMalloc2(b->nu, &a, b->nu, &y));
  Corotated(m, R, b->q, a);
  if (b->damping > 0) /* a + η R̲ᵀu: the damping force η R̲K₀R̲ᵀu in the same product */
    for (PetscInt n = 0; n < m->nn; n++)
      for (int i = 0; i < 3; i++) a[3 * n + i] += b->damping * (R[i] * u[3 * n] + R[3 + i] * u[3 * n + 1] + R[6 + i] * u[3 * n + 2]);
  PetscCall(K0Mult(m, a, y));
  for (PetscInt n = 0; n < m->nn; n++) /* f = R̲ y */
    for (int i = 0; i < 3; i++) f[3 * n + i] = R[3 * i] * y[3 * n] + R[3 * i + 1] * y[3 * n + 1] + R[3 * i + 2] * y[3 * n + 2];
  PetscCall(PetscFree2(a, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemCorotatedEnergy(MbBody b, PetscReal *W)
{
  Fem      *m = (Fem *)b->data;
  PetscReal R[9], *a, *y, s = 0;
  PetscFunctionBegin;
  PetscCall(MbFemCorotation(m, b->q, b->id, R));
  PetscCall(PetscMalloc2(b->nu, &a, b->nu, &y));
  Corotated(m, R, b->q, a);
  if (m->rform && m->nb) { /* a reduced form: the energy of a's part in the base (reduced.c) */
    PetscCall(MbFemReducedEnergy(m, a, b->id, W));
    PetscCall(PetscFree2(a, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(K0Mult(m, a, y));
  for (PetscInt k = 0; k < b->nu; k++) s += a[k] * y[k];
  *W = 0.5 * s;
  PetscCall(PetscFree2(a, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}
