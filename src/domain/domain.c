/* MbDomain: bodies of this rank, schemes, monitors and the step loop (ARCHITECTURE.md,
   "One time step"): 1. scheme begin (springs at mid-step), 2. ghost refresh and contact
   detection, 3. local dynamics and the constraint solve (or penalty forces), 4. reactions
   into the velocities, 5. scheme end, 6. reductions into /history, 7. monitors (output,
   callbacks). Force schemes (forces.c) take the whole step instead. */
#include <sys/resource.h>
#include <moreau/mbmath.h>
#include <signal.h>
#include "domainimpl.h"
#include "../body/bodyimpl.h"
#include "../scheme/schemeimpl.h"

PetscErrorCode MbDomainCreate(MPI_Comm comm, MbDomain *dom)
{
  MbDomain d;
  PetscFunctionBegin;
  PetscCall(MbInitialize());
  PetscCall(PetscNew(&d));
  d->comm = comm;
  PetscCallMPI(MPI_Comm_rank(comm, &d->rank));
  PetscCallMPI(MPI_Comm_size(comm, &d->size));
  d->map.rank = d->rank, d->map.size = d->size;
  d->h           = 1e-3;
  d->verbose     = PETSC_TRUE;
  d->progress_dt = 1.0;
  d->run.sigstep = -1;
  d->blowup      = 1e3;
  d->ebase       = PETSC_TRUE; /* blowup.c: a baseline at the first step, RUN or not */
  PetscCall(PetscStrncpy(d->default_scheme, MBRIGNEG, sizeof(d->default_scheme)));
  d->geps              = 1e-6;
  d->spar.threshold    = 0.01; /* CONTACT_SPARSIFY's defaults, as Solfec-1.0's dom.c */
  d->spar.minarea      = 0;
  d->spar.mindist      = -1;  /* GEOMETRIC_EPSILON */
  d->bal.imbalance_tol = 1.3; /* Solfec's IMBALANCE_TOLERANCE defaults */
  d->bal.balance_freq  = 10;
  d->gh.gskin          = 0.25; /* ghost.c: measured in doc/scaling.md ("A skin for the ghost set") */
  d->gh.gsetkey[0]     = -1;
  d->bal.balance_metis = PETSC_TRUE;
  d->bal.imbalance     = 1.0;
  d->hcrit_body        = -1;
  PetscCall(MbSolverCreate(comm, &d->solver));
  PetscCall(MbConSetCreate(comm, &d->cs));
  PetscCall(MbLocDynCreate(comm, &d->ld));
  *dom = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainDestroy(MbDomain *dom)
{
  MbDomain d = *dom;
  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < d->nmon; i++)
    if (d->mon[i].destroy) PetscCall(d->mon[i].destroy(d->mon[i].ctx));
  for (PetscInt i = 0; i < d->nbody; i++) PetscCall(MbBodyDestroy(&d->body[i]));
  for (PetscInt i = 0; i < d->nscheme; i++) PetscCall(MbSchemeDestroy(&d->scheme[i]));
  PetscCall(MbDomainExcludeDestroy(d));
  PetscCall(MbDomainGhostDestroy(d));
  PetscCall(MbDomainOwnerDestroy(d));
  for (PetscInt i = 0; i < d->ncb; i++)
    if (d->cb[i].destroy) PetscCall(d->cb[i].destroy(d->cb[i].ctx));
  PetscCall(PetscFree(d->cb));
  PetscCall(MbLocDynDestroy(&d->ld));
  PetscCall(MbDomainForcesDestroy(d));
  for (PetscInt j = 0; j < d->nspring; j++)
    if (d->spring[j].destroy) PetscCall(d->spring[j].destroy(d->spring[j].ctx));
  PetscCall(PetscFree(d->spring));
  PetscCall(MbSolverDestroy(&d->solver));
  PetscCall(MbConSetDestroy(&d->cs));
  PetscCall(MbDomainAdaptDestroy(d)); /* adaptive.c */
  PetscCall(PetscFree(d->mon));
  PetscCall(PetscFree(d->body));
  PetscCall(PetscFree(d->deleted));
  PetscCall(PetscFree(d->scheme));
  PetscCall(PetscFree(d->hist));
  if (d->run.resume) { /* the deck ended before the RUN call its checkpoint was taken in */
    PetscCall(PetscPrintf(d->comm, "moreau: WARNING: restart: the deck made %" PetscInt_FMT " RUN calls; the checkpoint was taken in RUN call %" PetscInt_FMT ": nothing was continued\n", d->run.nrun, d->run.resume->run + 1));
    PetscCall(MbDomainCheckpointFree(d->run.resume));
    PetscCall(PetscFree(d->run.resume));
  }
  PetscCall(PetscFree(*dom));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetFromOptions(MbDomain d)
{
  char      name[64];
  PetscBool set, quiet = d->verbose ? PETSC_FALSE : PETSC_TRUE;
  PetscReal dt = d->progress_dt;
  PetscFunctionBegin;
  PetscOptionsBegin(d->comm, NULL, "Domain options", "MbDomain");
  PetscCall(PetscOptionsString("-mb_scheme", "Time integration scheme of rigid bodies (RIG_POS, RIG_NEG, RIG_IMP, EULER_EXP, EULER_IMP, GALPHA, CDM, EGALPHA, CHUNG_LEE)", "MbBodySetScheme", d->default_scheme, name, sizeof(name), &set));
  if (set) {
    MbScheme s;
    PetscCall(MbDomainGetScheme(d, name, &s)); /* validates the name */
    PetscCall(PetscStrncpy(d->default_scheme, name, sizeof(d->default_scheme)));
  }
  PetscCall(PetscOptionsBool("-mb_quiet", "Print no progress lines", "MbDomainSetVerbose", quiet, &quiet, NULL));
  PetscCall(PetscOptionsReal("-mb_progress", "Seconds of wall time between progress lines", "MbDomainRun", dt, &dt, NULL));
  {
    const char *const kinds[] = {"none", "metis", "MbBalance", "MB_BALANCE_", NULL};
    PetscEnum         k       = d->bal.balance_metis ? (PetscEnum)1 : (PetscEnum)0;
    PetscReal         tol     = d->bal.imbalance_tol;
    PetscInt          freq    = d->bal.balance_freq;
    PetscCall(PetscOptionsEnum("-mb_balance", "Load balance: metis (partition the body graph, migrate) or none (bodies stay on rank id mod size)", "MbDomainSetImbalanceTolerance", kinds, k, &k, NULL));
    PetscCall(PetscOptionsReal("-mb_imbalance_tolerance", "Repartition when max/mean load exceeds this", "MbDomainSetImbalanceTolerance", tol, &tol, NULL));
    PetscCall(PetscOptionsInt("-mb_balance_freq", "Steps between load-balance checks (0: never)", "MbDomainSetImbalanceTolerance", freq, &freq, NULL));
    d->bal.balance_metis = k ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(MbDomainSetImbalanceTolerance(d, tol, freq));
  }
  PetscCall(PetscOptionsReal("-mb_ghost_skin", "Ghost skin, a fraction of the widest movable body's box: the set of ghosts is rebuilt only when a body has moved more than half of it (0: whenever a body moved)", "MbDomainGhostRefresh", d->gh.gskin,
                             &d->gh.gskin, NULL));
  PetscCheck(d->gh.gskin >= 0 && d->gh.gskin <= 10, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "-mb_ghost_skin must be in [0, 10], got %g", (double)d->gh.gskin);
  { /* checkpoints (checkpoint.c); the deck's CHECKPOINT does not override these */
    PetscInt  steps = d->run.ckpt_steps;
    PetscReal dt = d->run.ckpt_dt, wall = d->run.ckpt_wall;
    PetscBool s1, s2, s3, sig = PETSC_TRUE;
    PetscCall(PetscOptionsInt("-mb_checkpoint_steps", "Write a checkpoint every this many steps (0: not by steps)", "MbDomainSetCheckpointInterval", steps, &steps, &s1));
    PetscCall(PetscOptionsReal("-mb_checkpoint_interval", "Write a checkpoint every this much simulated time (0: not by time)", "MbDomainSetCheckpointInterval", dt, &dt, &s2));
    PetscCall(PetscOptionsReal("-mb_checkpoint_wall", "Write a checkpoint every this many seconds of wall-clock time (0: not by the clock)", "MbDomainSetCheckpointInterval", wall, &wall, &s3));
    if (s1 || s2 || s3) PetscCall(MbDomainSetCheckpointInterval(d, steps, dt, wall));
    PetscCall(PetscOptionsBool("-mb_signals", "Catch SIGTERM, SIGUSR1 and SIGINT during a RUN: checkpoint and stop (exit status 75)", "MbSignalInstall", sig, &sig, NULL));
    {
      PetscReal f = d->blowup;
      PetscBool set;
      PetscCall(PetscOptionsReal("-mb_blowup_factor", "Stop a run whose energy made from nothing exceeds this many times the energy the start and the forces gave (0: no check)", "MbDomainSetBlowupFactor", f, &f, &set));
      if (set) PetscCall(MbDomainSetBlowupFactor(d, f));
    }
    PetscCall(PetscOptionsBool("-mb_keep_step", "Keep the deck's step when it is above half the critical step of a DEF_EXP body (a warning above the critical step) instead of lowering it to that half as Solfec-1.0 does", "MbDomainRun", d->keep_step,
                               &d->keep_step, NULL));
    PetscCall(PetscOptionsInt("-mb_signal_at_step", "Raise SIGTERM on rank 0 after this step (tests of restarts; -1: never)", "MbDomainRun", d->run.sigstep, &d->run.sigstep, NULL));
  }
  PetscOptionsEnd();
  PetscCall(MbSolverSetFromOptions(d->solver));
  PetscCall(MbConSetSetFromOptions(d->cs));
  PetscCall(MbLocDynSetFromOptions(d->ld));
  { /* -mb_adapt_type makes the run adaptive even when the deck has no TIME_ADAPT */
    PetscBool has;
    PetscCall(PetscOptionsHasName(NULL, NULL, "-mb_adapt_type", &has));
    if (has || d->adapt) {
      MbAdapt a;
      PetscCall(MbDomainGetAdapt(d, &a));
      PetscCall(MbAdaptSetFromOptions(a));
    }
  }
  d->verbose     = quiet ? PETSC_FALSE : PETSC_TRUE;
  d->progress_dt = dt;
  PetscCall(MbDomainProgressSetFromOptions(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetComm(MbDomain d, MPI_Comm *c)
{
  *c = d->comm;
  return PETSC_SUCCESS;
}
PetscErrorCode MbDomainGetStep(MbDomain d, PetscReal *h)
{
  *h = d->h;
  return PETSC_SUCCESS;
}
PetscErrorCode MbDomainGetTime(MbDomain d, PetscReal *t)
{
  *t = d->t;
  return PETSC_SUCCESS;
}
PetscErrorCode MbDomainGetStepCount(MbDomain d, PetscInt *n)
{
  *n = d->nsteps;
  return PETSC_SUCCESS;
}
PetscErrorCode MbDomainSetVerbose(MbDomain d, PetscBool v)
{
  d->verbose = v;
  return PETSC_SUCCESS;
}
PetscErrorCode MbDomainGetGlobalBodyCount(MbDomain d, PetscInt *n)
{
  *n = d->nglobal;
  return PETSC_SUCCESS;
}

PetscErrorCode MbDomainSetStep(MbDomain d, PetscReal h)
{
  PetscFunctionBegin;
  PetscCheck(h > 0 && PetscIsNormalReal(h), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "time step must be > 0, got %g", (double)h);
  d->h = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetGravity(MbDomain d, const PetscReal g[3])
{
  PetscFunctionBegin;
  for (int k = 0; k < 3; k++) PetscCheck(isfinite(g[k]), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "gravity component %d is not finite: %g", k, (double)g[k]);
  MbV3Copy(g, d->g);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetScheme(MbDomain d, const char name[], MbScheme *s)
{
  const char *type;
  PetscBool   same;
  MbScheme    ns;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nscheme; i++) {
    PetscCall(MbSchemeGetType(d->scheme[i], &type));
    PetscCall(PetscStrcmp(type, name, &same));
    if (same) {
      *s = d->scheme[i];
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall(MbSchemeCreate(d->comm, &ns));
  PetscErrorCode ierr = MbSchemeSetType(ns, name);
  if (ierr) { /* unknown name: leave the domain as it was */
    PetscCall(MbSchemeDestroy(&ns));
    PetscCall(ierr);
  }
  PetscCall(MbSchemeSetFromOptions(ns));
  PetscCall(PetscRealloc(sizeof(MbScheme) * (d->nscheme + 1), &d->scheme));
  d->scheme[d->nscheme++] = ns;
  *s                      = ns;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainNextBodyId(MbDomain d, PetscInt *id)
{
  *id = d->nglobal++;
  return PETSC_SUCCESS;
}

/* The first static scheme that applies to the body's kind (schemes ask for traits, not kinds). */
static PetscErrorCode SetStaticScheme(MbDomain d, MbBody b)
{
  const char *names[] = {MBRIGSTATIC, MBDEFSTATIC};
  PetscFunctionBegin;
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(names); i++) {
    MbScheme  s;
    PetscBool ok;
    PetscCall(MbDomainGetScheme(d, names[i], &s));
    PetscCall(MbSchemeAppliesTo(s, b->ops->name, &ok));
    if (ok) {
      PetscCall(MbBodySetScheme(b, s));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " of kind %s has no quasi-static scheme (RIG_STATIC, DEF_STATIC): QUASI_STATIC analysis needs the rigid or the linear layout", b->id, b->ops->name);
}

PetscErrorCode MbDomainSetQuasiStatic(MbDomain d)
{
  MbScheme s;
  PetscFunctionBegin;
  /* both on every rank, in the same order (MbDomainSummary reduces over the schemes) */
  PetscCall(MbDomainGetScheme(d, MBRIGSTATIC, &s));
  PetscCall(MbDomainGetScheme(d, MBDEFSTATIC, &s));
  d->quasi_static = PETSC_TRUE;
  for (PetscInt i = 0; i < d->nbody; i++)
    if (MbBodyIsMovable(d->body[i])) PetscCall(SetStaticScheme(d, d->body[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainIsQuasiStatic(MbDomain d, PetscBool *quasi_static)
{
  *quasi_static = d->quasi_static;
  return PETSC_SUCCESS;
}

PetscErrorCode MbDomainAddBody(MbDomain d, MbBody b)
{
  PetscFunctionBegin;
  PetscCheck(b->id % d->size == d->rank, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body %" PetscInt_FMT " belongs to rank %" PetscInt_FMT ", not rank %d", b->id, b->id % d->size, d->rank);
  PetscCheck(d->nbody == 0 || d->body[d->nbody - 1]->id < b->id, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "bodies must be added in increasing id order: %" PetscInt_FMT " after %" PetscInt_FMT, b->id, d->body[d->nbody - 1]->id);
  if (d->quasi_static && MbBodyIsMovable(b))
    PetscCall(SetStaticScheme(d, b));
  else if (!b->scheme && MbBodyIsMovable(b)) { /* the kind's default, or the domain's rigid one */
    MbScheme    s;
    const char *name;
    PetscCall(MbBodyGetDefaultScheme(b, &name));
    PetscCall(MbDomainGetScheme(d, name ? name : d->default_scheme, &s));
    PetscCall(MbBodySetScheme(b, s));
  }
  if (d->nbody == d->cap) {
    d->cap = d->cap ? 2 * d->cap : 16;
    PetscCall(PetscRealloc(sizeof(MbBody) * d->cap, &d->body));
  }
  d->body[d->nbody++] = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetBodies(MbDomain d, PetscInt *n, MbBody **bodies)
{
  if (n) *n = d->nbody;
  if (bodies) *bodies = d->body;
  return PETSC_SUCCESS;
}

PetscErrorCode MbDomainFindBody(MbDomain d, PetscInt id, MbBody *b)
{
  PetscInt lo = 0, hi = d->nbody - 1;
  *b = NULL;
  while (lo <= hi) {
    PetscInt mid = (lo + hi) / 2;
    if (d->body[mid]->id == id) {
      *b = d->body[mid];
      break;
    }
    if (d->body[mid]->id < id)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return PETSC_SUCCESS;
}

PetscErrorCode MbDomainAddCallback(MbDomain d, MbLoadCallback fn, void *ctx, PetscErrorCode (*destroy)(void *), PetscInt *ref)
{
  PetscFunctionBegin;
  PetscCall(PetscRealloc(sizeof(*d->cb) * (d->ncb + 1), &d->cb));
  d->cb[d->ncb].fn      = fn;
  d->cb[d->ncb].ctx     = ctx;
  d->cb[d->ncb].destroy = destroy;
  *ref                  = d->ncb++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainAddLoadCallback(MbDomain d, PetscInt id, PetscInt ref)
{
  MbBody b;
  PetscFunctionBegin;
  PetscCheck(ref >= 0 && ref < d->ncb, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "callback %" PetscInt_FMT " is not registered (%" PetscInt_FMT " are)", ref, d->ncb);
  PetscCall(MbDomainFindBody(d, id, &b));
  PetscCheck(b, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body %" PetscInt_FMT " is not on rank %d", id, d->rank);
  PetscCall(MbBodyAddLoadCallbackRef(b, d->cb[ref].fn, d->cb[ref].ctx, ref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainAddMonitor(MbDomain d, PetscReal interval, MbMonitorFn fn, void *ctx, PetscErrorCode (*destroy)(void *))
{
  MbMonitor *m;
  PetscFunctionBegin;
  PetscCheck(interval >= 0 && PetscIsNormalReal(interval + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "monitor interval must be >= 0, got %g", (double)interval);
  PetscCall(PetscRealloc(sizeof(MbMonitor) * (d->nmon + 1), &d->mon));
  m           = &d->mon[d->nmon++];
  m->interval = interval;
  m->next     = d->t;
  m->fn       = fn;
  m->ctx      = ctx;
  m->destroy  = destroy;
  m->due      = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Local energies, in the order of MbEnergy. */
/* This rank's energies; and, when bad is given, the smallest id of its bodies whose
   configuration or velocity holds a NaN or an infinity or whose kinetic energy overflows
   (−1: none), found in the same pass over the bodies. */
static PetscErrorCode LocalEnergy(MbDomain d, MbEnergy *e, PetscInt *bad)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(e, sizeof(*e)));
  if (bad) *bad = -1;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody    b = d->body[i];
    PetscReal ek;
    PetscCall(MbBodyKineticEnergy(b, &ek));
    e->kinetic += ek;
    if (bad) {
      PetscReal s = isfinite(ek) ? 0 : 1;
      for (PetscInt k = 0; k < b->nq; k++) s += b->q[k] * 0; /* NaN·0 and Inf·0 are NaN */
      for (PetscInt k = 0; k < b->nu; k++) s += b->u[k] * 0;
      if (s != 0 && (*bad < 0 || b->id < *bad)) *bad = b->id;
    }
    e->external += d->body[i]->work;
    PetscCall(MbBodyStrainEnergy(d->body[i], &ek));
    e->internal += ek;
  }
  e->internal += d->epot + d->espring; /* and springs (forces.c) */
  e->contact  = d->work_contact;
  e->friction = d->work_friction;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetEnergy(MbDomain d, MbEnergy *e)
{
  MbEnergy l;
  PetscFunctionBegin;
  PetscCall(LocalEnergy(d, &l, NULL));
  PetscCallMPI(MPI_Allreduce(&l, e, 5, MPIU_REAL, MPIU_SUM, d->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetBodyEnergy(MbDomain d, PetscInt id, MbEnergy *e)
{
  MbBody b;
  PetscFunctionBegin;
  PetscCall(PetscMemzero(e, sizeof(*e)));
  PetscCall(MbDomainFindBody(d, id, &b));
  if (b) {
    PetscCall(MbBodyKineticEnergy(b, &e->kinetic));
    PetscCall(MbBodyStrainEnergy(b, &e->internal));
    e->external = b->work;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetHistory(MbDomain d, PetscInt *n, const MbHistory **h)
{
  *n = d->nhist;
  *h = d->hist;
  return PETSC_SUCCESS;
}

static PetscErrorCode PhaseBegin(MbDomain d, MbPhase p, PetscLogDouble *t0)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MB_PhaseEvent[p], 0, 0, 0, 0));
  PetscCall(PetscTime(t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PhaseEnd(MbDomain d, MbPhase p, PetscLogDouble t0)
{
  PetscLogDouble t1;
  PetscFunctionBegin;
  PetscCall(PetscTime(&t1));
  d->phase[p] += t1 - t0;
  PetscCall(PetscLogEventEnd(MB_PhaseEvent[p], 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetMonitorDue(MbDomain d, MbMonitorFn fn, void *ctx, MbMonitorDueFn due)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nmon; i++)
    if (d->mon[i].fn == fn && d->mon[i].ctx == ctx) d->mon[i].due = due;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetMonitorStart(MbDomain d, MbMonitorFn fn, void *ctx, PetscReal t)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nmon; i++)
    if (d->mon[i].fn == fn && d->mon[i].ctx == ctx) d->mon[i].next = t;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetAdapt(MbDomain d, MbAdapt *a)
{
  PetscFunctionBegin;
  if (!d->adapt) PetscCall(MbAdaptCreate(d->comm, &d->adapt));
  *a = d->adapt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Whether a monitor would be called now (see CallMonitors), asking those that keep their
   own clock. */
PetscErrorCode MbDomainMonitorsDue(MbDomain d, PetscBool *due)
{
  PetscFunctionBegin;
  *due = PETSC_FALSE;
  for (PetscInt i = 0; i < d->nmon && !*due; i++) {
    MbMonitor *m = &d->mon[i];
    if (d->t + 1e-9 * d->h < m->next) continue;
    if (m->due)
      PetscCall(m->due(m->ctx, d->t, d->h, due));
    else
      *due = PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Call the monitors that are due; a monitor is due when t has reached its next time
   (within a relative 1e-9 of h, so that round-off in t does not skip a frame). */
PetscErrorCode MbDomainCallMonitors(MbDomain d, PetscBool *stop)
{
  PetscLogDouble t0;
  PetscFunctionBegin;
  *stop = PETSC_FALSE;
  PetscCall(PhaseBegin(d, MB_PHASE_OUTPUT, &t0));
  for (PetscInt i = 0; i < d->nmon; i++) {
    MbMonitor *m = &d->mon[i];
    if (d->t + 1e-9 * d->h >= m->next) {
      PetscBool s = PETSC_FALSE;
      PetscCall(m->fn(d, m->ctx, &s));
      if (s) *stop = PETSC_TRUE;
      if (m->interval > 0)
        while (m->next <= d->t + 1e-9 * d->h) m->next += m->interval;
      else
        m->next = d->t + 0.5 * d->h; /* every step */
    }
  }
  PetscCall(PhaseEnd(d, MB_PHASE_OUTPUT, t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bodies interact when there are two or more, or joints or springs, or a body in contact
   with itself (BODY.selfcontact; the same on every rank). */
static PetscBool Interacts(MbDomain d) { return d->nglobal > 1 || d->cs->njoint > 0 || d->nspring > 0 || d->nself > 0 ? PETSC_TRUE : PETSC_FALSE; }

/* The first step on several ranks partitions the id-mod-size start; every balance_freq
   steps the imbalance is checked and, above the tolerance, METIS repartitions. */
PetscErrorCode MbDomainMaybeBalance(MbDomain d)
{
  PetscLogDouble t0;
  PetscFunctionBegin;
  if (!Interacts(d) || d->size == 1 || d->bal.balance_freq == 0 || (d->bal.nrepart > 0 && d->nsteps % d->bal.balance_freq)) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PhaseBegin(d, MB_PHASE_BALANCE, &t0));
  PetscCall(MbDomainBalance(d, d->bal.nrepart > 0 ? PETSC_FALSE : PETSC_TRUE));
  PetscCall(PhaseEnd(d, MB_PHASE_BALANCE, t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainStep(MbDomain d)
{
  PetscLogDouble t0, now, now_wall;
  MbHistory     *r;
  PetscBool      interact, force;
  PetscFunctionBegin;
  if (!d->run.started) {
    PetscCall(PetscTime(&d->run.run_start));
    d->run.started = PETSC_TRUE;
  }
  interact = Interacts(d);
  if (!d->bal.hold_balance) PetscCall(MbDomainMaybeBalance(d));
  if (interact) {
    PetscBool fresh = PETSC_FALSE;
    for (PetscInt j = 0; j < d->cs->njoint && !fresh; j++)
      if (!d->cs->joint[j].resolved) {
        PetscCall(PhaseBegin(d, MB_PHASE_GHOST, &t0));
        PetscCall(MbDomainGhostRefresh(d)); /* joints resolve against q(t) */
        PetscCall(PhaseEnd(d, MB_PHASE_GHOST, t0));
        fresh = PETSC_TRUE;
      }
    if (!fresh) PetscCall(MbDomainKnowBodies(d));
    PetscCall(MbDomainCheckJoints(d));
  }
  PetscCall(MbDomainForceFamily(d, &force)); /* forces.c: any force scheme (EULER_EXP, CDM, ...)? */
  if (force) {                               /* their whole step is forces.c's; the begin/end below do nothing for them */
    PetscCall(PhaseBegin(d, MB_PHASE_BEGIN, &t0));
    PetscCall(MbDomainStepForces(d));
    PetscCall(PhaseEnd(d, MB_PHASE_BEGIN, t0));
    interact = PETSC_FALSE;
  }
  PetscCall(PhaseBegin(d, MB_PHASE_BEGIN, &t0));
  for (PetscInt i = 0; i < d->nbody; i++)
    if (d->body[i]->scheme) PetscCall(MbSchemeStepBegin(d->body[i]->scheme, d->body[i], d->t, d->h, d->g));
  PetscCall(MbDomainDriveBegin(d));               /* moving obstacles: q(t + h/2), u(t + h) */
  if (!force) PetscCall(MbDomainApplySprings(d)); /* springs: impulses of the step, at mid-step */
  PetscCall(PhaseEnd(d, MB_PHASE_BEGIN, t0));
  if (interact) {
    /* seed 001: detection at the mid-step placement, U = B + W R, reactions into u */
    PetscCall(PhaseBegin(d, MB_PHASE_GHOST, &t0));
    PetscCall(MbDomainGhostRefresh(d));
    PetscCall(PhaseEnd(d, MB_PHASE_GHOST, t0));
    PetscCall(PhaseBegin(d, MB_PHASE_DETECT, &t0));
    PetscCall(MbDomainDetect(d));
    PetscCall(PhaseEnd(d, MB_PHASE_DETECT, t0));
    if (d->cs->npen || d->cs->nfpen || d->cs->njoint) {
      PetscCall(MbDomainApplyForceContacts(d));
      if (!MbConSetContactRows(d->cs) && d->cs->njoint) { /* joints see the velocities with the force contacts' impulses */
        PetscCall(PhaseBegin(d, MB_PHASE_GHOST, &t0));
        PetscCall(MbDomainGhostRefresh(d));
        PetscCall(PhaseEnd(d, MB_PHASE_GHOST, t0));
      }
    }
    PetscCall(PhaseBegin(d, MB_PHASE_LOCDYN, &t0));
    PetscCall(MbLocDynAssemble(d->ld, d->cs, &d->map, d->h));
    PetscCall(PhaseEnd(d, MB_PHASE_LOCDYN, t0));
    PetscCall(PhaseBegin(d, MB_PHASE_SOLVE, &t0));
    PetscCall(MbDomainConstraintSolve(d));
    PetscCall(PhaseEnd(d, MB_PHASE_SOLVE, t0));
  }
  PetscCall(PhaseBegin(d, MB_PHASE_END, &t0));
  for (PetscInt i = 0; i < d->nbody; i++)
    if (d->body[i]->scheme) PetscCall(MbSchemeStepEnd(d->body[i]->scheme, d->body[i], d->t, d->h));
  PetscCall(MbDomainDriveEnd(d));
  if (!force) PetscCall(MbDomainSpringsEndStep(d, d->h));
  PetscCall(PhaseEnd(d, MB_PHASE_END, t0));
  d->nsteps++;
  d->t = d->t + d->h;
  PetscCall(PhaseBegin(d, MB_PHASE_REDUCE, &t0));
  now_wall = t0;
  if (d->nhist == d->hcap) {
    d->hcap = d->hcap ? 2 * d->hcap : 1024;
    PetscCall(PetscRealloc(sizeof(MbHistory) * d->hcap, &d->hist));
  }
  r = &d->hist[d->nhist++];
  PetscCall(PetscMemzero(r, sizeof(*r)));
  r->time = d->t;
  r->step = d->h;
  {
    /* energies and the constraint count in one reduction */
    MbEnergy  l;
    PetscReal loc[9], glob[9];
    PetscInt  bad;
    PetscCall(LocalEnergy(d, &l, &bad));
    PetscCall(PetscArraycpy(loc, (PetscReal *)&l, 5));
    loc[5] = (PetscReal)(d->cs->ncon + d->cs->npen);
    loc[6] = bad >= 0 ? 1 : 0;                                                                                     /* in the same reduction: no collective more per step */
    if (d->nsteps == d->run.sigstep && d->rank == 0) (void)raise(SIGTERM);                                         /* -mb_signal_at_step */
    loc[7] = MbSignalPending() ? 1 : 0;                                                                            /* a signal (checkpoint.c) */
    loc[8] = d->rank == 0 && d->run.ckpt_wall > 0 && now_wall - d->run.ckpt_last_wall >= d->run.ckpt_wall ? 1 : 0; /* rank 0's clock */
    PetscCallMPI(MPI_Allreduce(loc, glob, 9, MPIU_REAL, MPIU_SUM, d->comm));
    d->run.sig          = glob[7] > 0 ? 1 : 0;
    d->run.ckpt_walldue = glob[8] > 0 ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(MbDomainBlowupCheck(d, glob[6] > 0 ? PETSC_TRUE : PETSC_FALSE, bad, (const MbEnergy *)glob)); /* blowup.c: every rank */
    PetscCall(PetscArraycpy((PetscReal *)&r->energy, glob, 5));
    r->contacts = (PetscInt)(glob[5] + 0.5);
  }
  r->iterations = d->solver_iterations;
  r->error      = d->solver_error;
  PetscCall(PetscTime(&now));
  r->walltime = now - d->run.run_start;
  PetscCall(PhaseEnd(d, MB_PHASE_REDUCE, t0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void FormatSeconds(double s, char buf[32])
{
  long n = (long)(s + 0.5);
  snprintf(buf, 32, "%ld:%02ld:%02ld", n / 3600, (n / 60) % 60, n % 60);
}

/* The step against the smallest critical step of the DEF_EXP bodies (forces.c), at the first
   RUN and at every later one whose step differs from the one checked. As Solfec-1.0 does
   (dom.c: step = min(step, ½ h_crit) over the bodies at each RUN), a step above half of it
   is lowered to that half — with a line naming the body and both steps, so that a Solfec
   deck runs unchanged and nothing happens unsaid. With -mb_keep_step, or under a
   step-size controller (TIME_ADAPT chooses the steps), the step stays and one above the
   critical step is a warning. Collective. */
static PetscErrorCode CheckCriticalStep(MbDomain d)
{
  PetscReal hc;
  PetscInt  id;
  PetscFunctionBegin;
  PetscCall(MbDomainBodyCriticalStep(d, &hc, &id));
  d->hcrit      = hc;
  d->hcrit_body = id;
  if (id >= 0 && !d->keep_step && !d->adapt && d->h > 0.5 * hc) {
    PetscCall(
        PetscPrintf(d->comm, "moreau: the step %g is above half the critical step %g of body %" PetscInt_FMT " (DEF_EXP): lowered to %g, as Solfec-1.0 does (-mb_keep_step keeps the deck's step)\n", (double)d->h, (double)hc, id, (double)(0.5 * hc)));
    d->h = 0.5 * hc;
  } else if (id >= 0 && d->h > hc)
    PetscCall(PetscPrintf(d->comm, "moreau: WARNING: the step %g is above the critical step %g of body %" PetscInt_FMT " (DEF_EXP): the run will blow up; take a step below it, or DEF_LIM for that body\n", (double)d->h, (double)hc, id));
  d->hcrit_h = d->h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainRun(MbDomain d, PetscReal duration)
{
  PetscReal      t_end = d->t + duration;
  PetscBool      stop, skip, resumed;
  PetscLogDouble start, last, now;
  PetscInt       steps0;
  PetscFunctionBegin;
  PetscCheck(duration >= 0 && PetscIsNormalReal(duration + 1), d->comm, PETSC_ERR_ARG_OUTOFRANGE, "run duration must be >= 0, got %g", (double)duration);
  d->run.interrupted = 0;
  /* a restart: the RUN calls before its checkpoint's do nothing, that one resumes in it */
  PetscCall(MbDomainRunResume(d, duration, &skip, &resumed, &t_end));
  if (skip) PetscFunctionReturn(PETSC_SUCCESS);
  if (!resumed) d->run.run_end = t_end;
  d->ebase = PETSC_TRUE; /* blowup.c: the deck may have changed the state since the last RUN */
  steps0   = d->nsteps;
  if (!d->run.started || d->h != d->hcrit_h) PetscCall(CheckCriticalStep(d));
  PetscCall(MbDomainCrackPrepare(d));
  PetscCall(MbSignalInstall());
  if (d->adapt) { /* TIME_ADAPT: the controller chooses the steps (adaptive.c) */
    PetscErrorCode e = MbDomainRunAdaptive(d, t_end, resumed);
    PetscCall(MbSignalRestore());
    PetscCall(e);
    if (d->run.flush_fn) PetscCall(d->run.flush_fn(d, d->run.flush_ctx)); /* the RUN's frames readable */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscTime(&start));
  if (!d->run.started) {
    d->run.run_start = start;
    d->run.started   = PETSC_TRUE;
  }
  if (d->run.nrun == 1 || resumed) d->run.ckpt_last_wall = start;
  last = start;
  PetscCall(MbDomainCallMonitors(d, &stop));
  /* Solfec-1.0's rule: steps are taken while t < t_end, so a duration that is not a
     multiple of h ends on the step past it (3333.3 steps make 3334); t within 1e-9 h of
     t_end counts as there, so a multiple of h takes its n steps whatever the round-off */
  while (!stop && d->t < t_end - 1e-9 * d->h) {
    PetscCall(MbDomainStep(d));
    PetscCall(MbDomainCallMonitors(d, &stop));
    PetscCall(MbDomainCrackCheck(d)); /* after the monitors: the frame of the cracking state is written */
    PetscCall(MbDomainMaybeCheckpoint(d, PETSC_FALSE, &stop));
    PetscCall(PetscTime(&now));
    if (d->verbose && d->rank == 0 && now - last >= d->progress_dt) {
      double rate = (d->nsteps - steps0) / (now - start), frac = duration > 0 ? 1.0 - (t_end - d->t) / duration : 1.0, eta = rate > 0 ? (t_end - d->t) / d->h / rate : 0;
      char   buf[32];
      FormatSeconds(eta, buf);
      PetscCall(MbDomainProgressPrint(d, frac, rate, buf));
      last = now;
    }
  }
  if (!d->run.interrupted) PetscCall(MbDomainMaybeCheckpoint(d, PETSC_TRUE, &stop));
  PetscCall(MbSignalRestore());
  if (d->run.flush_fn) PetscCall(d->run.flush_fn(d, d->run.flush_ctx)); /* the RUN's frames readable */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGetPhaseTimes(MbDomain d, PetscLogDouble t[MB_PHASE_COUNT])
{
  PetscFunctionBegin;
  PetscCallMPI(MPI_Allreduce(d->phase, t, MB_PHASE_COUNT, MPI_DOUBLE, MPI_MAX, d->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSummary(MbDomain d)
{
  PetscLogDouble t[MB_PHASE_COUNT], now, total = 0;
  PetscInt       nb = d->nbody, nbg;
  MbEnergy       e;
  PetscFunctionBegin;
  PetscCall(MbDomainGetPhaseTimes(d, t));
  PetscCall(MbDomainGetEnergy(d, &e));
  PetscCallMPI(MPI_Allreduce(&nb, &nbg, 1, MPIU_INT, MPI_SUM, d->comm));
  PetscCall(PetscTime(&now));
  if (d->run.started) total = now - d->run.run_start;
  PetscCall(PetscPrintf(d->comm, "moreau: %" PetscInt_FMT " steps to t = %g on %d rank%s, %" PetscInt_FMT " bodies, wall time %.3f s\n", d->nsteps, (double)d->t, d->size, d->size > 1 ? "s" : "", nbg, total));
  PetscCall(PetscPrintf(d->comm, "moreau: energy kinetic %.9g, external work %.9g, contact work %.9g, friction dissipation %.9g\n", (double)e.kinetic, (double)e.external, (double)e.contact, (double)e.friction));
  {
    PetscInt l[2] = {d->cs->ncon + d->cs->npen, d->cs->ncontacts}, g[2];
    PetscCallMPI(MPI_Allreduce(l, g, 2, MPIU_INT, MPI_SUM, d->comm));
    if (g[0] || d->solver_failures) {
      const char *type;
      PetscCall(MbSolverGetType(d->solver, &type));
      PetscCall(PetscPrintf(d->comm, "moreau: %" PetscInt_FMT " constraints at the end (%" PetscInt_FMT " contacts); solver %s, %" PetscInt_FMT " steps missed its tolerance\n", g[0], g[1], type, d->solver_failures));
    }
    PetscCall(MbSolverViewFromOptions(d->solver));
  }
  if (d->size > 1)
    PetscCall(PetscPrintf(
        d->comm, "moreau: load balance: %s, %" PetscInt_FMT " partition%s, %" PetscInt_FMT " bodies migrated, METIS edge cut %" PetscInt_FMT " at the last partition, imbalance %.3f at the last check (tolerance %g, every %" PetscInt_FMT " steps)\n",
        d->bal.balance_metis ? "metis" : "none", d->bal.nrepart, d->bal.nrepart == 1 ? "" : "s", d->bal.nmigrated, d->bal.edgecut, (double)d->bal.imbalance, (double)d->bal.imbalance_tol, d->bal.balance_freq));
  {
    /* communication: the ghost phase and the Gauss–Seidel scatters; memory: peak RSS */
    PetscLogDouble sc, lc[2], gmax[2];
    struct rusage  ru;
    double         mem[2], mg[2];
    PetscCall(MbSolverGetCommTime(d->solver, &sc));
    lc[0] = d->phase[MB_PHASE_GHOST];
    lc[1] = sc;
    PetscCallMPI(MPI_Allreduce(lc, gmax, 2, MPI_DOUBLE, MPI_MAX, d->comm));
    getrusage(RUSAGE_SELF, &ru);
    mem[0] = (double)ru.ru_maxrss / 1024.0; /* kB on Linux */
    mem[1] = -mem[0];
    PetscCallMPI(MPI_Allreduce(mem, mg, 2, MPI_DOUBLE, MPI_MAX, d->comm));
    PetscCall(PetscPrintf(d->comm, "moreau: communication (max over ranks): ghost refresh %.3f s, solver scatters %.3f s; peak memory per rank %.1f MB (min %.1f MB)\n", gmax[0], gmax[1], mg[0], -mg[1]));
    { /* the data alone (bodies, constraints, W, solvers: all PetscMalloc'd), without the
         interpreter, the libraries and MPI that every rank carries; PETSc tracks it only
         when asked (-malloc_view, -malloc_debug), else the maximum reads 0 */
      PetscLogDouble pm;
      PetscCall(PetscMallocGetMaximumUsage(&pm));
      mem[0] = pm / 1048576.0;
      mem[1] = -mem[0];
      PetscCallMPI(MPI_Allreduce(mem, mg, 2, MPI_DOUBLE, MPI_MAX, d->comm));
      if (mg[0] > 0) PetscCall(PetscPrintf(d->comm, "moreau: data memory (PetscMalloc()ed, peak) per rank %.1f MB (min %.1f MB)\n", mg[0], -mg[1]));
    }
    if (d->size > 1) { /* bytes each rank sent per step for its ghosts, mean over ranks */
      PetscLogDouble gb[2] = {d->gh.gkey_bytes, d->gh.gbody_bytes}, gs[2];
      PetscCallMPI(MPI_Allreduce(gb, gs, 2, MPI_DOUBLE, MPI_SUM, d->comm));
      PetscCall(PetscPrintf(d->comm, "moreau: ghost traffic per rank and step: cell keys %.1f kB, bodies %.1f kB; the ghost set rebuilt in %" PetscInt_FMT " of %" PetscInt_FMT " refreshes (skin %g)\n",
                            gs[0] / (1024.0 * d->size * PetscMax(d->nsteps, 1)), gs[1] / (1024.0 * d->size * PetscMax(d->nsteps, 1)), d->gh.nrebuild, d->gh.nrefresh, (double)d->gh.gskin));
    }
  }
  if (d->adapt) {
    const char *type;
    PetscReal   hmin = PETSC_MAX_REAL, hmax = 0;
    PetscInt    rej;
    for (PetscInt i = 0; i < d->nhist; i++) {
      hmin = PetscMin(hmin, d->hist[i].step);
      hmax = PetscMax(hmax, d->hist[i].step);
    }
    PetscCall(MbAdaptGetType(d->adapt, &type));
    PetscCall(MbAdaptGetStats(d->adapt, &rej, NULL));
    PetscCall(PetscPrintf(d->comm, "moreau: step-size controller %s: steps from %g to %g; %" PetscInt_FMT " intervals rejected, %" PetscInt_FMT " steps discarded\n", type, (double)(d->nhist ? hmin : 0), (double)hmax, rej, d->discarded));
  }
  if (d->hcrit_body >= 0) PetscCall(PetscPrintf(d->comm, "moreau: critical step of the DEF_EXP bodies %g (body %" PetscInt_FMT ") at the start, step %g\n", (double)d->hcrit, d->hcrit_body, (double)d->h));
  PetscCall(PetscPrintf(d->comm, "moreau: time per phase (max over ranks):"));
  for (int p = 0; p < MB_PHASE_COUNT; p++) PetscCall(PetscPrintf(d->comm, " %s %.3f s%s", MbPhaseNames[p] + 2, t[p], p + 1 < MB_PHASE_COUNT ? "," : "\n"));
  /* one reduction per registered scheme name: that list is the same on every rank, while
     the schemes a rank holds depend on which bodies it owns */
  const char **names;
  int          nnames;
  PetscCall(MbSchemeGetRegistered(&names, &nnames));
  for (int k = 0; k < nnames; k++) {
    PetscInt l[2] = {0, 0}, g[2];
    for (PetscInt i = 0; i < d->nscheme; i++) {
      const char *type;
      PetscBool   same;
      PetscCall(MbSchemeGetType(d->scheme[i], &type));
      PetscCall(PetscStrcmp(type, names[k], &same));
      if (same) PetscCall(MbSchemeGetStats(d->scheme[i], &l[0], &l[1]));
    }
    PetscCallMPI(MPI_Allreduce(l, g, 2, MPIU_INT, MPI_SUM, d->comm));
    if (g[0] || g[1]) PetscCall(PetscPrintf(d->comm, "moreau: %s Newton iterations %" PetscInt_FMT ", non-converged steps %" PetscInt_FMT "\n", names[k], g[0], g[1]));
  }
  PetscCall(PetscFree(names));
  PetscFunctionReturn(PETSC_SUCCESS);
}
