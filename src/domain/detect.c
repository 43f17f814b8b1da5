/* Contact detection for the domain (ARCHITECTURE.md step 2): primitives of every body in
   their current (mid-step) placement, broad phase over their boxes, narrow phase per pair
   (src/contact/), then persistence — a contact point that existed last step, matched by
   (bodies, primitives, feature), keeps its reaction as the warm start and its tangent
   frame. Joints are turned into constraints here too, so that one list, numbered by
   owner rank, feeds the local dynamics. */
#include <moreau/mbmath.h>
#include "domainimpl.h"
#include "../body/bodyimpl.h"
#include "../shape/shapeimpl.h"
#include "../constraint/model/modelimpl.h"

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

/* A contact of last step by key, to find a new contact's predecessor (warm start, frame). */
typedef struct {
  PetscInt key[5]; /* body[0], body[1], prim[0], prim[1], feature */
  PetscInt con;    /* index in last step's list */
} OldKey;

typedef struct {
  PetscInt n;    /* last step's contacts */
  OldKey  *k;    /* their keys, sorted */
  PetscInt next; /* where the last query ended: queries come in key order */
} OldIndex;

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
   each pair is found on exactly one rank. */
static PetscBool Filter(void *ctx, PetscInt i, PetscInt j)
{
  FilterCtx *f = (FilterCtx *)ctx;
  MbDomain   d = f->d;
  PetscInt   a = f->item[i].body, b = f->item[j].body;
  if (a == b || (!d->movable[a] && !d->movable[b])) return PETSC_FALSE;
  if (MbDomainExcluded(d, MB_EXCLUDE_BODIES, a, b)) return PETSC_FALSE; /* CONTACT_EXCLUDE_BODIES */
  if (d->size == 1) return PETSC_TRUE;                                  /* the one rank owns every constraint: skip the lookup per pair */
  return OwnerOf(d, a, b) == d->rank ? PETSC_TRUE : PETSC_FALSE;
}

/* Order of the rows a rank owns: joints first (by joint number), then the stops of springs
   (by spring and side, their feature), then contacts by (bodies, primitives, feature) —
   independent of the local numbering of bodies and ghosts. */
static PetscInt RowClass(const MbCon *c) { return c->joint >= 0 ? 0 : c->kind == MB_CON_SPRING ? 1 : 2; }

static int CompareCon(const void *x, const void *y)
{
  const MbCon *a = (const MbCon *)x, *b = (const MbCon *)y;
  PetscInt     ka[6] = {RowClass(a), a->joint >= 0 ? a->joint : a->kind == MB_CON_SPRING ? a->feature : -1, a->body[0], a->body[1], a->prim[0], a->prim[1]};
  PetscInt     kb[6] = {RowClass(b), b->joint >= 0 ? b->joint : b->kind == MB_CON_SPRING ? b->feature : -1, b->body[0], b->body[1], b->prim[0], b->prim[1]};
  for (int k = 0; k < 6; k++)
    if (ka[k] != kb[k]) return ka[k] < kb[k] ? -1 : 1;
  return a->feature < b->feature ? -1 : (a->feature > b->feature ? 1 : 0);
}

/* Lexicographic order of n keys. */
static inline int CompareKeys(PetscInt n, const PetscInt a[], const PetscInt b[])
{
  for (PetscInt k = 0; k < n; k++)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}

static int ComparePairKey(const void *x, const void *y) { return CompareKeys(4, ((const PairKey *)x)->key, ((const PairKey *)y)->key); }

/* Key order without the owner, to find last step's contact (ownership may change); equal
   keys (none expected: the feature tells a pair's points apart) by position. */
static int CompareOldKey(const void *x, const void *y)
{
  const OldKey *a = (const OldKey *)x, *b = (const OldKey *)y;
  int           c = CompareKeys(5, a->key, b->key);
  return c ? c : (a->con > b->con) - (a->con < b->con);
}

/* The keys of last step's contacts in key order. The list is already in that order when
   it is the one the last call left (CompareCon puts contacts by key after the joints);
   migration appends the constraints it brings, so it is checked, and sorted only then.
   Joints and spring stops are left out: their prim is -1, so no contact could match one
   (and a stop starts from R = 0: its row comes and goes with the stroke). */
static PetscErrorCode OldIndexCreate(PetscInt ncon, const MbCon con[], OldIndex *o)
{
  PetscBool sorted = PETSC_TRUE;
  PetscFunctionBegin;
  o->n    = 0;
  o->next = 0;
  PetscCall(PetscMalloc1(ncon + 1, &o->k));
  for (PetscInt k = 0; k < ncon; k++) {
    const MbCon *c = &con[k];
    OldKey      *q = &o->k[o->n];
    if (c->joint >= 0 || c->kind == MB_CON_SPRING) continue;
    q->key[0] = c->body[0];
    q->key[1] = c->body[1];
    q->key[2] = c->prim[0];
    q->key[3] = c->prim[1];
    q->key[4] = c->feature;
    q->con    = k;
    if (o->n && CompareKeys(5, o->k[o->n - 1].key, q->key) > 0) sorted = PETSC_FALSE;
    o->n++;
  }
  if (!sorted) qsort(o->k, (size_t)o->n, sizeof(OldKey), CompareOldKey);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Position in last step's list of the contact with this key, or -1. A query at or after
   the last one's place costs O(1) amortized (a gallop forward from there), so the
   contacts made in key order cost O(old + new) in all; a query before it (penalty
   contacts come in pair order) searches from the start, O(log old). */
static PetscInt OldIndexFind(OldIndex *o, const PetscInt key[5])
{
  PetscInt a = o->next, b, step = 1;
  if (a > 0 && CompareKeys(5, o->k[a - 1].key, key) >= 0) a = 0;
  /* every key before a is smaller: double the step until one is not */
  while (a + step - 1 < o->n && CompareKeys(5, o->k[a + step - 1].key, key) < 0) {
    a += step;
    step *= 2;
  }
  b = PetscMin(o->n, a + step - 1);
  while (a < b) { /* the first key >= key lies in [a, b] */
    PetscInt m = a + (b - a) / 2;
    if (CompareKeys(5, o->k[m].key, key) < 0)
      a = m + 1;
    else
      b = m;
  }
  o->next = a;
  return a < o->n && !CompareKeys(5, o->k[a].key, key) ? o->k[a].con : -1;
}

/* Positions of the slots (owned bodies, then ghosts) by body id, for the items that hold
   slot numbers in order: needed only when the slots are not in id order already (the
   owned bodies are kept sorted, but ghosts come in no order). */
static PetscErrorCode OrderSlots(MbDomain d, PetscInt nitem, Item item[])
{
  PetscInt n = d->nbody + d->nghost, *id, *perm, *pos;
  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n + 1, &id, n + 1, &perm, n + 1, &pos));
  for (PetscInt s = 0; s < n; s++) {
    id[s]   = (s < d->nbody ? d->body[s] : d->ghost[s - d->nbody])->id;
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
        for (; j > lo && CompareKeys(4, tmp[j - 1].key, t.key) > 0; j--) tmp[j] = tmp[j - 1];
        tmp[j] = t;
      }
  }
  PetscCall(PetscArraycpy(pk, tmp, n));
  PetscCall(PetscFree(tmp));
  PetscCall(PetscFree(end));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Push(MbCon **list, PetscInt *n, PetscInt *cap, MbCon **c)
{
  PetscFunctionBegin;
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 256;
    PetscCall(PetscRealloc(sizeof(MbCon) * (*cap), list));
  }
  *c = &(*list)[(*n)++];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Send the record of every owned constraint (rows of W and penalty forces) to the owners of
   its other movable bodies: they compute that body's blocks of W and apply its reaction.
   Collective. */
static PetscErrorCode ShareRecords(MbDomain d)
{
  MbBuf   *send, *recv;
  PetscInt nf = 0, np = 0;
  PetscFunctionBegin;
  d->nfor = d->nfpen = 0;
  if (d->size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCalloc2(d->size, &send, d->size, &recv));
  for (PetscInt k = 0; k < d->ncon + d->npen; k++) {
    const MbCon *c    = k < d->ncon ? &d->con[k] : &d->pen[k - d->ncon];
    char         kind = k < d->ncon ? 0 : 1;
    PetscMPIInt  to   = -1;
    for (int m = 0; m < 2; m++) {
      PetscInt    b = c->body[m];
      PetscMPIInt r;
      if (b < 0 || !d->movable[b]) continue;
      r = d->owner[b];
      if (r == d->rank || r == to) continue;
      PetscCall(MbBufPut(&send[r], &kind, 1));
      PetscCall(MbBufPut(&send[r], c, sizeof(MbCon)));
      to = r;
    }
  }
  PetscCall(MbExchange(d->comm, send, recv));
  for (PetscMPIInt r = 0; r < d->size; r++) {
    if (r == d->rank) continue;
    for (size_t off = 0; off < recv[r].n; off += 1 + sizeof(MbCon)) {
      if (recv[r].buf[off])
        np++;
      else
        nf++;
    }
  }
  PetscCall(PetscFree(d->fcon));
  PetscCall(PetscFree(d->fpen));
  PetscCall(PetscMalloc1(nf + 1, &d->fcon));
  PetscCall(PetscMalloc1(np + 1, &d->fpen));
  for (PetscMPIInt r = 0; r < d->size; r++) {
    size_t pos = 0;
    if (r == d->rank) continue;
    while (pos < recv[r].n) {
      char kind;
      PetscCall(MbBufGet(&recv[r], &pos, &kind, 1));
      PetscCall(MbBufGet(&recv[r], &pos, kind ? &d->fpen[d->nfpen++] : &d->fcon[d->nfor++], sizeof(MbCon)));
    }
  }
  for (PetscMPIInt r = 0; r < d->size; r++) {
    PetscCall(MbBufFree(&send[r]));
    PetscCall(MbBufFree(&recv[r]));
  }
  PetscCall(PetscFree2(send, recv));
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

PetscErrorCode MbDomainDetect(MbDomain d)
{
  PetscInt   nslot = d->nbody + d->nghost, nitem = 0, nv = 0, npairs = 0, *pairs = NULL, n = 0, cap = 0, npen = 0, pcap = 0, lastid = PETSC_MIN_INT;
  PetscBool  byid = PETSC_TRUE, forces;
  Item      *item;
  MbBox     *box;
  PetscReal *vbuf, *vp;
  PairKey   *pk;
  OldIndex   oi;
  MbCon     *list = NULL, *old = d->con, *pen = NULL;
  FilterCtx  fc;
  PetscFunctionBegin;
  PetscCall(MbContactModelIsForce(d->contact, &forces));
  /* joints, by joint number: the first rows */
  for (PetscInt j = 0; j < d->njoint; j++) {
    MbJoint *jt = &d->joint[j];
    MbBody   b[2];
    MbCon   *c;
    if (OwnerOf(d, jt->body[0], jt->body[1]) != d->rank) continue;
    for (int k = 0; k < 2; k++) {
      b[k] = jt->body[k] >= 0 ? d->all[jt->body[k]] : NULL;
      PetscCheck(jt->body[k] < 0 || b[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "joint %" PetscInt_FMT ": body %" PetscInt_FMT " is not on rank %d, which owns the joint", j, jt->body[k], d->rank);
    }
    PetscCall(Push(&list, &n, &cap, &c));
    PetscCall(MbJointToConstraint(jt, j, b, d->t, d->h, c));
  }
  /* the stops of springs near their limits (PUT_SPRING's limits), by spring and side; the
     spring's own force is an impulse already applied (forces.c) */
  for (PetscInt j = 0; j < d->nspring; j++) {
    MbSpring *sp = &d->spring[j];
    MbBody    b[2];
    MbCon     rows[2];
    PetscInt  nr;
    if (!MbSpringHasStops(sp) || OwnerOf(d, sp->body[0], sp->body[1]) != d->rank) continue;
    for (int k = 0; k < 2; k++) {
      b[k] = sp->body[k] >= 0 ? d->all[sp->body[k]] : NULL;
      PetscCheck(sp->body[k] < 0 || b[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "PUT_SPRING %" PetscInt_FMT ": body %" PetscInt_FMT " is not on rank %d, which owns its stops", j, sp->body[k], d->rank);
    }
    PetscCall(MbSpringStopRows(sp, j, b, d->t + 0.5 * d->h, d->h, rows, &nr));
    for (PetscInt r = 0; r < nr; r++) {
      MbCon *c;
      PetscCall(Push(&list, &n, &cap, &c));
      *c = rows[r];
    }
  }
  /* primitives of the owned bodies and the ghosts in their spatial placement */
  for (PetscInt i = 0; i < nslot; i++) {
    MbShape s = (i < d->nbody ? d->body[i] : d->ghost[i - d->nbody])->shape;
    nitem += s->n;
    for (PetscInt k = 0; k < s->n; k++)
      if (s->prim[k].kind == MB_PRIM_CONVEX) nv += s->prim[k].nv;
  }
  PetscCall(PetscMalloc3(nitem + 1, &item, nitem + 1, &box, 3 * nv + 1, &vbuf));
  nitem = 0;
  vp    = vbuf;
  for (PetscInt i = 0; i < nslot; i++) {
    MbBody  b = i < d->nbody ? d->body[i] : d->ghost[i - d->nbody];
    MbShape s = b->shape;
    if (b->id < lastid) byid = PETSC_FALSE;
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
  if (!byid) PetscCall(OrderSlots(d, nitem, item));
  fc.d    = d;
  fc.item = item;
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
  /* room for a point per pair (a sphere's pairs make one at most) in one allocation, not
     a copy of the list at each doubling */
  if (npairs && forces) {
    pcap = npairs;
    PetscCall(PetscMalloc1(pcap, &pen));
  } else if (npairs) {
    cap += npairs;
    PetscCall(PetscRealloc(sizeof(MbCon) * cap, &list));
  }
  /* Rows are made in their final order (CompareCon), with no sort of the rows themselves:
     the pairs by key, then each pair's points by feature. Penalty contacts are no rows:
     they keep the order of the pairs from the broad phase, as their forces are summed in
     that order. */
  if (!forces) PetscCall(SortPairs(npairs, pk, item, nslot));
  PetscCall(OldIndexCreate(d->ncon, old, &oi));
  for (PetscInt k = 0; k < npairs; k++) {
    const Item    *A = &item[pk[k].a], *Bi = &item[pk[k].b];
    MbContactPoint pts[MB_MAX_CONTACT_POINTS];
    PetscInt       np;
    /* the pairs come in body order, their items and bodies are far apart: fetch the items
       three pairs ahead, their bodies two ahead, the bodies' state one ahead */
    if (k + 3 < npairs) {
      PetscPrefetchBlock(&item[pk[k + 3].a], 1, 0, PETSC_PREFETCH_HINT_T0);
      PetscPrefetchBlock(&item[pk[k + 3].b], 1, 0, PETSC_PREFETCH_HINT_T0);
    }
    if (k + 2 < npairs) MbBodyPrefetch(d->all[item[pk[k + 2].a].body]), MbBodyPrefetch(d->all[item[pk[k + 2].b].body]);
    if (k + 1 < npairs) MbBodyPrefetchState(d->all[item[pk[k + 1].a].body], PETSC_TRUE), MbBodyPrefetchState(d->all[item[pk[k + 1].b].body], PETSC_TRUE);
    PetscCall(MbCollide(&A->g, &Bi->g, d->geps, d->geps, &np, pts));
    if (!forces) SortPointsByFeature(np, pts);
    for (PetscInt m = 0; m < np; m++) {
      MbCon           *c;
      MbBody           b[2];
      const MbSurfMat *mat;
      PetscInt         prev;
      if (MbDomainExcluded(d, MB_EXCLUDE_SURFACES, pts[m].surf[0], pts[m].surf[1])) continue; /* CONTACT_EXCLUDE_SURFACES */
      if (forces)
        PetscCall(Push(&pen, &npen, &pcap, &c));
      else
        PetscCall(Push(&list, &n, &cap, &c));
      PetscCall(PetscMemzero(c, sizeof(*c)));
      /* the normal points from A to B: B is the master, A the slave */
      c->kind    = MB_CON_CONTACT;
      c->joint   = -1;
      c->body[0] = Bi->body;
      c->body[1] = A->body;
      c->prim[0] = Bi->prim;
      c->prim[1] = A->prim;
      c->feature = pts[m].feature;
      c->surf[0] = pts[m].surf[1];
      c->surf[1] = pts[m].surf[0];
      c->gap     = pts[m].gap;
      MbV3Copy(pts[m].point, c->point);
      b[0] = d->all[c->body[0]];
      b[1] = d->all[c->body[1]];
      PetscCall(MbBodyPrimPointToReferential(b[0], c->prim[0], c->point, c->X[0]));
      PetscCall(MbBodyPrimPointToReferential(b[1], c->prim[1], c->point, c->X[1]));
      prev = OldIndexFind(&oi, (const PetscInt[5]){c->body[0], c->body[1], c->prim[0], c->prim[1], c->feature});
      if (prev >= 0) {
        PetscReal t1[3] = {old[prev].base[0], old[prev].base[3], old[prev].base[6]};
        MbConFrame(pts[m].normal, t1, c->base);
        MbV3Copy(old[prev].R, c->R);
      } else
        MbConFrame(pts[m].normal, NULL, c->base);
      mat             = MbSurfMatFind(d->nmat, d->mat, c->surf[0], c->surf[1]);
      c->law.kind     = MB_LAW_CONTACT;
      c->law.mu       = mat->friction;
      c->law.cohesion = mat->cohesion;
      /* Solfec's restitution: Ū_N = U_N + e·min(0, V_N), V at the start of the step */
      PetscCall(MbConVelocity(c, b, PETSC_TRUE, c->V));
      c->law.bias[2] = mat->restitution * PetscMin(0.0, c->V[2]);
      PetscCall(MbContactModelForce(d->contact, mat, c, b));
    }
  }
  PetscCall(PetscFree(oi.k));
  PetscCall(PetscFree(pk));
  PetscCall(PetscFree3(item, box, vbuf));
  /* velocities at the start for joints (energy), rows */
  d->ncontacts = 0;
  for (PetscInt k = 0; k < n; k++) {
    MbCon *c = &list[k];
    if (c->joint >= 0) {
      MbBody b[2];
      for (int m = 0; m < 2; m++) b[m] = c->body[m] >= 0 ? d->all[c->body[m]] : NULL;
      PetscCall(MbConVelocity(c, b, PETSC_TRUE, c->V));
    } else if (c->kind == MB_CON_CONTACT)
      d->ncontacts++;
    c->owner = d->rank;
    PetscAssert(k == 0 || CompareCon(&list[k - 1], c) <= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rows %" PetscInt_FMT " and %" PetscInt_FMT " are out of order", k - 1, k);
  }
  {
    PetscInt nloc = n;
    PetscCallMPI(MPI_Scan(&nloc, &d->rend, 1, MPIU_INT, MPI_SUM, d->comm));
    d->rstart = d->rend - nloc;
    PetscCallMPI(MPI_Allreduce(&nloc, &d->nconglobal, 1, MPIU_INT, MPI_SUM, d->comm));
  }
  for (PetscInt k = 0; k < n; k++) list[k].row = d->rstart + k;
  for (PetscInt k = 0; k < npen; k++) {
    pen[k].owner = d->rank;
    pen[k].row   = -1;
  }
  PetscCall(PetscFree(d->pen));
  d->pen  = pen;
  d->npen = npen;
  d->ncontacts += npen;
  PetscCall(PetscFree(d->con));
  d->con  = list;
  d->ncon = n;
  PetscCall(ShareRecords(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}
