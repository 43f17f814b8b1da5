/* Contact detection for the domain (ARCHITECTURE.md step 2): primitives of every body in
   their current (mid-step) placement, broad phase over their boxes, narrow phase per pair
   (src/contact/); each contact point goes to the constraint set (src/constraint/set.c),
   which makes its record (persistence, material, restitution, the contact model's force),
   as do the joints and the stops of springs, so that one list, numbered by owner rank,
   feeds the local dynamics. */
#include <moreau/mbmath.h>
#include "domainimpl.h"
#include "../body/bodyimpl.h"
#include "../shape/shapeimpl.h"

typedef struct {
  MbGeomPrim g;     /* spatial primitive */
  PetscInt   body;  /* body id */
  PetscInt   prim;  /* index in the shape */
  PetscInt   order; /* position of its body among this rank's bodies and ghosts by id */
} Item;

/* A pair of primitives in canonical order (a before b by (body, prim), the same on any
   number of ranks) with the key of the rows it makes: b's body is the master. */
typedef struct {
  PetscInt key[4]; /* master body, slave body, master prim, slave prim */
  PetscInt a, b;   /* the items: slave, master */
} PairKey;

typedef struct {
  MbDomain d;
  Item    *item;
} FilterCtx;

/* The owner of a constraint: the owner of its lowest-numbered movable body. */
static PetscMPIInt OwnerOf(MbDomain d, PetscInt b0, PetscInt b1)
{
  PetscMPIInt owner;
  (void)MbDomainOwnerRank(d, MbConOwnerBody(d, b0, b1), &owner);
  return owner;
}

/* Pairs of primitives of two bodies, one of them movable, whose constraint this rank owns:
   each pair is found on exactly one rank. Two primitives of one body only where its
   self-contact is on (BODY.selfcontact) and they are no neighbours (Solfec-1.0 box.c
   behaviour: elements sharing a node, or pieces sharing a vertex, touch there anyway). */
static PetscBool Filter(void *ctx, PetscInt i, PetscInt j)
{
  FilterCtx *f = (FilterCtx *)ctx;
  MbDomain   d = f->d;
  PetscInt   a = f->item[i].body, b = f->item[j].body;
  if (!d->map.movable[a] && !d->map.movable[b]) return PETSC_FALSE;
  if (a == b) {
    if (!MbDomainSelfContact(d, a) || MbShapePrimsAdjacent(d->map.all[a]->shape, f->item[i].prim, f->item[j].prim, d->geps)) return PETSC_FALSE;
  } else if (MbDomainExcluded(d, MB_EXCLUDE_BODIES, a, b))
    return PETSC_FALSE;                /* CONTACT_EXCLUDE_BODIES */
  if (d->size == 1) return PETSC_TRUE; /* the one rank owns every constraint: skip the lookup per pair */
  return OwnerOf(d, a, b) == d->rank ? PETSC_TRUE : PETSC_FALSE;
}

static int ComparePairKey(const void *x, const void *y) { return MbCompareKeys(4, ((const PairKey *)x)->key, ((const PairKey *)y)->key); }

/* Positions of the slots (owned bodies, then ghosts) by body id, for the items that hold
   slot numbers in order: needed only when the slots are not in id order already (the
   owned bodies are kept sorted, but ghosts come in no order). */
static PetscErrorCode OrderSlots(MbDomain d, PetscInt nitem, Item item[])
{
  PetscInt n = d->nbody + d->gh.nghost, *id, *perm, *pos;
  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n + 1, &id, n + 1, &perm, n + 1, &pos));
  for (PetscInt s = 0; s < n; s++) {
    id[s]   = (s < d->nbody ? d->body[s] : d->gh.ghost[s - d->nbody])->id;
    perm[s] = s;
  }
  PetscCall(PetscSortIntWithArray(n, id, perm));
  for (PetscInt r = 0; r < n; r++) pos[perm[r]] = r;
  for (PetscInt k = 0; k < nitem; k++) item[k].order = pos[item[k].order];
  PetscCall(PetscFree3(id, perm, pos));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The pairs in the order of the rows they make, (master body, slave body, master prim,
   slave prim) as CompareCon, in O(pairs + slots): a counting sort by the master's order,
   then each master's pairs by insertion sort — a handful, and already in order when
   they come by item index with one primitive per body — or qsort when a body has many. */
static PetscErrorCode SortPairs(PetscInt n, PairKey pk[], const Item item[], PetscInt nslot)
{
  PetscInt *end;
  PairKey  *tmp;
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(nslot + 1, &end));
  PetscCall(PetscMalloc1(n + 1, &tmp));
  for (PetscInt k = 0; k < n; k++) end[item[pk[k].b].order + 1]++;
  for (PetscInt r = 0; r < nslot; r++) end[r + 1] += end[r];
  for (PetscInt k = 0; k < n; k++) tmp[end[item[pk[k].b].order]++] = pk[k];
  /* filling moved end[r] from the start of bucket r to its end */
  for (PetscInt r = 0, lo = 0; r < nslot; lo = end[r++]) {
    PetscInt m = end[r] - lo;
    if (m > 16)
      qsort(&tmp[lo], (size_t)m, sizeof(PairKey), ComparePairKey);
    else
      for (PetscInt i = lo + 1; i < end[r]; i++) {
        PairKey  t = tmp[i];
        PetscInt j = i;
        for (; j > lo && MbCompareKeys(4, tmp[j - 1].key, t.key) > 0; j--) tmp[j] = tmp[j - 1];
        tmp[j] = t;
      }
  }
  PetscCall(PetscArraycpy(pk, tmp, n));
  PetscCall(PetscFree(tmp));
  PetscCall(PetscFree(end));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The contact points of one pair by feature, the last key of the rows: insertion sort,
   stable (at most MB_MAX_CONTACT_POINTS points). */
static void SortPointsByFeature(PetscInt n, MbContactPoint pts[])
{
  for (PetscInt i = 1; i < n; i++) {
    MbContactPoint t = pts[i];
    PetscInt       j = i;
    for (; j > 0 && pts[j - 1].feature > t.feature; j--) pts[j] = pts[j - 1];
    pts[j] = t;
  }
}

/* The rows of the stops of springs near their limits (PUT_SPRING's limits) this rank owns,
   by spring and side; the spring's own force is an impulse already applied (forces.c). */
static PetscErrorCode SpringStops(MbDomain d)
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < d->nspring; j++) {
    MbSpring *sp = &d->spring[j];
    MbBody    b[2];
    MbCon     rows[2];
    PetscInt  nr;
    if (!MbSpringHasStops(sp) || OwnerOf(d, sp->body[0], sp->body[1]) != d->rank) continue;
    for (int k = 0; k < 2; k++) {
      b[k] = sp->body[k] >= 0 ? d->map.all[sp->body[k]] : NULL;
      PetscCheck(sp->body[k] < 0 || b[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "PUT_SPRING %" PetscInt_FMT ": body %" PetscInt_FMT " is not on rank %d, which owns its stops", j, sp->body[k], d->rank);
    }
    PetscCall(MbSpringStopRows(sp, j, b, d->t + 0.5 * d->h, d->h, rows, &nr));
    for (PetscInt r = 0; r < nr; r++) {
      MbCon *c;
      PetscCall(MbConSetPushRow(d->cs, &c));
      *c = rows[r];
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The primitives of the owned bodies and the ghosts in their spatial placement, with their
   boxes (widened by the margin); *byid: the slots came in id order. */
static PetscErrorCode MakeItems(MbDomain d, PetscInt *nitem_, Item **item_, MbBox **box_, PetscReal **vbuf_, PetscBool *byid)
{
  PetscInt   nslot = d->nbody + d->gh.nghost, nitem = 0, nv = 0, lastid = PETSC_MIN_INT;
  Item      *item;
  MbBox     *box;
  PetscReal *vbuf, *vp;
  PetscFunctionBegin;
  *byid = PETSC_TRUE;
  for (PetscInt i = 0; i < nslot; i++) {
    MbShape s = (i < d->nbody ? d->body[i] : d->gh.ghost[i - d->nbody])->shape;
    nitem += s->n;
    for (PetscInt k = 0; k < s->n; k++)
      if (s->prim[k].kind == MB_PRIM_CONVEX)
        nv += s->prim[k].nv;
      else if (s->prim[k].kind == MB_PRIM_ELLIPSOID)
        nv += 4; /* its principal form, 12 reals */
  }
  PetscCall(PetscMalloc3(nitem + 1, &item, nitem + 1, &box, 3 * nv + 1, &vbuf));
  nitem = 0;
  vp    = vbuf;
  for (PetscInt i = 0; i < nslot; i++) {
    MbBody  b = i < d->nbody ? d->body[i] : d->gh.ghost[i - d->nbody];
    MbShape s = b->shape;
    if (b->id < lastid) *byid = PETSC_FALSE;
    lastid = b->id;
    for (PetscInt k = 0; k < s->n; k++) {
      MbPrim *p  = &s->prim[k];
      Item   *it = &item[nitem];
      PetscCall(PetscMemzero(it, sizeof(*it)));
      it->body   = b->id;
      it->prim   = k;
      it->order  = i; /* the slot: its position when the slots come by id */
      it->g.kind = p->kind;
      if (p->kind == MB_PRIM_SPHERE) {
        PetscCall(MbBodyPrimToSpatial(b, k, it->g.c));
        it->g.r      = p->r;
        it->g.surfid = p->surfid;
      } else if (p->kind == MB_PRIM_ELLIPSOID) {
        PetscReal x[12];
        PetscCall(MbBodyPrimToSpatial(b, k, x));
        MbGeomEllipsoidSet(&it->g, x, p->surfid, vp);
        vp += 12;
      } else {
        PetscCall(MbBodyPrimToSpatial(b, k, vp));
        it->g.nv    = p->nv;
        it->g.nf    = p->nf;
        it->g.v     = vp;
        it->g.fptr  = p->fptr;
        it->g.fvert = p->fvert;
        it->g.fsurf = p->fsurf;
        vp += 3 * p->nv;
      }
      PetscCall(MbGeomPrimBox(&it->g, d->geps, &box[nitem]));
      nitem++;
    }
  }
  *nitem_ = nitem, *item_ = item, *box_ = box, *vbuf_ = vbuf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The broad phase's pairs this rank owns, each in canonical order (the same on any number
   of ranks), with the key of the rows it makes. */
static PetscErrorCode OwnedPairs(MbDomain d, PetscInt nitem, Item item[], const MbBox box[], PetscInt *npairs_, PairKey **pk_)
{
  PetscInt *pairs = NULL, npairs = 0;
  PairKey  *pk;
  FilterCtx fc = {d, item};
  PetscFunctionBegin;
  PetscCall(MbBroadPhase(nitem, box, Filter, &fc, &npairs, &pairs));
  PetscCall(PetscMalloc1(npairs + 1, &pk));
  for (PetscInt k = 0; k < npairs; k++) {
    PetscInt a = pairs[2 * k], b = pairs[2 * k + 1];
    if (item[a].body > item[b].body || (item[a].body == item[b].body && item[a].prim > item[b].prim)) { /* canonical: the same on any number of ranks */
      PetscInt t = a;
      a          = b;
      b          = t;
    }
    pk[k].key[0] = item[b].body;
    pk[k].key[1] = item[a].body;
    pk[k].key[2] = item[b].prim;
    pk[k].key[3] = item[a].prim;
    pk[k].a      = a;
    pk[k].b      = b;
  }
  PetscCall(PetscFree(pairs));
  *npairs_ = npairs, *pk_ = pk;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The narrow phase of every pair, its points handed to the constraint set. Rows are made in
   their final order, with no sort of the rows themselves: the pairs by key, then each
   pair's points by feature. Force contacts are no rows: they keep the order of the pairs
   from the broad phase, as their forces are summed in that order. CONTACT_SPARSIFY
   (sparsify.c) looks at all the points of a pair of bodies at once: the points wait in
   pts until every pair has been through the narrow phase. */
static PetscErrorCode Contacts(MbDomain d, PetscInt npairs, PairKey pk[], const Item item[], PetscInt nslot)
{
  const PetscBool rows = MbConSetContactRows(d->cs);
  PetscInt        cap  = npairs + 16, *ptr;
  MbContactPoint *pts;
  MbSparsePair   *sp;
  PetscBool      *keep;
  PetscFunctionBegin;
  if (rows) PetscCall(SortPairs(npairs, pk, item, nslot));
  PetscCall(PetscMalloc2(npairs + 1, &ptr, npairs + 1, &sp));
  PetscCall(PetscMalloc1(cap, &pts));
  ptr[0] = 0;
  for (PetscInt k = 0; k < npairs; k++) {
    const Item *A = &item[pk[k].a], *Bi = &item[pk[k].b];
    PetscInt    np;
    /* the pairs come in body order, their items and bodies are far apart: fetch the items
       three pairs ahead, their bodies two ahead, the bodies' state one ahead */
    if (k + 3 < npairs) {
      PetscPrefetchBlock(&item[pk[k + 3].a], 1, 0, PETSC_PREFETCH_HINT_T0);
      PetscPrefetchBlock(&item[pk[k + 3].b], 1, 0, PETSC_PREFETCH_HINT_T0);
    }
    if (k + 2 < npairs) MbBodyPrefetch(d->map.all[item[pk[k + 2].a].body]), MbBodyPrefetch(d->map.all[item[pk[k + 2].b].body]);
    if (k + 1 < npairs) MbBodyPrefetchState(d->map.all[item[pk[k + 1].a].body], PETSC_TRUE), MbBodyPrefetchState(d->map.all[item[pk[k + 1].b].body], PETSC_TRUE);
    if (ptr[k] + MB_MAX_CONTACT_POINTS > cap) {
      MbContactPoint *more;
      cap = 2 * cap + MB_MAX_CONTACT_POINTS;
      PetscCall(PetscMalloc1(cap, &more));
      PetscCall(PetscArraycpy(more, pts, ptr[k]));
      PetscCall(PetscFree(pts));
      pts = more;
    }
    PetscCall(MbCollide(&A->g, &Bi->g, d->geps, d->geps, &np, &pts[ptr[k]]));
    if (rows) SortPointsByFeature(np, &pts[ptr[k]]);
    ptr[k + 1] = ptr[k] + np;
    PetscCall(PetscArraycpy(sp[k].key, pk[k].key, 4));
  }
  PetscCall(PetscMalloc1(ptr[npairs] + 1, &keep));
  PetscCall(MbDomainSparsify(d, npairs, sp, ptr, pts, keep));
  for (PetscInt k = 0; k < npairs; k++) {
    const Item *A = &item[pk[k].a], *Bi = &item[pk[k].b];
    for (PetscInt m = ptr[k]; m < ptr[k + 1]; m++) {
      /* the normal points from A to B: B is the master, A the slave */
      const PetscInt body[2] = {Bi->body, A->body}, prim[2] = {Bi->prim, A->prim}, surf[2] = {pts[m].surf[1], pts[m].surf[0]};
      if (!keep[m]) continue;                                                                 /* CONTACT_SPARSIFY */
      if (MbDomainExcluded(d, MB_EXCLUDE_SURFACES, pts[m].surf[0], pts[m].surf[1])) continue; /* CONTACT_EXCLUDE_SURFACES */
      PetscCall(MbConSetAddContact(d->cs, &d->map, body, prim, surf, pts[m].feature, pts[m].gap, pts[m].point, pts[m].normal));
    }
  }
  PetscCall(PetscFree(keep));
  PetscCall(PetscFree(pts));
  PetscCall(PetscFree2(ptr, sp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainDetect(MbDomain d)
{
  PetscInt   nitem = 0, npairs = 0;
  PetscBool  byid;
  Item      *item = NULL;
  MbBox     *box  = NULL;
  PetscReal *vbuf = NULL;
  PairKey   *pk   = NULL;
  PetscFunctionBegin;
  PetscCall(MbConSetBegin(d->cs));
  PetscCall(MbConSetAddJoints(d->cs, &d->map, d->t, d->h)); /* the first rows, by joint number */
  PetscCall(SpringStops(d));
  PetscCall(MakeItems(d, &nitem, &item, &box, &vbuf, &byid));
  if (!byid) PetscCall(OrderSlots(d, nitem, item));
  PetscCall(OwnedPairs(d, nitem, item, box, &npairs, &pk));
  PetscCall(MbConSetReserve(d->cs, npairs));
  PetscCall(Contacts(d, npairs, pk, item, d->nbody + d->gh.nghost));
  PetscCall(PetscFree(pk));
  PetscCall(PetscFree3(item, box, vbuf));
  PetscCall(MbConSetEnd(d->cs, &d->map));
  PetscFunctionReturn(PETSC_SUCCESS);
}
