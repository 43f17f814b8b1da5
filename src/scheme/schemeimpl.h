/* Private layout of MbScheme; an implementation's constructor fills ops and data. */
#ifndef MOREAU_SCHEMEIMPL_H
#define MOREAU_SCHEMEIMPL_H

#include <moreau/mbscheme.h>
#include "../body/bodyimpl.h"

/* How the domain drives a scheme (MbDomainStep): STEP schemes are split around the
   constraint solve (begin/end, seed 001); FORCE schemes are driven by src/domain/forces.c,
   which evaluates every force at the state the scheme asks for. EXPLICIT ones take one
   evaluation per step: predict (move to the new state from what acc holds), evaluate,
   correct (acc from b->force, finish the velocity). IMPLICIT ones solve for x = a(t+h)
   by Newton: stage (the state where forces are due, from q0, u0, history and x),
   evaluate, residual; finish once converged. */
typedef enum { MB_SCHEME_STEP = 0, MB_SCHEME_EXPLICIT = 1, MB_SCHEME_IMPLICIT = 2 } MbSchemeFamily;

typedef struct {
  PetscErrorCode (*begin)(MbScheme, MbBody, PetscReal, PetscReal, const PetscReal[3]); /* half-step, free velocity */
  PetscErrorCode (*end)(MbScheme, MbBody, PetscReal, PetscReal);                       /* finish velocity and configuration */
  PetscErrorCode (*destroy)(MbScheme);                                                 /* free data */
  PetscErrorCode (*predict)(MbScheme, MbBody, PetscReal);                              /* EXPLICIT: h */
  PetscErrorCode (*correct)(MbScheme, MbBody, PetscReal);                              /* EXPLICIT: h */
  PetscErrorCode (*stage)(MbScheme, MbBody, PetscReal, const PetscReal[]);             /* IMPLICIT: h, x */
  PetscErrorCode (*residual)(MbScheme, MbBody, const PetscReal[], PetscReal[]);        /* IMPLICIT: x, r */
  PetscErrorCode (*finish)(MbScheme, MbBody, PetscReal, const PetscReal[]);            /* IMPLICIT: h, x */
  PetscErrorCode (*setparam)(MbScheme, const char[], PetscReal);                       /* named parameter */
  PetscErrorCode (*setfromoptions)(MbScheme, PetscOptionItems *);                      /* the type's own options */
} MbSchemeOps;

struct _p_MbScheme {
  MPI_Comm       comm;                   /* communicator of the domain using it */
  char          *type;                   /* registered name */
  MbSchemeOps    ops;                    /* filled by the constructor */
  void          *data;                   /* implementation data */
  PetscReal      rtol;                   /* Newton tolerance, relative, scaled by h */
  PetscInt       maxit;                  /* Newton iteration cap */
  PetscBool      error_if_not_converged; /* a Newton failure is an error, not a count */
  PetscInt       iterations;             /* Newton iterations so far */
  PetscInt       failures;               /* steps whose Newton hit maxit */
  MbSchemeFamily family;                 /* how the domain drives it */
  PetscInt requires;                     /* the MbBodyTrait bits a body's kind must have for it to apply (bodyimpl.h) */
  PetscReal tshift;                      /* IMPLICIT: forces are evaluated at t + tshift·h */
  PetscBool bounded;                     /* stable below each body's critical step (MbBodyCriticalStep): DEF_EXP */
};

/* scheme.c: the check of a scheme with one parameter: name must be want, lo <= v <= hi
   (range names the interval in the message) */
PETSC_INTERN PetscErrorCode MbSchemeCheckParameter(MbScheme, const char name[], const char want[], PetscReal v, PetscReal lo, PetscReal hi, const char range[]);
PETSC_INTERN PetscErrorCode MbSchemeCreate_RigPos(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_RigNeg(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_RigImp(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_EulerExp(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_CDM(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_EGAlpha(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_ChungLee(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_EulerImp(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_GAlpha(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_DefExp(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_DefLim(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_RigStatic(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_DefStatic(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeRegisterAll(void);
PETSC_INTERN PetscErrorCode MbSchemeFinalizePackage(void);
/* Registered names, the same list in the same order on every rank (free *names with PetscFree). */
PETSC_INTERN PetscErrorCode MbSchemeGetRegistered(const char ***names, int *n);

#endif
