/* Ownership metadata (ARCHITECTURE.md, "Parallel design"): every rank keeps, for every body
   id, its owner rank and whether it can move — 5 bytes a body, so that the owner of a
   constraint (the owner of its lowest-numbered movable body) and the destination of any
   message are known without asking. A new body starts on rank id mod size; METIS and
   migration (partition.c, migrate.c) change owners collectively, so the table stays the
   same on every rank. Bodies themselves live on their owner (d->body) and, as read-only
   ghosts, on the ranks near them (ghost.c); d->map.all[id] points at either, or is NULL. */
#include "domainimpl.h"
#include "../body/bodyimpl.h"

PetscErrorCode MbDomainOwnerRank(MbDomain d, PetscInt id, PetscMPIInt *rank)
{
  *rank = MbBodyMapOwner(&d->map, id);
  return PETSC_SUCCESS;
}

PetscInt MbConOwnerBody(MbDomain d, PetscInt b0, PetscInt b1) { return MbBodyMapConOwnerBody(&d->map, b0, b1); }

PetscErrorCode MbDomainOwnerDestroy(MbDomain d)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(d->map.owner, d->map.movable, d->map.all));
  d->map.n = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bodies created since the last call (ids nknown .. nglobal−1): owner id mod size, and
   their kinds from their owners (one Allgatherv of the new ids that can move). Collective. */
PetscErrorCode MbDomainKnowBodies(MbDomain d)
{
  PetscInt     n0 = d->map.n, n1 = d->nglobal, nloc = 0, *mine, *got;
  PetscMPIInt *owner, *counts, *displs, cnt;
  char        *movable;
  MbBody      *all;
  PetscFunctionBegin;
  if (n1 == n0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc3(n1 + 1, &owner, n1 + 1, &movable, n1 + 1, &all));
  if (n0) {
    PetscCall(PetscArraycpy(owner, d->map.owner, n0));
    PetscCall(PetscArraycpy(movable, d->map.movable, n0));
    PetscCall(PetscArraycpy(all, d->map.all, n0));
  }
  for (PetscInt id = n0; id < n1; id++) {
    owner[id]   = (PetscMPIInt)(id % d->size);
    movable[id] = 0;
    all[id]     = NULL;
  }
  PetscCall(PetscMalloc1(d->nbody + 1, &mine));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody b = d->body[i];
    if (b->id < n0) continue;
    all[b->id] = b;
    if (MbBodyIsMovable(b)) mine[nloc++] = b->id;
  }
  PetscCall(PetscMalloc2(d->size, &counts, d->size + 1, &displs));
  cnt = (PetscMPIInt)nloc;
  PetscCallMPI(MPI_Allgather(&cnt, 1, MPI_INT, counts, 1, MPI_INT, d->comm));
  displs[0] = 0;
  for (PetscMPIInt r = 0; r < d->size; r++) displs[r + 1] = displs[r] + counts[r];
  PetscCall(PetscMalloc1(displs[d->size] + 1, &got));
  PetscCallMPI(MPI_Allgatherv(mine, cnt, MPIU_INT, got, counts, displs, MPIU_INT, d->comm));
  for (PetscMPIInt k = 0; k < displs[d->size]; k++) {
    PetscCheck(got[k] >= n0 && got[k] < n1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "new body id %" PetscInt_FMT " out of range [%" PetscInt_FMT ", %" PetscInt_FMT ")", got[k], n0, n1);
    movable[got[k]] = 1;
  }
  PetscCall(PetscFree(got));
  PetscCall(PetscFree(mine));
  PetscCall(PetscFree2(counts, displs));
  PetscCall(PetscFree3(d->map.owner, d->map.movable, d->map.all));
  d->map.owner   = owner;
  d->map.movable = movable;
  d->map.all     = all;
  d->map.n       = n1;
  PetscFunctionReturn(PETSC_SUCCESS);
}
