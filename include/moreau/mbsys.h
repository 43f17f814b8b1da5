/* moreau — system header: PETSc, error discipline, version. Included by every public header. */
#ifndef MOREAU_MBSYS_H
#define MOREAU_MBSYS_H

#include <petscsys.h>

#define MOREAU_VERSION_MAJOR 0
#define MOREAU_VERSION_MINOR 1
#define MOREAU_VERSION_PATCH 0
#define MOREAU_VERSION_STRING "0.1.0"

/* PETSc 3.19 introduced PETSC_SUCCESS; Debian bookworm ships 3.18. */
#ifndef PETSC_SUCCESS
#  define PETSC_SUCCESS 0
#endif

/* Error classes of our own, past PETSc's range, for errors PETSc has no word for. */
#define MB_ERR_DECK 400 /* the input deck is wrong: the message names the value */

/** Register moreau's schemes, log events and citations; call once after PetscInitialize.
    Collective on PETSC_COMM_WORLD. Calling it again does nothing. */
PETSC_EXTERN PetscErrorCode MbInitialize(void);
/** Release registries made by MbInitialize. Call before PetscFinalize. Not collective. */
PETSC_EXTERN PetscErrorCode MbFinalize(void);

/** The names in a registry's function list, comma-separated, into buf. */
PETSC_EXTERN PetscErrorCode MbRegistryNames(PetscFunctionList list, char buf[], size_t len);
/** The constructor registered as type; an error "unknown WHAT 'type'; known WHATS: ..." when
    there is none. */
PETSC_EXTERN PetscErrorCode MbRegistryFind(MPI_Comm comm, PetscFunctionList list, const char what[], const char whats[], const char type[], void (**create)(void));

/** Catch SIGTERM, SIGUSR1 and SIGINT (unless -mb_signals 0): a run then finishes its step,
    writes a checkpoint and stops (src/core/signal.c). Idempotent; MbDomainRun calls it. */
PETSC_EXTERN PetscErrorCode MbSignalInstall(void);
/** Give those signals their previous handlers back (MbDomainRun calls it at its end). */
PETSC_EXTERN PetscErrorCode MbSignalRestore(void);
/** The signal received and not yet acted on, 0 for none. */
PETSC_EXTERN int MbSignalPending(void);
/** Forget the pending signal. */
PETSC_EXTERN void MbSignalClear(void);
/** "SIGTERM", "SIGUSR1", "SIGINT" or "a signal". */
PETSC_EXTERN const char *MbSignalName(int sig);

/** One of moreau's command-line options (src/core/options.c): name ("-mb_quiet"; a family of
    an inner PETSc object's options ends in '*'), its argument ("" for a flag), its default
    ("" for none) and a line of help. */
typedef struct {
  const char *name, *arg, *def, *help;
} MbOption;
/** The table of options, ending with a NULL name. */
PETSC_EXTERN const MbOption *MbOptionList(void);
/** The entry of an option name (with its dash), or NULL. */
PETSC_EXTERN const MbOption *MbOptionFind(const char name[]);
/** The option nearest to name (edit distance), for "did you mean". */
PETSC_EXTERN const char *MbOptionNearest(const char name[]);
/** Print a line on rank 0 for each -mb_* option in the database that is not moreau's; their
    number in nbad. Collective. */
PETSC_EXTERN PetscErrorCode MbOptionCheck(MPI_Comm comm, PetscInt *nbad);
/** Warn on rank 0 about each option (not -mb_*) that nothing read. Collective. */
PETSC_EXTERN PetscErrorCode MbOptionWarnUnused(MPI_Comm comm);
/** Remember the command line (the deck at argv[deck]) for MbOptionRestartCommand. */
PETSC_EXTERN void MbOptionSetCommandLine(int argc, char **argv, int deck);
/** The shell command that continues this run from its checkpoints: its directory, ranks,
    options, deck and arguments, with -mb_restart. */
PETSC_EXTERN PetscErrorCode MbOptionRestartCommand(MPI_Comm comm, char buf[], size_t len);
/** The table as --help prints it. */
PETSC_EXTERN void MbOptionPrint(FILE *f);

/* Exit status of a run a signal stopped after writing its checkpoint (EX_TEMPFAIL of
   sysexits.h: "try again": continue it with -mb_restart). */
#define MB_EXIT_INTERRUPTED 75

#endif
