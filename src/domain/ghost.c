/* Ghost bodies: read-only copies of bodies owned by other ranks, so that detection and
   the local dynamics see every body they touch. Made by packing whole bodies once
   (MbBodyPack) and refreshed each step with their states only (q, u, u0). For now every
   remote body is a ghost and the exchange is an MPI_Allgatherv; the distributed-memory
   issue replaces that by neighbours found from bounding boxes. */
#include "domainimpl.h"
#include "../body/bodyimpl.h"

PetscErrorCode MbDomainGhostDestroy(MbDomain d)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nghost; i++) PetscCall(MbBodyDestroy(&d->ghost[i]));
  PetscCall(PetscFree(d->ghost));
  PetscCall(PetscFree(d->all));
  d->nghost = d->nall = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainGhostSetup(MbDomain d)
{
  size_t      total = 0, used;
  char       *send, *recv;
  PetscMPIInt n, *counts, *displs;
  PetscFunctionBegin;
  PetscCall(MbDomainGhostDestroy(d));
  d->nall = d->nglobal;
  PetscCall(PetscCalloc1(d->nall + 1, &d->all));
  for (PetscInt i = 0; i < d->nbody; i++) d->all[d->body[i]->id] = d->body[i];
  if (d->size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < d->nbody; i++) {
    size_t s;
    PetscCall(MbBodyPackSize(d->body[i], &s));
    total += s;
  }
  PetscCheck(total < (size_t)PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "ghost exchange of %zu bytes on one rank is too large for one message", total);
  PetscCall(PetscMalloc1(total + 1, &send));
  total = 0;
  for (PetscInt i = 0; i < d->nbody; i++) {
    size_t s;
    PetscCall(MbBodyPack(d->body[i], send + total, &s));
    total += s;
  }
  n = (PetscMPIInt)total;
  PetscCall(PetscMalloc2(d->size, &counts, d->size + 1, &displs));
  PetscCallMPI(MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, d->comm));
  displs[0] = 0;
  for (int r = 0; r < d->size; r++) {
    PetscCheck((size_t)displs[r] + counts[r] < (size_t)PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "ghost exchange too large for one message");
    displs[r + 1] = displs[r] + counts[r];
  }
  PetscCall(PetscMalloc1(displs[d->size] + 1, &recv));
  PetscCallMPI(MPI_Allgatherv(send, n, MPI_BYTE, recv, counts, displs, MPI_BYTE, d->comm));
  PetscCall(PetscMalloc1(d->nall - d->nbody + 1, &d->ghost));
  for (int r = 0; r < d->size; r++) {
    if (r == d->rank) continue;
    for (size_t off = (size_t)displs[r]; off < (size_t)displs[r + 1]; off += used) {
      MbBody g;
      PetscCall(MbBodyUnpack(recv + off, (size_t)displs[r + 1] - off, &used, &g));
      PetscCheck(g->id >= 0 && g->id < d->nall && !d->all[g->id], PETSC_COMM_SELF, PETSC_ERR_PLIB, "ghost body %" PetscInt_FMT " from rank %d is out of range or duplicated", g->id, r);
      d->ghost[d->nghost++] = g;
      d->all[g->id]         = g;
    }
  }
  PetscCall(PetscFree(send));
  PetscCall(PetscFree(recv));
  PetscCall(PetscFree2(counts, displs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* States of owned bodies to every rank: (id, q, u, u0) per body as reals. */
PetscErrorCode MbDomainGhostRefresh(MbDomain d)
{
  const int   m = 1 + 12 + 6 + 6;
  PetscReal  *send, *recv;
  PetscMPIInt n, *counts, *displs;
  PetscFunctionBegin;
  if (d->size == 1) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(m * d->nbody + 1, &send));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody     b = d->body[i];
    PetscReal *s = send + m * i;
    s[0]         = (PetscReal)b->id;
    PetscCall(PetscArraycpy(s + 1, b->q, 12));
    PetscCall(PetscArraycpy(s + 13, b->u, 6));
    PetscCall(PetscArraycpy(s + 19, b->u0, 6));
  }
  n = (PetscMPIInt)(m * d->nbody);
  PetscCall(PetscMalloc2(d->size, &counts, d->size + 1, &displs));
  PetscCallMPI(MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, d->comm));
  displs[0] = 0;
  for (int r = 0; r < d->size; r++) displs[r + 1] = displs[r] + counts[r];
  PetscCall(PetscMalloc1(displs[d->size] + 1, &recv));
  PetscCallMPI(MPI_Allgatherv(send, n, MPIU_REAL, recv, counts, displs, MPIU_REAL, d->comm));
  for (int r = 0; r < d->size; r++) {
    if (r == d->rank) continue;
    for (PetscInt k = displs[r]; k < displs[r + 1]; k += m) {
      PetscInt id = (PetscInt)recv[k];
      MbBody   g  = id >= 0 && id < d->nall ? d->all[id] : NULL;
      PetscCheck(g, PETSC_COMM_SELF, PETSC_ERR_PLIB, "state of unknown body %" PetscInt_FMT " from rank %d", id, r);
      PetscCall(PetscArraycpy(g->q, recv + k + 1, 12));
      PetscCall(PetscArraycpy(g->u, recv + k + 13, 6));
      PetscCall(PetscArraycpy(g->u0, recv + k + 19, 6));
    }
  }
  PetscCall(PetscFree(send));
  PetscCall(PetscFree(recv));
  PetscCall(PetscFree2(counts, displs));
  PetscFunctionReturn(PETSC_SUCCESS);
}
