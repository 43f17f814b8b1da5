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

typedef struct {
  MbGeomPrim g;    /* spatial primitive */
  PetscInt   body; /* body id */
  PetscInt   prim; /* index in the shape */
} Item;

typedef struct {
  MbDomain d;
  Item    *item;
} FilterCtx;

/* The owner of a constraint: the owner of its lowest-numbered movable body. */
static PetscMPIInt OwnerOf(MbDomain d, PetscInt b0, PetscInt b1)
{
  PetscInt    id = -1;
  PetscInt    b[2] = {b0, b1};
  PetscMPIInt owner;
  for (int k = 0; k < 2; k++) {
    if (b[k] < 0 || !d->movable[b[k]]) continue;
    if (id < 0 || b[k] < id) id = b[k];
  }
  if (id < 0) id = b0;
  (void)MbDomainOwnerRank(d, id, &owner);
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
  return OwnerOf(d, a, b) == d->rank ? PETSC_TRUE : PETSC_FALSE;
}

/* Order of the rows a rank owns: joints first (by joint number), then contacts by (bodies,
   primitives, feature) — independent of the local numbering of bodies and ghosts. */
static int CompareCon(const void *x, const void *y)
{
  const MbCon *a = (const MbCon *)x, *b = (const MbCon *)y;
  PetscInt     ka[6] = {a->joint >= 0 ? 0 : 1, a->joint, a->body[0], a->body[1], a->prim[0], a->prim[1]};
  PetscInt     kb[6] = {b->joint >= 0 ? 0 : 1, b->joint, b->body[0], b->body[1], b->prim[0], b->prim[1]};
  for (int k = 0; k < 6; k++)
    if (ka[k] != kb[k]) return ka[k] < kb[k] ? -1 : 1;
  return a->feature < b->feature ? -1 : (a->feature > b->feature ? 1 : 0);
}

/* Key order without the owner, to find last step's contact (ownership may change). */
static int CompareKey(const void *x, const void *y)
{
  const MbCon *a = (const MbCon *)x, *b = (const MbCon *)y;
  PetscInt     ka[5] = {a->body[0], a->body[1], a->prim[0], a->prim[1], a->feature};
  PetscInt     kb[5] = {b->body[0], b->body[1], b->prim[0], b->prim[1], b->feature};
  for (int k = 0; k < 5; k++)
    if (ka[k] != kb[k]) return ka[k] < kb[k] ? -1 : 1;
  return 0;
}

static PetscErrorCode ToReferential(MbBody b, const PetscReal x[3], PetscReal X[3])
{
  PetscReal L[9], a[3];
  MbM3Transpose(b->q, L);
  MbV3Sub(x, &b->q[9], a);
  MbM3MultTranspose(L, a, a);
  MbV3Add(a, b->mp.center, X);
  return PETSC_SUCCESS;
}

/* PENALTY_SOLVER: a spring-dashpot normal force R_N = max(0, −k·gap − c·V_N) and Coulomb
   friction regularized near sliding velocity zero, R_T = −μ R_N V_T / √(|V_T|² + δ²), with V
   the relative velocity at the start of the step (explicit). */
static PetscErrorCode PenaltyForce(const MbSurfMat *mat, MbCon *c)
{
  const PetscReal delta = 1e-6;
  PetscReal       vt;
  PetscFunctionBegin;
  PetscCheck(mat->spring > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PENALTY_SOLVER: contact between surfaces %" PetscInt_FMT " and %" PetscInt_FMT " (bodies %" PetscInt_FMT " and %" PetscInt_FMT ") has no spring: give SURFACE_MATERIAL(model='SPRING_DASHPOT', spring=k > 0, dashpot=...)", c->surf[0], c->surf[1], c->body[0], c->body[1]);
  c->R[2] = PetscMax(0.0, -mat->spring * c->gap - mat->dashpot * c->V[2]);
  vt      = PetscSqrtReal(c->V[0] * c->V[0] + c->V[1] * c->V[1] + delta * delta);
  c->R[0] = -mat->friction * c->R[2] * c->V[0] / vt;
  c->R[1] = -mat->friction * c->R[2] * c->V[1] / vt;
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
      if (recv[r].buf[off]) np++;
      else nf++;
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

PetscErrorCode MbDomainDetect(MbDomain d)
{
  PetscInt   nitem = 0, nv = 0, npairs = 0, *pairs = NULL, n = 0, cap = 0, nold = d->ncon;
  Item      *item;
  MbBox     *box;
  PetscReal *vbuf, *vp;
  MbCon     *list = NULL, *old = d->con, *pen = NULL;
  PetscInt   npen = 0, pcap = 0;
  FilterCtx  fc;
  PetscFunctionBegin;
  /* joints */
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
  /* primitives of the owned bodies and the ghosts in their spatial placement */
  for (PetscInt i = 0; i < d->nbody + d->nghost; i++) {
    MbShape s = (i < d->nbody ? d->body[i] : d->ghost[i - d->nbody])->shape;
    nitem += s->n;
    for (PetscInt k = 0; k < s->n; k++)
      if (s->prim[k].kind == MB_PRIM_CONVEX) nv += s->prim[k].nv;
  }
  PetscCall(PetscMalloc3(nitem + 1, &item, nitem + 1, &box, 3 * nv + 1, &vbuf));
  nitem = 0;
  vp    = vbuf;
  for (PetscInt i = 0; i < d->nbody + d->nghost; i++) {
    MbBody  b = i < d->nbody ? d->body[i] : d->ghost[i - d->nbody];
    MbShape s = b->shape;
    for (PetscInt k = 0; k < s->n; k++) {
      MbPrim *p  = &s->prim[k];
      Item   *it = &item[nitem];
      PetscCall(PetscMemzero(it, sizeof(*it)));
      it->body   = b->id;
      it->prim   = k;
      it->g.kind = p->kind;
      if (p->kind == MB_PRIM_SPHERE) {
        PetscCall(b->ops->to_spatial(b, p->c, it->g.c));
        it->g.r      = p->r;
        it->g.surfid = p->surfid;
      } else {
        for (PetscInt v = 0; v < p->nv; v++) PetscCall(b->ops->to_spatial(b, &p->v[3 * v], &vp[3 * v]));
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
  fc.d    = d;
  fc.item = item;
  PetscCall(MbBroadPhase(nitem, box, Filter, &fc, &npairs, &pairs));
  /* last step's contacts by key, for warm starts */
  if (nold) qsort(old, (size_t)nold, sizeof(MbCon), CompareKey);
  for (PetscInt k = 0; k < npairs; k++) {
    Item          *A = &item[pairs[2 * k]], *Bi = &item[pairs[2 * k + 1]];
    if (A->body > Bi->body || (A->body == Bi->body && A->prim > Bi->prim)) { /* canonical: the same on any number of ranks */
      Item *t = A;
      A       = Bi;
      Bi      = t;
    }
    MbContactPoint pts[MB_MAX_CONTACT_POINTS];
    PetscInt       np;
    PetscCall(MbCollide(&A->g, &Bi->g, d->geps, d->geps, &np, pts));
    for (PetscInt m = 0; m < np; m++) {
      MbCon          *c;
      MbBody          b[2];
      const MbSurfMat *mat;
      if (d->penalty) PetscCall(Push(&pen, &npen, &pcap, &c));
      else PetscCall(Push(&list, &n, &cap, &c));
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
      PetscCall(ToReferential(b[0], c->point, c->X[0]));
      PetscCall(ToReferential(b[1], c->point, c->X[1]));
      MbCon *prev = nold ? (MbCon *)bsearch(c, old, (size_t)nold, sizeof(MbCon), CompareKey) : NULL;
      if (prev) {
        PetscReal t1[3] = {prev->base[0], prev->base[3], prev->base[6]};
        MbConFrame(pts[m].normal, t1, c->base);
        MbV3Copy(prev->R, c->R);
      } else MbConFrame(pts[m].normal, NULL, c->base);
      mat             = MbSurfMatFind(d->nmat, d->mat, c->surf[0], c->surf[1]);
      c->law.kind     = MB_LAW_CONTACT;
      c->law.mu       = mat->friction;
      c->law.cohesion = mat->cohesion;
      /* Solfec's restitution: Ū_N = U_N + e·min(0, V_N), V at the start of the step */
      PetscCall(MbConVelocity(c, b, PETSC_TRUE, c->V));
      c->law.bias[2] = mat->restitution * PetscMin(0.0, c->V[2]);
      if (d->penalty) PetscCall(PenaltyForce(mat, c));
    }
  }
  PetscCall(PetscFree(pairs));
  PetscCall(PetscFree3(item, box, vbuf));
  /* velocities at the start for joints (energy), order, rows */
  d->ncontacts = 0;
  for (PetscInt k = 0; k < n; k++) {
    MbCon *c = &list[k];
    if (c->joint >= 0) {
      MbBody b[2];
      for (int m = 0; m < 2; m++) b[m] = c->body[m] >= 0 ? d->all[c->body[m]] : NULL;
      PetscCall(MbConVelocity(c, b, PETSC_TRUE, c->V));
    } else d->ncontacts++;
    c->owner = d->rank;
  }
  if (n) qsort(list, (size_t)n, sizeof(MbCon), CompareCon);
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
