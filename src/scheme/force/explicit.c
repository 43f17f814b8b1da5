/* Explicit force schemes: EULER_EXP, CDM, EGALPHA and CHUNG_LEE. Each step is
   predict → force evaluation at the new state (src/domain/forces.c) → correct, so that
   every scheme takes one evaluation of all forces (gravity, loads, springs, penalty
   contacts) per step. Per body (its view, src/body/bodyview.h): acc[0..nu) holds a* = A⁻¹f at the current
   state; acc[nu..2nu) and acc[2nu..3nu) are the history the scheme keeps (the algorithmic
   acceleration a_n of EGALPHA, the previous a_(n−1) of CHUNG_LEE). The configuration moves
   by the body's advance op, q ⊕ Δ, where Δ is the increment a linear-space scheme would
   add to d: rotations of rigid bodies go by the exponential map, Λ exp[Δ_Ω] (src/core/expmap.c).
   With variable h (adaptive runs): CDM's kick–drift–kick is the variable-step central
   difference of Park and Underwood as it stands (CdmPredict); EGALPHA and CHUNG_LEE keep a
   history with a part proportional to the step that made it, which is rescaled to the step
   now taken (EgaPredict, ClPredict). For that each keeps h(n−1), the step that wrote its
   history, in the first entry of the history vector it leaves unused: acc[2nu] (EGALPHA),
   acc[nu] (CHUNG_LEE). Inside acc it goes wherever the history goes: migration (pack.c),
   the saved state of a rejected interval (state.c), checkpoints. */
#include <moreau/mbmath.h>
#include "../schemeimpl.h"
#include "../../body/bodyview.h"

typedef struct {
  PetscReal rho;             /* EGALPHA: ρ_b, the spectral radius at the bifurcation frequency */
  PetscReal am, beta, gamma; /* EGALPHA: α_m, β, γ; CHUNG_LEE: β */
} ExplicitData;

static const char CdmCitation[] = "@article{park1980variable,\n"
                                  "  author  = {K. C. Park and P. G. Underwood},\n"
                                  "  title   = {A variable-step central difference method for structural dynamics analysis -- part 1. Theoretical aspects},\n"
                                  "  journal = {Computer Methods in Applied Mechanics and Engineering},\n"
                                  "  volume  = {22}, number = {2}, pages = {241--258}, year = {1980}\n}\n";
static const char EgaCitation[] = "@article{hulbert1996explicit,\n"
                                  "  author  = {Gregory M. Hulbert and Jintai Chung},\n"
                                  "  title   = {Explicit time integration algorithms for structural dynamics with optimal numerical dissipation},\n"
                                  "  journal = {Computer Methods in Applied Mechanics and Engineering},\n"
                                  "  volume  = {137}, number = {2}, pages = {175--188}, year = {1996}\n}\n";
static const char ClCitation[]  = "@article{chung1994new,\n"
                                  "  author  = {Jintai Chung and Jang Moo Lee},\n"
                                  "  title   = {A new family of explicit time integration methods for linear and non-linear structural dynamics},\n"
                                  "  journal = {International Journal for Numerical Methods in Engineering},\n"
                                  "  volume  = {37}, number = {23}, pages = {3961--3976}, year = {1994}\n}\n";
static PetscBool  CdmCited = PETSC_FALSE, EgaCited = PETSC_FALSE, ClCited = PETSC_FALSE;

/* Common correct: a* = A⁻¹f at the new state (at the body's current u). */
static PetscErrorCode ExplicitCorrect(MbScheme s, MbBody b, PetscReal h)
{
  MbBodyView v;
  PetscFunctionBegin;
  PetscCall(MbBodyGetView(b, &v));
  PetscCall(MbBodyAcceleration(b, v.force, v.acc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* EULER_EXP (seed 002, forward Euler): q(t+h) = q ⊕ h u, u(t+h) = u + h a*(q, u, t). */
static PetscErrorCode EulerExpPredict(MbScheme s, MbBody b, PetscReal h)
{
  MbBodyView v;
  PetscReal  d[6] = {0}; /* zeroed: GCC cannot tell that the body has velocities (nu > 0) and warns */
  PetscFunctionBegin;
  PetscCall(MbBodyGetView(b, &v));
  PetscCheck(v.nu <= 6, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " has %" PetscInt_FMT " velocities; the force schemes handle up to 6 for now", v.id, v.nu);
  for (PetscInt i = 0; i < v.nu; i++) d[i] = h * v.u[i];
  PetscCall(MbBodyAdvance(b, v.q, d, v.q));
  for (PetscInt i = 0; i < v.nu; i++) v.u[i] += h * v.acc[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CDM as kick–drift–force–kick: u(t+h/2) = u + h/2 a*(t), q(t+h) = q ⊕ h u(t+h/2), forces at
   q(t+h), u(t+h) = u(t+h/2) + h/2 a*(t+h). Over two steps h₁, h₂ this gives
   u(n+1/2) − u(n−1/2) = (h₁ + h₂)/2 · a*(n): Park and Underwood's variable-step central
   difference (CMAME 22, 1980). Forces that depend on the velocity (dashpots, penalty
   dashpots, the gyroscopic term of a rigid body) are evaluated with the predicted
   ũ(t+h) = u(t+h/2) + h/2 a*(t), which differs from u(t+h) by O(h²): with the half-step
   velocity instead they would cost an order (first-order angular momentum drift of a
   tumbling body, measured). u(t+h/2) waits in acc[nu..2nu) for the correction. */
static PetscErrorCode CdmPredict(MbScheme s, MbBody b, PetscReal h)
{
  MbBodyView v;
  PetscReal  d[6], *uh;
  PetscFunctionBegin;
  if (!CdmCited) PetscCall(PetscCitationsRegister(CdmCitation, &CdmCited));
  PetscCall(MbBodyGetView(b, &v));
  uh = v.acc + v.nu;
  PetscCheck(v.nu <= 6, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " has %" PetscInt_FMT " velocities; the force schemes handle up to 6 for now", v.id, v.nu);
  for (PetscInt i = 0; i < v.nu; i++) {
    uh[i]  = v.u[i] + 0.5 * h * v.acc[i];
    d[i]   = h * uh[i];
    v.u[i] = uh[i] + 0.5 * h * v.acc[i];
  }
  PetscCall(MbBodyAdvance(b, v.q, d, v.q));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CdmCorrect(MbScheme s, MbBody b, PetscReal h)
{
  MbBodyView v;
  PetscFunctionBegin;
  PetscCall(MbBodyGetView(b, &v));
  PetscCall(MbBodyAcceleration(b, v.force, v.acc)); /* at ũ(t+h) */
  for (PetscInt i = 0; i < v.nu; i++) v.u[i] = v.acc[v.nu + i] + 0.5 * h * v.acc[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* r = h/h(n−1) for the variable-step forms below, from the stored h(n−1) and the history
   difference x − y that it rescales. src/domain/forces.c starts a history by copying A⁻¹f
   into both history vectors, so at a start x = y and the entry meant for h(n−1) holds a
   copied acceleration: with no difference there is nothing to rescale, r = 1. r = 1 too
   where h(n−1) is not a positive number (a history this scheme did not write). */
static PetscReal StepRatio(const PetscReal x[], const PetscReal y[], PetscInt n, PetscReal hprev, PetscReal h)
{
  PetscBool same = PETSC_TRUE;
  for (PetscInt i = 0; i < n && same; i++) same = x[i] == y[i] ? PETSC_TRUE : PETSC_FALSE;
  return same || !(hprev > 0 && PetscIsNormalReal(hprev)) ? 1.0 : h / hprev;
}

/* EGALPHA, Hulbert and Chung (CMAME 137, 1996): equilibrium at the known state,
     (1 − α_m) a(n+1) + α_m a(n) = a*(n) = A⁻¹f(d(n), v(n), t(n)),
     d(n+1) = d(n) + h v(n) + h² [(½ − β) a(n) + β a(n+1)],
     v(n+1) = v(n) + h [(1 − γ) a(n) + γ a(n+1)],
   with α_m = (2ρ_b − 1)/(1 + ρ_b), β = (5 − 3ρ_b)/((1 + ρ_b)²(2 − ρ_b)), γ = 3/2 − α_m
   (second order; ρ_b the spectral radius at the bifurcation frequency). acc[nu..2nu) is a(n);
   the forces evaluated at the end of this step are the next step's a*.
   The coefficients are the paper's design: on ä = −ω²d, with Ω = ωh, the characteristic
   polynomial of one step is (λ + ρ_b)³ at the bifurcation Ω_b = (1 + ρ_b)√(2 − ρ_b) (three
   equations, solved by exactly these α_m, β; 1.8371 at ρ_b = ½). The step is stable up to
   Ω_s, where a real root leaves through λ = −1 (no complex pair reaches |λ| = 1 for ρ_b < 1):
     Ω_s² = 4(1 − 2α_m)/(4β + 2α_m − 3) = 12(1 + ρ_b)(2 − ρ_b)/(10 − 5ρ_b + ρ_b²),
   1.5492 (ρ_b = 0), 1.8665 (½), 2 (1); t031 measures 1.8665 at ½ by bisection. The limit
   quoted from the paper, Ω² = 12(1 + ρ_b)³(2 − ρ_b)/(10 + 15ρ_b − ρ_b² + ρ_b³ − ρ_b⁴),
   agrees only at ρ_b = 0 and 1: its denominator should be (1 + ρ_b)²(10 − 5ρ_b + ρ_b²) =
   10 + 15ρ_b + ρ_b² − 3ρ_b³ + ρ_b⁴. At ρ_b = ½ it gives 1.8732, where |λ| = 1.054.
   Variable step, h = h(n), r = h(n)/h(n−1). a(n) lags the acceleration: put
   a(n) = ä(t(n)) + δ h ȧ + O(h²) into the equilibrium and δ = α_m − 1, a lag of (1 − α_m) h
   behind t(n); γ = 3/2 − α_m is what makes v(n+1) second order for that lag,
   h²ȧ [(1 − γ)δ + γ(1 + δ)] = h²ȧ/2. But a(n) lags by (1 − α_m) h(n−1), the step that made
   it, so with h(n) ≠ h(n−1) v(n+1) is off by O(h (h(n) − h(n−1)) ȧ): first order over a run
   whose step changes by a fraction from step to step. Hence before the step the lag is
   rescaled to h(n) by a linear extrapolation through a*(n) = ä(t(n)) + O(h²),
     ã(n) = a(n) + (r − 1)(a(n) − a*(n))   (= a*(n) + r (a(n) − a*(n))),
   and the three formulas take ã(n) for a(n); a(n+1) then lags by (1 − α_m) h(n), as the next
   step assumes, and the local error of v is O(h³) again. At r = 1, ã(n) = a(n): the
   constant-step formulas, bit for bit. */
static PetscErrorCode EgaPredict(MbScheme s, MbBody b, PetscReal h)
{
  ExplicitData *e = (ExplicitData *)s->data;
  MbBodyView    v;
  PetscReal     d[6], a1[6], at[6], *an, *hprev, r;
  PetscFunctionBegin;
  if (!EgaCited) PetscCall(PetscCitationsRegister(EgaCitation, &EgaCited));
  PetscCall(MbBodyGetView(b, &v));
  an    = v.acc + v.nu;
  hprev = v.acc + 2 * v.nu;
  PetscCheck(v.nu <= 6, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " has %" PetscInt_FMT " velocities; the force schemes handle up to 6 for now", v.id, v.nu);
  r = StepRatio(an, v.acc, v.nu, *hprev, h);
  for (PetscInt i = 0; i < v.nu; i++) {
    at[i] = an[i] + (r - 1) * (an[i] - v.acc[i]);
    a1[i] = (v.acc[i] - e->am * at[i]) / (1.0 - e->am);
    d[i]  = h * v.u[i] + h * h * ((0.5 - e->beta) * at[i] + e->beta * a1[i]);
  }
  PetscCall(MbBodyAdvance(b, v.q, d, v.q));
  for (PetscInt i = 0; i < v.nu; i++) {
    v.u[i] += h * ((1.0 - e->gamma) * at[i] + e->gamma * a1[i]);
    an[i] = a1[i];
  }
  *hprev = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CHUNG_LEE (IJNME 37, 1994): with a(n) = a*(n) and the previous a(n−1) (acc[2nu..3nu)),
     d(n+1) = d(n) + h v(n) + h² [β a(n) + (½ − β) a(n−1)],
     v(n+1) = v(n) + h [3/2 a(n) − ½ a(n−1)],
   forces at (d(n+1), v(n+1)); second order for every β, dissipative for β > 1, stable up
   to a critical step that shrinks as β grows; the family is β ∈ [1, 28/27].
   Variable step, h = h(n), r = h(n)/h(n−1). Both formulas extrapolate the acceleration along
   the line through a(n−1), a(n), of slope s = (a(n) − a(n−1))/h(n−1) ≈ ȧ:
     d(n+1) = d(n) + h v(n) + h² [½ a(n) + (β − ½) h s],   v(n+1) = v(n) + h [a(n) + ½ h s],
   v the integral of the line over the step (Adams–Bashforth 2), d its double integral with
   the slope's weight 1/6 replaced by β − ½, which sets the dissipation. At constant h,
   h s = a(n) − a(n−1) and these are the formulas above. With variable h the slope must be
   the one measured over h(n−1), h s = r (a(n) − a(n−1)); taken as a(n) − a(n−1), v(n+1) is
   off by ½ h (h(n−1) − h(n)) ȧ, first order over a run whose step changes by a fraction
   from step to step. Written as the constant-step formulas plus the rescaling,
     d(n+1) = … + h² (β − ½)(r − 1)(a(n) − a(n−1)),   v(n+1) = … + ½ h (r − 1)(a(n) − a(n−1)),
   bit for bit the old ones at r = 1. At β = 28/27 this is EGALPHA at ρ_b = ½ (α_m = 0,
   β = 28/27, γ = 3/2), its variable-step form included: two derivations, one result (t031). */
static PetscErrorCode ClPredict(MbScheme s, MbBody b, PetscReal h)
{
  ExplicitData *e = (ExplicitData *)s->data;
  MbBodyView    v;
  PetscReal     d[6], dd[6], *ap, *hprev, r;
  PetscFunctionBegin;
  if (!ClCited) PetscCall(PetscCitationsRegister(ClCitation, &ClCited));
  PetscCall(MbBodyGetView(b, &v));
  ap    = v.acc + 2 * v.nu;
  hprev = v.acc + v.nu;
  PetscCheck(v.nu <= 6, PETSC_COMM_SELF, PETSC_ERR_SUP, "body %" PetscInt_FMT " has %" PetscInt_FMT " velocities; the force schemes handle up to 6 for now", v.id, v.nu);
  r = StepRatio(v.acc, ap, v.nu, *hprev, h);
  for (PetscInt i = 0; i < v.nu; i++) {
    dd[i] = (r - 1) * (v.acc[i] - ap[i]);
    d[i]  = h * v.u[i] + h * h * (e->beta * v.acc[i] + (0.5 - e->beta) * ap[i] + (e->beta - 0.5) * dd[i]);
  }
  PetscCall(MbBodyAdvance(b, v.q, d, v.q));
  for (PetscInt i = 0; i < v.nu; i++) {
    v.u[i] += h * (1.5 * v.acc[i] - 0.5 * ap[i] + 0.5 * dd[i]);
    ap[i] = v.acc[i];
  }
  *hprev = h;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EgaSetRho(ExplicitData *e, PetscReal rho)
{
  e->rho   = rho;
  e->am    = (2 * rho - 1) / (1 + rho);
  e->beta  = (5 - 3 * rho) / ((1 + rho) * (1 + rho) * (2 - rho));
  e->gamma = 1.5 - e->am;
  return PETSC_SUCCESS;
}

/* EGALPHA's one parameter, rho_b */
static PetscErrorCode EgaSetParam(MbScheme s, const char name[], PetscReal v)
{
  PetscFunctionBegin;
  PetscCall(MbSchemeCheckParameter(s, name, "rho_b", v, 0, 1, "[0, 1]"));
  PetscCall(EgaSetRho((ExplicitData *)s->data, v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CHUNG_LEE's one parameter, beta: [1, 28/27] is the family of the paper (dissipative above 1) */
static PetscErrorCode ClSetParam(MbScheme s, const char name[], PetscReal v)
{
  PetscFunctionBegin;
  PetscCall(MbSchemeCheckParameter(s, name, "beta", v, 1, 28.0 / 27.0 + 1e-12, "[1, 28/27]"));
  ((ExplicitData *)s->data)->beta = v;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode EgaSetFromOptions(MbScheme s, PetscOptionItems *PetscOptionsObject)
{
  PetscReal rho = ((ExplicitData *)s->data)->rho;
  PetscBool set;
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "EGALPHA options");
  PetscCall(PetscOptionsReal("-mb_scheme_rho_b", "EGALPHA: spectral radius at the bifurcation frequency, in [0, 1]", "MbSchemeSetParameter", rho, &rho, &set));
  PetscOptionsHeadEnd();
  if (set) PetscCall(EgaSetParam(s, "rho_b", rho));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ClSetFromOptions(MbScheme s, PetscOptionItems *PetscOptionsObject)
{
  PetscReal beta = ((ExplicitData *)s->data)->beta;
  PetscBool set;
  PetscFunctionBegin;
  PetscOptionsHeadBegin(PetscOptionsObject, "CHUNG_LEE options");
  PetscCall(PetscOptionsReal("-mb_scheme_beta", "CHUNG_LEE: beta, in [1, 28/27]", "MbSchemeSetParameter", beta, &beta, &set));
  PetscOptionsHeadEnd();
  if (set) PetscCall(ClSetParam(s, "beta", beta));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ExplicitDestroy(MbScheme s)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(s->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ExplicitSetOps(MbScheme s, PetscErrorCode (*predict)(MbScheme, MbBody, PetscReal), PetscErrorCode (*correct)(MbScheme, MbBody, PetscReal))
{
  ExplicitData *e;
  PetscFunctionBegin;
  PetscCall(PetscNew(&e));
  s->data        = e;
  s->family      = MB_SCHEME_EXPLICIT;
  s->requires    = MB_BODY_TRAIT_FORCE;
  s->ops.predict = predict;
  s->ops.correct = correct;
  s->ops.destroy = ExplicitDestroy;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeCreate_EulerExp(MbScheme s) { return ExplicitSetOps(s, EulerExpPredict, ExplicitCorrect); }
PetscErrorCode MbSchemeCreate_CDM(MbScheme s) { return ExplicitSetOps(s, CdmPredict, CdmCorrect); }

PetscErrorCode MbSchemeCreate_EGAlpha(MbScheme s)
{
  PetscFunctionBegin;
  PetscCall(ExplicitSetOps(s, EgaPredict, ExplicitCorrect));
  s->ops.setparam       = EgaSetParam;
  s->ops.setfromoptions = EgaSetFromOptions;
  PetscCall(EgaSetRho((ExplicitData *)s->data, 0.5)); /* Lages et al. do not say; a mid value */
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MbSchemeCreate_ChungLee(MbScheme s)
{
  ExplicitData *e;
  PetscFunctionBegin;
  PetscCall(ExplicitSetOps(s, ClPredict, ExplicitCorrect));
  s->ops.setparam       = ClSetParam;
  s->ops.setfromoptions = ClSetFromOptions;
  e                     = (ExplicitData *)s->data;
  e->beta               = 1.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
