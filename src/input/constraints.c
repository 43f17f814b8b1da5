/* The `_moreau` module's interactions: surface materials, the geometric epsilon, contact
   exclusions, sparsification and self-contact, joints (with a velocity given by a callable) and springs (with a force given by
   a callable). */
#include "moduleimpl.h"

/* contact_exclude(h, kind, a, b): CONTACT_EXCLUDE_BODIES (kind 0, body ids) and
   CONTACT_EXCLUDE_SURFACES (kind 1, surface ids), on every rank alike. */
static PyObject *py_contact_exclude(PyObject *self, PyObject *args)
{
  int  h, kind;
  long a, b;
  Sol *s;
  if (!PyArg_ParseTuple(args, "iill", &h, &kind, &a, &b) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainExcludeContact(s->dom, kind ? MB_EXCLUDE_SURFACES : MB_EXCLUDE_BODIES, (PetscInt)a, (PetscInt)b));
  Py_RETURN_NONE;
}

/* self_contact(h, id, on): BODY.selfcontact ('ON' 1, 'OFF' 0), on every rank alike. */
static PyObject *py_self_contact(PyObject *self, PyObject *args)
{
  int  h, on;
  long id;
  Sol *s;
  if (!PyArg_ParseTuple(args, "ilp", &h, &id, &on) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainSetSelfContact(s->dom, (PetscInt)id, on ? PETSC_TRUE : PETSC_FALSE));
  Py_RETURN_NONE;
}

/* solfec_surface_material(h, s1, s2, model, friction, cohesion, restitution, spring, dashpot, hpow) */
static PyObject *py_solfec_surface_material(PyObject *self, PyObject *args)
{
  int    h, model;
  long   s1, s2;
  double f, c, e, k, eta, hpow;
  Sol   *s;
  if (!PyArg_ParseTuple(args, "illidddddd", &h, &s1, &s2, &model, &f, &c, &e, &k, &eta, &hpow) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainAddSurfaceMaterial(s->dom, (PetscInt)s1, (PetscInt)s2, model, f, c, e, k, eta, hpow));
  Py_RETURN_NONE;
}

/* solfec_geps(h, eps) */
static PyObject *py_solfec_geps(PyObject *self, PyObject *args)
{
  int    h;
  double eps;
  Sol   *s;
  if (!PyArg_ParseTuple(args, "id", &h, &eps) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainSetGeometricEpsilon(s->dom, eps));
  Py_RETURN_NONE;
}

/* contact_sparsify(h, threshold, minarea, mindist): CONTACT_SPARSIFY (mindist < 0:
   GEOMETRIC_EPSILON), on every rank alike. */
static PyObject *py_contact_sparsify(PyObject *self, PyObject *args)
{
  int    h;
  double t, a, m;
  Sol   *s;
  if (!PyArg_ParseTuple(args, "iddd", &h, &t, &a, &m) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainSetSparsify(s->dom, t, a, m));
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
  if (!PyArg_ParseTuple(args, "iillOOOdOO", &h, &kind, &b1, &b2, &op1, &op2, &odir, &value, &ots, &fn) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleReadReals(op1, 3, p1, "point") || MbModuleReadReals(op2, 3, p2, "point")) return NULL;
  if (odir != Py_None && MbModuleReadReals(odir, 3, dir, "direction")) return NULL;
  if (ots != Py_None && !(ts = (MbTimeSeries)PyCapsule_GetPointer(ots, TS_CAPSULE))) return NULL;
  if (fn != Py_None) Py_INCREF(fn);
  MB_TRY(PyExc_ValueError, MbDomainAddJoint(s->dom, (MbJointKind)kind, (PetscInt)b1, (PetscInt)b2, p1, p2, dir, value, ts, fn != Py_None ? PyVelocityCall : NULL, fn != Py_None ? fn : NULL, fn != Py_None ? PyDecref : NULL, &index));
  return PyLong_FromLong((long)index);
}

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
    MbModuleCallableWhere((PyObject *)ctx, where, sizeof(where));
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
  if (!PyArg_ParseTuple(args, "illOOOdddddddO", &h, &b1, &b2, &op1, &op2, &odir, &rest, &k, &c, &lo, &hi, &alo, &ahi, &fn) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleReadReals(op1, 3, p1, "PUT_SPRING: point1") || MbModuleReadReals(op2, 3, p2, "PUT_SPRING: point2")) return NULL;
  if (odir != Py_None && MbModuleReadReals(odir, 3, dir, "PUT_SPRING: direction")) return NULL;
  if (fn != Py_None) Py_INCREF(fn);
  MB_TRY(PyExc_ValueError, MbDomainAddSpring(s->dom, (PetscInt)b1, (PetscInt)b2, p1, p2, odir != Py_None ? dir : NULL, rest, k, c, lo, hi, fn != Py_None ? PySpringCall : NULL, fn != Py_None ? fn : NULL, fn != Py_None ? PyDecref : NULL, &index));
  MB_TRY(PyExc_ValueError, MbDomainSetSpringActive(s->dom, index, alo, ahi));
  return PyLong_FromLong((long)index);
}

/* solfec_remove_joint(h, index): DELETE of a joint; every rank */
static PyObject *py_solfec_remove_joint(PyObject *self, PyObject *args)
{
  int  h;
  long index;
  Sol *s;
  if (!PyArg_ParseTuple(args, "il", &h, &index) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainRemoveJoint(s->dom, (PetscInt)index));
  Py_RETURN_NONE;
}

/* solfec_joint_state(h, index) -> (point, point2, base, R, U, V, gap) of the joint's row of the
   last step where this rank owns it, the deck's values before the first step, or None
   (MbDomainGetJoint). Not collective. */
static PyObject *py_solfec_joint_state(PyObject *self, PyObject *args)
{
  int              h;
  long             index;
  Sol             *s;
  MbConstraintInfo c;
  PetscBool        found;
  if (!PyArg_ParseTuple(args, "il", &h, &index) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainGetJoint(s->dom, (PetscInt)index, &c, &found));
  if (!found) Py_RETURN_NONE;
  return Py_BuildValue("(NNNNNNd)", MbModuleRealTuple(c.point, 3), MbModuleRealTuple(c.point2, 3), MbModuleRealTuple(c.base, 9), MbModuleRealTuple(c.R, 3), MbModuleRealTuple(c.U, 3), MbModuleRealTuple(c.V, 3), (double)c.gap);
}

PyMethodDef MbModuleConstraintMethods[] = {
    {"solfec_joint_state", py_solfec_joint_state, METH_VARARGS, "solfec_joint_state(h, index) -> (point, point2, base, R, U, V, gap) or None: a joint as Solfec's CONSTRAINT shows it"},
    {"solfec_remove_joint", py_solfec_remove_joint, METH_VARARGS, "solfec_remove_joint(h, index): DELETE of a joint"},
    {"contact_exclude", py_contact_exclude, METH_VARARGS, "contact_exclude(h, kind, a, b): no contacts between bodies (kind 0) or surfaces (kind 1) a and b"},
    {"self_contact", py_self_contact, METH_VARARGS, "self_contact(h, id, on): body id's primitives make contacts with each other (BODY.selfcontact)"},
    {"solfec_surface_material", py_solfec_surface_material, METH_VARARGS, "solfec_surface_material(h, s1, s2, model, friction, cohesion, restitution, spring, dashpot, hpow)"},
    {"solfec_geps", py_solfec_geps, METH_VARARGS, "solfec_geps(h, eps)"},
    {"contact_sparsify", py_contact_sparsify, METH_VARARGS, "contact_sparsify(h, threshold, minarea, mindist): CONTACT_SPARSIFY (mindist < 0: GEOMETRIC_EPSILON)"},
    {"solfec_joint", py_solfec_joint, METH_VARARGS, "solfec_joint(h, kind, b1, b2, p1, p2, dir, value, ts, fn) -> index"},
    {"solfec_spring", py_solfec_spring, METH_VARARGS, "solfec_spring(h, b1, b2, p1, p2, dir, rest, spring, dashpot, lo, hi, alo, ahi, fn) -> index"},
    {NULL, NULL, 0, NULL},
};
