/* Ellipsoids (ELLIP) against values computed by hand: the symmetric eigensolver; exact mass
   properties of a turned ellipsoid and its box; a turned ellipsoid on a slab (the gap is the
   centre's height less the support |A Rᵀ e_z|); two ellipsoids and an ellipsoid and a sphere
   along an axis, apart and overlapping (gap = distance − a1 − a2, normal the axis, point
   midway); an ellipsoid of equal radii against random hulls gives the sphere's contact;
   random ellipsoids against random hulls and against each other, apart, give the distance
   found by sampling the ellipsoid's surface; a transform maps it exactly. */
#include <math.h>
#include <string.h>
#include "mbtest.h"

#define EPS 1e-9

static PetscReal Uniform(uint64_t *s) /* xorshift64* (Vigna 2016) */
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return (PetscReal)((*s * UINT64_C(2685821657736338717)) >> 11) / 9007199254740992.0;
}

/* The ellipsoid with semi-axes r about c, turned by R (row-major); its principal form in one
   of a ring of buffers (a test holds at most a few at once). */
static MbGeomPrim Ellipsoid(const PetscReal c[3], const PetscReal r[3], const PetscReal R[9], PetscInt surfid)
{
  static PetscReal buf[8][12];
  static int       next = 0;
  MbGeomPrim       g;
  PetscReal        x[12];
  memset(&g, 0, sizeof(g));
  MbV3Copy(c, x);
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 3; i++) x[3 + 3 * k + i] = c[i] + R[3 * i + k] * r[k];
  MbGeomEllipsoidSet(&g, x, surfid, buf[next]);
  next = (next + 1) % 8;
  return g;
}

static MbGeomPrim Sphere(const PetscReal c[3], PetscReal r, PetscInt surfid)
{
  MbGeomPrim g;
  memset(&g, 0, sizeof(g));
  g.kind = MB_PRIM_SPHERE;
  MbV3Copy(c, g.c);
  g.r      = r;
  g.surfid = surfid;
  return g;
}

static MbGeomPrim Convex(MbShape s)
{
  MbGeomPrim g;
  memset(&g, 0, sizeof(g));
  g.kind = MB_PRIM_CONVEX;
  MB_OK(MbShapeGetConvex(s, 0, &g.nv, &g.v, &g.nf, &g.fptr, &g.fvert, &g.fsurf));
  return g;
}

static void RandomRotation(uint64_t *seed, PetscReal R[9])
{
  PetscReal psi[3];
  for (int k = 0; k < 3; k++) psi[k] = 2 * PETSC_PI * (Uniform(seed) - 0.5);
  MbExpMap(psi, R);
}

static void CheckVec(const char *what, const PetscReal a[3], const PetscReal b[3], PetscReal tol)
{
  for (int k = 0; k < 3; k++)
    if (!(fabs(a[k] - b[k]) <= tol)) fail_msg("%s: (%.15g, %.15g, %.15g), expected (%.15g, %.15g, %.15g) within %g", what, a[0], a[1], a[2], b[0], b[1], b[2], tol);
}

static void test_symeigen(void **state)
{
  uint64_t seed = 7;
  for (int t = 0; t < 100; t++) {
    PetscReal R[9], lam[3] = {Uniform(&seed), Uniform(&seed), 3 * Uniform(&seed)}, A[9], l[3], V[9];
    RandomRotation(&seed, R);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) A[3 * i + j] = R[3 * i] * lam[0] * R[3 * j] + R[3 * i + 1] * lam[1] * R[3 * j + 1] + R[3 * i + 2] * lam[2] * R[3 * j + 2];
    MbM3SymEigen(A, l, V);
    MB_CLOSE(MbM3Det(V), 1.0, 1e-12);
    for (int k = 0; k < 3; k++) { /* A v_k = l_k v_k */
      PetscReal v[3] = {V[k], V[3 + k], V[6 + k]}, Av[3];
      MbM3Mult(A, v, Av);
      for (int i = 0; i < 3; i++) MB_CLOSE(Av[i], l[k] * v[i], 1e-12);
    }
  }
}

static void test_massprops(void **state)
{
  MbShape     s;
  MbMassProps mp;
  PetscReal   c[3] = {1, -2, 0.5}, r[3] = {0.1, 0.2, 0.3}, rho = 1500, R[9], z[3] = {0, 0, 0}, lo[3], hi[3], L[9], rad[3], rot[9];
  PetscReal   psi[3] = {0.3, -0.7, 1.1};
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddEllipsoid(s, c, r, 1, 2));
  MbExpMap(psi, R);
  MB_OK(MbShapeTransform(s, R, c, z)); /* turned about its centre */
  MB_OK(MbShapeMassProps(s, rho, &mp));
  PetscReal V = 4.0 / 3.0 * PETSC_PI * r[0] * r[1] * r[2], m = rho * V;
  MB_CLOSE(mp.volume, V, 1e-15);
  MB_CLOSE(mp.mass, m, 1e-12);
  CheckVec("mass centre", mp.center, c, 1e-14);
  /* J = R diag(m/5 (b²+c²), m/5 (a²+c²), m/5 (a²+b²)) Rᵀ */
  PetscReal J0[3] = {m / 5 * (r[1] * r[1] + r[2] * r[2]), m / 5 * (r[0] * r[0] + r[2] * r[2]), m / 5 * (r[0] * r[0] + r[1] * r[1])};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) MB_CLOSE(mp.inertia[3 * i + j], R[3 * i] * J0[0] * R[3 * j] + R[3 * i + 1] * J0[1] * R[3 * j + 1] + R[3 * i + 2] * J0[2] * R[3 * j + 2], 1e-14);
  /* the box: half-width along d is |row d of R diag(r)| */
  MB_OK(MbShapeGetBox(s, lo, hi));
  for (int d = 0; d < 3; d++) {
    PetscReal w = sqrt(pow(R[3 * d] * r[0], 2) + pow(R[3 * d + 1] * r[1], 2) + pow(R[3 * d + 2] * r[2], 2));
    MB_CLOSE(lo[d], c[d] - w, 1e-14);
    MB_CLOSE(hi[d], c[d] + w, 1e-14);
  }
  /* the principal form gives back the radii (in their order) and the turned axes */
  MB_OK(MbShapeGetEllipsoid(s, 0, NULL, L, NULL));
  MbEllipsoidPrincipal(L, rad, rot);
  for (int k = 0; k < 3; k++) {
    MB_CLOSE(rad[k], r[k], 1e-14);
    MB_CLOSE(fabs(rot[k] * R[k] + rot[3 + k] * R[3 + k] + rot[6 + k] * R[6 + k]), 1.0, 1e-12);
  }
  /* SCALE (1, 1, 2) of the unturned ellipsoid doubles c and the z semi-axis: exact */
  {
    MbShape   t;
    PetscReal S[9] = {1, 0, 0, 0, 1, 0, 0, 0, 2}, cc[3];
    MB_OK(MbShapeCreate(&t));
    MB_OK(MbShapeAddEllipsoid(t, c, r, 1, 2));
    MB_OK(MbShapeTransform(t, S, z, z));
    MB_OK(MbShapeMassProps(t, 1.0, &mp));
    MB_CLOSE(mp.volume, 2 * V, 1e-15);
    MB_OK(MbShapeGetEllipsoid(t, 0, cc, L, NULL));
    MB_CLOSE(cc[2], 2 * c[2], 1e-15);
    MB_CLOSE(L[8], 2 * r[2], 1e-15);
    MB_OK(MbShapeDestroy(&t));
  }
  {
    PetscReal bad[3] = {0.1, 0, 0.3};
    MB_FAILS(MbShapeAddEllipsoid(s, c, bad, 1, 1), "radii must be > 0");
  }
  MB_OK(MbShapeDestroy(&s));
}

static void test_on_slab(void **state)
{
  MbShape   slab;
  PetscReal x[24]   = {-2, -2, -1, 2, -2, -1, 2, 2, -1, -2, 2, -1, -2, -2, 0, 2, -2, 0, 2, 2, 0, -2, 2, 0};
  PetscInt  surf[6] = {10, 11, 12, 13, 14, 15};
  MB_OK(MbShapeCreate(&slab));
  MB_OK(MbShapeAddHex(slab, x, surf, 0));
  MbGeomPrim     S = Convex(slab);
  MbContactPoint pts[MB_MAX_CONTACT_POINTS];
  PetscInt       n;
  PetscReal      r[3] = {0.1, 0.2, 0.3}, Id[9], up[3] = {0, 0, 1};
  MbM3Identity(Id);
  { /* semi-axis c vertical, resting: gap 0 at the centre's height c */
    PetscReal  c[3] = {0.2, -0.1, 0.3}, p[3] = {0.2, -0.1, 0};
    MbGeomPrim E = Ellipsoid(c, r, Id, 7);
    MB_OK(MbCollide(&S, &E, 1e-3, EPS, &n, pts));
    assert_int_equal(n, 1);
    MB_CLOSE(pts[0].gap, 0.0, 1e-15);
    CheckVec("normal", pts[0].normal, up, 1e-15);
    CheckVec("point", pts[0].point, p, 1e-15);
    assert_int_equal(pts[0].surf[0], 11);
    assert_int_equal(pts[0].surf[1], 7);
    MB_OK(MbCollide(&E, &S, 1e-3, EPS, &n, pts)); /* swapped: the normal flips */
    assert_int_equal(n, 1);
    MB_CLOSE(pts[0].normal[2], -1.0, 1e-15);
    assert_int_equal(pts[0].surf[0], 7);
    assert_int_equal(pts[0].surf[1], 11);
  }
  { /* turned: the lowest point is |A Rᵀ e_z| below the centre */
    uint64_t seed = 3;
    for (int t = 0; t < 50; t++) {
      PetscReal R[9], h, c[3], dz = 0.01 * (Uniform(&seed) - 0.7);
      RandomRotation(&seed, R);
      h = sqrt(pow(R[6] * r[0], 2) + pow(R[7] * r[1], 2) + pow(R[8] * r[2], 2));
      MbV3Set(c, Uniform(&seed) - 0.5, Uniform(&seed) - 0.5, h + dz);
      MbGeomPrim E = Ellipsoid(c, r, R, 7);
      MB_OK(MbCollide(&E, &S, 0.02, EPS, &n, pts));
      assert_int_equal(n, 1);
      MB_CLOSE(pts[0].gap, dz, 1e-14);
      MB_CLOSE(pts[0].normal[2], -1.0, 1e-14);
      MB_CLOSE(pts[0].point[2], 0.5 * dz, 1e-14);
    }
  }
  { /* above the margin: nothing */
    PetscReal  c[3] = {0, 0, 0.31};
    MbGeomPrim E    = Ellipsoid(c, r, Id, 7);
    MB_OK(MbCollide(&S, &E, 1e-3, EPS, &n, pts));
    assert_int_equal(n, 0);
  }
  MB_OK(MbShapeDestroy(&slab));
}

static void test_pairs_on_axis(void **state)
{
  PetscReal      Id[9], ra[3] = {0.1, 0.3, 0.25}, rb[3] = {0.15, 0.2, 0.35}, ex[3] = {1, 0, 0}, mex[3] = {-1, 0, 0};
  MbContactPoint pts[MB_MAX_CONTACT_POINTS];
  PetscInt       n;
  MbM3Identity(Id);
  for (int t = 0; t < 4; t++) { /* apart, touching, overlapping */
    PetscReal  d = 0.25 + (t - 1.5) * 0.004, ca[3] = {1, 2, 3}, cb[3] = {1 + d, 2, 3}, p[3];
    MbGeomPrim A = Ellipsoid(ca, ra, Id, 1), B = Ellipsoid(cb, rb, Id, 2), S = Sphere(cb, 0.15, 3);
    MB_OK(MbCollide(&A, &B, 0.01, EPS, &n, pts));
    assert_int_equal(n, 1);
    MB_CLOSE(pts[0].gap, d - 0.25, 1e-13);
    CheckVec("ellipsoid-ellipsoid normal", pts[0].normal, ex, 1e-12);
    MbV3Set(p, 1 + 0.5 * (0.1 + d - 0.15), 2, 3);
    CheckVec("ellipsoid-ellipsoid point", pts[0].point, p, 1e-12);
    assert_int_equal(pts[0].surf[0], 1);
    assert_int_equal(pts[0].surf[1], 2);
    MB_OK(MbCollide(&B, &A, 0.01, EPS, &n, pts));
    assert_int_equal(n, 1);
    MB_CLOSE(pts[0].gap, d - 0.25, 1e-13);
    CheckVec("swapped normal", pts[0].normal, mex, 1e-12);
    MB_OK(MbCollide(&A, &S, 0.01, EPS, &n, pts)); /* a sphere of B's x semi-axis */
    assert_int_equal(n, 1);
    MB_CLOSE(pts[0].gap, d - 0.25, 1e-13);
    CheckVec("ellipsoid-sphere normal", pts[0].normal, ex, 1e-12);
    CheckVec("ellipsoid-sphere point", pts[0].point, p, 1e-12);
    MB_OK(MbCollide(&S, &A, 0.01, EPS, &n, pts));
    MB_CLOSE(pts[0].gap, d - 0.25, 1e-13);
    CheckVec("sphere-ellipsoid normal", pts[0].normal, mex, 1e-12);
  }
}

/* The signed distance from x to the convex g by a sphere of radius 0: MbCollide's gap. */
static PetscReal PointConvex(const MbGeomPrim *C, const PetscReal x[3])
{
  MbGeomPrim     S = Sphere(x, 1e-300, 0);
  MbContactPoint pts[MB_MAX_CONTACT_POINTS];
  PetscInt       n;
  MB_OK(MbCollide(&S, C, 1e300, EPS, &n, pts));
  assert_int_equal(n, 1);
  return pts[0].gap;
}

static void RandomHull(uint64_t *seed, const PetscReal c[3], PetscReal size, MbShape *s)
{
  PetscReal p[3 * 12];
  for (int k = 0; k < 36; k++) p[k] = c[k % 3] + size * (Uniform(seed) - 0.5);
  MB_OK(MbShapeCreate(s));
  MB_OK(MbShapeAddHull(*s, 12, p, 0, 5));
}

static void test_random_hulls(void **state)
{
  uint64_t seed = 11;
  for (int t = 0; t < 40; t++) {
    MbShape        h;
    PetscReal      c0[3] = {0, 0, 0}, R[9], r[3], c[3], dir[3], rr, best = PETSC_MAX_REAL;
    MbContactPoint pe[MB_MAX_CONTACT_POINTS], ps[MB_MAX_CONTACT_POINTS];
    PetscInt       ne, ns;
    RandomHull(&seed, c0, 1.0, &h);
    MbGeomPrim C = Convex(h);
    /* equal radii: the sphere's contact, at any distance (apart, touching, overlapping) */
    RandomRotation(&seed, R);
    rr = 0.2 + 0.3 * Uniform(&seed);
    for (int k = 0; k < 3; k++) dir[k] = Uniform(&seed) - 0.5;
    MbV3Scale((0.4 + 0.5 * Uniform(&seed)) / MbV3Norm(dir), dir, c);
    r[0] = r[1] = r[2] = rr;
    MbGeomPrim E = Ellipsoid(c, r, R, 1), S = Sphere(c, rr, 1);
    MB_OK(MbCollide(&C, &E, 10, EPS, &ne, pe));
    MB_OK(MbCollide(&C, &S, 10, EPS, &ns, ps));
    assert_int_equal(ne, 1);
    assert_int_equal(ns, 1);
    if (fabs(pe[0].gap - ps[0].gap) > 1e-9) printf("# t %d feature %d nv %d nf %d gaps %.15g %.15g\n", t, (int)pe[0].feature, (int)C.nv, (int)C.nf, pe[0].gap, ps[0].gap);
    MB_CLOSE(pe[0].gap, ps[0].gap, 1e-9);
    if (ps[0].gap > 1e-3) CheckVec("equal radii normal", pe[0].normal, ps[0].normal, 1e-6); /* a vertex or edge: the normal is unique only apart */
    /* any ellipsoid, apart: the least distance of its sampled surface to the hull */
    for (int k = 0; k < 3; k++) r[k] = 0.05 + 0.3 * Uniform(&seed);
    MbV3Scale((1.2 + 0.5 * Uniform(&seed)) / MbV3Norm(dir), dir, c);
    E = Ellipsoid(c, r, R, 1);
    MB_OK(MbCollide(&E, &C, 10, EPS, &ne, pe));
    assert_int_equal(ne, 1);
    for (int i = 0; i <= 200; i++)
      for (int j = 0; j < 400; j++) {
        PetscReal th = PETSC_PI * i / 200, ph = 2 * PETSC_PI * j / 400, u[3] = {r[0] * sin(th) * cos(ph), r[1] * sin(th) * sin(ph), r[2] * cos(th)}, x[3];
        MbM3Mult(R, u, x);
        MbV3Add(x, c, x);
        best = PetscMin(best, PointConvex(&C, x));
      }
    if (best > 0.02) { /* apart: the sampled distance is an upper bound, close to the true one */
      if (!(pe[0].gap <= best + 1e-12 && pe[0].gap >= best - 2e-3)) fail_msg("hull %d: gap %.15g, sampled distance %.15g", t, pe[0].gap, best);
    }
    MB_OK(MbShapeDestroy(&h));
  }
}

static void test_random_ellipsoids(void **state)
{
  uint64_t seed = 5;
  for (int t = 0; t < 30; t++) {
    PetscReal      Ra[9], Rb[9], ra[3], rb[3], ca[3] = {0, 0, 0}, cb[3], best = PETSC_MAX_REAL;
    MbContactPoint pts[MB_MAX_CONTACT_POINTS];
    PetscInt       n;
    RandomRotation(&seed, Ra);
    RandomRotation(&seed, Rb);
    for (int k = 0; k < 3; k++) ra[k] = 0.05 + 0.3 * Uniform(&seed), rb[k] = 0.05 + 0.3 * Uniform(&seed), cb[k] = Uniform(&seed) - 0.5;
    MbV3Scale(0.8 / MbV3Norm(cb), cb, cb);
    MbGeomPrim A = Ellipsoid(ca, ra, Ra, 1), B = Ellipsoid(cb, rb, Rb, 2);
    MB_OK(MbCollide(&A, &B, 10, EPS, &n, pts));
    assert_int_equal(n, 1);
    { /* the optimum's normal: the points on either side lie along it, gap apart */
      PetscReal pa[3], pb[3], d[3];
      MbV3Axpy(-0.5 * pts[0].gap, pts[0].normal, pts[0].point, pa);
      MbV3Axpy(0.5 * pts[0].gap, pts[0].normal, pts[0].point, pb);
      MbV3Sub(pb, pa, d);
      MB_CLOSE(MbV3Norm(pts[0].normal), 1.0, 1e-14);
    }
    /* sample B's surface; the distance of a point to A by a tiny sphere */
    for (int i = 0; i <= 150; i++)
      for (int j = 0; j < 300; j++) {
        PetscReal      th = PETSC_PI * i / 150, ph = 2 * PETSC_PI * j / 300, u[3] = {rb[0] * sin(th) * cos(ph), rb[1] * sin(th) * sin(ph), rb[2] * cos(th)}, x[3];
        MbContactPoint q[MB_MAX_CONTACT_POINTS];
        PetscInt       m;
        MbM3Mult(Rb, u, x);
        MbV3Add(x, cb, x);
        MbGeomPrim S = Sphere(x, 1e-300, 0);
        MB_OK(MbCollide(&A, &S, 1e300, EPS, &m, q));
        best = PetscMin(best, q[0].gap);
      }
    if (best > 0.02) {
      if (!(pts[0].gap <= best + 1e-12 && pts[0].gap >= best - 2e-3)) fail_msg("pair %d: gap %.15g, sampled distance %.15g", t, pts[0].gap, best);
    }
  }
}

int                            main(int argc, char **argv);
static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_symeigen), cmocka_unit_test(test_massprops), cmocka_unit_test(test_on_slab), cmocka_unit_test(test_pairs_on_axis), cmocka_unit_test(test_random_hulls), cmocka_unit_test(test_random_ellipsoids),
};
MB_TEST_MAIN(tests)
