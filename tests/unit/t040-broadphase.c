/* Broad phase (MbBroadPhase) against the O(n²) test of every pair: random boxes of mixed
   sizes with a few very large ones (slab, walls), boxes on an integer lattice that only
   touch, point boxes, a bimodal size mix, n = 0 and 1, the filter callback, and bad input.
   Ends with a timing print (not asserted) for 100,000 spheres' boxes on a jittered lattice. */
#include "mbtest.h"
#include <petsctime.h>

/* xorshift64* (Vigna 2016): a small deterministic generator, the same on every machine */
static PetscReal Uniform(uint64_t *s)
{
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return (PetscReal)((*s * UINT64_C(2685821657736338717)) >> 11) / 9007199254740992.0;
}

static PetscBool Overlap(const MbBox *a, const MbBox *b)
{
  for (int d = 0; d < 3; d++)
    if (a->lo[d] > b->hi[d] || b->lo[d] > a->hi[d]) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* drops pairs with i + j odd; counts the calls and checks i < j */
typedef struct {
  PetscInt calls, bad;
} FilterCtx;
static PetscBool EvenSum(void *ctx, PetscInt i, PetscInt j)
{
  FilterCtx *f = (FilterCtx *)ctx;
  f->calls++;
  if (i >= j) f->bad++;
  return (PetscBool)((i + j) % 2 == 0);
}

/* MbBroadPhase's pairs equal those of the double loop (which come out sorted by (i, j)),
   with and without the filter; the filter sees each overlapping pair exactly once. */
static void CheckAgainstBruteForce(const char *what, PetscInt n, const MbBox boxes[])
{
  PetscInt *pairs, np, nb = 0, cap = 64, *ref, nall = 0;
  FilterCtx fc = {0, 0};
  ref          = malloc(2 * cap * sizeof(PetscInt));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = i + 1; j < n; j++)
      if (Overlap(&boxes[i], &boxes[j])) {
        if (nb == cap) ref = realloc(ref, 2 * (cap *= 2) * sizeof(PetscInt));
        ref[2 * nb]     = i;
        ref[2 * nb + 1] = j;
        nb++;
      }
  MB_OK(MbBroadPhase(n, boxes, NULL, NULL, &np, &pairs));
  if (np != nb) fail_msg("%s (n = %d): %d pairs, brute force finds %d", what, (int)n, (int)np, (int)nb);
  for (PetscInt k = 0; k < nb; k++)
    if (pairs[2 * k] != ref[2 * k] || pairs[2 * k + 1] != ref[2 * k + 1]) fail_msg("%s (n = %d): pair %d is (%d, %d), expected (%d, %d)", what, (int)n, (int)k, (int)pairs[2 * k], (int)pairs[2 * k + 1], (int)ref[2 * k], (int)ref[2 * k + 1]);
  MB_OK(PetscFree(pairs));
  /* filtered: the even-sum subsequence of the reference */
  MB_OK(MbBroadPhase(n, boxes, EvenSum, &fc, &np, &pairs));
  assert_int_equal(fc.calls, nb);
  assert_int_equal(fc.bad, 0);
  for (PetscInt k = 0; k < nb; k++) {
    if ((ref[2 * k] + ref[2 * k + 1]) % 2) continue;
    if (nall >= np || pairs[2 * nall] != ref[2 * k] || pairs[2 * nall + 1] != ref[2 * k + 1]) fail_msg("%s (n = %d): filtered pair %d differs from the brute force", what, (int)n, (int)nall);
    nall++;
  }
  assert_int_equal(np, nall);
  MB_OK(PetscFree(pairs));
  print_message("# %s, n = %d: %d pairs\n", what, (int)n, (int)nb);
  free(ref);
}

static void test_empty(void **state)
{
  MbBox     b     = {{0, 0, 0}, {1, 1, 1}};
  PetscInt *pairs = NULL, np = -1;
  MB_OK(MbBroadPhase(0, NULL, NULL, NULL, &np, &pairs));
  assert_int_equal(np, 0);
  MB_OK(PetscFree(pairs));
  MB_OK(MbBroadPhase(1, &b, NULL, NULL, &np, &pairs));
  assert_int_equal(np, 0);
  MB_OK(PetscFree(pairs));
}

/* Random boxes of extent 0.02–0.1 in the unit cube, plus (when asked) a ground slab, two
   walls and one long beam: all of them far above 8× the median extent. */
static void RandomBoxes(PetscInt n, PetscBool large, uint64_t seed, MbBox b[])
{
  uint64_t s = seed;
  for (PetscInt i = 0; i < n; i++)
    for (int d = 0; d < 3; d++) {
      PetscReal c = Uniform(&s), e = 0.02 + 0.08 * Uniform(&s);
      b[i].lo[d] = c - e / 2;
      b[i].hi[d] = c + e / 2;
    }
  if (large && n >= 8) {
    const MbBox big[4] = {
        {{-1, -1, -0.5}, {2, 2, 0.03}},   /* slab */
        {{-1, -1, -1}, {0.02, 2, 2}},     /* wall x = 0 */
        {{-1, 0.97, -1}, {2, 2, 2}},      /* wall y = 1 */
        {{0.4, -1, 0.45}, {0.45, 2, 0.5}} /* beam along y */
    };
    for (int k = 0; k < 4; k++) b[(k * 7919) % n] = big[k];
  }
}

static void test_random(void **state)
{
  const PetscInt ns[] = {2, 5, 16, 17, 40, 200, 1000, 3000};
  for (size_t t = 0; t < sizeof(ns) / sizeof(ns[0]); t++) {
    PetscInt n = ns[t];
    MbBox   *b = malloc(n * sizeof(MbBox));
    RandomBoxes(n, PETSC_FALSE, 1234 + t, b);
    CheckAgainstBruteForce("random boxes", n, b);
    RandomBoxes(n, PETSC_TRUE, 99 + t, b);
    CheckAgainstBruteForce("random boxes with slab, walls, beam", n, b);
    free(b);
  }
}

/* Unit boxes on an integer lattice touch their 26 neighbours exactly (closed boxes); a few
   have zero extent (points on lattice nodes), which touch the 8 boxes around them. */
static void test_touching(void **state)
{
  const PetscInt m = 7, n = m * m * m;
  MbBox         *b = malloc(n * sizeof(MbBox));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt x[3] = {i % m, (i / m) % m, i / (m * m)};
    for (int d = 0; d < 3; d++) {
      b[i].lo[d] = x[d];
      b[i].hi[d] = (i % 11 == 5) ? x[d] : x[d] + 1;
    }
  }
  CheckAgainstBruteForce("touching lattice boxes", n, b);
  /* every box a point: the cell size falls back to the cloud's span */
  for (PetscInt i = 0; i < n; i++)
    for (int d = 0; d < 3; d++) b[i].hi[d] = b[i].lo[d] = (PetscReal)((i * (d + 3)) % 5);
  CheckAgainstBruteForce("point boxes", n, b);
  free(b);
}

/* Two populations, 60% of extent 0.01 and 40% of extent 0.3 (30× the median): the large
   ones are too many for a plain sweep and recurse with their own median. Then two that
   both stay in the grid, sizes 1 and 7. */
static void test_bimodal(void **state)
{
  const PetscInt n = 2000;
  MbBox         *b = malloc(n * sizeof(MbBox));
  uint64_t       s = 7;
  for (PetscInt i = 0; i < n; i++)
    for (int d = 0; d < 3; d++) {
      PetscReal c = 3 * Uniform(&s), e = (i % 5 < 3) ? 0.01 : 0.3;
      b[i].lo[d] = c - e / 2;
      b[i].hi[d] = c + e / 2;
    }
  CheckAgainstBruteForce("bimodal sizes", n, b);
  /* 55% of extent 0.01 and 45% of 0.07: the median is 0.01, and the others, 7× that, stay in
     the grid and would enter up to 8³ cells each: the grid is coarsened */
  for (PetscInt i = 0; i < n; i++)
    for (int d = 0; d < 3; d++) {
      PetscReal c = Uniform(&s), e = (i % 20 < 11) ? 0.01 : 0.07;
      b[i].lo[d] = c - e / 2;
      b[i].hi[d] = c + e / 2;
    }
  CheckAgainstBruteForce("sizes 1 and 7", n, b);
  free(b);
}

static void test_bad_input(void **state)
{
  MbBox     b[4] = {{{0, 0, 0}, {1, 1, 1}}, {{0, 0, 0}, {1, 1, 1}}, {{0, 0, 0}, {1, 1, 1}}, {{0, 2, 0}, {1, 1, 1}}};
  PetscInt *pairs, np;
  MB_FAILS(MbBroadPhase(4, b, NULL, NULL, &np, &pairs), "box 3 has lo[1] = 2");
  MB_FAILS(MbBroadPhase(-1, b, NULL, NULL, &np, &pairs), "got -1");
}

/* 100,000 spheres of diameter 0.1 on a lattice of spacing 0.1 jittered by ±0.02 (so each
   touches about 6 neighbours), then the same with a ground slab under them. Timed, and
   checked for order and overlap; the pair count of the slab run is one more per sphere
   in the bottom layer. */
static void test_timing(void **state)
{
  const PetscInt m = 47, n = m * m * m; /* 103,823 */
  MbBox         *b = malloc((n + 1) * sizeof(MbBox));
  uint64_t       s = 42;
  PetscInt      *pairs, np, np2, bottom = 0;
  PetscLogDouble t0, t1, t2, t3;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt x[3] = {i % m, (i / m) % m, i / (m * m)};
    for (int d = 0; d < 3; d++) {
      PetscReal c = 0.1 * x[d] + 0.04 * (Uniform(&s) - 0.5);
      b[i].lo[d]  = c - 0.05;
      b[i].hi[d]  = c + 0.05;
    }
    if (b[i].lo[2] <= 0) bottom++;
  }
  MB_OK(PetscTime(&t0));
  MB_OK(MbBroadPhase(n, b, NULL, NULL, &np, &pairs));
  MB_OK(PetscTime(&t1));
  for (PetscInt k = 0; k < np; k++) {
    const PetscInt i = pairs[2 * k], j = pairs[2 * k + 1];
    assert_true(i < j);
    if (k) assert_true(pairs[2 * k - 2] < i || (pairs[2 * k - 2] == i && pairs[2 * k - 1] < j));
    assert_true(Overlap(&b[i], &b[j]));
  }
  MB_OK(PetscFree(pairs));
  b[n] = (MbBox){{-1, -1, -1}, {5, 5, 0}}; /* slab: top at z = 0 */
  MB_OK(PetscTime(&t2));
  MB_OK(MbBroadPhase(n + 1, b, NULL, NULL, &np2, &pairs));
  MB_OK(PetscTime(&t3));
  assert_int_equal(np2, np + bottom);
  MB_OK(PetscFree(pairs));
  print_message("# broad phase, %d boxes on a jittered lattice: %d pairs in %.3f s; with a slab: %d pairs in %.3f s\n", (int)n, (int)np, t1 - t0, (int)np2, t3 - t2);
  free(b);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_empty), cmocka_unit_test(test_random), cmocka_unit_test(test_touching), cmocka_unit_test(test_bimodal), cmocka_unit_test(test_bad_input), cmocka_unit_test(test_timing),
};

MB_TEST_MAIN(tests)
