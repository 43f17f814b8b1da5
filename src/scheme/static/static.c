/* Quasi-static schemes RIG_STATIC and DEF_STATIC: the time stepping of a QUASI_STATIC
   analysis (SOLFEC('QUASI_STATIC', ...)), as Solfec-1.0 does it (its bod.c and fem.c static
   steps, read for behaviour). Every step starts from rest: the velocity of the previous
   step is dropped, so that
       u(t+h) = h A⁻¹ f(t+h),        f = f_ext(t+h) − f_int(q(t)),
   (backward Euler from rest: h u ≈ K⁻¹ f when h²K dominates M), the constraint impulse
   h A⁻¹ HᵀR adds to it (seed 001), and
       q(t+h) = q(t) + h u(t+h).
   Contacts are detected at q(t): begin leaves the body where the step started.
   DEF_STATIC (pseudo-rigid and finite-element bodies): A = M + h² K(q(t)), no damping.
   RIG_STATIC (rigid bodies): A = M; the torque is T − Ω₁ × JΩ₁ with Ω₁ = J⁻¹(exp[−hΩ]JΩ + hT),
   the rotation Λ(t+h) = Λ(t) exp[h Ω(t+h)]. */
#include <moreau/mbmath.h>
#include "../schemeimpl.h"

static PetscErrorCode DefStaticBegin(MbScheme s, MbBody b, PetscReal t, PetscReal h, const PetscReal g[3])
{
  const PetscInt nu = b->nu;
  PetscReal      fs[MB_BODY_SMALL_NU], dus[MB_BODY_SMALL_NU], zs[MB_BODY_SMALL_NU], *fi = fs, *du = dus, *zero = zs;
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(b->q, b->q0, b->nq));
  PetscCall(b->ops->external(b, t + h, h, g, b->fext));
  if (nu > MB_BODY_SMALL_NU) PetscCall(PetscMalloc3(nu, &fi, nu, &du, nu, &zero));
  if (b->ops->internal) {
    PetscCall(PetscArrayzero(zero, nu)); /* f_int(q) alone: no damping force from rest */
    PetscCall(b->ops->internal(b, zero, fi));
    for (PetscInt i = 0; i < nu; i++) fi[i] = b->fext[i] - fi[i];
  } else
    PetscCall(PetscArraycpy(fi, b->fext, nu));
  if (b->ops->factor) PetscCall(b->ops->factor(b, h * h));
  PetscCall(b->ops->inverse(b, 1, fi, du));
  for (PetscInt i = 0; i < nu; i++) b->u[i] = h * du[i];
  if (fi != fs) PetscCall(PetscFree3(fi, du, zero));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DefStaticEnd(MbScheme s, MbBody b, PetscReal t, PetscReal h)
{
  for (PetscInt i = 0; i < b->nq; i++) b->q[i] = b->q0[i] + h * b->u[i];
  return PETSC_SUCCESS;
}

/* y = exp[s Ω] x */
static void ExpApply(PetscReal s, const PetscReal O[3], const PetscReal x[3], PetscReal y[3])
{
  PetscReal psi[3], R[9];
  MbV3Scale(s, O, psi);
  MbExpMap(psi, R);
  MbM3Mult(R, x, y);
}

static PetscErrorCode RigStaticBegin(MbScheme s, MbBody b, PetscReal t, PetscReal h, const PetscReal g[3])
{
  const PetscReal *J = b->mp.inertia, *Ji = b->Jinv, *O = b->u0;
  PetscReal        JO[3], a[3], O1[3], c[3], *T = b->fext;
  PetscFunctionBegin;
  PetscCall(PetscArraycpy(b->q, b->q0, b->nq));
  PetscCall(b->ops->external(b, t + h, h, g, b->fext)); /* [T, F], T referential */
  MbM3Mult(J, O, JO);
  ExpApply(-h, O, JO, a);
  MbV3Axpy(h, T, a, a);
  MbM3Mult(Ji, a, O1); /* Ω₁ = J⁻¹(exp[−hΩ]JΩ + hT) */
  MbM3Mult(J, O1, a);
  MbV3Cross(O1, a, c);
  MbV3Sub(T, c, c);
  MbM3Mult(Ji, c, c);
  MbV3Scale(h, c, &b->u[0]); /* Ω(t+h) = h J⁻¹(T − Ω₁ × JΩ₁), from rest */
  MbV3Scale(h / b->mp.mass, &b->fext[3], &b->u[3]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RigStaticEnd(MbScheme s, MbBody b, PetscReal t, PetscReal h)
{
  PetscReal L[9], psi[3], R[9], T[9];
  MbM3Transpose(b->q0, L); /* Λ, stored column-wise */
  MbV3Scale(h, b->u, psi);
  MbExpMap(psi, R);
  MbM3MatMult(L, R, T);
  MbM3Transpose(T, b->q);
  MbV3Axpy(h, &b->u[3], &b->q0[9], &b->q[9]);
  return PETSC_SUCCESS;
}

PetscErrorCode MbSchemeCreate_DefStatic(MbScheme s)
{
  s->requires  = MB_BODY_TRAIT_LINEAR;
  s->ops.begin = DefStaticBegin;
  s->ops.end   = DefStaticEnd;
  return PETSC_SUCCESS;
}

PetscErrorCode MbSchemeCreate_RigStatic(MbScheme s)
{
  s->requires  = MB_BODY_TRAIT_ROTATION;
  s->ops.begin = RigStaticBegin;
  s->ops.end   = RigStaticEnd;
  return PETSC_SUCCESS;
}
