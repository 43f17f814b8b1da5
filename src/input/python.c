/* The embedded interpreter: Debian's libpython3 (pkg-config python3-embed) with the
   built-in `_moreau` module, the source tree's python/ directory on sys.path, and the deck
   run as __main__ under its real file name, so tracebacks name the deck file and line. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "inputimpl.h"

#ifndef MB_SOURCE_DIR
#  define MB_SOURCE_DIR "."
#endif

static PetscBool PythonStarted = PETSC_FALSE;

const char *MbInputPythonVersion(void) { return PY_VERSION; }

/* Prepend each entry of a colon-separated list to sys.path (first entry first). */
static int PrependPath(PyObject *path, const char list[])
{
  char      *copy = strdup(list), *save = NULL;
  Py_ssize_t pos = 0;
  if (!copy) return -1;
  for (char *tok = strtok_r(copy, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
    PyObject *s = PyUnicode_DecodeFSDefault(tok);
    if (!s || PyList_Insert(path, pos++, s) < 0) {
      Py_XDECREF(s);
      free(copy);
      return -1;
    }
    Py_DECREF(s);
  }
  free(copy);
  return 0;
}

/* Python setup: built-in module, argv, no signal handlers (so Ctrl-C and mpirun's signals
   keep their default meaning on a parallel job), sys.path. */
/* The folder holding the deck package (python/moreau): an installed moreau's
   PREFIX/share/moreau/python, found beside the executable (PREFIX/bin/moreau), else the
   source tree's (the build's binary, run from anywhere). MOREAU_PYTHONPATH overrides both. */
static const char *PackageDir(void)
{
  static char dir[PETSC_MAX_PATH_LEN + 32];
  char        exe[PETSC_MAX_PATH_LEN];
  ssize_t     n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n > 0) {
    struct stat st;
    char       *slash;
    exe[n] = 0;
    if ((slash = strrchr(exe, '/'))) {
      *slash = 0;
      (void)snprintf(dir, sizeof(dir), "%s/../share/moreau/python", exe);
      if (!stat(dir, &st) && S_ISDIR(st.st_mode)) return dir;
    }
  }
  return MB_SOURCE_DIR "/python";
}

static PetscErrorCode StartPython(const char deck[], int nargs, char *args[])
{
  PyConfig config;
  PyStatus st;
  char   **argv;
  PetscFunctionBegin;
  PetscCheck(PyImport_AppendInittab("_moreau", PyInit__moreau) == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "cannot register the _moreau module with Python");
  PyConfig_InitPythonConfig(&config);
  config.parse_argv              = 0; /* deck arguments are the deck's, not Python's */
  config.install_signal_handlers = 0;
  config.site_import             = 1;
  PetscCall(PetscMalloc1(nargs + 1, &argv));
  argv[0] = (char *)deck;
  for (int i = 0; i < nargs; i++) argv[i + 1] = args[i];
  st = PyConfig_SetBytesArgv(&config, nargs + 1, argv);
  PetscCall(PetscFree(argv));
  if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  PetscCheck(!PyStatus_Exception(st), PETSC_COMM_SELF, PETSC_ERR_LIB, "cannot start Python %s: %s", PY_VERSION, st.err_msg ? st.err_msg : "unknown error");
  PythonStarted = PETSC_TRUE;
  {
    /* sys.path: the deck's directory first (as `python3 deck.py` would), then our package */
    PyObject   *path = PySys_GetObject("path"); /* borrowed */
    const char *env  = getenv("MOREAU_PYTHONPATH");
    char        dir[PETSC_MAX_PATH_LEN];
    const char *slash = strrchr(deck, '/');
    PetscCheck(path && PyList_Check(path), PETSC_COMM_SELF, PETSC_ERR_LIB, "Python has no sys.path list");
    if (slash) {
      size_t n = (size_t)(slash - deck);
      if (n == 0) n = 1; /* deck in / */
      if (n >= sizeof(dir)) n = sizeof(dir) - 1;
      memcpy(dir, deck, n);
      dir[n] = 0;
    } else
      PetscCall(PetscStrncpy(dir, ".", sizeof(dir)));
    PetscCheck(PrependPath(path, env && env[0] ? env : PackageDir()) == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "cannot set sys.path");
    PetscCheck(PrependPath(path, dir) == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "cannot set sys.path");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

void MbInputFlushStdio(void)
{
  PyObject *f;
  for (int k = 0; k < 2; k++) {
    f = PySys_GetObject(k ? "stderr" : "stdout"); /* borrowed */
    if (f && f != Py_None) {
      PyObject *r = PyObject_CallMethod(f, "flush", NULL);
      if (r)
        Py_DECREF(r);
      else
        PyErr_Clear();
    }
  }
  fflush(stdout);
  fflush(stderr);
}

/* SystemExit(code): the exit status Python itself would use. */
static int ExitCodeOf(PyObject *value)
{
  PyObject *code = value ? PyObject_GetAttrString(value, "code") : NULL;
  int       rc   = 1;
  if (!code) {
    PyErr_Clear();
    return 1;
  }
  if (code == Py_None)
    rc = 0;
  else if (PyLong_Check(code))
    rc = (int)(PyLong_AsLong(code) & 0xff); /* the status the process would have: -1 is 255 */
  else {
    PyObject *s = PyObject_Str(code);
    if (s) {
      fprintf(stderr, "%s\n", PyUnicode_AsUTF8(s));
      Py_DECREF(s);
    }
    PyErr_Clear();
    rc = 1;
  }
  Py_DECREF(code);
  return rc;
}

/* The deck file's bytes, as a Python bytes object (new reference), or NULL with an exception. */
static PyObject *ReadDeck(const char deck[], FILE *fp)
{
  PyObject *bytes = PyBytes_FromStringAndSize(NULL, 0);
  char      buf[65536];
  size_t    n;
  while (bytes && (n = fread(buf, 1, sizeof(buf), fp)) > 0) {
    PyObject *more = PyBytes_FromStringAndSize(buf, (Py_ssize_t)n);
    PyBytes_ConcatAndDel(&bytes, more);
  }
  if (bytes && ferror(fp)) {
    Py_DECREF(bytes);
    return PyErr_Format(PyExc_OSError, "cannot read deck '%s': %s", deck, strerror(errno));
  }
  return bytes;
}

/* The deck's code: compiled as Python 3, or, when Python 3 refuses it (SyntaxError, and its
   IndentationError and TabError), translated from Python 2 by moreau.py2, which prints the
   one-line notice on rank 0 and raises a SyntaxError at the line Python 3 named when the deck
   is not Python 2 either. *translated says which. New reference, or NULL with an exception. */
static PyObject *CompileDeck(PyObject *py2, PyObject *file, PyObject *source, int *translated)
{
  PyObject *code = Py_CompileStringObject(PyBytes_AS_STRING(source), file, Py_file_input, NULL, -1), *type, *why, *tb;
  *translated    = 0;
  if (code || !PyErr_ExceptionMatches(PyExc_SyntaxError)) return code;
  PyErr_Fetch(&type, &why, &tb);
  PyErr_NormalizeException(&type, &why, &tb);
  code = PyObject_CallMethod(py2, "compile_translated", "OOO", source, file, why ? why : Py_None);
  Py_XDECREF(type);
  Py_XDECREF(why);
  Py_XDECREF(tb);
  *translated = code != NULL;
  if (!code && PyErr_ExceptionMatches(PyExc_SyntaxError)) { /* about the deck, not moreau.py2's frames */
    PyErr_Fetch(&type, &why, &tb);
    Py_XDECREF(tb);
    PyErr_Restore(type, why, NULL);
  }
  return code;
}

/* Solfec-1.0's installation as decks look for it (moreau.solfecpath): the `solfec` command's
   directory on PATH, its scripts on sys.path. Returns 0, or -1 with a Python exception set. */
static int InstallSolfecPath(void)
{
  PyObject *mod = PyImport_ImportModule("moreau.solfecpath"), *r;
  if (!mod) return -1;
  r = PyObject_CallMethod(mod, "_install", NULL);
  Py_DECREF(mod);
  if (!r) return -1;
  Py_DECREF(r);
  return 0;
}

/* Run the deck in __main__'s namespace after `from moreau import *`; returns 0, or -1 with
   a Python exception set. Modules the deck imports from its own directories that are Python 2
   are translated too (moreau.py2's import hook, installed here for every deck: a Python 3
   deck may keep Python 2 helpers). */
static int ExecDeck(const char deck[], FILE *fp)
{
  PyObject *main = PyImport_AddModule("__main__"), *g, *r, *file, *py2 = NULL, *source = NULL, *code = NULL; /* main: borrowed */
  int       translated = 0, rc = -1;
  if (!main) return -1;
  g    = PyModule_GetDict(main); /* borrowed */
  file = PyUnicode_DecodeFSDefault(deck);
  if (!file || PyDict_SetItemString(g, "__file__", file) < 0) goto done;
  r = PyRun_String("from moreau import *\n", Py_file_input, g, g);
  if (!r) goto done;
  Py_DECREF(r);
  if (InstallSolfecPath() < 0) goto done; /* first: py2's hook takes the sys.path entries after this as the deck's */
  if (!(py2 = PyImport_ImportModule("moreau.py2"))) goto done;
  if (!(r = PyObject_CallMethod(py2, "_install", "O", file))) goto done;
  Py_DECREF(r);
  if (!(source = ReadDeck(deck, fp))) goto done;
  if (!(code = CompileDeck(py2, file, source, &translated))) goto done;
  if (translated) { /* Python 2's execfile, which translates what it runs */
    PyObject *f = PyObject_GetAttrString(py2, "execfile");
    if (!f || PyDict_SetItemString(g, "execfile", f) < 0) {
      Py_XDECREF(f);
      goto done;
    }
    Py_DECREF(f);
    if (PyDict_SetItemString(g, "long", (PyObject *)&PyLong_Type) < 0) goto done; /* Python 2's long is int (py2.py: not rewritten) */
  }
  if (!(r = PyEval_EvalCode(code, g, g))) goto done;
  Py_DECREF(r);
  rc = 0;
done:
  Py_XDECREF(code);
  Py_XDECREF(source);
  Py_XDECREF(py2);
  Py_XDECREF(file);
  return rc;
}

PetscErrorCode MbInputRunDeck(const char deck[], int nargs, char *args[], int *exitcode)
{
  FILE       *fp;
  int         failed = 0, nfailed = 0, rc = 0, peer = 0, exited = 0;
  PetscMPIInt rank, size;
  PyObject   *type = NULL, *value = NULL, *tb = NULL;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  *exitcode = 0;
  /* every rank opens the deck: they may not share a file system */
  fp = fopen(deck, "r");
  {
    int bad = fp ? 0 : errno, anybad;
    PetscCallMPI(MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
    if (anybad) {
      if (bad) PetscCall(PetscFPrintf(PETSC_COMM_SELF, stderr, "moreau: cannot open deck '%s': %s%s\n", deck, strerror(bad), rank && size > 1 ? " (on this rank)" : ""));
      if (fp) fclose(fp);
      *exitcode = 1;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(StartPython(deck, nargs, args));
  PetscCall(MbModuleSetDeck(deck));
  if (ExecDeck(deck, fp) < 0) {
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (type && PyErr_GivenExceptionMatches(type, PyExc_SystemExit)) {
      rc     = ExitCodeOf(value);
      exited = 1;
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(tb);
      type = value = tb = NULL;
      failed            = rc != 0;
    } else {
      failed = 1;
      peer   = type && MbModuleIsPeerFailure(type);
      rc     = 1;
    }
  }
  fclose(fp);
  /* Settle across ranks. A rank that learnt of a failure elsewhere (PeerFailure) already
     took part in the exchange that told it; MbModuleSyncFailure then returns the count. */
  PetscCall(MbModuleSyncFailure(MB_SITE_DECK_END, peer ? 0 : failed, &nfailed));
  /* Print once: rank 0 when every rank failed (the same top-level code raised the same
     error), otherwise each rank whose own code failed, in rank order (every rank is here
     now, so the barriers keep the tracebacks of several ranks apart). */
  for (PetscMPIInt r = 0; r < size; r++) {
    if (r == rank && type) {
      if (!peer && ((nfailed == size && rank == 0) || nfailed < size)) {
        if (nfailed < size && size > 1) fprintf(stderr, "moreau: the deck failed on rank %d:\n", rank);
        PyErr_Restore(type, value, tb);
        PyErr_Print();
      } else {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(tb);
      }
      type = NULL;
      MbInputFlushStdio();
    }
    if (!(nfailed > 0 && nfailed < size)) break; /* nothing to keep apart */
    PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  }
  /* sys.exit on some ranks only: say so, or the job ends with no word from anyone (the other
     ranks stopped at a collective call with their peers' failure, which is not printed) */
  if (exited && rc && nfailed < size) {
    fprintf(stderr, "moreau: the deck called sys.exit(%d) on rank %d, not on every rank: the other ranks stop at their next collective call\n", rc, rank);
    MbInputFlushStdio();
  }
  if (type) { /* a rank past the loop's early end: its exception is not printed */
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
  }
  MbInputFlushStdio();
  { /* the job's exit status is the deck's sys.exit code on every rank, also when only some
       ranks called it (mpirun returns whichever non-zero status it sees first) */
    int mine = exited ? rc : 0, code;
    PetscCallMPI(MPI_Allreduce(&mine, &code, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
    if (code) rc = code;
  }
  if (nfailed && !rc) rc = 1;
  *exitcode = rc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbInputSummary(void)
{
  PetscFunctionBegin;
  if (PythonStarted) PetscCall(MbModuleSummary());
  if (PythonStarted) PetscCall(MbModuleFinished());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbInputFinalize(void)
{
  PetscFunctionBegin;
  if (!PythonStarted) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbModuleDestroyAll());
  MbInputFlushStdio();
  PythonStarted = PETSC_FALSE;
  PetscCheck(Py_FinalizeEx() == 0, PETSC_COMM_SELF, PETSC_ERR_LIB, "Python did not finalize cleanly (flushing its buffers failed)");
  PetscFunctionReturn(PETSC_SUCCESS);
}
