/* Private layout of MbScheme; an implementation's constructor fills ops and data. */
#ifndef MOREAU_SCHEMEIMPL_H
#define MOREAU_SCHEMEIMPL_H

#include <moreau/mbscheme.h>
#include "../body/bodyimpl.h"

typedef struct {
  PetscBool (*applies)(MbBodyKind);                                                  /* body kinds it integrates */
  PetscErrorCode (*begin)(MbScheme, MbBody, PetscReal, PetscReal, const PetscReal[3]); /* half-step, free velocity */
  PetscErrorCode (*end)(MbScheme, MbBody, PetscReal, PetscReal);                     /* finish velocity and configuration */
  PetscErrorCode (*destroy)(MbScheme);                                               /* free data */
} MbSchemeOps;

struct _p_MbScheme {
  MPI_Comm    comm;           /* communicator of the domain using it */
  char       *type;           /* registered name */
  MbSchemeOps ops;            /* filled by the constructor */
  void       *data;           /* implementation data */
  PetscReal   rtol;           /* Newton tolerance, relative, scaled by h */
  PetscInt    maxit;          /* Newton iteration cap */
  PetscBool   error_if_not_converged; /* a Newton failure is an error, not a count */
  PetscInt    iterations;     /* Newton iterations so far */
  PetscInt    failures;       /* steps whose Newton hit maxit */
};

PETSC_INTERN PetscErrorCode MbSchemeCreate_RigPos(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_RigNeg(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeCreate_RigImp(MbScheme);
PETSC_INTERN PetscErrorCode MbSchemeRegisterAll(void);
PETSC_INTERN PetscErrorCode MbSchemeFinalizePackage(void);
/* Registered names, the same list in the same order on every rank (free *names with PetscFree). */
PETSC_INTERN PetscErrorCode MbSchemeGetRegistered(const char ***names, int *n);

#endif
