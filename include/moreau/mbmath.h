/* moreau — small dense math on 3-vectors and 3×3 matrices (row-major, double).
   Everything here is inline and allocation-free; it runs in the innermost loops. */
#ifndef MOREAU_MBMATH_H
#define MOREAU_MBMATH_H

#include <math.h>
#include <string.h>
#include <moreau/mbsys.h>

typedef PetscReal MbVec3[3];
typedef PetscReal MbMat3[9]; /* row-major: A[3*i+j] = A_ij */

static inline void MbV3Set(PetscReal a[3], PetscReal x, PetscReal y, PetscReal z)
{
  a[0] = x;
  a[1] = y;
  a[2] = z;
}
static inline void MbV3Copy(const PetscReal a[3], PetscReal b[3])
{
  b[0] = a[0];
  b[1] = a[1];
  b[2] = a[2];
}
static inline void MbV3Add(const PetscReal a[3], const PetscReal b[3], PetscReal c[3])
{
  c[0] = a[0] + b[0];
  c[1] = a[1] + b[1];
  c[2] = a[2] + b[2];
}
static inline void MbV3Sub(const PetscReal a[3], const PetscReal b[3], PetscReal c[3])
{
  c[0] = a[0] - b[0];
  c[1] = a[1] - b[1];
  c[2] = a[2] - b[2];
}
static inline void MbV3Scale(PetscReal s, const PetscReal a[3], PetscReal b[3])
{
  b[0] = s * a[0];
  b[1] = s * a[1];
  b[2] = s * a[2];
}
/* c = a + s b */
static inline void MbV3Axpy(PetscReal s, const PetscReal b[3], const PetscReal a[3], PetscReal c[3])
{
  c[0] = a[0] + s * b[0];
  c[1] = a[1] + s * b[1];
  c[2] = a[2] + s * b[2];
}
static inline PetscReal MbV3Dot(const PetscReal a[3], const PetscReal b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static inline PetscReal MbV3Norm(const PetscReal a[3]) { return sqrt(MbV3Dot(a, a)); }
static inline void      MbV3Cross(const PetscReal a[3], const PetscReal b[3], PetscReal c[3])
{
  PetscReal x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2], z = a[0] * b[1] - a[1] * b[0];
  c[0] = x;
  c[1] = y;
  c[2] = z;
}

static inline void MbM3Copy(const PetscReal A[9], PetscReal B[9]) { memcpy(B, A, 9 * sizeof(PetscReal)); }
static inline void MbM3Identity(PetscReal A[9])
{
  memset(A, 0, 9 * sizeof(PetscReal));
  A[0] = A[4] = A[8] = 1.0;
}
static inline void MbM3Diag(PetscReal a, PetscReal b, PetscReal c, PetscReal A[9])
{
  memset(A, 0, 9 * sizeof(PetscReal));
  A[0] = a;
  A[4] = b;
  A[8] = c;
}
/* y = A x */
static inline void MbM3Mult(const PetscReal A[9], const PetscReal x[3], PetscReal y[3])
{
  PetscReal a = A[0] * x[0] + A[1] * x[1] + A[2] * x[2], b = A[3] * x[0] + A[4] * x[1] + A[5] * x[2], c = A[6] * x[0] + A[7] * x[1] + A[8] * x[2];
  y[0] = a;
  y[1] = b;
  y[2] = c;
}
/* y = Aᵀ x */
static inline void MbM3MultTranspose(const PetscReal A[9], const PetscReal x[3], PetscReal y[3])
{
  PetscReal a = A[0] * x[0] + A[3] * x[1] + A[6] * x[2], b = A[1] * x[0] + A[4] * x[1] + A[7] * x[2], c = A[2] * x[0] + A[5] * x[1] + A[8] * x[2];
  y[0] = a;
  y[1] = b;
  y[2] = c;
}
/* C = A B (C may alias neither A nor B) */
static inline void MbM3MatMult(const PetscReal A[9], const PetscReal B[9], PetscReal C[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) C[3 * i + j] = A[3 * i] * B[j] + A[3 * i + 1] * B[3 + j] + A[3 * i + 2] * B[6 + j];
}
/* C = Aᵀ B */
static inline void MbM3TransposeMatMult(const PetscReal A[9], const PetscReal B[9], PetscReal C[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) C[3 * i + j] = A[i] * B[j] + A[3 + i] * B[3 + j] + A[6 + i] * B[6 + j];
}
static inline void MbM3Transpose(const PetscReal A[9], PetscReal B[9])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) B[3 * j + i] = A[3 * i + j];
}
static inline PetscReal MbM3Det(const PetscReal A[9]) { return A[0] * (A[4] * A[8] - A[5] * A[7]) - A[1] * (A[3] * A[8] - A[5] * A[6]) + A[2] * (A[3] * A[7] - A[4] * A[6]); }
static inline PetscReal MbM3Trace(const PetscReal A[9]) { return A[0] + A[4] + A[8]; }
/* Skew operator: hat(a) b = a × b (seed 000, below eq. (38)). */
// clang-format off: the matrix as it is written
static inline void MbM3Hat(const PetscReal a[3], PetscReal A[9])
{
  A[0] = 0.0;
  A[1] = -a[2];
  A[2] = a[1];
  A[3] = a[2];
  A[4] = 0.0;
  A[5] = -a[0];
  A[6] = -a[1];
  A[7] = a[0];
  A[8] = 0.0;
}
// clang-format on
/* Frobenius norm of A − B */
static inline PetscReal MbM3DiffNorm(const PetscReal A[9], const PetscReal B[9])
{
  PetscReal s = 0;
  for (int i = 0; i < 9; i++) s += (A[i] - B[i]) * (A[i] - B[i]);
  return sqrt(s);
}

/** B = A⁻¹ of a 3×3 matrix; errors when |det A| is below tiny·‖A‖³. Not collective. */
PETSC_EXTERN PetscErrorCode MbM3Invert(const PetscReal A[9], PetscReal B[9]);
/** Exponential map exp[Ψ] by Rodrigues' formula (seed 000, after eq. (38)), with Taylor
    series of the two coefficients for small ‖Ψ‖ so that it is exact to round-off near 0. */
PETSC_EXTERN void MbExpMap(const PetscReal psi[3], PetscReal R[9]);
/** Tangent operator T(Ψ) of the exponential map: d/dε exp[Ψ + εδ] = exp[Ψ] hat(T(Ψ) δ).
    T = I − (1−cos θ)/θ² Ψ̂ + (θ − sin θ)/θ³ Ψ̂², θ = ‖Ψ‖ (right trivialisation). */
PETSC_EXTERN void MbExpMapTangent(const PetscReal psi[3], PetscReal T[9]);
/** Inverse of the exponential map: Ψ with exp[Ψ] = R, ‖Ψ‖ ≤ π. */
PETSC_EXTERN void MbLogMap(const PetscReal R[9], PetscReal psi[3]);
/** Eigenvalues lambda and orthonormal eigenvectors (the columns of the rotation V, row-major)
    of the symmetric part of A, so that A = V diag(lambda) Vᵀ; cyclic Jacobi. Not collective. */
PETSC_EXTERN void MbM3SymEigen(const PetscReal A[9], PetscReal lambda[3], PetscReal V[9]);

#endif
