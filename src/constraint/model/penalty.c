/* spring_dashpot (Solfec's PENALTY_SOLVER): a contact is a force known before the solve.
   Normal: R_N = max(0, −k·gap − c·V_N), a spring-dashpot that only pushes; tangential:
   Coulomb friction regularized below the sliding speed δ,
   R_T = −μ R_N V_T / √(|V_T|² + δ²); V is the relative velocity at the start of the step,
   so the force is explicit and the step is bounded by 2√(m/k) (MbDomainCriticalStep counts
   every SPRING_DASHPOT material). k, c
   and μ are the surface material's (SURFACE_MATERIAL model 'SPRING_DASHPOT'); δ is the
   model's own parameter. Joints are still rows for the constraint solver. */
#include "modelimpl.h"

typedef struct {
  PetscReal delta; /* sliding speed below which friction is regularized */
} Penalty;

static PetscErrorCode PenaltyForce(MbContactModel m, const MbSurfMat *mat, MbCon *c)
{
  const Penalty *p = (const Penalty *)m->data;
  PetscReal      vt;
  PetscFunctionBegin;
  PetscCheck(mat->spring > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "PENALTY_SOLVER: contact between surfaces %" PetscInt_FMT " and %" PetscInt_FMT " (bodies %" PetscInt_FMT " and %" PetscInt_FMT ") has no spring: give SURFACE_MATERIAL(model='SPRING_DASHPOT', spring=k > 0, dashpot=...)", c->surf[0],
             c->surf[1], c->body[0], c->body[1]);
  c->R[2] = PetscMax(0.0, -mat->spring * c->gap - mat->dashpot * c->V[2]);
  vt      = PetscSqrtReal(c->V[0] * c->V[0] + c->V[1] * c->V[1] + p->delta * p->delta);
  c->R[0] = -mat->friction * c->R[2] * c->V[0] / vt;
  c->R[1] = -mat->friction * c->R[2] * c->V[1] / vt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PenaltySetParam(MbContactModel m, const char name[], PetscReal value)
{
  Penalty  *p = (Penalty *)m->data;
  PetscBool is;
  PetscFunctionBegin;
  PetscCall(PetscStrcmp(name, "delta", &is));
  PetscCheck(is, m->comm, PETSC_ERR_ARG_WRONG, "contact model %s has no parameter %s; it has: delta", m->type, name);
  PetscCheck(value > 0 && PetscIsNormalReal(value), m->comm, PETSC_ERR_ARG_OUTOFRANGE, "contact model %s: delta (the friction regularization speed) must be > 0, got %g", m->type, (double)value);
  p->delta = value;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PenaltySetFromOptions(MbContactModel m, PetscOptionItems *PetscOptionsObject)
{
  Penalty  *p     = (Penalty *)m->data;
  PetscReal delta = p->delta;
  PetscBool set;
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "Spring-dashpot contact model options");
  PetscCall(PetscOptionsReal("-mb_contact_penalty_delta", "Sliding speed below which Coulomb friction is regularized", "MbContactModelSetParameter", delta, &delta, &set));
  PetscOptionsHeadEnd();
  if (set) PetscCall(PenaltySetParam(m, "delta", delta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PenaltyView(MbContactModel m, PetscViewer v)
{
  const Penalty *p = (const Penalty *)m->data;
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(v, "friction regularized below the sliding speed %g\n", (double)p->delta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PenaltyDestroy(MbContactModel m)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(m->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbContactModelCreate_Penalty(MbContactModel m)
{
  Penalty *p;
  PetscFunctionBegin;
  PetscCall(PetscNew(&p));
  p->delta              = 1e-6;
  m->data               = p;
  m->ops.force          = PenaltyForce;
  m->ops.setparam       = PenaltySetParam;
  m->ops.setfromoptions = PenaltySetFromOptions;
  m->ops.view           = PenaltyView;
  m->ops.destroy        = PenaltyDestroy;
  PetscFunctionReturn(PETSC_SUCCESS);
}
