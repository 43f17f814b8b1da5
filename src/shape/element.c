/* One finite element of a Solfec MESH as a convex piece of a compound shape. Node
   orderings are Solfec-1.0's: the base (bottom) counter-clockwise seen from above, then
   the apex (tetrahedron, pyramid) or the top nodes above the bottom ones (wedge,
   hexahedron). Faces are listed base first, then top, then the sides (i, i+1, ...), which
   for the hexahedron is MbShapeAddHex's order. Each face is then oriented outward by its
   own normal against the element's centroid, so that an element whose nodes were given
   the other way round (clockwise base) still gets a positive volume. */
#include <moreau/mbmath.h>
#include "shapeimpl.h"

typedef struct {
  const char *name;         /* element name, for messages */
  PetscInt    nf;           /* number of faces */
  PetscInt    fptr[7];      /* face offsets into fv */
  PetscInt    fv[24];       /* faces, counter-clockwise from outside for the standard ordering */
  PetscInt    ncorner;      /* corners where three edges meet */
  PetscInt    corner[8][4]; /* a corner and its three neighbours along the edges, right-handed for the standard ordering */
} ElementTopo;

static const ElementTopo Tet = {"tetrahedron", 4, {0, 3, 6, 9, 12}, {0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3}, 1, {{0, 1, 2, 3}}};
static const ElementTopo Pyr = {"pyramid", 5, {0, 4, 7, 10, 13, 16}, {0, 3, 2, 1, 0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4}, 4, {{0, 1, 3, 4}, {1, 2, 0, 4}, {2, 3, 1, 4}, {3, 0, 2, 4}}};
static const ElementTopo Wed = {"wedge", 5, {0, 3, 6, 10, 14, 18}, {0, 2, 1, 3, 4, 5, 0, 1, 4, 3, 1, 2, 5, 4, 2, 0, 3, 5}, 6, {{0, 1, 2, 3}, {1, 2, 0, 4}, {2, 0, 1, 5}, {3, 5, 4, 0}, {4, 3, 5, 1}, {5, 4, 3, 2}}};
static const ElementTopo Hex = {
    "hexahedron", 6, {0, 4, 8, 12, 16, 20, 24}, {0, 3, 2, 1, 4, 5, 6, 7, 0, 1, 5, 4, 1, 2, 6, 5, 2, 3, 7, 6, 3, 0, 4, 7}, 8, {{0, 1, 3, 4}, {1, 2, 0, 5}, {2, 3, 1, 6}, {3, 0, 2, 7}, {4, 7, 5, 0}, {5, 4, 6, 1}, {6, 5, 7, 2}, {7, 6, 4, 3}}};

/* Newell's normal of a polygon (twice its vector area; exact for planar polygons and the
   natural average for a warped quadrilateral). */
static void FaceNormal(const PetscReal x[], const PetscInt *f, PetscInt n, PetscReal nrm[3])
{
  nrm[0] = nrm[1] = nrm[2] = 0;
  for (PetscInt k = 0; k < n; k++) {
    const PetscReal *a = &x[3 * f[k]], *b = &x[3 * f[(k + 1) % n]];
    nrm[0] += (a[1] - b[1]) * (a[2] + b[2]);
    nrm[1] += (a[2] - b[2]) * (a[0] + b[0]);
    nrm[2] += (a[0] - b[0]) * (a[1] + b[1]);
  }
}

PetscErrorCode MbShapeAddElement(MbShape s, PetscInt type, const PetscReal nodes[], const PetscInt surfids[], PetscInt volid)
{
  const ElementTopo *T;
  PetscInt           fv[24], fs[6];
  PetscReal          c[3] = {0, 0, 0}, lo[3], hi[3], size = 0, vol = 0;
  PetscFunctionBegin;
  switch (type) {
  case 4:
    T = &Tet;
    break;
  case 5:
    T = &Pyr;
    break;
  case 6:
    T = &Wed;
    break;
  case 8:
    T = &Hex;
    break;
  default:
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "MESH element type %" PetscInt_FMT " is not supported: the number of nodes must be 4 (tetrahedron), 5 (pyramid), 6 (wedge) or 8 (hexahedron)", type);
  }
  for (PetscInt k = 0; k < 3 * type; k++) PetscCheck(isfinite(nodes[k]), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "MESH %s: coordinate %" PetscInt_FMT " of node %" PetscInt_FMT " is not finite: %g", T->name, k % 3, k / 3, (double)nodes[k]);
  for (int d = 0; d < 3; d++) {
    lo[d] = PETSC_MAX_REAL;
    hi[d] = -PETSC_MAX_REAL;
  }
  for (PetscInt i = 0; i < type; i++)
    for (int d = 0; d < 3; d++) {
      c[d] += nodes[3 * i + d] / type;
      lo[d] = PetscMin(lo[d], nodes[3 * i + d]);
      hi[d] = PetscMax(hi[d], nodes[3 * i + d]);
    }
  for (int d = 0; d < 3; d++) size = PetscMax(size, hi[d] - lo[d]);
  PetscCall(PetscArraycpy(fv, T->fv, T->fptr[T->nf]));
  for (PetscInt f = 0; f < T->nf; f++) {
    PetscInt *F = &fv[T->fptr[f]], n = T->fptr[f + 1] - T->fptr[f];
    PetscReal nrm[3], fc[3]          = {0, 0, 0}, d[3];
    FaceNormal(nodes, F, n, nrm);
    for (PetscInt k = 0; k < n; k++) MbV3Axpy(1.0 / n, &nodes[3 * F[k]], fc, fc);
    MbV3Sub(fc, c, d);
    if (MbV3Dot(nrm, d) < 0) /* inward: reverse the loop */
      for (PetscInt k = 0; k < n / 2; k++) {
        PetscInt t   = F[k];
        F[k]         = F[n - 1 - k];
        F[n - 1 - k] = t;
      }
    /* divergence theorem about the centroid: V = Σ ⅓ (fc − c)·A_f, A_f = ½ Newell normal;
       exact for planar faces */
    FaceNormal(nodes, F, n, nrm);
    vol += MbV3Dot(d, nrm) / 6.0;
    fs[f] = surfids ? surfids[f] : 0;
  }
  PetscCheck(vol > 1e-12 * size * size * size, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "MESH %s (%" PetscInt_FMT " nodes) has zero volume: %g (nodes coincide or lie in one plane)", T->name, type, (double)vol);
  {                              /* an element that is not twisted has the same orientation at every corner (the
                                    Jacobian of its map there: the triple product of its three edges); both signs mean
                                    a face folded over itself, e.g. a hexahedron with two nodes swapped (a bow-tie face) */
    PetscInt npos = 0, nneg = 0; /* a corner of zero Jacobian (a collapsed edge: a hexahedron used as a wedge) counts neither way */
    for (PetscInt k = 0; k < T->ncorner; k++) {
      const PetscInt *q = T->corner[k];
      PetscReal       e[3][3], cr[3], det;
      for (int j = 0; j < 3; j++) MbV3Sub(&nodes[3 * q[j + 1]], &nodes[3 * q[0]], e[j]);
      MbV3Cross(e[1], e[2], cr);
      det = MbV3Dot(e[0], cr);
      if (det > 1e-12 * size * size * size) npos++;
      if (det < -1e-12 * size * size * size) nneg++;
    }
    PetscCheck(!(npos && nneg), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "MESH %s (%" PetscInt_FMT " nodes) is twisted: its corners turn %" PetscInt_FMT " one way and %" PetscInt_FMT " the other (two nodes swapped? a face folded over itself)",
               T->name, type, npos, nneg);
  }
  PetscCall(MbShapeAddConvex(s, type, nodes, T->nf, T->fptr, fv, fs, volid));
  PetscFunctionReturn(PETSC_SUCCESS);
}
