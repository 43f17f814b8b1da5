/* Topological adjacency of two primitives of one shape, for self-contact (Solfec-1.0's
   ELEMENT_Adjacent and CONVEX_Adjacent behaviour, which its box.c uses to leave such pairs
   out): neighbours in a body touch along what they share, which is no contact. */
#include <moreau/mbmath.h>
#include "shapeimpl.h"

PetscBool MbShapePrimsAdjacent(MbShape s, PetscInt i, PetscInt j, PetscReal eps)
{
  const MbPrim *p = &s->prim[i], *q = &s->prim[j];
  if (i == j) return PETSC_TRUE;
  if (s->mesh) { /* elements of one mesh: a shared node */
    const MbMesh *m = s->mesh;
    for (PetscInt a = m->eptr[i]; a < m->eptr[i + 1]; a++)
      for (PetscInt b = m->eptr[j]; b < m->eptr[j + 1]; b++)
        if (m->enode[a] == m->enode[b]) return PETSC_TRUE;
    return PETSC_FALSE;
  }
  if (p->kind != MB_PRIM_CONVEX || q->kind != MB_PRIM_CONVEX) return PETSC_FALSE; /* a sphere shares nothing */
  /* pieces of a compound shape: a shared vertex (the same point within eps) */
  for (PetscInt a = 0; a < p->nv; a++)
    for (PetscInt b = 0; b < q->nv; b++) {
      PetscReal d[3];
      MbV3Sub(&p->v[3 * a], &q->v[3 * b], d);
      if (MbV3Dot(d, d) <= eps * eps) return PETSC_TRUE;
    }
  return PETSC_FALSE;
}
