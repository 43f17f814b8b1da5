/* The `_moreau` module's shapes and time series: shape capsules built part by part
   (spheres, convex polyhedra, hulls, meshes), copied, moved, measured, and time series
   made and evaluated. */
#include <ctype.h>
#include <errno.h>
#include "moduleimpl.h"

static void ShapeCapsuleFree(PyObject *cap)
{
  MbShape s = (MbShape)PyCapsule_GetPointer(cap, SHAPE_CAPSULE);
  if (s) (void)MbShapeDestroy(&s);
}

static PyObject *ShapeCapsule(MbShape s)
{
  PyObject *cap = PyCapsule_New(s, SHAPE_CAPSULE, ShapeCapsuleFree);
  if (!cap) (void)MbShapeDestroy(&s);
  return cap;
}

static MbShape CapsuleShape(PyObject *cap) { return (MbShape)PyCapsule_GetPointer(cap, SHAPE_CAPSULE); }

/* shape_new() -> an empty shape */
static PyObject *py_shape_new(PyObject *self, PyObject *args)
{
  MbShape s;
  MB_TRY(PyExc_RuntimeError, MbShapeCreate(&s));
  return ShapeCapsule(s);
}

/* Append one part of a compound: a shape capsule, or a sphere tuple (cx, cy, cz, r, volid, surfid). */
static PetscErrorCode AppendPart(MbShape s, PyObject *part, int *pyerr)
{
  PetscFunctionBegin;
  *pyerr = 0;
  if (PyCapsule_CheckExact(part)) {
    MbShape o = CapsuleShape(part);
    if (!o) {
      *pyerr = 1;
      PetscFunctionReturn(PETSC_ERR_ARG_WRONG);
    }
    PetscCall(MbShapeAppend(s, o));
    { /* a single mesh part keeps its mesh (a FINITE_ELEMENT body's) */
      PetscInt         nn, ne;
      const PetscReal *X;
      const PetscInt  *eptr, *enode;
      PetscCall(MbShapeGetMesh(o, &nn, &X, &ne, &eptr, &enode));
      PetscInt ns;
      PetscCall(MbShapeGetSize(s, &ns));
      if (nn && ns == ne) PetscCall(MbShapeSetMesh(s, nn, X, ne, eptr, enode));
    }
  } else {
    double c[3], r;
    long   volid, surfid;
    if (!PyArg_ParseTuple(part, "ddddll", &c[0], &c[1], &c[2], &r, &volid, &surfid)) {
      *pyerr = 1;
      PetscFunctionReturn(PETSC_ERR_ARG_WRONG);
    }
    PetscReal cc[3] = {c[0], c[1], c[2]};
    PetscCall(MbShapeAddSphere(s, cc, r, (PetscInt)volid, (PetscInt)surfid));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbModuleBuildShape(PyObject *parts, MbShape *s, int *pyerr)
{
  Py_ssize_t n = PyList_Size(parts);
  PetscFunctionBegin;
  *pyerr = 0;
  PetscCall(MbShapeCreate(s));
  for (Py_ssize_t i = 0; i < n; i++) {
    PetscErrorCode e = AppendPart(*s, PyList_GET_ITEM(parts, i), pyerr);
    if (e) {
      PetscCall(MbShapeDestroy(s));
      if (*pyerr) PetscFunctionReturn(e);
      PetscCall(e);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* shape_compound(parts) -> a new shape made of the parts */
static PyObject *py_shape_compound(PyObject *self, PyObject *args)
{
  PyObject *parts;
  MbShape   s;
  int       pyerr;
  if (!PyArg_ParseTuple(args, "O!", &PyList_Type, &parts)) return NULL;
  MB_TRY(PyExc_ValueError, MbModuleBuildShape(parts, &s, &pyerr));
  return ShapeCapsule(s);
}

/* shape_convex(cap, vertices, fptr, fvert, fsurf, volid) */
static PyObject *py_shape_convex(PyObject *self, PyObject *args)
{
  PyObject  *cap, *ov, *ofp, *ofv, *ofs;
  long       volid;
  PetscInt   nv, nfp, nfv, nfs, *fptr = NULL, *fvert = NULL, *fsurf = NULL;
  PetscReal *v   = NULL;
  PyObject  *ret = NULL;
  if (!PyArg_ParseTuple(args, "OOOOOl", &cap, &ov, &ofp, &ofv, &ofs, &volid)) return NULL;
  if (MbModuleReadRealArray(ov, &nv, &v, "CONVEX: vertices") || MbModuleReadIntArray(ofp, &nfp, &fptr, "faces") || MbModuleReadIntArray(ofv, &nfv, &fvert, "faces") || MbModuleReadIntArray(ofs, &nfs, &fsurf, "faces")) goto done;
  {
    PetscErrorCode e;
    MbModuleErrMsg[0] = 0;
    (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
    e = MbShapeAddConvex(CapsuleShape(cap), nv / 3, v, nfp - 1, fptr, fvert, fsurf, (PetscInt)volid);
    (void)PetscPopErrorHandler();
    if (e) {
      PyErr_SetString(PyExc_ValueError, MbModuleErrMsg);
      goto done;
    }
  }
  ret = Py_NewRef(Py_None);
done:
  PetscFree(v);
  PetscFree(fptr);
  PetscFree(fvert);
  PetscFree(fsurf);
  return ret;
}

/* shape_hull(cap, points, volid, surfid) */
static PyObject *py_shape_hull(PyObject *self, PyObject *args)
{
  PyObject      *cap, *op;
  long           volid, surfid;
  PetscInt       n;
  PetscReal     *p;
  PetscErrorCode e;
  if (!PyArg_ParseTuple(args, "OOll", &cap, &op, &volid, &surfid)) return NULL;
  if (MbModuleReadRealArray(op, &n, &p, "HULL: points")) return NULL;
  MbModuleErrMsg[0] = 0;
  (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
  e = MbShapeAddHull(CapsuleShape(cap), n / 3, p, (PetscInt)volid, (PetscInt)surfid);
  (void)PetscPopErrorHandler();
  PetscFree(p);
  if (e) {
    PyErr_SetString(PyExc_ValueError, MbModuleErrMsg);
    return NULL;
  }
  Py_RETURN_NONE;
}

/* shape_ellipsoid(cap, center, radii, volid, surfid): Solfec-1.0's ELLIP */
static PyObject *py_shape_ellipsoid(PyObject *self, PyObject *args)
{
  PyObject      *cap, *oc, *orad;
  long           volid, surfid;
  PetscReal      c[3], r[3];
  PetscErrorCode e;
  if (!PyArg_ParseTuple(args, "OOOll", &cap, &oc, &orad, &volid, &surfid)) return NULL;
  if (MbModuleReadReals(oc, 3, c, "ELLIP: center") || MbModuleReadReals(orad, 3, r, "ELLIP: radii")) return NULL;
  MbModuleErrMsg[0] = 0;
  (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
  e = MbShapeAddEllipsoid(CapsuleShape(cap), c, r, (PetscInt)volid, (PetscInt)surfid);
  (void)PetscPopErrorHandler();
  if (e) {
    PyErr_SetString(PyExc_ValueError, MbModuleErrMsg);
    return NULL;
  }
  Py_RETURN_NONE;
}

/* shape_ellipsoid_get(cap) -> (center, radii, rot): the first primitive's centre, semi-axes
   and their directions (the columns of rot, row-major), where TRANSLATE, ROTATE and SCALE
   have put it (Solfec-1.0's ELLIP.center, radii, rot) */
static PyObject *py_shape_ellipsoid_get(PyObject *self, PyObject *args)
{
  PyObject *cap;
  PetscReal c[3], L[9], rad[3], rot[9];
  if (!PyArg_ParseTuple(args, "O", &cap)) return NULL;
  MB_TRY(PyExc_ValueError, MbShapeGetEllipsoid(CapsuleShape(cap), 0, c, L, NULL));
  MbEllipsoidPrincipal(L, rad, rot);
  return Py_BuildValue("(ddd)(ddd)(ddddddddd)", (double)c[0], (double)c[1], (double)c[2], (double)rad[0], (double)rad[1], (double)rad[2], (double)rot[0], (double)rot[1], (double)rot[2], (double)rot[3], (double)rot[4], (double)rot[5], (double)rot[6],
                       (double)rot[7], (double)rot[8]);
}

/* shape_mesh(cap, nodes, eptr, enode): the shape's elements (added by shape_element, in
   order) are a mesh of these nodes (MbShapeSetMesh) */
static PyObject *py_shape_mesh(PyObject *self, PyObject *args)
{
  PyObject  *cap, *on, *op, *oe;
  PetscReal *X;
  PetscInt  *eptr = NULL, *enode = NULL, ne = 0, nen = 0;
  Py_ssize_t nx;
  if (!PyArg_ParseTuple(args, "OO!OO", &cap, &PyList_Type, &on, &op, &oe)) return NULL;
  nx = PyList_Size(on);
  if (nx % 3) return PyErr_Format(PyExc_ValueError, "MESH: %zd node coordinates is not a multiple of 3", nx);
  if (PetscMalloc1(nx + 1, &X)) return PyErr_NoMemory();
  if (MbModuleReadReals(on, (PetscInt)nx, X, "mesh nodes") || MbModuleReadIntArray(op, &ne, &eptr, "mesh element offsets") || MbModuleReadIntArray(oe, &nen, &enode, "mesh element nodes")) {
    PetscFree(X);
    PetscFree(eptr);
    PetscFree(enode);
    return NULL;
  }
  MbModuleErrMsg[0] = 0;
  (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
  PetscErrorCode e = ne < 2 || eptr[ne - 1] != nen ? PETSC_ERR_ARG_SIZ : MbShapeSetMesh(CapsuleShape(cap), (PetscInt)(nx / 3), X, ne - 1, eptr, enode);
  (void)PetscPopErrorHandler();
  PetscFree(X);
  PetscFree(eptr);
  PetscFree(enode);
  if (e) {
    PyErr_SetString(PyExc_ValueError, MbModuleErrMsg[0] ? MbModuleErrMsg : "MESH: element offsets do not match the element nodes");
    return NULL;
  }
  Py_RETURN_NONE;
}

/* shape_element(cap, type, nodes, surfids or None, volid): type 8 with MbShapeAddHex order */
static PyObject *py_shape_element(PyObject *self, PyObject *args)
{
  PyObject      *cap, *on, *os;
  long           type, volid;
  PetscReal      x[24];
  PetscInt       sid[6] = {0, 0, 0, 0, 0, 0}, ns = 0, *ps = NULL;
  PetscErrorCode e;
  if (!PyArg_ParseTuple(args, "OlOOl", &cap, &type, &on, &os, &volid)) return NULL;
  if (type != 4 && type != 5 && type != 6 && type != 8) return PyErr_Format(PyExc_ValueError, "MESH: element type must be 4, 5, 6 or 8 nodes, got %ld", type);
  if (MbModuleReadReals(on, 3 * type, x, "element nodes")) return NULL;
  if (os != Py_None) {
    if (MbModuleReadIntArray(os, &ns, &ps, "element surfids")) return NULL;
    for (PetscInt k = 0; k < ns && k < 6; k++) sid[k] = ps[k];
    PetscFree(ps);
  }
  MbModuleErrMsg[0] = 0;
  (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
  e = MbShapeAddElement(CapsuleShape(cap), (PetscInt)type, x, sid, (PetscInt)volid);
  (void)PetscPopErrorHandler();
  if (e) {
    PyErr_SetString(PyExc_ValueError, MbModuleErrMsg);
    return NULL;
  }
  Py_RETURN_NONE;
}

/* shape_append(dst, src) */
static PyObject *py_shape_append(PyObject *self, PyObject *args)
{
  PyObject *a, *b;
  if (!PyArg_ParseTuple(args, "OO", &a, &b)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbShapeAppend(CapsuleShape(a), CapsuleShape(b)));
  Py_RETURN_NONE;
}

/* shape_copy(cap) -> new capsule */
static PyObject *py_shape_copy(PyObject *self, PyObject *args)
{
  PyObject *a;
  MbShape   s;
  if (!PyArg_ParseTuple(args, "O", &a)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbShapeDuplicate(CapsuleShape(a), &s));
  return ShapeCapsule(s);
}

/* shape_point(cap, mesh, n): Solfec's MESH.node(n) (mesh true: node n of the shape's mesh,
   where TRANSLATE/ROTATE/SCALE have put it) or CONVEX.vertex(n) (vertex n of its first
   convex) as (x, y, z); n = -1: their count (MESH.nnod, CONVEX.nver). */
static PyObject *py_shape_point(PyObject *self, PyObject *args)
{
  PyObject        *a;
  int              mesh;
  long             n;
  PetscInt         nn = 0, ne, nf, size;
  const PetscReal *X  = NULL;
  const PetscInt  *ep, *en, *fp, *fv, *fs;
  MbPrimKind       kind;
  if (!PyArg_ParseTuple(args, "Opl", &a, &mesh, &n)) return NULL;
  if (mesh)
    MB_TRY(PyExc_RuntimeError, MbShapeGetMesh(CapsuleShape(a), &nn, &X, &ne, &ep, &en));
  else {
    MB_TRY(PyExc_RuntimeError, MbShapeGetSize(CapsuleShape(a), &size));
    if (size > 0) MB_TRY(PyExc_RuntimeError, MbShapeGetPrimKind(CapsuleShape(a), 0, &kind));
    if (size > 0 && kind == MB_PRIM_CONVEX) MB_TRY(PyExc_RuntimeError, MbShapeGetConvex(CapsuleShape(a), 0, &nn, &X, &nf, &fp, &fv, &fs));
  }
  if (n == -1) return PyLong_FromLong((long)nn);
  if (n < 0 || n >= nn) return PyErr_Format(PyExc_ValueError, "%s index %ld is out of bounds: the %s has %ld", mesh ? "node" : "vertex", n, mesh ? "mesh" : "convex", (long)nn);
  return Py_BuildValue("(ddd)", (double)X[3 * n], (double)X[3 * n + 1], (double)X[3 * n + 2]);
}

/* shape_transform(cap, R(9, row-major), c(3), d(3)): x -> R(x - c) + c + d */
static PyObject *py_shape_transform(PyObject *self, PyObject *args)
{
  PyObject *a, *oR, *oc, *od;
  PetscReal R[9], c[3], d[3];
  if (!PyArg_ParseTuple(args, "OOOO", &a, &oR, &oc, &od)) return NULL;
  if (MbModuleReadReals(oR, 9, R, "rotation") || MbModuleReadReals(oc, 3, c, "point") || MbModuleReadReals(od, 3, d, "vector")) return NULL;
  MB_TRY(PyExc_RuntimeError, MbShapeTransform(CapsuleShape(a), R, c, d));
  Py_RETURN_NONE;
}

/* shape_bend(cap, point(3), direction(3), angle in radians): Solfec's BEND of a mesh, in
   place (MbShapeBend); ValueError naming the bad value */
static PyObject *py_shape_bend(PyObject *self, PyObject *args)
{
  PyObject      *a, *op, *od;
  double         angle;
  PetscReal      p[3], d[3];
  PetscErrorCode e;
  if (!PyArg_ParseTuple(args, "OOOd", &a, &op, &od, &angle)) return NULL;
  if (MbModuleReadReals(op, 3, p, "point") || MbModuleReadReals(od, 3, d, "direction")) return NULL;
  MbModuleErrMsg[0] = 0;
  (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
  e = MbShapeBend(CapsuleShape(a), p, d, (PetscReal)angle);
  (void)PetscPopErrorHandler();
  if (e) {
    PyErr_SetString(PyExc_ValueError, MbModuleErrMsg);
    return NULL;
  }
  Py_RETURN_NONE;
}

/* shape_massprops(parts, rho) -> (mass, volume, center, inertia); ValueError when the shape
   has no volume */
static PyObject *py_shape_massprops(PyObject *self, PyObject *args)
{
  PyObject      *parts;
  double         rho;
  MbShape        s;
  MbMassProps    mp;
  int            pyerr;
  PetscErrorCode e;
  if (!PyArg_ParseTuple(args, "O!d", &PyList_Type, &parts, &rho)) return NULL;
  MB_TRY(PyExc_ValueError, MbModuleBuildShape(parts, &s, &pyerr));
  MbModuleErrMsg[0] = 0;
  (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
  e = MbShapeMassProps(s, rho, &mp);
  (void)PetscPopErrorHandler();
  (void)MbShapeDestroy(&s);
  if (e) {
    PyErr_SetString(PyExc_ValueError, MbModuleErrMsg);
    return NULL;
  }
  return MbModuleMassPropsTuple(&mp);
}

/* shape_rough_hex(parts, margin) -> the 24 coordinates of ROUGH_HEX's box (MbShapeRoughHexBox);
   ValueError naming the bad piece or volume */
static PyObject *py_shape_rough_hex(PyObject *self, PyObject *args)
{
  PyObject      *parts, *out;
  double         margin;
  MbShape        s;
  PetscReal      nodes[24];
  int            pyerr;
  PetscErrorCode e;
  if (!PyArg_ParseTuple(args, "O!d", &PyList_Type, &parts, &margin)) return NULL;
  MB_TRY(PyExc_ValueError, MbModuleBuildShape(parts, &s, &pyerr));
  MbModuleErrMsg[0] = 0;
  (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
  e = MbShapeRoughHexBox(s, margin, nodes);
  (void)PetscPopErrorHandler();
  (void)MbShapeDestroy(&s);
  if (e) {
    PyErr_SetString(PyExc_ValueError, MbModuleErrMsg[0] ? MbModuleErrMsg : "PETSc error");
    return NULL;
  }
  if (!(out = PyList_New(24))) return NULL;
  for (int k = 0; k < 24; k++) PyList_SET_ITEM(out, k, PyFloat_FromDouble((double)nodes[k]));
  return out;
}

/* shape_split(parts, point, normal, surf0, surf1, eps) -> (below, above): capsules or None
   (MbShapeSplit) */
static PyObject *py_shape_split(PyObject *self, PyObject *args)
{
  PyObject *parts, *op, *on, *out;
  long      s0, s1;
  double    eps;
  PetscReal p[3], n[3];
  PetscInt  surf[2];
  MbShape   s, below = NULL, above = NULL;
  int       pyerr;
  if (!PyArg_ParseTuple(args, "O!OOlld", &PyList_Type, &parts, &op, &on, &s0, &s1, &eps)) return NULL;
  if (MbModuleReadReals(op, 3, p, "point") || MbModuleReadReals(on, 3, n, "normal")) return NULL;
  surf[0] = (PetscInt)s0;
  surf[1] = (PetscInt)s1;
  MB_TRY(PyExc_ValueError, MbModuleBuildShape(parts, &s, &pyerr));
  MbModuleErrMsg[0] = 0;
  (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
  PetscErrorCode e = MbShapeSplit(s, p, n, surf, eps, &below, &above);
  (void)PetscPopErrorHandler();
  (void)MbShapeDestroy(&s);
  if (e) {
    PyErr_SetString(PyExc_ValueError, MbModuleErrMsg[0] ? MbModuleErrMsg : "PETSc error");
    return NULL;
  }
  out = PyTuple_New(2);
  if (!out) {
    (void)MbShapeDestroy(&below);
    (void)MbShapeDestroy(&above);
    return NULL;
  }
  MbShape half[2] = {below, above};
  for (int k = 0; k < 2; k++) {
    PyObject *o = half[k] ? ShapeCapsule(half[k]) : Py_NewRef(Py_None);
    if (!o) {
      if (k == 0) (void)MbShapeDestroy(&above);
      Py_DECREF(out);
      return NULL;
    }
    PyTuple_SET_ITEM(out, k, o);
  }
  return out;
}

/* shapes_overlapping(obstacle_parts, [parts, ...], gap, eps) -> [bool, ...]
   (MbShapesOverlapping) */
static PyObject *py_shapes_overlapping(PyObject *self, PyObject *args)
{
  PyObject      *oparts, *list, *out = NULL;
  double         gap, eps;
  MbShape        obs = NULL, *shp = NULL;
  PetscBool     *hit = NULL;
  Py_ssize_t     n, built = 0;
  int            pyerr = 0;
  PetscErrorCode e;
  if (!PyArg_ParseTuple(args, "O!O!dd", &PyList_Type, &oparts, &PyList_Type, &list, &gap, &eps)) return NULL;
  n                 = PyList_Size(list);
  MbModuleErrMsg[0] = 0;
  (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
  e = MbModuleBuildShape(oparts, &obs, &pyerr);
  if (!e) e = PetscCalloc2(n, &shp, n, &hit);
  for (; !e && built < n; built++) {
    PyObject *parts = PyList_GET_ITEM(list, built);
    if (!PyList_Check(parts)) {
      PyErr_SetString(PyExc_TypeError, "shapes_overlapping: each shape must be a list of parts");
      pyerr = 1;
      e     = PETSC_ERR_ARG_WRONG;
      break;
    }
    e = MbModuleBuildShape(parts, &shp[built], &pyerr);
  }
  if (!e) e = MbShapesOverlapping(obs, (PetscInt)n, shp, gap, eps, hit);
  (void)PetscPopErrorHandler();
  if (!e && (out = PyList_New(n)))
    for (Py_ssize_t k = 0; k < n; k++) PyList_SET_ITEM(out, k, PyBool_FromLong(hit[k]));
  if (e && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, MbModuleErrMsg[0] ? MbModuleErrMsg : "PETSc error");
  for (Py_ssize_t k = 0; shp && k < n; k++) (void)MbShapeDestroy(&shp[k]);
  (void)PetscFree2(shp, hit);
  (void)MbShapeDestroy(&obs);
  return e ? NULL : out;
}

/* shape_separate(cap, eps) -> None when the shape's pieces form one connected set (touching
   within eps), else a list of new capsules, one per component (MbShapeComponents) */
static PyObject *py_shape_separate(PyObject *self, PyObject *args)
{
  PyObject *a, *out;
  double    eps;
  PetscInt  n, ncomp, *comp;
  MbShape   s;
  if (!PyArg_ParseTuple(args, "Od", &a, &eps) || !(s = CapsuleShape(a))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbShapeGetSize(s, &n));
  MB_TRY(PyExc_RuntimeError, PetscMalloc1(n + 1, &comp));
  MB_TRY(PyExc_RuntimeError, MbShapeComponents(s, eps, &ncomp, comp));
  if (ncomp <= 1 || !(out = PyList_New(ncomp))) {
    (void)PetscFree(comp);
    if (ncomp <= 1) Py_RETURN_NONE;
    return NULL;
  }
  for (PetscInt k = 0; k < ncomp; k++) {
    MbShape part;
    MB_TRY(PyExc_RuntimeError, MbShapeCreate(&part));
    for (PetscInt i = 0; i < n; i++)
      if (comp[i] == k) MB_TRY(PyExc_RuntimeError, MbShapeAppendPiece(part, s, i));
    PyObject *cap = ShapeCapsule(part);
    if (!cap) {
      Py_DECREF(out);
      (void)PetscFree(comp);
      return NULL;
    }
    PyList_SET_ITEM(out, k, cap);
  }
  (void)PetscFree(comp);
  return out;
}

/* shape_piece(cap, i) -> (vertices [(x, y, z)], faces [([v, ...], surfid)]) of convex piece i,
   or None for a sphere */
static PyObject *py_shape_piece(PyObject *self, PyObject *args)
{
  PyObject        *a, *ov, *of;
  long             i;
  PetscInt         size, nv, nf;
  const PetscReal *v;
  const PetscInt  *fp, *fv, *fs;
  MbPrimKind       kind;
  if (!PyArg_ParseTuple(args, "Ol", &a, &i)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbShapeGetSize(CapsuleShape(a), &size));
  if (i < 0 || i >= size) return PyErr_Format(PyExc_ValueError, "piece %ld is out of bounds: the shape has %ld", i, (long)size);
  MB_TRY(PyExc_RuntimeError, MbShapeGetPrimKind(CapsuleShape(a), (PetscInt)i, &kind));
  if (kind != MB_PRIM_CONVEX) Py_RETURN_NONE;
  MB_TRY(PyExc_RuntimeError, MbShapeGetConvex(CapsuleShape(a), (PetscInt)i, &nv, &v, &nf, &fp, &fv, &fs));
  if (!(ov = PyList_New(nv))) return NULL;
  for (PetscInt k = 0; k < nv; k++) PyList_SET_ITEM(ov, k, Py_BuildValue("(ddd)", (double)v[3 * k], (double)v[3 * k + 1], (double)v[3 * k + 2]));
  if (!(of = PyList_New(nf))) {
    Py_DECREF(ov);
    return NULL;
  }
  for (PetscInt f = 0; f < nf; f++) {
    PyObject *loop = PyList_New(fp[f + 1] - fp[f]);
    for (PetscInt k = fp[f]; loop && k < fp[f + 1]; k++) PyList_SET_ITEM(loop, k - fp[f], PyLong_FromLong((long)fv[k]));
    PyList_SET_ITEM(of, f, loop ? Py_BuildValue("(Nl)", loop, (long)fs[f]) : NULL);
  }
  return Py_BuildValue("(NN)", ov, of);
}

/* shape_element_faces(cap) -> for each element of the shape's mesh, its faces as lists of
   node numbers (Solfec's face order of the element; each loop counter-clockwise seen from
   outside); [] when the shape has no mesh. */
static PyObject *py_shape_element_faces(PyObject *self, PyObject *args)
{
  PyObject        *a, *out;
  PetscInt         nn, ne;
  const PetscReal *X;
  const PetscInt  *eptr, *enode;
  if (!PyArg_ParseTuple(args, "O", &a)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbShapeGetMesh(CapsuleShape(a), &nn, &X, &ne, &eptr, &enode));
  if (!(out = PyList_New(ne))) return NULL;
  for (PetscInt e = 0; e < ne; e++) {
    PetscInt         nv, nf;
    const PetscReal *v;
    const PetscInt  *fp, *fv, *fs;
    PyObject        *faces;
    if (MbShapeGetConvex(CapsuleShape(a), e, &nv, &v, &nf, &fp, &fv, &fs) || !(faces = PyList_New(nf))) {
      Py_DECREF(out);
      return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_RuntimeError, "element %ld of the mesh is not a convex piece", (long)e);
    }
    PyList_SET_ITEM(out, e, faces);
    for (PetscInt f = 0; f < nf; f++) {
      PyObject *loop = PyList_New(fp[f + 1] - fp[f]);
      if (!loop) {
        Py_DECREF(out);
        return NULL;
      }
      PyList_SET_ITEM(faces, f, loop);
      for (PetscInt k = fp[f]; k < fp[f + 1]; k++) {
        PyObject *n = PyLong_FromLong((long)enode[eptr[e] + fv[k]]);
        if (!n) {
          Py_DECREF(out);
          return NULL;
        }
        PyList_SET_ITEM(loop, k - fp[f], n);
      }
    }
  }
  return out;
}

/* n integers as a new list. */
static PyObject *IntList(const PetscInt x[], PetscInt n)
{
  PyObject *l = PyList_New(n);
  for (PetscInt i = 0; l && i < n; i++) {
    PyObject *v = PyLong_FromLong((long)x[i]);
    if (!v) {
      Py_DECREF(l);
      return NULL;
    }
    PyList_SET_ITEM(l, i, v);
  }
  return l;
}

/* tetrahedralize(source, volume, quality, mindihedral, maxdihedral, keepsurface) ->
   (nodes, tets, volids or None, triangles, surfids or None): TetGen's mesh of the volume
   that source bounds: a mesh shape capsule, a TetGen input file name, or a surface tuple
   (points, triangles, surfids); flat lists (3 numbers a node, 4 node numbers a
   tetrahedron, 3 a triangle); None where the input had no ids. */
static PyObject *py_tetrahedralize(PyObject *self, PyObject *args)
{
  PyObject      *src, *ret = NULL;
  MbTetOptions   o;
  MbTetMesh      m = {0};
  int            keep;
  double         vol, q, amin, amax;
  PetscErrorCode e;
  if (!PyArg_ParseTuple(args, "Oddddp", &src, &vol, &q, &amin, &amax, &keep)) return NULL;
  o                 = (MbTetOptions){vol, q, amin, amax, keep ? PETSC_TRUE : PETSC_FALSE};
  MbModuleErrMsg[0] = 0;
  if (PyCapsule_CheckExact(src)) {
    MbShape s = CapsuleShape(src);
    if (!s) return NULL;
    (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
    e = MbTetrahedralizeShape(s, &o, &m);
    (void)PetscPopErrorHandler();
  } else if (PyUnicode_Check(src)) {
    const char *path = PyUnicode_AsUTF8(src);
    if (!path) return NULL;
    (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
    e = MbTetrahedralizeFile(path, &o, &m);
    (void)PetscPopErrorHandler();
  } else {
    PyObject  *op, *ot, *os;
    PetscReal *p   = NULL;
    PetscInt  *tri = NULL, *sid = NULL, np, nt, ns;
    if (!PyArg_ParseTuple(src, "OOO", &op, &ot, &os)) return NULL;
    if (MbModuleReadRealArray(op, &np, &p, "surface points") || MbModuleReadIntArray(ot, &nt, &tri, "surface triangles") || MbModuleReadIntArray(os, &ns, &sid, "surface ids")) {
      PetscFree(p);
      PetscFree(tri);
      PetscFree(sid);
      return NULL;
    }
    if (np % 3 || nt % 3 || ns != nt / 3) {
      PetscFree(p);
      PetscFree(tri);
      PetscFree(sid);
      return PyErr_Format(PyExc_ValueError, "surface: %ld coordinates, %ld triangle corners and %ld ids do not fit (3 a point, 3 a triangle, 1 a triangle)", (long)np, (long)nt, (long)ns);
    }
    (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
    e = MbTetrahedralizeSurface(np / 3, p, nt / 3, tri, sid, &o, &m);
    (void)PetscPopErrorHandler();
    PetscFree(p);
    PetscFree(tri);
    PetscFree(sid);
  }
  if (e) {
    (void)MbTetMeshDestroy(&m); /* what a failure after TetGen's run had made */
    PyErr_SetString(PyExc_ValueError, MbModuleErrMsg[0] ? MbModuleErrMsg : "TetGen failed");
    return NULL;
  }
  {
    PyObject *X = MbModuleRealList(m.X, 3 * m.nn), *T = IntList(m.tet, 4 * m.nt), *V = m.hasvolid ? IntList(m.volid, m.nt) : Py_NewRef(Py_None);
    PyObject *F = IntList(m.tri, 3 * m.nf), *S = m.hassurfid ? IntList(m.surfid, m.nf) : Py_NewRef(Py_None);
    if (X && T && V && F && S) ret = Py_BuildValue("(OOOOO)", X, T, V, F, S);
    Py_XDECREF(X);
    Py_XDECREF(T);
    Py_XDECREF(V);
    Py_XDECREF(F);
    Py_XDECREF(S);
  }
  (void)MbTetMeshDestroy(&m);
  return ret;
}

/* tetgen() -> whether moreau was built with TetGen */
/* solfec_mesh_ints(path) -> bytes: the ints (native layout) of Solfec-1.0's HDF5 mesh file
   (MbSolfecMeshFileRead), which python/moreau/solfecmesh.py unpacks */
static PyObject *py_solfec_mesh_ints(PyObject *self, PyObject *args)
{
  const char *path;
  PetscInt    n;
  int        *data;
  PyObject   *b;
  if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
  MB_TRY(PyExc_ValueError, MbSolfecMeshFileRead(path, &n, &data));
  b = PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)n * (Py_ssize_t)sizeof(int));
  PetscFree(data);
  return b;
}

static PyObject *py_tetgen(PyObject *self, PyObject *args) { return PyBool_FromLong(MbTetrahedralizeAvailable()); }

static void TsCapsuleFree(PyObject *cap)
{
  MbTimeSeries ts = (MbTimeSeries)PyCapsule_GetPointer(cap, TS_CAPSULE);
  if (ts) (void)MbTimeSeriesDestroy(&ts);
}

/* time_series(t, v) -> capsule */
static PyObject *py_time_series(PyObject *self, PyObject *args)
{
  PyObject    *ot, *ov, *cap;
  PetscInt     nt, nv;
  PetscReal   *t, *v;
  MbTimeSeries ts;
  if (!PyArg_ParseTuple(args, "OO", &ot, &ov)) return NULL;
  if (MbModuleReadRealArray(ot, &nt, &t, "TIME_SERIES times")) return NULL;
  if (MbModuleReadRealArray(ov, &nv, &v, "TIME_SERIES values")) {
    PetscFree(t);
    return NULL;
  }
  {
    PetscErrorCode e;
    MbModuleErrMsg[0] = 0;
    (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
    e = MbTimeSeriesCreate(nt, t, v, &ts);
    (void)PetscPopErrorHandler();
    PetscFree(t);
    PetscFree(v);
    if (e) {
      PyErr_SetString(PyExc_ValueError, MbModuleErrMsg);
      return NULL;
    }
  }
  cap = PyCapsule_New(ts, TS_CAPSULE, TsCapsuleFree);
  if (!cap) (void)MbTimeSeriesDestroy(&ts);
  return cap;
}

/* The points of a file of 't v' lines, as Solfec-1.0's TMS_File (tms.c) reads it: a line
   that starts with '#' is a comment, reading ends at the first line with no number (a blank
   line, or the end), and the first two numbers of every other line are a point (more on
   the line are ignored). Parsed here rather than in Python: Solfec's users give series of
   millions of points (inp/devel/long-input-motion: 10⁷ lines, 100 MB), which Python floats
   would take minutes and gigabytes to hold. Returns -1 with a Python error naming the file
   and the line when a line holds one number or a word. */
static int ReadSeriesFile(const char path[], PetscInt *n, PetscReal **t, PetscReal **v)
{
  FILE    *fp = fopen(path, "r");
  char     buf[4096];
  PetscInt cap = 1024, line = 0;
  *n = 0;
  *t = *v = NULL;
  if (!fp) {
    PyErr_Format(PyExc_ValueError, "TIME_SERIES: cannot read '%s': %s", path, strerror(errno));
    return -1;
  }
  if (PetscMalloc2(cap, t, cap, v)) goto nomem;
  while (fgets(buf, sizeof(buf), fp)) {
    char  *p = buf, *e1, *e2;
    double a, b;
    line++;
    if (buf[0] == '#') continue;
    while (isspace((unsigned char)*p)) p++;
    if (!*p) break;     /* Solfec stops at a line with nothing to read (its sscanf's EOF) */
    a = strtod(p, &e1); /* strtod rather than sscanf: twice as fast on 10⁷ lines */
    b = strtod(e1, &e2);
    if (e1 == p || e2 == e1) {
      PyErr_Format(PyExc_ValueError, "TIME_SERIES: '%s' line %" PetscInt_FMT ": expected two numbers 't v', got '%.60s'", path, line, strtok(buf, "\r\n"));
      goto fail;
    }
    if (*n == cap) {
      PetscReal *t2, *v2;
      if (PetscMalloc2(2 * cap, &t2, 2 * cap, &v2)) goto nomem;
      (void)PetscArraycpy(t2, *t, cap);
      (void)PetscArraycpy(v2, *v, cap);
      (void)PetscFree2(*t, *v);
      *t = t2;
      *v = v2;
      cap *= 2;
    }
    (*t)[*n] = a;
    (*v)[*n] = b;
    (*n)++;
  }
  if (ferror(fp)) {
    PyErr_Format(PyExc_ValueError, "TIME_SERIES: cannot read '%s': %s", path, strerror(errno));
    goto fail;
  }
  fclose(fp);
  return 0;
nomem:
  PyErr_NoMemory();
fail:
  fclose(fp);
  (void)PetscFree2(*t, *v);
  *t = *v = NULL;
  return -1;
}

/* time_series_file(path) -> (series, times, values): the series of a file of 't v' lines
   (ReadSeriesFile), with its times and values as bytes of doubles (for array('d')). */
static PyObject *py_time_series_file(PyObject *self, PyObject *args)
{
  const char  *path;
  PetscInt     n;
  PetscReal   *t, *v;
  MbTimeSeries ts;
  PyObject    *cap, *out;
  if (!PyArg_ParseTuple(args, "s", &path)) return NULL;
  if (ReadSeriesFile(path, &n, &t, &v)) return NULL;
  {
    PetscErrorCode e;
    MbModuleErrMsg[0] = 0;
    (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
    e = MbTimeSeriesCreate(n, t, v, &ts);
    (void)PetscPopErrorHandler();
    if (e) {
      PyErr_Format(PyExc_ValueError, "TIME_SERIES: '%s': %s", path, MbModuleErrMsg);
      (void)PetscFree2(t, v);
      return NULL;
    }
  }
  if (!(cap = PyCapsule_New(ts, TS_CAPSULE, TsCapsuleFree))) {
    (void)MbTimeSeriesDestroy(&ts);
    (void)PetscFree2(t, v);
    return NULL;
  }
  out = Py_BuildValue("(Ny#y#)", cap, (const char *)t, (Py_ssize_t)(n * sizeof(PetscReal)), (const char *)v, (Py_ssize_t)(n * sizeof(PetscReal)));
  (void)PetscFree2(t, v);
  return out;
}

/* time_series_eval(cap, t) -> value */
static PyObject *py_time_series_eval(PyObject *self, PyObject *args)
{
  PyObject    *cap;
  double       t;
  PetscReal    v;
  MbTimeSeries ts;
  if (!PyArg_ParseTuple(args, "Od", &cap, &t)) return NULL;
  if (!(ts = (MbTimeSeries)PyCapsule_GetPointer(cap, TS_CAPSULE))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbTimeSeriesEvaluate(ts, t, &v));
  return PyFloat_FromDouble(v);
}

PyMethodDef MbModuleShapeMethods[] = {
    {"shape_new", py_shape_new, METH_NOARGS, "shape_new() -> empty shape"},
    {"shape_compound", py_shape_compound, METH_VARARGS, "shape_compound(parts) -> shape"},
    {"shape_convex", py_shape_convex, METH_VARARGS, "shape_convex(shape, vertices, fptr, fvert, fsurf, volid)"},
    {"shape_hull", py_shape_hull, METH_VARARGS, "shape_hull(shape, points, volid, surfid)"},
    {"shape_ellipsoid", py_shape_ellipsoid, METH_VARARGS, "shape_ellipsoid(shape, center, radii, volid, surfid)"},
    {"shape_ellipsoid_get", py_shape_ellipsoid_get, METH_VARARGS, "shape_ellipsoid_get(shape) -> (center, radii, rot)"},
    {"shape_element", py_shape_element, METH_VARARGS, "shape_element(shape, type, nodes, surfids, volid)"},
    {"shape_mesh", py_shape_mesh, METH_VARARGS, "shape_mesh(shape, nodes, eptr, enode)"},
    {"shape_append", py_shape_append, METH_VARARGS, "shape_append(dst, src)"},
    {"shape_copy", py_shape_copy, METH_VARARGS, "shape_copy(shape) -> shape"},
    {"shape_transform", py_shape_transform, METH_VARARGS, "shape_transform(shape, R, c, d)"},
    {"shape_point", py_shape_point, METH_VARARGS, "shape_point(shape, mesh, n) -> (x, y, z), or the count for n = -1"},
    {"shape_bend", py_shape_bend, METH_VARARGS, "shape_bend(shape, point, direction, angle) (radians)"},
    {"shape_element_faces", py_shape_element_faces, METH_VARARGS, "shape_element_faces(shape) -> [[face node loops] per element]"},
    {"tetrahedralize", py_tetrahedralize, METH_VARARGS, "tetrahedralize(source, volume, quality, mindihedral, maxdihedral, keepsurface) -> (nodes, tets, volids, triangles, surfids)"},
    {"solfec_mesh_ints", py_solfec_mesh_ints, METH_VARARGS, "solfec_mesh_ints(path) -> bytes: the ints of Solfec-1.0's HDF5 mesh file (TETRAHEDRALIZE's)"},
    {"tetgen", py_tetgen, METH_NOARGS, "tetgen() -> whether moreau was built with TetGen"},
    {"shape_massprops", py_shape_massprops, METH_VARARGS, "shape_massprops(parts, rho) -> (mass, volume, center, inertia)"},
    {"shape_rough_hex", py_shape_rough_hex, METH_VARARGS, "shape_rough_hex(parts, margin) -> 24 coordinates of ROUGH_HEX's box"},
    {"shape_split", py_shape_split, METH_VARARGS, "shape_split(parts, point, normal, surf0, surf1, eps) -> (below, above)"},
    {"shapes_overlapping", py_shapes_overlapping, METH_VARARGS, "shapes_overlapping(obstacle_parts, [parts, ...], gap, eps) -> [bool, ...]"},
    {"shape_separate", py_shape_separate, METH_VARARGS, "shape_separate(shape, eps) -> None or [shape, ...] (connected components)"},
    {"shape_piece", py_shape_piece, METH_VARARGS, "shape_piece(shape, i) -> (vertices, [(loop, surfid), ...]) or None"},
    {"time_series", py_time_series, METH_VARARGS, "time_series(t, v) -> series"},
    {"time_series_file", py_time_series_file, METH_VARARGS, "time_series_file(path) -> (series, times bytes, values bytes)"},
    {"time_series_eval", py_time_series_eval, METH_VARARGS, "time_series_eval(series, t) -> value"},
    {NULL, NULL, 0, NULL},
};
