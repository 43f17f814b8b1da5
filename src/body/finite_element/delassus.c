/* The local dynamics of a finite-element body (seed 001 with seed 003's H): for the n
   constraint points on it, the blocks W_jl = h s_j s_l H_j A⁻¹ H_lᵀ of the Delassus operator
   and the free-velocity parts B_j = s_j H_j u, and after the solve the impulse
   u += h A⁻¹ Σ s_j H_jᵀ R_j. A point's H = baseᵀ[N_1 I … N_n I](ξ) has the 3·nen columns of
   its element's nodes only (MbFemOperatorHs), so nothing here is of the body's size but
   the solves:
   - DEF_EXP, A = M diagonal: W_jl = h Σ_k H_j[:,k] H_l[:,k]ᵀ / m_k over the columns the two
     points share, zero for points with no node in common; no solve at all.
   - DEF_LIM, A = M + cK: A⁻¹H_lᵀ is dense, but W needs A⁻¹ only among the columns the
     points touch. That block of A⁻¹ (ThroughDofs) comes from MUMPS's selected entries of
     the inverse where PETSc has MUMPS (stiffness.c), else column by column by solves,
     which pays only when the columns are fewer than 3 per point (points sharing nodes);
     else A⁻¹H_lᵀ, three columns per point. Solves go in batches (one multi-column solve
     each, MbFemSolve), each read only where needed, then dropped: memory nu × batch.
     The impulse is one solve of Σ s_j H_jᵀ R_j. */
#include "fem.h"

/* right-hand sides per solve of the DEF_LIM blocks (a multiple of 3) */
#define FEM_W_BATCH 96
/* the most distinct columns whose block of A⁻¹ is formed (8·4000² bytes = 128 MB) */
#define FEM_W_MAXDOF 4000

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

/* Column l of the blocks, W_jl = h H_j Y_l for j ≤ l, each also stored as W_lj = W_jlᵀ: Y_l
   (A⁻¹H_lᵀ, or its rows among the columns the points touch) has its three columns ldy apart,
   and H_j's column index cj[k] reads row map[cj[k]] of them (row cj[k] when map is NULL). */
static void BlockColumn(PetscInt l, const PetscInt nc[], const PetscInt col[], const PetscReal H[], const PetscReal Y[], PetscInt ldy, const PetscInt map[], PetscReal h, PetscInt ld, PetscReal W[])
{
  for (PetscInt j = 0; j <= l; j++) {
    const PetscInt  *cj = &col[MB_BODY_HS_MAX * j], nj = nc[j];
    const PetscReal *Hj = &H[3 * MB_BODY_HS_MAX * j];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) {
        PetscReal v = 0;
        for (PetscInt k = 0; k < nj; k++) v += Hj[nj * r + k] * Y[c * ldy + (map ? map[cj[k]] : cj[k])];
        W[(3 * j + r) * ld + 3 * l + c] = W[(3 * l + c) * ld + 3 * j + r] = h * v;
      }
  }
}

/* The distinct columns of the points' H (into cd, when not NULL, in first-seen order);
   m->wpos is left at −1. */
static PetscInt Distinct(Fem *m, PetscInt n, const PetscInt nc[], const PetscInt col[], PetscInt cd[])
{
  PetscInt nd = 0;
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt k = 0; k < nc[j]; k++) {
      const PetscInt c = col[MB_BODY_HS_MAX * j + k];
      if (m->wpos[c] >= 0) continue;
      if (cd) cd[nd] = c;
      m->wpos[c] = nd++;
    }
  for (PetscInt j = 0; j < n; j++)
    for (PetscInt k = 0; k < nc[j]; k++) m->wpos[col[MB_BODY_HS_MAX * j + k]] = -1;
  return nd;
}

/* DEF_LIM's blocks through the inverse's entries among the nd distinct columns c the points
   touch: (A⁻¹)_cc by nd solves of unit vectors (batched), then W_jl = h H_j (A⁻¹)_cc H_lᵀ
   with each H in its own columns. Fewer solves than 3 per point whenever the points share
   nodes (four contact points of a face on a floor share its four nodes: 12 solves against
   12 per point); MbFemDelassus chooses. */
static PetscErrorCode ThroughDofs(MbBody b, PetscInt n, const PetscInt nc[], const PetscInt col[], const PetscReal H[], PetscReal h, PetscReal W[])
{
  Fem           *m  = (Fem *)b->data;
  const PetscInt ld = 3 * n;
  PetscInt       nd, *cd;
  PetscReal     *C, *Q;
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(MB_BODY_HS_MAX * n, &cd));
  nd = Distinct(m, n, nc, col, cd);
  PetscCall(PetscMalloc2(nd * nd, &C, 3 * nd, &Q));
  PetscCall(MbFemInverseBlock(m, nd, cd, C));
  for (PetscInt i = 0; i < nd; i++) m->wpos[cd[i]] = i;
  for (PetscInt l = 0; l < n; l++) {
    const PetscInt  *cl = &col[MB_BODY_HS_MAX * l], nl = nc[l];
    const PetscReal *Hl = &H[3 * MB_BODY_HS_MAX * l];
    /* Q = C H_lᵀ, nd × 3 (stored by columns) */
    PetscCall(PetscArrayzero(Q, 3 * nd));
    for (PetscInt k = 0; k < nl; k++) {
      const PetscReal *Ck = &C[m->wpos[cl[k]] * nd];
      for (int c = 0; c < 3; c++) {
        const PetscReal hk = Hl[nl * c + k];
        if (hk != 0)
          for (PetscInt r = 0; r < nd; r++) Q[c * nd + r] += Ck[r] * hk;
      }
    }
    BlockColumn(l, nc, col, H, Q, nd, m->wpos, h, ld, W);
  }
  for (PetscInt i = 0; i < nd; i++) m->wpos[cd[i]] = -1;
  PetscCall(PetscFree2(C, Q));
  PetscCall(PetscFree(cd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemDelassus(MbBody b, PetscInt n, const MbBodyPoint pt[], PetscReal h, PetscReal W[], PetscReal B[])
{
  Fem           *m  = (Fem *)b->data;
  const PetscInt ld = 3 * n, nu = b->nu;
  PetscInt      *nc, *col, nd;
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
  } else if ((nd = Distinct(m, n, nc, col, NULL)) <= FEM_W_MAXDOF && (nd < 3 * n || (m->entries && (!m->inv || m->mumps)))) {
    PetscCall(ThroughDofs(b, n, nc, col, H, h, W));
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
        BlockColumn(l, nc, col, H, Yl, nu, NULL, h, ld, W);
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
