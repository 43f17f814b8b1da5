/* Tetrahedral meshes by TetGen (Solfec-1.0's TETRAHEDRALIZE and ELLIP_MESH, lng.c and
   tetsol.cxx behaviour): the surface to fill is a mesh shape's boundary, a TetGen input
   file or a triangulated surface; the result is oriented tetrahedra with volume ids and
   the boundary triangles with surface ids.
   A mesh shape's boundary faces keep their surface ids (TetGen's facet markers carry them
   onto the triangles that cover each face). Its volume ids are kept too: where elements of
   different volume ids meet, their common face is an inner facet, so that no tetrahedron
   crosses it, and one TetGen region seed per connected part of one volume id gives the
   tetrahedra in that part their id (Solfec locates each tetrahedron's centroid in the
   input elements instead; the result is the same for a mesh whose parts are separated by
   faces, which a mesh always is). */
#include <moreau/mbmath.h>
#include "shapeimpl.h"
#include "tetgenrun.h"

/* A face of an element, keyed by its sorted node numbers (-1 pads a triangle). */
typedef struct {
  PetscInt key[4];
  PetscInt e, f; /* element, its face */
} Face;

static int FaceCompare(const void *a, const void *b)
{
  const Face *x = (const Face *)a, *y = (const Face *)b;
  for (int k = 0; k < 4; k++)
    if (x->key[k] != y->key[k]) return x->key[k] < y->key[k] ? -1 : 1;
  return x->e < y->e ? -1 : x->e > y->e;
}

static PetscInt Find(PetscInt *up, PetscInt a)
{
  while (up[a] != a) a = up[a] = up[up[a]];
  return a;
}

/* The PLC of a mesh shape: facets (global node loops) with their surface ids (role
   PETSC_TRUE: a boundary face) or inner faces between volume ids (PETSC_FALSE), and region
   seeds when there are several volume ids. Quadrilaterals that are not plane (a warped
   face of a trilinear hexahedron) go to TetGen as two triangles: TetGen's facets must be
   plane. */
typedef struct {
  PetscInt   nf, nfv, nreg;
  PetscInt  *fptr, *fvert, *fsurf;
  PetscBool *outer;
  PetscReal *regions; /* x, y, z, volid */
  PetscInt   volid;   /* the one volume id, when there is one */
  PetscBool  onevol;
} MeshPLC;

static PetscErrorCode AddFacet(MeshPLC *p, const PetscInt *loop, PetscInt n, PetscInt surfid, PetscBool outer)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < n; k++) p->fvert[p->nfv++] = loop[k];
  p->fsurf[p->nf] = surfid;
  p->outer[p->nf] = outer;
  p->nf++;
  p->fptr[p->nf] = p->nfv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode AddFace(MeshPLC *p, const PetscReal X[], const PetscInt *loop, PetscInt n, PetscInt surfid, PetscBool outer)
{
  PetscFunctionBegin;
  if (n == 4) {
    PetscReal e1[3], e2[3], e3[3], nrm[3], diag[3];
    MbV3Sub(&X[3 * loop[1]], &X[3 * loop[0]], e1);
    MbV3Sub(&X[3 * loop[2]], &X[3 * loop[0]], e2);
    MbV3Sub(&X[3 * loop[3]], &X[3 * loop[0]], e3);
    MbV3Cross(e1, e2, nrm);
    MbV3Sub(&X[3 * loop[3]], &X[3 * loop[1]], diag);
    PetscReal size = PetscMax(MbV3Norm(e2), MbV3Norm(diag));
    if (PetscAbsReal(MbV3Dot(nrm, e3)) > 1e-10 * MbV3Norm(nrm) * size) { /* warped */
      PetscInt t1[3] = {loop[0], loop[1], loop[2]}, t2[3] = {loop[0], loop[2], loop[3]};
      PetscCall(AddFacet(p, t1, 3, surfid, outer));
      PetscCall(AddFacet(p, t2, 3, surfid, outer));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(AddFacet(p, loop, n, surfid, outer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshPLCDestroy(MeshPLC *p)
{
  PetscFunctionBegin;
  PetscCall(PetscFree5(p->fptr, p->fvert, p->fsurf, p->outer, p->regions));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MeshPLCCreate(MbShape s, MeshPLC *p)
{
  const MbMesh *m = s->mesh;
  Face         *F;
  PetscInt      nface = 0, *up;
  PetscFunctionBegin;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  PetscCheck(m && m->nn > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "the shape is not a mesh (MESH, HEX or PIPE)");
  for (PetscInt e = 0; e < m->ne; e++) nface += s->prim[e].nf;
  PetscCall(PetscMalloc1(nface, &F));
  p->onevol = PETSC_TRUE;
  p->volid  = m->ne ? s->prim[0].volid : 0;
  for (PetscInt e = 0, i = 0; e < m->ne; e++) {
    const MbPrim *q = &s->prim[e];
    if (q->volid != p->volid) p->onevol = PETSC_FALSE;
    for (PetscInt f = 0; f < q->nf; f++, i++) {
      PetscInt n = q->fptr[f + 1] - q->fptr[f];
      for (PetscInt k = 0; k < 4; k++) F[i].key[k] = k < n ? m->enode[m->eptr[e] + q->fvert[q->fptr[f] + k]] : -1;
      for (PetscInt a = 1; a < 4; a++) /* sort, -1 last */
        for (PetscInt b = a; b > 0 && (F[i].key[b - 1] == -1 || (F[i].key[b] != -1 && F[i].key[b] < F[i].key[b - 1])); b--) {
          PetscInt t      = F[i].key[b];
          F[i].key[b]     = F[i].key[b - 1];
          F[i].key[b - 1] = t;
        }
      F[i].e = e;
      F[i].f = f;
    }
  }
  qsort(F, (size_t)nface, sizeof(Face), FaceCompare);
  PetscCall(PetscMalloc5(2 * nface + 1, &p->fptr, 8 * nface, &p->fvert, 2 * nface, &p->fsurf, 2 * nface, &p->outer, 4 * m->ne, &p->regions));
  PetscCall(PetscMalloc1(m->ne, &up));
  for (PetscInt e = 0; e < m->ne; e++) up[e] = e;
  p->fptr[0] = 0;
  for (PetscInt i = 0, j; i < nface; i = j) {
    for (j = i + 1; j < nface && !memcmp(F[j].key, F[i].key, sizeof(F[i].key)); j++)
      ;
    const MbPrim *q = &s->prim[F[i].e];
    PetscInt      n = q->fptr[F[i].f + 1] - q->fptr[F[i].f], loop[4];
    for (PetscInt k = 0; k < n; k++) loop[k] = m->enode[m->eptr[F[i].e] + q->fvert[q->fptr[F[i].f] + k]];
    if (j - i == 1)
      PetscCall(AddFace(p, m->X, loop, n, q->fsurf[F[i].f], PETSC_TRUE));
    else if (j - i == 2) {
      const MbPrim *r = &s->prim[F[i + 1].e];
      if (r->volid != q->volid)
        PetscCall(AddFace(p, m->X, loop, n, 0, PETSC_FALSE));
      else
        up[Find(up, F[i].e)] = Find(up, F[i + 1].e);
    } else {
      PetscCall(PetscFree(up));
      PetscCall(PetscFree(F));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "the mesh is not a manifold: %" PetscInt_FMT " elements share the face of nodes %" PetscInt_FMT ", %" PetscInt_FMT ", %" PetscInt_FMT " (elements %" PetscInt_FMT " and %" PetscInt_FMT ", ...)",
              j - i, F[i].key[0], F[i].key[1], F[i].key[2], F[i].e, F[i + 1].e);
    }
  }
  if (!p->onevol) /* a seed at the centroid of one element of each connected part of one volume id */
    for (PetscInt e = 0; e < m->ne; e++)
      if (Find(up, e) == e) {
        const MbPrim *q    = &s->prim[e];
        PetscReal     c[3] = {0, 0, 0};
        for (PetscInt a = m->eptr[e]; a < m->eptr[e + 1]; a++) MbV3Axpy(1.0 / (m->eptr[e + 1] - m->eptr[e]), &m->X[3 * m->enode[a]], c, c);
        MbV3Copy(c, &p->regions[4 * p->nreg]);
        p->regions[4 * p->nreg + 3] = (PetscReal)q->volid;
        p->nreg++;
      }
  PetscCall(PetscFree(up));
  PetscCall(PetscFree(F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* TetGen's switches (Solfec's: p, quiet, -a volume, -q quality), as tetsol.cxx sets them. */
static PetscErrorCode Switches(const MbTetOptions *o, PetscBool regions, char sw[256])
{
  size_t n;
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(sw, 256, "pQ"));
  PetscCall(PetscStrlen(sw, &n));
  if (o->maxvolume > 0) {
    PetscCall(PetscSNPrintf(sw + n, 256 - n, "a%.17g", (double)o->maxvolume));
    PetscCall(PetscStrlen(sw, &n));
  }
  if (o->quality > 0 || o->mindihedral > 0) { /* -q ratio/angle (TetGen's default ratio 2) */
    PetscCall(PetscSNPrintf(sw + n, 256 - n, "q%.10f", (double)(o->quality > 0 ? o->quality : 2.0)));
    PetscCall(PetscStrlen(sw, &n));
    if (o->mindihedral > 0) {
      PetscCall(PetscSNPrintf(sw + n, 256 - n, "/%.10f", (double)o->mindihedral));
      PetscCall(PetscStrlen(sw, &n));
    }
  }
  if (o->maxdihedral > 0 && o->maxdihedral < 180) {
    PetscCall(PetscSNPrintf(sw + n, 256 - n, "o/%.10f", (double)o->maxdihedral));
    PetscCall(PetscStrlen(sw, &n));
  }
  if (o->keepsurface) {
    PetscCall(PetscSNPrintf(sw + n, 256 - n, "Y"));
    PetscCall(PetscStrlen(sw, &n));
  }
  if (regions) PetscCall(PetscSNPrintf(sw + n, 256 - n, "A"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckOptions(const MbTetOptions *o)
{
  PetscFunctionBegin;
  PetscCheck(o->maxvolume >= 0 && PetscIsNormalReal(o->maxvolume) == (o->maxvolume > 0), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the maximal volume must be positive (or 0: none), got %g", (double)o->maxvolume);
  PetscCheck(o->quality == 0 || (o->quality > 1 && o->quality < 1e6), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the quality must be > 1.0 (or 0: none), got %g", (double)o->quality);
  PetscCheck(o->mindihedral >= 0 && o->mindihedral < 70, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the minimum dihedral angle must be in [0, 70) degrees, got %g", (double)o->mindihedral);
  PetscCheck(o->maxdihedral >= 0 && o->maxdihedral <= 180, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "the maximum dihedral angle must be in [0, 180] degrees, got %g", (double)o->maxdihedral);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Run TetGen on plc and copy its mesh into out: tetrahedra turned to a positive volume
   (Solfec's TET4 order: the base counter-clockwise seen from the apex), volume ids from
   the region attributes, surface ids from the markers (arrays: through fsurf; facets with
   outer false are inner faces, whose triangles are dropped). */
static PetscErrorCode Run(const MbTetgenPLC *plc, const PetscInt *fsurf, const PetscBool *outer, const MbTetOptions *o, MbTetMesh *out)
{
  char         sw[256], err[1024];
  MbTetgenMesh tm;
  PetscFunctionBegin;
  PetscCall(PetscMemzero(out, sizeof(*out)));
  PetscCall(CheckOptions(o));
  PetscCall(Switches(o, plc->nregions > 0, sw));
  PetscCheck(!MbTetgenRun(plc, sw, &tm, err, sizeof(err)), PETSC_COMM_SELF, PETSC_ERR_LIB, "%s", err);
  out->nn = tm.npoints;
  out->nt = tm.ntets;
  PetscCall(PetscMalloc5(3 * out->nn, &out->X, 4 * out->nt, &out->tet, out->nt, &out->volid, 3 * tm.ntris, &out->tri, tm.ntris, &out->surfid));
  for (PetscInt k = 0; k < 3 * out->nn; k++) out->X[k] = tm.points[k];
  for (PetscInt t = 0; t < out->nt; t++) {
    PetscInt *T = &out->tet[4 * t];
    PetscReal a[3], b[3], c[3], n[3];
    for (int k = 0; k < 4; k++) T[k] = tm.tets[4 * t + k];
    MbV3Sub(&out->X[3 * T[1]], &out->X[3 * T[0]], a);
    MbV3Sub(&out->X[3 * T[2]], &out->X[3 * T[0]], b);
    MbV3Sub(&out->X[3 * T[3]], &out->X[3 * T[0]], c);
    MbV3Cross(a, b, n);
    if (MbV3Dot(n, c) < 0) {
      PetscInt s = T[1];
      T[1]       = T[2];
      T[2]       = s;
    }
    out->volid[t] = tm.tetattr ? (PetscInt)tm.tetattr[t] : 0;
  }
  out->hasvolid  = tm.tetattr ? PETSC_TRUE : PETSC_FALSE;
  out->hassurfid = tm.trimarker ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt i = 0; i < tm.ntris; i++) {
    PetscInt sid = tm.trimarker ? tm.trimarker[i] : 0;
    if (fsurf && tm.trimarker) {
      PetscInt f = tm.trimarker[i] - 1;
      if (f < 0 || f >= plc->nfacets) {
        MbTetgenMeshFree(&tm);
        SETERRQ(PETSC_COMM_SELF, PETSC_ERR_LIB, "TetGen gave a boundary triangle the marker %d, which is no facet's (1 .. %d)", (int)(f + 1), plc->nfacets);
      }
      if (outer && !outer[f]) continue;
      sid = fsurf[f];
    }
    for (int k = 0; k < 3; k++) out->tri[3 * out->nf + k] = tm.tris[3 * i + k];
    out->surfid[out->nf++] = sid;
  }
  MbTetgenMeshFree(&tm);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbTetrahedralizeShape(MbShape s, const MbTetOptions *o, MbTetMesh *out)
{
  MeshPLC     p;
  MbTetgenPLC plc;
  int        *fptr, *fvert;
  PetscFunctionBegin;
  PetscCall(MeshPLCCreate(s, &p));
  PetscCall(PetscMalloc2(p.nf + 1, &fptr, p.nfv, &fvert));
  for (PetscInt f = 0; f <= p.nf; f++) fptr[f] = (int)p.fptr[f];
  for (PetscInt k = 0; k < p.nfv; k++) fvert[k] = (int)p.fvert[k];
  plc              = (MbTetgenPLC){NULL, (int)s->mesh->nn, s->mesh->X, (int)p.nf, fptr, fvert, (int)p.nreg, p.regions};
  PetscErrorCode e = Run(&plc, p.fsurf, p.outer, o, out);
  if (!e && p.onevol) { /* every tetrahedron inherits the one volume id */
    for (PetscInt t = 0; t < out->nt; t++) out->volid[t] = p.volid;
    out->hasvolid = PETSC_TRUE;
  }
  out->hassurfid = PETSC_TRUE;
  PetscCall(PetscFree2(fptr, fvert));
  PetscCall(MeshPLCDestroy(&p));
  PetscCall(e);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbTetrahedralizeFile(const char *path, const MbTetOptions *o, MbTetMesh *out)
{
  MbTetgenPLC plc = {path, 0, NULL, 0, NULL, NULL, 0, NULL};
  PetscFunctionBegin;
  PetscCall(Run(&plc, NULL, NULL, o, out));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbTetrahedralizeSurface(PetscInt np, const PetscReal p[], PetscInt nt, const PetscInt tri[], const PetscInt surfid[], const MbTetOptions *o, MbTetMesh *out)
{
  int        *fptr, *fvert;
  MbTetgenPLC plc;
  PetscFunctionBegin;
  PetscCall(PetscMalloc2(nt + 1, &fptr, 3 * nt, &fvert));
  for (PetscInt t = 0; t <= nt; t++) fptr[t] = (int)(3 * t);
  for (PetscInt k = 0; k < 3 * nt; k++) {
    PetscCheck(tri[k] >= 0 && tri[k] < np, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "triangle %" PetscInt_FMT " names point %" PetscInt_FMT ", which is not in [0, %" PetscInt_FMT ")", k / 3, tri[k], np);
    fvert[k] = (int)tri[k];
  }
  plc              = (MbTetgenPLC){NULL, (int)np, p, (int)nt, fptr, fvert, 0, NULL};
  PetscErrorCode e = Run(&plc, surfid, NULL, o, out);
  out->hassurfid   = PETSC_TRUE;
  PetscCall(PetscFree2(fptr, fvert));
  PetscCall(e);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbTetMeshDestroy(MbTetMesh *m)
{
  PetscFunctionBegin;
  PetscCall(PetscFree5(m->X, m->tet, m->volid, m->tri, m->surfid));
  PetscCall(PetscMemzero(m, sizeof(*m)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool MbTetrahedralizeAvailable(void) { return MbTetgenAvailable() ? PETSC_TRUE : PETSC_FALSE; }
