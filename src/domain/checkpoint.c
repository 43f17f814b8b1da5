/* Checkpoints and restart (README, "Long runs"; doc/output.md, "Restart data"). A
   checkpoint holds what state.c saves for a step rejection — all that a step changes and
   later steps read — made global: per body its record (below), the constraints of the last
   step (warm starts), the joints' and springs' resolved points and last reactions, the
   monitors' next times, the step-size controller's state, the time, step and counters, the
   owner of every body (a restart on as many ranks puts each body where it was, so the run
   goes on bit for bit), and where the deck was: the RUN call and its end.

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

/* The global record: a head of G_N numbers, then the monitors' next times (nmon), per
   joint X (6), length, resolved, R (3) (J_N), per spring 12 (MbDomainSpringsTransfer),
   and the owner of every body (nglobal). */
enum {
  G_LAYOUT,
  G_T,
  G_H,
  G_HNEXT,
  G_NSTEPS,
  G_HPREV,
  G_FASCALE,
  G_FAILURES,
  G_DISCARDED,
  G_NREPART,
  G_NGLOBAL,
  G_SIZE,
  G_NMON,
  G_NJOINT,
  G_NSPRING,
  G_RUN,
  G_RUN_DONE,
  G_RUN_END,
  G_RUN_DURATION,
  G_CKPT_NEXT_T,
  /* the balance's memory: the imbalance METIS's last partition gave (a repartition is
     skipped while the imbalance stays near it), the last measured one, the edge cut and
     the bodies moved so far */
  G_IMB_PART,
  G_IMBALANCE,
  G_EDGECUT,
  G_NMIGRATED,
  G_N
};
#define J_N 11

static PetscErrorCode HasAprev(MbDomain d, PetscBool *has)
{
  PetscInt n = 0;
  PetscFunctionBegin;
  *has = PETSC_FALSE;
  if (!d->adapt || !d->aprev) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBodyView v;
    PetscCall(MbBodyGetView(d->body[i], &v));
    if (v.scheme) n += v.nu;
  }
  *has = n == d->nacc ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Per body its record (MbBodyRecordWrite, src/body/stepstate.c) with the adaptive runs'
   last acceleration of the body as the caller's numbers (d->aprev: nu of a body with a
   scheme, none without one or when the run keeps none, ap false): its length. */
static PetscErrorCode BodyRecordSize(MbBody b, PetscBool ap, PetscInt *len)
{
  MbBodyView v;
  PetscFunctionBegin;
  PetscCall(MbBodyGetView(b, &v));
  PetscCall(MbBodyRecordSize(b, ap && v.scheme ? v.nu : 0, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainCheckpointGet(MbDomain d, MbCheckpoint *c)
{
  PetscBool  ap;
  PetscInt   k = 0, ka = 0, ng;
  PetscReal *g, *gsum;
  PetscFunctionBegin;
  PetscCall(HasAprev(d, &ap));
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscCall(MbDomainKnowBodies(d));
  /* bodies */
  c->nbody = d->nbody;
  for (PetscInt i = 0; i < d->nbody; i++) {
    PetscInt len;
    PetscCall(BodyRecordSize(d->body[i], ap, &len));
    c->nx += len;
  }
  PetscCall(PetscMalloc3(d->nbody + 1, &c->id, d->nbody + 1, &c->len, c->nx + 1, &c->x));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBodyView v;
    PetscCall(MbBodyGetView(d->body[i], &v));
    c->id[i] = v.id;
    PetscCall(BodyRecordSize(d->body[i], ap, &c->len[i]));
    PetscCall(MbBodyRecordWrite(d->body[i], ap && v.scheme ? v.nu : 0, ap ? d->aprev + ka : NULL, c->x + k));
    if (v.scheme) ka += v.nu;
    k += c->len[i];
  }
  /* constraints of the last step */
  c->ncon    = d->cs->ncon;
  c->consize = sizeof(MbCon);
  PetscCall(PetscMalloc(sizeof(MbCon) * (size_t)(d->cs->ncon + 1), &c->con));
  if (d->cs->ncon) PetscCall(PetscArraycpy((MbCon *)c->con, d->cs->con, d->cs->ncon));
  c->acc[0] = d->work_contact;
  c->acc[1] = d->work_friction;
  c->acc[2] = d->espring;
  c->acc[3] = d->epot;
  /* the global record: rank 0's copy of what every rank holds, the accounting rank's of
     joints and springs, summed */
  ng = G_N + d->nmon + J_N * d->cs->njoint + 12 * d->nspring + d->nglobal;
  PetscCall(PetscCalloc2(ng, &g, ng, &gsum));
  if (d->rank == 0) {
    g[G_LAYOUT]       = 1;
    g[G_T]            = d->t;
    g[G_H]            = d->h;
    g[G_HNEXT]        = d->hnext > 0 ? d->hnext : d->h;
    g[G_NSTEPS]       = (PetscReal)d->nsteps;
    g[G_HPREV]        = d->hprev;
    g[G_FASCALE]      = d->imp.fascale;
    g[G_FAILURES]     = (PetscReal)d->solver_failures;
    g[G_DISCARDED]    = (PetscReal)d->discarded;
    g[G_NREPART]      = (PetscReal)d->bal.nrepart;
    g[G_NGLOBAL]      = (PetscReal)d->nglobal;
    g[G_SIZE]         = (PetscReal)d->size;
    g[G_NMON]         = (PetscReal)d->nmon;
    g[G_NJOINT]       = (PetscReal)d->cs->njoint;
    g[G_NSPRING]      = (PetscReal)d->nspring;
    g[G_RUN]          = (PetscReal)(d->run.nrun - 1);
    g[G_RUN_DONE]     = d->run.run_done ? 1 : 0;
    g[G_RUN_END]      = d->run.run_end;
    g[G_RUN_DURATION] = d->run.run_duration;
    g[G_CKPT_NEXT_T]  = d->run.ckpt_next_t;
    g[G_IMB_PART]     = d->bal.imbalance_part;
    g[G_IMBALANCE]    = d->bal.imbalance;
    g[G_EDGECUT]      = (PetscReal)d->bal.edgecut;
    g[G_NMIGRATED]    = (PetscReal)d->bal.nmigrated;
    for (PetscInt i = 0; i < d->nmon; i++) g[G_N + i] = d->mon[i].next;
    for (PetscInt id = 0; id < d->nglobal; id++) g[ng - d->nglobal + id] = (PetscReal)d->map.owner[id];
  }
  for (PetscInt j = 0; j < d->cs->njoint; j++) {
    MbJoint    *jt = &d->cs->joint[j];
    PetscReal  *r  = g + G_N + d->nmon + J_N * j;
    PetscMPIInt owner;
    PetscCall(MbDomainOwnerRank(d, MbConOwnerBody(d, jt->body[0], jt->body[1]), &owner));
    if (owner != d->rank) continue; /* its row's owner holds the last reaction */
    PetscCall(PetscArraycpy(r, &jt->X[0][0], 6));
    r[6] = jt->length;
    r[7] = jt->resolved ? 1 : 0;
    PetscCall(PetscArraycpy(r + 8, jt->R, 3));
  }
  PetscCall(MbDomainSpringsTransfer(d, g + G_N + d->nmon + J_N * d->cs->njoint, PETSC_TRUE));
  PetscCall(MPIU_Allreduce(g, gsum, ng, MPIU_REAL, MPIU_SUM, d->comm));
  PetscCall(PetscMalloc1(ng, &c->glob));
  PetscCall(PetscArraycpy(c->glob, gsum, ng));
  c->nglob = ng;
  PetscCall(PetscFree2(g, gsum));
  if (d->adapt) PetscCall(MbAdaptGetState(d->adapt, &c->nadapt, &c->adapt));
  c->run      = d->run.nrun - 1;
  c->run_done = d->run.run_done;
  c->run_end  = d->run.run_end;
  c->t        = d->t;
  c->nsteps   = d->nsteps;
  c->nranks   = d->size;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainCheckpointFree(MbCheckpoint *c)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(c->id, c->len, c->x));
  PetscCall(PetscFree(c->con));
  PetscCall(PetscFree(c->racc));
  PetscCall(PetscFree(c->glob));
  PetscCall(PetscFree(c->adapt));
  PetscCall(PetscMemzero(c, sizeof(*c)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainSetResume(MbDomain d, MbCheckpoint *c)
{
  PetscFunctionBegin;
  PetscCheck(c->nglob >= G_N && c->glob[G_LAYOUT] == 1, d->comm, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint's global record has %" PetscInt_FMT " numbers and layout %g; moreau reads layout 1", c->nglob, c->nglob ? (double)c->glob[0] : 0.0);
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

/* Restore's check that the deck made the same bodies, joints, springs, monitors and
   step-size controller as the deck that wrote checkpoint c. Collective. */
static PetscErrorCode RestoreCheckCounts(MbDomain d, const MbCheckpoint *c)
{
  const PetscReal *g       = c->glob;
  PetscInt         nglobal = (PetscInt)g[G_NGLOBAL], nmon = (PetscInt)g[G_NMON], njoint = (PetscInt)g[G_NJOINT], nspring = (PetscInt)g[G_NSPRING];
  PetscFunctionBegin;
  PetscCheck(nglobal == d->nglobal && njoint == d->cs->njoint && nspring == d->nspring, d->comm, PETSC_ERR_ARG_WRONG,
             "restart: the deck made %" PetscInt_FMT " bodies, %" PetscInt_FMT " joints and %" PetscInt_FMT " springs before RUN call %" PetscInt_FMT "; the checkpoint has %" PetscInt_FMT ", %" PetscInt_FMT " and %" PetscInt_FMT
             ": restart with the deck that wrote it",
             d->nglobal, d->cs->njoint, d->nspring, c->run + 1, nglobal, njoint, nspring);
  PetscCheck(nmon == d->nmon, d->comm, PETSC_ERR_ARG_WRONG, "restart: the deck set up %" PetscInt_FMT " monitors (output, CALLBACK) before RUN call %" PetscInt_FMT "; the checkpoint has %" PetscInt_FMT ": restart with the deck that wrote it",
             d->nmon, c->run + 1, nmon);
  PetscCheck(c->nglob == G_N + nmon + J_N * njoint + 12 * nspring + nglobal, d->comm, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint's global record has %" PetscInt_FMT " numbers; %" PetscInt_FMT " expected", c->nglob,
             G_N + nmon + J_N * njoint + 12 * nspring + nglobal);
  PetscCheck((c->nadapt > 0) == (d->adapt != NULL), d->comm, PETSC_ERR_ARG_WRONG, "restart: the checkpoint was written %s a step-size controller (TIME_ADAPT) and the deck runs %s one", c->nadapt ? "with" : "without", d->adapt ? "with" : "without");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Restore's bodies back to the ranks that owned them when c was written (with as many
   ranks), and the partition's statistics; another rank count partitions anew. Collective. */
static PetscErrorCode RestoreOwners(MbDomain d, const MbCheckpoint *c)
{
  const PetscReal *g       = c->glob;
  PetscInt         nglobal = (PetscInt)g[G_NGLOBAL];
  PetscBool        same;
  PetscFunctionBegin;
  same = (PetscInt)g[G_SIZE] == d->size ? PETSC_TRUE : PETSC_FALSE;
  if (same && d->size > 1) {
    PetscMPIInt *newowner;
    PetscBool    moved = PETSC_FALSE;
    PetscCall(PetscMalloc1(nglobal + 1, &newowner));
    for (PetscInt id = 0; id < nglobal; id++) {
      newowner[id] = (PetscMPIInt)g[c->nglob - nglobal + id];
      if (newowner[id] != d->map.owner[id]) moved = PETSC_TRUE;
    }
    if (moved) PetscCall(MbDomainMigrate(d, newowner));
    PetscCall(PetscFree(newowner));
  }
  d->bal.nrepart = same ? (PetscInt)g[G_NREPART] : 0; /* another rank count: partition anew */
  if (same) {
    d->bal.imbalance_part = g[G_IMB_PART];
    d->bal.imbalance      = g[G_IMBALANCE];
    d->bal.edgecut        = (PetscInt)g[G_EDGECUT];
    d->bal.nmigrated      = (PetscInt)g[G_NMIGRATED];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Restore's body records, found by id, into this rank's bodies: q, u, work, acceleration
   history, the controller's previous accelerations, the kind's own state. */
static PetscErrorCode RestoreBodies(MbDomain d, const MbCheckpoint *c)
{
  PetscInt nglobal = (PetscInt)c->glob[G_NGLOBAL], *rec, *off, ka = 0;
  PetscFunctionBegin;
  PetscCall(PetscMalloc2(nglobal + 1, &rec, c->nbody + 1, &off));
  for (PetscInt id = 0; id < nglobal; id++) rec[id] = -1;
  for (PetscInt i = 0, k = 0; i < c->nbody; i++) {
    PetscCheck(c->id[i] >= 0 && c->id[i] < nglobal, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint has a record of body %" PetscInt_FMT "; its deck made %" PetscInt_FMT " bodies", c->id[i], nglobal);
    rec[c->id[i]] = i;
    off[i]        = k;
    k += c->len[i];
  }
  if (d->adapt) PetscCall(MbDomainAdaptBuffers(d));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBodyView       v;
    const PetscReal *ap;
    PetscInt         nap;
    PetscCall(MbBodyGetView(d->body[i], &v));
    PetscCheck(rec[v.id] >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint has no record of body %" PetscInt_FMT, v.id);
    PetscCall(MbBodyRecordRead(d->body[i], c->x + off[rec[v.id]], c->len[rec[v.id]], &nap, &ap));
    if (v.scheme && d->adapt) {
      if (nap == v.nu) PetscCall(PetscArraycpy(d->aprev + ka, ap, nap));
      ka += v.nu;
    }
  }
  PetscCall(PetscFree2(rec, off));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Restore's clock, step sizes, counters and this rank's energy accumulators. */
static void RestoreClock(MbDomain d, const MbCheckpoint *c)
{
  const PetscReal *g = c->glob;
  d->t               = g[G_T];
  d->h               = g[G_H];
  d->hnext           = g[G_HNEXT];
  d->nsteps          = (PetscInt)g[G_NSTEPS];
  d->hprev           = g[G_HPREV];
  d->imp.fascale     = g[G_FASCALE];
  d->solver_failures = (PetscInt)g[G_FAILURES];
  d->discarded       = (PetscInt)g[G_DISCARDED];
  d->run.ckpt_next_t = g[G_CKPT_NEXT_T];
  if (c->run_done) d->h = d->hnext; /* where the RUN left it: the controller's next step */
  d->run.ckpt_last_step = d->nsteps;
  if (c->nranks == d->size && c->racc) {
    d->work_contact  = c->racc[4 * d->rank + 0];
    d->work_friction = c->racc[4 * d->rank + 1];
    d->espring       = c->racc[4 * d->rank + 2];
    d->epot          = c->racc[4 * d->rank + 3];
  } else { /* the sums on rank 0 */
    d->work_contact = d->work_friction = d->espring = d->epot = 0;
    for (PetscInt r = 0; d->rank == 0 && c->racc && r < c->nranks; r++) {
      d->work_contact += c->racc[4 * r + 0];
      d->work_friction += c->racc[4 * r + 1];
      d->espring += c->racc[4 * r + 2];
      d->epot += c->racc[4 * r + 3];
    }
  }
}

/* Restore's monitor times, joints and springs. */
static PetscErrorCode RestoreInteractions(MbDomain d, const MbCheckpoint *c)
{
  const PetscReal *g    = c->glob;
  PetscInt         nmon = (PetscInt)g[G_NMON], njoint = (PetscInt)g[G_NJOINT];
  PetscFunctionBegin;
  for (PetscInt i = 0; i < nmon; i++) d->mon[i].next = g[G_N + i];
  for (PetscInt j = 0; j < njoint; j++) {
    MbJoint         *jt = &d->cs->joint[j];
    const PetscReal *r  = g + G_N + nmon + J_N * j;
    PetscCall(PetscArraycpy(&jt->X[0][0], r, 6));
    jt->length   = r[6];
    jt->resolved = r[7] > 0.5 ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(PetscArraycpy(jt->R, r + 8, 3));
  }
  PetscCall(MbDomainSpringsTransfer(d, (PetscReal *)g + G_N + nmon + J_N * njoint, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Restore's constraints of the last step: each rank keeps those whose owner it now is. */
static PetscErrorCode RestoreConstraints(MbDomain d, const MbCheckpoint *c)
{
  PetscFunctionBegin;
  PetscCheck(c->ncon == 0 || c->consize == sizeof(MbCon), d->comm, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint's constraint records have %zu bytes; this build's have %zu: restart with the build that wrote it", c->consize, sizeof(MbCon));
  d->cs->ncon = 0;
  if (c->ncon) {
    const MbCon *all = (const MbCon *)c->con;
    PetscCall(PetscFree(d->cs->con));
    PetscCall(PetscMalloc1(c->ncon, &d->cs->con));
    for (PetscInt k = 0; k < c->ncon; k++) {
      PetscMPIInt owner;
      PetscCall(MbDomainOwnerRank(d, MbConOwnerBody(d, all[k].body[0], all[k].body[1]), &owner));
      if (owner != d->rank) continue;
      d->cs->con[d->cs->ncon]       = all[k];
      d->cs->con[d->cs->ncon].owner = d->rank;
      d->cs->ncon++;
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
  PetscCall(RestoreCheckCounts(d, c));
  PetscCall(RestoreOwners(d, c));
  PetscCall(RestoreBodies(d, c));
  RestoreClock(d, c);
  PetscCall(RestoreInteractions(d, c));
  PetscCall(RestoreConstraints(d, c));
  if (c->nadapt) PetscCall(MbAdaptSetState(d->adapt, c->nadapt, c->adapt));
  if (!d->run.started) {
    PetscCall(PetscTime(&d->run.run_start));
    d->run.started = PETSC_TRUE;
  }
  d->run.ckpt_last_wall = d->run.run_start;
  if (d->nglobal > 1) PetscCall(MbDomainGhostRefresh(d)); /* copies of the restored owners */
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
  PetscCheck(duration == c->glob[G_RUN_DURATION], d->comm, PETSC_ERR_ARG_WRONG, "restart: RUN call %" PetscInt_FMT " asks for a duration of %.10g; in the run that wrote the checkpoint it asked for %.10g: restart with the deck that wrote it", k + 1,
             (double)duration, (double)c->glob[G_RUN_DURATION]);
  PetscCall(Restore(d, c));
  *t_end         = c->run_end;
  d->run.run_end = c->run_end;
  *skip          = c->run_done;
  *resumed       = PETSC_TRUE;
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
    PetscCall(PetscPrintf(d->comm, "moreau: stopped by %s at t = %.9g, step %" PetscInt_FMT "%s\n", d->rank == 0 && mine ? MbSignalName(mine) : "a signal", (double)d->t, d->nsteps,
                          d->run.ckpt_fn ? ", after writing a checkpoint: continue with moreau -mb_restart" : " (no output, so no checkpoint)"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
