/* Narrow phase (MbCollide, MbGeomPrimBox) against values computed by hand: two spheres;
   a sphere at a box's face, edge and vertex, inside it, and given first or second (the
   normal flips); a unit cube resting on a slab, turned 45° about z, tilted about x (edge on
   face), two cubes crossed edge to edge, a tetrahedron on its vertex, separated boxes
   beyond and within the margin; then random hulls against spheres (checked by sampling
   the hull's surface) and against each other (the normal is the axis of least penetration
   over every face normal and edge pair), and bad input. */
#include "mbtest.h"

#define EPS 1e-9 /* GEOMETRIC_EPSILON in these tests */

static PetscReal Uniform(uint64_t *s) /* xorshift64* (Vigna 2016) */
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return (PetscReal)((*s * UINT64_C(2685821657736338717)) >> 11) / 9007199254740992.0;
}

static MbGeomPrim Sphere(PetscReal x, PetscReal y, PetscReal z, PetscReal r, PetscInt surfid)
{
  MbGeomPrim g;
  memset(&g, 0, sizeof(g));
  g.kind = MB_PRIM_SPHERE;
  MbV3Set(g.c, x, y, z);
  g.r      = r;
  g.surfid = surfid;
  return g;
}

/* Convex primitive 0 of s (borrowing its arrays). */
static MbGeomPrim Convex(MbShape s)
{
  MbGeomPrim g;
  memset(&g, 0, sizeof(g));
  g.kind = MB_PRIM_CONVEX;
  MB_OK(MbShapeGetConvex(s, 0, &g.nv, &g.v, &g.nf, &g.fptr, &g.fvert, &g.fsurf));
  return g;
}

/* The box [lo, hi] as a hexahedron with surface ids s0 + (0..5) in Solfec's face order:
   bottom, top, y = lo, x = hi, y = hi, x = lo. */
static MbShape Box(PetscReal x0, PetscReal y0, PetscReal z0, PetscReal x1, PetscReal y1, PetscReal z1, PetscInt s0)
{
  MbShape        s;
  const PetscInt surf[6] = {s0, s0 + 1, s0 + 2, s0 + 3, s0 + 4, s0 + 5};
  PetscReal      x[24]   = {x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0, x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1};
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddHex(s, x, surf, 0));
  return s;
}

static void CheckVec(const char *what, const PetscReal a[3], const PetscReal b[3], PetscReal tol)
{
  for (int d = 0; d < 3; d++)
    if (!(PetscAbsReal(a[d] - b[d]) <= tol)) fail_msg("%s: (%.17g, %.17g, %.17g), expected (%.17g, %.17g, %.17g) within %g", what, a[0], a[1], a[2], b[0], b[1], b[2], tol);
}

/* n points with the given gap, normal and surfaces, at the expected places in any order;
   distinct feature ids. */
static void ExpectPoints(const char *what, PetscInt n, const MbContactPoint pts[], PetscInt ne, const PetscReal xe[][3], PetscReal gap, const PetscReal nrm[3], PetscInt s0, PetscInt s1, PetscReal tol)
{
  PetscBool used[MB_MAX_CONTACT_POINTS] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
  if (n != ne) fail_msg("%s: %d points, expected %d", what, (int)n, (int)ne);
  for (PetscInt k = 0; k < n; k++) {
    MB_CLOSE(pts[k].gap, gap, tol);
    CheckVec(what, pts[k].normal, nrm, tol);
    assert_int_equal(pts[k].surf[0], s0);
    assert_int_equal(pts[k].surf[1], s1);
    for (PetscInt j = 0; j < k; j++)
      if (pts[j].feature == pts[k].feature) fail_msg("%s: points %d and %d have the same feature id %d", what, (int)j, (int)k, (int)pts[k].feature);
  }
  for (PetscInt e = 0; e < ne; e++) {
    PetscInt hit = -1;
    for (PetscInt k = 0; k < n && hit < 0; k++) {
      PetscReal d[3];
      MbV3Sub(pts[k].point, xe[e], d);
      if (!used[k] && MbV3Norm(d) <= tol) hit = k;
    }
    if (hit < 0) fail_msg("%s: no point at (%g, %g, %g); first point (%.17g, %.17g, %.17g)", what, xe[e][0], xe[e][1], xe[e][2], pts[0].point[0], pts[0].point[1], pts[0].point[2]);
    used[hit] = PETSC_TRUE;
  }
}

/* Spheres a (c = (1, 2, 3), r = 0.5) and b at distance 0.9 along (0.6, 0.8, 0): gap
   0.9 − 1 = −0.1, normal (0.6, 0.8, 0), surface points a.c + 0.5 n = (1.3, 2.4, 3) and
   b.c − 0.5 n = (1.24, 2.32, 3), midway (1.27, 2.36, 3). At distance 1.05: gap 0.05,
   reported with margin 0.1, not with 0.01. */
static void test_sphere_sphere(void **state)
{
  MbGeomPrim     a = Sphere(1, 2, 3, 0.5, 7), b = Sphere(1.54, 2.72, 3, 0.5, 9);
  MbContactPoint pts[MB_MAX_CONTACT_POINTS];
  PetscInt       n;
  PetscReal      x[1][3] = {{1.27, 2.36, 3}}, nrm[3] = {0.6, 0.8, 0}, mnrm[3] = {-0.6, -0.8, 0};
  MB_OK(MbCollide(&a, &b, 0, EPS, &n, pts));
  ExpectPoints("sphere-sphere", n, pts, 1, x, -0.1, nrm, 7, 9, 1e-14);
  assert_int_equal(pts[0].feature, 0);
  MB_OK(MbCollide(&b, &a, 0, EPS, &n, pts));
  ExpectPoints("sphere-sphere swapped", n, pts, 1, x, -0.1, mnrm, 9, 7, 1e-14);
  b       = Sphere(1 + 0.63, 2 + 0.84, 3, 0.5, 9);
  x[0][0] = 1 + 0.3 + 0.015;
  x[0][1] = 2 + 0.4 + 0.02;
  MB_OK(MbCollide(&a, &b, 0.1, EPS, &n, pts));
  ExpectPoints("sphere-sphere within margin", n, pts, 1, x, 0.05, nrm, 7, 9, 1e-14);
  MB_OK(MbCollide(&a, &b, 0.01, EPS, &n, pts));
  assert_int_equal(n, 0);
}

/* The unit cube [0,1]³ (surfaces 11..16: bottom 11, top 12, y=0 13, x=1 14, y=1 15, x=0 16)
   and a sphere near its top face, its edge x = z = 1, its vertex (1, 1, 1), and inside. */
static void test_sphere_box(void **state)
{
  MbShape        s = Box(0, 0, 0, 1, 1, 1, 11);
  MbGeomPrim     c = Convex(s), b;
  MbContactPoint pts[MB_MAX_CONTACT_POINTS];
  PetscInt       n;
  /* face: centre 0.2 above the top, r = 0.3: gap −0.1, points (0.5,0.5,1) and (0.5,0.5,0.9) */
  {
    PetscReal x[1][3] = {{0.5, 0.5, 0.95}}, up[3] = {0, 0, 1}, down[3] = {0, 0, -1};
    b = Sphere(0.5, 0.5, 1.2, 0.3, 3);
    MB_OK(MbCollide(&c, &b, 0, EPS, &n, pts));
    ExpectPoints("sphere on the top face", n, pts, 1, x, -0.1, up, 12, 3, 1e-14);
    MB_OK(MbCollide(&b, &c, 0, EPS, &n, pts)); /* sphere first: the normal flips */
    ExpectPoints("sphere on the top face, sphere first", n, pts, 1, x, -0.1, down, 3, 12, 1e-14);
  }
  /* edge: centre (1.3, 0.5, 1.4) is 0.5 from (1, 0.5, 1) along (0.6, 0, 0.8); r = 0.6: gap
     −0.1, sphere point c − 0.6 n = (0.94, 0.5, 0.92), midway (0.97, 0.5, 0.96); the top face
     (n·e_z = 0.8) faces it more squarely than x = 1 (0.6) */
  {
    PetscReal x[1][3] = {{0.97, 0.5, 0.96}}, nrm[3] = {0.6, 0, 0.8};
    b = Sphere(1.3, 0.5, 1.4, 0.6, 3);
    MB_OK(MbCollide(&c, &b, 0, EPS, &n, pts));
    ExpectPoints("sphere at the edge", n, pts, 1, x, -0.1, nrm, 12, 3, 1e-14);
  }
  /* vertex: centre (1.24, 1.12, 1.08) is 0.28 from (1, 1, 1) along (6, 3, 2)/7; r = 0.3:
     gap −0.02, sphere point c − 0.3 n, midway ((1 + 1.24 − 1.8/7)/2, (1 + 1.12 − 0.9/7)/2,
     (1 + 1.08 − 0.6/7)/2); x = 1 faces it most squarely (6/7) */
  {
    PetscReal x[1][3] = {{(2.24 - 1.8 / 7) / 2, (2.12 - 0.9 / 7) / 2, (2.08 - 0.6 / 7) / 2}}, nrm[3] = {6.0 / 7, 3.0 / 7, 2.0 / 7};
    b = Sphere(1.24, 1.12, 1.08, 0.3, 3);
    MB_OK(MbCollide(&c, &b, 0, EPS, &n, pts));
    ExpectPoints("sphere at the vertex", n, pts, 1, x, -0.02, nrm, 14, 3, 1e-14);
    b.r     = 0.25; /* gap 0.03: reported within margin 0.05, not within 0.02 */
    x[0][0] = (2.24 - 1.5 / 7) / 2;
    x[0][1] = (2.12 - 0.75 / 7) / 2;
    x[0][2] = (2.08 - 0.5 / 7) / 2;
    MB_OK(MbCollide(&c, &b, 0.05, EPS, &n, pts));
    ExpectPoints("sphere near the vertex", n, pts, 1, x, 0.03, nrm, 14, 3, 1e-14);
    MB_OK(MbCollide(&c, &b, 0.02, EPS, &n, pts));
    assert_int_equal(n, 0);
  }
  /* inside: centre (0.5, 0.5, 0.8), r = 0.1; the top is the nearest face (0.2 away): gap
     −0.2 − 0.1 = −0.3, points (0.5, 0.5, 1) and (0.5, 0.5, 0.7), midway z = 0.85 */
  {
    PetscReal x[1][3] = {{0.5, 0.5, 0.85}}, up[3] = {0, 0, 1}, down[3] = {0, 0, -1};
    b = Sphere(0.5, 0.5, 0.8, 0.1, 3);
    MB_OK(MbCollide(&c, &b, 0, EPS, &n, pts));
    ExpectPoints("sphere inside the box", n, pts, 1, x, -0.3, up, 12, 3, 1e-14);
    MB_OK(MbCollide(&b, &c, 0, EPS, &n, pts));
    ExpectPoints("sphere inside the box, sphere first", n, pts, 1, x, -0.3, down, 3, 12, 1e-14);
  }
  /* far: nothing */
  b = Sphere(3, 3, 3, 0.5, 3);
  MB_OK(MbCollide(&c, &b, 0.1, EPS, &n, pts));
  assert_int_equal(n, 0);
  MB_OK(MbShapeDestroy(&s));
}

/* The slab [−5, 5]² × [−1, 0] (surfaces 1..6, top 2) and the unit cube (11..16, bottom 11)
   sunk by 0.01: four points at the cube's bottom corners, midway z = −0.005, gap −0.01,
   normal e_z from the slab to the cube. Moved sideways by 0.1 the ids stay. */
static void test_cube_on_slab(void **state)
{
  MbShape        slab = Box(-5, -5, -1, 5, 5, 0, 1), cube = Box(0, 0, -0.01, 1, 1, 0.99, 11);
  MbGeomPrim     a = Convex(slab), b = Convex(cube);
  MbContactPoint pts[MB_MAX_CONTACT_POINTS], first[MB_MAX_CONTACT_POINTS];
  PetscInt       n;
  PetscReal      x[4][3] = {{0, 0, -0.005}, {1, 0, -0.005}, {1, 1, -0.005}, {0, 1, -0.005}}, up[3] = {0, 0, 1}, down[3] = {0, 0, -1}, d[3] = {0.1, 0, 0};
  MB_OK(MbCollide(&a, &b, 0, EPS, &n, pts));
  ExpectPoints("cube on a slab", n, pts, 4, x, -0.01, up, 2, 11, 1e-14);
  memcpy(first, pts, sizeof(pts));
  MB_OK(MbCollide(&b, &a, 0, EPS, &n, pts));
  ExpectPoints("cube on a slab, cube first", n, pts, 4, x, -0.01, down, 11, 2, 1e-14);
  MB_OK(MbShapeTranslate(cube, d));
  b = Convex(cube);
  MB_OK(MbCollide(&a, &b, 0, EPS, &n, pts));
  assert_int_equal(n, 4);
  for (PetscInt k = 0; k < 4; k++) {
    assert_int_equal(pts[k].feature, first[k].feature);
    MB_CLOSE(pts[k].point[0], first[k].point[0] + 0.1, 1e-14);
  }
  MB_OK(MbShapeDestroy(&slab));
  MB_OK(MbShapeDestroy(&cube));
}

/* A deformed hexahedral element resting on a slab (the bottom nodes of a FINITE_ELEMENT
   brick, sunk by 3e-5 to 1e-4 each, so its faces are warped): the contact is its bottom
   face on the slab, normal +z, four points at the nodes. Two of its bottom edges are nearly
   parallel to the slab's; their cross product once passed the Gauss-map test as an edge
   axis with a horizontal normal and a point 0.9 m away (the edges are the support points of
   that axis only for planar faces). */
static void test_warped_element_on_slab(void **state)
{
  const PetscReal e[24] = {0.54999999938578337,     0.099999814998686612, -3.1062821273567242e-05, 0.60001634299072315,     0.099999871602123272, -3.8229169626288238e-05, 0.60000230988166126,  0.20000641842044098,
                           -9.8002786563724663e-05, 0.55000004024498328,  0.2000115540113378,      -6.7675854514522108e-05, 0.5500039498997642,   0.099984876358055016,    0.099879864336421043, 0.60000847616620834,
                           0.099982146287240434,    0.09988029817866631,  0.600010537307195,       0.20001258952904349,     0.099891580002051783, 0.55000672722426613,     0.20000478824529264,  0.099888488926971344};
  MbShape         slab  = Box(-1, -1, -0.2, 2, 1, 0, 1), el;
  MbGeomPrim      a     = Convex(slab), b;
  MbContactPoint  pts[MB_MAX_CONTACT_POINTS];
  PetscInt        n, surf[6] = {1, 1, 1, 1, 1, 1};
  MB_OK(MbShapeCreate(&el));
  MB_OK(MbShapeAddHex(el, e, surf, 1));
  b = Convex(el);
  MB_OK(MbCollide(&a, &b, 1e-6, 1e-6, &n, pts));
  assert_int_equal(n, 4);
  for (PetscInt k = 0; k < n; k++) {
    MB_CLOSE(pts[k].normal[2], 1.0, 1e-12);
    if (!(pts[k].point[0] > 0.5 && pts[k].point[0] < 0.61 && pts[k].point[1] > 0.09 && pts[k].point[1] < 0.21)) fail_msg("point %d at (%g, %g, %g), outside the element's bottom face", (int)k, pts[k].point[0], pts[k].point[1], pts[k].point[2]);
  }
  MB_OK(MbShapeDestroy(&slab));
  MB_OK(MbShapeDestroy(&el));
}

/* The unit cube centred on the z axis, turned 45° about it, sunk by 0.02: its bottom
   corners at distance √2/2 from the axis on the x and y axes. */
static void test_cube_turned_on_slab(void **state)
{
  MbShape        slab = Box(-5, -5, -1, 5, 5, 0, 1), cube = Box(-0.5, -0.5, -0.02, 0.5, 0.5, 0.98, 11);
  PetscReal      o[3] = {0, 0, 0}, ez[3] = {0, 0, 1}, h = sqrt(0.5);
  PetscReal      x[4][3] = {{h, 0, -0.01}, {0, h, -0.01}, {-h, 0, -0.01}, {0, -h, -0.01}};
  MbGeomPrim     a, b;
  MbContactPoint pts[MB_MAX_CONTACT_POINTS];
  PetscInt       n;
  MB_OK(MbShapeRotate(cube, o, ez, PETSC_PI / 4));
  a = Convex(slab);
  b = Convex(cube);
  MB_OK(MbCollide(&a, &b, 0, EPS, &n, pts));
  ExpectPoints("cube turned 45 degrees on a slab", n, pts, 4, x, -0.02, ez, 2, 11, 1e-14);
  MB_OK(MbShapeDestroy(&slab));
  MB_OK(MbShapeDestroy(&cube));
}

/* The cube [−0.5, 0.5]³ tilted by θ = 0.05 about x: a bottom corner (x, y, −0.5) goes to
   (x, y cos θ + 0.5 sin θ, y sin θ − 0.5 cos θ), lowest along y = −0.5, at
   z = −0.5(sin θ + cos θ). Lifted so that this edge is 0.01 deep: two
   points at x = ±0.5; the other bottom edge is sin θ ≈ 0.05 higher, beyond the margin. */
static void test_cube_tilted_on_slab(void **state)
{
  const PetscReal th = 0.05, lift = 0.5 * (sin(th) + cos(th)) - 0.01;
  MbShape         slab = Box(-5, -5, -1, 5, 5, 0, 1), cube = Box(-0.5, -0.5, -0.5, 0.5, 0.5, 0.5, 11);
  PetscReal       o[3] = {0, 0, 0}, ex[3] = {1, 0, 0}, ez[3] = {0, 0, 1}, up[3] = {0, 0, lift}, y = -0.5 * cos(th) + 0.5 * sin(th);
  PetscReal       x[2][3] = {{0.5, y, -0.005}, {-0.5, y, -0.005}};
  MbGeomPrim      a, b;
  MbContactPoint  pts[MB_MAX_CONTACT_POINTS];
  PetscInt        n;
  MB_OK(MbShapeRotate(cube, o, ex, th));
  MB_OK(MbShapeTranslate(cube, up));
  a = Convex(slab);
  b = Convex(cube);
  MB_OK(MbCollide(&a, &b, 0.001, EPS, &n, pts));
  ExpectPoints("cube tilted about x on a slab", n, pts, 2, x, -0.01, ez, 2, 11, 1e-14);
  MB_OK(MbShapeDestroy(&slab));
  MB_OK(MbShapeDestroy(&cube));
}

/* Cube A turned 45° about x (top edge along x at z = √2/2) and cube B turned 45° about y,
   centred at z = √2 − 0.02 (bottom edge along y at z = √2/2 − 0.02): they cross at the z axis,
   one point (0, 0, √2/2 − 0.01), gap −0.02, normal e_z. The edge axis beats every face axis
   (those need 0.35 or more). */
static void test_cubes_crossed(void **state)
{
  MbShape        ca = Box(-0.5, -0.5, -0.5, 0.5, 0.5, 0.5, 1), cb = Box(-0.5, -0.5, -0.5, 0.5, 0.5, 0.5, 11);
  PetscReal      o[3] = {0, 0, 0}, ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1}, up[3] = {0, 0, sqrt(2.0) - 0.02}, down[3] = {0, 0, -1};
  PetscReal      x[1][3] = {{0, 0, sqrt(0.5) - 0.01}};
  MbGeomPrim     a, b;
  MbContactPoint pts[MB_MAX_CONTACT_POINTS];
  PetscInt       n;
  MB_OK(MbShapeRotate(ca, o, ex, PETSC_PI / 4));
  MB_OK(MbShapeRotate(cb, o, ey, PETSC_PI / 4));
  MB_OK(MbShapeTranslate(cb, up));
  a = Convex(ca);
  b = Convex(cb);
  MB_OK(MbCollide(&a, &b, 0, EPS, &n, pts));
  /* A's edge lies between its top (2) and y = hi (5) faces, equally turned: the first
     face in the edge's order is reported; likewise for B. Check the surface ids loosely. */
  assert_int_equal(n, 1);
  ExpectPoints("cubes crossed edge to edge", n, pts, 1, x, -0.02, ez, pts[0].surf[0], pts[0].surf[1], 1e-14);
  assert_true(pts[0].surf[0] == 2 || pts[0].surf[0] == 5);
  assert_true(pts[0].surf[1] == 11 || pts[0].surf[1] == 13 || pts[0].surf[1] == 14 || pts[0].surf[1] == 16);
  MB_OK(MbCollide(&b, &a, 0, EPS, &n, pts));
  ExpectPoints("cubes crossed, swapped", n, pts, 1, x, -0.02, down, pts[0].surf[0], pts[0].surf[1], 1e-14);
  MB_OK(MbShapeDestroy(&ca));
  MB_OK(MbShapeDestroy(&cb));
}

/* The unit cube 0.1 above the slab: nothing with margin 0.05. At 0.02 above: four points
   with gap +0.02, midway at z = 0.01. */
static void test_separated(void **state)
{
  MbShape        slab = Box(-5, -5, -1, 5, 5, 0, 1), cube = Box(0, 0, 0.1, 1, 1, 1.1, 11);
  MbGeomPrim     a = Convex(slab), b = Convex(cube);
  MbContactPoint pts[MB_MAX_CONTACT_POINTS];
  PetscInt       n;
  PetscReal      x[4][3] = {{0, 0, 0.01}, {1, 0, 0.01}, {1, 1, 0.01}, {0, 1, 0.01}}, up[3] = {0, 0, 1}, d[3] = {0, 0, -0.08};
  MB_OK(MbCollide(&a, &b, 0.05, EPS, &n, pts));
  assert_int_equal(n, 0);
  MB_OK(MbShapeTranslate(cube, d));
  b = Convex(cube);
  MB_OK(MbCollide(&a, &b, 0.05, EPS, &n, pts));
  ExpectPoints("cube 0.02 above a slab, margin 0.05", n, pts, 4, x, 0.02, up, 2, 11, 1e-14);
  MB_OK(MbCollide(&a, &b, 0.02, EPS, &n, pts)); /* gap = margin is not below it */
  assert_int_equal(n, 0);
  MB_OK(MbShapeDestroy(&slab));
  MB_OK(MbShapeDestroy(&cube));
}

/* A tetrahedron (hull of four points) standing on its vertex (0.2, 0.3, −0.015) in the
   slab, its base at z = 1: one point (0.2, 0.3, −0.0075), gap −0.015. */
static void test_tetrahedron_on_vertex(void **state)
{
  MbShape         slab    = Box(-5, -5, -1, 5, 5, 0, 1), tet;
  const PetscReal p[12]   = {0.2, 0.3, -0.015, -0.5, -0.5, 1, 0.8, -0.4, 1, 0.1, 0.9, 1};
  PetscReal       x[1][3] = {{0.2, 0.3, -0.0075}}, up[3] = {0, 0, 1};
  MbGeomPrim      a, b;
  MbContactPoint  pts[MB_MAX_CONTACT_POINTS];
  PetscInt        n;
  MB_OK(MbShapeCreate(&tet));
  MB_OK(MbShapeAddHull(tet, 4, p, 0, 21));
  a = Convex(slab);
  b = Convex(tet);
  MB_OK(MbCollide(&a, &b, 0.001, EPS, &n, pts));
  ExpectPoints("tetrahedron on its vertex", n, pts, 1, x, -0.015, up, 2, 21, 1e-14);
  MB_OK(MbShapeDestroy(&slab));
  MB_OK(MbShapeDestroy(&tet));
}

/* A 12-sided prism (hull of two regular 12-gons of radius 1) flat on the slab, sunk by
   0.01: the clipped bottom has 12 vertices, reduced to four: the first (all are equally
   deep), the opposite one, and the two at right angles, a square of area 2. */
static void test_prism_on_slab(void **state)
{
  MbShape        slab = Box(-5, -5, -1, 5, 5, 0, 1), prism;
  PetscReal      p[72], ez[3] = {0, 0, 1}, area = 0;
  MbGeomPrim     a, b;
  MbContactPoint pts[MB_MAX_CONTACT_POINTS];
  PetscInt       n;
  for (PetscInt k = 0; k < 24; k++) MbV3Set(&p[3 * k], cos(PETSC_PI * (k % 12) / 6), sin(PETSC_PI * (k % 12) / 6), k < 12 ? -0.01 : 0.5);
  MB_OK(MbShapeCreate(&prism));
  MB_OK(MbShapeAddHull(prism, 24, p, 0, 31));
  a = Convex(slab);
  b = Convex(prism);
  MB_OK(MbCollide(&a, &b, 0.001, EPS, &n, pts));
  assert_int_equal(n, 4);
  for (PetscInt k = 0; k < n; k++) {
    MB_CLOSE(pts[k].gap, -0.01, 1e-14);
    MB_CLOSE(pts[k].point[2], -0.005, 1e-14);
    MB_CLOSE(hypot(pts[k].point[0], pts[k].point[1]), 1, 1e-14);
    CheckVec("prism normal", pts[k].normal, ez, 1e-14);
  }
  /* area of the quadrilateral in the order of the polygon (counter-clockwise about −z, the
     incident face's normal, so the shoelace sum is negative) */
  for (PetscInt k = 0; k < n; k++) area += 0.5 * (pts[k].point[0] * pts[(k + 1) % n].point[1] - pts[(k + 1) % n].point[0] * pts[k].point[1]);
  MB_CLOSE(PetscAbsReal(area), 2, 1e-12);
  MB_OK(MbShapeDestroy(&slab));
  MB_OK(MbShapeDestroy(&prism));
}

/* Unit outward normal and offset of face f of g (Newell), independent of the library. */
static void FacePlane(const MbGeomPrim *g, PetscInt f, PetscReal n[3], PetscReal *d)
{
  PetscInt m = g->fptr[f + 1] - g->fptr[f];
  MbV3Set(n, 0, 0, 0);
  for (PetscInt k = 0; k < m; k++) {
    const PetscReal *a = &g->v[3 * g->fvert[g->fptr[f] + k]], *b = &g->v[3 * g->fvert[g->fptr[f] + (k + 1) % m]];
    n[0] += (a[1] - b[1]) * (a[2] + b[2]);
    n[1] += (a[2] - b[2]) * (a[0] + b[0]);
    n[2] += (a[0] - b[0]) * (a[1] + b[1]);
  }
  MbV3Scale(1.0 / MbV3Norm(n), n, n);
  *d = MbV3Dot(n, &g->v[3 * g->fvert[g->fptr[f]]]);
}

/* A hull of 30 random points against spheres at random centres (r = 0.2, margin large so
   that every pair reports): gap + r is the signed distance of the centre. Its size is
   checked against the nearest of a dense sample of the hull's surface (barycentric grid of
   spacing 1/N on each face's fan of triangles): never farther, and nearer by at most the
   grid's spacing times the longest edge; its sign against the face planes; and the hull's
   point (the reported point moved back by gap/2) lies on the surface at that distance. */
static void test_hull_sphere(void **state)
{
  const PetscInt N = 40, np = 30, ntry = 40;
  uint64_t       seed = 2024;
  PetscReal      p[3 * 30], lmax = 0;
  MbShape        hull;
  MbGeomPrim     g;
  for (PetscInt k = 0; k < 3 * np; k++) p[k] = 2 * Uniform(&seed) - 1;
  MB_OK(MbShapeCreate(&hull));
  MB_OK(MbShapeAddHull(hull, np, p, 0, 4));
  g = Convex(hull);
  for (PetscInt f = 0; f < g.nf; f++)
    for (PetscInt k = g.fptr[f]; k < g.fptr[f + 1]; k++) {
      PetscReal e[3];
      MbV3Sub(&g.v[3 * g.fvert[k]], &g.v[3 * g.fvert[k + 1 < g.fptr[f + 1] ? k + 1 : g.fptr[f]]], e);
      lmax = PetscMax(lmax, MbV3Norm(e));
    }
  for (PetscInt t = 0; t < ntry; t++) {
    MbGeomPrim     s = Sphere(3 * Uniform(&seed) - 1.5, 3 * Uniform(&seed) - 1.5, 3 * Uniform(&seed) - 1.5, 0.2, 5);
    MbContactPoint pts[MB_MAX_CONTACT_POINTS];
    PetscInt       n;
    PetscReal      dist, sampled = PETSC_MAX_REAL, q[3], e[3], outside = -PETSC_MAX_REAL, onsurf = -PETSC_MAX_REAL;
    MB_OK(MbCollide(&g, &s, 100, EPS, &n, pts));
    assert_int_equal(n, 1);
    dist = pts[0].gap + s.r;
    for (PetscInt f = 0; f < g.nf; f++) {
      PetscInt         m  = g.fptr[f + 1] - g.fptr[f];
      const PetscReal *v0 = &g.v[3 * g.fvert[g.fptr[f]]];
      PetscReal        nf[3], df;
      FacePlane(&g, f, nf, &df);
      outside = PetscMax(outside, MbV3Dot(nf, s.c) - df);
      for (PetscInt k = 1; k + 1 < m; k++) {
        const PetscReal *v1 = &g.v[3 * g.fvert[g.fptr[f] + k]], *v2 = &g.v[3 * g.fvert[g.fptr[f] + k + 1]];
        for (PetscInt i = 0; i <= N; i++)
          for (PetscInt j = 0; i + j <= N; j++) {
            PetscReal y[3];
            for (int d = 0; d < 3; d++) y[d] = v0[d] + (PetscReal)i / N * (v1[d] - v0[d]) + (PetscReal)j / N * (v2[d] - v0[d]);
            MbV3Sub(y, s.c, e);
            sampled = PetscMin(sampled, MbV3Norm(e));
          }
      }
    }
    if ((outside > 0) != (dist > 0)) fail_msg("try %d: signed distance %g, but the largest face-plane distance is %g", (int)t, dist, outside);
    if (!(PetscAbsReal(dist) <= sampled + 1e-12 && sampled <= PetscAbsReal(dist) + lmax / N)) fail_msg("try %d: |distance| %.17g, sampled surface %.17g (spacing %g)", (int)t, PetscAbsReal(dist), sampled, lmax / N);
    MbV3Axpy(-0.5 * pts[0].gap, pts[0].normal, pts[0].point, q); /* the hull's surface point */
    for (PetscInt f = 0; f < g.nf; f++) {
      PetscReal nf[3], df;
      FacePlane(&g, f, nf, &df);
      onsurf = PetscMax(onsurf, MbV3Dot(nf, q) - df);
    }
    MB_CLOSE(onsurf, 0, 1e-12);
    MbV3Sub(s.c, q, e);
    MB_CLOSE(MbV3Norm(e), PetscAbsReal(dist), 1e-12);
    MB_CLOSE(MbV3Norm(pts[0].normal), 1, 1e-14);
    assert_int_equal(pts[0].surf[0], 4);
    assert_int_equal(pts[0].surf[1], 5);
  }
  MB_OK(MbShapeDestroy(&hull));
}

/* separation of b from a along the unit axis m: min over b of m·x − max over a of m·x */
static PetscReal Separation(const MbGeomPrim *a, const MbGeomPrim *b, const PetscReal m[3])
{
  PetscReal amax = -PETSC_MAX_REAL, bmin = PETSC_MAX_REAL;
  for (PetscInt k = 0; k < a->nv; k++) amax = PetscMax(amax, MbV3Dot(m, &a->v[3 * k]));
  for (PetscInt k = 0; k < b->nv; k++) bmin = PetscMin(bmin, MbV3Dot(m, &b->v[3 * k]));
  return bmin - amax;
}

/* The largest separation over every candidate axis of the separating axis theorem, by
   brute force: both bodies' face normals and the cross product of every pair of edges
   (edges taken from the face loops, each twice, which does not matter here). */
static PetscReal BruteForceSeparation(const MbGeomPrim *a, const MbGeomPrim *b)
{
  PetscReal best = -PETSC_MAX_REAL;
  for (int side = 0; side < 2; side++) {
    const MbGeomPrim *p = side ? b : a;
    for (PetscInt f = 0; f < p->nf; f++) {
      PetscReal n[3], d;
      FacePlane(p, f, n, &d);
      if (side) MbV3Scale(-1, n, n);
      best = PetscMax(best, Separation(a, b, n));
    }
  }
  for (PetscInt i = 0; i < a->fptr[a->nf]; i++)
    for (PetscInt j = 0; j < b->fptr[b->nf]; j++) {
      PetscReal u[3], w[3], m[3], len;
      PetscInt  fa = 0, fb = 0;
      while (a->fptr[fa + 1] <= i) fa++;
      while (b->fptr[fb + 1] <= j) fb++;
      MbV3Sub(&a->v[3 * a->fvert[i + 1 < a->fptr[fa + 1] ? i + 1 : a->fptr[fa]]], &a->v[3 * a->fvert[i]], u);
      MbV3Sub(&b->v[3 * b->fvert[j + 1 < b->fptr[fb + 1] ? j + 1 : b->fptr[fb]]], &b->v[3 * b->fvert[j]], w);
      MbV3Cross(u, w, m);
      len = MbV3Norm(m);
      if (len < 1e-9 * MbV3Norm(u) * MbV3Norm(w)) continue;
      MbV3Scale(1 / len, m, m);
      best = PetscMax(best, Separation(a, b, m));
      MbV3Scale(-1, m, m);
      best = PetscMax(best, Separation(a, b, m));
    }
  return best;
}

/* Random hulls, overlapping or a little apart, margin 0.05. Overlapping (largest
   separation over every candidate axis, by brute force, below 0): at least one point, the
   normal is an axis of that largest separation (the faces of the Minkowski difference are
   among the candidates, so it is the penetration depth), no point is deeper. Apart by less
   than the margin: at least one point. No points: some axis separates by the margin. */
static void test_hull_hull(void **state)
{
  uint64_t seed  = 77;
  PetscInt nover = 0, nnear = 0, nspurious = 0, nsingle = 0;
  for (PetscInt t = 0; t < 300; t++) {
    PetscReal      p[3 * 12], q[3 * 12], shift = 1.2 + 0.8 * Uniform(&seed), dir[3], best, along;
    MbShape        ha, hb;
    MbGeomPrim     a, b;
    MbContactPoint pts[MB_MAX_CONTACT_POINTS];
    PetscInt       n;
    for (int d = 0; d < 3; d++) dir[d] = 2 * Uniform(&seed) - 1;
    MbV3Scale(shift / MbV3Norm(dir), dir, dir);
    for (PetscInt k = 0; k < 3 * 12; k++) {
      p[k] = 2 * Uniform(&seed) - 1;
      q[k] = 2 * Uniform(&seed) - 1 + dir[k % 3];
    }
    MB_OK(MbShapeCreate(&ha));
    MB_OK(MbShapeCreate(&hb));
    MB_OK(MbShapeAddHull(ha, 12, p, 0, 1));
    MB_OK(MbShapeAddHull(hb, 12, q, 0, 2));
    a    = Convex(ha);
    b    = Convex(hb);
    best = BruteForceSeparation(&a, &b);
    MB_OK(MbCollide(&a, &b, 0.05, EPS, &n, pts));
    if (n == 0 && best < 0.05) fail_msg("pair %d: no points, but no axis separates by the margin (best %.17g)", (int)t, best);
    if (best < 0) {
      nover++;
      if (n == 1) nsingle++;
      along = Separation(&a, &b, pts[0].normal);
      if (!(PetscAbsReal(along - best) <= 1e-8)) fail_msg("pair %d: separation %.17g along the normal, best axis %.17g", (int)t, along, best);
      for (PetscInt k = 0; k < n; k++) {
        if (!(pts[k].gap >= best - 1e-12 && pts[k].gap < 0.05)) fail_msg("pair %d: gap %.17g, best separation %.17g", (int)t, pts[k].gap, best);
        CheckVec("same normal", pts[k].normal, pts[0].normal, 0);
        MB_CLOSE(MbV3Norm(pts[k].normal), 1, 1e-14);
      }
    } else if (best < 0.05)
      nnear++;
    else if (n)
      nspurious++;
    MB_OK(MbShapeDestroy(&ha));
    MB_OK(MbShapeDestroy(&hb));
  }
  print_message("# random hull pairs: %d overlapping (%d with one point), %d apart within the margin, %d apart beyond it but reported (a lower bound of the distance below the margin)\n", (int)nover, (int)nsingle, (int)nnear, (int)nspurious);
}

static void test_box_and_bad_input(void **state)
{
  MbShape        s = Box(0, 1, 2, 3, 4, 5, 0);
  MbGeomPrim     c = Convex(s), b = Sphere(1, 2, 3, 0.5, 0);
  MbBox          box;
  MbContactPoint pts[MB_MAX_CONTACT_POINTS];
  PetscInt       n;
  MB_OK(MbGeomPrimBox(&c, 0.1, &box));
  MB_CLOSE(box.lo[0], -0.1, 1e-15);
  MB_CLOSE(box.lo[1], 0.9, 1e-15);
  MB_CLOSE(box.lo[2], 1.9, 1e-15);
  MB_CLOSE(box.hi[0], 3.1, 1e-15);
  MB_CLOSE(box.hi[1], 4.1, 1e-15);
  MB_CLOSE(box.hi[2], 5.1, 1e-15);
  MB_OK(MbGeomPrimBox(&b, 0, &box));
  MB_CLOSE(box.lo[0], 0.5, 0);
  MB_CLOSE(box.hi[2], 3.5, 0);
  MB_FAILS(MbCollide(&c, &b, -1, EPS, &n, pts), "margin -1");
  b.r = 0;
  MB_FAILS(MbCollide(&c, &b, 0, EPS, &n, pts), "radius 0");
  MB_OK(MbShapeDestroy(&s));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_sphere_sphere),       cmocka_unit_test(test_sphere_box),    cmocka_unit_test(test_cube_on_slab),      cmocka_unit_test(test_warped_element_on_slab), cmocka_unit_test(test_cube_turned_on_slab),
    cmocka_unit_test(test_cube_tilted_on_slab), cmocka_unit_test(test_cubes_crossed), cmocka_unit_test(test_separated),         cmocka_unit_test(test_tetrahedron_on_vertex),  cmocka_unit_test(test_prism_on_slab),
    cmocka_unit_test(test_hull_sphere),         cmocka_unit_test(test_hull_hull),     cmocka_unit_test(test_box_and_bad_input),
};

MB_TEST_MAIN(tests)
