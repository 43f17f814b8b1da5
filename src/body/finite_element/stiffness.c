/* DEF_LIM's operator for finite-element bodies (seed 000, eq. (40)): A = M + cK(q) with
   c = ηh/2 + h²/4, K the SVK tangent assembled from the element blocks (MbSvkStiffness),
   M the lumped masses. A is a sparse PETSc matrix whose pattern is the mesh's node graph
   (3×3 blocks); it is factorized by Cholesky with a nested-dissection ordering, the
   symbolic factorization made once and kept while the pattern holds (Solfec-1.0 redoes
   the analysis every step). Under compression the initial-stress term can make A
   indefinite (src/body/pseudo_rigid/ saw the same): a failed Cholesky switches the body to
   LU for good.
   The numeric factor may also serve several steps (-mb_fem_refactor k): in between, A⁻¹b
   of the current A is found by conjugate gradients preconditioned by the older factor (A
   applied element by element, not assembled), to -mb_fem_pcg_rtol; a solve of many
   right-hand sides or a CG that does not converge factorizes the current A instead. W's
   blocks need entries of A⁻¹ (MbFemInverseBlock): the held factor gives them while the
   first residual of the step's CG says it is within -mb_fem_w_rtol of the current A, and
   then also makes the step's impulse, so that W and the impulse agree. doc/benchmarks.md
   measures when that pays. */
#include "fem.h"

/* The node graph: rows of 3 for every pair of nodes sharing an element. */
static PetscErrorCode CreatePattern(Fem *m, Mat *K)
{
  PetscInt *nnz, *mark;
  PetscFunctionBegin;
  PetscCall(PetscCalloc2(m->nn, &nnz, m->nn, &mark));
  /* node → elements (CSR), then count each node's distinct neighbours */
  {
    PetscInt *cnt, *ne2;
    PetscCall(PetscCalloc2(m->nn + 1, &cnt, m->eptr[m->ne] + 1, &ne2));
    for (PetscInt k = 0; k < m->eptr[m->ne]; k++) cnt[m->enode[k] + 1]++;
    for (PetscInt a = 0; a < m->nn; a++) cnt[a + 1] += cnt[a];
    for (PetscInt e = 0; e < m->ne; e++)
      for (PetscInt k = m->eptr[e]; k < m->eptr[e + 1]; k++) ne2[cnt[m->enode[k]]++] = e;
    for (PetscInt a = m->nn; a > 0; a--) cnt[a] = cnt[a - 1];
    cnt[0] = 0;
    for (PetscInt a = 0; a < m->nn; a++) mark[a] = -1;
    for (PetscInt a = 0; a < m->nn; a++) {
      for (PetscInt j = cnt[a]; j < cnt[a + 1]; j++) {
        PetscInt e = ne2[j];
        for (PetscInt k = m->eptr[e]; k < m->eptr[e + 1]; k++)
          if (mark[m->enode[k]] != a) {
            mark[m->enode[k]] = a;
            nnz[a]++;
          }
      }
    }
    PetscCall(PetscFree2(cnt, ne2));
  }
  PetscCall(MatCreateSeqBAIJ(PETSC_COMM_SELF, 3, 3 * m->nn, 3 * m->nn, 0, nnz, K));
  PetscCall(MatSetOption(*K, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(PetscFree2(nnz, mark));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemAssembleK(Fem *m, const PetscReal q[])
{
  PetscReal Ke[9 * MB_FEM_MAX_NEN * MB_FEM_MAX_NEN];
  PetscFunctionBegin;
  if (!m->K) PetscCall(CreatePattern(m, &m->K));
  PetscCall(MatZeroEntries(m->K));
  for (PetscInt e = 0; e < m->ne; e++) {
    const MbFemElement *el  = MbFemGather(m, e, q, m->ue);
    const PetscInt     *nod = &m->enode[m->eptr[e]], n = 3 * el->nen;
    PetscCall(PetscArrayzero(Ke, n * n));
    for (PetscInt k = 0; k < el->nqp; k++) {
      const PetscReal *g = MbFemPoint(m, e, k, el->nen);
      MbSvkStiffness(&m->svk, el->nen, g, g[3 * el->nen], m->ue, Ke);
    }
    PetscCall(MatSetValuesBlocked(m->K, el->nen, nod, el->nen, nod, Ke, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(m->K, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(m->K, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A ← M + cK as an AIJ matrix (what the Cholesky and LU of PETSc and CHOLMOD take) */
static PetscErrorCode FormA(Fem *m, PetscReal c)
{
  PetscFunctionBegin;
  if (!m->A) {
    PetscCall(MatConvert(m->K, MATSEQAIJ, MAT_INITIAL_MATRIX, &m->A));
    PetscCall(MatSetOption(m->A, MAT_SYMMETRIC, PETSC_TRUE)); /* SVK's K is (hyperelastic) */
    PetscCall(MatSetOption(m->A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  } else
    PetscCall(MatConvert(m->K, MATSEQAIJ, MAT_REUSE_MATRIX, &m->A));
  PetscCall(MatScale(m->A, c));
  if (!m->Md) { /* made once: the masses do not change */
    PetscScalar *v;
    PetscCall(MatCreateVecs(m->A, &m->Md, NULL));
    PetscCall(VecGetArray(m->Md, &v));
    for (PetscInt a = 0; a < m->nn; a++)
      for (int k = 0; k < 3; k++) v[3 * a + k] = m->mass[a];
    PetscCall(VecRestoreArray(m->Md, &v));
  }
  PetscCall(MatDiagonalSet(m->A, m->Md, ADD_VALUES));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Factor(Fem *m, PetscBool *ok)
{
  MatFactorInfo  info;
  MatFactorError err;
  IS             rperm, cperm;
  PetscFunctionBegin;
  PetscCall(MatFactorInfoInitialize(&info));
  if (!m->F) {
    MatFactorType type = m->lu ? MAT_FACTOR_LU : MAT_FACTOR_CHOLESKY;
    PetscBool     has  = PETSC_FALSE;
    /* a supernodal or multifrontal factorization where PETSc has one (CHOLMOD for
       Cholesky, UMFPACK for LU: they call the BLAS on dense blocks; PETSc's own is far
       slower on a 3-D mesh, doc/benchmarks.md), else PETSc's. A body whose blocks of W are
       wanted takes MUMPS: it finds selected entries of A⁻¹ (MbFemInverseBlock) with the
       sparsity of both sides, 20× faster than CHOLMOD's solves of their columns, while
       CHOLMOD's single solve is the faster (conjugate gradients make many) */
    const PetscBool want   = m->inv && m->entries ? PETSC_TRUE : PETSC_FALSE;
    MatSolverType   solver = want ? MATSOLVERMUMPS : m->lu ? MATSOLVERUMFPACK : MATSOLVERCHOLMOD;
    PetscCall(MatGetFactorAvailable(m->A, solver, type, &has));
    m->mumps = has && want ? PETSC_TRUE : PETSC_FALSE;
    if (!has && want) {
      solver = m->lu ? MATSOLVERUMFPACK : MATSOLVERCHOLMOD;
      PetscCall(MatGetFactorAvailable(m->A, solver, type, &has));
    }
    if (!has) solver = MATSOLVERPETSC;
    /* MUMPS's positive definite mode (no pivoting, 20 % faster) while A is taken as such;
       its count of negative pivots tells when it is not (Factor's caller) */
    PetscCall(MatSetOption(m->A, MAT_SPD, m->mumps && !m->lu ? PETSC_TRUE : PETSC_FALSE));
    PetscCall(MatGetFactor(m->A, solver, type, &m->F));
    PetscCall(MatGetOrdering(m->A, has ? MATORDERINGNATURAL : MATORDERINGND, &rperm, &cperm));
    if (m->lu)
      PetscCall(MatLUFactorSymbolic(m->F, m->A, rperm, cperm, &info));
    else
      PetscCall(MatCholeskyFactorSymbolic(m->F, m->A, rperm, &info));
    PetscCall(ISDestroy(&rperm));
    PetscCall(ISDestroy(&cperm));
  }
  if (m->lu)
    PetscCall(MatLUFactorNumeric(m->F, m->A, &info));
  else
    PetscCall(MatCholeskyFactorNumeric(m->F, m->A, &info));
  PetscCall(MatFactorGetError(m->F, &err));
  *ok = err == MAT_FACTOR_NOERROR ? PETSC_TRUE : PETSC_FALSE;
  if (*ok && m->mumps && !m->lu) { /* no pivoting: a negative pivot says A is indefinite */
    PetscInt neg = 0;
    PetscCall(MatMumpsGetInfog(m->F, 12, &neg));
    if (neg > 0) *ok = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Assemble and factorize A = M + cK at q now */
static PetscErrorCode FactorNow(Fem *m, const PetscReal q[], PetscReal c, PetscInt id)
{
  PetscBool ok;
  PetscFunctionBegin;
  m->factored = PETSC_FALSE;
  if (!m->qF) PetscCall(PetscMalloc1(3 * m->nn, &m->qF));
  if (m->bc)
    PetscCall(PetscArrayzero(m->qF, 3 * m->nn)); /* 'BC': A₀ = M + cK₀, K at the reference */
  else if (q != m->qF)
    PetscCall(PetscArraycpy(m->qF, q, 3 * m->nn));
  PetscCall(MbFemAssembleK(m, m->qF));
  PetscCall(FormA(m, c));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); /* a zero pivot is an answer here */
  {
    PetscErrorCode ierr = Factor(m, &ok);
    PetscCall(PetscPopErrorHandler());
    if (ierr) ok = PETSC_FALSE;
  }
  if (!ok && !m->lu) { /* indefinite under compression: LU from now on */
    m->lu = PETSC_TRUE;
    PetscCall(MatDestroy(&m->F));
    PetscCall(Factor(m, &ok));
  }
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "FINITE_ELEMENT body %" PetscInt_FMT ": A = M + %g K is singular (the mesh has collapsed?)", id, (double)c);
  m->factored = PETSC_TRUE;
  m->exact    = PETSC_TRUE;
  m->cF       = c;
  m->age      = 0;
  m->multi    = PETSC_FALSE;
  m->nfactor++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemFactor(Fem *m, const PetscReal q[], PetscReal c, PetscInt id)
{
  PetscFunctionBegin;
  m->c   = c;
  m->qA  = q;
  m->bid = id;
  m->gen++; /* a new step: the point table may forget points of older ones */
  m->delta = PETSC_INFINITY;
  m->wold  = PETSC_FALSE;
  if (m->rform) { /* 'BC-MODAL', 'BC-RO': a reduced A, whatever c (reduced.c) */
    PetscCall(MbFemReducedFactor(m, q, c, id));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (c == 0) m->multi = PETSC_FALSE;
  if (c == 0) PetscFunctionReturn(PETSC_SUCCESS); /* A = M: the inverse op divides */
  if (!m->refactor) {
    m->refactor = 10;
    m->rtol     = 1e-10;
    m->wtol     = 1e-6;
    m->entries  = PETSC_TRUE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-mb_fem_inverse_entries", &m->entries, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-mb_fem_refactor", &m->refactor, NULL));
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-mb_fem_pcg_rtol", &m->rtol, NULL));
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-mb_fem_w_rtol", &m->wtol, NULL));
    PetscCheck(m->wtol >= 0 && m->wtol < 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mb_fem_w_rtol must be in [0, 1) (0: W's blocks always from the current A), got %g", (double)m->wtol);
    PetscCheck(m->refactor >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mb_fem_refactor must be >= 1 (steps a factorization serves), got %" PetscInt_FMT, m->refactor);
    PetscCheck(m->rtol > 0 && m->rtol < 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mb_fem_pcg_rtol must be in (0, 1), got %g", (double)m->rtol);
  }
  if (m->pending) { /* a restart: the factor the stopped run held, made again */
    PetscInt  age   = m->age;
    PetscBool multi = m->multi;
    m->pending      = PETSC_FALSE;
    PetscCall(FactorNow(m, m->qF, m->cF, id));
    m->age   = age;
    m->multi = multi;
  }
  if (m->bc) { /* A = R̲A₀R̲ᵀ: A₀ made once (again only when c changes), R of this q */
    PetscCall(MbFemCorotation(m, q, id, m->RA));
    if (!m->factored || c != m->cF) PetscCall(FactorNow(m, q, c, id));
    m->exact = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* a body whose last step needed many right-hand sides without MUMPS (which CG would
     make dear) most likely needs them again: factorized now rather than after a CG solve */
  if (!m->factored || c != m->cF || m->age + 1 >= m->refactor || (m->multi && !m->mumps))
    PetscCall(FactorNow(m, q, c, id));
  else { /* the old factor preconditions the exact A (MbFemSolve) */
    m->age++;
    m->exact = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = A x = M x + c K(qA) x, element by element (the applied tangent, no assembly) */
static void ApplyA(Fem *m, const PetscReal x[], PetscReal y[])
{
  const PetscInt nu = 3 * m->nn;
  for (PetscInt k = 0; k < nu; k++) y[k] = m->mass[k / 3] * x[k];
  for (PetscInt e = 0; e < m->ne; e++) {
    const MbFemElement *el  = MbFemGather(m, e, m->qA, m->ue);
    const PetscInt     *nod = &m->enode[m->eptr[e]];
    PetscReal           xe[3 * MB_FEM_MAX_NEN];
    for (PetscInt a = 0; a < el->nen; a++)
      for (int d = 0; d < 3; d++) xe[3 * a + d] = x[3 * nod[a] + d], m->fe[3 * a + d] = 0;
    for (PetscInt k = 0; k < el->nqp; k++) {
      const PetscReal *g = MbFemPoint(m, e, k, el->nen);
      MbSvkTangentMult(&m->svk, el->nen, g, g[3 * el->nen], m->ue, xe, m->fe);
    }
    for (PetscInt a = 0; a < el->nen; a++)
      for (int d = 0; d < 3; d++) y[3 * nod[a] + d] += m->c * m->fe[3 * a + d];
  }
}

PetscErrorCode MbFemArrayOp(Fem *m, PetscErrorCode (*op)(Mat, Vec, Vec), Mat A, const PetscReal x[], PetscReal y[])
{
  PetscFunctionBegin;
  if (!m->x) {
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 3, 3 * m->nn, NULL, &m->x));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 3, 3 * m->nn, NULL, &m->y));
  }
  PetscCall(VecPlaceArray(m->x, x));
  PetscCall(VecPlaceArray(m->y, y));
  PetscCall(op(A, m->x, m->y));
  PetscCall(VecResetArray(m->x));
  PetscCall(VecResetArray(m->y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = F⁻¹ x by the factor held */
static PetscErrorCode FactorSolve(Fem *m, const PetscReal x[], PetscReal y[]) { return MbFemArrayOp(m, MatSolve, m->F, x, y); }

/* A y = b by conjugate gradients preconditioned by the factor of an earlier A (A is
   symmetric positive definite while the factor is a Cholesky one), from y = F⁻¹b, to
   ‖r‖ ≤ rtol ‖b‖. Returns converged = false after 50 iterations. A body whose W's blocks
   come from the held factor (MUMPS's) is solved to -mb_fem_w_rtol when that is the looser:
   its W and impulse already stand for A to that tolerance, and solving the free velocity
   more finely does not bring the step nearer one with a new factor every step (measured:
   doc/benchmarks.md). */
static PetscErrorCode Pcg(Fem *m, const PetscReal b[], PetscReal y[], PetscBool *converged)
{
  const PetscInt  nu   = 3 * m->nn;
  const PetscReal rtol = m->inv && m->mumps ? PetscMax(m->rtol, m->wtol) : m->rtol;
  PetscReal      *r, *z, *p, *Ap, rz, bb = 0, rr = 0;
  PetscFunctionBegin;
  if (!m->cgw) PetscCall(PetscMalloc1(4 * nu, &m->cgw));
  r = m->cgw, z = r + nu, p = z + nu, Ap = p + nu;
  for (PetscInt k = 0; k < nu; k++) bb += b[k] * b[k];
  PetscCall(FactorSolve(m, b, y));
  ApplyA(m, y, Ap);
  for (PetscInt k = 0; k < nu; k++) r[k] = b[k] - Ap[k], rr += r[k] * r[k];
  *converged = PETSC_TRUE;
  m->npcg++;
  if (m->delta == PETSC_INFINITY) m->delta = bb > 0 ? PetscSqrtReal(rr / bb) : 0; /* the step's first: the factor's distance from A */
  if (rr <= rtol * rtol * bb) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(FactorSolve(m, r, z));
  rz = 0;
  for (PetscInt k = 0; k < nu; k++) p[k] = z[k], rz += r[k] * z[k];
  for (PetscInt it = 0; it < 50; it++) {
    PetscReal pAp = 0, alpha, rz1 = 0;
    ApplyA(m, p, Ap);
    m->pcgits++;
    for (PetscInt k = 0; k < nu; k++) pAp += p[k] * Ap[k];
    if (!(pAp > 0)) break; /* A is not positive definite now (compression): factorize it */
    alpha = rz / pAp;
    rr    = 0;
    for (PetscInt k = 0; k < nu; k++) y[k] += alpha * p[k], r[k] -= alpha * Ap[k], rr += r[k] * r[k];
    if (rr <= rtol * rtol * bb) { /* the recurrence's residual: the true one decides */
      ApplyA(m, y, Ap);
      rr = 0;
      for (PetscInt k = 0; k < nu; k++) rr += PetscSqr(b[k] - Ap[k]);
      if (rr <= 4 * rtol * rtol * bb) PetscFunctionReturn(PETSC_SUCCESS);
      break;
    }
    PetscCall(FactorSolve(m, r, z));
    for (PetscInt k = 0; k < nu; k++) rz1 += r[k] * z[k];
    for (PetscInt k = 0; k < nu; k++) p[k] = z[k] + (rz1 / rz) * p[k];
    rz = rz1;
  }
  *converged = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SolveA(Fem *m, PetscInt n, const PetscReal x[], PetscReal y[]);

/* y ← R̲ y (transpose: R̲ᵀ) for n vectors of the body's length */
static void RotateNodes(const Fem *m, const PetscReal R[9], PetscBool transpose, PetscInt n, PetscReal y[])
{
  for (PetscInt k = 0; k < n * m->nn; k++) {
    PetscReal *v = &y[3 * k], w[3];
    for (int i = 0; i < 3; i++) w[i] = transpose ? R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2] : R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
    for (int i = 0; i < 3; i++) v[i] = w[i];
  }
}

PetscErrorCode MbFemSolve(Fem *m, PetscInt n, const PetscReal x[], PetscReal y[])
{
  PetscFunctionBegin;
  if (m->rform) {
    PetscCall(MbFemReducedSolve(m, n, x, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (m->bc && m->c > 0) { /* A⁻¹ = R̲ A₀⁻¹ R̲ᵀ */
    PetscReal *t;
    PetscCall(PetscMalloc1(n * 3 * m->nn, &t));
    PetscCall(PetscArraycpy(t, x, n * 3 * m->nn));
    RotateNodes(m, m->RA, PETSC_TRUE, n, t);
    PetscCall(SolveA(m, n, t, y));
    RotateNodes(m, m->RA, PETSC_FALSE, n, y);
    PetscCall(PetscFree(t));
  } else
    PetscCall(SolveA(m, n, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SolveA(Fem *m, PetscInt n, const PetscReal x[], PetscReal y[])
{
  const PetscInt nu = 3 * m->nn;
  PetscFunctionBegin;
  if (m->c == 0) {
    for (PetscInt j = 0; j < n; j++)
      for (PetscInt a = 0; a < m->nn; a++)
        for (int d = 0; d < 3; d++) y[j * nu + 3 * a + d] = x[j * nu + 3 * a + d] / m->mass[a];
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(m->factored, PETSC_COMM_SELF, PETSC_ERR_ORDER, "FINITE_ELEMENT body: A⁻¹ asked for before A was factorized");
  if (!m->exact && m->wold) { /* W was made by the held factor: the impulse is too */
    PetscCheck(n == 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "FINITE_ELEMENT body %" PetscInt_FMT ": %" PetscInt_FMT " right-hand sides after W's blocks", m->bid, n);
    PetscCall(FactorSolve(m, x, y));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!m->exact && n == 1 && !m->lu) { /* the old factor preconditions the exact A */
    PetscBool ok = PETSC_FALSE;
    PetscCall(Pcg(m, x, y, &ok));
    if (ok) PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* many right-hand sides (a body's blocks of W), CG that did not converge, or LU: the
     current A factorized now */
  if (!m->exact) PetscCall(FactorNow(m, m->qA, m->c, m->bid));
  if (n > 1) { /* one solve of many columns (CHOLMOD's supernodal solve runs the BLAS on them) */
    Mat Bm, Xm;
    m->multi = PETSC_TRUE;
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, nu, n, (PetscScalar *)x, &Bm));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, nu, n, y, &Xm));
    PetscCall(MatMatSolve(m->F, Bm, Xm));
    PetscCall(MatDestroy(&Bm));
    PetscCall(MatDestroy(&Xm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(FactorSolve(m, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* right-hand sides per multi-column solve of MbFemInverseBlock without MUMPS */
#define FEM_INV_BATCH 96

static PetscErrorCode InverseBySolves(Fem *m, PetscInt nd, const PetscInt d[], PetscReal C[])
{
  const PetscInt nu = 3 * m->nn, nbat = PetscMin(FEM_INV_BATCH, nd);
  PetscReal     *Z, *Y;
  PetscFunctionBegin;
  PetscCall(PetscMalloc2(nbat * nu, &Z, nbat * nu, &Y));
  for (PetscInt i0 = 0; i0 < nd; i0 += nbat) { /* column by column (A⁻¹ is symmetric) */
    const PetscInt i1 = PetscMin(nd, i0 + nbat);
    PetscCall(PetscArrayzero(Z, (i1 - i0) * nu));
    for (PetscInt i = i0; i < i1; i++) Z[(i - i0) * nu + d[i]] = 1;
    PetscCall(MbFemSolve(m, i1 - i0, Z, Y));
    for (PetscInt i = i0; i < i1; i++)
      for (PetscInt r = 0; r < nd; r++) C[i * nd + r] = Y[(i - i0) * nu + d[r]];
  }
  PetscCall(PetscFree2(Z, Y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MUMPS's entries of the inverse (its ICNTL(30)) among the sorted unknowns ds, into C
   (nd × nd in their order): the pattern is given as a sparse matrix whose values MUMPS
   fills; the forward and backward solves then touch only the parts of the elimination tree
   that the wanted rows and columns reach (Amestoy, Duff, L'Excellent, Rouet, "Parallel
   computation of entries of A⁻¹", SIAM J. Sci. Comput. 37, 2015). */
static PetscErrorCode InverseByMumps(Fem *m, PetscInt nd, const PetscInt ds[], PetscReal C[])
{
  const PetscInt nu = 3 * m->nn;
  PetscInt      *ia, *ja;
  Mat            P, Pt;
  PetscFunctionBegin;
  PetscCall(PetscMalloc2(nu + 1, &ia, nd * nd, &ja));
  ia[0] = 0;
  for (PetscInt r = 0, i = 0; r < nu; r++) {
    PetscInt n = 0;
    if (i < nd && ds[i] == r) n = nd, i++;
    ia[r + 1] = ia[r] + n;
  }
  for (PetscInt i = 0; i < nd; i++)
    for (PetscInt j = 0; j < nd; j++) ja[i * nd + j] = ds[j], C[i * nd + j] = 0;
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, nu, nu, ia, ja, C, &P));
  PetscCall(MatCreateTranspose(P, &Pt));
  PetscCall(MatMumpsGetInverse(m->F, Pt));
  PetscCall(MatMumpsSetIcntl(m->F, 30, 0)); /* PETSc 3.18 leaves it on, and the next solve fails (INFOG(1) = -47) */
  PetscCall(MatDestroy(&Pt));
  PetscCall(MatDestroy(&P));
  PetscCall(PetscFree2(ia, ja));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 'BC': the block of A₀⁻¹ among unknowns d turned into A⁻¹'s, R̲ C₀ R̲ᵀ node by node; d
   holds every component of each node it touches (a point's H has all three) */
static PetscErrorCode RotateBlock(Fem *m, PetscInt nd, const PetscInt d[], PetscReal C[])
{
  const PetscReal *R = m->RA;
  PetscInt        *pos;
  PetscReal       *T;
  PetscFunctionBegin;
  PetscCall(PetscMalloc2(3 * m->nn, &pos, nd * nd, &T));
  for (PetscInt k = 0; k < 3 * m->nn; k++) pos[k] = -1;
  for (PetscInt i = 0; i < nd; i++) pos[d[i]] = i;
  for (PetscInt i = 0; i < nd; i++)
    for (int k = 0; k < 3; k++) PetscCheck(pos[3 * (d[i] / 3) + k] >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "FINITE_ELEMENT body %" PetscInt_FMT ": unknown %" PetscInt_FMT " without the rest of its node", m->bid, d[i]);
  for (PetscInt i = 0; i < nd; i++) { /* T = R̲ C₀: row i mixes the rows of its node */
    const PetscInt n3 = 3 * (d[i] / 3), c = d[i] % 3;
    for (PetscInt j = 0; j < nd; j++) T[i * nd + j] = R[3 * c] * C[pos[n3] * nd + j] + R[3 * c + 1] * C[pos[n3 + 1] * nd + j] + R[3 * c + 2] * C[pos[n3 + 2] * nd + j];
  }
  for (PetscInt j = 0; j < nd; j++) { /* C = T R̲ᵀ: column j mixes the columns of its node */
    const PetscInt n3 = 3 * (d[j] / 3), c = d[j] % 3;
    for (PetscInt i = 0; i < nd; i++) C[i * nd + j] = T[i * nd + pos[n3]] * R[3 * c] + T[i * nd + pos[n3 + 1]] * R[3 * c + 1] + T[i * nd + pos[n3 + 2]] * R[3 * c + 2];
  }
  PetscCall(PetscFree2(pos, T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemInverseBlock(Fem *m, PetscInt nd, const PetscInt d[], PetscReal C[])
{
  PetscInt *ds, *perm;
  PetscBool same;
  PetscFunctionBegin;
  if (m->rform) {
    PetscCall(MbFemReducedBlock(m, nd, d, C));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(m->c > 0 && m->factored, PETSC_COMM_SELF, PETSC_ERR_ORDER, "FINITE_ELEMENT body %" PetscInt_FMT ": entries of A⁻¹ asked for without a factorized A", m->bid);
  if (!m->inv) { /* the first blocks of W: MUMPS from now on, the symbolic analysis made again */
    m->inv = PETSC_TRUE;
    if (m->entries) {
      PetscCall(MatDestroy(&m->F));
      m->exact = PETSC_FALSE;
      m->delta = PETSC_INFINITY;
    }
  }
  /* the held factor stands for A when the step's CG found it close enough, else the
     current A is factorized (a CG's first residual measured it: none yet, or the factor is
     too far) */
  if (!m->exact && !(m->mumps && m->delta <= m->wtol)) PetscCall(FactorNow(m, m->qA, m->c, m->bid));
  m->wold  = m->exact ? PETSC_FALSE : PETSC_TRUE;
  m->multi = PETSC_TRUE; /* (FactorNow clears it) */
  if (!m->mumps) {
    PetscCall(InverseBySolves(m, nd, d, C));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc2(nd, &ds, nd, &perm));
  for (PetscInt i = 0; i < nd; i++) perm[i] = i, ds[i] = d[i];
  PetscCall(PetscSortIntWithArray(nd, ds, perm));
  /* the same factor and unknowns as last time (a resting contact): the same block */
  same = m->invC && m->invf == m->nfactor && m->ninv == nd ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt i = 0; same && i < nd; i++)
    if (m->invd[i] != ds[i]) same = PETSC_FALSE;
  if (!same) {
    if (m->ninv < nd || !m->invC) {
      PetscCall(PetscFree2(m->invd, m->invC));
      PetscCall(PetscMalloc2(nd, &m->invd, nd * nd, &m->invC));
    }
    PetscCall(PetscArraycpy(m->invd, ds, nd));
    PetscCall(InverseByMumps(m, nd, ds, m->invC));
    m->ninv = nd;
    m->invf = m->nfactor;
  }
  for (PetscInt i = 0; i < nd; i++) /* sorted (i, j) is (perm[i], perm[j]) of d's order */
    for (PetscInt j = 0; j < nd; j++) C[perm[i] * nd + perm[j]] = m->invC[i * nd + j];
  PetscCall(PetscFree2(ds, perm));
  if (m->bc) PetscCall(RotateBlock(m, nd, d, C));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemFactorDestroy(Fem *m)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&m->K));
  PetscCall(MatDestroy(&m->A));
  PetscCall(MatDestroy(&m->F));
  PetscCall(VecDestroy(&m->x));
  PetscCall(VecDestroy(&m->y));
  PetscCall(VecDestroy(&m->Md));
  PetscCall(PetscFree(m->cgw));
  PetscCall(PetscFree(m->qF));
  PetscCall(PetscFree2(m->invd, m->invC));
  m->ninv = 0;
  PetscCall(PetscFree3(m->E, m->lam, m->Lr));
  PetscCall(PetscFree2(m->Mr, m->Kr));
  PetscCall(PetscFree(m->LM));
  m->nb = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscInt MbFemFactorStateSize(const Fem *m) { return m->factored && m->qF ? 5 + 3 * m->nn : 1; }

PetscErrorCode MbFemFactorStateGet(const Fem *m, PetscReal x[])
{
  PetscFunctionBegin;
  x[0] = m->factored && m->qF ? 1 : 0;
  if (!x[0]) PetscFunctionReturn(PETSC_SUCCESS);
  x[1] = (PetscReal)m->age;
  x[2] = m->cF;
  x[3] = m->lu ? 1 : 0;
  x[4] = (m->multi ? 1 : 0) + (m->inv ? 2 : 0); /* (2: MUMPS's factor, made for W's blocks) */
  PetscCall(PetscArraycpy(x + 5, m->qF, 3 * m->nn));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemFactorStateSet(Fem *m, const PetscReal x[], PetscInt n)
{
  PetscFunctionBegin;
  PetscCheck(n >= 1 && (x[0] == 0 || n == 5 + 3 * m->nn), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "checkpoint: a finite-element body's factor state has %" PetscInt_FMT " numbers; 1 or %" PetscInt_FMT " expected", n, 5 + 3 * m->nn);
  if (x[0] != 0 && m->factored && !m->pending && m->qF && m->cF == x[2] && m->lu == (x[3] > 0.5) && ((m->multi ? 1 : 0) + (m->inv ? 2 : 0)) == (int)(x[4] + 0.5) && !memcmp(m->qF, x + 5, 3 * (size_t)m->nn * sizeof(PetscReal))) {
    m->age = (PetscInt)x[1]; /* the factor held is the one described (a step rejection's restore): kept, not made again */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  m->factored = PETSC_FALSE;
  m->pending  = PETSC_FALSE;
  if (x[0] == 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (!m->qF) PetscCall(PetscMalloc1(3 * m->nn, &m->qF));
  m->age     = (PetscInt)x[1];
  m->cF      = x[2];
  m->lu      = x[3] > 0.5 ? PETSC_TRUE : PETSC_FALSE;
  m->multi   = ((int)(x[4] + 0.5) & 1) ? PETSC_TRUE : PETSC_FALSE;
  m->inv     = ((int)(x[4] + 0.5) & 2) ? PETSC_TRUE : PETSC_FALSE;
  m->pending = PETSC_TRUE;
  PetscCall(PetscArraycpy(m->qF, x + 5, 3 * m->nn));
  PetscFunctionReturn(PETSC_SUCCESS);
}
