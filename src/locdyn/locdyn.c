/* Local dynamics (seed 001): U = B + W R with B = H u_free and W = h H A⁻¹ Hᵀ, as a PETSc
   matrix of 3×3 blocks. Each body's owner computes the blocks its body contributes,
   W_αβ += h s_α s_β H_α A⁻¹ H_βᵀ for every pair of constraints α, β on it (s = +1 for the
   master, −1 for the slave), and inserts them with MatSetValuesBlocked; PETSc's assembly
   moves blocks to the ranks owning their rows. The matrix is kept while the constraint
   graph (the bodies of every row) does not change. After the solve every body owner adds
   h A⁻¹ Hᵀ R of its constraints to the free velocity (ARCHITECTURE.md, step 5). */
#include <moreau/mbmath.h>
#include "locdynimpl.h"
#include "../body/bodyimpl.h"
#include "../core/simd.h"

static PetscBool Movable(MbLocDyn l, PetscInt id) { return id >= 0 && l->map->movable[id]; }

/* -log_view events inside MbLocDyn: the graph and a new matrix, the blocks, the assembly */
static PetscLogEvent W_Graph = -1, W_Create, W_Insert, W_Assembly;

static PetscErrorCode AdjacencyFree(MbLocDyn);

/* The constraints this rank sees: owned rows first, then other ranks' rows on its bodies. */
static inline MbCon *Row(MbLocDyn l, PetscInt k) { return k < l->cs->ncon ? &l->cs->con[k] : &l->cs->fcon[k - l->cs->ncon]; }

/* The places of the bodies' blocks in W (woff) are forgotten: W or the adjacency changed. */
static PetscErrorCode PlacesFree(MbLocDyn l)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(l->wooff, l->woff));
  PetscCall(PetscFree(l->wkey2));
  l->nwkey2     = 0;
  l->woff_valid = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The adjacency of this step as one key: wnb, then wbid, wptr, wadj (PlacesFind keeps it). */
static PetscInt AdjacencyKeyLength(MbLocDyn l) { return 1 + 2 * l->wnb + 1 + l->wptr[l->wnb]; }
static void     AdjacencyKey(MbLocDyn l, PetscInt key[])
{
  const PetscInt nb = l->wnb, n = l->wptr[nb];
  key[0] = nb;
  for (PetscInt i = 0; i < nb; i++) key[1 + i] = l->wbid[i];
  for (PetscInt i = 0; i <= nb; i++) key[1 + nb + i] = l->wptr[i];
  for (PetscInt k = 0; k < n; k++) key[2 + 2 * nb + k] = l->wadj[k];
}

/* Whether the places found for W still hold: W kept and the adjacency the same as the key
   PlacesFind kept, part by part (a body that changed owner would change this rank's list of
   bodies; in practice that also changes some rank's rows, and W is made anew). */
static PetscBool PlacesHold(MbLocDyn l)
{
  const PetscInt *key = l->wkey2, nb = l->wnb;
  if (!l->woff_valid || AdjacencyKeyLength(l) != l->nwkey2 || key[0] != nb) return PETSC_FALSE;
  return memcmp(key + 1, l->wbid, (size_t)nb * sizeof(PetscInt)) || memcmp(key + 1 + nb, l->wptr, (size_t)(nb + 1) * sizeof(PetscInt)) || memcmp(key + 2 + 2 * nb, l->wadj, (size_t)l->wptr[nb] * sizeof(PetscInt)) ? PETSC_FALSE : PETSC_TRUE;
}

/* After the assembly of a W kept from the last step: for every body of the adjacency that inserts its blocks whole
   (deg ≤ wdense), the place of each of its deg² blocks in the value array of W's diagonal
   SeqBAIJ part, or −1 for a block of another rank's row or column (those keep going through
   MatSetValuesBlocked). While W and the adjacency stay (a stack, masonry, a held assembly of
   bricks: the contact graph of a settled structure changes rarely), the blocks are added
   there directly: PETSc's MatSetValuesBlocked looks every block up in its row, a sixth of a
   cube stack's step (callgrind). */
static PetscErrorCode PlacesFind(MbLocDyn l)
{
  Mat             Ad;
  const PetscInt *ai, *aj;
  PetscInt        n, tot = 0, nb = l->wnb;
  PetscBool       done;
  PetscFunctionBegin;
  PetscCall(PlacesFree(l));
  if (l->size > 1)
    PetscCall(MatMPIBAIJGetSeqBAIJ(l->W, &Ad, NULL, NULL));
  else
    Ad = l->W;
  for (PetscInt i = 0; i < nb; i++) {
    const PetscInt deg = l->wptr[i + 1] - l->wptr[i];
    if (deg <= l->wdense) tot += deg * deg;
  }
  PetscCall(PetscMalloc2(nb + 1, &l->wooff, tot + 1, &l->woff));
  tot = 0;
  for (PetscInt i = 0; i < nb; i++) {
    const PetscInt deg = l->wptr[i + 1] - l->wptr[i];
    l->wooff[i]        = deg <= l->wdense ? tot : -1;
    if (deg <= l->wdense) tot += deg * deg;
  }
  l->wooff[nb] = tot;
  PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_TRUE, &n, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "cannot get the block rows of W");
  for (PetscInt i = 0; i < nb; i++) {
    const PetscInt deg = l->wptr[i + 1] - l->wptr[i];
    PetscInt      *off = l->woff + l->wooff[i];
    if (l->wooff[i] < 0) continue;
    for (PetscInt j = 0; j < deg; j++) {
      const PetscInt r = Row(l, l->wadj[l->wptr[i] + j])->row - l->cs->rstart;
      for (PetscInt q = 0; q < deg; q++) {
        const PetscInt c = Row(l, l->wadj[l->wptr[i] + q])->row - l->cs->rstart;
        PetscInt       lo, hi;
        off[j * deg + q] = -1;
        if (r < 0 || r >= n || c < 0 || c >= n) continue;
        lo = ai[r], hi = ai[r + 1];
        while (lo < hi) {
          const PetscInt mid = (lo + hi) / 2;
          if (aj[mid] < c)
            lo = mid + 1;
          else
            hi = mid;
        }
        PetscCheck(lo < ai[r + 1] && aj[lo] == c, PETSC_COMM_SELF, PETSC_ERR_PLIB, "W has no block (%" PetscInt_FMT ", %" PetscInt_FMT ") of body %" PetscInt_FMT, r + l->cs->rstart, c + l->cs->rstart, l->wbid[i]);
        off[j * deg + q] = lo;
      }
    }
  }
  PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_TRUE, &n, &ai, &aj, &done));
  l->nwkey2 = AdjacencyKeyLength(l);
  PetscCall(PetscMalloc1(l->nwkey2, &l->wkey2));
  AdjacencyKey(l, l->wkey2);
  l->woff_valid = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* W, its vectors and scatter (not the adjacency of the step) */
static PetscErrorCode DestroyW(MbLocDyn l)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&l->W));
  PetscCall(VecDestroy(&l->B));
  PetscCall(VecDestroy(&l->R));
  PetscCall(VecDestroy(&l->U));
  PetscCall(VecDestroy(&l->Rfor));
  PetscCall(VecScatterDestroy(&l->forscat));
  PetscCall(PetscFree(l->law));
  PetscCall(PetscFree(l->wkey));
  l->nwkey = 0;
  PetscCall(PlacesFree(l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbLocDynCreate(MPI_Comm comm, MbLocDyn *ld)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(ld));
  (*ld)->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &(*ld)->rank));
  PetscCallMPI(MPI_Comm_size(comm, &(*ld)->size));
  (*ld)->wdense = 96;
  (*ld)->wsimd  = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbLocDynSetFromOptions(MbLocDyn l)
{
  PetscFunctionBegin;
  PetscOptionsBegin(l->comm, NULL, "Local dynamics options", "MbLocDyn");
  PetscCall(PetscOptionsInt("-mb_locdyn_dense_max", "Bodies with more constraints than this insert their blocks of W row by row, not as one (3k)x(3k) block", "MbLocDynAssemble", l->wdense, &l->wdense, NULL));
  PetscCheck(l->wdense >= 1, l->comm, PETSC_ERR_ARG_OUTOFRANGE, "-mb_locdyn_dense_max must be >= 1, got %" PetscInt_FMT, l->wdense);
  PetscCall(PetscOptionsBool("-mb_locdyn_simd", "Make a body's blocks of W with AVX2 when the CPU has it (results bit-identical to the portable code)", "MbLocDynAssemble", l->wsimd, &l->wsimd, NULL));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbLocDynGetSystem(MbLocDyn l, Mat *W, Vec *B, Vec *R, Vec *U, const MbLaw **law)
{
  if (W) *W = l->W;
  if (B) *B = l->B;
  if (R) *R = l->R;
  if (U) *U = l->U;
  if (law) *law = l->law;
  return PETSC_SUCCESS;
}

PetscErrorCode MbLocDynReset(MbLocDyn l)
{
  PetscFunctionBegin;
  PetscCall(DestroyW(l));
  PetscCall(AdjacencyFree(l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbLocDynDestroy(MbLocDyn *ld)
{
  PetscFunctionBegin;
  if (!*ld) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbLocDynReset(*ld));
  PetscCall(PetscFree(*ld));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MbBodyPrefetch/MbBodyPrefetchState by body id (−1: none) */
static inline void PrefetchBody(MbLocDyn l, PetscInt id)
{
  if (id >= 0) MbBodyPrefetch(l->map->all[id]);
}
static inline void PrefetchState(MbLocDyn l, PetscInt id)
{
  if (id >= 0) MbBodyPrefetchState(l->map->all[id], PETSC_FALSE);
}

/* The constraints on each owned movable body: l->wnb bodies l->wbid[], constraint indices
   (into Row) l->wadj[l->wptr[i] .. l->wptr[i+1]) in increasing order, the body's side of each
   in l->wside. A self-contact row (master = slave, BODY.selfcontact) is on its body twice,
   master side then slave side: summing over the entries then gives its block
   W_αα = h (H_m − H_s) A⁻¹ (H_m − H_s)ᵀ, its B = (H_m − H_s) u and its impulse
   h A⁻¹ (H_m − H_s)ᵀ R, with the cross terms that two different bodies do not have. The (body, constraint)
   entries are ordered by an LSD radix sort on the body id (11-bit digits, stable, so each
   body's constraints stay in increasing order): linear in the entries, where a comparison
   sort was a visible part of the step. */
static PetscErrorCode BodyAdjacency(MbLocDyn l)
{
  PetscInt nl = l->cs->ncon + l->cs->nfor, n = 0, m = 0, maxid = 0, *mem[4], *key, *val, *key2, *val2;
  PetscFunctionBegin;
  PetscCall(PetscMalloc4(2 * nl + 1, &mem[0], 2 * nl + 1, &mem[1], 2 * nl + 1, &mem[2], 2 * nl + 1, &mem[3]));
  key = mem[0], val = mem[1], key2 = mem[2], val2 = mem[3];
  for (PetscInt k = 0; k < nl; k++) {
    const MbCon *c = Row(l, k);
    for (int j = 0; j < 2; j++) {
      PetscInt b = c->body[j];
      if (b < 0 || !l->map->movable[b] || l->map->owner[b] != l->rank) continue;
      key[n]   = b;
      val[n++] = 2 * k + j; /* the side in the lowest bit: a self-contact row's two entries in order */
      maxid    = PetscMax(maxid, b);
    }
  }
  for (int shift = 0; shift < (int)(8 * sizeof(PetscInt)) && (shift == 0 || (maxid >> shift) > 0); shift += 11) {
    PetscInt cnt[2049] = {0}, *t;
    for (PetscInt i = 0; i < n; i++) cnt[((key[i] >> shift) & 2047) + 1]++;
    for (int r = 0; r < 2048; r++) cnt[r + 1] += cnt[r];
    for (PetscInt i = 0; i < n; i++) {
      PetscInt at = cnt[(key[i] >> shift) & 2047]++;
      key2[at]    = key[i];
      val2[at]    = val[i];
    }
    t = key, key = key2, key2 = t;
    t = val, val = val2, val2 = t;
  }
  PetscCall(PetscMalloc5(n + 1, &l->wbid, n + 2, &l->wptr, n + 1, &l->wadj, n + 1, &l->wgoff, n + 1, &l->wside));
  l->wgoff[0] = 0;
  for (PetscInt i = 0, nu = 0; i < n; i++) {
    if (i == 0 || key[i] != key[i - 1]) {
      l->wbid[m]   = key[i];
      l->wptr[m++] = i;
      nu           = l->map->all[key[i]]->ops->delassus ? 0 : l->map->all[key[i]]->nu; /* once a body: its struct is not in cache; a body with its own delassus op keeps no G */
    }
    l->wadj[i]      = val[i] / 2;
    l->wside[i]     = val[i] % 2;
    l->wgoff[i + 1] = l->wgoff[i] + 3 * nu;
  }
  l->wptr[m] = n;
  l->wnb     = m;
  PetscCall(PetscMalloc1(l->wgoff[n] + 1, &l->wG));
  PetscCall(PetscFree4(mem[0], mem[1], mem[2], mem[3]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AdjacencyFree(MbLocDyn l)
{
  PetscFunctionBegin;
  PetscCall(PetscFree5(l->wbid, l->wptr, l->wadj, l->wgoff, l->wside));
  PetscCall(PetscFree(l->wG));
  l->wnb = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* blk = H G for H 3×6 (row-major) and G 6×3 given by its transpose Gt (row c of Gt is
   column c of G, as the body's inverse returns them): six rank-one updates of the 3×3
   block, each entry summed over k in increasing order. */
static inline void BlockProduct(const PetscReal H[18], const PetscReal Gt[18], PetscReal blk[9])
{
  for (int e = 0; e < 9; e++) blk[e] = 0;
  for (int k = 0; k < 6; k++)
    for (int r = 0; r < 3; r++) {
      const PetscReal h = H[6 * r + k];
      blk[3 * r] += h * Gt[k], blk[3 * r + 1] += h * Gt[6 + k], blk[3 * r + 2] += h * Gt[12 + k];
    }
}

/* BlockProduct for any number nu of velocities (a deformable body): H 3×nu, Gt 3 rows of nu. */
static inline void BlockProductN(PetscInt nu, const PetscReal H[], const PetscReal Gt[], PetscReal blk[9])
{
  for (int e = 0; e < 9; e++) blk[e] = 0;
  for (PetscInt k = 0; k < nu; k++)
    for (int r = 0; r < 3; r++) {
      const PetscReal h = H[nu * r + k];
      blk[3 * r] += h * Gt[k], blk[3 * r + 1] += h * Gt[nu + k], blk[3 * r + 2] += h * Gt[2 * nu + k];
    }
}

/* DenseBlocks (below) for any nu: H_j and G_l 3 nu apart. */
static void DenseBlocksN(PetscInt nu, PetscInt deg, const PetscReal Hb[], const PetscReal G[], PetscReal h, PetscReal V[])
{
  const PetscInt ld = 3 * deg;
  for (PetscInt j = 0; j < deg; j++)
    for (PetscInt l = j; l < deg; l++) {
      PetscReal blk[9];
      BlockProductN(nu, &Hb[3 * nu * j], &G[3 * nu * l], blk);
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) V[(3 * j + r) * ld + 3 * l + c] = V[(3 * l + c) * ld + 3 * j + r] = h * blk[3 * r + c];
    }
}

/* A body's k×k blocks h H_j G_l (j, l < deg) into V, the (3 deg)×(3 deg) row-major array
   of one MatSetValuesBlocked: only l ≥ j is computed (W_lj = W_jlᵀ), each off-diagonal
   block stored in both places. In a diagonal block, entry (a, b) ends up with the product
   computed for (max(a, b), min(a, b)): the second of the two stores to it wins. */
static void DenseBlocks(PetscInt deg, const PetscReal Hb[], const PetscReal G[], PetscReal h, PetscReal V[])
{
  const PetscInt ld = 3 * deg;
  for (PetscInt j = 0; j < deg; j++)
    for (PetscInt l = j; l < deg; l++) {
      PetscReal blk[9];
      BlockProduct(&Hb[18 * j], &G[18 * l], blk);
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) V[(3 * j + r) * ld + 3 * l + c] = V[(3 * l + c) * ld + 3 * j + r] = h * blk[3 * r + c];
    }
}

#if MB_AVX2_INTRINSICS
/* DenseBlocks with AVX2, the same bits: a block row is one 4-wide register (the fourth lane
   unused), G's six rows held in registers while the blocks of its column are made, the
   products added in BlockProduct's order (k ascending, no FMA) and scaled by h last. The
   scalar products and fill were about 3 % of a granular run (perf). */
__attribute__((target("avx2"))) static void DenseBlocksAVX2(PetscInt deg, const PetscReal Hb[], const PetscReal G[], PetscReal h, PetscReal V[])
{
  const PetscInt ld = 3 * deg;
  const __m256d  hv = _mm256_set1_pd(h);
  const __m256i  m3 = _mm256_setr_epi64x(-1, -1, -1, 0);
  for (PetscInt l = 0; l < deg; l++) {
    const PetscReal *Gt = &G[18 * l];
    __m256d          g[6];
    for (int k = 0; k < 6; k++) g[k] = _mm256_setr_pd(Gt[k], Gt[6 + k], Gt[12 + k], 0.0);
    for (PetscInt j = 0; j <= l; j++) {
      const PetscReal *H = &Hb[18 * j];
      PetscReal        t[12];
      for (int r = 0; r < 3; r++) {
        __m256d acc = _mm256_mul_pd(_mm256_broadcast_sd(H + 6 * r), g[0]);
        for (int k = 1; k < 6; k++) acc = _mm256_add_pd(acc, _mm256_mul_pd(_mm256_broadcast_sd(H + 6 * r + k), g[k]));
        acc = _mm256_mul_pd(hv, acc);
        _mm256_storeu_pd(t + 4 * r, acc);
        if (j < l) _mm256_maskstore_pd(V + (3 * j + r) * ld + 3 * l, m3, acc);
      }
      if (j < l)
        for (int r = 0; r < 3; r++)
          for (int c = 0; c < 3; c++) V[(3 * l + c) * ld + 3 * j + r] = t[4 * r + c];
      else
        for (int a = 0; a < 3; a++)
          for (int b = 0; b < 3; b++) V[(3 * j + a) * ld + 3 * j + b] = a >= b ? t[4 * a + b] : t[4 * b + a];
    }
  }
}
#endif

/* The constraint points of owned body i (l->wbid[i]) as its ops take them */
static PetscErrorCode BodyPoints(MbLocDyn l, PetscInt i, MbBodyPoint pt[])
{
  for (PetscInt j = l->wptr[i]; j < l->wptr[i + 1]; j++) {
    const MbCon *c     = Row(l, l->wadj[j]);
    const int    m     = (int)l->wside[j];
    pt[j - l->wptr[i]] = (MbBodyPoint){c->X[m], c->base, m ? -1.0 : 1.0};
  }
  return PETSC_SUCCESS;
}

/* W += the m×n blocks V (row-major, PETSc's blocked layout) at block rows r, columns c. On
   several ranks the blocks among rows and columns owned here go straight into W's diagonal
   SeqBAIJ part by local numbers (one sorted walk along a row); MPIBAIJ's own path takes a
   call's blocks one at a time at twice the cost a call (callgrind), which kept W's insertion
   from speeding up with ranks (doc/benchmarks.md). The rest (other ranks' columns, other
   ranks' rows) goes the MPI way; negative indices are skipped, so V serves all three calls
   as it is, and each block is added once and in the order it was before. */
static PetscErrorCode AddBlocksPart(MbLocDyn l, Mat A, PetscInt m, const PetscInt r[], PetscInt n, const PetscInt c[], const PetscReal V[], PetscBool skip_diag);
static PetscErrorCode AddBlocks(MbLocDyn l, Mat A, PetscInt m, const PetscInt r[], PetscInt n, const PetscInt c[], const PetscReal V[]) { return AddBlocksPart(l, A, m, r, n, c, V, PETSC_FALSE); }

/* AddBlocks for body i's deg×deg blocks V (rows r) where the places of W's diagonal part are
   known (PlacesFind): added there directly, in MatSetValuesBlocked's order (so the same sums),
   the rest (other ranks' rows or columns) the MPI way. aa: the diagonal part's values. */
static PetscErrorCode AddPlaced(MbLocDyn l, Mat A, PetscScalar *aa, PetscInt i, PetscInt deg, const PetscInt r[], const PetscReal V[])
{
  const PetscInt *off = l->woff + l->wooff[i], ld = 3 * deg;
  PetscBool       rest = PETSC_FALSE;
  PetscFunctionBegin;
  for (PetscInt j = 0; j < deg; j++)
    for (PetscInt q = 0; q < deg; q++) {
      const PetscInt o = off[j * deg + q];
      if (o < 0) {
        rest = PETSC_TRUE;
        continue;
      }
      for (int a = 0; a < 3; a++) /* BAIJ keeps a block column by column */
        for (int b = 0; b < 3; b++) aa[9 * o + 3 * b + a] += V[(3 * j + a) * ld + 3 * q + b];
    }
  if (rest) PetscCall(AddBlocksPart(l, A, deg, r, deg, r, V, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AddBlocksPart(MbLocDyn l, Mat A, PetscInt m, const PetscInt r[], PetscInt n, const PetscInt c[], const PetscReal V[], PetscBool skip_diag)
{
  Mat       Ad;
  PetscInt  buf[80], *rl = buf, *ro, *rx, *cl, *cx, k = PetscMax(m, n);
  PetscBool own = PETSC_TRUE;
  PetscFunctionBegin;
  if (l->size == 1) {
    if (!skip_diag) PetscCall(MatSetValuesBlocked(A, m, r, n, c, V, ADD_VALUES));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatMPIBAIJGetSeqBAIJ(A, &Ad, NULL, NULL));
  if (5 * k > 80) PetscCall(PetscMalloc1(5 * k, &rl));
  ro = rl + k, rx = ro + k, cl = rx + k, cx = cl + k;
  for (PetscInt j = 0; j < m; j++) {
    const PetscBool o = r[j] >= l->cs->rstart && r[j] < l->cs->rend ? PETSC_TRUE : PETSC_FALSE;
    rl[j] = o ? r[j] - l->cs->rstart : -1, ro[j] = o ? r[j] : -1, rx[j] = o ? -1 : r[j];
    if (!o) own = PETSC_FALSE;
  }
  for (PetscInt j = 0; j < n; j++) {
    const PetscBool o = c[j] >= l->cs->rstart && c[j] < l->cs->rend ? PETSC_TRUE : PETSC_FALSE;
    cl[j] = o ? c[j] - l->cs->rstart : -1, cx[j] = o ? -1 : c[j];
    if (!o) own = PETSC_FALSE;
  }
  if (!skip_diag) PetscCall(MatSetValuesBlocked(Ad, m, rl, n, cl, V, ADD_VALUES)); /* own rows, own columns */
  if (!own) {
    PetscCall(MatSetValuesBlocked(A, m, ro, n, cx, V, ADD_VALUES)); /* own rows, other ranks' columns */
    PetscCall(MatSetValuesBlocked(A, m, rx, n, c, V, ADD_VALUES));  /* other ranks' rows */
  }
  if (rl != buf) PetscCall(PetscFree(rl));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* InsertBlocks for a body that forms its own blocks (its delassus op: a finite-element
   body, whose H is sparse and whose A⁻¹ is a factorization): all of them in one call, and
   its parts of B into the owned rows' array Ba or queued for other ranks (orow, Bo, *no). */
static PetscErrorCode BodyDelassus(MbLocDyn l, Mat A, PetscScalar *aa, PetscInt i, PetscBool covered[], PetscReal Ba[], PetscInt orow[], PetscReal Bo[], PetscInt *no)
{
  MbBody         b   = l->map->all[l->wbid[i]];
  const PetscInt deg = l->wptr[i + 1] - l->wptr[i];
  MbBodyPoint   *pt;
  PetscReal     *V, *Bb;
  PetscInt      *rows;
  PetscFunctionBegin;
  PetscCall(PetscMalloc4(deg, &pt, 9 * deg * deg, &V, 3 * deg, &Bb, deg, &rows));
  PetscCall(BodyPoints(l, i, pt));
  PetscCall(b->ops->delassus(b, deg, pt, l->h, V, Bb));
  for (PetscInt j = 0; j < deg; j++) {
    const PetscInt  row = Row(l, l->wadj[l->wptr[i] + j])->row;
    const PetscBool own = row >= l->cs->rstart && row < l->cs->rend ? PETSC_TRUE : PETSC_FALSE;
    PetscReal      *Bp  = own ? &Ba[3 * (row - l->cs->rstart)] : &Bo[3 * *no];
    rows[j]             = row;
    if (own) covered[row - l->cs->rstart] = PETSC_TRUE;
    for (int r = 0; r < 3; r++) Bp[r] += Bb[3 * j + r];
    if (!own) orow[(*no)++] = row;
  }
  if (aa && l->wooff[i] >= 0)
    PetscCall(AddPlaced(l, A, aa, i, deg, rows, V));
  else
    PetscCall(AddBlocks(l, A, deg, rows, deg, rows, V));
  PetscCall(PetscFree4(pt, V, Bb, rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The parts of B from the bodies of the owned rows that take no reactions but move (a
   moving obstacle, src/domain/drive.c): s_α H_α u, its point velocity, u being already its
   velocity at the end of the step. It puts no blocks into W (its A⁻¹ is zero). A row has
   two parts at most, so B stays free of the order of the additions. */
static PetscErrorCode DrivenParts(MbLocDyn l, PetscReal Ba[])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < l->cs->ncon; k++) {
    const MbCon *c = &l->cs->con[k];
    for (int m = 0; m < 2; m++) {
      const PetscInt id = c->body[m];
      PetscReal      v[3], part[3];
      MbBody         b;
      if (id < 0 || l->map->movable[id] || (m == 1 && id == c->body[0])) continue;
      b = l->map->all[id];
      if (!b || !MbBodyInMotion(b)) continue;
      PetscCall(b->ops->point_velocity(b, b->u, c->X[m], v));
      MbM3MultTranspose(c->base, v, part);
      for (int r = 0; r < 3; r++) Ba[3 * (c->row - l->cs->rstart) + r] += m ? -part[r] : part[r];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The blocks each owned body contributes, W_αβ += h s_α s_β H_α A⁻¹ H_βᵀ, into W, and its
   part of the free velocity, B_α += s_α H_α u_free, into B (zeroed by the caller; a row
   has two parts at most, so their sum is the same whichever comes first: B does not depend
   on the partition). Other ranks' rows get their parts by VecSetValuesBlocked, sent by the
   caller's VecAssemblyBegin/End. Per constraint on the body: s·H (3×6) and G = A⁻¹(s·H)ᵀ
   (6×3, stored as its transpose), kept in l->wG for the reactions after the solve. A⁻¹ is
   symmetric, so W_βα = W_αβᵀ: only j ≤ l is computed. A body's
   k×k blocks go in with one MatSetValuesBlocked (PETSc's (3k)×(3k) row-major layout); a
   body with more than l->wdense constraints (-mb_locdyn_dense_max), row by row, so that no
   (3k)² buffer is needed. */
static PetscErrorCode InsertBlocks(MbLocDyn l, Mat A, PetscScalar *aa, Vec B)
{
  PetscReal *Hb = NULL, *V = NULL, zero[9] = {0}, *Ba, *Bo;
  PetscInt   maxdeg = 0, maxnu = 6, *rows = NULL, *orow, no = 0;
  PetscBool *covered;
#if MB_AVX2_INTRINSICS
  const PetscBool avx2 = l->wsimd && MbCpuHasAVX2() ? PETSC_TRUE : PETSC_FALSE;
#endif
  PetscFunctionBegin;
  for (PetscInt i = 0; i < l->wnb; i++) {
    if (l->map->all[l->wbid[i]]->ops->delassus) continue; /* its own buffers */
    maxdeg = PetscMax(maxdeg, l->wptr[i + 1] - l->wptr[i]);
    maxnu  = PetscMax(maxnu, l->map->all[l->wbid[i]]->nu);
  }
  PetscCall(PetscMalloc3(3 * maxnu * maxdeg + 1, &Hb, 9 * PetscSqr(PetscMin(maxdeg, l->wdense)) + 9 * maxdeg + 1, &V, maxdeg + 1, &rows));
  PetscCall(PetscCalloc2(2 * l->cs->nfor + 1, &orow, 6 * l->cs->nfor + 3, &Bo)); /* a part per end of another rank's row */
  PetscCall(PetscCalloc1(l->cs->rend - l->cs->rstart + 1, &covered));
  PetscCall(VecGetArray(B, &Ba));
  for (PetscInt i = 0; i < l->wnb; i++) {
    MbBody     b   = l->map->all[l->wbid[i]];
    PetscInt   deg = l->wptr[i + 1] - l->wptr[i], ld = 3 * deg, nu = b->nu;
    PetscReal *G = l->wG + l->wgoff[l->wptr[i]]; /* the body's G_j, 3 nu apart */
    /* and the next body's constraint records: a slave's are its masters', far apart */
    if (i + 2 < l->wnb) PrefetchBody(l, l->wbid[i + 2]);
    if (i + 1 < l->wnb) {
      PrefetchState(l, l->wbid[i + 1]);
      for (PetscInt j = l->wptr[i + 1]; j < l->wptr[i + 2]; j++) PetscPrefetchBlock(Row(l, l->wadj[j]), 1, 0, PETSC_PREFETCH_HINT_T0);
    }
    if (b->ops->delassus) {
      PetscCall(BodyDelassus(l, A, aa, i, covered, Ba, orow, Bo, &no));
      continue;
    }
    for (PetscInt j = 0; j < deg; j++) {
      MbCon    *c = Row(l, l->wadj[l->wptr[i] + j]);
      int       m = (int)l->wside[l->wptr[i] + j];
      PetscReal s = m ? -1.0 : 1.0, *H = &Hb[3 * nu * j];
      rows[j] = c->row;
      if (c->row >= l->cs->rstart && c->row < l->cs->rend) covered[c->row - l->cs->rstart] = PETSC_TRUE; /* its diagonal block goes in below */
      PetscCall(b->ops->operator_h(b, c->X[m], c->base, H));
      for (PetscInt k = 0; k < 3 * nu; k++) H[k] *= s;
      PetscCall(b->ops->inverse(b, 3, H, &G[3 * nu * j])); /* the rows of sH are the columns of (sH)ᵀ */
      /* this end's part of B: into the array for an owned row, else queued for its owner */
      {
        const PetscBool own = c->row >= l->cs->rstart && c->row < l->cs->rend ? PETSC_TRUE : PETSC_FALSE;
        PetscReal      *Bp  = own ? &Ba[3 * (c->row - l->cs->rstart)] : &Bo[3 * no];
        for (int r = 0; r < 3; r++) { /* the part whole, then one addition: order-free for two parts */
          PetscReal part = 0;
          for (PetscInt k = 0; k < nu; k++) part += H[nu * r + k] * b->u[k];
          Bp[r] += part;
        }
        if (!own) orow[no++] = c->row;
      }
    }
    if (deg <= l->wdense) {
      if (nu != 6) DenseBlocksN(nu, deg, Hb, G, l->h, V);
#if MB_AVX2_INTRINSICS
      else if (avx2)
        DenseBlocksAVX2(deg, Hb, G, l->h, V);
#endif
      else
        DenseBlocks(deg, Hb, G, l->h, V);
      if (aa && l->wooff[i] >= 0)
        PetscCall(AddPlaced(l, A, aa, i, deg, rows, V));
      else
        PetscCall(AddBlocks(l, A, deg, rows, deg, rows, V));
    } else
      for (PetscInt j = 0; j < deg; j++) {
        for (PetscInt q = 0; q < deg; q++) {
          PetscReal blk[9];
          if (nu == 6)
            BlockProduct(&Hb[18 * j], &G[18 * q], blk);
          else
            BlockProductN(nu, &Hb[3 * nu * j], &G[3 * nu * q], blk);
          for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) V[r * ld + 3 * q + c] = l->h * blk[3 * r + c];
        }
        PetscCall(AddBlocks(l, A, 1, &rows[j], deg, rows, V));
      }
  }
  /* every owned row keeps its diagonal block: a zero one where no body of this rank put
     one in (a row whose bodies are another rank's or an obstacle's); one call a row for all
     of them was a sixth of the insertion */
  for (PetscInt r = l->cs->rstart; r < l->cs->rend && !aa; r++) /* (with places W kept them) */
    if (!covered[r - l->cs->rstart]) PetscCall(AddBlocks(l, A, 1, &r, 1, &r, zero));
  PetscCall(PetscFree(covered));
  PetscCall(DrivenParts(l, Ba));
  PetscCall(VecRestoreArray(B, &Ba));
  if (no) PetscCall(VecSetValuesBlocked(B, no, orow, Bo, ADD_VALUES));
  PetscCall(PetscFree2(orow, Bo));
  PetscCall(PetscFree3(Hb, V, rows));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The block nonzeros of each owned row of W, exactly, without a second insertion: row α
   has a block for every constraint on its master or its slave body, |adj(master) ∪
   adj(slave)|. Each body owner counts, per row of its bodies, the columns in the row
   owner's range and outside it, and sends the counts of other ranks' rows there; the
   slave's owner leaves out the constraints that also touch a movable master (among them α
   itself), which the master's owner counts. A self-contact row's second entry (its slave
   side, the same row) is counted neither as a row nor as a column. Exact counts spare the assembly from
   squeezing unused slots out of the matrix. Collective. */
static PetscErrorCode CountBlocks(MbLocDyn l, PetscInt dnz[], PetscInt onz[])
{
  const PetscInt nb = l->wnb, *ptr = l->wptr, *adj = l->wadj;
  PetscInt       nloc = l->cs->rend - l->cs->rstart, *ends, maxdeg = 0, *rb;
  MbBuf         *send, *recv;
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(l->size + 1, &ends));
  PetscCallMPI(MPI_Allgather(&l->cs->rend, 1, MPIU_INT, ends, 1, MPIU_INT, l->comm));
  PetscCall(PetscCalloc2(l->size, &send, l->size, &recv));
  for (PetscInt i = 0; i < nb; i++) maxdeg = PetscMax(maxdeg, ptr[i + 1] - ptr[i]);
  PetscCall(PetscMalloc1(3 * maxdeg + 1, &rb));
  for (PetscInt i = 0; i < nb; i++) {
    PetscInt deg = ptr[i + 1] - ptr[i];
    for (PetscInt j = 0; j < deg; j++) { /* the records once, not deg times */
      const MbCon *c = Row(l, adj[ptr[i] + j]);
      rb[3 * j] = c->row, rb[3 * j + 1] = c->body[0], rb[3 * j + 2] = c->body[1];
    }
    for (PetscInt j = 0; j < deg; j++) {
      PetscInt    rj = rb[3 * j], cnt[3] = {rj, 0, 0}, master = -1, lo, hi;
      PetscMPIInt p = 0;
      if (l->wside[ptr[i] + j] && rb[3 * j + 1] == rb[3 * j + 2]) continue; /* a self-contact row's second entry */
      while (rj >= ends[p]) p++;                                            /* the owner of row rj */
      lo = p ? ends[p - 1] : 0, hi = ends[p];
      if (rb[3 * j + 1] != l->wbid[i] && Movable(l, rb[3 * j + 1])) master = rb[3 * j + 1]; /* b is α's slave */
      for (PetscInt q = 0; q < deg; q++) {
        PetscInt rl = rb[3 * q];
        if (l->wside[ptr[i] + q] && rb[3 * q + 1] == rb[3 * q + 2]) continue;
        if (master >= 0 && (rb[3 * q + 1] == master || rb[3 * q + 2] == master)) continue;
        if (rl >= lo && rl < hi)
          cnt[1]++;
        else
          cnt[2]++;
      }
      if (p == l->rank) {
        dnz[rj - l->cs->rstart] += cnt[1];
        onz[rj - l->cs->rstart] += cnt[2];
      } else
        PetscCall(MbBufPut(&send[p], cnt, sizeof(cnt)));
    }
  }
  PetscCall(MbExchange(l->comm, send, recv));
  for (PetscMPIInt r = 0; r < l->size; r++) {
    size_t pos = 0;
    if (r == l->rank) continue;
    while (pos < recv[r].n) {
      PetscInt cnt[3];
      PetscCall(MbBufGet(&recv[r], &pos, cnt, sizeof(cnt)));
      PetscCheck(cnt[0] >= l->cs->rstart && cnt[0] < l->cs->rend, PETSC_COMM_SELF, PETSC_ERR_PLIB, "block counts for row %" PetscInt_FMT " reached rank %d", cnt[0], l->rank);
      dnz[cnt[0] - l->cs->rstart] += cnt[1];
      onz[cnt[0] - l->cs->rstart] += cnt[2];
    }
  }
  for (PetscInt r = 0; r < nloc; r++) { /* every row keeps its diagonal; no more than exist */
    dnz[r] = PetscMin(PetscMax(dnz[r], 1), nloc);
    onz[r] = PetscMin(onz[r], l->cs->nconglobal - nloc);
  }
  for (PetscMPIInt r = 0; r < l->size; r++) {
    PetscCall(MbBufFree(&send[r]));
    PetscCall(MbBufFree(&recv[r]));
  }
  PetscCall(PetscFree2(send, recv));
  PetscCall(PetscFree(ends));
  PetscCall(PetscFree(rb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc keeps a rank's diagonal and off-diagonal parts of W as sequential BAIJ matrices
   whose 9·blocks values are counted in PetscInt (32 bits here): a part past 2³¹ − 1 fails
   deep in MatSeqBAIJSetPreallocation with the product alone. Every row of W has a block
   for each constraint on its bodies, so a body with n constraints makes n² blocks (the
   body's A⁻¹ couples every two of them): say so, with the body, before PETSc does.
   Collective. */
static PetscErrorCode CheckBlocks(MbLocDyn l, const PetscInt dnz[], const PetscInt onz[])
{
  PetscInt   nloc = l->cs->rend - l->cs->rstart, big = -1, deg = 0;
  PetscInt64 nz[2] = {0, 0}, g[2];
  PetscFunctionBegin;
  for (PetscInt r = 0; r < nloc; r++) nz[0] += dnz[r], nz[1] += onz[r];
  nz[0] = PetscMax(nz[0], nz[1]); /* the larger part */
  for (PetscInt i = 0; i < l->wnb; i++)
    if (l->wptr[i + 1] - l->wptr[i] > deg) deg = l->wptr[i + 1] - l->wptr[i], big = l->wbid[i];
  nz[1] = deg;
  PetscCallMPI(MPI_Allreduce(nz, g, 2, MPIU_INT64, MPI_MAX, l->comm));
  if (9 * g[0] <= PETSC_MAX_INT) PetscFunctionReturn(PETSC_SUCCESS);
  {
    struct {
      int n, id;
    } loc = {(int)PetscMin(deg, PETSC_MAX_INT), (int)big}, top;
    PetscCallMPI(MPI_Allreduce(&loc, &top, 1, MPI_2INT, MPI_MAXLOC, l->comm));
    SETERRQ(l->comm, PETSC_ERR_SUP,
            "the Delassus matrix W of %" PetscInt_FMT " constraints needs %" PetscInt64_FMT " 3x3 blocks on one rank, 9 times which (%" PetscInt64_FMT
            " values) is past PETSc's 32-bit index limit 2147483647: a row of W has a block for every constraint on its bodies, and body %d has %d constraints (%.3g blocks from it alone). Fewer contacts per body (CONTACT_SPARSIFY, a coarser "
            "surface, or more ranks) or a PETSc built with --with-64-bit-indices",
            l->cs->nconglobal, g[0], 9 * g[0], top.id, top.n, (double)top.n * (double)top.n);
  }
}

/* A new matrix preallocated for the current graph (CountBlocks), and the scatter that
   brings the reactions of other ranks' rows on this rank's bodies. */
static PetscErrorCode CreateW(MbLocDyn l)
{
  PetscInt nloc = l->cs->rend - l->cs->rstart, *dnz, *onz;
  PetscFunctionBegin;
  PetscCall(DestroyW(l));
  PetscCall(PetscCalloc2(nloc + 1, &dnz, nloc + 1, &onz));
  PetscCall(CountBlocks(l, dnz, onz));
  PetscCall(CheckBlocks(l, dnz, onz));
  PetscCall(MatCreateBAIJ(l->comm, 3, 3 * nloc, 3 * nloc, 3 * l->cs->nconglobal, 3 * l->cs->nconglobal, 0, dnz, 0, onz, &l->W));
  PetscCall(PetscFree2(dnz, onz));
  PetscCall(MatSetOption(l->W, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(MatCreateVecs(l->W, &l->R, &l->B));
  PetscCall(VecDuplicate(l->B, &l->U));
  PetscCall(PetscMalloc1(nloc + 1, &l->law));
  if (l->size > 1) {
    PetscInt *rows;
    IS        is;
    PetscCall(PetscMalloc1(l->cs->nfor + 1, &rows));
    for (PetscInt k = 0; k < l->cs->nfor; k++) rows[k] = l->cs->fcon[k].row;
    PetscCall(ISCreateBlock(PETSC_COMM_SELF, 3, l->cs->nfor, rows, PETSC_OWN_POINTER, &is));
    PetscCall(VecCreateSeq(PETSC_COMM_SELF, 3 * l->cs->nfor, &l->Rfor));
    PetscCall(VecScatterCreate(l->R, is, l->Rfor, NULL, &l->forscat));
    PetscCall(ISDestroy(&is));
  }
  /* the structure: global size, then (row, bodies) of every row this rank sees */
  l->nwkey = 1 + 3 * (l->cs->ncon + l->cs->nfor);
  PetscCall(PetscMalloc1(l->nwkey, &l->wkey));
  l->wkey[0] = l->cs->nconglobal;
  for (PetscInt k = 0; k < l->cs->ncon + l->cs->nfor; k++) {
    l->wkey[1 + 3 * k]     = Row(l, k)->row;
    l->wkey[1 + 3 * k + 1] = Row(l, k)->body[0];
    l->wkey[1 + 3 * k + 2] = Row(l, k)->body[1];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool SameGraph(MbLocDyn l)
{
  if (!l->W || l->nwkey != 1 + 3 * (l->cs->ncon + l->cs->nfor) || l->wkey[0] != l->cs->nconglobal) return PETSC_FALSE;
  for (PetscInt k = 0; k < l->cs->ncon + l->cs->nfor; k++)
    if (l->wkey[1 + 3 * k] != Row(l, k)->row || l->wkey[2 + 3 * k] != Row(l, k)->body[0] || l->wkey[3 + 3 * k] != Row(l, k)->body[1]) return PETSC_FALSE;
  return PETSC_TRUE;
}

PetscErrorCode MbLocDynAssemble(MbLocDyn l, MbConSet cs, const MbBodyMap *map, PetscReal h)
{
  PetscInt  rebuild, any;
  PetscBool placed = PETSC_FALSE;
  PetscFunctionBegin;
  l->cs = cs, l->map = map, l->h = h;
  if (!l->cs->nconglobal) PetscFunctionReturn(PETSC_SUCCESS);
  if (W_Graph < 0) {
    PetscCall(PetscLogEventRegister("MbWGraph", MAT_CLASSID, &W_Graph));
    PetscCall(PetscLogEventRegister("MbWCreate", MAT_CLASSID, &W_Create));
    PetscCall(PetscLogEventRegister("MbWInsert", MAT_CLASSID, &W_Insert));
    PetscCall(PetscLogEventRegister("MbWAssembly", MAT_CLASSID, &W_Assembly));
  }
  PetscCall(PetscLogEventBegin(W_Graph, 0, 0, 0, 0));
  PetscCall(AdjacencyFree(l));
  PetscCall(BodyAdjacency(l));
  /* each rank compares its own rows and bodies; the reduction makes sure that the
     collective matrix creation is entered by all or none */
  rebuild = SameGraph(l) ? 0 : 1;
  PetscCallMPI(MPI_Allreduce(&rebuild, &any, 1, MPIU_INT, MPI_MAX, l->comm));
  if (any) {
    PetscCall(PetscLogEventBegin(W_Create, 0, 0, 0, 0));
    PetscCall(CreateW(l));
    PetscCall(PetscLogEventEnd(W_Create, 0, 0, 0, 0));
  } else
    PetscCall(MatZeroEntries(l->W));
  PetscCall(PetscLogEventEnd(W_Graph, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(W_Insert, 0, 0, 0, 0));
  PetscCall(VecSet(l->B, 0.0));
  if (!any && PlacesHold(l)) { /* W and the adjacency as at the last step: the places are known */
    Mat          Ad = l->W;
    PetscScalar *aa;
    if (l->size > 1) PetscCall(MatMPIBAIJGetSeqBAIJ(l->W, &Ad, NULL, NULL));
    PetscCall(MatSeqBAIJGetArray(Ad, &aa));
    PetscCall(InsertBlocks(l, l->W, aa, l->B)); /* and B = H u_free */
    PetscCall(MatSeqBAIJRestoreArray(Ad, &aa));
    placed = PETSC_TRUE;
  } else
    PetscCall(InsertBlocks(l, l->W, NULL, l->B));
  PetscCall(PetscLogEventEnd(W_Insert, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(W_Assembly, 0, 0, 0, 0));
  PetscCall(MatAssemblyBegin(l->W, MAT_FINAL_ASSEMBLY));
  PetscCall(VecAssemblyBegin(l->B));
  /* the warm start and the laws of the owned rows, meanwhile */
  {
    PetscReal *Ra;
    PetscCall(VecGetArray(l->R, &Ra));
    for (PetscInt k = 0; k < l->cs->ncon; k++) {
      const MbCon *c = &l->cs->con[k];
      for (int m = 0; m < 3; m++) Ra[3 * k + m] = c->R[m];
      l->law[k] = c->law;
    }
    PetscCall(VecRestoreArray(l->R, &Ra));
  }
  PetscCall(VecAssemblyEnd(l->B));
  PetscCall(MatAssemblyEnd(l->W, MAT_FINAL_ASSEMBLY));
  /* W kept from the last step but its places not known (or no longer right): find them for
     the next step. Not after a new W: where the graph changes every step (a pile settling)
     they would never be used. */
  if (!any && !placed) PetscCall(PlacesFind(l));
  PetscCall(PetscLogEventEnd(W_Assembly, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* u += h A⁻¹(±Hᵀ R) of constraint c on its owned movable bodies (+ master, − slave). */
static PetscErrorCode ApplyReaction(MbLocDyn l, const MbCon *c)
{
  PetscFunctionBegin;
  for (int m = 0; m < 2; m++) {
    PetscInt    id = c->body[m];
    PetscMPIInt owner;
    if (!Movable(l, id)) continue; /* both sides of a self-contact (master = slave): h A⁻¹(H_m − H_s)ᵀ R */
    owner = MbBodyMapOwner(l->map, id);
    if (owner != l->rank) continue;
    MbBody         b  = l->map->all[id];
    const PetscInt nu = b->nu;
    PetscReal      s = m ? -l->h : l->h, fs[MB_BODY_SMALL_NU], dus[MB_BODY_SMALL_NU], *f = fs, *du = dus;
    if (nu > MB_BODY_SMALL_NU) PetscCall(PetscMalloc2(nu, &f, nu, &du));
    PetscCall(PetscArrayzero(f, nu));
    PetscCall(MbBodyAddPointForce(b, c->X[m], c->base, c->R, 1.0, f));
    PetscCall(b->ops->inverse(b, 1, f, du));
    for (PetscInt j = 0; j < nu; j++) b->u[j] += s * du[j];
    if (f != fs) PetscCall(PetscFree2(f, du));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbLocDynSolve(MbLocDyn l, MbSolver solver, PetscInt *iterations, PetscReal *error, MbSolverConvergedReason *reason)
{
  PetscBool converged = PETSC_TRUE;
  PetscFunctionBegin;
  *iterations = 0;
  *error      = 0;
  *reason     = MB_SOLVER_CONVERGED;
  if (!l->cs->nconglobal) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbSolverSolve(solver, l->W, l->B, l->law, l->R, l->U));
  PetscCall(MbSolverGetStats(solver, iterations, error, &converged));
  if (!converged) *reason = MB_SOLVER_DIVERGED_ITS;
  /* a solver's own stopping test can pass while the laws are far from met (Gauss-Seidel's
     increment test on reactions that grow without bound, as contradictory joints make
     them): a natural-map error above the data itself (MbSolverNaturalError > 1) is a miss */
  else if (!(*error <= 1))
    *reason = MB_SOLVER_DIVERGED_ERROR;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The work a moving obstacle does through row c on the other body: that body's velocity
   part of U is U − B_obs (B_obs the obstacle's part, DrivenParts), so the reaction's work on
   it is h R·(U − B_obs), of which h R_N U_N and the friction's are counted: add −h R·B_obs,
   with the obstacle's velocities at both ends of the step, as V and U are. The energy
   balance (blowup.c) then sees what the obstacle puts in. */
static PetscErrorCode DrivenWork(MbLocDyn l, const MbCon *c, PetscReal *work)
{
  PetscFunctionBegin;
  for (int m = 0; m < 2; m++) {
    const PetscInt id = c->body[m];
    PetscReal      v0[3], v1[3], w[3];
    MbBody         b;
    if (id < 0 || l->map->movable[id] || (m == 1 && id == c->body[0])) continue;
    b = l->map->all[id];
    if (!b || !MbBodyInMotion(b)) continue;
    PetscCall(b->ops->point_velocity(b, b->u0, c->X[m], v0));
    PetscCall(b->ops->point_velocity(b, b->u, c->X[m], v1));
    MbV3Add(v0, v1, w);
    MbM3MultTranspose(c->base, w, w);
    *work -= (m ? -0.5 : 0.5) * l->h * MbV3Dot(c->R, w);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbLocDynApply(MbLocDyn l, PetscReal *work_contact, PetscReal *work_friction)
{
  const PetscScalar *r, *u, *rf = NULL;
  PetscFunctionBegin;
  if (!l->cs->nconglobal) PetscFunctionReturn(PETSC_SUCCESS);
  if (l->forscat) { /* reactions of other ranks' rows on this rank's bodies */
    PetscCall(VecScatterBegin(l->forscat, l->R, l->Rfor, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecScatterEnd(l->forscat, l->R, l->Rfor, INSERT_VALUES, SCATTER_FORWARD));
    PetscCall(VecGetArrayRead(l->Rfor, &rf));
  }
  PetscCall(VecGetArrayRead(l->R, &r));
  PetscCall(VecGetArrayRead(l->U, &u));
  for (PetscInt k = 0; k < l->cs->ncon; k++) {
    MbCon *c = &l->cs->con[k];
    for (int m = 0; m < 3; m++) {
      c->R[m] = PetscRealPart(r[3 * k + m]);
      c->U[m] = PetscRealPart(u[3 * k + m]);
    }
    if (c->joint >= 0) MbV3Copy(c->R, l->cs->joint[c->joint].R);
    /* work of the reaction over the step, h R·(V + U)/2 (exact for an impulse on a body
       whose inertia is constant in the frame where u lives); friction dissipates −tangential */
    *work_contact += 0.5 * l->h * c->R[2] * (c->V[2] + c->U[2]);
    *work_friction -= 0.5 * l->h * (c->R[0] * (c->V[0] + c->U[0]) + c->R[1] * (c->V[1] + c->U[1]));
    PetscCall(DrivenWork(l, c, work_contact));
  }
  for (PetscInt k = 0; k < l->cs->nfor; k++) {
    MbCon *c = &l->cs->fcon[k];
    for (int m = 0; m < 3; m++) c->R[m] = PetscRealPart(rf[3 * k + m]);
  }
  /* u += h A⁻¹(±Hᵀ R) = h G R for every owned body, its constraints in row order; R read
     from the vectors (24 bytes a row, in cache) rather than the constraint records */
  for (PetscInt i = 0; i < l->wnb; i++) {
    MbBody    b = l->map->all[l->wbid[i]];
    PetscReal ub[6]; /* summed in a local copy: through b->u, which may alias G or R for all the
                       compiler knows, every product waited on the store before it (2 % of the run) */
    if (i + 2 < l->wnb) PrefetchBody(l, l->wbid[i + 2]);
    if (i + 1 < l->wnb) PrefetchState(l, l->wbid[i + 1]);
    if (b->ops->impulse) { /* the body applies its reactions itself */
      const PetscInt deg = l->wptr[i + 1] - l->wptr[i];
      MbBodyPoint   *pt;
      PetscReal     *Rb;
      PetscCall(PetscMalloc2(deg, &pt, 3 * deg, &Rb));
      PetscCall(BodyPoints(l, i, pt));
      for (PetscInt j = 0; j < deg; j++) {
        const PetscInt     row = l->wadj[l->wptr[i] + j];
        const PetscScalar *R   = row < l->cs->ncon ? &r[3 * row] : &rf[3 * (row - l->cs->ncon)];
        for (int m = 0; m < 3; m++) Rb[3 * j + m] = PetscRealPart(R[m]);
      }
      PetscCall(b->ops->impulse(b, deg, pt, Rb, l->h));
      PetscCall(PetscFree2(pt, Rb));
      continue;
    }
    if (b->nu != 6) { /* a deformable body: the same sums over its nu velocities */
      const PetscInt nu = b->nu;
      for (PetscInt j = l->wptr[i]; j < l->wptr[i + 1]; j++) {
        const PetscInt     row = l->wadj[j];
        const PetscScalar *R   = row < l->cs->ncon ? &r[3 * row] : &rf[3 * (row - l->cs->ncon)];
        const PetscReal   *G   = l->wG + l->wgoff[j];
        for (PetscInt k = 0; k < nu; k++) b->u[k] += l->h * (G[k] * PetscRealPart(R[0]) + G[nu + k] * PetscRealPart(R[1]) + G[2 * nu + k] * PetscRealPart(R[2]));
      }
      continue;
    }
    for (int k = 0; k < 6; k++) ub[k] = b->u[k];
    for (PetscInt j = l->wptr[i]; j < l->wptr[i + 1]; j++) {
      const PetscInt     row = l->wadj[j];
      const PetscScalar *R   = row < l->cs->ncon ? &r[3 * row] : &rf[3 * (row - l->cs->ncon)];
      const PetscReal   *G   = l->wG + l->wgoff[j];
      for (int k = 0; k < 6; k++) ub[k] += l->h * (G[k] * PetscRealPart(R[0]) + G[6 + k] * PetscRealPart(R[1]) + G[12 + k] * PetscRealPart(R[2]));
    }
    for (int k = 0; k < 6; k++) b->u[k] = ub[k];
  }
  PetscCall(VecRestoreArrayRead(l->R, &r));
  PetscCall(VecRestoreArrayRead(l->U, &u));
  if (l->forscat) PetscCall(VecRestoreArrayRead(l->Rfor, &rf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PENALTY_SOLVER's contacts: their forces are known, so each body owner adds h A⁻¹(±Hᵀ R)
   to the free velocity before the joints are solved (their B then includes it). The work
   is h R·V with V at the start of the step (explicit, as the force). */
PetscErrorCode MbLocDynApplyForces(MbLocDyn l, MbConSet cs, const MbBodyMap *map, PetscReal h, PetscReal *work_contact, PetscReal *work_friction)
{
  PetscFunctionBegin;
  l->cs = cs, l->map = map, l->h = h;
  for (PetscInt k = 0; k < cs->npen; k++) {
    MbCon *c = &cs->pen[k];
    *work_contact += h * c->R[2] * c->V[2];
    *work_friction -= h * (c->R[0] * c->V[0] + c->R[1] * c->V[1]);
    PetscCall(ApplyReaction(l, c));
  }
  for (PetscInt k = 0; k < cs->nfpen; k++) PetscCall(ApplyReaction(l, &cs->fpen[k])); /* other ranks' contacts on this rank's bodies */
  PetscFunctionReturn(PETSC_SUCCESS);
}
