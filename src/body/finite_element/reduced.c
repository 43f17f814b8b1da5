/* Solfec-1.0's reduced forms of finite-element bodies, 'BC-MODAL' (a modal basis from
   MODAL_ANALYSIS) and 'BC-RO' (any basis, e.g. POD vectors): the 'BC' form (corotated.c)
   whose motion is restricted to a basis E (N × n, N = 3·nodes) of co-rotated displacements,
   u = R̲ E ż (Solfec-1.0 fem.c, "u = R(Ez)", parmes TR1).

   Written here as a Galerkin restriction of the 'BC' step: with A = R̲ A₀ R̲ᵀ, A₀ = M + cK₀,
   the velocity increment of any force f (the internal and external force, the constraint
   impulse Hᵀr) is the one in span(R̲E) that the equations of motion projected on that span
   give, E ᵀR̲ᵀ A R̲E Δż = EᵀR̲ᵀ f, so
       A⁻¹ is replaced by  R̲ E (EᵀA₀E)⁻¹ Eᵀ R̲ᵀ,   EᵀA₀E = EᵀME + c EᵀK₀E,
   an n × n matrix factorized once per c (Cholesky). The internal force stays 'BC''s R̲K₀a:
   its projection EᵀK₀a is the reduced stiffness Kr = EᵀK₀E applied to the coordinates of a
   in the basis, whenever a lies in span(E) (and for an M-orthonormal modal basis,
   EᵀK₀ = diag(λ)EᵀM, for any a). With a basis of all N modes the step is the 'BC' step
   (R̲EAr⁻¹EᵀR̲ᵀ = R̲A₀⁻¹R̲ᵀ). The velocity given by the deck is projected onto span(R̲E)
   in the M norm (Solfec's RO_initialize_velocity), u ← R̲E Mr⁻¹ EᵀM R̲ᵀu.

   Where this differs from Solfec-1.0: Solfec keeps ż as the body's state and projects the
   mesh's velocity and displacement back on the basis after every step; here the nodal state
   is kept (output, contact and joints are the 'BC' body's) and only the increments are
   restricted. Solfec sets the first six modal stiffnesses of 'BC-MODAL' to 0 (the rigid
   modes of a free body, whose λ the eigensolver gives as about 0); here Kr = EᵀK₀E, which
   has them about 0 too. */
#include "fem.h"
#include <petscblaslapack.h>

PetscErrorCode MbFemSetBasis(Fem *m, PetscInt id, PetscInt n, const PetscReal val[], const PetscReal vec[])
{
  const PetscInt N = 3 * m->nn;
  PetscFunctionBegin;
  PetscCheck(n >= 1 && n <= N, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT ": a base of %" PetscInt_FMT " vectors; 1 to %" PetscInt_FMT " (its unknowns) are possible", id, n, N);
  for (PetscInt k = 0; k < n * N; k++)
    PetscCheck(!PetscIsInfOrNanReal(vec[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT ": base vector %" PetscInt_FMT " has entry %" PetscInt_FMT " = %g", id, k / N, k % N, (double)vec[k]);
  for (PetscInt k = 0; k < n; k++) PetscCheck(!PetscIsInfOrNanReal(val[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "FINITE_ELEMENT body %" PetscInt_FMT ": base value %" PetscInt_FMT " is %g", id, k, (double)val[k]);
  PetscCall(PetscFree3(m->E, m->lam, m->Lr));
  PetscCall(PetscFree2(m->Mr, m->Kr));
  PetscCall(PetscFree(m->LM));
  m->nb = n;
  PetscCall(PetscMalloc3((size_t)n * N, &m->E, n, &m->lam, (size_t)n * n, &m->Lr));
  PetscCall(PetscArraycpy(m->E, vec, (size_t)n * N));
  PetscCall(PetscArraycpy(m->lam, val, n));
  m->cB = -2; /* no factor yet */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Mr = EᵀME and Kr = EᵀK₀E (column-major n × n), made once */
static PetscErrorCode ReducedMatrices(Fem *m)
{
  const PetscInt N = 3 * m->nn, n = m->nb;
  PetscReal     *zero, *KE;
  PetscFunctionBegin;
  if (m->Mr) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2((size_t)n * n, &m->Mr, (size_t)n * n, &m->Kr));
  PetscCall(PetscCalloc1(N, &zero));
  PetscCall(PetscMalloc1(N, &KE));
  PetscCall(MbFemAssembleK(m, zero));
  for (PetscInt j = 0; j < n; j++) {
    const PetscReal *e = &m->E[j * N];
    PetscCall(MbFemArrayOp(m, MatMult, m->K, e, KE));
    for (PetscInt i = 0; i < n; i++) {
      const PetscReal *f  = &m->E[i * N];
      PetscReal        sm = 0, sk = 0;
      for (PetscInt k = 0; k < N; k++) sm += f[k] * m->mass[k / 3] * e[k], sk += f[k] * KE[k];
      m->Mr[j * n + i] = sm, m->Kr[j * n + i] = sk;
    }
  }
  for (PetscInt j = 0; j < n; j++) /* symmetric to the last bit */
    for (PetscInt i = 0; i < j; i++) {
      m->Mr[j * n + i] = m->Mr[i * n + j] = 0.5 * (m->Mr[j * n + i] + m->Mr[i * n + j]);
      m->Kr[j * n + i] = m->Kr[i * n + j] = 0.5 * (m->Kr[j * n + i] + m->Kr[i * n + j]);
    }
  PetscCall(PetscFree(zero));
  PetscCall(PetscFree(KE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* L = the Cholesky factor of Mr + cKr */
static PetscErrorCode Cholesky(Fem *m, PetscReal c, PetscInt id, PetscReal L[])
{
  const PetscInt n = m->nb;
  PetscBLASInt   bn, info = 0;
  PetscFunctionBegin;
  PetscCall(ReducedMatrices(m));
  for (PetscInt k = 0; k < n * n; k++) L[k] = m->Mr[k] + (c > 0 ? c * m->Kr[k] : 0);
  PetscCall(PetscBLASIntCast(n, &bn));
  LAPACKpotrf_("L", &bn, L, &bn, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "FINITE_ELEMENT body %" PetscInt_FMT " (a reduced form): E^T (M + %g K) E of its base E is not positive definite (pivot %d): the base's vectors are linearly dependent, or not displacements of this mesh", id, (double)c, (int)info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Lr for Mr + cKr (cB = −2: none held yet), and LM for Mr (the projections'), made once */
static PetscErrorCode FactorReduced(Fem *m, PetscReal c, PetscInt id)
{
  PetscFunctionBegin;
  if (!m->LM) {
    PetscCall(PetscMalloc1((size_t)m->nb * m->nb, &m->LM));
    PetscCall(Cholesky(m, 0, id, m->LM));
  }
  if (c >= 0 && c != m->cB) {
    PetscCall(Cholesky(m, c, id, m->Lr));
    m->cB = c;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemReducedFactor(Fem *m, const PetscReal q[], PetscReal c, PetscInt id)
{
  PetscFunctionBegin;
  PetscCheck(m->nb > 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "FINITE_ELEMENT body %" PetscInt_FMT ": form '%s' needs a base: BODY's base=(values, vectors), e.g. MODAL_ANALYSIS's answer", id, m->rform == 1 ? "BC-MODAL" : "BC-RO");
  PetscCall(MbFemCorotation(m, q, id, m->RA));
  PetscCall(FactorReduced(m, c, id));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* z = Eᵀ R̲ᵀ x (n) for one vector x of the body's length */
static void Restrict(const Fem *m, const PetscReal x[], PetscReal z[])
{
  const PetscInt   N = 3 * m->nn;
  const PetscReal *R = m->RA;
  for (PetscInt j = 0; j < m->nb; j++) z[j] = 0;
  for (PetscInt a = 0; a < m->nn; a++) {
    const PetscReal *v = &x[3 * a];
    PetscReal        t[3];
    for (int i = 0; i < 3; i++) t[i] = R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2]; /* Rᵀv */
    for (PetscInt j = 0; j < m->nb; j++) {
      const PetscReal *e = &m->E[j * N + 3 * a];
      z[j] += e[0] * t[0] + e[1] * t[1] + e[2] * t[2];
    }
  }
}

/* y = R̲ E z */
static void Prolong(const Fem *m, const PetscReal z[], PetscReal y[])
{
  const PetscInt   N = 3 * m->nn;
  const PetscReal *R = m->RA;
  for (PetscInt a = 0; a < m->nn; a++) {
    PetscReal t[3] = {0, 0, 0};
    for (PetscInt j = 0; j < m->nb; j++)
      for (int i = 0; i < 3; i++) t[i] += m->E[j * N + 3 * a + i] * z[j];
    for (int i = 0; i < 3; i++) y[3 * a + i] = R[3 * i] * t[0] + R[3 * i + 1] * t[1] + R[3 * i + 2] * t[2];
  }
}

/* z ← L⁻ᵀ L⁻¹ z for nrhs columns of length n (L: Lr or LM) */
static PetscErrorCode SolveReduced(Fem *m, const PetscReal L[], PetscInt nrhs, PetscReal z[])
{
  PetscBLASInt bn, br, info = 0;
  PetscFunctionBegin;
  PetscCall(PetscBLASIntCast(m->nb, &bn));
  PetscCall(PetscBLASIntCast(nrhs, &br));
  LAPACKpotrs_("L", &bn, &br, L, &bn, z, &bn, &info);
  PetscCheck(info == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "LAPACK dpotrs: info %d", (int)info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemReducedSolve(Fem *m, PetscInt nrhs, const PetscReal x[], PetscReal y[])
{
  const PetscInt N = 3 * m->nn;
  PetscReal     *z;
  PetscFunctionBegin;
  PetscCheck(m->cB >= 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "FINITE_ELEMENT body %" PetscInt_FMT ": A⁻¹ asked for before its reduced A was made", m->bid);
  PetscCall(PetscMalloc1((size_t)nrhs * m->nb, &z));
  for (PetscInt j = 0; j < nrhs; j++) Restrict(m, &x[j * N], &z[j * m->nb]);
  PetscCall(SolveReduced(m, m->Lr, nrhs, z));
  for (PetscInt j = 0; j < nrhs; j++) Prolong(m, &z[j * m->nb], &y[j * N]);
  PetscCall(PetscFree(z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemReducedBlock(Fem *m, PetscInt nd, const PetscInt d[], PetscReal C[])
{
  const PetscInt   N = 3 * m->nn, n = m->nb;
  const PetscReal *R = m->RA;
  PetscReal       *P, *Y;
  PetscFunctionBegin;
  PetscCheck(m->cB >= 0, PETSC_COMM_SELF, PETSC_ERR_ORDER, "FINITE_ELEMENT body %" PetscInt_FMT ": entries of A⁻¹ asked for before its reduced A was made", m->bid);
  /* P = rows d of R̲E (nd × n), kept as Y = Pᵀ too (n × nd column-major: column i is row i of P) */
  PetscCall(PetscMalloc2((size_t)nd * n, &P, (size_t)nd * n, &Y));
  for (PetscInt i = 0; i < nd; i++) {
    const PetscInt a = d[i] / 3, c = d[i] % 3;
    for (PetscInt j = 0; j < n; j++) {
      const PetscReal *e = &m->E[j * N + 3 * a];
      P[i * n + j] = Y[i * n + j] = R[3 * c] * e[0] + R[3 * c + 1] * e[1] + R[3 * c + 2] * e[2];
    }
  }
  PetscCall(SolveReduced(m, m->Lr, nd, Y)); /* Y = Ar⁻¹ Pᵀ */
  for (PetscInt i = 0; i < nd; i++)
    for (PetscInt k = 0; k < nd; k++) {
      PetscReal s = 0;
      for (PetscInt j = 0; j < n; j++) s += P[i * n + j] * Y[k * n + j];
      C[i * nd + k] = s;
    }
  PetscCall(PetscFree2(P, Y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemReducedProject(Fem *m, const PetscReal q[], PetscInt id, PetscReal u[])
{
  const PetscInt N = 3 * m->nn;
  PetscReal     *Mu, *z;
  PetscFunctionBegin;
  if (!m->nb) PetscFunctionReturn(PETSC_SUCCESS); /* a base given later projects then */
  PetscCall(MbFemCorotation(m, q, id, m->RA));
  PetscCall(FactorReduced(m, -1, id)); /* u ← R̲E Mr⁻¹ EᵀM R̲ᵀu (M commutes with R̲) */
  PetscCall(PetscMalloc2(N, &Mu, m->nb, &z));
  for (PetscInt k = 0; k < N; k++) Mu[k] = m->mass[k / 3] * u[k];
  Restrict(m, Mu, z);
  PetscCall(SolveReduced(m, m->LM, 1, z));
  Prolong(m, z, u);
  PetscCall(PetscFree2(Mu, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbFemReducedEnergy(Fem *m, const PetscReal a[], PetscInt id, PetscReal *W)
{
  const PetscInt N = 3 * m->nn, n = m->nb;
  PetscReal     *Ma, *z;
  PetscFunctionBegin;
  PetscCall(FactorReduced(m, -1, id));
  PetscCall(PetscMalloc2(N, &Ma, n, &z));
  for (PetscInt k = 0; k < N; k++) Ma[k] = m->mass[k / 3] * a[k];
  for (PetscInt j = 0; j < n; j++) { /* z = Mr⁻¹ EᵀM a, a's coordinates in the base */
    z[j] = 0;
    for (PetscInt k = 0; k < N; k++) z[j] += m->E[j * N + k] * Ma[k];
  }
  PetscCall(SolveReduced(m, m->LM, 1, z));
  *W = 0;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++) *W += 0.5 * z[i] * m->Kr[j * n + i] * z[j];
  PetscCall(PetscFree2(Ma, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}
