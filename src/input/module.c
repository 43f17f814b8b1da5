/* The built-in `_moreau` module: thin functions over the C API, called by the Solfec-1.0
   API in python/moreau/__init__.py, which checks the arguments first. Conventions:
   - A SOLFEC object is an integer handle into Sols[] (domain and output live here, not in a
     Python object, so that they are destroyed in a known order before Python finalizes).
   - Bodies are built only on their owner rank (id mod size); every rank draws every id
     (MbDomainNextBodyId) so that ids agree. Per-body calls on a non-owner do nothing.
   - Each call into the C layer runs under an error handler that records PETSc's message
     and turns it into a Python exception (RuntimeError unless the caller says otherwise).
   - Collective calls first exchange the failure flag (MbModuleSyncFailure), so a rank whose
     deck failed earlier never leaves the others waiting inside a collective. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>
#include <moreau/mbmath.h>
#include <moreau/mboutput.h>
#include "inputimpl.h"

typedef struct {
  MbDomain  dom;  /* bodies, schemes, step loop */
  MbOutput  out;  /* OUTDIR/<deck>.h5 and .xmf */
  PetscBool ran;  /* RUN was called: print its summary at the end */
  PetscBool read; /* READ mode: out reads existing results, RUN does nothing */
} Sol;

static Sol      *Sols;         /* every SOLFEC object of the deck */
static int       NSol, CapSol; /* count and room */
static char      DeckPath[PETSC_MAX_PATH_LEN] = "deck.py";
static PyObject *PeerFailure;                               /* _moreau.PeerFailure: the deck failed on another rank */
static int       FailureKnown;                              /* a failure exchange reported failed ranks */
static int       FailedCount;                               /* how many, once known */
static char      ErrMsg[4096];                              /* first message of the last PETSc error */
static PetscBool CollectiveError;                           /* the last RUN error happened on every rank alike */
static PyObject *DeferredType, *DeferredValue, *DeferredTb; /* a CALLBACK's exception */

/* ------------------------------------------------------------------ errors */

static PetscErrorCode RecordError(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL) {
    const char *text = NULL;
    if (!mess || !mess[0]) PetscErrorMessage(n, &text, NULL);
    snprintf(ErrMsg, sizeof(ErrMsg), "%s", mess && mess[0] ? mess : (text ? text : "unknown PETSc error"));
  }
  return n;
}

/* Run `call` (a PetscErrorCode expression) with errors recorded instead of printed; on an
   error raise `exc` with PETSc's message (unless a Python exception is already set, as when
   a Python callback failed) and return NULL from the calling wrapper. */
#define MB_TRY(exc, call)                                                                                                                                                                                                                                \
  do {                                                                                                                                                                                                                                                   \
    PetscErrorCode mb_e_;                                                                                                                                                                                                                                \
    ErrMsg[0] = 0;                                                                                                                                                                                                                                       \
    (void)PetscPushErrorHandler(RecordError, NULL);                                                                                                                                                                                                      \
    mb_e_ = (call);                                                                                                                                                                                                                                      \
    (void)PetscPopErrorHandler();                                                                                                                                                                                                                        \
    if (mb_e_) {                                                                                                                                                                                                                                         \
      if (!PyErr_Occurred()) PyErr_SetString((exc), ErrMsg[0] ? ErrMsg : "PETSc error");                                                                                                                                                                 \
      return NULL;                                                                                                                                                                                                                                       \
    }                                                                                                                                                                                                                                                    \
  } while (0)

/* The failure exchange. It is the one collective the deck API makes before each of its
   collective calls (CheckPeers), at the end of each CALLBACK call (PyMonitorCall, which
   also reduces the callbacks' stop requests in it) and at the end of the deck
   (MbInputRunDeck), and it is always the same MPI_Allreduce: ranks that got to different
   places - one whose CALLBACK raised, another inside ENERGY in the same CALLBACK - still
   meet in it and all learn of the failure, instead of pairing two different collectives.
   Each rank also counts itself at its site; when no rank failed but the sites differ, the
   deck made a collective call on some ranks only: every rank not at the end of the deck
   then fails with a message naming the sites (SiteMismatch). */
static const char *const SiteName[MB_SITE_COUNT] = {"the end of the deck", "the end of a CALLBACK call", "SOLFEC", "RUN", "ENERGY", "HISTORY", "CRITICAL_STEP", "sync()", "SEEK, FORWARD, BACKWARD or DURATION", "BODY_STATE"};
static char              SiteMismatch[512]; /* set when ranks reached different sites */

static PetscErrorCode Exchange(MbSite site, int local, int stop, int *nfailed, PetscBool *stopall)
{
  PetscFunctionBegin;
  if (stopall) *stopall = PETSC_FALSE;
  if (!FailureKnown) {
    int l[2 + MB_SITE_COUNT] = {0}, g[2 + MB_SITE_COUNT], nsites = 0; /* failed, stop, ranks at each site */
    l[0]        = local;
    l[1]        = stop;
    l[2 + site] = 1;
    PetscCallMPI(MPI_Allreduce(l, g, 2 + MB_SITE_COUNT, MPI_INT, MPI_SUM, PETSC_COMM_WORLD));
    for (int k = 0; k < MB_SITE_COUNT; k++) nsites += g[2 + k] > 0;
    if (g[0]) {
      FailureKnown = 1;
      FailedCount  = g[0];
    } else if (nsites > 1) {
      PetscMPIInt size;
      size_t      len = 0;
      const char *sep = "";
      PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
      len = (size_t)snprintf(SiteMismatch, sizeof(SiteMismatch), "the ranks reached different collective calls (");
      for (int k = 0; k < MB_SITE_COUNT && len < sizeof(SiteMismatch); k++) {
        if (!g[2 + k]) continue;
        len += (size_t)snprintf(SiteMismatch + len, sizeof(SiteMismatch) - len, "%s%d rank%s at %s", sep, g[2 + k], g[2 + k] > 1 ? "s" : "", SiteName[k]);
        sep = ", ";
      }
      if (len < sizeof(SiteMismatch))
        snprintf(
            SiteMismatch + len, sizeof(SiteMismatch) - len,
            "): call SOLFEC, RUN, ENERGY, HISTORY and CRITICAL_STEP on every rank in the same order, in a CALLBACK too (a body's conf and velo are None on the ranks that do not own it: test for None after the collective calls, not around them)");
      FailureKnown = 1;
      FailedCount  = size - g[2 + MB_SITE_DECK_END]; /* the ranks at the end of the deck raise nothing */
    } else if (stopall)
      *stopall = g[1] ? PETSC_TRUE : PETSC_FALSE;
  }
  *nfailed = FailureKnown ? FailedCount : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbModuleSyncFailure(MbSite site, int local, int *nfailed) { return Exchange(site, local, 0, nfailed, NULL); }

int MbModuleIsPeerFailure(PyObject *type) { return PeerFailure && PyErr_GivenExceptionMatches(type, PeerFailure); }

/* Before a collective call made at `site`: raise PeerFailure when a rank's deck failed, or
   RuntimeError when the ranks are not all at this call. Returns -1 then. */
static int CheckPeers(MbSite site)
{
  int n     = 0;
  ErrMsg[0] = 0;
  (void)PetscPushErrorHandler(RecordError, NULL);
  PetscErrorCode e = MbModuleSyncFailure(site, 0, &n);
  (void)PetscPopErrorHandler();
  if (e) {
    PyErr_Format(PyExc_RuntimeError, "failure exchange between ranks failed: %s", ErrMsg);
    return -1;
  }
  if (SiteMismatch[0]) {
    PyErr_Format(PyExc_RuntimeError, "%s: %s", SiteName[site], SiteMismatch);
    return -1;
  }
  if (n) {
    PyErr_Format(PeerFailure, "the deck failed on %d other rank%s", n, n > 1 ? "s" : "");
    return -1;
  }
  return 0;
}

/* The deck file and line being executed now (the innermost frame in the deck file, else
   the innermost frame), for messages printed outside tracebacks. */
static void DeckLocation(char buf[], size_t len)
{
  PyFrameObject *f = PyEval_GetFrame(); /* borrowed */
  buf[0]           = 0;
  Py_XINCREF(f);
  while (f) {
    PyCodeObject  *code = PyFrame_GetCode(f);
    const char    *file = code ? PyUnicode_AsUTF8(code->co_filename) : NULL;
    PyFrameObject *back = PyFrame_GetBack(f);
    if (!buf[0] || (file && !strcmp(file, DeckPath))) snprintf(buf, len, " (%s, line %d)", file ? file : "?", PyFrame_GetLineNumber(f));
    Py_XDECREF(code);
    if (file && !strcmp(file, DeckPath)) back = (Py_XDECREF(back), NULL);
    Py_DECREF(f);
    f = back;
  }
  PyErr_Clear();
}

/* A failure on this rank that other ranks cannot learn of without hanging (they may be
   inside a collective): report it here and end the whole job. */
static void AbortJob(const char what[])
{
  PetscMPIInt rank = 0;
  char        where[PETSC_MAX_PATH_LEN + 32];
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  DeckLocation(where, sizeof(where));
  if (PyErr_Occurred()) PyErr_Print();
  fprintf(stderr, "moreau: error on rank %d in %s%s: %s\nmoreau: aborting all ranks\n", rank, what, where, ErrMsg[0] ? ErrMsg : "unknown error");
  MbInputFlushStdio();
  MPI_Abort(PETSC_COMM_WORLD, 1);
}

/* ------------------------------------------------------------------ helpers */

static Sol *GetSol(int h)
{
  if (h < 0 || h >= NSol || !Sols[h].dom) {
    PyErr_Format(PyExc_ValueError, "invalid SOLFEC handle %d", h);
    return NULL;
  }
  return &Sols[h];
}

/* n numbers from a sequence into x; raises TypeError naming `what` on a mismatch. */
static int ReadReals(PyObject *seq, Py_ssize_t n, PetscReal x[], const char what[])
{
  PyObject *fast = PySequence_Fast(seq, what);
  if (!fast) return -1;
  if (PySequence_Fast_GET_SIZE(fast) != n) {
    PyErr_Format(PyExc_TypeError, "%s must have %zd numbers, got %zd", what, n, PySequence_Fast_GET_SIZE(fast));
    Py_DECREF(fast);
    return -1;
  }
  for (Py_ssize_t k = 0; k < n; k++) {
    x[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, k));
    if (x[k] == -1.0 && PyErr_Occurred()) {
      Py_DECREF(fast);
      return -1;
    }
  }
  Py_DECREF(fast);
  return 0;
}

/* A sequence of numbers of any length into a new PETSc array (PetscFree it). */
static int ReadRealArray(PyObject *seq, PetscInt *n, PetscReal **x, const char what[])
{
  Py_ssize_t len = PySequence_Size(seq);
  if (len < 0) {
    PyErr_Format(PyExc_TypeError, "%s must be a sequence of numbers", what);
    return -1;
  }
  *n = (PetscInt)len;
  if (PetscMalloc1(*n + 1, x)) {
    PyErr_NoMemory();
    return -1;
  }
  if (ReadReals(seq, len, *x, what)) {
    PetscFree(*x);
    return -1;
  }
  return 0;
}

static int ReadIntArray(PyObject *seq, PetscInt *n, PetscInt **x, const char what[])
{
  PyObject *fast = PySequence_Fast(seq, what);
  if (!fast) return -1;
  *n = (PetscInt)PySequence_Fast_GET_SIZE(fast);
  if (PetscMalloc1(*n + 1, x)) {
    Py_DECREF(fast);
    PyErr_NoMemory();
    return -1;
  }
  for (PetscInt k = 0; k < *n; k++) {
    long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
    if (v == -1 && PyErr_Occurred()) {
      Py_DECREF(fast);
      PetscFree(*x);
      return -1;
    }
    (*x)[k] = (PetscInt)v;
  }
  Py_DECREF(fast);
  return 0;
}

static PyObject *RealTuple(const PetscReal x[], int n)
{
  PyObject *t = PyTuple_New(n);
  if (!t) return NULL;
  for (int k = 0; k < n; k++) {
    PyObject *f = PyFloat_FromDouble((double)x[k]);
    if (!f) {
      Py_DECREF(t);
      return NULL;
    }
    PyTuple_SET_ITEM(t, k, f);
  }
  return t;
}

static PyObject *RealList(const PetscReal x[], PetscInt n)
{
  PyObject *t = PyList_New(n);
  if (!t) return NULL;
  for (PetscInt k = 0; k < n; k++) {
    PyObject *f = PyFloat_FromDouble((double)x[k]);
    if (!f) {
      Py_DECREF(t);
      return NULL;
    }
    PyList_SET_ITEM(t, k, f);
  }
  return t;
}

/* The local body id, or a ValueError when this rank does not own it. */
static PetscErrorCode FindLocalBody(MbDomain dom, PetscInt id, MbBody *b)
{
  PetscFunctionBegin;
  PetscCall(MbDomainFindBody(dom, id, b));
  PetscCheck(*b, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body %" PetscInt_FMT " is not on this rank", id);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ shapes */

#define SHAPE_CAPSULE "moreau.MbShape"
#define TS_CAPSULE "moreau.MbTimeSeries"

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

static PetscErrorCode BuildShape(PyObject *parts, MbShape *s, int *pyerr)
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
  MB_TRY(PyExc_ValueError, BuildShape(parts, &s, &pyerr));
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
  if (ReadRealArray(ov, &nv, &v, "CONVEX: vertices") || ReadIntArray(ofp, &nfp, &fptr, "faces") || ReadIntArray(ofv, &nfv, &fvert, "faces") || ReadIntArray(ofs, &nfs, &fsurf, "faces")) goto done;
  {
    PetscErrorCode e;
    ErrMsg[0] = 0;
    (void)PetscPushErrorHandler(RecordError, NULL);
    e = MbShapeAddConvex(CapsuleShape(cap), nv / 3, v, nfp - 1, fptr, fvert, fsurf, (PetscInt)volid);
    (void)PetscPopErrorHandler();
    if (e) {
      PyErr_SetString(PyExc_ValueError, ErrMsg);
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
  if (ReadRealArray(op, &n, &p, "HULL: points")) return NULL;
  ErrMsg[0] = 0;
  (void)PetscPushErrorHandler(RecordError, NULL);
  e = MbShapeAddHull(CapsuleShape(cap), n / 3, p, (PetscInt)volid, (PetscInt)surfid);
  (void)PetscPopErrorHandler();
  PetscFree(p);
  if (e) {
    PyErr_SetString(PyExc_ValueError, ErrMsg);
    return NULL;
  }
  Py_RETURN_NONE;
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
  if (ReadReals(on, (PetscInt)nx, X, "mesh nodes") || ReadIntArray(op, &ne, &eptr, "mesh element offsets") || ReadIntArray(oe, &nen, &enode, "mesh element nodes")) {
    PetscFree(X);
    PetscFree(eptr);
    PetscFree(enode);
    return NULL;
  }
  ErrMsg[0] = 0;
  (void)PetscPushErrorHandler(RecordError, NULL);
  PetscErrorCode e = ne < 2 || eptr[ne - 1] != nen ? PETSC_ERR_ARG_SIZ : MbShapeSetMesh(CapsuleShape(cap), (PetscInt)(nx / 3), X, ne - 1, eptr, enode);
  (void)PetscPopErrorHandler();
  PetscFree(X);
  PetscFree(eptr);
  PetscFree(enode);
  if (e) {
    PyErr_SetString(PyExc_ValueError, ErrMsg[0] ? ErrMsg : "MESH: element offsets do not match the element nodes");
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
  if (ReadReals(on, 3 * type, x, "element nodes")) return NULL;
  if (os != Py_None) {
    if (ReadIntArray(os, &ns, &ps, "element surfids")) return NULL;
    for (PetscInt k = 0; k < ns && k < 6; k++) sid[k] = ps[k];
    PetscFree(ps);
  }
  ErrMsg[0] = 0;
  (void)PetscPushErrorHandler(RecordError, NULL);
  e = MbShapeAddElement(CapsuleShape(cap), (PetscInt)type, x, sid, (PetscInt)volid);
  (void)PetscPopErrorHandler();
  if (e) {
    PyErr_SetString(PyExc_ValueError, ErrMsg);
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

/* shape_transform(cap, R(9, row-major), c(3), d(3)): x -> R(x - c) + c + d */
static PyObject *py_shape_transform(PyObject *self, PyObject *args)
{
  PyObject *a, *oR, *oc, *od;
  PetscReal R[9], c[3], d[3];
  if (!PyArg_ParseTuple(args, "OOOO", &a, &oR, &oc, &od)) return NULL;
  if (ReadReals(oR, 9, R, "rotation") || ReadReals(oc, 3, c, "point") || ReadReals(od, 3, d, "vector")) return NULL;
  MB_TRY(PyExc_RuntimeError, MbShapeTransform(CapsuleShape(a), R, c, d));
  Py_RETURN_NONE;
}

static PyObject *MassPropsTuple(const MbMassProps *mp) { return Py_BuildValue("(ddNN)", (double)mp->mass, (double)mp->volume, RealTuple(mp->center, 3), RealTuple(mp->inertia, 9)); }

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
  MB_TRY(PyExc_ValueError, BuildShape(parts, &s, &pyerr));
  ErrMsg[0] = 0;
  (void)PetscPushErrorHandler(RecordError, NULL);
  e = MbShapeMassProps(s, rho, &mp);
  (void)PetscPopErrorHandler();
  (void)MbShapeDestroy(&s);
  if (e) {
    PyErr_SetString(PyExc_ValueError, ErrMsg);
    return NULL;
  }
  return MassPropsTuple(&mp);
}

/* ------------------------------------------------------------------ time series */

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
  if (ReadRealArray(ot, &nt, &t, "TIME_SERIES times")) return NULL;
  if (ReadRealArray(ov, &nv, &v, "TIME_SERIES values")) {
    PetscFree(t);
    return NULL;
  }
  {
    PetscErrorCode e;
    ErrMsg[0] = 0;
    (void)PetscPushErrorHandler(RecordError, NULL);
    e = MbTimeSeriesCreate(nt, t, v, &ts);
    (void)PetscPopErrorHandler();
    PetscFree(t);
    PetscFree(v);
    if (e) {
      PyErr_SetString(PyExc_ValueError, ErrMsg);
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

/* ------------------------------------------------------------------ SOLFEC */

/* -mb_output_dir overrides the deck's output directory (through the options database, so
   that -help lists it). */
static PetscErrorCode OutputDirFromOptions(char dir[], size_t len, PetscBool *set)
{
  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Deck output", "moreau");
  PetscCall(PetscOptionsString("-mb_output_dir", "Write results under this directory instead of the deck's SOLFEC output directory", "SOLFEC", dir, dir, len, set));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A new SOLFEC object (number k) whose file dir/name.h5 an earlier object still writes (two
   SOLFEC objects of a deck in one output directory, or every object under -mb_output_dir,
   as spring_oscillator's order mode makes): the earlier object's file is closed first,
   complete up to its last frame, and the new object writes it anew, so the file holds the
   last run; the earlier object runs on without output. A notice says so. Collective. */
static PetscErrorCode TakeOverFile(const char dir[], const char name[], int k, PetscBool reading)
{
  char rdir[PETSC_MAX_PATH_LEN], path[2 * PETSC_MAX_PATH_LEN + 8];
  PetscFunctionBegin;
  if (!realpath(dir, rdir)) PetscFunctionReturn(PETSC_SUCCESS); /* not made yet: no earlier file in it */
  (void)snprintf(path, sizeof(path), "%s/%s.h5", rdir, name);
  for (int j = 0; j < k; j++) {
    const char *h5, *xmf;
    char        rh5[PETSC_MAX_PATH_LEN];
    if (!Sols[j].out) continue;
    PetscCall(MbOutputGetPaths(Sols[j].out, &h5, &xmf));
    if (!realpath(h5, rh5) || strcmp(rh5, path)) continue;
    PetscCall(MbOutputDestroy(&Sols[j].out));
    if (reading)
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "moreau: SOLFEC object %d reads %s, which SOLFEC object %d wrote (READ mode, as Solfec-1.0 reopens a deck's results): that object's file is closed\n", k + 1, path, j + 1));
    else
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "moreau: SOLFEC object %d writes %s, as SOLFEC object %d did: that object's file is closed and written anew (it keeps the last run); give each SOLFEC object its own output directory to keep both\n",
                            k + 1, path, j + 1));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether an earlier SOLFEC object of this run writes dir/name.h5 (then a later one finds
   that file because this run made it, and takes it over rather than reading it). */
static PetscBool EarlierWriter(const char dir[], const char name[], int k)
{
  char rdir[PETSC_MAX_PATH_LEN], path[2 * PETSC_MAX_PATH_LEN + 8];
  if (!realpath(dir, rdir)) return PETSC_FALSE;
  (void)snprintf(path, sizeof(path), "%s/%s.h5", rdir, name);
  for (int j = 0; j < k; j++) {
    const char *h5, *xmf;
    char        rh5[PETSC_MAX_PATH_LEN];
    if (!Sols[j].out || Sols[j].read) continue;
    if (MbOutputGetPaths(Sols[j].out, &h5, &xmf)) continue;
    if (realpath(h5, rh5) && !strcmp(rh5, path)) return PETSC_TRUE;
  }
  return PETSC_FALSE;
}

/* The output of SOLFEC object s, or NULL with a Python error naming fn when a later SOLFEC
   object took its file over (TakeOverFile). */
static MbOutput SolOut(Sol *s, const char *fn)
{
  if (!s->out)
    PyErr_Format(PyExc_RuntimeError, "%s: this SOLFEC object's output file was taken over by a later SOLFEC object writing the same file (one output directory for both): its results are gone; give each SOLFEC object its own output directory", fn);
  return s->out;
}

/* solfec_create(step, outdir) -> handle. Collective: creates the output files. */
static PyObject *py_solfec_create(PyObject *self, PyObject *args)
{
  double      step;
  const char *dir;
  char        name[PETSC_MAX_PATH_LEN], odir[PETSC_MAX_PATH_LEN];
  const char *base, *dot;
  PetscBool   set;
  Sol        *s;
  if (!PyArg_ParseTuple(args, "ds", &step, &dir)) return NULL;
  if (CheckPeers(MB_SITE_SOLFEC)) return NULL;
  if (strlen(dir) >= sizeof(odir)) return PyErr_Format(PyExc_ValueError, "the output directory's path has %zu characters; at most %d are supported", strlen(dir), (int)sizeof(odir) - 1);
  if (NSol == CapSol) {
    CapSol = CapSol ? 2 * CapSol : 4;
    MB_TRY(PyExc_MemoryError, PetscRealloc(sizeof(Sol) * CapSol, &Sols));
  }
  s = &Sols[NSol];
  PetscMemzero(s, sizeof(*s));
  /* run name: the deck's file name without directory and .py */
  base = strrchr(DeckPath, '/');
  base = base ? base + 1 : DeckPath;
  snprintf(name, sizeof(name), "%s", base);
  dot = strrchr(name, '.');
  if (dot && dot != name) name[dot - name] = 0;
  snprintf(odir, sizeof(odir), "%s", dir);
  MB_TRY(PyExc_RuntimeError, OutputDirFromOptions(odir, sizeof(odir), &set));
  MB_TRY(PyExc_RuntimeError, MbDomainCreate(PETSC_COMM_WORLD, &s->dom));
  NSol++;
  MB_TRY(PyExc_RuntimeError, MbDomainSetFromOptions(s->dom));
  {
    /* Create the default scheme on every rank now, not lazily on the ranks that own rigid
       bodies: MbDomainSummary reduces over the domain's schemes, so every rank must hold
       the same ones in the same order (body.scheme creates the others on every rank). */
    char     def[64] = MBRIGNEG;
    MbScheme sch;
    MB_TRY(PyExc_RuntimeError, PetscOptionsGetString(NULL, NULL, "-mb_scheme", def, sizeof(def), NULL));
    MB_TRY(PyExc_ValueError, MbDomainGetScheme(s->dom, def, &sch));
  }
  MB_TRY(PyExc_ValueError, MbDomainSetStep(s->dom, step));
  { /* READ mode, as Solfec-1.0: results already in the output directory are read, not
       computed anew, unless -w (or -mb_write) says to write over them; a restart writes */
    PetscBool w1, w2, rs, exists = PETSC_FALSE;
    MB_TRY(PyExc_RuntimeError, PetscOptionsHasName(NULL, NULL, "-w", &w1));
    MB_TRY(PyExc_RuntimeError, PetscOptionsHasName(NULL, NULL, "-mb_write", &w2));
    MB_TRY(PyExc_RuntimeError, PetscOptionsHasName(NULL, NULL, "-mb_restart", &rs));
    if (!w1 && !w2 && !rs) {
      /* an earlier SOLFEC object of this run wrote these results: closed, then read (Solfec
         decks run, then open a second SOLFEC object on the same path to post-process) */
      if (EarlierWriter(odir, name, NSol - 1)) MB_TRY(PyExc_RuntimeError, TakeOverFile(odir, name, NSol - 1, PETSC_TRUE));
      MB_TRY(PyExc_OSError, MbOutputExists(PETSC_COMM_WORLD, odir, name, &exists));
    }
    if (exists) {
      const char *h5, *xmf;
      PetscInt    nf;
      MB_TRY(PyExc_OSError, MbOutputOpenRead(s->dom, odir, name, &s->out));
      MB_TRY(PyExc_RuntimeError, MbOutputGetPaths(s->out, &h5, &xmf));
      MB_TRY(PyExc_RuntimeError, MbOutputGetFrames(s->out, &nf, NULL, NULL, NULL));
      s->read = PETSC_TRUE;
      MB_TRY(PyExc_RuntimeError, PetscPrintf(PETSC_COMM_WORLD, "moreau: %s holds results (%" PetscInt_FMT " frames): READ mode, RUN reads instead of computing (moreau -w computes anew over them)\n", h5, nf));
      return Py_BuildValue("(is)", NSol - 1, "READ");
    }
  }
  MB_TRY(PyExc_RuntimeError, TakeOverFile(odir, name, NSol - 1, PETSC_FALSE));
  MB_TRY(PyExc_OSError, MbOutputCreate(s->dom, odir, name, 0.0, &s->out));
  return Py_BuildValue("(is)", NSol - 1, "WRITE");
}

/* solfec_info(h) -> (time, step, steps) */
static PyObject *py_solfec_info(PyObject *self, PyObject *args)
{
  int       h;
  Sol      *s;
  PetscReal t, dt;
  PetscInt  n;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainGetTime(s->dom, &t));
  MB_TRY(PyExc_RuntimeError, MbDomainGetStep(s->dom, &dt));
  MB_TRY(PyExc_RuntimeError, MbDomainGetStepCount(s->dom, &n));
  return Py_BuildValue("(ddn)", (double)t, (double)dt, (Py_ssize_t)n);
}

static PyObject *py_solfec_set_step(PyObject *self, PyObject *args)
{
  int    h;
  double dt;
  Sol   *s;
  if (!PyArg_ParseTuple(args, "id", &h, &dt) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainSetStep(s->dom, dt));
  Py_RETURN_NONE;
}

/* solfec_verbose(h, flag): progress lines; -mb_quiet on the command line wins */
static PyObject *py_solfec_verbose(PyObject *self, PyObject *args)
{
  int       h, flag;
  Sol      *s;
  PetscBool quiet = PETSC_FALSE;
  if (!PyArg_ParseTuple(args, "ip", &h, &flag) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, PetscOptionsGetBool(NULL, NULL, "-mb_quiet", &quiet, NULL));
  MB_TRY(PyExc_RuntimeError, MbDomainSetVerbose(s->dom, flag && !quiet ? PETSC_TRUE : PETSC_FALSE));
  Py_RETURN_NONE;
}

static PyObject *py_solfec_gravity(PyObject *self, PyObject *args)
{
  int       h;
  PyObject *og;
  PetscReal g[3];
  Sol      *s;
  if (!PyArg_ParseTuple(args, "iO", &h, &og) || !(s = GetSol(h))) return NULL;
  if (ReadReals(og, 3, g, "GRAVITY: vector")) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainSetGravity(s->dom, g));
  Py_RETURN_NONE;
}

static PyObject *py_solfec_output(PyObject *self, PyObject *args)
{
  int    h;
  double dt;
  Sol   *s;
  if (!PyArg_ParseTuple(args, "id", &h, &dt) || !(s = GetSol(h)) || !SolOut(s, "OUTPUT")) return NULL;
  MB_TRY(PyExc_ValueError, MbOutputSetInterval(s->out, dt));
  Py_RETURN_NONE;
}

/* solfec_checkpoint(h, steps, interval, wall): checkpoint intervals; the -mb_checkpoint_*
   options, when given, win over the deck. */
static PyObject *py_solfec_checkpoint(PyObject *self, PyObject *args)
{
  int       h;
  long      steps;
  double    dt, wall;
  Sol      *s;
  PetscBool s1, s2, s3;
  if (!PyArg_ParseTuple(args, "ildd", &h, &steps, &dt, &wall) || !(s = GetSol(h)) || !SolOut(s, "CHECKPOINT")) return NULL;
  MB_TRY(PyExc_RuntimeError, PetscOptionsHasName(NULL, NULL, "-mb_checkpoint_steps", &s1));
  MB_TRY(PyExc_RuntimeError, PetscOptionsHasName(NULL, NULL, "-mb_checkpoint_interval", &s2));
  MB_TRY(PyExc_RuntimeError, PetscOptionsHasName(NULL, NULL, "-mb_checkpoint_wall", &s3));
  if (s1 || s2 || s3) Py_RETURN_NONE;
  MB_TRY(PyExc_ValueError, MbDomainSetCheckpointInterval(s->dom, (PetscInt)steps, dt, wall));
  Py_RETURN_NONE;
}

/* solfec_paths(h) -> (h5, xmf) */
static PyObject *py_solfec_paths(PyObject *self, PyObject *args)
{
  int         h;
  Sol        *s;
  const char *a, *b;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = GetSol(h)) || !SolOut(s, "SOLFEC")) return NULL;
  MB_TRY(PyExc_RuntimeError, MbOutputGetPaths(s->out, &a, &b));
  return Py_BuildValue("(ss)", a, b);
}

/* A CALLBACK: fn(*args) on every rank at the same times. The failure and stop flags are
   reduced over ranks, so every rank stops, or fails, together. */
typedef struct {
  PyObject *fn, *args;
} PyMonitor;

static PetscErrorCode PyMonitorDestroy(void *ctx)
{
  PyMonitor *m = (PyMonitor *)ctx;
  PetscFunctionBegin;
  Py_XDECREF(m->fn);
  Py_XDECREF(m->args);
  PetscCall(PetscFree(m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PyMonitorCall(MbDomain dom, void *ctx, PetscBool *stop)
{
  PyMonitor *m      = (PyMonitor *)ctx;
  PyObject  *r      = PyObject_Call(m->fn, m->args, NULL);
  int        failed = 0, halt = 0, n;
  PetscFunctionBegin;
  if (r) {
    /* Solfec: a callback returning 0 stops the run (None continues) */
    if (r == Py_False)
      halt = 1;
    else if (PyLong_Check(r))
      halt = PyLong_AsLong(r) == 0;
    else if (PyFloat_Check(r))
      halt = PyFloat_AsDouble(r) == 0.0;
    Py_DECREF(r);
  } else {
    /* a PeerFailure raised in the callback (by ENERGY, say) is no failure of this rank's:
       it was learnt in an exchange already */
    failed = !MbModuleIsPeerFailure(PyErr_Occurred());
    if (!DeferredType)
      PyErr_Fetch(&DeferredType, &DeferredValue, &DeferredTb);
    else
      PyErr_Clear();
  }
  /* the failure exchange, not an exchange of its own: a rank whose callback raised must
     meet the ranks whose callback went on into a collective call (ENERGY, HISTORY), which
     begin with this exchange too */
  PetscCall(Exchange(MB_SITE_CALLBACK, failed, halt, &n, stop));
  PetscCall(MbDomainEnergyRebase(dom)); /* what the callback gave is not energy made from nothing */
  if (n) {
    CollectiveError = PETSC_TRUE;
    SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "CALLBACK raised an exception%s", failed ? "" : " on another rank");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solfec_callback(h, interval, fn, args) */
static PyObject *py_solfec_callback(PyObject *self, PyObject *args)
{
  int        h;
  double     dt;
  PyObject  *fn, *fargs;
  PyMonitor *m;
  Sol       *s;
  if (!PyArg_ParseTuple(args, "idOO!", &h, &dt, &fn, &PyTuple_Type, &fargs) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_MemoryError, PetscNew(&m));
  m->fn   = Py_NewRef(fn);
  m->args = Py_NewRef(fargs);
  MB_TRY(PyExc_ValueError, MbDomainAddMonitor(s->dom, dt, PyMonitorCall, m, PyMonitorDestroy));
  { /* Solfec-1.0: the first call comes one interval after CALLBACK, after a step (never at
       the start of a run); an interval of 0 calls after every step */
    PetscReal t, h;
    MB_TRY(PyExc_RuntimeError, MbDomainGetTime(s->dom, &t));
    MB_TRY(PyExc_RuntimeError, MbDomainGetStep(s->dom, &h));
    MB_TRY(PyExc_RuntimeError, MbDomainSetMonitorStart(s->dom, PyMonitorCall, m, dt > 0 ? t + dt : t + 0.5 * h));
  }
  Py_RETURN_NONE;
}

/* solfec_run(h, duration). Collective. */
static PyObject *py_solfec_run(PyObject *self, PyObject *args)
{
  int            h;
  double         duration;
  Sol           *s;
  PetscErrorCode e;
  if (!PyArg_ParseTuple(args, "id", &h, &duration) || !(s = GetSol(h))) return NULL;
  if (CheckPeers(MB_SITE_RUN)) return NULL;
  if (s->read) Py_RETURN_NONE; /* READ mode: Solfec-1.0 ignores RUN */
  s->ran          = PETSC_TRUE;
  CollectiveError = PETSC_FALSE;
  ErrMsg[0]       = 0;
  (void)PetscPushErrorHandler(RecordError, NULL);
  e = s->out ? MbOutputNoticeRun(s->out, duration) : PETSC_SUCCESS;
  if (!e) e = MbDomainRun(s->dom, duration);
  if (!e && s->out) e = MbOutputFlush(s->out);
  (void)PetscPopErrorHandler();
  if (e) {
    if (CollectiveError) {
      /* every rank is here: raise normally; the rank whose CALLBACK raised gets its own
         exception back, the others PeerFailure */
      CollectiveError = PETSC_FALSE;
      if (DeferredType) {
        PyErr_Restore(DeferredType, DeferredValue, DeferredTb);
        DeferredType = DeferredValue = DeferredTb = NULL;
      } else if (SiteMismatch[0])
        PyErr_Format(PyExc_RuntimeError, "CALLBACK: %s", SiteMismatch);
      else
        PyErr_SetString(PeerFailure, "a CALLBACK raised an exception on another rank");
      return NULL;
    }
    AbortJob("RUN");
  }
  { /* a signal stopped the run after its checkpoint: the job ends here on every rank, with
       the status that says "continue me" (src/core/signal.c) */
    int sig = 0;
    (void)MbDomainGetInterrupted(s->dom, &sig);
    if (sig) {
      PyObject *code = PyLong_FromLong(MB_EXIT_INTERRUPTED);
      PyErr_SetObject(PyExc_SystemExit, code);
      Py_XDECREF(code);
      return NULL;
    }
  }
  Py_RETURN_NONE;
}

/* READ mode: the frame read before anything that reads the state (Solfec's lazy start:
   frame 0). */
static PetscErrorCode ReadInit(Sol *s)
{
  PetscInt cur;
  PetscFunctionBegin;
  PetscCall(MbOutputGetFrames(s->out, NULL, &cur, NULL, NULL));
  if (cur < 0) PetscCall(MbOutputReadFrame(s->out, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solfec_seek(h, t): READ mode: the frame nearest t (WRITE mode: nothing). Collective. */
static PyObject *py_solfec_seek(PyObject *self, PyObject *args)
{
  int      h;
  double   t;
  Sol     *s;
  PetscInt f;
  if (!PyArg_ParseTuple(args, "id", &h, &t) || !(s = GetSol(h))) return NULL;
  if (!s->read) Py_RETURN_NONE;
  if (CheckPeers(MB_SITE_READ)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbOutputFrameAt(s->out, t, &f));
  MB_TRY(PyExc_RuntimeError, MbOutputReadFrame(s->out, f));
  Py_RETURN_NONE;
}

/* solfec_forward(h, n): READ mode: n frames on (n < 0: back), clamped to the first and last;
   the first call of a session only reads frame 0, as Solfec's. Collective. */
static PyObject *py_solfec_forward(PyObject *self, PyObject *args)
{
  int      h;
  long     n;
  Sol     *s;
  PetscInt nf, cur, f;
  if (!PyArg_ParseTuple(args, "il", &h, &n) || !(s = GetSol(h))) return NULL;
  if (!s->read) Py_RETURN_NONE;
  if (CheckPeers(MB_SITE_READ)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbOutputGetFrames(s->out, &nf, &cur, NULL, NULL));
  if (cur < 0) {
    MB_TRY(PyExc_RuntimeError, ReadInit(s));
    Py_RETURN_NONE;
  }
  f = (PetscInt)PetscMax(0, PetscMin((long)nf - 1, (long)cur + n));
  if (f != cur) MB_TRY(PyExc_RuntimeError, MbOutputReadFrame(s->out, f));
  Py_RETURN_NONE;
}

/* contact_exclude(h, kind, a, b): CONTACT_EXCLUDE_BODIES (kind 0, body ids) and
   CONTACT_EXCLUDE_SURFACES (kind 1, surface ids), on every rank alike. */
static PyObject *py_contact_exclude(PyObject *self, PyObject *args)
{
  int  h, kind;
  long a, b;
  Sol *s;
  if (!PyArg_ParseTuple(args, "iill", &h, &kind, &a, &b) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainExcludeContact(s->dom, kind ? MB_EXCLUDE_SURFACES : MB_EXCLUDE_BODIES, (PetscInt)a, (PetscInt)b));
  Py_RETURN_NONE;
}

/* solfec_constraints(h) -> [(kind, master, slave, point, base, R, gap), ...]: WRITE mode:
   this rank's constraints of the last step (Solfec-1.0's dom->con of the rank); READ mode:
   those of the frame read last, on every rank (none before one is read). Not collective. */
static PyObject *py_solfec_constraints(PyObject *self, PyObject *args)
{
  int                     h;
  Sol                    *s;
  PetscInt                n   = 0;
  MbConstraintInfo       *own = NULL;
  const MbConstraintInfo *c;
  PyObject               *list;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = GetSol(h))) return NULL;
  if (s->read)
    MB_TRY(PyExc_RuntimeError, MbOutputGetFrameConstraints(s->out, &n, &c));
  else {
    MB_TRY(PyExc_RuntimeError, MbDomainGetConstraints(s->dom, &n, &own));
    c = own;
  }
  if (!(list = PyList_New(n))) {
    PetscFree(own);
    return NULL;
  }
  for (PetscInt k = 0; k < n; k++) {
    PyObject *row = Py_BuildValue("(lllNNNd)", (long)c[k].kind, (long)c[k].body[0], (long)c[k].body[1], RealTuple(c[k].point, 3), RealTuple(c[k].base, 9), RealTuple(c[k].R, 3), (double)c[k].gap);
    if (!row) {
      Py_DECREF(list);
      PetscFree(own);
      return NULL;
    }
    PyList_SET_ITEM(list, k, row);
  }
  PetscFree(own);
  return list;
}

/* solfec_read_limits(h) -> None in WRITE mode, (t0, t1) of the stored frames in READ mode
   (frame 0 read first if none was). Collective. */
static PyObject *py_solfec_read_limits(PyObject *self, PyObject *args)
{
  int       h;
  Sol      *s;
  PetscReal t0, t1;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = GetSol(h))) return NULL;
  if (!s->read) Py_RETURN_NONE;
  if (CheckPeers(MB_SITE_READ)) return NULL;
  MB_TRY(PyExc_RuntimeError, ReadInit(s));
  MB_TRY(PyExc_RuntimeError, MbOutputGetFrames(s->out, NULL, NULL, &t0, &t1));
  return Py_BuildValue("(dd)", (double)t0, (double)t1);
}

/* READ mode's ENERGY: the /history record at the time of the frame read (global energies;
   the step that ended there), or the frame's energies of body id (kinetic, internal,
   external; contact and friction 0: not kept per body). */
static PyObject *ReadEnergy(Sol *s, PetscInt id)
{
  static const char *items[5] = {"KINETIC", "INTERNAL", "EXTERNAL", "CONTACT", "FRICTION"};
  double             e[5]     = {0, 0, 0, 0, 0};
  PetscReal          t;
  MB_TRY(PyExc_RuntimeError, ReadInit(s));
  MB_TRY(PyExc_RuntimeError, MbDomainGetTime(s->dom, &t));
  for (int k = 0; k < (id >= 0 ? 3 : 5); k++) {
    PetscInt   n;
    PetscReal *tt, *v;
    if (id >= 0)
      MB_TRY(PyExc_RuntimeError, MbOutputReadBodyEnergy(s->out, id, items[k], t, t, &n, &tt, &v));
    else
      MB_TRY(PyExc_RuntimeError, MbOutputReadHistory(s->out, items[k], t, t, &n, &tt, &v));
    if (n > 0) e[k] = (double)v[n - 1];
    PetscFree(tt);
    PetscFree(v);
  }
  return Py_BuildValue("(ddddd)", e[0], e[1], e[2], e[3], e[4]);
}

/* solfec_energy(h, id) -> (kinetic, internal, external, contact, friction), global; of one
   body when id >= 0. Collective. */
static PyObject *py_solfec_energy(PyObject *self, PyObject *args)
{
  int      h;
  long     id;
  Sol     *s;
  MbEnergy e, g;
  MPI_Comm comm;
  if (!PyArg_ParseTuple(args, "il", &h, &id) || !(s = GetSol(h))) return NULL;
  if (CheckPeers(MB_SITE_ENERGY)) return NULL;
  if (s->read) return ReadEnergy(s, (PetscInt)id);
  if (id < 0)
    MB_TRY(PyExc_RuntimeError, MbDomainGetEnergy(s->dom, &g));
  else {
    MB_TRY(PyExc_RuntimeError, MbDomainGetBodyEnergy(s->dom, (PetscInt)id, &e));
    MB_TRY(PyExc_RuntimeError, MbDomainGetComm(s->dom, &comm));
    if (MPI_Allreduce(&e, &g, 5, MPIU_REAL, MPIU_SUM, comm)) return PyErr_Format(PyExc_RuntimeError, "MPI_Allreduce failed");
  }
  return Py_BuildValue("(ddddd)", (double)g.kinetic, (double)g.internal, (double)g.external, (double)g.contact, (double)g.friction);
}

/* solfec_history(h, item, t0, t1) -> (times, values). Collective. */
static PyObject *py_solfec_history(PyObject *self, PyObject *args)
{
  int         h;
  const char *item;
  double      t0, t1;
  Sol        *s;
  PetscInt    n;
  PetscReal  *t, *v;
  PyObject   *r;
  if (!PyArg_ParseTuple(args, "isdd", &h, &item, &t0, &t1) || !(s = GetSol(h))) return NULL;
  if (CheckPeers(MB_SITE_HISTORY) || !SolOut(s, "HISTORY")) return NULL;
  MB_TRY(PyExc_RuntimeError, MbOutputFlush(s->out));
  MB_TRY(PyExc_ValueError, MbOutputReadHistory(s->out, item, t0, t1, &n, &t, &v));
  r = Py_BuildValue("(NN)", RealList(t, n), RealList(v, n));
  PetscFree(t);
  PetscFree(v);
  return r;
}

/* solfec_history_body(h, id, X, item, t0, t1) -> (times, values). Collective. */
/* HISTORY of point X of a body with a nodal state (a finite-element body): its owner finds
   the entries of q and u the point depends on (MbBodyPointDofs), every rank reads them from
   the frames (MbOutputReadBodyState), and the owner evaluates the item there — place,
   velocity or the stress at X itself (MbBodyPointState) — and sends the series to all.
   nodal = false, nothing done, for the other bodies (MbOutputReadBody). Collective. */
static PetscErrorCode HistoryNodal(Sol *s, PetscInt id, const PetscReal X[3], const char item[], PetscReal t0, PetscReal t1, PetscBool *nodal, PetscInt *n, PetscReal **t, PetscReal **v)
{
  PetscMPIInt owner, rank;
  MbBody      b = NULL;
  PetscInt    col[MB_BODY_POINT_DOFS_MAX], info[2] = {0, 0}; /* has a nodal state; entries (−1: an error) */
  PetscReal  *q = NULL, *u = NULL;
  char        msg[256] = "";
  MPI_Comm    comm;
  PetscFunctionBegin;
  *nodal = PETSC_FALSE;
  PetscCall(MbDomainGetComm(s->dom, &comm));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(MbDomainOwnerRank(s->dom, id, &owner));
  if (rank == owner) {
    PetscCall(MbDomainFindBody(s->dom, id, &b));
    if (b) {
      PetscBool      has;
      PetscInt       nd = 0;
      PetscErrorCode e;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      e = MbBodyPointDofs(b, X, &nd, col, &has);
      PetscCall(PetscPopErrorHandler());
      if (e) {
        info[0] = 1, info[1] = -1;
        (void)snprintf(msg, sizeof(msg), "HISTORY: the point (%g, %g, %g) is not in body %lld's mesh", (double)X[0], (double)X[1], (double)X[2], (long long)id);
      } else
        info[0] = has, info[1] = nd;
    }
  }
  PetscCallMPI(MPI_Bcast(info, 2, MPIU_INT, owner, comm));
  if (!info[0]) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallMPI(MPI_Bcast(msg, sizeof(msg), MPI_CHAR, owner, comm));
  PetscCheck(info[1] >= 0, comm, PETSC_ERR_ARG_OUTOFRANGE, "%s", msg);
  PetscCallMPI(MPI_Bcast(col, (PetscMPIInt)info[1], MPIU_INT, owner, comm));
  *nodal = PETSC_TRUE;
  PetscCall(MbOutputReadBodyState(s->out, id, info[1], col, t0, t1, n, t, &q, &u));
  PetscCall(PetscMalloc1(*n + 1, v));
  if (rank == owner) {
    for (PetscInt f = 0; f < *n; f++) {
      PetscReal x[3], vel[3], sig[9];
      PetscBool known;
      PetscCall(MbBodyPointState(b, X, &q[info[1] * f], &u[info[1] * f], x, vel, sig));
      PetscCall(MbOutputBodyItemValue(item, X, x, vel, sig, &(*v)[f], &known));
      PetscCheck(known, PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown body item '%s'; expected one of %s", item, MB_OUTPUT_BODY_ITEMS);
    }
  }
  PetscCallMPI(MPI_Bcast(*v, (PetscMPIInt)*n, MPIU_REAL, owner, comm));
  PetscCall(PetscFree(q));
  PetscCall(PetscFree(u));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PyObject *py_solfec_history_body(PyObject *self, PyObject *args)
{
  int         h;
  long        id;
  const char *item;
  double      t0, t1;
  PyObject   *oX, *r;
  PetscReal   X[3], *t, *v;
  PetscInt    n;
  Sol        *s;
  if (!PyArg_ParseTuple(args, "ilOsdd", &h, &id, &oX, &item, &t0, &t1) || !(s = GetSol(h))) return NULL;
  if (ReadReals(oX, 3, X, "HISTORY: point")) return NULL;
  if (CheckPeers(MB_SITE_HISTORY) || !SolOut(s, "HISTORY")) return NULL;
  MB_TRY(PyExc_RuntimeError, MbOutputFlush(s->out));
  {
    PetscBool nodal;
    MB_TRY(PyExc_ValueError, HistoryNodal(s, (PetscInt)id, X, item, t0, t1, &nodal, &n, &t, &v));
    if (!nodal) MB_TRY(PyExc_ValueError, MbOutputReadBody(s->out, (PetscInt)id, X, item, t0, t1, &n, &t, &v));
  }
  r = Py_BuildValue("(NN)", RealList(t, n), RealList(v, n));
  PetscFree(t);
  PetscFree(v);
  return r;
}

/* solfec_history_body_energy(h, id, item, t0, t1) -> (times, values) of a body's KINETIC,
   INTERNAL or EXTERNAL energy at the output frames. Collective. */
static PyObject *py_solfec_history_body_energy(PyObject *self, PyObject *args)
{
  int         h;
  long        id;
  const char *item;
  double      t0, t1;
  PyObject   *r;
  PetscReal  *t, *v;
  PetscInt    n;
  Sol        *s;
  if (!PyArg_ParseTuple(args, "ilsdd", &h, &id, &item, &t0, &t1) || !(s = GetSol(h))) return NULL;
  if (CheckPeers(MB_SITE_HISTORY) || !SolOut(s, "HISTORY")) return NULL;
  MB_TRY(PyExc_ValueError, MbOutputReadBodyEnergy(s->out, (PetscInt)id, item, t0, t1, &n, &t, &v));
  r = Py_BuildValue("(NN)", RealList(t, n), RealList(v, n));
  PetscFree(t);
  PetscFree(v);
  return r;
}

/* sync() -> None, or PeerFailure when a rank's deck failed. Collective. */
static PyObject *py_sync(PyObject *self, PyObject *args)
{
  if (CheckPeers(MB_SITE_SYNC)) return NULL;
  Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ interactions */

/* solfec_surface_material(h, s1, s2, model, friction, cohesion, restitution, spring, dashpot) */
static PyObject *py_solfec_surface_material(PyObject *self, PyObject *args)
{
  int    h, model;
  long   s1, s2;
  double f, c, e, k, eta;
  Sol   *s;
  if (!PyArg_ParseTuple(args, "illiddddd", &h, &s1, &s2, &model, &f, &c, &e, &k, &eta) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainAddSurfaceMaterial(s->dom, (PetscInt)s1, (PetscInt)s2, model, f, c, e, k, eta));
  Py_RETURN_NONE;
}

/* solfec_geps(h, eps) */
static PyObject *py_solfec_geps(PyObject *self, PyObject *args)
{
  int    h;
  double eps;
  Sol   *s;
  if (!PyArg_ParseTuple(args, "id", &h, &eps) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainSetGeometricEpsilon(s->dom, eps));
  Py_RETURN_NONE;
}

/* A solver failure CALLBACK: fn(data) on every rank (the solver's stats are global, so
   every rank fails alike); returning 0 stops the run with an error. */
typedef struct {
  PyObject *fn, *data;
} PyFailure;

static PyFailure Failure; /* one per run: RUN sets it */

static PetscErrorCode PyFailureCall(MbDomain dom, void *ctx)
{
  PyFailure *f = (PyFailure *)ctx;
  PyObject  *r;
  PetscFunctionBegin;
  if (!f->fn) PetscFunctionReturn(PETSC_SUCCESS);
  r = PyObject_CallFunctionObjArgs(f->fn, f->data ? f->data : Py_None, NULL); /* Solfec: callback(data) */
  if (!r) {
    PyErr_Print();
    SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "the solver's failure callback raised an exception (traceback above)");
  }
  PetscBool stop = (r == Py_False) || (PyLong_Check(r) && PyLong_AsLong(r) == 0);
  Py_DECREF(r);
  PetscCheck(!stop, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "the solver's failure callback returned 0: run stopped");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solfec_solver(h, type, epsilon, maxit, failure, callback, data): before each RUN */
static PyObject *py_solfec_solver(PyObject *self, PyObject *args)
{
  int            h, maxit, failure;
  const char    *type;
  double         eps;
  PyObject      *fn, *data;
  Sol           *s;
  MbSolver       sv;
  MbContactModel cm;
  if (!PyArg_ParseTuple(args, "isdiiOO", &h, &type, &eps, &maxit, &failure, &fn, &data) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainGetSolver(s->dom, &sv));
  MB_TRY(PyExc_RuntimeError, MbDomainGetContactModel(s->dom, &cm));
  /* PENALTY_SOLVER: contacts are spring-dashpot forces, joints rows for Gauss-Seidel */
  MB_TRY(PyExc_RuntimeError, MbContactModelSetType(cm, strcmp(type, "penalty") ? MBCONTACTROWS : MBCONTACTPENALTY));
  MB_TRY(PyExc_ValueError, MbContactModelSetFromOptions(cm)); /* options override the deck */
  if (!strcmp(type, "penalty")) type = MBSOLVERGS;
  MB_TRY(PyExc_ValueError, MbSolverSetType(sv, type)); /* the deck's choice reaches the solver */
  MB_TRY(PyExc_ValueError, MbSolverSetTolerances(sv, eps, maxit));
  MB_TRY(PyExc_ValueError, MbSolverSetFromOptions(sv)); /* options override the deck */
  Py_CLEAR(Failure.fn);
  Py_CLEAR(Failure.data);
  if (fn != Py_None) Failure.fn = Py_NewRef(fn);
  if (data != Py_None) Failure.data = Py_NewRef(data);
  MB_TRY(PyExc_ValueError, MbDomainSetSolverFailure(s->dom, failure, PyFailureCall, &Failure));
  Py_RETURN_NONE;
}

/* solfec_adapt(h, kind, dtmin, dtmax, params): TIME_ADAPT, on every rank alike.
   dtmin = dtmax = 0: not given (the controller takes the deck's step as dtmax and a
   hundredth of it as dtmin). params: {name: value} of the controller's own parameters
   (MbAdaptSetParameter checks each name and value; a str value, 'ON'/'OFF' for a switch,
   goes to MbAdaptSetParameterString, which checks that the name is a switch).
   -mb_adapt_* options override. */
static PyObject *py_solfec_adapt(PyObject *self, PyObject *args)
{
  int         h;
  const char *kind;
  double      dtmin, dtmax;
  PyObject   *params, *key, *val;
  Py_ssize_t  pos = 0;
  Sol        *s;
  MbAdapt     a;
  if (!PyArg_ParseTuple(args, "isddO!", &h, &kind, &dtmin, &dtmax, &PyDict_Type, &params) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainGetAdapt(s->dom, &a));
  MB_TRY(PyExc_ValueError, MbAdaptSetType(a, kind));
  if (dtmin > 0 || dtmax > 0) MB_TRY(PyExc_ValueError, MbAdaptSetStepLimits(a, dtmin, dtmax));
  while (PyDict_Next(params, &pos, &key, &val)) {
    const char *name = PyUnicode_AsUTF8(key);
    if (!name) return NULL;
    if (PyUnicode_Check(val)) {
      const char *text = PyUnicode_AsUTF8(val);
      if (!text) return NULL;
      MB_TRY(PyExc_ValueError, MbAdaptSetParameterString(a, name, text));
    } else {
      double v = PyFloat_AsDouble(val);
      if (PyErr_Occurred()) return NULL;
      MB_TRY(PyExc_ValueError, MbAdaptSetParameter(a, name, v));
    }
  }
  MB_TRY(PyExc_ValueError, MbAdaptSetFromOptions(a)); /* options override the deck */
  Py_RETURN_NONE;
}

/* A prescribed velocity given by a callable of time. */
static PetscErrorCode PyVelocityCall(void *ctx, PetscReal t, PetscReal *v)
{
  PyObject *r = PyObject_CallFunction((PyObject *)ctx, "d", (double)t);
  PetscFunctionBegin;
  if (!r) {
    PyErr_Print();
    SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "SET_VELOCITY callback raised an exception at t = %g (traceback above)", (double)t);
  }
  *v = PyFloat_AsDouble(r);
  Py_DECREF(r);
  if (*v == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "SET_VELOCITY callback must return a number at t = %g", (double)t);
  }
  PetscCheck(isfinite(*v), PETSC_COMM_SELF, MB_ERR_DECK, "SET_VELOCITY callback returned %g at t = %g", (double)*v, (double)t);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PyDecref(void *ctx)
{
  Py_XDECREF((PyObject *)ctx);
  return PETSC_SUCCESS;
}

/* solfec_joint(h, kind, b1, b2, p1, p2, dir, value, ts, fn) -> index; every rank */
static PyObject *py_solfec_joint(PyObject *self, PyObject *args)
{
  int          h, kind;
  long         b1, b2;
  PyObject    *op1, *op2, *odir, *ots, *fn;
  double       value;
  PetscReal    p1[3], p2[3], dir[3] = {0, 0, 0};
  MbTimeSeries ts = NULL;
  PetscInt     index;
  Sol         *s;
  if (!PyArg_ParseTuple(args, "iillOOOdOO", &h, &kind, &b1, &b2, &op1, &op2, &odir, &value, &ots, &fn) || !(s = GetSol(h))) return NULL;
  if (ReadReals(op1, 3, p1, "point") || ReadReals(op2, 3, p2, "point")) return NULL;
  if (odir != Py_None && ReadReals(odir, 3, dir, "direction")) return NULL;
  if (ots != Py_None && !(ts = (MbTimeSeries)PyCapsule_GetPointer(ots, TS_CAPSULE))) return NULL;
  if (fn != Py_None) Py_INCREF(fn);
  MB_TRY(PyExc_ValueError, MbDomainAddJoint(s->dom, (MbJointKind)kind, (PetscInt)b1, (PetscInt)b2, p1, p2, dir, value, ts, fn != Py_None ? PyVelocityCall : NULL, fn != Py_None ? fn : NULL, fn != Py_None ? PyDecref : NULL, &index));
  return PyLong_FromLong((long)index);
}

static void CallableWhere(PyObject *fn, char buf[], size_t len);

/* A spring's force given by a Python callable of (stroke, velocity), Solfec's PUT_SPRING
   function. Runs on the ranks that own an end of the spring. */
static PetscErrorCode PySpringCall(void *ctx, PetscReal stroke, PetscReal velocity, PetscReal *force)
{
  PyObject *r = PyObject_CallFunction((PyObject *)ctx, "dd", (double)stroke, (double)velocity);
  PetscFunctionBegin;
  if (!r) {
    PyErr_Print();
    SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "PUT_SPRING function raised an exception for stroke %g, velocity %g (traceback above)", (double)stroke, (double)velocity);
  }
  *force = PyFloat_AsDouble(r);
  Py_DECREF(r);
  if (*force == -1.0 && PyErr_Occurred()) {
    char where[PETSC_MAX_PATH_LEN + 64];
    PyErr_Clear();
    CallableWhere((PyObject *)ctx, where, sizeof(where));
    SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "PUT_SPRING function must return a number (the force), for stroke %g, velocity %g%s", (double)stroke, (double)velocity, where);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solfec_spring(h, b1, b2, p1, p2, dir or None, rest (NaN: initial length), spring, dashpot,
   lo, hi (limits: hard stops), alo, ahi (moreau's active range), fn or None) -> index; every rank */
static PyObject *py_solfec_spring(PyObject *self, PyObject *args)
{
  int       h;
  long      b1, b2;
  PyObject *op1, *op2, *odir, *fn;
  double    rest, k, c, lo, hi, alo, ahi;
  PetscReal p1[3], p2[3], dir[3];
  PetscInt  index;
  Sol      *s;
  if (!PyArg_ParseTuple(args, "illOOOdddddddO", &h, &b1, &b2, &op1, &op2, &odir, &rest, &k, &c, &lo, &hi, &alo, &ahi, &fn) || !(s = GetSol(h))) return NULL;
  if (ReadReals(op1, 3, p1, "PUT_SPRING: point1") || ReadReals(op2, 3, p2, "PUT_SPRING: point2")) return NULL;
  if (odir != Py_None && ReadReals(odir, 3, dir, "PUT_SPRING: direction")) return NULL;
  if (fn != Py_None) Py_INCREF(fn);
  MB_TRY(PyExc_ValueError, MbDomainAddSpring(s->dom, (PetscInt)b1, (PetscInt)b2, p1, p2, odir != Py_None ? dir : NULL, rest, k, c, lo, hi, fn != Py_None ? PySpringCall : NULL, fn != Py_None ? fn : NULL, fn != Py_None ? PyDecref : NULL, &index));
  MB_TRY(PyExc_ValueError, MbDomainSetSpringActive(s->dom, index, alo, ahi));
  return PyLong_FromLong((long)index);
}

/* solfec_critical_step(h) -> the estimate of MbDomainCriticalStep. Collective. */
static PyObject *py_solfec_critical_step(PyObject *self, PyObject *args)
{
  int       h;
  Sol      *s;
  PetscReal hc;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = GetSol(h))) return NULL;
  if (CheckPeers(MB_SITE_CRITICAL_STEP)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainCriticalStep(s->dom, &hc));
  return PyFloat_FromDouble(hc >= PETSC_INFINITY ? Py_HUGE_VAL : (double)hc);
}

/* solfec_scheme_param(h, scheme, name, value): every rank (the domain's scheme of that name);
   the -mb_scheme_* options still override the deck */
static PyObject *py_solfec_scheme_param(PyObject *self, PyObject *args)
{
  int         h;
  const char *scheme, *name;
  double      v;
  Sol        *s;
  MbScheme    sch;
  if (!PyArg_ParseTuple(args, "issd", &h, &scheme, &name, &v) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainGetScheme(s->dom, scheme, &sch));
  MB_TRY(PyExc_ValueError, MbSchemeSetParameter(sch, name, v));
  MB_TRY(PyExc_ValueError, MbSchemeSetFromOptions(sch));
  Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ bodies */

/* next_owned(h) -> whether this rank will own the next body */
static PyObject *py_next_owned(PyObject *self, PyObject *args)
{
  int         h;
  Sol        *s;
  PetscInt    n;
  PetscMPIInt owner, rank;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainGetGlobalBodyCount(s->dom, &n));
  MB_TRY(PyExc_RuntimeError, MbDomainOwnerRank(s->dom, n, &owner));
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  return PyBool_FromLong(owner == rank);
}

/* Draw the next id on every rank; build the body on its owner from shape s (taken). kind is
   the deck's code: 0 RIGID, 1 OBSTACLE, 2 PSEUDO_RIGID, 3 FINITE_ELEMENT
   (python/moreau/__init__.py). */
static PetscErrorCode NewBody(Sol *sol, int kind, MbShape *shape, double rho, double young, double poisson, const char *label, PetscInt *id)
{
  static const MbBodyKind kinds[] = {MB_BODY_RIGID, MB_BODY_OBSTACLE, MB_BODY_PSEUDO_RIGID, MB_BODY_FEM};
  PetscMPIInt             owner, rank;
  MbBody                  b;
  const char             *scheme;
  PetscFunctionBegin;
  PetscCheck(kind >= 0 && kind < 4, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body kind code %d is not 0 (RIGID), 1 (OBSTACLE), 2 (PSEUDO_RIGID) or 3 (FINITE_ELEMENT)", kind);
  /* the kind's default scheme exists on every rank, as the rigid default does (see solfec_new) */
  PetscCall(MbBodyKindGetDefaultScheme(kinds[kind], &scheme));
  if (scheme) {
    MbScheme s;
    PetscCall(MbDomainGetScheme(sol->dom, scheme, &s));
  }
  PetscCall(MbDomainNextBodyId(sol->dom, id));
  PetscCall(MbDomainOwnerRank(sol->dom, *id, &owner));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (owner == rank) {
    PetscCheck(*shape, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "body %" PetscInt_FMT ": no shape given on its owner rank", *id);
    PetscCall(MbBodyCreate(*id, kinds[kind], *shape, rho, label, &b));
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
   surfid, rho, label, young, poisson) -> id; kind as NewBody's */
static PyObject *py_body_sphere(PyObject *self, PyObject *const *a, Py_ssize_t n)
{
  int         h, kind;
  double      c[4], rho, young, poisson;
  long        volid, surfid;
  const char *label = NULL;
  Sol        *s;
  MbShape     shape = NULL;
  PetscInt    id, count;
  PetscMPIInt owner, rank;
  if (n != 12) return PyErr_Format(PyExc_TypeError, "body_sphere takes 12 arguments");
  h    = (int)PyLong_AsLong(a[0]);
  kind = (int)PyLong_AsLong(a[1]);
  for (int k = 0; k < 4; k++) c[k] = PyFloat_AsDouble(a[2 + k]);
  volid   = PyLong_AsLong(a[6]);
  surfid  = PyLong_AsLong(a[7]);
  rho     = PyFloat_AsDouble(a[8]);
  young   = PyFloat_AsDouble(a[10]);
  poisson = PyFloat_AsDouble(a[11]);
  if (a[9] != Py_None && !(label = PyUnicode_AsUTF8(a[9]))) return NULL;
  if (PyErr_Occurred() || !(s = GetSol(h))) return NULL;
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

/* body_shape(h, kind, parts or None, rho, label, young, poisson) -> id; parts is given on
   the owner only */
static PyObject *py_body_shape(PyObject *self, PyObject *args)
{
  int         h, kind, pyerr;
  PyObject   *parts, *olabel;
  double      rho, young, poisson;
  const char *label = NULL;
  Sol        *s;
  MbShape     shape = NULL;
  PetscInt    id;
  if (!PyArg_ParseTuple(args, "iiOdOdd", &h, &kind, &parts, &rho, &olabel, &young, &poisson) || !(s = GetSol(h))) return NULL;
  if (olabel != Py_None && !(label = PyUnicode_AsUTF8(olabel))) return NULL;
  if (parts != Py_None) {
    if (!PyList_Check(parts)) return PyErr_Format(PyExc_TypeError, "parts must be a list");
    MB_TRY(PyExc_ValueError, BuildShape(parts, &shape, &pyerr));
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
  if (!PyArg_ParseTuple(args, "ili", &h, &id, &what) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, FindLocalBody(s->dom, (PetscInt)id, &b));
  switch (what) {
  case 0:
  case 1:
    MB_TRY(PyExc_RuntimeError, MbBodyGetState(b, &q, &u));
    MB_TRY(PyExc_RuntimeError, MbBodyGetSizes(b, &nq, &nu));
    return what ? RealTuple(u, (int)nu) : RealTuple(q, (int)nq);
  case 2:
    MB_TRY(PyExc_RuntimeError, MbBodyGetMassProps(b, &mp));
    return MassPropsTuple(&mp);
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
  if (!PyArg_ParseTuple(args, "ilOi", &h, &id, &oX, &what) || !(s = GetSol(h))) return NULL;
  if (what < 0 || what > 2) return PyErr_Format(PyExc_ValueError, "body_point: unknown item %d", what);
  if (ReadReals(oX, 3, X, "point")) return NULL;
  MB_TRY(PyExc_RuntimeError, FindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_RuntimeError, MbBodyPointToSpatial(b, X, x));
  MB_TRY(PyExc_RuntimeError, MbBodyPointVelocity(b, X, v));
  if (what == 2) {
    PetscInt  col[MB_BODY_POINT_DOFS_MAX];
    PetscBool nodal, has;
    MB_TRY(PyExc_ValueError, MbBodyPointDofs(b, X, &n, col, &nodal));
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
  return RealTuple(r, (int)n);
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
  if (!PyArg_ParseTuple(args, "il", &h, &id) || !(s = GetSol(h))) return NULL;
  if (CheckPeers(MB_SITE_STATE)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainOwnerRank(s->dom, (PetscInt)id, &owner));
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank == owner) {
    MB_TRY(PyExc_RuntimeError, FindLocalBody(s->dom, (PetscInt)id, &b));
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
  r = Py_BuildValue("(NN)", RealTuple(buf, (int)n[0]), RealTuple(buf + n[0], (int)n[1]));
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
  if (!PyArg_ParseTuple(args, "iliO", &h, &id, &what, &ov) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, FindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_RuntimeError, MbBodyGetState(b, &q, &u));
  MB_TRY(PyExc_RuntimeError, MbBodyGetSizes(b, &nq, &nu));
  /* the kind's length (a finite-element body's is 3 per node): read into a copy first,
     so that a bad value leaves the state as it was */
  if (PetscMalloc1(PetscMax(nq, nu) + 1, &x)) return PyErr_NoMemory();
  if (ReadReals(ov, what ? nu : nq, x, what ? "velo" : "conf")) {
    PetscFree(x);
    return NULL;
  }
  if (what) {
    if (!MbBodyIsMovable(b)) {
      for (PetscInt k = 0; k < nu; k++)
        if (x[k] != 0) {
          PetscFree(x);
          return PyErr_Format(PyExc_ValueError, "body %ld is an OBSTACLE: it cannot be given a velocity", id);
        }
    }
    memcpy(u, x, sizeof(PetscReal) * (size_t)nu);
  } else {
    ErrMsg[0] = 0;
    (void)PetscPushErrorHandler(RecordError, NULL);
    PetscErrorCode e = MbBodyCheckConfiguration(b, x);
    (void)PetscPopErrorHandler();
    if (e) {
      PetscFree(x);
      PyErr_SetString(PyExc_ValueError, ErrMsg);
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
  if (!PyArg_ParseTuple(args, "ilddOO", &h, &id, &m, &v, &oc, &oJ) || !(s = GetSol(h))) return NULL;
  if (ReadReals(oc, 3, c, "BODY_CHARS: center") || ReadReals(oJ, 9, J, "BODY_CHARS: inertia")) return NULL;
  MB_TRY(PyExc_RuntimeError, FindLocalBody(s->dom, (PetscInt)id, &b));
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
  if (!PyArg_ParseTuple(args, "ilOO", &h, &id, &ol, &oa) || !(s = GetSol(h))) return NULL;
  if ((ol != Py_None && ReadReals(ol, 3, lin, "INITIAL_VELOCITY: linear")) || (oa != Py_None && ReadReals(oa, 3, w, "INITIAL_VELOCITY: angular"))) return NULL;
  MB_TRY(PyExc_RuntimeError, FindLocalBody(s->dom, (PetscInt)id, &b));
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
  if (!PyArg_ParseTuple(args, "ilOOO", &h, &id, &oR, &oc, &od) || !(s = GetSol(h))) return NULL;
  if (ReadReals(oR, 9, R, "rotation") || ReadReals(oc, 3, c, "point") || ReadReals(od, 3, d, "vector")) return NULL;
  MB_TRY(PyExc_RuntimeError, FindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_RuntimeError, MbBodyTransform(b, R, c, d));
  Py_RETURN_NONE;
}

/* body_scheme(h, id, name): validates the name on every rank (the same error everywhere),
   sets it on the owner. */
static PyObject *py_body_scheme(PyObject *self, PyObject *args)
{
  int         h;
  long        id;
  const char *name;
  Sol        *s;
  MbScheme    sch;
  MbBody      b;
  if (!PyArg_ParseTuple(args, "ils", &h, &id, &name) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainGetScheme(s->dom, name, &sch));
  MB_TRY(PyExc_RuntimeError, MbDomainFindBody(s->dom, (PetscInt)id, &b));
  if (b) MB_TRY(PyExc_ValueError, MbBodySetScheme(b, sch));
  Py_RETURN_NONE;
}

static PyObject *py_body_damping(PyObject *self, PyObject *args)
{
  int    h;
  long   id;
  double d;
  Sol   *s;
  MbBody b;
  if (!PyArg_ParseTuple(args, "ild", &h, &id, &d) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, FindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_ValueError, MbBodySetDamping(b, d));
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
  if (!PyArg_ParseTuple(args, "ils", &h, &id, &form) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, FindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_ValueError, MbBodySetForm(b, form));
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
  if (!PyArg_ParseTuple(args, "iliiOOdO", &h, &id, &kind, &frame, &oX, &od, &value, &ots) || !(s = GetSol(h))) return NULL;
  if (ReadReals(oX, 3, X, "point") || ReadReals(od, 3, d, "direction")) return NULL;
  if (ots != Py_None && !(ts = (MbTimeSeries)PyCapsule_GetPointer(ots, TS_CAPSULE))) return NULL;
  MB_TRY(PyExc_RuntimeError, FindLocalBody(s->dom, (PetscInt)id, &b));
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
  if (!PyArg_ParseTuple(args, "illdO", &h, &id, &surfid, &value, &ots) || !(s = GetSol(h))) return NULL;
  if (ots != Py_None && !(ts = (MbTimeSeries)PyCapsule_GetPointer(ots, TS_CAPSULE))) return NULL;
  MB_TRY(PyExc_RuntimeError, FindLocalBody(s->dom, (PetscInt)id, &b));
  MB_TRY(PyExc_ValueError, MbBodyAddPressure(b, (PetscInt)surfid, value, ts));
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

/* Where a callable was defined, for messages about what it returned. */
static void CallableWhere(PyObject *fn, char buf[], size_t len)
{
  PyObject *code = PyObject_GetAttrString(fn, "__code__");
  buf[0]         = 0;
  if (code) {
    PyObject *file = PyObject_GetAttrString(code, "co_filename"), *line = PyObject_GetAttrString(code, "co_firstlineno"), *name = PyObject_GetAttrString(code, "co_name");
    if (file && line && name) snprintf(buf, len, " ('%s' defined at %s:%ld)", PyUnicode_AsUTF8(name), PyUnicode_AsUTF8(file), PyLong_AsLong(line));
    Py_XDECREF(file);
    Py_XDECREF(line);
    Py_XDECREF(name);
    Py_DECREF(code);
  }
  PyErr_Clear();
}

static PetscErrorCode PyLoadCall(void *ctx, MbBody body, const PetscReal q[], const PetscReal u[], PetscReal t, PetscReal h, PetscInt *nout, PetscReal out[])
{
  PyLoad   *l = (PyLoad *)ctx;
  PetscInt  nq, nu;
  PyObject *oq, *ou, *r, *fast;
  char      where[PETSC_MAX_PATH_LEN + 64];
  PetscFunctionBegin;
  PetscCall(MbBodyGetSizes(body, &nq, &nu));
  oq = RealList(q, nq);
  ou = RealList(u, nu);
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
    CallableWhere(l->fn, where, sizeof(where));
    SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "%s callback must return 9 numbers, got a non-sequence%s", l->what, where);
  }
  /* 9 numbers for any body; a body with more than 6 velocities may return its generalized
     force instead (nu numbers: Solfec's pseudo-rigid callbacks return 12) */
  *nout = (PetscInt)PySequence_Fast_GET_SIZE(fast);
  if (*nout != 9 && !(nu > 6 && *nout == nu)) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    Py_DECREF(fast);
    CallableWhere(l->fn, where, sizeof(where));
    if (nu > 6) SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "%s callback must return 9 numbers (force, spatial torque, convected torque) or %" PetscInt_FMT " (the generalized force of the body's velocities), got %zd%s", l->what, nu, n, where);
    SETERRQ(PETSC_COMM_SELF, MB_ERR_DECK, "%s callback must return 9 numbers, got %zd%s", l->what, n, where);
  }
  for (PetscInt k = 0; k < *nout; k++) {
    out[k] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, k));
    if (out[k] == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      Py_DECREF(fast);
      CallableWhere(l->fn, where, sizeof(where));
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
  if (!PyArg_ParseTuple(args, "ilsOO", &h, &id, &what, &fn, &data) || !(s = GetSol(h))) return NULL;
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
  if (!PyArg_ParseTuple(args, "il", &h, &id) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainFindBody(s->dom, (PetscInt)id, &b));
  return PyBool_FromLong(b != NULL);
}

/* solfec_balance(h, tolerance, updatefreq): IMBALANCE_TOLERANCE. Collective. */
static PyObject *py_solfec_balance(PyObject *self, PyObject *args)
{
  int    h;
  double tol;
  long   freq;
  Sol   *s;
  if (!PyArg_ParseTuple(args, "idl", &h, &tol, &freq) || !(s = GetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainSetImbalanceTolerance(s->dom, (PetscReal)tol, (PetscInt)freq));
  Py_RETURN_NONE;
}

/* info() -> (rank, size) */
static PyObject *py_info(PyObject *self, PyObject *args)
{
  PetscMPIInt rank, size;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  return Py_BuildValue("(ii)", (int)rank, (int)size);
}

/* default_scheme() -> the -mb_scheme option or RIG_NEG */
static PyObject *py_default_scheme(PyObject *self, PyObject *args)
{
  char name[64] = MBRIGNEG;
  MB_TRY(PyExc_RuntimeError, PetscOptionsGetString(NULL, NULL, "-mb_scheme", name, sizeof(name), NULL));
  return PyUnicode_FromString(name);
}

/* ------------------------------------------------------------------ module */

PetscErrorCode MbModuleSetDeck(const char deck[])
{
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(DeckPath, deck, sizeof(DeckPath)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbModuleSummary(void)
{
  PetscFunctionBegin;
  for (int i = 0; i < NSol; i++)
    if (Sols[i].dom && Sols[i].ran) PetscCall(MbDomainSummary(Sols[i].dom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbModuleDestroyAll(void)
{
  PetscFunctionBegin;
  for (int i = 0; i < NSol; i++) {
    if (Sols[i].out) PetscCall(MbOutputDestroy(&Sols[i].out));
    PetscCall(MbDomainDestroy(&Sols[i].dom)); /* releases Python callables of loads and monitors */
  }
  PetscCall(PetscFree(Sols));
  NSol = CapSol = 0;
  Py_CLEAR(Failure.fn);
  Py_CLEAR(Failure.data);
  Py_CLEAR(DeferredType);
  Py_CLEAR(DeferredValue);
  Py_CLEAR(DeferredTb);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PyMethodDef Methods[] = {
    {"shape_new", py_shape_new, METH_NOARGS, "shape_new() -> empty shape"},
    {"shape_compound", py_shape_compound, METH_VARARGS, "shape_compound(parts) -> shape"},
    {"shape_convex", py_shape_convex, METH_VARARGS, "shape_convex(shape, vertices, fptr, fvert, fsurf, volid)"},
    {"shape_hull", py_shape_hull, METH_VARARGS, "shape_hull(shape, points, volid, surfid)"},
    {"shape_element", py_shape_element, METH_VARARGS, "shape_element(shape, type, nodes, surfids, volid)"},
    {"shape_mesh", py_shape_mesh, METH_VARARGS, "shape_mesh(shape, nodes, eptr, enode)"},
    {"shape_append", py_shape_append, METH_VARARGS, "shape_append(dst, src)"},
    {"shape_copy", py_shape_copy, METH_VARARGS, "shape_copy(shape) -> shape"},
    {"shape_transform", py_shape_transform, METH_VARARGS, "shape_transform(shape, R, c, d)"},
    {"shape_massprops", py_shape_massprops, METH_VARARGS, "shape_massprops(parts, rho) -> (mass, volume, center, inertia)"},
    {"time_series", py_time_series, METH_VARARGS, "time_series(t, v) -> series"},
    {"time_series_eval", py_time_series_eval, METH_VARARGS, "time_series_eval(series, t) -> value"},
    {"solfec_create", py_solfec_create, METH_VARARGS, "solfec_create(step, outdir) -> handle (collective)"},
    {"solfec_info", py_solfec_info, METH_VARARGS, "solfec_info(h) -> (time, step, steps)"},
    {"solfec_set_step", py_solfec_set_step, METH_VARARGS, "solfec_set_step(h, step)"},
    {"solfec_verbose", py_solfec_verbose, METH_VARARGS, "solfec_verbose(h, flag)"},
    {"solfec_gravity", py_solfec_gravity, METH_VARARGS, "solfec_gravity(h, g)"},
    {"solfec_output", py_solfec_output, METH_VARARGS, "solfec_output(h, interval)"},
    {"solfec_checkpoint", py_solfec_checkpoint, METH_VARARGS, "solfec_checkpoint(h, steps, interval, wall)"},
    {"solfec_seek", py_solfec_seek, METH_VARARGS, "solfec_seek(h, t) (READ mode; collective)"},
    {"solfec_forward", py_solfec_forward, METH_VARARGS, "solfec_forward(h, frames) (READ mode; collective)"},
    {"contact_exclude", py_contact_exclude, METH_VARARGS, "contact_exclude(h, kind, a, b): no contacts between bodies (kind 0) or surfaces (kind 1) a and b"},
    {"solfec_constraints", py_solfec_constraints, METH_VARARGS, "solfec_constraints(h) -> [(kind, master, slave, point, base, R, gap)]: WRITE mode this rank's of the last step, READ mode the frame's (not collective)"},
    {"solfec_read_limits", py_solfec_read_limits, METH_VARARGS, "solfec_read_limits(h) -> (t0, t1) in READ mode, else None (collective)"},
    {"solfec_paths", py_solfec_paths, METH_VARARGS, "solfec_paths(h) -> (h5, xmf)"},
    {"solfec_callback", py_solfec_callback, METH_VARARGS, "solfec_callback(h, interval, fn, args)"},
    {"solfec_run", py_solfec_run, METH_VARARGS, "solfec_run(h, duration) (collective)"},
    {"solfec_energy", py_solfec_energy, METH_VARARGS, "solfec_energy(h, id) -> 5 energies (collective)"},
    {"solfec_history", py_solfec_history, METH_VARARGS, "solfec_history(h, item, t0, t1) -> (t, v) (collective)"},
    {"solfec_history_body", py_solfec_history_body, METH_VARARGS, "solfec_history_body(h, id, X, item, t0, t1) -> (t, v) (collective)"},
    {"solfec_surface_material", py_solfec_surface_material, METH_VARARGS, "solfec_surface_material(h, s1, s2, model, friction, cohesion, restitution, spring, dashpot)"},
    {"solfec_geps", py_solfec_geps, METH_VARARGS, "solfec_geps(h, eps)"},
    {"solfec_adapt", py_solfec_adapt, METH_VARARGS, "solfec_adapt(h, kind, dtmin, dtmax, b, zeta, alpha, reject, tol, ratio)"},
    {"solfec_solver", py_solfec_solver, METH_VARARGS, "solfec_solver(h, type, epsilon, maxit, failure, callback, data)"},
    {"solfec_joint", py_solfec_joint, METH_VARARGS, "solfec_joint(h, kind, b1, b2, p1, p2, dir, value, ts, fn) -> index"},
    {"solfec_spring", py_solfec_spring, METH_VARARGS, "solfec_spring(h, b1, b2, p1, p2, dir, rest, spring, dashpot, lo, hi, alo, ahi, fn) -> index"},
    {"solfec_critical_step", py_solfec_critical_step, METH_VARARGS, "solfec_critical_step(h) -> estimate of the explicit critical step (collective)"},
    {"solfec_scheme_param", py_solfec_scheme_param, METH_VARARGS, "solfec_scheme_param(h, scheme, name, value)"},
    {"sync", py_sync, METH_NOARGS, "sync(): raise PeerFailure when the deck failed on another rank (collective)"},
    {"next_owned", py_next_owned, METH_VARARGS, "next_owned(h) -> whether this rank owns the next body"},
    {"body_sphere", (PyCFunction)(void (*)(void))py_body_sphere, METH_FASTCALL, "body_sphere(h, kind, cx, cy, cz, r, volid, surfid, rho, label, young, poisson) -> id"},
    {"body_shape", py_body_shape, METH_VARARGS, "body_shape(h, kind, parts, rho, label, young, poisson) -> id"},
    {"body_get", py_body_get, METH_VARARGS, "body_get(h, id, what)"},
    {"solfec_history_body_energy", py_solfec_history_body_energy, METH_VARARGS, "solfec_history_body_energy(h, id, item, t0, t1) -> (times, values) (collective)"},
    {"body_point", py_body_point, METH_VARARGS, "body_point(h, id, X, what) -> displacement, velocity or stress at a referential point (owner only)"},
    {"body_state", py_body_state, METH_VARARGS, "body_state(h, id) -> (conf, velo) on every rank (collective)"},
    {"body_set_state", py_body_set_state, METH_VARARGS, "body_set_state(h, id, what, values)"},
    {"body_chars", py_body_chars, METH_VARARGS, "body_chars(h, id, mass, volume, center, inertia)"},
    {"body_velocity", py_body_velocity, METH_VARARGS, "body_velocity(h, id, linear, angular)"},
    {"body_transform", py_body_transform, METH_VARARGS, "body_transform(h, id, R, c, d)"},
    {"body_scheme", py_body_scheme, METH_VARARGS, "body_scheme(h, id, name)"},
    {"body_damping", py_body_damping, METH_VARARGS, "body_damping(h, id, value)"},
    {"body_form", py_body_form, METH_VARARGS, "body_form(h, id, form)"},
    {"body_pressure", py_body_pressure, METH_VARARGS, "body_pressure(h, id, surfid, value, ts)"},
    {"body_load", py_body_load, METH_VARARGS, "body_load(h, id, kind, frame, X, dir, value, ts)"},
    {"body_load_callback", py_body_load_callback, METH_VARARGS, "body_load_callback(h, id, what, fn, data) (every rank, same order)"},
    {"body_owned", py_body_owned, METH_VARARGS, "body_owned(h, id) -> whether this rank owns the body now"},
    {"solfec_balance", py_solfec_balance, METH_VARARGS, "solfec_balance(h, tolerance, updatefreq)"},
    {"info", py_info, METH_NOARGS, "info() -> (rank, size)"},
    {"default_scheme", py_default_scheme, METH_NOARGS, "default_scheme() -> name"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef Module = {PyModuleDef_HEAD_INIT, "_moreau", "moreau's C layer (use the moreau package)", -1, Methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__moreau(void)
{
  PyObject *m = PyModule_Create(&Module);
  if (!m) return NULL;
  if (!PeerFailure) PeerFailure = PyErr_NewExceptionWithDoc("_moreau.PeerFailure", "The deck failed on another rank; this rank stops too.", PyExc_RuntimeError, NULL);
  if (!PeerFailure || PyModule_AddObjectRef(m, "PeerFailure", PeerFailure) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  if (PyModule_AddStringConstant(m, "version", MOREAU_VERSION_STRING) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
