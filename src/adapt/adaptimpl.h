/* Private layout of MbAdapt; an implementation's constructor fills ops and data. */
#ifndef MOREAU_ADAPTIMPL_H
#define MOREAU_ADAPTIMPL_H

#include <moreau/mbadapt.h>

typedef struct {
  PetscErrorCode (*start)(MbAdapt, PetscReal, PetscReal, PetscReal *);                           /* first step of a run */
  PetscErrorCode (*post)(MbAdapt, const MbAdaptData *, PetscBool, MbAdaptAction *, PetscReal *); /* next step, action */
  PetscErrorCode (*view)(MbAdapt, PetscViewer);                                                  /* optional */
  PetscErrorCode (*destroy)(MbAdapt);                                                            /* free data */
} MbAdaptOps;

struct _p_MbAdapt {
  MPI_Comm   comm;         /* communicator of the domain */
  char      *type;         /* registered name */
  MbAdaptOps ops;          /* filled by the constructor */
  void      *data;         /* implementation data */
  PetscReal  dtmin, dtmax; /* step limits (0 until set: the run's first step then) */
  PetscReal  b;            /* CURVATURE: b of eq. (7) */
  PetscReal  zeta;         /* CURVATURE: regularization interval ζ Δt_max */
  PetscReal  alpha;        /* CURVATURE: α of eq. (10) */
  PetscBool  reject;       /* CURVATURE: redo intervals whose curvature grew */
  PetscReal  reject_tol;   /* CURVATURE: ... when that shortens the steps by more than this fraction */
  PetscReal  tol;          /* TRUNCATION, LOCAL_ERROR: tolerance */
  PetscReal  ratio;        /* APPARENT_FREQUENCY: fraction of 2/ω */
  PetscBool  canreject;    /* the type can reject steps (set by the constructor); it does when reject is set */
  PetscReal  curvature;    /* k of eq. (5), last step */
  PetscReal  estimate;     /* the type's indicator, last step */
  PetscInt   rejections;   /* intervals rejected */
  PetscInt   discarded;    /* steps thrown away with them */
};

PETSC_INTERN PetscErrorCode MbAdaptCreate_Fixed(MbAdapt);
PETSC_INTERN PetscErrorCode MbAdaptCreate_Curvature(MbAdapt);
PETSC_INTERN PetscErrorCode MbAdaptCreate_Truncation(MbAdapt);
PETSC_INTERN PetscErrorCode MbAdaptCreate_LocalError(MbAdapt);
PETSC_INTERN PetscErrorCode MbAdaptCreate_Frequency(MbAdapt);
PETSC_INTERN PetscErrorCode MbAdaptRegisterAll(void);
PETSC_INTERN PetscErrorCode MbAdaptFinalizePackage(void);

/* h clamped to [dtmin, dtmax] */
static inline PetscReal MbAdaptClamp(MbAdapt a, PetscReal h) { return PetscMax(a->dtmin, PetscMin(a->dtmax, h)); }

#endif
