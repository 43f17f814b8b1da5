/* Exponential map on SO(3), its tangent and its inverse (seed 000, Rodrigues' formula). */
#include <moreau/mbmath.h>

/* Coefficients a = sin θ/θ, b = (1 − cos θ)/θ², c = (θ − sin θ)/θ³; below θ = 0.1 their
   Taylor series to θ¹⁰ are exact to round-off (the next terms, θ¹²/13!, θ¹²/14!, θ¹²/15!,
   are below 2e-22 there). A rigid body's half-step rotation hΩ/2 is nearly always below
   0.1, so the rigid schemes rarely pay for sin and cos (1 % of a granular run). */
static void ExpCoefficients(PetscReal t, PetscReal *a, PetscReal *b, PetscReal *c)
{
  if (t < 0.1) {
    PetscReal t2 = t * t;
    /* Horner in θ² with the coefficients ±1/n! folded at compile time: no division */
    *a = 1.0 + t2 * (-1.0 / 6.0 + t2 * (1.0 / 120.0 + t2 * (-1.0 / 5040.0 + t2 * (1.0 / 362880.0 + t2 * (-1.0 / 39916800.0)))));
    *b = 0.5 + t2 * (-1.0 / 24.0 + t2 * (1.0 / 720.0 + t2 * (-1.0 / 40320.0 + t2 * (1.0 / 3628800.0 + t2 * (-1.0 / 479001600.0)))));
    *c = 1.0 / 6.0 + t2 * (-1.0 / 120.0 + t2 * (1.0 / 5040.0 + t2 * (-1.0 / 362880.0 + t2 * (1.0 / 39916800.0 + t2 * (-1.0 / 6227020800.0)))));
  } else {
    PetscReal s = sin(t), co = cos(t);
    *a = s / t;
    *b = (1.0 - co) / (t * t);
    *c = (t - s) / (t * t * t);
  }
}

void MbExpMap(const PetscReal psi[3], PetscReal R[9])
{
  PetscReal a, b, c, H[9], H2[9];
  ExpCoefficients(MbV3Norm(psi), &a, &b, &c);
  MbM3Hat(psi, H);
  MbM3MatMult(H, H, H2);
  MbM3Identity(R);
  for (int i = 0; i < 9; i++) R[i] += a * H[i] + b * H2[i];
}

void MbExpMapTangent(const PetscReal psi[3], PetscReal T[9])
{
  PetscReal a, b, c, H[9], H2[9];
  ExpCoefficients(MbV3Norm(psi), &a, &b, &c);
  MbM3Hat(psi, H);
  MbM3MatMult(H, H, H2);
  MbM3Identity(T);
  for (int i = 0; i < 9; i++) T[i] += -b * H[i] + c * H2[i];
}

void MbLogMap(const PetscReal R[9], PetscReal psi[3])
{
  /* R − Rᵀ = 2 sin θ n̂ gives w = 2 sin θ n; θ = atan2(sin θ, cos θ) is well conditioned at
     every angle, where acos alone loses half the digits near 0 and π. */
  PetscReal w[3] = {R[7] - R[5], R[2] - R[6], R[3] - R[1]}, s = 0.5 * MbV3Norm(w), co = 0.5 * (MbM3Trace(R) - 1.0);
  PetscReal t = atan2(s, co);
  if (t < 1e-6) { /* θ/sin θ = 1 + θ²/6 + … */
    MbV3Scale(0.5 * (1.0 + t * t / 6.0), w, psi);
  } else if (s > 1e-3) {
    MbV3Scale(t / (2.0 * s), w, psi);
  } else { /* near π, n from the symmetric part (R + Rᵀ)/2 − cos θ I = (1 − cos θ) n nᵀ */
    PetscInt  k = (R[0] >= R[4] && R[0] >= R[8]) ? 0 : (R[4] >= R[8] ? 1 : 2);
    PetscReal n[3];
    for (int i = 0; i < 3; i++) n[i] = 0.5 * (R[3 * i + k] + R[3 * k + i]) - (i == k ? co : 0.0);
    MbV3Scale(1.0 / MbV3Norm(n), n, n);
    if (MbV3Dot(n, w) < 0) MbV3Scale(-1.0, n, n);
    MbV3Scale(t, n, psi);
  }
}

PetscErrorCode MbM3Invert(const PetscReal A[9], PetscReal B[9])
{
  PetscReal d = MbM3Det(A), s = 0;
  PetscFunctionBegin;
  for (int i = 0; i < 9; i++) s = PetscMax(s, PetscAbsReal(A[i]));
  PetscCheck(PetscAbsReal(d) > 1e-14 * s * s * s && s > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "3x3 matrix is singular: det %g, max entry %g", (double)d, (double)s);
  B[0] = (A[4] * A[8] - A[5] * A[7]) / d;
  B[1] = (A[2] * A[7] - A[1] * A[8]) / d;
  B[2] = (A[1] * A[5] - A[2] * A[4]) / d;
  B[3] = (A[5] * A[6] - A[3] * A[8]) / d;
  B[4] = (A[0] * A[8] - A[2] * A[6]) / d;
  B[5] = (A[2] * A[3] - A[0] * A[5]) / d;
  B[6] = (A[3] * A[7] - A[4] * A[6]) / d;
  B[7] = (A[1] * A[6] - A[0] * A[7]) / d;
  B[8] = (A[0] * A[4] - A[1] * A[3]) / d;
  PetscFunctionReturn(PETSC_SUCCESS);
}
