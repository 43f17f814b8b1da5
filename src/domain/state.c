/* Save and restore the state of a domain, for step rejection (seed 004, section 3: "codes
   that implement the strategy must be able to store the entire dynamic system
   configuration in at least two instants: t_m and t"). What a step changes and later
   steps read:
   - per body: q, u, the external work, and the force schemes' acceleration history and
     whether it is current (MbBodyStateSave, src/body/stepstate.c; NOTES-6 / src/scheme/force/);
   - the domain: time, step count, history length, contact, friction and spring work
     (d->espring; d->epot, the springs' potential, for the energies read before the next
     step), solver failure count, the implicit schemes' Newton scale (d->imp.fascale: the
     replay must use the same tolerance), the last constraints (warm starts and tangent frames of persistent
     contacts, detect.c) and the joints' last reactions;
   - the adaptive measurements: the last accelerations and step (adaptive.c).
   Scratch that every step rewrites before reading (q0, u0, fext, aux, W, B, R, the penalty
   list) is not saved. Bodies must not migrate between a save and its restore. */
#include "domainimpl.h"
#include "../body/bodyview.h"

static PetscErrorCode StateLength(MbDomain d, PetscInt *n)
{
  PetscFunctionBegin;
  *n = d->nacc;
  for (PetscInt i = 0; i < d->nbody; i++) {
    PetscInt nb;
    PetscCall(MbBodyStateSize(d->body[i], &nb));
    *n += nb;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One list for both directions: save copies the domain into s, restore s into the domain. */
static void Move(PetscReal *kept, PetscReal *live, PetscInt n, PetscBool save)
{
  if (n > 0) memcpy(save ? kept : live, save ? live : kept, (size_t)n * sizeof(PetscReal));
}

#define MOVE(field) (save ? (void)(s->field = d->field) : (void)(d->field = s->field))

static PetscErrorCode Transfer(MbDomain d, MbState *s, PetscBool save)
{
  PetscInt k = 0;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody   b = d->body[i];
    PetscInt nb;
    if (save)
      PetscCall(MbBodyStateSave(b, s->x + k));
    else
      PetscCall(MbBodyStateRestore(b, s->x + k));
    PetscCall(MbBodyStateSize(b, &nb));
    k += nb;
  }
  Move(s->x + k, d->aprev, d->nacc, save);
  MOVE(t);
  MOVE(nsteps);
  MOVE(nhist);
  MOVE(work_contact);
  MOVE(work_friction);
  MOVE(espring);
  MOVE(epot);
  MOVE(hprev);
  MOVE(solver_failures);
  if (save) /* the implicit schemes' Newton tolerance: a replay must take the same steps */
    s->fascale = d->imp.fascale;
  else
    d->imp.fascale = s->fascale;
  for (PetscInt j = 0; j < d->cs->njoint; j++) Move(s->jointR + 3 * j, d->cs->joint[j].R, 3, save);
  PetscFunctionReturn(PETSC_SUCCESS);
}

#undef MOVE

PetscErrorCode MbDomainStateSave(MbDomain d, MbState *s)
{
  PetscInt n;
  PetscFunctionBegin;
  PetscCall(StateLength(d, &n));
  if (n > s->nreal || !s->x) {
    PetscCall(PetscFree(s->x));
    PetscCall(PetscMalloc1(n + 1, &s->x));
  }
  s->nreal = n;
  s->nbody = d->nbody;
  if (d->cs->ncon > s->ccap) {
    PetscCall(PetscFree(s->con));
    PetscCall(PetscMalloc1(d->cs->ncon, &s->con));
    s->ccap = d->cs->ncon;
  }
  s->ncon = d->cs->ncon;
  if (d->cs->ncon) PetscCall(PetscArraycpy(s->con, d->cs->con, d->cs->ncon));
  if (d->cs->njoint > s->jcap || !s->jointR) {
    PetscCall(PetscFree(s->jointR));
    PetscCall(PetscMalloc1(3 * d->cs->njoint + 1, &s->jointR));
    s->jcap = d->cs->njoint;
  }
  PetscCall(Transfer(d, s, PETSC_TRUE));
  s->valid = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainStateRestore(MbDomain d, const MbState *s)
{
  PetscInt n;
  PetscFunctionBegin;
  PetscCheck(s->valid, d->comm, PETSC_ERR_ORDER, "no saved state to restore");
  PetscCall(StateLength(d, &n));
  PetscCheck(s->nbody == d->nbody && s->nreal == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the bodies changed since the state was saved (%" PetscInt_FMT " then, %" PetscInt_FMT " now)", s->nbody, d->nbody);
  PetscCheck(s->nhist <= d->nhist, PETSC_COMM_SELF, PETSC_ERR_PLIB, "history has %" PetscInt_FMT " records, fewer than the %" PetscInt_FMT " saved", d->nhist, s->nhist);
  PetscCall(Transfer(d, (MbState *)s, PETSC_FALSE)); /* reads s only */
  if (s->ncon > d->cs->ncon) PetscCall(PetscRealloc(sizeof(MbCon) * s->ncon, &d->cs->con));
  d->cs->ncon = s->ncon;
  if (s->ncon) PetscCall(PetscArraycpy(d->cs->con, s->con, s->ncon));
  /* ghosts are copies of the owners' state: refresh them from the restored bodies */
  if (d->nglobal > 1) PetscCall(MbDomainGhostRefresh(d));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainStateDestroy(MbState *s)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(s->x));
  PetscCall(PetscFree(s->con));
  PetscCall(PetscFree(s->jointR));
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
