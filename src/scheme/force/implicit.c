/* Implicit force schemes: EULER_IMP (seed 002) and GALPHA (Chung and Hulbert 1993), one
   Newmark-α form solved for x = a(n+1) by Newton over every body at once (the driver and
   its Newton, PETSc SNES, are in src/domain/forces.c):
     d(n+1) = d(n) ⊕ [h v(n) + h² (c_a a(n) + β x)],
     v(n+1) = v(n) + h (c_v a(n) + γ x),
     R(x)   = (1 − α_m) x + α_m a(n) − A⁻¹f(d(n+1−α_f), v(n+1−α_f), t(n) + (1 − α_f) h) = 0,
   where y(n+1−α) = (1 − α) y(n+1) + α y(n), for rotations Λ(n) exp[(1 − α_f) Δ_Ω], and a(n),
   the algorithmic acceleration, is acc[nu..2nu) of the body.
   EULER_IMP: α_m = α_f = 0, c_a = c_v = 0, β = γ = 1, so that d(n+1) = d(n) ⊕ h v(n+1) and
   v(n+1) = v(n) + h a(n+1): backward Euler.
   GALPHA: α_m = (2ρ∞ − 1)/(ρ∞ + 1), α_f = ρ∞/(ρ∞ + 1), γ = ½ − α_m + α_f,
   β = ¼(1 − α_m + α_f)², c_a = ½ − β, c_v = 1 − γ: second order, unconditionally stable for
   linear problems, high-frequency dissipation set by ρ∞ ∈ [0, 1] (Chung and Hulbert, J. Appl.
   Mech. 60, 1993). */
#include <moreau/mbmath.h>
#include "../schemeimpl.h"

typedef struct {
  PetscReal rho;                         /* GALPHA: ρ∞, the spectral radius at infinite frequency */
  PetscReal am, af, beta, gamma, ca, cv; /* the Newmark-α coefficients above */
} ImplicitData;

static const char GaCitation[] = "@article{chung1993generalized,\n"
                                 "  author  = {J. Chung and G. M. Hulbert},\n"
                                 "  title   = {A time integration algorithm for structural dynamics with improved numerical dissipation: the generalized-$\\alpha$ method},\n"
                                 "  journal = {Journal of Applied Mechanics},\n"
                                 "  volume  = {60}, number = {2}, pages = {371--375}, year = {1993}\n}\n";
static PetscBool  GaCited      = PETSC_FALSE;

static PetscBool ImplicitApplies(MbBodyKind kind) { return kind == MB_BODY_RIGID; }

/* The full increment Δ = h v(n) + h²(c_a a(n) + β x) and v(n+1), from q0, u0. */
static void Increment(const ImplicitData *e, MbBody b, PetscReal h, const PetscReal x[], PetscReal d[], PetscReal v[])
{
  const PetscReal *an = b->acc + b->nu;
  for (PetscInt i = 0; i < b->nu; i++) {
    d[i] = h * b->u0[i] + h * h * (e->ca * an[i] + e->beta * x[i]);
    v[i] = b->u0[i] + h * (e->cv * an[i] + e->gamma * x[i]);
  }
}

static PetscErrorCode ImplicitStage(MbScheme s, MbBody b, PetscReal h, const PetscReal x[])
{
  ImplicitData *e = (ImplicitData *)s->data;
  PetscReal     d[6], v[6];
  PetscFunctionBegin;
  PetscCheck(b->nu <= 6, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " has %" PetscInt_FMT " velocities; the force schemes handle up to 6 for now", b->id, b->nu);
  Increment(e, b, h, x, d, v);
  for (PetscInt i = 0; i < b->nu; i++) {
    d[i] *= 1.0 - e->af;
    b->u[i] = (1.0 - e->af) * v[i] + e->af * b->u0[i];
  }
  PetscCall(b->ops->advance(b, b->q0, d, b->q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ImplicitResidual(MbScheme s, MbBody b, const PetscReal x[], PetscReal r[])
{
  ImplicitData *e = (ImplicitData *)s->data;
  PetscReal     a[6];
  PetscFunctionBegin;
  PetscCall(b->ops->acceleration(b, b->force, a)); /* at the staged u */
  for (PetscInt i = 0; i < b->nu; i++) r[i] = (1.0 - e->am) * x[i] + e->am * b->acc[b->nu + i] - a[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ImplicitFinish(MbScheme s, MbBody b, PetscReal h, const PetscReal x[])
{
  ImplicitData *e = (ImplicitData *)s->data;
  PetscReal     d[6], v[6];
  PetscFunctionBegin;
  if (!GaCited && e->af > 0) PetscCall(PetscCitationsRegister(GaCitation, &GaCited));
  Increment(e, b, h, x, d, v);
  PetscCall(b->ops->advance(b, b->q0, d, b->q));
  for (PetscInt i = 0; i < b->nu; i++) {
    b->u[i]           = v[i];
    b->acc[b->nu + i] = x[i];
    b->acc[i]         = x[i]; /* a(n+1) stands for A⁻¹f at the new state (curvature, output) */
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GaSetRho(MbScheme s, PetscReal rho)
{
  ImplicitData *e = (ImplicitData *)s->data;
  e->rho          = rho;
  e->am           = (2 * rho - 1) / (rho + 1);
  e->af           = rho / (rho + 1);
  e->gamma        = 0.5 - e->am + e->af;
  e->beta         = 0.25 * (1 - e->am + e->af) * (1 - e->am + e->af);
  e->ca           = 0.5 - e->beta;
  e->cv           = 1 - e->gamma;
  s->tshift       = 1 - e->af;
  return PETSC_SUCCESS;
}

static PetscErrorCode GaSetParam(MbScheme s, const char name[], PetscReal v)
{
  PetscBool is;
  PetscFunctionBegin;
  PetscCall(PetscStrcmp(name, "rho_inf", &is));
  PetscCheck(is, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "scheme %s has no parameter '%s' (it has rho_inf)", s->type, name);
  PetscCheck(v >= 0 && v <= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "scheme %s: rho_inf must be in [0, 1], got %g", s->type, (double)v);
  PetscCall(GaSetRho(s, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GaSetFromOptions(MbScheme s, PetscOptionItems *PetscOptionsObject)
{
  PetscReal rho = ((ImplicitData *)s->data)->rho;
  PetscBool set;
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "GALPHA options");
  PetscCall(PetscOptionsReal("-mb_scheme_rho_inf", "GALPHA: spectral radius at infinite frequency, in [0, 1]", "MbSchemeSetParameter", rho, &rho, &set));
  PetscOptionsHeadEnd();
  if (set) PetscCall(GaSetParam(s, "rho_inf", rho));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ImplicitDestroy(MbScheme s)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ImplicitSetOps(MbScheme s)
{
  ImplicitData *e;
  PetscFunctionBegin;
  PetscCall(PetscNew(&e));
  s->data         = e;
  s->family       = MB_SCHEME_IMPLICIT;
  s->ops.applies  = ImplicitApplies;
  s->ops.stage    = ImplicitStage;
  s->ops.residual = ImplicitResidual;
  s->ops.finish   = ImplicitFinish;
  s->ops.destroy  = ImplicitDestroy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeCreate_EulerImp(MbScheme s)
{
  ImplicitData *e;
  PetscFunctionBegin;
  PetscCall(ImplicitSetOps(s));
  e         = (ImplicitData *)s->data;
  e->beta   = 1;
  e->gamma  = 1;
  s->tshift = 1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeCreate_GAlpha(MbScheme s)
{
  PetscFunctionBegin;
  PetscCall(ImplicitSetOps(s));
  s->ops.setparam       = GaSetParam;
  s->ops.setfromoptions = GaSetFromOptions;
  PetscCall(GaSetRho(s, 0.8)); /* a common default: mild high-frequency dissipation */
  PetscFunctionReturn(PETSC_SUCCESS);
}
