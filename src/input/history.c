/* The `_moreau` module's output and what the deck reads back of a run: OUTPUT and
   CHECKPOINT intervals, the file paths, the constraints, ENERGY and HISTORY. */
#include "moduleimpl.h"

/* The output of SOLFEC object s, or NULL with a Python error naming fn when a later SOLFEC
   object took its file over (TakeOverFile). */
static MbOutput SolOut(Sol *s, const char *fn)
{
  if (!s->out)
    PyErr_Format(PyExc_RuntimeError, "%s: this SOLFEC object's output file was taken over by a later SOLFEC object writing the same file (one output directory for both): its results are gone; give each SOLFEC object its own output directory", fn);
  return s->out;
}

static PyObject *py_solfec_output(PyObject *self, PyObject *args)
{
  int    h;
  double dt;
  Sol   *s;
  if (!PyArg_ParseTuple(args, "id", &h, &dt) || !(s = MbModuleGetSol(h)) || !SolOut(s, "OUTPUT")) return NULL;
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
  if (!PyArg_ParseTuple(args, "ildd", &h, &steps, &dt, &wall) || !(s = MbModuleGetSol(h)) || !SolOut(s, "CHECKPOINT")) return NULL;
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
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = MbModuleGetSol(h)) || !SolOut(s, "SOLFEC")) return NULL;
  MB_TRY(PyExc_RuntimeError, MbOutputGetPaths(s->out, &a, &b));
  return Py_BuildValue("(ss)", a, b);
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
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = MbModuleGetSol(h))) return NULL;
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
    PyObject *row = Py_BuildValue("(lllNNNd)", (long)c[k].kind, (long)c[k].body[0], (long)c[k].body[1], MbModuleRealTuple(c[k].point, 3), MbModuleRealTuple(c[k].base, 9), MbModuleRealTuple(c[k].R, 3), (double)c[k].gap);
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

/* solfec_energy(h, id) -> (kinetic, internal, external, contact, friction), global; of one
   body when id >= 0. Collective. */
static PyObject *py_solfec_energy(PyObject *self, PyObject *args)
{
  int      h;
  long     id;
  Sol     *s;
  MbEnergy e, g;
  MPI_Comm comm;
  if (!PyArg_ParseTuple(args, "il", &h, &id) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleCheckPeers(MB_SITE_ENERGY)) return NULL;
  if (s->read) return MbModuleReadEnergy(s, (PetscInt)id);
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
  if (!PyArg_ParseTuple(args, "isdd", &h, &item, &t0, &t1) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleCheckPeers(MB_SITE_HISTORY) || !SolOut(s, "HISTORY")) return NULL;
  MB_TRY(PyExc_RuntimeError, MbOutputFlush(s->out));
  MB_TRY(PyExc_ValueError, MbOutputReadHistory(s->out, item, t0, t1, &n, &t, &v));
  r = Py_BuildValue("(NN)", MbModuleRealList(t, n), MbModuleRealList(v, n));
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
  if (!PyArg_ParseTuple(args, "ilOsdd", &h, &id, &oX, &item, &t0, &t1) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleReadReals(oX, 3, X, "HISTORY: point")) return NULL;
  if (MbModuleCheckPeers(MB_SITE_HISTORY) || !SolOut(s, "HISTORY")) return NULL;
  MB_TRY(PyExc_RuntimeError, MbOutputFlush(s->out));
  {
    PetscBool nodal;
    MB_TRY(PyExc_ValueError, HistoryNodal(s, (PetscInt)id, X, item, t0, t1, &nodal, &n, &t, &v));
    if (!nodal) MB_TRY(PyExc_ValueError, MbOutputReadBody(s->out, (PetscInt)id, X, item, t0, t1, &n, &t, &v));
  }
  r = Py_BuildValue("(NN)", MbModuleRealList(t, n), MbModuleRealList(v, n));
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
  if (!PyArg_ParseTuple(args, "ilsdd", &h, &id, &item, &t0, &t1) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleCheckPeers(MB_SITE_HISTORY) || !SolOut(s, "HISTORY")) return NULL;
  MB_TRY(PyExc_ValueError, MbOutputReadBodyEnergy(s->out, (PetscInt)id, item, t0, t1, &n, &t, &v));
  r = Py_BuildValue("(NN)", MbModuleRealList(t, n), MbModuleRealList(v, n));
  PetscFree(t);
  PetscFree(v);
  return r;
}

PyMethodDef MbModuleHistoryMethods[] = {
    {"solfec_output", py_solfec_output, METH_VARARGS, "solfec_output(h, interval)"},
    {"solfec_checkpoint", py_solfec_checkpoint, METH_VARARGS, "solfec_checkpoint(h, steps, interval, wall)"},
    {"solfec_constraints", py_solfec_constraints, METH_VARARGS, "solfec_constraints(h) -> [(kind, master, slave, point, base, R, gap)]: WRITE mode this rank's of the last step, READ mode the frame's (not collective)"},
    {"solfec_paths", py_solfec_paths, METH_VARARGS, "solfec_paths(h) -> (h5, xmf)"},
    {"solfec_energy", py_solfec_energy, METH_VARARGS, "solfec_energy(h, id) -> 5 energies (collective)"},
    {"solfec_history", py_solfec_history, METH_VARARGS, "solfec_history(h, item, t0, t1) -> (t, v) (collective)"},
    {"solfec_history_body", py_solfec_history_body, METH_VARARGS, "solfec_history_body(h, id, X, item, t0, t1) -> (t, v) (collective)"},
    {"solfec_history_body_energy", py_solfec_history_body_energy, METH_VARARGS, "solfec_history_body_energy(h, id, item, t0, t1) -> (times, values) (collective)"},
    {NULL, NULL, 0, NULL},
};
