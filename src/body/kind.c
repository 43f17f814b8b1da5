/* The registry of body kinds: each kind's ops table by name, PETSc style (TSRegister), so that
   a new kind is its folder and one registration call, and nothing else switches on it. A
   kind's code is its place in the registry: results files keep it (/bodies/kind) and bodies
   travel between ranks with it, so the built-ins are registered first, always in one order. */
#include "bodyimpl.h"

typedef struct {
  char            *name; /* registered name */
  const MbBodyOps *ops;  /* its table (not owned) */
} Kind;

static Kind     *Kinds  = NULL;
static PetscInt  NKinds = 0, MaxKinds = 0;
static PetscBool Registered = PETSC_FALSE;

/* The operations every kind must have: the body calls them without a check. */
static PetscErrorCode CheckOps(const char name[], const MbBodyOps *o)
{
  const struct {
    PetscBool   has;
    const char *op;
  } need[] = {
      {o->create != NULL, "create"},
      {o->reset != NULL, "reset"},
      {o->kinetic != NULL, "kinetic"},
      {o->inverse != NULL, "inverse"},
      {o->external != NULL, "external"},
      {o->to_spatial != NULL, "to_spatial"},
      {o->to_referential != NULL, "to_referential"},
      {o->point_velocity != NULL, "point_velocity"},
      {o->operator_h != NULL, "operator_h"},
      {o->momentum != NULL, "momentum"},
      {o->transform != NULL, "transform"},
      {o->bound != NULL, "bound"},
      {!o->movable || o->set_velocity, "set_velocity"},
      {!o->drive_begin || (o->drive_velocity && o->drive_end && o->set_velocity), "drive_velocity, drive_end and set_velocity (with drive_begin)"},
      {!(o->traits & MB_BODY_TRAIT_FORCE) || o->acceleration, "acceleration"},
      {!(o->traits & MB_BODY_TRAIT_FORCE) || o->advance, "advance"},
      {!o->forms || o->form, "form"},
  };
  PetscFunctionBegin;
  for (size_t k = 0; k < sizeof(need) / sizeof(need[0]); k++) PetscCheck(need[k].has, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body kind %s: its ops table has no %s operation", name, need[k].op);
  PetscCheck(o->sizes || (o->nq > 0 && o->nu > 0), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body kind %s: nq and nu must be > 0 (or a sizes operation given), got %" PetscInt_FMT " and %" PetscInt_FMT, name, o->nq, o->nu);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyKindRegister(const char name[], const MbBodyOps *ops)
{
  PetscBool same;
  PetscFunctionBegin;
  PetscCheck(name && name[0], PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "body kind name is NULL or empty");
  PetscCheck(ops, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "body kind %s: ops table is NULL", name);
  PetscCall(PetscStrcmp(name, ops->name, &same));
  PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "body kind %s: its ops table is named %s", name, ops->name ? ops->name : "(NULL)");
  PetscCall(CheckOps(name, ops));
  for (PetscInt k = 0; k < NKinds; k++) {
    PetscCall(PetscStrcmp(name, Kinds[k].name, &same));
    if (same) { /* PETSc's registries replace a name's entry; the code stays */
      Kinds[k].ops = ops;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (NKinds == MaxKinds) {
    Kind *k;
    MaxKinds = 2 * MaxKinds + 4;
    PetscCall(PetscCalloc1(MaxKinds, &k));
    if (NKinds) PetscCall(PetscArraycpy(k, Kinds, NKinds));
    PetscCall(PetscFree(Kinds));
    Kinds = k;
  }
  PetscCall(PetscStrallocpy(name, &Kinds[NKinds].name));
  Kinds[NKinds++].ops = ops;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyKindRegisterAll(void)
{
  PetscFunctionBegin;
  if (Registered) PetscFunctionReturn(PETSC_SUCCESS);
  Registered = PETSC_TRUE;
  /* this order is the codes results files and checkpoints have always had */
  PetscCall(MbBodyKindRegister_Rigid());
  PetscCall(MbBodyKindRegister_Obstacle());
  PetscCall(MbBodyKindRegister_PseudoRigid());
  PetscCall(MbBodyKindRegister_FiniteElement());
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyKindFinalizePackage(void)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < NKinds; k++) PetscCall(PetscFree(Kinds[k].name));
  PetscCall(PetscFree(Kinds));
  NKinds = MaxKinds = 0;
  Registered        = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

const MbBodyOps *MbBodyKindOps(PetscInt k) { return k >= 0 && k < NKinds ? Kinds[k].ops : NULL; }

PetscErrorCode MbBodyKindGetCount(PetscInt *n)
{
  *n = NKinds;
  return PETSC_SUCCESS;
}

PetscErrorCode MbBodyKindGetName(PetscInt k, const char **name)
{
  PetscFunctionBegin;
  PetscCheck(k >= 0 && k < NKinds, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "body kind code %" PetscInt_FMT " is not registered: codes are 0 to %" PetscInt_FMT, k, NKinds - 1);
  *name = Kinds[k].name;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyKindListNames(char buf[], size_t len)
{
  size_t used = 0;
  PetscFunctionBegin;
  if (len) buf[0] = 0;
  for (PetscInt k = 0; k < NKinds; k++) {
    int n = snprintf(buf + used, len > used ? len - used : 0, "%s%s", k ? ", " : "", Kinds[k].name);
    if (n > 0) used += (size_t)n;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbBodyKindFind(const char name[], PetscInt *code, const MbBodyOps **ops)
{
  char      known[256];
  PetscBool same;
  PetscFunctionBegin;
  PetscCheck(name, PETSC_COMM_SELF, PETSC_ERR_ARG_NULL, "body kind is NULL");
  for (PetscInt k = 0; k < NKinds; k++) {
    PetscCall(PetscStrcmp(name, Kinds[k].name, &same));
    if (!same) continue;
    if (code) *code = k;
    if (ops) *ops = Kinds[k].ops;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MbBodyKindListNames(known, sizeof(known)));
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "unknown body kind '%s'; registered kinds: %s", name, known);
}

PetscErrorCode MbBodyKindGetInfo(const char name[], MbBodyKindInfo *info)
{
  const MbBodyOps *o;
  PetscInt         code;
  PetscFunctionBegin;
  PetscCall(MbBodyKindFind(name, &code, &o));
  info->name     = o->name;
  info->code     = code;
  info->nq       = o->nq;
  info->nu       = o->nu;
  info->nodal    = o->nodal;
  info->movable  = o->movable;
  info->velocity = o->set_velocity ? PETSC_TRUE : PETSC_FALSE;
  info->elastic  = o->material ? PETSC_TRUE : PETSC_FALSE;
  info->torque   = o->torque;
  info->pressure = o->pressure;
  info->rotation = o->disable_rotation ? PETSC_TRUE : PETSC_FALSE;
  info->scheme   = o->scheme;
  info->forms    = o->forms;
  PetscFunctionReturn(PETSC_SUCCESS);
}
