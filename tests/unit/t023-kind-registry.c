/* Body kinds registered by name (src/body/kind.c): a kind defined and registered in this file
   alone, a 3-DOF point mass q = x̄, u = v with a sphere for its contacts, falls on a rigid
   floor (an OBSTACLE) and comes to rest on it. That it runs at all, with nothing outside this
   file knowing of it, is the proof that the registry and the body ops are enough for a new
   kind; the numbers check that the library integrates it as physics says:
   - free fall from a gap h₀: the leap-frog of DEF_EXP (seed 000, eq. (39)) is exact for a
     constant force, so the height follows h₀ − g t²/2 to round-off until the first contact,
     which the step holding t = √(2h₀/g) makes (one step h either way);
   - at rest on the floor after 1 s: the centre one radius above it (within h·v_impact, the
     penetration one step at impact speed may leave) and velocity 0 (1e-9 m/s).
   Also: the built-in kinds keep their codes, the new kind takes the next one, the schemes
   that apply to it are the ones whose requirement it declares, and an unknown kind's error
   lists the registered names. */
#include "mbtest.h"
#include <moreau/mbscheme.h>
#include <moreau/mbmath.h>
#include "body/bodyimpl.h"

#define G 9.81
#define H 1e-3   /* time step */
#define R 0.05   /* radius of the point mass's sphere */
#define GAP 0.5  /* initial gap between the sphere and the floor */
#define RHO 1000 /* density */

/* ---------------------------------------------------------------- the point mass kind */

static PetscErrorCode PmReset(MbBody b)
{
  MbV3Copy(b->mp.center, b->q); /* q = x̄ = X̄: the reference placement */
  return PetscArrayzero(b->u, 3);
}
static PetscErrorCode PmKinetic(MbBody b, PetscReal *ek)
{
  *ek = 0.5 * b->mp.mass * MbV3Dot(b->u, b->u);
  return PETSC_SUCCESS;
}
static PetscErrorCode PmInverse(MbBody b, PetscInt n, const PetscReal x[], PetscReal y[])
{
  for (PetscInt i = 0; i < 3 * n; i++) y[i] = x[i] / b->mp.mass;
  return PETSC_SUCCESS;
}
/* gravity and constant point forces (a point mass has no torque) */
static PetscErrorCode PmExternal(MbBody b, PetscReal t, PetscReal h, const PetscReal g[3], PetscReal f[])
{
  PetscFunctionBegin;
  MbV3Scale(b->mp.mass, g, f);
  for (PetscInt k = 0; k < b->nload; k++) {
    PetscCheck(b->load[k].kind == MB_LOAD_FORCE && !b->load[k].ts && !b->load[k].fn, PETSC_COMM_SELF, PETSC_ERR_SUP, "POINT_MASS: only constant forces");
    MbV3Axpy(b->load[k].value, b->load[k].dir, f, f);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode PmToSpatial(MbBody b, const PetscReal X[3], PetscReal x[3])
{
  PetscReal d[3];
  MbV3Sub(X, b->mp.center, d);
  MbV3Add(b->q, d, x);
  return PETSC_SUCCESS;
}
static PetscErrorCode PmToReferential(MbBody b, PetscInt prim, const PetscReal x[3], PetscReal X[3])
{
  PetscReal d[3];
  MbV3Sub(x, b->q, d);
  MbV3Add(b->mp.center, d, X);
  return PETSC_SUCCESS;
}
static PetscErrorCode PmPointVelocity(MbBody b, const PetscReal u[], const PetscReal X[3], PetscReal v[3])
{
  MbV3Copy(u, v);
  return PETSC_SUCCESS;
}
/* U = baseᵀ v: row r of H is the local axis r (column r of base) */
static PetscErrorCode PmOperatorH(MbBody b, const PetscReal X[3], const PetscReal base[9], PetscReal Hm[])
{
  for (int r = 0; r < 3; r++)
    for (int j = 0; j < 3; j++) Hm[3 * r + j] = base[3 * j + r];
  return PETSC_SUCCESS;
}
static PetscErrorCode PmMomentum(MbBody b, PetscReal a[3], PetscReal l[3])
{
  MbV3Scale(b->mp.mass, b->u, l);
  MbV3Cross(b->q, l, a);
  return PETSC_SUCCESS;
}
static PetscErrorCode PmSetVelocity(MbBody b, const PetscReal lin[3], const PetscReal ang[3], PetscBool spatial)
{
  PetscFunctionBegin;
  PetscCheck(!ang || MbV3Norm(ang) == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "POINT_MASS body %" PetscInt_FMT ": a point mass does not spin", b->id);
  if (lin) MbV3Copy(lin, b->u);
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode PmTransform(MbBody b, const PetscReal Rm[9], const PetscReal c[3], const PetscReal d[3])
{
  PetscReal y[3], z[3];
  MbV3Sub(b->q, c, y);
  MbM3Mult(Rm, y, z);
  MbV3Add(z, c, y);
  MbV3Add(y, d, b->q);
  return PETSC_SUCCESS;
}
static PetscErrorCode PmBound(MbBody b, PetscReal c[3], PetscReal *r)
{
  MbV3Copy(b->q, c);
  *r = MbBodyExtent(b);
  return PETSC_SUCCESS;
}
/* what an output frame keeps: an unturned rigid body's numbers */
static PetscErrorCode PmFrameState(MbBody b, PetscReal q[12], PetscReal u[6])
{
  PetscFunctionBegin;
  MbM3Identity(q);
  MbV3Copy(b->q, &q[9]);
  PetscCall(PetscArrayzero(u, 3));
  MbV3Copy(b->u, &u[3]);
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode PmAffine(MbBody b, PetscReal m[24])
{
  PetscFunctionBegin;
  PetscCall(PetscArrayzero(m, 24));
  MbM3Identity(m);
  MbV3Copy(b->q, &m[18]);
  MbV3Copy(b->u, &m[21]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MbBodyOps PointMassOps = {
    .name           = "POINT_MASS",
    .nq             = 3,
    .nu             = 3,
    .movable        = PETSC_TRUE,
    .traits         = MB_BODY_TRAIT_LINEAR, /* q̇ = u, A = M: the leap-frog DEF_EXP, DEF_LIM */
    .scheme         = MBDEFEXP,
    .create         = PmReset,
    .reset          = PmReset,
    .kinetic        = PmKinetic,
    .inverse        = PmInverse,
    .external       = PmExternal,
    .to_spatial     = PmToSpatial,
    .to_referential = PmToReferential,
    .point_velocity = PmPointVelocity,
    .operator_h     = PmOperatorH,
    .momentum       = PmMomentum,
    .set_velocity   = PmSetVelocity,
    .transform      = PmTransform,
    .bound          = PmBound,
    .frame_state    = PmFrameState,
    .affine         = PmAffine,
};

/* ---------------------------------------------------------------- tests */

/* The registry: built-in codes as results files have them, the new kind next, its
   properties as the deck sees them, names in an unknown kind's error. */
static void test_registry(void **state)
{
  const char    *names[] = {MBBODYRIGID, MBBODYOBSTACLE, MBBODYPSEUDORIGID, MBBODYFINITEELEMENT, "POINT_MASS"};
  PetscInt       n;
  MbBodyKindInfo info;
  MbShape        s;
  MbBody         b;
  PetscReal      c[3] = {0, 0, 0};
  MB_OK(MbBodyKindRegister("POINT_MASS", &PointMassOps));
  MB_OK(MbBodyKindRegister("POINT_MASS", &PointMassOps)); /* again: the same code */
  MB_OK(MbBodyKindGetCount(&n));
  assert_int_equal(n, 5);
  for (PetscInt k = 0; k < n; k++) {
    const char *name;
    MB_OK(MbBodyKindGetName(k, &name));
    assert_string_equal(name, names[k]);
  }
  MB_OK(MbBodyKindGetInfo("POINT_MASS", &info));
  assert_int_equal(info.code, 4);
  assert_int_equal(info.nq, 3);
  assert_int_equal(info.nu, 3);
  assert_true(info.movable && !info.elastic && !info.torque && !info.pressure && !info.nodal && !info.forms);
  assert_string_equal(info.scheme, MBDEFEXP);
  MB_FAILS(MbBodyKindGetInfo("POINT_MAS", &info), "unknown body kind 'POINT_MAS'; registered kinds: RIGID, OBSTACLE, PSEUDO_RIGID, FINITE_ELEMENT, POINT_MASS");
  MB_FAILS(MbBodyKindRegister("POINT", &PointMassOps), "body kind POINT: its ops table is named POINT_MASS");
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddSphere(s, c, R, 0, 0));
  MB_FAILS(MbBodyCreate(0, "MASS_POINT", s, RHO, NULL, &b), "registered kinds: RIGID, OBSTACLE, PSEUDO_RIGID, FINITE_ELEMENT, POINT_MASS");
  MB_OK(MbBodyCreate(0, "POINT_MASS", s, RHO, NULL, &b));
  {
    const char *kind;
    PetscInt    code, nq, nu;
    MB_OK(MbBodyGetKind(b, &kind));
    MB_OK(MbBodyGetKindCode(b, &code));
    MB_OK(MbBodyGetSizes(b, &nq, &nu));
    assert_string_equal(kind, "POINT_MASS");
    assert_int_equal(code, 4);
    assert_int_equal(nq, 3);
    assert_int_equal(nu, 3);
  }
  /* the schemes ask the kind: the leap-frog ones apply, the rotation and force ones do not */
  {
    const char *applies[] = {MBDEFEXP, MBDEFLIM}, *not [] = {MBRIGNEG, MBRIGPOS, MBEULEREXP, MBGALPHA};
    for (int k = 0; k < 6; k++) {
      MbScheme  sc;
      PetscBool ok;
      MB_OK(MbSchemeCreate(PETSC_COMM_SELF, &sc));
      MB_OK(MbSchemeSetType(sc, k < 2 ? applies[k] : not [k - 2]));
      MB_OK(MbSchemeAppliesTo(sc, "POINT_MASS", &ok));
      assert_int_equal(ok, k < 2);
      if (k >= 2) MB_FAILS(MbBodySetScheme(b, sc), "does not apply to body 0 of kind POINT_MASS");
      MB_OK(MbSchemeDestroy(&sc));
    }
  }
  MB_OK(MbBodyDestroy(&b));
  MB_OK(MbShapeDestroy(&s));
}

/* The fall and the rest, against physics. */
static void test_fall_and_rest(void **state)
{
  PetscInt          id, nc;
  MbConstraintInfo *ci;
  MbDomain          dom;
  MbBody            b;
  MbShape           s;
  PetscReal         g[3] = {0, 0, -G}, c[3] = {0.1, -0.2, R + GAP}, *q, *u, t, tc = -1, vimpact = 0, errfree = 0;
  PetscReal         floorv[24] = {-1, -1, -0.5, 1, -1, -0.5, 1, 1, -0.5, -1, 1, -0.5, -1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
  const PetscReal   tfall      = PetscSqrtReal(2 * GAP / G);
  MB_OK(MbBodyKindRegister("POINT_MASS", &PointMassOps));
  MB_OK(MbDomainCreate(PETSC_COMM_WORLD, &dom));
  MB_OK(MbDomainSetVerbose(dom, PETSC_FALSE));
  MB_OK(MbDomainSetStep(dom, H));
  MB_OK(MbDomainSetGravity(dom, g));
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddHex(s, floorv, NULL, 0));
  MB_OK(MbDomainNextBodyId(dom, &id));
  MB_OK(MbBodyCreate(id, MBBODYOBSTACLE, s, RHO, "floor", &b));
  MB_OK(MbDomainAddBody(dom, b));
  MB_OK(MbShapeDestroy(&s));
  MB_OK(MbShapeCreate(&s));
  MB_OK(MbShapeAddSphere(s, c, R, 0, 0));
  MB_OK(MbDomainNextBodyId(dom, &id));
  MB_OK(MbBodyCreate(id, "POINT_MASS", s, RHO, "mass", &b));
  MB_OK(MbDomainAddBody(dom, b));
  MB_OK(MbShapeDestroy(&s));
  MB_OK(MbBodyGetState(b, &q, &u));
  do {
    PetscReal vprev = u[2];
    MB_OK(MbDomainStep(dom));
    MB_OK(MbDomainGetTime(dom, &t));
    MB_OK(MbDomainGetConstraints(dom, &nc, &ci));
    if (nc && tc < 0) {
      tc      = t; /* the first step with a contact */
      vimpact = -vprev;
      assert_int_equal(ci[0].kind, 0);
      MB_CLOSE(ci[0].normal[2], 1, 1e-12);
    }
    MB_OK(PetscFree(ci));
    if (tc < 0) errfree = PetscMax(errfree, PetscAbsReal(q[2] - (c[2] - 0.5 * G * t * t))); /* free flight */
  } while (t < 1 - 0.5 * H);
  print_message("# POINT_MASS: free fall |z - (z0 - g t^2/2)| <= %.2g m; first contact at t = %.6f s, sqrt(2h/g) = %.6f s (step %g); impact speed %.4f m/s (sqrt(2gh) = %.4f); at t = %.3f s: centre %.3g m above the floor "
                "(radius %g), velocity (%.2g, %.2g, %.2g) m/s\n",
                (double)errfree, (double)tc, (double)tfall, (double)H, (double)vimpact, (double)PetscSqrtReal(2 * G * GAP), (double)t, (double)q[2], (double)R, (double)u[0], (double)u[1], (double)u[2]);
  MB_CLOSE(errfree, 0, 1e-12);                          /* exact leap-frog, round-off */
  assert_true(tc > 0);                                  /* it reached the floor */
  MB_CLOSE(tc, tfall, H);                               /* within one step of √(2h₀/g) */
  MB_CLOSE(vimpact, PetscSqrtReal(2 * G * GAP), G * H); /* √(2gh₀), to one step's gravity */
  MB_CLOSE(q[2], R, H * PetscSqrtReal(2 * G * GAP));    /* resting one radius up */
  MB_CLOSE(q[0], c[0], 1e-12);                          /* straight down */
  MB_CLOSE(q[1], c[1], 1e-12);
  MB_CLOSE(MbV3Norm(u), 0, 1e-9); /* at rest */
  MB_OK(MbDomainDestroy(&dom));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_registry),
    cmocka_unit_test(test_fall_and_rest),
};
MB_TEST_MAIN(tests)
