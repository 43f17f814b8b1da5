/* The constraint set (conset.h): a step's rows and force contacts, their order, numbering,
   sharing and persistence, the joints and surface materials of the deck. */
#include <moreau/mbmath.h>
#include "conset.h"
#include "model/modelimpl.h"
#include "../body/bodyimpl.h"
#include "../core/exchange.h"

PetscErrorCode MbConSetCreate(MPI_Comm comm, MbConSet *cs)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(cs));
  (*cs)->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &(*cs)->rank));
  PetscCallMPI(MPI_Comm_size(comm, &(*cs)->size));
  PetscCall(MbContactModelCreate(comm, &(*cs)->contact));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbConSetDestroy(MbConSet *set)
{
  MbConSet cs = *set;
  PetscFunctionBegin;
  if (!cs) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < cs->njoint; i++) {
    PetscCall(MbTimeSeriesDestroy(&cs->joint[i].ts));
    if (cs->joint[i].destroy) PetscCall(cs->joint[i].destroy(cs->joint[i].ctx));
  }
  PetscCall(PetscFree(cs->joint));
  PetscCall(PetscFree(cs->mat));
  PetscCall(PetscFree(cs->con));
  PetscCall(PetscFree(cs->pen));
  PetscCall(PetscFree(cs->fcon));
  PetscCall(PetscFree(cs->fpen));
  PetscCall(PetscFree(cs->list));
  PetscCall(PetscFree(cs->newpen));
  PetscCall(PetscFree(cs->old));
  PetscCall(MbContactModelDestroy(&cs->contact));
  PetscCall(PetscFree(*set));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbConSetSetFromOptions(MbConSet cs) { return MbContactModelSetFromOptions(cs->contact); }

PetscBool MbConSetContactRows(MbConSet cs) { return cs->contact->ops.force ? PETSC_FALSE : PETSC_TRUE; }

/* Order of the rows a rank owns: joints first (by joint number), then the stops of springs
   (by spring and side, their feature), then contacts by (bodies, primitives, feature) —
   independent of the local numbering of bodies and ghosts. */
static PetscInt RowClass(const MbCon *c) { return c->joint >= 0 ? 0 : c->kind == MB_CON_SPRING ? 1 : 2; }

static int CompareCon(const MbCon *a, const MbCon *b)
{
  PetscInt ka[6] = {RowClass(a), a->joint >= 0 ? a->joint : a->kind == MB_CON_SPRING ? a->feature : -1, a->body[0], a->body[1], a->prim[0], a->prim[1]};
  PetscInt kb[6] = {RowClass(b), b->joint >= 0 ? b->joint : b->kind == MB_CON_SPRING ? b->feature : -1, b->body[0], b->body[1], b->prim[0], b->prim[1]};
  for (int k = 0; k < 6; k++)
    if (ka[k] != kb[k]) return ka[k] < kb[k] ? -1 : 1;
  return a->feature < b->feature ? -1 : (a->feature > b->feature ? 1 : 0);
}

/* Key order without the owner, to find last step's contact (ownership may change); equal
   keys (none expected: the feature tells a pair's points apart) by position. */
static int CompareOldKey(const void *x, const void *y)
{
  const MbConOldKey *a = (const MbConOldKey *)x, *b = (const MbConOldKey *)y;
  int                c = MbCompareKeys(5, a->key, b->key);
  return c ? c : (a->con > b->con) - (a->con < b->con);
}

/* The keys of last step's contacts in key order. The list is already in that order when
   it is the one the last step left (CompareCon puts contacts by key after the joints);
   migration appends the constraints it brings, so it is checked, and sorted only then.
   Joints and spring stops are left out: their prim is -1, so no contact could match one
   (and a stop starts from R = 0: its row comes and goes with the stroke). */
static PetscErrorCode OldIndexCreate(MbConSet cs)
{
  PetscBool sorted = PETSC_TRUE;
  PetscFunctionBegin;
  cs->nold    = 0;
  cs->oldnext = 0;
  PetscCall(PetscFree(cs->old));
  PetscCall(PetscMalloc1(cs->ncon + 1, &cs->old));
  for (PetscInt k = 0; k < cs->ncon; k++) {
    const MbCon *c = &cs->con[k];
    MbConOldKey *q = &cs->old[cs->nold];
    if (c->joint >= 0 || c->kind == MB_CON_SPRING) continue;
    q->key[0] = c->body[0];
    q->key[1] = c->body[1];
    q->key[2] = c->prim[0];
    q->key[3] = c->prim[1];
    q->key[4] = c->feature;
    q->con    = k;
    if (cs->nold && MbCompareKeys(5, cs->old[cs->nold - 1].key, q->key) > 0) sorted = PETSC_FALSE;
    cs->nold++;
  }
  if (!sorted) qsort(cs->old, (size_t)cs->nold, sizeof(MbConOldKey), CompareOldKey);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Position in last step's list of the contact with this key, or -1. A query at or after
   the last one's place costs O(1) amortized (a gallop forward from there), so the
   contacts made in key order cost O(old + new) in all; a query before it (force contacts
   come in pair order) searches from the start, O(log old). */
static PetscInt OldIndexFind(MbConSet cs, const PetscInt key[5])
{
  const MbConOldKey *k = cs->old;
  PetscInt           a = cs->oldnext, b, step = 1, n = cs->nold;
  if (a > 0 && MbCompareKeys(5, k[a - 1].key, key) >= 0) a = 0;
  /* every key before a is smaller: double the step until one is not */
  while (a + step - 1 < n && MbCompareKeys(5, k[a + step - 1].key, key) < 0) {
    a += step;
    step *= 2;
  }
  b = PetscMin(n, a + step - 1);
  while (a < b) { /* the first key >= key lies in [a, b] */
    PetscInt m = a + (b - a) / 2;
    if (MbCompareKeys(5, k[m].key, key) < 0)
      a = m + 1;
    else
      b = m;
  }
  cs->oldnext = a;
  return a < n && !MbCompareKeys(5, k[a].key, key) ? k[a].con : -1;
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

PetscErrorCode MbConSetBegin(MbConSet cs)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(cs->list));
  PetscCall(PetscFree(cs->newpen));
  cs->nnew = cs->cap = cs->nnewpen = cs->pcap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbConSetReserve(MbConSet cs, PetscInt npairs)
{
  PetscFunctionBegin;
  /* room for a point per pair (a sphere's pairs make one at most) in one allocation, not a
     copy of the list at each doubling */
  if (npairs && !MbConSetContactRows(cs)) {
    cs->pcap = npairs;
    PetscCall(PetscMalloc1(cs->pcap, &cs->newpen));
  } else if (npairs) {
    cs->cap += npairs;
    PetscCall(PetscRealloc(sizeof(MbCon) * cs->cap, &cs->list));
  }
  PetscCall(OldIndexCreate(cs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbConSetPushRow(MbConSet cs, MbCon **c) { return Push(&cs->list, &cs->nnew, &cs->cap, c); }

PetscErrorCode MbConSetAddJoints(MbConSet cs, const MbBodyMap *map, PetscReal t, PetscReal h)
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < cs->njoint; j++) {
    MbJoint *jt = &cs->joint[j];
    MbBody   b[2];
    MbCon   *c;
    if (jt->removed || MbBodyMapOwner(map, MbBodyMapConOwnerBody(map, jt->body[0], jt->body[1])) != cs->rank) continue;
    if (!MbBodyMapMovable(map, jt->body[0]) && !MbBodyMapMovable(map, jt->body[1])) continue; /* on an obstacle alone: it prescribes its motion (src/domain/drive.c), no row */
    for (int k = 0; k < 2; k++) {
      b[k] = jt->body[k] >= 0 ? map->all[jt->body[k]] : NULL;
      PetscCheck(jt->body[k] < 0 || b[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "joint %" PetscInt_FMT ": body %" PetscInt_FMT " is not on rank %d, which owns the joint", j, jt->body[k], cs->rank);
    }
    PetscCall(MbConSetPushRow(cs, &c));
    PetscCall(MbJointToConstraint(jt, j, b, t, h, c));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbConSetAddContact(MbConSet cs, const MbBodyMap *map, const PetscInt body[2], const PetscInt prim[2], const PetscInt surf[2], PetscInt feature, PetscReal gap, const PetscReal point[3], const PetscReal normal[3])
{
  MbBody           b[2] = {map->all[body[0]], map->all[body[1]]};
  MbCon           *c;
  const MbSurfMat *mat;
  PetscInt         prev;
  PetscFunctionBegin;
  if (MbConSetContactRows(cs))
    PetscCall(Push(&cs->list, &cs->nnew, &cs->cap, &c));
  else
    PetscCall(Push(&cs->newpen, &cs->nnewpen, &cs->pcap, &c));
  PetscCall(PetscMemzero(c, sizeof(*c)));
  c->kind    = MB_CON_CONTACT;
  c->joint   = -1;
  c->body[0] = body[0];
  c->body[1] = body[1];
  c->prim[0] = prim[0];
  c->prim[1] = prim[1];
  c->feature = feature;
  c->surf[0] = surf[0];
  c->surf[1] = surf[1];
  c->gap     = gap;
  MbV3Copy(point, c->point);
  PetscCall(MbBodyPrimPointToReferential(b[0], c->prim[0], c->point, c->X[0]));
  PetscCall(MbBodyPrimPointToReferential(b[1], c->prim[1], c->point, c->X[1]));
  prev = OldIndexFind(cs, (const PetscInt[5]){c->body[0], c->body[1], c->prim[0], c->prim[1], c->feature});
  if (prev >= 0) { /* persistence: the predecessor's tangent and reaction (warm start) */
    const MbCon *o     = &cs->con[prev];
    PetscReal    t1[3] = {o->base[0], o->base[3], o->base[6]};
    MbConFrame(normal, t1, c->base);
    MbV3Copy(o->R, c->R);
  } else
    MbConFrame(normal, NULL, c->base);
  mat             = MbSurfMatFind(cs->nmat, cs->mat, c->surf[0], c->surf[1]);
  c->law.kind     = MB_LAW_CONTACT;
  c->law.mu       = mat->friction;
  c->law.cohesion = mat->cohesion;
  /* Solfec's restitution: Ū_N = U_N + e·min(0, V_N), V at the start of the step */
  PetscCall(MbConVelocity(c, b, PETSC_TRUE, c->V));
  c->law.bias[2] = mat->restitution * PetscMin(0.0, c->V[2]);
  PetscCall(MbContactModelForce(cs->contact, mat, c, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Send the record of every owned constraint (rows of W and force contacts) to the owners of
   its other movable bodies: they compute that body's blocks of W and apply its reaction.
   Collective. */
static PetscErrorCode ShareRecords(MbConSet cs, const MbBodyMap *map)
{
  MbBuf   *send, *recv;
  PetscInt nf = 0, np = 0;
  PetscFunctionBegin;
  cs->nfor = cs->nfpen = 0;
  if (cs->size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscCalloc2(cs->size, &send, cs->size, &recv));
  for (PetscInt k = 0; k < cs->ncon + cs->npen; k++) {
    const MbCon *c    = k < cs->ncon ? &cs->con[k] : &cs->pen[k - cs->ncon];
    char         kind = k < cs->ncon ? 0 : 1;
    PetscMPIInt  to   = -1;
    for (int m = 0; m < 2; m++) {
      PetscInt    b = c->body[m];
      PetscMPIInt r;
      if (b < 0 || !map->movable[b]) continue;
      r = map->owner[b];
      if (r == cs->rank || r == to) continue;
      PetscCall(MbBufPut(&send[r], &kind, 1));
      PetscCall(MbBufPut(&send[r], c, sizeof(MbCon)));
      to = r;
    }
  }
  PetscCall(MbExchange(cs->comm, send, recv));
  for (PetscMPIInt r = 0; r < cs->size; r++) {
    if (r == cs->rank) continue;
    for (size_t off = 0; off < recv[r].n; off += 1 + sizeof(MbCon)) {
      if (recv[r].buf[off])
        np++;
      else
        nf++;
    }
  }
  PetscCall(PetscFree(cs->fcon));
  PetscCall(PetscFree(cs->fpen));
  PetscCall(PetscMalloc1(nf + 1, &cs->fcon));
  PetscCall(PetscMalloc1(np + 1, &cs->fpen));
  for (PetscMPIInt r = 0; r < cs->size; r++) {
    size_t pos = 0;
    if (r == cs->rank) continue;
    while (pos < recv[r].n) {
      char kind;
      PetscCall(MbBufGet(&recv[r], &pos, &kind, 1));
      PetscCall(MbBufGet(&recv[r], &pos, kind ? &cs->fpen[cs->nfpen++] : &cs->fcon[cs->nfor++], sizeof(MbCon)));
    }
  }
  for (PetscMPIInt r = 0; r < cs->size; r++) {
    PetscCall(MbBufFree(&send[r]));
    PetscCall(MbBufFree(&recv[r]));
  }
  PetscCall(PetscFree2(send, recv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbConSetEnd(MbConSet cs, const MbBodyMap *map)
{
  MbCon   *list = cs->list;
  PetscInt n    = cs->nnew;
  PetscFunctionBegin;
  PetscCall(PetscFree(cs->old));
  cs->nold = 0;
  /* velocities at the start for joints (energy), rows */
  cs->ncontacts = 0;
  for (PetscInt k = 0; k < n; k++) {
    MbCon *c = &list[k];
    if (c->joint >= 0) {
      MbBody b[2];
      for (int m = 0; m < 2; m++) b[m] = c->body[m] >= 0 ? map->all[c->body[m]] : NULL;
      PetscCall(MbConVelocity(c, b, PETSC_TRUE, c->V));
    } else if (c->kind == MB_CON_CONTACT)
      cs->ncontacts++;
    c->owner = cs->rank;
    PetscAssert(k == 0 || CompareCon(&list[k - 1], c) <= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rows %" PetscInt_FMT " and %" PetscInt_FMT " are out of order", k - 1, k);
  }
  {
    PetscInt nloc = n;
    PetscCallMPI(MPI_Scan(&nloc, &cs->rend, 1, MPIU_INT, MPI_SUM, cs->comm));
    cs->rstart = cs->rend - nloc;
    PetscCallMPI(MPI_Allreduce(&nloc, &cs->nconglobal, 1, MPIU_INT, MPI_SUM, cs->comm));
  }
  for (PetscInt k = 0; k < n; k++) list[k].row = cs->rstart + k;
  for (PetscInt k = 0; k < cs->nnewpen; k++) {
    cs->newpen[k].owner = cs->rank;
    cs->newpen[k].row   = -1;
  }
  PetscCall(PetscFree(cs->pen));
  cs->pen    = cs->newpen;
  cs->npen   = cs->nnewpen;
  cs->newpen = NULL;
  cs->ncontacts += cs->npen;
  PetscCall(PetscFree(cs->con));
  cs->con  = list;
  cs->ncon = n;
  cs->list = NULL;
  cs->nnew = cs->cap = cs->nnewpen = cs->pcap = 0;
  PetscCall(ShareRecords(cs, map));
  PetscFunctionReturn(PETSC_SUCCESS);
}
