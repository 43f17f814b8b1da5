/* Private to contact/: the pieces of the narrow phase (MbCollide) and what they share. */
#ifndef MOREAU_CONTACTIMPL_H
#define MOREAU_CONTACTIMPL_H

#include <moreau/mbgeom.h>
#include <moreau/mbmath.h>

/* A convex primitive with what the queries need besides its vertices and face loops. */
typedef struct {
  const MbGeomPrim *g;    /* the primitive (borrowed) */
  PetscReal        *n;    /* unit outward face normals, 3·nf */
  PetscReal        *d;    /* face planes n_f·x = d_f, nf */
  PetscInt          ne;   /* number of edges (0 when not asked for) */
  PetscInt         *edge; /* 4·ne: vertices v0 < v1, the face whose loop runs v0→v1, the face whose loop runs v1→v0 */
  PetscReal         c[3]; /* mean of the vertices: an interior point */
  PetscReal         size; /* diagonal of the bounding box: the length scale of tolerances */
} MbPoly;

/* Face normals, planes, centre and size of a convex primitive; its edges with their two
   faces when edges is true. Errors on a face of zero area or an open surface. */
PETSC_INTERN PetscErrorCode MbPolySetUp(const MbGeomPrim *g, PetscBool edges, MbPoly *P);
PETSC_INTERN PetscErrorCode MbPolyDestroy(MbPoly *P);
/* Surface id of face f (0 when the primitive has no fsurf). */
static inline PetscInt MbPolyFaceSurf(const MbGeomPrim *g, PetscInt f) { return g->fsurf ? g->fsurf[f] : 0; }

/* A vertex of a polygon being clipped: the polygon runs along edge ein into it and leaves
   along eout. Edge labels name the line an edge lies on (an edge of the incident face or a
   side of the reference face), so (ein, eout) names the vertex by the features that make
   it, whatever the exact coordinates. */
typedef struct {
  PetscReal x[3];
  PetscInt  ein, eout;
} MbClipVertex;

/* Sutherland–Hodgman clipping of the convex polygon poly[0..npoly) to the prism over the
   face loop ref (nref vertices xyz, counter-clockwise about its outward normal nrm): one
   half-space per side, side k labelled label0 + k; a vertex within tol outside a side
   counts as inside. *out
   (allocated, npoly + nref entries) holds the *nout vertices left. */
PETSC_INTERN PetscErrorCode MbClipPolygonToFace(PetscInt npoly, const MbClipVertex poly[], PetscInt nref, const PetscReal ref[], const PetscReal nrm[3], PetscInt label0, PetscReal tol, PetscInt *nout, MbClipVertex **out);

/* At most four of the m points x (3·m) that span the contact area: the deepest (least
   depth), the farthest from it, the one making the largest triangle with those, and the
   one adding the most area outside that triangle (areas about nrm). keep[] in increasing
   order; returns how many. */
PETSC_INTERN PetscInt MbContactReduce(PetscInt m, const PetscReal x[], const PetscReal depth[], const PetscReal nrm[3], PetscInt keep[MB_MAX_CONTACT_POINTS]);

/* A feature id from the indices of the features that make a point (each in [0, base)):
   the mixed-radix number of the indices, folded into PetscInt's range when too long. */
PETSC_INTERN PetscInt MbContactFeatureId(PetscInt nidx, const PetscInt idx[], PetscInt base);

/* The narrow-phase pairs; the arguments and the result are MbCollide's. */
PETSC_INTERN PetscErrorCode MbCollideSphereSphere(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscReal eps, PetscInt *n, MbContactPoint pts[]);
PETSC_INTERN PetscErrorCode MbCollideSphereConvex(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscReal eps, PetscInt *n, MbContactPoint pts[]);
/* An ellipsoid with a sphere, a convex or an ellipsoid (ellipsoid.c). */
PETSC_INTERN PetscErrorCode MbCollideEllipsoid(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscReal eps, PetscInt *n, MbContactPoint pts[]);
PETSC_INTERN PetscErrorCode MbCollideConvexConvex(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscReal eps, PetscInt *n, MbContactPoint pts[]);

#endif
