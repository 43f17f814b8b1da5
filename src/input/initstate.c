/* The `_moreau` module's INITIALIZE_STATE and RIGID_TO_FEM (src/io/initstate.c): a run's
   bodies take their state from another run's results before RUN. */
#include "moduleimpl.h"

/* solfec_initialize_state(h, dir, name, t, labels, rigid_to_fem) -> time of the frame read,
   or None in READ mode (the state comes from this deck's own results then, as Solfec ignores
   both calls in READ mode). labels: None (every body, by id) or a list of labels. Collective. */
static PyObject *py_solfec_initialize_state(PyObject *self, PyObject *args)
{
  int         h, r2f;
  const char *dir, *name;
  double      t;
  PyObject   *labs;
  Sol        *s;
  PetscInt    nl = -1;
  const char *lab[256];
  PetscReal   tf = 0;
  if (!PyArg_ParseTuple(args, "issdOp", &h, &dir, &name, &t, &labs, &r2f) || !(s = MbModuleGetSol(h))) return NULL;
  if (s->read) Py_RETURN_NONE;
  if (labs != Py_None) {
    Py_ssize_t n;
    if (!PyList_Check(labs)) return PyErr_Format(PyExc_TypeError, "labels must be a list of strings");
    n = PyList_Size(labs);
    if (n > (Py_ssize_t)(sizeof(lab) / sizeof(lab[0]))) return PyErr_Format(PyExc_ValueError, "subset names %zd bodies; at most %d are supported", n, (int)(sizeof(lab) / sizeof(lab[0])));
    for (Py_ssize_t k = 0; k < n; k++)
      if (!(lab[k] = PyUnicode_AsUTF8(PyList_GetItem(labs, k)))) return NULL;
    nl = (PetscInt)n;
  }
  if (MbModuleCheckPeers(MB_SITE_INIT_STATE)) return NULL;
  MB_TRY(PyExc_RuntimeError, MbOutputInitializeState(s->dom, dir, name, t, nl, lab, r2f ? PETSC_TRUE : PETSC_FALSE, &tf));
  return PyFloat_FromDouble((double)tf);
}

PyMethodDef MbModuleInitStateMethods[] = {
    {"solfec_initialize_state", py_solfec_initialize_state, METH_VARARGS, "solfec_initialize_state(h, dir, name, t, labels, rigid_to_fem) -> frame time, or None in READ mode (collective)"},
    {NULL, NULL, 0, NULL},
};
