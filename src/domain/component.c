/* The parts of a domain's state (domainimpl.h, MbPart): everything a step changes and later
   steps read, and the run's bookkeeping a restart needs, as one list. Step rejection
   (state.c) saves and restores the parts marked `step`; a checkpoint (checkpoint.c) saves
   them all and a restart restores them all, in this order: the deck's layout is checked
   first, the bodies go back to their ranks before their records are read, and the ghosts
   are refreshed from the restored owners last. A part added here is saved by both.

   Seed 004, section 3: "codes that implement the strategy must be able to store the entire
   dynamic system configuration in at least two instants". Scratch that every step rewrites
   before reading (q0, u0, fext, W, B, the force contacts) is no part. */
#include "domainimpl.h"
#include "../body/bodyview.h"

/* Fixed-size numbers in and out of a part's buffer: n reals then m integers. */
static PetscErrorCode PutReals(MbBuf *b, PetscInt n, const PetscReal x[]) { return MbBufPut(b, x, (size_t)n * sizeof(PetscReal)); }
static PetscErrorCode PutInts(MbBuf *b, PetscInt n, const PetscInt64 x[]) { return MbBufPut(b, x, (size_t)n * sizeof(PetscInt64)); }
static PetscErrorCode PutAll(MbBuf *b, PetscInt n, const PetscReal x[], PetscInt m, const PetscInt64 k[])
{
  PetscFunctionBegin;
  PetscCall(PutReals(b, n, x));
  PetscCall(PutInts(b, m, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Read exactly the buffer: n reals then m integers (a part of fixed length). */
static PetscErrorCode GetAll(const char *part, MbBuf *b, PetscInt n, PetscReal x[], PetscInt m, PetscInt64 k[])
{
  size_t pos = 0, len = (size_t)n * sizeof(PetscReal) + (size_t)m * sizeof(PetscInt64);
  PetscFunctionBegin;
  PetscCheck(b->n == len, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the saved state's part '%s' has %zu bytes; %zu expected: was it written by another build?", part, b->n, len);
  if (n) PetscCall(MbBufGet(b, &pos, x, (size_t)n * sizeof(PetscReal))); /* (memcpy takes no NULL, even for 0 bytes) */
  if (m) PetscCall(MbBufGet(b, &pos, k, (size_t)m * sizeof(PetscInt64)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- layout: the deck made the same bodies, joints, springs, monitors and controller */

enum { L_NGLOBAL, L_NJOINT, L_NSPRING, L_NMON, L_ADAPT, L_N };

static PetscErrorCode SaveLayout(MbDomain d, MbBuf *b)
{
  const PetscInt64 k[L_N] = {d->nglobal, d->cs->njoint, d->nspring, d->nmon, d->adapt ? 1 : 0};
  return PutAll(b, 0, NULL, L_N, k);
}

static PetscErrorCode RestoreLayout(MbDomain d, MbBuf *b, PetscInt nrec)
{
  PetscInt64 k[L_N];
  PetscFunctionBegin;
  (void)nrec;
  PetscCall(GetAll("layout", b, 0, NULL, L_N, k));
  PetscCheck(k[L_NGLOBAL] == d->nglobal && k[L_NJOINT] == d->cs->njoint && k[L_NSPRING] == d->nspring, d->comm, PETSC_ERR_ARG_WRONG,
             "restart: the deck made %" PetscInt_FMT " bodies, %" PetscInt_FMT " joints and %" PetscInt_FMT " springs before RUN call %" PetscInt_FMT "; the checkpoint has %lld, %lld and %lld: restart with the deck that wrote it", d->nglobal,
             d->cs->njoint, d->nspring, d->run.nrun, (long long)k[L_NGLOBAL], (long long)k[L_NJOINT], (long long)k[L_NSPRING]);
  PetscCheck(k[L_NMON] == d->nmon, d->comm, PETSC_ERR_ARG_WRONG, "restart: the deck set up %" PetscInt_FMT " monitors (output, CALLBACK) before RUN call %" PetscInt_FMT "; the checkpoint has %lld: restart with the deck that wrote it", d->nmon,
             d->run.nrun, (long long)k[L_NMON]);
  PetscCheck((k[L_ADAPT] != 0) == (d->adapt != NULL), d->comm, PETSC_ERR_ARG_WRONG, "restart: the checkpoint was written %s a step-size controller (TIME_ADAPT) and the deck runs %s one", k[L_ADAPT] ? "with" : "without",
             d->adapt ? "with" : "without");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- owners: the owner of every body and the balance's memory (the imbalance METIS's last
   partition gave — a repartition is skipped while the imbalance stays near it —, the last
   measured one, the edge cut, the bodies moved so far). A restart on as many ranks puts
   each body where it was, so the run goes on bit for bit; another count partitions anew. */

enum { O_SIZE, O_NREPART, O_EDGECUT, O_NMIGRATED, O_N };

static PetscErrorCode SaveOwners(MbDomain d, MbBuf *b)
{
  const PetscInt64 k[O_N] = {d->size, d->bal.nrepart, d->bal.edgecut, d->bal.nmigrated};
  const PetscReal  x[2]   = {d->bal.imbalance_part, d->bal.imbalance};
  PetscFunctionBegin;
  PetscCall(PutInts(b, O_N, k));
  PetscCall(PutReals(b, 2, x));
  PetscCall(MbBufPut(b, d->map.owner, (size_t)d->nglobal * sizeof(PetscMPIInt)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RestoreOwners(MbDomain d, MbBuf *b, PetscInt nrec)
{
  PetscInt64   k[O_N];
  PetscReal    x[2];
  PetscMPIInt *owner;
  size_t       pos = 0;
  PetscBool    same, moved = PETSC_FALSE;
  PetscFunctionBegin;
  (void)nrec;
  PetscCheck(b->n == O_N * sizeof(PetscInt64) + 2 * sizeof(PetscReal) + (size_t)d->nglobal * sizeof(PetscMPIInt), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint's owners part has %zu bytes for %" PetscInt_FMT " bodies", b->n,
             d->nglobal);
  PetscCall(MbBufGet(b, &pos, k, sizeof(k)));
  PetscCall(MbBufGet(b, &pos, x, sizeof(x)));
  owner = (PetscMPIInt *)(b->buf + pos);
  same  = k[O_SIZE] == d->size ? PETSC_TRUE : PETSC_FALSE;
  if (same && d->size > 1) {
    PetscMPIInt *newowner;
    PetscCall(PetscMalloc1(d->nglobal + 1, &newowner));
    memcpy(newowner, owner, (size_t)d->nglobal * sizeof(PetscMPIInt));
    for (PetscInt id = 0; id < d->nglobal; id++)
      if (newowner[id] != d->map.owner[id]) moved = PETSC_TRUE;
    if (moved) PetscCall(MbDomainMigrate(d, newowner));
    PetscCall(PetscFree(newowner));
  }
  d->bal.nrepart = same ? (PetscInt)k[O_NREPART] : 0; /* another rank count: partition anew */
  if (same) {
    d->bal.imbalance_part = x[0];
    d->bal.imbalance      = x[1];
    d->bal.edgecut        = (PetscInt)k[O_EDGECUT];
    d->bal.nmigrated      = (PetscInt)k[O_NMIGRATED];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- bodies: per owned body its id, record length and record (MbBodyRecordWrite: q, u,
   work, acceleration history, the kind's own state) with the adaptive runs' last
   acceleration of the body (d->aprev) as the record's extra numbers */

/* Whether d->aprev holds the last accelerations of the bodies with a scheme. */
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

static PetscErrorCode SaveBodies(MbDomain d, MbBuf *b)
{
  PetscBool ap;
  PetscInt  ka = 0;
  PetscFunctionBegin;
  PetscCall(HasAprev(d, &ap));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBodyView v;
    PetscInt   nap, len;
    PetscInt64 head[2];
    PetscCall(MbBodyGetView(d->body[i], &v));
    nap = ap && v.scheme ? v.nu : 0;
    PetscCall(MbBodyRecordSize(d->body[i], nap, &len));
    head[0] = v.id;
    head[1] = len;
    PetscCall(PutInts(b, 2, head));
    PetscCall(MbBufReserve(b, (size_t)len * sizeof(PetscReal)));
    PetscCall(MbBodyRecordWrite(d->body[i], nap, ap ? d->aprev + ka : NULL, (PetscReal *)(b->buf + b->n))); /* MbBufReserve keeps b->buf aligned as malloc's */
    b->n += (size_t)len * sizeof(PetscReal);
    if (v.scheme) ka += v.nu;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RestoreBodies(MbDomain d, MbBuf *b, PetscInt nrec)
{
  size_t  *at, pos = 0;
  PetscInt ka = 0;
  PetscFunctionBegin;
  (void)nrec;
  PetscCall(PetscMalloc1(d->nglobal + 1, &at));
  for (PetscInt id = 0; id < d->nglobal; id++) at[id] = SIZE_MAX;
  while (pos < b->n) { /* index the records by body id */
    PetscInt64 head[2];
    PetscCall(MbBufGet(b, &pos, head, sizeof(head)));
    PetscCheck(head[0] >= 0 && head[0] < d->nglobal && head[1] >= 0 && pos + (size_t)head[1] * sizeof(PetscReal) <= b->n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
               "the saved state has a record of body %lld (%lld numbers); the deck made %" PetscInt_FMT " bodies", (long long)head[0], (long long)head[1], d->nglobal);
    at[head[0]] = pos - sizeof(head);
    pos += (size_t)head[1] * sizeof(PetscReal);
  }
  if (d->adapt) PetscCall(MbDomainAdaptBuffers(d));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBodyView       v;
    PetscInt64       head[2];
    const PetscReal *ap;
    PetscInt         nap;
    PetscCall(MbBodyGetView(d->body[i], &v));
    PetscCheck(at[v.id] != SIZE_MAX, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the saved state has no record of body %" PetscInt_FMT, v.id);
    memcpy(head, b->buf + at[v.id], sizeof(head));
    PetscCall(MbBodyRecordRead(d->body[i], (const PetscReal *)(b->buf + at[v.id] + sizeof(head)), (PetscInt)head[1], &nap, &ap));
    if (v.scheme && d->adapt) {
      if (nap == v.nu) PetscCall(PetscArraycpy(d->aprev + ka, ap, nap));
      ka += v.nu;
    }
  }
  PetscCall(PetscFree(at));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A part of fixed fields: the addresses of its reals and integers, saved and restored alike. */
typedef struct {
  const char *name;
  PetscInt    n, m;
  PetscReal  *x[3];
  PetscInt   *k[3];
} Fields;

static PetscErrorCode SaveFields(Fields f, MbBuf *b)
{
  PetscReal  x[3];
  PetscInt64 k[3];
  PetscFunctionBegin;
  for (PetscInt i = 0; i < f.n; i++) x[i] = *f.x[i];
  for (PetscInt i = 0; i < f.m; i++) k[i] = *f.k[i];
  PetscCall(PutAll(b, f.n, x, f.m, k));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RestoreFields(Fields f, MbBuf *b)
{
  PetscReal  x[3];
  PetscInt64 k[3];
  PetscFunctionBegin;
  PetscCall(GetAll(f.name, b, f.n, x, f.m, k));
  for (PetscInt i = 0; i < f.n; i++) *f.x[i] = x[i];
  for (PetscInt i = 0; i < f.m; i++) *f.k[i] = (PetscInt)k[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- clock: time, steps, history length, the last step, the implicit schemes' Newton
   scale (a replay must use the same tolerance), the solves that missed their tolerance */

static Fields ClockFields(MbDomain d)
{
  Fields f = {"clock", 3, 3, {&d->t, &d->hprev, &d->imp.fascale}, {&d->nsteps, &d->nhist, &d->solver_failures}};
  return f;
}

static PetscErrorCode SaveClock(MbDomain d, MbBuf *b) { return SaveFields(ClockFields(d), b); }

/* (a rejection's history is cut back to the saved length) */
static PetscErrorCode RestoreClock(MbDomain d, MbBuf *b, PetscInt nrec)
{
  PetscInt nhist = d->nhist;
  PetscFunctionBegin;
  (void)nrec;
  PetscCall(RestoreFields(ClockFields(d), b));
  PetscCheck(d->nhist <= nhist, PETSC_COMM_SELF, PETSC_ERR_PLIB, "history has %" PetscInt_FMT " records, fewer than the %" PetscInt_FMT " saved", nhist, d->nhist);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- run: the step and the controller's next one, the next checkpoint's time, the steps
   discarded. A rejection keeps them: they count the rejections. A checkpoint taken at a
   RUN's end (d->run.run_done, from the checkpoint's head) continues with the controller's
   next step. */

static Fields RunFields(MbDomain d)
{
  Fields f = {"run", 3, 1, {&d->h, &d->hnext, &d->run.ckpt_next_t}, {&d->discarded}};
  return f;
}

static PetscErrorCode SaveRun(MbDomain d, MbBuf *b) { return SaveFields(RunFields(d), b); }

static PetscErrorCode RestoreRun(MbDomain d, MbBuf *b, PetscInt nrec)
{
  PetscFunctionBegin;
  (void)nrec;
  PetscCall(RestoreFields(RunFields(d), b));
  if (d->run.run_done && d->hnext > 0) d->h = d->hnext;
  d->run.ckpt_last_step = d->nsteps;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- monitors: their next times */

static PetscErrorCode SaveMonitors(MbDomain d, MbBuf *b)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nmon; i++) PetscCall(PutReals(b, 1, &d->mon[i].next));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RestoreMonitors(MbDomain d, MbBuf *b, PetscInt nrec)
{
  PetscReal *x;
  PetscFunctionBegin;
  (void)nrec;
  PetscCall(PetscMalloc1(d->nmon + 1, &x));
  PetscCall(GetAll("monitors", b, d->nmon, x, 0, NULL));
  for (PetscInt i = 0; i < d->nmon; i++) d->mon[i].next = x[i];
  PetscCall(PetscFree(x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- controller: the step-size controller's own state (MbAdaptGetState; none without one) */

static PetscErrorCode SaveController(MbDomain d, MbBuf *b)
{
  size_t n;
  char  *bytes;
  PetscFunctionBegin;
  if (!d->adapt) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbAdaptGetState(d->adapt, &n, &bytes));
  PetscCall(MbBufPut(b, bytes, n));
  PetscCall(PetscFree(bytes));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RestoreController(MbDomain d, MbBuf *b, PetscInt nrec)
{
  PetscFunctionBegin;
  (void)nrec;
  if (d->adapt) PetscCall(MbAdaptSetState(d->adapt, b->n, b->buf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- energy: this rank's accumulators (contact and friction work on its rows, spring
   work and potential): on another rank count their sums go to rank 0 */

static PetscErrorCode SaveEnergy(MbDomain d, MbBuf *b)
{
  const PetscReal x[4] = {d->work_contact, d->work_friction, d->espring, d->epot};
  return PutReals(b, 4, x);
}

static PetscErrorCode RestoreEnergy(MbDomain d, MbBuf *b, PetscInt nrec)
{
  PetscReal x[4] = {0, 0, 0, 0};
  size_t    pos  = 0;
  PetscFunctionBegin;
  PetscCheck(b->n == (size_t)nrec * sizeof(x), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the saved state's energy part has %zu bytes for %" PetscInt_FMT " ranks", b->n, nrec);
  for (PetscInt r = 0; r < nrec; r++) {
    PetscReal y[4];
    PetscCall(MbBufGet(b, &pos, y, sizeof(y)));
    for (int k = 0; k < 4; k++) x[k] += y[k];
  }
  d->work_contact  = x[0];
  d->work_friction = x[1];
  d->espring       = x[2];
  d->epot          = x[3];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---- the constraint set's parts (src/constraint/setstate.c) and the ghosts */

static PetscErrorCode SaveJoints(MbDomain d, MbBuf *b) { return MbConSetSaveJoints(d->cs, &d->map, b); }
static PetscErrorCode RestoreJoints(MbDomain d, MbBuf *b, PetscInt nrec)
{
  (void)nrec;
  return MbConSetRestoreJoints(d->cs, b);
}
static PetscErrorCode SaveRows(MbDomain d, MbBuf *b) { return MbConSetSaveRows(d->cs, b); }
static PetscErrorCode RestoreRows(MbDomain d, MbBuf *b, PetscInt nrec) { return MbConSetRestoreRows(d->cs, &d->map, b, nrec); }

/* Ghosts are copies of their owners' state: nothing to keep, refreshed from the restored
   owners. */
static PetscErrorCode SaveGhosts(MbDomain d, MbBuf *b)
{
  (void)d, (void)b;
  return PETSC_SUCCESS;
}
static PetscErrorCode RestoreGhosts(MbDomain d, MbBuf *b, PetscInt nrec)
{
  PetscFunctionBegin;
  (void)nrec;
  PetscCheck(b->n == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the saved state's ghosts part has %zu bytes; none expected", b->n);
  if (d->nglobal > 1) PetscCall(MbDomainGhostRefresh(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

const MbPart MbDomainParts[] = {
    {"layout", MB_PART_SHARED, PETSC_FALSE, SaveLayout, RestoreLayout},
    {"owners", MB_PART_SHARED, PETSC_FALSE, SaveOwners, RestoreOwners},
    {"bodies", MB_PART_GATHER, PETSC_TRUE, SaveBodies, RestoreBodies},
    {"clock", MB_PART_SHARED, PETSC_TRUE, SaveClock, RestoreClock},
    {"run", MB_PART_SHARED, PETSC_FALSE, SaveRun, RestoreRun},
    {"monitors", MB_PART_SHARED, PETSC_FALSE, SaveMonitors, RestoreMonitors},
    {"controller", MB_PART_SHARED, PETSC_FALSE, SaveController, RestoreController},
    {"energy", MB_PART_RANK, PETSC_TRUE, SaveEnergy, RestoreEnergy},
    {"joints", MB_PART_GATHER, PETSC_TRUE, SaveJoints, RestoreJoints},
    {"springs", MB_PART_GATHER, PETSC_TRUE, MbDomainSaveSprings, MbDomainRestoreSprings},
    {"constraints", MB_PART_GATHER, PETSC_TRUE, SaveRows, RestoreRows},
    {"ghosts", MB_PART_SHARED, PETSC_TRUE, SaveGhosts, RestoreGhosts},
};
const PetscInt MbDomainNParts = (PetscInt)PETSC_STATIC_ARRAY_LENGTH(MbDomainParts);
