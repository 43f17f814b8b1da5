/* Sparse all-to-all of byte buffers between ranks, the one communication pattern of the
   distributed domain (ghost refresh, constraint records, migration): each rank fills a
   buffer per destination; MPI_Alltoall tells every rank what it will receive, and the data
   moves by Isend/Irecv between the pairs that have something to say. The counts cost O(P)
   per rank; beyond some thousands of ranks a PetscCommBuildTwoSided-style discovery of
   neighbours would replace the Alltoall (doc/parallel.md). */
#include "exchange.h"

/* Room for len more bytes; the capacity doubles, so n puts cost O(n) copying in all. */
PetscErrorCode MbBufReserve(MbBuf *b, size_t len)
{
  PetscFunctionBegin;
  if (b->n + len > b->cap) {
    size_t cap = PetscMax(2 * b->cap, b->n + len + 256);
    PetscCall(PetscRealloc(cap, &b->buf));
    b->cap = cap;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBufPut(MbBuf *b, const void *src, size_t len)
{
  PetscFunctionBegin;
  PetscCall(MbBufReserve(b, len));
  if (len) memcpy(b->buf + b->n, src, len);
  b->n += len;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBufGet(MbBuf *b, size_t *pos, void *dst, size_t len)
{
  PetscFunctionBegin;
  PetscCheck(*pos + len <= b->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "message truncated: need %zu bytes at %zu of %zu", len, *pos, b->n);
  memcpy(dst, b->buf + *pos, len);
  *pos += len;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBufFree(MbBuf *b)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(b->buf));
  b->n = b->cap = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBufPutItem(MbBuf *b, PetscInt index, PetscBool accounted, PetscInt n, const PetscReal x[])
{
  const PetscReal head[2] = {(PetscReal)index, accounted ? 1 : 0};
  PetscFunctionBegin;
  PetscCall(MbBufPut(b, head, sizeof(head)));
  PetscCall(MbBufPut(b, x, (size_t)n * sizeof(PetscReal)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBufItemsRead(MbBuf *b, PetscInt n, PetscInt nitems, PetscErrorCode (*set)(void *, PetscInt, const PetscReal[]), void *ctx)
{
  const size_t rec = (size_t)(n + 2) * sizeof(PetscReal);
  PetscFunctionBegin;
  PetscCheck(b->n % rec == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the saved state has %zu bytes of items of %zu bytes each: not a whole number of them", b->n, rec);
  for (int pass = 0; pass < 2; pass++) /* the other ranks' copies, then the accounted ones */
    for (size_t pos = 0; pos < b->n; pos += rec) {
      PetscReal head[2];
      memcpy(head, b->buf + pos, sizeof(head));
      PetscCheck(head[0] >= 0 && head[0] < nitems, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "the saved state names item %g; there are %" PetscInt_FMT " (was it written by another deck?)", (double)head[0], nitems);
      if ((head[1] > 0.5) != (pass == 1)) continue;
      {
        PetscReal x[32];
        PetscCheck(n <= 32, PETSC_COMM_SELF, PETSC_ERR_PLIB, "items of %" PetscInt_FMT " numbers, at most 32", n);
        memcpy(x, b->buf + pos + sizeof(head), (size_t)n * sizeof(PetscReal));
        PetscCall(set(ctx, (PetscInt)head[0], x));
      }
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MbExchange when each rank already knows what it receives: rsize[r] bytes from rank r
   (the ghost states of a set both sides know). No MPI_Alltoall of the counts, only the
   neighbours talk, and each message is checked to be that long. rsize NULL: MbExchange. */
PetscErrorCode MbExchangeSized(MPI_Comm comm, MbBuf send[], MbBuf recv[], const size_t rsize[])
{
  PetscMPIInt  size, rank, *sc, *rc, *from, nreq = 0, nrecv;
  MPI_Request *req;
  MPI_Status  *st;
  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCallMPI(MPI_Comm_rank(comm, &rank));
  PetscCall(PetscMalloc5(size, &sc, size, &rc, size, &from, 2 * size, &req, 2 * size, &st));
  for (PetscMPIInt r = 0; r < size; r++) {
    PetscCheck(send[r].n < (size_t)PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "message of %zu bytes from rank %d to rank %d is too large for MPI", send[r].n, rank, r);
    sc[r] = r == rank ? 0 : (PetscMPIInt)send[r].n;
  }
  if (rsize)
    for (PetscMPIInt r = 0; r < size; r++) {
      PetscCheck(rsize[r] < (size_t)PETSC_MPI_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "message of %zu bytes from rank %d to rank %d is too large for MPI", rsize[r], r, rank);
      rc[r] = r == rank ? 0 : (PetscMPIInt)rsize[r];
    }
  else
    PetscCallMPI(MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, comm));
  for (PetscMPIInt r = 0; r < size; r++) {
    recv[r].n = 0;
    if (r == rank) { /* to oneself: a copy */
      PetscCall(MbBufPut(&recv[r], send[r].buf, send[r].n));
      continue;
    }
    if (rc[r]) {
      if ((size_t)rc[r] > recv[r].cap) {
        PetscCall(PetscRealloc((size_t)rc[r], &recv[r].buf));
        recv[r].cap = (size_t)rc[r];
      }
      recv[r].n  = (size_t)rc[r];
      from[nreq] = r;
      PetscCallMPI(MPI_Irecv(recv[r].buf, rc[r], MPI_BYTE, r, 71, comm, &req[nreq++]));
    }
  }
  nrecv = nreq;
  for (PetscMPIInt r = 0; r < size; r++)
    if (r != rank && sc[r]) PetscCallMPI(MPI_Isend(send[r].buf, sc[r], MPI_BYTE, r, 71, comm, &req[nreq++]));
  PetscCallMPI(MPI_Waitall(nreq, req, st));
  for (PetscMPIInt k = 0; rsize && k < nrecv; k++) { /* a longer message fails in MPI_Waitall */
    PetscMPIInt got;
    PetscCallMPI(MPI_Get_count(&st[k], MPI_BYTE, &got));
    PetscCheck(got == rc[from[k]], PETSC_COMM_SELF, PETSC_ERR_PLIB, "rank %d expected %d bytes from rank %d, got %d", rank, rc[from[k]], from[k], got);
  }
  for (PetscMPIInt r = 0; r < size; r++) send[r].n = 0;
  PetscCall(PetscFree5(sc, rc, from, req, st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbExchange(MPI_Comm comm, MbBuf send[], MbBuf recv[])
{
  PetscFunctionBegin;
  PetscCall(MbExchangeSized(comm, send, recv, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}
