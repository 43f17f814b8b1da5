/* moreau's own command-line options, in one table: `moreau --help` prints it, the run-start
   check refuses an -mb_* option that is not in it (naming the nearest), and
   tests/integration/options.sh checks README's table of options against `moreau --help`.
   A part that reads an option still reads it where it belongs (PetscOptionsBegin in its
   SetFromOptions); this table only says which names exist, what they take and their
   defaults (issue 36). */
#include <ctype.h>
#include <string.h>
#include <unistd.h>
#include <moreau/mbsys.h>

/* name; its argument ("" a flag, "[FILE]" an optional one); default ("" none); help. A name
   ending in '*' stands for a family (PETSc's options of an inner object with that prefix). */
static const MbOption Options[] = {
    {"-mb_write", "", "", "compute anew over results already in the output directory (Solfec's -w); without it a deck whose results are there runs in READ mode"},
    {"-mb_output_dir", "DIR", "", "write results under DIR instead of the deck's SOLFEC output directory"},
    {"-mb_output_subdir", "SUB", "", "write results under the output directory's subdirectory SUB (Solfec's -s; SUBDIR() returns it)"},
    {"-mb_output_flush", "S", "1", "flush the results file at most every S seconds of wall time (0: after every frame)"},
    {"-mb_quiet", "", "", "no progress lines (overrides solfec.verbose)"},
    {"-mb_progress", "S", "1", "seconds of wall time between progress lines (Solfec's -i)"},
    {"-mb_progress_columns", "LIST", "kinetic,contacts,iterations,error", "physics columns of a progress line, of kinetic, internal, external, contact, friction, contacts, iterations, error, curvature, rejected (none: none)"},
    {"-mb_scheme", "NAME", "RIG_NEG", "scheme of rigid bodies that set none: RIG_NEG, RIG_POS, RIG_IMP, EULER_EXP, EULER_IMP, GALPHA, CDM, EGALPHA, CHUNG_LEE"},
    {"-mb_scheme_rtol", "R", "1e-10", "Newton tolerance of RIG_IMP, EULER_IMP, GALPHA"},
    {"-mb_scheme_max_it", "N", "32", "Newton iteration cap of RIG_IMP, EULER_IMP, GALPHA"},
    {"-mb_scheme_error_if_not_converged", "", "", "make a non-converged Newton solve an error (EULER_IMP, GALPHA: instead of redoing the step as two halves)"},
    {"-mb_scheme_rho_inf", "R", "0.8", "GALPHA's spectral radius at infinity, in [0, 1]"},
    {"-mb_scheme_rho_b", "R", "0.5", "EGALPHA's spectral radius at bifurcation, in [0, 1]"},
    {"-mb_scheme_beta", "B", "1", "CHUNG_LEE's beta, in [1, 28/27]"},
    {"-mb_scheme_snes_*", "", "", "PETSc SNES options of the implicit force schemes' Newton (-mb_scheme_snes_monitor, ...)"},
    {"-mb_scheme_ksp_*", "", "", "... its linear solver (KSP)"},
    {"-mb_scheme_pc_*", "", "", "... its preconditioner (PC)"},
    {"-mb_keep_step", "", "", "keep the deck's step above half a DEF_EXP body's critical step instead of lowering it to that half as Solfec does"},
    {"-mb_adapt_type", "KIND", "", "step-size controller: FIXED, CURVATURE, TRUNCATION, LOCAL_ERROR, APPARENT_FREQUENCY (overrides TIME_ADAPT)"},
    {"-mb_adapt_dtmin", "H", "", "the controller's smallest step"},
    {"-mb_adapt_dtmax", "H", "", "the controller's largest step"},
    {"-mb_adapt_b", "B", "1", "CURVATURE: b of h = dtmax exp(-b k)"},
    {"-mb_adapt_zeta", "Z", "1", "CURVATURE: regularization interval in units of dtmax"},
    {"-mb_adapt_alpha", "A", "0.5", "CURVATURE: weight of the previous interval's curvature"},
    {"-mb_adapt_reject", "0|1", "0", "CURVATURE, LOCAL_ERROR: redo an interval (a step) whose curvature grew (whose error is too large)"},
    {"-mb_adapt_reject_tol", "F", "0.01", "CURVATURE: reject only when the redo's steps are shorter by more than this fraction"},
    {"-mb_adapt_length", "L", "1", "CURVATURE: length scale: displacements enter the curvature as d/L"},
    {"-mb_adapt_unit_free", "0|1", "0", "CURVATURE: curvature of (t/dtmax, d/L), a pure number (b too)"},
    {"-mb_adapt_tol", "T", "1e-3", "TRUNCATION: local truncation error allowed (length); LOCAL_ERROR: relative error aimed at"},
    {"-mb_adapt_ratio", "F", "0.8", "APPARENT_FREQUENCY: the step as a fraction of 2/omega"},
    {"-mb_solver_type", "NAME", "", "constraint solver, overriding the deck's: gauss_seidel, newton"},
    {"-mb_solver_epsilon", "E", "", "the solver's tolerance, overriding the deck's"},
    {"-mb_solver_maxit", "N", "", "the solver's iteration cap, overriding the deck's"},
    {"-mb_solver_view", "", "", "print the solver's settings at the end of the run"},
    {"-mb_solver_gs_test", "increment|natural", "increment", "Gauss-Seidel stopping test: relative change of R (Solfec's) or the natural-map error"},
    {"-mb_solver_gs_anderson", "M", "3", "Anderson acceleration of the Gauss-Seidel sweeps over the last M sweeps, 0-4 (0: plain sweeps)"},
    {"-mb_solver_gs_simd", "0|1", "1", "the AVX2 Gauss-Seidel sweep where the CPU has it (0: the portable one; results bit for bit the same)"},
    {"-mb_solver_gs_ghost_scatter", "", "", "on several ranks, scatter every ghost reaction before each sweep (for checking; same results)"},
    {"-mb_solver_gs_local_maxit", "N", "50", "Newton iterations of each 3x3 local problem"},
    {"-mb_solver_newton_gs_sweeps", "N", "10", "NEWTON_SOLVER: Gauss-Seidel sweeps when the line search stalls"},
    {"-mb_solver_newton_ls_max", "N", "20", "NEWTON_SOLVER: halvings of the line search"},
    {"-mb_solver_newton_regularization", "C", "1", "NEWTON_SOLVER: c in J + delta I, delta = c min(1e-2, |F|/|F0|) (0: none)"},
    {"-mb_solver_newton_monitor", "", "", "NEWTON_SOLVER: print the residual and the error at each Newton step"},
    {"-mb_solver_newton_ksp_*", "", "", "NEWTON_SOLVER: PETSc KSP options of its linear solver"},
    {"-mb_solver_newton_pc_*", "", "", "NEWTON_SOLVER: ... and of its preconditioner"},
    {"-mb_contact_model", "NAME", "signorini_coulomb", "what a contact becomes: signorini_coulomb (a row for the solver) or spring_dashpot (PENALTY_SOLVER's force)"},
    {"-mb_contact_penalty_delta", "V", "1e-6", "spring_dashpot: sliding speed below which friction is regularized"},
    {"-mb_fem_refactor", "K", "10", "DEF_LIM finite elements: a factorization of M + cK serves K steps (1: every step, as Solfec)"},
    {"-mb_fem_pcg_rtol", "R", "1e-10", "DEF_LIM finite elements: relative residual of the preconditioned CG between factorizations"},
    {"-mb_fem_w_rtol", "D", "1e-6", "DEF_LIM finite elements with constraints: blocks of W from the held factor while within D of A"},
    {"-mb_fem_inverse_entries", "0|1", "1", "DEF_LIM finite elements: entries of A^-1 from MUMPS's selected inverse entries (0: solves of columns)"},
    {"-mb_balance", "metis|none", "metis", "load balance: METIS repartitioning with migration, or bodies stay on rank id mod size"},
    {"-mb_imbalance_tolerance", "T", "1.3", "repartition when max/mean load exceeds T"},
    {"-mb_balance_freq", "N", "10", "steps between load-balance checks (0: never)"},
    {"-mb_ghost_skin", "S", "0.25", "ghost skin, a fraction of the widest movable body's box (0: rebuild ghosts whenever a body moved)"},
    {"-mb_locdyn_dense_max", "K", "96", "a body with at most K constraints puts its blocks of W into the matrix in one call"},
    {"-mb_locdyn_simd", "0|1", "1", "make blocks of W with AVX2 where the CPU has it (0: portable code; same results)"},
    {"-mb_blowup_factor", "F", "1000", "stop a run whose energy made from nothing exceeds F times what the start and the forces gave (0: only a non-finite state)"},
    {"-mb_checkpoint_steps", "N", "", "write restart data (OUTDIR/<deck name>.chk) every N steps"},
    {"-mb_checkpoint_interval", "T", "", "... every T of simulated time"},
    {"-mb_checkpoint_wall", "S", "", "... every S seconds of wall time (and at the end of a RUN of a second or more, and on SIGTERM, SIGUSR1, SIGINT: exit status 75)"},
    {"-mb_restart", "[FILE]", "OUTDIR/<deck name>.chk", "continue the run of the checkpoint FILE"},
    {"-mb_signals", "0|1", "1", "catch SIGTERM, SIGUSR1 and SIGINT during a RUN: checkpoint and stop (0: their default actions)"},
    {"-mb_signal_at_step", "N", "-1", "raise SIGTERM on rank 0 after step N (tests of restarts)"},
    {"-mb_hdf5_debug", "", "", "show HDF5's own stack of messages on an HDF5 failure"},
    {NULL, NULL, NULL, NULL}};

/*@C
  MbOptionList - moreau's options: an array ending with a NULL name.
@*/
const MbOption *MbOptionList(void) { return Options; }

/*@C
  MbOptionFind - the entry of name ("-mb_quiet", with its dash): exact, or a family
  ("-mb_scheme_snes_*") whose prefix it has; NULL when there is none.
@*/
const MbOption *MbOptionFind(const char name[])
{
  for (const MbOption *o = Options; o->name; o++) {
    size_t n = strlen(o->name);
    if (!strcmp(o->name, name) || (o->name[n - 1] == '*' && !strncmp(o->name, name, n - 1))) return o;
  }
  return NULL;
}

/* Edit distance of a and b (both shorter than 128): insertions, deletions, substitutions
   and transpositions of neighbours ("quite" is one from "quiet"), each 1 (the optimal string
   alignment distance) */
static int Distance(const char a[], const char b[])
{
  static int d[128][128];
  int        n = (int)strlen(a), m = (int)strlen(b);
  if (n >= 128 || m >= 128) return 1000;
  for (int i = 0; i <= n; i++) d[i][0] = i;
  for (int j = 0; j <= m; j++) d[0][j] = j;
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= m; j++) {
      int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best) best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[n][m];
}

/*@C
  MbOptionNearest - the option whose name is nearest to name (edit distance), for "did you
  mean" in an error; a family's prefix counts as its name.
@*/
const char *MbOptionNearest(const char name[])
{
  const char *best = NULL;
  int         bd   = 1 << 30;
  for (const MbOption *o = Options; o->name; o++) {
    char   n[128];
    size_t l = strlen(o->name);
    (void)snprintf(n, sizeof(n), "%.*s", (int)(o->name[l - 1] == '*' ? l - 1 : l), o->name);
    int dist = Distance(name, n);
    if (dist < bd) bd = dist, best = o->name;
  }
  return best;
}

/*@C
  MbOptionCheck - a line on rank 0 of comm for every -mb_* option in the options database
  (command line, PETSC_OPTIONS, options files) that moreau does not have, naming the nearest
  one; their number in nbad. Collective: every rank holds the same database.
@*/
PetscErrorCode MbOptionCheck(MPI_Comm comm, PetscInt *nbad)
{
  char *all, *tok, *save = NULL;
  int   bad = 0;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetAll(NULL, &all));
  for (tok = strtok_r(all, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
    if (strncmp(tok, "-mb_", 4) || MbOptionFind(tok)) continue;
    PetscCall(PetscFPrintf(comm, PETSC_STDERR, "moreau: unknown option %s (did you mean %s? moreau --help lists every option)\n", tok, MbOptionNearest(tok)));
    bad++;
  }
  PetscCall(PetscFree(all));
  *nbad = bad;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MbOptionWarnUnused - a line on rank 0 of comm for each option given that no part of the run
  read (a misspelled PETSc option, -log_veiw), except moreau's own -mb_* options, which
  MbOptionCheck checked at the start and which a run may leave unread (a GALPHA parameter
  in a run without GALPHA). Collective.
@*/
PetscErrorCode MbOptionWarnUnused(MPI_Comm comm)
{
  PetscInt n;
  char   **names, **values;
  PetscFunctionBegin;
  PetscCall(PetscOptionsLeftGet(NULL, &n, &names, &values));
  for (PetscInt i = 0; i < n; i++) {
    if (!strncmp(names[i], "mb_", 3)) continue;
    PetscCall(PetscFPrintf(comm, PETSC_STDERR, "moreau: warning: option -%s was given but nothing read it (misspelled? -help lists PETSc's options, moreau --help moreau's)\n", names[i]));
  }
  PetscCall(PetscOptionsLeftRestore(NULL, &n, &names, &values));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int    CmdArgc = 0, CmdDeck = -1;
static char **CmdArgv = NULL;

/*@C
  MbOptionSetCommandLine - remember the command line (argv as main received it, the deck at
  argv[deck]) for MbOptionRestartCommand. argv must outlive the run.
@*/
void MbOptionSetCommandLine(int argc, char **argv, int deck)
{
  CmdArgc = argc;
  CmdArgv = argv;
  CmdDeck = deck;
}

/* Append s to buf, single-quoted for a POSIX shell when it holds anything but safe characters */
static void AppendWord(char buf[], size_t len, const char s[])
{
  size_t n    = strlen(buf);
  int    safe = s[0] != 0;
  for (const char *c = s; *c; c++)
    if (!(isalnum((unsigned char)*c) || strchr("-_./=:,+@%", *c))) safe = 0;
  if (n && n + 1 < len) buf[n++] = ' ', buf[n] = 0;
  if (safe) {
    (void)snprintf(buf + n, len - n, "%s", s);
    return;
  }
  if (n + 1 < len) buf[n++] = '\'', buf[n] = 0;
  for (const char *c = s; *c && n + 5 < len; c++) {
    if (*c == '\'')
      (void)snprintf(buf + n, len - n, "'\\''"), n += 4;
    else
      buf[n++] = *c, buf[n] = 0;
  }
  if (n + 1 < len) buf[n++] = '\'', buf[n] = 0;
}

/*@C
  MbOptionRestartCommand - the command that continues this run from its checkpoints, as the
  user typed the run's own (same directory, ranks, options, deck and its arguments) with
  -mb_restart before the deck: "cd DIR && mpirun -np N moreau ... -mb_restart deck.py ...".
@*/
PetscErrorCode MbOptionRestartCommand(MPI_Comm comm, char buf[], size_t len)
{
  PetscMPIInt size;
  char        cwd[PETSC_MAX_PATH_LEN];
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  buf[0] = 0;
  if (getcwd(cwd, sizeof(cwd))) {
    AppendWord(buf, len, "cd");
    AppendWord(buf, len, cwd);
    (void)snprintf(buf + strlen(buf), len - strlen(buf), " &&"); /* the shell's, unquoted */
  }
  if (size > 1) {
    char np[16];
    (void)snprintf(np, sizeof(np), "%d", (int)size);
    AppendWord(buf, len, "mpirun");
    AppendWord(buf, len, "-np");
    AppendWord(buf, len, np);
  }
  if (!CmdArgv) {
    AppendWord(buf, len, "moreau -mb_restart DECK");
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  AppendWord(buf, len, CmdArgv[0]);
  {
    /* -mb_restart goes where the deck (or the "--" before it) stands; an earlier one, and
       its file, are left out */
    int at = CmdDeck >= 2 && !strcmp(CmdArgv[CmdDeck - 1], "--") ? CmdDeck - 1 : CmdDeck;
    for (int i = 1; i < CmdArgc; i++) {
      if (i == at) AppendWord(buf, len, "-mb_restart");
      if (i < at && !strcmp(CmdArgv[i], "-mb_restart")) {
        if (i + 1 < at && CmdArgv[i + 1][0] != '-') i++;
        continue;
      }
      AppendWord(buf, len, CmdArgv[i]);
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MbOptionPrint - the table as `moreau --help` prints it: name and argument, default, help.
@*/
void MbOptionPrint(FILE *f)
{
  for (const MbOption *o = Options; o->name; o++) {
    char head[96];
    (void)snprintf(head, sizeof(head), "%s%s%s", o->name, o->arg[0] ? " " : "", o->arg);
    fprintf(f, "  %-36s %s", head, o->help);
    if (o->def[0]) fprintf(f, " (default %s)", o->def);
    fputc('\n', f);
  }
}
