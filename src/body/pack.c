/* Packing a body into bytes and back, for ghost copies and for migration between ranks
   (ARCHITECTURE.md, "Parallel design"). What travels: id, kind, label, reference shape,
   mass properties, q, u, u0 (the start-of-step velocity, which restitution needs), work
   and damping; a migrating body also its scheme's name and its loads — time series by
   their points, callbacks by their index in the domain's callback table (the deck runs on
   every rank and registers every callable in the same order, so an index names the same
   callable everywhere), and its crack planes. A ghost is read-only: it needs none of these. */
#include <moreau/mbscheme.h>
#include "bodyimpl.h"
#include "../shape/shapeimpl.h"

typedef struct {
  char  *p; /* buffer or NULL while measuring */
  size_t n; /* bytes written (or measured) */
} Writer;

static void Put(Writer *w, const void *src, size_t len)
{
  if (w->p) memcpy(w->p + w->n, src, len);
  w->n += len;
}

typedef struct {
  const char *p;
  size_t      n, len;
} Reader;

static PetscErrorCode Get(Reader *r, void *dst, size_t len)
{
  PetscFunctionBegin;
  PetscCheck(r->n + len <= r->len, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body is truncated: need %zu bytes at offset %zu of %zu", len, r->n, r->len);
  memcpy(dst, r->p + r->n, len);
  r->n += len;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void PutBody(Writer *w, MbBody b, PetscBool migrate)
{
  MbShape  s   = b->shape;
  PetscInt ll  = b->label ? (PetscInt)strlen(b->label) : -1;
  char     mig = migrate ? 1 : 0;
  Put(w, &mig, 1);
  Put(w, &b->id, sizeof(PetscInt));
  Put(w, &b->kind, sizeof(PetscInt));
  Put(w, &ll, sizeof(PetscInt));
  if (ll > 0) Put(w, b->label, (size_t)ll);
  Put(w, &b->mp, sizeof(MbMassProps));
  Put(w, b->Jinv, 9 * sizeof(PetscReal));
  Put(w, &b->nq, sizeof(PetscInt));
  Put(w, &b->nu, sizeof(PetscInt));
  Put(w, b->q, (size_t)b->nq * sizeof(PetscReal));
  Put(w, b->u, (size_t)b->nu * sizeof(PetscReal));
  Put(w, b->u0, (size_t)b->nu * sizeof(PetscReal));
  Put(w, &b->work, sizeof(PetscReal));
  Put(w, &b->damping, sizeof(PetscReal));
  Put(w, &s->n, sizeof(PetscInt));
  for (PetscInt i = 0; i < s->n; i++) {
    MbPrim *p = &s->prim[i];
    Put(w, &p->kind, sizeof(MbPrimKind));
    Put(w, &p->volid, sizeof(PetscInt));
    Put(w, &p->surfid, sizeof(PetscInt));
    Put(w, p->c, 3 * sizeof(PetscReal));
    Put(w, &p->r, sizeof(PetscReal));
    if (p->kind == MB_PRIM_ELLIPSOID) Put(w, p->e, 9 * sizeof(PetscReal));
    if (p->kind == MB_PRIM_CONVEX) {
      Put(w, &p->nv, sizeof(PetscInt));
      Put(w, &p->nf, sizeof(PetscInt));
      Put(w, &p->fptr[p->nf], sizeof(PetscInt));
      Put(w, p->v, 3 * (size_t)p->nv * sizeof(PetscReal));
      Put(w, p->fptr, (size_t)(p->nf + 1) * sizeof(PetscInt));
      Put(w, p->fvert, (size_t)p->fptr[p->nf] * sizeof(PetscInt));
      Put(w, p->fsurf, (size_t)p->nf * sizeof(PetscInt));
    }
  }
  { /* the kind's private data, behind its length */
    size_t n = 0;
    if (b->ops->pack_size) (void)b->ops->pack_size(b, &n);
    Put(w, &n, sizeof(size_t));
    if (n) {
      if (w->p) (void)b->ops->pack(b, w->p + w->n);
      w->n += n;
    }
  }
  if (!migrate) return;
  {
    const char *name = NULL;
    PetscInt    nl;
    if (b->scheme) (void)MbSchemeGetType(b->scheme, &name);
    nl = name ? (PetscInt)strlen(name) : 0;
    Put(w, &nl, sizeof(PetscInt));
    if (nl) Put(w, name, (size_t)nl);
  }
  /* the force schemes' accelerations and their history (3 nu), and whether they are current */
  {
    char ok = b->accok ? 1 : 0;
    Put(w, &ok, 1);
    Put(w, b->acc, 3 * (size_t)b->nu * sizeof(PetscReal));
  }
  Put(w, &b->nload, sizeof(PetscInt));
  for (PetscInt i = 0; i < b->nload; i++) {
    MbLoad          *l = &b->load[i];
    PetscInt         n = -1;
    const PetscReal *t, *v;
    Put(w, &l->kind, sizeof(MbLoadKind));
    Put(w, &l->frame, sizeof(MbFrame));
    Put(w, l->X, 3 * sizeof(PetscReal));
    Put(w, l->dir, 3 * sizeof(PetscReal));
    Put(w, &l->value, sizeof(PetscReal));
    Put(w, &l->ref, sizeof(PetscInt));
    Put(w, &l->surfid, sizeof(PetscInt));
    if (l->ts) (void)MbTimeSeriesGetPoints(l->ts, &n, &t, &v);
    Put(w, &n, sizeof(PetscInt));
    if (n > 0) {
      Put(w, t, (size_t)n * sizeof(PetscReal));
      Put(w, v, (size_t)n * sizeof(PetscReal));
    }
  }
  Put(w, &b->ncrack, sizeof(PetscInt)); /* crack planes with their evaluation points (crack.c) */
  for (PetscInt i = 0; i < b->ncrack; i++) {
    MbCrack *c = &b->crack[i];
    Put(w, c->p, 3 * sizeof(PetscReal));
    Put(w, c->n, 3 * sizeof(PetscReal));
    Put(w, &c->ft, sizeof(PetscReal));
    Put(w, c->surfid, 2 * sizeof(PetscInt));
    Put(w, &c->topoadj, sizeof(PetscBool));
    Put(w, &c->np, sizeof(PetscInt));
    Put(w, c->X, 3 * (size_t)c->np * sizeof(PetscReal));
  }
}

/* A callback load that is not in the domain's table cannot name its callable elsewhere. */
static PetscErrorCode CheckMigratable(MbBody b)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < b->nload; i++)
    PetscCheck(!b->load[i].fn || b->load[i].ref >= 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT ": load %" PetscInt_FMT " is a callback outside the domain's callback table (MbDomainAddCallback) and cannot migrate", b->id, i);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyPackSize(MbBody b, PetscBool migrate, size_t *size)
{
  Writer w = {NULL, 0};
  PetscFunctionBegin;
  if (migrate) PetscCall(CheckMigratable(b));
  PutBody(&w, b, migrate);
  *size = w.n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyPack(MbBody b, PetscBool migrate, char *buf, size_t *size)
{
  Writer w = {buf, 0};
  PetscFunctionBegin;
  if (migrate) PetscCall(CheckMigratable(b));
  PutBody(&w, b, migrate);
  *size = w.n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The shape's primitives of a packed body (PutBody's order). */
static PetscErrorCode GetPrims(Reader *r, PetscInt id, MbShape s)
{
  PetscInt n;
  PetscFunctionBegin;
  PetscCall(Get(r, &n, sizeof(PetscInt)));
  PetscCall(PetscCalloc1(n, &s->prim));
  s->cap = n;
  for (PetscInt i = 0; i < n; i++) {
    MbPrim *p = &s->prim[i];
    PetscCall(Get(r, &p->kind, sizeof(MbPrimKind)));
    PetscCall(Get(r, &p->volid, sizeof(PetscInt)));
    PetscCall(Get(r, &p->surfid, sizeof(PetscInt)));
    PetscCall(Get(r, p->c, 3 * sizeof(PetscReal)));
    PetscCall(Get(r, &p->r, sizeof(PetscReal)));
    PetscCheck(p->kind == MB_PRIM_SPHERE || p->kind == MB_PRIM_CONVEX || p->kind == MB_PRIM_ELLIPSOID, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT ": primitive %" PetscInt_FMT " has kind %d", id, i, (int)p->kind);
    if (p->kind == MB_PRIM_ELLIPSOID) PetscCall(Get(r, p->e, 9 * sizeof(PetscReal)));
    if (p->kind == MB_PRIM_CONVEX) {
      PetscCall(Get(r, &p->nv, sizeof(PetscInt)));
      PetscCall(Get(r, &p->nf, sizeof(PetscInt)));
      PetscInt ne;
      PetscCall(Get(r, &ne, sizeof(PetscInt)));
      PetscCheck(p->nv >= 4 && p->nf >= 4 && ne >= 3 * p->nf, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT ": convex with %" PetscInt_FMT " vertices, %" PetscInt_FMT " faces", id, p->nv, p->nf);
      PetscCall(PetscMalloc4(3 * p->nv, &p->v, p->nf + 1, &p->fptr, ne, &p->fvert, p->nf, &p->fsurf));
      PetscCall(Get(r, p->v, 3 * (size_t)p->nv * sizeof(PetscReal)));
      PetscCall(Get(r, p->fptr, (size_t)(p->nf + 1) * sizeof(PetscInt)));
      PetscCall(Get(r, p->fvert, (size_t)ne * sizeof(PetscInt)));
      PetscCall(Get(r, p->fsurf, (size_t)p->nf * sizeof(PetscInt)));
    }
    s->n++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A migrating body's loads (PutBody's order). */
static PetscErrorCode GetLoads(Reader *r, MbBody b)
{
  PetscInt nload;
  PetscFunctionBegin;
  PetscCall(Get(r, &nload, sizeof(PetscInt)));
  PetscCheck(nload >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT ": %" PetscInt_FMT " loads", b->id, nload);
  if (nload) PetscCall(PetscCalloc1(nload, &b->load));
  for (PetscInt i = 0; i < nload; i++) {
    MbLoad  *l = &b->load[i];
    PetscInt n;
    PetscCall(Get(r, &l->kind, sizeof(MbLoadKind)));
    PetscCall(Get(r, &l->frame, sizeof(MbFrame)));
    PetscCall(Get(r, l->X, 3 * sizeof(PetscReal)));
    PetscCall(Get(r, l->dir, 3 * sizeof(PetscReal)));
    PetscCall(Get(r, &l->value, sizeof(PetscReal)));
    PetscCall(Get(r, &l->ref, sizeof(PetscInt)));
    PetscCall(Get(r, &l->surfid, sizeof(PetscInt)));
    PetscCall(Get(r, &n, sizeof(PetscInt)));
    b->nload++;
    if (n > 0) {
      PetscReal *t, *v;
      PetscCall(PetscMalloc2(n, &t, n, &v));
      PetscCall(Get(r, t, (size_t)n * sizeof(PetscReal)));
      PetscCall(Get(r, v, (size_t)n * sizeof(PetscReal)));
      PetscCall(MbTimeSeriesCreate(n, t, v, &l->ts));
      PetscCall(PetscFree2(t, v));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A migrating body's crack planes with their evaluation points (crack.c; PutBody's order). */
static PetscErrorCode GetCracks(Reader *r, MbBody b)
{
  PetscInt ncrack;
  PetscFunctionBegin;
  PetscCall(Get(r, &ncrack, sizeof(PetscInt)));
  PetscCheck(ncrack >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT ": %" PetscInt_FMT " crack planes", b->id, ncrack);
  if (ncrack) PetscCall(PetscCalloc1(ncrack, &b->crack));
  for (PetscInt i = 0; i < ncrack; i++) {
    MbCrack *c = &b->crack[i];
    PetscCall(Get(r, c->p, 3 * sizeof(PetscReal)));
    PetscCall(Get(r, c->n, 3 * sizeof(PetscReal)));
    PetscCall(Get(r, &c->ft, sizeof(PetscReal)));
    PetscCall(Get(r, c->surfid, 2 * sizeof(PetscInt)));
    PetscCall(Get(r, &c->topoadj, sizeof(PetscBool)));
    PetscCall(Get(r, &c->np, sizeof(PetscInt)));
    PetscCheck(c->np >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT ": crack plane %" PetscInt_FMT " with %" PetscInt_FMT " points", b->id, i, c->np);
    b->ncrack++;
    PetscCall(PetscMalloc1(3 * c->np, &c->X));
    PetscCall(Get(r, c->X, 3 * (size_t)c->np * sizeof(PetscReal)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyUnpack(const char *buf, size_t len, size_t *used, MbBody *body, char scheme[64])
{
  Reader   r = {buf, 0, len};
  MbBody   b;
  MbShape  s;
  PetscInt ll, nq, nu;
  char     mig;
  PetscFunctionBegin;
  if (scheme) scheme[0] = 0;
  PetscCall(PetscNew(&b));
  PetscCall(Get(&r, &mig, 1));
  PetscCall(Get(&r, &b->id, sizeof(PetscInt)));
  PetscCall(Get(&r, &b->kind, sizeof(PetscInt)));
  b->ops = MbBodyKindOps(b->kind);
  PetscCheck(b->ops, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT " has unknown kind %" PetscInt_FMT, b->id, b->kind);
  PetscCall(Get(&r, &ll, sizeof(PetscInt)));
  if (ll >= 0) {
    PetscCall(PetscCalloc1(ll + 1, &b->label));
    PetscCall(Get(&r, b->label, (size_t)ll));
  }
  PetscCall(Get(&r, &b->mp, sizeof(MbMassProps)));
  PetscCall(Get(&r, b->Jinv, 9 * sizeof(PetscReal)));
  if (b->ops->disable_rotation) { /* a disabled rotation travels as J⁻¹ = 0 (rigid.c, RigidDisableRotation) */
    PetscBool zero = PETSC_TRUE;
    for (int k = 0; k < 9; k++) zero = zero && b->Jinv[k] == 0 ? PETSC_TRUE : PETSC_FALSE;
    b->norotation = zero;
  }
  PetscCall(Get(&r, &nq, sizeof(PetscInt)));
  PetscCall(Get(&r, &nu, sizeof(PetscInt)));
  PetscCheck(b->ops->sizes ? (nq > 0 && nu > 0) : (nq == b->ops->nq && nu == b->ops->nu), PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT,
             "packed %s body %" PetscInt_FMT " has sizes nq = %" PetscInt_FMT ", nu = %" PetscInt_FMT ", expected %" PetscInt_FMT " and %" PetscInt_FMT, b->ops->name, b->id, nq, nu, b->ops->nq, b->ops->nu);
  b->nq = nq;
  b->nu = nu;
  PetscCall(MbBodyAllocState(b)); /* force schemes' arrays: a migrating body brings acc (below), a ghost neither */
  PetscCall(Get(&r, b->q, (size_t)nq * sizeof(PetscReal)));
  PetscCall(Get(&r, b->u, (size_t)nu * sizeof(PetscReal)));
  PetscCall(Get(&r, b->u0, (size_t)nu * sizeof(PetscReal)));
  PetscCall(Get(&r, &b->work, sizeof(PetscReal)));
  PetscCall(Get(&r, &b->damping, sizeof(PetscReal)));
  PetscCall(MbShapeCreate(&s));
  b->shape = s;
  PetscCall(GetPrims(&r, b->id, s));
  PetscCall(b->ops->create(b));
  {
    size_t n;
    PetscCall(Get(&r, &n, sizeof(size_t)));
    PetscCheck(n <= r.len - r.n, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT " is truncated: %zu bytes of %s data at offset %zu of %zu", b->id, n, b->ops->name, r.n, r.len);
    if (n) {
      PetscCheck(b->ops->unpack, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT " carries %zu bytes of data its kind %s does not read", b->id, n, b->ops->name);
      PetscCall(b->ops->unpack(b, r.p + r.n, n));
      r.n += n;
    }
  }
  if (mig) {
    PetscInt nl;
    char     name[64];
    PetscCall(Get(&r, &nl, sizeof(PetscInt)));
    PetscCheck(nl >= 0 && nl < 64, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT ": scheme name of %" PetscInt_FMT " characters", b->id, nl);
    PetscCall(Get(&r, name, (size_t)nl));
    name[nl] = 0;
    if (scheme) PetscCall(PetscStrncpy(scheme, name, 64));
    {
      char ok;
      PetscCall(Get(&r, &ok, 1));
      b->accok = ok ? PETSC_TRUE : PETSC_FALSE;
      PetscCall(Get(&r, b->acc, 3 * (size_t)b->nu * sizeof(PetscReal)));
    }
    PetscCall(GetLoads(&r, b));
    PetscCall(GetCracks(&r, b));
  }
  *used = r.n;
  *body = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBufPutBody(MbBuf *b, MbBody body, PetscBool migrate)
{
  size_t s;
  PetscFunctionBegin;
  PetscCall(MbBodyPackSize(body, migrate, &s));
  PetscCall(MbBufPut(b, &s, sizeof(size_t)));
  PetscCall(MbBufReserve(b, s));
  PetscCall(MbBodyPack(body, migrate, b->buf + b->n, &s));
  b->n += s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBufGetBody(MbBuf *b, size_t *pos, MbBody *body, char scheme[64])
{
  size_t s, used;
  PetscFunctionBegin;
  PetscCall(MbBufGet(b, pos, &s, sizeof(size_t)));
  PetscCheck(*pos + s <= b->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "packed body truncated: %zu bytes at %zu of %zu", s, *pos, b->n);
  PetscCall(MbBodyUnpack(b->buf + *pos, s, &used, body, scheme));
  *pos += s;
  PetscFunctionReturn(PETSC_SUCCESS);
}
