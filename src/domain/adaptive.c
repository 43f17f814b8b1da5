/* MbDomainRun with a step-size controller (ARCHITECTURE.md, step 6: adapt): after every
   step the domain measures the motion (the dot products of seed 004's eq. (5) and the
   acceleration jump of the error estimators), sums them over ranks with one MPI_Allreduce,
   and the controller (src/adapt/) picks the next step from these global numbers, so the
   step is the same on every rank.

   Controllers that reject (CURVATURE with reject) work interval by interval: the state at
   the start of an interval is saved (state.c), the interval is integrated without calling
   the monitors, and at its end it is either rejected (restore, redo with the new step) or
   accepted. Monitors (output frames, callbacks) cannot take back what they wrote, so an
   accepted interval in which a monitor is due is integrated once more from the saved state
   with the very same steps, now calling the monitors after each step (the run is
   deterministic, so the replay reproduces the accepted steps exactly); intervals no
   monitor watches are not replayed. */
#include <moreau/mbmath.h>
#include "domainimpl.h"
#include "../body/bodyview.h"

typedef struct {
  PetscReal h, curvature, estimate; /* one step of the open interval, for its replay */
} StepRec;

PetscErrorCode MbDomainAdaptDestroy(MbDomain d)
{
  PetscFunctionBegin;
  PetscCall(MbAdaptDestroy(&d->adapt));
  PetscCall(PetscFree(d->ubuf));
  PetscCall(PetscFree(d->aprev));
  d->nacc = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Room for one velocity entry per local degree of freedom; a new layout forgets the last
   accelerations. */
PetscErrorCode MbDomainAdaptBuffers(MbDomain d)
{
  PetscInt n = 0;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBodyView v;
    PetscCall(MbBodyGetView(d->body[i], &v));
    if (v.scheme) n += v.nu;
  }
  if (n != d->nacc || !d->ubuf) {
    PetscCall(PetscFree(d->ubuf));
    PetscCall(PetscFree(d->aprev));
    PetscCall(PetscCalloc1(n + 1, &d->ubuf));
    PetscCall(PetscCalloc1(n + 1, &d->aprev));
    d->nacc  = n;
    d->hprev = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Before a step: keep u. */
static PetscErrorCode KeepVelocities(MbDomain d)
{
  PetscInt k = 0;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBodyView v;
    PetscCall(MbBodyGetView(d->body[i], &v));
    if (!v.scheme) continue;
    PetscCall(PetscArraycpy(d->ubuf + k, v.u, v.nu));
    k += v.nu;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a step of size h: the global measurements of MbAdaptData. The acceleration is the
   force schemes' A⁻¹f at the new state when they keep it (the view's acc and accok), else
   the step's mean (u(t+h) − u(t))/h (RIG_* schemes: the reactions of a constraint solve
   come only as impulses). Each rank sums its bodies; one MPI_Allreduce makes the sums
   global. */
static PetscErrorCode Measure(MbDomain d, PetscReal h, MbAdaptData *m)
{
  PetscReal l[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, g[9];
  PetscInt  k    = 0;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody           b  = d->body[i];
    const PetscReal *u0 = d->ubuf + k, *u;
    PetscReal        x[3];
    MbBodyView       v;
    PetscCall(MbBodyGetView(b, &v));
    if (!v.scheme) continue;
    u = v.u;
    for (PetscInt j = 0; j < v.nu; j++) {
      PetscReal a = (v.acc && v.accok) ? v.acc[j] : (u[j] - u0[j]) / h;
      l[0] += u[j] * u[j];
      l[1] += a * a;
      l[2] += u[j] * a;
      if (MbBodyIsLengthDof(b, j)) l[6] += u[j] * u[j], l[7] += a * a, l[8] += u[j] * a;
      if (d->hprev > 0) l[3] += (a - d->aprev[k + j]) * (a - d->aprev[k + j]);
      l[4] += u0[j] * u0[j];
      d->aprev[k + j] = a;
    }
    PetscCall(MbBodyPointToSpatial(b, v.center, x));
    for (int c = 0; c < 3; c++) l[5] += (x[c] - v.center[c]) * (x[c] - v.center[c]);
    k += v.nu;
  }
  PetscCallMPI(MPI_Allreduce(l, g, 9, MPIU_REAL, MPIU_SUM, d->comm));
  m->t     = d->t;
  m->h     = h;
  m->hprev = d->hprev;
  m->vv    = g[0];
  m->aa    = g[1];
  m->va    = g[2];
  m->dada  = g[3];
  m->u0u0  = g[4];
  m->dd    = g[5];
  m->vvL   = g[6];
  m->aaL   = g[7];
  m->vaL   = g[8];
  d->hprev = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One step of size h with its measurement; the history record gets the indicators. */
static PetscErrorCode AdaptiveStep(MbDomain d, PetscReal h, MbAdaptData *m)
{
  PetscFunctionBegin;
  d->h = h;
  PetscCall(KeepVelocities(d));
  PetscCall(MbDomainStep(d));
  PetscCall(Measure(d, h, m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RecordIndicators(MbDomain d, PetscReal curvature, PetscReal estimate)
{
  MbHistory *r = &d->hist[d->nhist - 1];
  r->curvature = curvature;
  r->estimate  = estimate;
  r->rejected  = d->discarded;
  return PETSC_SUCCESS;
}

static PetscErrorCode Progress(MbDomain d, PetscReal t_end, PetscLogDouble *last)
{
  PetscLogDouble now;
  PetscFunctionBegin;
  PetscCall(PetscTime(&now));
  if (d->verbose && d->rank == 0 && now - *last >= d->progress_dt) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "moreau: t = %-10.6g (to %g)  h = %-9.3g  %" PetscInt_FMT " steps, %" PetscInt_FMT " discarded\n", (double)d->t, (double)t_end, (double)d->h, d->nsteps, d->discarded));
    *last = now;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainRunAdaptive(MbDomain d, PetscReal t_end, PetscBool resumed)
{
  PetscReal      h, eps = 1e-12 * PetscMax(1.0, PetscAbsReal(t_end));
  PetscBool      stop = PETSC_FALSE, ckpt;
  PetscLogDouble last;
  MbState        saved;
  StepRec       *rec  = NULL;
  PetscInt       nrec = 0, crec = 0;
  MbAdaptData    m;
  MbAdaptAction  act;
  PetscFunctionBegin;
  PetscCall(PetscMemzero(&saved, sizeof(saved)));
  PetscCall(PetscTime(&last));
  if (!d->run.started) {
    d->run.run_start = last;
    d->run.started   = PETSC_TRUE;
  }
  if (d->run.nrun == 1 || resumed) d->run.ckpt_last_wall = last;
  /* bodies migrate only here, before any state is saved: the partition of the run's start
     is kept through it (saved states and the per-body buffers are this rank's bodies); a
     restart on as many ranks has put them back where they were */
  if (!resumed || d->bal.nrepart == 0) PetscCall(MbDomainMaybeBalance(d));
  d->bal.hold_balance = PETSC_TRUE;
  PetscCall(MbDomainAdaptBuffers(d));
  if (resumed) /* the controller's state and next step came with the checkpoint */
    h = d->hnext;
  else
    PetscCall(MbAdaptStart(d->adapt, d->t, d->h, &h));
  d->hnext = h;
  PetscCall(MbAdaptUsesCheckpoints(d->adapt, &ckpt));
  PetscCall(MbDomainCallMonitors(d, &stop));
  if (ckpt) PetscCall(MbDomainStateSave(d, &saved));
  while (!stop && d->t < t_end - eps) {
    PetscReal hs = PetscMin(h, t_end - d->t), curv, est;
    PetscBool lastStep, due;
    if (t_end - d->t - hs < 1e-6 * hs) hs = t_end - d->t; /* no sliver of a step at the end */
    PetscCall(AdaptiveStep(d, hs, &m));
    lastStep = d->t >= t_end - eps ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(MbAdaptPost(d->adapt, &m, lastStep, &act, &h));
    PetscCall(MbAdaptGetIndicators(d->adapt, &curv, &est));
    PetscCall(RecordIndicators(d, curv, est));
    d->hnext = h;
    if (!ckpt) {
      PetscCall(MbDomainCallMonitors(d, &stop));
      PetscCall(MbDomainCrackCheck(d));
      PetscCall(MbDomainMaybeCheckpoint(d, PETSC_FALSE, &stop));
      PetscCall(Progress(d, t_end, &last));
      continue;
    }
    if (nrec == crec) {
      crec = crec ? 2 * crec : 256;
      PetscCall(PetscRealloc(sizeof(StepRec) * crec, &rec));
    }
    rec[nrec].h         = hs;
    rec[nrec].curvature = curv;
    rec[nrec].estimate  = est;
    nrec++;
    if (act == MB_ADAPT_REJECT) { /* seed 004, section 3: redo the interval with Δt(k_m) */
      d->discarded += nrec;
      PetscCall(MbDomainStateRestore(d, &saved));
      nrec = 0;
      continue;
    }
    if (act != MB_ADAPT_ACCEPT) continue;
    /* accepted: replay it for the monitors when one of them is due within it */
    {
      PetscReal t1 = d->t;
      /* a monitor due anywhere in the interval is still due at its end */
      PetscCall(MbDomainMonitorsDue(d, &due));
      if (due) {
        PetscCall(MbDomainStateRestore(d, &saved));
        for (PetscInt k = 0; k < nrec && !stop; k++) {
          PetscCall(AdaptiveStep(d, rec[k].h, &m));
          PetscCall(RecordIndicators(d, rec[k].curvature, rec[k].estimate));
          PetscCall(MbDomainCallMonitors(d, &stop));
        }
        PetscCheck(stop || d->t == t1, d->comm, PETSC_ERR_PLIB, "replay of an accepted interval ended at t = %.17g, not %.17g", (double)d->t, (double)t1);
      }
    }
    nrec = 0;
    PetscCall(MbDomainCrackCheck(d)); /* at an accepted state only */
    PetscCall(Progress(d, t_end, &last));
    if (!stop) PetscCall(MbDomainStateSave(d, &saved));
    if (!stop) PetscCall(MbDomainMaybeCheckpoint(d, PETSC_FALSE, &stop)); /* at an accepted state only */
  }
  if (!d->run.interrupted) PetscCall(MbDomainMaybeCheckpoint(d, PETSC_TRUE, &stop));
  d->h                = h; /* the controller's next step: a later RUN starts from it */
  d->bal.hold_balance = PETSC_FALSE;
  PetscCall(PetscFree(rec));
  PetscCall(MbDomainStateDestroy(&saved));
  PetscFunctionReturn(PETSC_SUCCESS);
}
