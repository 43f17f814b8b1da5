/* Narrow phase: MbCollide dispatches a pair of primitives by kind; sphere–sphere is here
   (closed form), sphere–convex in sphereconvex.c, convex–convex in convexconvex.c, an
   ellipsoid with anything in ellipsoid.c. Also the
   bounding boxes that feed the broad phase, and the feature ids all pairs share. */
#include "contactimpl.h"

PetscErrorCode MbCollideSphereSphere(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscReal eps, PetscInt *n, MbContactPoint pts[])
{
  PetscReal d[3], dist, nrm[3] = {0, 0, 1}, pa[3], pb[3], gap;
  PetscFunctionBegin;
  *n = 0;
  MbV3Sub(b->c, a->c, d);
  dist = MbV3Norm(d);
  if (dist > eps * (a->r + b->r)) MbV3Scale(1.0 / dist, d, nrm); /* else concentric: any direction will do */
  gap = dist - a->r - b->r;
  if (gap < margin) {
    MbContactPoint *c = &pts[0];
    MbV3Axpy(a->r, nrm, a->c, pa);
    MbV3Axpy(-b->r, nrm, b->c, pb);
    MbV3Add(pa, pb, c->point);
    MbV3Scale(0.5, c->point, c->point);
    MbV3Copy(nrm, c->normal);
    c->gap     = gap;
    c->surf[0] = a->surfid;
    c->surf[1] = b->surfid;
    c->feature = 0;
    *n         = 1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Mixed radix modulo the prime 2³¹ − 1: exact (so readable in a debugger) while the
   number fits, and still deterministic when it does not. */
PetscInt MbContactFeatureId(PetscInt nidx, const PetscInt idx[], PetscInt base)
{
  const PetscInt64 p   = 2147483647;
  PetscInt64       key = 0;
  for (PetscInt k = 0; k < nidx; k++) key = (key * base + idx[k]) % p;
  return (PetscInt)key;
}

static PetscErrorCode CheckPrim(const MbGeomPrim *p, const char *which)
{
  PetscFunctionBegin;
  PetscCheck(p->kind == MB_PRIM_SPHERE || p->kind == MB_PRIM_CONVEX || p->kind == MB_PRIM_ELLIPSOID, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "primitive %s has kind %d; expected %d (sphere), %d (convex) or %d (ellipsoid)", which, (int)p->kind,
             (int)MB_PRIM_SPHERE, (int)MB_PRIM_CONVEX, (int)MB_PRIM_ELLIPSOID);
  if (p->kind == MB_PRIM_ELLIPSOID)
    PetscCheck(p->v && p->v[9] > 0 && p->v[10] > 0 && p->v[11] > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ellipsoid %s has semi-axes (%g, %g, %g); expected > 0 (set by MbGeomEllipsoidSet)", which, p->v ? (double)p->v[9] : 0.0,
               p->v ? (double)p->v[10] : 0.0, p->v ? (double)p->v[11] : 0.0);
  else if (p->kind == MB_PRIM_SPHERE)
    PetscCheck(p->r > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "sphere %s has radius %g; expected > 0", which, (double)p->r);
  else
    PetscCheck(p->nv >= 4 && p->nf >= 4 && p->v && p->fptr && p->fvert, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
               "convex primitive %s has %" PetscInt_FMT " vertices and %" PetscInt_FMT " faces (arrays %s); expected at least 4 of each and the arrays set", which, p->nv, p->nf, p->v && p->fptr && p->fvert ? "set" : "missing");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbCollide(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscReal eps, PetscInt *n, MbContactPoint pts[MB_MAX_CONTACT_POINTS])
{
  PetscFunctionBegin;
  PetscCheck(a && b && n && pts, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "MbCollide: a, b, n and pts must not be NULL");
  PetscCheck(margin >= 0 && !PetscIsInfOrNanReal(margin), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "contact margin %g must be finite and >= 0", (double)margin);
  PetscCheck(eps >= 0 && eps < 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "geometric epsilon %g must lie in [0, 1)", (double)eps);
  PetscCall(CheckPrim(a, "a"));
  PetscCall(CheckPrim(b, "b"));
  if (a->kind == MB_PRIM_ELLIPSOID || b->kind == MB_PRIM_ELLIPSOID)
    PetscCall(MbCollideEllipsoid(a, b, margin, eps, n, pts));
  else if (a->kind == MB_PRIM_SPHERE && b->kind == MB_PRIM_SPHERE)
    PetscCall(MbCollideSphereSphere(a, b, margin, eps, n, pts));
  else if (a->kind == MB_PRIM_SPHERE || b->kind == MB_PRIM_SPHERE)
    PetscCall(MbCollideSphereConvex(a, b, margin, eps, n, pts));
  else
    PetscCall(MbCollideConvexConvex(a, b, margin, eps, n, pts));
  if (a->kind != MB_PRIM_CONVEX || b->kind != MB_PRIM_CONVEX) /* Solfec-1.0 gives a contact with a sphere or an ellipsoid the area 1 */
    for (PetscInt k = 0; k < *n; k++) pts[k].area = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbGeomPrimBox(const MbGeomPrim *p, PetscReal margin, MbBox *box)
{
  PetscFunctionBegin;
  PetscCall(CheckPrim(p, "p"));
  PetscCheck(margin >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "box margin %g must be >= 0", (double)margin);
  if (p->kind == MB_PRIM_SPHERE)
    for (int d = 0; d < 3; d++) {
      box->lo[d] = p->c[d] - p->r - margin;
      box->hi[d] = p->c[d] + p->r + margin;
    }
  else if (p->kind == MB_PRIM_ELLIPSOID)
    for (int d = 0; d < 3; d++) { /* half-width along d: |row d of R A| */
      const PetscReal *R = p->v, *a = &p->v[9];
      PetscReal        w = PetscSqrtReal(PetscSqr(R[3 * d] * a[0]) + PetscSqr(R[3 * d + 1] * a[1]) + PetscSqr(R[3 * d + 2] * a[2]));
      box->lo[d]         = p->c[d] - w - margin;
      box->hi[d]         = p->c[d] + w + margin;
    }
  else {
    for (int d = 0; d < 3; d++) box->lo[d] = box->hi[d] = p->v[d];
    for (PetscInt k = 1; k < p->nv; k++)
      for (int d = 0; d < 3; d++) {
        box->lo[d] = PetscMin(box->lo[d], p->v[3 * k + d]);
        box->hi[d] = PetscMax(box->hi[d], p->v[3 * k + d]);
      }
    for (int d = 0; d < 3; d++) {
      box->lo[d] -= margin;
      box->hi[d] += margin;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
