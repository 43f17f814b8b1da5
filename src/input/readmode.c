/* The `_moreau` module's READ mode: results already in the output directory are read
   frame by frame (SEEK, FORWARD, BACKWARD, DURATION) instead of computed. */
#include "moduleimpl.h"

/* READ mode: the frame read before anything that reads the state (Solfec's lazy start:
   frame 0). */
PetscErrorCode MbModuleReadInit(Sol *s)
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
  if (!PyArg_ParseTuple(args, "id", &h, &t) || !(s = MbModuleGetSol(h))) return NULL;
  if (!s->read) Py_RETURN_NONE;
  if (MbModuleCheckPeers(MB_SITE_READ)) return NULL;
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
  if (!PyArg_ParseTuple(args, "il", &h, &n) || !(s = MbModuleGetSol(h))) return NULL;
  if (!s->read) Py_RETURN_NONE;
  if (MbModuleCheckPeers(MB_SITE_READ)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbOutputGetFrames(s->out, &nf, &cur, NULL, NULL));
  if (cur < 0) {
    MB_TRY(PyExc_RuntimeError, MbModuleReadInit(s));
    Py_RETURN_NONE;
  }
  f = (PetscInt)PetscMax(0, PetscMin((long)nf - 1, (long)cur + n));
  if (f != cur) MB_TRY(PyExc_RuntimeError, MbOutputReadFrame(s->out, f));
  Py_RETURN_NONE;
}

/* solfec_read_limits(h) -> None in WRITE mode, (t0, t1) of the stored frames in READ mode
   (frame 0 read first if none was). Collective. */
static PyObject *py_solfec_read_limits(PyObject *self, PyObject *args)
{
  int       h;
  Sol      *s;
  PetscReal t0, t1;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = MbModuleGetSol(h))) return NULL;
  if (!s->read) Py_RETURN_NONE;
  if (MbModuleCheckPeers(MB_SITE_READ)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbModuleReadInit(s));
  MB_TRY(PyExc_RuntimeError, MbOutputGetFrames(s->out, NULL, NULL, &t0, &t1));
  return Py_BuildValue("(dd)", (double)t0, (double)t1);
}

/* READ mode's ENERGY: the /history record at the time of the frame read (global energies;
   the step that ended there), or the frame's energies of body id (kinetic, internal,
   external; contact and friction 0: not kept per body). The start frame has no /history
   record (no step ended there): its global energies are the read state's, as WRITE mode's
   ENERGY gives them before the first step (kinetic and internal; no work done yet), so a
   deck's ENERGY before RUN reads the same in both modes. */
PyObject *MbModuleReadEnergy(Sol *s, PetscInt id)
{
  static const char *items[5] = {"KINETIC", "INTERNAL", "EXTERNAL", "CONTACT", "FRICTION"};
  double             e[5]     = {0, 0, 0, 0, 0};
  PetscReal          t;
  MB_TRY(PyExc_RuntimeError, MbModuleReadInit(s));
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
    if (id < 0 && k == 0 && n == 0) { /* the start frame: no step ended there */
      MbEnergy g;
      MB_TRY(PyExc_RuntimeError, MbDomainGetEnergy(s->dom, &g));
      return Py_BuildValue("(ddddd)", (double)g.kinetic, (double)g.internal, 0.0, 0.0, 0.0);
    }
  }
  return Py_BuildValue("(ddddd)", e[0], e[1], e[2], e[3], e[4]);
}

PyMethodDef MbModuleReadMethods[] = {
    {"solfec_seek", py_solfec_seek, METH_VARARGS, "solfec_seek(h, t) (READ mode; collective)"},
    {"solfec_forward", py_solfec_forward, METH_VARARGS, "solfec_forward(h, frames) (READ mode; collective)"},
    {"solfec_read_limits", py_solfec_read_limits, METH_VARARGS, "solfec_read_limits(h) -> (t0, t1) in READ mode, else None (collective)"},
    {NULL, NULL, 0, NULL},
};
