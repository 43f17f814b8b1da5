/* moreau-fclib — solve FCLIB frictional contact problems with moreau's solvers:
     moreau-fclib [options] FILE...
     mpirun -np N moreau-fclib [options] FILE...
   One line per file: file=NAME contacts=N solver=S iterations=K error=E time=SECONDS, with E
   the natural-map error ‖F_nat(r)‖/‖q‖ (MbSolverNaturalError; Acary, Brémond & Huber 2018)
   and the time of the solve alone. Exits 1 when a file cannot be read or misses -tol. */
#include <string.h>
#include <sys/stat.h>
#include <moreau/moreau.h>

static const char Help[] = "moreau-fclib: solve FCLIB frictional contact problems.\n";

static void Usage(FILE *f)
{
  fprintf(f, "usage: moreau-fclib [options] FILE...\n"
             "       mpirun -np N moreau-fclib [options] FILE...\n"
             "\n"
             "Reads each FCLIB problem (HDF5: /fclib_local, or /fclib_global reduced to W = H^T M^-1 H,\n"
             "q = H^T M^-1 f + w), solves it from r = 0 and prints one line per file:\n"
             "  file=NAME contacts=N solver=S iterations=K error=E time=SECONDS\n"
             "E is the natural-map error |F_nat(r)|/|q| (Acary, Bremond, Huber 2018), time the solve's.\n"
             "The exit status is 1 when a file cannot be read or its error is above -tol.\n"
             "\n"
             "options:\n"
             "  -mb_solver_type gauss_seidel|newton  the solver (default gauss_seidel)\n"
             "  -tol E                      target natural-map error (default 1e-8); the solver's epsilon\n"
             "  -maxit N                    iteration cap (default 100000)\n"
             "  -mb_solver_gs_test natural|increment  Gauss-Seidel's stopping test (default here: natural)\n"
             "  -mb_solver_gs_local_maxit N Newton iterations of each 3x3 local problem (default 50)\n"
             "  -mb_solver_newton_gs_sweeps N  Gauss-Seidel sweeps when Newton's line search stalls (default 10)\n"
             "  -mb_solver_newton_monitor   print Newton's residual per step\n"
             "  -mb_solver_newton_ksp_type, -mb_solver_newton_pc_type, ...  Newton's linear solver (default GMRES)\n"
             "  --help                      this text; -help lists every PETSc option too\n");
}

static char           LastError[1024];
static PetscErrorCode KeepMessage(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL && mess) snprintf(LastError, sizeof(LastError), "%s", mess);
  return n;
}

static int LooksLikeFile(const char *s)
{
  struct stat st;
  size_t      n = strlen(s);
  if (!stat(s, &st)) return 1;
  return (n > 5 && !strcmp(s + n - 5, ".hdf5")) || (n > 3 && !strcmp(s + n - 3, ".h5"));
}

static PetscErrorCode SolveFile(const char file[], PetscReal tol, PetscInt maxit, PetscBool *met)
{
  MbFclibProblem prob;
  MbSolver       s;
  Vec            R;
  PetscInt       its, rstart;
  PetscReal      err;
  PetscBool      conv;
  const char    *type, *base = strrchr(file, '/');
  double         t0, t1;
  PetscFunctionBegin;
  PetscCall(MbFclibRead(PETSC_COMM_WORLD, file, &prob));
  PetscCall(MbSolverCreate(PETSC_COMM_WORLD, &s));
  PetscCall(MbSolverSetTolerances(s, tol, maxit));
  PetscCall(MbSolverSetFromOptions(s));
  PetscCall(MbSolverGetType(s, &type));
  PetscCall(VecDuplicate(prob.q, &R));
  PetscCall(VecZeroEntries(R));
  PetscCall(MatGetOwnershipRange(prob.W, &rstart, NULL));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  t0 = MPI_Wtime();
  PetscCall(MbSolverSolve(s, prob.W, prob.q, prob.law + rstart / 3, R, NULL));
  t1 = MPI_Wtime();
  PetscCall(MbSolverGetStats(s, &its, &err, &conv));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "file=%s contacts=%" PetscInt_FMT " solver=%s iterations=%" PetscInt_FMT " error=%.3e time=%.6f\n", base ? base + 1 : file, prob.n, type, its, (double)err, t1 - t0));
  *met = err <= tol ? PETSC_TRUE : PETSC_FALSE;
  if (!*met)
    PetscCall(PetscFPrintf(PETSC_COMM_WORLD, stderr, "moreau-fclib: %s missed -tol %g: error %.3e after %" PetscInt_FMT " iterations (%s)\n", file, (double)tol, (double)err, its, conv ? "the solver's test was met" : "iteration cap reached"));
  PetscCall(VecDestroy(&R));
  PetscCall(MbSolverDestroy(&s));
  PetscCall(MbFclibProblemDestroy(&prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char    **pargv, **files;
  int       pargc = 1, nfiles = 0, failed = 0, missed = 0;
  PetscReal tol   = 1e-8;
  PetscInt  maxit = 100000;
  PetscBool set;

  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      Usage(stdout);
      return 0;
    }
  /* FILE arguments apart from the options, so that PETSc never reads a file name as an
     option's value: a word after an option is its value unless it names a file */
  pargv    = (char **)calloc((size_t)argc + 1, sizeof(char *));
  files    = (char **)calloc((size_t)argc + 1, sizeof(char *));
  pargv[0] = argv[0];
  for (int i = 1; i < argc; i++) {
    int after_option = argv[i - 1][0] == '-' && i > 1 && strcmp(argv[i - 1], "--");
    if (argv[i][0] != '-' && (!after_option || LooksLikeFile(argv[i])))
      files[nfiles++] = argv[i];
    else if (strcmp(argv[i], "--"))
      pargv[pargc++] = argv[i];
  }
  if (PetscInitialize(&pargc, &pargv, NULL, Help)) return 1;
  if (MbInitialize()) return 1;
  if (PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL) || PetscOptionsGetInt(NULL, NULL, "-maxit", &maxit, NULL)) return 1;
  PetscOptionsHasName(NULL, NULL, "-help", &set);
  if (!nfiles) { /* -help alone: PETSc's options are listed by the solver, which needs a file */
    Usage(set ? stdout : stderr);
    MbFinalize();
    PetscFinalize();
    return set ? 0 : 2;
  }
  if (!(tol > 0) || maxit <= 0) {
    PetscFPrintf(PETSC_COMM_WORLD, stderr, "moreau-fclib: -tol must be > 0 (got %g) and -maxit > 0 (got %" PetscInt_FMT ")\n", (double)tol, maxit);
    MbFinalize();
    PetscFinalize();
    return 2;
  }
  /* Gauss–Seidel stops on the same error that -tol is about, unless told otherwise */
  PetscOptionsHasName(NULL, NULL, "-mb_solver_gs_test", &set);
  if (!set) PetscOptionsSetValue(NULL, "-mb_solver_gs_test", "natural");
  for (int k = 0; k < nfiles; k++) {
    PetscBool      met = PETSC_FALSE;
    PetscErrorCode ierr;
    LastError[0] = 0;
    PetscPushErrorHandler(KeepMessage, NULL);
    ierr = SolveFile(files[k], tol, maxit, &met);
    PetscPopErrorHandler();
    if (ierr) {
      PetscFPrintf(PETSC_COMM_WORLD, stderr, "moreau-fclib: %s\n", LastError[0] ? LastError : "error");
      failed++;
    } else if (!met)
      missed++;
  }
  if (missed || failed) PetscFPrintf(PETSC_COMM_WORLD, stderr, "moreau-fclib: %d of %d file(s) missed -tol %g, %d could not be solved\n", missed, nfiles, (double)tol, failed);
  MbFinalize();
  PetscFinalize();
  free(pargv);
  free(files);
  return missed || failed ? 1 : 0;
}
