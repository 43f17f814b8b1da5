/* The body as the step's per-body loops outside src/body/ see it (the force path, the
   force schemes, step rejection, checkpoints, adaptive measurements): a view of its state
   arrays, as PETSc's VecGetArray is of a Vec, and the few per-body operations those loops
   apply. The view is the contract; the struct layout (bodyimpl.h) stays private to
   src/body/. The functions that run once per body per step are static inline, so a loop
   costs what it cost when it read the fields itself; that is also why this header
   includes the layout. */
#ifndef MOREAU_BODYVIEW_H
#define MOREAU_BODYVIEW_H

#include "bodyimpl.h"

/* Borrowed pointers into the body and a copy of the numbers a loop reads: the arrays stay
   valid while the body lives on this rank (migration makes a new body), the numbers until
   the body changes them. Writing through the arrays sets the body's state. */
typedef struct {
  PetscInt         id;     /* global id (messages) */
  PetscInt         nq, nu; /* sizes of q and u */
  PetscReal       *q, *u;  /* configuration and velocity */
  PetscReal       *q0;     /* configuration at the start of the step (scheme scratch) */
  PetscReal       *u0;     /* velocity at the start of the step (scheme scratch) */
  PetscReal       *fext;   /* external force of this step, for the work (scheme scratch) */
  PetscReal       *force;  /* generalized force at the current state (force path) */
  PetscReal       *acc;    /* force schemes: 3 nu, A⁻¹f at the current state, then two scheme history vectors; NULL where the body has none */
  PetscBool        accok;  /* acc[0..nu) belongs to the current state */
  MbScheme         scheme; /* time integrator, or NULL (obstacles, ghosts) */
  PetscReal        mass;   /* mass */
  const PetscReal *center; /* referential mass centre X̄ (3) */
} MbBodyView;

/* The view of body b. Not collective. */
static inline PetscErrorCode MbBodyGetView(MbBody b, MbBodyView *v)
{
  *v = (MbBodyView){.id = b->id, .nq = b->nq, .nu = b->nu, .q = b->q, .u = b->u, .q0 = b->q0, .u0 = b->u0, .fext = b->fext, .force = b->force, .acc = b->acc, .accok = b->accok, .scheme = b->scheme, .mass = b->mp.mass, .center = b->mp.center};
  return PETSC_SUCCESS;
}

/* Whether a step integrates the body: it moves and has a scheme. */
static inline PetscBool MbBodyIsIntegrated(MbBody b) { return MbBodyIsMovable(b) && b->scheme; }

/* Force schemes: a = A⁻¹(f − gyroscopic) at the body's current u (the kind's acceleration op). */
static inline PetscErrorCode MbBodyAcceleration(MbBody b, const PetscReal f[], PetscReal a[]) { return b->ops->acceleration(b, f, a); }

/* Force schemes: q = q0 ⊕ Δ, the kind's advance op (exp map for rotations; q may be q0). */
static inline PetscErrorCode MbBodyAdvance(MbBody b, const PetscReal q0[], const PetscReal d[], PetscReal q[]) { return b->ops->advance(b, q0, d, q); }

/* Whether velocity u_j is a length per time (a point's velocity) rather than an angular or
   strain rate: the curvature's length scale applies to it. */
static inline PetscBool MbBodyIsLengthDof(MbBody b, PetscInt j) { return !b->ops->length_dof || b->ops->length_dof(b, j); }

/* The work of the external forces over a step of size h, h fext·(u0 + u)/2 (fext the step's
   external force, u0 and u the velocities at its start and end), added to the body's. */
static inline void MbBodyAddStepWork(MbBody b, PetscReal h)
{
  PetscReal p = 0;
  for (PetscInt i = 0; i < b->nu; i++) p += b->fext[i] * 0.5 * (b->u0[i] + b->u[i]);
  b->work += h * p;
}

/* stepstate.c: what a step changes of the body and later steps read (q, u, the external work,
   the force schemes' acceleration history and whether it is current), for step rejection:
   its count, a copy into x, and the body's state back from such a copy. Not collective. */
PETSC_INTERN PetscErrorCode MbBodyStateSize(MbBody, PetscInt *n);
PETSC_INTERN PetscErrorCode MbBodyStateSave(MbBody, PetscReal x[]);
PETSC_INTERN PetscErrorCode MbBodyStateRestore(MbBody, const PetscReal x[]);

/* stepstate.c: the start of a step, which the step schemes keep: q0 ← q, u0 ← u. */
PETSC_INTERN PetscErrorCode MbBodyStepStart(MbBody);

/* stepstate.c: force schemes, at a state whose acceleration is not current (the first step, a
   restart without it): a* = A⁻¹f from the body's force, which becomes both history vectors
   as well (a history starts from the current acceleration). */
PETSC_INTERN PetscErrorCode MbBodyAccelerationStart(MbBody);

/* stepstate.c: a body's checkpoint record: a head of MB_BODY_RECORD_HEAD numbers (nq, nu, nacc
   (3 nu or 0), accok, nextra, nkind), then q, u, the external work, the force scheme's
   acceleration history (nacc), the caller's nextra numbers about the body (the adaptive
   runs' last acceleration) and the kind's own state (nkind: the body op state_get, such as
   DEF_LIM's factor). Size, write r (MbBodyRecordSize numbers), and read a record of len
   numbers back into the body, with where the caller's numbers are in it. Not collective. */
#define MB_BODY_RECORD_HEAD 6
PETSC_INTERN PetscErrorCode MbBodyRecordSize(MbBody, PetscInt nextra, PetscInt *len);
PETSC_INTERN PetscErrorCode MbBodyRecordWrite(MbBody, PetscInt nextra, const PetscReal extra[], PetscReal r[]);
PETSC_INTERN PetscErrorCode MbBodyRecordRead(MbBody, const PetscReal r[], PetscInt len, PetscInt *nextra, const PetscReal **extra);

#endif
