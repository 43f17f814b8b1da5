/* Private layout of MbAdapt; an implementation's constructor fills ops and data. */
#ifndef MOREAU_ADAPTIMPL_H
#define MOREAU_ADAPTIMPL_H

#include <moreau/mbadapt.h>

/* A controller's named parameter: a PetscReal in its data at offset (a yes/no one holds 0
   or 1), with its allowed range and default. It is the deck's TIME_ADAPT keyword name and
   the option -mb_adapt_<name>; adapt.c reads, checks, sets and prints the parameters of
   every type from its table, so a type only lists them. */
typedef struct {
  const char *name;             /* keyword and option suffix */
  const char *help;             /* for -help */
  size_t      offset;           /* of the PetscReal in the type's data */
  PetscReal   def;              /* default */
  PetscReal   lo, hi;           /* allowed range */
  PetscBool   lo_open, hi_open; /* lo (hi) itself is excluded */
  PetscBool   flag;             /* a yes/no parameter: 0 or 1 */
} MbAdaptParam;

typedef struct {
  PetscErrorCode (*start)(MbAdapt, PetscReal, PetscReal, PetscReal *);                           /* first step of a run */
  PetscErrorCode (*post)(MbAdapt, const MbAdaptData *, PetscBool, MbAdaptAction *, PetscReal *); /* next step, action */
  PetscErrorCode (*view)(MbAdapt, PetscViewer);                                                  /* optional */
  PetscErrorCode (*destroy)(MbAdapt);                                                            /* free data (NULL: PetscFree of a plain data block) */
} MbAdaptOps;

struct _p_MbAdapt {
  MPI_Comm            comm;         /* communicator of the domain */
  char               *type;         /* registered name */
  MbAdaptOps          ops;          /* filled by the constructor */
  void               *data;         /* implementation data, its parameters included */
  size_t              datasize;     /* its bytes: plain data, no pointers (a checkpoint copies it) */
  const MbAdaptParam *params;       /* the type's parameters (set by the constructor) */
  PetscInt            nparams;      /* how many */
  PetscReal           dtmin, dtmax; /* step limits (0 until set: the run's first step then) */
  PetscReal           curvature;    /* k of eq. (5), last step */
  PetscReal           estimate;     /* the type's indicator, last step */
  PetscInt            rejections;   /* intervals rejected */
  PetscInt            discarded;    /* steps thrown away with them */
};

PETSC_INTERN PetscErrorCode MbAdaptCreate_Fixed(MbAdapt);
PETSC_INTERN PetscErrorCode MbAdaptCreate_Curvature(MbAdapt);
PETSC_INTERN PetscErrorCode MbAdaptCreate_Truncation(MbAdapt);
PETSC_INTERN PetscErrorCode MbAdaptCreate_LocalError(MbAdapt);
PETSC_INTERN PetscErrorCode MbAdaptCreate_Frequency(MbAdapt);
PETSC_INTERN PetscErrorCode MbAdaptRegisterAll(void);
PETSC_INTERN PetscErrorCode MbAdaptFinalizePackage(void);

/* The constructor's part for a type with parameters: data of size bytes (zeroed) holding
   the parameters of table params[0..n) at their defaults. */
PETSC_INTERN PetscErrorCode MbAdaptSetUpData(MbAdapt a, size_t size, PetscInt n, const MbAdaptParam params[]);

/* h clamped to [dtmin, dtmax] */
static inline PetscReal MbAdaptClamp(MbAdapt a, PetscReal h) { return PetscMax(a->dtmin, PetscMin(a->dtmax, h)); }

#endif
