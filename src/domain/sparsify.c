/* Contact sparsification (CONTACT_SPARSIFY; Solfec-1.0's dom.c sparsify_contacts behaviour,
   with its defaults: threshold 0.01, minarea 0, mindist GEOMETRIC_EPSILON). A mesh or a
   compound shape touches another along many pairs of primitives: besides the face contacts
   that carry the load, neighbouring primitives graze it with slivers (edge crossings, thin
   strips) and make the same point twice where they meet. Solfec drops, among the contacts
   of one pair of bodies,
     - a contact whose area is below minarea;
     - a contact whose area is below threshold times that of another contact of the same two
       bodies whose primitive on the master body is the same or adjacent (shares a node or
       a vertex: MbShapePrimsAdjacent);
     - otherwise, a contact within 2·mindist (max norm) of another that the area tests
       kept (of the two, the one with the larger key goes).
   Each area test looks at every other contact, and the duplicate test at every other
   contact the area tests kept, dropped as a duplicate or not, so the result does not
   depend on the order of the contacts; the key (master body, slave body, master primitive, slave
   primitive, feature) and the areas come from the geometry alone, so it does not depend
   on the number of ranks either. Solfec judges only the contacts new in the step and
   compares them with the contacts of both bodies with any body; here every contact of the
   step is judged, against the contacts of the same pair of bodies, which the owner of the
   pair finds all of (detect.c) — no other rank's contacts are needed. A pair of primitives
   makes up to four points here where Solfec makes one: its points share its area and go
   together in the area tests. */
#include <moreau/mbmath.h>
#include "domainimpl.h"
#include "../body/bodyimpl.h"
#include "../shape/shapeimpl.h"

PetscErrorCode MbDomainSetSparsify(MbDomain d, PetscReal threshold, PetscReal minarea, PetscReal mindist)
{
  PetscFunctionBegin;
  PetscCheck(threshold >= 0 && threshold <= 1, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "CONTACT_SPARSIFY: threshold must be in [0, 1], got %g", (double)threshold);
  PetscCheck(minarea >= 0 && PetscIsNormalReal(minarea + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "CONTACT_SPARSIFY: minarea must be >= 0, got %g", (double)minarea);
  PetscCheck(mindist < 0 || PetscIsNormalReal(mindist + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "CONTACT_SPARSIFY: mindist must be >= 0 (or < 0: GEOMETRIC_EPSILON), got %g", (double)mindist);
  d->spar.threshold = threshold;
  d->spar.minarea   = minarea;
  d->spar.mindist   = mindist;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool MbDomainSparsifyActive(MbDomain d) { return (PetscBool)(d->spar.threshold > 0 || d->spar.minarea > 0 || d->spar.mindist != 0); }

typedef struct {
  const MbSparsePair   *pair;
  const MbContactPoint *pts;
  const PetscInt       *ptr;
} Ctx;

/* the key of point k of pair p: the pair's four, then the feature */
static int CompareKey(const Ctx *c, PetscInt p, PetscInt k, PetscInt q, PetscInt l)
{
  int r = MbCompareKeys(4, c->pair[p].key, c->pair[q].key);
  if (r) return r;
  return c->pts[k].feature < c->pts[l].feature ? -1 : c->pts[k].feature > c->pts[l].feature;
}

typedef struct {
  PetscReal x;    /* the sort coordinate */
  PetscInt  k;    /* the point */
  PetscInt  p;    /* its pair */
  PetscBool live; /* kept by the area tests */
} Sweep;

static int CompareSweep(const void *a, const void *b)
{
  const Sweep *s = (const Sweep *)a, *t = (const Sweep *)b;
  if (s->x != t->x) return s->x < t->x ? -1 : 1;
  return s->k < t->k ? -1 : s->k > t->k; /* ties by position: the sweep looks at both anyway */
}

typedef struct {
  PetscReal area;
  PetscInt  p;
} ByArea;

static int CompareByArea(const void *a, const void *b)
{
  const ByArea *s = (const ByArea *)a, *t = (const ByArea *)b;
  if (s->area != t->area) return s->area > t->area ? -1 : 1;
  return s->p < t->p ? -1 : s->p > t->p;
}

static void Drop(const Ctx *c, PetscInt p, PetscBool keep[])
{
  for (PetscInt k = c->ptr[p]; k < c->ptr[p + 1]; k++) keep[k] = PETSC_FALSE;
}

static inline PetscReal AreaOf(const Ctx *c, PetscInt p) { return c->pts[c->ptr[p]].area; }

/* The area tests on a master body of pieces: each pair against the pairs of larger area,
   largest first, until one on an adjacent piece (or the areas are too close). */
static PetscErrorCode AreaTests(MbDomain d, const Ctx *c, MbShape master, PetscInt ng, const PetscInt g[], PetscBool keep[])
{
  const PetscReal thr = d->spar.threshold;
  ByArea         *ba;
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(ng, &ba));
  for (PetscInt i = 0; i < ng; i++) ba[i].area = AreaOf(c, g[i]), ba[i].p = g[i];
  qsort(ba, (size_t)ng, sizeof(ByArea), CompareByArea);
  for (PetscInt i = 0; i < ng; i++) {
    const PetscInt  p    = ba[i].p;
    const PetscReal ap   = ba[i].area;
    PetscBool       drop = (PetscBool)(ap < d->spar.minarea);
    for (PetscInt j = 0; !drop && j < ng && ap < thr * ba[j].area; j++)
      if (ba[j].p != p && MbShapePrimsAdjacent(master, c->pair[p].key[2], c->pair[ba[j].p].key[2], d->geps)) drop = PETSC_TRUE;
    if (drop) Drop(c, p, keep);
  }
  PetscCall(PetscFree(ba));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt  node;
  PetscReal area;
} NodeArea;

static int CompareNodeArea(const void *a, const void *b)
{
  const NodeArea *s = (const NodeArea *)a, *t = (const NodeArea *)b;
  return s->node < t->node ? -1 : s->node > t->node;
}

/* The area tests on a master mesh, in O(g log g): elements are adjacent when they share a
   node, so the largest area among the pairs on elements adjacent to a pair's element is
   the largest, over that element's nodes, of the largest area at the node (the pair's own
   area among them, which drops nothing: threshold <= 1). */
static PetscErrorCode AreaTestsMesh(MbDomain d, const Ctx *c, const MbMesh *m, PetscInt ng, const PetscInt g[], PetscBool keep[])
{
  const PetscReal thr = d->spar.threshold;
  NodeArea       *na;
  PetscInt        n = 0, u = 0;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < ng; i++) n += m->eptr[c->pair[g[i]].key[2] + 1] - m->eptr[c->pair[g[i]].key[2]];
  PetscCall(PetscMalloc1(n + 1, &na));
  n = 0;
  for (PetscInt i = 0; i < ng; i++) {
    const PetscInt e = c->pair[g[i]].key[2];
    for (PetscInt a = m->eptr[e]; a < m->eptr[e + 1]; a++) na[n].node = m->enode[a], na[n++].area = AreaOf(c, g[i]);
  }
  qsort(na, (size_t)n, sizeof(NodeArea), CompareNodeArea);
  for (PetscInt i = 0; i < n; i++) /* the largest area at each node, in na[0..u) */
    if (u && na[u - 1].node == na[i].node)
      na[u - 1].area = PetscMax(na[u - 1].area, na[i].area);
    else
      na[u++] = na[i];
  for (PetscInt i = 0; i < ng; i++) {
    const PetscInt  p = g[i], e = c->pair[p].key[2];
    const PetscReal ap   = AreaOf(c, p);
    PetscReal       best = 0;
    for (PetscInt a = m->eptr[e]; a < m->eptr[e + 1]; a++) {
      NodeArea key = {m->enode[a], 0}, *hit = (NodeArea *)bsearch(&key, na, (size_t)u, sizeof(NodeArea), CompareNodeArea);
      if (hit) best = PetscMax(best, hit->area);
    }
    if (ap < d->spar.minarea || ap < thr * best) Drop(c, p, keep);
  }
  PetscCall(PetscFree(na));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One pair of bodies: pairs g[0..ng) (their indices), their points ptr[p]..ptr[p + 1). */
static PetscErrorCode Group(MbDomain d, const Ctx *c, PetscInt ng, const PetscInt g[], PetscBool keep[])
{
  const PetscReal thr = d->spar.threshold, margin = 2 * (d->spar.mindist < 0 ? d->geps : d->spar.mindist);
  MbShape         master = d->map.all[c->pair[g[0]].key[0]]->shape;
  Sweep          *sw;
  PetscInt        npt  = 0;
  int             axis = 0;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < ng; i++) npt += c->ptr[g[i] + 1] - c->ptr[g[i]];
  if (master->mesh)
    PetscCall(AreaTestsMesh(d, c, master->mesh, ng, g, keep));
  else
    PetscCall(AreaTests(d, c, master, ng, g, keep));
  if (margin <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  /* the duplicates: a sweep over the points of pairs the area tests kept or not, along the
     axis of their widest spread (points on a plane across x would all be neighbours in x) */
  {
    PetscReal lo[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[3] = {-PETSC_MAX_REAL, -PETSC_MAX_REAL, -PETSC_MAX_REAL};
    for (PetscInt i = 0; i < ng; i++)
      for (PetscInt k = c->ptr[g[i]]; k < c->ptr[g[i] + 1]; k++)
        for (int a = 0; a < 3; a++) lo[a] = PetscMin(lo[a], c->pts[k].point[a]), hi[a] = PetscMax(hi[a], c->pts[k].point[a]);
    for (int a = 1; a < 3; a++)
      if (hi[a] - lo[a] > hi[axis] - lo[axis]) axis = a;
  }
  PetscCall(PetscMalloc1(npt, &sw));
  npt = 0;
  for (PetscInt i = 0; i < ng; i++)
    for (PetscInt k = c->ptr[g[i]]; k < c->ptr[g[i] + 1]; k++) sw[npt].x = c->pts[k].point[axis], sw[npt].k = k, sw[npt].live = keep[k], sw[npt++].p = g[i];
  qsort(sw, (size_t)npt, sizeof(Sweep), CompareSweep);
  for (PetscInt i = 0; i < npt; i++)
    for (PetscInt j = i + 1; j < npt && sw[j].x - sw[i].x < margin; j++) {
      const MbContactPoint *a = &c->pts[sw[i].k], *b = &c->pts[sw[j].k];
      PetscReal             dx[3];
      int                   r;
      /* a point the area tests dropped is no duplicate to drop another for: a face contact
         of a larger key at the end of an edge contact (area 0) that the area test drops
         would go with it, and the two bodies lose their contact there (tests/BM17: a
         cylinder's edge on a plate made no contact at all on its first step) */
      if (!sw[i].live || !sw[j].live) continue;
      MbV3Sub(a->point, b->point, dx);
      if (PetscMax(PetscAbsReal(dx[0]), PetscMax(PetscAbsReal(dx[1]), PetscAbsReal(dx[2]))) >= margin) continue;
      r = CompareKey(c, sw[i].p, sw[i].k, sw[j].p, sw[j].k);
      /* the larger key goes, unless its area is below threshold times the other's (then
         only the area test may drop it, as in Solfec) */
      if (r > 0 && !(a->area < thr * b->area)) keep[sw[i].k] = PETSC_FALSE;
      if (r < 0 && !(b->area < thr * a->area)) keep[sw[j].k] = PETSC_FALSE;
    }
  PetscCall(PetscFree(sw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the pair indices by their bodies (master, slave), then by index: a merge sort (qsort
   has no context argument in C11) */
static void SortIndices(PetscInt n, PetscInt idx[], PetscInt tmp[], const MbSparsePair pair[])
{
  PetscInt h = n / 2;
  if (n < 2) return;
  SortIndices(h, idx, tmp, pair);
  SortIndices(n - h, idx + h, tmp, pair);
  for (PetscInt i = 0, j = h, k = 0; k < n; k++) tmp[k] = (j >= n || (i < h && MbCompareKeys(2, pair[idx[i]].key, pair[idx[j]].key) <= 0)) ? idx[i++] : idx[j++];
  for (PetscInt k = 0; k < n; k++) idx[k] = tmp[k];
}

PetscErrorCode MbDomainSparsify(MbDomain d, PetscInt npair, const MbSparsePair pair[], const PetscInt ptr[], const MbContactPoint pts[], PetscBool keep[])
{
  Ctx       c = {pair, pts, ptr};
  PetscInt *idx, *tmp, n = 0;
  PetscFunctionBegin;
  for (PetscInt k = 0; k < ptr[npair]; k++) keep[k] = PETSC_TRUE;
  if (!MbDomainSparsifyActive(d)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc2(npair + 1, &idx, npair + 1, &tmp));
  for (PetscInt p = 0; p < npair; p++)
    if (ptr[p + 1] > ptr[p]) idx[n++] = p; /* the pairs in contact */
  SortIndices(n, idx, tmp, pair);
  for (PetscInt lo = 0, hi; lo < n; lo = hi) {
    for (hi = lo + 1; hi < n && pair[idx[hi]].key[0] == pair[idx[lo]].key[0] && pair[idx[hi]].key[1] == pair[idx[lo]].key[1]; hi++) {
    }
    PetscCall(Group(d, &c, hi - lo, &idx[lo], keep));
  }
  PetscCall(PetscFree2(idx, tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
