/* signorini_coulomb: a contact is a row of U = W R + B with the Signorini–Coulomb law
   (mbsolver.h), solved with the joints by the domain's constraint solver (seed 001). It
   has no force and no parameters: the law's data (friction, cohesion, restitution) are
   the surface material's. */
#include "modelimpl.h"

PetscErrorCode MbContactModelCreate_Rows(MbContactModel m)
{
  PetscFunctionBegin;
  (void)m;
  PetscFunctionReturn(PETSC_SUCCESS);
}
