/* Sphere against a convex polyhedron in closed form: the signed distance from the centre
   to the polyhedron and its closest surface point (Ericson 2005, 5.1.2 and 5.1.9: closest
   point on a plane, on a segment; the face is a convex polygon, so the closest point of a
   face is the projection when that lies inside, else the closest point of its edges). */
#include "contactimpl.h"

/* Closest point q of face f of P to x. */
static void FaceClosestPoint(const MbPoly *P, PetscInt f, const PetscReal x[3], PetscReal q[3])
{
  const MbGeomPrim *g    = P->g;
  const PetscReal  *n    = &P->n[3 * f];
  const PetscInt   *loop = &g->fvert[g->fptr[f]], m = g->fptr[f + 1] - g->fptr[f];
  PetscReal         p[3], best                      = PETSC_MAX_REAL;
  PetscBool         inside = PETSC_TRUE;
  MbV3Axpy(-(MbV3Dot(n, x) - P->d[f]), n, x, p); /* projection onto the face plane */
  MbV3Copy(p, q);
  for (PetscInt k = 0; k < m && inside; k++) {
    const PetscReal *a = &g->v[3 * loop[k]], *b = &g->v[3 * loop[(k + 1) % m]];
    PetscReal        e[3], side[3], r[3];
    MbV3Sub(b, a, e);
    MbV3Cross(e, n, side); /* points out of the face across edge k (counter-clockwise loop) */
    MbV3Sub(p, a, r);
    if (MbV3Dot(side, r) > 0) inside = PETSC_FALSE;
  }
  if (inside) {
    MbV3Copy(p, q);
    return;
  }
  for (PetscInt k = 0; k < m; k++) { /* |x − y|² = |x − p|² + |p − y|² for y in the plane */
    const PetscReal *a = &g->v[3 * loop[k]], *b = &g->v[3 * loop[(k + 1) % m]];
    PetscReal        e[3], r[3], y[3], ee, t;
    MbV3Sub(b, a, e);
    MbV3Sub(p, a, r);
    ee = MbV3Dot(e, e);
    t  = ee > 0 ? PetscClipInterval(MbV3Dot(r, e) / ee, 0.0, 1.0) : 0.0;
    MbV3Axpy(t, e, a, y);
    MbV3Sub(p, y, r);
    if (MbV3Dot(r, r) < best) {
      best = MbV3Dot(r, r);
      MbV3Copy(y, q);
    }
  }
}

/* Signed distance *s from x to P (negative inside), the closest surface point q, the unit
   normal nrm out of P at q (towards x when x is outside) and the face that holds q. Of the
   faces meeting at an edge or a vertex closest to x, the one facing x most squarely. */
static void ConvexClosestPoint(const MbPoly *P, const PetscReal x[3], PetscReal tol, PetscReal q[3], PetscReal nrm[3], PetscReal *s, PetscInt *face)
{
  const MbGeomPrim *g    = P->g;
  PetscInt          fmax = 0, fbest = -1;
  PetscReal         dmax = -PETSC_MAX_REAL, best = PETSC_MAX_REAL, r[3], dist;
  MbV3Copy(x, q);
  for (PetscInt f = 0; f < g->nf; f++) {
    PetscReal df = MbV3Dot(&P->n[3 * f], x) - P->d[f];
    if (df > dmax) {
      dmax = df;
      fmax = f;
    }
  }
  if (dmax <= 0) { /* inside: by convexity the nearest face plane holds the nearest surface point */
    MbV3Copy(&P->n[3 * fmax], nrm);
    MbV3Axpy(-dmax, nrm, x, q);
    *s    = dmax;
    *face = fmax;
    return;
  }
  /* outside: the closest point lies on a face whose plane has x in front */
  for (PetscInt f = 0; f < g->nf; f++) {
    PetscReal df = MbV3Dot(&P->n[3 * f], x) - P->d[f], y[3], dy;
    if (df <= 0) continue;
    FaceClosestPoint(P, f, x, y);
    MbV3Sub(x, y, r);
    dy = MbV3Norm(r);
    /* a tie (within tol) is the same edge or vertex: keep the face with the larger plane
       distance, i.e. the normal closest to the direction towards x */
    if (dy < best - tol || (dy <= best + tol && df > MbV3Dot(&P->n[3 * fbest], x) - P->d[fbest])) {
      best  = dy;
      fbest = f;
      MbV3Copy(y, q);
    }
  }
  MbV3Sub(x, q, r);
  dist = MbV3Norm(r);
  if (dist > tol)
    MbV3Scale(1.0 / dist, r, nrm);
  else
    MbV3Copy(&P->n[3 * fbest], nrm); /* x on the surface: the direction is ill-defined */
  *s    = dist;
  *face = fbest;
}

PetscErrorCode MbCollideSphereConvex(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscReal eps, PetscInt *n, MbContactPoint pts[])
{
  const PetscBool   sa = (PetscBool)(a->kind == MB_PRIM_SPHERE);
  const MbGeomPrim *S = sa ? a : b, *C = sa ? b : a;
  MbPoly            P;
  PetscReal         q[3], nrm[3], s, ps[3];
  PetscInt          f;
  PetscFunctionBegin;
  *n = 0;
  PetscCall(MbPolySetUp(C, PETSC_FALSE, &P));
  ConvexClosestPoint(&P, S->c, eps * P.size, q, nrm, &s, &f);
  if (s - S->r < margin) {
    MbContactPoint *c = &pts[0];
    MbV3Axpy(-S->r, nrm, S->c, ps); /* the sphere's surface point along the normal */
    MbV3Add(q, ps, c->point);
    MbV3Scale(0.5, c->point, c->point);
    MbV3Scale(sa ? -1.0 : 1.0, nrm, c->normal); /* nrm points from the convex to the sphere */
    c->gap              = s - S->r;
    c->surf[sa ? 0 : 1] = S->surfid;
    c->surf[sa ? 1 : 0] = MbPolyFaceSurf(C, f);
    c->feature          = 0;
    *n                  = 1;
  }
  PetscCall(MbPolyDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}
