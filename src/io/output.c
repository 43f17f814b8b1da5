/* MbOutput: results in one HDF5 file per run, written collectively by all ranks through
   MPI-IO (parallel HDF5), and an XDMF index for ParaView (xdmf.c). Layout: doc/output.md.
   Each rank writes its bodies as one contiguous block of rows placed by MPI_Exscan of the
   local counts; every per-body array carries the body ids (/frames/NNNNNN/id), so readers
   sort by id and results do not depend on the number of ranks. */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <moreau/mbmath.h>
#include <moreau/mbbody.h>
#include "outputimpl.h"

#define MB_LABEL_LEN 64 /* bytes of /bodies/label, terminating NUL included */

/* Local counts, and with them offsets and global totals, in this order. */
enum { C_BODY, C_PTS, C_CELLS, C_TOPO, C_SPH, C_N };

/* XDMF Mixed topology cell codes */
#define XDMF_TRIANGLE 4
#define XDMF_QUADRILATERAL 5

/* One /history series: dataset name (the item of MbOutputReadHistory, in lower case), where
   it sits in MbHistory, and whether it is an integer (stored as int64). */
typedef struct {
  const char *name;
  size_t      offset;
  PetscBool   isint;
} HistItem;

static const HistItem HistItems[] = {
    {"time", offsetof(MbHistory, time), PETSC_FALSE},
    {"step", offsetof(MbHistory, step), PETSC_FALSE},
    {"kinetic", offsetof(MbHistory, energy.kinetic), PETSC_FALSE},
    {"internal", offsetof(MbHistory, energy.internal), PETSC_FALSE},
    {"external", offsetof(MbHistory, energy.external), PETSC_FALSE},
    {"contact", offsetof(MbHistory, energy.contact), PETSC_FALSE},
    {"friction", offsetof(MbHistory, energy.friction), PETSC_FALSE},
    {"iterations", offsetof(MbHistory, iterations), PETSC_TRUE},
    {"error", offsetof(MbHistory, error), PETSC_FALSE},
    {"contacts", offsetof(MbHistory, contacts), PETSC_TRUE},
    {"curvature", offsetof(MbHistory, curvature), PETSC_FALSE},
    {"estimate", offsetof(MbHistory, estimate), PETSC_FALSE},
    {"rejected", offsetof(MbHistory, rejected), PETSC_TRUE},
    {"walltime", offsetof(MbHistory, walltime), PETSC_FALSE},
};
#define NHIST ((int)(sizeof(HistItems) / sizeof(HistItems[0])))

static double HistValue(const MbHistory *r, const HistItem *it)
{
  const char *p = (const char *)r + it->offset;
  return it->isint ? (double)*(const PetscInt *)p : (double)*(const PetscReal *)p;
}

/* ---------------------------------------------------------------- directories */

/* mkdir -p dir, then check that it is a directory we may write into; *err = errno or 0. */
static void MakeDirs(const char *dir, int *err)
{
  char        p[PETSC_MAX_PATH_LEN];
  size_t      len = strlen(dir);
  struct stat st;
  *err = 0;
  if (len >= sizeof(p)) {
    *err = ENAMETOOLONG;
    return;
  }
  memcpy(p, dir, len + 1);
  for (size_t k = 1; k <= len && !*err; k++) {
    if (p[k] != '/' && p[k] != '\0') continue;
    char c = p[k];
    p[k]   = '\0';
    if (mkdir(p, 0777) && errno != EEXIST) *err = errno;
    p[k] = c;
  }
  if (*err) return;
  if (stat(dir, &st))
    *err = errno;
  else if (!S_ISDIR(st.st_mode))
    *err = ENOTDIR;
  else if (access(dir, W_OK | X_OK))
    *err = errno;
}

/* ---------------------------------------------------------------- HDF5 helpers */

PetscErrorCode MbH5WriteAttr(hid_t loc, const char *name, hid_t type, const void *val, const char *path)
{
  hid_t sp, a;
  PetscFunctionBegin;
  MbH5Get(sp, H5Screate, (H5S_SCALAR), path);
  MbH5Get(a, H5Acreate2, (loc, name, type, sp, H5P_DEFAULT, H5P_DEFAULT), path);
  MbH5Call(H5Awrite, (a, type, val), path);
  MbH5Call(H5Aclose, (a), path);
  MbH5Call(H5Sclose, (sp), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbH5WriteAttrString(hid_t loc, const char *name, const char *s, const char *path)
{
  hid_t t;
  PetscFunctionBegin;
  MbH5Get(t, H5Tcopy, (H5T_C_S1), path);
  MbH5Call(H5Tset_size, (t, strlen(s) + 1), path);
  PetscCall(MbH5WriteAttr(loc, name, t, s, path));
  MbH5Call(H5Tclose, (t), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbH5WriteAttrInt(hid_t loc, const char *name, int64_t v, const char *path)
{
  PetscFunctionBegin;
  PetscCall(MbH5WriteAttr(loc, name, H5T_NATIVE_INT64, &v, path));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Write rows [off, off + n) of dataset dset (shape rows × cols; cols = 0: 1-D) from buf,
   collectively: every rank calls it, with n = 0 where it has nothing. An empty dataset is
   not written to (HDF5 1.10 fails writing nothing to a dataset of no elements). */
static PetscErrorCode WriteRows(MbOutput out, hid_t dset, const char *path, hid_t type, int cols, int64_t rows, int64_t off, int64_t n, const void *buf)
{
  static const double dummy[3] = {0, 0, 0};
  hsize_t             start[2] = {(hsize_t)off, 0}, count[2] = {(hsize_t)(n > 0 ? n : 1), (hsize_t)cols};
  int                 rank = cols ? 2 : 1;
  hid_t               fs, ms;
  PetscFunctionBegin;
  if (rows == 0) PetscFunctionReturn(PETSC_SUCCESS);
  MbH5Get(fs, H5Dget_space, (dset), path);
  MbH5Get(ms, H5Screate_simple, (rank, count, NULL), path);
  if (n > 0)
    MbH5Call(H5Sselect_hyperslab, (fs, H5S_SELECT_SET, start, NULL, count, NULL), path);
  else {
    MbH5Call(H5Sselect_none, (fs), path);
    MbH5Call(H5Sselect_none, (ms), path);
  }
  MbH5Call(H5Dwrite, (dset, type, ms, fs, out->dxpl, n > 0 ? buf : (const void *)dummy), path);
  MbH5Call(H5Sclose, (ms), path);
  MbH5Call(H5Sclose, (fs), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Create dataset gpath/name of rows × cols (cols = 0: 1-D) and write this rank's block of
   n rows at row off. Collective. */
PetscErrorCode MbH5WriteDataset(MbOutput out, hid_t loc, const char *gpath, const char *name, hid_t type, int cols, int64_t rows, int64_t off, int64_t n, const void *buf)
{
  char    path[256];
  hsize_t dims[2] = {(hsize_t)rows, (hsize_t)cols};
  hid_t   fs, d;
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", gpath, name));
  MbH5Get(fs, H5Screate_simple, (cols ? 2 : 1, dims, NULL), path);
  MbH5Get(d, H5Dcreate2, (loc, name, type, fs, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), path);
  PetscCall(WriteRows(out, d, path, type, cols, rows, off, n, buf));
  MbH5Call(H5Dclose, (d), path);
  MbH5Call(H5Sclose, (fs), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Grow (or create) the extendible dataset gpath/name to `rows` rows and write this rank's
   block of n rows at row off. Collective. */
static PetscErrorCode AppendRows(MbOutput out, hid_t loc, const char *gpath, const char *name, hid_t type, int cols, int64_t rows, int64_t off, int64_t n, const void *buf)
{
  char    path[256];
  hsize_t dims[2] = {(hsize_t)rows, (hsize_t)cols}, maxd[2] = {H5S_UNLIMITED, (hsize_t)cols}, chunk[2] = {cols ? 256 : 1024, (hsize_t)cols};
  hid_t   d;
  htri_t  exists;
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s", gpath, name));
  MbH5Get(exists, H5Lexists, (loc, name, H5P_DEFAULT), path);
  if (!exists) {
    hid_t fs, dcpl;
    MbH5Get(dcpl, H5Pcreate, (H5P_DATASET_CREATE), path);
    MbH5Call(H5Pset_chunk, (dcpl, cols ? 2 : 1, chunk), path);
    MbH5Get(fs, H5Screate_simple, (cols ? 2 : 1, dims, maxd), path);
    MbH5Get(d, H5Dcreate2, (loc, name, type, fs, H5P_DEFAULT, dcpl, H5P_DEFAULT), path);
    MbH5Call(H5Sclose, (fs), path);
    MbH5Call(H5Pclose, (dcpl), path);
  } else {
    MbH5Get(d, H5Dopen2, (loc, name, H5P_DEFAULT), path);
    MbH5Call(H5Dset_extent, (d, dims), path);
  }
  PetscCall(WriteRows(out, d, path, type, cols, rows, off, n, buf));
  MbH5Call(H5Dclose, (d), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Read the whole 1-D or 2-D dataset path of file as type (converted by HDF5); *rows, *cols
   (0 for 1-D) and a buffer of elemsize bytes per element, to PetscFree. Collective (every
   rank reads). */
PetscErrorCode MbH5ReadAll(MbOutput out, hid_t file, const char *path, hid_t type, size_t elemsize, int64_t *rows, int *cols, void **buf)
{
  hid_t   d, fs;
  hsize_t dims[2] = {0, 0};
  int     nd;
  size_t  n;
  PetscFunctionBegin;
  MbH5Get(d, H5Dopen2, (file, path, H5P_DEFAULT), path);
  MbH5Get(fs, H5Dget_space, (d), path);
  MbH5Get(nd, H5Sget_simple_extent_ndims, (fs), path);
  PetscCheck(nd == 1 || nd == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "dataset '%s' has %d dimensions; expected 1 or 2", path, nd);
  MbH5Call(H5Sget_simple_extent_dims, (fs, dims, NULL), path);
  *rows = (int64_t)dims[0];
  *cols = nd == 2 ? (int)dims[1] : 0;
  n     = (size_t)dims[0] * (nd == 2 ? (size_t)dims[1] : 1);
  PetscCall(PetscMalloc(PetscMax(n, 1) * elemsize, buf));
  if (n) MbH5Call(H5Dread, (d, type, H5S_ALL, H5S_ALL, out->dxpl, *buf), path);
  MbH5Call(H5Sclose, (fs), path);
  MbH5Call(H5Dclose, (d), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ReadAll(MbOutput out, const char *path, hid_t type, size_t elemsize, int64_t *rows, int *cols, void **buf) { return MbH5ReadAll(out, out->file, path, type, elemsize, rows, cols, buf); }

/* Read rows [row, row + n) of the rows × cols dataset path (cols 0: 1-D) as doubles into
   v. Collective. */
static PetscErrorCode ReadRows(MbOutput out, const char *path, int64_t row, int64_t n, int cols, PetscReal v[])
{
  hid_t   d, fs, ms;
  hsize_t start[2] = {(hsize_t)row, 0}, count[2] = {(hsize_t)n, (hsize_t)cols};
  PetscFunctionBegin;
  MbH5Get(d, H5Dopen2, (out->file, path, H5P_DEFAULT), path);
  MbH5Get(fs, H5Dget_space, (d), path);
  MbH5Get(ms, H5Screate_simple, (cols ? 2 : 1, count, NULL), path);
  MbH5Call(H5Sselect_hyperslab, (fs, H5S_SELECT_SET, start, NULL, count, NULL), path);
  MbH5Call(H5Dread, (d, H5T_NATIVE_DOUBLE, ms, fs, out->dxpl, v), path);
  MbH5Call(H5Sclose, (ms), path);
  MbH5Call(H5Sclose, (fs), path);
  MbH5Call(H5Dclose, (d), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The attribute name of loc as type into v. */
PetscErrorCode MbH5ReadAttr(hid_t loc, const char *name, hid_t type, void *v, const char *path)
{
  hid_t a;
  PetscFunctionBegin;
  MbH5Get(a, H5Aopen, (loc, name, H5P_DEFAULT), path);
  MbH5Call(H5Aread, (a, type, v), path);
  MbH5Call(H5Aclose, (a), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- local geometry */

/* The drawn surface of primitive p (not a sphere): a convex's faces, or an ellipsoid's facets
   (MbEllipsoidFacets: points u of the unit sphere, drawn at c + L u). */
static PetscErrorCode PrimSurface(MbShape shape, PetscInt p, PetscInt *nv, const PetscReal **u, PetscInt *nf, const PetscInt **fptr, const PetscInt **fv)
{
  MbPrimKind       kind;
  const PetscReal *uu;
  const PetscInt  *fp, *fvv;
  PetscFunctionBegin;
  PetscCall(MbShapeGetPrimKind(shape, p, &kind));
  if (kind == MB_PRIM_ELLIPSOID) {
    MbEllipsoidFacets(nv, &uu, nf, &fp, &fvv);
    if (u) *u = uu;
  } else
    PetscCall(MbShapeGetConvex(shape, p, nv, u, nf, &fp, &fvv, NULL));
  if (fptr) *fptr = fp;
  if (fv) *fv = fvv;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Cells and topology entries of one polygon of k vertices: itself up to a quadrilateral,
   a fan of k − 2 triangles beyond. */
static void PolygonSize(PetscInt k, int64_t *cells, int64_t *topo)
{
  if (k <= 4) {
    *cells += 1;
    *topo += 1 + k;
  } else {
    *cells += k - 2;
    *topo += 4 * (k - 2);
  }
}

static PetscErrorCode LocalCounts(MbOutput out, int64_t c[C_N])
{
  PetscInt nb, np;
  MbBody  *bodies;
  PetscFunctionBegin;
  for (int k = 0; k < C_N; k++) c[k] = 0;
  PetscCall(MbDomainGetBodies(out->dom, &nb, &bodies));
  c[C_BODY] = nb;
  for (PetscInt i = 0; i < nb; i++) {
    MbShape shape;
    PetscCall(MbBodyGetShape(bodies[i], &shape));
    PetscCall(MbShapeGetSize(shape, &np));
    for (PetscInt p = 0; p < np; p++) {
      MbPrimKind      kind;
      PetscInt        nv, nf;
      const PetscInt *fptr;
      PetscCall(MbShapeGetPrimKind(shape, p, &kind));
      if (kind == MB_PRIM_SPHERE) {
        c[C_SPH]++;
        continue;
      }
      PetscCall(PrimSurface(shape, p, &nv, NULL, &nf, &fptr, NULL));
      c[C_PTS] += nv;
      for (PetscInt f = 0; f < nf; f++) PolygonSize(fptr[f + 1] - fptr[f], &c[C_CELLS], &c[C_TOPO]);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- writing */

/* /bodies rows for the bodies created since the last call (ids >= out->body_ids). */
static PetscErrorCode WriteBodies(MbOutput out)
{
  PetscInt   nb, nglobal, n = 0;
  MbBody    *bodies;
  int64_t    ln, off = 0, tot, *id;
  int32_t   *kind;
  PetscReal *mass, *vol, *cen;
  char(*lab)[MB_LABEL_LEN];
  hid_t g;
  PetscFunctionBegin;
  PetscCall(MbDomainGetGlobalBodyCount(out->dom, &nglobal));
  if (nglobal <= out->body_ids) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbDomainGetBodies(out->dom, &nb, &bodies));
  PetscCall(PetscMalloc6(nb, &id, nb, &kind, nb, &mass, nb, &vol, 3 * nb, &cen, nb, &lab));
  for (PetscInt i = 0; i < nb; i++) {
    PetscInt    bid, k;
    MbMassProps mp;
    const char *label;
    PetscCall(MbBodyGetId(bodies[i], &bid));
    if (bid < out->body_ids) continue;
    PetscCall(MbBodyGetKindCode(bodies[i], &k));
    PetscCall(MbBodyGetMassProps(bodies[i], &mp));
    PetscCall(MbBodyGetLabel(bodies[i], &label));
    id[n]   = bid;
    kind[n] = (int32_t)k;
    mass[n] = mp.mass;
    vol[n]  = mp.volume;
    MbV3Copy(mp.center, &cen[3 * n]);
    memset(lab[n], 0, MB_LABEL_LEN);
    if (label) strncpy(lab[n], label, MB_LABEL_LEN - 1);
    n++;
  }
  ln = n;
  PetscCallMPI(MPI_Exscan(&ln, &off, 1, MPI_INT64_T, MPI_SUM, out->comm));
  if (out->rank == 0) off = 0;
  PetscCallMPI(MPI_Allreduce(&ln, &tot, 1, MPI_INT64_T, MPI_SUM, out->comm));
  off += out->body_rows;
  tot += out->body_rows;
  MbH5Get(g, H5Gopen2, (out->file, "/bodies", H5P_DEFAULT), "/bodies");
  PetscCall(AppendRows(out, g, "/bodies", "id", H5T_NATIVE_INT64, 0, tot, off, ln, id));
  PetscCall(AppendRows(out, g, "/bodies", "kind", H5T_NATIVE_INT32, 0, tot, off, ln, kind));
  PetscCall(AppendRows(out, g, "/bodies", "mass", H5T_NATIVE_DOUBLE, 0, tot, off, ln, mass));
  PetscCall(AppendRows(out, g, "/bodies", "volume", H5T_NATIVE_DOUBLE, 0, tot, off, ln, vol));
  PetscCall(AppendRows(out, g, "/bodies", "center", H5T_NATIVE_DOUBLE, 3, tot, off, ln, cen));
  PetscCall(AppendRows(out, g, "/bodies", "label", out->label_type, 0, tot, off, ln, lab));
  MbH5Call(H5Gclose, (g), "/bodies");
  PetscCall(PetscFree6(id, kind, mass, vol, cen, lab));
  out->body_rows = tot;
  out->body_ids  = nglobal;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Is the local layout (bodies and their order) that of the current mesh? Collective. */
static PetscErrorCode LayoutChanged(MbOutput out, PetscBool *changed)
{
  PetscInt nb;
  MbBody  *bodies;
  int      l = 0, g;
  PetscFunctionBegin;
  PetscCall(MbDomainGetBodies(out->dom, &nb, &bodies));
  if (out->nmesh == 0 || nb != out->lay_n) l = 1;
  for (PetscInt i = 0; i < nb && !l; i++) {
    PetscInt id;
    PetscCall(MbBodyGetId(bodies[i], &id));
    if (id != out->lay_id[i]) l = 1;
  }
  PetscCallMPI(MPI_Allreduce(&l, &g, 1, MPI_INT, MPI_MAX, out->comm));
  *changed = g ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /mesh/MMMMMM: the static part of the geometry for the current layout of bodies. */
static PetscErrorCode WriteMesh(MbOutput out, const int64_t c[C_N], const int64_t off[C_N], const int64_t tot[C_N])
{
  PetscInt   nb, m = out->nmesh;
  MbBody    *bodies;
  int64_t   *topo, *cbody, *sbody, t = 0, cl = 0, s = 0, pt = off[C_PTS];
  PetscReal *srad;
  char       path[64];
  hid_t      g;
  PetscFunctionBegin;
  PetscCall(MbDomainGetBodies(out->dom, &nb, &bodies));
  PetscCall(PetscMalloc4(c[C_TOPO], &topo, c[C_CELLS], &cbody, c[C_SPH], &sbody, c[C_SPH], &srad));
  for (PetscInt i = 0; i < nb; i++) {
    MbShape  shape;
    PetscInt id, np;
    PetscCall(MbBodyGetId(bodies[i], &id));
    PetscCall(MbBodyGetShape(bodies[i], &shape));
    PetscCall(MbShapeGetSize(shape, &np));
    for (PetscInt p = 0; p < np; p++) {
      MbPrimKind      kind;
      PetscInt        nv, nf;
      const PetscInt *fptr, *fv;
      PetscCall(MbShapeGetPrimKind(shape, p, &kind));
      if (kind == MB_PRIM_SPHERE) {
        PetscReal ctr[3];
        PetscCall(MbShapeGetSphere(shape, p, ctr, &srad[s]));
        sbody[s++] = id;
        continue;
      }
      PetscCall(PrimSurface(shape, p, &nv, NULL, &nf, &fptr, &fv));
      for (PetscInt f = 0; f < nf; f++) {
        PetscInt        k    = fptr[f + 1] - fptr[f];
        const PetscInt *loop = &fv[fptr[f]];
        if (k <= 4) {
          topo[t++] = k == 3 ? XDMF_TRIANGLE : XDMF_QUADRILATERAL;
          for (PetscInt j = 0; j < k; j++) topo[t++] = pt + loop[j];
          cbody[cl++] = id;
        } else
          for (PetscInt j = 1; j + 1 < k; j++) { /* fan from the first vertex */
            topo[t++]   = XDMF_TRIANGLE;
            topo[t++]   = pt + loop[0];
            topo[t++]   = pt + loop[j];
            topo[t++]   = pt + loop[j + 1];
            cbody[cl++] = id;
          }
      }
      pt += nv;
    }
  }
  PetscCheck(t == c[C_TOPO] && cl == c[C_CELLS] && s == c[C_SPH], PETSC_COMM_SELF, PETSC_ERR_PLIB, "mesh sizes changed while writing: topology %lld of %lld", (long long)t, (long long)c[C_TOPO]);
  PetscCall(PetscSNPrintf(path, sizeof(path), "/mesh/%06d", (int)m));
  MbH5Get(g, H5Gcreate2, (out->file, path, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), path);
  PetscCall(MbH5WriteAttrInt(g, "bodies", tot[C_BODY], path));
  PetscCall(MbH5WriteAttrInt(g, "points", tot[C_PTS], path));
  PetscCall(MbH5WriteAttrInt(g, "cells", tot[C_CELLS], path));
  PetscCall(MbH5WriteAttrInt(g, "spheres", tot[C_SPH], path));
  PetscCall(MbH5WriteDataset(out, g, path, "surface_topology", H5T_NATIVE_INT64, 0, tot[C_TOPO], off[C_TOPO], c[C_TOPO], topo));
  PetscCall(MbH5WriteDataset(out, g, path, "surface_body", H5T_NATIVE_INT64, 0, tot[C_CELLS], off[C_CELLS], c[C_CELLS], cbody));
  PetscCall(MbH5WriteDataset(out, g, path, "sphere_body", H5T_NATIVE_INT64, 0, tot[C_SPH], off[C_SPH], c[C_SPH], sbody));
  PetscCall(MbH5WriteDataset(out, g, path, "sphere_radius", H5T_NATIVE_DOUBLE, 0, tot[C_SPH], off[C_SPH], c[C_SPH], srad));
  MbH5Call(H5Gclose, (g), path);
  PetscCall(PetscFree4(topo, cbody, sbody, srad));
  /* remember the layout this mesh is for */
  PetscCall(PetscFree(out->lay_id));
  PetscCall(PetscMalloc1(nb, &out->lay_id));
  for (PetscInt i = 0; i < nb; i++) PetscCall(MbBodyGetId(bodies[i], &out->lay_id[i]));
  out->lay_n = nb;
  if (out->nmesh == out->mcap) {
    out->mcap = out->mcap ? 2 * out->mcap : 4;
    PetscCall(PetscRealloc(sizeof(MbOutMesh) * out->mcap, &out->mesh));
  }
  out->mesh[m].nbody  = tot[C_BODY];
  out->mesh[m].npts   = tot[C_PTS];
  out->mesh[m].ncells = tot[C_CELLS];
  out->mesh[m].ntopo  = tot[C_TOPO];
  out->mesh[m].nsph   = tot[C_SPH];
  out->nmesh++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* /history: append the records not yet written. Collective; rank 0 writes the values
   (the records are the same on every rank, but for their wall time). */
static PetscErrorCode WriteHistory(MbOutput out)
{
  PetscInt         n, k;
  const MbHistory *h;
  void            *buf;
  hid_t            g;
  PetscFunctionBegin;
  if (!out->dom) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbDomainGetHistory(out->dom, &n, &h));
  if (n <= out->nhist) PetscFunctionReturn(PETSC_SUCCESS);
  k = n - out->nhist;
  PetscCall(PetscMalloc(sizeof(double) * k, &buf));
  MbH5Get(g, H5Gopen2, (out->file, "/history", H5P_DEFAULT), "/history");
  for (int i = 0; i < NHIST; i++) {
    const HistItem *it = &HistItems[i];
    for (PetscInt j = 0; j < k; j++) {
      double v = HistValue(&h[out->nhist + j], it);
      if (it->isint)
        ((int64_t *)buf)[j] = (int64_t)v;
      else
        ((double *)buf)[j] = v;
    }
    PetscCall(AppendRows(out, g, "/history", it->name, it->isint ? H5T_NATIVE_INT64 : H5T_NATIVE_DOUBLE, 0, n, out->nhist, out->rank == 0 ? k : 0, buf));
  }
  MbH5Call(H5Gclose, (g), "/history");
  PetscCall(PetscFree(buf));
  out->nhist = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The results file's metadata cache, in bytes of the file: its fixed size (clean entries
   are evicted past it), and the size at which Publish flushes the dirty ones even before
   -mb_output_flush's seconds have passed, which bounds the memory that frames written
   between two flushes hold: 1 MB of it is ~4,000 entries, ~18 MB (~100 frames). */
#define MB_MDC_SIZE (512 << 10)
#define MB_MDC_PUBLISH (1 << 20)

PetscErrorCode MbOutputCacheConfig(hid_t fapl, const char *path)
{
  H5AC_cache_config_t cc;
  PetscFunctionBegin;
  memset(&cc, 0, sizeof(cc));
  cc.version = H5AC__CURR_CACHE_CONFIG_VERSION;
  MbH5Call(H5Pget_mdc_config, (fapl, &cc), path);
  /* parallel HDF5 writes dirty metadata only at sync points: at a flush, and whenever the
     dirty metadata passes dirty_bytes_threshold (256 kB by default, a few hundred small
     frames). A sync point between two flushes rewrites the file's groups on disk under the
     index of the last flush (a run killed then lost frames the .xmf named); with a
     threshold far above what Publish lets pile up (MB_MDC_PUBLISH), the disk holds the last
     flush's file until the next flush. Dirty entries are kept past max_size until then.
     The cache's size counts the entries' bytes in the file, but a frame's dataset header
     of ~370 bytes takes ~4.5 kB in memory (its decoded messages): a cache left to grow to
     4 MB (its old initial size, adaptive up to 32 MB) held 16,000 headers of frames never
     read again, 60 MB, and the churn behind it fragmented the heap by another 40 MB over
     2,000 frames (issue 23). What is read back is the /frames group's B-tree, symbol
     nodes and name heap, /history and /mesh: a fixed 512 kB holds them. */
  cc.set_initial_size      = 1;
  cc.initial_size          = MB_MDC_SIZE;
  cc.min_size              = MB_MDC_SIZE;
  cc.max_size              = MB_MDC_SIZE;
  cc.incr_mode             = H5C_incr__off;
  cc.flash_incr_mode       = H5C_flash_incr__off;
  cc.decr_mode             = H5C_decr__off;
  cc.dirty_bytes_threshold = 24 << 20;
  MbH5Call(H5Pset_mdc_config, (fapl, &cc), path);
  /* metadata is placed in the file from blocks of this size: with HDF5's 2 kB, a frame's
     ~9 kB of headers took five, and the unused end of each was freed into a fragment that
     HDF5 lists in memory for the rest of the run (~0.7 kB a frame: 10,000 frames of 8
     spheres held 7.6 MB more than 2,000, now 1.9 MB; their Output phase took 25.6 s, now
     15.6-20 s on a loaded VM) */
  MbH5Call(H5Pset_meta_block_size, (fapl, 64 << 10), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Make what was written since the last call readable by others: the /history rows, the
   flush of the HDF5 file, then the frames' entries in the XDMF index (so the index never
   names a frame the file on disk may not hold). A flush of a parallel HDF5 file costs a
   walk of its metadata cache (H5C_apply_candidate_list: 40 % of a run of small frames,
   and it grew from 3.6 to 7 ms a frame over 3000 frames when made after every frame), so
   it is made when rank 0 has seen out->flush_wall seconds pass since the last one (-mb_output_flush,
   default 1 s; 0: after every frame), or when forced (the first frame, a checkpoint, the
   end of a RUN, closing), or when the metadata cache has reached MB_MDC_PUBLISH (fast
   frames: a second of them held 60 MB). A run killed in between leaves the frames of the
   last flush readable. Collective. */
static PetscErrorCode Publish(MbOutput out, PetscBool force)
{
  PetscLogDouble now;
  int            go;
  PetscFunctionBegin;
  if (out->readonly) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscTime(&now));
  go = force || out->flush_wall <= 0 || now - out->last_flush >= out->flush_wall ? 1 : 0;
  if (!go && out->rank == 0) { /* a failed query leaves it to the clock: no error on one rank only */
    size_t mdc = 0;
    if (H5Fget_mdc_size(out->file, NULL, NULL, &mdc, NULL) >= 0 && mdc >= MB_MDC_PUBLISH) go = 1;
  }
  PetscCallMPI(MPI_Bcast(&go, 1, MPI_INT, 0, out->comm)); /* rank 0 decides */
  if (!go) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(WriteHistory(out));
  MbH5Call(H5Fflush, (out->file, H5F_SCOPE_GLOBAL), out->h5);
  for (; out->xdone < out->nframe; out->xdone++) PetscCall(MbXdmfAddFrame(out, out->xdone));
  out->last_flush = now;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The whole q and u of the bodies with a nodal state (MbBodyPointDofs: finite-element
   ones), which HISTORY interpolates at a point: "nodal_state", every such body's q then u,
   rank after rank, and per body row "nodal_offset", the offsets of its q and u in it (−1,
   −1 for the other bodies). Collective. */
static PetscErrorCode WriteNodalState(MbOutput out, hid_t g, const char *path, PetscInt nb, MbBody *bodies, int64_t nbtot, int64_t nboff)
{
  int64_t    cnt = 0, off = 0, tot = 0, *offs, k = 0;
  PetscReal *val;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < nb; i++) {
    PetscInt  nq, nu, n;
    PetscBool has;
    PetscCall(MbBodyPointDofs(bodies[i], NULL, &n, NULL, &has));
    if (!has) continue;
    PetscCall(MbBodyGetSizes(bodies[i], &nq, &nu));
    cnt += nq + nu;
  }
  PetscCallMPI(MPI_Exscan(&cnt, &off, 1, MPI_INT64_T, MPI_SUM, out->comm));
  if (out->rank == 0) off = 0;
  PetscCallMPI(MPI_Allreduce(&cnt, &tot, 1, MPI_INT64_T, MPI_SUM, out->comm));
  PetscCall(PetscMalloc2(2 * nb + 1, &offs, cnt + 1, &val));
  for (PetscInt i = 0; i < nb; i++) {
    PetscInt   nq, nu, n;
    PetscBool  has;
    PetscReal *q, *u;
    PetscCall(MbBodyPointDofs(bodies[i], NULL, &n, NULL, &has));
    offs[2 * i] = offs[2 * i + 1] = -1;
    if (!has) continue;
    PetscCall(MbBodyGetSizes(bodies[i], &nq, &nu));
    PetscCall(MbBodyGetState(bodies[i], &q, &u));
    offs[2 * i] = off + k;
    PetscCall(PetscArraycpy(&val[k], q, nq));
    k += nq;
    offs[2 * i + 1] = off + k;
    PetscCall(PetscArraycpy(&val[k], u, nu));
    k += nu;
  }
  PetscCall(MbH5WriteDataset(out, g, path, "nodal_offset", H5T_NATIVE_INT64, 2, nbtot, nboff, nb, offs));
  PetscCall(MbH5WriteDataset(out, g, path, "nodal_state", H5T_NATIVE_DOUBLE, 0, tot, off, cnt, val));
  PetscCall(PetscFree2(offs, val));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The per-body and per-surface arrays of one frame, this rank's part (GatherFrame). */
typedef struct {
  int64_t   *id;     /* body ids */
  PetscReal *conf;   /* 12 per body */
  PetscReal *velo;   /* 6 per body */
  PetscReal *aff;    /* 24 per body (MbBodyGetAffine) */
  PetscReal *stress; /* 6 per body, Voigt order */
  PetscReal *pts;    /* 3 per surface point */
  PetscReal *pdis;   /* 3 per surface point: its displacement */
  PetscReal *pvel;   /* 3 per surface point: its velocity */
  PetscReal *cvel;   /* 3 per surface cell: the mass centre's velocity */
  PetscReal *cmis;   /* 1 per surface cell: its piece's von Mises stress */
  PetscReal *cstr;   /* 6 per surface cell: its piece's stress */
  PetscReal *sc;     /* 3 per sphere: centre */
  PetscReal *sv;     /* 3 per sphere: velocity */
  PetscReal *smis;   /* 1 per sphere: its body's von Mises stress */
} FrameData;

/* A stress in Voigt order xx, yy, zz, xy, yz, zx, and its von Mises value √(3/2 s:s), s the deviator. */
static void StressVoigt(const PetscReal sig[9], PetscReal v[6], PetscReal *mises)
{
  PetscReal p = (sig[0] + sig[4] + sig[8]) / 3, ss = 0;
  v[0] = sig[0], v[1] = sig[4], v[2] = sig[8], v[3] = sig[1], v[4] = sig[5], v[5] = sig[6];
  for (int k = 0; k < 9; k++) ss += PetscSqr(sig[k] - (k % 4 == 0 ? p : 0));
  *mises = PetscSqrtReal(1.5 * ss);
}

/* The arrays of one frame (allocated here, freed by WriteFrameData) from this rank's nb
   bodies: state, stress, and per primitive the sphere centres or the convex surface's
   points and cells. c: this rank's counts (LocalCounts). */
static PetscErrorCode GatherFrame(PetscInt nb, MbBody *bodies, const int64_t c[C_N], FrameData *d)
{
  int64_t p = 0, cl = 0, s = 0;
  PetscFunctionBegin;
  PetscCall(PetscMalloc7(nb, &d->id, 12 * nb, &d->conf, 6 * nb, &d->velo, 3 * c[C_PTS], &d->pts, 3 * c[C_CELLS], &d->cvel, 3 * c[C_SPH], &d->sc, 3 * c[C_SPH], &d->sv));
  PetscCall(PetscMalloc4(6 * nb, &d->stress, c[C_CELLS] + 1, &d->cmis, c[C_SPH] + 1, &d->smis, 24 * nb, &d->aff));
  PetscCall(PetscMalloc3(3 * c[C_PTS] + 1, &d->pdis, 3 * c[C_PTS] + 1, &d->pvel, 6 * c[C_CELLS] + 1, &d->cstr));
  for (PetscInt i = 0; i < nb; i++) {
    MbBody    b = bodies[i];
    MbShape   shape;
    PetscInt  bid, np;
    PetscReal vc[3], sig[9], mises;
    PetscBool has;
    PetscCall(MbBodyGetId(b, &bid));
    d->id[i] = bid;
    PetscCall(MbBodyGetFrameState(b, &d->conf[12 * i], &d->velo[6 * i]));
    PetscCall(MbBodyGetAffine(b, &d->aff[24 * i]));
    MbV3Copy(&d->velo[6 * i + 3], vc); /* the cells carry the mass centre's velocity (a hollow body's centre lies outside its mesh: not a point of it) */
    PetscCall(MbBodyGetStress(b, sig, &has));
    StressVoigt(sig, &d->stress[6 * i], &mises);
    PetscCall(MbBodyGetShape(b, &shape));
    PetscCall(MbShapeGetSize(shape, &np));
    for (PetscInt k = 0; k < np; k++) {
      MbPrimKind       kind;
      PetscInt         nv, nf;
      const PetscReal *v;
      const PetscInt  *fptr;
      PetscCall(MbShapeGetPrimKind(shape, k, &kind));
      if (kind == MB_PRIM_SPHERE) {
        PetscReal ctr[3], r;
        PetscCall(MbShapeGetSphere(shape, k, ctr, &r));
        PetscCall(MbBodyPointToSpatial(b, ctr, &d->sc[3 * s]));
        PetscCall(MbBodyPointVelocity(b, ctr, &d->sv[3 * s]));
        d->smis[s] = mises;
        s++;
        continue;
      }
      if (kind == MB_PRIM_ELLIPSOID) { /* the facets' points c + L u, placed by the body's motion of the centre and the semi-axes' ends */
        const PetscReal *u;
        PetscReal        c0[3], L0[9], x[12], L[9], X[3];
        PetscCall(PrimSurface(shape, k, &nv, &u, &nf, &fptr, NULL));
        PetscCall(MbShapeGetEllipsoid(shape, k, c0, L0, NULL));
        PetscCall(MbBodyPrimToSpatial(b, k, x));
        MbEllipsoidFromPoints(x, L);
        for (PetscInt j = 0; j < nv; j++) {
          PetscReal *xs = &d->pts[3 * (p + j)];
          MbM3Mult(L, &u[3 * j], xs);
          MbV3Add(xs, x, xs);
          MbM3Mult(L0, &u[3 * j], X);
          MbV3Add(X, c0, X);
          MbV3Sub(xs, X, &d->pdis[3 * (p + j)]);
          PetscCall(MbBodyPointVelocity(b, X, &d->pvel[3 * (p + j)]));
        }
      } else {
        PetscCall(MbShapeGetConvex(shape, k, &nv, &v, &nf, &fptr, NULL, NULL));
        PetscCall(MbBodyPrimToSpatial(b, k, &d->pts[3 * p]));
        PetscCall(MbBodyPrimVelocity(b, k, &d->pvel[3 * p]));
        for (PetscInt j = 0; j < 3 * nv; j++) d->pdis[3 * p + j] = d->pts[3 * p + j] - v[j];
      }
      p += nv;
      { /* the cells carry their piece's stress (an element's; the body's for the others) */
        PetscReal ps[9], pc[6], pm;
        PetscCall(MbBodyPrimStress(b, k, ps));
        StressVoigt(ps, pc, &pm);
        for (PetscInt j = 0; j < nf; j++) {
          int64_t nc = 0, nt = 0;
          PolygonSize(fptr[j + 1] - fptr[j], &nc, &nt);
          for (int64_t e = 0; e < nc; e++) {
            d->cmis[cl] = pm;
            for (int q = 0; q < 6; q++) d->cstr[6 * cl + q] = pc[q];
            MbV3Copy(vc, &d->cvel[3 * cl++]);
          }
        }
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The group of a frame, path /frames/NNNNNN. */
static PetscErrorCode CreateFrameGroup(MbOutput out, const char path[], hid_t *g)
{
  hid_t gcpl;
  PetscFunctionBegin;
  /* the group's name heap made at once big enough for its 23 dataset names (344 bytes):
     grown from HDF5's default (a few names), it moved in the file 2-3 times a frame, and
     HDF5 lists every fragment so freed in memory for the rest of the run */
  MbH5Get(gcpl, H5Pcreate, (H5P_GROUP_CREATE), path);
  MbH5Call(H5Pset_local_heap_size_hint, (gcpl, 512), path);
  MbH5Get(*g, H5Gcreate2, (out->file, path, H5P_DEFAULT, gcpl, H5P_DEFAULT), path);
  MbH5Call(H5Pclose, (gcpl), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* GatherFrame's arrays written into the frame's group g, then freed. c, off, tot: this
   rank's counts, its offsets and the totals. Collective. */
static PetscErrorCode WriteFrameData(MbOutput out, hid_t g, const char path[], const int64_t c[C_N], const int64_t off[C_N], const int64_t tot[C_N], FrameData *d)
{
  PetscFunctionBegin;
  PetscCall(MbH5WriteDataset(out, g, path, "id", H5T_NATIVE_INT64, 0, tot[C_BODY], off[C_BODY], c[C_BODY], d->id));
  PetscCall(MbH5WriteDataset(out, g, path, "conf", H5T_NATIVE_DOUBLE, 12, tot[C_BODY], off[C_BODY], c[C_BODY], d->conf));
  PetscCall(MbH5WriteDataset(out, g, path, "velo", H5T_NATIVE_DOUBLE, 6, tot[C_BODY], off[C_BODY], c[C_BODY], d->velo));
  PetscCall(MbH5WriteDataset(out, g, path, "surface_points", H5T_NATIVE_DOUBLE, 3, tot[C_PTS], off[C_PTS], c[C_PTS], d->pts));
  PetscCall(MbH5WriteDataset(out, g, path, "surface_velo", H5T_NATIVE_DOUBLE, 3, tot[C_CELLS], off[C_CELLS], c[C_CELLS], d->cvel));
  PetscCall(MbH5WriteDataset(out, g, path, "sphere_center", H5T_NATIVE_DOUBLE, 3, tot[C_SPH], off[C_SPH], c[C_SPH], d->sc));
  PetscCall(MbH5WriteDataset(out, g, path, "sphere_velo", H5T_NATIVE_DOUBLE, 3, tot[C_SPH], off[C_SPH], c[C_SPH], d->sv));
  PetscCall(MbH5WriteDataset(out, g, path, "stress", H5T_NATIVE_DOUBLE, 6, tot[C_BODY], off[C_BODY], c[C_BODY], d->stress));
  PetscCall(MbH5WriteDataset(out, g, path, "surface_mises", H5T_NATIVE_DOUBLE, 0, tot[C_CELLS], off[C_CELLS], c[C_CELLS], d->cmis));
  PetscCall(MbH5WriteDataset(out, g, path, "sphere_mises", H5T_NATIVE_DOUBLE, 0, tot[C_SPH], off[C_SPH], c[C_SPH], d->smis));
  PetscCall(MbH5WriteDataset(out, g, path, "surface_displacement", H5T_NATIVE_DOUBLE, 3, tot[C_PTS], off[C_PTS], c[C_PTS], d->pdis));
  PetscCall(MbH5WriteDataset(out, g, path, "surface_point_velo", H5T_NATIVE_DOUBLE, 3, tot[C_PTS], off[C_PTS], c[C_PTS], d->pvel));
  PetscCall(MbH5WriteDataset(out, g, path, "surface_stress", H5T_NATIVE_DOUBLE, 6, tot[C_CELLS], off[C_CELLS], c[C_CELLS], d->cstr));
  PetscCall(MbH5WriteDataset(out, g, path, "affine", H5T_NATIVE_DOUBLE, 24, tot[C_BODY], off[C_BODY], c[C_BODY], d->aff));
  PetscCall(PetscFree3(d->pdis, d->pvel, d->cstr));
  PetscCall(PetscFree7(d->id, d->conf, d->velo, d->pts, d->cvel, d->sc, d->sv));
  PetscCall(PetscFree4(d->stress, d->cmis, d->smis, d->aff));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Per body: kinetic and strain energy, work of external forces (HISTORY's per-body
   energies; contact and friction work are kept only in sum, in /history). Collective. */
static PetscErrorCode WriteBodyEnergies(MbOutput out, hid_t g, const char path[], PetscInt nb, MbBody *bodies, int64_t nbtot, int64_t nboff)
{
  PetscReal *en;
  PetscFunctionBegin;
  PetscCall(PetscMalloc1(3 * nb + 1, &en));
  for (PetscInt i = 0; i < nb; i++) {
    MbEnergy e;
    PetscInt bid;
    PetscCall(MbBodyGetId(bodies[i], &bid));
    PetscCall(MbDomainGetBodyEnergy(out->dom, bid, &e));
    en[3 * i] = e.kinetic, en[3 * i + 1] = e.internal, en[3 * i + 2] = e.external;
  }
  PetscCall(MbH5WriteDataset(out, g, path, "energy", H5T_NATIVE_DOUBLE, 3, nbtot, nboff, nb, en));
  PetscCall(PetscFree(en));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Room in out->frame for the entry of frame out->nframe. */
static PetscErrorCode GrowFrames(MbOutput out)
{
  PetscFunctionBegin;
  if (out->nframe == out->fcap) {
    out->fcap = out->fcap ? 2 * out->fcap : 64;
    PetscCall(PetscRealloc(sizeof(MbOutFrame) * out->fcap, &out->frame));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The constraints each rank owns: point, normal, reaction force, kind, bodies, gap; their
   total kept as frame f's ncon. Collective. */
static PetscErrorCode WriteFrameConstraints(MbOutput out, hid_t g, const char path[], PetscInt f)
{
  MbConstraintInfo *ci;
  PetscInt          nci;
  int64_t           nc, cof = 0, ctot;
  PetscReal        *cp, *cn, *cf, *cg;
  int64_t          *ck, *cb;
  PetscFunctionBegin;
  PetscCall(MbDomainGetConstraints(out->dom, &nci, &ci));
  nc = nci;
  PetscCallMPI(MPI_Exscan(&nc, &cof, 1, MPI_INT64_T, MPI_SUM, out->comm));
  if (out->rank == 0) cof = 0;
  PetscCallMPI(MPI_Allreduce(&nc, &ctot, 1, MPI_INT64_T, MPI_SUM, out->comm));
  PetscCall(PetscMalloc6(3 * nc + 1, &cp, 3 * nc + 1, &cn, 3 * nc + 1, &cf, nc + 1, &cg, nc + 1, &ck, 2 * nc + 1, &cb));
  for (int64_t k = 0; k < nc; k++) {
    MbV3Copy(ci[k].point, &cp[3 * k]);
    MbV3Copy(ci[k].normal, &cn[3 * k]);
    MbV3Copy(ci[k].force, &cf[3 * k]);
    cg[k]         = ci[k].gap;
    ck[k]         = ci[k].kind;
    cb[2 * k]     = ci[k].body[0];
    cb[2 * k + 1] = ci[k].body[1];
  }
  PetscCall(MbH5WriteDataset(out, g, path, "contact_point", H5T_NATIVE_DOUBLE, 3, ctot, cof, nc, cp));
  PetscCall(MbH5WriteDataset(out, g, path, "contact_normal", H5T_NATIVE_DOUBLE, 3, ctot, cof, nc, cn));
  PetscCall(MbH5WriteDataset(out, g, path, "contact_force", H5T_NATIVE_DOUBLE, 3, ctot, cof, nc, cf));
  PetscCall(MbH5WriteDataset(out, g, path, "contact_gap", H5T_NATIVE_DOUBLE, 0, ctot, cof, nc, cg));
  PetscCall(MbH5WriteDataset(out, g, path, "contact_kind", H5T_NATIVE_INT64, 0, ctot, cof, nc, ck));
  PetscCall(MbH5WriteDataset(out, g, path, "contact_bodies", H5T_NATIVE_INT64, 2, ctot, cof, nc, cb));
  PetscCall(PetscFree6(cp, cn, cf, cg, ck, cb));
  PetscCall(PetscFree(ci));
  PetscCall(GrowFrames(out));
  out->frame[f].ncon = ctot;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One frame /frames/NNNNNN of the current state, then /history and the XDMF index. */
static PetscErrorCode WriteFrame(MbOutput out)
{
  int64_t   c[C_N], off[C_N] = {0}, tot[C_N];
  PetscInt  nb, f            = out->nframe, steps;
  MbBody   *bodies;
  PetscReal t;
  PetscBool changed = PETSC_FALSE;
  char      path[64];
  hid_t     g;
  FrameData d;
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MB_PhaseEvent[MB_PHASE_OUTPUT], 0, 0, 0, 0));
  PetscCall(MbDomainGetTime(out->dom, &t));
  PetscCall(MbDomainGetStepCount(out->dom, &steps));
  PetscCall(MbDomainGetBodies(out->dom, &nb, &bodies));
  PetscCall(LocalCounts(out, c));
  PetscCallMPI(MPI_Exscan(c, off, C_N, MPI_INT64_T, MPI_SUM, out->comm));
  if (out->rank == 0)
    for (int k = 0; k < C_N; k++) off[k] = 0;
  PetscCallMPI(MPI_Allreduce(c, tot, C_N, MPI_INT64_T, MPI_SUM, out->comm));
  PetscCall(WriteBodies(out));
  PetscCall(LayoutChanged(out, &changed));
  if (changed) PetscCall(WriteMesh(out, c, off, tot));

  PetscCall(GatherFrame(nb, bodies, c, &d));
  PetscCall(PetscSNPrintf(path, sizeof(path), "/frames/%06d", (int)f));
  PetscCall(CreateFrameGroup(out, path, &g));
  PetscCall(MbH5WriteAttr(g, "time", H5T_NATIVE_DOUBLE, &t, path));
  PetscCall(MbH5WriteAttrInt(g, "steps", steps, path));
  PetscCall(MbH5WriteAttrInt(g, "mesh", out->nmesh - 1, path));
  PetscCall(WriteFrameData(out, g, path, c, off, tot, &d));
  PetscCall(WriteBodyEnergies(out, g, path, nb, bodies, tot[C_BODY], off[C_BODY]));
  PetscCall(WriteNodalState(out, g, path, nb, bodies, tot[C_BODY], off[C_BODY]));
  PetscCall(WriteFrameConstraints(out, g, path, f));
  MbH5Call(H5Gclose, (g), path);

  PetscCall(GrowFrames(out));
  out->frame[f].time = t;
  out->frame[f].mesh = out->nmesh - 1;
  out->nframe++;
  out->last_step = steps;
  PetscCall(Publish(out, f == 0 ? PETSC_TRUE : PETSC_FALSE));
  PetscCall(PetscLogEventEnd(MB_PhaseEvent[MB_PHASE_OUTPUT], 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Free bytes on the file system holding path (statvfs), or −1 when it cannot tell. */
static double FreeBytes(const char *path)
{
  struct statvfs v;
  if (statvfs(path, &v)) return -1;
  return (double)v.f_bavail * (double)v.f_frsize;
}

/* Whether the file system of out's file has room for what is about to be written (need
   bytes), decided on rank 0 for all: HDF5 does not survive a write that fails for want of
   space on some ranks only (its collective metadata flush leaves the others in a barrier
   for ever), so a full disk is caught before the write. Collective. */
PetscErrorCode MbOutputCheckRoom(MbOutput out, const char *path, double need, const char *what)
{
  double fb = 0;
  PetscFunctionBegin;
  if (out->rank == 0) fb = FreeBytes(path);
  PetscCallMPI(MPI_Bcast(&fb, 1, MPI_DOUBLE, 0, out->comm));
  PetscCallMPI(MPI_Allreduce(MPI_IN_PLACE, &need, 1, MPI_DOUBLE, MPI_MAX, out->comm)); /* one verdict: ranks may count differently */
  PetscCheck(fb < 0 || fb >= need, out->comm, PETSC_ERR_FILE_WRITE, "%s: no space left on device (%.0f kB free on its file system, about %.0f kB needed)", what, fb / 1024, need / 1024);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* An existing file of that name that another process holds open through HDF5 (which takes
   an flock on the files it opens, exclusive for writing, shared for reading; h5py and
   HDFView do) is not written over: truncated under the other process, it ended unreadable
   once that process wrote or closed it. Decided on rank 0 for all. Collective. */
static PetscErrorCode CheckNotHeld(MbOutput out, const char *what)
{
  int held = 0;
  PetscFunctionBegin;
  if (out->rank == 0) {
    int fd = open(out->h5, O_RDWR);
    if (fd >= 0) {
      if (flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK) held = 1;
      close(fd); /* and the lock with it */
    }
  }
  PetscCallMPI(MPI_Bcast(&held, 1, MPI_INT, 0, out->comm));
  PetscCheck(!held, out->comm, PETSC_ERR_FILE_WRITE, "%s: another process has it open (it holds HDF5's lock on the file): close it there, or choose another output directory", what);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- the monitor */

/* Registered with interval 0 (called after every step and at the start of each run); it
   keeps its own clock so that MbOutputSetInterval takes effect at once. A state already
   written (same step count) is not written again. */
static PetscErrorCode OutputMonitor(MbDomain dom, void *ctx, PetscBool *stop)
{
  MbOutLink *link = (MbOutLink *)ctx;
  MbOutput   out  = link->out;
  PetscReal  t, h;
  PetscInt   steps;
  PetscFunctionBegin;
  if (!out) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbDomainGetTime(dom, &t));
  PetscCall(MbDomainGetStep(dom, &h));
  PetscCall(MbDomainGetStepCount(dom, &steps));
  if (steps == out->last_step) PetscFunctionReturn(PETSC_SUCCESS);
  if (out->interval > 0 && t + 1e-9 * h < out->next) PetscFunctionReturn(PETSC_SUCCESS);
  { /* the file and frame in the message (the frames before it stay readable) */
    PetscErrorCode e;
    const char    *text;
    char          *msg    = NULL, what[PETSC_MAX_PATH_LEN + 64];
    hsize_t        before = 0, after = 0;
    PetscCall(PetscSNPrintf(what, sizeof(what), "cannot write frame %" PetscInt_FMT " of %s", out->nframe, out->h5));
    { /* twice the last frame, and the metadata the next flush writes: the frames' headers
         since the last one wait in the cache (at most all of it), and a flush that ran out
         of room left a file HDF5 could not read */
      size_t mdc = 0;
      if (H5Fget_mdc_size(out->file, NULL, NULL, &mdc, NULL) < 0) mdc = MB_MDC_PUBLISH;
      PetscCall(MbOutputCheckRoom(out, out->dir, 2.0 * out->framebytes + 65536.0 + (double)mdc, what));
    }
    (void)H5Fget_filesize(out->file, &before);
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    e = WriteFrame(out);
    PetscCall(PetscPopErrorHandler());
    if (!e && H5Fget_filesize(out->file, &after) >= 0 && after > before) out->framebytes = (double)(after - before);
    if (e) {
      (void)PetscErrorMessage(e, &text, &msg);
      SETERRQ(PETSC_COMM_SELF, e, "cannot write frame %" PetscInt_FMT " of %s: %s", out->nframe, out->h5, msg ? msg : text ? text : "an HDF5 error");
    }
  }
  if (out->interval > 0)
    while (out->next <= t + 1e-9 * h) out->next += out->interval;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The domain's flusher (ctx: the link): before a collective stop */
static PetscErrorCode OutputPublish(MbDomain dom, void *ctx)
{
  MbOutput out = ((MbOutLink *)ctx)->out;
  PetscFunctionBegin;
  if (out) PetscCall(Publish(out, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether OutputMonitor would write at (t, h): lets adaptive runs skip replaying the
   intervals between frames (src/domain/adaptive.c). */
static PetscErrorCode OutputDue(void *ctx, PetscReal t, PetscReal h, PetscBool *due)
{
  MbOutput out = ((MbOutLink *)ctx)->out;
  *due         = out && (out->interval <= 0 || t + 1e-9 * h >= out->next) ? PETSC_TRUE : PETSC_FALSE;
  return PETSC_SUCCESS;
}

/* Called by MbDomainDestroy (collectively): write the last /history records while the
   domain still exists and cut the tie; the files stay open until MbOutputDestroy. */
static PetscErrorCode OutputLinkDestroy(void *ctx)
{
  MbOutLink *link = (MbOutLink *)ctx;
  PetscFunctionBegin;
  if (link->out) {
    PetscCall(Publish(link->out, PETSC_TRUE));
    link->out->dom  = NULL;
    link->out->link = NULL;
  }
  PetscCall(PetscFree(link));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The HDF5 file of a new output: created (truncated), its transfer list and label type, the
   root attributes and the four groups, flushed. Handles are in out (−1 until made). */
static PetscErrorCode OpenFile(MbOutput out, const char name[])
{
  MPI_Comm comm = out->comm;
  hid_t    fapl, g;
  char     kinds[256];
  PetscFunctionBegin;
  MbH5Get(fapl, H5Pcreate, (H5P_FILE_ACCESS), out->h5);
  MbH5Call(H5Pset_fapl_mpio, (fapl, comm, MPI_INFO_NULL), out->h5);
  PetscCall(MbOutputCacheConfig(fapl, out->h5));
  MbH5Get(out->file, H5Fcreate, (out->h5, H5F_ACC_TRUNC, H5P_DEFAULT, fapl), out->h5);
  MbH5Call(H5Pclose, (fapl), out->h5);
  MbH5Get(out->dxpl, H5Pcreate, (H5P_DATASET_XFER), out->h5);
  MbH5Call(H5Pset_dxpl_mpio, (out->dxpl, H5FD_MPIO_COLLECTIVE), out->h5);
  MbH5Get(out->label_type, H5Tcopy, (H5T_C_S1), "/bodies/label");
  MbH5Call(H5Tset_size, (out->label_type, MB_LABEL_LEN), "/bodies/label");
  PetscCall(MbH5WriteAttrString(out->file, "moreau_version", MOREAU_VERSION_STRING, "/"));
  PetscCall(MbH5WriteAttrInt(out->file, "layout_version", 1, "/"));
  PetscCall(MbH5WriteAttrString(out->file, "name", name, "/"));
  {
    const char *groups[] = {"/bodies", "/history", "/mesh", "/frames"};
    for (int k = 0; k < 4; k++) {
      MbH5Get(g, H5Gcreate2, (out->file, groups[k], H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), groups[k]);
      if (k == 0) {
        PetscInt nk;
        kinds[0] = '\0';
        PetscCall(MbBodyKindGetCount(&nk));
        for (PetscInt j = 0; j < nk; j++) { /* code order: "0 RIGID, 1 OBSTACLE, ..." */
          char        item[64];
          const char *kn;
          PetscCall(MbBodyKindGetName(j, &kn));
          PetscCall(PetscSNPrintf(item, sizeof(item), "%s%" PetscInt_FMT " %s", j ? ", " : "", j, kn));
          PetscCall(PetscStrlcat(kinds, item, sizeof(kinds)));
        }
        PetscCall(MbH5WriteAttrString(g, "kinds", kinds, "/bodies"));
      }
      MbH5Call(H5Gclose, (g), groups[k]);
    }
  }
  MbH5Call(H5Fflush, (out->file, H5F_SCOPE_GLOBAL), out->h5);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------- public */

PetscErrorCode MbOutputCreate(MbDomain dom, const char dir[], const char name[], PetscReal interval, MbOutput *outp)
{
  MbOutput out;
  MPI_Comm comm;
  int      err, gerr;

  PetscFunctionBegin;
  PetscCall(MbDomainGetComm(dom, &comm));
  if (!dir || !dir[0]) dir = ".";
  PetscCheck(name && name[0], comm, PETSC_ERR_ARG_WRONG, "output name must not be empty");
  PetscCheck(!strchr(name, '/'), comm, PETSC_ERR_ARG_WRONG, "output name '%s' must not contain '/': put directories in dir", name);
  PetscCheck(interval >= 0 && PetscIsNormalReal(interval + 1), comm, PETSC_ERR_ARG_OUTOFRANGE, "output interval must be >= 0, got %g", (double)interval);
  /* a path the system cannot take is refused, not cut (the cut directories were created) */
  PetscCheck(strlen(dir) + strlen(name) + 5 < PETSC_MAX_PATH_LEN, comm, PETSC_ERR_ARG_OUTOFRANGE, "the output file %s/%s.h5 would have a path of %zu characters; at most %d are supported: choose a shorter output directory", dir, name,
             strlen(dir) + strlen(name) + 4, PETSC_MAX_PATH_LEN - 1);
  PetscCall(PetscNew(&out));
  out->dom        = dom;
  out->comm       = comm;
  out->interval   = interval;
  out->last_step  = -1;
  out->flush_wall = 1.0;
  out->file = out->dxpl = out->label_type = -1;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-mb_output_flush", &out->flush_wall, NULL));
  PetscCheck(out->flush_wall >= 0 && PetscIsNormalReal(out->flush_wall + 1), comm, PETSC_ERR_ARG_OUTOFRANGE, "-mb_output_flush must be >= 0 seconds (0: after every frame), got %g", (double)out->flush_wall);
  PetscCallMPI(MPI_Comm_rank(comm, &out->rank));
  PetscCallMPI(MPI_Comm_size(comm, &out->size));
  PetscCall(MbDomainGetTime(dom, &out->next));
  PetscCall(PetscStrncpy(out->dir, dir, sizeof(out->dir)));
  PetscCall(PetscStrncpy(out->name, name, sizeof(out->name)));
  PetscCall(MbOutputPath(out->h5, sizeof(out->h5), dir, name, ".h5"));
  PetscCall(MbOutputPath(out->xmf, sizeof(out->xmf), dir, name, ".xmf"));

  /* every rank creates and checks the directory; all agree before H5Fcreate */
  MakeDirs(dir, &err);
  PetscCallMPI(MPI_Allreduce(&err, &gerr, 1, MPI_INT, MPI_MAX, comm));
  if (gerr) PetscCall(PetscFree(out));
  PetscCheck(!gerr, comm, PETSC_ERR_FILE_OPEN, "cannot write output directory '%s': %s", dir, strerror(gerr));
  {
    char what[PETSC_MAX_PATH_LEN + 16];
    PetscCall(PetscSNPrintf(what, sizeof(what), "cannot write %s", out->h5));
    PetscCall(MbOutputCheckRoom(out, dir, 256 * 1024.0, what)); /* the file's first metadata and frame */
    PetscCall(CheckNotHeld(out, what));
  }
  { /* a directory where a file must go: moreau's one line, not HDF5's stack of messages */
    struct stat st;
    for (int k = 0; k < 2; k++) {
      const char *f = k ? out->xmf : out->h5;
      if (!stat(f, &st) && S_ISDIR(st.st_mode)) {
        char msg[PETSC_MAX_PATH_LEN + 64];
        PetscCall(PetscSNPrintf(msg, sizeof(msg), "cannot write %s: a directory of that name is in the way", f));
        PetscCall(PetscFree(out));
        SETERRQ(comm, PETSC_ERR_FILE_OPEN, "%s", msg);
      }
    }
  }
  { /* HDF5 prints its own stack on every failure; moreau's errors name the file and the
       call, so the stack is shown only with -mb_hdf5_debug */
    PetscBool debug = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-mb_hdf5_debug", &debug, NULL));
    if (!debug) H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  }

  { /* -mb_restart [FILE]: continue the run of a checkpoint (DIR/<name>.chk by default) */
    char      chk[PETSC_MAX_PATH_LEN] = "";
    PetscBool restart                 = PETSC_FALSE;
    PetscCall(MbOutputPath(out->chk, sizeof(out->chk), dir, name, ".chk"));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-mb_restart", chk, sizeof(chk), &restart));
    if (restart && !chk[0]) { /* no checkpoint of this output (a SOLFEC object that had not
                                 run yet, or a run too short to write one): start afresh */
      struct stat st;
      int         missing = 0;
      if (out->rank == 0) missing = stat(out->chk, &st) ? 1 : 0;
      PetscCallMPI(MPI_Bcast(&missing, 1, MPI_INT, 0, comm));
      if (missing) {
        PetscCall(PetscPrintf(comm, "moreau: restart: there is no checkpoint %s: this SOLFEC object runs from the start\n", out->chk));
        restart = PETSC_FALSE;
      }
    }
    if (restart) {
      PetscCall(MbOutputReopen(out, chk[0] ? chk : out->chk));
      goto linked;
    }
  }
  { /* every rank learns whether the file could be made anywhere, and a failed one is
       closed again (left open, HDF5 closed it after MPI_Finalize: a segfault at exit) */
    PetscErrorCode e;
    int            fail, any;
    char           msg[PETSC_MAX_PATH_LEN + 256] = "";
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    e = OpenFile(out, name);
    PetscCall(PetscPopErrorHandler());
    if (e) {
      const char *text;
      char       *spec = NULL;
      (void)PetscErrorMessage(e, &text, &spec);
      (void)snprintf(msg, sizeof(msg), "%s", spec ? spec : text ? text : "an HDF5 error");
    }
    fail = e != 0;
    PetscCallMPI(MPI_Allreduce(&fail, &any, 1, MPI_INT, MPI_MAX, comm));
    if (any) {
      if (out->label_type >= 0) (void)H5Tclose(out->label_type);
      if (out->dxpl >= 0) (void)H5Pclose(out->dxpl);
      if (out->file >= 0) (void)H5Fclose(out->file);
      PetscCall(PetscFree(out));
      SETERRQ(comm, PETSC_ERR_FILE_WRITE, "%s", fail ? msg : "the output file could not be made on another rank");
    }
  }
  PetscCall(MbXdmfOpen(out));
linked:
  PetscCall(PetscNew(&out->link));
  out->link->out = out;
  PetscCall(MbDomainAddMonitor(dom, 0, OutputMonitor, out->link, OutputLinkDestroy));
  PetscCall(MbDomainSetMonitorDue(dom, OutputMonitor, out->link, OutputDue));
  PetscCall(MbDomainSetCheckpointer(dom, MbOutputCheckpoint, out->link, OutputPublish));
  *outp = out;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputNoticeRun(MbOutput out, PetscReal duration)
{
  PetscReal h = 0, every, frames;
  PetscFunctionBegin;
  if (out->noticed) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbDomainGetStep(out->dom, &h));
  every  = PetscMax(out->interval, h);
  frames = every > 0 ? duration / every : 0;
  if (frames > 1e4) {
    out->noticed = PETSC_TRUE;
    PetscCall(PetscPrintf(out->comm, "moreau: this RUN writes about %.3g frames to %s (%s); each costs a few ms and its share of the file: OUTPUT(solfec, interval) writes fewer (README, Long runs)\n", (double)frames, out->h5,
                          out->interval > 0 ? "its OUTPUT interval" : "every step: no OUTPUT interval"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputSetInterval(MbOutput out, PetscReal interval)
{
  PetscReal now = 0, h = 0;
  PetscFunctionBegin;
  PetscCheck(interval >= 0 && PetscIsNormalReal(interval + 1), out->comm, PETSC_ERR_ARG_OUTOFRANGE, "output interval must be >= 0, got %g", (double)interval);
  if (out->restored && interval == out->interval) PetscFunctionReturn(PETSC_SUCCESS); /* the restart's deck setting it again: its clock came with the checkpoint */
  if (out->dom) {
    PetscCall(MbDomainGetTime(out->dom, &now));
    PetscCall(MbDomainGetStep(out->dom, &h));
  }
  out->interval = interval;
  if (!out->nframe)
    out->next = now;       /* the first frame is the state at the next monitor call */
  else if (interval > 0) { /* frames go on at last + k interval, the first after now */
    out->next = out->frame[out->nframe - 1].time + interval;
    while (out->next <= now + 1e-9 * h) out->next += interval;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputReadHistoryRecords(MbOutput out, PetscInt n, MbHistory **h)
{
  double *v;
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(n + 1, h));
  PetscCall(PetscMalloc1(n + 1, &v));
  for (int i = 0; i < NHIST && n > 0; i++) {
    const HistItem *it = &HistItems[i];
    char            path[64];
    PetscCall(PetscSNPrintf(path, sizeof(path), "/history/%s", it->name));
    PetscCall(ReadRows(out, path, 0, n, 0, v));
    for (PetscInt j = 0; j < n; j++) {
      char *p = (char *)&(*h)[j] + it->offset;
      if (it->isint)
        *(PetscInt *)p = (PetscInt)v[j];
      else
        *(PetscReal *)p = v[j];
    }
  }
  PetscCall(PetscFree(v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputFlush(MbOutput out)
{
  PetscFunctionBegin;
  PetscCall(Publish(out, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputGetPaths(MbOutput out, const char **h5, const char **xmf)
{
  PetscFunctionBegin;
  if (h5) *h5 = out->h5;
  if (xmf) *xmf = out->xmf;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Window test for times read back: inclusive, with a relative slack for round-off in t. */
static PetscBool InWindow(PetscReal t, PetscReal t0, PetscReal t1)
{
  PetscReal eps = 1e-10 * PetscMax(1.0, PetscMin(1e100, PetscMax(PetscAbsReal(t0), PetscAbsReal(t1))));
  return (t >= t0 - eps && t <= t1 + eps) ? PETSC_TRUE : PETSC_FALSE;
}

/* Frame f's group (gp), its time and the row of body id in it; row = −1 when the frame is
   outside [t0, t1] or the body did not exist yet. Collective. */
static PetscErrorCode FrameBodyRow(MbOutput out, PetscInt f, PetscInt id, PetscReal t0, PetscReal t1, char gp[64], PetscReal *tf, int64_t *row)
{
  char    p[96];
  int64_t nb, *fid;
  int     cols;
  hid_t   g, at;
  PetscFunctionBegin;
  *row = -1;
  PetscCall(PetscSNPrintf(gp, 64, "/frames/%06d", (int)f));
  MbH5Get(g, H5Gopen2, (out->file, gp, H5P_DEFAULT), gp);
  MbH5Get(at, H5Aopen, (g, "time", H5P_DEFAULT), gp);
  MbH5Call(H5Aread, (at, H5T_NATIVE_DOUBLE, tf), gp);
  MbH5Call(H5Aclose, (at), gp);
  MbH5Call(H5Gclose, (g), gp);
  if (!InWindow(*tf, t0, t1)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSNPrintf(p, sizeof(p), "%s/id", gp));
  PetscCall(ReadAll(out, p, H5T_NATIVE_INT64, sizeof(int64_t), &nb, &cols, (void **)&fid));
  for (int64_t r = 0; r < nb && *row < 0; r++)
    if (fid[r] == id) *row = r;
  PetscCall(PetscFree(fid));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputReadHistory(MbOutput out, const char item[], PetscReal t0, PetscReal t1, PetscInt *n, PetscReal **t, PetscReal **v)
{
  const HistItem *it = NULL;
  PetscReal      *tt = NULL, *vv = NULL;
  int64_t         nt = 0, nv = 0;
  int             cols;
  htri_t          exists;
  char            path[64];
  PetscInt        k = 0;
  PetscFunctionBegin;
  for (int i = 0; i < NHIST && !it; i++) {
    PetscBool same;
    PetscCall(PetscStrcasecmp(item, HistItems[i].name, &same));
    if (same) it = &HistItems[i];
  }
  PetscCheck(it, out->comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown history item '%s'; expected one of TIME, STEP, KINETIC, INTERNAL, EXTERNAL, CONTACT, FRICTION, ITERATIONS, ERROR, CONTACTS, CURVATURE, ESTIMATE, REJECTED, WALLTIME", item);
  PetscCall(MbOutputFlush(out));
  PetscCall(PetscSNPrintf(path, sizeof(path), "/history/%s", it->name));
  MbH5Get(exists, H5Lexists, (out->file, path, H5P_DEFAULT), path);
  if (exists) { /* no history before the first step */
    PetscCall(ReadAll(out, "/history/time", H5T_NATIVE_DOUBLE, sizeof(PetscReal), &nt, &cols, (void **)&tt));
    PetscCall(ReadAll(out, path, H5T_NATIVE_DOUBLE, sizeof(PetscReal), &nv, &cols, (void **)&vv));
    PetscCheck(nt == nv, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "'%s' has %lld values but /history/time has %lld", path, (long long)nv, (long long)nt);
  }
  PetscCall(PetscMalloc1(nt, t));
  PetscCall(PetscMalloc1(nt, v));
  for (int64_t j = 0; j < nt; j++)
    if (InWindow(tt[j], t0, t1)) {
      (*t)[k]   = tt[j];
      (*v)[k++] = vv[j];
    }
  *n = k;
  PetscCall(PetscFree(tt));
  PetscCall(PetscFree(vv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputReadBody(MbOutput out, PetscInt id, const PetscReal X[3], const char item[], PetscReal t0, PetscReal t1, PetscInt *n, PetscReal **t, PetscReal **v)
{
  int64_t    nrow, row = -1, *ids = NULL;
  PetscReal *cen = NULL, Xbar[3], A[3], dummy;
  int        cols;
  PetscInt   k = 0;
  PetscBool  known, stress = item && (toupper((unsigned char)item[0]) == 'S' || toupper((unsigned char)item[0]) == 'M') ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionBegin;
  {
    PetscReal z[9] = {0};
    PetscCall(MbOutputBodyItemValue(item, X, z, z, z, &dummy, &known));
  }
  PetscCheck(known, out->comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown body item '%s'; expected one of %s", item ? item : "(null)", MB_OUTPUT_BODY_ITEMS);
  PetscCall(MbOutputFlush(out));
  if (out->body_rows > 0) {
    PetscCall(ReadAll(out, "/bodies/id", H5T_NATIVE_INT64, sizeof(int64_t), &nrow, &cols, (void **)&ids));
    for (int64_t r = 0; r < nrow && row < 0; r++)
      if (ids[r] == id) row = r;
    PetscCall(PetscFree(ids));
  }
  PetscCheck(row >= 0, out->comm, PETSC_ERR_ARG_OUTOFRANGE, "unknown body id %" PetscInt_FMT ": not among the %lld bodies in '%s'", id, (long long)out->body_rows, out->h5);
  PetscCall(ReadAll(out, "/bodies/center", H5T_NATIVE_DOUBLE, sizeof(PetscReal), &nrow, &cols, (void **)&cen));
  MbV3Copy(&cen[3 * row], Xbar);
  PetscCall(PetscFree(cen));
  MbV3Sub(X, Xbar, A);
  PetscCall(PetscMalloc1(out->nframe, t));
  PetscCall(PetscMalloc1(out->nframe, v));
  for (PetscInt f = 0; f < out->nframe; f++) {
    char      gp[64], p[96];
    int64_t   j;
    PetscReal m[24], x[3], vel[3], sig[9] = {0}, tf;
    PetscCall(FrameBodyRow(out, f, id, t0, t1, gp, &tf, &j));
    if (j < 0) continue;
    PetscCall(PetscSNPrintf(p, sizeof(p), "%s/affine", gp));
    PetscCall(ReadRows(out, p, j, 1, 24, m));
    /* x = x̄ + A(X − X̄), ẋ = v + B(X − X̄) (MbBodyGetAffine) */
    for (int i = 0; i < 3; i++) {
      x[i]   = m[18 + i] + m[3 * i] * A[0] + m[3 * i + 1] * A[1] + m[3 * i + 2] * A[2];
      vel[i] = m[21 + i] + m[9 + 3 * i] * A[0] + m[9 + 3 * i + 1] * A[1] + m[9 + 3 * i + 2] * A[2];
    }
    if (stress) { /* the body's mean stress (Voigt xx, yy, zz, xy, yz, zx) */
      PetscReal sv[6];
      PetscCall(PetscSNPrintf(p, sizeof(p), "%s/stress", gp));
      PetscCall(ReadRows(out, p, j, 1, 6, sv));
      sig[0] = sv[0], sig[4] = sv[1], sig[8] = sv[2], sig[1] = sig[3] = sv[3], sig[5] = sig[7] = sv[4], sig[2] = sig[6] = sv[5];
    }
    (*t)[k] = tf;
    PetscCall(MbOutputBodyItemValue(item, X, x, vel, sig, &(*v)[k++], &known));
  }
  *n = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputBodyItemValue(const char item[], const PetscReal X[3], const PetscReal x[3], const PetscReal v[3], const PetscReal sig[9], PetscReal *value, PetscBool *known)
{
  static const struct {
    const char *name;
    int         what, k; /* 0 place, 1 displacement, 2 velocity (component k); 3 stress (row-major entry k); 4 von Mises */
  } items[] = {
      {"CX", 0, 0}, {"CY", 0, 1}, {"CZ", 0, 2}, {"DX", 1, 0}, {"DY", 1, 1}, {"DZ", 1, 2}, {"VX", 2, 0}, {"VY", 2, 1}, {"VZ", 2, 2}, {"SX", 3, 0}, {"SY", 3, 4}, {"SZ", 3, 8}, {"SXY", 3, 1}, {"SXZ", 3, 2}, {"SYZ", 3, 5}, {"MISES", 4, 0},
  };
  *known = PETSC_FALSE;
  *value = 0;
  for (size_t i = 0; item && i < sizeof(items) / sizeof(items[0]); i++) {
    PetscBool same;
    PetscCall(PetscStrcasecmp(item, items[i].name, &same));
    if (!same) continue;
    *known = PETSC_TRUE;
    switch (items[i].what) {
    case 0:
      *value = x[items[i].k];
      break;
    case 1:
      *value = x[items[i].k] - X[items[i].k];
      break;
    case 2:
      *value = v[items[i].k];
      break;
    case 3:
      *value = sig[items[i].k];
      break;
    default: { /* √(3/2 s:s), s the deviator */
      PetscReal p = (sig[0] + sig[4] + sig[8]) / 3, ss = 0;
      for (int e = 0; e < 9; e++) ss += PetscSqr(sig[e] - (e % 4 == 0 ? p : 0));
      *value = PetscSqrtReal(1.5 * ss);
    }
    }
  }
  return PETSC_SUCCESS;
}

/* n entries coords[] of the 1-D dataset at path into buf, as type. Collective. */
static PetscErrorCode ReadEntries(MbOutput out, const char *path, hid_t type, hsize_t n, const hsize_t coords[], void *buf)
{
  hid_t d, fs, ms;
  PetscFunctionBegin;
  MbH5Get(d, H5Dopen2, (out->file, path, H5P_DEFAULT), path);
  MbH5Get(fs, H5Dget_space, (d), path);
  MbH5Get(ms, H5Screate_simple, (1, &n, NULL), path);
  if (n)
    MbH5Call(H5Sselect_elements, (fs, H5S_SELECT_SET, n, coords), path);
  else {
    MbH5Call(H5Sselect_none, (fs), path);
    MbH5Call(H5Sselect_none, (ms), path);
  }
  MbH5Call(H5Dread, (d, type, ms, fs, out->dxpl, buf), path);
  MbH5Call(H5Sclose, (ms), path);
  MbH5Call(H5Sclose, (fs), path);
  MbH5Call(H5Dclose, (d), path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputReadBodyEnergy(MbOutput out, PetscInt id, const char item[], PetscReal t0, PetscReal t1, PetscInt *n, PetscReal **t, PetscReal **v)
{
  static const char *items[3] = {"KINETIC", "INTERNAL", "EXTERNAL"};
  int                col      = -1;
  PetscInt           k        = 0;
  PetscFunctionBegin;
  for (int c = 0; c < 3 && col < 0; c++) {
    PetscBool same;
    PetscCall(PetscStrcasecmp(item, items[c], &same));
    if (same) col = c;
  }
  PetscCheck(col >= 0, out->comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown per-body energy '%s'; moreau keeps KINETIC, INTERNAL and EXTERNAL per body (CONTACT and FRICTION only for all bodies together: (solfec, '%s'))", item, item);
  PetscCall(MbOutputFlush(out));
  PetscCall(PetscMalloc1(out->nframe + 1, t));
  PetscCall(PetscMalloc1(out->nframe + 1, v));
  for (PetscInt f = 0; f < out->nframe; f++) {
    char      gp[64], p[96];
    int64_t   j;
    PetscReal tf, e[3];
    htri_t    ex;
    PetscCall(FrameBodyRow(out, f, id, t0, t1, gp, &tf, &j));
    if (j < 0) continue;
    PetscCall(PetscSNPrintf(p, sizeof(p), "%s/energy", gp));
    MbH5Get(ex, H5Lexists, (out->file, p, H5P_DEFAULT), p);
    PetscCheck(ex, out->comm, PETSC_ERR_FILE_UNEXPECTED, "%s of %s keeps no per-body energies (written by an older moreau)", gp, out->h5);
    PetscCall(ReadRows(out, p, j, 1, 3, e));
    (*t)[k]   = tf;
    (*v)[k++] = e[col];
  }
  *n = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputReadBodyState(MbOutput out, PetscInt id, PetscInt n, const PetscInt col[], PetscReal t0, PetscReal t1, PetscInt *nf, PetscReal **t, PetscReal **q, PetscReal **u)
{
  hsize_t *co;
  PetscInt k = 0;
  PetscFunctionBegin;
  PetscCall(MbOutputFlush(out));
  PetscCall(PetscMalloc1(2 * n + 2, &co));
  PetscCall(PetscMalloc1(out->nframe + 1, t));
  PetscCall(PetscMalloc1(n * out->nframe + 1, q));
  PetscCall(PetscMalloc1(n * out->nframe + 1, u));
  for (PetscInt f = 0; f < out->nframe; f++) {
    char      gp[64], p[96];
    int64_t   j, offs[2];
    PetscReal tf;
    PetscCall(FrameBodyRow(out, f, id, t0, t1, gp, &tf, &j));
    if (j < 0) continue;
    PetscCall(PetscSNPrintf(p, sizeof(p), "%s/nodal_offset", gp));
    {
      PetscReal o[2]; /* HDF5 converts the integers (offsets below 2⁵³) */
      PetscCall(ReadRows(out, p, j, 1, 2, o));
      offs[0] = (int64_t)o[0], offs[1] = (int64_t)o[1];
    }
    PetscCheck(offs[0] >= 0 && offs[1] >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "body %" PetscInt_FMT " has no nodal state in frame %" PetscInt_FMT " of '%s'", id, f, out->h5);
    for (PetscInt c = 0; c < n; c++) co[c] = (hsize_t)(offs[0] + col[c]), co[n + c] = (hsize_t)(offs[1] + col[c]);
    PetscCall(PetscSNPrintf(p, sizeof(p), "%s/nodal_state", gp));
    PetscCall(ReadEntries(out, p, H5T_NATIVE_DOUBLE, (hsize_t)n, co, &(*q)[n * k]));
    PetscCall(ReadEntries(out, p, H5T_NATIVE_DOUBLE, (hsize_t)n, co + n, &(*u)[n * k]));
    (*t)[k++] = tf;
  }
  *nf = k;
  PetscCall(PetscFree(co));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbOutputDestroy(MbOutput *outp)
{
  MbOutput out = *outp;
  PetscFunctionBegin;
  if (!out) PetscFunctionReturn(PETSC_SUCCESS);
  if (out->readonly) { /* READ mode: the file only */
    MbH5Call(H5Tclose, (out->label_type), "/bodies/label");
    MbH5Call(H5Pclose, (out->dxpl), out->h5);
    MbH5Call(H5Fclose, (out->file), out->h5);
    PetscCall(PetscFree(out->frame));
    PetscCall(PetscFree(out->rcon));
    PetscCall(PetscFree(*outp));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MbOutputFlush(out));
  if (out->link) out->link->out = NULL; /* the monitor stays with the domain and does nothing */
  MbH5Call(H5Tclose, (out->label_type), "/bodies/label");
  MbH5Call(H5Pclose, (out->dxpl), out->h5);
  MbH5Call(H5Fclose, (out->file), out->h5);
  PetscCall(MbXdmfClose(out));
  PetscCall(PetscFree(out->frame));
  PetscCall(PetscFree(out->mesh));
  PetscCall(PetscFree(out->lay_id));
  PetscCall(PetscFree(*outp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
