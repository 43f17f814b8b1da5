/* moreau — run a Python 3 input deck (Solfec-1.0 API):
     moreau [options] deck.py [deck arguments]
   Options before the deck go to PETSc (-log_view, -help, -mb_*). After the deck, moreau's
   own -mb_* options are still taken as options (with their values), and so are Solfec-1.0's
   flags anywhere (-w, -s SUB, -i S, as solfec.c takes them); every other argument after the
   deck is the deck's own (sys.argv[1:]) and never reaches PETSc; after "--" everything is. */
#include <ctype.h>
#include <string.h>
#include <sys/stat.h>
#include <moreau/moreau.h>
#include "input/input.h"

static const char Help[] = "moreau: parallel nonsmooth multibody dynamics; runs a Python 3 deck in the Solfec-1.0 API.\n";

static void Usage(FILE *f)
{
  fprintf(f, "usage: moreau [options] deck.py [deck arguments]\n"
             "       mpirun -np N moreau [options] deck.py [deck arguments]\n"
             "       moreau --help | --version\n"
             "\n"
             "The deck is the first argument ending in .py (or another file, or the argument\n"
             "after --); the arguments after it are the deck's own: sys.argv = [deck.py, deck\n"
             "arguments...], except moreau's -mb_* options and Solfec's flags, which are taken\n"
             "as options wherever they stand (after \"--\" nothing is). Options before the deck\n"
             "go to PETSc, so every PETSc option works (-log_view, -help, -malloc_debug, ...).\n"
             "A -mb_* option moreau does not have is an error naming the nearest one.\n"
             "Solfec-1.0's flags: -w (-mb_write), -s SUB (-mb_output_subdir SUB), -i S\n"
             "(-mb_progress S); -v, -f, -g (its viewer) and -c are refused with the way to go.\n"
             "moreau's own options:\n"
             "\n");
  MbOptionPrint(f);
  fprintf(f,
          "\n"
          "Results: OUTDIR/<deck name>.h5 (HDF5) and OUTDIR/<deck name>.xmf (XDMF, open it in ParaView).\n"
          "Documentation: README.md; the deck API (every Solfec-1.0 function, supported or not):\n"
          "doc/deck-api.md; the output layout: doc/output.md (in the source tree, %s).\n",
          MB_SOURCE_DIR);
}

static int EndsWith(const char s[], const char suffix[])
{
  size_t n = strlen(s), m = strlen(suffix);
  return n > m && strcmp(s + n - m, suffix) == 0;
}

/* Solfec-1.0's command-line flags (solfec.c), taken wherever they stand, as Solfec does: the
   moreau option each becomes (and whether it takes a value), or the reason it is refused */
static const struct {
  const char *flag, *option, *refusal;
  int         value;
} Solfec[] = {
    {"-w", "-mb_write", NULL, 0},
    {"-s", "-mb_output_subdir", NULL, 1},
    {"-i", "-mb_progress", NULL, 1},
    {"-v", NULL, "Solfec's viewer (-v) is not part of moreau: run the deck, then open OUTDIR/<deck name>.xmf in ParaView (README, \"Results in ParaView\")", 0},
    {"-f", NULL, "-f (wireframe) is an option of Solfec's viewer, which moreau has not: open OUTDIR/<deck name>.xmf in ParaView", 0},
    {"-g", NULL, "-g (window size) is an option of Solfec's viewer, which moreau has not: open OUTDIR/<deck name>.xmf in ParaView", 1},
    {"-c", NULL, "-c (continue writing after the stored results) is not supported: write checkpoints (CHECKPOINT or -mb_checkpoint_*) and continue with -mb_restart", 0},
};

/* A value, not an option: "-1e-3" is a value */
static int IsOption(const char s[]) { return s[0] == '-' && s[1] && !(isdigit((unsigned char)s[1]) || s[1] == '.'); }

/* PETSc's words for a boolean option's value */
static int IsBool(const char s[])
{
  static const char *const w[] = {"0", "1", "true", "false", "yes", "no", "on", "off", "TRUE", "FALSE", "YES", "NO", "ON", "OFF", "True", "False"};
  for (size_t k = 0; k < sizeof(w) / sizeof(w[0]); k++)
    if (!strcmp(s, w[k])) return 1;
  return 0;
}

static int IsFile(const char path[])
{
  struct stat st;
  return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* Append argv[*i] (an option) and its value, if it takes one, to out; for moreau's own
   options the table says so, for others (PETSc's) a following non-option that is not the
   deck is its value. Returns 0, or 2 after printing why the command line is refused. */
static int TakeOption(int argc, char **argv, int *i, char **out, int *nout, int afterdeck)
{
  const char     *a = argv[*i];
  const MbOption *o;
  for (size_t k = 0; k < sizeof(Solfec) / sizeof(Solfec[0]); k++) {
    if (strcmp(a, Solfec[k].flag)) continue;
    if (Solfec[k].refusal) {
      fprintf(stderr, "moreau: %s\n", Solfec[k].refusal);
      return 2;
    }
    if (Solfec[k].value && *i + 1 >= argc) {
      fprintf(stderr, "moreau: Solfec's flag %s needs a value (%s takes it)\n", a, Solfec[k].option);
      return 2;
    }
    out[(*nout)++] = (char *)Solfec[k].option;
    if (Solfec[k].value) out[(*nout)++] = argv[++*i];
    return 0;
  }
  out[(*nout)++] = argv[*i];
  o              = MbOptionFind(a);
  if (o && (!o->arg[0] || !strcmp(o->arg, "0|1"))) { /* a flag, as PETSc's booleans: a value only if one follows */
    if (*i + 1 < argc && IsBool(argv[*i + 1])) out[(*nout)++] = argv[++*i];
  } else if (o && o->arg[0] == '[') { /* an optional value: a file that is not the deck */
    if (*i + 1 < argc && !IsOption(argv[*i + 1]) && !EndsWith(argv[*i + 1], ".py")) out[(*nout)++] = argv[++*i];
  } else if (o && o->arg[0]) {
    if (*i + 1 >= argc) {
      fprintf(stderr, "moreau: option %s needs a value (%s)\n", a, o->arg);
      return 2;
    }
    out[(*nout)++] = argv[++*i];
  } else if (!o && !afterdeck && *i + 1 < argc && !IsOption(argv[*i + 1]) && !EndsWith(argv[*i + 1], ".py")) {
    out[(*nout)++] = argv[++*i]; /* PETSc's option and its value (-log_view :file.txt) */
  }
  return 0;
}

int main(int argc, char **argv)
{
  int            deck = -1, pargc = 1, dargc = 0, exitcode = 0, rc = 0, verbatim = 0;
  char         **pargv, **dargv;
  PetscErrorCode ierr;
  PetscInt       nbad = 0;

  pargv = (char **)malloc(sizeof(char *) * (size_t)(2 * argc + 1));
  dargv = (char **)malloc(sizeof(char *) * (size_t)(argc + 1));
  if (!pargv || !dargv) return 1;
  pargv[0] = argv[0];
  /* the deck: the first argument ending in .py, or another file that is not an option's
     value, or the argument after "--"; PETSc sees the options, the deck its arguments */
  for (int i = 1; i < argc && !rc; i++) {
    const char *a = argv[i];
    if (verbatim)
      dargv[dargc++] = argv[i];
    else if (!strcmp(a, "--")) {
      if (deck < 0 && i + 1 < argc) deck = ++i;
      verbatim = 1;
    } else if (deck < 0 && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
      Usage(stdout);
      return 0;
    } else if (deck < 0 && !strcmp(a, "--version")) {
      printf("moreau %s\nPETSc %d.%d.%d\nPython %s (embedded)\n", MOREAU_VERSION_STRING, PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR, MbInputPythonVersion());
      return 0;
    } else if (deck < 0 && IsOption(a))
      rc = TakeOption(argc, argv, &i, pargv, &pargc, 0);
    else if (deck < 0) {
      if (!EndsWith(a, ".py") && !IsFile(a)) {
        fprintf(stderr, "moreau: '%s' is neither an option nor a deck: no such file\n", a);
        rc = 2;
      }
      deck = i;
    } else if (!strncmp(a, "-mb_", 4))
      rc = TakeOption(argc, argv, &i, pargv, &pargc, 1);
    else {
      size_t k;
      for (k = 0; k < sizeof(Solfec) / sizeof(Solfec[0]) && strcmp(a, Solfec[k].flag); k++) {
      }
      if (k < sizeof(Solfec) / sizeof(Solfec[0]))
        rc = TakeOption(argc, argv, &i, pargv, &pargc, 1);
      else
        dargv[dargc++] = argv[i];
    }
  }
  pargv[pargc] = NULL;
  dargv[dargc] = NULL;
  if (!rc && deck < 0) {
    fprintf(stderr, "moreau: no deck given\n");
    Usage(stderr);
    rc = 2;
  }
  if (rc) {
    free(pargv);
    free(dargv);
    return rc;
  }
  /* Open MPI's sharedfp/lockedfile component, which MPI-IO loads when HDF5 opens a file,
     copies the file's path into a fixed buffer: a path of about 246 characters aborts the
     run ("buffer overflow detected"). moreau never uses shared file pointers: leave that
     component out unless the user chose the components (Open MPI reads this variable at
     MPI_Init; other MPIs ignore it). */
  setenv("OMPI_MCA_sharedfp", "^lockedfile", 0);
  /* Open MPI's own MPI-IO (OMPIO) keeps going after a failed write (a full disk) and the
     ranks then wait for each other inside HDF5 for ever; ROMIO returns the error, which
     moreau reports and ends the job with. Unless the user chose the component. */
  setenv("OMPI_MCA_io", "romio321", 0);
  ierr = PetscInitialize(&pargc, &pargv, NULL, Help);
  if (ierr) return (int)ierr;
  MbOptionSetCommandLine(argc, argv, deck);

  ierr = MbInitialize();
  /* a misspelled -mb_* option (here, in PETSC_OPTIONS or an options file) stops the job on
     every rank before the deck runs */
  if (!ierr) ierr = MbOptionCheck(PETSC_COMM_WORLD, &nbad);
  if (!ierr && nbad) exitcode = 2;
  if (!ierr && !exitcode) ierr = MbInputRunDeck(argv[deck], dargc, dargv, &exitcode);
  if (!ierr && !exitcode && !nbad) ierr = MbInputSummary();
  if (!ierr && !exitcode && !nbad) ierr = MbOptionWarnUnused(PETSC_COMM_WORLD);
  if (!ierr) ierr = MbInputFinalize();
  if (!ierr)
    ierr = MbFinalize();
  else
    (void)MbFinalize(); /* after an error too: HDF5 must close its files before MPI ends */
  if (ierr) exitcode = 1;
  ierr = PetscFinalize();
  free(pargv);
  free(dargv);
  return exitcode ? exitcode : (int)ierr;
}
