/* LOCDYN_DUMP: the last step's local dynamics as text, one line per constraint (Solfec-1.0's
   LOCDYN_Dump, ldy.c, gives the layout): its kind, spatial point, master and slave body
   ids (−1: none), local frame (9 numbers, row-major, the normal third column), diagonal
   block W_ii (9, row-major), B_i, V_i (relative velocity at the step's start), U_i (at its
   end) and R_i (reaction), then for each off-diagonal block of its row " => #j [W_ij]":
   the other constraint's global row j and the block (Solfec names the other constraint by
   its kind, point, bodies and frame; its line is the one that starts "#j"). Lines start
   "#i" with the global row; rank 0 writes the file, rows in order. */
#include "domainimpl.h"
#include "../constraint/conset.h"

typedef struct {
  PetscInt  col; /* block column */
  PetscReal W[9];
} Block;

/* The blocks of block row i of W (assembled BAIJ, rows of this rank): blk[0] the diagonal. */
static PetscErrorCode RowBlocks(Mat W, PetscInt i, PetscInt *nb, Block **blk, PetscInt *cap)
{
  PetscFunctionBegin;
  *nb = 1;
  PetscCall(PetscArrayzero((*blk)[0].W, 9));
  (*blk)[0].col = i;
  for (int r = 0; r < 3; r++) {
    PetscInt           nc;
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscCall(MatGetRow(W, 3 * i + r, &nc, &cols, &vals));
    for (PetscInt k = 0; k < nc; k++) {
      PetscInt bc = cols[k] / 3, m = 0;
      while (m < *nb && (*blk)[m].col != bc) m++;
      if (m == *nb) {
        if (*nb == *cap) {
          *cap *= 2;
          PetscCall(PetscRealloc(sizeof(Block) * (size_t)*cap, blk));
        }
        (*blk)[m].col = bc;
        PetscCall(PetscArrayzero((*blk)[m].W, 9));
        (*nb)++;
      }
      (*blk)[m].W[3 * r + cols[k] % 3] += PetscRealPart(vals[k]);
    }
    PetscCall(MatRestoreRow(W, 3 * i + r, &nc, &cols, &vals));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbDomainLocDynDump(MbDomain d, const char path[])
{
  Mat                W;
  Vec                B;
  FILE              *f;
  const PetscScalar *b   = NULL;
  PetscInt           cap = 16, rstart = 0;
  Block             *blk;
  MbConSet           cs = d->cs;
  PetscFunctionBegin;
  PetscCall(MbLocDynGetSystem(d->ld, &W, &B, NULL, NULL, NULL));
  PetscCall(PetscFOpen(d->comm, path, "w", &f)); /* rank 0 opens; an error names the path */
  PetscCall(PetscMalloc1(cap, &blk));
  if (W && B) {
    PetscCall(MatGetOwnershipRange(W, &rstart, NULL));
    PetscCall(VecGetArrayRead(B, &b));
    for (PetscInt i = 0; i < cs->ncon; i++) {
      const MbCon     *c = &cs->con[i];
      const PetscReal *e = c->base, *w;
      const PetscInt   l = 3 * c->row - rstart; /* the row's entries of B */
      PetscInt         nb;
      PetscCheck(l >= 0 && l + 3 <= 3 * cs->ncon, PETSC_COMM_SELF, PETSC_ERR_PLIB, "LOCDYN_DUMP: constraint row %" PetscInt_FMT " is not among this rank's rows", c->row);
      PetscCall(RowBlocks(W, c->row, &nb, &blk, &cap));
      w = blk[0].W;
      PetscCall(PetscSynchronizedFPrintf(
          d->comm, f,
          "#%" PetscInt_FMT " %s (%.6g, %.6g, %.6g) (%" PetscInt_FMT ", %" PetscInt_FMT ") [%.6g, %.6g, %.6g, %.6g, %.6g, %.6g, %.6g, %.6g, %.6g] [%.6g, %.6g, %.6g, %.6g, %.6g, %.6g, %.6g, %.6g, %.6g] (%.6g, %.6g, %.6g) "
          "(%.6g, %.6g, %.6g) (%.6g, %.6g, %.6g) (%.6g, %.6g, %.6g)",
          c->row, MbConKindNames[c->kind], (double)c->point[0], (double)c->point[1], (double)c->point[2], c->body[0], c->body[1], (double)e[0], (double)e[1], (double)e[2], (double)e[3], (double)e[4], (double)e[5], (double)e[6], (double)e[7],
          (double)e[8], (double)w[0], (double)w[1], (double)w[2], (double)w[3], (double)w[4], (double)w[5], (double)w[6], (double)w[7], (double)w[8], (double)PetscRealPart(b[l]), (double)PetscRealPart(b[l + 1]), (double)PetscRealPart(b[l + 2]),
          (double)c->V[0], (double)c->V[1], (double)c->V[2], (double)c->U[0], (double)c->U[1], (double)c->U[2], (double)c->R[0], (double)c->R[1], (double)c->R[2]));
      for (PetscInt k = 1; k < nb; k++) {
        w = blk[k].W;
        PetscCall(PetscSynchronizedFPrintf(d->comm, f, " => #%" PetscInt_FMT " [%.6g, %.6g, %.6g, %.6g, %.6g, %.6g, %.6g, %.6g, %.6g]", blk[k].col, (double)w[0], (double)w[1], (double)w[2], (double)w[3], (double)w[4], (double)w[5], (double)w[6],
                                           (double)w[7], (double)w[8]));
      }
      PetscCall(PetscSynchronizedFPrintf(d->comm, f, "\n"));
    }
    PetscCall(VecRestoreArrayRead(B, &b));
  }
  PetscCall(PetscSynchronizedFlush(d->comm, f));
  PetscCall(PetscFree(blk));
  PetscCall(PetscFClose(d->comm, f));
  PetscFunctionReturn(PETSC_SUCCESS);
}
