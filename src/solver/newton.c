/* Semismooth Newton on the whole system (Alart & Curnier 1991, CMAME 92:353; the global
   form as in Acary, Brémond & Huber 2018): with U = W R + B, find R with
     F(R) = F_AC(R, W R + B) = 0,  F_AC blockwise (law.c),
   by Newton steps (Dr + Du W + δI) dR = −F, Dr, Du block diagonal elements of the
   generalized Jacobian and δ = c·min(1e-2, ‖F‖/‖F₀‖) a vanishing proximal (Levenberg–
   Marquardt-like) shift that keeps the step unique where W is singular (rank-deficient
   contact sets: boxes on four corners, granular packings). J has W's block pattern: each
   block row of W is multiplied from the left by its Du and the diagonal block gets Dr + δI,
   in place in a copy of W. The linear systems are solved by KSP (GMRES(100), right
   point-block Jacobi; -mb_solver_newton_ksp_type, -mb_solver_newton_pc_type, ...) with a
   forcing term; a backtracking (Armijo) line search on ½‖F‖² follows, and when it stalls
   (or KSP fails) the solver does -mb_solver_newton_gs_sweeps block Gauss–Seidel sweeps
   instead. It stops when the natural-map error (MbSolverNaturalError) is ≤ epsilon.
   Iterations count Newton steps plus Gauss–Seidel sweeps. */
#include <petscksp.h>
#include "solverimpl.h"

static PetscBool  NewtonCited      = PETSC_FALSE;
static const char NewtonCitation[] = "@article{AlartCurnier1991,\n  author = {P. Alart and A. Curnier},\n  title = {A mixed formulation for frictional contact problems prone to {N}ewton like solution methods},\n  journal = {Computer Methods in "
                                     "Applied Mechanics and Engineering},\n  volume = {92},\n  pages = {353--375},\n  year = {1991}\n}\n";

typedef struct {
  KSP        ksp;            /* linear solver of the Newton steps */
  PetscInt   gs_sweeps;      /* Gauss–Seidel sweeps when the line search stalls */
  PetscInt   ls_max;         /* halvings of the line search */
  PetscInt   newton_its;     /* Newton steps, last solve */
  PetscInt   gs_its;         /* fall-back sweeps, last solve */
  PetscInt   ksp_its;        /* linear iterations, last solve */
  PetscBool  monitor;        /* print ‖F‖ and the error per step */
  PetscReal  regularization; /* c in J + δI, δ = c min(1e-2, ‖F‖/‖F₀‖) */
  MbBlockCtx ctx;            /* W's block structure (shared with the Gauss–Seidel fall-back) */
} MbSolver_Newton;

typedef struct {
  Vec        U, F;    /* U = W R + B, F_AC */
  PetscReal *Dr, *Du; /* 9 per local block */
  PetscReal  phi;     /* ½‖F‖² */
  PetscReal  err;     /* natural-map error */
} Eval;

/* U = W R + B, F, Dr, Du at R, with the merit and the natural-map error. Collective. */
static PetscErrorCode Evaluate(MbBlockCtx *ctx, Vec B, PetscReal nb, const MbLaw law[], const PetscReal rho[], Vec R, Eval *e)
{
  const PetscScalar *r, *u;
  PetscScalar       *f;
  PetscReal          loc[2] = {0, 0}, glob[2];
  PetscFunctionBegin;
  PetscCall(MatMult(ctx->Wb, R, e->U));
  PetscCall(VecAXPY(e->U, 1.0, B));
  PetscCall(VecGetArrayRead(R, &r));
  PetscCall(VecGetArrayRead(e->U, &u));
  PetscCall(VecGetArray(e->F, &f));
  for (PetscInt i = 0; i < ctx->nb; i++) {
    PetscReal Ri[3], Ui[3], Fi[3], Ni[3];
    for (int d = 0; d < 3; d++) Ri[d] = PetscRealPart(r[3 * i + d]), Ui[d] = PetscRealPart(u[3 * i + d]);
    MbLawAlartCurnier(&law[i], rho[i], Ri, Ui, Fi, e->Dr + 9 * i, e->Du + 9 * i);
    MbLawNaturalMap(&law[i], Ri, Ui, Ni);
    for (int d = 0; d < 3; d++) {
      f[3 * i + d] = Fi[d];
      loc[0] += Fi[d] * Fi[d];
      loc[1] += Ni[d] * Ni[d];
    }
  }
  PetscCall(VecRestoreArrayRead(R, &r));
  PetscCall(VecRestoreArrayRead(e->U, &u));
  PetscCall(VecRestoreArray(e->F, &f));
  PetscCall(MPIU_Allreduce(loc, glob, 2, MPIU_REAL, MPIU_SUM, ctx->comm));
  e->phi = 0.5 * glob[0];
  e->err = PetscSqrtReal(glob[1]) / PetscMax(nb, 1e-300);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* J_k = Du_i W_k (+ Dr_i on the diagonal) for the blocks k of one part (Ad or Ao) */
static void ScaleRows(PetscInt nb, const PetscInt *ia, const PetscInt *diag, const PetscScalar *wa, PetscScalar *ja, const PetscReal *Dr, const PetscReal *Du, PetscReal delta)
{
  for (PetscInt i = 0; i < nb; i++) {
    const PetscReal *D = Du + 9 * i;
    for (PetscInt k = ia[i]; k < ia[i + 1]; k++) {
      PetscReal Wk[9];
      MbBlockGet(wa, k, Wk);
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
          PetscReal v = D[3 * a] * Wk[b] + D[3 * a + 1] * Wk[3 + b] + D[3 * a + 2] * Wk[6 + b];
          if (diag && k == diag[i]) v += Dr[9 * i + 3 * a + b] + (a == b ? delta : 0);
          ja[9 * k + 3 * b + a] = v; /* column-major */
        }
    }
  }
}

static PetscErrorCode AssembleJacobian(MbBlockCtx *ctx, Mat J, const Eval *e, PetscReal delta)
{
  Mat          Jd = J, Jo = NULL;
  PetscScalar *ja;
  PetscBool    mpi;
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)J, MATMPIBAIJ, &mpi));
  if (mpi) PetscCall(MatMPIBAIJGetSeqBAIJ(J, &Jd, &Jo, NULL));
  PetscCall(MatSeqBAIJGetArray(Jd, &ja));
  ScaleRows(ctx->nb, ctx->ai, ctx->adiag, ctx->aa, ja, e->Dr, e->Du, delta);
  PetscCall(MatSeqBAIJRestoreArray(Jd, &ja));
  if (Jo && ctx->Ao) {
    PetscCall(MatSeqBAIJGetArray(Jo, &ja));
    ScaleRows(ctx->nb, ctx->bi, NULL, ctx->ba, ja, e->Dr, e->Du, 0);
    PetscCall(MatSeqBAIJRestoreArray(Jo, &ja));
  }
  /* new values in place: assembling again marks J and its parts changed, so the
     preconditioner is set up anew */
  PetscCall(MatAssemblyBegin(J, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(J, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MbSolverSolve_Newton(MbSolver s, Mat W, Vec B, const MbLaw law[], Vec R)
{
  MbSolver_Newton *nt  = (MbSolver_Newton *)s->data;
  MbBlockCtx      *ctx = &nt->ctx;
  Mat              J;
  Vec              dR, Rt, rhs;
  Eval             e[2], *cur = &e[0], *try = &e[1];
  PetscReal       *rho, nb, phi0, dR2, R2;
  PetscFunctionBegin;
  if (!NewtonCited) PetscCall(PetscCitationsRegister(NewtonCitation, &NewtonCited));
  PetscCall(MbBlockCtxSetUp(W, ctx));
  PetscCall(MatDuplicate(ctx->Wb, MAT_COPY_VALUES, &J));
  PetscCall(VecDuplicate(R, &dR));
  PetscCall(VecDuplicate(R, &Rt));
  PetscCall(VecDuplicate(R, &rhs));
  PetscCall(PetscMalloc1(ctx->nb, &rho));
  for (int k = 0; k < 2; k++) {
    PetscCall(VecDuplicate(R, &e[k].U));
    PetscCall(VecDuplicate(R, &e[k].F));
    PetscCall(PetscMalloc2(9 * ctx->nb, &e[k].Dr, 9 * ctx->nb, &e[k].Du));
  }
  for (PetscInt i = 0; i < ctx->nb; i++) {
    PetscReal Wd[9];
    MbBlockGet(ctx->aa, ctx->adiag[i], Wd);
    rho[i] = MbLawRho(Wd);
  }
  PetscCall(VecNorm(B, NORM_2, &nb));
  nt->newton_its = nt->gs_its = nt->ksp_its = 0;
  s->converged                              = PETSC_FALSE;
  PetscCall(Evaluate(ctx, B, nb, law, rho, R, cur));
  phi0 = PetscMax(cur->phi, 1e-300);
  while (s->iterations < s->maxit) {
    KSPConvergedReason reason;
    PetscInt           kits;
    PetscReal          t        = 1;
    PetscBool          accepted = PETSC_FALSE;
    if (nt->monitor) PetscCall(PetscPrintf(s->comm, "  newton %" PetscInt_FMT ": |F_AC| %.3e error %.3e\n", s->iterations, (double)PetscSqrtReal(2 * cur->phi), (double)cur->err));
    PetscCall(MbSolverHistoryPush(s, cur->err));
    if (cur->err <= s->epsilon) {
      s->converged = PETSC_TRUE;
      break;
    }
    /* δ = c min(1e-2, ‖F‖/‖F₀‖): J + δI is regular where W is singular (rank-deficient
       contact sets), and δ → 0 keeps the fast local rate */
    PetscCall(AssembleJacobian(ctx, J, cur, nt->regularization * PetscMin(1e-2, PetscSqrtReal(cur->phi / phi0))));
    PetscCall(KSPSetOperators(nt->ksp, J, J));
    /* forcing term: tighter as F falls, for the superlinear rate */
    PetscCall(KSPSetTolerances(nt->ksp, PetscMax(1e-12, PetscMin(1e-3, PetscSqrtReal(cur->phi / phi0))), PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT));
    PetscCall(VecCopy(cur->F, rhs));
    PetscCall(VecScale(rhs, -1.0));
    PetscCall(VecZeroEntries(dR));
    PetscCall(KSPSolve(nt->ksp, rhs, dR));
    PetscCall(KSPGetConvergedReason(nt->ksp, &reason));
    PetscCall(KSPGetIterationNumber(nt->ksp, &kits));
    nt->ksp_its += kits;
    s->iterations++;
    nt->newton_its++;
    if (reason > 0 || reason == KSP_DIVERGED_ITS) {
      for (PetscInt ls = 0; ls < nt->ls_max; ls++, t *= 0.5) { /* Armijo on ½‖F‖² */
        PetscCall(VecWAXPY(Rt, t, dR, R));
        PetscCall(Evaluate(ctx, B, nb, law, rho, Rt, try));
        if (try->phi <= (1 - 2e-4 * t) * cur->phi) {
          accepted = PETSC_TRUE;
          break;
        }
      }
    }
    if (accepted) {
      Eval *tmp = cur;
      PetscCall(VecCopy(Rt, R));
      cur = try, try = tmp;
    } else { /* stalled: nonsmooth Gauss–Seidel sweeps, then Newton again */
      if (nt->monitor) PetscCall(PetscPrintf(s->comm, "  newton: line search stalled (KSP reason %d), %" PetscInt_FMT " Gauss-Seidel sweeps\n", (int)reason, nt->gs_sweeps));
      for (PetscInt k = 0; k < nt->gs_sweeps && s->iterations < s->maxit; k++) {
        PetscCall(MbBlockSweep(ctx, B, law, R, &dR2, &R2));
        s->iterations++;
        nt->gs_its++;
      }
      PetscCall(Evaluate(ctx, B, nb, law, rho, R, cur));
    }
  }
  if (!s->converged) PetscCall(MbSolverHistoryPush(s, cur->err)); /* where the iteration cap left it */
  if (nt->monitor) PetscCall(PetscPrintf(s->comm, "  newton: %" PetscInt_FMT " Newton steps (%" PetscInt_FMT " KSP iterations), %" PetscInt_FMT " Gauss-Seidel sweeps, error %.3e\n", nt->newton_its, nt->ksp_its, nt->gs_its, (double)cur->err));
  for (int k = 0; k < 2; k++) {
    PetscCall(VecDestroy(&e[k].U));
    PetscCall(VecDestroy(&e[k].F));
    PetscCall(PetscFree2(e[k].Dr, e[k].Du));
  }
  PetscCall(PetscFree(rho));
  PetscCall(VecDestroy(&dR));
  PetscCall(VecDestroy(&Rt));
  PetscCall(VecDestroy(&rhs));
  PetscCall(KSPReset(nt->ksp));
  PetscCall(MatDestroy(&J));
  PetscCall(MbBlockCtxReset(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MbSolverSetFromOptions_Newton(MbSolver s, PetscOptionItems *PetscOptionsObject)
{
  MbSolver_Newton *nt = (MbSolver_Newton *)s->data;
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Semismooth Newton options");
  PetscCall(PetscOptionsInt("-mb_solver_newton_gs_sweeps", "Gauss-Seidel sweeps when the line search stalls", "MbSolver", nt->gs_sweeps, &nt->gs_sweeps, NULL));
  PetscCall(PetscOptionsInt("-mb_solver_newton_ls_max", "Halvings of the line search", "MbSolver", nt->ls_max, &nt->ls_max, NULL));
  PetscCall(PetscOptionsInt("-mb_solver_gs_local_maxit", "Newton iterations of each 3x3 local problem (Gauss-Seidel fall-back)", "MbSolver", nt->ctx.local_maxit, &nt->ctx.local_maxit, NULL));
  PetscCall(PetscOptionsReal("-mb_solver_newton_regularization", "c in the Newton matrix J + delta I, delta = c min(1e-2, |F|/|F0|); 0: none", "MbSolver", nt->regularization, &nt->regularization, NULL));
  PetscCall(PetscOptionsBool("-mb_solver_newton_monitor", "Print the residual and the error at each Newton step", "MbSolver", nt->monitor, &nt->monitor, NULL));
  PetscOptionsHeadEnd();
  PetscCheck(nt->gs_sweeps > 0, s->comm, PETSC_ERR_ARG_OUTOFRANGE, "-mb_solver_newton_gs_sweeps must be > 0, got %" PetscInt_FMT, nt->gs_sweeps);
  PetscCheck(nt->regularization >= 0, s->comm, PETSC_ERR_ARG_OUTOFRANGE, "-mb_solver_newton_regularization must be >= 0, got %g", (double)nt->regularization);
  PetscCheck(nt->ls_max > 0, s->comm, PETSC_ERR_ARG_OUTOFRANGE, "-mb_solver_newton_ls_max must be > 0, got %" PetscInt_FMT, nt->ls_max);
  PetscCall(KSPSetFromOptions(nt->ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MbSolverView_Newton(MbSolver s, PetscViewer v)
{
  MbSolver_Newton *nt = (MbSolver_Newton *)s->data;
  KSPType          kt;
  PCType           pt;
  PC               pc;
  PetscFunctionBegin;
  PetscCall(KSPGetType(nt->ksp, &kt));
  PetscCall(KSPGetPC(nt->ksp, &pc));
  PetscCall(PCGetType(pc, &pt));
  PetscCall(PetscViewerASCIIPrintf(v, "linear solver %s with %s (-mb_solver_newton_ksp_*, -mb_solver_newton_pc_*), regularization %g, line search halvings %" PetscInt_FMT ", Gauss-Seidel fall-back sweeps %" PetscInt_FMT "\n", kt ? kt : "(unset)",
                                   pt ? pt : "(unset)", (double)nt->regularization, nt->ls_max, nt->gs_sweeps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MbSolverDestroy_Newton(MbSolver s)
{
  MbSolver_Newton *nt = (MbSolver_Newton *)s->data;
  PetscFunctionBegin;
  PetscCall(KSPDestroy(&nt->ksp));
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverCreate_Newton(MbSolver s)
{
  MbSolver_Newton *nt;
  PC               pc;
  PetscFunctionBegin;
  PetscCall(PetscNew(&nt));
  nt->gs_sweeps       = 10;
  nt->ls_max          = 20;
  nt->ctx.local_maxit = 50;
  PetscCall(KSPCreate(s->comm, &nt->ksp));
  PetscCall(KSPSetOptionsPrefix(nt->ksp, "mb_solver_newton_"));
  PetscCall(KSPSetType(nt->ksp, KSPGMRES));
  nt->regularization = 1;
  PetscCall(KSPSetTolerances(nt->ksp, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 200));
  /* right preconditioning: GMRES then measures the true residual (ILU(0) of a nearly
     singular J made left-preconditioned residuals small and true ones huge); the 3×3
     diagonal blocks of J are regular where W's are */
  PetscCall(KSPSetPCSide(nt->ksp, PC_RIGHT));
  PetscCall(KSPGMRESSetRestart(nt->ksp, 100));
  PetscCall(KSPGetPC(nt->ksp, &pc));
  PetscCall(PCSetType(pc, PCPBJACOBI));
  s->data               = nt;
  s->ops.solve          = MbSolverSolve_Newton;
  s->ops.setfromoptions = MbSolverSetFromOptions_Newton;
  s->ops.view           = MbSolverView_Newton;
  s->ops.destroy        = MbSolverDestroy_Newton;
  PetscFunctionReturn(PETSC_SUCCESS);
}
