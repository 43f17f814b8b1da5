/* The bodies by id as one rank sees them (ARCHITECTURE.md, "Parallel design"): every rank
   keeps, for every body id, its owner rank and whether it can move — 5 bytes a body — and a
   pointer to the body where this rank holds it (owned, or a read-only ghost). The domain
   keeps the table the same on every rank (src/domain/owner.c, migrate.c); the constraint
   set and the local dynamics read it to find a constraint's bodies and their owners. */
#ifndef MOREAU_BODYMAP_H
#define MOREAU_BODYMAP_H

#include <moreau/mbbody.h>

struct MbBodyMap {
  PetscInt     n;          /* ids known: 0 .. n−1 */
  PetscMPIInt *owner;      /* owner rank by id */
  char        *movable;    /* 1 unless an obstacle, by id */
  MbBody      *all;        /* by id: the owned body, its ghost here, or NULL */
  PetscMPIInt  rank, size; /* this rank, number of ranks */
};
typedef struct MbBodyMap MbBodyMap;

/* The owner of body id: from the table, or id mod size for a body created since it was
   last brought up to date (every new body starts there). */
static inline PetscMPIInt MbBodyMapOwner(const MbBodyMap *m, PetscInt id) { return id >= 0 && id < m->n ? m->owner[id] : (PetscMPIInt)(id % m->size); }
/* Whether id names a body (not the ground, −1) that moves. */
static inline PetscBool MbBodyMapMovable(const MbBodyMap *m, PetscInt id) { return id >= 0 && m->movable[id] ? PETSC_TRUE : PETSC_FALSE; }
/* The body whose owner owns a constraint between b0 and b1: the lowest-numbered movable
   one (b0 when neither moves). */
static inline PetscInt MbBodyMapConOwnerBody(const MbBodyMap *m, PetscInt b0, PetscInt b1)
{
  PetscInt id = -1, b[2] = {b0, b1};
  for (int k = 0; k < 2; k++)
    if (b[k] >= 0 && m->movable[b[k]] && (id < 0 || b[k] < id)) id = b[k];
  return id < 0 ? b0 : id;
}

#endif
