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

static PetscBool Filter(void *ctx, PetscInt i, PetscInt j)
{
  FilterCtx *f = (FilterCtx *)ctx;
  MbBody     a = f->d->all[f->item[i].body], b = f->d->all[f->item[j].body];
  if (a == b) return PETSC_FALSE;
  return (a->kind == MB_BODY_OBSTACLE && b->kind == MB_BODY_OBSTACLE) ? PETSC_FALSE : PETSC_TRUE;
}

/* Lexicographic order of contacts by (owner, joint first, bodies, primitives, feature). */
static int CompareCon(const void *x, const void *y)
{
  const MbCon *a = (const MbCon *)x, *b = (const MbCon *)y;
  PetscInt     ka[7] = {a->owner, a->joint >= 0 ? 0 : 1, a->joint, a->body[0], a->body[1], a->prim[0], a->prim[1]};
  PetscInt     kb[7] = {b->owner, b->joint >= 0 ? 0 : 1, b->joint, b->body[0], b->body[1], b->prim[0], b->prim[1]};
  for (int k = 0; k < 7; k++)
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

/* The owner of a constraint: the owner of its lowest-numbered movable body. */
static PetscMPIInt ConOwner(MbDomain d, const MbCon *c)
{
  PetscInt id = -1;
  for (int k = 0; k < 2; k++) {
    PetscInt b = c->body[k];
    if (b < 0 || d->all[b]->kind == MB_BODY_OBSTACLE) continue;
    if (id < 0 || b < id) id = b;
  }
  PetscMPIInt owner;
  if (id < 0) id = c->body[0];
  (void)MbDomainOwnerRank(d, id, &owner);
  return owner;
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
    for (int k = 0; k < 2; k++) b[k] = jt->body[k] >= 0 ? d->all[jt->body[k]] : NULL;
    PetscCall(Push(&list, &n, &cap, &c));
    PetscCall(MbJointToConstraint(jt, j, b, d->t, d->h, c));
  }
  /* primitives of every body in their spatial placement */
  for (PetscInt i = 0; i < d->nall; i++) {
    MbShape s = d->all[i]->shape;
    nitem += s->n;
    for (PetscInt k = 0; k < s->n; k++)
      if (s->prim[k].kind == MB_PRIM_CONVEX) nv += s->prim[k].nv;
  }
  PetscCall(PetscMalloc3(nitem, &item, nitem, &box, 3 * nv + 1, &vbuf));
  nitem = 0;
  vp    = vbuf;
  for (PetscInt i = 0; i < d->nall; i++) {
    MbBody  b = d->all[i];
    MbShape s = b->shape;
    for (PetscInt k = 0; k < s->n; k++) {
      MbPrim *p  = &s->prim[k];
      Item   *it = &item[nitem];
      PetscCall(PetscMemzero(it, sizeof(*it)));
      it->body   = i;
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
  qsort(old, (size_t)nold, sizeof(MbCon), CompareKey);
  for (PetscInt k = 0; k < npairs; k++) {
    Item          *A = &item[pairs[2 * k]], *Bi = &item[pairs[2 * k + 1]];
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
  /* velocities at the start for joints (energy), ownership, order, rows */
  d->ncontacts = 0;
  for (PetscInt k = 0; k < n; k++) {
    MbCon *c = &list[k];
    if (c->joint >= 0) {
      MbBody b[2];
      for (int m = 0; m < 2; m++) b[m] = c->body[m] >= 0 ? d->all[c->body[m]] : NULL;
      PetscCall(MbConVelocity(c, b, PETSC_TRUE, c->V));
    } else d->ncontacts++;
    c->owner = ConOwner(d, c);
  }
  qsort(list, (size_t)n, sizeof(MbCon), CompareCon);
  d->rstart = d->rend = 0;
  for (PetscInt k = 0; k < n; k++) {
    list[k].row = k;
    if (list[k].owner < d->rank) d->rstart = d->rend = k + 1;
    else if (list[k].owner == d->rank) d->rend = k + 1;
  }
  for (PetscInt k = 0; k < npen; k++) pen[k].owner = ConOwner(d, &pen[k]);
  PetscCall(PetscFree(d->pen));
  d->pen  = pen;
  d->npen = npen;
  d->ncontacts += npen;
  PetscCall(PetscFree(d->con));
  d->con  = list;
  d->ncon = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}
