/* DEF_LIM's operator for finite-element bodies (seed 000, eq. (40)): A = M + cK(q) with
   c = ηh/2 + h²/4, K the SVK tangent assembled from the element blocks (MbSvkStiffness),
   M the lumped masses. A is a sparse PETSc matrix whose pattern is the mesh's node graph
   (3×3 blocks); it is factorized by Cholesky with a nested-dissection ordering, the
   symbolic factorization made once and kept while the pattern holds (Solfec-1.0 redoes
   the analysis every step). Under compression the initial-stress term can make A
   indefinite (src/body/pseudo_rigid/ saw the same): a failed Cholesky switches the body to
   LU for good. */
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
    /* a supernodal factorization where PETSc has one (CHOLMOD for Cholesky, UMFPACK for LU:
       they call the BLAS on dense blocks; PETSc's own is far slower on a 3-D mesh,
       doc/benchmarks.md), else PETSc's */
    MatSolverType solver = m->lu ? MATSOLVERUMFPACK : MATSOLVERCHOLMOD;
    PetscCall(MatGetFactorAvailable(m->A, solver, type, &has));
    if (!has) solver = MATSOLVERPETSC;
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemFactor(Fem *m, const PetscReal q[], PetscReal c, PetscInt id)
{
  PetscBool ok;
  PetscFunctionBegin;
  m->c        = c;
  m->factored = PETSC_FALSE;
  if (c == 0) PetscFunctionReturn(PETSC_SUCCESS); /* A = M: the inverse op divides */
  PetscCall(MbFemAssembleK(m, q));
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
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemSolve(Fem *m, PetscInt n, const PetscReal x[], PetscReal y[])
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
  if (!m->x) {
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 3, nu, NULL, &m->x));
    PetscCall(VecCreateSeqWithArray(PETSC_COMM_SELF, 3, nu, NULL, &m->y));
  }
  if (n > 1) { /* one solve of many columns (CHOLMOD's supernodal solve runs the BLAS on them) */
    Mat Bm, Xm;
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, nu, n, (PetscScalar *)x, &Bm));
    PetscCall(MatCreateSeqDense(PETSC_COMM_SELF, nu, n, y, &Xm));
    PetscCall(MatMatSolve(m->F, Bm, Xm));
    PetscCall(MatDestroy(&Bm));
    PetscCall(MatDestroy(&Xm));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt j = 0; j < n; j++) {
    PetscCall(VecPlaceArray(m->x, x + j * nu));
    PetscCall(VecPlaceArray(m->y, y + j * nu));
    PetscCall(MatSolve(m->F, m->x, m->y));
    PetscCall(VecResetArray(m->x));
    PetscCall(VecResetArray(m->y));
  }
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
  PetscFunctionReturn(PETSC_SUCCESS);
}
