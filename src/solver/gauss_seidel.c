/* Nonsmooth block Gauss–Seidel (NSGS; Jean & Moreau 1987, Jean 1999 "The non-smooth contact
   dynamics method", CMAME 177:235): for each block α in turn,
     b = B_α + Σ_{β≠α} W_αβ R_β   (the newest R_β),
     solve W_αα R_α + b = U_α, law(U_α, R_α) by the local semismooth Newton method (law.c),
   until ‖R − R_prev‖ ≤ ε‖R‖ (Solfec's test) or, with -mb_solver_gs_test natural, until the
   natural-map error (MbSolverNaturalError) is ≤ ε. By default each sweep starts from an
   Anderson-accelerated point (-mb_solver_gs_anderson, GSAccelBegin/End below); the test and the
   answer stay those of plain sweeps.

   On several ranks the sweep is coloured (Solfec's manual reports that pure Jacobi coupling
   between ranks fails on all-rigid stacks, so every row must see the newest reactions of
   the rows it couples to): a row whose blocks all lie in this rank's columns is interior,
   the others are boundary rows. Ranks are coloured so that no two ranks of one colour share
   a block of W (greedy colouring of the rank graph, in rank order). In a sweep the ranks of
   colour 0 do their boundary rows, every rank its interior rows (meanwhile the newest R of
   colour 0 reaches the ghost columns), then the ranks of colour 1, 2, ... in
   turn their boundary rows (MbBlockSweep). That is an exact Gauss–Seidel sweep in the row
   order (boundary rows of colour 0, all interior rows, boundary rows of colour 1, ...), so
   it converges as the serial one does; the
   iterates differ from one rank's only through that order (and, with Anderson
   acceleration, through the order in which its dot products are summed).

   Each colour's boundary values travel once a sweep, one way: right after its ranks swept
   them, from those ranks to the ranks that hold them as ghost columns (point-to-point
   messages along the star forest of the ghost columns, which is set up once a solve). Ranks
   of later colours use them in the same sweep, ranks of earlier colours in the next, so a
   sweep ends with every ghost column holding the sweep's R, and the last colour's
   messages travel during the caller's reduction. The Anderson step then changes R on every
   rank by the same global coefficients, and each rank applies it to its ghost columns too
   from their own history (the same arithmetic as their owner's): the next sweep needs no
   exchange of the extrapolated R. A whole broadcast of R is left for a sweep
   whose R changed otherwise (a solve's first sweep, Newton's steps). */
#include "solverimpl.h"
#include <petscsf.h>
#include <petsc/private/petscimpl.h> /* PetscObjectStateGet: whether R changed since the ghost copy */
#include "../core/simd.h"

static PetscBool  GSCited = PETSC_FALSE;
static const char GSCitation[] =
    "@article{Jean1999,\n  author = {M. Jean},\n  title = {The non-smooth contact dynamics method},\n  journal = {Computer Methods in Applied Mechanics and Engineering},\n  volume = {177},\n  pages = {235--257},\n  year = {1999}\n}\n";
static PetscBool  AACited      = PETSC_FALSE;
static const char AACitation[] = "@article{WalkerNi2011,\n  author = {H. F. Walker and P. Ni},\n  title = {Anderson acceleration for fixed-point iterations},\n  journal = {SIAM Journal on Numerical Analysis},\n  volume = {49},\n  number = {4},\n  "
                                 "pages = {1715--1735},\n  year = {2011}\n}\n";
static const char *const GSTests[] = {"increment", "natural", "MbGSTest", "MB_GS_TEST_", NULL};
typedef enum { MB_GS_TEST_INCREMENT, MB_GS_TEST_NATURAL } MbGSTest;

typedef struct {
  PetscInt   local_maxit; /* local Newton iterations per block */
  MbGSTest   test;        /* stopping test */
  PetscInt   aa_m;        /* Anderson acceleration window, 0..GS_AA_MAX (0: off) */
  MbBlockCtx ctx;
} MbSolver_GS;

/* Interior rows first, then boundary rows (with blocks in other ranks' columns); the colour
   of every rank: greedy over the rank graph (ranks sharing a block of W), in rank order. */
static PetscErrorCode ColorRanks(MbBlockCtx *ctx)
{
  const PetscMPIInt *ranks;
  PetscMPIInt       *nbr, nn = 0, *counts, *displs, *all, *color;
  PetscInt           k = 0, nr;
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(ctx->nb + 1, &ctx->rows));
  for (PetscInt i = 0; i < ctx->nb; i++)
    if (!ctx->Ao || ctx->bi[i + 1] == ctx->bi[i]) ctx->rows[k++] = i;
  ctx->ninterior = k;
  for (PetscInt i = 0; i < ctx->nb; i++)
    if (ctx->Ao && ctx->bi[i + 1] > ctx->bi[i]) ctx->rows[k++] = i;
  ctx->ncolor = 0;
  ctx->color  = -1;
  if (ctx->size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  /* this rank's neighbours: the owners of its ghost columns, the star forest's root ranks */
  PetscCall(PetscSFGetRootRanks(ctx->sf, &nr, &ranks, NULL, NULL, NULL));
  PetscCall(PetscMalloc1(nr + 1, &nbr));
  for (PetscInt i = 0; i < nr; i++)
    if (ranks[i] != ctx->rank) nbr[nn++] = ranks[i];
  PetscCall(PetscMalloc3(ctx->size, &counts, ctx->size + 1, &displs, ctx->size, &color));
  PetscCallMPI(MPI_Allgather(&nn, 1, MPI_INT, counts, 1, MPI_INT, ctx->comm));
  displs[0] = 0;
  for (PetscMPIInt p = 0; p < ctx->size; p++) displs[p + 1] = displs[p] + counts[p];
  PetscCall(PetscMalloc1(displs[ctx->size] + 1, &all));
  PetscCallMPI(MPI_Allgatherv(nbr, nn, MPI_INT, all, counts, displs, MPI_INT, ctx->comm));
  /* greedy, the same on every rank; adjacency made symmetric by looking both ways */
  for (PetscMPIInt p = 0; p < ctx->size; p++) {
    PetscInt c = 0;
    color[p]   = -1;
    if (!counts[p]) continue; /* no boundary rows: no colour needed */
    for (PetscBool clash = PETSC_TRUE; clash; c += clash ? 1 : 0) {
      clash = PETSC_FALSE;
      for (PetscMPIInt q = 0; q < p && !clash; q++) {
        PetscBool adj = PETSC_FALSE;
        if (color[q] != c) continue;
        for (PetscMPIInt j = displs[p]; j < displs[p + 1]; j++)
          if (all[j] == q) adj = PETSC_TRUE;
        for (PetscMPIInt j = displs[q]; j < displs[q + 1]; j++)
          if (all[j] == p) adj = PETSC_TRUE;
        if (adj) clash = PETSC_TRUE;
      }
    }
    color[p]    = (PetscMPIInt)c;
    ctx->ncolor = PetscMax(ctx->ncolor, c + 1);
  }
  ctx->color = color[ctx->rank];
  PetscCall(PetscMalloc1(ctx->size, &ctx->rcolor));
  PetscCall(PetscArraycpy(ctx->rcolor, color, ctx->size));
  PetscCall(PetscFree(all));
  PetscCall(PetscFree3(counts, displs, color));
  PetscCall(PetscFree(nbr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the sweep runs its AVX2 variant: the CPU has AVX2 and nosimd is not set. */
static PetscBool SweepAVX2(PetscBool nosimd) { return !nosimd && MB_AVX2_INTRINSICS && MbCpuHasAVX2() ? PETSC_TRUE : PETSC_FALSE; }

PetscErrorCode MbBlockCtxSetUp(Mat W, MbBlockCtx *ctx)
{
  PetscBool seq, mpi, done;
  PetscInt  bs, n, rend, local_maxit = ctx->local_maxit;
  PetscBool nosimd = ctx->nosimd, ghostall = ctx->ghostall;
  PetscFunctionBegin;
  PetscCall(PetscMemzero(ctx, sizeof(*ctx)));
  ctx->local_maxit = local_maxit > 0 ? local_maxit : 50;
  ctx->nosimd      = nosimd;
  ctx->ghostall    = ghostall;
  ctx->simd        = SweepAVX2(nosimd);
  PetscCall(PetscObjectGetComm((PetscObject)W, &ctx->comm));
  PetscCallMPI(MPI_Comm_rank(ctx->comm, &ctx->rank));
  PetscCallMPI(MPI_Comm_size(ctx->comm, &ctx->size));
  PetscCall(MatGetBlockSize(W, &bs));
  PetscCall(PetscObjectTypeCompare((PetscObject)W, MATSEQBAIJ, &seq));
  PetscCall(PetscObjectTypeCompare((PetscObject)W, MATMPIBAIJ, &mpi));
  if (!seq && !mpi) { /* AIJ and others with block size 3: work on a BAIJ copy */
    PetscCheck(bs == 3, ctx->comm, PETSC_ERR_ARG_WRONG, "W must have block size 3, got %" PetscInt_FMT, bs);
    PetscCall(MatConvert(W, MATBAIJ, MAT_INITIAL_MATRIX, &ctx->Wb));
    PetscCall(PetscObjectTypeCompare((PetscObject)ctx->Wb, MATMPIBAIJ, &mpi));
  } else {
    PetscCheck(bs == 3, ctx->comm, PETSC_ERR_ARG_WRONG, "W must have block size 3, got %" PetscInt_FMT, bs);
    PetscCall(PetscObjectReference((PetscObject)W));
    ctx->Wb = W;
  }
  PetscCall(MatGetOwnershipRange(ctx->Wb, &ctx->rstart, &rend));
  ctx->rstart /= 3;
  if (mpi) {
    PetscInt nc;
    PetscCall(MatMPIBAIJGetSeqBAIJ(ctx->Wb, &ctx->Ad, &ctx->Ao, &ctx->garray));
    PetscCall(MatGetSize(ctx->Ao, NULL, &nc));
    ctx->nghost = nc / 3;
    for (PetscInt k = 1; k < ctx->nghost; k++) PetscAssert(ctx->garray[k - 1] < ctx->garray[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "ghost columns of W are not sorted");
  } else
    ctx->Ad = ctx->Wb;
  PetscCall(MatGetRowIJ(ctx->Ad, 0, PETSC_FALSE, PETSC_TRUE, &n, &ctx->ai, &ctx->aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "cannot get the block rows of W");
  ctx->nb = n;
  PetscCall(MatSeqBAIJGetArray(ctx->Ad, (PetscScalar **)&ctx->aa));
  if (ctx->Ao) {
    PetscCall(MatGetRowIJ(ctx->Ao, 0, PETSC_FALSE, PETSC_TRUE, &n, &ctx->bi, &ctx->bj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "cannot get the off-process block rows of W");
    PetscCall(MatSeqBAIJGetArray(ctx->Ao, (PetscScalar **)&ctx->ba));
  }
  PetscCall(PetscMalloc2(ctx->nb, &ctx->adiag, ctx->nb, &ctx->olow));
  for (PetscInt i = 0; i < ctx->nb; i++) {
    ctx->adiag[i] = -1;
    for (PetscInt k = ctx->ai[i]; k < ctx->ai[i + 1]; k++)
      if (ctx->aj[k] == i) ctx->adiag[i] = k;
    PetscCheck(ctx->adiag[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "W has no diagonal block in block row %" PetscInt_FMT, ctx->rstart + i);
    ctx->olow[i] = 0;
    if (ctx->Ao)
      for (PetscInt k = ctx->bi[i]; k < ctx->bi[i + 1] && ctx->garray[ctx->bj[k]] < ctx->rstart; k++) ctx->olow[i]++;
  }
  /* per solve, not per sweep: each row's diagonal block (inverse, rho) and its other blocks
     copied contiguously in global column order (ghosts below, own, ghosts above) */
  {
    PetscInt nnz = ctx->ai[ctx->nb] - ctx->ai[0] - ctx->nb + (ctx->Ao ? ctx->bi[ctx->nb] - ctx->bi[0] : 0), m = 0;
    PetscCall(PetscMalloc5(ctx->nb, &ctx->diag, 9 * nnz + 1, &ctx->ob, nnz + 1, &ctx->oc, ctx->nb + 1, &ctx->optr, 2 * ctx->nb + 1, &ctx->oseg));
    for (PetscInt i = 0; i < ctx->nb; i++) {
      PetscReal Wd[9];
      PetscInt  olo = ctx->Ao ? ctx->bi[i] + ctx->olow[i] : 0;
      MbBlockGet(ctx->aa, ctx->adiag[i], Wd);
      MbBlockDiagSetUp(Wd, &ctx->diag[i]);
      ctx->optr[i] = m;
      if (ctx->Ao)
        for (PetscInt k = ctx->bi[i]; k < olo; k++, m++) {
          PetscCall(PetscArraycpy(ctx->ob + 9 * m, ctx->ba + 9 * k, 9));
          ctx->oc[m] = 3 * ctx->bj[k];
        }
      ctx->oseg[2 * i] = m;
      for (PetscInt k = ctx->ai[i]; k < ctx->ai[i + 1]; k++)
        if (k != ctx->adiag[i]) {
          PetscCall(PetscArraycpy(ctx->ob + 9 * m, ctx->aa + 9 * k, 9));
          ctx->oc[m++] = 3 * ctx->aj[k];
        }
      ctx->oseg[2 * i + 1] = m;
      if (ctx->Ao)
        for (PetscInt k = olo; k < ctx->bi[i + 1]; k++, m++) {
          PetscCall(PetscArraycpy(ctx->ob + 9 * m, ctx->ba + 9 * k, 9));
          ctx->oc[m] = 3 * ctx->bj[k];
        }
    }
    ctx->optr[ctx->nb] = m;
    ctx->ob[9 * m]     = 0; /* the padding value that the AVX2 sweep's last load reads */
    PetscAssert(m == nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "W has %" PetscInt_FMT " off-diagonal blocks, counted %" PetscInt_FMT, m, nnz);
  }
  if (ctx->size > 1) { /* the star forest of the ghost columns, on blocks of 3 */
    const PetscInt *ranges;
    const PetscInt *ioff;
    PetscSFNode    *rem;
    PetscInt        nr, ni;
    PetscCall(MatGetOwnershipRanges(ctx->Wb, &ranges));
    PetscCall(PetscMalloc1(ctx->nghost + 1, &rem));
    for (PetscInt j = 0, p = 0; j < ctx->nghost; j++) {
      while (p < ctx->size && 3 * ctx->garray[j] >= ranges[p + 1]) p++;
      rem[j].rank = p, rem[j].index = ctx->garray[j] - ranges[p] / 3;
    }
    PetscCall(PetscSFCreate(ctx->comm, &ctx->sf));
    PetscCall(PetscSFSetType(ctx->sf, PETSCSFBASIC)); /* its rank lists (PetscSFGetLeafRanks) carry the colour messages */
    PetscCall(PetscSFSetGraph(ctx->sf, ctx->nb, ctx->nghost, NULL, PETSC_COPY_VALUES, rem, PETSC_OWN_POINTER));
    PetscCall(PetscSFSetUp(ctx->sf));
    PetscCallMPI(MPI_Type_contiguous(3, MPIU_SCALAR, &ctx->unit));
    PetscCallMPI(MPI_Type_commit(&ctx->unit));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 3 * ctx->nghost, &ctx->ghost));
    PetscCall(PetscCommGetNewTag(ctx->comm, &ctx->tag));
    PetscCall(PetscSFGetRootRanks(ctx->sf, &nr, NULL, NULL, NULL, NULL));
    PetscCall(PetscSFGetLeafRanks(ctx->sf, &ni, NULL, &ioff, NULL)); /* the send buffer holds ioff[ni] blocks */
    PetscCall(PetscMalloc4(3 * ctx->nghost + 1, &ctx->rbuf, nr + 1, &ctx->rreq, ni + 1, &ctx->sreq, 3 * ioff[ni] + 1, &ctx->sbuf));
  }
  PetscCall(ColorRanks(ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBlockCtxReset(MbBlockCtx *ctx)
{
  PetscInt  n;
  PetscBool done;
  PetscFunctionBegin;
  if (!ctx->Wb) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatSeqBAIJRestoreArray(ctx->Ad, (PetscScalar **)&ctx->aa));
  PetscCall(MatRestoreRowIJ(ctx->Ad, 0, PETSC_FALSE, PETSC_TRUE, &n, &ctx->ai, &ctx->aj, &done));
  if (ctx->Ao) {
    PetscCall(MatSeqBAIJRestoreArray(ctx->Ao, (PetscScalar **)&ctx->ba));
    PetscCall(MatRestoreRowIJ(ctx->Ao, 0, PETSC_FALSE, PETSC_TRUE, &n, &ctx->bi, &ctx->bj, &done));
  }
  PetscCall(PetscFree2(ctx->adiag, ctx->olow));
  PetscCall(PetscFree5(ctx->diag, ctx->ob, ctx->oc, ctx->optr, ctx->oseg));
  PetscCall(VecDestroy(&ctx->ghost));
  if (ctx->sf) {
    PetscCheck(!ctx->pending, PETSC_COMM_SELF, PETSC_ERR_ORDER, "MbBlockSweepFinish was not called after the last sweep");
    PetscCallMPI(MPI_Waitall(ctx->nsend, ctx->sreq, MPI_STATUSES_IGNORE));
    ctx->nsend = 0;
    PetscCallMPI(MPI_Type_free(&ctx->unit));
    PetscCall(PetscFree4(ctx->rbuf, ctx->rreq, ctx->sreq, ctx->sbuf));
  }
  PetscCall(PetscSFDestroy(&ctx->sf));
  PetscCall(PetscFree(ctx->rcolor));
  ctx->ghost_of = NULL;
  PetscCall(PetscFree(ctx->rows));
  PetscCall(PetscFree2(ctx->iso, ctx->stick));
  ctx->iso_law = NULL;
  PetscCall(MatDestroy(&ctx->Wb));
  ctx->Ad = ctx->Ao = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sweep's inner loop (sweep.h), in portable SSE2 code: b in three registers. */
#define SWEEP_NAME SweepLocal
#define SWEEP_ATTR
#define SWEEP_DECL(bvi) PetscReal b0 = PetscRealPart((bvi)[0]), b1 = PetscRealPart((bvi)[1]), b2 = PetscRealPart((bvi)[2])
#define SWEEP_ADD(m, x)                                                                                                                                                                                                                                  \
  do {                                                                                                                                                                                                                                                   \
    const PetscReal *m_ = (m);                                                                                                                                                                                                                           \
    PetscReal        x0 = PetscRealPart((x)[0]), x1 = PetscRealPart((x)[1]), x2 = PetscRealPart((x)[2]);                                                                                                                                                 \
    b0 += m_[0] * x0 + m_[3] * x1 + m_[6] * x2;                                                                                                                                                                                                          \
    b1 += m_[1] * x0 + m_[4] * x1 + m_[7] * x2;                                                                                                                                                                                                          \
    b2 += m_[2] * x0 + m_[5] * x1 + m_[8] * x2;                                                                                                                                                                                                          \
  } while (0)
#define SWEEP_GET(b) ((b)[0] = b0, (b)[1] = b1, (b)[2] = b2)
#include "sweep.h"
#undef SWEEP_NAME
#undef SWEEP_ATTR
#undef SWEEP_DECL
#undef SWEEP_ADD
#undef SWEEP_GET

#if MB_AVX2_INTRINSICS
/* The same loop with AVX2 (x86-64, chosen at run time when the CPU has it): b in one
   4-wide register, a block's three columns loaded whole (the fourth lane reads the next
   value, ob has one padding value after its last block, and is never used), multiplied by
   the broadcast x_j and added in the scalar code's order, so the results are the same bit
   for bit. No FMA: fused products would round differently. */
#  define SWEEP_NAME SweepLocalAVX2
#  define SWEEP_ATTR __attribute__((target("avx2")))
#  define SWEEP_DECL(bvi) __m256d acc_ = _mm256_setr_pd(PetscRealPart((bvi)[0]), PetscRealPart((bvi)[1]), PetscRealPart((bvi)[2]), 0.0)
#  define SWEEP_ADD(m, x)                                                                                                                                                                                                                                \
    do {                                                                                                                                                                                                                                                 \
      const PetscReal *m_ = (m), *x_ = (const PetscReal *)(x);                                                                                                                                                                                           \
      __m256d          t_ = _mm256_mul_pd(_mm256_loadu_pd(m_), _mm256_broadcast_sd(x_));                                                                                                                                                                 \
      t_                  = _mm256_add_pd(t_, _mm256_mul_pd(_mm256_loadu_pd(m_ + 3), _mm256_broadcast_sd(x_ + 1)));                                                                                                                                      \
      t_                  = _mm256_add_pd(t_, _mm256_mul_pd(_mm256_loadu_pd(m_ + 6), _mm256_broadcast_sd(x_ + 2)));                                                                                                                                      \
      acc_                = _mm256_add_pd(acc_, t_);                                                                                                                                                                                                     \
    } while (0)
#  define SWEEP_GET(b)                                                                                                                                                                                                                                   \
    do {                                                                                                                                                                                                                                                 \
      PetscReal t_[4];                                                                                                                                                                                                                                   \
      _mm256_storeu_pd(t_, acc_);                                                                                                                                                                                                                        \
      (b)[0] = t_[0], (b)[1] = t_[1], (b)[2] = t_[2];                                                                                                                                                                                                    \
    } while (0)
#  include "sweep.h"
#  undef SWEEP_NAME
#  undef SWEEP_ATTR
#  undef SWEEP_DECL
#  undef SWEEP_ADD
#  undef SWEEP_GET
#endif

/* Sweep rows[0..n) of this rank; a singular EQUALITY/NORMAL block is an error. */
static PetscErrorCode SweepRows(MbBlockCtx *ctx, PetscInt n, const PetscInt rows[], const PetscScalar *bv, const MbLaw law[], Vec R, PetscReal loc[2])
{
  const PetscScalar *g = NULL;
  PetscScalar       *r;
  PetscInt           bad;
  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(VecGetArray(R, &r));
  if (ctx->ghost) PetscCall(VecGetArrayRead(ctx->ghost, &g));
#if MB_AVX2_INTRINSICS
  if (ctx->simd)
    bad = SweepLocalAVX2(ctx, n, rows, bv, law, r, g, &loc[0], &loc[1]);
  else
#endif
    bad = SweepLocal(ctx, n, rows, bv, law, r, g, &loc[0], &loc[1]);
  PetscCheck(bad < 0, PETSC_COMM_SELF, PETSC_ERR_MAT_LU_ZRPVT, "block %" PetscInt_FMT " (%s law): its diagonal block of W is singular (W_NN = %g)", ctx->rstart + bad, law[bad].kind == MB_LAW_EQUALITY ? "EQUALITY" : "NORMAL",
             (double)ctx->diag[bad].Wd[8]);
  if (ctx->ghost) PetscCall(VecRestoreArrayRead(ctx->ghost, &g));
  PetscCall(VecRestoreArray(R, &r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The colour that sends rank p's values: its own, or the last one for a rank without
   boundary rows (its rows are swept among the interior rows). */
static inline PetscMPIInt SendColour(const MbBlockCtx *ctx, PetscMPIInt p) { return ctx->rcolor[p] >= 0 ? ctx->rcolor[p] : (PetscMPIInt)ctx->ncolor - 1; }

/* Colour c's values, begun: this rank posts its receives from the ranks of colour c and,
   when it is of colour c, sends the rows each other rank holds as ghosts (the lists of the
   star forest: PetscSFGetLeafRanks on the sending side, PetscSFGetRootRanks, in the same
   order, on the receiving one). A send is completed before the next one reuses its buffer,
   so that the sender does not wait for the receiver in between. The time goes to comm_time. */
static PetscErrorCode ExchangeBegin(MbBlockCtx *ctx, PetscMPIInt c, Vec R)
{
  const PetscMPIInt *ranks, *iranks;
  const PetscInt    *roff, *ioff, *iloc;
  PetscInt           nr, ni;
  PetscLogDouble     t0, t1;
  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(PetscSFGetRootRanks(ctx->sf, &nr, &ranks, &roff, NULL, NULL));
  ctx->nrecv = 0;
  for (PetscInt i = 0; i < nr; i++) {
    PetscMPIInt n;
    if (ranks[i] == ctx->rank || SendColour(ctx, ranks[i]) != c) continue;
    PetscCall(PetscMPIIntCast(3 * (roff[i + 1] - roff[i]), &n));
    PetscCallMPI(MPI_Irecv(ctx->rbuf + 3 * roff[i], n, MPIU_SCALAR, ranks[i], ctx->tag, ctx->comm, &ctx->rreq[ctx->nrecv++]));
  }
  if (SendColour(ctx, ctx->rank) == c) {
    const PetscScalar *r;
    PetscCall(PetscSFGetLeafRanks(ctx->sf, &ni, &iranks, &ioff, &iloc));
    PetscCallMPI(MPI_Waitall(ctx->nsend, ctx->sreq, MPI_STATUSES_IGNORE));
    ctx->nsend = 0;
    PetscCall(VecGetArrayRead(R, &r));
    for (PetscInt j = 0; j < ni; j++) {
      PetscMPIInt n;
      if (iranks[j] == ctx->rank) continue;
      for (PetscInt k = ioff[j]; k < ioff[j + 1]; k++)
        for (int d = 0; d < 3; d++) ctx->sbuf[3 * k + d] = r[3 * iloc[k] + d];
      PetscCall(PetscMPIIntCast(3 * (ioff[j + 1] - ioff[j]), &n));
      PetscCallMPI(MPI_Isend(ctx->sbuf + 3 * ioff[j], n, MPIU_SCALAR, iranks[j], ctx->tag, ctx->comm, &ctx->sreq[ctx->nsend++]));
    }
    PetscCall(VecRestoreArrayRead(R, &r));
  }
  PetscCall(PetscTime(&t1));
  ctx->comm_time += t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Colour c's values, ended: into the ghost columns. */
static PetscErrorCode ExchangeEnd(MbBlockCtx *ctx, PetscMPIInt c)
{
  const PetscMPIInt *ranks;
  const PetscInt    *roff, *rmine;
  PetscInt           nr;
  PetscScalar       *g;
  PetscLogDouble     t0, t1;
  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCallMPI(MPI_Waitall(ctx->nrecv, ctx->rreq, MPI_STATUSES_IGNORE));
  PetscCall(PetscSFGetRootRanks(ctx->sf, &nr, &ranks, &roff, &rmine, NULL));
  PetscCall(VecGetArray(ctx->ghost, &g));
  for (PetscInt i = 0; i < nr; i++) {
    if (ranks[i] == ctx->rank || SendColour(ctx, ranks[i]) != c) continue;
    for (PetscInt k = roff[i]; k < roff[i + 1]; k++)
      for (int d = 0; d < 3; d++) g[3 * rmine[k] + d] = ctx->rbuf[3 * k + d];
  }
  PetscCall(VecRestoreArray(ctx->ghost, &g));
  PetscCall(PetscTime(&t1));
  ctx->comm_time += t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every ghost column gets R (the star forest's broadcast). */
static PetscErrorCode GhostAll(MbBlockCtx *ctx, Vec R)
{
  const PetscScalar *r;
  PetscScalar       *g;
  PetscLogDouble     t0, t1;
  PetscFunctionBegin;
  PetscCall(PetscTime(&t0));
  PetscCall(VecGetArrayRead(R, &r));
  PetscCall(VecGetArray(ctx->ghost, &g));
  PetscCall(PetscSFBcastBegin(ctx->sf, ctx->unit, r, g, MPI_REPLACE));
  PetscCall(PetscSFBcastEnd(ctx->sf, ctx->unit, r, g, MPI_REPLACE));
  PetscCall(VecRestoreArray(ctx->ghost, &g));
  PetscCall(VecRestoreArrayRead(R, &r));
  PetscCall(PetscTime(&t1));
  ctx->comm_time += t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBlockGhostValid(MbBlockCtx *ctx, Vec R)
{
  PetscFunctionBegin;
  ctx->ghost_of = R;
  PetscCall(PetscObjectStateGet((PetscObject)R, &ctx->ghost_state));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBlockSweepFinish(MbBlockCtx *ctx, Vec R)
{
  PetscFunctionBegin;
  if (!ctx->pending) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ExchangeEnd(ctx, (PetscMPIInt)ctx->ncolor - 1));
  ctx->pending = PETSC_FALSE;
  PetscCall(MbBlockGhostValid(ctx, R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ctx->iso for the laws law[]: once per solve, amortised over its sweeps. */
static PetscErrorCode IsoRows(MbBlockCtx *ctx, const MbLaw law[])
{
  PetscFunctionBegin;
  if (!ctx->iso) PetscCall(PetscMalloc2(ctx->nb + 1, &ctx->iso, ctx->nb + 1, &ctx->stick));
  for (PetscInt i = 0; i < ctx->nb; i++) {
    const MbBlockDiag *D = &ctx->diag[i];
    MbBlockIso        *h = &ctx->iso[i];
    if (law[i].kind == MB_LAW_CONTACT && D->iso) {
      *h = (MbBlockIso){D->ia, D->ic, D->c, law[i].mu, law[i].cohesion, {law[i].bias[0], law[i].bias[1], law[i].bias[2]}};
    } else if (law[i].kind == MB_LAW_CONTACT && D->wellcond) {
      PetscCall(PetscMemzero(h, sizeof(*h)));
      h->ia = -2;
      MbBlockStickSetUp(&law[i], D, &ctx->stick[i]);
    } else {
      PetscCall(PetscMemzero(h, sizeof(*h)));
      h->ia = -1;
    }
  }
  ctx->iso_law = law;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One sweep. Ranks of colour 0 sweep their boundary rows first and then their interior
   rows; every other rank sweeps its interior rows first, while the boundary values of
   colour 0 travel, and its boundary rows when the colours before its own are done. The
   rows are thus visited in the order (boundary rows of colour 0, every interior row,
   boundary rows of colour 1, 2, ...): a boundary row's ghost columns are other ranks'
   boundary rows (W's structure is symmetric), those of lower colours already swept, and
   an interior row couples to none. Colour c's values are sent once, after its ranks swept
   them (ExchangeBegin/End); those of the last colour are begun here and ended by
   MbBlockSweepFinish. On two balanced ranks neither waits for the other: rank 0 does B₀
   then I₀ while rank 1 does I₁ then B₁. */
PetscErrorCode MbBlockSweepLocal(MbBlockCtx *ctx, Vec B, const MbLaw law[], Vec R, PetscReal loc[2])
{
  const PetscScalar *bv;
  PetscInt           nbnd          = ctx->nb - ctx->ninterior;
  const PetscInt    *bnd           = ctx->rows + ctx->ninterior;
  PetscBool          interior_done = PETSC_FALSE;
  PetscFunctionBegin;
  loc[0] = loc[1] = 0;
  if (ctx->iso_law != law) PetscCall(IsoRows(ctx, law));
  PetscCall(VecGetArrayRead(B, &bv));
  ctx->local_fail = 0;
  PetscCheck(!ctx->pending, PETSC_COMM_SELF, PETSC_ERR_ORDER, "MbBlockSweepFinish was not called after the last sweep");
  if (ctx->ncolor > 0) {
    PetscObjectState st;
    PetscCall(PetscObjectStateGet((PetscObject)R, &st));
    if (ctx->ghostall || ctx->ghost_of != R || st != ctx->ghost_state) { /* R changed since the ghost copy: all of it */
      PetscCall(GhostAll(ctx, R));
    }
    ctx->ghost_of = NULL;
    if (ctx->color == 0) PetscCall(SweepRows(ctx, nbnd, bnd, bv, law, R, loc));
  }
  for (PetscInt c = 1; c < ctx->ncolor; c++) {
    PetscCall(ExchangeBegin(ctx, (PetscMPIInt)c - 1, R));
    if (!interior_done) PetscCall(SweepRows(ctx, ctx->ninterior, ctx->rows, bv, law, R, loc));
    interior_done = PETSC_TRUE;
    PetscCall(ExchangeEnd(ctx, (PetscMPIInt)c - 1));
    if (c == ctx->color) PetscCall(SweepRows(ctx, nbnd, bnd, bv, law, R, loc));
  }
  if (!interior_done) PetscCall(SweepRows(ctx, ctx->ninterior, ctx->rows, bv, law, R, loc));
  if (ctx->ncolor > 0) { /* the last colour's values, for the next sweep */
    PetscCall(ExchangeBegin(ctx, (PetscMPIInt)ctx->ncolor - 1, R));
    ctx->pending = PETSC_TRUE;
  }
  PetscCall(VecRestoreArrayRead(B, &bv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBlockSweep(MbBlockCtx *ctx, Vec B, const MbLaw law[], Vec R, PetscReal *dR2, PetscReal *R2)
{
  PetscReal loc[2] = {0, 0}, glob[2];
  PetscFunctionBegin;
  PetscCall(MbBlockSweepLocal(ctx, B, law, R, loc));
  PetscCall(MPIU_Allreduce(loc, glob, 2, MPIU_REAL, MPIU_SUM, ctx->comm));
  PetscCall(MbBlockSweepFinish(ctx, R));
  *dR2 = glob[0];
  *R2  = glob[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Anderson acceleration (Anderson 1965, J. ACM 12:547; Walker & Ni 2011, SIAM J. Numer.
   Anal. 49:1715) of the sweep map G: with f = G(x) − x, the next sweep starts from
   x⁺ = G(x) − Σ_i γ_i ΔG_i, γ = argmin ‖f − ΔF γ‖, ΔF and ΔG the differences of the last
   m ≤ 4 f's and G(x)'s. The stopping test is unchanged: each sweep tests
   ‖G(x) − x‖ ≤ ε‖G(x)‖ on its own input x, and the answer is a sweep's output G(x), never an
   extrapolated point. The history restarts whenever ‖f‖ grows (a contact changing state
   makes the old differences useless); restarting on any growth measured best (see
   doc/benchmarks.md). */
#define GS_AA_MAX 4
_Static_assert(GS_AA_MAX == 4, "GSAccelBegin and GSAccelEnd unroll their passes for 4 columns");
typedef struct {
  PetscInt   m, nk, head, n;           /* window, columns held, next slot, local length */
  PetscInt   st;                       /* stride of the interleaved columns: 3 for m ≤ 3, else 4 */
  PetscReal *x;                        /* the input of the next sweep */
  PetscReal *fprev, *gprev;            /* f and G(x) of the last sweep */
  PetscReal *dF, *dG;                  /* the columns interleaved: entry j of column i at st j + i; the passes
                                          read GS_AA_MAX values an entry, with st = 3 the fourth is the next
                                          entry's first (one padding value at the end): its products feed only
                                          a dot product that is not used and a zero γ₃ (a quarter less memory
                                          traffic for the default m = 3) */
  PetscInt   ng;                       /* ghost columns' values (3 a column) */
  PetscReal *ggprev, *gdG;             /* their G(x) of the last sweep and ΔG columns (layout of dG) */
  PetscReal  H[GS_AA_MAX * GS_AA_MAX]; /* Gram matrix of the ΔF columns */
  PetscReal  fprev2;                   /* ‖f‖² of the last sweep, −1 before the first */
} GSAccel;

/* Set up for a solve from the warm start R, with ng ghost values. */
static PetscErrorCode GSAccelCreate(Vec R, PetscInt ng, PetscInt m, GSAccel *a)
{
  const PetscScalar *r;
  PetscFunctionBegin;
  PetscCall(PetscMemzero(a, sizeof(*a)));
  PetscCall(VecGetLocalSize(R, &a->n));
  a->ng     = ng;
  a->m      = m;
  a->fprev2 = -1;
  PetscCall(PetscMalloc3(a->n, &a->x, a->n, &a->fprev, a->n, &a->gprev));
  a->st = m <= 3 ? 3 : GS_AA_MAX;
  PetscCall(PetscCalloc2(a->st * a->n + 1, &a->dF, a->st * a->n + 1, &a->dG));
  PetscCall(PetscCalloc2(ng + 1, &a->ggprev, a->st * ng + 1, &a->gdG));
  PetscCall(VecGetArrayRead(R, &r));
  for (PetscInt j = 0; j < a->n; j++) a->x[j] = PetscRealPart(r[j]);
  PetscCall(VecRestoreArrayRead(R, &r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GSAccelDestroy(GSAccel *a)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(a->x, a->fprev, a->gprev));
  PetscCall(PetscFree2(a->dF, a->dG));
  PetscCall(PetscFree2(a->ggprev, a->gdG));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x⁺ = G(x) − ΔG γ on n values r[] with ΔG columns dG[] (stride st; m ≤ 3 columns use three,
   so that no value outside these n enters: a rank and the ranks holding its values as
   ghosts compute the same bits). */
MB_AVX2_CLONES static void GSExtrapolate(PetscInt n, PetscInt st, const PetscReal gam[GS_AA_MAX], const PetscReal *dG, PetscScalar *r)
{
  if (st == 3)
    for (PetscInt j = 0; j < n; j++) r[j] -= gam[0] * dG[3 * j] + gam[1] * dG[3 * j + 1] + gam[2] * dG[3 * j + 2];
  else
    for (PetscInt j = 0; j < n; j++) r[j] -= gam[0] * dG[4 * j] + gam[1] * dG[4 * j + 1] + gam[2] * dG[4 * j + 2] + gam[3] * dG[4 * j + 3];
}

/* Solve the n×n system A y = b (row-major, leading dimension GS_AA_MAX) by elimination
   with partial pivoting; A and b are overwritten; false when a pivot is zero. */
static PetscBool SmallSolve(PetscInt n, PetscReal A[], PetscReal b[], PetscReal y[])
{
  const PetscInt ld = GS_AA_MAX;
  for (PetscInt c = 0; c < n; c++) {
    PetscInt p = c;
    for (PetscInt i = c + 1; i < n; i++)
      if (PetscAbsReal(A[ld * i + c]) > PetscAbsReal(A[ld * p + c])) p = i;
    if (!(PetscAbsReal(A[ld * p + c]) > 0)) return PETSC_FALSE;
    for (PetscInt j = 0; j < n; j++) {
      PetscReal t   = A[ld * c + j];
      A[ld * c + j] = A[ld * p + j], A[ld * p + j] = t;
    }
    PetscReal t = b[c];
    b[c] = b[p], b[p] = t;
    for (PetscInt i = c + 1; i < n; i++) {
      PetscReal f = A[ld * i + c] / A[ld * c + c];
      for (PetscInt j = c; j < n; j++) A[ld * i + j] -= f * A[ld * c + j];
      b[i] -= f * b[c];
    }
  }
  for (PetscInt i = n - 1; i >= 0; i--) {
    PetscReal t = b[i];
    for (PetscInt j = i + 1; j < n; j++) t -= A[ld * i + j] * y[j];
    y[i] = t / A[ld * i + i];
  }
  return PETSC_TRUE;
}

/* After a sweep x -> G(x) (in R), before the reduction: the new columns ΔF_s, ΔG_s and
   this rank's dots of ΔF_s with the ΔF's and with f, in loc[0 .. *nloc) (none after the
   first sweep, which only records f and G(x)). The caller sums them with the sweep's own
   sums in one MPI_Allreduce and passes the result to GSAccelEnd: one reduction a sweep,
   not two, and on several ranks one synchronisation fewer. */
MB_AVX2_CLONES static PetscErrorCode GSAccelBegin(GSAccel *a, Vec R, PetscInt *nloc, PetscReal loc[])
{
  const PetscInt     ld = GS_AA_MAX, st = a->st, s = a->head;
  const PetscScalar *r;
  PetscReal         *dF = a->dF, *dG = a->dG;
  PetscInt           n = a->n, nk;
  PetscFunctionBegin;
  *nloc = 0;
  PetscCall(VecGetArrayRead(R, &r));
  if (a->fprev2 < 0) { /* first sweep: no difference yet */
    for (PetscInt j = 0; j < n; j++) {
      PetscReal g = PetscRealPart(r[j]);
      a->fprev[j] = g - a->x[j], a->gprev[j] = g;
    }
    PetscCall(VecRestoreArrayRead(R, &r));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  nk = PetscMin(a->nk + 1, a->m);
  /* all GS_AA_MAX columns summed with the old column s (its dots then replaced: no load of
     a value just stored), those past nk unused */
  {
    PetscReal a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0, ss = 0, fs = 0;
    for (PetscInt j = 0; j < n; j++) {
      PetscReal g = PetscRealPart(r[j]), f = g - a->x[j], df = f - a->fprev[j], *dFj = dF + st * j;
      a0 += df * dFj[0], a1 += df * dFj[1], a2 += df * dFj[2], a3 += df * dFj[3];
      b0 += f * dFj[0], b1 += f * dFj[1], b2 += f * dFj[2], b3 += f * dFj[3];
      ss += df * df, fs += f * df;
      dFj[s] = df, dG[st * j + s] = g - a->gprev[j];
      a->fprev[j] = f, a->gprev[j] = g;
    }
    PetscReal ab[2 * GS_AA_MAX] = {a0, a1, a2, a3, b0, b1, b2, b3};
    ab[s] = ss, ab[ld + s] = fs;
    for (PetscInt i = 0; i < nk; i++) loc[i] = ab[i], loc[nk + i] = ab[ld + i];
  }
  *nloc = 2 * nk;
  PetscCall(VecRestoreArrayRead(R, &r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With f2 = ‖G(x) − x‖² and the summed dots of GSAccelBegin (glob): R becomes the next
   sweep's input x⁺ = G(x) − ΔG γ. When ‖f‖ grew, the history restarts from this sweep
   (GSAccelBegin already recorded its f and G(x)) and x⁺ = G(x). The ghost values g[] (the
   sweep's G(x) of other ranks' rows, a->ng of them) get their ΔG column and the same step:
   γ and every decision here are global, so they become what their owners compute. */
MB_AVX2_CLONES static PetscErrorCode GSAccelEnd(GSAccel *a, Vec R, PetscScalar *g, PetscReal f2, const PetscReal glob[])
{
  const PetscInt ld = GS_AA_MAX, st = a->st;
  PetscScalar   *r;
  PetscReal      A[GS_AA_MAX * GS_AA_MAX], b[GS_AA_MAX], gam[GS_AA_MAX] = {0}, dmax = 0, *dG = a->dG;
  PetscInt       n = a->n, s = a->head, nk;
  PetscFunctionBegin;
  for (PetscInt j = 0; j < a->ng; j++) { /* GSAccelBegin's records, for the ghost values */
    const PetscReal v = PetscRealPart(g[j]);
    if (a->fprev2 >= 0) a->gdG[st * j + s] = v - a->ggprev[j];
    a->ggprev[j] = v;
  }
  PetscCall(VecGetArray(R, &r));
  if (a->fprev2 < 0 || f2 > a->fprev2) { /* first sweep, or ‖f‖ grew: (re)start the history */
    a->nk = a->head = 0;
    for (PetscInt j = 0; j < n; j++) a->x[j] = PetscRealPart(r[j]);
    a->fprev2 = f2;
    PetscCall(VecRestoreArray(R, &r));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  a->fprev2 = f2;
  a->head   = (a->head + 1) % a->m;
  nk = a->nk = PetscMin(a->nk + 1, a->m);
  for (PetscInt i = 0; i < nk; i++) a->H[ld * s + i] = a->H[ld * i + s] = glob[i];
  for (PetscInt i = 0; i < nk; i++) dmax = PetscMax(dmax, a->H[ld * i + i]);
  for (PetscInt i = 0; i < nk; i++) { /* Tikhonov, for nearly dependent columns */
    for (PetscInt j = 0; j < nk; j++) A[ld * i + j] = a->H[ld * i + j] + (i == j ? 1e-10 * dmax : 0);
    b[i] = glob[nk + i];
  }
  if (!SmallSolve(nk, A, b, gam)) { /* no usable history: G(x) as it is */
    a->nk = a->head = 0;
    for (PetscInt i = 0; i < GS_AA_MAX; i++) gam[i] = 0;
  }
  /* second pass: x⁺ = G(x) − ΔG γ */
  GSExtrapolate(n, st, gam, dG, r);
  for (PetscInt j = 0; j < n; j++) a->x[j] = PetscRealPart(r[j]);
  GSExtrapolate(a->ng, st, gam, a->gdG, g);
  PetscCall(VecRestoreArray(R, &r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MbSolverSolve_GS(MbSolver s, Mat W, Vec B, const MbLaw law[], Vec R)
{
  MbSolver_GS *gs = (MbSolver_GS *)s->data;
  PetscReal    dR2, R2, err;
  GSAccel      acc;
  PetscFunctionBegin;
  if (!GSCited) PetscCall(PetscCitationsRegister(GSCitation, &GSCited));
  if (gs->aa_m > 0 && !AACited) PetscCall(PetscCitationsRegister(AACitation, &AACited));
  gs->ctx.local_maxit = gs->local_maxit;
  PetscCall(MbBlockCtxSetUp(W, &gs->ctx));
  if (gs->aa_m > 0) PetscCall(GSAccelCreate(R, 3 * gs->ctx.nghost, gs->aa_m, &acc));
  s->converged = PETSC_FALSE;
  for (s->iterations = 0; s->iterations < s->maxit && !s->converged;) {
    PetscReal loc[2 + 2 * GS_AA_MAX], glob[2 + 2 * GS_AA_MAX];
    PetscInt  nacc = 0;
    PetscCall(MbBlockSweepLocal(&gs->ctx, B, law, R, loc));
    if (gs->aa_m > 0) PetscCall(GSAccelBegin(&acc, R, &nacc, loc + 2));
    PetscCall(MPIU_Allreduce(loc, glob, (PetscMPIInt)(2 + nacc), MPIU_REAL, MPIU_SUM, gs->ctx.comm));
    PetscCall(MbBlockSweepFinish(&gs->ctx, R));
    dR2 = glob[0], R2 = glob[1];
    s->iterations++;
    if (gs->test == MB_GS_TEST_INCREMENT) { /* Solfec: ‖R − R_prev‖ ≤ ε ‖R‖ */
      if (PetscSqrtReal(dR2) <= s->epsilon * PetscSqrtReal(R2)) s->converged = PETSC_TRUE;
      PetscCall(MbSolverHistoryPush(s, PetscSqrtReal(dR2) / PetscMax(PetscSqrtReal(R2), 1e-300)));
    } else {
      PetscCall(MbSolverNaturalError(gs->ctx.Wb, B, law, R, &err));
      if (err <= s->epsilon) s->converged = PETSC_TRUE;
      PetscCall(MbSolverHistoryPush(s, err));
    }
    if (!s->converged && gs->aa_m > 0 && s->iterations < s->maxit) {
      PetscScalar *g = NULL;
      if (gs->ctx.ghost) PetscCall(VecGetArray(gs->ctx.ghost, &g));
      PetscCall(GSAccelEnd(&acc, R, g, dR2, glob + 2));
      if (gs->ctx.ghost) PetscCall(VecRestoreArray(gs->ctx.ghost, &g));
      PetscCall(MbBlockGhostValid(&gs->ctx, R)); /* extrapolated alike */
    }
  }
  s->comm_time += gs->ctx.comm_time;
  gs->ctx.comm_time = 0;
  if (gs->aa_m > 0) PetscCall(GSAccelDestroy(&acc));
  PetscCall(MbBlockCtxReset(&gs->ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MbSolverSetFromOptions_GS(MbSolver s, PetscOptionItems *PetscOptionsObject)
{
  MbSolver_GS *gs   = (MbSolver_GS *)s->data;
  PetscBool    simd = gs->ctx.nosimd ? PETSC_FALSE : PETSC_TRUE;
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Nonsmooth Gauss-Seidel options");
  PetscCall(PetscOptionsInt("-mb_solver_gs_local_maxit", "Newton iterations of each 3x3 local problem", "MbSolver", gs->local_maxit, &gs->local_maxit, NULL));
  PetscCall(PetscOptionsEnum("-mb_solver_gs_test", "Stopping test: increment (|R-R_prev| <= eps |R|, Solfec) or natural (natural-map error <= eps)", "MbSolver", GSTests, (PetscEnum)gs->test, (PetscEnum *)&gs->test, NULL));
  PetscCall(PetscOptionsBool("-mb_solver_gs_simd", "Use the AVX2 sweep when the CPU has it (results bit-identical to the portable one)", "MbSolver", simd, &simd, NULL));
  gs->ctx.nosimd = simd ? PETSC_FALSE : PETSC_TRUE;
  PetscCall(PetscOptionsBool("-mb_solver_gs_ghost_scatter", "Scatter every ghost column of R before each sweep instead of extrapolating the ghost copy locally (several ranks; results bit-identical, for checking)", "MbSolver", gs->ctx.ghostall,
                             &gs->ctx.ghostall, NULL));
  PetscCall(PetscOptionsInt("-mb_solver_gs_anderson", "Anderson acceleration of the sweeps: how many past sweeps it combines, 0 to 4 (0: plain Gauss-Seidel)", "MbSolver", gs->aa_m, &gs->aa_m, NULL));
  PetscOptionsHeadEnd();
  PetscCheck(gs->aa_m >= 0 && gs->aa_m <= GS_AA_MAX, s->comm, PETSC_ERR_ARG_OUTOFRANGE, "-mb_solver_gs_anderson must be in [0, %d], got %" PetscInt_FMT, GS_AA_MAX, gs->aa_m);
  PetscCheck(gs->local_maxit > 0, s->comm, PETSC_ERR_ARG_OUTOFRANGE, "-mb_solver_gs_local_maxit must be > 0, got %" PetscInt_FMT, gs->local_maxit);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MbSolverView_GS(MbSolver s, PetscViewer v)
{
  MbSolver_GS *gs = (MbSolver_GS *)s->data;
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "stopping test %s, Anderson window %" PetscInt_FMT "%s, local Newton cap %" PetscInt_FMT "\n", GSTests[gs->test], gs->aa_m, gs->aa_m ? "" : " (plain sweeps)", gs->local_maxit));
  PetscCall(PetscViewerASCIIPrintf(v, "sweep: %s\n", SweepAVX2(gs->ctx.nosimd) ? "AVX2 (bit-identical to the portable one; -mb_solver_gs_simd 0 to refuse it)" : "portable"));
  PetscCall(PetscViewerASCIIPrintf(v, "ghost columns (several ranks): %s\n", gs->ctx.ghostall ? "all scattered before every sweep" : "each colour's sent once a sweep, the Anderson step applied to the copy"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MbSolverDestroy_GS(MbSolver s)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSolverCreate_GS(MbSolver s)
{
  MbSolver_GS *gs;
  PetscFunctionBegin;
  PetscCall(PetscNew(&gs));
  gs->local_maxit       = 50;
  gs->test              = MB_GS_TEST_INCREMENT;
  gs->aa_m              = 3;
  s->data               = gs;
  s->ops.solve          = MbSolverSolve_GS;
  s->ops.setfromoptions = MbSolverSetFromOptions_GS;
  s->ops.view           = MbSolverView_GS;
  s->ops.destroy        = MbSolverDestroy_GS;
  PetscFunctionReturn(PETSC_SUCCESS);
}
