/* Save and restore the state of a domain for step rejection (seed 004, section 3: "codes
   that implement the strategy must be able to store the entire dynamic system
   configuration in at least two instants: t_m and t"): the parts of component.c that a step
   changes, each into its own buffer, kept between saves. Bodies must not migrate between a
   save and its restore (an adaptive run holds the balance). */
#include "domainimpl.h"

PetscErrorCode MbDomainStateSave(MbDomain d, MbState *s)
{
  PetscFunctionBegin;
  PetscCall(MbDomainKnowBodies(d)); /* the owners of bodies the deck made since the last step (collective, as the save is) */
  if (!s->part) PetscCall(PetscCalloc1(MbDomainNParts, &s->part));
  for (PetscInt k = 0; k < MbDomainNParts; k++) {
    if (!MbDomainParts[k].step) continue;
    s->part[k].n = 0; /* the room stays */
    PetscCall(MbDomainParts[k].save(d, &s->part[k]));
  }
  s->nbody = d->nbody;
  s->valid = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainStateRestore(MbDomain d, const MbState *s)
{
  PetscFunctionBegin;
  PetscCheck(s->valid, d->comm, PETSC_ERR_ORDER, "no saved state to restore");
  PetscCheck(s->nbody == d->nbody, PETSC_COMM_SELF, PETSC_ERR_PLIB, "the bodies changed since the state was saved (%" PetscInt_FMT " then, %" PetscInt_FMT " now)", s->nbody, d->nbody);
  for (PetscInt k = 0; k < MbDomainNParts; k++) {
    MbBuf b;
    if (!MbDomainParts[k].step) continue;
    b = s->part[k]; /* a view: the restore reads it only */
    PetscCall(MbDomainParts[k].restore(d, &b, 1));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainStateDestroy(MbState *s)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; s->part && k < MbDomainNParts; k++) PetscCall(MbBufFree(&s->part[k]));
  PetscCall(PetscFree(s->part));
  PetscCall(PetscMemzero(s, sizeof(*s)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
