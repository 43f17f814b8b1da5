/* Results output (src/io/, doc/output.md): a small scene (an obstacle hexahedron, a falling
   sphere, a spinning hexahedron, a thrown sphere; gravity, no contact) run with output into
   a temporary directory. Checks that /history read back equals the domain's history, that
   ReadBody of the free-falling sphere follows z − z₀ = −g t²/2 and v = −g t (exact for the
   leap-frog of the rigid schemes, up to round-off), that ReadBody of a corner of the spinning
   hexahedron equals MbBodyPointToSpatial / MbBodyPointVelocity at the last frame, that the
   XDMF index lists one grid per frame, and that bad input fails naming what is wrong. */
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>
#include "mbtest.h"
#include <moreau/mboutput.h>

#define G 9.81

typedef struct {
  char     tmp[256]; /* temporary directory */
  char     dir[300]; /* output directory inside it (created by MbOutputCreate) */
  MbDomain dom;
  MbOutput out;
  PetscInt sphere, hex, thrown; /* body ids */
  MbBody   hexbody;
} Scene;

static PetscErrorCode AddBody(MbDomain dom, const char *kind, MbShape s, const char *label, const PetscReal v[3], const PetscReal w[3], PetscInt *id, MbBody *body)
{
  MbBody b;
  PetscFunctionBegin;
  PetscCall(MbDomainNextBodyId(dom, id));
  PetscCall(MbBodyCreate(*id, kind, s, 1000.0, label, &b));
  if (v || w) PetscCall(MbBodySetVelocity(b, v, w));
  PetscCall(MbDomainAddBody(dom, b));
  if (body) *body = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Box(MbShape s, PetscReal x0, PetscReal y0, PetscReal z0, PetscReal x1, PetscReal y1, PetscReal z1)
{
  PetscReal n[24] = {x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0, x0, y0, z1, x1, y0, z1, x1, y1, z1, x0, y1, z1};
  PetscFunctionBegin;
  PetscCall(MbShapeAddHex(s, n, NULL, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Build the scene and run it for T with frames every interval. */
static PetscErrorCode SceneRun(Scene *sc, PetscReal T, PetscReal interval)
{
  MbShape   s;
  PetscInt  id;
  PetscReal g[3] = {0, 0, -G}, c1[3] = {0, 0, 1}, c2[3] = {1, 0, 2}, v2[3] = {0.5, -0.2, 3}, w2[3] = {0, 0, 0}, vh[3] = {0.3, 0.1, 1.0}, wh[3] = {2.0, -1.0, 4.0};
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(sc->tmp, "/tmp/mbt060-XXXXXX", sizeof(sc->tmp)));
  PetscCheck(mkdtemp(sc->tmp), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "mkdtemp failed");
  PetscCall(PetscSNPrintf(sc->dir, sizeof(sc->dir), "%s/out/deeper", sc->tmp));
  PetscCall(MbDomainCreate(PETSC_COMM_WORLD, &sc->dom));
  PetscCall(MbDomainSetVerbose(sc->dom, PETSC_FALSE));
  PetscCall(MbDomainSetStep(sc->dom, 1e-3));
  PetscCall(MbDomainSetGravity(sc->dom, g));
  PetscCall(MbShapeCreate(&s));
  PetscCall(Box(s, -2, -2, -0.5, 2, 2, 0));
  PetscCall(AddBody(sc->dom, MBBODYOBSTACLE, s, "floor", NULL, NULL, &id, NULL));
  PetscCall(MbShapeDestroy(&s));
  PetscCall(MbShapeCreate(&s));
  PetscCall(MbShapeAddSphere(s, c1, 0.2, 0, 0));
  PetscCall(AddBody(sc->dom, MBBODYRIGID, s, "falling", NULL, NULL, &sc->sphere, NULL));
  PetscCall(MbShapeDestroy(&s));
  PetscCall(MbShapeCreate(&s));
  PetscCall(Box(s, -1.2, -0.1, 0.5, -0.8, 0.2, 0.7));
  PetscCall(AddBody(sc->dom, MBBODYRIGID, s, "spinning", vh, wh, &sc->hex, &sc->hexbody));
  PetscCall(MbShapeDestroy(&s));
  PetscCall(MbShapeCreate(&s));
  PetscCall(MbShapeAddSphere(s, c2, 0.1, 0, 0));
  PetscCall(AddBody(sc->dom, MBBODYRIGID, s, NULL, v2, w2, &sc->thrown, NULL));
  PetscCall(MbShapeDestroy(&s));
  PetscCall(MbOutputCreate(sc->dom, sc->dir, "t060", interval, &sc->out));
  PetscCall(MbDomainRun(sc->dom, T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SceneDestroy(Scene *sc)
{
  char cmd[400];
  PetscFunctionBegin;
  PetscCall(MbOutputDestroy(&sc->out));
  PetscCall(MbDomainDestroy(&sc->dom));
  PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "rm -rf '%s'", sc->tmp));
  if (system(cmd)) PetscCall(PetscPrintf(PETSC_COMM_SELF, "# could not remove %s\n", sc->tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /history read back from the file equals the domain's records, value for value. */
static void test_history(void **state)
{
  Scene            sc;
  PetscInt         nh, n;
  const MbHistory *h;
  PetscReal       *t, *v;
  MB_OK(SceneRun(&sc, 0.25, 0.05));
  MB_OK(MbDomainGetHistory(sc.dom, &nh, &h));
  assert_int_equal(nh, 250);
  MB_OK(MbOutputReadHistory(sc.out, "KINETIC", 0, 1e9, &n, &t, &v));
  assert_int_equal(n, nh);
  for (PetscInt i = 0; i < n; i++) {
    assert_true(t[i] == h[i].time);
    assert_true(v[i] == h[i].energy.kinetic);
  }
  MB_OK(PetscFree(t));
  MB_OK(PetscFree(v));
  /* lower case works; the window is inclusive: steps 100..200 */
  MB_OK(MbOutputReadHistory(sc.out, "external", 0.1, 0.2, &n, &t, &v));
  assert_int_equal(n, 101);
  MB_CLOSE(t[0], 0.1, 1e-12);
  MB_CLOSE(t[n - 1], 0.2, 1e-12);
  for (PetscInt i = 0; i < n; i++) assert_true(v[i] == h[99 + i].energy.external);
  MB_OK(PetscFree(t));
  MB_OK(PetscFree(v));
  MB_OK(MbOutputReadHistory(sc.out, "STEP", 0, 1e9, &n, &t, &v));
  for (PetscInt i = 0; i < n; i++) assert_true(v[i] == 1e-3);
  MB_OK(PetscFree(t));
  MB_OK(PetscFree(v));
  /* more steps after a read: the new records are appended */
  MB_OK(MbDomainRun(sc.dom, 0.05));
  MB_OK(MbDomainGetHistory(sc.dom, &nh, &h));
  MB_OK(MbOutputReadHistory(sc.out, "Iterations", 0, 1e9, &n, &t, &v));
  assert_int_equal(n, 300);
  assert_int_equal(nh, 300);
  assert_true(t[299] == h[299].time);
  MB_OK(PetscFree(t));
  MB_OK(PetscFree(v));
  MB_OK(SceneDestroy(&sc));
}

/* The free-falling sphere: frames at 0, 0.05, ..., 0.25 with z − z₀ = −g t²/2, v = −g t. */
static void test_freefall(void **state)
{
  Scene      sc;
  PetscInt   n;
  PetscReal *t, *v, X[3] = {0, 0, 1}, Xoff[3] = {0.1, 0.05, 1.2};
  MB_OK(SceneRun(&sc, 0.25, 0.05));
  MB_OK(MbOutputReadBody(sc.out, sc.sphere, X, "DZ", 0, 1, &n, &t, &v));
  assert_int_equal(n, 6);
  for (PetscInt i = 0; i < n; i++) {
    MB_CLOSE(t[i], 0.05 * i, 1e-12);
    MB_CLOSE(v[i], -0.5 * G * t[i] * t[i], 1e-12);
  }
  MB_OK(PetscFree(t));
  MB_OK(PetscFree(v));
  /* any referential point of the (non-rotating) body falls the same way */
  MB_OK(MbOutputReadBody(sc.out, sc.sphere, Xoff, "cz", 0.1, 0.2, &n, &t, &v));
  assert_int_equal(n, 3);
  for (PetscInt i = 0; i < n; i++) MB_CLOSE(v[i], 1.2 - 0.5 * G * t[i] * t[i], 1e-12);
  MB_OK(PetscFree(t));
  MB_OK(PetscFree(v));
  MB_OK(MbOutputReadBody(sc.out, sc.sphere, X, "VZ", 0, 1, &n, &t, &v));
  for (PetscInt i = 0; i < n; i++) MB_CLOSE(v[i], -G * t[i], 1e-12);
  MB_OK(PetscFree(t));
  MB_OK(PetscFree(v));
  MB_OK(MbOutputReadBody(sc.out, sc.sphere, X, "DX", 0, 1, &n, &t, &v));
  for (PetscInt i = 0; i < n; i++) assert_true(v[i] == 0);
  MB_OK(PetscFree(t));
  MB_OK(PetscFree(v));
  MB_OK(SceneDestroy(&sc));
}

/* A corner of the spinning hexahedron read back at the last frame (t = 0.25, the current
   state) equals the body's own kinematics: checks the column-wise Λ and Ω × (X − X̄). */
static void test_spinning(void **state)
{
  Scene       sc;
  PetscInt    n;
  PetscReal  *t, *v, X[3] = {-1.2, 0.2, 0.7}, x[3], xd[3], tnow;
  const char *items[6] = {"CX", "CY", "CZ", "VX", "VY", "VZ"};
  MB_OK(SceneRun(&sc, 0.25, 0.05));
  MB_OK(MbDomainGetTime(sc.dom, &tnow));
  MB_OK(MbBodyPointToSpatial(sc.hexbody, X, x));
  MB_OK(MbBodyPointVelocity(sc.hexbody, X, xd));
  for (int k = 0; k < 6; k++) {
    MB_OK(MbOutputReadBody(sc.out, sc.hex, X, items[k], tnow, tnow, &n, &t, &v));
    assert_int_equal(n, 1);
    MB_CLOSE(t[0], tnow, 0);
    MB_CLOSE(v[0], k < 3 ? x[k] : xd[k - 3], 1e-12);
    MB_OK(PetscFree(t));
    MB_OK(PetscFree(v));
  }
  /* it did rotate: the corner moved off the straight ballistic path */
  MB_OK(MbOutputReadBody(sc.out, sc.hex, X, "DX", tnow, tnow, &n, &t, &v));
  assert_true(PetscAbsReal(v[0] - 0.3 * tnow) > 1e-3);
  MB_OK(PetscFree(t));
  MB_OK(PetscFree(v));
  MB_OK(SceneDestroy(&sc));
}

/* The XDMF index has one grid per frame and references the .h5 by relative path. */
static void test_xdmf(void **state)
{
  Scene       sc;
  const char *h5, *xmf;
  char        buf[1 << 16], *p;
  size_t      len;
  int         grids = 0;
  FILE       *fp;
  struct stat st;
  MB_OK(SceneRun(&sc, 0.25, 0.1));
  MB_OK(MbOutputGetPaths(sc.out, &h5, &xmf));
  assert_int_equal(stat(h5, &st), 0);
  fp = fopen(xmf, "r");
  assert_non_null(fp);
  len      = fread(buf, 1, sizeof(buf) - 1, fp);
  buf[len] = '\0';
  fclose(fp);
  for (p = buf; (p = strstr(p, "<Grid Name=\"frame ")); p++) grids++;
  assert_int_equal(grids, 3); /* t = 0, 0.1, 0.2; 0.25 is not on the interval */
  assert_non_null(strstr(buf, "t060.h5:/frames/000002/surface_points"));
  assert_non_null(strstr(buf, "TopologyType=\"Mixed\" NumberOfElements=\"12\"")); /* 2 hexahedra */
  assert_non_null(strstr(buf, "TopologyType=\"Polyvertex\" NumberOfElements=\"2\""));
  assert_non_null(strstr(buf, "</Xdmf>"));
  /* a shorter interval: frames go on at 0.2 + k 0.01 after the current time 0.25: at 0.26,
     ..., 0.30 */
  MB_OK(MbOutputSetInterval(sc.out, 0.01));
  MB_OK(MbDomainRun(sc.dom, 0.05));
  {
    PetscInt   n;
    PetscReal *t, *v, X[3] = {0, 0, 1};
    MB_OK(MbOutputReadBody(sc.out, sc.sphere, X, "DZ", 0, 1, &n, &t, &v));
    assert_int_equal(n, 3 + 5);
    MB_CLOSE(t[3], 0.26, 1e-12);
    MB_CLOSE(t[n - 1], 0.3, 1e-12);
    MB_OK(PetscFree(t));
    MB_OK(PetscFree(v));
  }
  MB_OK(SceneDestroy(&sc));
}

/* The domain may go before the output: the last history records are still written. */
static void test_destroy_order(void **state)
{
  Scene      sc;
  PetscInt   n;
  PetscReal *t, *v;
  MB_OK(SceneRun(&sc, 0.02, 0.01));
  MB_OK(MbDomainDestroy(&sc.dom));
  MB_OK(MbOutputReadHistory(sc.out, "TIME", 0, 1, &n, &t, &v));
  assert_int_equal(n, 20);
  MB_CLOSE(v[19], 0.02, 1e-12);
  MB_OK(PetscFree(t));
  MB_OK(PetscFree(v));
  MB_OK(SceneDestroy(&sc));
}

static void test_errors(void **state)
{
  Scene      sc;
  PetscInt   n;
  PetscReal *t, *v, X[3] = {0, 0, 0};
  MbOutput   out;
  char       file[400], dir[420];
  FILE      *fp;
  MB_OK(SceneRun(&sc, 0.01, 0.01));
  MB_FAILS(MbOutputReadHistory(sc.out, "KINETICS", 0, 1, &n, &t, &v), "unknown history item 'KINETICS'");
  MB_FAILS(MbOutputReadHistory(sc.out, "", 0, 1, &n, &t, &v), "unknown history item ''");
  MB_FAILS(MbOutputReadBody(sc.out, sc.sphere, X, "QX", 0, 1, &n, &t, &v), "unknown body item 'QX'");
  MB_FAILS(MbOutputReadBody(sc.out, sc.sphere, X, "CXX", 0, 1, &n, &t, &v), "unknown body item 'CXX'");
  MB_FAILS(MbOutputReadBody(sc.out, 99, X, "CX", 0, 1, &n, &t, &v), "unknown body id 99");
  MB_FAILS(MbOutputSetInterval(sc.out, -1), "output interval must be >= 0");
  /* a directory below a regular file cannot be created */
  MB_OK(PetscSNPrintf(file, sizeof(file), "%s/plainfile", sc.tmp));
  fp = fopen(file, "w");
  assert_non_null(fp);
  fclose(fp);
  MB_OK(PetscSNPrintf(dir, sizeof(dir), "%s/sub", file));
  MB_FAILS(MbOutputCreate(sc.dom, dir, "x", 0.1, &out), "cannot write output directory");
  MB_FAILS(MbOutputCreate(sc.dom, dir, "x", 0.1, &out), dir);
  MB_FAILS(MbOutputCreate(sc.dom, dir, "x", 0.1, &out), "Not a directory");
  MB_FAILS(MbOutputCreate(sc.dom, file, "x", 0.1, &out), "cannot write output directory");
  MB_FAILS(MbOutputCreate(sc.dom, sc.tmp, "a/b", 0.1, &out), "must not contain '/'");
  MB_FAILS(MbOutputCreate(sc.dom, sc.tmp, "x", -0.5, &out), "output interval must be >= 0, got -0.5");
  MB_OK(SceneDestroy(&sc));
}

/* No spheres, then no bodies at all: empty datasets, grids left out of the index. */
static void test_empty(void **state)
{
  MbDomain    dom;
  MbOutput    out;
  MbShape     s;
  PetscInt    id, n;
  PetscReal  *t, *v;
  char        tmp[64] = "/tmp/mbt060-XXXXXX", buf[1 << 14], cmd[128];
  const char *h5, *xmf;
  FILE       *fp;
  size_t      len;
  for (int nb = 1; nb >= 0; nb--) {
    assert_non_null(mkdtemp(tmp));
    MB_OK(MbDomainCreate(PETSC_COMM_WORLD, &dom));
    MB_OK(MbDomainSetVerbose(dom, PETSC_FALSE));
    if (nb) {
      MB_OK(MbShapeCreate(&s));
      MB_OK(Box(s, 0, 0, 0, 1, 1, 1));
      MB_OK(AddBody(dom, MBBODYOBSTACLE, s, "only", NULL, NULL, &id, NULL));
      MB_OK(MbShapeDestroy(&s));
    }
    MB_OK(MbOutputCreate(dom, tmp, "empty", 0, &out));
    MB_OK(MbDomainRun(dom, 0.005));
    MB_OK(MbOutputReadHistory(out, "TIME", 0, 1, &n, &t, &v));
    assert_int_equal(n, 5);
    MB_OK(PetscFree(t));
    MB_OK(PetscFree(v));
    MB_OK(MbOutputGetPaths(out, &h5, &xmf));
    fp = fopen(xmf, "r");
    assert_non_null(fp);
    len      = fread(buf, 1, sizeof(buf) - 1, fp);
    buf[len] = '\0';
    fclose(fp);
    assert_non_null(strstr(buf, "<Grid Name=\"frame 000005\""));
    assert_null(strstr(buf, "spheres"));
    if (nb)
      assert_non_null(strstr(buf, "NumberOfElements=\"6\""));
    else
      assert_null(strstr(buf, "bodies"));
    MB_OK(MbOutputDestroy(&out));
    MB_OK(MbDomainDestroy(&dom));
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
    assert_int_equal(system(cmd), 0);
    strcpy(tmp, "/tmp/mbt060-XXXXXX");
  }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_history), cmocka_unit_test(test_freefall), cmocka_unit_test(test_spinning), cmocka_unit_test(test_xdmf), cmocka_unit_test(test_destroy_order), cmocka_unit_test(test_errors), cmocka_unit_test(test_empty),
};
MB_TEST_MAIN(tests)
