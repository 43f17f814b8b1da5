/* Deformable schemes DEF_EXP and DEF_LIM (seed 000, "Deformable integration", eqs. (39)–(40)):
       q(t+h/2) = q + h/2 u,
       u(t+h)   = u + h A⁻¹ f(q(t+h/2), u),        f = f_ext − f_int − η K u,
       q(t+h)   = q(t+h/2) + h/2 u(t+h),
   with A = M (DEF_EXP, explicit leap-frog) or A = M + (ηh/2 + h²/4) K(q(t+h/2)) (DEF_LIM,
   linearly implicit). Begin leaves the free velocity u + hA⁻¹f in the body, so that the
   constraint impulse hA⁻¹HᵀR, with the same A, adds to it (seed 001); end finishes q.
   The body's kind supplies M, K, f_int and the factorization of A (its ops); a kind without
   internal forces has A = M and neither op. */
#include "../schemeimpl.h"

/* A's coefficient of K */
static PetscReal DefExpCoefficient(MbBody b, PetscReal h) { return 0; }
static PetscReal DefLimCoefficient(MbBody b, PetscReal h) { return 0.5 * b->damping * h + 0.25 * h * h; }

static PetscErrorCode DefBegin(MbScheme s, MbBody b, PetscReal t, PetscReal h, const PetscReal g[3], PetscReal (*coef)(MbBody, PetscReal))
{
  const PetscInt nu = b->nu;
  PetscReal      fs[MB_BODY_SMALL_NU], dus[MB_BODY_SMALL_NU], *fi = fs, *du = dus;
  PetscFunctionBegin;
  for (PetscInt i = 0; i < b->nq; i++) b->q[i] = b->q0[i] + 0.5 * h * b->u0[i];
  if (b->ops->project) PetscCall(b->ops->project(b, b->u0)); /* a reduced body: u(t) in the span its base has at q(t+h/2) (Solfec-1.0's 'BC-MODAL' re-projects it so, fem.c) */
  PetscCall(b->ops->external(b, t + 0.5 * h, h, g, b->fext));
  if (nu > MB_BODY_SMALL_NU) PetscCall(PetscMalloc2(nu, &fi, nu, &du));
  if (b->ops->internal) {
    PetscCall(b->ops->internal(b, b->u0, fi));
    for (PetscInt i = 0; i < nu; i++) fi[i] = b->fext[i] - fi[i];
  } else
    PetscCall(PetscArraycpy(fi, b->fext, nu)); /* a kind without internal forces (a point mass) */
  if (b->ops->factor) PetscCall(b->ops->factor(b, coef(b, h)));
  PetscCall(b->ops->inverse(b, 1, fi, du));
  for (PetscInt i = 0; i < nu; i++) b->u[i] = b->u0[i] + h * du[i];
  if (fi != fs) PetscCall(PetscFree2(fi, du));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DefExpBegin(MbScheme s, MbBody b, PetscReal t, PetscReal h, const PetscReal g[3]) { return DefBegin(s, b, t, h, g, DefExpCoefficient); }
static PetscErrorCode DefLimBegin(MbScheme s, MbBody b, PetscReal t, PetscReal h, const PetscReal g[3]) { return DefBegin(s, b, t, h, g, DefLimCoefficient); }

static PetscErrorCode DefEnd(MbScheme s, MbBody b, PetscReal t, PetscReal h)
{
  for (PetscInt i = 0; i < b->nq; i++) b->q[i] += 0.5 * h * b->u[i];
  return PETSC_SUCCESS;
}

PetscErrorCode MbSchemeCreate_DefExp(MbScheme s)
{
  s->requires  = MB_BODY_TRAIT_LINEAR;
  s->ops.begin = DefExpBegin;
  s->ops.end   = DefEnd;
  s->bounded   = PETSC_TRUE;
  return PETSC_SUCCESS;
}

PetscErrorCode MbSchemeCreate_DefLim(MbScheme s)
{
  s->requires  = MB_BODY_TRAIT_LINEAR;
  s->ops.begin = DefLimBegin;
  s->ops.end   = DefEnd;
  return PETSC_SUCCESS;
}
