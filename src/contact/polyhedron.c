/* Convex primitives prepared for the narrow phase: face planes by Newell's method (robust
   for faces of more than three, slightly non-planar vertices), and the edge list with the
   two faces of each edge, which the separating-axis test walks. */
#include "contactimpl.h"

/* One directed edge of a face loop; the two directions of an edge meet after sorting. */
typedef struct {
  PetscInt64 key;  /* lo·nv + hi, lo < hi its vertices */
  PetscInt   face; /* the face whose loop has it */
  PetscInt   up;   /* 1 when the loop runs lo→hi, 0 when hi→lo */
} DirEdge;

static int CompareDirEdge(const void *pa, const void *pb)
{
  const DirEdge *a = (const DirEdge *)pa, *b = (const DirEdge *)pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return b->up - a->up; /* lo→hi first */
}

static PetscErrorCode PolyEdges(MbPoly *P)
{
  const MbGeomPrim *g  = P->g;
  PetscInt          nd = g->fptr[g->nf];
  DirEdge          *de;
  PetscFunctionBegin;
  PetscCheck(nd % 2 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "convex primitive: %" PetscInt_FMT " face-loop edges cannot pair into a closed surface", nd);
  PetscCall(PetscMalloc1(nd, &de));
  for (PetscInt f = 0; f < g->nf; f++)
    for (PetscInt k = g->fptr[f]; k < g->fptr[f + 1]; k++) {
      PetscInt u = g->fvert[k], v = g->fvert[k + 1 < g->fptr[f + 1] ? k + 1 : g->fptr[f]];
      de[k].key  = (PetscInt64)PetscMin(u, v) * g->nv + PetscMax(u, v);
      de[k].face = f;
      de[k].up   = u < v;
    }
  qsort(de, (size_t)nd, sizeof(de[0]), CompareDirEdge);
  P->ne = nd / 2;
  PetscCall(PetscMalloc1(4 * P->ne, &P->edge));
  for (PetscInt e = 0; e < P->ne; e++) {
    const DirEdge *a = &de[2 * e], *b = &de[2 * e + 1];
    PetscCheck(a->key == b->key && a->up && !b->up, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "convex primitive: edge (%" PetscInt64_FMT ", %" PetscInt64_FMT ") is not shared by two oppositely oriented faces", a->key / g->nv, a->key % g->nv);
    P->edge[4 * e + 0] = (PetscInt)(a->key / g->nv);
    P->edge[4 * e + 1] = (PetscInt)(a->key % g->nv);
    P->edge[4 * e + 2] = a->face;
    P->edge[4 * e + 3] = b->face;
  }
  PetscCall(PetscFree(de));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbPolySetUp(const MbGeomPrim *g, PetscBool edges, MbPoly *P)
{
  PetscReal lo[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[3] = {-PETSC_MAX_REAL, -PETSC_MAX_REAL, -PETSC_MAX_REAL}, diag[3];
  PetscFunctionBegin;
  PetscCheck(g->kind == MB_PRIM_CONVEX && g->nv >= 4 && g->nf >= 4 && g->v && g->fptr && g->fvert, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "convex primitive expected (kind %d, %" PetscInt_FMT " vertices, %" PetscInt_FMT " faces, arrays set): need kind %d, >= 4 vertices and faces", (int)g->kind, g->nv, g->nf, (int)MB_PRIM_CONVEX);
  PetscCall(PetscMemzero(P, sizeof(*P)));
  P->g = g;
  PetscCall(PetscMalloc2(3 * g->nf, &P->n, g->nf, &P->d));
  MbV3Set(P->c, 0, 0, 0);
  for (PetscInt k = 0; k < g->nv; k++) {
    for (int d = 0; d < 3; d++) PetscCheck(!PetscIsInfOrNanReal(g->v[3 * k + d]), PETSC_COMM_SELF, PETSC_ERR_FP, "convex primitive: coordinate %d of vertex %" PetscInt_FMT " is %g", d, k, (double)g->v[3 * k + d]);
    MbV3Axpy(1.0 / g->nv, &g->v[3 * k], P->c, P->c);
    for (int d = 0; d < 3; d++) {
      lo[d] = PetscMin(lo[d], g->v[3 * k + d]);
      hi[d] = PetscMax(hi[d], g->v[3 * k + d]);
    }
  }
  MbV3Sub(hi, lo, diag);
  P->size = MbV3Norm(diag);
  for (PetscInt f = 0; f < g->nf; f++) {
    PetscReal *n = &P->n[3 * f], m[3] = {0, 0, 0}, len;
    PetscInt   nfv = g->fptr[f + 1] - g->fptr[f];
    MbV3Set(n, 0, 0, 0);
    for (PetscInt k = 0; k < nfv; k++) { /* Newell's normal: twice the vector area */
      const PetscReal *a = &g->v[3 * g->fvert[g->fptr[f] + k]], *b = &g->v[3 * g->fvert[g->fptr[f] + (k + 1) % nfv]];
      n[0] += (a[1] - b[1]) * (a[2] + b[2]);
      n[1] += (a[2] - b[2]) * (a[0] + b[0]);
      n[2] += (a[0] - b[0]) * (a[1] + b[1]);
      MbV3Axpy(1.0 / nfv, a, m, m);
    }
    len = MbV3Norm(n);
    PetscCheck(len > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "convex primitive: face %" PetscInt_FMT " (%" PetscInt_FMT " vertices) has zero area", f, nfv);
    MbV3Scale(1.0 / len, n, n);
    P->d[f] = MbV3Dot(n, m);
  }
  if (edges) PetscCall(PolyEdges(P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbPolyDestroy(MbPoly *P)
{
  PetscFunctionBegin;
  PetscCall(PetscFree2(P->n, P->d));
  PetscCall(PetscFree(P->edge));
  PetscFunctionReturn(PETSC_SUCCESS);
}
