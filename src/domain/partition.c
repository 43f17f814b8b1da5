/* Load balance by METIS (ARCHITECTURE.md, "Parallel design"; Karypis & Kumar 1998, "A fast
   and high quality multilevel scheme for partitioning irregular graphs", SIAM J. Sci.
   Comput. 20:359). The body graph: a vertex per body with two weights (BodyLoad), its own
   work (MbBodyWork: 1 for a rigid body, 2 for a pseudo-rigid one, the DOFs and quadrature
   points of a finite-element one) and k² for the k constraints on it last step, each
   balanced by METIS (multi-constraint partitioning); an
   edge per contact candidate (two movable bodies whose bounding boxes, widened by half
   their size and GEOMETRIC_EPSILON, overlap: every contact and the bodies about a body's
   size apart), per joint and per spring. A margin of 10 % left bodies of a loose packing
   (a falling lattice) without edges; METIS places such bodies anywhere to balance the
   parts, and then every rank's region spans the whole scene and so do the ghosts.

   How the graph reaches METIS: each rank sends rank 0 seven reals per owned body (id, weight,
   mass centre, radius, its work MbBodyWork) with one MPI_Gatherv; rank 0 finds the candidates with the broad
   phase (src/contact/, a hash grid: O(N)), builds the CSR graph, calls METIS_PartGraphKway
   and broadcasts the N new owners. Rank 0 thus holds O(N) data — about 56 bytes a body for
   the gather plus ~8 bytes per edge end for METIS, e.g. 10⁷ bodies with 6 candidates each
   in about 1.5 GB — and METIS runs serially: fine to some 10⁷ bodies. Beyond that the plan
   (doc/parallel.md) is ParMETIS's ParMETIS_V3_PartGeomKway on the distributed graph, each
   rank contributing its owned bodies' edges, with no rank holding more than its share. */
#include <metis.h>
#include <moreau/mbmath.h>
#include <moreau/mbgeom.h>
#include "domainimpl.h"
#include "../body/bodyimpl.h"

static PetscBool  MetisCited      = PETSC_FALSE;
static const char MetisCitation[] = "@article{KarypisKumar1998,\n  author = {G. Karypis and V. Kumar},\n  title = {A fast and high quality multilevel scheme for partitioning irregular graphs},\n  journal = {SIAM Journal on Scientific Computing},\n  "
                                    "volume = {20},\n  number = {1},\n  pages = {359--392},\n  year = {1998}\n}\n";

/* The two loads of a body with k constraints: 1 (its integration, ghosts, boxes) and k²,
   the 3×3 blocks of W it contributes (W_αβ for every pair of its constraints): the
   assembly and every Gauss–Seidel sweep cost as many block products. Counting k instead
   left the rank with the denser part of a pile ~10 % more sweep work at N = 10,000 on two
   ranks (doc/scaling.md). */
static inline void BodyLoad(PetscInt k, PetscInt work, PetscInt64 load[2])
{
  load[0] = PetscMax(1, work); /* its integration and forces (MbBodyWork) */
  load[1] = (PetscInt64)k * k;
}

/* max over the two loads of (largest rank's load) / (mean load); tot[c] is the sum of load c
   over the ranks, mx[c] the largest rank's. A load that is zero everywhere is balanced. */
static PetscReal LoadImbalance(PetscMPIInt size, const PetscInt64 mx[2], const PetscInt64 tot[2])
{
  PetscReal imb = 1.0;
  for (int c = 0; c < 2; c++)
    if (tot[c] > 0) imb = PetscMax(imb, (PetscReal)mx[c] * size / (PetscReal)tot[c]);
  return imb;
}

/* The constraints on each owned body (owned rows and other ranks' rows); an obstacle's
   constraints are not counted (it has no blocks of W, and its rows belong to its partners'
   owners): a floor under a pile would otherwise weigh hundreds. */
static PetscErrorCode BodyWeights(MbDomain d, PetscInt w[])
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) w[i] = 0;
  for (PetscInt k = 0; k < d->cs->ncon + d->cs->nfor; k++) {
    const MbCon *c = k < d->cs->ncon ? &d->cs->con[k] : &d->cs->fcon[k - d->cs->ncon];
    for (int m = 0; m < 2; m++) {
      PetscInt lo = 0, hi = d->nbody - 1, id = c->body[m];
      if (id < 0 || !d->map.movable[id] || (m == 1 && id == c->body[0])) continue;
      while (lo <= hi) { /* d->body is sorted by id */
        PetscInt mid = (lo + hi) / 2;
        if (d->body[mid]->id == id) {
          w[mid]++;
          break;
        }
        if (d->body[mid]->id < id)
          lo = mid + 1;
        else
          hi = mid - 1;
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const PetscInt *id; /* vertex of each box */
} CandCtx;

static PetscBool AnyPair(void *ctx, PetscInt i, PetscInt j) { return PETSC_TRUE; }

typedef struct {
  PetscInt count, part, rank;
} Overlap;

static int CompareOverlap(const void *x, const void *y)
{
  const Overlap *a = (const Overlap *)x, *b = (const Overlap *)y;
  if (a->count != b->count) return a->count > b->count ? -1 : 1;
  if (a->part != b->part) return a->part < b->part ? -1 : 1;
  return a->rank < b->rank ? -1 : (a->rank > b->rank ? 1 : 0);
}

/* MbDomainPartition's edges: the npairs candidate pairs (*pairs, body ids), then the joints
   and springs between two movable bodies; *pairs is replaced by the longer list of *nedge. */
static PetscErrorCode LinkEdges(MbDomain d, PetscInt npairs, PetscInt **pairs, PetscInt *nedge)
{
  PetscInt nj = 0, *ends, nl = d->cs->njoint + d->nspring;
  PetscFunctionBegin;
  for (PetscInt j = 0; j < nl; j++) {
    const PetscInt *e = j < d->cs->njoint ? d->cs->joint[j].body : d->spring[j - d->cs->njoint].body;
    if (e[1] >= 0 && d->map.movable[e[0]] && d->map.movable[e[1]] && e[0] != e[1]) nj++;
  }
  PetscCall(PetscMalloc1(2 * (npairs + nj) + 1, &ends));
  for (PetscInt k = 0; k < 2 * npairs; k++) ends[k] = (*pairs)[k];
  *nedge = npairs;
  for (PetscInt j = 0; j < nl; j++) {
    const PetscInt *e = j < d->cs->njoint ? d->cs->joint[j].body : d->spring[j - d->cs->njoint].body;
    if (e[1] >= 0 && d->map.movable[e[0]] && d->map.movable[e[1]] && e[0] != e[1]) {
      ends[2 * *nedge]     = e[0];
      ends[2 * *nedge + 1] = e[1];
      (*nedge)++;
    }
  }
  PetscCall(PetscFree(*pairs));
  *pairs = ends;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The imbalance partition part gives, by the loads vwgt (ncon a body) of the movable bodies. */
static PetscErrorCode PartImbalance(MbDomain d, PetscInt N, idx_t ncon, const idx_t part[], const idx_t vwgt[])
{
  PetscInt64 *pw, tot[2] = {0, 0}, mx[2] = {0, 0};
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(2 * d->size, &pw));
  for (PetscInt v = 0; v < N; v++)
    if (d->map.movable[v])
      for (int c = 0; c < ncon; c++) pw[2 * part[v] + c] += vwgt[ncon * v + c], tot[c] += vwgt[ncon * v + c];
  for (PetscMPIInt r = 0; r < d->size; r++)
    for (int c = 0; c < 2; c++) mx[c] = PetscMax(mx[c], pw[2 * r + c]);
  d->bal.imbalance_part = LoadImbalance(d->size, mx, tot);
  PetscCall(PetscFree(pw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* METIS numbers its parts arbitrarily: give part p to the rank that already owns most of
   its bodies (greedy on the overlap counts, largest first), so that a repartition moves
   only the bodies whose part really changed. */
static PetscErrorCode Relabel(MbDomain d, PetscInt N, const idx_t part[], PetscMPIInt newowner[])
{
  PetscInt     P = d->size;
  Overlap     *ov;
  PetscMPIInt *to;
  char        *usedr;
  PetscFunctionBegin;
  PetscCall(PetscCalloc3(P * P, &ov, P, &to, P, &usedr));
  for (PetscInt p = 0; p < P; p++) {
    to[p] = -1;
    for (PetscInt r = 0; r < P; r++) ov[p * P + r].part = p, ov[p * P + r].rank = r;
  }
  for (PetscInt v = 0; v < N; v++) ov[part[v] * P + d->map.owner[v]].count++;
  qsort(ov, (size_t)(P * P), sizeof(Overlap), CompareOverlap);
  for (PetscInt k = 0; k < P * P; k++)
    if (to[ov[k].part] < 0 && !usedr[ov[k].rank]) {
      to[ov[k].part]    = (PetscMPIInt)ov[k].rank;
      usedr[ov[k].rank] = 1;
    }
  for (PetscInt v = 0; v < N; v++) newowner[v] = to[part[v]];
  PetscCall(PetscFree3(ov, to, usedr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainPartition(MbDomain d, const PetscInt w[], PetscMPIInt newowner[])
{
  const int   m = 7;
  PetscReal  *send, *recv = NULL;
  PetscMPIInt n, *counts = NULL, *displs = NULL;
  PetscInt    N = d->map.n;
  PetscFunctionBegin;
  if (!MetisCited) PetscCall(PetscCitationsRegister(MetisCitation, &MetisCited));
  PetscCall(PetscMalloc1(m * d->nbody + 1, &send));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody     b = d->body[i];
    PetscReal *s = send + m * i;
    s[0]         = (PetscReal)b->id;
    s[1]         = (PetscReal)w[i];
    PetscCall(MbBodyBound(b, &s[2], &s[5]));
    s[6] = (PetscReal)MbBodyWork(b);
  }
  n = (PetscMPIInt)(m * d->nbody);
  if (d->rank == 0) PetscCall(PetscMalloc2(d->size, &counts, d->size + 1, &displs));
  PetscCallMPI(MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, d->comm));
  if (d->rank == 0) {
    displs[0] = 0;
    for (PetscMPIInt r = 0; r < d->size; r++) displs[r + 1] = displs[r] + counts[r];
    PetscCall(PetscMalloc1(displs[d->size] + 1, &recv));
  }
  PetscCallMPI(MPI_Gatherv(send, n, MPIU_REAL, recv, counts, displs, MPIU_REAL, 0, d->comm));
  if (d->rank == 0) {
    idx_t   *xadj, *adj, *vwgt, *part, nv = (idx_t)N, ncon = 2, nparts = (idx_t)d->size, objval = 0, options[METIS_NOPTIONS], ccount = 0;
    PetscInt nbox = 0, npairs = 0, *pairs = NULL, *deg, *vid, nedge = 0;
    MbBox   *box;
    PetscCheck(displs[d->size] == m * (N - d->ndeleted), PETSC_COMM_SELF, PETSC_ERR_PLIB, "partition: gathered %d values for %" PetscInt_FMT " bodies, expected %" PetscInt_FMT, displs[d->size], N - d->ndeleted, (PetscInt)m * (N - d->ndeleted));
    PetscCall(PetscMalloc3(2 * N + 2, &vwgt, N + 1, &part, N + 1, &xadj));
    PetscCall(PetscMalloc3(N + 1, &box, N + 1, &vid, N + 1, &deg));
    /* a deleted body's id (DELETE, remove.c) is a vertex of no weight and no edge */
    for (PetscInt v = 0; v < N; v++) vwgt[2 * v] = vwgt[2 * v + 1] = 0, deg[v] = 0;
    for (PetscInt k = 0; k < N; k++) {
      const PetscReal *s  = recv + m * k;
      PetscInt         id = (PetscInt)s[0];
      PetscReal        e  = 1.5 * s[5] + d->geps;
      PetscCheck(id >= 0 && id < N, PETSC_COMM_SELF, PETSC_ERR_PLIB, "partition: body id %" PetscInt_FMT " outside [0, %" PetscInt_FMT ")", id, N);
      /* the two loads of BodyLoad; METIS balances each (multi-constraint partitioning),
         so neither the per-body nor the per-block work piles up on one rank */
      {
        PetscInt64 load[2];
        BodyLoad((PetscInt)s[1], (PetscInt)s[6], load);
        vwgt[2 * id]     = (idx_t)load[0];
        vwgt[2 * id + 1] = (idx_t)load[1];
      }
      ccount += vwgt[2 * id + 1];
      deg[id] = 0;
      if (!d->map.movable[id]) continue;
      for (int c = 0; c < 3; c++) box[nbox].lo[c] = s[2 + c] - e, box[nbox].hi[c] = s[2 + c] + e;
      vid[nbox++] = id;
    }
    PetscCall(MbBroadPhase(nbox, box, AnyPair, NULL, &npairs, &pairs));
    /* edges: candidates, then joints between movable bodies */
    for (PetscInt k = 0; k < npairs; k++) {
      pairs[2 * k]     = vid[pairs[2 * k]];
      pairs[2 * k + 1] = vid[pairs[2 * k + 1]];
    }
    PetscCall(LinkEdges(d, npairs, &pairs, &nedge)); /* joints and springs between two movable bodies are edges too */
    for (PetscInt k = 0; k < nedge; k++) deg[pairs[2 * k]]++, deg[pairs[2 * k + 1]]++;
    xadj[0] = 0;
    for (PetscInt v = 0; v < N; v++) xadj[v + 1] = xadj[v] + (idx_t)deg[v];
    PetscCall(PetscMalloc1(xadj[N] + 1, &adj));
    for (PetscInt v = 0; v < N; v++) deg[v] = xadj[v];
    for (PetscInt k = 0; k < nedge; k++) {
      PetscInt a = pairs[2 * k], b = pairs[2 * k + 1];
      adj[deg[a]++] = (idx_t)b;
      adj[deg[b]++] = (idx_t)a;
    }
    PetscCall(PetscFree(pairs));
    if (!ccount) { /* no constraints yet (nothing touches): the body count alone */
      ncon = 1;
      for (PetscInt v = 0; v < N; v++) vwgt[v] = MbDomainBodyDeleted(d, v) ? 0 : 1;
    }
    METIS_SetDefaultOptions(options);
    options[METIS_OPTION_SEED]      = 7; /* the same partition on every run */
    options[METIS_OPTION_NUMBERING] = 0;
    {
      int st = METIS_PartGraphKway(&nv, &ncon, xadj, adj, vwgt, NULL, NULL, &nparts, NULL, NULL, options, &objval, part);
      PetscCheck(st == METIS_OK, PETSC_COMM_SELF, PETSC_ERR_LIB, "METIS_PartGraphKway failed (status %d) on %" PetscInt_FMT " bodies, %" PetscInt_FMT " edges, %d parts", st, N, nedge, d->size);
    }
    PetscCall(Relabel(d, N, part, newowner));
    d->bal.edgecut = (PetscInt)objval;
    PetscCall(PartImbalance(d, N, ncon, part, vwgt)); /* the imbalance this partition gives (by the same loads) */
    PetscCall(PetscFree(adj));
    PetscCall(PetscFree3(box, vid, deg));
    PetscCall(PetscFree3(vwgt, part, xadj));
    PetscCall(PetscFree(recv));
    PetscCall(PetscFree2(counts, displs));
  }
  PetscCallMPI(MPI_Bcast(newowner, (PetscMPIInt)N, MPI_INT, 0, d->comm));
  PetscCallMPI(MPI_Bcast(&d->bal.edgecut, 1, MPIU_INT, 0, d->comm));
  PetscCallMPI(MPI_Bcast(&d->bal.imbalance_part, 1, MPIU_REAL, 0, d->comm));
  PetscCall(PetscFree(send));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainBalance(MbDomain d, PetscBool force)
{
  PetscInt    *w;
  PetscInt64   load[2] = {0, 0}, *all, mx[2] = {0, 0}, tot[2] = {0, 0};
  PetscMPIInt *newowner;
  PetscFunctionBegin;
  if (d->size == 1 || !d->bal.balance_metis) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbDomainKnowBodies(d));
  PetscCall(PetscMalloc1(d->nbody + 1, &w));
  PetscCall(BodyWeights(d, w));
  for (PetscInt i = 0; i < d->nbody; i++)
    if (MbBodyIsMovable(d->body[i])) {
      PetscInt64 l[2];
      BodyLoad(w[i], MbBodyWork(d->body[i]), l);
      load[0] += l[0], load[1] += l[1];
    }
  PetscCall(PetscMalloc1(2 * d->size, &all));
  PetscCallMPI(MPI_Allgather(load, 2, MPIU_INT64, all, 2, MPIU_INT64, d->comm));
  for (PetscMPIInt r = 0; r < d->size; r++)
    for (int c = 0; c < 2; c++) mx[c] = PetscMax(mx[c], all[2 * r + c]), tot[c] += all[2 * r + c];
  PetscCall(PetscFree(all));
  d->bal.imbalance = LoadImbalance(d->size, mx, tot);
  /* not when METIS's last partition was no better than this (a graph it cannot balance
     further, e.g. bodies tied by joints or springs): it would repartition every check */
  if (!force && (d->bal.imbalance <= d->bal.imbalance_tol || d->bal.imbalance <= 1.05 * d->bal.imbalance_part)) {
    PetscCall(PetscFree(w));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc1(d->map.n + 1, &newowner));
  PetscCall(MbDomainPartition(d, w, newowner));
  PetscCall(PetscFree(w));
  PetscCall(MbDomainMigrate(d, newowner));
  PetscCall(PetscFree(newowner));
  d->bal.nrepart++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetImbalanceTolerance(MbDomain d, PetscReal tol, PetscInt freq)
{
  PetscFunctionBegin;
  PetscCheck(tol >= 1 && PetscIsNormalReal(tol), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "imbalance tolerance must be >= 1 (max load over mean load), got %g", (double)tol);
  PetscCheck(freq >= 0, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "balance update frequency must be >= 0 steps, got %" PetscInt_FMT, freq);
  d->bal.imbalance_tol = tol;
  d->bal.balance_freq  = freq;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetBalanceStats(MbDomain d, PetscInt *nrepart, PetscInt *nmigrated, PetscInt *edgecut, PetscReal *imbalance)
{
  if (nrepart) *nrepart = d->bal.nrepart;
  if (nmigrated) *nmigrated = d->bal.nmigrated;
  if (edgecut) *edgecut = d->bal.edgecut;
  if (imbalance) *imbalance = d->bal.imbalance;
  return PETSC_SUCCESS;
}
