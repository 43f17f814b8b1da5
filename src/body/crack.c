/* Crack planes of a deformable body (Solfec-1.0's SIMPLIFIED_CRACK, criterion 'TENSILE'; the
   behaviour of its lng.c and cra.c, written anew): a plane through a referential point with a
   unit normal n cracks the body when the tensile stress normal to it, n·σn (σ the Cauchy
   stress), exceeds the strength ft at one of the plane's points in the body. Solfec judges
   it at the centroids of the triangles of the plane's referential section through the mesh,
   each in its element; we take one point per element the plane crosses, the mean of the
   element's segment crossings (inside the section of a convex element), moved a thousandth
   of the way to the element's centre so that the point lies in that element and not on a
   face it shares (the stress is judged in the element, as Solfec does). A body without a
   mesh (pseudo-rigid: homogeneous stress) is judged at the plane's point. The points are
   made once, from the reference mesh, and travel with the body (pack.c). */
#include <moreau/mbmath.h>
#include "bodyimpl.h"

PetscErrorCode MbBodyCracksFree(MbBody b)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < b->ncrack; k++) PetscCall(PetscFree(b->crack[k].X));
  PetscCall(PetscFree(b->crack));
  b->ncrack = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The extent [lo, hi] of n·(x − p) over the shape's primitives (a shape without a mesh). */
static PetscErrorCode ShapeSpan(MbShape s, const PetscReal p[3], const PetscReal n[3], PetscReal *lo, PetscReal *hi)
{
  PetscInt np;
  PetscFunctionBegin;
  *lo = PETSC_MAX_REAL;
  *hi = -PETSC_MAX_REAL;
  PetscCall(MbShapeGetSize(s, &np));
  for (PetscInt i = 0; i < np; i++) {
    MbPrimKind kind;
    PetscReal  c[3], d[3], r = 0, h;
    PetscCall(MbShapeGetPrimKind(s, i, &kind));
    if (kind == MB_PRIM_CONVEX) {
      PetscInt         nv, nf;
      const PetscReal *v;
      const PetscInt  *fptr, *fvert, *fsurf;
      PetscCall(MbShapeGetConvex(s, i, &nv, &v, &nf, &fptr, &fvert, &fsurf));
      for (PetscInt a = 0; a < nv; a++) {
        MbV3Sub(&v[3 * a], p, d);
        h   = MbV3Dot(n, d);
        *lo = PetscMin(*lo, h);
        *hi = PetscMax(*hi, h);
      }
      continue;
    }
    if (kind == MB_PRIM_SPHERE)
      PetscCall(MbShapeGetSphere(s, i, c, &r));
    else { /* {c + L u : |u| <= 1} spans c·n ± |Lᵀn| along n */
      PetscReal L[9], t[3];
      PetscCall(MbShapeGetEllipsoid(s, i, c, L, NULL));
      for (int k = 0; k < 3; k++) t[k] = L[k] * n[0] + L[3 + k] * n[1] + L[6 + k] * n[2];
      r = MbV3Norm(t);
    }
    MbV3Sub(c, p, d);
    h   = MbV3Dot(n, d);
    *lo = PetscMin(*lo, h - r);
    *hi = PetscMax(*hi, h + r);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Elements e and f (both in the section) are neighbours on it when they share a face the
   plane crosses: three or more common nodes, on both sides of it or two on it. */
static PetscBool Joined(const PetscInt *eptr, const PetscInt *enode, const PetscReal s[], PetscReal eps, PetscInt e, PetscInt f)
{
  PetscInt  common = 0, on = 0;
  PetscBool below = PETSC_FALSE, above = PETSC_FALSE;
  for (PetscInt i = eptr[e]; i < eptr[e + 1]; i++)
    for (PetscInt j = eptr[f]; j < eptr[f + 1]; j++)
      if (enode[i] == enode[j]) {
        PetscReal h = s[enode[i]];
        common++;
        if (h < -eps)
          below = PETSC_TRUE;
        else if (h > eps)
          above = PETSC_TRUE;
        else
          on++;
      }
  return common >= 3 && ((below && above) || on >= 2) ? PETSC_TRUE : PETSC_FALSE;
}

/* Keep, of the section's elements sec (m of them), the patch joined to the element whose box
   holds the point p (topoadj: Solfec keeps the triangles of the cut joined to the one at
   the point); an error when no section element's box holds it. */
static PetscErrorCode TopoPatch(MbBody b, const PetscReal X[], const PetscInt *eptr, const PetscInt *enode, const PetscReal s[], PetscReal eps, const PetscReal p[3], PetscInt *m, PetscInt sec[])
{
  PetscInt  start = -1, *todo, *in, ntodo = 0, k = 0;
  PetscReal best = PETSC_MAX_REAL;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < *m; i++) { /* the section element whose box holds p, nearest its centre */
    PetscReal lo[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[3] = {-PETSC_MAX_REAL, -PETSC_MAX_REAL, -PETSC_MAX_REAL}, c[3] = {0, 0, 0}, d[3];
    PetscInt  e = sec[i], nen = eptr[e + 1] - eptr[e];
    PetscBool holds = PETSC_TRUE;
    for (PetscInt a = eptr[e]; a < eptr[e + 1]; a++)
      for (int j = 0; j < 3; j++) {
        PetscReal x = X[3 * enode[a] + j];
        lo[j]       = PetscMin(lo[j], x);
        hi[j]       = PetscMax(hi[j], x);
        c[j] += x / nen;
      }
    for (int j = 0; j < 3; j++) holds = holds && p[j] >= lo[j] - eps && p[j] <= hi[j] + eps ? PETSC_TRUE : PETSC_FALSE;
    MbV3Sub(p, c, d);
    if (holds && MbV3Norm(d) < best) best = MbV3Norm(d), start = i;
  }
  PetscCheck(start >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": with topoadj 'ON' the crack plane's point (%g, %g, %g) must lie in the body's section by the plane: no element the plane crosses holds it", b->id,
             (double)p[0], (double)p[1], (double)p[2]);
  PetscCall(PetscMalloc2(*m, &todo, *m, &in));
  for (PetscInt i = 0; i < *m; i++) in[i] = 0;
  in[start]     = 1;
  todo[ntodo++] = start;
  while (ntodo) {
    PetscInt i = todo[--ntodo];
    for (PetscInt j = 0; j < *m; j++)
      if (!in[j] && Joined(eptr, enode, s, eps, sec[i], sec[j])) in[j] = 1, todo[ntodo++] = j;
  }
  for (PetscInt i = 0; i < *m; i++)
    if (in[i]) sec[k++] = sec[i];
  *m = k;
  PetscCall(PetscFree2(todo, in));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The evaluation points of crack c on the body's mesh (see the top of this file). */
static PetscErrorCode MeshPoints(MbBody b, MbCrack *c, PetscInt nn, const PetscReal X[], PetscInt ne, const PetscInt *eptr, const PetscInt *enode)
{
  PetscReal *s, lo[3], hi[3], eps;
  PetscInt  *sec, m = 0;
  PetscFunctionBegin;
  PetscCall(MbShapeGetBox(b->shape, lo, hi));
  eps = 1e-10 * (PetscAbsReal(hi[0] - lo[0]) + PetscAbsReal(hi[1] - lo[1]) + PetscAbsReal(hi[2] - lo[2]));
  PetscCall(PetscMalloc2(nn, &s, ne, &sec));
  for (PetscInt a = 0; a < nn; a++) {
    PetscReal d[3];
    MbV3Sub(&X[3 * a], c->p, d);
    s[a] = MbV3Dot(c->n, d);
  }
  for (PetscInt e = 0; e < ne; e++) { /* crossed, or a face (three nodes or more) on the plane */
    PetscReal mn = PETSC_MAX_REAL, mx = -PETSC_MAX_REAL;
    PetscInt  on = 0;
    for (PetscInt a = eptr[e]; a < eptr[e + 1]; a++) {
      PetscReal h = s[enode[a]];
      mn          = PetscMin(mn, h);
      mx          = PetscMax(mx, h);
      if (PetscAbsReal(h) <= eps) on++;
    }
    if ((mn < -eps && mx > eps) || on >= 3) sec[m++] = e;
  }
  if (m == 0) {
    PetscErrorCode ierr = PetscFree2(s, sec);
    PetscCall(ierr);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": the crack plane through (%g, %g, %g) with normal (%g, %g, %g) does not cross the body's mesh", b->id, (double)c->p[0], (double)c->p[1], (double)c->p[2], (double)c->n[0],
            (double)c->n[1], (double)c->n[2]);
  }
  if (c->topoadj) {
    PetscErrorCode ierr = TopoPatch(b, X, eptr, enode, s, eps, c->p, &m, sec);
    if (ierr) PetscCall(PetscFree2(s, sec));
    PetscCall(ierr);
  }
  PetscCall(PetscMalloc1(3 * m, &c->X));
  c->np = m;
  for (PetscInt i = 0; i < m; i++) {
    PetscInt   e = sec[i], nen = eptr[e + 1] - eptr[e], cnt = 0;
    PetscReal  q[3] = {0, 0, 0}, ctr[3] = {0, 0, 0};
    PetscReal *x = &c->X[3 * i];
    for (PetscInt a = eptr[e]; a < eptr[e + 1]; a++) {
      const PetscReal *Xa = &X[3 * enode[a]];
      PetscReal        sa = s[enode[a]];
      for (int j = 0; j < 3; j++) ctr[j] += Xa[j] / nen;
      if (PetscAbsReal(sa) <= eps) { /* a node on the plane */
        for (int j = 0; j < 3; j++) q[j] += Xa[j];
        cnt++;
        continue;
      }
      for (PetscInt bb = a + 1; bb < eptr[e + 1]; bb++) { /* the segment to each node across the plane */
        const PetscReal *Xb = &X[3 * enode[bb]];
        PetscReal        sb = s[enode[bb]], t;
        if (PetscAbsReal(sb) <= eps || (sa < 0) == (sb < 0)) continue;
        t = sa / (sa - sb);
        for (int j = 0; j < 3; j++) q[j] += Xa[j] + t * (Xb[j] - Xa[j]);
        cnt++;
      }
    }
    for (int j = 0; j < 3; j++) x[j] = q[j] / cnt + 1e-3 * (ctr[j] - q[j] / cnt);
  }
  PetscCall(PetscFree2(s, sec));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyAddCrack(MbBody b, const PetscReal point[3], const PetscReal normal[3], const PetscInt surfid[2], PetscReal ft, PetscBool topoadj)
{
  MbCrack          c;
  PetscReal        len = MbV3Norm(normal);
  PetscInt         nn, ne;
  const PetscReal *X;
  const PetscInt  *eptr, *enode;
  PetscFunctionBegin;
  PetscCheck(b->ops->stress, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " is %s: only bodies with a stress (PSEUDO_RIGID, FINITE_ELEMENT) crack", b->id, b->ops->name);
  PetscCheck(PetscIsNormalReal(point[0] + 1) && PetscIsNormalReal(point[1] + 1) && PetscIsNormalReal(point[2] + 1), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": the crack point must be finite, got (%g, %g, %g)", b->id,
             (double)point[0], (double)point[1], (double)point[2]);
  PetscCheck(len > 0 && PetscIsNormalReal(len), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": the crack normal must be non-zero and finite, got (%g, %g, %g)", b->id, (double)normal[0], (double)normal[1], (double)normal[2]);
  PetscCheck(PetscIsNormalReal(ft + 1) || ft == -1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": the crack's tensile strength ft must be finite, got %g", b->id, (double)ft);
  PetscCall(PetscMemzero(&c, sizeof(c)));
  for (int j = 0; j < 3; j++) c.p[j] = point[j], c.n[j] = normal[j] / len;
  c.ft        = ft;
  c.surfid[0] = surfid[0];
  c.surfid[1] = surfid[1];
  c.topoadj   = topoadj;
  PetscCall(MbShapeGetMesh(b->shape, &nn, &X, &ne, &eptr, &enode));
  if (nn > 0)
    PetscCall(MeshPoints(b, &c, nn, X, ne, eptr, enode));
  else {
    PetscReal lo, hi, blo[3], bhi[3], eps;
    PetscCall(MbShapeGetBox(b->shape, blo, bhi));
    eps = 1e-10 * (PetscAbsReal(bhi[0] - blo[0]) + PetscAbsReal(bhi[1] - blo[1]) + PetscAbsReal(bhi[2] - blo[2]));
    PetscCall(ShapeSpan(b->shape, c.p, c.n, &lo, &hi));
    PetscCheck(lo < -eps && hi > eps, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT ": the crack plane through (%g, %g, %g) with normal (%g, %g, %g) does not cross the body's shape (all of it lies %s the plane)", b->id,
               (double)c.p[0], (double)c.p[1], (double)c.p[2], (double)c.n[0], (double)c.n[1], (double)c.n[2], hi <= eps ? "below" : "above");
    PetscCall(PetscMalloc1(3, &c.X));
    c.np = 1;
    MbV3Copy(c.p, c.X);
  }
  PetscCall(PetscRealloc(sizeof(MbCrack) * (size_t)(b->ncrack + 1), &b->crack));
  b->crack[b->ncrack++] = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyGetCrackCount(MbBody b, PetscInt *n)
{
  PetscFunctionBegin;
  *n = b->ncrack;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyGetCrack(MbBody b, PetscInt k, PetscReal point[3], PetscReal normal[3], PetscReal *ft)
{
  PetscFunctionBegin;
  PetscCheck(k >= 0 && k < b->ncrack, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body %" PetscInt_FMT " has %" PetscInt_FMT " crack planes, asked for number %" PetscInt_FMT, b->id, b->ncrack, k);
  if (point) MbV3Copy(b->crack[k].p, point);
  if (normal) MbV3Copy(b->crack[k].n, normal);
  if (ft) *ft = b->crack[k].ft;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Cauchy stress at referential point X: from the nodes of the element holding it (a kind
   with a nodal state), else the body's homogeneous stress. */
static PetscErrorCode StressAt(MbBody b, const PetscReal X[3], PetscReal sigma[9])
{
  PetscInt  n, col[MB_BODY_POINT_DOFS_MAX];
  PetscReal qc[MB_BODY_POINT_DOFS_MAX], uc[MB_BODY_POINT_DOFS_MAX];
  PetscBool has;
  PetscFunctionBegin;
  PetscCall(MbBodyPointDofs(b, X, &n, col, &has));
  if (!has) {
    PetscCall(MbBodyGetStress(b, sigma, &has));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt k = 0; k < n; k++) qc[k] = b->q[col[k]], uc[k] = b->u[col[k]];
  PetscCall(MbBodyPointState(b, X, qc, uc, NULL, NULL, sigma));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyCrackCheck(MbBody b, PetscInt *k, PetscReal *tension, PetscReal X[3])
{
  PetscFunctionBegin;
  *k       = -1;
  *tension = 0;
  for (PetscInt i = 0; i < b->ncrack; i++) {
    const MbCrack *c    = &b->crack[i];
    PetscReal      best = -PETSC_MAX_REAL;
    PetscInt       at   = -1;
    for (PetscInt j = 0; j < c->np; j++) {
      PetscReal sigma[9], sn[3], t;
      PetscCall(StressAt(b, &c->X[3 * j], sigma));
      MbM3Mult(sigma, c->n, sn);
      t = MbV3Dot(c->n, sn); /* n·σn: the tension across the plane */
      if (t > best) best = t, at = j;
    }
    if (at >= 0 && best > c->ft) { /* Solfec's test: strictly above ft */
      *k       = i;
      *tension = best;
      MbV3Copy(&c->X[3 * at], X);
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
