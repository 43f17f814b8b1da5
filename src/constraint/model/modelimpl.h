/* Private layout of MbContactModel; an implementation's constructor fills ops and data. */
#ifndef MOREAU_CONTACTMODELIMPL_H
#define MOREAU_CONTACTMODELIMPL_H

#include <moreau/mbcontactmodel.h>
#include "../constraint.h"

typedef struct {
  PetscErrorCode (*setfromoptions)(MbContactModel, PetscOptionItems *); /* type-specific options */
  PetscErrorCode (*setparam)(MbContactModel, const char[], PetscReal);  /* named parameter */
  PetscErrorCode (*view)(MbContactModel, PetscViewer);                  /* optional */
  PetscErrorCode (*destroy)(MbContactModel);                            /* free data */
  /* contacts as forces: c->R (local frame, on the master) from the material, c->gap and
     c->V, with the bodies b (master, slave) at the start of the step; NULL: contacts are
     rows of W for the constraint solver */
  PetscErrorCode (*force)(MbContactModel, const MbSurfMat *, MbCon *, MbBody[2]);
} MbContactModelOps;

struct _p_MbContactModel {
  MPI_Comm          comm; /* communicator of the domain using it */
  char             *type; /* registered name */
  MbContactModelOps ops;  /* filled by the constructor */
  void             *data; /* implementation data */
};

PETSC_INTERN PetscErrorCode MbContactModelCreate_Rows(MbContactModel);
PETSC_INTERN PetscErrorCode MbContactModelCreate_Penalty(MbContactModel);
PETSC_INTERN PetscErrorCode MbContactModelRegisterAll(void);
PETSC_INTERN PetscErrorCode MbContactModelFinalizePackage(void);

/* The force of contact c (material mat, bodies b: master, slave) into c->R when the model
   makes forces. */
static inline PetscErrorCode MbContactModelForce(MbContactModel m, const MbSurfMat *mat, MbCon *c, MbBody b[2]) { return m->ops.force ? m->ops.force(m, mat, c, b) : PETSC_SUCCESS; }

#endif
