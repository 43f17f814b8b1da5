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
   Mech. 60, 1993).
   Variable step (issue 22). a(n) lags the acceleration: put a(n) = ä(t(n)) + δ h ȧ + O(h²)
   into R = 0 and δ = α_m − α_f; γ = ½ − α_m + α_f is what makes v(n+1) second order for that
   lag. But a(n) lags by δ h(n−1), the step that made it, so with h(n) ≠ h(n−1) v(n+1) is off
   by O(h (h(n) − h(n−1)) ȧ): first order over a run whose step changes by a fraction from step
   to step (t031: error ratios 3.70, 3.36 on halving h at ρ∞ = 0). So the history is kept
   free of the step: acc[nu..2nu) holds w(n) = ä(t(n)) + O(h²) and acc[2nu..3nu) the slope
   s(n) = ȧ + O(h), and each step takes the lagged acceleration for its own h,
     ã(n) = w(n) + δ h s(n),
   for a(n) in every formula above; with x = a(n+1), lagged by δ h behind t(n+1),
     s(n+1) = (x − ã(n))/h,   w(n+1) = x − δ h s(n+1) = (1 − δ) x + δ ã(n).
   At a constant step ã(n) is a(n) (to round-off). A start (src/domain/forces.c copies
   A⁻¹f = ä(t(n)) into both history vectors, which are then equal) has s = 0: a(0) = ä(0),
   not lagged, as the constant-step method starts. EULER_IMP has δ = 0: w is a(n), bit for
   bit. */
#include <moreau/mbmath.h>
#include "../schemeimpl.h"
#include "../../body/bodyview.h"

typedef struct {
  PetscReal rho;                         /* GALPHA: ρ∞, the spectral radius at infinite frequency */
  PetscReal am, af, beta, gamma, ca, cv; /* the Newmark-α coefficients above */
  PetscReal delta;                       /* α_m − α_f: a(n) lags ä(t(n)) by δ h */
  PetscReal h;                           /* the step being solved, set by stage for residual (all
                                            bodies take one step; stage comes first) */
} ImplicitData;

static const char GaCitation[] = "@article{chung1993generalized,\n"
                                 "  author  = {J. Chung and G. M. Hulbert},\n"
                                 "  title   = {A time integration algorithm for structural dynamics with improved numerical dissipation: the generalized-$\\alpha$ method},\n"
                                 "  journal = {Journal of Applied Mechanics},\n"
                                 "  volume  = {60}, number = {2}, pages = {371--375}, year = {1993}\n}\n";
static PetscBool  GaCited      = PETSC_FALSE;

/* ã(n) = w(n) + δ h s(n), a(n) lagged for this step h (the variable-step note above); at a
   start the two history vectors are equal and s = 0. */
static void Lagged(const ImplicitData *e, const MbBodyView *v, PetscReal h, PetscReal an[])
{
  const PetscReal *w = v->acc + v->nu, *sl = v->acc + 2 * v->nu;
  PetscBool        start = PETSC_TRUE;
  for (PetscInt i = 0; i < v->nu && start; i++) start = w[i] == sl[i] ? PETSC_TRUE : PETSC_FALSE;
  for (PetscInt i = 0; i < v->nu; i++) an[i] = start || e->delta == 0 ? w[i] : w[i] + e->delta * h * sl[i];
}

/* The full increment Δ = h v(n) + h²(c_a a(n) + β x) and v(n+1), from q0, u0 (an: ã(n)). */
static void Increment(const ImplicitData *e, const MbBodyView *bv, PetscReal h, const PetscReal an[], const PetscReal x[], PetscReal d[], PetscReal v[])
{
  for (PetscInt i = 0; i < bv->nu; i++) {
    d[i] = h * bv->u0[i] + h * h * (e->ca * an[i] + e->beta * x[i]);
    v[i] = bv->u0[i] + h * (e->cv * an[i] + e->gamma * x[i]);
  }
}

static PetscErrorCode ImplicitStage(MbScheme s, MbBody b, PetscReal h, const PetscReal x[])
{
  ImplicitData *e = (ImplicitData *)s->data;
  MbBodyView    bv;
  PetscReal     d[6], v[6], an[6];
  PetscFunctionBegin;
  PetscCall(MbBodyGetView(b, &bv));
  PetscCheck(bv.nu <= 6, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " has %" PetscInt_FMT " velocities; the force schemes handle up to 6 for now", bv.id, bv.nu);
  e->h = h;
  Lagged(e, &bv, h, an);
  Increment(e, &bv, h, an, x, d, v);
  for (PetscInt i = 0; i < bv.nu; i++) {
    d[i] *= 1.0 - e->af;
    bv.u[i] = (1.0 - e->af) * v[i] + e->af * bv.u0[i];
  }
  PetscCall(MbBodyAdvance(b, bv.q0, d, bv.q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ImplicitResidual(MbScheme s, MbBody b, const PetscReal x[], PetscReal r[])
{
  ImplicitData *e = (ImplicitData *)s->data;
  MbBodyView    bv;
  PetscReal     a[6], an[6];
  PetscFunctionBegin;
  PetscCall(MbBodyGetView(b, &bv));
  PetscCall(MbBodyAcceleration(b, bv.force, a)); /* at the staged u */
  Lagged(e, &bv, e->h, an);
  for (PetscInt i = 0; i < bv.nu; i++) r[i] = (1.0 - e->am) * x[i] + e->am * an[i] - a[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ImplicitFinish(MbScheme s, MbBody b, PetscReal h, const PetscReal x[])
{
  ImplicitData *e = (ImplicitData *)s->data;
  MbBodyView    bv;
  PetscReal     d[6], v[6], an[6];
  PetscFunctionBegin;
  if (!GaCited && e->af > 0) PetscCall(PetscCitationsRegister(GaCitation, &GaCited));
  PetscCall(MbBodyGetView(b, &bv));
  Lagged(e, &bv, h, an);
  Increment(e, &bv, h, an, x, d, v);
  PetscCall(MbBodyAdvance(b, bv.q0, d, bv.q));
  for (PetscInt i = 0; i < bv.nu; i++) {
    bv.u[i] = v[i];
    if (e->delta == 0)
      bv.acc[bv.nu + i] = x[i]; /* no lag: w(n+1) = a(n+1) */
    else {
      bv.acc[2 * bv.nu + i] = (x[i] - an[i]) / h;                       /* s(n+1) */
      bv.acc[bv.nu + i]     = (1 - e->delta) * x[i] + e->delta * an[i]; /* w(n+1) */
    }
    bv.acc[i] = x[i]; /* a(n+1) stands for A⁻¹f at the new state (curvature, output) */
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
  e->delta        = e->am - e->af;
  s->tshift       = 1 - e->af;
  return PETSC_SUCCESS;
}

static PetscErrorCode GaSetParam(MbScheme s, const char name[], PetscReal v)
{
  PetscFunctionBegin;
  PetscCall(MbSchemeCheckParameter(s, name, "rho_inf", v, 0, 1, "[0, 1]"));
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
  s->requires     = MB_BODY_TRAIT_FORCE;
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
