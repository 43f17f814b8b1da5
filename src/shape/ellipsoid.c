/* Ellipsoids (Solfec-1.0's ELLIP): {c + L u : |u| ≤ 1}. A primitive keeps its centre and the
   ends of its three semi-axes, c + L e_k, as points, so that any affine map x ↦ A x + b moves
   it exactly (L ↦ A L): TRANSLATE, ROTATE, SCALE, a rigid motion and a pseudo-rigid one
   (Solfec-1.0's eli.c keeps the same four points). L need not have orthogonal columns (a
   non-uniform SCALE of a turned ellipsoid); its principal form comes from L Lᵀ. */
#include <math.h>
#include <moreau/mbmath.h>
#include "shapeimpl.h"

PetscErrorCode MbShapeAddEllipsoid(MbShape s, const PetscReal c[3], const PetscReal radii[3], PetscInt volid, PetscInt surfid)
{
  PetscReal x[12];
  PetscFunctionBegin;
  for (int k = 0; k < 3; k++) PetscCheck(radii[k] > 0 && PetscIsNormalReal(radii[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ellipsoid radii must be > 0, got (%g, %g, %g)", (double)radii[0], (double)radii[1], (double)radii[2]);
  for (int k = 0; k < 3; k++) PetscCheck(isfinite(c[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ellipsoid centre must be finite, got (%g, %g, %g)", (double)c[0], (double)c[1], (double)c[2]);
  for (int k = 0; k < 4; k++) MbV3Copy(c, &x[3 * k]);
  for (int k = 0; k < 3; k++) x[3 + 3 * k + k] += radii[k];
  PetscCall(MbShapeAddEllipsoidPoints(s, x, volid, surfid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbShapeAddEllipsoidPoints(MbShape s, const PetscReal x[12], PetscInt volid, PetscInt surfid)
{
  MbPrim   *p;
  PetscReal L[9], scale = 0;
  PetscFunctionBegin;
  MbEllipsoidFromPoints(x, L);
  for (int k = 0; k < 9; k++) scale = PetscMax(scale, PetscAbsReal(L[k]));
  PetscCheck(PetscAbsReal(MbM3Det(L)) > 1e-12 * scale * scale * scale && scale > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "ellipsoid has no volume: its semi-axes (%g, %g, %g), (%g, %g, %g), (%g, %g, %g) are not independent", (double)L[0],
             (double)L[3], (double)L[6], (double)L[1], (double)L[4], (double)L[7], (double)L[2], (double)L[5], (double)L[8]);
  PetscCall(MbShapePush(s, &p));
  p->kind = MB_PRIM_ELLIPSOID;
  MbV3Copy(x, p->c);
  for (int k = 0; k < 9; k++) p->e[k] = x[3 + k];
  p->volid  = volid;
  p->surfid = surfid;
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MbEllipsoidFromPoints(const PetscReal x[12], PetscReal L[9])
{
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < 3; i++) L[3 * i + k] = x[3 + 3 * k + i] - x[i];
}

void MbEllipsoidPrincipal(const PetscReal L[9], PetscReal radii[3], PetscReal rot[9])
{
  PetscReal M[9], lam[3], V[9];
  int       used[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) M[3 * i + j] = L[3 * i] * L[3 * j] + L[3 * i + 1] * L[3 * j + 1] + L[3 * i + 2] * L[3 * j + 2];
  MbM3SymEigen(M, lam, V);
  /* semi-axis k is the principal axis nearest column k of L, pointing its way: the order and
     the signs of ELLIP's radii (for orthogonal columns, the columns themselves) */
  for (int k = 0; k < 3; k++) {
    PetscReal best = -1, dot = 0;
    int       jb = 0;
    for (int j = 0; j < 3; j++) {
      PetscReal d = V[j] * L[k] + V[3 + j] * L[3 + k] + V[6 + j] * L[6 + k];
      if (!used[j] && PetscAbsReal(d) > best) best = PetscAbsReal(d), dot = d, jb = j;
    }
    used[jb] = 1;
    radii[k] = PetscSqrtReal(PetscMax(lam[jb], 0.0));
    for (int i = 0; i < 3; i++) rot[3 * i + k] = dot < 0 ? -V[3 * i + jb] : V[3 * i + jb];
  }
  if (MbM3Det(rot) < 0)
    for (int i = 0; i < 3; i++) rot[3 * i + 2] = -rot[3 * i + 2]; /* a rotation (L mirrors space) */
}

PetscErrorCode MbShapeGetEllipsoid(MbShape s, PetscInt i, PetscReal c[3], PetscReal L[9], PetscInt *surfid)
{
  const MbPrim *p;
  PetscReal     x[12];
  PetscFunctionBegin;
  PetscCheck(i >= 0 && i < s->n && s->prim[i].kind == MB_PRIM_ELLIPSOID, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "primitive %" PetscInt_FMT " is not an ellipsoid", i);
  p = &s->prim[i];
  MbV3Copy(p->c, x);
  for (int k = 0; k < 9; k++) x[3 + k] = p->e[k];
  if (c) MbV3Copy(p->c, c);
  if (L) MbEllipsoidFromPoints(x, L);
  if (surfid) *surfid = p->surfid;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The unit sphere as NLAT bands of NLON facets between the poles: triangles at the poles,
   quadrilaterals between. */
#define NLAT 6
#define NLON 12
#define NV (2 + (NLAT - 1) * NLON)
#define NF (NLAT * NLON)

void MbEllipsoidFacets(PetscInt *nv, const PetscReal **u, PetscInt *nf, const PetscInt **fptr, const PetscInt **fvert)
{
  static PetscReal U[3 * NV];
  static PetscInt  FP[NF + 1], FV[4 * NF];
  static int       made = 0;
  if (!made) {
    PetscInt f = 0, k = 0;
    MbV3Set(&U[0], 0, 0, -1);
    for (int i = 1; i < NLAT; i++)
      for (int j = 0; j < NLON; j++) {
        PetscReal th = PETSC_PI * i / NLAT, ph = 2 * PETSC_PI * j / NLON;
        MbV3Set(&U[3 * (1 + (i - 1) * NLON + j)], sin(th) * cos(ph), sin(th) * sin(ph), -cos(th));
      }
    MbV3Set(&U[3 * (NV - 1)], 0, 0, 1);
    FP[0] = 0;
    for (int i = 0; i < NLAT; i++)
      for (int j = 0; j < NLON; j++) {
        PetscInt j1 = (j + 1) % NLON, a = 1 + (i - 1) * NLON, b = 1 + i * NLON; /* rings i and i + 1 */
        if (i == 0) {                                                           /* around the south pole, counter-clockwise seen from below */
          FV[k++] = 0, FV[k++] = b + j1, FV[k++] = b + j;
        } else if (i == NLAT - 1) {
          FV[k++] = a + j, FV[k++] = a + j1, FV[k++] = NV - 1;
        } else {
          FV[k++] = a + j, FV[k++] = a + j1, FV[k++] = b + j1, FV[k++] = b + j;
        }
        FP[++f] = k;
      }
    made = 1;
  }
  *nv    = NV;
  *u     = U;
  *nf    = NF;
  *fptr  = FP;
  *fvert = FV;
}
