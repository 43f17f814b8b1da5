/* moreau — contact geometry (ARCHITECTURE.md, contact/): the broad phase finds pairs of
   overlapping axis-aligned boxes, the narrow phase turns a pair of primitives in their
   current (spatial) placement into up to four contact points with a normal and a gap.
   Pure geometry: no bodies, no MPI; the domain feeds it and keeps what it returns. */
#ifndef MOREAU_MBGEOM_H
#define MOREAU_MBGEOM_H

#include <moreau/mbshape.h>

/** An axis-aligned box. */
typedef struct {
  PetscReal lo[3], hi[3];
} MbBox;

/** A primitive in its spatial placement. Spheres use c, r, surfid; convex polyhedra use
    v (3·nv spatial vertices) and the face loops fptr/fvert (counter-clockwise seen from
    outside) with one surface id per face fsurf; ellipsoids use c, surfid and v, 12 reals: the
    rotation whose columns are the principal axes (9, row-major), then the semi-axes (3) — set
    them with MbGeomEllipsoidSet (kept behind v, so that the struct stays small for the
    millions of spheres). Pointers are borrowed from the caller. */
typedef struct {
  MbPrimKind       kind;
  PetscReal        c[3], r;
  PetscInt         surfid;
  PetscInt         nv, nf;
  const PetscReal *v;
  const PetscInt  *fptr, *fvert, *fsurf;
} MbGeomPrim;

/** Make g the ellipsoid with centre x[0..3) and the ends of its semi-axes x[3..12) (what
    MbBodyPrimToSpatial gives for an ellipsoid), surface id surfid; its principal form goes
    to buf (12 reals, the caller's, which g->v then borrows). Not collective. */
PETSC_EXTERN void MbGeomEllipsoidSet(MbGeomPrim *g, const PetscReal x[12], PetscInt surfid, PetscReal buf[12]);

/** One contact point between primitives a and b. */
typedef struct {
  PetscReal point[3];  /* spatial point, midway between the two surfaces */
  PetscReal normal[3]; /* unit normal pointing from a towards b */
  PetscReal gap;       /* signed distance along normal; < 0 means penetration */
  PetscInt  surf[2];   /* surface ids of a and b at the point */
  PetscInt  feature;   /* identifies the point within the pair, stable while the touching
                          features stay the same (used to match contacts between steps) */
  PetscReal area;      /* the pair's contact area, the same at each of its points (what
                          CONTACT_SPARSIFY compares): of the clipped face polygon for a face
                          contact of convexes, 0 for an edge contact, 1 for a sphere or an
                          ellipsoid (Solfec-1.0's goc.c behaviour) */
} MbContactPoint;

#define MB_MAX_CONTACT_POINTS 4

/** Pairs (i, j), i < j, of boxes that overlap (touching counts), n boxes. *pairs is
    2·(*npairs) indices allocated with PetscMalloc (free with PetscFree), sorted by (i, j).
    filter (may be NULL) drops a candidate pair when it returns PETSC_FALSE. Expected cost
    O(n log n + pairs) for boxes of similar size; a few very large boxes (ground, walls)
    do not degrade it. Not collective. */
PETSC_EXTERN PetscErrorCode MbBroadPhase(PetscInt n, const MbBox boxes[], PetscBool (*filter)(void *ctx, PetscInt i, PetscInt j), void *ctx, PetscInt *npairs, PetscInt **pairs);

/** Contact points between a and b whose gap is below margin (margin >= 0): sphere–sphere
    and sphere–convex in closed form, convex–convex by separating axes with face clipping
    (up to four points for face–face contact, spread over the contact area), one point for
    an ellipsoid with anything (src/contact/ellipsoid.c). eps is the
    geometric tolerance (GEOMETRIC_EPSILON) for parallel faces and degenerate cases.
    *n in [0, MB_MAX_CONTACT_POINTS]. Not collective. */
PETSC_EXTERN PetscErrorCode MbCollide(const MbGeomPrim *a, const MbGeomPrim *b, PetscReal margin, PetscReal eps, PetscInt *n, MbContactPoint pts[MB_MAX_CONTACT_POINTS]);

/** Axis-aligned box of a primitive enlarged by margin on every side. */
PETSC_EXTERN PetscErrorCode MbGeomPrimBox(const MbGeomPrim *p, PetscReal margin, MbBox *box);

/** hit[k] = whether shapes[k] overlaps the obstacles: one of its pieces and one of the
    obstacles' are in contact (MbCollide, tolerance eps) with a gap <= gap, gap <= 0
    (Solfec-1.0's OVERLAPPING). Not collective. */
PETSC_EXTERN PetscErrorCode MbShapesOverlapping(MbShape obstacles, PetscInt n, const MbShape shapes[], PetscReal gap, PetscReal eps, PetscBool hit[]);
/** The connected components of the pieces of shape s: pieces that touch (MbCollide finds a
    contact within eps) are joined; comp[i] (n = the number of pieces) is piece i's component,
    numbered 0 .. *ncomp − 1 in the order of their first pieces (Solfec-1.0's SHAPE_Separate
    of a split CONVEX list). Not collective. */
PETSC_EXTERN PetscErrorCode MbShapeComponents(MbShape s, PetscReal eps, PetscInt *ncomp, PetscInt comp[]);

#endif
