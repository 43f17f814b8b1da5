/* MbContactModel: the registry of contact models and the generic driver around each
   implementation's ops. */
#include "modelimpl.h"

static PetscFunctionList MbContactModelList       = NULL;
static PetscBool         MbContactModelRegistered = PETSC_FALSE;

PetscErrorCode MbContactModelRegister(const char name[], PetscErrorCode (*create)(MbContactModel))
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListAdd(&MbContactModelList, name, create));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbContactModelRegisterAll(void)
{
  PetscFunctionBegin;
  if (MbContactModelRegistered) PetscFunctionReturn(PETSC_SUCCESS);
  MbContactModelRegistered = PETSC_TRUE;
  PetscCall(MbContactModelRegister(MBCONTACTROWS, MbContactModelCreate_Rows));
  PetscCall(MbContactModelRegister(MBCONTACTPENALTY, MbContactModelCreate_Penalty));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbContactModelFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscCall(PetscFunctionListDestroy(&MbContactModelList));
  MbContactModelRegistered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbContactModelListNames(char buf[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(MbRegistryNames(MbContactModelList, buf, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbContactModelCreate(MPI_Comm comm, MbContactModel *m)
{
  PetscFunctionBegin;
  PetscCall(MbContactModelRegisterAll());
  PetscCall(PetscNew(m));
  (*m)->comm = comm;
  PetscCall(MbContactModelSetType(*m, MBCONTACTROWS));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbContactModelDestroy(MbContactModel *m)
{
  PetscFunctionBegin;
  if (!*m) PetscFunctionReturn(PETSC_SUCCESS);
  if ((*m)->ops.destroy) PetscCall((*m)->ops.destroy(*m));
  PetscCall(PetscFree((*m)->type));
  PetscCall(PetscFree(*m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbContactModelSetType(MbContactModel m, const char type[])
{
  PetscErrorCode (*create)(MbContactModel);
  PetscBool same;
  PetscFunctionBegin;
  PetscCheck(type, m->comm, PETSC_ERR_ARG_NULL, "contact model type is NULL");
  PetscCall(PetscStrcmp(m->type, type, &same));
  if (same) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MbRegistryFind(m->comm, MbContactModelList, "contact model", "contact models", type, (void (**)(void)) & create));
  if (m->ops.destroy) PetscCall(m->ops.destroy(m));
  PetscCall(PetscMemzero(&m->ops, sizeof(m->ops)));
  m->data = NULL;
  PetscCall(PetscFree(m->type));
  PetscCall(PetscStrallocpy(type, &m->type));
  PetscCall(create(m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbContactModelGetType(MbContactModel m, const char **type)
{
  *type = m->type;
  return PETSC_SUCCESS;
}

PetscErrorCode MbContactModelSetFromOptions(MbContactModel m)
{
  char      type[64];
  PetscBool set;
  PetscFunctionBegin;
  PetscOptionsBegin(m->comm, NULL, "Contact model options", "MbContactModel");
  PetscCall(PetscOptionsFList("-mb_contact_model", "What a contact becomes: a row for the constraint solver or a spring-dashpot force", "MbContactModelSetType", MbContactModelList, m->type, type, sizeof(type), &set));
  if (set) PetscCall(MbContactModelSetType(m, type));
  if (m->ops.setfromoptions) PetscCall(m->ops.setfromoptions(m, PetscOptionsObject));
  PetscOptionsEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbContactModelSetParameter(MbContactModel m, const char name[], PetscReal value)
{
  PetscFunctionBegin;
  PetscCheck(m->ops.setparam, m->comm, PETSC_ERR_ARG_WRONG, "contact model %s has no parameters (got %s = %g)", m->type, name, (double)value);
  PetscCall(m->ops.setparam(m, name, value));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbContactModelIsForce(MbContactModel m, PetscBool *flg)
{
  *flg = m->ops.force ? PETSC_TRUE : PETSC_FALSE;
  return PETSC_SUCCESS;
}

PetscErrorCode MbContactModelView(MbContactModel m, PetscViewer v)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "contact model %s\n", m->type));
  if (m->ops.view) {
    PetscCall(PetscViewerASCIIPushTab(v));
    PetscCall(m->ops.view(m, v));
    PetscCall(PetscViewerASCIIPopTab(v));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
