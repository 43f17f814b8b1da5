/* The registries of pluggable parts (schemes, step-size controllers, solvers) are PETSc
   function lists; these two helpers are what every registry does with its list. */
#include <moreau/mbsys.h>

PetscErrorCode MbRegistryNames(PetscFunctionList list, char buf[], size_t len)
{
  const char **names;
  int          n;
  size_t       used = 0;
  PetscFunctionBegin;
  if (len) buf[0] = 0;
  PetscCall(PetscFunctionListGet(list, &names, &n));
  for (int i = 0; i < n && names[i]; i++) { /* PETSc 3.18 counts the closing NULL in n */
    int k = snprintf(buf + used, len > used ? len - used : 0, "%s%s", used ? ", " : "", names[i]);
    if (k > 0) used += (size_t)k;
  }
  PetscCall(PetscFree(names));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbRegistryFind(MPI_Comm comm, PetscFunctionList list, const char what[], const char whats[], const char type[], void (**create)(void))
{
  char known[512];
  PetscFunctionBegin;
  PetscCheck(type, comm, PETSC_ERR_ARG_NULL, "%s type is NULL", what);
  PetscCall(PetscFunctionListFind(list, type, create));
  if (*create) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbRegistryNames(list, known, sizeof(known)));
  SETERRQ(comm, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown %s '%s'; known %s: %s", what, type, whats, known);
}
