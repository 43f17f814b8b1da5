/* Eigen-decomposition of a symmetric 3×3 matrix by the cyclic Jacobi method (Golub and
   Van Loan, Matrix Computations, 4th ed., §8.5.2-8.5.3): plane rotations zero one
   off-diagonal entry at a time; the sweeps converge quadratically, so a few suffice. */
#include <math.h>
#include <moreau/mbmath.h>

void MbM3SymEigen(const PetscReal A[9], PetscReal lambda[3], PetscReal V[9])
{
  PetscReal a[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) a[i][j] = 0.5 * (A[3 * i + j] + A[3 * j + i]);
  MbM3Identity(V);
  for (int sweep = 0; sweep < 50; sweep++) {
    PetscReal off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
    PetscReal dia = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
    if (off <= 1e-36 * dia || off == 0) break;
    for (int p = 0; p < 2; p++)
      for (int q = p + 1; q < 3; q++) {
        PetscReal apq = a[p][q], theta, t, c, s;
        if (apq == 0) continue;
        /* the symmetric Schur decomposition of the (p, q) block (G&VL Algorithm 8.5.1) */
        theta = (a[q][q] - a[p][p]) / (2 * apq);
        t     = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(1 + theta * theta));
        c     = 1 / sqrt(1 + t * t);
        s     = t * c;
        for (int k = 0; k < 3; k++) { /* a ← a J (columns p, q) */
          PetscReal akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (int k = 0; k < 3; k++) { /* a ← Jᵀ a (rows p, q) */
          PetscReal apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (int k = 0; k < 3; k++) { /* V ← V J */
          PetscReal vkp = V[3 * k + p], vkq = V[3 * k + q];
          V[3 * k + p] = c * vkp - s * vkq;
          V[3 * k + q] = s * vkp + c * vkq;
        }
      }
  }
  for (int i = 0; i < 3; i++) lambda[i] = a[i][i];
  if (MbM3Det(V) < 0)
    for (int k = 0; k < 3; k++) V[3 * k + 2] = -V[3 * k + 2]; /* a rotation */
}
