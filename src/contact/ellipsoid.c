/* Ellipsoids in the narrow phase, one contact point a pair.

   An ellipsoid E = {c + R A u : |u| ≤ 1}, R a rotation, A = diag(a), has the support function
   h_E(n) = c·n + |A Rᵀ n| and support point s_E(n) = c + R A² Rᵀ n / |A Rᵀ n| (a sphere is
   R = I, a = (r, r, r)). For two convex sets X, Y the separation of Y from X along a unit n is
   σ(n) = −h_X(n) − h_Y(−n) = n·(s_Y(−n) − s_X(n)), and the signed distance of the pair (the
   distance when apart, minus the penetration depth when they overlap) is the largest σ over
   unit n: both are the distance from the origin to the boundary of the Minkowski difference
   Y − X, whose support function is h_Y(n) + h_X(−n) (van den Bergen, "Collision Detection in
   Interactive 3D Environments", 2003, §4.3). Any n gives a lower bound σ(n), exact at the
   optimum, where s_Y(−n) − s_X(n) = σ n.

   - ellipsoid–sphere: the signed distance from the sphere's centre to the ellipsoid, less the
     radius; the point–ellipsoid distance by the root of a monotone scalar equation (Eberly,
     "Distance from a point to an ellipse, an ellipsoid, or a hyperellipsoid", 2011).
   - ellipsoid–ellipsoid: σ maximised over the unit sphere by Newton's method on the sphere
     (Absil, Mahony & Sepulchre, "Optimization Algorithms on Matrix Manifolds", 2008, §6),
     with the Hessians of the support functions, a line search, and three starting normals.
   - ellipsoid–convex: the optimal n is a face normal of the polyhedron, or the ellipsoid's
     normal at its point nearest a vertex or an edge of it (the faces, edges and vertices of
     the polyhedron give the faces of the Minkowski difference); σ is evaluated exactly at
     each of those candidates and the largest is kept. Along an edge the signed distance to
     the ellipsoid is convex, so a golden-section search finds the edge's candidate. */
#include "contactimpl.h"

typedef struct {
  PetscReal c[3], R[9], a[3];
} Ell;

static void EllOf(const MbGeomPrim *g, Ell *E)
{
  MbV3Copy(g->c, E->c);
  if (g->kind == MB_PRIM_SPHERE) {
    MbM3Identity(E->R);
    E->a[0] = E->a[1] = E->a[2] = g->r;
  } else {
    MbM3Copy(g->v, E->R);
    MbV3Copy(&g->v[9], E->a);
  }
}

static PetscReal EllSize(const Ell *E) { return PetscMax(E->a[0], PetscMax(E->a[1], E->a[2])); }

/* h_E(n), and s = s_E(n) */
static PetscReal Support(const Ell *E, const PetscReal n[3], PetscReal s[3])
{
  PetscReal m[3], w[3], rho = 0;
  MbM3MultTranspose(E->R, n, m);
  for (int i = 0; i < 3; i++) {
    w[i] = E->a[i] * E->a[i] * m[i];
    rho += w[i] * m[i];
  }
  rho = PetscSqrtReal(rho);
  if (rho > 0) MbV3Scale(1.0 / rho, w, w);
  MbM3Mult(E->R, w, s);
  MbV3Add(s, E->c, s);
  return MbV3Dot(E->c, n) + rho;
}

/* The Hessian of h_E at n (|n| = 1): (M − (M n)(M n)ᵀ/ρ²)/ρ, M = R A² Rᵀ, ρ² = nᵀ M n; it is
   even in n. Added to H. */
static void SupportHessianAdd(const Ell *E, const PetscReal n[3], PetscReal H[9])
{
  PetscReal m[3], w[3], rho2 = 0, P[9], T[9];
  MbM3MultTranspose(E->R, n, m);
  for (int i = 0; i < 3; i++) {
    w[i] = E->a[i] * E->a[i] * m[i];
    rho2 += w[i] * m[i];
  }
  if (!(rho2 > 0)) return;
  PetscReal rho = PetscSqrtReal(rho2);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) P[3 * i + j] = ((i == j ? E->a[i] * E->a[i] : 0.0) - w[i] * w[j] / rho2) / rho;
  MbM3MatMult(E->R, P, T); /* R P Rᵀ */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) H[3 * i + j] += T[3 * i] * E->R[3 * j] + T[3 * i + 1] * E->R[3 * j + 1] + T[3 * i + 2] * E->R[3 * j + 2];
}

/* Signed distance from x to the surface of E (negative inside), the nearest surface point q
   and E's outward unit normal nu there. In E's principal frame, y = Rᵀ(x − c), the nearest
   point is q_i = a_i² y_i/(a_i² + t) with t the root of F(t) = Σ (a_i y_i/(a_i² + t))² − 1 on
   t > −a_k², a_k the least semi-axis: F decreases and is convex there, F(−a_k² + a_k|y_k|) ≥ 0
   ≥ F(−a_k² + |A y|) (Eberly 2011). Newton's method from the left end converges monotonically;
   bisection steps in when it creeps (a point near the medial plane, y_k ≈ 0). */
static PetscReal PointDistance(const Ell *E, const PetscReal x[3], PetscReal q[3], PetscReal nu[3])
{
  PetscReal d[3], y[3], a2[3], amax = EllSize(E), lo, hi, t, ay = 0, ql[3], g[3], r[3], dist, out = 0;
  int       k = 0;
  MbV3Sub(x, E->c, d);
  MbM3MultTranspose(E->R, d, y);
  for (int i = 0; i < 3; i++) {
    a2[i] = E->a[i] * E->a[i];
    if (PetscAbsReal(y[i]) < 1e-13 * amax) y[i] = y[i] < 0 ? -1e-13 * amax : 1e-13 * amax; /* keeps F → +∞ at the pole: the degenerate cases move by round-off */
    if (E->a[i] < E->a[k]) k = i;
    ay += a2[i] * y[i] * y[i];
    out += y[i] * y[i] / a2[i];
  }
  lo = -a2[k] + E->a[k] * PetscAbsReal(y[k]);
  hi = -a2[k] + PetscSqrtReal(ay);
  t  = lo;
  for (int it = 0; it < 200; it++) {
    PetscReal F = -1, dF = 0, tn;
    for (int i = 0; i < 3; i++) {
      PetscReal s = E->a[i] * y[i] / (a2[i] + t);
      F += s * s;
      dF -= 2 * s * s / (a2[i] + t);
    }
    if (F > 0)
      lo = t;
    else if (F < 0)
      hi = t;
    else
      break;
    tn = dF < 0 ? t - F / dF : 0.5 * (lo + hi);
    if (!(tn > lo && tn < hi) || it % 8 == 7) tn = 0.5 * (lo + hi);
    if (PetscAbsReal(tn - t) <= 1e-15 * (a2[k] + PetscAbsReal(t)) || hi - lo <= 1e-15 * (a2[k] + PetscAbsReal(t))) {
      if (PetscAbsReal(F) <= 1e-10 || hi - lo <= 1e-15 * (a2[k] + PetscAbsReal(t))) {
        t = tn;
        break;
      }
      tn = 0.5 * (lo + hi); /* creeping (y_k ≈ 0, F' huge): bisect */
    }
    t = tn;
  }
  for (int i = 0; i < 3; i++) {
    ql[i] = a2[i] * y[i] / (a2[i] + t);
    g[i]  = ql[i] / a2[i];
    r[i]  = y[i] - ql[i];
  }
  dist = MbV3Norm(r);
  MbV3Scale(1.0 / MbV3Norm(g), g, g);
  MbM3Mult(E->R, g, nu);
  MbM3Mult(E->R, ql, q);
  MbV3Add(q, E->c, q);
  return out > 1 ? dist : -dist;
}

/* Two unit vectors t1, t2 with (t1, t2, n) orthonormal. */
static void Tangents(const PetscReal n[3], PetscReal t1[3], PetscReal t2[3])
{
  PetscReal e[3] = {0, 0, 0};
  int       k    = 0;
  for (int i = 1; i < 3; i++)
    if (PetscAbsReal(n[i]) < PetscAbsReal(n[k])) k = i;
  e[k] = 1;
  MbV3Cross(n, e, t1);
  MbV3Scale(1.0 / MbV3Norm(t1), t1, t1);
  MbV3Cross(n, t1, t2);
}

/* σ(n) of B from A, with the support points pa = s_A(n), pb = s_B(−n). */
static PetscReal SigmaSmooth(const Ell *A, const Ell *B, const PetscReal n[3], PetscReal pa[3], PetscReal pb[3])
{
  PetscReal m[3];
  MbV3Scale(-1.0, n, m);
  return -Support(A, n, pa) - Support(B, m, pb);
}

/* σ maximised from the unit n by Newton's method on the sphere: the Riemannian gradient of σ
   is the tangential part of w = pb − pa, its Hessian −P H P − (n·w) P with H = ∇²h_A(n) +
   ∇²h_B(−n), P = I − n nᵀ; where −Hessian is not positive definite (overlap), a scaled
   gradient step. Every step is kept only if σ does not decrease (halving it otherwise). Stops
   early once σ reaches margin (a lower bound of the signed distance). */
static PetscReal MaximiseSmooth(const Ell *A, const Ell *B, PetscReal n[3], PetscReal size, PetscReal margin, PetscReal pa[3], PetscReal pb[3])
{
  PetscReal s = SigmaSmooth(A, B, n, pa, pb);
  for (int it = 0; it < 100 && s < margin; it++) { /* σ ≥ margin: apart beyond it, whatever the maximum */
    PetscReal w[3], t1[3], t2[3], G[2], H[9] = {0}, Ht[3], k11, k12, k22, det, xi[2], lam = 1, nn[3], qa[3], qb[3], sn = s;
    int       ls;
    MbV3Sub(pb, pa, w);
    Tangents(n, t1, t2);
    G[0] = MbV3Dot(t1, w);
    G[1] = MbV3Dot(t2, w);
    if (PetscSqrtReal(G[0] * G[0] + G[1] * G[1]) <= 1e-14 * size) break;
    SupportHessianAdd(A, n, H);
    SupportHessianAdd(B, n, H);
    MbM3Mult(H, t1, Ht);
    k11 = MbV3Dot(t1, Ht) + s;
    k12 = MbV3Dot(t2, Ht);
    MbM3Mult(H, t2, Ht);
    k22 = MbV3Dot(t2, Ht) + s;
    det = k11 * k22 - k12 * k12;
    if (k11 > 0 && det > 1e-12 * (k11 * k11 + k22 * k22)) {
      xi[0] = (k22 * G[0] - k12 * G[1]) / det;
      xi[1] = (k11 * G[1] - k12 * G[0]) / det;
    } else {
      PetscReal sc = PetscAbsReal(k11) + PetscAbsReal(k22) + PetscAbsReal(s) + 1e-300;
      xi[0]        = G[0] / sc;
      xi[1]        = G[1] / sc;
    }
    for (ls = 0; ls < 40; ls++, lam *= 0.5) {
      for (int i = 0; i < 3; i++) nn[i] = n[i] + lam * (xi[0] * t1[i] + xi[1] * t2[i]);
      MbV3Scale(1.0 / MbV3Norm(nn), nn, nn);
      sn = SigmaSmooth(A, B, nn, qa, qb);
      if (sn >= s) break;
    }
    if (ls == 40) break;
    MbV3Copy(nn, n);
    MbV3Copy(qa, pa);
    MbV3Copy(qb, pb);
    s = sn;
    if (lam * PetscSqrtReal(xi[0] * xi[0] + xi[1] * xi[1]) < 1e-15) break;
  }
  return s;
}

/* Fill the one contact point of a pair: the points pa on a and pb on b, the unit normal from a
   to b, the gap. */
static void OnePoint(const PetscReal pa[3], const PetscReal pb[3], const PetscReal nrm[3], PetscReal gap, PetscInt sa, PetscInt sb, PetscInt feature, MbContactPoint *c)
{
  MbV3Add(pa, pb, c->point);
  MbV3Scale(0.5, c->point, c->point);
  MbV3Copy(nrm, c->normal);
  c->gap     = gap;
  c->surf[0] = sa;
  c->surf[1] = sb;
  c->feature = feature;
}

/* Ellipsoid or sphere a against ellipsoid or sphere b (not two spheres). */
static PetscErrorCode SmoothSmooth(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscInt *n, MbContactPoint pts[])
{
  Ell       A, B;
  PetscReal size, best = -PETSC_MAX_REAL, nbest[3] = {0, 0, 1}, pa[3], pb[3], pab[3] = {0, 0, 0}, pbb[3] = {0, 0, 0};
  PetscFunctionBegin;
  EllOf(a, &A);
  EllOf(b, &B);
  size = EllSize(&A) + EllSize(&B);
  if (a->kind == MB_PRIM_SPHERE || b->kind == MB_PRIM_SPHERE) { /* the distance of the sphere's centre to the ellipsoid, less its radius */
    const PetscBool sa = (PetscBool)(a->kind == MB_PRIM_SPHERE);
    const Ell      *E  = sa ? &B : &A;
    const PetscReal r = sa ? a->r : b->r, *cs = sa ? a->c : b->c;
    PetscReal       q[3], nu[3], ps[3], d = PointDistance(E, cs, q, nu);
    if (d - r < margin) {
      MbV3Axpy(-r, nu, cs, ps);
      if (!sa) {
        OnePoint(q, ps, nu, d - r, a->surfid, b->surfid, 0, &pts[0]);
      } else {
        MbV3Scale(-1.0, nu, nu);
        OnePoint(ps, q, nu, d - r, a->surfid, b->surfid, 0, &pts[0]);
      }
      *n = 1;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (int start = 0; start < 3; start++) {
    PetscReal nn[3], q[3], s;
    if (start == 0) {
      MbV3Sub(B.c, A.c, nn);
      if (MbV3Norm(nn) <= 1e-14 * size) MbV3Set(nn, 0, 0, 1);
      MbV3Scale(1.0 / MbV3Norm(nn), nn, nn);
    } else if (start == 1)
      (void)PointDistance(&A, B.c, q, nn); /* A's normal at its point nearest B's centre */
    else {
      (void)PointDistance(&B, A.c, q, nn);
      MbV3Scale(-1.0, nn, nn);
    }
    s = MaximiseSmooth(&A, &B, nn, size, margin, pa, pb);
    if (s > best) {
      best = s;
      MbV3Copy(nn, nbest);
      MbV3Copy(pa, pab);
      MbV3Copy(pb, pbb);
    }
    if (best >= margin || best > 0) break; /* apart: σ is concave on the ball |n| ≤ 1, its maximum is the global one */
  }
  if (best < margin) {
    OnePoint(pab, pbb, nbest, best, a->surfid, b->surfid, 0, &pts[0]);
    *n = 1;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* σ(ν) of the ellipsoid E from the polyhedron P along ν (out of P): ν·s_E(−ν) − h_P(ν); pe = s_E(−ν). */
static PetscReal SigmaPoly(const Ell *E, const MbPoly *P, const PetscReal nu[3], PetscReal pe[3])
{
  PetscReal m[3], hp = -PETSC_MAX_REAL;
  MbV3Scale(-1.0, nu, m);
  for (PetscInt k = 0; k < P->g->nv; k++) hp = PetscMax(hp, MbV3Dot(nu, &P->g->v[3 * k]));
  return -Support(E, m, pe) - hp;
}

/* Ellipsoid e against convex c; the normal of the point from a to b. */
static PetscErrorCode EllipsoidConvex(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscReal eps, PetscInt *n, MbContactPoint pts[])
{
  const PetscBool   ea = (PetscBool)(a->kind == MB_PRIM_ELLIPSOID);
  const MbGeomPrim *Ge = ea ? a : b, *Gc = ea ? b : a;
  const PetscReal   gr = 0.5 * (PetscSqrtReal(5.0) - 1);
  Ell               E;
  MbPoly            P;
  PetscReal         best = -PETSC_MAX_REAL, nub[3] = {0, 0, 1}, peb[3] = {0, 0, 0}, tie, tol;
  PetscInt          fbest = 0;
  PetscFunctionBegin;
  EllOf(Ge, &E);
  PetscCall(MbPolySetUp(Gc, PETSC_TRUE, &P));
  tie = 1e-12 * (P.size + EllSize(&E));
  tol = eps * (P.size + EllSize(&E));
  for (PetscInt f = 0; f < Gc->nf; f++) { /* faces first: they win ties */
    PetscReal pe[3], s = SigmaPoly(&E, &P, &P.n[3 * f], pe);
    if (s > best) best = s, fbest = f, MbV3Copy(&P.n[3 * f], nub), MbV3Copy(pe, peb);
  }
  if (best >= margin) goto done; /* σ ≤ the signed distance: apart beyond the margin */
  {                              /* the signed distance is at most that of any point of the polyhedron, such as the best face's point below the ellipsoid when it lies on the face: then the face is the answer */
    PetscReal pc[3], q[3], nu[3], in = -PETSC_MAX_REAL;
    MbV3Axpy(-best, nub, peb, pc);
    for (PetscInt f = 0; f < Gc->nf; f++) in = PetscMax(in, MbV3Dot(&P.n[3 * f], pc) - P.d[f]);
    if (in <= tie && PointDistance(&E, pc, q, nu) <= best + tie) goto found;
  }
  for (PetscInt k = 0; k < Gc->nv; k++) {
    PetscReal q[3], nu[3], pe[3], s;
    (void)PointDistance(&E, &Gc->v[3 * k], q, nu);
    MbV3Scale(-1.0, nu, nu);
    s = SigmaPoly(&E, &P, nu, pe);
    if (s > best + tie) best = s, fbest = Gc->nf + k, MbV3Copy(nu, nub), MbV3Copy(pe, peb);
  }
  for (PetscInt e = 0; e < P.ne; e++) { /* golden-section search of the convex signed distance along the edge */
    const PetscReal *p0 = &Gc->v[3 * P.edge[4 * e]], *p1 = &Gc->v[3 * P.edge[4 * e + 1]];
    PetscReal        lo = 0, hi = 1, x1 = hi - gr, x2 = lo + gr, f1, f2, x[3], q[3], nu[3], pe[3], s, d[3];
    MbV3Sub(p1, p0, d);
    MbV3Axpy(x1, d, p0, x);
    f1 = PointDistance(&E, x, q, nu);
    MbV3Axpy(x2, d, p0, x);
    f2 = PointDistance(&E, x, q, nu);
    for (int it = 0; it < 40; it++) {
      if (f1 < f2) {
        hi = x2, x2 = x1, f2 = f1, x1 = hi - gr * (hi - lo);
        MbV3Axpy(x1, d, p0, x);
        f1 = PointDistance(&E, x, q, nu);
      } else {
        lo = x1, x1 = x2, f1 = f2, x2 = lo + gr * (hi - lo);
        MbV3Axpy(x2, d, p0, x);
        f2 = PointDistance(&E, x, q, nu);
      }
    }
    MbV3Axpy(0.5 * (lo + hi), d, p0, x);
    (void)PointDistance(&E, x, q, nu);
    MbV3Scale(-1.0, nu, nu);
    if (lo > 0 && hi < 1) { /* inside the edge the optimal ν is normal to it; σ has a ridge there (h_P is not smooth across it), so ν's error tangent to the edge would cost σ to first order */
      PetscReal dd = MbV3Dot(d, d), nn;
      MbV3Axpy(-MbV3Dot(nu, d) / dd, d, nu, nu);
      nn = MbV3Norm(nu);
      if (nn > 0) MbV3Scale(1.0 / nn, nu, nu);
    }
    s = SigmaPoly(&E, &P, nu, pe);
    if (s > best + tie) best = s, fbest = Gc->nf + Gc->nv + e, MbV3Copy(nu, nub), MbV3Copy(pe, peb);
  }
found:
  if (best < margin) {
    PetscReal pc[3], nrm[3], align = -PETSC_MAX_REAL;
    PetscInt  face = 0;
    MbV3Axpy(-best, nub, peb, pc);          /* the polyhedron's point: on its supporting plane along ν */
    for (PetscInt f = 0; f < Gc->nf; f++) { /* its face there most facing ν */
      PetscReal on = PetscAbsReal(MbV3Dot(&P.n[3 * f], pc) - P.d[f]), al = MbV3Dot(&P.n[3 * f], nub);
      if (on <= tol && al > align) align = al, face = f;
    }
    if (align == -PETSC_MAX_REAL) face = fbest < Gc->nf ? fbest : 0;
    if (ea) {
      MbV3Scale(-1.0, nub, nrm);
      OnePoint(peb, pc, nrm, best, Ge->surfid, MbPolyFaceSurf(Gc, face), fbest, &pts[0]);
    } else
      OnePoint(pc, peb, nub, best, MbPolyFaceSurf(Gc, face), Ge->surfid, fbest, &pts[0]);
    *n = 1;
  }
done:
  PetscCall(MbPolyDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbCollideEllipsoid(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscReal eps, PetscInt *n, MbContactPoint pts[])
{
  PetscFunctionBegin;
  *n = 0;
  if (a->kind == MB_PRIM_CONVEX || b->kind == MB_PRIM_CONVEX)
    PetscCall(EllipsoidConvex(a, b, margin, eps, n, pts));
  else
    PetscCall(SmoothSmooth(a, b, margin, n, pts));
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MbGeomEllipsoidSet(MbGeomPrim *g, const PetscReal x[12], PetscInt surfid, PetscReal buf[12])
{
  PetscReal L[9];
  g->kind = MB_PRIM_ELLIPSOID;
  MbV3Copy(x, g->c);
  MbEllipsoidFromPoints(x, L);
  MbEllipsoidPrincipal(L, &buf[9], buf);
  g->v      = buf;
  g->surfid = surfid;
}
