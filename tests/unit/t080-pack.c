/* Packing bodies for migration and ghosts (src/body/pack.c): a body with a sphere and a
   hexahedron, a velocity, work, damping, a scheme and three loads (constant, TIME_SERIES,
   callback by reference) packed for migration comes back identical — the unpacked body
   packs to the same bytes and gives the same external force —; a ghost pack carries no
   loads and no scheme; a truncated buffer is an error that says so. */
#include "mbtest.h"
#include "body/bodyimpl.h"
#include "shape/shapeimpl.h"

static PetscErrorCode Push(void *ctx, MbBody b, const PetscReal q[], const PetscReal u[], PetscReal t, PetscReal h, PetscInt *n, PetscReal out[])
{
  PetscReal k = *(PetscReal *)ctx;
  for (int i = 0; i < 9; i++) out[i] = 0;
  out[0] = k * t; /* a spatial force along x growing with time */
  out[5] = -k;    /* a spatial torque about z */
  return PETSC_SUCCESS;
}

static void MakeBody(MbDomain dom, PetscReal *kp, MbBody *b)
{
  MbShape      s;
  MbTimeSeries ts;
  MbScheme     sch;
  PetscInt     ref;
  PetscReal    c[3] = {0.1, 0.2, 0.3}, nodes[24], X[3] = {0.5, 0, 0}, dir[3] = {0, 0, 1}, lin[3] = {1, -2, 0.5}, ang[3] = {0.3, 0.1, -0.2};
  PetscReal    tt[3] = {0, 1, 2}, tv[3] = {0, 5, -1};
  PetscInt     surf[6] = {1, 2, 3, 4, 5, 6};
  for (int k = 0; k < 8; k++) {
    nodes[3 * k]     = 1.0 + ((k & 1) ? 1 : 0);
    nodes[3 * k + 1] = (k & 2) ? 0.5 : 0;
    nodes[3 * k + 2] = (k & 4) ? 0.25 : 0;
  }
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddSphere(s, c, 0.4, 3, 7));
  MB_OK(MbShapeAddHex(s, nodes, surf, 4));
  MB_OK(MbBodyCreate(42, MBBODYRIGID, s, 2500, "packed", b));
  MB_OK(MbShapeDestroy(&s));
  MB_OK(MbBodySetVelocity(*b, lin, ang));
  (*b)->work    = 1.25;
  (*b)->damping = 0.01;
  (*b)->u0[2]   = -7;
  for (PetscInt k = 0; k < 3 * (*b)->nu; k++) (*b)->acc[k] = 0.1 * (k + 1); /* a force scheme's history */
  (*b)->accok = PETSC_TRUE;
  MB_OK(MbDomainGetScheme(dom, "RIG_IMP", &sch));
  MB_OK(MbBodySetScheme(*b, sch));
  MB_OK(MbBodyAddLoad(*b, MB_LOAD_FORCE, MB_FRAME_SPATIAL, X, dir, 3.5, NULL));
  MB_OK(MbTimeSeriesCreate(3, tt, tv, &ts));
  MB_OK(MbBodyAddLoad(*b, MB_LOAD_TORQUE, MB_FRAME_CONVECTED, NULL, dir, 1.0, ts));
  MB_OK(MbTimeSeriesDestroy(&ts));
  MB_OK(MbDomainAddCallback(dom, Push, kp, NULL, &ref));
  MB_OK(MbBodyAddLoadCallbackRef(*b, Push, kp, ref));
}

static void test_migrate_roundtrip(void **state)
{
  MbDomain  dom;
  MbBody    b, c;
  PetscReal k = 2.0, g[3] = {0, 0, -9.81}, f1[6], f2[6];
  size_t    n1, n2, used;
  char     *buf1, *buf2, scheme[64];
  MB_OK(MbDomainCreate(PETSC_COMM_SELF, &dom));
  MakeBody(dom, &k, &b);
  MB_OK(MbBodyPackSize(b, PETSC_TRUE, &n1));
  buf1 = malloc(n1);
  MB_OK(MbBodyPack(b, PETSC_TRUE, buf1, &n2));
  assert_int_equal(n1, n2);
  MB_OK(MbBodyUnpack(buf1, n1, &used, &c, scheme));
  assert_int_equal(used, n1);
  assert_string_equal(scheme, "RIG_IMP");
  assert_true(c->accok);
  for (PetscInt k = 0; k < 3 * c->nu; k++) MB_CLOSE(c->acc[k], 0.1 * (k + 1), 0);
  assert_int_equal(c->nload, 3);
  assert_null(c->load[2].fn); /* resolved by the domain's table on arrival (migrate.c) */
  assert_int_equal(c->load[2].ref, 0);
  c->load[2].fn  = Push;
  c->load[2].ctx = &k;
  {
    MbScheme sch;
    MB_OK(MbDomainGetScheme(dom, scheme, &sch));
    MB_OK(MbBodySetScheme(c, sch));
  }
  MB_OK(MbBodyPackSize(c, PETSC_TRUE, &n2));
  assert_int_equal(n1, n2);
  buf2 = malloc(n2);
  MB_OK(MbBodyPack(c, PETSC_TRUE, buf2, &n2));
  assert_memory_equal(buf1, buf2, n1); /* every byte: the body came back identical */
  MB_OK(MbBodyExternalForce(b, 1.5, 1e-3, g, f1));
  MB_OK(MbBodyExternalForce(c, 1.5, 1e-3, g, f2));
  for (int i = 0; i < 6; i++) MB_CLOSE(f2[i], f1[i], 0);
  print_message("# migrated body: %zu bytes, 2 primitives, 3 loads, scheme %s: packs back to the same bytes\n", n1, scheme);
  free(buf1);
  free(buf2);
  MB_OK(MbBodyDestroy(&b));
  MB_OK(MbBodyDestroy(&c));
  MB_OK(MbDomainDestroy(&dom));
}

/* A pseudo-rigid body's crack planes (SIMPLIFIED_CRACK, src/body/crack.c) travel with it: the
   same planes and evaluation points, the same bytes packed again, the same criterion. */
static void test_migrate_cracks(void **state)
{
  MbDomain  dom;
  MbBody    b, c;
  MbShape   s;
  PetscReal nodes[24], p[3] = {0.5, 0.5, 0.5}, n1[3] = {2, 0, 0}, n2[3] = {0, 0, 1}, pc[3], nc[3], ft, t, X[3];
  PetscInt  surf[6] = {1, 1, 1, 1, 1, 1}, sid[2] = {3, 4}, k;
  size_t    len1, len2, used;
  char     *buf1, *buf2, scheme[64];
  for (int v = 0; v < 8; v++) {
    nodes[3 * v]     = (v == 1 || v == 2 || v == 5 || v == 6) ? 1 : 0;
    nodes[3 * v + 1] = (v == 2 || v == 3 || v == 6 || v == 7) ? 1 : 0;
    nodes[3 * v + 2] = v >= 4 ? 1 : 0;
  }
  MB_OK(MbDomainCreate(PETSC_COMM_SELF, &dom));
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddHex(s, nodes, surf, 1));
  MB_OK(MbBodyCreate(7, MBBODYPSEUDORIGID, s, 1000, NULL, &b));
  MB_OK(MbShapeDestroy(&s));
  MB_OK(MbBodySetMaterial(b, 1e6, 0.25));
  MB_OK(MbBodyAddCrack(b, p, n1, sid, 10.0, PETSC_FALSE));
  MB_OK(MbBodyAddCrack(b, p, n2, sid, 20.0, PETSC_FALSE));
  p[0] = 2;
  MB_FAILS(MbBodyAddCrack(b, p, n1, sid, 1.0, PETSC_FALSE), "does not cross the body's shape (all of it lies below the plane)");
  b->q[0] = 1.01; /* F = diag(1.01, 1, 1): a tension along x */
  MB_OK(MbBodyPackSize(b, PETSC_TRUE, &len1));
  buf1 = malloc(len1);
  MB_OK(MbBodyPack(b, PETSC_TRUE, buf1, &len2));
  MB_OK(MbBodyUnpack(buf1, len1, &used, &c, scheme));
  assert_int_equal(used, len1);
  MB_OK(MbBodyGetCrackCount(c, &k));
  assert_int_equal(k, 2);
  MB_OK(MbBodyGetCrack(c, 0, pc, nc, &ft));
  MB_CLOSE(pc[0], 0.5, 0);
  MB_CLOSE(nc[0], 1.0, 0); /* unit normal */
  MB_CLOSE(ft, 10.0, 0);
  MB_OK(MbBodyPackSize(c, PETSC_TRUE, &len2));
  assert_int_equal(len1, len2);
  buf2 = malloc(len2);
  MB_OK(MbBodyPack(c, PETSC_TRUE, buf2, &len2));
  assert_memory_equal(buf1, buf2, len1);
  MB_OK(MbBodyCrackCheck(c, &k, &t, X));
  assert_int_equal(k, 0); /* σ_xx ≈ E·0.01 ≫ 10 across the plane x = 0.5 */
  assert_true(t > 1e3);
  MB_OK(MbBodyCrackCheck(b, &k, &t, X));
  assert_int_equal(k, 0);
  free(buf1);
  free(buf2);
  MB_OK(MbBodyDestroy(&b));
  MB_OK(MbBodyDestroy(&c));
  MB_OK(MbDomainDestroy(&dom));
}

static void test_ghost_and_truncated(void **state)
{
  MbDomain  dom;
  MbBody    b, c;
  PetscReal k = 1.0;
  size_t    n, used;
  char     *buf, scheme[64] = "x";
  MB_OK(MbDomainCreate(PETSC_COMM_SELF, &dom));
  MakeBody(dom, &k, &b);
  MB_OK(MbBodyPackSize(b, PETSC_FALSE, &n));
  buf = malloc(n);
  MB_OK(MbBodyPack(b, PETSC_FALSE, buf, &n));
  MB_OK(MbBodyUnpack(buf, n, &used, &c, scheme));
  assert_int_equal(used, n);
  assert_int_equal(c->nload, 0);
  assert_string_equal(scheme, "");
  assert_memory_equal(b->q, c->q, 12 * sizeof(PetscReal));
  assert_memory_equal(b->u, c->u, 6 * sizeof(PetscReal));
  assert_memory_equal(b->u0, c->u0, 6 * sizeof(PetscReal));
  assert_int_equal(c->shape->n, 2);
  MB_OK(MbBodyDestroy(&c));
  MB_FAILS(MbBodyUnpack(buf, n / 2, &used, &c, scheme), "packed body is truncated");
  free(buf);
  MB_OK(MbBodyDestroy(&b));
  MB_OK(MbDomainDestroy(&dom));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_migrate_roundtrip),
    cmocka_unit_test(test_migrate_cracks),
    cmocka_unit_test(test_ghost_and_truncated),
};
MB_TEST_MAIN(tests)
