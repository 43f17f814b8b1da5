/* Mass properties by the divergence theorem (seed 003, eq. E0 and J = tr(E₀)I − E₀).
   A closed polyhedron is split into tetrahedra (o, a, b, c) fanned from a reference point o
   over a triangle fan of each face; signed volumes make this exact for any closed surface
   with outward orientation, convex or not. For a tetrahedron with vertices p_k (relative
   to o) and volume V: ∫x dV = V/4 Σp_k and ∫x⊗x dV = V/20 (Σ p_k⊗p_k + (Σp_k)⊗(Σp_k)). */
#include <moreau/mbmath.h>
#include "shapeimpl.h"

/* Accumulate volume, first and second moments (about o) of primitive p. */
static void PrimMoments(const MbPrim *p, const PetscReal o[3], PetscReal *vol, PetscReal m1[3], PetscReal m2[9])
{
  if (p->kind == MB_PRIM_SPHERE) {
    PetscReal V = 4.0 / 3.0 * PETSC_PI * p->r * p->r * p->r, c[3], s = V * p->r * p->r / 5.0; /* ∫x_i² over the ball about its centre = V r²/5 */
    MbV3Sub(p->c, o, c);
    *vol += V;
    for (int i = 0; i < 3; i++) {
      m1[i] += V * c[i];
      for (int j = 0; j < 3; j++) m2[3 * i + j] += V * c[i] * c[j] + (i == j ? s : 0.0);
    }
    return;
  }
  if (p->kind == MB_PRIM_ELLIPSOID) {
    /* x = c + L u over the unit ball: V = 4/3 π |det L|, and ∫(x−c)⊗(x−c) dV = |det L| L (∫u⊗u du) Lᵀ
       = V/5 L Lᵀ (∫u_i u_j du = 4π/15 δ_ij over the unit ball) */
    PetscReal L[9], x[12], V, c[3];
    MbV3Copy(p->c, x);
    for (int k = 0; k < 9; k++) x[3 + k] = p->e[k];
    MbEllipsoidFromPoints(x, L);
    V = 4.0 / 3.0 * PETSC_PI * PetscAbsReal(MbM3Det(L));
    MbV3Sub(p->c, o, c);
    *vol += V;
    for (int i = 0; i < 3; i++) {
      m1[i] += V * c[i];
      for (int j = 0; j < 3; j++) m2[3 * i + j] += V * c[i] * c[j] + V / 5.0 * MbV3Dot(&L[3 * i], &L[3 * j]);
    }
    return;
  }
  for (PetscInt f = 0; f < p->nf; f++) {
    const PetscInt *fv = &p->fvert[p->fptr[f]], n = p->fptr[f + 1] - p->fptr[f];
    PetscReal       a[3];
    MbV3Sub(&p->v[3 * fv[0]], o, a);
    for (PetscInt k = 1; k + 1 < n; k++) {
      PetscReal b[3], c[3], bc[3], s[3], V;
      MbV3Sub(&p->v[3 * fv[k]], o, b);
      MbV3Sub(&p->v[3 * fv[k + 1]], o, c);
      MbV3Cross(b, c, bc);
      V = MbV3Dot(a, bc) / 6.0;
      for (int i = 0; i < 3; i++) s[i] = a[i] + b[i] + c[i];
      *vol += V;
      for (int i = 0; i < 3; i++) {
        m1[i] += V / 4.0 * s[i];
        for (int j = 0; j < 3; j++) m2[3 * i + j] += V / 20.0 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s[i] * s[j]);
      }
    }
  }
}

PetscErrorCode MbShapeMassProps(MbShape s, PetscReal rho, MbMassProps *mp)
{
  PetscReal o[3] = {0, 0, 0}, lo[3], hi[3], vol = 0, m1[3] = {0, 0, 0}, m2[9] = {0};
  PetscFunctionBegin;
  PetscCheck(s->n > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "shape has no primitives");
  PetscCheck(rho > 0 && PetscIsNormalReal(rho), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "density must be > 0, got %g", (double)rho);
  /* moments about the box centre keep the round-off relative to the shape's size */
  PetscCall(MbShapeGetBox(s, lo, hi));
  for (int d = 0; d < 3; d++) o[d] = 0.5 * (lo[d] + hi[d]);
  for (PetscInt i = 0; i < s->n; i++) {
    PetscReal v = 0, a[3] = {0, 0, 0}, b[9] = {0};
    PrimMoments(&s->prim[i], o, &v, a, b);
    PetscCheck(v > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "primitive %" PetscInt_FMT " of the shape has volume %g <= 0 (faces not closed or not ordered counter-clockwise from outside)", i, (double)v);
    vol += v;
    for (int k = 0; k < 3; k++) m1[k] += a[k];
    for (int k = 0; k < 9; k++) m2[k] += b[k];
  }
  PetscReal size = 0;
  for (int d = 0; d < 3; d++) size = PetscMax(size, hi[d] - lo[d]);
  PetscCheck(vol > 1e-12 * size * size * size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "shape has no volume: %g", (double)vol);
  mp->volume = vol;
  mp->mass   = rho * vol;
  for (int i = 0; i < 3; i++) mp->center[i] = o[i] + m1[i] / vol;
  /* E₀ about the mass centre: ∫(x−x̄)⊗(x−x̄) = ∫x⊗x − V x̄⊗x̄ with x relative to o */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) mp->euler[3 * i + j] = rho * (m2[3 * i + j] - m1[i] * m1[j] / vol);
  PetscReal tr = MbM3Trace(mp->euler);
  for (int k = 0; k < 9; k++) mp->inertia[k] = -mp->euler[k];
  for (int i = 0; i < 3; i++) mp->inertia[4 * i] += tr;
  PetscFunctionReturn(PETSC_SUCCESS);
}
