/* Which shapes overlap a set of obstacles (Solfec-1.0's OVERLAPPING, lng.c behaviour: a shape
   overlaps when one of its pieces and one of the obstacles' are in contact with a gap no
   larger than the given one, <= 0). The broad phase pairs the pieces' boxes, the narrow phase
   (MbCollide) measures the gap: the same geometry as the contact detection. */
#include <moreau/mbgeom.h>

/* Primitive i of shape s as a narrow-phase primitive (borrowed pointers). */
static PetscErrorCode PrimOf(MbShape s, PetscInt i, MbGeomPrim *g)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(g, sizeof(*g)));
  PetscCall(MbShapeGetPrimKind(s, i, &g->kind));
  if (g->kind == MB_PRIM_SPHERE)
    PetscCall(MbShapeGetSphere(s, i, g->c, &g->r));
  else
    PetscCall(MbShapeGetConvex(s, i, &g->nv, &g->v, &g->nf, &g->fptr, &g->fvert, &g->fsurf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt nob; /* pieces [0, nob) are the obstacles' */
} OverlapCtx;

/* only obstacle–shape pairs */
static PetscBool OverlapFilter(void *ctx, PetscInt i, PetscInt j)
{
  PetscInt nob = ((OverlapCtx *)ctx)->nob;
  return (PetscBool)((i < nob) != (j < nob));
}

PetscErrorCode MbShapesOverlapping(MbShape obstacles, PetscInt n, const MbShape shapes[], PetscReal gap, PetscReal eps, PetscBool hit[])
{
  PetscInt    nob, ntot, npairs, *pairs, *owner, *first;
  MbGeomPrim *g;
  MbBox      *box;
  OverlapCtx  ctx;
  PetscFunctionBegin;
  PetscCheck(gap <= 0 && !PetscIsInfOrNanReal(gap), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "OVERLAPPING: gap must be a number <= 0 (the largest gap that counts as an overlap), got %g", (double)gap);
  PetscCall(MbShapeGetSize(obstacles, &nob));
  PetscCall(PetscMalloc1(n + 1, &first));
  first[0] = nob;
  for (PetscInt k = 0; k < n; k++) {
    PetscInt m;
    PetscCall(MbShapeGetSize(shapes[k], &m));
    first[k + 1] = first[k] + m;
    hit[k]       = PETSC_FALSE;
  }
  ntot = first[n];
  PetscCall(PetscMalloc3(ntot, &g, ntot, &box, ntot, &owner));
  for (PetscInt i = 0; i < nob; i++) {
    PetscCall(PrimOf(obstacles, i, &g[i]));
    owner[i] = -1;
  }
  for (PetscInt k = 0; k < n; k++)
    for (PetscInt i = first[k]; i < first[k + 1]; i++) {
      PetscCall(PrimOf(shapes[k], i - first[k], &g[i]));
      owner[i] = k;
    }
  for (PetscInt i = 0; i < ntot; i++) PetscCall(MbGeomPrimBox(&g[i], eps, &box[i]));
  ctx.nob = nob;
  PetscCall(MbBroadPhase(ntot, box, OverlapFilter, &ctx, &npairs, &pairs));
  for (PetscInt p = 0; p < npairs; p++) {
    PetscInt       i = pairs[2 * p], j = pairs[2 * p + 1], np, k;
    MbContactPoint pts[MB_MAX_CONTACT_POINTS];
    if (i >= nob) { /* i the obstacle's piece, j the shape's */
      PetscInt t = i;
      i          = j;
      j          = t;
    }
    k = owner[j];
    if (hit[k]) continue;
    PetscCall(MbCollide(&g[i], &g[j], eps, eps, &np, pts));
    for (PetscInt q = 0; q < np; q++)
      if (pts[q].gap <= gap) hit[k] = PETSC_TRUE;
  }
  PetscCall(PetscFree(pairs));
  PetscCall(PetscFree3(g, box, owner));
  PetscCall(PetscFree(first));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt CompFind(PetscInt p[], PetscInt a)
{
  while (p[a] != a) a = p[a] = p[p[a]];
  return a;
}

PetscErrorCode MbShapeComponents(MbShape s, PetscReal eps, PetscInt *ncomp, PetscInt comp[])
{
  PetscInt    n, npairs, *pairs, *parent, *label;
  MbGeomPrim *g;
  MbBox      *box;
  PetscFunctionBegin;
  PetscCheck(eps >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the touching tolerance %g must be >= 0", (double)eps);
  PetscCall(MbShapeGetSize(s, &n));
  PetscCall(PetscMalloc4(n, &g, n, &box, n, &parent, n, &label));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(PrimOf(s, i, &g[i]));
    PetscCall(MbGeomPrimBox(&g[i], eps, &box[i]));
    parent[i] = i;
    label[i]  = -1;
  }
  PetscCall(MbBroadPhase(n, box, NULL, NULL, &npairs, &pairs));
  for (PetscInt p = 0; p < npairs; p++) {
    PetscInt       i = CompFind(parent, pairs[2 * p]), j = CompFind(parent, pairs[2 * p + 1]), np;
    MbContactPoint pts[MB_MAX_CONTACT_POINTS];
    if (i == j) continue;
    PetscCall(MbCollide(&g[pairs[2 * p]], &g[pairs[2 * p + 1]], eps, eps, &np, pts));
    if (np) parent[PetscMax(i, j)] = PetscMin(i, j); /* touching within eps: one component */
  }
  *ncomp = 0;
  for (PetscInt i = 0; i < n; i++) { /* numbered in the order of their first pieces */
    PetscInt r = CompFind(parent, i);
    if (label[r] < 0) label[r] = (*ncomp)++;
    comp[i] = label[r];
  }
  PetscCall(PetscFree(pairs));
  PetscCall(PetscFree4(g, box, parent, label));
  PetscFunctionReturn(PETSC_SUCCESS);
}
