/* Contact polygons: Sutherland–Hodgman clipping of the incident face to the reference
   face (Sutherland & Hodgman 1974, "Reentrant polygon clipping"; Ericson 2005, 8.3.4) and
   the choice of at most four points that keep the area of contact (a box resting on a
   face gets its corners, whatever the number of clipped vertices). */
#include "contactimpl.h"

/* Keep the part of poly[0..m) where side·x <= o; label names the clipping line. A vertex
   within tol outside still counts as inside and stays where it is (a face flush with the
   side, as for equal boxes stacked, keeps its corners); an edge that crosses the band is
   cut on the line itself. A convex polygon gains at most one vertex; cap bounds what
   round-off on a nearly collinear chain could add beyond that. */
static PetscErrorCode ClipHalfSpace(PetscInt m, const MbClipVertex in[], const PetscReal side[3], PetscReal o, PetscReal tol, PetscInt label, PetscInt cap, PetscInt *nout, MbClipVertex out[])
{
  PetscInt k = 0;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < m; i++) {
    const MbClipVertex *p = &in[i], *q = &in[(i + 1) % m];
    PetscReal           dp = MbV3Dot(side, p->x) - o, dq = MbV3Dot(side, q->x) - o;
    PetscBool           pin = (PetscBool)(dp <= tol), qin = (PetscBool)(dq <= tol);
    if (pin) {
      PetscCheck(k < cap, PETSC_COMM_SELF, PETSC_ERR_PLIB, "polygon clipping: more than %" PetscInt_FMT " vertices from %" PetscInt_FMT, cap, m);
      out[k++] = *p;
    }
    /* the edge p→q (label p->eout) crosses the line strictly inside it */
    if (pin != qin && (pin ? dp < 0 : dq < 0)) {
      MbClipVertex *c = &out[k];
      PetscReal     t = dp / (dp - dq), e[3];
      PetscCheck(k < cap, PETSC_COMM_SELF, PETSC_ERR_PLIB, "polygon clipping: more than %" PetscInt_FMT " vertices from %" PetscInt_FMT, cap, m);
      MbV3Sub(q->x, p->x, e);
      MbV3Axpy(t, e, p->x, c->x);
      c->ein  = pin ? p->eout : label; /* leaving: along the edge, then the line */
      c->eout = pin ? label : p->eout; /* entering: along the line, then the edge */
      k++;
    }
  }
  *nout = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbClipPolygonToFace(PetscInt npoly, const MbClipVertex poly[], PetscInt nref, const PetscReal ref[], const PetscReal nrm[3], PetscInt label0, PetscReal tol, PetscInt *nout, MbClipVertex **out)
{
  PetscInt      cap = 2 * (npoly + nref), m = npoly, cur = 0;
  MbClipVertex *buf;
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(2 * cap, &buf));
  PetscCall(PetscArraycpy(buf, poly, npoly));
  for (PetscInt k = 0; k < nref && m > 0; k++) {
    const PetscReal *a = &ref[3 * k], *b = &ref[3 * ((k + 1) % nref)];
    PetscReal        e[3], side[3], len;
    MbV3Sub(b, a, e);
    MbV3Cross(e, nrm, side); /* outward in the face's plane for a counter-clockwise loop */
    len = MbV3Norm(side);
    if (len == 0) continue; /* repeated vertex: no side */
    MbV3Scale(1.0 / len, side, side);
    PetscCall(ClipHalfSpace(m, buf + cur * cap, side, MbV3Dot(side, a), tol, label0 + k, cap, &m, buf + (1 - cur) * cap));
    cur = 1 - cur;
  }
  if (cur) PetscCall(PetscArraycpy(buf, buf + cap, m));
  *nout = m;
  *out  = buf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* twice the area of the triangle (p, q, x) seen along nrm, positive counter-clockwise */
static PetscReal Area2(const PetscReal p[3], const PetscReal q[3], const PetscReal x[3], const PetscReal nrm[3])
{
  PetscReal a[3], b[3], c[3];
  MbV3Sub(q, p, a);
  MbV3Sub(x, p, b);
  MbV3Cross(a, b, c);
  return MbV3Dot(c, nrm);
}

PetscInt MbContactReduce(PetscInt m, const PetscReal x[], const PetscReal depth[], const PetscReal nrm[3], PetscInt keep[MB_MAX_CONTACT_POINTS])
{
  PetscInt  nk = 0;
  PetscReal best;
  if (m <= MB_MAX_CONTACT_POINTS) {
    for (PetscInt k = 0; k < m; k++) keep[k] = k;
    return m;
  }
  /* the deepest point */
  keep[0] = 0;
  for (PetscInt k = 1; k < m; k++)
    if (depth[k] < depth[keep[0]]) keep[0] = k;
  nk = 1;
  /* the farthest from it */
  best = -1;
  for (PetscInt k = 0; k < m; k++) {
    PetscReal e[3], d2;
    MbV3Sub(&x[3 * k], &x[3 * keep[0]], e);
    d2 = MbV3Dot(e, e);
    if (d2 > best) {
      best    = d2;
      keep[1] = k;
    }
  }
  if (best <= 0) return nk; /* all points coincide */
  nk = 2;
  /* the largest triangle with those two */
  best = 0;
  for (PetscInt k = 0; k < m; k++) {
    PetscReal a = PetscAbsReal(Area2(&x[3 * keep[0]], &x[3 * keep[1]], &x[3 * k], nrm));
    if (a > best) {
      best    = a;
      keep[2] = k;
    }
  }
  if (best > 0) {
    PetscInt t[3] = {keep[0], keep[1], keep[2]};
    nk            = 3;
    if (Area2(&x[3 * t[0]], &x[3 * t[1]], &x[3 * t[2]], nrm) < 0) { /* make (t0, t1, t2) counter-clockwise */
      t[1] = keep[2];
      t[2] = keep[1];
    }
    /* the one adding the most area: farthest outside one side of the triangle */
    best = 0;
    for (PetscInt k = 0; k < m; k++) {
      PetscReal out = 0;
      for (int s = 0; s < 3; s++) out = PetscMax(out, -Area2(&x[3 * t[s]], &x[3 * t[(s + 1) % 3]], &x[3 * k], nrm));
      if (out > best) {
        best    = out;
        keep[3] = k;
      }
    }
    if (best > 0) nk = 4;
  }
  /* in the polygon's order */
  for (PetscInt i = 1; i < nk; i++)
    for (PetscInt j = i; j > 0 && keep[j] < keep[j - 1]; j--) {
      PetscInt t  = keep[j];
      keep[j]     = keep[j - 1];
      keep[j - 1] = t;
    }
  return nk;
}
