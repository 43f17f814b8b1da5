/* Private layout of MbShape. */
#ifndef MOREAU_SHAPEIMPL_H
#define MOREAU_SHAPEIMPL_H

#include <moreau/mbshape.h>

typedef struct {
  MbPrimKind kind;   /* sphere, convex or ellipsoid */
  PetscInt   volid;  /* volume id (material lookup) */
  PetscInt   surfid; /* sphere, ellipsoid: surface id */
  PetscReal  c[3];   /* sphere, ellipsoid: centre */
  PetscReal  r;      /* sphere: radius */
  PetscReal  e[9];   /* ellipsoid: the ends of its semi-axes, point k at e[3k] (c + L e_k) */
  PetscInt   nv;     /* convex: number of vertices */
  PetscInt   nf;     /* convex: number of faces */
  PetscReal *v;      /* convex: vertices, 3*nv */
  PetscInt  *fptr;   /* convex: face offsets into fvert, nf+1 */
  PetscInt  *fvert;  /* convex: face vertex loops, counter-clockwise from outside */
  PetscInt  *fsurf;  /* convex: surface id per face */
} MbPrim;

/* The nodes of a shape made of finite elements (MESH, HEX): primitive i is element i,
   whose nodes are enode[eptr[i] .. eptr[i+1]) (Solfec's orders, element.c). */
typedef struct {
  PetscInt   nn, ne;
  PetscBool  embed; /* the mesh carries the shape's deformation, its elements are not the primitives (MbShapeSetEmbeddingMesh) */
  PetscReal *X;     /* 3·nn */
  PetscInt  *eptr;  /* ne + 1 */
  PetscInt  *enode; /* eptr[ne] */
} MbMesh;

struct _p_MbShape {
  PetscInt n;    /* number of primitives */
  PetscInt cap;  /* allocated primitives */
  MbPrim  *prim; /* the primitives */
  MbMesh  *mesh; /* the element nodes when the whole shape is one mesh, else NULL */
};

/* Room for one more primitive in s, returned zeroed. */
PETSC_INTERN PetscErrorCode MbShapePush(MbShape s, MbPrim **p);
/* Append an ellipsoid given by its centre and the ends of its semi-axes, x = 12 reals. */
PETSC_INTERN PetscErrorCode MbShapeAddEllipsoidPoints(MbShape s, const PetscReal x[12], PetscInt volid, PetscInt surfid);
/* adjacent.c: whether primitives i and j of shape s are neighbours, which make no
   self-contact: elements of its mesh that share a node, or (without a mesh) convex pieces
   with a vertex within eps of each other; a primitive is its own neighbour. */
PETSC_INTERN PetscBool MbShapePrimsAdjacent(MbShape s, PetscInt i, PetscInt j, PetscReal eps);

#endif
