/* MbSolver: the registry of constraint solvers and the generic driver around each
   implementation's ops; the solver-independent natural-map error. */
#include "solverimpl.h"

static PetscFunctionList MbSolverList       = NULL;
static PetscBool         MbSolverRegistered = PETSC_FALSE;
static PetscClassId      MB_SOLVER_CLASSID;
static PetscLogEvent     MB_SolverSolveEvent;

PetscErrorCode MbSolverRegister(const char name[], PetscErrorCode (*create)(MbSolver))
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListAdd(&MbSolverList, name, create));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverRegisterAll(void)
{
  PetscFunctionBegin;
  if (MbSolverRegistered) PetscFunctionReturn(PETSC_SUCCESS);
  MbSolverRegistered = PETSC_TRUE;
  PetscCall(PetscClassIdRegister("MbSolver", &MB_SOLVER_CLASSID));
  PetscCall(PetscLogEventRegister("MbSolverSolve", MB_SOLVER_CLASSID, &MB_SolverSolveEvent));
  PetscCall(MbSolverRegister(MBSOLVERGS, MbSolverCreate_GS));
  PetscCall(MbSolverRegister(MBSOLVERNEWTON, MbSolverCreate_Newton));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListDestroy(&MbSolverList));
  MbSolverRegistered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverListNames(char buf[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(MbRegistryNames(MbSolverList, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverCreate(MPI_Comm comm, MbSolver *s)
{
  PetscFunctionBegin;
  PetscCall(MbSolverRegisterAll());
  PetscCall(PetscNew(s));
  (*s)->comm    = comm;
  (*s)->epsilon = 1e-4; /* Solfec's GAUSS_SEIDEL_SOLVER defaults */
  (*s)->maxit   = 1000;
  PetscCall(MbSolverSetType(*s, MBSOLVERGS));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverSetType(MbSolver s, const char type[])
{
  PetscErrorCode (*create)(MbSolver);
  PetscBool same;
  PetscFunctionBegin;
  PetscCheck(type, s->comm, PETSC_ERR_ARG_NULL, "solver type is NULL");
  PetscCall(PetscStrcmp(s->type, type, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbRegistryFind(s->comm, MbSolverList, "solver type", "solver types", type, (void (**)(void)) & create));
  if (s->ops.destroy) PetscCall(s->ops.destroy(s));
  PetscCall(PetscMemzero(&s->ops, sizeof(s->ops)));
  s->data = NULL;
  PetscCall(PetscFree(s->type));
  PetscCall(PetscStrallocpy(type, &s->type));
  PetscCall(create(s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverGetType(MbSolver s, const char **type)
{
  PetscFunctionBegin;
  *type = s->type;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverSetTolerances(MbSolver s, PetscReal epsilon, PetscInt maxit)
{
  PetscFunctionBegin;
  PetscCheck(epsilon > 0 && !PetscIsInfOrNanReal(epsilon), s->comm, PETSC_ERR_ARG_OUTOFRANGE, "solver tolerance epsilon must be > 0, got %g", (double)epsilon);
  PetscCheck(maxit > 0, s->comm, PETSC_ERR_ARG_OUTOFRANGE, "solver iteration cap maxit must be > 0, got %" PetscInt_FMT, maxit);
  s->epsilon = epsilon;
  s->maxit   = maxit;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverView(MbSolver s, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "constraint solver %s: epsilon %g, maxit %" PetscInt_FMT "\n", s->type, (double)s->epsilon, s->maxit));
  if (s->ops.view) {
    PetscCall(PetscViewerASCIIPushTab(v));
    PetscCall(s->ops.view(s, v));
    PetscCall(PetscViewerASCIIPopTab(v));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverViewFromOptions(MbSolver s)
{
  PetscFunctionBegin;
  if (s->view) PetscCall(MbSolverView(s, PETSC_VIEWER_STDOUT_(s->comm)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverSetFromOptions(MbSolver s)
{
  char      type[256];
  PetscBool set;
  PetscReal epsilon = s->epsilon;
  PetscInt  maxit   = s->maxit;
  PetscFunctionBegin;
  PetscOptionsBegin(s->comm, NULL, "Constraint solver options", "MbSolver");
  PetscCall(PetscOptionsFList("-mb_solver_type", "Constraint solver", "MbSolverSetType", MbSolverList, s->type, type, sizeof(type), &set));
  if (set) PetscCall(MbSolverSetType(s, type));
  PetscCall(PetscOptionsReal("-mb_solver_epsilon", "Tolerance of the solver's stopping test", "MbSolverSetTolerances", epsilon, &epsilon, NULL));
  PetscCall(PetscOptionsInt("-mb_solver_maxit", "Iteration cap", "MbSolverSetTolerances", maxit, &maxit, NULL));
  PetscCall(PetscOptionsBool("-mb_solver_view", "Print the solver's settings at the end of the run", "MbSolverView", s->view, &s->view, NULL));
  if (s->ops.setfromoptions) PetscCall(s->ops.setfromoptions(s, PetscOptionsObject));
  PetscOptionsEnd();
  PetscCall(MbSolverSetTolerances(s, epsilon, maxit));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every rank checks its blocks' laws; the first bad one (in global numbering) is reported
   on every rank with the same message, so no rank waits in a collective. */
static PetscErrorCode CheckLaws(MPI_Comm comm, Mat W, const MbLaw law[])
{
  PetscInt        rstart, rend, bad = PETSC_MAX_INT, gbad;
  const PetscInt *ranges;
  PetscMPIInt     size, owner = 0;
  MbLaw           l;
  PetscFunctionBegin;
  PetscCall(MatGetOwnershipRange(W, &rstart, &rend));
  for (PetscInt i = 0; i < (rend - rstart) / 3 && bad == PETSC_MAX_INT; i++) {
    const MbLaw *a  = &law[i];
    PetscBool    ok = (a->kind == MB_LAW_CONTACT || a->kind == MB_LAW_EQUALITY || a->kind == MB_LAW_NORMAL) ? PETSC_TRUE : PETSC_FALSE;
    /* C99's isfinite is inline, where PetscIsInfOrNanReal is a call into PETSc (five a row,
       every step: 0.6 % of a granular run with the calls in MbBlockDiagSetUp) */
    if (a->kind == MB_LAW_CONTACT && !(a->mu >= 0 && a->cohesion >= 0 && isfinite(a->mu) && isfinite(a->cohesion))) ok = PETSC_FALSE;
    for (int d = 0; d < 3; d++)
      if (!isfinite(a->bias[d])) ok = PETSC_FALSE;
    if (!ok) bad = rstart / 3 + i;
  }
  PetscCall(MPIU_Allreduce(&bad, &gbad, 1, MPIU_INT, MPI_MIN, comm));
  if (gbad == PETSC_MAX_INT) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(MatGetOwnershipRanges(W, &ranges));
  for (PetscMPIInt p = 0; p < size; p++)
    if (3 * gbad >= ranges[p] && 3 * gbad < ranges[p + 1]) owner = p;
  if (3 * gbad >= rstart && 3 * gbad < rend) l = law[gbad - rstart / 3];
  PetscCallMPI(MPI_Bcast(&l, (PetscMPIInt)sizeof(l), MPI_BYTE, owner, comm));
  PetscCall(MbLawCheck(comm, gbad, &l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* W, B, R (and U) agree: block size 3, square, the same rows on each rank. */
static PetscErrorCode CheckLayout(MPI_Comm comm, Mat W, Vec B, Vec R, Vec U)
{
  PetscInt m, n, M, N, bm, bn;
  PetscFunctionBegin;
  PetscCall(MatGetSize(W, &M, &N));
  PetscCall(MatGetLocalSize(W, &m, &n));
  PetscCheck(M == N && M % 3 == 0, comm, PETSC_ERR_ARG_SIZ, "W must be square 3n x 3n, got %" PetscInt_FMT " x %" PetscInt_FMT, M, N);
  PetscCheck(m % 3 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "W's local rows %" PetscInt_FMT " are not whole 3x3 blocks", m);
  PetscCall(VecGetSize(B, &bm));
  PetscCall(VecGetLocalSize(B, &bn));
  PetscCheck(bm == M && bn == m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "B has size %" PetscInt_FMT " (local %" PetscInt_FMT "), W has %" PetscInt_FMT " rows (local %" PetscInt_FMT ")", bm, bn, M, m);
  PetscCall(VecGetSize(R, &bm));
  PetscCall(VecGetLocalSize(R, &bn));
  PetscCheck(bm == M && bn == m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "R has size %" PetscInt_FMT " (local %" PetscInt_FMT "), W has %" PetscInt_FMT " rows (local %" PetscInt_FMT ")", bm, bn, M, m);
  if (U) {
    PetscCall(VecGetSize(U, &bm));
    PetscCall(VecGetLocalSize(U, &bn));
    PetscCheck(bm == M && bn == m, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "U has size %" PetscInt_FMT " (local %" PetscInt_FMT "), W has %" PetscInt_FMT " rows (local %" PetscInt_FMT ")", bm, bn, M, m);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MbSolverNaturalError, leaving U = W R + B in Uout when given (MbSolverSolve needs both:
   one product with W, not two). */
static PetscErrorCode NaturalError(Mat W, Vec B, const MbLaw law[], Vec R, Vec Uout, PetscReal *error)
{
  Vec                U = Uout;
  const PetscScalar *r, *u;
  PetscReal          f2 = 0, g2, nb;
  PetscInt           n;
  MPI_Comm           comm;
  PetscFunctionBegin;
  PetscCall(PetscObjectGetComm((PetscObject)W, &comm));
  if (!U) PetscCall(VecDuplicate(B, &U));
  PetscCall(MatMult(W, R, U));
  PetscCall(VecAXPY(U, 1.0, B));
  PetscCall(VecGetLocalSize(R, &n));
  PetscCall(VecGetArrayRead(R, &r));
  PetscCall(VecGetArrayRead(U, &u));
  for (PetscInt i = 0; i < n / 3; i++) {
    PetscReal Ri[3], Ui[3], F[3];
    for (int d = 0; d < 3; d++) Ri[d] = PetscRealPart(r[3 * i + d]), Ui[d] = PetscRealPart(u[3 * i + d]);
    MbLawNaturalMap(&law[i], Ri, Ui, F);
    f2 += F[0] * F[0] + F[1] * F[1] + F[2] * F[2];
  }
  PetscCall(VecRestoreArrayRead(R, &r));
  PetscCall(VecRestoreArrayRead(U, &u));
  if (!Uout) PetscCall(VecDestroy(&U));
  PetscCall(MPIU_Allreduce(&f2, &g2, 1, MPIU_REAL, MPIU_SUM, comm));
  PetscCall(VecNorm(B, NORM_2, &nb));
  *error = PetscSqrtReal(g2) / PetscMax(nb, 1e-300);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverSolve(MbSolver s, Mat W, Vec B, const MbLaw law[], Vec R, Vec U)
{
  PetscFunctionBegin;
  PetscCheck(s->type && s->ops.solve, s->comm, PETSC_ERR_ORDER, "solver type not set");
  PetscCall(CheckLayout(s->comm, W, B, R, U));
  PetscCall(CheckLaws(s->comm, W, law));
  PetscCall(PetscLogEventBegin(MB_SolverSolveEvent, 0, 0, 0, 0));
  s->iterations = 0;
  s->converged  = PETSC_FALSE;
  s->nhist      = 0;
  PetscCall(s->ops.solve(s, W, B, law, R));
  PetscCall(PetscLogEventEnd(MB_SolverSolveEvent, 0, 0, 0, 0));
  PetscCall(NaturalError(W, B, law, R, U, &s->error));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverGetStats(MbSolver s, PetscInt *iterations, PetscReal *error, PetscBool *converged)
{
  PetscFunctionBegin;
  if (iterations) *iterations = s->iterations;
  if (error) *error = s->error;
  if (converged) *converged = s->converged;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverHistoryPush(MbSolver s, PetscReal v)
{
  PetscFunctionBegin;
  if (s->nhist == s->maxhist) {
    PetscInt   m = PetscMax(64, 2 * s->maxhist);
    PetscReal *h;
    PetscCall(PetscMalloc1(m, &h));
    if (s->nhist) PetscCall(PetscArraycpy(h, s->hist, s->nhist));
    PetscCall(PetscFree(s->hist));
    s->hist    = h;
    s->maxhist = m;
  }
  s->hist[s->nhist++] = v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverGetHistory(MbSolver s, PetscInt *n, const PetscReal **h)
{
  PetscFunctionBegin;
  *n = s->nhist;
  *h = s->hist;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverGetCommTime(MbSolver s, PetscLogDouble *t)
{
  *t = s->comm_time;
  return PETSC_SUCCESS;
}

PetscErrorCode MbSolverDestroy(MbSolver *s)
{
  PetscFunctionBegin;
  if (!*s) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*s)->ops.destroy) PetscCall((*s)->ops.destroy(*s));
  PetscCall(PetscFree((*s)->type));
  PetscCall(PetscFree((*s)->hist));
  PetscCall(PetscFree(*s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ‖F_nat(R)‖ / max(‖B‖, tiny), F_nat blockwise (law.c); for contacts with ρ = 1 this is the
   error measure of Acary, Brémond & Huber 2018 ("On solving contact problems with Coulomb
   friction: formulations and numerical comparisons"), ‖F_nat(r)‖/‖q‖. */
PetscErrorCode MbSolverNaturalError(Mat W, Vec B, const MbLaw law[], Vec R, PetscReal *error)
{
  PetscFunctionBegin;
  PetscCall(NaturalError(W, B, law, R, NULL, error));
  PetscFunctionReturn(PETSC_SUCCESS);
}
