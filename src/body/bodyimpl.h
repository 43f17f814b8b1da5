/* Private layout of MbBody and the ops table each kinematic model fills. */
#ifndef MOREAU_BODYIMPL_H
#define MOREAU_BODYIMPL_H

#include <moreau/mbbody.h>

typedef struct {
  const char *name;                                                                        /* model name */
  PetscErrorCode (*kinetic)(MbBody, PetscReal *);                                          /* ½uᵀMu */
  PetscErrorCode (*inverse)(MbBody, PetscInt, const PetscReal[], PetscReal[]);             /* y_j = A⁻¹x_j for n vectors of length nu, one after another */
  PetscErrorCode (*external)(MbBody, PetscReal, PetscReal, const PetscReal[3], PetscReal[]);/* generalized external force */
  PetscErrorCode (*to_spatial)(MbBody, const PetscReal[3], PetscReal[3]);                  /* X ↦ x */
  PetscErrorCode (*point_velocity)(MbBody, const PetscReal[], const PetscReal[3], PetscReal[3]); /* velocity of X when the body's velocity is u (b->u, or b->u0 at the start of the step) */
  PetscErrorCode (*operator_h)(MbBody, const PetscReal[3], const PetscReal[9], PetscReal[]);/* H at X in a frame */
  PetscErrorCode (*momentum)(MbBody, PetscReal[3], PetscReal[3]);                          /* angular, linear */
  PetscErrorCode (*acceleration)(MbBody, const PetscReal[], PetscReal[]);                  /* a = A⁻¹(f − gyroscopic) at u */
  PetscErrorCode (*advance)(MbBody, const PetscReal[], const PetscReal[], PetscReal[]);    /* q = q0 ⊕ Δ (exp map for rotations) */
} MbBodyOps;

typedef struct {
  MbLoadKind     kind;    /* force or torque */
  MbFrame        frame;   /* spatial or convected direction */
  PetscReal      X[3];    /* referential point of application (forces) */
  PetscReal      dir[3];  /* direction, scaled by the value */
  PetscReal      value;   /* constant magnitude when ts and fn are NULL */
  MbTimeSeries   ts;      /* magnitude as a function of time, or NULL */
  MbLoadCallback fn;      /* callback returning the rigid 9-tuple, or NULL */
  void          *ctx;     /* callback context */
  PetscErrorCode (*destroy)(void *); /* destroys ctx, or NULL */
  PetscInt       ref;     /* fn and ctx are entry ref of the domain's callback table (they
                             migrate by that index), or −1 */
} MbLoad;

struct _p_MbBody {
  PetscInt          id;      /* global id, from 0 in creation order */
  MbBodyKind        kind;    /* kinematic model */
  const MbBodyOps  *ops;     /* the model's operations */
  char             *label;   /* user label, or NULL */
  MbShape           shape;   /* reference shape (owned) */
  MbMassProps       mp;      /* mass, volume, X̄, E₀, J */
  PetscReal         Jinv[9]; /* J⁻¹ */
  PetscInt          nq, nu;  /* sizes of q and u */
  PetscReal        *q;       /* configuration */
  PetscReal        *u;       /* velocity */
  PetscReal        *q0;      /* configuration at the start of the step (scheme scratch) */
  PetscReal        *u0;      /* velocity at the start of the step (scheme scratch) */
  PetscReal        *fext;    /* external force of this step, for the work (scheme scratch) */
  PetscReal        *aux;     /* scheme scratch: rigid Ω(t+h/2) */
  PetscReal        *force;   /* generalized force at the current state (force schemes, forces.c) */
  PetscReal        *acc;     /* 3·nu: A⁻¹f at the current state, then two scheme history vectors */
  PetscBool         accok;   /* acc[0..nu) belongs to the current state */
  PetscReal         work;    /* accumulated work of external forces */
  PetscReal         damping; /* stiffness-proportional damping (deformable) */
  MbScheme          scheme;  /* time integrator (not owned) */
  PetscInt          nload;   /* number of loads */
  MbLoad           *load;    /* loads */
  void             *user;    /* user pointer (deck object) */
  PetscInt          mark;    /* scratch of the domain (ghost refresh stamp) */
  PetscReal         extent;  /* MbBodyExtent, 0 until computed (the shape and X̄ are fixed) */
};

PETSC_INTERN const MbBodyOps MbBodyOps_Rigid;
PETSC_INTERN const MbBodyOps MbBodyOps_Obstacle;

/* Bytes of a packed body; pack into buf (MbBodyPackSize bytes); unpack a new body from
   buf (len bytes available), *used bytes consumed. A ghost (migrate false) carries what
   detection and W need; a migrating body also its loads (callbacks by their index in the
   domain's callback table: fn and ctx are NULL after unpacking, ref set) and the name of
   its scheme (scheme[0] = 0 when none or a ghost). See pack.c. */
PETSC_INTERN PetscErrorCode MbBodyPackSize(MbBody, PetscBool migrate, size_t *);
PETSC_INTERN PetscErrorCode MbBodyPack(MbBody, PetscBool migrate, char *, size_t *);
PETSC_INTERN PetscErrorCode MbBodyUnpack(const char *, size_t, size_t *, MbBody *, char scheme[64]);
/* A load given by entry ref (fn, ctx) of the domain's callback table (not destroyed here). */
PETSC_INTERN PetscErrorCode MbBodyAddLoadCallbackRef(MbBody, MbLoadCallback, void *, PetscInt ref);
/* The referential point of spatial point x (rigid and obstacle bodies): the inverse of to_spatial. */
PETSC_INTERN void MbBodyPointToReferential(MbBody, const PetscReal x[3], PetscReal X[3]);
/* Prefetching for loops that visit bodies out of their order in memory (by contact, by
   constraint): the struct a few iterations ahead, then, once it is in cache, its state
   (q and u, or q and u0 at the start of the step). Misses on these were most of such
   loops' time at 10,000 bodies (doc/benchmarks.md). */
static inline void MbBodyPrefetch(MbBody b)
{
  if (b) PetscPrefetchBlock(b, 1, 0, PETSC_PREFETCH_HINT_T0);
}
static inline void MbBodyPrefetchState(MbBody b, PetscBool start)
{
  if (!b) return;
  PetscPrefetchBlock(b->q, 12, 0, PETSC_PREFETCH_HINT_T0);
  PetscPrefetchBlock(start ? b->u0 : b->u, 6, 1, PETSC_PREFETCH_HINT_T0);
}
/* Radius about the mass centre that holds the shape (ghost boxes, partition graph). */
PETSC_INTERN PetscReal MbBodyExtent(MbBody);
/* The points of a time series (borrowed). */
PETSC_INTERN PetscErrorCode MbTimeSeriesGetPoints(MbTimeSeries, PetscInt *, const PetscReal **, const PetscReal **);

#endif
