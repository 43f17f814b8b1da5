/* Compound shapes: construction, transformation, queries. */
#include <math.h>
#include <moreau/mbmath.h>
#include "shapeimpl.h"

PetscErrorCode MbShapeCreate(MbShape *shape)
{
  PetscFunctionBegin;
  PetscCall(PetscNew(shape));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PrimFree(MbPrim *p)
{
  PetscFunctionBegin;
  if (p->kind == MB_PRIM_CONVEX) PetscCall(PetscFree4(p->v, p->fptr, p->fvert, p->fsurf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshFree(MbShape s)
{
  PetscFunctionBegin;
  if (!s->mesh) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree3(s->mesh->X, s->mesh->eptr, s->mesh->enode));
  PetscCall(PetscFree(s->mesh));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshSet(MbShape s, PetscInt nn, const PetscReal X[], PetscInt ne, const PetscInt eptr[], const PetscInt enode[], PetscBool embed)
{
  MbMesh *m;
  PetscFunctionBegin;
  PetscCheck(nn > 0 && ne > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "a mesh of %" PetscInt_FMT " elements and %" PetscInt_FMT " nodes", ne, nn);
  PetscCheck(embed || ne == s->n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "a mesh of %" PetscInt_FMT " elements on a shape of %" PetscInt_FMT " elements (and %" PetscInt_FMT " nodes)", ne, s->n, nn);
  PetscCheck(eptr[0] == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "mesh element offsets must start at 0, got %" PetscInt_FMT, eptr[0]);
  for (PetscInt e = 0; e < ne; e++) {
    PetscInt k = eptr[e + 1] - eptr[e];
    PetscCheck(k == 4 || k == 5 || k == 6 || k == 8, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "mesh element %" PetscInt_FMT " has %" PetscInt_FMT " nodes: 4 (TET4), 5 (PYR5), 6 (WEDGE6) or 8 (HEX8) are supported", e, k);
    for (PetscInt a = eptr[e]; a < eptr[e + 1]; a++) PetscCheck(enode[a] >= 0 && enode[a] < nn, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "mesh element %" PetscInt_FMT ": node %" PetscInt_FMT " is not in [0, %" PetscInt_FMT ")", e, enode[a], nn);
  }
  for (PetscInt k = 0; k < 3 * nn; k++) PetscCheck(isfinite(X[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "mesh node %" PetscInt_FMT ": coordinate %g is not finite", k / 3, (double)X[k]);
  PetscCall(MeshFree(s));
  PetscCall(PetscNew(&m));
  m->nn = nn;
  m->ne = ne;
  PetscCall(PetscMalloc3(3 * nn, &m->X, ne + 1, &m->eptr, eptr[ne], &m->enode));
  PetscCall(PetscArraycpy(m->X, X, 3 * nn));
  PetscCall(PetscArraycpy(m->eptr, eptr, ne + 1));
  PetscCall(PetscArraycpy(m->enode, enode, eptr[ne]));
  m->embed = embed;
  s->mesh  = m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeSetMesh(MbShape s, PetscInt nn, const PetscReal X[], PetscInt ne, const PetscInt eptr[], const PetscInt enode[]) { return MeshSet(s, nn, X, ne, eptr, enode, PETSC_FALSE); }

PetscErrorCode MbShapeSetEmbeddingMesh(MbShape s, PetscInt nn, const PetscReal X[], PetscInt ne, const PetscInt eptr[], const PetscInt enode[]) { return MeshSet(s, nn, X, ne, eptr, enode, PETSC_TRUE); }

PetscErrorCode MbShapeGetMeshEmbedding(MbShape s, PetscBool *embed)
{
  *embed = s->mesh ? s->mesh->embed : PETSC_FALSE;
  return PETSC_SUCCESS;
}

PetscErrorCode MbShapeGetMesh(MbShape s, PetscInt *nn, const PetscReal **X, PetscInt *ne, const PetscInt **eptr, const PetscInt **enode)
{
  const MbMesh *m = s->mesh;
  if (nn) *nn = m ? m->nn : 0;
  if (X) *X = m ? m->X : NULL;
  if (ne) *ne = m ? m->ne : 0;
  if (eptr) *eptr = m ? m->eptr : NULL;
  if (enode) *enode = m ? m->enode : NULL;
  return PETSC_SUCCESS;
}

PetscErrorCode MbShapeDestroy(MbShape *shape)
{
  PetscFunctionBegin;
  if (!*shape) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MeshFree(*shape));
  for (PetscInt i = 0; i < (*shape)->n; i++) PetscCall(PrimFree(&(*shape)->prim[i]));
  PetscCall(PetscFree((*shape)->prim));
  PetscCall(PetscFree(*shape));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapePush(MbShape s, MbPrim **p)
{
  PetscFunctionBegin;
  if (s->n == s->cap) {
    PetscInt cap = s->cap ? 2 * s->cap : 1;
    MbPrim  *np;
    PetscCall(PetscCalloc1(cap, &np));
    if (s->n) PetscCall(PetscArraycpy(np, s->prim, s->n));
    PetscCall(PetscFree(s->prim));
    s->prim = np;
    s->cap  = cap;
  }
  *p = &s->prim[s->n++];
  PetscCall(PetscMemzero(*p, sizeof(**p)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeAddSphere(MbShape s, const PetscReal c[3], PetscReal r, PetscInt volid, PetscInt surfid)
{
  MbPrim *p;
  PetscFunctionBegin;
  PetscCheck(r > 0 && PetscIsNormalReal(r), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "sphere radius must be > 0, got %g", (double)r);
  PetscCall(MbShapePush(s, &p));
  p->kind = MB_PRIM_SPHERE;
  MbV3Copy(c, p->c);
  p->r      = r;
  p->volid  = volid;
  p->surfid = surfid;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The faces close the volume when every directed edge (a, b) of a face loop occurs once
   and its reverse (b, a) once: sort the edges as keys a·nv + b and look each reverse up. */
static PetscErrorCode ConvexCheckClosed(PetscInt nv, PetscInt nf, const PetscInt fptr[], const PetscInt fvert[])
{
  PetscInt64 *key, a = 0, b = 0;
  PetscInt    ne = fptr[nf], why = 0; /* 1: repeated vertex, 2: edge twice, 3: edge unmatched */
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(ne, &key));
  for (PetscInt f = 0; f < nf; f++)
    for (PetscInt k = fptr[f]; k < fptr[f + 1]; k++) {
      PetscInt from = fvert[k], to = fvert[k + 1 < fptr[f + 1] ? k + 1 : fptr[f]];
      key[k] = (PetscInt64)from * nv + to;
    }
  PetscCall(PetscSortInt64(ne, key));
  for (PetscInt k = 0; k < ne && !why; k++) {
    PetscInt64 rev = (key[k] % nv) * nv + key[k] / nv;
    PetscInt   lo = 0, hi = ne - 1;
    while (lo < hi) { /* bisection for the reverse edge */
      PetscInt mid = (lo + hi) / 2;
      if (key[mid] < rev)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (key[k] == rev)
      why = 1;
    else if (k + 1 < ne && key[k + 1] == key[k])
      why = 2;
    else if (key[lo] != rev)
      why = 3;
    if (why) {
      a = key[k] / nv;
      b = key[k] % nv;
    }
  }
  PetscCall(PetscFree(key));
  PetscCheck(why != 1, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "convex polyhedron: a face repeats vertex %" PetscInt64_FMT " consecutively", a);
  PetscCheck(why != 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "convex polyhedron: edge (%" PetscInt64_FMT ", %" PetscInt64_FMT ") occurs twice in the same direction: faces are not all counter-clockwise from outside", a, b);
  PetscCheck(why != 3, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "convex polyhedron: faces do not close the volume: edge (%" PetscInt64_FMT ", %" PetscInt64_FMT ") has no face on its other side", a, b);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeAddConvex(MbShape s, PetscInt nv, const PetscReal v[], PetscInt nf, const PetscInt fptr[], const PetscInt fvert[], const PetscInt fsurf[], PetscInt volid)
{
  MbPrim  *p;
  PetscInt nfv;
  PetscFunctionBegin;
  PetscCheck(nv >= 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a convex polyhedron needs at least 4 vertices, got %" PetscInt_FMT, nv);
  PetscCheck(nf >= 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "a convex polyhedron needs at least 4 faces, got %" PetscInt_FMT, nf);
  nfv = fptr[nf];
  for (PetscInt f = 0; f < nf; f++) PetscCheck(fptr[f + 1] - fptr[f] >= 3, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "face %" PetscInt_FMT " has %" PetscInt_FMT " vertices; a face needs at least 3", f, fptr[f + 1] - fptr[f]);
  for (PetscInt k = 0; k < nfv; k++) PetscCheck(fvert[k] >= 0 && fvert[k] < nv, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "face vertex index %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", fvert[k], nv);
  for (PetscInt k = 0; k < 3 * nv; k++) PetscCheck(isfinite(v[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "vertex coordinate %" PetscInt_FMT " is not finite: %g", k, (double)v[k]);
  PetscCall(ConvexCheckClosed(nv, nf, fptr, fvert));
  PetscCall(MbShapePush(s, &p));
  p->kind  = MB_PRIM_CONVEX;
  p->volid = volid;
  p->nv    = nv;
  p->nf    = nf;
  PetscCall(PetscMalloc4(3 * nv, &p->v, nf + 1, &p->fptr, nfv, &p->fvert, nf, &p->fsurf));
  PetscCall(PetscArraycpy(p->v, v, 3 * nv));
  PetscCall(PetscArraycpy(p->fptr, fptr, nf + 1));
  PetscCall(PetscArraycpy(p->fvert, fvert, nfv));
  for (PetscInt f = 0; f < nf; f++) p->fsurf[f] = fsurf ? fsurf[f] : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeAddHex(MbShape s, const PetscReal nodes[24], const PetscInt surfids[6], PetscInt volid)
{
  /* faces counter-clockwise seen from outside, for nodes 0-3 bottom (ccw from above), 4-7 top */
  static const PetscInt fptr[7] = {0, 4, 8, 12, 16, 20, 24};
  static const PetscInt fv[24]  = {0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 3, 0, 4, 7};
  PetscInt              zero[6] = {0, 0, 0, 0, 0, 0};
  PetscFunctionBegin;
  PetscCall(MbShapeAddConvex(s, 8, nodes, 6, fptr, fv, surfids ? surfids : zero, volid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeAppend(MbShape s, MbShape o)
{
  PetscFunctionBegin;
  PetscCall(MeshFree(s)); /* no longer one mesh */
  for (PetscInt i = 0; i < o->n; i++) {
    MbPrim *q = &o->prim[i];
    if (q->kind == MB_PRIM_SPHERE)
      PetscCall(MbShapeAddSphere(s, q->c, q->r, q->volid, q->surfid));
    else if (q->kind == MB_PRIM_ELLIPSOID) {
      PetscReal x[12];
      MbV3Copy(q->c, x);
      for (int k = 0; k < 9; k++) x[3 + k] = q->e[k];
      PetscCall(MbShapeAddEllipsoidPoints(s, x, q->volid, q->surfid));
    } else
      PetscCall(MbShapeAddConvex(s, q->nv, q->v, q->nf, q->fptr, q->fvert, q->fsurf, q->volid));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeAppendPiece(MbShape s, MbShape o, PetscInt i)
{
  const MbPrim *q;
  PetscFunctionBegin;
  PetscCheck(i >= 0 && i < o->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "piece %" PetscInt_FMT " is not in [0, %" PetscInt_FMT ")", i, o->n);
  q = &o->prim[i];
  PetscCall(MeshFree(s));
  if (q->kind == MB_PRIM_SPHERE)
    PetscCall(MbShapeAddSphere(s, q->c, q->r, q->volid, q->surfid));
  else
    PetscCall(MbShapeAddConvex(s, q->nv, q->v, q->nf, q->fptr, q->fvert, q->fsurf, q->volid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeDuplicate(MbShape s, MbShape *copy)
{
  PetscFunctionBegin;
  PetscCall(MbShapeCreate(copy));
  PetscCall(MbShapeAppend(*copy, s));
  if (s->mesh) PetscCall(MeshSet(*copy, s->mesh->nn, s->mesh->X, s->mesh->ne, s->mesh->eptr, s->mesh->enode, s->mesh->embed));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeTransform(MbShape s, const PetscReal R[9], const PetscReal c[3], const PetscReal d[3])
{
  PetscFunctionBegin;
  for (PetscInt k = 0; s->mesh && k < s->mesh->nn; k++) {
    PetscReal *x = &s->mesh->X[3 * k], y[3];
    MbV3Sub(x, c, y);
    MbM3Mult(R, y, y);
    MbV3Add(y, c, y);
    MbV3Add(y, d, x);
  }
  for (PetscInt i = 0; i < s->n; i++) {
    MbPrim  *p  = &s->prim[i];
    PetscInt nv = p->kind == MB_PRIM_SPHERE ? 1 : p->kind == MB_PRIM_ELLIPSOID ? 4 : p->nv;
    for (PetscInt k = 0; k < nv; k++) { /* an ellipsoid: its centre and the ends of its semi-axes */
      PetscReal *x = p->kind == MB_PRIM_SPHERE || (p->kind == MB_PRIM_ELLIPSOID && k == 0) ? p->c : p->kind == MB_PRIM_ELLIPSOID ? &p->e[3 * (k - 1)] : &p->v[3 * k], y[3];
      MbV3Sub(x, c, y);
      MbM3Mult(R, y, y);
      MbV3Add(y, c, y);
      MbV3Add(y, d, x);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeTranslate(MbShape s, const PetscReal d[3])
{
  PetscReal Id[9], z[3] = {0, 0, 0};
  PetscFunctionBegin;
  MbM3Identity(Id);
  PetscCall(MbShapeTransform(s, Id, z, d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeRotate(MbShape s, const PetscReal point[3], const PetscReal dir[3], PetscReal angle)
{
  PetscReal n = MbV3Norm(dir), psi[3], R[9], z[3] = {0, 0, 0};
  PetscFunctionBegin;
  PetscCheck(n > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "rotation axis must be non-zero, got (%g, %g, %g)", (double)dir[0], (double)dir[1], (double)dir[2]);
  MbV3Scale(angle / n, dir, psi);
  MbExpMap(psi, R);
  PetscCall(MbShapeTransform(s, R, point, z));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeGetSize(MbShape s, PetscInt *n)
{
  PetscFunctionBegin;
  *n = s->n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeGetPrimKind(MbShape s, PetscInt i, MbPrimKind *kind)
{
  PetscFunctionBegin;
  PetscCheck(i >= 0 && i < s->n, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "primitive %" PetscInt_FMT " out of range [0, %" PetscInt_FMT ")", i, s->n);
  *kind = s->prim[i].kind;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeGetSphere(MbShape s, PetscInt i, PetscReal c[3], PetscReal *r)
{
  PetscFunctionBegin;
  PetscCheck(i >= 0 && i < s->n && s->prim[i].kind == MB_PRIM_SPHERE, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "primitive %" PetscInt_FMT " is not a sphere", i);
  MbV3Copy(s->prim[i].c, c);
  *r = s->prim[i].r;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeGetConvex(MbShape s, PetscInt i, PetscInt *nv, const PetscReal **v, PetscInt *nf, const PetscInt **fptr, const PetscInt **fvert, const PetscInt **fsurf)
{
  PetscFunctionBegin;
  PetscCheck(i >= 0 && i < s->n && s->prim[i].kind == MB_PRIM_CONVEX, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "primitive %" PetscInt_FMT " is not convex", i);
  if (nv) *nv = s->prim[i].nv;
  if (v) *v = s->prim[i].v;
  if (nf) *nf = s->prim[i].nf;
  if (fptr) *fptr = s->prim[i].fptr;
  if (fvert) *fvert = s->prim[i].fvert;
  if (fsurf) *fsurf = s->prim[i].fsurf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeGetBox(MbShape s, PetscReal lo[3], PetscReal hi[3])
{
  PetscFunctionBegin;
  for (int d = 0; d < 3; d++) {
    lo[d] = PETSC_MAX_REAL;
    hi[d] = -PETSC_MAX_REAL;
  }
  for (PetscInt i = 0; i < s->n; i++) {
    MbPrim *p = &s->prim[i];
    if (p->kind == MB_PRIM_SPHERE)
      for (int d = 0; d < 3; d++) {
        lo[d] = PetscMin(lo[d], p->c[d] - p->r);
        hi[d] = PetscMax(hi[d], p->c[d] + p->r);
      }
    else if (p->kind == MB_PRIM_ELLIPSOID) {
      PetscReal L[9];
      PetscCall(MbShapeGetEllipsoid(s, i, NULL, L, NULL));
      for (int d = 0; d < 3; d++) { /* the half-width along axis d: max of e_d·L u over |u| ≤ 1, |row d of L| */
        PetscReal w = MbV3Norm(&L[3 * d]);
        lo[d]       = PetscMin(lo[d], p->c[d] - w);
        hi[d]       = PetscMax(hi[d], p->c[d] + w);
      }
    } else
      for (PetscInt k = 0; k < p->nv; k++)
        for (int d = 0; d < 3; d++) {
          lo[d] = PetscMin(lo[d], p->v[3 * k + d]);
          hi[d] = PetscMax(hi[d], p->v[3 * k + d]);
        }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
