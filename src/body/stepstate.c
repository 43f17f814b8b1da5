/* A body's step state: what a step changes and later steps read (q, u, the external work,
   the force schemes' acceleration history, the kind's own state), kept for a step
   rejection (src/domain/state.c) and in checkpoints (src/domain/checkpoint.c), and the
   start of the force schemes' history. (Not named state.c: the library archive keeps
   one member per file name, and src/domain/ has one.) */
#include "bodyview.h"

/* acc, or none: nacc numbers of it that a copy keeps */
static PetscInt AccLength(MbBody b) { return b->acc ? 3 * b->nu : 0; }

PetscErrorCode MbBodyStateSize(MbBody b, PetscInt *n)
{
  *n = b->nq + b->nu + 2 + AccLength(b);
  return PETSC_SUCCESS;
}

/* x: q, u, work, accok, acc (when the body has it) */
PetscErrorCode MbBodyStateSave(MbBody b, PetscReal x[])
{
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(x, b->q, b->nq));
  x += b->nq;
  PetscCall(PetscArraycpy(x, b->u, b->nu));
  x += b->nu;
  *x++ = b->work;
  *x++ = b->accok ? 1 : 0;
  if (b->acc) PetscCall(PetscArraycpy(x, b->acc, 3 * b->nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyStateRestore(MbBody b, const PetscReal x[])
{
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(b->q, x, b->nq));
  x += b->nq;
  PetscCall(PetscArraycpy(b->u, x, b->nu));
  x += b->nu;
  b->work  = *x++;
  b->accok = *x++ > 0.5 ? PETSC_TRUE : PETSC_FALSE;
  if (b->acc) PetscCall(PetscArraycpy(b->acc, x, 3 * b->nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyStepStart(MbBody b)
{
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(b->q0, b->q, b->nq));
  PetscCall(PetscArraycpy(b->u0, b->u, b->nu));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyAccelerationStart(MbBody b)
{
  PetscFunctionBegin;
  PetscCall(MbBodyAcceleration(b, b->force, b->acc));
  PetscCall(PetscArraycpy(b->acc + b->nu, b->acc, b->nu));
  PetscCall(PetscArraycpy(b->acc + 2 * b->nu, b->acc, b->nu));
  b->accok = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* numbers of the kind's own state that a record keeps */
static PetscErrorCode KindStateSize(MbBody b, PetscInt *n)
{
  PetscFunctionBegin;
  *n = 0;
  if (b->ops->state_size) PetscCall(b->ops->state_size(b, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyRecordSize(MbBody b, PetscInt nextra, PetscInt *len)
{
  PetscInt nk;
  PetscFunctionBegin;
  PetscCall(KindStateSize(b, &nk));
  *len = MB_BODY_RECORD_HEAD + b->nq + b->nu + 1 + AccLength(b) + nextra + nk;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyRecordWrite(MbBody b, PetscInt nextra, const PetscReal extra[], PetscReal r[])
{
  PetscInt nacc = AccLength(b), nk, len, j = MB_BODY_RECORD_HEAD;
  PetscFunctionBegin;
  PetscCall(KindStateSize(b, &nk));
  PetscCall(MbBodyRecordSize(b, nextra, &len));
  r[0] = (PetscReal)b->nq;
  r[1] = (PetscReal)b->nu;
  r[2] = (PetscReal)nacc;
  r[3] = b->accok ? 1 : 0;
  r[4] = (PetscReal)nextra;
  r[5] = (PetscReal)nk;
  PetscCall(PetscArraycpy(r + j, b->q, b->nq));
  j += b->nq;
  PetscCall(PetscArraycpy(r + j, b->u, b->nu));
  j += b->nu;
  r[j++] = b->work;
  if (nacc) PetscCall(PetscArraycpy(r + j, b->acc, nacc));
  j += nacc;
  if (nextra) PetscCall(PetscArraycpy(r + j, extra, nextra));
  j += nextra;
  if (nk) PetscCall(b->ops->state_get(b, r + j));
  j += nk;
  PetscCheck(j == len, PETSC_COMM_SELF, PETSC_ERR_PLIB, "body %" PetscInt_FMT ": record of %" PetscInt_FMT " numbers, %" PetscInt_FMT " expected", b->id, j, len);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyRecordRead(MbBody b, const PetscReal r[], PetscInt len, PetscInt *nextra, const PetscReal **extra)
{
  PetscInt nacc = (PetscInt)r[2], nap = (PetscInt)r[4], nk = (PetscInt)r[5], j = MB_BODY_RECORD_HEAD;
  PetscFunctionBegin;
  PetscCheck((PetscInt)r[0] == b->nq && (PetscInt)r[1] == b->nu, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "restart: body %" PetscInt_FMT " has %" PetscInt_FMT " configuration and %" PetscInt_FMT " velocity numbers; its checkpoint record %g and %g: restart with the deck that wrote it", b->id, b->nq, b->nu, (double)r[0], (double)r[1]);
  PetscCheck(len == MB_BODY_RECORD_HEAD + b->nq + b->nu + 1 + nacc + nap + nk, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the checkpoint's record of body %" PetscInt_FMT " has %" PetscInt_FMT " numbers; its head says %" PetscInt_FMT, b->id, len,
             MB_BODY_RECORD_HEAD + b->nq + b->nu + 1 + nacc + nap + nk);
  PetscCall(PetscArraycpy(b->q, r + j, b->nq));
  j += b->nq;
  PetscCall(PetscArraycpy(b->u, r + j, b->nu));
  j += b->nu;
  b->work = r[j++];
  if (nacc && b->acc) {
    PetscCheck(nacc == 3 * b->nu, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "body %" PetscInt_FMT ": acceleration history of %" PetscInt_FMT " numbers in the checkpoint, %" PetscInt_FMT " expected", b->id, nacc, 3 * b->nu);
    PetscCall(PetscArraycpy(b->acc, r + j, nacc));
    b->accok = r[3] > 0.5 ? PETSC_TRUE : PETSC_FALSE;
  } else if (b->acc)
    b->accok = PETSC_FALSE; /* recomputed by its scheme's next step */
  j += nacc;
  *nextra = nap;
  *extra  = r + j;
  j += nap;
  if (nk && b->ops->state_set) PetscCall(b->ops->state_set(b, r + j, nk));
  PetscFunctionReturn(PETSC_SUCCESS);
}
