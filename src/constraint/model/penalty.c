/* spring_dashpot (Solfec's PENALTY_SOLVER): a contact is a force known before the solve.
   Normal: R_N = max(0, −k·gap − c·V_N), a spring-dashpot that only pushes (with the
   material's hpow ≠ 1, R_N = max(0, k·(−min(gap, 0))^hpow − c·V_N), Solfec's power law); tangential:
   Coulomb friction regularized below the sliding speed δ,
   R_T = −μ R_N V_T / √(|V_T|² + δ²); V is the relative velocity at the start of the step,
   so the force is explicit and the step is bounded by 2√(m/k) (MbDomainCriticalStep counts
   every SPRING_DASHPOT material). k, c
   and μ are the surface material's (SURFACE_MATERIAL model 'SPRING_DASHPOT'); δ is the
   model's own parameter. A dashpot c < 0 asks for critical damping, as in Solfec-1.0:
   c = 2√(k m), m = 1/(n·A⁻¹n) the effective mass of the two bodies along the normal at the
   contact point (Solfec writes it 2√(h k / W_NN) with W_NN = h n·A⁻¹n: the same). Joints
   are still rows for the constraint solver. */
#include "modelimpl.h"

typedef struct {
  PetscReal delta; /* sliding speed below which friction is regularized */
} Penalty;

/* w = n·A⁻¹n summed over the movable bodies of contact c: the inverse of the effective mass
   along the normal (the normal row of H is the third: base's third column is n). */
static PetscErrorCode NormalInverseMass(const MbCon *c, MbBody b[2], PetscReal *w)
{
  PetscFunctionBegin;
  *w = 0;
  for (int k = 0; k < 2; k++) {
    PetscInt  nq, nu;
    PetscReal Hs[3 * 12], ys[12], *H = Hs, *y = ys; /* rigid and pseudo-rigid bodies: on the stack (this runs per contact and step) */
    if (!b[k] || !MbBodyIsMovable(b[k])) continue;
    PetscCall(MbBodyGetSizes(b[k], &nq, &nu));
    if (nu > 12) PetscCall(PetscMalloc2(3 * nu, &H, nu, &y));
    PetscCall(MbBodyOperatorH(b[k], c->X[k], c->base, H));
    PetscCall(MbBodyInverseInertia(b[k], H + 2 * nu, y));
    for (PetscInt i = 0; i < nu; i++) *w += H[2 * nu + i] * y[i];
    if (H != Hs) PetscCall(PetscFree2(H, y));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PenaltyForce(MbContactModel m, const MbSurfMat *mat, MbCon *c, MbBody b[2])
{
  const Penalty *p   = (const Penalty *)m->data;
  PetscReal      eta = mat->dashpot, vt;
  PetscFunctionBegin;
  PetscCheck(mat->spring > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG,
             "PENALTY_SOLVER: contact between surfaces %" PetscInt_FMT " and %" PetscInt_FMT " (bodies %" PetscInt_FMT " and %" PetscInt_FMT ") has no spring: give SURFACE_MATERIAL(model='SPRING_DASHPOT', spring=k > 0, dashpot=...)", c->surf[0],
             c->surf[1], c->body[0], c->body[1]);
  if (eta < 0) { /* critical damping, of the spring's current stiffness k·hpow·(−gap)^(hpow−1) */
    PetscReal w, k = mat->hpow == 1 ? mat->spring : mat->spring * mat->hpow * PetscPowReal(PetscMax(-c->gap, 0.0), mat->hpow - 1);
    PetscCall(NormalInverseMass(c, b, &w));
    PetscCheck(w > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PENALTY_SOLVER: contact between bodies %" PetscInt_FMT " and %" PetscInt_FMT " has no inertia along its normal (n·A⁻¹n = %g): no critical damping", c->body[0], c->body[1], (double)w);
    eta = 2 * PetscSqrtReal(k / w);
  }
  if (mat->hpow == 1)
    c->R[2] = PetscMax(0.0, -mat->spring * c->gap - eta * c->V[2]);
  else /* Solfec-1.0's power law (pes.c): k·(−min(gap, 0))^hpow, 1.5 Hertz's for spheres */
    c->R[2] = PetscMax(0.0, mat->spring * PetscPowReal(PetscMax(-c->gap, 0.0), mat->hpow) - eta * c->V[2]);
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
