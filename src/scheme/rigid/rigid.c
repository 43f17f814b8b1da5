/* Rigid rotation schemes RIG_POS, RIG_NEG and RIG_IMP (seed 000, eqs. (31)–(38); Koziara
   and Bićanić, IJNME 81(9):1073–1092, 2010, schemes NEW1–NEW3). Linear motion is the
   leap-frog of the deformable schemes: x(t+h/2) = x + h/2 v, v⁺ = v + h/m F,
   x(t+h) = x(t+h/2) + h/2 v⁺.

   Begin computes (31)–(34) and leaves the free velocity u = [Ω₁, v⁺] in the body, so that
   the constraint impulse hA⁻¹HᵀR adds to it (seed 001). End recovers the total
   referential impulse hT (external and constraint torques) from (34) as
       hT = J(Ω₁ − Ω) + h Ω(t+h/2) × JΩ(t+h/2),
   and finishes with (35), (35)+(36) or (37)+(38). With T = 0, RIG_NEG and RIG_IMP map the
   spatial angular momentum ΛJΩ exactly: Λ(t+h)JΩ(t+h) = Λ(t+h/2)[exp(−h/2 Ω)JΩ + hT]. */
#include <moreau/mbmath.h>
#include "../schemeimpl.h"

typedef enum { RIG_POS, RIG_NEG, RIG_IMP } RigVariant;

static const char RigCitation[] = "@article{koziara2010rotations,\n"
                                  "  author  = {Tomasz Koziara and Nenad Bi\\'{c}ani\\'{c}},\n"
                                  "  title   = {Simple and efficient integration of rigid rotations suitable for constraint solutions},\n"
                                  "  journal = {International Journal for Numerical Methods in Engineering},\n"
                                  "  volume  = {81}, number = {9}, pages = {1073--1092}, year = {2010}\n}\n";
static PetscBool  RigCited      = PETSC_FALSE;

/* L = Λ (row-major) from q (Λ column-wise) and back */
static inline void GetLambda(const PetscReal q[], PetscReal L[9]) { MbM3Transpose(q, L); }
static inline void PutLambda(const PetscReal L[9], PetscReal q[]) { MbM3Transpose(L, q); }

/* L ← L exp[s Ω] */
static inline void RotateBy(PetscReal L[9], PetscReal s, const PetscReal O[3])
{
  PetscReal psi[3], R[9], T[9];
  MbV3Scale(s, O, psi);
  MbExpMap(psi, R);
  MbM3MatMult(L, R, T);
  MbM3Copy(T, L);
}

/* y = exp[s Ω] x */
static inline void ExpApply(PetscReal s, const PetscReal O[3], const PetscReal x[3], PetscReal y[3])
{
  PetscReal psi[3], R[9];
  MbV3Scale(s, O, psi);
  MbExpMap(psi, R);
  MbM3Mult(R, x, y);
}

/* J = jI (spheres, cubes, any body with three equal principal moments about axes of its
   frame): every ΛJΩ-preserving product of the scheme is then the identity, since exp[sΩ]
   leaves Ω, and so JΩ, unchanged, and Ω × JΩ = 0. Exactly, not to round-off: the
   entries are compared for equality, so a body whose inertia is only nearly isotropic
   takes the general path. */
static inline PetscBool Isotropic(const PetscReal J[9]) { return J[1] == 0 && J[2] == 0 && J[3] == 0 && J[5] == 0 && J[6] == 0 && J[7] == 0 && J[0] == J[4] && J[4] == J[8] ? PETSC_TRUE : PETSC_FALSE; }

static PetscErrorCode RigBegin(MbScheme s, MbBody b, PetscReal t, PetscReal h, const PetscReal g[3])
{
  const PetscReal *J = b->mp.inertia, *Ji = b->Jinv, *O = b->u0;
  PetscReal        L[9], JO[3], a[3], Oh[3], c[3], *T = b->fext;
  PetscFunctionBegin;
  if (!RigCited) PetscCall(PetscCitationsRegister(RigCitation, &RigCited));
  GetLambda(b->q0, L);
  RotateBy(L, 0.5 * h, O); /* (31) */
  PutLambda(L, b->q);
  MbV3Axpy(0.5 * h, &b->u0[3], &b->q0[9], &b->q[9]);
  PetscCall(b->ops->external(b, t + 0.5 * h, h, g, b->fext)); /* (32): T = fext[0..2] */
  if (Isotropic(J)) {                                         /* (33): Ω(t+h/2) = Ω + h/2 J⁻¹T; (34): Ω₁ = Ω + h J⁻¹T */
    MbM3Mult(Ji, T, c);
    MbV3Axpy(0.5 * h, c, O, b->aux);
    MbV3Axpy(h, c, O, &b->u[0]);
    MbV3Axpy(h / b->mp.mass, &b->fext[3], &b->u0[3], &b->u[3]);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  MbM3Mult(J, O, JO);
  ExpApply(-0.5 * h, O, JO, a);
  MbV3Axpy(0.5 * h, T, a, a);
  MbM3Mult(Ji, a, Oh); /* (33) */
  MbV3Copy(Oh, b->aux);
  MbM3Mult(J, Oh, a);
  MbV3Cross(Oh, a, c);
  MbV3Sub(T, c, c);
  MbM3Mult(Ji, c, c);
  MbV3Axpy(h, c, O, &b->u[0]); /* (34): Ω₁, the free angular velocity */
  MbV3Axpy(h / b->mp.mass, &b->fext[3], &b->u0[3], &b->u[3]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solve exp[h/2 Ω] JΩ = rhs by Newton from Ω = guess (37). The Jacobian of the left side
   is exp[h/2 Ω](J − h/2 hat(JΩ) T(h/2 Ω)), T the tangent operator of the exponential map.
   Converged when ‖residual‖ ≤ rtol·h·‖rhs‖: the rotation error it leaves is of order
   h·rtol·h relative. Returns the iteration count, or −1 when maxit was reached. */
static PetscErrorCode RigImpSolve(MbScheme s, const PetscReal J[9], PetscReal h, const PetscReal rhs[3], PetscReal O[3], PetscInt *its)
{
  PetscReal tol = s->rtol * h * MbV3Norm(rhs), tiny = 4 * PETSC_MACHINE_EPSILON * MbV3Norm(rhs);
  PetscFunctionBegin;
  *its = -1;
  for (PetscInt k = 0; k <= s->maxit; k++) {
    PetscReal JO[3], r[3], psi[3], E[9], Tg[9], A[9], HA[9], M[9], EM[9], Mi[9], d[3];
    MbM3Mult(J, O, JO);
    MbV3Scale(0.5 * h, O, psi);
    MbExpMap(psi, E);
    MbM3Mult(E, JO, r);
    MbV3Sub(r, rhs, r);
    if (MbV3Norm(r) <= PetscMax(tol, tiny)) {
      *its = k;
      break;
    }
    if (k == s->maxit) break;
    MbExpMapTangent(psi, Tg);
    MbM3Hat(JO, A);
    MbM3MatMult(A, Tg, HA);
    for (int i = 0; i < 9; i++) M[i] = J[i] - 0.5 * h * HA[i];
    MbM3MatMult(E, M, EM);
    PetscCall(MbM3Invert(EM, Mi));
    MbM3Mult(Mi, r, d);
    MbV3Sub(O, d, O);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* rhs = exp[−h/2 Ω₀] JΩ₀ + hT, the right side of (36) and (37), with the total referential
   impulse hT recovered from (34) (so it holds whatever impulse was added to Ω₁ since
   StepBegin). */
static void MomentumRhs(MbBody b, PetscReal h, PetscReal rhs[3])
{
  const PetscReal *J = b->mp.inertia, *O0 = b->u0, *Oh = b->aux, *O1 = b->u;
  PetscReal        hT[3], a[3], c[3];
  MbV3Sub(O1, O0, a);
  MbM3Mult(J, a, hT);
  MbM3Mult(J, Oh, a);
  MbV3Cross(Oh, a, c);
  MbV3Axpy(h, c, hT, hT);
  MbM3Mult(J, O0, a);
  ExpApply(-0.5 * h, O0, a, rhs);
  MbV3Add(rhs, hT, rhs);
}

static PetscErrorCode RigEnd(MbScheme s, MbBody b, PetscReal t, PetscReal h, RigVariant variant)
{
  const PetscReal *J = b->mp.inertia, *Ji = b->Jinv;
  PetscReal        L[9], a[3], rhs[3], *O1 = b->u;
  PetscFunctionBegin;
  GetLambda(b->q, L); /* Λ(t+h/2) */
  switch (variant) {
  case RIG_POS: /* (35) */
    RotateBy(L, 0.5 * h, O1);
    break;
  case RIG_NEG: /* (35), (36) */
    RotateBy(L, 0.5 * h, O1);
    if (Isotropic(J)) break; /* (36) maps JΩ₁ to itself: rhs = JΩ₀ + hT = JΩ₁ (see Isotropic) */
    MomentumRhs(b, h, rhs);
    ExpApply(-0.5 * h, O1, rhs, a);
    MbM3Mult(Ji, a, O1);
    break;
  case RIG_IMP: { /* (37), (38) */
    PetscInt its;
    MomentumRhs(b, h, rhs);
    PetscCall(RigImpSolve(s, J, h, rhs, O1, &its));
    if (its < 0) {
      PetscCheck(!s->error_if_not_converged, PETSC_COMM_SELF, PETSC_ERR_NOT_CONVERGED, "RIG_IMP: Newton on eq. (37) did not converge in %" PetscInt_FMT " iterations for body %" PetscInt_FMT " at t = %g (h = %g)", s->maxit, b->id, (double)t,
                 (double)h);
      s->failures++;
      PetscCall(PetscInfo(NULL, "RIG_IMP: Newton did not converge for body %" PetscInt_FMT " at t = %g\n", b->id, (double)t));
      its = s->maxit;
    }
    s->iterations += its;
    RotateBy(L, 0.5 * h, O1);
  } break;
  }
  PutLambda(L, b->q);
  MbV3Axpy(0.5 * h, &b->u[3], &b->q[9], &b->q[9]);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RigPosEnd(MbScheme s, MbBody b, PetscReal t, PetscReal h) { return RigEnd(s, b, t, h, RIG_POS); }
static PetscErrorCode RigNegEnd(MbScheme s, MbBody b, PetscReal t, PetscReal h) { return RigEnd(s, b, t, h, RIG_NEG); }
static PetscErrorCode RigImpEnd(MbScheme s, MbBody b, PetscReal t, PetscReal h) { return RigEnd(s, b, t, h, RIG_IMP); }

static PetscErrorCode RigSetOps(MbScheme s, PetscErrorCode (*end)(MbScheme, MbBody, PetscReal, PetscReal))
{
  s->requires  = MB_BODY_TRAIT_ROTATION;
  s->ops.begin = RigBegin;
  s->ops.end   = end;
  return PETSC_SUCCESS;
}

PetscErrorCode MbSchemeCreate_RigPos(MbScheme s) { return RigSetOps(s, RigPosEnd); }
PetscErrorCode MbSchemeCreate_RigNeg(MbScheme s) { return RigSetOps(s, RigNegEnd); }
PetscErrorCode MbSchemeCreate_RigImp(MbScheme s) { return RigSetOps(s, RigImpEnd); }
