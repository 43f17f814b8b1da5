/* Siconos 4.4 comparison driver: the same FCLIB problems as moreau-fclib, read by moreau's
   MbFclibRead (so the local and the global files give the very W and q that moreau solves),
   handed to Siconos Numerics' fc3d_nsgs (nonsmooth Gauss–Seidel; Jean & Moreau) with its
   default local solver and error evaluation, tolerance -tol, cap -maxit. The error printed is
   ours, ‖F_nat(r)‖/‖q‖ (Acary, Brémond & Huber 2018), computed here from Siconos' r.
     siconos_nsgs [-tol E] [-maxit N] FILE...
   prints file=... contacts=... solver=siconos_nsgs iterations=... error=... time=... info=... */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include <moreau/moreau.h>
#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/NumericsSparseMatrix.h>
#include <siconos/numerics/SparseBlockMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/fc3d_Solvers.h>
#include <siconos/numerics/CSparseMatrix.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsVerbose.h>

/* moreau's component c (normal third) is FCLIB's component ToFclib[c] (normal first) */
static const int ToFclib[3] = {1, 2, 0};
#define F(i) (3 * ((i) / 3) + ToFclib[(i) % 3])

/* ‖r − proj_K(r − (u + μ‖u_T‖e_N))‖ / ‖q‖, normal first */
static double NaturalError(int nc, NumericsMatrix *W, const double *q, const double *mu, const double *r)
{
  double *u = malloc(sizeof(double) * 3 * nc), f2 = 0, q2 = 0;
  for (int i = 0; i < 3 * nc; i++) u[i] = q[i], q2 += q[i] * q[i];
  NM_gemv(1.0, W, r, 1.0, u);
  for (int k = 0; k < nc; k++) {
    const double *rk = r + 3 * k, *uk = u + 3 * k;
    double        m = mu[k], ut = sqrt(uk[1] * uk[1] + uk[2] * uk[2]);
    double        z[3] = {rk[0] - (uk[0] + m * ut), rk[1] - uk[1], rk[2] - uk[2]}, p[3];
    double        zt   = sqrt(z[1] * z[1] + z[2] * z[2]);
    if (zt <= m * z[0])
      p[0] = z[0], p[1] = z[1], p[2] = z[2];
    else if (m * zt <= -z[0])
      p[0] = p[1] = p[2] = 0;
    else {
      double a = (z[0] + m * zt) / (1 + m * m);
      p[0] = a, p[1] = m * a * z[1] / zt, p[2] = m * a * z[2] / zt;
    }
    for (int d = 0; d < 3; d++) f2 += (rk[d] - p[d]) * (rk[d] - p[d]);
  }
  free(u);
  return sqrt(f2) / fmax(sqrt(q2), 1e-300);
}

static PetscErrorCode SolveFile(const char *file, double tol, int maxit)
{
  MbFclibProblem               prob;
  Mat                          A;
  PetscInt                     n3, ncols;
  const PetscInt              *cols;
  const PetscScalar           *vals, *qa;
  NumericsMatrix              *T, *W;
  SparseBlockStructuredMatrix *sbm;
  double                      *q, *mu, *r, *u, t0, t1, err;
  int                          nc, info = 0;
  const char                  *base = strrchr(file, '/');
  PetscFunctionBegin;
  PetscCall(MbFclibRead(PETSC_COMM_SELF, file, &prob));
  nc = (int)prob.n;
  n3 = 3 * prob.n;
  PetscCall(MatConvert(prob.W, MATSEQAIJ, MAT_INITIAL_MATRIX, &A));
  T = NM_create(NM_SPARSE, (int)n3, (int)n3);
  NM_triplet_alloc(T, 0);
  T->matrix2->origin = NSM_TRIPLET;
  for (PetscInt i = 0; i < n3; i++) {
    PetscCall(MatGetRow(A, i, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; k++)
      if (vals[k] != 0) CSparseMatrix_entry(NM_triplet(T), F(i), F(cols[k]), vals[k]);
    PetscCall(MatRestoreRow(A, i, &ncols, &cols, &vals));
  }
  sbm = SBM_new();
  if (SBM_from_csparse(3, NM_csc(T), sbm)) SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "SBM_from_csparse failed on %s", file);
  W = NM_new_SBM((int)n3, (int)n3, sbm);
  NM_free(T);
  q  = malloc(sizeof(double) * n3);
  mu = malloc(sizeof(double) * nc);
  r  = calloc((size_t)n3, sizeof(double));
  u  = calloc((size_t)n3, sizeof(double));
  PetscCall(VecGetArrayRead(prob.q, &qa));
  for (PetscInt i = 0; i < n3; i++) q[F(i)] = qa[i];
  PetscCall(VecRestoreArrayRead(prob.q, &qa));
  for (int k = 0; k < nc; k++) mu[k] = prob.law[k].mu;
  FrictionContactProblem *p            = frictionContactProblem_new_with_data(3, nc, W, q, mu);
  SolverOptions          *opt          = solver_options_create(SICONOS_FRICTION_3D_NSGS);
  opt->iparam[SICONOS_IPARAM_MAX_ITER] = maxit;
  opt->dparam[SICONOS_DPARAM_TOL]      = tol;
  t0                                   = MPI_Wtime();
  info                                 = fc3d_driver(p, r, u, opt);
  t1                                   = MPI_Wtime();
  err                                  = NaturalError(nc, W, q, mu, r);
  printf("file=%s contacts=%d solver=siconos_nsgs iterations=%d error=%.3e time=%.6f info=%d\n", base ? base + 1 : file, nc, opt->iparam[SICONOS_IPARAM_ITER_DONE], err, t1 - t0, info);
  fflush(stdout);
  solver_options_delete(opt);
  frictionContactProblem_free(p); /* frees W, q, mu */
  free(r);
  free(u);
  PetscCall(MatDestroy(&A));
  PetscCall(MbFclibProblemDestroy(&prob));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  double tol   = 1e-8;
  int    maxit = 100000, fails = 0;
  if (PetscInitializeNoArguments() || MbInitialize()) return 1;
  if (getenv("SICONOS_VERBOSE")) numerics_set_verbose(atoi(getenv("SICONOS_VERBOSE")));
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-tol") && i + 1 < argc)
      tol = atof(argv[++i]);
    else if (!strcmp(argv[i], "-maxit") && i + 1 < argc)
      maxit = atoi(argv[++i]);
    else if (SolveFile(argv[i], tol, maxit))
      fails++;
  }
  MbFinalize();
  PetscFinalize();
  return fails ? 1 : 0;
}
