/* The `_moreau` module's SOLFEC objects: the table of them (handles are indices), their
   creation (WRITE or READ mode, the output file), their settings (step, gravity, verbosity,
   IMBALANCE_TOLERANCE), and their destruction at the end of the deck. */
#include "moduleimpl.h"

static Sol *Sols;         /* every SOLFEC object of the deck */
static int  NSol, CapSol; /* count and room */

Sol *MbModuleGetSol(int h)
{
  if (h < 0 || h >= NSol || !Sols[h].dom) {
    PyErr_Format(PyExc_ValueError, "invalid SOLFEC handle %d", h);
    return NULL;
  }
  return &Sols[h];
}

/* -mb_output_dir overrides the deck's output directory (through the options database, so
   that -help lists it); -mb_output_subdir (Solfec's -s) appends a subdirectory to it, as
   Solfec-1.0 appends its -s to every SOLFEC object's output path (sol.c behaviour). */
static PetscErrorCode OutputDirFromOptions(char dir[], size_t len, PetscBool *set)
{
  char      sub[PETSC_MAX_PATH_LEN];
  PetscBool subset;
  PetscFunctionBegin;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Deck output", "moreau");
  PetscCall(PetscOptionsString("-mb_output_dir", "Write results under this directory instead of the deck's SOLFEC output directory", "SOLFEC", dir, dir, len, set));
  PetscCall(PetscOptionsString("-mb_output_subdir", "Write results under this subdirectory of the output directory (Solfec's -s)", "SOLFEC", "", sub, sizeof(sub), &subset));
  PetscOptionsEnd();
  if (subset && sub[0]) {
    size_t n = strlen(dir);
    PetscCheck(n + strlen(sub) + 2 < len, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "output path %s/%s is too long", dir, sub);
    (void)snprintf(dir + n, len - n, "%s%s", n && dir[n - 1] == '/' ? "" : "/", sub);
  }
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
  if (MbModuleCheckPeers(MB_SITE_SOLFEC)) return NULL;
  if (strlen(dir) >= sizeof(odir)) return PyErr_Format(PyExc_ValueError, "the output directory's path has %zu characters; at most %d are supported", strlen(dir), (int)sizeof(odir) - 1);
  if (NSol == CapSol) {
    CapSol = CapSol ? 2 * CapSol : 4;
    MB_TRY(PyExc_MemoryError, PetscRealloc(sizeof(Sol) * CapSol, &Sols));
  }
  s = &Sols[NSol];
  PetscMemzero(s, sizeof(*s));
  /* run name: the deck's file name without directory and .py */
  base = strrchr(MbModuleDeckPath, '/');
  base = base ? base + 1 : MbModuleDeckPath;
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

/* solfec_quasi_static(h): SOLFEC('QUASI_STATIC'): every body takes its kind's static scheme */
static PyObject *py_solfec_quasi_static(PyObject *self, PyObject *args)
{
  int  h;
  Sol *s;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_RuntimeError, MbDomainSetQuasiStatic(s->dom));
  Py_RETURN_NONE;
}

/* solfec_info(h) -> (time, step, steps) */
static PyObject *py_solfec_info(PyObject *self, PyObject *args)
{
  int       h;
  Sol      *s;
  PetscReal t, dt;
  PetscInt  n;
  if (!PyArg_ParseTuple(args, "i", &h) || !(s = MbModuleGetSol(h))) return NULL;
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
  if (!PyArg_ParseTuple(args, "id", &h, &dt) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainSetStep(s->dom, dt));
  Py_RETURN_NONE;
}

/* solfec_verbose(h, flag): progress lines; -mb_quiet on the command line wins */
static PyObject *py_solfec_verbose(PyObject *self, PyObject *args)
{
  int       h, flag;
  Sol      *s;
  PetscBool quiet = PETSC_FALSE;
  if (!PyArg_ParseTuple(args, "ip", &h, &flag) || !(s = MbModuleGetSol(h))) return NULL;
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
  if (!PyArg_ParseTuple(args, "iO", &h, &og) || !(s = MbModuleGetSol(h))) return NULL;
  if (MbModuleReadReals(og, 3, g, "GRAVITY: vector")) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainSetGravity(s->dom, g));
  Py_RETURN_NONE;
}

/* solfec_balance(h, tolerance, updatefreq): IMBALANCE_TOLERANCE. Collective. */
static PyObject *py_solfec_balance(PyObject *self, PyObject *args)
{
  int    h;
  double tol;
  long   freq;
  Sol   *s;
  if (!PyArg_ParseTuple(args, "idl", &h, &tol, &freq) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainSetImbalanceTolerance(s->dom, (PetscReal)tol, (PetscInt)freq));
  Py_RETURN_NONE;
}

/* solfec_locdyn_dump(h, path): LOCDYN_DUMP (collective) */
static PyObject *py_solfec_locdyn_dump(PyObject *self, PyObject *args)
{
  int         h;
  const char *path;
  Sol        *s;
  if (!PyArg_ParseTuple(args, "is", &h, &path) || !(s = MbModuleGetSol(h))) return NULL;
  MB_TRY(PyExc_ValueError, MbDomainLocDynDump(s->dom, path));
  Py_RETURN_NONE;
}

PetscErrorCode MbModuleSummary(void)
{
  PetscFunctionBegin;
  for (int i = 0; i < NSol; i++)
    if (Sols[i].dom && Sols[i].ran) PetscCall(MbDomainSummary(Sols[i].dom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbModuleFinished(void)
{
  PetscFunctionBegin;
  for (int i = 0; i < NSol; i++)
    if (Sols[i].out) PetscCall(MbOutputCheckpointFinished(Sols[i].out));
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
  MbModuleRunRelease();
  PetscFunctionReturn(PETSC_SUCCESS);
}

PyMethodDef MbModuleSolfecMethods[] = {
    {"solfec_create", py_solfec_create, METH_VARARGS, "solfec_create(step, outdir) -> handle (collective)"},
    {"solfec_quasi_static", py_solfec_quasi_static, METH_VARARGS, "solfec_quasi_static(h): every body takes its kind's static scheme"},
    {"solfec_info", py_solfec_info, METH_VARARGS, "solfec_info(h) -> (time, step, steps)"},
    {"solfec_set_step", py_solfec_set_step, METH_VARARGS, "solfec_set_step(h, step)"},
    {"solfec_verbose", py_solfec_verbose, METH_VARARGS, "solfec_verbose(h, flag)"},
    {"solfec_gravity", py_solfec_gravity, METH_VARARGS, "solfec_gravity(h, g)"},
    {"solfec_balance", py_solfec_balance, METH_VARARGS, "solfec_balance(h, tolerance, updatefreq)"},
    {"solfec_locdyn_dump", py_solfec_locdyn_dump, METH_VARARGS, "solfec_locdyn_dump(h, path) (collective)"},
    {NULL, NULL, 0, NULL},
};
