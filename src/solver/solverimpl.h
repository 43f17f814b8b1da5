/* Private layout of MbSolver; an implementation's constructor fills ops and data. Also the
   per-block law kernels (law.c) and the block Gauss–Seidel sweep shared by the solvers. */
#ifndef MOREAU_SOLVERIMPL_H
#define MOREAU_SOLVERIMPL_H

#include <moreau/mbsolver.h>

typedef struct {
  PetscErrorCode (*setfromoptions)(MbSolver, PetscOptionItems *);  /* type-specific options */
  PetscErrorCode (*solve)(MbSolver, Mat, Vec, const MbLaw[], Vec); /* R in/out; sets iterations, converged */
  PetscErrorCode (*view)(MbSolver, PetscViewer);                   /* optional */
  PetscErrorCode (*destroy)(MbSolver);                             /* free data */
} MbSolverOps;

struct _p_MbSolver {
  MPI_Comm       comm;       /* communicator of W, B, R */
  char          *type;       /* registered name */
  MbSolverOps    ops;        /* filled by the constructor */
  void          *data;       /* implementation data */
  PetscReal      epsilon;    /* tolerance of the implementation's stopping test */
  PetscInt       maxit;      /* iteration cap */
  PetscInt       iterations; /* of the last solve */
  PetscReal      error;      /* MbSolverNaturalError after the last solve */
  PetscBool      converged;  /* the last solve met its stopping test */
  PetscLogDouble comm_time;  /* seconds waiting in ghost-column scatters, all solves */
  PetscBool      view;       /* -mb_solver_view: MbSolverViewFromOptions prints MbSolverView */
  PetscReal     *hist;       /* the implementation's convergence measure at each iteration of the last solve */
  PetscInt       nhist, maxhist;
};

/* Append an iteration's convergence measure to the last solve's history (MbSolverGetHistory). */
PETSC_INTERN PetscErrorCode MbSolverHistoryPush(MbSolver, PetscReal);
PETSC_INTERN PetscErrorCode MbSolverCreate_GS(MbSolver);
PETSC_INTERN PetscErrorCode MbSolverCreate_Newton(MbSolver);
PETSC_INTERN PetscErrorCode MbSolverRegisterAll(void);
PETSC_INTERN PetscErrorCode MbSolverFinalizePackage(void);

/* ---- law.c: one 3×3 block, components (t1, t2, n): the normal is the third. */
/* Check a law's data (mu >= 0, cohesion >= 0, known kind); names block in the message. */
PETSC_INTERN PetscErrorCode MbLawCheck(MPI_Comm comm, PetscInt block, const MbLaw *law);
/* p = proj_K_μ(z), K_μ = {‖z_T‖ ≤ μ z_N} (the closed Coulomb cone). */
PETSC_INTERN void MbConeProject(PetscReal mu, const PetscReal z[3], PetscReal p[3]);
/* The law's natural map F(R, U) (see mbsolver.h: contact with R̃ = R + c e_N, Ū = U + bias). */
PETSC_INTERN void MbLawNaturalMap(const MbLaw *law, const PetscReal R[3], const PetscReal U[3], PetscReal F[3]);
/* The Alart–Curnier function with parameter rho and one element of its generalized
   Jacobian: dF = Dr dR + Du dU (3×3 row-major). EQUALITY: F = rho Ū; NORMAL: (R_T, rho Ū_N). */
PETSC_INTERN void MbLawAlartCurnier(const MbLaw *law, PetscReal rho, const PetscReal R[3], const PetscReal U[3], PetscReal F[3], PetscReal Dr[9], PetscReal Du[9]);
/* rho of the Alart–Curnier function for a block with diagonal W block Wd: 3 / tr(Wd). */
PETSC_INTERN PetscReal MbLawRho(const PetscReal Wd[9]);
/* Solve the local problem U = Wd R + b, law(U, R) for R (in: warm start). Semismooth Newton
   on the Alart–Curnier function with a line search; projection fall-back. Returns the
   Newton iterations in *its (may be NULL) and whether it converged in *ok (may be NULL). */
PETSC_INTERN PetscErrorCode MbLawLocalSolve(const MbLaw *law, const PetscReal Wd[9], const PetscReal b[3], PetscInt maxit, PetscReal R[3], PetscInt *its, PetscBool *ok);
/* The diagonal block of a row as the local solver wants it, set up once per solve. */
typedef struct {
  PetscBool iso;      /* Wd = diag(a, a, c) to 1e-12 max|Wd_ij| (spheres): the contact law in closed form */
  PetscBool inv;      /* Wd is invertible: |det| > 1e-10 max|Wd_ij|³ */
  PetscBool wellcond; /* κ∞(Wd) ≤ 10: the sticking solution needs no residual check (MbBlockDiagSetUp) */
  PetscReal a, c;     /* when iso: Wd_TT and Wd_NN, and (next) their inverses; first, so that the */
  PetscReal ia, ic;   /* closed form reads one or two cache lines of the struct */
  PetscReal rho;      /* MbLawRho(Wd) */
  PetscReal Wd[9];    /* W_αα row-major */
  PetscReal Wi[9];    /* its inverse row-major (when inv) */
} MbBlockDiag;
/* The contact law for Wd = diag(a, a, cN) in closed form (ia = 1/a, ic = 1/cN; bb = b + bias;
   coh the cohesion): separation when Ū_N ≥ 0 at R̃ = 0; else Ū_N = 0 fixes R_N = −bb_N/cN
   (so R̃_N > 0), and R_T is the sticking −bb_T/a when it lies in the cone, else
   R_T = −μR̃_N bb_T/‖bb_T‖, that vector scaled onto the cone's boundary: then
   Ū_T = a R_T + bb_T = (1 − aμR̃_N/‖bb_T‖) bb_T is opposite to R_T (sliding). One square
   root and one division at most. Shared by MbLawLocalSolveDiag and the sweep's inner loop. */
static inline void MbLawIsoContact(PetscReal ia, PetscReal ic, PetscReal cN, PetscReal mu, PetscReal coh, const PetscReal bb[3], PetscReal R[3])
{
  PetscReal x0, x1, rn, t2;
  if (bb[2] - coh * cN >= 0) {
    R[0] = R[1] = 0, R[2] = -coh;
    return;
  }
  x0   = -bb[0] * ia;
  x1   = -bb[1] * ia;
  R[2] = -bb[2] * ic;
  rn   = mu * (R[2] + coh);
  t2   = x0 * x0 + x1 * x1;
  if (t2 > rn * rn) {
    PetscReal k = rn / PetscSqrtReal(t2);
    x0 *= k, x1 *= k;
  }
  R[0] = x0, R[1] = x1;
}
/* Fill D from the row-major Wd: inverse by cofactors, rho. */
PETSC_INTERN void MbBlockDiagSetUp(const PetscReal Wd[9], MbBlockDiag *D);
/* MbLawLocalSolve for the sweep's inner loop: no error codes, the diagonal block set up
   once. Contact: R̃ = 0 is accepted when Ū_N ≥ 0 (separation), R = −Wd⁻¹(b + bias) when
   R̃ lies in the cone (sticking); when D->iso, the sticking R scaled onto the cone
   otherwise (sliding): all exact solutions of the local problem. Blocks that are not iso
   try sticking on a residual test, then run the semismooth Newton method from the given
   R. Returns 1 when converged; *its may be NULL. */
PETSC_INTERN int MbLawLocalSolveDiag(const MbLaw *law, const MbBlockDiag *D, const PetscReal b[3], PetscInt maxit, PetscReal R[3], PetscInt *its);

/* ---- gauss_seidel.c: the block structure of W as seen by one rank, and one sweep. */
/* A row as the sweep's closed form (MbLawIsoContact) reads it, in one 64-byte record rather
   than the law and the 200-byte MbBlockDiag: ia = −2 marks a row that tries MbLawStickContact
   first (below), ia = −1 one that takes the general MbLawLocalSolveDiag (not a contact, or
   W_αα neither diag(a, a, c) nor well conditioned). */
typedef struct {
  PetscReal ia, ic, cN, mu, coh, bias[3];
} MbBlockIso;
/* A contact row whose W_αα is not diag(a, a, c) but well conditioned (MbBlockDiag.wellcond:
   convex–convex contacts, cubes), as the sweep's inline separation and sticking tests read
   it (MbLawStickContact; ia = −2 in its MbBlockIso marks it): 128 bytes. */
typedef struct {
  PetscReal Wi[9], wNN, mu, coh, bias[3], pad;
} MbBlockStick;
/* t for a contact row with law and diagonal block D (D->wellcond, not D->iso). */
PETSC_INTERN void MbBlockStickSetUp(const MbLaw *law, const MbBlockDiag *D, MbBlockStick *t);
/* The separation and sticking cases of the contact law for a block that is not diag(a, a, c)
   (bb = b + bias, c the cohesion, wNN = W_αα's NN entry, Wi its inverse or NULL when it has
   none): 1 separation, R̃ = 0 (Ū = bb − c Wd e_N has Ū_N ≥ 0, then Ū + μ‖Ū_T‖e_N ∈ K*), x =
   (0, 0, −c); 2 sticking, x = −Wi bb with R̃ in K_μ (exact when Wd is well conditioned, else
   to be checked); 0 neither (sliding), x not meaningful. Shared by MbLawLocalSolveDiag and the
   sweep's inline MbLawStickContact, so both compute the same bits. */
static inline int MbLawSeparateOrStick(const PetscReal *Wi, PetscReal wNN, PetscReal mu, PetscReal c, const PetscReal bb[3], PetscReal x[3])
{
  PetscReal rn;
  if (bb[2] - c * wNN >= 0) {
    x[0] = x[1] = 0, x[2] = -c;
    return 1;
  }
  if (!Wi) return 0;
  for (int i = 0; i < 3; i++) x[i] = -(Wi[3 * i] * bb[0] + Wi[3 * i + 1] * bb[1] + Wi[3 * i + 2] * bb[2]);
  rn = x[2] + c;
  return rn > 0 && x[0] * x[0] + x[1] * x[1] <= mu * mu * rn * rn ? 2 : 0;
}
/* MbLawLocalSolveDiag's separation and sticking for a row of MbBlockStick (well conditioned:
   sticking needs no check); 0 when neither holds (sliding: the caller runs
   MbLawLocalSolveDiag, whose Newton method starts from the R given here, untouched). */
static inline int MbLawStickContact(const MbBlockStick *t, const PetscReal b[3], PetscReal R[3])
{
  const PetscReal bb[3] = {b[0] + t->bias[0], b[1] + t->bias[1], b[2] + t->bias[2]};
  PetscReal       x[3];
  if (!MbLawSeparateOrStick(t->Wi, t->wNN, t->mu, t->coh, bb, x)) return 0;
  R[0] = x[0], R[1] = x[1], R[2] = x[2];
  return 1;
}
typedef struct {
  MPI_Comm           comm;
  PetscMPIInt        rank, size;
  Mat                Wb;                /* W itself, or its MATBAIJ conversion when W is AIJ */
  Mat                Ad, Ao;            /* diagonal and off-diagonal (ghost-column) parts; Ao NULL on one rank */
  const PetscInt    *garray;            /* Ao's block columns in global block numbering (sorted) */
  PetscInt           nb;                /* local block rows */
  PetscInt           rstart;            /* first global block row of this rank */
  PetscInt           nghost;            /* block columns of Ao */
  const PetscInt    *ai, *aj, *bi, *bj; /* block CSR of Ad and Ao */
  const PetscScalar *aa, *ba;           /* their 3×3 blocks, column-major as BAIJ stores them */
  PetscInt          *adiag;             /* index of the diagonal block in each block row of Ad */
  PetscInt          *olow;              /* per row: Ao blocks with global column < rstart come first, olow of them */
  Vec                ghost;             /* R at Ao's columns */
  PetscSF            sf;                /* roots: this rank's block rows; leaves: its ghost columns */
  MPI_Datatype       unit;              /* a block of R: 3 scalars */
  PetscMPIInt       *rcolor;            /* every rank's colour (−1: none) */
  PetscMPIInt        tag;               /* of the colour messages */
  PetscScalar       *sbuf, *rbuf;       /* this rank's rows that others hold, packed; its ghosts as received */
  MPI_Request       *sreq, *rreq;       /* outstanding sends (completed before the next), receives of a colour */
  PetscMPIInt        nsend, nrecv;
  PetscBool          pending;  /* the last colour's messages are begun, MbBlockSweepFinish ends them */
  Vec                ghost_of; /* ghost holds R = ghost_of at object state ghost_state */
  PetscObjectState   ghost_state;
  MbBlockDiag       *diag;        /* per row: its diagonal block, inverse and rho (set up per solve) */
  PetscReal         *ob;          /* per row: its off-diagonal blocks, global column order, contiguous (column-major) */
  PetscInt          *oc;          /* their columns: 3 × local block column, or 3 × ghost index */
  PetscInt          *optr;        /* row i's blocks are optr[i] .. optr[i+1] in ob/oc */
  PetscInt          *oseg;        /* oseg[2i], oseg[2i+1]: ends of the ghost-below and local parts of row i */
  PetscInt           local_maxit; /* local Newton cap */
  PetscBool          nosimd;      /* in: do not use the AVX2 sweep (kept by SetUp) */
  PetscBool          ghostall;    /* in: scatter all ghost columns before every sweep (kept by SetUp) */
  PetscBool          simd;        /* the sweep runs its AVX2 variant (the CPU has AVX2, not nosimd) */
  PetscInt           local_fail;  /* local solves that needed the fall-back, last sweep */
  PetscInt          *rows;        /* sweep order: interior rows, then boundary rows */
  PetscInt           ninterior;   /* how many interior rows lead rows[] */
  PetscInt           ncolor;      /* colours of the rank graph (0 on one rank) */
  PetscInt           color;       /* this rank's colour (−1: no boundary rows) */
  PetscLogDouble     comm_time;   /* seconds in the ghost-column scatters since SetUp */
  MbBlockIso        *iso;         /* per row, what the closed form reads (built by the first sweep) */
  MbBlockStick      *stick;       /* per row, what the inline sticking test reads (rows with iso[i].ia = −2) */
  const MbLaw       *iso_law;     /* the laws it was built from */
} MbBlockCtx;

PETSC_INTERN PetscErrorCode MbBlockCtxSetUp(Mat W, MbBlockCtx *ctx);
PETSC_INTERN PetscErrorCode MbBlockCtxReset(MbBlockCtx *ctx);
/* One coloured nonsmooth Gauss–Seidel sweep over all block rows (gauss_seidel.c). Returns the global ‖R − R_prev‖² and ‖R‖². Collective. */
PETSC_INTERN PetscErrorCode MbBlockSweep(MbBlockCtx *ctx, Vec B, const MbLaw law[], Vec R, PetscReal *dR2, PetscReal *R2);
/* The same sweep without the reduction: this rank's ‖R − R_prev‖² and ‖R‖² in loc[0], loc[1],
   for a caller that sums them with values of its own in one MPI_Allreduce, and then calls
   MbBlockSweepFinish (the last colour's values travel meanwhile). Collective (the ghost
   scatters). */
PETSC_INTERN PetscErrorCode MbBlockSweepLocal(MbBlockCtx *ctx, Vec B, const MbLaw law[], Vec R, PetscReal loc[2]);
/* After MbBlockSweepLocal: the ghost columns hold the sweep's R, valid until R changes
   (its object state); a caller that changes R and the ghost values alike (GS's Anderson
   step) marks them valid again with MbBlockGhostValid. Collective. */
PETSC_INTERN PetscErrorCode MbBlockSweepFinish(MbBlockCtx *ctx, Vec R);
PETSC_INTERN PetscErrorCode MbBlockGhostValid(MbBlockCtx *ctx, Vec R);
/* 3×3 block k of A (from the column-major BAIJ storage) into row-major M. */
static inline void MbBlockGet(const PetscScalar *a, PetscInt k, PetscReal M[9])
{
  const PetscScalar *b = a + 9 * k;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) M[3 * i + j] = PetscRealPart(b[3 * j + i]);
}

#endif
