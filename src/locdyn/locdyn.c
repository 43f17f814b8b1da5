/* Local dynamics (seed 001): U = B + W R with B = H u_free and W = h H A⁻¹ Hᵀ, as a PETSc
   matrix of 3×3 blocks. Each body's owner computes the blocks its body contributes,
   W_αβ += h s_α s_β H_α A⁻¹ H_βᵀ for every pair of constraints α, β on it (s = +1 for the
   master, −1 for the slave), and inserts them with MatSetValuesBlocked; PETSc's assembly
   moves blocks to the ranks owning their rows. The matrix is kept while the constraint
   graph (the bodies of every row) does not change. After the solve every body owner adds
   h A⁻¹ Hᵀ R of its constraints to the free velocity (ARCHITECTURE.md, step 5). */
#include <moreau/mbmath.h>
#include "../domain/domainimpl.h"
#include "../body/bodyimpl.h"

static PetscBool Movable(MbDomain d, PetscInt id) { return id >= 0 && d->all[id]->kind != MB_BODY_OBSTACLE; }

PetscErrorCode MbDomainLocDynDestroy(MbDomain d)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&d->W));
  PetscCall(VecDestroy(&d->B));
  PetscCall(VecDestroy(&d->R));
  PetscCall(VecDestroy(&d->U));
  PetscCall(PetscFree(d->law));
  PetscCall(PetscFree(d->wkey));
  d->nwkey = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Constraints touching each movable body: CSR over body ids (ptr has nall+1 entries). */
static PetscErrorCode BodyAdjacency(MbDomain d, PetscInt **ptr, PetscInt **adj)
{
  PetscInt *p, *a;
  PetscFunctionBegin;
  PetscCall(PetscCalloc1(d->nall + 1, &p));
  for (PetscInt k = 0; k < d->ncon; k++)
    for (int m = 0; m < 2; m++)
      if (Movable(d, d->con[k].body[m]) && (m == 0 || d->con[k].body[1] != d->con[k].body[0])) p[d->con[k].body[m] + 1]++;
  for (PetscInt i = 0; i < d->nall; i++) p[i + 1] += p[i];
  PetscCall(PetscMalloc1(p[d->nall] + 1, &a));
  for (PetscInt k = 0; k < d->ncon; k++)
    for (int m = 0; m < 2; m++)
      if (Movable(d, d->con[k].body[m]) && (m == 0 || d->con[k].body[1] != d->con[k].body[0])) a[p[d->con[k].body[m]]++] = k;
  for (PetscInt i = d->nall; i > 0; i--) p[i] = p[i - 1];
  p[0] = 0;
  *ptr = p;
  *adj = a;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A new matrix preallocated for the current graph. */
static PetscErrorCode CreateW(MbDomain d, const PetscInt ptr[], const PetscInt adj[])
{
  PetscInt  nloc = d->rend - d->rstart, *dnz, *onz, *mark;
  PetscFunctionBegin;
  PetscCall(MbDomainLocDynDestroy(d));
  PetscCall(PetscCalloc3(nloc + 1, &dnz, nloc + 1, &onz, d->ncon, &mark));
  for (PetscInt k = 0; k < d->ncon; k++) mark[k] = -1;
  for (PetscInt r = d->rstart; r < d->rend; r++) {
    for (int m = 0; m < 2; m++) {
      PetscInt b = d->con[r].body[m];
      if (!Movable(d, b)) continue;
      for (PetscInt j = ptr[b]; j < ptr[b + 1]; j++) {
        PetscInt c = adj[j];
        if (mark[c] == r) continue;
        mark[c] = r;
        if (c >= d->rstart && c < d->rend) dnz[r - d->rstart]++;
        else onz[r - d->rstart]++;
      }
    }
    if (mark[r] != r) dnz[r - d->rstart]++; /* a row of obstacles only still has its diagonal */
  }
  PetscCall(MatCreateBAIJ(d->comm, 3, 3 * nloc, 3 * nloc, 3 * d->ncon, 3 * d->ncon, 0, dnz, 0, onz, &d->W));
  PetscCall(MatSetOption(d->W, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  PetscCall(PetscFree3(dnz, onz, mark));
  PetscCall(MatCreateVecs(d->W, &d->R, &d->B));
  PetscCall(VecDuplicate(d->B, &d->U));
  PetscCall(PetscMalloc1(nloc + 1, &d->law));
  /* the structure: the two bodies of every row */
  PetscCall(PetscMalloc1(2 * d->ncon + 1, &d->wkey));
  d->nwkey = 2 * d->ncon;
  for (PetscInt k = 0; k < d->ncon; k++) {
    d->wkey[2 * k]     = d->con[k].body[0];
    d->wkey[2 * k + 1] = d->con[k].body[1];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool SameGraph(MbDomain d)
{
  if (!d->W || d->nwkey != 2 * d->ncon) return PETSC_FALSE;
  for (PetscInt k = 0; k < d->ncon; k++)
    if (d->wkey[2 * k] != d->con[k].body[0] || d->wkey[2 * k + 1] != d->con[k].body[1]) return PETSC_FALSE;
  return PETSC_TRUE;
}

PetscErrorCode MbDomainLocDyn(MbDomain d)
{
  PetscInt  *ptr = NULL, *adj = NULL;
  PetscInt   rebuild, any;
  PetscFunctionBegin;
  if (!d->ncon) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(BodyAdjacency(d, &ptr, &adj));
  /* the graph is replicated, so every rank decides alike; the reduction makes sure that the
     collective matrix creation is entered by all or none */
  rebuild = SameGraph(d) ? 0 : 1;
  PetscCallMPI(MPI_Allreduce(&rebuild, &any, 1, MPIU_INT, MPI_MAX, d->comm));
  if (any) PetscCall(CreateW(d, ptr, adj));
  else PetscCall(MatZeroEntries(d->W));
  /* blocks of each owned movable body */
  for (PetscInt i = 0; i < d->nbody; i++) {
    MbBody   b = d->body[i];
    PetscInt id = b->id, deg = ptr[id + 1] - ptr[id];
    if (b->kind == MB_BODY_OBSTACLE || !deg) continue;
    PetscReal *Hb, *Gb; /* per constraint on b: s·H (3×6) and A⁻¹(s·H)ᵀ (6×3) */
    PetscCall(PetscMalloc2(18 * deg, &Hb, 18 * deg, &Gb));
    for (PetscInt j = 0; j < deg; j++) {
      MbCon    *c = &d->con[adj[ptr[id] + j]];
      int       m = c->body[0] == id ? 0 : 1;
      PetscReal s = m ? -1.0 : 1.0, col[6], out[6];
      PetscCall(b->ops->operator_h(b, c->X[m], c->base, &Hb[18 * j]));
      for (int k = 0; k < 18; k++) Hb[18 * j + k] *= s;
      for (int r = 0; r < 3; r++) {
        for (int k = 0; k < 6; k++) col[k] = Hb[18 * j + 6 * r + k];
        PetscCall(b->ops->inverse(b, col, out));
        for (int k = 0; k < 6; k++) Gb[18 * j + 3 * k + r] = out[k];
      }
    }
    for (PetscInt j = 0; j < deg; j++)
      for (PetscInt l = 0; l < deg; l++) {
        PetscReal blk[9];
        PetscInt  rj = adj[ptr[id] + j], rl = adj[ptr[id] + l];
        for (int r = 0; r < 3; r++)
          for (int c = 0; c < 3; c++) {
            PetscReal sum = 0;
            for (int k = 0; k < 6; k++) sum += Hb[18 * j + 6 * r + k] * Gb[18 * l + 3 * k + c];
            blk[3 * r + c] = d->h * sum;
          }
        PetscCall(MatSetValuesBlocked(d->W, 1, &rj, 1, &rl, blk, ADD_VALUES));
      }
    PetscCall(PetscFree2(Hb, Gb));
  }
  /* rows with obstacles only (a joint to an obstacle): keep the diagonal in the pattern */
  for (PetscInt r = d->rstart; r < d->rend; r++)
    if (!Movable(d, d->con[r].body[0]) && !Movable(d, d->con[r].body[1])) {
      PetscReal zero[9] = {0};
      PetscCall(MatSetValuesBlocked(d->W, 1, &r, 1, &r, zero, ADD_VALUES));
    }
  PetscCall(PetscFree(ptr));
  PetscCall(PetscFree(adj));
  PetscCall(MatAssemblyBegin(d->W, MAT_FINAL_ASSEMBLY));
  /* B = H u_free, the warm start and the laws of the owned rows, meanwhile */
  {
    PetscReal *Ba, *Ra;
    PetscCall(VecGetArray(d->B, &Ba));
    PetscCall(VecGetArray(d->R, &Ra));
    for (PetscInt r = d->rstart; r < d->rend; r++) {
      MbCon *c = &d->con[r];
      MbBody bb[2];
      for (int m = 0; m < 2; m++) bb[m] = c->body[m] >= 0 ? d->all[c->body[m]] : NULL;
      PetscCall(MbConVelocity(c, bb, PETSC_FALSE, &Ba[3 * (r - d->rstart)]));
      for (int k = 0; k < 3; k++) Ra[3 * (r - d->rstart) + k] = c->R[k];
      d->law[r - d->rstart] = c->law;
    }
    PetscCall(VecRestoreArray(d->B, &Ba));
    PetscCall(VecRestoreArray(d->R, &Ra));
  }
  PetscCall(MatAssemblyEnd(d->W, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* u += h A⁻¹(±Hᵀ R) of constraint c on its owned movable bodies (+ master, − slave). */
static PetscErrorCode ApplyReaction(MbDomain d, const MbCon *c)
{
  PetscFunctionBegin;
  for (int m = 0; m < 2; m++) {
    PetscInt    id = c->body[m];
    PetscMPIInt owner;
    if (!Movable(d, id) || (m == 1 && id == c->body[0])) continue;
    PetscCall(MbDomainOwnerRank(d, id, &owner));
    if (owner != d->rank) continue;
    MbBody    b = d->all[id];
    PetscReal H[18], f[6] = {0}, du[6], s = m ? -d->h : d->h;
    PetscCall(b->ops->operator_h(b, c->X[m], c->base, H));
    for (int r = 0; r < 3; r++)
      for (int j = 0; j < 6; j++) f[j] += H[6 * r + j] * c->R[r];
    PetscCall(b->ops->inverse(b, f, du));
    for (int j = 0; j < 6; j++) b->u[j] += s * du[j];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Every rank gets the whole of v (3 reals per constraint) into out[k].field. */
static PetscErrorCode GatherAll(MbDomain d, Vec v, PetscReal *all)
{
  PetscMPIInt       *counts, *displs, n;
  const PetscScalar *a;
  PetscFunctionBegin;
  PetscCall(PetscMalloc2(d->size, &counts, d->size + 1, &displs));
  n = (PetscMPIInt)(3 * (d->rend - d->rstart));
  PetscCallMPI(MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, d->comm));
  displs[0] = 0;
  for (int r = 0; r < d->size; r++) displs[r + 1] = displs[r] + counts[r];
  PetscCall(VecGetArrayRead(v, &a));
  PetscCallMPI(MPI_Allgatherv(a, n, MPIU_REAL, all, counts, displs, MPIU_REAL, d->comm));
  PetscCall(VecRestoreArrayRead(v, &a));
  PetscCall(PetscFree2(counts, displs));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainConstraintSolve(MbDomain d)
{
  PetscReal *Rall, *Uall;
  PetscBool  converged = PETSC_TRUE;
  PetscFunctionBegin;
  d->solver_iterations = 0;
  d->solver_error      = 0;
  if (!d->ncon) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbSolverSolve(d->solver, d->W, d->B, d->law, d->R, d->U));
  PetscCall(MbSolverGetStats(d->solver, &d->solver_iterations, &d->solver_error, &converged));
  if (!converged) {
    d->solver_failures++;
    PetscCheck(d->failure != 1, d->comm, PETSC_ERR_NOT_CONVERGED, "constraint solver did not converge at t = %g: error %g after %" PetscInt_FMT " iterations (%" PetscInt_FMT " constraints; failure = 'EXIT')", (double)d->t, (double)d->solver_error, d->solver_iterations, d->ncon);
    if (d->failure == 2 && d->failure_fn) PetscCall(d->failure_fn(d, d->failure_ctx));
  }
  PetscCall(PetscMalloc2(3 * d->ncon, &Rall, 3 * d->ncon, &Uall));
  PetscCall(GatherAll(d, d->R, Rall));
  PetscCall(GatherAll(d, d->U, Uall));
  for (PetscInt k = 0; k < d->ncon; k++) {
    MbCon *c = &d->con[k];
    for (int m = 0; m < 3; m++) {
      c->R[m] = Rall[3 * k + m];
      c->U[m] = Uall[3 * k + m];
    }
    if (c->joint >= 0) MbV3Copy(c->R, d->joint[c->joint].R);
    /* work of the reaction over the step, h R·(V + U)/2 (exact for an impulse on a body
       whose inertia is constant in the frame where u lives); friction dissipates −tangential */
    if (c->owner == d->rank) {
      d->work_contact += 0.5 * d->h * c->R[2] * (c->V[2] + c->U[2]);
      d->work_friction -= 0.5 * d->h * (c->R[0] * (c->V[0] + c->U[0]) + c->R[1] * (c->V[1] + c->U[1]));
    }
    PetscCall(ApplyReaction(d, c));
  }
  PetscCall(PetscFree2(Rall, Uall));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PENALTY_SOLVER's contacts: their forces are known, so each body owner adds h A⁻¹(±Hᵀ R)
   to the free velocity before the joints are solved (their B then includes it). The work
   is h R·V with V at the start of the step (explicit, as the force). */
PetscErrorCode MbDomainApplyPenalty(MbDomain d)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < d->npen; k++) {
    MbCon *c = &d->pen[k];
    if (c->owner == d->rank) {
      d->work_contact += d->h * c->R[2] * c->V[2];
      d->work_friction -= d->h * (c->R[0] * c->V[0] + c->R[1] * c->V[1]);
    }
    PetscCall(ApplyReaction(d, c));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
