/* The `_moreau` module's bodies: built on their owner rank (every rank draws every id),
   their state, characteristics, velocity, placement, scheme, damping and form, their loads
   (constant, time series or a Python callable), and which rank owns them now. */
#include "moduleimpl.h"

/* next_owned(h) -> whether this rank will own the next body */
static PyObject *py_next_owned(PyObject *self, PyObject *args)
{
  int         h;
  Sol        *s;
  PetscInt    n;
  PetscMPIInt owner, rank;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainGetGlobalBodyCount(s->dom, &n));
  MB_TRY(PyExc_RuntimeError, MbDomainOwnerRank(s->dom, n, &owner));
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  return PyBool_FromLong(owner == rank);
}

/* body_kinds() -> the registered body kinds' names, in code order */
static PyObject *py_body_kinds(PyObject *self, PyObject *args)
{
  PetscInt  n;
  PyObject *t;
  MB_TRY(PyExc_RuntimeError, MbBodyKindGetCount(&n));
  if (!(t = PyTuple_New(n))) return NULL;
  for (PetscInt k = 0; k < n; k++) {
    const char *name;
    PyObject   *o;
    MB_TRY(PyExc_RuntimeError, MbBodyKindGetName(k, &name));
    if (!(o = PyUnicode_FromString(name))) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, k, o);
  }
  return t;
}

/* body_kind(name) -> what the deck asks of a kind (MbBodyKindInfo) as a dict: code, nq, nu
   (per mesh node when nodal), nodal, movable, velocity (takes one: movable kinds, and an
   obstacle, which then moves as prescribed), elastic, torque, pressure, scheme (None: the
   domain's rigid default, or none for a kind that does not move) and forms ((name,
   description) pairs, the default first). An unknown name is a ValueError listing the
   registered kinds. */
static PyObject *py_body_kind(PyObject *self, PyObject *args)
{
  const char    *name;
  MbBodyKindInfo k;
  PyObject      *forms;
  Py_ssize_t     nf = 0;
  if (!PyArg_ParseTuple(args, "s", &name)) return NULL;
  MB_TRY(PyExc_ValueError, MbBodyKindGetInfo(name, &k));
  while (k.forms && k.forms[2 * nf]) nf++;
  if (!(forms = PyTuple_New(nf))) return NULL;
  for (Py_ssize_t f = 0; f < nf; f++) {
    PyObject *o = Py_BuildValue("(ss)", k.forms[2 * f], k.forms[2 * f + 1]);
    if (!o) {
      Py_DECREF(forms);
      return NULL;
    }
    PyTuple_SET_ITEM(forms, f, o);
  }
  return Py_BuildValue("{s:s,s:l,s:l,s:l,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:z,s:N}", "name", k.name, "code", (long)k.code, "nq", (long)k.nq, "nu", (long)k.nu, "nodal", k.nodal ? Py_True : Py_False, "movable", k.movable ? Py_True : Py_False, "velocity",
                       k.velocity ? Py_True : Py_False, "elastic", k.elastic ? Py_True : Py_False, "torque", k.torque ? Py_True : Py_False, "pressure", k.pressure ? Py_True : Py_False, "rotation", k.rotation ? Py_True : Py_False, "scheme", k.scheme,
                       "forms", forms);
}

/* Draw the next id on every rank; build the body of the kind registered as kind on its owner
   from shape s (taken). */
static PetscErrorCode NewBody(Sol *sol, const char *kind, MbShape *shape, double rho, double young, double poisson, const char *label, PetscInt *id)
{
  PetscMPIInt    owner, rank;
  MbBody         b;
  const char    *scheme;
  MbBodyKindInfo info;
  PetscFunctionBegin;
  PetscCall(MbBodyKindGetInfo(kind, &info));
  scheme = info.scheme;
  /* the kind's default scheme exists on every rank, as the rigid default does (see solfec_new) */
  if (scheme) {
    MbScheme s;
    PetscCall(MbDomainGetScheme(sol->dom, scheme, &s));
  }
  PetscCall(MbDomainNextBodyId(sol->dom, id));
  PetscCall(MbDomainOwnerRank(sol->dom, *id, &owner));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (owner == rank) {
    PetscCheck(*shape, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "body %" PetscInt_FMT ": no shape given on its owner rank", *id);
    PetscCall(MbBodyCreate(*id, kind, *shape, rho, label, &b));
    {
      PetscErrorCode ierr = MbBodySetMaterial(b, young, poisson);
      if (!ierr) ierr = MbDomainAddBody(sol->dom, b);
      if (ierr) PetscCall(MbBodyDestroy(&b));
      PetscCall(ierr);
    }
  }
  PetscCall(MbShapeDestroy(shape));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The sphere fast path (a million bodies): body_sphere(h, kind, cx, cy, cz, r, volid,
   surfid, rho, label, young, poisson) -> id; kind a registered name */
static PyObject *py_body_sphere(PyObject *self, PyObject *const *a, Py_ssize_t n)
{
  int         h;
  const char *kind;
  double      c[4], rho, young, poisson;
  long        volid, surfid;
  const char *label = NULL;
  Sol        *s;
  MbShape     shape = NULL;
  PetscInt    id, count;
  PetscMPIInt owner, rank;
  if (n != 12) return PyErr_Format(PyExc_TypeError, "body_sphere takes 12 arguments");
  h = (int)PyLong_AsLong(a[0]);
  if (!(kind = PyUnicode_AsUTF8(a[1]))) return NULL;
  for (int k = 0; k < 4; k++) c[k] = PyFloat_AsDouble(a[2 + k]);
  volid   = PyLong_AsLong(a[6]);
  surfid  = PyLong_AsLong(a[7]);
  rho     = PyFloat_AsDouble(a[8]);
  young   = PyFloat_AsDouble(a[10]);
  poisson = PyFloat_AsDouble(a[11]);
  if (a[9] != Py_None && !(label = PyUnicode_AsUTF8(a[9]))) return NULL;
  if (PyErr_Occurred() || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainGetGlobalBodyCount(s->dom, &count));
  MB_TRY(PyExc_RuntimeError, MbDomainOwnerRank(s->dom, count, &owner));
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (owner == rank) {
    PetscReal cc[3] = {c[0], c[1], c[2]};
    MB_TRY(PyExc_RuntimeError, MbShapeCreate(&shape));
    MB_TRY(PyExc_ValueError, MbShapeAddSphere(shape, cc, c[3], (PetscInt)volid, (PetscInt)surfid));
  }
  MB_TRY(PyExc_ValueError, NewBody(s, kind, &shape, rho, young, poisson, label, &id));
  return PyLong_FromLong((long)id);
}

/* body_shape(h, kind, parts or None, rho, label, young, poisson[, mesh]) -> id; parts is
   given on the owner only; mesh, a MESH's capsule, carries the shape's deformation (Solfec's
   FINITE_ELEMENT body with mesh=: MbShapeSetEmbeddingMesh) */
static PyObject *py_body_shape(PyObject *self, PyObject *args)
{
  int         h, pyerr;
  const char *kind;
  PyObject   *parts, *olabel, *omesh = Py_None;
  double      rho, young, poisson;
  const char *label = NULL;
  Sol        *s;
  MbShape     shape = NULL;
  PetscInt    id;
  if (!PyArg_ParseTuple(args, "isOdOdd|O", &h, &kind, &parts, &rho, &olabel, &young, &poisson, &omesh) || !(s = MbModuleGetSol(h))) return NULL;
  if (olabel != Py_None && !(label = PyUnicode_AsUTF8(olabel))) return NULL;
  if (parts != Py_None) {
    if (!PyList_Check(parts)) return PyErr_Format(PyExc_TypeError, "parts must be a list");
    MB_TRY(PyExc_ValueError, MbModuleBuildShape(parts, &shape, &pyerr));
    if (omesh != Py_None) {
      MbShape          msh = PyCapsule_GetPointer(omesh, SHAPE_CAPSULE);
      PetscInt         nn, ne;
      const PetscReal *X;
      const PetscInt  *eptr, *enode;
      PetscErrorCode   ierr = msh ? MbShapeGetMesh(msh, &nn, &X, &ne, &eptr, &enode) : PETSC_ERR_ARG_WRONG;
      if (!ierr && nn) ierr = MbShapeSetEmbeddingMesh(shape, nn, X, ne, eptr, enode);
      if (ierr || !nn) {
        (void)MbShapeDestroy(&shape);
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "body_shape: mesh must be a MESH (or HEX) shape");
        return NULL;
      }
    }
  }
  MB_TRY(PyExc_ValueError, NewBody(s, kind, &shape, rho, young, poisson, label, &id));
  return PyLong_FromLong((long)id);
}

/* body_get(h, id, what): 0 conf, 1 velo, 2 (mass, volume, center, inertia), 3 scheme,
   4 damping. Owner only. */
static PyObject *py_body_get(PyObject *self, PyObject *args)
{
  int         h, what;
  long        id;
  Sol        *s;
  MbBody      b;
  PetscReal  *q, *u;
  PetscInt    nq, nu;
  MbMassProps mp;
  MbScheme    sch;
  const char *name = NULL;
  PetscReal   damp;
  if (!PyArg_ParseTuple(args, "ili", &h, &id, &what) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  switch (what) {
  case 0:
  case 1:
    MB_TRY(PyExc_RuntimeError, MbBodyGetState(b, &q, &u));
    MB_TRY(PyExc_RuntimeError, MbBodyGetSizes(b, &nq, &nu));
    return what ? MbModuleRealTuple(u, (int)nu) : MbModuleRealTuple(q, (int)nq);
  case 2:
    MB_TRY(PyExc_RuntimeError, MbBodyGetMassProps(b, &mp));
    return MbModuleMassPropsTuple(&mp);
  case 3:
    MB_TRY(PyExc_RuntimeError, MbBodyGetScheme(b, &sch));
    if (!sch) Py_RETURN_NONE;
    MB_TRY(PyExc_RuntimeError, MbSchemeGetType(sch, &name));
    return PyUnicode_FromString(name);
  case 4:
    MB_TRY(PyExc_RuntimeError, MbBodyGetDamping(b, &damp));
    return PyFloat_FromDouble(damp);
  default:
    return PyErr_Format(PyExc_ValueError, "body_get: unknown item %d", what);
  }
}

/* body_point(h, id, X, what) -> what 0: the displacement x − X of referential point X, 1:
   its velocity (3 numbers), 2: the Cauchy stress there (SX, SY, SZ, SXY, SXZ, SYZ, MISES;
   a finite element's at the point, the body's mean for the other kinds). Owner only. */
static PyObject *py_body_point(PyObject *self, PyObject *args)
{
  static const char *items[3][7] = {{"DX", "DY", "DZ"}, {"VX", "VY", "VZ"}, {"SX", "SY", "SZ", "SXY", "SXZ", "SYZ", "MISES"}};
  int                h, what;
  long               id;
  PyObject          *oX;
  Sol               *s;
  MbBody             b;
  PetscReal          X[3], x[3], v[3], sig[9] = {0}, r[7];
  PetscInt           n;
  if (!PyArg_ParseTuple(args, "ilOi", &h, &id, &oX, &what) || !(s = MbModuleGetSol(h))) return NULL;
  if (what < 0 || what > 2) return PyErr_Format(PyExc_ValueError, "body_point: unknown item %d", what);
  if (MbModuleReadReals(oX, 3, X, "point")) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  PetscInt  col[MB_BODY_POINT_DOFS_MAX];
  PetscBool nodal, has;
  MB_TRY(PyExc_ValueError, MbBodyPointDofs(b, X, &n, col, &nodal)); /* a mesh's point must be in it (Solfec-1.0: "point outside of referential mesh") */
  MB_TRY(PyExc_RuntimeError, MbBodyPointToSpatial(b, X, x));
  MB_TRY(PyExc_RuntimeError, MbBodyPointVelocity(b, X, v));
  if (what == 2) {
    if (nodal) { /* a finite element's stress at the point, from its element's nodes */
      PetscReal *q, *u, qc[MB_BODY_POINT_DOFS_MAX], uc[MB_BODY_POINT_DOFS_MAX];
      MB_TRY(PyExc_RuntimeError, MbBodyGetState(b, &q, &u));
      for (PetscInt k = 0; k < n; k++) qc[k] = q[col[k]], uc[k] = u[col[k]];
      MB_TRY(PyExc_ValueError, MbBodyPointState(b, X, qc, uc, NULL, NULL, sig));
    } else
      MB_TRY(PyExc_RuntimeError, MbBodyGetStress(b, sig, &has));
  }
  n = what == 2 ? 7 : 3;
  for (PetscInt k = 0; k < n; k++) {
    PetscBool known;
    MB_TRY(PyExc_RuntimeError, MbOutputBodyItemValue(items[what][k], X, x, v, sig, &r[k], &known));
  }
  return MbModuleRealTuple(r, (int)n);
}

/* body_state(h, id) -> (conf, velo) on every rank: the owner's, broadcast. Collective. */
static PyObject *py_body_state(PyObject *self, PyObject *args)
{
  int         h;
  long        id;
  Sol        *s;
  PetscMPIInt owner, rank;
  PetscInt    n[2] = {0, 0};
  PetscReal  *buf;
  PyObject   *r;
  MbBody      b = NULL;
  if (!PyArg_ParseTuple(args, "il", &h, &id) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleCheckPeers(MB_SITE_STATE)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainOwnerRank(s->dom, (PetscInt)id, &owner));
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == owner) {
    MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
    MB_TRY(PyExc_RuntimeError, MbBodyGetSizes(b, &n[0], &n[1]));
  }
  if (MPI_Bcast(n, 2, MPIU_INT, owner, PETSC_COMM_WORLD)) return PyErr_Format(PyExc_RuntimeError, "BODY_STATE: MPI_Bcast failed");
  MB_TRY(PyExc_MemoryError, PetscMalloc1(n[0] + n[1] + 1, &buf));
  if (b) {
    PetscReal *q, *u;
    MB_TRY(PyExc_RuntimeError, MbBodyGetState(b, &q, &u));
    MB_TRY(PyExc_RuntimeError, PetscArraycpy(buf, q, n[0]));
    MB_TRY(PyExc_RuntimeError, PetscArraycpy(buf + n[0], u, n[1]));
  }
  if (MPI_Bcast(buf, (PetscMPIInt)(n[0] + n[1]), MPIU_REAL, owner, PETSC_COMM_WORLD)) {
    PetscFree(buf);
    return PyErr_Format(PyExc_RuntimeError, "BODY_STATE: MPI_Bcast of body %ld's state from rank %d failed", id, (int)owner);
  }
  r = Py_BuildValue("(NN)", MbModuleRealTuple(buf, (int)n[0]), MbModuleRealTuple(buf + n[0], (int)n[1]));
  PetscFree(buf);
  return r;
}

/* body_set_state(h, id, what, values): 0 conf (nq numbers), 1 velo (nu numbers). Owner only. */
static PyObject *py_body_set_state(PyObject *self, PyObject *args)
{
  int        h, what;
  long       id;
  PyObject  *ov;
  Sol       *s;
  MbBody     b;
  PetscReal *q, *u, *x;
  PetscInt   nq, nu;
  if (!PyArg_ParseTuple(args, "iliO", &h, &id, &what, &ov) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_RuntimeError, MbBodyGetState(b, &q, &u));
  MB_TRY(PyExc_RuntimeError, MbBodyGetSizes(b, &nq, &nu));
  /* the kind's length (a finite-element body's is 3 per node): read into a copy first,
     so that a bad value leaves the state as it was */
  if (PetscMalloc1(PetscMax(nq, nu) + 1, &x)) return PyErr_NoMemory();
  if (MbModuleReadReals(ov, what ? nu : nq, x, what ? "velo" : "conf")) {
    PetscFree(x);
    return NULL;
  }
  if (what) {
    if (!MbBodyTakesVelocity(b)) {
      const char *kind;
      MB_TRY(PyExc_RuntimeError, MbBodyGetKind(b, &kind));
      for (PetscInt k = 0; k < nu; k++)
        if (x[k] != 0) {
          PetscFree(x);
          return PyErr_Format(PyExc_ValueError, "body %ld is %s %s: it cannot be given a velocity", id, strchr("AEIOU", kind[0]) ? "an" : "a", kind);
        }
    }
    memcpy(u, x, sizeof(PetscReal) * (size_t)nu);
  } else {
    MbModuleErrMsg[0] = 0;
    (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
    PetscErrorCode e = MbBodyCheckConfiguration(b, x);
    (void)PetscPopErrorHandler();
    if (e) {
      PetscFree(x);
      PyErr_SetString(PyExc_ValueError, MbModuleErrMsg);
      return NULL;
    }
    memcpy(q, x, sizeof(PetscReal) * (size_t)nq);
  }
  PetscFree(x);
  Py_RETURN_NONE;
}

/* body_chars(h, id, mass, volume, center, inertia). Owner only. */
static PyObject *py_body_chars(PyObject *self, PyObject *args)
{
  int       h;
  long      id;
  double    m, v;
  PyObject *oc, *oJ;
  PetscReal c[3], J[9];
  Sol      *s;
  MbBody    b;
  if (!PyArg_ParseTuple(args, "ilddOO", &h, &id, &m, &v, &oc, &oJ) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleReadReals(oc, 3, c, "BODY_CHARS: center") || MbModuleReadReals(oJ, 9, J, "BODY_CHARS: inertia")) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_ValueError, MbBodySetChars(b, m, v, c, J));
  Py_RETURN_NONE;
}

/* body_velocity(h, id, linear or None, angular or None): both spatial (for a rigid body
   the angular is stored as the referential Ω = Λᵀω). Owner only. */
static PyObject *py_body_velocity(PyObject *self, PyObject *args)
{
  int       h;
  long      id;
  PyObject *ol, *oa;
  PetscReal lin[3], w[3];
  Sol      *s;
  MbBody    b;
  if (!PyArg_ParseTuple(args, "ilOO", &h, &id, &ol, &oa) || !(s = MbModuleGetSol(h))) return NULL;
  if ((ol != Py_None && MbModuleReadReals(ol, 3, lin, "INITIAL_VELOCITY: linear")) || (oa != Py_None && MbModuleReadReals(oa, 3, w, "INITIAL_VELOCITY: angular"))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_ValueError, MbBodySetSpatialVelocity(b, ol != Py_None ? lin : NULL, oa != Py_None ? w : NULL));
  Py_RETURN_NONE;
}

/* body_transform(h, id, R(9), c(3), d(3)): the placement moved by x ↦ R(x − c) + c + d.
   Owner only. */
static PyObject *py_body_transform(PyObject *self, PyObject *args)
{
  int       h;
  long      id;
  PyObject *oR, *oc, *od;
  PetscReal R[9], c[3], d[3];
  Sol      *s;
  MbBody    b;
  if (!PyArg_ParseTuple(args, "ilOOO", &h, &id, &oR, &oc, &od) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleReadReals(oR, 9, R, "rotation") || MbModuleReadReals(oc, 3, c, "point") || MbModuleReadReals(od, 3, d, "vector")) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_RuntimeError, MbBodyTransform(b, R, c, d));
  Py_RETURN_NONE;
}

/* body_scheme(h, id, name): validates the name on every rank (the same error everywhere),
   sets it on the owner, unless the analysis is QUASI_STATIC (whose schemes Solfec-1.0 gives
   every body whatever its scheme=). */
static PyObject *py_body_scheme(PyObject *self, PyObject *args)
{
  int         h;
  long        id;
  const char *name;
  Sol        *s;
  MbScheme    sch;
  MbBody      b;
  PetscBool   qs;
  if (!PyArg_ParseTuple(args, "ils", &h, &id, &name) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainGetScheme(s->dom, name, &sch));
  MB_TRY(PyExc_RuntimeError, MbDomainFindBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_RuntimeError, MbDomainIsQuasiStatic(s->dom, &qs));
  if (b && !qs) MB_TRY(PyExc_ValueError, MbBodySetScheme(b, sch)); /* QUASI_STATIC keeps its own, as Solfec */
  Py_RETURN_NONE;
}

static PyObject *py_body_damping(PyObject *self, PyObject *args)
{
  int    h;
  long   id;
  double d;
  Sol   *s;
  MbBody b;
  if (!PyArg_ParseTuple(args, "ild", &h, &id, &d) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_ValueError, MbBodySetDamping(b, d));
  Py_RETURN_NONE;
}

/* body_disable_rotation(h, id): BODY.disable_rotation = 'ON' (owner only) */
static PyObject *py_body_disable_rotation(PyObject *self, PyObject *args)
{
  int    h;
  long   id;
  Sol   *s;
  MbBody b;
  if (!PyArg_ParseTuple(args, "il", &h, &id) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_ValueError, MbBodyDisableRotation(b));
  Py_RETURN_NONE;
}

/* body_form(h, id, form): BODY's form= (owner only) */
static PyObject *py_body_form(PyObject *self, PyObject *args)
{
  int         h;
  long        id;
  const char *form;
  Sol        *s;
  MbBody      b;
  if (!PyArg_ParseTuple(args, "ils", &h, &id, &form) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_ValueError, MbBodySetForm(b, form));
  Py_RETURN_NONE;
}

/* body_modal(h, id, n) -> (eigenvalues, eigenvectors) as lists on every rank: the owner's
   MbBodyModalAnalysis, broadcast (its error too, so that every rank raises it). Collective. */
static PyObject *py_body_modal(PyObject *self, PyObject *args)
{
  int         h, err = 0;
  long        id, n;
  Sol        *s;
  PetscMPIInt owner, rank;
  PetscInt    nu  = 0;
  PetscReal  *buf = NULL;
  PyObject   *r;
  char        msg[1024] = "";
  if (!PyArg_ParseTuple(args, "ill", &h, &id, &n) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleCheckPeers(MB_SITE_MODAL)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainOwnerRank(s->dom, (PetscInt)id, &owner));
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == owner) {
    MbBody         b;
    PetscInt       nq;
    PetscErrorCode e;
    MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
    MB_TRY(PyExc_RuntimeError, MbBodyGetSizes(b, &nq, &nu));
    MbModuleErrMsg[0] = 0;
    (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
    e = PetscMalloc1(n > 0 && n <= nu ? n * (nu + 1) : 1, &buf);
    if (!e) e = MbBodyModalAnalysis(b, (PetscInt)n, buf, buf + n);
    (void)PetscPopErrorHandler();
    if (e) {
      err = 1;
      snprintf(msg, sizeof msg, "%s", MbModuleErrMsg[0] ? MbModuleErrMsg : "PETSc error");
    }
  }
  if (MPI_Bcast(&err, 1, MPI_INT, owner, PETSC_COMM_WORLD) || MPI_Bcast(&nu, 1, MPIU_INT, owner, PETSC_COMM_WORLD)) return PyErr_Format(PyExc_RuntimeError, "MODAL_ANALYSIS: MPI_Bcast failed");
  if (err) {
    PetscFree(buf);
    if (MPI_Bcast(msg, sizeof msg, MPI_CHAR, owner, PETSC_COMM_WORLD)) return PyErr_Format(PyExc_RuntimeError, "MODAL_ANALYSIS: MPI_Bcast failed");
    PyErr_SetString(PyExc_ValueError, msg);
    return NULL;
  }
  if (!buf) MB_TRY(PyExc_MemoryError, PetscMalloc1(n * (nu + 1), &buf));
  if (MPI_Bcast(buf, (PetscMPIInt)(n * (nu + 1)), MPIU_REAL, owner, PETSC_COMM_WORLD)) {
    PetscFree(buf);
    return PyErr_Format(PyExc_RuntimeError, "MODAL_ANALYSIS: MPI_Bcast of body %ld's modes from rank %d failed", id, (int)owner);
  }
  r = Py_BuildValue("(NN)", MbModuleRealList(buf, (PetscInt)n), MbModuleRealList(buf + n, (PetscInt)(n * nu)));
  PetscFree(buf);
  return r;
}

/* body_basis(h, id, values, vectors): a reduced form's base (owner only) */
static PyObject *py_body_basis(PyObject *self, PyObject *args)
{
  int        h;
  long       id;
  PyObject  *ov, *oe;
  Sol       *s;
  MbBody     b;
  PetscInt   n, ne, nq, nu;
  PetscReal *val, *vec;
  if (!PyArg_ParseTuple(args, "ilOO", &h, &id, &ov, &oe) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_RuntimeError, MbBodyGetSizes(b, &nq, &nu));
  if (MbModuleReadRealArray(ov, &n, &val, "base[0]")) return NULL;
  if (MbModuleReadRealArray(oe, &ne, &vec, "base[1]")) {
    PetscFree(val);
    return NULL;
  }
  if (n < 1 || ne != n * nu) {
    PetscFree(val);
    PetscFree(vec);
    return PyErr_Format(PyExc_ValueError, "base: %ld values and %ld vector entries; a base of n vectors of this body (%ld unknowns) has n values and n*%ld entries (Solfec's 'Modal analysis data size and mesh size do not match')", (long)n, (long)ne,
                        (long)nu, (long)nu);
  }
  {
    PetscErrorCode e;
    MbModuleErrMsg[0] = 0;
    (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
    e = MbBodySetBasis(b, n, val, vec);
    (void)PetscPopErrorHandler();
    PetscFree(val);
    PetscFree(vec);
    if (e) {
      PyErr_SetString(PyExc_ValueError, MbModuleErrMsg[0] ? MbModuleErrMsg : "PETSc error");
      return NULL;
    }
  }
  Py_RETURN_NONE;
}

/* body_load(h, id, kind (0 force, 1 torque), frame (0 spatial, 1 convected), X, dir, value,
   ts or None). Owner only. */
static PyObject *py_body_load(PyObject *self, PyObject *args)
{
  int          h, kind, frame;
  long         id;
  PyObject    *oX, *od, *ots;
  double       value;
  PetscReal    X[3], d[3];
  MbTimeSeries ts = NULL;
  Sol         *s;
  MbBody       b;
  if (!PyArg_ParseTuple(args, "iliiOOdO", &h, &id, &kind, &frame, &oX, &od, &value, &ots) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleReadReals(oX, 3, X, "point") || MbModuleReadReals(od, 3, d, "direction")) return NULL;
  if (ots != Py_None && !(ts = (MbTimeSeries)PyCapsule_GetPointer(ots, TS_CAPSULE))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_ValueError, MbBodyAddLoad(b, kind ? MB_LOAD_TORQUE : MB_LOAD_FORCE, frame ? MB_FRAME_CONVECTED : MB_FRAME_SPATIAL, X, d, value, ts));
  Py_RETURN_NONE;
}

/* body_pressure(h, id, surfid, value, ts or None): owner only */
static PyObject *py_body_pressure(PyObject *self, PyObject *args)
{
  int          h;
  long         id, surfid;
  PyObject    *ots;
  double       value;
  MbTimeSeries ts = NULL;
  Sol         *s;
  MbBody       b;
  if (!PyArg_ParseTuple(args, "illdO", &h, &id, &surfid, &value, &ots) || !(s = MbModuleGetSol(h))) return NULL;
  if (ots != Py_None && !(ts = (MbTimeSeries)PyCapsule_GetPointer(ots, TS_CAPSULE))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_ValueError, MbBodyAddPressure(b, (PetscInt)surfid, value, ts));
  Py_RETURN_NONE;
}

/* body_crack(h, id, point, normal, (surfid below, above), ft, topoadj): a SIMPLIFIED_CRACK
   plane on the owner (MbBodyAddCrack) */
static PyObject *py_body_crack(PyObject *self, PyObject *args)
{
  int       h, topoadj;
  long      id, s0, s1;
  PyObject *op, *on;
  double    ft;
  PetscReal p[3], n[3];
  PetscInt  surfid[2];
  Sol      *s;
  MbBody    b;
  if (!PyArg_ParseTuple(args, "ilOO(ll)dp", &h, &id, &op, &on, &s0, &s1, &ft, &topoadj) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleReadReals(op, 3, p, "point") || MbModuleReadReals(on, 3, n, "normal")) return NULL;
  surfid[0] = (PetscInt)s0;
  surfid[1] = (PetscInt)s1;
  MB_TRY(PyExc_RuntimeError, MbModuleFindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_ValueError, MbBodyAddCrack(b, p, n, surfid, ft, topoadj ? PETSC_TRUE : PETSC_FALSE));
  Py_RETURN_NONE;
}

/* A load given by a Python callable, Solfec's value(data, q, u, t, h) or value(q, u, t, h),
   returning (spatial force, spatial torque, referential torque). Runs on the owner only,
   so an error here cannot be told to the other ranks: RUN aborts the job. */
typedef struct {
  PyObject *fn;      /* the callable */
  PyObject *data;    /* first argument, or NULL */
  char      what[8]; /* FORCE or TORQUE, for messages */
} PyLoad;

static PetscErrorCode PyLoadDestroy(void *ctx)
{
  PyLoad *l = (PyLoad *)ctx;
  PetscFunctionBegin;
  Py_XDECREF(l->fn);
  Py_XDECREF(l->data);
  PetscCall(PetscFree(l));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PyLoadCall(void *ctx, MbBody body, const PetscReal q[], const PetscReal u[], PetscReal t, PetscReal h, PetscInt *nout, PetscReal out[])
{
  PyLoad   *l = (PyLoad *)ctx;
  PetscInt  nq, nu;
  PyObject *oq, *ou, *r, *fast;
  char      where[PETSC_MAX_PATH_LEN + 64];
  PetscFunctionBegin;
  PetscCall(MbBodyGetSizes(body, &nq, &nu));
  oq = MbModuleRealList(q, nq);
  ou = MbModuleRealList(u, nu);
  if (oq && ou)
    r = l->data ? PyObject_CallFunction(l->fn, "OOOdd", l->data, oq, ou, (double)t, (double)h) : PyObject_CallFunction(l->fn, "OOdd", oq, ou, (double)t, (double)h);
  else
    r = NULL;
  Py_XDECREF(oq);
  Py_XDECREF(ou);
  if (!r) {
    /* print the traceback (deck file and line) here, on the rank where it happened */
    if (PyErr_ExceptionMatches(PyExc_SystemExit)) {
      PyErr_Clear();
      SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "%s callback called sys.exit(); that cannot stop a parallel run (return 0 from a CALLBACK instead)", l->what);
    }
    PyErr_Print();
    SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "%s callback raised an exception (traceback above)", l->what);
  }
  fast = PySequence_Fast(r, "");
  Py_DECREF(r);
  if (!fast) {
    PyErr_Clear();
    MbModuleCallableWhere(l->fn, where, sizeof(where));
    SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "%s callback must return 9 numbers, got a non-sequence%s", l->what, where);
  }
  /* 9 numbers for any body; a body with more than 6 velocities may return its generalized
     force instead (nu numbers: Solfec's pseudo-rigid callbacks return 12) */
  *nout = (PetscInt)PySequence_Fast_GET_SIZE(fast);
  if (*nout != 9 && !(nu > 6 && *nout == nu)) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    MbModuleCallableWhere(l->fn, where, sizeof(where));
    if (nu > 6) SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "%s callback must return 9 numbers (force, spatial torque, convected torque) or %" PetscInt_FMT " (the generalized force of the body's velocities), got %zd%s", l->what, nu, n, where);
    SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "%s callback must return 9 numbers, got %zd%s", l->what, n, where);
  }
  for (PetscInt k = 0; k < *nout; k++) {
    out[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, k));
    if (out[k] == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      Py_DECREF(fast);
      MbModuleCallableWhere(l->fn, where, sizeof(where));
      SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "%s callback must return numbers, item %" PetscInt_FMT " is not a number%s", l->what, k, where);
    }
  }
  Py_DECREF(fast);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* body_load_callback(h, id, what, fn, data or None). On every rank, in the same order: the
   callable is registered by reference (so the load can migrate with its body), and the
   owner gives the body the load. */
static PyObject *py_body_load_callback(PyObject *self, PyObject *args)
{
  int         h;
  long        id;
  const char *what;
  PyObject   *fn, *data;
  PyLoad     *l;
  Sol        *s;
  MbBody      b;
  PetscInt    ref;
  if (!PyArg_ParseTuple(args, "ilsOO", &h, &id, &what, &fn, &data) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_MemoryError, PetscNew(&l));
  l->fn   = Py_NewRef(fn);
  l->data = data == Py_None ? NULL : Py_NewRef(data);
  snprintf(l->what, sizeof(l->what), "%s", what);
  MB_TRY(PyExc_RuntimeError, MbDomainAddCallback(s->dom, PyLoadCall, l, PyLoadDestroy, &ref));
  MB_TRY(PyExc_RuntimeError, MbDomainFindBody(s->dom, (PetscInt)id, &b));
  if (b) MB_TRY(PyExc_RuntimeError, MbDomainAddLoadCallback(s->dom, (PetscInt)id, ref));
  Py_RETURN_NONE;
}

/* body_owned(h, id) -> whether this rank owns body id now (bodies migrate) */
static PyObject *py_body_owned(PyObject *self, PyObject *args)
{
  int    h;
  long   id;
  Sol   *s;
  MbBody b;
  if (!PyArg_ParseTuple(args, "il", &h, &id) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainFindBody(s->dom, (PetscInt)id, &b));
  return PyBool_FromLong(b != NULL);
}

/* body_remove(h, id): DELETE of a BODY (MbDomainRemoveBody), on every rank alike */
static PyObject *py_body_remove(PyObject *self, PyObject *args)
{
  int  h;
  long id;
  Sol *s;
  if (!PyArg_ParseTuple(args, "il", &h, &id) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainRemoveBody(s->dom, (PetscInt)id));
  Py_RETURN_NONE;
}

PyMethodDef MbModuleBodyMethods[] = {
    {"body_remove", py_body_remove, METH_VARARGS, "body_remove(h, id): DELETE of a BODY with its joints (before the first RUN; every rank)"},
    {"body_kinds", py_body_kinds, METH_NOARGS, "body_kinds() -> the registered body kinds' names, in code order"},
    {"body_kind", py_body_kind, METH_VARARGS, "body_kind(name) -> dict: what a kind is (code, nq, nu, nodal, movable, velocity, elastic, torque, pressure, scheme, forms)"},
    {"next_owned", py_next_owned, METH_VARARGS, "next_owned(h) -> whether this rank owns the next body"},
    {"body_sphere", (PyCFunction)(void (*)(void))py_body_sphere, METH_FASTCALL, "body_sphere(h, kind, cx, cy, cz, r, volid, surfid, rho, label, young, poisson) -> id"},
    {"body_shape", py_body_shape, METH_VARARGS, "body_shape(h, kind, parts, rho, label, young, poisson) -> id"},
    {"body_get", py_body_get, METH_VARARGS, "body_get(h, id, what)"},
    {"body_point", py_body_point, METH_VARARGS, "body_point(h, id, X, what) -> displacement, velocity or stress at a referential point (owner only)"},
    {"body_state", py_body_state, METH_VARARGS, "body_state(h, id) -> (conf, velo) on every rank (collective)"},
    {"body_set_state", py_body_set_state, METH_VARARGS, "body_set_state(h, id, what, values)"},
    {"body_chars", py_body_chars, METH_VARARGS, "body_chars(h, id, mass, volume, center, inertia)"},
    {"body_velocity", py_body_velocity, METH_VARARGS, "body_velocity(h, id, linear, angular)"},
    {"body_transform", py_body_transform, METH_VARARGS, "body_transform(h, id, R, c, d)"},
    {"body_scheme", py_body_scheme, METH_VARARGS, "body_scheme(h, id, name)"},
    {"body_damping", py_body_damping, METH_VARARGS, "body_damping(h, id, value)"},
    {"body_form", py_body_form, METH_VARARGS, "body_form(h, id, form)"},
    {"body_modal", py_body_modal, METH_VARARGS, "body_modal(h, id, n) -> (eigenvalues, eigenvectors) on every rank (collective)"},
    {"body_basis", py_body_basis, METH_VARARGS, "body_basis(h, id, values, vectors) (owner only)"},
    {"body_disable_rotation", py_body_disable_rotation, METH_VARARGS, "body_disable_rotation(h, id)"},
    {"body_pressure", py_body_pressure, METH_VARARGS, "body_pressure(h, id, surfid, value, ts)"},
    {"body_crack", py_body_crack, METH_VARARGS, "body_crack(h, id, point, normal, (surfid below, above), ft, topoadj)"},
    {"body_load", py_body_load, METH_VARARGS, "body_load(h, id, kind, frame, X, dir, value, ts)"},
    {"body_load_callback", py_body_load_callback, METH_VARARGS, "body_load_callback(h, id, what, fn, data) (every rank, same order)"},
    {"body_owned", py_body_owned, METH_VARARGS, "body_owned(h, id) -> whether this rank owns the body now"},
    {NULL, NULL, 0, NULL},
};
