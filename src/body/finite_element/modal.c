/* Modal analysis of finite-element bodies (Solfec-1.0's MODAL_ANALYSIS, fem.c
   FEM_Modal_Analysis: the lowest eigenpairs of K φ = ω² M φ with K the stiffness at the
   reference configuration and M the lumped masses; the body's FIX_POINTs and other
   constraints play no part, as in Solfec, whose K and M know nothing of them).

   M is diagonal and positive, so the generalized problem is the standard symmetric one
   C y = λ y with C = M^(−1/2) K M^(−1/2) and φ = M^(−1/2) y: LAPACK's dsyevx finds the
   lowest n pairs of the dense C (Householder tridiagonalization, bisection, inverse
   iteration). The modes come M-orthonormal (φᵢᵀ M φⱼ = δᵢⱼ): the y are orthonormal, made so
   again by two passes of Gram–Schmidt (inverse iteration leaves clustered eigenvalues', the
   six rigid modes' near 0, orthogonal only to about the cluster's width). Dense: memory
   8 N² bytes for N = 3·nodes unknowns, so the analysis takes bodies of at most
   MB_FEM_MODAL_MAXN unknowns (a larger one would need a sparse eigensolver, SLEPc's). */
#include "fem.h"
#include <petscblaslapack.h>

#define MB_FEM_MODAL_MAXN 12000 /* 1.15 GB of dense C */

/* K at the reference configuration into the column-major N×N array C, scaled to
   M^(−1/2) K M^(−1/2) */
static PetscErrorCode ScaledStiffness(Fem *m, PetscReal C[])
{
  const PetscInt N = 3 * m->nn;
  PetscReal     *zero, *s;
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(N, &zero));
  PetscCall(PetscMalloc1(N, &s));
  PetscCall(MbFemAssembleK(m, zero)); /* K₀, the 'BC' form's K too */
  for (PetscInt a = 0; a < m->nn; a++) PetscCheck(m->mass[a] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "MODAL_ANALYSIS: node %" PetscInt_FMT " has no mass (it belongs to no element): M is singular", a);
  for (PetscInt k = 0; k < N; k++) s[k] = 1 / PetscSqrtReal(m->mass[k / 3]);
  for (PetscInt i = 0; i < N; i++) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscCall(MatGetRow(m->K, i, &nc, &cols, &vals));
    for (PetscInt j = 0; j < nc; j++) C[cols[j] * N + i] = s[i] * vals[j] * s[cols[j]];
    PetscCall(MatRestoreRow(m->K, i, &nc, &cols, &vals));
  }
  PetscCall(PetscFree(zero));
  PetscCall(PetscFree(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Two passes of modified Gram–Schmidt on the n orthonormal-to-be columns of Y (N × n) */
static void Orthonormalize(PetscInt N, PetscInt n, PetscReal Y[])
{
  for (int pass = 0; pass < 2; pass++)
    for (PetscInt j = 0; j < n; j++) {
      PetscReal *y = &Y[j * N], nrm = 0;
      for (PetscInt i = 0; i < j; i++) {
        const PetscReal *z = &Y[i * N];
        PetscReal        d = 0;
        for (PetscInt k = 0; k < N; k++) d += z[k] * y[k];
        for (PetscInt k = 0; k < N; k++) y[k] -= d * z[k];
      }
      for (PetscInt k = 0; k < N; k++) nrm += y[k] * y[k];
      nrm = PetscSqrtReal(nrm);
      for (PetscInt k = 0; k < N; k++) y[k] /= nrm;
    }
}

PetscErrorCode MbFemModal(Fem *m, PetscInt id, PetscInt n, PetscReal lambda[], PetscReal V[])
{
  const PetscInt N = 3 * m->nn;
  PetscReal     *C, *work, wq, vl = 0, vu = 0, abstol = 0, *w;
  PetscBLASInt   bN, bn, il = 1, iu, found = 0, lwork = -1, info = 0, *iwork, *ifail;
  PetscFunctionBegin;
  PetscCheck(n >= 1 && n <= N, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "MODAL_ANALYSIS: body %" PetscInt_FMT " has %" PetscInt_FMT " unknowns (3 per node): num must be in [1, %" PetscInt_FMT "], got %" PetscInt_FMT, id, N, N, n);
  PetscCheck(N <= MB_FEM_MODAL_MAXN, PETSC_COMM_SELF, PETSC_ERR_SUP, "MODAL_ANALYSIS: body %" PetscInt_FMT " has %" PetscInt_FMT " unknowns; the dense eigensolver takes at most %d (8 N^2 bytes)", id, N, MB_FEM_MODAL_MAXN);
  PetscCall(PetscBLASIntCast(N, &bN));
  PetscCall(PetscBLASIntCast(n, &iu));
  bn = iu;
  PetscCall(PetscCalloc1((size_t)N * N, &C));
  PetscCall(ScaledStiffness(m, C));
  PetscCall(PetscMalloc3(N, &w, 5 * N, &iwork, N, &ifail));
  /* the workspace query, then the lowest n pairs into V (as y, scaled below) */
  LAPACKsyevx_("V", "I", "L", &bN, C, &bN, &vl, &vu, &il, &iu, &abstol, &found, w, V, &bN, &wq, &lwork, iwork, ifail, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "MODAL_ANALYSIS: body %" PetscInt_FMT ": LAPACK dsyevx's workspace query failed (info %d)", id, (int)info);
  lwork = (PetscBLASInt)wq;
  PetscCall(PetscMalloc1(lwork, &work));
  LAPACKsyevx_("V", "I", "L", &bN, C, &bN, &vl, &vu, &il, &iu, &abstol, &found, w, V, &bN, work, &lwork, iwork, ifail, &info);
  PetscCall(PetscFree(work));
  PetscCall(PetscFree(C));
  PetscCheck(info == 0 && found == bn, PETSC_COMM_SELF, PETSC_ERR_LIB, "MODAL_ANALYSIS: body %" PetscInt_FMT ": LAPACK dsyevx failed (info %d, %d of %" PetscInt_FMT " eigenpairs found)", id, (int)info, (int)found, n);
  Orthonormalize(N, n, V);
  for (PetscInt j = 0; j < n; j++) {
    lambda[j] = w[j];
    for (PetscInt k = 0; k < N; k++) V[j * N + k] /= PetscSqrtReal(m->mass[k / 3]);
  }
  PetscCall(PetscFree3(w, iwork, ifail));
  PetscFunctionReturn(PETSC_SUCCESS);
}
