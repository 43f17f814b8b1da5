/* Broad phase: every pair of overlapping axis-aligned boxes (Ericson, "Real-Time Collision
   Detection", 2005, ch. 7: uniform grids, hashed storage, sort and sweep).

   Boxes of typical size go into a uniform grid whose cell is the median box extent, stored
   by hashing the cell coordinates (so an empty region costs nothing), or as a dense array
   when the cloud is compact. A box is entered into every cell it overlaps, at most 2×2×2
   cells for a box of typical size; two boxes are compared when they share a cell, and a
   pair is reported only by the cell that holds the lower corner of the boxes'
   intersection, so it is found exactly once without a set of the pairs seen. When the
   boxes are of about one size (a granular scene of equal grains), each enters only the
   cell of its centre instead, in a grid of cells as large as the largest box, and every
   cell is compared with its 13 following neighbours (CentreGridPairs): one entry a box
   rather than 8.

   Boxes much larger than the median (a ground slab, walls) would fill thousands of cells;
   they are taken out of the grid and tested against the typical boxes — each against
   every one when they are few, else by a sweep along the axis in which they have fewest
   neighbours (the boxes sorted by their lower bound on that axis; a slab is thin in z, a
   wall in x or y) — and against one another by applying the same method to the large
   ones alone. */
#include <moreau/mbgeom.h>

/* A box with max extent above LARGE_FACTOR times the median is "large" (not in the grid). */
#define LARGE_FACTOR 8.0
/* The grid is coarsened while its boxes enter more cells than this on average (8 for
   boxes of the cell's size). */
#define GRID_ENTRIES_MAX 16
/* The grid of box centres (CentreGridPairs) is used when no small box exceeds this times the
   median extent: its cell is the largest extent, so wider spreads would crowd the cells. */
#define CENTRE_FACTOR 2.0
/* Below this many boxes all pairs are tested directly. */
#define BRUTE_FORCE_MAX 16
/* Cell coordinates are packed into 21 bits each of one 64-bit key. */
#define CELL_BITS 21
#define CELL_MAX ((PetscInt64)1 << CELL_BITS)

/* The pairs found so far, each once, i < j. */
typedef struct {
  PetscInt  np, cap; /* pairs found, allocated */
  PetscInt *pi, *pj; /* pair k is (pi[k], pj[k]) */
  PetscBool (*filter)(void *, PetscInt, PetscInt);
  void *ctx;
} PairList;

static PetscErrorCode PairListAdd(PairList *pl, PetscInt i, PetscInt j)
{
  PetscFunctionBegin;
  if (i > j) {
    PetscInt t = i;
    i          = j;
    j          = t;
  }
  if (pl->filter && !pl->filter(pl->ctx, i, j)) PetscFunctionReturn(PETSC_SUCCESS);
  if (pl->np == pl->cap) {
    PetscInt  cap = pl->cap ? 2 * pl->cap : 1024;
    PetscInt *pi, *pj;
    PetscCall(PetscMalloc2(cap, &pi, cap, &pj));
    PetscCall(PetscArraycpy(pi, pl->pi, pl->np));
    PetscCall(PetscArraycpy(pj, pl->pj, pl->np));
    PetscCall(PetscFree2(pl->pi, pl->pj));
    pl->pi  = pi;
    pl->pj  = pj;
    pl->cap = cap;
  }
  pl->pi[pl->np] = i;
  pl->pj[pl->np] = j;
  pl->np++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Closed boxes: touching counts as overlapping. */
static inline PetscBool BoxesOverlap(const MbBox *a, const MbBox *b) { return (PetscBool)(a->lo[0] <= b->hi[0] && b->lo[0] <= a->hi[0] && a->lo[1] <= b->hi[1] && b->lo[1] <= a->hi[1] && a->lo[2] <= b->hi[2] && b->lo[2] <= a->hi[2]); }

static inline PetscReal BoxExtent(const MbBox *b) { return PetscMax(b->hi[0] - b->lo[0], PetscMax(b->hi[1] - b->lo[1], b->hi[2] - b->lo[2])); }

static PetscErrorCode BruteForce(PetscInt m, const PetscInt idx[], const MbBox boxes[], PairList *pl)
{
  PetscFunctionBegin;
  for (PetscInt a = 0; a < m; a++)
    for (PetscInt b = a + 1; b < m; b++)
      if (BoxesOverlap(&boxes[idx[a]], &boxes[idx[b]])) PetscCall(PairListAdd(pl, idx[a], idx[b]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscInt64 CellKey(PetscInt64 x, PetscInt64 y, PetscInt64 z) { return (x << (2 * CELL_BITS)) | (y << CELL_BITS) | z; }

/* Fibonacci hashing (Knuth, TAOCP vol. 3, 6.4): the top bits of key times 2⁶⁴/φ. */
static inline PetscInt CellBucket(PetscInt64 key, int bits) { return bits ? (PetscInt)(((uint64_t)key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - bits)) : 0; }

/* Pairs among the m boxes idx[] by a hashed uniform grid of cell size h. */
static PetscErrorCode GridPairs(PetscInt m, const PetscInt idx[], const MbBox boxes[], PetscReal h, PairList *pl)
{
  PetscReal   o[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, span = 0, inv;
  PetscInt   *c0, *c1, *start, *ent, nb;
  PetscInt64 *ekey, total = 0, ncell[3] = {0, 0, 0};
  char       *emask;
  int         bits = 0;
  PetscBool   dense;
  PetscFunctionBegin;
  if (m < 2) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < m; k++)
    for (int d = 0; d < 3; d++) o[d] = PetscMin(o[d], boxes[idx[k]].lo[d]);
  for (PetscInt k = 0; k < m; k++)
    for (int d = 0; d < 3; d++) span = PetscMax(span, boxes[idx[k]].hi[d] - o[d]);
  /* keep cell coordinates within CELL_BITS: a very sparse cloud gets coarser cells */
  h = PetscMax(h, span / (PetscReal)(CELL_MAX - 2));
  PetscCall(PetscMalloc2(3 * m, &c0, 3 * m, &c1));
  /* a population of boxes up to LARGE_FACTOR × h enters up to 9³ cells each: coarsen the
     grid until there are at most GRID_ENTRIES_MAX entries per box on average */
  for (;;) {
    inv   = 1.0 / h;
    total = 0;
    for (PetscInt k = 0; k < m; k++) {
      PetscInt64 cells = 1;
      for (int d = 0; d < 3; d++) {
        /* the same monotone map for every coordinate, so the cell of max(lo_a, lo_b) is
           max(cell(lo_a), cell(lo_b)): the owner test below needs only c0 */
        c0[3 * k + d] = (PetscInt)PetscMin((PetscReal)(CELL_MAX - 1), PetscFloorReal((boxes[idx[k]].lo[d] - o[d]) * inv));
        c1[3 * k + d] = (PetscInt)PetscMin((PetscReal)(CELL_MAX - 1), PetscFloorReal((boxes[idx[k]].hi[d] - o[d]) * inv));
        cells *= c1[3 * k + d] - c0[3 * k + d] + 1;
      }
      total += cells;
    }
    if (total <= GRID_ENTRIES_MAX * m || h >= span) break;
    h *= 2;
  }
  PetscCheck(total < PETSC_MAX_INT / 2, PETSC_COMM_SELF, PETSC_ERR_SUP, "broad phase: %" PetscInt64_FMT " grid entries for %" PetscInt_FMT " boxes exceed the index range", total, m);
  while (((PetscInt64)1 << bits) < total) bits++;
  nb = (PetscInt)1 << bits;
  /* A compact cloud (fewer cells in its bounding box than 2nb) is stored densely: cell
     (x, y, z) is bucket (x·ny + y)·nz + z. No two cells share a bucket, and the buckets
     are visited in the order of space, so the boxes are read in the order they lie (the
     boxes of neighbouring bodies are mostly near one another in memory), not at random. */
  for (PetscInt k = 0; k < m; k++)
    for (int d = 0; d < 3; d++) ncell[d] = PetscMax(ncell[d], (PetscInt64)c1[3 * k + d] + 1);
  dense = (PetscBool)(ncell[0] * ncell[1] <= 2 * (PetscInt64)nb && ncell[0] * ncell[1] * ncell[2] <= 2 * (PetscInt64)nb);
  if (dense) nb = (PetscInt)(ncell[0] * ncell[1] * ncell[2]);
  PetscCall(PetscCalloc1(nb + 1, &start));
  PetscCall(PetscMalloc3(total, &ent, dense ? 1 : total, &ekey, total, &emask)); /* dense: a bucket is one cell, no key needed */
  /* counting sort of the (cell, box) entries by bucket: pass 0 counts, pass 1 fills */
  for (int pass = 0; pass < 2; pass++) {
    for (PetscInt k = 0; k < m; k++)
      for (PetscInt x = c0[3 * k]; x <= c1[3 * k]; x++)
        for (PetscInt y = c0[3 * k + 1]; y <= c1[3 * k + 1]; y++)
          for (PetscInt z = c0[3 * k + 2]; z <= c1[3 * k + 2]; z++) {
            PetscInt64 key = CellKey(x, y, z);
            PetscInt   b   = dense ? (PetscInt)((x * ncell[1] + y) * ncell[2] + z) : CellBucket(key, bits);
            if (pass == 0)
              start[b + 1]++;
            else {
              PetscInt e = start[b]++;
              ent[e]     = idx[k];
              if (!dense) ekey[e] = key;
              emask[e] = (char)((x == c0[3 * k]) | (y == c0[3 * k + 1]) << 1 | (z == c0[3 * k + 2]) << 2); /* the axes along which the box begins in this cell */
            }
          }
    if (pass == 0) /* prefix sum: bucket b will fill [start[b], start[b+1]) */
      for (PetscInt b = 0; b < nb; b++) start[b + 1] += start[b];
  }
  /* filling advanced start[b] to the old start[b+1]: shift back */
  for (PetscInt b = nb; b > 0; b--) start[b] = start[b - 1];
  start[0] = 0;
  /* The cell that reports a pair holds the lower corner of the intersection, max(c0_a,
     c0_b) per axis; of the cells that both boxes enter, it is the one where along every
     axis one of them begins: (mask_a | mask_b) == 7. Tested first, on the entries alone,
     it spares most reads of the boxes (scattered in memory). */
  for (PetscInt b = 0; b < nb; b++)
    for (PetscInt e = start[b]; e < start[b + 1]; e++)
      for (PetscInt f = e + 1; f < start[b + 1]; f++) {
        if ((emask[e] | emask[f]) != 7) continue;   /* another cell reports it */
        if (!dense && ekey[e] != ekey[f]) continue; /* another cell hashed to the same bucket */
        if (!BoxesOverlap(&boxes[ent[e]], &boxes[ent[f]])) continue;
        PetscCall(PairListAdd(pl, ent[e], ent[f]));
      }
  PetscCall(PetscFree3(ent, ekey, emask));
  PetscCall(PetscFree(start));
  PetscCall(PetscFree2(c0, c1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscReal BoxCentre(const MbBox *b, int d) { return 0.5 * (b->lo[d] + b->hi[d]); }

/* Pairs among the m boxes idx[] when none is much larger than the others (most scenes of
   equal grains): each box enters only the cell of its centre, in a dense grid of cells no
   smaller than the largest extent e. Two overlapping boxes have centres at most e apart
   along every axis, so in the same or adjacent cells; each cell is compared with itself
   and with its 13 neighbours that follow it (dx, dy, dz) > 0 lexicographically, so every
   pair of cells once. A box is one entry instead of up to 8, and no pair needs the
   owner-cell test. *done is false (nothing added) when the centres' cells would be too
   many for a dense grid: then GridPairs. */
static PetscErrorCode CentreGridPairs(PetscInt m, const PetscInt idx[], const MbBox boxes[], PetscReal e, PetscBool *done, PairList *pl)
{
  /* the 13 neighbours that follow a cell, (dx, dy, dz) > (0, 0, 0) lexicographically */
  static const PetscInt next[13][3] = {{0, 0, 1}, {0, 1, -1}, {0, 1, 0}, {0, 1, 1}, {1, -1, -1}, {1, -1, 0}, {1, -1, 1}, {1, 0, -1}, {1, 0, 0}, {1, 0, 1}, {1, 1, -1}, {1, 1, 0}, {1, 1, 1}};
  PetscReal             o[3]        = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, inv;
  PetscInt             *cell, *start, *ent, n[3] = {1, 1, 1}, nc;
  PetscFunctionBegin;
  *done = PETSC_FALSE;
  if (m < 2 || !(e > 0)) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt k = 0; k < m; k++)
    for (int d = 0; d < 3; d++) o[d] = PetscMin(o[d], BoxCentre(&boxes[idx[k]], d));
  /* the cell a little larger than e: centres e apart stay in adjacent cells despite the
     rounding of (c − o)/cell (relative 1e-16 of at most 2²¹ cells, far below 1e-8) */
  inv = 1.0 / (e * (1.0 + 1e-8));
  for (PetscInt k = 0; k < m; k++)
    for (int d = 0; d < 3; d++) {
      PetscReal x = (BoxCentre(&boxes[idx[k]], d) - o[d]) * inv;
      if (!(x < (PetscReal)CELL_MAX)) PetscFunctionReturn(PETSC_SUCCESS); /* too sparse */
      n[d] = PetscMax(n[d], (PetscInt)x + 1);
    }
  if ((PetscInt64)n[0] * n[1] * n[2] > 4 * (PetscInt64)m + 64) PetscFunctionReturn(PETSC_SUCCESS);
  nc = n[0] * n[1] * n[2];
  PetscCall(PetscMalloc3(m, &cell, nc + 1, &start, m, &ent));
  PetscCall(PetscArrayzero(start, nc + 1));
  for (PetscInt k = 0; k < m; k++) {
    PetscInt c[3];
    for (int d = 0; d < 3; d++) c[d] = (PetscInt)((BoxCentre(&boxes[idx[k]], d) - o[d]) * inv);
    cell[k] = (c[0] * n[1] + c[1]) * n[2] + c[2];
    start[cell[k] + 1]++;
  }
  for (PetscInt c = 0; c < nc; c++) start[c + 1] += start[c];
  for (PetscInt k = 0; k < m; k++) ent[start[cell[k]]++] = idx[k]; /* start[c] moves to the end of c */
  for (PetscInt c = nc; c > 0; c--) start[c] = start[c - 1];
  start[0] = 0;
  for (PetscInt x = 0; x < n[0]; x++)
    for (PetscInt y = 0; y < n[1]; y++)
      for (PetscInt z = 0; z < n[2]; z++) {
        const PetscInt c = (x * n[1] + y) * n[2] + z;
        for (PetscInt a = start[c]; a < start[c + 1]; a++) {
          const MbBox *A = &boxes[ent[a]];
          for (PetscInt b = a + 1; b < start[c + 1]; b++)
            if (BoxesOverlap(A, &boxes[ent[b]])) PetscCall(PairListAdd(pl, ent[a], ent[b]));
          for (int t = 0; t < 13; t++) {
            const PetscInt X = x + next[t][0], Y = y + next[t][1], Z = z + next[t][2], c2 = (X * n[1] + Y) * n[2] + Z;
            if (X >= n[0] || Y < 0 || Y >= n[1] || Z < 0 || Z >= n[2]) continue;
            for (PetscInt b = start[c2]; b < start[c2 + 1]; b++)
              if (BoxesOverlap(A, &boxes[ent[b]])) PetscCall(PairListAdd(pl, ent[a], ent[b]));
          }
        }
      }
  PetscCall(PetscFree3(cell, start, ent));
  *done = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* First position in the sorted lo[0..m) with lo[k] >= x (m when none). */
static PetscInt LowerBound(PetscInt m, const PetscReal lo[], PetscReal x)
{
  PetscInt a = 0, b = m;
  while (a < b) {
    PetscInt c = a + (b - a) / 2;
    if (lo[c] < x)
      a = c + 1;
    else
      b = c;
  }
  return a;
}

/* First position in the sorted lo[0..m) with lo[k] > x. */
static PetscInt UpperBound(PetscInt m, const PetscReal lo[], PetscReal x)
{
  PetscInt a = 0, b = m;
  while (a < b) {
    PetscInt c = a + (b - a) / 2;
    if (lo[c] <= x)
      a = c + 1;
    else
      b = c;
  }
  return a;
}

/* PETSc 3.18's PetscSortReal is quadratic on many equal keys (a lattice of equal boxes);
   the C library's qsort is not, and the box index makes the order deterministic. */
typedef struct {
  PetscReal lo;
  PetscInt  box;
} SweepKey;

static int CompareSweepKey(const void *pa, const void *pb)
{
  const SweepKey *a = (const SweepKey *)pa, *b = (const SweepKey *)pb;
  if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
  return (a->box > b->box) - (a->box < b->box);
}

/* Pairs of each large box with the small ones, by a sweep: with the small boxes sorted by
   lo[d] and E_d their largest extent along d, a small box can meet [L.lo_d, L.hi_d] only
   when its lo_d lies in [L.lo_d − E_d, L.hi_d], a contiguous run of the sorted order.
   A few large boxes (a floor and four walls) are instead tested against every small one:
   nl·ns box tests cost less than the three sorts (3·ns·log₂ns comparisons, each dearer
   than a box test). Either way finds the same pairs, which MbBroadPhase puts in order. */
static PetscErrorCode SweepLargeVsSmall(PetscInt nl, const PetscInt large[], PetscInt ns, const PetscInt small[], const MbBox boxes[], PairList *pl)
{
  PetscReal *lo[3], ext[3]    = {0, 0, 0};
  PetscInt  *order[3], log2ns = 0;
  SweepKey  *key;
  PetscFunctionBegin;
  if (!nl || !ns) PetscFunctionReturn(PETSC_SUCCESS);
  while (((PetscInt64)1 << log2ns) < ns) log2ns++;
  if (nl <= 3 * log2ns) {
    /* small boxes outside, so that each is read once and the large ones stay in cache */
    for (PetscInt k = 0; k < ns; k++)
      for (PetscInt l = 0; l < nl; l++)
        if (BoxesOverlap(&boxes[large[l]], &boxes[small[k]])) PetscCall(PairListAdd(pl, large[l], small[k]));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc1(ns, &key));
  for (int d = 0; d < 3; d++) {
    PetscCall(PetscMalloc2(ns, &lo[d], ns, &order[d]));
    for (PetscInt k = 0; k < ns; k++) {
      key[k].lo  = boxes[small[k]].lo[d];
      key[k].box = small[k];
      ext[d]     = PetscMax(ext[d], boxes[small[k]].hi[d] - boxes[small[k]].lo[d]);
    }
    qsort(key, ns, sizeof(key[0]), CompareSweepKey);
    for (PetscInt k = 0; k < ns; k++) {
      lo[d][k]    = key[k].lo;
      order[d][k] = key[k].box;
    }
  }
  PetscCall(PetscFree(key));
  for (PetscInt l = 0; l < nl; l++) {
    const MbBox *L     = &boxes[large[l]];
    PetscInt     begin = 0, end = 0, axis = -1;
    for (int d = 0; d < 3; d++) {
      PetscInt b = LowerBound(ns, lo[d], L->lo[d] - ext[d]), e = UpperBound(ns, lo[d], L->hi[d]);
      if (axis < 0 || e - b < end - begin) {
        axis  = d;
        begin = b;
        end   = e;
      }
    }
    for (PetscInt k = begin; k < end; k++)
      if (BoxesOverlap(L, &boxes[order[axis][k]])) PetscCall(PairListAdd(pl, large[l], order[axis][k]));
  }
  for (int d = 0; d < 3; d++) PetscCall(PetscFree2(lo[d], order[d]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The k-th smallest of x[0..m) (x is reordered): quickselect (Hoare 1961) with a
   three-way partition, so that many equal values (equal boxes) cost O(m), not O(m²). */
static PetscReal Select(PetscInt m, PetscReal x[], PetscInt k)
{
  PetscInt a = 0, b = m; /* the answer lies in x[a..b) */
  while (b - a > 1) {
    PetscReal p  = x[a + (b - a) / 2];
    PetscInt  lt = a, i = a, gt = b; /* [a,lt) < p, [lt,i) == p, [gt,b) > p */
    while (i < gt) {
      PetscReal t = x[i];
      if (t < p) {
        x[i++]  = x[lt];
        x[lt++] = t;
      } else if (t > p) {
        x[i]  = x[--gt];
        x[gt] = t;
      } else
        i++;
    }
    if (k < lt)
      b = lt;
    else if (k >= gt)
      a = gt;
    else
      return p;
  }
  return x[k];
}

/* All pairs among the m boxes idx[]. The large ones recurse on their own median; fewer
   than half of the boxes lie above 8× the median, so the depth is at most log₂ m. */
static PetscErrorCode FindPairs(PetscInt m, const PetscInt idx[], const MbBox boxes[], PairList *pl)
{
  PetscReal *ext, h, sum = 0, emax = 0;
  PetscInt  *small, *large, ns = 0, nl = 0;
  PetscFunctionBegin;
  if (m <= BRUTE_FORCE_MAX) {
    PetscCall(BruteForce(m, idx, boxes, pl));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc1(m, &ext));
  for (PetscInt k = 0; k < m; k++) {
    ext[k] = BoxExtent(&boxes[idx[k]]);
    sum += ext[k];
  }
  h = Select(m, ext, m / 2);
  PetscCall(PetscFree(ext));
  if (h <= 0) h = sum / m; /* more than half are points: the mean of the rest sets the scale */
  PetscCall(PetscMalloc2(m, &small, m, &large));
  for (PetscInt k = 0; k < m; k++) {
    PetscReal e = BoxExtent(&boxes[idx[k]]);
    if (h > 0 && e > LARGE_FACTOR * h)
      large[nl++] = idx[k];
    else {
      small[ns++] = idx[k];
      emax        = PetscMax(emax, e);
    }
  }
  if (h <= 0) h = 1; /* every box is a point; GridPairs widens the cell to the cloud's span */
  /* boxes of about one size (the largest within CENTRE_FACTOR of the median): one entry
     each (CentreGridPairs); otherwise, or when their centres are spread too thin, a box
     in every cell it overlaps (GridPairs) */
  {
    PetscBool done = PETSC_FALSE;
    if (emax <= CENTRE_FACTOR * h) PetscCall(CentreGridPairs(ns, small, boxes, emax, &done, pl));
    if (!done) PetscCall(GridPairs(ns, small, boxes, h, pl));
  }
  PetscCall(SweepLargeVsSmall(nl, large, ns, small, boxes, pl));
  PetscCall(FindPairs(nl, large, boxes, pl));
  PetscCall(PetscFree2(small, large));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBroadPhase(PetscInt n, const MbBox boxes[], PetscBool (*filter)(void *ctx, PetscInt i, PetscInt j), void *ctx, PetscInt *npairs, PetscInt **pairs)
{
  PairList  pl = {0};
  PetscInt *idx, *row, *out;
  PetscFunctionBegin;
  PetscCheck(n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "broad phase: number of boxes must be >= 0, got %" PetscInt_FMT, n);
  PetscCheck(npairs && pairs && (boxes || !n), PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "broad phase: boxes (for n = %" PetscInt_FMT "), npairs and pairs must not be NULL", n);
  /* -MAX <= lo <= hi <= MAX: finite (a NaN fails every comparison) and ordered, by
     comparisons alone (PetscIsInfOrNanReal is a call per coordinate) */
  for (PetscInt i = 0; i < n; i++)
    for (int d = 0; d < 3; d++)
      PetscCheck(-PETSC_MAX_REAL <= boxes[i].lo[d] && boxes[i].lo[d] <= boxes[i].hi[d] && boxes[i].hi[d] <= PETSC_MAX_REAL, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
                 "broad phase: box %" PetscInt_FMT " has lo[%d] = %g, hi[%d] = %g: need finite lo <= hi", i, d, (double)boxes[i].lo[d], d, (double)boxes[i].hi[d]);
  pl.filter = filter;
  pl.ctx    = ctx;
  PetscCall(PetscMalloc1(n, &idx));
  for (PetscInt i = 0; i < n; i++) idx[i] = i;
  PetscCall(FindPairs(n, idx, boxes, &pl));
  PetscCall(PetscFree(idx));
  /* sort by (i, j): counting sort by i into rows, then sort each (short) row by j */
  PetscCall(PetscCalloc1(n + 1, &row));
  PetscCall(PetscMalloc1(2 * pl.np, &out));
  for (PetscInt k = 0; k < pl.np; k++) row[pl.pi[k] + 1]++;
  for (PetscInt i = 0; i < n; i++) row[i + 1] += row[i];
  for (PetscInt k = 0; k < pl.np; k++) out[row[pl.pi[k]]++] = pl.pj[k];
  for (PetscInt i = n; i > 0; i--) row[i] = row[i - 1];
  if (n) row[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt *r = out + row[i], len = row[i + 1] - row[i];
    if (len > 8)
      PetscCall(PetscSortInt(len, r));
    else /* most rows hold a few pairs: insertion sort, without a call per row */
      for (PetscInt a = 1; a < len; a++) {
        PetscInt t = r[a], b = a;
        for (; b > 0 && r[b - 1] > t; b--) r[b] = r[b - 1];
        r[b] = t;
      }
  }
  /* spread the j's into (i, j) pairs from the back, so that out can hold both */
  for (PetscInt i = n - 1; i >= 0; i--)
    for (PetscInt k = row[i + 1] - 1; k >= row[i]; k--) {
      out[2 * k + 1] = out[k];
      out[2 * k]     = i;
    }
  PetscCall(PetscFree(row));
  PetscCall(PetscFree2(pl.pi, pl.pj));
  *npairs = pl.np;
  *pairs  = out;
  PetscFunctionReturn(PETSC_SUCCESS);
}
