/* Packing a body into bytes and back: ghost copies now, migration between ranks later
   (ARCHITECTURE.md, "Parallel design"). What travels: id, kind, label, reference shape,
   mass properties, q, u, u0 (the start-of-step velocity, which restitution needs), work
   and damping. Loads and the scheme stay with the owner (a ghost is read-only). */
#include "bodyimpl.h"
#include "../shape/shapeimpl.h"

typedef struct {
  char  *p;   /* buffer or NULL while measuring */
  size_t n;   /* bytes written (or measured) */
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

static void PutBody(Writer *w, MbBody b)
{
  MbShape  s  = b->shape;
  PetscInt ll = b->label ? (PetscInt)strlen(b->label) : -1;
  Put(w, &b->id, sizeof(PetscInt));
  Put(w, &b->kind, sizeof(MbBodyKind));
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
}

PetscErrorCode MbBodyPackSize(MbBody b, size_t *size)
{
  Writer w = {NULL, 0};
  PutBody(&w, b);
  *size = w.n;
  return PETSC_SUCCESS;
}

PetscErrorCode MbBodyPack(MbBody b, char *buf, size_t *size)
{
  Writer w = {buf, 0};
  PutBody(&w, b);
  *size = w.n;
  return PETSC_SUCCESS;
}

PetscErrorCode MbBodyUnpack(const char *buf, size_t len, size_t *used, MbBody *body)
{
  Reader   r = {buf, 0, len};
  MbBody   b;
  MbShape  s;
  PetscInt ll, nq, nu;
  PetscFunctionBegin;
  PetscCall(PetscNew(&b));
  PetscCall(Get(&r, &b->id, sizeof(PetscInt)));
  PetscCall(Get(&r, &b->kind, sizeof(MbBodyKind)));
  PetscCheck(b->kind == MB_BODY_RIGID || b->kind == MB_BODY_OBSTACLE, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT " has unknown kind %d", b->id, (int)b->kind);
  b->ops = b->kind == MB_BODY_RIGID ? &MbBodyOps_Rigid : &MbBodyOps_Obstacle;
  PetscCall(Get(&r, &ll, sizeof(PetscInt)));
  if (ll >= 0) {
    PetscCall(PetscCalloc1(ll + 1, &b->label));
    PetscCall(Get(&r, b->label, (size_t)ll));
  }
  PetscCall(Get(&r, &b->mp, sizeof(MbMassProps)));
  PetscCall(Get(&r, b->Jinv, 9 * sizeof(PetscReal)));
  PetscCall(Get(&r, &nq, sizeof(PetscInt)));
  PetscCall(Get(&r, &nu, sizeof(PetscInt)));
  PetscCheck(nq == 12 && nu == 6, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT " has sizes nq = %" PetscInt_FMT ", nu = %" PetscInt_FMT, b->id, nq, nu);
  b->nq = nq;
  b->nu = nu;
  PetscCall(PetscCalloc1(2 * nq + 3 * nu + 3, &b->q));
  b->u    = b->q + nq;
  b->q0   = b->u + nu;
  b->u0   = b->q0 + nq;
  b->fext = b->u0 + nu;
  b->aux  = b->fext + nu;
  PetscCall(PetscCalloc1(4 * nu, &b->force)); /* force schemes' arrays: not packed (a ghost is read-only) */
  b->acc = b->force + nu;
  PetscCall(Get(&r, b->q, (size_t)nq * sizeof(PetscReal)));
  PetscCall(Get(&r, b->u, (size_t)nu * sizeof(PetscReal)));
  PetscCall(Get(&r, b->u0, (size_t)nu * sizeof(PetscReal)));
  PetscCall(Get(&r, &b->work, sizeof(PetscReal)));
  PetscCall(Get(&r, &b->damping, sizeof(PetscReal)));
  PetscCall(MbShapeCreate(&s));
  b->shape = s;
  PetscInt n;
  PetscCall(Get(&r, &n, sizeof(PetscInt)));
  PetscCall(PetscCalloc1(n, &s->prim));
  s->cap = n;
  for (PetscInt i = 0; i < n; i++) {
    MbPrim *p = &s->prim[i];
    PetscCall(Get(&r, &p->kind, sizeof(MbPrimKind)));
    PetscCall(Get(&r, &p->volid, sizeof(PetscInt)));
    PetscCall(Get(&r, &p->surfid, sizeof(PetscInt)));
    PetscCall(Get(&r, p->c, 3 * sizeof(PetscReal)));
    PetscCall(Get(&r, &p->r, sizeof(PetscReal)));
    if (p->kind == MB_PRIM_CONVEX) {
      PetscCall(Get(&r, &p->nv, sizeof(PetscInt)));
      PetscCall(Get(&r, &p->nf, sizeof(PetscInt)));
      PetscInt ne;
      PetscCall(Get(&r, &ne, sizeof(PetscInt)));
      PetscCheck(p->nv >= 4 && p->nf >= 4 && ne >= 3 * p->nf, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "packed body %" PetscInt_FMT ": convex with %" PetscInt_FMT " vertices, %" PetscInt_FMT " faces", b->id, p->nv, p->nf);
      PetscCall(PetscMalloc4(3 * p->nv, &p->v, p->nf + 1, &p->fptr, ne, &p->fvert, p->nf, &p->fsurf));
      PetscCall(Get(&r, p->v, 3 * (size_t)p->nv * sizeof(PetscReal)));
      PetscCall(Get(&r, p->fptr, (size_t)(p->nf + 1) * sizeof(PetscInt)));
      PetscCall(Get(&r, p->fvert, (size_t)ne * sizeof(PetscInt)));
      PetscCall(Get(&r, p->fsurf, (size_t)p->nf * sizeof(PetscInt)));
    }
    s->n++;
  }
  *used = r.n;
  *body = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}
