/* Byte buffers and the sparse all-to-all that moves them between ranks (exchange.c): the one
   communication pattern of the distributed run (ghost refresh, constraint records,
   migration). Not public: the parts of the library share it. */
#ifndef MOREAU_EXCHANGE_H
#define MOREAU_EXCHANGE_H

#include <moreau/mbsys.h>

/* A growing byte buffer: one message. */
typedef struct {
  char  *buf;
  size_t n, cap;
} MbBuf;

/* Room for len more bytes (the capacity doubles: n puts cost O(n) copying in all). */
PETSC_INTERN PetscErrorCode MbBufReserve(MbBuf *, size_t len);
/* Append len bytes; read len bytes at *pos (advanced), an error past the end. */
PETSC_INTERN PetscErrorCode MbBufPut(MbBuf *, const void *, size_t);
PETSC_INTERN PetscErrorCode MbBufGet(MbBuf *, size_t *, void *, size_t);
PETSC_INTERN PetscErrorCode MbBufFree(MbBuf *);
/* Numbered items every rank holds a copy of, one rank's copy authoritative (the rank that
   accounts the item: a joint's or spring's last reaction): each copy saved as its index, a
   flag "accounted" and n reals. MbBufItemsRead applies the copies of other ranks first and
   the accounted ones last, so where a checkpoint gathered every rank's copies the accounted
   one wins, and a rank's own saved copies all come back after a step rejection. */
PETSC_INTERN PetscErrorCode MbBufPutItem(MbBuf *, PetscInt index, PetscBool accounted, PetscInt n, const PetscReal x[]);
PETSC_INTERN PetscErrorCode MbBufItemsRead(MbBuf *, PetscInt n, PetscInt nitems, PetscErrorCode (*set)(void *ctx, PetscInt index, const PetscReal x[]), void *ctx);
/* Sparse all-to-all: send[size] emptied, recv[size] filled (collective). The sized form
   takes the byte counts each rank will receive when the caller knows them already. */
PETSC_INTERN PetscErrorCode MbExchange(MPI_Comm, MbBuf[], MbBuf[]);
PETSC_INTERN PetscErrorCode MbExchangeSized(MPI_Comm, MbBuf[], MbBuf[], const size_t[]);

#endif
