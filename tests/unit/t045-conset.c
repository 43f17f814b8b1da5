/* The constraint set (src/constraint/set.c) on its own, without a domain: two rigid balls
   touching, their contact handed to the set as detection hands it, step after step.
   - numbering: one rank owns every row, rows 0.., nconglobal the count, ncontacts the
     contacts;
   - persistence: a contact with last step's key (bodies, primitives, feature) starts from
     last step's reaction (the warm start) and keeps its tangent; one with another feature
     starts from zero;
   - materials and restitution (Solfec's): the last matching surface material gives mu, and
     the bias is e·min(0, V_N) with V_N the normal velocity at the start of the step;
   - the contact model decides what a contact becomes: spring_dashpot makes it a force
     contact (no row, row −1) with its force known at once. */
#include "mbtest.h"
#include <moreau/mbmath.h>
#include "constraint/conset.h"
#include "constraint/model/modelimpl.h"
#include "body/bodyimpl.h"

#define RAD 0.5

typedef struct {
  MbBody      b[2];
  MbBodyMap   map;
  PetscMPIInt owner[2];
  char        movable[2];
  MbBody      all[2];
} Pair;

/* Ball 0 at the origin, ball 1 above it, overlapping by 1 mm; ball 1 falls at 2 m/s. */
static void PairCreate(Pair *p)
{
  for (int k = 0; k < 2; k++) {
    const PetscReal c[3] = {0, 0, k * (2 * RAD - 1e-3)}, v[3] = {0, 0, k ? -2.0 : 0.0}, w[3] = {0, 0, 0};
    MbShape         s;
    MB_OK(MbShapeCreate(&s));
    MB_OK(MbShapeAddSphere(s, c, RAD, 0, k + 1));
    MB_OK(MbBodyCreate(k, MBBODYRIGID, s, 1000, NULL, &p->b[k]));
    MB_OK(MbBodySetVelocity(p->b[k], v, w));
    MB_OK(PetscArraycpy(p->b[k]->u0, p->b[k]->u, p->b[k]->nu)); /* the start of the step */
    p->owner[k] = 0, p->movable[k] = 1, p->all[k] = p->b[k];
  }
  p->map = (MbBodyMap){2, p->owner, p->movable, p->all, 0, 1};
}

static void PairDestroy(Pair *p)
{
  for (int k = 0; k < 2; k++) MB_OK(MbBodyDestroy(&p->b[k]));
}

/* One step's contacts: the pair's point with each feature of feat[0..n) (master ball 1). */
static void Step(MbConSet cs, Pair *p, PetscInt n, const PetscInt feat[])
{
  const PetscInt  body[2] = {1, 0}, prim[2] = {0, 0}, surf[2] = {2, 1};
  const PetscReal point[3] = {0, 0, RAD - 5e-4}, normal[3] = {0, 0, 1};
  MB_OK(MbConSetBegin(cs));
  MB_OK(MbConSetReserve(cs, 1));
  for (PetscInt k = 0; k < n; k++) MB_OK(MbConSetAddContact(cs, &p->map, body, prim, surf, feat[k], -1e-3, point, normal));
  MB_OK(MbConSetEnd(cs, &p->map));
}

static void test_rows_and_persistence(void **state)
{
  Pair           p;
  MbConSet       cs;
  const PetscInt f0[1] = {7}, f01[2] = {3, 7};
  PairCreate(&p);
  MB_OK(MbConSetCreate(PETSC_COMM_SELF, &cs));
  /* a material for surfaces (1, 2): friction 0.4, restitution 0.5 */
  MB_OK(PetscMalloc1(1, &cs->mat));
  cs->mat[0] = (MbSurfMat){{1, 2}, 0, 0.4, 0, 0.5, 0, 0, 1};
  cs->nmat   = 1;
  Step(cs, &p, 1, f0);
  assert_int_equal(cs->ncon, 1);
  assert_int_equal(cs->nconglobal, 1);
  assert_int_equal(cs->rstart, 0);
  assert_int_equal(cs->rend, 1);
  assert_int_equal(cs->ncontacts, 1);
  assert_int_equal(cs->con[0].row, 0);
  assert_int_equal(cs->con[0].body[0], 1);
  MB_CLOSE(cs->con[0].law.mu, 0.4, 0);
  /* U = baseᵀ(ẋ_master − ẋ_slave): ball 1 falls onto ball 0 at 2 m/s, so V_N = −2 and the
     restitution bias is 0.5·(−2) */
  MB_CLOSE(cs->con[0].V[2], -2.0, 1e-14);
  MB_CLOSE(cs->con[0].law.bias[2], -1.0, 1e-14);
  for (int m = 0; m < 3; m++) MB_CLOSE(cs->con[0].R[m], 0.0, 0);
  /* the solve's answer, kept for the next step's warm start */
  cs->con[0].R[0] = 1.5, cs->con[0].R[1] = -0.25, cs->con[0].R[2] = 3.0;
  {
    const PetscReal t1[3] = {cs->con[0].base[0], cs->con[0].base[3], cs->con[0].base[6]};
    Step(cs, &p, 2, f01); /* feature 3 is new, feature 7 persists */
    assert_int_equal(cs->ncon, 2);
    assert_int_equal(cs->con[0].feature, 3);
    assert_int_equal(cs->con[1].feature, 7);
    assert_int_equal(cs->con[1].row, 1);
    for (int m = 0; m < 3; m++) MB_CLOSE(cs->con[0].R[m], 0.0, 0);
    MB_CLOSE(cs->con[1].R[0], 1.5, 0);
    MB_CLOSE(cs->con[1].R[1], -0.25, 0);
    MB_CLOSE(cs->con[1].R[2], 3.0, 0);
    for (int m = 0; m < 3; m++) MB_CLOSE(cs->con[1].base[3 * m], t1[m], 1e-15); /* the tangent kept */
  }
  Step(cs, &p, 0, f0); /* no contact: the rows go */
  assert_int_equal(cs->ncon, 0);
  assert_int_equal(cs->nconglobal, 0);
  MB_OK(MbConSetDestroy(&cs));
  PairDestroy(&p);
}

static void test_force_contacts(void **state)
{
  Pair           p;
  MbConSet       cs;
  const PetscInt f0[1] = {0};
  PairCreate(&p);
  MB_OK(MbConSetCreate(PETSC_COMM_SELF, &cs));
  MB_OK(MbContactModelSetType(cs->contact, MBCONTACTPENALTY));
  assert_false(MbConSetContactRows(cs));
  MB_OK(PetscMalloc1(1, &cs->mat));
  cs->mat[0] = (MbSurfMat){{-1, -1}, 1, 0, 0, 0, 0, 0, 1}; /* SPRING_DASHPOT without a spring: the model refuses it */
  cs->nmat   = 1;
  {
    const PetscInt  body[2] = {1, 0}, prim[2] = {0, 0}, surf[2] = {2, 1};
    const PetscReal point[3] = {0, 0, RAD - 5e-4}, normal[3] = {0, 0, 1};
    MB_OK(MbConSetBegin(cs));
    MB_OK(MbConSetReserve(cs, 1));
    MB_FAILS(MbConSetAddContact(cs, &p.map, body, prim, surf, 0, -1e-3, point, normal), "(bodies 1 and 0) has no spring");
  }
  cs->mat[0].spring = 1e6; /* k = 1e6 N/m, no dashpot */
  Step(cs, &p, 1, f0);
  assert_int_equal(cs->ncon, 0);
  assert_int_equal(cs->nconglobal, 0);
  assert_int_equal(cs->npen, 1);
  assert_int_equal(cs->ncontacts, 1);
  assert_int_equal(cs->pen[0].row, -1);
  MB_CLOSE(cs->pen[0].R[2], 1e6 * 1e-3, 1e-9); /* the spring's push at 1 mm overlap */
  MB_OK(MbConSetDestroy(&cs));
  PairDestroy(&p);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_rows_and_persistence),
    cmocka_unit_test(test_force_contacts),
};
MB_TEST_MAIN(tests)
