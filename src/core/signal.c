/* Signals a batch system sends before it kills a job (SIGTERM, SIGUSR1; Slurm's --signal,
   PBS's kill delay) and Ctrl-C (SIGINT): the handler only notes the signal; the run reads
   the note at the end of each step, in the reduction every step makes anyway
   (src/domain/domain.c), so every rank learns it on the same step, finishes that step,
   writes a checkpoint and stops (README, "Long runs"). A second signal of the same kind
   while the first is pending is not waited for: it ends the process as the default
   action would. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <moreau/mbsys.h>

static volatile sig_atomic_t Pending   = 0; /* the signal received, 0 for none */
static int                   Installed = 0;
static struct sigaction      Previous[3];
static const int             Caught[3] = {SIGTERM, SIGUSR1, SIGINT};

static void Handler(int sig)
{
  if (Pending == sig) { /* asked twice: give up waiting for the step */
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  Pending = sig;
}

/*@C
  MbSignalInstall - catch SIGTERM, SIGUSR1 and SIGINT so that a run stops cleanly at the end
  of a step (-mb_signals 0 leaves them to their default actions). Idempotent.
@*/
PetscErrorCode MbSignalInstall(void)
{
  PetscBool on = PETSC_TRUE;
  PetscFunctionBegin;
  if (Installed) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mb_signals", &on, NULL)); /* listed by MbDomainSetFromOptions */
  Installed = 1;
  Pending   = 0;
  if (!on) PetscFunctionReturn(PETSC_SUCCESS);
  for (int k = 0; k < 3; k++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = Handler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    PetscCheck(!sigaction(Caught[k], &sa, &Previous[k]), PETSC_COMM_SELF, PETSC_ERR_SYS, "cannot catch signal %d: %s", Caught[k], strerror(errno));
  }
  Installed = 2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MbSignalRestore - give SIGTERM, SIGUSR1 and SIGINT back their handlers of before
  MbSignalInstall (between runs a signal acts as it would without moreau).
@*/
PetscErrorCode MbSignalRestore(void)
{
  PetscFunctionBegin;
  if (Installed == 2)
    for (int k = 0; k < 3; k++) (void)sigaction(Caught[k], &Previous[k], NULL);
  Installed = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MbSignalPending - the signal this process received and has not yet acted on (0: none).
@*/
int MbSignalPending(void) { return (int)Pending; }

/*@C
  MbSignalClear - forget the pending signal (after the run acted on it).
@*/
void MbSignalClear(void) { Pending = 0; }

/*@C
  MbSignalName - "SIGTERM", "SIGUSR1", "SIGINT", or "a signal" for another number.
@*/
const char *MbSignalName(int sig)
{
  switch (sig) {
  case SIGTERM:
    return "SIGTERM";
  case SIGUSR1:
    return "SIGUSR1";
  case SIGINT:
    return "SIGINT";
  default:
    return "a signal";
  }
}
