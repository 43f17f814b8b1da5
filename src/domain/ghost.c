/* Ghost bodies: read-only copies of remote bodies near this rank's bodies, so that the
   detection and the local dynamics of the constraints this rank owns see both bodies.
   A body goes to rank r as a ghost when its bounding box (a ball around its mass centre
   that holds the shape, widened by GEOMETRIC_EPSILON) may meet the box of one of r's
   movable bodies — tested on a grid of cells (MbDomainGhostRefresh) —, and always to the
   owners of the bodies it shares a joint or a spring with. Every refresh recomputes that set from the current placement: a body sent last
   time travels as its state (q, u, u0), a new one packed whole (MbBodyPack), and a ghost
   that was not sent this time is dropped — so both sides agree on the set without asking.
   Communication per step is therefore the bodies near partition boundaries, not N
   (plus, between ranks whose boxes meet, the coarse cells a rank occupies and up to 8
   grid-cell keys per movable body near the other rank's bodies).

   The set is rebuilt only when it may have become too small, as with the skin of a
   Verlet neighbour list: the boxes of a rebuild are widened by half a skin s, and until
   some body's mass centre has moved more than s/2 in a coordinate (plus any growth of its
   extent) since then, each true box lies inside its widened box of the rebuild, so every
   pair of boxes that meets now met then and the set sent then still holds. In between, a
   refresh sends the states of the same set: one reduction and the ghosts' states, no
   cells. A larger set only adds ghosts; detection keeps each pair once by its owner rule. */
#include <moreau/mbmath.h>
#include "domainimpl.h"
#include "../body/bodyimpl.h"

enum { GHOST_STATE = 0, GHOST_FULL = 1 };

/* Spatial box of b: its bounding ball (MbBodyBound) widened by eps. */
static void BodyBox(MbBody b, PetscReal eps, PetscReal box[6])
{
  PetscReal c[3], e;
  (void)MbBodyBound(b, c, &e);
  e += eps;
  for (int k = 0; k < 3; k++) {
    box[k]     = c[k] - e;
    box[3 + k] = c[k] + e;
  }
}

static PetscBool Overlap(const PetscReal a[6], const PetscReal b[6])
{
  for (int k = 0; k < 3; k++)
    if (a[k] > b[3 + k] || b[k] > a[3 + k]) return PETSC_FALSE;
  return PETSC_TRUE;
}

static int CompareInt(const void *x, const void *y)
{
  PetscInt a = *(const PetscInt *)x, b = *(const PetscInt *)y;
  return a < b ? -1 : (a > b ? 1 : 0);
}

PetscErrorCode MbDomainGhostDestroy(MbDomain d)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->gh.nghost; i++) {
    if (d->map.all && d->gh.ghost[i]->id < d->map.n) d->map.all[d->gh.ghost[i]->id] = NULL;
    PetscCall(MbBodyDestroy(&d->gh.ghost[i]));
  }
  PetscCall(PetscFree(d->gh.ghost));
  PetscCall(PetscFree(d->gh.gref));
  d->gh.nghost = d->gh.gcap = 0;
  d->gh.gsetkey[0]          = -1;
  if (d->gh.sent) {
    for (PetscMPIInt r = 0; r < d->size; r++) PetscCall(PetscFree(d->gh.sent[r]));
    PetscCall(PetscFree2(d->gh.sent, d->gh.nsent));
  }
  if (d->gh.gsend) {
    for (PetscMPIInt r = 0; r < d->size; r++) {
      PetscCall(MbBufFree(&d->gh.gsend[r]));
      PetscCall(MbBufFree(&d->gh.grecv[r]));
    }
    PetscCall(PetscFree2(d->gh.gsend, d->gh.grecv));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bytes of PutState's entry for b: id, tag, q, u, u0 (the receiver's expected length). */
static inline size_t StateBytes(MbBody b) { return sizeof(PetscInt) + 1 + (size_t)(b->nq + 2 * b->nu) * sizeof(PetscReal); }

/* The state of owned body b into the message to a rank that has its ghost. */
static PetscErrorCode PutState(MbBuf *m, MbBody b)
{
  char tag = GHOST_STATE;
  PetscFunctionBegin;
  PetscCall(MbBufPut(m, &b->id, sizeof(PetscInt)));
  PetscCall(MbBufPut(m, &tag, 1));
  PetscCall(MbBufPut(m, b->q, (size_t)b->nq * sizeof(PetscReal)));
  PetscCall(MbBufPut(m, b->u, (size_t)b->nu * sizeof(PetscReal)));
  PetscCall(MbBufPut(m, b->u0, (size_t)b->nu * sizeof(PetscReal)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AddEntry(MbDomain d, MbBody b, PetscMPIInt r, PetscInt **newsent, PetscInt *nnew, PetscInt *capnew)
{
  MbBuf *m = &d->gh.gsend[r];
  char   tag;
  PetscFunctionBegin;
  tag = (d->gh.nsent[r] && bsearch(&b->id, d->gh.sent[r], (size_t)d->gh.nsent[r], sizeof(PetscInt), CompareInt)) ? GHOST_STATE : GHOST_FULL;
  if (tag == GHOST_STATE)
    PetscCall(PutState(m, b));
  else {
    PetscCall(MbBufPut(m, &b->id, sizeof(PetscInt)));
    PetscCall(MbBufPut(m, &tag, 1));
    PetscCall(MbBufPutBody(m, b, PETSC_FALSE));
  }
  if (nnew[r] == capnew[r]) {
    capnew[r] = capnew[r] ? 2 * capnew[r] : 16;
    PetscCall(PetscRealloc(sizeof(PetscInt) * capnew[r], &newsent[r]));
  }
  newsent[r][nnew[r]++] = b->id;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The (owner of the other end, this end) pairs of a joint or spring whose ends lie on two
   ranks, for the end this rank owns. */
static void Partners(MbDomain d, const PetscInt body[2], PetscInt jp[], PetscInt *njp)
{
  for (int m = 0; m < 2; m++) {
    PetscInt a = body[m], o = body[1 - m];
    if (a < 0 || o < 0 || d->map.owner[a] != d->rank || d->map.owner[o] == d->rank) continue;
    jp[2 * *njp]     = d->map.owner[o];
    jp[2 * *njp + 1] = a;
    (*njp)++;
  }
}

/* Coarse cells, for the first round of the key exchange, are this many fine cells wide. */
#define COARSE 2

/* Key of grid cell (i, j, k), 21 bits each (cells far outside ±10⁶ of the origin wrap:
   a false match only sends a ghost too many). */
static int64_t CellKey(int64_t i, int64_t j, int64_t k) { return ((i & 0x1FFFFF) << 42) | ((j & 0x1FFFFF) << 21) | (k & 0x1FFFFF); }

static int ComparePair(const void *x, const void *y)
{
  const PetscInt *a = (const PetscInt *)x, *b = (const PetscInt *)y;
  if (a[0] != b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : (a[1] > b[1] ? 1 : 0);
}

/* The cells of side hc that box bb meets (at most 8 when the box is no wider than a cell). */
static PetscInt BoxCells(const PetscReal bb[6], PetscReal hc, int64_t key[8])
{
  int64_t  lo[3], hi[3];
  PetscInt n = 0;
  for (int c = 0; c < 3; c++) {
    lo[c] = (int64_t)PetscFloorReal(bb[c] / hc);
    hi[c] = (int64_t)PetscFloorReal(bb[3 + c] / hc);
    if (hi[c] > lo[c] + 1) hi[c] = lo[c] + 1; /* cannot happen with hc >= the widest box */
  }
  for (int64_t i = lo[0]; i <= hi[0]; i++)
    for (int64_t j = lo[1]; j <= hi[1]; j++)
      for (int64_t k = lo[2]; k <= hi[2]; k++) key[n++] = CellKey(i, j, k);
  return n;
}

/* A set of cell keys: open addressing, linear probing, power-of-two size, −1 empty. */
typedef struct {
  int64_t *key;
  size_t   mask;
} CellSet;

static size_t CellHash(int64_t k) { return (size_t)(((uint64_t)k * 0x9E3779B97F4A7C15ULL) >> 17); }

static PetscErrorCode CellSetBuild(CellSet *h, const int64_t keys[], size_t n)
{
  size_t size = 16;
  PetscFunctionBegin;
  while (size < 2 * n) size *= 2;
  PetscCall(PetscMalloc1(size, &h->key));
  for (size_t i = 0; i < size; i++) h->key[i] = -1;
  h->mask = size - 1;
  for (size_t i = 0; i < n; i++) {
    size_t j = CellHash(keys[i]) & h->mask;
    while (h->key[j] != -1 && h->key[j] != keys[i]) j = (j + 1) & h->mask;
    h->key[j] = keys[i];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool CellSetHas(const CellSet *h, int64_t k)
{
  size_t j = CellHash(k) & h->mask;
  while (h->key[j] != -1) {
    if (h->key[j] == k) return PETSC_TRUE;
    j = (j + 1) & h->mask;
  }
  return PETSC_FALSE;
}

/* Which remote ranks need each owned body as a ghost. Coarse: rank boxes (the union of
   each rank's movable bodies' boxes, one MPI_Allgather). Fine: a rank box can cover much
   more than the rank's bodies (a METIS part is not a brick), so ranks whose boxes meet
   exchange grid-cell keys in two rounds: the coarse cells (COARSE fine cells wide) their
   movable bodies occupy, each once, then the fine cells (at most 8 a body: as wide as the
   widest movable box) of their bodies that lie in the other's coarse cells. Two boxes that
   meet share a fine and a coarse cell, so a movable body goes to r when one of its fine
   cells is in r's set, and only bodies near the boundary send fine keys. Obstacles (few,
   large) go by rank box. Joint and spring partners always go to the partner's owner. */
/* GhostRebuild's step 1: every owned body's box once (bb, 6 a body), widened by half the
   skin; this rank's box (mybox, empty: lo > hi) and its widest box (mybox[6]), gathered
   from every rank (*rbox, 7 a rank); the cell width hc; the reference placement of the skin
   test. Collective. */
static PetscErrorCode GhostBoxes(MbDomain d, PetscReal **bbp, PetscReal mybox[7], PetscReal **rboxp, PetscReal *hcp)
{
  PetscReal *bb, *rbox, hc;
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(6 * d->nbody + 1, &bb));
  PetscCall(PetscFree(d->gh.gref));
  PetscCall(PetscMalloc1(4 * d->nbody + 1, &d->gh.gref));
  for (int k = 0; k < 3; k++) mybox[k] = PETSC_MAX_REAL, mybox[3 + k] = -PETSC_MAX_REAL;
  mybox[6] = 0;
  for (PetscInt i = 0; i < d->nbody; i++) {
    PetscReal *x = &bb[6 * i];
    MbBody     b = d->body[i];
    BodyBox(b, d->geps + 0.5 * d->gh.gskin_len, x);
    PetscCall(MbBodyBound(b, &d->gh.gref[4 * i], &d->gh.gref[4 * i + 3]));
    if (!MbBodyIsMovable(b)) continue;
    for (int k = 0; k < 3; k++) {
      mybox[k]     = PetscMin(mybox[k], x[k]);
      mybox[3 + k] = PetscMax(mybox[3 + k], x[3 + k]);
      mybox[6]     = PetscMax(mybox[6], x[3 + k] - x[k]);
    }
  }
  PetscCall(PetscMalloc1(7 * d->size, &rbox));
  PetscCallMPI(MPI_Allgather(mybox, 7, MPIU_REAL, rbox, 7, MPIU_REAL, d->comm));
  hc = 0;
  for (PetscMPIInt r = 0; r < d->size; r++) hc = PetscMax(hc, rbox[7 * r + 6]);
  hc     = hc > 0 ? 1.0001 * hc : 1.0;
  *bbp   = bb;
  *rboxp = rbox;
  *hcp   = hc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* GhostRebuild's step 2, the exchange: the coarse cells this rank occupies, each once, to
   its nn neighbours nbr, then the fine cells of its bodies in a neighbour's coarse cells; hs[r]
   (d->size of them, zeroed) gets the fine cells of rank r's bodies near this rank's.
   Collective. */
static PetscErrorCode GhostExchangeCells(MbDomain d, PetscMPIInt nn, const PetscMPIInt nbr[], const PetscReal bb[], const PetscReal rbox[], const int64_t cells[], const PetscInt cidx[], const int64_t coarse[], const PetscInt kidx[], PetscInt ncoarse,
                                         CellSet *hs)
{
  CellSet *hsc, mine;
  MbBuf   *csend, *crecv;
  PetscFunctionBegin;
  /* the coarse cells this rank occupies, each once, to its neighbours: a short list (a few
     bodies a cell) that says where its bodies are more finely than its box */
  PetscCall(CellSetBuild(&mine, coarse, (size_t)ncoarse));
  PetscCall(PetscCalloc2(d->size, &csend, d->size, &crecv));
  for (PetscMPIInt k = 0; k < nn; k++)
    for (size_t e = 0; e <= mine.mask; e++)
      if (mine.key[e] != -1) PetscCall(MbBufPut(&csend[nbr[k]], &mine.key[e], sizeof(int64_t)));
  PetscCall(PetscFree(mine.key));
  for (PetscMPIInt r = 0; r < d->size; r++) d->gh.gkey_bytes += (PetscLogDouble)csend[r].n;
  PetscCall(MbExchange(d->comm, csend, crecv));
  PetscCall(PetscCalloc1(d->size, &hsc));
  for (PetscMPIInt r = 0; r < d->size; r++) {
    if (r != d->rank && crecv[r].n) PetscCall(CellSetBuild(&hsc[r], (const int64_t *)crecv[r].buf, crecv[r].n / sizeof(int64_t)));
    PetscCall(MbBufFree(&csend[r]));
    PetscCall(MbBufFree(&crecv[r]));
  }
  /* then the fine cells of the bodies in r's coarse cells: two boxes that meet share a
     coarse cell too, so only bodies near r's bodies (a layer about COARSE cells thick along
     the boundary) send their keys, not the rank's N/P */
  for (PetscMPIInt k = 0; k < nn; k++) {
    PetscMPIInt r = nbr[k];
    if (!hsc[r].key) continue;
    for (PetscInt i = 0; i < d->nbody; i++) {
      PetscBool near = PETSC_FALSE;
      if (cidx[i + 1] == cidx[i] || !Overlap(&bb[6 * i], &rbox[7 * r])) continue;
      for (PetscInt e = kidx[i]; e < kidx[i + 1] && !near; e++) near = CellSetHas(&hsc[r], coarse[e]);
      if (near) PetscCall(MbBufPut(&csend[r], &cells[cidx[i]], (size_t)(cidx[i + 1] - cidx[i]) * sizeof(int64_t)));
    }
  }
  for (PetscMPIInt r = 0; r < d->size; r++) d->gh.gkey_bytes += (PetscLogDouble)csend[r].n;
  PetscCall(MbExchange(d->comm, csend, crecv));
  for (PetscMPIInt r = 0; r < d->size; r++)
    if (r != d->rank && crecv[r].n) PetscCall(CellSetBuild(&hs[r], (const int64_t *)crecv[r].buf, crecv[r].n / sizeof(int64_t)));
  for (PetscMPIInt r = 0; r < d->size; r++) {
    PetscCall(MbBufFree(&csend[r]));
    PetscCall(MbBufFree(&crecv[r]));
    PetscCall(PetscFree(hsc[r].key));
  }
  PetscCall(PetscFree2(csend, crecv));
  PetscCall(PetscFree(hsc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* GhostRebuild's joint partners: (rank, body) pairs of the joints and springs, each once,
   unless the box loop sent it already (its entries per rank are in id order). */
static PetscErrorCode GhostAddPartners(MbDomain d, PetscInt **newsent, PetscInt *nnew, PetscInt *capnew)
{
  PetscInt *jp, njp = 0, *nbox;
  PetscFunctionBegin;
  PetscCall(PetscMalloc2(4 * (d->cs->njoint + d->nspring) + 1, &jp, d->size, &nbox));
  for (PetscMPIInt r = 0; r < d->size; r++) nbox[r] = nnew[r];
  for (PetscInt j = 0; j < d->cs->njoint; j++)
    if (!d->cs->joint[j].removed) Partners(d, d->cs->joint[j].body, jp, &njp);
  for (PetscInt j = 0; j < d->nspring; j++) Partners(d, d->spring[j].body, jp, &njp); /* forces.c */
  if (njp) qsort(jp, (size_t)njp, 2 * sizeof(PetscInt), ComparePair);
  for (PetscInt k = 0; k < njp; k++) {
    PetscMPIInt r = (PetscMPIInt)jp[2 * k];
    PetscInt    a = jp[2 * k + 1];
    if (k && jp[2 * k - 2] == r && jp[2 * k - 1] == a) continue;
    if (nbox[r] && bsearch(&a, newsent[r], (size_t)nbox[r], sizeof(PetscInt), CompareInt)) continue;
    PetscCall(AddEntry(d, d->map.all[a], r, newsent, nnew, capnew));
  }
  PetscCall(PetscFree2(jp, nbox));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GhostRebuild(MbDomain d)
{
  PetscReal    mybox[7], *rbox = NULL, hc = 0, *bb = NULL; /* set by GhostBoxes */
  PetscInt   **newsent, *nnew, *capnew, ncell = 0, ncoarse = 0;
  int64_t     *cells, *coarse;
  PetscInt    *cidx, *kidx;
  PetscMPIInt *nbr, nn = 0;
  CellSet     *hs;
  PetscFunctionBegin;
  /* 1. every owned body's box once, widened by half the skin; this rank's box (empty:
     lo > hi), its widest box; the reference placement of the skin test */
  PetscCall(GhostBoxes(d, &bb, mybox, &rbox, &hc));
  /* the ranks whose boxes meet this rank's box: only they can need its movable bodies */
  PetscCall(PetscMalloc1(d->size, &nbr));
  for (PetscMPIInt r = 0; r < d->size; r++)
    if (r != d->rank && Overlap(mybox, &rbox[7 * r])) nbr[nn++] = r;
  /* 2. every movable body's fine cells (as wide as the widest movable box) and coarse cells
     (COARSE fine cells wide), at most 8 of each, computed once */
  PetscCall(PetscMalloc4(8 * d->nbody + 1, &cells, d->nbody + 1, &cidx, 8 * d->nbody + 1, &coarse, d->nbody + 1, &kidx));
  for (PetscInt i = 0; i < d->nbody; i++) {
    cidx[i] = ncell, kidx[i] = ncoarse;
    if (!MbBodyIsMovable(d->body[i])) continue;
    ncell += BoxCells(&bb[6 * i], hc, &cells[ncell]);
    ncoarse += BoxCells(&bb[6 * i], COARSE * hc, &coarse[ncoarse]);
  }
  cidx[d->nbody] = ncell, kidx[d->nbody] = ncoarse;
  PetscCall(PetscCalloc1(d->size, &hs));
  PetscCall(GhostExchangeCells(d, nn, nbr, bb, rbox, cells, cidx, coarse, kidx, ncoarse, hs));
  /* 3. what goes where: a movable body to the neighbours holding one of its fine cells (in
     id order per rank), an obstacle to every rank whose box it meets */
  PetscCall(PetscCalloc3(d->size, &newsent, d->size, &nnew, d->size, &capnew));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody           b = d->body[i];
    const PetscReal *x = &bb[6 * i];
    if (!MbBodyIsMovable(b)) {
      for (PetscMPIInt r = 0; r < d->size; r++)
        if (r != d->rank && Overlap(x, &rbox[7 * r])) PetscCall(AddEntry(d, b, r, newsent, nnew, capnew));
      continue;
    }
    for (PetscMPIInt k = 0; k < nn; k++) {
      PetscMPIInt r  = nbr[k];
      PetscBool   go = PETSC_FALSE;
      if (!hs[r].key || !Overlap(x, &rbox[7 * r])) continue;
      for (PetscInt e = cidx[i]; e < cidx[i + 1] && !go; e++) go = CellSetHas(&hs[r], cells[e]);
      if (go) PetscCall(AddEntry(d, b, r, newsent, nnew, capnew));
    }
  }
  PetscCall(GhostAddPartners(d, newsent, nnew, capnew));
  for (PetscMPIInt r = 0; r < d->size; r++) PetscCall(PetscFree(hs[r].key));
  PetscCall(PetscFree(hs));
  PetscCall(PetscFree4(cells, cidx, coarse, kidx));
  PetscCall(PetscFree(nbr));
  PetscCall(PetscFree(bb));
  PetscCall(PetscFree(rbox));
  for (PetscMPIInt r = 0; r < d->size; r++) { /* entries may be out of order after joints */
    PetscCall(PetscFree(d->gh.sent[r]));
    if (nnew[r]) qsort(newsent[r], (size_t)nnew[r], sizeof(PetscInt), CompareInt);
    d->gh.sent[r]  = newsent[r];
    d->gh.nsent[r] = nnew[r];
  }
  PetscCall(PetscFree3(newsent, nnew, capnew));
  d->gh.gsetkey[0] = d->nbody, d->gh.gsetkey[1] = d->nglobal, d->gh.gsetkey[2] = d->bal.nmigrated;
  d->gh.gsetkey[3] = d->cs->njoint, d->gh.gsetkey[4] = d->nspring;
  d->gh.nrebuild++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The same set as the last rebuild: every ghost this rank keeps elsewhere gets its state. */
static PetscErrorCode GhostStates(MbDomain d)
{
  PetscFunctionBegin;
  for (PetscMPIInt r = 0; r < d->size; r++)
    for (PetscInt k = 0; k < d->gh.nsent[r]; k++) {
      PetscInt id = d->gh.sent[r][k];
      PetscCheck(d->map.owner[id] == d->rank && d->map.all[id], PETSC_COMM_SELF, PETSC_ERR_PLIB, "ghost set lists body %" PetscInt_FMT ", which this rank does not own", id);
      PetscCall(PutState(&d->gh.gsend[r], d->map.all[id]));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether the set of the last rebuild still holds (file comment): the same bodies, owners,
   joints and springs, and no body moved more than half the skin since. Collective; also
   gives the widest movable box of all ranks, which sets the skin of a rebuild. */
static PetscErrorCode GhostSetHolds(MbDomain d, PetscBool *holds, PetscReal *widest)
{
  const PetscInt key[5] = {d->nbody, d->nglobal, d->bal.nmigrated, d->cs->njoint, d->nspring};
  PetscReal      loc[2] = {0, 0}, glob[2];
  PetscBool      same   = d->gh.gref ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionBegin;
  for (int k = 0; k < 5; k++) same = same && key[k] == d->gh.gsetkey[k] ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody    b = d->body[i];
    PetscReal e, c[3];
    PetscCall(MbBodyBound(b, c, &e));
    if (MbBodyIsMovable(b)) loc[1] = PetscMax(loc[1], 2 * (e + d->geps));
    if (same) {
      const PetscReal *x0  = &d->gh.gref[4 * i];
      PetscReal        dev = PetscMax(PetscMax(PetscAbsReal(c[0] - x0[0]), PetscAbsReal(c[1] - x0[1])), PetscAbsReal(c[2] - x0[2]));
      loc[0]               = PetscMax(loc[0], dev + PetscMax(e - x0[3], 0));
    }
  }
  if (!same) loc[0] = PETSC_MAX_REAL;
  PetscCallMPI(MPI_Allreduce(loc, glob, 2, MPIU_REAL, MPI_MAX, d->comm));
  *holds  = glob[0] <= 0.5 * d->gh.gskin_len ? PETSC_TRUE : PETSC_FALSE;
  *widest = glob[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Brings every rank's ghosts up to date with their owners' bodies (file comment): the set
   is rebuilt when it may no longer hold, else only the states travel. Collective. */
PetscErrorCode MbDomainGhostRefresh(MbDomain d)
{
  PetscInt  nkeep  = 0;
  PetscBool holds  = PETSC_FALSE; /* set by GhostSetHolds (initialized: GCC cannot see that through the inlined helpers) */
  PetscReal widest = 0;
  PetscFunctionBegin;
  PetscCall(MbDomainKnowBodies(d));
  if (d->size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  if (!d->gh.sent) {
    PetscCall(PetscCalloc2(d->size, &d->gh.sent, d->size, &d->gh.nsent));
    PetscCall(PetscCalloc2(d->size, &d->gh.gsend, d->size, &d->gh.grecv));
  }
  PetscCall(GhostSetHolds(d, &holds, &widest));
  d->gh.nrefresh++;
  if (holds)
    PetscCall(GhostStates(d));
  else {
    d->gh.gskin_len = d->gh.gskin * widest;
    PetscCall(GhostRebuild(d));
  }
  /* 4. exchange; with the set unchanged each rank knows what its ghosts' owners send, so
     only neighbours talk (no count exchange among all ranks) */
  for (PetscMPIInt r = 0; r < d->size; r++) d->gh.gbody_bytes += (PetscLogDouble)d->gh.gsend[r].n;
  {
    size_t *expect = NULL;
    if (holds) {
      PetscCall(PetscCalloc1(d->size, &expect));
      for (PetscInt i = 0; i < d->gh.nghost; i++) expect[d->map.owner[d->gh.ghost[i]->id]] += StateBytes(d->gh.ghost[i]);
    }
    PetscCall(MbExchangeSized(d->comm, d->gh.gsend, d->gh.grecv, expect));
    PetscCall(PetscFree(expect));
  }
  /* 5. apply: states to existing ghosts, new ghosts unpacked, the rest dropped */
  d->gh.gstamp++;
  for (PetscMPIInt r = 0; r < d->size; r++) {
    MbBuf *m   = &d->gh.grecv[r];
    size_t pos = 0;
    if (r == d->rank) continue;
    while (pos < m->n) {
      PetscInt id;
      char     tag;
      MbBody   g;
      PetscCall(MbBufGet(m, &pos, &id, sizeof(PetscInt)));
      PetscCall(MbBufGet(m, &pos, &tag, 1));
      PetscCheck(id >= 0 && id < d->map.n && d->map.owner[id] == r, PETSC_COMM_SELF, PETSC_ERR_PLIB, "ghost of body %" PetscInt_FMT " from rank %d, which does not own it", id, r);
      g = d->map.all[id];
      if (tag == GHOST_STATE) {
        PetscCheck(g, PETSC_COMM_SELF, PETSC_ERR_PLIB, "state of body %" PetscInt_FMT " from rank %d, which this rank has no ghost of", id, r);
        PetscCall(MbBufGet(m, &pos, g->q, (size_t)g->nq * sizeof(PetscReal)));
        PetscCall(MbBufGet(m, &pos, g->u, (size_t)g->nu * sizeof(PetscReal)));
        PetscCall(MbBufGet(m, &pos, g->u0, (size_t)g->nu * sizeof(PetscReal)));
      } else {
        PetscCheck(!g, PETSC_COMM_SELF, PETSC_ERR_PLIB, "body %" PetscInt_FMT " sent whole from rank %d, but this rank already has it", id, r);
        PetscCall(MbBufGetBody(m, &pos, &g, NULL));
        if (d->gh.nghost == d->gh.gcap) {
          d->gh.gcap = d->gh.gcap ? 2 * d->gh.gcap : 64;
          PetscCall(PetscRealloc(sizeof(MbBody) * d->gh.gcap, &d->gh.ghost));
        }
        d->gh.ghost[d->gh.nghost++] = g;
        d->map.all[id]              = g;
      }
      g->mark = d->gh.gstamp;
    }
  }
  for (PetscInt i = 0; i < d->gh.nghost; i++) {
    MbBody g = d->gh.ghost[i];
    if (g->mark != d->gh.gstamp) { /* not sent this time: dropped */
      d->map.all[g->id] = NULL;
      PetscCall(MbBodyDestroy(&d->gh.ghost[i]));
    } else
      d->gh.ghost[nkeep++] = g;
  }
  d->gh.nghost = nkeep;
  PetscFunctionReturn(PETSC_SUCCESS);
}
