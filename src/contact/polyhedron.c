/* Convex primitives prepared for the narrow phase: face planes by Newell's method (robust
   for faces of more than three, slightly non-planar vertices), and the edge list with the
   two faces of each edge, which the separating-axis test walks. */
#include "contactimpl.h"

/* The edges of the face loops, each once, in the order of their key lo·nv + hi (lo < hi):
   edge {lo, hi} is the step lo→hi of one loop and hi→lo of another. The steps leaving each
   vertex are bucketed by vertex (a counting sort), so that an edge's reverse is found among
   the few steps leaving hi; no sort of all steps by comparisons (that qsort was a third of
   the convex–convex narrow phase of a cube stack, and the topology is the same for every
   pair the primitive is in). */
static PetscErrorCode PolyEdges(MbPoly *P)
{
  const MbGeomPrim *g  = P->g;
  PetscInt          nd = g->fptr[g->nf], nv = g->nv, *start, *to, *face, ne = 0;
  PetscFunctionBegin;
  PetscCheck(nd % 2 == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "convex primitive: %" PetscInt_FMT " face-loop edges cannot pair into a closed surface", nd);
  PetscCall(PetscCalloc3(nv + 2, &start, nd + 1, &to, nd + 1, &face));
  for (PetscInt k = 0; k < nd; k++) {
    const PetscInt u = g->fvert[k];
    PetscCheck(u >= 0 && u < nv, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "convex primitive: face-loop vertex %" PetscInt_FMT " at position %" PetscInt_FMT " is not in [0, %" PetscInt_FMT ")", u, k, nv);
    start[u + 2]++;
  }
  for (PetscInt u = 0; u < nv; u++) start[u + 2] += start[u + 1];
  for (PetscInt f = 0; f < g->nf; f++) /* the steps u→v leaving u at start[u] .. start[u+1], in loop order */
    for (PetscInt k = g->fptr[f]; k < g->fptr[f + 1]; k++) {
      const PetscInt u = g->fvert[k], v = g->fvert[k + 1 < g->fptr[f + 1] ? k + 1 : g->fptr[f]], at = start[u + 1]++;
      to[at] = v, face[at] = f;
    }
  P->ne = nd / 2;
  PetscCall(PetscMalloc1(4 * P->ne + 1, &P->edge));
  for (PetscInt lo = 0; lo < nv; lo++) {
    /* the steps lo→hi with hi > lo, by increasing hi (a vertex has few: insertion sort) */
    PetscInt      *t = to + start[lo], *fa = face + start[lo];
    const PetscInt m = start[lo + 1] - start[lo];
    for (PetscInt i = 1; i < m; i++)
      for (PetscInt j = i; j > 0 && t[j - 1] > t[j]; j--) {
        PetscInt x = t[j];
        t[j] = t[j - 1], t[j - 1] = x, x = fa[j], fa[j] = fa[j - 1], fa[j - 1] = x;
      }
    for (PetscInt i = 0; i < m; i++) {
      const PetscInt hi   = t[i];
      PetscInt       back = -1;
      PetscCheck(i == 0 || t[i - 1] != hi, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "convex primitive: edge (%" PetscInt_FMT ", %" PetscInt_FMT ") is not shared by two oppositely oriented faces", PetscMin(lo, hi), PetscMax(lo, hi));
      if (hi < lo) continue;
      for (PetscInt k = start[hi]; k < start[hi + 1]; k++)
        if (to[k] == lo) back = face[k];
      PetscCheck(back >= 0 && ne < P->ne, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "convex primitive: edge (%" PetscInt_FMT ", %" PetscInt_FMT ") is not shared by two oppositely oriented faces", lo, hi);
      P->edge[4 * ne + 0] = lo;
      P->edge[4 * ne + 1] = hi;
      P->edge[4 * ne + 2] = fa[i];
      P->edge[4 * ne + 3] = back;
      ne++;
    }
  }
  PetscCheck(ne == P->ne, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "convex primitive: %" PetscInt_FMT " face-loop steps pair into %" PetscInt_FMT " edges; a closed surface has %" PetscInt_FMT, nd, ne, P->ne);
  PetscCall(PetscFree3(start, to, face));
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
