/* moreau — shapes: a compound of primitives (spheres, convex polyhedra and ellipsoids).
   A HEX or MESH shape becomes one convex piece per element; a rigid body with such a
   shape is a compound of convex pieces (contact needs convexity, mass needs none). */
#ifndef MOREAU_MBSHAPE_H
#define MOREAU_MBSHAPE_H

#include <moreau/mbsys.h>

typedef struct _p_MbShape *MbShape;

/** Mass properties of a shape of uniform density, in the reference configuration. */
typedef struct {
  PetscReal volume;     /* V */
  PetscReal mass;       /* m = ρV */
  PetscReal center[3];  /* mass centre X̄ */
  PetscReal euler[9];   /* Euler tensor E₀ = ∫(X−X̄)⊗(X−X̄)ρ dV (seed 003, eq. E0), row-major */
  PetscReal inertia[9]; /* J = tr(E₀) I − E₀ (seed 003) */
} MbMassProps;

typedef enum { MB_PRIM_SPHERE = 0, MB_PRIM_CONVEX = 1, MB_PRIM_ELLIPSOID = 2 } MbPrimKind;

/** Create an empty compound shape. Not collective. */
PETSC_EXTERN PetscErrorCode MbShapeCreate(MbShape *shape);
/** Destroy a shape and NULL the handle. */
PETSC_EXTERN PetscErrorCode MbShapeDestroy(MbShape *shape);
/** Deep copy. */
PETSC_EXTERN PetscErrorCode MbShapeDuplicate(MbShape shape, MbShape *copy);
/** Append a sphere; radius must be > 0. */
PETSC_EXTERN PetscErrorCode MbShapeAddSphere(MbShape shape, const PetscReal center[3], PetscReal radius, PetscInt volid, PetscInt surfid);
/** Append a convex polyhedron given by nv vertices (xyz) and nf faces; face f has vertex
    indices fvert[fptr[f]..fptr[f+1]-1], ordered counter-clockwise seen from outside, and
    surface id fsurf[f] (fsurf may be NULL: all 0). Checks that the faces close the volume. */
PETSC_EXTERN PetscErrorCode MbShapeAddConvex(MbShape shape, PetscInt nv, const PetscReal v[], PetscInt nf, const PetscInt fptr[], const PetscInt fvert[], const PetscInt fsurf[], PetscInt volid);
/** Append a hexahedron with the 8 nodes ordered as in Solfec's HEX (bottom face 0-3
    counter-clockwise seen from above, top face 4-7 above them); surfids per face in
    Solfec's order (bottom 0123, top 4567, then sides 0154, 1265, 2376, 3047). */
PETSC_EXTERN PetscErrorCode MbShapeAddHex(MbShape shape, const PetscReal nodes[24], const PetscInt surfids[6], PetscInt volid);
/** Append an ellipsoid {center + L u : |u| ≤ 1}, L = diag(radii): semi-axes along x, y, z
    (Solfec-1.0's ELLIP); radii must be > 0. It is kept as its centre and the three ends of
    its semi-axes, which move as points: any affine map (MbShapeTransform, a rigid or a
    pseudo-rigid motion) maps it exactly onto the ellipsoid L ↦ A L. */
PETSC_EXTERN PetscErrorCode MbShapeAddEllipsoid(MbShape shape, const PetscReal center[3], const PetscReal radii[3], PetscInt volid, PetscInt surfid);
/** Ellipsoid data of primitive i: centre, L (row-major; column k is semi-axis k, from the
    centre to the end of that axis) and surface id (any output may be NULL); errors when it
    is not an ellipsoid. */
PETSC_EXTERN PetscErrorCode MbShapeGetEllipsoid(MbShape shape, PetscInt i, PetscReal center[3], PetscReal L[9], PetscInt *surfid);
/** The principal form of the ellipsoid {c + L u : |u| ≤ 1}: semi-axes radii along the columns
    of the rotation rot (row-major), from L Lᵀ = rot diag(radii²) rotᵀ; semi-axis k is the one
    nearest column k of L (for orthogonal columns: radii[k] = |L e_k|, rot e_k = L e_k/|L e_k|). */
PETSC_EXTERN void MbEllipsoidPrincipal(const PetscReal L[9], PetscReal radii[3], PetscReal rot[9]);
/** L of an ellipsoid from its centre and the ends of its semi-axes, x = 12 reals (centre,
    then the three ends: what MbBodyPrimToSpatial gives for an ellipsoid). */
PETSC_EXTERN void MbEllipsoidFromPoints(const PetscReal x[12], PetscReal L[9]);
/** A faceted unit sphere for drawing an ellipsoid (x = c + L u for each point u): *nv points u
    (3·nv, borrowed), *nf faces with loops fvert[fptr[f] .. fptr[f+1]) counter-clockwise seen
    from outside. Not collective. */
PETSC_EXTERN void MbEllipsoidFacets(PetscInt *nv, const PetscReal **u, PetscInt *nf, const PetscInt **fptr, const PetscInt **fvert);
/** Append every primitive of other (copied) to shape. */
PETSC_EXTERN PetscErrorCode MbShapeAppend(MbShape shape, MbShape other);
/** Append a copy of primitive i of other to shape (forgets shape's mesh). */
PETSC_EXTERN PetscErrorCode MbShapeAppendPiece(MbShape shape, MbShape other, PetscInt i);
/** Translate every primitive by d. */
PETSC_EXTERN PetscErrorCode MbShapeTranslate(MbShape shape, const PetscReal d[3]);
/** Rotate about the axis through point along dir by angle (radians). */
PETSC_EXTERN PetscErrorCode MbShapeRotate(MbShape shape, const PetscReal point[3], const PetscReal dir[3], PetscReal angle);
/** Apply x ↦ R(x − c) + c + d to every primitive (R a rotation). */
PETSC_EXTERN PetscErrorCode MbShapeTransform(MbShape shape, const PetscReal R[9], const PetscReal c[3], const PetscReal d[3]);
/** Bend a mesh shape (MESH, HEX) about the axis through point along dir (non-zero) by
    angle (radians, > 0), as Solfec-1.0's BEND: from the section through the node closest
    to the axis, nodes turn about the axis by their arc coordinate over that node's
    distance, up to angle, and go on straight beyond it (src/shape/bend.c has the map).
    Errors when the shape has no mesh, the axis passes through the mesh or a node lies on
    it, or a bent element is not sound; the shape is unchanged then. Not collective. */
PETSC_EXTERN PetscErrorCode MbShapeBend(MbShape shape, const PetscReal point[3], const PetscReal dir[3], PetscReal angle);
/** Mass properties for density rho by the divergence theorem (closed form for spheres and
    ellipsoids);
    errors when the volume is not positive. */
PETSC_EXTERN PetscErrorCode MbShapeMassProps(MbShape shape, PetscReal rho, MbMassProps *mp);
/** The 8 nodes (HEX's order) of the box Solfec-1.0's ROUGH_HEX meshes around a shape of
    convex pieces: edges along the principal axes of its Euler tensor (ascending eigenvalue:
    the i, j, k directions), faces at the vertices' extreme projections on them widened by
    margin (>= 0). Errors when a primitive is not convex or the shape has no volume.
    Not collective. */
PETSC_EXTERN PetscErrorCode MbShapeRoughHexBox(MbShape shape, PetscReal margin, PetscReal nodes[24]);
/** Number of primitives. */
PETSC_EXTERN PetscErrorCode MbShapeGetSize(MbShape shape, PetscInt *n);
/** Kind of primitive i. */
PETSC_EXTERN PetscErrorCode MbShapeGetPrimKind(MbShape shape, PetscInt i, MbPrimKind *kind);
/** Sphere data of primitive i (errors when it is not a sphere). */
PETSC_EXTERN PetscErrorCode MbShapeGetSphere(MbShape shape, PetscInt i, PetscReal center[3], PetscReal *radius);
/** Convex data of primitive i, borrowed pointers (errors when it is not convex). */
PETSC_EXTERN PetscErrorCode MbShapeGetConvex(MbShape shape, PetscInt i, PetscInt *nv, const PetscReal **v, PetscInt *nf, const PetscInt **fptr, const PetscInt **fvert, const PetscInt **fsurf);
/** Axis-aligned bounding box of the reference shape: lo, hi. */
PETSC_EXTERN PetscErrorCode MbShapeGetBox(MbShape shape, PetscReal lo[3], PetscReal hi[3]);
/** Convex hull of np points (xyz) as a convex primitive appended to shape; errors when the
    points are coplanar (no volume). */
PETSC_EXTERN PetscErrorCode MbShapeAddHull(MbShape shape, PetscInt np, const PetscReal p[], PetscInt volid, PetscInt surfid);
/** Append one finite element of a Solfec MESH as a convex piece. type is the number of
    nodes: 4 (tetrahedron), 5 (pyramid), 6 (wedge) or 8 (hexahedron); nodes (3·type reals)
    in Solfec-1.0's order: the base counter-clockwise seen from above (tetrahedron 0-2,
    pyramid 0-3, wedge 0-2, hexahedron 0-3), then the apex (tetrahedron 3, pyramid 4) or the
    top nodes above the base ones (wedge 3-5, hexahedron 4-7). surfids (may be NULL: all 0)
    has one surface id per face, base first, then top, then the sides:
      tetrahedron 021, 013, 123, 203;        pyramid 0321, 014, 124, 234, 304;
      wedge 021, 345, 0143, 1254, 2035;      hexahedron as MbShapeAddHex.
    Faces are oriented outward against the element's centroid, so a base given clockwise
    still gives a positive volume. Errors on another type, non-finite coordinates, or an
    element with no volume (naming its type and volume). Not collective. */
/** Record that the shape is one mesh: its primitives, added by MbShapeAddElement, are
    elements 0 .. ne−1 with nodes enode[eptr[e] .. eptr[e+1]) among the nn nodes X (3·nn).
    Errors when ne is not the number of primitives, an element's node count is not 4, 5, 6
    or 8, or a node index is out of range. Appending to the shape forgets the mesh. */
PETSC_EXTERN PetscErrorCode MbShapeSetMesh(MbShape shape, PetscInt nn, const PetscReal X[], PetscInt ne, const PetscInt eptr[], const PetscInt enode[]);
/** Record a mesh that carries the shape's deformation without being its primitives
    (Solfec-1.0's BODY(..., 'FINITE_ELEMENT', shape, ..., mesh = MESH)): a FINITE_ELEMENT
    body of such a shape has the mesh's nodes as its state, and each point of the shape moves
    with the element that holds it. Transforms move the mesh with the shape; appending to the
    shape forgets it. Checks as MbShapeSetMesh, but for the number of primitives. */
PETSC_EXTERN PetscErrorCode MbShapeSetEmbeddingMesh(MbShape shape, PetscInt nn, const PetscReal X[], PetscInt ne, const PetscInt eptr[], const PetscInt enode[]);
/** Whether the shape's mesh is an embedding one (MbShapeSetEmbeddingMesh); false without a mesh. */
PETSC_EXTERN PetscErrorCode MbShapeGetMeshEmbedding(MbShape shape, PetscBool *embed);
/** The shape's mesh (borrowed); *nn = 0 when it has none. Any output may be NULL. */
PETSC_EXTERN PetscErrorCode MbShapeGetMesh(MbShape shape, PetscInt *nn, const PetscReal **X, PetscInt *ne, const PetscInt **eptr, const PetscInt **enode);
/** Split by the plane through point with normal n (non-zero, any length) into *below (the
    pieces where n·(x − point) <= 0) and *above, new shapes (NULL when empty): a convex piece
    the plane crosses is clipped in two, the cut face of the part below (outward normal n)
    getting surface id surfid[0], that of the part above surfid[1] (Solfec-1.0's SPLIT); a
    piece within eps of one side goes there whole; a sphere the plane crosses is an error.
    The mesh is not kept. Not collective. */
PETSC_EXTERN PetscErrorCode MbShapeSplit(MbShape shape, const PetscReal point[3], const PetscReal normal[3], const PetscInt surfid[2], PetscReal eps, MbShape *below, MbShape *above);
PETSC_EXTERN PetscErrorCode MbShapeAddElement(MbShape shape, PetscInt type, const PetscReal nodes[], const PetscInt surfids[], PetscInt volid);

/** Options of the TetGen mesher (Solfec-1.0's TETRAHEDRALIZE, ELLIP_MESH); 0 leaves one off. */
typedef struct {
  PetscReal maxvolume;   /* > 0: no tetrahedron larger (TetGen's -a) */
  PetscReal quality;     /* > 1: the bound on a tetrahedron's radius-edge ratio (TetGen's -q) */
  PetscReal mindihedral; /* > 0: the least dihedral angle in degrees (-q's second value) */
  PetscReal maxdihedral; /* in (0, 180): the largest dihedral angle TetGen's optimisation aims at (-o/) */
  PetscBool keepsurface; /* no points added on the surface (TetGen's -Y) */
} MbTetOptions;

/** A tetrahedral mesh made by TetGen (PetscFree'd by MbTetMeshDestroy): nn nodes X, nt
    tetrahedra tet (4 each, Solfec's TET4 order: positive volume), their volume ids (valid
    when hasvolid), nf boundary triangles tri (3 each) and their surface ids (valid when
    hassurfid; else the input had none). */
typedef struct {
  PetscInt   nn, nt, nf;
  PetscReal *X;
  PetscInt  *tet, *volid, *tri, *surfid;
  PetscBool  hasvolid, hassurfid;
} MbTetMesh;

/** Whether moreau was built with TetGen (Debian's libtet1.5-dev); without it the
    MbTetrahedralize functions error, saying so. */
PETSC_EXTERN PetscBool MbTetrahedralizeAvailable(void);
/** Fill the volume bounded by a mesh shape's (MESH, HEX) boundary faces with tetrahedra;
    faces keep their surface ids and the tetrahedra the volume id of the element they lie
    in. Errors when the shape has no mesh, or TetGen fails (naming why). Not collective. */
PETSC_EXTERN PetscErrorCode MbTetrahedralizeShape(MbShape shape, const MbTetOptions *opt, MbTetMesh *out);
/** Fill the closed surface of a TetGen input file (.poly, .smesh, .off, .ply, .stl, .mesh,
    .vtk); surface ids are its facet markers (hassurfid false when it has none), volume ids
    its region attributes (hasvolid false when it has no regions). */
PETSC_EXTERN PetscErrorCode MbTetrahedralizeFile(const char *path, const MbTetOptions *opt, MbTetMesh *out);
/** Fill the closed surface of nt triangles tri (3 point numbers each) on the np points p,
    triangle t with surface id surfid[t]. */
PETSC_EXTERN PetscErrorCode MbTetrahedralizeSurface(PetscInt np, const PetscReal p[], PetscInt nt, const PetscInt tri[], const PetscInt surfid[], const MbTetOptions *opt, MbTetMesh *out);
/** Free a mesh made by the MbTetrahedralize functions. */
PETSC_EXTERN PetscErrorCode MbTetMeshDestroy(MbTetMesh *mesh);

#endif
