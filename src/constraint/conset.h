/* The constraint set (ARCHITECTURE.md, constraint/): the rows of a step's local dynamics —
   joints given by the deck, the stops of springs, contacts found by detection — and the
   contacts that the contact model makes forces instead of rows. It owns their records,
   their order and global numbering (a rank's rows are rstart .. rend−1, sorted by a key of
   bodies, primitives and feature), the sharing of each record with the owners of its other
   bodies, the persistence of contacts from one step to the next (warm start, tangent frame)
   and their restitution, the joints and surface materials of the deck, and the contact
   model. Detection (src/domain/detect.c) finds pairs and points and hands them here; the
   local dynamics (src/locdyn/) forms W and B over the rows. Not public: the domain and the
   local dynamics read the layout (the output through the domain's constraint queries). */
#ifndef MOREAU_CONSET_H
#define MOREAU_CONSET_H

#include <moreau/mbcontactmodel.h>
#include "constraint.h"
#include "../body/bodymap.h"
#include "../core/exchange.h"

typedef struct _p_MbConSet *MbConSet;

/* A contact of last step by key, to find a new contact's predecessor (warm start, frame). */
typedef struct {
  PetscInt key[5]; /* body[0], body[1], prim[0], prim[1], feature */
  PetscInt con;    /* index in last step's list */
} MbConOldKey;

struct _p_MbConSet {
  MPI_Comm       comm;       /* all ranks of the run */
  PetscMPIInt    rank, size; /* this rank, number of ranks */
  PetscInt       njoint;     /* joints given by the deck, on every rank */
  MbJoint       *joint;
  PetscInt       nmat; /* surface materials */
  MbSurfMat     *mat;
  MbContactModel contact;      /* what a contact becomes: a row of W or a force (PENALTY_SOLVER) */
  PetscInt       ncon;         /* rows this rank owns this step, sorted by key; global rows rstart.. */
  MbCon         *con;          /* (their records: W blocks, reactions, warm starts) */
  PetscInt       nfor;         /* rows other ranks own that touch this rank's bodies */
  MbCon         *fcon;         /* (copies of their records, row numbers included) */
  PetscInt       npen;         /* contacts the model makes forces, owned here (no rows of W) */
  MbCon         *pen;          /* (in the broad phase's pair order: their forces are summed so) */
  PetscInt       nfpen;        /* the same of other ranks on this rank's bodies */
  MbCon         *fpen;         /* (copies) */
  PetscInt       nconglobal;   /* rows on all ranks */
  PetscInt       rstart, rend; /* block rows this rank owns */
  PetscInt       ncontacts;    /* contacts (not joints) this rank owns, force contacts included */
  /* the step being built (MbConSetBegin .. MbConSetEnd) */
  PetscInt     nnew, cap; /* rows made so far and room */
  MbCon       *list;
  PetscInt     nnewpen, pcap; /* force contacts made so far and room */
  MbCon       *newpen;
  PetscInt     nold, oldnext; /* last step's contacts by key (MbConOldKey), where the last query ended */
  MbConOldKey *old;
};

/** Create an empty set (the contact model: signorini_coulomb). Collective on comm. */
PETSC_INTERN PetscErrorCode MbConSetCreate(MPI_Comm comm, MbConSet *cs);
PETSC_INTERN PetscErrorCode MbConSetDestroy(MbConSet *cs);
/** Read the contact model's options. Collective. */
PETSC_INTERN PetscErrorCode MbConSetSetFromOptions(MbConSet cs);
/** Whether contacts become rows of W (and come in key order), not forces known before the solve. */
PETSC_INTERN PetscBool MbConSetContactRows(MbConSet cs);

/** Begin a step's rows (the last step's stay until MbConSetEnd). Not collective. */
PETSC_INTERN PetscErrorCode MbConSetBegin(MbConSet cs);
/** Before the contacts: room for npairs more (a point per pair), and the last step's
    contacts indexed by key for persistence. */
PETSC_INTERN PetscErrorCode MbConSetReserve(MbConSet cs, PetscInt npairs);
/** A new row (joints, spring stops) appended in key order; *c points into the set until the
    next append. */
PETSC_INTERN PetscErrorCode MbConSetPushRow(MbConSet cs, MbCon **c);
/** The rows of the joints this rank owns at time t (prescribed velocities at t + h), by
    joint number: the first rows of a step. A joint on an obstacle alone makes none (it
    prescribes the obstacle's motion, src/domain/drive.c). */
PETSC_INTERN PetscErrorCode MbConSetAddJoints(MbConSet cs, const MbBodyMap *map, PetscReal t, PetscReal h);
/** A contact point found by the narrow phase between body[0] (the master) and body[1] (the
    slave; both held here, map->all), on their primitives prim and surfaces surf, with its
    feature, gap, spatial point and normal (from the slave towards the master): its record,
    the predecessor's warm start and frame, the material, the restitution bias and — when
    the model makes forces — its force. Contacts that are rows come in key order. */
PETSC_INTERN PetscErrorCode MbConSetAddContact(MbConSet cs, const MbBodyMap *map, const PetscInt body[2], const PetscInt prim[2], const PetscInt surf[2], PetscInt feature, PetscReal gap, const PetscReal point[3], const PetscReal normal[3]);
/** End the step's rows: velocities at the start for the joints, counts, the global
    numbering, and every record shared with the owners of its other bodies. Collective. */
PETSC_INTERN PetscErrorCode MbConSetEnd(MbConSet cs, const MbBodyMap *map);
/** The saved state (setstate.c, for src/domain/component.c): the joints' resolved points and
    last reactions (every rank's copy, the row owner's accounted), and the rows this rank
    owns (warm starts). Restoring rows keeps those this rank owns among nrec ranks' records. */
PETSC_INTERN PetscErrorCode MbConSetSaveJoints(MbConSet cs, const MbBodyMap *map, MbBuf *b);
PETSC_INTERN PetscErrorCode MbConSetRestoreJoints(MbConSet cs, MbBuf *b);
PETSC_INTERN PetscErrorCode MbConSetSaveRows(MbConSet cs, MbBuf *b);
PETSC_INTERN PetscErrorCode MbConSetRestoreRows(MbConSet cs, const MbBodyMap *map, MbBuf *b, PetscInt nrec);
/** Lexicographic order of n keys. */
static inline int MbCompareKeys(PetscInt n, const PetscInt a[], const PetscInt b[])
{
  for (PetscInt k = 0; k < n; k++)
    if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
  return 0;
}
/** The row of local index k: owned rows first, then the other ranks' rows on this rank's bodies. */
static inline MbCon *MbConSetRow(MbConSet cs, PetscInt k) { return k < cs->ncon ? &cs->con[k] : &cs->fcon[k - cs->ncon]; }

#endif
