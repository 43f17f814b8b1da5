/* Migration: bodies move to the owners a new partition gives them, with everything they
   carry (state, shape, loads — callbacks by their index in the callback table —, scheme),
   and the constraints they own move with them: a contact's record keeps its reaction (the
   warm start of the next step) and a joint's record its last reaction. Ghosts are rebuilt
   from scratch by the next refresh, and W by the next assembly. Collective. */
#include <moreau/mbmath.h>
#include "domainimpl.h"
#include "../body/bodyimpl.h"

static int CompareBody(const void *x, const void *y)
{
  PetscInt a = (*(const MbBody *)x)->id, b = (*(const MbBody *)y)->id;
  return a < b ? -1 : (a > b ? 1 : 0);
}

/* The new owner of a constraint: the new owner of its lowest-numbered movable body. */
static PetscMPIInt NewOwner(MbDomain d, const PetscMPIInt newowner[], const MbCon *c) { return newowner[MbConOwnerBody(d, c->body[0], c->body[1])]; }

PetscErrorCode MbDomainMigrate(MbDomain d, const PetscMPIInt newowner[])
{
  MbBuf   *send, *recv;
  PetscInt nkeep = 0, nmoved = 0, ckeep = 0;
  PetscFunctionBegin;
  PetscCall(PetscCalloc2(d->size, &send, d->size, &recv));
  /* bodies: [tag 0][size][packed body] */
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody      b   = d->body[i];
    PetscMPIInt to  = newowner[b->id];
    char        tag = 0;
    if (to == d->rank) continue;
    PetscCall(MbBufPut(&send[to], &tag, 1));
    PetscCall(MbBufPutBody(&send[to], b, PETSC_TRUE));
  }
  /* owned constraints (last step's, the warm starts): [tag 1][MbCon] */
  for (PetscInt k = 0; k < d->cs->ncon; k++) {
    PetscMPIInt to  = NewOwner(d, newowner, &d->cs->con[k]);
    char        tag = 1;
    if (to == d->rank) {
      d->cs->con[ckeep++] = d->cs->con[k];
      continue;
    }
    PetscCall(MbBufPut(&send[to], &tag, 1));
    PetscCall(MbBufPut(&send[to], &d->cs->con[k], sizeof(MbCon)));
  }
  d->cs->ncon = ckeep;
  PetscCall(MbExchange(d->comm, send, recv));
  /* leave: bodies that went away; the ghosts all go (rebuilt by the next refresh) */
  PetscCall(MbDomainGhostDestroy(d));
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody b = d->body[i];
    if (newowner[b->id] == d->rank) {
      d->body[nkeep++] = b;
      continue;
    }
    d->map.all[b->id] = NULL;
    PetscCall(MbBodyDestroy(&b));
  }
  d->nbody = nkeep;
  for (PetscInt id = 0; id < d->map.n; id++) nmoved += newowner[id] != d->map.owner[id]; /* the same on every rank */
  PetscCall(PetscArraycpy(d->map.owner, newowner, d->map.n));
  /* arrive: room for the constraints first (each record is a tag and an MbCon) */
  {
    PetscInt ncin = 0;
    for (PetscMPIInt r = 0; r < d->size; r++) {
      size_t pos = 0;
      if (r == d->rank) continue;
      while (pos < recv[r].n) {
        char tag;
        PetscCall(MbBufGet(&recv[r], &pos, &tag, 1));
        if (tag == 0) {
          size_t sz;
          PetscCall(MbBufGet(&recv[r], &pos, &sz, sizeof(size_t)));
          pos += sz;
        } else {
          ncin++;
          pos += sizeof(MbCon);
        }
      }
    }
    if (ncin) PetscCall(PetscRealloc(sizeof(MbCon) * (d->cs->ncon + ncin), &d->cs->con));
  }
  for (PetscMPIInt r = 0; r < d->size; r++) {
    size_t pos = 0;
    if (r == d->rank) continue;
    while (pos < recv[r].n) {
      char tag;
      PetscCall(MbBufGet(&recv[r], &pos, &tag, 1));
      if (tag == 0) {
        MbBody b;
        char   scheme[64];
        PetscCall(MbBufGetBody(&recv[r], &pos, &b, scheme));
        for (PetscInt l = 0; l < b->nload; l++) {
          PetscInt ref = b->load[l].ref;
          if (ref < 0) continue;
          PetscCheck(ref < d->ncb, PETSC_COMM_SELF, PETSC_ERR_PLIB, "body %" PetscInt_FMT " arrived with callback %" PetscInt_FMT " of %" PetscInt_FMT, b->id, ref, d->ncb);
          b->load[l].fn  = d->cb[ref].fn;
          b->load[l].ctx = d->cb[ref].ctx;
        }
        if (scheme[0]) {
          MbScheme sch;
          PetscCall(MbDomainGetScheme(d, scheme, &sch));
          PetscCall(MbBodySetScheme(b, sch));
        }
        if (d->nbody == d->cap) {
          d->cap = d->cap ? 2 * d->cap : 16;
          PetscCall(PetscRealloc(sizeof(MbBody) * d->cap, &d->body));
        }
        d->body[d->nbody++] = b;
        d->map.all[b->id]   = b;

      } else {
        MbCon *c = &d->cs->con[d->cs->ncon++];
        PetscCall(MbBufGet(&recv[r], &pos, c, sizeof(MbCon)));
        c->owner = d->rank;
        if (c->joint >= 0) MbV3Copy(c->R, d->cs->joint[c->joint].R);
      }
    }
  }
  if (d->nbody) qsort(d->body, (size_t)d->nbody, sizeof(MbBody), CompareBody);
  for (PetscMPIInt r = 0; r < d->size; r++) {
    PetscCall(MbBufFree(&send[r]));
    PetscCall(MbBufFree(&recv[r]));
  }
  PetscCall(PetscFree2(send, recv));
  /* rows, foreign records and W belong to the old partition */
  d->cs->nfor = d->cs->nfpen = d->cs->npen = 0;
  PetscCall(MbLocDynReset(d->ld));
  d->bal.nmigrated += nmoved;
  PetscFunctionReturn(PETSC_SUCCESS);
}
