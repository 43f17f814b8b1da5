/* moreau — run a Python 3 input deck (Solfec-1.0 API):
     moreau [PETSc/moreau options] deck.py [deck arguments]
   Options before the deck go to PETSc (-log_view, -help, -mb_*); the arguments after it
   are the deck's own (sys.argv[1:]) and never reach PETSc. */
#include <string.h>
#include <moreau/moreau.h>
#include "input/input.h"

static const char Help[] = "moreau: parallel nonsmooth multibody dynamics; runs a Python 3 deck in the Solfec-1.0 API.\n";

static void Usage(FILE *f)
{
  fprintf(f,
          "usage: moreau [options] deck.py [deck arguments]\n"
          "       mpirun -np N moreau [options] deck.py [deck arguments]\n"
          "       moreau --help | --version\n"
          "\n"
          "The deck is the first argument ending in .py (or the argument after --); the\n"
          "arguments after it are the deck's own: sys.argv = [deck.py, deck arguments...].\n"
          "Options before the deck go to PETSc, so every PETSc option works (-log_view,\n"
          "-help, -malloc_debug, ...). moreau's own options:\n"
          "\n"
          "  -mb_scheme NAME                    scheme of rigid bodies that set none: RIG_NEG (default), RIG_POS, RIG_IMP,\n"
          "                                     EULER_EXP, EULER_IMP, GALPHA, CDM, EGALPHA, CHUNG_LEE\n"
          "  -mb_scheme_rtol R                  Newton tolerance of RIG_IMP, EULER_IMP, GALPHA (default 1e-10)\n"
          "  -mb_scheme_max_it N                Newton iteration cap of RIG_IMP, EULER_IMP, GALPHA (default 32)\n"
          "  -mb_scheme_error_if_not_converged  make a non-converged Newton solve an error (EULER_IMP, GALPHA:\n"
          "                                     instead of redoing the step as two halves)\n"
          "  -mb_scheme_rho_inf R               GALPHA's spectral radius at infinity, in [0, 1] (default 0.8)\n"
          "  -mb_scheme_rho_b R                 EGALPHA's spectral radius at bifurcation, in [0, 1] (default 0.5)\n"
          "  -mb_scheme_beta B                  CHUNG_LEE's beta, in [1, 28/27] (default 1)\n"
          "  -mb_keep_step                      keep the deck's step above half a DEF_EXP body's critical step (a\n"
          "                                     warning above it) instead of lowering it to that half as Solfec does\n"
          "  -mb_quiet                          no progress lines (overrides solfec.verbose)\n"
          "  -mb_progress S                     seconds of wall time between progress lines (default 1)\n"
          "  -mb_output_dir DIR                 write results under DIR instead of the deck's SOLFEC output directory\n"
          "  -mb_checkpoint_steps N             write restart data (OUTDIR/<deck name>.chk) every N steps\n"
          "  -mb_checkpoint_interval T          ... every T of simulated time\n"
          "  -mb_checkpoint_wall S              ... every S seconds of wall-clock time (and always at the end of a RUN\n"
          "                                     of a second or more, and on SIGTERM, SIGUSR1 or SIGINT, which then\n"
          "                                     stop the run with exit status 75)\n"
          "  -mb_restart [FILE]                 continue the run of the checkpoint FILE (default OUTDIR/<deck name>.chk)\n"
          "  -mb_signals 0                      leave SIGTERM, SIGUSR1 and SIGINT to their default actions\n"
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

int main(int argc, char **argv)
{
  int            deck = -1, pargc, exitcode = 0;
  char         **pargv;
  PetscErrorCode ierr;

  /* find the deck: the first argument ending in .py, or the one after "--" */
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--")) {
      if (i + 1 < argc) deck = i + 1;
      break;
    }
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      Usage(stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--version")) {
      printf("moreau %s\nPETSc %d.%d.%d\nPython %s (embedded)\n", MOREAU_VERSION_STRING, PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR, MbInputPythonVersion());
      return 0;
    }
    if (EndsWith(argv[i], ".py")) {
      deck = i;
      break;
    }
  }
  if (deck < 0) {
    fprintf(stderr, "moreau: no deck given\n");
    Usage(stderr);
    return 2;
  }

  /* PETSc sees argv[0] and the options before the deck (and "--" is not one) */
  pargc = deck;
  if (deck >= 2 && !strcmp(argv[deck - 1], "--")) pargc--;
  pargv = (char **)malloc(sizeof(char *) * (size_t)(pargc + 1));
  if (!pargv) return 1;
  for (int i = 0; i < pargc; i++) pargv[i] = argv[i];
  pargv[pargc] = NULL;
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

  ierr = MbInitialize();
  if (!ierr) ierr = MbInputRunDeck(argv[deck], argc - deck - 1, argv + deck + 1, &exitcode);
  if (!ierr && !exitcode) ierr = MbInputSummary();
  if (!ierr) ierr = MbInputFinalize();
  if (!ierr)
    ierr = MbFinalize();
  else
    (void)MbFinalize(); /* after an error too: HDF5 must close its files before MPI ends */
  if (ierr) exitcode = 1;
  ierr = PetscFinalize();
  free(pargv);
  return exitcode ? exitcode : (int)ierr;
}
