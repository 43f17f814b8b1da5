/* The `_moreau` module's RUN and what steers it: the constraint solver and its failure
   callback, CALLBACK monitors, TIME_ADAPT, CRITICAL_STEP and scheme parameters; a failure
   inside RUN that other ranks cannot learn of ends the job (AbortJob). */
#include "moduleimpl.h"

static PetscBool CollectiveError;                           /* the last RUN error happened on every rank alike */
static PyObject *DeferredType, *DeferredValue, *DeferredTb; /* a CALLBACK's exception */

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
    if (!buf[0] || (file && !strcmp(file, MbModuleDeckPath))) snprintf(buf, len, " (%s, line %d)", file ? file : "?", PyFrame_GetLineNumber(f));
    Py_XDECREF(code);
    if (file && !strcmp(file, MbModuleDeckPath)) back = (Py_XDECREF(back), NULL);
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
  fprintf(stderr, "moreau: error on rank %d in %s%s: %s\nmoreau: aborting all ranks\n", rank, what, where, MbModuleErrMsg[0] ? MbModuleErrMsg : "unknown error");
  MbInputFlushStdio();
  MPI_Abort(PETSC_COMM_WORLD, 1);
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
    /* a MbModulePeerFailure raised in the callback (by ENERGY, say) is no failure of this rank's:
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
  PetscCall(MbModuleExchange(MB_SITE_CALLBACK, failed, halt, &n, stop));
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
  if (!PyArg_ParseTuple(args, "idOO!", &h, &dt, &fn, &PyTuple_Type, &fargs) || !(s = MbModuleGetSol(h))) return NULL;
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
  if (!PyArg_ParseTuple(args, "id", &h, &duration) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleCheckPeers(MB_SITE_RUN)) return NULL;
  if (s->read) Py_RETURN_NONE; /* READ mode: Solfec-1.0 ignores RUN */
  s->ran            = PETSC_TRUE;
  CollectiveError   = PETSC_FALSE;
  MbModuleErrMsg[0] = 0;
  (void)PetscPushErrorHandler(MbModuleRecordError, NULL);
  e = s->out ? MbOutputNoticeRun(s->out, duration) : PETSC_SUCCESS;
  if (!e) e = MbDomainRun(s->dom, duration);
  if (!e && s->out) e = MbOutputFlush(s->out);
  (void)PetscPopErrorHandler();
  if (e) {
    if (CollectiveError) {
      /* every rank is here: raise normally; the rank whose CALLBACK raised gets its own
         exception back, the others MbModulePeerFailure */
      CollectiveError = PETSC_FALSE;
      if (DeferredType) {
        PyErr_Restore(DeferredType, DeferredValue, DeferredTb);
        DeferredType = DeferredValue = DeferredTb = NULL;
      } else if (MbModuleSiteMismatch[0])
        PyErr_Format(PyExc_RuntimeError, "CALLBACK: %s", MbModuleSiteMismatch);
      else
        PyErr_SetString(MbModulePeerFailure, "a CALLBACK raised an exception on another rank");
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

/* solfec_solver(h, type, model, epsilon, maxit, failure, callback, data): before each RUN,
   the constraint solver's type and the contact model (what a contact becomes: a row for the
   solver, or a force; PENALTY_SOLVER is Gauss-Seidel for the joints with spring_dashpot) */
static PyObject *py_solfec_solver(PyObject *self, PyObject *args)
{
  int            h, maxit, failure;
  const char    *type, *model;
  double         eps;
  PyObject      *fn, *data;
  Sol           *s;
  MbSolver       sv;
  MbContactModel cm;
  if (!PyArg_ParseTuple(args, "issdiiOO", &h, &type, &model, &eps, &maxit, &failure, &fn, &data) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainGetSolver(s->dom, &sv));
  MB_TRY(PyExc_RuntimeError, MbDomainGetContactModel(s->dom, &cm));
  MB_TRY(PyExc_ValueError, MbContactModelSetType(cm, model));
  MB_TRY(PyExc_ValueError, MbContactModelSetFromOptions(cm)); /* options override the deck */
  MB_TRY(PyExc_ValueError, MbSolverSetType(sv, type));        /* the deck's choice reaches the solver */
  MB_TRY(PyExc_ValueError, MbSolverSetTolerances(sv, eps, maxit));
  MB_TRY(PyExc_ValueError, MbSolverSetFromOptions(sv)); /* options override the deck */
  Py_CLEAR(Failure.fn);
  Py_CLEAR(Failure.data);
  if (fn != Py_None) Failure.fn = Py_NewRef(fn);
  if (data != Py_None) Failure.data = Py_NewRef(data);
  MB_TRY(PyExc_ValueError, MbDomainSetSolverFailure(s->dom, failure, PyFailureCall, &Failure));
  Py_RETURN_NONE;
}

/* solfec_solver_history(h) -> list: the convergence measure at each iteration of the last
   constraint solve (MbSolverGetHistory; Solfec-1.0's merhist). The same on every rank. */
static PyObject *py_solfec_solver_history(PyObject *self, PyObject *args)
{
  int              h;
  Sol             *s;
  MbSolver         sv;
  PetscInt         n;
  const PetscReal *hist;
  PyObject        *list;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainGetSolver(s->dom, &sv));
  MB_TRY(PyExc_RuntimeError, MbSolverGetHistory(sv, &n, &hist));
  if (!(list = PyList_New(n))) return NULL;
  for (PetscInt i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyFloat_FromDouble((double)hist[i]));
  return list;
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
  if (!PyArg_ParseTuple(args, "isddO!", &h, &kind, &dtmin, &dtmax, &PyDict_Type, &params) || !(s = MbModuleGetSol(h))) return NULL;
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

/* solfec_critical_step(h) -> the estimate of MbDomainCriticalStep. Collective. */
static PyObject *py_solfec_critical_step(PyObject *self, PyObject *args)
{
  int       h;
  Sol      *s;
  PetscReal hc;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleCheckPeers(MB_SITE_CRITICAL_STEP)) return NULL;
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
  if (!PyArg_ParseTuple(args, "issd", &h, &scheme, &name, &v) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainGetScheme(s->dom, scheme, &sch));
  MB_TRY(PyExc_ValueError, MbSchemeSetParameter(sch, name, v));
  MB_TRY(PyExc_ValueError, MbSchemeSetFromOptions(sch));
  Py_RETURN_NONE;
}

void MbModuleRunRelease(void)
{
  Py_CLEAR(Failure.fn);
  Py_CLEAR(Failure.data);
  Py_CLEAR(DeferredType);
  Py_CLEAR(DeferredValue);
  Py_CLEAR(DeferredTb);
}

PyMethodDef MbModuleRunMethods[] = {
    {"solfec_callback", py_solfec_callback, METH_VARARGS, "solfec_callback(h, interval, fn, args)"},
    {"solfec_run", py_solfec_run, METH_VARARGS, "solfec_run(h, duration) (collective)"},
    {"solfec_adapt", py_solfec_adapt, METH_VARARGS, "solfec_adapt(h, kind, dtmin, dtmax, b, zeta, alpha, reject, tol, ratio)"},
    {"solfec_solver", py_solfec_solver, METH_VARARGS, "solfec_solver(h, type, model, epsilon, maxit, failure, callback, data)"},
    {"solfec_solver_history", py_solfec_solver_history, METH_VARARGS, "solfec_solver_history(h) -> [measure per iteration of the last solve]"},
    {"solfec_critical_step", py_solfec_critical_step, METH_VARARGS, "solfec_critical_step(h) -> estimate of the explicit critical step (collective)"},
    {"solfec_scheme_param", py_solfec_scheme_param, METH_VARARGS, "solfec_scheme_param(h, scheme, name, value)"},
    {NULL, NULL, 0, NULL},
};
