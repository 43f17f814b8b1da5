/* Bending a mesh about an axis (Solfec-1.0's BEND, behaviour read from its lng.c and
   manual; the map below is written out here from that description).

   Let p be a point of the axis and d its unit direction, P(x) = p + ((x − p)·d) d the
   projection on the axis and ρ(x) = x − P(x) the radial vector. Let c be the mesh node
   closest to the axis (the first one in node order on a tie), r₀ = |ρ(c)| > 0, and
   v = d × ρ(c) / |d × ρ(c)| the direction in which the bend angle grows (right-hand rule
   about d). A node x with arc coordinate s = v·ρ(x) ≤ 0 stays. A node with s > 0 has the
   in-plane radial part ρ' = ρ(x) − s v, r = |ρ'|, and the bend angle α = s / r₀: the arc
   length is measured on the innermost fibre, so every section s = const stays plane and
   the map's Jacobian is r / r₀ (the volume grows by the mean r / r₀ of the bent part).
     α ≤ θ:  x' = P(x) + cos α ρ' + r sin α v                       (on the arc)
     α > θ:  x' = P(x) + cos θ ρ' + r sin θ v + (s − θ r₀) u,
             u = −sin θ ρ'/r + cos θ v                            (straight on, tangent)
   so the part beyond the angle θ moves rigidly. The bent elements are rebuilt from the
   moved nodes (their faces, surface and volume ids kept), which rejects an element the
   map folds (a mesh lying on both sides of the axis). */
#include <math.h>
#include <stdio.h>
#include <moreau/mbmath.h>
#include "shapeimpl.h"

/* Does the line p + t d (d unit) run through convex primitive q, its boundary included (as
   Solfec, which finds the axis' point nearest an element's centre inside the element): an
   axis in an inner face or along an edge is in the mesh. Cyrus–Beck clipping against the
   faces' outward half-spaces (Newell normals, face centroids) moved out by tol; a line that
   only crosses an edge or a vertex (an interval shorter than 100 tol) does not. */
static PetscBool LineStabsConvex(const MbPrim *q, const PetscReal p[3], const PetscReal d[3], PetscReal tol)
{
  PetscReal t0 = -PETSC_MAX_REAL, t1 = PETSC_MAX_REAL;
  for (PetscInt f = 0; f < q->nf; f++) {
    PetscInt  n      = q->fptr[f + 1] - q->fptr[f];
    PetscReal nrm[3] = {0, 0, 0}, fc[3] = {0, 0, 0}, w[3], a, b, len;
    for (PetscInt k = 0; k < n; k++) {
      const PetscReal *x = &q->v[3 * q->fvert[q->fptr[f] + k]], *y = &q->v[3 * q->fvert[q->fptr[f] + (k + 1) % n]];
      nrm[0] += (x[1] - y[1]) * (x[2] + y[2]);
      nrm[1] += (x[2] - y[2]) * (x[0] + y[0]);
      nrm[2] += (x[0] - y[0]) * (x[1] + y[1]);
      MbV3Axpy(1.0 / n, x, fc, fc);
    }
    len = MbV3Norm(nrm);
    if (len == 0) continue;
    MbV3Scale(1.0 / len, nrm, nrm);
    MbV3Sub(p, fc, w);
    a = MbV3Dot(nrm, w) - tol; /* signed distance of p outside the face moved out by tol */
    b = MbV3Dot(nrm, d);
    if (b == 0) {
      if (a > 0) return PETSC_FALSE; /* parallel and outside */
    } else if (b > 0)
      t1 = PetscMin(t1, -a / b);
    else
      t0 = PetscMax(t0, -a / b);
    if (t1 - t0 <= 100 * tol) return PETSC_FALSE;
  }
  return PETSC_TRUE;
}

/* (x, y, z) with C's %g (PETSc's own printf writes 0 as "0."), for messages */
static const char *V3(const PetscReal x[3], char buf[96])
{
  snprintf(buf, 96, "(%g, %g, %g)", (double)x[0], (double)x[1], (double)x[2]);
  return buf;
}

/* The error handler that keeps the first message of an error (to prefix it). */
static PetscErrorCode KeepMessage(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL) (void)PetscSNPrintf((char *)ctx, 256, "%s", mess && mess[0] ? mess : "unknown error");
  return n;
}

PetscErrorCode MbShapeBend(MbShape s, const PetscReal point[3], const PetscReal dir[3], PetscReal angle)
{
  MbMesh   *m = s->mesh;
  MbShape   t;
  PetscReal d[3], lo[3], hi[3], size = 0, r0 = PETSC_MAX_REAL, e[3] = {0, 0, 0}, v[3], *X;
  PetscInt  c = -1, far = -1;
  char      axis[256], b1[96], b2[96];
  PetscFunctionBegin;
  PetscCheck(m, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "the shape has no mesh: only a MESH (or HEX, PIPE) can be bent");
  snprintf(b1, sizeof(b1), "%g", (double)angle);
  PetscCheck(isfinite(angle) && angle > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "angle must be positive, got %s rad", b1);
  snprintf(axis, sizeof(axis), "the axis through point %s along direction %s", V3(point, b1), V3(dir, b2));
  for (int k = 0; k < 3; k++) PetscCheck(isfinite(point[k]) && isfinite(dir[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s: point and direction must be finite", axis);
  PetscCheck(MbV3Norm(dir) > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "direction must be non-zero, got %s", V3(dir, b2));
  MbV3Scale(1.0 / MbV3Norm(dir), dir, d);
  PetscCall(MbShapeGetBox(s, lo, hi));
  for (int k = 0; k < 3; k++) size = PetscMax(size, hi[k] - lo[k]);

  /* Solfec refuses an axis that passes through the mesh ("stabbing" it) */
  for (PetscInt i = 0; i < s->n; i++) PetscCheck(!LineStabsConvex(&s->prim[i], point, d, 1e-10 * size), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s passes through the mesh (element %" PetscInt_FMT "): the axis must lie outside the mesh", axis, i);

  for (PetscInt k = 0; k < m->nn; k++) { /* the node closest to the axis: the innermost fibre */
    PetscReal w[3], r;
    MbV3Sub(&m->X[3 * k], point, w);
    MbV3Axpy(-MbV3Dot(w, d), d, w, w);
    r = MbV3Norm(w);
    if (r < r0) {
      r0 = r;
      c  = k;
      MbV3Copy(w, e);
    }
  }
  snprintf(b2, sizeof(b2), "%g", (double)r0);
  PetscCheck(r0 > 1e-10 * size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "mesh node %" PetscInt_FMT " at %s lies on %s (distance %s): the bending radius would be zero", c, V3(&m->X[3 * c], b1), axis, b2);
  MbV3Cross(d, e, v);
  MbV3Scale(1.0 / MbV3Norm(v), v, v);

  PetscCall(PetscMalloc1(3 * m->nn, &X));
  for (PetscInt k = 0; k < m->nn; k++) {
    const PetscReal *x = &m->X[3 * k];
    PetscReal        w[3], P[3], arc, r, a, *y = &X[3 * k];
    MbV3Sub(x, point, w);
    MbV3Axpy(MbV3Dot(w, d), d, point, P); /* P(x) */
    MbV3Sub(x, P, w);                     /* ρ(x) */
    arc = MbV3Dot(v, w);
    if (arc <= 0) {
      MbV3Copy(x, y);
      continue;
    }
    MbV3Axpy(-arc, v, w, w); /* ρ' */
    r = MbV3Norm(w);
    /* ρ' ∥ e; against e (or zero) the map would mirror the node's neighbourhood (or put it on
       the axis): the mesh would fold over itself */
    if (!(MbV3Dot(w, e) > 1e-10 * size * r0)) {
      far = k;
      break;
    }
    a = PetscMin(arc / r0, angle);
    for (int j = 0; j < 3; j++) y[j] = P[j] + cos(a) * w[j] + r * sin(a) * v[j];
    if (arc / r0 > angle) { /* beyond the angle: straight on along the arc's tangent */
      PetscReal u[3];       /* r > 0 (checked above) */
      for (int j = 0; j < 3; j++) u[j] = -sin(angle) * w[j] / r + cos(angle) * v[j];
      MbV3Axpy(arc - angle * r0, u, y, y);
    }
  }

  if (far >= 0) {
    const PetscReal *x = &m->X[3 * far];
    PetscCall(PetscFree(X));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
            "mesh node %" PetscInt_FMT " at %s, where the bend would turn it, is on the other side of %s than node %" PetscInt_FMT ", the nearest (or level with the axis): the bent mesh would fold over itself", far, V3(x, b1), axis, c);
  }

  /* rebuild the elements from the moved nodes, keeping their surface and volume ids */
  PetscCall(MbShapeCreate(&t));
  for (PetscInt i = 0; i < m->ne; i++) {
    PetscInt       nv = m->eptr[i + 1] - m->eptr[i];
    PetscReal      cell[24];
    char           msg[256];
    PetscErrorCode ierr;
    for (PetscInt a = 0; a < nv; a++) MbV3Copy(&X[3 * m->enode[m->eptr[i] + a]], &cell[3 * a]);
    msg[0] = 0;
    PetscCall(PetscPushErrorHandler(KeepMessage, msg));
    ierr = MbShapeAddElement(t, nv, cell, s->prim[i].fsurf, s->prim[i].volid);
    PetscCall(PetscPopErrorHandler());
    if (ierr) {
      PetscCall(PetscFree(X));
      PetscCall(MbShapeDestroy(&t));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "bent element %" PetscInt_FMT " is not sound (the bend folded it): %s", i, msg);
    }
  }
  PetscCall(MbShapeSetMesh(t, m->nn, X, m->ne, m->eptr, m->enode));
  PetscCall(PetscFree(X));
  { /* the bent shape takes the place of the old one */
    struct _p_MbShape tmp = *s;
    *s                    = *t;
    *t                    = tmp;
  }
  PetscCall(MbShapeDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}
