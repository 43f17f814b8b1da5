/* Convex polyhedra by the separating axis theorem (Gottschalk, Lin & Manocha 1996, "OBBTree";
   Ericson 2005, 5.2.1): two convex polyhedra are disjoint exactly when they are separated
   along a face normal of either or along the cross product of an edge of each. When they
   overlap, the candidate axis of largest separation (least penetration) gives the normal
   and the depth, since the faces of the Minkowski difference B − A are exactly those axes.

   Only edge pairs that make a face of B − A are candidates: the arcs of the two edges on
   the Gauss map (between the normals of their faces, B's negated) cross (Gregorius, "The
   separating axis test between convex polyhedra", GDC 2013). That skips most pairs, and
   for a pair that passes the support points are the edges themselves, so its separation is
   one dot product.

   The contact points: for a face axis, the face of the other body most anti-parallel to it
   (the incident face) is clipped to the reference face's prism, and the clipped vertices
   below the reference plane + margin, at most four, are the points. For an edge axis, one
   point midway between the closest points of the two edges. Face axes win near-ties (within
   eps × size), A's faces over B's, so that a box resting on a box keeps its face contact. */
#include "contactimpl.h"

/* The largest over P's faces of the separation of Q from the face plane (the least
   n_f·v − d_f over Q's vertices); stops at a face whose separation reaches margin. */
static void FaceAxes(const MbPoly *P, const MbPoly *Q, PetscReal margin, PetscReal *smax, PetscInt *fmax)
{
  *smax = -PETSC_MAX_REAL;
  *fmax = -1;
  for (PetscInt f = 0; f < P->g->nf && *smax < margin; f++) {
    PetscReal s = PETSC_MAX_REAL;
    for (PetscInt k = 0; k < Q->g->nv; k++) s = PetscMin(s, MbV3Dot(&P->n[3 * f], &Q->g->v[3 * k]));
    s -= P->d[f];
    if (s > *smax) {
      *smax = s;
      *fmax = f;
    }
  }
}

/* The arcs a–b and c–d on the unit sphere cross (c, d already negated for B): c and d on
   either side of the plane of a, b; a and b on either side of the plane of c, d; and the
   crossing on the same hemisphere for both (not at the antipode). */
static PetscBool ArcsCross(const PetscReal a[3], const PetscReal b[3], const PetscReal c[3], const PetscReal d[3])
{
  PetscReal bxa[3], dxc[3], cba, dba, adc, bdc;
  MbV3Cross(b, a, bxa);
  MbV3Cross(d, c, dxc);
  cba = MbV3Dot(c, bxa);
  dba = MbV3Dot(d, bxa);
  adc = MbV3Dot(a, dxc);
  bdc = MbV3Dot(b, dxc);
  return (PetscBool)(cba * dba < 0 && adc * bdc < 0 && cba * bdc > 0);
}

/* The largest separation over the edge pairs that make faces of B − A: axis m = u × w
   oriented out of A, separation m·(p_B − p_A). Pairs with |u × w| <= par |u||w| are
   parallel edges, whose axis is a face normal already tested. */
static void EdgeAxes(const MbPoly *A, const MbPoly *B, PetscReal margin, PetscReal par, PetscReal *smax, PetscInt *ea, PetscInt *eb, PetscReal axis[3])
{
  *smax = -PETSC_MAX_REAL;
  *ea = *eb = -1;
  for (PetscInt i = 0; i < A->ne && *smax < margin; i++) {
    const PetscInt  *E  = &A->edge[4 * i];
    const PetscReal *pa = &A->g->v[3 * E[0]], *a = &A->n[3 * E[2]], *b = &A->n[3 * E[3]];
    PetscReal        u[3], uu, r[3];
    MbV3Sub(&A->g->v[3 * E[1]], pa, u);
    uu = MbV3Norm(u);
    MbV3Sub(pa, A->c, r);
    for (PetscInt j = 0; j < B->ne; j++) {
      const PetscInt  *F  = &B->edge[4 * j];
      const PetscReal *pb = &B->g->v[3 * F[0]];
      PetscReal        c[3], d[3], w[3], m[3], len, s, t[3];
      MbV3Scale(-1.0, &B->n[3 * F[2]], c);
      MbV3Scale(-1.0, &B->n[3 * F[3]], d);
      if (!ArcsCross(a, b, c, d)) continue;
      MbV3Sub(&B->g->v[3 * F[1]], pb, w);
      MbV3Cross(u, w, m);
      len = MbV3Norm(m);
      if (len <= par * uu * MbV3Norm(w)) continue;
      MbV3Scale(MbV3Dot(m, r) < 0 ? -1.0 / len : 1.0 / len, m, m);
      MbV3Sub(pb, pa, t);
      s = MbV3Dot(m, t);
      if (s > *smax) {
        /* the edges are the support points only where the faces are planar: the faces of a
           deformed finite element are warped, and a pair of nearly parallel edges can then
           pass the arc test with an axis along which the bodies overlap by far more. A
           would-be winner is checked against the full supports (kept when they agree to
           round-off, so planar polyhedra are unchanged). */
        PetscReal smin = PETSC_MAX_REAL, smaxA = -PETSC_MAX_REAL, s2;
        for (PetscInt k = 0; k < B->g->nv; k++) smin = PetscMin(smin, MbV3Dot(m, &B->g->v[3 * k]));
        for (PetscInt k = 0; k < A->g->nv; k++) smaxA = PetscMax(smaxA, MbV3Dot(m, &A->g->v[3 * k]));
        s2 = smin - smaxA;
        if (s2 < s - 1e-9 * (A->size + B->size)) s = s2;
      }
      if (s > *smax) {
        *smax = s;
        *ea   = i;
        *eb   = j;
        MbV3Copy(m, axis);
        if (s >= margin) return;
      }
    }
  }
}

/* Points of contact for the face axis fR of R (A when refA), Q the other body. */
static PetscErrorCode FaceContact(const MbPoly *R, PetscInt fR, const MbPoly *Q, PetscBool refA, PetscReal margin, PetscReal tol, PetscInt *n, MbContactPoint pts[])
{
  const MbGeomPrim *gr = R->g, *gq = Q->g;
  const PetscReal  *nR    = &R->n[3 * fR];
  const PetscInt    mR    = gr->fptr[fR + 1] - gr->fptr[fR];
  PetscInt          vdeep = 0, fI = -1, mI, nc, ncand = 0, keep[MB_MAX_CONTACT_POINTS], nk, base;
  PetscReal         best = PETSC_MAX_REAL, *refx, *cx, *cdepth, area;
  MbClipVertex     *poly, *clip;
  PetscInt         *cand;
  PetscFunctionBegin;
  /* the incident face: of Q's faces at its deepest vertex along −nR (so that the face
     holds the deepest point), the most anti-parallel to nR */
  for (PetscInt k = 1; k < gq->nv; k++)
    if (MbV3Dot(nR, &gq->v[3 * k]) < MbV3Dot(nR, &gq->v[3 * vdeep])) vdeep = k;
  for (PetscInt g = 0; g < gq->nf; g++)
    for (PetscInt k = gq->fptr[g]; k < gq->fptr[g + 1]; k++)
      if (gq->fvert[k] == vdeep && MbV3Dot(&Q->n[3 * g], nR) < best) {
        best = MbV3Dot(&Q->n[3 * g], nR);
        fI   = g;
      }
  PetscCheck(fI >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "convex primitive: vertex %" PetscInt_FMT " lies on no face", vdeep);
  mI = gq->fptr[fI + 1] - gq->fptr[fI];
  PetscCall(PetscMalloc2(mI, &poly, 3 * mR, &refx));
  for (PetscInt k = 0; k < mI; k++) { /* edge k runs from loop vertex k to k + 1 */
    MbV3Copy(&gq->v[3 * gq->fvert[gq->fptr[fI] + k]], poly[k].x);
    poly[k].ein  = (k + mI - 1) % mI;
    poly[k].eout = k;
  }
  for (PetscInt k = 0; k < mR; k++) MbV3Copy(&gr->v[3 * gr->fvert[gr->fptr[fR] + k]], &refx[3 * k]);
  PetscCall(MbClipPolygonToFace(mI, poly, mR, refx, nR, mI, tol, &nc, &clip));
  PetscCall(PetscMalloc3(nc + 1, &cand, 3 * (nc + 1), &cx, nc + 1, &cdepth));
  for (PetscInt k = 0; k < nc; k++) {
    PetscReal depth = MbV3Dot(nR, clip[k].x) - R->d[fR];
    if (depth >= margin) continue;
    cand[ncand] = k;
    MbV3Copy(clip[k].x, &cx[3 * ncand]);
    cdepth[ncand++] = depth;
  }
  if (!ncand) { /* the clipped polygon misses the reference face (a near-miss within margin): the deepest vertex */
    PetscReal depth = MbV3Dot(nR, &gq->v[3 * vdeep]) - R->d[fR];
    if (depth < margin) {
      cand[0] = nc; /* past every clipped vertex: labelled (mI + mR, mI + mR) below */
      MbV3Copy(&gq->v[3 * vdeep], &cx[0]);
      cdepth[0] = depth;
      ncand     = 1;
    }
  }
  /* the area: of the incident face clipped to the reference face (the faces' overlap seen
     along nR), in contact or not yet everywhere: a face tilted onto another touches along a
     line first, and is no sliver for CONTACT_SPARSIFY */
  area = 0;
  for (PetscInt k = 1; k + 1 < nc; k++) {
    PetscReal e1[3], e2[3], x[3];
    MbV3Sub(clip[k].x, clip[0].x, e1);
    MbV3Sub(clip[k + 1].x, clip[0].x, e2);
    MbV3Cross(e1, e2, x);
    area += 0.5 * MbV3Dot(x, nR);
  }
  area = PetscAbsReal(area);
  nk   = MbContactReduce(ncand, cx, cdepth, nR, keep);
  base = PetscMax(PetscMax(gr->nf, gq->nf), mI + mR + 1);
  for (PetscInt i = 0; i < nk; i++) {
    MbContactPoint *c     = &pts[i];
    PetscInt        k     = cand[keep[i]];
    PetscInt        id[5] = {refA ? 0 : 1, fR, fI, k < nc ? clip[k].ein : mI + mR, k < nc ? clip[k].eout : mI + mR};
    MbV3Axpy(-0.5 * cdepth[keep[i]], nR, &cx[3 * keep[i]], c->point); /* halfway to the reference plane */
    MbV3Scale(refA ? 1.0 : -1.0, nR, c->normal);
    c->gap                = cdepth[keep[i]];
    c->surf[refA ? 0 : 1] = MbPolyFaceSurf(gr, fR);
    c->surf[refA ? 1 : 0] = MbPolyFaceSurf(gq, fI);
    c->feature            = MbContactFeatureId(5, id, base);
    c->area               = area;
  }
  *n = nk;
  PetscCall(PetscFree3(cand, cx, cdepth));
  PetscCall(PetscFree(clip));
  PetscCall(PetscFree2(poly, refx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Closest points pa + s u and pb + t w, s, t in [0, 1], of two segments: minimize over s
   the distance to the clamped closest t, by the normal equations of |pa + s u − pb − t w|². */
static void SegmentsClosest(const PetscReal pa[3], const PetscReal u[3], const PetscReal pb[3], const PetscReal w[3], PetscReal xa[3], PetscReal xb[3])
{
  PetscReal r[3], uu = MbV3Dot(u, u), ww = MbV3Dot(w, w), uw = MbV3Dot(u, w), ur, wr, det, s = 0, t = 0;
  MbV3Sub(pa, pb, r);
  ur  = MbV3Dot(u, r);
  wr  = MbV3Dot(w, r);
  det = uu * ww - uw * uw;
  if (det > 0) s = PetscClipInterval((uw * wr - ur * ww) / det, 0.0, 1.0);
  t = ww > 0 ? (uw * s + wr) / ww : 0;
  if (t < 0 || t > 1) { /* t clamped: s is the closest point of segment a to that end */
    t = PetscClipInterval(t, 0.0, 1.0);
    s = uu > 0 ? PetscClipInterval((uw * t - ur) / uu, 0.0, 1.0) : 0;
  }
  MbV3Axpy(s, u, pa, xa);
  MbV3Axpy(t, w, pb, xb);
}

/* One point for the edge axis m (out of A) of edges ea of A and eb of B, separation s. */
static void EdgeContact(const MbPoly *A, PetscInt ea, const MbPoly *B, PetscInt eb, const PetscReal m[3], PetscReal s, PetscInt *n, MbContactPoint pts[])
{
  const PetscInt  *E = &A->edge[4 * ea], *F = &B->edge[4 * eb];
  const PetscReal *pa = &A->g->v[3 * E[0]], *pb = &B->g->v[3 * F[0]];
  PetscReal        u[3], w[3], xa[3], xb[3];
  PetscInt         id[3] = {2, ea, eb}, fa, fb;
  MbContactPoint  *c     = &pts[0];
  MbV3Sub(&A->g->v[3 * E[1]], pa, u);
  MbV3Sub(&B->g->v[3 * F[1]], pb, w);
  SegmentsClosest(pa, u, pb, w, xa, xb);
  MbV3Add(xa, xb, c->point);
  MbV3Scale(0.5, c->point, c->point);
  MbV3Copy(m, c->normal);
  c->gap = s;
  /* the touching face of each edge: the one facing the other body more squarely */
  fa         = MbV3Dot(&A->n[3 * E[2]], m) >= MbV3Dot(&A->n[3 * E[3]], m) ? E[2] : E[3];
  fb         = MbV3Dot(&B->n[3 * F[2]], m) <= MbV3Dot(&B->n[3 * F[3]], m) ? F[2] : F[3];
  c->surf[0] = MbPolyFaceSurf(A->g, fa);
  c->surf[1] = MbPolyFaceSurf(B->g, fb);
  c->feature = MbContactFeatureId(3, id, PetscMax(PetscMax(A->ne, B->ne), 3) + 1);
  c->area    = 0; /* edges cross at a point */
  *n         = 1;
}

PetscErrorCode MbCollideConvexConvex(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscReal eps, PetscInt *n, MbContactPoint pts[])
{
  MbPoly    A, B;
  PetscReal sa, sb = -PETSC_MAX_REAL, se = -PETSC_MAX_REAL, axis[3] = {0, 0, 1}, tol;
  PetscInt  fa, fb = -1, ea = -1, eb = -1;
  PetscFunctionBegin;
  *n = 0;
  PetscCall(MbPolySetUp(a, PETSC_TRUE, &A));
  PetscCall(MbPolySetUp(b, PETSC_TRUE, &B));
  tol = eps * PetscMin(A.size, B.size);
  FaceAxes(&A, &B, margin, &sa, &fa);
  if (sa < margin) FaceAxes(&B, &A, margin, &sb, &fb);
  if (sa < margin && sb < margin) EdgeAxes(&A, &B, margin, PetscMax(eps, 10 * PETSC_MACHINE_EPSILON), &se, &ea, &eb, axis);
  if (sa < margin && sb < margin && se < margin) { /* no separating axis at margin: in contact */
    PetscBool refA = (PetscBool) !(sb > sa + tol);
    PetscReal sf   = refA ? sa : sb;
    if (ea >= 0 && se > sf + tol)
      EdgeContact(&A, ea, &B, eb, axis, se, n, pts);
    else if (refA)
      PetscCall(FaceContact(&A, fa, &B, PETSC_TRUE, margin, tol, n, pts));
    else
      PetscCall(FaceContact(&B, fb, &A, PETSC_FALSE, margin, tol, n, pts));
  }
  PetscCall(MbPolyDestroy(&A));
  PetscCall(MbPolyDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}
