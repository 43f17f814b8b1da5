/* The local dynamics of a finite-element body (seed 001 with seed 003's H): for the n
   constraint points on it, the blocks W_jl = h s_j s_l H_j A⁻¹ H_lᵀ of the Delassus operator
   and the free-velocity parts B_j = s_j H_j u, and after the solve the impulse
   u += h A⁻¹ Σ s_j H_jᵀ R_j. A point's H = baseᵀ[N_1 I … N_n I](ξ) has the 3·nen columns of
   its element's nodes only (MbFemOperatorHs), so nothing here is of the body's size but
   the solves:
   - DEF_EXP, A = M diagonal: W_jl = h Σ_k H_j[:,k] H_l[:,k]ᵀ / m_k over the columns the two
     points share, zero for points with no node in common; no solve at all.
   - DEF_LIM, A = M + cK: A⁻¹H_lᵀ is dense. Its three columns per point are solved for in
     batches of right-hand sides (one multi-column solve each, MbFemSolve), and each batch
     is read only where the H_j are nonzero, then dropped: memory nu × batch, not nu × 3n.
     The impulse is one solve of Σ s_j H_jᵀ R_j. */
#include "fem.h"

/* right-hand sides per solve of the DEF_LIM blocks (a multiple of 3) */
#define FEM_W_BATCH 96

/* the points' sparse H_j, signed: 3·nen ≤ MB_BODY_HS_MAX columns each */
static PetscErrorCode SignedH(MbBody b, PetscInt n, const MbBodyPoint pt[], PetscInt nc[], PetscInt col[], PetscReal H[])
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < n; j++) {
    PetscReal *Hj = &H[3 * MB_BODY_HS_MAX * j];
    PetscCall(MbFemOperatorHs(b, pt[j].X, pt[j].base, &nc[j], &col[MB_BODY_HS_MAX * j], Hj));
    for (PetscInt k = 0; k < 3 * nc[j]; k++) Hj[k] *= pt[j].s;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Scratch(MbBody b)
{
  Fem *m = (Fem *)b->data;
  PetscFunctionBegin;
  if (m->wpos) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(b->nu, &m->wpos, b->nu, &m->wrk));
  for (PetscInt k = 0; k < b->nu; k++) m->wpos[k] = -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemDelassus(MbBody b, PetscInt n, const MbBodyPoint pt[], PetscReal h, PetscReal W[], PetscReal B[])
{
  Fem           *m  = (Fem *)b->data;
  const PetscInt ld = 3 * n, nu = b->nu;
  PetscInt      *nc, *col;
  PetscReal     *H;
  PetscFunctionBegin;
  PetscCall(Scratch(b));
  PetscCall(PetscMalloc3(n, &nc, MB_BODY_HS_MAX * n, &col, 3 * MB_BODY_HS_MAX * n, &H));
  PetscCall(SignedH(b, n, pt, nc, col, H));
  for (PetscInt j = 0; j < n; j++) {
    const PetscInt  *cj = &col[MB_BODY_HS_MAX * j];
    const PetscReal *Hj = &H[3 * MB_BODY_HS_MAX * j];
    for (int r = 0; r < 3; r++) {
      PetscReal part = 0;
      for (PetscInt k = 0; k < nc[j]; k++) part += Hj[nc[j] * r + k] * b->u[cj[k]];
      B[3 * j + r] = part;
    }
  }
  if (m->c == 0) { /* A = M: the lumped masses, shared columns only */
    for (PetscInt l = 0; l < n; l++) {
      const PetscInt  *cl = &col[MB_BODY_HS_MAX * l], nl = nc[l];
      const PetscReal *Hl = &H[3 * MB_BODY_HS_MAX * l];
      for (PetscInt k = 0; k < nl; k++) m->wpos[cl[k]] = k;
      for (PetscInt j = 0; j <= l; j++) {
        const PetscInt  *cj = &col[MB_BODY_HS_MAX * j], nj = nc[j];
        const PetscReal *Hj     = &H[3 * MB_BODY_HS_MAX * j];
        PetscReal        blk[9] = {0};
        for (PetscInt k = 0; k < nj; k++) {
          const PetscInt p = m->wpos[cj[k]];
          if (p < 0) continue;
          const PetscReal w = h / m->mass[cj[k] / 3];
          for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) blk[3 * r + c] += Hj[nj * r + k] * Hl[nl * c + p] * w;
        }
        for (int r = 0; r < 3; r++)
          for (int c = 0; c < 3; c++) W[(3 * j + r) * ld + 3 * l + c] = W[(3 * l + c) * ld + 3 * j + r] = blk[3 * r + c];
      }
      for (PetscInt k = 0; k < nl; k++) m->wpos[cl[k]] = -1;
    }
  } else { /* A⁻¹H_lᵀ by batches of right-hand sides */
    const PetscInt nb = PetscMin(FEM_W_BATCH / 3, n);
    PetscReal     *Z, *Y;
    PetscCall(PetscMalloc2(3 * nb * nu, &Z, 3 * nb * nu, &Y));
    for (PetscInt l0 = 0; l0 < n; l0 += nb) {
      const PetscInt l1 = PetscMin(n, l0 + nb);
      PetscCall(PetscArrayzero(Z, 3 * (l1 - l0) * nu));
      for (PetscInt l = l0; l < l1; l++) /* the rows of H_l are the columns of H_lᵀ */
        for (int c = 0; c < 3; c++)
          for (PetscInt k = 0; k < nc[l]; k++) Z[(3 * (l - l0) + c) * nu + col[MB_BODY_HS_MAX * l + k]] = H[3 * MB_BODY_HS_MAX * l + nc[l] * c + k];
      PetscCall(MbFemSolve(m, 3 * (l1 - l0), Z, Y));
      for (PetscInt l = l0; l < l1; l++) {
        const PetscReal *Yl = &Y[3 * (l - l0) * nu];
        for (PetscInt j = 0; j <= l; j++) {
          const PetscInt  *cj = &col[MB_BODY_HS_MAX * j], nj = nc[j];
          const PetscReal *Hj = &H[3 * MB_BODY_HS_MAX * j];
          for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
              PetscReal v = 0;
              for (PetscInt k = 0; k < nj; k++) v += Hj[nj * r + k] * Yl[c * nu + cj[k]];
              W[(3 * j + r) * ld + 3 * l + c] = W[(3 * l + c) * ld + 3 * j + r] = h * v;
            }
        }
      }
    }
    PetscCall(PetscFree2(Z, Y));
  }
  PetscCall(PetscFree3(nc, col, H));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemImpulse(MbBody b, PetscInt n, const MbBodyPoint pt[], const PetscReal R[], PetscReal h)
{
  Fem *m = (Fem *)b->data;
  PetscFunctionBegin;
  PetscCall(Scratch(b));
  PetscCall(PetscArrayzero(m->wrk, b->nu));
  for (PetscInt j = 0; j < n; j++) {
    PetscInt  nc, col[MB_BODY_HS_MAX];
    PetscReal H[3 * MB_BODY_HS_MAX];
    PetscCall(MbFemOperatorHs(b, pt[j].X, pt[j].base, &nc, col, H));
    for (PetscInt k = 0; k < nc; k++) m->wrk[col[k]] += pt[j].s * (H[k] * R[3 * j] + H[nc + k] * R[3 * j + 1] + H[2 * nc + k] * R[3 * j + 2]);
  }
  if (m->c == 0)
    for (PetscInt k = 0; k < b->nu; k++) b->u[k] += h * m->wrk[k] / m->mass[k / 3];
  else {
    PetscReal *du;
    PetscCall(PetscMalloc1(b->nu, &du));
    PetscCall(MbFemSolve(m, 1, m->wrk, du));
    for (PetscInt k = 0; k < b->nu; k++) b->u[k] += h * du[k];
    PetscCall(PetscFree(du));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
