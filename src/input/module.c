/* The built-in `_moreau` module: thin functions over the C API, called by the Solfec-1.0
   API in python/moreau/ (its submodules check the arguments first). This file holds what
   the others share (moduleimpl.h): PETSc errors turned into Python exceptions, the failure
   exchange between ranks, argument conversion, and the module itself, whose methods come
   from one file per topic: shapes.c, solfec.c, bodies.c, constraints.c, run.c, history.c,
   readmode.c. Conventions:
   - A SOLFEC object is an integer handle into solfec.c's table (domain and output live
     there, not in a Python object, so that they are destroyed in a known order before
     Python finalizes).
   - Bodies are built only on their owner rank (id mod size); every rank draws every id
     (MbDomainNextBodyId) so that ids agree. Per-body calls on a non-owner do nothing.
   - Each call into the C layer runs under an error handler that records PETSc's message
     and turns it into a Python exception (RuntimeError unless the caller says otherwise).
   - Collective calls first exchange the failure flag (MbModuleSyncFailure), so a rank whose
     deck failed earlier never leaves the others waiting inside a collective. */
#include "moduleimpl.h"

char       MbModuleDeckPath[PETSC_MAX_PATH_LEN] = "deck.py";
PyObject  *MbModulePeerFailure;  /* _moreau.PeerFailure: the deck failed on another rank */
static int FailureKnown;         /* a failure exchange reported failed ranks */
static int FailedCount;          /* how many, once known */
char       MbModuleErrMsg[4096]; /* first message of the last PETSc error */

/* ------------------------------------------------------------------ errors */

PetscErrorCode MbModuleRecordError(MPI_Comm comm, int line, const char *fun, const char *file, PetscErrorCode n, PetscErrorType p, const char *mess, void *ctx)
{
  if (p == PETSC_ERROR_INITIAL) {
    const char *text = NULL;
    if (n == PETSC_ERR_MEM || (fun && !strncmp(fun, "PetscMalloc", 11))) {
      /* Debian's PETSc 3.18 reports a failed allocation from PetscMallocAlign with the name of
         the function that asked for the memory as the message (and code 4, not PETSC_ERR_MEM;
         measured); its own handler adds "Out of memory". Say what failed, or the user reads a
         bare function name (validation/masonry-arch under ulimit -v printed "Contacts"). */
      snprintf(MbModuleErrMsg, sizeof(MbModuleErrMsg), "out of memory: an allocation in %s failed (the process's memory limit, ulimit -v, or the machine's memory is exhausted)", mess && mess[0] ? mess : (fun ? fun : "an unknown function"));
      return n;
    }
    if (!mess || !mess[0]) PetscErrorMessage(n, &text, NULL);
    snprintf(MbModuleErrMsg, sizeof(MbModuleErrMsg), "%s", mess && mess[0] ? mess : (text ? text : "unknown PETSc error"));
  }
  return n;
}

/* The failure exchange. It is the one collective the deck API makes before each of its
   collective calls (MbModuleCheckPeers), at the end of each CALLBACK call (PyMonitorCall, which
   also reduces the callbacks' stop requests in it) and at the end of the deck
   (MbInputRunDeck), and it is always the same MPI_Allreduce: ranks that got to different
   places - one whose CALLBACK raised, another inside ENERGY in the same CALLBACK - still
   meet in it and all learn of the failure, instead of pairing two different collectives.
   Each rank also counts itself at its site; when no rank failed but the sites differ, the
   deck made a collective call on some ranks only: every rank not at the end of the deck
   then fails with a message naming the sites (MbModuleSiteMismatch). */
static const char *const SiteName[MB_SITE_COUNT] = {"the end of the deck", "the end of a CALLBACK call",      "SOLFEC", "RUN", "ENERGY", "HISTORY", "CRITICAL_STEP", "sync()", "SEEK, FORWARD, BACKWARD or DURATION", "BODY_STATE",
                                                    "MODAL_ANALYSIS",      "INITIALIZE_STATE or RIGID_TO_FEM"};
char                     MbModuleSiteMismatch[512]; /* set when ranks reached different sites */

PetscErrorCode MbModuleExchange(MbSite site, int local, int stop, int *nfailed, PetscBool *stopall)
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
      len = (size_t)snprintf(MbModuleSiteMismatch, sizeof(MbModuleSiteMismatch), "the ranks reached different collective calls (");
      for (int k = 0; k < MB_SITE_COUNT && len < sizeof(MbModuleSiteMismatch); k++) {
        if (!g[2 + k]) continue;
        len += (size_t)snprintf(MbModuleSiteMismatch + len, sizeof(MbModuleSiteMismatch) - len, "%s%d rank%s at %s", sep, g[2 + k], g[2 + k] > 1 ? "s" : "", SiteName[k]);
        sep = ", ";
      }
      if (len < sizeof(MbModuleSiteMismatch))
        snprintf(
            MbModuleSiteMismatch + len, sizeof(MbModuleSiteMismatch) - len,
            "): call SOLFEC, RUN, ENERGY, HISTORY and CRITICAL_STEP on every rank in the same order, in a CALLBACK too (a body's conf and velo are None on the ranks that do not own it: test for None after the collective calls, not around them)");
      FailureKnown = 1;
      FailedCount  = size - g[2 + MB_SITE_DECK_END]; /* the ranks at the end of the deck raise nothing */
    } else if (stopall)
      *stopall = g[1] ? PETSC_TRUE : PETSC_FALSE;
  }
  *nfailed = FailureKnown ? FailedCount : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbModuleSyncFailure(MbSite site, int local, int *nfailed) { return MbModuleExchange(site, local, 0, nfailed, NULL); }

int MbModuleIsPeerFailure(PyObject *type) { return MbModulePeerFailure && PyErr_GivenExceptionMatches(type, MbModulePeerFailure); }

/* Before a collective call made at `site`: raise MbModulePeerFailure when a rank's deck failed, or
   RuntimeError when the ranks are not all at this call. Returns -1 then. */
int MbModuleCheckPeers(MbSite site)
{
  int n             = 0;
  MbModuleErrMsg[0] = 0;
  (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
  PetscErrorCode e = MbModuleSyncFailure(site, 0, &n);
  (void)PetscPopErrorHandler();
  if (e) {
    PyErr_Format(PyExc_RuntimeError, "failure exchange between ranks failed: %s", MbModuleErrMsg);
    return -1;
  }
  if (MbModuleSiteMismatch[0]) {
    PyErr_Format(PyExc_RuntimeError, "%s: %s", SiteName[site], MbModuleSiteMismatch);
    return -1;
  }
  if (n) {
    PyErr_Format(MbModulePeerFailure, "the deck failed on %d other rank%s", n, n > 1 ? "s" : "");
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------ helpers */

/* n numbers from a sequence into x; raises TypeError naming `what` on a mismatch. */
int MbModuleReadReals(PyObject *seq, Py_ssize_t n, PetscReal x[], const char what[])
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
int MbModuleReadRealArray(PyObject *seq, PetscInt *n, PetscReal **x, const char what[])
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
  if (MbModuleReadReals(seq, len, *x, what)) {
    PetscFree(*x);
    return -1;
  }
  return 0;
}

int MbModuleReadIntArray(PyObject *seq, PetscInt *n, PetscInt **x, const char what[])
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

PyObject *MbModuleRealTuple(const PetscReal x[], int n)
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

PyObject *MbModuleRealList(const PetscReal x[], PetscInt n)
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
PetscErrorCode MbModuleFindLocalBody(MbDomain dom, PetscInt id, MbBody *b)
{
  PetscFunctionBegin;
  PetscCall(MbDomainFindBody(dom, id, b));
  PetscCheck(*b, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body %" PetscInt_FMT " is not on this rank", id);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PyObject *MbModuleMassPropsTuple(const MbMassProps *mp) { return Py_BuildValue("(ddNN)", (double)mp->mass, (double)mp->volume, MbModuleRealTuple(mp->center, 3), MbModuleRealTuple(mp->inertia, 9)); }

/* Where a callable was defined, for messages about what it returned. */
void MbModuleCallableWhere(PyObject *fn, char buf[], size_t len)
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

/* ------------------------------------------------------------------ module */

/* sync() -> None, or MbModulePeerFailure when a rank's deck failed. Collective. */
static PyObject *py_sync(PyObject *self, PyObject *args)
{
  if (MbModuleCheckPeers(MB_SITE_SYNC)) return NULL;
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

/* output_subdir() -> the -mb_output_subdir option (Solfec's -s), or None */
static PyObject *py_output_subdir(PyObject *self, PyObject *args)
{
  char      sub[PETSC_MAX_PATH_LEN];
  PetscBool set;
  MB_TRY(PyExc_RuntimeError, PetscOptionsGetString(NULL, NULL, "-mb_output_subdir", sub, sizeof(sub), &set));
  if (!set) Py_RETURN_NONE;
  return PyUnicode_FromString(sub);
}

PetscErrorCode MbModuleSetDeck(const char deck[])
{
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(MbModuleDeckPath, deck, sizeof(MbModuleDeckPath)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PyMethodDef Methods[] = {
    {"sync", py_sync, METH_NOARGS, "sync(): raise PeerFailure when the deck failed on another rank (collective)"},
    {"info", py_info, METH_NOARGS, "info() -> (rank, size)"},
    {"default_scheme", py_default_scheme, METH_NOARGS, "default_scheme() -> name"},
    {"output_subdir", py_output_subdir, METH_NOARGS, "output_subdir() -> -mb_output_subdir or None"},
    {NULL, NULL, 0, NULL},
};

/* The module's functions, from the table of each topic's file (moduleimpl.h). */
static PyMethodDef *const Tables[] = {MbModuleShapeMethods, MbModuleSolfecMethods, MbModuleHistoryMethods, MbModuleReadMethods, MbModuleRunMethods, MbModuleConstraintMethods, MbModuleBodyMethods, MbModuleInitStateMethods, Methods};

static struct PyModuleDef Module = {PyModuleDef_HEAD_INIT, "_moreau", "moreau's C layer (use the moreau package)", -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__moreau(void)
{
  PyObject *m = PyModule_Create(&Module);
  if (!m) return NULL;
  for (size_t k = 0; k < sizeof(Tables) / sizeof(Tables[0]); k++)
    if (PyModule_AddFunctions(m, Tables[k]) < 0) {
      Py_DECREF(m);
      return NULL;
    }
  if (!MbModulePeerFailure) MbModulePeerFailure = PyErr_NewExceptionWithDoc("_moreau.PeerFailure", "The deck failed on another rank; this rank stops too.", PyExc_RuntimeError, NULL);
  if (!MbModulePeerFailure || PyModule_AddObjectRef(m, "PeerFailure", MbModulePeerFailure) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  if (PyModule_AddStringConstant(m, "version", MOREAU_VERSION_STRING) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
