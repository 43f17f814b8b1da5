/* Splitting a shape by a plane (Solfec-1.0's SPLIT of CONVEX shapes, cvx.c behaviour): each
   convex piece crossed by the plane is clipped into its part below (n·(x − p) <= 0) and above;
   the cut gets a new face, surfid[0] on the part below (its outward normal is n) and
   surfid[1] on the part above. Pieces wholly on one side go there whole. */
#include <math.h>
#include <moreau/mbmath.h>
#include "shapeimpl.h"

/* The clipped vertex of edge (a, b), a < b, is shared by the two faces of that edge. */
typedef struct {
  PetscInt a, b, id;
} CutEdge;

static PetscInt CutEdgeFind(PetscInt n, const CutEdge e[], PetscInt a, PetscInt b)
{
  for (PetscInt k = 0; k < n; k++)
    if (e[k].a == PetscMin(a, b) && e[k].b == PetscMax(a, b)) return e[k].id;
  return -1;
}

/* The part of convex p where sign·s <= eps (s: the signed distances of its vertices), appended
   to out with the cut face (outward normal sign·n) given surface id cutsurf. Each face loop is
   clipped (Sutherland–Hodgman against the plane); the section's vertices (on the plane within
   eps, or on cut edges) are ordered counter-clockwise about sign·n by their angle about their
   centroid: the section of a convex polyhedron is a convex polygon. */
static PetscErrorCode ConvexHalf(const MbPrim *p, const PetscReal s[], PetscReal sign, const PetscReal n[3], PetscReal eps, PetscInt cutsurf, MbShape out)
{
  PetscInt   nv = p->nv, nf = p->nf, nfv = p->fptr[nf], maxv = nv + nfv, nnv = 0, nnf = 0, nk = 0, ne = 0, nw = 0;
  PetscInt  *map, *fptr, *fvert, *fsurf, *ring, *perm;
  PetscReal *v, *ang, c[3] = {0, 0, 0}, m[3], u[3], w[3], t[3];
  CutEdge   *edge;
  PetscFunctionBegin;
  MbV3Scale(sign, n, m);
  PetscCall(PetscMalloc4(3 * maxv, &v, nv, &map, nf + 2, &fptr, 2 * nfv + maxv, &fvert));
  PetscCall(PetscMalloc5(nf + 1, &fsurf, maxv, &ring, maxv, &ang, maxv, &perm, nfv, &edge));
  for (PetscInt i = 0; i < nv; i++) {
    map[i] = -1;
    if (sign * s[i] <= eps) {
      map[i] = nnv;
      MbV3Copy(&p->v[3 * i], &v[3 * nnv]);
      if (PetscAbsReal(s[i]) <= eps) ring[nk++] = nnv;
      nnv++;
    }
  }
  fptr[0] = 0;
  for (PetscInt f = 0; f < nf; f++) {
    PetscInt k0 = p->fptr[f], k1 = p->fptr[f + 1];
    for (PetscInt k = k0; k < k1; k++) {
      PetscInt  a = p->fvert[k], b = p->fvert[k + 1 < k1 ? k + 1 : k0];
      PetscReal sa = sign * s[a], sb = sign * s[b];
      if (sa <= eps) fvert[nw++] = map[a];
      if ((sa < -eps && sb > eps) || (sa > eps && sb < -eps)) { /* the edge crosses the plane */
        PetscInt id = CutEdgeFind(ne, edge, a, b);
        if (id < 0) { /* x = va + τ(vb − va), τ = sa/(sa − sb), from the lower index: both faces agree */
          PetscInt  lo = PetscMin(a, b), hi = PetscMax(a, b);
          PetscReal tau = s[lo] / (s[lo] - s[hi]), e[3];
          MbV3Sub(&p->v[3 * hi], &p->v[3 * lo], e);
          MbV3Axpy(tau, e, &p->v[3 * lo], &v[3 * nnv]);
          edge[ne].a  = lo;
          edge[ne].b  = hi;
          edge[ne].id = id = nnv++;
          ne++;
          ring[nk++] = id;
        }
        fvert[nw++] = id;
      }
    }
    if (nw - fptr[nnf] >= 3) { /* a face touching the plane at an edge or a vertex only goes */
      fsurf[nnf]  = p->fsurf[f];
      fptr[++nnf] = nw;
    } else
      nw = fptr[nnf];
  }
  PetscCheck(nk >= 3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "SPLIT: the section of a convex piece has %" PetscInt_FMT " vertices (at least 3 expected)", nk);
  /* the cut face: a basis (u, w) of the plane with u × w = m, angles about the centroid */
  for (PetscInt k = 0; k < nk; k++) MbV3Axpy(1.0 / nk, &v[3 * ring[k]], c, c);
  MbV3Set(t, PetscAbsReal(m[0]) < 0.9 ? 1 : 0, PetscAbsReal(m[0]) < 0.9 ? 0 : 1, 0);
  MbV3Cross(m, t, u);
  MbV3Scale(1.0 / MbV3Norm(u), u, u);
  MbV3Cross(m, u, w);
  for (PetscInt k = 0; k < nk; k++) {
    MbV3Sub(&v[3 * ring[k]], c, t);
    ang[k]  = atan2(MbV3Dot(t, w), MbV3Dot(t, u));
    perm[k] = k;
  }
  PetscCall(PetscSortRealWithPermutation(nk, ang, perm));
  for (PetscInt k = 0; k < nk; k++) fvert[nw++] = ring[perm[k]];
  fsurf[nnf]  = cutsurf;
  fptr[++nnf] = nw;
  PetscCall(MbShapeAddConvex(out, nnv, v, nnf, fptr, fvert, fsurf, p->volid));
  PetscCall(PetscFree4(v, map, fptr, fvert));
  PetscCall(PetscFree5(fsurf, ring, ang, perm, edge));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Append a copy of primitive q to out. */
static PetscErrorCode PrimCopy(const MbPrim *q, MbShape out)
{
  PetscFunctionBegin;
  if (q->kind == MB_PRIM_SPHERE)
    PetscCall(MbShapeAddSphere(out, q->c, q->r, q->volid, q->surfid));
  else
    PetscCall(MbShapeAddConvex(out, q->nv, q->v, q->nf, q->fptr, q->fvert, q->fsurf, q->volid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeSplit(MbShape shape, const PetscReal point[3], const PetscReal normal[3], const PetscInt surfid[2], PetscReal eps, MbShape *below, MbShape *above)
{
  PetscReal n[3], len = MbV3Norm(normal);
  MbShape   part[2] = {NULL, NULL};
  PetscFunctionBegin;
  PetscCheck(len > 0 && isfinite(len), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "SPLIT: the plane's normal (%g, %g, %g) must be non-zero and finite", (double)normal[0], (double)normal[1], (double)normal[2]);
  PetscCheck(isfinite(point[0]) && isfinite(point[1]) && isfinite(point[2]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "SPLIT: the plane's point (%g, %g, %g) must be finite", (double)point[0], (double)point[1], (double)point[2]);
  PetscCheck(eps >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "SPLIT: the geometric tolerance %g must be >= 0", (double)eps);
  MbV3Scale(1.0 / len, normal, n);
  PetscCall(MbShapeCreate(&part[0]));
  PetscCall(MbShapeCreate(&part[1]));
  for (PetscInt i = 0; i < shape->n; i++) {
    const MbPrim *q = &shape->prim[i];
    PetscReal     d[3], lo = PETSC_MAX_REAL, hi = -PETSC_MAX_REAL, *s;
    if (q->kind == MB_PRIM_SPHERE) {
      MbV3Sub(q->c, point, d);
      lo = MbV3Dot(d, n) - q->r;
      hi = lo + 2 * q->r;
      PetscCheck(lo >= -eps || hi <= eps, PETSC_COMM_SELF, PETSC_ERR_SUP, "SPLIT: the plane cuts the sphere of centre (%g, %g, %g) and radius %g (piece %" PetscInt_FMT "): moreau splits convex pieces only", (double)q->c[0], (double)q->c[1],
                 (double)q->c[2], (double)q->r, i);
      PetscCall(PrimCopy(q, part[hi <= eps ? 0 : 1]));
      continue;
    }
    PetscCall(PetscMalloc1(q->nv, &s));
    for (PetscInt k = 0; k < q->nv; k++) {
      MbV3Sub(&q->v[3 * k], point, d);
      s[k] = MbV3Dot(d, n);
      lo   = PetscMin(lo, s[k]);
      hi   = PetscMax(hi, s[k]);
    }
    if (hi <= eps) /* wholly below (or on) the plane */
      PetscCall(PrimCopy(q, part[0]));
    else if (lo >= -eps)
      PetscCall(PrimCopy(q, part[1]));
    else {
      PetscCall(ConvexHalf(q, s, 1.0, n, eps, surfid[0], part[0]));
      PetscCall(ConvexHalf(q, s, -1.0, n, eps, surfid[1], part[1]));
    }
    PetscCall(PetscFree(s));
  }
  for (int k = 0; k < 2; k++)
    if (part[k]->n == 0) PetscCall(MbShapeDestroy(&part[k]));
  *below = part[0];
  *above = part[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}
