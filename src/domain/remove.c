/* DELETE of a BODY (Solfec-1.0 lng.c DELETE and dom.c DOM_Remove_Body behaviour): the body
   leaves the domain with its constraints — joints and springs that touch it — before the
   first RUN. Its id is not given again (Solfec's next body takes the next id, dom.c's bid
   counter): the ids of the bodies made later are those they would have had, and the owner
   table keeps a slot that no body fills. Every rank calls it alike. */
#include "domainimpl.h"
#include "../body/bodyimpl.h"

PetscErrorCode MbDomainRemoveBody(MbDomain d, PetscInt id)
{
  PetscInt i, k = 0;
  PetscFunctionBegin;
  PetscCheck(id >= 0 && id < d->nglobal, d->comm, PETSC_ERR_ARG_OUTOFRANGE, "DELETE: no body with id %" PetscInt_FMT " (ids run from 0 to %" PetscInt_FMT ")", id, d->nglobal - 1);
  for (i = 0; i < d->ndeleted; i++) PetscCheck(d->deleted[i] != id, d->comm, PETSC_ERR_ARG_WRONG, "DELETE: body %" PetscInt_FMT " was deleted already", id);
  /* after a RUN the body has contacts, ghosts on other ranks, rows in the output's /bodies and
     a place in the balance: its leaving mid-run is not implemented */
  PetscCheck(!d->run.started, d->comm, PETSC_ERR_SUP, "DELETE: deleting body %" PetscInt_FMT " after a RUN is not supported in moreau (bodies can be deleted before the first RUN)", id);
  for (PetscInt j = 0; j < d->nspring; j++)
    PetscCheck(d->spring[j].body[0] != id && d->spring[j].body[1] != id, d->comm, PETSC_ERR_SUP,
               "DELETE: body %" PetscInt_FMT " has PUT_SPRING spring %" PetscInt_FMT ": deleting a body with springs is not supported in moreau (springs cannot be removed)", id, j);
  /* its joints go with it (DOM_Remove_Body removes every constraint of the body) */
  for (PetscInt j = 0; j < d->cs->njoint; j++)
    if (d->cs->joint[j].body[0] == id || d->cs->joint[j].body[1] == id) PetscCall(MbDomainRemoveJoint(d, j));
  /* the owner drops it; d->body stays sorted by id */
  for (i = 0; i < d->nbody; i++) {
    if (d->body[i]->id == id) {
      MbBody b = d->body[i];
      PetscCall(MbBodyDestroy(&b));
      continue;
    }
    d->body[k++] = d->body[i];
  }
  d->nbody = k;
  if (id < d->map.n) { /* the owner table knows it already: the slot stays, empty */
    d->map.all[id]     = NULL;
    d->map.movable[id] = 0;
  }
  PetscCall(PetscRealloc(sizeof(PetscInt) * (d->ndeleted + 1), &d->deleted));
  d->deleted[d->ndeleted++] = id;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscBool MbDomainBodyDeleted(MbDomain d, PetscInt id)
{
  for (PetscInt i = 0; i < d->ndeleted; i++)
    if (d->deleted[i] == id) return PETSC_TRUE;
  return PETSC_FALSE;
}
