/* The crack criterion of the bodies' SIMPLIFIED_CRACK planes, judged after every step as
   Solfec-1.0 does (dom.c calls its crack propagation at the end of each step, after the
   time has advanced). Solfec then splits the body by the plane into two bodies; moreau
   cannot yet insert bodies during a run, so the first time a criterion is met the run
   stops on every rank with an error naming the body, the time, the plane and the stress —
   never going on as if the body had not cracked. The frames written so far, that of the
   cracking state included, reach the disk first. A run whose bodies have no crack planes
   pays one reduction per RUN and nothing per step. */
#include <moreau/mbmath.h>
#include "domainimpl.h"

PetscErrorCode MbDomainCrackPrepare(MbDomain d)
{
  PetscInt n = 0;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < d->nbody; i++) {
    PetscInt k;
    PetscCall(MbBodyGetCrackCount(d->body[i], &k));
    n += k;
  }
  PetscCallMPI(MPI_Allreduce(&n, &d->ncrack, 1, MPIU_INT, MPI_SUM, d->comm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainCrackCheck(MbDomain d)
{
  PetscInt  lid = PETSC_MAX_INT, gid, lk = -1;
  PetscReal lt = 0, lX[3] = {0, 0, 0}, v[12], g[12];
  MbBody    lb = NULL;
  PetscFunctionBegin;
  if (!d->ncrack) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < d->nbody; i++) { /* this rank's cracking body of least id */
    PetscInt  nc, k, id;
    PetscReal t, X[3];
    PetscCall(MbBodyGetCrackCount(d->body[i], &nc));
    if (!nc) continue;
    PetscCall(MbBodyCrackCheck(d->body[i], &k, &t, X));
    PetscCall(MbBodyGetId(d->body[i], &id));
    if (k >= 0 && id < lid) lid = id, lk = k, lt = t, lb = d->body[i], MbV3Copy(X, lX);
  }
  PetscCallMPI(MPI_Allreduce(&lid, &gid, 1, MPIU_INT, MPI_MIN, d->comm));
  if (gid == PETSC_MAX_INT) PetscFunctionReturn(PETSC_SUCCESS);
  /* the owner of that body tells the others what cracked: its numbers, zeros elsewhere */
  PetscCall(PetscArrayzero(v, 12));
  if (lid == gid) {
    PetscReal p[3], n[3], ft;
    PetscCall(MbBodyGetCrack(lb, lk, p, n, &ft));
    v[0] = (PetscReal)lk;
    v[1] = lt;
    v[2] = ft;
    for (int j = 0; j < 3; j++) v[3 + j] = p[j], v[6 + j] = n[j], v[9 + j] = lX[j];
  }
  PetscCallMPI(MPI_Allreduce(v, g, 12, MPIU_REAL, MPIU_SUM, d->comm));
  if (d->run.flush_fn) PetscCall(d->run.flush_fn(d, d->run.flush_ctx));
  SETERRQ(d->comm, PETSC_ERR_SUP,
          "body %" PetscInt_FMT " cracks at t = %g: the tensile stress normal to its crack plane (its SIMPLIFIED_CRACK number %d, through (%g, %g, %g) with normal (%g, %g, %g)) is %g at the referential point (%g, %g, %g), above ft = %g; moreau does "
          "not split a body during a run "
          "(Solfec-1.0 cuts it in two there), so the run stops here, with the frames up to this step written",
          gid, (double)d->t, (int)g[0] + 1, (double)g[3], (double)g[4], (double)g[5], (double)g[6], (double)g[7], (double)g[8], (double)g[1], (double)g[9], (double)g[10], (double)g[11], (double)g[2]);
}
