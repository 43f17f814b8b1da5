/* The box of Solfec-1.0's ROUGH_HEX (its lng.c behaviour): a hexahedron that encloses a shape
   of convex pieces, with edges along the principal axes of the shape's Euler tensor
   E₀ = ∫(X−X̄)⊗(X−X̄) dV (seed 003, eq. E0) — the axes of inertia — ordered by ascending
   eigenvalue (LAPACK's order in Solfec), and faces at the least and greatest projections of
   the vertices on the axes widened by a margin. Solfec leaves the signs of the axes to
   LAPACK; here each axis points so that its largest component is positive, and the second
   axis turns over when the three make a left-handed frame (what Solfec's reordering of the
   bottom nodes amounts to), so the box's nodes are in HEX's order. */
#include <moreau/mbmath.h>
#include "shapeimpl.h"

PetscErrorCode MbShapeRoughHexBox(MbShape s, PetscReal margin, PetscReal nodes[24])
{
  MbMassProps mp;
  PetscReal   lambda[3], V[9], ax[3][3], lo[3] = {PETSC_MAX_REAL, PETSC_MAX_REAL, PETSC_MAX_REAL}, hi[3] = {PETSC_MIN_REAL, PETSC_MIN_REAL, PETSC_MIN_REAL};
  PetscInt    order[3] = {0, 1, 2};

  PetscFunctionBegin;
  PetscCheck(margin >= 0 && PetscIsNormalReal(margin + 1), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "margin must be a finite number >= 0, got %g", (double)margin);
  for (PetscInt i = 0; i < s->n; i++)
    PetscCheck(s->prim[i].kind == MB_PRIM_CONVEX, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "primitive %" PetscInt_FMT " of the shape is a %s, not a convex polyhedron", i, s->prim[i].kind == MB_PRIM_SPHERE ? "sphere" : "ellipsoid");
  PetscCall(MbShapeMassProps(s, 1.0, &mp));
  MbM3SymEigen(mp.euler, lambda, V);
  for (int a = 0; a < 2; a++) /* ascending eigenvalues, a stable sort of three */
    for (int b = 0; b < 2 - a; b++)
      if (lambda[order[b + 1]] < lambda[order[b]]) {
        PetscInt t   = order[b];
        order[b]     = order[b + 1];
        order[b + 1] = t;
      }
  for (int a = 0; a < 3; a++) {
    int big = 0;
    for (int d = 0; d < 3; d++) ax[a][d] = V[3 * d + order[a]];
    for (int d = 1; d < 3; d++)
      if (PetscAbsReal(ax[a][d]) > PetscAbsReal(ax[a][big]) + 1e-12) big = d;
    if (ax[a][big] < 0)
      for (int d = 0; d < 3; d++) ax[a][d] = -ax[a][d];
  }
  PetscReal c[3];
  MbV3Cross(ax[0], ax[1], c);
  if (MbV3Dot(c, ax[2]) < 0)
    for (int d = 0; d < 3; d++) ax[1][d] = -ax[1][d];
  for (PetscInt i = 0; i < s->n; i++) {
    const MbPrim *p = &s->prim[i];
    for (PetscInt v = 0; v < p->nv; v++)
      for (int a = 0; a < 3; a++) {
        PetscReal t = MbV3Dot(ax[a], &p->v[3 * v]);
        lo[a]       = PetscMin(lo[a], t);
        hi[a]       = PetscMax(hi[a], t);
      }
  }
  for (int a = 0; a < 3; a++) {
    lo[a] -= margin;
    hi[a] += margin;
  }
  /* HEX's order: the bottom (lo along the third axis) counter-clockwise about it, then the top */
  for (int n = 0; n < 8; n++) {
    PetscReal q[3] = {(n == 1 || n == 2 || n == 5 || n == 6) ? hi[0] : lo[0], (n % 4 >= 2) ? hi[1] : lo[1], n >= 4 ? hi[2] : lo[2]};
    for (int d = 0; d < 3; d++) nodes[3 * n + d] = q[0] * ax[0][d] + q[1] * ax[1][d] + q[2] * ax[2][d];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
