/* Total Lagrangian Saint Venant–Kirchhoff kernels at one quadrature point (seed 003,
   "Finite element dynamics": f_int = ∫ P ∇N dV over the reference volume, K = ∂f_int/∂q).
   With displacements u_a at the nodes and referential gradients G_a = ∂N_a/∂X:
     F = I + Σ_a u_a ⊗ G_a,  E = ½(FᵀF − I),  S = λ tr(E) I + 2μ E,  P = F S,
     f_a = w P G_a,  W = w (λ/2 tr(E)² + μ E:E).
   The tangent is applied, not formed: for a direction v, dF = Σ v_a ⊗ G_a,
     dE = sym(Fᵀ dF),  dS = λ tr(dE) I + 2μ dE,  dP = dF S + F dS,  (K v)_a = w dP G_a,
   which serves the critical-step estimate and a matrix-free K v (the damping force). */
#include "fem.h"

/* The kernels are written once with the node count nen as a parameter and instantiated for
   each element type's constant nen (KERNEL_DISPATCH), so that the compiler unrolls the node
   loops and keeps the 3×3 sums in registers: with nen known only at run time a HEX8 point
   cost 1,760 instructions for the force, 1,200 for the energy alone (callgrind). */
#define KERNEL static inline __attribute__((always_inline))
#define KERNEL_DISPATCH(nen, call)                                                                                                                                                                                                                       \
  do {                                                                                                                                                                                                                                                   \
    switch (nen) {                                                                                                                                                                                                                                       \
    case 4: {                                                                                                                                                                                                                                            \
      const PetscInt nen_ = 4;                                                                                                                                                                                                                           \
      call;                                                                                                                                                                                                                                              \
    } break;                                                                                                                                                                                                                                             \
    case 8: {                                                                                                                                                                                                                                            \
      const PetscInt nen_ = 8;                                                                                                                                                                                                                           \
      call;                                                                                                                                                                                                                                              \
    } break;                                                                                                                                                                                                                                             \
    case 6: {                                                                                                                                                                                                                                            \
      const PetscInt nen_ = 6;                                                                                                                                                                                                                           \
      call;                                                                                                                                                                                                                                              \
    } break;                                                                                                                                                                                                                                             \
    default: {                                                                                                                                                                                                                                           \
      const PetscInt nen_ = nen;                                                                                                                                                                                                                         \
      call;                                                                                                                                                                                                                                              \
    }                                                                                                                                                                                                                                                    \
    }                                                                                                                                                                                                                                                    \
  } while (0)

/* Σ_a x_a ⊗ G_a (row-major): F − I from u, dF from v */
KERNEL void Grad(PetscInt nen, const PetscReal G[], const PetscReal x[], PetscReal D[9])
{
  PetscReal d00 = 0, d01 = 0, d02 = 0, d10 = 0, d11 = 0, d12 = 0, d20 = 0, d21 = 0, d22 = 0;
#pragma GCC unroll 8
  for (PetscInt a = 0; a < nen; a++) {
    const PetscReal x0 = x[3 * a], x1 = x[3 * a + 1], x2 = x[3 * a + 2], g0 = G[3 * a], g1 = G[3 * a + 1], g2 = G[3 * a + 2];
    d00 += x0 * g0, d01 += x0 * g1, d02 += x0 * g2;
    d10 += x1 * g0, d11 += x1 * g1, d12 += x1 * g2;
    d20 += x2 * g0, d21 += x2 * g1, d22 += x2 * g2;
  }
  D[0] = d00, D[1] = d01, D[2] = d02, D[3] = d10, D[4] = d11, D[5] = d12, D[6] = d20, D[7] = d21, D[8] = d22;
}

/* F (row-major) from u and G */
KERNEL void DefGrad(PetscInt nen, const PetscReal G[], const PetscReal u[], PetscReal F[9])
{
  Grad(nen, G, u, F);
  F[0] += 1, F[4] += 1, F[8] += 1;
}

/* S from F; returns tr E and E:E through tE, EE (may be NULL) */
KERNEL void Svk(const MbSvk *m, const PetscReal F[9], PetscReal S[9], PetscReal *tE, PetscReal *EE)
{
  PetscReal E[9], tr;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) E[3 * i + j] = 0.5 * (F[i] * F[j] + F[3 + i] * F[3 + j] + F[6 + i] * F[6 + j] - (i == j));
  tr = E[0] + E[4] + E[8];
  for (int k = 0; k < 9; k++) S[k] = 2 * m->mu * E[k];
  S[0] += m->lambda * tr, S[4] += m->lambda * tr, S[8] += m->lambda * tr;
  if (tE) *tE = tr;
  if (EE) {
    PetscReal s = 0;
    for (int k = 0; k < 9; k++) s += E[k] * E[k];
    *EE = s;
  }
}

/* y_a += w P G_a */
KERNEL void AddPG(PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal P[9], PetscReal y[])
{
  const PetscReal p00 = w * P[0], p01 = w * P[1], p02 = w * P[2], p10 = w * P[3], p11 = w * P[4], p12 = w * P[5], p20 = w * P[6], p21 = w * P[7], p22 = w * P[8];
#pragma GCC unroll 8
  for (PetscInt a = 0; a < nen; a++) {
    const PetscReal g0 = G[3 * a], g1 = G[3 * a + 1], g2 = G[3 * a + 2];
    y[3 * a] += p00 * g0 + p01 * g1 + p02 * g2;
    y[3 * a + 1] += p10 * g0 + p11 * g1 + p12 * g2;
    y[3 * a + 2] += p20 * g0 + p21 * g1 + p22 * g2;
  }
}

KERNEL void Mult(const PetscReal A[9], const PetscReal B[9], PetscReal C[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}

KERNEL void Force(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], PetscReal f[], PetscReal *W)
{
  PetscReal F[9], S[9], P[9], tE, EE;
  DefGrad(nen, G, u, F);
  Svk(m, F, S, &tE, &EE);
  if (W) *W += w * (0.5 * m->lambda * tE * tE + m->mu * EE);
  if (!f) return;
  Mult(F, S, P);
  AddPG(nen, G, w, P, f);
}

void MbSvkForce(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], PetscReal f[], PetscReal *W) { KERNEL_DISPATCH(nen, Force(m, nen_, G, w, u, f, W)); }

/* dP = dF S + F dS, the first Piola stress's change along the nodal velocities v (dF = Σ v_a ⊗ G_a,
   dE = ½(Fᵀ dF + dFᵀ F), dS = λ tr(dE) I + 2μ dE), at the point's F and S */
KERNEL void DirectionalPiola(const MbSvk *m, PetscInt nen, const PetscReal G[], const PetscReal F[9], const PetscReal S[9], const PetscReal v[], PetscReal dP[9])
{
  PetscReal dF[9], dE[9], dS[9], A[9], B[9], tr;
  Grad(nen, G, v, dF);
  for (int i = 0; i < 3; i++) /* dE = ½(Fᵀ dF + dFᵀ F) */
    for (int j = 0; j < 3; j++) {
      PetscReal s = 0;
      for (int k = 0; k < 3; k++) s += F[3 * k + i] * dF[3 * k + j] + dF[3 * k + i] * F[3 * k + j];
      dE[3 * i + j] = 0.5 * s;
    }
  tr = dE[0] + dE[4] + dE[8];
  for (int k = 0; k < 9; k++) dS[k] = 2 * m->mu * dE[k];
  dS[0] += m->lambda * tr, dS[4] += m->lambda * tr, dS[8] += m->lambda * tr;
  Mult(dF, S, A);
  Mult(F, dS, B);
  for (int k = 0; k < 9; k++) dP[k] = A[k] + B[k];
}

KERNEL void TangentMult(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], const PetscReal v[], PetscReal y[])
{
  PetscReal F[9], S[9], dP[9];
  DefGrad(nen, G, u, F);
  Svk(m, F, S, NULL, NULL);
  DirectionalPiola(m, nen, G, F, S, v, dP);
  AddPG(nen, G, w, dP, y);
}

void MbSvkTangentMult(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], const PetscReal v[], PetscReal y[]) { KERNEL_DISPATCH(nen, TangentMult(m, nen_, G, w, u, v, y)); }

KERNEL void ForceDamped(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], const PetscReal v[], PetscReal f[])
{
  PetscReal F[9], S[9], P[9], dP[9];
  DefGrad(nen, G, u, F);
  Svk(m, F, S, NULL, NULL);
  Mult(F, S, P);
  DirectionalPiola(m, nen, G, F, S, v, dP);
  for (int k = 0; k < 9; k++) P[k] += dP[k];
  AddPG(nen, G, w, P, f);
}

void MbSvkForceDamped(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], const PetscReal v[], PetscReal f[]) { KERNEL_DISPATCH(nen, ForceDamped(m, nen_, G, w, u, v, f)); }

void MbSvkCauchy(const MbSvk *m, PetscInt nen, const PetscReal G[], const PetscReal u[], PetscReal sigma[9])
{
  PetscReal F[9], S[9], FS[9], J;
  DefGrad(nen, G, u, F);
  Svk(m, F, S, NULL, NULL);
  Mult(F, S, FS);
  J = F[0] * (F[4] * F[8] - F[5] * F[7]) - F[1] * (F[3] * F[8] - F[5] * F[6]) + F[2] * (F[3] * F[7] - F[4] * F[6]);
  for (int i = 0; i < 3; i++) /* σ = J⁻¹ (F S) Fᵀ */
    for (int j = 0; j < 3; j++) sigma[3 * i + j] = (FS[3 * i] * F[3 * j] + FS[3 * i + 1] * F[3 * j + 1] + FS[3 * i + 2] * F[3 * j + 2]) / J;
}

void MbSvkStiffness(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], PetscReal K[])
{
  PetscReal      F[9], S[9], FFt[9], f[3 * MB_FEM_MAX_NEN], Sg[3 * MB_FEM_MAX_NEN];
  const PetscInt n = 3 * nen;
  DefGrad(nen, G, u, F);
  Svk(m, F, S, NULL, NULL);
  for (int i = 0; i < 3; i++)
    for (int k = 0; k < 3; k++) FFt[3 * i + k] = F[3 * i] * F[3 * k] + F[3 * i + 1] * F[3 * k + 1] + F[3 * i + 2] * F[3 * k + 2];
  for (PetscInt a = 0; a < nen; a++) {
    const PetscReal *g = &G[3 * a];
    for (int i = 0; i < 3; i++) {
      f[3 * a + i]  = F[3 * i] * g[0] + F[3 * i + 1] * g[1] + F[3 * i + 2] * g[2];
      Sg[3 * a + i] = S[3 * i] * g[0] + S[3 * i + 1] * g[1] + S[3 * i + 2] * g[2];
    }
  }
  for (PetscInt a = 0; a < nen; a++)
    for (PetscInt b = 0; b < nen; b++) {
      const PetscReal *ga = &G[3 * a], *fa = &f[3 * a], *fb = &f[3 * b], *Sgb = &Sg[3 * b];
      PetscReal        gg = ga[0] * G[3 * b] + ga[1] * G[3 * b + 1] + ga[2] * G[3 * b + 2], gSg = ga[0] * Sgb[0] + ga[1] * Sgb[1] + ga[2] * Sgb[2];
      for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) K[(3 * a + i) * n + 3 * b + k] += w * (m->lambda * fa[i] * fb[k] + m->mu * (FFt[3 * i + k] * gg + fb[i] * fa[k]) + (i == k ? gSg : 0));
    }
}
