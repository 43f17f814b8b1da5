/* Private to src/body/finite_element/: the element library (element.c) and the total
   Lagrangian Saint Venant–Kirchhoff kernels (kernel.c) of finite-element bodies (seed 003,
   "Finite element dynamics"). Node orderings are Solfec-1.0's (src/shape/element.c): the
   base counter-clockwise seen from above, then the apex (tetrahedron, pyramid) or the top
   nodes above the bottom ones (wedge, hexahedron). */
#ifndef MOREAU_FEM_H
#define MOREAU_FEM_H

#include <petscsys.h>

#define MB_FEM_MAX_NEN 8 /* nodes of the largest element (HEX8) */
#define MB_FEM_MAX_NQP 8 /* quadrature points of the largest rule */

/* An element type: its nodes, quadrature rule on its reference cell and shape functions. */
typedef struct {
  const char      *name; /* for messages */
  PetscInt         nen;  /* nodes */
  PetscInt         nqp;  /* quadrature points */
  const PetscReal *qp;   /* their reference coordinates, 3·nqp */
  const PetscReal *qw;   /* their weights (the reference cell's volume in all) */
  /* N (nen) and ∂N/∂ξ (nen×3, row-major) at reference point xi */
  void (*shape)(const PetscReal xi[3], PetscReal N[], PetscReal dN[]);
  const PetscReal *centre; /* reference coordinates of the cell's centre (point location) */
} MbFemElement;

/* The element type of nen nodes (4 TET4, 5 PYR5, 6 WEDGE6, 8 HEX8), or NULL. */
PETSC_INTERN const MbFemElement *MbFemElementOfSize(PetscInt nen);
/* Referential gradients G = ∂N/∂X (nen×3 row-major) and det(∂X/∂ξ) at quadrature point k
   of an element with nodes X (3·nen). */
PETSC_INTERN void MbFemGradients(const MbFemElement *e, const PetscReal X[], const PetscReal dN[], PetscReal G[], PetscReal *detJ);
/* Whether reference point xi lies in the element's cell, to tolerance tol. */
PETSC_INTERN PetscBool MbFemInside(const MbFemElement *e, const PetscReal xi[3], PetscReal tol);
/* The reference point xi whose image under the element's map with nodes x (3·nen) is the
   point p: Newton from the centre. Returns PETSC_FALSE when it does not converge. */
PETSC_INTERN PetscBool MbFemInvert(const MbFemElement *e, const PetscReal x[], const PetscReal p[3], PetscReal xi[3]);

/* The Saint Venant–Kirchhoff material: S = λ tr(E) I + 2μ E, E = ½(FᵀF − I). */
typedef struct {
  PetscReal lambda, mu;
} MbSvk;

/* At one quadrature point with gradients G (nen×3) and weight w (w = detJ·weight of the
   rule), displacements u (3·nen, node after node):
   f += w P G (f_int, P = F S the first Piola–Kirchhoff stress), and the strain energy
   density times w into *W (either output may be NULL). */
PETSC_INTERN void MbSvkForce(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], PetscReal f[], PetscReal *W);
/* The same point's tangent applied to v: y += w dP G with dF = Σ v_a ⊗ G_a,
   dP = dF S + F (λ tr(dE) I + 2μ dE), dE = sym(Fᵀ dF): y += K v (K = ∂f_int/∂u). */
PETSC_INTERN void MbSvkTangentMult(const MbSvk *m, PetscInt nen, const PetscReal G[], PetscReal w, const PetscReal u[], const PetscReal v[], PetscReal y[]);
/* The Cauchy stress σ = J⁻¹ F S Fᵀ (row-major) at the point. */
PETSC_INTERN void MbSvkCauchy(const MbSvk *m, PetscInt nen, const PetscReal G[], const PetscReal u[], PetscReal sigma[9]);

#endif
