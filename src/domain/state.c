/* Save and restore the state of a domain, for step rejection (seed 004, section 3: "codes
   that implement the strategy must be able to store the entire dynamic system
   configuration in at least two instants: t_m and t"). What a step changes and later
   steps read:
   - per body: q, u, the external work, and the force schemes' acceleration history
     (body->acc, 3 nu, and body->accok, see NOTES-6 / src/scheme/force/);
   - the domain: time, step count, history length, contact, friction and spring work
     (d->espring; d->epot, the springs' potential, for the energies read before the next
     step), solver
     failure count, the last constraints (warm starts and tangent frames of persistent
     contacts, detect.c) and the joints' last reactions;
   - the adaptive measurements: the last accelerations and step (adaptive.c).
   Scratch that every step rewrites before reading (q0, u0, fext, aux, W, B, R, the penalty
   list) is not saved. Bodies must not migrate between a save and its restore. */
#include "domainimpl.h"
#include "../body/bodyimpl.h"

static PetscInt StateLength(MbDomain d)
{
  PetscInt n = d->nacc;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody b = d->body[i];
    n += b->nq + b->nu + 1 + (b->acc ? 3 * b->nu : 0);
  }
  return n;
}

PetscErrorCode MbDomainStateSave(MbDomain d, MbState *s)
{
  PetscInt n = StateLength(d), k = 0;
  PetscFunctionBegin;
  if (n > s->nreal || d->nbody > s->nbody || !s->x) {
    PetscCall(PetscFree(s->x));
    PetscCall(PetscFree(s->accok));
    PetscCall(PetscMalloc1(n + 1, &s->x));
    PetscCall(PetscMalloc1(d->nbody + 1, &s->accok));
  }
  s->nreal = n;
  s->nbody = d->nbody;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody b = d->body[i];
    PetscCall(PetscArraycpy(s->x + k, b->q, b->nq));
    k += b->nq;
    PetscCall(PetscArraycpy(s->x + k, b->u, b->nu));
    k += b->nu;
    s->x[k++] = b->work;
    if (b->acc) {
      PetscCall(PetscArraycpy(s->x + k, b->acc, 3 * b->nu));
      k += 3 * b->nu;
    }
    s->accok[i] = b->accok;
  }
  if (d->nacc) PetscCall(PetscArraycpy(s->x + k, d->aprev, d->nacc));
  s->t               = d->t;
  s->nsteps          = d->nsteps;
  s->nhist           = d->nhist;
  s->work_contact    = d->work_contact;
  s->work_friction   = d->work_friction;
  s->espring         = d->espring;
  s->epot            = d->epot;
  s->hprev           = d->hprev;
  s->solver_failures = d->solver_failures;
  if (d->ncon > s->ccap) {
    PetscCall(PetscFree(s->con));
    PetscCall(PetscMalloc1(d->ncon, &s->con));
    s->ccap = d->ncon;
  }
  s->ncon = d->ncon;
  if (d->ncon) PetscCall(PetscArraycpy(s->con, d->con, d->ncon));
  PetscCall(PetscFree(s->jointR));
  PetscCall(PetscMalloc1(3 * d->njoint + 1, &s->jointR));
  for (PetscInt j = 0; j < d->njoint; j++)
    for (int c = 0; c < 3; c++) s->jointR[3 * j + c] = d->joint[j].R[c];
  s->valid = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainStateRestore(MbDomain d, const MbState *s)
{
  PetscInt k = 0;
  PetscFunctionBegin;
  PetscCheck(s->valid, d->comm, PETSC_ERR_ORDER, "no saved state to restore");
  PetscCheck(s->nbody == d->nbody && s->nreal == StateLength(d), PETSC_COMM_SELF, PETSC_ERR_PLIB, "the bodies changed since the state was saved (%" PetscInt_FMT " then, %" PetscInt_FMT " now)", s->nbody, d->nbody);
  PetscCheck(s->nhist <= d->nhist, PETSC_COMM_SELF, PETSC_ERR_PLIB, "history has %" PetscInt_FMT " records, fewer than the %" PetscInt_FMT " saved", d->nhist, s->nhist);
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody b = d->body[i];
    PetscCall(PetscArraycpy(b->q, s->x + k, b->nq));
    k += b->nq;
    PetscCall(PetscArraycpy(b->u, s->x + k, b->nu));
    k += b->nu;
    b->work = s->x[k++];
    if (b->acc) {
      PetscCall(PetscArraycpy(b->acc, s->x + k, 3 * b->nu));
      k += 3 * b->nu;
    }
    b->accok = s->accok[i];
  }
  if (d->nacc) PetscCall(PetscArraycpy(d->aprev, s->x + k, d->nacc));
  d->t               = s->t;
  d->nsteps          = s->nsteps;
  d->nhist           = s->nhist;
  d->work_contact    = s->work_contact;
  d->work_friction   = s->work_friction;
  d->espring         = s->espring;
  d->epot            = s->epot;
  d->hprev           = s->hprev;
  d->solver_failures = s->solver_failures;
  if (s->ncon > d->ncon) PetscCall(PetscRealloc(sizeof(MbCon) * s->ncon, &d->con));
  d->ncon = s->ncon;
  if (s->ncon) PetscCall(PetscArraycpy(d->con, s->con, s->ncon));
  for (PetscInt j = 0; j < d->njoint; j++)
    for (int c = 0; c < 3; c++) d->joint[j].R[c] = s->jointR[3 * j + c];
  /* ghosts are copies of the owners' state: refresh them from the restored bodies */
  if (d->nglobal > 1) PetscCall(MbDomainGhostRefresh(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainStateDestroy(MbState *s)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(s->x));
  PetscCall(PetscFree(s->accok));
  PetscCall(PetscFree(s->con));
  PetscCall(PetscFree(s->jointR));
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
