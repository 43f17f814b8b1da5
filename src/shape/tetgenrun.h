/* The C view of TetGen (Debian's libtet, C++): one call that tetrahedralizes a piecewise
   linear complex (PLC) given as arrays or read from a TetGen input file. Implemented by
   tetgen.cc when moreau is built with TetGen, else by tetgen_none.c (which only errors). No
   PETSc here: tetgen.cc is C++ and keeps to plain C types. */
#ifndef MOREAU_SHAPE_TETGENRUN_H
#define MOREAU_SHAPE_TETGENRUN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The input: either a file (path != NULL: .poly, .smesh, .off, .ply, .stl, .mesh, .vtk, as
   TetGen reads them) or arrays: npoints points (xyz), nfacets polygons, facet f with the
   vertices fvert[fptr[f] .. fptr[f+1]); the facets get TetGen markers f+1, so a boundary
   triangle's marker names the facet it lies on. nregions seeds (x, y, z, attribute). */
typedef struct {
  const char   *path;
  int           npoints;
  const double *points;
  int           nfacets;
  const int    *fptr, *fvert;
  int           nregions;
  const double *regions;
} MbTetgenPLC;

/* The output, malloc'ed (MbTetgenMeshFree): 0-based points, tetrahedra (4 each), the
   first tetrahedron attribute (the region's; NULL without regions), the triangles on the
   facets (3 each) and their markers (NULL when a file gave none). */
typedef struct {
  int     npoints, ntets, ntris;
  double *points, *tetattr;
  int    *tets, *tris, *trimarker;
} MbTetgenMesh;

/* Whether this build has TetGen. */
int MbTetgenAvailable(void);
/* Check that the PLC's polygons close a volume, then run TetGen with the switches;
   0 on success, else non-zero with a message in err. */
int  MbTetgenRun(const MbTetgenPLC *plc, const char *switches, MbTetgenMesh *out, char *err, size_t errlen);
void MbTetgenMeshFree(MbTetgenMesh *mesh);

#ifdef __cplusplus
}
#endif
#endif
