/* Mass properties of shapes (seed 003: E₀ = ∫(X−X̄)⊗(X−X̄)ρ dV, J = tr(E₀) I − E₀) against
   values computed by hand: boxes, the unit tetrahedron, spheres, hulls of point clouds
   (with duplicated, coplanar and interior points), the four MESH element types, compounds
   by the parallel-axis theorem, and bad input with the message it gives. */
#include "mbtest.h"

/* ‖A − B‖_max ≤ rtol · ‖B‖_max for 3×3 matrices (row-major) */
static void CheckMat(const char *what, const PetscReal A[9], const PetscReal B[9], PetscReal rtol)
{
  PetscReal s = 0, e = 0;
  for (int k = 0; k < 9; k++) {
    s = PetscMax(s, PetscAbsReal(B[k]));
    e = PetscMax(e, PetscAbsReal(A[k] - B[k]));
  }
  if (!(e <= rtol * s)) fail_msg("%s: max error %.3e relative to %.3e exceeds %.1e (A00 %.17g vs %.17g)", what, e, s, rtol, A[0], B[0]);
}

static void CheckVec(const char *what, const PetscReal a[3], const PetscReal b[3], PetscReal tol)
{
  for (int d = 0; d < 3; d++)
    if (!(PetscAbsReal(a[d] - b[d]) <= tol)) fail_msg("%s[%d] = %.17g, expected %.17g within %g", what, d, a[d], b[d], tol);
}

/* Box [x0, x0+a]×[y0, y0+b]×[z0, z0+c] as a hexahedron, nodes in Solfec's order. */
static void BoxNodes(const PetscReal o[3], PetscReal a, PetscReal b, PetscReal c, PetscReal x[24])
{
  const PetscReal e[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  for (int i = 0; i < 8; i++) {
    x[3 * i + 0] = o[0] + a * e[i][0];
    x[3 * i + 1] = o[1] + b * e[i][1];
    x[3 * i + 2] = o[2] + c * e[i][2];
  }
}

/* Rotation by angle about the unit axis k, Rodrigues: R = cos θ I + sin θ k̂ + (1 − cos θ) k kᵀ. */
static void Rodrigues(const PetscReal k[3], PetscReal th, PetscReal R[9])
{
  PetscReal c = cos(th), s = sin(th);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) R[3 * i + j] = (i == j ? c : 0) + (1 - c) * k[i] * k[j];
  R[1] -= s * k[2];
  R[2] += s * k[1];
  R[3] += s * k[2];
  R[5] -= s * k[0];
  R[6] -= s * k[1];
  R[7] += s * k[0];
}

/* Box 0.3 × 0.3 × 0.1 of density 1/0.009 = 111.111…: V = 0.009, m = 1, centre at the box
   middle, and the textbook J = m/12 diag(b² + c², a² + c², a² + b²)
     = 1/12 diag(0.09 + 0.01, 0.09 + 0.01, 0.09 + 0.09) = diag(1/120, 1/120, 0.015).
   Rotated by θ about the unit axis k through a point p: J' = R J Rᵀ, X̄' = R(X̄ − p) + p. */
static void test_box(void **state)
{
  MbShape     s;
  MbMassProps mp;
  PetscReal   o[3] = {1, -2, 0.5}, x[24], rho = 1.0 / 0.009, J[9], c[3] = {1.15, -1.85, 0.55};
  MbM3Diag(0.1 / 12, 0.1 / 12, 0.18 / 12, J);
  BoxNodes(o, 0.3, 0.3, 0.1, x);
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddHex(s, x, NULL, 0));
  MB_OK(MbShapeMassProps(s, rho, &mp));
  MB_CLOSE(mp.volume, 0.009, 1e-12 * 0.009);
  MB_CLOSE(mp.mass, 1.0, 1e-12);
  CheckVec("box centre", mp.center, c, 1e-12 * 2);
  CheckMat("box inertia", mp.inertia, J, 1e-12);
  print_message("# box 0.3x0.3x0.1: V = %.17g, m = %.17g, J = diag(%.17g, %.17g, %.17g)\n", mp.volume, mp.mass, mp.inertia[0], mp.inertia[4], mp.inertia[8]);

  /* rotated by 0.7 rad about (1, 2, 2)/3 through p = (0.5, 0, 1) */
  PetscReal k[3] = {1.0 / 3, 2.0 / 3, 2.0 / 3}, dir[3] = {1, 2, 2}, p[3] = {0.5, 0, 1}, R[9], RJ[9], RJRt[9], cr[3], d[3];
  Rodrigues(k, 0.7, R);
  MbM3MatMult(R, J, RJ);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) RJRt[3 * i + j] = RJ[3 * i] * R[3 * j] + RJ[3 * i + 1] * R[3 * j + 1] + RJ[3 * i + 2] * R[3 * j + 2];
  MbV3Sub(c, p, d);
  MbM3Mult(R, d, cr);
  MbV3Add(cr, p, cr);
  MB_OK(MbShapeRotate(s, p, dir, 0.7));
  MB_OK(MbShapeMassProps(s, rho, &mp));
  MB_CLOSE(mp.mass, 1.0, 1e-12);
  CheckVec("rotated box centre", mp.center, cr, 1e-12 * 2);
  CheckMat("rotated box inertia R J R^T", mp.inertia, RJRt, 1e-12);
  MB_OK(MbShapeDestroy(&s));
}

/* Unit tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1), density 1. With the Dirichlet
   integral over the standard simplex ∫ x^a y^b z^c dV = a! b! c! / (a + b + c + 3)!:
     V = 1/6, ∫x = 1/24 so X̄ = (1/4, 1/4, 1/4), ∫x² = 2/120 = 1/60, ∫xy = 1/120.
   About the centre: E₀xx = 1/60 − V/16 = 1/60 − 1/96 = 1/160, E₀xy = 1/120 − 1/96 = −1/480.
   J = tr(E₀) I − E₀: Jxx = 3/160 − 1/160 = 1/80, Jxy = −E₀xy = +1/480, times ρ. (Tonon
   2004's closed form gives the same; the derivation above needs only the Dirichlet formula.) */
static void TetExpected(PetscReal rho, PetscReal J[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) J[3 * i + j] = rho * (i == j ? 1.0 / 80 : 1.0 / 480);
}

static const PetscReal TetPts[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};

static void test_tetrahedron(void **state)
{
  MbShape        s;
  MbMassProps    mp;
  const PetscInt fptr[5] = {0, 3, 6, 9, 12}, fv[12] = {0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3};
  PetscReal      J[9], c[3] = {0.25, 0.25, 0.25}, rho = 2.5;
  TetExpected(rho, J);
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddConvex(s, 4, TetPts, 4, fptr, fv, NULL, 0));
  MB_OK(MbShapeMassProps(s, rho, &mp));
  MB_CLOSE(mp.volume, 1.0 / 6, 1e-15);
  MB_CLOSE(mp.mass, rho / 6, 1e-15);
  CheckVec("tet centre", mp.center, c, 1e-15);
  CheckMat("tet inertia", mp.inertia, J, 1e-12);
  print_message("# unit tetrahedron, rho 2.5: V = %.17g, Jxx = %.17g (2.5/80), Jxy = %.17g (2.5/480)\n", mp.volume, mp.inertia[0], mp.inertia[1]);
  MB_OK(MbShapeDestroy(&s));
}

/* Ball of radius r: V = 4/3 π r³, ∫x² dV = V r²/5, so J = 2/5 m r² I. */
static void test_sphere(void **state)
{
  MbShape     s;
  MbMassProps mp;
  PetscReal   c[3] = {1, 2, 3}, r = 0.7, rho = 2, V = 4.0 / 3.0 * PETSC_PI * r * r * r, J[9];
  MbM3Diag(0.4 * rho * V * r * r, 0.4 * rho * V * r * r, 0.4 * rho * V * r * r, J);
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddSphere(s, c, r, 0, 0));
  MB_OK(MbShapeMassProps(s, rho, &mp));
  MB_CLOSE(mp.volume, V, 1e-12 * V);
  MB_CLOSE(mp.mass, rho * V, 1e-12 * V);
  CheckVec("sphere centre", mp.center, c, 1e-12 * 3);
  CheckMat("sphere inertia", mp.inertia, J, 1e-12);
  MB_OK(MbShapeDestroy(&s));
}

/* Checks that a convex primitive i of s contains every point (within tol) and that each
   face is planar and outward: all points lie behind every face's plane. */
static void CheckHullContains(MbShape s, PetscInt i, PetscInt np, const PetscReal p[], PetscReal tol)
{
  PetscInt         nv, nf;
  const PetscReal *v;
  const PetscInt  *fptr, *fv;
  MB_OK(MbShapeGetConvex(s, i, &nv, &v, &nf, &fptr, &fv, NULL));
  for (PetscInt f = 0; f < nf; f++) {
    PetscReal n[3] = {0, 0, 0}, len;
    PetscInt  m    = fptr[f + 1] - fptr[f];
    for (PetscInt k = 0; k < m; k++) { /* Newell's normal */
      const PetscReal *a = &v[3 * fv[fptr[f] + k]], *b = &v[3 * fv[fptr[f] + (k + 1) % m]];
      n[0] += (a[1] - b[1]) * (a[2] + b[2]);
      n[1] += (a[2] - b[2]) * (a[0] + b[0]);
      n[2] += (a[0] - b[0]) * (a[1] + b[1]);
    }
    len = MbV3Norm(n);
    assert_true(len > 0);
    MbV3Scale(1.0 / len, n, n);
    for (PetscInt k = 0; k < m; k++) { /* planar */
      PetscReal d[3];
      MbV3Sub(&v[3 * fv[fptr[f] + k]], &v[3 * fv[fptr[f]]], d);
      if (!(PetscAbsReal(MbV3Dot(n, d)) <= tol)) fail_msg("hull face %d is not planar: %g", (int)f, MbV3Dot(n, d));
    }
    for (PetscInt j = 0; j < np; j++) {
      PetscReal d[3];
      MbV3Sub(&p[3 * j], &v[3 * fv[fptr[f]]], d);
      if (!(MbV3Dot(n, d) <= tol)) fail_msg("point %d lies %g outside hull face %d", (int)j, MbV3Dot(n, d), (int)f);
    }
  }
}

/* The box of test_box translated to (5, −2, 3) given to HULL as its 8 corners shuffled with
   interior points, points on its faces and edges (coplanar and collinear with corners) and
   duplicates: the same mass properties as the box, and 8 vertices and 6 faces. */
static void test_hull_box(void **state)
{
  MbShape         s;
  MbMassProps     mp;
  PetscReal       o[3] = {5 - 0.15, -2 - 0.15, 3 - 0.05}, x[24], p[3 * 40], J[9], c[3] = {5, -2, 3}, rho = 1.0 / 0.009;
  PetscInt        np         = 0, nv, nf;
  const PetscReal extra[][3] = {{0.5, 0.5, 0.5}, {0.1, 0.2, 0.3}, {0.5, 0.5, 0}, {0.5, 0.5, 1}, {0, 0.5, 0.5}, {1, 0.3, 0.7}, {0.5, 0, 0}, {1, 1, 0.5}, {0, 0.25, 1}, {0.75, 1, 0}, {0.9, 0.9, 0.9}, {0, 0, 0.5}};
  MbM3Diag(0.1 / 12, 0.1 / 12, 0.18 / 12, J);
  BoxNodes(o, 0.3, 0.3, 0.1, x);
  /* interior and boundary points first, so that some become vertices before the corners
     arrive and must be removed again */
  for (int e = 0; e < 12; e++) {
    p[3 * np + 0] = o[0] + 0.3 * extra[e][0];
    p[3 * np + 1] = o[1] + 0.3 * extra[e][1];
    p[3 * np + 2] = o[2] + 0.1 * extra[e][2];
    np++;
  }
  for (int k = 0; k < 8; k++) {
    int i = (3 * k + 5) % 8; /* shuffled corners, each twice */
    MbV3Copy(&x[3 * i], &p[3 * np++]);
    MbV3Copy(&x[3 * i], &p[3 * np++]);
  }
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddHull(s, np, p, 0, 7));
  MB_OK(MbShapeGetConvex(s, 0, &nv, NULL, &nf, NULL, NULL, NULL));
  print_message("# hull of %d box points (corners, duplicates, interior, face and edge points): %d vertices, %d faces\n", (int)np, (int)nv, (int)nf);
  assert_int_equal(nv, 8);
  assert_int_equal(nf, 6);
  CheckHullContains(s, 0, np, p, 1e-12);
  MB_OK(MbShapeMassProps(s, rho, &mp));
  MB_CLOSE(mp.volume, 0.009, 1e-12 * 0.009);
  MB_CLOSE(mp.mass, 1.0, 1e-12);
  CheckVec("hull box centre", mp.center, c, 1e-12 * 5);
  CheckMat("hull box inertia", mp.inertia, J, 1e-12);
  MB_OK(MbShapeDestroy(&s));
}

/* Regular octahedron |x| + |y| + |z| ≤ a: eight simplices of edge a, so V = 8 a³/6 = 4a³/3
   and ∫x² = 8 · 2a⁵/120 = 2a⁵/15, hence J = ρ 4a⁵/15 I = m a²/5 I. Its hull (with the
   centre and midpoints of its edges as extra points) against that; the tetrahedron's hull
   against test_tetrahedron's closed form. */
static void test_hull_octahedron_tetrahedron(void **state)
{
  MbShape     s;
  MbMassProps mp;
  PetscReal   a = 1.3, rho = 0.8, p[3 * 20], J[9], z[3] = {0, 0, 0}, V = 4 * a * a * a / 3;
  PetscInt    np = 0, nv, nf;
  for (int d = 0; d < 3; d++)
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      MbV3Set(&p[3 * np], 0, 0, 0);
      p[3 * np++ + d] = sgn * a;
    }
  for (int k = 2; k < 6; k++) { /* midpoints of the edges from (a, 0, 0): on the boundary */
    MbV3Scale(0.5, &p[3 * k], &p[3 * np]);
    p[3 * np++] += 0.5 * a;
  }
  MbV3Set(&p[3 * np++], 0, 0, 0);
  MbM3Diag(rho * V * a * a / 5, rho * V * a * a / 5, rho * V * a * a / 5, J);
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddHull(s, np, p, 0, 0));
  MB_OK(MbShapeGetConvex(s, 0, &nv, NULL, &nf, NULL, NULL, NULL));
  assert_int_equal(nv, 6);
  assert_int_equal(nf, 8);
  MB_OK(MbShapeMassProps(s, rho, &mp));
  MB_CLOSE(mp.volume, V, 1e-12 * V);
  CheckVec("octahedron centre", mp.center, z, 1e-12);
  CheckMat("octahedron inertia", mp.inertia, J, 1e-12);
  MB_OK(MbShapeDestroy(&s));

  PetscReal q[3 * 6], c[3] = {0.25, 0.25, 0.25};
  MB_OK(PetscArraycpy(q, TetPts, 12));
  MbV3Copy(c, &q[12]);          /* the centroid: inside */
  MbV3Set(&q[15], 0.5, 0.5, 0); /* on the face z = 0 */
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddHull(s, 6, q, 0, 0));
  MB_OK(MbShapeGetConvex(s, 0, &nv, NULL, &nf, NULL, NULL, NULL));
  assert_int_equal(nv, 4);
  assert_int_equal(nf, 4);
  TetExpected(1.0, J);
  MB_OK(MbShapeMassProps(s, 1.0, &mp));
  MB_CLOSE(mp.volume, 1.0 / 6, 1e-15);
  CheckVec("tet hull centre", mp.center, c, 1e-15);
  CheckMat("tet hull inertia", mp.inertia, J, 1e-12);
  MB_OK(MbShapeDestroy(&s));
}

/* Deterministic uniform numbers in [0, 1) (a 64-bit LCG, Knuth's MMIX constants). */
static PetscReal Uniform(uint64_t *x)
{
  *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)(*x >> 11) / 9007199254740992.0;
}

/* Clouds that stress the tolerance: a shuffled 5×5×5 lattice (hull: the unit cube, with
   many points on its faces and edges), random points in a cube far from the origin, and
   random points on a sphere (every point a vertex). */
static void test_hull_clouds(void **state)
{
  MbShape     s;
  MbMassProps mp;
  uint64_t    seed = 12345;
  PetscInt    n = 5, np = n * n * n, nv, nf;
  PetscReal  *p;
  MB_OK(PetscMalloc1(3 * 2000, &p));
  for (PetscInt i = 0; i < np; i++) MbV3Set(&p[3 * i], (PetscReal)(i % n) / (n - 1), (PetscReal)((i / n) % n) / (n - 1), (PetscReal)(i / (n * n)) / (n - 1));
  for (PetscInt i = np - 1; i > 0; i--) { /* Fisher–Yates */
    PetscInt  j = (PetscInt)(Uniform(&seed) * (i + 1));
    PetscReal t[3];
    MbV3Copy(&p[3 * i], t);
    MbV3Copy(&p[3 * j], &p[3 * i]);
    MbV3Copy(t, &p[3 * j]);
  }
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddHull(s, np, p, 0, 0));
  MB_OK(MbShapeGetConvex(s, 0, &nv, NULL, &nf, NULL, NULL, NULL));
  print_message("# hull of a shuffled 5x5x5 lattice: %d vertices, %d faces\n", (int)nv, (int)nf);
  assert_int_equal(nv, 8);
  assert_int_equal(nf, 6);
  MB_OK(MbShapeMassProps(s, 1.0, &mp));
  MB_CLOSE(mp.volume, 1.0, 1e-14);
  MB_OK(MbShapeDestroy(&s));

  np = 2000;
  for (PetscInt i = 0; i < np; i++) MbV3Set(&p[3 * i], 100 + Uniform(&seed), -50 + Uniform(&seed), 7 + Uniform(&seed));
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddHull(s, np, p, 0, 0));
  MB_OK(MbShapeGetConvex(s, 0, &nv, NULL, &nf, NULL, NULL, NULL));
  CheckHullContains(s, 0, np, p, 1e-9);
  MB_OK(MbShapeMassProps(s, 1.0, &mp));
  print_message("# hull of 2000 random points in a unit cube at (100, -50, 7): %d vertices, %d faces, volume %.6f\n", (int)nv, (int)nf, mp.volume);
  assert_true(mp.volume > 0.9 && mp.volume < 1.0);
  MB_OK(MbShapeDestroy(&s));

  np = 500;
  for (PetscInt i = 0; i < np; i++) {
    PetscReal zz = 2 * Uniform(&seed) - 1, ph = 2 * PETSC_PI * Uniform(&seed), rr = sqrt(1 - zz * zz);
    MbV3Set(&p[3 * i], rr * cos(ph), rr * sin(ph), zz);
  }
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddHull(s, np, p, 0, 0));
  MB_OK(MbShapeGetConvex(s, 0, &nv, NULL, &nf, NULL, NULL, NULL));
  CheckHullContains(s, 0, np, p, 1e-9);
  MB_OK(MbShapeMassProps(s, 1.0, &mp));
  print_message("# hull of 500 random points on the unit sphere: %d vertices, %d faces (Euler: 2V-4 = %d), volume %.6f (ball %.6f)\n", (int)nv, (int)nf, (int)(2 * nv - 4), mp.volume, 4 * PETSC_PI / 3);
  assert_int_equal(nv, 500);
  assert_int_equal(nf, 2 * nv - 4);
  assert_true(mp.volume > 0.97 * 4 * PETSC_PI / 3 && mp.volume < 4 * PETSC_PI / 3);
  MB_OK(MbShapeDestroy(&s));
  MB_OK(PetscFree(p));
}

/* The four element types against closed forms:
   tetrahedron: the unit one, V = 1/6, X̄ = (1/4, 1/4, 1/4);
   pyramid: unit square base at z = 0, apex (0.2, 0.3, 1.2): V = A h/3 = 0.4, and the
     centroid of a cone is ¾ of the base centroid plus ¼ of the apex: (0.425, 0.45, 0.3);
   wedge: triangle (0,0,0), (1,0,0), (0,1,0) extruded by 2 in z: V = ½·2 = 1, X̄ = (⅓, ⅓, 1);
   hexahedron: box 1 × 2 × 3 at (1, 1, 1): V = 6, X̄ = (1.5, 2, 2.5), J = m/12 diag(13, 10, 5).
   The same elements with the base given clockwise (inverted) give the same numbers. */
static void test_elements(void **state)
{
  const PetscReal  tet[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  const PetscReal  pyr[15] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.2, 0.3, 1.2};
  const PetscReal  wed[18] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 1, 0, 2, 0, 1, 2};
  PetscReal        hex[24], o[3] = {1, 1, 1};
  const PetscReal *nodes[4] = {tet, pyr, wed, hex};
  const PetscInt   type[4] = {4, 5, 6, 8}, nfaces[4] = {4, 5, 5, 6};
  const PetscReal  vol[4]    = {1.0 / 6, 0.4, 1.0, 6.0};
  const PetscReal  cen[4][3] = {{0.25, 0.25, 0.25}, {0.425, 0.45, 0.3}, {1.0 / 3, 1.0 / 3, 1}, {1.5, 2, 2.5}};
  const PetscInt   surf[6]   = {11, 12, 13, 14, 15, 16};
  BoxNodes(o, 1, 2, 3, hex);
  for (int e = 0; e < 4; e++)
    for (int inv = 0; inv < 2; inv++) {
      MbShape         s;
      MbMassProps     mp;
      PetscReal       x[24];
      PetscInt        nb = e == 0 ? 3 : e == 1 ? 4 : e == 2 ? 3 : 4, nf;
      const PetscInt *fs;
      MB_OK(PetscArraycpy(x, nodes[e], 3 * type[e]));
      if (inv) /* reverse the base (and the top above it): clockwise from above */
        for (PetscInt k = 1; k < nb - k; k++)
          for (int d = 0; d < 3; d++) {
            PetscReal t         = x[3 * k + d];
            x[3 * k + d]        = x[3 * (nb - k) + d];
            x[3 * (nb - k) + d] = t;
            if (type[e] == 2 * nb) {
              t                        = x[3 * (nb + k) + d];
              x[3 * (nb + k) + d]      = x[3 * (nb + nb - k) + d];
              x[3 * (nb + nb - k) + d] = t;
            }
          }
      MB_OK(MbShapeCreate(&s));
      MB_OK(MbShapeAddElement(s, type[e], x, surf, 3));
      MB_OK(MbShapeGetConvex(s, 0, NULL, NULL, &nf, NULL, NULL, &fs));
      assert_int_equal(nf, nfaces[e]);
      for (PetscInt f = 0; f < nf; f++) assert_int_equal(fs[f], surf[f]);
      MB_OK(MbShapeMassProps(s, 1.0, &mp));
      MB_CLOSE(mp.volume, vol[e], 1e-14);
      CheckVec("element centre", mp.center, cen[e], 1e-14);
      if (e == 3) {
        PetscReal J[9];
        MbM3Diag(6.0 / 12 * 13, 6.0 / 12 * 10, 6.0 / 12 * 5, J);
        CheckMat("hexahedron element inertia", mp.inertia, J, 1e-12);
      }
      if (!inv) print_message("# element %d nodes: V = %.17g, centre (%.17g, %.17g, %.17g)\n", (int)type[e], mp.volume, mp.center[0], mp.center[1], mp.center[2]);
      MB_OK(MbShapeDestroy(&s));
    }
}

/* Compounds. Two spheres: m_i = ρ 4/3 π r_i³, X̄ = Σ m_i c_i / Σ m_i, and by the
   parallel-axis theorem J = Σ [2/5 m_i r_i² I + m_i (|d_i|² I − d_i ⊗ d_i)], d_i = c_i − X̄.
   Two unit cubes side by side along x are the box 2 × 1 × 1: m = 2ρ,
   J = m/12 diag(1 + 1, 4 + 1, 4 + 1). */
static void test_compound(void **state)
{
  MbShape     s;
  MbMassProps mp;
  PetscReal   c1[3] = {0, 0, 0}, c2[3] = {2, 1, -0.5}, r1 = 0.5, r2 = 0.25, rho = 3, m1, m2, X[3], J[9] = {0};
  m1 = rho * 4.0 / 3.0 * PETSC_PI * r1 * r1 * r1;
  m2 = rho * 4.0 / 3.0 * PETSC_PI * r2 * r2 * r2;
  for (int d = 0; d < 3; d++) X[d] = (m1 * c1[d] + m2 * c2[d]) / (m1 + m2);
  for (int b = 0; b < 2; b++) {
    PetscReal m = b ? m2 : m1, r = b ? r2 : r1, d[3];
    MbV3Sub(b ? c2 : c1, X, d);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) J[3 * i + j] += (i == j ? 0.4 * m * r * r + m * MbV3Dot(d, d) : 0) - m * d[i] * d[j];
  }
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddSphere(s, c1, r1, 0, 0));
  MB_OK(MbShapeAddSphere(s, c2, r2, 1, 1));
  MB_OK(MbShapeMassProps(s, rho, &mp));
  MB_CLOSE(mp.mass, m1 + m2, 1e-12 * (m1 + m2));
  CheckVec("two spheres centre", mp.center, X, 1e-12);
  CheckMat("two spheres inertia", mp.inertia, J, 1e-12);
  print_message("# two spheres: m = %.17g, centre (%.17g, %.17g, %.17g), J00 = %.17g (expected %.17g)\n", mp.mass, mp.center[0], mp.center[1], mp.center[2], mp.inertia[0], J[0]);
  MB_OK(MbShapeDestroy(&s));

  PetscReal x[24], o1[3] = {0, 0, 0}, o2[3] = {1, 0, 0}, c[3] = {1, 0.5, 0.5};
  MB_OK(MbShapeCreate(&s));
  BoxNodes(o1, 1, 1, 1, x);
  MB_OK(MbShapeAddHex(s, x, NULL, 0));
  BoxNodes(o2, 1, 1, 1, x);
  MB_OK(MbShapeAddElement(s, 8, x, NULL, 0));
  MB_OK(MbShapeMassProps(s, rho, &mp));
  MbM3Diag(2 * rho / 12 * 2, 2 * rho / 12 * 5, 2 * rho / 12 * 5, J);
  MB_CLOSE(mp.mass, 2 * rho, 1e-14);
  CheckVec("two cubes centre", mp.center, c, 1e-14);
  CheckMat("two cubes inertia", mp.inertia, J, 1e-12);
  MB_OK(MbShapeDestroy(&s));
}

static void test_bad_input(void **state)
{
  MbShape     s;
  MbMassProps mp;
  PetscReal   flat[3 * 9], x[24], o[3] = {0, 0, 0}, c[3] = {0, 0, 0};
  PetscInt    k = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) MbV3Set(&flat[3 * k++], i, j, 1.0 + 0.5 * i - 0.25 * j); /* all in one plane */
  MB_OK(MbShapeCreate(&s));
  MB_FAILS(MbShapeAddHull(s, 9, flat, 0, 0), "HULL: points are coplanar: the hull has no volume");
  MB_FAILS(MbShapeAddHull(s, 9, flat, 0, 0), "largest distance");
  for (int i = 0; i < 4; i++) MbV3Set(&flat[3 * i], i, 2 * i, -i); /* collinear */
  MB_FAILS(MbShapeAddHull(s, 4, flat, 0, 0), "HULL: points are coplanar");
  MB_FAILS(MbShapeAddHull(s, 3, TetPts, 0, 0), "at least 4 points are needed, got 3");
  MB_OK(PetscArraycpy(flat, TetPts, 12));
  flat[7] = NAN;
  MB_FAILS(MbShapeAddHull(s, 4, flat, 0, 0), "not finite");
  BoxNodes(o, 1, 1, 0, x); /* top on the bottom */
  MB_FAILS(MbShapeAddElement(s, 8, x, NULL, 0), "hexahedron (8 nodes) has zero volume: 0");
  MB_FAILS(MbShapeAddElement(s, 7, x, NULL, 0), "element type 7 is not supported");
  {
    /* the unit tetrahedron with one face turned inward, a pyramid without its base, and
       a face with a repeated vertex */
    const PetscInt  fptr[5] = {0, 3, 6, 9, 12}, turned[12] = {0, 1, 2, 0, 1, 3, 1, 2, 3, 2, 0, 3}, open[12] = {0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4}, rep[12] = {0, 0, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3};
    const PetscReal pyr[15] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 1};
    MB_FAILS(MbShapeAddConvex(s, 4, TetPts, 4, fptr, turned, NULL, 0), "edge (0, 1) occurs twice in the same direction");
    MB_FAILS(MbShapeAddConvex(s, 5, pyr, 4, fptr, open, NULL, 0), "faces do not close the volume: edge (0, 1) has no face on its other side");
    MB_FAILS(MbShapeAddConvex(s, 4, TetPts, 4, fptr, rep, NULL, 0), "repeats vertex 0");
  }
  MB_FAILS(MbShapeAddSphere(s, c, 0, 0, 0), "radius must be > 0, got 0");
  MB_FAILS(MbShapeAddSphere(s, c, -1, 0, 0), "radius must be > 0, got -1");
  MB_OK(MbShapeAddSphere(s, c, 1, 0, 0));
  MB_FAILS(MbShapeMassProps(s, -1, &mp), "density must be > 0, got -1");
  MB_FAILS(MbShapeMassProps(s, 0, &mp), "density must be > 0, got 0");
  MB_OK(MbShapeDestroy(&s));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_box),         cmocka_unit_test(test_tetrahedron), cmocka_unit_test(test_sphere),   cmocka_unit_test(test_hull_box),  cmocka_unit_test(test_hull_octahedron_tetrahedron),
    cmocka_unit_test(test_hull_clouds), cmocka_unit_test(test_elements),    cmocka_unit_test(test_compound), cmocka_unit_test(test_bad_input),
};
MB_TEST_MAIN(tests)
