/* Speed of the finite-element kernels (issue 18's targets; results in doc/benchmarks.md).

     femkernel [-nx 40 -ny 25 -nz 10] [-tets] [-reps 20] [-steps 100] [-lim 5]
               [-limsteps 0 -refactor 10 -rtol 1e-10] [-damping 0]

   A free box of nx×ny×nz HEX8 elements (or 6 TET4 per cell with -tets), E = 1e7, stretched
   by 0.1 %, then:
   - f_int: element evaluations per second of the internal force (MbBody's internal op);
   - DEF_EXP: steps per second of the free body at half its critical step (-damping η:
     stiffness-proportional damping, which MbSvkForceDamped folds into the force pass);
   - DEF_LIM: seconds per step (K assembly, A = M + cK factorization, solve) over -lim steps;
   - DEF_LIM stepping (-limsteps N): the free body, stretched and bending, at 10 h_crit with
     a factorization every step and every -refactor steps (CG to -rtol in between): time a
     step, counts, and how far the velocities end apart;
   - memory: bytes per element of the body's data (quadrature data, masses, K and its
     factor after the DEF_LIM steps), the growth of the resident set. */
#include <moreau/moreau.h>
#include "body/bodyimpl.h"
#include "body/finite_element/fem.h"

static PetscErrorCode Box(PetscInt nx, PetscInt ny, PetscInt nz, PetscBool tets, MbShape *s)
{
  static const int T[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6}, {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
  const PetscInt   nn = (nx + 1) * (ny + 1) * (nz + 1), ne = nx * ny * nz * (tets ? 6 : 1);
  PetscInt        *eptr, *enode, e = 0, surf[6] = {1, 1, 1, 1, 1, 1};
  PetscReal       *X;
  PetscFunctionBegin;
  PetscCall(PetscMalloc3(3 * nn, &X, ne + 1, &eptr, 8 * ne, &enode));
  for (PetscInt k = 0, n = 0; k <= nz; k++)
    for (PetscInt j = 0; j <= ny; j++)
      for (PetscInt i = 0; i <= nx; i++, n++) X[3 * n] = 0.1 * i, X[3 * n + 1] = 0.1 * j, X[3 * n + 2] = 0.1 * k;
  PetscCall(MbShapeCreate(s));
  eptr[0] = 0;
  for (PetscInt k = 0; k < nz; k++)
    for (PetscInt j = 0; j < ny; j++)
      for (PetscInt i = 0; i < nx; i++) {
        PetscInt h[8], c = (k * (ny + 1) + j) * (nx + 1) + i, dx = 1, dy = nx + 1, dz = (nx + 1) * (ny + 1);
        h[0] = c, h[1] = c + dx, h[2] = c + dx + dy, h[3] = c + dy;
        for (int v = 0; v < 4; v++) h[4 + v] = h[v] + dz;
        for (int t = 0; t < (tets ? 6 : 1); t++, e++) {
          PetscInt  nv = tets ? 4 : 8;
          PetscReal x[24];
          for (PetscInt v = 0; v < nv; v++) {
            enode[eptr[e] + v] = tets ? h[T[t][v]] : h[v];
            for (int d = 0; d < 3; d++) x[3 * v + d] = X[3 * enode[eptr[e] + v] + d];
          }
          PetscCall(MbShapeAddElement(*s, nv, x, surf, 1));
          eptr[e + 1] = eptr[e] + nv;
        }
      }
  PetscCall(MbShapeSetMesh(*s, nn, X, ne, eptr, enode));
  PetscCall(PetscFree3(X, eptr, enode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt       nx = 40, ny = 25, nz = 10, reps = 20, steps = 100, lim = 5, ne, id, limsteps = 0, refactor = 10;
  PetscReal      rtol = 1e-10, eta = 0;
  PetscBool      tets = PETSC_FALSE;
  MbShape        s;
  MbBody         b;
  MbDomain       dom;
  MbScheme       sch;
  PetscReal     *f, *z, hc;
  PetscLogDouble t0, t1, m0, m1;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nx", &nx, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ny", &ny, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nz", &nz, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-steps", &steps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-lim", &lim, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-tets", &tets, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-limsteps", &limsteps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-refactor", &refactor, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-rtol", &rtol, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-damping", &eta, NULL)); /* stiffness-proportional η of the DEF_EXP body (0: none) */
  PetscCall(MbInitialize());
  PetscCall(Box(nx, ny, nz, tets, &s));
  ne = nx * ny * nz * (tets ? 6 : 1);
  PetscCall(PetscMemoryGetCurrentUsage(&m0));
  PetscCall(MbDomainCreate(PETSC_COMM_SELF, &dom));
  PetscCall(MbDomainSetVerbose(dom, PETSC_FALSE));
  PetscCall(MbDomainNextBodyId(dom, &id));
  PetscCall(MbBodyCreate(id, MBBODYFINITEELEMENT, s, 1000, "box", &b));
  PetscCall(MbBodySetMaterial(b, 1e7, 0.3));
  {
    const PetscReal *X;
    PetscInt         nn;
    PetscCall(MbShapeGetMesh(s, &nn, &X, NULL, NULL, NULL));
    for (PetscInt a = 0; a < nn; a++) b->q[3 * a] = 1e-3 * X[3 * a];
  }
  PetscCall(PetscCalloc2(b->nu, &f, b->nu, &z));
  PetscCall(PetscTime(&t0));
  for (PetscInt r = 0; r < reps; r++) PetscCall(b->ops->internal(b, z, f));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "femkernel: %" PetscInt_FMT " %s elements, %" PetscInt_FMT " nodes\n", ne, tets ? "TET4" : "HEX8", b->nu / 3));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "f_int: %.3g element evaluations per second (%" PetscInt_FMT " evaluations in %.3f s)\n", (double)(reps * ne / (t1 - t0)), reps, (double)(t1 - t0)));
  PetscCall(MbBodyCriticalStep(b, &hc));
  PetscCall(MbDomainSetStep(dom, 0.5 * hc));
  PetscCall(MbDomainGetScheme(dom, "DEF_EXP", &sch));
  PetscCall(MbBodySetScheme(b, sch));
  if (eta > 0) PetscCall(MbBodySetDamping(b, eta));
  PetscCall(MbDomainAddBody(dom, b));
  PetscCall(PetscTime(&t0));
  for (PetscInt k = 0; k < steps; k++) PetscCall(MbDomainStep(dom));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "DEF_EXP: %.3g steps per second (%" PetscInt_FMT " steps in %.3f s, h = %.3g)\n", (double)(steps / (t1 - t0)), steps, (double)(t1 - t0), (double)(0.5 * hc)));
  if (lim > 0) {
    Fem           *m  = (Fem *)b->data;
    PetscLogDouble ta = 0, tf = 0, ts = 0, a0, a1;
    PetscReal      c = 0.25 * (10 * hc) * (10 * hc);
    for (PetscInt k = 0; k < lim; k++) {
      PetscCall(PetscTime(&a0));
      PetscCall(MbFemAssembleK(m, b->q));
      PetscCall(PetscTime(&a1));
      ta += a1 - a0;
      PetscCall(MbFemFactor(m, b->q, c, b->id)); /* assembles again: its own time less ta's share */
      PetscCall(PetscTime(&a0));
      tf += a0 - a1;
      PetscCall(MbFemSolve(m, 1, f, z));
      PetscCall(PetscTime(&a1));
      ts += a1 - a0;
    }
    {
      MatSolverType st;
      PetscCall(MatFactorGetSolverType(m->F, &st));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "DEF_LIM: per step K assembly %.3f s, assembly + factorization (%s %s) %.3f s, solve %.4f s\n", (double)(ta / lim), st, m->lu ? "LU" : "Cholesky", (double)(tf / lim), (double)(ts / lim)));
    }
  }
  if (limsteps > 0) { /* DEF_LIM steps of the free body, the factor made every step and every `refactor` steps */
    PetscReal *ur = NULL, diff = 0, umax = 0;
    for (int variant = 0; variant < 2; variant++) {
      MbDomain       d2;
      MbBody         b2;
      MbScheme       s2;
      PetscInt       id2;
      Fem           *m2;
      PetscLogDouble a0, a1;
      PetscCall(MbDomainCreate(PETSC_COMM_SELF, &d2));
      PetscCall(MbDomainSetVerbose(d2, PETSC_FALSE));
      PetscCall(MbDomainNextBodyId(d2, &id2));
      PetscCall(MbBodyCreate(id2, MBBODYFINITEELEMENT, s, 1000, "box", &b2));
      PetscCall(MbBodySetMaterial(b2, 1e7, 0.3));
      PetscCall(MbBodySetDamping(b2, 1e-4));
      {
        const PetscReal *X;
        PetscInt         nn;
        PetscCall(MbShapeGetMesh(s, &nn, &X, NULL, NULL, NULL));
        for (PetscInt a = 0; a < nn; a++) b2->q[3 * a] = 1e-2 * X[3 * a], b2->u[3 * a + 2] = 0.1 * X[3 * a]; /* stretched and bending */
      }
      m2           = (Fem *)b2->data;
      m2->refactor = variant ? refactor : 1;
      m2->rtol     = rtol;
      PetscCall(MbDomainSetStep(d2, 10 * hc));
      PetscCall(MbDomainGetScheme(d2, "DEF_LIM", &s2));
      PetscCall(MbBodySetScheme(b2, s2));
      PetscCall(MbDomainAddBody(d2, b2));
      PetscCall(PetscTime(&a0));
      for (PetscInt k = 0; k < limsteps; k++) PetscCall(MbDomainStep(d2));
      PetscCall(PetscTime(&a1));
      PetscCall(PetscPrintf(PETSC_COMM_SELF,
                            "DEF_LIM stepping, a factorization every %" PetscInt_FMT " steps: %.3f s a step (%" PetscInt_FMT " steps at 10 h_crit; %" PetscInt_FMT " factorizations, %" PetscInt_FMT " CG solves, %.2f iterations each)\n", m2->refactor,
                            (double)((a1 - a0) / limsteps), limsteps, m2->nfactor, m2->npcg, (double)(m2->npcg ? (PetscReal)m2->pcgits / m2->npcg : 0)));
      if (!variant) {
        PetscCall(PetscMalloc1(b2->nu, &ur));
        PetscCall(PetscArraycpy(ur, b2->u, b2->nu));
      } else {
        for (PetscInt k = 0; k < b2->nu; k++) diff = PetscMax(diff, PetscAbsReal(b2->u[k] - ur[k])), umax = PetscMax(umax, PetscAbsReal(ur[k]));
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "DEF_LIM: velocities after %" PetscInt_FMT " steps differ by %.2g of the largest (CG to %g)\n", limsteps, (double)(diff / umax), (double)rtol));
      }
      PetscCall(MbDomainDestroy(&d2));
    }
    PetscCall(PetscFree(ur));
  }
  PetscCall(PetscMemoryGetCurrentUsage(&m1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "memory: %.0f bytes per element (body data%s)\n", (double)((m1 - m0) / ne), lim > 0 ? ", K and its factor included" : ""));
  PetscCall(PetscFree2(f, z));
  PetscCall(MbShapeDestroy(&s));
  PetscCall(MbDomainDestroy(&dom));
  PetscCall(MbFinalize());
  PetscCall(PetscFinalize());
  return 0;
}
