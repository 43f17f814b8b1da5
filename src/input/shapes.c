/* The `_moreau` module's shapes and time series: shape capsules built part by part
   (spheres, convex polyhedra, hulls, meshes), copied, moved, measured, and time series
   made and evaluated. */
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
    {"shape_massprops", py_shape_massprops, METH_VARARGS, "shape_massprops(parts, rho) -> (mass, volume, center, inertia)"},
    {"time_series", py_time_series, METH_VARARGS, "time_series(t, v) -> series"},
    {"time_series_eval", py_time_series_eval, METH_VARARGS, "time_series_eval(series, t) -> value"},
    {NULL, NULL, 0, NULL},
};
