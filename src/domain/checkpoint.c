/* Checkpoints and restart (README, "Long runs"; doc/output.md, "Restart data"). A
   checkpoint holds every part of the domain's state (component.c: the parts a step
   rejection keeps, and the run's bookkeeping) made global by each part's distribution —
   body records carry their ids, constraint records their bodies, the owner of every body
   is kept (a restart on as many ranks puts each body where it was, so the run goes on bit
   for bit) — and where the deck was: the RUN call and its end.

   A restart runs the deck again, so that its materials, callbacks and monitors exist; the
   RUN calls before the checkpoint's do nothing, and the checkpoint's RUN call restores the
   state and runs on to that RUN's end (or returns at once when the checkpoint was taken at
   its end). Python state of the deck (variables its callbacks change) is not restored.

   When: every ckpt_steps steps, ckpt_dt of simulated time or ckpt_wall seconds of rank 0's
   clock (learnt by every rank in the reduction each step makes), at the end of a RUN that
   took a second or more since the last one, and at once after a signal (src/core/signal.c),
   which then stops the run. */
#include <moreau/mbmath.h>
#include "domainimpl.h"
#include "../body/bodyview.h"

PetscErrorCode MbDomainCheckpointGet(MbDomain d, MbCheckpoint *c)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(MbDomainKnowBodies(d));
  PetscCall(PetscCalloc1(MbDomainNParts, &c->part));
  c->npart = MbDomainNParts;
  for (PetscInt k = 0; k < MbDomainNParts; k++) {
    MbCheckpointPart *p = &c->part[k];
    MbBuf             b = {NULL, 0, 0};
    PetscCall(PetscStrncpy(p->name, MbDomainParts[k].name, sizeof(p->name)));
    p->dist = (int)MbDomainParts[k].dist;
    PetscCall(MbDomainParts[k].save(d, &b));
    if (MbDomainParts[k].dist == MB_PART_SHARED && d->rank > 0) b.n = 0; /* rank 0's copy is kept */
    p->n     = b.n;
    p->bytes = b.buf;
  }
  c->run          = d->run.nrun - 1;
  c->run_done     = d->run.run_done;
  c->run_end      = d->run.run_end;
  c->run_duration = d->run.run_duration;
  c->t            = d->t;
  c->nsteps       = d->nsteps;
  c->nranks       = d->size;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainCheckpointFree(MbCheckpoint *c)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < c->npart; k++) {
    PetscCall(PetscFree(c->part[k].bytes));
    PetscCall(PetscFree(c->part[k].count));
  }
  PetscCall(PetscFree(c->part));
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetResume(MbDomain d, MbCheckpoint *c)
{
  PetscFunctionBegin;
  if (d->run.resume) {
    PetscCall(MbDomainCheckpointFree(d->run.resume));
    PetscCall(PetscFree(d->run.resume));
  }
  PetscCall(PetscNew(&d->run.resume));
  *d->run.resume = *c; /* taken over */
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetHistory(MbDomain d, PetscInt n, const MbHistory h[])
{
  PetscFunctionBegin;
  if (n > d->hcap) {
    d->hcap = n;
    PetscCall(PetscRealloc(sizeof(MbHistory) * d->hcap, &d->hist));
  }
  if (n) PetscCall(PetscArraycpy(d->hist, h, n));
  d->nhist = n;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetClock(MbDomain d, PetscReal t, PetscInt nsteps)
{
  d->t      = t;
  d->nsteps = nsteps;
  return PETSC_SUCCESS;
}

PetscErrorCode MbDomainGetInterrupted(MbDomain d, int *sig)
{
  *sig = d->run.interrupted;
  return PETSC_SUCCESS;
}

PetscErrorCode MbDomainSetCheckpointInterval(MbDomain d, PetscInt steps, PetscReal dt, PetscReal wall)
{
  PetscFunctionBegin;
  PetscCheck(steps >= 0, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "checkpoint interval in steps must be >= 0 (0: not by steps), got %" PetscInt_FMT, steps);
  PetscCheck(dt >= 0 && PetscIsNormalReal(dt + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "checkpoint interval in simulated time must be >= 0 (0: not by time), got %g", (double)dt);
  PetscCheck(wall >= 0 && PetscIsNormalReal(wall + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "checkpoint interval in wall-clock seconds must be >= 0 (0: not by the clock), got %g", (double)wall);
  d->run.ckpt_steps  = steps;
  d->run.ckpt_dt     = dt;
  d->run.ckpt_wall   = wall;
  d->run.ckpt_next_t = d->t + dt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetCheckpointer(MbDomain d, PetscErrorCode (*fn)(MbDomain, void *), void *ctx, PetscErrorCode (*flush)(MbDomain, void *))
{
  d->run.ckpt_fn   = fn;
  d->run.ckpt_ctx  = ctx;
  d->run.flush_fn  = flush;
  d->run.flush_ctx = ctx;
  return PETSC_SUCCESS;
}

/* The part of checkpoint c that this rank restores from: part k's bytes as a view, and how
   many ranks' bytes it holds. Not collective. */
static PetscErrorCode PartView(MbDomain d, const MbCheckpoint *c, PetscInt k, MbBuf *b, PetscInt *nrec)
{
  const MbPart           *part = &MbDomainParts[k];
  const MbCheckpointPart *p    = NULL;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < c->npart && !p; i++)
    if (!strcmp(c->part[i].name, part->name)) p = &c->part[i];
  PetscCheck(p, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint has no part '%s': restart with the build that wrote it", part->name);
  PetscCheck(p->dist == (int)part->dist, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint's part '%s' has distribution %d; this build's %d: restart with the build that wrote it", part->name, p->dist, (int)part->dist);
  b->buf = p->bytes;
  b->n   = p->n;
  b->cap = 0;
  *nrec  = part->dist == MB_PART_GATHER ? c->nranks : 1;
  if (part->dist == MB_PART_RANK) {
    if (c->nranks == d->size) { /* each rank its own */
      size_t off = 0;
      for (PetscMPIInt r = 0; r < d->rank; r++) off += (size_t)p->count[r];
      b->buf += off;
      b->n = (size_t)p->count[d->rank];
    } else { /* another rank count: every rank's to rank 0 */
      *nrec = d->rank == 0 ? c->nranks : 0;
      if (d->rank > 0) b->n = 0;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The state of checkpoint c into the domain, at the checkpoint's RUN call: the deck has
   made the same bodies, joints, springs and monitors again (checked). Collective. */
static PetscErrorCode Restore(MbDomain d, const MbCheckpoint *c)
{
  PetscFunctionBegin;
  PetscCall(MbDomainKnowBodies(d));
  for (PetscInt k = 0; k < MbDomainNParts; k++) {
    MbBuf    b;
    PetscInt nrec;
    PetscCall(PartView(d, c, k, &b, &nrec));
    PetscCall(MbDomainParts[k].restore(d, &b, nrec));
  }
  if (!d->run.started) {
    PetscCall(PetscTime(&d->run.run_start));
    d->run.started = PETSC_TRUE;
  }
  d->run.ckpt_last_wall = d->run.run_start;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainRunResume(MbDomain d, PetscReal duration, PetscBool *skip, PetscBool *resumed, PetscReal *t_end)
{
  PetscInt      k = d->run.nrun++;
  MbCheckpoint *c = d->run.resume;
  PetscFunctionBegin;
  *skip = *resumed    = PETSC_FALSE;
  d->run.run_duration = duration;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  if (k < c->run) {
    *skip = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCheck(duration == c->run_duration, d->comm, PETSC_ERR_ARG_WRONG, "restart: RUN call %" PetscInt_FMT " asks for a duration of %.10g; in the run that wrote the checkpoint it asked for %.10g: restart with the deck that wrote it", k + 1,
             (double)duration, (double)c->run_duration);
  d->run.run_done = c->run_done; /* the run part reads it */
  PetscCall(Restore(d, c));
  d->run.run_done = PETSC_FALSE;
  *t_end          = c->run_end;
  d->run.run_end  = c->run_end;
  *skip           = c->run_done;
  *resumed        = PETSC_TRUE;
  PetscCall(PetscPrintf(d->comm, "moreau: restart: continuing from t = %.9g, step %" PetscInt_FMT " (RUN call %" PetscInt_FMT "%s)\n", (double)d->t, d->nsteps, k + 1, c->run_done ? ", at its end" : ""));
  PetscCall(MbDomainCheckpointFree(c));
  PetscCall(PetscFree(d->run.resume));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainMaybeCheckpoint(MbDomain d, PetscBool end, PetscBool *stop)
{
  PetscBool      due = PETSC_FALSE;
  PetscLogDouble now;
  PetscFunctionBegin;
  if (!end && !d->run.sig && !d->run.ckpt_walldue && d->run.ckpt_steps <= 0 && d->run.ckpt_dt <= 0) PetscFunctionReturn(PETSC_SUCCESS); /* the common step: nothing can be due */
  PetscCall(PetscTime(&now));
  if (end) { /* a signal after the last step's reduction is learnt here */
    int pend = MbSignalPending() ? 1 : 0, any, wall = d->rank == 0 && now - d->run.ckpt_last_wall >= 1.0 ? 1 : 0, w;
    PetscCallMPI(MPI_Allreduce(&pend, &any, 1, MPI_INT, MPI_MAX, d->comm));
    PetscCallMPI(MPI_Allreduce(&wall, &w, 1, MPI_INT, MPI_MAX, d->comm));
    d->run.sig = d->run.sig || any;
    due        = w || d->run.ckpt_steps > 0 || d->run.ckpt_dt > 0 || d->run.ckpt_wall > 0 ? PETSC_TRUE : PETSC_FALSE;
    if (d->nsteps == d->run.ckpt_last_step && !d->run.sig) due = PETSC_FALSE; /* written already */
  }
  if (d->run.sig || d->run.ckpt_walldue) due = PETSC_TRUE;
  if (d->run.ckpt_steps > 0 && d->nsteps - d->run.ckpt_last_step >= d->run.ckpt_steps) due = PETSC_TRUE;
  if (d->run.ckpt_dt > 0 && d->t + 1e-9 * d->h >= d->run.ckpt_next_t) due = PETSC_TRUE;
  if (!due) PetscFunctionReturn(PETSC_SUCCESS);
  d->run.run_done = end;
  if (d->run.ckpt_fn) PetscCall(d->run.ckpt_fn(d, d->run.ckpt_ctx));
  d->run.run_done       = PETSC_FALSE;
  d->run.ckpt_last_step = d->nsteps;
  d->run.ckpt_last_wall = now;
  d->run.ckpt_walldue   = PETSC_FALSE;
  if (d->run.ckpt_dt > 0)
    while (d->run.ckpt_next_t <= d->t + 1e-9 * d->h) d->run.ckpt_next_t += d->run.ckpt_dt;
  if (d->run.sig) {
    int mine           = MbSignalPending();
    d->run.interrupted = mine ? mine : -1;
    d->run.sig         = 0;
    MbSignalClear();
    *stop = PETSC_TRUE;
    char cmd[4 * PETSC_MAX_PATH_LEN];
    PetscCall(MbOptionRestartCommand(d->comm, cmd, sizeof(cmd)));
    /* the whole command: typed without the run's -mb_output_dir, -mb_restart would continue
       another checkpoint (the deck's own output directory's) */
    PetscCall(PetscPrintf(d->comm, "moreau: stopped by %s at t = %.9g, step %" PetscInt_FMT "%s%s\n", d->rank == 0 && mine ? MbSignalName(mine) : "a signal", (double)d->t, d->nsteps,
                          d->run.ckpt_fn ? ", after writing a checkpoint; continue with:\n  " : " (no output, so no checkpoint)", d->run.ckpt_fn ? cmd : ""));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
