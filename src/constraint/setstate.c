/* The constraint set's parts of the saved state (src/domain/component.c): what a step changes
   and the next step reads — the joints' resolved points and last reactions, and the last
   step's rows (warm starts, tangent frames and the pre-impact velocities of persistent
   contacts). Saved for a step rejection and in checkpoints by the same functions; the
   records say whose they are, so a restart on any number of ranks keeps its own. (Not named
   state.c: the library archive keeps one member per file name.) */
#include "conset.h"
#include "../core/exchange.h"

#define JOINT_N 14 /* X (6), length, resolved, R (3), D (3) */

PetscErrorCode MbConSetSaveJoints(MbConSet cs, const MbBodyMap *map, MbBuf *b)
{
  PetscFunctionBegin;
  for (PetscInt j = 0; j < cs->njoint; j++) {
    const MbJoint *jt = &cs->joint[j];
    PetscReal      x[JOINT_N];
    PetscBool      mine = MbBodyMapOwner(map, MbBodyMapConOwnerBody(map, jt->body[0], jt->body[1])) == cs->rank ? PETSC_TRUE : PETSC_FALSE;
    PetscCall(PetscArraycpy(x, &jt->X[0][0], 6));
    x[6] = jt->length;
    x[7] = jt->resolved ? 1 : 0;
    PetscCall(PetscArraycpy(x + 8, jt->R, 3)); /* the row's owner holds the last reaction */
    PetscCall(PetscArraycpy(x + 11, jt->D, 3));
    PetscCall(MbBufPutItem(b, j, mine, JOINT_N, x));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetJoint(void *ctx, PetscInt j, const PetscReal x[])
{
  MbJoint *jt = &((MbConSet)ctx)->joint[j];
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(&jt->X[0][0], x, 6));
  jt->length   = x[6];
  jt->resolved = x[7] > 0.5 ? PETSC_TRUE : PETSC_FALSE;
  PetscCall(PetscArraycpy(jt->R, x + 8, 3));
  PetscCall(PetscArraycpy(jt->D, x + 11, 3));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbConSetRestoreJoints(MbConSet cs, MbBuf *b) { return MbBufItemsRead(b, JOINT_N, cs->njoint, SetJoint, cs); }

/* The record size first: the records are this build's bytes. */
PetscErrorCode MbConSetSaveRows(MbConSet cs, MbBuf *b)
{
  const PetscInt64 size = (PetscInt64)sizeof(MbCon), n = cs->ncon;
  PetscFunctionBegin;
  PetscCall(MbBufPut(b, &size, sizeof(size)));
  PetscCall(MbBufPut(b, &n, sizeof(n)));
  PetscCall(MbBufPut(b, cs->con, (size_t)cs->ncon * sizeof(MbCon)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbConSetRestoreRows(MbConSet cs, const MbBodyMap *map, MbBuf *b, PetscInt nrec)
{
  size_t pos = 0;
  PetscFunctionBegin;
  cs->ncon = 0;
  for (PetscInt r = 0; r < nrec; r++) {
    PetscInt64 size, n;
    PetscCall(MbBufGet(b, &pos, &size, sizeof(size)));
    PetscCheck(size == (PetscInt64)sizeof(MbCon), cs->comm, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint's constraint records have %lld bytes; this build's have %zu: restart with the build that wrote it", (long long)size, sizeof(MbCon));
    PetscCall(MbBufGet(b, &pos, &n, sizeof(n)));
    PetscCheck(n >= 0 && pos + (size_t)n * sizeof(MbCon) <= b->n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint's constraint records: %lld records past the end of %zu bytes", (long long)n, b->n);
    PetscCall(PetscRealloc(sizeof(MbCon) * (size_t)(cs->ncon + n + 1), &cs->con));
    for (PetscInt64 k = 0; k < n; k++) { /* each rank keeps those whose owner it now is */
      MbCon c;
      PetscCall(MbBufGet(b, &pos, &c, sizeof(c)));
      if (MbBodyMapOwner(map, MbBodyMapConOwnerBody(map, c.body[0], c.body[1])) != cs->rank) continue;
      c.owner             = cs->rank;
      cs->con[cs->ncon++] = c;
    }
  }
  PetscCheck(pos == b->n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the constraint records end at byte %zu of %zu", pos, b->n);
  PetscFunctionReturn(PETSC_SUCCESS);
}
