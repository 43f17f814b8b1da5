/* The element library of finite-element bodies: TET4 (one point: F is constant), PYR5 (a
   hexahedron with its top face collapsed onto the apex, 2×2×2 Gauss points), WEDGE6 (a
   triangle times a segment, 3×2 points) and HEX8 (trilinear, 2×2×2 Gauss points). Each
   rule integrates the mass and the volume exactly and the SVK force to the order the
   element's strain is accurate to. */
#include <moreau/mbmath.h>
#include "fem.h"

#define G3 0.57735026918962576451 /* 1/√3 */

static const PetscReal HexNode[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}};

static const PetscReal Gauss8[24] = {-G3, -G3, -G3, G3, -G3, -G3, G3, G3, -G3, -G3, G3, -G3, -G3, -G3, G3, G3, -G3, G3, G3, G3, G3, -G3, G3, G3};
static const PetscReal Ones8[8]   = {1, 1, 1, 1, 1, 1, 1, 1};
static const PetscReal Zero3[3]   = {0, 0, 0};

/* B = A⁻¹ by cofactors, for det A ≠ 0 (no error path: the callers test det first) */
static void Inv3(const PetscReal A[9], PetscReal det, PetscReal B[9])
{
  PetscReal id = 1 / det;
  B[0]         = (A[4] * A[8] - A[5] * A[7]) * id;
  B[1]         = (A[2] * A[7] - A[1] * A[8]) * id;
  B[2]         = (A[1] * A[5] - A[2] * A[4]) * id;
  B[3]         = (A[5] * A[6] - A[3] * A[8]) * id;
  B[4]         = (A[0] * A[8] - A[2] * A[6]) * id;
  B[5]         = (A[2] * A[3] - A[0] * A[5]) * id;
  B[6]         = (A[3] * A[7] - A[4] * A[6]) * id;
  B[7]         = (A[1] * A[6] - A[0] * A[7]) * id;
  B[8]         = (A[0] * A[4] - A[1] * A[3]) * id;
}

static void HexShape(const PetscReal x[3], PetscReal N[], PetscReal dN[])
{
  for (int a = 0; a < 8; a++) {
    const PetscReal *n = HexNode[a];
    PetscReal        s = 1 + n[0] * x[0], t = 1 + n[1] * x[1], r = 1 + n[2] * x[2];
    N[a]          = 0.125 * s * t * r;
    dN[3 * a + 0] = 0.125 * n[0] * t * r;
    dN[3 * a + 1] = 0.125 * s * n[1] * r;
    dN[3 * a + 2] = 0.125 * s * t * n[2];
  }
}

/* the pyramid as a hexahedron whose top nodes 4..7 are one (the apex) */
static void PyrShape(const PetscReal x[3], PetscReal N[], PetscReal dN[])
{
  PetscReal Nh[8], dNh[24];
  HexShape(x, Nh, dNh);
  for (int a = 0; a < 4; a++) {
    N[a] = Nh[a];
    for (int d = 0; d < 3; d++) dN[3 * a + d] = dNh[3 * a + d];
  }
  N[4]   = 0.5 * (1 + x[2]);
  dN[12] = dN[13] = 0;
  dN[14]          = 0.5;
}

static void TetShape(const PetscReal x[3], PetscReal N[], PetscReal dN[])
{
  static const PetscReal d[12] = {-1, -1, -1, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  N[0]                         = 1 - x[0] - x[1] - x[2];
  N[1]                         = x[0];
  N[2]                         = x[1];
  N[3]                         = x[2];
  for (int k = 0; k < 12; k++) dN[k] = d[k];
}

/* triangle coordinates (1 − ξ − η, ξ, η) times (1 ∓ ζ)/2 */
static void WedShape(const PetscReal x[3], PetscReal N[], PetscReal dN[])
{
  const PetscReal L[3] = {1 - x[0] - x[1], x[0], x[1]}, dL[3][2] = {{-1, -1}, {1, 0}, {0, 1}};
  for (int a = 0; a < 6; a++) {
    int       i = a % 3;
    PetscReal z = a < 3 ? 0.5 * (1 - x[2]) : 0.5 * (1 + x[2]), dz = a < 3 ? -0.5 : 0.5;
    N[a]          = L[i] * z;
    dN[3 * a + 0] = dL[i][0] * z;
    dN[3 * a + 1] = dL[i][1] * z;
    dN[3 * a + 2] = L[i] * dz;
  }
}

static const PetscReal TetQp[3]     = {0.25, 0.25, 0.25};
static const PetscReal TetQw[1]     = {1.0 / 6};
static const PetscReal TetCentre[3] = {0.25, 0.25, 0.25};
static const PetscReal WedQp[18]    = {1.0 / 6, 1.0 / 6, -G3, 2.0 / 3, 1.0 / 6, -G3, 1.0 / 6, 2.0 / 3, -G3, 1.0 / 6, 1.0 / 6, G3, 2.0 / 3, 1.0 / 6, G3, 1.0 / 6, 2.0 / 3, G3};
static const PetscReal WedQw[6]     = {1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6};
static const PetscReal WedCentre[3] = {1.0 / 3, 1.0 / 3, 0};
static const PetscReal PyrCentre[3] = {0, 0, -0.5};

static const MbFemElement Tet4   = {"TET4", 4, 1, TetQp, TetQw, TetShape, TetCentre};
static const MbFemElement Pyr5   = {"PYR5", 5, 8, Gauss8, Ones8, PyrShape, PyrCentre};
static const MbFemElement Wedge6 = {"WEDGE6", 6, 6, WedQp, WedQw, WedShape, WedCentre};
static const MbFemElement Hex8   = {"HEX8", 8, 8, Gauss8, Ones8, HexShape, Zero3};

const MbFemElement *MbFemElementOfSize(PetscInt nen)
{
  switch (nen) {
  case 4:
    return &Tet4;
  case 5:
    return &Pyr5;
  case 6:
    return &Wedge6;
  case 8:
    return &Hex8;
  default:
    return NULL;
  }
}

void MbFemGradients(const MbFemElement *e, const PetscReal X[], const PetscReal dN[], PetscReal G[], PetscReal *detJ)
{
  PetscReal J[9] = {0}, Ji[9];
  /* J = ∂X/∂ξ = Σ X_a ⊗ ∂N_a/∂ξ; G_a = J⁻ᵀ ∂N_a/∂ξ */
  for (PetscInt a = 0; a < e->nen; a++)
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) J[3 * i + j] += X[3 * a + i] * dN[3 * a + j];
  *detJ = MbM3Det(J);
  if (*detJ == 0) {
    for (PetscInt k = 0; k < 3 * e->nen; k++) G[k] = 0;
    return;
  }
  Inv3(J, *detJ, Ji);
  for (PetscInt a = 0; a < e->nen; a++)
    for (int i = 0; i < 3; i++) G[3 * a + i] = Ji[i] * dN[3 * a] + Ji[3 + i] * dN[3 * a + 1] + Ji[6 + i] * dN[3 * a + 2];
}

PetscBool MbFemInside(const MbFemElement *e, const PetscReal x[3], PetscReal tol)
{
  switch (e->nen) {
  case 4:
    return x[0] >= -tol && x[1] >= -tol && x[2] >= -tol && x[0] + x[1] + x[2] <= 1 + tol;
  case 6:
    return x[0] >= -tol && x[1] >= -tol && x[0] + x[1] <= 1 + tol && PetscAbsReal(x[2]) <= 1 + tol;
  default: /* hexahedron, and the pyramid's collapsed cube */
    return PetscAbsReal(x[0]) <= 1 + tol && PetscAbsReal(x[1]) <= 1 + tol && PetscAbsReal(x[2]) <= 1 + tol;
  }
}

PetscReal MbFemOutside(const MbFemElement *e, const PetscReal x[3])
{
  PetscReal o = 0;
  switch (e->nen) {
  case 4:
    o = PetscMax(PetscMax(-x[0], -x[1]), PetscMax(-x[2], x[0] + x[1] + x[2] - 1));
    break;
  case 6:
    o = PetscMax(PetscMax(-x[0], -x[1]), PetscMax(x[0] + x[1] - 1, PetscAbsReal(x[2]) - 1));
    break;
  default:
    o = PetscMax(PetscMax(PetscAbsReal(x[0]), PetscAbsReal(x[1])), PetscAbsReal(x[2])) - 1;
  }
  return PetscMax(o, 0);
}

PetscBool MbFemInvert(const MbFemElement *e, const PetscReal x[], const PetscReal p[3], PetscReal xi[3])
{
  /* in coordinates relative to the first node: the residual's rounding is then a fraction of
     the element's size, not of its distance from the origin (a node of an element at y = 47
     was otherwise never met to 1e-13 of a 0.1 element, and the point refused) */
  PetscReal N[MB_FEM_MAX_NEN], dN[3 * MB_FEM_MAX_NEN], scale = 0, y[3 * MB_FEM_MAX_NEN], py[3];
  for (PetscInt a = 0; a < e->nen; a++)
    for (int d = 0; d < 3; d++) y[3 * a + d] = x[3 * a + d] - x[d], scale = PetscMax(scale, PetscAbsReal(y[3 * a + d]));
  for (int d = 0; d < 3; d++) py[d] = p[d] - x[d], xi[d] = e->centre[d];
  for (int it = 0; it < 30; it++) {
    PetscReal r[3], J[9] = {0}, Ji[9], dx[3], det;
    e->shape(xi, N, dN);
    for (int d = 0; d < 3; d++) r[d] = -py[d];
    for (PetscInt a = 0; a < e->nen; a++)
      for (int i = 0; i < 3; i++) {
        r[i] += N[a] * y[3 * a + i];
        for (int j = 0; j < 3; j++) J[3 * i + j] += y[3 * a + i] * dN[3 * a + j];
      }
    if (MbV3Norm(r) <= 1e-13 * scale) return PETSC_TRUE;
    det = MbM3Det(J);
    if (det == 0) return PETSC_FALSE;
    Inv3(J, det, Ji);
    MbM3Mult(Ji, r, dx);
    for (int d = 0; d < 3; d++) xi[d] -= dx[d];
    if (PetscAbsReal(xi[0]) + PetscAbsReal(xi[1]) + PetscAbsReal(xi[2]) > 1e3) return PETSC_FALSE;
  }
  return PETSC_FALSE;
}
