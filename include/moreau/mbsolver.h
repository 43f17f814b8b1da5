/* moreau — constraint solvers (seed 001, ARCHITECTURE.md solver/): find R with
   U = W R + B and C(U, R) = 0, blockwise in 3×3 local frames whose third axis is the
   normal (Solfec's convention). W is a PETSc MATBAIJ (or MATAIJ) of block size 3, B, R
   and U are Vecs with the same layout, on one or many ranks. Solvers are registered by
   name and chosen with MbSolverSetType or -mb_solver_type. */
#ifndef MOREAU_MBSOLVER_H
#define MOREAU_MBSOLVER_H

#include <petscmat.h>
#include <moreau/mbsys.h>

/** The law of one constraint block, applied to Ū = U + bias.
    MB_LAW_CONTACT: Signorini–Coulomb with cohesion c ≥ 0, written for R̃ = R + c·e_N:
      R̃ ∈ K_μ = {‖R̃_T‖ ≤ μ R̃_N}, Ū_N + μ‖Ū_T‖ ≥ 0, complementary (De Saxcé);
      its natural map is F = R̃ − proj_K_μ(R̃ − (Ū + μ‖Ū_T‖ e_N)).
    MB_LAW_EQUALITY: Ū = 0 in all three components (FIX_POINT).
    MB_LAW_NORMAL: Ū_N = 0 and R_T = 0 (FIX_DIRECTION, SET_VELOCITY, PUT_RIGID_LINK). */
typedef enum { MB_LAW_CONTACT = 0, MB_LAW_EQUALITY = 1, MB_LAW_NORMAL = 2 } MbLawKind;

typedef struct {
  MbLawKind kind;
  PetscReal mu;       /* friction coefficient >= 0 (contact) */
  PetscReal cohesion; /* c >= 0 (contact) */
  PetscReal bias[3];  /* the law applies to U + bias (restitution, prescribed velocity) */
} MbLaw;

typedef struct _p_MbSolver *MbSolver;

#define MBSOLVERGS "gauss_seidel" /* nonsmooth block Gauss–Seidel */
#define MBSOLVERNEWTON "newton"   /* semismooth Newton with KSP on W */

/** Register a solver constructor by name. Not collective. */
PETSC_EXTERN PetscErrorCode MbSolverRegister(const char name[], PetscErrorCode (*create)(MbSolver));
/** Create a solver (default type gauss_seidel). Collective on comm. */
PETSC_EXTERN PetscErrorCode MbSolverCreate(MPI_Comm comm, MbSolver *solver);
PETSC_EXTERN PetscErrorCode MbSolverDestroy(MbSolver *solver);
/** Set the type by registered name; errors naming the unknown name and listing the known. */
PETSC_EXTERN PetscErrorCode MbSolverSetType(MbSolver solver, const char type[]);
PETSC_EXTERN PetscErrorCode MbSolverGetType(MbSolver solver, const char **type);
/** Tolerance epsilon (> 0) and iteration cap maxit (> 0). */
PETSC_EXTERN PetscErrorCode MbSolverSetTolerances(MbSolver solver, PetscReal epsilon, PetscInt maxit);
/** Read -mb_solver_type, -mb_solver_epsilon, -mb_solver_maxit and type-specific options. */
PETSC_EXTERN PetscErrorCode MbSolverSetFromOptions(MbSolver solver);
/** Solve: R is the warm start on input and the answer on output; U (may be NULL) gets
    W R + B. law has one entry per local block row. Not converging within maxit is not an
    error: MbSolverGetStats says so. Collective. */
PETSC_EXTERN PetscErrorCode MbSolverSolve(MbSolver solver, Mat W, Vec B, const MbLaw law[], Vec R, Vec U);
/** Why a solve of the local dynamics ended (MbLocDynSolve), PETSc style: > 0 converged. */
typedef enum {
  MB_SOLVER_DIVERGED_ERROR = -2, /* the solver's own test passed, but the natural-map error is above the data (> 1) */
  MB_SOLVER_DIVERGED_ITS   = -1, /* the iteration cap came before the tolerance */
  MB_SOLVER_CONVERGED      = 1   /* the tolerance was met (or there was nothing to solve) */
} MbSolverConvergedReason;
/** Iterations and error of the last solve, and whether it met the tolerance. */
PETSC_EXTERN PetscErrorCode MbSolverGetStats(MbSolver solver, PetscInt *iterations, PetscReal *error, PetscBool *converged);
/* The last solve's convergence measure at each iteration (Solfec-1.0's merhist): the Newton
   solver's natural-map error before each Newton step, Gauss-Seidel's stopping measure after
   each sweep (‖ΔR‖/‖R‖, or the natural-map error with -mb_solver_gs_test natural). The
   same on every rank (global measures); borrowed, valid until the next solve. */
PETSC_EXTERN PetscErrorCode MbSolverGetHistory(MbSolver solver, PetscInt *n, const PetscReal **history);
/** Seconds this rank waited in the Gauss–Seidel sweeps' ghost-column scatters, all solves. */
PETSC_EXTERN PetscErrorCode MbSolverGetCommTime(MbSolver s, PetscLogDouble *t);
/** Print the solver's type, tolerances and its own settings (for Gauss–Seidel: the stopping
    test, Anderson window, local Newton cap and which sweep variant runs) on viewer. */
PETSC_EXTERN PetscErrorCode MbSolverView(MbSolver solver, PetscViewer viewer);
/** MbSolverView on stdout of the solver's communicator when -mb_solver_view was given
    (read by MbSolverSetFromOptions). Collective. */
PETSC_EXTERN PetscErrorCode MbSolverViewFromOptions(MbSolver solver);
/** The solver-independent merit: ‖F‖/max(‖B‖, tiny) over all blocks, with F the natural map
    of each block's law (for EQUALITY F = Ū, for NORMAL F = (R_T, Ū_N)). Collective. */
PETSC_EXTERN PetscErrorCode MbSolverNaturalError(Mat W, Vec B, const MbLaw law[], Vec R, PetscReal *error);
/** Comma-separated registered names. */
PETSC_EXTERN PetscErrorCode MbSolverListNames(char buf[], size_t len);

/** An FCLIB problem read into moreau's layout (normal as the third component). */
typedef struct {
  PetscInt  n;      /* contacts */
  Mat       W;      /* 3n × 3n, block size 3 */
  Vec       q;      /* 3n */
  MbLaw    *law;    /* n, MB_LAW_CONTACT with mu */
  Vec       r, u;   /* reference solution when the file has one, else NULL */
  PetscBool global; /* read from /fclib_global (W = HᵀM⁻¹H, q = HᵀM⁻¹f + w) */
} MbFclibProblem;

/** Read an FCLIB local or global problem from an HDF5 file; errors naming the file when it
    is not FCLIB. Every size, index and value is checked before use (sparse pointers and
    indices in range, lengths as declared, reals finite, mu >= 0); an error names the file,
    the dataset, the entry and its value, on every rank. Collective on comm (the problem
    lives on comm). */
PETSC_EXTERN PetscErrorCode MbFclibRead(MPI_Comm comm, const char file[], MbFclibProblem *prob);
PETSC_EXTERN PetscErrorCode MbFclibProblemDestroy(MbFclibProblem *prob);

#endif
