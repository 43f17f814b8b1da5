/* moreau — contact models (ARCHITECTURE.md, constraint/): what a contact point found by
   detection becomes. A model is registered by name and chosen with
   MbContactModelSetType, the deck's solver command (PENALTY_SOLVER picks spring_dashpot)
   or -mb_contact_model. */
#ifndef MOREAU_MBCONTACTMODEL_H
#define MOREAU_MBCONTACTMODEL_H

#include <petscsys.h>

typedef struct _p_MbContactModel *MbContactModel;

/* a row of the local dynamics U = W R + B with the Signorini–Coulomb law, solved with the
   joints by the constraint solver (seed 001): the default */
#define MBCONTACTROWS "signorini_coulomb"
/* a spring-dashpot force known before the solve, from the gap and the velocity at the
   start of the step (Solfec's PENALTY_SOLVER with SURFACE_MATERIAL model SPRING_DASHPOT) */
#define MBCONTACTPENALTY "spring_dashpot"

/** Register a contact model constructor by name. Not collective. */
PETSC_EXTERN PetscErrorCode MbContactModelRegister(const char name[], PetscErrorCode (*create)(MbContactModel));
/** Create a contact model (default signorini_coulomb). Collective on comm. */
PETSC_EXTERN PetscErrorCode MbContactModelCreate(MPI_Comm comm, MbContactModel *model);
PETSC_EXTERN PetscErrorCode MbContactModelDestroy(MbContactModel *model);
/** Set the type by registered name; errors naming the unknown name and listing the known. */
PETSC_EXTERN PetscErrorCode MbContactModelSetType(MbContactModel model, const char type[]);
PETSC_EXTERN PetscErrorCode MbContactModelGetType(MbContactModel model, const char **type);
/** Read -mb_contact_model and the type's own options. Collective. */
PETSC_EXTERN PetscErrorCode MbContactModelSetFromOptions(MbContactModel model);
/** Set one of the type's named parameters; a name the type does not have is an error
    listing the ones it has. */
PETSC_EXTERN PetscErrorCode MbContactModelSetParameter(MbContactModel model, const char name[], PetscReal value);
/** Whether the model makes contacts forces known before the solve (no rows of W). */
PETSC_EXTERN PetscErrorCode MbContactModelIsForce(MbContactModel model, PetscBool *flg);
/** Print the type and its parameters. */
PETSC_EXTERN PetscErrorCode MbContactModelView(MbContactModel model, PetscViewer viewer);
/** Comma-separated registered names. */
PETSC_EXTERN PetscErrorCode MbContactModelListNames(char buf[], size_t len);

#endif
